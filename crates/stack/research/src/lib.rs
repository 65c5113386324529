//! Shift Token research: controlled experiments on what each token is worth (`value`), which
//! loadouts win (`loadouts`, best-arm identification with a stated error probability), when to
//! play one (`timing`, judged only on what the deciding seat can see) and what agents pick when
//! they choose (`draft`), which tokens work together (`interactions`, a logistic regression over
//! random loadouts) and what good drafting is: the empirical game among a race's leaders,
//! heads-up (`metagame`, which also measures the gain of the draft `expert` takes) and at more
//! seats (`field`), read as one piece of advice per table size and agent (`answer`); `stats`
//! holds the multiple-comparison correction and the rank bootstrap every significance claim goes
//! through; `report` runs them all into one research document, answer first, keeping each
//! finished study in `stages` so that a stopped report resumes; `variants` re-runs the top
//! findings under the K9 alternatives that touch tokens.
//!
//! Every study plays *paired* games: two arms that share the deal (game seed), the seating, the
//! other seats' loadouts and every agent's RNG seed, and differ only in what is studied (the
//! focal seat's tokens, or one decision). Games are played only through [`env::Driver`]
//! ([`study::play`], [`timing::rollouts`]), on all cores, and every seed is a pure function of
//! (study seed, deal index), so results do not depend on the thread count.

#![warn(missing_docs)]

pub mod answer;
pub mod draft;
pub mod duel;
pub mod error;
pub mod estimate;
pub mod field;
pub mod interactions;
pub mod loadouts;
pub mod metagame;
pub mod output;
pub mod report;
pub mod stages;
pub mod stats;
pub mod study;
pub mod timing;
pub mod timing_report;
pub mod value;
pub mod variants;

pub use error::ResearchError;
