//! `mirror`: a panel opponent that plays the table rather than its cards, written for the ship
//! gate (docs/gate.md) and never used in training.
//!
//! The other rule-based bots decide from their own hand and chips; `mirror` reacts to what the
//! other seats did this round:
//! - **Stand or draw**: it stands on a Sabacc. Otherwise it does what most of the opponents who
//!   have acted this round did last: stands when at least as many stood as drew, draws when more
//!   drew. Before anyone has acted it draws unless its hand beats a random hand more often than
//!   not. It draws from the pile of its worse card's family, and stands when no draw is legal.
//! - **Tokens, tit for tat**: it plays a token only after an opponent has played one this round,
//!   its first playable one, aimed at the seat that played the most tokens this round (else the
//!   richest).
//! - **Keep**: the card that makes the better hand. **Dice**: an Impostor the best die, Prime
//!   Sabacc the first. **Setup** (K2.1 `choose`): the first kind offered.

use super::greedy::badness;
use super::hand::{Scorer, is_sabacc, opponents};
use super::style::{Style, StyleBot, aim, first_token};
use super::targets::target_action;
use crate::{Action, ActionMask, Card, LastAction, PlayerView, Source, Token};

/// The mirror bot (module documentation).
pub type MirrorAgent = StyleBot<Mirror>;

/// The mirror style (module documentation).
#[derive(Default)]
pub struct Mirror {
    scorer: Scorer,
}

impl Mirror {
    /// Opponents whose last action this round was to stand, and to draw.
    fn table(view: &PlayerView) -> (usize, usize) {
        opponents(view).fold((0, 0), |(st, dr), o| match view.seats[o.index()].last_action {
            LastAction::Stand => (st + 1, dr),
            LastAction::Draw => (st, dr + 1),
            LastAction::None => (st, dr),
        })
    }

    /// The opponent that played the most tokens this round, if any did.
    fn provoker(view: &PlayerView) -> Option<game::Seat> {
        opponents(view)
            .map(|o| (view.seats[o.index()].round_tokens.len(), o))
            .filter(|&(n, _)| n > 0)
            .max_by_key(|&(n, o)| (n, std::cmp::Reverse(o.index())))
            .map(|(_, o)| o)
    }
}

impl Style for Mirror {
    const SETUP: &'static [Token] = &[];

    fn name(&self) -> &str {
        "mirror"
    }

    fn prime_die(&mut self, _view: &PlayerView, _dice: [u8; 2]) -> Action {
        Action::DieFirst
    }

    fn target(&mut self, view: &PlayerView, _token: Token, legal: ActionMask) -> Action {
        aim(view, legal, Self::provoker(view).and_then(|s| target_action(view, s, legal)))
    }

    fn keep(&mut self, view: &PlayerView, drawn: Card, source: Source) -> Action {
        let (held, with) = self.scorer.keep_scores(view, drawn, source.family().index());
        if with > held { Action::KeepDrawn } else { Action::KeepHeld }
    }

    fn act(&mut self, view: &PlayerView, legal: ActionMask) -> Action {
        if Self::provoker(view).is_some()
            && let Some(a) = first_token(view, legal, view.own_tokens.iter(), |_| true)
        {
            return a;
        }
        let [s, b] = [view.hand[0].kind(), view.hand[1].kind()];
        let stand = legal.contains(Action::Stand);
        let draw = if badness(s) >= badness(b) { Source::SandDeck } else { Source::BloodDeck };
        let alt = if draw == Source::SandDeck { Source::BloodDeck } else { Source::SandDeck };
        let draw = [draw, alt].into_iter().map(Action::Draw).find(|&a| legal.contains(a));
        let (stood, drew) = Self::table(view);
        let wants_draw = !is_sabacc(s, b, view.effects.mods.markdown)
            && if stood + drew == 0 { self.scorer.score(view, s, b) <= 0.5 } else { drew > stood };
        match (wants_draw, draw) {
            (true, Some(d)) => d,
            _ if stand => Action::Stand,
            _ => draw.or_else(|| legal.actions().next()).expect("non-empty"),
        }
    }
}
