//! `VecSingle`: `N` games of one learner against agents (bots or checkpoints) of any registered
//! game, stepped in Rust with the GIL released. The opponents act inside `reset` and `step`, so
//! every row is always the learner's decision. It backs the Gymnasium single-agent env (`N = 1`,
//! no auto-reset) and the Gymnasium vector env (auto-reset, `SAME_STEP` or `NEXT_STEP`). The
//! class holds the games behind the object-safe [`Learners`], implemented once generic in the
//! game ([`Core`]); the row buffers the numpy views borrow are plain [`Buffers`].

use crate::agents::build_agent;
use crate::args;
use crate::errors::{env_error, guard};
use crate::games::game_arg;
use crate::per_game;
use crate::vector::build_pool;
use env::{Agent, Game, GameConfig, LearnerSeat, LegalMask, SingleAgentEnv};
use game::Seat;
use games::GameId;
use numpy::ndarray::{ArrayView1, ArrayView2};
use numpy::{PyArray1, PyArray2};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rayon::prelude::*;
use std::sync::{Mutex, MutexGuard};

/// The row buffers of `num_envs` learner decisions, whatever the game: what the numpy views show.
pub struct Buffers {
    /// Floats per observation.
    obs_len: usize,
    /// Bools per mask.
    num_actions: usize,
    obs: Vec<f32>,
    /// The learner's last observation of a game that just ended (auto-reset).
    final_obs: Vec<f32>,
    masks: Vec<bool>,
    rewards: Vec<f32>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
    learner: Vec<u8>,
}

impl Buffers {
    fn new(n: usize, obs_len: usize, num_actions: usize) -> Buffers {
        Buffers {
            obs_len,
            num_actions,
            obs: vec![0.0; n * obs_len],
            final_obs: vec![0.0; n * obs_len],
            masks: vec![false; n * num_actions],
            rewards: vec![0.0; n],
            terminated: vec![false; n],
            truncated: vec![false; n],
            learner: vec![0; n],
        }
    }

    fn num_envs(&self) -> usize {
        self.rewards.len()
    }
}

/// What the Python class needs of learner-versus-agents games, whichever game they play.
pub trait Learners: Send + Sync {
    /// The row buffers.
    fn buffers(&self) -> &Buffers;
    /// Restarts every game: game `i` is dealt from `episode_seed(seed, i, 0)`.
    fn reset_all(&mut self, seed: u64) -> PyResult<()>;
    /// Restarts game `i` alone, dealt from `seed`.
    fn reset_one(&mut self, i: usize, seed: u64) -> PyResult<()>;
    /// Applies the learners' actions and lets the opponents answer.
    fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()>;
    /// Seats at each table.
    fn num_players(&self) -> PyResult<u8>;
    /// The seed of the game now running in row `i`.
    fn game_seed(&self, i: usize) -> PyResult<u64>;
    /// Game `i` as text.
    fn render(&self, i: usize) -> PyResult<String>;
    /// Every seat's return in game `i` so far.
    fn returns(&self, i: usize) -> PyResult<Vec<f32>>;
    /// The winners of game `i`.
    fn winners(&self, i: usize) -> PyResult<Vec<u8>>;
}

struct Slot<G: Game> {
    env: SingleAgentEnv<G>,
    episode: u64,
    done: bool,
    /// Next-step auto-reset: the game ended on the last step and is dealt anew on the next.
    pending: bool,
}

/// `num_envs` learner-versus-agents games of `G` and their row buffers.
pub struct Core<G: Game> {
    /// Behind a mutex only because opponents are `Send` but not `Sync`; `&mut self` methods
    /// reach them without locking.
    slots: Mutex<Vec<Slot<G>>>,
    pool: Option<rayon::ThreadPool>,
    autoreset: bool,
    /// With `autoreset`, deal the next game on the step after the end (Gymnasium's `NEXT_STEP`)
    /// instead of in the same step (`SAME_STEP`).
    next_step: bool,
    base_seed: u64,
    actions: Vec<usize>,
    buf: Buffers,
}

