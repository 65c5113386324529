//! Parsing agent specs, for any game. The grammar is small on purpose:
//!
//! | spec | agent |
//! | --- | --- |
//! | `NAME`, `NAME:N` | one of the game's bots ([`game::Game::bots`]), with its number where it takes one |
//! | `DIR`, `DIR@sample`, `DIR@argmax` | a checkpoint folder or an exported bundle of the game |
//! | `DIR@level` | a level's exported bundle, played by its contract's mistake rate |
//! | `FILE` | a policy table of a small game (`sabacc exploitability AGENT --save-table FILE`) |
//! | `search+DIR`, `search:N+DIR` | the game's search guided by a checkpoint's policy and critic |
//! | `level:1` … `level:5` | the game's difficulty levels |
//! | `mistakes:P+SPEC` | any agent with P % of its decisions played at random |
//! | `GAME:SPEC` | `SPEC`, said to be of game `GAME` (`classic:expert`): refused at a table of another game |

use game::{BotEntry, Game};
use policy::ActionSelection;
use std::fmt;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// A parsed agent spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgentSpec {
    /// One of the game's bots: its name and its number (the bot's default when the spec gives
    /// none; 0 for bots that take none).
    Bot {
        /// The name, as the game lists it.
        name: &'static str,
        /// The number after the colon.
        parameter: u32,
    },
    /// An exported bundle (`sabacc export`) and how to pick actions from its policy.
    Bundle {
        /// The folder (holds `contract.json` and `policy.safetensors`).
        path: PathBuf,
        /// Sampling (the trained behaviour) or argmax.
        selection: ActionSelection,
    },
    /// The game's search steered by a checkpoint's policy and critic (`search+DIR`,
    /// `search:N+DIR`).
    GuidedSearch {
        /// Sampled worlds per decision.
        worlds: u32,
        /// The checkpoint folder.
        path: PathBuf,
    },
    /// A checkpoint folder and how to pick actions from its policy.
    Checkpoint {
        /// The folder (holds `metadata.json` and `model.bpk`).
        path: PathBuf,
        /// Sampling (the trained behaviour) or argmax.
        selection: ActionSelection,
    },
    /// A policy table of a game small enough to walk (`eval::table`): a file, not a folder.
    Table {
        /// The file.
        path: PathBuf,
    },
    /// A difficulty level (`level:1` to `level:5`, [`crate::levels::LEVELS`]).
    Level(u8),
    /// Another agent making deliberate mistakes (`mistakes:P+SPEC`): at `percent` % of its
    /// decisions it plays a uniformly random legal action instead of its own choice.
    Erring {
        /// Share of random decisions, 0 to 100.
        percent: u8,
        /// The agent that decides the others.
        inner: Box<AgentSpec>,
    },
}

