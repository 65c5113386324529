//! Scenario tests of the rules: legality, the raise cap, stakes, showdowns and payoffs.

use game::Seat;
use leduc::render::{render_state, render_view};
use leduc::{Action, ActionError, Card, ConfigError, DealError, Event, RuleConfig, State};

use Action::{Call, Fold, Raise};

fn card(s: &str) -> Card {
    s.parse().unwrap()
}

/// A standard hand with these cards (seat 0, seat 1, board) after these actions.
fn hand(p0: &str, p1: &str, board: &str, actions: &[Action]) -> State {
    let mut s = State::with_deal(RuleConfig::default(), [card(p0), card(p1)], card(board)).unwrap();
    for &a in actions {
        s.apply(a).unwrap();
        s.check_invariants().unwrap();
    }
    s
}

#[test]
fn fold_is_legal_only_when_facing_a_bet() {
    let s = hand("Ks", "Qs", "Jh", &[]);
    assert_eq!(s.legal_actions(), vec![Call, Raise]);
    let s = hand("Ks", "Qs", "Jh", &[Call]);
    assert_eq!(s.legal_actions(), vec![Call, Raise], "after a check there is still no bet");
    let s = hand("Ks", "Qs", "Jh", &[Call, Raise]);
    assert_eq!(s.legal_actions(), vec![Fold, Call, Raise]);
    let s = hand("Ks", "Qs", "Jh", &[Call, Call]);
    assert_eq!(s.round(), 2);
    assert_eq!(s.legal_actions(), vec![Call, Raise], "round 2 opens without a bet");
}

#[test]
fn first_bet_counts_toward_the_cap_of_two_raises_per_round() {
    let s = hand("Ks", "Qs", "Jh", &[Raise, Raise]);
    assert_eq!(s.legal_actions(), vec![Fold, Call], "bet + raise is the cap");
    let s = hand("Ks", "Qs", "Jh", &[Call, Raise, Raise]);
    assert_eq!(s.legal_actions(), vec![Fold, Call], "a check before does not count");
    let s = hand("Ks", "Qs", "Jh", &[Raise, Raise, Call, Raise, Raise]);
    assert_eq!(s.round(), 2);
    assert_eq!(s.legal_actions(), vec![Fold, Call], "the cap holds in round 2 too, counted afresh");
    let mut s = hand("Ks", "Qs", "Jh", &[Raise, Raise]);
    let before = s.clone();
    let e = s.apply(Raise).unwrap_err();
    assert!(matches!(e, ActionError::Illegal { action: Raise, seat: Seat(0), .. }), "{e}");
    assert!(e.to_string().contains("legal actions: fold call"), "{e}");
    assert_eq!(s, before, "a refused action leaves the state unchanged");
}

#[test]
fn raise_sizes_are_two_in_round_one_and_four_in_round_two() {
    let s = hand("Ks", "Qs", "Jh", &[Raise]);
    assert_eq!(s.contributions(), [3, 1]);
    let s = hand("Ks", "Qs", "Jh", &[Raise, Raise]);
    assert_eq!(s.contributions(), [3, 5], "a raise calls the bet and adds 2");
    let s = hand("Ks", "Qs", "Jh", &[Raise, Raise, Call]);
    assert_eq!((s.contributions(), s.pot()), ([5, 5], 10));
    let s = hand("Ks", "Qs", "Jh", &[Raise, Raise, Call, Raise]);
    assert_eq!(s.contributions(), [9, 5]);
    let s = hand("Ks", "Qs", "Jh", &[Raise, Raise, Call, Raise, Raise]);
    assert_eq!(s.contributions(), [9, 13], "a round-2 raise calls the bet and adds 4");
}

#[test]
fn rounds_close_on_two_checks_or_a_call_and_seat_zero_opens_each_round() {
    let s = hand("Ks", "Qs", "Jh", &[Call]);
    assert_eq!((s.round(), s.current_player()), (1, Some(Seat(1))));
    let s = hand("Ks", "Qs", "Jh", &[Call, Call]);
    assert_eq!((s.round(), s.current_player(), s.public_card()), (2, Some(Seat(0)), Some(card("Jh"))));
    let s = hand("Ks", "Qs", "Jh", &[Call, Raise, Call]);
    assert_eq!((s.round(), s.current_player()), (2, Some(Seat(0))));
    let s = hand("Ks", "Qs", "Jh", &[Call, Raise, Call, Raise, Call]);
    assert!(s.is_terminal() && s.is_showdown());
}

