//! The training benchmark on a tiny config and budget: every figure present, positive and finite;
//! bad input gives an error, not a panic.

use crate::common;
use common::bots;
use game::Game as _;
use games::kessel::Kessel;
use train::TrainConfig;
use train::bench::{BenchOptions, run};

fn tiny() -> TrainConfig<Kessel> {
    TrainConfig::<Kessel>::from_toml(
        r#"
        name = "bench-tiny"
        seed = 3
        players = 2
        num_envs = 4
        num_steps = 32
        num_minibatches = 2
        update_epochs = 2
        hidden = [16]
        [opponents]
        latest = 1.0
        random = 1.0
        "#,
    )
    .expect("valid tiny config")
}

#[test]
fn tiny_bench_reports_positive_finite_figures() {
    let _one_at_a_time = crate::common::serial();
    let r = run(&tiny(), bots(), &BenchOptions { seconds: 0.2, progress: false }).expect("bench runs");
    let rates = [
        ("decisions_per_sec_end_to_end", r.decisions_per_sec_end_to_end),
        ("env_decisions_per_sec_end_to_end", r.env_decisions_per_sec_end_to_end),
        ("end_to_end_seconds", r.end_to_end_seconds),
        ("rollout_share_end_to_end", r.rollout_share_end_to_end),
        ("rollout_decisions_per_sec", r.rollout_decisions_per_sec),
        ("rollout_learner_decisions_per_sec", r.rollout_learner_decisions_per_sec),
        ("update_samples_per_sec", r.update_samples_per_sec),
        ("update_sample_passes_per_sec", r.update_sample_passes_per_sec),
        ("minibatch_4096_step_ms", r.minibatch_4096_step_ms),
        ("minibatch_4096_step_ms_min", r.minibatch_4096_step_ms_min),
    ];
    for (name, v) in rates {
        assert!(v.is_finite() && v > 0.0, "{name} = {v}");
    }
    assert!(r.rollout_share_end_to_end <= 1.0);
    assert!(r.minibatch_4096_step_ms_min <= r.minibatch_4096_step_ms);
    assert!(r.end_to_end_updates >= 1 && r.rollouts >= 1 && r.updates >= 1 && r.minibatch_steps >= 3);
    assert!(r.update_batch_rows > 0 && r.end_to_end_learner_decisions > 0);
    assert!(r.threads >= 1);
    assert_eq!(r.backend, "flex");
    assert_eq!(r.table_sizes, vec![2]);
    assert_eq!((r.obs_dim, r.hidden.clone(), r.separate_towers), (Kessel::SPEC.obs_len, vec![16], true));
    // Every seat's decisions include the learner's.
    assert!(r.rollout_decisions_per_sec >= r.rollout_learner_decisions_per_sec);

    let json = serde_json::to_value(&r).expect("report serialises");
    for key in [
        "decisions_per_sec_end_to_end",
        "rollout_decisions_per_sec",
        "update_samples_per_sec",
        "minibatch_4096_step_ms",
        "threads",
        "backend",
    ] {
        assert!(json.get(key).is_some(), "JSON lacks {key}");
    }
}

#[test]
fn bad_input_is_an_error() {
    let _one_at_a_time = crate::common::serial();
    let mut cfg = tiny();
    cfg.num_envs = 0;
    let e = run(&cfg, bots(), &BenchOptions { seconds: 0.1, progress: false }).unwrap_err().to_string();
    assert!(e.starts_with("num_envs:"), "{e}");

    let e = run(&tiny(), bots(), &BenchOptions { seconds: -1.0, progress: false }).unwrap_err().to_string();
    assert!(e.contains("--seconds"), "{e}");

    let mut cfg = tiny();
    cfg.opponents.insert("greedy".into(), 1.0);
    let e = run(&cfg, bots(), &BenchOptions { seconds: 0.1, progress: false }).unwrap_err();
    assert!(format!("{e:#}").contains("greedy"), "{e:#}");

    let e = TrainConfig::<Kessel>::load(std::path::Path::new("no/such/config.toml")).unwrap_err().to_string();
    assert!(e.contains("no/such/config.toml"), "{e}");
}
