//! Tax chips (K1.3), what a Kessel seat holds.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A number of tax chips (K1.3). Chips are never negative: every tax is capped at the stock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Chips(pub u16);

impl Chips {
    /// No chips.
    pub const ZERO: Chips = Chips(0);

    /// Removes up to `n` chips and returns how many were actually removed (capped at what is there).
    #[inline]
    pub fn take_up_to(&mut self, n: u16) -> u16 {
        let t = n.min(self.0);
        self.0 -= t;
        t
    }

    /// Adds chips.
    #[inline]
    pub fn add(&mut self, n: u16) {
        self.0 += n;
    }

    /// True when there are no chips.
    #[inline]
    pub fn is_zero(self) -> bool {
        self.0 == 0
    }
}

impl fmt::Display for Chips {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}
