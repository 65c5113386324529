//! Agents from Python: every agent spec `sabacc eval` accepts (bots, `search:N`, guided search,
//! checkpoint folders and export bundles, with `@argmax`/`@sample`), built by the `agents` crate
//! so errors and the checkpoint cache are the CLI's; acting in batches; and the arena returning
//! its report as a dict.

use crate::args;
use crate::dispatch::{ForPyGame, Registered, for_py_game};
use crate::errors::guard;
use crate::games::{GameClass, PyGame, game_arg};
use crate::vector::{VecEnv, build_pool, random_legal};
use agents::{Builtin, SpecError};
use kessel::Seat;
use env::{AgentRng, EnvSpec, GameAction, GameId, LegalMask};
use eval::arena::GameArenaConfig;
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

fn spec_error(e: SpecError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Builds game `G`'s agent a spec names (Kessel's or classic Sabacc's bots and checkpoints);
/// an unknown spec is a `ValueError` listing what exists.
pub fn build_game_agent<G: PyGame>(spec: &str) -> PyResult<Box<dyn env::Agent<G>>> {
    guard(|| G::build_agent(factory(), spec).map_err(spec_error))
}

/// The agent itself: a `Box<dyn env::Agent<G>>` for the game `G` it was built for, reached
/// with [`Agent::agent_for`].
type Built = Box<dyn Any + Send>;

/// What [`Agent::new`] builds for game `G`.
struct Build<'a> {
    spec: &'a str,
}

impl ForPyGame for Build<'_> {
    type Out = PyResult<(Built, String, FromObs)>;
    fn run<G: Registered>(self) -> Self::Out {
        let agent = build_game_agent::<G>(self.spec)?;
        let name = agent.name().to_string();
        let from_obs = match guard(|| G::policy(factory(), self.spec).map_err(spec_error))? {
            Some((policy, selection)) => FromObs::Policy(Box::new(policy), selection),
            None if G::is_random(self.spec) => FromObs::Random,
            None => FromObs::NeedsView,
        };
        Ok((Box::new(agent), name, from_obs))
    }
}

