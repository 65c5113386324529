//! Checkpoints: a directory holding the weights, the metadata and optionally optimizer state.
//!
//! ```text
//! NAME/
//!   model.bpk        weights, burnpack format (burn 0.22's record format), stored at the
//!                    module's precision (f32 here, i.e. full precision)
//!   metadata.json    CheckpointMetadata (format version, observation spec, network config,
//!                    SHA-256 of every weight file, ...)
//!   optimizer.bpk    optional: optimizer state (e.g. Adam moments) for exact resumption
//! ```
//!
//! Loading verifies, before any weight is used: the format and observation spec, that the
//! network's parameter count fits the weights file (so a doctored `metadata.json` cannot make
//! the loader allocate without bound), the SHA-256 of `model.bpk` and `optimizer.bpk` against
//! `metadata.json` (format version 2; version-1 checkpoints, written before checksums existed,
//! load without this check), and that every weight is finite.
//!
//! Saving is atomic at the directory level: everything is written and fsynced into a fresh
//! temporary sibling directory, which is then renamed into place. If `NAME` already exists it is
//! first renamed aside to a backup sibling and removed only once the new directory is in place,
//! so at every instant either `NAME` or its backup is a complete checkpoint. [`load_checkpoint`]
//! falls back to that backup if `NAME` is missing (a crash between the two renames), and the
//! next [`save_checkpoint`] renames it back first. Concurrent saves to the same `NAME` from
//! several processes are not supported.

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use burn::module::Module;
use burn::optim::ModuleOptimizer;
use burn::store::ModuleRecord;
use burn::tensor::Device;
use serde::{Deserialize, Serialize};

use crate::config::{ConfigError, PolicyConfig};
use crate::finite::first_non_finite;
use crate::model::ActorCritic;

/// Version of the checkpoint layout written by this build; [`load_checkpoint`] refuses others.
/// Version 2 added `checksums`; version 1 is still read (without checksum verification).
pub const FORMAT_VERSION: u32 = 2;
/// The oldest layout version [`load_checkpoint`] reads.
pub const OLDEST_FORMAT_VERSION: u32 = 1;
/// Most parameters a checkpoint's network may declare (about 4 GB of f32 weights).
pub const MAX_PARAMETERS: u64 = 1 << 30;
/// File name of the weights inside a checkpoint directory.
pub const MODEL_FILE: &str = "model.bpk";
/// File name of the metadata inside a checkpoint directory.
pub const METADATA_FILE: &str = "metadata.json";
/// File name of the optional optimizer state inside a checkpoint directory.
pub const OPTIMIZER_FILE: &str = "optimizer.bpk";

/// Everything besides the weights needed to use or resume a checkpoint safely.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckpointMetadata {
    /// Checkpoint layout version ([`FORMAT_VERSION`] when written by this build).
    pub format_version: u32,
    /// The environment the network plays (`kessel_sabacc_v1`, `classic_sabacc_v1`); checkpoints
    /// written before there were two games play Kessel Sabacc.
    #[serde(default = "kessel_env_id")]
    pub env_id: String,
    /// Version of the observation encoding the network was trained on.
    pub obs_spec_version: u32,
    /// Observation length (equals `network.obs_dim`).
    pub obs_dim: usize,
    /// Action count (equals `network.num_actions`).
    pub num_actions: usize,
    /// Network shape, to rebuild the module before loading weights.
    pub network: PolicyConfig,
    /// Number of training steps (the trainer's unit) done when saved.
    pub training_step: u64,
    /// Seed of the training run.
    pub seed: u64,
    /// Game rule configuration the policy was trained under (opaque to this crate).
    pub rule_config: serde_json::Value,
    /// Commit the trainer that wrote the checkpoint was built from, if known.
    pub git_commit: Option<String>,
    /// Seconds since the Unix epoch when the metadata was created.
    pub created_unix: u64,
    /// Free-form notes.
    #[serde(default)]
    pub notes: String,
    /// Table sizes the policy was trained at (empty: not recorded; the `players` of
    /// `rule_config` is then the only one known).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub table_sizes: Vec<u8>,
    /// Coefficient of the potential-based chip-share shaping in the returns the critic learned
    /// (`None`: not recorded). With shaping `c` the critic estimates the game's return minus `c`
    /// times the seat's chip share, so search adds the share back to read a win chance.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value_shaping: Option<f32>,
    /// SHA-256 (lower-case hex) of each weight file, by file name; filled in by
    /// [`save_checkpoint`] and verified by the loaders.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub checksums: BTreeMap<String, String>,
}

