//! [`Guide`]: a trained policy and critic as a game's search sees them. The policy crate sits
//! above the game crates, so a game's search takes its guide through this trait, and the agents
//! layer builds one from a checkpoint for any game whose [`crate::Game::guided_search`] accepts it.

use super::Game;
use super::agent::AgentError;

/// A policy and its critic, batched (see the module documentation).
pub trait Guide<G: Game>: Send {
    /// The policy's probability of each action at `view`, in action-index order (0 for illegal
    /// actions).
    fn prior(&mut self, view: &G::View, legal: G::Mask) -> Result<Vec<f32>, AgentError>;

    /// The expected win/loss return of each position, each seen by its viewer (the critic, with
    /// any reward shaping it learned added back): one batched evaluation.
    fn values(&mut self, views: &[G::View]) -> Result<Vec<f32>, AgentError>;

    /// The action the policy plays at each position (one of `legal[i]`, seen by `views[i]`'s
    /// viewer): one batched pass.
    fn rollout_actions(&mut self, views: &[G::View], legal: &[G::Mask]) -> Result<Vec<G::Action>, AgentError>;
}
