//! `sabacc scenario --game classic FILE`: a classic Sabacc scenario loads, takes actions by name
//! or index, and writes back a position that reloads unchanged; a malformed file, an invalid
//! position, an unknown or illegal action and `--branch` are refused with messages naming the
//! problem; `--ask` answers with a legal action.

use crate::common::sabacc;
use std::path::{Path, PathBuf};

fn scenario(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../crates/games/classic/scenarios")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn json(args: &[&str]) -> serde_json::Value {
    let o = sabacc(args);
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("one JSON object")
}

/// Runs a command that must fail with exit code 1 and returns its error message.
fn refused(args: &[&str]) -> String {
    let o = sabacc(args);
    let e = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "{args:?} must be refused: {e}");
    assert!(!e.contains("panicked"), "{e}");
    e
}

fn names(v: &serde_json::Value) -> Vec<String> {
    v.as_array().expect("an array").iter().map(|x| x.as_str().expect("a string").to_string()).collect()
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn a_classic_scenario_plays_actions_and_its_position_round_trips() {
    let file = scenario("exchange_drop.json");
    let start = json(&["scenario", "--game", "classic", &file, "--json"]);
    assert_eq!(names(&start["legal_actions"]), ["drop:0", "drop:1", "drop:2"]);
    assert_eq!(start["decision"], "seat 0 drops a card after exchanging");
    assert_eq!(names(&start["events"]), Vec::<String>::new());

    // Drop the Star by name; the index of `drop:2` (31) does the same.
    let a = json(&["scenario", "--game", "classic", &file, "--actions", "drop:2", "--json"]);
    assert_eq!(json(&["scenario", "--game", "classic", &file, "--actions", "31", "--json"]), a);
    let legal = names(&a["legal_actions"]);
    assert!(!legal.is_empty() && legal.contains(&"check".to_string()), "{legal:?}");
    assert_eq!(a["decision"], "seat 1 opens the betting: check, bet or fold");
    assert_eq!(names(&a["events"]), ["seat 0 dropped star out of play", "round 2: seat 1's turn"]);
    assert_eq!(names(&a["outcome"]), ["in-progress", "in-progress"]);
    let position = &a["position"];
    assert_eq!(position["players"][0]["hand"], serde_json::json!(["sabres-12", "coins-3", "flasks-15"]));
    assert_eq!(position["out"], serde_json::json!(["star"]));

    // The position written back loads again as the same position.
    let dir = tempfile::tempdir().unwrap();
    let again = write(dir.path(), "reached.json", &serde_json::to_string_pretty(position).unwrap());
    let b = json(&["scenario", "--game", "classic", again.to_str().unwrap(), "--json"]);
    assert_eq!(&b["position"], position);
    assert_eq!(b["legal_actions"], a["legal_actions"]);
    assert_eq!(b["decision"], a["decision"]);

    // The text names the seats' cards and credits, the pots and what happened.
    let o = sabacc(&["scenario", "--game", "classic", &file, "--actions", "drop:2"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    for line in [
        "seat 0: 95 credits, in the hand, 3 cards: sabres-12 coins-3 flasks-15 (total 30)",
        "hand pot 4, sabacc pot 6",
        "legal actions: check, bet:1, bet:2, bet:3, fold",
        "  seat 0 dropped star out of play",
        "outcome: seat 0 in-progress, seat 1 in-progress",
    ] {
        assert!(text.contains(line), "missing `{line}` in:\n{text}");
    }
}

#[test]
fn a_call_settles_the_hand_and_the_events_say_how() {
    let a = json(&["scenario", "--game", "classic", &scenario("sudden_demise.json"), "--actions", "call", "--json"]);
    let events = names(&a["events"]);
    for e in [
        "seat 2 called the hand",
        "seat 2 was dealt sabres-1 face up (sudden demise): total 21",
        "seat 0 was dealt flasks-2 face up (sudden demise): total 22",
        "seat 0 won 7 from the hand pot",
        "hand 1 ended: seat 2 called",
    ] {
        assert!(events.contains(&e.to_string()), "missing `{e}` in {events:?}");
    }
    assert_eq!(a["position"]["hand"], 2);
}

#[test]
fn a_malformed_file_and_an_invalid_position_are_refused_naming_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let bad = write(dir.path(), "broken.json", "{\"players\": [");
    let e = refused(&["scenario", "--game", "classic", bad.to_str().unwrap()]);
    assert!(e.contains("broken.json") && e.contains("EOF while parsing"), "{e}");

    let unbalanced = r#"{"config": {"players": 2}, "players": [
        {"hand": ["sabres-1", "sabres-2"], "credits": 100},
        {"hand": ["staves-3", "staves-4"], "credits": 99}]}"#;
    let p = write(dir.path(), "unbalanced.json", unbalanced);
    let e = refused(&["scenario", "--game", "classic", p.to_str().unwrap()]);
    assert!(e.contains("unbalanced.json") && e.contains("credits: players' credits"), "{e}");

    let unknown_card = r#"{"config": {"players": 2}, "sabacc_pot": 1, "players": [
        {"hand": ["sabres-1", "sabres-16"], "credits": 100},
        {"hand": ["staves-3", "staves-4"], "credits": 99}]}"#;
    let p = write(dir.path(), "card.json", unknown_card);
    let e = refused(&["scenario", "--game", "classic", p.to_str().unwrap()]);
    assert!(e.contains("card.json: players[0].hand[1]: `sabres-16` is not a card name"), "{e}");

    let e = refused(&["scenario", "--game", "classic", dir.path().join("nowhere.json").to_str().unwrap()]);
    assert!(e.contains("cannot find") && e.contains("nowhere.json") && e.contains("the scenario"), "{e}");

    // A Kessel scenario is not a classic one: its unknown fields are named.
    let kessel =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../crates/games/kessel/scenarios/cook_and_prime.json");
    let e = refused(&["scenario", "--game", "classic", kessel.to_str().unwrap()]);
    assert!(e.contains("cook_and_prime.json") && e.contains("unknown field"), "{e}");
}

