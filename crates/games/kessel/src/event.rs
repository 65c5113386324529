//! The public event log (K7): everything every player sees happen, in order.
//!
//! The log never contains a hidden card: a draw from a draw pile records the source only.

use crate::action::Source;
use crate::card::{Card, Family};
use crate::token::Token;
use game::seat::{Seat, SeatSet};
use serde::{Deserialize, Serialize};

/// Why chips moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChipReason {
    /// Paying for a Draw (K3.4).
    Draw,
    /// Refund or Extra Refund (K5.2, K5.3).
    Refund,
    /// Embezzlement (K5.4).
    Embezzlement,
    /// General or Target Tariff (K5.5, K5.6).
    Tariff,
    /// General or Target Audit (K5.7, K5.8).
    Audit,
    /// A round winner takes the hand pot back (K6.1).
    PotReturned,
    /// A round loser loses the hand pot (K6.2).
    PotLost,
    /// A round loser's tax (K6.2).
    Tax,
}

/// Why dice were rolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DiceFor {
    /// Prime Sabacc (K5.9).
    PrimeSabacc,
    /// An Impostor of this family at the reveal (K4.2).
    Impostor(Family),
}

/// One public event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "event")]
pub enum Event {
    /// A player picked a token at setup (the kind stays hidden, K1.5).
    TokenPicked { seat: Seat },
    /// A round began (K2.2).
    RoundStarted { round: u16, starter: Seat },
    /// A player was dealt a Sand and a Blood card (face down).
    Dealt { seat: Seat },
    /// A card was turned face up to start a discard pile (K2.2).
    DiscardStarted { card: Card },
    /// A draw pile was rebuilt from its discard pile (K3.5).
    DrawPileRebuilt { family: Family, cards: u8 },
    /// A Shift Token was played.
    TokenPlayed { seat: Seat, token: Token },
    /// The token's target was chosen.
    TokenTargeted { seat: Seat, token: Token, target: Seat },
    /// Two dice (or one, the second then 0) were rolled.
    DiceRolled { seat: Seat, dice: [u8; 2], purpose: DiceFor },
    /// Prime Sabacc was set to this value.
    PrimeSet { seat: Seat, value: u8 },
    /// The next player must Stand (K5.13).
    Embargoed { seat: Seat, target: Seat },
    /// A player stood; `forced` when by Embargo.
    Stood { seat: Seat, forced: bool },
    /// A player drew; the card is shown only when it came from a discard pile.
    Drew { seat: Seat, source: Source, card: Option<Card> },
    /// A card was put face up on its discard pile.
    Discarded { seat: Seat, card: Card },
    /// Exhaustion replaced a player's hand.
    Exhausted { seat: Seat, target: Seat },
    /// Direct Transaction swapped two hands.
    HandsSwapped { seat: Seat, target: Seat },
    /// A hand was revealed (K4.1).
    Revealed { seat: Seat, sand: Card, blood: Card },
    /// An Impostor took a value.
    ImpostorValue { seat: Seat, family: Family, value: u8 },
    /// Chips moved for one player: `stock` and `pot` are the signed changes.
    Chips { seat: Seat, stock: i16, pot: i16, reason: ChipReason },
    /// The round's winners (K4.10).
    RoundWon { round: u16, winners: SeatSet },
    /// A player with an empty stock left the game (K6.3).
    Eliminated { seat: Seat },
    /// The game ended (K6.4).
    GameOver { winners: SeatSet },
    /// The round limit was reached (K6.5).
    Truncated { round: u16 },
}
