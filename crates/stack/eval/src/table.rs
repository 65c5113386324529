//! A policy as a table: its action distribution at every information set of a game small enough
//! to walk ([`Game::deals`]), keyed by the acting seat's view (serialised), and saved as a small
//! JSON file that plays as an agent (`sabacc exploitability AGENT --save-table FILE`, then
//! `FILE` wherever an agent spec goes).
//!
//! Why: a population of networks (PSRO's) is asked for the same few hundred distributions again
//! and again — as a trainer's opponents, in every payoff walk, in every mixture — and a lookup
//! costs a hash of the view where a network costs a forward pass and its loading. A table holds
//! a network's probabilities exactly (each `f32` is an `f64` without rounding, and JSON keeps
//! every `f64`), so its payoffs and exploitability are the network's to the last bit.

use crate::exploitability::{ExploitabilityError, MAX_HISTORIES, after, distribution, infoset_key};
use game::{Agent, AgentError, AgentRng, Game, GameAction, LegalMask};
use rand::RngExt;
use serde::{Deserialize, Serialize};
use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The `format` tag of a table file.
pub const TABLE_FORMAT: &str = "sabacc-policy-table";
/// The version of the table file's layout.
pub const TABLE_VERSION: u32 = 1;

/// How far from 1 a loaded distribution's sum may be (rounded numbers written by hand still load).
const SUM_TOLERANCE: f64 = 1e-6;

/// A tabular policy of game `G`: a distribution per information set. An [`Agent`] like any
/// other; asked at a set it does not hold (other rules than it was made under), it fails.
pub struct TablePolicy<G: Game> {
    name: String,
    table: HashMap<String, Vec<f64>>,
    game: PhantomData<fn() -> G>,
}

/// Why a table file cannot be read or written.
#[derive(Debug, Error)]
pub enum TableError {
    /// The file cannot be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
    /// The file is not a table of this game, or not valid.
    #[error("{path} is not a usable policy table: {why}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong, for the user.
        why: String,
    },
}

/// The file's layout; sets are sorted so that the same policy writes the same bytes.
#[derive(Serialize, Deserialize)]
struct TableFile {
    format: String,
    version: u32,
    game: String,
    name: String,
    infosets: BTreeMap<String, Vec<f64>>,
}

impl<G: Game> TablePolicy<G> {
    /// A table named `name` from its distributions by information-set key.
    pub(crate) fn from_table(name: &str, table: HashMap<String, Vec<f64>>) -> TablePolicy<G> {
        TablePolicy { name: name.to_string(), table, game: PhantomData }
    }

    /// `agent`'s distribution at every information set of game `G` under `rules`, asked once
    /// each: the agent as a table, named `name`.
    pub fn of_agent(
        name: &str,
        agent: &mut dyn Agent<G>,
        rules: &G::Rules,
    ) -> Result<TablePolicy<G>, ExploitabilityError> {
        let deals = G::deals(rules).ok_or(ExploitabilityError::NotEnumerable { game: G::NAME })?;
        let mut table = HashMap::new();
        let mut histories = 0;
        let mut stack: Vec<G::State> = deals.into_iter().map(|(_, s)| s).collect();
        while let Some(state) = stack.pop() {
            histories += 1;
            if histories > MAX_HISTORIES {
                return Err(ExploitabilityError::TooLarge(MAX_HISTORIES));
            }
            let Some(actor) = G::current_player(&state) else { continue };
            let legal = G::legal_mask(&state);
            let view = G::view(&state, actor);
            let key = infoset_key::<G>(&view);
            if let Entry::Vacant(slot) = table.entry(key) {
                slot.insert(distribution::<G>(agent, &view, legal)?);
            }
            stack.extend(legal.index_list().into_iter().map(|i| after::<G>(&state, i)));
        }
        Ok(TablePolicy::from_table(name, table))
    }

