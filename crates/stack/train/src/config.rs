//! Training configuration: a TOML file in `experiments/`, every hyperparameter documented.
//!
//! Names follow CleanRL's `ppo.py` where a counterpart exists, so results and intuitions carry
//! over. Unknown fields are errors (a typo must not silently fall back to a default).

use env::Game;
use games::GameId;
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use thiserror::Error;

/// Everything that defines a training run of game `G`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default, bound = "")]
pub struct TrainConfig<G: Game> {
    /// The game (`kessel`, the default, or `classic`): it must be the game the config is loaded
    /// for, which `sabacc train` reads from this field first. A config without it is Kessel's,
    /// whatever game reads it.
    #[serde(default)]
    pub game: GameId,
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
    /// Game rules (any field of the game's rule config; `players` is taken from above).
    pub rules: G::Rules,
    /// Terminal reward convention: `win-loss`, `placement` or `payoff` (default: the game's own,
    /// `win-loss` for the Sabacc games, `payoff` (chips) for Leduc hold'em).
    pub reward: env::RewardMode,
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
    /// The entropy coefficient at the end of training, reached linearly from `ent_coef` (none:
    /// constant). A large bonus early keeps self-play from collapsing onto one exploitable
    /// line; annealing it lets the policy sharpen towards an equilibrium later.
    pub ent_coef_final: Option<f32>,
    /// Weight of the KL divergence from a *magnet* policy in the loss (0: none). The magnet is a
    /// frozen copy of the policy, refreshed every `magnet_every` updates, so each stretch of
    /// training is pulled towards where the last one ended rather than towards uniform play (the
    /// entropy bonus is this term with a uniform magnet). In a two-player zero-sum game this is
    /// magnetic mirror descent (Sokota et al., ICLR 2023), whose policy converges to a
    /// regularised equilibrium, and with a moving magnet towards an equilibrium, where the
    /// last policy of plain self-play cycles.
    pub magnet_coef: f32,
    /// Updates between refreshes of the magnet (`magnet_coef`). It must divide
    /// `checkpoint_every`, so that a resumed run refreshes it at the same updates.
    pub magnet_every: u64,
    /// Probability that a learner decision is an *exploratory deviation*: a uniformly random
    /// legal action in place of the policy's (0: none, the default, and the rollouts are exactly
    /// those without the key). Why: the policy gradient moves each information set in proportion
    /// to how often play reaches it, so a sharpening policy all but stops training the sets its
    /// own rare actions lead to, which a best response then exploits. A deviation is not trained
    /// on; the deviating seat's earlier decisions bootstrap from its value there and its later
    /// ones stay on-policy from their own information sets (its own action does not change what
    /// it believes of the cards), while the other seats' decisions from their last one before it
    /// are left out of training (a random action of theirs would mislead what they learn about
    /// the deviator's cards). One seat of a game deviates at most: the first to do so.
    pub explore: f32,
    /// Weighs each learner decision's policy terms (surrogate, entropy, magnet) by the inverse of
    /// the seat's own reach there, the product of its probabilities of its earlier actions in the
    /// game, capped at this factor and normalised to mean 1 in each minibatch (0: off, the
    /// default; otherwise at least 1). Why: a policy gradient sampled from self-play moves each
    /// information set in proportion to how often the seat's own play reaches it, so the sets its
    /// rare actions lead to barely move; divided by that reach, every set moves at the rate of
    /// chance's and the other seats' reach alone, the weighting under which the exact
    /// regularised update converges (Leduc hold'em, `examples/reach_weighting.rs`). The value
    /// loss is not weighted.
    pub reach_weight: f32,
    /// Value loss coefficient.
    pub vf_coef: f32,
    /// Global gradient-norm clip.
    pub max_grad_norm: f32,
    /// Stop the epochs of an update early once an epoch ends with an approximate KL above this
    /// (none: never), as CleanRL checks it.
    pub target_kl: Option<f32>,
    /// Weight of potential-based reward shaping on the learner's share of the chips on the table
    /// (Ng et al. 1999: F = γΦ(s') − Φ(s), Φ = 0 at the end, so the optimal policy is unchanged;
    /// it only tells a seat sooner that a round cost it chips). 0 turns it off.
    pub shaping: f32,
    /// Hidden layer sizes of the actor and critic MLPs.
    pub hidden: Vec<usize>,
    /// One trunk for actor and critic (two heads on it) instead of two towers: about half the
    /// update's arithmetic, at the risk of the value loss disturbing the policy's features.
    pub shared_trunk: bool,
    /// Start from the weights of this checkpoint folder instead of a fresh initialisation
    /// (fine-tuning; the network must match `hidden` and `shared_trunk`). A relative path is
    /// found under the working directory, else as shipped files are (`SABACC_HOME`, the
    /// repository). The Adam state starts fresh.
    pub init_from: Option<std::path::PathBuf>,
    /// Seats per game played by the learning policy (the others come from the opponent pool).
    pub learner_seats: u8,
    /// Opponent pool mix: relative weights of `latest` (the current policy, not trained on),
    /// `snapshots` (past policies) and agent specs (`random`, `greedy`, `expert`, a checkpoint
    /// folder, …). Opponents are drawn from the entries in the order they are written, so a seed
    /// picks the same opponents however they are named: moving a checkpoint and writing its new
    /// path in the same place keeps the run, while reordering the entries changes it.
    pub opponents: IndexMap<String, f64>,
    /// Opponent mixes for particular table sizes, each in place of `opponents` at tables of that
    /// many seats: `[table_opponents.4]` takes the same keys as `[opponents]`. A run can then
    /// train its four-seat play against one pool while its heads-up games keep another. Sizes
    /// not listed here use `opponents`.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub table_opponents: BTreeMap<String, IndexMap<String, f64>>,
    /// How a `snapshots` opponent is picked from the pool: `uniform`, or `prioritised` (the
    /// snapshots that beat the learner more often are picked more often).
    pub snapshot_sampling: SnapshotSampling,
    /// How the bots of the mix share their weight: `fixed` (as written), or `prioritised` (the
    /// bots' total weight is kept, and redistributed towards the bots the learner beats least).
    pub bot_sampling: SnapshotSampling,
    /// Take a snapshot of the policy into the pool every this many updates.
    pub snapshot_every: u64,
    /// Keep at most this many snapshots (oldest dropped).
    pub max_snapshots: usize,
    /// Write a checkpoint every this many updates (also the resume granularity).
    pub checkpoint_every: u64,
    /// Play the next update's rollout on a second thread, with the weights from before the
    /// current update, while the current update trains: both cores stay busy, at the price of
    /// rollouts one update behind the learner (PPO's clipped ratio corrects for the lag, as it
    /// does for its own epochs). The first update after each checkpoint is not overlapped, so
    /// resumed runs still match uninterrupted ones.
    pub actor_learner_overlap: bool,
    /// Threads that differentiate each PPO minibatch, on rayon's pool (one thread per core): with
    /// 2, each takes half the rows (the
    /// second on a copy of the network with parameters of its own, so the two backward passes
    /// do not share burn's graph lock) and their gradients are averaged, weighted by rows, before
    /// the one clip and Adam step. The same update in exact arithmetic; in floating point the
    /// sums are grouped differently, so a run with 2 does not replay one with 1 bit for bit.
    /// Beside an overlapped rollout the shares are worked on one thread (`ppo::step`).
    pub learner_threads: usize,
    /// Computes each trunk's first layer in training from the observations' nonzero entries
    /// (`policy::SparseRows`): the same network and gradients, up to the order floats are summed
    /// in, at a cost in proportion to the nonzeros (about 9 % of a Kessel observation) instead of
    /// the observation's width. Off by default so that recorded runs replay bit for bit; rollouts
    /// and evaluation are unchanged either way.
    pub sparse_input: bool,
    /// Evaluate against bots every this many updates (0: only at the end).
    pub eval_every: u64,
    /// Games per bot in each periodic evaluation.
    pub eval_games: u64,
    /// Bots to evaluate against (`eval/win_rate_vs_<bot>`).
    pub eval_bots: Vec<String>,
    /// Games per bot in the end-of-run arena report.
    pub final_eval_games: u64,
}

