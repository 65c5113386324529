//! The 76-card classic deck (C1.1), and fixed-capacity card lists for hands and piles.
//!
//! Every physical card has its own id (`Card(0..76)`) so that conservation of the deck can be
//! checked exactly. Ids 0..60 are the suit cards (suit × 15 + rank − 1), ids 60..76 the face
//! cards (kind × 2 + copy). A face card's value is not fixed: it comes from the rule config.

use game::bitset::BitIndex;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Cards in the deck.
pub const DECK_SIZE: usize = 76;
/// Suit cards (four suits of 15).
pub const SUIT_CARDS: usize = 60;
/// Largest hand size the rule config may allow (`max_hand_size`).
pub const MAX_HAND_SIZE: u8 = 14;
/// Cards a hand can hold at any moment: the size cap plus one (the drawn card of an exchange
/// before the drop, or a sudden-demise card).
pub const HAND_CAPACITY: usize = MAX_HAND_SIZE as usize + 1;

/// The four suits (C1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Suit {
    /// Sabres.
    Sabres = 0,
    /// Staves.
    Staves = 1,
    /// Flasks.
    Flasks = 2,
    /// Coins.
    Coins = 3,
}

impl Suit {
    /// All suits in id order.
    pub const ALL: [Suit; 4] = [Suit::Sabres, Suit::Staves, Suit::Flasks, Suit::Coins];

    /// The name used in card names.
    pub fn name(self) -> &'static str {
        match self {
            Suit::Sabres => "sabres",
            Suit::Staves => "staves",
            Suit::Flasks => "flasks",
            Suit::Coins => "coins",
        }
    }

    /// The two-letter short form accepted in card names (`sa7`).
    fn short(self) -> &'static str {
        match self {
            Suit::Sabres => "sa",
            Suit::Staves => "st",
            Suit::Flasks => "fl",
            Suit::Coins => "co",
        }
    }
}

/// The eight face-card kinds (C1.1), in the order of `RuleConfig::face_values`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Face {
    /// The Idiot (0 by default); part of Idiot's Array.
    Idiot = 0,
    /// Queen of Air and Darkness (−2).
    Queen = 1,
    /// Endurance (−8).
    Endurance = 2,
    /// Balance (−11).
    Balance = 3,
    /// Demise (−13).
    Demise = 4,
    /// Moderation (−14).
    Moderation = 5,
    /// The Evil One (−15).
    EvilOne = 6,
    /// The Star (−17).
    Star = 7,
}

impl Face {
    /// All kinds in id (and config) order.
    pub const ALL: [Face; 8] = [
        Face::Idiot,
        Face::Queen,
        Face::Endurance,
        Face::Balance,
        Face::Demise,
        Face::Moderation,
        Face::EvilOne,
        Face::Star,
    ];

    /// Index 0..8 into `RuleConfig::face_values`.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The name used in card names.
    pub fn name(self) -> &'static str {
        match self {
            Face::Idiot => "idiot",
            Face::Queen => "queen",
            Face::Endurance => "endurance",
            Face::Balance => "balance",
            Face::Demise => "demise",
            Face::Moderation => "moderation",
            Face::EvilOne => "evil-one",
            Face::Star => "star",
        }
    }

    fn parse(s: &str) -> Option<Face> {
        Some(match s {
            "idiot" | "the-idiot" => Face::Idiot,
            "queen" | "queen-of-air-and-darkness" => Face::Queen,
            "endurance" => Face::Endurance,
            "balance" => Face::Balance,
            "demise" => Face::Demise,
            "moderation" => Face::Moderation,
            "evil-one" | "the-evil-one" => Face::EvilOne,
            "star" | "the-star" => Face::Star,
            _ => return None,
        })
    }
}

/// What a card is, copies aside.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CardKind {
    /// A suit card of rank 1–15 (12 Commander, 13 Mistress, 14 Master, 15 Ace), worth its rank.
    Suit {
        /// The suit.
        suit: Suit,
        /// 1–15.
        rank: u8,
    },
    /// A face card, worth its configured value; two copies of each kind.
    Face(Face),
}

impl CardKind {
    /// How many cards of this kind the deck holds.
    pub fn copies(self) -> u8 {
        match self {
            CardKind::Suit { .. } => 1,
            CardKind::Face(_) => 2,
        }
    }

    /// Parses a card name: `sabres-7`, `sa7`, `coins-ace`, `idiot`, `evil-one` (case-insensitive).
    pub fn parse(name: &str) -> Option<CardKind> {
        let s = name.trim().to_ascii_lowercase();
        if let Some(f) = Face::parse(&s) {
            return Some(CardKind::Face(f));
        }
        for suit in Suit::ALL {
            let rest = s
                .strip_prefix(suit.name())
                .map(|r| r.strip_prefix('-').unwrap_or(r))
                .or_else(|| s.strip_prefix(suit.short()).map(|r| r.strip_prefix('-').unwrap_or(r)));
            let Some(rest) = rest else { continue };
            let rank = match rest {
                "commander" => 12,
                "mistress" => 13,
                "master" => 14,
                "ace" => 15,
                r if !r.is_empty() && r.len() <= 2 && r.bytes().all(|b| b.is_ascii_digit()) => r.parse().ok()?,
                _ => return None,
            };
            return (1..=15).contains(&rank).then_some(CardKind::Suit { suit, rank });
        }
        None
    }

