//! The six cards: two suits of three ranks.
//!
//! A card's text form is two ASCII characters, rank then suit: `Js`, `Qh`, `Kh` (`s` spades,
//! `h` hearts). ASCII keeps it typeable and identical in JSON, infoset keys and logs. Its
//! [`index`](Card::index) is `2 * rank + suit` (0..6), so `index / 2` is the rank, as in
//! OpenSpiel's numbering.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// Number of cards in the deck.
pub const DECK_SIZE: usize = 6;
/// Number of ranks.
pub const NUM_RANKS: usize = 3;
/// Number of suits.
pub const NUM_SUITS: usize = 2;

/// A card's rank; ranks are ordered `Jack < Queen < King`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rank {
    /// J, the lowest rank.
    Jack,
    /// Q.
    Queen,
    /// K, the highest rank.
    King,
}

impl Rank {
    /// All ranks, lowest first.
    pub const ALL: [Rank; NUM_RANKS] = [Rank::Jack, Rank::Queen, Rank::King];

    /// The rank's index (0 = J, 1 = Q, 2 = K), for one-hot encodings.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The one-letter name (`J`, `Q`, `K`).
    pub fn letter(self) -> char {
        match self {
            Rank::Jack => 'J',
            Rank::Queen => 'Q',
            Rank::King => 'K',
        }
    }
}

/// A card's suit. Suits never decide a hand; they only make the two cards of a rank distinct.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Suit {
    /// `s`.
    Spades,
    /// `h`.
    Hearts,
}

impl Suit {
    /// Both suits.
    pub const ALL: [Suit; NUM_SUITS] = [Suit::Spades, Suit::Hearts];

    /// The suit's index (0 = spades, 1 = hearts), for one-hot encodings.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The one-letter name (`s`, `h`).
    pub fn letter(self) -> char {
        match self {
            Suit::Spades => 's',
            Suit::Hearts => 'h',
        }
    }
}

/// One card. Serialized as its text form (`"Ks"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Card {
    /// What decides a showdown.
    pub rank: Rank,
    /// Only tells the two cards of a rank apart.
    pub suit: Suit,
}

/// All six cards in index order: `Js Jh Qs Qh Ks Kh`.
pub const DECK: [Card; DECK_SIZE] = [
    Card::new(Rank::Jack, Suit::Spades),
    Card::new(Rank::Jack, Suit::Hearts),
    Card::new(Rank::Queen, Suit::Spades),
    Card::new(Rank::Queen, Suit::Hearts),
    Card::new(Rank::King, Suit::Spades),
    Card::new(Rank::King, Suit::Hearts),
];

impl Card {
    /// The card of this rank and suit.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card { rank, suit }
    }

    /// The card's index in 0..6 (`2 * rank + suit`).
    #[inline]
    pub fn index(self) -> usize {
        self.rank.index() * NUM_SUITS + self.suit.index()
    }

    /// The card with this index, if it is below 6.
    pub fn from_index(i: usize) -> Option<Card> {
        DECK.get(i).copied()
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank.letter(), self.suit.letter())
    }
}

/// Why a card's text was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("`{0}` is not a card: write a rank J, Q or K followed by a suit s or h, e.g. `Ks`")]
pub struct CardParseError(pub String);

impl FromStr for Card {
    type Err = CardParseError;

    fn from_str(s: &str) -> Result<Card, CardParseError> {
        DECK.into_iter().find(|c| c.to_string() == s).ok_or_else(|| CardParseError(s.to_string()))
    }
}

impl From<Card> for String {
    fn from(c: Card) -> String {
        c.to_string()
    }
}

impl TryFrom<String> for Card {
    type Error = CardParseError;

    fn try_from(s: String) -> Result<Card, CardParseError> {
        s.parse()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_form_round_trips_for_every_card() {
        for (i, c) in DECK.into_iter().enumerate() {
            assert_eq!(c.index(), i);
            assert_eq!(Card::from_index(i), Some(c));
            assert_eq!(c.to_string().parse::<Card>(), Ok(c));
            let json = serde_json::to_string(&c).unwrap();
            assert_eq!(serde_json::from_str::<Card>(&json).unwrap(), c);
        }
        assert_eq!(DECK.map(|c| c.to_string()).join(" "), "Js Jh Qs Qh Ks Kh");
        assert!(Card::from_index(6).is_none());
    }

    #[test]
    fn bad_card_text_is_refused_with_a_hint() {
        let e = "Ac".parse::<Card>().unwrap_err();
        assert!(e.to_string().contains("J, Q or K"), "{e}");
        assert!(serde_json::from_str::<Card>("\"ks\"").is_err());
    }

    #[test]
    fn ranks_are_ordered_jack_queen_king() {
        assert!(Rank::Jack < Rank::Queen && Rank::Queen < Rank::King);
    }
}
