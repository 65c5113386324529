//! The multi-agent, turn-based environment (agent–environment cycle, OpenSpiel style).
//!
//! One [`SabaccEnv`] is one game. The engine says whose decision it is; the env hands that
//! seat's observation and legal-action mask out, takes its action index, and returns a
//! [`TimeStep`] with the reward *every* seat received on that step. There are no dead steps:
//! eliminated seats are never asked to act. Illegal actions are errors, never replaced.

use crate::obs::{OBS_LEN, encode};
use crate::reward::{RewardMode, terminal_rewards};
use engine::{Action, ActionMask, ConfigError, MAX_PLAYERS, PlayerView, RuleConfig, Seat, SeatSet, State};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Everything that defines an environment: the rules and the reward convention.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnvConfig {
    /// The engine's rules (K9 options, number of players).
    pub rules: RuleConfig,
    /// Terminal reward convention.
    #[serde(default)]
    pub reward: RewardMode,
    /// Keep the engine's public event log (off by default: it costs time and the env does not
    /// need it; replays and UIs switch it on).
    #[serde(default)]
    pub event_log: bool,
}

impl EnvConfig {
    /// Default rules at a table of `players`, win/loss rewards.
    pub fn with_players(players: u8) -> Self {
        EnvConfig { rules: RuleConfig::with_players(players), ..Default::default() }
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
    /// The action index is not legal for the seat to act (or is outside 0..48).
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
    /// The rules config is invalid.
    #[error("invalid rules: {0}")]
    Config(#[from] ConfigError),
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
        error: crate::agent::AgentError,
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
    pub(crate) fn illegal(index: usize, seat: Option<Seat>, mask: ActionMask) -> EnvError {
        EnvError::IllegalAction { index, name: crate::action_name(index), seat, legal: mask.indices().collect() }
    }

    /// `self`, as it happened in environment `env` of a vectorised call.
    pub(crate) fn in_env(self, env: usize) -> EnvError {
        EnvError::InEnv { env, error: Box::new(self) }
    }
}

/// What one `reset` or `step` returns: who acts next, with which legal actions, and the reward
/// every seat received on this step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeStep {
    /// The seat to act next; `None` once the game is over.
    pub actor: Option<Seat>,
    /// Its legal actions (empty once the game is over, never empty otherwise).
    pub mask: ActionMask,
    /// Reward each seat received on this step, indexed by absolute seat (padding seats 0).
    /// Non-zero only on the final step (see [`crate::reward`]).
    pub rewards: [f32; MAX_PLAYERS],
    /// The game ended by its rules (K6.4).
    pub terminated: bool,
    /// The game was cut off by the round limit (K6.5); rewards are 0.
    pub truncated: bool,
}

impl TimeStep {
    /// Terminated or truncated: call `reset` before stepping again.
    #[inline]
    pub fn done(&self) -> bool {
        self.terminated || self.truncated
    }
}

/// One game of Kessel Sabacc as an RL environment.
#[derive(Clone, Debug)]
pub struct SabaccEnv {
    config: EnvConfig,
    state: State,
    mask: ActionMask,
    seed: u64,
    steps: u32,
    returns: [f32; MAX_PLAYERS],
}

impl SabaccEnv {
    /// A new environment, already reset with seed 0 (call [`SabaccEnv::reset`] to choose the
    /// deal). Fails if the rules are invalid.
    pub fn new(config: EnvConfig) -> Result<SabaccEnv, EnvError> {
        let state = Self::fresh_state(&config, 0)?;
        let mask = state.legal_mask();
        Ok(SabaccEnv { config, state, mask, seed: 0, steps: 0, returns: [0.0; MAX_PLAYERS] })
    }

    /// An environment positioned at `state` (e.g. a position loaded with
    /// [`engine::Scenario::from_json`]) under the state's rules and `reward`; a later `reset`
    /// deals fresh games under the same rules. Front-ends use it to start play from a scenario.
    pub fn from_state(state: State, reward: RewardMode) -> SabaccEnv {
        let config = EnvConfig { rules: *state.config(), reward, event_log: false };
        let mask = state.legal_mask();
        SabaccEnv { config, state, mask, seed: 0, steps: 0, returns: [0.0; MAX_PLAYERS] }
    }

    fn fresh_state(config: &EnvConfig, seed: u64) -> Result<State, EnvError> {
        let mut s = State::new(config.rules, seed)?;
        s.set_event_logging(config.event_log);
        Ok(s)
    }

    /// Starts a new game whose every random event is determined by `seed`. The same seed gives
    /// the same game, whatever else happened before.
    pub fn reset(&mut self, seed: u64) -> TimeStep {
        self.state = Self::fresh_state(&self.config, seed).expect("config validated in new");
        self.mask = self.state.legal_mask();
        self.seed = seed;
        self.steps = 0;
        self.returns = [0.0; MAX_PLAYERS];
        self.timestep([0.0; MAX_PLAYERS])
    }

