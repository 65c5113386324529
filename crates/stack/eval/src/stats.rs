//! Statistics over game records: win rates with Wilson intervals, per seat and per opponent, the
//! head-to-head matrix, Bradley–Terry ratings with bootstrap intervals, and Shift Token usage.
//!
//! Conventions (also stated in every report):
//! - An agent's **games** are seat-games: an agent that fills two seats of a game counts it twice.
//! - A **win** counts 1; a win shared by k players (K6.4) counts 1/k to each. Win rates and their
//!   Wilson intervals use these fractional wins.
//! - A **truncated** game (round limit, K6.5) is a non-win for every seat; truncations are reported.
//! - **Head-to-head**: the rate at which the row agent *finished ahead of* the column agent, over
//!   every pair of seats holding them in the same game; ties (shared wins, same elimination
//!   round, equal chips in a truncated game) count one half. Winners finish ahead of everybody,
//!   then (truncated games) seats still in by chips, then eliminated seats by elimination round.
//!   At a 2-seat table this is the row agent's win rate against the column agent (truncated
//!   games decided by chips in stock).
//! - **Ratings**: a Bradley–Terry model of those pairwise "finished ahead" results, fitted by the
//!   MM algorithm (Hunter 2004) with one virtual tie per pair of agents that met (so a rating
//!   stays finite), reported on the Elo scale (`400·log10` strength, mean 0); 95% intervals are the
//!   2.5 and 97.5 percentiles over bootstrap resamples of whole deals (seeded): the games of one
//!   deal (the same cards under every seating) are correlated by design, so the deal, not the
//!   game, is the independent unit that is resampled.
//! - **Tokens**: a play is counted when the agent chose the `token:*` action; the win rate "when
//!   played" is over seat-games in which that seat played the kind, "when held" over seat-games
//!   in which the seat still held it unplayed at the end.

use crate::arena::GameRecord;
use rand::{RngExt, SeedableRng};
use serde::{Deserialize, Serialize};

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval for `wins` successes in `n` trials (95%), which always holds
/// `wins / n`.
pub fn wilson(wins: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z = Z95;
    let p = wins / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // Rounding can leave the bound a few ulps past the estimate at 0 or n wins (2.8e-17 above
    // 0 wins in 7); the interval always holds it.
    ((center - half).clamp(0.0, p), (center + half).clamp(p, 1.0))
}

/// A rate with its interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rate {
    /// Seat-games.
    pub games: u64,
    /// Wins (fractional for shared wins).
    pub wins: f64,
    /// wins / games.
    pub win_rate: f64,
    /// Wilson 95% lower bound.
    pub ci_low: f64,
    /// Wilson 95% upper bound.
    pub ci_high: f64,
}

impl Rate {
    /// From counts.
    pub fn new(wins: f64, games: u64) -> Rate {
        let (lo, hi) = wilson(wins, games as f64);
        Rate { games, wins, win_rate: if games > 0 { wins / games as f64 } else { 0.0 }, ci_low: lo, ci_high: hi }
    }
}

/// Win rate at one seat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatRate {
    /// Seat index.
    pub seat: u8,
    /// The rate.
    #[serde(flatten)]
    pub rate: Rate,
}

/// Win rate in games where an opponent was at the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpponentRate {
    /// The opponent's name.
    pub opponent: String,
    /// The rate.
    #[serde(flatten)]
    pub rate: Rate,
}

/// Everything about one agent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AgentStats {
    /// The agent's spec.
    pub name: String,
    /// Seat-games.
    pub games: u64,
    /// Wins (shared wins fractional).
    pub wins: f64,
    /// wins / games.
    pub win_rate: f64,
    /// Wilson 95% lower bound.
    pub ci_low: f64,
    /// Wilson 95% upper bound.
    pub ci_high: f64,
    /// Seat-games that were truncated.
    pub truncated: u64,
    /// Mean rounds the agent took part in.
    pub mean_rounds_survived: f64,
    /// Mean chips in stock at the end.
    pub mean_final_chips: f64,
    /// Bradley–Terry rating (Elo scale, mean 0).
    pub rating: f64,
    /// Bootstrap 95% lower bound of the rating.
    pub rating_low: f64,
    /// Bootstrap 95% upper bound of the rating.
    pub rating_high: f64,
    /// Per seat.
    pub per_seat: Vec<SeatRate>,
    /// Per opponent present at the table.
    pub per_opponent: Vec<OpponentRate>,
}

