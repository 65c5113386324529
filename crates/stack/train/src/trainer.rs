//! The training loop: rollouts, PPO updates, the opponent pool, logging, periodic evaluation
//! and resumable checkpoints.
//!
//! A run folder holds:
//! ```text
//! runs/<name>/config.toml     the config this run uses (resume reads it back)
//! runs/<name>/tb/             TensorBoard event files
//! runs/<name>/metrics.csv     the same scalars as CSV
//! runs/<name>/checkpoint/     latest checkpoint: weights, Adam state, metadata (atomic writes)
//! runs/<name>/pool/update-N/  policy snapshots used as opponents
//! runs/<name>/eval_summary.json  end-of-run win rates against the bots
//! ```
//! Resume equivalence: every game is restarted at checkpoint boundaries, and every random
//! stream (deals, seatings, sampling, minibatch order) is derived from the seed and the update
//! number, so a run resumed from a checkpoint at a boundary (every `checkpoint_every` updates:
//! after a crash, or a signal that came at one) computes exactly what an uninterrupted run would
//! (same backend, same thread count). A signal between boundaries writes a checkpoint of that
//! update, so no work is lost, but the games then in progress are not saved: the resumed run
//! restarts them, and says so.

use crate::config::{SnapshotSampling, TrainConfig};
use crate::evaluate;
use crate::evaluate::EvalResult;
use crate::interrupt::{StopRequest, signal_name};
use crate::metrics::Metrics;
use crate::ppo::{self, StepSettings};
use crate::progress_display::ProgressDisplay;
use crate::rollout::{BotFactory, Collector, EpisodeStats};
use crate::run_lock::RunLock;
use anyhow::{Context, Result, bail};
use env::{AgentRng, Game};
use game::derive_seed;
use policy::burn::optim::{AdamConfig, ModuleOptimizer};
use policy::{
    ActorCritic, CheckpointMetadata, Device, ExpectedSpec, Policy, PolicyConfig, cpu_device, cpu_training_device,
    load_checkpoint, load_optimizer, save_checkpoint,
};
use rand::SeedableRng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The spec a checkpoint of game `G` must match to be loaded by this build.
pub fn expected_spec<G: Game>() -> ExpectedSpec {
    ExpectedSpec::from(G::SPEC)
}

/// How to run the trainer (besides the config).
pub struct TrainOptions<G: Game> {
    /// The run folder.
    pub run_dir: PathBuf,
    /// Continue the run in `run_dir` from its last checkpoint.
    pub resume: bool,
    /// Builds heuristic bots by name (opponents and evaluation).
    pub bots: BotFactory<G>,
    /// Show a progress bar.
    pub progress: bool,
    /// Stop after this update (tests use it to interrupt a run at a checkpoint).
    pub stop_after: Option<u64>,
    /// On resume, start a fresh Adam state if the checkpoint has none (otherwise its absence
    /// is an error: a silent fresh optimizer changes the run).
    pub fresh_optimizer: bool,
    /// Checked after every update: once asked (Ctrl-C, SIGTERM), the trainer writes a
    /// checkpoint and returns.
    pub stop: Option<StopRequest>,
    /// Wall-clock budget of this invocation: after the update during which it runs out, the
    /// trainer writes a checkpoint and ends the run as if it were complete (final evaluation
    /// included). Best-response runs (`sabacc exploit`) are budgeted in minutes, not decisions.
    pub time_budget: Option<std::time::Duration>,
}

/// What a finished (or stopped) run reports.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TrainSummary {
    /// The run folder.
    pub run_dir: PathBuf,
    /// Updates done.
    pub updates: u64,
    /// Learner decisions trained on.
    pub decisions: u64,
    /// Wall time of this invocation.
    pub seconds: f64,
    /// The latest checkpoint.
    pub checkpoint: PathBuf,
    /// End-of-run win rate against each evaluation bot (empty if stopped early).
    pub final_win_rates: BTreeMap<String, f64>,
    /// The signal that stopped the run early, after it wrote a checkpoint.
    pub interrupted_by: Option<i32>,
    /// The run ended because its time budget ran out (before `total_decisions`).
    #[serde(default)]
    pub out_of_time: bool,
}

/// Counters stored with each checkpoint (inside its metadata's `notes`, so they are written
/// atomically with the weights).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct Progress {
    global_decisions: u64,
    elapsed_secs: f64,
    /// Per pool snapshot (by the update it was taken at): games it played against the learner
    /// and the learner's wins in them, for prioritised sampling.
    #[serde(default)]
    snapshot_record: BTreeMap<u64, (u64, f64)>,
    /// Per bot spec of the mix: games it sat in against the learner and the learner's wins in
    /// them, for prioritised bot sampling.
    #[serde(default)]
    bot_record: BTreeMap<String, (u64, f64)>,
}

