//! `sabacc export`: a checkpoint as a self-contained bundle for other front-ends.
//!
//! ```text
//! BUNDLE/
//!   policy.onnx          obs [batch, obs_len] + mask [batch, num_actions] -> logits, probs, value (opset 17)
//!   policy.safetensors   the weights in PyTorch layout ([out, in] Linear weights)
//!   contract.json        the versioned observation/action contract (docs/export.md)
//!   reference.json       rows from seeded games with the Rust outputs; full game states
//!   README.md            how to call the bundle from Python (onnxruntime) and PyTorch
//! ```
//!
//! A difficulty level (`sabacc export level:N`) is the same bundle of the level's network whose
//! contract also carries a `level` section: the level, its ladder rating and the random-move
//! rate a front-end applies when it samples (see [`Level`]).
//!
//! The ONNX graph is written with this module's own protobuf definitions (`prost` derive) rather
//! than burn-onnx's experimental exporter: the graph is exactly the contract's computation
//! (Gemm, Relu/Tanh, Where, Softmax, Squeeze), needs no extra dependency, and covers every
//! [`crate::PolicyConfig`] (any depth and width, relu or tanh, shared or separate trunks).

mod bundle;
mod contract;
mod error;
mod files;
mod formats;
mod onnx_graph;
mod onnx_proto;
mod outputs;
mod readme;
mod reference;
mod weights;
mod writer;

pub use bundle::{Bundle, is_bundle, load_bundle_agent, read_contract};
pub use contract::{
    ActionSpec, CONTRACT_VERSION, Contract, Exporter, Game, LayerSpec, Level, LevelRating, LevelSizeRating,
    MIN_CONTRACT_VERSION, Masking, Network, ONNX_IR_VERSION, ONNX_OPSET, ObservationSpec, OnnxSpec, SegmentSpec,
    Source, TensorSpec,
};
pub use error::ExportError;
pub use files::{CONTRACT_FILE, ONNX_FILE, README_FILE, REFERENCE_FILE, SAFETENSORS_FILE};
pub use formats::Formats;
pub use outputs::{PolicyOutputs, policy_outputs};
pub use reference::{REFERENCE_ROWS, REFERENCE_SEED, REFERENCE_STATES, Reference, Rows, SeatObservation, StateSample};
pub use writer::{
    ExportSummary, WeightsSource, checkpoint_game, export_checkpoint, export_level, export_weights, sha256_hex,
};
