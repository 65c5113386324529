//! Agent specs: the one place where a name such as `expert`, `search:64` or
//! `checkpoints/champion@argmax` becomes a playing [`game::Agent`] of a game.
//!
//! The arena, the trainer's opponent pool and every front-end (the `sabacc` program, the play
//! server, the Python package, the token studies) parse specs here, list what exists here and
//! build agents here, so a new kind of agent is registered once. The grammar is the same for
//! every game ([`AgentSpec`]); the bots are each game's own ([`game::Game::bots`]).
//!
//! Front-ends that choose the game at run time use [`dynamic`]: an agent seated at a
//! [`game::DynGame`] of any registered game.
//!
//! ```
//! use games::kessel::Kessel;
//! let agents = agents::Agents::new();
//! let spec = agents::AgentSpec::parse::<Kessel>("search:8").unwrap();
//! assert_eq!(spec.to_string(), "search:8");
//! let bot = agents.build::<Kessel>("expert").unwrap();
//! assert_eq!(bot.name(), "expert");
//! let err = agents.build::<Kessel>("experts").err().unwrap().to_string();
//! assert!(err.contains("expert") && err.contains("search:N"));
//! ```

#![warn(missing_docs)]

pub mod advice;
pub mod dynamic;
pub mod guided;
pub mod levels;
pub mod pins;
pub mod shipped;
mod spec;

pub use advice::{Advice, AdviceError, ask};
pub use spec::{AgentSpec, SPEC_FORMS, SpecError, SpecForm, folder_name, spec_forms_text, valid_agents};

use game::{Agent, AgentBuilder, Game};
use policy::{ActionSelection, PolicyAgent};
use std::any::Any;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// One playable agent found by [`Agents::list`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// The spec that builds it.
    pub spec: String,
    /// The game it plays (`kessel`, `classic`).
    pub game: &'static str,
    /// What it is.
    pub description: String,
}

/// An agent built for a table, with the canonical spec to show for it.
pub struct Seated<G: Game> {
    /// The agent.
    pub agent: Box<dyn Agent<G>>,
    /// Its spec as the agents layer writes it (`search:64`).
    pub spec: String,
    /// Why it may play below its figures at this table (a checkpoint trained for other rules).
    pub warnings: Vec<String>,
}

/// Builds agents from specs. Checkpoints are read from disk once per folder (again once the
/// folder is written anew) and shared by every agent built from it afterwards (the arena builds
/// one set of agents per worker thread).
#[derive(Default)]
pub struct Agents {
    loaded: Mutex<HashMap<Loaded, Box<dyn Any + Send>>>,
}

