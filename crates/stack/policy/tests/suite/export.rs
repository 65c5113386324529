//! `sabacc export` bundles: checkpoint → export → load back plays the same moves and computes
//! the same outputs, for every network shape, and every bad input is a clear typed error.

use game::Game as _;
use games::kessel::Kessel;
use std::fs;
use std::path::{Path, PathBuf};

const OBS_LEN: usize = Kessel::SPEC.obs_len;
const NUM_ACTIONS: usize = Kessel::SPEC.num_actions;
use env::{Agent, play_game};
use policy::export::*;
use policy::*;

fn rules(players: u8) -> env::GameConfig<Kessel> {
    env::GameConfig::<Kessel>::with_players(players)
}

/// A small checkpoint of this build's spec with the given network shape.
fn make_checkpoint(dir: &Path, hidden: Vec<usize>, activation: Activation, shared: bool, seed: u64) {
    let config = PolicyConfig::new(OBS_LEN, NUM_ACTIONS)
        .with_hidden(hidden)
        .with_activation(activation)
        .with_shared_trunk(shared);
    let model = ActorCritic::new_seeded(&config, &cpu_device(), seed).unwrap();
    let meta = CheckpointMetadata::new(
        Kessel::SPEC.id,
        Kessel::SPEC.obs_version,
        config,
        42,
        seed,
        serde_json::to_value(rules(3)).unwrap(),
    );
    save_checkpoint(dir, &model, &meta, None).unwrap();
}

fn reference(bundle: &Path) -> Reference {
    serde_json::from_slice(&fs::read(bundle.join("reference.json")).unwrap()).unwrap()
}

fn flat_rows(r: &Reference) -> (Vec<f32>, Vec<bool>) {
    let obs = r.rows.obs.iter().flatten().copied().collect();
    let mask = r.rows.mask.iter().flatten().map(|&m| m != 0).collect();
    (obs, mask)
}

/// Greedy moves of `agent` at every seat over a few seeded games.
fn greedy_games(agent: &PolicyAgent<Kessel>, players: u8, games: u64) -> Vec<Vec<(game::Seat, games::kessel::Action)>> {
    (0..games)
        .map(|g| {
            let mut seats: Vec<Box<dyn Agent<Kessel>>> = (0..players)
                .map(|_| Box::new(agent.clone().with_selection(ActionSelection::Greedy)) as Box<dyn Agent<Kessel>>)
                .collect();
            play_game(&rules(players), &mut seats, 1000 + g).unwrap().actions
        })
        .collect()
}

fn export_and_check_round_trip(hidden: Vec<usize>, activation: Activation, shared: bool) {
    let root = tempfile::tempdir().unwrap();
    let ckpt = root.path().join("ckpt");
    let out = root.path().join("bundle");
    make_checkpoint(&ckpt, hidden.clone(), activation, shared, 11);
    let summary = export_checkpoint::<Kessel>(&ckpt, &out, Formats::default(), false).unwrap();
    let names: Vec<&str> = summary.files.iter().map(|(n, _)| n.as_str()).collect();
    for f in [ONNX_FILE, SAFETENSORS_FILE, CONTRACT_FILE, REFERENCE_FILE, README_FILE] {
        assert!(names.contains(&f) && out.join(f).is_file(), "{f} missing");
    }
    let contract = read_contract(&out).unwrap();
    assert_eq!(contract.network.config.hidden, hidden);
    assert_eq!(contract.source.training_step, 42);
    assert_eq!(contract.source.model_sha256, sha256_hex(&fs::read(ckpt.join(MODEL_FILE)).unwrap()));

    // The loaded bundle computes exactly what the reference recorded.
    let bundle = Bundle::load(&out, &cpu_device()).unwrap();
    let r = reference(&out);
    assert_eq!(r.rows.count, REFERENCE_ROWS);
    let (obs, mask) = flat_rows(&r);
    let got = bundle.forward(&obs, &mask, r.rows.count).unwrap();
    assert_eq!(got.logits, r.rows.logits.concat());
    assert_eq!(got.probs, r.rows.probs.concat());
    assert_eq!(got.value, r.rows.value);
    for (p, m) in got.probs.iter().zip(&mask) {
        assert!(*m || *p == 0.0, "illegal action with probability {p}");
    }

    // And the checkpoint's own policy computes the same.
    let (ckpt_policy, _) =
        Policy::from_checkpoint(&ckpt, &policy::ExpectedSpec::from(Kessel::SPEC), &cpu_device()).unwrap();
    assert_eq!(policy_outputs(&ckpt_policy, &obs, &mask, r.rows.count).unwrap(), got);

    // Same seed, argmax: the bundle agent plays the checkpoint agent's moves.
    let (ckpt_agent, _) = PolicyAgent::<Kessel>::load(&ckpt, &cpu_device()).unwrap();
    let bundle_agent = load_bundle_agent::<Kessel>(&out, &cpu_device()).unwrap();
    assert_eq!(bundle_agent.name(), "bundle");
    assert_eq!(greedy_games(&bundle_agent, 3, 2), greedy_games(&ckpt_agent, 3, 2));
}

