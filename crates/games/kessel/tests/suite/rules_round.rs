//! K1–K3, K6, K8 and the K9 alternatives that are not about ranking: components, setup, turns,
//! drawing, settlement, elimination, the end of the game and truncation.

use crate::common;

use common::*;
use game::Seat;
use kessel::config::{FirstStarter, RoundStarter, TokenAssignment};
use kessel::{Action, CardKind, Event, Family, Outcome, Pending, RuleConfig, State, Token, TokenSet};
use serde_json::json;

fn all_cards(s: &State) -> Vec<kessel::Card> {
    let mut v: Vec<kessel::Card> = Vec::new();
    for f in Family::ALL {
        v.extend_from_slice(s.draw_pile(f).as_slice());
        v.extend_from_slice(s.discard_pile(f).as_slice());
    }
    for i in 0..s.num_players() {
        v.extend_from_slice(&s.player(Seat(i)).hand);
    }
    v
}

// ------------------------------------------------------------------------------------------
// K1 Components

#[test]
fn k1_1_deck_of_44_two_families_of_22() {
    let s = State::new(RuleConfig::with_players(4), 3).unwrap();
    let cards = all_cards(&s);
    assert_eq!(cards.len(), 44);
    for f in Family::ALL {
        let fam: Vec<_> = cards.iter().filter(|c| c.family() == f).collect();
        assert_eq!(fam.len(), 22);
        for v in 1..=6 {
            assert_eq!(fam.iter().filter(|c| c.kind() == CardKind::Number(v)).count(), 3);
        }
        assert_eq!(fam.iter().filter(|c| c.kind() == CardKind::Impostor).count(), 3);
        assert_eq!(fam.iter().filter(|c| c.kind() == CardKind::Sylop).count(), 1);
    }
}

#[test]
fn k1_2_two_to_eight_seats_clockwise() {
    for n in 2..=8u8 {
        assert!(State::new(RuleConfig::with_players(n), 0).is_ok());
    }
    for n in [0u8, 1, 9, 200] {
        let e = State::new(RuleConfig::with_players(n), 0).unwrap_err();
        assert!(e.to_string().starts_with("players:"), "{e}");
    }
    // Turn order is clockwise: 0, 1, 2, 3.
    let mut s =
        State::new(RuleConfig { token_assignment: TokenAssignment::None, ..RuleConfig::with_players(4) }, 1).unwrap();
    let mut order = vec![];
    for _ in 0..4 {
        order.push(s.current_player().unwrap().0);
        let a = if s.legal_actions().contains(&Action::parse("draw:sand-deck").unwrap()) {
            "draw:sand-deck"
        } else {
            "stand"
        };
        play(&mut s, &[a]);
        if matches!(s.pending(), Pending::Keep { .. }) {
            play(&mut s, &["keep:held"]);
        }
    }
    assert_eq!(order, vec![0, 1, 2, 3]);
}

#[test]
fn k1_3_equal_starting_stock_default_6_range_1_to_50() {
    let s = State::new(RuleConfig::with_players(5), 0).unwrap();
    assert_eq!(stocks(&s), vec![6; 5]);
    for i in 0..5 {
        assert_eq!(chips(&s, i).1, 0);
    }
    let s = State::new(RuleConfig { starting_chips: 50, ..RuleConfig::with_players(3) }, 0).unwrap();
    assert_eq!(stocks(&s), vec![50; 3]);
    for bad in [0u16, 51] {
        let e = State::new(RuleConfig { starting_chips: bad, ..Default::default() }, 0).unwrap_err();
        assert!(e.to_string().starts_with("starting_chips:"));
    }
}

#[test]
fn k1_4_stakes_are_reported_in_credits() {
    // H: 4 players with 8 tokens: lay 480, pro 800, tournament 4000 credits.
    for (rate, pot) in [(15u32, 480u64), (25, 800), (125, 4000)] {
        let c = RuleConfig { starting_chips: 8, credits_per_chip: rate, ..RuleConfig::with_players(4) };
        assert_eq!(c.pot_credits(), pot);
    }
}

#[test]
fn k1_5_each_player_holds_three_distinct_kinds_hidden_from_opponents() {
    for seed in 0..50 {
        let s = State::new(RuleConfig::with_players(8), seed).unwrap();
        for i in 0..8 {
            assert_eq!(s.player(Seat(i)).tokens.len(), 3);
            let v = s.view(Seat((i + 1) % 8));
            assert_eq!(v.seats[i as usize].unplayed, 3);
            assert_ne!(v.own_tokens, TokenSet::EMPTY);
        }
    }
}

// ------------------------------------------------------------------------------------------
// K2 Setup

