//! Training configuration: a TOML file in `experiments/`, every hyperparameter documented.
//!
//! Names follow CleanRL's `ppo.py` where a counterpart exists, so results and intuitions carry
//! over. Unknown fields are errors (a typo must not silently fall back to a default).

use engine::RuleConfig;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use thiserror::Error;

/// Everything that defines a training run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TrainConfig {
    /// Run name: the run folder is `runs/<name>/` unless `--out` says otherwise.
    pub name: String,
    /// Seed of everything random in the run: weight init, deals, seatings, sampling.
    pub seed: u64,
    /// Seats at the table, 2–4.
    pub players: u8,
    /// Table sizes the training games are drawn from, uniformly and independently per game
    /// (e.g. `[2, 4]` trains one policy for heads-up and full tables: the observation is padded
    /// to the largest table, so one network serves every size); repeat a size to weight it
    /// (`[2, 2, 4]`). Empty: `players` only. Periodic evaluations cover every size listed.
    pub table_sizes: Vec<u8>,
    /// Game rules (any field of the engine's rule config; `players` is taken from above).
    pub rules: RuleConfig,
    /// Terminal reward convention: `win-loss` (default) or `placement`.
    pub reward: env::reward::RewardMode,
    /// Total learner decisions to train on (CleanRL's `total_timesteps`).
    pub total_decisions: u64,
    /// Parallel games in a rollout (CleanRL's `num_envs`).
    pub num_envs: usize,
    /// Environment steps per game per rollout (all seats' decisions; CleanRL's `num_steps`).
    pub num_steps: usize,
    /// Adam learning rate.
    pub learning_rate: f64,
    /// Anneal the learning rate linearly to 0 over the run.
    pub anneal_lr: bool,
    /// Discount factor over a seat's own decisions.
    pub gamma: f32,
    /// GAE lambda.
    pub gae_lambda: f32,
    /// Minibatches per epoch.
    pub num_minibatches: usize,
    /// Epochs over each rollout batch.
    pub update_epochs: usize,
    /// Normalise advantages within each minibatch.
    pub norm_adv: bool,
    /// PPO clipping coefficient.
    pub clip_coef: f32,
    /// Clip the value loss like the policy ratio.
    pub clip_vloss: bool,
    /// Entropy bonus coefficient.
    pub ent_coef: f32,
    /// Value loss coefficient.
    pub vf_coef: f32,
    /// Global gradient-norm clip.
    pub max_grad_norm: f32,
    /// Stop the epochs of an update early once the approximate KL exceeds this (none: never).
    pub target_kl: Option<f32>,
    /// Weight of potential-based reward shaping on the learner's share of the chips on the table
    /// (Ng et al. 1999: F = γΦ(s') − Φ(s), Φ = 0 at the end, so the optimal policy is unchanged;
    /// it only tells a seat sooner that a round cost it chips). 0 turns it off.
    pub shaping: f32,
    /// Hidden layer sizes of the actor and critic MLPs.
    pub hidden: Vec<usize>,
    /// Start from the weights of this checkpoint folder instead of a fresh initialisation
    /// (fine-tuning; the network must match `hidden`). A relative path is taken from the
    /// working directory. The Adam state starts fresh.
    pub init_from: Option<std::path::PathBuf>,
    /// Seats per game played by the learning policy (the others come from the opponent pool).
    pub learner_seats: u8,
    /// Opponent pool mix: relative weights of `latest` (the current policy, not trained on),
    /// `snapshots` (past policies) and bot names (`random`, `greedy`, `expert`, …).
    pub opponents: BTreeMap<String, f64>,
    /// How a `snapshots` opponent is picked from the pool: `uniform`, or `prioritised` (the
    /// snapshots that beat the learner more often are picked more often).
    pub snapshot_sampling: SnapshotSampling,
    /// Take a snapshot of the policy into the pool every this many updates.
    pub snapshot_every: u64,
    /// Keep at most this many snapshots (oldest dropped).
    pub max_snapshots: usize,
    /// Write a checkpoint every this many updates (also the resume granularity).
    pub checkpoint_every: u64,
    /// Evaluate against bots every this many updates (0: only at the end).
    pub eval_every: u64,
    /// Games per bot in each periodic evaluation.
    pub eval_games: u64,
    /// Bots to evaluate against (`eval/win_rate_vs_<bot>`).
    pub eval_bots: Vec<String>,
    /// Games per bot in the end-of-run arena report.
    pub final_eval_games: u64,
}

