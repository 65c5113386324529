//! The rule configuration: standard Leduc hold'em by default, with its stakes adjustable.
//!
//! The config is `Copy` so that cloning a state never allocates for it. Every way to build one
//! from outside ([`RuleConfig::validate`], [`RuleConfig::from_json`], deserializing) refuses
//! values the rest of the crate cannot honour, with a message naming the field.

/// Number of players: Leduc hold'em is heads-up.
pub const PLAYERS: usize = 2;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Largest ante or raise size: keeps every chip count far inside `u32` and exact in `f64`.
pub const MAX_CHIPS: u32 = 1000;

/// Largest `max-raises`: the observation has a fixed number of history slots per round
/// ([`MAX_ROUND_ACTIONS`]).
pub const MAX_RAISES_LIMIT: u8 = 4;

/// The most actions one betting round can hold: an opening check, every bet or raise, and the
/// closing call or fold.
pub const MAX_ROUND_ACTIONS: usize = MAX_RAISES_LIMIT as usize + 2;

/// Number of betting rounds.
pub const ROUNDS: usize = 2;

/// The rules of one game. The default is standard Leduc hold'em (Southey et al. 2005).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", try_from = "RuleFields")]
pub struct RuleConfig {
    /// Number of players; only 2 is supported (the game is heads-up).
    pub players: u8,
    /// Chips each player puts in before the deal.
    pub ante: u32,
    /// The size of a bet or raise in round 1 and in round 2.
    pub raise_sizes: [u32; ROUNDS],
    /// Most bets-or-raises per round (the first bet counts as one).
    pub max_raises: u8,
}

impl Default for RuleConfig {
    fn default() -> RuleConfig {
        RuleConfig { players: PLAYERS as u8, ante: 1, raise_sizes: [2, 4], max_raises: 2 }
    }
}

/// Why a rule configuration was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ConfigError {
    /// `players` is not 2.
    #[error("players = {0}: Leduc hold'em is heads-up; set `players` to 2")]
    Players(u8),
    /// `ante` is 0 or too large.
    #[error("ante = {0}: set `ante` between 1 and {MAX_CHIPS}")]
    Ante(u32),
    /// A raise size is 0 or too large.
    #[error("raise-sizes[{round}] = {size}: set each of `raise-sizes` between 1 and {MAX_CHIPS}")]
    RaiseSize {
        /// 0 for round 1, 1 for round 2.
        round: usize,
        /// The refused size.
        size: u32,
    },
    /// `max_raises` is above [`MAX_RAISES_LIMIT`].
    #[error("max-raises = {0}: set `max-raises` between 0 and {MAX_RAISES_LIMIT} (the observation holds that many)")]
    MaxRaises(u8),
    /// The text is not a rule configuration.
    #[error("rule config: {0}")]
    Parse(String),
}

impl RuleConfig {
    /// Checks every field; the first refused one is named in the error.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.players as usize != PLAYERS {
            return Err(ConfigError::Players(self.players));
        }
        if !(1..=MAX_CHIPS).contains(&self.ante) {
            return Err(ConfigError::Ante(self.ante));
        }
        for (round, &size) in self.raise_sizes.iter().enumerate() {
            if !(1..=MAX_CHIPS).contains(&size) {
                return Err(ConfigError::RaiseSize { round, size });
            }
        }
        if self.max_raises > MAX_RAISES_LIMIT {
            return Err(ConfigError::MaxRaises(self.max_raises));
        }
        Ok(())
    }

    /// Reads a config from JSON (kebab-case fields, all optional, unknown ones refused) and
    /// validates it.
    pub fn from_json(text: &str) -> Result<RuleConfig, ConfigError> {
        serde_json::from_str(text).map_err(|e| ConfigError::Parse(e.to_string()))
    }

    /// The bet or raise size in `round` (1 or 2; anything above 2 is treated as 2).
    #[inline]
    pub fn raise_size(&self, round: u8) -> u32 {
        self.raise_sizes[if round <= 1 { 0 } else { 1 }]
    }

    /// The most one player can put in over a hand: the ante and every raise of both rounds.
    /// Observations scale chip counts by it.
    /// (Saturating, so an unvalidated config cannot overflow; a valid one stays below 10,000.)
    pub fn max_contribution(&self) -> u32 {
        let raises = self.raise_sizes[0].saturating_add(self.raise_sizes[1]);
        self.ante.saturating_add(u32::from(self.max_raises).saturating_mul(raises))
    }
}

/// The deserialized fields before validation (so a config read from text is always valid).
#[derive(Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields, default)]
struct RuleFields {
    players: u8,
    ante: u32,
    raise_sizes: [u32; ROUNDS],
    max_raises: u8,
}

impl Default for RuleFields {
    fn default() -> RuleFields {
        let d = RuleConfig::default();
        RuleFields { players: d.players, ante: d.ante, raise_sizes: d.raise_sizes, max_raises: d.max_raises }
    }
}

impl TryFrom<RuleFields> for RuleConfig {
    type Error = ConfigError;

    fn try_from(f: RuleFields) -> Result<RuleConfig, ConfigError> {
        let c = RuleConfig { players: f.players, ante: f.ante, raise_sizes: f.raise_sizes, max_raises: f.max_raises };
        c.validate()?;
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_standard_leduc() {
        let c = RuleConfig::default();
        assert_eq!((c.players, c.ante, c.raise_sizes, c.max_raises), (2, 1, [2, 4], 2));
        assert_eq!(c.validate(), Ok(()));
        assert_eq!(c.max_contribution(), 13);
        assert_eq!(RuleConfig::from_json("{}"), Ok(c));
    }

    #[test]
    fn json_uses_kebab_case_and_round_trips() {
        let c = RuleConfig { ante: 2, raise_sizes: [3, 6], max_raises: 1, ..Default::default() };
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(json, r#"{"players":2,"ante":2,"raise-sizes":[3,6],"max-raises":1}"#);
        assert_eq!(RuleConfig::from_json(&json), Ok(c));
    }

    #[test]
    fn three_players_are_refused_naming_the_field() {
        let e = RuleConfig { players: 3, ..Default::default() }.validate().unwrap_err();
        assert_eq!(e, ConfigError::Players(3));
        assert!(e.to_string().contains("`players`"), "{e}");
        let e = RuleConfig::from_json(r#"{"players": 3}"#).unwrap_err();
        assert!(e.to_string().contains("`players`"), "{e}");
    }

    #[test]
    fn bad_stakes_are_refused_naming_the_field() {
        let cases = [
            (RuleConfig { ante: 0, ..Default::default() }, "`ante`"),
            (RuleConfig { raise_sizes: [2, 0], ..Default::default() }, "`raise-sizes`"),
            (RuleConfig { raise_sizes: [MAX_CHIPS + 1, 4], ..Default::default() }, "`raise-sizes`"),
            (RuleConfig { max_raises: MAX_RAISES_LIMIT + 1, ..Default::default() }, "`max-raises`"),
        ];
        for (c, field) in cases {
            let e = c.validate().unwrap_err();
            assert!(e.to_string().contains(field), "{e}");
        }
    }

    #[test]
    fn unknown_fields_are_refused() {
        let e = RuleConfig::from_json(r#"{"antee": 1}"#).unwrap_err();
        assert!(e.to_string().contains("antee"), "{e}");
    }
}