/// Resets one game with `seed` and writes its first learner decision into the row buffers.
fn reset_slot<G: Game>(
    slot: &mut Slot<G>,
    seed: u64,
    obs: &mut [f32],
    mask: &mut [bool],
    learner: &mut u8,
) -> Result<(), env::EnvError> {
    let (o, m, info) = slot.env.reset(seed)?;
    obs.copy_from_slice(o);
    m.write_bools(mask);
    *learner = info.learner.0;
    slot.done = false;
    slot.pending = false;
    Ok(())
}

fn poisoned() -> PyErr {
    PyRuntimeError::new_err("the environment was left inconsistent by an earlier internal error")
}

/// What learner-versus-agents games are built from (`VecSingle::new`'s arguments).
pub struct LearnerSettings<'a, 'py> {
    /// Games.
    pub num_envs: i64,
    /// The opponents' agent specs, clockwise from the learner.
    pub opponents: Vec<String>,
    /// The learner's seat (`None`: drawn from each game's seed).
    pub seat: Option<i64>,
    /// Base seed of the seed streams.
    pub seed: u64,
    /// The rules, as Python gave them.
    pub rules: Option<&'a Bound<'py, PyAny>>,
    /// The reward convention (`None`: the game's default).
    pub reward: Option<&'a str>,
    /// Threads (`None`: all cores).
    pub num_threads: Option<usize>,
    /// Deal the next game when one ends.
    pub autoreset: bool,
    /// … on the step after the end rather than in the same step.
    pub next_step: bool,
}

/// Learner-versus-agents games of `G`, dealt from the settings' seed.
pub fn learners<G: Game>(s: LearnerSettings<'_, '_>) -> PyResult<Box<dyn Learners>> {
    if s.next_step && !s.autoreset {
        return Err(PyValueError::new_err("next_step=True needs autoreset=True"));
    }
    if !(1..=1 << 16).contains(&s.num_envs) {
        return Err(PyValueError::new_err(format!("num_envs must be in 1..=65536, got {}", s.num_envs)));
    }
    let (min, max) = (usize::from(G::SEATS.0 - 1).max(1), usize::from(G::SEATS.1 - 1));
    if !(min..=max).contains(&s.opponents.len()) {
        let example = vec![G::DEFAULT_OPPONENT; min];
        return Err(PyValueError::new_err(format!(
            "opponents must list {min} to {max} agent specs of {} (e.g. {example:?}), got {}",
            G::NAME,
            s.opponents.len()
        )));
    }
    let players = s.opponents.len() as i64 + 1;
    let rules = args::rules::<G>(s.rules, Some(players))?;
    let mode = match s.seat {
        None => LearnerSeat::Rotating,
        Some(k) if (0..players).contains(&k) => LearnerSeat::Fixed(Seat(k as u8)),
        Some(k) => return Err(PyValueError::new_err(format!("seat must be in 0..{players} or None, got {k}"))),
    };
    let config = GameConfig::<G> { rules, reward: args::reward(s.reward, G::DEFAULT_REWARD)?, event_log: false };
    let n = s.num_envs as usize;
    let mut slots = Vec::with_capacity(n);
    for _ in 0..n {
        let agents: Vec<Box<dyn Agent<G>>> =
            s.opponents.iter().map(|spec| build_agent::<G>(spec)).collect::<PyResult<_>>()?;
        let env = guard(|| SingleAgentEnv::new(config, mode, agents).map_err(env_error))?;
        slots.push(Slot { env, episode: 0, done: true, pending: false });
    }
    let mut core = Core {
        slots: Mutex::new(slots),
        pool: build_pool(s.num_threads)?,
        autoreset: s.autoreset,
        next_step: s.next_step,
        base_seed: s.seed,
        actions: Vec::with_capacity(n),
        buf: Buffers::new(n, G::SPEC.obs_len, G::SPEC.num_actions),
    };
    core.reset_all(s.seed)?;
    Ok(Box::new(core))
}

impl<G: Game> Core<G> {
    fn lock(&self) -> PyResult<MutexGuard<'_, Vec<Slot<G>>>> {
        self.slots.lock().map_err(|_| poisoned())
    }

    /// `f` applied to game `i`, or a `ValueError` naming the valid range.
    fn slot<T>(&self, i: usize, f: impl FnOnce(&Slot<G>) -> T) -> PyResult<T> {
        let slots = self.lock()?;
        let s =
            slots.get(i).ok_or_else(|| PyValueError::new_err(format!("i must be in 0..{}, got {i}", slots.len())))?;
        Ok(f(s))
    }
}

