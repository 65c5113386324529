//! The HTTP endpoints (documented in `docs/api.md`). Handlers only parse, lock and format: game
//! logic is in [`crate::game`], advice in [`crate::advice`]. Work that can take a while (agents'
//! turns, search) runs on the blocking pool, never on the async workers.

use crate::app::AppState;
use crate::error::ApiError;
use crate::game::{Game, HUMAN};
use crate::response::ok;
use crate::wire::{self, AskGame, AskScenario, CreateGame, TakeAction};
use crate::{advice, web};
use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, RawQuery, State};
use axum::http::{Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use engine::derive_seed;
use serde_json::{Value, json};

/// The router with every endpoint.
pub fn router(app: AppState) -> Router {
    let limit = app.settings().max_body;
    Router::new()
        .route("/", get(web::index))
        .route("/app.js", get(web::script))
        .route("/style.css", get(web::style))
        .route("/api/agents", get(list_agents))
        .route("/api/games", post(create_game))
        .route("/api/games/{id}", get(game_view))
        .route("/api/games/{id}/action", post(take_action))
        .route("/api/games/{id}/ask", post(ask_game))
        .route("/api/games/{id}/replay", get(replay))
        .route("/api/games/{id}/replay/{step}", get(replay_step))
        .route("/api/ask", post(ask_scenario))
        .fallback(unknown_endpoint)
        .method_not_allowed_fallback(unknown_endpoint)
        .layer(DefaultBodyLimit::max(limit))
        .with_state(app)
}

/// Runs `f` on the blocking pool; a panic there becomes a 500 with a message, not a dropped
/// connection.
async fn blocking<F>(f: F) -> Response
where
    F: FnOnce() -> Result<Value, ApiError> + Send + 'static,
{
    match tokio::task::spawn_blocking(f).await {
        Ok(Ok(v)) => ok(v),
        Ok(Err(e)) => e.into_response(),
        Err(e) => ApiError::Agent(format!("internal error while handling the request: {e}")).into_response(),
    }
}

/// The body, or the reason it could not be read (too large, cut off).
fn body(body: Result<Bytes, BytesRejection>, limit: usize) -> Result<Bytes, ApiError> {
    body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::TooLarge { limit }
        } else {
            ApiError::BadRequest(format!("cannot read the request body: {}", e.body_text()))
        }
    })
}

async fn unknown_endpoint(method: Method, uri: Uri) -> Response {
    ApiError::UnknownEndpoint { method: method.to_string(), path: uri.path().to_string() }.into_response()
}

async fn list_agents(State(app): State<AppState>) -> Response {
    let roots: Vec<&std::path::Path> = app.settings().checkpoint_roots.iter().map(|p| p.as_path()).collect();
    let listed: Vec<Value> = agents::Agents::list(&roots)
        .into_iter()
        .map(|l| json!({ "spec": l.spec, "description": l.description }))
        .collect();
    ok(json!({
        "agents": listed,
        "opponents": app.settings().opponents,
        "hint": app.settings().hint,
        "players": app.settings().players,
    }))
}

