//! Network hyper-parameters, stored in every checkpoint's metadata.

use serde::{Deserialize, Serialize};

/// Non-linearity used between hidden layers.
///
/// Exists so the choice is recorded in checkpoints and a loaded network is rebuilt exactly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Activation {
    /// `max(0, x)`; the default (cheap on CPU).
    #[default]
    Relu,
    /// `tanh(x)`; CleanRL's PPO default.
    Tanh,
}

/// Shape of the actor-critic network: what is needed to rebuild it before loading weights.
///
/// Serialized as the `network` field of a checkpoint's `metadata.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PolicyConfig {
    /// Length of one observation vector.
    pub obs_dim: usize,
    /// Number of discrete actions (width of the logits).
    pub num_actions: usize,
    /// Widths of the hidden layers of each trunk, input side first.
    #[serde(default = "default_hidden")]
    pub hidden: Vec<usize>,
    /// Non-linearity after each hidden layer.
    #[serde(default)]
    pub activation: Activation,
    /// If true, the actor and critic heads share one trunk (about half the compute);
    /// if false (default, as in CleanRL), each head has its own trunk.
    #[serde(default)]
    pub shared_trunk: bool,
}

fn default_hidden() -> Vec<usize> {
    vec![256, 256]
}

/// A [`PolicyConfig`] field holds an unusable value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// `obs_dim` is zero.
    #[error("invalid network config: obs_dim must be > 0")]
    ZeroObsDim,
    /// `num_actions` is zero.
    #[error("invalid network config: num_actions must be > 0")]
    ZeroNumActions,
    /// `hidden` is empty.
    #[error("invalid network config: hidden must list at least one layer width")]
    EmptyHidden,
    /// A hidden width is zero.
    #[error("invalid network config: hidden[{index}] must be > 0")]
    ZeroHidden {
        /// Position of the offending width in `hidden`.
        index: usize,
    },
}

impl PolicyConfig {
    /// A config with the default trunk (`[256, 256]`, ReLU, separate trunks).
    pub fn new(obs_dim: usize, num_actions: usize) -> Self {
        Self { obs_dim, num_actions, hidden: default_hidden(), activation: Activation::default(), shared_trunk: false }
    }

    /// Replaces the hidden layer widths.
    pub fn with_hidden(mut self, hidden: Vec<usize>) -> Self {
        self.hidden = hidden;
        self
    }

    /// Replaces the activation.
    pub fn with_activation(mut self, activation: Activation) -> Self {
        self.activation = activation;
        self
    }

    /// Chooses a shared (true) or separate (false) actor/critic trunk.
    pub fn with_shared_trunk(mut self, shared: bool) -> Self {
        self.shared_trunk = shared;
        self
    }

    /// Checks every field, naming the first bad one.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.obs_dim == 0 {
            return Err(ConfigError::ZeroObsDim);
        }
        if self.num_actions == 0 {
            return Err(ConfigError::ZeroNumActions);
        }
        if self.hidden.is_empty() {
            return Err(ConfigError::EmptyHidden);
        }
        if let Some(index) = self.hidden.iter().position(|&h| h == 0) {
            return Err(ConfigError::ZeroHidden { index });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_validation() {
        let c = PolicyConfig::new(192, 48);
        assert_eq!(c.hidden, vec![256, 256]);
        assert_eq!(c.activation, Activation::Relu);
        assert!(!c.shared_trunk);
        assert_eq!(c.validate(), Ok(()));
        assert_eq!(PolicyConfig::new(0, 4).validate(), Err(ConfigError::ZeroObsDim));
        assert_eq!(PolicyConfig::new(3, 0).validate(), Err(ConfigError::ZeroNumActions));
        assert_eq!(PolicyConfig::new(3, 4).with_hidden(vec![]).validate(), Err(ConfigError::EmptyHidden));
        let e = PolicyConfig::new(3, 4).with_hidden(vec![8, 0]).validate().unwrap_err();
        assert_eq!(e, ConfigError::ZeroHidden { index: 1 });
        assert!(e.to_string().contains("hidden[1]"));
    }

    #[test]
    fn json_defaults_fill_missing_fields() {
        let c: PolicyConfig = serde_json::from_str(r#"{"obs_dim":5,"num_actions":3}"#).unwrap();
        assert_eq!(c, PolicyConfig::new(5, 3));
        let c: PolicyConfig = serde_json::from_str(
            r#"{"obs_dim":5,"num_actions":3,"hidden":[4],"activation":"tanh","shared_trunk":true}"#,
        )
        .unwrap();
        assert_eq!(c.activation, Activation::Tanh);
        assert!(c.shared_trunk);
        let back: PolicyConfig = serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
        assert_eq!(back, c);
    }
}
