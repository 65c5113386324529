//! `VecEnv`: `N` self-play games of any registered game stepped in Rust ([`env::VecEnv`]) in one
//! call, with the GIL released. Its buffers (observations, masks, actors, rewards, end flags) are
//! shared with numpy as views: `step` writes them in place, nothing is copied and no Python object
//! is made per game. Masks are `num_actions` bools per game, whatever the game's width.

use crate::args;
use crate::errors::{env_error, guard};
use crate::games::game_arg;
use crate::per_game;
use env::{AgentRng, EnvError, EnvSpec, EpisodeInfo, Game, GameConfig, RandomAgent};
use game::MAX_PLAYERS;
use games::GameId;
use numpy::ndarray::{ArrayView1, ArrayView2};
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand::{RngExt, SeedableRng};
use std::any::Any;

/// What the Python class needs of [`env::VecEnv`], whichever game it plays: the class holds
/// one behind this object-safe interface, so one class serves every game.
pub trait Vectorised: Send + Sync {
    /// The game's spec (observation length, action count).
    fn spec(&self) -> EnvSpec;
    /// See [`env::VecEnv::reset`].
    fn reset(&mut self, seed: u64);
    /// See [`env::VecEnv::step`].
    fn step(&mut self, actions: &[usize]) -> Result<(), EnvError>;
    /// Steps every game `steps` times with uniformly random legal actions, one RNG per game.
    fn step_random(&mut self, steps: usize, rngs: &mut [AgentRng]) -> Result<(), EnvError>;
    /// Games.
    fn num_envs(&self) -> usize;
    /// Seats at each table.
    fn num_players(&self) -> u8;
    /// Observations, row-major.
    fn obs(&self) -> &[f32];
    /// Legal actions as `num_actions` bools per game, row-major.
    fn masks(&self) -> &[bool];
    /// The seat to act in each game.
    fn actors(&self) -> &[u8];
    /// Rewards, row-major by seat.
    fn rewards(&self) -> &[f32];
    /// Ended by the rules on the last step.
    fn terminated(&self) -> &[bool];
    /// Cut off by the length limit on the last step.
    fn truncated(&self) -> &[bool];
    /// The games that ended on the last step.
    fn finished(&self) -> &[EpisodeInfo];
    /// The seed of the game running in row `i`.
    fn game_seed(&self, i: usize) -> u64;
    /// The typed vector env, for agents that act from the seats' views.
    fn as_any(&self) -> &dyn Any;
}

