//! `sabacc distil collect | fit | widen`: expert iteration in two steps. `collect` lets a search
//! agent play and keeps its per-action scores in a sample file (resumable: run it again to
//! continue); `fit` trains a checkpoint to choose as the search chose and writes a new checkpoint.
//! `widen` copies a checkpoint into a wider network that plays the same, for a larger student.

use anyhow::{Context, Result};
use std::path::PathBuf;
use std::sync::Arc;
use train::distil::{CollectOptions, FitOptions, collect, fit, widen};
use train::interrupt::StopRequest;

/// The two steps of `sabacc distil`.
#[derive(clap::Subcommand)]
pub enum Step {
    /// Let a search agent play every seat and keep the scores it gave each action it searched.
    Collect(CollectArgs),
    /// Train a checkpoint on collected samples to choose as the search chose.
    Fit(FitArgs),
    /// Copy a checkpoint into a wider network that plays exactly as it did (a larger student).
    Widen(WidenArgs),
}

/// Arguments of `sabacc distil collect`.
#[derive(clap::Args)]
pub struct CollectArgs {
    /// The teacher: `search`, `search:N` or `search:N+CHECKPOINT` (guided search).
    #[arg(long)]
    teacher: String,
    /// The game to play (its search is the teacher).
    #[arg(long, default_value_t, value_parser = crate::args::game())]
    game: games::GameId,
    /// Seats at the table (2–8).
    #[arg(long, default_value_t = 4, value_parser = crate::args::int_in::<u8>(2, 8))]
    players: u8,
    /// Comma-separated agents for the other seats, one per seat (default: the teacher plays
    /// every seat); then only the teacher's positions are kept, and those of any opponent with
    /// the teacher's spec.
    #[arg(long, value_delimiter = ',')]
    opponents: Vec<String>,
    /// Games to collect in all (rounded up to whole chunks); a file holding some already is
    /// continued.
    #[arg(long, value_parser = crate::args::int_in::<u64>(1, crate::args::MAX_EVAL_GAMES))]
    games: u64,
    /// Games per chunk, the unit written to the file and resumed from (rounded up to whole deals).
    #[arg(long, default_value_t = 48, value_parser = crate::args::int_in::<u64>(1, 100_000))]
    chunk_games: u64,
    /// Base seed of the games.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Rule config as a JSON file (fields not given take their defaults).
    #[arg(long)]
    rules: Option<PathBuf>,
    /// The sample file to create or continue.
    #[arg(long)]
    out: PathBuf,
    /// Worker threads, 1 to 1024 (default: all cores).
    #[arg(long, value_parser = crate::args::int_in::<usize>(1, crate::args::MAX_THREADS))]
    threads: Option<usize>,
    /// Hide the progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Arguments of `sabacc distil fit`.
#[derive(clap::Args)]
pub struct FitArgs {
    /// The student's starting checkpoint (usually the teacher's guide).
    #[arg(long)]
    init: PathBuf,
    /// Sample files from `sabacc distil collect`.
    #[arg(long, num_args = 1.., required = true)]
    data: Vec<PathBuf>,
    /// The new checkpoint folder (must not exist).
    #[arg(long)]
    out: PathBuf,
    /// Passes over the training samples.
    #[arg(long, default_value_t = 3, value_parser = crate::args::int_in::<usize>(1, 1000))]
    epochs: usize,
    /// Adam's learning rate.
    #[arg(long, default_value_t = 1e-4)]
    lr: f64,
    /// Lower the learning rate linearly to zero over the fit.
    #[arg(long)]
    anneal_lr: bool,
    /// Samples per gradient step.
    #[arg(long, default_value_t = 512, value_parser = crate::args::int_in::<usize>(1, 1_000_000))]
    batch: usize,
    /// Temperature of the targets over the teacher's scores (0: the teacher's pick only).
    #[arg(long, default_value_t = 0.02)]
    temperature: f32,
    /// Weight of the term keeping the critic's output where it was.
    #[arg(long, default_value_t = 1.0)]
    value_coef: f32,
    /// Share of the samples held out to measure the student.
    #[arg(long, default_value_t = 0.05)]
    holdout: f64,
    /// Seed of the split and the shuffles.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Hide the progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Arguments of `sabacc distil widen`.
#[derive(clap::Args)]
pub struct WidenArgs {
    /// The checkpoint to widen.
    #[arg(long)]
    init: PathBuf,
    /// Comma-separated hidden widths, one per hidden layer, none below the checkpoint's.
    #[arg(long, value_delimiter = ',', required = true)]
    hidden: Vec<usize>,
    /// The new checkpoint folder (must not exist).
    #[arg(long)]
    out: PathBuf,
    /// Seed of the new units' incoming weights.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

/// Runs `sabacc distil`.
pub fn run(step: Step) -> Result<()> {
    match step {
        Step::Collect(a) => run_collect(a),
        Step::Fit(a) => run_fit(a),
        Step::Widen(a) => run_widen(a),
    }
}

fn run_collect(a: CollectArgs) -> Result<()> {
    crate::verbs(a.game).distil_collect(&a)
}

/// `sabacc distil collect` for game `G`.
pub(crate) fn collect_game<G: env::Game>(a: &CollectArgs) -> Result<()> {
    let rules = crate::args::read_rules::<G>(a.rules.as_deref())?;
    let stop = StopRequest::install().context("cannot install the Ctrl-C handler")?;
    let asked = stop.clone();
    let opts = CollectOptions::<G> {
        teacher: agents::shipped::agent::<G>(&a.teacher)?,
        players: a.players,
        opponents: a.opponents.iter().map(|s| agents::shipped::agent::<G>(s)).collect::<Result<_, _>>()?,
        games: a.games,
        chunk_games: a.chunk_games,
        seed: a.seed,
        rules,
        out: a.out.clone(),
        progress: !a.quiet,
        stop: Some(stop),
    };
    let registry = Arc::new(agents::Agents::new());
    let go = || collect(&opts, registry.clone());
    let s = match a.threads {
        Some(t) => rayon::ThreadPoolBuilder::new().num_threads(t).build()?.install(go)?,
        None => go()?,
    };
    println!(
        "{}: {} samples from {} games ({} chunks, {} new, {:.0} s){}",
        a.out.display(),
        s.samples,
        s.games,
        s.chunks,
        s.new_chunks,
        s.seconds,
        if s.stopped { "; stopped early: run the same command again to continue" } else { "" }
    );
    // As `train` does: an interrupted collection exits 128 + the signal, so that a script does
    // not go on to fit an incomplete sample file.
    if s.stopped {
        std::process::exit(128 + asked.asked().unwrap_or(2));
    }
    Ok(())
}

fn run_fit(a: FitArgs) -> Result<()> {
    let a_holdout = a.holdout;
    let r = fit(&FitOptions {
        init: agents::shipped::input(&a.init, "--init")?,
        data: a.data.iter().map(|d| agents::shipped::input(d, "--data")).collect::<Result<_, _>>()?,
        out: a.out,
        epochs: a.epochs,
        lr: a.lr,
        anneal_lr: a.anneal_lr,
        batch: a.batch,
        temperature: a.temperature,
        value_coef: a.value_coef,
        holdout: a.holdout,
        seed: a.seed,
        progress: !a.quiet,
    })?;
    match (&r.before, r.after_epoch.last()) {
        (Some(before), Some(last)) => println!(
            "{} samples, {} epochs in {:.0} s; held-out agreement with the teacher {:.1}% → {:.1}%, cross-entropy {:.4} → {:.4}",
            r.train_samples,
            r.epochs,
            r.seconds,
            before.agreement * 100.0,
            last.agreement * 100.0,
            before.cross_entropy,
            last.cross_entropy
        ),
        _ => println!(
            "{} samples, {} epochs in {:.0} s; no samples held out (--holdout {}), so the student is not measured",
            r.train_samples, r.epochs, r.seconds, a_holdout
        ),
    }
    println!("checkpoint: {}", r.checkpoint.display());
    Ok(())
}

fn run_widen(a: WidenArgs) -> Result<()> {
    let w = widen(&agents::shipped::input(&a.init, "--init")?, &a.hidden, &a.out, a.seed)?;
    println!(
        "hidden {:?} -> {:?}: {} -> {} parameters, the same logits and values",
        w.from, w.to, w.parameters.0, w.parameters.1
    );
    println!("checkpoint: {}", w.checkpoint.display());
    Ok(())
}
