//! The turn flow (K3): the legal actions at each decision, applying them, Stand, Draw and Keep,
//! and the end of each action, turn and round.

use super::{State, TurnAction, UNKNOWN};
use crate::action::{Action, ActionMask, Source};
use crate::card::{Card, Family};
use crate::error::ActionError;
use crate::event::{ChipReason, Event};
use crate::pending::Pending;
use crate::pile::Pile;
use crate::ranking::Resolved;
use crate::state::LastAction;
use crate::token::{Token, TokenSet};
use game::seat::{MAX_PLAYERS, Seat};

/// The legal actions after any Draw: keep the drawn card or the held one (K3.4).
const KEEP_MASK: ActionMask = ActionMask::from_bits(1 << Action::KeepDrawn.index() | 1 << Action::KeepHeld.index());

impl State {
    pub(crate) fn compute_mask(&self) -> ActionMask {
        // Most decisions start an action: that case is tested first.
        if self.pending == Pending::Act {
            return self.act_mask();
        }
        let mut m = ActionMask::default();
        let actor = self.actor;
        match self.pending {
            Pending::ChooseToken => {
                let p = &self.players[actor.index()];
                for t in TokenSet(self.config.enabled_tokens.0 & !p.tokens.0).iter() {
                    m.set(Action::ChooseToken(t));
                }
            }
            Pending::Act => return self.act_mask(),
            Pending::Target { token } => {
                for off in 1..self.config.players {
                    let t = actor.offset(off, self.config.players);
                    if self.target_legal(token, t) {
                        m.set(Action::Target(off));
                    }
                }
            }
            Pending::PrimeDie { .. } | Pending::ImpostorDie { .. } => {
                m.set(Action::DieFirst);
                m.set(Action::DieSecond);
            }
            Pending::Keep { .. } => return KEEP_MASK,
            Pending::GameOver | Pending::Truncated => {}
        }
        m
    }

    /// The legal actions at the start of an action (K3.2): Stand; Draw from each source with a
    /// card, unless under Embargo or without a chip to pay (Free Draw pays); each held token
    /// that may be played, unless one was played in this action already.
    fn act_mask(&self) -> ActionMask {
        let actor = self.actor;
        let p = &self.players[actor.index()];
        let mut bits = 1u64 << Action::Stand.index();
        if !self.effects.embargoed.contains(actor) && (!p.stock.is_zero() || self.effects.free_draw) {
            bits |= u64::from(self.available_sources()) << Action::Draw(Source::SandDeck).index();
        }
        if !self.token_played {
            bits |= u64::from(self.playable_tokens(p.tokens).0) << Action::PlayToken(Token::FreeDraw).index();
        }
        ActionMask::from_bits(bits)
    }

    /// Applies an action by index; see [`State::apply`].
    pub fn apply_index(&mut self, index: usize) -> Result<(), ActionError> {
        let a = Action::from_index(index).ok_or(ActionError::OutOfRange(index))?;
        self.apply(a)
    }

    /// Applies the current player's action. An illegal action returns an error and leaves the
    /// state untouched.
    pub fn apply(&mut self, action: Action) -> Result<(), ActionError> {
        if self.is_terminal() {
            return Err(ActionError::GameOver);
        }
        // `Action::from_index(action.index()) == Some(action)` rules out values such as
        // `Target(0)` or `Target(8)` whose index aliases another action's bit in the mask.
        if !self.legal_mask().contains(action) || Action::from_index(action.index()) != Some(action) {
            return Err(ActionError::Illegal { action, pending: self.pending, seat: self.actor });
        }
        self.apply_legal(action);
        Ok(())
    }

    /// [`State::apply`] for an action already found in [`State::legal_mask`] (and built by
    /// `Action::from_index`): the env checks each decision once, so the engine does not check
    /// it again outside debug builds.
    pub(crate) fn apply_legal(&mut self, action: Action) {
        debug_assert!(
            !self.is_terminal()
                && self.legal_mask().contains(action)
                && Action::from_index(action.index()) == Some(action),
            "apply_legal: {action:?} is not legal here"
        );
        let actor = self.actor;
        // One dispatch, on the action: the mask admitted it, so it belongs to the pending decision
        // (only the dice ask which one). Random play makes the dispatch hard to predict, and a
        // second one on the pending decision cost as much again.
        let wrong = || unreachable!("legal_mask only admits actions of the pending decision");
        match action {
            Action::ChooseToken(t) => self.choose_token(t),
            Action::Stand => {
                let forced = self.effects.embargoed.contains(actor);
                let ti = (self.turn.max(1) - 1).min(2) as usize;
                self.turn_actions[actor.index()][ti] = TurnAction::Stand { forced };
                self.log(Event::Stood { seat: actor, forced });
                self.end_action(true);
            }
            Action::Draw(src) => {
                self.draw_card(src);
                // A Draw always leads to the same decision, whose mask is known without asking
                // `compute_mask` (whose dispatch on the pending decision is costly to predict).
                self.mask = KEEP_MASK;
                return;
            }
            Action::PlayToken(t) => self.play_token(t),
            Action::KeepDrawn | Action::KeepHeld => {
                let Pending::Keep { drawn, source } = self.pending else { wrong() };
                self.keep(drawn, source, action == Action::KeepDrawn)
            }
            Action::Target(off) => {
                let Pending::Target { token } = self.pending else { wrong() };
                let target = actor.offset(off, self.config.players);
                self.apply_targeted(token, target);
            }
            Action::DieFirst | Action::DieSecond => match self.pending {
                Pending::PrimeDie { dice } => {
                    let value = dice[(action == Action::DieSecond) as usize];
                    self.effects.mods.prime = Some(value);
                    self.log(Event::PrimeSet { seat: actor, value });
                    self.pending = Pending::Act;
                }
                Pending::ImpostorDie { family, dice } => {
                    let value = dice[(action == Action::DieSecond) as usize];
                    self.resolved[actor.index()][family.index()] = Resolved::Number(value);
                    self.log(Event::ImpostorValue { seat: actor, family, value });
                    self.reveal.family = family.index() as u8 + 1;
                    self.continue_reveal();
                }
                _ => wrong(),
            },
        }
        self.refresh_mask();
    }

