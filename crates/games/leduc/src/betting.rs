//! Where a betting round stands, worked out from its actions alone.
//!
//! This is the one place that knows the betting rules, so the state, information-state keys and
//! policy files all agree on what is legal: call (check) is always legal, raise (bet) while
//! fewer than `max_raises` bets-or-raises were made this round, fold only when facing a bet. A
//! round closes on a fold, on a call that answers a bet, or on the second of two checks.

use crate::action::{Action, ActionMask};
use crate::config::RuleConfig;

/// The standing of one betting round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Betting {
    /// Bets and raises made so far (the opening bet counts).
    pub raises: u8,
    /// Whether the player to act faces a bet.
    pub facing: bool,
    /// Whether the round is over.
    pub closed: bool,
    /// Whether it closed on a fold.
    pub folded: bool,
    /// Actions taken so far; the player to act is seat `actions % 2`.
    pub actions: u8,
}

impl Betting {
    /// The standing after `actions`, or `None` if one of them was illegal where it was taken
    /// (including any action after the round closed). Player 0 takes the first action.
    pub fn replay(rules: &RuleConfig, actions: &[Action]) -> Option<Betting> {
        let mut b = Betting::default();
        for &a in actions {
            if !b.legal(rules).contains(a) {
                return None;
            }
            b = b.after(a);
        }
        Some(b)
    }

    /// The standing after one more (legal) action.
    fn after(mut self, a: Action) -> Betting {
        match a {
            Action::Fold => {
                self.folded = true;
                self.closed = true;
            }
            // A call answering a bet closes the round; so does a check answering a check. Not
            // facing a bet means no bet was made yet (a bet stays faced until a call or fold
            // closes the round), so a check after any earlier action answers a check.
            Action::Call => {
                self.closed = self.facing || self.actions > 0;
                self.facing = false;
            }
            Action::Raise => {
                self.raises += 1;
                self.facing = true;
            }
        }
        self.actions += 1;
        self
    }

    /// The legal actions of the player to act (none once the round is closed).
    pub fn legal(&self, rules: &RuleConfig) -> ActionMask {
        let mut m = ActionMask::default();
        if self.closed {
            return m;
        }
        m.set(Action::Call);
        if self.raises < rules.max_raises {
            m.set(Action::Raise);
        }
        if self.facing {
            m.set(Action::Fold);
        }
        m
    }
}
