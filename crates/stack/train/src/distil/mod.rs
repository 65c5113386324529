//! Expert iteration, one step at a time: a search agent plays, its per-action scores are kept
//! ([`collect()`]), and a network learns to choose as the search chose ([`fit()`]). Guided search
//! (`search:N+CHECKPOINT`) is stronger than its own network at play time; distilling it moves
//! some of that strength into the network, which plays thousands of times faster. A student
//! larger than its starting checkpoint starts from [`widen()`], a wider copy that plays the same.

pub mod collect;
pub mod fit;
pub mod samples;
pub mod widen;

pub use collect::{CollectOptions, CollectSummary, collect};
pub use fit::{FitOptions, FitReport, fit};
pub use widen::{Widened, widen};

/// The metadata of a checkpoint made from one with metadata `meta` (a fit or a widening): the
/// source's rules, table sizes and training step, with this build's time, commit and `notes`;
/// the checksums are left for `save_checkpoint` to fill in.
fn derived_metadata(meta: &policy::CheckpointMetadata, notes: String) -> policy::CheckpointMetadata {
    let mut new_meta = meta.clone();
    new_meta.created_unix =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    new_meta.git_commit = crate::trainer::git_commit();
    new_meta.notes = notes;
    new_meta.checksums.clear();
    new_meta
}

/// The environment spec of the game a checkpoint was trained for (its metadata's `env_id`), so
/// fitting and widening work for every registered game.
fn checkpoint_spec(dir: &std::path::Path) -> anyhow::Result<env::EnvSpec> {
    let meta = policy::read_metadata(dir).map_err(|e| anyhow::anyhow!("--init: {e}"))?;
    let game = games::GameId::from_env_id(&meta.env_id).ok_or_else(|| {
        anyhow::anyhow!(
            "--init: {} is a checkpoint of `{}`, which this build does not play",
            dir.display(),
            meta.env_id
        )
    })?;
    Ok(game.spec())
}
