//! Typed errors of the game itself, with messages a user can act on.

use crate::action::{Action, ActionMask, NUM_ACTIONS};
use crate::card::Card;
use game::Seat;
use thiserror::Error;

pub use crate::config::ConfigError;

/// Why an action was refused. The state is left untouched.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ActionError {
    /// The index is outside the action space.
    #[error("action index {0} is outside the action space 0..{NUM_ACTIONS} (0 fold, 1 call, 2 raise)")]
    OutOfRange(usize),
    /// The hand is over.
    #[error("the hand is over; no action can be applied (start a new state)")]
    GameOver,
    /// The action is not among the legal ones.
    #[error("`{action}` is not legal for {seat} now; legal actions: {}", crate::action::mask_names(*legal))]
    Illegal {
        /// The refused action.
        action: Action,
        /// The player to act.
        seat: Seat,
        /// What that player may do instead.
        legal: ActionMask,
    },
}

/// Why a deal (and so a state) could not be set up.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DealError {
    /// The rules are invalid.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// A card was dealt twice; the three dealt cards must be distinct.
    #[error("card {0} is dealt twice; the two private cards and the public card must be distinct")]
    DuplicateCard(Card),
}

/// Why a recorded hand (deal and actions) could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ReplayError {
    /// The deal is invalid.
    #[error("recorded deal: {0}")]
    Deal(#[from] DealError),
    /// An action of the record was refused.
    #[error("recorded action {step}: {source}")]
    Action {
        /// Index of the refused action in the record.
        step: usize,
        /// Why it was refused.
        source: ActionError,
    },
}
