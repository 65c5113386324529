//! Request bodies and query strings as the API takes them, parsed with messages that name the
//! field at fault (`seats[2]: invalid type: integer, expected a string`).

use crate::error::ApiError;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// The spec text of a seat played by a person (in `seats`, beside agents' specs).
pub const HUMAN: &str = "human";

/// `POST /api/games`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    /// The game: `kessel` (the default) or `classic` (also their environment ids).
    #[serde(default)]
    pub game: Option<String>,
    /// One entry per seat, clockwise from seat 0: `human` or an agent spec. Empty: the server's
    /// default table (one person against its `--agents`).
    #[serde(default)]
    pub seats: Vec<String>,
    /// Rule options of that game (`docs/config.md`, `docs/rules-classic.md`); the table size
    /// comes from `seats`.
    #[serde(default)]
    pub rules: Option<Value>,
    /// Seed of the deal and of the agents' randomness; by default derived from the server's seed.
    #[serde(default)]
    pub seed: Option<u64>,
}

/// `POST /api/games/{id}/action`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TakeAction {
    /// The acting seat.
    pub seat: i64,
    /// An action name (`stand`, `draw:sand-deck`, `token:embargo`, …) or index.
    pub action: ActionText,
}

/// An action as a name or an index.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum ActionText {
    /// `stand`, `draw:sand-deck`, …
    Name(String),
    /// An action index, `0..num_actions` of `env::EnvSpec`.
    Index(u64),
}

impl ActionText {
    /// The text the engine's action parser takes.
    pub fn text(&self) -> String {
        match self {
            ActionText::Name(s) => s.clone(),
            ActionText::Index(i) => i.to_string(),
        }
    }
}

/// `POST /api/games/{id}/ask`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AskGame {
    /// The seat to advise (default: whoever's decision it is).
    #[serde(default)]
    pub seat: Option<i64>,
    /// The agent to ask (default: the server's hint agent).
    #[serde(default)]
    pub agent: Option<String>,
}

/// `POST /api/ask`: advice on a scenario.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AskScenario {
    /// The scenario's game: `kessel` (the default) or `classic`.
    #[serde(default)]
    pub game: Option<String>,
    /// A scenario (`docs/scenarios.md`).
    pub scenario: Value,
    /// The agent to ask (default: the server's hint agent).
    #[serde(default)]
    pub agent: Option<String>,
}

/// Parses a JSON body into `T`, naming the field at fault.
pub fn parse_body<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    if body.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(ApiError::BadRequest("the request body is empty; this endpoint takes a JSON object".into()));
    }
    let de = &mut serde_json::Deserializer::from_slice(body);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        if inner.is_syntax() || inner.is_eof() {
            ApiError::BadRequest(format!("malformed JSON: {inner}"))
        } else if path == "." {
            ApiError::BadRequest(format!("body: {inner}"))
        } else {
            ApiError::BadRequest(format!("{path}: {inner}"))
        }
    })
}

/// A query string's `name=value` pairs (`seat=0&since=12`); unknown names are refused so a typo
/// does not silently fall back to a default.
pub fn query_numbers(query: Option<&str>, allowed: &[&str]) -> Result<Vec<(String, i64)>, ApiError> {
    let mut out = Vec::new();
    for pair in query.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        if !allowed.contains(&name) {
            return Err(ApiError::BadRequest(format!(
                "unknown query parameter `{name}`; this endpoint takes: {}",
                allowed.join(", ")
            )));
        }
        let n = value
            .parse::<i64>()
            .map_err(|_| ApiError::BadRequest(format!("query parameter {name}: `{value}` is not a whole number")))?;
        out.push((name.to_string(), n));
    }
    Ok(out)
}
