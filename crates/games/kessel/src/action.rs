//! The flat action space (48 indices) and legal-action masks.
//!
//! Every decision of K8 is one of these actions, taken by the player whose decision it is. A
//! multi-step choice (token then target, draw then keep) is a sequence of single actions.

use crate::card::Family;
use crate::token::Token;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Where a Draw takes its card from (K3.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    /// Top of the Sand draw pile (face down).
    SandDeck = 0,
    /// Top of the Blood draw pile (face down).
    BloodDeck = 1,
    /// Top of the Sand discard pile (face up).
    SandDiscard = 2,
    /// Top of the Blood discard pile (face up).
    BloodDiscard = 3,
}

impl Source {
    /// All four sources in action order.
    pub const ALL: [Source; 4] = [Source::SandDeck, Source::BloodDeck, Source::SandDiscard, Source::BloodDiscard];

    /// The family of the drawn card.
    pub fn family(self) -> Family {
        match self {
            Source::SandDeck | Source::SandDiscard => Family::Sand,
            Source::BloodDeck | Source::BloodDiscard => Family::Blood,
        }
    }

    /// Whether the card comes from a face-down draw pile.
    pub fn is_deck(self) -> bool {
        matches!(self, Source::SandDeck | Source::BloodDeck)
    }

    /// Kebab-case name.
    pub fn name(self) -> &'static str {
        match self {
            Source::SandDeck => "sand-deck",
            Source::BloodDeck => "blood-deck",
            Source::SandDiscard => "sand-discard",
            Source::BloodDiscard => "blood-discard",
        }
    }
    /// The source of a kebab-case name (see [`Source::name`]).
    pub fn parse(s: &str) -> Option<Source> {
        Source::ALL.into_iter().find(|src| src.name() == s)
    }
}

/// One decision. Its [`index`](Action::index) is stable and documented in the README.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    /// Index 0: Stand (K3.3), which also declines to play a token.
    Stand,
    /// Indices 1–4: Draw from a source (K3.4), which also declines to play a token.
    Draw(Source),
    /// Index 5: keep the drawn card, discarding the held one.
    KeepDrawn,
    /// Index 6: keep the held card, discarding the drawn one.
    KeepHeld,
    /// Indices 7–22: play a Shift Token (K5).
    PlayToken(Token),
    /// Indices 23–29: choose the opponent this many seats clockwise (1–7) as the token's target.
    Target(u8),
    /// Index 30: take the first die (Prime Sabacc or Impostor).
    DieFirst,
    /// Index 31: take the second die.
    DieSecond,
    /// Indices 32–47: pick a token kind at setup (K2.1 `choose`).
    ChooseToken(Token),
}

/// Size of the flat action space.
pub const NUM_ACTIONS: usize = 48;

const DRAW_BASE: usize = 1;
const KEEP_BASE: usize = 5;
const TOKEN_BASE: usize = 7;
const TARGET_BASE: usize = 23;
const DIE_BASE: usize = 30;
const CHOOSE_BASE: usize = 32;

impl Action {
    /// The action's index in 0..48.
    #[inline]
    pub const fn index(self) -> usize {
        match self {
            Action::Stand => 0,
            Action::Draw(s) => DRAW_BASE + s as usize,
            Action::KeepDrawn => KEEP_BASE,
            Action::KeepHeld => KEEP_BASE + 1,
            Action::PlayToken(t) => TOKEN_BASE + t.index(),
            Action::Target(o) => TARGET_BASE + (o as usize).saturating_sub(1),
            Action::DieFirst => DIE_BASE,
            Action::DieSecond => DIE_BASE + 1,
            Action::ChooseToken(t) => CHOOSE_BASE + t.index(),
        }
    }

    /// The action with this index, if it is in 0..48.
    #[inline]
    pub fn from_index(i: usize) -> Option<Action> {
        Some(match i {
            0 => Action::Stand,
            1..=4 => Action::Draw(Source::ALL[i - DRAW_BASE]),
            5 => Action::KeepDrawn,
            6 => Action::KeepHeld,
            7..=22 => Action::PlayToken(Token::ALL[i - TOKEN_BASE]),
            23..=29 => Action::Target((i - TARGET_BASE + 1) as u8),
            30 => Action::DieFirst,
            31 => Action::DieSecond,
            32..=47 => Action::ChooseToken(Token::ALL[i - CHOOSE_BASE]),
            _ => return None,
        })
    }

    /// The documented name: `stand`, `draw:sand-deck`, `keep:drawn`, `keep:held`,
    /// `token:cook-the-books`, `target:+2`, `die:1`, `die:2`, `choose:embargo`.
    pub fn name(self) -> String {
        match self {
            Action::Stand => "stand".into(),
            Action::Draw(s) => format!("draw:{}", s.name()),
            Action::KeepDrawn => "keep:drawn".into(),
            Action::KeepHeld => "keep:held".into(),
            Action::PlayToken(t) => format!("token:{}", t.name()),
            Action::Target(o) => format!("target:+{o}"),
            Action::DieFirst => "die:1".into(),
            Action::DieSecond => "die:2".into(),
            Action::ChooseToken(t) => format!("choose:{}", t.name()),
        }
    }

    /// Parses a documented name (see [`Action::name`]) or a bare index.
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

/// The same mask without Shift Token plays: what a seat may do while holding its tokens.
#[inline]
pub fn without_tokens(mask: ActionMask) -> ActionMask {
    ActionMask::from_bits(mask.bits() & !(((1u64 << Token::COUNT) - 1) << TOKEN_BASE))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_tokens_drops_exactly_the_token_plays() {
        for bits in [u64::MAX >> 16, 0x7F_FFFF, 0b1000_0001, 1 << 22, 1 << 6 | 1 << 23] {
            let m = ActionMask::from_bits(bits);
            let w = without_tokens(m);
            for i in 0..NUM_ACTIONS {
                let is_token = matches!(Action::from_index(i), Some(Action::PlayToken(_)));
                assert_eq!(w.contains_index(i), m.contains_index(i) && !is_token, "index {i} of {bits:#x}");
            }
        }
    }

    #[test]
    fn indices_names_and_parsing_round_trip() {
        for i in 0..NUM_ACTIONS {
            let a = Action::from_index(i).unwrap();
            assert_eq!(a.index(), i);
            assert_eq!(Action::parse(&a.name()), Some(a), "{}", a.name());
            assert_eq!(Action::parse(&i.to_string()), Some(a));
        }
        assert_eq!(Action::from_index(NUM_ACTIONS), None);
        assert_eq!(Action::parse("dance"), None);
        assert_eq!(Action::parse("token:embargo").unwrap().index(), 7 + 12);
    }

    #[test]
    fn mask_nth_index_walks_set_bits() {
        let mut m = ActionMask::default();
        m.set(Action::Stand);
        m.set(Action::DieSecond);
        m.set(Action::Draw(Source::BloodDiscard));
        assert_eq!(m.count(), 3);
        assert_eq!(m.nth_index(0), Some(0));
        assert_eq!(m.nth_index(1), Some(4));
        assert_eq!(m.nth_index(2), Some(31));
        assert_eq!(m.nth_index(3), None);
        assert!(!m.contains_index(200));
    }
}
