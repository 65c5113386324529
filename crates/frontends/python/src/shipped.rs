//! Where the shipped checkpoints are, for `agent("champion")` from any folder: the `agents`
//! crate's lookup ([`agents::shipped`]), the same one the `sabacc` program uses.

use crate::games::game_arg;
use pyo3::prelude::*;

/// `spec` with its folder found under the current folder or a root (`"champion@argmax"` →
/// `".../checkpoints/champion@argmax"`); specs `game`'s agents already accept (its bots, folders
/// that exist as given) and names found nowhere come back unchanged.
#[pyfunction]
#[pyo3(signature = (spec, game="kessel"))]
pub fn resolve_spec(spec: &str, game: &str) -> PyResult<String> {
    Ok(agents::dynamic::for_game(game_arg(game)?).shipped_spec(spec))
}

/// The folders searched after the current one, in order: `SABACC_HOME` alone when it is set,
/// else the repository this module was built from.
#[pyfunction]
pub fn shipped_roots() -> Vec<String> {
    agents::shipped::roots().into_iter().map(|r| r.dir.display().to_string()).collect()
}
