//! The ship gate on real games: the paired comparison sees what the arena sees.

use crate::common;

use common::Bots;
use eval::arena::{self, ArenaConfig, SeatingPlan};
use eval::gate::{self, GatePlan, GateReport, Panel, Verdict};
use games::kessel::{Kessel, RuleConfig};

fn panel(games: u64) -> Panel {
    Panel::parse(&format!(
        "game = \"kessel\"\nseed = 5\nopponents = [\"random\", \"gambler\", \"mirror\"]\n\
         tables = [{{ players = 2, games = {games} }}, {{ players = 4, games = {games} }}]\n"
    ))
    .unwrap()
}

#[test]
fn a_cell_is_the_arena_tournament_of_one_seat_against_copies_of_the_opponent() {
    let p = panel(48);
    let rules = RuleConfig::default();
    let played = gate::play::<Kessel>("greedy", &p, &rules, &Bots, &|| {}).unwrap();
    assert_eq!(played.cells.len(), 6);
    // The mirror at four seats: greedy against three mirrors, on the cell's own seed.
    let c = &played.cells[5];
    assert_eq!((c.opponent.as_str(), c.players), ("mirror", 4));
    let cfg = ArenaConfig::<Kessel> {
        agents: vec!["greedy".into(), "mirror".into(), "mirror".into(), "mirror".into()],
        players: 4,
        games: 48,
        seed: p.cell_seed(2, 4),
        rules,
        seating: SeatingPlan::Every,
    };
    let res = arena::run(&cfg, &Bots, &|| {}).unwrap();
    let report = eval::report::build(&cfg, &res);
    let greedy = report.stats.agents.iter().find(|a| a.name == "greedy").unwrap();
    assert_eq!(c.games, greedy.games);
    assert!((c.win_rate - greedy.win_rate).abs() < 1e-12, "{} vs {}", c.win_rate, greedy.win_rate);
    assert_eq!(c.deal_shares.len() as u64, res.deals);
    let mean = c.deal_shares.iter().sum::<f64>() / c.deal_shares.len() as f64;
    assert!((mean - c.win_rate).abs() < 1e-12);
    assert_eq!(p.games_per_agent(), played.cells.iter().map(|c| c.games).sum::<u64>());
}

#[test]
fn a_panel_of_rotations_plays_the_same_distinct_games_on_a_sixth_of_the_budget() {
    let text = |seatings: &str, games: u64| {
        format!(
            "game = \"kessel\"\nseed = 5\n{seatings}opponents = [\"greedy\"]\n\
             tables = [{{ players = 2, games = {games} }}, {{ players = 4, games = {games} }}]\n"
        )
    };
    let every = Panel::parse(&text("", 240)).unwrap();
    let rotations = Panel::parse(&text("seatings = \"rotations\"\n", 40)).unwrap();
    assert_eq!((every.seatings, rotations.seatings), (SeatingPlan::Every, SeatingPlan::Rotations));
    assert!(Panel::parse(&text("seatings = \"some\"\n", 40)).is_err(), "an unknown plan is refused");
    let rules = RuleConfig::default();
    let (a, b) = (
        gate::play::<Kessel>("expert", &every, &rules, &Bots, &|| {}).unwrap(),
        gate::play::<Kessel>("expert", &rotations, &rules, &Bots, &|| {}).unwrap(),
    );
    assert_eq!(rotations.games_per_agent(), b.cells.iter().map(|c| c.games).sum::<u64>());
    // Four seats: 10 deals either way, 24 games each against 4; each deal's share the same
    // (`expert` and `greedy` draw no random numbers).
    assert_eq!((a.cells[1].games, b.cells[1].games), (240, 40));
    assert_eq!(a.cells[1].deal_shares.len(), 10);
    for (x, y) in a.cells[1].deal_shares.iter().zip(&b.cells[1].deal_shares) {
        assert!((x - y).abs() < 1e-12, "{:?} against {:?}", a.cells[1].deal_shares, b.cells[1].deal_shares);
    }
}

#[test]
fn the_gate_keeps_the_stronger_agent_and_refuses_the_weaker_and_an_equal() {
    let p = panel(96);
    let rules = RuleConfig::default();
    let play = |a: &str| gate::play::<Kessel>(a, &p, &rules, &Bots, &|| {}).unwrap();
    let (random, expert) = (play("random"), play("expert"));
    let report = GateReport::new(p.clone(), vec![random.clone(), expert.clone(), random.clone()]).unwrap();
    assert!(report.gates[0].passes, "expert over random: {}", report.gates[0].reason);
    assert!(!report.gates[1].passes, "random over expert: {}", report.gates[1].reason);
    assert!(report.gates[1].cells.iter().any(|c| c.verdict == Verdict::Worse));
    assert!(!report.passes());
    // The same agent twice, on the same deals: every difference is exactly zero.
    let same = GateReport::new(p.clone(), vec![expert.clone(), play("expert")]).unwrap();
    assert!(same.gates[0].cells.iter().all(|c| c.difference == 0.0 && c.verdict == Verdict::Level));
    assert!(!same.passes());
    let md = report.markdown();
    assert!(md.contains("| `mirror` | 4 |") && md.contains("does not pass"), "{md}");
}

#[test]
fn a_candidate_gated_last_meets_every_earlier_agent_on_the_same_results() {
    let p = panel(48);
    let rules = RuleConfig::default();
    let play = |a: &str| gate::play::<Kessel>(a, &p, &rules, &Bots, &|| {}).unwrap();
    let (random, greedy, expert) = (play("random"), play("greedy"), play("expert"));
    let agents = vec![random.clone(), greedy.clone(), expert.clone()];
    let last = GateReport::with_plan(p.clone(), agents.clone(), GatePlan::Last).unwrap();
    assert_eq!(last.gates.len(), 2);
    assert_eq!(last.gates[0], gate::compare(&random, &expert).unwrap());
    assert_eq!(last.gates[1], gate::compare(&greedy, &expert).unwrap());
    let chain = GateReport::new(p.clone(), agents).unwrap();
    assert_eq!(chain.gates[1], gate::compare(&greedy, &expert).unwrap());
    assert_eq!(chain.gates[0], gate::compare(&random, &greedy).unwrap());
    let md = last.markdown();
    assert!(md.contains("`expert` − `random`") && md.contains("`expert` − `greedy`"), "{md}");
    assert!(!md.contains("`greedy` − `random`"), "{md}");
    // The plan is kept in the JSON, and a report written before plans existed reads as a chain.
    let json = serde_json::to_value(&last).unwrap();
    assert_eq!(json["plan"], "last");
    let mut old = serde_json::to_value(&chain).unwrap();
    old.as_object_mut().unwrap().remove("plan");
    assert_eq!(serde_json::from_value::<GateReport>(old).unwrap().plan, GatePlan::Chain);
    assert!(GatePlan::parse("every").unwrap_err().contains("`chain`"));
    assert_eq!(GatePlan::Last.pairs(1), vec![]);
}

#[test]
fn an_unknown_opponent_fails_before_any_game() {
    let p =
        Panel::parse("game = \"kessel\"\nseed = 1\nopponents = [\"nobody\"]\ntables = [{ players = 2, games = 4 }]\n")
            .unwrap();
    let e = gate::play::<Kessel>("expert", &p, &RuleConfig::default(), &Bots, &|| panic!("a game was played"));
    assert!(e.unwrap_err().to_string().contains("unknown agent `nobody`"));
}
