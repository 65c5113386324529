//! The PPO update, in the manner of CleanRL's `ppo.py`: clipped surrogate, (optionally clipped)
//! value loss, entropy bonus over legal actions only, global gradient-norm clipping, advantage
//! normalisation per minibatch and an optional KL early stop. Masks stored with the rollout are
//! re-applied, so illegal actions get no probability in the ratio or the entropy.

use crate::config::TrainConfig;
use crate::rollout::Batch;
use env::Game;
use policy::burn::optim::{GradientsParams, ModuleOptimizer};
use policy::burn::tensor::{Bool, Int, Tensor, TensorData};
use policy::{
    ActorCritic, Device, FirstLayers, SparseRows, clip_grad_norm, entropy, log_prob, log_probs, masked_logits,
};
use rand::RngExt;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

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
    /// `losses/magnet_kl`: the KL divergence of the policy from the magnet (`magnet_coef`; 0
    /// without one).
    pub magnet_kl: f32,
    /// `losses/explained_variance` of the batch's returns by its values.
    pub explained_variance: f32,
    /// Minibatch steps taken.
    pub minibatches: usize,
    /// Whether the KL early stop fired.
    pub early_stopped: bool,
    /// Where the update's wall time went, summed over its minibatch steps.
    pub time: StepTime,
}

/// Wall time of the phases of minibatch steps, in seconds (`time/update_*_seconds`): the
/// forward pass with the loss and its diagnostics, the backward pass, the gradient-norm clip,
/// the optimiser step. The CPU backend runs eagerly and the diagnostics read scalars back, so
/// each phase is finished when its clock stops.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepTime {
    /// Forward pass, losses and their scalar diagnostics.
    pub forward: f64,
    /// `loss.backward()` and collecting the gradients.
    pub backward: f64,
    /// Global gradient-norm clipping.
    pub clip: f64,
    /// The Adam step.
    pub optimizer: f64,
}

impl StepTime {
    fn add(&mut self, o: StepTime) {
        self.forward += o.forward;
        self.backward += o.backward;
        self.clip += o.clip;
        self.optimizer += o.optimizer;
    }
}

impl StepStats {
    /// The losses and diagnostics times `w` (times are kept).
    fn scaled(mut self, w: f32) -> StepStats {
        self.policy_loss *= w;
        self.value_loss *= w;
        self.entropy *= w;
        self.approx_kl *= w;
        self.clipfrac *= w;
        self.magnet_kl *= w;
        self
    }

    /// Adds `w` times `o`'s losses and diagnostics (times are kept).
    fn add_scaled(&mut self, o: &StepStats, w: f32) {
        let o = o.scaled(w);
        self.policy_loss += o.policy_loss;
        self.value_loss += o.value_loss;
        self.entropy += o.entropy;
        self.approx_kl += o.approx_kl;
        self.clipfrac += o.clipfrac;
        self.magnet_kl += o.magnet_kl;
    }
}

fn scalar(t: Tensor<1>) -> f32 {
    t.into_scalar::<f32>()
}

/// A whole batch as tensors on the training device, uploaded once per update; minibatches are
/// row selections on the device, so no epoch copies the batch from host memory again.
#[derive(Clone, Debug)]
pub struct BatchTensors {
    obs: Observations,
    /// Legal flags as 0/1 floats: selecting rows of a bool tensor is not supported by every
    /// backend (burn-flex 0.22 yields a bool tensor of the wrong storage), so the mask is
    /// selected as floats and compared back to bools per minibatch.
    mask: Tensor<2>,
    act: Tensor<1, Int>,
    old_logp: Tensor<1>,
    old_v: Tensor<1>,
    adv: Tensor<1>,
    ret: Tensor<1>,
    /// Per-row weights of the policy terms (`reach_weight`), if the batch has them.
    weight: Option<Tensor<1>>,
}

/// A minibatch's observations: on the device, or as their nonzeros on the host when the first
/// layer is computed from those (`sparse_input`; then the dense rows are never needed).
#[derive(Clone, Debug)]
enum Observations {
    Dense(Tensor<2>),
    Sparse(SparseRows),
}

impl Observations {
    fn select(&self, rows: &[usize], idx: &Tensor<1, Int>) -> Observations {
        match self {
            Observations::Dense(t) => Observations::Dense(t.clone().select(0, idx.clone())),
            Observations::Sparse(s) => Observations::Sparse(s.select(rows)),
        }
    }

