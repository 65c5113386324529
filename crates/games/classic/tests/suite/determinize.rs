//! The record of the cards each player put out of play (C6: a player knows its own drops and
//! folded hand) and determinisation from a view (`classic::sample::determinize`).

use classic::card::CardSet;
use classic::sample::determinize;
use classic::{Action, Card, Pending, RuleConfig, State};
use game::Seat;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

type Rng = Pcg64Mcg;

/// Random legal play, folds rare, for `steps` decisions; `None` once the game is over.
fn random_position(players: u8, seed: u64, steps: usize) -> Option<State> {
    let mut r = Rng::seed_from_u64(seed);
    let cfg = RuleConfig { players, hand_limit: 30, ..RuleConfig::default() };
    let mut s = State::new(cfg, seed).unwrap();
    for _ in 0..steps {
        if s.is_terminal() {
            return None;
        }
        let m = s.legal_mask();
        let fold = Action::Fold.index();
        let m = if m.count() > 1 && r.random_range(0..8) != 0 {
            classic::ActionMask::from_bits(m.bits() & !(1u64 << fold))
        } else {
            m
        };
        s.apply_index(m.nth_index(r.random_range(0..m.count())).unwrap()).unwrap();
    }
    (!s.is_terminal()).then_some(s)
}

#[test]
fn c6_a_player_sees_the_cards_it_dropped_or_folded_and_nobody_else_does() {
    let (mut drops, mut folds) = (0, 0);
    for seed in 0..300 {
        let mut s = State::new(RuleConfig::with_players(3), seed).unwrap();
        let mut r = Rng::seed_from_u64(seed);
        let hand = s.hand_number();
        while !s.is_terminal() && s.hand_number() == hand {
            let seat = s.current_player().unwrap();
            let before = s.player(seat).hand;
            let m = s.legal_mask();
            let fold = Action::Fold.index();
            let m = if m.count() > 1 && r.random_range(0..8) != 0 {
                classic::ActionMask::from_bits(m.bits() & !(1u64 << fold))
            } else {
                m
            };
            let a = m.nth_index(r.random_range(0..m.count())).unwrap();
            let action = Action::from_index(a).unwrap();
            let seen_before = s.view(seat).put_out;
            s.apply(action).unwrap();
            s.check_invariants().unwrap();
            // The hand is over (and with it the record), or the game.
            if s.hand_number() != hand || s.is_terminal() {
                break;
            }
            let seen = s.view(seat).put_out;
            match action {
                Action::Drop(i) => {
                    drops += 1;
                    assert_eq!(seen.len(), seen_before.len() + 1);
                    assert!(seen.contains(before.as_slice()[i as usize]));
                }
                Action::Fold => {
                    folds += 1;
                    assert!(before.as_slice().iter().all(|&c| seen.contains(c)));
                }
                _ => assert_eq!(seen, seen_before, "{action} by {seat}, seed {seed}"),
            }
            // What a player put out is part of the out-of-play count, and only its own view shows it.
            let v = s.view(seat);
            assert!(v.put_out.len() <= v.out_len as usize);
            for other in 0..3 {
                if Seat(other) != seat {
                    assert_eq!(s.view(Seat(other)).put_out.0 & seen.0, 0);
                }
            }
        }
        // A new hand starts with nothing put out.
        if !s.is_terminal() {
            for i in 0..3 {
                assert!(s.view(Seat(i)).put_out.is_empty());
            }
        }
    }
    assert!(drops > 20 && folds > 20, "{drops} drops, {folds} folds");
}

#[test]
fn c6_put_out_cards_round_trip_through_json() {
    let mut set = CardSet::default();
    set.insert(Card::from_id(3).unwrap());
    set.insert(Card::from_id(70).unwrap());
    let j = serde_json::to_string(&set).unwrap();
    assert_eq!(j, "[3,70]");
    assert_eq!(serde_json::from_str::<CardSet>(&j).unwrap(), set);
    assert!(serde_json::from_str::<CardSet>("[3,3]").is_err());
}

#[test]
fn a_determinised_state_shows_the_viewer_exactly_its_view() {
    let mut r = Rng::seed_from_u64(9);
    let mut checked = 0;
    for seed in 0..200u64 {
        let players = 2 + (seed % 7) as u8;
        let Some(s) = random_position(players, seed, (seed as usize * 7) % 200) else { continue };
        let actor = s.current_player().unwrap();
        for v in 0..players {
            let viewer = Seat(v);
            if !s.player(viewer).in_game {
                continue;
            }
            let view = s.view(viewer);
            let d = determinize(&view, &mut r).unwrap_or_else(|e| panic!("seed {seed}, {viewer}: {e}"));
            d.check_invariants().unwrap();
            assert_eq!(d.view(viewer), view, "seed {seed}, {viewer}");
            assert_eq!(d.current_player(), Some(actor));
            assert_eq!(d.legal_mask(), s.legal_mask());
            checked += 1;
        }
    }
    assert!(checked > 300, "{checked}");
}

#[test]
fn determinisation_deals_only_cards_the_viewer_cannot_place_and_varies_them() {
    let mut r = Rng::seed_from_u64(5);
    let mut varied = 0;
    for seed in 0..60u64 {
        let Some(s) = random_position(4, seed, 40 + seed as usize) else { continue };
        let viewer = s.current_player().unwrap();
        let view = s.view(viewer);
        let a = determinize(&view, &mut r).unwrap();
        let b = determinize(&view, &mut r).unwrap();
        for d in [&a, &b] {
            assert_eq!(d.player(viewer).hand, s.player(viewer).hand);
            for c in view.put_out.iter() {
                assert!(d.out_of_play().as_slice().contains(&c), "a card the viewer put out went elsewhere");
            }
            for i in 0..4 {
                assert_eq!(d.player(Seat(i)).hand.len(), s.player(Seat(i)).hand.len());
            }
            assert_eq!(d.deck().len(), s.deck().len());
        }
        if (0..4).any(|i| Seat(i) != viewer && a.player(Seat(i)).hand != b.player(Seat(i)).hand) {
            varied += 1;
        }
    }
    assert!(varied > 40, "{varied}");
}

#[test]
fn determinisation_refuses_a_finished_game() {
    let mut s = State::new(RuleConfig { hand_limit: 1, ..RuleConfig::with_players(2) }, 1).unwrap();
    while s.current_player().is_some() {
        s.apply(s.legal_actions()[0]).unwrap();
    }
    assert!(matches!(s.pending(), Pending::GameOver | Pending::Truncated));
    let v = s.view(Seat(0));
    assert!(determinize(&v, &mut Rng::seed_from_u64(1)).is_err());
}
