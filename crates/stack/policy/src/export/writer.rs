//! `export_checkpoint`: checkpoint folder in, complete bundle folder out, atomically;
//! `export_weights`: the same bundle from a `policy.safetensors`-layout weights file trained
//! elsewhere (PyTorch), so such a policy can play in the arena.
//!
//! Everything is written into a fresh hidden sibling of the output folder and renamed into
//! place only when complete, so a failed export never leaves a half bundle. With `force`, an
//! existing bundle is renamed aside first and removed only once the new one is in place.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use sha2::{Digest, Sha256};

use super::contract::*;
use super::error::ExportError;
use super::files::{CONTRACT_FILE, ONNX_FILE, README_FILE, REFERENCE_FILE, SAFETENSORS_FILE};
use super::formats::Formats;
use super::weights::{Weights, load_safetensors, safetensors_bytes};
use super::{onnx_graph, readme, reference};
use crate::checkpoint::{
    CheckpointError, CheckpointMetadata, ExpectedSpec, METADATA_FILE, MODEL_FILE, load_checkpoint, read_metadata,
};
use crate::config::PolicyConfig;
use crate::inference::Policy;
use crate::model::ActorCritic;
use env::{Game, GameConfig};
use games::GameId;

/// What [`export_checkpoint`] wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct ExportSummary {
    /// The bundle folder.
    pub out: PathBuf,
    /// Files written, with their sizes in bytes.
    pub files: Vec<(String, u64)>,
    /// The contract written.
    pub contract: Contract,
}

/// Lower-case hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

fn read_file(path: &Path) -> Result<Vec<u8>, ExportError> {
    fs::read(path).map_err(ExportError::io(path))
}

/// Loads `checkpoint` through the checkpoint loader, telling "not a checkpoint" apart from "a
/// checkpoint that cannot be used".
fn load_source<G: Game>(checkpoint: &Path) -> Result<(ActorCritic, CheckpointMetadata), ExportError> {
    let not_ckpt = |reason| ExportError::NotACheckpoint { path: checkpoint.to_path_buf(), reason };
    if !checkpoint.is_dir() {
        return Err(not_ckpt(CheckpointError::Missing { path: checkpoint.to_path_buf() }));
    }
    match read_metadata(checkpoint) {
        Err(e @ (CheckpointError::Missing { .. } | CheckpointError::InvalidMetadata { .. })) => {
            return Err(not_ckpt(e));
        }
        Err(reason) => return Err(ExportError::Checkpoint { path: checkpoint.to_path_buf(), reason }),
        Ok(_) => {}
    }
    load_checkpoint(checkpoint, &ExpectedSpec::from(G::SPEC), &crate::backend::cpu_device())
        .map_err(|reason| ExportError::Checkpoint { path: checkpoint.to_path_buf(), reason })
}

fn folder_name(path: &Path) -> String {
    path.canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "checkpoint".into())
}

/// The contract of `network` playing game `G`, trained under `rule_config` (before file checksums
/// are added).
fn contract_for<G: Game>(network: &PolicyConfig, rule_config: serde_json::Value, source: Source) -> Contract {
    let spec = G::SPEC;
    let layout = G::observation_layout();
    let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect();
    Contract {
        contract_version: CONTRACT_VERSION,
        env_id: spec.id.into(),
        game: super::contract::Game { name: G::NAME.into(), config: rule_config },
        observation: ObservationSpec {
            spec_version: spec.obs_version,
            length: spec.obs_len,
            dtype: "float32".into(),
            segments: layout
                .segments
                .iter()
                .map(|(name, offset, len, meaning)| SegmentSpec {
                    name: (*name).into(),
                    offset: *offset,
                    length: *len,
                    meaning: meaning.clone(),
                })
                .collect(),
            seat_fields: names(&layout.seat_fields),
            decision_names: names(&layout.decision_names),
            history_slots: names(&layout.history_slots),
            seat_order: layout.seat_order.into(),
        },
        actions: ActionSpec {
            count: spec.num_actions,
            names: (0..spec.num_actions).map(|i| G::action_name(i).to_string()).collect(),
        },
        masking: masking(),
        network: Network::from_config(network),
        onnx: onnx_spec(spec.obs_len, spec.num_actions),
        source,
        exporter: Exporter {
            name: "sabacc export".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            onnx_writer: "own protobuf writer (prost), opset 17".into(),
        },
        files: BTreeMap::new(),
        level: None,
    }
}

