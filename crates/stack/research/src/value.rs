//! `value`: what each token kind is worth to a focal agent, by paired games.
//!
//! For token `T` and deal `d`, arm A gives the focal seat `T` plus `k − 1` companion kinds drawn
//! for (deal, `T`); arm B differs only in `T`:
//! - `removed`: the focal seat still holds `T` but may never play it (restricted play, Jaffe et
//!   al. 2012). The engine's fixed loadouts all have `tokens_per_player` kinds, and holding it
//!   keeps the opponents' view (the focal seat's token count) the same in both arms.
//! - `replaced`: `T` is swapped for a kind drawn from the enabled kinds not in the loadout.
//!
//! Both arms share the deal, seating, the other seats' loadouts and every agent's RNG seed. The
//! figures are the *win* difference (win share: 1, or 1/k for a win shared by k, 0 for a loss or
//! a game cut off by the round limit) and the *chip* difference (the focal seat's final stock:
//! chips in hand at the end, 0 once eliminated), each with the paired 95% interval and the
//! unpaired one from the same games. A token's value is its value *in that agent's hands*: an
//! agent that never plays it gives it value 0.
//!
//! The study can be spread over machines: [`run_deals`] plays a range of the deals (every focal
//! agent and token on each) and keeps each deal's pairs, [`merge`] joins such shards in any
//! order, and [`finish`] computes the statistics once from all the deals in deal order. [`run`]
//! is that path with one shard of every deal, so a merged report equals the single run's.
//!
//! A token the rules do not enable cannot be studied: it is refused with an error naming the
//! enabled kinds (rather than reported as a value of 0).

use crate::error::ResearchError;
use crate::stats::{RankInterval, bootstrap_ranks, holm};
use crate::study::{self, Outcome};
use env::AgentBuilder;
use eval::paired::{Paired, PairedSums};
use kessel::{Kessel, RuleConfig, Token, TokenSet};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};

/// Arm B of the value study.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Baseline {
    /// The token is held but cannot be played.
    #[default]
    Removed,
    /// The token is swapped for another enabled kind not in the loadout.
    Replaced,
}

impl Baseline {
    /// Parses `removed` or `replaced`.
    pub fn parse(s: &str) -> Result<Baseline, ResearchError> {
        match s.trim() {
            "removed" => Ok(Baseline::Removed),
            "replaced" => Ok(Baseline::Replaced),
            other => {
                Err(ResearchError::Settings(format!("--baseline: unknown `{other}`; use `removed` or `replaced`")))
            }
        }
    }

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Baseline::Removed => "removed",
            Baseline::Replaced => "replaced",
        }
    }
}

/// What to measure (and, in a report, what was measured: the rules as played).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ValueConfig {
    /// Seats at the table.
    pub players: u8,
    /// Opponent agent specs, cycled over the other seats.
    pub agents: Vec<String>,
    /// Focal agent specs: one value table each.
    pub focal: Vec<String>,
    /// The kinds to value (each must be enabled by the rules).
    pub tokens: Vec<Token>,
    /// Arm B.
    pub baseline: Baseline,
    /// Deals (pairs of games) per token and focal agent, at least 2.
    pub deals: u64,
    /// Base seed.
    pub seed: u64,
    /// The rules (`players` and the token assignment are set by the study).
    pub rules: RuleConfig,
}

/// Parses `--tokens`: `all` (every enabled kind) or a comma-separated list of names, each
/// enabled by `rules`.
pub fn parse_tokens(s: &str, rules: &RuleConfig) -> Result<Vec<Token>, ResearchError> {
    if s.trim() == "all" {
        return Ok(rules.enabled_tokens.iter().collect());
    }
    let mut out: Vec<Token> = Vec::new();
    for name in s.split(',').filter(|n| !n.trim().is_empty()) {
        let t = study::parse_token("--tokens", name)?;
        if !out.contains(&t) {
            out.push(t);
        }
    }
    if out.is_empty() {
        return Err(ResearchError::Settings(format!(
            "--tokens: name at least one token, or `all`; valid tokens: {}",
            study::token_names()
        )));
    }
    Ok(out)
}

/// One token's value for one focal agent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TokenValue {
    /// The kind.
    pub token: Token,
    /// Deals (pairs).
    pub deals: u64,
    /// Win share difference (arm A − arm B).
    pub win: Paired,
    /// Final-stock difference in chips (arm A − arm B).
    pub chips: Paired,
    /// Share of arm-A games in which the focal seat played the token.
    pub played_share: f64,
    /// Holm-adjusted p-value of the win difference, over the table's tokens (the family).
    #[serde(default = "one")]
    pub win_p_holm: f64,
    /// The token's rank in its table by win difference (1 = most valuable), with a bootstrap
    /// 95% interval over deals.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank: Option<RankInterval>,
}

