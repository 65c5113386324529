//! Seed derivation: every per-game and per-agent seed is a pure function of one base seed, so
//! runs are reproducible and independent of thread count or scheduling.

/// SplitMix64 finaliser: a bijective 64-bit mixer (Steele et al.), used to derive seeds.
#[inline]
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The game seed of episode `episode` of environment `env_index` in a [`crate::VecEnv`] built
/// from `base`: `splitmix64(splitmix64(splitmix64(base) ^ env_index) ^ episode)`.
#[inline]
pub fn episode_seed(base: u64, env_index: u64, episode: u64) -> u64 {
    splitmix64(splitmix64(splitmix64(base) ^ env_index) ^ episode)
}

/// A seed for an auxiliary stream (agent RNGs, seat rotation) derived from a game seed and a
/// stream tag, so it never coincides with the game's own stream.
#[inline]
pub fn derive(seed: u64, stream: u64) -> u64 {
    splitmix64(seed ^ splitmix64(stream.wrapping_add(0xA5A5_5A5A_D00D_F00D)))
}
