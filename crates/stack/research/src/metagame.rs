//! `metagame`: what good drafting is, as an empirical game over loadouts. The strongest loadouts
//! of the loadout race (and the loadouts the agents draft themselves) are the strategies; one
//! agent plays every seat, and only the loadouts differ.
//!
//! - **Heads-up payoff matrix.** For every pair of candidates `a ≠ b`, deal `d` is played twice
//!   with the seats swapped (the same game seed and agent seeds). The deal's payoff to `a` is
//!   half its win-share margin over `b`, averaged over the two seatings:
//!   `x_d = ((w_a − w_b)|a in seat 0 + (w_a − w_b)|a in seat 1) / 4 ∈ [−½, ½]`, so
//!   `A[a][b] = mean x_d = −A[b][a]`: a **symmetric zero-sum** game (win rate minus one half,
//!   with ties and truncated games counted as they fall), value 0.
//! - **Nash equilibrium** of that game by fictitious play ([`solve_symmetric_zero_sum`]): the
//!   empirical frequency of best responses to the running average converges to a maximin
//!   strategy (Robinson 1951). The report gives its exploitability `max_a (A x)_a` (0 at an exact
//!   equilibrium). The equilibrium's **support** is the set of loadouts a good drafter mixes
//!   over; the percentile bootstrap over deals (the same deals for every cell) says how often
//!   each candidate is in the support of the resampled game's equilibrium.
//!   (At more than two seats drafting is not zero-sum: [`crate::field`] plays that game.)
//! - **Draft gain.** Under `token_assignment = "choose"`, deal `d` is played with one seat
//!   (rotating) taken by the new drafter and the others by the old, and again with the old agent
//!   in every seat; the paired difference of that seat's win share is what the new draft gains.

use crate::error::ResearchError;
use crate::estimate::Estimate;
use crate::study::{self, GameSpec, Outcome};
use crate::value::Performance;
use env::AgentBuilder;
use eval::paired::{Paired, PairedSums};
use game::{MAX_PLAYERS, Seat, derive_seed};
use kessel::config::TokenAssignment;
use kessel::{Kessel, RuleConfig, TokenSet};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// Stream tag of the meta-game's bootstrap.
const BOOT_STREAM: u64 = 0x7E5E_A4C4_4E45_0006;
/// Fictitious-play iterations for the game on the data.
pub const FP_ITERATIONS: usize = 200_000;
/// Fictitious-play iterations per bootstrap resample.
const FP_BOOT_ITERATIONS: usize = 20_000;
/// A strategy's weight counted as support.
pub const SUPPORT: f64 = 0.02;

/// A mixed strategy of a symmetric zero-sum game and how far it is from equilibrium.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Solution {
    /// Weight per strategy (sums to 1).
    pub strategy: Vec<f64>,
    /// `max_a (A x)_a`: the most any pure strategy gains against it (0 at an equilibrium).
    pub exploitability: f64,
}

/// Solves the symmetric zero-sum game with antisymmetric payoff `a` (`a[i][j]` to the row
/// player) by fictitious play for `iterations` steps (module documentation). Ties between best
/// responses go to the lowest index. An empty or non-square matrix is an error.
pub fn solve_symmetric_zero_sum(a: &[Vec<f64>], iterations: usize) -> Result<Solution, ResearchError> {
    let k = a.len();
    if k == 0 || a.iter().any(|r| r.len() != k) {
        return Err(ResearchError::Settings("meta-game: the payoff matrix must be square and non-empty".into()));
    }
    if a.iter().flatten().any(|x| !x.is_finite()) {
        return Err(ResearchError::Settings("meta-game: the payoff matrix holds a non-finite entry".into()));
    }
    let mut counts = vec![0.0; k];
    // Payoff of each pure strategy against the sum of the strategies played so far; the first
    // step responds to the uniform strategy.
    let mut against: Vec<f64> = (0..k).map(|i| a[i].iter().sum::<f64>()).collect();
    let mut first = true;
    for _ in 0..iterations.max(1) {
        let mut best = 0;
        for i in 1..k {
            if against[i] > against[best] {
                best = i;
            }
        }
        if first {
            against = vec![0.0; k];
            first = false;
        }
        counts[best] += 1.0;
        for (i, x) in against.iter_mut().enumerate() {
            *x += a[i][best];
        }
    }
    let total: f64 = counts.iter().sum();
    let strategy: Vec<f64> = counts.iter().map(|c| c / total).collect();
    let exploitability =
        (0..k).map(|i| (0..k).map(|j| a[i][j] * strategy[j]).sum::<f64>()).fold(f64::NEG_INFINITY, f64::max);
    Ok(Solution { strategy, exploitability })
}

