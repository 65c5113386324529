//! Where the shipped checkpoints are, for `agent("champion")` from any folder: the `agents`
//! crate's lookup ([`agents::shipped`]), the same one the `sabacc` program uses.

use pyo3::prelude::*;

/// `spec` with its folder found under the current folder or a root (`"champion@argmax"` →
/// `".../checkpoints/champion@argmax"`); bots, folders that exist as given and names found
/// nowhere come back unchanged.
#[pyfunction]
pub fn resolve_spec(spec: &str) -> String {
    agents::shipped::spec(spec)
}

/// The folders searched after the current one, in order: `SABACC_HOME` alone when it is set,
/// else the repository this module was built from.
#[pyfunction]
pub fn shipped_roots() -> Vec<String> {
    agents::shipped::roots().into_iter().map(|r| r.dir.display().to_string()).collect()
}