impl Progress {
    /// Adds a rollout's games to the win records; `pool_ids` are the updates of the pool's
    /// snapshots in the order the rollout indexed them.
    fn record(&mut self, ep: &EpisodeStats, pool_ids: &[u64]) {
        for (bot, &(games, wins)) in &ep.by_bot {
            let e = self.bot_record.entry(bot.clone()).or_insert((0, 0.0));
            e.0 += games;
            e.1 += wins;
        }
        for (&k, &(games, wins)) in &ep.by_snapshot {
            let e = self.snapshot_record.entry(pool_ids[k]).or_insert((0, 0.0));
            e.0 += games;
            e.1 += wins;
        }
    }

    /// Sampling weights of the pool's snapshots: `(1 − p)²` with `p` the learner's win rate
    /// against each, smoothed by one won and one lost game.
    fn snapshot_weights(&self, pool: &[(u64, Policy)]) -> Vec<f64> {
        pool.iter()
            .map(|(u, _)| {
                let (games, wins) = self.snapshot_record.get(u).copied().unwrap_or((0, 0.0));
                let p = (wins + 1.0) / (games as f64 + 2.0);
                (1.0 - p) * (1.0 - p)
            })
            .collect()
    }
}

/// File the run's config is copied to.
pub const CONFIG_FILE: &str = "config.toml";
/// Latest checkpoint folder in a run.
pub const CHECKPOINT_DIR: &str = "checkpoint";

/// The commit this trainer was built from (`build.rs`; none when built outside a git checkout).
/// Uncommitted edits at build time are not recorded.
pub(crate) fn git_commit() -> Option<String> {
    option_env!("SABACC_BUILD_COMMIT").map(str::to_string)
}

fn snapshot_dir(run_dir: &Path, update: u64) -> PathBuf {
    run_dir.join("pool").join(format!("update-{update:06}"))
}

/// Updates at which snapshots in the pool were taken, for a run that has done `done` updates.
fn snapshot_schedule<G: Game>(cfg: &TrainConfig<G>, done: u64) -> Vec<u64> {
    let all: Vec<u64> = (1..=done / cfg.snapshot_every).map(|k| k * cfg.snapshot_every).collect();
    let skip = all.len().saturating_sub(cfg.max_snapshots);
    all[skip..].to_vec()
}

/// Deletes the pool folders a resume from the checkpoint of `update` no longer needs. Dropped
/// snapshots are kept until then: a run that dies between checkpoints resumes from the last
/// one, whose pool may include snapshots already dropped from memory. A folder that cannot be
/// read or removed is not an error (the run goes on; the folder only takes space) but is
/// returned as a warning naming it and the reason.
fn prune_pool<G: Game>(cfg: &TrainConfig<G>, run_dir: &Path, update: u64) -> Vec<String> {
    let keep = snapshot_schedule(cfg, update);
    let pool = run_dir.join("pool");
    let entries = match std::fs::read_dir(&pool) {
        Ok(entries) => entries,
        // No snapshot taken yet.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Vec::new(),
        Err(e) => return vec![format!("cannot prune the opponent pool: cannot read {}: {e}", pool.display())],
    };
    let mut warnings = Vec::new();
    for entry in entries {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                warnings.push(format!("cannot prune the opponent pool: cannot list {}: {e}", pool.display()));
                continue;
            }
        };
        let name = entry.file_name();
        let Some(u) = name.to_str().and_then(|n| n.strip_prefix("update-")).and_then(|n| n.parse::<u64>().ok()) else {
            continue;
        };
        if u <= update && !keep.contains(&u) {
            let path = entry.path();
            if let Err(e) = std::fs::remove_dir_all(&path) {
                warnings.push(format!("cannot remove the old pool snapshot {}: {e}", path.display()));
            }
        }
    }
    warnings
}

/// Loads a checkpoint's weights for training, insisting on the config's network; `context`
/// heads every error (which run folder, and why it was being read).
fn load_weights<G: Game>(
    dir: &Path,
    net: &PolicyConfig,
    device: &policy::Device,
    context: &str,
) -> Result<(ActorCritic, CheckpointMetadata)> {
    let (model, meta) =
        load_checkpoint(dir, &ExpectedSpec::from(G::SPEC), device).with_context(|| context.to_string())?;
    if meta.network != *net {
        bail!(
            "{context}: the checkpoint's network (hidden {:?}, shared trunk {}) does not match the config's \
             (hidden {:?}, shared_trunk {})",
            meta.network.hidden,
            meta.network.shared_trunk,
            net.hidden,
            net.shared_trunk
        );
    }
    Ok((model, meta))
}

fn metadata<G: Game>(
    cfg: &TrainConfig<G>,
    net: &PolicyConfig,
    update: u64,
    progress: &Progress,
) -> Result<CheckpointMetadata> {
    let mut meta = CheckpointMetadata::new(
        G::SPEC.id,
        G::SPEC.obs_version,
        net.clone(),
        update,
        cfg.seed,
        serde_json::to_value(cfg.env_config())?,
    );
    meta.git_commit = git_commit();
    meta.notes = serde_json::to_string(progress)?;
    meta.table_sizes = cfg.sizes();
    meta.value_shaping = Some(cfg.shaping);
    Ok(meta)
}