impl<G: Game> Default for TrainConfig<G> {
    fn default() -> Self {
        // In name order, the order these defaults have always been drawn in.
        let opponents = IndexMap::from([
            ("greedy".to_string(), 0.2),
            ("latest".to_string(), 0.5),
            ("random".to_string(), 0.1),
            ("snapshots".to_string(), 0.2),
        ]);
        TrainConfig {
            game: GameId::of::<G>().unwrap_or_default(),
            name: "quick".into(),
            seed: 1,
            players: 4,
            table_sizes: Vec::new(),
            rules: G::Rules::default(),
            reward: G::DEFAULT_REWARD,
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
            ent_coef_final: None,
            magnet_coef: 0.0,
            magnet_every: 10,
            explore: 0.0,
            reach_weight: 0.0,
            vf_coef: 0.5,
            max_grad_norm: 0.5,
            target_kl: None,
            shaping: 0.0,
            hidden: vec![256, 256],
            shared_trunk: false,
            init_from: None,
            learner_seats: 1,
            opponents,
            table_opponents: BTreeMap::new(),
            snapshot_sampling: SnapshotSampling::Uniform,
            bot_sampling: SnapshotSampling::Uniform,
            snapshot_every: 20,
            max_snapshots: 10,
            checkpoint_every: 10,
            actor_learner_overlap: false,
            learner_threads: 1,
            sparse_input: false,
            eval_every: 20,
            eval_games: 200,
            eval_bots: vec!["random".into(), "greedy".into()],
            final_eval_games: 1000,
        }
    }
}

