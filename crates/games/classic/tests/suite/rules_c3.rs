//! C3: the phases of a turn — betting with the stakes cap, folding, shifting, calling, drawing.

use crate::common;

use classic::{Event, Pending, RuleConfig, State};
use common::*;
use game::Seat;
use serde_json::{Value, json};

/// Three players, dealer 2, seat 0's turn in `round` (round 3 opens calls at three seats).
fn three(hands: [&[&str]; 3], credits: [u32; 3], round: u16, extra: Value) -> State {
    let mut v = json!({
        "config": {"players": 3},
        "dealer": 2, "round": round, "turn": 0,
        "players": [seat(hands[0], credits[0]), seat(hands[1], credits[1]), seat(hands[2], credits[2])],
        "hand_pot": 6
    });
    for (k, x) in extra.as_object().unwrap() {
        if k == "config" {
            for (ck, cx) in x.as_object().unwrap() {
                v["config"][ck] = cx.clone();
            }
        } else {
            v[k] = x.clone();
        }
    }
    load(v)
}

const H0: &[&str] = &["sa1", "sa2"];
const H1: &[&str] = &["st3", "st4"];
const H2: &[&str] = &["fl5", "fl6"];

// ------------------------------------------------------------------------------------------
// C3.1 Betting

#[test]
fn c3_1_the_turn_player_checks_bets_1_to_3_or_folds() {
    let s = State::new(RuleConfig::with_players(4), 0).unwrap();
    assert_eq!(s.pending(), Pending::Bet);
    assert_eq!(legal(&s), vec!["check", "bet:1", "bet:2", "bet:3", "fold"]);
}

#[test]
fn c3_1_after_a_bet_players_answer_in_seat_order_from_the_bettors_left() {
    let mut s = State::new(RuleConfig::with_players(4), 0).unwrap();
    play(&mut s, &["bet:2"]);
    let mut order = vec![];
    while s.pending() == Pending::Answer {
        order.push(actor(&s));
        assert_eq!(legal(&s), vec!["fold", "match", "raise:1", "raise:2", "raise:3"]);
        play(&mut s, &["match"]);
    }
    assert_eq!(order, vec![2, 3, 0]);
    assert_eq!(s.hand_pot(), 4 + 8);
    assert_eq!(credits(&s), vec![96; 4]);
}

#[test]
fn c3_1_a_raise_sends_the_action_round_until_everyone_has_matched() {
    let mut s = State::new(RuleConfig::with_players(4), 0).unwrap();
    play(&mut s, &["bet:1", "raise:2"]);
    assert_eq!(s.betting().to_match, 3);
    let mut order = vec![];
    while s.pending() == Pending::Answer {
        order.push(actor(&s));
        play(&mut s, &["match"]);
    }
    assert_eq!(order, vec![3, 0, 1], "round to the bettor, who must match the raise too");
    assert!(s.events().iter().any(|e| matches!(e, Event::DieRolled { seat: Seat(1), .. })));
    assert_eq!(s.hand_pot(), 4 + 12);
}

#[test]
fn c3_1_at_most_three_raises_per_betting_phase_the_opening_bet_not_counted() {
    let mut s = State::new(RuleConfig::with_players(4), 0).unwrap();
    play(&mut s, &["bet:1", "raise:1", "raise:1", "raise:1"]);
    assert_eq!(s.betting().raises, 3);
    assert_eq!(actor(&s), 1);
    assert_eq!(legal(&s), vec!["fold", "match"]);
    play(&mut s, &["match", "match", "match"]);
    assert_ne!(s.pending(), Pending::Answer);
}

#[test]
fn c3_1_only_the_turn_player_bets_but_any_player_may_raise_the_turn_player_too() {
    let mut s = State::new(RuleConfig::with_players(3), 0).unwrap();
    play(&mut s, &["bet:1"]);
    assert!(legal(&s).iter().all(|a| !a.starts_with("bet:")));
    play(&mut s, &["raise:1"]); // seat 2
    play(&mut s, &["match"]); // seat 0
    assert_eq!(actor(&s), 1);
    assert!(is_legal(&s, "raise:3"), "the turn player may re-raise when the action comes back");
    play(&mut s, &["raise:3"]);
    assert_eq!(s.betting().to_match, 5);
}

#[test]
fn c3_1_with_no_bet_each_other_player_stays_or_folds_from_the_turn_players_left() {
    let mut s = State::new(RuleConfig::with_players(4), 0).unwrap();
    play(&mut s, &["check"]);
    let mut order = vec![];
    while s.pending() == Pending::Answer {
        order.push(actor(&s));
        assert_eq!(legal(&s), vec!["fold", "stay"]);
        play(&mut s, &["stay"]);
    }
    assert_eq!(order, vec![2, 3, 0]);
}

