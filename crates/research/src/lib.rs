//! Shift Token research: controlled experiments on what each token is worth (`value`), which
//! loadouts win (`loadouts`) and what agents pick when they choose (`draft`).
//!
//! Every study plays *paired* games: two arms that share the deal (game seed), the seating, the
//! other seats' loadouts and every agent's RNG seed, and differ only in the focal seat's tokens.
//! Games are played only through [`env::Driver`] ([`study::play`]), on all cores, and every seed
//! is a pure function of (study seed, deal index), so results do not depend on the thread count.

#![warn(missing_docs)]

pub mod draft;
pub mod error;
pub mod loadouts;
pub mod output;
pub mod paired;
pub mod study;
pub mod value;

pub use error::ResearchError;