    fn narrow(&self, start: usize, len: usize) -> Observations {
        match self {
            Observations::Dense(t) => Observations::Dense(t.clone().narrow(0, start, len)),
            Observations::Sparse(s) => Observations::Sparse(s.narrow(start, len)),
        }
    }

    /// `model`'s logits and values, and the first layers to finish the gradients with when the
    /// rows are sparse.
    fn forward(&self, model: &ActorCritic, device: &Device) -> (Tensor<2>, Tensor<1>, Option<FirstLayers>) {
        match self {
            Observations::Dense(t) => {
                let (logits, value) = model.forward(t.clone());
                (logits, value, None)
            }
            Observations::Sparse(rows) => {
                let (logits, value, first) = model.forward_sparse(rows, device);
                (logits, value, Some(first))
            }
        }
    }
}

impl BatchTensors {
    /// Uploads `batch` to `device`.
    pub fn upload(batch: &Batch, device: &Device) -> BatchTensors {
        let obs = Tensor::<2>::from_data(TensorData::new(batch.obs.clone(), [batch.n, batch.obs_len]), device);
        BatchTensors::with_observations(batch, device, Observations::Dense(obs))
    }

    /// Uploads `batch` as the config asks: with `sparse_input`, its observations are kept as
    /// their nonzeros on the host instead.
    pub fn upload_for<G: Game>(cfg: &TrainConfig<G>, batch: &Batch, device: &Device) -> BatchTensors {
        if !cfg.sparse_input {
            return BatchTensors::upload(batch, device);
        }
        let obs = Observations::Sparse(SparseRows::from_dense(&batch.obs, batch.obs_len));
        BatchTensors::with_observations(batch, device, obs)
    }

    /// `batch`'s other columns uploaded beside `obs`.
    fn with_observations(batch: &Batch, device: &Device, obs: Observations) -> BatchTensors {
        let (n, a) = (batch.n, batch.num_actions);
        let vec1 = |v: &[f32]| Tensor::<1>::from_data(TensorData::new(v.to_vec(), [n]), device);
        BatchTensors {
            obs,
            mask: Tensor::<2>::from_data(
                TensorData::new(batch.masks.iter().map(|&m| if m { 1.0f32 } else { 0.0 }).collect::<Vec<_>>(), [n, a]),
                device,
            ),
            act: Tensor::<1, Int>::from_data(TensorData::new(batch.actions.clone(), [n]), device),
            old_logp: vec1(&batch.logp),
            old_v: vec1(&batch.values),
            adv: vec1(&batch.adv),
            ret: vec1(&batch.ret),
            weight: (!batch.weights.is_empty()).then(|| vec1(&batch.weights)),
        }
    }

    /// The minibatch of `rows`, normalising its advantages within the minibatch when `norm_adv`
    /// (CleanRL's `norm_adv`: mean 0, unbiased standard deviation 1, plus 1e-8) and its weights,
    /// if any, to mean 1 (so that they shift effort between rows, not the step size).
    pub fn minibatch(&self, rows: &[usize], norm_adv: bool) -> Minibatch {
        let m = rows.len();
        let device = self.act.device();
        let idx: Vec<i64> = rows.iter().map(|&r| r as i64).collect();
        let idx = Tensor::<1, Int>::from_data(TensorData::new(idx, [m]), &device);
        let mut adv = self.adv.clone().select(0, idx.clone());
        if norm_adv && m > 1 {
            let mean = adv.clone().mean();
            let centred = adv - mean;
            let std = (centred.clone().powi_scalar(2).sum() / (m as f64 - 1.0)).sqrt() + 1e-8;
            adv = centred / std;
        }
        Minibatch {
            obs: self.obs.select(rows, &idx),
            mask: self.mask.clone().select(0, idx.clone()).greater_elem(0.5),
            act: self.act.clone().select(0, idx.clone()),
            old_logp: self.old_logp.clone().select(0, idx.clone()),
            old_v: self.old_v.clone().select(0, idx.clone()),
            adv,
            ret: self.ret.clone().select(0, idx.clone()),
            weight: self.weight.as_ref().map(|w| {
                let w = w.clone().select(0, idx);
                w.clone() / w.mean()
            }),
        }
    }
}