#[test]
fn k2_1_random_assignment_draws_from_enabled_kinds_independently() {
    let enabled: TokenSet = [Token::Embargo, Token::Refund, Token::Markdown, Token::Immunity].into_iter().collect();
    let mut seen = TokenSet::EMPTY;
    let mut same_kind_twice = false;
    for seed in 0..40 {
        let c = RuleConfig { enabled_tokens: enabled, ..RuleConfig::with_players(4) };
        let s = State::new(c, seed).unwrap();
        for i in 0..4 {
            let t = s.player(Seat(i)).tokens;
            assert_eq!(t.len(), 3);
            assert_eq!(t.0 & !enabled.0, 0);
            seen.0 |= t.0;
        }
        same_kind_twice |= s.player(Seat(0)).tokens.0 & s.player(Seat(1)).tokens.0 != 0;
    }
    assert_eq!(seen, enabled);
    assert!(same_kind_twice, "two players may hold the same kind");
}

#[test]
fn k2_1_fixed_assignment_gives_each_seat_its_loadout() {
    let mut c = RuleConfig { token_assignment: TokenAssignment::Fixed, ..RuleConfig::with_players(2) };
    c.fixed_loadouts[0] = [Token::Embargo, Token::Refund, Token::Markdown].into_iter().collect();
    c.fixed_loadouts[1] = [Token::Immunity, Token::Refund, Token::Exhaustion].into_iter().collect();
    let s = State::new(c, 9).unwrap();
    assert_eq!(s.player(Seat(0)).tokens, c.fixed_loadouts[0]);
    assert_eq!(s.player(Seat(1)).tokens, c.fixed_loadouts[1]);
    c.fixed_loadouts[1] = [Token::Immunity].into_iter().collect();
    assert!(State::new(c, 9).unwrap_err().to_string().starts_with("fixed_loadouts[1]:"));
}

#[test]
fn k2_1_choose_assignment_each_player_in_seat_order_picks_distinct_kinds() {
    let c = RuleConfig { token_assignment: TokenAssignment::Choose, ..RuleConfig::with_players(3) };
    let mut s = State::new(c, 4).unwrap();
    assert_eq!(s.round(), 0);
    assert_eq!(s.pending(), Pending::ChooseToken);
    assert_eq!(s.current_player(), Some(Seat(0)));
    assert_eq!(s.legal_actions().len(), 16);
    play(&mut s, &["choose:embargo"]);
    assert!(!is_legal(&s, "choose:embargo"));
    refuse(&mut s, "choose:embargo");
    refuse(&mut s, "stand");
    play(&mut s, &["choose:refund", "choose:markdown"]);
    assert_eq!(s.current_player(), Some(Seat(1)));
    assert!(is_legal(&s, "choose:embargo"), "two players may hold the same kind");
    play(&mut s, &["choose:embargo", "choose:immunity", "choose:free-draw"]);
    play(&mut s, &["choose:prime-sabacc", "choose:cook-the-books", "choose:major-fraud"]);
    assert_eq!(s.round(), 1);
    assert_eq!(s.pending(), Pending::Act);
    let want: TokenSet = [Token::Embargo, Token::Refund, Token::Markdown].into_iter().collect();
    assert_eq!(s.player(Seat(0)).tokens, want);
    // The picks are hidden: the log says who picked, not what.
    assert_eq!(s.events().iter().filter(|e| matches!(e, Event::TokenPicked { .. })).count(), 9);
}

#[test]
fn k2_1_no_tokens() {
    let c = RuleConfig { token_assignment: TokenAssignment::None, ..RuleConfig::with_players(3) };
    let s = State::new(c, 4).unwrap();
    for i in 0..3 {
        assert!(s.player(Seat(i)).tokens.is_empty());
    }
    assert!(s.legal_actions().iter().all(|a| !matches!(a, Action::PlayToken(_))));
}

#[test]
fn k2_2_deal_one_sand_one_blood_then_start_both_discard_piles() {
    for n in 2..=8u8 {
        let s = State::new(RuleConfig::with_players(n), n as u64).unwrap();
        for i in 0..n {
            let h = s.player(Seat(i)).hand;
            assert_eq!((h[0].family(), h[1].family()), (Family::Sand, Family::Blood));
        }
        for f in Family::ALL {
            assert_eq!(s.discard_pile(f).len(), 1);
            assert_eq!(s.draw_pile(f).len(), 22 - n as usize - 1);
        }
        // Dealt in seat order from the starter, then the discards were turned up.
        let ev: Vec<&Event> =
            s.events().iter().filter(|e| matches!(e, Event::Dealt { .. } | Event::DiscardStarted { .. })).collect();
        for (i, e) in ev.iter().take(n as usize).enumerate() {
            assert_eq!(**e, Event::Dealt { seat: Seat(i as u8) });
        }
        assert!(matches!(ev[n as usize], Event::DiscardStarted { .. }));
    }
}

