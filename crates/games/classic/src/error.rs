//! Typed errors with messages a user can act on.

use crate::action::{Action, NUM_ACTIONS};
use crate::state::Pending;
use game::seat::Seat;
use thiserror::Error;

pub use crate::config::ConfigError;

/// Why an action was refused. The state is left untouched.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ActionError {
    /// The index is outside the action space.
    #[error("action index {0} is outside the action space 0..{NUM_ACTIONS}")]
    OutOfRange(usize),
    /// The game has ended.
    #[error("the game is over; no action can be applied")]
    GameOver,
    /// The action is not among the legal ones.
    #[error("`{action}` is not legal for {seat} at decision {pending:?}")]
    Illegal {
        /// The refused action.
        action: Action,
        /// The decision that was pending.
        pending: Pending,
        /// The player to act.
        seat: Seat,
    },
}
