//! Owns reading webhook deliveries (the document's `webhooks`) a consumer's endpoint received:
//! method and content type checked, payload decoded, and the status to refuse one with.

use std::fmt;

use http::{HeaderMap, Method, StatusCode};
use serde::de::DeserializeOwned;

/// Why a received request is not a delivery of the webhook it was read as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WebhookError {
    /// No webhook has this name.
    UnknownWebhook(String),
    /// The webhook is sent with `expected`.
    MethodNotAllowed {
        /// The webhook's method.
        expected: String,
        /// The request's method.
        got: String,
    },
    /// The body is not of the webhook's media type.
    UnsupportedMediaType {
        /// The webhook's media type.
        expected: String,
        /// The request's `Content-Type`.
        got: String,
    },
    /// The webhook has a required payload and the body is empty.
    MissingPayload,
    /// The payload did not decode; the message says where.
    Decode(String),
}

impl WebhookError {
    /// The status to answer the delivery with: 404, 405, 415, or 400.
    pub fn status(&self) -> StatusCode {
        match self {
            WebhookError::UnknownWebhook(_) => StatusCode::NOT_FOUND,
            WebhookError::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            WebhookError::UnsupportedMediaType { .. } => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            WebhookError::MissingPayload | WebhookError::Decode(_) => StatusCode::BAD_REQUEST,
        }
    }
}

impl fmt::Display for WebhookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WebhookError::UnknownWebhook(n) => write!(f, "no webhook is named `{n}`"),
            WebhookError::MethodNotAllowed { expected, got } => {
                write!(f, "webhook sent with {got}; expected {expected}")
            }
            WebhookError::UnsupportedMediaType { expected, got } => {
                write!(f, "webhook payload of type {got}; expected {expected}")
            }
            WebhookError::MissingPayload => f.write_str("the webhook's payload is missing"),
            WebhookError::Decode(m) => write!(f, "the webhook's payload did not decode: {m}"),
        }
    }
}

impl std::error::Error for WebhookError {}

/// The request's method is the webhook's (`expected` as the document spells it).
pub fn check_method(got: &Method, expected: &str) -> Result<(), WebhookError> {
    if got.as_str().eq_ignore_ascii_case(expected) {
        Ok(())
    } else {
        Err(WebhookError::MethodNotAllowed {
            expected: expected.to_owned(),
            got: got.as_str().to_owned(),
        })
    }
}

/// A required JSON payload.
pub fn read_json<T: DeserializeOwned>(
    method: &Method,
    expected_method: &str,
    headers: &HeaderMap,
    content_type: &str,
    body: &[u8],
) -> Result<T, WebhookError> {
    read_optional_json(method, expected_method, headers, content_type, body)?
        .ok_or(WebhookError::MissingPayload)
}

/// An optional JSON payload: an empty body is `None`.
pub fn read_optional_json<T: DeserializeOwned>(
    method: &Method,
    expected_method: &str,
    headers: &HeaderMap,
    content_type: &str,
    body: &[u8],
) -> Result<Option<T>, WebhookError> {
    check_method(method, expected_method)?;
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    // Absent is tolerated (senders forget it); present must be JSON.
    if let Some(got) = headers.get(http::header::CONTENT_TYPE) {
        let got = got.to_str().unwrap_or("");
        let essence = got
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        let expected = content_type.split(';').next().unwrap_or("").trim();
        let json = essence == "application/json" || essence.ends_with("+json");
        if !(json || essence.eq_ignore_ascii_case(expected)) {
            return Err(WebhookError::UnsupportedMediaType {
                expected: content_type.to_owned(),
                got: got.to_owned(),
            });
        }
    }
    serde_json::from_slice(body)
        .map(Some)
        .map_err(|e| WebhookError::Decode(e.to_string()))
}
