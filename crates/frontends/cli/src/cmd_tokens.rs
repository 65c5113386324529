//! `sabacc tokens`: Shift Token research by paired games (duplicate deals, the same seeds on both
//! arms, the focal seat rotating over the table), on all cores, with Markdown, JSON and PNG
//! output in `--out`.
//!
//! - `value`: each token's worth to a focal agent: win and chip differences between holding it
//!   and not being able to play it (`--baseline removed`) or holding another kind instead
//!   (`replaced`), with paired and unpaired 95% intervals.
//! - `loadouts`: best-arm identification over loadouts (successive elimination with a stated
//!   error probability δ).
//! - `draft`: what each agent picks under `token_assignment = choose`, beside its value ranking.
//! - `timing`: when to play: positions from real games, branched into holding and playing each
//!   token now, each branch finished many times under common random numbers.
//! - `report`: every study at fixed budgets, into one research document (`token-research.md`);
//!   an existing one is replaced only with `--force`.
//!
//! The same `--seed` gives the same figures whatever `--threads`.

use crate::args::{MAX_EVAL_GAMES, MAX_THREADS, int_in};
use anyhow::{Result, anyhow, bail};
use games::kessel::{Kessel, RuleConfig, Token};
use research::value::{Baseline, Performance};
use std::path::PathBuf;
use train::progress_display::{bar as progress_bar, style as progress_style};

/// The token studies.
#[derive(clap::Subcommand)]
pub enum Study {
    /// What each token is worth to a focal agent (paired games: with it versus without).
    Value(ValueArgs),
    /// Which loadouts win most for a focal agent (successive elimination over loadouts).
    Loadouts(LoadoutsArgs),
    /// What agents pick when they choose their tokens, beside what the value study says.
    Draft(DraftArgs),
    /// When to play: hold versus play each token now, from positions of real games.
    Timing(TimingArgs),
    /// Every study at fixed budgets, written as one research document.
    Report(ReportArgs),
}

/// Arguments of `sabacc tokens timing`.
#[derive(clap::Args)]
pub struct TimingArgs {
    #[command(flatten)]
    table: Table,
    /// Source games, 1 to 10^7: one decision with a playable token is taken from each.
    #[arg(long, default_value_t = 400, value_parser = int_in::<u64>(1, MAX_EVAL_GAMES), allow_negative_numbers = true)]
    games: u64,
    /// Rollouts per branch of each position, 1 to 10^5.
    #[arg(long, default_value_t = 32, value_parser = int_in::<u32>(1, 100_000), allow_negative_numbers = true)]
    continuations: u32,
}

/// The research document `tokens report` writes into `--out`.
const REPORT_FILE: &str = "token-research.md";

/// Arguments of `sabacc tokens report`.
#[derive(clap::Args)]
pub struct ReportArgs {
    /// Folder of `token-research.md`; the studies' files go into `token-research/` inside it.
    #[arg(long, default_value = "docs")]
    out: PathBuf,
    /// Replace an existing `token-research.md` (and its studies' files) in --out.
    #[arg(long)]
    force: bool,
    /// The trained policy studied beside `expert`, against `expert` and in self-play (an agent
    /// spec; the shipped one is found from any folder).
    #[arg(long, default_value = "checkpoints/champion@argmax")]
    policy: String,
    /// Small budgets (seconds on one thread, wide intervals): a first look, or a test.
    #[arg(long, conflicts_with = "medium")]
    quick: bool,
    /// Budgets about a quarter of the full ones (minutes on two idle cores): for a shared or
    /// slow machine; the document states them.
    #[arg(long)]
    medium: bool,
    /// Base seed of every study.
    #[arg(long, default_value_t = 1, value_parser = int_in::<u64>(0, u64::MAX), allow_negative_numbers = true)]
    seed: u64,
    /// Worker threads, 1 to 1024 (default: all cores).
    #[arg(long, value_parser = int_in::<usize>(1, MAX_THREADS), allow_negative_numbers = true)]
    threads: Option<usize>,
    /// Reuse the studies a stopped run of this report finished (kept in `token-research/.stages`
    /// until the document is written), when the commit is clean and the same, and the policy,
    /// budgets and seed are too.
    #[arg(long)]
    resume: bool,
}

