//! Behavioural tests of the policy crate, on tiny networks so they stay fast.

use policy::burn::module::Module;
use policy::burn::optim::{AdamConfig, GradientsParams};
use policy::burn::tensor::{Bool, Int, Tensor, TensorData};
use policy::*;
use rand::SeedableRng;
use rand_pcg::Pcg64;

const OBS: usize = 6;
const ACT: usize = 5;

fn tiny(shared: bool) -> PolicyConfig {
    PolicyConfig::new(OBS, ACT).with_hidden(vec![16, 8]).with_shared_trunk(shared)
}

fn obs_data(n: usize) -> Vec<f32> {
    (0..n * OBS).map(|i| ((i * 37 % 11) as f32 - 5.0) * 0.3).collect()
}

fn obs_tensor(n: usize, device: &Device) -> Tensor<2> {
    Tensor::from_data(TensorData::new(obs_data(n), [n, OBS]), device)
}

fn mask_tensor(mask: &[bool], n: usize, device: &Device) -> Tensor<2, Bool> {
    Tensor::from_data(TensorData::new(mask.to_vec(), [n, mask.len() / n]), device)
}

fn to_vec(t: Tensor<1>) -> Vec<f32> {
    t.into_data().try_into_vec_as::<f32>().unwrap()
}

fn to_vec2(t: Tensor<2>) -> Vec<f32> {
    t.into_data().try_into_vec_as::<f32>().unwrap()
}

#[test]
fn forward_shapes_both_trunk_layouts() {
    let device = cpu_device();
    for shared in [false, true] {
        let model = ActorCritic::new(&tiny(shared), &device).unwrap();
        let (logits, value) = model.forward(obs_tensor(7, &device));
        assert_eq!(logits.dims(), [7, ACT]);
        assert_eq!(value.dims(), [7]);
        assert_eq!(model.logits(obs_tensor(3, &device)).dims(), [3, ACT]);
        assert_eq!(model.value(obs_tensor(3, &device)).dims(), [3]);
        // forward's value equals the value-only path.
        let (_, v) = model.forward(obs_tensor(3, &device));
        assert_eq!(to_vec(v), to_vec(model.value(obs_tensor(3, &device))));
    }
    // Separate trunks have twice the hidden layers.
    let sep = ActorCritic::new(&tiny(false), &device).unwrap().num_params();
    let sha = ActorCritic::new(&tiny(true), &device).unwrap().num_params();
    let trunk = (OBS * 16 + 16) + (16 * 8 + 8);
    let heads = (8 * ACT + ACT) + (8 + 1);
    assert_eq!(sep, 2 * trunk + heads);
    assert_eq!(sha, trunk + heads);
}

#[test]
fn invalid_config_is_a_typed_error() {
    let device = cpu_device();
    let err = ActorCritic::new(&PolicyConfig::new(OBS, 0), &device).unwrap_err();
    assert_eq!(err, ConfigError::ZeroNumActions);
    let err = ActorCritic::new(&tiny(false).with_hidden(vec![4, 0]), &device).unwrap_err();
    assert_eq!(err, ConfigError::ZeroHidden { index: 1 });
}

#[test]
fn initial_policy_is_near_uniform() {
    // Policy head gain 0.01 → logits close to zero.
    let device = cpu_device();
    let model = ActorCritic::new(&tiny(false), &device).unwrap();
    let logits = to_vec2(model.logits(obs_tensor(4, &device)));
    assert!(logits.iter().all(|l| l.abs() < 0.2), "{logits:?}");
}

#[test]
fn entropy_of_uniform_over_k_legal_is_ln_k() {
    let device = cpu_device();
    // Row k has its first k+1 actions legal, equal logits (including huge ones for illegal
    // actions, which must not count).
    let n = ACT;
    let mut mask = vec![false; n * ACT];
    for r in 0..n {
        for a in 0..=r {
            mask[r * ACT + a] = true;
        }
    }
    let logits: Vec<f32> = (0..n * ACT).map(|i| if mask[i] { 3.0 } else { 50.0 }).collect();
    let logits = Tensor::<2>::from_data(TensorData::new(logits, [n, ACT]), &device);
    let m = masked_logits(logits, mask_tensor(&mask, n, &device));
    let ent = to_vec(entropy(m, mask_tensor(&mask, n, &device)));
    for (r, e) in ent.iter().enumerate() {
        let want = ((r + 1) as f32).ln();
        assert!((e - want).abs() < 1e-5, "row {r}: {e} vs {want}");
        assert!(e.is_finite());
    }
}

