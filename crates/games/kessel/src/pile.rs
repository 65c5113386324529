//! A fixed-capacity pile of cards of one family: no heap allocation, cheap to clone.

use crate::card::{Card, FAMILY_SIZE};
use serde::{Deserialize, Serialize};

/// Cards stacked bottom to top; the last card is the top.
///
/// Equality and hashing look at the cards in the pile only, not at the unused slots of the
/// backing array (which keep whatever was popped last and are not serialised).
#[derive(Clone, Copy, Debug)]
pub struct Pile {
    cards: [Card; FAMILY_SIZE],
    len: u8,
}

impl PartialEq for Pile {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Pile {}

impl std::hash::Hash for Pile {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.as_slice().hash(h);
    }
}

impl Default for Pile {
    fn default() -> Self {
        Pile { cards: [Card::from_id(0).expect("card 0 exists"); FAMILY_SIZE], len: 0 }
    }
}

impl Pile {
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

    /// The top card.
    #[inline]
    pub fn top(&self) -> Option<Card> {
        self.len.checked_sub(1).map(|i| self.cards[i as usize])
    }

    /// Puts a card on top. The pile holds one family, so it can never overflow.
    #[inline]
    pub fn push(&mut self, c: Card) {
        debug_assert!((self.len as usize) < FAMILY_SIZE);
        self.cards[self.len as usize] = c;
        self.len += 1;
    }

    /// Takes the top card.
    #[inline]
    pub fn pop(&mut self) -> Option<Card> {
        let i = self.len.checked_sub(1)?;
        self.len = i;
        Some(self.cards[i as usize])
    }

    /// Empties the pile.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The cards, bottom first.
    #[inline]
    pub fn as_slice(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }

    /// The cards, bottom first, mutable (for shuffling).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Card] {
        &mut self.cards[..self.len as usize]
    }

    /// Builds a pile from cards listed bottom first; `None` if there are more than a family holds.
    pub fn from_bottom_first(cards: &[Card]) -> Option<Pile> {
        if cards.len() > FAMILY_SIZE {
            return None;
        }
        let mut p = Pile::default();
        for &c in cards {
            p.push(c);
        }
        Some(p)
    }
}

impl Serialize for Pile {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.as_slice())
    }
}

impl<'de> Deserialize<'de> for Pile {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Vec::<Card>::deserialize(d)?;
        Pile::from_bottom_first(&v).ok_or_else(|| serde::de::Error::custom("a pile holds at most 22 cards"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equality_ignores_unused_slots() {
        let a = Card::from_id(3).unwrap();
        let b = Card::from_id(5).unwrap();
        let mut p = Pile::from_bottom_first(&[a, b]).unwrap();
        p.pop();
        let q = Pile::from_bottom_first(&[a]).unwrap();
        assert_eq!(p, q);
        let json = serde_json::to_string(&p).unwrap();
        assert_eq!(serde_json::from_str::<Pile>(&json).unwrap(), p);
        p.clear();
        assert_eq!(p, Pile::default());
    }
}
