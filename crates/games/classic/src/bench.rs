//! The engine's own throughput: random legal play on one thread, with a tiny inline RNG so the
//! figure measures the rules and not the agent.

use crate::{RuleConfig, State};
use kessel::derive_seed;
use serde::Serialize;
use std::time::Instant;

/// One measurement.
#[derive(Clone, Debug, Serialize)]
pub struct EngineFigure {
    /// Seats at the table.
    pub players: u8,
    /// Games played.
    pub games: u64,
    /// Decisions applied.
    pub decisions: u64,
    /// Hands played.
    pub hands: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Decisions per wall-clock second.
    pub decisions_per_sec: f64,
    /// Games per wall-clock second.
    pub games_per_sec: f64,
    /// Share of one core the thread actually got (below 1 on a busy machine).
    pub cpu_share: f64,
    /// Decisions per second of CPU time actually used: the figure for one dedicated core.
    pub decisions_per_cpu_sec: f64,
}

fn thread_cpu_seconds() -> f64 {
    cpu_time::ThreadTime::try_now().map_or(f64::NAN, |t| t.as_duration().as_secs_f64())
}

#[inline]
fn xorshift(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

/// Random legal play under `config` for about `seconds` on the calling thread, event log off.
pub fn run(config: RuleConfig, seconds: f64) -> EngineFigure {
    let mut pick = 0x2545_F491_4F6C_DD1Du64;
    let (mut games, mut decisions, mut hands) = (0u64, 0u64, 0u64);
    let start = Instant::now();
    let cpu_start = thread_cpu_seconds();
    loop {
        let mut state = State::new(config, derive_seed(1, games)).expect("a valid config");
        state.set_event_logging(false);
        while !state.is_terminal() {
            let mask = state.legal_mask();
            let k = ((xorshift(&mut pick) >> 32) * mask.count() as u64) >> 32;
            let idx = mask.nth_index(k as usize).expect("k < count");
            state.apply_index(idx).expect("legal");
            decisions += 1;
        }
        hands += state.hand_number() as u64;
        games += 1;
        if games.is_multiple_of(16) && start.elapsed().as_secs_f64() >= seconds {
            break;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let cpu = thread_cpu_seconds() - cpu_start;
    EngineFigure {
        players: config.players,
        games,
        decisions,
        hands,
        seconds: secs,
        decisions_per_sec: decisions as f64 / secs,
        games_per_sec: games as f64 / secs,
        cpu_share: cpu / secs,
        decisions_per_cpu_sec: decisions as f64 / cpu,
    }
}
