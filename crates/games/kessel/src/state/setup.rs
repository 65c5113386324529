//! A new game and the start of each round (K2): tokens, the starter, the deal.

use super::{State, StateBuilder, TurnAction, UNKNOWN};
use crate::card::{Card, CardSet, Family};
use crate::config::{RuleConfig, TokenAssignment};
use crate::error::ConfigError;
use crate::event::Event;
use crate::pending::Pending;
use crate::state::{Effects, LastAction, RevealCursor};
use crate::token::{Token, TokenSet};
use game::seat::{MAX_PLAYERS, Seat};

impl State {
    /// A new game under `config`, all randomness drawn from `seed`.
    #[inline]
    pub fn new(config: RuleConfig, seed: u64) -> Result<State, ConfigError> {
        Ok(StateBuilder::new(config, seed)?.new_game())
    }

    // Setup and rounds

    pub(super) fn assign_tokens(&mut self) {
        let n = self.config.players as usize;
        match self.config.token_assignment {
            TokenAssignment::None | TokenAssignment::Choose => {}
            TokenAssignment::Fixed => {
                for i in 0..n {
                    self.players[i].tokens = self.config.fixed_loadouts[i];
                }
            }
            TokenAssignment::Random => {
                let mut pool = [Token::FreeDraw; Token::COUNT];
                let mut len = 0;
                for t in self.config.enabled_tokens.iter() {
                    pool[len] = t;
                    len += 1;
                }
                let k = self.config.tokens_per_player as usize;
                for i in 0..n {
                    let mut set = TokenSet::EMPTY;
                    for j in 0..k {
                        let r = j + self.rng.below((len - j) as u32) as usize;
                        pool.swap(j, r);
                        set.insert(pool[j]);
                    }
                    self.players[i].tokens = set;
                }
            }
        }
    }

    pub(super) fn choose_token(&mut self, t: Token) {
        let actor = self.actor;
        self.players[actor.index()].tokens.insert(t);
        self.log(Event::TokenPicked { seat: actor });
        if self.players[actor.index()].tokens.len() >= self.config.tokens_per_player as usize {
            if actor.0 + 1 < self.config.players {
                self.actor = Seat(actor.0 + 1);
            } else {
                self.start_round();
            }
        }
    }

    /// The next seat clockwise from `s` that is still in the game.
    #[inline]
    pub fn next_active(&self, s: Seat) -> Seat {
        let n = self.config.players;
        for i in 1..=n {
            let t = s.offset(i, n);
            if !self.players[t.index()].eliminated {
                return t;
            }
        }
        s
    }

    pub(super) fn start_round(&mut self) {
        self.round += 1;
        self.rng.start_round(self.round);
        self.turn = 1;
        self.all_stood = true;
        self.effects = Effects::default();
        self.token_played = false;
        self.revealed = false;
        self.seen = CardSet::default();
        self.known = [[[UNKNOWN; 2]; MAX_PLAYERS]; MAX_PLAYERS];
        self.reveal = RevealCursor::default();
        for p in self.players.iter_mut() {
            p.last_action = LastAction::None;
            p.stood_turn = 0;
        }
        self.turn_actions = [[TurnAction::None; 3]; MAX_PLAYERS];
        self.round_tokens = [TokenSet::EMPTY; MAX_PLAYERS];
        for f in Family::ALL {
            let pile = &mut self.draw[f.index()];
            pile.clear();
            for c in Card::family_cards(f) {
                pile.push(c);
            }
            self.rng.shuffle(pile.as_mut_slice());
            self.discard[f.index()].clear();
        }
        let starter = self.starter;
        self.log(Event::RoundStarted { round: self.round, starter });
        let mut seat = starter;
        loop {
            for f in Family::ALL {
                let c = self.draw[f.index()].pop().expect("a fresh draw pile holds 22 cards");
                self.players[seat.index()].hand[f.index()] = c;
            }
            self.log(Event::Dealt { seat });
            seat = self.next_active(seat);
            if seat == starter {
                break;
            }
        }
        for f in Family::ALL {
            let c = self.draw[f.index()].pop().expect("at most 16 cards of a family are dealt");
            self.discard[f.index()].push(c);
            self.seen.insert(c);
            self.log(Event::DiscardStarted { card: c });
        }
        self.actor = starter;
        self.pending = Pending::Act;
    }
}