    /// The canonical name (`sabres-7`, `idiot`).
    pub fn name(self) -> String {
        match self {
            CardKind::Suit { suit, rank } => format!("{}-{rank}", suit.name()),
            CardKind::Face(f) => f.name().to_string(),
        }
    }
}

/// One physical card; see the module documentation for the ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// The card with this id, if it is in 0..76.
    #[inline]
    pub fn from_id(id: u8) -> Option<Card> {
        ((id as usize) < DECK_SIZE).then_some(Card(id))
    }

    /// The card's id (0..76).
    #[inline]
    pub fn id(self) -> u8 {
        self.0
    }

    /// The `copy`-th card (0-based) of a kind, if that copy exists.
    pub fn of(kind: CardKind, copy: u8) -> Option<Card> {
        if copy >= kind.copies() {
            return None;
        }
        match kind {
            CardKind::Suit { suit, rank } if (1..=15).contains(&rank) => Some(Card(suit as u8 * 15 + rank - 1)),
            CardKind::Suit { .. } => None,
            CardKind::Face(f) => Some(Card(SUIT_CARDS as u8 + f as u8 * 2 + copy)),
        }
    }

    /// Suit card or face card, and which.
    #[inline]
    pub fn kind(self) -> CardKind {
        if (self.0 as usize) < SUIT_CARDS {
            CardKind::Suit { suit: Suit::ALL[(self.0 / 15) as usize], rank: self.0 % 15 + 1 }
        } else {
            CardKind::Face(Face::ALL[((self.0 - SUIT_CARDS as u8) / 2) as usize])
        }
    }

    /// The rank of a suit card, `None` for a face card.
    #[inline]
    pub fn rank(self) -> Option<u8> {
        ((self.0 as usize) < SUIT_CARDS).then_some(self.0 % 15 + 1)
    }

    /// The face kind of a face card.
    #[inline]
    pub fn face(self) -> Option<Face> {
        ((self.0 as usize) >= SUIT_CARDS).then(|| Face::ALL[((self.0 - SUIT_CARDS as u8) / 2) as usize])
    }

    /// The card's value under a face-value table (C1.1): a suit card is worth its rank.
    #[inline]
    pub fn value(self, faces: &[i8; 8]) -> i16 {
        if (self.0 as usize) < SUIT_CARDS {
            (self.0 % 15 + 1) as i16
        } else {
            faces[((self.0 - SUIT_CARDS as u8) / 2) as usize] as i16
        }
    }

    /// Every card in id order.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..DECK_SIZE as u8).map(Card)
    }

    /// The canonical name of the card's kind; the two copies of a face card share it.
    pub fn name(self) -> String {
        self.kind().name()
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl Serialize for Card {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.0)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let id = u8::deserialize(d)?;
        Card::from_id(id).ok_or_else(|| serde::de::Error::custom(format!("card id {id} is not in 0..76")))
    }
}

/// A set of cards as a 128-bit mask, for conservation checks.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CardSet(pub u128);

// Listed card by card, like a hand, so a set reads (and compares in text) as its cards.
impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("CardSet").field(&self.iter().collect::<Vec<_>>()).finish()
    }
}

game::bit_set_methods!(CardSet, Card);

impl CardSet {
    /// Every card of the deck.
    pub const FULL: CardSet = CardSet((1u128 << DECK_SIZE) - 1);
}

// The set is the engine's one bitset over card ids.
impl BitIndex for Card {
    type Word = u128;

    #[inline]
    fn bit(self) -> u32 {
        self.0 as u32
    }

    #[inline]
    fn from_bit(bit: u32) -> Card {
        Card(bit as u8)
    }
}

/// For `skip_serializing_if`: an empty set is left out of JSON.
pub(crate) fn no_cards(s: &CardSet) -> bool {
    s.is_empty()
}

// A card set travels as the list of its card ids, like a hand.
impl Serialize for CardSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for CardSet {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut set = CardSet::default();
        for c in Vec::<Card>::deserialize(d)? {
            if !set.insert(c) {
                return Err(serde::de::Error::custom(format!("card id {} is listed twice", c.0)));
            }
        }
        Ok(set)
    }
}

/// A fixed-capacity list of cards: no heap allocation, cheap to copy. Equality, hashing and
/// `Debug` look at the listed cards only.
#[derive(Clone, Copy)]
pub struct Cards<const N: usize> {
    cards: [Card; N],
    len: u8,
}

/// A player's cards in the order received (C2.3): new cards last.
pub type Hand = Cards<HAND_CAPACITY>;
/// A pile of up to the whole deck; the last card is the top.
pub type Pile = Cards<DECK_SIZE>;

