//! C9: every configurable alternative, and the engine's choices where CLASSIC.md is silent
//! (`choice_*`, listed in docs/rules-classic.md).

use crate::common;

use classic::config::{
    AllBombed, CallerPenalty, DealerAnte, ExchangeDrop, IdiotsArrayPots, IdiotsArrayShape, Stakes, Totals,
};
use classic::{Card, CardKind, Event, Face, Hand, HandClass, Pending, RuleConfig, State};
use common::*;
use game::Seat;
use serde_json::{Value, json};

fn mk(names: &[&str]) -> Hand {
    let mut h = Hand::default();
    for n in names {
        let k = CardKind::parse(n).unwrap();
        let c = (0..k.copies()).map(|i| Card::of(k, i).unwrap()).find(|c| !h.contains(*c)).unwrap();
        h.push(c);
    }
    h
}

/// Three players with 90 credits, hand pot 6, dealer 0, seat 0's own turn (so seats 1 and 2
/// may call), round 3, a call pending from `caller`, under `config`.
fn call3(hands: [&[&str]; 3], caller: u8, config: Value, extra: Value) -> State {
    let mut cfg = json!({"players": 3});
    for (k, x) in config.as_object().unwrap() {
        cfg[k] = x.clone();
    }
    let mut v = json!({
        "config": cfg, "dealer": 0, "round": 3, "turn": 0, "decision": "call", "actor": caller,
        "players": [seat(hands[0], 90), seat(hands[1], 90), seat(hands[2], 90)],
        "hand_pot": 6
    });
    for (k, x) in extra.as_object().unwrap() {
        v[k] = x.clone();
    }
    load(v)
}

#[test]
fn c9_defaults_are_the_bold_choices() {
    let c = RuleConfig::default();
    assert_eq!(c.face_values, [0, -2, -8, -11, -13, -14, -15, -17]);
    assert_eq!((c.starting_credits, c.bet_limit, c.raises_per_phase), (100, 3, 3));
    assert_eq!((c.max_rounds_per_hand, c.max_hand_size, c.hand_limit, c.players), (10, 12, 100, 4));
    assert_eq!(c.dealer_ante, DealerAnte::Antes);
    assert_eq!(c.stakes, Stakes::SmallestStack);
    assert_eq!(c.min_turns_before_call, None);
    assert_eq!(c.totals, Totals::Highest);
    assert_eq!((c.idiots_array, c.idiots_array_pots), (IdiotsArrayShape::ExactlyThree, IdiotsArrayPots::Both));
    assert_eq!(c.exchange, ExchangeDrop::HeldBeforeDraw);
    assert_eq!(c.caller_penalty, CallerPenalty::InAddition);
    assert_eq!(c.all_bombed, AllBombed::ToSabaccPot);
    assert!(c.validate().is_ok());
}

#[test]
fn c9_validation_names_the_field_and_its_range() {
    let d = RuleConfig::default();
    let cases = [
        (RuleConfig { players: 9, ..d }, "players: 9 is out of range 2..=8"),
        (RuleConfig { starting_credits: 5, ..d }, "starting_credits: 5 is out of range 10..=10000"),
        (RuleConfig { bet_limit: 0, ..d }, "bet_limit: 0 is out of range 1..=10"),
        (RuleConfig { bet_limit: 11, ..d }, "bet_limit: 11 is out of range 1..=10"),
        (RuleConfig { raises_per_phase: 21, ..d }, "raises_per_phase: 21 is out of range 0..=20"),
        (RuleConfig { max_rounds_per_hand: 0, ..d }, "max_rounds_per_hand: 0 is out of range 1..=1000"),
        (RuleConfig { max_hand_size: 2, ..d }, "max_hand_size: 2 is out of range 3..=14"),
        (RuleConfig { max_hand_size: 15, ..d }, "max_hand_size: 15 is out of range 3..=14"),
        (RuleConfig { hand_limit: 0, ..d }, "hand_limit: 0 is out of range 1..=1000000"),
    ];
    for (c, msg) in cases {
        assert_eq!(c.validate().unwrap_err().to_string(), msg);
    }
    let e = RuleConfig { min_turns_before_call: Some(0), ..d }.validate().unwrap_err();
    assert!(e.to_string().starts_with("min_turns_before_call: 0 is out of range 1..=255"), "{e}");
    assert!(State::new(RuleConfig { max_hand_size: 2, ..d }, 0).is_err());
}

