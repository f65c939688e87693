//! Errors of a client call: typed per documented status, raw bytes kept for everything else.

use std::fmt;
use std::time::Duration;

use bytes::Bytes;
use http::{HeaderMap, StatusCode};

use super::ratelimit::{self, RateLimit};

/// The error of one call of an operation; `E` is the operation's typed error enum.
///
/// Every variant with a response keeps all of it: the status, the headers and the body as
/// the server sent it ([`Error::raw_body`]), so nothing the server said is lost to a type
/// that does not name it. [`Display`](fmt::Display) shows the server's own message (see
/// [`Error::server_message`]) and the request id ([`Error::request_id`]).
///
/// The variants with a response are `non_exhaustive`: match them with `..`
/// (`Error::Api { status, body, .. }`), so that what a later version keeps beside them
/// does not break the match.
#[derive(Debug)]
pub enum Error<E> {
    /// A documented error status (or an undocumented one read as the document's common error
    /// type: the enum's `Undocumented` variant); `body` is the operation's typed error enum
    /// (e.g. `ListPetsError::Unauthorized(ErrorBody)`), `raw` the body as received.
    #[non_exhaustive]
    Api {
        /// The response's status.
        status: StatusCode,
        /// The response's headers.
        headers: HeaderMap,
        /// The body, decoded into the operation's error type.
        body: E,
        /// The body as received.
        raw: Bytes,
    },
    /// A status the document does not list for the operation (and that no common error type
    /// reads); the body is kept as received.
    #[non_exhaustive]
    UnexpectedStatus {
        /// The response's status.
        status: StatusCode,
        /// The response's headers.
        headers: HeaderMap,
        /// The body as received.
        body: Bytes,
    },
    /// `410 Gone` from an operation the document gives a sunset date (`x-deprecation`): it
    /// has been removed. `replacement` is the `operationId` the document names instead.
    #[non_exhaustive]
    Gone {
        /// The response's status (410).
        status: StatusCode,
        /// The response's headers.
        headers: HeaderMap,
        /// The body as received.
        body: Bytes,
        /// The `operationId` of the removed operation.
        operation: &'static str,
        /// The `operationId` the document names as the replacement, if any.
        replacement: Option<&'static str>,
    },
    /// The body of a documented status did not decode; the bytes are kept for diagnosis.
    /// `path` is the JSON pointer of the value that failed (`/choices/0/message`; empty for
    /// the whole body or a body that is not JSON), `message` what was wrong there.
    #[non_exhaustive]
    Decode {
        /// The response's status.
        status: StatusCode,
        /// The response's headers.
        headers: HeaderMap,
        /// The body as received.
        body: Bytes,
        /// The JSON pointer of the value that failed; empty for the whole body.
        path: String,
        /// What was wrong there.
        message: String,
    },
    /// No (complete) response: connect, timeout, connection reset, body cut off.
    Transport(reqwest::Error),
    /// The request could not be built (invalid base URL, header value or body); nothing was sent.
    InvalidRequest(String),
}

/// The response headers that carry a request id, most common first; a header whose name
/// ends in `request-id` or `requestid` (a document's own, such as `x-github-request-id`) is
/// taken after them.
pub const REQUEST_ID_HEADERS: &[&str] = &[
    "x-request-id",
    "request-id",
    "x-amzn-requestid",
    "x-amz-request-id",
    "x-ms-request-id",
    "x-correlation-id",
    "x-trace-id",
    "cf-ray",
];

/// The request id a response's headers carry (see [`REQUEST_ID_HEADERS`]).
pub fn request_id(headers: &HeaderMap) -> Option<&str> {
    let text = |name: &http::HeaderName| headers.get(name).and_then(|v| v.to_str().ok());
    REQUEST_ID_HEADERS
        .iter()
        .find_map(|name| headers.get(*name).and_then(|v| v.to_str().ok()))
        .or_else(|| {
            headers
                .keys()
                .find(|n| n.as_str().ends_with("request-id") || n.as_str().ends_with("requestid"))
                .and_then(text)
        })
        .filter(|v| !v.is_empty())
}

/// The message a server wrote into an error body, when the body is JSON that holds one:
/// RFC 9457 problem details (`title` and `detail`), a top-level `message`, `detail`,
/// `error`, `error_description`, `title`, `msg`, `reason` or `description` string, or a
/// member whose name ends in `message` (`exception_message`), an `error` object's
/// `message` (`{"error": {"message": …}}`), and the `msg`, `message` or `detail` of the
/// items of a `detail` or `errors` list (FastAPI's validation errors, JSON:API), joined
/// with `; `. `None` for anything else, bodies that are not JSON included.
pub fn server_message(body: &[u8]) -> Option<String> {
    let value: serde_json::Value = serde_json::from_slice(body).ok()?;
    message_of(&value, 0)
}

