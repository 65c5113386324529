//! Who wins a showdown.
//!
//! A private card that pairs the public card beats any unpaired card; otherwise the higher rank
//! wins; equal ranks split the pot. Suits never matter. Both players cannot pair the board: each
//! rank has only two cards.

use crate::card::{Card, Rank};
use std::cmp::Ordering;

/// The strength of a private card given the board: pairs first, then rank.
pub fn strength(private: Card, public: Card) -> (bool, Rank) {
    (private.rank == public.rank, private.rank)
}

/// How seat 0's card compares with seat 1's at showdown (`Greater`: seat 0 wins).
pub fn compare(cards: [Card; 2], public: Card) -> Ordering {
    strength(cards[0], public).cmp(&strength(cards[1], public))
}