    /// Starts from `state` (a position to play on from; its rules must be this env's), with the
    /// episode's step count and returns at zero. The seed reported is the state's random seed.
    pub fn reset_to(&mut self, state: State) -> TimeStep {
        debug_assert_eq!(state.config(), &self.config.rules, "the driver checks the rules");
        self.seed = state.rng().seed();
        self.state = state;
        self.state.set_event_logging(self.config.event_log);
        self.mask = self.state.legal_mask();
        self.steps = 0;
        self.returns = [0.0; MAX_PLAYERS];
        self.timestep([0.0; MAX_PLAYERS])
    }

    /// [`SabaccEnv::reset`], writing the first actor's observation into `obs`.
    pub fn reset_into(&mut self, seed: u64, obs: &mut [f32]) -> TimeStep {
        let ts = self.reset(seed);
        self.observe_actor_into(obs);
        ts
    }

    #[inline]
    fn timestep(&self, rewards: [f32; MAX_PLAYERS]) -> TimeStep {
        TimeStep {
            actor: self.state.current_player(),
            mask: self.mask,
            rewards,
            terminated: self.state.is_terminal() && !self.state.is_truncated(),
            truncated: self.state.is_truncated(),
        }
    }

    /// Applies the acting seat's action by index (0..48). Errors, leaving the env unchanged, if
    /// the game is over or the action is not in the mask.
    #[inline]
    pub fn step(&mut self, action: usize) -> Result<TimeStep, EnvError> {
        if self.state.is_terminal() {
            return Err(EnvError::GameOver);
        }
        if !self.mask.contains_index(action) {
            return Err(EnvError::illegal(action, self.state.current_player(), self.mask));
        }
        let a = Action::from_index(action).expect("masked indices are valid");
        self.state.apply(a).map_err(|_| EnvError::illegal(action, self.state.current_player(), self.mask))?;
        self.steps += 1;
        self.mask = self.state.legal_mask();
        let mut rewards = [0.0; MAX_PLAYERS];
        if self.state.is_terminal() {
            rewards = terminal_rewards(&self.state, self.config.reward);
            for (r, x) in self.returns.iter_mut().zip(rewards) {
                *r += x;
            }
        }
        Ok(self.timestep(rewards))
    }

    /// [`SabaccEnv::step`], then writes into `obs` the observation of the next seat to act, or,
    /// when the game just ended, the final observation of the seat that acted.
    #[inline]
    pub fn step_into(&mut self, action: usize, obs: &mut [f32]) -> Result<TimeStep, EnvError> {
        let actor = self.state.current_player();
        let ts = self.step(action)?;
        match ts.actor.or(actor) {
            Some(s) => self.observe_into(s, obs),
            None => unreachable!("step succeeded, so someone acted"),
        }
        Ok(ts)
    }

    /// Writes `seat`'s observation (length [`OBS_LEN`]) into `obs`. Any seat at the table may be
    /// observed at any time, including after the game ended.
    ///
    /// # Panics
    /// If `seat` is not at the table, or `obs.len() != OBS_LEN`.
    #[inline]
    pub fn observe_into(&self, seat: Seat, obs: &mut [f32]) {
        encode(&self.state.view(seat), obs);
    }

    /// Writes the acting seat's observation (seat 0's once the game is over).
    #[inline]
    pub fn observe_actor_into(&self, obs: &mut [f32]) {
        self.observe_into(self.state.current_player().unwrap_or(Seat(0)), obs);
    }

    /// `seat`'s observation in a new vector (convenience; hot loops use `observe_into`).
    pub fn observe(&self, seat: Seat) -> Vec<f32> {
        let mut v = vec![0.0; OBS_LEN];
        self.observe_into(seat, &mut v);
        v
    }

    /// What `seat` may see, for scripted agents.
    ///
    /// # Panics
    /// If `seat` is not at the table.
    pub fn view(&self, seat: Seat) -> PlayerView {
        self.state.view(seat)
    }

    /// The seat to act, `None` once the game is over.
    #[inline]
    pub fn current_player(&self) -> Option<Seat> {
        self.state.current_player()
    }

    /// The acting seat's legal actions (empty once the game is over).
    #[inline]
    pub fn legal_mask(&self) -> ActionMask {
        self.mask
    }

    /// True once the game ended (won or truncated).
    #[inline]
    pub fn is_done(&self) -> bool {
        self.state.is_terminal()
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
        self.state.winners()
    }

    /// Number of seats at the table.
    pub fn num_players(&self) -> u8 {
        self.config.rules.players
    }

    /// The sizes of this environment's observations and actions.
    pub fn spec(&self) -> crate::EnvSpec {
        crate::EnvSpec::KESSEL
    }

    /// The environment's rules and reward convention.
    pub fn config(&self) -> &EnvConfig {
        &self.config
    }

    /// The full engine state, hidden cards included: for evaluation, replays and tests, never
    /// for agents.
    pub fn state(&self) -> &State {
        &self.state
    }
}
