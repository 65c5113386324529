//! The rule configuration: every §C9 alternative as a field, with the spec's default.
//!
//! The config is `Copy` so that cloning a game state never allocates.

use crate::card::MAX_HAND_SIZE;
use game::seat::MAX_PLAYERS;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Largest bet or raise the action space holds (`bet_limit` may go up to it).
pub const MAX_BET_LIMIT: u8 = 10;

/// The face-card values of C1.1, in [`crate::Face`] order.
pub const DEFAULT_FACE_VALUES: [i8; 8] = [0, -2, -8, -11, -13, -14, -15, -17];

/// Whether the dealer antes to the hand pot (C2.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DealerAnte {
    /// The dealer antes like everyone else.
    #[default]
    Antes,
    /// The dealer is exempt from the hand-pot ante (the sabacc-pot ante still applies).
    Exempt,
}

/// How high a bet or raise may go (C3.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stakes {
    /// The amount to match never exceeds the smallest stack (at the phase's start) among players
    /// still in who hold a credit.
    #[default]
    SmallestStack,
    /// No cap beyond each player's own credits; a player who cannot match must fold.
    NoCap,
}

/// How totals are ranked (C4.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Totals {
    /// The highest total wins; negatives rank below positives.
    #[default]
    Highest,
    /// The total closest to 23 in absolute value wins; −23 is a Pure Sabacc.
    ClosestAbsolute,
}

/// Which hands make an Idiot's Array (C4.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum IdiotsArrayShape {
    /// Exactly three cards: the Idiot, a suit 2 and a suit 3.
    #[default]
    ExactlyThree,
    /// Any hand holding the Idiot, a suit 2 and a suit 3.
    AnyHand,
}

/// What an Idiot's Array wins (C4.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum IdiotsArrayPots {
    /// Both pots: it counts as the best 23.
    #[default]
    Both,
    /// The sabacc pot only; the hand pot goes by totals, the array counting its literal total.
    SabaccPotOnly,
}

/// Which card an exchange may drop (C3.6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExchangeDrop {
    /// One of the cards held before the draw.
    #[default]
    HeldBeforeDraw,
    /// Any card, the drawn one included.
    AnyCard,
}

/// How a losing caller who also bombed out pays (C4.5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CallerPenalty {
    /// The caller's penalty comes on top of the bomb-out penalty.
    #[default]
    InAddition,
    /// One penalty only.
    Once,
}

/// Where the hand pot goes when every hand bombs out at a call (C4.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AllBombed {
    /// Into the sabacc pot.
    #[default]
    ToSabaccPot,
    /// It stays and carries to the next hand.
    CarryOver,
}

/// How a game that reaches `hand_limit` unfinished ends (C5.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HandLimitEnd {
    /// Truncated: nobody wins (the spec's C5.2, as Kessel's round limit).
    Truncate,
    /// Won by the players holding the most credits (shared on a tie), the default
    /// (docs/rules-classic.md, Choices): a game between careful players usually reaches the
    /// limit, and a truncated game decides nothing, so win rates under truncation measure little.
    #[default]
    MostCredits,
}

/// Every configurable rule. Defaults are the bold choices of CLASSIC.md §C9, but for
/// `hand_limit_end` (docs/rules-classic.md, Choices: the hand limit is decided by credits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RuleConfig {
    /// Seats at the table, 2–8 (C1.2).
    pub players: u8,
    /// Credits each player starts with, 10–10,000 (C1.3).
    pub starting_credits: u32,
    /// Values of the eight face-card kinds in [`crate::Face`] order (C1.1); any values.
    pub face_values: [i8; 8],
    /// Largest bet or raise, 1–10 (C3.1).
    pub bet_limit: u8,
    /// Raises allowed per betting phase, 0–20 (C3.1).
    pub raises_per_phase: u8,
    /// Rounds after which an uncalled hand is called automatically, 1–1,000 (C2.5).
    pub max_rounds_per_hand: u16,
    /// Largest hand a draw may make, 3–14 (C3.6).
    pub max_hand_size: u8,
    /// Hands after which an unfinished game ends, 1–1,000,000 (C5.2).
    pub hand_limit: u32,
    /// How a game that reaches `hand_limit` ends (C5.2).
    pub hand_limit_end: HandLimitEnd,
    /// The dealer's ante (C2.2).
    pub dealer_ante: DealerAnte,
    /// The stakes cap (C3.2).
    pub stakes: Stakes,
    /// Turns every seat must have completed before calls open (C3.5); `None`: 1 at a table of
    /// four or more seats, 2 at two or three (the table's seats, also once players have left:
    /// docs/rules-classic.md, Choices).
    pub min_turns_before_call: Option<u8>,
    /// Ranking of totals (C4.3).
    pub totals: Totals,
    /// Which hands are an Idiot's Array (C4.4).
    pub idiots_array: IdiotsArrayShape,
    /// What an Idiot's Array wins (C4.4).
    pub idiots_array_pots: IdiotsArrayPots,
    /// Which card an exchange drops (C3.6).
    pub exchange: ExchangeDrop,
    /// The caller's penalty when they also bombed (C4.5).
    pub caller_penalty: CallerPenalty,
    /// The hand pot when every hand bombs (C4.3).
    pub all_bombed: AllBombed,
}