/// How past policies (`snapshot_sampling`) or the bots of the mix (`bot_sampling`) are drawn
/// from the opponent pool.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SnapshotSampling {
    /// Snapshots equally often; bots at their configured weights (`fixed` is accepted as a
    /// synonym for bots).
    #[default]
    #[serde(alias = "fixed")]
    Uniform,
    /// Prioritised fictitious self-play (PFSP): an opponent's weight is scaled by `(1 − p)²`,
    /// where `p` is the learner's win rate against it so far (with one won and one lost game as
    /// a prior), so opponents the learner has already mastered fade from the mix without
    /// disappearing. For bots the scaled weights are renormalised to the bots' configured total,
    /// so self-play keeps its share.
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
    /// TOML syntax or type error, or an unknown key (the message names the key path and line).
    #[error("{path}: {message}")]
    Parse {
        /// The path.
        path: String,
        /// The parser's message, headed by the key path (`rules.starting_chips: …`).
        message: String,
    },
    /// A value out of range.
    #[error("{field}: {message}")]
    Invalid {
        /// The field.
        field: &'static str,
        /// What is wrong, with the allowed range.
        message: String,
    },
}

/// Checks one opponent mix (`opponents` or a `table_opponents` entry); the message names the fault.
fn check_mix<G: Game>(mix: &IndexMap<String, f64>) -> Result<(), String> {
    if mix.is_empty() {
        return Err("needs at least one entry when some seats are not learners".into());
    }
    for (k, &w) in mix {
        if k != "latest" && k != "snapshots" {
            // Any agent spec of the agents layer (bots, checkpoints, bundles, policy tables).
            agents::AgentSpec::parse::<G>(k).map_err(|e| format!("{e} (or `latest`, `snapshots`)"))?;
        }
        if !(0.0..=1e9).contains(&w) {
            return Err(format!("weight of `{k}` is {w}, outside the allowed range [0, 1e9]"));
        }
    }
    if mix.values().sum::<f64>() <= 0.0 {
        return Err("weights sum to zero; at least one must be positive".into());
    }
    Ok(())
}

