//! The crate's integration tests, one module per subject, built as one test binary: each
//! binary links the whole dependency tree and instantiates the generic code it calls again,
//! so one binary per file made the test build several times longer.

mod classic;
mod common;
mod errors;
mod exploitability;
mod export_levels;
mod gate;
mod home;
mod scenario_actions;
mod scenario_ask;
mod scenario_classic;
mod tokens;
mod verbs;
