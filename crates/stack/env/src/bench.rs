//! Throughput benchmark of the environment (random legal actions, observation encoding and
//! masks included), wired to `sabacc bench env`. Its loops step [`Env`] and [`VecEnv`] of any game
//! directly, so the figures are the raw env's own cost, and the same random play once more through
//! [`Driver`], the one game loop, so its cost over the env shows as a ratio.
//!
//! The host this runs on is often shared, so the single-thread and vectorised runs are
//! interleaved in several short rounds (a change in the machine's load then hits both alike, and
//! their ratio stays meaningful), and the report says how much CPU time the runs actually got.

use crate::driver::{Controller, Driver, GameStart, Pending};
use crate::env::{Env, GameConfig};
use crate::seed::splitmix64;
use crate::vec_env::VecEnv;
use game::{Game, LegalMask};
use rayon::prelude::*;
use serde::Serialize;
use std::time::Instant;

/// Steps per second measured by [`run_with`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EnvBenchReport {
    /// One env on one thread: step + acting seat's observation + mask, per second.
    pub steps_per_sec_single: f64,
    /// `VecEnv` on the rayon global pool, driven by [`VecEnv::step_many`] with a random agent
    /// per game: environment steps (all envs) per second.
    pub steps_per_sec_vec: f64,
    /// `VecEnv` driven by one [`VecEnv::step`] per step (actions chosen in a parallel pass
    /// first, as a batched policy would): environment steps per second.
    pub steps_per_sec_vec_step: f64,
    /// Threads in the rayon global pool.
    pub threads: usize,
    /// Environments in the `VecEnv`.
    pub vec_envs: usize,
    /// Steps each game takes per `step_many` call in the `steps_per_sec_vec` run.
    pub vec_steps_per_call: usize,
    /// `steps_per_sec_vec / steps_per_sec_single`.
    pub vec_speedup: f64,
    /// The median over the interleaved rounds of each round's `step_many` rate over its
    /// single-thread rate: less sensitive than `vec_speedup` to a burst of load elsewhere.
    pub vec_speedup_median_round: f64,
    /// `steps_per_sec_vec_step / steps_per_sec_single`.
    pub vec_step_speedup: f64,
    /// One game through [`Driver`] on one thread, a random controller writing the acting seat's
    /// observation at each decision: the same work as the single-thread run, through the one
    /// game loop.
    pub steps_per_sec_driver: f64,
    /// `steps_per_sec_driver / steps_per_sec_single`: what the game loop costs over stepping the
    /// env directly (1 = nothing).
    pub driver_of_single: f64,
    /// One independent env per thread, all threads stepping at once with nothing shared: the
    /// most any parallel code could get from this machine's cores at that moment.
    pub steps_per_sec_independent: f64,
    /// `steps_per_sec_independent / steps_per_sec_single`: the machine's own scaling ceiling
    /// (below `threads` when the host slows a core down while the other one is busy).
    pub independent_speedup: f64,
    /// `steps_per_sec_vec / steps_per_sec_independent`: how close `VecEnv` comes to that
    /// ceiling (1 = no cost of its own for running in parallel).
    pub vec_of_independent: f64,
    /// Share of one core the single-thread run got (below 1 when other processes compete).
    pub cpu_share_single: f64,
    /// Share of all `threads` cores the `step_many` run got.
    pub cpu_share_vec: f64,
    /// Single-thread steps per CPU-second the thread used: what one dedicated core does.
    pub steps_per_cpu_sec_single: f64,
    /// `step_many` steps per CPU-second the worker threads used, all threads together: per
    /// dedicated core, so `steps_per_cpu_sec_vec / steps_per_cpu_sec_single` is the parallel
    /// efficiency (1 = perfect scaling) whatever else runs on the machine.
    pub steps_per_cpu_sec_vec: f64,
    /// The game (`kessel`, `classic`).
    pub game: &'static str,
    /// Observation length.
    pub obs_len: usize,
    /// Players per game.
    pub players: u8,
    /// Games finished in the single-thread run.
    pub games_single: u64,
    /// The machine's one-minute load average when the measurement ended (Linux only): above
    /// about the number of cores, other processes were competing for them.
    pub load_average_1m: Option<f64>,
}

/// Steps each game takes per [`VecEnv::step_many`] call in the benchmark: one fork-join then
/// covers `128 × N` game steps (about 9 ms of work per thread at 256 games each), which makes
/// the wake-up of idle workers at each call negligible (at 32 steps per call it still cost
/// about a tenth of the throughput on the 2-core virtual machine).
pub const VEC_STEPS_PER_CALL: usize = 128;

/// Interleaved measuring rounds of each mode: short rounds, so that a burst of load from
/// elsewhere on the host falls on both modes alike.
const ROUNDS: usize = 10;