#[test]
fn k2_2_every_round_gathers_and_redeals_all_44_cards() {
    let mut s = table(vec![seat(5, 0, &[]), seat(5, 0, &[]), seat(5, 0, &[])], json!({"turn": 3, "actor": 2}));
    play(&mut s, &["stand"]);
    assert_eq!(s.round(), 2);
    assert_eq!(all_cards(&s).len(), 44);
    s.check_invariants().unwrap();
    for f in Family::ALL {
        assert_eq!(s.discard_pile(f).len(), 1);
        assert_eq!(s.draw_pile(f).len(), 18);
    }
}

#[test]
fn k2_3_round_1_starts_at_seat_0_and_the_starter_rotates_clockwise() {
    let mut s =
        State::new(RuleConfig { token_assignment: TokenAssignment::None, ..RuleConfig::with_players(3) }, 5).unwrap();
    assert_eq!(s.starter(), Seat(0));
    assert_eq!(s.current_player(), Some(Seat(0)));
    // Everyone stands: early reveal, then round 2 starts at seat 1.
    play(&mut s, &["stand", "stand", "stand"]);
    while matches!(s.pending(), Pending::ImpostorDie { .. }) {
        play(&mut s, &["die:1"]);
    }
    if !s.is_terminal() {
        assert_eq!(s.round(), 2);
        assert_eq!(s.starter(), Seat(1));
        assert_eq!(s.current_player(), Some(Seat(1)));
    }
}

#[test]
fn k2_3_rotation_skips_eliminated_players() {
    // Starter 0; seat 1 is eliminated at this reveal, so round 2 starts at seat 2.
    let mut s = showdown(&[["S1", "B1"], ["S2", "B4"], ["S3", "B3"]], &[5, 1, 5], &[0, 0, 0], json!({}), json!({}));
    play(&mut s, &["stand"]);
    assert!(s.player(Seat(1)).eliminated);
    assert_eq!(s.starter(), Seat(2));
    assert_eq!(s.current_player(), Some(Seat(2)));
}

#[test]
fn k9_round_starter_always_seat_0() {
    let mut s = showdown(
        &[["S1", "B1"], ["S3", "B3"], ["S3", "B3"]],
        &[5, 5, 5],
        &[0, 0, 0],
        json!({}),
        json!({"round_starter": "always-seat0"}),
    );
    play(&mut s, &["stand"]);
    assert_eq!(s.starter(), Seat(0));
    // Seat 0 eliminated: the first active seat clockwise from it starts.
    let mut s = showdown(
        &[["S1", "B2"], ["S3", "B3"], ["S1", "B1"]],
        &[1, 5, 5],
        &[0, 0, 0],
        json!({}),
        json!({"round_starter": "always-seat0"}),
    );
    play(&mut s, &["stand"]);
    assert!(s.player(Seat(0)).eliminated);
    assert_eq!(s.starter(), Seat(1));
}

#[test]
fn k9_first_starter_random_is_seeded() {
    let c = RuleConfig { first_starter: FirstStarter::Random, ..RuleConfig::with_players(5) };
    let mut starters = [false; 5];
    for seed in 0..60 {
        let a = State::new(c, seed).unwrap();
        let b = State::new(c, seed).unwrap();
        assert_eq!(a.starter(), b.starter());
        assert_eq!(a.current_player(), Some(a.starter()));
        starters[a.starter().index()] = true;
    }
    assert!(starters.iter().all(|&x| x), "every seat starts for some seed");
}

// ------------------------------------------------------------------------------------------
// K3 Turns

#[test]
fn k3_1_three_turns_clockwise_from_the_starter_then_reveal() {
    let mut s = table(vec![seat(5, 0, &[]), seat(5, 0, &[]), seat(5, 0, &[])], json!({"starter": 1, "actor": 1}));
    let mut order = vec![];
    for _ in 0..9 {
        assert_eq!(s.round(), 1);
        order.push((s.turn(), s.current_player().unwrap().0));
        play(&mut s, &["draw:sand-deck", "keep:held"]);
    }
    assert_eq!(order, vec![(1, 1), (1, 2), (1, 0), (2, 1), (2, 2), (2, 0), (3, 1), (3, 2), (3, 0)]);
    // K3.7: the reveal followed the third turn.
    assert_eq!(s.last_settlement().unwrap().round, 1);
    assert_eq!(s.round(), 2);
}

#[test]
fn k3_3_stand_is_free() {
    let mut s = table(vec![seat(5, 1, &[]), seat(5, 0, &[])], json!({}));
    play(&mut s, &["stand"]);
    assert_eq!(chips(&s, 0), (5, 1));
    assert_eq!(s.player(Seat(0)).last_action, kessel::LastAction::Stand);
}

