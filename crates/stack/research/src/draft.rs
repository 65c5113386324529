//! `draft`: what each agent picks when it chooses its tokens (`token_assignment = choose`,
//! K2.1), set beside what the value study says it should pick.
//!
//! Deal `d` seats the lineup (the agent list cycled to fill the table) rotated by `d` seats, so
//! every agent picks from every seat. For each agent the report counts, per kind, how often it
//! was picked first, second, …, and in all; the *value ranking* is the agent's own value table
//! (from `--value FILE`, or a value study run on the spot), and the Spearman rank correlation
//! between pick rate and value says how well its picks follow the value.

use crate::error::ResearchError;
use crate::study::{self, Outcome};
use crate::value::{Performance, ValueReport};
use env::AgentBuilder;
use game::{MAX_PLAYERS, Seat};
use kessel::config::TokenAssignment;
use kessel::{Kessel, RuleConfig, Token, TokenSet};
use serde::{Deserialize, Serialize};

/// What to play.
#[derive(Clone, Debug)]
pub struct DraftConfig {
    /// Seats at the table.
    pub players: u8,
    /// Agent specs, cycled to fill the table.
    pub agents: Vec<String>,
    /// Games (deals), at least 1.
    pub deals: u64,
    /// Base seed.
    pub seed: u64,
    /// The rules (`players` and the token assignment are set by the study).
    pub rules: RuleConfig,
}

/// One kind as picked by one agent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KindPicks {
    /// The kind.
    pub token: Token,
    /// Picks at each pick order (first, second, …).
    pub by_order: Vec<u64>,
    /// Share of the agent's seat-games in which it picked this kind.
    pub pick_rate: f64,
    /// The kind's win difference in the agent's value table, when there is one.
    pub value: Option<f64>,
    /// Rank by value (1 = most valuable), when there is a value table.
    pub value_rank: Option<usize>,
}

/// One agent's picks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AgentPicks {
    /// The agent's spec.
    pub agent: String,
    /// Seat-games.
    pub seat_games: u64,
    /// Win rate over its seat-games.
    pub win_rate: f64,
    /// Per kind, in index order (enabled kinds only).
    pub kinds: Vec<KindPicks>,
    /// Its most picked kinds (as many as it holds), most picked first.
    pub picks: Vec<Token>,
    /// The most valuable kinds by its value table (as many as it holds).
    pub should_pick: Vec<Token>,
    /// Spearman rank correlation between pick rate and value (none without a value table, or
    /// when either is constant).
    pub spearman: Option<f64>,
}

/// The study's settings, as run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DraftSettings {
    /// Seats.
    pub players: u8,
    /// Agents.
    pub agents: Vec<String>,
    /// Deals.
    pub deals: u64,
    /// Base seed.
    pub seed: u64,
    /// The rules.
    pub rules: RuleConfig,
    /// Where the value ranking came from.
    pub value_source: String,
}

/// Everything the draft study found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DraftReport {
    /// `draft`.
    pub study: String,
    /// Settings.
    pub settings: DraftSettings,
    /// Games played (the value study's not included).
    pub games: u64,
    /// One entry per agent.
    pub agents: Vec<AgentPicks>,
    /// How to read the figures.
    pub notes: Vec<String>,
    /// Time and speed, when measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub performance: Option<Performance>,
}

/// Checks the settings; returns the rules with `players` set and `choose` assignment.
pub fn check(cfg: &DraftConfig) -> Result<RuleConfig, ResearchError> {
    let rules = study::table_rules(cfg.players, &cfg.rules, &cfg.agents)?;
    if cfg.agents.len() > cfg.players as usize {
        return Err(ResearchError::Settings(format!(
            "--agents: {} agents listed but the table has only {} seats",
            cfg.agents.len(),
            cfg.players
        )));
    }
    if cfg.deals == 0 {
        return Err(ResearchError::Settings("--deals: 0 plays nothing; give at least 1".into()));
    }
    Ok(RuleConfig { token_assignment: TokenAssignment::Choose, ..rules })
}

/// Reads a value report written by the value study (`value.json`).
pub fn read_value(path: &std::path::Path) -> Result<ValueReport, ResearchError> {
    let err = |message: String| ResearchError::ValueFile { path: path.display().to_string(), message };
    let text = std::fs::read_to_string(path).map_err(|e| err(e.to_string()))?;
    let r: ValueReport = serde_json::from_str(&text).map_err(|e| err(format!("not a value study report: {e}")))?;
    if r.study != "value" {
        return Err(err(format!("a `{}` report, not a value study report", r.study)));
    }
    Ok(r)
}

/// Ranks with ties sharing their mean rank (1 = largest).
fn ranks_desc(v: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by(|&a, &b| v[b].total_cmp(&v[a]));
    let mut r = vec![0.0; v.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && v[order[j + 1]] == v[order[i]] {
            j += 1;
        }
        for &k in &order[i..=j] {
            r[k] = (i + j) as f64 / 2.0 + 1.0;
        }
        i = j + 1;
    }
    r
}

/// Spearman's rank correlation (Pearson's on mid-ranks); none when either side is constant.
pub fn spearman(x: &[f64], y: &[f64]) -> Option<f64> {
    if x.len() != y.len() || x.len() < 2 {
        return None;
    }
    let (rx, ry) = (ranks_desc(x), ranks_desc(y));
    let n = x.len() as f64;
    let (mx, my) = (rx.iter().sum::<f64>() / n, ry.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in rx.iter().zip(&ry) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
        syy += (b - my) * (b - my);
    }
    (sxx > 0.0 && syy > 0.0).then(|| sxy / (sxx * syy).sqrt())
}

