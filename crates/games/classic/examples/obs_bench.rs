//! Random play with the acting player's observation encoded at every decision, on one thread:
//! `cargo run --release -p classic --example obs_bench -- [SECONDS]`.
//!
//! A step is one decision: the actor's view, its observation written into a reused buffer, a
//! uniformly random legal action applied. The engine alone (no view, no encoding) is measured
//! beside it, so the encoder's share is visible. CPU-second figures are what one dedicated core
//! would do on a machine shared with other work.

use classic::obs::{OBS_LEN, encode};
use classic::{RuleConfig, State};
use std::hint::black_box;
use std::time::Instant;

fn cpu_seconds() -> f64 {
    cpu_time::ThreadTime::try_now().map_or(f64::NAN, |t| t.as_duration().as_secs_f64())
}

fn xorshift(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

/// Steps per wall-clock second and per CPU-second of encoded random play.
fn run(config: RuleConfig, seconds: f64) -> (u64, f64, f64) {
    let mut pick = 0x2545_F491_4F6C_DD1Du64;
    let mut buf = vec![0.0f32; OBS_LEN];
    let (mut steps, mut games, mut check) = (0u64, 0u64, 0.0f32);
    let (start, cpu_start) = (Instant::now(), cpu_seconds());
    loop {
        let mut s = State::new(config, game::derive_seed(1, games)).expect("a valid config");
        s.set_event_logging(false);
        while let Some(actor) = s.current_player() {
            encode(&s.view(actor), &mut buf);
            check += buf[OBS_LEN - 1];
            let mask = s.legal_mask();
            let k = ((xorshift(&mut pick) >> 32) * mask.count() as u64) >> 32;
            s.apply_index(mask.nth_index(k as usize).expect("k < count")).expect("legal");
            steps += 1;
        }
        games += 1;
        if games.is_multiple_of(16) && start.elapsed().as_secs_f64() >= seconds {
            break;
        }
    }
    black_box(check);
    let (wall, cpu) = (start.elapsed().as_secs_f64(), cpu_seconds() - cpu_start);
    (steps, steps as f64 / wall, steps as f64 / cpu)
}

fn main() {
    let seconds: f64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(3.0);
    println!("observation v{} of {OBS_LEN} floats, one thread", classic::OBS_VERSION);
    for players in [2u8, 4, 8] {
        let config = RuleConfig::with_players(players);
        let (steps, wall, cpu) = run(config, seconds);
        let engine = game::bench::run::<classic::Classic>(config, seconds).expect("default rules deal");
        println!(
            "{players} players: {:.2} M steps/s with encoding ({:.2} M per CPU-second, {steps} steps); engine alone {:.2} M per CPU-second",
            wall / 1e6,
            cpu / 1e6,
            engine.decisions_per_cpu_sec / 1e6,
        );
    }
}
