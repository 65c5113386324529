//! Batched action selection on plain slices, independent of any environment crate.

use std::path::Path;

use burn::module::Module;
use burn::tensor::{Bool, Device, Tensor, TensorData};
use rand::{Rng, RngExt};

use crate::checkpoint::{CheckpointError, CheckpointMetadata, ExpectedSpec, load_checkpoint};
use crate::dist::{argmax_masked, log_probs, masked_logits, sample_masked};
use crate::model::ActorCritic;

/// How [`Policy::act_batch`] turns probabilities into actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionSelection {
    /// Most probable legal action (evaluation / play).
    Greedy,
    /// Sample from the masked distribution (training rollouts, stochastic play).
    Sample,
}

/// Bad input to a [`Policy`] method.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PolicyError {
    /// `obs.len()` is not `n * obs_dim`.
    #[error("observation slice has {got} values, expected {n} rows x {obs_dim} = {}", n * obs_dim)]
    ObsLength {
        /// Values given.
        got: usize,
        /// Rows requested.
        n: usize,
        /// Observation length.
        obs_dim: usize,
    },
    /// The mask slice is not `n * num_actions` long.
    #[error("mask slice has {got} values, expected {n} rows x {num_actions} = {}", n * num_actions)]
    MaskLength {
        /// Values given.
        got: usize,
        /// Rows requested.
        n: usize,
        /// Action count.
        num_actions: usize,
    },
    /// A row's mask allows no action.
    #[error("row {row} has no legal action")]
    NoLegalAction {
        /// Index of the row.
        row: usize,
    },
    /// `n` is zero (burn cannot build empty tensors on every backend).
    #[error("batch size must be > 0")]
    EmptyBatch,
}

/// Everything a rollout needs from one forward pass.
#[derive(Clone, Debug, PartialEq)]
pub struct ActBatch {
    /// Chosen action of each row.
    pub actions: Vec<usize>,
    /// Log-probability of each chosen action under the masked policy.
    pub log_probs: Vec<f32>,
    /// Critic value of each row.
    pub values: Vec<f32>,
}

/// An [`ActorCritic`] ready for inference: no autodiff, fixed device, slice in, slice out.
///
/// Exists so that players, evaluators and rollout workers need no tensor code.
#[derive(Clone, Debug)]
pub struct Policy {
    model: ActorCritic,
    device: Device,
}

impl Policy {
    /// Wraps `model` for inference on `device` (autodiff is stripped from both).
    pub fn new(model: &ActorCritic, device: &Device) -> Self {
        let device = device.clone().without_autodiff();
        let model = model.valid().to_device(&device);
        Self { model, device }
    }

    /// Loads a checkpoint (checked against `expected`) for inference on `device`.
    pub fn from_checkpoint(
        dir: impl AsRef<Path>,
        expected: &ExpectedSpec,
        device: &Device,
    ) -> Result<(Self, CheckpointMetadata), CheckpointError> {
        let device = device.clone().without_autodiff();
        let (model, meta) = load_checkpoint(dir, expected, &device)?;
        Ok((Self::new(&model, &device), meta))
    }

    /// The wrapped network.
    pub fn model(&self) -> &ActorCritic {
        &self.model
    }

    /// The inference device.
    pub fn device(&self) -> &Device {
        &self.device
    }

    /// Observation length expected per row.
    pub fn obs_dim(&self) -> usize {
        self.model.config().obs_dim
    }

    /// Number of actions per row.
    pub fn num_actions(&self) -> usize {
        self.model.config().num_actions
    }

    fn obs_tensor(&self, obs: &[f32], n: usize) -> Result<Tensor<2>, PolicyError> {
        let obs_dim = self.obs_dim();
        if n == 0 {
            return Err(PolicyError::EmptyBatch);
        }
        if obs.len() != n * obs_dim {
            return Err(PolicyError::ObsLength { got: obs.len(), n, obs_dim });
        }
        Ok(Tensor::from_data(TensorData::new(obs.to_vec(), [n, obs_dim]), &self.device))
    }

