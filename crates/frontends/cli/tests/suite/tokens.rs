//! `sabacc tokens value|loadouts|draft` on tiny budgets: each writes its Markdown, JSON and PNG
//! into `--out`, and bad input gets an error naming the argument.

use crate::common::sabacc;

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
    let cases: [(&[&str], &str); 7] = [
        (&["tokens", "value", "--agents", "expert", "--tokens", "embargoo", "--out", out], "unknown token `embargoo`"),
        (&["tokens", "value", "--agents", "expert", "--deals", "0", "--out", out], "--deals"),
        (&["tokens", "loadouts", "--agents", "expert", "--loadouts", "embargo+embargo+refund", "--out", out], "twice"),
        (&["tokens", "loadouts", "--agents", "expert", "--budget", "0", "--out", out], "--budget"),
        (
            &["tokens", "loadouts", "--agents", "expert", "--delta", "0", "--out", out],
            "--delta: 0 is not an error probability",
        ),
        (&["tokens", "loadouts", "--agents", "expert", "--delta", "1.5", "--out", out], "--delta: 1.5 is not an error"),
        (&["tokens", "value", "--agents", "experts", "--out", out], "unknown agent `experts`"),
    ];
    for (args, needle) in cases {
        let o = sabacc(args);
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && !e.contains("panicked"), "{args:?}: {e}");
        assert!(e.contains(needle), "{args:?}: {e}");
    }
}

#[test]
fn timing_writes_its_report_and_reads_like_one() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("timing");
    let stdout = ok(&[
        "tokens",
        "timing",
        "--players",
        "2",
        "--agents",
        "expert",
        "--games",
        "10",
        "--continuations",
        "2",
        "--seed",
        "3",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        stdout.contains("Advantage")
            && stdout.contains("chose the best-rated option")
            && stdout.contains("uniform choice"),
        "{stdout}"
    );
    let j = read_json(&out, "timing");
    assert_eq!(j["players"], 2);
    assert!(j["positions"].as_u64().unwrap() > 0);
    assert!(j["rollout_games"].as_u64().unwrap() >= 2 * j["positions"].as_u64().unwrap());
}

