//! Bad input given to the `sabacc` binary as a user would give it: each gets a clear message
//! naming the argument or file and the accepted range, a non-zero exit, no panic, and nothing
//! lost or half-written. Rows of `docs/errors.md` name these tests.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{fails_with, repo, sabacc, stderr};

fn shipped(name: &str) -> String {
    repo().join("checkpoints").join(name).to_string_lossy().into_owned()
}

/// A training config that runs in about a second; `extra` lines come first, and `total` /
/// `every` are its `total_decisions` and `checkpoint_every`.
fn tiny_config_with(dir: &Path, extra: &str, total: u64, every: u64) -> PathBuf {
    let path = dir.join("tiny.toml");
    std::fs::write(
        &path,
        format!(
            r#"{extra}
name = "tiny"
seed = 5
players = 3
total_decisions = {total}
num_envs = 4
num_steps = 24
num_minibatches = 2
update_epochs = 2
hidden = [16]
checkpoint_every = {every}
snapshot_every = 2
max_snapshots = 2
eval_every = 0
eval_games = 6
eval_bots = ["random"]
final_eval_games = 0
[opponents]
latest = 1.0
random = 1.0
"#
        ),
    )
    .unwrap();
    path
}

fn tiny_config(dir: &Path, extra: &str) -> PathBuf {
    tiny_config_with(dir, extra, 1200, 2)
}