/// Checkpoints written before there was a choice of game name none: they are the default
/// (first registered) game's.
fn kessel_env_id() -> String {
    games::GameId::default().spec().id.to_string()
}

impl CheckpointMetadata {
    /// Metadata for `network`, playing environment `env_id` with observation version
    /// `obs_spec_version`, with the current format version and time; `obs_dim` and
    /// `num_actions` are copied from `network`.
    pub fn new(
        env_id: &str,
        obs_spec_version: u32,
        network: PolicyConfig,
        training_step: u64,
        seed: u64,
        rule_config: serde_json::Value,
    ) -> Self {
        Self {
            format_version: FORMAT_VERSION,
            env_id: env_id.to_string(),
            obs_spec_version,
            obs_dim: network.obs_dim,
            num_actions: network.num_actions,
            network,
            training_step,
            seed,
            rule_config,
            git_commit: None,
            created_unix: SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0),
            notes: String::new(),
            table_sizes: Vec::new(),
            value_shaping: None,
            checksums: BTreeMap::new(),
        }
    }
}

/// What the loading build expects a checkpoint to match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExpectedSpec {
    /// The environment the loader plays.
    pub env_id: &'static str,
    /// This build's observation spec version.
    pub obs_spec_version: u32,
    /// This build's observation length.
    pub obs_dim: usize,
    /// This build's action count.
    pub num_actions: usize,
}

impl From<env::EnvSpec> for ExpectedSpec {
    fn from(spec: env::EnvSpec) -> Self {
        ExpectedSpec {
            env_id: spec.id,
            obs_spec_version: spec.obs_version,
            obs_dim: spec.obs_len,
            num_actions: spec.num_actions,
        }
    }
}

