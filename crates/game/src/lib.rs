//! The game interface and the kernel every game shares. It knows no game.
//!
//! * [`Game`] ([`game`](mod@game)): the contract a game crate implements — its engine, rules,
//!   views, actions, encoder, rewards, bots and scenarios — which the generic stack (env, agents,
//!   arena, trainer, export) is written against and monomorphised over.
//! * [`GameType`] and [`DynGame`] ([`dynamic`]): the same contract behind trait objects, for
//!   front-ends that choose a game at run time (the play server, Python, WebAssembly, C).
//! * [`Agent`] ([`game::agent`]): anything that picks an action from one seat's view; every game's bots
//!   and every trained policy sit behind it.
//! * The kernel: seats and seat sets ([`seat`]), bitsets ([`bitset`]), legal-action masks of any
//!   width ([`mask`]), seeded streams ([`stream`]), the reward conventions ([`reward`]), the
//!   sizes of a game's tensors ([`EnvSpec`]), typed errors ([`GameError`]) and the engine
//!   benchmark loop ([`bench`](mod@bench)).
//!
//! Imports point one way: this crate → the game crates → the generic stack → the front-ends.

#![warn(missing_docs)]

pub mod bench;
pub mod bitset;
pub mod dynamic;
pub mod error;
pub mod game;
pub mod mask;
pub mod names;
pub mod reward;
pub mod seat;
pub mod spec;
pub mod stream;

pub use dynamic::{DynGame, GameType, Played, Registered};
pub use error::GameError;
pub use game::agent::{Agent, AgentBuilder, AgentError, AgentRng, RandomAgent, Scored, Scores, act_each};
pub use game::guide::Guide;
pub use game::{BotEntry, BotParameter, Game, GameAction, LegalMask, ObservationLayout, SeatEnd, TrackedPlay};
pub use mask::ActionMask;
pub use reward::{RewardMode, zero_sum_rewards};
pub use seat::{MAX_PLAYERS, Seat, SeatSet};
pub use spec::EnvSpec;
pub use stream::{derive_seed, splitmix64};
