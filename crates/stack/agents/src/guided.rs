//! `search+CHECKPOINT`: a game's determinised search steered by a trained policy
//! ([`game::Game::guided_search`]). The policy prunes the actions it rates as blunders, plays the
//! rollouts (its most likely action, for every seat) and its critic scores the positions the
//! rollouts reach.

use game::{Agent, AgentError, AgentRng, Game, Guide};
use policy::{ActionSelection, PolicyAgent};
use rand::SeedableRng;

/// A checkpoint's policy and critic as a [`Guide`].
pub struct PolicyGuide<G: Game> {
    agent: PolicyAgent<G>,
    /// The reward shaping coefficient the critic was trained with (its metadata's
    /// `value_shaping`): the critic learned the return minus this times the seat's share
    /// ([`Game::view_share`]), which [`Guide::values`] adds back.
    shaping: f32,
}

impl<G: Game> PolicyGuide<G> {
    /// Wraps `agent`, whose critic learned returns shaped with coefficient `shaping`. Its
    /// rollouts play the policy's most likely action, whatever `agent`'s own selection.
    pub fn new(agent: PolicyAgent<G>, shaping: f32) -> PolicyGuide<G> {
        PolicyGuide { agent: agent.with_selection(ActionSelection::Greedy), shaping }
    }
}

impl<G: Game> Guide<G> for PolicyGuide<G> {
    fn prior(&mut self, view: &G::View, legal: G::Mask) -> Result<Vec<f32>, AgentError> {
        Ok(self.agent.probabilities(view, legal)?.0)
    }

    fn values(&mut self, views: &[G::View]) -> Result<Vec<f32>, AgentError> {
        let values = self.agent.values(views)?;
        Ok(views.iter().zip(values).map(|(v, value)| value + self.shaping * G::view_share(v)).collect())
    }

    fn rollout_actions(&mut self, views: &[G::View], legal: &[G::Mask]) -> Result<Vec<G::Action>, AgentError> {
        // Argmax play draws no random numbers; the generators only satisfy the batch API.
        let mut rngs = vec![AgentRng::seed_from_u64(0); views.len()];
        let mut out = Vec::with_capacity(views.len());
        self.agent.act_batch(views, legal, &mut rngs, &mut out)?;
        Ok(out)
    }
}
