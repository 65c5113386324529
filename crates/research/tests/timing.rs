//! The `timing` study: its branches, its common random numbers and its reproducibility.

use engine::{Action, RuleConfig, Scenario, Token};
use research::timing::{Branch, Position, TimingStudy, branches, rollouts};
use std::path::Path;

fn scenario(name: &str) -> engine::State {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/scenarios").join(name);
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
    // cook_and_prime.json: the last action of the round; Cook the Books turns the ranking around
    // for this hand, which keeps its hand pot instead of losing two chips.
    let p = position("cook_and_prime.json");
    let lineup = vec!["expert".to_string(); p.state.num_players() as usize];
    let registry = agents::Agents::new();
    let o = rollouts(&[p], &lineup, 64, 1, &registry, &|_| {}).expect("rollouts run");
    let v = o[0].values();
    assert_eq!(v[0].branch, "hold");
    assert_eq!(v[1].branch, "token:cook-the-books");
    assert!(v[1].chips.mean > v[0].chips.mean + 1.0, "{v:?}");
    assert!(v[1].win_vs_hold.expect("a paired difference").low > 0.0, "{v:?}");
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
    s.rules.token_assignment = engine::config::TokenAssignment::None;
    let e = research::timing_report::run(&s, &registry, &|_| {}, &|_| {}).unwrap_err().to_string();
    assert!(e.contains("no decision with a playable token"), "{e}");
    let p = position("embargo_wrap.json");
    let e = rollouts(&[p], &vec!["expert".to_string(); 4], 0, 1, &registry, &|_| {}).unwrap_err().to_string();
    assert!(e.contains("continuations"), "{e}");
}