#[test]
fn round_trip_separate_relu_trunks() {
    export_and_check_round_trip(vec![16, 8], Activation::Relu, false);
}

#[test]
fn round_trip_shared_tanh_trunk() {
    export_and_check_round_trip(vec![12], Activation::Tanh, true);
}

#[test]
fn round_trip_deep_separate_tanh_trunks() {
    export_and_check_round_trip(vec![8, 8, 8], Activation::Tanh, false);
}

fn shipped(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../checkpoints").join(name)
}

#[test]
fn shipped_checkpoint_bundle_plays_the_checkpoints_moves() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("mixed-tables");
    export_checkpoint::<Kessel>(&shipped("mixed-tables"), &out, Formats::default(), false).unwrap();
    let contract = read_contract(&out).unwrap();
    assert_eq!(contract.source.checkpoint, "mixed-tables");
    assert_eq!(contract.actions.names[0], games::kessel::action_name(0));
    assert_eq!(contract.observation.segments.last().map(|s| s.offset + s.length), Some(OBS_LEN));
    let r = reference(&out);
    assert_eq!(r.states.len(), REFERENCE_STATES);
    for s in &r.states {
        for seat in &s.seats {
            assert_eq!(seat.obs.len(), OBS_LEN);
        }
    }
    let (ckpt_agent, _) = PolicyAgent::<Kessel>::load(&shipped("mixed-tables"), &cpu_device()).unwrap();
    let bundle_agent = load_bundle_agent::<Kessel>(&out, &cpu_device()).unwrap();
    let players = 4;
    let moves = |a: &PolicyAgent<Kessel>| {
        let mut seats: Vec<Box<dyn Agent<Kessel>>> = (0..players)
            .map(|_| Box::new(a.clone().with_selection(ActionSelection::Greedy)) as Box<dyn Agent<Kessel>>)
            .collect();
        play_game(&rules(players), &mut seats, 7).unwrap().actions
    };
    let theirs = moves(&ckpt_agent);
    assert!(theirs.len() > 10);
    assert_eq!(moves(&bundle_agent), theirs);
}

#[test]
fn not_a_checkpoint_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("out");
    let missing = root.path().join("nope");
    let err = export_checkpoint::<Kessel>(&missing, &out, Formats::default(), false).unwrap_err();
    assert!(matches!(err, ExportError::NotACheckpoint { .. }), "{err}");
    assert!(matches!(checkpoint_game(&missing), Err(ExportError::NotACheckpoint { .. })));
    let empty = root.path().join("empty");
    fs::create_dir(&empty).unwrap();
    let err = export_checkpoint::<Kessel>(&empty, &out, Formats::default(), false).unwrap_err();
    assert!(matches!(err, ExportError::NotACheckpoint { .. }), "{err}");
    assert!(err.to_string().contains("not a checkpoint folder"));
    fs::write(empty.join(METADATA_FILE), b"{ not json").unwrap();
    let err = export_checkpoint::<Kessel>(&empty, &out, Formats::default(), false).unwrap_err();
    assert!(matches!(err, ExportError::NotACheckpoint { .. }), "{err}");
    assert!(!out.exists());
}

