//! The rule configuration: every K9 alternative as a field, with the spec's default.
//!
//! The config is `Copy` so that cloning a game state never allocates.

use crate::token::TokenSet;
use game::seat::MAX_PLAYERS;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// How two Nulhreks with the same difference compare (K4.5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NulhrekTiebreak {
    /// The lower cards (smaller sum) win.
    #[default]
    LowerCards,
    /// Equal differences tie.
    None,
}

/// How an Impostor gets its value at the reveal (K4.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ImpostorRule {
    /// Two dice are rolled; the owner chooses one (a decision of that player).
    #[default]
    OwnerChooses,
    /// Two dice are rolled; the value that makes the best hand is taken automatically.
    AutoBest,
    /// One die is rolled; its value is taken.
    OneDie,
}

/// What Cook the Books does to Pure Sabacc (K4.7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CookScope {
    /// Numbered pairs reversed, Pure Sabacc last among Sabaccs (H tables).
    #[default]
    PureLast,
    /// Numbered pairs reversed, Pure Sabacc stays first.
    PureFirst,
}

/// What Markdown makes of two Sylops (K4.8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MarkdownSylops {
    /// A pair of zero ranked as the last Sabacc (H).
    #[default]
    ZeroPair,
    /// Two Sylops stay Pure Sabacc.
    StaysPure,
}

/// Where Refund and Extra Refund take chips from (K5.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RefundSource {
    /// The player's own hand pot this round (O).
    #[default]
    HandPot,
    /// Chips the player lost earlier in the game to taxes, Tariffs, Audits and lost hand pots (H).
    LostChips,
}

/// Where Embezzlement moves chips (K5.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EmbezzlementSource {
    /// From each opponent's hand pot into the player's hand pot.
    #[default]
    HandPot,
    /// From each opponent's stock into the player's stock.
    Stock,
}

/// Where chips taken by Tariffs and Audits go (K5.5–K5.8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TaxTokenChips {
    /// They leave the game, like round taxes.
    #[default]
    LeaveGame,
    /// They move into the victim's own hand pot, "as if buying a card" (O).
    VictimHandPot,
}

/// Who counts as "in stand" for the Audits (K5.7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InStand {
    /// Their most recent action this round was Stand.
    #[default]
    LastAction,
    /// They stood in the current turn (so they already acted in it).
    StoodThisTurn,
}

/// Who starts each round after the first (K2.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RoundStarter {
    /// The next active player clockwise from the previous starter.
    #[default]
    Rotates,
    /// Seat 0, or the first active seat clockwise from it.
    AlwaysSeat0,
}

/// Who starts round 1 (K2.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FirstStarter {
    /// Seat 0.
    #[default]
    Seat0,
    /// A seat drawn from the game's seed.
    Random,
}

/// How players get their Shift Tokens (K2.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TokenAssignment {
    /// Each player draws `tokens_per_player` distinct kinds from the enabled set, independently.
    #[default]
    Random,
    /// Each seat gets the loadout listed in `fixed_loadouts`.
    Fixed,
    /// Before round 1 each player, in seat order, picks distinct kinds (decisions of that player).
    Choose,
    /// Nobody has tokens.
    None,
}

