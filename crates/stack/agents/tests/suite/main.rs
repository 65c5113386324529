//! The crate's integration tests, one module per subject, built as one test binary: each
//! binary links the whole dependency tree and instantiates the generic code it calls again,
//! so one binary per file made the test build several times longer.

mod advice;
mod arena;
mod bots_legal;
mod classic_bots;
mod common;
mod loaded_once;
mod panel_bots;
mod specs;
mod styles;
