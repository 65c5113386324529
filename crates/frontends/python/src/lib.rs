//! The native half of the `kessel_sabacc` Python package (`kessel_sabacc._native`).
//!
//! The Python half (`python/kessel_sabacc`) builds the PettingZoo, Gymnasium and vector-env
//! APIs on the classes here, one of each for every registered game (`game="kessel"`,
//! `"classic"`, …):
//! * [`game::Game`]: one game, agent–environment cycle, over the object-safe [`::game::DynGame`];
//! * [`vector::VecEnv`]: `N` self-play games stepped in Rust ([`env::VecEnv`]), its buffers shared
//!   with numpy without copies;
//! * [`single::VecSingle`]: `N` learner-versus-agents games ([`env::SingleAgentEnv`]) stepped in
//!   Rust, for Gymnasium's single-agent and vector APIs;
//! * [`agents::Agent`], [`arena::arena`]: agent specs (bots, checkpoints, bundles) and the arena;
//! * [`games::games`], [`games::game_info`], [`games::observation_bounds`]: what each registered
//!   game is (ids, sizes, action names, bounds), so the Python half names no game;
//! * [`tokens::token_values`]: the token-value study (Kessel's Shift Tokens), whole or in shards;
//! * [`export::export_bundle`]: weights trained in Python as an export bundle.
//!
//! Code that must run monomorphised over the game is reached through one table built from the
//! registry ([`per_game`]); a newly registered game needs no change here.
//!
//! Every entry point checks its arguments and raises `ValueError`/`TypeError` with the argument's
//! name; [`errors::guard`] turns any panic that slips through into a `RuntimeError` instead of
//! letting it unwind into the interpreter.

use pyo3::prelude::*;

pub mod agents;
pub mod arena;
pub mod args;
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
    m.add("MAX_PLAYERS", ::game::MAX_PLAYERS)?;
    m.add_class::<game::Game>()?;
    m.add_class::<games::GameInfo>()?;
    m.add_class::<vector::VecEnv>()?;
    m.add_class::<single::VecSingle>()?;
    m.add_class::<agents::Agent>()?;
    m.add_function(wrap_pyfunction!(games::games, m)?)?;
    m.add_function(wrap_pyfunction!(games::game_info, m)?)?;
    m.add_function(wrap_pyfunction!(games::observation_bounds, m)?)?;
    m.add_function(wrap_pyfunction!(games::action_names, m)?)?;
    m.add_function(wrap_pyfunction!(vector::episode_seed, m)?)?;
    m.add_function(wrap_pyfunction!(agents::agent_names, m)?)?;
    m.add_function(wrap_pyfunction!(arena::arena, m)?)?;
    m.add_function(wrap_pyfunction!(arena::arena_shard, m)?)?;
    m.add_function(wrap_pyfunction!(arena::arena_deals, m)?)?;
    m.add_function(wrap_pyfunction!(arena::arena_merge, m)?)?;
    m.add_function(wrap_pyfunction!(tokens::token_values, m)?)?;
    m.add_function(wrap_pyfunction!(tokens::token_values_shard, m)?)?;
    m.add_function(wrap_pyfunction!(tokens::token_values_merge, m)?)?;
    m.add_function(wrap_pyfunction!(export::export_bundle, m)?)?;
    m.add_function(wrap_pyfunction!(shipped::resolve_spec, m)?)?;
    m.add_function(wrap_pyfunction!(shipped::shipped_roots, m)?)?;
    Ok(())
}

// The bindings' one dispatch from a game chosen at run time (a `game=` argument, a game or
// vector env's game, an agent's game) to code generic over the game: [`PerGame`] has one method
// per job that must run monomorphised (building envs and agents, acting, the arena, export), and
// [`per_game`] looks a game's entry up in a table built from the registry's one list of games
// (`games::registered!`). A newly registered game gets its entry without a change here.

use crate::agents::Built;
use crate::arena::Tournament;
use crate::export::ExportJob;
use crate::games::GameInfo;
use crate::single::{LearnerSettings, Learners};
use crate::vector::{VecSettings, Vectorised};
use ::game::{AgentRng, DynGame, Game, GameError};
use ::games::GameId;
use std::marker::PhantomData;
use std::ops::Range;

