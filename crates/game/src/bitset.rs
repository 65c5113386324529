//! The one bitset: a set of small indexed values (cards, seats, token kinds) as the bits of an
//! integer. The games' sets ([`crate::SeatSet`] here, card and token sets in the game crates) keep
//! their own types (their integer is public and their serde formats differ) and get their set
//! methods from [`bit_set_methods!`](crate::bit_set_methods), over [`Bits`], so both the bit
//! arithmetic and the delegation are written once. Everything is `#[inline]` and allocation-free: these sets sit on
//! the engine's hot paths.

use std::fmt;
use std::marker::PhantomData;

/// An unsigned integer used as the storage of a [`Bits`].
pub trait Word: Copy + Eq + fmt::Debug {
    /// No bit set.
    const ZERO: Self;
    /// Only bit `bit` set.
    fn bit(bit: u32) -> Self;
    /// Bits set in both.
    fn and(self, other: Self) -> Self;
    /// Bits set in either.
    fn or(self, other: Self) -> Self;
    /// Bits set in `self` but not in `other`.
    fn and_not(self, other: Self) -> Self;
    /// Number of bits set.
    fn count(self) -> u32;
    /// Position of the lowest set bit (`self` must not be zero).
    fn lowest(self) -> u32;
    /// `self` with its lowest set bit cleared.
    fn clear_lowest(self) -> Self;
}

macro_rules! word {
    ($($t:ty),*) => {$(
        impl Word for $t {
            const ZERO: Self = 0;
            #[inline]
            fn bit(bit: u32) -> Self {
                1 << bit
            }
            #[inline]
            fn and(self, other: Self) -> Self {
                self & other
            }
            #[inline]
            fn or(self, other: Self) -> Self {
                self | other
            }
            #[inline]
            fn and_not(self, other: Self) -> Self {
                self & !other
            }
            #[inline]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline]
            fn clear_lowest(self) -> Self {
                self & (self - 1)
            }
        }
    )*};
}

word!(u8, u16, u64, u128);

/// A value that can be a member of a [`Bits`]: it maps to one bit of `Self::Word` and back.
pub trait BitIndex: Copy {
    /// The integer the set is stored in (wide enough for every value).
    type Word: Word;
    /// The value's bit position.
    fn bit(self) -> u32;
    /// The value at bit position `bit` (only called with positions that [`BitIndex::bit`] gives).
    fn from_bit(bit: u32) -> Self;
}

/// The set methods of a newtype over an integer (`struct S(pub Word)`) whose members are
/// `$item` ([`BitIndex`]): `insert`, `remove`, `contains`, `len`, `is_empty` and `iter`, each
/// delegating to [`Bits`]. `game::bit_set_methods!(TokenSet, Token);` in the type's module.
#[macro_export]
macro_rules! bit_set_methods {
    ($set:ty, $item:ty) => {
        impl $set {
            #[inline]
            fn bits(self) -> $crate::bitset::Bits<$item> {
                $crate::bitset::Bits::from_word(self.0)
            }

            /// Adds `x`; false when it was already in the set.
            #[inline]
            pub fn insert(&mut self, x: $item) -> bool {
                let mut b = self.bits();
                let fresh = b.insert(x);
                self.0 = b.word();
                fresh
            }

            /// Removes `x` (nothing when it is not in the set).
            #[inline]
            pub fn remove(&mut self, x: $item) {
                let mut b = self.bits();
                b.remove(x);
                self.0 = b.word();
            }

            /// Whether `x` is in the set.
            #[inline]
            pub fn contains(self, x: $item) -> bool {
                self.bits().contains(x)
            }

            /// How many members the set has.
            #[inline]
            pub fn len(self) -> usize {
                self.bits().len()
            }

            /// True when the set has no member.
            #[inline]
            pub fn is_empty(self) -> bool {
                self.bits().is_empty()
            }

            /// The members in bit order.
            #[inline]
            pub fn iter(self) -> $crate::bitset::Iter<$item> {
                self.bits().iter()
            }
        }
    };
}

/// A set of `T`s as the bits of an integer, members in bit order.
pub struct Bits<T: BitIndex> {
    word: T::Word,
    _of: PhantomData<T>,
}

// Derives would require `T: Clone` etc.; the set only holds the word.
impl<T: BitIndex> Clone for Bits<T> {
    #[inline]
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: BitIndex> Copy for Bits<T> {}

impl<T: BitIndex> PartialEq for Bits<T> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.word == other.word
    }
}

