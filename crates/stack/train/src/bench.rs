//! Training throughput, wired to `sabacc bench train`: the trainer's own rollout and PPO update
//! code on a config, measured in memory (no run folder, no checkpoints, no logs).
//!
//! Four phases share the time budget, after one untimed warm-up rollout and update:
//!
//! 1. **end to end** (40 %): rollout then update, as in [`crate::train`]; learner decisions
//!    trained per second (the trainer's `charts/SPS`).
//! 2. **rollout only** (20 %): [`Collector::collect`] with a fixed policy; decisions of every
//!    seat (learner, pool policies, bots) per second.
//! 3. **update only** (20 %): [`ppo::update`] again and again on the warm-up batch; batch rows
//!    per second (each row is seen `update_epochs` times).
//! 4. **minibatch step** (20 %): one forward + backward + global-norm clip + Adam step of the
//!    PPO loss on a 4,096-row minibatch whose tensors are already built, the config's network;
//!    median time.
//!
//! Every phase runs at least once (the minibatch step at least three times), so a tiny budget
//! still gives every figure.

use crate::config::TrainConfig;
use crate::ppo::{self, StepSettings};
use crate::progress_display::bar as progress_bar;
use crate::rollout::{Batch, BotFactory, Collector, EpisodeStats};
use anyhow::{Context, Result};
use env::AgentRng;
use env::{EnvSpec, Game};
use game::derive_seed;
use indicatif::{ProgressBar, ProgressStyle};
use policy::burn::optim::{AdamConfig, ModuleOptimizer};
use policy::{ActorCritic, BackendKind, Device, Policy, cpu_device, cpu_training_device};
use rand::{RngExt, SeedableRng};
use serde::Serialize;
use std::time::{Duration, Instant};

/// Rows of the minibatch whose step time [`run`] reports (the size of the anchors).
pub const MINIBATCH_ROWS: usize = 4096;

/// Options of [`run`].
#[derive(Clone, Debug)]
pub struct BenchOptions {
    /// Time budget of the four timed phases together, in seconds (a warm-up comes on top).
    pub seconds: f64,
    /// Show a progress bar.
    pub progress: bool,
}

/// What `sabacc bench train` measures. Rates are per wall-clock second.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TrainBenchReport {
    /// Tensor backend of the update and of inference (`flex`: burn's CPU backend).
    pub backend: String,
    /// Worker threads available to the backend's thread pool.
    pub threads: usize,
    /// 1-minute load average when the run ended (Linux; `None` elsewhere). Above `threads`, other
    /// processes were competing for the cores.
    pub load_average_1m: Option<f64>,
    /// The config's name.
    pub config: String,
    /// Table sizes the games are drawn from (players per game).
    pub table_sizes: Vec<u8>,
    /// Parallel games per rollout.
    pub num_envs: usize,
    /// Environment steps per game per rollout.
    pub num_steps: usize,
    /// Observation width (the network's input).
    pub obs_dim: usize,
    /// Hidden layer sizes of each tower.
    pub hidden: Vec<usize>,
    /// Whether actor and critic have towers of their own (the trainer's network: yes).
    pub separate_towers: bool,
    /// Minibatches per epoch and epochs per update.
    pub num_minibatches: usize,
    /// Epochs over each rollout batch.
    pub update_epochs: usize,

    /// Rollout + update cycles timed end to end.
    pub end_to_end_updates: u64,
    /// Wall time of those cycles.
    pub end_to_end_seconds: f64,
    /// Learner decisions trained on in those cycles.
    pub end_to_end_learner_decisions: u64,
    /// Learner decisions trained per second, rollout and update together (`charts/SPS`).
    pub decisions_per_sec_end_to_end: f64,
    /// Environment decisions (every seat) per second, rollout and update together.
    pub env_decisions_per_sec_end_to_end: f64,
    /// Share of the end-to-end time spent in rollouts (the rest is the update).
    pub rollout_share_end_to_end: f64,

    /// Rollouts timed on their own.
    pub rollouts: u64,
    /// Environment decisions of every seat per second in rollouts alone (policy inference,
    /// bots, observation encoding and the engine).
    pub rollout_decisions_per_sec: f64,
    /// Learner decisions stored per second in rollouts alone.
    pub rollout_learner_decisions_per_sec: f64,

    /// PPO updates timed on their own.
    pub updates: u64,
    /// Rows in the batch they trained on.
    pub update_batch_rows: usize,
    /// Batch rows per second of update time (learner decisions the update alone could keep up
    /// with; each row is used `update_epochs` times).
    pub update_samples_per_sec: f64,
    /// Rows passed through forward and backward per second (`update_samples_per_sec` ×
    /// `update_epochs`).
    pub update_sample_passes_per_sec: f64,

    /// Timed minibatch steps.
    pub minibatch_steps: u64,
    /// Median time of one forward + backward + clip + Adam step on a 4,096-row minibatch.
    pub minibatch_4096_step_ms: f64,
    /// Fastest of those steps.
    pub minibatch_4096_step_ms_min: f64,
}

