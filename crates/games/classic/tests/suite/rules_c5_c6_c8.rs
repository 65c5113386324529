//! C5 (the game: leaving, winning, the hand limit), C6 (what each player sees) and C8 (the
//! order of decisions).

use crate::common;

use classic::config::HandLimitEnd;
use classic::{Event, Outcome, Pending, RuleConfig, State};
use common::*;
use game::{Seat, SeatSet};
use serde_json::json;

// ------------------------------------------------------------------------------------------
// C5 The game

#[test]
fn c5_1_a_player_with_no_credits_plays_out_the_hand_and_leaves_at_the_next() {
    let mut s = load(json!({
        "config": {"players": 3}, "turn": 1,
        "players": [seat(&["sa1", "sa2"], 90), seat(&["sa3", "sa4"], 1), seat(&["sa5", "sa6"], 90)],
        "hand_pot": 3, "dice": [6]
    }));
    play(&mut s, &["bet:1", "match", "match"]);
    assert_eq!(s.player(Seat(1)).credits, 0);
    assert!(s.player(Seat(1)).in_game, "still in this hand");
    play(&mut s, &["pass", "check", "stay", "fold"]); // seat 1 draws nothing; seat 2 checks, seat 0 stays, seat 1 folds free
    assert!(s.events().contains(&Event::Folded { seat: Seat(1), paid: 0 }));
    // Seat 2's turn goes on; seat 0 folds at the next opening, leaving seat 2 alone.
    quiet_until(&mut s, |s| s.turn_seat() == Seat(0) && s.pending() == Pending::Bet);
    play(&mut s, &["fold"]);
    assert_eq!(s.hand_number(), 2);
    assert!(s.events().contains(&Event::Left { seat: Seat(1) }));
    assert!(!s.player(Seat(1)).in_game);
    assert!(s.player(Seat(1)).hand.is_empty(), "not dealt in");
    let start = s.events().iter().rposition(|e| matches!(e, Event::HandStarted { .. })).unwrap();
    assert!(!s.events()[start..].iter().any(|e| matches!(e, Event::Ante { seat: Seat(1), .. })), "no ante");
    assert_eq!(s.in_game(), [Seat(0), Seat(2)].into_iter().collect());
}

#[test]
fn c5_2_the_last_player_left_wins_the_game() {
    let mut s = load(json!({
        "config": {"players": 2}, "dealer": 0, "turn": 1,
        "players": [seat(&["sa1", "sa2"], 150), seat(&["sa3", "sa4"], 1)],
        "hand_pot": 2
    }));
    assert_eq!(s.outcome(Seat(0)), Outcome::InProgress);
    play(&mut s, &["fold"]);
    assert!(s.is_terminal() && !s.is_truncated());
    assert_eq!(s.winners(), [Seat(0)].into_iter().collect());
    assert_eq!((s.outcome(Seat(0)), s.outcome(Seat(1))), (Outcome::Won, Outcome::Lost));
    assert_eq!(s.current_player(), None);
    assert!(s.legal_actions().is_empty());
    assert!(s.events().contains(&Event::GameOver { winners: s.winners() }));
    assert_eq!(s.deck().len(), 76, "the cards are gathered after the last hand");
    assert!(s.apply(classic::Action::Check).is_err());
}

#[test]
fn c5_2_when_nobody_is_left_the_players_of_the_last_hand_share_the_win() {
    let mut s = load(json!({
        "config": {"players": 3}, "dealer": 1, "round": 3, "turn": 0, "decision": "call", "actor": 1,
        "players": [seat(&["sa12", "st12"], 3), seat(&["fl12", "co12"], 3), {"credits": 0, "left": true}],
        "hand_pot": 6
    }));
    play(&mut s, &["call"]);
    assert!(s.is_terminal());
    let both: SeatSet = [Seat(0), Seat(1)].into_iter().collect();
    assert_eq!(s.winners(), both);
    assert_eq!(s.outcome(Seat(0)), Outcome::SharedWin { of: 2 });
    assert_eq!(s.outcome(Seat(2)), Outcome::Lost);
}

#[test]
fn c5_2_the_hand_limit_truncates_an_unfinished_game() {
    let cfg = RuleConfig { hand_limit: 3, hand_limit_end: HandLimitEnd::Truncate, ..RuleConfig::with_players(4) };
    assert_eq!(RuleConfig::default().hand_limit, 100);
    let mut s = State::new(cfg, 0).unwrap();
    while !s.is_terminal() {
        play(&mut s, &["fold"]);
    }
    assert!(s.is_truncated());
    assert_eq!(s.hand_number(), 3);
    assert!(s.winners().is_empty());
    for i in 0..4 {
        assert_eq!(s.outcome(Seat(i)), Outcome::Truncated);
    }
    assert_eq!(s.events().last(), Some(&Event::Truncated { hand: 3 }));
}