impl<const N: usize> Default for Cards<N> {
    fn default() -> Self {
        Cards { cards: [Card(0); N], len: 0 }
    }
}

impl<const N: usize> PartialEq for Cards<N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<const N: usize> Eq for Cards<N> {}

impl<const N: usize> fmt::Debug for Cards<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<const N: usize> std::hash::Hash for Cards<N> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.as_slice().hash(h);
    }
}

impl Pile {
    /// The whole deck in id order, card 0 at the bottom: what a deal shuffles (C2.3). A constant,
    /// so refilling the deck at every hand is one copy rather than 76 pushes.
    pub const FULL_DECK: Pile = {
        let mut cards = [Card(0); DECK_SIZE];
        let mut i = 0;
        while i < DECK_SIZE {
            cards[i] = Card(i as u8);
            i += 1;
        }
        Cards { cards, len: DECK_SIZE as u8 }
    };
}

impl<const N: usize> Cards<N> {
    /// The capacity.
    pub const CAPACITY: usize = N;

    /// A list of these cards, if they fit.
    pub fn from_slice(cards: &[Card]) -> Option<Self> {
        if cards.len() > N {
            return None;
        }
        let mut c = Self::default();
        c.cards[..cards.len()].copy_from_slice(cards);
        c.len = cards.len() as u8;
        Some(c)
    }

    /// Number of cards.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// True when empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The cards, first (or bottom) first.
    #[inline]
    pub fn as_slice(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }

    /// The cards, mutable.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Card] {
        &mut self.cards[..self.len as usize]
    }

    /// Appends a card (a hand's newest card, a pile's new top).
    #[inline]
    pub fn push(&mut self, c: Card) {
        debug_assert!((self.len as usize) < N, "card list over capacity");
        self.cards[self.len as usize] = c;
        self.len += 1;
    }

    /// Removes the last card (a pile's top).
    #[inline]
    pub fn pop(&mut self) -> Option<Card> {
        self.len = self.len.checked_sub(1)?;
        Some(self.cards[self.len as usize])
    }

    /// The last card.
    #[inline]
    pub fn last(&self) -> Option<Card> {
        self.len.checked_sub(1).map(|i| self.cards[i as usize])
    }

    /// Removes the card at `index`, keeping the order of the others.
    #[inline]
    pub fn remove(&mut self, index: usize) -> Card {
        let len = self.len as usize;
        assert!(index < len, "index {index} beyond {len} cards");
        let c = self.cards[index];
        self.cards.copy_within(index + 1..len, index);
        self.len -= 1;
        c
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Whether the card is listed.
    pub fn contains(&self, c: Card) -> bool {
        self.as_slice().contains(&c)
    }

    /// The total of the cards' values (C4.2).
    #[inline]
    pub fn total(&self, faces: &[i8; 8]) -> i16 {
        self.as_slice().iter().map(|c| c.value(faces)).sum()
    }

    /// The canonical names of the cards, in order.
    pub fn names(&self) -> Vec<String> {
        self.as_slice().iter().map(|c| c.name()).collect()
    }
}

impl<const N: usize> Serialize for Cards<N> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.as_slice())
    }
}

impl<'de, const N: usize> Deserialize<'de> for Cards<N> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Vec::<Card>::deserialize(d)?;
        Cards::from_slice(&v).ok_or_else(|| serde::de::Error::custom(format!("{} cards; at most {N} fit", v.len())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_kinds_and_names_agree() {
        for c in Card::all() {
            let k = c.kind();
            assert_eq!(CardKind::parse(&c.name()), Some(k), "{c}");
            let copy = c.id() as usize >= SUIT_CARDS && (c.id() - SUIT_CARDS as u8) % 2 == 1;
            assert_eq!(Card::of(k, copy as u8), Some(c));
        }
        assert_eq!(CardKind::parse("SA7"), Some(CardKind::Suit { suit: Suit::Sabres, rank: 7 }));
        assert_eq!(CardKind::parse("coins-ace"), Some(CardKind::Suit { suit: Suit::Coins, rank: 15 }));
        assert_eq!(CardKind::parse("st12"), CardKind::parse("staves-commander"));
        assert_eq!(CardKind::parse("The-Evil-One"), Some(CardKind::Face(Face::EvilOne)));
        for bad in ["sabres-16", "sabres-0", "sa", "joker", "co-1x", ""] {
            assert_eq!(CardKind::parse(bad), None, "{bad}");
        }
        assert!(Card::from_id(76).is_none());
    }

    #[test]
    fn cards_remove_keeps_order() {
        let ids: Vec<Card> = (0..5).map(|i| Card::from_id(i).unwrap()).collect();
        let mut h = Hand::from_slice(&ids).unwrap();
        assert_eq!(h.remove(1).id(), 1);
        assert_eq!(h.as_slice().iter().map(|c| c.id()).collect::<Vec<_>>(), vec![0, 2, 3, 4]);
        assert_eq!(h.pop().unwrap().id(), 4);
        assert_eq!(h.len(), 3);
    }
}