async fn create_game(State(app): State<AppState>, raw: Result<Bytes, BytesRejection>) -> Response {
    let limit = app.settings().max_body;
    let request: Result<CreateGame, ApiError> = body(raw, limit).and_then(|b| {
        if b.iter().all(|c| c.is_ascii_whitespace()) { Ok(CreateGame::default()) } else { wire::parse_body(&b) }
    });
    let mut request = match request {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    if let Err(e) = app.store().check_room() {
        return e.into_response();
    }
    if request.seats.is_empty() {
        request.seats = default_table(&app);
    }
    blocking(move || {
        let (id, number) = app.store().next_id();
        let seed = derive_seed(app.settings().seed, number);
        let (game, warnings) = Game::create(id, &request, seed, app.agents())?;
        let seat = first_human(&request.seats);
        let slot = app.store().insert(game)?;
        let game = slot.lock();
        let mut v = game.view_json(seat, 0);
        v["warnings"] = json!(warnings);
        Ok(v)
    })
    .await
}

/// One person at seat 0, then the server's opponents in turn.
fn default_table(app: &AppState) -> Vec<String> {
    let s = app.settings();
    let mut seats = vec![HUMAN.to_string()];
    seats.extend((1..s.players).map(|i| s.opponents[(i - 1) % s.opponents.len()].clone()));
    seats
}

fn first_human(seats: &[String]) -> engine::Seat {
    engine::Seat(seats.iter().position(|s| s.trim() == HUMAN).unwrap_or(0) as u8)
}

async fn game_view(State(app): State<AppState>, Path(id): Path<String>, RawQuery(q): RawQuery) -> Response {
    blocking(move || {
        let query = wire::query_numbers(q.as_deref(), &["seat", "since"])?;
        let slot = app.store().get(&id)?;
        let game = slot.lock();
        let mut seat = None;
        let mut since = 0usize;
        for (name, value) in query {
            match name.as_str() {
                "seat" => seat = Some(game.seat(value)?),
                _ => {
                    since = usize::try_from(value)
                        .map_err(|_| ApiError::BadRequest(format!("query parameter since: {value} is negative")))?
                }
            }
        }
        let seat = seat
            .ok_or_else(|| ApiError::BadRequest("query parameter seat is required: whose view (`?seat=0`)".into()))?;
        Ok(game.view_json(seat, since))
    })
    .await
}

async fn take_action(
    State(app): State<AppState>,
    Path(id): Path<String>,
    raw: Result<Bytes, BytesRejection>,
) -> Response {
    let limit = app.settings().max_body;
    let request: TakeAction = match body(raw, limit).and_then(|b| wire::parse_body(&b)) {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    blocking(move || {
        let slot = app.store().get(&id)?;
        let mut game = slot.lock();
        let seat = game.seat(request.seat)?;
        let before = game.state().events().len();
        let result = game.act(seat, &request.action.text());
        app.store().save_if_over(&slot, &game);
        result?;
        Ok(game.view_json(seat, before))
    })
    .await
}

async fn ask_game(State(app): State<AppState>, Path(id): Path<String>, raw: Result<Bytes, BytesRejection>) -> Response {
    let limit = app.settings().max_body;
    let request: AskGame = match body(raw, limit).and_then(|b| {
        if b.iter().all(|c| c.is_ascii_whitespace()) { Ok(AskGame::default()) } else { wire::parse_body(&b) }
    }) {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    blocking(move || {
        let slot = app.store().get(&id)?;
        let (view, legal, seed) = {
            let game = slot.lock();
            let seat = match request.seat {
                Some(n) => game.seat(n)?,
                None => game
                    .state()
                    .current_player()
                    .ok_or_else(|| ApiError::Conflict(format!("game `{id}` is over; nobody has a decision")))?,
            };
            game.decision_of(seat)?
        };
        let agent = hint_agent(&app, request.agent)?;
        advice::ask(app.agents(), &agent, &view, legal, seed)
    })
    .await
}

fn hint_agent(app: &AppState, asked: Option<String>) -> Result<String, ApiError> {
    asked.or_else(|| app.settings().hint.clone()).ok_or_else(|| {
        ApiError::BadRequest(
            "agent: no agent named and the server has no hint agent (start it with --hint SPEC)".into(),
        )
    })
}

async fn ask_scenario(State(app): State<AppState>, raw: Result<Bytes, BytesRejection>) -> Response {
    let limit = app.settings().max_body;
    let request: AskScenario = match body(raw, limit).and_then(|b| wire::parse_body(&b)) {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    blocking(move || {
        let text = request.scenario.to_string();
        let state = engine::Scenario::from_json(&text).map_err(|e| ApiError::BadRequest(format!("scenario: {e}")))?;
        let seat = state
            .current_player()
            .ok_or_else(|| ApiError::BadRequest("scenario: the position has no pending decision".into()))?;
        let agent = hint_agent(&app, request.agent)?;
        advice::ask(app.agents(), &agent, &state.view(seat), state.legal_mask(), app.settings().seed)
    })
    .await
}

async fn replay(State(app): State<AppState>, Path(id): Path<String>) -> Response {
    blocking(move || app.store().get(&id)?.lock().replay_json()).await
}

async fn replay_step(State(app): State<AppState>, Path((id, step)): Path<(String, String)>) -> Response {
    blocking(move || {
        let step: usize =
            step.parse().map_err(|_| ApiError::BadRequest(format!("step: `{step}` is not a whole number of steps")))?;
        app.store().get(&id)?.lock().replay_step_json(step)
    })
    .await
}
