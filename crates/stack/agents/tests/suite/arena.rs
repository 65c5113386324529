//! The arena: seatings, duplicate deals, determinism across thread counts, spec errors.

use agents::{AgentSpec, Agents, SpecError};
use eval::arena::{self, ArenaConfig, SeatingPlan};
use games::kessel::Kessel;
use games::kessel::RuleConfig;
use std::collections::BTreeSet;

#[test]
fn seatings_cover_permutations_or_balanced_rotations() {
    assert_eq!(arena::seatings(2), vec![vec![0, 1], vec![1, 0]]);
    for p in 2..=4usize {
        let s = arena::seatings(p);
        let fact: usize = (1..=p).product();
        assert_eq!(s.len(), fact);
        assert_eq!(s.iter().collect::<BTreeSet<_>>().len(), fact, "all distinct");
    }
    for p in 5..=8usize {
        let s = arena::seatings(p);
        assert_eq!(s.len(), 2 * p);
        for seat in 0..p {
            for entry in 0..p {
                assert_eq!(s.iter().filter(|x| x[seat] == entry).count(), 2, "each entry twice in each seat");
            }
        }
        for x in &s {
            assert_eq!(x.iter().collect::<BTreeSet<_>>().len(), p, "a permutation");
        }
        // Clockwise and counter-clockwise lineup order: each entry has the entries next to it
        // in the lineup on its left in P seatings and on its right in the other P.
        for a in 0..p {
            for b in 0..p {
                let c = s.iter().filter(|x| (0..p).any(|i| x[i] == a && x[(i + 1) % p] == b)).count();
                let want = if b == (a + 1) % p || b == (a + p - 1) % p { p } else { 0 };
                assert_eq!(c, want, "p={p} a={a} b={b}");
            }
        }
    }
    assert_eq!(arena::lineup(&["a".into(), "b".into()], 5).unwrap(), ["a", "b", "a", "b", "a"]);
    assert!(arena::lineup(&["a".into(), "b".into(), "c".into()], 2).is_err());
    assert_eq!(arena::games_played(10, 4, SeatingPlan::Every), 24);
    assert_eq!(arena::games_played(48, 4, SeatingPlan::Every), 48);
    assert_eq!(arena::games_played(7, 2, SeatingPlan::Every), 8);
    assert_eq!(arena::games_played(10, 4, SeatingPlan::Rotations), 12);
    assert_eq!(arena::games_played(10, 6, SeatingPlan::Rotations), 12);
}

#[test]
fn rotations_put_each_entry_once_in_each_seat() {
    for p in 2..=8usize {
        let r = arena::seatings_for(p, SeatingPlan::Rotations);
        assert_eq!(r.len(), p);
        assert_eq!(r[0], (0..p).collect::<Vec<_>>(), "the identity first");
        for seat in 0..p {
            let entries: BTreeSet<usize> = r.iter().map(|x| x[seat]).collect();
            assert_eq!(entries.len(), p, "p={p}: every entry once in seat {seat}");
        }
        assert_eq!(arena::seatings_for(p, SeatingPlan::Every), arena::seatings(p));
    }
    // Heads-up the two plans are the same seatings.
    assert_eq!(arena::seatings_for(2, SeatingPlan::Rotations), arena::seatings(2));
}

/// For agents that draw no random numbers, the 24 seatings of [A, B, B, B] are 4 distinct games
/// played 6 times each: the rotations play each of them once, so every deal's result (A's win
/// share over the deal) is the same under both plans, for a sixth of the games.
#[test]
fn rotations_of_one_agent_against_copies_replay_every_distinct_game_once() {
    let lineup: Vec<String> = ["expert", "greedy", "greedy", "greedy"].iter().map(|s| s.to_string()).collect();
    let play = |seating| {
        let cfg = ArenaConfig::<Kessel> {
            agents: lineup.clone(),
            players: 4,
            games: if seating == SeatingPlan::Every { 24 * 12 } else { 4 * 12 },
            seed: 17,
            rules: RuleConfig::with_players(4),
            seating,
        };
        arena::run(&cfg, &Agents::new(), &|| {}).unwrap()
    };
    let (every, rotations) = (play(SeatingPlan::Every), play(SeatingPlan::Rotations));
    assert_eq!((every.deals, rotations.deals), (12, 12));
    assert_eq!((every.games.len(), rotations.games.len()), (288, 48));
    let share = |res: &eval::ArenaResult, deal: u64| {
        let games: Vec<_> = res.games.iter().filter(|g| g.deal == deal).collect();
        // Entry 0 (`expert`) is agent 0 of the names.
        games.iter().map(|g| (0..4).filter(|&s| g.seat_agent[s] == 0).map(|s| g.win[s]).sum::<f64>()).sum::<f64>()
            / games.len() as f64
    };
    for deal in 0..12 {
        assert_eq!(share(&every, deal), share(&rotations, deal), "deal {deal}");
    }
}

#[test]
fn duplicate_deals_replay_each_deal_under_every_seating() {
    let cfg = ArenaConfig::<Kessel> {
        agents: vec!["expert".into(), "greedy".into(), "random".into()],
        players: 3,
        games: 12,
        seed: 5,
        rules: RuleConfig::default(),
        seating: SeatingPlan::Every,
    };
    let res = arena::run(&cfg, &Agents::new(), &|| {}).unwrap();
    assert_eq!(res.games.len(), 12);
    assert_eq!(res.deals, 2);
    for deal in 0..2u64 {
        let seatings: BTreeSet<Vec<usize>> =
            res.games.iter().filter(|g| g.deal == deal).map(|g| g.seat_agent.clone()).collect();
        assert_eq!(seatings.len(), 6, "deal {deal} under all 6 seatings");
    }
    for (i, g) in res.games.iter().enumerate() {
        assert_eq!(g.index, i as u64);
        assert_eq!(g.seat_agent, res.seatings[i % 6]);
    }
}

