//! Parsing agent specs. The grammar is small on purpose: a built-in name, `search:N`, or a
//! checkpoint folder with an optional `@sample` / `@argmax` play mode.

use policy::ActionSelection;
use std::fmt;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The bots that need no file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// Uniform over the legal actions.
    Random,
    /// The greedy heuristic.
    Greedy,
    /// The expert heuristic.
    Expert,
    /// Stands early on any reasonable hand, rarely draws, defensive tokens.
    Tight,
    /// Draws to chase a strong hand, stands late.
    Loose,
    /// Plays its tokens as early as it can, at the most dangerous seat.
    Aggressive,
    /// Keeps its tokens until the late game or until it is short of chips.
    Hoarder,
    /// Plays for the chance to win the game: cautious when ahead, gambling when behind.
    ChipAware,
    /// Aims every targeted token at the opponent with the most chips.
    Leader,
    /// Determinised search with `worlds` sampled worlds per decision.
    Search {
        /// Worlds sampled per decision (≥ 1).
        worlds: usize,
    },
    /// `expert` with one deliberate weakness: a baseline for checking the exploitability proxy
    /// or for measuring the expert's draft.
    Flawed(eval::bots::Flaw),
}

impl Builtin {
    /// One of each, for listings (search at its default budget).
    pub const ALL: [Builtin; 13] = [
        Builtin::Random,
        Builtin::Greedy,
        Builtin::Expert,
        Builtin::Tight,
        Builtin::Loose,
        Builtin::Aggressive,
        Builtin::Hoarder,
        Builtin::ChipAware,
        Builtin::Leader,
        Builtin::Search { worlds: eval::bots::SearchAgent::DEFAULT_WORLDS },
        Builtin::Flawed(eval::bots::Flaw::AlwaysStands),
        Builtin::Flawed(eval::bots::Flaw::NoTokens),
        Builtin::Flawed(eval::bots::Flaw::HandDraft),
    ];

    /// The spec text for listings (`search:N` for search).
    pub fn spec_text(self) -> &'static str {
        match self {
            Builtin::Random => "random",
            Builtin::Greedy => "greedy",
            Builtin::Expert => "expert",
            Builtin::Tight => "tight",
            Builtin::Loose => "loose",
            Builtin::Aggressive => "aggressive",
            Builtin::Hoarder => "hoarder",
            Builtin::ChipAware => "chipaware",
            Builtin::Leader => "leader",
            Builtin::Search { .. } => "search:N",
            Builtin::Flawed(eval::bots::Flaw::AlwaysStands) => "stander",
            Builtin::Flawed(eval::bots::Flaw::NoTokens) => "notokens",
            Builtin::Flawed(eval::bots::Flaw::HandDraft) => "handdraft",
        }
    }

    /// A one-line description.
    pub fn description(self) -> &'static str {
        match self {
            Builtin::Random => "uniform over the legal actions",
            Builtin::Greedy => "rule-based: keeps the better card, stands on a good hand, simple token use",
            Builtin::Expert => "rule-based with hand odds, chip-aware token play and targeting",
            Builtin::Tight => "style: stands early on any reasonable hand, rarely draws, only defensive tokens",
            Builtin::Loose => "style: draws to chase a strong hand (a Sabacc), stands late",
            Builtin::Aggressive => {
                "style: expert cards, plays its tokens as early as it can at the most dangerous seat"
            }
            Builtin::Hoarder => "style: expert play, but keeps its tokens until late rounds or until short of chips",
            Builtin::ChipAware => {
                "style: plays for the game, not the round: cautious when ahead on chips, gambling when behind"
            }
            Builtin::Leader => "style: expert play, every targeted token aimed at the opponent with the most chips",
            Builtin::Search { .. } => {
                "determinised search: N sampled worlds per decision (bare `search`: 32), expert rollouts"
            }
            Builtin::Flawed(eval::bots::Flaw::AlwaysStands) => {
                "deliberately flawed: stands at once at every action (checks `sabacc exploit`)"
            }
            Builtin::Flawed(eval::bots::Flaw::NoTokens) => {
                "deliberately flawed: `expert` that never plays a token (checks `sabacc exploit`)"
            }
            Builtin::Flawed(eval::bots::Flaw::HandDraft) => {
                "baseline: `expert` drafting by its list from before the token research (differs only under choose)"
            }
        }
    }
}

