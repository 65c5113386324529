//! `sabacc ladder`: one persistent rating scale per game (`ladder/GAME.json`, docs/ladder.md).
//!
//! - `ladder build` plays every pair of the listed agents heads-up and at a larger table (one
//!   agent against copies of the other), fits their ratings with the anchors fixed, plays the
//!   held-out pairs to check the predictions, and writes the ladder file.
//! - `ladder rate SPEC` plays SPEC against the ladder's rating opponents and fits its rating
//!   alone, every rating on the ladder fixed; the file is not changed.
//! - `ladder show` prints a ladder as Markdown tables.

use anyhow::{Context, Result, anyhow, bail};
use eval::ladder::{self, Anchor, BuildPlan, Ladder, Matchup, RatePlan};
use indicatif::ProgressBar;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use train::progress_display::{bar as progress_bar, style as progress_style};

/// The steps of `sabacc ladder`.
#[derive(clap::Subcommand)]
pub enum Step {
    /// Play the calibration games among AGENTS and write a new ladder file.
    Build(BuildArgs),
    /// Rate one agent against a ladder, every stored rating fixed (the file is not changed).
    Rate(RateArgs),
    /// Print a ladder as Markdown tables.
    Show(ShowArgs),
}

/// Arguments of `sabacc ladder build`.
#[derive(clap::Args)]
pub struct BuildArgs {
    /// Comma-separated agent specs to rate (anchors included).
    #[arg(long, value_delimiter = ',', required = true)]
    agents: Vec<String>,
    /// A fixed reference, SPEC=RATING (repeat for more than one), e.g. `expert=1500`.
    #[arg(long = "anchor", required = true)]
    anchors: Vec<String>,
    /// Heads-up games per pair (rounded up to whole deals).
    #[arg(long, default_value_t = 2000, value_parser = crate::args::int_in::<u64>(1, crate::args::MAX_EVAL_GAMES), allow_negative_numbers = true)]
    games: u64,
    /// Games per ordered pair at the larger table (rounded up to whole deals of 24 seatings).
    #[arg(long, default_value_t = 480, value_parser = crate::args::int_in::<u64>(1, crate::args::MAX_EVAL_GAMES), allow_negative_numbers = true)]
    table_games: u64,
    /// Seats of the larger table (one agent against copies of the other); 2 plays heads-up only.
    #[arg(long, default_value_t = 4, value_parser = crate::args::int_in::<u8>(2, 8), allow_negative_numbers = true)]
    table_players: u8,
    /// A pair A/B left out of the fit and played only to check the ladder's predictions (repeat).
    #[arg(long = "hold-out")]
    hold_out: Vec<String>,
    /// The ladder agents `ladder rate` plays against (default: every agent).
    #[arg(long, value_delimiter = ',')]
    rate_against: Vec<String>,
    /// Games `ladder rate` plays per opponent and table size.
    #[arg(long, default_value_t = 960, value_parser = crate::args::int_in::<u64>(1, crate::args::MAX_EVAL_GAMES), allow_negative_numbers = true)]
    rate_games: u64,
    /// Base seed (every matchup derives its own from it).
    #[arg(long, default_value_t = 0, value_parser = crate::args::int_in::<u64>(0, u64::MAX), allow_negative_numbers = true)]
    seed: u64,
    /// Where to write the ladder.
    #[arg(long)]
    out: PathBuf,
    /// Rules file (JSON) every game is played under, stored in the ladder for `ladder rate`
    /// (default: the game's rules).
    #[arg(long)]
    rules: Option<PathBuf>,
    /// The game the agents play.
    #[arg(long, default_value_t, value_parser = crate::args::game())]
    game: games::GameId,
    /// Worker threads, 1 to 1024 (default: all cores).
    #[arg(long, value_parser = crate::args::int_in::<usize>(1, crate::args::MAX_THREADS), allow_negative_numbers = true)]
    threads: Option<usize>,
}

/// Arguments of `sabacc ladder rate`.
#[derive(clap::Args)]
pub struct RateArgs {
    /// The agent to rate (any spec `sabacc agents` lists).
    spec: String,
    /// The ladder file (default: the game's shipped ladder, ladder/GAME.json).
    #[arg(long)]
    ladder: Option<PathBuf>,
    /// The game whose shipped ladder to use when --ladder is not given (a ladder file names its
    /// own game).
    #[arg(long, default_value_t, value_parser = crate::args::game())]
    game: games::GameId,
    /// Games per opponent and table size (default: the ladder's rate plan).
    #[arg(long, value_parser = crate::args::int_in::<u64>(1, crate::args::MAX_EVAL_GAMES), allow_negative_numbers = true)]
    games: Option<u64>,
    /// Base seed.
    #[arg(long, default_value_t = 0, value_parser = crate::args::int_in::<u64>(0, u64::MAX), allow_negative_numbers = true)]
    seed: u64,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
    /// Worker threads, 1 to 1024 (default: all cores).
    #[arg(long, value_parser = crate::args::int_in::<usize>(1, crate::args::MAX_THREADS), allow_negative_numbers = true)]
    threads: Option<usize>,
}

