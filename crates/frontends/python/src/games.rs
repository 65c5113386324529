//! The registered games as Python sees them: their ids ([`games`]), what a front-end needs to
//! know of each ([`game_info`], [`observation_bounds`], [`action_names`]), and the checking of
//! a `game=` argument and a table size. Everything comes from the registry (`games::GameId`)
//! and the games' own constants, so a newly registered game needs no change here.

use crate::per_game;
use ::games::GameId;
use game::Game;
use numpy::PyArray1;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The game a `game=` argument names (a short id such as `"kessel"`, or an environment id such as
/// `"kessel_sabacc_v1"`), or a `ValueError` listing the registered games.
pub fn game_arg(name: &str) -> PyResult<GameId> {
    GameId::parse(name).map_err(|e| PyValueError::new_err(format!("game: {e}")))
}

/// `num_players` as a table size of a game seating `seats.0..=seats.1`, or a `ValueError` naming
/// the range.
pub fn table_size(seats: (u8, u8), num_players: i64) -> PyResult<u8> {
    let (min, max) = seats;
    if !(i64::from(min)..=i64::from(max)).contains(&num_players) {
        return Err(PyValueError::new_err(format!("num_players must be in {min}..={max}, got {num_players}")));
    }
    Ok(num_players as u8)
}

/// What a front-end needs to know of one registered game before playing it: its ids, the sizes
/// of its observations and actions, its table sizes and defaults.
#[pyclass(module = "kessel_sabacc._native", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct GameInfo {
    /// The short id (`kessel`), what `game=` takes.
    pub id: String,
    /// The name for people (`Kessel Sabacc`).
    pub name: String,
    /// The versioned environment id (`kessel_sabacc_v1`): PettingZoo's `metadata["name"]`, an
    /// export bundle's `env_id`.
    pub env_id: String,
    /// Version of the observation layout.
    pub obs_version: u32,
    /// Floats per observation.
    pub obs_len: usize,
    /// Size of the flat action space, and of every mask.
    pub num_actions: usize,
    /// Length of per-seat arrays such as a vector env's rewards.
    pub max_players: usize,
    /// The smallest and largest table.
    pub seats: (u8, u8),
    /// The table size of the default rules.
    pub default_players: u8,
    /// The reward convention used when none is given (`win-loss`).
    pub default_reward: String,
    /// The bot a table seats when no opponent is named (`expert`).
    pub default_opponent: String,
    /// What the game counts its progress in (`rounds`, `hands`).
    pub progress: String,
    /// The documented name of every action, by index.
    pub action_names: Vec<String>,
}

#[pymethods]
impl GameInfo {
    fn __repr__(&self) -> String {
        format!(
            "GameInfo(id={:?}, env_id={:?}, obs_len={}, num_actions={}, seats={:?})",
            self.id, self.env_id, self.obs_len, self.num_actions, self.seats
        )
    }
}

/// Game `G`'s [`GameInfo`].
pub fn info<G: Game>() -> GameInfo {
    GameInfo {
        id: G::SPEC.game.into(),
        name: G::NAME.into(),
        env_id: G::SPEC.id.into(),
        obs_version: G::SPEC.obs_version,
        obs_len: G::SPEC.obs_len,
        num_actions: G::SPEC.num_actions,
        max_players: G::SPEC.max_players,
        seats: G::SEATS,
        default_players: G::players(&G::Rules::default()),
        default_reward: G::DEFAULT_REWARD.name().into(),
        default_opponent: G::DEFAULT_OPPONENT.into(),
        progress: G::PROGRESS.into(),
        action_names: (0..G::SPEC.num_actions).map(|i| G::action_name(i).to_string()).collect(),
    }
}

/// The short ids of the registered games, the default game (`kessel`) first.
#[pyfunction]
pub fn games() -> Vec<&'static str> {
    GameId::names()
}

/// What a front-end needs to know of `game` (a short id or an environment id).
#[pyfunction]
pub fn game_info(game: &str) -> PyResult<GameInfo> {
    Ok(per_game(game_arg(game)?).info())
}

/// The lower and upper bounds of every observation value, as numpy arrays.
type Bounds<'py> = (Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<f32>>);

/// The lower and upper bound of every observation value of `game` at a table of `num_players`
/// (float32 arrays of `obs_len` values): the `Box` Gymnasium and PettingZoo declare.
#[pyfunction]
pub fn observation_bounds<'py>(py: Python<'py>, game: &str, num_players: i64) -> PyResult<Bounds<'py>> {
    let game = game_arg(game)?.game_type();
    let (low, high) = game.observation_bounds(table_size(game.seats(), num_players)?);
    Ok((PyArray1::from_vec(py, low), PyArray1::from_vec(py, high)))
}

/// The documented name of every action index of `game` (`stand`, `draw:sand-deck`, … for
/// Kessel; `check`, `bet:1`, … for classic Sabacc).
#[pyfunction]
#[pyo3(signature = (game="kessel"))]
pub fn action_names(game: &str) -> PyResult<Vec<&'static str>> {
    Ok(game_arg(game)?.game_type().action_names())
}
