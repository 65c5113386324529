//! K5: every Shift Token's effect and legality, Immunity, targets, and the general token rules.

use crate::common;

use common::*;
use game::Seat;
use kessel::{Event, Family, Outcome, Pending, Token};
use serde_json::json;

/// The seats under a pending Embargo.
fn embargoed(s: &kessel::State) -> Vec<u8> {
    s.effects().embargoed.iter().map(|x| x.0).collect()
}

// ------------------------------------------------------------------------------------------
// K5 general rules

#[test]
fn k3_2_one_token_per_action_then_stand_or_draw() {
    let mut s = table(vec![seat(5, 0, &["markdown", "cook-the-books", "major-fraud"]), seat(5, 0, &[])], json!({}));
    assert!(is_legal(&s, "token:markdown") && is_legal(&s, "token:cook-the-books"));
    play(&mut s, &["token:markdown"]);
    assert!(s.token_played_this_action());
    assert_eq!(
        legal_names(&s),
        vec!["stand", "draw:sand-deck", "draw:blood-deck", "draw:sand-discard", "draw:blood-discard"]
    );
    refuse(&mut s, "token:cook-the-books");
    play(&mut s, &["stand"]);
    // The token is spent for the rest of the game; the others stay hidden and unplayed.
    let p = s.player(Seat(0));
    assert!(p.spent.contains(Token::Markdown) && !p.tokens.contains(Token::Markdown));
    assert_eq!(p.tokens.len(), 2);
}

#[test]
fn k5_each_kind_once_per_game_spent_tokens_do_not_return_next_round() {
    // Seat 0 plays Cook the Books in turn 3 as the last player; in round 2 it no longer holds it.
    let mut s =
        table(vec![seat(5, 0, &[]), seat(5, 0, &["cook-the-books", "immunity"])], json!({"turn": 3, "actor": 1}));
    play(&mut s, &["token:cook-the-books", "stand"]);
    assert_eq!(s.round(), 2);
    assert!(!s.effects().mods.cook_the_books, "Fix effects last until the reveal only");
    let p = s.player(Seat(1));
    assert!(!p.tokens.contains(Token::CookTheBooks) && p.spent.contains(Token::CookTheBooks));
    assert!(p.tokens.contains(Token::Immunity));
}

// ------------------------------------------------------------------------------------------
// Stock tokens

#[test]
fn k5_1_free_draw_costs_no_chip_and_is_legal_with_empty_stock() {
    let mut s = table(vec![seat(0, 0, &["free-draw"]), seat(5, 0, &[])], json!({}));
    assert_eq!(legal_names(&s), vec!["stand", "token:free-draw"]);
    play(&mut s, &["token:free-draw"]);
    assert!(is_legal(&s, "draw:sand-deck") && is_legal(&s, "draw:blood-discard"));
    play(&mut s, &["draw:sand-discard", "keep:drawn"]);
    assert_eq!(chips(&s, 0), (0, 0));
    assert_eq!(hand(&s, 0), ["S6", "B1"]);
    assert_eq!(discard(&s, Family::Sand), vec!["S1"]);
}

#[test]
fn k5_1_free_draw_lasts_for_this_action_only() {
    let mut s = table(vec![seat(2, 0, &["free-draw"]), seat(5, 0, &[])], json!({}));
    play(&mut s, &["token:free-draw", "draw:sand-deck", "keep:held"]);
    assert_eq!(chips(&s, 0), (2, 0));
    assert!(!s.effects().free_draw);
    play(&mut s, &["draw:blood-deck", "keep:held"]); // seat 1 pays
    assert_eq!(chips(&s, 1), (4, 1));
    play(&mut s, &["draw:sand-deck", "keep:held"]); // seat 0, turn 2, pays
    assert_eq!(chips(&s, 0), (1, 1));
}

#[test]
fn k5_1_free_draw_not_playable_when_embargoed() {
    let s = table(vec![seat(5, 0, &["free-draw"]), seat(5, 0, &[])], json!({"effects": {"embargoed": 0}}));
    assert_eq!(legal_names(&s), vec!["stand"]);
}

#[test]
fn k5_2_refund_moves_two_chips_from_hand_pot_to_stock() {
    let mut s = table(vec![seat(2, 3, &["refund"]), seat(5, 0, &[])], json!({}));
    let removed = s.chips_removed();
    play(&mut s, &["token:refund"]);
    assert_eq!(chips(&s, 0), (4, 1));
    assert_eq!(s.chips_removed(), removed);
    // Capped at the hand pot.
    let mut s = table(vec![seat(2, 1, &["refund"]), seat(5, 0, &[])], json!({}));
    play(&mut s, &["token:refund"]);
    assert_eq!(chips(&s, 0), (3, 0));
}

