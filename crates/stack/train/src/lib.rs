//! Self-play PPO for Kessel Sabacc on burn (CPU by default).
//!
//! * [`config`]: the TOML experiment config, validated with errors that name the field.
//! * [`rollout`]: lockstep games, the learner and the opponent pool, per-seat decision chains.
//! * [`gae`]: advantages over one seat's own decisions.
//! * [`ppo`]: the clipped-surrogate update with masks re-applied.
//! * [`evaluate`]: periodic win rates against heuristic bots.
//! * [`metrics`]: TensorBoard + CSV scalars with CleanRL's names.
//! * [`trainer`]: the loop, checkpoints and resume.
//! * [`run_lock`]: one trainer per run folder.
//! * [`interrupt`]: Ctrl-C / SIGTERM write a checkpoint before the trainer stops.
//! * [`distil`]: expert iteration — a search agent's choices collected, a network fitted to them.
//! * [`progress_display`]: a bar with an ETA on a terminal, plain lines otherwise.
//! * [`bench`](mod@bench): training throughput (`sabacc bench train`).

pub mod bench;
pub mod config;
pub mod distil;
pub mod evaluate;
pub mod exploit;
pub mod gae;
pub mod interrupt;
pub mod metrics;
pub mod ppo;
pub mod progress_display;
pub mod rollout;
pub mod run_lock;
pub mod trainer;

pub use config::TrainConfig;
pub use rollout::BotFactory;
pub use trainer::{TrainOptions, TrainSummary, train};
