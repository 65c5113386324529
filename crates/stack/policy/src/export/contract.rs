//! `contract.json`: what goes into the exported network and what comes out, written for
//! front-ends in other languages. The layout is documented in `docs/export.md`; bump
//! [`CONTRACT_VERSION`] on any change to it or to the meaning of a field.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use crate::config::{Activation, PolicyConfig};
use crate::dist::MASKED_LOGIT;

/// Version of the bundle contract (this file's layout and the ONNX graph's interface) written by
/// this build. Version 2 added the optional [`Contract::level`]; nothing else changed.
pub const CONTRACT_VERSION: u32 = 2;
/// The oldest contract version this build reads: a version-1 contract is a version-2 contract
/// without `level`, so its bundles load unchanged.
pub const MIN_CONTRACT_VERSION: u32 = 1;
/// ONNX operator set the graph is written against (supported by onnxruntime since 1.12).
pub const ONNX_OPSET: i64 = 17;
/// ONNX IR version matching [`ONNX_OPSET`].
pub const ONNX_IR_VERSION: i64 = 8;

/// The whole `contract.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Contract {
    /// [`CONTRACT_VERSION`] of the writer.
    pub contract_version: u32,
    /// Environment id (`env::ENV_ID`), bumped with the observation layout or reward conventions.
    pub env_id: String,
    /// The game and the rules the policy was trained under.
    pub game: Game,
    /// Input layout.
    pub observation: ObservationSpec,
    /// Output layout: one logit per action index.
    pub actions: ActionSpec,
    /// How illegal actions are excluded.
    pub masking: Masking,
    /// The network's shape.
    pub network: Network,
    /// The ONNX model's interface.
    pub onnx: OnnxSpec,
    /// The checkpoint the bundle was made from.
    pub source: Source,
    /// The tool that wrote the bundle.
    pub exporter: Exporter,
    /// SHA-256 (hex) of every other file in the bundle, by file name.
    pub files: BTreeMap<String, String>,
    /// Present when the bundle is a difficulty level (`sabacc export level:N`): which level, how
    /// to play it and its rating. Absent from ordinary bundles (and from every version-1 one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<Level>,
}

/// A difficulty level: the bundle's network played greedily, with a stated share of decisions
/// replaced by a uniformly random legal action. The ONNX graph is the network alone; the random
/// moves are a sampling rule the front-end applies ([`Level::rule`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Level {
    /// 1 (weakest) and up.
    pub number: u8,
    /// The agent spec that plays it in `sabacc` (`level:3`).
    pub spec: String,
    /// Its short name (`intermediate`).
    pub name: String,
    /// How it plays, in one line.
    pub description: String,
    /// How the policy's own choice is taken: always `argmax` (the most probable legal action;
    /// ties go to the lowest index).
    pub selection: String,
    /// Probability, per decision, of replacing the policy's choice by a uniformly random legal
    /// action (0 to 1; `0` plays the network alone).
    pub mistake_rate: f64,
    /// The decision rule in words, for front-ends.
    pub rule: String,
    /// Its rating on the project's ladder.
    pub rating: LevelRating,
}

/// A level's rating on the persistent ladder (`docs/ladder.md`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelRating {
    /// The rating (Elo-like scale).
    pub rating: f64,
    /// Lower end of its 95 % interval.
    pub low: f64,
    /// Upper end of its 95 % interval.
    pub high: f64,
    /// Seat-games behind it.
    pub games: u64,
    /// The scale's anchors, `spec=rating` (`expert=1500`).
    pub anchors: Vec<String>,
    /// What the scale means, in words.
    pub scale: String,
    /// The ladder file the rating was read from, as the repository names it (`ladder/kessel.json`).
    pub ladder_file: String,
    /// SHA-256 (hex) of that file's bytes: the ladder's identity.
    pub ladder_sha256: String,
    /// The level's rating at each table size the ladder rates (heads-up and four seats), where
    /// a level plays better at one than the other; absent from bundles of older ladders.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub by_size: Vec<LevelSizeRating>,
}

/// A level's rating at one table size (`docs/ladder.md`, "Ratings by table size").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelSizeRating {
    /// Seats at the table.
    pub players: u8,
    /// The rating from that size's games.
    pub rating: f64,
    /// Lower end of its 95 % interval.
    pub low: f64,
    /// Upper end of its 95 % interval.
    pub high: f64,
    /// Seat-games at that size.
    pub games: u64,
}

