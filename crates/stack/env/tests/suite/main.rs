//! The crate's integration tests, one module per subject, built as one test binary: each
//! binary links the whole dependency tree and instantiates the generic code it calls again,
//! so one binary per file made the test build several times longer.

mod api;
mod bench;
mod classic;
mod conformance;
mod driver;
mod obs_doc;
mod obs_reference;
mod vec_env;
