//! `export_bundle`: weights trained in Python (a `policy.safetensors`-layout file) as an export
//! bundle, so a PyTorch policy plays in the arena and loads with `agent("DIR")` like any
//! `sabacc export` bundle.

use crate::args;
use crate::dispatch::{ForPyGame, Registered, for_py_game};
use crate::errors::guard;
use crate::games::game_arg;
use env::GameConfig;
use policy::export::{Formats, WeightsSource, export_weights};
use policy::{Activation, PolicyConfig};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::path::Path;

/// Writes the bundle folder `out` from `weights` (safetensors with the names and `[out, in]`
/// shapes of `docs/export.md`: `actor_trunk.I`, `critic_trunk.I`, `policy_head`, `value_head`)
/// for a network of `hidden` widths and `activation`, trained at tables of `num_players` under
/// `rules` with `reward`, playing `game` (`"kessel"` or `"classic"`: the network's input and
/// output sizes and the contract are that game's). Returns the written files as `{name: bytes}`.
#[pyfunction]
#[pyo3(signature = (weights, out, hidden=vec![256, 256], activation="relu", shared_trunk=false,
                    num_players=4, rules=None, reward="win-loss", training_step=0, seed=None, force=false,
                    game="kessel"))]
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
    let reward = args::reward(reward)?;
    struct Export<'a, 'py> {
        py: Python<'py>,
        paths: (&'a str, &'a str),
        network: PolicyConfig,
        num_players: i64,
        rules: Option<&'a Bound<'py, PyAny>>,
        reward: env::RewardMode,
        training_step: u64,
        seed: u64,
        force: bool,
    }
    impl ForPyGame for Export<'_, '_> {
        type Out = PyResult<Vec<(String, u64)>>;
        fn run<G: Registered>(self) -> Self::Out {
            let network = PolicyConfig { obs_dim: G::SPEC.obs_len, num_actions: G::SPEC.num_actions, ..self.network };
            network.validate().map_err(|e| PyValueError::new_err(e.to_string()))?;
            let env_config = GameConfig::<G> {
                rules: args::rules_for::<G>(self.rules, self.num_players)?,
                reward: self.reward,
                event_log: false,
            };
            let source = WeightsSource { network, env_config, training_step: self.training_step, seed: self.seed };
            let (weights, out) = self.paths;
            let summary = guard(|| {
                self.py
                    .detach(|| {
                        export_weights(Path::new(weights), &source, Path::new(out), Formats::default(), self.force)
                    })
                    .map_err(|e| PyValueError::new_err(e.to_string()))
            })?;
            Ok(summary.files)
        }
    }
    // The game's sizes are filled in once the game is known.
    let network = PolicyConfig { obs_dim: 0, num_actions: 0, hidden, activation, shared_trunk };
    for_py_game(
        game,
        Export { py, paths: (weights, out), network, num_players, rules, reward, training_step, seed, force },
    )
}
