//! The JSON scenario loader: malformed files give a one-line error naming the field, the example
//! files in `crates/engine/scenarios/` load and play as documented in `docs/scenarios.md`.

mod common;

use common::*;
use engine::{Event, Family, HandClass, Pending, Scenario, Seat, State};
use serde_json::{Value, json};
use std::path::PathBuf;

fn base() -> Value {
    json!({
        "config": {"players": 2, "token_assignment": "none"},
        "actor": 0,
        "players": [{"hand": ["S1", "B1"], "stock": 5}, {"hand": ["S2", "B2"], "stock": 5}],
        "sand_discard": ["S6"],
        "blood_discard": ["B6"]
    })
}

/// Loads `v`, expects an error, and checks it is one line starting with `prefix`.
fn expect_err(v: Value, prefix: &str) -> String {
    let msg = load_err(v);
    assert!(!msg.contains('\n'), "error is not one line: {msg:?}");
    assert!(msg.starts_with(prefix), "error {msg:?} does not start with {prefix:?}");
    msg
}

#[test]
fn base_scenario_loads() {
    let s = load(base());
    assert_eq!(hand(&s, 1), ["S2", "B2"]);
    assert_eq!(s.draw_pile(Family::Sand).len(), 19);
    assert_eq!(s.chips_removed(), 2);
}

#[test]
fn malformed_wrong_card_names() {
    let mut v = base();
    v["players"][0]["hand"][0] = json!("S7");
    expect_err(v, "players[0].hand[0]: `S7` is not a card name");
    let mut v = base();
    v["blood_discard"] = json!(["B6", "Blood Sylop"]);
    expect_err(v, "blood_discard[1]: ");
    let mut v = base();
    v["players"][1]["hand"][1] = json!(3);
    expect_err(v, "players[1].hand[1]: ");
}

#[test]
fn malformed_card_counts_45_cards_duplicate_sylop_missing_card() {
    // A fourth S1 (45 cards).
    let mut v = base();
    v["sand_discard"] = json!(["S6", "S1", "S1", "S1"]);
    expect_err(v, "sand_discard[3]: `S1` appears more often than the deck's 3 copies");
    // Two Sand Sylops.
    let mut v = base();
    v["players"][0]["hand"][0] = json!("SY");
    v["players"][1]["hand"][0] = json!("SY");
    expect_err(v, "players[1].hand[0]: `SY` appears more often than the deck's 1 copy");
    // A draw pile listed explicitly that leaves a card out.
    let mut v = base();
    let mut sand = without(&family_names('S'), &["S1", "S2", "S6"]);
    sand.retain(|c| c != "SI");
    v["sand_draw"] = json!(sand);
    let msg = expect_err(v, "cards: ");
    assert!(msg.contains("SI"), "{msg}");
    // 23 cards in a Sand pile.
    let mut v = base();
    let mut sand = family_names('S');
    sand.push("S4".into());
    v["sand_draw"] = json!(sand);
    expect_err(v, "sand_draw[");
}

#[test]
fn malformed_negative_or_excessive_chips() {
    let mut v = base();
    v["players"][1]["stock"] = json!(-1);
    expect_err(v, "players[1].stock: ");
    let mut v = base();
    v["players"][0]["pot"] = json!(-3);
    expect_err(v, "players[0].pot: ");
    let mut v = base();
    v["players"][0]["stock"] = json!(70000);
    expect_err(v, "players[0].stock: ");
    let mut v = base();
    v["players"][0]["stock"] = json!(10);
    expect_err(v, "players: stocks and hand pots add up to 15");
    let mut v = base();
    v["players"][0]["lost"] = json!(5);
    expect_err(v, "players: lost chips add up to 5");
    let mut v = base();
    v["config"]["starting_chips"] = json!(0);
    expect_err(v, "config.starting_chips: ");
}

#[test]
fn malformed_seat_out_of_range() {
    let mut v = base();
    v["actor"] = json!(2);
    expect_err(v, "actor: seat 2 is not at a table of 2");
    let mut v = base();
    v["starter"] = json!(7);
    expect_err(v, "starter: ");
    let mut v = base();
    v["effects"] = json!({"immune": [0, 5]});
    expect_err(v, "effects.immune[1]: ");
    let mut v = base();
    v["effects"] = json!({"embargoed": 2});
    expect_err(v, "effects.embargoed[0]: ");
    let mut v = base();
    v["actor"] = json!(300);
    expect_err(v, "actor: ");
}

