//! Retry policy: when a failed attempt is tried again and after how long, as pure functions
//! (so the decision table is unit-tested), plus jitter and a sleep for native and wasm targets.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use http::StatusCode;

/// Bounds and switches for retrying one call of an operation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Total attempts, the first included (so 1 = never retry).
    pub max_attempts: u32,
    /// Backoff ceiling for the first retry; doubles per attempt up to `max_backoff`.
    pub initial_backoff: Duration,
    /// The longest wait between two attempts (a `Retry-After` may ask for longer; the budget
    /// still bounds it).
    pub max_backoff: Duration,
    /// Total time one call may spend, waits included. A wait that would overrun it is not
    /// taken: the last response (or error) is returned instead.
    pub budget: Duration,
    /// Retry `502`/`503`/`504` and transport errors (only when safe, see [`RetryPolicy::decide`]).
    pub retry_transient: bool,
    /// Before sending, wait for the window to reset when the last response said
    /// `X-RateLimit-Remaining: 0` and the reset is in the future (and within the budget).
    pub wait_on_exhausted: bool,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_attempts: 4,
            initial_backoff: Duration::from_millis(250),
            max_backoff: Duration::from_secs(10),
            budget: Duration::from_secs(30),
            retry_transient: true,
            wait_on_exhausted: true,
        }
    }
}

/// What went wrong with an attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The server answered with this status.
    Status(StatusCode),
    /// No (complete) response.
    Transport(TransportErrorKind),
}

/// Transport failures, by what they prove about whether the server saw the request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TransportErrorKind {
    /// The connection was never established: the request was certainly not sent.
    Connect,
    /// The request timed out: the server may have acted on it.
    Timeout,
    /// Anything else (connection reset, response cut off, ...): the server may have acted on it.
    Other,
}

impl TransportErrorKind {
    /// The kind of `error`, as far as the target can tell (in the browser every failure counts
    /// as possibly sent).
    pub fn of(error: &reqwest::Error) -> Self {
        // reqwest cannot tell a connect error on wasm (fetch reports one opaque failure), so
        // there every failure counts as possibly sent.
        #[cfg(not(target_arch = "wasm32"))]
        if error.is_connect() {
            return Self::Connect;
        }
        if error.is_timeout() {
            Self::Timeout
        } else {
            Self::Other
        }
    }
}

/// The verdict on a failed attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Wait this long, then send again.
    Retry(Duration),
    /// Return the last response or error to the caller now.
    GiveUp,
}

impl RetryPolicy {
    /// Never retry, never wait.
    pub fn none() -> Self {
        Self {
            max_attempts: 1,
            retry_transient: false,
            wait_on_exhausted: false,
            ..Self::default()
        }
    }

    /// Decides what follows attempt number `attempt` (1-based) that ended in `outcome`,
    /// `elapsed` after the call started.
    ///
    /// - `429`: retried whatever the method (the server refused without acting); waits
    ///   `retry_after` when given, else backoff. A `Retry-After` beyond the remaining budget
    ///   (e.g. a ban) gives up at once rather than sleeping in vain.
    /// - `502`/`503`/`504`, timeouts, other transport errors: retried only when
    ///   `retry_transient` and the operation is idempotent; `Retry-After` honoured when given.
    /// - connect errors: retried when `retry_transient`, even if not idempotent (never sent).
    /// - everything else: given up (returned as is).
    ///
    /// Attempts are bounded by `max_attempts`, and no wait may end past `budget`.
    /// `jitter` is a sample in `[0, 1)` (see [`jitter`]), a parameter to keep this pure.
    pub fn decide(
        &self,
        attempt: u32,
        elapsed: Duration,
        outcome: Outcome,
        idempotent: bool,
        retry_after: Option<Duration>,
        jitter: f64,
    ) -> Decision {
        if attempt >= self.max_attempts {
            return Decision::GiveUp;
        }
        let backoff = || self.backoff(attempt, jitter);
        let delay = match outcome {
            Outcome::Status(StatusCode::TOO_MANY_REQUESTS) => retry_after.unwrap_or_else(backoff),
            Outcome::Status(
                StatusCode::BAD_GATEWAY
                | StatusCode::SERVICE_UNAVAILABLE
                | StatusCode::GATEWAY_TIMEOUT,
            ) if self.retry_transient && idempotent => retry_after.unwrap_or_else(backoff),
            Outcome::Transport(TransportErrorKind::Connect) if self.retry_transient => backoff(),
            Outcome::Transport(TransportErrorKind::Timeout | TransportErrorKind::Other)
                if self.retry_transient && idempotent =>
            {
                backoff()
            }
            _ => return Decision::GiveUp,
        };
        // A spent budget ends the call even for a zero wait: the budget bounds total time.
        match self.budget.checked_sub(elapsed) {
            Some(remaining) if !remaining.is_zero() && delay <= remaining => Decision::Retry(delay),
            _ => Decision::GiveUp,
        }
    }

    /// Exponential backoff with full jitter after attempt `attempt` (1-based): a uniform pick
    /// in `[0, min(max_backoff, initial_backoff * 2^(attempt-1)))`. Full jitter spreads
    /// clients that failed together, which is what a rate limiter wants.
    pub fn backoff(&self, attempt: u32, jitter: f64) -> Duration {
        // NaN would make `mul_f64` panic; treat it as no wait.
        let jitter = if jitter.is_nan() {
            0.0
        } else {
            jitter.clamp(0.0, 1.0)
        };
        self.backoff_ceiling(attempt).mul_f64(jitter)
    }

    /// The upper bound of [`RetryPolicy::backoff`] for `attempt`.
    pub fn backoff_ceiling(&self, attempt: u32) -> Duration {
        let doublings = attempt.saturating_sub(1).min(31);
        self.initial_backoff
            .saturating_mul(1u32 << doublings)
            .min(self.max_backoff)
    }
}

/// A sample in `[0, 1)` for backoff jitter. Not cryptographic; avoids a `rand` dependency by
/// hashing a process-wide counter and the clock with std's randomly keyed hasher.
pub fn jitter() -> f64 {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    let now = web_time::SystemTime::now()
        .duration_since(web_time::UNIX_EPOCH)
        .unwrap_or_default();
    hasher.write_u128(now.as_nanos());
    // The top 53 bits fill an f64 mantissa exactly, so the result is uniform and < 1.
    (hasher.finish() >> 11) as f64 / (1u64 << 53) as f64
}

/// The monotonic clock a call's time budget is measured on: tokio's natively, so that tests
/// on tokio's paused clock (`#[tokio::test(start_paused = true)]`) drive the budget and
/// [`sleep`] together, without waiting in real time; web-time's on wasm32 (no tokio there).
#[cfg(not(target_arch = "wasm32"))]
pub use tokio::time::Instant;
#[cfg(target_arch = "wasm32")]
pub use web_time::Instant;

/// Waits `duration`: tokio's timer natively (reqwest already runs on tokio there), a JS timer
/// on wasm32 (no tokio in the browser).
pub async fn sleep(duration: Duration) {
    if duration.is_zero() {
        return;
    }
    #[cfg(not(target_arch = "wasm32"))]
    tokio::time::sleep(duration).await;
    #[cfg(target_arch = "wasm32")]
    gloo_timers::future::sleep(duration).await;
}
