//! `search+CHECKPOINT`: determinised search steered by a trained policy
//! ([`eval::bots::SearchAgent::guided`]). The policy prunes the actions it rates as blunders,
//! plays the rollouts (its most likely action, for every seat) and its critic scores the
//! round-end positions of the rollouts as a chance of winning the game.

use kessel::{Action, ActionMask, PlayerView};
use env::reward::view_chip_share;
use env::{Agent, AgentError, AgentRng};
use eval::bots::SearchGuide;
use policy::{ActionSelection, PolicyAgent};
use rand::SeedableRng;

/// A checkpoint's policy and critic as a [`SearchGuide`].
pub struct PolicyGuide {
    agent: PolicyAgent,
    /// The chip-share shaping coefficient the critic was trained with (its metadata's
    /// `value_shaping`).
    shaping: f32,
}

impl PolicyGuide {
    /// Wraps `agent`, whose critic learned returns shaped with coefficient `shaping`. Its
    /// rollouts play the policy's most likely action, whatever `agent`'s own selection.
    pub fn new(agent: PolicyAgent, shaping: f32) -> PolicyGuide {
        PolicyGuide { agent: agent.with_selection(ActionSelection::Greedy), shaping }
    }
}

/// The chance of winning implied by an expected win/loss return `g` at a table of `n` seats: a
/// win pays +1 and a loss −1/(n−1) (see `env::RewardMode::WinLoss`).
fn win_chance(g: f32, n: u8) -> f64 {
    let n = f64::from(n.max(2));
    ((f64::from(g) * (n - 1.0) + 1.0) / n).clamp(0.0, 1.0)
}

impl SearchGuide for PolicyGuide {
    fn prior(&mut self, view: &PlayerView, legal: ActionMask) -> Result<Vec<f32>, AgentError> {
        Ok(self.agent.probabilities(view, legal)?.0)
    }

    fn win_chances(&mut self, views: &[PlayerView]) -> Result<Vec<f64>, AgentError> {
        let values = self.agent.values(views)?;
        Ok(views
            .iter()
            .zip(values)
            .map(|(v, value)| win_chance(value + self.shaping * view_chip_share(v), v.config.players))
            .collect())
    }

    fn rollout_actions(&mut self, views: &[PlayerView], legal: &[ActionMask]) -> Result<Vec<Action>, AgentError> {
        // Argmax play draws no random numbers; the generators only satisfy the batch API.
        let mut rngs = vec![AgentRng::seed_from_u64(0); views.len()];
        let mut out = Vec::with_capacity(views.len());
        self.agent.act_batch(views, legal, &mut rngs, &mut out)?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::win_chance;

    #[test]
    fn win_chance_inverts_the_win_loss_reward() {
        // Heads-up: +1 win, −1 loss.
        assert!((win_chance(1.0, 2) - 1.0).abs() < 1e-9);
        assert!((win_chance(-1.0, 2)).abs() < 1e-9);
        assert!((win_chance(0.0, 2) - 0.5).abs() < 1e-9);
        // Four seats: +1 win, −1/3 loss; an even seat (P = 1/4) expects 0.
        assert!((win_chance(0.0, 4) - 0.25).abs() < 1e-9);
        assert!((win_chance(1.0, 4) - 1.0).abs() < 1e-9);
        assert!((win_chance(-1.0 / 3.0, 4)).abs() < 1e-9);
        // Out-of-range critic outputs are clamped.
        assert_eq!(win_chance(3.0, 4), 1.0);
        assert_eq!(win_chance(-3.0, 2), 0.0);
    }
}
