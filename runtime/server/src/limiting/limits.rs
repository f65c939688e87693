//! Owns the limits on what a client may send and how slowly: the request-target and
//! header-section sizes (414, 431), the time to send the request head and the body (408), and
//! the number of connections served at once. The sizes are checked by the router-wide layer,
//! the body time by `body::collect`, the head time and the connection count by `serve`.
//!
//! Defaults suit an API behind a load balancer: requests are small and come from programs,
//! so anything far outside that is refused early rather than buffered.

use std::time::Duration;

use http::header::{self, HeaderMap, HeaderValue};
use http::{StatusCode, Uri};

use super::problem::Problem;

/// Default longest request target (path and query): 8 KiB, as nginx and Apache allow.
pub const DEFAULT_MAX_REQUEST_TARGET: usize = 8 * 1024;
/// Default largest header section (every `name: value` line with its line end): 32 KiB, room
/// for a long bearer token and cookies, a quarter of what nginx buffers at most.
pub const DEFAULT_MAX_HEADER_SECTION: usize = 32 * 1024;
/// Default time a client has to send its request head, from the moment the server waits for
/// it (a new connection, or the end of the previous response on a kept-alive one).
pub const DEFAULT_HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// Default time a client has to send a request body, from the first read of it. With the
/// default 1 MiB body limit that asks for about 35 KB/s at worst.
pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);
/// Default number of connections `serve` holds open at once; more wait in the kernel's
/// accept queue. Well below the usual 65536 file descriptors a service is given, so the
/// process never fails to open a file or socket of its own because clients hold them all.
pub const DEFAULT_MAX_CONNECTIONS: usize = 10_000;

/// What a client may send and how slowly (see the module docs for who enforces what).
/// `None` turns a timeout or the connection limit off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Longest request target in bytes (default 8 KiB); longer ones answer 414.
    pub max_request_target: usize,
    /// Largest header section in bytes (default 32 KiB); larger ones answer 431.
    pub max_header_section: usize,
    /// Time to send the request head (default 10 s); `None`: no limit.
    pub head_timeout: Option<Duration>,
    /// Time to send the request body (default 30 s); `None`: no limit.
    pub body_timeout: Option<Duration>,
    /// Connections `serve` holds open at once (default 10 000); `None`: no limit.
    pub max_connections: Option<usize>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_request_target: DEFAULT_MAX_REQUEST_TARGET,
            max_header_section: DEFAULT_MAX_HEADER_SECTION,
            head_timeout: Some(DEFAULT_HEAD_TIMEOUT),
            body_timeout: Some(DEFAULT_BODY_TIMEOUT),
            max_connections: Some(DEFAULT_MAX_CONNECTIONS),
        }
    }
}

impl Limits {
    /// The defaults (see the `DEFAULT_*` constants).
    pub fn new() -> Self {
        Limits::default()
    }

    /// Longest request target (`/v1/pets?limit=5`, or the whole URI in absolute form) in
    /// bytes; longer ones answer 414.
    pub fn max_request_target(mut self, bytes: usize) -> Self {
        self.max_request_target = bytes;
        self
    }

    /// Largest header section in bytes, counted as sent (`name: value` plus CRLF per line);
    /// larger ones answer 431.
    pub fn max_header_section(mut self, bytes: usize) -> Self {
        self.max_header_section = bytes;
        self
    }

    /// Time to send the request head (`serve` closes the connection after it, answering 408
    /// when part of a head had arrived); `None`: no limit.
    pub fn head_timeout(mut self, timeout: Option<Duration>) -> Self {
        self.head_timeout = timeout;
        self
    }

    /// Time to send the request body once the server starts reading it (408); `None`: no
    /// limit.
    pub fn body_timeout(mut self, timeout: Option<Duration>) -> Self {
        self.body_timeout = timeout;
        self
    }

    /// Connections `serve` holds open at once; `None`: no limit.
    pub fn max_connections(mut self, connections: Option<usize>) -> Self {
        self.max_connections = connections;
        self
    }

    /// The 414 or 431 for a request head over the size limits, if it is.
    pub fn check_head(&self, uri: &Uri, headers: &HeaderMap) -> Option<Problem> {
        let target = request_target_len(uri);
        if target > self.max_request_target {
            return Some(Problem::new(
                StatusCode::URI_TOO_LONG,
                "uri_too_long",
                format!(
                    "the request target is {target} bytes, over the limit of {} bytes",
                    self.max_request_target
                ),
            ));
        }
        let section = header_section_len(headers);
        if section > self.max_header_section {
            return Some(Problem::new(
                StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
                "header_fields_too_large",
                format!(
                    "the request headers are {section} bytes, over the limit of {} bytes",
                    self.max_header_section
                ),
            ));
        }
        None
    }
}

/// The request target's length as sent: the path and query (origin form), plus scheme and
/// authority when the client sent an absolute URI.
pub fn request_target_len(uri: &Uri) -> usize {
    let path_and_query = uri.path_and_query().map_or(0, |p| p.as_str().len());
    match (uri.scheme_str(), uri.authority()) {
        (Some(scheme), Some(authority)) => {
            scheme.len() + 3 + authority.as_str().len() + path_and_query
        }
        (None, Some(authority)) => authority.as_str().len() + path_and_query,
        _ => path_and_query,
    }
}

/// The header section's length as sent: `name: value\r\n` per line.
pub fn header_section_len(headers: &HeaderMap) -> usize {
    headers
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len() + 4)
        .sum()
}

/// The 408 for a client that did not send its request in time. `Connection: close`: the rest
/// of the request may still be on its way, so the connection cannot carry another one.
pub fn request_timeout(what: &str, timeout: Duration) -> Problem {
    Problem::new(
        StatusCode::REQUEST_TIMEOUT,
        "request_timeout",
        format!(
            "the request {what} was not received within {}",
            describe(timeout)
        ),
    )
    .with_header(header::CONNECTION, HeaderValue::from_static("close"))
}

/// "10 seconds", "1 second", "500 milliseconds".
fn describe(d: Duration) -> String {
    if d.subsec_millis() == 0 && d.as_secs() > 0 {
        let s = d.as_secs();
        format!("{s} second{}", if s == 1 { "" } else { "s" })
    } else {
        format!("{} milliseconds", d.as_millis())
    }
}
