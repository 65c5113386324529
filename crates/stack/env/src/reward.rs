//! Reward conventions: what each seat receives when a game ends.
//!
//! Both modes are zero-sum over the seats at the table and pay only at the final step; every
//! earlier step pays 0 to everyone, so a seat's return is its terminal reward. A game cut off by
//! the round limit (K6.5) pays 0 to everyone in both modes: nobody won, and a truncation is not
//! evidence about the policy's strength. Returns lie in [-1, +1].

use kessel::{MAX_PLAYERS, PlayerView, Seat, SeatSet, State};
use serde::{Deserialize, Serialize};

/// How terminal rewards are computed. Part of [`crate::EnvConfig`]; record it with checkpoints.
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
}

impl RewardMode {
    /// Kebab-case name for logs and configs.
    pub fn name(self) -> &'static str {
        match self {
            RewardMode::WinLoss => "win-loss",
            RewardMode::Placement => "placement",
        }
    }
}

/// The reward of every seat at a terminal state (0 for padding seats beyond the table, and all
/// 0 for non-terminal or truncated states).
pub fn terminal_rewards(state: &State, mode: RewardMode) -> [f32; MAX_PLAYERS] {
    if !state.is_terminal() || state.is_truncated() {
        return [0.0; MAX_PLAYERS];
    }
    // Placement: winners first, then seats still in the game, then later elimination first.
    let placement = |s: Seat| {
        let p = state.player(s);
        if !p.eliminated { u32::MAX - 1 } else { u32::from(p.eliminated_in_round) }
    };
    zero_sum_rewards(state.num_players() as usize, state.winners(), mode, placement)
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
        RewardMode::WinLoss => {
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

/// Every seat's share of the chips still on the table (stocks and hand pots): the potential of
/// the trainer's chip-share shaping, and what a critic trained with it must have added back.
/// Public information only; all zeros once no chips are left.
pub fn chip_shares(state: &State) -> [f32; MAX_PLAYERS] {
    let n = usize::from(state.num_players());
    let chips = |s: usize| {
        let p = state.player(Seat(s as u8));
        u32::from(p.stock.0) + u32::from(p.pot.0)
    };
    let mut out = [0.0; MAX_PLAYERS];
    for (s, share) in shares(n, chips).enumerate() {
        out[s] = share;
    }
    out
}

/// The viewer's entry of [`chip_shares`], from its own view (the numbers are public, so every
/// seat's view gives the same shares as the state).
pub fn view_chip_share(view: &PlayerView) -> f32 {
    let n = usize::from(view.config.players);
    let chips = |s: usize| u32::from(view.seats[s].stock.0) + u32::from(view.seats[s].pot.0);
    shares(n, chips).nth(view.viewer.index()).unwrap_or(0.0)
}

fn shares(n: usize, chips: impl Fn(usize) -> u32) -> impl Iterator<Item = f32> {
    let total: u32 = (0..n).map(&chips).sum();
    (0..n).map(move |s| if total > 0 { chips(s) as f32 / total as f32 } else { 0.0 })
}
