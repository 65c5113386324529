//! The multi-agent, turn-based environment (agent–environment cycle, OpenSpiel style).
//!
//! One [`Env`] is one game of any [`Game`]. The engine says whose decision it is; the env hands that
//! seat's observation and legal-action mask out, takes its action index, and returns a
//! [`TimeStep`] with the reward *every* seat received on that step. There are no dead steps:
//! eliminated seats are never asked to act. Illegal actions are errors, never replaced.

use game::RewardMode;
use game::{Game, GameAction, LegalMask};
use game::{MAX_PLAYERS, Seat, SeatSet};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Everything that defines an environment: the rules and the reward convention.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct GameConfig<G: Game> {
    /// The engine's rules (its options, number of players).
    pub rules: G::Rules,
    /// Terminal reward convention.
    #[serde(default)]
    pub reward: RewardMode,
    /// Keep the engine's public event log (off by default: it costs time and the env does not
    /// need it; replays and UIs switch it on).
    #[serde(default)]
    pub event_log: bool,
}

impl<G: Game> Default for GameConfig<G> {
    /// The game's default rules and reward convention, event log off.
    fn default() -> Self {
        GameConfig { rules: G::Rules::default(), reward: G::DEFAULT_REWARD, event_log: false }
    }
}

impl<G: Game> GameConfig<G> {
    /// Default rules at a table of `players`, the game's default reward convention.
    pub fn with_players(players: u8) -> Self {
        GameConfig { rules: G::rules_with_players(players), reward: G::DEFAULT_REWARD, event_log: false }
    }

    /// Seats at the table.
    pub fn players(&self) -> u8 {
        G::players(&self.rules)
    }

    /// The same config with another reward mode.
    pub fn with_reward(mut self, reward: RewardMode) -> Self {
        self.reward = reward;
        self
    }
}

/// Why a call to the environment failed. The env is unchanged after every error.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum EnvError {
    /// The action index is not legal for the seat to act (or is outside the action space).
    #[error("illegal action {index} ({name}) for {seat:?}; legal: {legal:?}")]
    IllegalAction {
        /// The offending index.
        index: usize,
        /// Its name, or `invalid` when out of range.
        name: &'static str,
        /// The seat whose decision it was.
        seat: Option<Seat>,
        /// The legal indices.
        legal: Vec<usize>,
    },
    /// `step` after the game ended; call `reset`.
    #[error("the game is over; call reset")]
    GameOver,
    /// The rules config is invalid (the message names the field).
    #[error("invalid rules: {0}")]
    Config(game::GameError),
    /// A game was to start from a position whose rules are not the game's config.
    #[error("the position's rules differ from the game's config (build it with GameStart::at)")]
    PositionRules,
    /// A scripted opponent (an [`crate::Agent`]) chose an illegal action.
    #[error("opponent `{agent}` at {seat} chose illegal action {index}")]
    OpponentIllegal {
        /// The agent's name.
        agent: String,
        /// Its seat.
        seat: Seat,
        /// The action index it chose.
        index: usize,
    },
    /// An agent could not choose an action (e.g. its inference failed).
    #[error("{error} (at {seat})")]
    Agent {
        /// Its seat.
        seat: Seat,
        /// What the agent reported.
        error: game::AgentError,
    },
    /// A vectorised call failed in one of its environments (the lowest-numbered one, if several).
    #[error("environment {env}: {error}")]
    InEnv {
        /// Which environment (its row in the `VecEnv` buffers).
        env: usize,
        /// What went wrong there.
        error: Box<EnvError>,
    },
    /// A vectorised call got the wrong number of actions.
    #[error("expected {expected} actions, got {got}")]
    BatchSize {
        /// Number of environments.
        expected: usize,
        /// Number of actions given.
        got: usize,
    },
}

impl EnvError {
    pub(crate) fn illegal<G: Game>(index: usize, seat: Option<Seat>, mask: G::Mask) -> EnvError {
        EnvError::IllegalAction { index, name: G::action_name(index), seat, legal: mask.index_list() }
    }

    /// `self`, as it happened in environment `env` of a vectorised call.
    pub(crate) fn in_env(self, env: usize) -> EnvError {
        EnvError::InEnv { env, error: Box::new(self) }
    }
}

