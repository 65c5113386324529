//! The PPO losses of one minibatch step against the same quantities computed by hand, in f64,
//! from the network's own log-probabilities and values: the clipped surrogate, the (clipped)
//! value loss, the entropy over legal actions, the k3 KL estimate and the clip fraction, with
//! advantages normalised within the minibatch (CleanRL's `ppo.py` formulas); with row weights
//! (`reach_weight`), the policy terms as weighted means.

use env::AgentRng;
use game::Game as _;
use games::kessel::Kessel;
use policy::burn::optim::AdamConfig;
use policy::{ActorCritic, Policy, PolicyConfig, cpu_training_device};
use rand::{RngExt, SeedableRng};
use train::TrainConfig;
use train::ppo::{BatchTensors, Minibatch, StepSettings, StepStats, step};
use train::rollout::Batch;

const ROWS: usize = 12;

fn config(clip_vloss: bool) -> TrainConfig<Kessel> {
    TrainConfig::<Kessel>::from_toml(&format!(
        r#"
        name = "loss"
        seed = 1
        players = 2
        num_envs = 4
        num_steps = 16
        hidden = [8]
        clip_coef = 0.2
        clip_vloss = {clip_vloss}
        norm_adv = true
        ent_coef = 0.01
        vf_coef = 0.5
        "#
    ))
    .expect("valid config")
}

/// Rows with random observations, random masks (the taken action always legal), and behaviour
/// log-probabilities and values shifted from the network's so that some ratios fall outside
/// the clip range and some value predictions move more than the clip.
fn batch(model: &ActorCritic) -> Batch {
    let spec = Kessel::SPEC;
    let (d, a) = (spec.obs_len, spec.num_actions);
    let mut rng = AgentRng::seed_from_u64(11);
    let mut b = Batch { n: ROWS, ..Batch::new(spec) };
    b.obs = (0..ROWS * d).map(|_| rng.random::<f32>()).collect();
    for _ in 0..ROWS {
        let act = rng.random_range(0..a);
        for k in 0..a {
            b.masks.push(k == act || rng.random::<f32>() < 0.3);
        }
        b.actions.push(act as i64);
    }
    let policy = Policy::new(model, &cpu_training_device());
    let (logp, values) = policy.log_probs_and_values(&b.obs, &b.masks, ROWS).unwrap();
    for r in 0..ROWS {
        let taken = logp[r * a + b.actions[r] as usize];
        b.logp.push(taken + (rng.random::<f32>() - 0.5) * 0.8);
        b.values.push(values[r] + (rng.random::<f32>() - 0.5));
        b.adv.push(rng.random::<f32>() * 2.0 - 1.0);
        b.ret.push(rng.random::<f32>() * 2.0 - 1.0);
    }
    b
}