/// Names of everything in `dir` (to spot leftovers of a failed export).
fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> =
        fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    v.sort();
    v
}

#[test]
fn corrupt_weights_are_refused_without_leaving_anything() {
    let root = tempfile::tempdir().unwrap();
    let ckpt = root.path().join("ckpt");
    make_checkpoint(&ckpt, vec![8], Activation::Relu, false, 3);
    let weights = ckpt.join(MODEL_FILE);
    let bytes = fs::read(&weights).unwrap();
    fs::write(&weights, &bytes[..bytes.len() / 2]).unwrap();
    let out = root.path().join("out");
    let err = export_checkpoint::<Kessel>(&ckpt, &out, Formats::default(), false).unwrap_err();
    assert!(matches!(err, ExportError::Checkpoint { .. }), "{err}");
    assert_eq!(entries(root.path()), vec!["ckpt".to_string()]);
}

#[test]
fn checkpoint_of_another_spec_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let ckpt = root.path().join("ckpt");
    let config = PolicyConfig::new(OBS_LEN + 1, NUM_ACTIONS).with_hidden(vec![4]);
    let model = ActorCritic::new(&config, &cpu_device()).unwrap();
    let meta = CheckpointMetadata::new(
        Kessel::SPEC.id,
        Kessel::SPEC.obs_version,
        config,
        1,
        1,
        serde_json::to_value(rules(2)).unwrap(),
    );
    save_checkpoint(&ckpt, &model, &meta, None).unwrap();
    let err = export_checkpoint::<Kessel>(&ckpt, &root.path().join("out"), Formats::default(), false).unwrap_err();
    assert!(matches!(err, ExportError::Checkpoint { reason: CheckpointError::ObsDim { .. }, .. }), "{err}");
}

#[test]
fn existing_output_needs_force_and_only_bundles_are_replaced() {
    let root = tempfile::tempdir().unwrap();
    let ckpt = root.path().join("ckpt");
    make_checkpoint(&ckpt, vec![8], Activation::Relu, false, 5);
    let out = root.path().join("bundle");
    fs::create_dir(&out).unwrap();
    fs::write(out.join("notes.txt"), b"keep me").unwrap();
    let err = export_checkpoint::<Kessel>(&ckpt, &out, Formats::default(), false).unwrap_err();
    assert!(matches!(err, ExportError::OutputExists { .. }), "{err}");
    assert!(err.to_string().contains("--force"));
    let err = export_checkpoint::<Kessel>(&ckpt, &out, Formats::default(), true).unwrap_err();
    assert!(matches!(err, ExportError::NotABundleToReplace { .. }), "{err}");
    assert_eq!(fs::read(out.join("notes.txt")).unwrap(), b"keep me");

    fs::remove_dir_all(&out).unwrap();
    export_checkpoint::<Kessel>(&ckpt, &out, Formats { onnx: true, safetensors: false }, false).unwrap();
    assert!(!out.join(SAFETENSORS_FILE).exists());
    export_checkpoint::<Kessel>(&ckpt, &out, Formats::default(), true).unwrap();
    assert!(out.join(SAFETENSORS_FILE).is_file());
    assert_eq!(entries(root.path()), vec!["bundle".to_string(), "ckpt".to_string()]);
}

#[test]
fn format_values_are_checked() {
    assert_eq!(Formats::parse(&["all"]).unwrap(), Formats::default());
    assert_eq!(Formats::parse(&["onnx"]).unwrap(), Formats { onnx: true, safetensors: false });
    assert_eq!(Formats::parse(&["safetensors", "onnx"]).unwrap(), Formats::default());
    let err = Formats::parse(&["tflite"]).unwrap_err();
    assert!(err.to_string().contains("tflite") && err.to_string().contains("onnx, safetensors, all"));
    assert!(Formats::parse::<&str>(&[]).is_err());
}

