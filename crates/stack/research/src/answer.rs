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
//! 4. **Duel** (more seats, a third seed): the symmetric game's intervals are a few points wide,
//!    so the advised loadout and its strongest alternative meet head to head on deals of their own
//!    ([`crate::duel`]); the rival's figures come from there.
//!
//! The agent's present draft (`expert`'s preference list, a checkpoint's opening book) is always
//! on the shortlist, so the answer says whether it holds.

use crate::duel::DuelReport;
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
    /// More seats: the advised loadout against its strongest alternative, head to head (duel
    /// seed).
    #[serde(default)]
    pub duel: Option<DuelReport>,
    /// The loadout the agent drafts at present, where that is fixed (`expert`'s list, a
    /// checkpoint's book).
    #[serde(default)]
    pub now: Option<String>,
}

/// The strongest alternative to the advised loadout.
#[derive(Clone, Debug, PartialEq)]
pub struct Rival {
    /// Its kinds.
    pub loadout: String,
    /// Heads-up: its win rate against the advised loadout minus one half; at more seats: one
    /// seat's win share drafting it minus drafting the advised loadout, the others drafting from
    /// the equilibrium (the duel), or without a duel its gain against the equilibrium table over
    /// the table's mean.
    pub gain: f64,
    /// The 95% interval of the gain.
    pub low: f64,
    /// Upper end.
    pub high: f64,
    /// Paired deals of the duel the figures come from, if they do.
    pub duel_deals: Option<u64>,
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
    /// The agent's present draft and its weight in the equilibrium, where it has a fixed one.
    pub now: Option<(String, f64)>,
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
                        duel_deals: None,
                    }),
                    invaded: false,
                    candidates: m.candidates.len(),
                    deals: m.deals_2p,
                    seed: m.seed,
                    now: self
                        .now
                        .as_ref()
                        .map(|l| (l.clone(), m.candidates.iter().find(|c| &c.loadout == l).map_or(0.0, |c| c.nash))),
                })
            }
            Confirmation::Field(f) => {
                let top = f.by_weight().first().map(|c| (*c).clone())?;
                let rival = match &self.duel {
                    Some(d) if d.advised == top.loadout => Some(Rival {
                        loadout: d.rival.clone(),
                        gain: d.gain.mean,
                        low: d.gain.low,
                        high: d.gain.high,
                        duel_deals: Some(d.deals),
                    }),
                    _ => f.rival().map(|c| Rival {
                        loadout: c.loadout.clone(),
                        gain: c.gain,
                        low: c.gain_low,
                        high: c.gain_high,
                        duel_deals: None,
                    }),
                };
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
                    now: self
                        .now
                        .as_ref()
                        .map(|l| (l.clone(), f.candidates.iter().find(|c| &c.loadout == l).map_or(0.0, |c| c.weight))),
                })
            }
        }
    }

    /// Games played for the answer (its race, its confirmation and its duel).
    pub fn games(&self) -> u64 {
        self.race.games
            + match &self.confirmation {
                Confirmation::HeadsUp(m) => m.games,
                Confirmation::Field(f) => f.games,
            }
            + self.duel.as_ref().map_or(0, |d| d.games)
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
            let how = r.duel_deals.map_or(String::new(), |n| format!(" in its place, head to head over {n} deals"));
            s.push_str(&format!(
                "; the strongest loadout outside it, {}, {} pp [{}, {}]{how} ({verdict})",
                r.loadout,
                pp(r.gain),
                pp(r.low),
                pp(r.high)
            ));
        }
        if let Some((l, w)) = &self.now {
            if *w >= SUPPORT {
                s.push_str(&format!("; the draft it plays now, {l}, is in the equilibrium (weight {w:.2})"));
            } else {
                s.push_str(&format!("; the draft it plays now, {l}, is outside the equilibrium"));
            }
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

    fn field() -> FieldReport {
        FieldReport {
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
        }
    }

    #[test]
    fn a_mixed_equilibrium_is_advised_as_its_mix_and_the_rival_comes_from_outside_it() {
        let a = Answer {
            players: 4,
            agent: "expert".into(),
            race: race(),
            confirmation: Confirmation::Field(field()),
            duel: None,
            now: None,
        };
        let adv = a.advice().unwrap();
        assert_eq!(adv.loadout, "b");
        assert_eq!(adv.mix, vec![("b".to_string(), 0.6), ("a".to_string(), 0.4)]);
        assert_eq!(adv.draft(), "a mix: **b** 60%, **a** 40%");
        let rival = adv.rival.clone().unwrap();
        assert_eq!(rival.loadout, "d", "the best loadout outside the support, not a member of it");
        assert!(adv.how_sure().contains("(worse, significantly)"), "{}", adv.how_sure());
        assert_eq!(a.games(), 160);
    }

    fn duel(advised: &str, rival: &str) -> DuelReport {
        DuelReport {
            study: "duel".into(),
            agent: "expert".into(),
            players: 4,
            advised: advised.into(),
            rival: rival.into(),
            field: vec![("b".into(), 0.6), ("a".into(), 0.4)],
            deals: 500,
            seed: 9,
            advised_win: 0.25,
            rival_win: 0.255,
            gain: crate::estimate::Estimate { mean: 0.005, low: -0.002, high: 0.012, n: 500 },
            games: 1000,
            notes: Vec::new(),
            performance: None,
        }
    }

    #[test]
    fn a_duel_of_the_advised_loadout_gives_the_rivals_figures_and_the_present_draft_is_placed() {
        let a = Answer {
            players: 4,
            agent: "expert".into(),
            race: race(),
            confirmation: Confirmation::Field(field()),
            duel: Some(duel("b", "d")),
            now: Some("c".into()),
        };
        let adv = a.advice().unwrap();
        let rival = adv.rival.clone().unwrap();
        assert_eq!((rival.gain, rival.low, rival.high, rival.duel_deals), (0.005, -0.002, 0.012, Some(500)));
        let text = adv.how_sure();
        assert!(
            text.contains("+0.5 pp [-0.2, +1.2] in its place, head to head over 500 deals (not separated)"),
            "{text}"
        );
        assert!(text.contains("the draft it plays now, c, is outside the equilibrium"), "{text}");
        assert_eq!(a.games(), 1160);

        // A present draft inside the mix is said to hold, with its weight.
        let inside = Answer { now: Some("a".into()), ..a.clone() };
        assert!(
            inside
                .advice()
                .unwrap()
                .how_sure()
                .contains("the draft it plays now, a, is in the equilibrium (weight 0.40)")
        );

        // A duel of another loadout than the advised one is not taken for the rival's figures.
        let stale = Answer { duel: Some(duel("a", "c")), ..a };
        let rival = stale.advice().unwrap().rival.unwrap();
        assert_eq!((rival.loadout.as_str(), rival.duel_deals), ("d", None));
    }
}