#[test]
fn c9_face_values_are_any_table_of_eight() {
    let mut values = [0i8; 8];
    values[Face::Star.index()] = -10;
    values[Face::Idiot.index()] = 7;
    let cfg = RuleConfig { face_values: values, ..Default::default() };
    let s = State::new(cfg, 0).unwrap();
    assert_eq!(mk(&["star", "sa12"]).total(&s.config().face_values), 2);
    // With the Idiot at 7 the array's literal total is 12; it is still an Idiot's Array.
    assert_eq!(mk(&["idiot", "sa2", "st3"]).total(&s.config().face_values), 12);
    assert_eq!(s.classify(&mk(&["idiot", "sa2", "st3"])), HandClass::IdiotsArray);
    let mut t = call3(
        [&["star", "sa12"], &["sa1", "st2"], &["fl1", "co1"]],
        1,
        json!({"face_values": [0, -2, -8, -11, -13, -14, -15, -10]}),
        json!({}),
    );
    play(&mut t, &["call"]);
    assert_eq!(result_seat(&t, 0).total, 2);
    assert_eq!(t.last_result().unwrap().hand_pot_winners, [Seat(1)].into_iter().collect());
}

#[test]
fn c9_starting_credits_bet_limit_and_raises_per_phase() {
    let cfg = RuleConfig { starting_credits: 10_000, bet_limit: 5, raises_per_phase: 0, ..RuleConfig::with_players(2) };
    let mut s = State::new(cfg, 0).unwrap();
    assert_eq!(credits(&s), vec![9_998, 9_998]);
    assert_eq!(legal(&s), vec!["check", "bet:1", "bet:2", "bet:3", "bet:4", "bet:5", "fold"]);
    play(&mut s, &["bet:5"]);
    assert_eq!(legal(&s), vec!["fold", "match"], "no raises at all");
    let cfg = RuleConfig { bet_limit: 1, raises_per_phase: 5, ..RuleConfig::with_players(2) };
    let mut s = State::new(cfg, 0).unwrap();
    assert_eq!(legal(&s), vec!["check", "bet:1", "fold"]);
    play(&mut s, &["bet:1", "raise:1", "raise:1", "raise:1", "raise:1", "raise:1"]);
    assert_eq!(s.betting().raises, 5);
    assert_eq!(legal(&s), vec!["fold", "match"]);
}

#[test]
fn c9_the_dealer_may_be_exempt_from_the_hand_pot_ante() {
    let cfg = RuleConfig { dealer_ante: DealerAnte::Exempt, ..RuleConfig::with_players(4) };
    let s = State::new(cfg, 0).unwrap();
    assert_eq!(credits(&s), vec![99, 98, 98, 98]);
    assert_eq!((s.hand_pot(), s.sabacc_pot()), (3, 4));
}

#[test]
fn choice_the_exempt_dealer_still_antes_to_an_empty_sabacc_pot() {
    let cfg = RuleConfig { dealer_ante: DealerAnte::Exempt, ..RuleConfig::with_players(3) };
    let s = State::new(cfg, 0).unwrap();
    assert!(s.events().contains(&Event::Ante { seat: Seat(0), hand_pot: 0, sabacc_pot: 1 }));
}

