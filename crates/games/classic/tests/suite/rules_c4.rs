//! C4: winning a hand — folds, totals and bombing out, the winner, sudden demise, special hands,
//! the sabacc pot and penalties.

use crate::common;

use classic::{Card, CardKind, Event, Hand, HandClass, HandEnd, Pending, Pot, RuleConfig, State};
use common::*;
use game::Seat;
use serde_json::{Value, json};

/// A hand from card names, copies of face cards handed out in order.
pub fn mk(names: &[&str]) -> Hand {
    let mut h = Hand::default();
    for n in names {
        let k = CardKind::parse(n).unwrap();
        let c = (0..k.copies()).map(|i| Card::of(k, i).unwrap()).find(|c| !h.contains(*c)).unwrap();
        h.push(c);
    }
    h
}

/// Every card not named in `placed`, by name (for an `out` list that leaves the deck as given).
pub fn all_but(placed: &[&str]) -> Vec<String> {
    let mut left: Vec<String> = placed.iter().map(|s| CardKind::parse(s).unwrap().name()).collect();
    let mut out = vec![];
    for c in Card::all() {
        let n = c.name();
        if let Some(i) = left.iter().position(|x| *x == n) {
            left.remove(i);
        } else {
            out.push(n);
        }
    }
    out
}

/// Three players with 90 credits, hand pot 6, a call pending from `caller` during `turn`'s turn
/// (dealer `dealer`, round 3).
fn call3(hands: [&[&str]; 3], dealer: u8, turn: u8, caller: u8, extra: Value) -> State {
    let mut v = json!({
        "config": {"players": 3},
        "dealer": dealer, "round": 3, "turn": turn, "decision": "call", "actor": caller,
        "players": [seat(hands[0], 90), seat(hands[1], 90), seat(hands[2], 90)],
        "hand_pot": 6
    });
    for (k, x) in extra.as_object().unwrap() {
        v[k] = x.clone();
    }
    load(v)
}

// ------------------------------------------------------------------------------------------
// C4.1 Folds

#[test]
fn c4_1_when_all_but_one_fold_the_last_player_takes_the_hand_pot_at_once() {
    let mut s = State::new(RuleConfig::with_players(3), 0).unwrap();
    let from = s.events().len();
    play(&mut s, &["bet:2", "fold", "fold"]);
    let r = s.last_result().unwrap();
    assert_eq!(r.end, HandEnd::Folds { winner: Seat(1) });
    assert_eq!(r.hand_pot, 5);
    assert_eq!(r.seats[1].unwrap().hand_pot_won, 5);
    assert_eq!(r.seats[1].unwrap().credits_after, 100 - 2 - 2 + 5);
    assert!(r.sabacc_pot_winners.is_empty());
    let ev = events_since(&s, from);
    assert!(!ev.iter().any(|e| matches!(e, Event::Revealed { .. } | Event::Penalty { .. } | Event::DieRolled { .. })));
    assert!(ev.contains(&Event::PotWon { seat: Seat(1), pot: Pot::Hand, amount: 5 }));
}

#[test]
fn choice_a_fold_that_leaves_one_player_ends_the_hand_before_the_roll() {
    let mut s = State::new(RuleConfig::with_players(2), 0).unwrap();
    play(&mut s, &["fold"]);
    assert_eq!(s.last_result().unwrap().end, HandEnd::Folds { winner: Seat(0) });
    assert!(!s.events().iter().any(|e| matches!(e, Event::DieRolled { .. })));
}

// ------------------------------------------------------------------------------------------
// C4.2 Totals and bombing out

#[test]
fn c4_2_totals_above_23_below_minus_23_or_exactly_0_bomb_out() {
    let s = State::new(RuleConfig::default(), 0).unwrap();
    let cases: [(&[&str], i16, HandClass); 8] = [
        (&["sa12", "st12"], 24, HandClass::Bombed),
        (&["sa11", "st12"], 23, HandClass::PureSabacc),
        (&["sa15", "st7"], 22, HandClass::Normal),
        (&["sa1", "st1"], 2, HandClass::Normal),
        (&["idiot", "queen", "sa2"], 0, HandClass::Bombed),
        (&["star", "sa6"], -11, HandClass::Normal),
        (&["star", "moderation", "sa8"], -23, HandClass::Normal),
        (&["star", "moderation", "sa7"], -24, HandClass::Bombed),
    ];
    for (names, total, class) in cases {
        let h = mk(names);
        assert_eq!(h.total(&s.config().face_values), total, "{names:?}");
        assert_eq!(s.classify(&h), class, "{names:?}");
    }
}

