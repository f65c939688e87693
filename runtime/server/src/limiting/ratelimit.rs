//! Owns rate limiting: plans and quotas (`RateLimitPolicy`, from the document's
//! `x-rate-limit`), the pluggable `RateLimiter`, and `InMemoryRateLimiter` — fixed windows
//! aligned to the UTC minute and day, exact under concurrency, with temporary bans for keys
//! that keep sending while refused; and the `X-RateLimit-*` headers that say a decision.

use http::{HeaderMap, HeaderName, HeaderValue};
use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Counter: bans started (a key refused past the policy's strikes), by either limiter
/// (`observe::METRIC_BANS` too, beside the other metrics' names).
pub const METRIC_BANS: &str = "apigen.rate_limit.bans";

/// Counts one ban started (the limiters call it where they ban a key).
pub(crate) fn ban_started() {
    metrics::counter!(METRIC_BANS).increment(1);
}

/// Requests allowed per window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quota {
    /// Requests allowed per UTC minute.
    pub per_minute: u32,
    /// Requests allowed per UTC day.
    pub per_day: u32,
}

/// Plans by name, which plan anonymous callers (keyed by address) and principals without a
/// plan get, and the ban rule.
#[derive(Clone, Debug)]
pub struct RateLimitPolicy {
    /// Each plan's quota, by name.
    pub plans: BTreeMap<String, Quota>,
    /// The plan of callers without a valid credential (keyed by client address).
    pub anonymous_plan: String,
    /// The plan of principals that name none, and of those naming an unknown plan.
    pub default_plan: String,
    /// Refused requests, after the first, that ban a key before its window resets; 0: no bans.
    pub ban_strikes: u32,
    /// How long a ban lasts; zero: no bans.
    pub ban: Duration,
}

impl RateLimitPolicy {
    /// The quota of `plan` (None: the default plan). An unknown plan falls back to the
    /// default plan; None when that is missing too (the caller is then not limited).
    pub fn quota(&self, plan: Option<&str>) -> Option<Quota> {
        plan.and_then(|p| self.plans.get(p))
            .or_else(|| self.plans.get(&self.default_plan))
            .copied()
    }

    /// The quota of callers without a valid credential.
    pub fn anonymous_quota(&self) -> Option<Quota> {
        self.quota(Some(&self.anonymous_plan))
    }
}

/// The outcome of one check. `limit`, `remaining` and `reset_unix` describe the window the
/// `X-RateLimit-*` headers report: when allowed, the window with fewer requests remaining;
/// when refused, the window that refuses (the one resetting last, if both do); when banned,
/// the ban (reset = its end).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// Whether the request may go on.
    pub allowed: bool,
    /// `X-RateLimit-Limit`: requests the reported window allows.
    pub limit: u32,
    /// `X-RateLimit-Remaining`: requests left in the reported window.
    pub remaining: u32,
    /// `X-RateLimit-Reset`: Unix second at which the reported window (or the ban) ends.
    pub reset_unix: u64,
    /// Set when refused: seconds until a request can succeed (at least 1).
    pub retry_after_secs: Option<u64>,
    /// The key is banned (the 429's code is `banned`).
    pub banned: bool,
    /// The limiter could not decide (its shared store did not answer in time): the request
    /// is let through without `X-RateLimit-*` headers when `allowed`, else refused with 503.
    /// `limit`, `remaining` and `reset_unix` mean nothing then.
    pub unavailable: bool,
}

impl Decision {
    /// The decision of a limiter whose store could not answer: `allow` lets the request
    /// through unlimited, otherwise it is refused with 503 and `Retry-After: 1`.
    pub fn unavailable(allow: bool) -> Decision {
        Decision {
            allowed: allow,
            limit: 0,
            remaining: 0,
            reset_unix: 0,
            retry_after_secs: (!allow).then_some(1),
            banned: false,
            unavailable: true,
        }
    }
}