#[test]
fn c9_without_a_cap_a_player_who_cannot_match_must_fold() {
    let v = json!({
        "config": {"players": 3, "stakes": "no-cap"}, "dealer": 2, "turn": 0,
        "players": [seat(&["sa1", "sa2"], 50), seat(&["sa3", "sa4"], 2), seat(&["sa5", "sa6"], 4)],
        "hand_pot": 6
    });
    let mut s = load(v);
    assert_eq!(s.betting().cap, u32::MAX);
    assert!(is_legal(&s, "bet:3"), "above the smallest stack");
    play(&mut s, &["bet:3"]);
    assert_eq!((actor(&s), legal(&s)), (1, vec!["fold".to_string()]));
    play(&mut s, &["fold"]);
    assert_eq!(s.player(Seat(1)).credits, 1, "the fold still costs a credit");
    assert_eq!(legal(&s), vec!["fold", "match", "raise:1"], "a raise is paid from one's own credits");
}

#[test]
fn c9_min_turns_before_call_any_number_from_1() {
    for (min, round) in [(1u8, 2u16), (3, 4)] {
        let cfg = RuleConfig { min_turns_before_call: Some(min), ..RuleConfig::with_players(3) };
        let mut s = State::new(cfg, 1).unwrap();
        quiet_until(&mut s, |s| s.pending() == Pending::Call);
        assert_eq!(s.round(), round);
    }
}

#[test]
fn c9_closest_to_23_in_absolute_value_and_minus_23_is_a_pure_sabacc() {
    let cfg = json!({"totals": "closest-absolute"});
    // -22 beats 21.
    let mut s = call3([&["moderation", "endurance"], &["sa10", "st11"], &["fl1", "co1"]], 1, cfg.clone(), json!({}));
    play(&mut s, &["call"]);
    assert_eq!(s.last_result().unwrap().hand_pot_winners, [Seat(0)].into_iter().collect());
    // -23 is a Pure Sabacc and takes the sabacc pot.
    let mut s = call3([&["balance", "demise", "co1"], &["sa10", "st11"], &["fl1", "fl2"]], 1, cfg.clone(), json!({}));
    let sabacc = s.sabacc_pot();
    play(&mut s, &["call"]);
    assert_eq!(result_seat(&s, 0).class, HandClass::PureSabacc);
    assert_eq!(result_seat(&s, 0).sabacc_pot_won, sabacc);
    // +22 and -22 tie: a sudden demise (seat 1 is served first from dealer 0's left).
    let mut s = call3(
        [&["sa1", "st2"], &["moderation", "endurance"], &["sa10", "st12"]],
        1,
        cfg,
        json!({"deck": ["co1", "fl1"]}),
    );
    play(&mut s, &["call"]);
    assert_eq!(s.last_result().unwrap().demise, [Seat(1), Seat(2)].into_iter().collect());
    // Seat 1: -22 + 1 = -21; seat 2: 22 + 1 = 23: closer.
    assert_eq!(s.last_result().unwrap().hand_pot_winners, [Seat(2)].into_iter().collect());
}

#[test]
fn c9_idiots_array_may_be_any_hand_holding_the_three() {
    let cfg = RuleConfig { idiots_array: IdiotsArrayShape::AnyHand, ..Default::default() };
    let s = State::new(cfg, 0).unwrap();
    assert_eq!(s.classify(&mk(&["co10", "idiot", "sa2", "st3"])), HandClass::IdiotsArray);
    assert_eq!(s.classify(&mk(&["idiot", "sa2", "st4"])), HandClass::Normal);
}

#[test]
fn choice_an_idiots_array_never_bombs_out() {
    // Any-hand shape: Idiot, 2, 3, 15, 15 totals 35, yet is an array and pays nothing.
    let mut s = call3(
        [&["idiot", "sa2", "st3", "co15", "fl15"], &["sa10", "st11"], &["fl1", "co1"]],
        1,
        json!({"idiots_array": "any-hand"}),
        json!({}),
    );
    play(&mut s, &["call"]);
    assert_eq!(result_seat(&s, 0).class, HandClass::IdiotsArray);
    assert_eq!(result_seat(&s, 0).penalty_owed, 0);
    assert_eq!(s.last_result().unwrap().hand_pot_winners, [Seat(0)].into_iter().collect());
}

