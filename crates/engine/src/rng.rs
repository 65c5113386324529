//! The game's random source: a seeded, serialisable PCG generator plus an optional script of
//! upcoming dice (used by scenarios to pin a position down exactly).

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};

/// Largest number of scripted dice a state carries.
pub const MAX_SCRIPTED_DICE: usize = 32;

/// All randomness of a game: shuffles and dice. Stored in the state so a clone replays exactly.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRng {
    pcg: Pcg64Mcg,
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
    /// A generator determined by the seed alone, identical on every platform.
    pub fn from_seed(seed: u64) -> GameRng {
        GameRng { pcg: Pcg64Mcg::seed_from_u64(seed), script: DiceScript::default() }
    }

    /// Replaces the scripted dice.
    pub fn set_script(&mut self, script: DiceScript) {
        self.script = script;
    }

    /// The scripted dice still to come.
    pub fn script(&self) -> &DiceScript {
        &self.script
    }

    /// One six-sided die: the next scripted die if any, else from the generator.
    #[inline]
    pub fn die(&mut self) -> u8 {
        if self.script.next < self.script.len {
            let d = self.script.dice[self.script.next as usize];
            self.script.next += 1;
            return d;
        }
        self.pcg.random_range(1..=6u8)
    }

    /// Shuffles a slice uniformly.
    #[inline]
    pub fn shuffle<T>(&mut self, xs: &mut [T]) {
        xs.shuffle(&mut self.pcg);
    }

    /// A uniform integer below `n` (n > 0).
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        self.pcg.random_range(0..n)
    }
}

/// A well-mixed seed for stream `stream` of a run seeded with `base` (SplitMix64 finaliser), so
/// game `i` of a batch gets its own independent, reproducible seed.
pub fn derive_seed(base: u64, stream: u64) -> u64 {
    let mut z = base ^ stream.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
