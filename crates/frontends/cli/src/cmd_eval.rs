//! `sabacc eval`: play agents against each other in the arena (seat rotation, duplicate deals,
//! all cores) and report win rates with 95% intervals, head-to-head, ratings and token usage.
//!
//! - `--agents` lists agent specs (`random`, `greedy`, `expert`, the style bots of `sabacc agents`, `search`, `search:N`, or a
//!   checkpoint folder such as `checkpoints/NAME` or `runs/quick/checkpoint`). `--players` defaults to the number listed; a larger
//!   table repeats the list cyclically, a smaller one is an error.
//! - `--games` is rounded up to whole deals (each deal is played under every seating).
//! - Reports (`report.md`, `report.json`, PNG plots) are written only when `--out DIR` is given.
//! - `--json` prints the JSON report (with an `agents` list) to stdout instead of the table.
//! - The same `--seed` gives the same figures whatever `--threads`.

use agents::Agents;
use anyhow::{Result, anyhow, bail};
use env::{AgentBuilder, Game};
use eval::arena::{self, ArenaConfig, SeatingPlan};
use indicatif::ProgressBar;
use std::path::PathBuf;
use train::progress_display::{bar as progress_bar, style as progress_style};

/// Arguments of `sabacc eval`.
#[derive(clap::Args)]
#[command(after_help = crate::cmd_agents::forms_help())]
pub struct Args {
    /// Comma-separated agent specs of the game (each form below): bots (expert, search:64),
    /// levels (level:3), checkpoints (checkpoints/champion@argmax, or the shipped name
    /// champion), bundles (exports/x@argmax, exports/level-3@level), guided search
    /// (search:64+champion), mistakes:20+expert, classic:expert; `sabacc agents --game G` lists
    /// the game's.
    #[arg(long, value_delimiter = ',', required = true)]
    agents: Vec<String>,
    /// The game to play.
    #[arg(long, default_value_t, value_parser = crate::args::game())]
    game: games::GameId,
    /// Seats at the table (2–8); default: the number of agents listed (a larger table cycles
    /// the list).
    #[arg(long, value_parser = crate::args::int_in::<u8>(2, 8), allow_negative_numbers = true)]
    players: Option<u8>,
    /// Games to play, 1 to 10^7 (rounded up to whole deals: every deal is played under every
    /// seating).
    #[arg(long, default_value_t = 1000, value_parser = crate::args::int_in::<u64>(1, crate::args::MAX_EVAL_GAMES), allow_negative_numbers = true)]
    games: u64,
    /// Base seed (0 to 2^64 − 1).
    #[arg(long, default_value_t = 0, value_parser = crate::args::int_in::<u64>(0, u64::MAX), allow_negative_numbers = true)]
    seed: u64,
    /// Rule config as a JSON file (fields not given take their defaults).
    #[arg(long)]
    rules: Option<PathBuf>,
    /// Write report.md, report.json and PNG plots into this directory.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Print the JSON report to stdout.
    #[arg(long)]
    json: bool,
    /// Worker threads, 1 to 1024 (default: all cores).
    #[arg(long, value_parser = crate::args::int_in::<usize>(1, crate::args::MAX_THREADS), allow_negative_numbers = true)]
    threads: Option<usize>,
}

/// Runs `sabacc eval`.
pub fn run(a: Args) -> Result<()> {
    let agents: Vec<String> = a.agents.iter().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
    if agents.is_empty() {
        bail!("--agents: list at least one agent");
    }
    let players = a.players.unwrap_or(agents.len().max(2) as u8);
    crate::verbs(a.game).eval(&a, agents, players)
}