impl Level {
    /// The decision rule for `mistake_rate`, in words.
    pub fn rule_text(mistake_rate: f64) -> String {
        format!(
            "At each decision: compute probs from obs and mask; draw u uniformly in [0, 1); if u < {mistake_rate} \
             (mistake_rate), play an action drawn uniformly among the legal ones (mask != 0; it may equal the \
             network's choice), else play argmax(probs) over the legal actions (ties: the lowest index). \
             mistake_rate 0 is the network alone, played greedily."
        )
    }
}

/// Game and rules.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Game {
    /// Always `Kessel Sabacc`.
    pub name: String,
    /// Environment config (`rules`, `reward`, `event_log`) as stored in the checkpoint.
    pub config: serde_json::Value,
}

/// One named slice of the observation vector.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SegmentSpec {
    /// Stable name (as in `docs/observation.md`).
    pub name: String,
    /// First index.
    pub offset: usize,
    /// Number of floats.
    pub length: usize,
    /// What the floats mean.
    pub meaning: String,
}

/// The observation vector.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ObservationSpec {
    /// Observation spec version (`env::EnvSpec::obs_version`); checkpoints record the one they were
    /// trained on.
    pub spec_version: u32,
    /// Floats per observation.
    pub length: usize,
    /// Always `float32`.
    pub dtype: String,
    /// Segments in order; offsets are contiguous and end at `length`.
    pub segments: Vec<SegmentSpec>,
    /// Field order inside one block of the `seats` segment.
    pub seat_fields: Vec<String>,
    /// Order of the `decision` one-hot.
    pub decision_names: Vec<String>,
    /// Order of the six slots of one `history` entry.
    pub history_slots: Vec<String>,
    /// How per-seat blocks are ordered.
    pub seat_order: String,
}

/// The action space.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ActionSpec {
    /// Number of action indices (width of `mask`, `logits` and `probs`).
    pub count: usize,
    /// Name of every index, in order (`stand`, `draw:sand-deck`, ..., `target:+7`).
    pub names: Vec<String>,
}

/// The masking rule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Masking {
    /// Name of the mask input.
    pub input: String,
    /// Element type of the mask input.
    pub dtype: String,
    /// Which mask values mean "legal".
    pub legal_when: String,
    /// The logit given to illegal actions (finite, so an all-illegal row stays NaN-free).
    pub masked_logit: f32,
    /// The rule in words.
    pub rule: String,
}

/// One dense layer, in evaluation order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LayerSpec {
    /// Parameter prefix in `policy.safetensors` and initializer prefix in `policy.onnx`.
    pub name: String,
    /// Input width.
    pub inputs: usize,
    /// Output width.
    pub outputs: usize,
    /// Non-linearity after the layer (`relu`, `tanh` or `none`).
    pub activation: String,
}

/// The network.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Network {
    /// The checkpoint's network config, verbatim (rebuilds the Rust module).
    pub config: PolicyConfig,
    /// Actor path: trunk layers then `policy_head` (logits).
    pub actor: Vec<LayerSpec>,
    /// Critic path: trunk layers (the actor's when shared) then `value_head` (value).
    pub critic: Vec<LayerSpec>,
    /// How each layer computes (`y = x W^T + b`, PyTorch's `nn.Linear`).
    pub layer_formula: String,
}

/// One ONNX graph input or output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TensorSpec {
    /// Tensor name.
    pub name: String,
    /// Element type.
    pub dtype: String,
    /// Shape; `batch` is the dynamic dimension.
    pub shape: Vec<serde_json::Value>,
    /// Meaning.
    pub meaning: String,
}

/// The ONNX model's interface.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OnnxSpec {
    /// File name in the bundle (absent from `files` if not exported).
    pub file: String,
    /// Default-domain operator set version.
    pub opset: i64,
    /// IR version.
    pub ir_version: i64,
    /// Graph inputs.
    pub inputs: Vec<TensorSpec>,
    /// Graph outputs.
    pub outputs: Vec<TensorSpec>,
}

