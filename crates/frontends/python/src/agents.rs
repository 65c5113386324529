//! Agents from Python: every agent spec `sabacc eval` accepts (each game's bots, `search:N`,
//! guided search, checkpoint folders and export bundles, with `@argmax`/`@sample`, levels,
//! `mistakes:P+SPEC`), built by the `agents` crate so errors and the checkpoint cache are the
//! CLI's, and acting one game at a time or in batches. One `Agent` class serves every game: the
//! agent it holds is its game's, reached through the per-game table.

use crate::args;
use crate::errors::guard;
use crate::game::Game;
use crate::games::game_arg;
use crate::per_game;
use crate::vector::{VecEnv, Vectorised, random_legal};
use agents::AgentSpec;
use game::{AgentRng, DynGame, Game as GameTrait, GameAction, LegalMask, Played, Seat};
use games::GameId;
use numpy::{PyArray1, PyArrayMethods, PyUntypedArrayMethods};
use policy::{ActionSelection, Policy};
use pyo3::PyClass;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use rand::{Rng, SeedableRng};
use std::any::Any;
use std::sync::Mutex;

/// The one agent builder of the process: checkpoints are read once and shared.
pub fn factory() -> &'static agents::Agents {
    static AGENTS: std::sync::OnceLock<agents::Agents> = std::sync::OnceLock::new();
    AGENTS.get_or_init(agents::Agents::new)
}

/// A spec error as a `ValueError` that says which game's agents were asked for, since the
/// same spec (`expert`) names a different agent in each game.
pub fn spec_error<G: GameTrait>(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!("{}: {e}", G::NAME))
}

/// Game `G`'s agent `spec` names; an unknown spec is a `ValueError` listing what exists.
pub fn build_agent<G: GameTrait>(spec: &str) -> PyResult<Box<dyn env::Agent<G>>> {
    guard(|| factory().build::<G>(spec).map_err(spec_error::<G>))
}

/// How an agent chooses from an observation and a mask alone.
pub enum FromObs {
    /// Uniform over the legal actions.
    Random,
    /// A trained policy's masked distribution.
    Policy(Box<Policy>, ActionSelection),
    /// Needs the player's full view (heuristic and search bots).
    NeedsView,
}

/// An agent as the class holds it, whatever its game.
pub struct Built {
    /// A `Box<dyn env::Agent<G>>` for the game `G` it was built for.
    agent: Box<dyn Any + Send>,
    /// Its name in reports.
    name: String,
    /// How it acts from observations.
    from_obs: FromObs,
}

/// Game `G`'s agent `spec` names, with how it acts from observations.
pub fn build<G: GameTrait>(spec: &str) -> PyResult<Built> {
    let agent = build_agent::<G>(spec)?;
    let name = agent.name().to_string();
    let parsed = AgentSpec::parse::<G>(spec).map_err(spec_error::<G>)?;
    let policy = guard(|| factory().policy_agent::<G>(&parsed).map_err(spec_error::<G>))?;
    let from_obs = match policy {
        Some(p) => FromObs::Policy(Box::new(p.policy().clone()), p.selection()),
        None if matches!(parsed, AgentSpec::Bot { name: "random", .. }) => FromObs::Random,
        None => FromObs::NeedsView,
    };
    Ok(Built { agent: Box::new(agent), name, from_obs })
}

/// The agent of `built` as game `G`'s.
fn agent_of<G: GameTrait>(built: &mut Built) -> PyResult<&mut dyn env::Agent<G>> {
    let name = &built.name;
    match built.agent.downcast_mut::<Box<dyn env::Agent<G>>>() {
        Some(a) => Ok(a.as_mut()),
        None => Err(PyValueError::new_err(format!("agent `{name}` was not built for {}", G::NAME))),
    }
}