#[test]
fn k3_4_draw_costs_one_chip_and_keep_drawn_discards_the_held_card() {
    let mut s = table(vec![seat(5, 0, &[]), seat(5, 0, &[])], json!({"blood_discard": ["B6", "B5"]}));
    play(&mut s, &["draw:blood-discard"]);
    assert_eq!(chips(&s, 0), (4, 1));
    assert_eq!(legal_names(&s), vec!["keep:drawn", "keep:held"]);
    assert!(matches!(s.pending(), Pending::Keep { source: kessel::Source::BloodDiscard, .. }));
    play(&mut s, &["keep:drawn"]);
    assert_eq!(hand(&s, 0), ["S1", "B6"]);
    assert_eq!(discard(&s, Family::Blood), vec!["B1", "B5"]);
}

#[test]
fn k3_4_keep_held_puts_the_drawn_card_on_its_discard_pile() {
    let sand_draw = {
        let mut v = vec!["S5".to_string()];
        v.extend(without(&family_names('S'), &["S1", "S2", "S6", "S5"]));
        v
    };
    let mut s = table(vec![seat(5, 0, &[]), seat(5, 0, &[])], json!({"sand_draw": sand_draw}));
    play(&mut s, &["draw:sand-deck", "keep:held"]);
    assert_eq!(hand(&s, 0), ["S1", "B1"]);
    assert_eq!(discard(&s, Family::Sand), vec!["S5", "S6"]);
    assert_eq!(chips(&s, 0), (4, 1));
    assert_eq!(s.draw_pile(Family::Sand).len(), 18);
}

#[test]
fn k3_4_draw_requires_a_chip_in_stock() {
    let mut s = table(vec![seat(0, 3, &[]), seat(5, 0, &[])], json!({}));
    assert_eq!(legal_names(&s), vec!["stand"]);
    for src in ["draw:sand-deck", "draw:blood-deck", "draw:sand-discard", "draw:blood-discard"] {
        refuse(&mut s, src);
    }
}

#[test]
fn k3_4_keep_is_only_legal_after_a_draw() {
    let mut s = table(vec![seat(5, 0, &[]), seat(5, 0, &[])], json!({}));
    refuse(&mut s, "keep:drawn");
    refuse(&mut s, "keep:held");
    play(&mut s, &["draw:sand-deck"]);
    refuse(&mut s, "stand");
    refuse(&mut s, "draw:sand-deck");
}

#[test]
fn k3_5_draw_pile_rebuilt_from_discard_except_top() {
    // Empty Sand draw pile; the discard pile holds the 20 other Sand cards with S1 on top.
    let mut rest = without(&family_names('S'), &["SY", "S2", "S1"]);
    rest.insert(0, "S1".into());
    let mut s = table(
        vec![json!({"hand": ["SY", "B1"], "stock": 5}), seat(5, 0, &[])],
        json!({"sand_draw": [], "sand_discard": rest}),
    );
    let below_top: Vec<kessel::Card> = s.discard_pile(Family::Sand).as_slice()[..19].to_vec();
    assert!(is_legal(&s, "draw:sand-deck"));
    let ev0 = s.events().len();
    play(&mut s, &["draw:sand-deck"]);
    assert!(events_since(&s, ev0).contains(&Event::DrawPileRebuilt { family: Family::Sand, cards: 19 }));
    assert_eq!(discard(&s, Family::Sand), vec!["S1"]);
    assert_eq!(s.draw_pile(Family::Sand).len(), 18);
    let Pending::Keep { drawn, .. } = s.pending() else { panic!("keep decision expected") };
    assert!(below_top.contains(&drawn));
    play(&mut s, &["keep:held"]);
    assert_eq!(s.discard_pile(Family::Sand).top(), Some(drawn));
}

#[test]
fn k3_7_reveal_after_the_third_turn_even_when_players_draw() {
    let mut s = table(vec![seat(5, 0, &[]), seat(5, 0, &[])], json!({"turn": 3}));
    play(&mut s, &["draw:sand-deck", "keep:held"]);
    assert!(s.last_settlement().is_none());
    play(&mut s, &["draw:blood-deck", "keep:held"]);
    let st = s.last_settlement().expect("the round was settled after turn 3");
    assert_eq!(st.round, 1);
    // Both drew once: each pot of 1 is either returned or lost.
    for i in 0..2 {
        let r = st.seats[i].unwrap();
        assert_eq!(r.pot_returned + r.pot_lost, 1);
    }
}

// K3.5 "a pile that is still empty is not a legal source": with 22 cards per family and at most
// 8 in hands, a draw pile and its discard pile together always hold at least 13 cards, so a
// rebuilt pile is never empty in a real game; the property tests check every offered source is
// drawable.

#[test]
fn k3_6_early_reveal_when_all_stand() {
    let mut s = table(vec![seat(5, 1, &[]), seat(5, 1, &[]), seat(5, 1, &[])], json!({}));
    play(&mut s, &["stand", "stand"]);
    assert_eq!(s.round(), 1);
    play(&mut s, &["stand"]);
    let st = s.last_settlement().expect("the round was settled after turn 1");
    assert_eq!(st.round, 1);
    assert_eq!(s.round(), 2);
}

