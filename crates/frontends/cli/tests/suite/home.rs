//! `sabacc` started outside the repository, as after `cargo install --path crates/frontends/cli`: the
//! shipped checkpoints, configs and scenarios are found (from the program's own repository, or
//! `SABACC_HOME`), and what is found nowhere is refused naming it, never silently left out.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..").canonicalize().unwrap()
}

/// `sabacc ARGS` run in `dir`, with `SABACC_HOME` set to `home` (or unset).
fn sabacc_in(dir: &Path, home: Option<&Path>, args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_sabacc"));
    c.current_dir(dir).args(args);
    match home {
        Some(h) => c.env("SABACC_HOME", h),
        None => c.env_remove("SABACC_HOME"),
    };
    c
}

fn run(dir: &Path, home: Option<&Path>, args: &[&str]) -> Output {
    sabacc_in(dir, home, args).output().expect("the binary runs")
}

fn ok(dir: &Path, home: Option<&Path>, args: &[&str]) -> String {
    let o = run(dir, home, args);
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn fails(dir: &Path, home: Option<&Path>, args: &[&str], needles: &[&str]) -> String {
    let o = run(dir, home, args);
    let e = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "{args:?}: {e}");
    assert!(!e.contains("panicked"), "{args:?}: {e}");
    for n in needles {
        assert!(e.contains(n), "{args:?}: the message should contain {n:?}: {e}");
    }
    e
}

