//! The `Agent` trait: anything that picks an action for one seat from that seat's view, and the
//! `AgentBuilder` trait: anything that turns an agent spec (`expert`, a checkpoint path, …) into
//! an agent.
//!
//! Heuristic bots, search bots and trained policies all sit behind [`Agent`], so the arena, the
//! trainer and every front-end treat them alike. An agent sees only its game's view (what its
//! player may see: Kessel's K7, classic's C6), the legal-action mask, and an RNG it must draw all
//! its randomness from.
//! It never sees the environment or the full game state.
//!
//! An agent that cannot decide (a failed inference, say) returns an [`AgentError`]; the game
//! loop refuses an illegal action with an error naming the agent. Nothing is replaced by a
//! "safe" action behind the caller's back: a bug in an agent shows up as an error, not as a game
//! that quietly goes on.

use crate::game::{Game, GameAction, LegalMask};
use crate::games::Kessel;
use rand::RngExt;
use thiserror::Error;

/// The random generator handed to agents: seeded by the caller, so play is reproducible.
pub type AgentRng = rand_pcg::Pcg64Mcg;

/// An agent could not choose an action.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("agent `{agent}` failed: {message}")]
pub struct AgentError {
    /// The agent's name.
    pub agent: String,
    /// What went wrong.
    pub message: String,
}

impl AgentError {
    /// An error of agent `agent`.
    pub fn new(agent: impl Into<String>, message: impl Into<String>) -> Self {
        AgentError { agent: agent.into(), message: message.into() }
    }
}

/// A player of a game (Kessel Sabacc unless named).
pub trait Agent<G: Game = Kessel>: Send {
    /// A short name for reports (e.g. `random`, `expert`, a checkpoint name).
    fn name(&self) -> &str;

    /// Chooses one of the legal actions (`legal` is never empty) for `view.viewer`.
    fn act(&mut self, view: &G::View, legal: G::Mask, rng: &mut AgentRng) -> Result<G::Action, AgentError>;

    /// Chooses actions for many decisions at once, into `out` (cleared first). Agents with
    /// batched inference (neural policies) override this; the default calls [`Agent::act`] in
    /// order.
    fn act_batch(
        &mut self,
        views: &[G::View],
        legal: &[G::Mask],
        rngs: &mut [AgentRng],
        out: &mut Vec<G::Action>,
    ) -> Result<(), AgentError> {
        act_each(self, views, legal, rngs, out)
    }
}

/// Decides the positions one after another with [`Agent::act`], into `out` (cleared first): the
/// default [`Agent::act_batch`], callable by an agent that batches only some of its decisions.
pub fn act_each<G: Game, A: Agent<G> + ?Sized>(
    agent: &mut A,
    views: &[G::View],
    legal: &[G::Mask],
    rngs: &mut [AgentRng],
    out: &mut Vec<G::Action>,
) -> Result<(), AgentError> {
    out.clear();
    for ((v, &m), r) in views.iter().zip(legal).zip(rngs.iter_mut()) {
        out.push(agent.act(v, m, r)?);
    }
    Ok(())
}

/// Turns agent specs into fresh agents. The agents layer implements it; the arena and the
/// trainer take it as a trait object so they need not know every kind of agent.
pub trait AgentBuilder<G: Game = Kessel>: Send + Sync {
    /// A fresh agent for `spec`, or a message saying why the spec names nothing playable.
    fn build(&self, spec: &str) -> Result<Box<dyn Agent<G>>, String>;
}

/// Picks uniformly among the legal actions.
#[derive(Clone, Debug, Default)]
pub struct RandomAgent;

impl RandomAgent {
    /// A uniformly random legal action (`legal` must not be empty).
    pub fn pick<M: LegalMask>(legal: M, rng: &mut AgentRng) -> Option<usize> {
        if legal.is_empty() {
            return None;
        }
        let k = rng.random_range(0..legal.count());
        legal.nth_index(k)
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    fn name(&self) -> &str {
        "random"
    }

    fn act(&mut self, _view: &G::View, legal: G::Mask, rng: &mut AgentRng) -> Result<G::Action, AgentError> {
        RandomAgent::pick(legal, rng)
            .and_then(G::Action::from_index)
            .ok_or_else(|| AgentError::new("random", "no legal action was offered"))
    }
}
