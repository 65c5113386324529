//! The crate's integration tests, one module per subject, built as one test binary: each
//! binary links the whole dependency tree and instantiates the generic code it calls again,
//! so one binary per file made the test build several times longer.

mod bots;
mod common;
mod determinize;
mod obs;
mod properties;
mod rules_c1_c2;
mod rules_c3;
mod rules_c4;
mod rules_c5_c6_c8;
mod rules_c9;
mod scenarios;