/// Arguments of `sabacc ladder show`.
#[derive(clap::Args)]
pub struct ShowArgs {
    /// The ladder file (default: the game's shipped ladder, ladder/GAME.json).
    #[arg(long)]
    ladder: Option<PathBuf>,
    /// The game whose shipped ladder to show when --ladder is not given.
    #[arg(long, default_value_t, value_parser = crate::args::game())]
    game: games::GameId,
}

/// Runs `sabacc ladder`.
pub fn run(step: Step) -> Result<()> {
    let game = match &step {
        Step::Build(a) => a.game,
        Step::Rate(a) => read(a.ladder.as_deref(), a.game)?.1,
        Step::Show(a) => read(a.ladder.as_deref(), a.game)?.1,
    };
    crate::verbs(game).ladder(step)
}

/// `sabacc ladder` for game `G`.
pub(crate) fn run_game<G: env::Game>(step: Step) -> Result<()> {
    match step {
        Step::Build(a) => build::<G>(a),
        Step::Rate(a) => rate::<G>(a),
        Step::Show(a) => {
            let (ladder, _) = read(a.ladder.as_deref(), a.game)?;
            if let Err(e) = agents::pins::check::<G>(&ladder) {
                eprintln!("warning: {e}\n");
            }
            print!("{}", markdown(&ladder));
            Ok(())
        }
    }
}

/// The ladder at `path` (default: `game`'s shipped one) and the game it rates.
fn read(path: Option<&Path>, game: games::GameId) -> Result<(Ladder, games::GameId)> {
    let path = match path {
        Some(p) => agents::shipped::input(p, "--ladder")?,
        None => agents::shipped::require(
            Path::new(&eval::ladder::shipped(game.name())),
            "the shipped ladder",
            "name one with --ladder FILE",
        )?,
    };
    let ladder = Ladder::read(&path)?;
    let game = games::GameId::parse(&ladder.game).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    Ok((ladder, game))
}

fn build<G: env::Game>(a: BuildArgs) -> Result<()> {
    let factory = agents::Agents::new();
    let agents: Vec<String> = a.agents.iter().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
    for s in &agents {
        factory.validate::<G>(&agents::shipped::agent::<G>(s)?).map_err(|e| anyhow!("--agents: {e}"))?;
    }
    let anchors = a.anchors.iter().map(|s| Anchor::parse(s).map_err(|e| anyhow!(e))).collect::<Result<Vec<_>>>()?;
    let held_out = a
        .hold_out
        .iter()
        .map(|p| {
            p.split_once('/')
                .map(|(x, y)| (x.trim().to_string(), y.trim().to_string()))
                .ok_or_else(|| anyhow!("--hold-out `{p}`: write a pair as A/B, e.g. level:2/level:4"))
        })
        .collect::<Result<Vec<_>>>()?;
    let opponents = if a.rate_against.is_empty() { agents.clone() } else { a.rate_against.clone() };
    let rules = crate::args::read_rules::<G>(a.rules.as_deref())?;
    let plan = BuildPlan {
        game: G::SPEC.game.to_string(),
        agents,
        anchors,
        heads_up_games: a.games,
        table_games: a.table_games,
        table_players: a.table_players,
        held_out,
        seed: a.seed,
        rate: RatePlan { opponents, players: vec![2, a.table_players], games: a.rate_games },
        rules: if a.rules.is_some() { serde_json::to_value(rules)? } else { serde_json::Value::Null },
        command: format!("sabacc {}", std::env::args().skip(1).collect::<Vec<_>>().join(" ")),
    };
    let (fit, check) = plan.matchups()?;
    // The weights the ratings belong to: those the agents loaded when they were validated above.
    let networks = agents::pins::pins::<G>(&plan.agents)?;
    if let Some(dir) = a.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        eval::report::check_writable(dir)
            .map_err(|e| anyhow!("--out {}: cannot write there ({e}); nothing was played", a.out.display()))?;
    }
    let (fit_res, check_res) = with_threads(a.threads, || {
        let bar = bar(ladder::games_planned(&fit) + ladder::games_planned(&check), false);
        let fit_res = play_all::<G>(&fit, &rules, &factory, &bar)?;
        let check_res = play_all::<G>(&check, &rules, &factory, &bar)?;
        bar.finish_and_clear();
        Ok((fit_res, check_res))
    })?;
    let mut built = ladder::build(&plan, &fit, &fit_res, &check, &check_res)?;
    built.networks = networks;
    eval::report::write_atomic(&a.out, built.to_json().as_bytes())
        .with_context(|| format!("writing {}", a.out.display()))?;
    print!("{}", markdown(&built));
    println!("\nwrote {}", a.out.display());
    Ok(())
}

