//! Cards of the 44-card Kessel deck (K1.1).
//!
//! Every physical card has its own identity (`Card(0..44)`) so that conservation of the deck can
//! be checked exactly; most rules only look at its [`Family`] and [`CardKind`].

use game::bitset::BitIndex;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The two families; each has its own draw and discard pile and one card of each in every hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    /// Sand cards (listed first in every hand and every pile pair).
    Sand = 0,
    /// Blood cards.
    Blood = 1,
}

impl Family {
    /// Both families in their canonical order (Sand first).
    pub const ALL: [Family; 2] = [Family::Sand, Family::Blood];

    /// Index 0 for Sand, 1 for Blood, used for arrays indexed by family.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The family with the given array index.
    #[inline]
    pub fn from_index(i: usize) -> Family {
        if i == 0 { Family::Sand } else { Family::Blood }
    }

    /// One-letter prefix used in card names.
    pub fn letter(self) -> char {
        match self {
            Family::Sand => 'S',
            Family::Blood => 'B',
        }
    }
}

/// What a card is worth before the reveal resolves Impostors and Sylops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CardKind {
    /// A numbered card, 1 to 6.
    Number(u8),
    /// Takes the value of a die at the reveal (K4.2), or 6 under Major Fraud (K4.9).
    Impostor,
    /// Takes the value of the other card (K4.3), or 0 under Markdown (K4.8).
    Sylop,
}

impl CardKind {
    /// Number of distinct kinds per family: six numbers, Impostor, Sylop.
    pub const COUNT: usize = 8;

    /// Dense index 0..8: numbers 1..6 → 0..5, Impostor → 6, Sylop → 7.
    #[inline]
    pub fn index(self) -> usize {
        match self {
            CardKind::Number(v) => (v - 1) as usize,
            CardKind::Impostor => 6,
            CardKind::Sylop => 7,
        }
    }

    /// How many copies of this kind a family holds.
    pub fn copies(self) -> u8 {
        match self {
            CardKind::Number(_) => 3,
            CardKind::Impostor => 3,
            CardKind::Sylop => 1,
        }
    }
}

/// One physical card: ids 0..22 are Sand, 22..44 Blood. Within a family, positions 0..18 are the
/// numbers (three of each value), 18..21 the Impostors and 21 the Sylop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

/// Cards in one family.
pub const FAMILY_SIZE: usize = 22;
/// Cards in the deck.
pub const DECK_SIZE: usize = 44;

impl Card {
    /// The card with this id, if the id is in 0..44.
    pub fn from_id(id: u8) -> Option<Card> {
        ((id as usize) < DECK_SIZE).then_some(Card(id))
    }

    /// The card's id (0..44): stable, used in serialisation and card sets.
    #[inline]
    pub fn id(self) -> u8 {
        self.0
    }

    /// The `copy`-th card (0-based) of a kind in a family, if that copy exists.
    pub fn of(family: Family, kind: CardKind, copy: u8) -> Option<Card> {
        if copy >= kind.copies() {
            return None;
        }
        let pos = match kind {
            CardKind::Number(v) if (1..=6).contains(&v) => (v - 1) * 3 + copy,
            CardKind::Number(_) => return None,
            CardKind::Impostor => 18 + copy,
            CardKind::Sylop => 21,
        };
        Some(Card(family.index() as u8 * FAMILY_SIZE as u8 + pos))
    }

    /// Sand or Blood.
    #[inline]
    pub fn family(self) -> Family {
        if self.0 < FAMILY_SIZE as u8 { Family::Sand } else { Family::Blood }
    }

    /// Number, Impostor or Sylop.
    #[inline]
    pub fn kind(self) -> CardKind {
        let pos = self.0 % FAMILY_SIZE as u8;
        match pos {
            0..=17 => CardKind::Number(pos / 3 + 1),
            18..=20 => CardKind::Impostor,
            _ => CardKind::Sylop,
        }
    }