/// One RNG per decision, drawn from the agent's, so a batch is reproducible from its seed.
fn rngs(rng: &mut AgentRng, n: usize) -> Vec<AgentRng> {
    (0..n).map(|_| AgentRng::seed_from_u64(rng.next_u64())).collect()
}

/// Chooses with `agent` for every view, checking each choice against its mask.
fn act_views<G: GameTrait>(
    agent: &mut dyn env::Agent<G>,
    spec: &str,
    views: &[G::View],
    masks: &[G::Mask],
    rng: &mut AgentRng,
) -> PyResult<Vec<usize>> {
    let mut rngs = rngs(rng, views.len());
    let mut out = Vec::with_capacity(views.len());
    guard(|| agent.act_batch(views, masks, &mut rngs, &mut out).map_err(|e| PyValueError::new_err(e.to_string())))?;
    for (i, (a, m)) in out.iter().zip(masks).enumerate() {
        if !m.contains_index(a.index()) {
            return Err(PyValueError::new_err(format!(
                "agent `{spec}` chose the illegal action {} in row {i}",
                G::action_name(a.index())
            )));
        }
    }
    Ok(out.iter().map(|a| a.index()).collect())
}

/// `built`'s action for the seat to act in `game` (a game of `G`), from that seat's view.
pub fn act_game<G: GameTrait>(
    built: &mut Built,
    spec: &str,
    game: &dyn DynGame,
    rng: &mut AgentRng,
) -> PyResult<usize> {
    let played = game
        .as_any()
        .downcast_ref::<Played<G>>()
        .ok_or_else(|| PyValueError::new_err(format!("the game is not a game of {}", G::NAME)))?;
    let seat = G::current_player(&played.state).ok_or_else(|| PyValueError::new_err("the game is over; call reset"))?;
    let (view, mask) = (G::view(&played.state, seat), G::legal_mask(&played.state));
    Ok(act_views::<G>(agent_of::<G>(built)?, spec, &[view], &[mask], rng)?[0])
}

/// `built`'s actions for the seat to act in every row of `vec_env` (a vector env of `G`).
pub fn act_vec<G: GameTrait>(
    built: &mut Built,
    spec: &str,
    vec_env: &dyn Vectorised,
    rng: &mut AgentRng,
) -> PyResult<Vec<usize>> {
    let v = vec_env
        .as_any()
        .downcast_ref::<env::VecEnv<G>>()
        .ok_or_else(|| PyValueError::new_err(format!("the vector env does not play {}", G::NAME)))?;
    let n = v.num_envs();
    let views: Vec<G::View> = (0..n).map(|i| v.env(i).view(Seat(v.actors()[i]))).collect();
    let masks: Vec<G::Mask> = (0..n).map(|i| v.env(i).legal_mask()).collect();
    act_views::<G>(agent_of::<G>(built)?, spec, &views, &masks, rng)
}

/// An agent built from a spec. `act(obs, mask)` chooses for a batch of observations (random,
/// checkpoint and exported-bundle agents); `act_game(game)` and `act_vec(vec_env)` choose from
/// each acting seat's full view (every agent, bots included).
#[pyclass(module = "kessel_sabacc._native")]
pub struct Agent {
    spec: String,
    game: GameId,
    name: String,
    /// Behind a mutex only because agents and loaded policies need not be `Sync`; `&mut self`
    /// methods reach them without locking.
    inner: Mutex<Built>,
    rng: AgentRng,
}

fn poisoned() -> PyErr {
    PyValueError::new_err("agent poisoned by an earlier error")
}

impl Agent {
    fn wrong_game(&self, what: &str, other: GameId) -> PyErr {
        PyValueError::new_err(format!(
            "agent `{}` plays {} but {what} is {}; build the agent with game=\"{}\"",
            self.spec,
            self.game.name(),
            other.name(),
            other.name()
        ))
    }
}

