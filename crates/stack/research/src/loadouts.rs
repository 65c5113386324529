//! `loadouts`: which loadouts (sets of `tokens_per_player` distinct kinds) win most for a focal
//! agent: best-arm identification by **successive elimination** (Even-Dar, Mannor & Mansour,
//! JMLR 2006) with a stated error guarantee.
//!
//! - **Rounds.** Every surviving loadout plays the same new deals in the focal seat (the other
//!   seats' loadouts drawn per deal, identical for every loadout; the focal seat rotating over
//!   the table, so rounds are whole multiples of the seat count). Each round plays half as many
//!   new deals as were played before it (at least one per seat), so checks are frequent early
//!   and cheap later.
//! - **Elimination.** After a round with `n` deals per survivor, the leader is the survivor with
//!   the highest win share; a survivor `a` is eliminated when
//!   `mean(leader) − mean(a) > r(n) = √(2 ln((K − 1) · n (n + 1) / δ) / n)`.
//! - **Stopping.** The race stops when one loadout is left (stopped by its rule) or when the
//!   budget cannot give every survivor one more deal per seat (it spent its budget; what is left
//!   is less than one such block).
//! - **Guarantee.** Per-deal win differences lie in [−1, 1], deals are independent, and the
//!   rotation makes the mean over a whole number of rotations the loadout's win rate, so
//!   Hoeffding's inequality bounds the chance that `mean(b) − mean(a*)` exceeds `r(n)` for any
//!   other loadout `b` at size `n` by `δ / ((K − 1) n (n + 1))`. Summed over the `K − 1`
//!   loadouts and every `n` (Σ 1/(n(n+1)) = 1) that is at most `δ`: **with probability at least
//!   1 − δ the best loadout is never eliminated**, whatever the schedule. So a race that ends
//!   with one loadout names the best one with probability at least 1 − δ; a race that spends its
//!   budget leaves a set of survivors that contains the best one with that probability.
//!
//! The ranking lists survivors first (by win share), then eliminated loadouts, later
//! eliminations first, each group by win share. Every loadout carries its Wilson 95% interval
//! and its paired difference to the top-ranked one over the deals both played.

use crate::error::ResearchError;
use crate::study::{self, Outcome};
use crate::value::Performance;
use env::AgentBuilder;
use eval::paired::{Paired, PairedSums};
use kessel::{Kessel, RuleConfig, Token, TokenSet};
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
    /// Games to spend in all (at least one deal per seat for each loadout).
    pub budget: u64,
    /// Error probability δ: the best loadout is eliminated with probability at most δ.
    pub delta: f64,
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
    /// Deals each survivor has played after it (`n`).
    pub deals_total: u64,
    /// Games played in it.
    pub games: u64,
    /// The elimination radius `r(n)` after it (win share).
    pub radius: f64,
    /// Loadouts eliminated after it.
    pub eliminated: usize,
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
    /// Win difference against the top-ranked loadout over the deals both played (paired 95%).
    pub vs_top: Paired,
    /// The round after which it was eliminated (none: a survivor).
    pub eliminated_in_round: Option<u32>,
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
    /// Error probability δ of the race.
    pub delta: f64,
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
    /// `one left` (stopped by its rule) or `budget spent`.
    pub stopped: String,
    /// Loadouts left at the end: with probability at least 1 − δ the best one is among them.
    pub survivors: usize,
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

/// The elimination radius after `n` deals among `arms` arms at error probability `delta`
/// (module documentation): `√(2 ln((arms − 1) · n (n + 1) / δ) / n)`; infinite for `n = 0`.
pub fn radius(n: u64, arms: usize, delta: f64) -> f64 {
    if n == 0 {
        return f64::INFINITY;
    }
    let n = n as f64;
    let k = (arms.max(2) - 1) as f64;
    (2.0 * (k * n * (n + 1.0) / delta).ln() / n).sqrt()
}

/// The settings of a successive-elimination race over arms observed on common deals.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Elimination {
    /// Arms (K).
    pub arms: usize,
    /// Observations (arm-deals) allowed in all.
    pub budget: u64,
    /// Error probability δ, in (0, 1).
    pub delta: f64,
    /// Deals come in blocks of this many (the seat rotation); rounds are whole blocks.
    pub block: u64,
}

