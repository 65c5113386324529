//! Every way a request can fail, each with its HTTP status and a message naming the problem.
//! Responses carry `{"error": KIND, "message": TEXT}` so clients can branch on `error` and show
//! `message` to a person.

use crate::response::json_response;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use thiserror::Error;

/// A failed request.
#[derive(Debug, Error)]
pub enum ApiError {
    /// The body is not JSON, or not the JSON the endpoint takes.
    #[error("{0}")]
    BadRequest(String),
    /// The body is larger than the server accepts.
    #[error("request body is larger than the limit of {limit} bytes")]
    TooLarge {
        /// The limit in bytes.
        limit: usize,
    },
    /// No game has this id (never created, or dropped after its idle timeout).
    #[error("no game `{0}` (never created, or removed after being idle too long)")]
    UnknownGame(String),
    /// No such endpoint.
    #[error("no endpoint {method} {path}; see docs/api.md")]
    UnknownEndpoint {
        /// The request method.
        method: String,
        /// The request path.
        path: String,
    },
    /// The seat does not exist at the table, or is played by an agent.
    #[error("{0}")]
    WrongSeat(String),
    /// The request needs a seat's secret that it did not carry.
    #[error("{0}")]
    Forbidden(String),
    /// Well-formed but not possible now: out of turn, illegal action, game not finished.
    #[error("{0}")]
    Conflict(String),
    /// The server holds as many games as it may.
    #[error("the server already holds {cap} games (its cap); finish or wait for idle games to expire")]
    TooManyGames {
        /// The cap.
        cap: usize,
    },
    /// The client made more requests than its rate allows.
    #[error("too many requests from this address: at most {per_second} per second; try again in {retry_after} s")]
    RateLimited {
        /// The allowed average rate.
        per_second: f64,
        /// Seconds to wait.
        retry_after: u64,
    },
    /// The client holds as many games as one client may (finished ones until they are dropped).
    #[error(
        "this address already holds {cap} games (the limit per client, finished games included until they are dropped); finish some or wait for finished ones to expire"
    )]
    TooManyClientGames {
        /// The limit.
        cap: usize,
    },
    /// An agent failed while playing its turn or giving advice.
    #[error("{0}")]
    Agent(String),
    /// A request's work ran past the server's time limit for one request ([`crate::budget`]).
    #[error("{0}")]
    TimeLimit(String),
    /// The client closed its connection before the answer; its work was stopped.
    #[error("{0}")]
    ClientGone(String),
    /// The request body did not arrive in time.
    #[error("the request body did not arrive within {seconds} s (the server's body timeout); send it at once")]
    BodyTimeout {
        /// The timeout in seconds.
        seconds: f64,
    },
}

impl ApiError {
    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UnknownGame(_) | ApiError::UnknownEndpoint { .. } => StatusCode::NOT_FOUND,
            ApiError::WrongSeat(_) | ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::TooManyGames { .. } | ApiError::RateLimited { .. } | ApiError::TooManyClientGames { .. } => {
                StatusCode::TOO_MANY_REQUESTS
            }
            ApiError::Agent(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::TimeLimit(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::ClientGone(_) | ApiError::BodyTimeout { .. } => StatusCode::REQUEST_TIMEOUT,
        }
    }

    /// The machine-readable kind.
    pub fn kind(&self) -> &'static str {
        match self {
            ApiError::BadRequest(_) => "bad-request",
            ApiError::TooLarge { .. } => "body-too-large",
            ApiError::UnknownGame(_) => "unknown-game",
            ApiError::UnknownEndpoint { .. } => "unknown-endpoint",
            ApiError::WrongSeat(_) => "wrong-seat",
            ApiError::Forbidden(_) => "forbidden",
            ApiError::Conflict(_) => "conflict",
            ApiError::TooManyGames { .. } => "too-many-games",
            ApiError::RateLimited { .. } => "rate-limited",
            ApiError::TooManyClientGames { .. } => "too-many-client-games",
            ApiError::Agent(_) => "agent-failed",
            ApiError::TimeLimit(_) => "time-limit",
            ApiError::ClientGone(_) => "client-gone",
            ApiError::BodyTimeout { .. } => "body-timeout",
        }
    }

    /// The error for work that `stop` ended; `what` names the work (`the agents' turns in
    /// game `…``).
    pub fn stopped(stop: crate::budget::Stop, what: &str) -> ApiError {
        match stop {
            crate::budget::Stop::TimeLimit(limit) => ApiError::TimeLimit(format!(
                "{what} ran past the server's limit of {} s for one request; they go on at the next request about the game",
                limit.as_secs_f64()
            )),
            crate::budget::Stop::ClientGone => {
                ApiError::ClientGone(format!("the client closed its connection; {what} stopped"))
            }
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.kind(), "message": self.to_string() });
        let mut response = json_response(self.status(), &body);
        if let ApiError::RateLimited { retry_after, .. } = self {
            response.headers_mut().insert(axum::http::header::RETRY_AFTER, retry_after.into());
        }
        response
    }
}
