//! Agent specs: the one place where a name such as `expert`, `search:64` or
//! `checkpoints/mixed-tables@argmax` becomes a playing [`env::Agent`].
//!
//! The arena, the trainer's opponent pool and every front-end (the `sabacc` program, the play
//! server, the Python package, the token studies) parse specs here, list what exists here and
//! build agents here, so a new kind of agent is registered once.
//!
//! | spec | agent |
//! | --- | --- |
//! | `random` | uniform over the legal actions |
//! | `greedy` | [`eval::bots::GreedyAgent`] |
//! | `expert` | [`eval::bots::ExpertAgent`] |
//! | `tight`, `loose` | [`eval::bots::TightAgent`], [`eval::bots::LooseAgent`]: how much risk they take with cards |
//! | `aggressive`, `hoarder` | [`eval::bots::AggressiveAgent`], [`eval::bots::HoarderAgent`]: tokens early or late |
//! | `chipaware` | [`eval::bots::ChipAwareAgent`]: plays for the game, not the round |
//! | `leader` | [`eval::bots::LeaderAgent`]: every targeted token at the chip leader |
//! | `search`, `search:N` | [`eval::bots::SearchAgent`] with N sampled worlds per decision (default 32) |
//! | `search+DIR`, `search:N+DIR` | the same search guided by a checkpoint's policy and critic ([`guided`]) |
//! | `DIR`, `DIR@sample`, `DIR@argmax` | a checkpoint folder (`metadata.json` + `model.bpk`), sampling from the policy (default) or taking its most likely action |
//! | `DIR`, `DIR@sample`, `DIR@argmax` | an exported bundle (`contract.json` + `policy.safetensors`, from `sabacc export`), played the same way |
//! | `level:1` … `level:5` | the difficulty levels ([`levels`]): the champion with 80, 60, 40, 20 and 0 % random decisions |
//! | `DIR@level` | a level's exported bundle (`sabacc export level:N`) played by its contract's rule: `mistakes:P+DIR@argmax`, P = 100 · `mistake_rate` |
//! | `mistakes:P+SPEC` | any agent with P % of its decisions played uniformly at random ([`levels::Erring`]) |
//!
//! Classic Sabacc's agents ([`classic`]) are built by the same [`Agents`] as an
//! `env::AgentBuilder<env::Classic>`: `random`, `greedy`, `expert`, `search`, `search:N`, each
//! optionally written `classic:expert`.
//!
//! ```
//! let agents = agents::Agents::new();
//! let spec = agents::AgentSpec::parse("search:8").unwrap();
//! assert_eq!(spec.to_string(), "search:8");
//! let mut bot = agents.build("expert").unwrap();
//! assert_eq!(bot.name(), "expert");
//! let err = agents.build("experts").err().unwrap().to_string();
//! assert!(err.contains("expert") && err.contains("search:N"));
//! ```

#![warn(missing_docs)]

pub mod advice;
pub mod classic;
mod game_agents;
pub mod guided;
pub mod levels;
pub mod pins;
pub mod shipped;
mod spec;

pub use advice::{Advice, AdviceError, ask};
pub use game_agents::{ForGame, GameAgents, Seated, for_game};
pub use spec::{AgentSpec, Builtin, MAX_SEARCH_WORLDS, RECOMMENDED_SEARCH, SpecError};

use env::{Agent, AgentBuilder, RandomAgent};
use eval::bots::{
    AggressiveAgent, ChipAwareAgent, ExpertAgent, GreedyAgent, HoarderAgent, LeaderAgent, LooseAgent, SearchAgent,
    TightAgent,
};
use policy::{ActionSelection, PolicyAgent};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// One playable agent found by [`Agents::list`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// The spec that builds it.
    pub spec: String,
    /// What it is.
    pub description: String,
}

/// Builds agents from specs. Checkpoints are read from disk once per spec (again once the folder
/// is written anew) and shared by every agent built from it afterwards (the arena builds one set
/// of agents per worker thread).
#[derive(Default)]
pub struct Agents {
    loaded: Mutex<HashMap<Loaded, PolicyAgent>>,
    loaded_classic: Mutex<HashMap<Loaded, policy::GamePolicyAgent<env::Classic>>>,
}

/// What a loaded checkpoint or bundle is kept under: its folder and when the folder's metadata
/// (or contract) was last written, so a checkpoint saved again or a bundle exported again to
/// the same folder is loaded afresh rather than played from memory.
type Loaded = (PathBuf, Option<std::time::SystemTime>);

/// The cache key of the folder `path`, stamped by its file `key_file`.
fn loaded_key(path: &Path, key_file: &str) -> Loaded {
    (path.to_path_buf(), std::fs::metadata(path.join(key_file)).and_then(|m| m.modified()).ok())
}