    /// Every card of a family, in id order.
    pub fn family_cards(family: Family) -> impl Iterator<Item = Card> {
        let base = family.index() as u8 * FAMILY_SIZE as u8;
        (base..base + FAMILY_SIZE as u8).map(Card)
    }

    /// Short name such as `S3`, `BI` (Blood Impostor) or `SY` (Sand Sylop); copies of a kind share
    /// a name.
    pub fn name(self) -> String {
        let f = self.family().letter();
        match self.kind() {
            CardKind::Number(v) => format!("{f}{v}"),
            CardKind::Impostor => format!("{f}I"),
            CardKind::Sylop => format!("{f}Y"),
        }
    }

    /// Parses a card name (`S3`, `BI`, `SY`, case-insensitive) into its family and kind.
    pub fn parse_kind(name: &str) -> Option<(Family, CardKind)> {
        let up = name.trim().to_ascii_uppercase();
        let mut chars = up.chars();
        let family = match chars.next()? {
            'S' => Family::Sand,
            'B' => Family::Blood,
            _ => return None,
        };
        let rest: String = chars.collect();
        let kind = match rest.as_str() {
            "I" | "IMP" | "IMPOSTOR" => CardKind::Impostor,
            "Y" | "SYL" | "SYLOP" => CardKind::Sylop,
            d if d.len() == 1 => {
                let v = d.parse::<u8>().ok()?;
                if !(1..=6).contains(&v) {
                    return None;
                }
                CardKind::Number(v)
            }
            _ => return None,
        };
        Some((family, kind))
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
        Card::from_id(id).ok_or_else(|| serde::de::Error::custom(format!("card id {id} is not in 0..44")))
    }
}

impl BitIndex for Card {
    type Word = u64;

    #[inline]
    fn bit(self) -> u32 {
        self.0 as u32
    }

    #[inline]
    fn from_bit(bit: u32) -> Card {
        Card(bit as u8)
    }
}

/// A set of cards as a 64-bit mask (bit = card id): cheap to copy, used for "seen face up" and
/// conservation checks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CardSet(pub u64);

game::bit_set_methods!(CardSet, Card);

impl CardSet {
    /// Every card of the deck.
    pub const FULL: CardSet = CardSet((1u64 << DECK_SIZE) - 1);

    /// How many cards of each kind of each family the set holds, indexed `[family][kind.index()]`.
    pub fn kind_counts(self) -> [[u8; CardKind::COUNT]; 2] {
        let mut out = [[0u8; CardKind::COUNT]; 2];
        for c in self.iter() {
            out[c.family().index()][c.kind().index()] += 1;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k1_1_deck_has_44_cards_with_the_right_kinds() {
        for fam in Family::ALL {
            let cards: Vec<Card> = Card::family_cards(fam).collect();
            assert_eq!(cards.len(), 22);
            for v in 1..=6 {
                assert_eq!(cards.iter().filter(|c| c.kind() == CardKind::Number(v)).count(), 3);
            }
            assert_eq!(cards.iter().filter(|c| c.kind() == CardKind::Impostor).count(), 3);
            assert_eq!(cards.iter().filter(|c| c.kind() == CardKind::Sylop).count(), 1);
            assert!(cards.iter().all(|c| c.family() == fam));
        }
    }

    #[test]
    fn card_of_and_kind_agree_and_names_parse_back() {
        for id in 0..44u8 {
            let c = Card::from_id(id).unwrap();
            let (f, k) = Card::parse_kind(&c.name()).unwrap();
            assert_eq!((f, k), (c.family(), c.kind()));
        }
        assert_eq!(Card::of(Family::Blood, CardKind::Sylop, 0).unwrap().id(), 43);
        assert!(Card::of(Family::Sand, CardKind::Sylop, 1).is_none());
        assert!(Card::parse_kind("S7").is_none());
        assert!(Card::parse_kind("X1").is_none());
        assert!(Card::from_id(44).is_none());
    }
}
