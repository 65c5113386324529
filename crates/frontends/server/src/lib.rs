//! The play server behind `sabacc serve` and `sabacc play`: games of either game (Kessel or
//! classic Sabacc) against agents over HTTP + JSON (`docs/api.md`), agents' advice on any
//! decision, replays of finished games, and the web page that plays through that API.
//!
//! Each person's seat has a secret ([`Game::authorize`]); without one a caller watches. Limits
//! per client keep one caller from crowding out the others, the accept loop bounds connections
//! (caps, header, body and idle timeouts) and each request's work has a [`budget`]; a soak
//! ([`soak`]) checks it all under load and under attack.
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

mod app;
pub mod budget;
pub mod client;
mod connections;
mod error;
mod idle;
mod label;
mod limits;
pub mod load;
mod offer;
mod response;
mod routes;
mod running;
mod secret;
mod settings;
pub mod soak;
mod store;
mod table;
mod web;
mod wire;

pub use app::AppState;
pub use error::ApiError;
pub use routes::router;
pub use running::{Running, serve};
pub use settings::{DEFAULT_MAX_SEARCH, Settings, SettingsError, TableDefaults};
pub use table::Game;
pub use wire::CreateGame;
pub use wire::HUMAN;