/// The table and output every study shares.
#[derive(clap::Args)]
pub struct Table {
    /// Seats at the table (2–8).
    #[arg(long, default_value_t = 4, value_parser = int_in::<u8>(2, 8), allow_negative_numbers = true)]
    players: u8,
    /// Comma-separated agent specs (random, greedy, expert, search, search:N, checkpoint folders)
    /// filling the other seats clockwise from the focal seat, cycled.
    #[arg(long, value_delimiter = ',', required = true)]
    agents: Vec<String>,
    /// Base seed (0 to 2^64 − 1): every deal and agent seed derives from it.
    #[arg(long, default_value_t = 0, value_parser = int_in::<u64>(0, u64::MAX), allow_negative_numbers = true)]
    seed: u64,
    /// Rule config as a JSON file (fields not given take their defaults; the study sets the
    /// token assignment).
    #[arg(long)]
    rules: Option<PathBuf>,
    /// Folder for STUDY.md, STUDY.json and STUDY.png.
    #[arg(long, required = true)]
    out: PathBuf,
    /// Worker threads, 1 to 1024 (default: all cores).
    #[arg(long, value_parser = int_in::<usize>(1, MAX_THREADS), allow_negative_numbers = true)]
    threads: Option<usize>,
}

/// Arguments of `sabacc tokens value`.
#[derive(clap::Args)]
pub struct ValueArgs {
    #[command(flatten)]
    table: Table,
    /// Comma-separated focal agent specs, one value table each (default: each agent of --agents).
    #[arg(long, value_delimiter = ',')]
    focal: Vec<String>,
    /// `all` (every enabled kind) or comma-separated token names.
    #[arg(long, default_value = "all")]
    tokens: String,
    /// Arm B: `removed` (held but never playable) or `replaced` (swapped for another kind).
    #[arg(long, default_value = "removed")]
    baseline: String,
    /// Deals (pairs of games) per token and focal agent, 2 to 10^7.
    #[arg(long, default_value_t = 2000, value_parser = int_in::<u64>(2, MAX_EVAL_GAMES), allow_negative_numbers = true)]
    deals: u64,
}

/// Arguments of `sabacc tokens loadouts`.
#[derive(clap::Args)]
pub struct LoadoutsArgs {
    #[command(flatten)]
    table: Table,
    /// The focal agent's spec (default: the first of --agents).
    #[arg(long)]
    focal: Option<String>,
    /// `all` (every set of tokens_per_player enabled kinds: 560 by default) or loadouts separated
    /// by commas, kinds joined by `+` (`embargo+immunity+refund,markdown+refund+free-draw`).
    #[arg(long, default_value = "all")]
    loadouts: String,
    /// Games to spend in all, 1 to 10^7 (at least one deal per seat for each loadout). The race
    /// stops earlier when one loadout is left.
    #[arg(long, default_value_t = 100_000, value_parser = int_in::<u64>(1, MAX_EVAL_GAMES), allow_negative_numbers = true)]
    budget: u64,
    /// Error probability of the race, between 0 and 1: the best loadout is eliminated with
    /// probability at most this.
    #[arg(long, default_value_t = 0.05, allow_negative_numbers = true)]
    delta: f64,
}

/// Arguments of `sabacc tokens draft`.
#[derive(clap::Args)]
pub struct DraftArgs {
    #[command(flatten)]
    table: Table,
    /// Games to play, 1 to 10^7 (the lineup rotates one seat per game).
    #[arg(long, default_value_t = 1000, value_parser = int_in::<u64>(1, MAX_EVAL_GAMES), allow_negative_numbers = true)]
    deals: u64,
    /// A value study's value.json to compare the picks with (default: run a small one first).
    #[arg(long)]
    value: Option<PathBuf>,
    /// Deals per token of the value study run when --value is not given, 2 to 10^7.
    #[arg(long, default_value_t = 500, value_parser = int_in::<u64>(2, MAX_EVAL_GAMES), allow_negative_numbers = true)]
    value_deals: u64,
}

/// Runs `sabacc tokens STUDY`.
pub fn run(s: Study) -> Result<()> {
    match s {
        Study::Value(a) => value(a),
        Study::Loadouts(a) => loadouts(a),
        Study::Draft(a) => draft(a),
        Study::Timing(a) => timing(a),
        Study::Report(a) => report(a),
    }
}

fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    Ok(match threads {
        Some(t) => rayon::ThreadPoolBuilder::new().num_threads(t).build()?,
        None => rayon::ThreadPoolBuilder::new().build()?,
    })
}

