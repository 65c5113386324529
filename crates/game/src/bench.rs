//! An engine's own throughput (`sabacc bench engine`): random legal play on one thread, with a
//! tiny inline RNG so the figure measures the rules and not the agent. Generic over the game and
//! monomorphised, so every game's engine is measured by the same loop.

use crate::game::{Game, GameAction, LegalMask};
use crate::stream::derive_seed;
use serde::Serialize;
use std::time::Instant;

/// One measurement.
#[derive(Clone, Debug, Serialize)]
pub struct EngineFigure {
    /// Seats at the table.
    pub players: u8,
    /// Games played.
    pub games: u64,
    /// Rounds (Kessel) or hands (classic) played, summed over the games ([`Game::progress`]).
    pub progress: u64,
    /// Decisions applied.
    pub decisions: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Decisions per wall-clock second.
    pub decisions_per_sec: f64,
    /// Games per wall-clock second.
    pub games_per_sec: f64,
    /// Share of one core the benchmark thread actually got (below 1 on a busy machine).
    pub cpu_share: f64,
    /// Decisions per second of CPU time actually used: the figure for one dedicated core.
    pub decisions_per_cpu_sec: f64,
}

/// CPU time consumed by the calling thread, in seconds (NaN where the platform does not say).
#[cfg(not(target_family = "wasm"))]
fn thread_cpu_seconds() -> f64 {
    cpu_time::ThreadTime::try_now().map_or(f64::NAN, |t| t.as_duration().as_secs_f64())
}

/// CPU time consumed by the calling thread: unknown on WebAssembly.
#[cfg(target_family = "wasm")]
fn thread_cpu_seconds() -> f64 {
    f64::NAN
}

/// A tiny inline xorshift for choosing actions, so the benchmark measures the engine and not the
/// agent's RNG.
#[inline]
fn xorshift(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

/// Random legal play under `rules` for about `seconds` on the calling thread, event log off; the
/// rules' own error if a game cannot be dealt under them.
pub fn run<G: Game>(rules: G::Rules, seconds: f64) -> Result<EngineFigure, crate::GameError> {
    let mut pick = 0x2545_F491_4F6C_DD1Du64;
    let (mut games, mut decisions, mut progress) = (0u64, 0u64, 0u64);
    let start = Instant::now();
    let cpu_start = thread_cpu_seconds();
    // A tight loop of its own rather than the env's game loop: the figure is the raw engine's.
    loop {
        let mut state = G::new_state(&rules, derive_seed(1, games))?;
        G::set_event_logging(&mut state, false);
        while !G::is_terminal(&state) {
            let mask = G::legal_mask(&state);
            let k = ((xorshift(&mut pick) >> 32) * mask.count() as u64) >> 32;
            let action = mask.nth_index(k as usize).and_then(G::Action::from_index);
            let Some(action) = action else {
                return Err(crate::GameError::Invariant(format!("no legal action in a live {} game", G::NAME)));
            };
            // Drawn from the mask, so legal: applied as the env applies a checked decision.
            G::apply_legal(&mut state, action);
            decisions += 1;
        }
        progress += u64::from(G::progress(&state));
        games += 1;
        if games.is_multiple_of(16) && start.elapsed().as_secs_f64() >= seconds {
            break;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let cpu = thread_cpu_seconds() - cpu_start;
    Ok(EngineFigure {
        players: G::players(&rules),
        games,
        progress,
        decisions,
        seconds: secs,
        decisions_per_sec: decisions as f64 / secs,
        games_per_sec: games as f64 / secs,
        cpu_share: cpu / secs,
        decisions_per_cpu_sec: decisions as f64 / cpu,
    })
}
