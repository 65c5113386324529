//! The flat action space (44 indices) and legal-action masks.
//!
//! Every decision of C8 is one of these actions, taken by the player whose decision it is. An
//! exchange is two actions: `exchange`, then the `drop:i` of the card to give up.
//!
//! | index | action | name |
//! |---|---|---|
//! | 0 | check (turn player, no bet) | `check` |
//! | 1–10 | bet 1–10 | `bet:1` … `bet:10` |
//! | 11 | fold | `fold` |
//! | 12 | match the amount to match | `match` |
//! | 13–22 | raise by 1–10 | `raise:1` … `raise:10` |
//! | 23 | stay (no bet stands) | `stay` |
//! | 24 | call the hand | `call` |
//! | 25 | decline to call | `decline-call` |
//! | 26 | pass (no draw) | `pass` |
//! | 27 | draw a card | `draw` |
//! | 28 | exchange (draw, then drop) | `exchange` |
//! | 29–43 | drop the card at hand index 0–14 | `drop:0` … `drop:14` |

use crate::card::MAX_HAND_SIZE;
use crate::config::MAX_BET_LIMIT;
use serde::{Deserialize, Serialize};
use std::fmt;

/// One decision; its [`index`](Action::index) is stable (see the module table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    /// The turn player opens without betting.
    Check,
    /// The turn player bets this many credits (1–10).
    Bet(u8),
    /// Leave the hand (C3.3).
    Fold,
    /// Put in what it takes to match the standing bet.
    Match,
    /// Match and raise by this many credits (1–10).
    Raise(u8),
    /// Stay in while no bet stands.
    Stay,
    /// Call the hand (C3.5).
    Call,
    /// Let the calling phase pass.
    DeclineCall,
    /// Take no card (C3.6).
    Pass,
    /// Draw a card and keep it.
    Draw,
    /// Draw a card, then drop one.
    Exchange,
    /// Drop the card at this hand index (0–14).
    Drop(u8),
}

/// Size of the flat action space.
pub const NUM_ACTIONS: usize = 44;
/// Number of drop actions: hand indices 0..=`MAX_HAND_SIZE`.
pub const NUM_DROPS: usize = MAX_HAND_SIZE as usize + 1;

const BET_BASE: usize = 1;
const FOLD: usize = 11;
const MATCH: usize = 12;
const RAISE_BASE: usize = 13;
const STAY: usize = 23;
const CALL: usize = 24;
const DECLINE: usize = 25;
const PASS: usize = 26;
const DRAW: usize = 27;
const EXCHANGE: usize = 28;
const DROP_BASE: usize = 29;

const _: () = assert!(BET_BASE + MAX_BET_LIMIT as usize == FOLD);
const _: () = assert!(RAISE_BASE + MAX_BET_LIMIT as usize == STAY);
const _: () = assert!(DROP_BASE + NUM_DROPS == NUM_ACTIONS);

impl Action {
    /// The action's index in 0..44.
    #[inline]
    pub fn index(self) -> usize {
        match self {
            Action::Check => 0,
            Action::Bet(b) if (1..=MAX_BET_LIMIT).contains(&b) => BET_BASE + b as usize - 1,
            Action::Fold => FOLD,
            Action::Match => MATCH,
            Action::Raise(r) if (1..=MAX_BET_LIMIT).contains(&r) => RAISE_BASE + r as usize - 1,
            Action::Stay => STAY,
            Action::Call => CALL,
            Action::DeclineCall => DECLINE,
            Action::Pass => PASS,
            Action::Draw => DRAW,
            Action::Exchange => EXCHANGE,
            Action::Drop(i) => DROP_BASE + i as usize,
            // Out-of-range amounts (never built by the engine) name no index.
            Action::Bet(_) | Action::Raise(_) => usize::MAX,
        }
    }

