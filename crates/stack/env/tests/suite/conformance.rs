//! The conformance harness over many seeded games, every table size and several rule variants.

use env::RewardMode;
use env::conformance::check;
use games::kessel::Kessel;
use games::kessel::config::{ImpostorRule, TokenAssignment};

#[test]
fn conformance_all_player_counts_win_loss() {
    for players in 2..=8u8 {
        let games = if players <= 4 { 1500 } else { 500 };
        check(&env::GameConfig::<Kessel>::with_players(players), games, 1000 + u64::from(players)).unwrap();
    }
}

#[test]
fn conformance_placement_rewards() {
    for players in [2u8, 3, 5, 8] {
        let cfg = env::GameConfig::<Kessel>::with_players(players).with_reward(RewardMode::Placement);
        check(&cfg, 400, 2000 + u64::from(players)).unwrap();
    }
}

#[test]
fn conformance_rule_variants() {
    let mut choose = env::GameConfig::<Kessel>::with_players(3);
    choose.rules.token_assignment = TokenAssignment::Choose;
    check(&choose, 60, 31).unwrap();

    let mut none = env::GameConfig::<Kessel>::with_players(4);
    none.rules.token_assignment = TokenAssignment::None;
    check(&none, 60, 32).unwrap();

    for imp in [ImpostorRule::OneDie, ImpostorRule::AutoBest] {
        let mut c = env::GameConfig::<Kessel>::with_players(4);
        c.rules.impostor = imp;
        check(&c, 40, 33).unwrap();
    }

    // A short round limit exercises truncation (rewards 0 for everyone).
    let mut short = env::GameConfig::<Kessel>::with_players(6);
    short.rules.round_limit = 2;
    short.rules.starting_chips = 8;
    check(&short, 60, 34).unwrap();

    let mut logged = env::GameConfig::<Kessel>::with_players(4);
    logged.event_log = true;
    logged.rules.tokens_per_player = 6;
    check(&logged, 40, 35).unwrap();
}