#[test]
fn log_prob_matches_manual_computation() {
    let device = cpu_device();
    let raw = [[0.5f32, -1.0, 2.0, 0.0, 1.5], [-3.0, 4.0, 0.25, 1.0, -0.5], [0.0, 0.0, 0.0, 0.0, 9.0]];
    let mask = [[true, true, true, true, true], [false, true, true, false, true], [true, false, false, true, false]];
    let actions = [2usize, 4, 3];
    let flat_l: Vec<f32> = raw.iter().flatten().copied().collect();
    let flat_m: Vec<bool> = mask.iter().flatten().copied().collect();
    let logits = Tensor::<2>::from_data(TensorData::new(flat_l, [3, ACT]), &device);
    let m = masked_logits(logits, mask_tensor(&flat_m, 3, &device));
    let acts = Tensor::<1, Int>::from_data(TensorData::new(actions.iter().map(|&a| a as i64).collect(), [3]), &device);
    let lp = to_vec(log_prob(m.clone(), acts));
    let ent = to_vec(entropy(m, mask_tensor(&flat_m, 3, &device)));
    for r in 0..3 {
        let legal: Vec<f64> = (0..ACT).filter(|&a| mask[r][a]).map(|a| raw[r][a] as f64).collect();
        let lse = legal.iter().map(|x| x.exp()).sum::<f64>().ln();
        let want = raw[r][actions[r]] as f64 - lse;
        assert!((lp[r] as f64 - want).abs() < 1e-5, "row {r}: {} vs {want}", lp[r]);
        let want_ent: f64 = legal
            .iter()
            .map(|x| {
                let lp = x - lse;
                -lp.exp() * lp
            })
            .sum();
        assert!((ent[r] as f64 - want_ent).abs() < 1e-5, "row {r}");
    }
}

#[test]
fn masked_gradients_are_finite_and_zero_on_illegal_actions() {
    let device = cpu_training_device();
    let logits =
        Tensor::<2>::from_data(TensorData::new(vec![1.0f32, 2.0, 3.0, -1.0, 0.5, 0.0], [2, 3]), &device).require_grad();
    let mask_v = vec![true, false, true, false, false, true];
    let m = masked_logits(logits.clone(), mask_tensor(&mask_v, 2, &device));
    let acts = Tensor::<1, Int>::from_data(TensorData::new(vec![0i64, 2], [2]), &device);
    let loss = log_prob(m.clone(), acts).sum() + entropy(m, mask_tensor(&mask_v, 2, &device)).sum();
    let grads = loss.backward();
    let g = to_vec2(logits.grad(&grads).unwrap());
    assert!(g.iter().all(|x| x.is_finite()), "{g:?}");
    for (x, legal) in g.iter().zip(&mask_v) {
        if !legal {
            assert_eq!(*x, 0.0);
        }
    }
}

