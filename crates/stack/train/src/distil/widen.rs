//! `sabacc distil widen`: a checkpoint copied into a wider network that plays exactly as it did
//! ([`policy::widen`]), the starting point for training a larger student (by PPO with
//! `init_from`, or by `distil fit --init`) without relearning the policy first.

use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};

/// What a widening wrote.
#[derive(Clone, Debug)]
pub struct Widened {
    /// The source's hidden widths.
    pub from: Vec<usize>,
    /// The new checkpoint's hidden widths.
    pub to: Vec<usize>,
    /// Parameters before and after.
    pub parameters: (u64, u64),
    /// The new checkpoint.
    pub checkpoint: PathBuf,
}

/// Writes `init` widened to hidden widths `hidden` as the new checkpoint `out` (which must not
/// exist); `seed` draws the new units' incoming weights. The metadata is the source's (rules,
/// table sizes, shaping, training step) with the wider network and a note of the source.
pub fn widen(init: &Path, hidden: &[usize], out: &Path, seed: u64) -> Result<Widened> {
    if out.exists() {
        bail!("{} already exists; choose a new --out folder (widening never overwrites a checkpoint)", out.display());
    }
    let device = policy::cpu_device();
    let spec = super::checkpoint_spec(init)?;
    let (model, meta) = policy::load_checkpoint(init, &policy::ExpectedSpec::from(spec), &device)
        .with_context(|| format!("--init: cannot load {}", init.display()))?;
    let wide = policy::widen(&model, hidden, &device, seed).with_context(|| format!("--hidden: {}", init.display()))?;
    let mut new_meta = super::derived_metadata(
        &meta,
        format!(
            "{} widened from {:?} to {:?} hidden units by `sabacc distil widen` (seed {seed}); plays as it did",
            init.display(),
            meta.network.hidden,
            hidden
        ),
    );
    new_meta.network = wide.config().clone();
    policy::save_checkpoint(out, &wide, &new_meta, None)
        .with_context(|| format!("cannot write the checkpoint {}", out.display()))?;
    let count = |c: &policy::PolicyConfig| policy::parameter_count(c).unwrap_or(0);
    Ok(Widened {
        from: meta.network.hidden.clone(),
        to: hidden.to_vec(),
        parameters: (count(&meta.network), count(&new_meta.network)),
        checkpoint: out.to_path_buf(),
    })
}