fn timing(a: TimingArgs) -> Result<()> {
    let t = &a.table;
    let rules = prepare(t)?;
    let study = research::timing::TimingStudy {
        players: t.players,
        agents: specs(&t.agents)?,
        rules,
        games: a.games,
        continuations: a.continuations,
        seed: t.seed,
    };
    let factory = agents::Agents::new();
    check_agents(&factory, "--agents", &study.agents, t, &rules)?;
    let bar = progress_bar(a.games);
    bar.set_style(progress_style("timing {bar:40} {pos}/{len} games {per_sec} eta {eta}"));
    let total = |rollouts: u64| bar.set_length(a.games + rollouts);
    let report = pool(t.threads)?
        .install(|| research::timing_report::run(&study, &factory, &|n| bar.inc(n), &total))
        .map_err(|e| anyhow!("{e}"))?;
    bar.finish_and_clear();
    print!("{}", research::timing_report::markdown(&report));
    wrote(&research::report::write_timing(&report, &t.out)?);
    Ok(())
}

fn report(mut a: ReportArgs) -> Result<()> {
    let document = a.out.join(REPORT_FILE);
    if document.exists() && !a.force {
        bail!(
            "--out {}: {} already exists (the committed report, if this is the repository's docs/);              nothing was played. Pass --force to replace it, or --out DIR to write a new report elsewhere",
            a.out.display(),
            document.display()
        );
    }
    a.policy = agents::shipped::agent::<Kessel>(&a.policy)?;
    let factory = agents::Agents::new();
    factory.validate::<Kessel>(&a.policy).map_err(|e| anyhow!("--policy: {e}"))?;
    std::fs::create_dir_all(&a.out).map_err(|e| anyhow!("--out {}: {e}", a.out.display()))?;
    eval::report::check_writable(&a.out)
        .map_err(|e| anyhow!("--out {}: cannot write there ({e}); nothing was played", a.out.display()))?;
    let provenance = research::report::Provenance { commit: commit(), checkpoints: checkpoint_hashes(&[&a.policy])? };
    let cfg = research::report::ReportConfig {
        policy: a.policy.clone(),
        scale: if a.quick {
            research::report::Scale::Quick
        } else if a.medium {
            research::report::Scale::Medium
        } else {
            research::report::Scale::Full
        },
        seed: a.seed,
        out: a.out.clone(),
        provenance,
        resume: a.resume,
    };
    let bar = progress_bar(0);
    bar.set_style(progress_style("{msg:28} {bar:40} {pos}/{len} games {per_sec} eta {eta}"));
    let progress = |p: research::report::Progress<'_>| match p {
        research::report::Progress::Stage { name, games } => {
            // A new stage restarts the clock too: its ETA is its own rate, not the report's.
            bar.reset();
            bar.set_message(name.to_string());
            bar.set_length(games);
        }
        research::report::Progress::Games(n) => {
            if bar.length() == Some(0) || bar.position() + n > bar.length().unwrap_or(0) {
                bar.set_length(bar.position() + n);
            }
            bar.inc(n)
        }
    };
    let r = pool(a.threads)?.install(|| research::report::run(&cfg, &factory, &progress))?;
    bar.finish_and_clear();
    println!("{:.1} minutes", r.seconds / 60.0);
    let (reused, studies) = &r.resumed;
    if !reused.is_empty() {
        println!("resumed: {} of {studies} studies taken from the stopped run", reused.len());
    } else if a.resume {
        eprintln!(
            "--resume: no study of a stopped run was reused (they are reused only for the same clean commit, policy, \
             budgets and seed), so every study was played"
        );
    }
    wrote(&r.files);
    for f in &r.removed {
        println!("removed {f} (an earlier report's, not written by this one)");
    }
    Ok(())
}

/// The commit of the repository this program belongs to (or of the current folder), with
/// `-dirty` when tracked files have changed; `unknown` when git or the repository is missing.
fn commit() -> String {
    let dir = agents::shipped::roots().into_iter().next().map(|r| r.dir).unwrap_or_else(|| PathBuf::from("."));
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .arg("-C")
            .arg(&dir)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    match git(&["rev-parse", "HEAD"]) {
        Some(head) if !head.is_empty() => {
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
            if dirty { format!("{head}-dirty") } else { head }
        }
        _ => "unknown".into(),
    }
}

/// `(spec, SHA-256 of model.bpk)` for every spec that plays a checkpoint.
fn checkpoint_hashes(specs: &[&str]) -> Result<Vec<(String, String)>> {
    let mut out = Vec::new();
    for &s in specs {
        let path = match agents::AgentSpec::parse::<Kessel>(s) {
            Ok(agents::AgentSpec::Checkpoint { path, .. } | agents::AgentSpec::GuidedSearch { path, .. }) => path,
            _ => continue,
        };
        let weights = path.join(policy::MODEL_FILE);
        let sha = policy::sha256_file(&weights)
            .map_err(|e| anyhow!("{s}: cannot hash {} for the report's record: {e}", weights.display()))?;
        out.push((s.to_string(), sha));
    }
    Ok(out)
}

