//! `sabacc scenario --actions`: actions by name or by index, indices outside the action space
//! refused with the space named, and the settlement named in the JSON output.

use crate::common::{fails_with, sabacc, stderr};

/// A heads-up position at the last turn: seat 0 holds a Sylop pair's neighbour and a Markdown
/// token, seat 1 a Nulhrek hand of difference 3.
const LAST_TURN: &str = r#"{"config": {"players": 2, "token_assignment": "none"}, "actor": 0, "turn": 3,
    "players": [{"hand": ["S1", "B1"], "stock": 5, "tokens": ["markdown"]}, {"hand": ["S2", "B5"], "stock": 1}],
    "sand_discard": ["S6"], "blood_discard": ["B6"]}"#;

/// [`LAST_TURN`] written into `dir`; its path.
fn last_turn(dir: &std::path::Path) -> String {
    let file = dir.join("last-turn.json");
    std::fs::write(&file, LAST_TURN).unwrap();
    file.to_string_lossy().into_owned()
}

fn json(args: &[&str]) -> serde_json::Value {
    let o = sabacc(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    serde_json::from_slice(&o.stdout).expect("--json prints one JSON object")
}

#[test]
fn actions_are_accepted_by_name_or_index_and_the_settlement_names_hands_and_classes() {
    let d = tempfile::tempdir().unwrap();
    let file = last_turn(d.path());
    let file = file.as_str();
    let by_name = json(&["scenario", file, "--actions", "token:markdown,stand,stand", "--json"]);
    // `stand` is index 0; indices may carry spaces around them.
    let by_index = json(&["scenario", file, "--actions", "token:markdown, 0 ,0", "--json"]);
    assert_eq!(by_name, by_index);
    let settlement = &by_name["settlement"];
    assert_eq!(settlement["winners"], serde_json::json!([0]), "{settlement}");
    assert_eq!(settlement["seats"][1]["hand"], serde_json::json!(["S2", "B5"]), "{settlement}");
    assert_eq!(settlement["seats"][1]["hand_class"], "Nulhrek, difference 3", "{settlement}");
}

#[test]
fn actions_outside_the_action_space_or_unknown_are_refused_naming_their_place() {
    let d = tempfile::tempdir().unwrap();
    let file = last_turn(d.path());
    let file = file.as_str();
    let last = <games::kessel::Kessel as env::Game>::SPEC.num_actions - 1;
    let e = fails_with(&["scenario", file, "--actions", "stand,stand,99"], &[]);
    assert!(e.contains(&format!("--actions[2]: index 99 is outside the action space 0..={last}")), "{e}");
    fails_with(&["scenario", file, "--actions=-1"], &["--actions[0]: index -1 is outside the action space 0..="]);
    fails_with(&["scenario", file, "--actions", "stand,fly"], &["--actions[1]: `fly` is neither an action name"]);
}