/// Results of `policy` against each of the config's evaluation bots, at every table size the
/// run trains on (keys `<bot>`, or `<bot>_<n>p` when there are several sizes).
fn win_rates<G: Game>(
    cfg: &TrainConfig<G>,
    policy: &Policy,
    bots: &BotFactory<G>,
    games: u64,
    seed: u64,
) -> Result<BTreeMap<String, EvalResult>> {
    let mut out = BTreeMap::new();
    let sizes = cfg.sizes();
    for &n in &sizes {
        for bot in &cfg.eval_bots {
            let r = evaluate::versus_bot(policy, bots, bot, cfg.env_config_for(n), games, seed)?;
            let key = if sizes.len() == 1 { bot.clone() } else { format!("{bot}_{n}p") };
            out.insert(key, r);
        }
    }
    Ok(out)
}

/// The exact exploitability of `policy` (as it plays: sampling) at the config's table, for games
/// small enough to walk ([`Game::deals`]); `None` for the others.
fn exact_exploitability<G: Game>(
    cfg: &TrainConfig<G>,
    policy: &Policy,
) -> Result<Option<eval::exploitability::Exploitability>> {
    let rules = cfg.env_config_for(cfg.players).rules;
    if G::deals(&rules).is_none() {
        return Ok(None);
    }
    let mut agent = policy::PolicyAgent::<G>::new(evaluate::LEARNER, policy.clone(), policy::ActionSelection::Sample);
    Ok(Some(eval::exploitability::exploitability::<G>(&mut agent, &rules)?))
}

/// One update's rollout and what it cost.
struct Collected {
    batch: crate::rollout::Batch,
    stats: EpisodeStats,
    /// The update each pool snapshot was taken at, in the order the rollout indexed them.
    pool_ids: Vec<u64>,
    seconds: f64,
}

/// Hands the collector the pool's current win records (prioritised sampling reads them).
fn prepare<G: Game>(collector: &mut Collector<G>, progress: &Progress, snapshots: &[(u64, Policy)]) {
    collector.set_snapshot_weights(progress.snapshot_weights(snapshots));
    collector.set_bot_record(&progress.bot_record);
}

/// Plays the rollout of update `update` with `current` as the learner; its random stream is
/// derived from the seed and the update number only, so it does not matter which thread plays it.
fn collect<G: Game>(
    collector: &mut Collector<G>,
    cfg: &TrainConfig<G>,
    current: Policy,
    snapshots: &[(u64, Policy)],
    update: u64,
) -> Result<Collected> {
    let t0 = Instant::now();
    let pool: Vec<Policy> = snapshots.iter().map(|s| s.1.clone()).collect();
    let mut rng = AgentRng::seed_from_u64(derive_seed(cfg.seed, 1_000_000 + update));
    let mut stats = EpisodeStats::default();
    let batch = collector.collect(&current, &pool, &mut rng, &mut stats)?;
    Ok(Collected {
        batch,
        stats,
        pool_ids: snapshots.iter().map(|s| s.0).collect(),
        seconds: t0.elapsed().as_secs_f64(),
    })
}

/// What a checkpoint written on a signal means for resuming: games in progress are not saved, so
/// only a stop at a checkpoint boundary (or at the run's end) resumes bit for bit.
fn off_boundary_note(update: u64, checkpoint_every: u64, num_updates: u64) -> String {
    if update.is_multiple_of(checkpoint_every) || update >= num_updates {
        return String::new();
    }
    let next = update.next_multiple_of(checkpoint_every);
    let boundary = if next < num_updates {
        format!("; a stop at update {next}, the next boundary, would have been")
    } else {
        String::new()
    };
    format!(
        " (between checkpoint boundaries: `--resume` restarts the games in progress, so the resumed run is not the \
         uninterrupted one bit for bit{boundary})"
    )
}

