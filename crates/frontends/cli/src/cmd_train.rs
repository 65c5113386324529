//! `sabacc train`: self-play PPO from an experiment config, then an arena evaluation of the
//! final policy against the heuristic bots, written into the run folder.

use anyhow::{Context, Result, anyhow, bail};
use env::Game;
use eval::arena::{self, ArenaConfig, SeatingPlan};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use train::config::{TrainConfig, game_of_toml};
use train::interrupt::{StopRequest, signal_name};
use train::trainer::{CHECKPOINT_DIR, CONFIG_FILE, TrainOptions};

/// Config used when neither `--config` nor `--resume` is given.
const DEFAULT_CONFIG: &str = "experiments/quick.toml";

/// Arguments of `sabacc train`.
///
/// Ctrl-C or SIGTERM: the first writes a checkpoint at the end of the update in progress and
/// exits with code 130 (SIGINT) or 143 (SIGTERM); `--resume` continues from it. A second signal
/// ends the process at once with the same code.
#[derive(clap::Args)]
pub struct Args {
    /// Experiment config (TOML; fields and ranges in docs/config.md), found from any folder like
    /// the shipped ones [default: experiments/quick.toml]. Paths inside it (`init_from`,
    /// checkpoint opponents) are found the same way: the current folder first, then
    /// `SABACC_HOME` or the repository.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Run folder (default: `runs/NAME`, NAME from the config).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Continue the run in this folder from its last checkpoint. The run's own config.toml is
    /// used, so `--config` cannot be given with it (edit that file to change the run).
    #[arg(long, conflicts_with_all = ["out", "config"])]
    resume: Option<PathBuf>,
    /// With --resume: continue with a fresh Adam state if the checkpoint has none saved.
    #[arg(long)]
    fresh_optimizer: bool,
    /// Games per bot in the end-of-run arena report (0 skips it).
    #[arg(long, default_value_t = 2000, value_parser = crate::args::int_in::<u64>(0, crate::args::MAX_EVAL_GAMES), allow_negative_numbers = true)]
    eval_games: u64,
    /// Hide the progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Runs `sabacc train`: reads the config's `game`, then trains that game.
pub fn run(a: Args) -> Result<()> {
    if a.fresh_optimizer && a.resume.is_none() {
        bail!("--fresh-optimizer only applies with --resume DIR (a new run always starts with a fresh optimizer)");
    }
    let path = match &a.resume {
        Some(dir) => {
            if !dir.join(CHECKPOINT_DIR).exists() {
                bail!("{} holds no checkpoint to resume from", dir.display());
            }
            dir.join(CONFIG_FILE)
        }
        None => match &a.config {
            Some(c) => agents::shipped::input(c, "--config")?,
            None => agents::shipped::require(
                std::path::Path::new(DEFAULT_CONFIG),
                "the default training config",
                "name one with --config FILE",
            )?,
        },
    };
    let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
    let game = game_of_toml(&text).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    crate::verbs(game).train(&a, &path)
}

/// Trains game `G` from the config at `path`, then evaluates the result in the arena.
pub(crate) fn run_game<G: Game>(a: &Args, path: &Path) -> Result<()> {
    let factory = Arc::new(agents::Agents::new());
    let cfg = TrainConfig::<G>::load(path)?;
    let (run_dir, resume) = match &a.resume {
        Some(dir) => (dir.clone(), true),
        None => (a.out.clone().unwrap_or_else(|| PathBuf::from("runs").join(&cfg.name)), false),
    };
    let bots: train::BotFactory<G> = factory.clone();
    let stop = StopRequest::install().context("cannot install the Ctrl-C handler")?;
    let summary = train::train(
        &cfg,
        TrainOptions {
            run_dir: run_dir.clone(),
            resume,
            bots,
            progress: !a.quiet,
            stop_after: None,
            fresh_optimizer: a.fresh_optimizer,
            stop: Some(stop),
            time_budget: None,
        },
    )?;
    if let Some(sig) = summary.interrupted_by {
        println!(
            "stopped by {} after update {} ({} learner decisions); checkpoint: {}\ncontinue with: sabacc train --resume {}",
            signal_name(sig),
            summary.updates,
            summary.decisions,
            summary.checkpoint.display(),
            run_dir.display()
        );
        std::process::exit(128 + sig);
    }
    println!(
        "trained {} updates, {} learner decisions in {:.0} s; checkpoint: {}",
        summary.updates,
        summary.decisions,
        summary.seconds,
        summary.checkpoint.display()
    );
    for (bot, w) in &summary.final_win_rates {
        println!("  win rate vs {bot} (quick check, {} games): {:.1}%", cfg.final_eval_games, w * 100.0);
    }
    if a.eval_games > 0 {
        let ckpt = summary.checkpoint.to_string_lossy().into_owned();
        let mut agents = vec![ckpt];
        for b in &cfg.eval_bots {
            agents.push(b.clone());
        }
        agents.truncate(cfg.players as usize);
        while agents.len() < cfg.players as usize {
            agents.push(cfg.eval_bots.last().cloned().unwrap_or_else(|| "random".into()));
        }
        let arena_cfg = ArenaConfig::<G> {
            agents,
            players: cfg.players,
            games: a.eval_games,
            seed: cfg.seed,
            rules: cfg.rules,
            seating: SeatingPlan::Every,
        };
        let res = arena::run(&arena_cfg, &*factory, &|| {}).map_err(|e| anyhow!("end-of-run evaluation: {e}"))?;
        let out = run_dir.join("eval");
        let report = eval::report::build(&arena_cfg, &res);
        eval::output::write_all(&report, &out)
            .with_context(|| format!("cannot write the report into {}", out.display()))?;
        println!("arena report: {}", out.join("report.md").display());
        for ag in &report.stats.agents {
            println!(
                "  {:<40} win rate {:.1}% [{:.1}, {:.1}]",
                ag.name,
                ag.win_rate * 100.0,
                ag.ci_low * 100.0,
                ag.ci_high * 100.0
            );
        }
    }
    Ok(())
}
