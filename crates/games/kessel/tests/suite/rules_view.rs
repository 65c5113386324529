//! K7: what each player can see.

use crate::common;

use common::*;
use game::Seat;
use kessel::{Event, Family, Pending, ViewDecision};
use serde_json::json;

#[test]
fn k7_opponents_hands_are_hidden_until_the_reveal() {
    let mut s =
        table(vec![seat(5, 0, &[]), seat(5, 0, &[]), seat(5, 0, &[])], json!({"turn": 3, "actor": 2, "dice": [1, 1]}));
    let v = s.view(Seat(0));
    assert_eq!(v.hand, s.player(Seat(0)).hand);
    assert_eq!(v.seats[0].known_hand, [Some(v.hand[0]), Some(v.hand[1])]);
    assert_eq!(v.seats[1].known_hand, [None, None]);
    assert_eq!(v.seats[2].known_hand, [None, None]);
    assert_eq!(v.draw_sizes, [s.draw_pile(Family::Sand).len() as u8, s.draw_pile(Family::Blood).len() as u8]);
    // Public: stocks, pots, discard piles.
    assert_eq!(v.seats[1].stock.0, 5);
    assert_eq!(v.discard[0].top(), s.discard_pile(Family::Sand).top());
    play(&mut s, &["stand"]);
    // After the reveal the settlement shows every hand to everyone.
    let v = s.view(Seat(0));
    let st = v.last_settlement.unwrap();
    assert_eq!(st.seats[1].unwrap().hand[0].name(), "S2");
}

#[test]
fn k7_revealed_hands_are_visible_to_all_during_the_reveal() {
    let mut s = table(
        vec![json!({"hand": ["S1", "BI"], "stock": 5}), seat(5, 0, &[])],
        json!({"turn": 3, "actor": 1, "dice": [2, 3]}),
    );
    play(&mut s, &["stand"]);
    assert!(matches!(s.pending(), Pending::ImpostorDie { .. }));
    let v = s.view(Seat(1));
    assert!(v.revealed);
    assert_eq!(v.seats[0].known_hand, [Some(s.player(Seat(0)).hand[0]), Some(s.player(Seat(0)).hand[1])]);
    assert_eq!(v.decision, ViewDecision::ImpostorDie { family: Family::Blood, dice: [2, 3] });
}

#[test]
fn k7_a_card_drawn_from_a_draw_pile_is_private_until_discarded() {
    let mut s = table(vec![seat(5, 0, &[]), seat(5, 0, &[])], json!({}));
    play(&mut s, &["draw:sand-deck"]);
    let Pending::Keep { drawn, .. } = s.pending() else { panic!() };
    assert_eq!(s.view(Seat(0)).decision, ViewDecision::Keep { drawn: Some(drawn), source: kessel::Source::SandDeck });
    assert_eq!(s.view(Seat(1)).decision, ViewDecision::Keep { drawn: None, source: kessel::Source::SandDeck });
    // The log records the source only.
    assert!(s.events().contains(&Event::Drew { seat: Seat(0), source: kessel::Source::SandDeck, card: None }));
    play(&mut s, &["keep:drawn"]);
    // Kept: the opponent does not know it; the discarded held card is public.
    assert_eq!(s.view(Seat(1)).seats[0].known_hand, [None, None]);
    assert_eq!(discard(&s, Family::Sand)[0], "S1");
}

#[test]
fn k7_a_card_drawn_from_a_discard_pile_is_public() {
    let mut s = table(vec![seat(5, 0, &[]), seat(5, 0, &[]), seat(5, 0, &[])], json!({}));
    let top = s.discard_pile(Family::Blood).top().unwrap();
    play(&mut s, &["draw:blood-discard"]);
    assert_eq!(s.view(Seat(2)).decision, ViewDecision::Keep { drawn: Some(top), source: kessel::Source::BloodDiscard });
    assert!(s.events().contains(&Event::Drew { seat: Seat(0), source: kessel::Source::BloodDiscard, card: Some(top) }));
    play(&mut s, &["keep:drawn"]);
    for v in [1u8, 2] {
        assert_eq!(s.view(Seat(v)).seats[0].known_hand, [None, Some(top)]);
    }
    // Later replaced by a face-down draw: unknown again.
    play(&mut s, &["stand", "stand", "draw:blood-deck", "keep:drawn"]);
    assert_eq!(s.view(Seat(1)).seats[0].known_hand, [None, None]);
}

#[test]
fn k7_direct_transaction_then_exhaustion_forgets_the_known_hand() {
    let mut s =
        table(vec![seat(5, 0, &["direct-transaction"]), seat(5, 0, &["exhaustion"]), seat(5, 0, &[])], json!({}));
    play(&mut s, &["token:direct-transaction", "target:+1", "stand"]);
    assert!(s.view(Seat(1)).seats[0].known_hand[0].is_some());
    // Seat 1 exhausts seat 0: seat 0's new hand is unknown to seat 1.
    play(&mut s, &["token:exhaustion", "target:+2"]);
    assert_eq!(s.view(Seat(1)).seats[0].known_hand, [None, None]);
    assert_eq!(s.view(Seat(2)).seats[0].known_hand, [None, None]);
}

#[test]
fn k7_unplayed_tokens_are_hidden_played_ones_public() {
    let mut s = table(vec![seat(5, 0, &["markdown", "embargo"]), seat(5, 0, &["refund"])], json!({}));
    let v1 = s.view(Seat(1));
    assert_eq!(v1.seats[0].unplayed, 2);
    assert!(v1.seats[0].spent.is_empty());
    assert_eq!(v1.own_tokens.len(), 1);
    play(&mut s, &["token:markdown"]);
    let v1 = s.view(Seat(1));
    assert_eq!(v1.seats[0].unplayed, 1);
    assert!(v1.seats[0].spent.contains(kessel::Token::Markdown));
    assert!(v1.effects.mods.markdown);
}

#[test]
fn k7_determinize_keeps_the_viewers_view() {
    let mut s = table(vec![seat(5, 0, &["direct-transaction"]), seat(5, 0, &[]), seat(5, 0, &[])], json!({}));
    play(&mut s, &["token:direct-transaction", "target:+1", "draw:sand-deck"]);
    for viewer in 0..3u8 {
        for seed in 0..5 {
            let d = s.determinize(Seat(viewer), seed);
            d.check_invariants().unwrap();
            assert_eq!(
                serde_json::to_string(&d.view(Seat(viewer))).unwrap(),
                serde_json::to_string(&s.view(Seat(viewer))).unwrap()
            );
        }
    }
    // Seat 0 knows seat 1's hand after the swap: it is kept in every determinisation.
    let d = s.determinize(Seat(0), 1);
    assert_eq!(d.player(Seat(1)).hand, s.player(Seat(1)).hand);
}

#[test]
#[should_panic(expected = "seat 3 is not at this 3-player table")]
fn a_view_of_a_seat_not_at_the_table_is_refused() {
    let s = table(vec![seat(5, 0, &[]), seat(5, 0, &[]), seat(5, 0, &[])], json!({"turn": 1, "actor": 0}));
    let _ = s.view(Seat(3));
}