/// Why a checkpoint could not be saved or loaded.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// A required file or the directory does not exist.
    #[error("checkpoint file {path} is missing")]
    Missing {
        /// The missing path.
        path: PathBuf,
    },
    /// Other file-system failure.
    #[error("checkpoint I/O error on {path}: {source}")]
    Io {
        /// Path involved.
        path: PathBuf,
        /// Underlying error.
        #[source]
        source: io::Error,
    },
    /// `metadata.json` is not valid JSON or lacks fields.
    #[error("checkpoint metadata {path} is invalid: {message}")]
    InvalidMetadata {
        /// The metadata file.
        path: PathBuf,
        /// Parser message.
        message: String,
    },
    /// The checkpoint was written with another layout version.
    #[error("checkpoint format version {found} is not supported (this build reads version {supported})")]
    FormatVersion {
        /// Version in the file.
        found: u32,
        /// Version this build reads.
        supported: u32,
    },
    /// A checkpoint of another game.
    #[error(
        "the checkpoint plays {found}, but this table plays {expected}: a network only plays the game it was trained on"
    )]
    Game {
        /// The checkpoint's environment id.
        found: String,
        /// The loader's.
        expected: String,
    },
    /// Observation spec version mismatch.
    #[error("checkpoint observation spec version {found} does not match this build's version {expected}")]
    ObsSpecVersion {
        /// Version in the checkpoint.
        found: u32,
        /// Version of this build.
        expected: u32,
    },
    /// Observation length mismatch.
    #[error("checkpoint observation size {found} does not match this build's size {expected}")]
    ObsDim {
        /// Size in the checkpoint.
        found: usize,
        /// Size in this build.
        expected: usize,
    },
    /// Action count mismatch.
    #[error("checkpoint action count {found} does not match this build's count {expected}")]
    NumActions {
        /// Count in the checkpoint.
        found: usize,
        /// Count in this build.
        expected: usize,
    },
    /// The checkpoint's opening book (`book.json`) is unusable.
    #[error(transparent)]
    Book(#[from] crate::book::BookError),
    /// Metadata fields contradict each other or the model being saved.
    #[error("checkpoint metadata is inconsistent: {0}")]
    Inconsistent(String),
    /// The stored network config is unusable.
    #[error("checkpoint network config: {0}")]
    Config(#[from] ConfigError),
    /// A weight file's bytes differ from the checksum recorded when it was written.
    #[error("checkpoint file {path} is corrupt: its SHA-256 is {actual} but metadata.json records {expected}")]
    Checksum {
        /// The weight file.
        path: PathBuf,
        /// The hash in `metadata.json`.
        expected: String,
        /// The hash of the bytes on disk.
        actual: String,
    },
    /// A version-2 checkpoint whose metadata lists no checksum for a weight file it holds.
    #[error("checkpoint file {path} has no SHA-256 in metadata.json (format version 2 requires one)")]
    NoChecksum {
        /// The weight file.
        path: PathBuf,
    },
    /// A weight is NaN or infinite.
    #[error("checkpoint weights {path}: parameter `{parameter}` holds {count} non-finite values (NaN or infinite)")]
    NonFinite {
        /// The weights file.
        path: PathBuf,
        /// Where in the network.
        parameter: String,
        /// How many values.
        count: usize,
    },
    /// The weights (or optimizer state) file could not be written, read or applied.
    #[error("checkpoint weights {path}: {message}")]
    Weights {
        /// The weights file.
        path: PathBuf,
        /// burn's message.
        message: String,
    },
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> CheckpointError + '_ {
    move |source| {
        if source.kind() == io::ErrorKind::NotFound {
            CheckpointError::Missing { path: path.to_path_buf() }
        } else {
            CheckpointError::Io { path: path.to_path_buf(), source }
        }
    }
}

fn check_consistent(meta: &CheckpointMetadata) -> Result<(), CheckpointError> {
    if meta.obs_dim != meta.network.obs_dim {
        return Err(CheckpointError::Inconsistent(format!(
            "obs_dim {} but network.obs_dim {}",
            meta.obs_dim, meta.network.obs_dim
        )));
    }
    if meta.num_actions != meta.network.num_actions {
        return Err(CheckpointError::Inconsistent(format!(
            "num_actions {} but network.num_actions {}",
            meta.num_actions, meta.network.num_actions
        )));
    }
    meta.network.validate()?;
    if parameter_count(&meta.network).is_none_or(|n| n > MAX_PARAMETERS) {
        return Err(CheckpointError::Inconsistent(format!(
            "network {:?} x {:?} x {:?} declares more than {MAX_PARAMETERS} parameters",
            meta.network.obs_dim, meta.network.hidden, meta.network.num_actions
        )));
    }
    Ok(())
}

/// Parameters of `net` (weights and biases of every layer), `None` on overflow.
pub fn parameter_count(net: &PolicyConfig) -> Option<u64> {
    let trunk = |mut d_in: u64| -> Option<u64> {
        let mut n = 0u64;
        for &h in &net.hidden {
            let h = h as u64;
            n = n.checked_add(d_in.checked_mul(h)?.checked_add(h)?)?;
            d_in = h;
        }
        Some(n)
    };
    let obs = net.obs_dim as u64;
    let last = *net.hidden.last()? as u64;
    let trunks = if net.shared_trunk { trunk(obs)? } else { trunk(obs)?.checked_mul(2)? };
    let heads = last.checked_mul(net.num_actions as u64)?.checked_add(net.num_actions as u64)?.checked_add(last + 1)?;
    trunks.checked_add(heads)
}

/// Lower-case hex SHA-256 of a file's bytes.
pub fn sha256_file(path: &Path) -> Result<String, CheckpointError> {
    use sha2::{Digest, Sha256};
    let mut f = File::open(path).map_err(io_err(path))?;
    let mut h = Sha256::new();
    io::copy(&mut f, &mut h).map_err(io_err(path))?;
    Ok(format!("{:x}", h.finalize()))
}

/// Checks `file` (in `dir`) against the checksum `meta` records for it.
fn verify_checksum(dir: &Path, file: &str, meta: &CheckpointMetadata) -> Result<(), CheckpointError> {
    let path = dir.join(file);
    match meta.checksums.get(file) {
        Some(expected) => {
            let actual = sha256_file(&path)?;
            if actual != expected.to_ascii_lowercase() {
                return Err(CheckpointError::Checksum { path, expected: expected.clone(), actual });
            }
            Ok(())
        }
        None if meta.format_version >= 2 => Err(CheckpointError::NoChecksum { path }),
        None => Ok(()),
    }
}

/// Splits `dir` into (parent, file name) for sibling temp/backup names.
fn split(dir: &Path) -> Result<(PathBuf, String), CheckpointError> {
    let name = dir
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| {
            CheckpointError::Inconsistent(format!("checkpoint path {} has no usable final component", dir.display()))
        })?
        .to_string();
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok((parent, name))
}

