//! Legal-action masks of any width: [`ActionMask`], one bit per flat action index, in `W` 64-bit
//! words (one word holds Kessel's 48 actions, classic's 44 and Leduc's 3; a game with more
//! actions picks a larger `W`). Every game's mask is this type, so the bit arithmetic, the
//! expansion to bools for tensors and the packed word buffers are written once.

use crate::game::action::{GameAction, LegalMask};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::marker::PhantomData;

/// A set of legal action indices (see the module documentation).
pub struct ActionMask<A, const W: usize = 1> {
    words: [u64; W],
    _action: PhantomData<fn() -> A>,
}

impl<A, const W: usize> Clone for ActionMask<A, W> {
    #[inline]
    fn clone(&self) -> Self {
        *self
    }
}

impl<A, const W: usize> Copy for ActionMask<A, W> {}

impl<A, const W: usize> PartialEq for ActionMask<A, W> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.words == other.words
    }
}

impl<A, const W: usize> Eq for ActionMask<A, W> {}

impl<A, const W: usize> std::hash::Hash for ActionMask<A, W> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.words.hash(h);
    }
}

impl<A, const W: usize> Default for ActionMask<A, W> {
    #[inline]
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<A, const W: usize> fmt::Debug for ActionMask<A, W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.indices()).finish()
    }
}

impl<A, const W: usize> ActionMask<A, W> {
    /// No action legal.
    pub const EMPTY: Self = ActionMask { words: [0; W], _action: PhantomData };

    /// The mask whose words are `words` (bit `i % 64` of word `i / 64` for index `i`).
    #[inline]
    pub const fn from_words(words: [u64; W]) -> Self {
        ActionMask { words, _action: PhantomData }
    }

    /// The mask's words.
    #[inline]
    pub const fn words(&self) -> [u64; W] {
        self.words
    }

    /// Marks the action with this index legal (indices past the mask's width are ignored).
    #[inline]
    pub fn set_index(&mut self, i: usize) {
        if let Some(w) = self.words.get_mut(i / 64) {
            *w |= 1u64 << (i % 64);
        }
    }

    /// Marks the actions with indices `lo..lo + n` legal (a run of sized bets, of drops).
    #[inline]
    pub fn set_range(&mut self, lo: usize, n: usize) {
        if n == 0 {
            return;
        }
        if W == 1 && lo + n <= 64 {
            self.words[0] |= (u64::MAX >> (64 - n)) << lo;
            return;
        }
        for i in lo..lo + n {
            self.set_index(i);
        }
    }

    /// Marks the action with this index illegal.
    #[inline]
    pub fn clear_index(&mut self, i: usize) {
        if let Some(w) = self.words.get_mut(i / 64) {
            *w &= !(1u64 << (i % 64));
        }
    }