impl<G: Game> Learners for Core<G> {
    fn buffers(&self) -> &Buffers {
        &self.buf
    }

    fn reset_all(&mut self, seed: u64) -> PyResult<()> {
        self.base_seed = seed;
        let base = seed;
        let slots = self.slots.get_mut().map_err(|_| poisoned())?;
        let buf = &mut self.buf;
        let mut run = || {
            (
                slots.par_iter_mut(),
                buf.obs.par_chunks_mut(G::SPEC.obs_len),
                buf.masks.par_chunks_mut(G::SPEC.num_actions),
                buf.learner.par_iter_mut(),
            )
                .into_par_iter()
                .enumerate()
                .map(|(i, (slot, obs, mask, learner))| {
                    slot.episode = 0;
                    reset_slot(slot, env::seed::episode_seed(base, i as u64, 0), obs, mask, learner).map_err(|e| (i, e))
                })
                .collect::<Result<Vec<()>, _>>()
        };
        let r = guard(|| {
            Ok(match &self.pool {
                Some(p) => p.install(run),
                None => run(),
            })
        })?;
        self.buf.rewards.fill(0.0);
        self.buf.terminated.fill(false);
        self.buf.truncated.fill(false);
        r.map(|_| ()).map_err(|(i, e)| PyValueError::new_err(format!("environment {i}: {e}")))
    }

    fn reset_one(&mut self, i: usize, seed: u64) -> PyResult<()> {
        let slots = self.slots.get_mut().map_err(|_| poisoned())?;
        if i >= slots.len() {
            return Err(PyValueError::new_err(format!("i must be in 0..{}, got {i}", slots.len())));
        }
        let (obs_len, num_actions) = (G::SPEC.obs_len, G::SPEC.num_actions);
        let (o, m) = (i * obs_len, i * num_actions);
        let buf = &mut self.buf;
        guard(|| {
            reset_slot(
                &mut slots[i],
                seed,
                &mut buf.obs[o..o + obs_len],
                &mut buf.masks[m..m + num_actions],
                &mut buf.learner[i],
            )
            .map_err(env_error)
        })?;
        buf.rewards[i] = 0.0;
        buf.terminated[i] = false;
        buf.truncated[i] = false;
        Ok(())
    }

    fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let num_actions = G::SPEC.num_actions;
        let slots = self.slots.get_mut().map_err(|_| poisoned())?;
        let n = slots.len();
        args::actions(actions, n, num_actions, &mut self.actions)?;
        let buf = &mut self.buf;
        for (i, &a) in self.actions.iter().enumerate() {
            if slots[i].pending {
                continue; // the action is ignored: this step deals the next game
            }
            if slots[i].done {
                return Err(PyValueError::new_err(format!("environment {i}: the game is over; call reset")));
            }
            if !buf.masks[i * num_actions + a] {
                let legal: Vec<usize> = (0..num_actions).filter(|&k| buf.masks[i * num_actions + k]).collect();
                return Err(PyValueError::new_err(format!(
                    "environment {i}: illegal action {a} ({}); legal: {legal:?}",
                    G::action_name(a)
                )));
            }
        }
        let (autoreset, next_step, base) = (self.autoreset, self.next_step, self.base_seed);
        let actions = &self.actions;
        let work = (
            slots.par_iter_mut(),
            buf.obs.par_chunks_mut(G::SPEC.obs_len),
            buf.final_obs.par_chunks_mut(G::SPEC.obs_len),
            buf.masks.par_chunks_mut(num_actions),
            buf.rewards.par_iter_mut(),
            buf.terminated.par_iter_mut(),
            buf.truncated.par_iter_mut(),
            buf.learner.par_iter_mut(),
        );
        let pool = &self.pool;
        let r: Result<Vec<()>, (usize, env::EnvError)> = guard(|| {
            Ok(py.detach(|| {
                let run = move || {
                    work.into_par_iter()
                        .enumerate()
                        .map(|(i, (slot, obs, fin, mask, rew, te, tr, learner))| {
                            if slot.pending {
                                slot.episode += 1;
                                let seed = env::seed::episode_seed(base, i as u64, slot.episode);
                                (*rew, *te, *tr) = (0.0, false, false);
                                return reset_slot(slot, seed, obs, mask, learner).map_err(|e| (i, e));
                            }
                            let (o, m, r, t, u, _) = slot.env.step(actions[i]).map_err(|e| (i, e))?;
                            obs.copy_from_slice(o);
                            m.write_bools(mask);
                            (*rew, *te, *tr) = (r, t, u);
                            if t || u {
                                slot.done = true;
                                if autoreset && next_step {
                                    fin.copy_from_slice(obs);
                                    slot.done = false;
                                    slot.pending = true;
                                } else if autoreset {
                                    fin.copy_from_slice(obs);
                                    slot.episode += 1;
                                    let seed = env::seed::episode_seed(base, i as u64, slot.episode);
                                    reset_slot(slot, seed, obs, mask, learner).map_err(|e| (i, e))?;
                                }
                            }
                            Ok(())
                        })
                        .collect()
                };
                match pool {
                    Some(p) => p.install(run),
                    None => run(),
                }
            }))
        })?;
        r.map(|_| ()).map_err(|(i, e)| PyValueError::new_err(format!("environment {i}: {e}")))
    }

    fn num_players(&self) -> PyResult<u8> {
        Ok(self.lock()?[0].env.inner().num_players())
    }

    fn game_seed(&self, i: usize) -> PyResult<u64> {
        self.slot(i, |s| s.env.inner().seed())
    }

    fn render(&self, i: usize) -> PyResult<String> {
        self.slot(i, |s| guard(|| Ok(G::render(s.env.inner().state(), None))))?
    }

    fn returns(&self, i: usize) -> PyResult<Vec<f32>> {
        self.slot(i, |s| {
            let n = s.env.inner().num_players() as usize;
            s.env.inner().returns()[..n].to_vec()
        })
    }

    fn winners(&self, i: usize) -> PyResult<Vec<u8>> {
        self.slot(i, |s| s.env.inner().winners().iter().map(|x| x.0).collect())
    }
}