/// The first line `serve` prints (its opponents and hint agent); the server is then stopped.
fn first_line_of_serve(dir: &Path, home: Option<&Path>, extra: &[&str]) -> String {
    let mut args = vec!["serve", "--addr", "127.0.0.1:0"];
    args.extend_from_slice(extra);
    let mut child = sabacc_in(dir, home, &args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert!(!line.is_empty(), "serve printed nothing ({status})");
    line
}

#[test]
fn play_and_serve_outside_the_repository_keep_the_champion_or_refuse() {
    let elsewhere = tempfile::tempdir().unwrap();
    let champion = repo().join("checkpoints/champion");
    let line = first_line_of_serve(elsewhere.path(), None, &[]);
    assert_eq!(
        line.trim(),
        format!("Kessel Sabacc: opponents: expert, {0}@argmax; hints: {0}", champion.display()),
        "the default table seats the champion and asks it for hints"
    );

    // With SABACC_HOME naming a folder without it, the default table is refused, naming what is
    // missing and where it was looked for; nothing is served.
    let empty = tempfile::tempdir().unwrap();
    for verb in ["play", "serve"] {
        fails(
            elsewhere.path(),
            Some(empty.path()),
            &[verb, "--addr", "127.0.0.1:0"],
            &["cannot find `checkpoints/champion`", "SABACC_HOME", "--agents expert --hint none"],
        );
    }
    // An explicit table needs nothing shipped; `--hint none` serves without hints.
    let line = first_line_of_serve(elsewhere.path(), Some(empty.path()), &["--agents", "expert", "--hint", "none"]);
    assert!(line.starts_with("Kessel Sabacc: opponents: expert; hints: none"), "{line}");
    // SABACC_HOME is where shipped files are looked up.
    let line = first_line_of_serve(elsewhere.path(), Some(&repo()), &["--agents", "greedy"]);
    assert_eq!(line.trim(), format!("Kessel Sabacc: opponents: greedy; hints: {}", champion.display()));
}

#[test]
fn agent_specs_name_shipped_checkpoints_from_any_folder() {
    let elsewhere = tempfile::tempdir().unwrap();
    let d = elsewhere.path();
    for (agents, folder) in [
        ("checkpoints/quick-4p,random", "quick-4p"),
        ("quick-4p@argmax,random", "quick-4p"),
        ("search:2+champion,random", "champion"),
    ] {
        let out = ok(d, None, &["eval", "--agents", agents, "--players", "2", "--games", "2", "--json"]);
        let report: serde_json::Value = serde_json::from_str(&out).unwrap();
        let first = report["settings"]["agents"][0].as_str().unwrap().to_string();
        let path = repo().join("checkpoints").join(folder).display().to_string();
        assert!(first.contains(&path), "{agents}: {first}");
    }
    // Names found nowhere keep the agents layer's message.
    let empty = tempfile::tempdir().unwrap();
    fails(d, Some(empty.path()), &["eval", "--agents", "quick-4p,random"], &["unknown agent `quick-4p`"]);

    // The shipped checkpoints are listed by the path that finds them from any folder, each line
    // marked with its game; every kind of spec is listed with an example.
    let listed = ok(d, None, &["agents"]);
    for name in ["champion", "mixed-tables", "quick-4p", "thirty"] {
        assert!(listed.contains(&format!("kessel   checkpoints/{name} ")), "{listed}");
    }
    assert!(listed.contains("classic  checkpoints/classic-champion "), "{listed}");
    for form in ["level:N", "mistakes:P+SPEC", "@argmax", "BUNDLE@level", "search:64", "GAME:SPEC", "champion@argmax"] {
        assert!(listed.contains(form), "{form}: {listed}");
    }
    let classic = ok(d, None, &["agents", "--game", "classic"]);
    let entries: Vec<&str> = classic.lines().skip(1).take_while(|l| !l.is_empty()).collect();
    assert!(entries.len() > 5 && entries.iter().all(|l| l.starts_with("classic ")), "{classic}");
    assert!(!entries.iter().any(|l| l.contains("checkpoints/champion ")), "{classic}");
    let help = ok(d, None, &["eval", "--help"]);
    for form in ["level:N", "mistakes:P+SPEC", "@argmax", "BUNDLE@level", "champion@argmax", "GAME:SPEC"] {
        assert!(help.contains(form), "{form}: {help}");
    }

    // A checkpoint of another game is refused with the flag that loads it.
    fails(
        d,
        None,
        &["eval", "--agents", "checkpoints/classic-champion@argmax,expert"],
        &["classic-champion is a classic Sabacc checkpoint", "add --game classic"],
    );
    fails(
        d,
        None,
        &["eval", "--game", "classic", "--agents", "champion,expert"],
        &["champion is a Kessel Sabacc checkpoint", "add --game kessel"],
    );
}

#[test]
fn configs_and_scenarios_are_found_from_any_folder_or_refused_naming_them() {
    let elsewhere = tempfile::tempdir().unwrap();
    let d = elsewhere.path();
    let out = ok(d, None, &["scenario", "crates/games/kessel/scenarios/cook_and_prime.json"]);
    assert!(!out.is_empty());

    // The default training config, from a SABACC_HOME that holds a tiny one.
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir(home.path().join("experiments")).unwrap();
    std::fs::write(
        home.path().join("experiments/quick.toml"),
        "name = \"tiny\"\nseed = 1\nplayers = 2\ntotal_decisions = 64\nnum_envs = 2\nnum_steps = 16\n\
         num_minibatches = 1\nupdate_epochs = 1\nhidden = [8]\ncheckpoint_every = 1\neval_every = 0\n\
         eval_bots = [\"random\"]\nfinal_eval_games = 0\n[opponents]\nrandom = 1.0\n",
    )
    .unwrap();
    ok(d, Some(home.path()), &["train", "--quiet", "--eval-games", "0"]);
    assert!(d.join("runs/tiny/checkpoint").join("metadata.json").is_file(), "the run folder is under the current one");

    // Paths inside a config are found the same way: a fine-tuning config written anywhere
    // starts from the shipped `checkpoints/quick-4p` and plays it as an opponent.
    std::fs::write(
        d.join("finetune.toml"),
        "name = \"finetune\"\nseed = 1\nplayers = 4\ntotal_decisions = 64\nnum_envs = 2\nnum_steps = 16\n\
         num_minibatches = 1\nupdate_epochs = 1\nhidden = [256, 256]\ninit_from = \"checkpoints/quick-4p\"\n\
         checkpoint_every = 1\neval_every = 0\neval_bots = [\"quick-4p@argmax\"]\nfinal_eval_games = 0\n\
         [opponents]\nrandom = 0.5\n\"checkpoints/quick-4p@argmax\" = 0.5\n",
    )
    .unwrap();
    ok(d, Some(&repo()), &["train", "--config", "finetune.toml", "--quiet", "--eval-games", "0"]);
    let saved = std::fs::read_to_string(d.join("runs/finetune/config.toml")).unwrap();
    let shipped = repo().join("checkpoints/quick-4p").display().to_string();
    assert!(saved.contains(&format!("init_from = \"{shipped}\"")), "{saved}");
    assert!(saved.contains(&format!("\"{shipped}@argmax\" = 0.5")), "{saved}");
    // A name found nowhere is refused by name, before any run folder is made.
    std::fs::write(d.join("lost.toml"), "name = \"lost\"\ninit_from = \"checkpoints/no-such\"\n").unwrap();
    fails(d, Some(&repo()), &["train", "--config", "lost.toml", "--quiet"], &["init_from", "checkpoints/no-such"]);
    assert!(!d.join("runs/lost").exists());

    let empty = tempfile::tempdir().unwrap();
    fails(
        d,
        Some(empty.path()),
        &["train"],
        &["cannot find `experiments/quick.toml`", "default training config", "--config FILE"],
    );
    fails(
        d,
        Some(empty.path()),
        &["bench", "train", "--seconds", "1"],
        &["cannot find `experiments/quick.toml`", "--config FILE"],
    );
    fails(d, Some(empty.path()), &["exploit", "random"], &["cannot find `experiments/exploit.toml`"]);
}

#[test]
fn rules_files_and_agent_folders_are_found_from_any_folder_or_refused_naming_every_folder_searched() {
    let elsewhere = tempfile::tempdir().unwrap();
    let d = elsewhere.path();
    for rules in ["experiments/classic-most-credits.json", "checkpoints/classic-champion/eval-rules.json"] {
        let out = ok(
            d,
            None,
            &["eval", "--game", "classic", "--agents", "expert,greedy", "--games", "2", "--rules", rules, "--json"],
        );
        let report: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(report["settings"]["rules"]["hand_limit_end"], "most-credits", "{rules}: {out}");
    }
    // A spec wrapping a shipped name finds it too.
    let out = ok(d, None, &["eval", "--agents", "mistakes:50+quick-4p@argmax,random", "--games", "2", "--json"]);
    assert!(out.contains(&repo().join("checkpoints/quick-4p").display().to_string()), "{out}");

    let e = fails(
        d,
        None,
        &["eval", "--agents", "expert,random", "--rules", "experiments/none.json"],
        &["cannot find `experiments/none.json` (--rules)", "SABACC_HOME"],
    );
    assert!(
        e.contains(&d.canonicalize().unwrap().display().to_string()) || e.contains(&d.display().to_string()),
        "{e}"
    );
    assert!(e.contains(&repo().display().to_string()), "the repository is named as searched: {e}");
    let empty = tempfile::tempdir().unwrap();
    fails(
        d,
        Some(empty.path()),
        &["eval", "--agents", "runs/gone/checkpoint,random"],
        &["cannot find `runs/gone/checkpoint`", "SABACC_HOME", &empty.path().display().to_string()],
    );
    fails(d, Some(empty.path()), &["scenario", "scenarios/none.json"], &["cannot find", "(the scenario)"]);
}

#[test]
fn tokens_report_never_replaces_an_existing_report_without_force() {
    let out = tempfile::tempdir().unwrap();
    let doc = out.path().join("token-research.md");
    std::fs::write(&doc, "the committed report\n").unwrap();
    fails(
        out.path(),
        None,
        &["tokens", "report", "--quick", "--out", out.path().to_str().unwrap()],
        &["token-research.md already exists", "--force", "nothing was played"],
    );
    // The default `--out docs`, run in a folder whose docs/ holds a report.
    std::fs::create_dir(out.path().join("docs")).unwrap();
    std::fs::write(out.path().join("docs/token-research.md"), "the committed report\n").unwrap();
    fails(out.path(), None, &["tokens", "report", "--quick"], &["docs/token-research.md already exists"]);
    assert_eq!(std::fs::read_to_string(&doc).unwrap(), "the committed report\n");
    assert_eq!(std::fs::read_to_string(out.path().join("docs/token-research.md")).unwrap(), "the committed report\n");
}