/// What a race found: per arm its outcomes (one per deal it played, deals in order), the round
/// it was eliminated after (none for a survivor), and the rounds.
#[derive(Clone, Debug, PartialEq)]
pub struct Race {
    /// `outcomes[a][d]`: arm `a`'s outcome on deal `d`.
    pub outcomes: Vec<Vec<f64>>,
    /// The round after which each arm was eliminated.
    pub eliminated: Vec<Option<u32>>,
    /// The rounds.
    pub rounds: Vec<RoundSummary>,
    /// Observations spent.
    pub spent: u64,
}

impl Race {
    /// Arms never eliminated.
    pub fn survivors(&self) -> Vec<usize> {
        (0..self.eliminated.len()).filter(|&a| self.eliminated[a].is_none()).collect()
    }
}

fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() { 0.0 } else { xs.iter().sum::<f64>() / xs.len() as f64 }
}

/// Plays deals `first..first + deals` for the given arms: one list of outcomes per arm.
pub type Arms<'a> = dyn FnMut(&[usize], u64, u64) -> Result<Vec<Vec<f64>>, ResearchError> + 'a;

/// Runs successive elimination (module documentation). `play(survivors, first, deals)` plays
/// deals `first..first + deals` for every survivor and returns their outcomes (in [0, 1]), one
/// list per survivor in the order given.
pub fn successive_elimination(e: &Elimination, play: &mut Arms<'_>) -> Result<Race, ResearchError> {
    if !(e.delta > 0.0 && e.delta < 1.0) {
        return Err(ResearchError::Settings(format!("--delta: {} is not an error probability in (0, 1)", e.delta)));
    }
    let block = e.block.max(1);
    let mut outcomes: Vec<Vec<f64>> = vec![Vec::new(); e.arms];
    let mut eliminated: Vec<Option<u32>> = vec![None; e.arms];
    let mut survivors: Vec<usize> = (0..e.arms).collect();
    let mut rounds = Vec::new();
    let (mut spent, mut n) = (0u64, 0u64);
    while survivors.len() > 1 {
        let m = survivors.len() as u64;
        let affordable = (e.budget - spent) / (m * block);
        if affordable == 0 {
            break;
        }
        // Half as many new deals as so far (one block at least), within the budget.
        let blocks = (n / block / 2).max(1).min(affordable);
        let deals = blocks * block;
        let out = play(&survivors, n, deals)?;
        for (&a, o) in survivors.iter().zip(out) {
            debug_assert_eq!(o.len() as u64, deals);
            outcomes[a].extend(o);
        }
        spent += deals * m;
        n += deals;
        let round = rounds.len() as u32 + 1;
        let means: Vec<f64> = (0..e.arms).map(|a| mean(&outcomes[a])).collect();
        let leader = *survivors
            .iter()
            .max_by(|&&a, &&b| means[a].total_cmp(&means[b]).then(b.cmp(&a)))
            .expect("at least two survivors");
        let r = radius(n, e.arms, e.delta);
        let before = survivors.len();
        survivors.retain(|&a| {
            let out = a != leader && means[leader] - means[a] > r;
            if out {
                eliminated[a] = Some(round);
            }
            !out
        });
        rounds.push(RoundSummary {
            round,
            entrants: before,
            deals,
            deals_total: n,
            games: deals * m,
            radius: r,
            eliminated: before - survivors.len(),
        });
    }
    Ok(Race { outcomes, eliminated, rounds, spent })
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
    if !(cfg.delta > 0.0 && cfg.delta < 1.0) {
        return Err(ResearchError::Settings(format!(
            "--delta: {} is not an error probability; give a number between 0 and 1 (e.g. 0.05)",
            cfg.delta
        )));
    }
    let min = rules.players as u64 * cfg.loadouts.len() as u64;
    if cfg.budget < min {
        return Err(ResearchError::Settings(format!(
            "--budget: {} games cannot give each of the {} loadouts one deal in each of the {} seats; give at least {min}",
            cfg.budget,
            cfg.loadouts.len(),
            rules.players
        )));
    }
    Ok(rules)
}

