//! The game state machine: setup, turns, Shift Tokens, the reveal and settlement.
//!
//! The API follows OpenSpiel: create from (config, seed), ask whose decision it is and which
//! actions are legal, apply one action at a time. All randomness comes from the RNG held in the
//! state, so a clone or a JSON round trip replays identically. Nothing here allocates per
//! decision except the optional event log, whose capacity is reused across rounds.
//!
//! The submodules hold one concern each: [`builder`] (the one way to put a state together),
//! `setup` (new games and rounds), `turns` (legal actions and the turn flow), `tokens` (Shift
//! Token effects), `settlement` (the reveal and K6) and `invariants`.

pub mod builder;
mod invariants;
mod player;
mod settlement;
mod setup;
mod tokens;
mod turns;

pub use crate::pending::Pending;
pub use builder::StateBuilder;
pub use player::{LastAction, Player, TurnAction};
pub use settlement::{Outcome, RevealCursor, SeatResult, Settlement};

use crate::action::{Action, ActionMask};
use crate::card::{CardSet, Family};
use crate::config::RuleConfig;
use crate::event::Event;
use crate::pile::Pile;
use crate::ranking::{RankingMods, Resolved};
use crate::rng::GameRng;
use crate::token::TokenSet;
use game::seat::{MAX_PLAYERS, Seat, SeatSet};
use serde::{Deserialize, Serialize};

/// Marker for "this card is not known" in knowledge tables.
const UNKNOWN: u8 = u8::MAX;

/// The active effects of tokens this round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Effects {
    /// Ranking-relevant Fix tokens.
    pub mods: RankingMods,
    /// Players protected by Immunity until the reveal.
    pub immune: SeatSet,
    /// Players who must Stand on their next action (K5.13). A set, because an embargoed player
    /// may embargo the next one: both Embargoes are pending until the first of them is served.
    pub embargoed: SeatSet,
    /// Free Draw is active for the current action.
    pub free_draw: bool,
}

/// A game of Kessel Sabacc in progress.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub(crate) config: RuleConfig,
    pub(crate) rng: GameRng,
    pub(crate) round: u16,
    pub(crate) turn: u8,
    pub(crate) starter: Seat,
    pub(crate) actor: Seat,
    pub(crate) pending: Pending,
    pub(crate) token_played: bool,
    pub(crate) all_stood: bool,
    pub(crate) players: [Player; MAX_PLAYERS],
    pub(crate) draw: [Pile; 2],
    pub(crate) discard: [Pile; 2],
    pub(crate) effects: Effects,
    pub(crate) removed: u32,
    pub(crate) seen: CardSet,
    pub(crate) known: [[[u8; 2]; MAX_PLAYERS]; MAX_PLAYERS],
    pub(crate) revealed: bool,
    pub(crate) resolved: [[Resolved; 2]; MAX_PLAYERS],
    pub(crate) reveal: RevealCursor,
    pub(crate) settlement: Option<Settlement>,
    pub(crate) winners: SeatSet,
    /// The legal actions at the pending decision, recomputed after every transition.
    pub(crate) mask: ActionMask,
    /// Per seat, its Stand/Draw in turns 1–3 of this round (public history).
    #[serde(default)]
    pub(crate) turn_actions: [[TurnAction; 3]; MAX_PLAYERS],
    /// Per seat, the tokens it played this round (public).
    #[serde(default)]
    pub(crate) round_tokens: [TokenSet; MAX_PLAYERS],
    #[serde(default)]
    pub(crate) log_events: bool,
    #[serde(default)]
    pub(crate) events: Vec<Event>,
}

impl State {
    /// Recomputes the cached legal-action mask; called after anything changes the position.
    pub(crate) fn refresh_mask(&mut self) {
        self.mask = self.compute_mask();
    }

    /// Turns the public event log on or off (on by default). Rollouts that never read the log
    /// switch it off to save time; the rules are unaffected.
    pub fn set_event_logging(&mut self, on: bool) {
        self.log_events = on;
        if !on {
            self.events.clear();
        }
    }

    /// The public event log since the game began (empty when logging is off).
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The rules of this game.
    pub fn config(&self) -> &RuleConfig {
        &self.config
    }

    /// Number of seats.
    pub fn num_players(&self) -> u8 {
        self.config.players
    }

    /// The current round, from 1 (0 during token choice).
    pub fn round(&self) -> u16 {
        self.round
    }

