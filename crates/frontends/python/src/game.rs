//! `Game`: one game of any registered game (`game="kessel"`, `"classic"`, …), the engine under
//! the PettingZoo AEC env. It holds the game behind the object-safe [`DynGame`], so one class
//! plays every game; only dealing a game goes through the per-game table ([`per_game`]).
//! Observations and masks are written straight into fresh numpy arrays.

use crate::args;
use crate::errors::{game_error, guard};
use crate::games::game_arg;
use crate::per_game;
use ::game::{DynGame, Game as GameTrait, GameError, MAX_PLAYERS, Played, RewardMode, Seat};
use games::GameId;
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// An observation and its legal-action mask, as numpy arrays.
type Observation<'py> = (Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<i8>>);

/// A new game of `G` under `rules` at `num_players` seats, dealt from seed 0, event log off.
pub fn new_game<G: GameTrait>(
    rules: Option<&Bound<'_, PyAny>>,
    num_players: Option<i64>,
) -> PyResult<Box<dyn DynGame>> {
    let rules = args::rules::<G>(rules, num_players)?;
    guard(|| {
        let mut state = G::new_state(&rules, 0).map_err(|e| game_error("rules.", e))?;
        G::set_event_logging(&mut state, false);
        Ok(Box::new(Played::<G>::new(state)) as Box<dyn DynGame>)
    })
}

/// A new game of `G` under `game`'s rules, dealt from `seed`: what a reset deals, without going
/// through the rules' JSON.
pub fn redeal<G: GameTrait>(game: &dyn DynGame, seed: u64) -> Result<Box<dyn DynGame>, GameError> {
    let Some(played) = game.as_any().downcast_ref::<Played<G>>() else {
        return game.game_type().new_game(Some(&game.rules()), None, seed);
    };
    let mut state = G::new_state(G::rules(&played.state), seed)?;
    G::set_event_logging(&mut state, false);
    Ok(Box::new(Played::<G>::new(state)))
}

/// One game: `reset(seed)`, `step(action)`, `observe(seat)`. Seats are ints `0..num_players`;
/// actions are indices `0..num_actions` (`action_names(game)`); an illegal action raises
/// `ValueError` and changes nothing.
#[pyclass(module = "kessel_sabacc._native")]
pub struct Game {
    game: Box<dyn DynGame>,
    id: GameId,
    reward: RewardMode,
    /// What every seat received on the last step (non-zero only on the final one).
    rewards: [f32; MAX_PLAYERS],
    /// Every seat's return since the last reset.
    returns: [f32; MAX_PLAYERS],
    /// Actions applied since the last reset.
    steps: u32,
}

impl Game {
    fn with(game: Box<dyn DynGame>, id: GameId, reward: RewardMode) -> Game {
        Game { game, id, reward, rewards: [0.0; MAX_PLAYERS], returns: [0.0; MAX_PLAYERS], steps: 0 }
    }

    /// The game in progress, for agents acting on it.
    pub fn dyn_game(&self) -> &dyn DynGame {
        self.game.as_ref()
    }

    /// Which game it plays.
    pub fn id(&self) -> GameId {
        self.id
    }

    fn seat(&self, seat: i64) -> PyResult<Seat> {
        let n = i64::from(self.game.players());
        if !(0..n).contains(&seat) {
            return Err(PyValueError::new_err(format!("seat must be in 0..{n}, got {seat}")));
        }
        Ok(Seat(seat as u8))
    }

    fn players(&self) -> usize {
        usize::from(self.game.players())
    }
}

#[pymethods]
impl Game {
    /// A game of `game` (a short id such as `"kessel"` or `"classic"`, or an environment id) at a
    /// table of `num_players` (default: the game's default table) under `rules` (dict or JSON;
    /// defaults otherwise) and the `reward` convention (`"win-loss"`, `"placement"`, `"payoff"`;
    /// default: the game's), dealt with seed 0.
    #[new]
    #[pyo3(signature = (num_players=None, rules=None, reward=None, game="kessel"))]
    fn new(
        num_players: Option<i64>,
        rules: Option<&Bound<'_, PyAny>>,
        reward: Option<&str>,
        game: &str,
    ) -> PyResult<Self> {
        let id = game_arg(game)?;
        let reward = args::reward(reward, id.game_type().default_reward())?;
        Ok(Game::with(per_game(id).new_game(rules, num_players)?, id, reward))
    }

    /// A game of `game` positioned at a scenario (JSON text, the format of `docs/scenarios.md`;
    /// classic Sabacc's in `docs/rules-classic.md`, "Scenario files").
    #[staticmethod]
    #[pyo3(signature = (text, reward=None, game="kessel"))]
    fn from_scenario(text: &str, reward: Option<&str>, game: &str) -> PyResult<Self> {
        let id = game_arg(game)?;
        let reward = args::reward(reward, id.game_type().default_reward())?;
        let game = guard(|| id.game_type().load_scenario(text).map_err(|e| game_error("scenario: ", e)))?;
        Ok(Game::with(game, id, reward))
    }

