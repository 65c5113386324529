//! `sabacc bench`: throughput figures. Benchmarks report numbers; tests check correctness.
//! `bench train` lives in `train::bench`; this file only prints its report.

use anyhow::Result;
use std::path::PathBuf;

/// The config `bench train` measures when none is named.
const DEFAULT_TRAIN_CONFIG: &str = "experiments/quick.toml";

/// Arguments of `sabacc bench`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(clap::Subcommand)]
enum What {
    /// Single-thread random-play throughput of the rules engine (2 and 4 players; Kessel with
    /// tokens on).
    Engine {
        /// Seconds to measure each player count.
        #[arg(long, default_value_t = 3.0, value_parser = crate::args::seconds, allow_negative_numbers = true)]
        seconds: f64,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// The game whose engine to measure.
        #[arg(long, default_value_t, value_parser = crate::args::game())]
        game: games::GameId,
    },
    /// Env steps per second with observation encoding and masks: one thread, and the
    /// vectorised env on all cores (4 players, random legal actions), with their ratio.
    Env {
        /// Seconds in total; the modes are interleaved in ten rounds so that a change in the
        /// machine's load affects them alike.
        #[arg(long, default_value_t = 3.0, value_parser = crate::args::seconds, allow_negative_numbers = true)]
        seconds: f64,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// The game whose environment to measure.
        #[arg(long, default_value_t, value_parser = crate::args::game())]
        game: games::GameId,
    },
    /// Training throughput on an experiment config, in memory (no run folder): rollout and PPO
    /// update end to end, rollouts alone, updates alone, and one 4096-row minibatch step.
    Train {
        /// Seconds for the four measurements together (a warm-up rollout and update come first).
        #[arg(long, default_value_t = 20.0, value_parser = crate::args::seconds, allow_negative_numbers = true)]
        seconds: f64,
        /// Experiment config (TOML) whose games, opponents, network and PPO settings are used,
        /// found from any folder like the shipped ones [default: experiments/quick.toml].
        #[arg(long)]
        config: Option<PathBuf>,
        /// Print one JSON object instead of text (and no progress bar).
        #[arg(long)]
        json: bool,
    },
}

fn bench_train(seconds: f64, config: &std::path::Path, json: bool) -> Result<()> {
    // The error's own message already names the cause; printing its source chain would repeat it.
    let text = std::fs::read_to_string(config).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", config.display()))?;
    let game = train::config::game_of_toml(&text).map_err(|e| anyhow::anyhow!("{}: {e}", config.display()))?;
    let r = crate::verbs(game).bench_train(config, &train::bench::BenchOptions { seconds, progress: !json })?;
    if json {
        println!("{}", serde_json::to_string_pretty(&r)?);
        return Ok(());
    }
    let load = r.load_average_1m.map_or(String::new(), |l| format!(", load average {l:.2}"));
    println!(
        "training, config `{}` ({} players, {} games x {} steps per rollout), backend {}, {} threads{load}",
        r.config,
        r.table_sizes.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(" or "),
        r.num_envs,
        r.num_steps,
        r.backend,
        r.threads
    );
    println!(
        "network: {} inputs -> {:?} per tower, {} -> 48 logits + 1 value",
        r.obs_dim,
        r.hidden,
        if r.separate_towers { "separate actor and critic towers" } else { "one shared tower" }
    );
    println!(
        "  end to end (rollout + update): {:>9.0} learner decisions/s  ({:.0} decisions of all seats/s; \
         {} updates in {:.1} s, {:.0}% of it in rollouts)",
        r.decisions_per_sec_end_to_end,
        r.env_decisions_per_sec_end_to_end,
        r.end_to_end_updates,
        r.end_to_end_seconds,
        r.rollout_share_end_to_end * 100.0
    );
    println!(
        "  rollout only:                  {:>9.0} decisions/s of all seats  ({:.0} learner decisions/s; {} rollouts)",
        r.rollout_decisions_per_sec, r.rollout_learner_decisions_per_sec, r.rollouts
    );
    println!(
        "  update only:                   {:>9.0} samples/s  ({} updates of a {}-row batch, {} epochs x {} \
         minibatches: {:.0} rows through forward + backward per s)",
        r.update_samples_per_sec,
        r.updates,
        r.update_batch_rows,
        r.update_epochs,
        r.num_minibatches,
        r.update_sample_passes_per_sec
    );
    println!(
        "  one 4096-row minibatch step:   {:>9.1} ms median, {:.1} ms best ({} steps; forward + backward + clip + Adam)",
        r.minibatch_4096_step_ms, r.minibatch_4096_step_ms_min, r.minibatch_steps
    );
    println!(
        "  (anchor: PyTorch 2.15 on 2 threads takes 16.6 ms for one shared 192 -> 256 -> 256 network; \
         this network is {} wide with {})",
        r.obs_dim,
        if r.separate_towers { "two towers" } else { "one tower" }
    );
    Ok(())
}