#[test]
fn unknown_and_illegal_actions_are_refused_listing_the_legal_ones() {
    let file = scenario("raise_at_the_cap.json");
    let e = refused(&["scenario", "--game", "classic", &file, "--actions", "check"]);
    assert!(e.contains("--actions[0]") && e.contains("`check` is not legal"), "{e}");
    assert!(e.contains("legal now: fold, match, raise:1, raise:2"), "{e}");
    let e = refused(&["scenario", "--game", "classic", &file, "--actions", "match,dance"]);
    assert!(e.contains("--actions[1]: `dance` is neither a classic action name"), "{e}");
    assert!(e.contains("legal now: "), "{e}");
    let e = refused(&["scenario", "--game", "classic", &file, "--actions", "44"]);
    assert!(e.contains("`44`") && e.contains("0..=43"), "{e}");
}

#[test]
fn branch_is_refused_and_ask_answers_with_a_legal_action() {
    let file = scenario("raise_at_the_cap.json");
    let e = refused(&["scenario", "--game", "classic", &file, "--branch", "expert"]);
    assert!(e.contains("--branch") && e.contains("--game kessel"), "{e}");

    let a = json(&["scenario", "--game", "classic", &file, "--ask", "expert,random", "--json"]);
    let legal = names(&a["legal_actions"]);
    let ask = a["ask"].as_array().expect("an ask array");
    assert_eq!(ask.len(), 2);
    assert_eq!(ask[0]["agent"], "classic:expert");
    for x in ask {
        assert_eq!(x["seat"], 2);
        assert!(legal.contains(&x["choice"].as_str().unwrap().to_string()), "{x} among {legal:?}");
    }
    // The answers are seeded: the same file gives the same answers.
    assert_eq!(json(&["scenario", "--game", "classic", &file, "--ask", "expert,random", "--json"]), a);

    let e = refused(&["scenario", "--game", "classic", &file, "--ask", "nobody"]);
    assert!(e.contains("--ask[0]") && e.contains("nobody"), "{e}");
}
