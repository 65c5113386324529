//! `gambler`: a panel opponent that mixes its strategy, written for the ship gate
//! (docs/gate.md) and never used in training.
//!
//! Every other rule-based bot is deterministic: one view, one action. A network that has only
//! met such opponents can lean on their predictability. `gambler` draws from its RNG at every
//! decision with more than one legal action:
//! - **Stand or draw**: it stands with a probability that rises with its hand's chance to beat a
//!   random hand ([`super::hand::Scorer`]): 5 % for the worst hands, 95 % from a chance of 0.8
//!   up. Short of chips (one left, no Free Draw) it stands.
//! - **Which card**: a face-up card when keeping it would improve the hand; otherwise a draw
//!   pile, the family of its worse card three times in four.
//! - **Tokens**: at each stand-or-draw decision, with probability 1/4, one of its playable tokens
//!   at random; targets at random among the legal ones.
//! - **Keep**: the card that makes the better hand, nine times in ten.
//! - **Dice**: an Impostor takes the best die; Prime Sabacc a die at random. Setup token choice
//!   (K2.1 `choose`): a kind at random.

use super::greedy::badness;
use super::hand::Scorer;
use super::style::{best_die, only_action};
use crate::{Action, ActionMask, Kessel, PlayerView, Source, ViewDecision};
use game::{Agent, AgentError, AgentRng};
use rand::RngExt;

/// Chance to play a token at a stand-or-draw decision where one is playable.
const TOKEN_RATE: f64 = 0.25;
/// Chance to keep the card that makes the better hand.
const KEEP_BETTER: f64 = 0.9;
/// Chance that a deck draw replaces the worse card's family.
const WORSE_FAMILY: f64 = 0.75;

/// The gambler (module documentation).
#[derive(Default)]
pub struct GamblerAgent {
    scorer: Scorer,
}

impl GamblerAgent {
    /// A gambler.
    pub fn new() -> Self {
        Self::default()
    }

    /// The chance to stand with a hand that beats a random hand with chance `score`.
    pub fn stand_chance(score: f32) -> f64 {
        (((score as f64) - 0.3) / 0.5).clamp(0.05, 0.95)
    }

    fn act(&mut self, view: &PlayerView, legal: ActionMask, rng: &mut AgentRng) -> Action {
        let playable: Vec<Action> =
            view.own_tokens.iter().map(Action::PlayToken).filter(|&a| legal.contains(a)).collect();
        if !playable.is_empty() && rng.random_bool(TOKEN_RATE) {
            return playable[rng.random_range(0..playable.len())];
        }
        let draws: Vec<Action> = Source::ALL.iter().map(|&s| Action::Draw(s)).filter(|&a| legal.contains(a)).collect();
        let me = &view.seats[view.viewer.index()];
        let short = me.stock.0 <= 1 && !view.effects.free_draw;
        let [s, b] = [view.hand[0].kind(), view.hand[1].kind()];
        let score = self.scorer.score(view, s, b);
        let stand = legal.contains(Action::Stand);
        if draws.is_empty() || (stand && (short || rng.random_bool(Self::stand_chance(score)))) {
            return if stand { Action::Stand } else { legal.actions().next().expect("non-empty") };
        }
        // A face-up card that improves the hand.
        for src in [Source::SandDiscard, Source::BloodDiscard] {
            let f = src.family().index();
            if let (true, Some(top)) = (draws.contains(&Action::Draw(src)), view.discard[f].top()) {
                let (held, with) = self.scorer.keep_scores(view, top, f);
                if with > held {
                    return Action::Draw(src);
                }
            }
        }
        let worse_sand = badness(s) >= badness(b);
        let sand = if rng.random_bool(WORSE_FAMILY) { worse_sand } else { !worse_sand };
        let pick = if sand { Source::SandDeck } else { Source::BloodDeck };
        if draws.contains(&Action::Draw(pick)) { Action::Draw(pick) } else { draws[rng.random_range(0..draws.len())] }
    }

    /// The gambler's choice (legal whenever `legal` is the state's mask).
    pub fn choose(&mut self, view: &PlayerView, legal: ActionMask, rng: &mut AgentRng) -> Action {
        if let Some(a) = only_action(legal) {
            return a;
        }
        let uniform = |rng: &mut AgentRng| {
            let all: Vec<Action> = legal.actions().collect();
            all[rng.random_range(0..all.len())]
        };
        match view.decision {
            ViewDecision::ImpostorDie { .. } => best_die(view, legal).unwrap_or_else(|| uniform(rng)),
            ViewDecision::ChooseToken | ViewDecision::PrimeDie { .. } | ViewDecision::Target { .. } => uniform(rng),
            ViewDecision::Keep { drawn: Some(c), source } => {
                let (held, with) = self.scorer.keep_scores(view, c, source.family().index());
                let better = if with > held { Action::KeepDrawn } else { Action::KeepHeld };
                let other = if better == Action::KeepDrawn { Action::KeepHeld } else { Action::KeepDrawn };
                if rng.random_bool(KEEP_BETTER) || !legal.contains(other) { better } else { other }
            }
            ViewDecision::Keep { drawn: None, .. } => Action::KeepHeld,
            ViewDecision::Act => self.act(view, legal, rng),
            ViewDecision::GameOver | ViewDecision::Truncated => legal.actions().next().expect("non-empty"),
        }
    }
}

impl Agent<Kessel> for GamblerAgent {
    fn name(&self) -> &str {
        "gambler"
    }

    fn act(&mut self, view: &PlayerView, legal: ActionMask, rng: &mut AgentRng) -> Result<Action, AgentError> {
        Ok(self.choose(view, legal, rng))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stand_chance_rises_with_the_hand_and_never_certain() {
        assert_eq!(GamblerAgent::stand_chance(0.0), 0.05);
        assert_eq!(GamblerAgent::stand_chance(1.0), 0.95);
        assert!(GamblerAgent::stand_chance(0.5) < GamblerAgent::stand_chance(0.6));
    }
}
