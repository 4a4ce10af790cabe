//! A refused request as the routes answer it: an HTTP status and a JSON `{"error": …}`
//! saying why (the guard's refusals, the tables' and replays' [`Refusal`]s, axum's
//! rejections of a path, query or body).

use crate::refusal::Refusal;
use axum::extract::rejection::{BytesRejection, PathRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// A refused request: its status and a message saying why, sent as `{"error": …}`.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError { status, message: message.into() }
    }
    pub fn bad(m: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, m)
    }
    pub fn forbidden(m: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, m)
    }
    pub fn not_found(m: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, m)
    }
    pub fn unprocessable(m: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, m)
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, axum::Json(json!({ "error": self.message }))).into_response()
    }
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> Self {
        let status = match r {
            Refusal::Malformed(_) => StatusCode::BAD_REQUEST,
            Refusal::Forbidden(_) => StatusCode::FORBIDDEN,
            Refusal::Conflict(_) => StatusCode::CONFLICT,
            Refusal::Unplayable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Refusal::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Refusal::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
        };
        ApiError::new(status, r.to_string())
    }
}

impl From<BytesRejection> for ApiError {
    fn from(r: BytesRejection) -> Self {
        ApiError::new(r.status(), format!("the request body: {}", r.body_text()))
    }
}
impl From<PathRejection> for ApiError {
    fn from(r: PathRejection) -> Self {
        ApiError::new(StatusCode::NOT_FOUND, format!("the address: {}", r.body_text()))
    }
}
impl From<QueryRejection> for ApiError {
    fn from(r: QueryRejection) -> Self {
        ApiError::bad(format!("the query: {}", r.body_text()))
    }
}