#[pymethods]
impl Agent {
    /// The agent a spec names for `game` (a short id such as `"kessel"` or `"classic"`, or an
    /// environment id), its random choices drawn from `seed`.
    #[new]
    #[pyo3(signature = (spec, seed=None, game="kessel"))]
    fn new(spec: &str, seed: Option<&Bound<'_, PyAny>>, game: &str) -> PyResult<Self> {
        let seed = args::opt_seed(seed, "seed")?.unwrap_or(0);
        let game = game_arg(game)?;
        let built = per_game(game).agent(spec)?;
        Ok(Agent {
            spec: spec.to_string(),
            game,
            name: built.name.clone(),
            inner: Mutex::new(built),
            rng: AgentRng::seed_from_u64(seed),
        })
    }

    /// The spec this agent was built from.
    #[getter]
    fn spec(&self) -> &str {
        &self.spec
    }

    /// The game it plays: its short id (`"kessel"`, `"classic"`).
    #[getter]
    fn game(&self) -> &'static str {
        self.game.name()
    }

    /// The agent's name in reports.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// Whether `act(obs, mask)` works for this agent (random, checkpoint and bundle agents); bots
    /// need the player's view: use `act_game` or `act_vec`.
    #[getter]
    fn acts_from_obs(&self) -> PyResult<bool> {
        let built = self.inner.lock().map_err(|_| poisoned())?;
        Ok(!matches!(built.from_obs, FromObs::NeedsView))
    }

    /// Actions for a batch: `obs` float32 `(n, obs_len)` (or one `(obs_len,)` row), `mask`
    /// `(n, num_actions)` (bool or 0/1 ints; or one row). Returns int64 `(n,)` (or an int for one
    /// row).
    fn act<'py>(&mut self, py: Python<'py>, obs: &Bound<'py, PyAny>, mask: &Bound<'py, PyAny>) -> PyResult<Py<PyAny>> {
        let spec = self.game.spec();
        let built = self.inner.get_mut().map_err(|_| poisoned())?;
        if matches!(built.from_obs, FromObs::NeedsView) {
            return Err(PyTypeError::new_err(format!(
                "agent `{}` plays from the player's full view, not from observations: use \
                 agent.act_game(game) or agent.act_vec(vec_env)",
                self.spec
            )));
        }
        let np = py.import("numpy")?;
        let obs = np.call_method1("ascontiguousarray", (obs, "float32"))?;
        let single = obs.getattr("ndim")?.extract::<usize>()? == 1;
        let obs = if single { obs.call_method1("reshape", (1, -1))? } else { obs };
        let mask = np.call_method1("asarray", (mask,))?;
        let mask =
            if mask.getattr("ndim")?.extract::<usize>()? == 1 { mask.call_method1("reshape", (1, -1))? } else { mask };
        let mask = mask.call_method1("astype", ("bool",))?;
        let mask = np.call_method1("ascontiguousarray", (mask,))?;
        let obs =
            obs.cast::<numpy::PyArray2<f32>>().map_err(|_| PyValueError::new_err("obs must be a 2-d float array"))?;
        let mask =
            mask.cast::<numpy::PyArray2<bool>>().map_err(|_| PyValueError::new_err("mask must be a 2-d array"))?;
        let (n, d) = (obs.shape()[0], obs.shape()[1]);
        if d != spec.obs_len {
            return Err(PyValueError::new_err(format!(
                "obs must have {} values per row ({}), got {d}",
                spec.obs_len, spec.id
            )));
        }
        if mask.shape() != [n, spec.num_actions] {
            return Err(PyValueError::new_err(format!(
                "mask must have shape ({n}, {}) to match obs, got {:?}",
                spec.num_actions,
                mask.shape()
            )));
        }
        let (obs_ro, mask_ro) = (obs.readonly(), mask.readonly());
        let (o, m) = (obs_ro.as_slice()?, mask_ro.as_slice()?);
        if let Some(i) = o.iter().position(|x| !x.is_finite()) {
            return Err(PyValueError::new_err(format!("obs row {} holds a non-finite value", i / spec.obs_len)));
        }
        if let Some(r) = m.chunks(spec.num_actions).position(|row| !row.contains(&true)) {
            return Err(PyValueError::new_err(format!("mask row {r} allows no action")));
        }
        let rng = &mut self.rng;
        let actions: Vec<usize> = match &built.from_obs {
            FromObs::Random => m.chunks(spec.num_actions).map(|row| random_legal(row, rng)).collect(),
            FromObs::Policy(p, sel) => {
                let (p, sel) = (p.as_ref(), *sel);
                guard(|| p.act_batch(o, m, n, sel, rng).map_err(|e| PyValueError::new_err(e.to_string())))?
            }
            FromObs::NeedsView => unreachable!("checked above"),
        };
        if single {
            return Ok(actions[0].into_pyobject(py)?.into_any().unbind());
        }
        let out: Vec<i64> = actions.iter().map(|&a| a as i64).collect();
        Ok(PyArray1::from_vec(py, out).into_any().unbind())
    }

    /// The action of the seat to act in `game` (a `Game`, or a PettingZoo env of this package,
    /// wrapped or not), from that seat's view (any agent).
    fn act_game(&mut self, game: &Bound<'_, PyAny>) -> PyResult<usize> {
        let game = native_of::<Game>(game, "_game", "game")?;
        let game = game.borrow();
        if game.id() != self.game {
            return Err(self.wrong_game("the game", game.id()));
        }
        let built = self.inner.get_mut().map_err(|_| poisoned())?;
        per_game(self.game).act_game(built, &self.spec, game.dyn_game(), &mut self.rng)
    }

    /// Actions for the seat to act in every game of `vec_env` (int64, `(num_envs,)`), batched.
    fn act_vec<'py>(&mut self, py: Python<'py>, vec_env: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let vec_env = native_of::<VecEnv>(vec_env, "_native", "vec_env")?;
        let vec_env = vec_env.borrow();
        if vec_env.game() != self.game {
            return Err(self.wrong_game("the vector env's game", vec_env.game()));
        }
        let built = self.inner.get_mut().map_err(|_| poisoned())?;
        let out = per_game(self.game).act_vec(built, &self.spec, vec_env.inner(), &mut self.rng)?;
        Ok(PyArray1::from_vec(py, out.into_iter().map(|a| a as i64).collect()))
    }
}