// ------------------------------------------------------------------------------------------
// C4.3 The winner

#[test]
fn c4_3_the_highest_total_of_23_or_less_wins_the_hand_pot() {
    let mut s = call3([&["sa10", "st10"], &["fl11", "co11"], &["sa12", "st13"]], 2, 0, 1, json!({}));
    let sabacc = s.sabacc_pot();
    play(&mut s, &["call"]);
    let r = s.last_result().unwrap();
    assert_eq!(r.hand_pot_winners, [Seat(1)].into_iter().collect());
    assert_eq!(result_seat(&s, 1).hand_pot_won, 6);
    assert_eq!(result_seat(&s, 1).credits_after, 96);
    assert_eq!(result_seat(&s, 2).class, HandClass::Bombed);
    assert_eq!(result_seat(&s, 2).penalty_paid, 6);
    assert_eq!(result_seat(&s, 0).credits_after, 90);
    // The sabacc pot carries over (C4.6), grown by the penalty; no sabacc ante follows.
    assert_eq!(s.sabacc_pot(), sabacc + 6);
}

#[test]
fn c4_3_a_negative_total_is_legal_and_ranks_below_every_positive_one() {
    // -5 and -11 lose to 1.
    let mut s = call3([&["endurance", "sa3"], &["balance", "sa12"], &["st4", "evil-one"]], 2, 0, 1, json!({}));
    play(&mut s, &["call"]);
    assert_eq!(s.last_result().unwrap().hand_pot_winners, [Seat(1)].into_iter().collect());
    // Between negatives the higher wins: -3 beats -10.
    let mut s = call3([&["endurance", "sa5"], &["demise", "sa3"], &["sa12", "st12"]], 2, 0, 1, json!({}));
    play(&mut s, &["call"]);
    assert_eq!(s.last_result().unwrap().hand_pot_winners, [Seat(0)].into_iter().collect());
    assert_eq!(result_seat(&s, 1).penalty_owed, 6, "the losing caller pays");
}

#[test]
fn c4_3_sudden_demise_deals_from_the_dealers_left_and_the_best_new_total_wins() {
    // Dealer 0: seat 2 is served before seat 0.
    let mut s =
        call3([&["sa10", "st10"], &["sa1", "st1"], &["fl10", "co10"]], 0, 1, 2, json!({"deck": ["co1", "fl2"]}));
    let from = s.events().len();
    play(&mut s, &["call"]);
    let r = *s.last_result().unwrap();
    assert_eq!(r.demise, [Seat(0), Seat(2)].into_iter().collect());
    assert_eq!(result_seat(&s, 2).demise_card.unwrap().name(), "coins-1");
    assert_eq!(result_seat(&s, 0).demise_card.unwrap().name(), "flasks-2");
    assert_eq!(r.hand_pot_winners, [Seat(0)].into_iter().collect());
    let demise: Vec<(u8, i16)> = events_since(&s, from)
        .iter()
        .filter_map(|e| if let Event::DemiseCard { seat, total, .. } = e { Some((seat.0, *total)) } else { None })
        .collect();
    assert_eq!(demise, vec![(2, 21), (0, 22)]);
    assert_eq!(result_seat(&s, 2).penalty_owed, 6, "the caller lost the demise");
}

#[test]
fn c4_3_a_hand_that_bombs_in_the_sudden_demise_loses_and_pays_no_penalty() {
    let mut s =
        call3([&["sa10", "st10"], &["sa1", "st1"], &["fl10", "co10"]], 0, 1, 0, json!({"deck": ["co5", "fl1"]}));
    play(&mut s, &["call"]);
    assert_eq!(s.last_result().unwrap().hand_pot_winners, [Seat(0)].into_iter().collect());
    assert_eq!(result_seat(&s, 2).demise_total, Some(25));
    assert_eq!(result_seat(&s, 2).penalty_owed, 0);
}