/// One minibatch as tensors, ready for [`step`].
#[derive(Clone, Debug)]
pub struct Minibatch {
    obs: Observations,
    mask: Tensor<2, Bool>,
    act: Tensor<1, Int>,
    old_logp: Tensor<1>,
    old_v: Tensor<1>,
    adv: Tensor<1>,
    ret: Tensor<1>,
    weight: Option<Tensor<1>>,
}

impl Minibatch {
    /// Gathers `rows` of `batch` onto `device` (one upload, then a selection: see
    /// [`BatchTensors`]), normalising the advantages within the minibatch when `norm_adv`.
    pub fn gather(batch: &Batch, rows: &[usize], norm_adv: bool, device: &Device) -> Minibatch {
        BatchTensors::upload(batch, device).minibatch(rows, norm_adv)
    }
}

/// Losses and diagnostics of one minibatch step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepStats {
    /// Clipped surrogate loss.
    pub policy_loss: f32,
    /// (Optionally clipped) value loss.
    pub value_loss: f32,
    /// Mean entropy over legal actions.
    pub entropy: f32,
    /// k3 estimate of the KL from the behaviour policy.
    pub approx_kl: f32,
    /// Share of ratios outside the clip range.
    pub clipfrac: f32,
    /// KL divergence of the policy from the magnet (0 without one).
    pub magnet_kl: f32,
    /// Wall time of the step's phases.
    pub time: StepTime,
}

impl Minibatch {
    /// Rows in the minibatch.
    fn rows(&self) -> usize {
        self.act.dims()[0]
    }

    /// Rows `start..start + len`.
    fn narrow(&self, start: usize, len: usize) -> Minibatch {
        Minibatch {
            obs: self.obs.narrow(start, len),
            mask: self.mask.clone().narrow(0, start, len),
            act: self.act.clone().narrow(0, start, len),
            old_logp: self.old_logp.clone().narrow(0, start, len),
            old_v: self.old_v.clone().narrow(0, start, len),
            adv: self.adv.clone().narrow(0, start, len),
            ret: self.ret.clone().narrow(0, start, len),
            weight: self.weight.as_ref().map(|w| w.clone().narrow(0, start, len)),
        }
    }
}

/// The PPO loss of `mb` (plus `magnet_coef` times the KL divergence from `magnet`) and its
/// diagnostics, each a mean over the rows; with row weights (`reach_weight`) the policy terms
/// (surrogate, entropy, magnet) are weighted means, so each row's regularisation keeps pace with
/// its surrogate.
fn loss<G: Game>(
    cfg: &TrainConfig<G>,
    model: &ActorCritic,
    mb: Minibatch,
    magnet: Option<&ActorCritic>,
) -> (Tensor<1>, StepStats, Option<FirstLayers>) {
    let device = mb.act.device();
    // KL(policy ‖ magnet) over the legal actions, the magnet held fixed.
    let magnet_logp = magnet.map(|m| log_probs(masked_logits(mb.obs.forward(m, &device).0, mb.mask.clone())).detach());
    let (logits, value, first) = mb.obs.forward(model, &device);
    let lm = masked_logits(logits, mb.mask.clone());
    let weighted_mean = |x: Tensor<1>| match &mb.weight {
        Some(w) => (x * w.clone()).mean(),
        None => x.mean(),
    };
    let magnet_kl = magnet_logp.map(|mlogp| {
        let logp = log_probs(lm.clone());
        weighted_mean(
            (logp.clone().exp() * (logp - mlogp)).mask_fill(mb.mask.clone().bool_not(), 0.0).sum_dim(1).squeeze_dim(1),
        )
    });
    let new_logp = log_prob(lm.clone(), mb.act);
    let ent = weighted_mean(entropy(lm, mb.mask));
    let logratio = new_logp - mb.old_logp;
    let ratio = logratio.clone().exp();

    let approx_kl = scalar(((ratio.clone() - 1.0) - logratio.clone()).mean().detach());
    let clipfrac = scalar((ratio.clone() - 1.0).abs().greater_elem(cfg.clip_coef).float().mean().detach());

    let pg1 = mb.adv.clone().neg() * ratio.clone();
    let pg2 = mb.adv.neg() * ratio.clamp(1.0 - cfg.clip_coef, 1.0 + cfg.clip_coef);
    let pg_loss = weighted_mean(pg1.max_pair(pg2));
    let v_loss = if cfg.clip_vloss {
        let unclipped = (value.clone() - mb.ret.clone()).powi_scalar(2);
        let clipped_v = mb.old_v.clone() + (value - mb.old_v).clamp(-cfg.clip_coef, cfg.clip_coef);
        let clipped = (clipped_v - mb.ret).powi_scalar(2);
        unclipped.max_pair(clipped).mean() * 0.5
    } else {
        (value - mb.ret).powi_scalar(2).mean() * 0.5
    };
    let mut loss = pg_loss.clone() - ent.clone() * cfg.ent_coef + v_loss.clone() * cfg.vf_coef;
    let mut magnet_kl_value = 0.0;
    if let Some(kl) = magnet_kl {
        magnet_kl_value = scalar(kl.clone().detach());
        loss = loss + kl * cfg.magnet_coef;
    }
    let stats = StepStats {
        policy_loss: scalar(pg_loss.detach()),
        value_loss: scalar(v_loss.detach()),
        entropy: scalar(ent.detach()),
        approx_kl,
        clipfrac,
        magnet_kl: magnet_kl_value,
        time: StepTime::default(),
    };
    (loss, stats, first)
}

