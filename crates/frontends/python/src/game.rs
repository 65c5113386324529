//! `Game` and `ClassicGame`: one game of Kessel Sabacc (the Rust [`SabaccEnv`]) or of classic
//! Sabacc ([`env::ClassicEnv`]), the engines under the PettingZoo AEC env. Both classes wrap one
//! implementation generic in the game ([`Core`]). Observations are written straight into fresh
//! numpy arrays.

use crate::args;
use crate::errors::{env_error, guard};
use crate::games::PyGame;
use kessel::{MAX_PLAYERS, Seat};
use env::Game as _;
use env::{Classic, Env, GameConfig, Kessel, LegalMask, SabaccEnv, TimeStep};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// An observation and its legal-action mask, as numpy arrays.
type Observation<'py> = (Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<i8>>);

/// One game of `G` and its last time step: what both game classes do.
pub struct Core<G: PyGame> {
    env: Env<G>,
    last: TimeStep<G>,
}

impl<G: PyGame> Core<G> {
    fn new(num_players: i64, rules: Option<&Bound<'_, PyAny>>, reward: &str) -> PyResult<Self> {
        let rules = args::rules_for::<G>(rules, num_players)?;
        let config = GameConfig::<G> { rules, reward: args::reward(reward)?, event_log: false };
        guard(|| {
            let mut env = Env::new(config).map_err(env_error)?;
            let last = env.reset(0);
            Ok(Core { env, last })
        })
    }

    fn from_scenario(text: &str, reward: &str) -> PyResult<Self> {
        let reward = args::reward(reward)?;
        guard(|| {
            let state = G::load_scenario(text).map_err(|e| PyValueError::new_err(format!("scenario: {e}")))?;
            let env = Env::<G>::from_state(state, reward);
            let truncated = G::is_truncated(env.state());
            let last = TimeStep {
                actor: env.current_player(),
                mask: env.legal_mask(),
                rewards: [0.0; MAX_PLAYERS],
                terminated: env.is_done() && !truncated,
                truncated,
            };
            Ok(Core { env, last })
        })
    }

    fn seat(&self, seat: i64) -> PyResult<Seat> {
        let n = self.env.num_players() as i64;
        if !(0..n).contains(&seat) {
            return Err(PyValueError::new_err(format!("seat must be in 0..{n}, got {seat}")));
        }
        Ok(Seat(seat as u8))
    }

    fn reset(&mut self, seed: &Bound<'_, PyAny>) -> PyResult<()> {
        let seed = args::seed(seed, "seed")?;
        guard(|| {
            self.last = self.env.reset(seed);
            Ok(())
        })
    }

    fn step(&mut self, action: &Bound<'_, PyAny>) -> PyResult<(Option<u8>, bool, bool)> {
        let a = args::action_for::<G>(action)?;
        guard(|| {
            let ts = self.env.step(a).map_err(env_error)?;
            self.last = ts;
            Ok((ts.actor.map(|s| s.0), ts.terminated, ts.truncated))
        })
    }

    fn observe<'py>(&self, py: Python<'py>, seat: i64) -> PyResult<Observation<'py>> {
        let s = self.seat(seat)?;
        let obs = PyArray1::<f32>::zeros(py, G::SPEC.obs_len, false);
        let mask = PyArray1::<i8>::zeros(py, G::SPEC.num_actions, false);
        guard(|| {
            // SAFETY: both arrays were just created here and no other reference to them exists.
            let (o, m) = unsafe { (obs.as_slice_mut(), mask.as_slice_mut()) };
            let (o, m) = (
                o.map_err(|e| PyValueError::new_err(e.to_string()))?,
                m.map_err(|e| PyValueError::new_err(e.to_string()))?,
            );
            self.env.observe_into(s, o);
            if self.env.current_player() == Some(s) {
                let legal = self.env.legal_mask();
                for (i, x) in m.iter_mut().enumerate() {
                    *x = i8::from(legal.contains_index(i));
                }
            }
            Ok(())
        })?;
        Ok((obs, mask))
    }

    fn actor(&self) -> Option<u8> {
        self.env.current_player().map(|s| s.0)
    }

    /// The legal actions as an int (bit `a` = action `a`); both games' masks fit one word.
    fn mask_bits(&self) -> u64 {
        let mut words = [0u64; 1];
        self.env.legal_mask().write_words(&mut words);
        words[0]
    }

    fn legal_actions(&self) -> Vec<usize> {
        self.env.legal_mask().index_list()
    }

    fn players(&self) -> usize {
        self.env.num_players() as usize
    }

    fn rewards(&self) -> Vec<f32> {
        self.last.rewards[..self.players()].to_vec()
    }

    fn returns(&self) -> Vec<f32> {
        self.env.returns()[..self.players()].to_vec()
    }

    fn winners(&self) -> Vec<u8> {
        self.env.winners().iter().map(|s| s.0).collect()
    }

    fn rules_json(&self) -> String {
        serde_json::to_string(&self.env.config().rules).unwrap_or_default()
    }

    fn render(&self) -> PyResult<String> {
        guard(|| Ok(G::render(&self.env)))
    }
}