impl Default for TrainConfig {
    fn default() -> Self {
        let mut opponents = BTreeMap::new();
        opponents.insert("latest".to_string(), 0.5);
        opponents.insert("snapshots".to_string(), 0.2);
        opponents.insert("greedy".to_string(), 0.2);
        opponents.insert("random".to_string(), 0.1);
        TrainConfig {
            name: "quick".into(),
            seed: 1,
            players: 4,
            table_sizes: Vec::new(),
            rules: RuleConfig::default(),
            reward: Default::default(),
            total_decisions: 2_000_000,
            num_envs: 64,
            num_steps: 128,
            learning_rate: 2.5e-4,
            anneal_lr: true,
            gamma: 0.99,
            gae_lambda: 0.95,
            num_minibatches: 4,
            update_epochs: 4,
            norm_adv: true,
            clip_coef: 0.2,
            clip_vloss: true,
            ent_coef: 0.01,
            vf_coef: 0.5,
            max_grad_norm: 0.5,
            target_kl: None,
            shaping: 0.0,
            hidden: vec![256, 256],
            init_from: None,
            learner_seats: 1,
            opponents,
            snapshot_sampling: SnapshotSampling::Uniform,
            snapshot_every: 20,
            max_snapshots: 10,
            checkpoint_every: 10,
            eval_every: 20,
            eval_games: 200,
            eval_bots: vec!["random".into(), "greedy".into()],
            final_eval_games: 1000,
        }
    }
}

/// How past policies are drawn from the opponent pool.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SnapshotSampling {
    /// Every snapshot equally often.
    #[default]
    Uniform,
    /// Prioritised fictitious self-play: a snapshot's weight is `(1 − p)²`, where `p` is the
    /// learner's win rate against it so far (with one won and one lost game as a prior), so
    /// opponents the learner has already mastered fade from the mix without disappearing.
    Prioritised,
}

/// A config that cannot be used, naming the field.
#[derive(Debug, Error)]
pub enum TrainConfigError {
    /// The file could not be read.
    #[error("cannot read {path}")]
    Read {
        /// The path.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// TOML syntax or type error (the message names the field and line).
    #[error("{path}: {message}")]
    Parse {
        /// The path.
        path: String,
        /// The parser's message.
        message: String,
    },
    /// A value out of range.
    #[error("{field}: {message}")]
    Invalid {
        /// The field.
        field: &'static str,
        /// What is wrong.
        message: String,
    },
}

fn invalid(field: &'static str, message: impl Into<String>) -> TrainConfigError {
    TrainConfigError::Invalid { field, message: message.into() }
}

/// Bot names an opponent mix or evaluation may use (the `eval` crate's heuristic bots).
pub const KNOWN_BOTS: [&str; 4] = ["random", "greedy", "expert", "search"];

impl TrainConfig {
    /// Reads and validates a TOML config.
    pub fn load(path: &Path) -> Result<TrainConfig, TrainConfigError> {
        let text = std::fs::read_to_string(path)
            .map_err(|source| TrainConfigError::Read { path: path.display().to_string(), source })?;
        let cfg = Self::from_toml(&text).map_err(|e| match e {
            TrainConfigError::Parse { message, .. } => {
                TrainConfigError::Parse { path: path.display().to_string(), message }
            }
            other => other,
        })?;
        Ok(cfg)
    }

    /// Parses and validates TOML text.
    pub fn from_toml(text: &str) -> Result<TrainConfig, TrainConfigError> {
        let mut cfg: TrainConfig = toml::from_str(text)
            .map_err(|e| TrainConfigError::Parse { path: "config".into(), message: e.to_string() })?;
        cfg.rules.players = cfg.players;
        cfg.validate()?;
        Ok(cfg)
    }

