//! What one seat may see of a hand.
//!
//! Agents, encoders, information-state keys and exploitability all work from a [`PlayerView`]
//! only, so none of them can use the opponent's private card before it is shown.

use crate::action::{Action, ActionMask};
use crate::betting::Betting;
use crate::card::Card;
use crate::config::PLAYERS;
use crate::config::{ROUNDS, RuleConfig};
use game::Seat;
use serde::{Deserialize, Serialize};

/// One seat's view of a hand.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct PlayerView {
    /// The seat whose view this is.
    pub seat: Seat,
    /// The rules (public).
    pub rules: RuleConfig,
    /// The viewer's private card.
    pub own_card: Card,
    /// The public card, once round 2 has begun.
    pub public_card: Option<Card>,
    /// The opponent's private card, only once it was shown at a showdown (never after a fold).
    pub opponent_card: Option<Card>,
    /// The betting of round 1 and round 2 (both seats' actions, in order; player 0 first).
    pub history: [Vec<Action>; ROUNDS],
    /// Chips in the pot.
    pub pot: u32,
    /// Chips each seat has put in, by seat index.
    pub contributions: [u32; PLAYERS],
    /// The seat to act, `None` once the hand is over.
    pub to_act: Option<Seat>,
    /// The betting round: 1 or 2.
    pub round: u8,
    /// Chips won or lost by seat, once the hand is over.
    pub returns: Option<[f64; PLAYERS]>,
}

impl PlayerView {
    /// True once the hand is over.
    pub fn is_terminal(&self) -> bool {
        self.to_act.is_none()
    }

    /// Whether the viewer is the one to act.
    pub fn is_my_turn(&self) -> bool {
        self.to_act == Some(self.seat)
    }

    /// The current round's actions.
    pub fn round_history(&self) -> &[Action] {
        &self.history[usize::from(self.round.clamp(1, 2) - 1)]
    }

    /// The legal actions of the player to act (empty once the hand is over), from the public
    /// betting alone.
    pub fn legal_mask(&self) -> ActionMask {
        if self.is_terminal() {
            return ActionMask::default();
        }
        Betting::replay(&self.rules, self.round_history()).map(|b| b.legal(&self.rules)).unwrap_or_default()
    }
}
