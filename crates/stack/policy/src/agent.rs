//! A trained policy as an [`env::Agent`], so checkpoints play in the arena, in the trainer's
//! evaluations and in any front-end exactly like the heuristic bots. A checkpoint with an opening
//! book ([`crate::book`]) plays the book's move wherever it has one.

use crate::book::Book;
use crate::checkpoint::{CheckpointError, CheckpointMetadata, ExpectedSpec};
use crate::dist::{argmax_masked, sample_masked};
use crate::inference::{ActionSelection, Policy};
use burn::tensor::Device;
use game::{Agent, AgentError, AgentRng, Game, GameAction, LegalMask};
use rand::RngExt;
use std::marker::PhantomData;
use std::path::Path;
use std::sync::Arc;

/// Plays game `G` by sampling from (or taking the argmax of) a trained policy's masked
/// distribution over the observations of `G`'s encoder.
#[derive(Clone, Debug)]
pub struct PolicyAgent<G: Game> {
    name: String,
    policy: Policy,
    selection: ActionSelection,
    obs: Vec<f32>,
    masks: Vec<bool>,
    book: Option<Arc<Book>>,
    game: PhantomData<fn() -> G>,
}

impl<G: Game> PolicyAgent<G> {
    /// Wraps an inference policy under a display name.
    pub fn new(name: impl Into<String>, policy: Policy, selection: ActionSelection) -> Self {
        PolicyAgent {
            name: name.into(),
            policy,
            selection,
            obs: Vec::new(),
            masks: Vec::new(),
            book: None,
            game: PhantomData,
        }
    }

    /// The same agent playing `book`'s moves ahead of the network's wherever the book has one.
    pub fn with_book(mut self, book: Option<Book>) -> Self {
        self.book = book.map(Arc::new);
        self
    }

    /// Its opening book, if it has one.
    pub fn book(&self) -> Option<&Book> {
        self.book.as_deref()
    }

    /// The same agent choosing actions by `selection` (sampling is the trained behaviour;
    /// argmax plays the policy's most likely action, deterministically).
    pub fn with_selection(mut self, selection: ActionSelection) -> Self {
        self.selection = selection;
        self
    }

    /// The network, for callers that act on observations they encoded themselves (the Python
    /// package's `act(obs, mask)`).
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// How this agent picks from the policy's distribution.
    pub fn selection(&self) -> ActionSelection {
        self.selection
    }

    /// Loads a checkpoint directory, checking it against this build's observation spec, with its
    /// opening book (`book.json`) when it has one.
    pub fn load(dir: &Path, device: &Device) -> Result<(Self, CheckpointMetadata), CheckpointError> {
        let (policy, meta) = Policy::from_checkpoint(dir, &ExpectedSpec::from(G::SPEC), device)?;
        let book = Book::read::<G>(dir)?;
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "policy".into());
        Ok((PolicyAgent::new(name, policy, ActionSelection::Sample).with_book(book), meta))
    }

    fn fill(&mut self, views: &[G::View], legal: &[G::Mask]) {
        let (d, a) = (self.policy.obs_dim(), self.policy.num_actions());
        self.obs.resize(views.len() * d, 0.0);
        self.masks.resize(views.len() * a, false);
        for (r, (v, m)) in views.iter().zip(legal).enumerate() {
            G::encode(v, &mut self.obs[r * d..(r + 1) * d]);
            m.write_bools(&mut self.masks[r * a..(r + 1) * a]);
        }
    }
}

impl<G: Game> PolicyAgent<G> {
    /// The policy's probability of each action (index order, 0 for illegal ones) and its value
    /// estimate for `view`: what the agent would do and how it rates the position, for hints. Where
    /// the opening book has a move, all the probability is on it.
    pub fn probabilities(&mut self, view: &G::View, legal: G::Mask) -> Result<(Vec<f32>, f32), AgentError> {
        self.fill(std::slice::from_ref(view), std::slice::from_ref(&legal));
        let (logp, values) = self
            .policy
            .log_probs_and_values(&self.obs, &self.masks, 1)
            .map_err(|e| AgentError::new(&self.name, format!("inference failed: {e}")))?;
        let booked = self.book.as_ref().and_then(|b| b.choice::<G>(view, legal)).map(GameAction::index);
        let probs = logp
            .iter()
            .enumerate()
            .map(|(i, l)| match booked {
                Some(b) => f32::from(u8::from(i == b)),
                None if legal.contains_index(i) => l.exp(),
                None => 0.0,
            })
            .collect();
        Ok((probs, values[0]))
    }