/// The contract's key fields, copied into `policy.onnx`'s `metadata_props` and the safetensors
/// header so each file alone says what it expects.
fn key_fields(c: &Contract) -> Vec<(String, String)> {
    let mut keys: Vec<(String, String)> = vec![
        ("sabacc.contract_version".into(), c.contract_version.to_string()),
        ("sabacc.env_id".into(), c.env_id.clone()),
        ("sabacc.obs_spec_version".into(), c.observation.spec_version.to_string()),
        ("sabacc.obs_len".into(), c.observation.length.to_string()),
        ("sabacc.num_actions".into(), c.actions.count.to_string()),
        ("sabacc.action_names".into(), c.actions.names.join(",")),
        ("sabacc.mask".into(), format!("{} float32 [batch, {}], legal when != 0", c.masking.input, c.actions.count)),
        ("sabacc.masked_logit".into(), format!("{:e}", c.masking.masked_logit)),
        ("sabacc.outputs".into(), "logits [batch, A], probs [batch, A], value [batch]".into()),
        ("sabacc.source_checkpoint".into(), c.source.checkpoint.clone()),
        ("sabacc.source_model_sha256".into(), c.source.model_sha256.clone()),
        ("sabacc.training_step".into(), c.source.training_step.to_string()),
        ("sabacc.exporter_version".into(), c.exporter.version.clone()),
    ];
    if let Some(l) = &c.level {
        keys.extend([
            ("sabacc.level".into(), l.number.to_string()),
            ("sabacc.level_name".into(), l.name.clone()),
            ("sabacc.level_selection".into(), l.selection.clone()),
            ("sabacc.level_mistake_rate".into(), l.mistake_rate.to_string()),
            (
                "sabacc.level_rating".into(),
                format!(
                    "{:.0} [{:.0}, {:.0}] ({})",
                    l.rating.rating,
                    l.rating.low,
                    l.rating.high,
                    l.rating.anchors.join(", ")
                ),
            ),
            ("sabacc.ladder_sha256".into(), l.rating.ladder_sha256.clone()),
        ]);
    }
    keys
}

/// Refuses an existing `out` unless `force` and it is a bundle or an empty folder, before any
/// work is done.
fn check_output(out: &Path, force: bool) -> Result<(), ExportError> {
    if fs::symlink_metadata(out).is_ok() {
        if !force {
            return Err(ExportError::OutputExists { path: out.to_path_buf() });
        }
        let empty_dir = fs::read_dir(out).map(|mut d| d.next().is_none()).unwrap_or(false);
        if !out.join(CONTRACT_FILE).is_file() && !empty_dir {
            return Err(ExportError::NotABundleToReplace { path: out.to_path_buf() });
        }
    }
    Ok(())
}

/// The game a checkpoint folder was trained for, from its metadata: what to export it as. A
/// folder that is not a checkpoint, or one of a game this build does not know, is refused
/// naming the folder.
pub fn checkpoint_game(checkpoint: &Path) -> Result<GameId, ExportError> {
    let not_ckpt = |reason| ExportError::NotACheckpoint { path: checkpoint.to_path_buf(), reason };
    if !checkpoint.is_dir() {
        return Err(not_ckpt(CheckpointError::Missing { path: checkpoint.to_path_buf() }));
    }
    let meta = match read_metadata(checkpoint) {
        Ok(meta) => meta,
        Err(e @ (CheckpointError::Missing { .. } | CheckpointError::InvalidMetadata { .. })) => {
            return Err(not_ckpt(e));
        }
        Err(reason) => return Err(ExportError::Checkpoint { path: checkpoint.to_path_buf(), reason }),
    };
    GameId::from_env_id(&meta.env_id).ok_or_else(|| {
        let known: Vec<&str> = GameId::all().map(|g| g.spec().id).collect();
        ExportError::Checkpoint {
            path: checkpoint.to_path_buf(),
            reason: CheckpointError::Game { found: meta.env_id.clone(), expected: known.join(" or ") },
        }
    })
}