/// The non-empty specs of a list, their folders found from any folder (`agents::shipped`).
fn specs(list: &[String]) -> Result<Vec<String>> {
    Ok(list
        .iter()
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .map(agents::shipped::agent::<Kessel>)
        .collect::<Result<_, _>>()?)
}

/// Validates the agent specs (naming the argument) and prints fit warnings for the table.
fn check_agents(factory: &agents::Agents, arg: &str, list: &[String], t: &Table, rules: &RuleConfig) -> Result<()> {
    for s in list {
        factory.validate::<Kessel>(s).map_err(|e| anyhow!("{arg}: {e}"))?;
    }
    let table = RuleConfig { players: t.players, ..*rules };
    for w in research::study::fit_warnings(list, &table) {
        eprintln!("{w}");
    }
    Ok(())
}

/// Plays a study with a progress bar on `threads` (all cores by default) and measures it.
fn measured<T>(
    what: &str,
    games: u64,
    threads: Option<usize>,
    f: impl FnOnce(&(dyn Fn() + Sync)) -> std::result::Result<T, research::ResearchError> + Send,
) -> Result<(T, Performance)>
where
    T: Send,
{
    let bar = progress_bar(games);
    bar.set_style(progress_style(&format!("{what} {{bar:40}} {{pos}}/{{len}} games {{per_sec}} eta {{eta}}")));
    let started = std::time::Instant::now();
    let progress = || bar.inc(1);
    let pool = match threads {
        Some(t) => rayon::ThreadPoolBuilder::new().num_threads(t).build()?,
        None => rayon::ThreadPoolBuilder::new().build()?,
    };
    let threads = pool.current_num_threads();
    let out = pool.install(|| f(&progress));
    bar.finish_and_clear();
    let out = out?;
    let seconds = started.elapsed().as_secs_f64();
    let played = bar.position();
    Ok((out, Performance { seconds, games_per_second: played as f64 / seconds.max(1e-9), threads }))
}

fn prepare(t: &Table) -> Result<RuleConfig> {
    let rules = crate::args::read_rules::<Kessel>(t.rules.as_deref())?;
    eval::report::check_writable(&t.out)
        .map_err(|e| anyhow!("--out {}: cannot write there ({e}); nothing was played", t.out.display()))?;
    Ok(rules)
}

fn wrote(files: &[String]) {
    for f in files {
        if f.starts_with("warning") {
            eprintln!("{f}");
        } else {
            println!("wrote {f}");
        }
    }
}

fn value(a: ValueArgs) -> Result<()> {
    let t = &a.table;
    let rules = prepare(t)?;
    let agents = specs(&t.agents)?;
    let mut focal = specs(&a.focal)?;
    if focal.is_empty() {
        focal = eval::arena::agent_names(&agents);
    }
    let cfg = research::value::ValueConfig {
        players: t.players,
        tokens: research::value::parse_tokens(&a.tokens, &rules)?,
        baseline: Baseline::parse(&a.baseline)?,
        agents,
        focal,
        deals: a.deals,
        seed: t.seed,
        rules,
    };
    research::value::check(&cfg)?;
    let factory = agents::Agents::new();
    check_agents(&factory, "--agents", &cfg.agents, t, &rules)?;
    check_agents(&factory, "--focal", &cfg.focal, t, &rules)?;
    let games = research::value::games(&cfg);
    let (mut report, perf) = measured("value", games, t.threads, |p| research::value::run(&cfg, &factory, p))?;
    report.performance = Some(perf);
    for table in &report.tables {
        println!("{} at {} seats ({} deals per token):", table.focal, cfg.players, cfg.deals);
        println!("{:<20} {:>10} {:>20} {:>20}", "token", "win diff", "paired 95%", "unpaired 95%");
        for r in &table.rows {
            println!(
                "{:<20} {:>+9.2}pp {:>+8.2} .. {:>+7.2} {:>+8.2} .. {:>+7.2}",
                r.token.name(),
                100.0 * r.win.diff,
                100.0 * r.win.low,
                100.0 * r.win.high,
                100.0 * r.win.unpaired_low,
                100.0 * r.win.unpaired_high
            );
        }
    }
    let p = report.performance.as_ref().expect("set above");
    println!("{} games in {:.1}s ({:.0} games/s)", report.games, p.seconds, p.games_per_second);
    wrote(&research::output::write_value(&report, &t.out)?);
    Ok(())
}

