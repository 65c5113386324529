//! How the server runs: limits, the agents it offers and where finished games go.

use games::GameId;
use std::collections::HashMap;
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

impl TableDefaults {
    /// A table of `game` with its own default opponent ([`game::GameType::default_opponent`])
    /// and no hints: what a game the server was given nothing for plays.
    pub fn of(game: GameId) -> TableDefaults {
        TableDefaults { opponents: vec![game.game_type().default_opponent().to_string()], hint: None }
    }
}

/// Server settings (the `sabacc serve` / `sabacc play` flags).
#[derive(Clone, Debug)]
pub struct Settings {
    /// Most games held at once; creating one more is refused with 429.
    pub max_games: usize,
    /// Games one client (IP address) may hold, finished ones until they are dropped; one more
    /// is refused with 429.
    pub max_games_per_client: usize,
    /// Requests per second one client may make on average (0: no limit); past it, 429.
    pub requests_per_second: f64,
    /// Requests one client may make at once before the rate applies.
    pub burst: usize,
    /// A game unused this long is dropped.
    pub idle_timeout: Duration,
    /// A finished game unused this long is dropped (at most `idle_timeout`).
    pub finished_timeout: Duration,
    /// Largest request body accepted, in bytes.
    pub max_body: usize,
    /// Finished games are written here as `ID.json` replays.
    pub save_dir: Option<PathBuf>,
    /// The game the page offers first and a request without `game` plays.
    pub game: GameId,
    /// Each game's default table; a registered game not listed gets [`TableDefaults::of`].
    pub tables: HashMap<GameId, TableDefaults>,
    /// Table size of the default tables.
    pub players: usize,
    /// Seed from which each game's default seed is derived (game number as the stream). `None`:
    /// each game's seed is drawn from the operating system, so that nobody can recompute a deal
    /// from other games' replays; a known seed makes every deal reproducible by whoever knows it
    /// (tests, research).
    pub seed: Option<u64>,
    /// Folders whose checkpoints and bundles `/api/agents` lists; a request may name those
    /// (and no other folder unless `allow_paths`).
    pub checkpoint_roots: Vec<PathBuf>,
    /// Requests may name any checkpoint or bundle folder the server can read, not only those
    /// listed: for a server only trusted people reach.
    pub allow_paths: bool,
    /// Largest search budget (sampled worlds per decision) a request may name.
    pub max_search: u32,
    /// Longest one request may keep agents playing; past it they stop between two decisions
    /// and go on at the game's next request ([`crate::budget`]).
    pub request_time: Duration,
    /// Longest a request's headers may take to arrive, from the connection's opening or the
    /// request's first byte; past it the connection is closed.
    pub header_timeout: Duration,
    /// Longest a request's body may take to arrive once its headers have; past it, 408.
    pub body_timeout: Duration,
    /// A connection with nothing sent either way for this long is closed (a keep-alive
    /// connection waiting for its next request, a client that stopped reading).
    pub connection_idle_timeout: Duration,
    /// Most connections open at once; one more is answered 503 and closed.
    pub max_connections: usize,
    /// Connections one client (IP address) may hold open at once; one more is answered 429 and
    /// closed.
    pub max_connections_per_client: usize,
}

/// The search budget a request may name by default: the "large" budget `/api/agents` lists
/// (twice the default search of 32 worlds).
pub const DEFAULT_MAX_SEARCH: u32 = 64;

impl Default for Settings {
    fn default() -> Self {
        Settings {
            max_games: 1024,
            max_games_per_client: 32,
            requests_per_second: 50.0,
            burst: 200,
            idle_timeout: Duration::from_secs(30 * 60),
            finished_timeout: Duration::from_secs(120),
            max_body: 64 * 1024,
            save_dir: None,
            game: GameId::default(),
            tables: HashMap::new(),
            players: 4,
            seed: None,
            checkpoint_roots: vec![PathBuf::from("checkpoints")],
            allow_paths: false,
            max_search: DEFAULT_MAX_SEARCH,
            request_time: Duration::from_secs(20),
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            connection_idle_timeout: Duration::from_secs(60),
            max_connections: 512,
            max_connections_per_client: 32,
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
    pub fn defaults(&self, game: GameId) -> TableDefaults {
        self.tables.get(&game).cloned().unwrap_or_else(|| TableDefaults::of(game))
    }

    /// Checks every agent spec (checkpoints are loaded once here) and the save folder before
    /// anything is served, so a typo fails at start, not at the first game.
    pub fn check(&self, agents: &agents::Agents) -> Result<(), SettingsError> {
        for game in GameId::all() {
            let TableDefaults { opponents, hint } = self.defaults(game);
            if opponents.is_empty() {
                return Err(SettingsError::NoOpponents(format!("agents ({})", game.name())));
            }
            let table = agents::dynamic::for_game(game);
            let rules = game.game_type().default_rules(game.game_type().seats().0);
            for spec in &opponents {
                table
                    .seat(agents, spec, &rules)
                    .map_err(|e| SettingsError::Agent { flag: "agents".into(), message: e.to_string() })?;
            }
            if let Some(hint) = &hint {
                table
                    .seat(agents, hint, &rules)
                    .map_err(|e| SettingsError::Agent { flag: "hint".into(), message: e.to_string() })?;
            }
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