#[test]
fn loaded_bundle_refuses_bad_rows_and_bad_files() {
    let root = tempfile::tempdir().unwrap();
    let ckpt = root.path().join("ckpt");
    make_checkpoint(&ckpt, vec![8], Activation::Relu, false, 9);
    let out = root.path().join("bundle");
    export_checkpoint::<Kessel>(&ckpt, &out, Formats::default(), false).unwrap();
    let bundle = Bundle::load(&out, &cpu_device()).unwrap();
    let mask = vec![true; NUM_ACTIONS];
    let err = bundle.forward(&[0.0; OBS_LEN - 1], &mask, 1).unwrap_err();
    assert!(matches!(err, ExportError::ObsLength { got, obs_len: OBS_LEN, .. } if got == OBS_LEN - 1), "{err}");
    let err = bundle.forward(&[0.0; 2 * OBS_LEN], &[mask.clone(), vec![false; NUM_ACTIONS]].concat(), 2).unwrap_err();
    assert!(matches!(err, ExportError::NoLegalAction { row: 1 }), "{err}");
    let err = bundle.forward(&[0.0; OBS_LEN], &mask[1..], 1).unwrap_err();
    assert!(matches!(err, ExportError::MaskLength { .. }), "{err}");
    let mut obs = [0.0f32; OBS_LEN];
    obs[5] = f32::NAN;
    assert!(matches!(bundle.forward(&obs, &mask, 1), Err(ExportError::NonFiniteObs { row: 0, index: 5, .. })));
    assert!(matches!(bundle.forward(&[], &[], 0), Err(ExportError::EmptyBatch)));

    // A tampered weights file fails its checksum.
    let st = out.join(SAFETENSORS_FILE);
    let mut bytes = fs::read(&st).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    fs::write(&st, &bytes).unwrap();
    assert!(matches!(Bundle::load(&out, &cpu_device()), Err(ExportError::BundleChecksum { .. })));
    // A missing weights file, and a folder that is no bundle.
    fs::remove_file(&st).unwrap();
    assert!(matches!(load_bundle_agent::<Kessel>(&out, &cpu_device()), Err(ExportError::BundleWeights { .. })));
    assert!(matches!(Bundle::load(&ckpt, &cpu_device()), Err(ExportError::Bundle { .. })));
    assert!(!is_bundle(&ckpt) && is_bundle(&out));
}

/// Weights trained elsewhere (here: a bundle's own `policy.safetensors`, the PyTorch layout)
/// exported again make the same network: same reference outputs and same moves, with a source
/// that names the weights file instead of a checkpoint.
#[test]
fn exported_weights_file_makes_the_same_bundle_as_its_checkpoint() {
    let root = tempfile::tempdir().unwrap();
    let (ckpt, first, second) = (root.path().join("ckpt"), root.path().join("first"), root.path().join("second"));
    make_checkpoint(&ckpt, vec![24, 12], Activation::Tanh, false, 5);
    export_checkpoint::<Kessel>(&ckpt, &first, Formats::default(), false).unwrap();
    let weights = root.path().join("trained.safetensors");
    fs::copy(first.join(SAFETENSORS_FILE), &weights).unwrap();
    let network = PolicyConfig::new(OBS_LEN, NUM_ACTIONS).with_hidden(vec![24, 12]).with_activation(Activation::Tanh);
    let source = WeightsSource { network: network.clone(), env_config: rules(3), training_step: 77, seed: 3 };
    let summary = export_weights(&weights, &source, &second, Formats::default(), false).unwrap();
    assert_eq!(summary.contract.source.checkpoint, "trained.safetensors");
    assert_eq!(summary.contract.source.model_sha256, sha256_hex(&fs::read(&weights).unwrap()));
    assert_eq!((summary.contract.source.training_step, summary.contract.source.seed), (77, 3));
    assert_eq!(summary.contract.network, read_contract(&first).unwrap().network);
    let (a, b) = (reference(&first), reference(&second));
    assert_eq!(a.rows.logits, b.rows.logits);
    assert_eq!(a.rows.value, b.rows.value);
    let dev = cpu_device();
    let (x, y) =
        (load_bundle_agent::<Kessel>(&first, &dev).unwrap(), load_bundle_agent::<Kessel>(&second, &dev).unwrap());
    assert_eq!(greedy_games(&x, 3, 3), greedy_games(&y, 3, 3));

    // A network other than the weights' is refused, naming the mismatch, and writes nothing.
    let wrong = WeightsSource { network: network.with_hidden(vec![24, 13]), ..source };
    let err = export_weights(&weights, &wrong, &root.path().join("third"), Formats::default(), false).unwrap_err();
    assert!(matches!(err, ExportError::BundleWeights { .. }), "{err}");
    assert!(!root.path().join("third").exists());
}