/// The source checkpoint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Source {
    /// The checkpoint folder's name (not its path).
    pub checkpoint: String,
    /// SHA-256 (hex) of its `model.bpk`.
    pub model_sha256: String,
    /// SHA-256 (hex) of its `metadata.json`.
    pub metadata_sha256: String,
    /// Training steps done when it was saved.
    pub training_step: u64,
    /// Seed of the training run.
    pub seed: u64,
    /// Source revision of the trainer, if recorded.
    pub git_commit: Option<String>,
    /// Checkpoint layout version.
    pub format_version: u32,
}

/// The exporting tool.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Exporter {
    /// Always `sabacc export`.
    pub name: String,
    /// The `policy` crate's version.
    pub version: String,
    /// How `policy.onnx` was produced.
    pub onnx_writer: String,
}

fn activation_name(a: Activation) -> &'static str {
    match a {
        Activation::Relu => "relu",
        Activation::Tanh => "tanh",
    }
}

/// The layers of one trunk named `prefix`, in order.
fn trunk_layers(config: &PolicyConfig, prefix: &str) -> Vec<LayerSpec> {
    let mut inputs = config.obs_dim;
    config
        .hidden
        .iter()
        .enumerate()
        .map(|(i, &h)| {
            let l = LayerSpec {
                name: format!("{prefix}.{i}"),
                inputs,
                outputs: h,
                activation: activation_name(config.activation).into(),
            };
            inputs = h;
            l
        })
        .collect()
}

impl Network {
    /// The layer table of `config` (any depth, width, activation, shared or separate trunks).
    pub fn from_config(config: &PolicyConfig) -> Network {
        let last = *config.hidden.last().unwrap_or(&config.obs_dim);
        let head =
            |name: &str, outputs| LayerSpec { name: name.into(), inputs: last, outputs, activation: "none".into() };
        let mut actor = trunk_layers(config, "actor_trunk");
        let mut critic = if config.shared_trunk { actor.clone() } else { trunk_layers(config, "critic_trunk") };
        actor.push(head("policy_head", config.num_actions));
        critic.push(head("value_head", 1));
        Network {
            config: config.clone(),
            actor,
            critic,
            layer_formula: "y = act(x @ weight.T + bias); weight is [outputs, inputs] (PyTorch nn.Linear layout)"
                .into(),
        }
    }

    /// Every distinct layer once (shared trunk layers are listed once), actor path first.
    pub fn distinct_layers(&self) -> Vec<&LayerSpec> {
        let mut out: Vec<&LayerSpec> = self.actor.iter().collect();
        for l in &self.critic {
            if !out.iter().any(|o| o.name == l.name) {
                out.push(l);
            }
        }
        out
    }
}

/// The mask rule shared by the contract and the bundle README.
pub fn masking() -> Masking {
    Masking {
        input: "mask".into(),
        dtype: "float32".into(),
        legal_when: "mask != 0".into(),
        masked_logit: MASKED_LOGIT,
        rule: format!(
            "logits[a] = raw_logits[a] if mask[a] != 0 else {MASKED_LOGIT:e}; probs = softmax(logits) over the \
             row, so probs of illegal actions are exactly 0. Every row must have at least one legal action \
             (an all-illegal row gives a uniform distribution over all actions, never NaN)."
        ),
    }
}

/// The graph interface for an observation length and action count.
pub fn onnx_spec(obs_len: usize, num_actions: usize) -> OnnxSpec {
    let t = |name: &str, dtype: &str, width: Option<usize>, meaning: &str| TensorSpec {
        name: name.into(),
        dtype: dtype.into(),
        shape: std::iter::once(serde_json::json!("batch")).chain(width.map(|w| serde_json::json!(w))).collect(),
        meaning: meaning.into(),
    };
    OnnxSpec {
        file: super::files::ONNX_FILE.into(),
        opset: ONNX_OPSET,
        ir_version: ONNX_IR_VERSION,
        inputs: vec![
            t("obs", "float32", Some(obs_len), "observation rows (see observation.segments)"),
            t("mask", "float32", Some(num_actions), "1 for a legal action, 0 for an illegal one"),
        ],
        outputs: vec![
            t("logits", "float32", Some(num_actions), "masked logits (illegal actions = masking.masked_logit)"),
            t("probs", "float32", Some(num_actions), "softmax of the masked logits; exactly 0 on illegal actions"),
            t("value", "float32", None, "critic's estimate of the acting seat's return"),
        ],
    }
}
