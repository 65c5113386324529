//! The heuristic and search bots, and agent specs.
//!
//! Every bot implements [`env::Agent`] and sees only its player's [`engine::PlayerView`], the
//! legal-action mask and its RNG. Specs (`random`, `greedy`, `expert`, `search`, `search:N`, or a
//! checkpoint path once a loader is registered) are parsed by [`AgentFactory`].

pub mod expert;
pub mod greedy;
pub mod hand;
pub mod search;

pub use expert::ExpertAgent;
pub use greedy::GreedyAgent;
pub use search::SearchAgent;

use env::{Agent, RandomAgent};
use std::path::Path;
use std::sync::Arc;
use thiserror::Error;

/// The built-in agent names, for help texts and errors.
pub const BUILTIN_AGENTS: &str = "random, greedy, expert, search, search:N (N sampled worlds per decision)";

/// A parsed agent spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgentSpec {
    /// Uniform over legal actions.
    Random,
    /// [`GreedyAgent`].
    Greedy,
    /// [`ExpertAgent`].
    Expert,
    /// [`SearchAgent`] with this many worlds per decision.
    Search(usize),
    /// A checkpoint (or any path-like spec), built by the registered loader.
    Path(String),
}

/// Why a spec cannot become an agent.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SpecError {
    /// Not a known name and not path-like.
    #[error("unknown agent `{0}`; valid agents: {BUILTIN_AGENTS}, or a checkpoint path")]
    Unknown(String),
    /// `search:N` with a bad N.
    #[error("bad agent `{0}`: the search budget must be a whole number ≥ 1, e.g. `search:200`")]
    BadBudget(String),
    /// A path-like spec but no loader registered.
    #[error(
        "agent `{0}` looks like a checkpoint path, but no checkpoint loader is registered in this \
         build (valid agents: {BUILTIN_AGENTS})"
    )]
    NoLoader(String),
    /// The loader refused the path.
    #[error("cannot load agent `{spec}`: {message}")]
    Load {
        /// The spec.
        spec: String,
        /// The loader's message.
        message: String,
    },
}

/// Whether a spec looks like a file path rather than a bot name.
pub fn is_path_like(spec: &str) -> bool {
    spec.contains('/') || spec.contains('\\') || spec.contains('.') || Path::new(spec).exists()
}

impl AgentSpec {
    /// Parses a spec (see the module documentation).
    pub fn parse(spec: &str) -> Result<AgentSpec, SpecError> {
        let s = spec.trim();
        match s {
            "random" => return Ok(AgentSpec::Random),
            "greedy" => return Ok(AgentSpec::Greedy),
            "expert" => return Ok(AgentSpec::Expert),
            "search" => return Ok(AgentSpec::Search(SearchAgent::DEFAULT_WORLDS)),
            _ => {}
        }
        if let Some(n) = s.strip_prefix("search:") {
            return match n.parse::<usize>() {
                Ok(n) if n >= 1 => Ok(AgentSpec::Search(n)),
                _ => Err(SpecError::BadBudget(s.to_string())),
            };
        }
        if is_path_like(s) {
            return Ok(AgentSpec::Path(s.to_string()));
        }
        Err(SpecError::Unknown(s.to_string()))
    }
}

/// Builds an agent from a path-like spec (a checkpoint): the hook the policy crate fills in.
pub type CheckpointLoader = dyn Fn(&str) -> Result<Box<dyn Agent>, String> + Send + Sync;

/// Turns specs into agents. Built-in names always work; path-like specs need a loader, which
/// crates that know checkpoints register with [`AgentFactory::with_checkpoint_loader`] (e.g. the
/// CLI: `AgentFactory::default().with_checkpoint_loader(policy::load_agent)`).
#[derive(Clone, Default)]
pub struct AgentFactory {
    loader: Option<Arc<CheckpointLoader>>,
}

impl std::fmt::Debug for AgentFactory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AgentFactory").field("checkpoint_loader", &self.loader.is_some()).finish()
    }
}

impl AgentFactory {
    /// Registers the loader for path-like specs.
    pub fn with_checkpoint_loader<F>(mut self, f: F) -> Self
    where
        F: Fn(&str) -> Result<Box<dyn Agent>, String> + Send + Sync + 'static,
    {
        self.loader = Some(Arc::new(f));
        self
    }

    /// Checks a spec without building it (path specs are checked by building them once).
    pub fn validate(&self, spec: &str) -> Result<AgentSpec, SpecError> {
        let parsed = AgentSpec::parse(spec)?;
        if let AgentSpec::Path(_) = parsed {
            self.build(spec)?;
        }
        Ok(parsed)
    }

    /// A fresh agent for a spec.
    pub fn build(&self, spec: &str) -> Result<Box<dyn Agent>, SpecError> {
        Ok(match AgentSpec::parse(spec)? {
            AgentSpec::Random => Box::new(RandomAgent),
            AgentSpec::Greedy => Box::new(GreedyAgent::new()),
            AgentSpec::Expert => Box::new(ExpertAgent::new()),
            AgentSpec::Search(n) => Box::new(SearchAgent::new(n)),
            AgentSpec::Path(p) => match &self.loader {
                None => return Err(SpecError::NoLoader(p)),
                Some(l) => l(&p).map_err(|message| SpecError::Load { spec: p.clone(), message })?,
            },
        })
    }
}
