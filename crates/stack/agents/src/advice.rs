//! What an agent thinks of a decision: a trained policy's probabilities over the legal actions
//! and its value estimate, search's mean score per action, or a bot's choice. The agent sees only
//! the seat's view, as when it plays. The play server's `ask` and `sabacc scenario --ask` both
//! come here, for any game.

use crate::{AgentSpec, Agents, SpecError};
use game::{AgentError, AgentRng, Game, GameAction, LegalMask, derive_seed};
use rand::SeedableRng;
use thiserror::Error;

/// Stream id for the advice's randomness (search's sampled worlds, a bot's choice).
pub(crate) const ADVICE_STREAM: u64 = 0xAD71CE;

/// An agent's opinion of one decision, over a game's actions `A`.
#[derive(Clone, Debug, PartialEq)]
pub enum Advice<A> {
    /// A policy: the probability of each legal action and the value estimate of the position.
    Policy {
        /// Legal actions in index order with their probabilities (they sum to 1).
        probabilities: Vec<(A, f32)>,
        /// The critic's estimate of the seat's return from here.
        value: f32,
    },
    /// Search: each legal action's mean score over the sampled worlds. Never empty: a decision no
    /// sampled world matched is [`AdviceError::Agent`], its message saying why.
    Search {
        /// Legal actions in index order with their mean scores.
        values: Vec<(A, f64)>,
    },
    /// A heuristic bot: the action it would take.
    Bot {
        /// Its choice.
        choice: A,
    },
}

/// Why an agent could not be asked.
#[derive(Debug, Error)]
pub enum AdviceError {
    /// The spec names nothing playable.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// The agent failed on this position, or (search) could not score it: the message says why.
    #[error(transparent)]
    Agent(#[from] AgentError),
}

/// Asks the agent `spec` of game `G` about `view` with legal actions `legal`; `seed` drives any
/// randomness.
pub fn ask<G: Game>(
    agents: &Agents,
    spec: &AgentSpec,
    view: &G::View,
    legal: G::Mask,
    seed: u64,
) -> Result<Advice<G::Action>, AdviceError> {
    let mut rng = AgentRng::seed_from_u64(derive_seed(seed, ADVICE_STREAM));
    if let Some(mut policy) = agents.policy_agent::<G>(spec)? {
        let (probs, value) = policy.probabilities(view, legal)?;
        let probabilities =
            legal.index_list().into_iter().filter_map(|i| G::Action::from_index(i).map(|a| (a, probs[i]))).collect();
        return Ok(Advice::Policy { probabilities, value });
    }
    let mut agent = agents.build_parsed::<G>(spec)?;
    if let Some(values) = agent.action_scores(view, legal, &mut rng) {
        let values =
            values.map_err(|e| AgentError::new(spec.to_string(), format!("no scores for this decision: {e}")))?;
        return Ok(Advice::Search { values });
    }
    let choice = agent.act(view, legal, &mut rng)?;
    if !legal.contains_index(choice.index()) {
        return Err(AgentError::new(agent.name(), "chose an action that is not legal here").into());
    }
    Ok(Advice::Bot { choice })
}