    /// The current turn of the round, 1–3.
    pub fn turn(&self) -> u8 {
        self.turn
    }

    /// The player who started this round.
    pub fn starter(&self) -> Seat {
        self.starter
    }

    /// The pending decision, or the terminal status.
    pub fn pending(&self) -> Pending {
        self.pending
    }

    /// Everything about a seat, hidden cards included. Agents should use [`State::view`] instead.
    pub fn player(&self, seat: Seat) -> &Player {
        &self.players[seat.index()]
    }

    /// The draw pile of a family (hidden order).
    pub fn draw_pile(&self, f: Family) -> &Pile {
        &self.draw[f.index()]
    }

    /// The discard pile of a family (public).
    pub fn discard_pile(&self, f: Family) -> &Pile {
        &self.discard[f.index()]
    }

    /// The token effects in force this round.
    pub fn effects(&self) -> &Effects {
        &self.effects
    }

    /// Chips that have left the game.
    pub fn chips_removed(&self) -> u32 {
        self.removed
    }

    /// Cards turned face up this round (discards and reveals), for card counting.
    pub fn seen_face_up(&self) -> CardSet {
        self.seen
    }

    /// The settlement of the most recent round, if one was settled.
    pub fn last_settlement(&self) -> Option<&Settlement> {
        self.settlement.as_ref()
    }

    /// A seat's public Stand/Draw in turns 1–3 of the current round (index `turn - 1`).
    pub fn turn_actions(&self, seat: Seat) -> [TurnAction; 3] {
        self.turn_actions[seat.index()]
    }

    /// The tokens a seat played in the current round (public).
    pub fn round_tokens(&self, seat: Seat) -> TokenSet {
        self.round_tokens[seat.index()]
    }

    /// Whether a token was already played in the current action.
    pub fn token_played_this_action(&self) -> bool {
        self.token_played
    }

    /// The random source (exposed for serialisation checks and scenarios).
    pub fn rng(&self) -> &GameRng {
        &self.rng
    }

    /// Replaces all future randomness (the rest of this round's reshuffles and dice, every later
    /// round's deal) by the streams of `seed`; scripted dice still to come are dropped. Cards
    /// already placed stay where they are. Counterfactual studies reseed two branches of one
    /// position alike, so both face the same future wherever the rules allow.
    pub fn reseed(&mut self, seed: u64) {
        self.rng = GameRng::at_round(seed, self.round);
    }

    /// Whose decision it is, or `None` when the game is over.
    #[inline]
    pub fn current_player(&self) -> Option<Seat> {
        match self.pending {
            Pending::GameOver | Pending::Truncated => None,
            _ => Some(self.actor),
        }
    }

    /// True when the game is over, won or truncated.
    #[inline]
    pub fn is_terminal(&self) -> bool {
        matches!(self.pending, Pending::GameOver | Pending::Truncated)
    }

    /// True when the round limit ended the game (K6.5).
    pub fn is_truncated(&self) -> bool {
        self.pending == Pending::Truncated
    }

    /// The game's winners (empty until it ends, and for truncated games).
    pub fn winners(&self) -> SeatSet {
        self.winners
    }

    /// A seat's result.
    pub fn outcome(&self, seat: Seat) -> Outcome {
        match self.pending {
            Pending::GameOver => {
                if !self.winners.contains(seat) {
                    Outcome::Lost
                } else if self.winners.len() == 1 {
                    Outcome::Won
                } else {
                    Outcome::SharedWin { of: self.winners.len() as u8 }
                }
            }
            Pending::Truncated => Outcome::Truncated,
            _ => Outcome::InProgress,
        }
    }

    /// Seats still in the game.
    pub fn active_seats(&self) -> SeatSet {
        let mut s = SeatSet::EMPTY;
        for i in 0..self.config.players {
            if !self.players[i as usize].eliminated {
                s.insert(Seat(i));
            }
        }
        s
    }

    /// The legal actions, sorted by index and unique; empty only at terminal states.
    pub fn legal_actions(&self) -> Vec<Action> {
        self.legal_mask().actions().collect()
    }

    /// The legal actions as a bitmask over the 48 action indices.
    #[inline]
    pub fn legal_mask(&self) -> ActionMask {
        self.mask
    }

    #[inline]
    fn log(&mut self, e: Event) {
        if self.log_events {
            self.events.push(e);
        }
    }
}