/// A classic Sabacc checkpoint exports with its own game's contract, its reference rows play
/// classic games, and the bundle loads as a classic agent only.
#[test]
fn a_classic_checkpoint_exports_a_classic_contract_and_bundle() {
    use env::GameConfig;
    use games::classic::Classic;
    let root = tempfile::tempdir().unwrap();
    let (ckpt, out) = (root.path().join("c"), root.path().join("bundle"));
    let spec = Classic::SPEC;
    let config = PolicyConfig::new(spec.obs_len, spec.num_actions).with_hidden(vec![16]);
    let model = ActorCritic::new_seeded(&config, &cpu_device(), 5).unwrap();
    let rules = GameConfig::<Classic>::with_players(3);
    let meta = CheckpointMetadata::new(spec.id, spec.obs_version, config, 7, 5, serde_json::to_value(rules).unwrap());
    save_checkpoint(&ckpt, &model, &meta, None).unwrap();
    assert_eq!(checkpoint_game(&ckpt).unwrap(), games::GameId::parse("classic").unwrap());
    // Exported as the other game, it is refused naming both, and nothing is written.
    let err = export_checkpoint::<Kessel>(&ckpt, &out, Formats::default(), false).unwrap_err();
    let message = err.to_string();
    assert!(message.contains("classic_sabacc_v1") && message.contains("kessel_sabacc_v1"), "{message}");
    assert!(!out.exists());
    let summary = export_checkpoint::<Classic>(&ckpt, &out, Formats::default(), false).unwrap();
    let c = &summary.contract;
    assert_eq!((c.env_id.as_str(), c.game.name.as_str()), ("classic_sabacc_v1", "classic Sabacc"));
    assert_eq!((c.observation.length, c.actions.count), (384, 44));
    assert_eq!(c.actions.names[1], "bet:1");
    assert!(c.observation.segments.iter().any(|s| s.name == "hand_summary"));
    let r = reference(&out);
    assert!(r.rows.count > 0 && r.rows.obs.iter().all(|o| o.len() == 384));
    assert!(r.rows.mask.iter().all(|m| m.len() == 44 && m.contains(&1)));
    let bundle = Bundle::load(&out, &cpu_device()).unwrap();
    let outputs = bundle.forward(&flat_rows(&r).0, &flat_rows(&r).1, r.rows.count).unwrap();
    assert_eq!(outputs.value.len(), r.rows.count);
    assert!(Bundle::load(&out, &cpu_device()).unwrap().into_agent::<Classic>().is_ok());
    let Err(e) = load_bundle_agent::<Kessel>(&out, &cpu_device()) else {
        panic!("a Kessel table refuses a classic bundle")
    };
    let e = e.to_string();
    assert!(e.contains("classic_sabacc_v1") && e.contains("kessel_sabacc_v1"), "{e}");
}