/// Chooses with `agent` for every view, checking each choice against its mask.
fn act_views<G: PyGame>(
    agent: &mut dyn env::Agent<G>,
    spec: &str,
    views: &[G::View],
    masks: &[G::Mask],
    rngs: &mut [AgentRng],
) -> PyResult<Vec<usize>> {
    let mut out = Vec::with_capacity(views.len());
    guard(|| agent.act_batch(views, masks, rngs, &mut out).map_err(|e| PyValueError::new_err(e.to_string())))?;
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

/// The seat to act's view and legal actions in one game.
fn decision<G: PyGame>(env: &env::Env<G>) -> PyResult<(G::View, G::Mask)> {
    let seat = env.current_player().ok_or_else(|| PyValueError::new_err("the game is over; call reset"))?;
    Ok((env.view(seat), env.legal_mask()))
}

/// The seat to act's view and legal actions in every row of `v`.
fn rows<G: PyGame>(v: &env::VecEnv<G>) -> (Vec<G::View>, Vec<G::Mask>) {
    let n = v.num_envs();
    let views = (0..n).map(|i| v.env(i).view(Seat(v.actors()[i]))).collect();
    let masks = (0..n).map(|i| v.env(i).legal_mask()).collect();
    (views, masks)
}

/// How an agent chooses from an observation and a mask alone.
enum FromObs {
    /// Uniform over the legal actions.
    Random,
    /// A trained policy's masked distribution.
    Policy(Box<Policy>, ActionSelection),
    /// Needs the player's full view (heuristic and search bots).
    NeedsView,
}

/// An agent built from a spec. `act(obs, mask)` chooses for a batch of observations (random,
/// checkpoint and exported-bundle agents); `act_game(game)` and `act_vec(vec_env)` choose from each acting seat's
/// full view (every agent, bots included).
#[pyclass(module = "kessel_sabacc._native")]
pub struct Agent {
    spec: String,
    game: GameId,
    name: String,
    inner: Mutex<Built>,
    /// Behind a mutex only because a loaded policy need not be `Sync`; `&mut self` methods
    /// reach it without locking.
    from_obs: Mutex<FromObs>,
    rng: AgentRng,
}

impl Agent {
    fn rngs(&mut self, n: usize) -> Vec<AgentRng> {
        (0..n).map(|_| AgentRng::seed_from_u64(self.rng.next_u64())).collect()
    }

    /// The agent as game `G`'s, or an error naming both games when it was built for another.
    fn agent_for<G: PyGame>(&mut self, what: &str) -> PyResult<&mut dyn env::Agent<G>> {
        let game = self.game;
        if game != GameId::of::<G>() {
            return Err(self.wrong_game(what, GameId::of::<G>()));
        }
        let inner = self.inner.get_mut().map_err(|_| PyValueError::new_err("agent poisoned by an earlier error"))?;
        Ok(inner.downcast_mut::<Box<dyn env::Agent<G>>>().expect("built for its game").as_mut())
    }

    fn spec_of_game(&self) -> EnvSpec {
        self.game.spec()
    }

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
    /// The agent a spec names for `game` (`"kessel"` or `"classic"`), its random choices drawn
    /// from `seed`.
    #[new]
    #[pyo3(signature = (spec, seed=None, game="kessel"))]
    fn new(spec: &str, seed: Option<&Bound<'_, PyAny>>, game: &str) -> PyResult<Self> {
        let seed = args::opt_seed(seed, "seed")?.unwrap_or(0);
        let game = game_arg(game)?;
        let (inner, name, from_obs) = for_py_game(game, Build { spec })?;
        Ok(Agent {
            spec: spec.to_string(),
            game,
            name,
            inner: Mutex::new(inner),
            from_obs: Mutex::new(from_obs),
            rng: AgentRng::seed_from_u64(seed),
        })
    }

    /// The spec this agent was built from.
    #[getter]
    fn spec(&self) -> &str {
        &self.spec
    }

    /// The game it plays: `"kessel"` or `"classic"`.
    #[getter]
    fn game(&self) -> &'static str {
        self.game.name()
    }

    /// The agent's name in reports.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// Whether `act(obs, mask)` works for this agent (random, checkpoint and bundle agents); bots need
    /// the player's view: use `act_game` or `act_vec`.
    #[getter]
    fn acts_from_obs(&self) -> PyResult<bool> {
        let f = self.from_obs.lock().map_err(|_| PyValueError::new_err("agent poisoned by an earlier error"))?;
        Ok(!matches!(*f, FromObs::NeedsView))
    }

    /// Actions for a batch: `obs` float32 `(n, OBS_LEN)` (or one `(OBS_LEN,)` row), `mask`
    /// `(n, NUM_ACTIONS)` (bool or 0/1 ints; or one row). Returns int64 `(n,)` (or an int for one
    /// row).
    fn act<'py>(&mut self, py: Python<'py>, obs: &Bound<'py, PyAny>, mask: &Bound<'py, PyAny>) -> PyResult<Py<PyAny>> {
        let spec = self.spec_of_game();
        let from_obs =
            self.from_obs.get_mut().map_err(|_| PyValueError::new_err("agent poisoned by an earlier error"))?;
        if matches!(from_obs, FromObs::NeedsView) {
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
        let mut bits = Vec::with_capacity(n);
        for (r, row) in m.chunks(spec.num_actions).enumerate() {
            let b = row.iter().enumerate().fold(0u64, |acc, (i, &x)| acc | (u64::from(x) << i));
            if b == 0 {
                return Err(PyValueError::new_err(format!("mask row {r} allows no action")));
            }
            bits.push(b);
        }
        let actions: Vec<usize> = match from_obs {
            FromObs::Random => bits.iter().map(|&b| random_legal(b, &mut self.rng)).collect(),
            FromObs::Policy(p, sel) => {
                let (p, sel) = (p.as_ref(), *sel);
                let rng = &mut self.rng;
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
        struct ActGame<'a, 'py>(&'a mut Agent, &'a Bound<'py, PyAny>);
        impl ForPyGame for ActGame<'_, '_> {
            type Out = PyResult<usize>;
            fn run<G: Registered>(self) -> PyResult<usize> {
                let ActGame(this, obj) = self;
                let game = native_of::<G::Class>(obj, "_game", "game").map_err(|e| match game_of_object(obj) {
                    Some(other) => this.wrong_game("the game", other),
                    None => e,
                })?;
                let (view, mask) = decision(game.borrow().env())?;
                let mut rngs = this.rngs(1);
                let spec = this.spec.clone();
                Ok(act_views::<G>(this.agent_for::<G>("the game")?, &spec, &[view], &[mask], &mut rngs)?[0])
            }
        }
        for_py_game(self.game, ActGame(self, game))
    }

    /// Actions for the seat to act in every game of `vec_env` (int64, `(num_envs,)`), batched.
    fn act_vec<'py>(&mut self, py: Python<'py>, vec_env: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let vec_env = native_of::<VecEnv>(vec_env, "_native", "vec_env")?;
        let vec_env = vec_env.borrow();
        if vec_env.game() != self.game {
            return Err(self.wrong_game("the vector env's game", vec_env.game()));
        }
        struct ActVec<'a>(&'a mut Agent, &'a VecEnv);
        impl ForPyGame for ActVec<'_> {
            type Out = PyResult<Vec<usize>>;
            fn run<G: Registered>(self) -> Self::Out {
                let ActVec(this, vec_env) = self;
                let (views, masks) = rows(vec_env.inner::<G>().expect("the games were checked to match"));
                let mut rngs = this.rngs(views.len());
                let spec = this.spec.clone();
                act_views::<G>(this.agent_for::<G>("the vector env's game")?, &spec, &views, &masks, &mut rngs)
            }
        }
        let out = for_py_game(self.game, ActVec(self, &vec_env))?;
        Ok(PyArray1::from_vec(py, out.into_iter().map(|a| a as i64).collect()))
    }
}

/// The game a Python game object (or an env built on one) plays, if it is one of this package's.
fn game_of_object(obj: &Bound<'_, PyAny>) -> Option<GameId> {
    struct Is<'a, 'py>(&'a Bound<'py, PyAny>);
    impl ForPyGame for Is<'_, '_> {
        type Out = bool;
        fn run<G: Registered>(self) -> bool {
            native_of::<G::Class>(self.0, "_game", "game").is_ok()
        }
    }
    GameId::ALL.into_iter().find(|&g| for_py_game(g, Is(obj)))
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

/// The built-in agent names, as `sabacc agents` lists them (checkpoint folders and export
/// bundles are accepted besides).
#[pyfunction]
pub fn agent_names() -> Vec<&'static str> {
    Builtin::ALL.iter().map(|b| b.spec_text()).collect()
}

/// Plays a tournament among agent specs (seat rotation, duplicate deals, as `sabacc eval`) and
/// returns the report (the same fields as `report.json`) as a JSON string.
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
    for_py_game(game_arg(game)?, Play { py, tournament, num_threads, deals: None })
}

