//! The reveal (K4) and settlement (K6): Impostor dice, ranking, pots, taxes, eliminations and
//! the end of the game.

use super::State;
use crate::card::{Card, CardKind, Family};
use crate::chips::Chips;
use crate::config::{ImpostorRule, RoundStarter};
use crate::event::{ChipReason, DiceFor, Event};
use crate::pending::Pending;
use crate::ranking::{self, HandClass, RankKey, RankingMods, Resolved};
use game::seat::{MAX_PLAYERS, Seat, SeatSet};
use serde::{Deserialize, Serialize};

/// One seat's result in a settled round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SeatResult {
    /// The revealed cards.
    pub hand: [Card; 2],
    /// Their resolved values.
    pub values: [Resolved; 2],
    /// What the hand is.
    pub class: HandClass,
    /// Its rank key (lower is better).
    pub key: RankKey,
    /// Whether it won the round.
    pub winner: bool,
    /// Chips taken back from the hand pot (winners).
    pub pot_returned: u16,
    /// Chips lost from the hand pot (losers).
    pub pot_lost: u16,
    /// Tax paid after the cap at stock.
    pub tax: u16,
    /// Stock after settlement.
    pub stock_after: u16,
    /// Eliminated by this settlement.
    pub eliminated: bool,
}

/// The settlement of one round (K6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Settlement {
    /// The round number.
    pub round: u16,
    /// The ranking mods that were in force.
    pub mods: RankingMods,
    /// The round's winners.
    pub winners: SeatSet,
    /// Per seat; `None` for seats that were already eliminated.
    pub seats: [Option<SeatResult>; MAX_PLAYERS],
}

/// A seat's result in a finished (or unfinished) game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// Still being played.
    InProgress,
    /// Sole winner of the game.
    Won,
    /// Winner together with `of - 1` others (K6.4, nobody left with chips).
    SharedWin { of: u8 },
    /// Did not win.
    Lost,
    /// The round limit ended the game before anyone won.
    Truncated,
}

/// Progress through the reveal: which seat (counted from the starter) and family is next.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RevealCursor {
    /// Seats already fully resolved, counted clockwise from the starter among active seats.
    pub seat_pos: u8,
    /// Family of the next card to resolve for the current seat.
    pub family: u8,
}

impl State {
    // Reveal and settlement

    pub(super) fn start_reveal(&mut self) {
        self.revealed = true;
        self.effects.embargoed = SeatSet::EMPTY;
        self.effects.free_draw = false;
        self.token_played = false;
        let major_fraud = self.effects.mods.major_fraud;
        let mut seat = self.starter;
        loop {
            let hand = self.players[seat.index()].hand;
            for (f, &card) in hand.iter().enumerate() {
                self.seen.insert(card);
                self.resolved[seat.index()][f] = match card.kind() {
                    CardKind::Number(v) => Resolved::Number(v),
                    CardKind::Sylop => Resolved::Sylop,
                    CardKind::Impostor if major_fraud => Resolved::Number(6),
                    CardKind::Impostor => Resolved::Number(0),
                };
            }
            self.log(Event::Revealed { seat, sand: hand[0], blood: hand[1] });
            seat = self.next_active(seat);
            if seat == self.starter {
                break;
            }
        }
        self.reveal = RevealCursor::default();
        self.continue_reveal();
    }

    /// The `pos`-th active seat clockwise from the starter.
    pub(super) fn seat_from_starter(&self, pos: u8) -> Option<Seat> {
        let mut seat = self.starter;
        for _ in 0..pos {
            seat = self.next_active(seat);
            if seat == self.starter {
                return None;
            }
        }
        Some(seat)
    }

    pub(super) fn continue_reveal(&mut self) {
        let cfg = self.config;
        while let Some(seat) = self.seat_from_starter(self.reveal.seat_pos) {
            let hand = self.players[seat.index()].hand;
            let is_unresolved_impostor = |f: usize, r: &[[Resolved; 2]; MAX_PLAYERS]| {
                hand[f].kind() == CardKind::Impostor && r[seat.index()][f] == Resolved::Number(0)
            };
            match cfg.impostor {
                ImpostorRule::OwnerChooses => {
                    while self.reveal.family < 2 {
                        let f = self.reveal.family as usize;
                        if is_unresolved_impostor(f, &self.resolved) {
                            let dice = [self.rng.die(), self.rng.die()];
                            let family = Family::from_index(f);
                            self.log(Event::DiceRolled { seat, dice, purpose: DiceFor::Impostor(family) });
                            self.actor = seat;
                            self.pending = Pending::ImpostorDie { family, dice };
                            return;
                        }
                        self.reveal.family += 1;
                    }
                }
                ImpostorRule::OneDie => {
                    for f in 0..2 {
                        if is_unresolved_impostor(f, &self.resolved) {
                            let d = self.rng.die();
                            let family = Family::from_index(f);
                            self.log(Event::DiceRolled { seat, dice: [d, 0], purpose: DiceFor::Impostor(family) });
                            self.resolved[seat.index()][f] = Resolved::Number(d);
                            self.log(Event::ImpostorValue { seat, family, value: d });
                        }
                    }
                }
                ImpostorRule::AutoBest => {
                    let mut opts = [[Resolved::Number(0); 2]; 2];
                    let mut lens = [1usize; 2];
                    for f in 0..2 {
                        if is_unresolved_impostor(f, &self.resolved) {
                            let dice = [self.rng.die(), self.rng.die()];
                            let family = Family::from_index(f);
                            self.log(Event::DiceRolled { seat, dice, purpose: DiceFor::Impostor(family) });
                            opts[f] = [Resolved::Number(dice[0]), Resolved::Number(dice[1])];
                            lens[f] = 2;
                        } else {
                            opts[f][0] = self.resolved[seat.index()][f];
                        }
                    }
                    let (s, b, _) =
                        ranking::best_choice([&opts[0][..lens[0]], &opts[1][..lens[1]]], self.effects.mods, &cfg);
                    for (f, v) in [(0usize, s), (1usize, b)] {
                        if lens[f] == 2 {
                            self.resolved[seat.index()][f] = v;
                            if let Resolved::Number(value) = v {
                                self.log(Event::ImpostorValue { seat, family: Family::from_index(f), value });
                            }
                        }
                    }
                }
            }
            self.reveal.seat_pos += 1;
            self.reveal.family = 0;
        }
        self.settle();
    }