#[test]
fn c5_2_with_most_credits_the_hand_limit_is_won_by_the_credit_leaders() {
    let cfg = RuleConfig { hand_limit: 3, hand_limit_end: HandLimitEnd::MostCredits, ..RuleConfig::with_players(4) };
    let mut s = State::new(cfg, 0).unwrap();
    while !s.is_terminal() {
        play(&mut s, &["fold"]);
    }
    assert!(!s.is_truncated(), "the limit decides the game");
    assert_eq!(s.hand_number(), 3);
    let most = (0..4).map(|i| s.player(Seat(i)).credits).max().unwrap();
    let leaders: SeatSet = (0..4).map(Seat).filter(|&x| s.player(x).credits == most).collect();
    assert!(!leaders.is_empty());
    assert_eq!(s.winners(), leaders);
    for i in 0..4 {
        let expected = if leaders.contains(Seat(i)) && leaders.len() == 1 {
            Outcome::Won
        } else if leaders.contains(Seat(i)) {
            Outcome::SharedWin { of: leaders.len() as u8 }
        } else {
            Outcome::Lost
        };
        assert_eq!(s.outcome(Seat(i)), expected);
    }
    assert_eq!(s.events().last(), Some(&Event::GameOver { winners: leaders }));
    s.check_invariants().unwrap();
}

/// Choice 22: with no rule file a game that reaches the hand limit is decided by credits, so
/// a default game is never truncated; a game of careful players usually reaches the limit.
#[test]
fn choice_by_default_the_hand_limit_is_decided_by_credits() {
    let cfg = RuleConfig::default();
    assert_eq!((cfg.hand_limit, cfg.hand_limit_end), (100, HandLimitEnd::MostCredits));
    let from_an_empty_file: RuleConfig = serde_json::from_str("{}").unwrap();
    assert_eq!(from_an_empty_file, cfg);
    let cfg = RuleConfig { hand_limit: 3, ..RuleConfig::with_players(4) };
    let mut s = State::new(cfg, 0).unwrap();
    while !s.is_terminal() {
        play(&mut s, &["fold"]);
    }
    assert!(!s.is_truncated(), "the default rules decide the game at the limit");
    assert_eq!(s.hand_number(), 3);
    assert!(!s.winners().is_empty());
}

#[test]
fn choice_a_game_decided_by_its_last_allowed_hand_is_won_not_truncated() {
    let mut s = load(json!({
        "config": {"players": 2, "hand_limit": 1}, "turn": 1,
        "players": [seat(&["sa1", "sa2"], 150), seat(&["sa3", "sa4"], 1)],
        "hand_pot": 2
    }));
    play(&mut s, &["fold"]);
    assert!(!s.is_truncated());
    assert_eq!(s.outcome(Seat(0)), Outcome::Won);
}

// ------------------------------------------------------------------------------------------
// C6 What each player can see

#[test]
fn c6_a_view_holds_the_viewers_cards_and_only_public_facts_about_the_others() {
    let mut s = State::new(RuleConfig::with_players(4), 8).unwrap();
    play(&mut s, &["bet:2", "fold"]);
    let v = s.view(Seat(3));
    assert_eq!(v.hand, s.player(Seat(3)).hand);
    assert_eq!((v.dealer, v.turn_seat, v.actor), (Seat(0), Seat(1), Some(Seat(3))));
    assert_eq!(v.pending, Pending::Answer);
    assert_eq!(v.betting.to_match, 2);
    assert_eq!(v.seats[1].contributed, 2);
    assert!(v.seats[2].folded);
    assert_eq!(v.seats[2].hand_len, 0);
    assert_eq!(v.seats[0].hand_len, 2);
    assert_eq!(v.seats[0].credits, 98);
    assert_eq!((v.hand_pot, v.sabacc_pot), (6, 5));
    assert_eq!((v.deck_len, v.out_len), (68, 2));
    assert_eq!(v.legal, s.legal_mask());
    // The view's JSON names no card but the viewer's own.
    let text = serde_json::to_string(&v).unwrap();
    let own: Vec<u8> = v.hand.as_slice().iter().map(|c| c.id()).collect();
    let j: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(j["hand"], json!(own));
    assert!(j["last_result"].is_null());
}

#[test]
fn c6_a_draw_is_public_but_the_drawn_card_only_the_drawers() {
    let mut s = load(json!({
        "config": {"players": 3}, "decision": "draw", "die": 6, "deck": ["co9"],
        "players": [seat(&["sa1", "sa2", "sa3"], 90), seat(&["sa4", "sa5"], 90), seat(&["sa6", "sa7"], 90)],
        "hand_pot": 6, "dealer": 2, "turn": 0
    }));
    let from = s.events().len();
    play(&mut s, &["exchange", "drop:0"]);
    let mine: Vec<Event> = s.events_for(Seat(0)).skip(from).collect();
    let theirs: Vec<Event> = s.events_for(Seat(1)).skip(from).collect();
    let public: Vec<Event> = s.public_events().skip(from).collect();
    let drawn = s.player(Seat(0)).hand.last().unwrap();
    assert!(mine.contains(&Event::Drew { seat: Seat(0), exchange: true, card: Some(drawn) }));
    assert!(theirs.contains(&Event::Drew { seat: Seat(0), exchange: true, card: None }));
    assert!(theirs.contains(&Event::Dropped { seat: Seat(0), card: None }), "a dropped card stays face down");
    assert_eq!(theirs, public);
    assert!(mine.iter().any(|e| matches!(e, Event::Dropped { card: Some(c), .. } if c.name() == "sabres-1")));
    assert_eq!(s.view(Seat(1)).out_len, 1);
}

