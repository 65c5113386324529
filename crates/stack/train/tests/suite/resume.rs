//! Resume equivalence, crash safety, clear errors and readable logs for the trainer.

use crate::common;
use common::bots;
use env::{Agent, RandomAgent};
use game::Game as _;
use games::kessel::Kessel;
use policy::{Policy, cpu_device};
use std::path::Path;
use train::trainer::expected_spec;
use train::{TrainConfig, TrainOptions, train};

/// Training runs in this file take turns: burn's CPU backend shares one thread pool and one
/// initialisation generator per process, and bit-for-bit comparisons need runs that do not
/// overlap.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

fn tiny() -> TrainConfig<Kessel> {
    tiny_with("")
}

/// The tiny config with extra top-level fields.
fn tiny_with(extra: &str) -> TrainConfig<Kessel> {
    TrainConfig::<Kessel>::from_toml(&format!(
        r#"
        {extra}
        name = "tiny"
        seed = 5
        players = 3
        total_decisions = 1200
        num_envs = 4
        num_steps = 24
        num_minibatches = 2
        update_epochs = 2
        hidden = [16]
        checkpoint_every = 2
        snapshot_every = 2
        max_snapshots = 2
        eval_every = 3
        eval_games = 6
        eval_bots = ["random"]
        final_eval_games = 0
        [opponents]
        latest = 1.0
        snapshots = 1.0
        random = 1.0
        "#
    ))
    .expect("valid tiny config")
}

fn opts(dir: &Path, resume: bool, stop_after: Option<u64>) -> TrainOptions<Kessel> {
    TrainOptions::<Kessel> {
        run_dir: dir.to_path_buf(),
        resume,
        bots: bots(),
        progress: false,
        stop_after,
        fresh_optimizer: false,
        stop: None,
        time_budget: None,
    }
}

/// Log-probabilities and values of a checkpoint on fixed observations: equal outputs mean equal
/// weights for all practical purposes.
fn fingerprint(ckpt: &Path) -> (Vec<f32>, Vec<f32>) {
    let (p, _) = Policy::from_checkpoint(ckpt, &expected_spec::<Kessel>(), &cpu_device()).expect("checkpoint loads");
    let n = 5;
    let obs: Vec<f32> = (0..n * Kessel::SPEC.obs_len).map(|i| ((i * 37 % 101) as f32) / 101.0).collect();
    let masks = vec![true; n * Kessel::SPEC.num_actions];
    p.log_probs_and_values(&obs, &masks, n).expect("forward")
}

/// A run stopped between checkpoints and resumed ends with the same weights as an uninterrupted
/// run: games restart at checkpoint boundaries, random streams are derived from the update
/// number, and the Adam state is restored with the weights.
#[test]
fn stopped_and_resumed_run_matches_uninterrupted_run() {
    let _one_at_a_time = crate::common::serial();
    let _serial = serial();
    assert_resume_is_exact(&tiny(), 3);
}

/// The same with mixed table sizes and prioritised snapshots, whose win records are part of
/// what a checkpoint must carry.
#[test]
fn resume_is_exact_with_mixed_tables_and_prioritised_snapshots() {
    let _one_at_a_time = crate::common::serial();
    let _serial = serial();
    let cfg = TrainConfig::<Kessel>::from_toml(
        r#"
        seed = 8
        players = 3
        table_sizes = [2, 3]
        snapshot_sampling = "prioritised"
        total_decisions = 4000
        num_envs = 16
        num_steps = 24
        num_minibatches = 2
        update_epochs = 1
        hidden = [16]
        checkpoint_every = 3
        snapshot_every = 1
        max_snapshots = 4
        eval_every = 0
        final_eval_games = 0
        eval_bots = ["random"]
        [opponents]
        snapshots = 1.0
        "#,
    )
    .expect("valid config");
    // Stopped after update 7: the checkpoint of update 6 holds the pool's win records.
    assert_resume_is_exact(&cfg, 7);
}