#[test]
fn c4_3_sudden_demise_split_gives_remainder_to_first_from_dealer_left() {
    let mut s = call3(
        [&["sa10", "st10"], &["sa1", "st1"], &["fl10", "co10"]],
        0,
        1,
        0,
        json!({"deck": ["co1", "fl1"], "hand_pot": 7}),
    );
    play(&mut s, &["call"]);
    let r = s.last_result().unwrap();
    assert_eq!(r.hand_pot_winners, [Seat(0), Seat(2)].into_iter().collect());
    // Dealer 0: seat 2 is the first from the dealer's left, though seat 0 has the lower number.
    assert_eq!(result_seat(&s, 2).hand_pot_won, 4);
    assert_eq!(result_seat(&s, 0).hand_pot_won, 3);
    assert_eq!(result_seat(&s, 0).penalty_owed, 0, "a caller with a share pays nothing");
}

#[test]
fn c4_3_when_every_demise_hand_bombs_the_tied_players_split() {
    let mut s = call3(
        [&["sa10", "st10"], &["sa1", "st1"], &["fl10", "co10"]],
        0,
        0,
        1,
        json!({"deck": ["co5", "fl9"], "hand_pot": 7}),
    );
    play(&mut s, &["call"]);
    assert_eq!(result_seat(&s, 2).hand_pot_won, 4);
    assert_eq!(result_seat(&s, 0).hand_pot_won, 3);
    assert_eq!((result_seat(&s, 0).penalty_owed, result_seat(&s, 2).penalty_owed), (0, 0));
    assert_eq!(result_seat(&s, 1).penalty_owed, 7, "the caller won nothing");
}

#[test]
fn c4_3_with_fewer_deck_cards_than_tied_players_none_is_dealt_and_they_split() {
    let placed = ["sa10", "st10", "sa1", "st1", "fl10", "co10", "co1"];
    let mut s = call3(
        [&["sa10", "st10"], &["sa1", "st1"], &["fl10", "co10"]],
        0,
        0,
        1,
        json!({"deck": ["co1"], "out": all_but(&placed), "hand_pot": 7}),
    );
    assert_eq!(s.deck().len(), 1);
    let from = s.events().len();
    play(&mut s, &["call"]);
    assert!(!events_since(&s, from).iter().any(|e| matches!(e, Event::DemiseCard { .. })));
    assert!(s.last_result().unwrap().demise.is_empty());
    assert_eq!((result_seat(&s, 2).hand_pot_won, result_seat(&s, 0).hand_pot_won), (4, 3));
}

#[test]
fn c4_3_when_every_hand_bombs_the_hand_pot_goes_to_the_sabacc_pot() {
    let mut s = call3([&["sa12", "st12"], &["fl15", "co15"], &["idiot", "idiot"]], 2, 0, 1, json!({}));
    let sabacc = s.sabacc_pot();
    let from = s.events().len();
    play(&mut s, &["call"]);
    let r = s.last_result().unwrap();
    assert!(r.all_bombed && r.hand_pot_winners.is_empty());
    assert!(events_since(&s, from).contains(&Event::HandPotToSabacc { amount: 6 }));
    // Then every bomb pays 6, and the caller 6 more (C4.5).
    assert_eq!(result_seat(&s, 1).penalty_paid, 12);
    assert_eq!(s.sabacc_pot(), sabacc + 6 + 6 + 12 + 6);
}

// ------------------------------------------------------------------------------------------
// C4.4 Special hands

#[test]
fn c4_4_pure_sabacc_wins_the_sabacc_pot_and_the_hand_pot() {
    let mut s = call3([&["sa10", "st10"], &["sa11", "st12"], &["sa13", "st13"]], 2, 0, 2, json!({}));
    let sabacc = s.sabacc_pot();
    play(&mut s, &["call"]);
    let r = s.last_result().unwrap();
    assert_eq!(result_seat(&s, 1).class, HandClass::PureSabacc);
    assert_eq!(r.sabacc_pot_winners, [Seat(1)].into_iter().collect());
    assert_eq!(r.hand_pot_winners, [Seat(1)].into_iter().collect());
    assert_eq!(result_seat(&s, 1).sabacc_pot_won, sabacc);
    assert_eq!(result_seat(&s, 1).credits_after, 90 + 6 + sabacc);
    // Penalties come after the award: the bomb and the caller's refill the empty pot.
    assert_eq!(result_seat(&s, 2).penalty_paid, 12);
    assert_eq!(s.sabacc_pot(), 12);
}