fn run_with_threads(cfg: &ArenaConfig<Kessel>, threads: Option<usize>) -> String {
    let f = Agents::new();
    let go = || arena::run(cfg, &f, &|| {}).unwrap();
    let res = match threads {
        Some(t) => rayon::ThreadPoolBuilder::new().num_threads(t).build().unwrap().install(go),
        None => go(),
    };
    let report = eval::report::build(cfg, &res);
    serde_json::to_string(&(res.games, report)).unwrap()
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let cfgs = [
        ArenaConfig::<Kessel> {
            agents: vec!["expert".into(), "greedy".into(), "random".into(), "random".into()],
            players: 4,
            games: 48,
            seed: 11,
            rules: RuleConfig::default(),
            seating: SeatingPlan::Every,
        },
        ArenaConfig::<Kessel> {
            agents: vec!["search:2".into(), "expert".into()],
            players: 2,
            games: 8,
            seed: 3,
            rules: RuleConfig::default(),
            seating: SeatingPlan::Every,
        },
        ArenaConfig::<Kessel> {
            agents: vec!["greedy".into(), "random".into()],
            players: 6,
            games: 24,
            seed: 1,
            rules: RuleConfig::default(),
            seating: SeatingPlan::Every,
        },
    ];
    for cfg in &cfgs {
        let one = run_with_threads(cfg, Some(1));
        assert_eq!(one, run_with_threads(cfg, None));
        assert_eq!(one, run_with_threads(cfg, Some(3)));
    }
}

#[test]
fn shards_of_deals_merge_into_the_whole_tournament() {
    let cfg = ArenaConfig::<Kessel> {
        agents: vec!["expert".into(), "greedy".into(), "random".into()],
        players: 3,
        games: 200,
        seed: 9,
        rules: RuleConfig::default(),
        seating: SeatingPlan::Every,
    };
    let f = Agents::new();
    let whole = arena::run(&cfg, &f, &|| {}).unwrap();
    let deals = arena::deals_of(&cfg);
    assert_eq!(deals, 34);
    assert_eq!(whole.deals, deals);
    // Uneven shards, one empty, one reaching past the end, merged out of order.
    let ranges = [5..19, 0..5, 19..19, 19..u64::MAX];
    let parts: Vec<_> = ranges.iter().map(|r| arena::run_deals(&cfg, &f, &|| {}, r.clone()).unwrap()).collect();
    assert_eq!(parts.iter().map(|p| p.deals).collect::<Vec<_>>(), [14, 5, 0, 15]);
    assert_eq!(parts[0].games.first().map(|g| g.index), Some(5 * 6));
    let merged = arena::merge(parts.clone()).unwrap();
    assert_eq!(merged, whole);
    let json = |r: &arena::ArenaResult| serde_json::to_string(&eval::report::build(&cfg, r)).unwrap();
    assert_eq!(json(&merged), json(&whole));
    // A shard counted twice, or none, is refused; so is a reversed range.
    let twice = arena::merge(vec![parts[1].clone(), parts[1].clone()]).unwrap_err().to_string();
    assert!(twice.contains("more than one shard"), "{twice}");
    assert!(arena::merge(Vec::new()).is_err());
    let reversed = std::ops::Range { start: 7, end: 3 };
    assert!(arena::run_deals(&cfg, &f, &|| {}, reversed).unwrap_err().to_string().contains("empty or reversed"));
}

#[test]
fn bad_specs_are_clear_errors() {
    let f = Agents::new();
    let e = f.validate::<Kessel>("expret").unwrap_err().to_string();
    assert!(
        e.contains("expret") && ["random", "greedy", "expert", "search:N", "level:1"].iter().all(|w| e.contains(w)),
        "{e}"
    );
    assert!(matches!(AgentSpec::parse::<Kessel>("search:x"), Err(SpecError::BadParameter { .. })));
    assert!(matches!(AgentSpec::parse::<Kessel>("search:0"), Err(SpecError::BadParameter { .. })));
    assert_eq!(AgentSpec::parse::<Kessel>("search:200").unwrap(), AgentSpec::Bot { name: "search", parameter: 200 });
    assert_eq!(
        AgentSpec::parse::<Kessel>("search").unwrap(),
        AgentSpec::Bot { name: "search", parameter: games::kessel::bots::SearchAgent::DEFAULT_WORLDS as u32 }
    );
    // A path that does not exist names nothing; a folder without metadata is not a checkpoint.
    let e = f.validate::<Kessel>("checkpoints/run1/step100.mpk").unwrap_err();
    assert!(matches!(e, SpecError::Unknown { .. }), "{e}");
    let dir = std::env::temp_dir().join(format!("agents-not-a-checkpoint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let e = f.validate::<Kessel>(dir.to_str().unwrap()).unwrap_err();
    assert!(matches!(e, SpecError::NotACheckpoint { .. }), "{e}");
    let e = f.validate::<Kessel>(&format!("{}@wild", dir.display())).unwrap_err();
    assert!(matches!(e, SpecError::BadMode { .. }), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
    let cfg = ArenaConfig::<Kessel> {
        agents: vec!["greedy".into(), "nope".into()],
        players: 2,
        games: 2,
        seed: 0,
        rules: RuleConfig::default(),
        seating: SeatingPlan::Every,
    };
    assert!(arena::run(&cfg, &f, &|| {}).unwrap_err().to_string().contains("unknown agent `nope`"));
}