fn one() -> f64 {
    1.0
}

/// Bootstrap resamples of the deals behind each table's rank intervals.
pub const RANK_RESAMPLES: usize = 1000;

/// Stream tag of the rank bootstrap.
const BOOTSTRAP_STREAM: u64 = 0x7E5E_A4C4_B007_0004;

/// The value table of one focal agent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FocalTable {
    /// The focal agent's spec.
    pub focal: String,
    /// The opponents it faced (cycled over the other seats); all the same as `focal` in
    /// self-play.
    #[serde(default)]
    pub opponents: Vec<String>,
    /// One row per token, in the order studied.
    pub rows: Vec<TokenValue>,
    /// Mean over rows of paired / unpaired interval width for the win difference (below 1:
    /// pairing narrowed the intervals).
    pub win_width_ratio: f64,
}

impl FocalTable {
    /// Every seat is played by the focal agent.
    pub fn self_play(&self) -> bool {
        !self.opponents.is_empty() && self.opponents.iter().all(|o| *o == self.focal)
    }

    /// `` `expert` against `expert` `` or `` `champion` in self-play ``, for headings.
    pub fn label(&self) -> String {
        if self.self_play() {
            format!("`{}` in self-play", self.focal)
        } else if self.opponents.is_empty() {
            format!("`{}`", self.focal)
        } else {
            format!(
                "`{}` against {}",
                self.focal,
                self.opponents.iter().map(|o| format!("`{o}`")).collect::<Vec<_>>().join(", ")
            )
        }
    }
}

/// Time spent (filled by the caller, which measures it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Performance {
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Games per second.
    pub games_per_second: f64,
    /// Worker threads.
    pub threads: usize,
}

/// Everything the value study found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ValueReport {
    /// `value`.
    pub study: String,
    /// Settings.
    pub settings: ValueConfig,
    /// Games played.
    pub games: u64,
    /// One table per focal agent.
    pub tables: Vec<FocalTable>,
    /// How to read the figures.
    pub notes: Vec<String>,
    /// Time and speed, when measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub performance: Option<Performance>,
}

/// Games the study plays.
pub fn games(cfg: &ValueConfig) -> u64 {
    cfg.focal.len() as u64 * cfg.tokens.len() as u64 * cfg.deals * 2
}

/// Checks the settings; returns the rules with `players` set.
pub fn check(cfg: &ValueConfig) -> Result<RuleConfig, ResearchError> {
    let rules = study::table_rules(cfg.players, &cfg.rules, &cfg.agents)?;
    if cfg.focal.is_empty() {
        return Err(ResearchError::Settings("--focal: list at least one agent".into()));
    }
    if cfg.tokens.is_empty() {
        return Err(ResearchError::Settings("--tokens: name at least one token, or `all`".into()));
    }
    for &t in &cfg.tokens {
        if !rules.enabled_tokens.contains(t) {
            let enabled: Vec<&str> = rules.enabled_tokens.iter().map(|t| t.name()).collect();
            return Err(ResearchError::Settings(format!(
                "--tokens: `{t}` is not enabled by the rules, so it has no value to measure; enabled: {}",
                enabled.join(", ")
            )));
        }
    }
    if cfg.deals < 2 {
        return Err(ResearchError::Settings(format!(
            "--deals: {} is too few; at least 2 deals are needed for an interval",
            cfg.deals
        )));
    }
    let k = rules.tokens_per_player as usize;
    if cfg.baseline == Baseline::Replaced && rules.enabled_tokens.len() <= k {
        return Err(ResearchError::Settings(format!(
            "--baseline replaced: needs more enabled kinds ({}) than tokens_per_player ({k}), so a replacement exists",
            rules.enabled_tokens.len()
        )));
    }
    Ok(rules)
}