#[test]
fn sampling_never_selects_illegal_actions() {
    let device = cpu_device();
    let model = ActorCritic::new(&tiny(false), &device).unwrap();
    let policy = Policy::new(&model, &device);
    let n = 8;
    let mut rng = Pcg64::seed_from_u64(3);
    // Varied masks, including single-legal rows.
    let masks: Vec<bool> = (0..n * ACT).map(|i| !(i * 7 + i / ACT).is_multiple_of(3)).collect();
    let mut masks = masks;
    for r in 0..n {
        if !masks[r * ACT..(r + 1) * ACT].iter().any(|&m| m) {
            masks[r * ACT + r % ACT] = true;
        }
    }
    let obs = obs_data(n);
    let mut seen = vec![[0usize; ACT]; n];
    for _ in 0..300 {
        let out = policy.evaluate_batch(&obs, &masks, n, ActionSelection::Sample, &mut rng).unwrap();
        for (r, &a) in out.actions.iter().enumerate() {
            assert!(masks[r * ACT + a], "row {r} picked illegal action {a}");
            seen[r][a] += 1;
        }
        assert!(out.log_probs.iter().all(|l| l.is_finite() && *l <= 0.0));
    }
    // Near-uniform initial policy: every legal action shows up.
    for r in 0..n {
        for a in 0..ACT {
            assert_eq!(seen[r][a] > 0, masks[r * ACT + a], "row {r} action {a}");
        }
    }
    let greedy = policy.act_batch(&obs, &masks, n, ActionSelection::Greedy, &mut rng).unwrap();
    for (r, &a) in greedy.iter().enumerate() {
        assert!(masks[r * ACT + a]);
    }
}

#[test]
fn host_sampler_respects_zero_probabilities() {
    // Exhaustive u grid including the edges: zero-probability indices are never returned.
    let probs = [0.0f32, 0.3, 0.0, 0.7, 0.0];
    for i in 0..=1000 {
        let u = i as f32 / 1000.0;
        let a = sample(&probs, u).unwrap();
        assert!(a == 1 || a == 3, "u={u} gave {a}");
    }
    assert_eq!(sample(&probs, 1.0), Some(3));
    assert_eq!(sample(&probs, 0.0), Some(1));
    assert_eq!(sample(&[0.0, 0.0], 0.5), None);
    assert_eq!(sample(&[f32::NAN, 1.0], 0.1), Some(1));
    // Rows that do not sum to one are normalised.
    assert_eq!(sample(&[0.2, 0.2], 0.49), Some(0));
    assert_eq!(sample(&[0.2, 0.2], 0.51), Some(1));
    assert_eq!(sample_masked(&[0.5, 0.5, 0.0], &[false, true, true], 0.0), Some(1));
    assert_eq!(argmax_masked(&[9.0, 1.0, 2.0], &[false, true, true]), Some(2));
    assert_eq!(argmax_masked(&[9.0, 1.0], &[false, false]), None);
    assert_eq!(masks_from_bits(&[0b101, 0b010], 3), vec![true, false, true, false, true, false]);
}

#[test]
fn policy_rejects_bad_slices() {
    let device = cpu_device();
    let policy = Policy::new(&ActorCritic::new(&tiny(false), &device).unwrap(), &device);
    let mut rng = Pcg64::seed_from_u64(0);
    let obs = obs_data(2);
    let ok_mask = vec![true; 2 * ACT];
    assert!(matches!(
        policy.act_batch(&obs[1..], &ok_mask, 2, ActionSelection::Sample, &mut rng),
        Err(PolicyError::ObsLength { .. })
    ));
    assert!(matches!(
        policy.act_batch(&obs, &ok_mask[1..], 2, ActionSelection::Sample, &mut rng),
        Err(PolicyError::MaskLength { .. })
    ));
    let mut bad = ok_mask.clone();
    bad[ACT..].iter_mut().for_each(|m| *m = false);
    assert_eq!(
        policy.act_batch(&obs, &bad, 2, ActionSelection::Greedy, &mut rng),
        Err(PolicyError::NoLegalAction { row: 1 })
    );
    assert_eq!(policy.value_batch(&[], 0), Err(PolicyError::EmptyBatch));
    assert_eq!(policy.value_batch(&obs, 2).unwrap().len(), 2);
}

fn meta_for(config: &PolicyConfig, spec: u32) -> CheckpointMetadata {
    let mut m = CheckpointMetadata::new("test_v1", spec, config.clone(), 1234, 42, serde_json::json!({"players": 2}));
    m.git_commit = Some("abc123".into());
    m.notes = "test".into();
    m
}

fn spec(version: u32) -> ExpectedSpec {
    ExpectedSpec { env_id: "test_v1", obs_spec_version: version, obs_dim: OBS, num_actions: ACT }
}

