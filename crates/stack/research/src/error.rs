//! Why a study cannot run: bad settings (naming the argument and what it accepts), an agent that
//! failed or broke the rules, or output that could not be written.

use thiserror::Error;

/// A study that cannot run or finish.
#[derive(Debug, Error)]
pub enum ResearchError {
    /// A setting outside what the study accepts; the message names the argument.
    #[error("{0}")]
    Settings(String),
    /// An agent spec that names nothing playable.
    #[error("--agents: {0}")]
    Spec(String),
    /// An agent could not choose an action.
    #[error("game {game}: {error}")]
    Agent {
        /// Index of the game in the study's plan.
        game: usize,
        /// What the agent reported.
        error: env::AgentError,
    },
    /// An agent chose an action that was not offered (a bug in that agent).
    #[error("game {game}: agent `{agent}` chose the illegal action {action} ({})", kessel::action_name(*action))]
    Illegal {
        /// Index of the game in the study's plan.
        game: usize,
        /// The agent's spec.
        agent: String,
        /// Its action index.
        action: usize,
    },
    /// A position that could not be resampled from the deciding seat's view (a view the engine
    /// finds inconsistent: a bug in the engine or a hand-made position).
    #[error("game {game}: cannot resample what seat {seat} does not see: {message}")]
    Resample {
        /// Index of the source game of the position.
        game: u64,
        /// The deciding seat.
        seat: u8,
        /// What the sampler reported.
        message: String,
    },
    /// A value file given to `draft --value` that cannot be used.
    #[error("--value {path}: {message}")]
    ValueFile {
        /// The file.
        path: String,
        /// Why.
        message: String,
    },
    /// Writing the study's files failed.
    #[error("writing {path}: {message}")]
    Output {
        /// The file or folder.
        path: String,
        /// Why.
        message: String,
    },
}
