//! The crate's integration tests, one module per subject, built as one test binary: each
//! binary links the whole dependency tree and instantiates the generic code it calls again,
//! so one binary per file made the test build several times longer.

mod bench;
mod common;
mod exploit;
mod explore;
mod pinned_outputs;
mod pool;
mod ppo_kl_stop;
mod ppo_loss;
mod reach_weight;
mod registry;
mod resume;
mod table_opponent;