fn unique_suffix() -> String {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    format!("{}-{nanos}", std::process::id())
}

fn tmp_prefix(name: &str) -> String {
    format!(".{name}.tmp-")
}

fn backup_prefix(name: &str) -> String {
    format!(".{name}.old-")
}

/// Sibling entries of `parent` whose names start with `prefix`, newest name last.
fn siblings(parent: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = fs::read_dir(parent)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_name().to_str().is_some_and(|n| n.starts_with(prefix)))
        .map(|e| e.path())
        .collect();
    found.sort();
    found
}

fn sync_dir(path: &Path) -> Result<(), CheckpointError> {
    // Directory fsync makes renames/creations durable on Unix; not possible on Windows.
    #[cfg(unix)]
    File::open(path).and_then(|d| d.sync_all()).map_err(io_err(path))?;
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

fn write_file_synced(path: &Path, bytes: &[u8]) -> Result<(), CheckpointError> {
    let mut f = File::create(path).map_err(io_err(path))?;
    f.write_all(bytes).map_err(io_err(path))?;
    f.sync_all().map_err(io_err(path))
}

/// Where a test wants [`save_impl`] to stop, simulating a crash (no clean-up).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    None,
    #[cfg(test)]
    AfterWeights,
    #[cfg(test)]
    BeforeSwap,
}

/// Saves `model` (and optionally `optimizer`'s state) with `meta` into directory `dir`,
/// atomically replacing any previous checkpoint there. See the module docs for the protocol.
pub fn save_checkpoint(
    dir: impl AsRef<Path>,
    model: &ActorCritic,
    meta: &CheckpointMetadata,
    optimizer: Option<&ModuleOptimizer>,
) -> Result<(), CheckpointError> {
    save_impl(dir.as_ref(), model, meta, optimizer, Fault::None)
}

fn save_impl(
    dir: &Path,
    model: &ActorCritic,
    meta: &CheckpointMetadata,
    optimizer: Option<&ModuleOptimizer>,
    fault: Fault,
) -> Result<(), CheckpointError> {
    if meta.format_version != FORMAT_VERSION {
        return Err(CheckpointError::FormatVersion { found: meta.format_version, supported: FORMAT_VERSION });
    }
    check_consistent(meta)?;
    if model.config() != &meta.network {
        return Err(CheckpointError::Inconsistent(format!(
            "model config {:?} differs from metadata network {:?}",
            model.config(),
            meta.network
        )));
    }
    let (parent, name) = split(dir)?;
    fs::create_dir_all(&parent).map_err(io_err(&parent))?;

    // Recover from a crash between the two renames of an earlier save.
    if !dir.exists()
        && let Some(backup) = siblings(&parent, &backup_prefix(&name)).pop()
    {
        fs::rename(&backup, dir).map_err(io_err(&backup))?;
    }
    // Leftovers of crashed saves.
    for stale in siblings(&parent, &tmp_prefix(&name)) {
        let _ = fs::remove_dir_all(stale);
    }
    if dir.exists() {
        for stale in siblings(&parent, &backup_prefix(&name)) {
            let _ = fs::remove_dir_all(stale);
        }
    }

    let suffix = unique_suffix();
    let tmp = parent.join(format!("{}{suffix}", tmp_prefix(&name)));
    fs::create_dir(&tmp).map_err(io_err(&tmp))?;
    let result = write_contents(&tmp, model, meta, optimizer, fault)
        .and_then(|()| swap_into_place(&tmp, dir, &parent, &name, &suffix, fault));
    if result.is_err() && !is_simulated_crash(fault) {
        let _ = fs::remove_dir_all(&tmp);
    }
    result
}

fn is_simulated_crash(fault: Fault) -> bool {
    fault != Fault::None
}

