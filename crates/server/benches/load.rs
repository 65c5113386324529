//! Load on loopback: `CLIENTS` clients at once each play `GAMES` full games (one person against
//! three `random` bots, so the figure is the server's, not the agents') through the HTTP API, then
//! fetch each game's replay. Reports requests per second and latency percentiles, and fails if
//! any game is lost (not finished, or its replay missing or short).
//!
//! The anchor, measured in the same run, is the same games played in-process through
//! `server::Game` without HTTP on one thread; the ratio says what the HTTP layer costs.
//!
//! `cargo bench -p server --bench load` (optionally `-- CLIENTS GAMES`).

use rand::{RngExt, SeedableRng};
use serde_json::json;
use server::client::Client;
use server::{AppState, Running, Settings};
use std::time::{Duration, Instant};

const SEATS: [&str; 4] = ["human", "random", "random", "random"];

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let clients = args.first().copied().unwrap_or(64);
    let games = args.get(1).copied().unwrap_or(10);
    let settings = Settings { max_games: clients * games + 16, ..Settings::default() };
    let app = AppState::new(settings).expect("settings");
    let running = Running::start("127.0.0.1:0", app).expect("server starts");
    let addr = running.addr();

    let anchor = anchor_requests_per_second(200);

    let start = Instant::now();
    let handles: Vec<_> = (0..clients)
        .map(|c| {
            std::thread::spawn(move || {
                let mut client = Client::new(addr);
                let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(c as u64);
                let mut latencies = Vec::new();
                let mut lost = 0usize;
                let mut timed = |client: &mut Client, f: &dyn Fn(&mut Client) -> server::client::Reply| {
                    let t = Instant::now();
                    let r = f(client);
                    latencies.push(t.elapsed());
                    r
                };
                for g in 0..games {
                    let seed = (c * games + g) as u64;
                    let mut resp = timed(&mut client, &|cl| {
                        cl.post("/api/games", &json!({ "seats": SEATS, "seed": seed })).expect("create")
                    })
                    .json();
                    let id = resp["game"].as_str().expect("game id").to_string();
                    while resp["status"] == "playing" {
                        let legal = resp["legal"].as_array().expect("legal").clone();
                        let pick = legal[rng.random_range(0..legal.len())]["name"].as_str().unwrap().to_string();
                        let r = timed(&mut client, &|cl| {
                            cl.post(&format!("/api/games/{id}/action"), &json!({ "seat": 0, "action": pick }))
                                .expect("action")
                        });
                        assert_eq!(r.status, 200, "{}", r.text);
                        resp = r.json();
                    }
                    let replay = timed(&mut client, &|cl| cl.get(&format!("/api/games/{id}/replay")).expect("replay"));
                    let steps = replay.json()["steps"].as_u64().unwrap_or(0);
                    if replay.status != 200 || steps == 0 {
                        lost += 1;
                    }
                }
                (latencies, lost)
            })
        })
        .collect();
    let mut latencies: Vec<Duration> = Vec::new();
    let mut lost = 0;
    for h in handles {
        let (l, x) = h.join().expect("client thread");
        latencies.extend(l);
        lost += x;
    }
    let elapsed = start.elapsed().as_secs_f64();
    latencies.sort();
    let pct = |p: f64| latencies[((latencies.len() as f64 * p) as usize).min(latencies.len() - 1)].as_secs_f64() * 1e3;
    let rps = latencies.len() as f64 / elapsed;
    println!(
        "load: {clients} clients x {games} games = {} games, {} requests in {elapsed:.2} s: {rps:.0} requests/s, \
         p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; lost games: {lost}",
        clients * games,
        latencies.len(),
        pct(0.50),
        pct(0.99),
        pct(1.0),
    );
    println!(
        "anchor: the same kind of game in-process without HTTP, one thread: {anchor:.0} actions/s; HTTP over loopback = {:.2}x the anchor",
        rps / anchor
    );
    assert_eq!(lost, 0, "{lost} games were lost");
}

/// Actions per second of the same games played through `server::Game` directly.
fn anchor_requests_per_second(games: u64) -> f64 {
    let agents = agents::Agents::new();
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(99);
    let mut actions = 0u64;
    let start = Instant::now();
    for g in 0..games {
        let request =
            server::CreateGame { seats: SEATS.iter().map(|s| s.to_string()).collect(), rules: None, seed: Some(g) };
        let (mut game, _) = server::Game::create(format!("a{g}"), &request, g, &agents).expect("game");
        while !game.is_over() {
            let legal: Vec<engine::Action> = game.state().legal_mask().actions().collect();
            let a = legal[rng.random_range(0..legal.len())];
            game.act(engine::Seat(0), &a.name()).expect("legal action");
            actions += 1;
        }
    }
    actions as f64 / start.elapsed().as_secs_f64()
}
