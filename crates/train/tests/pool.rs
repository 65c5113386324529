//! The opponent pool: mixed table sizes and prioritised snapshot sampling.

mod common;
use common::bots;
use env::AgentRng;
use policy::{ActorCritic, Policy, PolicyConfig, cpu_device};
use rand::SeedableRng;
use train::TrainConfig;
use train::rollout::{Collector, EpisodeStats};

fn config(sampling: &str) -> TrainConfig {
    TrainConfig::from_toml(&format!(
        r#"
        seed = 3
        players = 3
        table_sizes = [2, 3]
        num_envs = 16
        num_steps = 200
        hidden = [8]
        snapshot_sampling = "{sampling}"
        [opponents]
        snapshots = 1.0
        "#
    ))
    .expect("valid config")
}

fn policy(seed: u64) -> Policy {
    let net = PolicyConfig::new(env::EnvSpec::KESSEL.obs_len, env::EnvSpec::KESSEL.num_actions).with_hidden(vec![8]);
    let device = cpu_device();
    Policy::new(&ActorCritic::new_seeded(&net, &device, seed).expect("valid network"), &device)
}

fn collect(cfg: &TrainConfig, weights: Vec<f64>) -> EpisodeStats {
    let current = policy(1);
    let pool = vec![policy(2), policy(3), policy(4)];
    let mut c = Collector::new(cfg, env::EnvSpec::KESSEL, bots()).expect("collector");
    c.set_snapshot_weights(weights);
    c.reset_all(0);
    let mut stats = EpisodeStats::default();
    let mut rng = AgentRng::seed_from_u64(9);
    let batch = c.collect(&current, &pool, &mut rng, &mut stats).expect("rollout");
    assert!(batch.n > 0);
    stats
}

#[test]
fn prioritised_sampling_follows_the_weights_and_uniform_ignores_them() {
    let s = collect(&config("prioritised"), vec![0.0, 1.0, 0.0]);
    assert!(s.episodes > 20, "{}", s.episodes);
    assert_eq!(s.by_snapshot.keys().copied().collect::<Vec<_>>(), vec![1], "{:?}", s.by_snapshot);

    let s = collect(&config("uniform"), vec![0.0, 1.0, 0.0]);
    assert_eq!(s.by_snapshot.len(), 3, "uniform sampling uses every snapshot: {:?}", s.by_snapshot);
    let games: u64 = s.by_snapshot.values().map(|v| v.0).sum();
    assert!(games >= s.episodes, "every game has at least one snapshot opponent");
}

#[test]
fn games_are_drawn_from_every_table_size() {
    let s = collect(&config("uniform"), Vec::new());
    let two = s.by_opponent.keys().filter(|k| k.ends_with("_2p")).count();
    let three = s.by_opponent.keys().filter(|k| k.ends_with("_3p")).count();
    assert!(two > 0 && three > 0, "{:?}", s.by_opponent);
    let per_size =
        |suffix: &str| -> u64 { s.by_opponent.iter().filter(|(k, _)| k.ends_with(suffix)).map(|(_, v)| v.0).sum() };
    // Uniform over two sizes: neither dominates (16 games x several episodes each).
    let (a, b) = (per_size("_2p"), per_size("_3p"));
    assert!(a * 3 > b && b * 3 > a, "2p {a} vs 3p {b}");
}