    /// The game it plays: its short id (`"kessel"`, `"classic"`).
    #[getter]
    fn game(&self) -> &'static str {
        self.id.name()
    }

    /// Deals a new game from `seed` (an int in 0..2**64): the same seed, the same game.
    fn reset(&mut self, seed: &Bound<'_, PyAny>) -> PyResult<()> {
        let seed = args::seed(seed, "seed")?;
        let id = self.id;
        let game = guard(|| per_game(id).redeal(self.game.as_ref(), seed).map_err(|e| game_error("rules.", e)))?;
        *self = Game::with(game, self.id, self.reward);
        Ok(())
    }

    /// Applies the acting seat's action. Returns `(actor, terminated, truncated)`: the next seat
    /// to act (`None` once the game is over) and the end flags. Raises `ValueError` for an
    /// illegal action or a finished game, `TypeError` for a non-int action.
    fn step(&mut self, action: &Bound<'_, PyAny>) -> PyResult<(Option<u8>, bool, bool)> {
        let a = args::action(action, self.id)?;
        guard(|| {
            if self.game.is_terminal() {
                return Err(PyValueError::new_err("the game is over; call reset"));
            }
            self.game.apply(a).map_err(|e| PyValueError::new_err(format!("illegal action {a}: {e}")))?;
            self.steps += 1;
            self.rewards = if self.game.is_terminal() { self.game.rewards(self.reward) } else { [0.0; MAX_PLAYERS] };
            for (r, x) in self.returns.iter_mut().zip(self.rewards) {
                *r += x;
            }
            Ok((self.actor(), self.terminated(), self.truncated()))
        })
    }

    /// `seat`'s observation (float32, `obs_len` values) and its legal-action mask (int8,
    /// `num_actions` values; all 0 unless `seat` is to act), in new arrays.
    fn observe<'py>(&self, py: Python<'py>, seat: i64) -> PyResult<Observation<'py>> {
        let s = self.seat(seat)?;
        let spec = self.id.spec();
        let obs = PyArray1::<f32>::zeros(py, spec.obs_len, false);
        let mask = PyArray1::<i8>::zeros(py, spec.num_actions, false);
        guard(|| {
            // SAFETY: both arrays were just created here and no other reference to them exists.
            let (o, m) = unsafe { (obs.as_slice_mut(), mask.as_slice_mut()) };
            let (o, m) = (
                o.map_err(|e| PyValueError::new_err(e.to_string()))?,
                m.map_err(|e| PyValueError::new_err(e.to_string()))?,
            );
            self.game.observe(s, o);
            if self.game.current_player() == Some(s) {
                let mut legal = vec![false; spec.num_actions];
                self.game.mask_bools(&mut legal);
                for (x, &l) in m.iter_mut().zip(&legal) {
                    *x = i8::from(l);
                }
            }
            Ok(())
        })?;
        Ok((obs, mask))
    }

    /// The acting seat's legal actions as `num_actions` bools (all False once the game is over).
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut legal = vec![false; self.id.spec().num_actions];
        self.game.mask_bools(&mut legal);
        PyArray1::from_vec(py, legal)
    }

    /// The acting seat's legal action indices.
    fn legal_actions(&self) -> Vec<usize> {
        self.game.legal_actions()
    }

    /// The seat to act, `None` once the game is over.
    #[getter]
    fn actor(&self) -> Option<u8> {
        self.game.current_player().map(|s| s.0)
    }

    /// Rewards every seat received on the last step (non-zero only on the final one).
    #[getter]
    fn rewards(&self) -> Vec<f32> {
        self.rewards[..self.players()].to_vec()
    }

    /// Each seat's return since the last reset.
    #[getter]
    fn returns(&self) -> Vec<f32> {
        self.returns[..self.players()].to_vec()
    }

    /// The game ended by its rules.
    #[getter]
    fn terminated(&self) -> bool {
        self.game.is_terminal() && !self.game.is_truncated()
    }

    /// The game's length limit (Kessel's round limit, classic's hand limit) cut it off; rewards 0.
    #[getter]
    fn truncated(&self) -> bool {
        self.game.is_truncated()
    }

    /// Terminated or truncated.
    #[getter]
    fn done(&self) -> bool {
        self.game.is_terminal()
    }

    /// The winners (empty until the end, and for truncated games).
    #[getter]
    fn winners(&self) -> Vec<u8> {
        self.game.winners().iter().map(|s| s.0).collect()
    }

    /// Seats at the table.
    #[getter]
    fn num_players(&self) -> u8 {
        self.game.players()
    }

    /// The seed of the current game.
    #[getter]
    fn seed(&self) -> u64 {
        self.game.seed()
    }

    /// Actions applied since the last reset.
    #[getter]
    fn episode_steps(&self) -> u32 {
        self.steps
    }

    /// How far the game got, in the game's unit (`game_info(game).progress`: Kessel's rounds,
    /// 0 before round 1's token choice; classic's hands, from 1).
    #[getter]
    fn progress(&self) -> u16 {
        self.game.progress()
    }

    /// The rules in force, as JSON.
    fn rules_json(&self) -> String {
        self.game.rules().to_string()
    }

    /// The whole position as text, for people, as `sabacc scenario` prints it.
    fn render(&self) -> PyResult<String> {
        guard(|| Ok(self.game.render(None)))
    }
}
