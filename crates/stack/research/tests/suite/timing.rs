//! The `timing` study: its branches, its common random numbers and its reproducibility.

use game::Seat;
use games::kessel::{Action, Family, RuleConfig, Scenario, State, Token};
use research::timing::{Branch, Position, TimingStudy, branches, collect_positions, rollouts};
use std::path::Path;

fn scenario(name: &str) -> games::kessel::State {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../games/kessel/scenarios").join(name);
    Scenario::from_json(&std::fs::read_to_string(p).expect("scenario file")).expect("valid scenario")
}

#[test]
fn branches_are_hold_and_every_playable_token() {
    let s = scenario("direct_transaction.json");
    let b = branches(&s);
    assert_eq!(b[0], Branch::Hold);
    let tokens: Vec<Token> = s
        .legal_actions()
        .into_iter()
        .filter_map(|a| if let Action::PlayToken(t) = a { Some(t) } else { None })
        .collect();
    for t in &tokens {
        let n = b.iter().filter(|x| matches!(x, Branch::Play { token, .. } if token == t)).count();
        if t.needs_target() {
            // One branch per legal target (seats under Immunity, say, are not targets).
            let mut after = s.clone();
            after.apply(Action::PlayToken(*t)).expect("legal");
            let targets: Vec<u8> = after
                .legal_actions()
                .into_iter()
                .filter_map(|a| if let Action::Target(o) = a { Some(o) } else { None })
                .collect();
            assert!(!targets.is_empty());
            let mine: Vec<u8> = b
                .iter()
                .filter_map(|x| match x {
                    Branch::Play { token, target: Some(o) } if token == t => Some(*o),
                    _ => None,
                })
                .collect();
            assert_eq!(mine, targets, "{}", t.name());
        } else {
            assert_eq!(n, 1, "{}", t.name());
        }
    }
    assert_eq!(b.len(), 1 + b.iter().filter(|x| **x != Branch::Hold).count());
}

fn position(name: &str) -> Position {
    let state = scenario(name);
    let seat = state.current_player().expect("a pending decision");
    let n = state.num_players() as usize;
    Position { game: 0, state, seat, seating: (0..n).collect(), choice: None }
}

#[test]
fn common_random_numbers_give_two_copies_of_a_branch_identical_outcomes() {
    // The same position twice: continuation k of every copy faces the same future.
    let p = position("embargo_wrap.json");
    let lineup = vec!["expert".to_string(); p.state.num_players() as usize];
    let registry = agents::Agents::new();
    let o = rollouts(&[p.clone(), p], &lineup, 16, 3, &registry, &|_| {}).expect("rollouts run");
    assert_eq!(o[0].win, o[1].win);
    assert_eq!(o[0].chips, o[1].chips);
    // Different continuations do see different futures.
    let hold = &o[0].win[0];
    assert!(hold.iter().any(|&w| w != hold[0]) || o[0].chips[0].iter().any(|&c| c != o[0].chips[0][0]));
}

#[test]
fn a_decisive_token_shows_a_clear_advantage() {
    // The last action of the round; the seat holds 6/6, the weakest Sabacc, which Cook the Books
    // (pure-last) makes the strongest hand at the table whatever the opponents hold: playing it
    // wins the round for sure, holding loses to any other Sabacc. The opponents' hands are
    // resampled from the seat's view, so the advantage rests on what the seat knows.
    let text = r#"{
      "config": {"players": 3, "token_assignment": "none"},
      "seed": 11, "round": 2, "turn": 3, "starter": 0, "actor": 2, "all_stood_this_turn": false,
      "players": [
        {"hand": ["SY", "BY"], "stock": 4, "pot": 1, "last_action": "stand", "stood_turn": 3},
        {"hand": ["S2", "B5"], "stock": 3, "pot": 2, "last_action": "draw"},
        {"hand": ["S6", "B6"], "stock": 5, "pot": 2, "tokens": ["cook-the-books", "immunity"], "last_action": "stand", "stood_turn": 2}
      ],
      "sand_discard": ["S5", "S2"], "blood_discard": ["B3", "B4"]
    }"#;
    let state = Scenario::from_json(text).expect("a valid position");
    let p = Position { game: 0, seat: Seat(2), seating: vec![0, 1, 2], choice: None, state };
    let lineup = vec!["expert".to_string(); 3];
    let registry = agents::Agents::new();
    let o = rollouts(&[p], &lineup, 64, 1, &registry, &|_| {}).expect("rollouts run");
    let v = o[0].values();
    assert_eq!(v[0].branch, "hold");
    assert_eq!(v[1].branch, "token:cook-the-books");
    // Playing it never loses the round: no chip of the hand pot is lost.
    assert_eq!((v[1].chips.low, v[1].chips.high), (v[1].chips.mean, v[1].chips.mean), "{v:?}");
    assert!(v[1].chips.mean >= 0.0 && v[1].chips.mean > v[0].chips.mean, "{v:?}");
    assert!(v[0].chips.low < v[0].chips.mean, "holding loses the round in some rollouts: {v:?}");
}

