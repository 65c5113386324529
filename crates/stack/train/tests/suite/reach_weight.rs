//! Rows weighted by the inverse of the seat's own reach (`reach_weight`): what a rollout records.

use crate::common;
use common::bots;
use env::AgentRng;
use game::Game as _;
use games::leduc::Leduc;
use policy::{ActorCritic, Policy, PolicyConfig, cpu_device};
use rand::SeedableRng;
use train::TrainConfig;
use train::rollout::{Batch, Collector};

/// The first rollout of a fresh collector on Leduc hold'em, the learner in both seats: every
/// chain in it starts at its game's first decision.
fn collect(extra: &str) -> Batch {
    let cfg = TrainConfig::<Leduc>::from_toml(&format!(
        "game = \"leduc\"\nseed = 3\nplayers = 2\nlearner_seats = 2\nnum_envs = 4\nnum_steps = 64\nhidden = [8]\n{extra}\n[opponents]\nrandom = 1.0\n"
    ))
    .expect("valid config");
    let net = PolicyConfig::new(Leduc::SPEC.obs_len, Leduc::SPEC.num_actions).with_hidden(vec![8]);
    let device = cpu_device();
    let current = Policy::new(&ActorCritic::new_seeded(&net, &device, 2).expect("valid network"), &device);
    let mut c = Collector::new(&cfg, Leduc::SPEC, bots()).expect("collector");
    c.reset_all(0);
    let mut stats = train::rollout::EpisodeStats::default();
    let mut rng = AgentRng::seed_from_u64(7);
    c.collect(&current, &[], &mut rng, &mut stats).expect("rollout")
}

#[test]
fn reach_weight_zero_collects_what_a_config_without_the_key_does_and_carries_no_weights() {
    let _one_at_a_time = common::serial();
    let a = collect("");
    let b = collect("reach_weight = 0.0");
    assert_eq!((a.n, &a.actions, &a.adv, &a.obs), (b.n, &b.actions, &b.adv, &b.obs));
    assert!(a.weights.is_empty() && b.weights.is_empty());
}

#[test]
fn each_row_weighs_the_inverse_of_its_seats_reach_so_far_capped() {
    let _one_at_a_time = common::serial();
    let cap = 3.0;
    let plain = collect("");
    let batch = collect(&format!("reach_weight = {cap}"));
    // Weighting changes what the update does, not what the rollout plays.
    assert_eq!((plain.n, &plain.actions, &plain.adv), (batch.n, &batch.actions, &batch.adv));
    assert_eq!(batch.weights.len(), batch.n);
    // Rows come chain by chain. A chain starts at weight 1 (nothing played yet; every Leduc
    // decision has two or more legal actions and the network gives none probability 1, so a later
    // row weighs more), and each later row weighs 1 / (product of the earlier rows'
    // probabilities), capped.
    let (mut log_reach, mut starts, mut capped) = (0.0f32, 0, 0);
    for r in 0..batch.n {
        let w = batch.weights[r];
        if w == 1.0 {
            log_reach = 0.0;
            starts += 1;
        }
        let want = (-log_reach).exp().min(cap);
        assert!((w - want).abs() <= 1e-5 * want, "row {r}: weight {w}, want {want}");
        capped += usize::from(want == cap);
        log_reach += batch.logp[r];
    }
    assert!(starts > 10 && starts < batch.n, "{starts} chains in {} rows", batch.n);
    assert!(capped > 0, "some rows reach the cap");
}