fn rate<G: env::Game>(a: RateArgs) -> Result<()> {
    let (ladder, _) = read(a.ladder.as_deref(), a.game)?;
    agents::pins::check::<G>(&ladder)?;
    let factory = agents::Agents::new();
    let spec = a.spec.trim().to_string();
    factory.validate::<G>(&agents::shipped::agent::<G>(&spec)?).map_err(|e| anyhow!("{e}"))?;
    if ladder.rating(&spec).is_some() {
        eprintln!("note: `{spec}` is on the ladder already; it is rated afresh here, its stored rating left as it is");
    }
    let rules = ladder_rules::<G>(&ladder)?;
    let matchups = ladder::rate_matchups(&ladder, &spec, a.games, a.seed);
    let started = std::time::Instant::now();
    let results = with_threads(a.threads, || {
        let bar = bar(ladder::games_planned(&matchups), a.json);
        let r = play_all::<G>(&matchups, &rules, &factory, &bar);
        bar.finish_and_clear();
        r
    })?;
    let rated = ladder::rate(&ladder, &spec, &matchups, &results, a.seed)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&rated)?);
        return Ok(());
    }
    let r = &rated.rated;
    println!(
        "{spec}: rating {:.0} [{:.0}, {:.0}] (95 %, given the ladder's ratings) from {} seat-games in {:.0} s",
        r.rating,
        r.low,
        r.high,
        rated.games,
        started.elapsed().as_secs_f64()
    );
    println!("\n| table | games | win rate predicted | observed [95 % Wilson] |");
    println!("| --- | ---: | ---: | --- |");
    for c in &rated.matchups {
        println!(
            "| {} | {} | {:.1} % | {:.1} % [{:.1}, {:.1}] |",
            label(c),
            c.games,
            100.0 * c.predicted,
            100.0 * c.observed,
            100.0 * c.low,
            100.0 * c.high
        );
    }
    let below = ladder.agents.iter().filter(|e| e.rated.rating < r.rating).count();
    println!("\nOn the ladder it would sit above {below} of its {} agents.", ladder.agents.len());
    for s in &rated.by_size {
        let below = ladder
            .agents
            .iter()
            .filter(|e| e.at_size(s.players).is_some_and(|x| x.rated.rating < s.rated.rating))
            .count();
        println!(
            "At {}: rating {:.0} [{:.0}, {:.0}] from {} seat-games, above {below} of the ladder's agents at that size.",
            seats(s.players),
            s.rated.rating,
            s.rated.low,
            s.rated.high,
            s.games
        );
    }
    Ok(())
}

/// The rules a ladder's games were played under (the game's defaults when it names none).
fn ladder_rules<G: env::Game>(ladder: &Ladder) -> Result<G::Rules> {
    if ladder.rules.is_null() {
        return Ok(G::Rules::default());
    }
    serde_json::from_value(ladder.rules.clone()).map_err(|e| anyhow!("the ladder's rules: {e}"))
}

fn with_threads<T: Send>(threads: Option<usize>, f: impl FnOnce() -> Result<T> + Send) -> Result<T> {
    match threads {
        Some(t) => rayon::ThreadPoolBuilder::new().num_threads(t.max(1)).build()?.install(f),
        None => f(),
    }
}

fn bar(total: u64, hidden: bool) -> ProgressBar {
    let bar = if hidden { ProgressBar::hidden() } else { progress_bar(total) };
    bar.set_style(progress_style("{bar:40} {pos}/{len} games {per_sec} eta {eta} {msg}"));
    bar
}