#[test]
fn c9_idiots_array_may_win_the_sabacc_pot_only_the_hand_pot_going_by_total() {
    let cfg = json!({"idiots_array_pots": "sabacc-pot-only"});
    let mut s = call3([&["idiot", "sa2", "st3"], &["sa10", "st10"], &["fl12", "co12"]], 1, cfg.clone(), json!({}));
    let sabacc = s.sabacc_pot();
    play(&mut s, &["call"]);
    assert_eq!((result_seat(&s, 0).sabacc_pot_won, result_seat(&s, 0).hand_pot_won), (sabacc, 0));
    assert_eq!(result_seat(&s, 1).hand_pot_won, 6);
    assert_eq!(result_seat(&s, 1).penalty_owed, 0, "the caller won the hand pot");
    // Its literal total 5 still takes the hand pot when nothing beats it.
    let mut s = call3([&["idiot", "sa2", "st3"], &["sa1", "st1"], &["fl12", "co12"]], 1, cfg, json!({}));
    play(&mut s, &["call"]);
    assert_eq!(result_seat(&s, 0).hand_pot_won, 6);
    assert_eq!(result_seat(&s, 1).penalty_owed, 6);
}

#[test]
fn choice_a_caller_who_wins_only_the_sabacc_pot_pays_no_caller_penalty() {
    let mut s = call3(
        [&["sa10", "st10"], &["idiot", "sa2", "st3"], &["fl1", "co1"]],
        1,
        json!({"idiots_array_pots": "sabacc-pot-only"}),
        json!({}),
    );
    play(&mut s, &["call"]);
    assert!(result_seat(&s, 1).sabacc_pot_won > 0);
    assert_eq!(result_seat(&s, 1).hand_pot_won, 0);
    assert_eq!(result_seat(&s, 1).penalty_owed, 0);
}

#[test]
fn choice_with_the_sabacc_pot_only_array_the_hand_pot_no_total_can_take_follows_the_all_bombed_rule() {
    // Every normal hand bombs, and the array's literal total (35) would bomb too.
    let mut s = call3(
        [&["idiot", "sa2", "st3", "co15", "fl15"], &["sa12", "st12"], &["fl13", "co13"]],
        1,
        json!({"idiots_array": "any-hand", "idiots_array_pots": "sabacc-pot-only"}),
        json!({}),
    );
    let sabacc = s.sabacc_pot();
    play(&mut s, &["call"]);
    let r = s.last_result().unwrap();
    assert!(r.all_bombed);
    assert_eq!(result_seat(&s, 0).sabacc_pot_won, sabacc, "the array takes the pot as it stood");
    // Then the hand pot (6) and the penalties (6 + 12 from the caller, 6 from seat 2) go in.
    assert_eq!(s.sabacc_pot(), 6 + 12 + 6);
}

#[test]
fn choice_one_sudden_demise_serves_both_contests() {
    // Sabacc pot only: seats 1 and 2 both hold an array (sabacc-pot contest) and, at 5, the best
    // totals too (hand-pot contest, with seat 0's 5). One card each, dealt from dealer 0's left.
    let mut s = call3(
        [&["sa1", "st4"], &["idiot", "sa2", "sa3"], &["idiot", "st2", "st3"]],
        1,
        json!({"idiots_array_pots": "sabacc-pot-only"}),
        json!({"deck": ["co4", "co9", "co6"]}),
    );
    let sabacc = s.sabacc_pot();
    play(&mut s, &["call"]);
    let r = s.last_result().unwrap();
    assert_eq!(r.demise.len(), 3);
    // Seat 1: 5 + 4 = 9, seat 2: 5 + 9 = 14, seat 0: 5 + 6 = 11.
    assert_eq!(r.sabacc_pot_winners, [Seat(2)].into_iter().collect());
    assert_eq!(r.hand_pot_winners, [Seat(2)].into_iter().collect());
    assert_eq!((result_seat(&s, 2).sabacc_pot_won, result_seat(&s, 2).hand_pot_won), (sabacc, 6));
    for seat in 0..3 {
        assert!(result_seat(&s, seat).demise_card.is_some());
    }
}