#[test]
fn k3_6_no_early_reveal_if_anyone_drew_this_turn() {
    let mut s = table(vec![seat(5, 0, &[]), seat(5, 0, &[]), seat(5, 0, &[])], json!({}));
    play(&mut s, &["stand", "draw:sand-deck", "keep:held", "stand"]);
    assert_eq!((s.round(), s.turn()), (1, 2));
    assert!(s.last_settlement().is_none());
    // Turn 2: all stand now, so the reveal comes at its end.
    play(&mut s, &["stand", "stand", "stand"]);
    assert_eq!(s.last_settlement().unwrap().round, 1);
}

#[test]
fn k3_6_a_stand_forced_by_embargo_counts() {
    let mut s = table(vec![seat(5, 0, &["embargo"]), seat(5, 0, &[])], json!({}));
    play(&mut s, &["token:embargo", "stand", "stand"]);
    assert_eq!(s.last_settlement().unwrap().round, 1);
}

#[test]
fn k9_early_reveal_off_plays_all_three_turns() {
    let mut s = table(vec![seat(5, 0, &[]), seat(5, 0, &[])], json!({"config": {"early_reveal": false}}));
    play(&mut s, &["stand", "stand"]);
    assert_eq!((s.round(), s.turn()), (1, 2));
    play(&mut s, &["stand", "stand", "stand"]);
    assert_eq!((s.round(), s.turn()), (1, 3));
    play(&mut s, &["stand"]);
    assert_eq!(s.last_settlement().unwrap().round, 1);
}

// ------------------------------------------------------------------------------------------
// K6 Settlement and the end of the game

#[test]
fn k6_1_k6_2_winners_take_the_pot_back_losers_lose_it_and_pay_tax() {
    let mut s = showdown(
        &[["S2", "B2"], ["S3", "B3"], ["S1", "B5"], ["S4", "B6"]],
        &[3, 4, 5, 6],
        &[2, 1, 2, 0],
        json!({}),
        json!({}),
    );
    let removed = s.chips_removed();
    play(&mut s, &["stand"]);
    let st = *s.last_settlement().unwrap();
    assert_eq!(round_winners(&s), vec![0]);
    let r: Vec<(u16, u16, u16, u16)> =
        (0..4).map(|i| st.seats[i].unwrap()).map(|r| (r.pot_returned, r.pot_lost, r.tax, r.stock_after)).collect();
    // Winner: pot back, no tax. 3/3: pot lost, tax 1. 1/5: d = 4. 4/6: d = 2.
    assert_eq!(r, vec![(2, 0, 0, 5), (0, 1, 1, 3), (0, 2, 4, 1), (0, 0, 2, 4)]);
    assert_eq!(s.chips_removed(), removed + 1 + 1 + 2 + 4 + 2);
    assert_eq!(stocks(&s), vec![5, 3, 1, 4]);
    assert!((0..4).all(|i| chips(&s, i).1 == 0));
}

#[test]
fn k6_2_tax_capped_at_stock() {
    // 1/6 is d = 5 but seat 1 has 2 chips: the tax is 2 and the pot of 3 is lost too.
    let mut s = showdown(&[["S2", "B2"], ["S1", "B6"], ["S3", "B3"]], &[5, 2, 5], &[0, 3, 0], json!({}), json!({}));
    let removed = s.chips_removed();
    play(&mut s, &["stand"]);
    let r = s.last_settlement().unwrap().seats[1].unwrap();
    assert_eq!((r.tax, r.pot_lost, r.stock_after), (2, 3, 0));
    assert_eq!(s.chips_removed(), removed + 2 + 3 + 1);
}

#[test]
fn k6_3_empty_stock_after_settlement_is_eliminated() {
    let mut s = showdown(&[["S2", "B2"], ["S3", "B3"], ["S1", "B1"]], &[5, 1, 0], &[0, 0, 2], json!({}), json!({}));
    let ev0 = s.events().len();
    play(&mut s, &["stand"]);
    // Seat 2 (1/1) wins with 0 stock and takes its pot of 2 back: it stays in. Seat 1 pays its last chip.
    assert_eq!(round_winners(&s), vec![2]);
    assert!(s.player(Seat(1)).eliminated);
    assert!(!s.player(Seat(2)).eliminated);
    assert_eq!(stocks(&s), vec![4, 0, 2]);
    assert!(events_since(&s, ev0).contains(&Event::Eliminated { seat: Seat(1) }));
    assert_eq!(s.player(Seat(1)).eliminated_in_round, 1);
    assert_eq!(s.active_seats().len(), 2);
    // Eliminated players are not dealt in and never act.
    assert_eq!(s.round(), 2);
    for _ in 0..6 {
        if s.is_terminal() || s.round() != 2 {
            break;
        }
        assert_ne!(s.current_player(), Some(Seat(1)));
        stand_or_die(&mut s);
    }
}