/// The gradients of `mb`'s loss for `model`, with its diagnostics and the seconds of its
/// forward and backward passes.
fn gradients<G: Game>(
    cfg: &TrainConfig<G>,
    model: &ActorCritic,
    mb: Minibatch,
    magnet: Option<&ActorCritic>,
) -> (GradientsParams, StepStats) {
    let t_forward = Instant::now();
    let (loss, mut stats, first) = loss(cfg, model, mb, magnet);
    let t_backward = Instant::now();
    let mut backward = loss.backward();
    let mut grads = GradientsParams::from_module(&mut backward, model);
    if let Some(first) = first {
        first.gradients(&backward, &mut grads);
    }
    stats.time.forward = (t_backward - t_forward).as_secs_f64();
    stats.time.backward = t_backward.elapsed().as_secs_f64();
    (grads, stats)
}

/// What a minibatch step is told besides its rows: the learning rate of this update, the
/// policy the KL term pulls towards (`magnet_coef`, when there is one), and whether a rollout is
/// being played beside it (`actor_learner_overlap`; see [`step`]).
#[derive(Clone, Copy, Debug)]
pub struct StepSettings<'a> {
    /// The optimiser's learning rate for this update.
    pub lr: f64,
    /// The magnet policy of the KL term.
    pub magnet: Option<&'a ActorCritic>,
    /// Set while a rollout is played beside the step; cleared once it has finished.
    pub rollout: Option<&'a AtomicBool>,
}

impl StepSettings<'_> {
    /// A step at this learning rate, with no magnet and nothing played beside it.
    pub fn lr(lr: f64) -> StepSettings<'static> {
        StepSettings { lr, magnet: None, rollout: None }
    }
}