impl Default for RuleConfig {
    fn default() -> Self {
        RuleConfig {
            players: 4,
            starting_credits: 100,
            face_values: DEFAULT_FACE_VALUES,
            bet_limit: 3,
            raises_per_phase: 3,
            max_rounds_per_hand: 10,
            max_hand_size: 12,
            hand_limit: 100,
            hand_limit_end: HandLimitEnd::MostCredits,
            dealer_ante: DealerAnte::Antes,
            stakes: Stakes::SmallestStack,
            min_turns_before_call: None,
            totals: Totals::Highest,
            idiots_array: IdiotsArrayShape::ExactlyThree,
            idiots_array_pots: IdiotsArrayPots::Both,
            exchange: ExchangeDrop::HeldBeforeDraw,
            caller_penalty: CallerPenalty::InAddition,
            all_bombed: AllBombed::ToSabaccPot,
        }
    }
}

/// A rule config that cannot be played: the message starts with the field's name and gives the
/// allowed range.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ConfigError {
    /// `players` outside 2–8.
    #[error("players: {0} is out of range 2..=8")]
    Players(u8),
    /// `starting_credits` outside 10–10,000.
    #[error("starting_credits: {0} is out of range 10..=10000")]
    StartingCredits(u32),
    /// `bet_limit` outside 1–10.
    #[error("bet_limit: {0} is out of range 1..={MAX_BET_LIMIT}")]
    BetLimit(u8),
    /// `raises_per_phase` above 20.
    #[error("raises_per_phase: {0} is out of range 0..=20")]
    RaisesPerPhase(u8),
    /// `max_rounds_per_hand` outside 1–1,000.
    #[error("max_rounds_per_hand: {0} is out of range 1..=1000")]
    MaxRoundsPerHand(u16),
    /// `max_hand_size` outside 3–14.
    #[error("max_hand_size: {0} is out of range 3..={MAX_HAND_SIZE}")]
    MaxHandSize(u8),
    /// `hand_limit` outside 1–1,000,000.
    #[error("hand_limit: {0} is out of range 1..=1000000")]
    HandLimit(u32),
    /// `min_turns_before_call` of 0.
    #[error("min_turns_before_call: {0} is out of range 1..=255 (or null for the table-size default)")]
    MinTurnsBeforeCall(u8),
}

impl RuleConfig {
    /// The default rules at a table of `players`.
    pub fn with_players(players: u8) -> Self {
        RuleConfig { players, ..Default::default() }
    }

    /// Checks every field's range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(2..=MAX_PLAYERS as u8).contains(&self.players) {
            return Err(ConfigError::Players(self.players));
        }
        if !(10..=10_000).contains(&self.starting_credits) {
            return Err(ConfigError::StartingCredits(self.starting_credits));
        }
        if !(1..=MAX_BET_LIMIT).contains(&self.bet_limit) {
            return Err(ConfigError::BetLimit(self.bet_limit));
        }
        if self.raises_per_phase > 20 {
            return Err(ConfigError::RaisesPerPhase(self.raises_per_phase));
        }
        if !(1..=1000).contains(&self.max_rounds_per_hand) {
            return Err(ConfigError::MaxRoundsPerHand(self.max_rounds_per_hand));
        }
        if !(3..=MAX_HAND_SIZE).contains(&self.max_hand_size) {
            return Err(ConfigError::MaxHandSize(self.max_hand_size));
        }
        if !(1..=1_000_000).contains(&self.hand_limit) {
            return Err(ConfigError::HandLimit(self.hand_limit));
        }
        if self.min_turns_before_call == Some(0) {
            return Err(ConfigError::MinTurnsBeforeCall(0));
        }
        Ok(())
    }

    /// Turns every seat must have completed before calls open (C3.5): the configured number,
    /// or by default 1 at a table of four or more seats and 2 at two or three. The default
    /// follows the table's `players` (its seats), also once some have left the game
    /// (docs/rules-classic.md, Choices).
    #[inline]
    pub fn effective_min_turns_before_call(&self) -> u16 {
        match self.min_turns_before_call {
            Some(n) => n as u16,
            None if self.players >= 4 => 1,
            None => 2,
        }
    }

    /// Credits at the table: stacks and both pots always add up to this (C1.3).
    pub fn total_credits(&self) -> u64 {
        self.players as u64 * self.starting_credits as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_json_round_trips_and_rejects_unknown_fields() {
        let c = RuleConfig {
            players: 3,
            min_turns_before_call: Some(4),
            totals: Totals::ClosestAbsolute,
            ..Default::default()
        };
        let j = serde_json::to_string(&c).unwrap();
        assert_eq!(serde_json::from_str::<RuleConfig>(&j).unwrap(), c);
        assert!(serde_json::from_str::<RuleConfig>(r#"{"playerz": 3}"#).is_err());
        let partial: RuleConfig = serde_json::from_str(r#"{"players": 3, "stakes": "no-cap"}"#).unwrap();
        assert_eq!(partial, RuleConfig { stakes: Stakes::NoCap, ..RuleConfig::with_players(3) });
    }
}