    // The loops below index `players`, `resolved` and `results` by seat together.
    #[allow(clippy::needless_range_loop)]
    pub(super) fn settle(&mut self) {
        let cfg = self.config;
        let mods = self.effects.mods;
        let mut results: [Option<SeatResult>; MAX_PLAYERS] = [None; MAX_PLAYERS];
        let mut best = RankKey::MAX;
        for i in 0..cfg.players as usize {
            let p = &self.players[i];
            if p.eliminated {
                continue;
            }
            let values = self.resolved[i];
            let class = ranking::classify(values[0], values[1], mods, &cfg);
            let key = ranking::rank_key(class, mods, &cfg);
            best = best.min(key);
            results[i] = Some(SeatResult {
                hand: p.hand,
                values,
                class,
                key,
                winner: false,
                pot_returned: 0,
                pot_lost: 0,
                tax: 0,
                stock_after: 0,
                eliminated: false,
            });
        }
        let mut round_winners = SeatSet::EMPTY;
        for i in 0..cfg.players as usize {
            let Some(r) = results[i].as_mut() else { continue };
            let seat = Seat(i as u8);
            let p = &mut self.players[i];
            if r.key == best {
                r.winner = true;
                round_winners.insert(seat);
                let back = p.pot.0;
                p.stock.add(back);
                p.pot = Chips::ZERO;
                r.pot_returned = back;
                if back > 0 && self.log_events {
                    self.events.push(Event::Chips {
                        seat,
                        stock: back as i16,
                        pot: -(back as i16),
                        reason: ChipReason::PotReturned,
                    });
                }
            } else {
                let lost_pot = p.pot.0;
                p.pot = Chips::ZERO;
                let tax = p.stock.take_up_to(r.class.tax());
                p.lost.add(lost_pot + tax);
                self.removed += (lost_pot + tax) as u32;
                r.pot_lost = lost_pot;
                r.tax = tax;
                if self.log_events {
                    if lost_pot > 0 {
                        self.events.push(Event::Chips {
                            seat,
                            stock: 0,
                            pot: -(lost_pot as i16),
                            reason: ChipReason::PotLost,
                        });
                    }
                    if tax > 0 {
                        self.events.push(Event::Chips { seat, stock: -(tax as i16), pot: 0, reason: ChipReason::Tax });
                    }
                }
            }
        }
        self.log(Event::RoundWon { round: self.round, winners: round_winners });
        let mut remaining = SeatSet::EMPTY;
        for i in 0..cfg.players as usize {
            let Some(r) = results[i].as_mut() else { continue };
            let p = &mut self.players[i];
            r.stock_after = p.stock.0;
            if p.stock.is_zero() {
                p.eliminated = true;
                p.eliminated_in_round = self.round;
                r.eliminated = true;
                self.log(Event::Eliminated { seat: Seat(i as u8) });
            } else {
                remaining.insert(Seat(i as u8));
            }
        }
        self.settlement = Some(Settlement { round: self.round, mods, winners: round_winners, seats: results });
        if remaining.len() <= 1 {
            self.winners = if remaining.len() == 1 { remaining } else { round_winners };
            self.pending = Pending::GameOver;
            self.log(Event::GameOver { winners: self.winners });
            return;
        }
        if self.round >= cfg.round_limit {
            self.pending = Pending::Truncated;
            self.log(Event::Truncated { round: self.round });
            return;
        }
        self.starter = match cfg.round_starter {
            RoundStarter::Rotates => self.next_active(self.starter),
            RoundStarter::AlwaysSeat0 => {
                if self.players[0].eliminated {
                    self.next_active(Seat(0))
                } else {
                    Seat(0)
                }
            }
        };
        self.start_round();
    }
}