#[test]
fn check_check_check_check_showdown_pays_one_chip() {
    let s = hand("Ks", "Qs", "Jh", &[Call, Call, Call, Call]);
    assert!(s.is_terminal());
    assert_eq!(s.returns(), [1.0, -1.0]);
    assert_eq!(s.winners(), vec![Seat(0)]);
}

#[test]
fn raise_then_fold_costs_the_folder_only_the_ante() {
    let s = hand("Js", "Ks", "Qh", &[Raise, Fold]);
    assert!(s.is_terminal() && !s.is_showdown());
    assert_eq!(s.contributions(), [3, 1]);
    assert_eq!(s.returns(), [1.0, -1.0], "seat 1 loses its ante even though seat 0 holds the worse card");
    assert_eq!(s.winners(), vec![Seat(0)]);
}

#[test]
fn fold_to_a_reraise_costs_the_folder_its_bet() {
    let s = hand("Ks", "Js", "Qh", &[Raise, Raise, Fold]);
    assert_eq!(s.returns(), [-3.0, 3.0]);
    let s = hand("Ks", "Js", "Qh", &[Call, Call, Raise, Raise, Fold]);
    assert_eq!(s.returns(), [-5.0, 5.0], "ante 1 + round-2 bet 4");
}

#[test]
fn raise_raise_call_in_both_rounds_pays_thirteen() {
    let s = hand("Ks", "Qs", "Jh", &[Raise, Raise, Call, Raise, Raise, Call]);
    assert!(s.is_terminal());
    assert_eq!(s.contributions(), [13, 13]);
    assert_eq!(s.returns(), [13.0, -13.0], "1 + 2 + 2 + 4 + 4");
}

#[test]
fn pair_beats_high_card() {
    let s = hand("Js", "Ks", "Jh", &[Call, Call, Call, Call]);
    assert_eq!(s.returns(), [1.0, -1.0], "J pairs the board and beats K");
    let s = hand("Ks", "Qs", "Qh", &[Call, Call, Call, Call]);
    assert_eq!(s.returns(), [-1.0, 1.0], "Q pairs the board and beats K");
}

#[test]
fn higher_card_wins_without_a_pair() {
    let s = hand("Qs", "Kh", "Jh", &[Call, Call, Call, Call]);
    assert_eq!(s.returns(), [-1.0, 1.0]);
    assert_eq!(s.winners(), vec![Seat(1)]);
}

#[test]
fn equal_ranks_split_the_pot() {
    let s = hand("Qs", "Qh", "Kh", &[Raise, Call, Raise, Call]);
    assert_eq!(s.pot(), 14);
    assert_eq!(s.returns(), [0.0, 0.0]);
    assert_eq!(s.winners(), vec![Seat(0), Seat(1)]);
}

#[test]
fn returns_are_zero_before_the_end() {
    let s = hand("Qs", "Kh", "Jh", &[Raise, Raise]);
    assert_eq!(s.returns(), [0.0, 0.0]);
    assert!(s.winners().is_empty());
}

#[test]
fn actions_after_the_end_and_bad_indices_are_refused() {
    let mut s = hand("Qs", "Kh", "Jh", &[Raise, Fold]);
    assert_eq!(s.apply(Call), Err(ActionError::GameOver));
    assert!(s.legal_mask().is_empty() && s.current_player().is_none());
    let mut s = hand("Qs", "Kh", "Jh", &[]);
    assert_eq!(s.apply_index(3), Err(ActionError::OutOfRange(3)));
    assert_eq!(s.apply_index(2), Ok(()));
    assert_eq!(s.contributions(), [3, 1]);
}

#[test]
fn bad_deals_and_rules_are_refused() {
    let rules = RuleConfig::default();
    assert_eq!(
        State::with_deal(rules, [card("Ks"), card("Ks")], card("Jh")),
        Err(DealError::DuplicateCard(card("Ks")))
    );
    let e = State::new(RuleConfig { players: 3, ..rules }, 1).unwrap_err();
    assert_eq!(e, ConfigError::Players(3));
    assert!(e.to_string().contains("`players`"));
}