/// The head-to-head matrix.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeadToHead {
    /// Row and column names.
    pub names: Vec<String>,
    /// `rate[i][j]`: how often `i` finished ahead of `j` (ties ½); `None` if they never met.
    pub rate: Vec<Vec<Option<f64>>>,
    /// Seat pairs compared.
    pub pairs: Vec<Vec<u64>>,
}

/// Usage of one token kind.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TokenStats {
    /// Kebab-case name.
    pub token: String,
    /// Times played.
    pub plays: u64,
    /// Plays per game.
    pub plays_per_game: f64,
    /// Plays in turns 1, 2, 3.
    pub by_turn: [u64; 3],
    /// Plays in rounds 1–10; index 10 counts rounds 11 and later.
    pub by_round: Vec<u64>,
    /// Mean round of a play.
    pub mean_round: f64,
    /// Plays per agent (same order as the report's agents).
    pub by_agent: Vec<u64>,
    /// Win rate of seat-games in which the seat played this kind.
    pub when_played: Rate,
    /// Win rate of seat-games in which the seat held it unplayed to the end.
    pub when_held: Rate,
}

/// Bradley–Terry strengths from pairwise results. `wins[i][j]` is i's score against j
/// (ties ½ each way), `n[i][j]` the number of comparisons. Returns Elo-scale ratings with mean 0.
pub fn bradley_terry(wins: &[Vec<f64>], n: &[Vec<f64>]) -> Vec<f64> {
    let k = wins.len();
    // One virtual tie per pair that met.
    let mut w = wins.to_vec();
    let mut m = n.to_vec();
    for i in 0..k {
        for j in 0..k {
            if i != j && n[i][j] > 0.0 {
                w[i][j] += 0.5;
                m[i][j] += 1.0;
            }
        }
    }
    let mut p = vec![1.0f64; k];
    for _ in 0..500 {
        let mut next = p.clone();
        let mut change: f64 = 0.0;
        for i in 0..k {
            let wi: f64 = (0..k).filter(|&j| j != i).map(|j| w[i][j]).sum();
            let d: f64 = (0..k).filter(|&j| j != i && m[i][j] > 0.0).map(|j| m[i][j] / (p[i] + p[j])).sum();
            if d > 0.0 && wi > 0.0 {
                next[i] = wi / d;
            }
        }
        let g = (next.iter().map(|x| x.ln()).sum::<f64>() / k as f64).exp();
        for (i, x) in next.iter_mut().enumerate() {
            *x /= g;
            change = change.max((*x - p[i]).abs());
        }
        p = next;
        if change < 1e-10 {
            break;
        }
    }
    let r: Vec<f64> = p.iter().map(|x| 400.0 * x.log10()).collect();
    let mean = r.iter().sum::<f64>() / k as f64;
    r.into_iter().map(|x| x - mean).collect()
}

/// Per-game pairwise results `(a, b, score of a)` over seat pairs with different agents.
fn pair_results(g: &GameRecord) -> Vec<(usize, usize, f64)> {
    let mut out = Vec::new();
    let n = g.seat_agent.len();
    for i in 0..n {
        for j in i + 1..n {
            let (a, b) = (g.seat_agent[i], g.seat_agent[j]);
            if a == b {
                continue;
            }
            let s = if g.standing[i] > g.standing[j] {
                1.0
            } else if g.standing[i] < g.standing[j] {
                0.0
            } else {
                0.5
            };
            out.push((a, b, s));
        }
    }
    out
}