/// Why a spec names nothing playable.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SpecError {
    /// Empty spec.
    #[error("an agent spec is empty; valid agents: {valid}")]
    Empty {
        /// The game's valid agents, for the message.
        valid: String,
    },
    /// Not a bot of the game and not an existing folder.
    #[error("unknown agent `{spec}`; valid agents: {valid}")]
    Unknown {
        /// The spec.
        spec: String,
        /// The game's valid agents, for the message.
        valid: String,
    },
    /// `NAME:N` with a bad N.
    #[error(
        "bad agent `{spec}`: the budget N of `{name}:N` ({meaning}) must be a whole number from 1 to {max}, e.g. `{name}:{example}`"
    )]
    BadParameter {
        /// The spec.
        spec: String,
        /// The bot's name.
        name: &'static str,
        /// What the number counts.
        meaning: &'static str,
        /// The largest accepted.
        max: u32,
        /// An example value.
        example: u32,
    },
    /// `A+B` where A is not a search spec or B not a checkpoint folder.
    #[error(
        "bad agent `{0}`: guided search is `search+CHECKPOINT` or `search:N+CHECKPOINT`, where CHECKPOINT is a checkpoint folder such as checkpoints/mixed-tables (without @sample or @argmax: search does not sample from the policy)"
    )]
    BadGuide(String),
    /// `search:N+CHECKPOINT` where CHECKPOINT names no folder.
    #[error(
        "bad agent `{spec}`: the guide `{path}` does not exist (a checkpoint folder, relative to the current folder)"
    )]
    MissingGuide {
        /// The spec.
        spec: String,
        /// The folder it names.
        path: String,
    },
    /// An unknown `@mode` suffix.
    #[error("bad agent `{spec}`: unknown play mode `@{mode}`; use `@sample` (the default) or `@argmax`")]
    BadMode {
        /// The spec.
        spec: String,
        /// The mode given.
        mode: String,
    },
    /// A folder that holds no checkpoint.
    #[error(
        "agent `{spec}` is a folder but neither a checkpoint (no metadata.json) nor an exported bundle (no contract.json); valid agents: {valid}"
    )]
    NotACheckpoint {
        /// The spec.
        spec: String,
        /// The game's valid agents, for the message.
        valid: String,
    },
    /// A spec of another game than the table's.
    #[error("{spec} is a {game} {kind}, and this table plays {table}: add --game {flag}")]
    OtherGame {
        /// The spec.
        spec: String,
        /// What it is (`checkpoint`, `bundle`, `agent`).
        kind: &'static str,
        /// The game it plays, for people.
        game: String,
        /// The table's game, for people.
        table: &'static str,
        /// The `--game` value that would load it.
        flag: String,
    },
    /// `level:N` with no such level, or a game without levels.
    #[error("bad agent `{spec}`: {why}")]
    BadLevel {
        /// The spec.
        spec: String,
        /// What is wrong.
        why: String,
    },
    /// `mistakes:P+SPEC` with a bad share or agent.
    #[error(
        "bad agent `{spec}`: {why}; deliberate mistakes are `mistakes:P+SPEC`, P the percentage of decisions played at random (0 to 100) and SPEC any other agent, e.g. `mistakes:20+expert`"
    )]
    BadMistakes {
        /// The spec.
        spec: String,
        /// What is wrong with it.
        why: String,
    },
    /// The checkpoint could not be loaded, or the agent cannot be built.
    #[error("cannot load agent `{spec}`: {message}")]
    Load {
        /// The spec.
        spec: String,
        /// Why.
        message: String,
    },
}

/// One kind of agent spec, with an example: what `sabacc agents` and `sabacc eval --help` list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpecForm {
    /// The form (`NAME:N`).
    pub form: &'static str,
    /// An example (`search:64`).
    pub example: &'static str,
    /// What it plays.
    pub meaning: &'static str,
}

/// Every kind of spec [`AgentSpec::parse`] accepts, with an example of each.
pub const SPEC_FORMS: &[SpecForm] = &[
    SpecForm {
        form: "NAME",
        example: "expert",
        meaning: "one of the game's bots (`sabacc agents --game G` lists them)",
    },
    SpecForm {
        form: "NAME:N",
        example: "search:64",
        meaning: "a bot that takes a number, with its number (search: N worlds per decision)",
    },
    SpecForm {
        form: "level:N",
        example: "level:3",
        meaning: "a difficulty level, 1 (beginner) to 5 (the game's champion)",
    },
    SpecForm {
        form: "DIR",
        example: "checkpoints/champion",
        meaning: "a checkpoint folder, sampling from its policy (the trained behaviour)",
    },
    SpecForm {
        form: "DIR@argmax",
        example: "checkpoints/champion@argmax",
        meaning: "a checkpoint (or bundle) always playing its most likely action; `@sample` is the default",
    },
    SpecForm {
        form: "NAME (shipped)",
        example: "champion@argmax",
        meaning: "a shipped checkpoint by name (checkpoints/NAME), found from any folder",
    },
    SpecForm {
        form: "BUNDLE",
        example: "exports/champion@argmax",
        meaning: "an exported bundle folder (`sabacc export`), @sample or @argmax",
    },
    SpecForm {
        form: "BUNDLE@level",
        example: "exports/level-3@level",
        meaning: "a level's exported bundle (`sabacc export level:N`), playing its recorded mistake rate",
    },
    SpecForm {
        form: "TABLE",
        example: "runs/psro/round-3/table.json",
        meaning: "a policy table of a small game (`sabacc exploitability AGENT --save-table FILE`), sampling",
    },
    SpecForm {
        form: "search:N+DIR",
        example: "search:64+checkpoints/champion",
        meaning: "the game's search guided by a checkpoint's policy and critic (`search+DIR`: the default N)",
    },
    SpecForm {
        form: "mistakes:P+SPEC",
        example: "mistakes:20+expert",
        meaning: "any agent with P % of its decisions played at random",
    },
    SpecForm {
        form: "GAME:SPEC",
        example: "classic:classic-champion@argmax",
        meaning: "SPEC, said to be of game GAME: refused at another game's table",
    },
];

