//! Shift Tokens (K5): which are legal, their effects, targets, and the chips they move.

use super::{State, UNKNOWN};
use crate::action::Source;
use crate::card::Family;
use crate::config::{EmbezzlementSource, InStand, RefundSource, TaxTokenChips};
use crate::event::{ChipReason, DiceFor, Event};
use crate::pending::Pending;
use crate::state::LastAction;
use crate::token::Token;
use game::seat::{MAX_PLAYERS, Seat};

impl State {
    // Shift Tokens

    pub(super) fn in_stand(&self, s: Seat) -> bool {
        let p = &self.players[s.index()];
        match self.config.in_stand {
            InStand::LastAction => p.last_action == LastAction::Stand,
            InStand::StoodThisTurn => p.stood_turn == self.turn && p.last_action == LastAction::Stand,
        }
    }

    /// Opponents of the actor that a token may affect: active and not Immune.
    pub(super) fn exposed_opponents(&self) -> impl Iterator<Item = Seat> + '_ {
        let n = self.config.players;
        let actor = self.actor;
        (1..n)
            .map(move |o| actor.offset(o, n))
            .filter(move |&s| !self.players[s.index()].eliminated && !self.effects.immune.contains(s))
    }

    pub(super) fn token_playable(&self, t: Token) -> bool {
        let me = &self.players[self.actor.index()];
        let cfg = &self.config;
        match t {
            Token::FreeDraw => {
                !self.effects.embargoed.contains(self.actor) && Source::ALL.iter().any(|&s| self.source_available(s))
            }
            Token::Refund | Token::ExtraRefund => match cfg.refund_source {
                RefundSource::HandPot => !me.pot.is_zero(),
                RefundSource::LostChips => !me.lost.is_zero(),
            },
            Token::Embezzlement => self.exposed_opponents().any(|s| {
                let p = &self.players[s.index()];
                match cfg.embezzlement {
                    EmbezzlementSource::HandPot => !p.pot.is_zero(),
                    EmbezzlementSource::Stock => !p.stock.is_zero(),
                }
            }),
            Token::GeneralTariff | Token::TargetTariff => {
                self.exposed_opponents().any(|s| !self.players[s.index()].stock.is_zero())
            }
            Token::GeneralAudit | Token::TargetAudit => {
                self.exposed_opponents().any(|s| self.in_stand(s) && !self.players[s.index()].stock.is_zero())
            }
            Token::PrimeSabacc => true,
            Token::Markdown => !self.effects.mods.markdown,
            Token::CookTheBooks => !self.effects.mods.cook_the_books,
            Token::MajorFraud => !self.effects.mods.major_fraud,
            // Without a later action this round an Embargo does nothing (K5).
            Token::Embargo => self.next_action_seat().is_some_and(|s| !self.effects.immune.contains(s)),
            // Immunity shields from opponents' later tokens only; with no later action this round
            // it does nothing (K5, K5.14).
            Token::Immunity => !self.effects.immune.contains(self.actor) && self.next_action_seat().is_some(),
            Token::Exhaustion | Token::DirectTransaction => self.exposed_opponents().next().is_some(),
        }
    }

    pub(super) fn target_legal(&self, t: Token, target: Seat) -> bool {
        if target == self.actor || self.players[target.index()].eliminated || self.effects.immune.contains(target) {
            return false;
        }
        let p = &self.players[target.index()];
        match t {
            Token::TargetTariff => !p.stock.is_zero(),
            Token::TargetAudit => self.in_stand(target) && !p.stock.is_zero(),
            Token::Exhaustion | Token::DirectTransaction => true,
            _ => false,
        }
    }

    pub(super) fn play_token(&mut self, t: Token) {
        let actor = self.actor;
        {
            let p = &mut self.players[actor.index()];
            p.tokens.remove(t);
            p.spent.insert(t);
        }
        self.round_tokens[actor.index()].insert(t);
        self.token_played = true;
        self.log(Event::TokenPlayed { seat: actor, token: t });
        match t {
            Token::FreeDraw => self.effects.free_draw = true,
            Token::Refund | Token::ExtraRefund => {
                let n = if t == Token::Refund { 2 } else { 3 };
                let p = &mut self.players[actor.index()];
                let moved = match self.config.refund_source {
                    RefundSource::HandPot => {
                        let m = p.pot.take_up_to(n);
                        p.stock.add(m);
                        self.log(Event::Chips {
                            seat: actor,
                            stock: m as i16,
                            pot: -(m as i16),
                            reason: ChipReason::Refund,
                        });
                        m
                    }
                    RefundSource::LostChips => {
                        let m = p.lost.take_up_to(n);
                        p.stock.add(m);
                        self.removed -= m as u32;
                        self.log(Event::Chips { seat: actor, stock: m as i16, pot: 0, reason: ChipReason::Refund });
                        m
                    }
                };
                debug_assert!(moved > 0);
            }
            Token::Embezzlement => {
                let n = self.config.players;
                for o in 1..n {
                    let s = actor.offset(o, n);
                    if self.players[s.index()].eliminated || self.effects.immune.contains(s) {
                        continue;
                    }
                    match self.config.embezzlement {
                        EmbezzlementSource::HandPot => {
                            if self.players[s.index()].pot.take_up_to(1) == 1 {
                                self.players[actor.index()].pot.add(1);
                                self.log(Event::Chips { seat: s, stock: 0, pot: -1, reason: ChipReason::Embezzlement });
                                self.log(Event::Chips {
                                    seat: actor,
                                    stock: 0,
                                    pot: 1,
                                    reason: ChipReason::Embezzlement,
                                });
                            }
                        }
                        EmbezzlementSource::Stock => {
                            if self.players[s.index()].stock.take_up_to(1) == 1 {
                                self.players[actor.index()].stock.add(1);
                                self.log(Event::Chips { seat: s, stock: -1, pot: 0, reason: ChipReason::Embezzlement });
                                self.log(Event::Chips {
                                    seat: actor,
                                    stock: 1,
                                    pot: 0,
                                    reason: ChipReason::Embezzlement,
                                });
                            }
                        }
                    }
                }
            }
            Token::GeneralTariff | Token::GeneralAudit => {
                let n = self.config.players;
                let (amount, reason) =
                    if t == Token::GeneralTariff { (1, ChipReason::Tariff) } else { (2, ChipReason::Audit) };
                for o in 1..n {
                    let s = actor.offset(o, n);
                    if self.players[s.index()].eliminated || self.effects.immune.contains(s) {
                        continue;
                    }
                    if t == Token::GeneralAudit && !self.in_stand(s) {
                        continue;
                    }
                    self.tax_by_token(s, amount, reason);
                }
            }
            Token::TargetTariff | Token::TargetAudit | Token::Exhaustion | Token::DirectTransaction => {
                self.pending = Pending::Target { token: t };
                return;
            }
            Token::PrimeSabacc => {
                let dice = [self.rng.die(), self.rng.die()];
                self.log(Event::DiceRolled { seat: actor, dice, purpose: DiceFor::PrimeSabacc });
                self.pending = Pending::PrimeDie { dice };
                return;
            }
            Token::Markdown => self.effects.mods.markdown = true,
            Token::CookTheBooks => self.effects.mods.cook_the_books = true,
            Token::MajorFraud => self.effects.mods.major_fraud = true,
            Token::Embargo => {
                let target = self.next_action_seat().expect("token_playable checked");
                self.effects.embargoed.insert(target);
                self.log(Event::Embargoed { seat: actor, target });
            }
            Token::Immunity => {
                self.effects.immune.insert(actor);
            }
        }
        self.pending = Pending::Act;
    }

    pub(super) fn tax_by_token(&mut self, victim: Seat, amount: u16, reason: ChipReason) {
        let p = &mut self.players[victim.index()];
        let m = p.stock.take_up_to(amount);
        if m == 0 {
            return;
        }
        match self.config.tax_token_chips {
            TaxTokenChips::LeaveGame => {
                p.lost.add(m);
                self.removed += m as u32;
                self.log(Event::Chips { seat: victim, stock: -(m as i16), pot: 0, reason });
            }
            TaxTokenChips::VictimHandPot => {
                p.pot.add(m);
                self.log(Event::Chips { seat: victim, stock: -(m as i16), pot: m as i16, reason });
            }
        }
    }

    pub(super) fn apply_targeted(&mut self, token: Token, target: Seat) {
        let actor = self.actor;
        self.log(Event::TokenTargeted { seat: actor, token, target });
        match token {
            Token::TargetTariff => self.tax_by_token(target, 2, ChipReason::Tariff),
            Token::TargetAudit => self.tax_by_token(target, 3, ChipReason::Audit),
            Token::Exhaustion => {
                let ti = target.index();
                for f in Family::ALL {
                    let c = self.players[ti].hand[f.index()];
                    self.discard[f.index()].push(c);
                    self.seen.insert(c);
                    self.log(Event::Discarded { seat: target, card: c });
                }
                for f in Family::ALL {
                    let c = self.take_from_deck(f);
                    self.players[ti].hand[f.index()] = c;
                }
                for v in 0..MAX_PLAYERS {
                    self.known[v][ti] = [UNKNOWN; 2];
                }
                self.log(Event::Exhausted { seat: actor, target });
            }
            Token::DirectTransaction => {
                let (a, b) = (actor.index(), target.index());
                let ha = self.players[a].hand;
                let hb = self.players[b].hand;
                self.players[a].hand = hb;
                self.players[b].hand = ha;
                for row in self.known.iter_mut() {
                    row.swap(a, b);
                }
                // Each of the two now knows the hand the other holds (K7).
                self.known[a][b] = [ha[0].id(), ha[1].id()];
                self.known[b][a] = [hb[0].id(), hb[1].id()];
                self.log(Event::HandsSwapped { seat: actor, target });
            }
            _ => unreachable!("only targeted tokens reach apply_targeted"),
        }
        self.pending = Pending::Act;
    }
}
