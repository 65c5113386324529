//! Policies: probability vectors over the three actions, and a table of them by information
//! state that can be saved as a small JSON file.
//!
//! A probability vector is valid for a decision when every entry is finite and non-negative,
//! illegal actions get exactly 0, and the entries sum to 1 within [`SUM_TOLERANCE`] (so a file
//! with rounded numbers still loads).

use crate::action::{Action, ActionMask, NUM_ACTIONS};
use crate::config::RuleConfig;
use crate::infoset::{InfoKey, InfoKeyError};
use crate::view::PlayerView;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// How far from 1 the sum of a probability vector may be.
pub const SUM_TOLERANCE: f64 = 1e-6;

/// The `format` tag of a policy file.
pub const POLICY_FORMAT: &str = "leduc-tabular-policy";
/// The version of the policy file layout.
pub const POLICY_VERSION: u32 = 1;

/// Why a probability vector is not a distribution over the legal actions.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum DistributionError {
    /// An entry is NaN or infinite.
    #[error("probability of `{0}` is not a finite number")]
    NotFinite(Action),
    /// An entry is negative.
    #[error("probability of `{action}` is {p}, below 0")]
    Negative {
        /// The action.
        action: Action,
        /// Its probability.
        p: f64,
    },
    /// An illegal action has probability.
    #[error("`{action}` is illegal here but has probability {p}; give it 0")]
    Illegal {
        /// The action.
        action: Action,
        /// Its probability.
        p: f64,
    },
    /// The entries do not sum to 1.
    #[error("probabilities sum to {0}, not 1")]
    Sum(f64),
}

/// Checks that `probs` is a distribution over the actions legal in `mask`.
pub fn check_distribution(probs: [f64; NUM_ACTIONS], mask: ActionMask) -> Result<(), DistributionError> {
    for (a, &p) in Action::ALL.iter().zip(&probs) {
        if !p.is_finite() {
            return Err(DistributionError::NotFinite(*a));
        }
        if p < 0.0 {
            return Err(DistributionError::Negative { action: *a, p });
        }
        if p != 0.0 && !mask.contains(*a) {
            return Err(DistributionError::Illegal { action: *a, p });
        }
    }
    let sum: f64 = probs.iter().sum();
    if (sum - 1.0).abs() > SUM_TOLERANCE {
        return Err(DistributionError::Sum(sum));
    }
    Ok(())
}

/// The uniform distribution over the legal actions (all zeros for an empty mask).
pub fn uniform(mask: ActionMask) -> [f64; NUM_ACTIONS] {
    let n = mask.count() as f64;
    std::array::from_fn(|i| if mask.contains_index(i) { 1.0 / n } else { 0.0 })
}

/// Why a policy was refused or could not be read or written.
#[derive(Debug, Error)]
pub enum PolicyError {
    /// The text is not a policy file.
    #[error("policy file: {0}")]
    Json(String),
    /// The file is another format or version.
    #[error("policy file is `{format}` version {version}; this build reads `{POLICY_FORMAT}` version {POLICY_VERSION}")]
    Version {
        /// The file's format tag.
        format: String,
        /// The file's version.
        version: u32,
    },
    /// A key is malformed or no decision point.
    #[error("policy entry: {0}")]
    Key(#[from] InfoKeyError),
    /// An entry is not a distribution over its legal actions.
    #[error("policy entry `{key}`: {source}")]
    Distribution {
        /// The entry's key.
        key: String,
        /// What is wrong with it.
        source: DistributionError,
    },
    /// Reading or writing the file failed.
    #[error("policy file {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

/// Action probabilities by information state, for one set of rules.
///
/// Every entry is checked when inserted or loaded, so a policy in hand is always valid.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(into = "PolicyFile", try_from = "PolicyFile")]
pub struct TabularPolicy {
    rules: RuleConfig,
    table: BTreeMap<InfoKey, [f64; NUM_ACTIONS]>,
}

impl TabularPolicy {
    /// An empty policy (every decision uniform, see [`TabularPolicy::action_probs`]).
    pub fn new(rules: RuleConfig) -> TabularPolicy {
        TabularPolicy { rules, table: BTreeMap::new() }
    }

    /// The rules the policy is for.
    pub fn rules(&self) -> &RuleConfig {
        &self.rules
    }

    /// Sets the probabilities at `key`, after checking that `key` is a decision point and
    /// `probs` a distribution over its legal actions.
    pub fn insert(&mut self, key: InfoKey, probs: [f64; NUM_ACTIONS]) -> Result<(), PolicyError> {
        let mask = key.decision_mask(&self.rules)?;
        check_distribution(probs, mask).map_err(|source| PolicyError::Distribution { key: key.to_string(), source })?;
        self.table.insert(key, probs);
        Ok(())
    }

    /// The probabilities stored at `key`.
    pub fn get(&self, key: &InfoKey) -> Option<[f64; NUM_ACTIONS]> {
        self.table.get(key).copied()
    }

    /// Number of information states with an entry.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// True when no information state has an entry.
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// The entries in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&InfoKey, &[f64; NUM_ACTIONS])> {
        self.table.iter()
    }

    /// The probabilities for the seat of `view` at this decision: its entry, or uniform over
    /// `mask` when the policy has none (an information state the solver never reached).
    pub fn action_probs(&self, view: &PlayerView, mask: ActionMask) -> [f64; NUM_ACTIONS] {
        self.get(&InfoKey::from_view(view)).unwrap_or_else(|| uniform(mask))
    }

    /// The policy as JSON (keys in order, numbers exact).
    pub fn to_json(&self) -> String {
        // A map of strings to arrays of finite floats always serializes.
        serde_json::to_string(self).expect("policy serializes")
    }

    /// Reads and checks a policy written by [`TabularPolicy::to_json`]. Probabilities come back
    /// to within one unit in the last place (serde_json's default float parser).
    pub fn from_json(text: &str) -> Result<TabularPolicy, PolicyError> {
        let file: PolicyFile = serde_json::from_str(text).map_err(|e| PolicyError::Json(e.to_string()))?;
        TabularPolicy::try_from(file)
    }

    /// Writes the policy to a JSON file.
    pub fn save(&self, path: &Path) -> Result<(), PolicyError> {
        std::fs::write(path, self.to_json()).map_err(|source| PolicyError::Io { path: path.into(), source })
    }

    /// Reads a policy from a JSON file.
    pub fn load(path: &Path) -> Result<TabularPolicy, PolicyError> {
        let text = std::fs::read_to_string(path).map_err(|source| PolicyError::Io { path: path.into(), source })?;
        TabularPolicy::from_json(&text)
    }
}

/// The file layout: a format tag and version, the rules, and the entries by key text.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PolicyFile {
    format: String,
    version: u32,
    rules: RuleConfig,
    policy: BTreeMap<String, [f64; NUM_ACTIONS]>,
}

