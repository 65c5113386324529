//! The errors every game reports through the interface, by kind, each with a message a user can
//! act on (the game's own typed error, rendered). Front-ends branch on the kind (a bad request is
//! not a broken engine) and show the message.

use thiserror::Error;

/// Why a game refused a request, or found itself inconsistent. The state is unchanged after
/// every refusal.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GameError {
    /// The rules were refused; the message names the field at fault.
    #[error("{0}")]
    Rules(String),
    /// The action is outside the action space, not legal here, or the game is over.
    #[error("{0}")]
    Action(String),
    /// A scenario (a position written down) was refused; the message names the field.
    #[error("{0}")]
    Scenario(String),
    /// The engine's own consistency checks failed: a bug, never a user's mistake.
    #[error("invariant broken: {0}")]
    Invariant(String),
    /// An observation is outside its documented layout (length, range, one-hot blocks).
    #[error("observation: {0}")]
    Observation(String),
}

impl GameError {
    /// The refused rules' error.
    pub fn rules(e: impl std::fmt::Display) -> GameError {
        GameError::Rules(e.to_string())
    }

    /// The refused action's error.
    pub fn action(e: impl std::fmt::Display) -> GameError {
        GameError::Action(e.to_string())
    }

    /// The refused scenario's error.
    pub fn scenario(e: impl std::fmt::Display) -> GameError {
        GameError::Scenario(e.to_string())
    }
}