/// Trains a policy as the config says, writing everything into `opts.run_dir`.
pub fn train<G: Game>(cfg: &TrainConfig<G>, opts: TrainOptions<G>) -> Result<TrainSummary> {
    cfg.validate()?;
    let num_updates = cfg.num_updates();
    let (mut run, mut model) = Run::start(cfg, &opts)?;
    let mut out_of_time = false;
    while run.update < num_updates {
        let done;
        (model, done) = run.train_update(model)?;
        run.snapshot_if_due(&model)?;
        run.log_update(&model, &done)?;
        let interrupted = opts.stop.as_ref().and_then(StopRequest::asked);
        out_of_time = run.update < num_updates && opts.time_budget.is_some_and(|b| run.started.elapsed() >= b);
        if run.update.is_multiple_of(cfg.checkpoint_every)
            || run.update == num_updates
            || interrupted.is_some()
            || out_of_time
        {
            run.write_checkpoint(&model)?;
        }
        if let Some(sig) = interrupted {
            let line = format!(
                "{} received: checkpoint of update {} written to {}{}",
                signal_name(sig),
                run.update,
                run.ckpt_dir.display(),
                off_boundary_note(run.update, cfg.checkpoint_every, num_updates)
            );
            run.display.println(&line);
        }
        if interrupted.is_some() || opts.stop_after.is_some_and(|s| run.update >= s) {
            // `stop_after` is like a crash: whatever came after the last checkpoint is redone.
            run.display.finish();
            return Ok(run.summary(BTreeMap::new(), interrupted, false));
        }
        if out_of_time {
            break;
        }
    }
    run.display.finish();
    let final_win_rates = run.final_evaluation(&model)?;
    Ok(run.summary(final_win_rates, None, out_of_time))
}

/// A fresh Adam state with the trainer's settings.
fn adam() -> ModuleOptimizer {
    AdamConfig::new().with_epsilon(1e-5).init()
}

/// Where a run starts: its network, optimizer, the updates already done and its counters.
struct Start {
    model: ActorCritic,
    optim: ModuleOptimizer,
    update: u64,
    progress: Progress,
}

/// Checks that the run folder can be used as asked (a resume needs a checkpoint, a fresh run
/// refuses to overwrite one), creates it, takes its lock and, for a fresh run, writes the config.
fn open_run_dir<G: Game>(cfg: &TrainConfig<G>, opts: &TrainOptions<G>, ckpt_dir: &Path) -> Result<RunLock> {
    let run_dir = &opts.run_dir;
    if opts.resume && !ckpt_dir.exists() {
        bail!("cannot resume from {}: it holds no checkpoint", run_dir.display());
    }
    std::fs::create_dir_all(run_dir).with_context(|| format!("cannot create {}", run_dir.display()))?;
    let lock = RunLock::acquire(run_dir)?;
    if let Some(m) = lock.stale_message() {
        eprintln!("{m}");
    }
    if !opts.resume {
        if ckpt_dir.exists() {
            bail!(
                "{} already holds a run; continue it with `--resume {}` or choose another --out",
                run_dir.display(),
                run_dir.display()
            );
        }
        std::fs::write(run_dir.join(CONFIG_FILE), toml::to_string_pretty(cfg)?)?;
    }
    Ok(lock)
}

/// The state saved in the run's checkpoint: weights, Adam state (or a fresh one if allowed),
/// updates done and counters; a finished run is refused.
fn resume_from<G: Game>(
    cfg: &TrainConfig<G>,
    opts: &TrainOptions<G>,
    ckpt_dir: &Path,
    net: &PolicyConfig,
    device: &Device,
) -> Result<Start> {
    let (model, meta) =
        load_weights::<G>(ckpt_dir, net, device, &format!("cannot resume from {}", ckpt_dir.display()))?;
    let optim = match load_optimizer(ckpt_dir, adam())? {
        Some(o) => o,
        None if opts.fresh_optimizer => adam(),
        None => bail!(
            "cannot resume from {}: it has no optimizer state ({}); pass --fresh-optimizer to continue with a fresh \
             Adam state (the run then differs from an uninterrupted one)",
            ckpt_dir.display(),
            policy::OPTIMIZER_FILE
        ),
    };
    let progress: Progress = serde_json::from_str(&meta.notes).map_err(|e| {
        anyhow::anyhow!(
            "cannot resume from {}: its metadata.json holds no training counters in `notes` ({e}); it was not \
             written by the trainer",
            ckpt_dir.display()
        )
    })?;
    if meta.training_step >= cfg.num_updates() {
        bail!(
            "the run in {} is finished ({} of {} updates); nothing to resume. Its checkpoint is {}; to train \
             further, start a new run with `init_from` set to that checkpoint",
            opts.run_dir.display(),
            meta.training_step,
            cfg.num_updates(),
            ckpt_dir.display()
        );
    }
    Ok(Start { model, optim, update: meta.training_step, progress })
}

/// The pool of a run that has done `update` updates, read back from its snapshot folders.
fn load_pool<G: Game>(
    cfg: &TrainConfig<G>,
    run_dir: &Path,
    update: u64,
    device: &Device,
) -> Result<Vec<(u64, Policy)>> {
    let mut snapshots = Vec::new();
    for u in snapshot_schedule(cfg, update) {
        let (p, _) = Policy::from_checkpoint(snapshot_dir(run_dir, u), &ExpectedSpec::from(G::SPEC), device)
            .with_context(|| format!("cannot load pool snapshot of update {u}"))?;
        snapshots.push((u, p));
    }
    Ok(snapshots)
}

