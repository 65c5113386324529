//! What an agent thinks of a decision: a trained policy's probabilities over the legal actions
//! and its value estimate, search's mean score per action, or a bot's choice. The agent sees only
//! the seat's [`PlayerView`], as when it plays. The play server's `ask` and `sabacc scenario
//! --ask` both come here.

use crate::{AgentSpec, Agents, Builtin, SpecError};
use kessel::{Action, ActionMask, PlayerView, derive_seed};
use env::{AgentError, AgentRng};
use eval::bots::SearchAgent;
use rand::SeedableRng;
use thiserror::Error;

/// Stream id for the advice's randomness (search's sampled worlds, a bot's choice).
pub(crate) const ADVICE_STREAM: u64 = 0xAD71CE;

/// An agent's opinion of one decision, over a game's actions (Kessel's by default).
#[derive(Clone, Debug, PartialEq)]
pub enum Advice<A = Action> {
    /// A policy: the probability of each legal action and the value estimate of the position.
    Policy {
        /// Legal actions in index order with their probabilities (they sum to 1).
        probabilities: Vec<(A, f32)>,
        /// The critic's estimate of the seat's return from here.
        value: f32,
    },
    /// Determinised search: each legal action's mean score over the sampled worlds. Never empty:
    /// a decision no sampled world matched is [`AdviceError::Agent`], its message saying why
    /// ([`eval::bots::NoWorld`]).
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

/// Asks the agent `spec` about `view` with legal actions `legal`; `seed` drives any randomness.
pub fn ask(
    agents: &Agents,
    spec: &AgentSpec,
    view: &PlayerView,
    legal: ActionMask,
    seed: u64,
) -> Result<Advice, AdviceError> {
    let mut rng = AgentRng::seed_from_u64(derive_seed(seed, ADVICE_STREAM));
    if let Some(mut policy) = agents.policy_agent(spec)? {
        let (probs, value) = policy.probabilities(view, legal)?;
        let probabilities = legal.actions().map(|a| (a, probs[a.index()])).collect();
        return Ok(Advice::Policy { probabilities, value });
    }
    if let AgentSpec::Builtin(Builtin::Search { worlds }) = spec {
        let values = SearchAgent::new(*worlds)
            .action_values(view, legal, &mut rng)?
            .map_err(|e| AgentError::new(spec.to_string(), format!("no scores for this decision: {e}")))?;
        return Ok(Advice::Search { values });
    }
    let mut bot = agents.build_parsed(spec)?;
    Ok(Advice::Bot { choice: bot.act(view, legal, &mut rng)? })
}