    // Turns

    /// The sources a card can be drawn from (K3.4, K3.5), one bit per source in action order: a
    /// draw pile while it has cards or its discard pile can rebuild it, a discard pile while it
    /// has one.
    pub(super) fn available_sources(&self) -> u8 {
        let deck = |f: usize| !self.draw[f].is_empty() || self.discard[f].len() >= 2;
        let discard = |f: usize| !self.discard[f].is_empty();
        let (sand, blood) = (Family::Sand.index(), Family::Blood.index());
        u8::from(deck(sand)) << Source::SandDeck as u8
            | u8::from(deck(blood)) << Source::BloodDeck as u8
            | u8::from(discard(sand)) << Source::SandDiscard as u8
            | u8::from(discard(blood)) << Source::BloodDiscard as u8
    }

    /// Takes the top card of a family's draw pile, rebuilding it from the discard pile (all but
    /// its top card) when empty (K3.5). Callers guarantee a card is available.
    pub(super) fn take_from_deck(&mut self, f: Family) -> Card {
        let fi = f.index();
        if self.draw[fi].is_empty() {
            let top = self.discard[fi].pop().expect("rebuild needs a discard pile");
            let rest: Pile = self.discard[fi];
            self.draw[fi] = rest;
            self.discard[fi].clear();
            self.discard[fi].push(top);
            self.rng.shuffle(self.draw[fi].as_mut_slice());
            let cards = self.draw[fi].len() as u8;
            self.log(Event::DrawPileRebuilt { family: f, cards });
        }
        self.draw[fi].pop().expect("available_sources checked a card is there")
    }

    pub(super) fn draw_card(&mut self, src: Source) {
        let actor = self.actor;
        if !self.effects.free_draw {
            let p = &mut self.players[actor.index()];
            p.stock.0 -= 1;
            p.pot.0 += 1;
            self.log(Event::Chips { seat: actor, stock: -1, pot: 1, reason: ChipReason::Draw });
        }
        let ti = (self.turn.max(1) - 1).min(2) as usize;
        self.turn_actions[actor.index()][ti] = TurnAction::Draw(src);
        let (drawn, shown) = if src.is_deck() {
            (self.take_from_deck(src.family()), None)
        } else {
            let c = self.discard[src.family().index()].pop().expect("available_sources checked");
            (c, Some(c))
        };
        self.log(Event::Drew { seat: actor, source: src, card: shown });
        self.pending = Pending::Keep { drawn, source: src };
    }

    pub(super) fn keep(&mut self, drawn: Card, source: Source, keep_drawn: bool) {
        let actor = self.actor;
        let f = drawn.family().index();
        let discarded = if keep_drawn {
            let held = self.players[actor.index()].hand[f];
            self.players[actor.index()].hand[f] = drawn;
            let now_known = if source.is_deck() { UNKNOWN } else { drawn.id() };
            for v in 0..MAX_PLAYERS {
                self.known[v][actor.index()][f] = now_known;
            }
            held
        } else {
            drawn
        };
        self.discard[f].push(discarded);
        self.seen.insert(discarded);
        self.log(Event::Discarded { seat: actor, card: discarded });
        self.end_action(false);
    }

    pub(super) fn end_action(&mut self, stood: bool) {
        let actor = self.actor;
        {
            let turn = self.turn;
            let p = &mut self.players[actor.index()];
            if stood {
                p.last_action = LastAction::Stand;
                p.stood_turn = turn;
            } else {
                p.last_action = LastAction::Draw;
            }
        }
        if !stood {
            self.all_stood = false;
        }
        // The Embargo this player was under is served by this action, whatever token came with it.
        self.effects.embargoed.remove(actor);
        self.effects.free_draw = false;
        self.token_played = false;
        let next = self.next_active(actor);
        if next == self.starter {
            if (self.config.early_reveal && self.all_stood) || self.turn >= 3 {
                self.start_reveal();
                return;
            }
            self.turn += 1;
            self.all_stood = true;
        }
        self.actor = next;
        self.pending = Pending::Act;
    }

    /// Whether the actor could still Draw in this action (K3.4): not under Embargo, a chip in
    /// stock or Free Draw active, and a source to draw from.
    pub(super) fn actor_can_draw(&self) -> bool {
        let p = &self.players[self.actor.index()];
        !self.effects.embargoed.contains(self.actor)
            && (!p.stock.is_zero() || self.effects.free_draw)
            && self.available_sources() != 0
    }

    /// Whether the round is certain to end with the current action, for a token that leaves the
    /// actor's means to draw as they are (Embargo, Immunity): the actor is the last of the turn
    /// and either it is turn 3 (K3.7) or everyone so far stood and the actor cannot draw, so its
    /// stand triggers the early reveal (K3.6).
    pub(super) fn round_ends_with_this_action(&self) -> bool {
        self.next_active(self.actor) == self.starter
            && (self.turn >= 3 || (self.config.early_reveal && self.all_stood && !self.actor_can_draw()))
    }

    /// The seat whose action comes right after the current one this round, if any.
    pub(super) fn next_action_seat(&self) -> Option<Seat> {
        if self.round_ends_with_this_action() { None } else { Some(self.next_active(self.actor)) }
    }
}
