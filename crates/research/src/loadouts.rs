//! `loadouts`: which loadouts (sets of `tokens_per_player` distinct kinds) win most for a focal
//! agent, found by racing rather than by simulating every loadout to the end.
//!
//! Successive halving with racing eliminations: the budget is split over `⌈log2 n⌉` rounds; in
//! each round every surviving loadout plays the same new deals in the focal seat (the other
//! seats' loadouts drawn per deal, identical for every loadout), then
//! - **racing**: a loadout whose paired 95% interval of the win difference against the leader
//!   (the survivor with the best win rate), over all deals both played, lies wholly below 0 is
//!   dropped;
//! - **halving**: if more than half of the round's entrants remain, the best half by win rate
//!   goes on.
//!
//! Survivors of later rounds play more deals, so the top of the ranking gets the tightest
//! intervals. The ranking lists survivors first, then loadouts by the round they were dropped in
//! (later first), each by win rate.

use crate::error::ResearchError;
use crate::paired::{Paired, PairedSums};
use crate::study::{self, Outcome};
use crate::value::Performance;
use engine::{RuleConfig, Token, TokenSet};
use env::AgentBuilder;
use serde::{Deserialize, Serialize};

/// What to race.
#[derive(Clone, Debug)]
pub struct LoadoutsConfig {
    /// Seats at the table.
    pub players: u8,
    /// Opponent agent specs, cycled over the other seats.
    pub agents: Vec<String>,
    /// The focal agent's spec.
    pub focal: String,
    /// The loadouts to race (see [`parse_loadouts`]).
    pub loadouts: Vec<TokenSet>,
    /// Games to spend in all (at least 2 per loadout).
    pub budget: u64,
    /// Base seed.
    pub seed: u64,
    /// The rules (`players` and the token assignment are set by the study).
    pub rules: RuleConfig,
}

/// Every set of `tokens_per_player` distinct enabled kinds, in index order (560 by default).
pub fn all_loadouts(rules: &RuleConfig) -> Vec<TokenSet> {
    let kinds: Vec<Token> = rules.enabled_tokens.iter().collect();
    let k = rules.tokens_per_player as usize;
    let mut out = Vec::new();
    let mut pick: Vec<usize> = (0..k).collect();
    if k == 0 || k > kinds.len() {
        return out;
    }
    loop {
        out.push(pick.iter().map(|&i| kinds[i]).collect());
        // Next combination in lexicographic order.
        let mut i = k;
        while i > 0 && pick[i - 1] == kinds.len() - k + i - 1 {
            i -= 1;
        }
        if i == 0 {
            return out;
        }
        pick[i - 1] += 1;
        for j in i..k {
            pick[j] = pick[j - 1] + 1;
        }
    }
}

/// Parses `--loadouts`: `all`, or loadouts separated by commas, each kinds joined by `+`
/// (`embargo+immunity+refund,markdown+prime-sabacc+refund`). Each must hold exactly
/// `tokens_per_player` distinct enabled kinds, and appear once.
pub fn parse_loadouts(s: &str, rules: &RuleConfig) -> Result<Vec<TokenSet>, ResearchError> {
    if s.trim() == "all" {
        return Ok(all_loadouts(rules));
    }
    let k = rules.tokens_per_player as usize;
    let mut out: Vec<TokenSet> = Vec::new();
    for text in s.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        let mut l = TokenSet::EMPTY;
        for name in text.split('+') {
            let t = study::parse_token("--loadouts", name)?;
            if l.contains(t) {
                return Err(ResearchError::Settings(format!(
                    "--loadouts: `{text}` names `{t}` twice; a loadout holds distinct kinds"
                )));
            }
            l.insert(t);
        }
        if l.len() != k {
            return Err(ResearchError::Settings(format!(
                "--loadouts: `{text}` holds {} kinds, but a loadout holds tokens_per_player = {k} distinct kinds",
                l.len()
            )));
        }
        if l.0 & !rules.enabled_tokens.0 != 0 {
            return Err(ResearchError::Settings(format!("--loadouts: `{text}` holds a kind the rules do not enable")));
        }
        if out.contains(&l) {
            return Err(ResearchError::Settings(format!("--loadouts: `{text}` is listed twice")));
        }
        out.push(l);
    }
    if out.is_empty() {
        return Err(ResearchError::Settings("--loadouts: name at least one loadout, or `all`".into()));
    }
    Ok(out)
}