#[test]
fn malformed_unknown_fields() {
    let mut v = base();
    v["colour"] = json!("red");
    expect_err(v, "colour: unknown field `colour`");
    let mut v = base();
    v["players"][0]["chips"] = json!(3);
    expect_err(v, "players[0].chips: unknown field");
    let mut v = base();
    v["config"]["player"] = json!(3);
    expect_err(v, "config.player: unknown field");
    let mut v = base();
    v["effects"] = json!({"cook": true});
    expect_err(v, "effects.cook: unknown field");
    let mut v = base();
    v["players"][0]["tokens"] = json!(["embargo", "teleport"]);
    expect_err(v, "players[0].tokens[1]: ");
}

#[test]
fn malformed_wrong_family_in_a_hand_slot_or_pile() {
    let mut v = base();
    v["players"][0]["hand"] = json!(["B1", "S1"]);
    expect_err(v, "players[0].hand[0]: `B1` is not a Sand card");
    let mut v = base();
    v["players"][0]["hand"] = json!(["S1", "S3"]);
    expect_err(v, "players[0].hand[1]: `S3` is not a Blood card");
    let mut v = base();
    v["sand_discard"] = json!(["B4"]);
    expect_err(v, "sand_discard[0]: `B4` is not a Sand card");
    let mut v = base();
    v["decision"] = json!({"decision": "keep", "drawn": "B3", "source": "sand-deck"});
    expect_err(v, "decision.drawn: ");
}

#[test]
fn malformed_players_count_mismatch_and_seat_lists() {
    let mut v = base();
    v["config"]["players"] = json!(3);
    expect_err(v, "players: lists 2 seats but config.players is 3");
    let mut v = base();
    v["config"]["players"] = json!(9);
    expect_err(v, "config.players: ");
    let mut v = base();
    v["players"][1] = json!({"stock": 5});
    expect_err(v, "players[1].hand: ");
    let mut v = base();
    v["players"][1] = json!({"stock": 0, "eliminated": true, "hand": ["S2", "B2"]});
    expect_err(v, "players[1].hand: ");
    let mut v = base();
    v["players"][1] = json!({"stock": 2, "eliminated": true});
    expect_err(v, "players[1].stock: ");
    let mut v = base();
    v["players"][1] = json!({"stock": 0, "eliminated": true});
    expect_err(v, "players: at least two seats");
    let mut v = base();
    v.as_object_mut().unwrap().remove("actor");
    expect_err(v, "scenario: missing field `actor`");
    let mut v = base();
    v["players"][0].as_object_mut().unwrap().remove("stock");
    expect_err(v, "players[0]: missing field `stock`");
}

#[test]
fn malformed_turns_dice_effects_and_decisions() {
    for (field, value, prefix) in [
        ("turn", json!(4), "turn: "),
        ("turn", json!(0), "turn: "),
        ("round", json!(0), "round: "),
        ("dice", json!([1, 7]), "dice: "),
        ("dice", json!([-1]), "dice[0]: "),
        ("effects", json!({"prime": 0}), "effects.prime: "),
        ("decision", json!({"decision": "prime-die", "dice": [1, 2]}), "decision: prime-sabacc must be listed"),
        ("decision", json!({"decision": "target", "token": "embargo"}), "decision.token: "),
        ("decision", json!({"decision": "target", "token": "exhaustion"}), "decision.token: "),
        ("decision", json!({"decision": "fly"}), "decision.decision: unknown variant"),
        ("sand_discard", json!([]), "sand_discard: "),
        ("blood_discard", json!([]), "blood_discard: "),
    ] {
        let mut v = base();
        v[field] = value;
        expect_err(v, prefix);
    }
    let mut v = base();
    v["players"][0]["stood_turn"] = json!(2);
    expect_err(v, "players[0].stood_turn: ");
    let mut v = base();
    v["players"][0]["tokens"] = json!(["refund"]);
    v["players"][0]["spent"] = json!(["refund"]);
    expect_err(v, "players[0].tokens: ");
    let mut v = base();
    v["players"][0]["tokens"] = json!(["refund", "refund"]);
    expect_err(v, "players[0].tokens: ");
    // A target decision with no legal target (the only opponent is immune).
    let mut v = base();
    v["players"][0]["spent"] = json!(["exhaustion"]);
    v["token_played"] = json!(true);
    v["effects"] = json!({"immune": [1]});
    v["decision"] = json!({"decision": "target", "token": "exhaustion"});
    expect_err(v, "decision: ");
}

#[test]
fn malformed_json_text_never_panics() {
    for text in ["", "{", "[]", "null", "42", "{\"actor\": 0}", "{\"actor\": 0, \"players\": {}}", "\u{0}"] {
        let e = Scenario::from_json(text).map(|_| ()).unwrap_err();
        let msg = e.to_string();
        assert!(!msg.contains('\n'));
        assert!(!e.field.is_empty());
    }
}