// ------------------------------------------------------------------------------------------
// C3.2 Stakes

#[test]
fn c3_2_bet_cannot_exceed_smallest_stack() {
    let s = three([H0, H1, H2], [50, 2, 50], 1, json!({}));
    assert_eq!(s.betting().cap, 2);
    assert_eq!(legal(&s), vec!["check", "bet:1", "bet:2", "fold"]);
}

#[test]
fn c3_2_a_raise_cannot_take_the_amount_to_match_above_the_smallest_stack() {
    let mut s = three([H0, H1, H2], [50, 50, 3], 1, json!({}));
    play(&mut s, &["bet:2"]);
    assert_eq!(legal(&s), vec!["fold", "match", "raise:1"]);
    play(&mut s, &["raise:1", "match"]);
    assert_eq!(s.betting().to_match, 3);
    assert_eq!(credits(&s), vec![48, 47, 0]);
    assert_eq!(legal(&s), vec!["fold", "match"], "at the cap no more raises");
}

#[test]
fn c3_2_the_cap_counts_only_players_still_in_who_hold_a_credit() {
    // Seat 1 holds nothing, seat 2 has folded with 1 credit: the cap is seat 0's own 40.
    let s = load(json!({
        "config": {"players": 4},
        "dealer": 3, "turn": 0,
        "players": [seat(H0, 40), seat(H1, 0), {"credits": 1, "folded": true}, seat(&["sa7", "sa8"], 60)],
        "hand_pot": 6, "out": ["sa5", "sa6"]
    }));
    assert_eq!(s.betting().cap, 40);
    assert!(is_legal(&s, "bet:3"));
}

#[test]
fn c3_2_a_player_with_no_credits_stays_while_no_bet_stands_and_folds_free_facing_one() {
    let mut s = three([H0, H1, H2], [50, 0, 50], 1, json!({}));
    play(&mut s, &["check"]);
    assert_eq!((actor(&s), legal(&s)), (1, vec!["fold".to_string(), "stay".to_string()]));
    let mut t = three([H0, H1, H2], [50, 0, 50], 1, json!({}));
    play(&mut t, &["bet:1"]);
    assert_eq!((actor(&t), legal(&t)), (1, vec!["fold".to_string()]));
    let pot = t.sabacc_pot();
    play(&mut t, &["fold"]);
    assert_eq!(t.sabacc_pot(), pot, "the fold costs nothing at 0 credits");
    assert!(t.events().contains(&Event::Folded { seat: Seat(1), paid: 0 }));
}

// ------------------------------------------------------------------------------------------
// C3.3 Folding

#[test]
fn c3_3_folding_costs_one_credit_to_the_sabacc_pot_and_the_cards_go_out_of_play() {
    let mut s = State::new(RuleConfig::with_players(4), 0).unwrap();
    play(&mut s, &["bet:3"]);
    let (pot, sabacc) = (s.hand_pot(), s.sabacc_pot());
    let cards = s.player(Seat(2)).hand;
    play(&mut s, &["fold"]);
    assert_eq!(s.player(Seat(2)).credits, 97);
    assert_eq!(s.sabacc_pot(), sabacc + 1);
    assert_eq!(s.hand_pot(), pot, "contributions stay in the hand pot");
    assert!(s.player(Seat(2)).hand.is_empty());
    for c in cards.as_slice() {
        assert!(s.out_of_play().contains(*c));
    }
    // A bettor's contribution stays too when they fold later.
    play(&mut s, &["raise:1", "match", "fold"]); // seats 3, 0, then the bettor, seat 1
    assert_eq!(s.hand_pot(), pot + 8);
    assert!(s.player(Seat(1)).folded);
}

#[test]
fn c3_3_a_player_may_fold_only_in_the_betting_phase() {
    let mut s = three([H0, H1, H2], [90, 90, 90], 3, json!({"dice": [5]}));
    play(&mut s, &["check", "stay", "stay"]);
    assert_eq!(s.pending(), Pending::Call);
    assert!(!is_legal(&s, "fold"));
    play(&mut s, &["decline-call", "decline-call"]);
    assert_eq!(s.pending(), Pending::Draw);
    assert!(!is_legal(&s, "fold"));
}

// ------------------------------------------------------------------------------------------
// C3.4 Shifting

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