impl<G: Game> Vectorised for env::VecEnv<G> {
    fn spec(&self) -> EnvSpec {
        G::SPEC
    }
    fn reset(&mut self, seed: u64) {
        env::VecEnv::reset(self, seed)
    }
    fn step(&mut self, actions: &[usize]) -> Result<(), EnvError> {
        env::VecEnv::step(self, actions)
    }
    fn step_random(&mut self, steps: usize, rngs: &mut [AgentRng]) -> Result<(), EnvError> {
        self.step_many(steps, rngs, |rng, d| RandomAgent::pick(d.mask, rng).unwrap_or(0))
    }
    fn num_envs(&self) -> usize {
        env::VecEnv::num_envs(self)
    }
    fn num_players(&self) -> u8 {
        self.env(0).num_players()
    }
    fn obs(&self) -> &[f32] {
        env::VecEnv::obs(self)
    }
    fn masks(&self) -> &[bool] {
        env::VecEnv::masks(self)
    }
    fn actors(&self) -> &[u8] {
        env::VecEnv::actors(self)
    }
    fn rewards(&self) -> &[f32] {
        env::VecEnv::rewards(self)
    }
    fn terminated(&self) -> &[bool] {
        env::VecEnv::terminated(self)
    }
    fn truncated(&self) -> &[bool] {
        env::VecEnv::truncated(self)
    }
    fn finished(&self) -> &[EpisodeInfo] {
        env::VecEnv::finished(self)
    }
    fn game_seed(&self, i: usize) -> u64 {
        self.env(i).seed()
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// What a vector env is built from (`VecEnv::new`'s arguments, checked but for the rules).
pub struct VecSettings<'a, 'py> {
    /// Games.
    pub num_envs: usize,
    /// Seats at each table (`None`: the rules' or the game's default).
    pub num_players: Option<i64>,
    /// Base seed of the seed streams.
    pub seed: u64,
    /// The rules, as Python gave them.
    pub rules: Option<&'a Bound<'py, PyAny>>,
    /// The reward convention (`None`: the game's default).
    pub reward: Option<&'a str>,
    /// Where the games are stepped.
    pub pool: &'a Option<rayon::ThreadPool>,
}

/// A vector env of game `G`.
pub fn vectorised<G: Game>(s: VecSettings<'_, '_>) -> PyResult<Box<dyn Vectorised>> {
    let config = GameConfig::<G> {
        rules: args::rules::<G>(s.rules, s.num_players)?,
        reward: args::reward(s.reward, G::DEFAULT_REWARD)?,
        event_log: false,
    };
    guard(|| {
        let inner = on_pool(s.pool, || env::VecEnv::<G>::new(config, s.num_envs, s.seed)).map_err(env_error)?;
        Ok(Box::new(inner) as Box<dyn Vectorised>)
    })
}

/// `num_envs` games of one registered game, all seats played by the caller (self-play),
/// with auto-reset: when a game ends its final rewards and flags are reported for that step and
/// the next game of its seed stream is dealt at once, so every row always holds a pending
/// decision.
#[pyclass(module = "kessel_sabacc._native")]
pub struct VecEnv {
    inner: Box<dyn Vectorised>,
    game: GameId,
    pool: Option<rayon::ThreadPool>,
    actions: Vec<usize>,
    rng: AgentRng,
}

/// Runs `f` on `pool` if there is one (else on rayon's global pool).
fn on_pool<T: Send>(pool: &Option<rayon::ThreadPool>, f: impl FnOnce() -> T + Send) -> T {
    match pool {
        Some(p) => p.install(f),
        None => f(),
    }
}

/// A rayon pool of `threads` workers, or `None` for the global pool.
pub fn build_pool(threads: Option<usize>) -> PyResult<Option<rayon::ThreadPool>> {
    match threads {
        None => Ok(None),
        Some(0) => Err(PyValueError::new_err("num_threads must be at least 1 (or None for all cores)")),
        Some(t) => rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .map(Some)
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start {t} threads: {e}"))),
    }
}

/// A uniformly random legal action of a mask row of `num_actions` bools (never empty at a
/// pending decision; 0 if it is).
#[inline]
pub fn random_legal(row: &[bool], rng: &mut AgentRng) -> usize {
    let count = row.iter().filter(|&&x| x).count();
    let k = rng.random_range(0..count.max(1));
    row.iter().enumerate().filter(|(_, x)| **x).nth(k).map_or(0, |(i, _)| i)
}

impl VecEnv {
    /// The vector env, for agents acting on every row.
    pub fn inner(&self) -> &dyn Vectorised {
        self.inner.as_ref()
    }

    /// Which game it plays.
    pub fn game(&self) -> GameId {
        self.game
    }
}

#[pymethods]
impl VecEnv {
    /// `num_envs` games of `game` (a short id such as `"kessel"` or `"classic"`, or an
    /// environment id) at tables of `num_players` (default: the game's default table) under
    /// `rules`, dealt from `seed` (episode `e` of game `i` uses `episode_seed(seed, i, e)`), stepped
    /// on `num_threads` threads (None: all cores).
    #[new]
    #[pyo3(signature = (num_envs, num_players=None, seed=None, rules=None, reward=None, num_threads=None, game="kessel"))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        num_envs: i64,
        num_players: Option<i64>,
        seed: Option<&Bound<'_, PyAny>>,
        rules: Option<&Bound<'_, PyAny>>,
        reward: Option<&str>,
        num_threads: Option<usize>,
        game: &str,
    ) -> PyResult<Self> {
        let game = game_arg(game)?;
        if !(1..=1 << 20).contains(&num_envs) {
            return Err(PyValueError::new_err(format!("num_envs must be in 1..=1048576, got {num_envs}")));
        }
        let seed = args::opt_seed(seed, "seed")?.unwrap_or(0);
        let pool = build_pool(num_threads)?;
        let n = num_envs as usize;
        let settings = VecSettings { num_envs: n, num_players, seed, rules, reward, pool: &pool };
        let inner = per_game(game).vec_env(settings)?;
        Ok(VecEnv {
            inner,
            game,
            pool,
            actions: Vec::with_capacity(n),
            rng: AgentRng::seed_from_u64(env::seed::derive(seed, 0x5A3B)),
        })
    }

    /// The game it plays: its short id (`"kessel"`, `"classic"`).
    #[getter(game)]
    fn game_name(&self) -> &'static str {
        self.game.name()
    }

