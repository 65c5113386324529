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
//! number, so a run stopped and resumed from a checkpoint computes exactly what an uninterrupted
//! run would (same backend, same thread count).

use crate::config::{SnapshotSampling, TrainConfig};
use crate::evaluate;
use crate::evaluate::EvalResult;
use crate::interrupt::{StopRequest, signal_name};
use crate::metrics::Metrics;
use crate::ppo;
use crate::progress_display::ProgressDisplay;
use crate::rollout::{BotFactory, Collector, EpisodeStats};
use crate::run_lock::RunLock;
use anyhow::{Context, Result, bail};
use engine::derive_seed;
use env::{AgentRng, EnvSpec};
use policy::burn::optim::AdamConfig;
use policy::{
    ActorCritic, CheckpointMetadata, ExpectedSpec, Policy, PolicyConfig, cpu_device, cpu_training_device,
    load_checkpoint, load_optimizer, save_checkpoint,
};
use rand::SeedableRng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The spec a checkpoint must match to be loaded by this build.
pub fn expected_spec() -> ExpectedSpec {
    ExpectedSpec::from(EnvSpec::KESSEL)
}

/// How to run the trainer (besides the config).
pub struct TrainOptions {
    /// The run folder.
    pub run_dir: PathBuf,
    /// Continue the run in `run_dir` from its last checkpoint.
    pub resume: bool,
    /// Builds heuristic bots by name (opponents and evaluation).
    pub bots: BotFactory,
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

pub(crate) fn git_commit() -> Option<String> {
    let out = std::process::Command::new("git").args(["rev-parse", "--short=12", "HEAD"]).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn snapshot_dir(run_dir: &Path, update: u64) -> PathBuf {
    run_dir.join("pool").join(format!("update-{update:06}"))
}

/// Updates at which snapshots in the pool were taken, for a run that has done `done` updates.
fn snapshot_schedule(cfg: &TrainConfig, done: u64) -> Vec<u64> {
    let all: Vec<u64> = (1..=done / cfg.snapshot_every).map(|k| k * cfg.snapshot_every).collect();
    let skip = all.len().saturating_sub(cfg.max_snapshots);
    all[skip..].to_vec()
}

/// Deletes the pool folders a resume from the checkpoint of `update` no longer needs. Dropped
/// snapshots are kept until then: a run that dies between checkpoints resumes from the last
/// one, whose pool may include snapshots already dropped from memory.
fn prune_pool(cfg: &TrainConfig, run_dir: &Path, update: u64) {
    let keep = snapshot_schedule(cfg, update);
    let Ok(entries) = std::fs::read_dir(run_dir.join("pool")) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(u) = name.to_str().and_then(|n| n.strip_prefix("update-")).and_then(|n| n.parse::<u64>().ok()) else {
            continue;
        };
        if u <= update && !keep.contains(&u) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Loads a checkpoint's weights for training, insisting on the config's network; `context`
/// heads every error (which run folder, and why it was being read).
fn load_weights(
    dir: &Path,
    net: &PolicyConfig,
    device: &policy::Device,
    context: &str,
) -> Result<(ActorCritic, CheckpointMetadata)> {
    let (model, meta) = load_checkpoint(dir, &expected_spec(), device).with_context(|| context.to_string())?;
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

fn metadata(cfg: &TrainConfig, net: &PolicyConfig, update: u64, progress: &Progress) -> Result<CheckpointMetadata> {
    let mut meta = CheckpointMetadata::new(
        EnvSpec::KESSEL.obs_version,
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
fn win_rates(
    cfg: &TrainConfig,
    policy: &Policy,
    bots: &BotFactory,
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

/// One update's rollout and what it cost.
struct Collected {
    batch: crate::rollout::Batch,
    stats: EpisodeStats,
    /// The update each pool snapshot was taken at, in the order the rollout indexed them.
    pool_ids: Vec<u64>,
    seconds: f64,
}

/// Hands the collector the pool's current win records (prioritised sampling reads them).
fn prepare(collector: &mut Collector, progress: &Progress, snapshots: &[(u64, Policy)]) {
    collector.set_snapshot_weights(progress.snapshot_weights(snapshots));
    collector.set_bot_record(&progress.bot_record);
}

/// Plays the rollout of update `update` with `current` as the learner; its random stream is
/// derived from the seed and the update number only, so it does not matter which thread plays it.
fn collect(
    collector: &mut Collector,
    cfg: &TrainConfig,
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

/// Trains a policy as the config says, writing everything into `opts.run_dir`.
pub fn train(cfg: &TrainConfig, opts: TrainOptions) -> Result<TrainSummary> {
    cfg.validate()?;
    let run_dir = &opts.run_dir;
    let ckpt_dir = run_dir.join(CHECKPOINT_DIR);
    let device = cpu_training_device();
    let spec = EnvSpec::KESSEL;
    let net = cfg.network(spec);
    // Read before the run folder exists, so a bad `init_from` leaves nothing behind.
    let init = match (&cfg.init_from, opts.resume) {
        (Some(init), false) => {
            Some(load_weights(init, &net, &device, &format!("init_from: cannot load {}", init.display()))?.0)
        }
        _ => None,
    };
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
    let infer_device = cpu_device();
    let mut optim = AdamConfig::new().with_epsilon(1e-5).init();
    let (mut model, start_update, mut progress) = if opts.resume {
        let (model, meta) =
            load_weights(&ckpt_dir, &net, &device, &format!("cannot resume from {}", ckpt_dir.display()))?;
        optim = match load_optimizer(&ckpt_dir, optim)? {
            Some(o) => o,
            None if opts.fresh_optimizer => AdamConfig::new().with_epsilon(1e-5).init(),
            None => bail!(
                "cannot resume from {}: it has no optimizer state ({}); pass --fresh-optimizer to continue with a \
                 fresh Adam state (the run then differs from an uninterrupted one)",
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
                run_dir.display(),
                meta.training_step,
                cfg.num_updates(),
                ckpt_dir.display()
            );
        }
        (model, meta.training_step, progress)
    } else {
        let model = match init {
            Some(model) => model,
            None => ActorCritic::new_seeded(&net, &device, cfg.seed)?,
        };
        (model, 0, Progress::default())
    };
    let num_updates = cfg.num_updates();
    let mut snapshots: Vec<(u64, Policy)> = Vec::new();
    for u in snapshot_schedule(cfg, start_update) {
        let (p, _) = Policy::from_checkpoint(snapshot_dir(run_dir, u), &expected_spec(), &infer_device)
            .with_context(|| format!("cannot load pool snapshot of update {u}"))?;
        snapshots.push((u, p));
    }
    let mut metrics = Metrics::open(run_dir, opts.resume.then_some(start_update))?;
    let mut collector = Collector::new(cfg, spec, opts.bots.clone())?;
    let mut display = ProgressDisplay::new(opts.progress, num_updates, start_update);
    let started = Instant::now();
    let elapsed_before = progress.elapsed_secs;
    let mut last_eval: BTreeMap<String, f64> = BTreeMap::new();
    let mut update = start_update;
    let mut out_of_time = false;
    let mut first = true;
    // The next update's rollout, when it was played beside this update's training.
    let mut pending: Option<Collected> = None;
    while update < num_updates {
        // Games restart at checkpoint boundaries (a resumed run always starts at one). `first`
        // is cleared on every pass: a short-circuited `||` would leave it set and restart the
        // games once more on the next update.
        let first_pass = std::mem::take(&mut first);
        if update % cfg.checkpoint_every == 0 || first_pass {
            debug_assert!(pending.is_none(), "a rollout was overlapped into a checkpoint boundary");
            collector.set_snapshot_weights(progress.snapshot_weights(&snapshots));
            collector.reset_all(update / cfg.checkpoint_every);
        }
        let t0 = Instant::now();
        let frac = update as f64 / num_updates as f64;
        let lr = if cfg.anneal_lr { cfg.learning_rate * (1.0 - frac) } else { cfg.learning_rate };
        let got = match pending.take() {
            Some(got) => got,
            None => {
                prepare(&mut collector, &progress, &snapshots);
                collect(&mut collector, cfg, Policy::new(&model, &infer_device), &snapshots, update)?
            }
        };
        let Collected { batch, stats: ep, pool_ids, seconds: t_rollout } = got;
        for (bot, &(games, wins)) in &ep.by_bot {
            let e = progress.bot_record.entry(bot.clone()).or_insert((0, 0.0));
            e.0 += games;
            e.1 += wins;
        }
        for (&k, &(games, wins)) in &ep.by_snapshot {
            // Indexed into the pool as it was when the rollout was played.
            let e = progress.snapshot_record.entry(pool_ids[k]).or_insert((0, 0.0));
            e.0 += games;
            e.1 += wins;
        }
        let mut mb_rng = AgentRng::seed_from_u64(derive_seed(cfg.seed, 2_000_000 + update));
        // Overlap the next rollout with this update, except into a checkpoint boundary, where
        // games restart and a resumed run must find the same rollout an uninterrupted one plays.
        let overlaps_next =
            cfg.actor_learner_overlap && update + 1 < num_updates && (update + 1) % cfg.checkpoint_every != 0;
        let t_update = Instant::now();
        let (m, stats) = if overlaps_next {
            prepare(&mut collector, &progress, &snapshots);
            let current = Policy::new(&model, &infer_device);
            let (trained, next) = std::thread::scope(|scope| {
                let worker = scope.spawn(|| collect(&mut collector, cfg, current, &snapshots, update + 1));
                let trained = ppo::update(cfg, model, &mut optim, &batch, lr, &device, &mut mb_rng);
                (trained, worker.join())
            });
            pending = Some(next.map_err(|_| anyhow::anyhow!("the rollout thread panicked"))??);
            trained
        } else {
            ppo::update(cfg, model, &mut optim, &batch, lr, &device, &mut mb_rng)
        };
        let update_seconds = t_update.elapsed().as_secs_f64();
        model = m;
        update += 1;
        progress.global_decisions += batch.n as u64;
        let dt = t0.elapsed().as_secs_f64();

        if update % cfg.snapshot_every == 0 {
            let dir = snapshot_dir(run_dir, update);
            save_checkpoint(&dir, &model, &metadata(cfg, &net, update, &progress)?, None)?;
            // Read back what was saved, as a resumed run will.
            let (p, _) = Policy::from_checkpoint(&dir, &expected_spec(), &infer_device)?;
            snapshots.push((update, p));
            while snapshots.len() > cfg.max_snapshots {
                // Its folder stays until the next checkpoint no longer needs it for a resume.
                let (old, _) = snapshots.remove(0);
                progress.snapshot_record.remove(&old);
            }
        }

        let mut scalars = BTreeMap::new();
        if ep.episodes > 0 {
            scalars.insert("charts/episodic_return".to_string(), ep.return_sum / ep.episodes as f64);
            scalars.insert("charts/episodic_length".to_string(), ep.length_sum as f64 / ep.episodes as f64);
        }
        scalars.insert("charts/SPS".to_string(), batch.n as f64 / dt);
        scalars.insert("charts/env_steps_per_sec".to_string(), cfg.rollout_steps() as f64 / t_rollout);
        scalars.insert("charts/learning_rate".to_string(), lr);
        // Where the update's time went: opponent bots, policy inference (with observation
        // encoding), the rest of the rollout (env stepping, bookkeeping), the PPO update. With
        // `actor_learner_overlap` the rollout ran beside the previous update, so these add up
        // to more than the update's wall time.
        scalars.insert("time/bots_seconds".to_string(), ep.bot_seconds);
        scalars.insert("time/inference_seconds".to_string(), ep.policy_seconds);
        scalars.insert("time/env_seconds".to_string(), (t_rollout - ep.bot_seconds - ep.policy_seconds).max(0.0));
        scalars.insert("time/update_seconds".to_string(), update_seconds);
        scalars.insert("losses/policy_loss".to_string(), stats.policy_loss as f64);
        scalars.insert("losses/value_loss".to_string(), stats.value_loss as f64);
        scalars.insert("losses/entropy".to_string(), stats.entropy as f64);
        scalars.insert("losses/approx_kl".to_string(), stats.approx_kl as f64);
        scalars.insert("losses/clipfrac".to_string(), stats.clipfrac as f64);
        scalars.insert("losses/explained_variance".to_string(), stats.explained_variance as f64);
        for (label, (games, wins)) in &ep.by_opponent {
            scalars.insert(format!("charts/train_win_rate_vs_{label}"), wins / *games as f64);
        }
        if cfg.bot_sampling == SnapshotSampling::Prioritised {
            for (label, share) in collector.mix_shares() {
                scalars.insert(format!("pool/share_{label}"), share);
            }
        }
        let due = cfg.eval_every > 0 && update % cfg.eval_every == 0;
        if due {
            let current = Policy::new(&model, &infer_device);
            let rates =
                win_rates(cfg, &current, &opts.bots, cfg.eval_games, derive_seed(cfg.seed, 3_000_000 + update))?;
            for (bot, r) in rates {
                let (lo, hi) = r.interval();
                scalars.insert(format!("eval/win_rate_vs_{bot}"), r.win_rate());
                scalars.insert(format!("eval/win_rate_vs_{bot}_ci_low"), lo);
                scalars.insert(format!("eval/win_rate_vs_{bot}_ci_high"), hi);
                last_eval.insert(bot, r.win_rate());
            }
        }
        metrics.log(update, progress.global_decisions, &scalars)?;
        let evals: Vec<String> = last_eval.iter().map(|(b, w)| format!("{b} {:.0}%", w * 100.0)).collect();
        display.update(
            update,
            format!(
                "{} decisions, {:.0} SPS{}{}",
                progress.global_decisions,
                batch.n as f64 / dt,
                if evals.is_empty() { "" } else { ", win rate vs " },
                evals.join(", ")
            ),
        );

        let interrupted = opts.stop.as_ref().and_then(StopRequest::asked);
        out_of_time = update < num_updates && opts.time_budget.is_some_and(|b| started.elapsed() >= b);
        if update % cfg.checkpoint_every == 0 || update == num_updates || interrupted.is_some() || out_of_time {
            progress.elapsed_secs = elapsed_before + started.elapsed().as_secs_f64();
            save_checkpoint(&ckpt_dir, &model, &metadata(cfg, &net, update, &progress)?, Some(&optim))?;
            prune_pool(cfg, run_dir, update);
        }
        if let Some(sig) = interrupted {
            display.println(&format!(
                "{} received: checkpoint of update {update} written to {}",
                signal_name(sig),
                ckpt_dir.display()
            ));
        }
        if interrupted.is_some() || opts.stop_after.is_some_and(|s| update >= s) {
            // `stop_after` is like a crash: whatever came after the last checkpoint is redone.
            display.finish();
            return Ok(TrainSummary {
                run_dir: run_dir.clone(),
                updates: update,
                decisions: progress.global_decisions,
                seconds: started.elapsed().as_secs_f64(),
                checkpoint: ckpt_dir,
                final_win_rates: BTreeMap::new(),
                interrupted_by: interrupted,
                out_of_time: false,
            });
        }
        if out_of_time {
            break;
        }
    }
    display.finish();
    let mut final_win_rates = BTreeMap::new();
    if cfg.final_eval_games > 0 {
        let current = Policy::new(&model, &infer_device);
        final_win_rates = win_rates(cfg, &current, &opts.bots, cfg.final_eval_games, derive_seed(cfg.seed, 4_000_000))?
            .into_iter()
            .map(|(bot, r)| (bot, r.win_rate()))
            .collect();
        std::fs::write(run_dir.join("eval_summary.json"), serde_json::to_string_pretty(&final_win_rates)?)?;
    }
    Ok(TrainSummary {
        run_dir: run_dir.clone(),
        updates: update,
        decisions: progress.global_decisions,
        seconds: started.elapsed().as_secs_f64(),
        checkpoint: ckpt_dir,
        final_win_rates,
        interrupted_by: None,
        out_of_time,
    })
}