/// What a loaded checkpoint or bundle is kept under: its game, its folder and when the folder's
/// metadata (or contract) was last written, so a checkpoint saved again or a bundle exported
/// again to the same folder is loaded afresh rather than played from memory.
type Loaded = (&'static str, PathBuf, Option<std::time::SystemTime>);

/// The cache key of the folder `path` of game `game`, stamped by its file `key_file`. The folder
/// is resolved (`..`, `.`, links), so however a path spells it, a folder is loaded once.
fn loaded_key(game: &'static str, path: &Path, key_file: &str) -> Loaded {
    let folder = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    (game, folder, std::fs::metadata(path.join(key_file)).and_then(|m| m.modified()).ok())
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

    /// Parses `spec` for game `G` and checks that it can be built (a checkpoint is loaded and
    /// verified).
    pub fn validate<G: Game>(&self, spec: &str) -> Result<AgentSpec, SpecError> {
        let parsed = AgentSpec::parse::<G>(spec)?;
        self.build_parsed::<G>(&parsed)?;
        Ok(parsed)
    }

    /// A fresh agent of game `G` for `spec`.
    pub fn build<G: Game>(&self, spec: &str) -> Result<Box<dyn Agent<G>>, SpecError> {
        self.build_parsed::<G>(&AgentSpec::parse::<G>(spec)?)
    }

    /// A fresh agent for a parsed spec.
    pub fn build_parsed<G: Game>(&self, spec: &AgentSpec) -> Result<Box<dyn Agent<G>>, SpecError> {
        Ok(match spec {
            AgentSpec::Bot { name, parameter } => {
                let entry = G::bots()
                    .iter()
                    .find(|b| b.name == *name)
                    .ok_or_else(|| SpecError::Unknown { spec: spec.to_string(), valid: valid_agents::<G>() })?;
                (entry.build)(*parameter)
            }
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
                let guide = guided::PolicyGuide::new(self.policy::<G>(path, false)?, shaping);
                G::guided_search(*worlds, Box::new(guide), spec.to_string()).ok_or_else(|| SpecError::Load {
                    spec: spec.to_string(),
                    message: format!("{} has no guided search", G::NAME),
                })?
            }
            AgentSpec::Checkpoint { path, selection } => {
                Box::new(self.policy::<G>(path, false)?.with_selection(*selection))
            }
            AgentSpec::Bundle { path, selection } => Box::new(self.policy::<G>(path, true)?.with_selection(*selection)),
            AgentSpec::Table { path } => Box::new(
                eval::table::TablePolicy::<G>::load(path)
                    .map_err(|e| SpecError::Load { spec: spec.to_string(), message: e.to_string() })?,
            ),
            AgentSpec::Level(n) => {
                let bad = |why: String| SpecError::BadLevel { spec: spec.to_string(), why };
                let level = levels::level(*n).ok_or_else(|| bad("the levels are level:1 to level:5".into()))?;
                let path = levels::level_checkpoint::<G>()
                    .map_err(|message| SpecError::Load { spec: spec.to_string(), message })?;
                let champion = Box::new(self.policy::<G>(&path, false)?.with_selection(ActionSelection::Greedy));
                Box::new(levels::Erring::new(champion, level.mistakes, spec.to_string()))
            }
            AgentSpec::Erring { percent, inner } => {
                Box::new(levels::Erring::new(self.build_parsed::<G>(inner)?, *percent, spec.to_string()))
            }
        })
    }

    /// The agent `spec` names, built to play at a table of game `G` with `rules`, with the
    /// canonical spec and warnings about rules it was not trained for.
    pub fn seat<G: Game>(&self, spec: &str, rules: &G::Rules) -> Result<Seated<G>, SpecError> {
        let parsed = AgentSpec::parse::<G>(spec)?;
        let agent = self.build_parsed::<G>(&parsed)?;
        Ok(Seated { agent, spec: parsed.to_string(), warnings: fit_warnings::<G>(&parsed, rules) })
    }

    /// The trained policy behind `spec` (checkpoint or bundle), for front-ends that show its
    /// probabilities and value; `None` for every other kind of agent.
    pub fn policy_agent<G: Game>(&self, spec: &AgentSpec) -> Result<Option<PolicyAgent<G>>, SpecError> {
        Ok(match spec {
            AgentSpec::Checkpoint { path, selection } => {
                Some(self.policy::<G>(path, false)?.with_selection(*selection))
            }
            AgentSpec::Bundle { path, selection } => Some(self.policy::<G>(path, true)?.with_selection(*selection)),
            _ => None,
        })
    }

    /// The policy of a checkpoint folder or an exported bundle of game `G`, loaded once. A
    /// checkpoint of another game is refused with the `--game` that would load it.
    fn policy<G: Game>(&self, path: &Path, bundle: bool) -> Result<PolicyAgent<G>, SpecError> {
        let key_file = if bundle { policy::export::CONTRACT_FILE } else { policy::METADATA_FILE };
        let key = loaded_key(G::SPEC.game, path, key_file);
        let mut loaded = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(agent) = loaded.get(&key).and_then(|a| a.downcast_ref::<PolicyAgent<G>>()) {
            return Ok(agent.clone());
        }
        let spec = path.display().to_string();
        if let Some(other) = game_of(path).filter(|g| g.name() != G::SPEC.game) {
            return Err(SpecError::OtherGame {
                spec,
                kind: if bundle { "bundle" } else { "checkpoint" },
                game: other.game_type().name().to_string(),
                table: G::NAME,
                flag: other.name().to_string(),
            });
        }
        let load_error = |message: String| SpecError::Load { spec: spec.clone(), message };
        let device = policy::cpu_device();
        let agent = if bundle {
            policy::export::load_bundle_agent::<G>(path, &device).map_err(|e| load_error(e.to_string()))?
        } else {
            PolicyAgent::<G>::load(path, &device).map_err(|e| load_error(e.to_string()))?.0
        };
        // A folder written anew replaces its older copy: one network per folder in memory.
        loaded.retain(|(game, folder, _), _| !(*game == key.0 && *folder == key.1));
        loaded.insert(key, Box::new(agent.clone()));
        Ok(agent)
    }

    /// Every playable agent of game `G`: its bots, recommended search budgets, its levels, then
    /// the checkpoint folders and bundles of `G` found directly under each of `roots` (e.g.
    /// `checkpoints/`; `runs/*/checkpoint` is not searched), sorted.
    pub fn list<G: Game>(roots: &[&Path]) -> Vec<Listed> {
        let game = G::SPEC.game;
        let mut out: Vec<Listed> = Vec::new();
        for b in G::bots() {
            match b.parameter {
                None => out.push(Listed { spec: b.name.into(), game, description: b.description.into() }),
                Some(p) => {
                    out.push(Listed { spec: format!("{}:N", b.name), game, description: b.description.into() });
                    for (n, what) in RECOMMENDED_BUDGETS {
                        out.push(Listed {
                            spec: format!("{}:{}", b.name, p.default * n / 8),
                            game,
                            description: format!("{}, {what} budget ({} {})", b.name, p.default * n / 8, p.meaning),
                        });
                    }
                }
            }
        }
        if G::LEVELS_CHECKPOINT.is_some() {
            // Each level with its rating on the game's shipped ladder, when there is one.
            let ladder = shipped::find(Path::new(&eval::ladder::shipped(game)))
                .and_then(|p| eval::ladder::Ladder::read(&p).ok());
            out.extend(levels::LEVELS.iter().map(|l| {
                let spec = format!("level:{}", l.number);
                let rated = ladder
                    .as_ref()
                    .and_then(|x| x.rating(&spec))
                    .map_or(String::new(), |r| format!(" (rating {r:.0} on the shipped ladder)"));
                Listed { spec, game, description: format!("level {}, {}{rated}", l.number, l.description) }
            }));
        }
        for root in roots {
            let Ok(entries) = std::fs::read_dir(root) else { continue };
            let mut found: Vec<Listed> = entries
                .filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| game_of(p).is_some_and(|g| g.name() == game))
                .map(|p| {
                    if policy::export::is_bundle(&p) {
                        return Listed {
                            spec: p.display().to_string(),
                            game,
                            description: "exported bundle (sabacc export)".into(),
                        };
                    }
                    let description = match policy::read_metadata(&p) {
                        Ok(m) => format!(
                            "checkpoint: {:?} network {:?}, {} training steps",
                            m.network.activation, m.network.hidden, m.training_step
                        ),
                        Err(_) => "checkpoint (metadata unreadable)".into(),
                    };
                    Listed { spec: p.display().to_string(), game, description }
                })
                .collect();
            found.sort_by(|a, b| a.spec.cmp(&b.spec));
            out.extend(found);
        }
        out
    }
}