fn pair_tables(k: usize, games: &[GameRecord], idx: impl Iterator<Item = usize>) -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
    let mut w = vec![vec![0.0; k]; k];
    let mut n = vec![vec![0.0; k]; k];
    for gi in idx {
        for (a, b, s) in pair_results(&games[gi]) {
            w[a][b] += s;
            w[b][a] += 1.0 - s;
            n[a][b] += 1.0;
            n[b][a] += 1.0;
        }
    }
    (w, n)
}

/// Ratings and bootstrap intervals (`resamples` resamples of the deals, seeded).
pub fn ratings(k: usize, games: &[GameRecord], resamples: usize, seed: u64) -> Vec<(f64, f64, f64)> {
    let (w, n) = pair_tables(k, games, 0..games.len());
    let point = bradley_terry(&w, &n);
    if games.is_empty() || resamples == 0 {
        return point.iter().map(|&r| (r, r, r)).collect();
    }
    // Pre-tally each deal's pairs (all its seatings together), in order of first appearance.
    let mut deal_index: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
    let mut per_deal: Vec<Vec<(usize, usize, f64)>> = Vec::new();
    for g in games {
        let d = *deal_index.entry(g.deal).or_insert_with(|| {
            per_deal.push(Vec::new());
            per_deal.len() - 1
        });
        per_deal[d].extend(pair_results(g));
    }
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(resamples); k];
    for _ in 0..resamples {
        let mut w = vec![vec![0.0; k]; k];
        let mut n = vec![vec![0.0; k]; k];
        for _ in 0..per_deal.len() {
            let di = rng.random_range(0..per_deal.len());
            for &(a, b, s) in &per_deal[di] {
                w[a][b] += s;
                w[b][a] += 1.0 - s;
                n[a][b] += 1.0;
                n[b][a] += 1.0;
            }
        }
        for (i, r) in bradley_terry(&w, &n).into_iter().enumerate() {
            samples[i].push(r);
        }
    }
    (0..k)
        .map(|i| {
            let mut s = samples[i].clone();
            s.sort_by(|a, b| a.total_cmp(b));
            let q = |f: f64| s[((f * (s.len() - 1) as f64).round() as usize).min(s.len() - 1)];
            (point[i], q(0.025), q(0.975))
        })
        .collect()
}

/// All statistics of a tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// Per agent, in the order of `names`.
    pub agents: Vec<AgentStats>,
    /// Head-to-head.
    pub head_to_head: HeadToHead,
    /// Per token kind (all 16).
    pub tokens: Vec<TokenStats>,
    /// Games played.
    pub games: u64,
    /// Games truncated by the round limit.
    pub truncated_games: u64,
    /// Mean rounds per game.
    pub mean_rounds: f64,
}