/// The jobs of the bindings that run generic over the game, for one game.
pub trait PerGame: Sync {
    /// What Python needs to know of the game.
    fn info(&self) -> GameInfo;
    /// A new game under `rules` at `num_players` seats, dealt from seed 0.
    fn new_game(&self, rules: Option<&Bound<'_, PyAny>>, num_players: Option<i64>) -> PyResult<Box<dyn DynGame>>;
    /// A new game under `game`'s rules, dealt from `seed`.
    fn redeal(&self, game: &dyn DynGame, seed: u64) -> Result<Box<dyn DynGame>, GameError>;
    /// A self-play vector env.
    fn vec_env(&self, settings: VecSettings<'_, '_>) -> PyResult<Box<dyn Vectorised>>;
    /// Learner-versus-agents games.
    fn learners(&self, settings: LearnerSettings<'_, '_>) -> PyResult<Box<dyn Learners>>;
    /// The agent `spec` names.
    fn agent(&self, spec: &str) -> PyResult<Built>;
    /// `agent`'s action for the seat to act in `game`.
    fn act_game(&self, agent: &mut Built, spec: &str, game: &dyn DynGame, rng: &mut AgentRng) -> PyResult<usize>;
    /// `agent`'s actions for the seat to act in every row of `vec_env`.
    fn act_vec(
        &self,
        agent: &mut Built,
        spec: &str,
        vec_env: &dyn Vectorised,
        rng: &mut AgentRng,
    ) -> PyResult<Vec<usize>>;
    /// A tournament's report, or with `deals` only those deals' shard, as JSON text.
    fn arena(
        &self,
        py: Python<'_>,
        tournament: Tournament<'_, '_>,
        num_threads: Option<usize>,
        deals: Option<Range<u64>>,
    ) -> PyResult<String>;
    /// The report of a tournament's merged shards, as JSON text.
    fn arena_merge(&self, shards: Vec<String>, tournament: Tournament<'_, '_>) -> PyResult<String>;
    /// Writes an export bundle; the files written with their sizes.
    fn export(&self, py: Python<'_>, job: ExportJob<'_, '_>) -> PyResult<Vec<(String, u64)>>;
}

/// The jobs for game `G`.
struct For<G>(PhantomData<fn() -> G>);

impl<G> For<G> {
    const NEW: For<G> = For(PhantomData);
}

impl<G: Game> PerGame for For<G> {
    fn info(&self) -> GameInfo {
        games::info::<G>()
    }
    fn new_game(&self, rules: Option<&Bound<'_, PyAny>>, num_players: Option<i64>) -> PyResult<Box<dyn DynGame>> {
        crate::game::new_game::<G>(rules, num_players)
    }
    fn redeal(&self, game: &dyn DynGame, seed: u64) -> Result<Box<dyn DynGame>, GameError> {
        crate::game::redeal::<G>(game, seed)
    }
    fn vec_env(&self, settings: VecSettings<'_, '_>) -> PyResult<Box<dyn Vectorised>> {
        vector::vectorised::<G>(settings)
    }
    fn learners(&self, settings: LearnerSettings<'_, '_>) -> PyResult<Box<dyn Learners>> {
        single::learners::<G>(settings)
    }
    fn agent(&self, spec: &str) -> PyResult<Built> {
        agents::build::<G>(spec)
    }
    fn act_game(&self, agent: &mut Built, spec: &str, game: &dyn DynGame, rng: &mut AgentRng) -> PyResult<usize> {
        agents::act_game::<G>(agent, spec, game, rng)
    }
    fn act_vec(
        &self,
        agent: &mut Built,
        spec: &str,
        vec_env: &dyn Vectorised,
        rng: &mut AgentRng,
    ) -> PyResult<Vec<usize>> {
        agents::act_vec::<G>(agent, spec, vec_env, rng)
    }
    fn arena(
        &self,
        py: Python<'_>,
        tournament: Tournament<'_, '_>,
        num_threads: Option<usize>,
        deals: Option<Range<u64>>,
    ) -> PyResult<String> {
        arena::play::<G>(py, tournament, num_threads, deals)
    }
    fn arena_merge(&self, shards: Vec<String>, tournament: Tournament<'_, '_>) -> PyResult<String> {
        arena::merge::<G>(shards, tournament)
    }
    fn export(&self, py: Python<'_>, job: ExportJob<'_, '_>) -> PyResult<Vec<(String, u64)>> {
        export::export::<G>(py, job)
    }
}

macro_rules! tables {
    ($($g:ty),* $(,)?) => {
        [$(&For::<$g>::NEW as &'static dyn PerGame),*]
    };
}

/// Every registered game's jobs, in the registry's order.
static TABLE: &[&'static dyn PerGame] = &::games::registered!(tables);

/// The jobs of `game`.
pub fn per_game(game: GameId) -> &'static dyn PerGame {
    // Built from the registry's list in its order, and a `GameId` names an entry of that list.
    TABLE[GameId::all().position(|g| g == game).expect("every GameId is registered")]
}