/// Search budgets worth knowing, listed by `sabacc agents` beside `search:N`: the cost of a
/// decision grows linearly with N (N × legal actions round rollouts).
/// Single-thread speeds are in docs/bots.md.
pub const RECOMMENDED_SEARCH: [(usize, &str); 3] = [
    (4, "determinised search, small budget: the fastest search, for long tournaments and opponent pools"),
    (16, "determinised search, medium budget: about a quarter of search:64's cost per decision"),
    (64, "determinised search, large budget (twice the default): for final evaluations; slow"),
];

/// A parsed agent spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgentSpec {
    /// A built-in bot.
    Builtin(Builtin),
    /// An exported bundle (`sabacc export`) and how to pick actions from its policy.
    Bundle {
        /// The folder (holds `contract.json` and `policy.safetensors`).
        path: PathBuf,
        /// Sampling (the trained behaviour) or argmax.
        selection: ActionSelection,
    },
    /// Determinised search steered by a checkpoint's policy and critic (`search+DIR`,
    /// `search:N+DIR`).
    GuidedSearch {
        /// Sampled worlds per decision.
        worlds: usize,
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
    #[error("an agent spec is empty; valid agents: {VALID}")]
    Empty,
    /// Not a built-in name and not an existing folder.
    #[error("unknown agent `{0}`; valid agents: {VALID}")]
    Unknown(String),
    /// `search:N` with a bad N.
    #[error(
        "bad agent `{0}`: the search budget N of `search:N` must be a whole number from 1 to 100000, e.g. `search:200`"
    )]
    BadBudget(String),
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
        "agent `{0}` is a folder but neither a checkpoint (no metadata.json) nor an exported bundle (no contract.json); valid agents: {VALID}"
    )]
    NotACheckpoint(String),
    /// A spec of another game than the table's.
    #[error("agent `{spec}` plays {game} Sabacc, but this table plays {table} Sabacc (choose the game with --game)")]
    OtherGame {
        /// The spec.
        spec: String,
        /// The game it names.
        game: &'static str,
        /// The table's game.
        table: &'static str,
    },
    /// `level:N` with no such level.
    #[error("bad agent `{0}`: the levels are level:1 (beginner) to level:5 (the champion)")]
    BadLevel(String),
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
    /// The checkpoint could not be loaded.
    #[error("cannot load agent `{spec}`: {message}")]
    Load {
        /// The spec.
        spec: String,
        /// Why.
        message: String,
    },
}

const VALID: &str = "random, greedy, expert, search, search:N (N sampled worlds per decision), search+CHECKPOINT \
                     (search guided by a checkpoint's policy), the style bots \
                     tight, loose, aggressive, hoarder, chipaware and leader, the deliberately flawed stander and notokens, handdraft (expert's pre-research draft), \
                     the difficulty levels level:1 to level:5, mistakes:P+SPEC (SPEC with P % random decisions), a checkpoint \
                     folder such as checkpoints/mixed-tables, or an exported bundle folder (both optionally @sample or @argmax); `sabacc agents` lists them";

/// The largest search budget accepted (a decision at this budget already takes seconds).
pub const MAX_SEARCH_WORLDS: usize = 100_000;

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
             export one with `sabacc export level:N --out DIR`",
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

