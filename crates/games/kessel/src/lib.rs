//! The exact rules of Kessel Sabacc (`docs/rules.md`, rule ids K1–K9), deterministic under a seed.
//!
//! The engine knows nothing of tensors, agents or files. Its entry point is [`State`]:
//!
//! ```
//! use kessel::{RuleConfig, State};
//! let mut s = State::new(RuleConfig::with_players(4), 7).unwrap();
//! while !s.is_terminal() {
//!     let a = s.legal_actions()[0];
//!     s.apply(a).unwrap();
//! }
//! assert!(s.is_truncated() || !s.winners().is_empty());
//! ```

pub mod action;
pub mod bots;
pub mod card;
pub mod chips;
pub mod config;
pub mod error;
pub mod event;
pub mod interface;
pub mod obs;
pub mod pending;
pub mod pile;
pub mod ranking;
pub mod render;
pub mod reward;
pub mod rng;
pub mod sample;
pub mod scenario;
pub mod state;
pub mod token;
pub mod view;

pub use action::{Action, ActionMask, NUM_ACTIONS, Source, without_tokens};
pub use card::{Card, CardKind, CardSet, Family};
pub use chips::Chips;
pub use config::{ConfigError, RuleConfig};
pub use error::ActionError;
pub use event::Event;
pub use interface::{Kessel, action_name};
pub use ranking::{HandClass, RankingMods, Resolved};
pub use scenario::{Scenario, ScenarioError};
pub use state::{LastAction, Outcome, Pending, Settlement, State, StateBuilder};
pub use token::{Token, TokenGroup, TokenSet};
pub use view::{PlayerView, SeatView, ViewDecision};