    /// Checks every field's range.
    pub fn validate(&self) -> Result<(), TrainConfigError> {
        if self.name.is_empty() || self.name.contains(['/', '\\']) || self.name.starts_with('.') {
            return Err(invalid("name", "must be a plain, non-empty folder name"));
        }
        if !(2..=4).contains(&self.players) {
            return Err(invalid("players", format!("{} is outside 2..=4", self.players)));
        }
        for &n in &self.table_sizes {
            if !(2..=4).contains(&n) {
                return Err(invalid("table_sizes", format!("{n} is outside 2..=4")));
            }
        }
        for n in self.sizes() {
            let mut rules = self.rules;
            rules.players = n;
            rules.validate().map_err(|e| invalid("rules", e.to_string()))?;
        }
        if self.num_envs == 0 {
            return Err(invalid("num_envs", "must be at least 1"));
        }
        if self.num_steps == 0 {
            return Err(invalid("num_steps", "must be at least 1"));
        }
        if self.total_decisions == 0 {
            return Err(invalid("total_decisions", "must be at least 1"));
        }
        if !(self.learning_rate > 0.0 && self.learning_rate < 1.0) {
            return Err(invalid("learning_rate", format!("{} is outside (0, 1)", self.learning_rate)));
        }
        if !(0.0..=1.0).contains(&self.gamma) {
            return Err(invalid("gamma", "must lie in [0, 1]"));
        }
        if !(0.0..=1.0).contains(&self.gae_lambda) {
            return Err(invalid("gae_lambda", "must lie in [0, 1]"));
        }
        if self.num_minibatches == 0 {
            return Err(invalid("num_minibatches", "must be at least 1"));
        }
        if self.update_epochs == 0 {
            return Err(invalid("update_epochs", "must be at least 1"));
        }
        if self.clip_coef <= 0.0 {
            return Err(invalid("clip_coef", "must be positive"));
        }
        if self.max_grad_norm <= 0.0 {
            return Err(invalid("max_grad_norm", "must be positive"));
        }
        if self.ent_coef < 0.0 || self.vf_coef < 0.0 {
            return Err(invalid(if self.ent_coef < 0.0 { "ent_coef" } else { "vf_coef" }, "must not be negative"));
        }
        if self.target_kl.is_some_and(|k| k <= 0.0) {
            return Err(invalid("target_kl", "must be positive when given"));
        }
        if !(self.shaping >= 0.0 && self.shaping.is_finite()) {
            return Err(invalid("shaping", "must be a finite number ≥ 0"));
        }
        if self.hidden.is_empty() || self.hidden.contains(&0) {
            return Err(invalid("hidden", "needs at least one layer, all sizes positive"));
        }
        let smallest = self.sizes().into_iter().min().unwrap_or(self.players);
        let largest = self.sizes().into_iter().max().unwrap_or(self.players);
        if self.learner_seats == 0 || self.learner_seats > smallest {
            return Err(invalid("learner_seats", format!("must be 1..={smallest} (the smallest table)")));
        }
        if self.learner_seats < largest {
            if self.opponents.is_empty() {
                return Err(invalid("opponents", "needs at least one entry when some seats are not learners"));
            }
            for (k, &w) in &self.opponents {
                if !(w >= 0.0 && w.is_finite()) {
                    return Err(invalid("opponents", format!("weight of `{k}` must be a finite number ≥ 0")));
                }
                if k != "latest" && k != "snapshots" && !KNOWN_BOTS.contains(&k.as_str()) {
                    return Err(invalid(
                        "opponents",
                        format!("unknown opponent `{k}`; valid: latest, snapshots, {}", KNOWN_BOTS.join(", ")),
                    ));
                }
            }
            if self.opponents.values().sum::<f64>() <= 0.0 {
                return Err(invalid("opponents", "weights must not all be zero"));
            }
        }
        for b in &self.eval_bots {
            if !KNOWN_BOTS.contains(&b.as_str()) {
                return Err(invalid("eval_bots", format!("unknown bot `{b}`; valid: {}", KNOWN_BOTS.join(", "))));
            }
        }
        if self.checkpoint_every == 0 {
            return Err(invalid("checkpoint_every", "must be at least 1"));
        }
        if self.snapshot_every == 0 {
            return Err(invalid("snapshot_every", "must be at least 1"));
        }
        Ok(())
    }

    /// Environment steps in one rollout (all seats).
    pub fn rollout_steps(&self) -> usize {
        self.num_envs * self.num_steps
    }