#[test]
fn keep_decision_scenario_with_empty_discard_being_drawn_from() {
    let mut v = base();
    v["sand_discard"] = json!([]);
    v["players"][0]["pot"] = json!(1);
    v["players"][0]["stock"] = json!(4);
    v["decision"] = json!({"decision": "keep", "drawn": "S6", "source": "sand-discard"});
    let mut s = load(v.clone());
    assert_eq!(legal_names(&s), vec!["keep:drawn", "keep:held"]);
    play(&mut s, &["keep:drawn"]);
    assert_eq!(hand(&s, 0), ["S6", "B1"]);
    assert_eq!(discard(&s, Family::Sand), vec!["S1"]);
    // The other family's discard pile cannot be empty meanwhile.
    v["blood_discard"] = json!([]);
    expect_err(v, "blood_discard: ");
}

// ------------------------------------------------------------------------------------------
// Example files

fn scenario_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios")
}

fn load_file(name: &str) -> State {
    let text = std::fs::read_to_string(scenario_dir().join(name)).unwrap();
    Scenario::from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn every_example_scenario_loads() {
    let mut n = 0;
    for entry in std::fs::read_dir(scenario_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let text = std::fs::read_to_string(&path).unwrap();
            let s = Scenario::from_json(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            s.check_invariants().unwrap();
            assert!(!s.legal_actions().is_empty());
            n += 1;
        }
    }
    assert!(n >= 3, "expected example scenarios, found {n}");
}

#[test]
fn example_cook_and_prime() {
    // Prime 3 is in force. Standing, seat 2's 3/3 (S3 + Impostor on a 3) loses to Pure.
    let mut s = load_file("cook_and_prime.json");
    play(&mut s, &["stand", "die:1"]);
    assert_eq!(settled_class(&s, 2), HandClass::Sabacc(3));
    assert_eq!(round_winners(&s), vec![0]);
    // With Cook the Books, 3/3 is first and Pure last: seat 2 wins.
    let mut s = load_file("cook_and_prime.json");
    play(&mut s, &["token:cook-the-books", "stand"]);
    assert_eq!(s.pending(), Pending::ImpostorDie { family: Family::Blood, dice: [3, 5] });
    play(&mut s, &["die:1"]);
    assert_eq!(round_winners(&s), vec![2]);
    assert_eq!(stocks(&s), vec![3, 2, 5]);
}

#[test]
fn example_embargo_wrap() {
    let mut s = load_file("embargo_wrap.json");
    play(&mut s, &["token:embargo", "stand"]);
    assert_eq!((s.turn(), s.current_player()), (2, Some(Seat(0))));
    assert_eq!(legal_names(&s), vec!["stand"], "Free Draw has no effect on an embargoed player");
}

#[test]
fn example_direct_transaction() {
    let mut s = load_file("direct_transaction.json");
    play(&mut s, &["token:direct-transaction"]);
    assert_eq!(legal_names(&s), vec!["target:+1"], "seat 2 is immune");
    play(&mut s, &["target:+1"]);
    assert_eq!(hand(&s, 0), ["S2", "B2"]);
    assert_eq!(hand(&s, 1), ["S1", "B6"]);
}

#[test]
fn example_impostor_reveal() {
    let mut s = load_file("impostor_reveal.json");
    let mut t = s.clone();
    play(&mut s, &["stand"]);
    assert_eq!(s.pending(), Pending::ImpostorDie { family: Family::Sand, dice: [2, 4] });
    play(&mut s, &["die:2"]);
    // 4/4 beats 5/5: seat 0 takes its pot of 2 back, seat 1 loses its pot and pays 1.
    assert_eq!(round_winners(&s), vec![0]);
    assert_eq!(stocks(&s), vec![5, 3]);
    // Major Fraud makes the Impostor a 6: 6/4 (d = 2) loses to 5/5.
    play(&mut t, &["token:major-fraud", "stand"]);
    assert_eq!(round_winners(&t), vec![1]);
    assert!(!t.events().iter().any(|e| matches!(e, Event::DiceRolled { .. })));
}

#[test]
fn example_rebuild_draw_pile() {
    let mut s = load_file("rebuild_draw_pile.json");
    assert_eq!(s.draw_pile(Family::Sand).len(), 0);
    play(&mut s, &["draw:sand-deck"]);
    assert_eq!(discard(&s, Family::Sand), vec!["S5"]);
    assert_eq!(s.draw_pile(Family::Sand).len(), 18);
}

#[test]
fn an_unknown_key_with_a_newline_still_gives_a_one_line_error() {
    // Regression: the key is echoed in serde's message; a raw newline broke the one-line rule.
    let mut v = base();
    v["players"][0]["a\nb"] = json!(1);
    expect_err(v, "players[0].a\\nb: unknown field");
}
