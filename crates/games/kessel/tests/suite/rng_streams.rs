//! Common random numbers: every random purpose has its own stream, re-derived from the game's
//! seed at each round, so one extra draw in one branch of a game does not shift what later rounds
//! deal or roll. Paired experiments (token research) rely on this.

use game::Seat;
use kessel::rng::GameRng;
use kessel::{Action, Card, RuleConfig, State};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

#[test]
fn extra_dice_and_shuffles_in_one_round_leave_the_next_round_unchanged() {
    for seed in 0..50u64 {
        let (mut a, mut b) = (GameRng::from_seed(seed), GameRng::from_seed(seed));
        a.start_round(1);
        b.start_round(1);
        // Branch b rolls more dice and reshuffles more often in round 1.
        let _ = a.die();
        for _ in 0..(seed % 7 + 1) {
            let _ = b.die();
            b.shuffle(&mut [1, 2, 3, 4, 5]);
        }
        a.start_round(2);
        b.start_round(2);
        let (mut da, mut db): (Vec<u32>, Vec<u32>) = ((0..22).collect(), (0..22).collect());
        a.shuffle(&mut da);
        b.shuffle(&mut db);
        assert_eq!(da, db, "seed {seed}: round 2's shuffle differs");
        assert_eq!((a.die(), a.die()), (b.die(), b.die()), "seed {seed}: round 2's dice differ");
    }
}

#[test]
fn deck_and_dice_streams_are_independent() {
    // Rolling dice never moves the deck stream, and shuffling never moves the dice stream.
    let (mut a, mut b) = (GameRng::at_round(9, 3), GameRng::at_round(9, 3));
    for _ in 0..5 {
        let _ = b.die();
    }
    let (mut xa, mut xb): (Vec<u8>, Vec<u8>) = ((0..22).collect(), (0..22).collect());
    a.shuffle(&mut xa);
    b.shuffle(&mut xb);
    assert_eq!(xa, xb);
    let (mut c, mut d) = (GameRng::at_round(9, 3), GameRng::at_round(9, 3));
    c.shuffle(&mut [0u8; 22]);
    assert_eq!((0..8).map(|_| c.die()).collect::<Vec<_>>(), (0..8).map(|_| d.die()).collect::<Vec<_>>());
}

#[test]
fn different_rounds_and_seeds_give_different_deals() {
    let deal = |seed, round| {
        let mut r = GameRng::at_round(seed, round);
        let mut v: Vec<u8> = (0..22).collect();
        r.shuffle(&mut v);
        v
    };
    assert_ne!(deal(1, 1), deal(1, 2));
    assert_ne!(deal(1, 1), deal(2, 1));
}

/// Hands dealt at the start of round 2, if the game reaches it with every seat in.
fn round_two_hands(seed: u64, play: &mut dyn FnMut(&State) -> Action) -> Option<Vec<[Card; 2]>> {
    let mut s = State::new(RuleConfig { players: 4, ..RuleConfig::default() }, seed).expect("default rules");
    while s.round() == 1 {
        s.current_player()?;
        let a = play(&s);
        s.apply(a).expect("legal");
    }
    if s.active_seats().len() != 4 {
        return None;
    }
    Some((0..4).map(|i| s.player(Seat(i)).hand).collect())
}

#[test]
fn two_different_first_rounds_deal_the_same_second_round() {
    // Branch a always plays its first legal action; branch b plays at random (more draws,
    // reshuffles, tokens and dice). With every seat still in, round 2 deals the same hands.
    let mut compared = 0;
    for seed in 0..400u64 {
        let mut first = |s: &State| s.legal_actions()[0];
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut random = |s: &State| {
            let l = s.legal_actions();
            l[rng.random_range(0..l.len())]
        };
        if let (Some(a), Some(b)) = (round_two_hands(seed, &mut first), round_two_hands(seed, &mut random)) {
            assert_eq!(a, b, "seed {seed}: round 2 dealt differently");
            compared += 1;
        }
    }
    assert!(compared >= 40, "only {compared} games reached round 2 with every seat in both branches");
}

#[test]
fn reseeding_a_position_fixes_its_future_and_changes_it_with_the_seed() {
    let s = State::new(RuleConfig::default(), 5).expect("default rules");
    let play_out = |mut s: State, seed: u64| {
        s.reseed(seed);
        while s.current_player().is_some() {
            let a = s.legal_actions()[0];
            s.apply(a).expect("legal");
        }
        (s.round(), (0..s.num_players()).map(|i| s.player(Seat(i)).stock.0).collect::<Vec<_>>())
    };
    assert_eq!(play_out(s.clone(), 11), play_out(s.clone(), 11));
    let outcomes: std::collections::HashSet<_> = (0..20).map(|k| play_out(s.clone(), k)).collect();
    assert!(outcomes.len() > 1, "reseeding never changed the outcome of 20 continuations");
}
