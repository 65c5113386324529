//! Masked categorical distribution over discrete actions.
//!
//! Illegal actions get the logit [`MASKED_LOGIT`] (a large finite negative number rather than
//! `-inf`, so `softmax`, `log_softmax` and their gradients stay free of NaN even for rows
//! where most actions are illegal). After masking, an illegal action's probability is exactly
//! `0.0` in `f32`.

use burn::tensor::activation::log_softmax;
use burn::tensor::{Bool, Int, Tensor};

/// Logit given to illegal actions by [`masked_logits`].
pub const MASKED_LOGIT: f32 = -1.0e9;

/// Replaces the logits of illegal actions (`mask == false`) with [`MASKED_LOGIT`].
///
/// `logits` and `mask` are `[batch, num_actions]`; `mask` is `true` where the action is legal.
/// Exists so every consumer (sampling, PPO loss, evaluation) masks the same way.
pub fn masked_logits(logits: Tensor<2>, mask: Tensor<2, Bool>) -> Tensor<2> {
    logits.mask_fill(mask.bool_not(), MASKED_LOGIT)
}

/// Log-probabilities of all actions, `[batch, num_actions]`, from masked logits.
pub fn log_probs(logits_masked: Tensor<2>) -> Tensor<2> {
    log_softmax(logits_masked, 1)
}

/// Log-probability of the taken `actions` (`[batch]`) under masked logits: the PPO ratio input.
pub fn log_prob(logits_masked: Tensor<2>, actions: Tensor<1, Int>) -> Tensor<1> {
    log_probs(logits_masked).gather(1, actions.unsqueeze_dim::<2>(1)).squeeze_dim::<1>(1)
}

/// Entropy of each row's distribution, `[batch]`, counting only legal actions.
///
/// Illegal actions contribute exactly zero (their `p * log p` terms are masked out), so there
/// is no `0 * -inf` NaN and no spurious contribution from the `-1e9` logits.
pub fn entropy(logits_masked: Tensor<2>, mask: Tensor<2, Bool>) -> Tensor<1> {
    let logp = log_probs(logits_masked);
    let p = logp.clone().exp();
    (p * logp).mask_fill(mask.bool_not(), 0.0).sum_dim(1).squeeze_dim::<1>(1).neg()
}

/// Samples an index from one row of probabilities by inverse CDF, given a uniform `u` in
/// `[0, 1)` drawn by the caller from its own seeded RNG.
///
/// Only indices with a strictly positive, finite probability can be returned, so an action
/// whose masked probability is `0.0` is never chosen, whatever `u` and rounding do. The row need
/// not sum exactly to one. Returns `None` if no entry is positive (e.g. no legal action).
pub fn sample(probs_row: &[f32], u: f32) -> Option<usize> {
    let ok = |p: f32| p.is_finite() && p > 0.0;
    let total: f64 = probs_row.iter().filter(|&&p| ok(p)).map(|&p| p as f64).sum();
    if total <= 0.0 {
        return None;
    }
    let target = (u.clamp(0.0, 1.0) as f64) * total;
    let mut cum = 0.0f64;
    let mut last = None;
    for (i, &p) in probs_row.iter().enumerate() {
        if !ok(p) {
            continue;
        }
        cum += p as f64;
        last = Some(i);
        if target < cum {
            return Some(i);
        }
    }
    // Rounding put `target` at or past the end: take the last eligible index.
    last
}

/// Like [`sample`], but also zeroes entries whose `mask` is false before sampling.
///
/// This is the belt-and-braces version used by inference: legality never depends on the
/// logit masking having produced exact zeros.
pub fn sample_masked(probs_row: &[f32], mask_row: &[bool], u: f32) -> Option<usize> {
    debug_assert_eq!(probs_row.len(), mask_row.len());
    let masked: Vec<f32> = probs_row.iter().zip(mask_row).map(|(&p, &m)| if m { p } else { 0.0 }).collect();
    sample(&masked, u)
}

/// Index of the most probable legal action of a row (ties → lowest index); `None` if no
/// action is legal.
pub fn argmax_masked(values_row: &[f32], mask_row: &[bool]) -> Option<usize> {
    let mut best: Option<(usize, f32)> = None;
    for (i, (&v, &m)) in values_row.iter().zip(mask_row).enumerate() {
        if !m || v.is_nan() {
            continue;
        }
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((i, v));
        }
    }
    best.map(|(i, _)| i)
}

/// Expands `u64` legal-action bitmasks (bit `a` set ⇔ action `a` legal) into a row-major
/// `bool` mask of `bits.len() * num_actions` entries.
///
/// Exists for environments that keep masks as bitsets (up to 64 actions).
///
/// # Panics
/// If `num_actions > 64`.
pub fn masks_from_bits(bits: &[u64], num_actions: usize) -> Vec<bool> {
    assert!(num_actions <= 64, "u64 bitmasks hold at most 64 actions");
    let mut out = Vec::with_capacity(bits.len() * num_actions);
    for &b in bits {
        out.extend((0..num_actions).map(|a| (b >> a) & 1 == 1));
    }
    out
}