    /// Information sets in the table.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Whether the table is empty (a game without decisions).
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// Writes the table to `path` (through a temporary file beside it, so an interrupted write
    /// leaves no half file under the name).
    pub fn save(&self, path: &Path) -> Result<(), TableError> {
        let file = TableFile {
            format: TABLE_FORMAT.to_string(),
            version: TABLE_VERSION,
            game: G::SPEC.game.to_string(),
            name: self.name.clone(),
            infosets: self.table.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        };
        let text = serde_json::to_string(&file).expect("a table serialises");
        let io = |source| TableError::Io { path: path.to_path_buf(), source };
        let partial = path.with_extension("json.partial");
        std::fs::write(&partial, text).map_err(io)?;
        std::fs::rename(&partial, path).map_err(io)
    }

    /// Reads a table of game `G` written by [`TablePolicy::save`]; every distribution is checked
    /// (one entry per action, finite, non-negative, summing to 1).
    pub fn load(path: &Path) -> Result<TablePolicy<G>, TableError> {
        let invalid = |why: String| TableError::Invalid { path: path.to_path_buf(), why };
        let text =
            std::fs::read_to_string(path).map_err(|source| TableError::Io { path: path.to_path_buf(), source })?;
        let file: TableFile = serde_json::from_str(&text).map_err(|e| {
            invalid(format!("{e} (a table is the JSON `sabacc exploitability AGENT --save-table FILE` writes)"))
        })?;
        if file.format != TABLE_FORMAT {
            return Err(invalid(format!("its format is `{}`, not `{TABLE_FORMAT}`", file.format)));
        }
        if file.version != TABLE_VERSION {
            return Err(invalid(format!("layout version {} (this build reads {TABLE_VERSION})", file.version)));
        }
        if file.game != G::SPEC.game {
            return Err(invalid(format!("it is a policy of {}, and this table plays {}", file.game, G::SPEC.game)));
        }
        for (key, d) in &file.infosets {
            let sum: f64 = d.iter().sum();
            if d.len() != G::SPEC.num_actions
                || d.iter().any(|p| !p.is_finite() || *p < 0.0)
                || (sum - 1.0).abs() > SUM_TOLERANCE
            {
                return Err(invalid(format!(
                    "at {key}: {d:?} is not a distribution over the game's {} actions",
                    G::SPEC.num_actions
                )));
            }
        }
        Ok(TablePolicy::from_table(&path.display().to_string(), file.infosets.into_iter().collect()))
    }

    fn probabilities(&self, view: &G::View) -> Result<&[f64], AgentError> {
        let key = infoset_key::<G>(view);
        self.table.get(&key).map(Vec::as_slice).ok_or_else(|| {
            AgentError::new(&self.name, "this decision is not in the table (it was made under other rules)".to_string())
        })
    }
}

impl<G: Game> Agent<G> for TablePolicy<G> {
    fn name(&self) -> &str {
        &self.name
    }

    fn act(&mut self, view: &G::View, legal: G::Mask, rng: &mut AgentRng) -> Result<G::Action, AgentError> {
        let p = self.probabilities(view)?;
        let u: f64 = rng.random();
        let legal = legal.index_list();
        let mut acc = 0.0;
        // Rounding can leave the sum a hair below 1: the last legal action takes the remainder.
        let index = legal.iter().copied().find(|&i| {
            acc += p[i];
            u < acc
        });
        let index = index.or(legal.last().copied()).ok_or_else(|| AgentError::new(&self.name, "no legal action"))?;
        G::Action::from_index(index).ok_or_else(|| AgentError::new(&self.name, format!("no action {index}")))
    }

    fn distribution(&mut self, view: &G::View, legal: G::Mask) -> Option<Result<Vec<f64>, AgentError>> {
        Some(self.probabilities(view).and_then(|p| {
            match p.iter().enumerate().find(|&(i, &x)| x > 0.0 && !legal.contains_index(i)) {
                Some((i, _)) => Err(AgentError::new(&self.name, format!("the table gives illegal action {i} weight"))),
                None => Ok(p.to_vec()),
            }
        }))
    }
}
