//! A Gym-like, multi-agent environment over the project's games.
//!
//! * [`Game`]: the seam a game plugs into — its engine, rules, views, actions, encoder and
//!   [`EnvSpec`]; [`games`] registers the two this build plays, [`Kessel`] and [`Classic`]
//!   (chosen at run time by [`GameId`]). Everything below is generic over it; the names without
//!   a game parameter ([`SabaccEnv`], [`EnvConfig`], …) are Kessel's.
//! * [`Env`] ([`SabaccEnv`], [`ClassicEnv`]): one game, agent–environment cycle. `reset(seed)` / `step(action_index)`
//!   return a [`TimeStep`]: the seat to act next, its legal-action mask, the reward every seat
//!   got on this step, and terminated / truncated flags. Observations are written into caller
//!   buffers with [`SabaccEnv::observe_into`] (or [`SabaccEnv::step_into`]).
//! * [`SingleAgentEnv`]: Gymnasium-shaped wrapper, one learner seat against [`Agent`]s.
//! * [`VecEnv`]: `N` games in parallel (rayon) into contiguous buffers, with auto-reset.
//! * [`obs`]: the observation encoder (`OBS_LEN` floats, layout in `docs/observation.md`).
//! * [`EnvSpec`]: the sizes above-env code builds from (observation length, action count, id) —
//!   code outside the env reads them from [`Game::SPEC`] (or a checkpoint's metadata), never
//!   from the constants.
//! * [`Driver`]: the one game loop — lockstep games of any mix of players, each decision handed
//!   to a [`Controller`] (the arena, the trainer, the tools); [`AgentTable`] seats [`Agent`]s.
//! * [`conformance`]: the reusable random-simulation / API / no-leak harness.
//! * [`bench`](mod@bench): throughput measurement behind `sabacc bench env`.
//!
//! # Actions
//! Each game's flat actions: Kessel's 48 ([`NUM_ACTIONS`]), classic's 44; [`Game::action_name`]
//! gives their documented names ([`action_name`] Kessel's).
//! The mask is never empty at a decision. An illegal index is an [`EnvError::IllegalAction`]
//! and changes nothing; it is never replaced by a legal one.
//!
//! # Rewards (see [`reward`])
//! Rewards are 0 on every step but the last; a seat's return is the sum of its rewards, i.e. its
//! terminal reward. Default [`RewardMode::WinLoss`], zero-sum: with `n` players and `k` game
//! winners each winner gets `+1/k` and each other seat `-1/(n-k)` (sole winner: +1, others
//! `-1/(n-1)`). [`RewardMode::Placement`]: seats ranked winners first, then by elimination
//! round (later is better, same round ties); rank `r` is worth `1 - 2r/(n-1)`, ties share the
//! mean. A game truncated by the round limit pays 0 to every seat in both modes. Rewards are
//! indexed by absolute seat; padding seats (beyond the table) always get 0.
//!
//! # Determinism
//! All randomness lives in the engine state, seeded by `reset(seed)`; agents get their own
//! seeded RNGs. The same seed and actions give bit-identical streams, whatever other RNGs or
//! threads do.

#![warn(missing_docs)]

pub mod agent;
pub mod bench;
pub mod conformance;
pub mod driver;
pub mod env;
pub mod game;
pub mod games;
pub mod obs;
pub mod play;
pub mod reward;
pub mod seed;
pub mod single;
pub mod spec;
pub mod vec_env;

pub use agent::{Agent, AgentBuilder, AgentError, AgentRng, RandomAgent, act_each};
pub use driver::{Controller, Driver, DriverError, Finished, GameStart, Pending, StepEvent};
pub use kessel::{Action, ActionMask, MAX_PLAYERS, NUM_ACTIONS};
pub use env::{ClassicEnv, Env, EnvConfig, EnvError, GameConfig, SabaccEnv, TimeStep};
pub use game::{Game, GameAction, LegalMask, ObservationLayout, SeatEnd, TokenPlay};
pub use games::{Classic, GameId, Kessel};
pub use obs::{OBS_LEN, OBS_VERSION, encode};
pub use play::{AgentTable, GameRecord, TableError, play_game};
pub use reward::RewardMode;
pub use single::{LearnerSeat, SingleAgentEnv, SingleInfo};
pub use spec::EnvSpec;
pub use vec_env::{Decision, EpisodeInfo, VecEnv};

/// Kessel's versioned environment id for run names and checkpoints; bumped with the observation
/// layout or the reward conventions. Each game's is [`EnvSpec::id`].
pub const ENV_ID: &str = EnvSpec::KESSEL.id;

/// The documented name of Kessel action `index` (`stand`, `draw:sand-deck`, `token:embargo`,
/// `target:+2`, …), or `invalid` outside 0..48. Allocation-free, for logs and reports.
pub fn action_name(index: usize) -> &'static str {
    Kessel::action_name(index)
}
