//! The rules of classic Sabacc (spec: `CLASSIC.md`, rule ids C1–C9; restated in
//! `docs/rules-classic.md`), deterministic under a seed.
//!
//! The crate knows nothing of tensors, agents or files. Its entry point is [`State`]:
//!
//! ```
//! use classic::{RuleConfig, State};
//! let mut s = State::new(RuleConfig::with_players(4), 7).unwrap();
//! while !s.is_terminal() {
//!     let a = s.legal_actions()[0];
//!     s.apply(a).unwrap();
//! }
//! assert!(s.is_truncated() || !s.winners().is_empty());
//! ```

#![warn(missing_docs)]

pub mod action;
pub mod bots;
pub mod card;
pub mod config;
pub mod error;
pub mod event;
pub mod hand_end;
pub mod interface;
pub mod obs;
pub mod render;
pub mod rng;
pub mod sample;
pub mod scenario;
pub mod state;
pub mod view;

pub use action::{Action, ActionMask, NUM_ACTIONS};
pub use card::{Card, CardKind, Face, Hand, Pile, Suit};
pub use config::{ConfigError, RuleConfig};
pub use error::ActionError;
pub use event::{Event, Pot};
pub use interface::Classic;

pub use obs::{OBS_LEN, OBS_VERSION};
pub use scenario::{Scenario, ScenarioError};
pub use state::builder::Position;
pub use state::{
    Betting, HandClass, HandEnd, HandResult, Outcome, Pending, Player, SeatResult, ShiftSwap, State, StateBuilder,
};
pub use view::{PlayerView, SeatView};
