//! The native half of the `kessel_sabacc` Python package (`kessel_sabacc._native`).
//!
//! The Python half (`python/kessel_sabacc`) builds the PettingZoo, Gymnasium and vector-env
//! APIs on the classes here:
//! * [`game::Game`]: one game, agent–environment cycle ([`env::SabaccEnv`]);
//!   [`game::ClassicGame`]: the same for classic Sabacc ([`env::ClassicEnv`]);
//! * [`vector::VecEnv`]: `N` self-play games stepped in Rust ([`env::VecEnv`]), its buffers shared
//!   with numpy without copies;
//! * [`single::VecSingle`]: `N` learner-versus-agents games ([`env::SingleAgentEnv`]) stepped in
//!   Rust, for Gymnasium's single-agent and vector APIs; [`single::ClassicVecSingle`]: the same
//!   for classic Sabacc;
//! * [`agents::Agent`], [`agents::arena`]: agent specs (bots, checkpoints, bundles) and the arena;
//! * [`tokens::token_values`]: the token-value study, whole or in shards of deals;
//! * [`export::export_bundle`]: weights trained in Python as an export bundle.
//!
//! What differs between the games (rules, rendering, agents, observation bounds) is behind
//! [`games::PyGame`]; the classes of both games wrap the same generic code.
//!
//! Every entry point checks its arguments and raises `ValueError`/`TypeError` with the argument's
//! name; [`errors::guard`] turns any panic that slips through into a `RuntimeError` instead of
//! letting it unwind into the interpreter.

use pyo3::prelude::*;

/// The sizes of the env's observations and actions, read from its spec.
pub(crate) const SPEC: env::EnvSpec = env::EnvSpec::KESSEL;

pub mod agents;
pub mod args;
pub mod dispatch;
pub mod errors;
pub mod export;
pub mod game;
pub mod games;
pub mod shipped;
pub mod single;
pub mod tokens;
pub mod vector;

/// The module object, `kessel_sabacc._native`.
#[pymodule]
#[pyo3(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("OBS_LEN", crate::SPEC.obs_len)?;
    m.add("OBS_VERSION", env::OBS_VERSION)?;
    m.add("NUM_ACTIONS", crate::SPEC.num_actions)?;
    m.add("MAX_PLAYERS", env::MAX_PLAYERS)?;
    m.add("ENV_ID", env::ENV_ID)?;
    let classic = env::EnvSpec::CLASSIC;
    m.add("CLASSIC_ENV_ID", classic.id)?;
    m.add("CLASSIC_OBS_LEN", classic.obs_len)?;
    m.add("CLASSIC_OBS_VERSION", classic.obs_version)?;
    m.add("CLASSIC_NUM_ACTIONS", classic.num_actions)?;
    m.add_class::<game::Game>()?;
    m.add_class::<game::ClassicGame>()?;
    m.add_class::<vector::VecEnv>()?;
    m.add_class::<single::VecSingle>()?;
    m.add_class::<single::ClassicVecSingle>()?;
    m.add_class::<agents::Agent>()?;
    m.add_function(wrap_pyfunction!(agents::arena, m)?)?;
    m.add_function(wrap_pyfunction!(agents::arena_shard, m)?)?;
    m.add_function(wrap_pyfunction!(agents::arena_deals, m)?)?;
    m.add_function(wrap_pyfunction!(agents::arena_merge, m)?)?;
    m.add_function(wrap_pyfunction!(tokens::token_values, m)?)?;
    m.add_function(wrap_pyfunction!(tokens::token_values_shard, m)?)?;
    m.add_function(wrap_pyfunction!(tokens::token_values_merge, m)?)?;
    m.add_function(wrap_pyfunction!(agents::agent_names, m)?)?;
    m.add_function(wrap_pyfunction!(export::export_bundle, m)?)?;
    m.add_function(wrap_pyfunction!(shipped::resolve_spec, m)?)?;
    m.add_function(wrap_pyfunction!(shipped::shipped_roots, m)?)?;
    m.add_function(wrap_pyfunction!(args::action_names, m)?)?;
    m.add_function(wrap_pyfunction!(args::episode_seed, m)?)?;
    m.add_function(wrap_pyfunction!(args::observation_high, m)?)?;
    m.add_function(wrap_pyfunction!(args::classic_action_names, m)?)?;
    m.add_function(wrap_pyfunction!(args::classic_observation_low, m)?)?;
    m.add_function(wrap_pyfunction!(args::classic_observation_high, m)?)?;
    Ok(())
}
