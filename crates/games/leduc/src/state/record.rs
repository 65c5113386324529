//! The serialized form of a state: its rules, its deal and its actions.
//!
//! Reading one back replays the actions, so a deserialized state satisfies every invariant and
//! its event log is rebuilt exactly as it was.

use super::State;
use crate::action::Action;
use crate::config::RuleConfig;
use crate::deal::Deal;
use crate::error::ReplayError;
use serde::{Deserialize, Serialize};

/// A hand as a record: enough to rebuild its state exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct StateRecord {
    /// The rules.
    pub rules: RuleConfig,
    /// The dealt cards.
    pub deal: Deal,
    /// Every action in order, both rounds.
    pub actions: Vec<Action>,
    /// The seed the deal came from (0, or absent, for a deal given card by card).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub seed: u64,
}

fn is_zero(x: &u64) -> bool {
    *x == 0
}

/// A state is written as its record.
impl Serialize for State {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        StateRecord::from(self.clone()).serialize(s)
    }
}

/// A state is read by replaying its record, so it satisfies every invariant.
impl<'de> Deserialize<'de> for State {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<State, D::Error> {
        State::try_from(StateRecord::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

impl From<State> for StateRecord {
    fn from(s: State) -> StateRecord {
        StateRecord { actions: s.actions().collect(), rules: s.rules, deal: s.deal, seed: s.seed }
    }
}

impl TryFrom<StateRecord> for State {
    type Error = ReplayError;

    fn try_from(r: StateRecord) -> Result<State, ReplayError> {
        let mut s = State::with_deal(r.rules, r.deal.private, r.deal.public)?;
        s.seed = r.seed;
        for (step, &a) in r.actions.iter().enumerate() {
            s.apply(a).map_err(|source| ReplayError::Action { step, source })?;
        }
        Ok(s)
    }
}
