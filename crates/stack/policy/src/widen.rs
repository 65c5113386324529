//! Widening a trained network without changing what it computes: each hidden layer gets more
//! units, whose incoming weights are freshly initialised and whose outgoing weights start at
//! zero, so the wider network's logits and values equal the original's on every observation.
//!
//! Why: a policy that stops improving under more PPO and better distillation labels may be
//! held back by its size. A wider copy starts exactly where the trained network stands, so
//! training it measures what capacity adds, instead of first spending hours relearning the
//! policy from scratch. The new units learn from the first update: their outgoing weights'
//! gradients are their (non-zero) activations times the error signal.

use crate::config::{ConfigError, PolicyConfig};
use crate::model::ActorCritic;
use burn::module::Param;
use burn::nn::Linear;
use burn::tensor::{Device, Tensor, TensorData};

/// A widening that cannot keep the network's function.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WidenError {
    /// A different number of hidden layers.
    #[error("the network has {have} hidden layers and widening keeps the depth: give {have} widths, not {got}")]
    Depth {
        /// The network's hidden layers.
        have: usize,
        /// Widths given.
        got: usize,
    },
    /// A width below the network's.
    #[error("hidden width {new} at layer {index} is below the network's {old}: widening cannot drop units")]
    Narrower {
        /// The layer (0 = input side).
        index: usize,
        /// The network's width there.
        old: usize,
        /// The width asked for.
        new: usize,
    },
    /// The wider config is unusable.
    #[error(transparent)]
    Config(#[from] ConfigError),
}

/// The config `model`'s network would have with hidden widths `hidden`, or why widening to it
/// cannot keep the network's function.
pub fn widened_config(model: &PolicyConfig, hidden: &[usize]) -> Result<PolicyConfig, WidenError> {
    if hidden.len() != model.hidden.len() {
        return Err(WidenError::Depth { have: model.hidden.len(), got: hidden.len() });
    }
    for (index, (&old, &new)) in model.hidden.iter().zip(hidden).enumerate() {
        if new < old {
            return Err(WidenError::Narrower { index, old, new });
        }
    }
    let config = model.clone().with_hidden(hidden.to_vec());
    config.validate()?;
    Ok(config)
}

/// `model` with hidden widths `hidden` (same depth, each at least as wide), computing the same
/// logits and values; the new units' incoming weights come from the network initialiser
/// seeded with `seed`. Built on `device` (an autodiff device to train it).
pub fn widen(model: &ActorCritic, hidden: &[usize], device: &Device, seed: u64) -> Result<ActorCritic, WidenError> {
    let config = widened_config(model.config(), hidden)?;
    let mut wide = ActorCritic::new_seeded(&config, device, seed)?;
    wide.actor_trunk = embed_all(&model.actor_trunk, &wide.actor_trunk, device);
    wide.critic_trunk = embed_all(&model.critic_trunk, &wide.critic_trunk, device);
    wide.policy_head = embed(&model.policy_head, &wide.policy_head, device);
    wide.value_head = embed(&model.value_head, &wide.value_head, device);
    Ok(wide)
}

fn embed_all(old: &[Linear], fresh: &[Linear], device: &Device) -> Vec<Linear> {
    old.iter().zip(fresh).map(|(o, f)| embed(o, f, device)).collect()
}

fn values<const D: usize>(t: Tensor<D>) -> Vec<f32> {
    t.into_data().try_into_vec_as::<f32>().expect("f32 weights")
}