/// A tiny config long enough (minutes) to be stopped by hand.
fn long_config(dir: &Path) -> PathBuf {
    tiny_config_with(dir, "", 200_000, 2)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn cli_bench_seconds_refuses_nan_inf_negative_and_zero() {
    for bad in ["nan", "inf", "-inf", "-1", "0", "1e9", "x"] {
        for verb in ["engine", "env"] {
            let arg = format!("--seconds={bad}");
            fails_with(&["bench", verb, &arg], &["--seconds", "(0, 86400]"]);
        }
    }
    fails_with(&["bench", "train", "--seconds", "nan"], &["--seconds", "(0, 86400]"]);
    // A fraction of a second is a valid budget.
    let o = sabacc(&["bench", "engine", "--seconds", "0.05", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn cli_simulate_numbers_state_their_range() {
    fails_with(&["simulate", "--games", "18446744073709551615"], &["--games", "1..=1000000000000"]);
    fails_with(&["simulate", "--games", "-1"], &["--games", "-1 is outside", "1..="]);
    fails_with(&["simulate", "--games", "0"], &["--games", "1..="]);
    fails_with(&["simulate", "--players", "9"], &["--players", "2..=8"]);
    fails_with(&["simulate", "--players", "300"], &["--players", "2..=8"]);
    fails_with(&["simulate", "--players", "-3"], &["--players", "2..=8"]);
    fails_with(&["simulate", "--seed", "-5"], &["--seed", "0..=18446744073709551615"]);
    fails_with(&["simulate", "--games", "ten"], &["--games", "not a whole number"]);
    fails_with(&["simulate", "--games", "99999999999999999999999999999999999999999"], &["not a whole number"]);
    // Underscores group digits, as in the configs.
    let o = sabacc(&["simulate", "--games", "1_2", "--seed", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("12 games"), "{}", String::from_utf8_lossy(&o.stdout));
}

#[test]
fn cli_ladder_bad_anchors_and_missing_or_broken_files_are_named() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("ladder.json");
    for bad in ["expert", "expert=", "expert=nan", "expert=inf", "expert=x"] {
        let anchor = format!("--anchor={bad}");
        fails_with(&["ladder", "build", "--agents", "random,expert", &anchor, "--out", s(&out)], &["--anchor", bad]);
    }
    assert!(!out.exists(), "nothing is written");
    let none = d.path().join("none.json");
    fails_with(&["ladder", "show", "--ladder", s(&none)], &["cannot find", "none.json", "(--ladder)"]);
    let bad = d.path().join("bad.json");
    std::fs::write(&bad, "{\"format\": 1}").unwrap();
    fails_with(&["ladder", "show", "--ladder", s(&bad)], &["is not valid", "missing field"]);
}

#[test]
fn cli_eval_numbers_state_their_range() {
    fails_with(&["eval", "--agents", "random,greedy", "--games", "0"], &["--games", "1..=10000000"]);
    fails_with(&["eval", "--agents", "random,greedy", "--games", "20000000"], &["--games", "1..=10000000"]);
    fails_with(&["eval", "--agents", "random,greedy", "--players", "-2"], &["--players", "2..=8"]);
    fails_with(&["eval", "--agents", "random,greedy", "--threads", "0"], &["--threads", "1..=1024"]);
    fails_with(&["train", "--eval-games", "-1"], &["--eval-games", "0..=10000000"]);
}

#[test]
fn cli_eval_unknown_agent_lists_what_exists() {
    fails_with(&["eval", "--agents", "random,wizard", "--games", "2"], &["--agents", "wizard", "greedy"]);
}

#[test]
fn cli_eval_unwritable_out_is_refused_before_any_game() {
    let d = tempfile::tempdir().unwrap();
    let file = d.path().join("a-file");
    std::fs::write(&file, "not a folder").unwrap();
    let out = file.join("reports");
    let started = Instant::now();
    let e = fails_with(
        &["eval", "--agents", "random,greedy", "--games", "100000", "--out", s(&out)],
        &["--out", "cannot write there", "nothing was played"],
    );
    assert!(started.elapsed() < Duration::from_secs(20), "refused before the games: {e}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "not a folder", "nothing lost");
}

#[test]
fn cli_eval_writes_reports_atomically_into_out() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("r");
    let o = sabacc(&["eval", "--agents", "random,greedy", "--games", "4", "--out", s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(json["settings"]["players"], 2);
    let names: Vec<String> =
        std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert!(!names.iter().any(|n| n.contains(".tmp-") || n.starts_with(".write-test")), "no leftovers: {names:?}");
}

#[test]
fn cli_eval_checkpoint_at_an_untrained_table_size_warns() {
    let agents = format!("{},random", shipped("quick-4p"));
    let o = sabacc(&["eval", "--agents", &agents, "--players", "3", "--games", "3"]);
    let e = stderr(&o);
    assert!(o.status.success(), "{e}");
    assert!(e.contains("warning: checkpoint") && e.contains("trained at 4 seats, now playing at 3 seats"), "{e}");
}

#[test]
fn cli_eval_corrupted_checkpoint_is_refused_naming_file_and_hashes() {
    let d = tempfile::tempdir().unwrap();
    let ckpt = d.path().join("copy");
    std::fs::create_dir(&ckpt).unwrap();
    for f in ["model.bpk", "metadata.json"] {
        std::fs::copy(repo().join("checkpoints/quick-4p").join(f), ckpt.join(f)).unwrap();
    }
    let weights = ckpt.join("model.bpk");
    let mut bytes = std::fs::read(&weights).unwrap();
    let i = bytes.len() / 2;
    bytes[i] ^= 0x40;
    std::fs::write(&weights, bytes).unwrap();
    fails_with(
        &["eval", "--agents", &format!("{},random", s(&ckpt)), "--games", "2"],
        &["model.bpk", "SHA-256", "corrupt"],
    );
}

#[test]
fn cli_train_resume_with_config_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let cfg = tiny_config(d.path(), "");
    fails_with(&["train", "--resume", s(d.path()), "--config", s(&cfg)], &["--resume", "--config", "cannot be used"]);
    fails_with(
        &["train", "--fresh-optimizer", "--config", s(&cfg)],
        &["--fresh-optimizer", "only applies with --resume"],
    );
}

#[test]
fn cli_train_bad_config_names_file_and_field() {
    let d = tempfile::tempdir().unwrap();
    fails_with(
        &["train", "--config", s(&d.path().join("missing.toml"))],
        &["missing.toml", "cannot find", "--config", "no such file"],
    );
    let cfg = tiny_config(d.path(), "learning_rate = nan");
    fails_with(
        &["train", "--config", s(&cfg), "--out", s(&d.path().join("run"))],
        &["tiny.toml: learning_rate", "(0, 1)"],
    );
    let cfg = tiny_config(d.path(), "learnin_rate = 0.1");
    fails_with(&["train", "--config", s(&cfg), "--out", s(&d.path().join("run"))], &["learnin_rate", "unknown field"]);
    assert!(!d.path().join("run").exists(), "a refused config creates no run folder");
}

#[test]
fn cli_train_missing_init_from_leaves_no_run_folder() {
    let d = tempfile::tempdir().unwrap();
    let cfg = tiny_config(d.path(), &format!("init_from = {:?}", s(&d.path().join("nowhere"))));
    let run = d.path().join("run");
    fails_with(&["train", "--config", s(&cfg), "--out", s(&run), "--quiet"], &["init_from", "nowhere"]);
    assert!(!run.exists(), "no half-made run folder");
}

/// Trains the tiny config to its end in `run`.
fn finished_run(d: &Path) -> PathBuf {
    let cfg = tiny_config(d, "");
    let run = d.join("run");
    let o = sabacc(&["train", "--config", s(&cfg), "--out", s(&run), "--quiet", "--eval-games", "0"]);
    assert!(o.status.success(), "{}", stderr(&o));
    run
}

#[test]
fn cli_train_resume_errors_finished_empty_and_existing_runs() {
    let d = tempfile::tempdir().unwrap();
    let run = finished_run(d.path());
    let csv = std::fs::read_to_string(run.join("metrics.csv")).unwrap();
    fails_with(&["train", "--resume", s(&run), "--quiet"], &["is finished", "nothing to resume"]);
    assert_eq!(std::fs::read_to_string(run.join("metrics.csv")).unwrap(), csv, "a finished run is left alone");
    let cfg = tiny_config(d.path(), "");
    fails_with(&["train", "--config", s(&cfg), "--out", s(&run), "--quiet"], &["already holds a run", "--resume"]);
    let empty = tempfile::tempdir().unwrap();
    fails_with(&["train", "--resume", s(empty.path())], &["holds no checkpoint"]);
}

/// A run stopped early (by SIGINT) whose checkpoint is then damaged in `damage`.
fn interrupted_run(d: &Path) -> PathBuf {
    let cfg = long_config(d);
    let run = d.join("run");
    let child = start_training(&["--config", s(&cfg), "--out", s(&run)]);
    wait_for(&run.join("checkpoint"));
    signal(&child, "INT");
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    run
}

#[test]
fn cli_train_resume_without_optimizer_state_needs_fresh_optimizer() {
    let d = tempfile::tempdir().unwrap();
    let run = interrupted_run(d.path());
    let ckpt = run.join("checkpoint");
    std::fs::remove_file(ckpt.join("optimizer.bpk")).unwrap();
    let mut meta: serde_json::Value =
        serde_json::from_slice(&std::fs::read(ckpt.join("metadata.json")).unwrap()).unwrap();
    meta["checksums"].as_object_mut().unwrap().remove("optimizer.bpk");
    std::fs::write(ckpt.join("metadata.json"), serde_json::to_vec(&meta).unwrap()).unwrap();
    fails_with(&["train", "--resume", s(&run), "--quiet"], &["no optimizer state", "--fresh-optimizer"]);

    let notes = meta["notes"].clone();
    meta["notes"] = serde_json::json!("");
    std::fs::write(ckpt.join("metadata.json"), serde_json::to_vec(&meta).unwrap()).unwrap();
    fails_with(&["train", "--resume", s(&run), "--quiet", "--fresh-optimizer"], &["no training counters"]);
    meta["notes"] = notes;
    std::fs::write(ckpt.join("metadata.json"), serde_json::to_vec(&meta).unwrap()).unwrap();
    // With the flag, the run continues (stopped again at once: it is long).
    let child = start_training(&["--resume", s(&run), "--fresh-optimizer"]);
    std::thread::sleep(Duration::from_millis(500));
    signal(&child, "TERM");
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(143), "{}", stderr(&o));
}

fn start_training(args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_sabacc"))
        .arg("train")
        .args(args)
        .args(["--eval-games", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn wait_for(path: &Path) {
    let t = Instant::now();
    while !path.exists() {
        assert!(t.elapsed() < Duration::from_secs(120), "{} never appeared", path.display());
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn signal(child: &std::process::Child, sig: &str) {
    let ok = Command::new("kill").args([&format!("-{sig}"), &child.id().to_string()]).status().unwrap();
    assert!(ok.success());
}

fn training_step(ckpt: &Path) -> u64 {
    let meta: serde_json::Value = serde_json::from_slice(&std::fs::read(ckpt.join("metadata.json")).unwrap()).unwrap();
    meta["training_step"].as_u64().unwrap()
}

/// SIGINT writes a checkpoint of the update in progress and exits with 130; `--resume`
/// continues from it to the end.
#[test]
fn signal_sigint_saves_a_checkpoint_and_resume_finishes_the_run() {
    let d = tempfile::tempdir().unwrap();
    let cfg = tiny_config_with(d.path(), "", 6400, 1000);
    let run = d.path().join("run");
    let child = start_training(&["--config", s(&cfg), "--out", s(&run)]);
    // The first checkpoint is only due at the end (update 200): any checkpoint seen before then
    // is the one the signal asked for. Wait until training is under way (metrics are logged).
    wait_for(&run.join("metrics.csv"));
    signal(&child, "INT");
    let o = child.wait_with_output().unwrap();
    let (out, err) = (String::from_utf8_lossy(&o.stdout).into_owned(), stderr(&o));
    assert_eq!(o.status.code(), Some(130), "{out}{err}");
    assert!(out.contains("stopped by SIGINT") && out.contains("sabacc train --resume"), "{out}");
    let ckpt = run.join("checkpoint");
    let stopped_at = training_step(&ckpt);
    assert!((1..200).contains(&stopped_at), "the checkpoint is of the interrupted update: {stopped_at}");
    assert!(!run.join("train.lock").exists(), "the lock is released");
    // Between checkpoint boundaries (every 1,000 updates here, past the run's 200): the message
    // says that resuming restarts the games in progress.
    let said = format!("{out}{err}");
    assert!(said.contains("between checkpoint boundaries") && said.contains("not the uninterrupted one"), "{said}");

    let o = Command::new(env!("CARGO_BIN_EXE_sabacc"))
        .args(["train", "--resume", s(&run), "--quiet", "--eval-games", "0"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let note = format!("resuming at update {stopped_at}, which is not a checkpoint boundary");
    assert!(stderr(&o).contains(&note), "the resumed run says what it is: {}", stderr(&o));
    assert_eq!(training_step(&ckpt), 200, "resumed to the end");
    let csv = std::fs::read_to_string(run.join("metrics.csv")).unwrap();
    let rows = csv.lines().filter(|l| l.contains(",charts/learning_rate,")).count();
    assert_eq!(rows, 200, "each update logged once");
}

/// A second trainer on a run folder in use is refused; SIGTERM stops the first with 143.
#[test]
fn run_folder_second_trainer_is_refused_and_sigterm_stops_the_first() {
    let d = tempfile::tempdir().unwrap();
    let cfg = long_config(d.path());
    let run = d.path().join("run");
    let first = start_training(&["--config", s(&cfg), "--out", s(&run)]);
    wait_for(&run.join("checkpoint"));
    let e = fails_with(&["train", "--resume", s(&run), "--quiet"], &["in use by another trainer"]);
    assert!(e.contains(&first.id().to_string()), "names the holder's process id: {e}");
    signal(&first, "TERM");
    let o = first.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(143), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("stopped by SIGTERM"));
}

/// A lock file left by a killed trainer is taken over with a message.
#[test]
fn run_folder_stale_lock_of_a_killed_trainer_is_taken_over() {
    let d = tempfile::tempdir().unwrap();
    let cfg = long_config(d.path());
    let run = d.path().join("run");
    let mut child = start_training(&["--config", s(&cfg), "--out", s(&run)]);
    wait_for(&run.join("checkpoint"));
    let pid = child.id().to_string();
    signal(&child, "KILL");
    child.wait().unwrap();
    assert_eq!(
        std::fs::read_to_string(run.join("train.lock")).unwrap().trim(),
        pid,
        "a killed trainer leaves its lock"
    );
    let resumed = start_training(&["--resume", s(&run)]);
    std::thread::sleep(Duration::from_millis(1500));
    signal(&resumed, "INT");
    let o = resumed.wait_with_output().unwrap();
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(130), "{e}");
    assert!(e.contains(&format!("left by process {pid}")) && e.contains("no longer running"), "{e}");
}

#[test]
fn cli_exploit_refuses_bad_budgets_and_unknown_targets_before_training() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("br");
    let config = repo().join("experiments/exploit.toml");
    for m in ["0", "-1", "nan", "inf", "2000"] {
        fails_with(
            &["exploit", "stander", "--minutes", m, "--out", s(&out)],
            &["--minutes", "outside the accepted range (0, 1440]"],
        );
    }
    fails_with(&["exploit", "stander", "--games", "0", "--out", s(&out)], &["--games", "1..=10000000"]);
    fails_with(&["exploit", "stander", "--decisions", "0", "--out", s(&out)], &["--decisions"]);
    fails_with(
        &["exploit", "stander", "--decisions", "1000", "--minutes", "1", "--out", s(&out)],
        &["--decisions", "cannot be used with", "--minutes"],
    );
    fails_with(
        &["exploit", "grandmaster", "--minutes", "1", "--config", s(&config), "--out", s(&out)],
        &["target", "unknown agent `grandmaster`"],
    );
    let bad = d.path().join("four.toml");
    std::fs::write(
        &bad,
        std::fs::read_to_string(repo().join("experiments/exploit.toml")).unwrap().replace("players = 2", "players = 4"),
    )
    .unwrap();
    fails_with(&["exploit", "stander", "--config", s(&bad), "--out", s(&out)], &["heads-up"]);
    assert!(!out.exists(), "nothing was trained or written");
}

/// `exploit --init` takes the warm start's network layout (here a shared 256×256 trunk) over
/// the config's, and a missing `--init` folder is refused before anything is written.
#[test]
fn cli_exploit_init_takes_the_checkpoints_network_layout() {
    let d = tempfile::tempdir().unwrap();
    let config = d.path().join("br.toml");
    std::fs::write(
        &config,
        r#"name = "br"
seed = 3
players = 2
total_decisions = 1_000_000_000
num_envs = 4
num_steps = 16
num_minibatches = 2
update_epochs = 1
hidden = [16]
checkpoint_every = 1
eval_every = 0
eval_games = 6
eval_bots = ["random"]
final_eval_games = 0
[opponents]
random = 1.0
"#,
    )
    .unwrap();
    let out = d.path().join("br");
    let missing = d.path().join("no-such-checkpoint");
    fails_with(
        &["exploit", "stander", "--init", s(&missing), "--config", s(&config), "--out", s(&out)],
        &["cannot find", "no-such-checkpoint", "--init"],
    );
    assert!(!out.exists(), "nothing was trained or written");

    let thirty = shipped("thirty");
    let args = ["exploit", "stander", "--init", &thirty, "--minutes", "0.01", "--games", "10", "--config", s(&config)];
    let o = sabacc(&[&args[..], &["--out", s(&out), "--quiet"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("best response to stander"));
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("checkpoint/metadata.json")).unwrap()).unwrap();
    assert_eq!(meta["network"]["hidden"], serde_json::json!([256, 256]), "{meta}");
    assert_eq!(meta["network"]["shared_trunk"], serde_json::json!(true), "{meta}");
}

#[test]
fn cli_scenario_branch_refuses_bad_agents_and_zero_continuations() {
    let sc = repo().join("crates/games/kessel/scenarios/cook_and_prime.json");
    fails_with(&["scenario", s(&sc), "--branch", "expert,wizard"], &["--branch", "unknown agent `wizard`"]);
    fails_with(&["scenario", s(&sc), "--branch", "expert", "--continuations", "0"], &["--continuations", "0"]);
}

/// `sabacc distil`: a teacher that does not search, a resume with other settings, a file that
/// is not a sample file and an existing `--out` are refused, naming what to change; a collection
/// run twice continues where it stopped.
#[test]
fn cli_distil_refuses_bad_teachers_files_and_outputs_and_resumes_a_collection() {
    let d = tempfile::tempdir().unwrap();
    let samples = d.path().join("s.samples");
    fails_with(
        &["distil", "collect", "--teacher", "expert", "--games", "2", "--out", s(&samples)],
        &["--teacher must be a search agent"],
    );
    assert!(!samples.exists(), "nothing was written");
    fails_with(
        &["distil", "collect", "--teacher", "search+no/such/guide", "--games", "2", "--out", s(&samples)],
        &["cannot find `no/such/guide` (agent `search+no/such/guide`)", "the current folder"],
    );
    let collect = |games: &str, players: &str| {
        sabacc(&[
            "distil",
            "collect",
            "--teacher",
            "search:2",
            "--players",
            players,
            "--games",
            games,
            "--chunk-games",
            "2",
            "--out",
            s(&samples),
            "--quiet",
        ])
    };
    let o = collect("2", "2");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("from 2 games (1 chunks, 1 new"));
    let o = collect("4", "2");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("from 4 games (2 chunks, 1 new"), "{}", stderr(&o));
    fails_with(
        &["distil", "collect", "--teacher", "search:2", "--players", "3", "--games", "6", "--out", s(&samples)],
        &["players: the file has 2, this command asks for 3"],
    );

    let thirty = shipped("thirty");
    let out = d.path().join("student");
    let fit = |out: &std::path::Path, more: &[&str]| {
        let head = ["distil", "fit", "--init", &thirty, "--data", s(&samples), "--out", s(out), "--quiet"];
        sabacc(&[&head[..], more].concat())
    };
    let o = fit(&out, &["--anneal-lr"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.join("metadata.json").is_file());
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("distil.json")).unwrap()).unwrap();
    assert_eq!(report["anneal_lr"], true, "{report}");
    fails_with(&["distil", "fit", "--init", &thirty, "--data", s(&samples), "--out", s(&out)], &["already exists"]);
    // Nothing held out: the report says the student was not measured, not a perfect 0.
    let o = fit(&d.path().join("unheld"), &["--holdout", "0"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("no samples held out"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let junk = d.path().join("junk.samples");
    std::fs::write(&junk, "hello\n").unwrap();
    let other = d.path().join("other");
    fails_with(
        &["distil", "fit", "--init", &thirty, "--data", s(&junk), "--out", s(&other)],
        &["junk.samples", "not a sample file"],
    );
    fails_with(
        &["distil", "fit", "--init", &thirty, "--data", s(&samples), "--out", s(&other), "--lr", "nan"],
        &["--lr must be a positive number"],
    );
    assert!(!other.exists());
}

/// An interrupted collection keeps the chunks it finished and exits as an interrupted `train`
/// does (128 + the signal), so a script that runs it does not go on to fit a partial file.
#[test]
fn cli_distil_collect_stopped_by_a_signal_exits_130_and_keeps_its_chunks() {
    let d = tempfile::tempdir().unwrap();
    let samples = d.path().join("s.samples");
    let child = Command::new(env!("CARGO_BIN_EXE_sabacc"))
        .args(["distil", "collect", "--teacher", "search:2", "--players", "2", "--games", "100000"])
        .args(["--chunk-games", "2", "--out", s(&samples), "--quiet"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for(&samples);
    signal(&child, "INT");
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("stopped early: run the same command again to continue"), "{out}");
    assert!(std::fs::metadata(&samples).unwrap().len() > 0, "the finished chunks are kept");
}

/// `sabacc distil widen`: the wider checkpoint plays the very games the original plays (same
/// seeds, same results), and narrower, deeper or existing outputs are refused, naming why.
#[test]
fn cli_distil_widen_plays_as_the_original_and_refuses_narrower_deeper_or_existing() {
    let d = tempfile::tempdir().unwrap();
    let thirty = shipped("thirty");
    let wide = d.path().join("wide");
    let o = sabacc(&["distil", "widen", "--init", &thirty, "--hidden", "300,260", "--out", s(&wide)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("[256, 256] -> [300, 260]"));
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(wide.join("metadata.json")).unwrap()).unwrap();
    assert_eq!(meta["network"]["hidden"], serde_json::json!([300, 260]));
    let play = |agent: &str, out: &str| {
        let dir = d.path().join(out);
        let lineup = format!("{agent}@argmax,expert,expert");
        let o = sabacc(&["eval", "--agents", &lineup, "--games", "24", "--seed", "5", "--out", s(&dir)]);
        assert!(o.status.success(), "{}", stderr(&o));
        let r: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
        let agents = r["agents"].as_array().unwrap().clone();
        agents.iter().map(|a| (a["wins"].clone(), a["win_rate"].clone())).collect::<Vec<_>>()
    };
    assert_eq!(play(s(&wide), "eval-wide"), play(&thirty, "eval-thirty"));
    fails_with(
        &["distil", "widen", "--init", &thirty, "--hidden", "512,128", "--out", s(&d.path().join("a"))],
        &["hidden width 128 at layer 1 is below the network's 256"],
    );
    fails_with(
        &["distil", "widen", "--init", &thirty, "--hidden", "512,512,512", "--out", s(&d.path().join("b"))],
        &["has 2 hidden layers", "not 3"],
    );
    fails_with(&["distil", "widen", "--init", &thirty, "--hidden", "512,512", "--out", s(&wide)], &["already exists"]);
    assert!(!d.path().join("a").exists() && !d.path().join("b").exists());
}

#[test]
fn cli_serve_beyond_loopback_needs_public_and_limits_state_their_range() {
    for verb in ["serve", "play"] {
        fails_with(
            &[verb, "--addr", "0.0.0.0:0", "--agents", "expert", "--hint", "none"],
            &["--addr 0.0.0.0:0", "reachable from other machines", "--public"],
        );
    }
    fails_with(&["serve", "--addr", "no-such-host.invalid:80"], &["--addr", "not an address"]);
    fails_with(&["serve", "--rate", "-1"], &["--rate", "[0, 1000000]"]);
    fails_with(&["serve", "--rate", "NaN"], &["--rate"]);
    fails_with(&["serve", "--max-games-per-client", "0"], &["--max-games-per-client"]);
}

/// `sabacc agents | head -1`: the reader leaves before the program prints, which ends the program
/// quietly with the closed-pipe status, no panic and no backtrace.
#[test]
fn cli_a_reader_that_leaves_early_ends_the_program_quietly() {
    for args in [&["agents"][..], &["bench", "engine", "--seconds", "0.05"]] {
        // The reading end is closed before the program starts, so its first print finds no
        // reader whatever the timing (closing it after the start raced the program's output).
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let child = Command::new(env!("CARGO_BIN_EXE_sabacc"))
            .args(args)
            .stdout(writer)
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let o = child.wait_with_output().unwrap();
        let err = stderr(&o);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(o.status.code(), Some(141), "{args:?}: {err}");
    }
}
