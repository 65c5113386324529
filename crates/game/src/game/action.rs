//! A game's actions and legal-action sets, as the generic stack sees them: [`GameAction`] numbers
//! a game's actions `0..COUNT`; [`LegalMask`] is what a mask answers (every game's mask is a
//! [`crate::ActionMask`], which implements it in `mask.rs`).

use serde::Serialize;
use std::fmt::Debug;

/// One of a game's flat actions, numbered `0..num_actions`.
pub trait GameAction: Copy + Debug + PartialEq + Serialize + Send + Sync + 'static {
    /// Size of the flat action space.
    const COUNT: usize;
    /// The action's index in the flat action space.
    fn index(self) -> usize;
    /// The action with this index, `None` outside `0..num_actions`.
    fn from_index(index: usize) -> Option<Self>;
}

/// A set of legal action indices: every game's is an [`ActionMask`](crate::ActionMask) of its actions, in as many
/// 64-bit words as its action space needs; buffers outside the env hold masks as
/// [`EnvSpec::mask_words`](crate::EnvSpec::mask_words) words each, so no width is baked into the stack above.
pub trait LegalMask: Copy + Debug + Default + PartialEq + Send + Sync + 'static {
    /// Whether the action with this index is legal.
    fn contains_index(self, index: usize) -> bool;
    /// Number of legal actions.
    fn count(self) -> usize;
    /// True when no action is legal (only once a game is over).
    fn is_empty(self) -> bool;
    /// The `n`-th legal index in increasing order (uniform sampling without allocation).
    fn nth_index(self, n: usize) -> Option<usize>;
    /// The legal indices in increasing order.
    fn index_list(self) -> Vec<usize>;
    /// Writes the mask as 64-bit words, bit `i % 64` of word `i / 64` for index `i`.
    fn write_words(self, out: &mut [u64]);
    /// Writes one bool per action index into `out` (length `num_actions`).
    fn write_bools(self, out: &mut [bool]);
    /// Marks the action with this index illegal (restricted legal sets: a study that forbids a
    /// play, a front-end that offers fewer choices).
    fn without_index(self, index: usize) -> Self;
}
