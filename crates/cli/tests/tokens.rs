//! `sabacc tokens value|loadouts|draft` on tiny budgets: each writes its Markdown, JSON and PNG
//! into `--out`, and bad input gets an error naming the argument.

use std::process::{Command, Output};

fn sabacc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sabacc")).args(args).output().expect("the binary runs")
}

fn ok(args: &[&str]) -> String {
    let o = sabacc(args);
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn read_json(dir: &std::path::Path, name: &str) -> serde_json::Value {
    for ext in ["md", "png"] {
        let f = dir.join(format!("{name}.{ext}"));
        assert!(std::fs::metadata(&f).map(|m| m.len() > 0).unwrap_or(false), "{} was not written", f.display());
    }
    serde_json::from_str(&std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap()).unwrap()
}

#[test]
fn each_token_study_writes_its_report_on_a_tiny_budget() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let stdout = ok(&[
        "tokens",
        "value",
        "--players",
        "2",
        "--agents",
        "expert",
        "--tokens",
        "embargo,refund",
        "--deals",
        "6",
        "--baseline",
        "replaced",
        "--out",
        out,
        "--threads",
        "2",
    ]);
    assert!(stdout.contains("games/s"), "{stdout}");
    let v = read_json(dir.path(), "value");
    assert_eq!(v["games"], 2 * 6 * 2);
    assert_eq!(v["tables"][0]["focal"], "expert");
    assert_eq!(v["tables"][0]["rows"].as_array().unwrap().len(), 2);
    assert!(v["performance"]["games_per_second"].as_f64().unwrap() > 0.0);
    let md = std::fs::read_to_string(dir.path().join("value.md")).unwrap();
    assert!(md.contains("| embargo |") && md.contains("paired 95%"), "{md}");

    ok(&[
        "tokens",
        "loadouts",
        "--players",
        "2",
        "--agents",
        "expert",
        "--loadouts",
        "embargo+refund+immunity,markdown+free-draw+exhaustion",
        "--budget",
        "12",
        "--out",
        out,
    ]);
    let l = read_json(dir.path(), "loadouts");
    assert_eq!(l["ranking"].as_array().unwrap().len(), 2);
    assert!(l["games"].as_u64().unwrap() <= 12);

    ok(&[
        "tokens",
        "draft",
        "--players",
        "2",
        "--agents",
        "expert,random",
        "--deals",
        "4",
        "--value-deals",
        "2",
        "--out",
        out,
    ]);
    let d = read_json(dir.path(), "draft");
    assert_eq!(d["agents"].as_array().unwrap().len(), 2);
    assert_eq!(d["agents"][0]["should_pick"].as_array().unwrap().len(), 3);
    // The value file just written can stand in for the study run on the spot.
    let value = dir.path().join("value.json");
    ok(&[
        "tokens",
        "draft",
        "--players",
        "2",
        "--agents",
        "expert",
        "--deals",
        "2",
        "--value",
        value.to_str().unwrap(),
        "--out",
        out,
    ]);
}

#[test]
fn token_studies_refuse_bad_input_naming_the_argument() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let cases: [(&[&str], &str); 5] = [
        (&["tokens", "value", "--agents", "expert", "--tokens", "embargoo", "--out", out], "unknown token `embargoo`"),
        (&["tokens", "value", "--agents", "expert", "--deals", "0", "--out", out], "--deals"),
        (&["tokens", "loadouts", "--agents", "expert", "--loadouts", "embargo+embargo+refund", "--out", out], "twice"),
        (&["tokens", "loadouts", "--agents", "expert", "--budget", "0", "--out", out], "--budget"),
        (&["tokens", "value", "--agents", "experts", "--out", out], "unknown agent `experts`"),
    ];
    for (args, needle) in cases {
        let o = sabacc(args);
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && !e.contains("panicked"), "{args:?}: {e}");
        assert!(e.contains(needle), "{args:?}: {e}");
    }
}
