//! Load on loopback (see `server::load`): requests per second and latency percentiles of many
//! clients playing full games at once; fails if any game is lost.
//!
//! The anchor, measured in the same run, is the same games played in-process through
//! `server::Game` without HTTP on one thread; the ratio says what the HTTP layer costs.
//!
//! `cargo bench -p server --bench load` (optionally `-- CLIENTS GAMES`).

use games::kessel::Kessel;
use rand::{RngExt, SeedableRng};
use server::load::SEATS;
use std::time::Instant;

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let clients = args.first().copied().unwrap_or(64);
    let games = args.get(1).copied().unwrap_or(10);
    let anchor = anchor_requests_per_second(200);
    let r = server::load::run(clients, games);
    println!(
        "load: {clients} clients x {games} games = {} games, {} requests in {:.2} s: {:.0} requests/s, \
         p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; lost games: {}",
        clients * games,
        r.requests,
        r.seconds,
        r.requests_per_second(),
        r.p50_ms,
        r.p99_ms,
        r.max_ms,
        r.lost,
    );
    println!(
        "anchor: the same kind of game in-process without HTTP, one thread: {anchor:.0} actions/s; HTTP over loopback = {:.2}x the anchor",
        r.requests_per_second() / anchor
    );
    assert_eq!(r.lost, 0, "{} games were lost", r.lost);
}

/// Actions per second of the same games played through `server::Game` directly.
fn anchor_requests_per_second(games: u64) -> f64 {
    let agents = agents::Agents::new();
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(99);
    let mut actions = 0u64;
    let start = Instant::now();
    for g in 0..games {
        let request = server::CreateGame {
            seats: SEATS.iter().map(|s| s.to_string()).collect(),
            seed: Some(g),
            ..Default::default()
        };
        let (mut game, _) =
            server::Game::create(format!("a{g}"), &request, g, &agents, &server::budget::Budget::unlimited())
                .expect("game");
        while !game.is_over() {
            let state = game.state_of::<Kessel>().expect("a Kessel game");
            let legal: Vec<games::kessel::Action> = state.legal_mask().actions().collect();
            let a = legal[rng.random_range(0..legal.len())];
            game.act(game::Seat(0), &a.name(), &server::budget::Budget::unlimited()).expect("legal action");
            actions += 1;
        }
    }
    actions as f64 / start.elapsed().as_secs_f64()
}
