//! `field`: what to draft at a table of more than two, as a symmetric empirical game.
//!
//! Heads-up drafting is a two-player zero-sum game ([`crate::metagame`]); at four seats it is
//! not, and "which loadout does one seat gain by" depends on what the other three drafted. So the
//! candidates are the strategies of a **symmetric `p`-player game**: every *profile* (a multiset
//! of `p` candidates, one per seat; `C(k + p − 1, p)` of them) is played on the same deals, the
//! profile's seats rotated over the table from deal to deal, one agent in every seat. A
//! candidate's payoff in a profile is the mean win share of the seats that hold it.
//!
//! - **Equilibrium.** A symmetric mixed strategy `x` (every seat drafts candidate `a` with
//!   probability `x_a`, independently) is an equilibrium when no candidate does better against a
//!   table drawn from `x` than `x` itself. Found by discrete replicator dynamics (multiplicative
//!   weights on the payoff against the field) from the uniform mix, keeping the iterate with the
//!   least **regret** `max_a u_a(x) − Σ_b x_b u_b(x)` (0 at an equilibrium; reported).
//! - **Invasion.** Each candidate's gain against the equilibrium field, `u_a(x) − Σ_b x_b u_b(x)`,
//!   with a percentile-bootstrap interval over the deals (the same resampled deals for every
//!   profile) and a bootstrap p-value, Holm-corrected over the candidates: the equilibrium is
//!   **not invadable** when no candidate gains significantly.
//! - **Support.** How often each candidate holds weight ≥ [`crate::metagame::SUPPORT`] in the
//!   equilibrium of a bootstrap resample: how sure the answer is.

use crate::error::ResearchError;
use crate::metagame::{SUPPORT, fixed_game};
use crate::stats::{ALPHA, holm};
use crate::study::{self, Outcome};
use crate::value::Performance;
use env::AgentBuilder;
use game::{MAX_PLAYERS, derive_seed};
use kessel::{Kessel, RuleConfig, TokenSet};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Stream tag of the field's bootstrap.
const BOOT_STREAM: u64 = 0x7E5E_A4C4_F1E1_0008;
/// Replicator steps for the game on the data.
pub const STEPS: usize = 20_000;
/// Replicator steps per bootstrap resample.
const BOOT_STEPS: usize = 4_000;
/// Step size of the replicator dynamics (payoffs are win shares, differences of a few percent).
const RATE: f64 = 2.0;

/// What to play.
#[derive(Clone, Debug)]
pub struct FieldConfig {
    /// The agent in every seat.
    pub agent: String,
    /// Candidate loadouts (at least 2, distinct).
    pub candidates: Vec<TokenSet>,
    /// Seats (3 to 6: the profiles grow as `C(k + p − 1, p)`).
    pub players: u8,
    /// Deals per profile.
    pub deals: u64,
    /// Bootstrap resamples of the deals.
    pub resamples: usize,
    /// Base seed.
    pub seed: u64,
    /// The rules.
    pub rules: RuleConfig,
}

/// The profiles of a symmetric game of `k` strategies and `players` seats, and what is needed to
/// evaluate a mixed strategy against them.
#[derive(Clone, Debug)]
pub struct SymmetricGame {
    k: usize,
    /// Every profile as counts per strategy (summing to the seats), in lexicographic order.
    profiles: Vec<Vec<u8>>,
    /// The other seats' multisets (`players − 1` of them) with their multinomial coefficients.
    others: Vec<(Vec<u8>, f64)>,
    /// `joined[o * k + a]`: the profile of `others[o]` plus one seat of `a`.
    joined: Vec<usize>,
}

/// Every vector of `k` counts summing to `n`, in lexicographic order.
fn compositions(k: usize, n: u8) -> Vec<Vec<u8>> {
    fn go(k: usize, n: u8, prefix: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if prefix.len() == k - 1 {
            prefix.push(n);
            out.push(prefix.clone());
            prefix.pop();
            return;
        }
        for c in (0..=n).rev() {
            prefix.push(c);
            go(k, n - c, prefix, out);
            prefix.pop();
        }
    }
    let mut out = Vec::new();
    go(k, n, &mut Vec::with_capacity(k), &mut out);
    out
}