#[test]
fn k5_2_refund_illegal_with_empty_pot() {
    let mut s = table(vec![seat(5, 0, &["refund", "extra-refund"]), seat(5, 3, &[])], json!({}));
    assert!(!is_legal(&s, "token:refund"));
    assert!(!is_legal(&s, "token:extra-refund"));
    refuse(&mut s, "token:refund");
    refuse(&mut s, "token:extra-refund");
}

#[test]
fn k5_3_extra_refund_moves_three_capped_at_the_pot() {
    let mut s = table(vec![seat(1, 4, &["extra-refund"]), seat(5, 0, &[])], json!({}));
    play(&mut s, &["token:extra-refund"]);
    assert_eq!(chips(&s, 0), (4, 1));
    let mut s = table(vec![seat(1, 2, &["extra-refund"]), seat(5, 0, &[])], json!({}));
    play(&mut s, &["token:extra-refund"]);
    assert_eq!(chips(&s, 0), (3, 0));
}

#[test]
fn k5_4_embezzlement_takes_one_from_each_exposed_hand_pot() {
    let mut s = table(
        vec![seat(3, 1, &["embezzlement"]), seat(3, 2, &[]), seat(3, 0, &[]), seat(3, 1, &[])],
        json!({"effects": {"immune": [3]}}),
    );
    play(&mut s, &["token:embezzlement"]);
    assert_eq!((0..4).map(|i| chips(&s, i)).collect::<Vec<_>>(), vec![(3, 2), (3, 1), (3, 0), (3, 1)]);
}

#[test]
fn k5_4_embezzlement_not_playable_without_an_exposed_hand_pot() {
    let s = table(
        vec![seat(3, 1, &["embezzlement"]), seat(3, 0, &[]), seat(3, 0, &[]), seat(3, 2, &[])],
        json!({"effects": {"immune": [3]}}),
    );
    assert!(!is_legal(&s, "token:embezzlement"));
}

#[test]
fn k5_4_embezzled_chips_are_invested_and_lost_with_the_round() {
    // Seat 1 (last to act in turn 3) embezzles from seat 0 and loses the round with a 2/5.
    let mut s = table(
        vec![
            json!({"hand": ["S1", "B1"], "stock": 2, "pot": 2}),
            json!({"hand": ["S2", "B5"], "stock": 2, "tokens": ["embezzlement"]}),
        ],
        json!({"turn": 3, "actor": 1}),
    );
    play(&mut s, &["token:embezzlement"]);
    assert_eq!((chips(&s, 0), chips(&s, 1)), ((2, 1), (2, 1)));
    play(&mut s, &["stand"]);
    let st = s.last_settlement().unwrap();
    assert_eq!(round_winners(&s), vec![0]);
    assert_eq!(st.seats[0].unwrap().pot_returned, 1);
    assert_eq!(st.seats[1].unwrap().pot_lost, 1);
    // Nulhrek d = 3 taxed 3, capped at the stock of 2 (K6.2); seat 1 is out (K6.3), seat 0 wins.
    assert_eq!(st.seats[1].unwrap().tax, 2);
    assert_eq!(stocks(&s), vec![3, 0]);
    assert!(s.is_terminal());
    assert_eq!(s.outcome(Seat(0)), Outcome::Won);
    assert_eq!(s.outcome(Seat(1)), Outcome::Lost);
}

// ------------------------------------------------------------------------------------------
// Tax tokens

#[test]
fn k5_5_general_tariff_every_exposed_opponent_loses_one_capped() {
    let mut s = table(
        vec![seat(5, 0, &["general-tariff"]), seat(3, 0, &[]), seat(0, 1, &[]), seat(2, 0, &[])],
        json!({"effects": {"immune": [3]}}),
    );
    let removed = s.chips_removed();
    play(&mut s, &["token:general-tariff"]);
    assert_eq!(stocks(&s), vec![5, 2, 0, 2]);
    assert_eq!(chips(&s, 2), (0, 1), "a Tariff takes from stock, never from the hand pot");
    assert_eq!(s.chips_removed(), removed + 1, "Tariff chips leave the game");
}

#[test]
fn k5_5_general_tariff_not_playable_when_exposed_opponents_have_no_stock() {
    let s = table(
        vec![seat(5, 0, &["general-tariff"]), seat(0, 2, &[]), seat(0, 0, &[]), seat(4, 0, &[])],
        json!({"effects": {"immune": [3]}}),
    );
    assert!(!is_legal(&s, "token:general-tariff"));
}

