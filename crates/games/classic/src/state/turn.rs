//! A turn's four phases (C2.4, C3): legal actions at each decision, betting with the stakes cap,
//! the shift, calls, drawing, and the passage from turn to turn and round to round.

use super::{Pending, ShiftSwap, State};
use crate::action::{Action, ActionMask, BET_INDEX, DROP_INDEX, RAISE_INDEX};
use crate::card::Card;
use crate::config::{ExchangeDrop, Stakes};
use crate::error::ActionError;
use crate::event::Event;
use game::seat::{MAX_PLAYERS, Seat};

impl State {
    pub(crate) fn compute_mask(&self) -> ActionMask {
        let mut m = ActionMask::default();
        let p = &self.players[self.actor.index()];
        let cfg = &self.config;
        match self.pending {
            Pending::Bet => {
                m.set(Action::Check);
                m.set(Action::Fold);
                let max = (cfg.bet_limit as u32).min(self.betting.cap).min(p.credits);
                m.set_range(BET_INDEX, max as usize);
            }
            Pending::Answer => {
                m.set(Action::Fold);
                let b = &self.betting;
                if b.to_match == 0 {
                    m.set(Action::Stay);
                } else {
                    let need = b.to_match - p.contributed;
                    if need <= p.credits {
                        m.set(Action::Match);
                        if b.raises < cfg.raises_per_phase {
                            let max =
                                (cfg.bet_limit as u32).min(b.cap.saturating_sub(b.to_match)).min(p.credits - need);
                            m.set_range(RAISE_INDEX, max as usize);
                        }
                    }
                }
            }
            Pending::Call => {
                m.set(Action::Call);
                m.set(Action::DeclineCall);
            }
            Pending::Draw => {
                m.set(Action::Pass);
                if !self.deck.is_empty() {
                    let len = p.hand.len();
                    if len < cfg.max_hand_size as usize {
                        m.set(Action::Draw);
                    }
                    if len > 2 {
                        m.set(Action::Exchange);
                    }
                }
            }
            Pending::Drop => {
                let len = p.hand.len();
                let k = match cfg.exchange {
                    ExchangeDrop::HeldBeforeDraw => len.saturating_sub(1),
                    ExchangeDrop::AnyCard => len,
                };
                m.set_range(DROP_INDEX, k);
            }
            Pending::GameOver | Pending::Truncated => {}
        }
        m
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
        if !self.mask.contains(action) {
            return Err(ActionError::Illegal { action, pending: self.pending, seat: self.actor });
        }
        self.apply_legal(action);
        Ok(())
    }

    /// [`State::apply`] for an action already found in [`State::legal_mask`]: the env checks
    /// each decision once, so the engine does not check it again outside debug builds.
    pub(crate) fn apply_legal(&mut self, action: Action) {
        debug_assert!(!self.is_terminal() && self.mask.contains(action), "apply_legal: {action:?} is not legal here");
        match self.pending {
            Pending::Bet => self.open_betting(action),
            Pending::Answer => self.answer(action),
            Pending::Call => self.call_or_decline(action),
            Pending::Draw => self.draw(action),
            Pending::Drop => {
                let Action::Drop(i) = action else { unreachable!("the mask holds only drops") };
                let seat = self.turn_seat;
                let p = &mut self.players[seat.index()];
                let c = p.hand.remove(i as usize);
                p.put_out.insert(c);
                self.out.push(c);
                self.log(Event::Dropped { seat, card: Some(c) });
                self.end_turn();
            }
            Pending::GameOver | Pending::Truncated => unreachable!("a finished game has no legal action"),
        }
        self.refresh_mask();
    }

    // Betting (C3.1–C3.3)

