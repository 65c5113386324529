//! `Game`: one game of Kessel Sabacc (the Rust [`SabaccEnv`]), the engine under the PettingZoo
//! AEC env. Observations are written straight into fresh numpy arrays.

use crate::args;
use crate::errors::{env_error, guard};
use engine::{MAX_PLAYERS, Scenario, Seat};
use env::{EnvConfig, SabaccEnv, TimeStep};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// An observation and its legal-action mask, as numpy arrays.
type Observation<'py> = (Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<i8>>);

/// One game: `reset(seed)`, `step(action)`, `observe(seat)`. Seats are ints `0..num_players`;
/// actions are indices `0..NUM_ACTIONS` (`action_names()`); an illegal action raises `ValueError` and
/// changes nothing.
#[pyclass(module = "kessel_sabacc._native")]
pub struct Game {
    env: SabaccEnv,
    last: TimeStep,
}

/// The whole position, the last settlement and the legal actions or the result, for people
/// ([`engine::render`]); the env keeps no event log, so there are no events to show.
pub fn render(env: &SabaccEnv) -> String {
    let state = env.state();
    engine::render::report(state, None, state.last_settlement())
}

impl Game {
    fn seat(&self, seat: i64) -> PyResult<Seat> {
        let n = self.env.num_players() as i64;
        if !(0..n).contains(&seat) {
            return Err(PyValueError::new_err(format!("seat must be in 0..{n}, got {seat}")));
        }
        Ok(Seat(seat as u8))
    }

    /// The underlying environment (for agents acting on this game).
    pub fn env(&self) -> &SabaccEnv {
        &self.env
    }
}

#[pymethods]
impl Game {
    /// A game at a table of `num_players` (2 to `MAX_PLAYERS`) under `rules` (dict or JSON; defaults otherwise)
    /// and the `reward` convention (`"win-loss"` or `"placement"`), dealt with seed 0.
    #[new]
    #[pyo3(signature = (num_players=4, rules=None, reward="win-loss"))]
    fn new(num_players: i64, rules: Option<&Bound<'_, PyAny>>, reward: &str) -> PyResult<Self> {
        let rules = args::rules(rules, num_players)?;
        let config = EnvConfig { rules, reward: args::reward(reward)?, event_log: false };
        guard(|| {
            let mut env = SabaccEnv::new(config).map_err(env_error)?;
            let last = env.reset(0);
            Ok(Game { env, last })
        })
    }

    /// A game positioned at a scenario (JSON text, format of `docs/scenarios.md`).
    #[staticmethod]
    #[pyo3(signature = (text, reward="win-loss"))]
    fn from_scenario(text: &str, reward: &str) -> PyResult<Self> {
        let reward = args::reward(reward)?;
        guard(|| {
            let state = Scenario::from_json(text).map_err(|e| PyValueError::new_err(format!("scenario: {e}")))?;
            let env = SabaccEnv::from_state(state, reward);
            let last = TimeStep {
                actor: env.current_player(),
                mask: env.legal_mask(),
                rewards: [0.0; MAX_PLAYERS],
                terminated: env.is_done() && !env.state().is_truncated(),
                truncated: env.state().is_truncated(),
            };
            Ok(Game { env, last })
        })
    }

    /// Deals a new game from `seed` (an int in 0..2**64): the same seed, the same game.
    fn reset(&mut self, seed: &Bound<'_, PyAny>) -> PyResult<()> {
        let seed = args::seed(seed, "seed")?;
        guard(|| {
            self.last = self.env.reset(seed);
            Ok(())
        })
    }

    /// Applies the acting seat's action. Returns `(actor, terminated, truncated)`: the next seat
    /// to act (`None` once the game is over) and the end flags. Raises `ValueError` for an
    /// illegal action or a finished game, `TypeError` for a non-int action.
    fn step(&mut self, action: &Bound<'_, PyAny>) -> PyResult<(Option<u8>, bool, bool)> {
        let a = args::action(action)?;
        guard(|| {
            let ts = self.env.step(a).map_err(env_error)?;
            self.last = ts;
            Ok((ts.actor.map(|s| s.0), ts.terminated, ts.truncated))
        })
    }