#[test]
fn k5_6_target_tariff_offers_only_targets_with_stock_and_caps_at_stock() {
    let mut s = table(
        vec![seat(5, 0, &["target-tariff"]), seat(1, 0, &[]), seat(0, 0, &[]), seat(4, 0, &[])],
        json!({"effects": {"immune": [3]}}),
    );
    play(&mut s, &["token:target-tariff"]);
    assert_eq!(s.pending(), Pending::Target { token: Token::TargetTariff });
    assert_eq!(legal_names(&s), vec!["target:+1"]);
    refuse(&mut s, "target:+2");
    refuse(&mut s, "target:+3");
    let ev0 = s.events().len();
    play(&mut s, &["target:+1"]);
    assert_eq!(stocks(&s), vec![5, 0, 0, 4]);
    assert!(events_since(&s, ev0).contains(&Event::TokenTargeted {
        seat: Seat(0),
        token: Token::TargetTariff,
        target: Seat(1)
    }));
    // The target is still in the game until the settlement (K5: no mid-round elimination).
    assert!(s.active_seats().contains(Seat(1)));
    assert_eq!(s.pending(), Pending::Act);
    assert_eq!(s.current_player(), Some(Seat(0)));
}

#[test]
fn k5_6_target_tariff_takes_two() {
    let mut s = table(vec![seat(5, 0, &["target-tariff"]), seat(3, 0, &[]), seat(4, 0, &[])], json!({}));
    play(&mut s, &["token:target-tariff"]);
    assert_eq!(legal_names(&s), vec!["target:+1", "target:+2"]);
    play(&mut s, &["target:+2"]);
    assert_eq!(stocks(&s), vec![5, 3, 2]);
}

#[test]
fn k5_7_general_audit_taxes_opponents_in_stand_two() {
    let mut s = table(
        vec![
            seat(5, 0, &["general-audit"]),
            json!({"stock": 3, "last_action": "stand", "stood_turn": 1}),
            json!({"stock": 1, "last_action": "stand", "stood_turn": 1}),
            json!({"stock": 3, "pot": 1, "last_action": "draw"}),
        ],
        json!({"turn": 2, "all_stood_this_turn": true}),
    );
    let removed = s.chips_removed();
    play(&mut s, &["token:general-audit"]);
    assert_eq!(stocks(&s), vec![5, 1, 0, 3]);
    assert_eq!(s.chips_removed(), removed + 3);
}

#[test]
fn k5_7_general_audit_not_playable_when_nobody_is_in_stand() {
    let s = table(vec![seat(5, 0, &["general-audit", "target-audit"]), seat(5, 0, &[]), seat(5, 0, &[])], json!({}));
    assert!(!is_legal(&s, "token:general-audit"));
    assert!(!is_legal(&s, "token:target-audit"));
}

#[test]
fn k5_8_target_audit_requires_stand() {
    let mut s = table(
        vec![
            seat(5, 0, &["target-audit"]),
            json!({"stock": 4, "last_action": "stand", "stood_turn": 1}),
            json!({"stock": 4, "pot": 1, "last_action": "draw"}),
            json!({"stock": 4}),
        ],
        json!({"turn": 2}),
    );
    play(&mut s, &["token:target-audit"]);
    assert_eq!(legal_names(&s), vec!["target:+1"]);
    refuse(&mut s, "target:+2");
    refuse(&mut s, "target:+3");
    play(&mut s, &["target:+1"]);
    assert_eq!(stocks(&s), vec![5, 1, 4, 4]);
}

#[test]
fn k5_8_target_audit_capped_at_stock() {
    let mut s = table(
        vec![seat(5, 0, &["target-audit"]), json!({"stock": 2, "pot": 1, "last_action": "stand", "stood_turn": 1})],
        json!({"turn": 2}),
    );
    play(&mut s, &["token:target-audit", "target:+1"]);
    assert_eq!(chips(&s, 1), (0, 1));
}

// ------------------------------------------------------------------------------------------
// Fix tokens

#[test]
fn k5_9_prime_sabacc_rolls_two_dice_and_the_player_picks_one() {
    let mut s = table(vec![seat(5, 0, &["prime-sabacc"]), seat(5, 0, &[])], json!({"dice": [2, 5]}));
    play(&mut s, &["token:prime-sabacc"]);
    assert_eq!(s.pending(), Pending::PrimeDie { dice: [2, 5] });
    assert_eq!(legal_names(&s), vec!["die:1", "die:2"]);
    let ev0 = s.events().len();
    play(&mut s, &["die:2"]);
    assert_eq!(s.effects().mods.prime, Some(5));
    assert!(events_since(&s, ev0).contains(&Event::PrimeSet { seat: Seat(0), value: 5 }));
    assert_eq!(s.pending(), Pending::Act);
    assert!(!is_legal(&s, "token:prime-sabacc"));
}

#[test]
fn k4_6_later_prime_sabacc_replaces_the_earlier_one() {
    // Prime 3 is in force; seat 1 rolls 6 and 1, takes 6: its 6/6 now beats seat 0's 3/3.
    let mut s = table(
        vec![
            json!({"hand": ["S3", "B3"], "stock": 5}),
            json!({"hand": ["S6", "B6"], "stock": 5, "tokens": ["prime-sabacc"]}),
        ],
        json!({"turn": 3, "actor": 1, "effects": {"prime": 3}, "dice": [6, 1], "sand_discard": ["S1"], "blood_discard": ["B1"]}),
    );
    play(&mut s, &["token:prime-sabacc", "die:1"]);
    assert_eq!(s.effects().mods.prime, Some(6));
    play(&mut s, &["stand"]);
    assert_eq!(round_winners(&s), vec![1]);
}

