//! `answer`: the report's draft advice, one per table size and agent, chosen on one seed and
//! confirmed on another.
//!
//! 1. **Selection** (the report's seed): a loadout race at that table size with that agent in
//!    every seat ([`crate::loadouts`]), so heads-up candidates come from heads-up evidence.
//! 2. **Shortlist**: the race's leaders by win share plus the bots' own drafts
//!    ([`crate::report::candidates`]); a race that cannot separate its leaders still ranks them.
//! 3. **Confirmation** (the confirmation seed: deals the selection never saw): the empirical game
//!    among the shortlist, heads-up the zero-sum matrix of [`crate::metagame`], at more seats the
//!    symmetric game of [`crate::field`]. The advice is its equilibrium's heaviest loadout, with
//!    how often the bootstrap keeps it in the equilibrium and how the strongest alternative
//!    fares against it. A leader that wins the race by luck on the selection deals gets no help
//!    from them here.

use crate::field::FieldReport;
use crate::loadouts::LoadoutsReport;
use crate::metagame::{MetaReport, SUPPORT};
use serde::{Deserialize, Serialize};

/// The confirming game of an answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Confirmation {
    /// Heads-up: the zero-sum matrix and its Nash equilibrium.
    HeadsUp(MetaReport),
    /// More seats: the symmetric game and its equilibrium.
    Field(FieldReport),
}

/// One answer: the draft for a table size in an agent's hands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    /// Seats.
    pub players: u8,
    /// The agent in every seat.
    pub agent: String,
    /// The race the shortlist came from (selection seed).
    pub race: LoadoutsReport,
    /// The game among the shortlist (confirmation seed).
    pub confirmation: Confirmation,
}

/// The strongest alternative to the advised loadout.
#[derive(Clone, Debug, PartialEq)]
pub struct Rival {
    /// Its kinds.
    pub loadout: String,
    /// Heads-up: its win rate against the advised loadout minus one half; at more seats: its gain
    /// against the equilibrium table over the table's mean (win share).
    pub gain: f64,
    /// The 95% interval of the gain.
    pub low: f64,
    /// Upper end.
    pub high: f64,
}

/// What the answer advises, read off its confirmation.
#[derive(Clone, Debug, PartialEq)]
pub struct Advice {
    /// The equilibrium's heaviest loadout.
    pub loadout: String,
    /// Every loadout of the equilibrium's support (weight at least [`SUPPORT`]) with its weight,
    /// heaviest first: one entry when the answer is a single loadout.
    pub mix: Vec<(String, f64)>,
    /// Its weight in the equilibrium.
    pub weight: f64,
    /// Share of bootstrap resamples whose equilibrium gives it weight at least
    /// [`crate::metagame::SUPPORT`].
    pub support_rate: f64,
    /// The strongest candidate outside the support: heads-up, the one that does best against the
    /// heaviest loadout; at more seats, the one that gains most against the equilibrium table.
    pub rival: Option<Rival>,
    /// A candidate gains significantly against the equilibrium (more seats only).
    pub invaded: bool,
    /// Candidates in the game.
    pub candidates: usize,
    /// Deals per pair (heads-up) or per profile.
    pub deals: u64,
    /// The confirmation's seed.
    pub seed: u64,
}

impl Answer {
    /// The advice (module documentation); `None` for a game without candidates.
    pub fn advice(&self) -> Option<Advice> {
        match &self.confirmation {
            Confirmation::HeadsUp(m) => {
                let top = m.by_weight().first().map(|c| c.loadout.clone())?;
                let t = m.candidates.iter().position(|c| c.loadout == top)?;
                let rival = (0..m.candidates.len())
                    .filter(|&b| m.candidates[b].nash < SUPPORT)
                    .max_by(|&a, &b| m.payoff[a][t].total_cmp(&m.payoff[b][t]));
                Some(Advice {
                    loadout: top,
                    mix: m
                        .by_weight()
                        .iter()
                        .filter(|c| c.nash >= SUPPORT)
                        .map(|c| (c.loadout.clone(), c.nash))
                        .collect(),
                    weight: m.candidates[t].nash,
                    support_rate: m.candidates[t].support_rate,
                    rival: rival.map(|b| Rival {
                        loadout: m.candidates[b].loadout.clone(),
                        gain: m.payoff[b][t],
                        low: m.payoff[b][t] - m.payoff_half[b][t],
                        high: m.payoff[b][t] + m.payoff_half[b][t],
                    }),
                    invaded: false,
                    candidates: m.candidates.len(),
                    deals: m.deals_2p,
                    seed: m.seed,
                })
            }
            Confirmation::Field(f) => {
                let top = f.by_weight().first().map(|c| (*c).clone())?;
                let rival =
                    f.candidates.iter().filter(|c| c.weight < SUPPORT).max_by(|a, b| a.gain.total_cmp(&b.gain)).map(
                        |c| Rival { loadout: c.loadout.clone(), gain: c.gain, low: c.gain_low, high: c.gain_high },
                    );
                Some(Advice {
                    loadout: top.loadout,
                    mix: f
                        .by_weight()
                        .iter()
                        .filter(|c| c.weight >= SUPPORT)
                        .map(|c| (c.loadout.clone(), c.weight))
                        .collect(),
                    weight: top.weight,
                    support_rate: top.support_rate,
                    rival,
                    invaded: f.invaded,
                    candidates: f.candidates.len(),
                    deals: f.deals,
                    seed: f.seed,
                })
            }
        }
    }