/// `shared_trunk = true` trains one trunk under both heads: the checkpoint says so, resumes
/// exactly, and cannot seed a run with separate towers (or the other way round).
#[test]
fn a_shared_trunk_run_resumes_exactly_and_its_layout_is_checked() {
    let _one_at_a_time = crate::common::serial();
    let _serial = serial();
    let cfg = tiny_with("shared_trunk = true");
    assert_resume_is_exact(&cfg, 3);

    let a = tempfile::tempdir().unwrap();
    let run = train(&cfg, opts(a.path(), false, Some(2))).unwrap();
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.checkpoint.join("metadata.json")).unwrap()).unwrap();
    assert_eq!(meta["network"]["shared_trunk"], serde_json::Value::Bool(true));

    let towers = TrainConfig::<Kessel> { init_from: Some(run.checkpoint.clone()), shared_trunk: false, ..cfg.clone() };
    let b = tempfile::tempdir().unwrap();
    let e = format!("{:#}", train(&towers, opts(b.path(), false, None)).expect_err("layout mismatch"));
    assert!(e.contains("init_from") && e.contains("shared_trunk"), "{e}");
    let shared = TrainConfig::<Kessel> { init_from: Some(run.checkpoint), ..cfg };
    let c = tempfile::tempdir().unwrap();
    train(&shared, opts(c.path(), false, Some(1))).expect("the same layout fine-tunes");
}

/// `actor_learner_overlap` plays each rollout on a second thread beside the previous update:
/// the run is still deterministic and resumes exactly (no rollout is overlapped into a
/// checkpoint boundary), and it is not the serial run (the lag is real).
#[test]
fn an_overlapped_run_resumes_exactly_and_differs_from_the_serial_one() {
    let _one_at_a_time = crate::common::serial();
    let _serial = serial();
    let overlapped = tiny_with("actor_learner_overlap = true\nsnapshot_sampling = \"prioritised\"");
    assert_resume_is_exact(&overlapped, 3);
    let serial_cfg = TrainConfig::<Kessel> { actor_learner_overlap: false, ..overlapped.clone() };
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let ra = train(&overlapped, opts(a.path(), false, Some(4))).unwrap();
    let rb = train(&serial_cfg, opts(b.path(), false, Some(4))).unwrap();
    assert_ne!(fingerprint(&ra.checkpoint), fingerprint(&rb.checkpoint), "the overlap changed nothing");
}

/// A magnet (`magnet_coef`) is refreshed at the checkpoints, which `magnet_every` divides: a
/// magnet run resumes exactly, logs the KL it adds, and is not the run without it.
#[test]
fn a_magnet_run_resumes_exactly_and_differs_from_one_without() {
    let _one_at_a_time = crate::common::serial();
    let _serial = serial();
    let magnet = tiny_with("magnet_coef = 0.5\nmagnet_every = 2");
    assert_resume_is_exact(&magnet, 3);
    let plain = TrainConfig::<Kessel> { magnet_coef: 0.0, ..magnet.clone() };
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let ra = train(&magnet, opts(a.path(), false, Some(4))).unwrap();
    let rb = train(&plain, opts(b.path(), false, Some(4))).unwrap();
    assert_ne!(fingerprint(&ra.checkpoint), fingerprint(&rb.checkpoint), "the magnet changed nothing");
    let kl = |dir: &Path| -> Vec<f64> {
        let csv = std::fs::read_to_string(dir.join("metrics.csv")).unwrap();
        csv.lines()
            .filter(|l| l.contains(",losses/magnet_kl,"))
            .map(|l| l.rsplit(',').next().unwrap().parse().unwrap())
            .collect()
    };
    let logged = kl(a.path());
    assert_eq!(logged.len(), 4, "one magnet_kl row per update");
    assert!(logged.iter().all(|k| k.is_finite() && *k >= -1e-6) && logged.iter().any(|k| *k > 0.0), "{logged:?}");
    assert!(kl(b.path()).is_empty(), "no magnet, no magnet_kl");
}