/// Plays the tournament of game `G` that `a` asks for, with lineup `agents` at `players` seats.
pub(crate) fn run_game<G: Game>(a: &Args, agents: Vec<String>, players: u8) -> Result<()> {
    let rules = crate::args::read_rules::<G>(a.rules.as_deref())?;
    let agents: Vec<String> = agents.iter().map(|s| agents::shipped::agent::<G>(s)).collect::<Result<_, _>>()?;
    let cfg = ArenaConfig::<G> { agents, players, games: a.games, seed: a.seed, rules, seating: SeatingPlan::Every };
    arena::lineup(&cfg.agents, cfg.players)?;
    let mut table = cfg.rules;
    G::set_players(&mut table, cfg.players);
    // Every spec is built once before play, so a typo fails before any game; an agent trained
    // for another table still plays, with a warning.
    let factory = Agents::new();
    for spec in &cfg.agents {
        let seated = factory.seat::<G>(spec, &table).map_err(|e| anyhow!("--agents: {e}"))?;
        for w in seated.warnings {
            eprintln!("{w}");
        }
    }
    play(a, &cfg, &factory)
}

/// Plays the tournament of `cfg` and prints or writes its report.
fn play<G: Game>(a: &Args, cfg: &ArenaConfig<G>, factory: &dyn AgentBuilder<G>) -> Result<()> {
    arena::lineup(&cfg.agents, cfg.players)?;
    if let Some(dir) = &a.out {
        eval::report::check_writable(dir)
            .map_err(|e| anyhow!("--out {}: cannot write there ({e}); nothing was played", dir.display()))?;
    }
    let total = arena::games_of(cfg);
    let bar = if a.json { ProgressBar::hidden() } else { progress_bar(total) };
    bar.set_style(progress_style("{bar:40} {pos}/{len} games {per_sec} eta {eta}"));
    let started = std::time::Instant::now();
    let run = || arena::run(cfg, factory, &|| bar.inc(1));
    let res = match a.threads {
        Some(t) => rayon::ThreadPoolBuilder::new().num_threads(t.max(1)).build()?.install(run)?,
        None => run()?,
    };
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    let report = eval::report::build(cfg, &res);
    let written = match &a.out {
        Some(dir) => {
            eval::output::write_all(&report, dir).map_err(|e| anyhow!("writing reports to {}: {e}", dir.display()))?
        }
        None => Vec::new(),
    };
    for w in written.iter().filter(|w| w.starts_with("warning")) {
        eprintln!("{w}");
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        let s = &report.settings;
        println!(
            "{} games ({} deals x {} seatings) at {} seats, seed {}, {:.1}s",
            s.games, s.deals, s.seatings, s.players, s.seed, secs
        );
        // Long specs (checkpoint paths) are shortened so the columns hold; --json and
        // report.json keep the full names.
        let full: Vec<String> = report.stats.agents.iter().map(|ag| ag.name.clone()).collect();
        let names = eval::report::short_names(&full);
        let w = names.iter().map(|n| n.chars().count()).max().unwrap_or(0).max(14);
        println!(
            "{:<w$} {:>7} {:>9} {:>17} {:>8} {:>15} {:>8} {:>7}",
            "agent",
            "games",
            "win rate",
            "95% CI",
            "rating",
            "rating 95% CI",
            G::PROGRESS,
            G::HOLDINGS
        );
        for (ag, name) in report.stats.agents.iter().zip(&names) {
            println!(
                "{:<w$} {:>7} {:>8.2}% {:>7.2}% – {:>5.2}% {:>+8.0} {:>+6.0} – {:>+5.0} {:>8.2} {:>7.2}",
                name,
                ag.games,
                100.0 * ag.win_rate,
                100.0 * ag.ci_low,
                100.0 * ag.ci_high,
                ag.rating,
                ag.rating_low,
                ag.rating_high,
                ag.mean_rounds_survived,
                ag.mean_final_chips
            );
        }
        println!(
            "truncated games: {}; mean {} per game: {:.2}",
            report.stats.truncated_games,
            G::PROGRESS,
            report.stats.mean_rounds
        );
        for w in written.iter().filter(|w| !w.starts_with("warning")) {
            println!("wrote {w}");
        }
        if let Some(dir) = &a.out {
            println!("wrote {}/report.md and report.json", dir.display());
        }
        for (name, full) in names.iter().zip(&full).filter(|(n, f)| n != f) {
            println!("{name} is {full}");
        }
    }
    Ok(())
}
