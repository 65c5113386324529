//! A soak run on loopback, bounded in time: many clients at once create games of both kinds,
//! play some to their end, abandon others midway, seat two people at one table, watch games
//! without a secret and send malformed or unauthorised requests, for `seconds`, while
//! [`attack`]ers harvest seeds, name agents the server does not offer, hold connections open and
//! fill their share of games. Every answer is checked: no 5xx, no game of an honest player lost
//! or refused while it was still played, and no answer carrying a card its receiver may not
//! see (a seat's answer is that seat's view; a spectator's has no view; a wrong secret is
//! refused). Each client, player or attacker, has a loopback address of its own, so the
//! server's limits per client apply as on a real network. Used by the soak benchmark
//! (`benches/soak.rs`, the figures in `BENCHMARKS.md`) and, for a few seconds, by the test
//! suite.

pub mod attack;

use crate::app::AppState;
use crate::client::{Client, Reply};
use crate::running::Running;
use crate::settings::Settings;
use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::{Duration, Instant};

/// What a soak run measured.
#[derive(Clone, Debug, Default)]
pub struct SoakReport {
    /// Clients at once.
    pub clients: usize,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Requests made.
    pub requests: usize,
    /// Games created.
    pub games: usize,
    /// Games played to their end.
    pub finished: usize,
    /// Games abandoned midway on purpose.
    pub abandoned: usize,
    /// Malformed or unauthorised requests sent (each must get a 4xx).
    pub bad_requests: usize,
    /// Latency percentiles (ms).
    pub p50_ms: f64,
    /// 99th percentile latency (ms).
    pub p99_ms: f64,
    /// Slowest request (ms).
    pub max_ms: f64,
    /// Answers with a 5xx status.
    pub server_errors: usize,
    /// Games that vanished or broke while still being played, or were refused at creation.
    pub lost: usize,
    /// The statuses of the answers that lost those games (0: no answer; a game's state that made
    /// no sense counts as 200), for finding out why.
    pub lost_by_status: std::collections::BTreeMap<u16, usize>,
    /// Answers that carried what their receiver may not see (must be 0).
    pub leaks: usize,
    /// Bad requests that were not answered with a 4xx.
    pub unrefused: usize,
    /// Resident memory of the process before and after, in MiB (Linux; 0 elsewhere).
    pub rss_before_mib: f64,
    /// Resident memory after the run, idle games swept.
    pub rss_after_mib: f64,
    /// Resident memory half-way through the run (with `rss_after_mib`: does it keep growing?).
    pub rss_half_mib: f64,
    /// The largest resident memory sampled (every second) during the run.
    pub rss_peak_mib: f64,
    /// Games held by the server at the end, after the idle sweep.
    pub games_held_after: usize,
    /// What the attackers achieved.
    pub attacks: attack::AttackReport,
    /// Requests whose agents stopped because their client hung up.
    pub abandoned_work: u64,
}

impl SoakReport {
    /// Requests per second.
    pub fn requests_per_second(&self) -> f64 {
        self.requests as f64 / self.seconds.max(1e-9)
    }

    fn add(&mut self, o: &SoakReport) {
        self.requests += o.requests;
        self.games += o.games;
        self.finished += o.finished;
        self.abandoned += o.abandoned;
        self.bad_requests += o.bad_requests;
        self.server_errors += o.server_errors;
        self.lost += o.lost;
        for (status, n) in &o.lost_by_status {
            *self.lost_by_status.entry(*status).or_default() += n;
        }
        self.leaks += o.leaks;
        self.unrefused += o.unrefused;
    }
}

/// Resident set size of this process in MiB (`/proc/self/statm`; 0 where it does not exist).
pub fn rss_mib() -> f64 {
    let Ok(text) = std::fs::read_to_string("/proc/self/statm") else { return 0.0 };
    let pages: f64 = text.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0.0);
    pages * 4096.0 / (1024.0 * 1024.0)
}

/// One client's view of the run.
struct Soaker {
    client: Client,
    rng: rand_pcg::Pcg64Mcg,
    latencies: Vec<Duration>,
    report: SoakReport,
}

impl Soaker {
    fn send(&mut self, method: &str, path: &str, body: Option<&[u8]>, token: Option<&str>) -> Option<Reply> {
        self.client.set_token(token);
        let t = Instant::now();
        let r = self.client.send(method, path, body);
        self.latencies.push(t.elapsed());
        self.report.requests += 1;
        match r {
            Ok(r) => {
                if r.status >= 500 {
                    self.report.server_errors += 1;
                }
                Some(r)
            }
            Err(_) => {
                self.report.server_errors += 1;
                None
            }
        }
    }

    /// A game lost to an answer with `status`.
    fn lose(&mut self, status: u16) {
        self.report.lost += 1;
        *self.report.lost_by_status.entry(status).or_default() += 1;
    }

