//! JSON responses, shared by the handlers and by [`crate::error::ApiError`]'s conversion, so
//! the error type does not reach back into the router.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

/// A JSON response with an exact length (clients may keep the connection alive).
pub fn json_response(status: StatusCode, body: &Value) -> Response {
    let text =
        serde_json::to_string(body).unwrap_or_else(|e| format!("{{\"error\":\"internal\",\"message\":\"{e}\"}}"));
    (status, [(header::CONTENT_TYPE, "application/json")], text).into_response()
}

/// A 200 response with `body`.
pub fn ok(body: Value) -> Response {
    json_response(StatusCode::OK, &body)
}
