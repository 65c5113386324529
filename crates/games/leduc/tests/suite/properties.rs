//! Property tests: random legal (and illegal) play from random seeds and rules.

use game::Seat;
use leduc::config::{MAX_RAISES_LIMIT, MAX_ROUND_ACTIONS};
use leduc::obs::{check_ranges, encode_vec};
use leduc::{Event, InfoKey, RuleConfig, State};
use proptest::prelude::*;

fn rules() -> impl Strategy<Value = RuleConfig> {
    (1u32..=5, 1u32..=10, 1u32..=10, 0u8..=MAX_RAISES_LIMIT).prop_map(|(ante, r1, r2, max_raises)| RuleConfig {
        ante,
        raise_sizes: [r1, r2],
        max_raises,
        ..Default::default()
    })
}

/// Plays from `seed`, choosing the `choice % count`-th legal action each step, until the hand
/// ends; checks invariants after every step and returns the states passed through.
fn play(rules: RuleConfig, seed: u64, choices: &[u8]) -> Vec<State> {
    let mut s = State::new(rules, seed).unwrap();
    let mut states = vec![s.clone()];
    let mut k = 0;
    while !s.is_terminal() {
        let m = s.legal_mask();
        let c = choices.get(k).copied().unwrap_or(0) as usize;
        let i = m.nth_index(c % m.count()).unwrap();
        s.apply_index(i).unwrap();
        s.check_invariants().unwrap();
        states.push(s.clone());
        k += 1;
        assert!(k <= 2 * MAX_ROUND_ACTIONS, "hand did not end after {k} actions");
    }
    states
}

proptest! {
    #[test]
    fn random_play_terminates_zero_sum_with_chips_conserved(
        rules in rules(), seed: u64, choices in prop::collection::vec(any::<u8>(), 0..16),
    ) {
        let states = play(rules, seed, &choices);
        let end = states.last().unwrap();
        let r = end.returns();
        prop_assert_eq!(r[0] + r[1], 0.0);
        prop_assert!(r[0].abs() <= f64::from(rules.max_contribution()));
        let c = end.contributions();
        prop_assert_eq!(end.pot(), c[0] + c[1]);
        prop_assert!(end.winners().len() == 1 || r == [0.0, 0.0]);
    }

    #[test]
    fn views_never_show_the_opponents_card_unless_shown_at_showdown(
        rules in rules(), seed: u64, choices in prop::collection::vec(any::<u8>(), 0..16),
    ) {
        for s in play(rules, seed, &choices) {
            for seat in [Seat(0), Seat(1)] {
                let view = s.view(seat);
                let theirs = s.deal().private[1 - seat.index()];
                let json = serde_json::to_string(&view).unwrap();
                let log = serde_json::to_string(&s.events_for(Some(seat))).unwrap();
                if s.is_showdown() {
                    prop_assert_eq!(view.opponent_card, Some(theirs));
                } else {
                    prop_assert_eq!(view.opponent_card, None);
                    prop_assert!(!json.contains(&format!("\"{theirs}\"")), "{} in {}", theirs, json);
                    prop_assert!(!log.contains(&format!("\"{theirs}\"")), "{} in {}", theirs, log);
                }
                prop_assert_eq!(view.own_card, s.deal().private[seat.index()]);
                prop_assert_eq!(view.public_card.is_some(), s.round() == 2);
                if !s.is_terminal() {
                    check_ranges(&encode_vec(&view)).map_err(TestCaseError::fail)?;
                }
                if s.current_player() == Some(seat) {
                    prop_assert_eq!(InfoKey::from_view(&view).decision_mask(&rules), Ok(s.legal_mask()));
                    prop_assert_eq!(view.legal_mask(), s.legal_mask());
                }
            }
            // A spectator never sees the deal; cards shown at a showdown have their own event.
            let spectator = s.events_for(None);
            let hidden = spectator.iter().all(|e| !matches!(e, Event::Deal { cards: [Some(_), _] | [_, Some(_)], .. }));
            prop_assert!(hidden, "a spectator sees a private card: {:?}", spectator);
        }
    }

    #[test]
    fn serde_round_trip_replays_identically(
        rules in rules(), seed: u64, choices in prop::collection::vec(any::<u8>(), 0..16), cut in 0usize..16,
    ) {
        let states = play(rules, seed, &choices);
        let mid = &states[cut.min(states.len() - 1)];
        let json = serde_json::to_string(mid).unwrap();
        let mut back: State = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(&back, mid);
        prop_assert_eq!(back.events(), mid.events());
        // Play on both the same way: they stay equal.
        let mut orig = mid.clone();
        while !orig.is_terminal() {
            let a = orig.legal_actions()[0];
            orig.apply(a).unwrap();
            back.apply(a).unwrap();
            prop_assert_eq!(&back, &orig);
        }
    }

    #[test]
    fn same_seed_gives_the_same_deal(rules in rules(), seed: u64) {
        let a = State::new(rules, seed).unwrap();
        let b = State::new(rules, seed).unwrap();
        prop_assert_eq!(a.deal(), b.deal());
        prop_assert_eq!(a, b);
    }

    #[test]
    fn illegal_actions_leave_the_state_unchanged(
        seed: u64, choices in prop::collection::vec(any::<u8>(), 0..16), tries in prop::collection::vec(0usize..5, 1..8),
    ) {
        let states = play(RuleConfig::default(), seed, &choices);
        for s in states {
            for &i in &tries {
                let mut t = s.clone();
                if t.apply_index(i).is_err() {
                    prop_assert_eq!(&t, &s);
                } else {
                    prop_assert!(s.legal_mask().contains_index(i));
                }
            }
        }
    }
}

#[test]
fn tampered_records_are_refused_on_load() {
    let mut s = State::new(RuleConfig::default(), 1).unwrap();
    s.apply(leduc::Action::Raise).unwrap();
    let json = serde_json::to_string(&s).unwrap();
    let fold_first = json.replace("\"raise\"", "\"fold\"");
    let e = serde_json::from_str::<State>(&fold_first).unwrap_err();
    assert!(e.to_string().contains("recorded action 0") && e.to_string().contains("`fold` is not legal"), "{e}");
    let three = json.replace("\"players\":2", "\"players\":3");
    assert!(serde_json::from_str::<State>(&three).unwrap_err().to_string().contains("`players`"));
}