    /// Whether the action with this index is legal.
    #[inline]
    pub fn contains_index(self, i: usize) -> bool {
        self.words.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1)
    }

    /// Number of legal actions.
    #[inline]
    pub fn count(self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// True when no action is legal (only once a game is over).
    #[inline]
    pub fn is_empty(self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// The `n`-th legal index in increasing order (uniform sampling without allocation).
    #[inline]
    pub fn nth_index(self, mut n: usize) -> Option<usize> {
        for (k, &word) in self.words.iter().enumerate() {
            let ones = word.count_ones() as usize;
            if n >= ones {
                n -= ones;
                continue;
            }
            let mut m = word;
            for _ in 0..n {
                m &= m - 1;
            }
            return Some(k * 64 + m.trailing_zeros() as usize);
        }
        None
    }

    /// Legal indices in increasing order.
    pub fn indices(self) -> impl Iterator<Item = usize> {
        self.words.into_iter().enumerate().flat_map(|(k, word)| {
            let mut m = word;
            std::iter::from_fn(move || {
                if m == 0 {
                    return None;
                }
                let i = m.trailing_zeros() as usize;
                m &= m - 1;
                Some(k * 64 + i)
            })
        })
    }

    /// The legal indices in increasing order, collected.
    pub fn index_list(self) -> Vec<usize> {
        self.indices().collect()
    }

    /// The actions in both masks.
    #[inline]
    pub fn intersect(self, other: Self) -> Self {
        let mut words = self.words;
        for (w, o) in words.iter_mut().zip(other.words) {
            *w &= o;
        }
        Self::from_words(words)
    }

    /// Writes the mask as 64-bit words into `out` (at least `W` long; further words are zeroed).
    #[inline]
    pub fn write_words(self, out: &mut [u64]) {
        let (head, tail) = out.split_at_mut(W.min(out.len()));
        head.copy_from_slice(&self.words[..head.len()]);
        tail.fill(0);
    }

    /// Writes one bool per action index into `out` (its length is the game's action count): the
    /// one place a mask is expanded for tensors and buffers. Four bits at a time through a lookup
    /// table, so hot loops (the vectorised env, batched inference) pay no branch per action.
    #[inline]
    pub fn write_bools(self, out: &mut [bool]) {
        let done = out.len() - out.len() % 4;
        for (q, chunk) in out[..done].chunks_exact_mut(4).enumerate() {
            let i = 4 * q;
            let nibble = self.words.get(i / 64).map_or(0, |w| (w >> (i % 64)) & 0xF);
            chunk.copy_from_slice(&NIBBLE_BOOLS[nibble as usize]);
        }
        for (i, b) in out.iter_mut().enumerate().skip(done) {
            *b = self.contains_index(i);
        }
    }

    /// Appends `n` bools, one per action index, to `out`.
    #[inline]
    pub fn extend_bools(self, out: &mut Vec<bool>, n: usize) {
        let start = out.len();
        out.resize(start + n, false);
        self.write_bools(&mut out[start..]);
    }
}

impl<A> ActionMask<A, 1> {
    /// The one-word mask with these bits.
    #[inline]
    pub const fn from_bits(bits: u64) -> Self {
        Self::from_words([bits])
    }

    /// The one-word mask's bits.
    #[inline]
    pub const fn bits(self) -> u64 {
        self.words[0]
    }
}

impl<A: GameAction, const W: usize> ActionMask<A, W> {
    /// Marks an action legal.
    #[inline]
    pub fn set(&mut self, a: A) {
        self.set_index(a.index());
    }

    /// The mask with `a` marked legal too.
    #[inline]
    pub fn with(mut self, a: A) -> Self {
        self.set(a);
        self
    }

    /// Whether the action is legal.
    #[inline]
    pub fn contains(self, a: A) -> bool {
        self.contains_index(a.index())
    }

    /// Legal actions in increasing index order (sorted and unique by construction).
    pub fn actions(self) -> impl Iterator<Item = A> {
        self.indices().filter_map(A::from_index)
    }
}

impl<A: GameAction, const W: usize> FromIterator<A> for ActionMask<A, W> {
    fn from_iter<I: IntoIterator<Item = A>>(iter: I) -> Self {
        let mut m = Self::EMPTY;
        for a in iter {
            m.set(a);
        }
        m
    }
}

/// A one-word mask is its `u64` in every serialised format (as the games wrote it before the
/// masks were shared); wider masks are arrays of words.
impl<A, const W: usize> Serialize for ActionMask<A, W> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if W == 1 { s.serialize_u64(self.words[0]) } else { s.collect_seq(self.words.iter()) }
    }
}

impl<'de, A, const W: usize> Deserialize<'de> for ActionMask<A, W> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        if W == 1 {
            let bits = u64::deserialize(d)?;
            let mut words = [0; W];
            words[0] = bits;
            return Ok(Self::from_words(words));
        }
        let v = Vec::<u64>::deserialize(d)?;
        let words: [u64; W] = v
            .try_into()
            .map_err(|v: Vec<u64>| serde::de::Error::custom(format!("a mask of {W} words, got {}", v.len())))?;
        Ok(Self::from_words(words))
    }
}

