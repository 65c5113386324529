//! One seat's part of the state and its public Stand/Draw history.

use crate::action::Source;
use crate::card::Card;
use crate::chips::Chips;
use crate::token::TokenSet;
use serde::{Deserialize, Serialize};

/// The most recent Stand/Draw of a player this round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LastAction {
    /// Not acted yet this round.
    #[default]
    None,
    /// Stood (by choice or Embargo).
    Stand,
    /// Drew a card.
    Draw,
}

/// A seat's public Stand/Draw in one turn of the current round (K7: every part is public), kept
/// so observation encoders can show this round's history without reading the event log.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TurnAction {
    /// Has not acted in that turn (yet).
    #[default]
    None,
    /// Stood; `forced` when by Embargo.
    Stand {
        /// Forced by Embargo (K5.13).
        forced: bool,
    },
    /// Drew from this source.
    Draw(Source),
}

/// Everything about one seat, hidden parts included.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Player {
    /// Sand card then Blood card. Meaningless once eliminated.
    pub hand: [Card; 2],
    /// Tax chips in stock.
    pub stock: Chips,
    /// Chips invested this round.
    pub pot: Chips,
    /// Chips lost so far in the game (taxes, Tariffs, Audits, lost pots), for `refund_source = lost-chips`.
    pub lost: Chips,
    /// Out of the game (K6.3).
    pub eliminated: bool,
    /// The round in which the player was eliminated (0 while playing).
    pub eliminated_in_round: u16,
    /// Unplayed tokens (hidden from opponents).
    pub tokens: TokenSet,
    /// Tokens played this game (public).
    pub spent: TokenSet,
    /// Most recent Stand/Draw this round.
    pub last_action: LastAction,
    /// The turn (1–3) in which the player last stood this round, 0 if not.
    pub stood_turn: u8,
}

impl LastAction {
    /// Kebab-case name, as scenarios write it.
    pub fn name(self) -> &'static str {
        match self {
            LastAction::None => "none",
            LastAction::Stand => "stand",
            LastAction::Draw => "draw",
        }
    }
}