#[test]
fn k6_4_last_player_with_chips_wins_the_game() {
    let mut s = showdown(&[["S1", "B1"], ["S3", "B3"], ["S2", "B6"]], &[2, 1, 3], &[0, 0, 0], json!({}), json!({}));
    let ev0 = s.events().len();
    play(&mut s, &["stand"]);
    assert!(s.is_terminal());
    assert!(!s.is_truncated());
    assert_eq!(s.pending(), Pending::GameOver);
    assert_eq!(s.winners().iter().map(|x| x.0).collect::<Vec<_>>(), vec![0]);
    assert_eq!(s.outcome(Seat(0)), Outcome::Won);
    assert_eq!(s.outcome(Seat(1)), Outcome::Lost);
    assert_eq!(s.outcome(Seat(2)), Outcome::Lost);
    assert!(s.legal_actions().is_empty());
    assert_eq!(s.current_player(), None);
    assert!(events_since(&s, ev0).iter().any(|e| matches!(e, Event::GameOver { .. })));
    let before = s.clone();
    assert!(s.apply(Action::Stand).is_err());
    assert_eq!(s, before);
}

#[test]
fn k6_4_nobody_left_with_chips_the_last_round_winners_share() {
    // Both players have no stock and no pot: they tie, both are eliminated, both share the win.
    let mut s = showdown(&[["S2", "B3"], ["S3", "B2"], ["S1", "B6"]], &[0, 0, 0], &[0, 0, 1], json!({}), json!({}));
    play(&mut s, &["stand"]);
    assert!(s.is_terminal());
    assert_eq!(s.winners().iter().map(|x| x.0).collect::<Vec<_>>(), vec![0, 1]);
    assert_eq!(s.outcome(Seat(0)), Outcome::SharedWin { of: 2 });
    assert_eq!(s.outcome(Seat(1)), Outcome::SharedWin { of: 2 });
    assert_eq!(s.outcome(Seat(2)), Outcome::Lost);
}

#[test]
fn k6_5_truncation() {
    // Round limit 1: the game ends unfinished after round 1, with nobody winning.
    let mut s = showdown(&[["S1", "B1"], ["S3", "B3"]], &[5, 5], &[0, 0], json!({}), json!({"round_limit": 1}));
    play(&mut s, &["stand"]);
    assert!(s.is_terminal() && s.is_truncated());
    assert!(s.winners().is_empty());
    assert_eq!(s.outcome(Seat(0)), Outcome::Truncated);
    assert_eq!(s.outcome(Seat(1)), Outcome::Truncated);
    assert!(s.events().contains(&Event::Truncated { round: 1 }));
    // A finished game is won, not truncated, even on the last allowed round.
    let mut s = showdown(&[["S1", "B1"], ["S3", "B3"]], &[5, 1], &[0, 0], json!({}), json!({"round_limit": 1}));
    play(&mut s, &["stand"]);
    assert!(!s.is_truncated());
    assert_eq!(s.outcome(Seat(0)), Outcome::Won);
}

#[test]
fn k6_5_default_round_limit_truncates_long_games() {
    assert_eq!(RuleConfig::default().round_limit, 100);
    // Everybody always stands with 50 chips: every round ends early, losers pay 1 at most.
    let c = RuleConfig {
        starting_chips: 50,
        round_limit: 7,
        token_assignment: TokenAssignment::None,
        ..RuleConfig::with_players(2)
    };
    let mut s = State::new(c, 3).unwrap();
    while !s.is_terminal() {
        stand_or_die(&mut s);
    }
    assert!(s.is_truncated());
    assert_eq!(s.round(), 7);
}

// ------------------------------------------------------------------------------------------
// K8 Decision order

#[test]
fn k8_token_then_target_then_stand_or_draw_then_keep() {
    let mut s = table(vec![seat(5, 0, &["target-tariff"]), seat(5, 0, &[]), seat(5, 0, &[])], json!({}));
    play(&mut s, &["token:target-tariff"]);
    assert!(legal_names(&s).iter().all(|a| a.starts_with("target:")));
    play(&mut s, &["target:+2"]);
    assert_eq!(s.current_player(), Some(Seat(0)));
    assert_eq!(
        legal_names(&s),
        vec!["stand", "draw:sand-deck", "draw:blood-deck", "draw:sand-discard", "draw:blood-discard"]
    );
    play(&mut s, &["draw:blood-deck"]);
    assert_eq!(s.current_player(), Some(Seat(0)));
    assert_eq!(legal_names(&s), vec!["keep:drawn", "keep:held"]);
    play(&mut s, &["keep:drawn"]);
    assert_eq!(s.current_player(), Some(Seat(1)));
}

// ------------------------------------------------------------------------------------------
// K9 alternatives outside ranking