fn assert_resume_is_exact(cfg: &TrainConfig<Kessel>, stop: u64) {
    let cfg = cfg.clone();
    assert!(cfg.num_updates() >= 5, "the test needs several checkpoints: {}", cfg.num_updates());
    let a = tempfile::tempdir().unwrap();
    let full = train(&cfg, opts(a.path(), false, None)).unwrap();
    assert_eq!(full.updates, cfg.num_updates());

    let b = tempfile::tempdir().unwrap();
    std::fs::write(b.path().join("unrelated.txt"), "kept").unwrap();
    let part = train(&cfg, opts(b.path(), false, Some(stop))).unwrap();
    assert_eq!(part.updates, stop);
    let rest = train(&cfg, opts(b.path(), true, None)).unwrap();
    assert_eq!(rest.updates, full.updates);
    assert_eq!(rest.decisions, full.decisions);
    assert_eq!(fingerprint(&full.checkpoint), fingerprint(&rest.checkpoint));

    // The metrics CSV holds each update once, even though update 3 was logged, lost and redone.
    let csv = std::fs::read_to_string(b.path().join("metrics.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().filter(|l| l.contains(",charts/learning_rate,")).collect();
    assert_eq!(rows.len() as u64, full.updates, "{csv}");
}

#[test]
fn two_fresh_runs_with_the_same_seed_are_identical() {
    let _one_at_a_time = crate::common::serial();
    let _serial = serial();
    let cfg = tiny();
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let ra = train(&cfg, opts(a.path(), false, Some(4))).unwrap();
    let rb = train(&cfg, opts(b.path(), false, Some(4))).unwrap();
    assert_eq!(ra.decisions, rb.decisions);
    assert_eq!(fingerprint(&ra.checkpoint), fingerprint(&rb.checkpoint));
}

#[test]
fn a_resumed_run_continues_from_its_checkpoint() {
    let _one_at_a_time = crate::common::serial();
    let _serial = serial();
    let cfg = tiny();
    let d = tempfile::tempdir().unwrap();
    let part = train(&cfg, opts(d.path(), false, Some(3))).unwrap();
    assert_eq!(part.updates, 3);
    let meta = policy::read_metadata(d.path().join("checkpoint")).unwrap();
    assert_eq!(meta.training_step, 2, "a stop between checkpoints loses at most one interval");
    // The checkpoint names the commit the trainer was built from: in a git checkout, the one
    // checked out now (unless a commit came between the build and this test).
    let head = std::process::Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    assert_eq!(meta.git_commit, head, "the build's commit, or none outside a git checkout");
    let rest = train(&cfg, opts(d.path(), true, None)).unwrap();
    assert_eq!(rest.updates, cfg.num_updates());
    assert_eq!(policy::read_metadata(&rest.checkpoint).unwrap().training_step, cfg.num_updates());
    let csv = std::fs::read_to_string(d.path().join("metrics.csv")).unwrap();
    let rows = csv.lines().filter(|l| l.contains(",charts/learning_rate,")).count() as u64;
    assert_eq!(rows, cfg.num_updates(), "each update is logged once, even the one redone after the stop");
}

/// Resuming never loses logged rows: a malformed row of `metrics.csv` refuses the resume with
/// the file and line named and the file untouched; once the line is fixed the resume keeps
/// every row up to the checkpoint, and a last line cut off mid-write is dropped.
#[test]
fn a_corrupt_metrics_row_refuses_the_resume_and_leaves_the_file() {
    let _one_at_a_time = crate::common::serial();
    let _serial = serial();
    let cfg = tiny();
    let d = tempfile::tempdir().unwrap();
    train(&cfg, opts(d.path(), false, Some(3))).unwrap();
    let csv_path = d.path().join("metrics.csv");
    let logged = std::fs::read_to_string(&csv_path).unwrap();
    let lines: Vec<&str> = logged.lines().collect();
    // A row of update 1, with rows of updates 1 to 3 after it.
    let at = lines.iter().position(|l| l.starts_with("1,")).unwrap() + 1;
    let mut corrupt = lines.clone();
    corrupt[at] = "1,garbage";
    let corrupt = corrupt.join("\n") + "\n";
    std::fs::write(&csv_path, &corrupt).unwrap();
    let e = format!("{:#}", train(&cfg, opts(d.path(), true, None)).expect_err("a malformed row must refuse"));
    assert!(e.contains(&csv_path.display().to_string()) && e.contains(&format!("line {}", at + 1)), "{e}");
    assert_eq!(std::fs::read_to_string(&csv_path).unwrap(), corrupt, "the file is left as it was");

    // Fixed, with a row cut off mid-write at the end: the resume goes on.
    std::fs::write(&csv_path, logged.clone() + "3,999,losses/entr").unwrap();
    let rest = train(&cfg, opts(d.path(), true, None)).unwrap();
    let csv = std::fs::read_to_string(&csv_path).unwrap();
    let kept: Vec<&str> = lines.iter().copied().filter(|l| !l.starts_with("3,")).collect();
    assert!(csv.starts_with(&(kept.join("\n") + "\n")), "every row up to the checkpoint is kept:\n{csv}");
    assert!(!csv.contains("losses/entr\n") && !csv.contains("3,999,"), "{csv}");
    let rows = csv.lines().filter(|l| l.contains(",charts/learning_rate,")).count() as u64;
    assert_eq!(rows, rest.updates);
}

#[test]
fn a_fresh_run_refuses_to_overwrite_and_resume_reports_bad_checkpoints() {
    let _one_at_a_time = crate::common::serial();
    let _serial = serial();
    let cfg = tiny();
    let d = tempfile::tempdir().unwrap();
    train(&cfg, opts(d.path(), false, Some(2))).unwrap();
    let e = train(&cfg, opts(d.path(), false, None)).expect_err("must refuse").to_string();
    assert!(e.contains("--resume"), "{e}");

    std::fs::write(d.path().join("checkpoint").join("metadata.json"), "{ not json").unwrap();
    let e = format!("{:#}", train(&cfg, opts(d.path(), true, None)).expect_err("corrupt metadata"));
    assert!(e.contains("metadata"), "{e}");

    let empty = tempfile::tempdir().unwrap();
    let e = format!("{:#}", train(&cfg, opts(empty.path(), true, None)).expect_err("nothing to resume"));
    assert!(e.contains("cannot resume"), "{e}");
}

#[test]
fn tensorboard_file_reads_back_with_cleanrl_names_and_matches_csv() {
    let _one_at_a_time = crate::common::serial();
    let _serial = serial();
    let cfg = tiny();
    let d = tempfile::tempdir().unwrap();
    let s = train(&cfg, opts(d.path(), false, None)).unwrap();
    let tb_dir = d.path().join("tb");
    let file = std::fs::read_dir(&tb_dir).unwrap().next().unwrap().unwrap().path();
    let scalars = tblog::read_scalars(&file).expect("valid records with good CRCs");
    for tag in [
        "charts/episodic_return",
        "charts/SPS",
        "charts/learning_rate",
        "losses/policy_loss",
        "losses/value_loss",
        "losses/entropy",
        "losses/approx_kl",
        "losses/clipfrac",
        "losses/explained_variance",
        "eval/win_rate_vs_random",
        "time/bots_seconds",
        "time/inference_seconds",
        "time/env_seconds",
        "time/update_seconds",
        "time/update_forward_seconds",
        "time/update_backward_seconds",
        "time/update_clip_seconds",
        "time/update_optimizer_seconds",
    ] {
        assert!(scalars.iter().any(|(t, _, _)| t == tag), "missing {tag}");
    }
    // The update's phases split its time: in every update the forward and backward passes took
    // some, and the phases together no more than the whole update.
    let per_update = |tag: &str| -> Vec<f32> { scalars.iter().filter(|(t, _, _)| t == tag).map(|x| x.2).collect() };
    let whole = per_update("time/update_seconds");
    let phases: Vec<Vec<f32>> = ["forward", "backward", "clip", "optimizer"]
        .iter()
        .map(|p| per_update(&format!("time/update_{p}_seconds")))
        .collect();
    for (u, total) in whole.iter().enumerate() {
        assert!(
            phases[0][u] > 0.0 && phases[1][u] > 0.0,
            "update {u}: {:?}",
            phases.iter().map(|p| p[u]).collect::<Vec<_>>()
        );
        let sum: f32 = phases.iter().map(|p| p[u]).sum();
        assert!(sum <= total * 1.001 + 1e-4, "update {u}: phases {sum} s of a {total} s update");
    }
    // The time split is a split: every part is non-negative, and the opponents (random bots
    // here) and the policy both took some time in every update.
    for tag in ["time/bots_seconds", "time/inference_seconds", "time/env_seconds", "time/update_seconds"] {
        assert!(scalars.iter().filter(|(t, _, _)| t == tag).all(|x| x.2 >= 0.0), "{tag} < 0");
    }
    assert!(scalars.iter().filter(|(t, _, _)| t == "time/inference_seconds").all(|x| x.2 > 0.0));
    let lr: Vec<f32> = scalars.iter().filter(|(t, _, _)| t == "charts/learning_rate").map(|x| x.2).collect();
    assert_eq!(lr.len() as u64, s.updates);
    assert!((lr[0] - 2.5e-4).abs() < 1e-9, "annealing starts at the configured rate: {}", lr[0]);
    assert!(lr.windows(2).all(|w| w[1] < w[0]), "learning rate anneals: {lr:?}");
    let csv = std::fs::read_to_string(d.path().join("metrics.csv")).unwrap();
    let csv_lr: Vec<f32> = csv
        .lines()
        .filter(|l| l.contains(",charts/learning_rate,"))
        .map(|l| l.rsplit(',').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(csv_lr, lr);
}

#[test]
fn trained_policy_only_plays_legal_actions() {
    let _one_at_a_time = crate::common::serial();
    let _serial = serial();
    let cfg = tiny();
    let d = tempfile::tempdir().unwrap();
    let s = train(&cfg, opts(d.path(), false, None)).unwrap();
    let (mut agent, meta) = policy::PolicyAgent::<Kessel>::load(&s.checkpoint, &cpu_device()).unwrap();
    assert_eq!(meta.training_step, s.updates);
    let mut agents: Vec<Box<dyn Agent<Kessel>>> = vec![Box::new(RandomAgent), Box::new(RandomAgent)];
    let mut rng = env::AgentRng::new(1);
    let mut e = env::Env::<Kessel>::new(env::GameConfig::<Kessel>::with_players(3)).unwrap();
    for seed in 0..20 {
        e.reset(seed);
        while let Some(seat) = e.current_player() {
            let view = e.view(seat);
            let mask = e.legal_mask();
            let a = if seat.0 == 0 {
                agent.act(&view, mask, &mut rng).unwrap()
            } else {
                agents[seat.index() - 1].act(&view, mask, &mut rng).unwrap()
            };
            assert!(mask.contains(a));
            e.step(a.index()).unwrap();
        }
    }
}

/// `init_from` starts a run from another run's weights (fine-tuning) and refuses a network of
/// another shape.
#[test]
fn a_run_can_start_from_another_runs_checkpoint() {
    let _one_at_a_time = crate::common::serial();
    let _serial = serial();
    let a = tempfile::tempdir().unwrap();
    train(&tiny(), opts(a.path(), false, Some(2))).unwrap();
    let source = a.path().join("checkpoint");

    let mut cfg = tiny();
    cfg.seed = 99;
    cfg.learning_rate = 1e-9;
    cfg.init_from = Some(source.clone());
    let b = tempfile::tempdir().unwrap();
    let tuned = train(&cfg, opts(b.path(), false, Some(2))).unwrap();
    let fresh_cfg = TrainConfig::<Kessel> { init_from: None, ..cfg.clone() };
    let c = tempfile::tempdir().unwrap();
    let fresh = train(&fresh_cfg, opts(c.path(), false, Some(2))).unwrap();
    let dist = |x: &(Vec<f32>, Vec<f32>), y: &(Vec<f32>, Vec<f32>)| {
        x.0.iter().chain(&x.1).zip(y.0.iter().chain(&y.1)).map(|(p, q)| (p - q).abs()).fold(0.0f32, f32::max)
    };
    let (src, tuned, fresh) = (fingerprint(&source), fingerprint(&tuned.checkpoint), fingerprint(&fresh.checkpoint));
    assert!(dist(&src, &tuned) < 1e-3, "a near-zero learning rate keeps the source weights");
    assert!(dist(&src, &fresh) > 1e-2, "a fresh initialisation is elsewhere");

    cfg.hidden = vec![8];
    let d = tempfile::tempdir().unwrap();
    let e = format!("{:#}", train(&cfg, opts(d.path(), false, None)).expect_err("shape mismatch"));
    assert!(e.contains("init_from") && e.contains("hidden"), "{e}");
    cfg.init_from = Some(a.path().join("missing"));
    let d = tempfile::tempdir().unwrap();
    let e = format!("{:#}", train(&cfg, opts(d.path(), false, None)).expect_err("missing checkpoint"));
    assert!(e.contains("init_from"), "{e}");
}
