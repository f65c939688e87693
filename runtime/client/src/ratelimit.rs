//! Rate-limit headers: `X-RateLimit-Limit/Remaining/Reset` and `Retry-After`, parsed leniently
//! (a missing or garbled value is `None`, never an error: these headers are advice).

use std::time::Duration;

use http::HeaderMap;
use http::header::HeaderName;
use web_time::{SystemTime, UNIX_EPOCH};

// Parsed once, at compile time: looking a header up by `&str` parses and checks the name on
// every call, and these are read on every response.
static X_RATELIMIT_LIMIT: HeaderName = HeaderName::from_static("x-ratelimit-limit");
static X_RATELIMIT_REMAINING: HeaderName = HeaderName::from_static("x-ratelimit-remaining");
static X_RATELIMIT_RESET: HeaderName = HeaderName::from_static("x-ratelimit-reset");

/// The rate-limit state a response announced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RateLimit {
    /// `X-RateLimit-Limit`: requests allowed in the current window.
    pub limit: Option<u64>,
    /// `X-RateLimit-Remaining`: requests left in the current window.
    pub remaining: Option<u64>,
    /// `X-RateLimit-Reset`: when the window resets (the header is a Unix timestamp in seconds).
    pub reset: Option<SystemTime>,
}

impl RateLimit {
    /// Reads `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`; a header
    /// that is absent or unreadable leaves its field `None`.
    pub fn from_headers(headers: &HeaderMap) -> Self {
        Self {
            limit: header_u64(headers, &X_RATELIMIT_LIMIT),
            remaining: header_u64(headers, &X_RATELIMIT_REMAINING),
            reset: header_u64(headers, &X_RATELIMIT_RESET)
                .and_then(|secs| UNIX_EPOCH.checked_add(Duration::from_secs(secs))),
        }
    }

    /// True when the response carried none of the three headers (in usable form).
    pub fn is_empty(&self) -> bool {
        self.limit.is_none() && self.remaining.is_none() && self.reset.is_none()
    }

    /// How long to wait before the next request can succeed: `Some` only when nothing remains
    /// in the window and its reset lies after `now`.
    pub fn wait_until_reset(&self, now: SystemTime) -> Option<Duration> {
        if self.remaining != Some(0) {
            return None;
        }
        self.reset?
            .duration_since(now)
            .ok()
            .filter(|d| !d.is_zero())
    }
}

fn header_u64(headers: &HeaderMap, name: &HeaderName) -> Option<u64> {
    headers.get(name)?.to_str().ok()?.trim().parse().ok()
}

/// The delay a `Retry-After` header asks for (RFC 9110 §10.2.3): delay-seconds or an
/// HTTP-date. A date in the past is `Duration::ZERO`; a missing or garbled value is `None`.
pub fn retry_after(headers: &HeaderMap, now: SystemTime) -> Option<Duration> {
    parse_retry_after(headers.get(http::header::RETRY_AFTER)?.to_str().ok()?, now)
}

/// [`retry_after`] for a header value already in hand.
pub fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        // Only digits yet unparseable means an absurd number of seconds: saturate rather than
        // ignore it, so an effectively-forever ban is still treated as one.
        return Some(Duration::from_secs(value.parse().unwrap_or(u64::MAX)));
    }
    let date = http_date(value)?;
    Some(date.duration_since(now).unwrap_or(Duration::ZERO))
}

/// Parses an HTTP-date (IMF-fixdate, and the obsolete RFC 850 and asctime forms).
pub(crate) fn http_date(value: &str) -> Option<SystemTime> {
    // httpdate yields std's SystemTime; moving through the epoch offset converts it to
    // web-time's, which is a different type on wasm32 (std's `now()` panics there, but the
    // arithmetic used here does not).
    let std_time = httpdate::parse_http_date(value.trim()).ok()?;
    let since_epoch = std_time.duration_since(std::time::UNIX_EPOCH).ok()?;
    UNIX_EPOCH.checked_add(since_epoch)
}
