//! Conservation of cards and chips and the consistency of the position, checked after every
//! action by tests and `sabacc simulate`, and once by [`super::StateBuilder::build`].

use super::State;
use crate::card::{Card, CardSet, DECK_SIZE, Family};
use crate::pending::Pending;
use crate::token::Token;
use game::seat::SeatSet;

impl State {
    // Invariants

    /// Checks conservation of cards and chips (used by tests and `sabacc simulate`).
    pub fn check_invariants(&self) -> Result<(), String> {
        let mut set = CardSet::default();
        let mut count = 0usize;
        let mut add = |c: Card, set: &mut CardSet| {
            count += 1;
            set.insert(c);
        };
        if self.round > 0 {
            for f in 0..2 {
                for &c in self.draw[f].as_slice() {
                    if c.family().index() != f {
                        return Err(format!("card {c} lies in the wrong family's draw pile"));
                    }
                    add(c, &mut set);
                }
                for &c in self.discard[f].as_slice() {
                    if c.family().index() != f {
                        return Err(format!("card {c} lies in the wrong family's discard pile"));
                    }
                    add(c, &mut set);
                }
            }
            let in_round = !matches!(self.pending, Pending::GameOver | Pending::Truncated);
            let settled_players = self.settlement.as_ref().filter(|s| s.round == self.round && !in_round);
            for i in 0..self.config.players as usize {
                let p = &self.players[i];
                let holds = if let Some(s) = settled_players { s.seats[i].is_some() } else { !p.eliminated };
                if holds {
                    for f in 0..2 {
                        if p.hand[f].family().index() != f {
                            return Err(format!(
                                "seat {i} holds {} in its {} slot",
                                p.hand[f],
                                Family::from_index(f).letter()
                            ));
                        }
                        add(p.hand[f], &mut set);
                    }
                }
            }
            if let Pending::Keep { drawn, .. } = self.pending {
                add(drawn, &mut set);
            }
            if count != DECK_SIZE || set != CardSet::FULL {
                return Err(format!("{count} card places hold {} distinct cards; expected all 44 once", set.len()));
            }
        }
        let mut chips: u32 = self.removed;
        for p in &self.players[..self.config.players as usize] {
            chips += p.stock.0 as u32 + p.pot.0 as u32;
            if p.eliminated && (p.stock.0 != 0 || p.pot.0 != 0) {
                return Err("an eliminated player holds chips".into());
            }
        }
        if chips != self.config.total_chips() {
            return Err(format!(
                "stock + hand pots + removed = {chips}, but {} chips were dealt",
                self.config.total_chips()
            ));
        }
        if self.round > 0 && !self.revealed && !self.is_terminal() {
            // An Embargo binds the seat acting next; only the actor's own Embargo, played in this
            // action, can add a second one (on the seat after it).
            let mut allowed = SeatSet::EMPTY;
            allowed.insert(self.actor);
            if self.token_played && self.players[self.actor.index()].spent.contains(Token::Embargo) {
                allowed.insert(self.next_active(self.actor));
            }
            if self.effects.embargoed.0 & !allowed.0 != 0 {
                return Err(format!(
                    "Embargo pending on seats {:?} while {} acts",
                    self.effects.embargoed.iter().map(|s| s.0).collect::<Vec<_>>(),
                    self.actor
                ));
            }
        } else if !self.effects.embargoed.is_empty() {
            return Err("an Embargo outlived its round".into());
        }
        if self.mask != self.compute_mask() {
            return Err("the cached legal-action mask is stale".into());
        }
        if !self.is_terminal() && self.legal_mask().is_empty() {
            return Err("no legal action at a pending decision".into());
        }
        Ok(())
    }
}