    /// The table sizes training games use: `table_sizes` (sorted, without repeats), or
    /// `players` when that list is empty.
    pub fn sizes(&self) -> Vec<u8> {
        if self.table_sizes.is_empty() {
            return vec![self.players];
        }
        let mut v = self.table_sizes.clone();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The list each training game's size is drawn from (uniformly; repeats weigh a size):
    /// `table_sizes`, or `players` when that list is empty.
    pub fn size_draws(&self) -> Vec<u8> {
        if self.table_sizes.is_empty() { vec![self.players] } else { self.table_sizes.clone() }
    }

    /// Number of PPO updates in the run: enough rollouts for `total_decisions` learner decisions,
    /// counting a learner's expected share of the steps.
    pub fn num_updates(&self) -> u64 {
        let sizes = self.size_draws();
        let learner_share =
            sizes.iter().map(|&n| self.learner_seats as f64 / n as f64).sum::<f64>() / sizes.len() as f64;
        let per_update = (self.rollout_steps() as f64 * learner_share).max(1.0);
        ((self.total_decisions as f64 / per_update).ceil() as u64).max(1)
    }

    /// The env config of the run's main table (`players` seats).
    pub fn env_config(&self) -> env::EnvConfig {
        self.env_config_for(self.players)
    }

    /// The env config of a table of `players` seats under the run's rules and rewards.
    pub fn env_config_for(&self, players: u8) -> env::EnvConfig {
        let mut rules = self.rules;
        rules.players = players;
        env::EnvConfig { rules, reward: self.reward, event_log: false }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mixed_tables_count_each_sizes_learner_share() {
        let c = TrainConfig::from_toml(
            "table_sizes = [4, 2, 2]\nnum_envs = 10\nnum_steps = 10\ntotal_decisions = 3750\nsnapshot_sampling = \"prioritised\"",
        )
        .unwrap();
        assert_eq!(c.sizes(), vec![2, 4]);
        assert_eq!(c.snapshot_sampling, SnapshotSampling::Prioritised);
        assert_eq!(c.size_draws(), vec![4, 2, 2]);
        // 100 steps per rollout; learner share (1/4 + 1/2 + 1/2) / 3 = 5/12: 41.67 decisions per
        // update.
        assert_eq!(c.num_updates(), 90);
        assert_eq!(c.env_config_for(2).rules.players, 2);
    }

    #[test]
    fn defaults_validate_and_toml_round_trips() {
        let c = TrainConfig::default();
        c.validate().unwrap();
        let text = toml::to_string(&c).unwrap();
        assert_eq!(TrainConfig::from_toml(&text).unwrap(), c);
    }

    #[test]
    fn errors_name_the_field() {
        let e = TrainConfig::from_toml("players = 9").unwrap_err().to_string();
        assert!(e.starts_with("players:"), "{e}");
        let e = TrainConfig::from_toml("learnin_rate = 0.1").unwrap_err().to_string();
        assert!(e.contains("learnin_rate"), "{e}");
        let e = TrainConfig::from_toml("learning_rate = \"fast\"").unwrap_err().to_string();
        assert!(e.contains("learning_rate"), "{e}");
        let e = TrainConfig::from_toml("[opponents]\nwizard = 1.0").unwrap_err().to_string();
        assert!(e.starts_with("opponents:") && e.contains("wizard"), "{e}");
        let e = TrainConfig::from_toml("table_sizes = [2, 5]").unwrap_err().to_string();
        assert!(e.starts_with("table_sizes:"), "{e}");
        let e = TrainConfig::from_toml("table_sizes = [2, 4]\nlearner_seats = 3").unwrap_err().to_string();
        assert!(e.starts_with("learner_seats:") && e.contains("smallest"), "{e}");
        let e = TrainConfig::from_toml("snapshot_sampling = \"greedy\"").unwrap_err().to_string();
        assert!(e.contains("snapshot_sampling"), "{e}");
        let e = TrainConfig::from_toml("hidden = []").unwrap_err().to_string();
        assert!(e.starts_with("hidden:"), "{e}");
        let e = TrainConfig::from_toml("[rules]\nstarting_chips = 0").unwrap_err().to_string();
        assert!(e.starts_with("rules:") && e.contains("starting_chips"), "{e}");
    }
}
