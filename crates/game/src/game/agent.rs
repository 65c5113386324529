//! The `Agent` trait: anything that picks an action for one seat from that seat's view, and the
//! `AgentBuilder` trait: anything that turns an agent spec (`expert`, a checkpoint path, …) into
//! an agent.
//!
//! Heuristic bots, search bots and trained policies all sit behind [`Agent`], so the arena, the
//! trainer and every front-end treat them alike. An agent sees only its game's view (what its
//! player may see), the legal-action mask, and an RNG it must draw all
//! its randomness from.
//! It never sees the environment or the full game state.
//!
//! An agent that cannot decide (a failed inference, say) returns an [`AgentError`]; the game
//! loop refuses an illegal action with an error naming the agent. Nothing is replaced by a
//! "safe" action behind the caller's back: a bug in an agent shows up as an error, not as a game
//! that quietly goes on.

use super::{Game, GameAction, LegalMask};
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

/// Each legal action with the score an agent gave it.
pub type Scores<G> = Vec<(<G as Game>::Action, f64)>;

/// An action chosen, with the scores behind the choice (empty for agents that do not score).
pub type Scored<G> = (<G as Game>::Action, Scores<G>);

/// A player of a game.
pub trait Agent<G: Game>: Send {
    /// A short name for reports (e.g. `random`, `expert`, a checkpoint name).
    fn name(&self) -> &str;

    /// Chooses one of the legal actions (`legal` is never empty) for `view.viewer`.
    fn act(&mut self, view: &G::View, legal: G::Mask, rng: &mut AgentRng) -> Result<G::Action, AgentError>;

    /// Chooses an action and, for agents that score the legal actions to choose (search), the
    /// scores behind the choice (empty otherwise): what a teacher's decisions are recorded with
    /// (`sabacc distil collect`). The choice is the one [`Agent::act`] makes from the same RNG.
    fn decide(&mut self, view: &G::View, legal: G::Mask, rng: &mut AgentRng) -> Result<Scored<G>, AgentError> {
        Ok((self.act(view, legal, rng)?, Vec::new()))
    }

    /// The agent's probability of each action (in index order, 0 where illegal) at this
    /// decision, for agents that have one (trained policies, tabular solvers, the uniform random
    /// agent): what advice shows and what exact exploitability walks. `None` for agents that only
    /// choose.
    fn distribution(&mut self, _view: &G::View, _legal: G::Mask) -> Option<Result<Vec<f64>, AgentError>> {
        None
    }

    /// Each legal action's score, for agents that score them (search): what advice shows.
    fn action_scores(
        &mut self,
        _view: &G::View,
        _legal: G::Mask,
        _rng: &mut AgentRng,
    ) -> Option<Result<Scores<G>, AgentError>> {
        None
    }

    /// The agent's estimate of the viewer's return from here (a trained critic).
    fn value(&mut self, _view: &G::View) -> Option<Result<f32, AgentError>> {
        None
    }

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
pub trait AgentBuilder<G: Game>: Send + Sync {
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

    /// Uniform over the legal actions.
    fn distribution(&mut self, _view: &G::View, legal: G::Mask) -> Option<Result<Vec<f64>, AgentError>> {
        let n = legal.count();
        if n == 0 {
            return Some(Err(AgentError::new("random", "no legal action was offered")));
        }
        Some(Ok((0..G::SPEC.num_actions).map(|i| if legal.contains_index(i) { 1.0 / n as f64 } else { 0.0 }).collect()))
    }
}
