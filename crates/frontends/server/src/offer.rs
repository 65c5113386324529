//! What agents a client may name: the server's offer, not whatever the agents layer can build.
//!
//! A spec from a request is work the client chooses on the server's behalf: a search budget is
//! CPU per decision, a folder is a file read and a network held in memory, and a refusal that
//! said why would tell folders from missing paths. So a client may name the game's bots (search
//! up to the server's budget), its levels, checkpoints and bundles that lie directly in one of
//! the folders `/api/agents` lists (however the path is spelled), and the server's own default
//! opponents and hint agent; other paths only when the server was started with `--allow-paths`.
//! Every other spec gets one answer that names nothing on disk.

use crate::app::AppState;
use crate::error::ApiError;
use agents::AgentSpec;
use games::GameId;
use std::path::Path;

/// Refuses `spec` for a table or a question of game `kind` unless the server offers it.
pub(crate) fn check(app: &AppState, kind: GameId, spec: &str) -> Result<(), ApiError> {
    let settings = app.settings();
    let defaults = settings.defaults(kind);
    let spec = spec.trim();
    // The operator's own choices are offered whatever they name.
    if defaults.opponents.iter().chain(defaults.hint.as_ref()).any(|s| s.trim() == spec) {
        return Ok(());
    }
    let parsed =
        agents::dynamic::for_game(kind).parse(spec).map_err(|_| not_offered(kind, spec, settings.max_search))?;
    check_parsed(app, &parsed).map_err(|why| match why {
        Refusal::NotOffered => not_offered(kind, spec, settings.max_search),
        Refusal::Budget(asked) => ApiError::BadRequest(format!(
            "agent `{spec}`: {asked} is over this server's search budget of {}; name a smaller one",
            settings.max_search
        )),
    })
}

enum Refusal {
    NotOffered,
    Budget(u32),
}

fn check_parsed(app: &AppState, spec: &AgentSpec) -> Result<(), Refusal> {
    let max = app.settings().max_search;
    match spec {
        AgentSpec::Bot { parameter, .. } if *parameter > max => Err(Refusal::Budget(*parameter)),
        AgentSpec::Bot { .. } | AgentSpec::Level(_) => Ok(()),
        AgentSpec::GuidedSearch { worlds, .. } if *worlds > max => Err(Refusal::Budget(*worlds)),
        AgentSpec::GuidedSearch { path, .. } | AgentSpec::Checkpoint { path, .. } | AgentSpec::Bundle { path, .. } => {
            listed(app, path)
        }
        // Tables are files the agents list never names: not offered, so no file is read for one.
        AgentSpec::Table { .. } => Err(Refusal::NotOffered),
        AgentSpec::Erring { inner, .. } => check_parsed(app, inner),
    }
}

/// Whether folder `path` lies directly in a listed folder (both resolved: `..` and links).
fn listed(app: &AppState, path: &Path) -> Result<(), Refusal> {
    let settings = app.settings();
    if settings.allow_paths {
        return Ok(());
    }
    let Ok(folder) = std::fs::canonicalize(path) else { return Err(Refusal::NotOffered) };
    let parent = folder.parent();
    let inside = settings
        .checkpoint_roots
        .iter()
        .filter_map(|r| std::fs::canonicalize(r).ok())
        .any(|r| Some(r.as_path()) == parent);
    if inside { Ok(()) } else { Err(Refusal::NotOffered) }
}

/// The one refusal for a spec the server does not offer, whatever it names: the game's bots and
/// levels, and where the rest are listed, never anything about the server's files.
fn not_offered(kind: GameId, spec: &str, max_search: u32) -> ApiError {
    // The spec is echoed only when short, so that an answer is never a way to store text.
    let shown: String = spec.chars().take(80).collect();
    let named: Vec<String> =
        agents::dynamic::for_game(kind).list(&[]).into_iter().map(|l| l.spec).filter(|s| !s.ends_with(":N")).collect();
    ApiError::BadRequest(format!(
        "agent `{shown}` is not offered by this server; it offers {} and the checkpoints GET /api/agents lists (search budgets up to {max_search})",
        named.join(", ")
    ))
}
