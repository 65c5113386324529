//! `random`: a uniformly random legal action, the floor every other bot must clear.

use super::BotRng;
use crate::action::{Action, ActionMask};
use rand::RngExt;

/// A legal action drawn uniformly.
///
/// # Panics
/// If no action is legal (the game is over).
pub fn choose(legal: ActionMask, rng: &mut BotRng) -> Action {
    assert!(!legal.is_empty(), "no legal action: the game is over");
    let i = legal.nth_index(rng.random_range(0..legal.count())).expect("n < count");
    Action::from_index(i).expect("mask indices are actions")
}