    /// Restarts every game at episode 0 of the seed streams of `seed`.
    fn reset(&mut self, py: Python<'_>, seed: &Bound<'_, PyAny>) -> PyResult<()> {
        let seed = args::seed(seed, "seed")?;
        self.rng = AgentRng::seed_from_u64(env::seed::derive(seed, 0x5A3B));
        let (inner, pool) = (&mut self.inner, &self.pool);
        guard(|| {
            py.detach(|| on_pool(pool, || inner.reset(seed)));
            Ok(())
        })
    }

    /// Applies `actions[i]` (an int array of length `num_envs`) in every game `i`, in parallel
    /// with the GIL released. Every action is checked first: on a bad one nothing is stepped and
    /// the `ValueError` names the lowest game that had one.
    fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let spec = self.inner.spec();
        args::actions(actions, self.inner.num_envs(), spec.num_actions, &mut self.actions)?;
        let (inner, pool, acts) = (&mut self.inner, &self.pool, &self.actions);
        guard(|| py.detach(|| on_pool(pool, || inner.step(acts))).map_err(env_error))
    }

    /// Steps every game `steps` times with uniformly random legal actions chosen in Rust (a
    /// random player per game, seeded from `seed`): the env's own speed, without Python in the
    /// loop. Rewards and flags then describe the whole call (summed / any).
    fn step_random(&mut self, py: Python<'_>, steps: usize, seed: &Bound<'_, PyAny>) -> PyResult<()> {
        let seed = args::seed(seed, "seed")?;
        let n = self.inner.num_envs();
        let (inner, pool) = (&mut self.inner, &self.pool);
        guard(|| {
            py.detach(|| {
                let mut rngs: Vec<AgentRng> =
                    (0..n as u64).map(|i| AgentRng::seed_from_u64(env::seed::derive(seed, i))).collect();
                on_pool(pool, || inner.step_random(steps, &mut rngs))
            })
            .map_err(env_error)
        })
    }

    /// Writes a uniformly random legal action for every game into `out` (int64, length
    /// `num_envs`) and returns it; a new array if `out` is None.
    #[pyo3(signature = (out=None))]
    fn sample_actions<'py>(
        &mut self,
        py: Python<'py>,
        out: Option<Bound<'py, PyArray1<i64>>>,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let n = self.inner.num_envs();
        let out = out.unwrap_or_else(|| PyArray1::<i64>::zeros(py, n, false));
        let mut rw = out.try_readwrite().map_err(|e| PyValueError::new_err(format!("out: {e}")))?;
        let s = rw.as_slice_mut().map_err(|_| PyValueError::new_err("out must be a contiguous int64 array"))?;
        if s.len() != n {
            return Err(PyValueError::new_err(format!("out must have {n} entries, got {}", s.len())));
        }
        let width = self.inner.spec().num_actions;
        for (o, row) in s.iter_mut().zip(self.inner.masks().chunks(width)) {
            *o = random_legal(row, &mut self.rng) as i64;
        }
        drop(rw);
        Ok(out)
    }

    /// Number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.inner.num_envs()
    }

    /// Seats at each table.
    #[getter]
    fn num_players(&self) -> u8 {
        self.inner.num_players()
    }

    /// `(num_envs, obs_len)` float32 view: the observation of the seat to act in each game.
    fn obs_view<'py>(slf: Bound<'py, Self>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let this = slf.borrow();
        let v = ArrayView2::from_shape((this.inner.num_envs(), this.inner.spec().obs_len), this.inner.obs())
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        // SAFETY: the buffer belongs to `slf`'s VecEnv, is never reallocated after construction,
        // and `slf` is the array's base object, so it outlives the view.
        Ok(unsafe { PyArray2::borrow_from_array(&v, slf.clone().into_any()) })
    }

    /// `(num_envs, num_actions)` bool view: the legal actions of the seat to act in each game.
    fn mask_view<'py>(slf: Bound<'py, Self>) -> PyResult<Bound<'py, PyArray2<bool>>> {
        let this = slf.borrow();
        let v = ArrayView2::from_shape((this.inner.num_envs(), this.inner.spec().num_actions), this.inner.masks())
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        // SAFETY: as in `obs_view`.
        Ok(unsafe { PyArray2::borrow_from_array(&v, slf.clone().into_any()) })
    }

    /// `(num_envs, MAX_PLAYERS)` float32 view: the reward every seat received on the last step.
    fn rewards_view<'py>(slf: Bound<'py, Self>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let this = slf.borrow();
        let v = ArrayView2::from_shape((this.inner.num_envs(), MAX_PLAYERS), this.inner.rewards())
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        // SAFETY: as in `obs_view`.
        Ok(unsafe { PyArray2::borrow_from_array(&v, slf.clone().into_any()) })
    }

    /// `(num_envs,)` uint8 view: the seat to act in each game.
    fn actor_view<'py>(slf: Bound<'py, Self>) -> Bound<'py, PyArray1<u8>> {
        let this = slf.borrow();
        let v = ArrayView1::from(this.inner.actors());
        // SAFETY: as in `obs_view`.
        unsafe { PyArray1::borrow_from_array(&v, slf.clone().into_any()) }
    }

    /// `(num_envs,)` bool view: the game ended by its rules on the last step.
    fn terminated_view<'py>(slf: Bound<'py, Self>) -> Bound<'py, PyArray1<bool>> {
        let this = slf.borrow();
        let v = ArrayView1::from(this.inner.terminated());
        // SAFETY: as in `obs_view`.
        unsafe { PyArray1::borrow_from_array(&v, slf.clone().into_any()) }
    }

    /// `(num_envs,)` bool view: the game's length limit cut the game off on the last step.
    fn truncated_view<'py>(slf: Bound<'py, Self>) -> Bound<'py, PyArray1<bool>> {
        let this = slf.borrow();
        let v = ArrayView1::from(this.inner.truncated());
        // SAFETY: as in `obs_view`.
        unsafe { PyArray1::borrow_from_array(&v, slf.clone().into_any()) }
    }

    /// The games that ended on the last step, as dicts: `env`, `episode`, `seed`, `returns`
    /// (per seat), `length`, `winners`, `truncated`, `rounds` (the game's progress: Kessel's
    /// rounds, classic's hands).
    fn finished<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let n = self.num_players() as usize;
        self.inner
            .finished()
            .iter()
            .map(|e| {
                let d = PyDict::new(py);
                d.set_item("env", e.env)?;
                d.set_item("episode", e.episode)?;
                d.set_item("seed", e.seed)?;
                d.set_item("returns", e.returns[..n].to_vec())?;
                d.set_item("length", e.length)?;
                d.set_item("winners", e.winners.iter().map(|s| s.0).collect::<Vec<u8>>())?;
                d.set_item("truncated", e.truncated)?;
                d.set_item("rounds", e.rounds)?;
                Ok(d)
            })
            .collect()
    }

    /// The seed of the game now running in environment `i`.
    fn game_seed(&self, i: usize) -> PyResult<u64> {
        if i >= self.inner.num_envs() {
            return Err(PyValueError::new_err(format!("i must be in 0..{}, got {i}", self.inner.num_envs())));
        }
        Ok(self.inner.game_seed(i))
    }
}

/// The game seed of episode `episode` of environment `env_index` in a vector env built from
/// `base`: the same derivation the Rust `VecEnv` uses.
#[pyfunction]
pub fn episode_seed(base: u64, env_index: u64, episode: u64) -> u64 {
    env::seed::episode_seed(base, env_index, episode)
}
