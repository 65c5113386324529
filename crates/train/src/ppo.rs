//! The PPO update, in the manner of CleanRL's `ppo.py`: clipped surrogate, (optionally clipped)
//! value loss, entropy bonus over legal actions only, global gradient-norm clipping, advantage
//! normalisation per minibatch and an optional KL early stop. Masks stored with the rollout are
//! re-applied, so illegal actions get no probability in the ratio or the entropy.

use crate::config::TrainConfig;
use crate::rollout::Batch;
use engine::NUM_ACTIONS;
use env::obs::OBS_LEN;
use policy::burn::optim::{GradientsParams, ModuleOptimizer};
use policy::burn::tensor::{Bool, Int, Tensor, TensorData};
use policy::{ActorCritic, Device, clip_grad_norm, entropy, log_prob, masked_logits};
use rand::RngExt;

/// Losses and diagnostics of one update, averaged over its minibatches (CleanRL's names).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UpdateStats {
    /// `losses/policy_loss`.
    pub policy_loss: f32,
    /// `losses/value_loss`.
    pub value_loss: f32,
    /// `losses/entropy`.
    pub entropy: f32,
    /// `losses/approx_kl` (the k3 estimator).
    pub approx_kl: f32,
    /// `losses/clipfrac`.
    pub clipfrac: f32,
    /// `losses/explained_variance` of the batch's returns by its values.
    pub explained_variance: f32,
    /// Minibatch steps taken.
    pub minibatches: usize,
    /// Whether the KL early stop fired.
    pub early_stopped: bool,
}

fn scalar(t: Tensor<1>) -> f32 {
    t.into_scalar::<f32>()
}