/// The focal seat's loadouts on both arms for token `t` at `deal`: (arm A, arm B, forbidden in B).
pub fn arms(rules: &RuleConfig, deal: &study::Deal, t: Token, baseline: Baseline) -> (TokenSet, TokenSet, TokenSet) {
    let mut rng = Pcg64Mcg::seed_from_u64(game::derive_seed(deal.companion_seed, t.index() as u64));
    let mut others = rules.enabled_tokens;
    others.remove(t);
    let k = rules.tokens_per_player as usize;
    let companions = study::draw_kinds(others, k.saturating_sub(1), &mut rng);
    let mut a = companions;
    a.insert(t);
    match baseline {
        Baseline::Removed => {
            let mut forbidden = TokenSet::EMPTY;
            forbidden.insert(t);
            (a, a, forbidden)
        }
        Baseline::Replaced => {
            let rest = TokenSet(rules.enabled_tokens.0 & !a.0);
            let b = TokenSet(companions.0 | study::draw_kinds(rest, 1, &mut rng).0);
            (a, b, TokenSet::EMPTY)
        }
    }
}

/// One deal's pair of games for one cell (focal agent × token), from the focal seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairOutcome {
    /// Seats sharing the win in arm A and in arm B when the focal seat is among them, else 0.
    /// The win share is its reciprocal; a count, so that a shard's JSON carries it exactly.
    pub winners: [u8; 2],
    /// The focal seat's final stock in arm A and in arm B.
    pub chips: [u16; 2],
    /// Whether the focal seat played the token in arm A.
    pub played: bool,
}

impl PairOutcome {
    /// The focal seat's win share in arm A and in arm B, as [`eval::arena::win_share`] gives it.
    pub fn win(&self) -> [f64; 2] {
        self.winners.map(|k| if k == 0 { 0.0 } else { 1.0 / k as f64 })
    }
}

/// The seats sharing a win of share `w` (1/k), or 0 for no win.
fn winners(w: f64) -> u8 {
    if w > 0.0 { (1.0 / w).round() as u8 } else { 0 }
}

/// Every cell's pair of games on one deal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DealOutcomes {
    /// The deal index.
    pub deal: u64,
    /// One pair per cell: focal agent-major, then token, in the order of the settings.
    pub cells: Vec<PairOutcome>,
}

/// Some deals of a study, with its settings: what [`run_deals`] plays on one machine and
/// [`merge`] joins. It keeps every pair rather than sums, so the statistics (bootstrap ranks
/// included) are computed once, by [`finish`], from all the deals in deal order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ValueShard {
    /// The settings as checked (the rules with `players` set); shards merge only when equal.
    pub settings: ValueConfig,
    /// The deals played, in deal order.
    pub deals: Vec<DealOutcomes>,
}

/// Runs the study on the current rayon pool; `progress` is called after every game. It is
/// [`finish`] of the one shard holding every deal.
pub fn run(
    cfg: &ValueConfig,
    factory: &dyn AgentBuilder<Kessel>,
    progress: &(dyn Fn() + Sync),
) -> Result<ValueReport, ResearchError> {
    finish(&run_deals(cfg, factory, progress, 0..cfg.deals)?)
}

/// Plays the deals `deals` (clamped to `0..cfg.deals`) of the study, for every focal agent and
/// token: a shard of [`run`], for spreading one study over machines. Every game is the one
/// [`run`] plays under the same index (same deal, seats, seeds and task batches, cut at the
/// shard's ends), so the shards of a partition of `0..cfg.deals` joined by [`merge`] give
/// [`run`]'s report through [`finish`].
pub fn run_deals(
    cfg: &ValueConfig,
    factory: &dyn AgentBuilder<Kessel>,
    progress: &(dyn Fn() + Sync),
    deals: std::ops::Range<u64>,
) -> Result<ValueShard, ResearchError> {
    if deals.start > deals.end {
        return Err(ResearchError::Settings(format!(
            "deals: the range {}..{} is reversed; give start..end with start <= end",
            deals.start, deals.end
        )));
    }
    let rules = check(cfg)?;
    let (names, idx) = study::agent_list(&[&cfg.focal, &cfg.agents]);
    study::check_agents(&names, factory)?;
    let (focal_idx, opp_idx) = (&idx[0], &idx[1]);
    let nt = cfg.tokens.len() as u64;
    let d = cfg.deals;
    // Game g = ((f·T + t)·D + deal)·2 + arm.
    let spec = |g: u64| {
        let arm = g % 2;
        let deal_i = (g / 2) % d;
        let t = ((g / 2 / d) % nt) as usize;
        let f = (g / 2 / d / nt) as usize;
        let deal = study::deal(cfg.seed, deal_i, &rules);
        let (a, b, forbidden) = arms(&rules, &deal, cfg.tokens[t], cfg.baseline);
        let seating = study::seating(deal.focal, rules.players, focal_idx[f], opp_idx);
        if arm == 0 { deal.game(&rules, a, seating, TokenSet::EMPTY) } else { deal.game(&rules, b, seating, forbidden) }
    };
    let cells = cfg.focal.len() as u64 * nt;
    let (first, end) = (deals.start.min(d), deals.end.min(d));
    // Each cell's games of these deals are one contiguous range of the plan.
    let parts: Vec<_> =
        (0..cells).map(|c| (c * d + first) * 2..(c * d + end) * 2).filter(|r| r.start < r.end).collect();
    let mut out: Vec<DealOutcomes> =
        (first..end).map(|deal| DealOutcomes { deal, cells: vec![PairOutcome::default(); cells as usize] }).collect();
    study::play_parts(&names, games(cfg), &parts, &spec, factory, progress, &mut |start, outs: &[Outcome]| {
        for (k, pair) in outs.chunks_exact(2).enumerate() {
            let g = start + 2 * k as u64;
            let (cell, deal) = ((g / 2 / d) as usize, (g / 2) % d);
            let s = (deal % rules.players as u64) as usize;
            let t = cfg.tokens[cell % cfg.tokens.len()];
            out[(deal - first) as usize].cells[cell] = PairOutcome {
                winners: [winners(pair[0].win[s]), winners(pair[1].win[s])],
                chips: [pair[0].chips[s], pair[1].chips[s]],
                played: pair[0].played[s].contains(t),
            };
        }
    })?;
    Ok(ValueShard { settings: ValueConfig { rules, ..cfg.clone() }, deals: out })
}