/// What one `reset` or `step` returns: who acts next, with which legal actions, and the reward
/// every seat received on this step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeStep<G: Game> {
    /// The seat to act next; `None` once the game is over.
    pub actor: Option<Seat>,
    /// Its legal actions (empty once the game is over, never empty otherwise).
    pub mask: G::Mask,
    /// Reward each seat received on this step, indexed by absolute seat (padding seats 0).
    /// Non-zero only on the final step (see [`game::reward`]).
    pub rewards: [f32; MAX_PLAYERS],
    /// The game ended by its rules (K6.4).
    pub terminated: bool,
    /// The game was cut off by the round limit (K6.5); rewards are 0.
    pub truncated: bool,
}

impl<G: Game> TimeStep<G> {
    /// Terminated or truncated: call `reset` before stepping again.
    #[inline]
    pub fn done(&self) -> bool {
        self.terminated || self.truncated
    }
}

/// One game as an RL environment.
#[derive(Clone, Debug)]
pub struct Env<G: Game> {
    config: GameConfig<G>,
    state: G::State,
    mask: G::Mask,
    seed: u64,
    steps: u32,
    returns: [f32; MAX_PLAYERS],
}

impl<G: Game> Env<G> {
    /// A new environment, already reset with seed 0 (call [`Env::reset`] to choose the
    /// deal). Fails if the rules are invalid.
    pub fn new(config: GameConfig<G>) -> Result<Env<G>, EnvError> {
        let state = Self::fresh_state(&config, 0)?;
        let mask = G::legal_mask(&state);
        Ok(Env { config, state, mask, seed: 0, steps: 0, returns: [0.0; MAX_PLAYERS] })
    }

    /// An environment positioned at `state` (e.g. a position loaded with
    /// [`Game::load_scenario`]) under the state's rules and `reward`; a later `reset`
    /// deals fresh games under the same rules. Front-ends use it to start play from a scenario.
    pub fn from_state(state: G::State, reward: RewardMode) -> Env<G> {
        let config = GameConfig { rules: *G::rules(&state), reward, event_log: false };
        let mask = G::legal_mask(&state);
        Env { config, state, mask, seed: 0, steps: 0, returns: [0.0; MAX_PLAYERS] }
    }

    fn fresh_state(config: &GameConfig<G>, seed: u64) -> Result<G::State, EnvError> {
        let mut s = G::new_state(&config.rules, seed).map_err(EnvError::Config)?;
        G::set_event_logging(&mut s, config.event_log);
        Ok(s)
    }

    /// Starts a new game whose every random event is determined by `seed`. The same seed gives
    /// the same game, whatever else happened before.
    pub fn reset(&mut self, seed: u64) -> TimeStep<G> {
        self.state = Self::fresh_state(&self.config, seed).expect("config validated in new");
        self.mask = G::legal_mask(&self.state);
        self.seed = seed;
        self.steps = 0;
        self.returns = [0.0; MAX_PLAYERS];
        self.timestep([0.0; MAX_PLAYERS])
    }

    /// Starts from `state` (a position to play on from; its rules must be this env's), with the
    /// episode's step count and returns at zero. The seed reported is the state's random seed.
    pub fn reset_to(&mut self, state: G::State) -> TimeStep<G> {
        debug_assert_eq!(G::rules(&state), &self.config.rules, "the driver checks the rules");
        self.seed = G::seed(&state);
        self.state = state;
        G::set_event_logging(&mut self.state, self.config.event_log);
        self.mask = G::legal_mask(&self.state);
        self.steps = 0;
        self.returns = [0.0; MAX_PLAYERS];
        self.timestep([0.0; MAX_PLAYERS])
    }

    /// [`Env::reset`], writing the first actor's observation into `obs`.
    pub fn reset_into(&mut self, seed: u64, obs: &mut [f32]) -> TimeStep<G> {
        let ts = self.reset(seed);
        self.observe_actor_into(obs);
        ts
    }

    #[inline]
    fn timestep(&self, rewards: [f32; MAX_PLAYERS]) -> TimeStep<G> {
        let truncated = G::is_truncated(&self.state);
        TimeStep {
            actor: G::current_player(&self.state),
            mask: self.mask,
            rewards,
            terminated: G::is_terminal(&self.state) && !truncated,
            truncated,
        }
    }