#[test]
fn k9_refund_source_lost_chips() {
    // Seat 0 lost 3 chips earlier; Refund returns 2 of them from out of the game, not the hand pot.
    let mut s = table(
        vec![json!({"stock": 2, "pot": 1, "lost": 3, "tokens": ["refund"]}), seat(5, 0, &[])],
        json!({"config": {"refund_source": "lost-chips", "starting_chips": 6}}),
    );
    let removed = s.chips_removed();
    play(&mut s, &["token:refund"]);
    assert_eq!(chips(&s, 0), (4, 1));
    assert_eq!(s.player(Seat(0)).lost.0, 1);
    assert_eq!(s.chips_removed(), removed - 2);
    // Without lost chips it is not playable, whatever the hand pot.
    let s = table(
        vec![json!({"stock": 2, "pot": 3, "tokens": ["refund", "extra-refund"]}), seat(5, 0, &[])],
        json!({"config": {"refund_source": "lost-chips"}}),
    );
    assert!(!is_legal(&s, "token:refund") && !is_legal(&s, "token:extra-refund"));
}

#[test]
fn k9_lost_chips_are_counted_by_settlement_and_tax_tokens() {
    let mut s =
        showdown(&[["S1", "B1"], ["S2", "B5"]], &[5, 5], &[0, 2], json!({}), json!({"refund_source": "lost-chips"}));
    play(&mut s, &["stand"]);
    // Seat 1 lost its pot of 2 and a tax of 3.
    assert_eq!(s.player(Seat(1)).lost.0, 5);
}

#[test]
fn k9_embezzlement_from_stock_to_stock() {
    let mut s = table(
        vec![seat(3, 1, &["embezzlement"]), seat(2, 2, &[]), seat(0, 1, &[]), seat(4, 0, &[])],
        json!({"config": {"embezzlement": "stock"}, "effects": {"immune": [3]}}),
    );
    play(&mut s, &["token:embezzlement"]);
    assert_eq!((0..4).map(|i| chips(&s, i)).collect::<Vec<_>>(), vec![(4, 1), (1, 2), (0, 1), (4, 0)]);
}

#[test]
fn k9_tax_token_chips_go_into_the_victims_hand_pot() {
    let mut s = table(
        vec![seat(5, 0, &["general-tariff"]), seat(3, 1, &[]), seat(0, 0, &[])],
        json!({"config": {"tax_token_chips": "victim-hand-pot"}}),
    );
    let removed = s.chips_removed();
    play(&mut s, &["token:general-tariff"]);
    assert_eq!((chips(&s, 1), chips(&s, 2)), ((2, 2), (0, 0)));
    assert_eq!(s.chips_removed(), removed);
}

#[test]
fn k9_in_stand_means_stood_in_the_current_turn() {
    // Starter 2, turn 2, actor 0: seat 2 already stood in this turn; seat 1 stood in turn 1 and has
    // not acted in turn 2 yet.
    let players = vec![
        seat(5, 0, &["general-audit"]),
        json!({"stock": 4, "last_action": "stand", "stood_turn": 1}),
        json!({"stock": 4, "last_action": "stand", "stood_turn": 2}),
    ];
    let extra = json!({"turn": 2, "starter": 2, "config": {"in_stand": "stood-this-turn"}});
    let mut s = table(players.clone(), extra);
    play(&mut s, &["token:general-audit"]);
    assert_eq!(stocks(&s), vec![5, 4, 2]);
    // Under the default (most recent action was Stand) both are in stand.
    let mut s = table(players, json!({"turn": 2, "starter": 2}));
    play(&mut s, &["token:general-audit"]);
    assert_eq!(stocks(&s), vec![5, 2, 2]);
}

#[test]
fn k9_tokens_per_player_and_enabled_subset() {
    for k in [0u8, 1, 5, 16] {
        let c = RuleConfig { tokens_per_player: k, ..RuleConfig::with_players(3) };
        let s = State::new(c, 2).unwrap();
        for i in 0..3 {
            assert_eq!(s.player(Seat(i)).tokens.len(), k as usize);
        }
    }
    let c = RuleConfig { tokens_per_player: 17, ..Default::default() };
    assert!(State::new(c, 0).unwrap_err().to_string().starts_with("tokens_per_player:"));
    let only: TokenSet = [Token::Embargo, Token::Refund].into_iter().collect();
    let c = RuleConfig { enabled_tokens: only, ..Default::default() };
    assert!(State::new(c, 0).is_err(), "3 tokens from 2 enabled kinds is impossible");
    let c = RuleConfig { enabled_tokens: only, tokens_per_player: 2, ..Default::default() };
    let s = State::new(c, 0).unwrap();
    assert_eq!(s.player(Seat(0)).tokens, only);
    let c = RuleConfig {
        enabled_tokens: only,
        token_assignment: TokenAssignment::Choose,
        tokens_per_player: 1,
        ..Default::default()
    };
    let s = State::new(c, 0).unwrap();
    assert_eq!(legal_names(&s), vec!["choose:refund", "choose:embargo"]);
}