fn invalid(field: &'static str, message: impl Into<String>) -> TrainConfigError {
    TrainConfigError::Invalid { field, message: message.into() }
}

/// Most environment steps one rollout may hold (`num_envs × num_steps`): about 2.7 GB of
/// observations, far above any useful run, and low enough that a typo is refused at load
/// instead of aborting on allocation.
pub const MAX_ROLLOUT_STEPS: usize = 1 << 20;
/// Most games a single evaluation may play (per bot and table size).
pub const MAX_EVAL_GAMES: u64 = 10_000_000;

/// A float that must be finite and inside a range; `range` is how the message shows it.
fn check_float<T: Into<f64> + Copy + std::fmt::Display>(
    field: &'static str,
    value: T,
    range: &str,
    ok: impl Fn(f64) -> bool,
) -> Result<(), TrainConfigError> {
    let x: f64 = value.into();
    if x.is_finite() && ok(x) {
        Ok(())
    } else {
        Err(invalid(field, format!("{value} is outside the allowed range {range}")))
    }
}

/// An integer that must lie in `lo..=hi`.
fn check_int<T: Into<u128> + Copy + std::fmt::Display>(
    field: &'static str,
    value: T,
    lo: u128,
    hi: u128,
) -> Result<(), TrainConfigError> {
    let v: u128 = value.into();
    if (lo..=hi).contains(&v) {
        Ok(())
    } else {
        Err(invalid(field, format!("{value} is outside the allowed range {lo}..={hi}")))
    }
}

/// The game a TOML config is for (its `game` field; Kessel when absent), read before the rest
/// so the config can be parsed with that game's rules.
pub fn game_of_toml(text: &str) -> Result<GameId, TrainConfigError> {
    let parse_err = |message: String| TrainConfigError::Parse { path: "config".into(), message };
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| parse_err(e.to_string()))?;
    match table.get("game") {
        None => Ok(GameId::default()),
        Some(toml::Value::String(s)) => GameId::parse(s).map_err(|e| invalid("game", e.to_string())),
        Some(v) => Err(invalid("game", format!("`{v}` is not a game name ({})", GameId::names().join(", ")))),
    }
}

impl<G: Game> TrainConfig<G> {
    /// Reads and validates a TOML config.
    pub fn load(path: &Path) -> Result<TrainConfig<G>, TrainConfigError> {
        let text = std::fs::read_to_string(path)
            .map_err(|source| TrainConfigError::Read { path: path.display().to_string(), source })?;
        let cfg = Self::from_toml(&text).map_err(|e| match e {
            TrainConfigError::Parse { message, .. } => {
                TrainConfigError::Parse { path: path.display().to_string(), message }
            }
            TrainConfigError::Invalid { field, message } => {
                TrainConfigError::Parse { path: path.display().to_string(), message: format!("{field}: {message}") }
            }
            other => other,
        })?;
        Ok(cfg)
    }