/// What to play.
#[derive(Clone, Debug)]
pub struct MetaConfig {
    /// The agent in every seat.
    pub agent: String,
    /// Candidate loadouts (at least 2, distinct).
    pub candidates: Vec<TokenSet>,
    /// Deals per heads-up pair (each played with both seatings).
    pub deals_2p: u64,
    /// Bootstrap resamples of the heads-up deals.
    pub resamples: usize,
    /// Base seed.
    pub seed: u64,
    /// The rules.
    pub rules: RuleConfig,
}

/// A candidate's place in the heads-up game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    /// The kinds joined by `+`.
    pub loadout: String,
    /// Weight in the equilibrium.
    pub nash: f64,
    /// Share of bootstrap resamples whose equilibrium holds it with weight at least [`SUPPORT`].
    pub support_rate: f64,
    /// Mean payoff against the other candidates (uniform opponent), win rate minus one half.
    pub mean_payoff: f64,
    /// Payoff against the equilibrium (0 for a strategy in its support, up to the exploitability).
    pub vs_nash: f64,
}

/// Everything the meta-game found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MetaReport {
    /// `metagame`.
    pub study: String,
    /// The agent in every seat.
    pub agent: String,
    /// Deals per heads-up pair.
    pub deals_2p: u64,
    /// Bootstrap resamples.
    pub resamples: usize,
    /// Base seed.
    pub seed: u64,
    /// Candidates in the order of the matrix.
    pub candidates: Vec<Candidate>,
    /// `payoff[a][b]`: win rate of `a` against `b` minus one half (heads-up).
    pub payoff: Vec<Vec<f64>>,
    /// Half-widths of the payoffs' paired 95% intervals.
    pub payoff_half: Vec<Vec<f64>>,
    /// Exploitability of the equilibrium found.
    pub exploitability: f64,
    /// Games played.
    pub games: u64,
    /// How to read the figures.
    pub notes: Vec<String>,
    /// Time and speed, when measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub performance: Option<Performance>,
}

impl MetaReport {
    /// Candidates by equilibrium weight, heaviest first.
    pub fn by_weight(&self) -> Vec<&Candidate> {
        let mut v: Vec<&Candidate> = self.candidates.iter().collect();
        v.sort_by(|a, b| b.nash.total_cmp(&a.nash).then(b.mean_payoff.total_cmp(&a.mean_payoff)));
        v
    }
}

/// A game with fixed loadouts `loadouts` (per seat), agent 0 in every seat, dealt from deal `d`.
pub(crate) fn fixed_game(rules: &RuleConfig, seed: u64, d: u64, loadouts: [TokenSet; MAX_PLAYERS]) -> GameSpec {
    let rules = RuleConfig { token_assignment: TokenAssignment::Fixed, fixed_loadouts: loadouts, ..*rules };
    GameSpec {
        rules,
        seed: derive_seed(seed, d),
        agent_seed: derive_seed(seed ^ study::AGENT_STREAM, d),
        seating: [0; MAX_PLAYERS],
        focal: Seat(0),
        forbidden: TokenSet::EMPTY,
    }
}

/// Checks the settings.
pub fn check(cfg: &MetaConfig) -> Result<RuleConfig, ResearchError> {
    let rules = study::table_rules(2, &cfg.rules, std::slice::from_ref(&cfg.agent))?;
    study::check_candidates("meta-game", &cfg.candidates, &rules)?;
    if cfg.deals_2p < 2 {
        return Err(ResearchError::Settings("meta-game: give at least 2 deals per pair".into()));
    }
    Ok(rules)
}

/// Games the study plays.
pub fn games(cfg: &MetaConfig) -> u64 {
    let k = cfg.candidates.len() as u64;
    k * (k - 1) / 2 * cfg.deals_2p * 2
}

