//! Evaluation of agents of any game: the arena (seat rotation, duplicate deals, deterministic
//! parallel play), statistics with confidence intervals (Wilson, Bradley–Terry with bootstrap),
//! counted plays (Kessel's Shift Tokens), Markdown/JSON/PNG reports, the rating ladder, the ship
//! gate on a fixed panel, and exact exploitability for games small enough to walk.
//!
//! ```no_run
//! use eval::arena::{run, ArenaConfig, SeatingPlan};
//! use games::kessel::{Kessel, RuleConfig};
//! let cfg = ArenaConfig::<Kessel> {
//!     agents: vec!["expert".into(), "greedy".into()],
//!     players: 2,
//!     games: 200,
//!     seed: 1,
//!     rules: RuleConfig::default(),
//!     seating: SeatingPlan::Every,
//! };
//! # struct Bots;
//! # impl game::AgentBuilder<Kessel> for Bots {
//! #     fn build(&self, spec: &str) -> Result<Box<dyn game::Agent<Kessel>>, String> {
//! #         match spec {
//! #             "expert" => Ok(Box::new(games::kessel::bots::ExpertAgent::new())),
//! #             _ => Ok(Box::new(games::kessel::bots::GreedyAgent::new())),
//! #         }
//! #     }
//! # }
//! let res = run(&cfg, &Bots, &|| {}).unwrap(); // the `agents` crate's `Agents` in real use
//! let report = eval::report::build(&cfg, &res);
//! println!("{}", eval::report::markdown(&report));
//! ```

// Seats, families and agents index several parallel arrays at once.
#![allow(clippy::needless_range_loop)]

pub mod arena;
pub mod average;
pub mod exploitability;
pub mod gate;
pub mod ladder;
pub mod least_exploitable;
pub mod output;
pub mod paired;
pub mod plot;
pub mod report;
pub mod stats;
pub mod student_t;
pub mod table;
pub mod tasks;

pub use arena::{ArenaConfig, ArenaError, ArenaResult, GameRecord};
pub use report::Report;