#[test]
fn k9_round_starter_rotation_default() {
    assert_eq!(RuleConfig::default().round_starter, RoundStarter::Rotates);
}

#[test]
fn k9_tax_token_chips_in_the_victims_pot_are_returned_if_the_victim_wins() {
    // Target Audit under `victim-hand-pot`: 3 chips move from seat 1's stock to its hand pot, and
    // seat 1 wins the round with 1/1, so it takes them back.
    let mut s = table(
        vec![
            json!({"hand": ["S4", "B5"], "stock": 5, "tokens": ["target-audit"]}),
            json!({"hand": ["S1", "B1"], "stock": 4, "last_action": "stand", "stood_turn": 2}),
        ],
        json!({"turn": 3, "config": {"tax_token_chips": "victim-hand-pot"}}),
    );
    let removed = s.chips_removed();
    play(&mut s, &["token:target-audit", "target:+1"]);
    assert_eq!(chips(&s, 1), (1, 3));
    assert_eq!(s.chips_removed(), removed);
    play(&mut s, &["stand", "stand"]);
    assert_eq!(round_winners(&s), vec![1]);
    assert_eq!(s.last_settlement().unwrap().seats[1].unwrap().pot_returned, 3);
    // Seat 0's 4/5 pays d = 1.
    assert_eq!(stocks(&s), vec![4, 4]);
}

#[test]
fn k9_tax_token_chips_in_the_victims_pot_are_lost_if_the_victim_loses() {
    let mut s = table(
        vec![
            json!({"hand": ["S1", "B1"], "stock": 5, "tokens": ["general-tariff"]}),
            json!({"hand": ["S4", "B5"], "stock": 4}),
        ],
        json!({"turn": 3, "config": {"tax_token_chips": "victim-hand-pot"}}),
    );
    play(&mut s, &["token:general-tariff", "stand"]);
    assert_eq!(chips(&s, 1), (3, 1));
    play(&mut s, &["stand"]);
    let r = s.last_settlement().unwrap().seats[1].unwrap();
    assert_eq!((r.pot_lost, r.tax, r.stock_after), (1, 1, 2));
}

#[test]
fn k9_extra_refund_from_lost_chips_capped_at_what_was_lost() {
    let mut s = table(
        vec![json!({"stock": 2, "lost": 2, "tokens": ["extra-refund"]}), seat(5, 0, &[])],
        json!({"config": {"refund_source": "lost-chips", "starting_chips": 6}}),
    );
    play(&mut s, &["token:extra-refund"]);
    assert_eq!(chips(&s, 0), (4, 0));
    assert_eq!(s.player(Seat(0)).lost.0, 0);
}

#[test]
fn k9_impostor_auto_best_with_two_impostors() {
    // Dice (Sand) 4, 2 and (Blood) 5, 2: the best hand is 2/2.
    let mut s = load(json!({
        "config": {"players": 2, "token_assignment": "none", "impostor": "auto-best"},
        "turn": 3, "actor": 1,
        "players": [{"hand": ["SI", "BI"], "stock": 5}, {"hand": ["S3", "B3"], "stock": 5}],
        "sand_discard": ["S1"], "blood_discard": ["B1"],
        "dice": [4, 2, 5, 2]
    }));
    play(&mut s, &["stand"]);
    assert_eq!(settled_class(&s, 0), kessel::HandClass::Sabacc(2));
    assert_eq!(round_winners(&s), vec![0]);
}

#[test]
fn k2_1_choose_with_zero_tokens_skips_the_choice() {
    let c =
        RuleConfig { token_assignment: TokenAssignment::Choose, tokens_per_player: 0, ..RuleConfig::with_players(3) };
    let s = State::new(c, 1).unwrap();
    assert_eq!(s.round(), 1);
    assert_eq!(s.pending(), Pending::Act);
}

#[test]
fn k6_settlement_events_are_logged_in_order() {
    let mut s = showdown(&[["S1", "B1"], ["S2", "B4"]], &[5, 5], &[2, 1], json!({}), json!({}));
    let ev0 = s.events().len();
    play(&mut s, &["stand"]);
    use kessel::event::ChipReason;
    let chips_events: Vec<(u8, i16, i16, ChipReason)> = events_since(&s, ev0)
        .iter()
        .filter_map(|e| match *e {
            Event::Chips { seat, stock, pot, reason } => Some((seat.0, stock, pot, reason)),
            _ => None,
        })
        .collect();
    assert_eq!(
        chips_events,
        vec![(0, 2, -2, ChipReason::PotReturned), (1, 0, -1, ChipReason::PotLost), (1, -2, 0, ChipReason::Tax)]
    );
    let won = events_since(&s, ev0).iter().position(|e| matches!(e, Event::RoundWon { .. })).unwrap();
    let started = events_since(&s, ev0).iter().position(|e| matches!(e, Event::RoundStarted { round: 2, .. })).unwrap();
    assert!(won < started);
}
