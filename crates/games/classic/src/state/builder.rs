//! The one way to put a [`State`] together.
//!
//! [`State::new`] (a game dealt by the rules) and scenarios (a position described in JSON) both
//! start from [`StateBuilder::new`], which owns the only full literal of the state's fields.
//! Scenarios finish with [`StateBuilder::build`], which derives the legal mask and checks every
//! invariant in one place ([`State::check_invariants`]).

use super::{Betting, Pending, Player, State};
use crate::action::ActionMask;
use crate::card::{Hand, Pile};
use crate::config::ConfigError;
use crate::config::RuleConfig;
use crate::rng::GameRng;
use game::seat::{MAX_PLAYERS, Seat, SeatSet};
use game::stream::DiceScript;
use thiserror::Error;

/// A position that breaks an invariant of the rules: the message says which.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct InvalidPosition(pub String);

/// Where a hand stands: which hand and round, who deals, whose turn, who decides what.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// Hand number, from 1.
    pub hand: u32,
    /// Round of the hand, from 1.
    pub round: u16,
    /// The dealer.
    pub dealer: Seat,
    /// Whose turn it is.
    pub turn_seat: Seat,
    /// Whose decision it is.
    pub actor: Seat,
    /// The decision.
    pub pending: Pending,
    /// This turn's die, if rolled.
    pub die: Option<u8>,
}

/// A state under construction; see the module documentation.
#[derive(Clone, Debug)]
pub struct StateBuilder {
    state: State,
}

impl StateBuilder {
    /// A table under `config` before anything is dealt: every seat holds `starting_credits`,
    /// seats beyond `config.players` are out, the random streams start from `seed`.
    pub fn new(config: RuleConfig, seed: u64) -> Result<StateBuilder, ConfigError> {
        config.validate()?;
        let blank = Player {
            hand: Hand::default(),
            credits: config.starting_credits,
            in_game: true,
            left_in_hand: 0,
            folded: false,
            completed_turns: 0,
            contributed: 0,
            hand_start_credits: config.starting_credits,
            shift: None,
            put_out: Default::default(),
        };
        let mut players = [blank; MAX_PLAYERS];
        for p in players.iter_mut().skip(config.players as usize) {
            *p = Player { credits: 0, in_game: false, hand_start_credits: 0, ..blank };
        }
        let mut deck = Pile::default();
        for c in crate::card::Card::all() {
            deck.push(c);
        }
        let everyone: SeatSet = (0..config.players).map(Seat).collect();
        Ok(StateBuilder {
            state: State {
                config,
                rng: GameRng::at_hand(seed, 0),
                hand_no: 0,
                round: 0,
                dealer: Seat(0),
                turn_seat: Seat(0),
                actor: Seat(0),
                pending: Pending::Bet,
                players,
                live: everyone,
                hand_players: everyone,
                deck,
                out: Pile::default(),
                hand_pot: 0,
                sabacc_pot: 0,
                betting: Betting::default(),
                turn_folded: false,
                die: None,
                last_result: None,
                winners: SeatSet::EMPTY,
                mask: ActionMask::default(),
                log_events: true,
                events: Vec::new(),
            },
        })
    }

    /// Deals the first hand (seat 0 deals, C2.1).
    pub(crate) fn new_game(self) -> State {
        let mut s = self.state;
        s.dealer = Seat(0);
        s.start_hand();
        s.refresh_mask();
        s
    }

    /// Sets hand, round, dealer, turn, actor and the pending decision.
    pub fn position(&mut self, p: Position) -> &mut Self {
        let s = &mut self.state;
        (s.hand_no, s.round, s.dealer, s.turn_seat, s.actor, s.pending, s.die) =
            (p.hand, p.round, p.dealer, p.turn_seat, p.actor, p.pending, p.die);
        self
    }

    /// Sets one seat's cards, credits and flags.
    pub fn player(&mut self, seat: Seat, player: Player) -> &mut Self {
        self.state.players[seat.index()] = player;
        self
    }

    /// Sets the deck (top last) and the out-of-play pile.
    pub fn piles(&mut self, deck: Pile, out: Pile) -> &mut Self {
        (self.state.deck, self.state.out) = (deck, out);
        self
    }

    /// Sets both pots.
    pub fn pots(&mut self, hand_pot: u32, sabacc_pot: u32) -> &mut Self {
        (self.state.hand_pot, self.state.sabacc_pot) = (hand_pot, sabacc_pot);
        self
    }

    /// Sets the betting phase in progress.
    pub fn betting(&mut self, betting: Betting) -> &mut Self {
        self.state.betting = betting;
        self
    }

    /// Replaces the random streams by those of `seed` at the position's hand, with these dice
    /// to come first.
    pub fn rng(&mut self, seed: u64, dice: DiceScript) -> &mut Self {
        let mut rng = GameRng::at_hand(seed, self.state.hand_no);
        rng.set_script(dice);
        self.state.rng = rng;
        self
    }

    /// Sets the last finished hand's result (public), so a rebuilt position shows what the
    /// original showed.
    pub(crate) fn last_result(&mut self, r: Option<super::HandResult>) -> &mut Self {
        self.state.last_result = r;
        self
    }

    /// Turns the event log on or off.
    pub fn event_logging(&mut self, on: bool) -> &mut Self {
        self.state.set_event_logging(on);
        self
    }

    /// The state under construction, for reading.
    pub fn peek(&self) -> &State {
        &self.state
    }

    /// Derives the sets and flags that follow from the players (who is live, who was dealt in,
    /// whether the turn player folded this turn), the legal mask, and checks every invariant.
    pub fn build(self) -> Result<State, InvalidPosition> {
        let mut s = self.state;
        let n = s.config.players;
        s.hand_players = (0..n).map(Seat).filter(|x| s.players[x.index()].in_game).collect();
        s.live = s.hand_players.iter().filter(|x| !s.players[x.index()].folded).collect();
        s.turn_folded = s.players[s.turn_seat.index()].folded;
        s.refresh_mask();
        s.check_invariants().map_err(InvalidPosition)?;
        Ok(s)
    }
}
