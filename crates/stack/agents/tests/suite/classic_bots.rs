//! The classic bots through the one game loop and the one arena: legal play at every table size
//! and under odd rules, determinism, and their order of strength.
//!
//! The strength claims that need many games (`#[ignore]`d) are the figures of
//! `docs/bots-classic.md`; run them in release:
//! `cargo test --release -p agents --test suite -- classic_bots:: --ignored --nocapture`.

use agents::Agents;
use env::{Agent, AgentBuilder, GameConfig};
use eval::arena::{self, ArenaConfig, SeatingPlan};
use games::classic::Classic;
use games::classic::RuleConfig;
use games::classic::config::{ExchangeDrop, HandLimitEnd, IdiotsArrayPots, IdiotsArrayShape, Stakes, Totals};

fn seated(specs: &[&str]) -> Vec<Box<dyn Agent<Classic>>> {
    let agents = Agents::new();
    specs.iter().map(|s| AgentBuilder::<Classic>::build(&agents, s).unwrap()).collect()
}

fn config(rules: RuleConfig) -> GameConfig<Classic> {
    GameConfig { rules, ..GameConfig::default() }
}

#[test]
fn every_classic_bot_plays_only_legal_actions_at_every_table_size() {
    let bots = ["random", "greedy", "expert"];
    let odd = [
        RuleConfig::default(),
        RuleConfig {
            totals: Totals::ClosestAbsolute,
            exchange: ExchangeDrop::AnyCard,
            bet_limit: 10,
            stakes: Stakes::NoCap,
            ..RuleConfig::default()
        },
        RuleConfig {
            idiots_array: IdiotsArrayShape::AnyHand,
            idiots_array_pots: IdiotsArrayPots::SabaccPotOnly,
            max_hand_size: 3,
            starting_credits: 10,
            face_values: [5, -20, 20, -1, 0, 7, -7, 13],
            ..RuleConfig::default()
        },
    ];
    let mut games = 0;
    for players in 2..=8u8 {
        for (c, rules) in odd.iter().enumerate() {
            // Search is the slow one: one seat of it, in short games.
            let mut specs: Vec<&str> = vec!["search:2"];
            specs.extend((1..players as usize).map(|i| bots[(i + c + players as usize) % 3]));
            let rules = RuleConfig { players, hand_limit: 3, ..*rules };
            let r = env::play_game(&config(rules), &mut seated(&specs), 100 * players as u64 + c as u64)
                .unwrap_or_else(|e| panic!("{e}"));
            assert!(!r.actions.is_empty());
            games += 1;
            // Without search, more and longer games (the game loop refuses any illegal action).
            for g in 0..4u64 {
                let fast: Vec<&str> = (0..players as usize).map(|i| bots[(i + c + g as usize) % 3]).collect();
                let rules = RuleConfig { hand_limit: 25, ..rules };
                let seed = 1000 * g + 7 + players as u64 * 3 + c as u64;
                env::play_game(&config(rules), &mut seated(&fast), seed).unwrap_or_else(|e| panic!("{e}"));
                games += 1;
            }
        }
    }
    assert_eq!(games, 105);
}

#[test]
fn classic_bots_are_deterministic_given_their_rng() {
    let rules = RuleConfig { hand_limit: 10, ..RuleConfig::default() };
    let specs = ["expert", "greedy", "random", "classic:expert"];
    let a = env::play_game(&config(rules), &mut seated(&specs), 5).unwrap();
    let b = env::play_game(&config(rules), &mut seated(&specs), 5).unwrap();
    assert_eq!(a, b);
}

/// Four seats: expert, greedy and two randoms, every seating of each deal, games decided at the
/// hand limit by credits (as `docs/bots-classic.md` measures).
fn four_seat_order(games: u64, seed: u64) {
    let rules = RuleConfig { hand_limit_end: HandLimitEnd::MostCredits, ..RuleConfig::default() };
    let agents: Vec<String> = ["expert", "greedy", "random", "random"].map(String::from).to_vec();
    let cfg = ArenaConfig::<Classic> { agents, players: 4, games, seed, rules, seating: SeatingPlan::Every };
    let res = arena::run(&cfg, &Agents::new(), &|| {}).unwrap();
    let report = eval::report::build(&cfg, &res);
    let by = |n: &str| report.stats.agents.iter().find(|a| a.name == n).unwrap().clone();
    let (e, g, x) = (by("expert"), by("greedy"), by("random"));
    println!("expert {e:?}\ngreedy {g:?}\nrandom {x:?}");
    assert!(e.ci_low > g.ci_high, "expert {e:?} not above greedy {g:?}");
    assert!(g.ci_low > x.ci_high, "greedy {g:?} not above random {x:?}");
    assert_eq!(report.stats.truncated_games, 0, "the hand limit decides every game");
}

#[test]
fn at_four_seats_classic_expert_beats_greedy_beats_random() {
    four_seat_order(96, 1);
}

#[test]
#[ignore = "2,400 games: run in release"]
fn at_four_seats_classic_expert_beats_greedy_beats_random_over_many_games() {
    four_seat_order(2400, 1);
}

#[test]
#[ignore = "1,000 searched games, about 10 minutes on two cores in release"]
fn heads_up_classic_search_beats_expert() {
    let rules = RuleConfig { hand_limit_end: HandLimitEnd::MostCredits, ..RuleConfig::default() };
    let agents = vec!["search".to_string(), "expert".to_string()];
    let cfg = ArenaConfig::<Classic> { agents, players: 2, games: 1000, seed: 7, rules, seating: SeatingPlan::Every };
    let res = arena::run(&cfg, &Agents::new(), &|| {}).unwrap();
    let report = eval::report::build(&cfg, &res);
    let s = report.stats.agents.iter().find(|a| a.name == "search").unwrap();
    println!("{s:?}");
    assert!(s.ci_low > 0.5, "search is not above expert: {s:?}");
}