// The masks the bindings hand out as one int (`mask_bits`) and the vector envs pack.
const _: () = assert!(Kessel::SPEC.mask_words() == 1 && Classic::SPEC.mask_words() == 1);

/// The whole position, the last settlement and the legal actions or the result, for people
/// ([`kessel::render`]); the env keeps no event log, so there are no events to show.
pub fn render(env: &SabaccEnv) -> String {
    Kessel::render(env)
}

/// One game: `reset(seed)`, `step(action)`, `observe(seat)`. Seats are ints `0..num_players`;
/// actions are indices `0..NUM_ACTIONS` (`action_names()`); an illegal action raises `ValueError` and
/// changes nothing.
#[pyclass(module = "kessel_sabacc._native")]
pub struct Game {
    core: Core<Kessel>,
}

impl crate::games::GameClass<Kessel> for Game {
    fn env(&self) -> &SabaccEnv {
        &self.core.env
    }
}

#[pymethods]
impl Game {
    /// A game at a table of `num_players` (2 to `MAX_PLAYERS`) under `rules` (dict or JSON; defaults otherwise)
    /// and the `reward` convention (`"win-loss"` or `"placement"`), dealt with seed 0.
    #[new]
    #[pyo3(signature = (num_players=4, rules=None, reward="win-loss"))]
    fn new(num_players: i64, rules: Option<&Bound<'_, PyAny>>, reward: &str) -> PyResult<Self> {
        Ok(Game { core: Core::new(num_players, rules, reward)? })
    }

    /// A game positioned at a scenario (JSON text, format of `docs/scenarios.md`).
    #[staticmethod]
    #[pyo3(signature = (text, reward="win-loss"))]
    fn from_scenario(text: &str, reward: &str) -> PyResult<Self> {
        Ok(Game { core: Core::from_scenario(text, reward)? })
    }

    /// Deals a new game from `seed` (an int in 0..2**64): the same seed, the same game.
    fn reset(&mut self, seed: &Bound<'_, PyAny>) -> PyResult<()> {
        self.core.reset(seed)
    }

    /// Applies the acting seat's action. Returns `(actor, terminated, truncated)`: the next seat
    /// to act (`None` once the game is over) and the end flags. Raises `ValueError` for an
    /// illegal action or a finished game, `TypeError` for a non-int action.
    fn step(&mut self, action: &Bound<'_, PyAny>) -> PyResult<(Option<u8>, bool, bool)> {
        self.core.step(action)
    }

    /// `seat`'s observation (float32, `OBS_LEN` values) and its legal-action mask (int8,
    /// `NUM_ACTIONS` values; all 0 unless `seat` is to act), in new arrays.
    fn observe<'py>(&self, py: Python<'py>, seat: i64) -> PyResult<Observation<'py>> {
        self.core.observe(py, seat)
    }

    /// The seat to act, `None` once the game is over.
    #[getter]
    fn actor(&self) -> Option<u8> {
        self.core.actor()
    }

    /// The acting seat's legal actions as an int of `NUM_ACTIONS` bits (bit `a` = action `a`).
    #[getter]
    fn mask_bits(&self) -> u64 {
        self.core.mask_bits()
    }

    /// The acting seat's legal action indices.
    fn legal_actions(&self) -> Vec<usize> {
        self.core.legal_actions()
    }

    /// Rewards every seat received on the last step (non-zero only on the final one).
    #[getter]
    fn rewards(&self) -> Vec<f32> {
        self.core.rewards()
    }

    /// Each seat's return since the last reset.
    #[getter]
    fn returns(&self) -> Vec<f32> {
        self.core.returns()
    }

    /// The game ended by its rules.
    #[getter]
    fn terminated(&self) -> bool {
        self.core.last.terminated
    }

    /// The round limit cut the game off (rewards 0).
    #[getter]
    fn truncated(&self) -> bool {
        self.core.last.truncated
    }

    /// Terminated or truncated.
    #[getter]
    fn done(&self) -> bool {
        self.core.env.is_done()
    }

    /// The winners (empty until the end, and for truncated games).
    #[getter]
    fn winners(&self) -> Vec<u8> {
        self.core.winners()
    }

    /// Seats at the table.
    #[getter]
    fn num_players(&self) -> u8 {
        self.core.env.num_players()
    }

    /// The seed of the current game.
    #[getter]
    fn seed(&self) -> u64 {
        self.core.env.seed()
    }

    /// Actions applied since the last reset.
    #[getter]
    fn episode_steps(&self) -> u32 {
        self.core.env.episode_steps()
    }

    /// Round number (0 before round 1's token choice).
    #[getter]
    fn round(&self) -> u16 {
        self.core.env.state().round()
    }

    /// The rules in force, as JSON.
    fn rules_json(&self) -> String {
        self.core.rules_json()
    }

    /// The position as text, as `sabacc scenario` prints it.
    fn render(&self) -> PyResult<String> {
        self.core.render()
    }
}

