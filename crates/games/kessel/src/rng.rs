//! The game's random source, one stream per purpose, plus an optional script of upcoming dice
//! (used by scenarios to pin a position down exactly).
//!
//! Every stream is re-derived from the game's seed at the start of each round, so what happens
//! in one round (one extra die rolled, one more reshuffle) never shifts the next round's deal or
//! dice. Two games from the same seed that differ in one decision therefore see the same cards
//! and dice wherever the rules let them: the common random numbers that paired experiments
//! (token research) rely on.
//!
//! | stream | draws | seeded from |
//! |---|---|---|
//! | deck | setup (starter, random loadouts) in round 0; shuffles, reshuffles in round r | `derive_seed(seed, DECK + r)` |
//! | dice | every die (K5, settlement ties) of round r | `derive_seed(seed, DICE + r)` |

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};

/// Largest number of scripted dice a state carries.
pub const MAX_SCRIPTED_DICE: usize = 32;

/// Stream tag of the deck (and setup) stream; the round number is added to it.
const DECK: u64 = 0x0DEC_0000_0000;
/// Stream tag of the dice stream; the round number is added to it.
const DICE: u64 = 0xD1CE_0000_0000;

/// All randomness of a game: shuffles and dice. Stored in the state so a clone replays exactly.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRng {
    /// The seed every stream is derived from.
    seed: u64,
    /// Setup, shuffles and reshuffles of the current round.
    deck: Pcg64Mcg,
    /// Dice of the current round.
    dice: Pcg64Mcg,
    /// Dice to return before drawing from the generator, consumed front first.
    #[serde(default, skip_serializing_if = "DiceScript::is_empty")]
    script: DiceScript,
}

/// Upcoming dice fixed in advance, without heap allocation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DiceScript {
    dice: [u8; MAX_SCRIPTED_DICE],
    next: u8,
    len: u8,
}

impl DiceScript {
    /// A script of these dice (each 1–6); `None` if any die is out of range or there are too many.
    pub fn new(dice: &[u8]) -> Option<DiceScript> {
        if dice.len() > MAX_SCRIPTED_DICE || dice.iter().any(|d| !(1..=6).contains(d)) {
            return None;
        }
        let mut s = DiceScript { len: dice.len() as u8, ..Default::default() };
        s.dice[..dice.len()].copy_from_slice(dice);
        Some(s)
    }

    /// The dice not yet used.
    pub fn remaining(&self) -> &[u8] {
        &self.dice[self.next as usize..self.len as usize]
    }

    /// True when every scripted die has been used.
    pub fn is_empty(&self) -> bool {
        self.next >= self.len
    }
}

impl Serialize for DiceScript {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.remaining())
    }
}

impl<'de> Deserialize<'de> for DiceScript {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Vec::<u8>::deserialize(d)?;
        DiceScript::new(&v).ok_or_else(|| {
            serde::de::Error::custom(format!("dice must be 1..=6 and at most {MAX_SCRIPTED_DICE} of them"))
        })
    }
}

impl GameRng {
    /// A generator determined by the seed alone, identical on every platform, positioned at the
    /// game's setup (round 0).
    pub fn from_seed(seed: u64) -> GameRng {
        GameRng::at_round(seed, 0)
    }

    /// The generator of game `seed` at the start of round `round` (what a position loaded in
    /// the middle of that round continues with).
    pub fn at_round(seed: u64, round: u16) -> GameRng {
        GameRng {
            seed,
            deck: Pcg64Mcg::seed_from_u64(derive_seed(seed, DECK + round as u64)),
            dice: Pcg64Mcg::seed_from_u64(derive_seed(seed, DICE + round as u64)),
            script: DiceScript::default(),
        }
    }

    /// Re-derives every stream for round `round` (called as each round starts); scripted dice
    /// still to come are kept.
    pub fn start_round(&mut self, round: u16) {
        let script = self.script;
        *self = GameRng { script, ..GameRng::at_round(self.seed, round) };
    }

    /// The seed the streams derive from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Replaces the scripted dice.
    pub fn set_script(&mut self, script: DiceScript) {
        self.script = script;
    }

    /// The scripted dice still to come.
    pub fn script(&self) -> &DiceScript {
        &self.script
    }

    /// One six-sided die: the next scripted die if any, else from the dice stream.
    #[inline]
    pub fn die(&mut self) -> u8 {
        if self.script.next < self.script.len {
            let d = self.script.dice[self.script.next as usize];
            self.script.next += 1;
            return d;
        }
        self.dice.random_range(1..=6u8)
    }

    /// Shuffles a slice uniformly (deck stream).
    #[inline]
    pub fn shuffle<T>(&mut self, xs: &mut [T]) {
        xs.shuffle(&mut self.deck);
    }

    /// A uniform integer below `n` (n > 0), from the deck stream.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        self.deck.random_range(0..n)
    }
}

/// The golden-ratio increment of SplitMix64 (Steele, Lea and Flood).
const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The SplitMix64 finaliser: a bijective 64-bit mixer. Every seed derivation in the project
/// (here and in the env's `seed` module) goes through this one copy.
#[inline]
fn mix64(z: u64) -> u64 {
    let z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The SplitMix64 output for state `x` (the finaliser of `x` plus the golden-ratio increment):
/// the env derives its episode and agent seeds from it.
#[inline]
pub fn splitmix64(x: u64) -> u64 {
    mix64(x.wrapping_add(GOLDEN_GAMMA))
}

/// A well-mixed seed for stream `stream` of a run seeded with `base` (SplitMix64 finaliser), so
/// game `i` of a batch gets its own independent, reproducible seed: the finaliser of
/// `base ^ (stream + 1) · golden gamma`.
#[inline]
pub fn derive_seed(base: u64, stream: u64) -> u64 {
    mix64(base ^ stream.wrapping_add(1).wrapping_mul(GOLDEN_GAMMA))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every game's deal and dice come from these seeds: a change here changes every game.
    #[test]
    fn derived_seeds_are_pinned() {
        assert_eq!(derive_seed(0, 0), 0xe220_a839_7b1d_cdaf);
        assert_eq!(derive_seed(0, 7), 0xc584_133a_c916_ab3c);
        assert_eq!(derive_seed(1, 0), 0xe4d9_7177_1b65_2c20);
        assert_eq!(derive_seed(42, 7), 0xb434_6c5a_4ac0_89c3);
        assert_eq!(derive_seed(u64::MAX, 0), 0xde0a_564c_bcd0_60c4);
        assert_eq!(derive_seed(u64::MAX, 7), 0xf994_78f8_1db9_1d39);
    }

    #[test]
    fn splitmix64_is_the_reference_generator() {
        // The first outputs of the reference SplitMix64 seeded with 0, and the mixer alone.
        assert_eq!(splitmix64(0), 0xe220_a839_7b1d_cdaf);
        assert_eq!(splitmix64(GOLDEN_GAMMA), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(splitmix64(1), 0x910a_2dec_8902_5cc1);
        assert_eq!(mix64(0), 0);
        assert_eq!(mix64(1), 0x5692_161d_100b_05e5);
    }
}
