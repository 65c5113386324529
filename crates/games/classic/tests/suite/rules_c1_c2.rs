//! C1 (components) and C2 (a hand: dealer, antes, deal, rounds of turns, ending).

use crate::common;

use classic::card::SUIT_CARDS;
use classic::config::DEFAULT_FACE_VALUES;
use classic::rng::GameRng;
use classic::{Card, CardKind, Event, Face, HandEnd, Pending, RuleConfig, State, Suit};
use common::*;
use game::Seat;
use serde_json::json;

fn all_cards(s: &State) -> Vec<Card> {
    let mut v: Vec<Card> = s.deck().as_slice().to_vec();
    v.extend_from_slice(s.out_of_play().as_slice());
    for i in 0..s.num_players() {
        v.extend_from_slice(s.player(Seat(i)).hand.as_slice());
    }
    v
}

// ------------------------------------------------------------------------------------------
// C1 Components

#[test]
fn c1_1_deck_has_76_cards_four_suits_of_15_and_two_of_each_face_kind() {
    let s = State::new(RuleConfig::with_players(4), 3).unwrap();
    let mut cards = all_cards(&s);
    assert_eq!(cards.len(), 76);
    cards.sort();
    cards.dedup();
    assert_eq!(cards.len(), 76);
    for suit in Suit::ALL {
        let mut ranks: Vec<u8> = cards
            .iter()
            .filter_map(|c| match c.kind() {
                CardKind::Suit { suit: x, rank } if x == suit => Some(rank),
                _ => None,
            })
            .collect();
        ranks.sort();
        assert_eq!(ranks, (1..=15).collect::<Vec<_>>(), "{suit:?}");
    }
    for f in Face::ALL {
        assert_eq!(cards.iter().filter(|c| c.face() == Some(f)).count(), 2, "{f:?}");
    }
    assert_eq!(cards.iter().filter(|c| c.face().is_some()).count(), 76 - SUIT_CARDS);
}

#[test]
fn c1_1_suit_cards_are_worth_their_rank_and_face_values_come_from_the_config() {
    assert_eq!(DEFAULT_FACE_VALUES, [0, -2, -8, -11, -13, -14, -15, -17]);
    assert_eq!(RuleConfig::default().face_values, DEFAULT_FACE_VALUES);
    let ace = Card::of(CardKind::parse("coins-ace").unwrap(), 0).unwrap();
    assert_eq!(ace.value(&DEFAULT_FACE_VALUES), 15);
    let star = Card::of(CardKind::Face(Face::Star), 1).unwrap();
    assert_eq!(star.value(&DEFAULT_FACE_VALUES), -17);
    let mut table = DEFAULT_FACE_VALUES;
    table[Face::Star.index()] = -10;
    assert_eq!(star.value(&table), -10);
}

#[test]
fn c1_2_two_to_eight_seats_numbered_clockwise() {
    for n in 2..=8u8 {
        let s = State::new(RuleConfig::with_players(n), 0).unwrap();
        assert_eq!(s.turn_seat(), Seat(1), "the dealer's left is the next seat");
    }
    for n in [0u8, 1, 9] {
        let e = State::new(RuleConfig::with_players(n), 0).unwrap_err();
        assert!(e.to_string().starts_with("players:"), "{e}");
    }
    assert_eq!(RuleConfig::default().players, 4);
}

#[test]
fn c1_3_every_player_starts_with_the_same_credits_default_100_range_10_to_10000() {
    assert_eq!(RuleConfig::default().starting_credits, 100);
    let s = State::new(RuleConfig { starting_credits: 10, ..RuleConfig::with_players(5) }, 0).unwrap();
    for i in 0..5 {
        assert_eq!(s.player(Seat(i)).hand_start_credits, 10);
    }
    assert_eq!(table_credits(&s), 50);
    for bad in [9u32, 10_001] {
        let e = RuleConfig { starting_credits: bad, ..Default::default() }.validate().unwrap_err();
        assert!(e.to_string().starts_with("starting_credits:"), "{e}");
    }
    assert!(RuleConfig { starting_credits: 10_000, ..Default::default() }.validate().is_ok());
}