#[test]
fn checkpoint_round_trip_gives_identical_outputs() {
    let device = cpu_device();
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("ckpt");
    for shared in [false, true] {
        let config = tiny(shared).with_activation(Activation::Tanh);
        let model = ActorCritic::new(&config, &device).unwrap();
        let meta = meta_for(&config, 3);
        save_checkpoint(&dir, &model, &meta, None).unwrap();
        assert!(dir.join(MODEL_FILE).is_file());
        assert!(dir.join(METADATA_FILE).is_file());

        let (loaded, got) = load_checkpoint(&dir, &spec(3), &device).unwrap();
        assert_eq!(got.checksums.keys().collect::<Vec<_>>(), vec![MODEL_FILE], "save records the weights' SHA-256");
        assert_eq!(CheckpointMetadata { checksums: Default::default(), ..got }, meta);
        assert_eq!(loaded.config(), &config);
        let (l1, v1) = model.forward(obs_tensor(5, &device));
        let (l2, v2) = loaded.forward(obs_tensor(5, &device));
        assert_eq!(to_vec2(l1), to_vec2(l2));
        assert_eq!(to_vec(v1), to_vec(v2));

        let (p, _) = Policy::from_checkpoint(&dir, &spec(3), &device).unwrap();
        assert_eq!(p.value_batch(&obs_data(5), 5).unwrap(), to_vec(model.value(obs_tensor(5, &device))));
    }
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join(METADATA_FILE)).unwrap()).unwrap();
    for key in [
        "format_version",
        "obs_spec_version",
        "obs_dim",
        "num_actions",
        "network",
        "training_step",
        "seed",
        "rule_config",
        "git_commit",
        "created_unix",
        "notes",
        "checksums",
    ] {
        assert!(json.get(key).is_some(), "metadata lacks {key}");
    }
}

#[test]
fn mismatching_spec_gives_typed_errors_naming_the_field() {
    let device = cpu_device();
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("ckpt");
    let config = tiny(false);
    let model = ActorCritic::new(&config, &device).unwrap();
    save_checkpoint(&dir, &model, &meta_for(&config, 2), None).unwrap();

    let err = load_checkpoint(&dir, &spec(3), &device).unwrap_err();
    assert!(matches!(err, CheckpointError::ObsSpecVersion { found: 2, expected: 3 }));
    assert_eq!(err.to_string(), "checkpoint observation spec version 2 does not match this build's version 3");

    let mut s = spec(2);
    s.obs_dim = OBS + 1;
    let err = load_checkpoint(&dir, &s, &device).unwrap_err();
    assert!(matches!(err, CheckpointError::ObsDim { found: OBS, .. }), "{err}");
    assert!(err.to_string().contains("observation size 6"), "{err}");

    let mut s = spec(2);
    s.num_actions = ACT - 1;
    let err = load_checkpoint(&dir, &s, &device).unwrap_err();
    assert!(matches!(err, CheckpointError::NumActions { found: ACT, .. }), "{err}");
    assert!(err.to_string().contains("action count 5"), "{err}");

    // A future format version is refused before anything else.
    let path = dir.join(METADATA_FILE);
    let mut json: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    json["format_version"] = serde_json::json!(FORMAT_VERSION + 1);
    std::fs::write(&path, serde_json::to_vec(&json).unwrap()).unwrap();
    let err = load_checkpoint(&dir, &spec(2), &device).unwrap_err();
    assert!(matches!(err, CheckpointError::FormatVersion { .. }), "{err}");
}

