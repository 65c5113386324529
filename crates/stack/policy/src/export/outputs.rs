//! The exported graph's computation on the Rust side: masked logits, probabilities and value
//! for a batch, with every input checked. Reference vectors and loaded bundles both use it,
//! so what `reference.json` records is exactly what a loaded bundle computes.

use burn::tensor::activation::softmax;
use burn::tensor::{Bool, Tensor, TensorData};
use serde::{Deserialize, Serialize};

use super::error::ExportError;
use crate::dist::masked_logits;
use crate::inference::Policy;

/// The three outputs of `policy.onnx` for `rows` rows, row-major.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PolicyOutputs {
    /// Masked logits, `rows * num_actions`.
    pub logits: Vec<f32>,
    /// Probabilities (exactly 0 on illegal actions), `rows * num_actions`.
    pub probs: Vec<f32>,
    /// Values, `rows`.
    pub value: Vec<f32>,
}

/// Runs `policy` on `rows` observation rows and masks (`true` = legal), refusing a wrong
/// length, an empty batch, a non-finite observation or a row without a legal action.
pub fn policy_outputs(policy: &Policy, obs: &[f32], mask: &[bool], rows: usize) -> Result<PolicyOutputs, ExportError> {
    let obs_len = policy.obs_dim();
    let num_actions = policy.num_actions();
    if rows == 0 {
        return Err(ExportError::EmptyBatch);
    }
    if obs.len() != rows * obs_len {
        return Err(ExportError::ObsLength { got: obs.len(), rows, obs_len });
    }
    if mask.len() != rows * num_actions {
        return Err(ExportError::MaskLength { got: mask.len(), rows, num_actions });
    }
    if let Some(i) = obs.iter().position(|v| !v.is_finite()) {
        return Err(ExportError::NonFiniteObs { row: i / obs_len, index: i % obs_len, value: obs[i] });
    }
    if let Some(row) = mask.chunks(num_actions).position(|r| !r.iter().any(|&m| m)) {
        return Err(ExportError::NoLegalAction { row });
    }
    let device = policy.device();
    let x = Tensor::<2>::from_data(TensorData::new(obs.to_vec(), [rows, obs_len]), device);
    let m = Tensor::<2, Bool>::from_data(TensorData::new(mask.to_vec(), [rows, num_actions]), device);
    let (logits, value) = policy.model().forward(x);
    let logits = masked_logits(logits, m);
    let probs = softmax(logits.clone(), 1);
    let read = |t: Tensor<2>| t.into_data().try_into_vec_as::<f32>().expect("f32 readback");
    Ok(PolicyOutputs {
        logits: read(logits),
        probs: read(probs),
        value: value.into_data().try_into_vec_as::<f32>().expect("f32 readback"),
    })
}