/// Runs the study on the current rayon pool; `progress` is called after every game.
pub fn run(
    cfg: &MetaConfig,
    factory: &dyn AgentBuilder<Kessel>,
    progress: &(dyn Fn() + Sync),
) -> Result<MetaReport, ResearchError> {
    let rules = check(cfg)?;
    let names = vec![cfg.agent.clone()];
    study::check_agents(&names, factory)?;
    let k = cfg.candidates.len();
    let pairs: Vec<(usize, usize)> = (0..k).flat_map(|i| (i + 1..k).map(move |j| (i, j))).collect();
    let n = cfg.deals_2p;
    // Game g: pair g / (2n), deal (g / 2) % n, seating g % 2 (0: a in seat 0).
    let spec = |g: u64| {
        let (a, b) = pairs[(g / (2 * n)) as usize];
        let d = (g / 2) % n;
        let mut l = [TokenSet::EMPTY; MAX_PLAYERS];
        let (first, second) = if g.is_multiple_of(2) { (a, b) } else { (b, a) };
        l[0] = cfg.candidates[first];
        l[1] = cfg.candidates[second];
        fixed_game(&rules, cfg.seed, d, l)
    };
    // samples[pair][deal]: x_d for a of the pair.
    let mut samples: Vec<Vec<f64>> = vec![vec![0.0; n as usize]; pairs.len()];
    let total = pairs.len() as u64 * 2 * n;
    study::play_folded(&names, total, &spec, factory, progress, &mut |start, out: &[Outcome]| {
        for (i, o) in out.iter().enumerate() {
            let g = start + i as u64;
            let (p, d) = ((g / (2 * n)) as usize, ((g / 2) % n) as usize);
            let margin = if g.is_multiple_of(2) { o.win[0] - o.win[1] } else { o.win[1] - o.win[0] };
            samples[p][d] += margin / 4.0;
        }
    })?;
    let matrix = |draw: Option<&[usize]>| {
        let mut m = vec![vec![0.0; k]; k];
        for (p, &(a, b)) in pairs.iter().enumerate() {
            let s = &samples[p];
            let v = match draw {
                None => s.iter().sum::<f64>() / s.len() as f64,
                Some(ds) => ds.iter().map(|&d| s[d]).sum::<f64>() / ds.len() as f64,
            };
            m[a][b] = v;
            m[b][a] = -v;
        }
        m
    };
    let payoff = matrix(None);
    let mut half = vec![vec![0.0; k]; k];
    for (p, &(a, b)) in pairs.iter().enumerate() {
        let e = Estimate::of(&samples[p]);
        half[a][b] = e.half_width();
        half[b][a] = e.half_width();
    }
    let solution = solve_symmetric_zero_sum(&payoff, FP_ITERATIONS)?;
    let in_support: Vec<Vec<bool>> = (0..cfg.resamples)
        .into_par_iter()
        .map(|r| {
            let mut rng = Pcg64Mcg::seed_from_u64(derive_seed(cfg.seed ^ BOOT_STREAM, r as u64));
            let draw: Vec<usize> = (0..n).map(|_| rng.random_range(0..n as usize)).collect();
            let s = solve_symmetric_zero_sum(&matrix(Some(&draw)), FP_BOOT_ITERATIONS)?;
            Ok(s.strategy.iter().map(|&w| w >= SUPPORT).collect())
        })
        .collect::<Result<_, ResearchError>>()?;
    let candidates = (0..k)
        .map(|a| Candidate {
            loadout: study::loadout_name(cfg.candidates[a]),
            nash: solution.strategy[a],
            support_rate: if in_support.is_empty() {
                0.0
            } else {
                in_support.iter().filter(|s| s[a]).count() as f64 / in_support.len() as f64
            },
            mean_payoff: payoff[a].iter().sum::<f64>() / (k - 1) as f64,
            vs_nash: (0..k).map(|b| payoff[a][b] * solution.strategy[b]).sum(),
        })
        .collect();

    Ok(MetaReport {
        study: "metagame".into(),
        agent: cfg.agent.clone(),
        deals_2p: n,
        resamples: cfg.resamples,
        seed: cfg.seed,
        candidates,
        payoff,
        payoff_half: half,
        exploitability: solution.exploitability,
        games: total,
        notes: vec![
            format!("every seat is played by {}; only the loadouts differ", cfg.agent),
            "heads-up payoff: win rate of the row loadout against the column loadout minus one half, each deal played with both seatings (a symmetric zero-sum game)".into(),
            format!(
                "equilibrium: fictitious play, {FP_ITERATIONS} steps; support: weight at least {SUPPORT}; support rate: share of {} bootstrap resamples of the deals (the same deals for every cell) whose equilibrium holds the loadout",
                cfg.resamples
            ),
        ],
        performance: None,
    })
}

/// The draft-gain measurement: `new` against `old` under `token_assignment = "choose"`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DraftGain {
    /// Seats.
    pub players: u8,
    /// The new drafter.
    pub new: String,
    /// The old drafter (every other seat, and every seat of the baseline arm).
    pub old: String,
    /// The seat's win share with `new` minus with `old` there (paired over deals, 95%).
    pub gain: Paired,
    /// What `new` drafted most often.
    pub new_loadout: String,
    /// What `old` drafted most often.
    pub old_loadout: String,
}