#[test]
fn k5_10_markdown_sets_markdown_and_a_second_one_is_not_playable() {
    let mut s = table(vec![seat(5, 0, &["markdown"]), seat(5, 0, &["markdown"])], json!({}));
    play(&mut s, &["token:markdown", "stand"]);
    assert!(s.effects().mods.markdown);
    assert!(!is_legal(&s, "token:markdown"));
}

#[test]
fn k5_11_second_cook_the_books_not_playable() {
    let mut s = table(vec![seat(5, 0, &["cook-the-books"]), seat(5, 0, &["cook-the-books"])], json!({}));
    play(&mut s, &["token:cook-the-books", "stand"]);
    assert!(s.effects().mods.cook_the_books);
    assert!(!is_legal(&s, "token:cook-the-books"));
    refuse(&mut s, "token:cook-the-books");
}

#[test]
fn k5_12_major_fraud_sets_impostors_to_six_once() {
    let mut s = table(vec![seat(5, 0, &["major-fraud"]), seat(5, 0, &["major-fraud"])], json!({}));
    play(&mut s, &["token:major-fraud", "stand"]);
    assert!(s.effects().mods.major_fraud);
    assert!(!is_legal(&s, "token:major-fraud"));
}

// ------------------------------------------------------------------------------------------
// Disrupt tokens

#[test]
fn k5_13_embargo_next_player_must_stand_but_may_play_a_token() {
    let mut s =
        table(vec![seat(5, 0, &["embargo"]), seat(5, 0, &["free-draw", "immunity"]), seat(5, 0, &[])], json!({}));
    let ev0 = s.events().len();
    play(&mut s, &["token:embargo"]);
    assert!(events_since(&s, ev0).contains(&Event::Embargoed { seat: Seat(0), target: Seat(1) }));
    assert_eq!(embargoed(&s), vec![1]);
    play(&mut s, &["draw:sand-deck", "keep:held"]);
    assert_eq!(s.current_player(), Some(Seat(1)));
    assert_eq!(legal_names(&s), vec!["stand", "token:immunity"]);
    refuse(&mut s, "draw:sand-deck");
    // Immunity played after the Embargo took hold does not lift it (reading of K5.13/K5.14).
    play(&mut s, &["token:immunity"]);
    assert_eq!(legal_names(&s), vec!["stand"]);
    let ev1 = s.events().len();
    play(&mut s, &["stand"]);
    assert!(events_since(&s, ev1).contains(&Event::Stood { seat: Seat(1), forced: true }));
    assert_eq!(embargoed(&s), Vec::<u8>::new());
    assert!(is_legal(&s, "draw:sand-deck"), "the seat after the embargoed one acts freely");
}

#[test]
fn k5_13_embargo_wraps_into_next_turn() {
    // The last seat of turn 1 embargoes the starter, who must stand in turn 2.
    let mut s = table(
        vec![seat(5, 0, &[]), seat(5, 0, &[]), seat(5, 0, &["embargo"])],
        json!({"actor": 2, "all_stood_this_turn": false}),
    );
    play(&mut s, &["token:embargo"]);
    assert_eq!(embargoed(&s), vec![0]);
    play(&mut s, &["draw:sand-deck", "keep:held"]);
    assert_eq!(s.turn(), 2);
    assert_eq!(s.current_player(), Some(Seat(0)));
    assert_eq!(legal_names(&s), vec!["stand"]);
    play(&mut s, &["stand"]);
    assert_eq!(embargoed(&s), Vec::<u8>::new());
}

#[test]
fn k5_13_embargo_not_playable_when_no_action_follows_this_round() {
    let s = table(vec![seat(5, 0, &[]), seat(5, 0, &[]), seat(5, 0, &["embargo"])], json!({"actor": 2, "turn": 3}));
    assert!(!is_legal(&s, "token:embargo"));
    // Earlier in turn 3 the next seat still acts this round.
    let s = table(vec![seat(5, 0, &[]), seat(5, 0, &["embargo"]), seat(5, 0, &[])], json!({"actor": 1, "turn": 3}));
    assert!(is_legal(&s, "token:embargo"));
}

#[test]
fn k5_13_embargo_not_playable_when_next_player_is_immune() {
    let s =
        table(vec![seat(5, 0, &["embargo"]), seat(5, 0, &[]), seat(5, 0, &[])], json!({"effects": {"immune": [1]}}));
    assert!(!is_legal(&s, "token:embargo"));
}

