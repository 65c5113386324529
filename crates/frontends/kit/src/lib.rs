//! The front-end kit: every registered game's engine, observation encoder and legal-action masks
//! for front-ends outside the Rust process, so that a web page (and later a C or C++ engine) feeds
//! an exported policy bundle the very floats the Rust environment makes, without re-implementing
//! the rules or the encoder.
//!
//! It binds the registry's object-safe interface ([`game::GameType`] and [`game::DynGame`], the
//! list [`games::GAMES`]), never a game's own types, so a game added to the registry is in the
//! kit with no change here.
//!
//! * [`table`]: the core — a game in progress with every argument checked, errors as messages.
//!   Native code and its tests use it directly.
//! * `wasm` (only when built for `wasm32`): the JavaScript API made with `wasm-bindgen`, the
//!   `Game` class and the `gameIds`, `gameInfo` and `resolveRules` functions of the npm package
//!   that `web-kit/build.sh` builds (docs/frontends.md).

pub mod table;

#[cfg(target_arch = "wasm32")]
mod wasm;

pub use table::{Error, Table, game_ids, game_info, resolve_rules};