/// Plays `deals` paired deals at `players` seats under `choose`: arm A seats `new` in seat
/// `d mod players` and `old` elsewhere, arm B `old` everywhere (module documentation).
#[allow(clippy::too_many_arguments)]
pub fn draft_gain(
    players: u8,
    new: &str,
    old: &str,
    deals: u64,
    seed: u64,
    rules: &RuleConfig,
    factory: &dyn AgentBuilder<Kessel>,
    progress: &(dyn Fn() + Sync),
) -> Result<DraftGain, ResearchError> {
    let names = vec![old.to_string(), new.to_string()];
    let rules = study::table_rules(players, rules, &names)?;
    if deals < 2 {
        return Err(ResearchError::Settings("draft gain: give at least 2 deals".into()));
    }
    study::check_agents(&names, factory)?;
    let rules = RuleConfig { token_assignment: TokenAssignment::Choose, ..rules };
    // Game g: deal g / 2, arm g % 2 (0: new in the focal seat).
    let spec = |g: u64| {
        let deal = study::deal(seed, g / 2, &rules);
        let seating = study::seating(deal.focal, players, if g.is_multiple_of(2) { 1 } else { 0 }, &[0]);
        GameSpec {
            rules,
            seed: deal.seed,
            agent_seed: deal.agent_seed,
            seating,
            focal: deal.focal,
            forbidden: TokenSet::EMPTY,
        }
    };
    let mut arms = vec![[0.0f64; 2]; deals as usize];
    let mut drafted: [std::collections::BTreeMap<String, u64>; 2] = Default::default();
    study::play_folded(&names, 2 * deals, &spec, factory, progress, &mut |start, out: &[Outcome]| {
        for (i, o) in out.iter().enumerate() {
            let g = start + i as u64;
            let focal = (g / 2) % players as u64;
            arms[(g / 2) as usize][(g % 2) as usize] = o.win[focal as usize];
            let mut l = TokenSet::EMPTY;
            for &(s, t) in &o.picks {
                if s.index() as u64 == focal {
                    l.insert(t);
                }
            }
            *drafted[(g % 2) as usize].entry(study::loadout_name(l)).or_default() += 1;
        }
    })?;
    let mut s = PairedSums::default();
    for a in &arms {
        s.push(a[0], a[1]);
    }
    let most = |m: &std::collections::BTreeMap<String, u64>| {
        m.iter().max_by_key(|(l, c)| (**c, std::cmp::Reverse((*l).clone()))).map(|(l, _)| l.clone()).unwrap_or_default()
    };
    Ok(DraftGain {
        players,
        new: new.into(),
        old: old.into(),
        gain: s.estimate(),
        new_loadout: most(&drafted[0]),
        old_loadout: most(&drafted[1]),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rock_paper_scissors_is_solved_by_the_uniform_mix() {
        let a = vec![vec![0.0, -1.0, 1.0], vec![1.0, 0.0, -1.0], vec![-1.0, 1.0, 0.0]];
        let s = solve_symmetric_zero_sum(&a, 200_000).unwrap();
        for w in &s.strategy {
            assert!((w - 1.0 / 3.0).abs() < 0.01, "{:?}", s.strategy);
        }
        assert!(s.exploitability < 0.01, "{}", s.exploitability);
    }

    #[test]
    fn a_dominated_strategy_gets_no_weight() {
        // Rock-paper-scissors plus a fourth strategy that loses to everything.
        let a = vec![
            vec![0.0, -1.0, 1.0, 0.5],
            vec![1.0, 0.0, -1.0, 0.5],
            vec![-1.0, 1.0, 0.0, 0.5],
            vec![-0.5, -0.5, -0.5, 0.0],
        ];
        let s = solve_symmetric_zero_sum(&a, 100_000).unwrap();
        assert!(s.strategy[3] < 1e-3, "{:?}", s.strategy);
        assert!(s.exploitability < 0.01);
    }

    #[test]
    fn a_dominant_strategy_is_played_alone() {
        let a = vec![vec![0.0, 0.2, 0.1], vec![-0.2, 0.0, 0.3], vec![-0.1, -0.3, 0.0]];
        let s = solve_symmetric_zero_sum(&a, 10_000).unwrap();
        assert!(s.strategy[0] > 0.999, "{:?}", s.strategy);
        assert!(s.exploitability.abs() < 1e-3);
    }

    #[test]
    fn bad_matrices_are_errors() {
        assert!(solve_symmetric_zero_sum(&[], 10).is_err());
        assert!(solve_symmetric_zero_sum(&[vec![0.0, 1.0]], 10).is_err());
        assert!(solve_symmetric_zero_sum(&[vec![f64::NAN]], 10).is_err());
    }
}
