//! The Kessel Sabacc actor-critic policy: network, masked action distribution, checkpoints and
//! a slice-based inference wrapper, built on burn 0.22.
//!
//! * [`PolicyConfig`] / [`ActorCritic`]: the MLP (separate or shared actor/critic trunks).
//! * [`masked_logits`], [`log_prob`], [`entropy`], [`sample`]: the masked categorical used by
//!   rollouts and the PPO loss.
//! * [`save_checkpoint`] / [`load_checkpoint`]: atomic checkpoint directories with metadata
//!   checked against the loading build.
//! * [`Book`]: a checkpoint's opening book (`book.json`), moves it plays ahead of its network.
//! * [`Policy`]: inference on `&[f32]` observations and `&[bool]` masks.
//! * [`export`]: `sabacc export` bundles (ONNX, safetensors, contract, reference vectors) and
//!   loading them back as agents.
//! * [`SparseRows`] / [`ActorCritic::forward_sparse`]: the first layer computed from the
//!   observations' nonzeros in training.
//! * [`clip_grad_norm`]: global-norm gradient clipping (burn's own clips per tensor).
//! * [`cpu_device`] / [`cpu_training_device`] / [`BackendKind`]: backend choice.
//!
//! # burn 0.22 in brief (for the trainer)
//!
//! Tensors and modules are not generic over a backend: `Tensor<2>` lives on a [`Device`]
//! (re-exported here), and training needs an autodiff device ([`cpu_training_device`]).
//! A PPO update looks like:
//!
//! ```no_run
//! use policy::burn::optim::{AdamConfig, GradientsParams};
//! # use policy::*;
//! # let device = cpu_training_device();
//! # let mut model = ActorCritic::new(&PolicyConfig::new(4, 2), &device).unwrap();
//! # let obs = policy::burn::tensor::Tensor::<2>::zeros([8, 4], &device);
//! let mut optim = AdamConfig::new().with_epsilon(1e-5).init();
//! let (logits, value) = model.forward(obs);
//! let loss = logits.mean() + value.mean(); // the PPO loss goes here
//! let grads = GradientsParams::from_grads(loss.backward(), &model);
//! let (grads, _norm) = clip_grad_norm(&model, grads, 0.5);
//! model = optim.step(2.5e-4, model, grads);
//! ```

#![warn(missing_docs)]

mod agent;
mod backend;
pub mod book;
mod checkpoint;
mod config;
mod dist;
pub mod export;
mod finite;
mod fit;
mod grad;
mod inference;
mod model;
mod sparse;
mod widen;

pub use agent::PolicyAgent;
pub use backend::{BackendKind, cpu_device, cpu_training_device};
pub use book::{BOOK_FILE, Book, BookError};
pub use checkpoint::{
    CheckpointError, CheckpointMetadata, ExpectedSpec, FORMAT_VERSION, MAX_PARAMETERS, METADATA_FILE, MODEL_FILE,
    OLDEST_FORMAT_VERSION, OPTIMIZER_FILE, check_metadata, load_checkpoint, load_optimizer, parameter_count,
    read_metadata, save_checkpoint, sha256_file,
};
pub use config::{Activation, ConfigError, PolicyConfig};
pub use dist::{
    MASKED_LOGIT, argmax_masked, entropy, log_prob, log_probs, masked_logits, masks_from_bits, sample, sample_masked,
};
pub use fit::training_mismatch;
pub use grad::{clip_grad_norm, combine_grads, grad_norm, independent_copy};
pub use inference::{ActBatch, ActionSelection, Policy, PolicyError};
pub use model::ActorCritic;
pub use sparse::{FirstLayers, SparseRows};
pub use widen::{WidenError, widen, widened_config};

/// The exact burn version this crate is built against, so dependents use the same types.
pub use burn;
/// burn's device handle (backend + autodiff context).
pub use burn::tensor::Device;

/// mimalloc allocator, for binaries: `#[global_allocator] static A: policy::MiMalloc =
/// policy::MiMalloc;` (Flex's PPO update on this project's network took ~37 ms instead of
/// 50-73 ms with the system allocator).
#[cfg(feature = "mimalloc")]
pub use mimalloc::MiMalloc;