fn message_of(value: &serde_json::Value, depth: usize) -> Option<String> {
    use serde_json::Value;
    const KEYS: &[&str] = &[
        "message",
        "detail",
        "error",
        "error_description",
        "title",
        "msg",
        "reason",
        "description",
    ];
    let object = match value {
        Value::String(s) if depth > 0 && !s.is_empty() => return Some(s.clone()),
        Value::Object(object) => object,
        _ => return None,
    };
    let text = |key: &str| match object.get(key) {
        Some(Value::String(s)) if !s.is_empty() => Some(s.as_str()),
        _ => None,
    };
    // RFC 9457: the title names the problem type, the detail this occurrence.
    if let (Some(title), Some(detail)) = (text("title"), text("detail")) {
        return Some(if title == detail {
            title.to_owned()
        } else {
            format!("{title}: {detail}")
        });
    }
    if let Some(found) = KEYS.iter().find_map(|k| text(k)) {
        return Some(found.to_owned());
    }
    if let Some(found) = object.iter().find_map(|(k, v)| match v {
        Value::String(s) if k.to_ascii_lowercase().ends_with("message") && !s.is_empty() => {
            Some(s.clone())
        }
        _ => None,
    }) {
        return Some(found);
    }
    if depth >= 2 {
        return None;
    }
    if let Some(inner @ Value::Object(_)) = object.get("error") {
        return message_of(inner, depth + 1);
    }
    for list in ["detail", "errors"] {
        if let Some(Value::Array(items)) = object.get(list) {
            let parts: Vec<String> = items
                .iter()
                .filter_map(|item| message_of(item, depth + 1))
                .collect();
            if !parts.is_empty() {
                return Some(parts.join("; "));
            }
        }
    }
    None
}

impl<E> Error<E> {
    /// The response status, when there was a response.
    pub fn status(&self) -> Option<StatusCode> {
        match self {
            Error::Api { status, .. }
            | Error::UnexpectedStatus { status, .. }
            | Error::Gone { status, .. }
            | Error::Decode { status, .. } => Some(*status),
            Error::Transport(e) => e.status(),
            Error::InvalidRequest(_) => None,
        }
    }

    /// The response headers, when there was a response.
    pub fn headers(&self) -> Option<&HeaderMap> {
        match self {
            Error::Api { headers, .. }
            | Error::UnexpectedStatus { headers, .. }
            | Error::Gone { headers, .. }
            | Error::Decode { headers, .. } => Some(headers),
            Error::Transport(_) | Error::InvalidRequest(_) => None,
        }
    }

    /// The rate-limit state the response announced (all `None` without a response).
    pub fn rate_limit(&self) -> RateLimit {
        self.headers()
            .map(RateLimit::from_headers)
            .unwrap_or_default()
    }

    /// The delay the response's `Retry-After` asked for, from now.
    pub fn retry_after(&self) -> Option<Duration> {
        ratelimit::retry_after(self.headers()?, web_time::SystemTime::now())
    }

    /// The id the server gave the request (`x-request-id` and the like:
    /// [`REQUEST_ID_HEADERS`]), for a support ticket or the server's logs.
    pub fn request_id(&self) -> Option<&str> {
        request_id(self.headers()?)
    }

    /// The body as the server sent it, whatever its status: decoded or not.
    pub fn raw_body(&self) -> Option<&Bytes> {
        match self {
            Error::Api { raw: body, .. }
            | Error::UnexpectedStatus { body, .. }
            | Error::Gone { body, .. }
            | Error::Decode { body, .. } => Some(body),
            Error::Transport(_) | Error::InvalidRequest(_) => None,
        }
    }

    /// The raw body of an undocumented or undecodable response (not of [`Error::Api`], whose
    /// body is typed: [`Error::raw_body`] has every body).
    pub fn body_bytes(&self) -> Option<&Bytes> {
        match self {
            Error::UnexpectedStatus { body, .. }
            | Error::Gone { body, .. }
            | Error::Decode { body, .. } => Some(body),
            _ => None,
        }
    }

    /// The message the server wrote into the body ([`server_message`]), whatever the typed
    /// body keeps of it.
    pub fn server_message(&self) -> Option<String> {
        server_message(self.raw_body()?)
    }

    /// The typed body of a documented error status.
    pub fn api_body(&self) -> Option<&E> {
        match self {
            Error::Api { body, .. } => Some(body),
            _ => None,
        }
    }