/// Joins shards ([`run_deals`]) of one study, in any order, into one shard holding their deals
/// in deal order. Shards of other settings (named in the error) or sharing a deal are refused.
pub fn merge(parts: Vec<ValueShard>) -> Result<ValueShard, ResearchError> {
    let mut parts = parts.into_iter();
    let Some(mut out) = parts.next() else {
        return Err(ResearchError::Settings("merge: no shards to merge".into()));
    };
    for (i, p) in parts.enumerate() {
        let differ = differences(&out.settings, &p.settings);
        if !differ.is_empty() {
            return Err(ResearchError::Settings(format!(
                "merge: shard {} was played with other settings than shard 0 ({} differ); shards of one study share every setting",
                i + 1,
                differ.join(", ")
            )));
        }
        out.deals.extend(p.deals);
    }
    out.deals.sort_by_key(|x| x.deal);
    if let Some(w) = out.deals.windows(2).find(|w| w[0].deal == w[1].deal) {
        return Err(ResearchError::Settings(format!("merge: deal {} is in more than one shard", w[0].deal)));
    }
    Ok(out)
}

/// The names of the settings in which `a` and `b` differ (`seed`, `rules.round_limit`, …).
pub fn differences(a: &ValueConfig, b: &ValueConfig) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut field = |name: &str, same: bool| {
        if !same {
            out.push(name.to_string());
        }
    };
    field("players", a.players == b.players);
    field("agents", a.agents == b.agents);
    field("focal", a.focal == b.focal);
    field("tokens", a.tokens == b.tokens);
    field("baseline", a.baseline == b.baseline);
    field("deals", a.deals == b.deals);
    field("seed", a.seed == b.seed);
    if a.rules != b.rules {
        // Name the rules that differ, through their JSON fields.
        match (serde_json::to_value(a.rules), serde_json::to_value(b.rules)) {
            (Ok(serde_json::Value::Object(x)), Ok(serde_json::Value::Object(y))) => {
                out.extend(x.iter().filter(|(k, v)| y.get(*k) != Some(*v)).map(|(k, _)| format!("rules.{k}")))
            }
            _ => out.push("rules".into()),
        }
    }
    out
}