#[test]
fn report_writes_one_document_covering_every_study() {
    let dir = tempfile::tempdir().unwrap();
    let policy = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../checkpoints/quick-4p");
    ok(&["tokens", "report", "--quick", "--out", dir.path().to_str().unwrap(), "--policy", policy.to_str().unwrap()]);
    let doc = std::fs::read_to_string(dir.path().join("token-research.md")).expect("the document");
    for section in [
        "## The answer",
        "### 2 seats",
        "### 4 seats",
        "## Findings",
        "## Details by study",
        "## Method",
        "## Value",
        "## Loadouts",
        "## Timing",
        "## Draft",
        "## Limits",
        "## Reproducing this report",
        "## Value against the number of players",
        "## Value against the starting stack",
        "## Interactions",
        "## Drafting: the answers' games",
        "## Rule variants",
    ] {
        assert!(doc.contains(section), "missing {section}");
    }
    // The record names the commit and the checkpoint's weights by the hash its metadata holds.
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(policy.join("metadata.json")).unwrap()).unwrap();
    let sha = meta["checksums"]["model.bpk"].as_str().expect("a version-2 checkpoint");
    assert!(doc.contains(&format!("SHA-256 of `model.bpk` `{sha}`")), "the checkpoint hash is recorded");
    assert!(doc.contains("- **Program**: commit `"), "the commit is recorded");
    assert!(doc.contains("Holm"), "the corrected tests are named");
    // The policy is valued against `expert` and in self-play, and the tables are compared.
    let p = policy.to_str().unwrap();
    assert!(doc.contains(&format!("in the hands of `{p}` against `expert`")), "policy against expert");
    assert!(doc.contains(&format!("in the hands of `{p}` in self-play")), "policy in self-play");
    assert!(doc.contains("**Do the agents agree?**") && doc.contains("rank correlation"), "agreement");
    assert!(doc.contains("in the hands of `search` against `expert`"), "search is valued too");
    assert!(dir.path().join("token-research/value-by-players.png").is_file(), "the value-against-players chart");
    for p in [3, 6, 8] {
        read_json(&dir.path().join("token-research").join(format!("value-{p}p")), "value");
        assert!(doc.contains(&format!(" {p} seats |")), "a column for {p} seats");
    }
    for c in [3, 12] {
        let v = read_json(&dir.path().join("token-research").join(format!("value-4p-{c}chips")), "value");
        assert_eq!(v["settings"]["rules"]["starting_chips"], c, "the stack is the rules'");
        assert!(doc.contains(&format!(" {c} chips |")), "a column for {c} chips");
    }
    assert!(doc.contains(" 6 chips |"), "the default stack's column");
    // Every token kind has a value line at both table sizes, in all four tables.
    for t in ["free-draw", "embargo", "immunity", "direct-transaction"] {
        assert!(doc.matches(&format!("| {t} |")).count() >= 8, "{t}");
    }
    for sub in [
        "value-2p/value",
        "value-4p/value",
        "loadouts-4p/loadouts",
        "timing-2p/timing",
        "timing-4p/timing",
        "draft-4p/draft",
        "interactions-4p/interactions",
        "interactions-2p/interactions",
        "interactions-4p-policy/interactions",
        "answer-2p-policy/metagame/metagame",
        "answer-2p-expert/metagame/metagame",
        "answer-4p-policy/field/field",
        "answer-4p-expert/field/field",
        "draft-gain/draft-gain",
    ] {
        let (folder, stem) = sub.split_once('/').unwrap();
        read_json(&dir.path().join("token-research").join(folder), stem);
        assert!(doc.contains(&format!("token-research/{sub}.png")), "the document links {sub}.png");
    }
    // The answer comes first: a draft per table size in each agent's hands, timing and value rows,
    // and both seeds; interactions name their corrections; the expert's draft its gain at both
    // table sizes; every K9 token variant its comparison with the default rules.
    let answer = &doc[doc.find("## The answer").unwrap()..doc.find("## Findings").unwrap()];
    assert!(doc.find("## The answer") < doc.find("## Method"), "the answer comes before the method");
    for agent in [p, "expert"] {
        // A loadout (`**a+b+c**`) or a mix of them (`a mix: **a+b+c** 60%, …`).
        let rows: Vec<&str> =
            answer.lines().filter(|l| l.starts_with(&format!("| Draft, in the hands of `{agent}` | "))).collect();
        assert_eq!(rows.len(), 2, "{agent}: {answer}");
        assert!(rows.iter().all(|r| r.contains(" **") && r.contains("bootstrap resamples")), "{rows:?}");
    }
    assert_eq!(answer.matches("| Play at once |").count(), 2, "{answer}");
    assert_eq!(answer.matches("| Hold |").count(), 2, "{answer}");
    assert_eq!(answer.matches("| Worth most to hold and play |").count(), 2, "{answer}");
    assert!(answer.contains("kept in the equilibrium by") && answer.contains("of the baseline's"), "{answer}");
    assert!(doc.contains("Holm over the 16 kinds and over the 120 pairs"), "interaction corrections");
    for p in [2, 4] {
        assert!(
            doc.contains(&format!("**`expert`'s draft against its old one, {p} seats**")),
            "the draft gain at {p} seats"
        );
    }
    for v in ["tax_token_chips = victim-hand-pot", "refund_source = lost-chips", "embezzlement = stock"] {
        assert!(doc.contains(&format!("**Rule variant `{v}`**")), "variant {v}");
    }
    let meta = read_json(&dir.path().join("token-research/answer-2p-expert/metagame"), "metagame");
    let weights: f64 = meta["candidates"].as_array().unwrap().iter().map(|c| c["nash"].as_f64().unwrap()).sum();
    assert!((weights - 1.0).abs() < 1e-9, "the equilibrium is a distribution");
    let field = read_json(&dir.path().join("token-research/answer-4p-policy/field"), "field");
    let weights: f64 = field["candidates"].as_array().unwrap().iter().map(|c| c["weight"].as_f64().unwrap()).sum();
    assert!((weights - 1.0).abs() < 1e-9, "the 4-seat equilibrium is a distribution");
    assert!(field["regret"].as_f64().unwrap() >= -1e-12, "regret is never negative");
    assert_eq!(field["seed"], meta["seed"], "both drafting games are played on the confirmation seed");
    let race = read_json(&dir.path().join("token-research/answer-2p-expert/race"), "loadouts");
    assert_ne!(race["settings"]["seed"], meta["seed"], "the candidates were chosen on other deals");
    assert_eq!(race["settings"]["players"], 2, "heads-up candidates come from a heads-up race");
}

#[test]
fn report_refuses_an_unknown_policy_before_playing() {
    let dir = tempfile::tempdir().unwrap();
    let o = sabacc(&["tokens", "report", "--quick", "--out", dir.path().to_str().unwrap(), "--policy", "wizard"]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains("--policy") && e.contains("unknown agent `wizard`"), "{e}");
    assert!(!dir.path().join("token-research.md").exists());
}
