//! Owns the error response: the `Problem` value every request error becomes (with the
//! `Violation`s a 400 lists), and the one overridable hook (`RenderProblem`) that turns it
//! into an HTTP response.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use axum::body::Body;
use axum::response::Response;
use http::header::{self, HeaderMap, HeaderName, HeaderValue, IntoHeaderName};
use http::{Method, StatusCode};

/// One failed constraint: where in the request (a JSON pointer into the body, or
/// `query/limit`, `header/Authorization`) and what it broke. A 400's body lists every one
/// (`validate::Violations` collects them; also `validate::Violation`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Where: a JSON pointer into the body (`/name`), or the parameter (`query/limit`).
    pub pointer: String,
    /// What the value broke (`must be at most 100`).
    pub message: String,
}

/// A request error on its way to the client.
///
/// `message` is written for the caller: it never contains internals (no Rust error text from
/// I/O, no secrets). `headers` are added to the rendered response (`Allow`, `Retry-After`,
/// `WWW-Authenticate`, ...); boxed so `Result<_, Problem>` stays small (clippy's
/// `result_large_err`, which generated code would otherwise trip on every handler).
#[derive(Clone, Debug)]
pub struct Problem {
    /// The response's status.
    pub status: StatusCode,
    /// A short machine-readable code (`bad_request`, `not_found`, `rate_limited`).
    pub code: Cow<'static, str>,
    /// What went wrong, for the caller to read.
    pub message: String,
    /// Every failed constraint, for a 400; empty otherwise.
    pub violations: Vec<Violation>,
    /// Headers the rendered response carries besides its body's.
    pub headers: Box<HeaderMap>,
}

/// The one hook that renders problems; installed with `ServerConfig::render_problem`.
pub type RenderProblem = Arc<dyn Fn(&Problem) -> Response + Send + Sync>;

impl Problem {
    /// A problem of any status: `code` is the machine-readable code, `message` what the
    /// caller reads.
    pub fn new(
        status: StatusCode,
        code: impl Into<Cow<'static, str>>,
        message: impl Into<String>,
    ) -> Self {
        Problem {
            status,
            code: code.into(),
            message: message.into(),
            violations: Vec::new(),
            headers: Box::default(),
        }
    }