#[test]
fn c6_a_shift_shows_each_player_only_the_card_they_lost_and_the_card_they_got() {
    let mut s = load(json!({
        "config": {"players": 3}, "dealer": 2, "turn": 0,
        "players": [seat(&["sa1", "sa2"], 90), seat(&["sa4", "sa5"], 90), seat(&["sa6", "sa7"], 90)],
        "hand_pot": 6, "dice": [3]
    }));
    let from = s.events().len();
    play(&mut s, &["check", "stay", "stay"]);
    for v in 0..3u8 {
        let swap = s.view(Seat(v)).shift.expect("took part");
        assert_eq!(Some(swap), s.player(Seat(v)).shift);
        for e in s.events_for(Seat(v)).skip(from) {
            if let Event::ShiftCards { seat, lost, got } = e {
                if seat == Seat(v) {
                    assert_eq!((lost, got), (Some(swap.lost), Some(swap.got)));
                } else {
                    assert_eq!((lost, got), (None, None), "another player's cards stay hidden");
                }
            }
        }
    }
    assert!(
        s.public_events()
            .skip(from)
            .any(|e| e == Event::Shifted { seats: [Seat(0), Seat(1), Seat(2)].into_iter().collect() })
    );
}

#[test]
fn c6_every_hand_still_in_is_revealed_at_a_call_and_demise_cards_are_public() {
    let mut s = load(json!({
        "config": {"players": 3}, "dealer": 0, "round": 3, "turn": 1, "decision": "call", "actor": 2,
        "players": [seat(&["sa10", "st10"], 90), {"credits": 89, "folded": true}, seat(&["fl10", "co10"], 90)],
        "hand_pot": 7, "out": ["sa1", "st1"], "deck": ["co1", "fl2"]
    }));
    let from = s.events().len();
    play(&mut s, &["call"]);
    let public: Vec<Event> = s.public_events().skip(from).collect();
    let revealed: Vec<u8> =
        public.iter().filter_map(|e| if let Event::Revealed { seat, .. } = e { Some(seat.0) } else { None }).collect();
    assert_eq!(revealed, vec![2, 0], "the folded player shows nothing");
    assert_eq!(public.iter().filter(|e| matches!(e, Event::DemiseCard { .. })).count(), 2);
    let v = s.view(Seat(1));
    let r = v.last_result.unwrap();
    assert_eq!(r.seats[0].unwrap().hand.names(), vec!["sabres-10", "staves-10"]);
    assert!(r.seats[1].unwrap().hand.is_empty());
}

// ------------------------------------------------------------------------------------------
// C8 Decisions

#[test]
fn c8_decisions_follow_the_turn_bet_answers_calls_draw_drop() {
    let mut s = load(json!({
        "config": {"players": 3}, "dealer": 2, "round": 3, "turn": 0,
        "players": [seat(&["sa1", "sa2", "sa3"], 90), seat(&["sa4", "sa5"], 90), seat(&["sa6", "sa7"], 90)],
        "hand_pot": 6, "dice": [6]
    }));
    let mut seen = vec![];
    for a in ["bet:1", "raise:1", "match", "match", "decline-call", "decline-call", "exchange", "drop:2"] {
        seen.push((s.pending(), actor(&s)));
        play(&mut s, &[a]);
    }
    use Pending::*;
    assert_eq!(seen, vec![(Bet, 0), (Answer, 1), (Answer, 2), (Answer, 0), (Call, 1), (Call, 2), (Draw, 0), (Drop, 0)]);
    assert_eq!((s.pending(), actor(&s)), (Bet, 1));
}

#[test]
fn c5_3_each_hand_result_gives_every_seats_credit_change_antes_included() {
    let mut s = State::new(RuleConfig::with_players(3), 0).unwrap();
    play(&mut s, &["bet:2", "fold", "fold"]);
    let r = s.last_result().unwrap();
    let change: Vec<i64> = (0..3).map(|i| r.seats[i].unwrap().credit_change()).collect();
    assert_eq!(change, vec![-3, 1, -3]);
    assert_eq!(change.iter().sum::<i64>(), -5, "the antes and fold fees now in the sabacc pot");
}

#[test]
fn choice_a_shared_win_includes_players_who_folded_in_the_last_hand() {
    let mut s = load(json!({
        "config": {"players": 3}, "dealer": 1, "round": 3, "turn": 0, "decision": "call", "actor": 1,
        "players": [seat(&["sa12", "st12"], 3), seat(&["fl12", "co12"], 3), {"credits": 0, "folded": true}],
        "hand_pot": 6, "out": ["sa1", "sa2"]
    }));
    play(&mut s, &["call"]);
    assert_eq!(s.winners().len(), 3);
    assert_eq!(s.outcome(Seat(2)), Outcome::SharedWin { of: 3 });
}
