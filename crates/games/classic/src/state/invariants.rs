//! Conservation of cards and credits and the consistency of the position, checked after every
//! action by tests and `simulate`, and once by [`super::StateBuilder::build`].

use super::{Pending, State};
use crate::card::{CardSet, DECK_SIZE};
use game::seat::{Seat, SeatSet};

impl State {
    /// Checks every invariant: the 76 cards each exactly once across the deck, hands and
    /// out-of-play pile; credits conserved across stacks and both pots; hand sizes; the live set;
    /// the betting phase; a fresh legal mask with a legal action at every decision.
    pub fn check_invariants(&self) -> Result<(), String> {
        let n = self.config.players;
        let mut set = CardSet::default();
        let mut count = self.deck.len() + self.out.len();
        for &c in self.deck.as_slice().iter().chain(self.out.as_slice()) {
            set.insert(c);
        }
        let terminal = self.is_terminal();
        let mut live = SeatSet::EMPTY;
        let mut credits: u64 = self.hand_pot as u64 + self.sabacc_pot as u64;
        for i in 0..game::seat::MAX_PLAYERS {
            let p = &self.players[i];
            let s = Seat(i as u8);
            credits += p.credits as u64;
            if i >= n as usize {
                if p.in_game || p.credits != 0 || !p.hand.is_empty() {
                    return Err(format!("{s} is beyond the table but holds credits or cards"));
                }
                continue;
            }
            for &c in p.hand.as_slice() {
                set.insert(c);
            }
            count += p.hand.len();
            if !p.in_game {
                if p.credits != 0 || !p.hand.is_empty() || p.folded {
                    return Err(format!("{s} left the game but holds credits or cards, or is marked folded"));
                }
                continue;
            }
            if terminal {
                continue;
            }
            if p.folded {
                if !p.hand.is_empty() {
                    return Err(format!("{s} folded but still holds cards"));
                }
                continue;
            }
            live.insert(s);
            let len = p.hand.len();
            let max = self.config.max_hand_size as usize;
            let dropping = self.pending == Pending::Drop && s == self.turn_seat;
            let ok = if dropping { (3..=max + 1).contains(&len) } else { (2..=max).contains(&len) };
            if !ok {
                return Err(format!("{s} holds {len} cards (allowed 2..={max}, one more while dropping)"));
            }
            if p.contributed > self.betting.to_match {
                return Err(format!("{s} put in {} this phase, above the amount to match", p.contributed));
            }
        }
        let mut out = CardSet::default();
        for &c in self.out.as_slice() {
            out.insert(c);
        }
        let mut owned = CardSet::default();
        for (i, p) in self.players.iter().enumerate() {
            if p.put_out.0 & !out.0 != 0 || p.put_out.0 & owned.0 != 0 {
                return Err(format!("{} put out cards that are not out of play, or another seat's", Seat(i as u8)));
            }
            owned.0 |= p.put_out.0;
        }
        if count != DECK_SIZE || set != CardSet::FULL {
            return Err(format!("{count} card places hold {} distinct cards; expected all 76 once", set.len()));
        }
        if credits != self.config.total_credits() {
            return Err(format!(
                "stacks + hand pot + sabacc pot = {credits}, but {} credits were dealt",
                self.config.total_credits()
            ));
        }
        if !terminal {
            if live != self.live {
                return Err(format!("the live set {:#b} disagrees with the players ({:#b})", self.live.0, live.0));
            }
            if live.len() < 2 {
                return Err("fewer than two players are still in a hand in progress".into());
            }
            if !self.live.contains(self.actor) {
                return Err(format!("{} decides but is not in the hand", self.actor));
            }
            let turn_in = self.live.contains(self.turn_seat);
            if turn_in == self.turn_folded {
                return Err("the turn player's folded flag disagrees with the live set".into());
            }
            let turn_decides = matches!(self.pending, Pending::Bet | Pending::Draw | Pending::Drop);
            if turn_decides != (self.actor == self.turn_seat) && self.pending != Pending::Answer {
                return Err(format!("{:?} decided by {} during {}'s turn", self.pending, self.actor, self.turn_seat));
            }
            if self.betting.to_match > self.betting.cap {
                return Err("the amount to match is above the stakes cap".into());
            }
            if self.betting.waiting.0 & !self.live.0 != 0 {
                return Err("a player waiting to answer is not in the hand".into());
            }
        }
        if self.mask != self.compute_mask() {
            return Err("the cached legal-action mask is stale".into());
        }
        if !terminal && self.mask.is_empty() {
            return Err("no legal action at a pending decision".into());
        }
        Ok(())
    }
}
