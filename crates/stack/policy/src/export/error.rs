//! Why an export or a bundle load failed.

use std::io;
use std::path::PathBuf;

use crate::checkpoint::CheckpointError;
use crate::config::ConfigError;

/// Every way `sabacc export` or loading a bundle back can fail, each naming what to fix.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The folder to export is not a checkpoint.
    #[error("{path} is not a checkpoint folder (expected metadata.json and model.bpk in it): {reason}")]
    NotACheckpoint {
        /// The folder given.
        path: PathBuf,
        /// What is missing or unreadable.
        reason: CheckpointError,
    },
    /// The checkpoint exists but cannot be used (checksum, spec mismatch, corrupt weights).
    #[error("checkpoint {path} cannot be exported: {reason}")]
    Checkpoint {
        /// The checkpoint folder.
        path: PathBuf,
        /// The loader's reason.
        reason: CheckpointError,
    },
    /// The checkpoint's `rule_config` is not an environment config.
    #[error("checkpoint {path}: rule_config is not an environment config ({message}); cannot play reference games")]
    RuleConfig {
        /// The checkpoint folder.
        path: PathBuf,
        /// Parser message.
        message: String,
    },
    /// The output folder exists and `--force` was not given.
    #[error("output folder {path} already exists; pass --force to replace it")]
    OutputExists {
        /// The output folder.
        path: PathBuf,
    },
    /// `--force` was given but the existing output is not an export bundle.
    #[error("refusing to replace {path}: it is not an export bundle (no contract.json) and is not empty")]
    NotABundleToReplace {
        /// The output folder.
        path: PathBuf,
    },
    /// `--format` named nothing usable.
    #[error("--format: unknown format `{given}` (accepted: onnx, safetensors, all)")]
    Format {
        /// The value given.
        given: String,
    },
    /// File-system failure.
    #[error("I/O error on {path}: {source}")]
    Io {
        /// Path involved.
        path: PathBuf,
        /// Underlying error.
        #[source]
        source: io::Error,
    },
    /// The network parameters could not be read or written.
    #[error("policy weights: {0}")]
    Weights(String),
    /// The network config is unusable.
    #[error("network config: {0}")]
    Config(#[from] ConfigError),
    /// The reference games could not be played.
    #[error("reference games: {0}")]
    Reference(String),
    /// The folder to load is not a bundle or its contract cannot be read.
    #[error("bundle {path}: {message}")]
    Bundle {
        /// The bundle folder or file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The bundle was written for another observation/action spec than this build's.
    #[error("bundle {path} expects {field} {found}, this build has {expected}")]
    BundleSpec {
        /// The bundle folder.
        path: PathBuf,
        /// Which contract field differs.
        field: &'static str,
        /// Its value in the bundle.
        found: String,
        /// This build's value.
        expected: String,
    },
    /// A bundle file does not match the checksum recorded in `contract.json`.
    #[error("bundle file {path} is corrupt: SHA-256 {found} differs from {expected} recorded in contract.json")]
    BundleChecksum {
        /// The file.
        path: PathBuf,
        /// Recorded digest.
        expected: String,
        /// Digest of the file on disk.
        found: String,
    },
    /// The bundle's `policy.safetensors` is missing or does not fit the contract's network.
    #[error("bundle weights {path}: {message}")]
    BundleWeights {
        /// The weights file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// An observation batch has the wrong length.
    #[error("observation has {got} values, expected {rows} rows x {obs_len} = {}", rows * obs_len)]
    ObsLength {
        /// Values given.
        got: usize,
        /// Rows requested.
        rows: usize,
        /// Floats per observation.
        obs_len: usize,
    },
    /// A mask batch has the wrong length.
    #[error("mask has {got} values, expected {rows} rows x {num_actions} = {}", rows * num_actions)]
    MaskLength {
        /// Values given.
        got: usize,
        /// Rows requested.
        rows: usize,
        /// Actions per row.
        num_actions: usize,
    },
    /// A mask row allows no action.
    #[error("mask row {row} has no legal action (every row needs at least one)")]
    NoLegalAction {
        /// The row.
        row: usize,
    },
    /// An observation holds NaN or an infinity.
    #[error("observation row {row}, index {index} is not finite ({value})")]
    NonFiniteObs {
        /// The row.
        row: usize,
        /// Index inside the row.
        index: usize,
        /// The value.
        value: f32,
    },
    /// A batch of zero rows.
    #[error("batch must have at least one row")]
    EmptyBatch,
}

impl ExportError {
    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(io::Error) -> ExportError {
        let path = path.into();
        move |source| ExportError::Io { path, source }
    }
}
