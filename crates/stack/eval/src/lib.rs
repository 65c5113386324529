//! Evaluation of Kessel Sabacc agents: heuristic and search bots, the arena (seat rotation,
//! duplicate deals, deterministic parallel play), statistics with confidence intervals
//! (Wilson, Bradley–Terry with bootstrap), Shift Token usage, and Markdown/JSON/PNG reports.
//!
//! ```no_run
//! use eval::arena::{run, ArenaConfig};
//! # struct Bots;
//! # impl env::AgentBuilder for Bots {
//! #     fn build(&self, spec: &str) -> Result<Box<dyn env::Agent>, String> {
//! #         match spec {
//! #             "expert" => Ok(Box::new(eval::bots::ExpertAgent::new())),
//! #             _ => Ok(Box::new(eval::bots::GreedyAgent::new())),
//! #         }
//! #     }
//! # }
//! let cfg = ArenaConfig {
//!     agents: vec!["expert".into(), "greedy".into()],
//!     players: 2,
//!     games: 200,
//!     seed: 1,
//!     rules: kessel::RuleConfig::default(),
//! };
//! let res = run(&cfg, &Bots, &|| {}).unwrap(); // the `agents` crate's `Agents` in real use
//! let report = eval::report::build(&cfg, &res);
//! println!("{}", eval::report::markdown(&report));
//! ```

// Seats, families and agents index several parallel arrays at once.
#![allow(clippy::needless_range_loop)]

pub mod arena;
pub mod bots;
pub mod ladder;
pub mod output;
pub mod plot;
pub mod report;
pub mod stats;
pub mod tasks;

pub use arena::{ArenaConfig, ArenaError, ArenaResult, GameRecord};
pub use report::Report;
