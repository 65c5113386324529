//! The event log of a hand, and what each player may see of it.
//!
//! The state records each event in full; [`Event::seen_by`] removes the private cards a viewer
//! may not see. Both private cards become public at a showdown, which has its own event, so the
//! deal itself stays hidden in the log even after a showdown.

use crate::action::Action;
use crate::card::Card;
use crate::config::PLAYERS;
use game::Seat;
use serde::{Deserialize, Serialize};

/// One event. Each variant's documentation names its fields.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "event")]
pub enum Event {
    /// Both players anted `ante` and got their private `cards` (by seat; `None` where hidden).
    Deal { ante: u32, cards: [Option<Card>; PLAYERS] },
    /// `seat` took `action`.
    Action { seat: Seat, action: Action },
    /// Round 2 began with this public `card`.
    PublicCard { card: Card },
    /// Both private `cards` (by seat) were shown.
    Showdown { cards: [Card; PLAYERS] },
    /// `seat` folded; the other player wins without a showdown.
    Fold { seat: Seat },
    /// The hand ended; chips won or lost by seat.
    Result { returns: [f64; PLAYERS] },
}

impl Event {
    /// The event as `viewer` sees it (`None`: a spectator, who sees only what is public): the
    /// other players' private cards are removed.
    pub fn seen_by(self, viewer: Option<Seat>) -> Event {
        match self {
            Event::Deal { ante, cards } => Event::Deal {
                ante,
                cards: std::array::from_fn(|i| if viewer == Some(Seat(i as u8)) { cards[i] } else { None }),
            },
            e => e,
        }
    }
}
