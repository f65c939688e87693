//! Owns building success responses: the body is serialized before the status is committed, so
//! a serialization failure becomes a clean 500 problem instead of a half-written response.

use axum::body::{Body, Bytes};
use axum::response::Response;
use http::StatusCode;
use http::header::{self, HeaderName, HeaderValue};

use super::problem::Problem;

/// A JSON response. Serialization failure (a map with non-string keys, a failing custom
/// `Serialize`) is logged and becomes `Problem::internal()`.
pub fn json<T: serde::Serialize>(status: StatusCode, body: &T) -> Result<Response, Problem> {
    let bytes = serde_json::to_vec(body).map_err(|e| {
        tracing::error!(error = %e, "failed to serialize a response body");
        Problem::internal()
    })?;
    Ok(with_body(
        status,
        HeaderValue::from_static("application/json"),
        Bytes::from(bytes),
    ))
}

/// A response without a body (204, 304, or a documented status without content).
pub fn empty(status: StatusCode) -> Response {
    let mut resp = Response::new(Body::empty());
    *resp.status_mut() = status;
    resp
}

/// A byte body with the given content type (an invalid one falls back to
/// `application/octet-stream` and is logged: it comes from the spec, not the client).
pub fn bytes(status: StatusCode, content_type: &str, body: Bytes) -> Response {
    with_body(
        status,
        content_type_value(content_type, "application/octet-stream"),
        body,
    )
}

/// A text body with the given content type (`text/plain; charset=utf-8` when invalid).
pub fn text(status: StatusCode, content_type: &str, body: String) -> Response {
    with_body(
        status,
        content_type_value(content_type, "text/plain; charset=utf-8"),
        Bytes::from(body),
    )
}

fn content_type_value(content_type: &str, fallback: &'static str) -> HeaderValue {
    HeaderValue::from_str(content_type).unwrap_or_else(|_| {
        tracing::warn!(content_type, "invalid content type; using {fallback}");
        HeaderValue::from_static(fallback)
    })
}

fn with_body(status: StatusCode, content_type: HeaderValue, body: Bytes) -> Response {
    let mut resp = Response::new(Body::from(body));
    *resp.status_mut() = status;
    resp.headers_mut()
        .insert(header::CONTENT_TYPE, content_type);
    resp
}

/// Appends the operation's fixed headers (from the descriptor: `Deprecation`, `Sunset`,
/// `Link`, ...). A name or value that is not a valid header is skipped and logged, never a
/// panic.
pub fn append_headers(resp: &mut Response, headers: &'static [(&'static str, &'static str)]) {
    for (name, value) in headers {
        match (
            HeaderName::from_bytes(name.as_bytes()),
            HeaderValue::from_str(value),
        ) {
            (Ok(n), Ok(v)) => {
                resp.headers_mut().append(n, v);
            }
            _ => tracing::warn!(name, "skipping an invalid response header"),
        }
    }
}

/// Sets one header whose value the handler computed (a response header the spec declares).
/// Err(internal problem) when the value cannot be a header value (e.g. contains a newline).
pub fn set_header(resp: &mut Response, name: &'static str, value: &str) -> Result<(), Problem> {
    let name = HeaderName::from_bytes(name.as_bytes()).map_err(|_| {
        tracing::error!(name, "invalid response header name");
        Problem::internal()
    })?;
    let value = HeaderValue::from_str(value).map_err(|_| {
        tracing::error!(%name, "response header value is not a valid header value");
        Problem::internal()
    })?;
    resp.headers_mut().insert(name, value);
    Ok(())
}
