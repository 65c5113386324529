//! `sabacc tokens report`: every study at fixed settings, written as one research document
//! (`token-research.md`) with each study's Markdown, JSON and chart in a folder beside it.
//!
//! The document's numbers and its summary sentences are computed here from the studies' results,
//! so regenerating it with the same seed gives the same document (the timings aside).

use crate::answer::{Answer, Confirmation};
use crate::draft::{self, DraftConfig, DraftReport};
use crate::duel::{self, DuelConfig, DuelReport};
use crate::error::ResearchError;
use crate::field::{self, FieldConfig, FieldReport};
use crate::interactions::{self, InteractionsConfig, InteractionsReport};
use crate::loadouts::{self, LoadoutsConfig, LoadoutsReport};
use crate::metagame::{self, DraftGain, MetaConfig, MetaReport};
use crate::output::{self, ChartRow};
use crate::stages::Stages;
use crate::study;
use crate::timing::TimingStudy;
use crate::timing_report::{self, TimingReport};
use crate::value::{self, Baseline, Performance, ValueConfig, ValueReport};
use crate::variants::{self, Comparison, VARIANTS};
use env::AgentBuilder;
use kessel::Kessel;
use kessel::RuleConfig;
use kessel::TokenSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// How much compute the report spends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// The full budgets (about 45 minutes on two cores, most of it `search`'s value tables;
    /// see BENCHMARKS.md).
    Full,
    /// About a quarter of the full budgets, for a shared or slow machine (`--medium`).
    Medium,
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
    /// Games of the interaction regression for `expert` at 4 seats.
    pub interaction_games: u64,
    /// Games of the interaction regression for `expert` heads-up.
    pub interaction_games_2p: u64,
    /// Games of the interaction regression for the policy at 4 seats (in self-play).
    pub interaction_games_policy: u64,
    /// Bootstrap resamples of the regressions and of the drafting games.
    pub resamples: usize,
    /// Loadouts taken from the top of the 4-seat race into the rule variants' races.
    pub meta_candidates: usize,
    /// Games of each answer's selection race (the 4-seat `expert` one is the loadout race above).
    pub answer_race_games: u64,
    /// Loadouts taken from the top of an answer's race into its confirming game (the bots'
    /// drafts are added).
    pub answer_candidates: usize,
    /// Deals per heads-up pair of an answer's confirming game (each played with both seatings).
    pub answer_deals_2p: u64,
    /// Deals per profile of a 4-seat answer's confirming game.
    pub answer_deals_field: u64,
    /// Paired deals of a 4-seat answer's duel (the advised loadout against its strongest
    /// alternative, [`crate::duel`]).
    pub answer_duel_deals: u64,
    /// Deals per table size of the measurement of `expert`'s draft against `handdraft`'s.
    pub draft_gain_deals: u64,
    /// Deals per token of each rule variant's value table.
    pub variant_value_deals: u64,
    /// Games of each rule variant's race among the candidates (and of the default rules' one).
    pub variant_race_games: u64,
}

