//! The actor-critic network.

use burn::module::Module;
use burn::nn::{Initializer, Linear, LinearConfig};
use burn::tensor::activation::{relu, tanh};
use burn::tensor::{Device, Tensor};

use crate::config::{Activation, ConfigError, PolicyConfig};

/// Actor-critic MLP: observation batch in, action logits and state values out.
///
/// Two trunks (actor and critic, as in CleanRL's PPO) unless the config asks for a shared one.
/// Weights use CleanRL's orthogonal initialisation: gain sqrt(2) for hidden layers, 0.01 for
/// the policy head (near-uniform initial policy), 1.0 for the value head; biases are zero.
///
/// The module is not generic: in burn 0.22 the backend (and whether autodiff is on) is a
/// property of the [`Device`] the module is created on or moved to.
#[derive(Module, Debug)]
pub struct ActorCritic {
    pub(crate) actor_trunk: Vec<Linear>,
    /// Empty when the trunk is shared.
    pub(crate) critic_trunk: Vec<Linear>,
    pub(crate) policy_head: Linear,
    pub(crate) value_head: Linear,
    #[module(skip)]
    config: PolicyConfig,
}

fn orthogonal_linear(d_in: usize, d_out: usize, gain: f64, device: &Device) -> Linear {
    let mut layer = LinearConfig::new(d_in, d_out).with_initializer(Initializer::Orthogonal { gain }).init(device);
    // The orthogonal initializer needs rank >= 2, so the bias gets its own (zero) init.
    layer.bias = Some(Initializer::Zeros.init([d_out], device));
    // burn draws a parameter's values from the device's generator when it is first read. Read
    // the weights now, while the caller holds `INIT_LOCK` (with the generator seeded, under
    // `new_seeded`): their values then depend on the seed and the layer's place alone, not on
    // which use of the network, or which other thread, happens to touch it first.
    let _ = layer.weight.val();
    layer
}

fn trunk(config: &PolicyConfig, device: &Device) -> Vec<Linear> {
    let gain = std::f64::consts::SQRT_2;
    let mut d_in = config.obs_dim;
    config
        .hidden
        .iter()
        .map(|&h| {
            let layer = orthogonal_linear(d_in, h, gain, device);
            d_in = h;
            layer
        })
        .collect()
}

/// Serialises every use of burn's process-wide initialisation generator.
static INIT_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());

impl ActorCritic {
    /// Builds a freshly initialised network on `device` (use an autodiff device to train).
    ///
    /// For reproducible weights use [`ActorCritic::new_seeded`]: burn's initialiser draws from a
    /// process-wide generator, which concurrent constructions would otherwise share.
    pub fn new(config: &PolicyConfig, device: &Device) -> Result<Self, ConfigError> {
        let _guard = INIT_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        Self::build(config, device)
    }

    /// Seeds burn's generator and builds the network while holding the initialisation lock, so
    /// the weights depend on `seed` alone, whatever other threads are doing.
    pub fn new_seeded(config: &PolicyConfig, device: &Device, seed: u64) -> Result<Self, ConfigError> {
        let _guard = INIT_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        device.seed(seed);
        Self::build(config, device)
    }

    fn build(config: &PolicyConfig, device: &Device) -> Result<Self, ConfigError> {
        config.validate()?;
        let last = *config.hidden.last().expect("validated non-empty");
        Ok(Self {
            actor_trunk: trunk(config, device),
            critic_trunk: if config.shared_trunk { Vec::new() } else { trunk(config, device) },
            policy_head: orthogonal_linear(last, config.num_actions, 0.01, device),
            value_head: orthogonal_linear(last, 1, 1.0, device),
            config: config.clone(),
        })
    }

    /// The config this network was built from (saved in checkpoints).
    pub fn config(&self) -> &PolicyConfig {
        &self.config
    }

    fn run_trunk(&self, layers: &[Linear], mut x: Tensor<2>) -> Tensor<2> {
        for layer in layers {
            x = self.activate(layer.forward(x));
        }
        x
    }

    /// The trunk `layers` from its first layer's output `first` on.
    pub(crate) fn run_trunk_from(&self, layers: &[Linear], first: Tensor<2>) -> Tensor<2> {
        self.run_trunk(&layers[1..], self.activate(first))
    }

    fn activate(&self, x: Tensor<2>) -> Tensor<2> {
        match self.config.activation {
            Activation::Relu => relu(x),
            Activation::Tanh => tanh(x),
        }
    }

    /// Forward pass: `obs` `[batch, obs_dim]` → (logits `[batch, num_actions]`, values `[batch]`).
    ///
    /// Logits are unmasked; apply [`crate::masked_logits`] before any distribution math.
    pub fn forward(&self, obs: Tensor<2>) -> (Tensor<2>, Tensor<1>) {
        if self.config.shared_trunk {
            let h = self.run_trunk(&self.actor_trunk, obs);
            let logits = self.policy_head.forward(h.clone());
            let value = self.value_head.forward(h).squeeze_dim::<1>(1);
            (logits, value)
        } else {
            let logits = self.logits(obs.clone());
            let value = self.value(obs);
            (logits, value)
        }
    }

    /// Policy logits only, `[batch, num_actions]` (skips the critic trunk when separate).
    pub fn logits(&self, obs: Tensor<2>) -> Tensor<2> {
        let h = self.run_trunk(&self.actor_trunk, obs);
        self.policy_head.forward(h)
    }

    /// State values only, `[batch]` (skips the actor head; e.g. for GAE bootstrapping).
    pub fn value(&self, obs: Tensor<2>) -> Tensor<1> {
        let layers = if self.config.shared_trunk { &self.actor_trunk } else { &self.critic_trunk };
        let h = self.run_trunk(layers, obs);
        self.value_head.forward(h).squeeze_dim::<1>(1)
    }
}