    /// The critic's value estimate of each view, from one batched pass of the value path (for
    /// search, which scores many positions per decision).
    pub fn values(&mut self, views: &[G::View]) -> Result<Vec<f32>, AgentError> {
        let d = self.policy.obs_dim();
        self.obs.resize(views.len() * d, 0.0);
        for (r, v) in views.iter().enumerate() {
            G::encode(v, &mut self.obs[r * d..(r + 1) * d]);
        }
        self.policy
            .value_batch(&self.obs, views.len())
            .map_err(|e| AgentError::new(&self.name, format!("inference failed: {e}")))
    }

    /// Chooses one action per row from a single batched forward pass; row `r` draws its uniform
    /// number from `rngs[r]`, so batched and one-by-one play choose the same actions. A failed
    /// forward pass or a row with nothing to choose is an error, never a stand-in action.
    fn choose(
        &mut self,
        views: &[G::View],
        legal: &[G::Mask],
        rngs: &mut [AgentRng],
        out: &mut Vec<G::Action>,
    ) -> Result<(), AgentError> {
        out.clear();
        let n = views.len();
        if n == 0 {
            return Ok(());
        }
        self.fill(views, legal);
        let (logp, _) = self
            .policy
            .log_probs_and_values(&self.obs, &self.masks, n)
            .map_err(|e| AgentError::new(&self.name, format!("inference failed: {e}")))?;
        let a = self.policy.num_actions();
        let mut probs = vec![0.0f32; a];
        for (r, rng) in rngs.iter_mut().enumerate().take(n) {
            let row = &logp[r * a..(r + 1) * a];
            let mask = &self.masks[r * a..(r + 1) * a];
            if let Some(action) = self.book.as_ref().and_then(|b| b.choice::<G>(&views[r], legal[r])) {
                out.push(action);
                continue;
            }
            let chosen = match self.selection {
                ActionSelection::Greedy => argmax_masked(row, mask),
                ActionSelection::Sample => {
                    for (p, &l) in probs.iter_mut().zip(row) {
                        *p = l.exp();
                    }
                    let u: f32 = rng.random();
                    sample_masked(&probs, mask, u)
                }
            };
            let action = chosen.and_then(G::Action::from_index).ok_or_else(|| {
                AgentError::new(
                    &self.name,
                    format!("no legal action to choose from (legal: {:?})", legal[r].index_list()),
                )
            })?;
            out.push(action);
        }
        Ok(())
    }
}

impl<G: Game> Agent<G> for PolicyAgent<G> {
    fn name(&self) -> &str {
        &self.name
    }

    fn act(&mut self, view: &G::View, legal: G::Mask, rng: &mut AgentRng) -> Result<G::Action, AgentError> {
        let mut out = Vec::with_capacity(1);
        self.choose(std::slice::from_ref(view), std::slice::from_ref(&legal), std::slice::from_mut(rng), &mut out)?;
        Ok(out[0])
    }

    fn act_batch(
        &mut self,
        views: &[G::View],
        legal: &[G::Mask],
        rngs: &mut [AgentRng],
        out: &mut Vec<G::Action>,
    ) -> Result<(), AgentError> {
        self.choose(views, legal, rngs, out)
    }

    /// The distribution the agent plays from: the policy's (sampling) or all of it on the most
    /// likely action (argmax).
    fn distribution(&mut self, view: &G::View, legal: G::Mask) -> Option<Result<Vec<f64>, AgentError>> {
        Some(self.probabilities(view, legal).map(|(probs, _)| match self.selection {
            ActionSelection::Sample => probs.iter().map(|&p| f64::from(p)).collect(),
            ActionSelection::Greedy => {
                let best = argmax_masked(&probs, &self.masks[..probs.len()]);
                (0..probs.len()).map(|i| if Some(i) == best { 1.0 } else { 0.0 }).collect()
            }
        }))
    }

    fn value(&mut self, view: &G::View) -> Option<Result<f32, AgentError>> {
        Some(self.values(std::slice::from_ref(view)).map(|v| v[0]))
    }
}