/// What one update did, for its log.
struct UpdateDone {
    /// Learner decisions trained on.
    decisions: usize,
    episodes: EpisodeStats,
    losses: ppo::UpdateStats,
    learning_rate: f64,
    /// The entropy coefficient the update used (annealed or constant).
    ent_coef: f32,
    rollout_seconds: f64,
    update_seconds: f64,
    /// Wall time of the whole update.
    seconds: f64,
}

/// A run in progress: what it was started with and what carries from one update to the next.
/// The network is not kept here: each PPO step takes it and gives back the trained one.
struct Run<'a, G: Game> {
    cfg: &'a TrainConfig<G>,
    opts: &'a TrainOptions<G>,
    ckpt_dir: PathBuf,
    net: PolicyConfig,
    device: Device,
    infer_device: Device,
    optim: ModuleOptimizer,
    progress: Progress,
    snapshots: Vec<(u64, Policy)>,
    metrics: Metrics,
    collector: Collector<G>,
    display: ProgressDisplay,
    started: Instant,
    /// Training time of the invocations before this one.
    elapsed_before: f64,
    /// The latest evaluation's win rates, for the progress line.
    last_eval: BTreeMap<String, f64>,
    /// The latest exact NashConv, for games small enough to walk.
    last_nash_conv: Option<f64>,
    /// Updates done.
    update: u64,
    /// Set until the first update of this invocation, which restarts the games like a
    /// checkpoint boundary does.
    first: bool,
    /// The next update's rollout, when it was played beside this update's training.
    pending: Option<Collected>,
    /// The frozen policy the KL term pulls towards (`magnet_coef`), refreshed every
    /// `magnet_every` updates.
    magnet: Option<ActorCritic>,
    _lock: RunLock,
}

impl<'a, G: Game> Run<'a, G> {
    /// Sets the run up: the folder and its lock, then the starting state (fresh, from
    /// `init_from`, or resumed from the run's checkpoint), its pool and its logs.
    fn start(cfg: &'a TrainConfig<G>, opts: &'a TrainOptions<G>) -> Result<(Run<'a, G>, ActorCritic)> {
        let run_dir = &opts.run_dir;
        let ckpt_dir = run_dir.join(CHECKPOINT_DIR);
        let device = cpu_training_device();
        let spec = G::SPEC;
        let net = cfg.network(spec);
        // Read before the run folder exists, so a bad `init_from` leaves nothing behind.
        let init = match (&cfg.init_from, opts.resume) {
            (Some(init), false) => {
                Some(load_weights::<G>(init, &net, &device, &format!("init_from: cannot load {}", init.display()))?.0)
            }
            _ => None,
        };
        let lock = open_run_dir(cfg, opts, &ckpt_dir)?;
        let infer_device = cpu_device();
        let Start { model, optim, update, progress } = if opts.resume {
            resume_from(cfg, opts, &ckpt_dir, &net, &device)?
        } else {
            let model = match init {
                Some(model) => model,
                None => ActorCritic::new_seeded(&net, &device, cfg.seed)?,
            };
            Start { model, optim: adam(), update: 0, progress: Progress::default() }
        };
        let snapshots = load_pool(cfg, run_dir, update, &infer_device)?;
        let mut metrics = Metrics::open(run_dir, opts.resume.then_some(update))?;
        let collector = Collector::new(cfg, spec, opts.bots.clone())?;
        let mut display =
            ProgressDisplay::new(opts.progress, cfg.num_updates(), update).with_deadline(opts.time_budget);
        for notice in metrics.take_notices() {
            display.warn(&notice);
        }
        for note in cfg.notes() {
            display.warn(&format!("warning: {note}"));
        }
        if opts.resume && !update.is_multiple_of(cfg.checkpoint_every) {
            display.warn(&format!(
                "note: resuming at update {update}, which is not a checkpoint boundary (every {} updates): the games in \
                 progress when the run stopped were not saved and restart here, so from here on the run is not the \
                 uninterrupted one bit for bit (it plays the same distribution of games)",
                cfg.checkpoint_every
            ));
        }
        let run = Run {
            cfg,
            opts,
            ckpt_dir,
            net,
            device,
            infer_device,
            optim,
            elapsed_before: progress.elapsed_secs,
            progress,
            snapshots,
            metrics,
            collector,
            display,
            started: Instant::now(),
            last_eval: BTreeMap::new(),
            last_nash_conv: None,
            update,
            first: true,
            pending: None,
            magnet: None,
            _lock: lock,
        };
        Ok((run, model))
    }