/// A tiny deterministic generator for choosing random actions in the benchmark.
#[inline]
fn xorshift(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

/// A uniformly random legal action of `bits` (which must not be empty).
#[inline]
pub fn pick(bits: u64, rng: &mut u64) -> usize {
    let k = ((xorshift(rng) >> 32) * u64::from(bits.count_ones())) >> 32;
    let mut m = bits;
    for _ in 0..k {
        m &= m - 1;
    }
    m.trailing_zeros() as usize
}

/// A uniformly random legal action of any game's mask (which must not be empty).
#[inline]
pub fn pick_legal<M: LegalMask>(mask: M, rng: &mut u64) -> usize {
    let k = ((xorshift(rng) >> 32) * mask.count() as u64) >> 32;
    mask.nth_index(k as usize).expect("k < count")
}

/// A uniformly random legal action of a mask packed as 64-bit words (not empty).
#[inline]
fn pick_words(words: &[u64], rng: &mut u64) -> usize {
    if let [bits] = words {
        return pick(*bits, rng);
    }
    let total: u32 = words.iter().map(|w| w.count_ones()).sum();
    let mut k = (((xorshift(rng) >> 32) * u64::from(total)) >> 32) as u32;
    for (i, &w) in words.iter().enumerate() {
        if k < w.count_ones() {
            let mut m = w;
            for _ in 0..k {
                m &= m - 1;
            }
            return i * 64 + m.trailing_zeros() as usize;
        }
        k -= w.count_ones();
    }
    unreachable!("the mask is not empty")
}

/// CPU seconds used so far by the calling thread (`thread`) or the whole process; NaN where
/// the platform does not say.
fn cpu_seconds(thread: bool) -> f64 {
    let t = if thread {
        cpu_time::ThreadTime::try_now().map(|t| t.as_duration())
    } else {
        cpu_time::ProcessTime::try_now().map(|t| t.as_duration())
    };
    t.map_or(f64::NAN, |d| d.as_secs_f64())
}

/// Totals of one mode over the rounds.
#[derive(Default)]
struct Tally {
    steps: u64,
    seconds: f64,
    cpu: f64,
}

impl Tally {
    fn add(&mut self, steps: u64, seconds: f64, cpu: f64) {
        self.steps += steps;
        self.seconds += seconds;
        self.cpu += cpu;
    }

    fn rate(&self) -> f64 {
        self.steps as f64 / self.seconds
    }
}

/// Measures env throughput of game `G` under `config` for about `seconds` in total: 25 % single
/// thread, 15 % through the driver, 25 % vectorised with `step_many`, 20 % independent threads,
/// 15 % vectorised with `step`.
pub fn run_with<G: Game>(config: GameConfig<G>, seconds: f64) -> EnvBenchReport {
    let round = (seconds / ROUNDS as f64).max(0.03);
    let threads = rayon::current_num_threads();
    // 256 games per thread keep each thread's games and buffers (~1 MB) in its L2 cache.
    let vec_envs = 256 * threads;
    let mut single = Single::new(config);
    let mut many = Many::new(config, vec_envs);
    let mut stepped = VecEnv::new(config, vec_envs, 2).expect("valid config");
    let mut apart: Vec<Single<G>> = (0..threads).map(|_| Single::new(config)).collect();
    let mut driven = Driven::new(config);
    let (mut t_single, mut t_many, mut t_step) = (Tally::default(), Tally::default(), Tally::default());
    let (mut t_apart, mut t_driven) = (Tally::default(), Tally::default());
    let mut ratios = Vec::with_capacity(ROUNDS);
    for _ in 0..ROUNDS {
        let (s1, secs1, cpu) = single.measure(0.25 * round);
        t_single.add(s1, secs1, cpu);
        let (s, secs, cpu) = driven.measure(0.15 * round);
        t_driven.add(s, secs, cpu);
        let (s2, secs2, cpu) = many.measure(0.25 * round);
        t_many.add(s2, secs2, cpu);
        ratios.push((s2 as f64 / secs2) / (s1 as f64 / secs1));
        let (s, secs, cpu) = independent(&mut apart, 0.2 * round);
        t_apart.add(s, secs, cpu);
        let (s, secs, cpu) = vectorised_step(&mut stepped, 0.15 * round);
        t_step.add(s, secs, cpu);
    }
    ratios.sort_by(f64::total_cmp);
    let median = (ratios[(ROUNDS - 1) / 2] + ratios[ROUNDS / 2]) / 2.0;
    let (single_rate, many_rate, step_rate) = (t_single.rate(), t_many.rate(), t_step.rate());
    let apart_rate = t_apart.rate();
    EnvBenchReport {
        steps_per_sec_single: single_rate,
        steps_per_sec_vec: many_rate,
        steps_per_sec_vec_step: step_rate,
        threads,
        vec_envs,
        vec_steps_per_call: VEC_STEPS_PER_CALL,
        vec_speedup: many_rate / single_rate,
        vec_speedup_median_round: median,
        vec_step_speedup: step_rate / single_rate,
        steps_per_sec_driver: t_driven.rate(),
        driver_of_single: t_driven.rate() / single_rate,
        steps_per_sec_independent: apart_rate,
        independent_speedup: apart_rate / single_rate,
        vec_of_independent: many_rate / apart_rate,
        cpu_share_single: t_single.cpu / t_single.seconds,
        cpu_share_vec: t_many.cpu / (t_many.seconds * threads as f64),
        steps_per_cpu_sec_single: t_single.steps as f64 / t_single.cpu,
        steps_per_cpu_sec_vec: t_many.steps as f64 / t_many.cpu,
        game: G::SPEC.game,
        obs_len: G::SPEC.obs_len,
        players: config.players(),
        games_single: single.games,
        load_average_1m: load_average_1m(),
    }
}

/// The one-minute load average from `/proc/loadavg`, where there is one: shared by the
/// benchmarks, whose figures mean little when other processes compete for the cores.
pub fn load_average_1m() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg").ok()?.split_whitespace().next()?.parse().ok()
}