impl std::fmt::Debug for Agents {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.loaded.lock().map(|m| m.len()).unwrap_or(0);
        f.debug_struct("Agents").field("checkpoints_loaded", &n).finish()
    }
}

impl Agents {
    /// An empty builder (nothing loaded yet).
    pub fn new() -> Agents {
        Agents::default()
    }

    /// Parses `spec` and checks that it can be built (a checkpoint is loaded and verified).
    pub fn validate(&self, spec: &str) -> Result<AgentSpec, SpecError> {
        let parsed = AgentSpec::parse(spec)?;
        self.build_parsed(&parsed)?;
        Ok(parsed)
    }

    /// A fresh agent for `spec`.
    pub fn build(&self, spec: &str) -> Result<Box<dyn Agent>, SpecError> {
        self.build_parsed(&AgentSpec::parse(spec)?)
    }

    /// A fresh agent for a parsed spec.
    pub fn build_parsed(&self, spec: &AgentSpec) -> Result<Box<dyn Agent>, SpecError> {
        Ok(match spec {
            AgentSpec::Builtin(Builtin::Random) => Box::new(RandomAgent),
            AgentSpec::Builtin(Builtin::Greedy) => Box::new(GreedyAgent::new()),
            AgentSpec::Builtin(Builtin::Expert) => Box::new(ExpertAgent::new()),
            AgentSpec::Builtin(Builtin::Tight) => Box::new(TightAgent::new()),
            AgentSpec::Builtin(Builtin::Loose) => Box::new(LooseAgent::new()),
            AgentSpec::Builtin(Builtin::Aggressive) => Box::new(AggressiveAgent::new()),
            AgentSpec::Builtin(Builtin::Hoarder) => Box::new(HoarderAgent::new()),
            AgentSpec::Builtin(Builtin::ChipAware) => Box::new(ChipAwareAgent::new()),
            AgentSpec::Builtin(Builtin::Leader) => Box::new(LeaderAgent::new()),
            AgentSpec::Builtin(Builtin::Search { .. }) | AgentSpec::GuidedSearch { .. } => {
                Box::new(self.search_agent(spec)?.ok_or_else(|| SpecError::Unknown(spec.to_string()))?)
            }
            AgentSpec::Builtin(Builtin::Flawed(flaw)) => Box::new(eval::bots::FlawedAgent::new(*flaw)),
            AgentSpec::Checkpoint { path, selection } => Box::new(self.policy(path, false)?.with_selection(*selection)),
            AgentSpec::Bundle { path, selection } => Box::new(self.policy(path, true)?.with_selection(*selection)),
            AgentSpec::Level(n) => {
                let level = levels::level(*n).ok_or_else(|| SpecError::BadLevel(spec.to_string()))?;
                let path = levels::level_checkpoint().ok_or_else(|| SpecError::Load {
                    spec: spec.to_string(),
                    message: format!(
                        "the levels play `{}`, found neither under the current folder nor under SABACC_HOME \
                         (or the repository this program was built from); run from the repository or set SABACC_HOME",
                        levels::LEVEL_CHECKPOINT
                    ),
                })?;
                let champion = Box::new(self.policy(&path, false)?.with_selection(ActionSelection::Greedy));
                Box::new(levels::Erring::new(champion, level.mistakes, spec.to_string()))
            }
            AgentSpec::Erring { percent, inner } => {
                Box::new(levels::Erring::new(self.build_parsed(inner)?, *percent, spec.to_string()))
            }
        })
    }

    /// The search agent behind a `search`, `search:N` or `search:N+CHECKPOINT` spec, as its
    /// concrete type (whose [`SearchAgent::decide`] shows the scores behind each decision);
    /// `None` for every other spec.
    pub fn search_agent(&self, spec: &AgentSpec) -> Result<Option<SearchAgent>, SpecError> {
        Ok(Some(match spec {
            AgentSpec::Builtin(Builtin::Search { worlds }) => SearchAgent::new(*worlds),
            AgentSpec::GuidedSearch { worlds, path } => {
                let meta = policy::read_metadata(path)
                    .map_err(|e| SpecError::Load { spec: spec.to_string(), message: e.to_string() })?;
                let shaping = meta.value_shaping.ok_or_else(|| SpecError::Load {
                    spec: spec.to_string(),
                    message: format!(
                        "{} does not record `value_shaping`, the reward shaping its critic learned; \
                         add \"value_shaping\": C to it, C being the `shaping` of its training config",
                        path.join(policy::METADATA_FILE).display()
                    ),
                })?;
                let guide = guided::PolicyGuide::new(self.policy(path, false)?, shaping);
                SearchAgent::guided(*worlds, Box::new(guide), Default::default(), spec.to_string())
            }
            _ => return Ok(None),
        }))
    }