#[test]
fn c1_3_credits_are_conserved_across_stacks_and_both_pots() {
    let mut s = State::new(RuleConfig::with_players(4), 11).unwrap();
    let total = table_credits(&s);
    assert_eq!(total, 400);
    let mut pick = 1u64;
    while !s.is_terminal() {
        let m = s.legal_mask();
        pick = pick.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        s.apply_index(m.nth_index((pick >> 33) as usize % m.count()).unwrap()).unwrap();
        assert_eq!(table_credits(&s), total);
    }
}

#[test]
fn c1_4_the_die_is_six_sided() {
    let mut seen = [0u32; 7];
    for seed in 0..20 {
        let mut s = State::new(RuleConfig::with_players(3), seed).unwrap();
        quiet_until(&mut s, |s| s.hand_number() > 2);
        for e in s.events() {
            if let Event::DieRolled { value, .. } = e {
                seen[*value as usize] += 1;
            }
        }
    }
    assert_eq!(seen[0], 0);
    assert!(seen[1..].iter().all(|&n| n > 0), "every face comes up: {seen:?}");
}

// ------------------------------------------------------------------------------------------
// C2 A hand

/// Everyone after the turn player folds, so the hand ends at once.
fn fold_round(s: &mut State) {
    let h = s.hand_number();
    while s.hand_number() == h && !s.is_terminal() {
        play(s, &["fold"]);
    }
}

#[test]
fn c2_1_seat_0_deals_first_then_the_deal_passes_left() {
    let mut s = State::new(RuleConfig::with_players(4), 1).unwrap();
    assert_eq!((s.hand_number(), s.dealer()), (1, Seat(0)));
    for (hand, dealer) in [(2u32, 1u8), (3, 2), (4, 3), (5, 0)] {
        fold_round(&mut s);
        assert_eq!((s.hand_number(), s.dealer()), (hand, Seat(dealer)));
        assert_eq!(s.turn_seat(), Seat((dealer + 1) % 4));
    }
}

#[test]
fn c2_1_the_deal_passes_to_the_next_seat_still_in_the_game() {
    // Seat 1 folds its last credit away; the next hand is dealt by seat 2, not by seat 1.
    let mut s = load(json!({
        "config": {"players": 3},
        "turn": 1,
        "players": [seat(&["sa1", "sa2"], 100), seat(&["sa3", "sa4"], 1), seat(&["sa5", "sa6"], 100)],
        "hand_pot": 3
    }));
    play(&mut s, &["fold", "fold"]);
    assert_eq!(s.hand_number(), 2);
    assert!(!s.player(Seat(1)).in_game);
    assert_eq!(s.dealer(), Seat(2));
    assert_eq!(s.turn_seat(), Seat(0));
}

#[test]
fn c2_2_every_player_antes_one_to_each_pot_when_the_sabacc_pot_is_empty() {
    let s = State::new(RuleConfig::with_players(4), 2).unwrap();
    assert_eq!(credits(&s), vec![98; 4]);
    assert_eq!((s.hand_pot(), s.sabacc_pot()), (4, 4));
    let antes: Vec<_> = s.events().iter().filter(|e| matches!(e, Event::Ante { .. })).collect();
    assert_eq!(antes.len(), 4);
    assert!(antes.iter().all(|e| matches!(e, Event::Ante { hand_pot: 1, sabacc_pot: 1, .. })));
}

#[test]
fn c2_2_the_sabacc_ante_is_paid_only_while_that_pot_is_empty() {
    let mut s = State::new(RuleConfig::with_players(4), 2).unwrap();
    play(&mut s, &["fold", "fold", "fold"]); // seats 1, 2, 3 fold: seat 0 takes the 4 of the hand pot
    assert_eq!(s.hand_number(), 2);
    assert_eq!(credits(&s), vec![98 + 4 - 1, 96, 96, 96]);
    assert_eq!((s.hand_pot(), s.sabacc_pot()), (4, 4 + 3));
}

