//! Self-checks of a state, recomputed from scratch rather than trusted from its fields.
//!
//! Tests and fuzzers call [`State::check_invariants`] after every step; it is cheap (a hand has
//! at most a dozen actions).

use super::State;
use crate::action::Action;
use crate::betting::Betting;
use crate::config::PLAYERS;
use crate::event::Event;

impl State {
    /// Checks that chips are conserved, each round's betting was legal (at most `max_raises`
    /// bets-or-raises, folds only facing a bet), the contributions match the betting, the hand
    /// ends exactly when the betting says so, and the event log tells the same story.
    pub fn check_invariants(&self) -> Result<(), String> {
        self.rules.validate().map_err(|e| e.to_string())?;
        let d = self.deal;
        if d.private[0] == d.private[1] || d.private.contains(&d.public) {
            return Err(format!("deal {:?} repeats a card", d));
        }
        if !(1..=2).contains(&self.round) {
            return Err(format!("round {} is neither 1 nor 2", self.round));
        }

        // Replay each round's betting and recompute contributions: a call brings the caller
        // level with the other seat, a raise goes one raise size above it.
        let mut contrib = [self.rules.ante; PLAYERS];
        let mut closed = [false; 2];
        let mut folded_by = None;
        for (r, actions) in self.history.iter().enumerate() {
            let b = Betting::replay(&self.rules, actions)
                .ok_or_else(|| format!("round {} betting {actions:?} is illegal", r + 1))?;
            if b.raises > self.rules.max_raises {
                return Err(format!("round {} has {} raises, more than {}", r + 1, b.raises, self.rules.max_raises));
            }
            closed[r] = b.closed;
            let size = self.rules.raise_sizes[r];
            for (k, &a) in actions.iter().enumerate() {
                let (me, opp) = (k % PLAYERS, 1 - k % PLAYERS);
                match a {
                    Action::Fold => folded_by = Some(me),
                    Action::Call => contrib[me] = contrib[opp],
                    Action::Raise => contrib[me] = contrib[opp] + size,
                }
            }
        }
        if contrib != self.contributions {
            return Err(format!("contributions {:?}, but the betting gives {contrib:?}", self.contributions));
        }
        if contrib.iter().any(|&c| c > self.rules.max_contribution()) {
            return Err(format!("contributions {contrib:?} exceed the most possible"));
        }
        if folded_by.map(|i| i as u8) != self.folded.map(|s| s.0) {
            return Err(format!("folded seat {:?}, but the betting says {folded_by:?}", self.folded));
        }

        // Round 2 starts exactly when round 1 closed without a fold; the hand ends on a fold or
        // when round 2 closes.
        if (self.round == 2) != (closed[0] && !self.history[0].ends_with(&[Action::Fold])) {
            return Err(format!("round {} after round-1 betting {:?}", self.round, self.history[0]));
        }
        if self.round == 1 && !self.history[1].is_empty() {
            return Err("round-2 actions while still in round 1".into());
        }
        let should_end = folded_by.is_some() || closed[1];
        if self.over != should_end {
            return Err(format!("hand over = {}, but the betting says {should_end}", self.over));
        }

        // Chips conserved: at the end each seat is paid back its contribution plus its return;
        // the payouts are never negative and add up to the pot exactly.
        let r = self.returns();
        let payout: Vec<f64> = (0..PLAYERS).map(|i| f64::from(contrib[i]) + r[i]).collect();
        if self.over && (payout.iter().any(|&p| p < 0.0) || payout.iter().sum::<f64>() != f64::from(self.pot())) {
            return Err(format!("payouts {payout:?} do not share out the pot {}", self.pot()));
        }
        if !self.over && r != [0.0; PLAYERS] {
            return Err(format!("returns {r:?} before the end"));
        }

        // The log: one action event per action, a public card once round 2 began, and a
        // result exactly at the end.
        let n_actions = self.events.iter().filter(|e| matches!(e, Event::Action { .. })).count();
        if n_actions != self.history.iter().map(Vec::len).sum::<usize>() {
            return Err(format!("{n_actions} action events for {:?}", self.history));
        }
        let n_public = self.events.iter().filter(|e| matches!(e, Event::PublicCard { .. })).count();
        if n_public != usize::from(self.round == 2) {
            return Err(format!("{n_public} public-card events in round {}", self.round));
        }
        let ended = matches!(self.events.last(), Some(Event::Result { returns }) if *returns == r);
        if ended != self.over {
            return Err(format!("log ends with {:?} but hand over = {}", self.events.last(), self.over));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::{Action, RuleConfig, State};
    use game::Seat;

    fn played() -> State {
        let mut s = State::new(RuleConfig::default(), 11).unwrap();
        for a in [Action::Raise, Action::Call, Action::Call, Action::Raise] {
            s.apply(a).unwrap();
        }
        s.check_invariants().unwrap();
        s
    }

    #[test]
    fn tampered_fields_are_caught() {
        let mut s = played();
        s.contributions[0] += 1;
        assert!(s.check_invariants().unwrap_err().contains("contributions"));
        let mut s = played();
        s.over = true;
        assert!(s.check_invariants().is_err());
        let mut s = played();
        s.history[1].push(Action::Raise);
        s.history[1].push(Action::Raise);
        assert!(s.check_invariants().unwrap_err().contains("illegal"), "a third raise in round 2");
        let mut s = played();
        s.folded = Some(Seat(1));
        assert!(s.check_invariants().unwrap_err().contains("folded"));
        let mut s = played();
        s.events.pop();
        assert!(s.check_invariants().unwrap_err().contains("action events"));
    }
}