    /// 400, code `bad_request`.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Problem::new(StatusCode::BAD_REQUEST, "bad_request", message)
    }

    /// 401, code `unauthorized`: no valid credential.
    pub fn unauthorized(message: impl Into<String>) -> Self {
        Problem::new(StatusCode::UNAUTHORIZED, "unauthorized", message)
    }

    /// 403, code `forbidden`: the caller is known but may not do this.
    pub fn forbidden(message: impl Into<String>) -> Self {
        Problem::new(StatusCode::FORBIDDEN, "forbidden", message)
    }

    /// 404, code `not_found`.
    pub fn not_found() -> Self {
        Problem::new(
            StatusCode::NOT_FOUND,
            "not_found",
            "the requested resource was not found",
        )
    }

    /// 405 with an `Allow` header listing `allow` (comma separated, as RFC 9110 writes it).
    pub fn method_not_allowed(allow: &[Method]) -> Self {
        let list = allow
            .iter()
            .map(Method::as_str)
            .collect::<Vec<_>>()
            .join(", ");
        let message = if list.is_empty() {
            "this method is not allowed on this path".to_owned()
        } else {
            format!("this method is not allowed on this path; allowed: {list}")
        };
        let p = Problem::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            message,
        );
        match HeaderValue::from_str(&list) {
            Ok(v) => p.with_header(header::ALLOW, v),
            Err(_) => p,
        }
    }

    /// 413, code `payload_too_large`, naming the limit in bytes.
    pub fn payload_too_large(limit: usize) -> Self {
        Problem::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            format!("request body exceeds the limit of {limit} bytes"),
        )
    }

    /// Status 415: `got` is the request's `Content-Type` (None when absent); `expected` names
    /// what the operation accepts, e.g. "application/json".
    pub fn unsupported_media_type(got: Option<&str>, expected: &str) -> Self {
        let message = match got {
            Some(got) => format!(
                "unsupported content type {}; expected {expected}",
                quote_truncated(got, 100)
            ),
            None => format!("missing Content-Type; expected {expected}"),
        };
        Problem::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            message,
        )
    }

    /// 429 with `Retry-After` in seconds. `banned` selects the code `banned` (the key sent too
    /// many requests while refused) instead of `rate_limited`.
    pub fn too_many_requests(retry_after_secs: u64, banned: bool) -> Self {
        let (code, message) = if banned {
            (
                "banned",
                format!(
                    "temporarily banned after repeated requests over the rate limit; retry after {retry_after_secs} seconds"
                ),
            )
        } else {
            (
                "rate_limited",
                format!("rate limit exceeded; retry after {retry_after_secs} seconds"),
            )
        };
        Problem::new(StatusCode::TOO_MANY_REQUESTS, code, message)
            .with_header(header::RETRY_AFTER, HeaderValue::from(retry_after_secs))
    }

    /// 503 with `Retry-After: 1`: the rate limit's shared store did not answer in time and the
    /// server is configured to refuse rather than serve unlimited.
    pub fn rate_limit_unavailable() -> Self {
        Problem::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "rate_limit_unavailable",
            "the rate limit cannot be checked right now; retry shortly",
        )
        .with_header(header::RETRY_AFTER, HeaderValue::from(1u32))
    }

    /// Status 501, code `not_implemented`: what the trait's default method answers for an
    /// operation the implementation does not provide (yet): one the document added after the
    /// implementation was written.
    pub fn not_implemented(operation_id: &str) -> Self {
        Problem::new(
            StatusCode::NOT_IMPLEMENTED,
            "not_implemented",
            format!("operation {operation_id} is not implemented by this server"),
        )
    }

    /// Status 500: the caller logs the cause; the client only learns that something failed.
    pub fn internal() -> Self {
        Problem::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "internal server error",
        )
    }

    /// Sets (replaces) one header on the rendered response.
    pub fn with_header(mut self, name: impl IntoHeaderName, value: HeaderValue) -> Self {
        self.headers.insert(name, value);
        self
    }

    /// Adds a header value without replacing earlier ones (e.g. several `WWW-Authenticate`).
    pub fn append_header(mut self, name: HeaderName, value: HeaderValue) -> Self {
        self.headers.append(name, value);
        self
    }

    /// Attaches violations and makes the message list them (see `violations_message`).
    pub fn with_violations(mut self, violations: Vec<Violation>) -> Self {
        self.violations = violations;
        if !self.violations.is_empty() {
            self.message = violations_message(&self.violations);
        }
        self
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}: {}",
            self.status.as_u16(),
            self.code,
            self.message
        )
    }
}

impl std::error::Error for Problem {}

/// "<pointer>: <reason>; <pointer>: <reason>". An empty pointer is the request body itself.
pub(crate) fn violations_message(violations: &[Violation]) -> String {
    violations
        .iter()
        .map(|v| {
            let pointer = if v.pointer.is_empty() {
                "body"
            } else {
                v.pointer.as_str()
            };
            format!("{pointer}: {}", v.message)
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The default renderer: the spec's `Error` schema, `{"code", "message", "status"}`, as
/// `application/json`. Violations are folded into `message` because the schema has no field
/// for them (adding one would make responses fail schema checks).
pub fn render_default(p: &Problem) -> Response {
    let bytes = body_json(p);
    let mut resp = Response::new(Body::from(bytes));
    *resp.status_mut() = p.status;
    resp.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    for (name, value) in p.headers.iter() {
        resp.headers_mut().append(name.clone(), value.clone());
    }
    resp
}

/// The default `Error` body of a problem, `{"code","message","status"}`, as JSON bytes (also
/// the `data` of the `error` event that ends a failed event stream).
pub(crate) fn body_json(p: &Problem) -> Vec<u8> {
    let message = if p.violations.is_empty() {
        Cow::Borrowed(p.message.as_str())
    } else {
        Cow::Owned(violations_message(&p.violations))
    };
    let body = serde_json::json!({
        "code": p.code,
        "message": message,
        "status": p.status.as_u16(),
    });
    // Serializing a Value of strings and a number cannot fail; fall back to an empty body
    // rather than panicking if it ever did.
    serde_json::to_vec(&body).unwrap_or_default()
}

/// `"text"` with at most `max` characters kept (then `…`), escaped like a Rust string so
/// control characters in client input cannot forge log lines or messages.
pub(crate) fn quote_truncated(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        format!("{text:?}")
    } else {
        let cut: String = text.chars().take(max).collect();
        format!("{cut:?}…")
    }
}