impl Scale {
    /// The scale's name in the document.
    pub fn name(self) -> &'static str {
        match self {
            Scale::Full => "full",
            Scale::Medium => "medium",
            Scale::Quick => "quick",
        }
    }

    /// The command-line flag that selects it (with its leading space; none for full).
    pub fn flag(self) -> &'static str {
        match self {
            Scale::Full => "",
            Scale::Medium => " --medium",
            Scale::Quick => " --quick",
        }
    }

    /// The budgets of this scale.
    pub fn budgets(self) -> Budgets {
        match self {
            Scale::Full => Budgets {
                value_deals: 6_000,
                value_deals_policy: 1_000,
                value_deals_search: 1_000,
                loadout_games: 1_000_000,
                timing_games: 1_500,
                continuations: 48,
                draft_deals: 2_000,
                interaction_games: 150_000,
                interaction_games_2p: 80_000,
                interaction_games_policy: 20_000,
                resamples: 200,
                meta_candidates: 8,
                answer_deals_2p: 4_000,
                answer_deals_field: 600,
                answer_duel_deals: 12_000,
                answer_race_games: 400_000,
                answer_candidates: 5,
                draft_gain_deals: 15_000,
                variant_value_deals: 2_000,
                variant_race_games: 60_000,
            },
            Scale::Medium => Budgets {
                value_deals: 1_500,
                value_deals_policy: 250,
                value_deals_search: 250,
                loadout_games: 250_000,
                timing_games: 400,
                continuations: 24,
                draft_deals: 500,
                interaction_games: 60_000,
                interaction_games_2p: 40_000,
                interaction_games_policy: 5_000,
                resamples: 200,
                meta_candidates: 8,
                answer_deals_2p: 1_000,
                answer_deals_field: 150,
                answer_duel_deals: 3_000,
                answer_race_games: 100_000,
                answer_candidates: 5,
                draft_gain_deals: 6_000,
                variant_value_deals: 800,
                variant_race_games: 24_000,
            },
            Scale::Quick => Budgets {
                value_deals: 64,
                value_deals_policy: 16,
                value_deals_search: 2,
                loadout_games: 8_960,
                timing_games: 24,
                continuations: 4,
                draft_deals: 48,
                interaction_games: 2_000,
                interaction_games_2p: 1_000,
                interaction_games_policy: 64,
                resamples: 20,
                meta_candidates: 3,
                answer_deals_2p: 24,
                answer_deals_field: 2,
                answer_duel_deals: 4,
                answer_race_games: 2_240,
                answer_candidates: 2,
                draft_gain_deals: 64,
                variant_value_deals: 8,
                variant_race_games: 96,
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

/// Stream tag of the confirmation seed.
const CONFIRM_STREAM: u64 = 0xC0F1_0000_0000_0001;

/// The seed of every study that measures candidates another study chose: the drafting games
/// among the races' leaders, the drafts set from them, and the rule variants' races among the
/// default race's candidates. Choosing and measuring on the same deals would flatter whatever
/// won by luck on them (a race leader re-measured on its own deals keeps its lucky games), so
/// they use deals of their own.
pub fn confirmation_seed(seed: u64) -> u64 {
    game::derive_seed(seed ^ CONFIRM_STREAM, 0)
}

/// The seed of the 4-seat answers' duels: a third set of deals, since the rival was picked on
/// the confirmation seed's.
pub fn duel_seed(seed: u64) -> u64 {
    game::derive_seed(seed ^ CONFIRM_STREAM, 1)
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
    /// Reuse the studies a stopped run of the same report finished ([`crate::stages`]).
    pub resume: bool,
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
    /// `expert`'s value table (in self-play) at 4 seats for every starting stack of
    /// [`SWEEP_STACKS`].
    pub by_stack: Vec<(u16, crate::value::FocalTable)>,
    /// The loadout race at 4 seats.
    pub loadouts: LoadoutsReport,
    /// Timing at 2 and 4 seats.
    pub timing: Vec<TimingReport>,
    /// The draft at 4 seats.
    pub draft: DraftReport,
    /// Interaction regressions: `expert` at 4 and 2 seats, the policy at 4 seats.
    pub interactions: Vec<InteractionsReport>,
    /// The draft advice: at 2 and 4 seats, in the policy's hands and in `expert`'s.
    pub answers: Vec<Answer>,
    /// `expert` (the researched draft) against `handdraft` (its draft before the research) under
    /// `choose`, at 2 and 4 seats.
    pub draft_gain: Vec<DraftGain>,
    /// Holm-adjusted p-values of the draft gains (over the table sizes).
    pub draft_gain_p_holm: Vec<f64>,
    /// The race among the candidates under the default rules.
    pub candidate_race: LoadoutsReport,
    /// Each K9 token variant beside the default rules.
    pub variants: Vec<(Comparison, crate::value::FocalTable, LoadoutsReport)>,
    /// Wall-clock seconds of the whole report (a resumed report's reused studies counted at the
    /// time they took).
    pub seconds: f64,
    /// Studies taken from a stopped run of the same report, and the number of studies in all.
    pub resumed: (Vec<String>, usize),
    /// Files written.
    pub files: Vec<String>,
    /// Files of an earlier report in the study folders that this one did not write, removed.
    pub removed: Vec<String>,
}

const EXPERT: &str = "expert";

/// The table sizes of the value-against-players sweep (`expert` in self-play).
pub const SWEEP_PLAYERS: [u8; 5] = [2, 3, 4, 6, 8];

/// The starting stacks of the value-against-stack sweep (`expert` in self-play at 4 seats; the
/// rules' default is 6 chips): a short and a deep stack beside it.
pub const SWEEP_STACKS: [u16; 3] = [3, 6, 12];

/// Per-deal win differences lie in [−1, 1].
const WIN_DIFF_RANGE: f64 = 2.0;

/// Determinised search at its default number of worlds.
const SEARCH: &str = "search";

/// Error probability of the loadout race: the best loadout is eliminated with at most this
/// probability.
pub const LOADOUT_DELTA: f64 = 0.05;

/// A study's result that records its own games and wall time.
trait Measured {
    fn games(&self) -> u64;
    fn performance(&mut self) -> &mut Option<Performance>;
}

macro_rules! measured_reports {
    ($($t:ty),*) => {$(
        impl Measured for $t {
            fn games(&self) -> u64 {
                self.games
            }
            fn performance(&mut self) -> &mut Option<Performance> {
                &mut self.performance
            }
        }
    )*};
}

measured_reports!(ValueReport, LoadoutsReport, DraftReport, InteractionsReport, MetaReport, FieldReport, DuelReport);

/// Runs a study as the stage `name` of `stages` with its wall time recorded, or takes it from a
/// stopped run that finished it (its games then count towards the progress at once).
fn measured<T: Measured + serde::Serialize + serde::de::DeserializeOwned>(
    stages: &mut Stages,
    name: &str,
    inputs: &dyn std::fmt::Debug,
    progress: &(dyn Fn(Progress<'_>) + Sync),
    run: impl FnOnce() -> Result<T, ResearchError>,
) -> Result<T, ResearchError> {
    stages.run(
        name,
        inputs,
        |r: &T| progress(Progress::Games(r.games())),
        || {
            let started = Instant::now();
            let mut r = run()?;
            let games = r.games();
            *r.performance() = Some(performance(started, games));
            Ok(r)
        },
    )
}

/// Runs every study and writes the document.
pub fn run(
    cfg: &ReportConfig,
    factory: &dyn AgentBuilder<Kessel>,
    progress: &(dyn Fn(Progress<'_>) + Sync),
) -> Result<Report, ResearchError> {
    let t0 = Instant::now();
    let b = cfg.scale.budgets();
    let rules = RuleConfig::default();
    let dir = cfg.out.join("token-research");
    let one = || progress(Progress::Games(1));
    let mut files = Vec::new();
    let mut stages = Stages::new(
        &dir,
        &cfg.provenance.commit,
        format!(
            "seed {}\npolicy {}\ncheckpoints {:?}\nbudgets {b:?}",
            cfg.seed, cfg.policy, cfg.provenance.checkpoints
        ),
        cfg.resume,
    );
    let reused_games = |games: u64| progress(Progress::Games(games));

    let mut values = Vec::new();
    for players in [2u8, 4] {
        // One table per focal agent, each with its own budget: the policy decides more slowly.
        let mut tables = Vec::new();
        let mut report: Option<ValueReport> = None;
        // `expert`, the policy and `search` against `expert`, heads-up `search` in self-play (at
        // 4 seats, four searching seats would take about an hour), then the policy in self-play
        // (every seat), the table the answer's value row reads.
        let mut plan = vec![
            (EXPERT.to_string(), EXPERT.to_string(), b.value_deals),
            (cfg.policy.clone(), EXPERT.to_string(), b.value_deals_policy),
            (SEARCH.to_string(), EXPERT.to_string(), b.value_deals_search),
        ];
        if players == 2 {
            plan.push((SEARCH.to_string(), SEARCH.to_string(), b.value_deals_search));
        }
        plan.push((cfg.policy.clone(), cfg.policy.clone(), b.value_deals_policy));
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
            let name = format!("value, {players} seats, {focal} vs {opponent}");
            progress(Progress::Stage { name: &name, games: value::games(&vc) });
            let r = measured(&mut stages, &name, &vc, progress, || value::run(&vc, factory, &one))?;
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
        let mut r = report.expect("the plan studies at least one table");
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
        let name = format!("value, {players} seats, expert");
        progress(Progress::Stage { name: &name, games: value::games(&vc) });
        let r = measured(&mut stages, &name, &vc, progress, || value::run(&vc, factory, &one))?;
        files.extend(output::write_value(&r, &dir.join(format!("value-{players}p")))?);
        by_players.push((players, r.tables[0].clone()));
    }
    files.extend(write_by_players(&by_players, &dir)?);

    // `expert` in self-play at 4 seats from a short and a deep stack; the default stack's table
    // comes from above.
    let mut by_stack = Vec::new();
    for chips in SWEEP_STACKS {
        if chips == rules.starting_chips
            && let Some(t) = values.iter().find(|v| v.settings.players == 4).and_then(|v| v.tables.first())
        {
            by_stack.push((chips, t.clone()));
            continue;
        }
        let vc = ValueConfig {
            players: 4,
            agents: vec![EXPERT.into()],
            focal: vec![EXPERT.into()],
            tokens: rules.enabled_tokens.iter().collect(),
            baseline: Baseline::Removed,
            deals: b.value_deals,
            seed: cfg.seed,
            rules: RuleConfig { starting_chips: chips, ..rules },
        };
        let name = format!("value, 4 seats, expert, {chips} starting chips");
        progress(Progress::Stage { name: &name, games: value::games(&vc) });
        let r = measured(&mut stages, &name, &vc, progress, || value::run(&vc, factory, &one))?;
        files.extend(output::write_value(&r, &dir.join(format!("value-4p-{chips}chips")))?);
        by_stack.push((chips, r.tables[0].clone()));
    }

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
    let loadouts =
        measured(&mut stages, "loadouts, 4 seats, expert", &lc, progress, || loadouts::run(&lc, factory, &one))?;
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
        let name = format!("timing, {players} seats");
        progress(Progress::Stage { name: &name, games: 0 });
        let r = stages.run(
            &name,
            &study,
            |r: &TimingReport| reused_games(r.games + r.rollout_games),
            || timing_report::run(&study, factory, &|n| progress(Progress::Games(n)), &|_| {}),
        )?;
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
    let draft = measured(&mut stages, "draft, 4 seats", &dc, progress, || {
        draft::run(&dc, Some(&values[1]), "the value study at 4 seats above", factory, &one)
    })?;
    files.extend(output::write_draft(&draft, &dir.join("draft-4p"))?);

    let extra = extended(cfg, &b, &rules, &values, &loadouts, factory, progress, &dir, &mut files, &mut stages)?;

    let seconds = t0.elapsed().as_secs_f64() + stages.reused_seconds;
    let mut report = Report {
        value: values,
        by_players,
        by_stack,
        loadouts,
        timing,
        draft,
        interactions: extra.interactions,
        answers: extra.answers,
        draft_gain: extra.draft_gain,
        draft_gain_p_holm: extra.draft_gain_p_holm,
        candidate_race: extra.candidate_race,
        variants: extra.variants,
        seconds,
        resumed: (stages.reused.clone(), stages.count),
        files,
        removed: Vec::new(),
    };
    let doc = document(cfg, &report);
    let path = cfg.out.join("token-research.md");
    eval::report::write_atomic(&path, doc.as_bytes())
        .map_err(|e| ResearchError::Output { path: path.display().to_string(), message: e.to_string() })?;
    report.files.push(path.display().to_string());
    stages.clear()?;
    report.removed = remove_stale(&dir, &report.files)?;
    Ok(report)
}

/// Removes the files under `dir` (the report's study folders) that this report did not write,
/// and folders left empty: a report replaced with `--force` leaves no study of an older design
/// beside its own. Returns the files it removed.
fn remove_stale(dir: &Path, written: &[String]) -> Result<Vec<String>, ResearchError> {
    let keep: std::collections::HashSet<PathBuf> = written.iter().map(PathBuf::from).collect();
    let io =
        |p: &Path, e: std::io::Error| ResearchError::Output { path: p.display().to_string(), message: e.to_string() };
    let mut removed = Vec::new();
    fn walk(
        d: &Path,
        keep: &std::collections::HashSet<PathBuf>,
        removed: &mut Vec<String>,
        io: &dyn Fn(&Path, std::io::Error) -> ResearchError,
    ) -> Result<bool, ResearchError> {
        let mut empty = true;
        for entry in std::fs::read_dir(d).map_err(|e| io(d, e))? {
            let p = entry.map_err(|e| io(d, e))?.path();
            if p.is_dir() {
                if walk(&p, keep, removed, io)? {
                    std::fs::remove_dir(&p).map_err(|e| io(&p, e))?;
                } else {
                    empty = false;
                }
            } else if keep.contains(&p) {
                empty = false;
            } else {
                std::fs::remove_file(&p).map_err(|e| io(&p, e))?;
                removed.push(p.display().to_string());
            }
        }
        Ok(empty)
    }
    if dir.is_dir() {
        walk(dir, &keep, &mut removed, &io)?;
    }
    Ok(removed)
}

/// What the studies added to the report in its second part compute.
struct Extended {
    interactions: Vec<InteractionsReport>,
    answers: Vec<Answer>,
    draft_gain: Vec<DraftGain>,
    draft_gain_p_holm: Vec<f64>,
    candidate_race: LoadoutsReport,
    variants: Vec<(Comparison, crate::value::FocalTable, LoadoutsReport)>,
}

/// `expert` with its draft from before the research (`kessel::bots::draft::HAND_WRITTEN`): the
/// baseline the research measures `expert`'s draft against.
pub const HAND_DRAFT: &str = "handdraft";

/// The loadout an agent with a fixed preference list drafts: its first `tokens_per_player`
/// enabled kinds.
pub fn drafted(preference: &[kessel::Token], rules: &RuleConfig) -> TokenSet {
    preference
        .iter()
        .copied()
        .filter(|&t| rules.enabled_tokens.contains(t))
        .take(rules.tokens_per_player as usize)
        .collect()
}

/// A drafting game's candidates: the race's `k` leaders, then each of `drafts` (the agents'
/// present drafts) not among them.
pub fn candidates(
    race: &LoadoutsReport,
    k: usize,
    rules: &RuleConfig,
    drafts: &[TokenSet],
) -> Result<Vec<TokenSet>, ResearchError> {
    let mut out: Vec<TokenSet> = Vec::new();
    for row in race.ranking.iter().take(k) {
        let l = loadouts::parse_loadouts(&row.loadout, rules)?;
        out.extend(l);
    }
    for &l in drafts {
        if l.len() == rules.tokens_per_player as usize && !out.contains(&l) {
            out.push(l);
        }
    }
    Ok(out)
}

/// The loadout `agent` drafts at present under `choose` at a table of `rules.players` seats:
/// `expert`'s preference list, a checkpoint's opening book (`book.json`); `None` for an agent
/// that drafts otherwise (a network without a book drafts by its policy, which varies).
pub fn drafts_now(agent: &str, rules: &RuleConfig) -> Result<Option<TokenSet>, ResearchError> {
    if agent == EXPERT {
        return Ok(Some(drafted(kessel::bots::draft::preference(rules.players), rules)));
    }
    let spec = agents::AgentSpec::parse::<Kessel>(agent).map_err(|e| ResearchError::Spec(e.to_string()))?;
    let policy = agents::Agents::new().policy_agent::<Kessel>(&spec).map_err(|e| ResearchError::Spec(e.to_string()))?;
    let Some(book) = policy.as_ref().and_then(|p| p.book()) else { return Ok(None) };
    let kinds: Vec<kessel::Token> = book
        .line(rules.players)
        .iter()
        .filter_map(|&i| match <kessel::Action as game::GameAction>::from_index(i) {
            Some(kessel::Action::ChooseToken(t)) => Some(t),
            _ => None,
        })
        .collect();
    let l = drafted(&kinds, rules);
    Ok((l.len() == rules.tokens_per_player as usize).then_some(l))
}

/// Interactions, the drafting answers, the gain of `expert`'s draft and the rule variants.
#[allow(clippy::too_many_arguments)]
fn extended(
    cfg: &ReportConfig,
    b: &Budgets,
    rules: &RuleConfig,
    values: &[ValueReport],
    race: &LoadoutsReport,
    factory: &dyn AgentBuilder<Kessel>,
    progress: &(dyn Fn(Progress<'_>) + Sync),
    dir: &Path,
    files: &mut Vec<String>,
    stages: &mut Stages,
) -> Result<Extended, ResearchError> {
    let one = || progress(Progress::Games(1));
    let reused_games = |games: u64| progress(Progress::Games(games));
    let mut inter = Vec::new();
    for (players, agent, games) in [
        (4u8, EXPERT.to_string(), b.interaction_games),
        (2u8, EXPERT.to_string(), b.interaction_games_2p),
        (4u8, cfg.policy.clone(), b.interaction_games_policy),
    ] {
        let ic = InteractionsConfig {
            players,
            agent: agent.clone(),
            games,
            resamples: b.resamples,
            seed: cfg.seed,
            rules: *rules,
        };
        let name = format!("interactions, {players} seats, {agent}");
        progress(Progress::Stage { name: &name, games });
        let r = measured(stages, &name, &ic, progress, || interactions::run(&ic, factory, &one))?;
        let stem = if agent == EXPERT {
            format!("interactions-{players}p")
        } else {
            format!("interactions-{players}p-policy")
        };
        files.extend(write_interactions(&r, &dir.join(stem))?);
        inter.push(r);
    }

    let answers = answers(cfg, b, rules, race, factory, progress, dir, files, stages)?;
    let table_rules = RuleConfig { players: 4, ..*rules };
    let bots_drafts = [
        drafted(&kessel::bots::draft::HAND_WRITTEN, &table_rules),
        drafted(kessel::bots::draft::preference(4), &table_rules),
        drafted(kessel::bots::draft::preference(2), &table_rules),
    ];
    let cands = candidates(race, b.meta_candidates, &table_rules, &bots_drafts)?;

    let mut gains = Vec::new();
    for players in [2u8, 4] {
        let name = format!("expert's draft vs handdraft's, {players} seats");
        progress(Progress::Stage { name: &name, games: 2 * b.draft_gain_deals });
        gains.push(stages.run(
            &name,
            &(players, EXPERT, HAND_DRAFT, b.draft_gain_deals, confirmation_seed(cfg.seed), rules),
            |g: &DraftGain| reused_games(2 * g.gain.n),
            || {
                let seed = confirmation_seed(cfg.seed);
                metagame::draft_gain(players, EXPERT, HAND_DRAFT, b.draft_gain_deals, seed, rules, factory, &one)
            },
        )?);
    }
    let gain_p = crate::stats::holm(&gains.iter().map(|g| g.gain.p_value()).collect::<Vec<_>>());
    files.extend(output::write_study(
        dir.join("draft-gain").as_path(),
        "draft-gain",
        &gains,
        &draft_gain_markdown(&gains, &gain_p),
        |p| {
            let rows: Vec<ChartRow> = gains
                .iter()
                .map(|g| ChartRow {
                    label: format!("{} seats", g.players),
                    points: vec![Some((100.0 * g.gain.diff, 100.0 * g.gain.low, 100.0 * g.gain.high))],
                })
                .collect();
            output::interval_chart(
                p,
                "expert's draft against handdraft's (its old list) under choose",
                "win share of one expert seat minus handdraft's in it (pp, paired 95%)",
                &["gain".into()],
                &rows,
            )
        },
    )?);

    // The rule variants: values at 4 seats (`expert` in self-play) and a race among the
    // candidates, beside the same race under the default rules.
    let race_cfg = |r: RuleConfig| LoadoutsConfig {
        players: 4,
        agents: vec![EXPERT.into()],
        focal: EXPERT.into(),
        loadouts: cands.clone(),
        budget: b.variant_race_games,
        delta: LOADOUT_DELTA,
        seed: confirmation_seed(cfg.seed),
        rules: r,
    };
    progress(Progress::Stage { name: "candidates' race, default rules", games: b.variant_race_games });
    let default_race = race_cfg(*rules);
    let candidate_race = stages.run(
        "candidates' race, default rules",
        &default_race,
        |r: &LoadoutsReport| reused_games(r.games),
        || loadouts::run(&default_race, factory, &one),
    )?;
    files.extend(output::write_loadouts(&candidate_race, &dir.join("variants").join("default-race"))?);
    let default_table = values
        .iter()
        .find(|v| v.settings.players == 4)
        .and_then(|v| v.tables.first())
        .ok_or_else(|| ResearchError::Settings("the 4-seat value table is missing".into()))?;
    let mut variants_out = Vec::new();
    for v in VARIANTS {
        let vr = (v.apply)(*rules);
        let vc = ValueConfig {
            players: 4,
            agents: vec![EXPERT.into()],
            focal: vec![EXPERT.into()],
            tokens: vr.enabled_tokens.iter().collect(),
            baseline: Baseline::Removed,
            deals: b.variant_value_deals,
            seed: cfg.seed,
            rules: vr,
        };
        let name = format!("variant {}: value", v.name());
        progress(Progress::Stage { name: &name, games: value::games(&vc) });
        let vt = stages.run(&name, &vc, |r: &ValueReport| reused_games(r.games), || value::run(&vc, factory, &one))?;
        let slug = format!("{}-{}", v.key, v.value);
        files.extend(output::write_value(&vt, &dir.join("variants").join(format!("{slug}-value")))?);
        let name = format!("variant {}: race", v.name());
        progress(Progress::Stage { name: &name, games: b.variant_race_games });
        let variant_race = race_cfg(vr);
        let vrace = stages.run(
            &name,
            &variant_race,
            |r: &LoadoutsReport| reused_games(r.games),
            || loadouts::run(&variant_race, factory, &one),
        )?;
        files.extend(output::write_loadouts(&vrace, &dir.join("variants").join(format!("{slug}-race")))?);
        let table = vt.tables[0].clone();
        variants_out.push((variants::compare(&v, default_table, &candidate_race, &table, &vrace), table, vrace));
    }
    Ok(Extended {
        interactions: inter,
        answers,
        draft_gain: gains,
        draft_gain_p_holm: gain_p,
        candidate_race,
        variants: variants_out,
    })
}

/// The draft advice ([`crate::answer`]): for each table size and agent, a race on the report's
/// seed (the 4-seat `expert` race is the loadout race already run), its leaders and the bots'
/// drafts as the shortlist, and the game among them on the confirmation seed.
#[allow(clippy::too_many_arguments)]
fn answers(
    cfg: &ReportConfig,
    b: &Budgets,
    rules: &RuleConfig,
    expert_race: &LoadoutsReport,
    factory: &dyn AgentBuilder<Kessel>,
    progress: &(dyn Fn(Progress<'_>) + Sync),
    dir: &Path,
    files: &mut Vec<String>,
    stages: &mut Stages,
) -> Result<Vec<Answer>, ResearchError> {
    let one = || progress(Progress::Games(1));
    let confirm = confirmation_seed(cfg.seed);
    let mut out = Vec::new();
    for players in [2u8, 4] {
        for (agent, slug) in [(cfg.policy.clone(), "policy"), (EXPERT.to_string(), "expert")] {
            let table_rules = RuleConfig { players, ..*rules };
            let race = if players == 4 && agent == EXPERT {
                expert_race.clone()
            } else {
                let lc = LoadoutsConfig {
                    players,
                    agents: vec![agent.clone()],
                    focal: agent.clone(),
                    loadouts: loadouts::all_loadouts(rules),
                    budget: b.answer_race_games,
                    delta: LOADOUT_DELTA,
                    seed: cfg.seed,
                    rules: *rules,
                };
                let name = format!("answer, {players} seats, {agent}: race");
                progress(Progress::Stage { name: &name, games: b.answer_race_games });
                measured(stages, &name, &lc, progress, || loadouts::run(&lc, factory, &one))?
            };
            let at = dir.join(format!("answer-{players}p-{slug}"));
            files.extend(output::write_loadouts(&race, &at.join("race"))?);
            // The shortlist: the race's leaders, the agent's present draft, `expert`'s and the
            // draft from before the research.
            let now = drafts_now(&agent, &table_rules)?;
            let mut present: Vec<TokenSet> = now.into_iter().collect();
            present.push(drafted(kessel::bots::draft::preference(players), &table_rules));
            present.push(drafted(&kessel::bots::draft::HAND_WRITTEN, &table_rules));
            let shortlist = candidates(&race, b.answer_candidates, &table_rules, &present)?;
            let name = format!("answer, {players} seats, {agent}: confirmation");
            let mut duel = None;
            let confirmation = if players == 2 {
                let mc = MetaConfig {
                    agent: agent.clone(),
                    candidates: shortlist,
                    deals_2p: b.answer_deals_2p,
                    resamples: b.resamples,
                    seed: confirm,
                    rules: *rules,
                };
                progress(Progress::Stage { name: &name, games: metagame::games(&mc) });
                let m = measured(stages, &name, &mc, progress, || metagame::run(&mc, factory, &one))?;
                files.extend(write_meta(&m, &at.join("metagame"))?);
                Confirmation::HeadsUp(m)
            } else {
                let fc = FieldConfig {
                    agent: agent.clone(),
                    candidates: shortlist.clone(),
                    players,
                    deals: b.answer_deals_field,
                    resamples: b.resamples,
                    seed: confirm,
                    rules: *rules,
                };
                progress(Progress::Stage { name: &name, games: field::games(&fc) });
                let f = measured(stages, &name, &fc, progress, || field::run(&fc, factory, &one))?;
                files.extend(write_field(&f, &at.join("field"))?);
                // The advised loadout against the strongest outside the equilibrium, head to
                // head on deals of their own (the rival was picked on the confirmation deals).
                let top = f.by_weight().first().map(|c| c.loadout.clone());
                let rival = f.rival().map(|c| c.loadout.clone());
                let set = |name: &str| shortlist.iter().copied().find(|&l| study::loadout_name(l) == name);
                if let (Some(a), Some(r)) = (top.as_deref().and_then(set), rival.as_deref().and_then(set)) {
                    let dc = DuelConfig {
                        agent: agent.clone(),
                        players,
                        advised: a,
                        rival: r,
                        field: f.support().filter_map(|c| set(&c.loadout).map(|l| (l, c.weight))).collect(),
                        deals: b.answer_duel_deals,
                        seed: duel_seed(cfg.seed),
                        rules: *rules,
                    };
                    let name = format!("answer, {players} seats, {agent}: duel");
                    progress(Progress::Stage { name: &name, games: duel::games(&dc) });
                    let d = measured(stages, &name, &dc, progress, || duel::run(&dc, factory, &one))?;
                    files.extend(write_duel(&d, &at.join("duel"))?);
                    duel = Some(d);
                }
                Confirmation::Field(f)
            };
            let now = now.map(study::loadout_name);
            out.push(Answer { players, agent, race, confirmation, duel, now });
        }
    }
    Ok(out)
}

fn draft_gain_markdown(gains: &[DraftGain], p_holm: &[f64]) -> String {
    let mut md = String::from(
        "# expert's draft against its old one (handdraft) under choose\n\n| seats | expert drafts | handdraft drafts | gain (pp) | 95% | Holm p |\n| ---: | --- | --- | ---: | --- | ---: |\n",
    );
    for (g, p) in gains.iter().zip(p_holm) {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | [{}, {}] | {} |",
            g.players,
            g.new_loadout,
            g.old_loadout,
            pp(g.gain.diff),
            pp(g.gain.low),
            pp(g.gain.high),
            output::p_value(*p)
        );
    }
    md
}

/// Markdown of one interaction regression.
pub fn interactions_markdown(r: &InteractionsReport) -> String {
    let mut md = format!(
        "# Token interactions at {} seats, `{}` in every seat\n\n{} games ({} seat-games), mean win share {:.3}; {} bootstrap resamples of the games; ridge λ = {}.\n\n",
        r.players,
        r.agent,
        r.games,
        r.games * r.players as u64,
        r.base_rate,
        r.resamples,
        r.ridge
    );
    md.push_str("## Main effects (log-odds against the average kind)\n\n| kind | coefficient | 95% | ≈ pp | Holm p |\n| --- | ---: | --- | ---: | ---: |\n");
    for e in &r.mains {
        let _ = writeln!(
            md,
            "| {} | {:+.3} | [{:+.3}, {:+.3}] | {:+.1} | {}{} |",
            e.label,
            e.coef,
            e.low,
            e.high,
            e.pp,
            output::p_value(e.p_holm),
            if e.significant() { " *" } else { "" }
        );
    }
    md.push_str("\n## Pair interactions, strongest first (synergy > 0 > anti-synergy)\n\n| pair | coefficient | 95% | ≈ pp | seat-games | Holm p |\n| --- | ---: | --- | ---: | ---: | ---: |\n");
    let mut pairs: Vec<&interactions::Effect> = r.pairs.iter().collect();
    pairs.sort_by(|a, b| a.p.total_cmp(&b.p).then(b.coef.abs().total_cmp(&a.coef.abs())));
    for e in pairs.iter().take(20) {
        let _ = writeln!(
            md,
            "| {} | {:+.3} | [{:+.3}, {:+.3}] | {:+.1} | {} | {}{} |",
            e.label,
            e.coef,
            e.low,
            e.high,
            e.pp,
            e.seat_games,
            output::p_value(e.p_holm),
            if e.significant() { " *" } else { "" }
        );
    }
    let _ = writeln!(
        md,
        "\n(The 20 pairs with the smallest p-values of {}; every pair is in interactions.json. `*`: Holm p ≤ 0.05.)\n",
        r.pairs.len()
    );
    md.push_str("## Loadouts the model predicts best\n\n| loadout | predicted win | 95% | observed | seat-games |\n| --- | ---: | --- | ---: | ---: |\n");
    for b in &r.best {
        let _ = writeln!(
            md,
            "| {} | {:.1}% | [{:.1}, {:.1}] | {:.1}% | {} |",
            b.loadout,
            100.0 * b.win,
            100.0 * b.low,
            100.0 * b.high,
            100.0 * b.observed,
            b.seat_games
        );
    }
    md.push_str("\nNotes:\n\n");
    for n in &r.notes {
        let _ = writeln!(md, "- {n}");
    }
    md
}

fn write_interactions(r: &InteractionsReport, dir: &Path) -> Result<Vec<String>, ResearchError> {
    let mut rows: Vec<ChartRow> = r
        .mains
        .iter()
        .map(|e| ChartRow { label: e.label.clone(), points: vec![Some((e.coef, e.low, e.high))] })
        .collect();
    let mut pairs: Vec<&interactions::Effect> = r.pairs.iter().collect();
    pairs.sort_by(|a, b| a.p.total_cmp(&b.p));
    rows.extend(
        pairs.iter().take(10).map(|e| ChartRow { label: e.label.clone(), points: vec![Some((e.coef, e.low, e.high))] }),
    );
    let title = format!("Main effects and the strongest pair interactions, {} seats, {}", r.players, r.agent);
    output::write_study(dir, "interactions", r, &interactions_markdown(r), |p| {
        output::interval_chart(p, &title, "log-odds of winning (bootstrap 95%)", &["coefficient".into()], &rows)
    })
}

/// Markdown of a heads-up drafting game.
pub fn meta_markdown(m: &MetaReport) -> String {
    let mut md = format!(
        "# Heads-up drafting among the race's leaders, `{}` in every seat\n\n## Heads-up payoffs (win rate of the row minus 50%, pp; {} deals per pair, both seatings)\n\n| | ",
        m.agent, m.deals_2p
    );
    let k = m.candidates.len();
    md.push_str(&(1..=k).map(|i| format!("{i}")).collect::<Vec<_>>().join(" | "));
    md.push_str(" |\n| --- |");
    md.push_str(&" ---: |".repeat(k));
    md.push('\n');
    for (a, c) in m.candidates.iter().enumerate() {
        let _ = write!(md, "| {} {} |", a + 1, c.loadout);
        for b in 0..k {
            if a == b {
                md.push_str(" – |");
            } else {
                let _ = write!(md, " {:+.1} ±{:.1} |", 100.0 * m.payoff[a][b], 100.0 * m.payoff_half[a][b]);
            }
        }
        md.push('\n');
    }
    let _ = writeln!(
        md,
        "\n## Equilibrium (fictitious play; exploitability {:.2} pp)\n\n| loadout | Nash weight | in support (bootstrap) | mean payoff (pp) | against the equilibrium (pp) |\n| --- | ---: | ---: | ---: | ---: |",
        100.0 * m.exploitability
    );
    for c in m.by_weight() {
        let _ = writeln!(
            md,
            "| {} | {:.3} | {:.0}% | {:+.1} | {:+.2} |",
            c.loadout,
            c.nash,
            100.0 * c.support_rate,
            100.0 * c.mean_payoff,
            100.0 * c.vs_nash
        );
    }
    md.push_str("\nNotes:\n\n");
    for n in &m.notes {
        let _ = writeln!(md, "- {n}");
    }
    md
}

fn write_meta(m: &MetaReport, dir: &Path) -> Result<Vec<String>, ResearchError> {
    let rows: Vec<ChartRow> = m
        .by_weight()
        .iter()
        .map(|c| ChartRow {
            label: c.loadout.clone(),
            points: vec![
                Some((100.0 * c.nash, 100.0 * c.nash, 100.0 * c.nash)),
                Some((100.0 * c.support_rate, 100.0 * c.support_rate, 100.0 * c.support_rate)),
            ],
        })
        .collect();
    output::write_study(dir, "metagame", m, &meta_markdown(m), |p| {
        output::interval_chart(
            p,
            "Heads-up drafting among the race's leaders",
            "percent",
            &["Nash weight".into(), "in the support of bootstrap equilibria".into()],
            &rows,
        )
    })
}

fn write_duel(d: &DuelReport, dir: &Path) -> Result<Vec<String>, ResearchError> {
    let rows = vec![ChartRow {
        label: format!("{} in place of {}", d.rival, d.advised),
        points: vec![Some((100.0 * d.gain.mean, 100.0 * d.gain.low, 100.0 * d.gain.high))],
    }];
    output::write_study(dir, "duel", d, &duel::markdown(d), |p| {
        output::interval_chart(
            p,
            &format!("{}-seat duel: the strongest alternative in the advised loadout's place", d.players),
            "win share of the seat, rival minus advised (pp, paired 95%)",
            &["gain".into()],
            &rows,
        )
    })
}

fn write_field(f: &FieldReport, dir: &Path) -> Result<Vec<String>, ResearchError> {
    let rows: Vec<ChartRow> = f
        .by_weight()
        .iter()
        .map(|c| ChartRow {
            label: c.loadout.clone(),
            points: vec![Some((100.0 * c.gain, 100.0 * c.gain_low, 100.0 * c.gain_high))],
        })
        .collect();
    output::write_study(dir, "field", f, &field::markdown(f), |p| {
        output::interval_chart(
            p,
            &format!("{}-seat drafting: each loadout against the equilibrium table", f.players),
            "win share of one seat drafting it minus the table's mean (pp, bootstrap 95%)",
            &["gain".into()],
            &rows,
        )
    })
}

/// The rule variants' section: one value column per variant and the candidates' races.
fn variants_markdown(md: &mut String, r: &Report) {
    let _ = writeln!(
        md,
        "Each K9 alternative that touches tokens, with everything else at its default: the value table at 4 seats (`expert` in self-play, baseline removed) and a race among the 4-seat race's {} leaders and the bots' drafts (successive elimination, δ = {}), beside the default rules' table and the same race under the default rules. Value in pp with `*` for Holm p ≤ 0.05 within its table; `Δ*`: the change from the default is significant (Welch, Holm over the tokens).\n",
        r.candidate_race.ranking.len(),
        LOADOUT_DELTA
    );
    let Some((first, _, _)) = r.variants.first() else { return };
    // A table's header: its two first columns, then one per variant.
    let header = |md: &mut String, first: &str, default: &str| {
        let _ = write!(md, "| {first} | {default} |");
        for (c, _, _) in &r.variants {
            let _ = write!(md, " {} |", c.variant);
        }
        md.push_str("\n| --- | ---: |");
        md.push_str(&" ---: |".repeat(r.variants.len()));
        md.push('\n');
    };
    header(md, "token", "default");
    let default4 = r.value.iter().find(|v| v.settings.players == 4).and_then(|v| v.tables.first());
    for shift in &first.values {
        let star = |t: Option<&crate::value::FocalTable>| {
            t.and_then(|t| t.rows.iter().find(|x| x.token == shift.token))
                .map(|x| format!("{}{}", pp(x.win.diff), if x.win_p_holm <= crate::stats::ALPHA { "*" } else { "" }))
                .unwrap_or_else(|| "–".into())
        };
        let _ = write!(md, "| {} | {} |", shift.token, star(default4));
        for (c, t, _) in &r.variants {
            let changed = c.values.iter().any(|v| v.token == shift.token && v.p_holm <= crate::stats::ALPHA);
            let _ = write!(md, " {}{} |", star(Some(t)), if changed { " Δ*" } else { "" });
        }
        md.push('\n');
    }
    md.push('\n');
    header(md, "candidate", "default rules");
    let cell = |race: &LoadoutsReport, l: &str| {
        race.ranking
            .iter()
            .find(|x| x.loadout == l)
            .map(|x| {
                format!(
                    "{:.1}% (rank {}{})",
                    100.0 * x.win_rate,
                    x.rank,
                    if x.eliminated_in_round.is_some() { ", out" } else { "" }
                )
            })
            .unwrap_or_else(|| "–".into())
    };
    for row in &r.candidate_race.ranking {
        let _ = write!(md, "| {} | {} |", row.loadout, cell(&r.candidate_race, &row.loadout));
        for (_, _, race) in &r.variants {
            let _ = write!(md, " {} |", cell(race, &row.loadout));
        }
        md.push('\n');
    }
    md.push_str("\n(`out`: eliminated by the race; the others survived it, holding the best candidate with probability at least 0.95.)\n");
}

fn performance(started: Instant, games: u64) -> Performance {
    let seconds = started.elapsed().as_secs_f64();
    Performance { seconds, games_per_second: games as f64 / seconds.max(1e-9), threads: rayon::current_num_threads() }
}

/// The chart of value against the number of players: one row per token, one series per size.
fn write_by_players(tables: &[(u8, crate::value::FocalTable)], dir: &Path) -> Result<Vec<String>, ResearchError> {
    let series: Vec<String> = tables.iter().map(|(p, _)| format!("{p} seats")).collect();
    let tokens: Vec<kessel::Token> =
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

/// A table of one row per token and one column per value table (headed `label`), each cell
/// written by `cell` from the column's table size and the token's row ("–" where a table lacks
/// the token).
fn token_table(
    md: &mut String,
    columns: &[(String, u8, &crate::value::FocalTable)],
    cell: impl Fn(u8, &crate::value::TokenValue) -> String,
) {
    md.push_str("| token |");
    for (label, _, _) in columns {
        let _ = write!(md, " {label} |");
    }
    md.push_str("\n| --- |");
    md.push_str(&" ---: |".repeat(columns.len()));
    md.push('\n');
    let tokens: Vec<kessel::Token> =
        columns.first().map(|t| t.2.rows.iter().map(|r| r.token).collect()).unwrap_or_default();
    for tok in tokens {
        let _ = write!(md, "| {tok} |");
        for (_, p, t) in columns {
            match t.rows.iter().find(|r| r.token == tok) {
                Some(r) => {
                    let _ = write!(md, " {} |", cell(*p, r));
                }
                None => md.push_str(" – |"),
            }
        }
        md.push('\n');
    }
}

/// A value with its interval and `*` for Holm p ≤ 0.05 within its table.
fn value_cell(r: &crate::value::TokenValue) -> String {
    let star = if r.win_p_holm <= crate::stats::ALPHA { "*" } else { "" };
    format!("{} [{}, {}]{star}", pp(r.win.diff), pp(r.win.low), pp(r.win.high))
}

/// The value-against-stack section: one row per token, one column per starting stack, then the
/// same values as shares of each table's baseline.
fn by_stack_markdown(md: &mut String, tables: &[(u16, crate::value::FocalTable)]) {
    md.push_str("\n## Value against the starting stack\n\n");
    let _ = writeln!(
        md,
        "`expert` in self-play at 4 seats, every player starting with the stack named (the rules' default is 6 \
         chips): win difference (pp) with its paired 95% interval; `*`: Holm p ≤ 0.05 within that table. {} deals \
         per token.\n",
        tables.first().and_then(|(_, t)| t.rows.first()).map_or(0, |r| r.deals)
    );
    let columns: Vec<(String, u8, &crate::value::FocalTable)> =
        tables.iter().map(|(c, t)| (format!("{c} chips"), 4, t)).collect();
    token_table(md, &columns, |_, r| value_cell(r));
    md.push_str("\nThe same values as shares of the baseline arm's win share at that stack:\n\n");
    token_table(md, &columns, |_, r| {
        if r.win.mean_b > 0.0 { format!("{:+.0}%", 100.0 * r.win.diff / r.win.mean_b) } else { "–".into() }
    });
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
    md.push_str(".\n\n");
    let columns: Vec<(String, u8, &crate::value::FocalTable)> =
        tables.iter().map(|(p, t)| (format!("{p} seats"), *p, t)).collect();
    token_table(md, &columns, |_, r| value_cell(r));
    md.push_str(
        "\nThe same values as a share of each table's even share (win difference × seats: a point of win share is \
         a larger part of what a seat can expect at eight seats than at two):\n\n",
    );
    token_table(md, &columns, |p, r| crate::output::of_even_share(&r.win, p));
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
                "{} {} [{}, {}] ({}; rank {})",
                v.token,
                pp(v.win.diff),
                pp(v.win.low),
                pp(v.win.high),
                of_baseline(&v.win),
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

fn interaction_findings(md: &mut String, r: &InteractionsReport) {
    let show = |e: &interactions::Effect| {
        format!("{} {:+.2} [{:+.2}, {:+.2}] (≈{:+.1} pp)", e.label, e.coef, e.low, e.high, e.pp)
    };
    let above: Vec<String> = r.mains.iter().filter(|e| e.significant() && e.coef > 0.0).map(show).collect();
    let below: Vec<String> = r.mains.iter().filter(|e| e.significant() && e.coef < 0.0).map(show).collect();
    let syn: Vec<String> = r.synergies().into_iter().map(show).collect();
    let anti: Vec<String> = r.anti_synergies().into_iter().map(show).collect();
    let none = |v: &[String]| if v.is_empty() { "none".to_string() } else { v.join(", ") };
    let best = r
        .best
        .first()
        .map(|b| format!("{} ({:.1}% [{:.1}, {:.1}])", b.loadout, 100.0 * b.win, 100.0 * b.low, 100.0 * b.high))
        .unwrap_or_else(|| "–".into());
    let _ = writeln!(
        md,
        "- **Interactions, {} seats, `{}` in every seat** ({} games, every seat a random loadout; log-odds, bootstrap \
         95% over games, Holm over the {} kinds and over the {} pairs): kinds better than the average kind {}; worse {}. \
         **Synergies** {}; **anti-synergies** {}. The loadout the model predicts best: {}.",
        r.players,
        r.agent,
        r.games,
        r.mains.len(),
        r.pairs.len(),
        none(&above),
        none(&below),
        none(&syn),
        none(&anti),
        best
    );
}

/// A win difference as a share of the baseline arm's win share: a point of win share is a larger
/// part of what a seat expects at eight seats than at two.
fn of_baseline(w: &eval::paired::Paired) -> String {
    if w.mean_b > 0.0 {
        format!("{:+.0}% of the baseline's {:.1}%", 100.0 * w.diff / w.mean_b, 100.0 * w.mean_b)
    } else {
        "baseline 0%".to_string()
    }
}

/// The agent as the document names it.
fn agent_label(agent: &str) -> String {
    format!("`{agent}`")
}

/// Each answer's evidence: its race (selection seed) and its confirming game (confirmation seed),
/// then the draft gains.
fn answer_details(md: &mut String, r: &Report) {
    for a in &r.answers {
        let Some(adv) = a.advice() else { continue };
        let race = &a.race;
        let separated = if race.survivors == 1 {
            "stopped with one loadout left".to_string()
        } else {
            format!("could not separate its leaders: {} of {} loadouts survive", race.survivors, race.ranking.len())
        };
        let _ = writeln!(
            md,
            "- **Drafting, {} seats, {}**: the race on seed {} ({} games) {separated}; its leaders by win share and \
             the bots' drafts ({} candidates) were played against each other on seed {} ({} deals {}). The equilibrium's \
             heaviest loadout is {}: {}.",
            a.players,
            agent_label(&a.agent),
            race.settings.seed,
            race.games,
            adv.candidates,
            adv.seed,
            adv.deals,
            if a.players == 2 { "per pair, both seatings" } else { "per profile" },
            adv.loadout,
            adv.how_sure()
        );
    }
    for (g, p) in r.draft_gain.iter().zip(&r.draft_gain_p_holm) {
        let _ = writeln!(
            md,
            "- **`expert`'s draft against its old one, {} seats** (`choose`; `expert` drafts {}, `handdraft` {}; {} paired \
             deals): one `expert` seat wins {} pp [{}, {}] more than `handdraft` in it (Holm p {} over the two table sizes){}.",
            g.players,
            g.new_loadout,
            g.old_loadout,
            g.gain.n,
            pp(g.gain.diff),
            pp(g.gain.low),
            pp(g.gain.high),
            output::p_value(*p),
            if *p <= crate::stats::ALPHA { "" } else { ": not significant" }
        );
    }
}

fn variant_findings(md: &mut String, r: &Report) {
    let mut robust_top = 0;
    for (c, _, _) in &r.variants {
        let changed: Vec<String> =
            c.changed().iter().map(|v| format!("{} {} → {}", v.token, pp(v.default), pp(v.variant))).collect();
        let names = |v: &[kessel::Token]| v.iter().map(|t| t.name()).collect::<Vec<_>>().join(", ");
        if c.same_top() {
            robust_top += 1;
        }
        let _ = writeln!(
            md,
            "- **Rule variant `{}`** ({}): top three kinds {} ({}); rank correlation with the default table {}; \
             {} of 16 kinds worth more than not playing them (default {}); values changed significantly (Welch, Holm \
             over the tokens) for {}. Race among the candidates: leader {} (default rules: {}), the default leader {}.",
            c.variant,
            c.rule,
            if c.same_top() { "unchanged" } else { "changed" },
            names(&c.top_variant),
            c.spearman.map_or("undefined".to_string(), |s| format!("{s:+.2}")),
            c.positive_variant,
            c.positive_default,
            if changed.is_empty() { "no kind".to_string() } else { changed.join(", ") },
            c.leader_variant,
            c.leader_default,
            if c.default_leader_survives { "survives" } else { "is eliminated" }
        );
    }
    if !r.variants.is_empty() {
        let survives = r.variants.iter().filter(|(c, _, _)| c.default_leader_survives).count();
        let _ = writeln!(
            md,
            "- **Robustness**: the top three kinds hold under {robust_top} of {} variants; the default rules' leading \
             candidate loadout survives the race under {survives} of {}.",
            r.variants.len(),
            r.variants.len()
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
            "  - `{}` chose the best-rated option (hold, or which token) at {:.0}% [{:.0}, {:.0}] of its {} positions; \
             choosing uniformly would reach {:.0}%, always holding {:.0}%.",
            a.agent,
            100.0 * a.rate,
            100.0 * a.low,
            100.0 * a.high,
            a.positions,
            100.0 * a.chance,
            100.0 * a.always_hold
        );
    }
}

/// The table advice is read from: the last table in self-play (the policy's: a table of equally
/// strong players), else the first table.
fn play_table(v: &ValueReport) -> Option<&crate::value::FocalTable> {
    v.tables.iter().rev().find(|t| t.self_play()).or(v.tables.first())
}

/// The answer first: one table per table size, what to draft (in each agent's hands), which
/// tokens to play at once and which to hold, which are worth most, each with what it rests on and
/// how sure it is.
fn the_answer(md: &mut String, cfg: &ReportConfig, r: &Report) {
    md.push_str("## The answer\n\n");
    let _ = writeln!(
        md,
        "Each draft is chosen on seed {} (a race over every loadout at that table size, the agent in every seat) \
         and decided on seed {}, on deals the choice never saw: the equilibrium of the game among the race's \
         leaders, the agent's present draft and the bots' own drafts. At 4 seats the advised draft then meets the \
         strongest loadout outside the equilibrium head to head, one seat drafting either on the same deals (seed {}). \
         Timing and value rows keep only what survives Holm's correction over \
         the table's 16 tokens; a token not named is undecided at these budgets. Win shares are in percentage \
         points (pp).\n",
        cfg.seed,
        confirmation_seed(cfg.seed),
        duel_seed(cfg.seed)
    );
    for players in [2u8, 4] {
        let _ = writeln!(
            md,
            "### {players} seats\n\n| question | answer | rests on | how sure |\n| --- | --- | --- | --- |"
        );
        for a in r.answers.iter().filter(|a| a.players == players) {
            let Some(adv) = a.advice() else { continue };
            let game = if players == 2 {
                format!(
                    "the heads-up game among {} candidates, {} deals per pair (the heaviest's opponent's win rate minus 50%)",
                    adv.candidates, adv.deals
                )
            } else {
                format!(
                    "the {players}-seat game among {} candidates, {} deals per profile (a seat's gain against the equilibrium table)",
                    adv.candidates, adv.deals
                )
            };
            let _ = writeln!(
                md,
                "| Draft, in the hands of {} | {} | {game}, {} in every seat | {} |",
                agent_label(&a.agent),
                adv.draft(),
                agent_label(&a.agent),
                adv.how_sure()
            );
        }
        if let Some(t) = r.timing.iter().find(|t| t.players == players) {
            let list = |keep: &dyn Fn(&crate::timing_report::TokenTiming) -> bool| -> String {
                let v: Vec<String> = t
                    .tokens
                    .iter()
                    .filter(|x| keep(x))
                    .map(|x| format!("{} ({:+.1} pp)", x.token, 100.0 * x.win_advantage.mean))
                    .collect();
                if v.is_empty() { "none decided".to_string() } else { v.join(", ") }
            };
            let mut lineup: Vec<String> = Vec::new();
            for a in &t.lineup {
                if !lineup.contains(a) {
                    lineup.push(a.clone());
                }
            }
            let rests = format!(
                "{} positions from games of {}, {} rollouts per branch, hidden cards resampled from the player's view",
                t.positions,
                lineup.iter().map(|a| agent_label(a)).collect::<Vec<_>>().join(" and "),
                t.continuations
            );
            let _ = writeln!(
                md,
                "| Play at once | {} | {rests} | each Holm p ≤ 0.05, the win share of playing now minus holding |",
                list(&|x| x.now_is_better())
            );
            let _ =
                writeln!(md, "| Hold | {} | the same positions | each Holm p ≤ 0.05 |", list(&|x| x.hold_is_better()));
        }
        if let Some(t) = r.value.iter().find(|v| v.settings.players == players).and_then(play_table) {
            let mut rows: Vec<_> = t.rows.iter().collect();
            rows.sort_by(|a, b| b.win.diff.total_cmp(&a.win.diff));
            let top: Vec<String> = rows
                .iter()
                .take(3)
                .map(|v| format!("{} {} pp ({})", v.token, pp(v.win.diff), of_baseline(&v.win)))
                .collect();
            let ranks: Vec<String> = rows
                .iter()
                .take(3)
                .map(|v| format!("{} {}", v.token, v.rank.map_or("–".into(), crate::output::rank_interval)))
                .collect();
            let _ = writeln!(
                md,
                "| Worth most to hold and play | {} | the value table of {}, {} deals per token (holding it against \
                 holding it unplayable) | rank intervals (bootstrap 95%): {} |",
                top.join(", "),
                t.label(),
                rows.first().map_or(0, |v| v.deals),
                ranks.join(", ")
            );
        }
        md.push('\n');
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
        cfg.scale.flag(),
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
        "- **Seeds**: base seed {} for every study that chooses (the value tables, the loadout races, the timing \
         positions) and confirmation seed {} for every study that measures what another chose (the drafting games \
         among the races' leaders, the drafts against `handdraft`, the candidates' races under the rule variants), and \
         duel seed {} for the 4-seat duels of the advised draft against the rival the drafting game picked, so no \
         choice is confirmed on the deals that made it; each deal, agent and rollout seed is derived from these and \
         the game's index, so the figures do not depend on the thread count ({} worker threads here).",
        cfg.seed,
        confirmation_seed(cfg.seed),
        duel_seed(cfg.seed),
        rayon::current_num_threads()
    );
    let _ = writeln!(
        md,
        "- **Budgets** ({}): value {} deals per token for `expert` (at 2, 3, 4, 6 and 8 seats, and at 4 seats from 3 and 12 starting chips), {} for the policy (against `expert` and in \
         self-play), {} for `{SEARCH}` (against `expert`, and heads-up in self-play); loadouts {} games at δ = {}; timing {} source games with {} rollouts per \
         branch; draft {} deals; rank bootstrap {} resamples of the deals; interactions {} games (`expert`, 4 seats), {} \
         (`expert`, 2 seats), {} (the policy, 4 seats), {} bootstrap resamples; drafting: races of {} games \
         (the 4-seat `expert` one is the loadout race), their {} leaders plus the bots' own drafts, {} deals per \
         heads-up pair, {} per 4-seat profile, {} bootstrap resamples, {} paired deals per 4-seat duel; rule variants' races among the 4-seat race's {} \
         leaders; expert's draft against handdraft's {} deals per table size; rule variants {} deals per token and {} race games each.",
        cfg.scale.name(),
        b.value_deals,
        b.value_deals_policy,
        b.value_deals_search,
        b.loadout_games,
        r.loadouts.settings.delta,
        b.timing_games,
        b.continuations,
        b.draft_deals,
        value::RANK_RESAMPLES,
        b.interaction_games,
        b.interaction_games_2p,
        b.interaction_games_policy,
        b.resamples,
        b.answer_race_games,
        b.answer_candidates,
        b.answer_deals_2p,
        b.answer_deals_field,
        b.resamples,
        b.answer_duel_deals,
        b.meta_candidates,
        b.draft_gain_deals,
        b.variant_value_deals,
        b.variant_race_games
    );
    let _ = writeln!(
        md,
        "- **Wall time**: {:.1} minutes for this report on {} worker threads; `--quick` is sized to finish in under 5 \
         minutes and the full report in under 90 minutes on 2 cores (see BENCHMARKS.md).",
        r.seconds / 60.0,
        rayon::current_num_threads()
    );
}

/// Every study's findings in one list (the appendix after the method).
fn details_by_study(r: &Report) -> String {
    let mut md = String::new();
    for v in &r.value {
        value_findings(&mut md, v);
    }
    let best: Vec<String> = r
        .by_players
        .iter()
        .filter_map(|(p, t)| {
            t.rows.iter().max_by(|a, b| a.win.diff.total_cmp(&b.win.diff)).map(|v| {
                format!(
                    "{p} seats {} {} ({:+.0}% of an even share)",
                    v.token,
                    pp(v.win.diff),
                    100.0 * f64::from(*p) * v.win.diff
                )
            })
        })
        .collect();
    let _ = writeln!(
        md,
        "- **Value against the number of players** (`expert` in self-play, 2 to 8 seats): the most valuable token is {}; \
         the full table and chart are under \"Value against the number of players\".",
        best.join("; ")
    );
    let by_stack: Vec<String> = r
        .by_stack
        .iter()
        .filter_map(|(c, t)| {
            let mut rows: Vec<_> = t.rows.iter().collect();
            rows.sort_by(|a, b| b.win.diff.total_cmp(&a.win.diff));
            let top: Vec<String> = rows
                .iter()
                .take(3)
                .map(|v| format!("{} {} ({})", v.token, pp(v.win.diff), of_baseline(&v.win)))
                .collect();
            (!top.is_empty()).then(|| format!("{c} chips: {}", top.join(", ")))
        })
        .collect();
    let _ = writeln!(
        md,
        "- **Value against the starting stack** (`expert` in self-play, 4 seats): the three most valuable tokens \
         from {}; the full table is under \"Value against the starting stack\".",
        by_stack.join("; from ")
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
        let names = |v: &[kessel::Token]| v.iter().map(|t| t.name()).collect::<Vec<_>>().join(", ");
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
    for i in &r.interactions {
        interaction_findings(&mut md, i);
    }
    answer_details(&mut md, r);
    variant_findings(&mut md, r);
    md
}

/// At most a screen of findings: whether the agents agree on the drafts, whether the races could
/// separate their leaders, what the researched draft gains, and how robust the leaders are.
fn findings(md: &mut String, r: &Report) {
    md.push_str("## Findings\n\n");
    for players in [2u8, 4] {
        let advice: Vec<(String, crate::answer::Advice)> = r
            .answers
            .iter()
            .filter(|a| a.players == players)
            .filter_map(|a| a.advice().map(|v| (agent_label(&a.agent), v)))
            .collect();
        if advice.len() < 2 {
            continue;
        }
        let same = advice.windows(2).all(|w| w[0].1.loadout == w[1].1.loadout);
        let _ = writeln!(
            md,
            "- **{players} seats: the agents {}** on the draft: {}.",
            if same { "agree" } else { "disagree" },
            advice.iter().map(|(a, v)| format!("{a} {}", v.loadout)).collect::<Vec<_>>().join(", ")
        );
    }
    let races: Vec<String> = r
        .answers
        .iter()
        .map(|a| {
            format!("{} seats {} {} of {}", a.players, agent_label(&a.agent), a.race.survivors, a.race.ranking.len())
        })
        .collect();
    let _ = writeln!(
        md,
        "- **The races choose, they do not decide**: loadouts left when each race's budget ran out: {}. A race \
         keeps the best loadout with probability 0.95 but ranks its survivors only by win share, which is why the \
         drafts are decided on fresh deals among a shortlist.",
        races.join("; ")
    );
    for (g, p) in r.draft_gain.iter().zip(&r.draft_gain_p_holm) {
        let _ = writeln!(
            md,
            "- **`expert`'s draft ({}) against its hand-written one, {} seats**: {} pp [{}, {}] for the seat that drafts \
             it{} (against `handdraft`, a weak baseline: see the drafting details for the strongest alternative).",
            g.new_loadout,
            g.players,
            pp(g.gain.diff),
            pp(g.gain.low),
            pp(g.gain.high),
            if *p <= crate::stats::ALPHA { "" } else { ", not significant" }
        );
    }
    if !r.variants.is_empty() {
        let survives = r.variants.iter().filter(|(c, _, _)| c.default_leader_survives).count();
        let top = r.variants.iter().filter(|(c, _, _)| c.same_top()).count();
        let _ = writeln!(
            md,
            "- **Rule variants** (K9, `expert` at 4 seats): the top three kinds hold under {top} of {n}; the default \
             rules' leading candidate survives the race under {survives} of {n}.",
            n = r.variants.len()
        );
    }
}

/// The whole document.
pub fn document(cfg: &ReportConfig, r: &Report) -> String {
    let games: u64 = r.value.iter().map(|v| v.games).sum::<u64>()
        + r.loadouts.games
        + r.timing.iter().map(|t| t.games + t.rollout_games).sum::<u64>()
        + r.draft.games
        + r.interactions.iter().map(|i| i.games).sum::<u64>()
        + r.answers
            .iter()
            .map(|a| if a.players == 4 && a.agent == EXPERT { a.games() - a.race.games } else { a.games() })
            .sum::<u64>()
        + r.draft_gain.iter().map(|g| 2 * g.gain.n).sum::<u64>()
        + r.candidate_race.games
        + r.variants
            .iter()
            .map(|(_, t, race)| race.games + t.rows.iter().map(|x| 2 * x.deals).sum::<u64>())
            .sum::<u64>()
        + r.by_players
            .iter()
            .filter(|(p, _)| !r.value.iter().any(|v| v.settings.players == *p))
            .map(|(_, t)| t.rows.iter().map(|x| 2 * x.deals).sum::<u64>())
            .sum::<u64>();
    let mut md = String::new();
    md.push_str(
        "# Token research: what Shift Tokens are worth, which loadouts win, which work together, how to draft, when \
         to play them\n\n",
    );
    let _ = writeln!(
        md,
        "Generated by `sabacc tokens report --out {}{}` (seed {}): {} games in {:.1} minutes on {} worker \
         thread(s). The studies' tables, JSON and charts are in [`token-research/`](token-research/).\n",
        cfg.out.display(),
        cfg.scale.flag(),
        cfg.seed,
        games,
        r.seconds / 60.0,
        rayon::current_num_threads()
    );
    let (reused, studies) = &r.resumed;
    if !reused.is_empty() {
        let _ = writeln!(
            md,
            "Resumed after a stop: {} of its {studies} studies were taken from the stopped run of the same commit, \
             policy, budgets and seed (their time is included above).\n",
            reused.len()
        );
    }
    the_answer(&mut md, cfg, r);
    findings(&mut md, r);
    let details = details_by_study(r);

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
         advantage is the win share of playing now (at its best target, chosen on half the continuations and measured on the other half) minus that of holding; the unit is the \
         position, and the per-token tests are Holm-corrected over the table's tokens.\n\
         - **Draft**: games under `token_assignment = \"choose\"` (K2.1); what each agent picks, beside what its \
         value table ranks highest.\n\
         - **Interactions**: games in which every seat holds a uniformly random loadout (three distinct kinds, drawn \
         independently per seat) and one agent plays every seat; a ridge-penalised logistic regression (λ = 1, \
         Newton's method on one row per loadout) of each seat's win share on the kinds' indicators and every pair's \
         indicator. Coefficients are reported in the one canonical form of the fitted model: main effects sum to 0 \
         (a kind against the average kind) and each kind's interactions sum to 0 over its partners (a pair against \
         what its two main effects predict). Intervals: percentile bootstrap over games (the unit: the seats of a \
         game are dependent); p-values: Wald with the bootstrap standard error, Holm-corrected over the 16 kinds and \
         separately over the 120 pairs (family-wise error rate 5% each).\n\
         - **Drafting** (the answer's drafts): for each table size and agent, a race over every loadout (the agent \
         in every seat) on the report's seed, its leaders by win share plus the agent's present draft (`expert`'s \
         preference list, a checkpoint's opening book) and the bots' drafts as a shortlist, and the \
         game among the shortlist on the confirmation seed. Heads-up, each pair plays the same deals with both \
         seatings; the payoff, win rate minus one half, makes a symmetric zero-sum game solved by fictitious play. At \
         four seats every profile (a multiset of four candidates) plays the same deals with its seats rotated, and a \
         symmetric equilibrium (each seat drafting independently from one mix) is found by replicator dynamics, \
         its regret stated; each candidate's gain against the equilibrium table carries a bootstrap interval and a \
         Holm-corrected bootstrap test, so an equilibrium a candidate invades significantly is reported as not \
         settled. The bootstrap over deals (the same deals for every cell) says how often each loadout stays in the \
         equilibrium (weight ≥ 2%). At four seats the equilibrium's heaviest loadout then meets the candidate \
         outside the equilibrium with the largest gain in a duel on the duel seed: on each deal one seat (rotating) \
         drafts either, the same deal, agents' seeds and other seats (drawn from the equilibrium mix) in both arms, \
         and the paired difference of that seat's win share carries a Student-t interval over the deals.\n\
         - **Draft gain**: `expert` drafts by a preference taken from this evidence \
         (crates/games/kessel/src/bots/draft.rs); `handdraft` is `expert` with its hand-written list from before the \
         research. Under `choose`, each deal is played with one seat (rotating) taken by `expert` and again by \
         `handdraft`, the others `handdraft` in both; the paired difference of that seat's win share is the gain, \
         Holm-corrected over the two table sizes.\n\
         - **Rule variants**: each K9 alternative that touches tokens (`tax_token_chips = victim-hand-pot`, \
         `refund_source = lost-chips`, `embezzlement = stock`) re-runs the 4-seat value table of `expert` in \
         self-play and a race among the 4-seat race's leaders and the bots' drafts; each token's value is compared with the default \
         rules' by Welch's test, Holm-corrected over the tokens.\n",
    );

    reproducibility(&mut md, cfg, r);

    md.push_str("\n## Details by study\n\n");
    md.push_str(&details);

    md.push_str("\n## Value\n\n");
    for v in &r.value {
        let p = v.settings.players;
        md.push_str(&demote(&output::value_markdown(v), 2));
        let _ = writeln!(md, "\n\n![Token value at {p} seats](token-research/value-{p}p/value.png)\n");
    }
    by_players_markdown(&mut md, &r.by_players);
    by_stack_markdown(&mut md, &r.by_stack);
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

    md.push_str("\n## Interactions\n\n");
    for i in &r.interactions {
        md.push_str(&demote(&interactions_markdown(i), 2));
        let stem = if i.agent == EXPERT {
            format!("interactions-{}p", i.players)
        } else {
            format!("interactions-{}p-policy", i.players)
        };
        let _ = writeln!(
            md,
            "\n![Interactions at {} seats, {}](token-research/{stem}/interactions.png)\n",
            i.players, i.agent
        );
    }
    md.push_str("\n## Drafting: the answers' games\n\n");
    for a in &r.answers {
        let stem = format!("answer-{}p-{}", a.players, if a.agent == EXPERT { "expert" } else { "policy" });
        match &a.confirmation {
            Confirmation::HeadsUp(m) => {
                md.push_str(&demote(&meta_markdown(m), 2));
                let _ =
                    writeln!(md, "\n![Heads-up drafting, {}](token-research/{stem}/metagame/metagame.png)\n", a.agent);
            }
            Confirmation::Field(f) => {
                md.push_str(&demote(&field::markdown(f), 2));
                let _ = writeln!(
                    md,
                    "\n![{}-seat drafting, {}](token-research/{stem}/field/field.png)\n",
                    a.players, a.agent
                );
            }
        }
        if let Some(d) = &a.duel {
            md.push_str(&demote(&duel::markdown(d), 2));
            let _ = writeln!(md, "\n![{}-seat duel, {}](token-research/{stem}/duel/duel.png)\n", a.players, a.agent);
        }
        let _ = writeln!(
            md,
            "The race the candidates came from: [`token-research/{stem}/race/`](token-research/{stem}/race/loadouts.md) \
             ({} games, seed {}).\n",
            a.race.games, a.race.settings.seed
        );
    }
    md.push_str(&demote(&draft_gain_markdown(&r.draft_gain, &r.draft_gain_p_holm), 2));
    md.push_str("\n\n![expert's draft against its old one](token-research/draft-gain/draft-gain.png)\n");
    md.push_str("\n## Rule variants\n\n");
    variants_markdown(&mut md, r);

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
         descriptive and uncorrected; so are the drafting games' equilibrium weights (an estimate with bootstrap support \
         rates, not a test). The interaction regression is corrected over its kinds and separately over its pairs, \
         the drafting games' gains over their candidates, the draft gain over the two table sizes, the \
         variants' value changes over the tokens.\n\
         - The interaction model is additive in log-odds plus pairs: three-way effects (the loadout as a whole) are \
         left in its residual, and the fit is quasi-binomial on win shares (a shared win counts a fraction).\n\
         - The drafting games' strategies are a shortlist chosen by a race, played by one agent in every seat: an \
         equilibrium among them is not an equilibrium of the whole draft (560 loadouts, mixed agents), and a loadout \
         the race ranked low never gets a second look.\n\
         - `expert`'s draft is fixed in code from an earlier run of these studies; it is one of the candidates, so the \
         drafting games say on fresh deals whether it is still the answer.\n",
    );
    md
}
