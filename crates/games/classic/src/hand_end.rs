//! The public facts of a hand's end that the event log and the hand's result both carry: how
//! the hand ended and what each revealed hand was. Kept apart from the showdown's logic so the
//! event log does not depend on the state machine that writes it.

use game::seat::Seat;
use serde::{Deserialize, Serialize};

/// What a hand is at the call (C4.2, C4.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HandClass {
    /// Over 23, under −23 or exactly 0.
    Bombed,
    /// Any other total.
    Normal,
    /// A total of exactly 23 (or −23 when totals are closest-absolute).
    PureSabacc,
    /// The Idiot, a suit 2 and a suit 3.
    IdiotsArray,
}

/// How a hand ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "by")]
pub enum HandEnd {
    /// All but one player folded (C4.1).
    Folds {
        /// The player left in.
        winner: Seat,
    },
    /// A player called (C3.5).
    Called {
        /// The caller.
        caller: Seat,
    },
    /// Nobody called by the end of the last round (C2.5).
    AutoCall,
}