#[test]
fn c3_4_a_roll_of_1_to_3_shifts_one_card_of_each_player_still_in() {
    for (die, seed) in [(1u8, 0u64), (2, 1), (3, 2), (1, 3), (2, 4), (3, 5)] {
        let mut s = three(
            [&["sa1", "sa2", "sa3"], &["st1", "st2"], &["fl1", "fl2", "fl3", "fl4"]],
            [90, 90, 90],
            1,
            json!({"dice": [die], "seed": seed}),
        );
        let before: Vec<Vec<String>> = (0..3).map(|i| hand(&s, i)).collect();
        let from = s.events().len();
        play(&mut s, &["check", "stay", "stay"]);
        let mut pooled_before = vec![];
        let mut pooled_after = vec![];
        for i in 0..3u8 {
            let after = hand(&s, i);
            assert_eq!(after.len(), before[i as usize].len(), "the hand keeps its size");
            let swap = s.player(Seat(i)).shift.expect("took part");
            assert_eq!(after.last().unwrap(), &swap.got.name(), "the new card goes last");
            let mut kept = before[i as usize].clone();
            let k = kept.iter().position(|c| *c == swap.lost.name()).expect("lost one of its own cards");
            kept.remove(k);
            assert_eq!(&after[..after.len() - 1], &kept[..], "the other cards keep their order");
            pooled_before.push(swap.lost.name());
            pooled_after.push(swap.got.name());
        }
        assert_eq!(sorted(pooled_before), sorted(pooled_after), "the taken cards are handed back out");
        let ev = events_since(&s, from);
        assert!(ev.iter().any(|e| matches!(e, Event::Shifted { .. })));
    }
}

#[test]
fn c3_4_a_player_can_get_their_own_card_back_and_every_player_can_get_any_card() {
    let mut got_own = false;
    let mut got_other = false;
    for seed in 0..60 {
        let mut s = three([H0, H1, H2], [90, 90, 90], 1, json!({"dice": [1], "seed": seed}));
        play(&mut s, &["check", "stay", "stay"]);
        let sw = s.player(Seat(0)).shift.unwrap();
        if sw.lost == sw.got {
            got_own = true;
        } else {
            got_other = true;
        }
    }
    assert!(got_own && got_other);
}

#[test]
fn c3_4_a_roll_of_4_to_6_shifts_nothing() {
    for die in [4u8, 5, 6] {
        let mut s = three([H0, H1, H2], [90, 90, 90], 1, json!({"dice": [die]}));
        play(&mut s, &["check", "stay", "stay"]);
        assert_eq!(hand(&s, 0), vec!["sabres-1", "sabres-2"]);
        assert_eq!(hand(&s, 1), vec!["staves-3", "staves-4"]);
        assert!(!s.events().iter().any(|e| matches!(e, Event::Shifted { .. })));
        assert_eq!(s.die(), Some(die));
    }
}

// ------------------------------------------------------------------------------------------
// C3.5 Calling

/// Round and turn seat of the first calling decision of a game played quietly.
fn first_call(players: u8, min_turns: Option<u8>) -> (u16, u8, u8) {
    let cfg = RuleConfig { min_turns_before_call: min_turns, ..RuleConfig::with_players(players) };
    let mut s = State::new(cfg, 3).unwrap();
    quiet_until(&mut s, |s| s.pending() == Pending::Call);
    for i in 0..players {
        assert!(s.player(Seat(i)).completed_turns >= cfg.effective_min_turns_before_call());
    }
    (s.round(), s.turn_seat().0, actor(&s))
}

#[test]
fn c3_5_calls_only_after_everyones_first_turn_the_dealer_included() {
    // Four seats: dealer 0 takes the last turn of round 1; the first call comes in seat 1's
    // second turn, offered first to seat 2.
    assert_eq!(first_call(4, None), (2, 1, 2));
    assert_eq!(first_call(8, None), (2, 1, 2));
}

#[test]
fn c3_5_with_two_or_three_players_calls_wait_for_two_turns_each() {
    assert_eq!(first_call(3, None), (3, 1, 2));
    assert_eq!(first_call(2, None), (3, 1, 0));
    assert_eq!(RuleConfig::with_players(3).effective_min_turns_before_call(), 2);
    assert_eq!(RuleConfig::with_players(4).effective_min_turns_before_call(), 1);
}