/// Exports `checkpoint`, a policy of game `G` ([`checkpoint_game`] says which), into the bundle
/// folder `out` (see the module docs for atomicity). A checkpoint of another game is refused
/// naming both.
pub fn export_checkpoint<G: Game>(
    checkpoint: &Path,
    out: &Path,
    formats: Formats,
    force: bool,
) -> Result<ExportSummary, ExportError> {
    export_game::<G>(checkpoint, None, out, formats, force)
}

/// Exports `checkpoint` as the difficulty level `level`: the checkpoint's bundle whose contract
/// (and model metadata, and README) also carries the level, its rating and its random-move rate.
/// The network, the ONNX graph and the reference outputs are those of [`export_checkpoint`].
pub fn export_level<G: Game>(
    checkpoint: &Path,
    level: Level,
    out: &Path,
    formats: Formats,
    force: bool,
) -> Result<ExportSummary, ExportError> {
    if !(0.0..=1.0).contains(&level.mistake_rate) {
        return Err(ExportError::Bundle {
            path: out.to_path_buf(),
            message: format!(
                "level {}: mistake_rate {} is not a probability from 0 to 1",
                level.number, level.mistake_rate
            ),
        });
    }
    export_game::<G>(checkpoint, Some(level), out, formats, force)
}

fn export_game<G: Game>(
    checkpoint: &Path,
    level: Option<Level>,
    out: &Path,
    formats: Formats,
    force: bool,
) -> Result<ExportSummary, ExportError> {
    check_output(out, force)?;
    let (model, meta) = load_source::<G>(checkpoint)?;
    let env_config: GameConfig<G> = serde_json::from_value(meta.rule_config.clone())
        .map_err(|e| ExportError::RuleConfig { path: checkpoint.to_path_buf(), message: e.to_string() })?;
    let source = Source {
        checkpoint: folder_name(checkpoint),
        model_sha256: sha256_hex(&read_file(&checkpoint.join(MODEL_FILE))?),
        metadata_sha256: sha256_hex(&read_file(&checkpoint.join(METADATA_FILE))?),
        training_step: meta.training_step,
        seed: meta.seed,
        git_commit: meta.git_commit.clone(),
        format_version: meta.format_version,
    };
    let mut contract = contract_for::<G>(&meta.network, meta.rule_config.clone(), source);
    contract.level = level;
    write_bundle(&model, &env_config, contract, out, formats, force)
}

/// Where the weights of [`export_weights`] came from: what a checkpoint's metadata would say.
#[derive(Clone, Debug, PartialEq)]
pub struct WeightsSource<G: Game> {
    /// The network the weights fit (layer names and shapes are checked against it).
    pub network: PolicyConfig,
    /// The environment the policy was trained in (rules, reward); its reference games use it.
    pub env_config: GameConfig<G>,
    /// Training steps (learner decisions) behind the weights.
    pub training_step: u64,
    /// Seed of the training run.
    pub seed: u64,
}

/// Exports a weights file in `policy.safetensors` layout (PyTorch `nn.Linear` names and
/// `[out, in]` shapes, as `docs/export.md` lists them) into the bundle folder `out`. The
/// contract's `source` names the file: `checkpoint` is its file name, `model_sha256` its
/// SHA-256, `metadata_sha256` is empty and `format_version` 0 (there is no checkpoint).
pub fn export_weights<G: Game>(
    weights: &Path,
    source: &WeightsSource<G>,
    out: &Path,
    formats: Formats,
    force: bool,
) -> Result<ExportSummary, ExportError> {
    check_output(out, force)?;
    source.network.validate()?;
    let network = Network::from_config(&source.network);
    let model = load_safetensors(weights, &network, &crate::backend::cpu_device())?;
    let rule_config = serde_json::to_value(source.env_config)
        .map_err(|e| ExportError::Weights(format!("environment config does not serialise: {e}")))?;
    let contract = contract_for::<G>(
        &source.network,
        rule_config,
        Source {
            checkpoint: weights.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
            model_sha256: sha256_hex(&read_file(weights)?),
            metadata_sha256: String::new(),
            training_step: source.training_step,
            seed: source.seed,
            git_commit: None,
            format_version: 0,
        },
    );
    write_bundle(&model, &source.env_config, contract, out, formats, force)
}

