//! Exploratory deviations (`explore`): how they change what a rollout trains on.

use crate::common;
use common::bots;
use env::AgentRng;
use game::Game as _;
use games::kessel::Kessel;
use policy::{ActorCritic, Policy, PolicyConfig, cpu_device};
use rand::SeedableRng;
use train::TrainConfig;
use train::rollout::{Batch, Collector, EpisodeStats};

fn collect(extra: &str) -> (Batch, EpisodeStats) {
    let cfg = TrainConfig::<Kessel>::from_toml(&format!(
        "seed = 5\nplayers = 2\nlearner_seats = 2\nnum_envs = 8\nnum_steps = 300\nhidden = [8]\n{extra}\n[opponents]\nrandom = 1.0\n"
    ))
    .expect("valid config");
    let net = PolicyConfig::new(Kessel::SPEC.obs_len, Kessel::SPEC.num_actions).with_hidden(vec![8]);
    let device = cpu_device();
    let current = Policy::new(&ActorCritic::new_seeded(&net, &device, 1).expect("valid network"), &device);
    let mut c = Collector::new(&cfg, Kessel::SPEC, bots()).expect("collector");
    c.reset_all(0);
    let mut stats = EpisodeStats::default();
    let mut rng = AgentRng::seed_from_u64(11);
    let batch = c.collect(&current, &[], &mut rng, &mut stats).expect("rollout");
    (batch, stats)
}

#[test]
fn explore_zero_collects_exactly_what_a_config_without_the_key_does() {
    let _one_at_a_time = common::serial();
    let (a, sa) = collect("");
    let (b, sb) = collect("explore = 0.0");
    assert_eq!((a.n, &a.actions, &a.adv, &a.obs), (b.n, &b.actions, &b.adv, &b.obs));
    assert_eq!((sa.episodes, sa.learner_decisions, sb.explored), (sb.episodes, sb.learner_decisions, 0));
}

#[test]
fn deviations_are_counted_left_out_of_training_and_replay_from_the_seed() {
    let _one_at_a_time = common::serial();
    let (plain, p) = collect("");
    let (batch, s) = collect("explore = 0.2");
    assert!(s.explored > 0 && s.learner_decisions > 0);
    // Only the first seat to deviate may deviate again, so fewer than a fifth of all decisions
    // are deviations, but far more than none.
    let fraction = s.explored as f64 / s.learner_decisions as f64;
    assert!((0.03..0.2).contains(&fraction), "{fraction}");
    // Every decision is either a row, a deviation, another seat's decision left out after one,
    // or the last one of a game still open at the end of the rollout (kept for the next).
    assert!(batch.n + s.explored as usize <= s.learner_decisions as usize);
    let open_games = 8 * 2;
    assert!(plain.n + open_games >= p.learner_decisions as usize, "without deviations every decision is a row");
    assert!(
        (batch.n as f64) < 0.9 * (s.learner_decisions - s.explored) as f64,
        "the other seat's decisions after a deviation are left out: {} rows of {} decisions",
        batch.n,
        s.learner_decisions
    );
    let (again, s2) = collect("explore = 0.2");
    assert_eq!((again.n, &again.actions, &again.adv), (batch.n, &batch.actions, &batch.adv));
    assert_eq!(s2.explored, s.explored);
}