impl From<TabularPolicy> for PolicyFile {
    fn from(p: TabularPolicy) -> PolicyFile {
        PolicyFile {
            format: POLICY_FORMAT.into(),
            version: POLICY_VERSION,
            rules: p.rules,
            policy: p.table.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        }
    }
}

impl TryFrom<PolicyFile> for TabularPolicy {
    type Error = PolicyError;

    fn try_from(f: PolicyFile) -> Result<TabularPolicy, PolicyError> {
        if f.format != POLICY_FORMAT || f.version != POLICY_VERSION {
            return Err(PolicyError::Version { format: f.format, version: f.version });
        }
        let mut p = TabularPolicy::new(f.rules);
        for (key, probs) in f.policy {
            p.insert(key.parse()?, probs)?;
        }
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(s: &str) -> InfoKey {
        s.parse().unwrap()
    }

    #[test]
    fn distributions_are_checked_against_the_mask() {
        let m = ActionMask::default().with(Action::Call).with(Action::Raise);
        assert_eq!(check_distribution([0.0, 0.5, 0.5], m), Ok(()));
        assert!(matches!(check_distribution([0.1, 0.4, 0.5], m), Err(DistributionError::Illegal { .. })));
        assert!(matches!(check_distribution([0.0, 1.5, -0.5], m), Err(DistributionError::Negative { .. })));
        assert!(matches!(check_distribution([0.0, f64::NAN, 0.5], m), Err(DistributionError::NotFinite(_))));
        assert!(matches!(check_distribution([0.0, 0.4, 0.5], m), Err(DistributionError::Sum(_))));
        assert_eq!(uniform(m), [0.0, 0.5, 0.5]);
    }

    #[test]
    fn policy_json_round_trips() {
        let mut p = TabularPolicy::new(RuleConfig::default());
        p.insert(key("0:Ks:-:/"), [0.0, 0.1, 0.9]).unwrap();
        p.insert(key("1:Jh:Qs:rc/r"), [0.7, 0.2, 0.1]).unwrap();
        let back = TabularPolicy::from_json(&p.to_json()).unwrap();
        assert_eq!(back, p);
    }

    #[test]
    fn bad_entries_are_refused_with_their_key() {
        let mut p = TabularPolicy::new(RuleConfig::default());
        let e = p.insert(key("0:Ks:-:/"), [0.5, 0.5, 0.0]).unwrap_err();
        assert!(e.to_string().contains("0:Ks:-:/") && e.to_string().contains("`fold` is illegal"), "{e}");
        let e = p.insert(key("1:Ks:-:/"), [0.0, 0.5, 0.5]).unwrap_err();
        assert!(e.to_string().contains("other seat's turn"), "{e}");
        let e = TabularPolicy::from_json(r#"{"format":"x","version":9,"rules":{},"policy":{}}"#).unwrap_err();
        assert!(e.to_string().contains("version 9"), "{e}");
        let e = TabularPolicy::load(Path::new("/nonexistent/leduc-policy.json")).unwrap_err();
        assert!(e.to_string().contains("/nonexistent/leduc-policy.json"), "{e}");
    }
}
