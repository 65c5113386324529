//! The crate's integration tests, one module per subject, built as one test binary: each
//! binary links the whole dependency tree and instantiates the generic code it calls again,
//! so one binary per file made the test build several times longer.

mod common;
mod fuzz;
mod guided_search;
mod properties;
mod rng_streams;
mod rules_ranking;
mod rules_round;
mod rules_tokens;
mod rules_view;
mod scenarios;
mod search_batch;
mod search_restricted;
mod smoke_random;
