//! API-level tests: single-agent wrapper, `play_game`, action names, reward conventions,
//! determinism of resets, and that the no-leak check can actually catch a leak.

use env::seed::derive;
use env::{Agent, EnvError, LearnerSeat, RandomAgent, RewardMode, SingleAgentEnv, play_game};
use game::{MAX_PLAYERS, Seat};
use games::kessel::Kessel;
use games::kessel::action_name;
use games::kessel::obs::OBS_LEN;
use games::kessel::reward::terminal_rewards;
use games::kessel::{NUM_ACTIONS, State};

fn randoms(n: usize) -> Vec<Box<dyn Agent<Kessel>>> {
    (0..n).map(|_| Box::new(RandomAgent) as Box<dyn Agent<Kessel>>).collect()
}

#[test]
fn action_names_are_the_engine_names() {
    assert_eq!(action_name(0), "stand");
    assert_eq!(action_name(1), "draw:sand-deck");
    assert_eq!(action_name(19), "token:embargo");
    assert_eq!(action_name(24), "target:+2");
    assert_eq!(action_name(NUM_ACTIONS), "invalid");
    for i in 0..NUM_ACTIONS {
        assert_eq!(games::kessel::Action::parse(action_name(i)).unwrap().index(), i);
    }
}

#[test]
fn illegal_action_is_an_error_and_changes_nothing() {
    let mut e = env::Env::<Kessel>::new(env::GameConfig::<Kessel>::with_players(4)).unwrap();
    let ts = e.reset(5);
    let before = e.state().clone();
    let bad = (0..NUM_ACTIONS).find(|&i| !ts.mask.contains_index(i)).unwrap();
    match e.step(bad) {
        Err(EnvError::IllegalAction { index, seat, legal, .. }) => {
            assert_eq!(index, bad);
            assert_eq!(seat, ts.actor);
            assert_eq!(legal, ts.mask.indices().collect::<Vec<_>>());
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(e.step(200), Err(EnvError::IllegalAction { name: "invalid", .. })));
    assert_eq!(e.state(), &before);
    assert!(env::Env::<Kessel>::new(env::GameConfig::<Kessel>::with_players(9)).is_err());
}

#[test]
fn reset_is_reproducible_and_seeds_differ() {
    let mut e = env::Env::<Kessel>::new(env::GameConfig::<Kessel>::with_players(5)).unwrap();
    let (mut a, mut b, mut c) = (vec![0.0; OBS_LEN], vec![0.0; OBS_LEN], vec![0.0; OBS_LEN]);
    let t1 = e.reset_into(42, &mut a);
    e.step(t1.mask.indices().next().unwrap()).unwrap();
    let t2 = e.reset_into(42, &mut b);
    assert_eq!(t1, t2);
    assert_eq!(a, b);
    // Different seeds deal differently (the own-hand segment differs for some seed).
    let hand = games::kessel::obs::segment("hand").unwrap();
    let differs = (43..60).any(|s| {
        e.reset_into(s, &mut c);
        c[hand.offset..hand.offset + hand.len] != a[hand.offset..hand.offset + hand.len]
    });
    assert!(differs);
}

#[test]
fn win_loss_rewards_follow_the_documented_formula() {
    for players in 2..=8u8 {
        let cfg = env::GameConfig::<Kessel>::with_players(players);
        let n = players as usize;
        for g in 0..30u64 {
            let rec = play_game(&cfg, &mut randoms(n), g).unwrap();
            if rec.truncated {
                assert!(rec.returns.iter().all(|&r| r == 0.0));
                continue;
            }
            let k = rec.winners.len();
            for s in 0..MAX_PLAYERS {
                let want = if s >= n || k == n {
                    0.0
                } else if rec.winners.contains(Seat(s as u8)) {
                    1.0 / k as f32
                } else {
                    -1.0 / (n - k) as f32
                };
                assert_eq!(rec.returns[s], want, "players {players} game {g} seat {s}");
            }
        }
    }
}

#[test]
fn placement_rewards_rank_by_elimination_round() {
    for players in 3..=8u8 {
        let cfg = env::GameConfig::<Kessel>::with_players(players).with_reward(RewardMode::Placement);
        let n = players as usize;
        for g in 0..30u64 {
            let mut e = env::Env::<Kessel>::new(cfg).unwrap();
            let mut ts = e.reset(g);
            let mut k = 0u64;
            while ts.actor.is_some() {
                k += 1;
                let m = ts.mask;
                ts = e.step(m.nth_index((derive(g, k) % m.count() as u64) as usize).unwrap()).unwrap();
            }
            let r = e.returns();
            let sum: f32 = r.iter().sum();
            assert!(sum.abs() < 1e-5);
            if ts.truncated {
                continue;
            }
            let st: &State = e.state();
            let key = |s: usize| {
                let seat = Seat(s as u8);
                if st.winners().contains(seat) { u32::MAX } else { u32::from(st.player(seat).eliminated_in_round) }
            };
            for a in 0..n {
                assert!((-1.0..=1.0).contains(&r[a]));
                for b in 0..n {
                    if key(a) > key(b) {
                        assert!(r[a] > r[b], "seat {a} placed above {b} but got {} <= {}", r[a], r[b]);
                    } else if key(a) == key(b) {
                        assert_eq!(r[a], r[b]);
                    }
                }
            }
            // Best placement: +1 when alone at the top; worst: -1 when alone at the bottom.
            if st.winners().len() == 1 {
                assert_eq!(r[st.winners().iter().next().unwrap().index()], 1.0);
            }
            assert_eq!(terminal_rewards(st, RewardMode::Placement), r);
        }
    }
}

#[test]
fn single_agent_wrapper_plays_whole_games() {
    for players in [2u8, 4, 8] {
        let n = players as usize;
        let mut s = SingleAgentEnv::new(
            env::GameConfig::<Kessel>::with_players(players),
            LearnerSeat::Rotating,
            randoms(n - 1),
        )
        .unwrap();
        let mut seats_seen = [false; MAX_PLAYERS];
        let mut total = 0.0f32;
        for g in 0..40u64 {
            let (obs, mut mask, info) = s.reset(g).unwrap();
            assert_eq!(obs.len(), OBS_LEN);
            assert!(!mask.is_empty());
            seats_seen[info.learner.index()] = true;
            let learner = info.learner;
            let first = obs.to_vec();
            assert_eq!(s.inner().current_player(), Some(learner));
            let mut k = 0;
            loop {
                k += 1;
                let a = mask.nth_index(k % mask.count()).unwrap();
                let (obs, m, r, term, trunc, info) = s.step(a).unwrap();
                assert_eq!(obs.len(), OBS_LEN);
                assert_eq!(info.learner, learner);
                if term || trunc {
                    assert!(m.is_empty());
                    assert_eq!(r, info.returns[learner.index()]);
                    total += r;
                    break;
                }
                assert_eq!(r, 0.0);
                assert!(!m.is_empty());
                mask = m;
            }
            // reset(seed) twice gives the same first observation.
            let (obs2, _, _) = s.reset(g).unwrap();
            assert_eq!(obs2, &first[..]);
        }
        assert!(seats_seen[..n].iter().all(|&x| x), "rotation covers every seat");
        assert!(total.is_finite());
        assert!(matches!(
            SingleAgentEnv::new(
                env::GameConfig::<Kessel>::with_players(players),
                LearnerSeat::Fixed(Seat(0)),
                randoms(n)
            ),
            Err(EnvError::BatchSize { .. })
        ));
    }
    let mut fixed =
        SingleAgentEnv::new(env::GameConfig::<Kessel>::with_players(3), LearnerSeat::Fixed(Seat(2)), randoms(2))
            .unwrap();
    let (_, _, info) = fixed.reset(1).unwrap();
    assert_eq!(info.learner, Seat(2));
}

#[test]
fn play_game_is_deterministic() {
    let cfg = env::GameConfig::<Kessel>::with_players(4);
    let a = play_game(&cfg, &mut randoms(4), 77).unwrap();
    let b = play_game(&cfg, &mut randoms(4), 77).unwrap();
    assert_eq!(a, b);
    assert!(!a.actions.is_empty());
    assert!(play_game(&cfg, &mut randoms(3), 77).is_err());
}

#[test]
fn mask_is_never_empty_at_a_decision() {
    for players in 2..=8u8 {
        let mut e = env::Env::<Kessel>::new(env::GameConfig::<Kessel>::with_players(players)).unwrap();
        for g in 0..20u64 {
            let mut ts = e.reset(g);
            let mut k = 0;
            while ts.actor.is_some() {
                assert!(!ts.mask.is_empty());
                k += 1;
                ts = e.step(ts.mask.nth_index(k % ts.mask.count()).unwrap()).unwrap();
            }
            assert!(ts.mask.is_empty());
        }
    }
}

/// The no-leak check is not vacuous: a deliberately cheating feature (an opponent's real hand,
/// read from the full state) does change under `determinize` for some states.
#[test]
fn no_leak_check_detects_a_cheating_feature() {
    let mut caught = 0;
    for g in 0..50u64 {
        let mut e = env::Env::<Kessel>::new(env::GameConfig::<Kessel>::with_players(4)).unwrap();
        let ts = e.reset(g);
        let viewer = ts.actor.unwrap();
        let opp = viewer.offset(1, 4);
        let d = e.state().determinize(viewer, g + 1000);
        if d.player(opp).hand != e.state().player(opp).hand {
            caught += 1;
        }
        // ...while the honest observation is unchanged.
        let mut a = vec![0.0; OBS_LEN];
        let mut b = vec![0.0; OBS_LEN];
        games::kessel::obs::encode(&e.state().view(viewer), &mut a);
        games::kessel::obs::encode(&d.view(viewer), &mut b);
        assert_eq!(a, b);
        e.step(ts.mask.indices().next().unwrap()).unwrap();
    }
    assert!(caught > 40, "determinize resampled hidden cards in {caught}/50 states");
}

/// An opponent that always stands, legal or not.
struct AlwaysStand;

impl Agent<Kessel> for AlwaysStand {
    fn name(&self) -> &str {
        "always-stand"
    }

    fn act(
        &mut self,
        _view: &games::kessel::PlayerView,
        _legal: games::kessel::ActionMask,
        _rng: &mut env::AgentRng,
    ) -> Result<games::kessel::Action, env::AgentError> {
        Ok(games::kessel::Action::Stand)
    }
}

#[test]
fn an_illegal_opponent_action_is_reported_not_replaced() {
    // Stand is legal at `act` decisions but never at keep/target/die ones, so a game where the
    // opponent must choose something else surfaces the error.
    let mut found = false;
    for g in 0..200u64 {
        let mut s = SingleAgentEnv::new(
            env::GameConfig::<Kessel>::with_players(2),
            LearnerSeat::Fixed(Seat(0)),
            vec![Box::new(AlwaysStand) as Box<dyn Agent<Kessel>>],
        )
        .unwrap();
        let Ok((_, mut mask, _)) = s.reset(g) else { continue };
        loop {
            // The learner draws whenever it can, so the game lasts.
            let a = if mask.contains_index(1) { 1 } else { mask.indices().next().unwrap() };
            match s.step(a) {
                Ok((_, m, _, term, trunc, _)) => {
                    if term || trunc {
                        break;
                    }
                    mask = m;
                }
                Err(EnvError::OpponentIllegal { agent, index, .. }) => {
                    assert_eq!(agent, "always-stand");
                    assert_eq!(index, 0);
                    found = true;
                    break;
                }
                Err(e) => panic!("{e}"),
            }
        }
        if found {
            break;
        }
    }
    assert!(found, "some game made the always-stand opponent act illegally");
}

/// The shaping potential is one function of public chips: every seat's view gives the share
/// the state gives, the shares sum to 1 while chips are on the table, and they lie in [0, 1].
#[test]
fn chip_shares_agree_between_state_and_views_and_sum_to_one() {
    use games::kessel::reward::{chip_shares, view_chip_share};
    for players in 2..=8u8 {
        let mut e = env::Env::<Kessel>::new(env::GameConfig::<Kessel>::with_players(players)).unwrap();
        for g in 0..10u64 {
            let mut ts = e.reset(derive(77, g));
            let mut k = 0usize;
            loop {
                let state = e.state();
                let shares = chip_shares(state);
                let total: f32 = shares.iter().sum();
                if state.config().total_chips() > 0 && (0..players).any(|s| state.player(Seat(s)).stock.0 > 0) {
                    assert!((total - 1.0).abs() < 1e-5, "shares sum to {total}");
                }
                for s in 0..players {
                    let share = shares[usize::from(s)];
                    assert!((0.0..=1.0).contains(&share));
                    assert_eq!(view_chip_share(&state.view(Seat(s))), share, "seat {s} at {players} seats");
                }
                assert!(shares[usize::from(players)..].iter().all(|&x| x == 0.0));
                if ts.actor.is_none() {
                    break;
                }
                k += 7;
                ts = e.step(ts.mask.nth_index(k % ts.mask.count()).unwrap()).unwrap();
            }
        }
    }
}