/// One env on the calling thread, random legal actions, observation written every step.
struct Single<G: Game> {
    env: Env<G>,
    obs: Vec<f32>,
    mask: G::Mask,
    rng: u64,
    seed: u64,
    games: u64,
}

impl<G: Game> Single<G> {
    fn new(config: GameConfig<G>) -> Single<G> {
        let mut env = Env::new(config).expect("valid config");
        let mut obs = vec![0.0f32; G::SPEC.obs_len];
        let mask = env.reset_into(0, &mut obs).mask;
        Single { env, obs, mask, rng: 0x2545_F491_4F6C_DD1D, seed: 0, games: 0 }
    }

    /// Steps for about `seconds`; returns steps, wall seconds and thread CPU seconds.
    fn measure(&mut self, seconds: f64) -> (u64, f64, f64) {
        let mut steps = 0u64;
        let (t0, c0) = (Instant::now(), cpu_seconds(true));
        loop {
            for _ in 0..4096 {
                let a = pick_legal(self.mask, &mut self.rng);
                let mut ts = self.env.step_into(a, &mut self.obs).expect("legal");
                std::hint::black_box(&self.obs);
                steps += 1;
                if ts.done() {
                    self.games += 1;
                    self.seed += 1;
                    ts = self.env.reset_into(self.seed, &mut self.obs);
                }
                self.mask = ts.mask;
            }
            if t0.elapsed().as_secs_f64() >= seconds {
                break;
            }
        }
        (steps, t0.elapsed().as_secs_f64(), cpu_seconds(true) - c0)
    }
}

/// Random play through [`Driver`] with one row: the controller writes the acting seat's
/// observation and picks a random legal action, as [`Single`] does around `Env::step_into`.
struct Driven<G: Game> {
    driver: Driver<G>,
    random: RandomPlay<G>,
}

/// The controller of [`Driven`]: a new deal whenever a game ends, random legal actions.
struct RandomPlay<G: Game> {
    config: GameConfig<G>,
    obs: Vec<f32>,
    rng: u64,
    seed: u64,
}

impl<G: Game> Controller<G> for RandomPlay<G> {
    type Error = std::convert::Infallible;

    fn next_game(&mut self, _row: usize) -> Result<Option<GameStart<G>>, Self::Error> {
        self.seed += 1;
        Ok(Some(GameStart::deal(self.config, self.seed)))
    }

    fn decide(&mut self, pending: &[Pending<'_, G>], actions: &mut [usize]) -> Result<(), Self::Error> {
        for (p, a) in pending.iter().zip(actions) {
            p.observe_into(&mut self.obs);
            std::hint::black_box(&self.obs);
            *a = pick_legal(p.mask, &mut self.rng);
        }
        Ok(())
    }
}

impl<G: Game> Driven<G> {
    fn new(config: GameConfig<G>) -> Driven<G> {
        let random = RandomPlay { config, obs: vec![0.0; G::SPEC.obs_len], rng: 0x2545_F491_4F6C_DD1D, seed: 0 };
        Driven { driver: Driver::new(1), random }
    }