#[test]
fn k5_13_embargo_skips_eliminated_seats() {
    let s0 = table(vec![seat(5, 0, &["embargo"]), json!({"stock": 0, "eliminated": true}), seat(5, 0, &[])], json!({}));
    let mut s = s0.clone();
    play(&mut s, &["token:embargo"]);
    assert_eq!(embargoed(&s), vec![2]);
}

#[test]
fn k5_14_immunity_shields_from_stock_tax_and_disrupt_tokens() {
    let mut s = table(
        vec![
            seat(5, 1, &["immunity"]),
            seat(5, 1, &["general-tariff", "target-tariff", "exhaustion"]),
            json!({"stock": 5, "pot": 1, "tokens": ["embezzlement"]}),
        ],
        json!({"all_stood_this_turn": true}),
    );
    play(&mut s, &["token:immunity"]);
    assert!(s.effects().immune.contains(Seat(0)));
    assert!(!is_legal(&s, "token:immunity"));
    play(&mut s, &["stand"]);
    // Seat 1: the Target Tariff offers only seat 2 (+1), not the immune seat 0 (+2).
    play(&mut s, &["token:target-tariff"]);
    assert_eq!(legal_names(&s), vec!["target:+1"]);
    refuse(&mut s, "target:+2");
    play(&mut s, &["target:+1", "stand"]);
    assert_eq!(stocks(&s), vec![5, 5, 3]);
    // Seat 2: Embezzlement takes from seat 1's hand pot only, not from the immune seat 0.
    play(&mut s, &["token:embezzlement"]);
    assert_eq!((chips(&s, 0), chips(&s, 1), chips(&s, 2)), ((5, 1), (5, 0), (3, 2)));
}

#[test]
fn k5_14_immunity_shields_from_audits_and_general_tariff() {
    let mut s = table(
        vec![
            seat(5, 0, &["general-audit", "general-tariff"]),
            json!({"stock": 4, "last_action": "stand", "stood_turn": 1}),
            json!({"stock": 4, "last_action": "stand", "stood_turn": 1}),
        ],
        json!({"turn": 2, "effects": {"immune": [1]}}),
    );
    let mut t = s.clone();
    play(&mut s, &["token:general-audit"]);
    assert_eq!(stocks(&s), vec![5, 4, 2]);
    play(&mut t, &["token:general-tariff"]);
    assert_eq!(stocks(&t), vec![5, 4, 3]);
}

#[test]
fn k5_14_immune_player_cannot_be_chosen_for_exhaustion_or_direct_transaction() {
    let mut s = table(
        vec![seat(5, 0, &["exhaustion", "direct-transaction"]), seat(5, 0, &[]), seat(5, 0, &[])],
        json!({"effects": {"immune": [1]}}),
    );
    play(&mut s, &["token:exhaustion"]);
    assert_eq!(legal_names(&s), vec!["target:+2"]);
    refuse(&mut s, "target:+1");
    // With every opponent immune, neither token is playable.
    let s = table(
        vec![seat(5, 0, &["exhaustion", "direct-transaction", "general-tariff"]), seat(5, 0, &[]), seat(5, 0, &[])],
        json!({"effects": {"immune": [1, 2]}}),
    );
    assert_eq!(
        legal_names(&s),
        vec!["stand", "draw:sand-deck", "draw:blood-deck", "draw:sand-discard", "draw:blood-discard"]
    );
}

#[test]
fn k5_14_immunity_does_not_shield_from_fix_tokens() {
    // Seat 0 is immune with 1/1; seat 1 plays Cook the Books and wins with 6/6.
    let mut s = table(
        vec![
            json!({"hand": ["S1", "B1"], "stock": 5}),
            json!({"hand": ["S6", "B6"], "stock": 5, "tokens": ["cook-the-books"]}),
        ],
        json!({"turn": 3, "actor": 1, "effects": {"immune": [0]}, "sand_discard": ["S2"], "blood_discard": ["B2"]}),
    );
    play(&mut s, &["token:cook-the-books", "stand"]);
    assert_eq!(round_winners(&s), vec![1]);
    assert_eq!(stocks(&s), vec![4, 5]);
}

#[test]
fn k5_15_exhaustion_discards_both_cards_and_deals_a_new_hand_free() {
    let sand_draw = {
        let mut v = vec!["S4".to_string()];
        v.extend(without(&family_names('S'), &["S1", "S2", "S3", "S6", "S4"]));
        v
    };
    let blood_draw = {
        let mut v = vec!["B5".to_string()];
        v.extend(without(&family_names('B'), &["B1", "B2", "B3", "B6", "B5"]));
        v
    };
    let mut s = table(
        vec![seat(5, 0, &["exhaustion"]), seat(5, 2, &[]), seat(5, 0, &[])],
        json!({"sand_draw": sand_draw, "blood_draw": blood_draw}),
    );
    let ev0 = s.events().len();
    play(&mut s, &["token:exhaustion", "target:+1"]);
    assert_eq!(hand(&s, 1), ["S4", "B5"]);
    assert_eq!(chips(&s, 1), (5, 2));
    assert_eq!(chips(&s, 0), (5, 0));
    assert_eq!(discard(&s, Family::Sand), vec!["S2", "S6"]);
    assert_eq!(discard(&s, Family::Blood), vec!["B2", "B6"]);
    assert_eq!(s.draw_pile(Family::Sand).len(), 17);
    let ev = events_since(&s, ev0);
    assert!(ev.contains(&Event::Exhausted { seat: Seat(0), target: Seat(1) }));
    assert_eq!(ev.iter().filter(|e| matches!(e, Event::Discarded { seat, .. } if *seat == Seat(1))).count(), 2);
}

