//! The play page: plain HTML, CSS and JavaScript compiled into the binary, so `sabacc play`
//! needs no files beside it and no front-end build.

use axum::http::header;
use axum::response::{IntoResponse, Response};

const INDEX: &str = include_str!("../web/index.html");
const SCRIPT: &str = include_str!("../web/app.js");
const CLASSIC_SCRIPT: &str = include_str!("../web/classic.js");
const STYLE: &str = include_str!("../web/style.css");

pub(crate) async fn index() -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], INDEX).into_response()
}

pub(crate) async fn script() -> Response {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], SCRIPT).into_response()
}

pub(crate) async fn classic_script() -> Response {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], CLASSIC_SCRIPT).into_response()
}

pub(crate) async fn style() -> Response {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE).into_response()
}
