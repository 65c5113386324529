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

use game::stream::{DiceScript, derive_seed};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};

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
        self.script.next_die().unwrap_or_else(|| self.dice.random_range(1..=6u8))
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