#[test]
fn c2_2_antes_are_paid_as_far_as_credits_go_hand_pot_first() {
    // Seat 1 calls with a Pure Sabacc and empties the sabacc pot; seat 2, down to 1 credit,
    // then antes only to the hand pot.
    let mut s = load(json!({
        "config": {"players": 3},
        "dealer": 2, "round": 3, "turn": 0, "decision": "call",
        "players": [seat(&["sa5", "sa6"], 100), seat(&["sa11", "sa12"], 100), seat(&["fl2", "fl3"], 1)],
        "hand_pot": 9
    }));
    assert_eq!(s.sabacc_pot(), 90);
    assert_eq!(actor(&s), 1);
    play(&mut s, &["call"]);
    assert_eq!(s.hand_number(), 2);
    assert_eq!(s.dealer(), Seat(0));
    assert_eq!(credits(&s), vec![98, 100 + 9 + 90 - 2, 0]);
    assert_eq!((s.hand_pot(), s.sabacc_pot()), (3, 2));
    assert!(s.events().contains(&Event::Ante { seat: Seat(2), hand_pot: 1, sabacc_pot: 0 }));
}

#[test]
fn c2_3_two_cards_each_dealt_one_at_a_time_from_the_dealers_left() {
    let seed = 5;
    let s = State::new(RuleConfig::with_players(4), seed).unwrap();
    let mut ids: Vec<Card> = Card::all().collect();
    GameRng::at_hand(seed, 1).shuffle_deck(&mut ids);
    // The deck's top is its last card; seats 1, 2, 3, 0 take one each, then again.
    for (k, seat) in [1u8, 2, 3, 0].into_iter().enumerate() {
        assert_eq!(s.player(Seat(seat)).hand.as_slice(), &[ids[75 - k], ids[71 - k]], "seat {seat}");
    }
    assert_eq!(s.deck().as_slice(), &ids[..68]);
}

#[test]
fn c2_4_turns_go_clockwise_from_the_dealers_left_the_dealer_last() {
    let mut s = State::new(RuleConfig::with_players(4), 9).unwrap();
    quiet_until(&mut s, |s| s.round() == 3);
    let turns: Vec<(u8, u16)> = s
        .events()
        .iter()
        .filter_map(|e| if let Event::TurnStarted { seat, round } = e { Some((seat.0, *round)) } else { None })
        .collect();
    assert_eq!(turns, vec![(1, 1), (2, 1), (3, 1), (0, 1), (1, 2), (2, 2), (3, 2), (0, 2), (1, 3)]);
}

#[test]
fn c2_4_a_turn_runs_betting_then_shifting_then_calling_then_drawing() {
    let mut s = load(json!({
        "config": {"players": 3},
        "dealer": 2, "round": 3, "turn": 0,
        "players": [seat(&["sa1", "sa2"], 90), seat(&["sa3", "sa4"], 90), seat(&["sa5", "sa6"], 90)],
        "hand_pot": 6,
        "dice": [5]
    }));
    let mut trace = vec![];
    let from = s.events().len();
    for a in ["check", "stay", "stay", "decline-call", "decline-call"] {
        trace.push((s.pending(), actor(&s)));
        play(&mut s, &[a]);
    }
    trace.push((s.pending(), actor(&s)));
    use Pending::*;
    assert_eq!(trace, vec![(Bet, 0), (Answer, 1), (Answer, 2), (Call, 1), (Call, 2), (Draw, 0)]);
    let ev = events_since(&s, from);
    let roll = ev.iter().position(|e| matches!(e, Event::DieRolled { seat: Seat(0), value: 5 })).unwrap();
    let first_decline = ev.iter().position(|e| matches!(e, Event::DeclinedCall { .. })).unwrap();
    let last_stay = ev.iter().rposition(|e| matches!(e, Event::Stayed { .. })).unwrap();
    assert!(last_stay < roll && roll < first_decline);
}