/// Budgets worth knowing beside `NAME:N`, as eighths of the bot's default (search: 4, 16, 64).
const RECOMMENDED_BUDGETS: [(u32, &str); 3] = [(1, "small"), (4, "medium"), (16, "large")];

impl<G: Game> AgentBuilder<G> for Agents {
    fn build(&self, spec: &str) -> Result<Box<dyn Agent<G>>, String> {
        Agents::build::<G>(self, spec).map_err(|e| e.to_string())
    }
}

/// The game a checkpoint folder or bundle was made for (`None` for anything else).
pub fn game_of(dir: &Path) -> Option<games::GameId> {
    let env_id = if spec::is_checkpoint_dir(dir) {
        policy::read_metadata(dir).ok()?.env_id
    } else if policy::export::is_bundle(dir) {
        policy::export::read_contract(dir).ok()?.env_id
    } else {
        return None;
    };
    games::GameId::from_env_id(&env_id)
}

/// Warnings for `spec` about to play at a table of game `G` under `rules` that it was not
/// trained for: it still plays legally, so this is a warning, not an error. Bots give none.
pub fn fit_warnings<G: Game>(spec: &AgentSpec, rules: &G::Rules) -> Vec<String> {
    let (AgentSpec::Checkpoint { path, .. } | AgentSpec::GuidedSearch { path, .. }) = spec else { return Vec::new() };
    let Ok(meta) = policy::read_metadata(path) else { return Vec::new() };
    policy::training_mismatch::<G>(&meta, rules)
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