#[test]
fn k5_15_exhaustion_rebuilds_an_empty_draw_pile_after_discarding() {
    // The Sand draw pile is empty; the discard pile holds the other 19 Sand cards, S6 on top.
    let mut rest = without(&family_names('S'), &["S1", "S2", "S3", "S6"]);
    rest.insert(0, "S6".into());
    let mut s = table(
        vec![seat(5, 0, &["exhaustion"]), seat(5, 0, &[]), seat(5, 0, &[])],
        json!({"sand_draw": [], "sand_discard": rest}),
    );
    assert!(!is_legal(&s, "draw:sand-deck") || s.discard_pile(Family::Sand).len() >= 2);
    let ev0 = s.events().len();
    play(&mut s, &["token:exhaustion", "target:+1"]);
    // Seat 1's S2 went on the discard pile and stays as its only card; the 19 below it became the
    // draw pile, from which seat 1 got its new Sand card.
    assert_eq!(discard(&s, Family::Sand), vec!["S2"]);
    assert_eq!(s.draw_pile(Family::Sand).len(), 18);
    assert!(events_since(&s, ev0).contains(&Event::DrawPileRebuilt { family: Family::Sand, cards: 19 }));
    let new_sand = s.player(Seat(1)).hand[0];
    assert_ne!(new_sand, s.discard_pile(Family::Sand).top().unwrap());
}

#[test]
fn k5_16_direct_transaction_swaps_hands_and_both_know_them() {
    let mut s = table(vec![seat(5, 0, &["direct-transaction"]), seat(5, 0, &[]), seat(5, 0, &[])], json!({}));
    let h0 = s.player(Seat(0)).hand;
    let h1 = s.player(Seat(1)).hand;
    let ev0 = s.events().len();
    play(&mut s, &["token:direct-transaction", "target:+1"]);
    assert_eq!(hand(&s, 0), ["S2", "B2"]);
    assert_eq!(hand(&s, 1), ["S1", "B1"]);
    assert!(events_since(&s, ev0).contains(&Event::HandsSwapped { seat: Seat(0), target: Seat(1) }));
    // K7: each of the two knows the hand the other now holds; the third player knows neither.
    assert_eq!(s.view(Seat(0)).seats[1].known_hand, [Some(h0[0]), Some(h0[1])]);
    assert_eq!(s.view(Seat(1)).seats[0].known_hand, [Some(h1[0]), Some(h1[1])]);
    assert_eq!(s.view(Seat(2)).seats[0].known_hand, [None, None]);
    assert_eq!(s.view(Seat(2)).seats[1].known_hand, [None, None]);
}

#[test]
fn k5_no_elimination_mid_round_a_winner_recovers_from_zero_stock() {
    // Seat 0 taxes seat 1 to 0 stock; seat 1 stays in, wins with 1/1 and takes its pot of 2 back.
    let mut s = table(
        vec![
            json!({"hand": ["S2", "B5"], "stock": 3, "tokens": ["target-tariff"]}),
            json!({"hand": ["S1", "B1"], "stock": 1, "pot": 2}),
        ],
        json!({"turn": 3, "actor": 0}),
    );
    play(&mut s, &["token:target-tariff", "target:+1", "stand"]);
    assert_eq!(chips(&s, 1), (0, 2));
    assert!(!s.player(Seat(1)).eliminated);
    assert_eq!(legal_names(&s), vec!["stand"]);
    play(&mut s, &["stand"]);
    assert_eq!(round_winners(&s), vec![1]);
    // Seat 0's 2/5 pays d = 3 of its 3 chips and is eliminated; seat 1 wins the game with 2.
    assert_eq!(stocks(&s), vec![0, 2]);
    assert_eq!(s.outcome(Seat(1)), Outcome::Won);
    assert_eq!(s.outcome(Seat(0)), Outcome::Lost);
}

// ------------------------------------------------------------------------------------------
// K5.13 Embargo: several pending at once, each binding its target's next action

