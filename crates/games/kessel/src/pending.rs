//! The decision a game is waiting for (K8). Its own module so that errors can name it without
//! depending on the state machine.

use crate::action::Source;
use crate::card::{Card, Family};
use crate::token::Token;
use serde::{Deserialize, Serialize};

/// What the player to act is deciding (K8), or that the game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "decision")]
pub enum Pending {
    /// Pick a token kind at setup (K2.1 `choose`).
    ChooseToken,
    /// Start of an action: play a token, Stand, or Draw (K3.2).
    Act,
    /// Choose the target of this token.
    Target { token: Token },
    /// Choose one of two dice as the Prime Sabacc value (K5.9).
    PrimeDie { dice: [u8; 2] },
    /// Keep the drawn card or the held one (K3.4).
    Keep { drawn: Card, source: Source },
    /// Choose one of two dice as the value of this Impostor (K4.2).
    ImpostorDie { family: Family, dice: [u8; 2] },
    /// The game ended (K6.4).
    GameOver,
    /// The round limit was reached (K6.5).
    Truncated,
}
