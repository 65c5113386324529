//! `sabacc gate`: the ship gate (docs/gate.md). Each agent plays the fixed panel of a panel file
//! (`ladder/panel.toml` by default) at every table size it lists; each agent after the first
//! is then compared with the one before it, on the same deals. A network replaces the present
//! one only if it is worse nowhere beyond the intervals and better somewhere.
//!
//! - `--agents PRESENT,CANDIDATE` is the gate; a longer list gates a lineage link by link (or,
//!   with `--compare last`, the last agent against each one before it), and a single agent just
//!   plays the panel.
//! - The exit status is 0 when every gate passes, 3 when one does not (the reports are written
//!   either way), 1 on an error.
//! - `--out DIR` writes `gate.md` and `gate.json` (every deal's win shares, so a gate can be
//!   recomputed); the same seeds give the same figures whatever `--threads`.

use agents::Agents;
use anyhow::{Context, Result, anyhow, bail};
use env::Game;
use eval::gate::{self, GatePlan, GateReport, Panel};
use std::path::PathBuf;
use train::progress_display::{bar as progress_bar, style as progress_style};

/// The panel file used when `--panel` is not given.
pub const DEFAULT_PANEL: &str = "ladder/panel.toml";

/// The exit status of a gate that does not pass.
pub const REFUSED: i32 = 3;

/// Arguments of `sabacc gate`.
#[derive(clap::Args)]
pub struct Args {
    /// Comma-separated agent specs, the present one first; each later agent is gated against the
    /// one before it (checkpoints/champion@argmax,runs/x/checkpoint@argmax).
    #[arg(long, value_delimiter = ',', required = true)]
    agents: Vec<String>,
    /// The panel: a TOML file naming the game, the seed, the opponents and the tables.
    #[arg(long)]
    panel: Option<PathBuf>,
    /// Games per cell at every table instead of the panel's, 1 to 10^7 (a quick look or a
    /// smoke test: a verdict on fewer games resolves less).
    #[arg(long, value_parser = crate::args::int_in::<u64>(1, crate::args::MAX_EVAL_GAMES), allow_negative_numbers = true)]
    games: Option<u64>,
    /// Write gate.md and gate.json into this directory.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Which agents are gated against which: `chain` (each against the one before it, a
    /// lineage) or `last` (the last agent against each one before it: a candidate that must
    /// hold against the present champion and an earlier one).
    #[arg(long, default_value = "chain", value_parser = GatePlan::parse)]
    compare: GatePlan,
    /// Worker threads, 1 to 1024 (default: all cores).
    #[arg(long, value_parser = crate::args::int_in::<usize>(1, crate::args::MAX_THREADS), allow_negative_numbers = true)]
    threads: Option<usize>,
}

/// Runs `sabacc gate`.
pub fn run(a: Args) -> Result<()> {
    let path = match &a.panel {
        Some(p) => agents::shipped::input(p, "--panel")?,
        None => agents::shipped::require(
            std::path::Path::new(DEFAULT_PANEL),
            "the ship gate's panel",
            "name one with --panel FILE",
        )?,
    };
    let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut panel = Panel::parse(&text).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    if let Some(g) = a.games {
        panel = panel.with_games(g);
    }
    let game = games::GameId::parse(&panel.game).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    let agents: Vec<String> = a.agents.iter().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
    if agents.is_empty() {
        bail!("--agents: list at least one agent (the present one, then the candidates)");
    }
    let report = crate::verbs(game).gate(&a, &panel, &agents)?;
    print!("{}", report.markdown());
    if let Some(dir) = &a.out {
        eval::report::write_atomic(&dir.join("gate.md"), report.markdown().as_bytes())
            .and_then(|()| {
                eval::report::write_atomic(&dir.join("gate.json"), serde_json::to_string_pretty(&report)?.as_bytes())
            })
            .map_err(|e| anyhow!("writing the gate's reports to {}: {e}", dir.display()))?;
        println!("\nwrote {0}/gate.md and {0}/gate.json", dir.display());
    }
    if !report.passes() {
        std::process::exit(REFUSED);
    }
    Ok(())
}

/// Plays every agent against the panel of game `G` once and gates them as `--compare` asks.
pub(crate) fn run_game<G: Game>(a: &Args, panel: &Panel, agents: &[String]) -> Result<GateReport> {
    let rules = G::Rules::default();
    let resolve = |s: &String| agents::shipped::agent::<G>(s);
    let agents: Vec<String> = agents.iter().map(resolve).collect::<Result<_, _>>()?;
    let mut panel = panel.clone();
    panel.opponents = panel
        .opponents
        .iter()
        .map(|o| Ok(o.with_spec(agents::shipped::agent::<G>(o.spec())?)))
        .collect::<Result<_, agents::shipped::Missing>>()?;
    if let Some(dir) = &a.out {
        eval::report::check_writable(dir)
            .map_err(|e| anyhow!("--out {}: cannot write there ({e}); nothing was played", dir.display()))?;
    }
    // Every spec is built once before play, so a typo fails before any game.
    let factory = Agents::new();
    let opponents = panel.opponents.iter().map(|o| o.spec());
    for (spec, what) in agents.iter().map(|s| (s.as_str(), "--agents")).chain(opponents.map(|s| (s, "the panel"))) {
        for p in panel.tables.iter().map(|t| t.players) {
            let mut table = rules;
            G::set_players(&mut table, p);
            let seated = factory.seat::<G>(spec, &table).map_err(|e| anyhow!("{what}: {e}"))?;
            for w in seated.warnings {
                eprintln!("{w}");
            }
        }
    }
    let total = panel.games_per_agent() * agents.len() as u64;
    let bar = progress_bar(total);
    bar.set_style(progress_style("{bar:40} {pos}/{len} games {per_sec} eta {eta}"));
    let play_all = || -> Result<Vec<gate::AgentPanel>> {
        agents.iter().map(|s| Ok(gate::play::<G>(s, &panel, &rules, &factory, &|| bar.inc(1))?)).collect()
    };
    let played = match a.threads {
        Some(t) => rayon::ThreadPoolBuilder::new().num_threads(t).build()?.install(play_all)?,
        None => play_all()?,
    };
    bar.finish_and_clear();
    Ok(GateReport::with_plan(panel, played, a.compare)?)
}