/// K5.13 "the next active player … must Stand on their next action; they may still play a token
/// first": a seat under Embargo that plays its own Embargo still stands (logged as forced), and
/// the seat after it is bound too, so two Embargoes are pending until the first is served.
#[test]
fn k5_13_embargoed_seat_playing_embargo_still_stands_and_binds_the_next() {
    let mut s = table(vec![seat(5, 0, &["embargo"]), seat(5, 0, &["embargo"]), seat(5, 0, &[])], json!({}));
    play(&mut s, &["token:embargo", "draw:sand-deck", "keep:held"]);
    assert_eq!(s.current_player(), Some(Seat(1)));
    assert_eq!(legal_names(&s), vec!["stand", "token:embargo"]);
    let ev0 = s.events().len();
    play(&mut s, &["token:embargo"]);
    assert_eq!(embargoed(&s), vec![1, 2], "both Embargoes are pending");
    assert_eq!(legal_names(&s), vec!["stand"], "its own Embargo does not free the seat");
    refuse(&mut s, "draw:sand-deck");
    play(&mut s, &["stand"]);
    let ev = events_since(&s, ev0);
    assert!(ev.contains(&Event::Embargoed { seat: Seat(1), target: Seat(2) }));
    assert!(ev.contains(&Event::Stood { seat: Seat(1), forced: true }));
    assert_eq!(embargoed(&s), vec![2]);
    assert_eq!(legal_names(&s), vec!["stand"]);
    let ev1 = s.events().len();
    play(&mut s, &["stand"]);
    assert!(events_since(&s, ev1).contains(&Event::Stood { seat: Seat(2), forced: true }));
    assert_eq!(embargoed(&s), Vec::<u8>::new());
}

/// K5.13 with two seats, where "the next active player (wrapping into the next turn)" is the
/// one who played the first Embargo: each Embargo binds its own target once.
#[test]
fn k5_13_two_seats_embargo_each_other() {
    let mut s = table(vec![seat(5, 0, &["embargo"]), seat(5, 0, &["embargo"])], json!({}));
    play(&mut s, &["token:embargo", "draw:sand-deck", "keep:held", "token:embargo"]);
    assert_eq!(embargoed(&s), vec![0, 1]);
    let ev0 = s.events().len();
    play(&mut s, &["stand"]);
    assert_eq!(s.turn(), 2, "seat 0 drew, so turn 1 does not end the round");
    assert_eq!(legal_names(&s), vec!["stand"], "seat 0 serves seat 1's Embargo in turn 2");
    play(&mut s, &["stand"]);
    let forced: Vec<Event> = events_since(&s, ev0).into_iter().filter(|e| matches!(e, Event::Stood { .. })).collect();
    assert_eq!(
        forced,
        vec![Event::Stood { seat: Seat(1), forced: true }, Event::Stood { seat: Seat(0), forced: true }]
    );
    assert!(is_legal(&s, "draw:sand-deck"), "seat 1 is free again");
}

/// K5 "a token is played at the start of the player's own action", K5.13 "they may still play a
/// token first": whatever token the embargoed seat plays, it must then Stand, and the stand is
/// logged as forced.
#[test]
fn k5_13_embargo_binds_its_target_whatever_token_it_plays() {
    for token in
        ["refund", "embezzlement", "general-tariff", "markdown", "immunity", "exhaustion", "direct-transaction"]
    {
        let mut s = table(vec![seat(5, 1, &["embargo"]), seat(5, 2, &[token]), seat(5, 1, &[])], json!({}));
        play(&mut s, &["token:embargo", "draw:sand-deck", "keep:held"]);
        play(&mut s, &[&format!("token:{token}")]);
        if s.pending() != Pending::Act {
            play(&mut s, &["target:+1"]);
        }
        assert_eq!(legal_names(&s), vec!["stand"], "after {token}");
        let ev0 = s.events().len();
        play(&mut s, &["stand"]);
        assert!(events_since(&s, ev0).contains(&Event::Stood { seat: Seat(1), forced: true }), "after {token}");
    }
}

// ------------------------------------------------------------------------------------------
// K5 "A token that would have no legal effect is not a legal play": the last action of a round

/// K5 "a token that would have no legal effect is not a legal play" with K3.6: the last seat of a
/// turn in which everyone stood, who cannot draw (no chip in stock), ends the round by standing,
/// so no action follows for an Embargo to bind.
#[test]
fn k5_13_embargo_not_playable_when_the_early_reveal_is_certain() {
    let three = |actor_stock: u16, extra: serde_json::Value| {
        let mut e = json!({"actor": 2, "all_stood_this_turn": true});
        for (k, v) in extra.as_object().unwrap() {
            e[k] = v.clone();
        }
        table(vec![seat(5, 0, &[]), seat(5, 0, &[]), seat(actor_stock, 1, &["embargo", "free-draw"])], e)
    };
    assert!(!is_legal(&three(0, json!({})), "token:embargo"), "no chip: the stand is certain");
    assert!(is_legal(&three(1, json!({})), "token:embargo"), "with a chip it may draw and the round go on");
    assert!(is_legal(&three(0, json!({"all_stood_this_turn": false})), "token:embargo"), "someone drew");
    assert!(
        is_legal(&three(0, json!({"config": {"early_reveal": false}})), "token:embargo"),
        "without the early reveal turn 2 follows"
    );
    // Embargoed itself (by seat 1, who then stood), the last seat must stand too: the round ends.
    let mut s = table(
        vec![
            json!({"stock": 5, "last_action": "stand", "stood_turn": 1}),
            seat(5, 0, &["embargo"]),
            seat(5, 0, &["embargo", "immunity"]),
        ],
        json!({"actor": 1, "all_stood_this_turn": true}),
    );
    play(&mut s, &["token:embargo", "stand"]);
    assert_eq!(legal_names(&s), vec!["stand"], "neither Embargo nor Immunity has anything left to act on");
    refuse(&mut s, "token:embargo");
    refuse(&mut s, "token:immunity");
    play(&mut s, &["stand"]);
    assert_eq!(s.round(), 2, "the forced stand ended the round (K3.6)");
}

