//! The game state machine: hands, turns and their four phases, the call and the pots.
//!
//! The API follows OpenSpiel: create from (config, seed), ask whose decision it is and which
//! actions are legal, apply one action at a time. All randomness comes from the streams held in
//! the state, so a clone or a JSON round trip replays identically. Nothing here allocates per
//! decision except the optional event log, whose capacity is reused.
//!
//! The submodules hold one concern each: [`builder`] (the one way to put a state together),
//! `hand` (a new hand: leaving, antes, the deal), `turn` (legal actions and the four phases),
//! `showdown` (the call, sudden demise, pots and penalties) and `invariants`.

pub mod builder;
mod hand;
mod invariants;
mod showdown;
mod turn;

pub use builder::{InvalidPosition, StateBuilder};
pub use showdown::{HandClass, HandEnd, HandResult, SeatResult};

use crate::action::{Action, ActionMask};
use crate::card::{Card, CardSet, Hand, Pile};
use crate::config::RuleConfig;
use crate::event::Event;
use crate::rng::GameRng;
use game::seat::{MAX_PLAYERS, Seat, SeatSet};
use serde::{Deserialize, Serialize};

/// The decision the game waits for (C8), or that it is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Pending {
    /// The turn player checks, bets or folds (C3.1).
    Bet,
    /// A player answers: match, raise or fold facing a bet; stay or fold when none stands.
    Answer,
    /// A player may call the hand (C3.5).
    Call,
    /// The turn player passes, draws or exchanges (C3.6).
    Draw,
    /// The turn player drops a card after an exchange.
    Drop,
    /// The game ended (C5.2).
    GameOver,
    /// The hand limit was reached (C5.2).
    Truncated,
}

/// A seat's result in a finished (or unfinished) game (C5.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// Still being played.
    InProgress,
    /// Sole winner.
    Won,
    /// Winner together with others: nobody was left with credits.
    SharedWin {
        /// How many share the win.
        of: u8,
    },
    /// Lost.
    Lost,
    /// The hand limit ended the game unfinished.
    Truncated,
}

/// The cards a player lost and got in the latest shift of the hand (C3.4): private to them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ShiftSwap {
    /// The card taken from the hand.
    pub lost: Card,
    /// The card received (placed last); it may be the lost one.
    pub got: Card,
}

/// Everything about one seat, hidden cards included.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Player {
    /// Cards in the order received; empty once folded or out of the game.
    pub hand: Hand,
    /// Credits in front of the player.
    pub credits: u32,
    /// Still in the game (C5.1).
    pub in_game: bool,
    /// The hand at whose end the player left the game (C5.1); 0 while in it, or when the
    /// position was set up with the player already gone.
    #[serde(default)]
    pub left_in_hand: u32,
    /// Folded this hand.
    pub folded: bool,
    /// Turns completed this hand, skipped ones included (C3.5).
    pub completed_turns: u16,
    /// Credits put in during the current betting phase.
    pub contributed: u32,
    /// Credits at the start of the hand, before the antes (for per-hand rewards).
    pub hand_start_credits: u32,
    /// The latest shift of this hand, if the player took part.
    pub shift: Option<ShiftSwap>,
    /// Cards this player put out of play this hand (its drops, its folded hand): hidden from the
    /// table but known to the player, so its view can exclude them from what might be dealt.
    #[serde(default, skip_serializing_if = "crate::card::no_cards")]
    pub put_out: CardSet,
}

/// The betting phase in progress (C3.1, C3.2): public.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Betting {
    /// What every player still in must have put in this phase to stay (0: no bet stands).
    pub to_match: u32,
    /// Raises made this phase.
    pub raises: u8,
    /// The highest the amount to match may go (C3.2; `u32::MAX` without a cap).
    pub cap: u32,
    /// Players still to answer, served clockwise from the actor.
    pub waiting: SeatSet,
}

/// A game of classic Sabacc in progress.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub(crate) config: RuleConfig,
    pub(crate) rng: GameRng,
    /// Hands started so far; the current hand's number.
    pub(crate) hand_no: u32,
    pub(crate) round: u16,
    pub(crate) dealer: Seat,
    pub(crate) turn_seat: Seat,
    pub(crate) actor: Seat,
    pub(crate) pending: Pending,
    pub(crate) players: [Player; MAX_PLAYERS],
    /// Players in the game and not folded.
    pub(crate) live: SeatSet,
    /// Players dealt into the current (or last) hand.
    pub(crate) hand_players: SeatSet,
    /// Undealt cards; the top is the last.
    pub(crate) deck: Pile,
    /// Cards out of play this hand: dropped cards and folded hands, face down.
    pub(crate) out: Pile,
    pub(crate) hand_pot: u32,
    pub(crate) sabacc_pot: u32,
    pub(crate) betting: Betting,
    /// The turn player folded in this turn: they still roll and calls run, but they do not draw.
    pub(crate) turn_folded: bool,
    /// This turn's die, once rolled.
    pub(crate) die: Option<u8>,
    pub(crate) last_result: Option<HandResult>,
    pub(crate) winners: SeatSet,
    /// The legal actions at the pending decision, recomputed after every transition.
    pub(crate) mask: ActionMask,
    pub(crate) log_events: bool,
    pub(crate) events: Vec<Event>,
}