fn factorial(n: u8) -> f64 {
    (1..=n).map(f64::from).product()
}

impl SymmetricGame {
    /// The game of `k ≥ 1` strategies at `players ≥ 2` seats.
    pub fn new(k: usize, players: u8) -> SymmetricGame {
        let profiles = compositions(k, players);
        let index: HashMap<&[u8], usize> = profiles.iter().enumerate().map(|(i, p)| (p.as_slice(), i)).collect();
        let others: Vec<(Vec<u8>, f64)> = compositions(k, players - 1)
            .into_iter()
            .map(|m| {
                let coef = factorial(players - 1) / m.iter().map(|&c| factorial(c)).product::<f64>();
                (m, coef)
            })
            .collect();
        let mut joined = Vec::with_capacity(others.len() * k);
        for (m, _) in &others {
            for a in 0..k {
                let mut p = m.clone();
                p[a] += 1;
                joined.push(index[p.as_slice()]);
            }
        }
        SymmetricGame { k, profiles, others, joined }
    }

    /// The profiles, as counts per strategy.
    pub fn profiles(&self) -> &[Vec<u8>] {
        &self.profiles
    }

    /// `u_a(x)` for every strategy `a`: the expected payoff of one seat playing `a` when every
    /// other seat draws its strategy from `x`. `payoff[q][a]` is `a`'s payoff in profile `q`
    /// (read only where `a` is in the profile).
    pub fn against(&self, payoff: &[Vec<f64>], x: &[f64]) -> Vec<f64> {
        let mut u = vec![0.0; self.k];
        for (o, (m, coef)) in self.others.iter().enumerate() {
            let p: f64 = coef * m.iter().zip(x).map(|(&c, &xi)| xi.powi(c as i32)).product::<f64>();
            if p == 0.0 {
                continue;
            }
            for (a, ua) in u.iter_mut().enumerate() {
                *ua += p * payoff[self.joined[o * self.k + a]][a];
            }
        }
        u
    }

    /// The most a strategy gains against `x` over `x` itself (0 at an equilibrium).
    pub fn regret(&self, payoff: &[Vec<f64>], x: &[f64]) -> f64 {
        let u = self.against(payoff, x);
        let mean: f64 = u.iter().zip(x).map(|(a, b)| a * b).sum();
        u.iter().fold(f64::NEG_INFINITY, |m, &v| m.max(v)) - mean
    }

    /// A symmetric equilibrium by replicator dynamics from the uniform mix (module documentation):
    /// the strategy with the least regret seen in `steps` steps, and that regret.
    pub fn solve(&self, payoff: &[Vec<f64>], steps: usize) -> Result<(Vec<f64>, f64), ResearchError> {
        if payoff.len() != self.profiles.len() || payoff.iter().any(|r| r.len() != self.k) {
            return Err(ResearchError::Settings("field: the payoff table does not match the profiles".into()));
        }
        if payoff.iter().flatten().any(|v| !v.is_finite()) {
            return Err(ResearchError::Settings("field: the payoff table holds a non-finite entry".into()));
        }
        let mut x = vec![1.0 / self.k as f64; self.k];
        let mut best = (x.clone(), self.regret(payoff, &x));
        for _ in 0..steps {
            let u = self.against(payoff, &x);
            let mean: f64 = u.iter().zip(&x).map(|(a, b)| a * b).sum();
            let regret = u.iter().fold(f64::NEG_INFINITY, |m, &v| m.max(v)) - mean;
            if regret < best.1 {
                best = (x.clone(), regret);
            }
            for (xa, ua) in x.iter_mut().zip(&u) {
                *xa *= (RATE * (ua - mean)).exp();
            }
            let total: f64 = x.iter().sum();
            x.iter_mut().for_each(|v| *v /= total);
        }
        let last = self.regret(payoff, &x);
        if last < best.1 {
            best = (x, last);
        }
        Ok(best)
    }
}

