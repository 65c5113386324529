//! `export_bundle`: weights trained in Python (a `policy.safetensors`-layout file) as an export
//! bundle, so a PyTorch policy plays in the arena and loads with `agent("DIR")` like any
//! `sabacc export` bundle.

use crate::args;
use crate::errors::guard;
use env::EnvConfig;
use policy::export::{Formats, WeightsSource, export_weights};
use policy::{Activation, PolicyConfig};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::path::Path;

/// Writes the bundle folder `out` from `weights` (safetensors with the names and `[out, in]`
/// shapes of `docs/export.md`: `actor_trunk.I`, `critic_trunk.I`, `policy_head`, `value_head`)
/// for a network of `hidden` widths and `activation`, trained at tables of `num_players` under
/// `rules` with `reward`. Returns the written files as `{name: bytes}`.
#[pyfunction]
#[pyo3(signature = (weights, out, hidden=vec![256, 256], activation="relu", shared_trunk=false,
                    num_players=4, rules=None, reward="win-loss", training_step=0, seed=None, force=false))]
#[allow(clippy::too_many_arguments)]
pub fn export_bundle(
    py: Python<'_>,
    weights: &str,
    out: &str,
    hidden: Vec<usize>,
    activation: &str,
    shared_trunk: bool,
    num_players: i64,
    rules: Option<&Bound<'_, PyAny>>,
    reward: &str,
    training_step: u64,
    seed: Option<&Bound<'_, PyAny>>,
    force: bool,
) -> PyResult<Vec<(String, u64)>> {
    let activation = match activation {
        "relu" => Activation::Relu,
        "tanh" => Activation::Tanh,
        other => {
            return Err(PyValueError::new_err(format!("activation must be 'relu' or 'tanh', got {other:?}")));
        }
    };
    let network = PolicyConfig {
        hidden,
        activation,
        shared_trunk,
        ..PolicyConfig::new(crate::SPEC.obs_len, crate::SPEC.num_actions)
    };
    network.validate().map_err(|e| PyValueError::new_err(e.to_string()))?;
    let env_config =
        EnvConfig { rules: args::rules(rules, num_players)?, reward: args::reward(reward)?, event_log: false };
    let source = WeightsSource { network, env_config, training_step, seed: args::opt_seed(seed, "seed")?.unwrap_or(0) };
    let summary = guard(|| {
        py.detach(|| export_weights(Path::new(weights), &source, Path::new(out), Formats::default(), force))
            .map_err(|e| PyValueError::new_err(e.to_string()))
    })?;
    Ok(summary.files)
}
