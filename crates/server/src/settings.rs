//! How the server runs: limits, the agents it offers and where finished games go.

use std::path::PathBuf;
use std::time::Duration;
use thiserror::Error;

/// Server settings (the `sabacc serve` / `sabacc play` flags).
#[derive(Clone, Debug)]
pub struct Settings {
    /// Most games held at once; creating one more is refused with 429.
    pub max_games: usize,
    /// A game unused this long is dropped.
    pub idle_timeout: Duration,
    /// Largest request body accepted, in bytes.
    pub max_body: usize,
    /// Finished games are written here as `ID.json` replays.
    pub save_dir: Option<PathBuf>,
    /// Opponents of the default table (seats 1.. take them in turn) and offered by the page.
    pub opponents: Vec<String>,
    /// Table size of the default table.
    pub players: usize,
    /// The agent asked for hints when a request names none.
    pub hint: Option<String>,
    /// Seed from which each game's default seed is derived (game number as the stream).
    pub seed: u64,
    /// Folders whose checkpoints and bundles `/api/agents` lists.
    pub checkpoint_roots: Vec<PathBuf>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            max_games: 1024,
            idle_timeout: Duration::from_secs(30 * 60),
            max_body: 64 * 1024,
            save_dir: None,
            opponents: vec!["expert".into()],
            players: 4,
            hint: None,
            seed: 0,
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
        flag: &'static str,
        /// The agents layer's message.
        message: String,
    },
    /// No opponents.
    #[error("--agents: name at least one opponent, e.g. `expert`")]
    NoOpponents,
    /// The save folder cannot be written.
    #[error("--save {0}: cannot write there ({1}); no game was served")]
    SaveDir(PathBuf, String),
}

impl Settings {
    /// Checks every agent spec (checkpoints are loaded once here) and the save folder before
    /// anything is served, so a typo fails at start, not at the first game.
    pub fn check(&self, agents: &agents::Agents) -> Result<(), SettingsError> {
        if self.opponents.is_empty() {
            return Err(SettingsError::NoOpponents);
        }
        for spec in &self.opponents {
            agents.validate(spec).map_err(|e| SettingsError::Agent { flag: "agents", message: e.to_string() })?;
        }
        if let Some(hint) = &self.hint {
            agents.validate(hint).map_err(|e| SettingsError::Agent { flag: "hint", message: e.to_string() })?;
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
