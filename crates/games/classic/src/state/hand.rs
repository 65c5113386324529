//! A hand's start and end (C2.1–C2.3, C5): leaving at 0 credits, the end of the game, the
//! dealer, antes and the deal.

use super::{Pending, State};
use crate::card::Pile;
use crate::config::{DealerAnte, HandLimitEnd};
use crate::event::Event;
use game::seat::{Seat, SeatSet};

impl State {
    /// The next seat clockwise from `s` that is in the game.
    #[inline]
    pub fn next_in_game(&self, s: Seat) -> Seat {
        let n = self.config.players;
        for k in 1..=n {
            let t = s.offset(k, n);
            if self.players[t.index()].in_game {
                return t;
            }
        }
        s
    }

    /// Starts the next hand with the dealer already set: antes, shuffle and deal, first turn.
    pub(super) fn start_hand(&mut self) {
        self.hand_no += 1;
        self.rng.start_hand(self.hand_no);
        self.round = 1;
        let n = self.config.players;
        let dealer = self.dealer;
        let mut in_game = SeatSet::EMPTY;
        for i in 0..n as usize {
            let p = &mut self.players[i];
            p.folded = false;
            p.completed_turns = 0;
            p.contributed = 0;
            p.shift = None;
            p.put_out = Default::default();
            p.hand.clear();
            p.hand_start_credits = p.credits;
            if p.in_game {
                in_game.insert(Seat(i as u8));
            }
        }
        self.hand_players = in_game;
        self.live = in_game;
        self.log(Event::HandStarted { hand: self.hand_no, dealer });

        // C2.2: the hand pot first, then the sabacc pot if it was empty, as far as credits go.
        let fill_sabacc = self.sabacc_pot == 0;
        let dealer_exempt = self.config.dealer_ante == DealerAnte::Exempt;
        for k in 1..=n {
            let s = dealer.offset(k, n);
            if !in_game.contains(s) {
                continue;
            }
            let p = &mut self.players[s.index()];
            let to_hand = if dealer_exempt && s == dealer { 0 } else { p.credits.min(1) };
            p.credits -= to_hand;
            let to_sabacc = if fill_sabacc { p.credits.min(1) } else { 0 };
            p.credits -= to_sabacc;
            self.hand_pot += to_hand;
            self.sabacc_pot += to_sabacc;
            self.log(Event::Ante { seat: s, hand_pot: to_hand, sabacc_pot: to_sabacc });
        }

        // C2.3: all 76 cards gathered and shuffled, two each, one at a time from the dealer's left.
        self.out.clear();
        self.deck = Pile::FULL_DECK;
        self.rng.shuffle_deck(self.deck.as_mut_slice());
        for _ in 0..2 {
            for k in 1..=n {
                let s = dealer.offset(k, n);
                if in_game.contains(s) {
                    let c = self.deck.pop().expect("76 cards cover two for each of 8 seats");
                    self.players[s.index()].hand.push(c);
                }
            }
        }
        if self.log_events {
            for k in 1..=n {
                let s = dealer.offset(k, n);
                if in_game.contains(s) {
                    self.log(Event::Dealt { seat: s, cards: 2 });
                }
            }
        }
        self.turn_seat = self.next_in_game(dealer);
        self.start_turn();
    }

    /// Ends the hand: players at 0 credits leave (C5.1), then the game ends (one player or none
    /// left, the cards gathered), is truncated (hand limit), or the deal passes left (C2.1).
    pub(super) fn end_hand(&mut self) {
        self.log(Event::HandEnded {
            hand: self.hand_no,
            end: self.last_result.as_ref().expect("a hand ends with a result").end,
        });
        let n = self.config.players;
        let mut remaining = SeatSet::EMPTY;
        for i in 0..n {
            let p = &mut self.players[i as usize];
            if p.in_game && p.credits == 0 {
                p.in_game = false;
                p.left_in_hand = self.hand_no;
                self.log(Event::Left { seat: Seat(i) });
            } else if p.in_game {
                remaining.insert(Seat(i));
            }
        }
        if remaining.len() <= 1 || self.hand_no >= self.config.hand_limit {
            self.gather_cards();
            self.live = remaining;
            self.betting = Default::default();
            self.die = None;
            self.turn_folded = false;
        }
        if remaining.len() <= 1 {
            self.winners = if remaining.is_empty() { self.hand_players } else { remaining };
            self.pending = Pending::GameOver;
            self.log(Event::GameOver { winners: self.winners });
            return;
        }
        if self.hand_no >= self.config.hand_limit && self.config.hand_limit_end == HandLimitEnd::MostCredits {
            let most = remaining.iter().map(|s| self.players[s.index()].credits).max().unwrap_or(0);
            self.winners = remaining.iter().filter(|s| self.players[s.index()].credits == most).collect();
            self.pending = Pending::GameOver;
            self.log(Event::GameOver { winners: self.winners });
            return;
        }
        if self.hand_no >= self.config.hand_limit {
            self.pending = Pending::Truncated;
            self.log(Event::Truncated { hand: self.hand_no });
            return;
        }
        self.dealer = self.next_in_game(self.dealer);
        self.start_hand();
    }

    /// Puts every card back in the deck (in id order) once the game is over.
    fn gather_cards(&mut self) {
        self.deck = Pile::FULL_DECK;
        self.out.clear();
        for p in self.players.iter_mut() {
            p.hand.clear();
            p.put_out = Default::default();
            p.contributed = 0;
            p.folded = false;
        }
    }
}