/// The native object behind `obj`: `obj` itself, or its `attr` (looked up on `obj.unwrapped`
/// for wrapped PettingZoo envs).
fn native_of<'py, T: PyClass>(obj: &Bound<'py, PyAny>, attr: &str, name: &str) -> PyResult<Bound<'py, T>> {
    if let Ok(t) = obj.cast::<T>() {
        return Ok(t.clone());
    }
    let base = obj.getattr("unwrapped").unwrap_or_else(|_| obj.clone());
    base.getattr(attr).ok().and_then(|a| a.cast::<T>().ok().cloned()).ok_or_else(|| {
        PyTypeError::new_err(format!(
            "{name} must be a kessel_sabacc {} (or an env built on one), got {}",
            T::NAME,
            obj.get_type().name().map(|n| n.to_string()).unwrap_or_default()
        ))
    })
}

/// The bots of `game` as agent specs name them (`search:N` for bots that take a number), as
/// `sabacc agents` lists them; checkpoint folders, export bundles, levels and `mistakes:P+SPEC`
/// are accepted besides.
#[pyfunction]
#[pyo3(signature = (game="kessel"))]
pub fn agent_names(game: &str) -> PyResult<Vec<String>> {
    let bots = game_arg(game)?.game_type().bot_list();
    Ok(bots
        .into_iter()
        .map(|(name, _, parameter)| match parameter {
            Some(_) => format!("{name}:N"),
            None => name.to_string(),
        })
        .collect())
}