    /// Steps for about `seconds`; returns steps, wall seconds and thread CPU seconds.
    fn measure(&mut self, seconds: f64) -> (u64, f64, f64) {
        let mut steps = 0u64;
        let (t0, c0) = (Instant::now(), cpu_seconds(true));
        loop {
            for _ in 0..4096 {
                // One row, so each step is one decision.
                steps += self.driver.step(&mut self.random).map(|_| 1).expect("random legal play");
            }
            if t0.elapsed().as_secs_f64() >= seconds {
                break;
            }
        }
        (steps, t0.elapsed().as_secs_f64(), cpu_seconds(true) - c0)
    }
}

/// Runs every env of `apart` on its own thread at once for about `seconds` (nothing shared
/// between them); returns their steps together, the longest wall time and their CPU seconds.
fn independent<G: Game>(apart: &mut [Single<G>], seconds: f64) -> (u64, f64, f64) {
    let runs: Vec<(u64, f64, f64)> = std::thread::scope(|scope| {
        let handles: Vec<_> = apart.iter_mut().map(|s| scope.spawn(move || s.measure(seconds))).collect();
        handles.into_iter().map(|h| h.join().expect("bench thread")).collect()
    });
    runs.iter().fold((0, 0.0, 0.0), |(n, secs, cpu), &(n1, secs1, cpu1)| (n + n1, secs.max(secs1), cpu + cpu1))
}

/// Single-thread steps per second and games finished, measured for about `seconds`.
pub fn single<G: Game>(config: GameConfig<G>, seconds: f64) -> (f64, u64) {
    let mut s = Single::new(config);
    let (steps, secs, _) = s.measure(seconds);
    (steps as f64 / secs, s.games)
}

/// A `VecEnv` driven by [`VecEnv::step_many`], one random agent (a xorshift state) per game.
struct Many<G: Game> {
    v: VecEnv<G>,
    rngs: Vec<u64>,
}

impl<G: Game> Many<G> {
    fn new(config: GameConfig<G>, num_envs: usize) -> Many<G> {
        let v = VecEnv::new(config, num_envs, 1).expect("valid config");
        let rngs = (0..num_envs as u64).map(|i| splitmix64(0x9E37_79B9_7F4A_7C15 ^ i) | 1).collect();
        Many { v, rngs }
    }

    /// Steps for about `seconds` on the current pool; returns steps, wall seconds and process
    /// CPU seconds.
    ///
    /// The loop runs *inside* the pool (`rayon::scope`), as a trainer should drive a `VecEnv`:
    /// a worker thread then starts each parallel call itself instead of waking the pool from
    /// outside.
    fn measure(&mut self, seconds: f64) -> (u64, f64, f64) {
        let n = self.v.num_envs() as u64;
        let mut steps = 0u64;
        let (t0, c0) = (Instant::now(), cpu_seconds(false));
        rayon::scope(|_| {
            loop {
                self.v.step_many(VEC_STEPS_PER_CALL, &mut self.rngs, |rng, d| pick_legal(d.mask, rng)).expect("legal");
                steps += n * VEC_STEPS_PER_CALL as u64;
                if t0.elapsed().as_secs_f64() >= seconds {
                    break;
                }
            }
        });
        (steps, t0.elapsed().as_secs_f64(), cpu_seconds(false) - c0)
    }
}

/// Vectorised steps per second with [`VecEnv::step_many`] (all environments' steps counted) on
/// the current rayon pool, measured for about `seconds`.
pub fn vectorised<G: Game>(config: GameConfig<G>, num_envs: usize, seconds: f64) -> f64 {
    let (steps, secs, _) = Many::new(config, num_envs).measure(seconds);
    steps as f64 / secs
}

/// Steps `v` with one [`VecEnv::step`] per step for about `seconds`, choosing the actions in a
/// parallel pass first (as a batched policy would, so the serial part of the loop stays
/// negligible); returns steps, wall seconds and process CPU seconds.
fn vectorised_step<G: Game>(v: &mut VecEnv<G>, seconds: f64) -> (u64, f64, f64) {
    let n = v.num_envs();
    let w = G::SPEC.mask_words();
    let mut actions = vec![0usize; n];
    let mut salt = 0x9E37_79B9_7F4A_7C15u64;
    let mut steps = 0u64;
    let (t0, c0) = (Instant::now(), cpu_seconds(false));
    rayon::scope(|_| {
        loop {
            for _ in 0..16 {
                salt = salt.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let s = salt;
                let chunk = n.div_ceil(rayon::current_num_threads()).max(1);
                actions.par_chunks_mut(chunk).zip(v.mask_bits().par_chunks(chunk * w)).enumerate().for_each(
                    |(k, (acts, bits))| {
                        for (j, (a, b)) in acts.iter_mut().zip(bits.chunks(w)).enumerate() {
                            let mut r = splitmix64(s ^ (k * chunk + j) as u64) | 1;
                            *a = pick_words(b, &mut r);
                        }
                    },
                );
                v.step(&actions).expect("legal");
                steps += n as u64;
            }
            if t0.elapsed().as_secs_f64() >= seconds {
                break;
            }
        }
    });
    (steps, t0.elapsed().as_secs_f64(), cpu_seconds(false) - c0)
}
