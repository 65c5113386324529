//! Determinisation: a full hand consistent with everything one seat has seen, the rest redrawn
//! from a seed. Search, studies and the no-leak checks use it; it never reads the cards the seat
//! cannot see, so redrawing them cannot leak them.

use crate::card::{Card, DECK};
use crate::state::State;
use game::Seat;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// `state` with the cards `viewer` has not seen (the opponent's, unless shown at a showdown, and
/// the public card before round 2) redrawn uniformly from the rest of the deck with `seed`, and
/// the same actions replayed; `None` if a replay is refused (it cannot be: the betting does not
/// depend on the cards).
pub fn determinize(state: &State, viewer: Seat, seed: u64) -> Option<State> {
    let view = state.view(viewer);
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut known: Vec<Card> = vec![view.own_card];
    known.extend(view.public_card);
    known.extend(view.opponent_card);
    let mut pool: Vec<Card> = DECK.iter().copied().filter(|c| !known.contains(c)).collect();
    let mut draw = |pool: &mut Vec<Card>| pool.swap_remove(rng.random_range(0..pool.len()));
    let opponent = match view.opponent_card {
        Some(c) => c,
        None => draw(&mut pool),
    };
    let public = match view.public_card {
        Some(c) => c,
        None => draw(&mut pool),
    };
    let mut private = [view.own_card; 2];
    private[1 - viewer.index()] = opponent;
    let mut s = State::with_deal(*state.rules(), private, public).ok()?;
    for a in state.actions() {
        s.apply(a).ok()?;
    }
    Some(s)
}
