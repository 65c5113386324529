//! The three flat actions and legal-action masks.
//!
//! | index | action | name | meaning |
//! |---|---|---|---|
//! | 0 | [`Action::Fold`] | `fold` | give up the hand (only when facing a bet) |
//! | 1 | [`Action::Call`] | `call` | match the bet, or check when there is none |
//! | 2 | [`Action::Raise`] | `raise` | bet, or raise a bet (while the round's cap allows) |
//!
//! The indices match OpenSpiel's `leduc_poker` (fold 0, call 1, raise 2), so policies and
//! logs line up with it.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Size of the flat action space.
pub const NUM_ACTIONS: usize = 3;

/// One decision of the player to act; its [`index`](Action::index) is stable (module table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    /// Give up the hand and the chips already put in.
    Fold,
    /// Match the standing bet; a check when there is none.
    Call,
    /// Bet when there is no bet, raise when there is one.
    Raise,
}

impl Action {
    /// All actions in index order.
    pub const ALL: [Action; NUM_ACTIONS] = [Action::Fold, Action::Call, Action::Raise];

    /// The action's index in 0..3.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The action with this index, if it is below 3.
    #[inline]
    pub fn from_index(i: usize) -> Option<Action> {
        Action::ALL.get(i).copied()
    }

    /// The stable name (`fold`, `call`, `raise`).
    pub fn name(self) -> &'static str {
        match self {
            Action::Fold => "fold",
            Action::Call => "call",
            Action::Raise => "raise",
        }
    }

    /// One letter (`f`, `c`, `r`), used in information-state keys.
    pub fn letter(self) -> char {
        match self {
            Action::Fold => 'f',
            Action::Call => 'c',
            Action::Raise => 'r',
        }
    }

    /// The action with this letter (see [`Action::letter`]).
    pub fn from_letter(c: char) -> Option<Action> {
        Action::ALL.into_iter().find(|a| a.letter() == c)
    }

    /// Parses a name (see [`Action::name`]) or a bare index.
    pub fn parse(s: &str) -> Option<Action> {
        let s = s.trim();
        match s.parse::<usize>() {
            Ok(i) => Action::from_index(i),
            Err(_) => Action::ALL.into_iter().find(|a| a.name() == s),
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A legal-action mask: bit `i` set when the action with index `i` is legal.
pub type ActionMask = game::ActionMask<Action>;

/// Every action legal.
pub const ALL_ACTIONS: ActionMask = ActionMask::from_bits((1 << NUM_ACTIONS) - 1);

impl game::GameAction for Action {
    const COUNT: usize = NUM_ACTIONS;
    #[inline]
    fn index(self) -> usize {
        Action::index(self)
    }
    #[inline]
    fn from_index(index: usize) -> Option<Self> {
        Action::from_index(index)
    }
}

/// The legal actions' names, space-separated (`call raise`), or `none`.
pub fn mask_names(mask: ActionMask) -> String {
    if mask.is_empty() {
        return "none".to_string();
    }
    mask.actions().map(Action::name).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_names_and_letters_round_trip() {
        for (i, a) in Action::ALL.into_iter().enumerate() {
            assert_eq!(a.index(), i);
            assert_eq!(Action::from_index(i), Some(a));
            assert_eq!(Action::parse(a.name()), Some(a));
            assert_eq!(Action::parse(&i.to_string()), Some(a));
            assert_eq!(Action::from_letter(a.letter()), Some(a));
            let json = serde_json::to_string(&a).unwrap();
            assert_eq!(json, format!("\"{}\"", a.name()));
        }
        assert_eq!(Action::from_index(3), None);
        assert_eq!(Action::parse("check"), None);
        assert_eq!([Action::Fold, Action::Call, Action::Raise].map(Action::name), ["fold", "call", "raise"]);
    }

    #[test]
    fn mask_counts_and_enumerates_its_actions() {
        let m = ActionMask::default().with(Action::Call).with(Action::Raise);
        assert_eq!(m.count(), 2);
        assert!(!m.is_empty() && !m.contains(Action::Fold) && m.contains(Action::Raise));
        assert_eq!(m.indices().collect::<Vec<_>>(), vec![1, 2]);
        assert_eq!(m.nth_index(0), Some(1));
        assert_eq!(m.nth_index(1), Some(2));
        assert_eq!(m.nth_index(2), None);
        assert!(!m.contains_index(7));
        assert_eq!(mask_names(m), "call raise");
        assert_eq!(mask_names(ActionMask::default()), "none");
        assert_eq!(crate::action::ALL_ACTIONS.count(), NUM_ACTIONS);
    }
}