/// K5 "a token that would have no legal effect is not a legal play", every kind checked at the
/// last action of turn 3 (K3.7): Embargo binds a next action and Immunity shields from
/// opponents' later tokens (K5.13, K5.14), and none follows, so exactly those two are refused;
/// every other kind still changes chips, cards or the ranking at the reveal.
#[test]
fn k5_every_token_kind_at_the_last_action_of_a_round() {
    let all: Vec<String> = kessel::Token::ALL.iter().map(|t| t.name().to_string()).collect();
    let all: Vec<&str> = all.iter().map(|x| x.as_str()).collect();
    let s = table(
        vec![
            json!({"stock": 4, "pot": 1, "last_action": "stand", "stood_turn": 3}),
            json!({"stock": 4, "pot": 1, "last_action": "stand", "stood_turn": 3}),
            seat(4, 2, &all),
        ],
        json!({"actor": 2, "turn": 3}),
    );
    let refused: Vec<&str> = all.iter().copied().filter(|t| !is_legal(&s, &format!("token:{t}"))).collect();
    assert_eq!(refused, vec!["embargo", "immunity"]);
    // One action earlier the same two are legal: seat 2 still acts after seat 1.
    let s = table(
        vec![
            json!({"stock": 4, "pot": 1, "last_action": "stand", "stood_turn": 3}),
            seat(4, 2, &["embargo", "immunity"]),
            json!({"stock": 4, "pot": 1, "last_action": "stand", "stood_turn": 2}),
        ],
        json!({"actor": 1, "turn": 3}),
    );
    assert!(is_legal(&s, "token:embargo") && is_legal(&s, "token:immunity"));
}

/// K5.14 "until the reveal" with K5 "no legal effect": Immunity played where the round is certain
/// to end (last seat of a turn in which all stood, no chip to draw with) shields from nothing.
#[test]
fn k5_14_immunity_not_playable_when_the_round_ends_with_this_action() {
    let s = table(
        vec![seat(5, 0, &[]), seat(0, 2, &["immunity", "free-draw"])],
        json!({"actor": 1, "all_stood_this_turn": true}),
    );
    assert_eq!(legal_names(&s), vec!["stand", "token:free-draw"]);
    // With a chip the seat may draw, turn 2 may follow, and Immunity can matter.
    let s = table(vec![seat(5, 0, &[]), seat(1, 2, &["immunity"])], json!({"actor": 1, "all_stood_this_turn": true}));
    assert!(is_legal(&s, "token:immunity"));
}

/// K5.13 "they may still play a token first" with K5.14 "until the reveal, the player is shielded
/// from opponents' … Disrupt tokens": Immunity played by a seat already under Embargo does not
/// lift that Embargo (it was played before the shield existed, and an Embargo binds its target's
/// next action whatever the target plays); it shields from the tokens played after it, such as
/// a later Embargo.
#[test]
fn k5_14_immunity_under_embargo_keeps_it_and_shields_from_later_ones() {
    let mut s = table(vec![seat(5, 0, &["embargo"]), seat(5, 0, &["immunity"])], json!({}));
    play(&mut s, &["token:embargo", "draw:sand-deck", "keep:held"]);
    assert!(is_legal(&s, "token:immunity"), "seat 0 acts again in turn 2: the shield can matter");
    play(&mut s, &["token:immunity"]);
    assert!(s.effects().immune.contains(Seat(1)));
    assert_eq!(legal_names(&s), vec!["stand"], "the Embargo still binds");
    let ev0 = s.events().len();
    play(&mut s, &["stand"]);
    assert!(events_since(&s, ev0).contains(&Event::Stood { seat: Seat(1), forced: true }));
    // Seat 0 gets a new Embargo in a later round only; here: no one can embargo seat 1 any more.
    let s = table(vec![seat(5, 0, &["embargo"]), seat(5, 0, &[])], json!({"effects": {"immune": [1]}}));
    assert!(!is_legal(&s, "token:embargo"));
}