impl AgentSpec {
    /// Parses a spec (see the crate documentation). Folders are checked on disk: a spec that is
    /// neither a built-in name nor an existing folder is [`SpecError::Unknown`].
    pub fn parse(spec: &str) -> Result<AgentSpec, SpecError> {
        let s = spec.trim();
        if s.starts_with(crate::classic::PREFIX) {
            return Err(SpecError::OtherGame { spec: s.to_string(), game: "classic", table: "kessel" });
        }
        match s {
            "" => return Err(SpecError::Empty),
            "random" => return Ok(AgentSpec::Builtin(Builtin::Random)),
            "greedy" => return Ok(AgentSpec::Builtin(Builtin::Greedy)),
            "expert" => return Ok(AgentSpec::Builtin(Builtin::Expert)),
            "stander" => return Ok(AgentSpec::Builtin(Builtin::Flawed(eval::bots::Flaw::AlwaysStands))),
            "notokens" => return Ok(AgentSpec::Builtin(Builtin::Flawed(eval::bots::Flaw::NoTokens))),
            "tight" => return Ok(AgentSpec::Builtin(Builtin::Tight)),
            "loose" => return Ok(AgentSpec::Builtin(Builtin::Loose)),
            "aggressive" => return Ok(AgentSpec::Builtin(Builtin::Aggressive)),
            "hoarder" => return Ok(AgentSpec::Builtin(Builtin::Hoarder)),
            "chipaware" => return Ok(AgentSpec::Builtin(Builtin::ChipAware)),
            "leader" => return Ok(AgentSpec::Builtin(Builtin::Leader)),
            "handdraft" => return Ok(AgentSpec::Builtin(Builtin::Flawed(eval::bots::Flaw::HandDraft))),
            "search" => {
                return Ok(AgentSpec::Builtin(Builtin::Search { worlds: eval::bots::SearchAgent::DEFAULT_WORLDS }));
            }
            _ => {}
        }
        if let Some(n) = s.strip_prefix("level:") {
            return match n.parse::<u8>() {
                Ok(n) if crate::levels::level(n).is_some() => Ok(AgentSpec::Level(n)),
                _ => Err(SpecError::BadLevel(s.to_string())),
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
            let inner = AgentSpec::parse(inner).map_err(|e| bad(e.to_string()))?;
            return Ok(AgentSpec::Erring { percent, inner: Box::new(inner) });
        }
        if let Some((search, guide)) = s.split_once('+').filter(|_| !Path::new(s).is_dir()) {
            let bad = || SpecError::BadGuide(s.to_string());
            let worlds = match AgentSpec::parse(search) {
                Ok(AgentSpec::Builtin(Builtin::Search { worlds })) => worlds,
                Err(e @ SpecError::BadBudget(_)) => return Err(e),
                _ => return Err(bad()),
            };
            // The guide's play mode means nothing to search, which never samples from the policy:
            // a suffix is refused rather than silently ignored.
            return match AgentSpec::parse(guide) {
                Ok(AgentSpec::Checkpoint { path, .. }) if path.as_os_str() == guide.trim() => {
                    Ok(AgentSpec::GuidedSearch { worlds, path })
                }
                Err(SpecError::Unknown(_)) if !guide.contains(['+', '@']) && !Path::new(guide.trim()).exists() => {
                    Err(SpecError::MissingGuide { spec: s.to_string(), path: guide.trim().to_string() })
                }
                _ => Err(bad()),
            };
        }
        if let Some(n) = s.strip_prefix("search:") {
            return match n.parse::<usize>() {
                Ok(worlds) if (1..=MAX_SEARCH_WORLDS).contains(&worlds) => {
                    Ok(AgentSpec::Builtin(Builtin::Search { worlds }))
                }
                _ => Err(SpecError::BadBudget(s.to_string())),
            };
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
            Err(SpecError::NotACheckpoint(s.to_string()))
        } else {
            Err(SpecError::Unknown(s.to_string()))
        }
    }
}

impl fmt::Display for AgentSpec {
    /// The canonical spec text; parsing it gives the same spec back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentSpec::Builtin(Builtin::Search { worlds }) => write!(f, "search:{worlds}"),
            AgentSpec::Builtin(b) => f.write_str(b.spec_text()),
            AgentSpec::GuidedSearch { worlds, path } => write!(f, "search:{worlds}+{}", path.display()),
            AgentSpec::Checkpoint { path, selection } | AgentSpec::Bundle { path, selection } => {
                write!(f, "{}{}", path.display(), crate::selection_suffix(*selection))
            }
            AgentSpec::Level(n) => write!(f, "level:{n}"),
            AgentSpec::Erring { percent, inner } => write!(f, "mistakes:{percent}+{inner}"),
        }
    }
}
