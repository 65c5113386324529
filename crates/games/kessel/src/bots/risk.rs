//! Stand or draw at a chosen appetite for risk: the card play of the style bots.
//!
//! One rule with four knobs, so that `tight`, `loose` and `chipaware` differ only in how much
//! they ask of a hand before they stop drawing, and in how many chips they never spend:
//! 1. with no legal draw, or with no more than `reserve` chips in stock (and no Free Draw), stand;
//! 2. stand when the hand's chance to beat one opponent ([`per_opponent`]) reaches the threshold
//!    of the turn (`stand_at` in turns 1–2, `late_stand_at` in turn 3);
//! 3. otherwise draw from the source with the best expected chance after the keep
//!    ([`Odds::best_draw`]), if it beats standing by at least `min_gain`; else stand.

use super::odds::{Odds, per_opponent};
use crate::{Action, ActionMask, PlayerView};

/// How much risk a style takes with its cards (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Appetite {
    /// Per-opponent chance to win at which it stands in turns 1 and 2.
    pub stand_at: f32,
    /// The same in turn 3, the last chance to draw.
    pub late_stand_at: f32,
    /// Chips in stock it never spends on a draw.
    pub reserve: u16,
    /// The least rise in the chance to win (all opponents) that a draw must promise.
    pub min_gain: f32,
}

impl Appetite {
    /// Stands on any reasonable hand, draws only for a clear gain.
    pub const TIGHT: Appetite = Appetite { stand_at: 0.6, late_stand_at: 0.45, reserve: 0, min_gain: 0.05 };
    /// Draws until the hand is strong (a good Sabacc), for any gain, down to its last chip.
    pub const LOOSE: Appetite = Appetite { stand_at: 0.9, late_stand_at: 0.8, reserve: 0, min_gain: 0.0 };
    /// Between the two.
    pub const BALANCED: Appetite = Appetite { stand_at: 0.75, late_stand_at: 0.6, reserve: 0, min_gain: 0.02 };

    /// Stand or draw (see the module documentation); the `p` it returns is the chance to win
    /// with the hand as it is, for the caller's token choices.
    pub fn choose(self, odds: &mut Odds, view: &PlayerView, legal: ActionMask) -> (Action, f32) {
        let t = odds.table(view, None);
        let p = odds.win(view, &t, Odds::hand(view));
        let can_draw = legal.actions().any(|a| matches!(a, Action::Draw(_)));
        let stock = view.seats[view.viewer.index()].stock.0;
        if !can_draw || (!view.effects.free_draw && stock <= self.reserve) {
            return (Action::Stand, p);
        }
        let bar = if view.turn >= 3 { self.late_stand_at } else { self.stand_at };
        if per_opponent(p, t.opponents()) >= bar {
            return (Action::Stand, p);
        }
        match odds.best_draw(view, &t, legal) {
            Some((src, after)) if after >= p + self.min_gain && after > p => (Action::Draw(src), p),
            _ => (Action::Stand, p),
        }
    }
}