impl<T: BitIndex> Eq for Bits<T> {}

impl<T: BitIndex> fmt::Debug for Bits<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bits({:?})", self.word)
    }
}

impl<T: BitIndex> Default for Bits<T> {
    #[inline]
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<T: BitIndex> Bits<T> {
    /// The empty set.
    pub const EMPTY: Self = Bits { word: T::Word::ZERO, _of: PhantomData };

    /// The set whose members are the set bits of `word`.
    #[inline]
    pub fn from_word(word: T::Word) -> Self {
        Bits { word, _of: PhantomData }
    }

    /// The set's bits.
    #[inline]
    pub fn word(self) -> T::Word {
        self.word
    }

    /// Adds `x`; returns false if it was already present.
    #[inline]
    pub fn insert(&mut self, x: T) -> bool {
        let bit = T::Word::bit(x.bit());
        let fresh = self.word.and(bit) == T::Word::ZERO;
        self.word = self.word.or(bit);
        fresh
    }

    /// Removes `x`.
    #[inline]
    pub fn remove(&mut self, x: T) {
        self.word = self.word.and_not(T::Word::bit(x.bit()));
    }

    /// Whether `x` is in the set.
    #[inline]
    pub fn contains(self, x: T) -> bool {
        self.word.and(T::Word::bit(x.bit())) != T::Word::ZERO
    }

    /// Number of members.
    #[inline]
    pub fn len(self) -> usize {
        self.word.count() as usize
    }

    /// True when the set has no member.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.word == T::Word::ZERO
    }

    /// The members in bit order.
    #[inline]
    pub fn iter(self) -> Iter<T> {
        Iter { rest: self.word, _of: PhantomData }
    }
}

impl<T: BitIndex> FromIterator<T> for Bits<T> {
    #[inline]
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut s = Self::EMPTY;
        for x in iter {
            s.insert(x);
        }
        s
    }
}

impl<T: BitIndex> IntoIterator for Bits<T> {
    type Item = T;
    type IntoIter = Iter<T>;

    #[inline]
    fn into_iter(self) -> Iter<T> {
        self.iter()
    }
}

/// The members of a [`Bits`], lowest bit first.
pub struct Iter<T: BitIndex> {
    rest: T::Word,
    _of: PhantomData<T>,
}

impl<T: BitIndex> Clone for Iter<T> {
    #[inline]
    fn clone(&self) -> Self {
        Iter { rest: self.rest, _of: PhantomData }
    }
}

impl<T: BitIndex> fmt::Debug for Iter<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Iter({:?})", self.rest)
    }
}

impl<T: BitIndex> Iterator for Iter<T> {
    type Item = T;

    #[inline]
    fn next(&mut self) -> Option<T> {
        if self.rest == T::Word::ZERO {
            return None;
        }
        let bit = self.rest.lowest();
        self.rest = self.rest.clear_lowest();
        Some(T::from_bit(bit))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.rest.count() as usize;
        (n, Some(n))
    }
}

impl<T: BitIndex> ExactSizeIterator for Iter<T> {}

impl<T: BitIndex> std::iter::FusedIterator for Iter<T> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Small(u8);

    impl BitIndex for Small {
        type Word = u8;
        fn bit(self) -> u32 {
            self.0 as u32
        }
        fn from_bit(bit: u32) -> Self {
            Small(bit as u8)
        }
    }

    #[test]
    fn insert_remove_contains_len_and_iteration_in_bit_order() {
        let mut s = Bits::<Small>::EMPTY;
        assert!(s.is_empty());
        assert!(s.insert(Small(5)));
        assert!(s.insert(Small(0)));
        assert!(s.insert(Small(7)));
        assert!(!s.insert(Small(5)), "a second insert reports the member was present");
        assert_eq!(s.word(), 0b1010_0001);
        assert_eq!(s.len(), 3);
        assert!(s.contains(Small(7)) && !s.contains(Small(6)));
        assert_eq!(s.iter().collect::<Vec<_>>(), [Small(0), Small(5), Small(7)]);
        assert_eq!(s.iter().len(), 3);
        s.remove(Small(0));
        s.remove(Small(1));
        assert_eq!(s, Bits::from_word(0b1010_0000));
        assert_eq!([Small(5), Small(7)].into_iter().collect::<Bits<Small>>(), s);
    }
}