#[test]
fn corrupt_or_missing_files_are_errors_not_panics() {
    let device = cpu_device();
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("ckpt");

    let err = load_checkpoint(&dir, &spec(1), &device).unwrap_err();
    assert!(matches!(err, CheckpointError::Missing { .. }), "{err}");

    let config = tiny(false);
    let model = ActorCritic::new(&config, &device).unwrap();
    save_checkpoint(&dir, &model, &meta_for(&config, 1), None).unwrap();

    // Truncated JSON.
    let path = dir.join(METADATA_FILE);
    let good = std::fs::read(&path).unwrap();
    std::fs::write(&path, &good[..good.len() / 2]).unwrap();
    let err = load_checkpoint(&dir, &spec(1), &device).unwrap_err();
    assert!(matches!(err, CheckpointError::InvalidMetadata { .. }), "{err}");
    // Valid JSON, wrong shape.
    std::fs::write(&path, br#"{"format_version": 1}"#).unwrap();
    let err = load_checkpoint(&dir, &spec(1), &device).unwrap_err();
    assert!(matches!(err, CheckpointError::InvalidMetadata { .. }), "{err}");
    // Bad network config inside valid metadata.
    let mut json: serde_json::Value = serde_json::from_slice(&good).unwrap();
    json["network"]["hidden"] = serde_json::json!([]);
    std::fs::write(&path, serde_json::to_vec(&json).unwrap()).unwrap();
    let err = load_checkpoint(&dir, &spec(1), &device).unwrap_err();
    assert!(matches!(err, CheckpointError::Config(ConfigError::EmptyHidden)), "{err}");
    // Hidden sizes that do not match the stored weights.
    json["network"]["hidden"] = serde_json::json!([16, 9]);
    std::fs::write(&path, serde_json::to_vec(&json).unwrap()).unwrap();
    let err = load_checkpoint(&dir, &spec(1), &device).unwrap_err();
    assert!(matches!(err, CheckpointError::Weights { .. }), "{err}");
    std::fs::write(&path, &good).unwrap();
    load_checkpoint(&dir, &spec(1), &device).unwrap();

    // Corrupt weights.
    let weights = dir.join(MODEL_FILE);
    let bytes = std::fs::read(&weights).unwrap();
    std::fs::write(&weights, &bytes[..bytes.len() / 3]).unwrap();
    let err = load_checkpoint(&dir, &spec(1), &device).unwrap_err();
    assert!(matches!(err, CheckpointError::Weights { .. }), "{err}");
    std::fs::write(&weights, b"garbage").unwrap();
    let err = load_checkpoint(&dir, &spec(1), &device).unwrap_err();
    assert!(matches!(err, CheckpointError::Weights { .. }), "{err}");
    // Missing weights.
    std::fs::remove_file(&weights).unwrap();
    let err = load_checkpoint(&dir, &spec(1), &device).unwrap_err();
    assert!(matches!(err, CheckpointError::Missing { .. }), "{err}");
    // Missing metadata.
    std::fs::remove_file(&path).unwrap();
    let err = read_metadata(&dir).unwrap_err();
    assert!(matches!(err, CheckpointError::Missing { .. }), "{err}");
}

/// One PPO-shaped update: the loss touches logits (masked log-prob + entropy) and value.
fn train_step(
    model: ActorCritic,
    optim: &mut policy::burn::optim::ModuleOptimizer,
    device: &Device,
) -> (ActorCritic, f32) {
    let n = 4;
    let mask_v: Vec<bool> = (0..n * ACT).map(|i| i % 3 != 1).collect();
    let (logits, value) = model.forward(obs_tensor(n, device));
    let m = masked_logits(logits, mask_tensor(&mask_v, n, device));
    let acts = Tensor::<1, Int>::from_data(TensorData::new(vec![0i64, 2, 0, 2], [n]), device);
    let loss = -log_prob(m.clone(), acts).mean() - entropy(m, mask_tensor(&mask_v, n, device)).mean() * 0.01
        + (value - 1.0).powi_scalar(2).mean();
    let grads = GradientsParams::from_grads(loss.backward(), &model);
    let (grads, norm) = clip_grad_norm(&model, grads, 0.5);
    (optim.step(1e-2, model, grads), norm)
}

#[test]
fn training_step_changes_weights_and_resume_is_exact() {
    let device = cpu_training_device();
    device.seed(1);
    let config = tiny(false);
    let mut model = ActorCritic::new(&config, &device).unwrap();
    let mut optim = AdamConfig::new().with_epsilon(1e-5).init();
    let before = to_vec2(model.logits(obs_tensor(2, &device)).detach());
    for _ in 0..2 {
        let (m, norm) = train_step(model, &mut optim, &device);
        assert!(norm.is_finite() && norm > 0.0);
        model = m;
    }
    let after = to_vec2(model.logits(obs_tensor(2, &device)).detach());
    assert_ne!(before, after);

    // Save model + Adam state, then continue both the original and a reloaded copy.
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("ckpt");
    save_checkpoint(&dir, &model, &meta_for(&config, 1), Some(&optim)).unwrap();
    let (loaded, _) = load_checkpoint(&dir, &spec(1), &device).unwrap();
    let mut loaded_optim =
        load_optimizer(&dir, AdamConfig::new().with_epsilon(1e-5).init()).unwrap().expect("optimizer state saved");
    let (a, _) = train_step(model, &mut optim, &device);
    let (b, _) = train_step(loaded, &mut loaded_optim, &device);
    let va = to_vec2(a.logits(obs_tensor(3, &device)).detach());
    let vb = to_vec2(b.logits(obs_tensor(3, &device)).detach());
    for (x, y) in va.iter().zip(&vb) {
        assert!((x - y).abs() < 1e-6, "{va:?} vs {vb:?}");
    }
}

#[test]
fn global_grad_clipping_scales_all_gradients() {
    let device = cpu_training_device();
    let model = ActorCritic::new(&tiny(true), &device).unwrap();
    let (logits, value) = model.forward(obs_tensor(4, &device));
    let loss = logits.sum() * 100.0 + value.sum() * 100.0;
    let grads = GradientsParams::from_grads(loss.backward(), &model);
    let norm = grad_norm(&model, &grads);
    assert!(norm > 1.0, "{norm}");
    let (clipped, reported) = clip_grad_norm(&model, grads, 1.0);
    assert_eq!(reported, norm);
    let after = grad_norm(&model, &clipped);
    assert!((after - 1.0).abs() < 1e-3, "{after}");
    // Below the threshold nothing changes.
    let (same, _) = clip_grad_norm(&model, clipped, 10.0);
    assert!((grad_norm(&model, &same) - after).abs() < 1e-6);
}

#[test]
fn policy_from_autodiff_model_matches_training_outputs() {
    let device = cpu_training_device();
    let model = ActorCritic::new(&tiny(false), &device).unwrap();
    let policy = Policy::new(&model, &device);
    assert!(!policy.device().is_autodiff());
    let want = to_vec(model.value(obs_tensor(3, &device)).detach());
    assert_eq!(policy.value_batch(&obs_data(3), 3).unwrap(), want);
    let masks = vec![true; 3 * ACT];
    let (lp, _) = policy.log_probs_and_values(&obs_data(3), &masks, 3).unwrap();
    let want_lp = to_vec2(log_probs(model.logits(obs_tensor(3, &device))).detach());
    for (a, b) in lp.iter().zip(&want_lp) {
        assert!((a - b).abs() < 1e-6);
    }
}

/// Two networks built from one seed have the same weights whatever touches them first: here
/// the second is read before the first, and another network is built in between (burn draws a
/// parameter's values when it is first read, so a lazily initialised network would take the
/// values the generator happens to give at that moment).
#[test]
fn networks_from_one_seed_are_equal_whatever_reads_them_first() {
    let device = cpu_device();
    for shared in [false, true] {
        let first = ActorCritic::new_seeded(&tiny(shared), &device, 11).unwrap();
        let second = ActorCritic::new_seeded(&tiny(shared), &device, 11).unwrap();
        let other = ActorCritic::new_seeded(&tiny(shared), &device, 12).unwrap();
        let other_logits = to_vec2(other.logits(obs_tensor(4, &device)));
        let (l2, v2) = second.forward(obs_tensor(4, &device));
        let (l1, v1) = first.forward(obs_tensor(4, &device));
        assert_eq!(to_vec2(l1.clone()), to_vec2(l2), "shared trunk: {shared}");
        assert_eq!(to_vec(v1), to_vec(v2), "shared trunk: {shared}");
        assert_ne!(to_vec2(l1), other_logits, "another seed, other weights");
    }
}
