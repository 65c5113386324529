//! The heuristic and search bots.
//!
//! Every bot implements [`env::Agent`] and sees only its player's [`engine::PlayerView`], the
//! legal-action mask and its RNG. Agent specs (`expert`, `search:64`, checkpoint paths, …) are
//! parsed and built by the `agents` crate, the one place every front-end goes through.

pub mod expert;
pub mod flawed;
pub mod greedy;
pub mod hand;
pub mod search;

pub use expert::ExpertAgent;
pub use flawed::{Flaw, FlawedAgent};
pub use greedy::GreedyAgent;
pub use search::SearchAgent;