/// Every configurable rule. Defaults are the choices of `docs/rules.md` §K9.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RuleConfig {
    /// Seats at the table, 2–8 (K1.2).
    pub players: u8,
    /// Tax chips each player starts with, 1–50 (K1.3).
    pub starting_chips: u16,
    /// Credits staked per chip, for reporting the game pot only (K1.4; lay games use 15).
    pub credits_per_chip: u32,
    /// Rounds after which an unfinished game is truncated, at least 1 (K6.5).
    pub round_limit: u16,
    /// K4.5 tiebreak between equal Nulhreks.
    pub nulhrek_tiebreak: NulhrekTiebreak,
    /// K4.2 Impostor resolution.
    pub impostor: ImpostorRule,
    /// K4.7 scope of Cook the Books.
    pub cook_the_books: CookScope,
    /// K4.8 two Sylops under Markdown.
    pub markdown_sylops: MarkdownSylops,
    /// K5.2 source of Refund chips.
    pub refund_source: RefundSource,
    /// K5.4 Embezzlement source.
    pub embezzlement: EmbezzlementSource,
    /// K5.5–K5.8 destination of Tariff and Audit chips.
    pub tax_token_chips: TaxTokenChips,
    /// K5.7 meaning of "in stand".
    pub in_stand: InStand,
    /// K3.6 early reveal when everyone stood in one turn.
    pub early_reveal: bool,
    /// K2.3 starter of rounds after the first.
    pub round_starter: RoundStarter,
    /// K2.3 starter of round 1.
    pub first_starter: FirstStarter,
    /// K2.1 token assignment.
    pub token_assignment: TokenAssignment,
    /// Tokens each player holds, 0–16 (3 in the sources).
    pub tokens_per_player: u8,
    /// The token kinds in play (default all 16).
    pub enabled_tokens: TokenSet,
    /// Per-seat loadouts for `token_assignment = fixed`: one list per seat.
    #[serde(with = "loadouts_serde")]
    pub fixed_loadouts: [TokenSet; MAX_PLAYERS],
}

impl Default for RuleConfig {
    fn default() -> Self {
        RuleConfig {
            players: 4,
            starting_chips: 6,
            credits_per_chip: 15,
            round_limit: 100,
            nulhrek_tiebreak: NulhrekTiebreak::LowerCards,
            impostor: ImpostorRule::OwnerChooses,
            cook_the_books: CookScope::PureLast,
            markdown_sylops: MarkdownSylops::ZeroPair,
            refund_source: RefundSource::HandPot,
            embezzlement: EmbezzlementSource::HandPot,
            tax_token_chips: TaxTokenChips::LeaveGame,
            in_stand: InStand::LastAction,
            early_reveal: true,
            round_starter: RoundStarter::Rotates,
            first_starter: FirstStarter::Seat0,
            token_assignment: TokenAssignment::Random,
            tokens_per_player: 3,
            enabled_tokens: TokenSet::ALL,
            fixed_loadouts: [TokenSet::EMPTY; MAX_PLAYERS],
        }
    }
}

/// A rule config that cannot be played, naming the field and what it accepts.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ConfigError {
    /// `players` outside 2–8.
    #[error("players: {0} is out of range; a table seats 2 to 8 players")]
    Players(u8),
    /// `starting_chips` outside 1–50.
    #[error("starting_chips: {0} is out of range 1..=50")]
    StartingChips(u16),
    /// `round_limit` of 0.
    #[error("round_limit: must be at least 1")]
    RoundLimit,
    /// `tokens_per_player` larger than 16 or than the enabled set.
    #[error("tokens_per_player: {got} is more than the {enabled} enabled token kinds")]
    TokensPerPlayer {
        /// Requested count.
        got: u8,
        /// Enabled kinds.
        enabled: usize,
    },
    /// A fixed loadout of the wrong size or with a disabled kind.
    #[error("fixed_loadouts[{seat}]: {reason}")]
    FixedLoadout {
        /// Seat index.
        seat: usize,
        /// What is wrong.
        reason: String,
    },
}

impl RuleConfig {
    /// The default rules at a table of `players`.
    pub fn with_players(players: u8) -> Self {
        RuleConfig { players, ..Default::default() }
    }

