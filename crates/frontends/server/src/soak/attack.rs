//! The attackers of a soak run, each from a loopback address of its own (so the limits per
//! client meet them as they would meet another machine): one harvests finished games' seeds
//! and tries to predict the next deal from them, one names agents the server does not offer,
//! one holds connections open with headers it never finishes, and one fills its share of games
//! and starts searching tables it hangs up on. Each counts what it got that it should not have.

use crate::client::{Client, connect};
use game::derive_seed;
use serde_json::json;
use std::io::{Read, Write};
use std::net::{IpAddr, SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// What the attackers achieved (every field but `requests`, `refused`, `slow_opened` and
/// `hangups` must stay 0).
#[derive(Clone, Debug, Default)]
pub struct AttackReport {
    /// Requests and connections the attackers made.
    pub requests: usize,
    /// Their requests refused by a limit (429, 408, 503), as they should be.
    pub refused: usize,
    /// Deals predicted from harvested seeds (must be 0).
    pub predicted: usize,
    /// Agent specs the server should not have taken that it took (must be 0).
    pub specs_taken: usize,
    /// Slow connections opened.
    pub slow_opened: usize,
    /// Slow connections the server kept open past its header timeout (with a second's grace)
    /// (must be 0).
    pub slow_held: usize,
    /// Searching tables created and hung up on.
    pub hangups: usize,
    /// Answers with a 5xx other than a full server's 503 (must be 0).
    pub server_errors: usize,
}

impl AttackReport {
    pub(crate) fn add(&mut self, o: &AttackReport) {
        self.requests += o.requests;
        self.refused += o.refused;
        self.predicted += o.predicted;
        self.specs_taken += o.specs_taken;
        self.slow_opened += o.slow_opened;
        self.slow_held += o.slow_held;
        self.hangups += o.hangups;
        self.server_errors += o.server_errors;
    }
}

/// The inverse of `x ^= x >> shift`.
fn unshift(x: u64, shift: u32) -> u64 {
    let mut y = x;
    for _ in 0..64 / shift + 1 {
        y = x ^ (y >> shift);
    }
    y
}

/// The inverse of an odd number modulo 2^64 (Newton's iteration).
fn inverse(c: u64) -> u64 {
    let mut i = c;
    for _ in 0..6 {
        i = i.wrapping_mul(2u64.wrapping_sub(c.wrapping_mul(i)));
    }
    i
}

/// The base seed that `derive_seed(base, number)` turns into `seed`: SplitMix64's finaliser is a
/// bijection, so a replay's seed and a guessed game number give the base back. This is why the
/// server does not derive secret seeds from a secret base with it.
pub fn base_of(seed: u64, number: u64) -> u64 {
    let z = unshift(seed, 31).wrapping_mul(inverse(0x94D0_49BB_1331_11EB));
    let z = unshift(z, 27).wrapping_mul(inverse(0xBF58_476D_1CE4_E5B9));
    unshift(z, 30) ^ number.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The attack on two consecutive games' seeds: the base seed and the first one's number, if
/// the seeds were derived from one base.
pub fn recover(first: u64, second: u64) -> Option<(u64, u64)> {
    (0..4096).map(|n| (base_of(first, n), n)).find(|&(base, n)| derive_seed(base, n + 1) == second)
}

/// One attacker: its role, its client and its report.
pub(crate) struct Attacker {
    addr: SocketAddr,
    ip: IpAddr,
    client: Client,
    header_timeout: Duration,
    pub(crate) report: AttackReport,
}

impl Attacker {
    pub(crate) fn new(addr: SocketAddr, ip: IpAddr, header_timeout: Duration) -> Attacker {
        Attacker { addr, ip, client: Client::new(addr).from_ip(ip), header_timeout, report: AttackReport::default() }
    }

    /// Sends a request and sorts its status: `Some(status)` for an answer.
    fn send(&mut self, method: &str, path: &str, body: Option<&[u8]>) -> Option<u16> {
        self.report.requests += 1;
        let r = self.client.send(method, path, body).ok()?;
        match r.status {
            408 | 429 | 503 => self.report.refused += 1,
            s if s >= 500 => self.report.server_errors += 1,
            _ => {}
        }
        Some(r.status)
    }

    /// Plays role `role` (0–3) until `deadline`.
    pub(crate) fn run(&mut self, role: usize, deadline: Instant) {
        match role % 4 {
            0 => self.harvest(deadline),
            1 => self.abuse_specs(deadline),
            2 => self.hold_connections(deadline),
            _ => self.fill_and_hang_up(deadline),
        }
    }

    /// Creates games of agents alone (over at once), reads each replay's seed and tries to
    /// predict the next from the last two.
    fn harvest(&mut self, deadline: Instant) {
        let mut seeds: Vec<u64> = Vec::new();
        while Instant::now() < deadline {
            self.report.requests += 1;
            let Ok(created) = self.client.post("/api/games", &json!({ "seats": ["random", "random"] })) else {
                continue;
            };
            if created.status != 200 {
                if created.status == 429 {
                    self.report.refused += 1;
                    std::thread::sleep(Duration::from_millis(50));
                }
                continue;
            }
            let id = created.json()["game"].as_str().unwrap_or_default().to_string();
            self.report.requests += 1;
            let Some(seed) =
                self.client.get(&format!("/api/games/{id}/replay")).ok().and_then(|r| r.json()["seed"].as_u64())
            else {
                continue;
            };
            if let [.., a, b] = seeds[..]
                && let Some((base, n)) = recover(a, b)
                && derive_seed(base, n + 2) == seed
            {
                self.report.predicted += 1;
            }
            seeds.push(seed);
        }
    }

    /// Names agents the server does not offer: paths outside its folders, however spelled, and
    /// search past its budget, as seats and as advice.
    fn abuse_specs(&mut self, deadline: Instant) {
        let deep = format!("{}etc", "../".repeat(40));
        let specs =
            ["/etc", "/proc/self", deep.as_str(), "/no/such/folder", "search:100000", "mistakes:10+search:100000"];
        let mut i = 0;
        while Instant::now() < deadline {
            let spec = specs[i % specs.len()];
            i += 1;
            let body = json!({ "seats": ["human", spec] }).to_string();
            if self.send("POST", "/api/games", Some(body.as_bytes())) == Some(200) {
                self.report.specs_taken += 1;
            }
            let ask = json!({ "scenario": {}, "agent": spec }).to_string();
            if self.send("POST", "/api/ask", Some(ask.as_bytes())) == Some(200) {
                self.report.specs_taken += 1;
            }
        }
    }

    /// Keeps opening connections that send a request's first line and one header byte at a
    /// time, never the end of the headers; notes how long the server keeps each.
    fn hold_connections(&mut self, deadline: Instant) {
        let mut open: Vec<(TcpStream, Instant)> = Vec::new();
        let grace = self.header_timeout + Duration::from_secs(1);
        while Instant::now() < deadline {
            while open.len() < 40 {
                let Ok(mut s) = connect(self.addr, Some(self.ip)) else { break };
                self.report.requests += 1;
                self.report.slow_opened += 1;
                let _ = s.write_all(b"GET /api/agents HTTP/1.1\r\nhost: x\r\nx-slow: ");
                let _ = s.set_nonblocking(true);
                open.push((s, Instant::now()));
            }
            std::thread::sleep(Duration::from_millis(100));
            open.retain_mut(|(s, since)| {
                let _ = s.write_all(b"a");
                let mut buf = [0u8; 512];
                let closed = match s.read(&mut buf) {
                    Ok(0) => true,
                    // An answer (a 429 past its share of connections) comes before the close.
                    Ok(_) => false,
                    Err(e) => e.kind() != std::io::ErrorKind::WouldBlock,
                };
                if !closed && since.elapsed() > grace {
                    self.report.slow_held += 1;
                    return false;
                }
                !closed
            });
        }
    }

    /// Creates games of agents alone until its share of games is full, and tables of searching
    /// agents that it hangs up on at once (their work must stop, not run on for nobody).
    fn fill_and_hang_up(&mut self, deadline: Instant) {
        let search = json!({ "seats": ["search:64", "search:64", "search:64", "search:64"] }).to_string();
        let quick = json!({ "seats": ["random", "random", "random", "random"] }).to_string();
        while Instant::now() < deadline {
            for _ in 0..8 {
                self.send("POST", "/api/games", Some(quick.as_bytes()));
            }
            let Ok(mut s) = connect(self.addr, Some(self.ip)) else { continue };
            self.report.requests += 1;
            let request = format!(
                "POST /api/games HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{search}",
                search.len()
            );
            if s.write_all(request.as_bytes()).is_ok() {
                self.report.hangups += 1;
            }
            std::thread::sleep(Duration::from_millis(20));
            drop(s);
        }
    }
}
