//! The KL early stop is checked once per epoch, as CleanRL's `ppo.py` does: an update that stops
//! early has run whole epochs of minibatches, never part of one.

use env::AgentRng;
use game::Game as _;
use games::kessel::Kessel;
use policy::burn::optim::AdamConfig;
use policy::{ActorCritic, PolicyConfig, cpu_training_device};
use rand::{RngExt, SeedableRng};
use train::TrainConfig;
use train::ppo::StepSettings;
use train::rollout::Batch;

fn config(target_kl: &str) -> TrainConfig<Kessel> {
    TrainConfig::<Kessel>::from_toml(&format!(
        r#"
        name = "kl"
        seed = 1
        players = 2
        num_envs = 4
        num_steps = 16
        num_minibatches = 4
        update_epochs = 3
        hidden = [16]
        {target_kl}
        "#
    ))
    .expect("valid config")
}

/// 64 rows of made-up observations with every action legal; the behaviour log-probabilities are
/// those of a uniform policy, so the first minibatch already moves away from them.
fn batch() -> Batch {
    let n = 64;
    let mut rng = AgentRng::seed_from_u64(3);
    let spec = Kessel::SPEC;
    let mut b = Batch { n, ..Batch::new(spec) };
    b.obs = (0..n * spec.obs_len).map(|_| rng.random::<f32>()).collect();
    b.masks = vec![true; n * spec.num_actions];
    b.actions = (0..n).map(|_| rng.random_range(0..spec.num_actions) as i64).collect();
    b.logp = vec![-(spec.num_actions as f32).ln(); n];
    b.values = vec![0.0; n];
    b.adv = (0..n).map(|_| rng.random::<f32>() - 0.5).collect();
    b.ret = b.adv.clone();
    b
}

fn minibatches_run(target_kl: &str) -> (u64, bool) {
    let cfg = config(target_kl);
    let device = cpu_training_device();
    let net = PolicyConfig::new(Kessel::SPEC.obs_len, Kessel::SPEC.num_actions).with_hidden(cfg.hidden.clone());
    let model = ActorCritic::new_seeded(&net, &device, 1).unwrap();
    let mut optim = AdamConfig::new().with_epsilon(1e-5).init();
    let (_, stats) = train::ppo::update(
        &cfg,
        model,
        &mut optim,
        &batch(),
        &device,
        &mut AgentRng::seed_from_u64(4),
        StepSettings::lr(1e-3),
    );
    (stats.minibatches as u64, stats.early_stopped)
}

#[test]
fn the_kl_stop_ends_an_update_only_at_an_epoch_boundary() {
    let _one_at_a_time = crate::common::serial();
    // A target no update can stay under: the stop comes after the first whole epoch.
    assert_eq!(minibatches_run("target_kl = 1e-9"), (4, true));
    // No target: all three epochs.
    assert_eq!(minibatches_run(""), (12, false));
}