/// A candidate's place in the field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FieldCandidate {
    /// The kinds joined by `+`.
    pub loadout: String,
    /// Weight in the equilibrium.
    pub weight: f64,
    /// Share of bootstrap resamples whose equilibrium holds it with weight at least [`SUPPORT`].
    pub support_rate: f64,
    /// Win share of one seat drafting it at a table that drafts by the equilibrium.
    pub vs_field: f64,
    /// Its gain against the equilibrium field over the field's own mean (win share).
    pub gain: f64,
    /// Percentile-bootstrap 95% interval of the gain.
    pub gain_low: f64,
    /// Upper end.
    pub gain_high: f64,
    /// Holm-adjusted bootstrap p-value of the gain (over the candidates).
    pub p_holm: f64,
}

/// Everything the field game found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FieldReport {
    /// `field`.
    pub study: String,
    /// The agent in every seat.
    pub agent: String,
    /// Seats.
    pub players: u8,
    /// Deals per profile.
    pub deals: u64,
    /// Profiles played.
    pub profiles: usize,
    /// Bootstrap resamples.
    pub resamples: usize,
    /// Base seed.
    pub seed: u64,
    /// Candidates in their given order.
    pub candidates: Vec<FieldCandidate>,
    /// Regret of the equilibrium found (win share; 0 at an exact equilibrium).
    pub regret: f64,
    /// Some candidate gains significantly against the equilibrium (Holm, 5%).
    pub invaded: bool,
    /// Games played.
    pub games: u64,
    /// How to read the figures.
    pub notes: Vec<String>,
    /// Time and speed, when measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub performance: Option<Performance>,
}

impl FieldReport {
    /// Candidates by equilibrium weight, heaviest first.
    pub fn by_weight(&self) -> Vec<&FieldCandidate> {
        let mut v: Vec<&FieldCandidate> = self.candidates.iter().collect();
        v.sort_by(|a, b| b.weight.total_cmp(&a.weight).then(b.vs_field.total_cmp(&a.vs_field)));
        v
    }

    /// The equilibrium's loadouts (weight at least [`SUPPORT`]), in the candidates' order.
    pub fn support(&self) -> impl Iterator<Item = &FieldCandidate> {
        self.candidates.iter().filter(|c| c.weight >= SUPPORT)
    }

    /// The strongest loadout outside the equilibrium: of the candidates under [`SUPPORT`], the
    /// one that gains most against the equilibrium table. The advised loadout meets it in the
    /// duel, and the advice names it.
    pub fn rival(&self) -> Option<&FieldCandidate> {
        self.candidates.iter().filter(|c| c.weight < SUPPORT).max_by(|a, b| a.gain.total_cmp(&b.gain))
    }
}

/// Checks the settings.
pub fn check(cfg: &FieldConfig) -> Result<RuleConfig, ResearchError> {
    if !(3..=6).contains(&cfg.players) {
        return Err(ResearchError::Settings(format!(
            "field: {} seats; give 3 to 6 (heads-up drafting is the meta-game's matrix)",
            cfg.players
        )));
    }
    let rules = study::table_rules(cfg.players, &cfg.rules, std::slice::from_ref(&cfg.agent))?;
    study::check_candidates("field", &cfg.candidates, &rules)?;
    if cfg.deals < 2 {
        return Err(ResearchError::Settings("field: give at least 2 deals per profile".into()));
    }
    Ok(rules)
}

/// Games the study plays.
pub fn games(cfg: &FieldConfig) -> u64 {
    SymmetricGame::new(cfg.candidates.len().max(1), cfg.players.max(1)).profiles().len() as u64 * cfg.deals
}

/// The seats' candidates in profile `counts` at deal `d`: the profile's candidates in index
/// order, rotated by `d` places, so every candidate visits every seat over the deals.
fn seats_of(counts: &[u8], d: u64) -> Vec<usize> {
    let list: Vec<usize> = counts.iter().enumerate().flat_map(|(a, &c)| std::iter::repeat_n(a, c as usize)).collect();
    let p = list.len();
    (0..p).map(|s| list[(s + (d % p as u64) as usize) % p]).collect()
}

