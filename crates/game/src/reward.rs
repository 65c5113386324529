//! Reward conventions: what each seat receives when a game ends.
//!
//! Every mode is zero-sum over the seats at the table and pays only at the final step; every
//! earlier step pays 0 to everyone, so a seat's return is its terminal reward. A game cut off by
//! its length limit pays 0 to everyone: nobody won, and a truncation is not evidence about the
//! policy's strength. Win/loss and placement returns lie in [-1, +1]; [`RewardMode::Payoff`] is
//! the game's own payoff (Leduc hold'em's chips).

use crate::seat::{MAX_PLAYERS, Seat, SeatSet};
use serde::{Deserialize, Serialize};

/// How terminal rewards are computed. Part of an env's config; checkpoints record it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RewardMode {
    /// Win/loss, zero-sum. With `n` players and `k` game winners (K6.4; `k > 1` only when the
    /// last players were eliminated together): each winner gets `+1/k`, each other seat
    /// `-1/(n-k)`. A sole winner thus gets +1 and every other seat `-1/(n-1)`. If every seat won
    /// (possible only when all were eliminated in the same final round and tied), all get 0.
    #[default]
    WinLoss,
    /// Placement by elimination order, zero-sum. Seats are ranked: game winners first (tied),
    /// then the others by the round they were eliminated in, later is better; seats eliminated
    /// in the same round tie. Rank `r` (0-based) is worth `1 - 2r/(n-1)` (+1 for first, -1 for
    /// last, linear between), and tied seats share the mean of the ranks they occupy.
    Placement,
    /// The game's own payoff, as its rules score a game: chips won or lost in Leduc hold'em.
    /// The Sabacc games' payoff is the win itself, so there it equals [`RewardMode::WinLoss`].
    Payoff,
}

impl RewardMode {
    /// Kebab-case name for logs and configs.
    pub fn name(self) -> &'static str {
        match self {
            RewardMode::WinLoss => "win-loss",
            RewardMode::Placement => "placement",
            RewardMode::Payoff => "payoff",
        }
    }
}

/// The rewards of a finished, untruncated game of `n` seats under `mode`, for any game: winners
/// share `+1` (win/loss), or seats are ranked winners first, then by `placement` (higher is
/// better, equal keys tie) — the one formula both games' rewards go through.
pub fn zero_sum_rewards(
    n: usize,
    winners: SeatSet,
    mode: RewardMode,
    placement: impl Fn(Seat) -> u32,
) -> [f32; MAX_PLAYERS] {
    let mut r = [0.0f32; MAX_PLAYERS];
    let k = winners.len();
    if k == 0 || k >= n {
        return r;
    }
    match mode {
        RewardMode::WinLoss | RewardMode::Payoff => {
            let (w, l) = (1.0 / k as f32, -1.0 / (n - k) as f32);
            for (i, x) in r.iter_mut().enumerate().take(n) {
                *x = if winners.contains(Seat(i as u8)) { w } else { l };
            }
        }
        RewardMode::Placement => {
            let key = |i: usize| -> u32 {
                let s = Seat(i as u8);
                if winners.contains(s) { u32::MAX } else { placement(s) }
            };
            let mut order = [0usize; MAX_PLAYERS];
            for (i, o) in order.iter_mut().enumerate().take(n) {
                *o = i;
            }
            order[..n].sort_by_key(|&i| std::cmp::Reverse(key(i)));
            let denom = (n - 1) as f32;
            let mut r0 = 0;
            while r0 < n {
                let kk = key(order[r0]);
                let mut r1 = r0;
                while r1 < n && key(order[r1]) == kk {
                    r1 += 1;
                }
                let mean_rank = (r0 + r1 - 1) as f32 / 2.0;
                let v = 1.0 - 2.0 * mean_rank / denom;
                for &i in &order[r0..r1] {
                    r[i] = v;
                }
                r0 = r1;
            }
        }
    }
    r
}