/// Runs the race on the current rayon pool; `progress` is called after every game.
pub fn run(
    cfg: &LoadoutsConfig,
    factory: &dyn AgentBuilder<Kessel>,
    progress: &(dyn Fn() + Sync),
) -> Result<LoadoutsReport, ResearchError> {
    let rules = check(cfg)?;
    let (names, idx) = study::agent_list(&[std::slice::from_ref(&cfg.focal), &cfg.agents]);
    study::check_agents(&names, factory)?;
    let (focal_idx, opp_idx) = (idx[0][0], &idx[1]);
    let n = cfg.loadouts.len();
    let players = rules.players as u64;
    let mut chips: Vec<Vec<u16>> = vec![Vec::new(); n];
    let e = Elimination { arms: n, budget: cfg.budget, delta: cfg.delta, block: players };
    let race = successive_elimination(&e, &mut |survivors, base, batch| {
        let spec = |g: u64| {
            let l = survivors[(g / batch) as usize];
            let deal = study::deal(cfg.seed, base + g % batch, &rules);
            let seating = study::seating(deal.focal, rules.players, focal_idx, opp_idx);
            deal.game(&rules, cfg.loadouts[l], seating, TokenSet::EMPTY)
        };
        let mut wins: Vec<Vec<f64>> = vec![Vec::with_capacity(batch as usize); survivors.len()];
        let m = survivors.len() as u64;
        study::play_folded(&names, batch * m, &spec, factory, progress, &mut |start, out: &[Outcome]| {
            for (i, o) in out.iter().enumerate() {
                let g = start + i as u64;
                let s = ((base + g % batch) % players) as usize;
                let j = (g / batch) as usize;
                wins[j].push(o.win[s]);
                chips[survivors[j]].push(o.chips[s]);
            }
        })?;
        Ok(wins)
    })?;
    let results = &race.outcomes;
    // Survivors first, then later eliminations before earlier ones; by win share within each.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        let ra = race.eliminated[a].unwrap_or(u32::MAX);
        let rb = race.eliminated[b].unwrap_or(u32::MAX);
        rb.cmp(&ra).then(mean(&results[b]).total_cmp(&mean(&results[a]))).then(a.cmp(&b))
    });
    let top = order[0];
    let ranking = order
        .iter()
        .enumerate()
        .map(|(i, &l)| {
            let res = &results[l];
            let games = res.len() as u64;
            let (win_low, win_high) = eval::stats::wilson(res.iter().sum(), games as f64);
            let mut vs = PairedSums::default();
            for (x, y) in res.iter().zip(&results[top]) {
                vs.push(*x, *y);
            }
            LoadoutRow {
                rank: i + 1,
                loadout: study::loadout_name(cfg.loadouts[l]),
                games,
                win_rate: mean(res),
                win_low,
                win_high,
                mean_chips: if games == 0 {
                    0.0
                } else {
                    chips[l].iter().map(|&c| c as f64).sum::<f64>() / games as f64
                },
                vs_top: vs.estimate(),
                eliminated_in_round: race.eliminated[l],
            }
        })
        .collect();
    let survivors = race.survivors().len();
    let stopped = if survivors == 1 { "one left" } else { "budget spent" };
    Ok(LoadoutsReport {
        study: "loadouts".into(),
        settings: LoadoutsSettings {
            players: cfg.players,
            agents: cfg.agents.clone(),
            focal: cfg.focal.clone(),
            loadouts: n,
            budget: cfg.budget,
            delta: cfg.delta,
            seed: cfg.seed,
            rules,
        },
        games: race.spent,
        stopped: stopped.into(),
        survivors,
        rounds: race.rounds,
        ranking,
        notes: vec![
            "every surviving loadout plays the same deals in the focal seat (rotating over the table); the other seats' loadouts are drawn per deal, the same for every loadout".into(),
            format!(
                "successive elimination: after each round (n deals per survivor, a whole number of seat rotations) a loadout whose win share trails the leader's by more than r(n) = sqrt(2 ln((K-1) n (n+1) / delta) / n) is eliminated (K = {n}, delta = {})",
                cfg.delta
            ),
            format!(
                "guarantee (Hoeffding's inequality with a union bound over the other loadouts and every n): with probability at least {:.2} the best loadout is never eliminated, so it is among the {survivors} survivor(s)",
                1.0 - cfg.delta
            ),
            "win rate: win share per game with its Wilson 95% interval; vs top: paired win difference to the top-ranked loadout over the deals both played, 95% (per row, not simultaneous)".into(),
            "a loadout's rank is its rank in that focal agent's hands; among survivors the order is by win share and is not itself guaranteed".into(),
        ],
        performance: None,
    })
}