/// Runs the study on the current rayon pool; `progress` is called after every game.
pub fn run(
    cfg: &FieldConfig,
    factory: &dyn AgentBuilder<Kessel>,
    progress: &(dyn Fn() + Sync),
) -> Result<FieldReport, ResearchError> {
    let rules = check(cfg)?;
    let names = vec![cfg.agent.clone()];
    study::check_agents(&names, factory)?;
    let k = cfg.candidates.len();
    let game = SymmetricGame::new(k, cfg.players);
    let profiles = game.profiles();
    let n = cfg.deals;
    let spec = |g: u64| {
        let (q, d) = ((g / n) as usize, g % n);
        let mut l = [TokenSet::EMPTY; MAX_PLAYERS];
        for (s, a) in seats_of(&profiles[q], d).into_iter().enumerate() {
            l[s] = cfg.candidates[a];
        }
        fixed_game(&rules, cfg.seed, d, l)
    };
    // wins[q][d * k + a]: the mean win share of `a`'s seats in profile q's game on deal d.
    let mut wins: Vec<Vec<f64>> = vec![vec![0.0; n as usize * k]; profiles.len()];
    let total = profiles.len() as u64 * n;
    study::play_folded(&names, total, &spec, factory, progress, &mut |start, out: &[Outcome]| {
        for (i, o) in out.iter().enumerate() {
            let g = start + i as u64;
            let (q, d) = ((g / n) as usize, g % n);
            for (s, a) in seats_of(&profiles[q], d).into_iter().enumerate() {
                wins[q][d as usize * k + a] += o.win[s] / f64::from(profiles[q][a]);
            }
        }
    })?;
    let table = |draw: &dyn Fn(usize) -> usize| -> Vec<Vec<f64>> {
        wins.iter()
            .map(|w| {
                let mut row = vec![0.0; k];
                for i in 0..n as usize {
                    let d = draw(i);
                    for (a, v) in row.iter_mut().enumerate() {
                        *v += w[d * k + a];
                    }
                }
                row.iter_mut().for_each(|v| *v /= n as f64);
                row
            })
            .collect()
    };
    let payoff = table(&|i| i);
    let (x, regret) = game.solve(&payoff, STEPS)?;
    let gains_of = |pay: &[Vec<f64>]| {
        let u = game.against(pay, &x);
        let mean: f64 = u.iter().zip(&x).map(|(a, b)| a * b).sum();
        (u.iter().map(|v| v - mean).collect::<Vec<f64>>(), u)
    };
    let (gain, u) = gains_of(&payoff);
    let boot: Vec<(Vec<bool>, Vec<f64>)> = (0..cfg.resamples)
        .into_par_iter()
        .map(|r| {
            let mut rng = Pcg64Mcg::seed_from_u64(derive_seed(cfg.seed ^ BOOT_STREAM, r as u64));
            let draw: Vec<usize> = (0..n).map(|_| rng.random_range(0..n as usize)).collect();
            let pay = table(&|i| draw[i]);
            let (xs, _) = game.solve(&pay, BOOT_STEPS)?;
            Ok((xs.iter().map(|&w| w >= SUPPORT).collect(), gains_of(&pay).0))
        })
        .collect::<Result<_, ResearchError>>()?;
    let r = boot.len().max(1) as f64;
    let percentile = |mut v: Vec<f64>, q: f64| {
        if v.is_empty() {
            return f64::NAN;
        }
        v.sort_by(f64::total_cmp);
        v[((q * (v.len() - 1) as f64).round() as usize).min(v.len() - 1)]
    };
    let p_raw: Vec<f64> = (0..k)
        .map(|a| {
            let below = boot.iter().filter(|(_, g)| g[a] <= 0.0).count() as f64;
            let above = boot.iter().filter(|(_, g)| g[a] >= 0.0).count() as f64;
            (2.0 * (below.min(above) + 1.0) / (r + 1.0)).min(1.0)
        })
        .collect();
    let p_holm = holm(&p_raw);
    let candidates: Vec<FieldCandidate> = (0..k)
        .map(|a| {
            let g: Vec<f64> = boot.iter().map(|(_, g)| g[a]).collect();
            FieldCandidate {
                loadout: study::loadout_name(cfg.candidates[a]),
                weight: x[a],
                support_rate: boot.iter().filter(|(s, _)| s[a]).count() as f64 / r,
                vs_field: u[a],
                gain: gain[a],
                gain_low: percentile(g.clone(), 0.025),
                gain_high: percentile(g, 0.975),
                p_holm: p_holm[a],
            }
        })
        .collect();
    let invaded = candidates.iter().any(|c| c.p_holm <= ALPHA && c.gain > 0.0);
    Ok(FieldReport {
        study: "field".into(),
        agent: cfg.agent.clone(),
        players: cfg.players,
        deals: n,
        profiles: profiles.len(),
        resamples: cfg.resamples,
        seed: cfg.seed,
        candidates,
        regret,
        invaded,
        games: total,
        notes: vec![
            format!("every seat is played by {}; only the loadouts differ", cfg.agent),
            format!(
                "every profile (a multiset of {} candidates, one per seat) is played on the same {n} deals, its seats rotated over the table from deal to deal; a candidate's payoff in a profile is the mean win share of its seats",
                cfg.players
            ),
            format!(
                "equilibrium: a symmetric mixed strategy (each seat drafts independently from it) by replicator dynamics from the uniform mix, {STEPS} steps, the iterate of least regret kept; regret: the most a loadout gains against the equilibrium table over the table's own mean (0 at an exact equilibrium)"
            ),
            format!(
                "gain: win share of one seat drafting the loadout against the equilibrium table minus the table's mean, with a percentile-bootstrap 95% interval over {} resamples of the deals (the same deals for every profile) and a bootstrap p-value, Holm-corrected over the candidates; support rate: share of resamples whose own equilibrium gives the loadout weight at least {SUPPORT}",
                cfg.resamples
            ),
        ],
        performance: None,
    })
}