#[test]
fn c4_4_idiots_array_wins_both_pots_and_beats_pure_sabacc() {
    let mut s = call3([&["idiot", "sa2", "st3"], &["sa11", "st12"], &["sa10", "st10"]], 2, 0, 1, json!({}));
    let sabacc = s.sabacc_pot();
    play(&mut s, &["call"]);
    assert_eq!(result_seat(&s, 0).class, HandClass::IdiotsArray);
    assert_eq!(result_seat(&s, 0).total, 5, "its literal total is 0 + 2 + 3");
    assert_eq!((result_seat(&s, 0).hand_pot_won, result_seat(&s, 0).sabacc_pot_won), (6, sabacc));
    assert_eq!(result_seat(&s, 1).penalty_owed, 6, "the Pure Sabacc caller lost");
}

#[test]
fn c4_4_idiots_array_needs_exactly_three_cards() {
    let s = State::new(RuleConfig::default(), 0).unwrap();
    assert_eq!(s.classify(&mk(&["idiot", "sa2", "st3"])), HandClass::IdiotsArray);
    assert_eq!(s.classify(&mk(&["st3", "idiot", "co2"])), HandClass::IdiotsArray, "in any order");
    assert_eq!(s.classify(&mk(&["idiot", "sa2", "st3", "co1"])), HandClass::Normal);
    assert_eq!(s.classify(&mk(&["idiot", "sa2", "st4"])), HandClass::Normal);
    let mut s = call3([&["idiot", "sa2", "st3", "co1"], &["sa10", "st10"], &["fl1", "fl2"]], 2, 0, 1, json!({}));
    play(&mut s, &["call"]);
    assert_eq!(s.last_result().unwrap().hand_pot_winners, [Seat(1)].into_iter().collect());
}

#[test]
fn c4_4_equal_special_hands_go_to_a_sudden_demise_whose_winner_takes_both_pots() {
    let mut s =
        call3([&["sa11", "st12"], &["sa1", "st1"], &["fl11", "co12"]], 0, 0, 1, json!({"deck": ["queen", "co1"]}));
    let sabacc = s.sabacc_pot();
    play(&mut s, &["call"]);
    // Seat 2 (first from the dealer's left) gets the Queen: 21; seat 0 gets a 1: 24, bombed.
    assert_eq!(result_seat(&s, 2).demise_total, Some(21));
    assert_eq!(result_seat(&s, 0).demise_total, Some(24));
    assert_eq!((result_seat(&s, 2).hand_pot_won, result_seat(&s, 2).sabacc_pot_won), (6, sabacc));
    assert_eq!(result_seat(&s, 0).penalty_owed, 0);
    // Two Idiot's Arrays likewise.
    let mut s = call3(
        [&["idiot", "sa2", "sa3"], &["co1", "st1"], &["idiot", "st2", "st3"]],
        0,
        0,
        1,
        json!({"deck": ["co9", "fl8"]}),
    );
    play(&mut s, &["call"]);
    assert_eq!(s.last_result().unwrap().demise, [Seat(0), Seat(2)].into_iter().collect());
    assert_eq!(s.last_result().unwrap().sabacc_pot_winners, [Seat(2)].into_iter().collect(), "5 + 9 beats 5 + 8");
}

#[test]
fn c4_4_a_demise_card_never_makes_a_special_hand() {
    let mut s =
        call3([&["sa10", "st10"], &["sa1", "st1"], &["fl10", "co10"]], 0, 0, 1, json!({"deck": ["sa3", "co2"]}));
    let sabacc = s.sabacc_pot();
    play(&mut s, &["call"]);
    assert_eq!(result_seat(&s, 2).demise_total, Some(23));
    let r = s.last_result().unwrap();
    assert_eq!(r.hand_pot_winners, [Seat(2)].into_iter().collect());
    assert!(r.sabacc_pot_winners.is_empty(), "23 in a demise is a total, not a Pure Sabacc");
    assert_eq!(s.sabacc_pot(), sabacc + 6, "only the losing caller's penalty went in");
}

// ------------------------------------------------------------------------------------------
// C4.5 Penalties

