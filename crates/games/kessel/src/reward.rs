//! Kessel's rewards: the terminal rewards of the interface's conventions (placement ranks by
//! elimination round) and the chip shares the trainer's reward shaping uses as its potential.

use crate::{PlayerView, State};
use game::{MAX_PLAYERS, RewardMode, Seat, zero_sum_rewards};

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