#[cfg(test)]
fn simulated_crash(what: &str) -> CheckpointError {
    CheckpointError::Io { path: PathBuf::from(what), source: io::Error::other("simulated crash") }
}

fn write_contents(
    tmp: &Path,
    model: &ActorCritic,
    meta: &CheckpointMetadata,
    optimizer: Option<&ModuleOptimizer>,
    fault: Fault,
) -> Result<(), CheckpointError> {
    let weights = tmp.join(MODEL_FILE);
    // burnpack's file writer writes to a scratch file, fsyncs it and renames it.
    model
        .clone()
        .into_record()
        .save(&weights)
        .map_err(|e| CheckpointError::Weights { path: weights.clone(), message: e.to_string() })?;
    #[cfg(test)]
    if fault == Fault::AfterWeights {
        return Err(simulated_crash("after weights"));
    }
    let _ = fault;
    if let Some(optim) = optimizer {
        let path = tmp.join(OPTIMIZER_FILE);
        optim.save(&path).map_err(|e| CheckpointError::Weights { path: path.clone(), message: e.to_string() })?;
    }
    let mut meta = meta.clone();
    meta.checksums.clear();
    meta.checksums.insert(MODEL_FILE.to_string(), sha256_file(&weights)?);
    if optimizer.is_some() {
        meta.checksums.insert(OPTIMIZER_FILE.to_string(), sha256_file(&tmp.join(OPTIMIZER_FILE))?);
    }
    let json = serde_json::to_vec_pretty(&meta)
        .map_err(|e| CheckpointError::InvalidMetadata { path: tmp.join(METADATA_FILE), message: e.to_string() })?;
    write_file_synced(&tmp.join(METADATA_FILE), &json)?;
    sync_dir(tmp)
}

fn swap_into_place(
    tmp: &Path,
    dir: &Path,
    parent: &Path,
    name: &str,
    suffix: &str,
    fault: Fault,
) -> Result<(), CheckpointError> {
    #[cfg(test)]
    if fault == Fault::BeforeSwap {
        return Err(simulated_crash("before swap"));
    }
    let _ = fault;
    if dir.exists() {
        let backup = parent.join(format!("{}{suffix}", backup_prefix(name)));
        fs::rename(dir, &backup).map_err(io_err(dir))?;
        if let Err(source) = fs::rename(tmp, dir) {
            // Put the previous checkpoint back before reporting.
            let _ = fs::rename(&backup, dir);
            return Err(CheckpointError::Io { path: dir.to_path_buf(), source });
        }
        sync_dir(parent)?;
        let _ = fs::remove_dir_all(&backup);
    } else {
        fs::rename(tmp, dir).map_err(io_err(dir))?;
        sync_dir(parent)?;
    }
    Ok(())
}

/// The directory to read: `dir`, or the backup left by a save that crashed mid-swap.
fn resolve_dir(dir: &Path) -> PathBuf {
    if dir.exists() {
        return dir.to_path_buf();
    }
    if let Ok((parent, name)) = split(dir)
        && let Some(backup) = siblings(&parent, &backup_prefix(&name)).pop()
    {
        return backup;
    }
    dir.to_path_buf()
}

/// Reads and parses `metadata.json` of a checkpoint without checking it against a build.
///
/// Exists for tools that inspect checkpoints (and as the first step of [`load_checkpoint`]).
pub fn read_metadata(dir: impl AsRef<Path>) -> Result<CheckpointMetadata, CheckpointError> {
    let dir = resolve_dir(dir.as_ref());
    if !dir.is_dir() {
        return Err(CheckpointError::Missing { path: dir });
    }
    let path = dir.join(METADATA_FILE);
    let bytes = fs::read(&path).map_err(io_err(&path))?;
    serde_json::from_slice(&bytes).map_err(|e| CheckpointError::InvalidMetadata { path, message: e.to_string() })
}

