//! Checkpoint integrity: checksums of every weight file, finite weights, bounded networks, and
//! no panic on any bytes or any JSON.

use policy::burn::module::{Module, ModuleMapper, Param};
use policy::burn::optim::AdamConfig;
use policy::burn::tensor::Tensor;
use policy::*;
use proptest::prelude::*;
use std::path::Path;

const OBS: usize = 6;
const ACT: usize = 5;

fn tiny() -> PolicyConfig {
    PolicyConfig::new(OBS, ACT).with_hidden(vec![8])
}

fn spec() -> ExpectedSpec {
    ExpectedSpec { env_id: "test_v1", obs_spec_version: 1, obs_dim: OBS, num_actions: ACT }
}

fn meta() -> CheckpointMetadata {
    CheckpointMetadata::new("test_v1", 1, tiny(), 1, 1, serde_json::json!({}))
}

fn saved(dir: &Path, with_optimizer: bool) {
    let model = ActorCritic::new(&tiny(), &cpu_device()).unwrap();
    let optim = AdamConfig::new().init();
    save_checkpoint(dir, &model, &meta(), with_optimizer.then_some(&optim)).unwrap();
}

fn json(dir: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(dir.join(METADATA_FILE)).unwrap()).unwrap()
}

#[test]
fn checkpoint_metadata_records_sha256_of_every_weight_file() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("c");
    saved(&dir, true);
    let j = json(&dir);
    assert_eq!(j["format_version"], FORMAT_VERSION);
    for f in [MODEL_FILE, OPTIMIZER_FILE] {
        let recorded = j["checksums"][f].as_str().unwrap_or_else(|| panic!("no checksum for {f}: {j}"));
        assert_eq!(recorded, sha256_file(&dir.join(f)).unwrap());
        assert_eq!(recorded.len(), 64);
    }
    load_checkpoint(&dir, &spec(), &cpu_device()).unwrap();
    load_optimizer(&dir, AdamConfig::new().init()).unwrap().expect("optimizer state");
}

#[test]
fn checkpoint_with_a_flipped_weight_byte_is_refused_naming_file_and_hashes() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("c");
    saved(&dir, true);
    let expected = json(&dir)["checksums"][MODEL_FILE].as_str().unwrap().to_string();
    let weights = dir.join(MODEL_FILE);
    let mut bytes = std::fs::read(&weights).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x01;
    std::fs::write(&weights, &bytes).unwrap();
    let actual = sha256_file(&weights).unwrap();
    let err = load_checkpoint(&dir, &spec(), &cpu_device()).unwrap_err();
    assert!(matches!(err, CheckpointError::Checksum { .. }), "{err}");
    let msg = err.to_string();
    assert!(msg.contains("model.bpk") && msg.contains(&expected) && msg.contains(&actual), "{msg}");

    let optim = dir.join(OPTIMIZER_FILE);
    let mut bytes = std::fs::read(&optim).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x80;
    std::fs::write(&optim, &bytes).unwrap();
    let Err(err) = load_optimizer(&dir, AdamConfig::new().init()) else { panic!("a corrupt optimizer state loaded") };
    assert!(matches!(err, CheckpointError::Checksum { .. }) && err.to_string().contains("optimizer.bpk"), "{err}");
}

#[test]
fn checkpoint_v2_without_checksum_is_refused_and_v1_loads_unverified() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("c");
    saved(&dir, false);
    let mut j = json(&dir);
    j.as_object_mut().unwrap().remove("checksums");
    std::fs::write(dir.join(METADATA_FILE), serde_json::to_vec(&j).unwrap()).unwrap();
    let err = load_checkpoint(&dir, &spec(), &cpu_device()).unwrap_err();
    assert!(matches!(err, CheckpointError::NoChecksum { .. }) && err.to_string().contains("model.bpk"), "{err}");
    j["format_version"] = serde_json::json!(1);
    std::fs::write(dir.join(METADATA_FILE), serde_json::to_vec(&j).unwrap()).unwrap();
    load_checkpoint(&dir, &spec(), &cpu_device()).expect("a version-1 checkpoint has no checksums to verify");
}

/// Turns every weight of the first parameter it meets into NaN.
struct Poison(bool);

impl ModuleMapper for Poison {
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        if std::mem::replace(&mut self.0, true) { param } else { param.map(|t| t.add_scalar(f32::NAN)) }
    }
}

#[test]
fn checkpoint_with_non_finite_weights_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("c");
    let model = ActorCritic::new(&tiny(), &cpu_device()).unwrap().map(&mut Poison(false));
    save_checkpoint(&dir, &model, &meta(), None).unwrap();
    let err = load_checkpoint(&dir, &spec(), &cpu_device()).unwrap_err();
    assert!(matches!(err, CheckpointError::NonFinite { .. }), "{err}");
    assert!(err.to_string().contains("non-finite") && err.to_string().contains("model.bpk"), "{err}");
}

