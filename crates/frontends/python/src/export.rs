//! `export_bundle`: weights trained in Python (a `policy.safetensors`-layout file) as an export
//! bundle of any registered game, so a PyTorch policy plays in the arena and loads with
//! `agent("DIR", game=...)` like any `sabacc export` bundle.

use crate::args;
use crate::errors::guard;
use crate::games::game_arg;
use crate::per_game;
use env::{Game, GameConfig};
use policy::export::{Formats, WeightsSource, export_weights};
use policy::{Activation, PolicyConfig};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::path::Path;

/// What a bundle is written from ([`export_bundle`]'s arguments, checked but for the rules).
pub struct ExportJob<'a, 'py> {
    weights: &'a str,
    out: &'a str,
    /// The network; its input and output sizes are filled in from the game.
    network: PolicyConfig,
    num_players: Option<i64>,
    rules: Option<&'a Bound<'py, PyAny>>,
    reward: Option<&'a str>,
    training_step: u64,
    seed: u64,
    force: bool,
}

/// Writes the bundle folder `out` from `weights` (safetensors with the names and `[out, in]`
/// shapes of `docs/export.md`: `actor_trunk.I`, `critic_trunk.I`, `policy_head`, `value_head`)
/// for a network of `hidden` widths and `activation`, trained at tables of `num_players`
/// (default: the game's default table) under `rules` with `reward` (default: the game's),
/// playing `game` (the network's input and output sizes and the contract are that game's).
/// Returns the written files as `(name, bytes)`.
#[pyfunction]
#[pyo3(signature = (weights, out, hidden=vec![256, 256], activation="relu", shared_trunk=false,
                    num_players=None, rules=None, reward=None, training_step=0, seed=None, force=false,
                    game="kessel"))]
#[allow(clippy::too_many_arguments)]
pub fn export_bundle(
    py: Python<'_>,
    weights: &str,
    out: &str,
    hidden: Vec<usize>,
    activation: &str,
    shared_trunk: bool,
    num_players: Option<i64>,
    rules: Option<&Bound<'_, PyAny>>,
    reward: Option<&str>,
    training_step: u64,
    seed: Option<&Bound<'_, PyAny>>,
    force: bool,
    game: &str,
) -> PyResult<Vec<(String, u64)>> {
    let game = game_arg(game)?;
    let activation = match activation {
        "relu" => Activation::Relu,
        "tanh" => Activation::Tanh,
        other => {
            return Err(PyValueError::new_err(format!("activation must be 'relu' or 'tanh', got {other:?}")));
        }
    };
    let seed = args::opt_seed(seed, "seed")?.unwrap_or(0);
    let network = PolicyConfig { obs_dim: 0, num_actions: 0, hidden, activation, shared_trunk };
    let job = ExportJob { weights, out, network, num_players, rules, reward, training_step, seed, force };
    per_game(game).export(py, job)
}

/// [`export_bundle`] for game `G`, with the GIL released while the bundle is written.
pub fn export<G: Game>(py: Python<'_>, job: ExportJob<'_, '_>) -> PyResult<Vec<(String, u64)>> {
    let network = PolicyConfig { obs_dim: G::SPEC.obs_len, num_actions: G::SPEC.num_actions, ..job.network };
    network.validate().map_err(|e| PyValueError::new_err(e.to_string()))?;
    let env_config = GameConfig::<G> {
        rules: args::rules::<G>(job.rules, job.num_players)?,
        reward: args::reward(job.reward, G::DEFAULT_REWARD)?,
        event_log: false,
    };
    let source = WeightsSource { network, env_config, training_step: job.training_step, seed: job.seed };
    let (weights, out, force) = (job.weights, job.out, job.force);
    let summary = guard(|| {
        py.detach(|| export_weights(Path::new(weights), &source, Path::new(out), Formats::default(), force))
            .map_err(|e| PyValueError::new_err(e.to_string()))
    })?;
    Ok(summary.files)
}
