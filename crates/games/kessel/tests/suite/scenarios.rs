//! The JSON scenario loader: malformed files give a one-line error naming the field, the example
//! files in `crates/games/kessel/scenarios/` load and play as documented in `docs/scenarios.md`.

use crate::common;

use common::*;
use game::Seat;
use kessel::{Event, Family, HandClass, Pending, Scenario, State};
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
fn malformed_card_counts_45_cards_duplicate_sylop() {
    // A fourth S1 (45 cards).
    let mut v = base();
    v["sand_discard"] = json!(["S6", "S1", "S1", "S1"]);
    expect_err(v, "sand_discard[3]: `S1` appears more often than the deck's 3 copies");
    // Two Sand Sylops.
    let mut v = base();
    v["players"][0]["hand"][0] = json!("SY");
    v["players"][1]["hand"][0] = json!("SY");
    expect_err(v, "players[1].hand[0]: `SY` appears more often than the deck's 1 copy");
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

/// A draw pile may be given by its top cards only: they lie on top in the listed order and the
/// family's remaining cards go below them, shuffled by the seed.
#[test]
fn a_draw_pile_given_by_its_top_cards_gets_the_rest_below() {
    let mut v = base();
    v["sand_draw"] = json!(["SY", "S4", "SI"]);
    let s = load(v.clone());
    let pile = draw(&s, kessel::Family::Sand);
    assert_eq!(pile.len(), 22 - 2 - 1, "all Sand cards not in hands or the discard pile");
    assert_eq!(pile[..3], ["SY", "S4", "SI"]);
    // The rest follows the seed: the same scenario gives the same pile, another seed another.
    assert_eq!(draw(&load(v.clone()), kessel::Family::Sand), pile);
    v["seed"] = json!(99);
    let other = draw(&load(v), kessel::Family::Sand);
    assert_eq!(other[..3], ["SY", "S4", "SI"]);
    assert_ne!(other, pile);
}

/// A three-seat position in turn 2 whose seats' history this round is given.
fn with_history() -> Value {
    json!({
        "config": {"players": 3, "token_assignment": "none"},
        "turn": 2,
        "actor": 2,
        "all_stood_this_turn": false,
        "players": [
            {"hand": ["S1", "B1"], "stock": 4, "pot": 1, "turns": ["stand", "draw:sand-deck"], "spent": ["markdown"], "round_tokens": ["markdown"]},
            {"hand": ["S2", "B2"], "stock": 5, "turns": ["forced-stand", "stand"]},
            {"hand": ["S3", "B3"], "stock": 4, "pot": 1, "turns": ["draw:blood-discard"], "spent": ["embargo"], "round_tokens": ["embargo"]}
        ],
        "effects": {"markdown": true},
        "sand_discard": ["S6"],
        "blood_discard": ["B6"]
    })
}

/// The turn history and round tokens of a scenario reach the state and every seat's view, so an
/// observation of a loaded position shows them (K7: Stand/Draw and tokens played are public).
#[test]
fn a_loaded_position_shows_its_turn_history_in_every_view() {
    use kessel::state::TurnAction;
    use kessel::{LastAction, Source, Token};
    let s = load(with_history());
    let want = [
        [TurnAction::Stand { forced: false }, TurnAction::Draw(Source::SandDeck), TurnAction::None],
        [TurnAction::Stand { forced: true }, TurnAction::Stand { forced: false }, TurnAction::None],
        [TurnAction::Draw(Source::BloodDiscard), TurnAction::None, TurnAction::None],
    ];
    for viewer in 0..3 {
        let v = s.view(Seat(viewer));
        for (i, w) in want.iter().enumerate() {
            assert_eq!(v.seats[i].turn_actions, *w, "viewer {viewer}, seat {i}");
        }
        assert!(v.seats[0].round_tokens.contains(Token::Markdown));
        assert!(v.seats[2].round_tokens.contains(Token::Embargo));
        assert!(v.seats[1].round_tokens.is_empty());
    }
    // `last_action` and `stood_turn` follow from the history when not given.
    assert_eq!((s.player(Seat(0)).last_action, s.player(Seat(0)).stood_turn), (LastAction::Draw, 1));
    assert_eq!((s.player(Seat(1)).last_action, s.player(Seat(1)).stood_turn), (LastAction::Stand, 2));
    assert_eq!((s.player(Seat(2)).last_action, s.player(Seat(2)).stood_turn), (LastAction::Draw, 0));
}

#[test]
fn inconsistent_history_gets_a_named_error() {
    // A seat that already acted this turn lists one action too few.
    let mut v = with_history();
    v["players"][1]["turns"] = json!(["stand"]);
    expect_err(v, "players[1].turns: lists 1 actions, but this seat has acted in 2 turns");
    // A history entry that is no Stand/Draw.
    let mut v = with_history();
    v["players"][2]["turns"] = json!(["token:embargo"]);
    expect_err(v, "players[2].turns[0]: `token:embargo` is not `stand`");
    // `last_action` contradicting the history.
    let mut v = with_history();
    v["players"][0]["last_action"] = json!("stand");
    expect_err(v, "players[0].last_action: `stand` contradicts players[0].turns");
    // A token played this round that is not spent.
    let mut v = with_history();
    v["players"][1]["round_tokens"] = json!(["refund"]);
    expect_err(v, "players[1].round_tokens: ");
}

#[test]
fn all_stood_this_turn_contradicting_the_turn_position_is_named() {
    // True although a seat that already acted this turn drew.
    let mut v = with_history();
    v["all_stood_this_turn"] = json!(true);
    expect_err(v, "all_stood_this_turn: is true, but seat 0 already drew in turn 2");
    // False although nobody has acted yet this turn (the actor is the starter).
    let mut v = base();
    v["all_stood_this_turn"] = json!(false);
    expect_err(v, "all_stood_this_turn: is false, but no seat has acted yet in turn 1");
    // False although every seat that acted this turn stood.
    let mut v = base();
    v["actor"] = json!(1);
    v["players"][0]["last_action"] = json!("stand");
    v["players"][0]["stood_turn"] = json!(1);
    v["all_stood_this_turn"] = json!(false);
    expect_err(v, "all_stood_this_turn: is false, but every seat that acted this turn stood");
}

#[test]
fn last_action_contradicting_the_turn_position_is_named() {
    // A seat yet to act this turn cannot have stood in it.
    let mut v = base();
    v["players"][1]["last_action"] = json!("stand");
    v["players"][1]["stood_turn"] = json!(1);
    expect_err(v, "players[1].stood_turn: the seat has not acted yet in turn 1");
    // `none` with a stand turn.
    let mut v = base();
    v["turn"] = json!(2);
    v["players"][1]["stood_turn"] = json!(1);
    expect_err(v, "players[1].last_action: `none` contradicts stood_turn 1");
    // A draw in the turn in which it stood.
    let mut v = base();
    v["actor"] = json!(1);
    v["all_stood_this_turn"] = json!(false);
    v["players"][0]["last_action"] = json!("draw");
    v["players"][0]["stood_turn"] = json!(1);
    expect_err(v, "players[0].last_action: `draw` contradicts a stand in this turn (1)");
}

#[test]
fn embargo_on_a_seat_that_does_not_act_next_is_named() {
    let mut v = base();
    v["actor"] = json!(1);
    v["effects"] = json!({"embargoed": [0]});
    expect_err(v, "effects.embargoed: seat 0 cannot be under Embargo while seat 1 acts");
    let mut v = base();
    v["effects"] = json!({"embargoed": 0});
    v["decision"] = json!({"decision": "keep", "drawn": "S3", "source": "sand-deck"});
    expect_err(v, "effects.embargoed: seat 0 is under Embargo and cannot have drawn");
}

/// A position written back as a scenario (`Scenario::from_state`) loads to the same position:
/// every seat's view is unchanged, the hidden cards and piles too, after actions have been played.
#[test]
fn a_position_written_back_as_a_scenario_loads_to_the_same_position() {
    let mut s = load(with_history());
    play(&mut s, &["draw:sand-deck"]);
    for state in [load(with_history()), s.clone(), load_file("embargo_wrap.json")] {
        let sc = Scenario::from_state(&state, 5).expect("an act or keep decision");
        let text = serde_json::to_string(&sc).unwrap();
        let back = Scenario::from_json(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        // Copies of a card kind are interchangeable, so the positions are compared by name.
        assert_eq!(Scenario::from_state(&back, 5).as_ref(), Some(&sc), "{text}");
        for v in 0..state.num_players() {
            let (a, b) = (back.view(Seat(v)), state.view(Seat(v)));
            for i in 0..state.num_players() as usize {
                assert_eq!(a.seats[i].turn_actions, b.seats[i].turn_actions);
                assert_eq!(a.seats[i].round_tokens, b.seats[i].round_tokens);
                assert_eq!((a.seats[i].stock, a.seats[i].pot), (b.seats[i].stock, b.seats[i].pot));
            }
            assert_eq!(back.legal_actions(), state.legal_actions());
        }
        for f in [Family::Sand, Family::Blood] {
            assert_eq!(draw(&back, f), draw(&state, f));
        }
    }
    // JSON uses names and lists, not ids and bitmasks.
    let v: Value = serde_json::to_value(Scenario::from_state(&s, 0).unwrap()).unwrap();
    assert_eq!(v["players"][0]["hand"], json!(["S1", "B1"]));
    assert_eq!(v["players"][1]["turns"], json!(["forced-stand", "stand"]));
    assert_eq!(v["decision"]["decision"], json!("keep"));
}
