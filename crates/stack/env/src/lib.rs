//! A Gym-like, multi-agent environment over any game of the game interface ([`game::Game`]).
//!
//! * [`Env`]: one game, agent–environment cycle. `reset(seed)` / `step(action_index)` return a
//!   [`TimeStep`]: the seat to act next, its legal-action mask, the reward every seat got on this
//!   step, and terminated / truncated flags. Observations are written into caller buffers with
//!   [`Env::observe_into`] (or [`Env::step_into`]).
//! * [`SingleAgentEnv`]: Gymnasium-shaped wrapper, one learner seat against [`Agent`]s.
//! * [`VecEnv`]: `N` games in parallel (rayon) into contiguous buffers, with auto-reset.
//! * [`Driver`]: the one game loop — lockstep games of any mix of players, each decision handed
//!   to a [`Controller`] (the arena, the trainer, the tools); [`AgentTable`] seats [`Agent`]s.
//! * [`conformance`]: the reusable random-simulation / API / no-leak harness every game passes.
//! * [`bench`](mod@bench): throughput measurement behind `sabacc bench env`.
//!
//! Everything here is generic over the game and monomorphised; sizes come from the game's
//! [`EnvSpec`] (`G::SPEC`), never from constants. Which games exist is the registry's business
//! (`crates/games/registry`), not this crate's.
//!
//! # Actions
//! Each game's flat actions are numbered `0..G::SPEC.num_actions`; [`Game::action_name`] gives
//! their documented names. The mask is never empty at a decision. An illegal index is an
//! [`EnvError::IllegalAction`] and changes nothing; it is never replaced by a legal one.
//!
//! # Rewards
//! Rewards are 0 on every step but the last; a seat's return is the sum of its rewards, i.e. its
//! terminal reward under the env's [`RewardMode`] (see [`game::reward`]). A game truncated by its
//! length limit pays 0 to every seat. Rewards are indexed by absolute seat; padding seats
//! (beyond the table) always get 0.
//!
//! # Determinism
//! All randomness lives in the game state, seeded by `reset(seed)`; agents get their own
//! seeded RNGs. The same seed and actions give bit-identical streams, whatever other RNGs or
//! threads do.

#![warn(missing_docs)]

pub mod bench;
pub mod conformance;
pub mod driver;
pub mod env;
pub mod play;
pub mod seed;
pub mod single;
pub mod vec_env;

pub use driver::{Controller, Driver, DriverError, Finished, GameStart, Pending, StepEvent};
pub use env::{Env, EnvError, GameConfig, TimeStep};
pub use game::{
    Agent, AgentBuilder, AgentError, AgentRng, EnvSpec, Game, GameAction, LegalMask, MAX_PLAYERS, RandomAgent,
    RewardMode, act_each,
};
pub use play::{AgentTable, GameRecord, TableError, play_game};
pub use single::{LearnerSeat, SingleAgentEnv, SingleInfo};
pub use vec_env::{Decision, EpisodeInfo, VecEnv};