    /// A game answer for `seat` must be that seat's own view.
    fn check_own(&mut self, resp: &Value, seat: u64) {
        let own = resp["seat"].as_u64() == Some(seat) && resp["view"]["viewer"].as_u64() == Some(seat);
        if !own || resp.get("views").is_some() || resp.get("final_hands").is_some() {
            self.report.leaks += 1;
        }
    }

    /// Plays a new game: `people` human seats, the rest `random`; plays until the end or, when
    /// `abandon_after` is set, walks away after that many actions.
    fn play(&mut self, classic: bool, people: usize, abandon_after: Option<usize>) {
        let mut seats = vec!["human"; people];
        seats.resize(if classic { 3 } else { 4 }, "random");
        let mut body = json!({ "seats": seats });
        if classic {
            body["game"] = json!("classic");
            body["rules"] = json!({ "hand_limit": 5, "hand_limit_end": "most-credits" });
        }
        let Some(created) = self.send("POST", "/api/games", Some(body.to_string().as_bytes()), None) else { return };
        if created.status != 200 {
            self.lose(created.status);
            return;
        }
        self.report.games += 1;
        let mut resp = created.json();
        let id = resp["game"].as_str().unwrap_or_default().to_string();
        let tokens: Vec<(u64, String)> = resp["tokens"]
            .as_array()
            .map(|ts| ts.iter().filter_map(|t| Some((t["seat"].as_u64()?, t["token"].as_str()?.to_string()))).collect())
            .unwrap_or_default();
        let token_of = |seat: u64| tokens.iter().find(|(s, _)| *s == seat).map(|(_, t)| t.clone());
        let mut actions = 0;
        while resp["status"] == "playing" {
            if abandon_after.is_some_and(|n| actions >= n) {
                self.report.abandoned += 1;
                return;
            }
            // Whose turn: ask as the acting person (another person's page polls meanwhile).
            let Some(actor) = resp["view"]["actor"].as_u64().or_else(|| resp["actor"].as_u64()) else {
                self.lose(200);
                return;
            };
            let Some(token) = token_of(actor) else {
                self.lose(200);
                return;
            };
            let Some(mine) = self.send("GET", &format!("/api/games/{id}?seat={actor}"), None, Some(&token)) else {
                return;
            };
            if mine.status != 200 {
                self.lose(mine.status);
                return;
            }
            let view = mine.json();
            self.check_own(&view, actor);
            // Now and then, a spectator looks, and someone tries the acting seat with another's
            // secret: neither may see the seat's cards.
            if self.rng.random_range(0..8) == 0 {
                if let Some(r) = self.send("GET", &format!("/api/games/{id}?seat={actor}"), None, None) {
                    let w = r.json();
                    if w.get("view").is_some() || w["spectator"] != true {
                        self.report.leaks += 1;
                    }
                }
                if let Some(other) = tokens.iter().find(|(s, _)| *s != actor).map(|(_, t)| t.clone()) {
                    self.report.bad_requests += 1;
                    if let Some(r) = self.send("GET", &format!("/api/games/{id}?seat={actor}"), None, Some(&other))
                        && r.status != 403
                    {
                        self.report.unrefused += 1;
                        if r.status == 200 {
                            self.report.leaks += 1;
                        }
                    }
                }
            }
            let legal = view["legal"].as_array().cloned().unwrap_or_default();
            if legal.is_empty() {
                self.lose(200);
                return;
            }
            let pick = legal[self.rng.random_range(0..legal.len())]["name"].clone();
            let action = json!({ "seat": actor, "action": pick }).to_string();
            let Some(r) = self.send("POST", &format!("/api/games/{id}/action"), Some(action.as_bytes()), Some(&token))
            else {
                return;
            };
            if r.status != 200 {
                self.lose(r.status);
                return;
            }
            resp = r.json();
            self.check_own(&resp, actor);
            actions += 1;
        }
        match self.send("GET", &format!("/api/games/{id}/replay"), None, None) {
            Some(r) if r.status == 200 && r.json()["steps"].as_u64().unwrap_or(0) > 0 => self.report.finished += 1,
            Some(r) => self.lose(r.status),
            None => {}
        }
    }

    /// Requests the server must refuse with a 4xx.
    fn misbehave(&mut self) {
        let cases: [(&str, &str, Option<&[u8]>); 6] = [
            ("POST", "/api/games", Some(b"{\"seats\": [\"human\",")),
            ("POST", "/api/games", Some(b"{\"seats\": [\"human\", \"wizard\"]}")),
            ("GET", "/api/games/g0000?seat=0", None),
            ("POST", "/api/games/g0000/action", Some(b"{\"seat\": 0, \"action\": \"stand\"}")),
            ("GET", "/api/nothing/here", None),
            ("POST", "/api/ask", Some(b"{\"scenario\": 7}")),
        ];
        let (method, path, body) = cases[self.rng.random_range(0..cases.len())];
        self.report.bad_requests += 1;
        if let Some(r) = self.send(method, path, body, Some("0123456789abcdef0123456789abcdef"))
            && !(400..500).contains(&r.status)
        {
            self.report.unrefused += 1;
        }
    }
}

