//! Expert iteration, one step at a time: a search agent plays, its per-action scores are kept
//! ([`collect()`]), and a network learns to choose as the search chose ([`fit()`]). Guided search
//! (`search:N+CHECKPOINT`) is stronger than its own network at play time; distilling it moves
//! some of that strength into the network, which plays thousands of times faster. A student
//! larger than its starting checkpoint starts from [`widen()`], a wider copy that plays the same.

pub mod collect;
pub mod fit;
pub mod samples;
pub mod widen;

pub use collect::{CollectOptions, CollectSummary, collect};
pub use fit::{FitOptions, FitReport, fit};
pub use widen::{Widened, widen};