/// Runs `update_epochs` epochs of minibatch updates on `batch`, returning the new model.
pub fn update(
    cfg: &TrainConfig,
    mut model: ActorCritic,
    optim: &mut ModuleOptimizer,
    batch: &Batch,
    lr: f64,
    device: &Device,
    rng: &mut impl rand::Rng,
) -> (ActorCritic, UpdateStats) {
    let n = batch.n;
    let mut stats =
        UpdateStats { explained_variance: explained_variance(&batch.values, &batch.ret), ..Default::default() };
    if n == 0 {
        return (model, stats);
    }
    let mb_size = n.div_ceil(cfg.num_minibatches).max(1);
    let mut idx: Vec<usize> = (0..n).collect();
    let mut sums = [0.0f32; 5];
    'epochs: for _epoch in 0..cfg.update_epochs {
        for j in (1..n).rev() {
            let k = rng.random_range(0..=j);
            idx.swap(j, k);
        }
        for mb in idx.chunks(mb_size) {
            let m = mb.len();
            let mut obs = Vec::with_capacity(m * OBS_LEN);
            let mut masks = Vec::with_capacity(m * NUM_ACTIONS);
            let mut acts = Vec::with_capacity(m);
            let mut old_logp = Vec::with_capacity(m);
            let mut old_v = Vec::with_capacity(m);
            let mut adv = Vec::with_capacity(m);
            let mut ret = Vec::with_capacity(m);
            for &i in mb {
                obs.extend_from_slice(&batch.obs[i * OBS_LEN..(i + 1) * OBS_LEN]);
                masks.extend_from_slice(&batch.masks[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS]);
                acts.push(batch.actions[i]);
                old_logp.push(batch.logp[i]);
                old_v.push(batch.values[i]);
                adv.push(batch.adv[i]);
                ret.push(batch.ret[i]);
            }
            if cfg.norm_adv && m > 1 {
                let mean = adv.iter().sum::<f32>() / m as f32;
                let var = adv.iter().map(|a| (a - mean) * (a - mean)).sum::<f32>() / (m as f32 - 1.0);
                let std = var.sqrt() + 1e-8;
                for a in adv.iter_mut() {
                    *a = (*a - mean) / std;
                }
            }
            let t_obs = Tensor::<2>::from_data(TensorData::new(obs, [m, OBS_LEN]), device);
            let t_mask = Tensor::<2, Bool>::from_data(TensorData::new(masks, [m, NUM_ACTIONS]), device);
            let t_act = Tensor::<1, Int>::from_data(TensorData::new(acts, [m]), device);
            let t_old_logp = Tensor::<1>::from_data(TensorData::new(old_logp, [m]), device);
            let t_old_v = Tensor::<1>::from_data(TensorData::new(old_v, [m]), device);
            let t_adv = Tensor::<1>::from_data(TensorData::new(adv, [m]), device);
            let t_ret = Tensor::<1>::from_data(TensorData::new(ret, [m]), device);

            let (logits, value) = model.forward(t_obs);
            let lm = masked_logits(logits, t_mask.clone());
            let new_logp = log_prob(lm.clone(), t_act);
            let ent = entropy(lm, t_mask).mean();
            let logratio = new_logp - t_old_logp;
            let ratio = logratio.clone().exp();

            let approx_kl = scalar(((ratio.clone() - 1.0) - logratio.clone()).mean().detach());
            let clipfrac = scalar((ratio.clone() - 1.0).abs().greater_elem(cfg.clip_coef).float().mean().detach());

            let pg1 = t_adv.clone().neg() * ratio.clone();
            let pg2 = t_adv.neg() * ratio.clamp(1.0 - cfg.clip_coef, 1.0 + cfg.clip_coef);
            let pg_loss = pg1.max_pair(pg2).mean();
            let v_loss = if cfg.clip_vloss {
                let unclipped = (value.clone() - t_ret.clone()).powi_scalar(2);
                let clipped_v = t_old_v.clone() + (value - t_old_v).clamp(-cfg.clip_coef, cfg.clip_coef);
                let clipped = (clipped_v - t_ret).powi_scalar(2);
                unclipped.max_pair(clipped).mean() * 0.5
            } else {
                (value - t_ret).powi_scalar(2).mean() * 0.5
            };
            let loss = pg_loss.clone() - ent.clone() * cfg.ent_coef + v_loss.clone() * cfg.vf_coef;
            sums[0] += scalar(pg_loss.detach());
            sums[1] += scalar(v_loss.detach());
            sums[2] += scalar(ent.detach());
            sums[3] += approx_kl;
            sums[4] += clipfrac;
            stats.minibatches += 1;

            let grads = GradientsParams::from_grads(loss.backward(), &model);
            let (grads, _norm) = clip_grad_norm(&model, grads, cfg.max_grad_norm);
            model = optim.step(lr, model, grads);

            if cfg.target_kl.is_some_and(|target| approx_kl > target) {
                stats.early_stopped = true;
                break 'epochs;
            }
        }
    }
    let k = stats.minibatches.max(1) as f32;
    stats.policy_loss = sums[0] / k;
    stats.value_loss = sums[1] / k;
    stats.entropy = sums[2] / k;
    stats.approx_kl = sums[3] / k;
    stats.clipfrac = sums[4] / k;
    (model, stats)
}

/// 1 − Var(returns − values) / Var(returns): how much of the return the critic explains.
pub fn explained_variance(values: &[f32], returns: &[f32]) -> f32 {
    let n = returns.len();
    if n < 2 {
        return f32::NAN;
    }
    let var = |xs: &mut dyn Iterator<Item = f32>| {
        let v: Vec<f32> = xs.collect();
        let mean = v.iter().sum::<f32>() / v.len() as f32;
        v.iter().map(|x| (x - mean) * (x - mean)).sum::<f32>() / v.len() as f32
    };
    let var_y = var(&mut returns.iter().copied());
    if var_y == 0.0 {
        return f32::NAN;
    }
    1.0 - var(&mut returns.iter().zip(values).map(|(r, v)| r - v)) / var_y
}
