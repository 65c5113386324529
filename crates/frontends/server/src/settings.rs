//! How the server runs: limits, the agents it offers and where finished games go.

use agents::GameAgents;
use env::GameId;
use std::path::PathBuf;
use std::time::Duration;
use thiserror::Error;

/// One game's default table: the opponents that seats 1.. take in turn (offered first by the
/// page) and the agent asked for hints when a request names none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableDefaults {
    /// Agent specs, at least one.
    pub opponents: Vec<String>,
    /// The hint agent's spec; `None`: no hints unless a request names an agent.
    pub hint: Option<String>,
}

impl Default for TableDefaults {
    fn default() -> Self {
        TableDefaults { opponents: vec!["expert".into()], hint: None }
    }
}

/// The prefix of `game`'s server flags: `--agents` and `--hint` set Kessel Sabacc's table,
/// `--classic-agents` and `--classic-hint` classic Sabacc's. Errors name the flag to change.
pub fn flag_prefix(game: GameId) -> &'static str {
    match game {
        GameId::Kessel => "",
        GameId::Classic => "classic-",
    }
}

/// Server settings (the `sabacc serve` / `sabacc play` flags).
#[derive(Clone, Debug)]
pub struct Settings {
    /// Most games held at once; creating one more is refused with 429.
    pub max_games: usize,
    /// Unfinished games one client (IP address) may hold; one more is refused with 429.
    pub max_games_per_client: usize,
    /// Requests per second one client may make on average (0: no limit); past it, 429.
    pub requests_per_second: f64,
    /// Requests one client may make at once before the rate applies.
    pub burst: usize,
    /// A game unused this long is dropped.
    pub idle_timeout: Duration,
    /// Largest request body accepted, in bytes.
    pub max_body: usize,
    /// Finished games are written here as `ID.json` replays.
    pub save_dir: Option<PathBuf>,
    /// The game the page offers first and a request without `game` plays.
    pub game: GameId,
    /// Kessel Sabacc's default table.
    pub kessel: TableDefaults,
    /// Classic Sabacc's default table.
    pub classic: TableDefaults,
    /// Table size of the default tables.
    pub players: usize,
    /// Seed from which each game's default seed is derived (game number as the stream). `None`:
    /// a secret one drawn from the operating system at start, so that nobody can recompute a
    /// deal; a known seed makes every deal reproducible by whoever knows it (tests, research).
    pub seed: Option<u64>,
    /// Folders whose checkpoints and bundles `/api/agents` lists.
    pub checkpoint_roots: Vec<PathBuf>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            max_games: 1024,
            max_games_per_client: 32,
            requests_per_second: 50.0,
            burst: 200,
            idle_timeout: Duration::from_secs(30 * 60),
            max_body: 64 * 1024,
            save_dir: None,
            game: GameId::Kessel,
            kessel: TableDefaults::default(),
            classic: TableDefaults::default(),
            players: 4,
            seed: None,
            checkpoint_roots: vec![PathBuf::from("checkpoints")],
        }
    }
}

/// Settings the server cannot run with.
#[derive(Debug, Error)]
pub enum SettingsError {
    /// An agent spec names nothing playable.
    #[error("--{flag}: {message}")]
    Agent {
        /// The flag.
        flag: String,
        /// The agents layer's message.
        message: String,
    },
    /// No opponents.
    #[error("--{0}: name at least one opponent, e.g. `expert`")]
    NoOpponents(String),
    /// No randomness for a secret deal seed.
    #[error("{0}")]
    Randomness(String),
    /// The save folder cannot be written.
    #[error("--save {0}: cannot write there ({1}); no game was served")]
    SaveDir(PathBuf, String),
}

impl Settings {
    /// The default table of `game`.
    pub fn defaults(&self, game: GameId) -> &TableDefaults {
        match game {
            GameId::Kessel => &self.kessel,
            GameId::Classic => &self.classic,
        }
    }

    /// Checks every agent spec (checkpoints are loaded once here) and the save folder before
    /// anything is served, so a typo fails at start, not at the first game.
    pub fn check(&self, agents: &agents::Agents) -> Result<(), SettingsError> {
        for game in GameId::ALL {
            let TableDefaults { opponents, hint } = self.defaults(game);
            let prefix = flag_prefix(game);
            if opponents.is_empty() {
                return Err(SettingsError::NoOpponents(format!("{prefix}agents")));
            }
            struct Check<'a>(&'a agents::Agents, &'a [String], Option<&'a str>, &'a str);
            impl agents::ForGame for Check<'_> {
                type Out = Result<(), SettingsError>;
                fn run<G: env::Game>(self) -> Self::Out
                where
                    agents::Agents: GameAgents<G>,
                {
                    let Check(agents, opponents, hint, prefix) = self;
                    let rules = G::rules_with_players(2);
                    let flag = |f: &str| format!("{prefix}{f}");
                    for spec in opponents {
                        agents
                            .seat(spec, &rules)
                            .map_err(|e| SettingsError::Agent { flag: flag("agents"), message: e.to_string() })?;
                    }
                    if let Some(hint) = hint {
                        agents
                            .seat(hint, &rules)
                            .map_err(|e| SettingsError::Agent { flag: flag("hint"), message: e.to_string() })?;
                    }
                    Ok(())
                }
            }
            agents::for_game(game, Check(agents, opponents, hint.as_deref(), prefix))?;
        }
        if let Some(dir) = &self.save_dir {
            std::fs::create_dir_all(dir).map_err(|e| SettingsError::SaveDir(dir.clone(), e.to_string()))?;
            let probe = dir.join(".write-test");
            std::fs::write(&probe, b"").map_err(|e| SettingsError::SaveDir(dir.clone(), e.to_string()))?;
            let _ = std::fs::remove_file(probe);
        }
        Ok(())
    }
}