/// One round of the race.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoundSummary {
    /// Round (1…).
    pub round: u32,
    /// Loadouts that entered it.
    pub entrants: usize,
    /// New deals each played.
    pub deals: u64,
    /// Games played in it.
    pub games: u64,
    /// Dropped by the racing test.
    pub raced_out: usize,
    /// Dropped by halving.
    pub halved_out: usize,
}

/// A loadout's place in the ranking.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoadoutRow {
    /// Rank (1 = best).
    pub rank: usize,
    /// The kinds, joined by `+`.
    pub loadout: String,
    /// Deals (= games) it played.
    pub games: u64,
    /// Win share per game.
    pub win_rate: f64,
    /// Wilson 95% interval of the win rate.
    pub win_low: f64,
    /// Upper bound.
    pub win_high: f64,
    /// Mean final stock of the focal seat.
    pub mean_chips: f64,
    /// Win difference against the top-ranked loadout over the deals both played (paired).
    pub vs_top: Paired,
    /// The round it was dropped in (none: a survivor).
    pub dropped_in_round: Option<u32>,
    /// `raced` or `halved` when dropped.
    pub dropped_by: Option<String>,
}

/// The study's settings, as run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoadoutsSettings {
    /// Seats.
    pub players: u8,
    /// Opponents.
    pub agents: Vec<String>,
    /// Focal agent.
    pub focal: String,
    /// Loadouts raced.
    pub loadouts: usize,
    /// Games allowed.
    pub budget: u64,
    /// Base seed.
    pub seed: u64,
    /// The rules.
    pub rules: RuleConfig,
}

/// Everything the race found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoadoutsReport {
    /// `loadouts`.
    pub study: String,
    /// Settings.
    pub settings: LoadoutsSettings,
    /// Games played (at most the budget).
    pub games: u64,
    /// The rounds.
    pub rounds: Vec<RoundSummary>,
    /// Every loadout, best first.
    pub ranking: Vec<LoadoutRow>,
    /// How to read the figures.
    pub notes: Vec<String>,
    /// Time and speed, when measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub performance: Option<Performance>,
}

/// Checks the settings; returns the rules with `players` set.
pub fn check(cfg: &LoadoutsConfig) -> Result<RuleConfig, ResearchError> {
    let rules = study::table_rules(cfg.players, &cfg.rules, &cfg.agents)?;
    if cfg.loadouts.is_empty() {
        return Err(ResearchError::Settings("--loadouts: name at least one loadout, or `all`".into()));
    }
    let k = rules.tokens_per_player as usize;
    for l in &cfg.loadouts {
        if l.len() != k || l.0 & !rules.enabled_tokens.0 != 0 {
            return Err(ResearchError::Settings(format!(
                "--loadouts: `{}` is not {k} distinct enabled kinds",
                study::loadout_name(*l)
            )));
        }
    }
    let min = 2 * cfg.loadouts.len() as u64;
    if cfg.budget < min {
        return Err(ResearchError::Settings(format!(
            "--budget: {} games cannot give each of the {} loadouts 2 deals; give at least {min}",
            cfg.budget,
            cfg.loadouts.len()
        )));
    }
    Ok(rules)
}

/// Per-deal results of one loadout: win share and final stock.
type Results = Vec<(f32, u16)>;

fn mean_win(r: &Results) -> f64 {
    if r.is_empty() { 0.0 } else { r.iter().map(|x| x.0 as f64).sum::<f64>() / r.len() as f64 }
}

/// The paired win difference of `a` against `b` over the deals both played (the first ones).
fn versus(a: &Results, b: &Results) -> Paired {
    let mut s = PairedSums::default();
    for (x, y) in a.iter().zip(b) {
        s.push(x.0 as f64, y.0 as f64);
    }
    s.estimate()
}

