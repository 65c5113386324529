//! `sabacc tokens report`: every study at fixed settings, written as one research document
//! (`token-research.md`) with each study's Markdown, JSON and chart in a folder beside it.
//!
//! The document's numbers and its summary sentences are computed here from the studies' results,
//! so regenerating it with the same seed gives the same document (the timings aside).

use crate::draft::{self, DraftConfig, DraftReport};
use crate::error::ResearchError;
use crate::loadouts::{self, LoadoutsConfig, LoadoutsReport};
use crate::output::{self, ChartRow};
use crate::timing::TimingStudy;
use crate::timing_report::{self, TimingReport};
use crate::value::{self, Baseline, Performance, ValueConfig, ValueReport};
use engine::RuleConfig;
use env::AgentBuilder;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// How much compute the report spends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// The committed document's budgets (minutes on 2 cores).
    Full,
    /// Small budgets for tests and a first look (seconds on one thread; intervals are wide).
    Quick,
}

/// The report's budgets at a scale.
#[derive(Clone, Copy, Debug)]
pub struct Budgets {
    /// Deals per token for `expert` in the value study.
    pub value_deals: u64,
    /// Deals per token for the checkpoint (slower: a network decides).
    pub value_deals_policy: u64,
    /// Deals per token for `search` (the slowest: it samples worlds at every decision).
    pub value_deals_search: u64,
    /// Games of the loadout race.
    pub loadout_games: u64,
    /// Source games (positions) of the timing study.
    pub timing_games: u64,
    /// Rollouts per branch in the timing study.
    pub continuations: u32,
    /// Deals of the draft study.
    pub draft_deals: u64,
}

impl Scale {
    /// The budgets of this scale.
    pub fn budgets(self) -> Budgets {
        match self {
            Scale::Full => Budgets {
                value_deals: 6_000,
                value_deals_policy: 1_000,
                value_deals_search: 150,
                loadout_games: 1_000_000,
                timing_games: 1_500,
                continuations: 48,
                draft_deals: 2_000,
            },
            Scale::Quick => Budgets {
                value_deals: 64,
                value_deals_policy: 16,
                value_deals_search: 2,
                loadout_games: 8_960,
                timing_games: 24,
                continuations: 4,
                draft_deals: 48,
            },
        }
    }
}

/// Where the report's figures come from, as recorded in it: the source commit and a hash of
/// each checkpoint's weights, so a reader can rebuild the same program and agents.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Provenance {
    /// The commit the program was built from (`unknown` outside a git checkout; `-dirty` when
    /// the working tree had changes).
    pub commit: String,
    /// `(agent spec, SHA-256 of its model.bpk)` for every checkpoint the report plays.
    pub checkpoints: Vec<(String, String)>,
}

/// What the report covers.
#[derive(Clone, Debug)]
pub struct ReportConfig {
    /// The trained policy studied beside `expert` (an agent spec).
    pub policy: String,
    /// Budgets.
    pub scale: Scale,
    /// Seed of every study.
    pub seed: u64,
    /// Folder of `token-research.md`; the studies go into `token-research/` inside it.
    pub out: PathBuf,
    /// Commit and checkpoint hashes, recorded in the document.
    pub provenance: Provenance,
}

/// Progress of a report: a study starts (with its game count when known up front), or games end.
pub enum Progress<'a> {
    /// A study starts.
    Stage {
        /// Its name.
        name: &'a str,
        /// Games it will play (0: not known up front).
        games: u64,
    },
    /// Games finished.
    Games(u64),
}

/// The report's studies, as run.
pub struct Report {
    /// Value at 2 and 4 seats.
    pub value: Vec<ValueReport>,
    /// `expert`'s value table (in self-play) at every size of [`SWEEP_PLAYERS`].
    pub by_players: Vec<(u8, crate::value::FocalTable)>,
    /// The loadout race at 4 seats.
    pub loadouts: LoadoutsReport,
    /// Timing at 2 and 4 seats.
    pub timing: Vec<TimingReport>,
    /// The draft at 4 seats.
    pub draft: DraftReport,
    /// Wall-clock seconds of the whole report.
    pub seconds: f64,
    /// Files written.
    pub files: Vec<String>,
}

const EXPERT: &str = "expert";

/// The table sizes of the value-against-players sweep (`expert` in self-play).
pub const SWEEP_PLAYERS: [u8; 5] = [2, 3, 4, 6, 8];

/// Per-deal win differences lie in [−1, 1].
const WIN_DIFF_RANGE: f64 = 2.0;