/// `bench engine`: the game's engine under random play, heads-up and at four seats, default
/// rules, one thread.
fn bench_engine(game: games::GameId, seconds: f64, json: bool) -> Result<()> {
    let figures = crate::verbs(game).bench_engine(seconds)?;
    if json {
        println!("{}", serde_json::to_string_pretty(&serde_json::json!({ "game": game.name(), "engine": figures }))?);
        return Ok(());
    }
    let unit = game.game_type().progress_unit();
    println!("{} engine, one thread, random legal play, default rules:", game.game_type().name());
    for f in &figures {
        println!(
            "  {} players: {:>12.0} decisions/s  {:>10.0} games/s  ({} games, {} {unit}, {} decisions in {:.2} s; \
             thread got {:.0}% of a core: {:.0} decisions per CPU-second)",
            f.players,
            f.decisions_per_sec,
            f.games_per_sec,
            f.games,
            f.progress,
            f.decisions,
            f.seconds,
            f.cpu_share * 100.0,
            f.decisions_per_cpu_sec
        );
    }
    Ok(())
}

/// Runs `sabacc bench`.
pub fn run(a: Args) -> Result<()> {
    match a.what {
        What::Train { seconds, config, json } => {
            let config = match config {
                Some(c) => agents::shipped::input(&c, "--config")?,
                None => agents::shipped::require(
                    std::path::Path::new(DEFAULT_TRAIN_CONFIG),
                    "the default config of `bench train`",
                    "name one with --config FILE",
                )?,
            };
            bench_train(seconds, &config, json)?
        }
        What::Env { seconds, json, game } => {
            let r = crate::verbs(game).bench_env(seconds);
            if json {
                println!("{}", serde_json::to_string_pretty(&r)?);
            } else {
                let load = r.load_average_1m.map_or(String::new(), |l| format!(" (load average {l:.2})"));
                println!(
                    "env {}, 4 players, observation encoding ({} floats) and masks, random legal actions{load}:",
                    r.game, r.obs_len
                );
                println!(
                    "  one thread:            {:>9.0} steps/s                    (the thread got {:.0}% of a core: \
                     {:.2} M steps per CPU-second)",
                    r.steps_per_sec_single,
                    r.cpu_share_single * 100.0,
                    r.steps_per_cpu_sec_single / 1e6
                );
                println!(
                    "  through the driver:    {:>9.0} steps/s  ratio {:.2}x one thread  (the one game loop, one game, \
                     the same random play)",
                    r.steps_per_sec_driver, r.driver_of_single
                );
                println!(
                    "  vectorised, {} threads: {:>9.0} steps/s  ratio {:.2}x one thread, median round {:.2}x  ({} games, \
                     {} steps per step_many call; the threads got {:.0}% of {} cores: {:.2} M steps per CPU-second)",
                    r.threads,
                    r.steps_per_sec_vec,
                    r.vec_speedup,
                    r.vec_speedup_median_round,
                    r.vec_envs,
                    r.vec_steps_per_call,
                    r.cpu_share_vec * 100.0,
                    r.threads,
                    r.steps_per_cpu_sec_vec / 1e6
                );
                println!(
                    "  vectorised, step():    {:>9.0} steps/s  ratio {:.2}x one thread  (one parallel step per call)",
                    r.steps_per_sec_vec_step, r.vec_step_speedup
                );
                println!(
                    "  independent threads:   {:>9.0} steps/s  ratio {:.2}x one thread  (one env per thread, nothing \
                     shared: this machine's ceiling; step_many reached {:.0}% of it)",
                    r.steps_per_sec_independent,
                    r.independent_speedup,
                    r.vec_of_independent * 100.0
                );
            }
        }
        What::Engine { seconds, json, game } => bench_engine(game, seconds, json)?,
    }
    Ok(())
}
