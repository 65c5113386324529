//! Throughput benchmark of the environment (random legal actions, observation encoding and
//! masks included), wired to `sabacc bench env`.

use crate::env::{EnvConfig, SabaccEnv};
use crate::obs::OBS_LEN;
use crate::vec_env::VecEnv;
use rayon::prelude::*;
use serde::Serialize;
use std::time::Instant;

/// Steps per second measured by [`run`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EnvBenchReport {
    /// One env on one thread: step + acting seat's observation + mask, per second.
    pub steps_per_sec_single: f64,
    /// `VecEnv` on the rayon global pool: environment steps (all envs) per second.
    pub steps_per_sec_vec: f64,
    /// Threads in the rayon global pool.
    pub threads: usize,
    /// Environments in the `VecEnv`.
    pub vec_envs: usize,
    /// Speed-up of the vectorised run over the single-thread run.
    pub vec_speedup: f64,
    /// Observation length.
    pub obs_len: usize,
    /// Players per game.
    pub players: u8,
    /// Games finished in the single-thread run.
    pub games_single: u64,
}

/// A tiny deterministic generator for choosing random actions in the benchmark.
#[inline]
fn xorshift(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

#[inline]
fn pick(bits: u64, rng: &mut u64) -> usize {
    let k = (xorshift(rng) % u64::from(bits.count_ones())) as u32;
    let mut m = bits;
    for _ in 0..k {
        m &= m - 1;
    }
    m.trailing_zeros() as usize
}

/// Measures env throughput at 4 players for about `seconds` in total (half single, half vec).
pub fn run(seconds: f64) -> EnvBenchReport {
    run_with(EnvConfig::with_players(4), seconds)
}

/// [`run`] under a given config.
pub fn run_with(config: EnvConfig, seconds: f64) -> EnvBenchReport {
    let half = (seconds / 2.0).max(0.01);
    let (single, games) = single(config, half);
    let threads = rayon::current_num_threads();
    // 256 games per thread keep each thread's games and buffers (~1 MB) in its L2 cache.
    let vec_envs = 256 * threads;
    let vec = vectorised(config, vec_envs, half);
    EnvBenchReport {
        steps_per_sec_single: single,
        steps_per_sec_vec: vec,
        threads,
        vec_envs,
        vec_speedup: vec / single,
        obs_len: OBS_LEN,
        players: config.rules.players,
        games_single: games,
    }
}

/// Single-thread steps per second and games finished.
pub fn single(config: EnvConfig, seconds: f64) -> (f64, u64) {
    let mut env = SabaccEnv::new(config).expect("valid config");
    let mut obs = vec![0.0f32; OBS_LEN];
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let mut seed = 0u64;
    let mut ts = env.reset_into(seed, &mut obs);
    let (mut steps, mut games) = (0u64, 0u64);
    let t0 = Instant::now();
    loop {
        for _ in 0..4096 {
            let a = pick(ts.mask.0, &mut rng);
            ts = env.step_into(a, &mut obs).expect("legal");
            std::hint::black_box(&obs);
            steps += 1;
            if ts.done() {
                games += 1;
                seed += 1;
                ts = env.reset_into(seed, &mut obs);
            }
        }
        if t0.elapsed().as_secs_f64() >= seconds {
            break;
        }
    }
    (steps as f64 / t0.elapsed().as_secs_f64(), games)
}

/// Vectorised steps per second (all environments' steps counted) on the current rayon pool.
///
/// The loop runs *inside* the pool (`rayon::scope`), as a trainer should drive a `VecEnv`: a
/// worker thread then starts each parallel step itself instead of waking the pool from outside
/// twice per step.
pub fn vectorised(config: EnvConfig, num_envs: usize, seconds: f64) -> f64 {
    let mut v = VecEnv::new(config, num_envs, 1).expect("valid config");
    let mut actions = vec![0usize; num_envs];
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut steps = 0u64;
    let t0 = Instant::now();
    rayon::scope(|_| {
        loop {
            for _ in 0..16 {
                // Actions are picked in parallel too, as a batched policy would, so the serial part
                // of the loop stays negligible.
                rng = rng.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let salt = rng;
                actions.par_iter_mut().zip(v.mask_bits().par_iter()).enumerate().with_min_len(64).for_each(
                    |(i, (a, &bits))| {
                        let mut r = crate::seed::splitmix64(salt ^ i as u64) | 1;
                        *a = pick(bits, &mut r);
                    },
                );
                v.step(&actions).expect("legal");
                steps += num_envs as u64;
            }
            if t0.elapsed().as_secs_f64() >= seconds {
                break;
            }
        }
    });
    steps as f64 / t0.elapsed().as_secs_f64()
}
