//! The `Agent` trait: anything that picks an action for one seat from that seat's view.
//!
//! Heuristic bots, search bots and trained policies all sit behind this trait, so the arena and
//! the trainer treat them alike. An agent sees only a [`PlayerView`] (what its player may see,
//! K7), the legal-action mask, and an RNG it must draw all its randomness from.

use engine::{Action, ActionMask, PlayerView};
use rand::RngExt;

/// The random generator handed to agents: seeded by the caller, so play is reproducible.
pub type AgentRng = rand_pcg::Pcg64Mcg;

/// A player of Kessel Sabacc.
pub trait Agent: Send {
    /// A short name for reports (e.g. `random`, `expert`, a checkpoint name).
    fn name(&self) -> &str;

    /// Chooses one of the legal actions (`legal` is never empty) for `view.viewer`.
    fn act(&mut self, view: &PlayerView, legal: ActionMask, rng: &mut AgentRng) -> Action;

    /// Chooses actions for many decisions at once. Agents with batched inference (neural
    /// policies) override this; the default calls [`Agent::act`] in order.
    fn act_batch(&mut self, views: &[PlayerView], legal: &[ActionMask], rngs: &mut [AgentRng], out: &mut Vec<Action>) {
        out.clear();
        for ((v, &m), r) in views.iter().zip(legal).zip(rngs.iter_mut()) {
            out.push(self.act(v, m, r));
        }
    }
}

/// Picks uniformly among the legal actions.
#[derive(Clone, Debug, Default)]
pub struct RandomAgent;

impl Agent for RandomAgent {
    fn name(&self) -> &str {
        "random"
    }

    fn act(&mut self, _view: &PlayerView, legal: ActionMask, rng: &mut AgentRng) -> Action {
        let k = rng.random_range(0..legal.count());
        let idx = legal.nth_index(k).expect("k < count");
        Action::from_index(idx).expect("mask holds valid indices")
    }
}
