//! Soak on loopback (see `server::soak`): many clients creating, playing and abandoning games of
//! both kinds, two people at some tables, spectators and malformed or unauthorised requests, for
//! a bounded time; fails on any 5xx, lost game or leaked card.
//!
//! `cargo bench -p server --bench soak` (optionally `-- CLIENTS SECONDS ATTACKERS`).

use std::time::Duration;

fn main() {
    let args: Vec<f64> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let clients = args.first().copied().unwrap_or(32.0) as usize;
    let seconds = args.get(1).copied().unwrap_or(180.0);
    let attackers = args.get(2).copied().unwrap_or(8.0) as usize;
    let r = server::soak::run(clients, attackers, seconds, Duration::from_secs(5));
    let a = &r.attacks;
    println!(
        "soak: {clients} clients for {:.0} s: {} requests, {:.0} requests/s, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; \
         games {} (finished {}, abandoned {}), bad requests {} (unrefused {}); 5xx {}, lost {} {:?}, leaks {}; \
         memory {:.1} MiB at start, {:.1} MiB half-way, {:.1} MiB peak, {:.1} MiB after; games held after the \
         idle sweep {}\nattackers: {attackers}: {} requests, {} refused by a limit; deals predicted {}, specs taken {}, \
         slow connections {} (held past the header timeout {}), searching tables hung up on {} (work stopped {}), \
         5xx {}",
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
        r.lost_by_status,
        r.leaks,
        r.rss_before_mib,
        r.rss_half_mib,
        r.rss_peak_mib,
        r.rss_after_mib,
        r.games_held_after,
        a.requests,
        a.refused,
        a.predicted,
        a.specs_taken,
        a.slow_opened,
        a.slow_held,
        a.hangups,
        r.abandoned_work,
        a.server_errors,
    );
    assert_eq!((r.server_errors, r.lost, r.leaks, r.unrefused), (0, 0, 0, 0), "{r:?}");
    assert_eq!((a.predicted, a.specs_taken, a.slow_held, a.server_errors), (0, 0, 0, 0), "{a:?}");
}