/// Plays the draft on the current rayon pool and sets it beside `value` (the agents' value
/// tables; `value_source` says where they came from). `progress` is called after every game.
pub fn run(
    cfg: &DraftConfig,
    value: Option<&ValueReport>,
    value_source: &str,
    factory: &dyn AgentBuilder<Kessel>,
    progress: &(dyn Fn() + Sync),
) -> Result<DraftReport, ResearchError> {
    let rules = check(cfg)?;
    let (names, idx) = study::agent_list(&[&cfg.agents]);
    study::check_agents(&names, factory)?;
    let n = rules.players as usize;
    let lineup: Vec<usize> = (0..n).map(|i| idx[0][i % cfg.agents.len()]).collect();
    let seat_agent = |d: u64, s: usize| lineup[(s + d as usize) % n];
    let spec = |d: u64| {
        let mut seating = [0u8; MAX_PLAYERS];
        for (s, a) in seating.iter_mut().enumerate().take(n) {
            *a = seat_agent(d, s) as u8;
        }
        let deal = study::deal(cfg.seed, d, &rules);
        study::GameSpec {
            rules,
            seed: deal.seed,
            agent_seed: deal.agent_seed,
            seating,
            focal: Seat(0),
            forbidden: TokenSet::EMPTY,
        }
    };
    let k = rules.tokens_per_player as usize;
    let mut counts = vec![vec![[0u64; Token::COUNT]; k]; names.len()];
    let mut any = vec![[0u64; Token::COUNT]; names.len()];
    let mut seat_games = vec![0u64; names.len()];
    let mut wins = vec![0.0f64; names.len()];
    study::play_folded(&names, cfg.deals, &spec, factory, progress, &mut |start, out: &[Outcome]| {
        for (i, o) in out.iter().enumerate() {
            let d = start + i as u64;
            let mut order = [0usize; MAX_PLAYERS];
            for &(seat, t) in &o.picks {
                let a = seat_agent(d, seat.index());
                let j = order[seat.index()];
                order[seat.index()] += 1;
                if j < k {
                    counts[a][j][t.index()] += 1;
                }
                any[a][t.index()] += 1;
            }
            for s in 0..n {
                seat_games[seat_agent(d, s)] += 1;
                wins[seat_agent(d, s)] += o.win[s];
            }
        }
    })?;
    let enabled: Vec<Token> = rules.enabled_tokens.iter().collect();
    let agents = names
        .iter()
        .enumerate()
        .map(|(a, name)| {
            let games = seat_games[a].max(1) as f64;
            let table = value.and_then(|v| v.tables.iter().find(|t| &t.focal == name));
            let value_of = |t: Token| table.and_then(|tb| tb.rows.iter().find(|r| r.token == t)).map(|r| r.win.diff);
            let mut kinds: Vec<KindPicks> = enabled
                .iter()
                .map(|&t| KindPicks {
                    token: t,
                    by_order: (0..k).map(|j| counts[a][j][t.index()]).collect(),
                    pick_rate: any[a][t.index()] as f64 / games,
                    value: value_of(t),
                    value_rank: None,
                })
                .collect();
            let valued: Vec<usize> = (0..kinds.len()).filter(|&i| kinds[i].value.is_some()).collect();
            let vals: Vec<f64> = valued.iter().map(|&i| kinds[i].value.unwrap_or(0.0)).collect();
            let rates: Vec<f64> = valued.iter().map(|&i| kinds[i].pick_rate).collect();
            let mut by_value = valued.clone();
            by_value.sort_by(|&x, &y| kinds[y].value.unwrap_or(0.0).total_cmp(&kinds[x].value.unwrap_or(0.0)));
            for (rank, &i) in by_value.iter().enumerate() {
                kinds[i].value_rank = Some(rank + 1);
            }
            let mut by_pick: Vec<usize> = (0..kinds.len()).collect();
            by_pick.sort_by(|&x, &y| kinds[y].pick_rate.total_cmp(&kinds[x].pick_rate).then(x.cmp(&y)));
            AgentPicks {
                agent: name.clone(),
                seat_games: seat_games[a],
                win_rate: wins[a] / games,
                picks: by_pick.iter().take(k).map(|&i| kinds[i].token).collect(),
                should_pick: by_value.iter().take(k).map(|&i| kinds[i].token).collect(),
                spearman: spearman(&rates, &vals),
                kinds,
            }
        })
        .collect();
    Ok(DraftReport {
        study: "draft".into(),
        settings: DraftSettings {
            players: cfg.players,
            agents: cfg.agents.clone(),
            deals: cfg.deals,
            seed: cfg.seed,
            rules,
            value_source: value_source.to_string(),
        },
        games: cfg.deals,
        agents,
        notes: vec![
            "token_assignment = choose (K2.1): before round 1 each seat in turn picks its kinds; the lineup rotates one seat per deal".into(),
            "pick rate: share of the agent's seat-games in which it picked the kind (at any pick order)".into(),
            "value: the kind's win difference in the agent's own value table; spearman: rank correlation of pick rate with value (1: it picks exactly by value)".into(),
        ],
        performance: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spearman_of_hand_ranked_lists() {
        assert_eq!(spearman(&[3.0, 2.0, 1.0], &[30.0, 20.0, 10.0]), Some(1.0));
        assert_eq!(spearman(&[3.0, 2.0, 1.0], &[10.0, 20.0, 30.0]), Some(-1.0));
        assert_eq!(spearman(&[1.0, 1.0, 1.0], &[10.0, 20.0, 30.0]), None);
        assert_eq!(ranks_desc(&[5.0, 7.0, 5.0, 1.0]), vec![2.5, 1.0, 2.5, 4.0]);
    }
}