/// Checks metadata against what this build expects; the error names the first mismatch.
pub fn check_metadata(meta: &CheckpointMetadata, expected: &ExpectedSpec) -> Result<(), CheckpointError> {
    if !(OLDEST_FORMAT_VERSION..=FORMAT_VERSION).contains(&meta.format_version) {
        return Err(CheckpointError::FormatVersion { found: meta.format_version, supported: FORMAT_VERSION });
    }
    if meta.env_id != expected.env_id {
        return Err(CheckpointError::Game { found: meta.env_id.clone(), expected: expected.env_id.to_string() });
    }
    if meta.obs_spec_version != expected.obs_spec_version {
        return Err(CheckpointError::ObsSpecVersion {
            found: meta.obs_spec_version,
            expected: expected.obs_spec_version,
        });
    }
    if meta.obs_dim != expected.obs_dim {
        return Err(CheckpointError::ObsDim { found: meta.obs_dim, expected: expected.obs_dim });
    }
    if meta.num_actions != expected.num_actions {
        return Err(CheckpointError::NumActions { found: meta.num_actions, expected: expected.num_actions });
    }
    check_consistent(meta)
}

/// Loads a checkpoint onto `device` after checking it against `expected`.
///
/// Pass an autodiff device (`cpu_training_device()`) to resume training, a plain one for
/// inference. Never panics on bad input: missing files, corrupt JSON, mismatching specs and
/// unreadable or mis-shaped weights are all [`CheckpointError`]s.
pub fn load_checkpoint(
    dir: impl AsRef<Path>,
    expected: &ExpectedSpec,
    device: &Device,
) -> Result<(ActorCritic, CheckpointMetadata), CheckpointError> {
    let dir = resolve_dir(dir.as_ref());
    let meta = read_metadata(&dir)?;
    check_metadata(&meta, expected)?;
    let weights = dir.join(MODEL_FILE);
    if !weights.is_file() {
        return Err(CheckpointError::Missing { path: weights });
    }
    // f32 weights: a file smaller than the declared network cannot hold it; refusing here keeps
    // a doctored `network` from allocating a huge model before the weights are read.
    let size = fs::metadata(&weights).map_err(io_err(&weights))?.len();
    let params = parameter_count(&meta.network).unwrap_or(u64::MAX);
    if size < params.saturating_mul(4) {
        return Err(CheckpointError::Weights {
            path: weights,
            message: format!(
                "the file holds {size} bytes, too few for the {params} f32 parameters of the network in metadata.json"
            ),
        });
    }
    verify_checksum(&dir, MODEL_FILE, &meta)?;
    let record = ModuleRecord::load(&weights)
        .map_err(|e| CheckpointError::Weights { path: weights.clone(), message: e.to_string() })?;
    let model = ActorCritic::new(&meta.network, device)?
        .try_load_record(record)
        .map_err(|e| CheckpointError::Weights { path: weights.clone(), message: e.to_string() })?;
    if let Some(bad) = first_non_finite(&model) {
        return Err(CheckpointError::NonFinite { path: weights, parameter: bad.parameter, count: bad.count });
    }
    Ok((model, meta))
}

