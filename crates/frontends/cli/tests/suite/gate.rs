//! `sabacc gate`: a stronger agent passes, a weaker one is refused with exit status 3, the
//! reports are written either way, and a bad panel is an error that names what is wrong.

use crate::common::sabacc;
use std::path::Path;

fn panel(dir: &Path, text: &str) -> String {
    let p = dir.join("panel.toml");
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

#[test]
fn a_stronger_agent_passes_a_weaker_is_refused_and_both_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let p = panel(
        dir.path(),
        "game = \"kessel\"\nseed = 3\nopponents = [\"random\", { spec = \"greedy\", games = [100, 24] }]\n\
         tables = [{ players = 2, games = 400 }, { players = 4, games = 48 }]\n",
    );
    let out_dir = dir.path().join("up");
    let up = sabacc(&["gate", "--agents", "random,expert", "--panel", &p, "--out", out_dir.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&up.stdout);
    assert!(up.status.success(), "{text}\n{}", String::from_utf8_lossy(&up.stderr));
    assert!(text.contains("`expert` against `random`: **passes**"), "{text}");
    assert!(text.contains("| `greedy` | 2 | 100 |"), "the slow opponent's own games: {text}");
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(out_dir.join("gate.json")).unwrap()).unwrap();
    assert_eq!(json["gates"][0]["passes"], true);
    assert_eq!(json["agents"][1]["cells"][0]["deal_shares"].as_array().unwrap().len(), 200);
    assert!(out_dir.join("gate.md").exists());

    let down_dir = dir.path().join("down");
    let down = sabacc(&["gate", "--agents", "expert,random", "--panel", &p, "--out", down_dir.to_str().unwrap()]);
    assert_eq!(down.status.code(), Some(3), "{}", String::from_utf8_lossy(&down.stderr));
    assert!(String::from_utf8_lossy(&down.stdout).contains("does not pass"));
    assert!(down_dir.join("gate.json").exists(), "a refusal still writes its reports");
}

#[test]
fn compare_last_gates_the_candidate_against_each_earlier_agent() {
    let dir = tempfile::tempdir().unwrap();
    let p = panel(
        dir.path(),
        "game = \"kessel\"\nseed = 3\nopponents = [\"random\"]\n\
         tables = [{ players = 2, games = 200 }, { players = 4, games = 24 }]\n",
    );
    let out = sabacc(&["gate", "--agents", "random,greedy,expert", "--compare", "last", "--panel", &p]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("`expert` against `random`") && text.contains("`expert` against `greedy`"), "{text}");
    assert!(!text.contains("`greedy` against `random`"), "{text}");
    let bad = sabacc(&["gate", "--agents", "random,expert", "--compare", "every", "--panel", &p]);
    assert_eq!(bad.status.code(), Some(2), "a usage error");
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown gate plan `every`"));
}

#[test]
fn bad_panels_and_agents_are_errors_that_say_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "game = \"leduc\"\nseed = 1\nopponents = [\"random\", \"random\"]\ntables = [{ players = 2, games = 4 }]",
            "random,cfr",
            "listed twice",
        ),
        (
            "game = \"chess\"\nseed = 1\nopponents = [\"random\"]\ntables = [{ players = 2, games = 4 }]",
            "random,cfr",
            "unknown game `chess`",
        ),
        (
            "game = \"leduc\"\nseed = 1\nopponents = [\"wizard\"]\ntables = [{ players = 2, games = 4 }]",
            "random,cfr",
            "the panel: ",
        ),
        (
            "game = \"leduc\"\nseed = 1\nopponents = [\"random\"]\ntables = [{ players = 2, games = 4 }]",
            "random,wizard",
            "--agents: ",
        ),
        (
            "game = \"leduc\"\nseed = 1\nopponents = [\"random\"]\ntables = [{ players = 4, games = 4 }]",
            "random,cfr",
            "Leduc hold'em is heads-up",
        ),
    ];
    for (text, agents, says) in cases {
        let p = panel(dir.path(), text);
        let out = sabacc(&["gate", "--agents", agents, "--panel", &p]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{text}: {err}");
        assert!(err.contains(says), "{text}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let out = sabacc(&["gate", "--agents", "random", "--panel", "no/such/panel.toml"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot find `no/such/panel.toml` (--panel)"));
}