/// Counts one request of `key` against `quota` at `now` (injected so tests need no sleeps).
pub trait RateLimiter: Send + Sync + 'static {
    /// Counts one request of `key` (a principal's subject, or a client address) against
    /// `quota` at `now`, and says whether it may go on.
    fn check<'a>(
        &'a self,
        key: &'a str,
        quota: Quota,
        now: SystemTime,
    ) -> Pin<Box<dyn Future<Output = Decision> + Send + 'a>>;

    /// The decision without waiting, for limiters that need no I/O (a process-local map):
    /// `Some(decision)` counts the request exactly as `check` would and `check` is not called,
    /// which spares the boxed future; `None` (the default) means "call `check`".
    fn check_sync(&self, key: &str, quota: Quota, now: SystemTime) -> Option<Decision> {
        let _ = (key, quota, now);
        None
    }
}

impl<R: RateLimiter + ?Sized> RateLimiter for Arc<R> {
    fn check<'a>(
        &'a self,
        key: &'a str,
        quota: Quota,
        now: SystemTime,
    ) -> Pin<Box<dyn Future<Output = Decision> + Send + 'a>> {
        (**self).check(key, quota, now)
    }

    fn check_sync(&self, key: &str, quota: Quota, now: SystemTime) -> Option<Decision> {
        (**self).check_sync(key, quota, now)
    }
}

const MINUTE: u64 = 60;
const DAY: u64 = 86_400;

#[derive(Debug, Default)]
struct Entry {
    minute_start: u64,
    minute_count: u32,
    day_start: u64,
    day_count: u32,
    /// Refused requests in the current refusal period (the first one included).
    refusals: u32,
    /// When the refusal period counted in `refusals` ends.
    refusals_until: u64,
    /// Unix second at which a ban ends; 0 = not banned.
    banned_until: u64,
}

#[derive(Debug, Default)]
struct State {
    entries: HashMap<String, Entry>,
    last_sweep: u64,
}

/// A process-local limiter: one mutex-guarded map, so concurrent checks of one key never lose
/// updates. Refused requests do not consume quota. Entries whose day window has passed (and
/// that are not banned) are swept at most once a minute, so memory is bounded by the keys
/// seen in one day.
///
/// Ban rule: after a key's first refused request in a window, `ban_strikes` further refused
/// requests before that window resets ban it for `ban`; the request that reaches the count
/// is answered `banned`. While banned every request is refused with `banned` and
/// `retry_after_secs` counting down to the ban's end; afterwards the key starts afresh (its
/// window counts are kept). `ban_strikes == 0` or a zero `ban` disables bans.
#[derive(Debug)]
pub struct InMemoryRateLimiter {
    state: Mutex<State>,
    ban_strikes: u32,
    ban_secs: u64,
}

impl InMemoryRateLimiter {
    /// A limiter that bans a key for `ban` after `ban_strikes` further refusals in one window
    /// (either 0 disables bans).
    pub fn new(ban_strikes: u32, ban: Duration) -> Self {
        // Round a sub-second remainder up: a ban is never shorter than asked.
        let ban_secs = ban.as_secs() + u64::from(ban.subsec_nanos() > 0);
        InMemoryRateLimiter {
            state: Mutex::new(State::default()),
            ban_strikes,
            ban_secs,
        }
    }

    /// A limiter with the policy's ban rule.
    pub fn for_policy(policy: &RateLimitPolicy) -> Self {
        InMemoryRateLimiter::new(policy.ban_strikes, policy.ban)
    }