    fn check_masks(&self, masks: &[bool], n: usize) -> Result<(), PolicyError> {
        let a = self.num_actions();
        if masks.len() != n * a {
            return Err(PolicyError::MaskLength { got: masks.len(), n, num_actions: a });
        }
        if let Some(row) = masks.chunks(a).position(|r| !r.iter().any(|&m| m)) {
            return Err(PolicyError::NoLegalAction { row });
        }
        Ok(())
    }

    /// Masked log-probabilities `[n * num_actions]` (row-major) and values `[n]`.
    ///
    /// `obs` is `n` rows of `obs_dim`; `masks` is `n` rows of `num_actions`, `true` = legal.
    pub fn log_probs_and_values(
        &self,
        obs: &[f32],
        masks: &[bool],
        n: usize,
    ) -> Result<(Vec<f32>, Vec<f32>), PolicyError> {
        let obs = self.obs_tensor(obs, n)?;
        self.check_masks(masks, n)?;
        let mask = Tensor::<2, Bool>::from_data(TensorData::new(masks.to_vec(), [n, self.num_actions()]), &self.device);
        let (logits, values) = self.model.forward(obs);
        let logp = log_probs(masked_logits(logits, mask));
        let logp = logp.into_data().try_into_vec_as::<f32>().expect("f32 readback of log-probabilities");
        let values = values.into_data().try_into_vec_as::<f32>().expect("f32 readback of values");
        Ok((logp, values))
    }

    /// Chooses an action per row and reports its log-probability and the row's value.
    ///
    /// With [`ActionSelection::Sample`] one uniform number per row is drawn from `rng`, in row
    /// order, so results are reproducible for a seeded RNG. An illegal action is never returned.
    pub fn evaluate_batch<R: Rng + ?Sized>(
        &self,
        obs: &[f32],
        masks: &[bool],
        n: usize,
        selection: ActionSelection,
        rng: &mut R,
    ) -> Result<ActBatch, PolicyError> {
        let (logp, values) = self.log_probs_and_values(obs, masks, n)?;
        let a = self.num_actions();
        let mut actions = Vec::with_capacity(n);
        let mut log_probs = Vec::with_capacity(n);
        let mut probs = vec![0.0f32; a];
        for (row, (lp, m)) in logp.chunks(a).zip(masks.chunks(a)).enumerate() {
            let action = match selection {
                ActionSelection::Greedy => argmax_masked(lp, m),
                ActionSelection::Sample => {
                    for (p, &l) in probs.iter_mut().zip(lp) {
                        *p = l.exp();
                    }
                    let u: f32 = rng.random();
                    // Fall back to greedy if every legal probability underflowed to zero.
                    sample_masked(&probs, m, u).or_else(|| argmax_masked(lp, m))
                }
            }
            .ok_or(PolicyError::NoLegalAction { row })?;
            actions.push(action);
            log_probs.push(lp[action]);
        }
        Ok(ActBatch { actions, log_probs, values })
    }

    /// Chooses one legal action per row (see [`Policy::evaluate_batch`]).
    pub fn act_batch<R: Rng + ?Sized>(
        &self,
        obs: &[f32],
        masks: &[bool],
        n: usize,
        selection: ActionSelection,
        rng: &mut R,
    ) -> Result<Vec<usize>, PolicyError> {
        Ok(self.evaluate_batch(obs, masks, n, selection, rng)?.actions)
    }

    /// Critic values of `n` observation rows (only the critic path is run).
    pub fn value_batch(&self, obs: &[f32], n: usize) -> Result<Vec<f32>, PolicyError> {
        let obs = self.obs_tensor(obs, n)?;
        Ok(self.model.value(obs).into_data().try_into_vec_as::<f32>().expect("f32 readback of values"))
    }
}
