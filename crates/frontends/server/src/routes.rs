//! The HTTP endpoints (documented in `docs/api.md`). Handlers only parse, lock and format: game
//! logic is in [`crate::table`], advice in [`crate::advice`]. Work that can take a while (agents'
//! turns, search) runs on the blocking pool, never on the async workers.

use crate::app::AppState;
use crate::budget::Budget;
use crate::error::ApiError;
use crate::limits::{self, ClientAddr};
use crate::response::ok;
use crate::settings;
use crate::table::{self, Game};
use crate::web;
use crate::wire::{self, AskGame, AskScenario, CreateGame, HUMAN, TakeAction};
use axum::Extension;
use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, RawQuery, State};
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use games::GameId;
use serde_json::{Value, json};

/// The router with every endpoint.
pub fn router(app: AppState) -> Router {
    let limit = app.settings().max_body;
    Router::new()
        .route("/", get(web::index))
        .route("/app.js", get(web::script))
        .route("/classic.js", get(web::classic_script))
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
        .layer(axum::middleware::from_fn_with_state(app.clone(), read_body))
        .layer(axum::middleware::from_fn_with_state(app.clone(), rate_limit))
        .with_state(app)
}

/// The middleware: every request takes a token from its client's bucket ([`limits`]), and
/// handlers learn the client's address ([`ClientAddr`]).
async fn rate_limit(
    State(app): State<AppState>,
    mut request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let client = limits::client_of(&request);
    if let Err(e) = app.limiter().take(client, std::time::Instant::now()) {
        return e.into_response();
    }
    request.extensions_mut().insert(ClientAddr(client));
    next.run(request).await
}

/// The middleware that reads each request's body whole within the server's body timeout (408
/// past it) and its size limit (413), so a body trickled a byte at a time cannot hold a
/// handler; the handlers then read it from memory.
async fn read_body(
    State(app): State<AppState>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let (parts, body) = request.into_parts();
    let limit = app.settings().max_body;
    let timeout = app.settings().body_timeout;
    let read = match tokio::time::timeout(timeout, axum::body::to_bytes(body, limit)).await {
        Err(_) => Err(ApiError::BodyTimeout { seconds: timeout.as_secs_f64() }),
        Ok(Err(e)) => {
            let cause = e.into_inner();
            Err(if cause.is::<http_body_util::LengthLimitError>() {
                ApiError::TooLarge { limit }
            } else {
                ApiError::BadRequest(format!("cannot read the request body: {cause}"))
            })
        }
        Ok(Ok(bytes)) => Ok(bytes),
    };
    match read {
        Ok(bytes) => next.run(axum::extract::Request::from_parts(parts, axum::body::Body::from(bytes))).await,
        Err(e) => {
            let mut answer = e.into_response();
            // The rest of the body is unread: the connection cannot carry another request.
            answer.headers_mut().insert(header::CONNECTION, header::HeaderValue::from_static("close"));
            answer
        }
    }
}