fn small_study(seed: u64) -> TimingStudy {
    TimingStudy {
        players: 2,
        agents: vec!["expert".into()],
        rules: RuleConfig::default(),
        games: 24,
        continuations: 4,
        seed,
    }
}

#[test]
fn a_study_repeated_with_the_same_seed_gives_the_same_findings() {
    let registry = agents::Agents::new();
    let run = |seed| {
        let mut r = research::timing_report::run(&small_study(seed), &registry, &|_| {}, &|_| {}).expect("study runs");
        r.seconds = 0.0;
        r.games_per_sec = 0.0;
        serde_json::to_string(&r).expect("serialisable")
    };
    let a = run(7);
    assert_eq!(a, run(7));
    assert_ne!(a, run(8));
    let j: serde_json::Value = serde_json::from_str(&a).unwrap();
    assert!(j["positions"].as_u64().unwrap() > 0);
    assert!(j["agreement"][0]["positions"].as_u64().unwrap() > 0);
}

#[test]
fn bad_settings_are_refused_with_the_setting_named() {
    let registry = agents::Agents::new();
    let mut s = small_study(1);
    s.games = 0;
    let e = research::timing_report::run(&s, &registry, &|_| {}, &|_| {}).unwrap_err().to_string();
    assert!(e.contains("games"), "{e}");
    let mut s = small_study(1);
    s.agents = vec!["grandmaster".into()];
    let e = research::timing_report::run(&s, &registry, &|_| {}, &|_| {}).unwrap_err().to_string();
    assert!(e.contains("grandmaster"), "{e}");
    let mut s = small_study(1);
    s.rules.token_assignment = games::kessel::config::TokenAssignment::None;
    let e = research::timing_report::run(&s, &registry, &|_| {}, &|_| {}).unwrap_err().to_string();
    assert!(e.contains("no decision with a playable token"), "{e}");
    let p = position("embargo_wrap.json");
    let e = rollouts(&[p], &vec!["expert".to_string(); 4], 0, 1, &registry, &|_| {}).unwrap_err().to_string();
    assert!(e.contains("continuations"), "{e}");
}

/// Another state with the same view of `seat`: the opponents' unknown cards, the draw piles'
/// order and (unless loadouts are public) the opponents' unplayed tokens redrawn by the engine's
/// determinisation from the full state. Returns the first seed whose state differs in hidden
/// cards from `state`.
fn same_view_other_hidden(state: &State, seat: Seat) -> State {
    let hidden = |s: &State| {
        let hands: Vec<_> = (0..s.num_players()).filter(|&i| i != seat.0).map(|i| s.player(Seat(i)).hand).collect();
        let piles: Vec<Vec<_>> = [Family::Sand, Family::Blood].map(|f| s.draw_pile(f).as_slice().to_vec()).to_vec();
        (hands, piles)
    };
    for seed in 1..100 {
        let other = state.determinize(seat, seed);
        assert_eq!(other.view(seat), state.view(seat), "determinisation keeps the decider's view");
        if hidden(&other) != hidden(state) {
            return other;
        }
    }
    panic!("no determinisation changed a hidden card");
}

#[test]
fn a_branch_verdict_depends_only_on_what_the_decider_sees() {
    // Hand-made positions and positions from real 4-seat games.
    let mut positions: Vec<Position> =
        ["embargo_wrap.json", "cook_and_prime.json", "direct_transaction.json"].into_iter().map(position).collect();
    let registry = agents::Agents::new();
    let study = TimingStudy { players: 4, games: 6, ..small_study(11) };
    let (lineup, found) = collect_positions(&study, &registry, &|_| {}).expect("positions");
    assert!(found.len() >= 3, "{} positions", found.len());
    let mut opponents_differ = 0;
    for p in found.into_iter().chain(positions.drain(..)) {
        let mut q = p.clone();
        q.state = same_view_other_hidden(&p.state, p.seat);
        let seat = p.seat;
        let differs = (0..p.state.num_players())
            .any(|i| i != seat.0 && p.state.player(Seat(i)).hand != q.state.player(Seat(i)).hand);
        opponents_differ += differs as u32;
        let lineup = if p.state.num_players() == 4 {
            lineup.clone()
        } else {
            vec!["expert".to_string(); p.state.num_players() as usize]
        };
        let o = rollouts(&[p.clone(), q], &lineup, 6, 5, &registry, &|_| {}).expect("rollouts run");
        assert_eq!(o[0].win, o[1].win, "game {}: win shares moved with hidden cards", p.game);
        assert_eq!(o[0].chips, o[1].chips, "game {}: chips moved with hidden cards", p.game);
        let verdict =
            |x: &research::timing::PositionOutcomes| serde_json::to_string(&x.values()).expect("serialisable");
        assert_eq!(verdict(&o[0]), verdict(&o[1]));
    }
    assert!(opponents_differ >= 3, "only {opponents_differ} positions had an opponent's hand changed");
}