/// The study's Markdown: the equilibrium and every candidate's gain against it.
pub fn markdown(f: &FieldReport) -> String {
    use std::fmt::Write as _;
    let mut md = format!(
        "# Drafting at {} seats among the race's leaders, `{}` in every seat\n\n{} candidates, {} profiles, {} deals each \
         (seed {}). Equilibrium regret {:.2} pp; {}.\n\n\
         | loadout | weight | kept by the bootstrap | win share against the equilibrium table | gain (pp) | 95% | Holm p |\n\
         | --- | ---: | ---: | ---: | ---: | --- | ---: |\n",
        f.players,
        f.agent,
        f.candidates.len(),
        f.profiles,
        f.deals,
        f.seed,
        100.0 * f.regret,
        if f.invaded {
            "some candidate gains significantly against it"
        } else {
            "no candidate gains significantly against it"
        }
    );
    for c in f.by_weight() {
        let _ = writeln!(
            md,
            "| {} | {:.3} | {:.0}% | {:.1}% | {:+.2} | [{:+.2}, {:+.2}] | {} |",
            c.loadout,
            c.weight,
            100.0 * c.support_rate,
            100.0 * c.vs_field,
            100.0 * c.gain,
            100.0 * c.gain_low,
            100.0 * c.gain_high,
            crate::output::p_value(c.p_holm)
        );
    }
    md.push_str("\nNotes:\n\n");
    for n in &f.notes {
        let _ = writeln!(md, "- {n}");
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A payoff table from a rule `f(a, counts)` for every candidate in every profile.
    fn table(g: &SymmetricGame, f: impl Fn(usize, &[u8]) -> f64) -> Vec<Vec<f64>> {
        g.profiles().iter().map(|p| (0..p.len()).map(|a| f(a, p)).collect()).collect()
    }

    #[test]
    fn profiles_are_every_multiset_once() {
        let g = SymmetricGame::new(4, 4);
        assert_eq!(g.profiles().len(), 35, "C(7, 4)");
        assert!(g.profiles().iter().all(|p| p.iter().map(|&c| c as u32).sum::<u32>() == 4));
        let mut seen = g.profiles().to_vec();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 35);
        assert_eq!(SymmetricGame::new(8, 4).profiles().len(), 330);
    }

    #[test]
    fn seats_rotate_every_candidate_through_every_seat() {
        let counts = [2u8, 0, 1, 1];
        let mut at = [[0usize; 4]; 4];
        for d in 0..4 {
            let s = seats_of(&counts, d);
            assert_eq!(s.len(), 4);
            for (seat, a) in s.into_iter().enumerate() {
                at[a][seat] += 1;
            }
        }
        assert_eq!(at[0], [2, 2, 2, 2]);
        assert_eq!(at[2], [1, 1, 1, 1]);
        assert_eq!(at[1], [0, 0, 0, 0]);
    }

    #[test]
    fn payoff_against_a_mix_matches_the_binomial_sum() {
        // Two candidates at 4 seats: the other three seats hold j copies of candidate 0 with
        // probability C(3, j) x^j (1 − x)^(3 − j).
        let g = SymmetricGame::new(2, 4);
        let f = |a: usize, p: &[u8]| 0.1 * a as f64 + 0.05 * f64::from(p[0]) + 0.01 * f64::from(p[1] * p[1]);
        let pay = table(&g, f);
        let x = 0.3;
        let u = g.against(&pay, &[x, 1.0 - x]);
        for (a, &ua) in u.iter().enumerate() {
            let mut expect = 0.0;
            for j in 0..=3u8 {
                let prob = [1.0, 3.0, 3.0, 1.0][j as usize] * x.powi(j as i32) * (1.0 - x).powi(3 - j as i32);
                let mut p = [j, 3 - j];
                p[a] += 1;
                expect += prob * f(a, &p);
            }
            assert!((ua - expect).abs() < 1e-12, "{a}: {ua} against {expect}");
        }
    }

    #[test]
    fn a_dominant_loadout_is_drafted_by_everyone() {
        let g = SymmetricGame::new(3, 4);
        // Candidate 1 pays more than the others whatever the other seats hold.
        let pay = table(&g, |a, p| if a == 1 { 0.3 } else { 0.2 + 0.01 * f64::from(p[0]) });
        let (x, regret) = g.solve(&pay, STEPS).unwrap();
        assert!(x[1] > 0.99, "{x:?}");
        assert!(regret.abs() < 1e-3, "{regret}");
    }

    #[test]
    fn crowding_gives_a_mixed_equilibrium_at_the_indifference_point() {
        // A loadout pays less the more seats hold it (w_a / (1 + count)): no pure profile is an
        // equilibrium, and the mix found leaves every candidate indifferent.
        let g = SymmetricGame::new(3, 4);
        let w = [1.0, 0.9, 0.8];
        let pay = table(&g, |a, p| w[a] / (1.0 + f64::from(p[a])));
        let (x, regret) = g.solve(&pay, STEPS).unwrap();
        assert!(regret < 1e-6, "{regret} at {x:?}");
        assert!(x.iter().all(|&v| v > 0.05), "{x:?}");
        assert!(x[0] > x[1] && x[1] > x[2], "the stronger loadout is drafted more: {x:?}");
        let u = g.against(&pay, &x);
        assert!((u[0] - u[2]).abs() < 1e-5 && (u[1] - u[2]).abs() < 1e-5, "{u:?}");
    }

    #[test]
    fn bad_settings_are_errors() {
        let rules = RuleConfig::default();
        let l: Vec<TokenSet> = rules
            .enabled_tokens
            .iter()
            .collect::<Vec<_>>()
            .chunks(3)
            .take(2)
            .map(|c| c.iter().copied().collect())
            .collect();
        let cfg = FieldConfig {
            agent: "expert".into(),
            candidates: l.clone(),
            players: 4,
            deals: 4,
            resamples: 0,
            seed: 1,
            rules,
        };
        assert!(check(&cfg).is_ok());
        assert!(check(&FieldConfig { players: 2, ..cfg.clone() }).is_err());
        assert!(check(&FieldConfig { deals: 1, ..cfg.clone() }).is_err());
        assert!(check(&FieldConfig { candidates: vec![l[0], l[0]], ..cfg.clone() }).is_err());
        let g = SymmetricGame::new(2, 3);
        assert!(g.solve(&[vec![0.0, 0.0]], 10).is_err());
    }
}