    /// Keys currently tracked (for tests and metrics).
    pub fn tracked_keys(&self) -> usize {
        self.lock().entries.len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic while holding the lock cannot leave an entry half-updated in a way that
        // matters more than refusing all traffic would.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The synchronous core of `check`.
    pub fn check_now(&self, key: &str, quota: Quota, now: SystemTime) -> Decision {
        let t = now
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        let mut state = self.lock();
        if t >= state.last_sweep.saturating_add(MINUTE) {
            let day_start = t - t % DAY;
            state
                .entries
                .retain(|_, e| e.day_start >= day_start || e.banned_until > t);
            state.last_sweep = t;
        }
        let entry = match state.entries.get_mut(key) {
            Some(e) => e,
            None => state.entries.entry(key.to_owned()).or_default(),
        };

        if entry.banned_until > t {
            return Decision {
                allowed: false,
                limit: quota.per_minute,
                remaining: 0,
                reset_unix: entry.banned_until,
                retry_after_secs: Some(entry.banned_until - t),
                banned: true,
                unavailable: false,
            };
        }
        if entry.banned_until != 0 {
            entry.banned_until = 0;
            entry.refusals = 0;
        }

        // Only move forward: a clock that steps back keeps the current windows.
        let minute_start = t - t % MINUTE;
        if minute_start > entry.minute_start {
            entry.minute_start = minute_start;
            entry.minute_count = 0;
        }
        let day_start = t - t % DAY;
        if day_start > entry.day_start {
            entry.day_start = day_start;
            entry.day_count = 0;
        }
        let minute_reset = entry.minute_start + MINUTE;
        let day_reset = entry.day_start + DAY;

        let minute_full = entry.minute_count >= quota.per_minute;
        let day_full = entry.day_count >= quota.per_day;
        if !minute_full && !day_full {
            entry.minute_count += 1;
            entry.day_count += 1;
            let minute_left = quota.per_minute - entry.minute_count;
            let day_left = quota.per_day - entry.day_count;
            let (limit, remaining, reset_unix) = if day_left < minute_left {
                (quota.per_day, day_left, day_reset)
            } else {
                (quota.per_minute, minute_left, minute_reset)
            };
            return Decision {
                allowed: true,
                limit,
                remaining,
                reset_unix,
                retry_after_secs: None,
                banned: false,
                unavailable: false,
            };
        }

        // Refused: report the window that must reset before a request can pass.
        let (limit, reset_unix) = if day_full {
            (quota.per_day, day_reset)
        } else {
            (quota.per_minute, minute_reset)
        };
        if t >= entry.refusals_until {
            entry.refusals = 0;
        }
        entry.refusals_until = reset_unix;
        entry.refusals = entry.refusals.saturating_add(1);
        if self.ban_strikes > 0 && self.ban_secs > 0 && entry.refusals > self.ban_strikes {
            entry.banned_until = t + self.ban_secs;
            ban_started();
            entry.refusals = 0;
            return Decision {
                allowed: false,
                limit,
                remaining: 0,
                reset_unix: entry.banned_until,
                retry_after_secs: Some(self.ban_secs),
                banned: true,
                unavailable: false,
            };
        }
        Decision {
            allowed: false,
            limit,
            remaining: 0,
            reset_unix,
            retry_after_secs: Some((reset_unix - t).max(1)),
            banned: false,
            unavailable: false,
        }
    }
}

impl RateLimiter for InMemoryRateLimiter {
    fn check<'a>(
        &'a self,
        key: &'a str,
        quota: Quota,
        now: SystemTime,
    ) -> Pin<Box<dyn Future<Output = Decision> + Send + 'a>> {
        Box::pin(std::future::ready(self.check_now(key, quota, now)))
    }

    fn check_sync(&self, key: &str, quota: Quota, now: SystemTime) -> Option<Decision> {
        Some(self.check_now(key, quota, now))
    }
}

// Built at compile time: inserting by `&str` would parse and copy each name per response.
static X_RATELIMIT_LIMIT: HeaderName = HeaderName::from_static("x-ratelimit-limit");
static X_RATELIMIT_REMAINING: HeaderName = HeaderName::from_static("x-ratelimit-remaining");
static X_RATELIMIT_RESET: HeaderName = HeaderName::from_static("x-ratelimit-reset");

/// `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset` (Unix seconds).
pub(crate) fn set_rate_limit_headers(headers: &mut HeaderMap, d: &Decision) {
    headers.insert(X_RATELIMIT_LIMIT.clone(), HeaderValue::from(d.limit));
    headers.insert(
        X_RATELIMIT_REMAINING.clone(),
        HeaderValue::from(d.remaining),
    );
    headers.insert(X_RATELIMIT_RESET.clone(), HeaderValue::from(d.reset_unix));
}
