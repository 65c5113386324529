//! [`EnvSpec`]: the sizes of the environment's tensors, read at run time by everything above the
//! env (the network, the trainer's buffers, exports, bindings), so that a second observation
//! version or a second game touches the env and its registration, not every crate.

use crate::obs::{OBS_LEN, OBS_VERSION};
use engine::{MAX_PLAYERS, NUM_ACTIONS};
use serde::{Deserialize, Serialize};

/// What a policy for this environment consumes and produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnvSpec {
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
    /// The spec of Kessel Sabacc's environment as this build encodes it.
    pub const KESSEL: EnvSpec =
        EnvSpec { obs_version: OBS_VERSION, obs_len: OBS_LEN, num_actions: NUM_ACTIONS, max_players: MAX_PLAYERS };
}