    /// A new turn: the betting phase opens with the turn player's decision.
    pub(super) fn start_turn(&mut self) {
        let seat = self.turn_seat;
        self.log(Event::TurnStarted { seat, round: self.round });
        self.die = None;
        self.turn_folded = false;
        let mut cap = u32::MAX;
        for (i, p) in self.players.iter_mut().enumerate().take(self.config.players as usize) {
            p.contributed = 0;
            if self.config.stakes == Stakes::SmallestStack && p.credits >= 1 && self.live.contains(Seat(i as u8)) {
                cap = cap.min(p.credits);
            }
        }
        if self.config.stakes == Stakes::SmallestStack && cap == u32::MAX {
            cap = 0;
        }
        self.betting = super::Betting { to_match: 0, raises: 0, cap, waiting: Default::default() };
        self.actor = seat;
        self.pending = Pending::Bet;
    }

    #[inline]
    fn pay_in(&mut self, seat: Seat, amount: u32) {
        let p = &mut self.players[seat.index()];
        p.credits -= amount;
        p.contributed += amount;
        self.hand_pot += amount;
    }

    /// Folds `seat` (C3.3): 1 credit (or nothing, at 0) to the sabacc pot, cards out of play.
    /// Returns true when the fold left a single player, who has then won the hand (C4.1).
    fn fold(&mut self, seat: Seat) -> bool {
        let p = &mut self.players[seat.index()];
        let paid = p.credits.min(1);
        p.credits -= paid;
        p.folded = true;
        let hand = p.hand;
        p.hand.clear();
        self.sabacc_pot += paid;
        for &c in hand.as_slice() {
            p.put_out.insert(c);
            self.out.push(c);
        }
        self.live.remove(seat);
        self.betting.waiting.remove(seat);
        if seat == self.turn_seat {
            self.turn_folded = true;
        }
        self.log(Event::Folded { seat, paid });
        if self.live.len() == 1 {
            self.win_by_folds();
            return true;
        }
        false
    }

    fn open_betting(&mut self, action: Action) {
        let seat = self.turn_seat;
        match action {
            Action::Check => self.log(Event::Checked { seat }),
            Action::Bet(b) => {
                self.pay_in(seat, b as u32);
                self.betting.to_match = b as u32;
                self.log(Event::Bet { seat, amount: b as u32 });
            }
            Action::Fold => {
                if self.fold(seat) {
                    return;
                }
            }
            _ => unreachable!("the mask holds only opening actions"),
        }
        let mut waiting = self.live;
        waiting.remove(seat);
        self.betting.waiting = waiting;
        self.next_answer(seat);
    }

    fn answer(&mut self, action: Action) {
        let seat = self.actor;
        match action {
            Action::Stay => {
                self.betting.waiting.remove(seat);
                self.log(Event::Stayed { seat });
            }
            Action::Match => {
                let paid = self.betting.to_match - self.players[seat.index()].contributed;
                self.pay_in(seat, paid);
                self.betting.waiting.remove(seat);
                self.log(Event::Matched { seat, paid });
            }
            Action::Raise(r) => {
                let to = self.betting.to_match + r as u32;
                let paid = to - self.players[seat.index()].contributed;
                self.pay_in(seat, paid);
                self.betting.to_match = to;
                self.betting.raises += 1;
                let mut waiting = self.live;
                waiting.remove(seat);
                self.betting.waiting = waiting;
                self.log(Event::Raised { seat, by: r, to, paid });
            }
            Action::Fold => {
                if self.fold(seat) {
                    return;
                }
            }
            _ => unreachable!("the mask holds only answers"),
        }
        self.next_answer(seat);
    }

    /// The next player clockwise from `from` still to answer, or the shifting phase.
    fn next_answer(&mut self, from: Seat) {
        match self.betting.waiting.next_after(from, self.config.players) {
            Some(s) => {
                self.actor = s;
                self.pending = Pending::Answer;
            }
            None => self.shifting_phase(),
        }
    }

    // Shifting (C3.4)

    fn shifting_phase(&mut self) {
        let roller = self.turn_seat;
        let d = self.rng.die();
        self.die = Some(d);
        self.log(Event::DieRolled { seat: roller, value: d });
        if d <= 3 {
            self.shift();
        }
        self.calling_phase();
    }