#[test]
fn choice_each_pot_is_split_on_its_own() {
    // Two Pure Sabaccs, both bomb in the demise: hand pot 7 and sabacc pot 5 are split apart,
    // each remainder to seat 1 (the first from dealer 0's left).
    let mut s = call3(
        [&["sa1", "st1"], &["sa11", "st12"], &["fl11", "co12"]],
        1,
        json!({}),
        json!({"deck": ["co9", "fl9"], "hand_pot": 7, "sabacc_pot": 5, "config": {"players": 3, "starting_credits": 94}}),
    );
    play(&mut s, &["call"]);
    assert_eq!((result_seat(&s, 1).hand_pot_won, result_seat(&s, 1).sabacc_pot_won), (4, 3));
    assert_eq!((result_seat(&s, 2).hand_pot_won, result_seat(&s, 2).sabacc_pot_won), (3, 2));
}

#[test]
fn c9_exchange_may_drop_any_card_the_drawn_one_included() {
    let v = json!({
        "config": {"players": 3, "exchange": "any-card"}, "dealer": 2, "turn": 0, "decision": "draw", "die": 6,
        "players": [seat(&["sa1", "sa2", "sa3"], 90), seat(&["sa4", "sa5"], 90), seat(&["sa6", "sa7"], 90)],
        "hand_pot": 6, "deck": ["co9"]
    });
    let mut s = load(v);
    play(&mut s, &["exchange"]);
    assert_eq!(legal(&s), vec!["drop:0", "drop:1", "drop:2", "drop:3"]);
    play(&mut s, &["drop:3"]);
    assert_eq!(hand(&s, 0), vec!["sabres-1", "sabres-2", "sabres-3"]);
    assert_eq!(s.out_of_play().names(), vec!["coins-9"]);
}

#[test]
fn c9_the_caller_penalty_may_be_paid_once() {
    let mut s =
        call3([&["sa10", "st10"], &["sa12", "st12"], &["fl1", "co1"]], 1, json!({"caller_penalty": "once"}), json!({}));
    play(&mut s, &["call"]);
    assert_eq!(result_seat(&s, 1).penalty_paid, 6);
    let mut s =
        call3([&["sa10", "st10"], &["sa9", "st9"], &["fl1", "co1"]], 1, json!({"caller_penalty": "once"}), json!({}));
    play(&mut s, &["call"]);
    assert_eq!(result_seat(&s, 1).penalty_paid, 6, "a losing caller who did not bomb pays once too");
}

#[test]
fn c9_when_every_hand_bombs_the_hand_pot_may_carry_to_the_next_hand() {
    let mut s = call3(
        [&["sa12", "st12"], &["fl15", "co15"], &["idiot", "idiot"]],
        1,
        json!({"all_bombed": "carry-over"}),
        json!({}),
    );
    let sabacc = s.sabacc_pot();
    play(&mut s, &["call"]);
    assert!(s.events().contains(&Event::HandPotCarried { amount: 6 }));
    assert_eq!(s.hand_pot(), 6 + 3, "carried, plus the new antes");
    assert_eq!(s.sabacc_pot(), sabacc + 6 + 12 + 6, "penalties only");
    // The next hand's winner takes it all.
    play(&mut s, &["bet:1", "fold", "fold"]);
    assert_eq!(s.last_result().unwrap().hand_pot, 10);
}