/// `num_envs` learner-versus-agents games of one registered game. Buffers (numpy views): `obs`,
/// `mask` (`num_actions` bools per game), `reward`, `terminated`, `truncated`, `learner` (seat per
/// game) and `final_obs` (the learner's last observation of a game that just ended, for
/// auto-reset).
#[pyclass(module = "kessel_sabacc._native")]
pub struct VecSingle {
    core: Box<dyn Learners>,
    game: GameId,
}

/// A 2-d numpy view of one of `slf`'s row buffers (`cols` values per game).
fn view2<'py, T: numpy::Element>(
    slf: &Bound<'py, VecSingle>,
    buf: impl Fn(&Buffers) -> (&[T], usize),
) -> PyResult<Bound<'py, PyArray2<T>>> {
    let this = slf.borrow();
    let b = this.core.buffers();
    let (data, cols) = buf(b);
    let v = ArrayView2::from_shape((b.num_envs(), cols), data).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    // SAFETY: the buffers are allocated once in `new` and never reallocated; `slf` is the
    // array's base object, so it outlives the view.
    Ok(unsafe { PyArray2::borrow_from_array(&v, slf.clone().into_any()) })
}

/// A 1-d numpy view of one of `slf`'s per-game buffers.
fn view1<'py, T: numpy::Element>(
    slf: &Bound<'py, VecSingle>,
    buf: impl Fn(&Buffers) -> &[T],
) -> Bound<'py, PyArray1<T>> {
    let this = slf.borrow();
    let v = ArrayView1::from(buf(this.core.buffers()));
    // SAFETY: as in `view2`.
    unsafe { PyArray1::borrow_from_array(&v, slf.clone().into_any()) }
}