#[test]
fn c4_5_every_bombed_player_pays_the_hand_pot_to_the_sabacc_pot() {
    let mut s = call3([&["sa12", "st12"], &["sa10", "st10"], &["fl13", "co14"]], 2, 0, 1, json!({"hand_pot": 9}));
    let sabacc = s.sabacc_pot();
    play(&mut s, &["call"]);
    assert_eq!((result_seat(&s, 0).penalty_paid, result_seat(&s, 2).penalty_paid), (9, 9));
    assert_eq!(result_seat(&s, 1).penalty_owed, 0);
    assert_eq!(s.sabacc_pot(), sabacc + 18);
}

#[test]
fn c4_5_a_losing_caller_pays_the_penalty_in_addition_to_a_bomb_penalty() {
    // The caller bombed: two penalties.
    let mut s = call3([&["sa10", "st10"], &["sa12", "st12"], &["fl1", "co1"]], 2, 0, 1, json!({}));
    play(&mut s, &["call"]);
    assert_eq!(result_seat(&s, 1).penalty_paid, 12);
    // The caller did not bomb but lost: one penalty.
    let mut s = call3([&["sa10", "st10"], &["sa9", "st9"], &["fl1", "co1"]], 2, 0, 1, json!({}));
    play(&mut s, &["call"]);
    assert_eq!(result_seat(&s, 1).penalty_paid, 6);
    assert_eq!(result_seat(&s, 2).penalty_paid, 0);
}

#[test]
fn c4_5_a_caller_who_wins_pays_nothing() {
    let mut s = call3([&["sa10", "st10"], &["sa11", "st11"], &["fl1", "co1"]], 2, 0, 1, json!({}));
    play(&mut s, &["call"]);
    assert_eq!(result_seat(&s, 1).penalty_owed, 0);
    assert_eq!(result_seat(&s, 1).credits_after, 96);
}

#[test]
fn c4_5_a_player_who_cannot_pay_in_full_pays_all_they_hold() {
    let mut s = load(json!({
        "config": {"players": 3}, "dealer": 2, "round": 3, "turn": 0, "decision": "call", "actor": 1,
        "players": [seat(&["sa10", "st10"], 90), seat(&["sa12", "st12"], 4), seat(&["fl1", "co1"], 90)],
        "hand_pot": 6
    }));
    let sabacc = s.sabacc_pot();
    play(&mut s, &["call"]);
    assert_eq!((result_seat(&s, 1).penalty_owed, result_seat(&s, 1).penalty_paid), (12, 4));
    assert_eq!(result_seat(&s, 1).credits_after, 0);
    assert_eq!(s.sabacc_pot(), sabacc + 4);
    assert!(s.events().contains(&Event::Left { seat: Seat(1) }), "and leaves at 0 credits (C5.1)");
}

#[test]
fn c4_5_an_automatic_call_has_no_caller_and_no_caller_penalty() {
    let mut s = load(json!({
        "config": {"players": 3, "max_rounds_per_hand": 3}, "dealer": 2, "round": 3, "turn": 2,
        "decision": "draw", "die": 6,
        "players": [seat(&["sa10", "st10"], 90), seat(&["sa9", "st9"], 90), seat(&["fl12", "co12"], 90)],
        "hand_pot": 6
    }));
    play(&mut s, &["pass"]);
    let r = s.last_result().unwrap();
    assert_eq!(r.end, HandEnd::AutoCall);
    assert_eq!(r.hand_pot_winners, [Seat(0)].into_iter().collect());
    assert_eq!(result_seat(&s, 1).penalty_owed, 0);
    assert_eq!(result_seat(&s, 2).penalty_owed, 6, "bombs still pay");
}

// ------------------------------------------------------------------------------------------
// C4.6 After the hand

#[test]
fn c4_6_the_sabacc_pot_carries_over_and_the_deal_passes() {
    let mut s = call3([&["sa10", "st10"], &["sa9", "st9"], &["fl1", "co1"]], 2, 1, 0, json!({}));
    let sabacc = s.sabacc_pot();
    play(&mut s, &["call"]);
    assert_eq!(s.hand_number(), 2);
    assert_eq!(s.dealer(), Seat(0));
    assert_eq!(s.sabacc_pot(), sabacc, "no special hand: the sabacc pot stays, with no new ante");
    assert_eq!(s.hand_pot(), 3);
    assert_eq!(s.pending(), Pending::Bet);
}
