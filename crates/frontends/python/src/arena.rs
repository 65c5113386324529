//! The arena from Python: a tournament among agent specs of any registered game (seat rotation,
//! duplicate deals, as `sabacc eval`), whole or in shards of its deals merged afterwards, the
//! report returned as JSON text. The GIL is released while the games are played.

use crate::agents::{factory, spec_error};
use crate::args;
use crate::errors::guard;
use crate::games::{game_arg, table_size};
use crate::per_game;
use crate::vector::build_pool;
use eval::arena::{ArenaConfig, SeatingPlan};
use game::{AgentBuilder, Game};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::ops::Range;

/// The arguments that say which tournament is played ([`arena`], [`arena_shard`],
/// [`arena_merge`]).
pub struct Tournament<'a, 'py> {
    agents: Vec<String>,
    players: Option<i64>,
    games: u64,
    seed: Option<&'a Bound<'py, PyAny>>,
    rules: Option<&'a Bound<'py, PyAny>>,
}

/// Plays a tournament among agent specs of `game` (seat rotation, duplicate deals, as
/// `sabacc eval`) and returns the report (the same fields as `report.json`) as a JSON string.
#[pyfunction]
#[pyo3(signature = (agents, players=None, games=240, seed=None, rules=None, num_threads=None, game="kessel"))]
#[allow(clippy::too_many_arguments)]
pub fn arena(
    py: Python<'_>,
    agents: Vec<String>,
    players: Option<i64>,
    games: u64,
    seed: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
    num_threads: Option<usize>,
    game: &str,
) -> PyResult<String> {
    let tournament = Tournament { agents, players, games, seed, rules };
    per_game(game_arg(game)?).arena(py, tournament, num_threads, None)
}

/// Plays the deals `deals = (start, end)` of the tournament [`arena`] would play with the same
/// arguments and returns that shard's games as JSON text (for [`arena_merge`]): the pieces of
/// one tournament spread over processes or machines.
#[pyfunction]
#[pyo3(signature = (agents, deals, players=None, games=240, seed=None, rules=None, num_threads=None, game="kessel"))]
#[allow(clippy::too_many_arguments)]
pub fn arena_shard(
    py: Python<'_>,
    agents: Vec<String>,
    deals: (u64, u64),
    players: Option<i64>,
    games: u64,
    seed: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
    num_threads: Option<usize>,
    game: &str,
) -> PyResult<String> {
    if deals.0 > deals.1 {
        return Err(PyValueError::new_err(format!("deals: ({}, {}) is reversed; give (start, end)", deals.0, deals.1)));
    }
    let tournament = Tournament { agents, players, games, seed, rules };
    per_game(game_arg(game)?).arena(py, tournament, num_threads, Some(deals.0..deals.1))
}

/// The number of deals of a tournament of `games` games at `players` seats of `game` (games
/// rounded up to whole deals, each deal played under every seating): the range [`arena_shard`]
/// partitions.
#[pyfunction]
#[pyo3(signature = (players, games, game="kessel"))]
pub fn arena_deals(players: i64, games: u64, game: &str) -> PyResult<u64> {
    let seats = game_arg(game)?.game_type().seats();
    let players = table_size(seats, players).map_err(|_| {
        PyValueError::new_err(format!("players: {players} is out of range; a table seats {} to {}", seats.0, seats.1))
    })?;
    if games == 0 {
        return Err(PyValueError::new_err("games must be at least 1"));
    }
    Ok(eval::arena::games_played(games, players, SeatingPlan::Every)
        / eval::arena::seatings(usize::from(players)).len() as u64)
}

/// Merges the shards ([`arena_shard`] JSON texts, in any order) of the tournament the other
/// arguments describe into its report, equal to [`arena`]'s when the shards cover every deal
/// once.
#[pyfunction]
#[pyo3(signature = (shards, agents, players=None, games=240, seed=None, rules=None, game="kessel"))]
#[allow(clippy::too_many_arguments)]
pub fn arena_merge(
    shards: Vec<String>,
    agents: Vec<String>,
    players: Option<i64>,
    games: u64,
    seed: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
    game: &str,
) -> PyResult<String> {
    per_game(game_arg(game)?).arena_merge(shards, Tournament { agents, players, games, seed, rules })
}

/// The tournament's config from [`arena`]'s arguments, checked.
fn config<G: Game>(t: Tournament<'_, '_>) -> PyResult<ArenaConfig<G>> {
    let Tournament { agents, players, games, seed, rules } = t;
    if agents.is_empty() {
        return Err(PyValueError::new_err("agents must list at least one agent spec"));
    }
    if games == 0 {
        return Err(PyValueError::new_err("games must be at least 1"));
    }
    let players = players.unwrap_or(agents.len().max(usize::from(G::SEATS.0)) as i64);
    let seed = args::opt_seed(seed, "seed")?.unwrap_or(0);
    let rules = args::rules::<G>(rules, Some(players))?;
    Ok(ArenaConfig::<G> { agents, players: G::players(&rules), games, seed, rules, seating: SeatingPlan::Every })
}

/// [`arena`] for game `G`; with `deals`, only those deals, returned as the shard's JSON.
pub fn play<G: Game>(
    py: Python<'_>,
    tournament: Tournament<'_, '_>,
    num_threads: Option<usize>,
    deals: Option<Range<u64>>,
) -> PyResult<String> {
    let cfg = config::<G>(tournament)?;
    let factory: &dyn AgentBuilder<G> = factory();
    for a in &cfg.agents {
        guard(|| factory.build(a).map(|_| ()).map_err(spec_error::<G>))?;
    }
    let pool = build_pool(num_threads)?;
    let whole = deals.is_none();
    let range = deals.unwrap_or(0..u64::MAX);
    let run = || eval::arena::run_deals(&cfg, factory, &|| {}, range.clone());
    let result = guard(|| {
        Ok(py.detach(|| match &pool {
            Some(p) => p.install(run),
            None => run(),
        }))
    })?
    .map_err(|e| PyValueError::new_err(e.to_string()))?;
    if whole { serde_json::to_string(&eval::report::build(&cfg, &result)) } else { serde_json::to_string(&result) }
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The report of the merged shards of game `G`'s tournament.
pub fn merge<G: Game>(shards: Vec<String>, tournament: Tournament<'_, '_>) -> PyResult<String> {
    let cfg = config::<G>(tournament)?;
    let parts = shards
        .iter()
        .enumerate()
        .map(|(i, s)| {
            serde_json::from_str::<eval::arena::ArenaResult>(s)
                .map_err(|e| PyValueError::new_err(format!("shards[{i}] is not an arena_shard result: {e}")))
        })
        .collect::<PyResult<Vec<_>>>()?;
    let merged = eval::arena::merge(parts).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let lineup = eval::arena::lineup(&cfg.agents, cfg.players).map_err(|e| PyValueError::new_err(e.to_string()))?;
    if merged.lineup != lineup {
        return Err(PyValueError::new_err("shards: they were played with other agents or seats than given here"));
    }
    let deals = eval::arena::deals_of(&cfg);
    if merged.deals != deals {
        return Err(PyValueError::new_err(format!(
            "shards: they cover {} of the tournament's {deals} deals; every deal must be in one shard",
            merged.deals
        )));
    }
    let report = eval::report::build(&cfg, &merged);
    serde_json::to_string(&report).map_err(|e| PyValueError::new_err(e.to_string()))
}
