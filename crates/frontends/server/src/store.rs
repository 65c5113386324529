//! The games the server holds: at most a cap, each dropped after an idle timeout, each behind
//! its own mutex so two requests on one game never interleave an action.

use crate::error::ApiError;
use crate::table::Game;
use std::collections::HashMap;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// One held game.
pub struct Slot {
    game: Mutex<Game>,
    /// Milliseconds since the store began when the game was last used.
    touched_ms: AtomicU64,
    /// Written to the save folder already.
    saved: AtomicBool,
    /// Who created it (games per client are limited).
    owner: IpAddr,
    /// Over (won, truncated or stopped by a failed agent): dropped after the shorter timeout.
    over: AtomicBool,
}

impl Slot {
    /// Locks the game. A panic while it was held (a bug) does not poison it for good: every
    /// change to a game is applied whole or not at all, so its state is still valid.
    pub fn lock(&self) -> MutexGuard<'_, Game> {
        self.game.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The games in memory.
pub struct Store {
    games: Mutex<HashMap<String, Arc<Slot>>>,
    next_id: AtomicU64,
    cap: usize,
    per_client: usize,
    idle: Duration,
    /// A finished game unused this long is dropped (its replay read meanwhile keeps it).
    finished_idle: Duration,
    start: Instant,
    save_dir: Option<PathBuf>,
}

impl Store {
    /// An empty store holding at most `cap` games (`per_client` per client, finished ones
    /// included until they are dropped), each dropped after `idle` unused, or `finished_idle`
    /// once over.
    pub fn new(
        cap: usize,
        per_client: usize,
        idle: Duration,
        finished_idle: Duration,
        save_dir: Option<PathBuf>,
    ) -> Store {
        Store {
            games: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
            cap,
            per_client,
            idle,
            finished_idle: finished_idle.min(idle),
            start: Instant::now(),
            save_dir,
        }
    }

    fn now_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    fn map(&self) -> MutexGuard<'_, HashMap<String, Arc<Slot>>> {
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A fresh, unguessable game id and the game's number (the number seeds the default deal).
    pub fn next_id(&self) -> Result<(String, u64), ApiError> {
        let n = self.next_id.fetch_add(1, Ordering::Relaxed);
        Ok((format!("g{}", crate::secret::fresh()?), n))
    }

    /// Refuses a new game of `owner` when the store is full even after dropping idle games, or
    /// when `owner` holds as many games as a client may. Finished games count until they are
    /// dropped: otherwise games played by agents alone, over at once, would let one client fill
    /// the whole store and lock every other client out.
    pub fn check_room(&self, owner: IpAddr) -> Result<(), ApiError> {
        self.sweep();
        Self::room(&self.map(), self.cap, self.per_client, owner)
    }

    fn room(map: &HashMap<String, Arc<Slot>>, cap: usize, per_client: usize, owner: IpAddr) -> Result<(), ApiError> {
        if map.len() >= cap {
            return Err(ApiError::TooManyGames { cap });
        }
        let held = map.values().filter(|s| s.owner == owner).count();
        if held >= per_client {
            return Err(ApiError::TooManyClientGames { cap: per_client });
        }
        Ok(())
    }

    /// Adds `owner`'s game (refused when the store, or the owner's share, filled up while it
    /// was being dealt).
    pub fn insert(&self, game: Game, owner: IpAddr) -> Result<Arc<Slot>, ApiError> {
        let id = game.id().to_string();
        let over = game.is_over();
        let slot = Arc::new(Slot {
            game: Mutex::new(game),
            touched_ms: AtomicU64::new(self.now_ms()),
            saved: AtomicBool::new(false),
            owner,
            over: AtomicBool::new(over),
        });
        {
            let mut map = self.map();
            Self::room(&map, self.cap, self.per_client, owner)?;
            map.insert(id, slot.clone());
        }
        if over {
            self.save_if_over(&slot, &slot.lock());
        }
        Ok(slot)
    }

    /// The game `id`, marked as used now.
    pub fn get(&self, id: &str) -> Result<Arc<Slot>, ApiError> {
        let slot = self.map().get(id).cloned().ok_or_else(|| ApiError::UnknownGame(id.to_string()))?;
        slot.touched_ms.store(self.now_ms(), Ordering::Relaxed);
        Ok(slot)
    }

    /// How many games are held.
    pub fn len(&self) -> usize {
        self.map().len()
    }

    /// Drops every game unused for longer than the idle timeout, and every finished one unused
    /// for longer than the finished timeout.
    pub fn sweep(&self) {
        let now = self.now_ms();
        let (idle, finished) = (self.idle.as_millis() as u64, self.finished_idle.as_millis() as u64);
        self.map().retain(|_, slot| {
            let unused = now.saturating_sub(slot.touched_ms.load(Ordering::Relaxed));
            unused <= if slot.over.load(Ordering::Relaxed) { finished } else { idle }
        });
    }

    /// Writes a finished game's replay to the save folder once (`ID.json`, via a temporary file
    /// and a rename, so a file there is always whole). A failure is reported on stderr and the
    /// game stays in memory, where its replay can still be downloaded.
    pub fn save_if_over(&self, slot: &Slot, game: &Game) {
        if game.is_over() || game.has_failed() {
            slot.over.store(true, Ordering::Relaxed);
        }
        let Some(dir) = &self.save_dir else { return };
        if !game.is_over() || slot.saved.load(Ordering::Relaxed) {
            return;
        }
        match game.replay_json().map_err(|e| e.to_string()).and_then(|r| write_atomic(dir, game.id(), &r)) {
            Ok(()) => slot.saved.store(true, Ordering::Relaxed),
            Err(e) => eprintln!("warning: cannot save game `{}` into {}: {e}", game.id(), dir.display()),
        }
    }
}

fn write_atomic(dir: &Path, id: &str, replay: &serde_json::Value) -> Result<(), String> {
    let text = serde_json::to_string_pretty(replay).map_err(|e| e.to_string())?;
    let tmp = dir.join(format!(".{id}.json.tmp"));
    std::fs::write(&tmp, text).map_err(|e| e.to_string())?;
    std::fs::rename(&tmp, dir.join(format!("{id}.json"))).map_err(|e| e.to_string())
}
