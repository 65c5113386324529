//! [`EnvSpec`]: the sizes of a game's tensors, read at run time by everything above the env (the
//! network, the trainer's buffers, exports, bindings), so that a new observation version or a new
//! game touches its own crate and its registration, not every crate.

use serde::Serialize;

/// What a policy for one game's environment consumes and produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct EnvSpec {
    /// The game's short name (`kessel`, `classic`).
    pub game: &'static str,
    /// The versioned environment id (`kessel_sabacc_v1`): checkpoints, exports and the Python
    /// package name the environment by it.
    pub id: &'static str,
    /// Version of the observation layout (`docs/observation.md`); checkpoints record it.
    pub obs_version: u32,
    /// Floats per observation.
    pub obs_len: usize,
    /// Size of the flat action space (and of every mask).
    pub num_actions: usize,
    /// Largest table: the length of per-seat arrays such as rewards.
    pub max_players: usize,
}

impl EnvSpec {
    /// 64-bit words per legal-action mask in packed mask buffers.
    pub const fn mask_words(&self) -> usize {
        self.num_actions.div_ceil(64)
    }
}