impl<A: GameAction, const W: usize> LegalMask for ActionMask<A, W> {
    #[inline]
    fn contains_index(self, index: usize) -> bool {
        ActionMask::contains_index(self, index)
    }
    #[inline]
    fn count(self) -> usize {
        ActionMask::count(self)
    }
    #[inline]
    fn is_empty(self) -> bool {
        ActionMask::is_empty(self)
    }
    #[inline]
    fn nth_index(self, n: usize) -> Option<usize> {
        ActionMask::nth_index(self, n)
    }
    fn index_list(self) -> Vec<usize> {
        ActionMask::index_list(self)
    }
    #[inline]
    fn write_words(self, out: &mut [u64]) {
        ActionMask::write_words(self, out);
    }
    #[inline]
    fn write_bools(self, out: &mut [bool]) {
        ActionMask::write_bools(self, out);
    }
    #[inline]
    fn without_index(mut self, index: usize) -> Self {
        self.clear_index(index);
        self
    }
}

/// Bools of every 4-bit pattern, low bit first.
const NIBBLE_BOOLS: [[bool; 4]; 16] = {
    let mut t = [[false; 4]; 16];
    let mut v = 0;
    while v < 16 {
        let mut b = 0;
        while b < 4 {
            t[v][b] = (v >> b) & 1 == 1;
            b += 1;
        }
        v += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    type Wide = ActionMask<(), 3>;

    #[test]
    fn a_wide_mask_counts_indexes_and_expands_across_words() {
        let mut m = Wide::EMPTY;
        for i in [0, 5, 63, 64, 130, 191] {
            m.set_index(i);
        }
        assert_eq!(m.count(), 6);
        assert_eq!(m.index_list(), vec![0, 5, 63, 64, 130, 191]);
        assert_eq!(m.nth_index(3), Some(64));
        assert_eq!(m.nth_index(5), Some(191));
        assert_eq!(m.nth_index(6), None);
        assert!(m.contains_index(130) && !m.contains_index(129) && !m.contains_index(500));
        let mut bools = vec![false; 150];
        m.write_bools(&mut bools);
        let set: Vec<usize> = bools.iter().enumerate().filter(|(_, b)| **b).map(|(i, _)| i).collect();
        assert_eq!(set, vec![0, 5, 63, 64, 130]);
        let mut words = [9u64; 4];
        m.write_words(&mut words);
        assert_eq!(words[..3], m.words());
        assert_eq!(words[3], 0);
        m.clear_index(64);
        assert_eq!(m.count(), 5);
    }

    #[test]
    fn masks_round_trip_through_json_one_word_as_an_integer() {
        let one = ActionMask::<(), 1>::from_bits(0b1011);
        assert_eq!(serde_json::to_string(&one).unwrap(), "11");
        assert_eq!(serde_json::from_str::<ActionMask<(), 1>>("11").unwrap(), one);
        let mut wide = Wide::EMPTY;
        wide.set_index(100);
        let text = serde_json::to_string(&wide).unwrap();
        assert_eq!(serde_json::from_str::<Wide>(&text).unwrap(), wide);
        assert!(serde_json::from_str::<Wide>("[1, 2]").is_err());
    }

    #[test]
    fn bools_of_any_length_match_the_bits() {
        for bits in [0u64, 1, 0xF0F0, u64::MAX, 0x8000_0000_0000_0001] {
            let m = ActionMask::<(), 1>::from_bits(bits);
            for n in [1, 3, 44, 48, 64] {
                let mut out = vec![false; n];
                m.write_bools(&mut out);
                for (i, b) in out.iter().enumerate() {
                    assert_eq!(*b, bits >> i & 1 == 1, "bits {bits:#x}, n {n}, index {i}");
                }
            }
        }
    }
}
