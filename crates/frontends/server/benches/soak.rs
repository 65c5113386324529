//! Soak on loopback (see `server::soak`): many clients creating, playing and abandoning games of
//! both kinds, two people at some tables, spectators and malformed or unauthorised requests, for
//! a bounded time; fails on any 5xx, lost game or leaked card.
//!
//! `cargo bench -p server --bench soak` (optionally `-- CLIENTS SECONDS`).

use std::time::Duration;

fn main() {
    let args: Vec<f64> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let clients = args.first().copied().unwrap_or(32.0) as usize;
    let seconds = args.get(1).copied().unwrap_or(180.0);
    let r = server::soak::run(clients, seconds, Duration::from_secs(5));
    println!(
        "soak: {clients} clients for {:.0} s: {} requests, {:.0} requests/s, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; \
         games {} (finished {}, abandoned {}), bad requests {} (unrefused {}); 5xx {}, lost {}, leaks {}; \
         memory {:.1} MiB at start, {:.1} MiB half-way, {:.1} MiB peak, {:.1} MiB after; games held after the \
         idle sweep {}",
        r.seconds,
        r.requests,
        r.requests_per_second(),
        r.p50_ms,
        r.p99_ms,
        r.max_ms,
        r.games,
        r.finished,
        r.abandoned,
        r.bad_requests,
        r.unrefused,
        r.server_errors,
        r.lost,
        r.leaks,
        r.rss_before_mib,
        r.rss_half_mib,
        r.rss_peak_mib,
        r.rss_after_mib,
        r.games_held_after,
    );
    assert_eq!((r.server_errors, r.lost, r.leaks, r.unrefused), (0, 0, 0, 0), "{r:?}");
}
