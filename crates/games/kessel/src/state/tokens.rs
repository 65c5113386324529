//! Shift Tokens (K5): which are legal, their effects, targets, and the chips they move.

use super::{State, UNKNOWN};
use crate::card::Family;
use crate::config::{EmbezzlementSource, InStand, RefundSource, TaxTokenChips};
use crate::event::{ChipReason, DiceFor, Event};
use crate::pending::Pending;
use crate::state::LastAction;
use crate::token::{Token, TokenSet};
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

    /// The tokens of `held` that the actor may play now (K5). What several tokens' conditions
    /// share (a source to draw from, the exposed opponents, the next action of the round) is
    /// worked out once, and only when a held token asks for it: this runs after every decision.
    pub(super) fn playable_tokens(&self, held: TokenSet) -> TokenSet {
        use Token::*;
        let set = |ts: &[Token]| ts.iter().fold(0u16, |b, &t| b | 1 << t.index());
        let me = &self.players[self.actor.index()];
        let cfg = &self.config;
        let mods = &self.effects.mods;
        let mut ok = set(&[PrimeSabacc]);
        if held.contains(FreeDraw) && !self.effects.embargoed.contains(self.actor) && self.available_sources() != 0 {
            ok |= set(&[FreeDraw]);
        }
        let refund = match cfg.refund_source {
            RefundSource::HandPot => !me.pot.is_zero(),
            RefundSource::LostChips => !me.lost.is_zero(),
        };
        if refund {
            ok |= set(&[Refund, ExtraRefund]);
        }
        let on_opponents =
            set(&[Embezzlement, GeneralTariff, TargetTariff, GeneralAudit, TargetAudit, Exhaustion, DirectTransaction]);
        if held.0 & on_opponents != 0 {
            let (mut any, mut embezzle, mut tariff, mut audit) = (false, false, false, false);
            for s in self.exposed_opponents() {
                let p = &self.players[s.index()];
                any = true;
                embezzle |= match cfg.embezzlement {
                    EmbezzlementSource::HandPot => !p.pot.is_zero(),
                    EmbezzlementSource::Stock => !p.stock.is_zero(),
                };
                tariff |= !p.stock.is_zero();
                audit |= !p.stock.is_zero() && self.in_stand(s);
            }
            for (cond, ts) in [
                (any, set(&[Exhaustion, DirectTransaction])),
                (embezzle, set(&[Embezzlement])),
                (tariff, set(&[GeneralTariff, TargetTariff])),
                (audit, set(&[GeneralAudit, TargetAudit])),
            ] {
                if cond {
                    ok |= ts;
                }
            }
        }
        for (cond, t) in
            [(!mods.markdown, Markdown), (!mods.cook_the_books, CookTheBooks), (!mods.major_fraud, MajorFraud)]
        {
            if cond {
                ok |= set(&[t]);
            }
        }
        if held.0 & set(&[Embargo, Immunity]) != 0
            && let Some(next) = self.next_action_seat()
        {
            // Without a later action this round an Embargo does nothing (K5).
            if !self.effects.immune.contains(next) {
                ok |= set(&[Embargo]);
            }
            // Immunity shields from opponents' later tokens only; with no later action this
            // round it does nothing (K5, K5.14).
            if !self.effects.immune.contains(self.actor) {
                ok |= set(&[Immunity]);
            }
        }
        TokenSet(held.0 & ok)
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
                let target = self.next_action_seat().expect("playable_tokens checked");
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::Action;
    use crate::config::RuleConfig;

    /// `playable_tokens` works out what several tokens share only when a held token asks for
    /// it; whether a token may be played must not depend on which others are held with it. Checked
    /// at every start of an action of random games at two and four seats, for every token.
    #[test]
    fn a_tokens_playability_does_not_depend_on_the_other_tokens_held() {
        let mut pick = 0x2545_F491_4F6C_DD1Du64;
        let mut positions = 0;
        for players in [2, 4] {
            let config = RuleConfig { players, ..RuleConfig::default() };
            for seed in 0..300 {
                let mut state = State::new(config, seed).expect("default rules deal");
                while !state.is_terminal() {
                    if state.pending == Pending::Act {
                        positions += 1;
                        let all = state.playable_tokens(TokenSet::ALL);
                        for t in Token::ALL {
                            let alone = state.playable_tokens(TokenSet(1 << t.index()));
                            assert_eq!(alone.contains(t), all.contains(t), "{t:?} at seed {seed}, {players} seats");
                        }
                    }
                    pick ^= pick << 13;
                    pick ^= pick >> 7;
                    pick ^= pick << 17;
                    let mask = state.legal_mask();
                    let k = (pick % mask.count() as u64) as usize;
                    let action = mask.nth_index(k).and_then(Action::from_index).expect("a legal action");
                    state.apply(action).expect("legal");
                }
            }
        }
        assert!(positions > 10_000, "only {positions} positions");
    }
}