    /// Games played for the answer (its race and its confirmation).
    pub fn games(&self) -> u64 {
        self.race.games
            + match &self.confirmation {
                Confirmation::HeadsUp(m) => m.games,
                Confirmation::Field(f) => f.games,
            }
    }
}

impl Advice {
    /// The draft in a table cell: the loadout, or the mix with its weights.
    pub fn draft(&self) -> String {
        if self.mix.len() <= 1 {
            return format!("**{}**", self.loadout);
        }
        let parts: Vec<String> = self.mix.iter().map(|(l, w)| format!("**{l}** {:.0}%", 100.0 * w)).collect();
        format!("a mix: {}", parts.join(", "))
    }

    /// How sure, in words: the weight, the bootstrap's support and the strongest alternative.
    pub fn how_sure(&self) -> String {
        let pp = |x: f64| format!("{:+.1}", 100.0 * x);
        let mut s = format!(
            "{} kept in the equilibrium by {:.0}% of bootstrap resamples of the deals",
            if self.mix.len() <= 1 { "it is" } else { "the heaviest is" },
            100.0 * self.support_rate
        );
        if let Some(r) = &self.rival {
            let verdict = if r.high < 0.0 {
                "worse, significantly"
            } else if r.low > 0.0 {
                "better, significantly"
            } else {
                "not separated"
            };
            s.push_str(&format!(
                "; the strongest loadout outside it, {}, {} pp [{}, {}] ({verdict})",
                r.loadout,
                pp(r.gain),
                pp(r.low),
                pp(r.high)
            ));
        }
        if self.invaded {
            s.push_str("; some candidate gains significantly against the equilibrium table, so it is not settled");
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::FieldCandidate;
    use crate::loadouts::LoadoutsSettings;
    use kessel::RuleConfig;

    fn race() -> LoadoutsReport {
        LoadoutsReport {
            study: "loadouts".into(),
            settings: LoadoutsSettings {
                players: 4,
                agents: vec!["expert".into()],
                focal: "expert".into(),
                loadouts: 3,
                budget: 10,
                delta: 0.05,
                seed: 1,
                rules: RuleConfig::default(),
            },
            games: 10,
            stopped: "budget spent".into(),
            survivors: 3,
            rounds: Vec::new(),
            ranking: Vec::new(),
            notes: Vec::new(),
            performance: None,
        }
    }

    fn candidate(loadout: &str, weight: f64, gain: f64) -> FieldCandidate {
        FieldCandidate {
            loadout: loadout.into(),
            weight,
            support_rate: 0.9,
            vs_field: 0.25 + gain,
            gain,
            gain_low: gain - 0.01,
            gain_high: gain + 0.01,
            p_holm: 1.0,
        }
    }

    #[test]
    fn a_mixed_equilibrium_is_advised_as_its_mix_and_the_rival_comes_from_outside_it() {
        let f = FieldReport {
            study: "field".into(),
            agent: "expert".into(),
            players: 4,
            deals: 10,
            profiles: 15,
            resamples: 10,
            seed: 2,
            candidates: vec![
                candidate("a", 0.4, 0.0),
                candidate("b", 0.6, 0.0),
                candidate("c", 0.0, -0.03),
                candidate("d", 0.01, -0.02),
            ],
            regret: 0.0,
            invaded: false,
            games: 150,
            notes: Vec::new(),
            performance: None,
        };
        let a = Answer { players: 4, agent: "expert".into(), race: race(), confirmation: Confirmation::Field(f) };
        let adv = a.advice().unwrap();
        assert_eq!(adv.loadout, "b");
        assert_eq!(adv.mix, vec![("b".to_string(), 0.6), ("a".to_string(), 0.4)]);
        assert_eq!(adv.draft(), "a mix: **b** 60%, **a** 40%");
        let rival = adv.rival.clone().unwrap();
        assert_eq!(rival.loadout, "d", "the best loadout outside the support, not a member of it");
        assert!(adv.how_sure().contains("(worse, significantly)"), "{}", adv.how_sure());
        assert_eq!(a.games(), 160);
    }
}