    /// One card at random from each player still in; the taken cards shuffled; each player,
    /// from the dealer's left, takes one and places it last.
    fn shift(&mut self) {
        let n = self.config.players;
        let mut order = [Seat(0); MAX_PLAYERS];
        let mut k = 0;
        for i in 1..=n {
            let s = self.dealer.offset(i, n);
            if self.live.contains(s) {
                order[k] = s;
                k += 1;
            }
        }
        let mut lost = [Card::from_id(0).expect("card 0"); MAX_PLAYERS];
        for (j, s) in order[..k].iter().enumerate() {
            let len = self.players[s.index()].hand.len();
            let idx = self.rng.shift_pick(len);
            lost[j] = self.players[s.index()].hand.remove(idx);
        }
        let mut pool = lost;
        self.rng.shuffle_shift(&mut pool[..k]);
        self.log(Event::Shifted { seats: self.live });
        for j in 0..k {
            let s = order[j];
            let p = &mut self.players[s.index()];
            p.hand.push(pool[j]);
            p.shift = Some(ShiftSwap { lost: lost[j], got: pool[j] });
            self.log(Event::ShiftCards { seat: s, lost: Some(lost[j]), got: Some(pool[j]) });
        }
    }

    // Calling (C3.5)

    /// The next player after `from`, in order from the turn player's left and before the turn
    /// player comes round again, who may call: still in, holding a credit.
    fn next_caller(&self, from: Seat) -> Option<Seat> {
        let n = self.config.players;
        let t = self.turn_seat;
        let start = (from.0 + n - t.0) % n;
        for k in start + 1..n {
            let s = t.offset(k, n);
            if self.live.contains(s) && self.players[s.index()].credits >= 1 {
                return Some(s);
            }
        }
        None
    }

    fn calling_phase(&mut self) {
        if self.calls_open()
            && let Some(s) = self.next_caller(self.turn_seat)
        {
            self.actor = s;
            self.pending = Pending::Call;
            return;
        }
        self.drawing_phase();
    }

    fn call_or_decline(&mut self, action: Action) {
        let seat = self.actor;
        if action == Action::Call {
            self.log(Event::Called { seat });
            self.resolve_call(Some(seat));
            return;
        }
        self.log(Event::DeclinedCall { seat });
        match self.next_caller(seat) {
            Some(s) => self.actor = s,
            None => self.drawing_phase(),
        }
    }

    // Drawing (C3.6)

    fn drawing_phase(&mut self) {
        if self.turn_folded {
            self.end_turn();
        } else {
            self.actor = self.turn_seat;
            self.pending = Pending::Draw;
        }
    }

    fn draw(&mut self, action: Action) {
        let seat = self.turn_seat;
        match action {
            Action::Pass => {
                self.log(Event::Passed { seat });
                self.end_turn();
            }
            Action::Draw | Action::Exchange => {
                let c = self.deck.pop().expect("the mask offers a draw only from a non-empty deck");
                self.players[seat.index()].hand.push(c);
                let exchange = action == Action::Exchange;
                self.log(Event::Drew { seat, exchange, card: Some(c) });
                if exchange {
                    self.pending = Pending::Drop;
                } else {
                    self.end_turn();
                }
            }
            _ => unreachable!("the mask holds only drawing actions"),
        }
    }

    // Turns and rounds (C2.4, C2.5)

    /// Completes the turn; skips folded players (their turns count as completed); ends a round
    /// after the dealer's turn, and the hand by an automatic call after the last round.
    fn end_turn(&mut self) {
        let mut seat = self.turn_seat;
        self.players[seat.index()].completed_turns += 1;
        loop {
            if seat == self.dealer {
                if self.round >= self.config.max_rounds_per_hand {
                    self.log(Event::AutoCalled { round: self.round });
                    self.resolve_call(None);
                    return;
                }
                self.round += 1;
            }
            seat = self.next_in_game(seat);
            if !self.players[seat.index()].folded {
                break;
            }
            self.players[seat.index()].completed_turns += 1;
        }
        self.turn_seat = seat;
        self.start_turn();
    }
}