/// A folder-safe name for a spec: its last path component, every character but ASCII letters,
/// digits and `-` turned into `-` (`checkpoints/champion@argmax` → `champion-argmax`), so a run
/// or report folder can be named after the agent it is about.
pub fn folder_name(spec: &str) -> String {
    let last = spec.trim_end_matches('/').rsplit('/').next().unwrap_or(spec);
    last.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '-' }).collect()
}

/// [`SPEC_FORMS`] as an aligned text table.
pub fn spec_forms_text() -> String {
    let w = SPEC_FORMS.iter().map(|f| f.form.len()).max().unwrap_or(0);
    let e = SPEC_FORMS.iter().map(|f| f.example.len()).max().unwrap_or(0);
    SPEC_FORMS
        .iter()
        .map(|f| format!("  {:<w$}  {:<e$}  {}", f.form, f.example, f.meaning))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The valid agents of game `G`, for messages.
pub fn valid_agents<G: Game>() -> String {
    let bots: Vec<String> = G::bots()
        .iter()
        .map(|b| match b.parameter {
            Some(_) => format!("{}, {}:N", b.name, b.name),
            None => b.name.to_string(),
        })
        .collect();
    let mut out = bots.join(", ");
    if G::bots().iter().any(|b| b.name == "search") && G::LEVELS_CHECKPOINT.is_some() {
        out.push_str(", search+CHECKPOINT (search guided by a checkpoint's policy)");
    }
    if G::LEVELS_CHECKPOINT.is_some() {
        out.push_str(", the difficulty levels level:1 to level:5");
    }
    out.push_str(
        ", mistakes:P+SPEC (SPEC with P % random decisions), a checkpoint folder such as checkpoints/champion, or an \
         exported bundle folder (both optionally @sample or @argmax), or a policy table file of a small game; \
         `sabacc agents` lists them",
    );
    out
}

/// Whether `p` is a checkpoint folder.
pub(crate) fn is_checkpoint_dir(p: &Path) -> bool {
    p.is_dir() && p.join(policy::METADATA_FILE).is_file()
}

/// `DIR@level`: the difficulty level a bundle from `sabacc export level:N` records, played by its
/// contract's rule — the bundle's argmax, replaced by a uniformly random legal action at
/// `mistake_rate` of the decisions — which is `mistakes:P+DIR@argmax` with P = 100 ·
/// `mistake_rate`.
fn level_bundle(spec: &str, dir: &Path) -> Result<AgentSpec, SpecError> {
    let load = |message: String| SpecError::Load { spec: spec.to_string(), message };
    if !policy::export::is_bundle(dir) {
        return Err(load(format!(
            "`@level` plays a difficulty level's exported bundle, and {} is not a bundle (no contract.json); \
             export one with `sabacc export level:N`",
            dir.display()
        )));
    }
    let contract = policy::export::read_contract(dir).map_err(|e| load(e.to_string()))?;
    let level = contract.level.ok_or_else(|| {
        load(format!(
            "{} is a bundle without a `level` section; play it as `DIR`, `DIR@argmax` or `DIR@sample`, or export a \
             level with `sabacc export level:N`",
            dir.display()
        ))
    })?;
    let percent = level.mistake_rate * 100.0;
    if (percent - percent.round()).abs() > 1e-9 || !(0.0..=100.0).contains(&percent) {
        return Err(load(format!(
            "its level plays {} % of its decisions at random; `@level` plays whole percentages from 0 to 100",
            percent
        )));
    }
    let inner = AgentSpec::Bundle { path: dir.to_path_buf(), selection: ActionSelection::Greedy };
    Ok(AgentSpec::Erring { percent: percent.round() as u8, inner: Box::new(inner) })
}

/// The bot `name[:N]` of game `G`, if `s` names one.
fn bot<G: Game>(s: &str) -> Option<Result<AgentSpec, SpecError>> {
    let (name, number) = match s.split_once(':') {
        Some((n, k)) => (n, Some(k)),
        None => (s, None),
    };
    let entry: &BotEntry<G> = G::bots().iter().find(|b| b.name == name)?;
    Some(match (entry.parameter, number) {
        (None, None) => Ok(AgentSpec::Bot { name: entry.name, parameter: 0 }),
        (None, Some(_)) => return None,
        (Some(p), None) => Ok(AgentSpec::Bot { name: entry.name, parameter: p.default }),
        (Some(p), Some(k)) => match k.trim().parse::<u32>() {
            Ok(n) if (1..=p.max).contains(&n) => Ok(AgentSpec::Bot { name: entry.name, parameter: n }),
            _ => Err(SpecError::BadParameter {
                spec: s.to_string(),
                name: entry.name,
                meaning: p.meaning,
                max: p.max,
                example: p.default.saturating_mul(4).min(p.max),
            }),
        },
    })
}

/// Whether `s` is written `GAME:SPEC` for a registered game `GAME`: that game's id and the rest.
fn game_prefix(s: &str) -> Option<(games::GameId, &str)> {
    let (g, rest) = s.split_once(':')?;
    games::GameId::all().find(|id| id.name() == g).map(|id| (id, rest))
}

impl AgentSpec {
    /// Parses a spec for a table of game `G` (see the module documentation). Folders are
    /// checked on disk: a spec that is neither a bot nor an existing folder is
    /// [`SpecError::Unknown`].
    pub fn parse<G: Game>(spec: &str) -> Result<AgentSpec, SpecError> {
        let s = spec.trim();
        if let Some((id, rest)) = game_prefix(s) {
            if id.name() != G::SPEC.game {
                return Err(SpecError::OtherGame {
                    spec: format!("`{s}`"),
                    kind: "agent",
                    game: id.game_type().name().to_string(),
                    table: G::NAME,
                    flag: id.name().to_string(),
                });
            }
            return AgentSpec::parse::<G>(rest);
        }
        if s.is_empty() {
            return Err(SpecError::Empty { valid: valid_agents::<G>() });
        }
        if let Some(n) = s.strip_prefix("level:") {
            let bad = |why: String| SpecError::BadLevel { spec: s.to_string(), why };
            if G::LEVELS_CHECKPOINT.is_none() {
                return Err(bad(format!("{} has no difficulty levels", G::NAME)));
            }
            return match n.parse::<u8>() {
                Ok(n) if crate::levels::level(n).is_some() => Ok(AgentSpec::Level(n)),
                _ => Err(bad("the levels are level:1 (beginner) to level:5 (the champion)".into())),
            };
        }
        if let Some(rest) = s.strip_prefix("mistakes:") {
            let bad = |why: String| SpecError::BadMistakes { spec: s.to_string(), why };
            let Some((p, inner)) = rest.split_once('+') else {
                return Err(bad("no agent after the share (`+SPEC`)".into()));
            };
            let percent = match p.trim().parse::<u8>() {
                Ok(p) if p <= 100 => p,
                _ => return Err(bad(format!("`{p}` is not a whole percentage from 0 to 100"))),
            };
            let inner = AgentSpec::parse::<G>(inner).map_err(|e| bad(e.to_string()))?;
            return Ok(AgentSpec::Erring { percent, inner: Box::new(inner) });
        }
        if let Some((search, guide)) = s.split_once('+').filter(|_| !Path::new(s).is_dir()) {
            let bad = || SpecError::BadGuide(s.to_string());
            let worlds = match bot::<G>(search) {
                Some(Ok(AgentSpec::Bot { name: "search", parameter })) => parameter,
                Some(Err(e @ SpecError::BadParameter { .. })) => return Err(e),
                _ => return Err(bad()),
            };
            // The guide's play mode means nothing to search, which never samples from the policy:
            // a suffix is refused rather than silently ignored.
            return match AgentSpec::parse::<G>(guide) {
                Ok(AgentSpec::Checkpoint { path, .. }) if path.as_os_str() == guide.trim() => {
                    Ok(AgentSpec::GuidedSearch { worlds, path })
                }
                Err(SpecError::Unknown { .. }) if !guide.contains(['+', '@']) && !Path::new(guide.trim()).exists() => {
                    Err(SpecError::MissingGuide { spec: s.to_string(), path: guide.trim().to_string() })
                }
                _ => Err(bad()),
            };
        }
        if let Some(b) = bot::<G>(s) {
            return b;
        }
        if Path::new(s).is_file() {
            return Ok(AgentSpec::Table { path: PathBuf::from(s) });
        }
        if let Some(dir) = s.strip_suffix("@level") {
            return level_bundle(s, Path::new(dir));
        }
        let (path, selection) = match s.rsplit_once('@') {
            Some((p, "sample")) => (p, ActionSelection::Sample),
            Some((p, "argmax")) => (p, ActionSelection::Greedy),
            Some((p, mode)) if Path::new(p).is_dir() => {
                return Err(SpecError::BadMode { spec: s.to_string(), mode: mode.to_string() });
            }
            _ => (s, ActionSelection::Sample),
        };
        let path = Path::new(path);
        if is_checkpoint_dir(path) {
            Ok(AgentSpec::Checkpoint { path: path.to_path_buf(), selection })
        } else if policy::export::is_bundle(path) {
            Ok(AgentSpec::Bundle { path: path.to_path_buf(), selection })
        } else if path.is_dir() {
            Err(SpecError::NotACheckpoint { spec: s.to_string(), valid: valid_agents::<G>() })
        } else {
            Err(SpecError::Unknown { spec: s.to_string(), valid: valid_agents::<G>() })
        }
    }
}

impl fmt::Display for AgentSpec {
    /// The canonical spec text; parsing it gives the same spec back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentSpec::Bot { name, parameter: 0 } => f.write_str(name),
            AgentSpec::Bot { name, parameter } => write!(f, "{name}:{parameter}"),
            AgentSpec::GuidedSearch { worlds, path } => write!(f, "search:{worlds}+{}", path.display()),
            AgentSpec::Checkpoint { path, selection } | AgentSpec::Bundle { path, selection } => {
                write!(f, "{}{}", path.display(), crate::selection_suffix(*selection))
            }
            AgentSpec::Table { path } => write!(f, "{}", path.display()),
            AgentSpec::Level(n) => write!(f, "level:{n}"),
            AgentSpec::Erring { percent, inner } => write!(f, "mistakes:{percent}+{inner}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::classic::Classic;
    use games::kessel::Kessel;

    #[test]
    fn every_listed_spec_form_has_an_example_the_parser_accepts() {
        for f in SPEC_FORMS {
            // Bundles and tables are made by commands, not shipped: their examples name nothing here.
            if f.example.starts_with("exports/") || f.example.ends_with(".json") {
                continue;
            }
            let spec = crate::shipped::spec::<Classic>(f.example);
            let parsed = if f.example.starts_with("classic:") {
                AgentSpec::parse::<Classic>(&spec)
            } else {
                AgentSpec::parse::<Kessel>(&crate::shipped::spec::<Kessel>(f.example))
            };
            assert!(parsed.is_ok(), "{}: {} -> {parsed:?}", f.form, f.example);
        }
        let text = spec_forms_text();
        for needle in ["level:N", "mistakes:P+SPEC", "@argmax", "BUNDLE@level", "search:64", "GAME:SPEC", "champion"] {
            assert!(text.contains(needle), "{needle}: {text}");
        }
    }

    #[test]
    fn a_file_is_a_policy_table_that_plays_or_is_refused_with_the_reason() {
        use games::leduc::Leduc;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cfr.json");
        let mut cfr = crate::Agents::new().build::<Leduc>("cfr").unwrap();
        eval::table::TablePolicy::<Leduc>::of_agent("cfr", &mut *cfr, &Leduc::rules_with_players(2))
            .unwrap()
            .save(&path)
            .unwrap();
        let text = path.display().to_string();
        let spec = AgentSpec::parse::<Leduc>(&text).unwrap();
        assert_eq!(spec, AgentSpec::Table { path: path.clone() });
        assert_eq!(AgentSpec::parse::<Leduc>(&spec.to_string()).unwrap(), spec);
        assert_eq!(crate::Agents::new().build::<Leduc>(&text).unwrap().name(), text);
        assert!(crate::pins::checkpoint_folders::<Leduc>(&spec).is_empty());
        // A table is of one game; a file that is not a table says what is wrong and what would do.
        let e = crate::Agents::new().build::<Kessel>(&text).err().unwrap().to_string();
        assert!(e.contains("a policy of leduc, and this table plays kessel"), "{e}");
        let other = dir.path().join("notes.txt");
        std::fs::write(&other, "not JSON").unwrap();
        let e = crate::Agents::new().build::<Leduc>(&other.display().to_string()).err().unwrap().to_string();
        assert!(
            e.starts_with(&format!("cannot load agent `{}`", other.display())) && e.contains("--save-table"),
            "{e}"
        );
    }
}