/// Writes the bundle of `model` (reference games under `env_config`) with `contract`, whose
/// file checksums are filled in here.
fn write_bundle<G: Game>(
    model: &ActorCritic,
    env_config: &GameConfig<G>,
    mut contract: Contract,
    out: &Path,
    formats: Formats,
    force: bool,
) -> Result<ExportSummary, ExportError> {
    let weights = Weights::from_model(model)?;
    weights.check_against(&contract.network)?;
    let policy = Policy::new(model, &crate::backend::cpu_device());
    let reference = reference::build(&policy, env_config, CONTRACT_VERSION)?;

    let keys = key_fields(&contract);
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    if formats.onnx {
        files.push((ONNX_FILE.into(), onnx_graph::model_bytes(&contract, &weights, keys.clone())));
    }
    if formats.safetensors {
        files.push((SAFETENSORS_FILE.into(), safetensors_bytes(model, &keys)?));
    }
    let reference_json =
        serde_json::to_vec(&reference).map_err(|e| ExportError::Reference(format!("serialising: {e}")))?;
    files.push((REFERENCE_FILE.into(), reference_json));
    files.push((README_FILE.into(), readme::text(&contract, formats).into_bytes()));
    contract.files = files.iter().map(|(name, bytes)| (name.clone(), sha256_hex(bytes))).collect();
    let contract_json = serde_json::to_vec_pretty(&contract).expect("contract serialises");
    files.push((CONTRACT_FILE.into(), contract_json));

    write_atomically(out, &files, force)?;
    Ok(ExportSummary {
        out: out.to_path_buf(),
        files: files.iter().map(|(n, b)| (n.clone(), b.len() as u64)).collect(),
        contract,
    })
}

fn sibling(out: &Path, tag: &str) -> Result<PathBuf, ExportError> {
    let name = out.file_name().and_then(|n| n.to_str()).ok_or_else(|| ExportError::Bundle {
        path: out.to_path_buf(),
        message: "the output path has no usable final component".into(),
    })?;
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    Ok(parent.join(format!(".{name}.{tag}-{}-{nanos}", std::process::id())))
}

fn write_all(dir: &Path, files: &[(String, Vec<u8>)]) -> Result<(), ExportError> {
    fs::create_dir_all(dir).map_err(ExportError::io(dir))?;
    for (name, bytes) in files {
        let path = dir.join(name);
        let mut f = fs::File::create(&path).map_err(ExportError::io(&path))?;
        std::io::Write::write_all(&mut f, bytes).map_err(ExportError::io(&path))?;
        f.sync_all().map_err(ExportError::io(&path))?;
    }
    Ok(())
}

fn write_atomically(out: &Path, files: &[(String, Vec<u8>)], force: bool) -> Result<(), ExportError> {
    let tmp = sibling(out, "tmp")?;
    if let Some(parent) = tmp.parent() {
        fs::create_dir_all(parent).map_err(ExportError::io(parent))?;
    }
    let result = write_all(&tmp, files).and_then(|()| {
        if force && fs::symlink_metadata(out).is_ok() {
            let old = sibling(out, "old")?;
            fs::rename(out, &old).map_err(ExportError::io(out))?;
            if let Err(e) = fs::rename(&tmp, out) {
                let _ = fs::rename(&old, out);
                return Err(ExportError::io(out)(e));
            }
            let _ = fs::remove_dir_all(&old);
            Ok(())
        } else {
            // `rename` onto an existing non-empty folder fails, so a folder created meanwhile
            // is never overwritten without --force.
            if fs::symlink_metadata(out).is_ok() {
                return Err(ExportError::OutputExists { path: out.to_path_buf() });
            }
            fs::rename(&tmp, out).map_err(ExportError::io(out))
        }
    });
    if result.is_err() {
        let _ = fs::remove_dir_all(&tmp);
    }
    result
}