#[pymethods]
impl VecSingle {
    /// `num_envs` games of `game` (a short id or an environment id) at tables of
    /// `len(opponents) + 1` seats; `opponents[k]` (an agent spec of that game) plays the seat
    /// `k + 1` places clockwise from the learner. The learner sits at `seat`, or at a seat drawn
    /// from each game's seed when `seat` is None.
    #[new]
    #[pyo3(signature = (num_envs, opponents, seat=None, seed=None, rules=None, reward=None, num_threads=None, autoreset=true, next_step=false, game="kessel"))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        num_envs: i64,
        opponents: Vec<String>,
        seat: Option<i64>,
        seed: Option<&Bound<'_, PyAny>>,
        rules: Option<&Bound<'_, PyAny>>,
        reward: Option<&str>,
        num_threads: Option<usize>,
        autoreset: bool,
        next_step: bool,
        game: &str,
    ) -> PyResult<Self> {
        let game = game_arg(game)?;
        let seed = args::opt_seed(seed, "seed")?.unwrap_or(0);
        let settings =
            LearnerSettings { num_envs, opponents, seat, seed, rules, reward, num_threads, autoreset, next_step };
        Ok(VecSingle { core: per_game(game).learners(settings)?, game })
    }

    /// The game it plays: its short id (`"kessel"`, `"classic"`).
    #[getter]
    fn game(&self) -> &'static str {
        self.game.name()
    }

    /// Restarts every game: game `i` is dealt from `episode_seed(seed, i, 0)`.
    fn reset_all(&mut self, seed: &Bound<'_, PyAny>) -> PyResult<()> {
        let seed = args::seed(seed, "seed")?;
        self.core.reset_all(seed)
    }

    /// Restarts game `i` alone, dealt from `seed` exactly.
    fn reset_one(&mut self, i: usize, seed: &Bound<'_, PyAny>) -> PyResult<()> {
        let seed = args::seed(seed, "seed")?;
        self.core.reset_one(i, seed)
    }

    /// Applies the learner's `actions[i]` in every game `i`, lets the opponents answer, and
    /// (with auto-reset) deals the next game of any that ended — in the same step, or with
    /// `next_step=True` on the next step, whose action for that game is then ignored (the row
    /// keeps the ended game's last observation until then). Every action is checked against
    /// its mask first; a bad one raises `ValueError` naming the game, and nothing is stepped.
    fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        self.core.step(py, actions)
    }

    /// Number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.core.buffers().num_envs()
    }

    /// Seats at each table.
    #[getter]
    fn num_players(&self) -> PyResult<u8> {
        self.core.num_players()
    }

    /// The seed of the game now running in environment `i`.
    fn game_seed(&self, i: usize) -> PyResult<u64> {
        self.core.game_seed(i)
    }

    /// Game `i` as text, as `Game.render` shows it.
    fn render(&self, i: usize) -> PyResult<String> {
        self.core.render(i)
    }

    /// Every seat's return in game `i` so far (its final one once the game ended).
    fn returns(&self, i: usize) -> PyResult<Vec<f32>> {
        self.core.returns(i)
    }

    /// The winners of game `i` (empty until it ends, and when truncated).
    fn winners(&self, i: usize) -> PyResult<Vec<u8>> {
        self.core.winners(i)
    }

    /// `(num_envs, obs_len)` float32 view of the learners' observations.
    fn obs_view<'py>(slf: Bound<'py, Self>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        view2(&slf, |b| (&b.obs, b.obs_len))
    }

    /// `(num_envs, obs_len)` float32 view of the last observation of games that just ended.
    fn final_obs_view<'py>(slf: Bound<'py, Self>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        view2(&slf, |b| (&b.final_obs, b.obs_len))
    }

    /// `(num_envs, num_actions)` bool view of the learners' legal actions.
    fn mask_view<'py>(slf: Bound<'py, Self>) -> PyResult<Bound<'py, PyArray2<bool>>> {
        view2(&slf, |b| (&b.masks, b.num_actions))
    }

    /// `(num_envs,)` float32 view of the learners' rewards on the last step.
    fn reward_view<'py>(slf: Bound<'py, Self>) -> Bound<'py, PyArray1<f32>> {
        view1(&slf, |b| &b.rewards)
    }

    /// `(num_envs,)` bool view: the game ended by its rules on the last step.
    fn terminated_view<'py>(slf: Bound<'py, Self>) -> Bound<'py, PyArray1<bool>> {
        view1(&slf, |b| &b.terminated)
    }

    /// `(num_envs,)` bool view: the game's length limit cut the game off on the last step.
    fn truncated_view<'py>(slf: Bound<'py, Self>) -> Bound<'py, PyArray1<bool>> {
        view1(&slf, |b| &b.truncated)
    }

    /// `(num_envs,)` uint8 view: the learner's seat in each game.
    fn learner_view<'py>(slf: Bound<'py, Self>) -> Bound<'py, PyArray1<u8>> {
        view1(&slf, |b| &b.learner)
    }
}