/// Determinised search at its default number of worlds.
const SEARCH: &str = "search";

/// Error probability of the loadout race: the best loadout is eliminated with at most this
/// probability.
pub const LOADOUT_DELTA: f64 = 0.05;

/// Runs every study and writes the document.
pub fn run(
    cfg: &ReportConfig,
    factory: &dyn AgentBuilder,
    progress: &(dyn Fn(Progress<'_>) + Sync),
) -> Result<Report, ResearchError> {
    let t0 = Instant::now();
    let b = cfg.scale.budgets();
    let rules = RuleConfig::default();
    let dir = cfg.out.join("token-research");
    let one = || progress(Progress::Games(1));
    let mut files = Vec::new();

    let mut values = Vec::new();
    for players in [2u8, 4] {
        // One table per focal agent, each with its own budget: the policy decides more slowly.
        let mut tables = Vec::new();
        let mut report: Option<ValueReport> = None;
        // `expert`, the policy and `search` against `expert`, then the policy in self-play
        // (every seat).
        let plan = [
            (EXPERT.to_string(), EXPERT.to_string(), b.value_deals),
            (cfg.policy.clone(), EXPERT.to_string(), b.value_deals_policy),
            (SEARCH.to_string(), EXPERT.to_string(), b.value_deals_search),
            (cfg.policy.clone(), cfg.policy.clone(), b.value_deals_policy),
        ];
        for (focal, opponent, deals) in plan {
            let vc = ValueConfig {
                players,
                agents: vec![opponent.clone()],
                focal: vec![focal.clone()],
                tokens: rules.enabled_tokens.iter().collect(),
                baseline: Baseline::Removed,
                deals,
                seed: cfg.seed,
                rules,
            };
            progress(Progress::Stage {
                name: &format!("value, {players} seats, {focal} vs {opponent}"),
                games: value::games(&vc),
            });
            let started = Instant::now();
            let mut r = value::run(&vc, factory, &one)?;
            r.performance = Some(performance(started, r.games));
            tables.extend(r.tables.iter().cloned());
            report = Some(match report {
                None => r,
                Some(mut acc) => {
                    acc.games += r.games;
                    if let (Some(a), Some(p)) = (acc.performance.as_mut(), r.performance.as_ref()) {
                        a.seconds += p.seconds;
                        a.games_per_second = acc.games as f64 / a.seconds.max(1e-9);
                    }
                    acc.settings.focal.extend(r.settings.focal);
                    acc
                }
            });
        }
        let mut r = report.expect("four tables were studied");
        r.tables = tables;
        files.extend(output::write_value(&r, &dir.join(format!("value-{players}p")))?);
        values.push(r);
    }

    // `expert` in self-play at every table size: the 2- and 4-seat tables come from above.
    let mut by_players = Vec::new();
    for players in SWEEP_PLAYERS {
        if let Some(t) = values.iter().find(|v| v.settings.players == players).and_then(|v| v.tables.first()) {
            by_players.push((players, t.clone()));
            continue;
        }
        let vc = ValueConfig {
            players,
            agents: vec![EXPERT.into()],
            focal: vec![EXPERT.into()],
            tokens: rules.enabled_tokens.iter().collect(),
            baseline: Baseline::Removed,
            deals: b.value_deals,
            seed: cfg.seed,
            rules,
        };
        progress(Progress::Stage { name: &format!("value, {players} seats, expert"), games: value::games(&vc) });
        let started = Instant::now();
        let mut r = value::run(&vc, factory, &one)?;
        r.performance = Some(performance(started, r.games));
        files.extend(output::write_value(&r, &dir.join(format!("value-{players}p")))?);
        by_players.push((players, r.tables[0].clone()));
    }
    files.extend(write_by_players(&by_players, &dir)?);

    let lc = LoadoutsConfig {
        players: 4,
        agents: vec![EXPERT.into()],
        focal: EXPERT.into(),
        loadouts: loadouts::all_loadouts(&rules),
        budget: b.loadout_games,
        delta: LOADOUT_DELTA,
        seed: cfg.seed,
        rules,
    };
    progress(Progress::Stage { name: "loadouts, 4 seats, expert", games: b.loadout_games });
    let started = Instant::now();
    let mut loadouts = loadouts::run(&lc, factory, &one)?;
    loadouts.performance = Some(performance(started, loadouts.games));
    files.extend(output::write_loadouts(&loadouts, &dir.join("loadouts-4p"))?);

    let mut timing = Vec::new();
    for players in [2u8, 4] {
        let study = TimingStudy {
            players,
            agents: vec![cfg.policy.clone(), EXPERT.into()],
            rules,
            games: b.timing_games,
            continuations: b.continuations,
            seed: cfg.seed,
        };
        progress(Progress::Stage { name: &format!("timing, {players} seats"), games: 0 });
        let r = timing_report::run(&study, factory, &|n| progress(Progress::Games(n)), &|_| {})?;
        files.extend(write_timing(&r, &dir.join(format!("timing-{players}p")))?);
        timing.push(r);
    }

    let dc = DraftConfig {
        players: 4,
        agents: vec![EXPERT.into(), cfg.policy.clone()],
        deals: b.draft_deals,
        seed: cfg.seed,
        rules,
    };
    progress(Progress::Stage { name: "draft, 4 seats", games: b.draft_deals });
    let started = Instant::now();
    let mut draft = draft::run(&dc, Some(&values[1]), "the value study at 4 seats above", factory, &one)?;
    draft.performance = Some(performance(started, draft.games));
    files.extend(output::write_draft(&draft, &dir.join("draft-4p"))?);

    let seconds = t0.elapsed().as_secs_f64();
    let mut report = Report { value: values, by_players, loadouts, timing, draft, seconds, files };
    let doc = document(cfg, &report);
    let path = cfg.out.join("token-research.md");
    eval::report::write_atomic(&path, doc.as_bytes())
        .map_err(|e| ResearchError::Output { path: path.display().to_string(), message: e.to_string() })?;
    report.files.push(path.display().to_string());
    Ok(report)
}

fn performance(started: Instant, games: u64) -> Performance {
    let seconds = started.elapsed().as_secs_f64();
    Performance { seconds, games_per_second: games as f64 / seconds.max(1e-9), threads: rayon::current_num_threads() }
}

/// The chart of value against the number of players: one row per token, one series per size.
fn write_by_players(tables: &[(u8, crate::value::FocalTable)], dir: &Path) -> Result<Vec<String>, ResearchError> {
    let series: Vec<String> = tables.iter().map(|(p, _)| format!("{p} seats")).collect();
    let tokens: Vec<engine::Token> =
        tables.first().map(|t| t.1.rows.iter().map(|r| r.token).collect()).unwrap_or_default();
    let rows: Vec<ChartRow> = tokens
        .iter()
        .map(|&tok| ChartRow {
            label: tok.name().to_string(),
            points: tables
                .iter()
                .map(|(_, t)| {
                    t.rows
                        .iter()
                        .find(|r| r.token == tok)
                        .map(|r| (100.0 * r.win.diff, 100.0 * r.win.low, 100.0 * r.win.high))
                })
                .collect(),
        })
        .collect();
    std::fs::create_dir_all(dir)
        .map_err(|e| ResearchError::Output { path: dir.display().to_string(), message: e.to_string() })?;
    let png = dir.join("value-by-players.png");
    eval::plot::write_png(&png, |p| {
        output::interval_chart(
            p,
            "Token value against the number of players (expert in self-play)",
            "win rate with the token minus without (percentage points, paired 95%)",
            &series,
            &rows,
        )
    })
    .map_err(|e| ResearchError::Output { path: png.display().to_string(), message: e })?;
    Ok(vec![png.display().to_string()])
}

/// The value-against-players section: one row per token, one column per table size; `*` marks
/// a value above or below 0 after Holm's correction within its table.
fn by_players_markdown(md: &mut String, tables: &[(u8, crate::value::FocalTable)]) {
    md.push_str("\n## Value against the number of players\n\n");
    md.push_str(
        "`expert` in self-play at every table size: win difference (pp) with its paired 95% interval; `*`: Holm \
         p ≤ 0.05 within that table. Deals per token: ",
    );
    let deals: Vec<String> =
        tables.iter().map(|(p, t)| format!("{p} seats {}", t.rows.first().map_or(0, |r| r.deals))).collect();
    md.push_str(&deals.join(", "));
    md.push_str(".\n\n| token |");
    for (p, _) in tables {
        let _ = write!(md, " {p} seats |");
    }
    md.push_str("\n| --- |");
    md.push_str(&" ---: |".repeat(tables.len()));
    md.push('\n');
    let tokens: Vec<engine::Token> =
        tables.first().map(|t| t.1.rows.iter().map(|r| r.token).collect()).unwrap_or_default();
    for tok in tokens {
        let _ = write!(md, "| {tok} |");
        for (_, t) in tables {
            match t.rows.iter().find(|r| r.token == tok) {
                Some(r) => {
                    let star = if r.win_p_holm <= crate::stats::ALPHA { "*" } else { "" };
                    let _ = write!(md, " {} [{}, {}]{star} |", pp(r.win.diff), pp(r.win.low), pp(r.win.high));
                }
                None => md.push_str(" – |"),
            }
        }
        md.push('\n');
    }
    md.push_str("\n![Token value against the number of players](token-research/value-by-players.png)\n");
}

/// Writes the timing study's JSON, Markdown and chart.
pub fn write_timing(r: &TimingReport, dir: &Path) -> Result<Vec<String>, ResearchError> {
    let rows: Vec<ChartRow> = r
        .tokens
        .iter()
        .map(|t| ChartRow {
            label: t.token.clone(),
            points: vec![Some((
                100.0 * t.win_advantage.mean,
                100.0 * t.win_advantage.low.max(-100.0),
                100.0 * t.win_advantage.high.min(100.0),
            ))],
        })
        .collect();
    let title = format!("Playing now vs holding, {} seats", r.players);
    output::write_study(dir, "timing", r, &timing_report::markdown(r), |p| {
        output::interval_chart(p, &title, "win share advantage of playing now (pp)", &["advantage".into()], &rows)
    })
}

/// Demotes every Markdown heading by `levels` (a study's `#` becomes a section's `###`).
fn demote(md: &str, levels: usize) -> String {
    let extra = "#".repeat(levels);
    md.lines()
        .map(|l| if l.starts_with('#') { format!("{extra}{l}") } else { l.to_string() })
        .collect::<Vec<_>>()
        .join("\n")
}

fn pp(x: f64) -> String {
    format!("{:+.1}", 100.0 * x)
}

/// The summary bullets of the value study: the best and worst tokens per table and agent.
fn value_findings(md: &mut String, r: &ValueReport) {
    for t in &r.tables {
        let mut rows: Vec<_> = t.rows.iter().collect();
        rows.sort_by(|a, b| b.win.diff.total_cmp(&a.win.diff));
        let significant = |v: &&&crate::value::TokenValue| v.win_p_holm <= crate::stats::ALPHA;
        let above = rows.iter().filter(significant).filter(|v| v.win.diff > 0.0).count();
        let below = rows.iter().filter(significant).filter(|v| v.win.diff < 0.0).count();
        let show = |v: &&crate::value::TokenValue| {
            format!(
                "{} {} [{}, {}] (rank {})",
                v.token,
                pp(v.win.diff),
                pp(v.win.low),
                pp(v.win.high),
                v.rank.map_or("–".into(), crate::output::rank_interval)
            )
        };
        let top: Vec<String> = rows.iter().take(3).map(show).collect();
        let bottom: Vec<String> = rows.iter().rev().take(2).map(show).collect();
        let _ = writeln!(
            md,
            "- **{} seats, in the hands of {}** ({} deals per token): most valuable {}; least {}. \
             {above} of {} tokens are worth more than not being able to play them (Holm-adjusted p ≤ 0.05 over the \
             table's tokens), {below} are worth less. Ranks carry bootstrap 95% intervals over deals. Pairing made the \
             win intervals {:.0}% as wide as unpaired sampling.",
            r.settings.players,
            t.label(),
            rows.first().map(|v| v.deals).unwrap_or(0),
            top.join(", "),
            bottom.join(", "),
            rows.len(),
            100.0 * t.win_width_ratio
        );
    }
}

/// Where the value tables of one table size agree and where they do not: the rank correlation
/// of each table with the first (`expert`'s), and the tokens whose two values differ by Welch's
/// test, Holm-corrected over the tokens (the tables share deal seeds, so treating them as
/// independent is conservative when they are positively correlated).
fn value_agreement(md: &mut String, r: &ValueReport) {
    let Some(base) = r.tables.first() else { return };
    for t in r.tables.iter().skip(1) {
        let pairs: Vec<(&crate::value::TokenValue, &crate::value::TokenValue)> =
            base.rows.iter().filter_map(|a| t.rows.iter().find(|b| b.token == a.token).map(|b| (a, b))).collect();
        let x: Vec<f64> = pairs.iter().map(|p| p.0.win.diff).collect();
        let y: Vec<f64> = pairs.iter().map(|p| p.1.win.diff).collect();
        let rho = crate::draft::spearman(&x, &y).map_or("undefined".to_string(), |s| format!("{s:+.2}"));
        // Welch's test of each token's two values, Holm-corrected over the tokens.
        let p: Vec<f64> = pairs
            .iter()
            .map(|(a, b)| {
                crate::stats::p_difference(
                    (a.win.diff, a.win.half_width(), a.win.n),
                    (b.win.diff, b.win.half_width(), b.win.n),
                    WIN_DIFF_RANGE,
                )
            })
            .collect();
        let apart: Vec<String> = pairs
            .iter()
            .zip(crate::stats::holm(&p))
            .filter(|&(_, p)| p <= crate::stats::ALPHA)
            .map(|((a, b), _)| {
                format!(
                    "{} ({} vs {}; played in {:.0}% vs {:.0}% of games)",
                    a.token,
                    pp(a.win.diff),
                    pp(b.win.diff),
                    100.0 * a.played_share,
                    100.0 * b.played_share
                )
            })
            .collect();
        let _ = writeln!(
            md,
            "  - {} seats, {} beside {}: rank correlation {rho}; {}.",
            r.settings.players,
            t.label(),
            base.label(),
            if apart.is_empty() {
                "no token's value differs significantly (Welch, Holm-corrected over the tokens)".to_string()
            } else {
                format!(
                    "the values disagree (Welch, Holm-corrected over the tokens) for {}. A token one agent plays far \
                     more often is worth \
                     more in its hands: values measure the token *and* the agent's use of it",
                    apart.join(", ")
                )
            }
        );
    }
}

fn timing_findings(md: &mut String, r: &TimingReport) {
    let show = |t: &crate::timing_report::TokenTiming| {
        format!("{} {} (Holm p {})", t.token, pp(t.win_advantage.mean), crate::output::p_value(t.win_p_holm))
    };
    let better: Vec<String> = r.tokens.iter().filter(|t| t.now_is_better()).map(show).collect();
    let worse: Vec<String> = r.tokens.iter().filter(|t| t.hold_is_better()).map(show).collect();
    // The strongest uncorrected signals that did not survive, so a reader sees what was tested.
    let mut near: Vec<&crate::timing_report::TokenTiming> = r
        .tokens
        .iter()
        .filter(|t| !t.now_is_better() && !t.hold_is_better() && t.win_advantage.p_value() <= crate::stats::ALPHA)
        .collect();
    near.sort_by(|a, b| a.win_advantage.p_value().total_cmp(&b.win_advantage.p_value()));
    let none = |v: &[String]| if v.is_empty() { "none".to_string() } else { v.join(", ") };
    let _ = writeln!(
        md,
        "- **Timing, {} seats** ({} positions, {} rollouts per branch, hidden cards resampled from the acting \
         seat's view): playing at once beats holding, on average over the positions where it was playable and \
         after Holm's correction over the {} tokens, for {}; holding beats playing for {}.{}",
        r.players,
        r.positions,
        r.continuations,
        r.tokens.len(),
        none(&better),
        none(&worse),
        if near.is_empty() {
            String::new()
        } else {
            format!(
                " Significant before the correction only (not findings): {}.",
                near.iter().map(|t| format!("{} {}", t.token, pp(t.win_advantage.mean))).collect::<Vec<_>>().join(", ")
            )
        }
    );
    for a in &r.agreement {
        let _ = writeln!(
            md,
            "  - `{}` chose the best-rated branch at {:.0}% [{:.0}, {:.0}] of its {} positions.",
            a.agent,
            100.0 * a.rate,
            100.0 * a.low,
            100.0 * a.high,
            a.positions
        );
    }
}

/// The table advice is read from: the last table in self-play (the policy's: a table of equally
/// strong players), else the first table.
fn play_table(v: &ValueReport) -> Option<&crate::value::FocalTable> {
    v.tables.iter().rev().find(|t| t.self_play()).or(v.tables.first())
}

/// What the numbers mean at the table, read off the studies: which tokens to want, which to
/// play at once, and whether the agents' own habits match. Each line names the figure it rests on.
fn for_play(md: &mut String, r: &Report) {
    md.push_str("\n## What it means for play\n\n");
    for v in &r.value {
        let Some(t) = play_table(v) else { continue };
        let mut rows: Vec<_> = t.rows.iter().collect();
        rows.sort_by(|a, b| b.win.diff.total_cmp(&a.win.diff));
        // Tokens whose bootstrap rank interval stays within the top three: the ones to want.
        let clear: Vec<&str> =
            rows.iter().take(3).filter(|v| v.rank.is_some_and(|r| r.high <= 3)).map(|v| v.token.name()).collect();
        let top: Vec<&str> = rows.iter().take(3).map(|v| v.token.name()).collect();
        let _ = writeln!(
            md,
            "- **At {} seats, want {}** (the three most valuable in the hands of {}{}). The least valuable, {} and {}, \
             are worth taking only when nothing better is offered.",
            v.settings.players,
            top.join(", "),
            t.label(),
            if clear.is_empty() {
                String::from(
                    "; no rank interval stays within the top three, so the order among the leaders is not settled",
                )
            } else {
                format!("; {} ranked in the top three in 95% of bootstrap resamples of the deals", clear.join(", "))
            },
            rows.last().map(|v| v.token.name()).unwrap_or("-"),
            rows.iter().rev().nth(1).map(|v| v.token.name()).unwrap_or("-"),
        );
    }
    let v4 = r.value.iter().find(|v| v.settings.players == 4).and_then(play_table);
    if let (Some(t), Some(best)) = (v4, r.loadouts.ranking.first()) {
        let mut rows: Vec<_> = t.rows.iter().collect();
        rows.sort_by(|a, b| b.win.diff.total_cmp(&a.win.diff));
        let top: Vec<&str> = rows.iter().take(3).map(|v| v.token.name()).collect();
        let shared = top.iter().filter(|n| best.loadout.contains(**n)).count();
        let is_tax = |n: &str| n.contains("tariff") || n.contains("audit");
        let taxes_top = top.iter().filter(|n| is_tax(n)).count();
        let taxes_best = best.loadout.split('+').filter(|n| is_tax(n)).count();
        let _ = writeln!(
            md,
            "- **Loadouts**: the race's leader at 4 seats, {}, shares {shared} of 3 kinds with the three most valuable \
             single tokens. Taxes (Tariffs and Audits) are {taxes_top} of those three and {taxes_best} of the leader's{}.",
            best.loadout,
            if r.loadouts.survivors > 1 {
                " (the leader by win share among the race's survivors, not a guaranteed best)"
            } else {
                ""
            }
        );
    }
    for t in &r.timing {
        let list = |keep: &dyn Fn(&crate::timing_report::TokenTiming) -> bool| -> Vec<String> {
            t.tokens
                .iter()
                .filter(|x| keep(x))
                .map(|x| format!("{} ({:+.1} pp)", x.token, 100.0 * x.win_advantage.mean))
                .collect()
        };
        let now = list(&|x| x.now_is_better());
        let hold = list(&|x| x.hold_is_better());
        let none = |v: &[String]| if v.is_empty() { "none".to_string() } else { v.join(", ") };
        let _ = writeln!(
            md,
            "- **When to play, {} seats**: play at once {}; better held {} (Holm-corrected over the table's tokens). For \
             the other tokens the rollouts cannot tell playing now from holding at these budgets.",
            t.players,
            none(&now),
            none(&hold)
        );
    }
    for a in &r.draft.agents {
        if a.spearman.is_some_and(|s| s < 0.3) {
            let _ = writeln!(
                md,
                "- **`{}` drafts against its own interest**: its picks barely follow its value table (rank correlation \
                 {:+.2}); a player drafting by the value table instead takes {}.",
                a.agent,
                a.spearman.unwrap_or(0.0),
                a.should_pick.iter().map(|t| t.name()).collect::<Vec<_>>().join(", ")
            );
        }
    }
}

/// The section that lets a reader rerun the report: commit, checkpoint hashes, seeds, budgets
/// and threads.
fn reproducibility(md: &mut String, cfg: &ReportConfig, r: &Report) {
    let b = cfg.scale.budgets();
    md.push_str("\n## Reproducing this report\n\n");
    let _ = writeln!(
        md,
        "- **Program**: commit `{}`; command `sabacc tokens report --out {}{} --seed {} --policy {}`.",
        if cfg.provenance.commit.is_empty() { "unknown" } else { &cfg.provenance.commit },
        cfg.out.display(),
        if cfg.scale == Scale::Quick { " --quick" } else { "" },
        cfg.seed,
        cfg.policy
    );
    if cfg.provenance.checkpoints.is_empty() {
        md.push_str("- **Checkpoints**: none (only built-in bots).\n");
    }
    for (spec, sha) in &cfg.provenance.checkpoints {
        let _ = writeln!(md, "- **Checkpoint** `{spec}`: SHA-256 of `model.bpk` `{sha}`.");
    }
    let _ = writeln!(
        md,
        "- **Seeds**: every study uses base seed {}; each deal, agent and rollout seed is derived from it and the \
         game's index, so the figures do not depend on the thread count ({} worker threads here).",
        cfg.seed,
        rayon::current_num_threads()
    );
    let _ = writeln!(
        md,
        "- **Budgets** ({}): value {} deals per token for `expert` (at 2, 3, 4, 6 and 8 seats), {} for the policy (against `expert` and in \
         self-play), {} for `{SEARCH}`; loadouts {} games at δ = {}; timing {} source games with {} rollouts per \
         branch; draft {} deals; rank bootstrap {} resamples of the deals.",
        if cfg.scale == Scale::Quick { "quick" } else { "full" },
        b.value_deals,
        b.value_deals_policy,
        b.value_deals_search,
        b.loadout_games,
        r.loadouts.settings.delta,
        b.timing_games,
        b.continuations,
        b.draft_deals,
        value::RANK_RESAMPLES
    );
}

/// The whole document.
pub fn document(cfg: &ReportConfig, r: &Report) -> String {
    let games: u64 = r.value.iter().map(|v| v.games).sum::<u64>()
        + r.loadouts.games
        + r.timing.iter().map(|t| t.games + t.rollout_games).sum::<u64>()
        + r.draft.games
        + r.by_players
            .iter()
            .filter(|(p, _)| !r.value.iter().any(|v| v.settings.players == *p))
            .map(|(_, t)| t.rows.iter().map(|x| 2 * x.deals).sum::<u64>())
            .sum::<u64>();
    let mut md = String::new();
    md.push_str("# Token research: what Shift Tokens are worth, which loadouts win, when to play them\n\n");
    let _ = writeln!(
        md,
        "Generated by `sabacc tokens report --out {}{}` (seed {}): {} games in {:.1} minutes on {} worker \
         thread(s). The studies' tables, JSON and charts are in [`token-research/`](token-research/).\n",
        cfg.out.display(),
        if cfg.scale == Scale::Quick { " --quick" } else { "" },
        cfg.seed,
        games,
        r.seconds / 60.0,
        rayon::current_num_threads()
    );
    md.push_str("## Findings\n\n");
    for v in &r.value {
        value_findings(&mut md, v);
    }
    let best: Vec<String> = r
        .by_players
        .iter()
        .filter_map(|(p, t)| {
            t.rows
                .iter()
                .max_by(|a, b| a.win.diff.total_cmp(&b.win.diff))
                .map(|v| format!("{p} seats {} {}", v.token, pp(v.win.diff)))
        })
        .collect();
    let _ = writeln!(
        md,
        "- **Value against the number of players** (`expert` in self-play, 2 to 8 seats): the most valuable token is {}; \
         the full table and chart are under \"Value against the number of players\".",
        best.join("; ")
    );
    md.push_str("- **Do the agents agree?**\n");
    for v in &r.value {
        value_agreement(&mut md, v);
    }
    if let Some(top) = r.loadouts.ranking.first() {
        let l = &r.loadouts;
        let show = |x: &loadouts::LoadoutRow| {
            format!("{} ({:.1}% [{:.1}, {:.1}])", x.loadout, 100.0 * x.win_rate, 100.0 * x.win_low, 100.0 * x.win_high)
        };
        let next: Vec<String> = l.ranking.iter().skip(1).take(4).map(show).collect();
        let verdict = if l.survivors == 1 {
            format!(
                "stopped by its rule with one loadout left: {} is the best loadout with probability at least {:.2}",
                show(top),
                1.0 - l.settings.delta
            )
        } else {
            format!(
                "spent its budget with {} loadouts left, which hold the best one with probability at least {:.2}; \
                 the leaders by win share are {}, then {}",
                l.survivors,
                1.0 - l.settings.delta,
                show(top),
                next.join(", ")
            )
        };
        let _ = writeln!(
            md,
            "- **Loadouts, 4 seats, `expert`** (successive elimination over {} loadouts, δ = {}, {} games): the race {verdict}.",
            l.ranking.len(),
            l.settings.delta,
            l.games,
        );
    }
    for t in &r.timing {
        timing_findings(&mut md, t);
    }
    for a in &r.draft.agents {
        let names = |v: &[engine::Token]| v.iter().map(|t| t.name()).collect::<Vec<_>>().join(", ");
        let _ = writeln!(
            md,
            "- **Draft, 4 seats**: `{}` picks {} most; by its value table it should pick {} \
             (rank correlation of pick rate and value: {}).",
            a.agent,
            names(&a.picks),
            names(&a.should_pick),
            a.spearman.map(|s| format!("{s:+.2}")).unwrap_or_else(|| "undefined".into())
        );
    }
    for_play(&mut md, r);

    md.push_str(
        "\n## Method\n\n\
         - **Paired games with duplicate deals.** Each study plays pairs of games that share the deal, the seating, \
         the other seats' loadouts and every agent's random seed, and differ only in what is studied. The engine gives \
         each random purpose its own stream (deck, dice) and re-derives them from the game's seed at every round, so \
         one extra die or reshuffle in one arm does not shift the later deals of the other: the arms face common \
         random numbers wherever the rules allow.\n\
         - **Value** (restricted play, after Jaffe et al., AIIDE 2012): arm A holds the token, arm B holds it but may \
         not play it; the focal seat rotates over the table. Differences are A − B with paired 95% intervals \
         (Student's t over deals) beside the unpaired intervals of the same games. A token counts as worth more (or \
         less) than not playing it only when its p-value, adjusted by Holm's step-down method over the table's \
         tokens, is at most 0.05. Ranks carry percentile-bootstrap 95% intervals: the deals (the resampling unit) \
         are drawn with replacement, the same deals for every token, and the tokens re-ranked.\n\
         - **Loadouts**: best-arm identification over every three-kind loadout by successive elimination (Even-Dar, \
         Mannor and Mansour 2006): all survivors play the same deals; a loadout is eliminated once its win share \
         trails the leader's by more than a Hoeffding radius with a union bound over the loadouts and every sample \
         size, so the best loadout survives with probability at least 1 − δ. The race stops when one loadout is left \
         or when its budget is spent.\n\
         - **Timing**: positions are taken from real games (one random decision with a playable token per game); \
         each is branched into holding and playing each token now (each target), and every branch is finished by \
         the same agents many times under common random numbers. Before each rollout, everything the acting seat \
         cannot see (opponents' unknown cards, the draw piles' order, opponents' unplayed tokens it cannot know, the \
         future dice) is resampled from its view, so a branch's value depends only on what that seat knows. The \
         advantage is the win share of playing now (at its best target) minus that of holding; the unit is the \
         position, and the per-token tests are Holm-corrected over the table's tokens.\n\
         - **Draft**: games under `token_assignment = \"choose\"` (K2.1); what each agent picks, beside what its \
         value table ranks highest.\n",
    );

    reproducibility(&mut md, cfg, r);

    md.push_str("\n## Value\n\n");
    for v in &r.value {
        let p = v.settings.players;
        md.push_str(&demote(&output::value_markdown(v), 2));
        let _ = writeln!(md, "\n\n![Token value at {p} seats](token-research/value-{p}p/value.png)\n");
    }
    by_players_markdown(&mut md, &r.by_players);
    md.push_str("\n## Loadouts\n\n");
    md.push_str(&demote(&output::loadouts_markdown(&r.loadouts), 2));
    md.push_str("\n\n![Loadout race](token-research/loadouts-4p/loadouts.png)\n");
    md.push_str("\n## Timing\n\n");
    for t in &r.timing {
        md.push_str(&demote(&timing_report::markdown(t), 1));
        let _ = writeln!(md, "\n![Timing at {} seats](token-research/timing-{}p/timing.png)\n", t.players, t.players);
    }
    md.push_str("\n## Draft\n\n");
    md.push_str(&demote(&output::draft_markdown(&r.draft), 2));
    md.push_str("\n\n![Draft](token-research/draft-4p/draft.png)\n");

    md.push_str(
        "\n## Limits of the method\n\n\
         - A token's value is its value **in that agent's hands, against those opponents**: a player who uses a token \
         badly makes it look weak. `expert` plays tokens by hand-written rules; the trained policy learned its own use.\n\
         - The value baseline keeps the token in hand but unplayable, so opponents' views are identical in both \
         arms; it measures what *playing* the token adds, not what holding a different token would.\n\
         - Timing rollouts resample what the acting seat cannot see from its view, uniformly over the deals \
         consistent with it: they infer nothing from the opponents' past play, as a strong player might. The \
         best-target maximum is taken over noisy estimates and leans optimistic for targeted tokens when rollouts \
         are few.\n\
         - Value and loadout games are dealt with `token_assignment = \"fixed\"`: the loadouts are part of the \
         rules, so agents that read the rules know the opponents' kinds (search's sampled worlds draw opponents' \
         tokens from them), unlike in a game with random loadouts. The policy's observation does not show \
         opponents' kinds, only how many they hold (docs/observation.md).\n\
         - Intervals are per comparison (95%); the findings above are the tests that survive Holm's correction over \
         each table's tokens (family-wise error rate 5%). The timing breakdowns by turn, round, chips and hand are \
         descriptive and uncorrected.\n",
    );
    md
}
