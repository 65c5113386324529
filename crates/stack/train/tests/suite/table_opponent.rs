//! A policy table as a training opponent (`eval::table`, what PSRO's members play from): it plays
//! as the agent it was made from, draw for draw.

use crate::common;
use env::AgentRng;
use game::Game as _;
use games::leduc::Leduc;
use policy::{ActorCritic, Policy, PolicyConfig, cpu_device};
use rand::SeedableRng;
use std::sync::Arc;
use train::TrainConfig;
use train::rollout::{Batch, Collector, EpisodeStats};

/// The first rollout of a fresh collector on Leduc hold'em against `opponent` alone.
fn collect(opponent: &str) -> (Batch, EpisodeStats) {
    let cfg = TrainConfig::<Leduc>::from_toml(&format!(
        "game = \"leduc\"\nseed = 3\nplayers = 2\nlearner_seats = 1\nnum_envs = 8\nnum_steps = 64\nhidden = [8]\n\
         [opponents]\n{} = 1.0\n",
        toml::Value::String(opponent.to_string())
    ))
    .expect("valid config");
    let net = PolicyConfig::new(Leduc::SPEC.obs_len, Leduc::SPEC.num_actions).with_hidden(vec![8]);
    let device = cpu_device();
    let current = Policy::new(&ActorCritic::new_seeded(&net, &device, 2).expect("valid network"), &device);
    let mut c = Collector::new(&cfg, Leduc::SPEC, Arc::new(agents::Agents::new())).expect("collector");
    c.reset_all(0);
    let mut stats = EpisodeStats::default();
    let batch = c.collect(&current, &[], &mut AgentRng::seed_from_u64(7), &mut stats).expect("rollout");
    (batch, stats)
}

#[test]
fn a_table_opponent_plays_as_the_bot_it_was_made_from() {
    let _one_at_a_time = common::serial();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cfr.json");
    let mut cfr = agents::Agents::new().build::<Leduc>("cfr").unwrap();
    eval::table::TablePolicy::<Leduc>::of_agent("cfr", &mut *cfr, &Leduc::rules_with_players(2))
        .unwrap()
        .save(&path)
        .unwrap();
    let table = path.display().to_string();
    let (bot, bot_stats) = collect("cfr");
    let (tab, tab_stats) = collect(&table);
    assert!(bot_stats.episodes > 0);
    assert_eq!((bot.n, &bot.actions, &bot.obs, &bot.adv), (tab.n, &tab.actions, &tab.obs, &tab.adv));
    assert_eq!(bot_stats.by_opponent.get("cfr"), tab_stats.by_opponent.get(&table));
    // Another opponent leads to other games: the comparison can fail.
    let (call, _) = collect("call");
    assert_ne!((bot.n, &bot.obs), (call.n, &call.obs));
}