/// Outcomes of hold and of one targeted token at several targets, win shares only.
fn outcomes(hold: Vec<f64>, targets: Vec<Vec<f64>>) -> research::timing::PositionOutcomes {
    let n = hold.len();
    let mut branches = vec![Branch::Hold];
    let mut win = vec![hold];
    for (i, w) in targets.into_iter().enumerate() {
        branches.push(Branch::Play { token: Token::TargetAudit, target: Some(i as u8 + 1) });
        win.push(w);
    }
    let chips = vec![vec![0.0; n]; win.len()];
    research::timing::PositionOutcomes { branches, win, chips }
}

#[test]
fn a_targets_luck_on_the_continuations_that_chose_it_does_not_count() {
    // Worked by hand: target +1 won continuation 0, target +2 continuation 3, holding none. On the
    // even continuations (0, 2) +1 leads and scores 0 on the odd ones (1, 3); on the odd ones +2
    // leads and scores 0 on the even ones. The best mean on all four would claim +0.25.
    let o = outcomes(vec![0.0; 4], vec![vec![1.0, 0.0, 0.0, 0.0], vec![0.0, 0.0, 0.0, 1.0]]);
    let a = research::timing_report::token_advantages(&o, 0);
    assert_eq!(a.len(), 1);
    assert_eq!(a[0].0, Token::TargetAudit);
    assert_eq!(a[0].1, 0.0);
    // A target that wins on both halves keeps its advantage: +1 wins 0 and 1, +2 nothing.
    let o = outcomes(vec![0.0; 4], vec![vec![1.0, 1.0, 0.0, 0.0], vec![0.0; 4]]);
    assert_eq!(research::timing_report::token_advantages(&o, 0)[0].1, 0.5);
    // One branch: measured on every continuation, paired with holding.
    let o = outcomes(vec![1.0, 0.0, 0.0, 0.0], vec![vec![1.0, 1.0, 1.0, 0.0]]);
    assert_eq!(research::timing_report::token_advantages(&o, 0)[0].1, 0.5);
}

#[test]
fn targets_no_better_than_holding_average_no_advantage() {
    // Five targets and holding, every continuation a fair coin: the true advantage is 0. The best
    // of five means is biased upwards by about a standard deviation of one mean; the cross-fitted
    // estimate is not.
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_pcg::Pcg64::seed_from_u64(17);
    let mut coin = |n: usize| (0..n).map(|_| if rng.random::<bool>() { 1.0 } else { 0.0 }).collect::<Vec<f64>>();
    let (positions, k) = (4000, 16);
    let (mut crossfit, mut naive) = (Vec::new(), Vec::new());
    for _ in 0..positions {
        let hold = coin(k);
        let targets: Vec<Vec<f64>> = (0..5).map(|_| coin(k)).collect();
        let best = targets
            .iter()
            .map(|t| t.iter().zip(&hold).map(|(a, b)| a - b).sum::<f64>() / k as f64)
            .fold(f64::MIN, f64::max);
        naive.push(best);
        let o = outcomes(hold, targets);
        crossfit.push(research::timing_report::token_advantages(&o, 0)[0].1);
    }
    let mean = |xs: &[f64]| xs.iter().sum::<f64>() / xs.len() as f64;
    let sd = |xs: &[f64]| {
        let m = mean(xs);
        (xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (xs.len() - 1) as f64).sqrt()
    };
    let se = sd(&crossfit) / (positions as f64).sqrt();
    assert!(mean(&crossfit).abs() < 4.0 * se, "cross-fitted mean {} (se {se})", mean(&crossfit));
    assert!(mean(&naive) > 0.1, "the naive maximum is biased upwards: {}", mean(&naive));
}