    /// One update: the rollout (or the one played beside the previous update), then the PPO
    /// step, beside which the next rollout is played when the config overlaps them.
    fn train_update(&mut self, model: ActorCritic) -> Result<(ActorCritic, UpdateDone)> {
        let cfg = self.cfg;
        let num_updates = cfg.num_updates();
        let update = self.update;
        // Games restart at checkpoint boundaries (a resumed run always starts at one). `first`
        // is cleared on every pass: a short-circuited `||` would leave it set and restart the
        // games once more on the next update.
        let first_pass = std::mem::take(&mut self.first);
        if update.is_multiple_of(cfg.checkpoint_every) || first_pass {
            debug_assert!(self.pending.is_none(), "a rollout was overlapped into a checkpoint boundary");
            self.collector.set_snapshot_weights(self.progress.snapshot_weights(&self.snapshots));
            self.collector.reset_all(update / cfg.checkpoint_every);
        }
        let t0 = Instant::now();
        let frac = update as f64 / num_updates as f64;
        let lr = if cfg.anneal_lr { cfg.learning_rate * (1.0 - frac) } else { cfg.learning_rate };
        // The entropy coefficient of this update, annealed when `ent_coef_final` asks for it.
        let annealed;
        let cfg = match cfg.ent_coef_final {
            Some(end) => {
                annealed = TrainConfig { ent_coef: cfg.ent_coef + (end - cfg.ent_coef) * frac as f32, ..cfg.clone() };
                &annealed
            }
            None => cfg,
        };
        let got = match self.pending.take() {
            Some(got) => got,
            None => {
                prepare(&mut self.collector, &self.progress, &self.snapshots);
                let current = Policy::new(&model, &self.infer_device);
                collect(&mut self.collector, cfg, current, &self.snapshots, update)?
            }
        };
        let Collected { batch, stats: episodes, pool_ids, seconds: rollout_seconds } = got;
        // Indexed into the pool as it was when the rollout was played.
        self.progress.record(&episodes, &pool_ids);
        let mut mb_rng = AgentRng::seed_from_u64(derive_seed(cfg.seed, 2_000_000 + update));
        // Overlap the next rollout with this update, except into a checkpoint boundary, where
        // games restart and a resumed run must find the same rollout an uninterrupted one plays.
        let overlaps_next =
            cfg.actor_learner_overlap && update + 1 < num_updates && !(update + 1).is_multiple_of(cfg.checkpoint_every);
        // The magnet (`magnet_coef`): the policy as it stood at the last refresh. A resumed run
        // starts at a checkpoint, which `magnet_every` divides, so it refreshes here too.
        if cfg.magnet_coef > 0.0 && (update.is_multiple_of(cfg.magnet_every) || self.magnet.is_none()) {
            self.magnet = Some(model.clone());
        }
        let magnet = self.magnet.as_ref();
        let t_update = Instant::now();
        let (model, losses) = if overlaps_next {
            prepare(&mut self.collector, &self.progress, &self.snapshots);
            let current = Policy::new(&model, &self.infer_device);
            let (collector, snapshots) = (&mut self.collector, &self.snapshots);
            let (optim, device) = (&mut self.optim, &self.device);
            // Set until the rollout is played: the learner keeps to one thread till then.
            let rollout_running = AtomicBool::new(true);
            let (trained, next) = std::thread::scope(|scope| {
                let worker = scope.spawn(|| {
                    let next = collect(collector, cfg, current, snapshots, update + 1);
                    rollout_running.store(false, Ordering::Release);
                    next
                });
                let settings = StepSettings { lr, magnet, rollout: Some(&rollout_running) };
                let trained = ppo::update(cfg, model, optim, &batch, device, &mut mb_rng, settings);
                (trained, worker.join())
            });
            self.pending = Some(next.map_err(|_| anyhow::anyhow!("the rollout thread panicked"))??);
            trained
        } else {
            let settings = StepSettings { lr, magnet, rollout: None };
            ppo::update(cfg, model, &mut self.optim, &batch, &self.device, &mut mb_rng, settings)
        };
        let update_seconds = t_update.elapsed().as_secs_f64();
        self.update += 1;
        self.progress.global_decisions += batch.n as u64;
        let done = UpdateDone {
            decisions: batch.n,
            episodes,
            losses,
            learning_rate: lr,
            ent_coef: cfg.ent_coef,
            rollout_seconds,
            update_seconds,
            seconds: t0.elapsed().as_secs_f64(),
        };
        Ok((model, done))
    }

    /// Adds `model` to the opponent pool when a snapshot is due, dropping the oldest beyond
    /// `max_snapshots`.
    fn snapshot_if_due(&mut self, model: &ActorCritic) -> Result<()> {
        let (cfg, update) = (self.cfg, self.update);
        if !update.is_multiple_of(cfg.snapshot_every) {
            return Ok(());
        }
        let dir = snapshot_dir(&self.opts.run_dir, update);
        save_checkpoint(&dir, model, &metadata(cfg, &self.net, update, &self.progress)?, None)?;
        // Read back what was saved, as a resumed run will.
        let (p, _) = Policy::from_checkpoint(&dir, &ExpectedSpec::from(G::SPEC), &self.infer_device)?;
        self.snapshots.push((update, p));
        while self.snapshots.len() > cfg.max_snapshots {
            // Its folder stays until the next checkpoint no longer needs it for a resume.
            let (old, _) = self.snapshots.remove(0);
            self.progress.snapshot_record.remove(&old);
        }
        Ok(())
    }