    /// Parses and validates TOML text. Unknown keys, at any depth, are errors naming their path
    /// (a typo must not silently fall back to a default).
    pub fn from_toml(text: &str) -> Result<TrainConfig<G>, TrainConfigError> {
        let parse_err = |message: String| TrainConfigError::Parse { path: "config".into(), message };
        let de = toml::Deserializer::parse(text).map_err(|e| parse_err(e.to_string()))?;
        let mut cfg: TrainConfig<G> = serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner().to_string();
            if path.is_empty() || path == "." { parse_err(inner) } else { parse_err(format!("{path}: {inner}")) }
        })?;
        G::set_players(&mut cfg.rules, cfg.players);
        cfg.find_shipped();
        cfg.validate()?;
        Ok(cfg)
    }

    /// Finds the folders a config names (`init_from`, checkpoint opponents and evaluation
    /// agents) as every shipped file is found ([`agents::shipped`]): under the working directory
    /// first, then under `SABACC_HOME` or the repository, so a shipped config that starts from
    /// `checkpoints/champion` runs from any folder. Names found nowhere stay as written, for
    /// validation to refuse by name.
    fn find_shipped(&mut self) {
        if let Some(p) = &self.init_from {
            self.init_from = Some(agents::shipped::checkpoint(p));
        }
        let pool_keys = ["latest", "snapshots"];
        for mix in std::iter::once(&mut self.opponents).chain(self.table_opponents.values_mut()) {
            *mix = std::mem::take(mix)
                .into_iter()
                .map(
                    |(k, w)| if pool_keys.contains(&k.as_str()) { (k, w) } else { (agents::shipped::spec::<G>(&k), w) },
                )
                .collect();
        }
        for b in &mut self.eval_bots {
            *b = agents::shipped::spec::<G>(b);
        }
    }

    /// Checks every field's range; the error names the field and the allowed range (the same
    /// ranges are listed in `docs/config.md`).
    pub fn validate(&self) -> Result<(), TrainConfigError> {
        if self.name.is_empty() || self.name.contains(['/', '\\']) || self.name.starts_with('.') {
            return Err(invalid("name", "must be a plain, non-empty folder name (no `/`, `\\`, or leading `.`)"));
        }
        if self.game.name() != G::SPEC.game {
            return Err(invalid("game", format!("this config is read for {}, not {}", G::SPEC.game, self.game)));
        }
        check_int("players", self.players, 2, 4)?;
        for &n in &self.table_sizes {
            check_int("table_sizes", n, 2, 4)?;
        }
        for n in self.sizes() {
            let mut rules = self.rules;
            G::set_players(&mut rules, n);
            G::new_state(&rules, 0).map_err(|e| invalid("rules", e.to_string()))?;
        }
        check_int("total_decisions", self.total_decisions, 1, u64::MAX as u128)?;
        check_int("num_envs", self.num_envs as u64, 1, MAX_ROLLOUT_STEPS as u128)?;
        check_int("num_steps", self.num_steps as u64, 1, MAX_ROLLOUT_STEPS as u128)?;
        if self.num_envs.saturating_mul(self.num_steps) > MAX_ROLLOUT_STEPS {
            return Err(invalid(
                "num_steps",
                format!(
                    "num_envs × num_steps = {} × {} exceeds the allowed {MAX_ROLLOUT_STEPS} steps per rollout",
                    self.num_envs, self.num_steps
                ),
            ));
        }
        check_float("learning_rate", self.learning_rate, "(0, 1)", |x| x > 0.0 && x < 1.0)?;
        check_float("gamma", self.gamma, "[0, 1]", |x| (0.0..=1.0).contains(&x))?;
        check_float("gae_lambda", self.gae_lambda, "[0, 1]", |x| (0.0..=1.0).contains(&x))?;
        check_int("num_minibatches", self.num_minibatches as u64, 1, self.rollout_steps() as u128)?;
        check_int("learner_threads", self.learner_threads as u64, 1, 8)?;
        check_int("update_epochs", self.update_epochs as u64, 1, 1000)?;
        check_float("clip_coef", self.clip_coef, "(0, 1]", |x| x > 0.0 && x <= 1.0)?;
        check_float("ent_coef", self.ent_coef, "[0, 1e3], finite", |x| (0.0..=1e3).contains(&x))?;
        if let Some(e) = self.ent_coef_final {
            check_float("ent_coef_final", e, "[0, 1e3], finite (leave the key out for a constant ent_coef)", |x| {
                (0.0..=1e3).contains(&x)
            })?;
        }
        check_float("magnet_coef", self.magnet_coef, "[0, 1e3], finite", |x| (0.0..=1e3).contains(&x))?;
        check_int("magnet_every", self.magnet_every, 1, u64::MAX as u128)?;
        check_float("explore", self.explore, "[0, 1), finite", |x| (0.0..1.0).contains(&x))?;
        check_float("reach_weight", self.reach_weight, "0 (off) or [1, 1e6], finite", |x| {
            x == 0.0 || (1.0..=1e6).contains(&x)
        })?;
        if self.magnet_coef > 0.0 && !self.checkpoint_every.is_multiple_of(self.magnet_every) {
            return Err(invalid(
                "magnet_every",
                format!(
                    "is {}, which does not divide checkpoint_every ({}): a resumed run would refresh the magnet at other updates",
                    self.magnet_every, self.checkpoint_every
                ),
            ));
        }
        check_float("vf_coef", self.vf_coef, "[0, 1e3], finite", |x| (0.0..=1e3).contains(&x))?;
        check_float("max_grad_norm", self.max_grad_norm, "(0, 1e6], finite", |x| x > 0.0 && x <= 1e6)?;
        if let Some(k) = self.target_kl {
            check_float("target_kl", k, "(0, 1e3] (leave the key out for no early stop)", |x| x > 0.0 && x <= 1e3)?;
        }
        check_float("shaping", self.shaping, "[0, 1e3], finite", |x| (0.0..=1e3).contains(&x))?;
        check_int("hidden", self.hidden.len() as u64, 1, 16).map_err(|_| {
            invalid("hidden", format!("lists {} layers; the allowed range is 1..=16 layers", self.hidden.len()))
        })?;
        for &h in &self.hidden {
            check_int("hidden", h as u64, 1, 65_536)?;
        }
        if self.init_from.as_ref().is_some_and(|p| p.as_os_str().is_empty()) {
            return Err(invalid("init_from", "is empty; give a checkpoint folder or leave the key out"));
        }
        let smallest = self.sizes().into_iter().min().unwrap_or(self.players);
        check_int("learner_seats", self.learner_seats, 1, smallest as u128).map_err(|_| {
            invalid(
                "learner_seats",
                format!("{} is outside the allowed range 1..={smallest} (the smallest table)", self.learner_seats),
            )
        })?;
        for key in self.table_opponents.keys() {
            let size = key.parse::<u8>().ok().filter(|n| self.sizes().contains(n));
            if size.is_none() {
                return Err(invalid(
                    "table_opponents",
                    format!(
                        "`[table_opponents.{key}]` names no table size of this run; the sizes are {:?} (table_sizes, \
                         or players)",
                        self.sizes()
                    ),
                ));
            }
        }
        // Every size with opponent seats needs a usable mix: its own, or `opponents`.
        for n in self.sizes().into_iter().filter(|&n| self.learner_seats < n) {
            let (mix, name) = match self.table_opponents.get(&n.to_string()) {
                Some(mix) => {
                    check_mix::<G>(mix)
                        .map_err(|m| invalid("table_opponents", format!("[table_opponents.{n}] {m}")))?;
                    (mix, format!("table_opponents.{n}"))
                }
                None => {
                    check_mix::<G>(&self.opponents).map_err(|m| invalid("opponents", m))?;
                    (&self.opponents, "opponents".to_string())
                }
            };
            if mix.get("snapshots").is_some_and(|&w| w > 0.0) && self.max_snapshots == 0 {
                return Err(invalid(
                    "max_snapshots",
                    format!("is 0 but `snapshots` has a positive weight in {name}; allowed range 1..=1000"),
                ));
            }
        }
        for b in &self.eval_bots {
            agents::AgentSpec::parse::<G>(b).map_err(|e| invalid("eval_bots", e.to_string()))?;
        }
        check_int("snapshot_every", self.snapshot_every, 1, u64::MAX as u128)?;
        check_int("max_snapshots", self.max_snapshots as u64, 0, 1000)?;
        check_int("checkpoint_every", self.checkpoint_every, 1, u64::MAX as u128)?;
        check_int("eval_games", self.eval_games, 1, MAX_EVAL_GAMES as u128).map_err(|_| {
            invalid(
                "eval_games",
                format!(
                    "{} is outside the allowed range 1..={MAX_EVAL_GAMES} (set eval_every = 0 to skip periodic evaluations)",
                    self.eval_games
                ),
            )
        })?;
        check_int("final_eval_games", self.final_eval_games, 0, MAX_EVAL_GAMES as u128)?;
        Ok(())
    }

    /// Environment steps in one rollout (all seats).
    pub fn rollout_steps(&self) -> usize {
        self.num_envs * self.num_steps
    }

    /// The network this config trains (observation and action sizes from `spec`).
    pub fn network(&self, spec: env::EnvSpec) -> policy::PolicyConfig {
        policy::PolicyConfig::new(spec.obs_len, spec.num_actions)
            .with_hidden(self.hidden.clone())
            .with_shared_trunk(self.shared_trunk)
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

    /// What the config asks for that the run will not do, as warnings shown when training
    /// starts: an opponent mix written for tables whose every seat is a learner seat (pure
    /// self-play: no seat ever draws an opponent).
    pub fn notes(&self) -> Vec<String> {
        let unused = self.sizes().into_iter().all(|n| self.learner_seats >= n);
        if unused && self.opponents != Self::default().opponents {
            vec![format!(
                "opponents: never used: learner_seats = {} fills every seat of every table, so training is pure \
                 self-play (lower learner_seats to draw opponents from the mix)",
                self.learner_seats
            )]
        } else {
            Vec::new()
        }
    }

    /// The opponent mix of a table of `players` seats: its `table_opponents` entry, else
    /// `opponents`.
    pub fn opponents_for(&self, players: u8) -> &IndexMap<String, f64> {
        self.table_opponents.get(&players.to_string()).unwrap_or(&self.opponents)
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
    pub fn env_config(&self) -> env::GameConfig<G> {
        self.env_config_for(self.players)
    }

    /// The env config of a table of `players` seats under the run's rules and rewards.
    pub fn env_config_for(&self, players: u8) -> env::GameConfig<G> {
        let mut rules = self.rules;
        G::set_players(&mut rules, players);
        env::GameConfig { rules, reward: self.reward, event_log: false }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::kessel::Kessel;

    #[test]
    fn mixed_tables_count_each_sizes_learner_share() {
        let c = TrainConfig::<Kessel>::from_toml(
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
        let c = TrainConfig::<Kessel>::default();
        c.validate().unwrap();
        let text = toml::to_string(&c).unwrap();
        assert_eq!(TrainConfig::<Kessel>::from_toml(&text).unwrap(), c);
    }

    #[test]
    fn a_table_size_can_have_its_own_opponent_mix() {
        let c = TrainConfig::<Kessel>::from_toml(
            "table_sizes = [2, 4]\n[opponents]\nexpert = 1.0\n[table_opponents.4]\ngreedy = 0.7\nlatest = 0.3",
        )
        .unwrap();
        assert_eq!(c.opponents_for(2), &IndexMap::from([("expert".to_string(), 1.0)]));
        assert_eq!(c.opponents_for(4), &IndexMap::from([("greedy".to_string(), 0.7), ("latest".to_string(), 0.3)]));
        let text = toml::to_string(&c).unwrap();
        assert_eq!(TrainConfig::<Kessel>::from_toml(&text).unwrap(), c);
        // A config without the table writes none, so older runs' config files are unchanged.
        assert!(!toml::to_string(&TrainConfig::<Kessel>::default()).unwrap().contains("table_opponents"));
        // When every size has its own mix, `opponents` may be empty.
        let c =
            TrainConfig::<Kessel>::from_toml("players = 4\n[opponents]\n[table_opponents.4]\nexpert = 1.0").unwrap();
        assert_eq!(c.opponents_for(4).len(), 1);
    }

    /// The keys of each mix, in the order the config holds them (`IndexMap`'s `==` ignores order).
    fn mix_orders(c: &TrainConfig<Kessel>) -> Vec<Vec<String>> {
        std::iter::once(&c.opponents).chain(c.table_opponents.values()).map(|m| m.keys().cloned().collect()).collect()
    }

    #[test]
    fn mixes_keep_the_order_written_through_a_save_and_a_load() {
        // Neither mix is in name order: the draw follows the file, so the order must survive the
        // copy a run writes into its folder and reads back on `--resume`.
        let c = TrainConfig::<Kessel>::from_toml(
            "table_sizes = [2, 4]\n[opponents]\nsnapshots = 0.1\nrandom = 0.2\nlatest = 0.3\nexpert = 0.4\n\
             [table_opponents.4]\nlatest = 0.5\ngreedy = 0.5",
        )
        .unwrap();
        let written = vec![vec!["snapshots", "random", "latest", "expert"], vec!["latest", "greedy"]];
        assert_eq!(mix_orders(&c), written);
        let again = TrainConfig::<Kessel>::from_toml(&toml::to_string(&c).unwrap()).unwrap();
        assert_eq!(mix_orders(&again), written);
        assert_eq!(mix_orders(&serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap()), written);
    }

    #[test]
    fn errors_name_the_field() {
        let e = TrainConfig::<Kessel>::from_toml("players = 9").unwrap_err().to_string();
        assert!(e.starts_with("players:"), "{e}");
        let e = TrainConfig::<Kessel>::from_toml("learnin_rate = 0.1").unwrap_err().to_string();
        assert!(e.contains("learnin_rate"), "{e}");
        let e = TrainConfig::<Kessel>::from_toml("learning_rate = \"fast\"").unwrap_err().to_string();
        assert!(e.contains("learning_rate"), "{e}");
        let e = TrainConfig::<Kessel>::from_toml("[opponents]\nwizard = 1.0").unwrap_err().to_string();
        assert!(e.starts_with("opponents:") && e.contains("wizard"), "{e}");
        let e = TrainConfig::<Kessel>::from_toml("table_sizes = [2, 5]").unwrap_err().to_string();
        assert!(e.starts_with("table_sizes:"), "{e}");
        let e = TrainConfig::<Kessel>::from_toml("table_sizes = [2, 4]\nlearner_seats = 3").unwrap_err().to_string();
        assert!(e.starts_with("learner_seats:") && e.contains("smallest"), "{e}");
        let e = TrainConfig::<Kessel>::from_toml("snapshot_sampling = \"greedy\"").unwrap_err().to_string();
        assert!(e.contains("snapshot_sampling"), "{e}");
        let e = TrainConfig::<Kessel>::from_toml("hidden = []").unwrap_err().to_string();
        assert!(e.starts_with("hidden:"), "{e}");
        let e = TrainConfig::<Kessel>::from_toml("[rules]\nstarting_chips = 0").unwrap_err().to_string();
        assert!(e.starts_with("rules:") && e.contains("starting_chips"), "{e}");
    }

    #[test]
    fn an_opponent_mix_no_seat_can_use_is_reported() {
        let mix = "\n[opponents]\nlatest = 0.5\nsnapshots = 0.5";
        let all = TrainConfig::<Kessel>::from_toml(&format!("players = 2\nlearner_seats = 2{mix}")).unwrap();
        let notes = all.notes();
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].starts_with("opponents:") && notes[0].contains("self-play"), "{notes:?}");
        let one = TrainConfig::<Kessel>::from_toml(&format!("players = 2\nlearner_seats = 1{mix}")).unwrap();
        assert!(one.notes().is_empty());
        // A mixed size list draws opponents at its larger tables.
        let mixed = TrainConfig::<Kessel>::from_toml(&format!("table_sizes = [2, 4]\nlearner_seats = 2{mix}")).unwrap();
        assert!(mixed.notes().is_empty());
        let bare = TrainConfig::<Kessel>::from_toml("players = 2\nlearner_seats = 2").unwrap();
        assert!(bare.notes().is_empty(), "the default mix was not asked for");
    }
}
