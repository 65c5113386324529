//! Seats and sets of seats: every game numbers its seats clockwise from 0, at most
//! [`MAX_PLAYERS`] of them.

use crate::bitset::BitIndex;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The largest table any game allows (the length of per-seat arrays such as rewards).
pub const MAX_PLAYERS: usize = 8;

/// A seat at the table, numbered clockwise from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat's index for per-seat arrays.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The seat `offset` places clockwise from this one at a table of `players`.
    #[inline]
    pub fn offset(self, offset: u8, players: u8) -> Seat {
        // Offsets are at most `players` in every caller of the rules (a loop over 1..=players
        // ends back at the seat itself), so one subtraction replaces the modulo, a division the
        // masks and turn order would otherwise pay for at every decision.
        let s = self.0 + if offset <= players { offset } else { offset % players };
        Seat(if s >= players { s - players } else { s })
    }

    /// How many places clockwise `other` sits from this seat (0 for itself).
    #[inline]
    pub fn distance_to(self, other: Seat, players: u8) -> u8 {
        let d = other.0 + players - self.0;
        if d >= players { d - players } else { d }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

impl BitIndex for Seat {
    type Word = u8;

    #[inline]
    fn bit(self) -> u32 {
        self.0 as u32
    }

    #[inline]
    fn from_bit(bit: u32) -> Seat {
        Seat(bit as u8)
    }
}

/// A set of seats as a bitmask (bit = seat number), used for winners, eliminations and the like.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SeatSet(pub u8);

crate::bit_set_methods!(SeatSet, Seat);

impl SeatSet {
    /// The empty set.
    pub const EMPTY: SeatSet = SeatSet(0);

    /// The first seat of the set strictly clockwise after `from` (wrapping round to `from`
    /// itself last), at a table of `players`.
    #[inline]
    pub fn next_after(self, from: Seat, players: u8) -> Option<Seat> {
        if self.is_empty() {
            return None;
        }
        // Rotate so that the seat after `from` is bit 0, then take the lowest set bit.
        let n = players as u32;
        let full = (1u32 << n) - 1;
        let m = self.0 as u32 & full;
        let shift = (from.0 as u32 + 1) % n;
        let rot = ((m >> shift) | (m << (n - shift))) & full;
        if rot == 0 {
            return None;
        }
        let k = rot.trailing_zeros();
        Some(Seat(((shift + k) % n) as u8))
    }
}

impl FromIterator<Seat> for SeatSet {
    fn from_iter<I: IntoIterator<Item = Seat>>(iter: I) -> Self {
        let mut s = SeatSet::EMPTY;
        for x in iter {
            s.insert(x);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without the modulo on its usual path, `offset` is still clockwise arithmetic modulo the
    /// table for every seat, every table size and every offset, and `distance_to` undoes it.
    #[test]
    fn offset_is_clockwise_modulo_the_table_and_distance_undoes_it() {
        for players in 1..=MAX_PLAYERS as u8 {
            for seat in 0..players {
                for offset in 0..=u8::MAX {
                    let to = Seat(seat).offset(offset, players);
                    assert_eq!(to, Seat(((u32::from(seat) + u32::from(offset)) % u32::from(players)) as u8));
                    assert_eq!(Seat(seat).distance_to(to, players), offset % players);
                }
            }
        }
    }

    #[test]
    fn next_after_wraps_clockwise() {
        let s: SeatSet = [Seat(1), Seat(3)].into_iter().collect();
        assert_eq!(s.next_after(Seat(0), 4), Some(Seat(1)));
        assert_eq!(s.next_after(Seat(1), 4), Some(Seat(3)));
        assert_eq!(s.next_after(Seat(3), 4), Some(Seat(1)));
        let one: SeatSet = [Seat(2)].into_iter().collect();
        assert_eq!(one.next_after(Seat(2), 4), Some(Seat(2)));
        assert_eq!(SeatSet::EMPTY.next_after(Seat(0), 4), None);
        let eight: SeatSet = [Seat(0), Seat(7)].into_iter().collect();
        assert_eq!(eight.next_after(Seat(7), 8), Some(Seat(0)));
        assert_eq!(eight.next_after(Seat(0), 8), Some(Seat(7)));
    }
}