/// Runs `f` on the blocking pool with the request's [`Budget`] (the server's time limit for one
/// request; dropped by a client that hangs up, which stops the work between two decisions); a
/// panic there becomes a 500 with a message, not a dropped connection.
async fn blocking<F>(app: AppState, f: F) -> Response
where
    F: FnOnce(&AppState, &Budget) -> Result<Value, ApiError> + Send + 'static,
{
    let (budget, guard) = Budget::start(app.settings().request_time);
    let answer = tokio::task::spawn_blocking(move || {
        let answer = f(&app, &budget);
        // Counted here: nobody awaits the answer of a client that has gone.
        if let Err(ApiError::ClientGone(_)) = answer {
            app.count_abandoned();
        }
        answer
    })
    .await;
    guard.answered();
    match answer {
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
    let games: Vec<Value> = GameId::all()
        .map(|g| {
            let settings::TableDefaults { opponents, hint } = app.settings().defaults(g);
            let listed: Vec<Value> = agents::dynamic::for_game(g)
                .list(&roots)
                .into_iter()
                .map(|l| json!({ "name": crate::label::of(&l.spec), "spec": l.spec, "description": l.description }))
                .collect();
            let (min, max) = g.game_type().seats();
            json!({
                "name": g.name(),
                "title": g.game_type().name(),
                "seats": [min, max],
                "agents": listed,
                "opponent_names": opponents.iter().map(|s| crate::label::of(s)).collect::<Vec<_>>(),
                "opponents": opponents,
                "hint_name": hint.as_deref().map(crate::label::of),
                "hint": hint,
            })
        })
        .collect();
    let first = &games[0];
    ok(json!({
        "agents": first["agents"],
        "opponents": first["opponents"],
        "hint": first["hint"],
        "players": app.settings().players,
        "game": app.settings().game.name(),
        "games": games,
    }))
}

async fn create_game(
    State(app): State<AppState>,
    Extension(ClientAddr(client)): Extension<ClientAddr>,
    raw: Result<Bytes, BytesRejection>,
) -> Response {
    let limit = app.settings().max_body;
    let request: Result<CreateGame, ApiError> = body(raw, limit).and_then(|b| {
        if b.iter().all(|c| c.is_ascii_whitespace()) { Ok(CreateGame::default()) } else { wire::parse_body(&b) }
    });
    let mut request = match request {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    if let Err(e) = app.store().check_room(client) {
        return e.into_response();
    }
    if request.seats.is_empty() {
        match table::game_named(request.game.as_deref().or(Some(app.settings().game.name()))) {
            Ok(kind) => request.seats = default_table(&app, kind),
            Err(e) => return e.into_response(),
        }
    }
    if request.game.is_none() {
        request.game = Some(app.settings().game.name().to_string());
    }
    if let Err(e) = offered_seats(&app, &request) {
        return e.into_response();
    }
    blocking(app, move |app, budget| {
        let (id, number) = app.store().next_id()?;
        let seed = app.deal_seed(number)?;
        let (game, warnings) = Game::create(id, &request, seed, app.agents(), budget)?;
        let slot = app.store().insert(game, client)?;
        let game = slot.lock();
        // The creator gets every person's seat secret (to hand out) and the first one's view.
        let mut v = match first_human(&request.seats) {
            Some(seat) => game.view_json(seat, 0),
            None => game.spectator_json(0),
        };
        v["warnings"] = json!(warnings);
        v["tokens"] = game.secrets_json();
        Ok(v)
    })
    .await
}

/// Refuses a table whose agents the server does not offer ([`crate::offer`]).
fn offered_seats(app: &AppState, request: &CreateGame) -> Result<(), ApiError> {
    let kind = table::game_named(request.game.as_deref())?;
    for (i, spec) in request.seats.iter().enumerate().filter(|(_, s)| s.trim() != HUMAN) {
        crate::offer::check(app, kind, spec).map_err(|e| match e {
            ApiError::BadRequest(m) => ApiError::BadRequest(format!("seats[{i}]: {m}")),
            other => other,
        })?;
    }
    Ok(())
}

/// One person at seat 0, then the server's opponents of game `kind` in turn; the table has the
/// server's size, brought within the seats the game allows (Leduc hold'em is heads-up).
fn default_table(app: &AppState, kind: GameId) -> Vec<String> {
    let opponents = &app.settings().defaults(kind).opponents;
    let (min, max) = kind.game_type().seats();
    let players = app.settings().players.clamp(usize::from(min), usize::from(max));
    let mut seats = vec![HUMAN.to_string()];
    seats.extend((1..players).map(|i| opponents[(i - 1) % opponents.len()].clone()));
    seats
}

fn first_human(seats: &[String]) -> Option<game::Seat> {
    seats.iter().position(|s| s.trim() == HUMAN).map(|i| game::Seat(i as u8))
}

/// The seat secret a request carries (`Authorization: Bearer TOKEN`), if any.
fn bearer(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    let Some(value) = headers.get(header::AUTHORIZATION) else { return Ok(None) };
    let text = value.to_str().map_err(|_| ApiError::BadRequest("Authorization: not readable text".into()))?;
    match text.trim().strip_prefix("Bearer ") {
        Some(token) if !token.trim().is_empty() => Ok(Some(token.trim().to_string())),
        _ => Err(ApiError::BadRequest(
            "Authorization: expected `Bearer TOKEN`, TOKEN being a seat's secret from the game's creation".into(),
        )),
    }
}

async fn game_view(
    State(app): State<AppState>,
    Path(id): Path<String>,
    RawQuery(q): RawQuery,
    headers: HeaderMap,
) -> Response {
    blocking(app, move |app, budget| {
        let token = bearer(&headers)?;
        let query = wire::query_numbers(q.as_deref(), &["seat", "since"])?;
        let slot = app.store().get(&id)?;
        let mut game = slot.lock();
        game.resume(budget)?;
        app.store().save_if_over(&slot, &game);
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
        // A seat's view needs its secret; without one the caller watches (spectator view).
        let Some(token) = token else { return Ok(game.spectator_json(since)) };
        let seat = match seat {
            Some(seat) => seat,
            None => game
                .seat_of(&token)
                .ok_or_else(|| ApiError::Forbidden("the token sent is no seat's secret in this game".into()))?,
        };
        game.authorize(seat, Some(&token))?;
        Ok(game.view_json(seat, since))
    })
    .await
}

async fn take_action(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Response {
    let limit = app.settings().max_body;
    let request: TakeAction = match body(raw, limit).and_then(|b| wire::parse_body(&b)) {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    blocking(app, move |app, budget| {
        let slot = app.store().get(&id)?;
        let mut game = slot.lock();
        let seat = game.seat(request.seat)?;
        game.authorize(seat, bearer(&headers)?.as_deref())?;
        let before = game.event_count();
        let result = game.act(seat, &request.action.text(), budget);
        app.store().save_if_over(&slot, &game);
        result?;
        Ok(game.view_json(seat, before))
    })
    .await
}

async fn ask_game(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Response {
    let limit = app.settings().max_body;
    let request: AskGame = match body(raw, limit).and_then(|b| {
        if b.iter().all(|c| c.is_ascii_whitespace()) { Ok(AskGame::default()) } else { wire::parse_body(&b) }
    }) {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    blocking(app, move |app, budget| {
        let slot = app.store().get(&id)?;
        let (decision, kind) = {
            let mut game = slot.lock();
            game.resume(budget)?;
            let seat = match request.seat {
                Some(n) => game.seat(n)?,
                None => game
                    .current_player()
                    .ok_or_else(|| ApiError::Conflict(format!("game `{id}` is over; nobody has a decision")))?,
            };
            // Advice is computed from the seat's view: only its player may ask for it.
            game.authorize(seat, bearer(&headers)?.as_deref())?;
            (game.decision(seat)?, game.kind())
        };
        decision.ask(app.agents(), &hint_agent(app, kind, request.agent)?)
    })
    .await
}

fn hint_agent(app: &AppState, kind: GameId, asked: Option<String>) -> Result<String, ApiError> {
    if let Some(spec) = &asked {
        crate::offer::check(app, kind, spec)?;
    }
    asked.or_else(|| app.settings().defaults(kind).hint).ok_or_else(|| {
        ApiError::BadRequest(format!(
            "agent: no agent named and the server has no hint agent for {} (start it with --hint {}:SPEC)",
            kind.game_type().name(),
            kind.name()
        ))
    })
}

async fn ask_scenario(State(app): State<AppState>, raw: Result<Bytes, BytesRejection>) -> Response {
    let limit = app.settings().max_body;
    let request: AskScenario = match body(raw, limit).and_then(|b| wire::parse_body(&b)) {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    blocking(app, move |app, _| {
        let kind = table::game_named(request.game.as_deref())?;
        let agent = hint_agent(app, kind, request.agent)?;
        table::ask_scenario(app.agents(), kind, &request.scenario.to_string(), &agent, app.ask_seed()?)
    })
    .await
}

async fn replay(State(app): State<AppState>, Path(id): Path<String>) -> Response {
    blocking(app, move |app, _| app.store().get(&id)?.lock().replay_json()).await
}

async fn replay_step(State(app): State<AppState>, Path((id, step)): Path<(String, String)>) -> Response {
    blocking(app, move |app, _| {
        let step: usize =
            step.parse().map_err(|_| ApiError::BadRequest(format!("step: `{step}` is not a whole number of steps")))?;
        app.store().get(&id)?.lock().replay_step_json(step)
    })
    .await
}
