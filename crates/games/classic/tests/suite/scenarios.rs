//! The scenario format: the example files, and errors that name the offending field.

use crate::common;

use classic::{Event, HandClass, Pending, Scenario};
use common::*;
use game::Seat;
use serde_json::{Value, json};

fn example(name: &str) -> String {
    let path = format!("{}/scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn load_file(name: &str) -> classic::State {
    Scenario::from_json(&example(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn example_idiots_array_call() {
    let mut s = load_file("idiots_array_call.json");
    assert_eq!((s.pending(), actor(&s)), (Pending::Call, 1));
    play(&mut s, &["call"]);
    assert_eq!(result_seat(&s, 1).class, HandClass::IdiotsArray);
    assert_eq!((result_seat(&s, 1).hand_pot_won, result_seat(&s, 1).sabacc_pot_won), (15, 30));
}

#[test]
fn example_sudden_demise() {
    let mut s = load_file("sudden_demise.json");
    play(&mut s, &["call"]);
    // Dealer 0: seat 2 takes the top card (sabres-1, 21), seat 0 the next (flasks-2, 22).
    assert_eq!(s.last_result().unwrap().hand_pot_winners, [Seat(0)].into_iter().collect());
}

#[test]
fn example_raise_at_the_cap() {
    let s = load_file("raise_at_the_cap.json");
    assert_eq!(s.betting().cap, 4);
    assert_eq!(legal(&s), vec!["fold", "match", "raise:1", "raise:2"]);
}

#[test]
fn example_exchange_drop() {
    let mut s = load_file("exchange_drop.json");
    assert_eq!(legal(&s), vec!["drop:0", "drop:1", "drop:2"]);
    play(&mut s, &["drop:2"]);
    assert_eq!(hand(&s, 0), vec!["sabres-12", "coins-3", "flasks-15"]);
}

#[test]
fn example_folded_turn_shift() {
    let mut s = load_file("folded_turn_shift.json");
    let from = s.events().len();
    play(&mut s, &["fold", "stay", "stay"]);
    assert!(events_since(&s, from).contains(&Event::DieRolled { seat: Seat(0), value: 2 }));
    assert!(s.player(Seat(1)).shift.is_some() && s.player(Seat(0)).shift.is_none());
}

fn base() -> Value {
    json!({
        "config": {"players": 3},
        "dealer": 2, "round": 3, "turn": 0,
        "players": [seat(&["sa1", "sa2"], 90), seat(&["sa3", "sa4"], 90), seat(&["sa5", "sa6"], 90)],
        "hand_pot": 6, "sabacc_pot": 24
    })
}

fn with(patch: Value) -> Value {
    let mut v = base();
    for (k, x) in patch.as_object().unwrap() {
        v[k] = x.clone();
    }
    v
}

fn player(i: usize, patch: Value) -> Value {
    let mut v = base();
    for (k, x) in patch.as_object().unwrap() {
        v["players"][i][k] = x.clone();
    }
    v
}

#[test]
fn scenario_errors_name_the_field() {
    let cases: Vec<(Value, &str)> = vec![
        (with(json!({"colour": 1})), "colour: unknown field `colour`"),
        (with(json!({"config": {"players": 4}})), "players: lists 3 seats but config.players is 4"),
        (with(json!({"config": {"players": 9}})), "config.players: 9 is out of range 2..=8"),
        (with(json!({"config": {"players": 3, "bet_limit": 0}})), "config.bet_limit: 0 is out of range 1..=10"),
        (with(json!({"config": {"players": 3, "colour": 0}})), "config.colour: unknown field `colour`"),
        (player(0, json!({"hand": ["sa1", "sabres-16"]})), "players[0].hand[1]: `sabres-16` is not a card name"),
        (
            player(1, json!({"hand": ["sa3", "sa1"]})),
            "players[1].hand[1]: `sa1` appears more often than the deck's 1 copy",
        ),
        (
            with(json!({"out": ["idiot", "idiot", "the-idiot"]})),
            "out[2]: `the-idiot` appears more often than the deck's 2 copies",
        ),
        (with(json!({"deck": ["sa6"]})), "deck[0]: `sa6` appears more often"),
        (
            with(json!({"sabacc_pot": 23})),
            "credits: players' credits + hand_pot + sabacc_pot = 299, but config.players × config.starting_credits = 300",
        ),
        (player(1, json!({"hand": ["sa3"]})), "players[1].hand: 1 cards; allowed 2..=12"),
        (player(1, json!({"folded": true})), "players[1].hand: a folded player's cards are out of play"),
        (player(1, json!({"left": true})), "players[1].left: a player who left holds no credits"),
        (player(0, json!({"credits": -1})), "players[0].credits: invalid value: integer `-1`"),
        (with(json!({"dealer": 5})), "dealer: seat 5 is not at a table of 3"),
        (with(json!({"hand": 0})), "hand: 0 is outside 1..=100"),
        (with(json!({"round": 11})), "round: 11 is outside 1..=10"),
        (with(json!({"round": 1, "decision": "call"})), "decision: calls are not open in round 1"),
        (with(json!({"decision": "call", "actor": 0})), "actor: the turn player never calls on their own turn"),
        (with(json!({"decision": "draw", "actor": 1})), "actor: seat 1 decides, but it is seat 0's turn"),
        (with(json!({"decision": "answer"})), "betting.waiting: an answer needs at least one player waiting"),
        (
            with(json!({"decision": "answer", "betting": {"to_match": 2, "waiting": [1]}})),
            "betting.waiting: seat 0 has not matched yet",
        ),
        (
            with(json!({"decision": "answer", "betting": {"to_match": 2, "waiting": [7]}})),
            "betting.waiting[0]: seat 7 is not at a table of 3",
        ),
        (with(json!({"betting": {"to_match": 1}})), "betting: nothing is bet, raised or waiting"),
        (
            with(json!({"decision": "answer", "betting": {"to_match": 200, "waiting": [1, 2]}})),
            "betting.to_match: 200 is above the stakes cap 90",
        ),
        (
            with(json!({"decision": "answer", "betting": {"to_match": 1, "raises": 4, "waiting": [1, 2]}})),
            "betting.raises: 4 is above config.raises_per_phase 3",
        ),
        (player(0, json!({"contributed": 1})), "players[0].contributed: 1 is above betting.to_match 0"),
        (
            with(json!({"decision": "draw", "betting": {"to_match": 1}})),
            "betting: after the betting phase nobody is waiting",
        ),
        (with(json!({"die": 7})), "die: 7 is not a die value 1–6"),
        (with(json!({"die": 3})), "die: the die is rolled after the betting phase"),
        (with(json!({"dice": [1, 7]})), "dice: dice must be 1–6"),
        (player(0, json!({"folded": true, "hand": []})), "turn: seat 0 has folded"),
        (
            with(
                json!({"players": [{"credits": 90, "folded": true}, {"credits": 90, "folded": true}, {"hand": ["sa5", "sa6"], "credits": 90}]}),
            ),
            "players: at least two players must still be in the hand",
        ),
        (
            with(json!({"decision": "drop"})),
            "players[0].hand: 2 cards; allowed 3..=13 (the drawn card of the exchange last)",
        ),
        (json!("a string"), "scenario: invalid type: string"),
    ];
    for (v, want) in cases {
        let got = load_err(v.clone());
        assert!(got.starts_with(want), "got `{got}`, want `{want}…` for {v}");
        assert!(!got.contains('\n'));
    }
}

#[test]
fn a_scenario_places_every_card_exactly_once() {
    let s = load(base());
    let mut all: Vec<u8> = s.deck().as_slice().iter().map(|c| c.id()).collect();
    for i in 0..3 {
        all.extend(s.player(Seat(i)).hand.as_slice().iter().map(|c| c.id()));
    }
    all.sort();
    assert_eq!(all, (0..76).collect::<Vec<u8>>());
    // The listed top of the deck comes first, the rest is shuffled by the seed.
    let a = load(with(json!({"deck": ["co1", "idiot"], "seed": 1})));
    let b = load(with(json!({"deck": ["co1", "idiot"], "seed": 2})));
    let top = |s: &classic::State| s.deck().as_slice().iter().rev().take(2).map(|c| c.name()).collect::<Vec<_>>();
    assert_eq!(top(&a), vec!["coins-1", "idiot"]);
    assert_eq!(top(&b), vec!["coins-1", "idiot"]);
    assert_ne!(a.deck(), b.deck());
}

#[test]
fn scenario_loading_never_panics_on_mangled_input() {
    let text = example("raise_at_the_cap.json");
    let bytes = text.as_bytes();
    let mut x = 0x9E37_79B9u64;
    let mut loaded = 0;
    for _ in 0..3000 {
        let mut b = bytes.to_vec();
        for _ in 0..3 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let i = (x as usize) % b.len();
            match x >> 60 {
                0..=5 => b[i] = b"0123456789-\"[]{},:ax"[(x >> 40) as usize % 20],
                6..=10 => {
                    b.remove(i);
                }
                _ => b.insert(i, b"19\"-"[(x >> 40) as usize % 4]),
            }
        }
        if let Ok(t) = std::str::from_utf8(&b)
            && Scenario::from_json(t).is_ok()
        {
            loaded += 1;
        }
    }
    assert!(loaded < 3000);
}

#[test]
fn the_minimal_scenario_in_the_rules_document_loads() {
    let path = format!("{}/../../../docs/rules-classic.md", env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(&path).unwrap();
    let start = doc.find("A minimal scenario").unwrap();
    let body = &doc[start..];
    let open = body.find("```json").unwrap() + "```json".len();
    let close = open + body[open..].find("```").unwrap();
    let s = Scenario::from_json(&body[open..close]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((s.pending(), actor(&s)), (Pending::Bet, 0));
}