impl State {
    /// A new game under `config`, all randomness drawn from `seed`.
    pub fn new(config: RuleConfig, seed: u64) -> Result<State, crate::ConfigError> {
        Ok(StateBuilder::new(config, seed)?.new_game())
    }

    /// Recomputes the cached legal-action mask; called after anything changes the position.
    #[inline]
    pub(crate) fn refresh_mask(&mut self) {
        self.mask = self.compute_mask();
    }

    #[inline]
    pub(crate) fn log(&mut self, e: Event) {
        if self.log_events {
            self.events.push(e);
        }
    }

    /// Turns the event log on or off (on by default). Rollouts that never read it switch it off.
    pub fn set_event_logging(&mut self, on: bool) {
        self.log_events = on;
        if !on {
            self.events.clear();
        }
    }

    /// The full event log, private cards included: for replays and tests, never for agents.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The event log as `viewer` sees it: other players' private cards removed (C6).
    pub fn events_for(&self, viewer: Seat) -> impl Iterator<Item = Event> + '_ {
        self.events.iter().map(move |e| e.seen_by(Some(viewer)))
    }

    /// The event log as the table sees it: no private card at all.
    pub fn public_events(&self) -> impl Iterator<Item = Event> + '_ {
        self.events.iter().map(|e| e.seen_by(None))
    }

    /// The rules of this game.
    pub fn config(&self) -> &RuleConfig {
        &self.config
    }

    /// Number of seats.
    pub fn num_players(&self) -> u8 {
        self.config.players
    }

    /// The current hand's number, from 1.
    pub fn hand_number(&self) -> u32 {
        self.hand_no
    }

    /// The current round of the hand, from 1.
    pub fn round(&self) -> u16 {
        self.round
    }

    /// The dealer of the current hand.
    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    /// The seat whose turn it is.
    pub fn turn_seat(&self) -> Seat {
        self.turn_seat
    }

    /// The pending decision, or the terminal status.
    pub fn pending(&self) -> Pending {
        self.pending
    }

    /// Everything about a seat, hidden cards included. Agents use [`State::view`] instead.
    pub fn player(&self, seat: Seat) -> &Player {
        &self.players[seat.index()]
    }

    /// Players in the game and not folded this hand.
    pub fn live(&self) -> SeatSet {
        self.live
    }

    /// Players dealt into the current hand (or the last one, once the game is over).
    pub fn hand_players(&self) -> SeatSet {
        self.hand_players
    }

    /// The undealt cards, top last (hidden order).
    pub fn deck(&self) -> &Pile {
        &self.deck
    }

    /// Cards out of play this hand (hidden).
    pub fn out_of_play(&self) -> &Pile {
        &self.out
    }

    /// Credits in the hand pot.
    pub fn hand_pot(&self) -> u32 {
        self.hand_pot
    }

    /// Credits in the sabacc pot.
    pub fn sabacc_pot(&self) -> u32 {
        self.sabacc_pot
    }

    /// The betting phase in progress.
    pub fn betting(&self) -> &Betting {
        &self.betting
    }

    /// Whether the turn player folded in this turn.
    pub fn turn_folded(&self) -> bool {
        self.turn_folded
    }

    /// This turn's die, once rolled.
    pub fn die(&self) -> Option<u8> {
        self.die
    }

    /// The result of the most recent finished hand.
    pub fn last_result(&self) -> Option<&HandResult> {
        self.last_result.as_ref()
    }

    /// The random source.
    pub fn rng(&self) -> &GameRng {
        &self.rng
    }

    /// Replaces all future randomness by the streams of `seed` at the current hand; scripted
    /// dice still to come are dropped. Cards already placed stay where they are.
    pub fn reseed(&mut self, seed: u64) {
        self.rng = GameRng::at_hand(seed, self.hand_no);
    }

    /// Whose decision it is, or `None` when the game is over.
    #[inline]
    pub fn current_player(&self) -> Option<Seat> {
        (!self.is_terminal()).then_some(self.actor)
    }

    /// True when the game is over, won or truncated.
    #[inline]
    pub fn is_terminal(&self) -> bool {
        matches!(self.pending, Pending::GameOver | Pending::Truncated)
    }

    /// True when the hand limit ended the game.
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
            Pending::GameOver if !self.winners.contains(seat) => Outcome::Lost,
            Pending::GameOver if self.winners.len() == 1 => Outcome::Won,
            Pending::GameOver => Outcome::SharedWin { of: self.winners.len() as u8 },
            Pending::Truncated => Outcome::Truncated,
            _ => Outcome::InProgress,
        }
    }

    /// Seats still in the game.
    pub fn in_game(&self) -> SeatSet {
        (0..self.config.players).map(Seat).filter(|s| self.players[s.index()].in_game).collect()
    }

    /// Whether calls are open (C3.5): every seat dealt into the hand has completed
    /// `min_turns_before_call` turns.
    #[inline]
    pub fn calls_open(&self) -> bool {
        let min = self.config.effective_min_turns_before_call();
        self.hand_players.iter().all(|s| self.players[s.index()].completed_turns >= min)
    }

    /// The legal actions, sorted by index; empty only at terminal states.
    pub fn legal_actions(&self) -> Vec<Action> {
        self.mask.actions().collect()
    }

    /// The legal actions as a bitmask over the action indices.
    #[inline]
    pub fn legal_mask(&self) -> ActionMask {
        self.mask
    }
}