/// The loopback address of honest client `c` (from `127.0.1.1`) or attacker `c` (from
/// `127.0.2.1`).
fn loopback(attacker: bool, c: usize) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, 1 + u8::from(attacker), (c % 254 + 1) as u8))
}

/// Starts a server on a free loopback port and soaks it for `seconds` with `clients` players and
/// `attackers` attackers (see the module documentation). Idle games are dropped after `idle` so
/// that abandoned ones do not pile up.
pub fn run(clients: usize, attackers: usize, seconds: f64, idle: Duration) -> SoakReport {
    // The server's own limits, but for the request rate: the players play at machine speed, far
    // past what a person's page asks. The header timeout is shortened for runs of seconds.
    // Finished games are dropped a second after their end (the default keeps them two minutes):
    // a player here finishes a game every few tenths of a second, and its finished games would
    // otherwise fill its share of 32 games, as a person never would.
    let settings = Settings {
        requests_per_second: 2000.0,
        burst: 2000,
        idle_timeout: idle,
        finished_timeout: idle.min(Duration::from_secs(1)),
        header_timeout: Settings::default().header_timeout.min(Duration::from_secs_f64(seconds / 4.0)),
        ..Settings::default()
    };
    let header_timeout = settings.header_timeout;
    let app = AppState::new(settings).expect("soak settings are valid");
    let running = Running::start("127.0.0.1:0", app.clone()).expect("a loopback server starts");
    let rss_before = rss_mib();
    let addr: SocketAddr = running.addr();
    let start = Instant::now();
    let deadline = start + Duration::from_secs_f64(seconds);
    let sampler = std::thread::spawn(move || {
        let (mut half, mut peak) = (0.0f64, 0.0f64);
        let half_time = start + Duration::from_secs_f64(seconds / 2.0);
        while Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(250).min(deadline.saturating_duration_since(Instant::now())));
            let rss = rss_mib();
            peak = peak.max(rss);
            if half == 0.0 && Instant::now() >= half_time {
                half = rss;
            }
        }
        (half, peak)
    });
    let attacking: Vec<_> = (0..attackers)
        .map(|a| {
            std::thread::spawn(move || {
                let mut attacker = attack::Attacker::new(addr, loopback(true, a), header_timeout);
                attacker.run(a, deadline);
                attacker.report
            })
        })
        .collect();
    let handles: Vec<_> = (0..clients)
        .map(|c| {
            std::thread::spawn(move || {
                let mut s = Soaker {
                    client: Client::new(addr).from_ip(loopback(false, c)),
                    rng: rand_pcg::Pcg64Mcg::seed_from_u64(c as u64),
                    latencies: Vec::new(),
                    report: SoakReport::default(),
                };
                while Instant::now() < deadline {
                    match s.rng.random_range(0..10) {
                        0..=2 => s.play(false, 1, None),
                        3 => s.play(true, 1, None),
                        4 => s.play(false, 2, None),
                        5 => s.play(true, 2, None),
                        6 | 7 => {
                            let after = s.rng.random_range(1..6);
                            let classic = s.rng.random_range(0..2) == 0;
                            s.play(classic, 1, Some(after))
                        }
                        _ => s.misbehave(),
                    }
                }
                (s.latencies, s.report)
            })
        })
        .collect();
    let mut latencies = Vec::new();
    let mut report = SoakReport { clients, ..SoakReport::default() };
    for h in handles {
        let (l, r) = h.join().expect("soak client");
        latencies.extend(l);
        report.add(&r);
    }
    for a in attacking {
        report.attacks.add(&a.join().expect("soak attacker"));
    }
    report.seconds = start.elapsed().as_secs_f64();
    report.abandoned_work = app.abandoned_requests();
    (report.rss_half_mib, report.rss_peak_mib) = sampler.join().expect("memory sampler");
    // Let the idle sweep drop the abandoned games, then measure what is left.
    std::thread::sleep(idle + Duration::from_millis(300));
    app.sweep_idle();
    report.games_held_after = app.games_held();
    latencies.sort();
    let pct = |p: f64| {
        latencies
            .get(((latencies.len() as f64 * p) as usize).min(latencies.len().saturating_sub(1)))
            .map_or(0.0, |d| d.as_secs_f64() * 1e3)
    };
    report.p50_ms = pct(0.50);
    report.p99_ms = pct(0.99);
    report.max_ms = pct(1.0);
    drop(running);
    report.rss_before_mib = rss_before;
    report.rss_after_mib = rss_mib();
    report
}
