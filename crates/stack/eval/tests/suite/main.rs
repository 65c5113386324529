//! The crate's integration tests, one module per subject, built as one test binary: each
//! binary links the whole dependency tree and instantiates the generic code it calls again,
//! so one binary per file made the test build several times longer.

mod average;
mod common;
mod exploitability;
mod gate;
mod ladder;
mod least_exploitable;
mod plot_tokens;
mod stats_hand_counted;
mod table;
