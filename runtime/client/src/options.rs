//! Per-call options: what one call (or a handful of them) sends beyond the client's own
//! settings: extra headers and query pairs, a timeout, a retry policy, an idempotency key,
//! and hooks of the caller's own that see each attempt's request and response.
//!
//! A generated client takes them with `client.with_options(options)`, which returns a client
//! that shares the original's connections, credentials and rate-limit state and applies the
//! options to every call made through it (the style of Stainless's `with_options` and of
//! aws-sdk's `customize()`, without a builder per operation):
//!
//! ```ignore
//! let created = client
//!     .with_options(RequestOptions::new().header("x-trace", "on").timeout(Duration::from_secs(2)))
//!     .create_pet(&pet)
//!     .await?;
//! ```

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use http::header::{HeaderName, HeaderValue};
use http::{HeaderMap, StatusCode};

use super::retry::RetryPolicy;

/// A hook of the caller's own, called on every attempt of every call it applies to: the
/// place for a signature, a header computed per request, a log line or a metric.
pub trait Hook: Send + Sync {
    /// Called on each attempt's request, after credentials and the other options were
    /// applied, just before it is sent.
    fn on_request(&self, request: &mut reqwest::Request) {
        let _ = request;
    }

    /// Called on each attempt's response, before its body is read (streamed successes) or
    /// after (everything else), with its status and headers.
    fn on_response(&self, status: StatusCode, headers: &HeaderMap) {
        let _ = (status, headers);
    }
}

/// Options for the calls of a client made with `with_options` (see the module's docs).
/// `Default` changes nothing.
#[derive(Clone, Default)]
pub struct RequestOptions {
    pub(crate) headers: HeaderMap,
    pub(crate) query: Vec<(String, String)>,
    pub(crate) timeout: Option<Duration>,
    pub(crate) retry: Option<RetryPolicy>,
    pub(crate) idempotency_key: Option<HeaderValue>,
    pub(crate) hooks: Vec<Arc<dyn Hook>>,
    /// The first problem of a setter (a header name or value that is not one): the call
    /// fails with it, as `Error::InvalidRequest`, before anything is sent.
    pub(crate) invalid: Option<String>,
}

impl RequestOptions {
    /// No options: the call goes out as the client would send it.
    pub fn new() -> Self {
        Self::default()
    }

    /// A header sent with every attempt, replacing one of the same name that the generated
    /// method or the client set (credentials included). An invalid name or value makes the
    /// call fail with `Error::InvalidRequest`, sending nothing.
    pub fn header(mut self, name: impl AsRef<str>, value: impl AsRef<str>) -> Self {
        match (
            HeaderName::from_bytes(name.as_ref().as_bytes()),
            HeaderValue::from_str(value.as_ref()),
        ) {
            (Ok(name), Ok(value)) => {
                self.headers.insert(name, value);
            }
            _ => {
                self.invalid.get_or_insert_with(|| {
                    format!("invalid header `{}` in the call's options", name.as_ref())
                });
            }
        }
        self
    }

    /// A query pair added to every request, after the operation's own parameters
    /// (percent-encoded as a form, as browsers write query strings).
    pub fn query(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.query.push((name.into(), value.into()));
        self
    }

    /// The timeout of each attempt, in place of the client's (native targets; a browser's
    /// fetch has none to set).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// The retry policy, in place of the client's ([`RetryPolicy::none`]: one attempt).
    pub fn retry_policy(mut self, retry: RetryPolicy) -> Self {
        self.retry = Some(retry);
        self
    }

    /// The `Idempotency-Key` sent (on every attempt), in place of the fresh one the client
    /// makes per call of an operation that declares the header; sent by any operation then,
    /// and its requests are retried like idempotent ones. One key is one logical request:
    /// give each call its own.
    pub fn idempotency_key(mut self, key: impl AsRef<str>) -> Self {
        match HeaderValue::from_str(key.as_ref()) {
            Ok(value) => self.idempotency_key = Some(value),
            Err(_) => {
                self.invalid
                    .get_or_insert_with(|| "invalid idempotency key in the call's options".into());
            }
        }
        self
    }

    /// A hook called on every attempt (see [`Hook`]); several run in the order given.
    pub fn hook(mut self, hook: impl Hook + 'static) -> Self {
        self.hooks.push(Arc::new(hook));
        self
    }

    /// These options with `later`'s on top: its headers replace these of the same name,
    /// its query pairs and hooks follow these, and what it sets of the rest wins.
    pub fn merged(&self, later: RequestOptions) -> RequestOptions {
        let mut out = self.clone();
        for (name, value) in later.headers.iter() {
            out.headers.insert(name.clone(), value.clone());
        }
        out.query.extend(later.query);
        out.timeout = later.timeout.or(out.timeout);
        out.retry = later.retry.or(out.retry);
        out.idempotency_key = later.idempotency_key.or(out.idempotency_key);
        out.hooks.extend(later.hooks);
        out.invalid = out.invalid.or(later.invalid);
        out
    }

    /// Whether these options change nothing.
    pub fn is_empty(&self) -> bool {
        self.headers.is_empty()
            && self.query.is_empty()
            && self.timeout.is_none()
            && self.retry.is_none()
            && self.idempotency_key.is_none()
            && self.hooks.is_empty()
            && self.invalid.is_none()
    }
}

impl fmt::Debug for RequestOptions {
    /// Header values are left out: they may be secrets.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RequestOptions")
            .field("headers", &self.headers.keys().collect::<Vec<_>>())
            .field(
                "query",
                &self.query.iter().map(|(n, _)| n).collect::<Vec<_>>(),
            )
            .field("timeout", &self.timeout)
            .field("retry", &self.retry)
            .field("idempotency_key", &self.idempotency_key.is_some())
            .field("hooks", &self.hooks.len())
            .finish()
    }
}
