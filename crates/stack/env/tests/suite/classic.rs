//! Classic Sabacc through the generic env: the conformance harness (masks agree with the engine
//! both ways, illegal indices refused and harmless, reproducible resets, zero-sum terminal
//! rewards, documented observation ranges, engine invariants, and no leak: every seat's
//! observation is unchanged when everything it cannot see — opponents' hands, the deck order,
//! future dice — is re-dealt), the vectorised env against single envs, and the driver.

use env::conformance::{check, check_step_many, check_vec_env};
use env::{Agent, Game, GameConfig, RandomAgent, RewardMode};
use games::classic::Classic;

fn config(players: u8) -> GameConfig<Classic> {
    GameConfig::with_players(players)
}

#[test]
fn classic_conformance_at_every_table_size() {
    for players in 2..=8u8 {
        let games = if players <= 4 { 150 } else { 40 };
        check(&config(players), games, 500 + u64::from(players)).unwrap();
    }
}

#[test]
fn classic_conformance_placement_rewards_and_short_games() {
    check(&config(3).with_reward(RewardMode::Placement), 20, 61).unwrap();
    // A short hand limit exercises truncation (rewards 0 for everyone).
    let mut short = config(4);
    short.rules.hand_limit = 2;
    check(&short, 40, 62).unwrap();
}

#[test]
fn classic_vec_env_matches_single_envs_and_step_many_matches_step() {
    check_vec_env(&config(4), 16, 800, 71).unwrap();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    pool.install(|| check_vec_env(&config(2), 9, 600, 72)).unwrap();
    check_step_many(&config(3), 12, 20, 40, 73).unwrap();
}

#[test]
fn classic_env_spec_sizes_its_buffers() {
    let spec = Classic::SPEC;
    assert_eq!(spec, Classic::SPEC);
    assert_eq!(spec.id, "classic_sabacc_v1");
    assert_eq!(spec.num_actions, games::classic::NUM_ACTIONS);
    assert_eq!(spec.obs_len, games::classic::OBS_LEN);
    let env = env::Env::<Classic>::new(config(4)).unwrap();
    assert_eq!(env.observe(game::Seat(0)).len(), spec.obs_len);
    let v = env::VecEnv::new(config(4), 5, 1).unwrap();
    assert_eq!(v.obs().len(), 5 * spec.obs_len);
    assert_eq!(v.masks().len(), 5 * spec.num_actions);
    assert_eq!(v.mask_bits().len(), 5 * spec.mask_words());
}

#[test]
fn classic_games_run_on_the_one_driver_with_seated_agents() {
    let agents: Vec<Box<dyn Agent<Classic>>> =
        (0..4).map(|_| Box::new(RandomAgent) as Box<dyn Agent<Classic>>).collect();
    let mut a = agents;
    let first = env::play_game(&config(4), &mut a, 9).unwrap();
    let again = env::play_game(&config(4), &mut a, 9).unwrap();
    assert_eq!(first, again, "same seed, same game");
    assert!(first.truncated || !first.winners.is_empty());
    let sum: f32 = first.returns.iter().sum();
    assert!(sum.abs() < 1e-5, "zero-sum returns: {:?}", first.returns);
}
