//! Owns the delivery of webhooks (the document's `webhooks`): the `http::Request` a generated
//! `Webhook::to_request` builds, for the application to send with any HTTP client.

use std::fmt;

use http::header::{self, HeaderValue};
use http::{Method, Request};
use serde::Serialize;

/// Why a delivery could not be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WebhookError {
    /// The URL (or a custom method name) is not valid.
    InvalidRequest(String),
    /// The payload did not serialize.
    Payload(String),
}

impl fmt::Display for WebhookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WebhookError::InvalidRequest(m) => write!(f, "invalid webhook request: {m}"),
            WebhookError::Payload(m) => write!(f, "webhook payload did not serialize: {m}"),
        }
    }
}

impl std::error::Error for WebhookError {}

/// A method `http::Method` has no constant for, by its name.
pub fn method(name: &str) -> Result<Method, WebhookError> {
    Method::from_bytes(name.as_bytes())
        .map_err(|_| WebhookError::InvalidRequest(format!("`{name}` is not an HTTP method")))
}

/// A delivery whose body is `payload` as JSON, with `content_type` (the document's).
pub fn json_request<T: Serialize>(
    method: Method,
    url: &str,
    content_type: &'static str,
    payload: &T,
) -> Result<Request<Vec<u8>>, WebhookError> {
    let body = serde_json::to_vec(payload).map_err(|e| WebhookError::Payload(e.to_string()))?;
    Request::builder()
        .method(method)
        .uri(url)
        .header(header::CONTENT_TYPE, HeaderValue::from_static(content_type))
        .body(body)
        .map_err(|e| WebhookError::InvalidRequest(e.to_string()))
}

/// A delivery without a body.
pub fn empty_request(method: Method, url: &str) -> Result<Request<Vec<u8>>, WebhookError> {
    Request::builder()
        .method(method)
        .uri(url)
        .body(Vec::new())
        .map_err(|e| WebhookError::InvalidRequest(e.to_string()))
}
