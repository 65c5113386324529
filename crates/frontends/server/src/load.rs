//! A bounded load run on loopback: `clients` clients at once each play `games` full games (one
//! person against three `random` bots, so the figure is the server's, not the agents') through the
//! HTTP API, then fetch each game's replay. Used by the load benchmark (`benches/load.rs`, the
//! figure in `BENCHMARKS.md`) and by a small test run in the test suite, which fails if any game
//! is lost (not finished, or its replay missing or short).

use crate::app::AppState;
use crate::client::{Client, Reply};
use crate::running::Running;
use crate::settings::Settings;
use rand::{RngExt, SeedableRng};
use serde_json::json;
use std::time::{Duration, Instant};

/// Who sits where in every load game.
pub const SEATS: [&str; 4] = ["human", "random", "random", "random"];

/// What a load run measured.
#[derive(Clone, Debug)]
pub struct LoadReport {
    /// Clients at once.
    pub clients: usize,
    /// Games per client.
    pub games: usize,
    /// Requests made.
    pub requests: usize,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Latency percentiles (ms): p50, p99, max.
    pub p50_ms: f64,
    /// 99th percentile latency (ms).
    pub p99_ms: f64,
    /// Slowest request (ms).
    pub max_ms: f64,
    /// Games that did not finish or whose replay was missing or short.
    pub lost: usize,
}

impl LoadReport {
    /// Requests per second.
    pub fn requests_per_second(&self) -> f64 {
        self.requests as f64 / self.seconds
    }
}

/// Starts a server on a free loopback port and plays the load (see the module documentation).
pub fn run(clients: usize, games: usize) -> LoadReport {
    // Every load client comes from loopback: the limits per client are off here.
    let settings = Settings {
        max_games: clients * games + 16,
        seed: Some(0),
        requests_per_second: 0.0,
        max_games_per_client: usize::MAX,
        ..Settings::default()
    };
    let app = AppState::new(settings).expect("default settings are valid");
    let running = Running::start("127.0.0.1:0", app).expect("a loopback server starts");
    let addr = running.addr();
    let start = Instant::now();
    let handles: Vec<_> = (0..clients)
        .map(|c| {
            std::thread::spawn(move || {
                let mut client = Client::new(addr);
                let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(c as u64);
                let mut latencies = Vec::new();
                let mut lost = 0usize;
                let mut timed = |client: &mut Client, f: &dyn Fn(&mut Client) -> Reply| {
                    let t = Instant::now();
                    let r = f(client);
                    latencies.push(t.elapsed());
                    r
                };
                for g in 0..games {
                    let seed = (c * games + g) as u64;
                    let created = timed(&mut client, &|cl| {
                        cl.post("/api/games", &json!({ "seats": SEATS, "seed": seed })).expect("create")
                    });
                    if created.status != 200 {
                        lost += 1;
                        continue;
                    }
                    let mut resp = created.json();
                    let id = resp["game"].as_str().unwrap_or_default().to_string();
                    client.set_token(resp["tokens"][0]["token"].as_str());
                    let mut broken = false;
                    while resp["status"] == "playing" {
                        let legal = resp["legal"].as_array().cloned().unwrap_or_default();
                        let Some(pick) = (!legal.is_empty())
                            .then(|| legal[rng.random_range(0..legal.len())]["name"].as_str().map(str::to_string))
                            .flatten()
                        else {
                            broken = true;
                            break;
                        };
                        let r = timed(&mut client, &|cl| {
                            cl.post(&format!("/api/games/{id}/action"), &json!({ "seat": 0, "action": pick }))
                                .expect("action")
                        });
                        if r.status != 200 {
                            broken = true;
                            break;
                        }
                        resp = r.json();
                    }
                    let replay = timed(&mut client, &|cl| cl.get(&format!("/api/games/{id}/replay")).expect("replay"));
                    let steps = replay.json()["steps"].as_u64().unwrap_or(0);
                    if broken || replay.status != 200 || steps == 0 {
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
    let seconds = start.elapsed().as_secs_f64();
    latencies.sort();
    let pct = |p: f64| {
        latencies
            .get(((latencies.len() as f64 * p) as usize).min(latencies.len().saturating_sub(1)))
            .map_or(0.0, |d| d.as_secs_f64() * 1e3)
    };
    LoadReport {
        clients,
        games,
        requests: latencies.len(),
        seconds,
        p50_ms: pct(0.50),
        p99_ms: pct(0.99),
        max_ms: pct(1.0),
        lost,
    }
}
