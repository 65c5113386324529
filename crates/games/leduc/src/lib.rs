//! Leduc hold'em (Southey et al. 2005): exact rules, a tabular CFR+ solver and exact
//! exploitability (NashConv).
//!
//! The entry point is [`State`]; everything a player may see is a [`PlayerView`].
//!
//! ```
//! use leduc::{Action, RuleConfig, State};
//! let mut s = State::new(RuleConfig::default(), 7).unwrap();
//! while !s.is_terminal() {
//!     s.apply(Action::Call).unwrap(); // check or call down to a showdown
//! }
//! assert_eq!(s.returns()[0] + s.returns()[1], 0.0);
//! ```

#![warn(missing_docs)]

pub mod action;
pub mod betting;
pub mod bots;
pub mod card;
pub mod cfr;
pub mod config;
pub mod deal;
pub mod error;
pub mod event;
pub mod exploitability;
pub mod infoset;
pub mod interface;
pub mod obs;
pub mod policy;
pub mod render;
pub mod sample;
pub mod state;
pub mod tree;
pub mod values;
pub mod view;

pub use action::{Action, ActionMask, NUM_ACTIONS};
pub use card::{Card, DECK, Rank, Suit};
pub use cfr::{CfrSolver, solve};
pub use config::PLAYERS;
pub use config::{ConfigError, RuleConfig};
pub use deal::{Deal, NUM_DEALS};
pub use error::{ActionError, DealError, ReplayError};
pub use event::Event;
pub use exploitability::{Exploitability, ExploitabilityError, nash_conv};
pub use infoset::InfoKey;
pub use interface::Leduc;
pub use obs::{OBS_LEN, OBS_VERSION};
pub use policy::{PolicyError, TabularPolicy};
pub use state::State;
pub use view::PlayerView;