    /// Checks every field's range and the consistency of token settings.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(2..=MAX_PLAYERS as u8).contains(&self.players) {
            return Err(ConfigError::Players(self.players));
        }
        if !(1..=50).contains(&self.starting_chips) {
            return Err(ConfigError::StartingChips(self.starting_chips));
        }
        if self.round_limit == 0 {
            return Err(ConfigError::RoundLimit);
        }
        let enabled = self.enabled_tokens.len();
        let uses_tokens = self.token_assignment != TokenAssignment::None;
        if uses_tokens && (self.tokens_per_player as usize > enabled || self.tokens_per_player > 16) {
            return Err(ConfigError::TokensPerPlayer { got: self.tokens_per_player, enabled });
        }
        if self.token_assignment == TokenAssignment::Fixed {
            for seat in 0..self.players as usize {
                let l = self.fixed_loadouts[seat];
                if l.len() != self.tokens_per_player as usize {
                    return Err(ConfigError::FixedLoadout {
                        seat,
                        reason: format!("holds {} tokens but tokens_per_player is {}", l.len(), self.tokens_per_player),
                    });
                }
                if l.0 & !self.enabled_tokens.0 != 0 {
                    return Err(ConfigError::FixedLoadout {
                        seat,
                        reason: "contains a token kind that is not in enabled_tokens".into(),
                    });
                }
            }
        }
        Ok(())
    }

    /// Tokens a player holds at the start of the game under this config.
    pub fn effective_tokens_per_player(&self) -> u8 {
        if self.token_assignment == TokenAssignment::None { 0 } else { self.tokens_per_player }
    }

    /// Chips dealt to the whole table.
    pub fn total_chips(&self) -> u32 {
        self.players as u32 * self.starting_chips as u32
    }

    /// The game pot in credits (K1.4): reported, never scored.
    pub fn pot_credits(&self) -> u64 {
        self.total_chips() as u64 * self.credits_per_chip as u64
    }
}

mod loadouts_serde {
    use super::*;
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &[TokenSet; MAX_PLAYERS], s: S) -> Result<S::Ok, S::Error> {
        let used = v.iter().rposition(|t| !t.is_empty()).map_or(0, |i| i + 1);
        s.collect_seq(v[..used].iter())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[TokenSet; MAX_PLAYERS], D::Error> {
        let list = Vec::<TokenSet>::deserialize(d)?;
        if list.len() > MAX_PLAYERS {
            return Err(serde::de::Error::custom(format!(
                "fixed_loadouts lists {} seats; at most {MAX_PLAYERS}",
                list.len()
            )));
        }
        let mut out = [TokenSet::EMPTY; MAX_PLAYERS];
        out[..list.len()].copy_from_slice(&list);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::token::Token;

    #[test]
    fn k9_defaults_match_the_spec() {
        let c = RuleConfig::default();
        assert_eq!(c.starting_chips, 6);
        assert_eq!(c.round_limit, 100);
        assert_eq!(c.tokens_per_player, 3);
        assert_eq!(c.enabled_tokens.len(), 16);
        assert!(c.early_reveal);
        assert!(c.validate().is_ok());
    }

    #[test]
    fn validation_names_the_field() {
        let e = RuleConfig::with_players(9).validate().unwrap_err();
        assert!(e.to_string().starts_with("players:"));
        let e = RuleConfig { starting_chips: 0, ..Default::default() }.validate().unwrap_err();
        assert!(e.to_string().starts_with("starting_chips:"));
        let mut c = RuleConfig { token_assignment: TokenAssignment::Fixed, ..Default::default() };
        c.fixed_loadouts[0] = [Token::Embargo].into_iter().collect();
        let e = c.validate().unwrap_err();
        assert!(e.to_string().starts_with("fixed_loadouts[0]:"), "{e}");
    }

    #[test]
    fn config_json_round_trips_and_rejects_unknown_fields() {
        let mut c = RuleConfig { token_assignment: TokenAssignment::Fixed, players: 2, ..Default::default() };
        c.fixed_loadouts[0] = [Token::Embargo, Token::Refund, Token::Markdown].into_iter().collect();
        c.fixed_loadouts[1] = [Token::Immunity, Token::Refund, Token::Markdown].into_iter().collect();
        let j = serde_json::to_string(&c).unwrap();
        assert_eq!(serde_json::from_str::<RuleConfig>(&j).unwrap(), c);
        assert!(serde_json::from_str::<RuleConfig>(r#"{"playerz": 3}"#).is_err());
        let partial: RuleConfig = serde_json::from_str(r#"{"players": 3}"#).unwrap();
        assert_eq!(partial, RuleConfig::with_players(3));
    }
}