fn loadouts(a: LoadoutsArgs) -> Result<()> {
    let t = &a.table;
    let rules = prepare(t)?;
    let agents = specs(&t.agents)?;
    let focal = match a.focal.as_deref().map(str::trim) {
        Some(f) if !f.is_empty() => agents::shipped::agent::<Kessel>(f)?,
        _ => agents.first().cloned().ok_or_else(|| anyhow!("--agents: list at least one agent"))?,
    };
    let table_rules = RuleConfig { players: t.players, ..rules };
    let cfg = research::loadouts::LoadoutsConfig {
        players: t.players,
        loadouts: research::loadouts::parse_loadouts(&a.loadouts, &table_rules)?,
        agents,
        focal,
        budget: a.budget,
        delta: a.delta,
        seed: t.seed,
        rules,
    };
    research::loadouts::check(&cfg)?;
    let factory = agents::Agents::new();
    check_agents(&factory, "--agents", &cfg.agents, t, &rules)?;
    check_agents(&factory, "--focal", std::slice::from_ref(&cfg.focal), t, &rules)?;
    let (mut report, perf) =
        measured("loadouts", cfg.budget, t.threads, |p| research::loadouts::run(&cfg, &factory, p))?;
    report.performance = Some(perf);
    println!(
        "{} loadouts, {} games in {} rounds; {}: {} survivor(s), holding the best with probability at least {:.2}; \
         the leaders:",
        cfg.loadouts.len(),
        report.games,
        report.rounds.len(),
        report.stopped,
        report.survivors,
        1.0 - cfg.delta
    );
    for l in report.ranking.iter().take(10) {
        println!(
            "{:>4}. {:<48} {:>7} games  win {:>6.2}% ({:.2}–{:.2}%)",
            l.rank,
            l.loadout,
            l.games,
            100.0 * l.win_rate,
            100.0 * l.win_low,
            100.0 * l.win_high
        );
    }
    let p = report.performance.as_ref().expect("set above");
    println!("{:.1}s ({:.0} games/s)", p.seconds, p.games_per_second);
    wrote(&research::output::write_loadouts(&report, &t.out)?);
    Ok(())
}

fn draft(a: DraftArgs) -> Result<()> {
    let t = &a.table;
    let rules = prepare(t)?;
    let agents = specs(&t.agents)?;
    let cfg = research::draft::DraftConfig { players: t.players, agents, deals: a.deals, seed: t.seed, rules };
    research::draft::check(&cfg)?;
    let factory = agents::Agents::new();
    check_agents(&factory, "--agents", &cfg.agents, t, &rules)?;
    let (value, source) = match &a.value {
        Some(p) => {
            let v = research::draft::read_value(&agents::shipped::input(p, "--value")?)?;
            let mut source = p.display().to_string();
            if v.settings.players != t.players {
                source = format!("{source} (measured at {} seats)", v.settings.players);
                eprintln!(
                    "warning: --value {}: measured at {} seats, the draft plays at {}; the ranking may not carry over",
                    p.display(),
                    v.settings.players,
                    t.players
                );
            }
            (v, source)
        }
        None => {
            let vcfg = research::value::ValueConfig {
                players: t.players,
                agents: cfg.agents.clone(),
                focal: eval::arena::agent_names(&cfg.agents),
                tokens: rules.enabled_tokens.iter().collect(),
                baseline: Baseline::Removed,
                deals: a.value_deals,
                seed: t.seed,
                rules,
            };
            let games = research::value::games(&vcfg);
            let (v, _) = measured("value", games, t.threads, |p| research::value::run(&vcfg, &factory, p))?;
            (v, format!("a value study run here ({} deals per token, baseline removed)", a.value_deals))
        }
    };
    let (mut report, perf) =
        measured("draft", cfg.deals, t.threads, |p| research::draft::run(&cfg, Some(&value), &source, &factory, p))?;
    report.performance = Some(perf);
    for ag in &report.agents {
        let names = |v: &[Token]| v.iter().map(|t| t.name()).collect::<Vec<_>>().join(", ");
        println!(
            "{}: picks {}; value says {}; spearman {}",
            ag.agent,
            names(&ag.picks),
            if ag.should_pick.is_empty() {
                "nothing (no value table for this agent)".into()
            } else {
                names(&ag.should_pick)
            },
            ag.spearman.map_or("n/a".to_string(), |x| format!("{x:+.2}"))
        );
    }
    wrote(&research::output::write_draft(&report, &t.out)?);
    Ok(())
}
