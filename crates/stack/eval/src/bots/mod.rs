//! The heuristic and search bots.
//!
//! Every bot implements [`env::Agent`] and sees only its player's [`kessel::PlayerView`], the
//! legal-action mask and its RNG. Agent specs (`expert`, `search:64`, checkpoint paths, …) are
//! parsed and built by the `agents` crate, the one place every front-end goes through.
//!
//! Besides `greedy`, `expert` and `search`, six style bots give training and evaluation a
//! population of clearly different opponents: `tight` and `loose` (how much risk they take with
//! their cards, [`risk`]), `aggressive` and `hoarder` (when they spend their tokens), `leader`
//! (whom they aim at) and `chipaware` (playing for the game rather than the round). [`draft`]
//! holds the expert's draft (K2.1 `choose`), taken from the token research.
//!
//! Every rule-based bot (all but `search`) is a [`style::Style`] — only the decisions it makes
//! its own way — played by the one template [`style::StyleBot`].

pub mod aggressive;
pub mod chipaware;
pub mod draft;
pub mod expert;
pub mod flawed;
pub mod greedy;
pub mod hand;
pub mod hoarder;
pub mod leader;
pub mod loose;
pub mod odds;
pub mod risk;
pub mod search;
pub mod style;
pub mod targets;
pub mod tight;

pub use aggressive::AggressiveAgent;
pub use chipaware::ChipAwareAgent;
pub use expert::ExpertAgent;
pub use flawed::{Flaw, FlawedAgent};
pub use greedy::GreedyAgent;
pub use hoarder::HoarderAgent;
pub use leader::LeaderAgent;
pub use loose::LooseAgent;
pub use search::{GuideSettings, NoWorld, SearchAgent, SearchDecision, SearchGuide};
pub use style::{Style, StyleBot};
pub use tight::TightAgent;