/// One PPO gradient step on a minibatch: forward, clipped loss (plus `magnet_coef` times the
/// KL divergence from the settings' magnet, when there is one), backward, global gradient-norm
/// clip and an optimiser step at the settings' learning rate. With `learner_threads` above 1 the rows are split
/// into that many shares, worked on rayon's pool, each differentiated on a network of its own
/// ([`policy::independent_copy`]), and the gradients and diagnostics are averaged weighted by
/// rows, as one pass over the whole minibatch would have them; the forward and backward times
/// are then the first share's.
///
/// The settings' `rollout` is set while a rollout is being played beside this step
/// (`actor_learner_overlap`):
/// the shares are then differentiated one after the other on this thread, leaving the other core
/// to the rollout, and spread over the threads once it has finished. Each share is worked out
/// the same way wherever it runs, so the step is the same either way.
pub fn step<G: Game>(
    cfg: &TrainConfig<G>,
    model: ActorCritic,
    optim: &mut ModuleOptimizer,
    mb: &Minibatch,
    settings: StepSettings<'_>,
) -> (ActorCritic, StepStats) {
    let StepSettings { lr, magnet, rollout } = settings;
    let rows = mb.rows();
    let threads = cfg.learner_threads.clamp(1, rows.max(1));
    let (grads, mut stats) = if threads == 1 {
        gradients(cfg, &model, mb.clone(), magnet)
    } else {
        // Shares of rows: the first `rows % threads` take one more.
        let bounds: Vec<(usize, usize)> = (0..threads)
            .scan(0, |start, t| {
                let len = rows / threads + usize::from(t < rows % threads);
                let s = *start;
                *start += len;
                Some((s, len))
            })
            .collect();
        let copies: Vec<(ActorCritic, Option<ActorCritic>)> =
            (1..threads).map(|_| (policy::independent_copy(&model), magnet.map(policy::independent_copy))).collect();
        let share = |(m, g): &(ActorCritic, Option<ActorCritic>), &(s, len): &(usize, usize)| {
            gradients(cfg, m, mb.narrow(s, len), g.as_ref())
        };
        let first_share = || gradients(cfg, &model, mb.narrow(bounds[0].0, bounds[0].1), magnet);
        let (first, others) = if rollout.is_some_and(|r| r.load(Ordering::Acquire)) {
            let first = first_share();
            let others: Vec<(GradientsParams, StepStats)> =
                copies.iter().zip(&bounds[1..]).map(|(c, b)| share(c, b)).collect();
            (first, others)
        } else {
            // On rayon's pool, whose threads outlive the step (and keep their allocator's warm
            // memory), rather than on threads started for it.
            rayon::join(first_share, || copies.par_iter().zip(&bounds[1..]).map(|(c, b)| share(c, b)).collect())
        };
        let w = |len: usize| len as f32 / rows as f32;
        let (mut grads, s0) = first;
        let mut stats = s0.scaled(w(bounds[0].1));
        for (i, (((g, s), (copy, _)), &(_, len))) in others.into_iter().zip(&copies).zip(&bounds[1..]).enumerate() {
            // The first share's gradients take their weight in the first combination.
            let wa = if i == 0 { w(bounds[0].1) } else { 1.0 };
            grads = policy::combine_grads(&model, grads, wa, copy, g, w(len));
            stats.add_scaled(&s, w(len));
        }
        (grads, stats)
    };
    let t_clip = Instant::now();
    let (grads, _norm) = clip_grad_norm(&model, grads, cfg.max_grad_norm);
    let t_optimizer = Instant::now();
    stats.time.clip = (t_optimizer - t_clip).as_secs_f64();
    let model = optim.step(lr, model, grads);
    stats.time.optimizer = t_optimizer.elapsed().as_secs_f64();
    (model, stats)
}

/// Runs `update_epochs` epochs of minibatch updates on `batch`, returning the new model; every
/// minibatch step gets the same `settings` (see [`StepSettings`] and [`step`]).
pub fn update<G: Game>(
    cfg: &TrainConfig<G>,
    mut model: ActorCritic,
    optim: &mut ModuleOptimizer,
    batch: &Batch,
    device: &Device,
    rng: &mut impl rand::Rng,
    settings: StepSettings<'_>,
) -> (ActorCritic, UpdateStats) {
    let n = batch.n;
    let mut stats =
        UpdateStats { explained_variance: explained_variance(&batch.values, &batch.ret), ..Default::default() };
    if n == 0 {
        return (model, stats);
    }
    let mb_size = n.div_ceil(cfg.num_minibatches).max(1);
    let mut idx: Vec<usize> = (0..n).collect();
    let mut sums = [0.0f32; 6];
    let mut last_kl = 0.0f32;
    let tensors = BatchTensors::upload_for(cfg, batch, device);
    'epochs: for _epoch in 0..cfg.update_epochs {
        for j in (1..n).rev() {
            let k = rng.random_range(0..=j);
            idx.swap(j, k);
        }
        for rows in idx.chunks(mb_size) {
            let mb = tensors.minibatch(rows, cfg.norm_adv);
            let (m, s) = step(cfg, model, optim, &mb, settings);
            model = m;
            sums[0] += s.policy_loss;
            sums[1] += s.value_loss;
            sums[2] += s.entropy;
            sums[3] += s.approx_kl;
            sums[4] += s.clipfrac;
            sums[5] += s.magnet_kl;
            stats.time.add(s.time);
            stats.minibatches += 1;
            last_kl = s.approx_kl;
        }
        // As CleanRL's `ppo.py`: the KL stop is checked once per epoch, on the epoch's last
        // minibatch, so an epoch once begun always sees all of the batch.
        if cfg.target_kl.is_some_and(|target| last_kl > target) {
            stats.early_stopped = true;
            break 'epochs;
        }
    }
    let k = stats.minibatches.max(1) as f32;
    stats.policy_loss = sums[0] / k;
    stats.value_loss = sums[1] / k;
    stats.entropy = sums[2] / k;
    stats.approx_kl = sums[3] / k;
    stats.clipfrac = sums[4] / k;
    stats.magnet_kl = sums[5] / k;
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
