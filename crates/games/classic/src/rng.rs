//! The game's random source, one stream per purpose, plus an optional script of upcoming dice
//! (scenarios use it to pin a position down exactly).
//!
//! Every stream is re-derived from the game's seed at the start of each hand, so what happens in
//! one hand (one more shift, a longer hand) never changes the next hand's deal: two games from
//! the same seed that differ in one decision see the same deals and dice wherever the rules let
//! them.
//!
//! | stream | draws | seeded from |
//! |---|---|---|
//! | deck | the shuffle before the deal of hand h | `derive_seed(seed, DECK + h)` |
//! | shift | cards taken in shifts and the shuffle of the taken cards | `derive_seed(seed, SHIFT + h)` |
//! | dice | every die of hand h | `derive_seed(seed, DICE + h)` |

use game::stream::{DiceScript, derive_seed};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};

const DECK: u64 = 0xC1A5_0DEC_0000_0000;
const SHIFT: u64 = 0xC1A5_5417_0000_0000;
const DICE: u64 = 0xC1A5_D1CE_0000_0000;

/// All randomness of a game. Stored in the state so a clone replays exactly.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRng {
    seed: u64,
    deck: Pcg64Mcg,
    shift: Pcg64Mcg,
    dice: Pcg64Mcg,
    #[serde(default, skip_serializing_if = "DiceScript::is_empty")]
    script: DiceScript,
}

impl GameRng {
    /// The generator of game `seed` positioned at the start of hand `hand`.
    pub fn at_hand(seed: u64, hand: u32) -> GameRng {
        GameRng {
            seed,
            deck: Pcg64Mcg::seed_from_u64(derive_seed(seed, DECK + hand as u64)),
            shift: Pcg64Mcg::seed_from_u64(derive_seed(seed, SHIFT + hand as u64)),
            dice: Pcg64Mcg::seed_from_u64(derive_seed(seed, DICE + hand as u64)),
            script: DiceScript::default(),
        }
    }

    /// Re-derives every stream for hand `hand`; scripted dice still to come are kept.
    pub fn start_hand(&mut self, hand: u32) {
        let script = self.script;
        *self = GameRng { script, ..GameRng::at_hand(self.seed, hand) };
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

    /// One six-sided die (C1.4): the next scripted die if any, else the dice stream.
    #[inline]
    pub fn die(&mut self) -> u8 {
        self.script.next_die().unwrap_or_else(|| self.dice.random_range(1..=6u8))
    }

    /// Shuffles the deck before a deal (deck stream).
    #[inline]
    pub fn shuffle_deck<T>(&mut self, xs: &mut [T]) {
        xs.shuffle(&mut self.deck);
    }

    /// A uniform index below `n` (n > 0) for a shift pick (shift stream).
    #[inline]
    pub fn shift_pick(&mut self, n: usize) -> usize {
        self.shift.random_range(0..n as u32) as usize
    }

    /// Shuffles the cards taken in a shift (shift stream).
    #[inline]
    pub fn shuffle_shift<T>(&mut self, xs: &mut [T]) {
        xs.shuffle(&mut self.shift);
    }
}