/// Four seats of which two have left the game (dealer 0; seat 1's turn comes first in each
/// round), in `round` with `decision` pending.
fn two_left_of_four(round: u16, decision: &str, min_turns: Value) -> Value {
    let left = json!({"hand": [], "credits": 0, "left": true});
    json!({
        "config": {"players": 4, "min_turns_before_call": min_turns},
        "dealer": 0, "round": round, "turn": 1, "decision": decision,
        "players": [seat(H0, 150), seat(H1, 150), left.clone(), left],
        "hand_pot": 6, "dice": [6, 6, 6], "die": if decision == "bet" { Value::Null } else { json!(6) }
    })
}

/// C3.5's default follows the table's seats (`players` in the config, Choice 23): a four-seat
/// game that two players have left still opens calls after one turn each, where a two-seat
/// table waits for two. A number set in the config applies as it is.
#[test]
fn c3_5_the_default_turns_before_a_call_follow_the_tables_seats_also_once_players_have_left() {
    assert_eq!(RuleConfig::with_players(4).effective_min_turns_before_call(), 1);
    assert_eq!(RuleConfig::with_players(2).effective_min_turns_before_call(), 2);

    // Round 2, seat 1 to play: both players still in the game have completed one turn. The
    // table has four seats, so calls are open and seat 0 is asked.
    let mut s = load(two_left_of_four(2, "bet", Value::Null));
    assert_eq!(s.hand_players().len(), 2);
    assert!(s.calls_open());
    play(&mut s, &["check", "stay"]);
    assert_eq!((s.pending(), actor(&s)), (Pending::Call, 0));

    // The same position at a two-seat table waits for round 3.
    let two_seats = json!({
        "config": {"players": 2}, "dealer": 0, "round": 2, "turn": 1,
        "players": [seat(H0, 150), seat(H1, 44)], "hand_pot": 6, "dice": [6]
    });
    let mut s = load(two_seats);
    assert!(!s.calls_open());
    play(&mut s, &["check", "stay"]);
    assert_eq!((s.pending(), actor(&s)), (Pending::Draw, 1), "no call is offered in round 2");

    // A number in the config is used as it is.
    let s = load(two_left_of_four(2, "bet", json!(2)));
    assert!(!s.calls_open());
    let mut refused = two_left_of_four(2, "call", json!(2));
    balance(&mut refused);
    let e = load_err(refused);
    assert!(e.contains("every seat must first complete 2 turn(s)"), "{e}");
}

#[test]
fn c3_5_calls_are_asked_from_the_turn_players_left_never_of_the_turn_player() {
    let mut s = load(json!({
        "config": {"players": 4},
        "dealer": 3, "round": 2, "turn": 1,
        "players": [seat(H0, 90), seat(H1, 90), seat(H2, 90), seat(&["sa7", "sa8"], 90)],
        "hand_pot": 10, "dice": [6]
    }));
    play(&mut s, &["check", "stay", "stay", "stay"]);
    let mut asked = vec![];
    while s.pending() == Pending::Call {
        asked.push(actor(&s));
        play(&mut s, &["decline-call"]);
    }
    assert_eq!(asked, vec![2, 3, 0]);
    assert_eq!((s.pending(), actor(&s)), (Pending::Draw, 1));
}

#[test]
fn c3_5_the_first_to_call_ends_the_hand_at_once() {
    let mut s = three([H0, H1, H2], [90, 90, 90], 3, json!({"dice": [6]}));
    play(&mut s, &["check", "stay", "stay", "decline-call"]);
    let from = s.events().len();
    play(&mut s, &["call"]);
    let ev = events_since(&s, from);
    assert_eq!(ev[0], Event::Called { seat: Seat(2) });
    assert!(matches!(ev[1], Event::Revealed { .. }));
    assert_eq!(s.hand_number(), 2);
}

#[test]
fn c3_5_a_player_with_no_credits_may_not_call() {
    let s = three([H0, H1, H2], [90, 0, 90], 3, json!({"decision": "call"}));
    assert_eq!(actor(&s), 2, "seat 1 holds nothing and is not asked");
    let e = load_err(json!({
        "config": {"players": 3}, "dealer": 2, "round": 3, "turn": 0, "decision": "call", "actor": 1,
        "players": [seat(H0, 90), seat(H1, 0), seat(H2, 90)], "hand_pot": 6, "sabacc_pot": 114
    }));
    assert!(e.starts_with("actor:"), "{e}");
}

// ------------------------------------------------------------------------------------------
// C3.6 Drawing

fn at_draw(hand0: &[&str], extra: Value) -> State {
    let mut v = json!({"decision": "draw", "die": 6, "deck": ["co9", "co10"]});
    for (k, x) in extra.as_object().unwrap() {
        v[k] = x.clone();
    }
    three([hand0, H1, H2], [90, 90, 90], 1, v)
}

