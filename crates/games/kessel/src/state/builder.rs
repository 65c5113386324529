//! The one way to put a [`State`] together.
//!
//! Three callers build states: [`State::new`] (a new game, dealt by the rules), scenarios (a
//! position described in JSON) and sampling (a position consistent with one player's view).
//! They all start from [`StateBuilder::new`], which owns the only full literal of the state's
//! fields, and the last two finish with [`StateBuilder::build`], which derives the cached legal
//! mask and checks every invariant in one place ([`State::check_invariants`]). A new game is not
//! checked again: its position comes from the rules' own transitions, which the test suite and
//! `sabacc simulate` check after every action.

use super::{Effects, LastAction, Player, RevealCursor, State, TurnAction, UNKNOWN};
use crate::action::ActionMask;
use crate::card::{Card, CardSet};
use crate::chips::Chips;
use crate::config::{FirstStarter, RuleConfig, TokenAssignment};
use crate::error::ConfigError;
use crate::pending::Pending;
use crate::pile::Pile;
use crate::ranking::Resolved;
use crate::rng::GameRng;
use crate::token::TokenSet;
use game::seat::{MAX_PLAYERS, Seat, SeatSet};
use thiserror::Error;

/// A position that breaks an invariant of the rules (a card placed twice, chips created, no
/// legal action at a pending decision, …): the message says which.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct InvalidPosition(pub String);

/// Where the game stands: round, turn, who started and who acts, and what they decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// Round number, from 1 (0 only while tokens are being chosen).
    pub round: u16,
    /// Turn of the round, 1–3.
    pub turn: u8,
    /// The seat that started the round.
    pub starter: Seat,
    /// The seat whose decision it is.
    pub actor: Seat,
    /// The decision.
    pub pending: Pending,
    /// A token was already played in the current action.
    pub token_played: bool,
    /// Every seat that acted so far this turn stood (K3.6).
    pub all_stood: bool,
}

/// A state under construction; see the module documentation.
#[derive(Clone, Debug)]
pub struct StateBuilder {
    state: State,
}

impl StateBuilder {
    /// A table under `config` before anything is dealt: every seat holds `starting_chips` and no
    /// token, seats beyond `config.players` are out, the random stream starts from `seed`.
    /// Inlined, like `StateBuilder::new_game`, so that a new game is built in place.
    #[inline]
    pub fn new(config: RuleConfig, seed: u64) -> Result<StateBuilder, ConfigError> {
        config.validate()?;
        let blank = Player {
            hand: [Card::from_id(0).expect("card 0"), Card::from_id(22).expect("card 22")],
            stock: Chips(config.starting_chips),
            pot: Chips::ZERO,
            lost: Chips::ZERO,
            eliminated: false,
            eliminated_in_round: 0,
            tokens: TokenSet::EMPTY,
            spent: TokenSet::EMPTY,
            last_action: LastAction::None,
            stood_turn: 0,
        };
        let mut players = [blank; MAX_PLAYERS];
        for p in players.iter_mut().skip(config.players as usize) {
            p.stock = Chips::ZERO;
            p.eliminated = true;
        }
        Ok(StateBuilder {
            state: State {
                config,
                rng: GameRng::from_seed(seed),
                round: 0,
                turn: 0,
                starter: Seat(0),
                actor: Seat(0),
                pending: Pending::Act,
                token_played: false,
                all_stood: true,
                players,
                draw: [Pile::default(); 2],
                discard: [Pile::default(); 2],
                effects: Effects::default(),
                removed: 0,
                seen: CardSet::default(),
                known: [[[UNKNOWN; 2]; MAX_PLAYERS]; MAX_PLAYERS],
                revealed: false,
                resolved: [[Resolved::Sylop; 2]; MAX_PLAYERS],
                reveal: RevealCursor::default(),
                settlement: None,
                winners: SeatSet::EMPTY,
                mask: ActionMask::default(),
                turn_actions: [[TurnAction::None; 3]; MAX_PLAYERS],
                round_tokens: [TokenSet::EMPTY; MAX_PLAYERS],
                log_events: true,
                events: Vec::new(),
            },
        })
    }

    /// Deals a new game (K2): tokens, the first starter, then token choice or the first round.
    #[inline]
    pub(crate) fn new_game(self) -> State {
        let mut s = self.state;
        let config = s.config;
        s.assign_tokens();
        if config.first_starter == FirstStarter::Random {
            s.starter = Seat(s.rng.below(config.players as u32) as u8);
        }
        if config.token_assignment == TokenAssignment::Choose && config.tokens_per_player > 0 {
            s.actor = Seat(0);
            s.pending = Pending::ChooseToken;
        } else {
            s.start_round();
        }
        s.refresh_mask();
        s
    }

    /// Sets round, turn, starter, actor and the pending decision.
    pub fn position(&mut self, p: Position) -> &mut Self {
        let s = &mut self.state;
        (s.round, s.turn, s.starter, s.actor, s.pending) = (p.round, p.turn, p.starter, p.actor, p.pending);
        (s.token_played, s.all_stood) = (p.token_played, p.all_stood);
        self
    }

    /// Sets one seat's cards, chips, tokens and most recent Stand/Draw.
    pub fn player(&mut self, seat: Seat, player: Player) -> &mut Self {
        self.state.players[seat.index()] = player;
        self
    }

    /// Sets one seat's public history this round: its Stand/Draw per turn and the tokens it
    /// played (K7), which observations show.
    pub fn history(&mut self, seat: Seat, turn_actions: [TurnAction; 3], round_tokens: TokenSet) -> &mut Self {
        self.state.turn_actions[seat.index()] = turn_actions;
        self.state.round_tokens[seat.index()] = round_tokens;
        self
    }

    /// Sets the draw and discard piles (Sand, Blood) and marks every discarded card as seen.
    pub fn piles(&mut self, draw: [Pile; 2], discard: [Pile; 2]) -> &mut Self {
        let s = &mut self.state;
        (s.draw, s.discard) = (draw, discard);
        for pile in &discard {
            for &c in pile.as_slice() {
                s.seen.insert(c);
            }
        }
        self
    }

    /// Sets the token effects in force.
    pub fn effects(&mut self, effects: Effects) -> &mut Self {
        self.state.effects = effects;
        self
    }

    /// Sets the number of chips that have left the game.
    pub fn chips_removed(&mut self, removed: u32) -> &mut Self {
        self.state.removed = removed;
        self
    }

    /// Replaces the random stream.
    pub fn rng(&mut self, rng: GameRng) -> &mut Self {
        self.state.rng = rng;
        self
    }

    /// Turns the event log on or off.
    pub fn event_logging(&mut self, on: bool) -> &mut Self {
        self.state.set_event_logging(on);
        self
    }

    /// The state under construction, for the parts only sampling sets (knowledge tables, the
    /// reveal in progress, the last settlement).
    pub(crate) fn state_mut(&mut self) -> &mut State {
        &mut self.state
    }

    /// The state under construction, for reading (e.g. the next active seat).
    pub fn peek(&self) -> &State {
        &self.state
    }

    /// Derives the legal-action mask and checks every invariant (cards, chips, Embargo, a legal
    /// action at a pending decision).
    pub fn build(self) -> Result<State, InvalidPosition> {
        let mut s = self.state;
        s.refresh_mask();
        s.check_invariants().map_err(InvalidPosition)?;
        Ok(s)
    }
}