    /// `seat`'s observation (float32, `OBS_LEN` values) and its legal-action mask (int8,
    /// `NUM_ACTIONS` values; all 0 unless `seat` is to act), in new arrays.
    fn observe<'py>(&self, py: Python<'py>, seat: i64) -> PyResult<Observation<'py>> {
        let s = self.seat(seat)?;
        let obs = PyArray1::<f32>::zeros(py, crate::SPEC.obs_len, false);
        let mask = PyArray1::<i8>::zeros(py, crate::SPEC.num_actions, false);
        guard(|| {
            // SAFETY: both arrays were just created here and no other reference to them exists.
            let (o, m) = unsafe { (obs.as_slice_mut(), mask.as_slice_mut()) };
            let (o, m) = (
                o.map_err(|e| PyValueError::new_err(e.to_string()))?,
                m.map_err(|e| PyValueError::new_err(e.to_string()))?,
            );
            self.env.observe_into(s, o);
            if self.env.current_player() == Some(s) {
                let bits = self.env.legal_mask().0;
                for (i, x) in m.iter_mut().enumerate() {
                    *x = ((bits >> i) & 1) as i8;
                }
            }
            Ok(())
        })?;
        Ok((obs, mask))
    }

    /// The seat to act, `None` once the game is over.
    #[getter]
    fn actor(&self) -> Option<u8> {
        self.env.current_player().map(|s| s.0)
    }

    /// The acting seat's legal actions as an int of `NUM_ACTIONS` bits (bit `a` = action `a`).
    #[getter]
    fn mask_bits(&self) -> u64 {
        self.env.legal_mask().0
    }

    /// The acting seat's legal action indices.
    fn legal_actions(&self) -> Vec<usize> {
        self.env.legal_mask().indices().collect()
    }

    /// Rewards every seat received on the last step (non-zero only on the final one).
    #[getter]
    fn rewards(&self) -> Vec<f32> {
        self.last.rewards[..self.env.num_players() as usize].to_vec()
    }

    /// Each seat's return since the last reset.
    #[getter]
    fn returns(&self) -> Vec<f32> {
        self.env.returns()[..self.env.num_players() as usize].to_vec()
    }

    /// The game ended by its rules.
    #[getter]
    fn terminated(&self) -> bool {
        self.last.terminated
    }

    /// The round limit cut the game off (rewards 0).
    #[getter]
    fn truncated(&self) -> bool {
        self.last.truncated
    }

    /// Terminated or truncated.
    #[getter]
    fn done(&self) -> bool {
        self.env.is_done()
    }

    /// The winners (empty until the end, and for truncated games).
    #[getter]
    fn winners(&self) -> Vec<u8> {
        self.env.winners().iter().map(|s| s.0).collect()
    }

    /// Seats at the table.
    #[getter]
    fn num_players(&self) -> u8 {
        self.env.num_players()
    }

    /// The seed of the current game.
    #[getter]
    fn seed(&self) -> u64 {
        self.env.seed()
    }

    /// Actions applied since the last reset.
    #[getter]
    fn episode_steps(&self) -> u32 {
        self.env.episode_steps()
    }

    /// Round number (0 before round 1's token choice).
    #[getter]
    fn round(&self) -> u16 {
        self.env.state().round()
    }

    /// The rules in force, as JSON.
    fn rules_json(&self) -> String {
        serde_json::to_string(&self.env.config().rules).unwrap_or_default()
    }

    /// The position as text, as `sabacc scenario` prints it.
    fn render(&self) -> PyResult<String> {
        guard(|| Ok(render(&self.env)))
    }
}