#[test]
fn c3_6_a_draw_takes_the_top_card_and_adds_it_last() {
    let mut s = at_draw(H0, json!({}));
    assert_eq!(legal(&s), vec!["pass", "draw"], "no exchange with two cards");
    let from = s.events().len();
    play(&mut s, &["draw"]);
    assert_eq!(hand(&s, 0), vec!["sabres-1", "sabres-2", "coins-9"]);
    assert_eq!(
        events_since(&s, from)[0],
        Event::Drew { seat: Seat(0), exchange: false, card: Some(s.player(Seat(0)).hand.last().unwrap()) }
    );
}

#[test]
fn c3_6_exchange_drops_a_card_held_before_the_draw() {
    let mut s = at_draw(&["sa1", "sa2", "sa3"], json!({}));
    assert_eq!(legal(&s), vec!["pass", "draw", "exchange"]);
    play(&mut s, &["exchange"]);
    assert_eq!(s.pending(), Pending::Drop);
    assert_eq!(hand(&s, 0), vec!["sabres-1", "sabres-2", "sabres-3", "coins-9"]);
    assert_eq!(legal(&s), vec!["drop:0", "drop:1", "drop:2"], "not the drawn card");
    refuse(&mut s, "drop:3");
    play(&mut s, &["drop:1"]);
    assert_eq!(hand(&s, 0), vec!["sabres-1", "sabres-3", "coins-9"]);
    assert_eq!(s.out_of_play().names(), vec!["sabres-2"]);
    assert_eq!(s.pending(), Pending::Bet, "the turn is over");
}

#[test]
fn c3_6_no_draw_to_add_at_max_hand_size_but_exchange_stays() {
    let s = at_draw(&["sa1", "sa2", "sa3"], json!({"config": {"players": 3, "max_hand_size": 3}}));
    assert_eq!(legal(&s), vec!["pass", "exchange"]);
    let s =
        at_draw(&["sa1", "sa2", "sa3", "sa4", "sa5", "sa6", "sa7", "sa8", "sa9", "sa10", "sa11", "sa12"], json!({}));
    assert_eq!(legal(&s), vec!["pass", "exchange"], "the default cap is 12");
}

#[test]
fn c3_6_no_draw_with_an_empty_deck() {
    let placed = ["sabres-1", "sabres-2", "sabres-3", "staves-3", "staves-4", "flasks-5", "flasks-6"];
    let out: Vec<String> = classic::Card::all().map(|c| c.name()).filter(|n| !placed.contains(&n.as_str())).collect();
    // The two copies of a face card share a name, listed once per copy.
    let s = at_draw(&["sa1", "sa2", "sa3"], json!({"deck": [], "out": out}));
    assert!(s.deck().is_empty());
    assert_eq!(legal(&s), vec!["pass"]);
}

// ------------------------------------------------------------------------------------------
// Choices where CLASSIC.md is silent

#[test]
fn choice_the_cap_stays_as_it_was_when_the_phase_began() {
    // Seat 1's 2 credits set the cap; its fold does not lift it.
    let mut s = three([H0, H1, H2], [50, 2, 50], 1, json!({}));
    play(&mut s, &["bet:1", "fold"]);
    assert_eq!(s.betting().cap, 2);
    assert_eq!(legal(&s), vec!["fold", "match", "raise:1"]);
}

#[test]
fn choice_with_no_credit_among_the_players_still_in_nobody_can_bet() {
    let s = load(json!({
        "config": {"players": 3}, "dealer": 2, "turn": 0,
        "players": [seat(H0, 0), seat(H1, 0), {"credits": 50, "folded": true}],
        "hand_pot": 6, "out": ["fl5", "fl6"]
    }));
    assert_eq!(s.betting().cap, 0);
    assert_eq!(legal(&s), vec!["check", "fold"]);
}

#[test]
fn choice_a_turn_player_who_folds_to_a_raise_still_rolls_but_does_not_draw() {
    let mut s = three([H0, H1, H2], [90, 90, 90], 3, json!({"dice": [6]}));
    play(&mut s, &["bet:1", "raise:2", "match", "fold"]);
    assert!(s.turn_folded());
    assert!(s.events().contains(&Event::DieRolled { seat: Seat(0), value: 6 }));
    assert_eq!(s.pending(), Pending::Call);
    play(&mut s, &["decline-call", "decline-call"]);
    assert_eq!((s.pending(), s.turn_seat()), (Pending::Bet, Seat(1)));
}
