//! The state every handler shares, kept apart from the router so that the handlers and the
//! server loop both depend on it and it on neither.

use crate::settings::{Settings, SettingsError};
use crate::store;
use std::sync::Arc;

/// Everything the handlers share: settings, the agents layer (checkpoints loaded once) and the
/// games.
#[derive(Clone)]
pub struct AppState(Arc<Inner>);

struct Inner {
    settings: Settings,
    agents: agents::Agents,
    store: store::Store,
    limiter: crate::limits::RateLimiter,
    /// Requests whose work stopped because their client had gone.
    abandoned: std::sync::atomic::AtomicU64,
}

impl AppState {
    /// The shared state for `settings`, checked first (every agent spec is built once, the
    /// save folder is probed), so a typo fails at start rather than at the first game.
    pub fn new(settings: Settings) -> Result<AppState, SettingsError> {
        let agents = agents::Agents::new();
        settings.check(&agents)?;
        let store = store::Store::new(
            settings.max_games,
            settings.max_games_per_client,
            settings.idle_timeout,
            settings.finished_timeout,
            settings.save_dir.clone(),
        );
        // A server that will draw secret seeds must be able to: fail at start, not at a game.
        if settings.seed.is_none() {
            crate::secret::seed().map_err(|e| SettingsError::Randomness(e.to_string()))?;
        }
        let limiter = crate::limits::RateLimiter::new(settings.requests_per_second, settings.burst as f64);
        Ok(AppState(Arc::new(Inner { settings, agents, store, limiter, abandoned: Default::default() })))
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.0.settings
    }

    /// Game number `number`'s default seed. Without `--seed` it is drawn from the operating
    /// system for each game, so that no game's seed (shown in its replay) tells anything about
    /// another's: a seed derived from a secret base by a public function would give the base
    /// away once a replay or two are known, and with it every later deal. With `--seed` it is
    /// derived from that seed and the number: reproducible, and recomputable by whoever knows it.
    pub(crate) fn deal_seed(&self, number: u64) -> Result<u64, crate::error::ApiError> {
        match self.0.settings.seed {
            Some(base) => Ok(game::derive_seed(base, number)),
            None => crate::secret::seed(),
        }
    }

    /// The seed of an agent's randomness for a question about a scenario: `--seed` itself, or
    /// a fresh secret one.
    pub(crate) fn ask_seed(&self) -> Result<u64, crate::error::ApiError> {
        self.0.settings.seed.map_or_else(crate::secret::seed, Ok)
    }

    pub(crate) fn agents(&self) -> &agents::Agents {
        &self.0.agents
    }

    pub(crate) fn limiter(&self) -> &crate::limits::RateLimiter {
        &self.0.limiter
    }

    /// Requests whose work (agents' turns) stopped early because their client closed its
    /// connection before the answer.
    pub fn abandoned_requests(&self) -> u64 {
        self.0.abandoned.load(std::sync::atomic::Ordering::Relaxed)
    }

    pub(crate) fn count_abandoned(&self) {
        self.0.abandoned.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    pub(crate) fn store(&self) -> &store::Store {
        &self.0.store
    }

    /// A copy of game `id`'s engine state, for tests that check responses against the engine's
    /// own player views.
    pub fn game_state(&self, id: &str) -> Option<games::kessel::State> {
        self.game_state_of::<games::kessel::Kessel>(id)
    }

    /// A copy of game `id`'s state when it is a game of `G`.
    pub fn game_state_of<G: game::Game>(&self, id: &str) -> Option<G::State> {
        self.store().get(id).ok().and_then(|slot| slot.lock().state_of::<G>().cloned())
    }

    /// Drops every game unused for longer than the idle timeout now (the server also does so
    /// every few seconds).
    pub fn sweep_idle(&self) {
        self.store().sweep();
    }

    /// How many games are held.
    pub fn games_held(&self) -> usize {
        self.store().len()
    }
}