#[test]
fn checkpoint_declaring_a_huge_network_is_refused_before_allocating() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("c");
    saved(&dir, false);
    let mut j = json(&dir);
    j["network"]["hidden"] = serde_json::json!([4_000_000_000u64, 4_000_000_000u64]);
    std::fs::write(dir.join(METADATA_FILE), serde_json::to_vec(&j).unwrap()).unwrap();
    let err = load_checkpoint(&dir, &spec(), &cpu_device()).unwrap_err();
    assert!(err.to_string().contains("parameters"), "{err}");
    j["network"]["hidden"] = serde_json::json!([4096, 4096]);
    std::fs::write(dir.join(METADATA_FILE), serde_json::to_vec(&j).unwrap()).unwrap();
    let err = load_checkpoint(&dir, &spec(), &cpu_device()).unwrap_err();
    assert!(matches!(err, CheckpointError::Weights { .. }) && err.to_string().contains("too few"), "{err}");
}

/// JSON values of every type and extreme, to put in place of a metadata field.
fn wrong_value() -> impl Strategy<Value = serde_json::Value> {
    prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        any::<u64>().prop_map(serde_json::Value::from),
        any::<f64>().prop_map(serde_json::Value::from),
        "[a-z0-9 ]{0,12}".prop_map(serde_json::Value::from),
        proptest::collection::vec(any::<u32>(), 0..4).prop_map(|v| serde_json::json!(v)),
        Just(serde_json::json!({})),
        Just(serde_json::json!([4_000_000_000u64])),
    ]
}

const FIELDS: &[&str] = &[
    "format_version",
    "obs_spec_version",
    "obs_dim",
    "num_actions",
    "network",
    "network.obs_dim",
    "network.num_actions",
    "network.hidden",
    "network.activation",
    "network.shared_trunk",
    "training_step",
    "rule_config",
    "checksums",
    "checksums.model.bpk",
    "table_sizes",
    "notes",
];

fn set(j: &mut serde_json::Value, field: &str, v: serde_json::Value) {
    match field.split_once('.') {
        Some((a, b)) => j[a][b] = v,
        None => j[field] = v,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100, ..ProptestConfig::default() })]

    /// Arbitrary bytes as metadata.json never panic.
    #[test]
    fn checkpoint_arbitrary_metadata_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("c");
        saved(&dir, true);
        std::fs::write(dir.join(METADATA_FILE), &bytes).unwrap();
        prop_assert!(load_checkpoint(&dir, &spec(), &cpu_device()).is_err());
        let _ = load_optimizer(&dir, AdamConfig::new().init());
    }

    /// Arbitrary bytes as weights never panic, whether or not the checksum matches them (a
    /// matching one lets the bytes reach the weights parser).
    #[test]
    fn checkpoint_arbitrary_weight_bytes_never_panic(
        bytes in proptest::collection::vec(any::<u8>(), 0..4096),
        matching_checksum in any::<bool>(),
    ) {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("c");
        saved(&dir, true);
        std::fs::write(dir.join(MODEL_FILE), &bytes).unwrap();
        std::fs::write(dir.join(OPTIMIZER_FILE), &bytes).unwrap();
        if matching_checksum {
            let mut j = json(&dir);
            let h = sha256_file(&dir.join(MODEL_FILE)).unwrap();
            j["checksums"][MODEL_FILE] = serde_json::json!(h);
            j["checksums"][OPTIMIZER_FILE] = serde_json::json!(h);
            std::fs::write(dir.join(METADATA_FILE), serde_json::to_vec(&j).unwrap()).unwrap();
        }
        prop_assert!(load_checkpoint(&dir, &spec(), &cpu_device()).is_err());
        prop_assert!(load_optimizer(&dir, AdamConfig::new().init()).is_err());
    }

    /// Well-formed JSON with one field of the wrong type or value never panics.
    #[test]
    fn checkpoint_wrong_metadata_json_never_panics(f in 0..FIELDS.len(), v in wrong_value()) {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("c");
        saved(&dir, false);
        let mut j = json(&dir);
        set(&mut j, FIELDS[f], v);
        std::fs::write(dir.join(METADATA_FILE), serde_json::to_vec(&j).unwrap()).unwrap();
        let _ = load_checkpoint(&dir, &spec(), &cpu_device());
        let _ = read_metadata(&dir);
    }
}

#[test]
fn a_checkpoint_of_another_game_is_refused_naming_both_games() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("c");
    saved(&dir, false);
    let other = ExpectedSpec { env_id: "other_game_v1", ..spec() };
    let Err(err) = load_checkpoint(&dir, &other, &cpu_device()) else {
        panic!("another game's checkpoint must be refused")
    };
    let msg = err.to_string();
    assert!(msg.contains("test_v1") && msg.contains("other_game_v1"), "{msg}");
    assert!(matches!(err, CheckpointError::Game { .. }));
}

#[test]
fn metadata_written_before_two_games_reads_as_kessel() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("c");
    saved(&dir, false);
    let mut j = json(&dir);
    j.as_object_mut().unwrap().remove("env_id");
    std::fs::write(dir.join(METADATA_FILE), serde_json::to_vec(&j).unwrap()).unwrap();
    assert_eq!(read_metadata(&dir).unwrap().env_id, "kessel_sabacc_v1");
}
