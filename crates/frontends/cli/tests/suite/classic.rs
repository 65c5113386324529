//! Classic Sabacc through the `sabacc` program: random play keeps every invariant and replays
//! under its seed, and a bad classic rule config is refused naming its field.

use crate::common::sabacc;

fn report(args: &[&str]) -> serde_json::Value {
    let o = sabacc(args);
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("one JSON object")
}

#[test]
fn simulate_classic_keeps_every_invariant_and_replays_under_its_seed() {
    let args = ["simulate", "--game", "classic", "--players", "4", "--games", "1000", "--seed", "9", "--json"];
    let a = report(&args);
    assert_eq!(a["games"], 1000);
    assert_eq!(a["game"], "classic");
    assert!(a.get("token_plays").is_none(), "classic Sabacc has no Shift Tokens: {a}");
    assert_eq!(a["invariant_violations"], 0, "{a}");
    assert!(a["decisions"].as_u64().unwrap() > 1000 * 10, "{a}");
    let wins: u64 = a["wins_by_seat"].as_array().unwrap().iter().map(|w| w.as_u64().unwrap()).sum();
    let truncated = a["truncations"].as_u64().unwrap();
    assert!(wins + truncated >= 1000, "every game is won by someone or truncated: {a}");
    // Chunks run in parallel; the report must not depend on how they were scheduled.
    assert_eq!(report(&args), a, "same seed, same report");
    let other = report(&["simulate", "--game", "classic", "--games", "1000", "--seed", "10", "--json"]);
    assert_ne!(other["decisions"], a["decisions"], "another seed plays other games");
    for players in ["2", "8"] {
        let r = report(&["simulate", "--game", "classic", "--players", players, "--games", "30", "--json"]);
        assert_eq!(r["invariant_violations"], 0, "{r}");
        assert_eq!(r["wins_by_seat"].as_array().unwrap().len(), players.parse::<usize>().unwrap());
    }
    let o = sabacc(&["simulate", "--game", "classic", "--players", "9"]);
    assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("2..=8"));
}

#[test]
fn a_bad_classic_rule_config_names_its_field() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rules.json");
    std::fs::write(&path, r#"{"bet_limit": 0}"#).unwrap();
    let o = sabacc(&["simulate", "--game", "classic", "--rules", path.to_str().unwrap()]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains("bet_limit") && e.contains("1..=10"), "{e}");
    std::fs::write(&path, r#"{"tokens": true}"#).unwrap();
    let o = sabacc(&["simulate", "--game", "classic", "--rules", path.to_str().unwrap()]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && e.contains("tokens"), "a Kessel field is refused by name: {e}");
}