    /// The trained policy behind `spec` (checkpoint or bundle), for front-ends that show its
    /// probabilities and value; `None` for the bots, which have none.
    pub fn policy_agent(&self, spec: &AgentSpec) -> Result<Option<PolicyAgent>, SpecError> {
        Ok(match spec {
            AgentSpec::Builtin(_) | AgentSpec::GuidedSearch { .. } | AgentSpec::Level(_) | AgentSpec::Erring { .. } => {
                None
            }
            AgentSpec::Checkpoint { path, selection } => Some(self.policy(path, false)?.with_selection(*selection)),
            AgentSpec::Bundle { path, selection } => Some(self.policy(path, true)?.with_selection(*selection)),
        })
    }

    /// The policy of a checkpoint folder or an exported bundle, loaded once.
    fn policy(&self, path: &Path, bundle: bool) -> Result<PolicyAgent, SpecError> {
        let key = loaded_key(path, if bundle { policy::export::CONTRACT_FILE } else { policy::METADATA_FILE });
        let mut loaded = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(agent) = loaded.get(&key) {
            return Ok(agent.clone());
        }
        let load_error = |message: String| SpecError::Load { spec: path.display().to_string(), message };
        let device = policy::cpu_device();
        let agent = if bundle {
            policy::export::load_bundle_agent(path, &device).map_err(|e| load_error(e.to_string()))?
        } else {
            PolicyAgent::load(path, &device).map_err(|e| load_error(e.to_string()))?.0
        };
        loaded.insert(key, agent.clone());
        Ok(agent)
    }

    /// Every playable agent: the built-in bots, then the checkpoint folders found directly
    /// under each of `roots` (e.g. `checkpoints/`, `runs/*/checkpoint` is not searched), sorted.
    pub fn list(roots: &[&Path]) -> Vec<Listed> {
        let mut out: Vec<Listed> = Builtin::ALL
            .iter()
            .map(|b| Listed { spec: b.spec_text().into(), description: b.description().into() })
            .chain(
                spec::RECOMMENDED_SEARCH
                    .iter()
                    .map(|(n, what)| Listed { spec: format!("search:{n}"), description: (*what).into() }),
            )
            .chain(levels::LEVELS.iter().map(|l| Listed {
                spec: format!("level:{}", l.number),
                description: format!("level {}, {}", l.number, l.description),
            }))
            .collect();
        for root in roots {
            let Ok(entries) = std::fs::read_dir(root) else { continue };
            let mut found: Vec<Listed> = entries
                .filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| spec::is_checkpoint_dir(p) || policy::export::is_bundle(p))
                .map(|p| {
                    if policy::export::is_bundle(&p) {
                        return Listed {
                            spec: p.display().to_string(),
                            description: "exported bundle (sabacc export)".into(),
                        };
                    }
                    let meta = policy::read_metadata(&p).ok();
                    let description = match meta {
                        Some(m) => format!(
                            "checkpoint: {:?} network {:?}, {} training steps",
                            m.network.activation, m.network.hidden, m.training_step
                        ),
                        None => "checkpoint (metadata unreadable)".into(),
                    };
                    Listed { spec: p.display().to_string(), description }
                })
                .collect();
            found.sort_by(|a, b| a.spec.cmp(&b.spec));
            out.extend(found);
        }
        out
    }
}

impl AgentBuilder<env::Kessel> for Agents {
    fn build(&self, spec: &str) -> Result<Box<dyn Agent>, String> {
        Agents::build(self, spec).map_err(|e| e.to_string())
    }
}

/// Warnings for `spec` about to play at `table` (players and rules) that it was not trained
/// for: it still plays legally, so this is a warning, not an error. Bots give none.
pub fn fit_warnings(spec: &AgentSpec, table: &kessel::RuleConfig) -> Vec<String> {
    let (AgentSpec::Checkpoint { path, .. } | AgentSpec::GuidedSearch { path, .. }) = spec else { return Vec::new() };
    let Ok(meta) = policy::read_metadata(path) else { return Vec::new() };
    policy::training_mismatch(&meta, table)
        .into_iter()
        .map(|w| format!("warning: checkpoint {}: {w}; its play there may be weaker than its figures", path.display()))
        .collect()
}

/// How a checkpoint spec plays: `@sample` (the trained behaviour, the default) or `@argmax`.
pub fn selection_suffix(selection: ActionSelection) -> &'static str {
    match selection {
        ActionSelection::Sample => "@sample",
        ActionSelection::Greedy => "@argmax",
    }
}
