//! Information-state keys: everything a seat knows at a decision, as a small value.
//!
//! Two histories get the same key exactly when the seat cannot tell them apart, so tabular
//! solvers and best responses group histories by it. The key keeps suits: they never decide a
//! hand, but the player sees them, and a best response against a policy that looks at suits
//! must be allowed to look too. (Merging suits would give 288 keys instead of 936.)
//!
//! Text form: `seat:own:public:round1/round2`, e.g. `0:Ks:-:/` (seat 0 with K♠ opens the hand)
//! or `1:Jh:Qs:rc/r` (seat 1 with J♥, board Q♠, after raise-call and a bet in round 2). The
//! public card is `-` until revealed; actions are `f`, `c`, `r`.

use crate::action::{Action, ActionMask};
use crate::betting::Betting;
use crate::card::Card;
use crate::config::PLAYERS;
use crate::config::{ROUNDS, RuleConfig};
use crate::view::PlayerView;
use game::Seat;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// A seat's information state.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct InfoKey {
    /// The seat that knows this.
    pub seat: Seat,
    /// Its private card.
    pub own_card: Card,
    /// The public card, once revealed.
    pub public_card: Option<Card>,
    /// The betting of both rounds.
    pub history: [Vec<Action>; ROUNDS],
}

/// Why a key's text, or a key as a decision point, was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum InfoKeyError {
    /// The text does not have the `seat:own:public:round1/round2` shape.
    #[error("`{0}` is not an information-state key: expected `seat:own:public:round1/round2`, e.g. `1:Jh:Qs:rc/r`")]
    Syntax(String),
    /// The key names no decision of the given rules.
    #[error("`{key}` is not a decision point under these rules: {reason}")]
    NotADecision {
        /// The key's text.
        key: String,
        /// What is wrong with it.
        reason: &'static str,
    },
}

impl InfoKey {
    /// The key of what this view shows (the opponent's card, only ever shown once the hand is
    /// over, is not part of it: no decision is taken after that).
    pub fn from_view(view: &PlayerView) -> InfoKey {
        InfoKey {
            seat: view.seat,
            own_card: view.own_card,
            public_card: view.public_card,
            history: view.history.clone(),
        }
    }

    /// The legal actions at this key if it is a decision point of `seat` under `rules`.
    pub fn decision_mask(&self, rules: &RuleConfig) -> Result<ActionMask, InfoKeyError> {
        let fail = |reason| Err(InfoKeyError::NotADecision { key: self.to_string(), reason });
        if self.seat.index() >= PLAYERS {
            return fail("the seat must be 0 or 1");
        }
        if self.public_card == Some(self.own_card) {
            return fail("the public card repeats the private card");
        }
        let Some(first) = Betting::replay(rules, &self.history[0]) else {
            return fail("the round-1 betting is illegal");
        };
        let (round, current) = match self.public_card {
            None if !self.history[1].is_empty() => return fail("round-2 betting without a public card"),
            None => (first, &self.history[0]),
            Some(_) if !first.closed || first.folded => return fail("a public card before round 1 closed"),
            Some(_) => match Betting::replay(rules, &self.history[1]) {
                Some(b) => (b, &self.history[1]),
                None => return fail("the round-2 betting is illegal"),
            },
        };
        if round.closed {
            return fail("the betting is over");
        }
        if current.len() % PLAYERS != self.seat.index() {
            return fail("it is the other seat's turn");
        }
        Ok(round.legal(rules))
    }
}

impl From<&PlayerView> for InfoKey {
    fn from(view: &PlayerView) -> InfoKey {
        InfoKey::from_view(view)
    }
}

impl fmt::Display for InfoKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let public = self.public_card.map_or_else(|| "-".to_string(), |c| c.to_string());
        let h = self.history.each_ref().map(|r| r.iter().map(|a| a.letter()).collect::<String>());
        write!(f, "{}:{}:{}:{}/{}", self.seat.0, self.own_card, public, h[0], h[1])
    }
}

impl FromStr for InfoKey {
    type Err = InfoKeyError;

    fn from_str(s: &str) -> Result<InfoKey, InfoKeyError> {
        let bad = || InfoKeyError::Syntax(s.to_string());
        let parts: Vec<&str> = s.split(':').collect();
        let [seat, own, public, history] = parts[..] else { return Err(bad()) };
        let seat = match seat {
            "0" => Seat(0),
            "1" => Seat(1),
            _ => return Err(bad()),
        };
        let own_card = own.parse().map_err(|_| bad())?;
        let public_card = match public {
            "-" => None,
            p => Some(p.parse().map_err(|_| bad())?),
        };
        let (h1, h2) = history.split_once('/').ok_or_else(bad)?;
        let letters = |h: &str| h.chars().map(Action::from_letter).collect::<Option<Vec<Action>>>().ok_or_else(bad);
        Ok(InfoKey { seat, own_card, public_card, history: [letters(h1)?, letters(h2)?] })
    }
}

impl From<InfoKey> for String {
    fn from(k: InfoKey) -> String {
        k.to_string()
    }
}

impl TryFrom<String> for InfoKey {
    type Error = InfoKeyError;

    fn try_from(s: String) -> Result<InfoKey, InfoKeyError> {
        s.parse()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::State;

    #[test]
    fn text_form_round_trips() {
        for text in ["0:Ks:-:/", "1:Jh:Qs:rc/r", "0:Qh:-:cr/", "1:Js:Kh:crrc/c"] {
            let k: InfoKey = text.parse().unwrap();
            assert_eq!(k.to_string(), text);
            assert_eq!(serde_json::from_str::<InfoKey>(&serde_json::to_string(&k).unwrap()).unwrap(), k);
        }
    }

    #[test]
    fn malformed_text_is_refused_with_the_expected_shape() {
        for text in ["", "0:Ks:-", "2:Ks:-:/", "0:Ks:-:x/", "0:Ka:-:/", "0:Ks:-:r"] {
            let e = text.parse::<InfoKey>().unwrap_err();
            assert!(e.to_string().contains("seat:own:public"), "{text}: {e}");
        }
    }

    #[test]
    fn view_keys_are_decisions_with_the_states_legal_mask() {
        let rules = RuleConfig::default();
        let mut s = State::new(rules, 3).unwrap();
        for a in [Action::Raise, Action::Call, Action::Call] {
            let seat = s.current_player().unwrap();
            let key = InfoKey::from_view(&s.view(seat));
            assert_eq!(key.decision_mask(&rules), Ok(s.legal_mask()));
            s.apply(a).unwrap();
        }
        let key = InfoKey::from_view(&s.view(Seat(0)));
        assert!(key.decision_mask(&rules).is_err(), "seat 0 is not to act after a round-2 check");
    }
}