/// Computes every statistic from the records. `names[i]` is agent id `i`.
pub fn compute(names: &[String], games: &[GameRecord], kinds: &[&str], bootstrap: usize, seed: u64) -> Stats {
    let k = names.len();
    let players = games.first().map_or(0, |g| g.seat_agent.len());
    let mut wins = vec![0.0; k];
    let mut cnt = vec![0u64; k];
    let mut trunc = vec![0u64; k];
    let mut surv = vec![0.0; k];
    let mut chips = vec![0.0; k];
    let mut seat_w = vec![vec![0.0; players]; k];
    let mut seat_n = vec![vec![0u64; players]; k];
    let mut opp_w = vec![vec![0.0; k]; k];
    let mut opp_n = vec![vec![0u64; k]; k];
    for g in games {
        for (s, &a) in g.seat_agent.iter().enumerate() {
            cnt[a] += 1;
            wins[a] += g.win[s];
            trunc[a] += g.truncated as u64;
            surv[a] += g.survived[s] as f64;
            chips[a] += g.chips[s] as f64;
            seat_w[a][s] += g.win[s];
            seat_n[a][s] += 1;
            let mut present = vec![false; k];
            for (t, &b) in g.seat_agent.iter().enumerate() {
                if t != s && b != a {
                    present[b] = true;
                }
            }
            for b in 0..k {
                if present[b] {
                    opp_w[a][b] += g.win[s];
                    opp_n[a][b] += 1;
                }
            }
        }
    }
    let rat = ratings(k, games, bootstrap, seed);
    let agents = (0..k)
        .map(|a| {
            let r = Rate::new(wins[a], cnt[a]);
            let c = cnt[a].max(1) as f64;
            AgentStats {
                name: names[a].clone(),
                games: cnt[a],
                wins: wins[a],
                win_rate: r.win_rate,
                ci_low: r.ci_low,
                ci_high: r.ci_high,
                truncated: trunc[a],
                mean_rounds_survived: surv[a] / c,
                mean_final_chips: chips[a] / c,
                rating: rat[a].0,
                rating_low: rat[a].1,
                rating_high: rat[a].2,
                per_seat: (0..players)
                    .filter(|&s| seat_n[a][s] > 0)
                    .map(|s| SeatRate { seat: s as u8, rate: Rate::new(seat_w[a][s], seat_n[a][s]) })
                    .collect(),
                per_opponent: (0..k)
                    .filter(|&b| opp_n[a][b] > 0)
                    .map(|b| OpponentRate { opponent: names[b].clone(), rate: Rate::new(opp_w[a][b], opp_n[a][b]) })
                    .collect(),
            }
        })
        .collect();
    let (w, n) = pair_tables(k, games, 0..games.len());
    let head_to_head = HeadToHead {
        names: names.to_vec(),
        rate: (0..k).map(|i| (0..k).map(|j| (n[i][j] > 0.0).then(|| w[i][j] / n[i][j])).collect()).collect(),
        pairs: (0..k).map(|i| (0..k).map(|j| n[i][j] as u64).collect()).collect(),
    };
    Stats {
        agents,
        head_to_head,
        tokens: token_stats(k, games, kinds),
        games: games.len() as u64,
        truncated_games: games.iter().filter(|g| g.truncated).count() as u64,
        mean_rounds: games.iter().map(|g| g.rounds as f64).sum::<f64>() / games.len().max(1) as f64,
    }
}

/// Token usage (see the module documentation).
pub fn token_stats(k: usize, games: &[GameRecord], kinds: &[&str]) -> Vec<TokenStats> {
    kinds
        .iter()
        .enumerate()
        .map(|(kind, name)| {
            let t = kind as u8;
            let mut plays = 0u64;
            let mut by_turn = [0u64; 3];
            let mut by_round = vec![0u64; 11];
            let mut round_sum = 0.0;
            let mut by_agent = vec![0u64; k];
            let (mut pw, mut pn, mut hw, mut hn) = (0.0, 0u64, 0.0, 0u64);
            for g in games {
                let mut played_by = vec![false; g.seat_agent.len()];
                for p in g.tracked_plays.iter().filter(|p| p.kind == t) {
                    plays += 1;
                    by_turn[(p.turn.clamp(1, 3) - 1) as usize] += 1;
                    by_round[(p.round.max(1) as usize - 1).min(10)] += 1;
                    round_sum += p.round as f64;
                    by_agent[g.seat_agent[p.seat as usize]] += 1;
                    played_by[p.seat as usize] = true;
                }
                for s in 0..g.seat_agent.len() {
                    if played_by[s] {
                        pw += g.win[s];
                        pn += 1;
                    } else if g.unplayed[s] >> kind & 1 == 1 {
                        hw += g.win[s];
                        hn += 1;
                    }
                }
            }
            TokenStats {
                token: name.to_string(),
                plays,
                plays_per_game: plays as f64 / games.len().max(1) as f64,
                by_turn,
                by_round,
                mean_round: if plays > 0 { round_sum / plays as f64 } else { 0.0 },
                by_agent,
                when_played: Rate::new(pw, pn),
                when_held: Rate::new(hw, hn),
            }
        })
        .collect()
}