/// Restores optimizer state saved with the checkpoint into `optimizer` (built with the same
/// config, e.g. `AdamConfig::new().init()`); `Ok(None)` if the checkpoint has none.
///
/// The state is keyed by parameter ids, which the weights file preserves, so it applies to the
/// model returned by [`load_checkpoint`] for the same directory.
pub fn load_optimizer(
    dir: impl AsRef<Path>,
    optimizer: ModuleOptimizer,
) -> Result<Option<ModuleOptimizer>, CheckpointError> {
    let dir = resolve_dir(dir.as_ref());
    let path = dir.join(OPTIMIZER_FILE);
    if !path.is_file() {
        return Ok(None);
    }
    verify_checksum(&dir, OPTIMIZER_FILE, &read_metadata(&dir)?)?;
    optimizer.load(&path).map(Some).map_err(|e| CheckpointError::Weights { path, message: e.to_string() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::cpu_device;
    use burn::tensor::{Tensor, TensorData};

    fn tiny() -> PolicyConfig {
        PolicyConfig::new(5, 3).with_hidden(vec![8])
    }

    fn meta(step: u64) -> CheckpointMetadata {
        CheckpointMetadata::new("test_v1", 2, tiny(), step, 7, serde_json::json!({"variant": "test"}))
    }

    fn expected() -> ExpectedSpec {
        ExpectedSpec { env_id: "test_v1", obs_spec_version: 2, obs_dim: 5, num_actions: 3 }
    }

    fn outputs(model: &ActorCritic, device: &Device) -> (Vec<f32>, Vec<f32>) {
        let obs =
            Tensor::<2>::from_data(TensorData::new((0..10).map(|i| i as f32 * 0.1 - 0.4).collect(), [2, 5]), device);
        let (l, v) = model.forward(obs);
        (l.into_data().try_into_vec_as::<f32>().unwrap(), v.into_data().try_into_vec_as::<f32>().unwrap())
    }

    #[test]
    fn crash_after_weights_keeps_previous_checkpoint() {
        let device = cpu_device();
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("ckpt");
        let m1 = ActorCritic::new(&tiny(), &device).unwrap();
        save_checkpoint(&dir, &m1, &meta(1), None).unwrap();

        let m2 = ActorCritic::new(&tiny(), &device).unwrap();
        assert_ne!(outputs(&m1, &device), outputs(&m2, &device));
        let err = save_impl(&dir, &m2, &meta(2), None, Fault::AfterWeights).unwrap_err();
        assert!(err.to_string().contains("simulated crash"));

        let (loaded, md) = load_checkpoint(&dir, &expected(), &device).unwrap();
        assert_eq!(md.training_step, 1);
        assert_eq!(outputs(&loaded, &device), outputs(&m1, &device));

        // The next save cleans the leftover temp dir and succeeds.
        save_checkpoint(&dir, &m2, &meta(3), None).unwrap();
        let (loaded, md) = load_checkpoint(&dir, &expected(), &device).unwrap();
        assert_eq!(md.training_step, 3);
        assert_eq!(outputs(&loaded, &device), outputs(&m2, &device));
        let names: Vec<_> =
            fs::read_dir(root.path()).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        assert_eq!(names, vec!["ckpt".to_string()]);
    }

    #[test]
    fn crash_before_swap_keeps_previous_checkpoint() {
        let device = cpu_device();
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("ckpt");
        let m1 = ActorCritic::new(&tiny(), &device).unwrap();
        save_checkpoint(&dir, &m1, &meta(1), None).unwrap();
        let m2 = ActorCritic::new(&tiny(), &device).unwrap();
        save_impl(&dir, &m2, &meta(2), None, Fault::BeforeSwap).unwrap_err();
        let (loaded, md) = load_checkpoint(&dir, &expected(), &device).unwrap();
        assert_eq!(md.training_step, 1);
        assert_eq!(outputs(&loaded, &device), outputs(&m1, &device));
    }

    #[test]
    fn crash_between_renames_is_recovered_from_backup() {
        let device = cpu_device();
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("ckpt");
        let m1 = ActorCritic::new(&tiny(), &device).unwrap();
        save_checkpoint(&dir, &m1, &meta(1), None).unwrap();
        // Simulate the state right after `rename(dir, backup)`.
        let backup = root.path().join(format!("{}123-456", backup_prefix("ckpt")));
        fs::rename(&dir, &backup).unwrap();

        let (loaded, md) = load_checkpoint(&dir, &expected(), &device).unwrap();
        assert_eq!(md.training_step, 1);
        assert_eq!(outputs(&loaded, &device), outputs(&m1, &device));

        let m2 = ActorCritic::new(&tiny(), &device).unwrap();
        save_checkpoint(&dir, &m2, &meta(2), None).unwrap();
        assert!(!backup.exists());
        let (_, md) = load_checkpoint(&dir, &expected(), &device).unwrap();
        assert_eq!(md.training_step, 2);
    }

    #[test]
    fn save_refuses_inconsistent_metadata() {
        let device = cpu_device();
        let root = tempfile::tempdir().unwrap();
        let m = ActorCritic::new(&tiny(), &device).unwrap();
        let mut md = meta(1);
        md.obs_dim = 6;
        assert!(matches!(save_checkpoint(root.path().join("a"), &m, &md, None), Err(CheckpointError::Inconsistent(_))));
        let other = CheckpointMetadata::new("test_v1", 2, tiny().with_hidden(vec![9]), 0, 0, Default::default());
        assert!(matches!(
            save_checkpoint(root.path().join("b"), &m, &other, None),
            Err(CheckpointError::Inconsistent(_))
        ));
        assert!(!root.path().join("a").exists());
    }
}
