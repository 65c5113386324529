//! What one player may see (C6).
//!
//! Bots and observation encoders take a [`PlayerView`], never the full state, so they cannot
//! cheat by construction: it holds the viewer's own cards and the public position, never
//! another player's hidden cards, the out-of-play cards or the deck order.

use crate::action::ActionMask;
use crate::card::{CardSet, Hand};
use crate::config::RuleConfig;
use crate::state::{Betting, HandResult, Pending, ShiftSwap, State};
use game::seat::{MAX_PLAYERS, Seat, SeatSet};
use serde::{Deserialize, Serialize};

/// What the viewer knows of one seat: all public.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SeatView {
    /// Credits in front of the seat.
    pub credits: u32,
    /// Still in the game.
    pub in_game: bool,
    /// Folded this hand.
    pub folded: bool,
    /// Number of cards held.
    pub hand_len: u8,
    /// Turns completed this hand.
    pub completed_turns: u16,
    /// Credits put in during the current betting phase.
    pub contributed: u32,
}

/// Everything one player may see (C6).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerView {
    /// Whose view this is.
    pub viewer: Seat,
    /// The rules (public).
    pub config: RuleConfig,
    /// Hand number.
    pub hand_no: u32,
    /// Round of the hand.
    pub round: u16,
    /// The dealer.
    pub dealer: Seat,
    /// Whose turn it is.
    pub turn_seat: Seat,
    /// Whose decision it is (`None` once the game is over).
    pub actor: Option<Seat>,
    /// The pending decision.
    pub pending: Pending,
    /// The legal actions of the player to act.
    pub legal: ActionMask,
    /// The viewer's own cards, in hand order.
    pub hand: Hand,
    /// Per seat, padded to [`MAX_PLAYERS`].
    pub seats: [SeatView; MAX_PLAYERS],
    /// Credits in the hand pot.
    pub hand_pot: u32,
    /// Credits in the sabacc pot.
    pub sabacc_pot: u32,
    /// The betting phase: amount to match, raises used, cap, players still to answer.
    pub betting: Betting,
    /// The turn player folded in this turn.
    pub turn_folded: bool,
    /// This turn's die, once rolled.
    pub die: Option<u8>,
    /// Whether calls are open.
    pub calls_open: bool,
    /// Cards in the deck.
    pub deck_len: u8,
    /// Cards out of play this hand: dropped cards and folded hands (whose sizes were public).
    pub out_len: u8,
    /// The cards the viewer lost and got in the hand's latest shift.
    pub shift: Option<ShiftSwap>,
    /// The cards the viewer put out of play this hand (its drops, its folded hand): part of
    /// `out_len`, known to the viewer alone.
    #[serde(default, skip_serializing_if = "crate::card::no_cards")]
    pub put_out: CardSet,
    /// The last finished hand, reveals included.
    pub last_result: Option<HandResult>,
    /// The game's winners once it is over.
    pub winners: SeatSet,
}

impl PlayerView {
    /// Whether it is the viewer's decision.
    pub fn is_my_turn(&self) -> bool {
        self.actor == Some(self.viewer)
    }
}

impl State {
    /// The view of `viewer` (C6). Inlined: bots and the play server take one at every decision,
    /// and built in the caller's frame the view is not copied again on return. (Observations do
    /// not go through it: `State::observe` leaves the last hand's result out of its view.)
    ///
    /// # Panics
    /// If `viewer` is not at the table.
    #[inline]
    pub fn view(&self, viewer: Seat) -> PlayerView {
        PlayerView { last_result: self.last_result, ..self.view_without_result(viewer) }
    }

    /// Everything of `viewer`'s view but the last hand's result (left `None`): what
    /// `State::observe` encodes, with the state's own result beside it.
    #[inline(always)]
    pub(crate) fn view_without_result(&self, viewer: Seat) -> PlayerView {
        let n = self.config.players as usize;
        assert!(viewer.index() < n, "{viewer} is not at this {n}-player table");
        let mut seats = [SeatView::default(); MAX_PLAYERS];
        for (i, sv) in seats.iter_mut().enumerate().take(n) {
            let p = &self.players[i];
            *sv = SeatView {
                credits: p.credits,
                in_game: p.in_game,
                folded: p.folded,
                hand_len: p.hand.len() as u8,
                completed_turns: p.completed_turns,
                contributed: p.contributed,
            };
        }
        let me = &self.players[viewer.index()];
        PlayerView {
            viewer,
            config: self.config,
            hand_no: self.hand_no,
            round: self.round,
            dealer: self.dealer,
            turn_seat: self.turn_seat,
            actor: self.current_player(),
            pending: self.pending,
            legal: self.mask,
            hand: me.hand,
            seats,
            hand_pot: self.hand_pot,
            sabacc_pot: self.sabacc_pot,
            betting: self.betting,
            turn_folded: self.turn_folded,
            die: self.die,
            calls_open: self.calls_open(),
            deck_len: self.deck.len() as u8,
            out_len: self.out.len() as u8,
            shift: me.shift,
            put_out: me.put_out,
            last_result: None,
            winners: self.winners,
        }
    }
}