/// The losses by hand, from the network's outputs on the batch.
fn by_hand(cfg: &TrainConfig<Kessel>, model: &ActorCritic, b: &Batch, magnet: Option<&ActorCritic>) -> StepStats {
    let a = b.num_actions;
    let policy = Policy::new(model, &cpu_training_device());
    let (logp, values) = policy.log_probs_and_values(&b.obs, &b.masks, b.n).unwrap();
    let magnet_logp =
        magnet.map(|m| Policy::new(m, &cpu_training_device()).log_probs_and_values(&b.obs, &b.masks, b.n).unwrap().0);
    let mut magnet_kl = 0.0;
    let n = b.n as f64;
    let mean = b.adv.iter().map(|&x| x as f64).sum::<f64>() / n;
    let std = (b.adv.iter().map(|&x| (x as f64 - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt() + 1e-8;
    let c = cfg.clip_coef as f64;
    // Row weights normalised to mean 1; every row weighs 1 without them.
    let weights: Vec<f64> = if b.weights.is_empty() {
        vec![1.0; b.n]
    } else {
        let mean = b.weights.iter().map(|&w| w as f64).sum::<f64>() / n;
        b.weights.iter().map(|&w| w as f64 / mean).collect()
    };
    let (mut pg, mut vl, mut ent, mut kl, mut clipped) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for r in 0..b.n {
        let adv = (b.adv[r] as f64 - mean) / std;
        let new = logp[r * a + b.actions[r] as usize] as f64;
        let logratio = new - b.logp[r] as f64;
        let ratio = logratio.exp();
        let w = weights[r];
        pg += w * (-adv * ratio).max(-adv * ratio.clamp(1.0 - c, 1.0 + c));
        kl += (ratio - 1.0) - logratio;
        clipped += if (ratio - 1.0).abs() > c { 1.0 } else { 0.0 };
        let (v, ret, old) = (values[r] as f64, b.ret[r] as f64, b.values[r] as f64);
        vl += if cfg.clip_vloss {
            let v_clipped = old + (v - old).clamp(-c, c);
            (v - ret).powi(2).max((v_clipped - ret).powi(2)) * 0.5
        } else {
            (v - ret).powi(2) * 0.5
        };
        ent -= w
            * (0..a)
                .filter(|&k| b.masks[r * a + k])
                .map(|k| {
                    let l = logp[r * a + k] as f64;
                    l.exp() * l
                })
                .sum::<f64>();
        if let Some(m) = &magnet_logp {
            magnet_kl += w
                * (0..a)
                    .filter(|&k| b.masks[r * a + k])
                    .map(|k| {
                        let l = logp[r * a + k] as f64;
                        l.exp() * (l - m[r * a + k] as f64)
                    })
                    .sum::<f64>();
        }
    }
    StepStats {
        policy_loss: (pg / n) as f32,
        value_loss: (vl / n) as f32,
        entropy: (ent / n) as f32,
        approx_kl: (kl / n) as f32,
        clipfrac: (clipped / n) as f32,
        magnet_kl: (magnet_kl / n) as f32,
        // Wall times are measured, not computed: the hand computation has none.
        ..Default::default()
    }
}

fn check(clip_vloss: bool) {
    check_with(clip_vloss, false, 1, false);
}

/// The step's losses against the hand computation; with `magnet`, a second network as the
/// magnet (`magnet_coef`), whose KL term the step must report as the hand computes it; the
/// minibatch differentiated by `threads` learner threads; with `weighted`, rows weighted from
/// 0.5 to 50 (`reach_weight`).
fn check_with(clip_vloss: bool, magnet: bool, threads: usize, weighted: bool) {
    let cfg = TrainConfig::<Kessel> { learner_threads: threads, ..config(clip_vloss) };
    let device = cpu_training_device();
    let net = PolicyConfig::new(Kessel::SPEC.obs_len, Kessel::SPEC.num_actions).with_hidden(cfg.hidden.clone());
    let model = ActorCritic::new_seeded(&net, &device, 3).unwrap();
    let mut b = batch(&model);
    if weighted {
        b.weights = (0..b.n).map(|r| [0.5, 1.0, 7.0, 50.0][r % 4]).collect();
    }
    let rows: Vec<usize> = (0..b.n).collect();
    let mb = Minibatch::gather(&b, &rows, cfg.norm_adv, &device);
    // A magnet well away from the model: a network initialises near uniform play, so the model
    // taken a few large steps along this very batch.
    let magnet = magnet.then(|| {
        let mut optim = AdamConfig::new().init();
        (0..5).fold(ActorCritic::new_seeded(&net, &device, 3).unwrap(), |m, _| {
            step(&cfg, m, &mut optim, &mb, StepSettings::lr(0.05)).0
        })
    });
    let cfg = TrainConfig::<Kessel> { magnet_coef: if magnet.is_some() { 0.5 } else { 0.0 }, ..cfg };
    let want = by_hand(&cfg, &model, &b, magnet.as_ref());
    // The batch must exercise both sides of the clip, or the test would not check it.
    assert!(want.clipfrac > 0.0 && want.clipfrac < 1.0, "clip fraction {}", want.clipfrac);
    let mut optim = AdamConfig::new().with_epsilon(1e-5).init();
    let (_, got) =
        step(&cfg, model, &mut optim, &mb, StepSettings { magnet: magnet.as_ref(), ..StepSettings::lr(1e-3) });
    let close = |x: f32, y: f32| (x - y).abs() <= 1e-4 * (1.0 + y.abs());
    assert!(close(got.policy_loss, want.policy_loss), "policy loss {} vs {}", got.policy_loss, want.policy_loss);
    assert!(close(got.value_loss, want.value_loss), "value loss {} vs {}", got.value_loss, want.value_loss);
    assert!(close(got.entropy, want.entropy), "entropy {} vs {}", got.entropy, want.entropy);
    assert!(close(got.approx_kl, want.approx_kl), "approx kl {} vs {}", got.approx_kl, want.approx_kl);
    assert!(close(got.clipfrac, want.clipfrac), "clipfrac {} vs {}", got.clipfrac, want.clipfrac);
    assert!(close(got.magnet_kl, want.magnet_kl), "magnet kl {} vs {}", got.magnet_kl, want.magnet_kl);
    if magnet.is_some() {
        assert!(want.magnet_kl > 0.01, "the magnet should be well away from the model: {}", want.magnet_kl);
    }
}

#[test]
fn the_magnet_kl_matches_a_hand_computation() {
    let _one_at_a_time = crate::common::serial();
    check_with(true, true, 1, false);
}

#[test]
fn weighted_rows_weigh_the_policy_terms_as_a_hand_computation_does() {
    let _one_at_a_time = crate::common::serial();
    for threads in [1, 2] {
        check_with(true, true, threads, true);
    }
    // The weights must matter, or agreeing would prove nothing.
    let cfg = config(true);
    let device = cpu_training_device();
    let net = PolicyConfig::new(Kessel::SPEC.obs_len, Kessel::SPEC.num_actions).with_hidden(cfg.hidden.clone());
    let model = ActorCritic::new_seeded(&net, &device, 3).unwrap();
    let mut b = batch(&model);
    let plain = by_hand(&cfg, &model, &b, None);
    b.weights = (0..b.n).map(|r| [0.5, 1.0, 7.0, 50.0][r % 4]).collect();
    let weighted = by_hand(&cfg, &model, &b, None);
    assert!((plain.policy_loss - weighted.policy_loss).abs() > 1e-3, "{plain:?} against {weighted:?}");
    assert_eq!(plain.value_loss, weighted.value_loss, "the value loss is not weighted");
}

#[test]
fn learner_threads_share_the_rows_and_report_the_whole_minibatchs_losses() {
    let _one_at_a_time = crate::common::serial();
    // 12 rows over 2 threads (6 + 6) and over 5 (3 + 3 + 2 + 2 + 2), with and without a magnet.
    for threads in [2, 5] {
        check_with(true, false, threads, false);
        check_with(false, true, threads, false);
    }
}

/// A batch, its whole as one minibatch, and a network to step from, for comparing steps.
fn one_minibatch(cfg: &TrainConfig<Kessel>) -> (policy::Device, Batch, Minibatch, ActorCritic) {
    let device = cpu_training_device();
    let net = PolicyConfig::new(Kessel::SPEC.obs_len, Kessel::SPEC.num_actions).with_hidden(cfg.hidden.clone());
    let b = batch(&ActorCritic::new_seeded(&net, &device, 3).unwrap());
    let rows: Vec<usize> = (0..b.n).collect();
    let mb = Minibatch::gather(&b, &rows, cfg.norm_adv, &device);
    // A new network's parameters take their random values when first touched, in that order;
    // reading it once (as the trainer's first rollout does) fixes them before any step.
    // One network, read once and cloned for every run: two networks built from one seed can
    // differ when another test draws from the device's generator between seeding and first use.
    let base = ActorCritic::new_seeded(&net, &device, 3).unwrap();
    let _ = Policy::new(&base, &device);
    (device, b, mb, base)
}

/// One step with the rows split between `threads` threads moves the network as one thread's step
/// does: the same gradient, grouped differently in floating point.
#[test]
fn a_step_on_several_learner_threads_moves_the_network_as_one_thread_does() {
    let _one_at_a_time = crate::common::serial();
    let cfg = config(true);
    let (device, b, mb, base) = one_minibatch(&cfg);
    let fresh = || base.clone();
    let after = |threads: usize| {
        let cfg = TrainConfig::<Kessel> { learner_threads: threads, ..cfg.clone() };
        let mut optim = AdamConfig::new().with_epsilon(1e-5).init();
        let model = (0..3).fold(fresh(), |m, _| step(&cfg, m, &mut optim, &mb, StepSettings::lr(1e-2)).0);
        Policy::new(&model, &device).log_probs_and_values(&b.obs, &b.masks, b.n).unwrap()
    };
    let (before, _) = Policy::new(&fresh(), &device).log_probs_and_values(&b.obs, &b.masks, b.n).unwrap();
    let (one, v1) = after(1);
    // The steps must move the policy, or agreeing would prove nothing.
    let moved = one.iter().zip(&before).filter(|(x, y)| x.is_finite() && (*x - *y).abs() > 1e-3).count();
    assert!(moved > 10, "{moved} log-probabilities moved");
    for threads in [2, 3] {
        let (got, v) = after(threads);
        for (x, y) in got.iter().zip(&one).chain(v.iter().zip(&v1)) {
            assert!(
                (x - y).abs() <= 1e-4 * (1.0 + y.abs()) || (x.is_infinite() && y.is_infinite()),
                "{threads} threads: {x} vs {y}"
            );
        }
    }
}

/// With `sparse_input` the first layers are computed from the observations' nonzeros: the steps
/// move the network as the dense steps do, up to the order floats are summed in, on one learner
/// thread or two, with a magnet (whose forward pass is then sparse too) and without.
#[test]
fn steps_from_sparse_rows_move_the_network_as_dense_steps_do() {
    let _one_at_a_time = crate::common::serial();
    let cfg = config(true);
    let (device, mut b, _, base) = one_minibatch(&cfg);
    // Mostly zeros, as observations are.
    for (i, x) in b.obs.iter_mut().enumerate() {
        if (i * 7919) % 10 != 0 {
            *x = 0.0;
        }
    }
    let rows: Vec<usize> = (0..b.n).collect();
    let net = PolicyConfig::new(Kessel::SPEC.obs_len, Kessel::SPEC.num_actions).with_hidden(cfg.hidden.clone());
    let magnet = ActorCritic::new_seeded(&net, &device, 9).unwrap();
    let after = |sparse: bool, threads: usize, magnet: Option<&ActorCritic>| {
        let cfg = TrainConfig::<Kessel> {
            sparse_input: sparse,
            learner_threads: threads,
            magnet_coef: if magnet.is_some() { 0.5 } else { 0.0 },
            ..cfg.clone()
        };
        let mb = BatchTensors::upload_for(&cfg, &b, &device).minibatch(&rows, cfg.norm_adv);
        let mut optim = AdamConfig::new().with_epsilon(1e-5).init();
        let (model, stats) = (0..3).fold((base.clone(), None), |(m, _), _| {
            let (m, s) = step(&cfg, m, &mut optim, &mb, StepSettings { magnet, ..StepSettings::lr(1e-2) });
            (m, Some(s))
        });
        let (p, v) = Policy::new(&model, &device).log_probs_and_values(&b.obs, &b.masks, b.n).unwrap();
        (p, v, stats.unwrap())
    };
    let (before, _) = Policy::new(&base, &device).log_probs_and_values(&b.obs, &b.masks, b.n).unwrap();
    for (magnet, threads) in [(None, 1), (None, 2), (Some(&magnet), 1)] {
        let dense = after(false, 1, magnet);
        let moved = dense.0.iter().zip(&before).filter(|(x, y)| x.is_finite() && (*x - *y).abs() > 1e-3).count();
        assert!(moved > 10, "{moved} log-probabilities moved");
        let sparse = after(true, threads, magnet);
        for (x, y) in sparse.0.iter().zip(&dense.0).chain(sparse.1.iter().zip(&dense.1)) {
            assert!(
                (x - y).abs() <= 1e-4 * (1.0 + y.abs()) || (x.is_infinite() && y.is_infinite()),
                "{threads} threads: {x} against {y}"
            );
        }
        let close = |x: f32, y: f32| (x - y).abs() <= 1e-4 * (1.0 + y.abs());
        assert!(close(sparse.2.policy_loss, dense.2.policy_loss) && close(sparse.2.value_loss, dense.2.value_loss));
        assert!(close(sparse.2.magnet_kl, dense.2.magnet_kl), "{} against {}", sparse.2.magnet_kl, dense.2.magnet_kl);
        if magnet.is_some() {
            assert!(dense.2.magnet_kl > 1e-4, "the magnet must pull: {}", dense.2.magnet_kl);
        }
    }
}

/// While a rollout is played beside the update the learner works its shares one after the other
/// on one thread, and spreads them over its threads once the rollout is done: the network must
/// move the same, to the bit, either way, or a run's course would hang on the machine's timing.
#[test]
fn a_step_beside_a_rollout_is_the_step_spread_over_threads_to_the_bit() {
    let _one_at_a_time = crate::common::serial();
    let cfg = TrainConfig::<Kessel> { learner_threads: 2, ..config(true) };
    let (device, b, mb, base) = one_minibatch(&cfg);
    let after = |rollout_running: Option<bool>| {
        let flag = rollout_running.map(std::sync::atomic::AtomicBool::new);
        let mut optim = AdamConfig::new().with_epsilon(1e-5).init();
        let (model, stats) = (0..3).fold((base.clone(), None), |(m, _), _| {
            let (m, s) =
                step(&cfg, m, &mut optim, &mb, StepSettings { rollout: flag.as_ref(), ..StepSettings::lr(1e-2) });
            (m, Some(s))
        });
        let stats = stats.unwrap();
        let (p, v) = Policy::new(&model, &device).log_probs_and_values(&b.obs, &b.masks, b.n).unwrap();
        (p, v, [stats.policy_loss, stats.value_loss, stats.entropy, stats.approx_kl])
    };
    let spread = after(None);
    let (before, _) = Policy::new(&base, &device).log_probs_and_values(&b.obs, &b.masks, b.n).unwrap();
    let moved = spread.0.iter().zip(&before).filter(|(x, y)| x.is_finite() && (*x - *y).abs() > 1e-3).count();
    assert!(moved > 10, "{moved} log-probabilities moved");
    for running in [true, false] {
        let got = after(Some(running));
        let bits = |xs: &[f32]| xs.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&got.0), bits(&spread.0), "log-probabilities, rollout running: {running}");
        assert_eq!(bits(&got.1), bits(&spread.1), "values, rollout running: {running}");
        assert_eq!(bits(&got.2), bits(&spread.2), "losses, rollout running: {running}");
    }
}

#[test]
fn minibatch_losses_match_a_hand_computation_with_clipped_values() {
    let _one_at_a_time = crate::common::serial();
    check(true);
}

#[test]
fn minibatch_losses_match_a_hand_computation_with_plain_values() {
    let _one_at_a_time = crate::common::serial();
    check(false);
}