    /// The update's scalars (without evaluations).
    fn scalars(&self, done: &UpdateDone) -> BTreeMap<String, f64> {
        let cfg = self.cfg;
        let (ep, stats) = (&done.episodes, &done.losses);
        let mut scalars = BTreeMap::new();
        if ep.episodes > 0 {
            scalars.insert("charts/episodic_return".to_string(), ep.return_sum / ep.episodes as f64);
            scalars.insert("charts/episodic_length".to_string(), ep.length_sum as f64 / ep.episodes as f64);
        }
        scalars.insert("charts/SPS".to_string(), done.decisions as f64 / done.seconds);
        scalars.insert("charts/env_steps_per_sec".to_string(), cfg.rollout_steps() as f64 / done.rollout_seconds);
        scalars.insert("charts/learning_rate".to_string(), done.learning_rate);
        scalars.insert("charts/ent_coef".to_string(), f64::from(done.ent_coef));
        if cfg.explore > 0.0 && ep.learner_decisions > 0 {
            scalars.insert("charts/explored_fraction".to_string(), ep.explored as f64 / ep.learner_decisions as f64);
        }
        // Where the update's time went: opponent bots, policy inference (with observation
        // encoding), the rest of the rollout (env stepping, bookkeeping), the PPO update. With
        // `actor_learner_overlap` the rollout ran beside the previous update, so these add up
        // to more than the update's wall time.
        scalars.insert("time/bots_seconds".to_string(), ep.bot_seconds);
        scalars.insert("time/inference_seconds".to_string(), ep.policy_seconds);
        let env_seconds = (done.rollout_seconds - ep.bot_seconds - ep.policy_seconds).max(0.0);
        scalars.insert("time/env_seconds".to_string(), env_seconds);
        scalars.insert("time/update_seconds".to_string(), done.update_seconds);
        // The update's own split: forward (with the losses), backward, gradient clip, Adam step;
        // what is left of `update_seconds` is the batch upload and the minibatch selection.
        let phases = &stats.time;
        scalars.insert("time/update_forward_seconds".to_string(), phases.forward);
        scalars.insert("time/update_backward_seconds".to_string(), phases.backward);
        scalars.insert("time/update_clip_seconds".to_string(), phases.clip);
        scalars.insert("time/update_optimizer_seconds".to_string(), phases.optimizer);
        scalars.insert("losses/policy_loss".to_string(), stats.policy_loss as f64);
        scalars.insert("losses/value_loss".to_string(), stats.value_loss as f64);
        scalars.insert("losses/entropy".to_string(), stats.entropy as f64);
        scalars.insert("losses/approx_kl".to_string(), stats.approx_kl as f64);
        scalars.insert("losses/clipfrac".to_string(), stats.clipfrac as f64);
        if cfg.magnet_coef > 0.0 {
            scalars.insert("losses/magnet_kl".to_string(), stats.magnet_kl as f64);
        }
        scalars.insert("losses/explained_variance".to_string(), stats.explained_variance as f64);
        // Per opponent kind: the learner's win rate in the games that kind sat in.
        for (label, (games, wins)) in &ep.by_opponent {
            scalars.insert(format!("charts/train_win_rate_vs_{label}"), wins / *games as f64);
        }
        if cfg.bot_sampling == SnapshotSampling::Prioritised {
            for (label, share) in self.collector.mix_shares() {
                scalars.insert(format!("pool/share_{label}"), share);
            }
        }
        scalars
    }

    /// Logs the update's scalars, with an evaluation against the bots when one is due, and
    /// shows the progress line.
    fn log_update(&mut self, model: &ActorCritic, done: &UpdateDone) -> Result<()> {
        let (cfg, update) = (self.cfg, self.update);
        let mut scalars = self.scalars(done);
        if cfg.eval_every > 0 && update.is_multiple_of(cfg.eval_every) {
            let current = Policy::new(model, &self.infer_device);
            let seed = derive_seed(cfg.seed, 3_000_000 + update);
            for (bot, r) in win_rates(cfg, &current, &self.opts.bots, cfg.eval_games, seed)? {
                let (lo, hi) = r.interval();
                scalars.insert(format!("eval/win_rate_vs_{bot}"), r.win_rate());
                scalars.insert(format!("eval/win_rate_vs_{bot}_ci_low"), lo);
                scalars.insert(format!("eval/win_rate_vs_{bot}_ci_high"), hi);
                self.last_eval.insert(bot, r.win_rate());
            }
            // A game small enough to walk is measured against its equilibrium as well.
            if let Some(e) = exact_exploitability(cfg, &current)? {
                scalars.insert("eval/nash_conv".into(), e.nash_conv);
                for (seat, v) in e.best_response.iter().enumerate() {
                    scalars.insert(format!("eval/best_response_seat{seat}"), *v);
                }
                self.last_nash_conv = Some(e.nash_conv);
            }
        }
        self.metrics.log(update, self.progress.global_decisions, &scalars)?;
        let evals: Vec<String> = self.last_eval.iter().map(|(b, w)| format!("{b} {:.0}%", w * 100.0)).collect();
        let line = format!(
            "{} decisions, {:.0} SPS{}{}",
            self.progress.global_decisions,
            done.decisions as f64 / done.seconds,
            if evals.is_empty() { "" } else { ", win rate vs " },
            evals.join(", ")
        ) + &self.last_nash_conv.map_or(String::new(), |n| format!(", NashConv {n:.3}"));
        self.display.update(update, line);
        Ok(())
    }