/// Plays each matchup with its specs' folders found from any folder (`agents::shipped::spec`), and
/// names the agents in the results by the specs as written, which the ladder stores.
fn play_all<G: env::Game>(
    matchups: &[Matchup],
    rules: &G::Rules,
    factory: &agents::Agents,
    bar: &ProgressBar,
) -> Result<Vec<eval::arena::ArenaResult>> {
    let mut out = Vec::with_capacity(matchups.len());
    for m in matchups {
        bar.set_message(m.label());
        let mut back: HashMap<String, String> = HashMap::new();
        let mut found = m.clone();
        for s in &mut found.lineup {
            let resolved = agents::shipped::spec::<G>(s);
            back.insert(resolved.clone(), s.clone());
            *s = resolved;
        }
        let mut res = ladder::play::<G>(std::slice::from_ref(&found), rules, factory, &|| bar.inc(1))?.remove(0);
        for n in res.names.iter_mut().chain(res.lineup.iter_mut()) {
            if let Some(orig) = back.get(n) {
                *n = orig.clone();
            }
        }
        out.push(res);
    }
    if out.len() != matchups.len() {
        bail!("played {} of {} matchups", out.len(), matchups.len());
    }
    Ok(out)
}

fn label(c: &ladder::Check) -> String {
    if c.players == 2 {
        format!("{} vs {}", c.agent, c.opponent)
    } else {
        format!("{} vs {}× {}", c.agent, c.players - 1, c.opponent)
    }
}

/// "heads-up" or "4 seats".
fn seats(players: u8) -> String {
    if players == 2 { "heads-up".to_string() } else { format!("{players} seats") }
}

/// The ladder as Markdown: ratings, then the held-out predictions.
fn markdown(l: &Ladder) -> String {
    use std::fmt::Write as _;
    let mut m = String::new();
    let anchors: Vec<String> = l.anchors.iter().map(|a| format!("`{}` = {}", a.spec, a.rating)).collect();
    let _ = writeln!(m, "Anchors: {}. {} calibration matchups.\n", anchors.join(", "), l.matchups.len());
    let _ = writeln!(m, "Built by `{}`.\n", l.command);
    if !l.rules.is_null() {
        let _ = writeln!(m, "Rules played: `{}`.\n", l.rules);
    }
    for n in &l.networks {
        let _ = writeln!(m, "Rated with the weights of `{}` (model.bpk SHA-256 {}).\n", n.folder, n.model_sha256);
    }
    // Ratings by table size, where the ladder has them: one column per size beside the pooled one.
    let sizes: Vec<u8> = l.agents.first().map(|e| e.by_size.iter().map(|s| s.players).collect()).unwrap_or_default();
    let size_heads: String = sizes.iter().map(|&p| format!(" {} [95 %] |", seats(p))).collect();
    let size_rule: String = sizes.iter().map(|_| " --- |").collect();
    let _ = writeln!(m, "| agent | rating | 95 % interval |{size_heads} seat-games |");
    let _ = writeln!(m, "| --- | ---: | --- |{size_rule} ---: |");
    for e in &l.agents {
        let anchor = l.anchors.iter().any(|a| a.spec == e.spec);
        let interval =
            |r: &ladder::Rated| if anchor { "anchor".to_string() } else { format!("[{:.0}, {:.0}]", r.low, r.high) };
        let by_size: String = e
            .by_size
            .iter()
            .map(|s| {
                if anchor {
                    format!(" {:.0} |", s.rated.rating)
                } else {
                    format!(" {:.0} {} |", s.rated.rating, interval(&s.rated))
                }
            })
            .collect();
        let _ = writeln!(m, "| `{}` | {:.0} | {} |{by_size} {} |", e.spec, e.rated.rating, interval(&e.rated), e.games);
    }
    if !l.held_out.is_empty() {
        let within = l.held_out.iter().filter(|c| c.within()).count();
        let by_size = l.held_out.iter().all(|c| c.predicted_at_size.is_some());
        let within_at_size = l.held_out.iter().filter(|c| c.within_at_size() == Some(true)).count();
        let _ = write!(
            m,
            "\nHeld out of the fit ({within} of {} predictions inside the observed 95 % interval",
            l.held_out.len()
        );
        if by_size {
            let _ = write!(m, "; from the ratings at the table's size, {within_at_size} of {}", l.held_out.len());
        }
        let _ = writeln!(m, "):\n");
        let (head, rule) = if by_size { (" predicted at its size |", " ---: |") } else { ("", "") };
        let _ = writeln!(m, "| table | games | seed | win rate predicted |{head} observed [95 % Wilson] |");
        let _ = writeln!(m, "| --- | ---: | ---: | ---: |{rule} --- |");
        for c in &l.held_out {
            let at_size = c.predicted_at_size.map(|p| format!(" {:.1} % |", 100.0 * p)).unwrap_or_default();
            let _ = writeln!(
                m,
                "| {} | {} | {} | {:.1} % |{at_size} {:.1} % [{:.1}, {:.1}] |",
                label(c),
                c.games,
                c.seed,
                100.0 * c.predicted,
                100.0 * c.observed,
                100.0 * c.low,
                100.0 * c.high
            );
        }
    }
    m
}
