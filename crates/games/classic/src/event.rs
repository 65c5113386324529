//! The event log (C6): everything that happens, in order.
//!
//! The state records each event in full; a card only one player may see (a drawn or dropped
//! card, the cards of that player's shift) is kept in the event and removed by
//! [`Event::seen_by`] for everyone else. [`crate::State::events_for`] and
//! [`crate::State::public_events`] give the log as a player, or the table, sees it.

use crate::card::{Card, Hand};
use crate::hand_end::{HandClass, HandEnd};
use game::seat::{Seat, SeatSet};
use serde::{Deserialize, Serialize};

/// The two pots (C1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Pot {
    /// Won each hand.
    Hand,
    /// Builds across hands; won only with a special hand.
    Sabacc,
}

/// One event. Each variant's documentation names its fields.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "event")]
pub enum Event {
    /// A hand began (C2).
    HandStarted { hand: u32, dealer: Seat },
    /// A player with no credits left the game (C5.1).
    Left { seat: Seat },
    /// A player's antes (C2.2).
    Ante { seat: Seat, hand_pot: u32, sabacc_pot: u32 },
    /// A player was dealt cards face down (C2.3).
    Dealt { seat: Seat, cards: u8 },
    /// A player's turn began (C2.4).
    TurnStarted { seat: Seat, round: u16 },
    /// The turn player opened without a bet.
    Checked { seat: Seat },
    /// The turn player bet.
    Bet { seat: Seat, amount: u32 },
    /// A player matched the standing bet, paying `paid`.
    Matched { seat: Seat, paid: u32 },
    /// A player raised by `by` to an amount to match of `to`, paying `paid`.
    Raised { seat: Seat, by: u8, to: u32, paid: u32 },
    /// A player stayed in while no bet stood.
    Stayed { seat: Seat },
    /// A player folded, paying `paid` to the sabacc pot (C3.3).
    Folded { seat: Seat, paid: u32 },
    /// The turn player rolled the die (C3.4).
    DieRolled { seat: Seat, value: u8 },
    /// A shift: each of these players lost one card and got one.
    Shifted { seats: SeatSet },
    /// One player's part of a shift; the cards are shown to that player only.
    ShiftCards { seat: Seat, lost: Option<Card>, got: Option<Card> },
    /// A player called the hand (C3.5).
    Called { seat: Seat },
    /// A player let the calling phase pass.
    DeclinedCall { seat: Seat },
    /// Nobody called by the end of the last round: the hand is called automatically (C2.5).
    AutoCalled { round: u16 },
    /// The turn player took no card (C3.6).
    Passed { seat: Seat },
    /// The turn player drew (to keep, or to exchange); the card is shown to them only.
    Drew { seat: Seat, exchange: bool, card: Option<Card> },
    /// The turn player dropped a card out of play, face down; shown to them only.
    Dropped { seat: Seat, card: Option<Card> },
    /// A hand shown at a call (C4.2).
    Revealed { seat: Seat, hand: Hand, total: i16, class: HandClass },
    /// A sudden-demise card, dealt face up (C4.3), and the new total.
    DemiseCard { seat: Seat, card: Card, total: i16 },
    /// Credits won from a pot.
    PotWon { seat: Seat, pot: Pot, amount: u32 },
    /// Every hand bombed: the hand pot went to the sabacc pot (C4.3).
    HandPotToSabacc { amount: u32 },
    /// Every hand bombed: the hand pot stays for the next hand (C9).
    HandPotCarried { amount: u32 },
    /// A penalty to the sabacc pot (C4.5): what was owed and what was paid.
    Penalty { seat: Seat, owed: u32, paid: u32 },
    /// The hand is over.
    HandEnded { hand: u32, end: HandEnd },
    /// The game is over (C5.2).
    GameOver { winners: SeatSet },
    /// The hand limit was reached (C5.2).
    Truncated { hand: u32 },
}

impl Event {
    /// The event as `viewer` sees it (`None`: a spectator who sees only what is public): cards
    /// private to another player are removed.
    #[inline]
    pub fn seen_by(self, viewer: Option<Seat>) -> Event {
        let hide = |seat: Seat| viewer != Some(seat);
        match self {
            Event::ShiftCards { seat, .. } if hide(seat) => Event::ShiftCards { seat, lost: None, got: None },
            Event::Drew { seat, exchange, .. } if hide(seat) => Event::Drew { seat, exchange, card: None },
            Event::Dropped { seat, .. } if hide(seat) => Event::Dropped { seat, card: None },
            e => e,
        }
    }
}