fn a_level(mistake_rate: f64) -> Level {
    Level {
        number: 2,
        spec: "level:2".into(),
        name: "casual".into(),
        description: "casual: test".into(),
        selection: "argmax".into(),
        mistake_rate,
        rule: Level::rule_text(mistake_rate),
        rating: LevelRating {
            rating: 1236.0,
            low: 1231.0,
            high: 1240.0,
            games: 1000,
            anchors: vec!["expert=1500".into()],
            scale: "test".into(),
            ladder_file: "ladder/kessel.json".into(),
            ladder_sha256: "0".repeat(64),
            by_size: Vec::new(),
        },
    }
}

/// A level bundle is the checkpoint's bundle plus the `level` section (contract, README, model
/// metadata); the network and the reference outputs are the same.
#[test]
fn a_level_bundle_is_the_checkpoints_bundle_with_its_level_recorded() {
    let root = tempfile::tempdir().unwrap();
    let ckpt = root.path().join("ckpt");
    make_checkpoint(&ckpt, vec![8], Activation::Relu, true, 4);
    let plain = root.path().join("plain");
    let level = root.path().join("level");
    export_checkpoint::<Kessel>(&ckpt, &plain, Formats::default(), false).unwrap();
    let s = export_level::<Kessel>(&ckpt, a_level(0.6), &level, Formats::default(), false).unwrap();
    assert_eq!(s.contract.contract_version, CONTRACT_VERSION);
    let c = read_contract(&level).unwrap();
    assert_eq!(c.level, Some(a_level(0.6)));
    assert_eq!(read_contract(&plain).unwrap().level, None);
    assert_eq!(reference(&plain).rows.logits, reference(&level).rows.logits, "the same network");
    let readme = fs::read_to_string(level.join(README_FILE)).unwrap();
    assert!(readme.contains("Difficulty level 2: casual") && readme.contains("mistake_rate"), "{readme}");
    let onnx = fs::read(level.join(ONNX_FILE)).unwrap();
    let has = |needle: &str| onnx.windows(needle.len()).any(|w| w == needle.as_bytes());
    assert!(has("sabacc.level_mistake_rate") && has("sabacc.ladder_sha256"), "level keys in the ONNX metadata");
    let err =
        export_level::<Kessel>(&ckpt, a_level(1.5), &root.path().join("bad"), Formats::default(), false).unwrap_err();
    assert!(err.to_string().contains("mistake_rate 1.5"), "{err}");
    assert!(!root.path().join("bad").exists());
}

/// Version-1 contracts (no `level`) still load; a version this build does not know, or a level
/// whose random-move rate is no probability, is refused naming the field.
#[test]
fn version_one_bundles_load_and_unknown_versions_are_refused() {
    let root = tempfile::tempdir().unwrap();
    let ckpt = root.path().join("ckpt");
    make_checkpoint(&ckpt, vec![8], Activation::Relu, false, 5);
    let out = root.path().join("bundle");
    export_checkpoint::<Kessel>(&ckpt, &out, Formats::default(), false).unwrap();
    let path = out.join(CONTRACT_FILE);
    let mut json: serde_json::Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    assert!(json.get("level").is_none(), "no level section in an ordinary bundle");
    json["contract_version"] = 1.into();
    fs::write(&path, serde_json::to_vec(&json).unwrap()).unwrap();
    assert_eq!(Bundle::load(&out, &cpu_device()).unwrap().contract().contract_version, 1);
    json["contract_version"] = (CONTRACT_VERSION + 1).into();
    fs::write(&path, serde_json::to_vec(&json).unwrap()).unwrap();
    let err = read_contract(&out).unwrap_err();
    assert!(matches!(err, ExportError::BundleSpec { field: "contract_version", .. }), "{err}");
    assert!(err.to_string().contains(&format!("{MIN_CONTRACT_VERSION} to {CONTRACT_VERSION}")), "{err}");
    json["contract_version"] = CONTRACT_VERSION.into();
    json["level"] = serde_json::to_value(a_level(2.0)).unwrap();
    fs::write(&path, serde_json::to_vec(&json).unwrap()).unwrap();
    let err = read_contract(&out).unwrap_err();
    assert!(matches!(err, ExportError::BundleSpec { field: "level.mistake_rate", .. }), "{err}");
}