    /// Writes the run's checkpoint (weights, Adam state, counters), then removes the pool
    /// folders a resume from it no longer needs.
    fn write_checkpoint(&mut self, model: &ActorCritic) -> Result<()> {
        self.progress.elapsed_secs = self.elapsed_before + self.started.elapsed().as_secs_f64();
        let meta = metadata(self.cfg, &self.net, self.update, &self.progress)?;
        save_checkpoint(&self.ckpt_dir, model, &meta, Some(&self.optim))?;
        for warning in prune_pool(self.cfg, &self.opts.run_dir, self.update) {
            self.display.warn(&format!("warning: {warning}"));
        }
        Ok(())
    }

    /// The end-of-run win rates against the evaluation bots (none if `final_eval_games` is 0),
    /// also written to `eval_summary.json`.
    fn final_evaluation(&self, model: &ActorCritic) -> Result<BTreeMap<String, f64>> {
        let cfg = self.cfg;
        if cfg.final_eval_games == 0 {
            return Ok(BTreeMap::new());
        }
        let current = Policy::new(model, &self.infer_device);
        let rates: BTreeMap<String, f64> =
            win_rates(cfg, &current, &self.opts.bots, cfg.final_eval_games, derive_seed(cfg.seed, 4_000_000))?
                .into_iter()
                .map(|(bot, r)| (bot, r.win_rate()))
                .collect();
        std::fs::write(self.opts.run_dir.join("eval_summary.json"), serde_json::to_string_pretty(&rates)?)?;
        Ok(rates)
    }

    fn summary(
        &self,
        final_win_rates: BTreeMap<String, f64>,
        interrupted_by: Option<i32>,
        out_of_time: bool,
    ) -> TrainSummary {
        TrainSummary {
            run_dir: self.opts.run_dir.clone(),
            updates: self.update,
            decisions: self.progress.global_decisions,
            seconds: self.started.elapsed().as_secs_f64(),
            checkpoint: self.ckpt_dir.clone(),
            final_win_rates,
            interrupted_by,
            out_of_time,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::kessel::Kessel;

    /// A stop at a boundary or at the end says nothing more; between boundaries the note says the
    /// resumed run restarts its games, and names the next boundary only when the run reaches it.
    #[test]
    fn a_stop_between_checkpoint_boundaries_is_said_to_restart_the_games() {
        assert_eq!(off_boundary_note(40, 20, 100), "");
        assert_eq!(off_boundary_note(100, 30, 100), "", "the last update ends the run");
        let mid = off_boundary_note(41, 20, 100);
        assert!(
            mid.contains("restarts the games in progress") && mid.contains("update 60, the next boundary"),
            "{mid}"
        );
        let late = off_boundary_note(95, 20, 100);
        assert!(late.contains("restarts the games in progress") && !late.contains("next boundary"), "{late}");
    }

    #[test]
    fn pruning_reports_a_pool_folder_it_cannot_remove() {
        let d = tempfile::tempdir().unwrap();
        let cfg = crate::TrainConfig { snapshot_every: 1, max_snapshots: 1, ..crate::TrainConfig::<Kessel>::default() };
        let pool = d.path().join("pool");
        std::fs::create_dir_all(snapshot_dir(d.path(), 1)).unwrap();
        std::fs::create_dir_all(snapshot_dir(d.path(), 3)).unwrap();
        // A file where a snapshot folder should be: removing it as a folder fails.
        std::fs::write(snapshot_dir(d.path(), 2), "not a folder").unwrap();
        let warnings = prune_pool(&cfg, d.path(), 3);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        let w = &warnings[0];
        assert!(w.contains(&snapshot_dir(d.path(), 2).display().to_string()), "names the path: {w}");
        assert!(w.contains("ot a directory"), "gives the reason: {w}");
        assert!(!snapshot_dir(d.path(), 1).exists(), "the others are still pruned");
        assert!(snapshot_dir(d.path(), 3).exists(), "the one the checkpoint needs is kept");
        assert!(pool.join("update-000002").exists());
        // No pool yet is not a problem.
        assert!(prune_pool(&cfg, tempfile::tempdir().unwrap().path(), 3).is_empty());
    }
}