    /// Converts the typed body of [`Error::Api`], keeping every other variant.
    pub fn map_api<F>(self, f: impl FnOnce(E) -> F) -> Error<F> {
        match self {
            Error::Api {
                status,
                headers,
                body,
                raw,
            } => Error::Api {
                status,
                headers,
                body: f(body),
                raw,
            },
            Error::UnexpectedStatus {
                status,
                headers,
                body,
            } => Error::UnexpectedStatus {
                status,
                headers,
                body,
            },
            Error::Decode {
                status,
                headers,
                body,
                path,
                message,
            } => Error::Decode {
                status,
                headers,
                body,
                path,
                message,
            },
            Error::Gone {
                status,
                headers,
                body,
                operation,
                replacement,
            } => Error::Gone {
                status,
                headers,
                body,
                operation,
                replacement,
            },
            Error::Transport(e) => Error::Transport(e),
            Error::InvalidRequest(m) => Error::InvalidRequest(m),
        }
    }
}

/// One line: what happened, the server's own message where it wrote one, and the request id
/// (`422 Unprocessable Entity: Invalid request received. (request id 7f3a…)`).
impl<E: fmt::Debug> fmt::Display for Error<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Api {
                status, body, raw, ..
            } => {
                write!(f, "error response {status}")?;
                match server_message(raw) {
                    Some(message) => write!(f, ": {message}")?,
                    None if raw.is_empty() => {}
                    None if looks_textual(raw) => write!(f, ": {}", excerpt(raw))?,
                    None => write!(f, ": {body:?}")?,
                }
            }
            Error::UnexpectedStatus { status, body, .. } => {
                write!(f, "unexpected response status {status}")?;
                match server_message(body) {
                    Some(message) => write!(f, ": {message}")?,
                    None if !body.is_empty() => write!(f, ": {}", excerpt(body))?,
                    None => {}
                }
            }
            Error::Decode {
                status,
                path,
                message,
                ..
            } => {
                write!(f, "could not decode the {status} response body")?;
                if path.is_empty() {
                    write!(f, ": {message}")?;
                } else {
                    write!(f, " at {path}: {message}")?;
                }
            }
            Error::Gone {
                operation,
                replacement,
                ..
            } => {
                write!(f, "operation {operation} is gone (410, past its sunset)")?;
                if let Some(r) = replacement {
                    write!(f, "; use {r} instead")?;
                }
            }
            Error::Transport(e) => return write!(f, "transport error: {e}"),
            Error::InvalidRequest(m) => return write!(f, "invalid request: {m}"),
        }
        match self.request_id() {
            Some(id) => write!(f, " (request id {id})"),
            None => Ok(()),
        }
    }
}

// Text worth showing as it is: not empty, and valid UTF-8 without control characters other
// than white space.
fn looks_textual(body: &[u8]) -> bool {
    std::str::from_utf8(body).is_ok_and(|t| {
        !t.is_empty()
            && !t
                .chars()
                .take(200)
                .any(|c| c.is_control() && !c.is_whitespace())
    })
}

// A bounded, lossy view of a body for messages (bodies can be large or binary).
fn excerpt(body: &[u8]) -> String {
    const MAX: usize = 200;
    let text = String::from_utf8_lossy(&body[..body.len().min(MAX)]).into_owned();
    if body.len() > MAX {
        format!("{text}…")
    } else {
        text
    }
}

impl<E: fmt::Debug> std::error::Error for Error<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Transport(e) => Some(e),
            _ => None,
        }
    }
}

/// The failures of [`Transport::send`](super::transport::Transport::send), which has no
/// response to type yet. Converts into any [`Error<E>`] with `?`.
///
/// (A `From<Error<Infallible>> for Error<E>` impl would overlap with std's `From<T> for T`
/// at `E = Infallible`, hence this separate type.)
#[derive(Debug)]
pub enum SendError {
    /// No (complete) response: connect, timeout, connection reset.
    Transport(reqwest::Error),
    /// The request could not be built (invalid base URL, header value or body); nothing was sent.
    InvalidRequest(String),
}

impl<E> From<SendError> for Error<E> {
    fn from(e: SendError) -> Self {
        match e {
            SendError::Transport(e) => Error::Transport(e),
            SendError::InvalidRequest(m) => Error::InvalidRequest(m),
        }
    }
}

impl fmt::Display for SendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SendError::Transport(e) => write!(f, "transport error: {e}"),
            SendError::InvalidRequest(m) => write!(f, "invalid request: {m}"),
        }
    }
}

impl std::error::Error for SendError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SendError::Transport(e) => Some(e),
            SendError::InvalidRequest(_) => None,
        }
    }
}