/// The report of a whole study from its shards merged ([`merge`]): it must hold every deal of
/// `0..settings.deals` once, in order. The statistics are computed here and only here.
pub fn finish(shard: &ValueShard) -> Result<ValueReport, ResearchError> {
    let cfg = &shard.settings;
    let rules = check(cfg)?;
    let d = cfg.deals;
    let nt = cfg.tokens.len();
    let cells = cfg.focal.len() * nt;
    if let Some(i) = (0..d).find(|&i| shard.deals.get(i as usize).map(|x| x.deal) != Some(i)) {
        return Err(ResearchError::Settings(format!(
            "the shards hold {} of the study's {d} deals, and deal {i} is not among them in order; \
             merge shards covering every deal of 0..{d} once",
            shard.deals.len()
        )));
    }
    if shard.deals.len() as u64 != d {
        return Err(ResearchError::Settings(format!(
            "the shards hold {} deals, more than the study's {d}; deals past {} do not belong to it",
            shard.deals.len(),
            d - 1
        )));
    }
    let mut win = vec![PairedSums::default(); cells];
    let mut chips = vec![PairedSums::default(); cells];
    let mut played = vec![0u64; cells];
    // Per cell and deal: the win difference, for the rank bootstrap (deals are the unit).
    let mut diffs = vec![vec![0.0f64; d as usize]; cells];
    for x in &shard.deals {
        if x.cells.len() != cells {
            return Err(ResearchError::Settings(format!(
                "deal {}: {} pairs of games, but the settings give {} focal agents × {nt} tokens = {cells}",
                x.deal,
                x.cells.len(),
                cfg.focal.len()
            )));
        }
        for (c, p) in x.cells.iter().enumerate() {
            let [a, b] = p.win();
            win[c].push(a, b);
            diffs[c][x.deal as usize] = a - b;
            chips[c].push(p.chips[0] as f64, p.chips[1] as f64);
            played[c] += p.played as u64;
        }
    }
    let tables = cfg
        .focal
        .iter()
        .enumerate()
        .map(|(f, focal)| {
            let mut rows: Vec<TokenValue> = cfg
                .tokens
                .iter()
                .enumerate()
                .map(|(t, &token)| {
                    let c = f * nt + t;
                    TokenValue {
                        token,
                        deals: d,
                        win: win[c].estimate(),
                        chips: chips[c].estimate(),
                        played_share: played[c] as f64 / d as f64,
                        win_p_holm: 1.0,
                        rank: None,
                    }
                })
                .collect();
            let p: Vec<f64> = rows.iter().map(|r| r.win.p_value()).collect();
            let ranks = bootstrap_ranks(
                &diffs[f * nt..(f + 1) * nt],
                RANK_RESAMPLES,
                game::derive_seed(cfg.seed ^ BOOTSTRAP_STREAM, f as u64),
            );
            for ((r, p), rank) in rows.iter_mut().zip(holm(&p)).zip(ranks) {
                r.win_p_holm = p;
                r.rank = Some(rank);
            }
            let ratios: Vec<f64> = rows
                .iter()
                .filter(|r| r.win.unpaired_half_width() > 0.0)
                .map(|r| r.win.half_width() / r.win.unpaired_half_width())
                .collect();
            let win_width_ratio =
                if ratios.is_empty() { 1.0 } else { ratios.iter().sum::<f64>() / ratios.len() as f64 };
            FocalTable { focal: focal.clone(), opponents: cfg.agents.clone(), rows, win_width_ratio }
        })
        .collect();
    Ok(ValueReport {
        study: "value".into(),
        settings: ValueConfig { rules, ..cfg.clone() },
        games: games(cfg),
        tables,
        notes: notes(cfg.baseline),
        performance: None,
    })
}

/// How to read a value report.
pub fn notes(baseline: Baseline) -> Vec<String> {
    let b = match baseline {
        Baseline::Removed => {
            "arm B: the focal seat holds the same loadout but may never play the token (restricted play)"
        }
        Baseline::Replaced => "arm B: the token is swapped for a kind drawn from the enabled kinds not in the loadout",
    };
    vec![
        "arm A: the focal seat holds the token and companion kinds drawn per deal; ".to_string() + b,
        "both arms share the deal, seating, the other seats' loadouts (drawn per deal) and every agent's RNG seed; the focal seat rotates over the table".into(),
        "win: win share (1, or 1/k for a win shared by k; 0 for a loss or a game cut off by the round limit); chips: the focal seat's final stock (0 once eliminated)".into(),
        "intervals: 95%, paired (Student's t over per-deal differences) and unpaired (the same games as two independent samples)".into(),
        format!("significance: a token's win difference is called above or below 0 only when its Holm-adjusted p-value (over the table's tokens, family-wise error rate {}) is at most {}", crate::stats::ALPHA, crate::stats::ALPHA),
        format!("rank: the token's rank by win difference with a percentile-bootstrap 95% interval; the resampling unit is the deal ({RANK_RESAMPLES} resamples of the deals, the same deals for every token, keeping the pairing)"),
        "a token's value is its value in that focal agent's hands: an agent that never plays a token gives it no value".into(),
        "loadouts are dealt as fixed loadouts (K2.1 `fixed`), which the rules show to every seat: agents that read them (search's sampled worlds) know the focal seat's kinds".into(),
    ]
}
