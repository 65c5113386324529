//! Action names computed once per game: reports, errors and front-ends look a name up by index
//! without allocating (`Game::action_name` returns `&'static str`).

use std::sync::OnceLock;

/// The name of action `index` from `cell`, filled on first use with `name(i)` for every index
/// below `n`; `invalid` outside the action space (and for indices `name` gives no text).
pub fn cached_action_name(
    cell: &'static OnceLock<Vec<&'static str>>,
    n: usize,
    name: fn(usize) -> String,
    index: usize,
) -> &'static str {
    let names = cell.get_or_init(|| (0..n).map(|i| &*Box::leak(name(i).into_boxed_str())).collect());
    names.get(index).copied().filter(|s| !s.is_empty()).unwrap_or("invalid")
}