/// The arguments that say which tournament is played ([`arena`], [`arena_shard`],
/// [`arena_merge`]).
struct Tournament<'a, 'py> {
    agents: Vec<String>,
    players: Option<i64>,
    games: u64,
    seed: Option<&'a Bound<'py, PyAny>>,
    rules: Option<&'a Bound<'py, PyAny>>,
}

/// Plays a tournament, or only its `deals`.
struct Play<'a, 'py> {
    py: Python<'py>,
    tournament: Tournament<'a, 'py>,
    num_threads: Option<usize>,
    deals: Option<std::ops::Range<u64>>,
}

impl ForPyGame for Play<'_, '_> {
    type Out = PyResult<String>;
    fn run<G: Registered>(self) -> PyResult<String> {
        arena_of::<G>(self.py, self.tournament, self.num_threads, self.deals)
    }
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
    for_py_game(game_arg(game)?, Play { py, tournament, num_threads, deals: Some(deals.0..deals.1) })
}

/// The number of deals of a tournament of `games` games at `players` seats (games rounded up
/// to whole deals, each deal played under every seating): the range [`arena_shard`] partitions.
#[pyfunction]
pub fn arena_deals(players: i64, games: u64) -> PyResult<u64> {
    if !(2..=8).contains(&players) {
        return Err(PyValueError::new_err(format!("players: {players} is out of range; a table seats 2 to 8")));
    }
    if games == 0 {
        return Err(PyValueError::new_err("games must be at least 1"));
    }
    Ok(eval::arena::games_played(games, players as u8) / eval::arena::seatings(players as usize).len() as u64)
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
    struct Merge<'a, 'py>(Vec<String>, Tournament<'a, 'py>);
    impl ForPyGame for Merge<'_, '_> {
        type Out = PyResult<String>;
        fn run<G: Registered>(self) -> PyResult<String> {
            merge_of::<G>(self.0, self.1)
        }
    }
    for_py_game(game_arg(game)?, Merge(shards, Tournament { agents, players, games, seed, rules }))
}

/// The tournament's config from [`arena`]'s arguments, checked.
fn arena_config<G: PyGame>(t: Tournament<'_, '_>) -> PyResult<GameArenaConfig<G>> {
    let Tournament { agents, players, games, seed, rules } = t;
    if agents.is_empty() {
        return Err(PyValueError::new_err("agents must list at least one agent spec"));
    }
    if games == 0 {
        return Err(PyValueError::new_err("games must be at least 1"));
    }
    let players = players.unwrap_or(agents.len().max(2) as i64);
    let seed = args::opt_seed(seed, "seed")?.unwrap_or(0);
    let rules = args::rules_for::<G>(rules, players)?;
    Ok(GameArenaConfig::<G> { agents, players: players as u8, games, seed, rules })
}

/// The report of the merged shards of game `G`'s tournament.
fn merge_of<G: PyGame>(shards: Vec<String>, tournament: Tournament<'_, '_>) -> PyResult<String> {
    let cfg = arena_config::<G>(tournament)?;
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

/// [`arena`] for game `G`; with `deals`, only those deals, returned as the shard's JSON.
fn arena_of<G: PyGame>(
    py: Python<'_>,
    tournament: Tournament<'_, '_>,
    num_threads: Option<usize>,
    deals: Option<std::ops::Range<u64>>,
) -> PyResult<String> {
    let cfg = arena_config::<G>(tournament)?;
    let factory = G::builder(factory());
    for a in &cfg.agents {
        guard(|| factory.build(a).map(|_| ()).map_err(PyValueError::new_err))?;
    }
    let pool = build_pool(num_threads)?;
    let whole = deals.is_none();
    let range = deals.unwrap_or(0..u64::MAX);
    let play = || eval::arena::run_deals(&cfg, factory, &|| {}, range.clone());
    let result = guard(|| {
        Ok(py.detach(|| match &pool {
            Some(p) => p.install(play),
            None => play(),
        }))
    })?
    .map_err(|e| PyValueError::new_err(e.to_string()))?;
    if whole { serde_json::to_string(&eval::report::build(&cfg, &result)) } else { serde_json::to_string(&result) }
        .map_err(|e| PyValueError::new_err(e.to_string()))
}
