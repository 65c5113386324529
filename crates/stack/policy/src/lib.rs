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

/// mimalloc's `mi_option_purge_delay`, by its place in mimalloc v3's `mi_option_e` (the Rust
/// bindings name no constant for it; the test below checks the place by its default).
#[cfg(feature = "mimalloc")]
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Tells mimalloc to keep the memory the process frees for its own next allocations instead of
/// handing it back to the OS a second later. Why: a PPO update allocates and frees tensors of
/// the same few sizes at every minibatch step; memory handed back returned as fresh pages the
/// kernel had to zero first (5 % of a `perf` profile of a training run, and a tenth of its wall
/// time). The cost: the process holds on to its peak memory until it exits, so this suits batch
/// jobs (training, evaluation), not a long-lived server. Has no effect unless [`MiMalloc`] is
/// the global allocator.
#[cfg(feature = "mimalloc")]
pub fn keep_freed_memory() {
    // SAFETY: sets one of mimalloc's options, which it reads atomically; -1 means never purge.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1) }
}

#[cfg(all(test, feature = "mimalloc"))]
mod allocator_tests {
    use super::MI_OPTION_PURGE_DELAY;

    /// The purge delay is the one option whose default is 1,000 ms; an update of the bindings
    /// that moved it would fail here rather than set some other option.
    #[test]
    fn the_purge_delay_option_is_the_one_set() {
        // SAFETY: reads mimalloc options.
        let get = |o| unsafe { libmimalloc_sys::mi_option_get(o) };
        if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() && std::env::var_os("MIMALLOC_RESET_DELAY").is_none() {
            assert_eq!(get(MI_OPTION_PURGE_DELAY), 1000);
        }
        let others: Vec<_> = (0..libmimalloc_sys::_mi_option_last).filter(|&o| o != MI_OPTION_PURGE_DELAY).collect();
        let before: Vec<_> = others.iter().map(|&o| get(o)).collect();
        super::keep_freed_memory();
        assert_eq!(get(MI_OPTION_PURGE_DELAY), -1);
        assert_eq!(others.iter().map(|&o| get(o)).collect::<Vec<_>>(), before, "no other option moves");
    }
}