/// Runs the race on the current rayon pool; `progress` is called after every game.
pub fn run(
    cfg: &LoadoutsConfig,
    factory: &dyn AgentBuilder,
    progress: &(dyn Fn() + Sync),
) -> Result<LoadoutsReport, ResearchError> {
    let rules = check(cfg)?;
    let (names, idx) = study::agent_list(&[std::slice::from_ref(&cfg.focal), &cfg.agents]);
    study::check_agents(&names, factory)?;
    let (focal_idx, opp_idx) = (idx[0][0], &idx[1]);
    let n = cfg.loadouts.len();
    let rounds_planned = (usize::BITS - (n.max(1) - 1).leading_zeros()).max(1) as u64;
    let players = rules.players as u64;
    let mut results: Vec<Results> = vec![Vec::new(); n];
    let mut survivors: Vec<usize> = (0..n).collect();
    let mut dropped: Vec<Option<(u32, &'static str)>> = vec![None; n];
    let mut rounds = Vec::new();
    let (mut spent, mut deals_done) = (0u64, 0u64);
    for r in 0..rounds_planned {
        if r > 0 && survivors.len() <= 1 {
            break;
        }
        let left = cfg.budget - spent;
        let m = survivors.len() as u64;
        let mut batch = (left / ((rounds_planned - r) * m)).max(2);
        if batch * m > left {
            batch = left / m;
        }
        if batch < 2 {
            break;
        }
        let round_survivors = survivors.clone();
        let base = deals_done;
        let spec = |g: u64| {
            let l = round_survivors[(g / batch) as usize];
            let deal = study::deal(cfg.seed, base + g % batch, &rules);
            let seating = study::seating(deal.focal, rules.players, focal_idx, opp_idx);
            deal.game(&rules, cfg.loadouts[l], seating, TokenSet::EMPTY)
        };
        study::play_folded(&names, batch * m, &spec, factory, progress, &mut |start, out: &[Outcome]| {
            for (i, o) in out.iter().enumerate() {
                let g = start + i as u64;
                let s = ((base + g % batch) % players) as usize;
                results[round_survivors[(g / batch) as usize]].push((o.win[s] as f32, o.chips[s]));
            }
        })?;
        spent += batch * m;
        deals_done += batch;
        let round = r as u32 + 1;
        let leader = *survivors
            .iter()
            .max_by(|&&a, &&b| mean_win(&results[a]).total_cmp(&mean_win(&results[b])).then(b.cmp(&a)))
            .expect("at least one survivor");
        let before = survivors.len();
        survivors.retain(|&l| {
            let out = l != leader && versus(&results[l], &results[leader]).high < 0.0;
            if out {
                dropped[l] = Some((round, "raced"));
            }
            !out
        });
        let raced_out = before - survivors.len();
        let keep = before.div_ceil(2);
        let mut halved_out = 0;
        if survivors.len() > keep {
            survivors.sort_by(|&a, &b| mean_win(&results[b]).total_cmp(&mean_win(&results[a])).then(a.cmp(&b)));
            for &l in &survivors[keep..] {
                dropped[l] = Some((round, "halved"));
            }
            halved_out = survivors.len() - keep;
            survivors.truncate(keep);
            survivors.sort();
        }
        rounds.push(RoundSummary { round, entrants: before, deals: batch, games: batch * m, raced_out, halved_out });
    }
    // Survivors first, then later drops before earlier ones; by win rate within each group.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        let ra = dropped[a].map_or(u32::MAX, |d| d.0);
        let rb = dropped[b].map_or(u32::MAX, |d| d.0);
        rb.cmp(&ra).then(mean_win(&results[b]).total_cmp(&mean_win(&results[a]))).then(a.cmp(&b))
    });
    let top = order[0];
    let ranking = order
        .iter()
        .enumerate()
        .map(|(i, &l)| {
            let res = &results[l];
            let games = res.len() as u64;
            let wins: f64 = res.iter().map(|x| x.0 as f64).sum();
            let (win_low, win_high) = eval::stats::wilson(wins, games as f64);
            LoadoutRow {
                rank: i + 1,
                loadout: study::loadout_name(cfg.loadouts[l]),
                games,
                win_rate: mean_win(res),
                win_low,
                win_high,
                mean_chips: if games == 0 { 0.0 } else { res.iter().map(|x| x.1 as f64).sum::<f64>() / games as f64 },
                vs_top: versus(res, &results[top]),
                dropped_in_round: dropped[l].map(|d| d.0),
                dropped_by: dropped[l].map(|d| d.1.to_string()),
            }
        })
        .collect();
    Ok(LoadoutsReport {
        study: "loadouts".into(),
        settings: LoadoutsSettings {
            players: cfg.players,
            agents: cfg.agents.clone(),
            focal: cfg.focal.clone(),
            loadouts: n,
            budget: cfg.budget,
            seed: cfg.seed,
            rules,
        },
        games: spent,
        rounds,
        ranking,
        notes: vec![
            "every surviving loadout plays the same deals in the focal seat (rotating over the table); the other seats' loadouts are drawn per deal, the same for every loadout".into(),
            "racing: a loadout whose paired 95% interval of the win difference to the leader lies below 0 is dropped; halving: at most half of a round's entrants go on".into(),
            "win rate: win share per game with its Wilson 95% interval; vs top: paired win difference to the top-ranked loadout over the deals both played".into(),
            "a loadout's rank is its rank in that focal agent's hands".into(),
        ],
        performance: None,
    })
}