#[test]
fn c2_4_a_player_who_folds_on_their_own_turn_still_rolls_and_calls_run_but_they_do_not_draw() {
    let mut s = load(json!({
        "config": {"players": 3},
        "dealer": 2, "round": 3, "turn": 0,
        "players": [seat(&["sa1", "sa2"], 90), seat(&["sa3", "sa4"], 90), seat(&["sa5", "sa6"], 90)],
        "hand_pot": 6,
        "dice": [2]
    }));
    let from = s.events().len();
    play(&mut s, &["fold", "stay", "stay"]);
    let ev = events_since(&s, from);
    assert!(ev.contains(&Event::DieRolled { seat: Seat(0), value: 2 }), "the folded turn player rolls");
    // The shift takes in only the players still in.
    let shifted: Vec<u8> =
        ev.iter().filter_map(|e| if let Event::ShiftCards { seat, .. } = e { Some(seat.0) } else { None }).collect();
    assert_eq!(shifted, vec![1, 2]);
    assert_eq!((s.pending(), actor(&s)), (Pending::Call, 1));
    play(&mut s, &["decline-call", "decline-call"]);
    // No drawing phase for the folded player: the next turn begins.
    assert_eq!((s.pending(), s.turn_seat()), (Pending::Bet, Seat(1)));
    assert_eq!(s.player(Seat(0)).completed_turns, 3);
}

#[test]
fn c2_4_a_folded_players_later_turns_are_skipped_and_count_as_completed() {
    let mut s = load(json!({
        "config": {"players": 3},
        "dealer": 2, "round": 3, "turn": 0,
        "players": [seat(&["sa1", "sa2"], 90), seat(&["sa3", "sa4"], 90), seat(&["sa5", "sa6"], 90)],
        "hand_pot": 6,
        "dice": [5, 5, 5, 5]
    }));
    play(&mut s, &["fold", "stay", "stay", "decline-call", "decline-call"]);
    // Seat 1's and seat 2's turns of round 3.
    play(&mut s, &["check", "stay", "decline-call", "pass"]);
    play(&mut s, &["check", "stay", "decline-call", "pass"]);
    assert_eq!(s.round(), 4);
    assert_eq!(s.turn_seat(), Seat(1), "seat 0's turn is skipped");
    assert_eq!(s.player(Seat(0)).completed_turns, 4);
    assert_eq!(s.player(Seat(1)).completed_turns, 3);
}

#[test]
fn c2_5_an_uncalled_hand_is_called_automatically_at_the_end_of_the_last_round() {
    for max_rounds in [1u16, 2, 10] {
        let cfg = RuleConfig { max_rounds_per_hand: max_rounds, ..RuleConfig::with_players(4) };
        let mut s = State::new(cfg, 4).unwrap();
        quiet_until(&mut s, |s| s.hand_number() == 2);
        let r = s.last_result().unwrap();
        assert_eq!(r.end, HandEnd::AutoCall);
        assert!(s.events().contains(&Event::AutoCalled { round: max_rounds }));
        // The last turn of the hand was the dealer's (seat 0) in round `max_rounds`.
        let last_turn = s.events().iter().rev().find_map(|e| {
            if let Event::TurnStarted { seat, round } = e { (*round == max_rounds).then_some(*seat) } else { None }
        });
        assert!(last_turn.is_some());
    }
}

#[test]
fn c2_5_a_hand_ends_by_a_call_or_when_all_but_one_folded() {
    let mut s = load(json!({
        "config": {"players": 3},
        "dealer": 2, "round": 3, "turn": 0, "decision": "call", "actor": 2,
        "players": [seat(&["sa10", "sa2"], 90), seat(&["sa3", "sa4"], 90), seat(&["sa5", "sa6"], 90)],
        "hand_pot": 6
    }));
    play(&mut s, &["call"]);
    assert_eq!(s.last_result().unwrap().end, HandEnd::Called { caller: Seat(2) });
    assert_eq!(s.hand_number(), 2);
    let mut s = State::new(RuleConfig::with_players(3), 0).unwrap();
    play(&mut s, &["fold", "fold"]);
    assert_eq!(s.last_result().unwrap().end, HandEnd::Folds { winner: Seat(0) });
}