/// One game of classic Sabacc: `reset(seed)`, `step(action)`, `observe(seat)`. Seats are ints
/// `0..num_players`; actions are indices `0..CLASSIC_NUM_ACTIONS` (`classic_action_names()`); an
/// illegal action raises `ValueError` and changes nothing.
#[pyclass(module = "kessel_sabacc._native")]
pub struct ClassicGame {
    core: Core<Classic>,
}

impl crate::games::GameClass<Classic> for ClassicGame {
    fn env(&self) -> &env::ClassicEnv {
        &self.core.env
    }
}

#[pymethods]
impl ClassicGame {
    /// A game at a table of `num_players` (2 to `MAX_PLAYERS`) under `rules` (dict or JSON with
    /// the fields of `docs/rules-classic.md`, C9; defaults otherwise) and the `reward` convention
    /// (`"win-loss"` or `"placement"`), dealt with seed 0.
    #[new]
    #[pyo3(signature = (num_players=4, rules=None, reward="win-loss"))]
    fn new(num_players: i64, rules: Option<&Bound<'_, PyAny>>, reward: &str) -> PyResult<Self> {
        Ok(ClassicGame { core: Core::new(num_players, rules, reward)? })
    }

    /// A game positioned at a classic scenario (JSON text, format of `docs/rules-classic.md`,
    /// "Scenario files").
    #[staticmethod]
    #[pyo3(signature = (text, reward="win-loss"))]
    fn from_scenario(text: &str, reward: &str) -> PyResult<Self> {
        Ok(ClassicGame { core: Core::from_scenario(text, reward)? })
    }

    /// Deals a new game from `seed` (an int in 0..2**64): the same seed, the same game.
    fn reset(&mut self, seed: &Bound<'_, PyAny>) -> PyResult<()> {
        self.core.reset(seed)
    }

    /// Applies the acting seat's action. Returns `(actor, terminated, truncated)`: the next seat
    /// to act (`None` once the game is over) and the end flags. Raises `ValueError` for an
    /// illegal action or a finished game, `TypeError` for a non-int action.
    fn step(&mut self, action: &Bound<'_, PyAny>) -> PyResult<(Option<u8>, bool, bool)> {
        self.core.step(action)
    }

    /// `seat`'s observation (float32, `CLASSIC_OBS_LEN` values) and its legal-action mask (int8,
    /// `CLASSIC_NUM_ACTIONS` values; all 0 unless `seat` is to act), in new arrays.
    fn observe<'py>(&self, py: Python<'py>, seat: i64) -> PyResult<Observation<'py>> {
        self.core.observe(py, seat)
    }

    /// The seat to act, `None` once the game is over.
    #[getter]
    fn actor(&self) -> Option<u8> {
        self.core.actor()
    }

    /// The acting seat's legal actions as an int of `CLASSIC_NUM_ACTIONS` bits (bit `a` = action
    /// `a`).
    #[getter]
    fn mask_bits(&self) -> u64 {
        self.core.mask_bits()
    }

    /// The acting seat's legal action indices.
    fn legal_actions(&self) -> Vec<usize> {
        self.core.legal_actions()
    }

    /// Rewards every seat received on the last step (non-zero only on the final one).
    #[getter]
    fn rewards(&self) -> Vec<f32> {
        self.core.rewards()
    }

    /// Each seat's return since the last reset.
    #[getter]
    fn returns(&self) -> Vec<f32> {
        self.core.returns()
    }

    /// The game ended by its rules.
    #[getter]
    fn terminated(&self) -> bool {
        self.core.last.terminated
    }

    /// The hand limit cut the game off (`hand_limit_end="truncate"`; rewards 0).
    #[getter]
    fn truncated(&self) -> bool {
        self.core.last.truncated
    }

    /// Terminated or truncated.
    #[getter]
    fn done(&self) -> bool {
        self.core.env.is_done()
    }

    /// The winners (empty until the end, and for truncated games).
    #[getter]
    fn winners(&self) -> Vec<u8> {
        self.core.winners()
    }

    /// Seats at the table.
    #[getter]
    fn num_players(&self) -> u8 {
        self.core.env.num_players()
    }

    /// The seed of the current game.
    #[getter]
    fn seed(&self) -> u64 {
        self.core.env.seed()
    }

    /// Actions applied since the last reset.
    #[getter]
    fn episode_steps(&self) -> u32 {
        self.core.env.episode_steps()
    }

    /// Hand number (1 for the first hand).
    #[getter]
    fn hand(&self) -> u32 {
        self.core.env.state().hand_number()
    }

    /// The rules in force, as JSON.
    fn rules_json(&self) -> String {
        self.core.rules_json()
    }

    /// The position as text: hand and round, the decision, every seat's credits and cards, the
    /// pots, the deck, and the legal actions or the result.
    fn render(&self) -> PyResult<String> {
        self.core.render()
    }
}