#[test]
fn public_card_is_hidden_until_round_two() {
    let s = hand("Qs", "Kh", "Jh", &[Raise]);
    assert_eq!(s.view(Seat(0)).public_card, None);
    assert_eq!(s.view(Seat(1)).public_card, None);
    let s = hand("Qs", "Kh", "Jh", &[Raise, Call]);
    assert_eq!(s.view(Seat(1)).public_card, Some(card("Jh")));
}

#[test]
fn opponent_card_is_shown_at_showdown_only() {
    let s = hand("Qs", "Kh", "Jh", &[Raise, Call, Call]);
    assert_eq!((s.view(Seat(0)).own_card, s.view(Seat(0)).opponent_card), (card("Qs"), None));
    let s = hand("Qs", "Kh", "Jh", &[Raise, Call, Call, Raise, Fold]);
    assert_eq!(s.view(Seat(0)).opponent_card, None, "a fold shows nothing");
    assert_eq!(s.view(Seat(1)).opponent_card, None);
    let s = hand("Qs", "Kh", "Jh", &[Raise, Call, Call, Call]);
    assert_eq!(s.view(Seat(0)).opponent_card, Some(card("Kh")));
    assert_eq!(s.view(Seat(1)).opponent_card, Some(card("Qs")));
}

#[test]
fn event_log_tells_the_hand_and_hides_private_cards_from_others() {
    let s = hand("Qs", "Kh", "Jh", &[Raise, Call, Call, Raise, Fold]);
    let kinds: Vec<&str> = s
        .events()
        .iter()
        .map(|e| match e {
            Event::Deal { .. } => "deal",
            Event::Action { .. } => "action",
            Event::PublicCard { .. } => "public",
            Event::Showdown { .. } => "showdown",
            Event::Fold { .. } => "fold",
            Event::Result { .. } => "result",
        })
        .collect();
    assert_eq!(kinds, ["deal", "action", "action", "public", "action", "action", "action", "fold", "result"]);
    assert_eq!(s.events()[0], Event::Deal { ante: 1, cards: [Some(card("Qs")), Some(card("Kh"))] });
    assert_eq!(s.events_for(Some(Seat(0)))[0], Event::Deal { ante: 1, cards: [Some(card("Qs")), None] });
    assert_eq!(s.events_for(Some(Seat(1)))[0], Event::Deal { ante: 1, cards: [None, Some(card("Kh"))] });
    assert_eq!(s.events_for(None)[0], Event::Deal { ante: 1, cards: [None, None] });
    assert_eq!(s.events().last(), Some(&Event::Result { returns: [-3.0, 3.0] }), "seat 0 folds to the round-2 bet");
    let shown = hand("Qs", "Kh", "Jh", &[Call, Call, Call, Call]);
    assert!(shown.events_for(None).contains(&Event::Showdown { cards: [card("Qs"), card("Kh")] }));
}

#[test]
fn rendering_shows_cards_pot_history_and_turn() {
    let s = hand("Qs", "Kh", "Jh", &[Raise, Call, Call]);
    let v = render_view(&s.view(Seat(1)));
    for needle in ["round 2", "seat 1 to act", "board: Jh", "pot: 6", "round 1: bet, call", "round 2: check", "Kh"] {
        assert!(v.contains(needle), "missing {needle:?} in\n{v}");
    }
    assert!(!v.contains("Qs") && v.contains("??"), "seat 1 must not see seat 0's card:\n{v}");
    let full = render_state(&hand("Qs", "Kh", "Jh", &[Raise]));
    for needle in ["Qs", "Kh", "Jh (not yet revealed)", "seat 1 to act"] {
        assert!(full.contains(needle), "missing {needle:?} in\n{full}");
    }
    let over = render_state(&hand("Qs", "Kh", "Jh", &[Raise, Fold]));
    assert!(over.contains("hand over") && over.contains("seat 0 +1, seat 1 -1"), "{over}");
}

#[test]
fn smaller_caps_and_other_stakes_are_honoured() {
    let rules = RuleConfig { ante: 2, raise_sizes: [3, 5], max_raises: 1, ..Default::default() };
    let mut s = State::with_deal(rules, [card("Ks"), card("Qs")], card("Jh")).unwrap();
    s.apply(Raise).unwrap();
    assert_eq!(s.legal_actions(), vec![Fold, Call]);
    s.apply(Call).unwrap();
    s.apply(Raise).unwrap();
    s.apply(Call).unwrap();
    assert_eq!(s.returns(), [10.0, -10.0], "2 + 3 + 5");
    s.check_invariants().unwrap();
}