    /// Applies the acting seat's action by index. Errors, leaving the env unchanged, if
    /// the game is over or the action is not in the mask.
    #[inline]
    pub fn step(&mut self, action: usize) -> Result<TimeStep<G>, EnvError> {
        if G::is_terminal(&self.state) {
            return Err(EnvError::GameOver);
        }
        match G::Action::from_index(action) {
            Some(a) if self.mask.contains_index(action) => Ok(self.step_legal(a)),
            _ => Err(EnvError::illegal::<G>(action, G::current_player(&self.state), self.mask)),
        }
    }

    /// [`Env::step`] with an action already checked against [`Env::legal_mask`]: the one check
    /// of a decision is the caller's (the driver checks every decision of a step before it
    /// applies any), and nothing here or in the engine checks it again.
    #[inline]
    pub(crate) fn step_legal(&mut self, a: G::Action) -> TimeStep<G> {
        G::apply_legal(&mut self.state, a);
        self.steps += 1;
        self.mask = G::legal_mask(&self.state);
        let mut rewards = [0.0; MAX_PLAYERS];
        if G::is_terminal(&self.state) {
            rewards = G::terminal_rewards(&self.state, self.config.reward);
            for (r, x) in self.returns.iter_mut().zip(rewards) {
                *r += x;
            }
        }
        self.timestep(rewards)
    }

    /// [`Env::step`], then writes into `obs` the observation of the next seat to act, or,
    /// when the game just ended, the final observation of the seat that acted.
    #[inline]
    pub fn step_into(&mut self, action: usize, obs: &mut [f32]) -> Result<TimeStep<G>, EnvError> {
        let actor = G::current_player(&self.state);
        let ts = self.step(action)?;
        match ts.actor.or(actor) {
            Some(s) => self.observe_into(s, obs),
            None => unreachable!("step succeeded, so someone acted"),
        }
        Ok(ts)
    }

    /// Writes `seat`'s observation (length `G::SPEC.obs_len`) into `obs`. Any seat at the table may be
    /// observed at any time, including after the game ended.
    ///
    /// # Panics
    /// If `seat` is not at the table, or `obs` has the wrong length.
    #[inline]
    pub fn observe_into(&self, seat: Seat, obs: &mut [f32]) {
        G::observe(&self.state, seat, obs);
    }

    /// Writes the acting seat's observation (seat 0's once the game is over).
    #[inline]
    pub fn observe_actor_into(&self, obs: &mut [f32]) {
        self.observe_into(G::current_player(&self.state).unwrap_or(Seat(0)), obs);
    }

    /// `seat`'s observation in a new vector (convenience; hot loops use `observe_into`).
    pub fn observe(&self, seat: Seat) -> Vec<f32> {
        let mut v = vec![0.0; G::SPEC.obs_len];
        self.observe_into(seat, &mut v);
        v
    }

    /// What `seat` may see, for scripted agents.
    ///
    /// # Panics
    /// If `seat` is not at the table.
    pub fn view(&self, seat: Seat) -> G::View {
        G::view(&self.state, seat)
    }

    /// The seat to act, `None` once the game is over.
    #[inline]
    pub fn current_player(&self) -> Option<Seat> {
        G::current_player(&self.state)
    }

    /// The acting seat's legal actions (empty once the game is over).
    #[inline]
    pub fn legal_mask(&self) -> G::Mask {
        self.mask
    }

    /// True once the game ended (won or truncated).
    #[inline]
    pub fn is_done(&self) -> bool {
        G::is_terminal(&self.state)
    }

    /// Sum of every seat's rewards since the last reset (its return once the game is over).
    pub fn returns(&self) -> [f32; MAX_PLAYERS] {
        self.returns
    }

    /// Actions applied since the last reset.
    pub fn episode_steps(&self) -> u32 {
        self.steps
    }

    /// The seed of the current game.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The game's winners (empty until it ends and for truncated games).
    pub fn winners(&self) -> SeatSet {
        G::winners(&self.state)
    }

    /// Number of seats at the table.
    pub fn num_players(&self) -> u8 {
        G::players(&self.config.rules)
    }

    /// The sizes of this environment's observations and actions.
    pub fn spec(&self) -> game::EnvSpec {
        G::SPEC
    }

    /// The environment's rules and reward convention.
    pub fn config(&self) -> &GameConfig<G> {
        &self.config
    }

    /// The full engine state, hidden cards included: for evaluation, replays and tests, never
    /// for agents.
    pub fn state(&self) -> &G::State {
        &self.state
    }
}
