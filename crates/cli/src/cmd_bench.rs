//! `sabacc bench`: throughput figures. Benchmarks report numbers; tests check correctness.

use anyhow::Result;
use engine::{RuleConfig, State, derive_seed};
use serde::Serialize;
use std::time::Instant;

/// Arguments of `sabacc bench`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(clap::Subcommand)]
enum What {
    /// Single-thread random-play throughput of the rules engine (2 and 4 players, tokens on).
    Engine {
        /// Seconds to measure each player count.
        #[arg(long, default_value_t = 3.0)]
        seconds: f64,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Env steps per second with observation encoding and masks: one thread, then the
    /// vectorised env on all cores (4 players, random legal actions).
    Env {
        /// Seconds to measure each mode.
        #[arg(long, default_value_t = 3.0)]
        seconds: f64,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Serialize)]
struct EngineFigure {
    players: u8,
    games: u64,
    decisions: u64,
    seconds: f64,
    decisions_per_sec: f64,
    games_per_sec: f64,
    /// Share of one core the benchmark thread actually got (below 1 on a busy machine).
    cpu_share: f64,
    /// Decisions per second of CPU time actually used: the figure for one dedicated core.
    decisions_per_cpu_sec: f64,
}

/// CPU time consumed by the calling thread, in seconds.
fn thread_cpu_seconds() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes into the valid timespec we pass and has no other effect.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return f64::NAN;
    }
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
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

fn bench_engine(players: u8, seconds: f64) -> EngineFigure {
    let config = RuleConfig::with_players(players);
    let mut pick = 0x2545_F491_4F6C_DD1Du64;
    let mut games = 0u64;
    let mut decisions = 0u64;
    let start = Instant::now();
    let cpu_start = thread_cpu_seconds();
    let mut last_round_total = 0u64;
    loop {
        let mut state = State::new(config, derive_seed(1, games)).expect("default config is valid");
        state.set_event_logging(false);
        while !state.is_terminal() {
            let mask = state.legal_mask();
            let k = ((xorshift(&mut pick) >> 32) * mask.count() as u64) >> 32;
            let idx = mask.nth_index(k as usize).expect("k < count");
            state.apply_index(idx).expect("legal");
            decisions += 1;
        }
        last_round_total += state.round() as u64;
        games += 1;
        if games % 64 == 0 && start.elapsed().as_secs_f64() >= seconds {
            break;
        }
    }
    std::hint::black_box(last_round_total);
    let secs = start.elapsed().as_secs_f64();
    let cpu = thread_cpu_seconds() - cpu_start;
    EngineFigure {
        players,
        games,
        decisions,
        seconds: secs,
        decisions_per_sec: decisions as f64 / secs,
        games_per_sec: games as f64 / secs,
        cpu_share: cpu / secs,
        decisions_per_cpu_sec: decisions as f64 / cpu,
    }
}

/// Runs `sabacc bench`.
pub fn run(a: Args) -> Result<()> {
    match a.what {
        What::Env { seconds, json } => {
            let r = env::bench::run(seconds);
            if json {
                println!("{}", serde_json::to_string_pretty(&r)?);
            } else {
                println!(
                    "env, 4 players, observation encoding ({} floats) and masks, random legal actions:",
                    r.obs_len
                );
                println!("  one thread:            {:>12.0} steps/s", r.steps_per_sec_single);
                println!(
                    "  vectorised, {} threads: {:>12.0} steps/s ({} games; {:.2}x one thread)",
                    r.threads, r.steps_per_sec_vec, r.vec_envs, r.vec_speedup
                );
            }
        }
        What::Engine { seconds, json } => {
            let figures: Vec<EngineFigure> = [2u8, 4].iter().map(|&p| bench_engine(p, seconds)).collect();
            if json {
                println!("{}", serde_json::to_string_pretty(&serde_json::json!({ "engine": figures }))?);
            } else {
                println!("engine, one thread, random legal play, tokens on:");
                for f in &figures {
                    println!(
                        "  {} players: {:>12.0} decisions/s  {:>10.0} games/s  ({} games, {} decisions in {:.2} s; \
                         thread got {:.0}% of a core: {:.0} decisions per CPU-second)",
                        f.players,
                        f.decisions_per_sec,
                        f.games_per_sec,
                        f.games,
                        f.decisions,
                        f.seconds,
                        f.cpu_share * 100.0,
                        f.decisions_per_cpu_sec
                    );
                }
            }
        }
    }
    Ok(())
}