/// `old` inside the larger `fresh` layer (burn's weights are `[inputs, outputs]`): old inputs to
/// old outputs keep their weights; new inputs to old outputs get zero, so the old units compute
/// what they did; new outputs (new units) keep `fresh`'s weights and bias.
fn embed(old: &Linear, fresh: &Linear, device: &Device) -> Linear {
    let [i_old, o_old] = old.weight.val().dims();
    let [i_new, o_new] = fresh.weight.val().dims();
    let w_old = values(old.weight.val());
    let mut w = values(fresh.weight.val());
    for r in 0..i_new {
        for c in 0..o_old {
            w[r * o_new + c] = if r < i_old { w_old[r * o_old + c] } else { 0.0 };
        }
    }
    let mut b = match &fresh.bias {
        Some(bias) => values(bias.val()),
        None => vec![0.0; o_new],
    };
    if let Some(bias) = &old.bias {
        b[..o_old].copy_from_slice(&values(bias.val()));
    }
    let mut layer = fresh.clone();
    layer.weight = Param::from_tensor(Tensor::<2>::from_data(TensorData::new(w, [i_new, o_new]), device));
    layer.bias = Some(Param::from_tensor(Tensor::<1>::from_data(TensorData::new(b, [o_new]), device)));
    layer
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::cpu_device;
    use crate::config::Activation;

    fn outputs(model: &ActorCritic, obs: &[f32], n: usize, device: &Device) -> (Vec<f32>, Vec<f32>) {
        let d = model.config().obs_dim;
        let (logits, value) = model.forward(Tensor::<2>::from_data(TensorData::new(obs.to_vec(), [n, d]), device));
        (values(logits), values(value))
    }

    fn close(a: &[f32], b: &[f32]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1e-5 * (1.0 + x.abs()))
    }

    /// Deterministic pseudo-random observations in [-2, 2).
    fn observations(n: usize, d: usize, seed: u64) -> Vec<f32> {
        let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        (0..n * d)
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                (s >> 40) as f32 / (1u64 << 24) as f32 * 4.0 - 2.0
            })
            .collect()
    }

    #[test]
    fn widening_keeps_logits_and_values_for_every_trunk_shape() {
        let device = cpu_device();
        for (hidden, wider, shared, activation) in [
            (vec![16, 8], vec![32, 20], false, Activation::Relu),
            (vec![16, 8], vec![16, 9], true, Activation::Relu),
            (vec![12], vec![40], false, Activation::Tanh),
            (vec![10, 10, 10], vec![10, 30, 11], true, Activation::Tanh),
        ] {
            let mut config = PolicyConfig::new(23, 7).with_hidden(hidden.clone()).with_activation(activation);
            config.shared_trunk = shared;
            let model = ActorCritic::new_seeded(&config, &device, 3).unwrap();
            let wide = widen(&model, &wider, &device, 4).unwrap();
            assert_eq!(wide.config().hidden, wider);
            assert_eq!(wide.config().shared_trunk, shared);
            let obs = observations(64, 23, hidden.len() as u64);
            let (l0, v0) = outputs(&model, &obs, 64, &device);
            let (l1, v1) = outputs(&wide, &obs, 64, &device);
            assert!(close(&l0, &l1), "logits changed for {hidden:?} -> {wider:?}");
            assert!(close(&v0, &v1), "values changed for {hidden:?} -> {wider:?}");
        }
    }

    #[test]
    fn new_units_are_live_and_differ_by_seed() {
        // Fresh incoming weights: the new units fire, so training can use them at once.
        let device = cpu_device();
        let config = PolicyConfig::new(9, 4).with_hidden(vec![6]);
        let model = ActorCritic::new_seeded(&config, &device, 1).unwrap();
        let a = widen(&model, &[10], &device, 5).unwrap();
        let b = widen(&model, &[10], &device, 6).unwrap();
        let w = |m: &ActorCritic| values(m.actor_trunk[0].weight.val());
        let (wa, wb) = (w(&a), w(&b));
        let new_column = |w: &[f32], c: usize| (0..9).map(|r| w[r * 10 + c]).collect::<Vec<f32>>();
        assert!(new_column(&wa, 7).iter().any(|x| *x != 0.0));
        assert_ne!(new_column(&wa, 7), new_column(&wb, 7));
        // The old units' weights are the original's in both.
        let old = values(model.actor_trunk[0].weight.val());
        for r in 0..9 {
            for c in 0..6 {
                assert_eq!(wa[r * 10 + c], old[r * 6 + c]);
                assert_eq!(wb[r * 10 + c], old[r * 6 + c]);
            }
        }
    }

    #[test]
    fn narrower_or_deeper_is_refused_with_the_layer() {
        let config = PolicyConfig::new(5, 3).with_hidden(vec![8, 8]);
        assert_eq!(widened_config(&config, &[8, 4]).unwrap_err(), WidenError::Narrower { index: 1, old: 8, new: 4 });
        assert_eq!(widened_config(&config, &[8, 8, 8]).unwrap_err(), WidenError::Depth { have: 2, got: 3 });
        assert_eq!(widened_config(&config, &[8]).unwrap_err(), WidenError::Depth { have: 2, got: 1 });
        // The same widths are a copy, allowed.
        assert_eq!(widened_config(&config, &[8, 8]).unwrap().hidden, vec![8, 8]);
    }
}
