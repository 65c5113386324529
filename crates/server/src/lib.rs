//! The play server behind `sabacc serve` and `sabacc play`: games against agents over HTTP +
//! JSON (`docs/api.md`), agents' advice on any decision, replays of finished games, and the web
//! page that plays through that API.
//!
//! Agents are built only through the agents layer ([`agents::Agents`]), so every spec the rest
//! of the project accepts (bots, checkpoints, exported bundles) plays here too.
//!
//! ```no_run
//! let app = server::AppState::new(server::Settings::default()).unwrap();
//! let running = server::Running::start("127.0.0.1:0", app).unwrap();
//! println!("listening on http://{}", running.addr());
//! ```

#![warn(missing_docs)]

mod advice;
pub mod client;
mod error;
mod game;
pub mod load;
mod routes;
mod settings;
mod store;
mod web;
mod wire;

pub use error::ApiError;
pub use game::{Game, HUMAN};
pub use routes::router;
pub use settings::{Settings, SettingsError};
pub use wire::CreateGame;

use std::net::SocketAddr;
use std::sync::Arc;

/// Everything the handlers share: settings, the agents layer (checkpoints loaded once) and the
/// games.
#[derive(Clone)]
pub struct AppState(Arc<Inner>);

struct Inner {
    settings: Settings,
    agents: agents::Agents,
    store: store::Store,
}

impl AppState {
    /// The shared state for `settings`, checked first (every agent spec is built once, the
    /// save folder is probed), so a typo fails at start rather than at the first game.
    pub fn new(settings: Settings) -> Result<AppState, SettingsError> {
        let agents = agents::Agents::new();
        settings.check(&agents)?;
        let store = store::Store::new(settings.max_games, settings.idle_timeout, settings.save_dir.clone());
        Ok(AppState(Arc::new(Inner { settings, agents, store })))
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.0.settings
    }

    pub(crate) fn agents(&self) -> &agents::Agents {
        &self.0.agents
    }

    pub(crate) fn store(&self) -> &store::Store {
        &self.0.store
    }

    /// A copy of game `id`'s engine state, for tests that check responses against the engine's
    /// own player views.
    pub fn game_state(&self, id: &str) -> Option<engine::State> {
        self.store().get(id).ok().map(|slot| slot.lock().state().clone())
    }

    /// How many games are held.
    pub fn games_held(&self) -> usize {
        self.store().len()
    }
}

/// Serves `app` on `listener` until `shutdown` completes; idle games are dropped every few
/// seconds meanwhile.
pub async fn serve(
    listener: tokio::net::TcpListener,
    app: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let sweeper = {
        let app = app.clone();
        let every = (app.settings().idle_timeout / 4)
            .clamp(std::time::Duration::from_millis(50), std::time::Duration::from_secs(30));
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            loop {
                tick.tick().await;
                app.store().sweep();
            }
        })
    };
    let result = axum::serve(listener, router(app)).with_graceful_shutdown(shutdown).await;
    sweeper.abort();
    result
}

/// A server running on its own threads (for tests, the load bench and `sabacc play`); dropping
/// it stops the server.
pub struct Running {
    addr: SocketAddr,
    app: AppState,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<std::io::Result<()>>>,
}

impl Running {
    /// Binds `addr` (port 0: any free port) and serves `app` in the background.
    pub fn start(addr: &str, app: AppState) -> std::io::Result<Running> {
        let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind(addr))
            .map_err(|e| std::io::Error::new(e.kind(), format!("cannot listen on {addr}: {e}")))?;
        let bound = listener.local_addr()?;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let served = app.clone();
        let thread = std::thread::Builder::new().name("sabacc-server".into()).spawn(move || {
            runtime.block_on(serve(listener, served, async move {
                let _ = stopped.await;
            }))
        })?;
        Ok(Running { addr: bound, app, stop: Some(stop), thread: Some(thread) })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The shared state (for tests).
    pub fn app(&self) -> &AppState {
        &self.app
    }

    /// Serves until the process is interrupted (Ctrl-C), then stops.
    pub fn wait_for_ctrl_c(mut self) -> std::io::Result<()> {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
        runtime.block_on(tokio::signal::ctrl_c())?;
        self.stop_now()
    }

    fn stop_now(&mut self) -> std::io::Result<()> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        match self.thread.take().map(|t| t.join()) {
            Some(Ok(result)) => result,
            Some(Err(_)) => Err(std::io::Error::other("the server thread panicked")),
            None => Ok(()),
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.stop_now();
    }
}
