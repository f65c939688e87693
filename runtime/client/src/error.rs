//! Errors of a client call: typed per documented status, raw bytes kept for everything else.

use std::fmt;
use std::time::Duration;

use bytes::Bytes;
use http::{HeaderMap, StatusCode};

use super::ratelimit::{self, RateLimit};

/// The error of one call of an operation; `E` is the operation's typed error enum.
#[derive(Debug)]
pub enum Error<E> {
    /// A documented error status; `body` is the operation's typed error enum
    /// (e.g. `ListPetsError::Unauthorized(ErrorBody)`).
    Api {
        status: StatusCode,
        headers: HeaderMap,
        body: E,
    },
    /// A status the document does not list for the operation; the body is kept as received.
    UnexpectedStatus {
        status: StatusCode,
        headers: HeaderMap,
        body: Bytes,
    },
    /// `410 Gone` from an operation the document gives a sunset date (`x-deprecation`): it
    /// has been removed. `replacement` is the `operationId` the document names instead.
    Gone {
        status: StatusCode,
        headers: HeaderMap,
        body: Bytes,
        operation: &'static str,
        replacement: Option<&'static str>,
    },
    /// The body of a documented status did not decode; the bytes are kept for diagnosis.
    Decode {
        status: StatusCode,
        headers: HeaderMap,
        body: Bytes,
        message: String,
    },
    /// No (complete) response: connect, timeout, connection reset, body cut off.
    Transport(reqwest::Error),
    /// The request could not be built (invalid base URL, header value or body); nothing was sent.
    InvalidRequest(String),
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

    /// The raw body of an undocumented or undecodable response.
    pub fn body_bytes(&self) -> Option<&Bytes> {
        match self {
            Error::UnexpectedStatus { body, .. }
            | Error::Gone { body, .. }
            | Error::Decode { body, .. } => Some(body),
            _ => None,
        }
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
            } => Error::Api {
                status,
                headers,
                body: f(body),
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
                message,
            } => Error::Decode {
                status,
                headers,
                body,
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

impl<E: fmt::Debug> fmt::Display for Error<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Api { status, body, .. } => write!(f, "error response {status}: {body:?}"),
            Error::UnexpectedStatus { status, body, .. } => {
                write!(f, "unexpected response status {status}")?;
                if !body.is_empty() {
                    write!(f, ": {}", excerpt(body))?;
                }
                Ok(())
            }
            Error::Decode {
                status, message, ..
            } => write!(f, "could not decode the {status} response body: {message}"),
            Error::Gone {
                operation,
                replacement,
                ..
            } => {
                write!(f, "operation {operation} is gone (410, past its sunset)")?;
                match replacement {
                    Some(r) => write!(f, "; use {r} instead"),
                    None => Ok(()),
                }
            }
            Error::Transport(e) => write!(f, "transport error: {e}"),
            Error::InvalidRequest(m) => write!(f, "invalid request: {m}"),
        }
    }
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
    Transport(reqwest::Error),
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