    /// The action with this index, if it is in 0..44.
    #[inline]
    pub fn from_index(i: usize) -> Option<Action> {
        Some(match i {
            0 => Action::Check,
            1..=10 => Action::Bet((i - BET_BASE + 1) as u8),
            FOLD => Action::Fold,
            MATCH => Action::Match,
            13..=22 => Action::Raise((i - RAISE_BASE + 1) as u8),
            STAY => Action::Stay,
            CALL => Action::Call,
            DECLINE => Action::DeclineCall,
            PASS => Action::Pass,
            DRAW => Action::Draw,
            EXCHANGE => Action::Exchange,
            29..=43 => Action::Drop((i - DROP_BASE) as u8),
            _ => return None,
        })
    }

    /// Whether the action's payload is in range (an out-of-range `Bet(0)` or `Drop(20)` has no
    /// index of its own).
    #[inline]
    pub fn is_valid(self) -> bool {
        match self {
            Action::Bet(b) | Action::Raise(b) => (1..=MAX_BET_LIMIT).contains(&b),
            Action::Drop(i) => (i as usize) < NUM_DROPS,
            _ => true,
        }
    }

    /// The stable name (see the module table).
    pub fn name(self) -> String {
        match self {
            Action::Check => "check".into(),
            Action::Bet(b) => format!("bet:{b}"),
            Action::Fold => "fold".into(),
            Action::Match => "match".into(),
            Action::Raise(r) => format!("raise:{r}"),
            Action::Stay => "stay".into(),
            Action::Call => "call".into(),
            Action::DeclineCall => "decline-call".into(),
            Action::Pass => "pass".into(),
            Action::Draw => "draw".into(),
            Action::Exchange => "exchange".into(),
            Action::Drop(i) => format!("drop:{i}"),
        }
    }

    /// Parses a name (see [`Action::name`]) or a bare index.
    pub fn parse(s: &str) -> Option<Action> {
        let s = s.trim();
        if let Ok(i) = s.parse::<usize>() {
            return Action::from_index(i);
        }
        (0..NUM_ACTIONS).filter_map(Action::from_index).find(|a| a.name() == s)
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// A legal-action mask: bit `i` set when the action with index `i` is legal.
pub type ActionMask = game::ActionMask<Action>;

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

pub(crate) const BET_INDEX: usize = BET_BASE;
pub(crate) const RAISE_INDEX: usize = RAISE_BASE;
pub(crate) const DROP_INDEX: usize = DROP_BASE;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c8_indices_names_and_parsing_round_trip() {
        for i in 0..NUM_ACTIONS {
            let a = Action::from_index(i).unwrap();
            assert_eq!(a.index(), i);
            assert!(a.is_valid());
            assert_eq!(Action::parse(&a.name()), Some(a), "{}", a.name());
            assert_eq!(Action::parse(&i.to_string()), Some(a));
        }
        assert_eq!(Action::from_index(NUM_ACTIONS), None);
        assert_eq!(Action::parse("dance"), None);
        assert_eq!(Action::parse("bet:3").unwrap().index(), 3);
        assert_eq!(Action::parse("drop:14").unwrap().index(), 43);
        assert!(!Action::Bet(0).is_valid() && !Action::Raise(11).is_valid() && !Action::Drop(15).is_valid());
        let m = ActionMask::from_bits(u64::MAX >> (64 - NUM_ACTIONS));
        assert!(!m.contains(Action::Bet(0)));
    }

    #[test]
    fn mask_nth_index_walks_set_bits() {
        let mut m = ActionMask::default();
        m.set(Action::Check);
        m.set(Action::Fold);
        m.set_range(DROP_INDEX, 2);
        assert_eq!(m.count(), 4);
        assert_eq!(
            m.actions().collect::<Vec<_>>(),
            vec![Action::Check, Action::Fold, Action::Drop(0), Action::Drop(1)]
        );
        assert_eq!(m.nth_index(2), Some(29));
        assert_eq!(m.nth_index(4), None);
    }
}