/// Median and minimum of some durations, in milliseconds.
fn median_min_ms(times: &mut [Duration]) -> (f64, f64) {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    (ms(times[times.len() / 2]), ms(times[0]))
}

/// Threads in rayon's global pool, which burn's Flex backend and gemm use: `RAYON_NUM_THREADS`
/// if set, otherwise the available parallelism.
fn pool_threads() -> usize {
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// A progress bar over the time budget (hidden unless asked for).
struct Progress {
    bar: ProgressBar,
    budget: f64,
    phase_start: f64,
}

impl Progress {
    fn new(show: bool, budget: f64) -> Progress {
        let bar = if show { progress_bar(1000) } else { ProgressBar::hidden() };
        bar.set_style(
            ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {msg}").expect("valid progress template"),
        );
        Progress { bar, budget, phase_start: 0.0 }
    }

    /// Starts a phase that begins after the fraction `before` of the budget.
    fn phase(&mut self, name: &str, before: f64) {
        self.phase_start = before;
        self.bar.set_message(name.to_string());
        self.bar.set_position((before * 1000.0) as u64);
    }

    /// Reports `elapsed` seconds into the current phase, which takes the fraction `share`.
    fn tick(&self, elapsed: f64, share: f64) {
        let frac = self.phase_start + (elapsed / (self.budget * share).max(1e-9)).min(1.0) * share;
        self.bar.set_position((frac * 1000.0) as u64);
    }
}

/// Runs the training benchmark on `cfg`, with `bots` for the opponent pool's heuristic bots.
pub fn run<G: Game>(cfg: &TrainConfig<G>, bots: BotFactory<G>, opts: &BenchOptions) -> Result<TrainBenchReport> {
    cfg.validate()?;
    if !(opts.seconds.is_finite() && opts.seconds > 0.0) {
        anyhow::bail!("--seconds must be a positive number of seconds, not {}", opts.seconds);
    }
    let device = cpu_training_device();
    let infer_device = cpu_device();
    let spec = G::SPEC;
    let net = cfg.network(spec);
    let mut model = ActorCritic::new_seeded(&net, &device, cfg.seed)?;
    let mut optim = AdamConfig::new().with_epsilon(1e-5).init();
    let mut collector = Collector::new(cfg, spec, bots).context("cannot set up the rollout")?;
    collector.reset_all(0);
    let lr = cfg.learning_rate;
    let mut draws = 0u64;
    let mut next_rng = || {
        draws += 1;
        AgentRng::seed_from_u64(derive_seed(cfg.seed, 5_000_000 + draws))
    };
    let env_steps_per_rollout = cfg.rollout_steps() as u64;

    let mut bar = Progress::new(opts.progress, opts.seconds);
    bar.phase("warm-up: one rollout and update", 0.0);
    let warm_policy = Policy::new(&model, &infer_device);
    let batch = collector.collect(&warm_policy, &[], &mut next_rng(), &mut EpisodeStats::default())?;
    let (m, _) = ppo::update(cfg, model, &mut optim, &batch, &device, &mut next_rng(), StepSettings::lr(lr));
    model = m;

    // 1. End to end, as the trainer does it.
    let share = 0.4;
    bar.phase("end to end: rollout + update", 0.0);
    let (mut e2e_updates, mut e2e_decisions, mut rollout_secs) = (0u64, 0u64, 0.0f64);
    let t0 = Instant::now();
    while e2e_updates == 0 || t0.elapsed().as_secs_f64() < opts.seconds * share {
        let t_roll = Instant::now();
        let current = Policy::new(&model, &infer_device);
        let b = collector.collect(&current, &[], &mut next_rng(), &mut EpisodeStats::default())?;
        rollout_secs += t_roll.elapsed().as_secs_f64();
        let (m, _) = ppo::update(cfg, model, &mut optim, &b, &device, &mut next_rng(), StepSettings::lr(lr));
        model = m;
        e2e_updates += 1;
        e2e_decisions += b.n as u64;
        bar.tick(t0.elapsed().as_secs_f64(), share);
    }
    let e2e_secs = t0.elapsed().as_secs_f64();

    // 2. Rollouts alone, with a fixed policy.
    let before = share;
    let share = 0.2;
    bar.phase("rollout only", before);
    let current = Policy::new(&model, &infer_device);
    let (mut rollouts, mut rollout_learner) = (0u64, 0u64);
    let t0 = Instant::now();
    while rollouts == 0 || t0.elapsed().as_secs_f64() < opts.seconds * share {
        let b = collector.collect(&current, &[], &mut next_rng(), &mut EpisodeStats::default())?;
        rollouts += 1;
        rollout_learner += b.n as u64;
        bar.tick(t0.elapsed().as_secs_f64(), share);
    }
    let roll_secs = t0.elapsed().as_secs_f64();

    // 3. Updates alone, on the warm-up batch (no KL stop, so every update does all its steps).
    let before = before + share;
    bar.phase("update only", before);
    let mut full = cfg.clone();
    full.target_kl = None;
    let mut updates = 0u64;
    let t0 = Instant::now();
    while updates == 0 || t0.elapsed().as_secs_f64() < opts.seconds * share {
        let (m, _) = ppo::update(&full, model, &mut optim, &batch, &device, &mut next_rng(), StepSettings::lr(lr));
        model = m;
        updates += 1;
        bar.tick(t0.elapsed().as_secs_f64(), share);
    }
    let upd_secs = t0.elapsed().as_secs_f64();

    // 4. One 4,096-row minibatch step, tensors prepared beforehand.
    let before = before + share;
    bar.phase("minibatch step (4096 rows)", before);
    let mut times = minibatch_steps(cfg, model, &mut optim, &batch, &device, opts.seconds * share, &bar, share)?;
    bar.bar.finish_and_clear();
    let (step_ms, step_ms_min) = median_min_ms(&mut times);

    let rate = |count: f64, secs: f64| count / secs.max(1e-12);
    Ok(TrainBenchReport {
        backend: BackendKind::Flex.name().to_string(),
        threads: pool_threads(),
        load_average_1m: env::bench::load_average_1m(),
        config: cfg.name.clone(),
        table_sizes: cfg.sizes(),
        num_envs: cfg.num_envs,
        num_steps: cfg.num_steps,
        obs_dim: spec.obs_len,
        hidden: cfg.hidden.clone(),
        separate_towers: !net.shared_trunk,
        num_minibatches: cfg.num_minibatches,
        update_epochs: cfg.update_epochs,
        end_to_end_updates: e2e_updates,
        end_to_end_seconds: e2e_secs,
        end_to_end_learner_decisions: e2e_decisions,
        decisions_per_sec_end_to_end: rate(e2e_decisions as f64, e2e_secs),
        env_decisions_per_sec_end_to_end: rate((e2e_updates * env_steps_per_rollout) as f64, e2e_secs),
        rollout_share_end_to_end: rollout_secs / e2e_secs.max(1e-12),
        rollouts,
        rollout_decisions_per_sec: rate((rollouts * env_steps_per_rollout) as f64, roll_secs),
        rollout_learner_decisions_per_sec: rate(rollout_learner as f64, roll_secs),
        updates,
        update_batch_rows: batch.n,
        update_samples_per_sec: rate((updates * batch.n as u64) as f64, upd_secs),
        update_sample_passes_per_sec: rate((updates * batch.n as u64 * cfg.update_epochs as u64) as f64, upd_secs),
        minibatch_steps: times.len() as u64,
        minibatch_4096_step_ms: step_ms,
        minibatch_4096_step_ms_min: step_ms_min,
    })
}

/// Times single PPO steps on [`MINIBATCH_ROWS`] rows for about `seconds` (at least three):
/// the clipped surrogate, clipped value loss and entropy bonus of [`ppo::update`], backward,
/// global-norm clip and Adam. Rows are drawn (with repetition) from `batch`, so observations
/// and masks are real ones; tensors are built once, outside the timing.
/// Stand-in decisions for a config whose rollout collected none: varied observations, action 0
/// always legal.
fn synthetic_batch(n: usize, spec: EnvSpec) -> Batch {
    let mut b = Batch { n, ..Batch::new(spec) };
    for k in 0..n {
        b.obs.extend((0..spec.obs_len).map(|j| ((k * 31 + j * 17) % 97) as f32 / 97.0));
        b.masks.extend((0..spec.num_actions).map(|a| a == 0 || (k + a) % 3 == 0));
        b.actions.push(0);
        b.logp.push(-1.0);
        b.values.push(0.0);
        b.adv.push(((k % 7) as f32 - 3.0) / 3.0);
        b.ret.push(((k % 5) as f32 - 2.0) / 2.0);
    }
    b
}

#[allow(clippy::too_many_arguments)]
fn minibatch_steps<G: Game>(
    cfg: &TrainConfig<G>,
    mut model: ActorCritic,
    optim: &mut ModuleOptimizer,
    batch: &Batch,
    device: &Device,
    seconds: f64,
    bar: &Progress,
    share: f64,
) -> Result<Vec<Duration>> {
    let m = MINIBATCH_ROWS;
    let synthetic;
    let source = if batch.n > 0 {
        batch
    } else {
        synthetic = synthetic_batch(m, EnvSpec { obs_len: batch.obs_len, num_actions: batch.num_actions, ..G::SPEC });
        &synthetic
    };
    let mut rng = AgentRng::seed_from_u64(derive_seed(cfg.seed, 6_000_000));
    let rows: Vec<usize> = (0..m).map(|_| rng.random_range(0..source.n)).collect();
    let mb = ppo::BatchTensors::upload_for(cfg, source, device).minibatch(&rows, cfg.norm_adv);
    let mut times = Vec::new();
    let t0 = Instant::now();
    while times.len() < 3 || t0.elapsed().as_secs_f64() < seconds {
        let start = Instant::now();
        let (next, _) = ppo::step(cfg, model, optim, &mb, StepSettings::lr(cfg.learning_rate));
        model = next;
        device.sync().map_err(|e| anyhow::anyhow!("backend error: {e:?}"))?;
        times.push(start.elapsed());
        bar.tick(t0.elapsed().as_secs_f64(), share);
    }
    Ok(times)
}
