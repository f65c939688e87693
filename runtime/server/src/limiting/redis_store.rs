//! Owns the Redis-backed shared store (cargo feature `redis`): `RedisStore`, one
//! self-reconnecting multiplexed connection with a key prefix, a bounded wait and the rule for
//! when Redis cannot answer in time; `RedisRateLimiter`, which decides every request with
//! one Lua script, by the same rules as `InMemoryRateLimiter`, for all instances of a service;
//! and `RedisIdempotencyStore`, where those instances keep `Idempotency-Key` responses.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{RedisError, Script};

use super::idempotency_store::{Claim, IdempotencyStore, StoredResponse};
use super::ratelimit::{Decision, Quota, RateLimitPolicy, RateLimiter};

/// What a request meets when Redis does not answer within [`RedisOptions::timeout`]
/// (unreachable, restarting, overloaded).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WhenUnavailable {
    /// Serve the request without a limit (no `X-RateLimit-*` headers) and log a warning when
    /// Redis goes away and when it is back. The default, as in Envoy's and Kong's rate
    /// limiters: an outage of the limiter's store does not become an outage of the API.
    #[default]
    Allow,
    /// Refuse the request with 503, `Retry-After: 1` and the error body (code
    /// `rate_limit_unavailable`): for APIs where an unmetered request costs more than a
    /// refused one.
    Refuse,
}

/// How a [`RedisStore`] talks to Redis.
#[derive(Clone, Debug)]
pub struct RedisOptions {
    /// Prepended to every key, so services sharing one Redis keep apart ("petstore:").
    pub key_prefix: String,
    /// The longest a request waits for Redis (connecting included) before
    /// [`RedisOptions::when_unavailable`] decides. Default 100 ms.
    pub timeout: Duration,
    /// What a request gets while Redis does not answer (default: let through).
    pub when_unavailable: WhenUnavailable,
}

impl Default for RedisOptions {
    fn default() -> Self {
        RedisOptions {
            key_prefix: "apigen:".to_owned(),
            timeout: Duration::from_millis(100),
            when_unavailable: WhenUnavailable::Allow,
        }
    }
}

/// A connection to Redis shared by the limiter and the idempotency store of one process.
/// Cheap to clone. It connects lazily and reconnects by itself after Redis restarts: a
/// request that finds it down waits at most `timeout`, then `when_unavailable` applies.
#[derive(Clone)]
pub struct RedisStore {
    inner: Arc<Inner>,
}

struct Inner {
    connection: ConnectionManager,
    options: RedisOptions,
    /// False after a failed call, until one succeeds: a warning per outage, not per request.
    healthy: AtomicBool,
}

impl fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisStore")
            .field("options", &self.inner.options)
            .finish_non_exhaustive()
    }
}

/// Why a store call failed.
#[derive(Debug)]
pub enum StoreError {
    /// No answer within the timeout.
    Timeout,
    /// Redis answered with an error, or the connection failed.
    Redis(RedisError),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Timeout => f.write_str("no answer from Redis in time"),
            StoreError::Redis(e) => write!(f, "Redis: {e}"),
        }
    }
}

impl std::error::Error for StoreError {}

impl RedisStore {
    /// A store for `url` (`redis://host:port/db`). Does not connect yet, so a service starts
    /// while Redis is down; only a malformed URL is an error. Must be called inside a Tokio
    /// runtime (the reconnecting task lives there).
    pub fn open(url: &str, options: RedisOptions) -> Result<RedisStore, RedisError> {
        let client = redis::Client::open(url)?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(options.timeout))
            .set_response_timeout(Some(options.timeout))
            // Few quick attempts per reconnection: every later request starts another one,
            // so a Redis that comes back is found within one request, not after a long backoff.
            .set_number_of_retries(1)
            .set_min_delay(Duration::from_millis(50))
            .set_max_delay(Duration::from_millis(500));
        let connection = ConnectionManager::new_lazy_with_config(client, config)?;
        Ok(RedisStore {
            inner: Arc::new(Inner {
                connection,
                options,
                healthy: AtomicBool::new(true),
            }),
        })
    }

    /// The options the store was opened with.
    pub fn options(&self) -> &RedisOptions {
        &self.inner.options
    }

    /// The full key for `name`.
    pub fn key(&self, name: &str) -> String {
        format!("{}{name}", self.inner.options.key_prefix)
    }

    /// Whether Redis answers now (a `PING` within the timeout): for readiness checks.
    pub async fn ping(&self) -> Result<(), StoreError> {
        self.call(|mut c| async move {
            redis::cmd("PING")
                .query_async::<String>(&mut c)
                .await
                .map(|_| ())
        })
        .await
    }

    /// Runs one call on the shared connection within the timeout, logging the start and end
    /// of an outage once each.
    pub async fn call<T, F, Fut>(&self, f: F) -> Result<T, StoreError>
    where
        F: FnOnce(ConnectionManager) -> Fut,
        Fut: Future<Output = Result<T, RedisError>>,
    {
        let result = match tokio::time::timeout(
            self.inner.options.timeout,
            f(self.inner.connection.clone()),
        )
        .await
        {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(e)) => Err(StoreError::Redis(e)),
            Err(_) => Err(StoreError::Timeout),
        };
        match &result {
            Ok(_) => {
                if !self.inner.healthy.swap(true, Ordering::Relaxed) {
                    tracing::warn!("Redis answers again; shared rate limits are back");
                }
            }
            Err(e) => {
                metrics::counter!(
                    super::observe::METRIC_STORE_ERRORS,
                    "store" => "redis",
                    "error" => match e {
                        StoreError::Timeout => "timeout",
                        StoreError::Redis(_) => "error",
                    },
                )
                .increment(1);
                if self.inner.healthy.swap(false, Ordering::Relaxed) {
                    tracing::warn!(
                        error = %e,
                        when_unavailable = ?self.inner.options.when_unavailable,
                        "Redis does not answer; requests are {} until it does",
                        match self.inner.options.when_unavailable {
                            WhenUnavailable::Allow => "served without a rate limit",
                            WhenUnavailable::Refuse => "refused with 503",
                        }
                    );
                } else {
                    tracing::debug!(error = %e, "Redis call failed");
                }
            }
        }
        result
    }
}

/// The decision in one round trip: reads the ban, both window counters and the strike count,
/// and updates them atomically (Redis runs a script alone). Keys carry the window's start, so
/// a new window is a new key; every key has a TTL, so nothing outlives its use.
///
/// KEYS: minute counter, day counter, strikes (hash `n`, `until`), ban.
/// ARGV: now, per_minute, per_day, minute_reset, day_reset, ban_strikes, ban_secs.
/// Returns {outcome (0 refused, 1 allowed, 2 banned, 3 banned from now on), limit, remaining,
/// reset, retry_after}.
const DECIDE: &str = r"
local t = tonumber(ARGV[1])
local per_minute = tonumber(ARGV[2])
local per_day = tonumber(ARGV[3])
local minute_reset = tonumber(ARGV[4])
local day_reset = tonumber(ARGV[5])
local strikes = tonumber(ARGV[6])
local ban_secs = tonumber(ARGV[7])
-- keys outlive their window by a minute: instances' clocks may differ a little
local grace = 60

local banned_until = tonumber(redis.call('GET', KEYS[4]) or '0')
if banned_until > t then
  return {2, per_minute, 0, banned_until, banned_until - t}
end

local m = tonumber(redis.call('GET', KEYS[1]) or '0')
local d = tonumber(redis.call('GET', KEYS[2]) or '0')
if m < per_minute and d < per_day then
  m = redis.call('INCR', KEYS[1])
  if m == 1 then redis.call('EXPIRE', KEYS[1], minute_reset - t + grace) end
  d = redis.call('INCR', KEYS[2])
  if d == 1 then redis.call('EXPIRE', KEYS[2], day_reset - t + grace) end
  local minute_left = per_minute - m
  local day_left = per_day - d
  if day_left < minute_left then
    return {1, per_day, day_left, day_reset, 0}
  end
  return {1, per_minute, minute_left, minute_reset, 0}
end

local limit, reset = per_minute, minute_reset
if d >= per_day then limit, reset = per_day, day_reset end
local s = redis.call('HMGET', KEYS[3], 'n', 'until')
local n = tonumber(s[1] or '0')
if t >= tonumber(s[2] or '0') then n = 0 end
n = n + 1
if strikes > 0 and ban_secs > 0 and n > strikes then
  redis.call('SET', KEYS[4], t + ban_secs, 'EX', ban_secs)
  redis.call('DEL', KEYS[3])
  return {3, limit, 0, t + ban_secs, ban_secs}
end
redis.call('HSET', KEYS[3], 'n', n, 'until', reset)
redis.call('EXPIRE', KEYS[3], reset - t + grace)
return {0, limit, 0, reset, math.max(reset - t, 1)}
";

/// A limiter whose windows, strikes and bans live in Redis, so every instance of a service
/// counts against the same quota and honours the same bans. The rules are
/// `InMemoryRateLimiter`'s (fixed windows aligned to the UTC minute and day, the tighter
/// reported, refusals free, the ban rule); each request costs one `EVALSHA` round trip (the
/// first after a Redis restart also loads the script). Time is the caller's `now`, so the
/// instances' clocks should be synchronised (NTP); keys are grouped per caller with a hash tag,
/// so the script also runs on Redis Cluster.
#[derive(Clone, Debug)]
pub struct RedisRateLimiter {
    store: RedisStore,
    script: Arc<Script>,
    ban_strikes: u32,
    ban_secs: u64,
}

impl RedisRateLimiter {
    /// A limiter on `store` that bans a key for `ban` after `ban_strikes` further refusals in
    /// one window (either 0 disables bans), as [`InMemoryRateLimiter`](super::ratelimit::InMemoryRateLimiter) does.
    pub fn new(store: RedisStore, ban_strikes: u32, ban: Duration) -> Self {
        RedisRateLimiter {
            store,
            script: Arc::new(Script::new(DECIDE)),
            ban_strikes,
            // Round a sub-second remainder up, as the in-memory limiter does.
            ban_secs: ban.as_secs() + u64::from(ban.subsec_nanos() > 0),
        }
    }

    /// A limiter with the policy's ban rule.
    pub fn for_policy(store: RedisStore, policy: &RateLimitPolicy) -> Self {
        RedisRateLimiter::new(store, policy.ban_strikes, policy.ban)
    }

    /// The store the limiter counts in.
    pub fn store(&self) -> &RedisStore {
        &self.store
    }

    async fn decide(&self, key: &str, quota: Quota, now: SystemTime) -> Decision {
        const MINUTE: u64 = 60;
        const DAY: u64 = 86_400;
        let t = now
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        let minute_start = t - t % MINUTE;
        let day_start = t - t % DAY;
        let base = self.store.key(&format!("rl:{{{key}}}"));
        let mut call = self.script.prepare_invoke();
        call.key(format!("{base}:m:{minute_start}"))
            .key(format!("{base}:d:{day_start}"))
            .key(format!("{base}:strikes"))
            .key(format!("{base}:ban"))
            .arg(t)
            .arg(quota.per_minute)
            .arg(quota.per_day)
            .arg(minute_start + MINUTE)
            .arg(day_start + DAY)
            .arg(self.ban_strikes)
            .arg(self.ban_secs);
        let reply = self
            .store
            .call(|mut connection| async move {
                call.invoke_async::<(u8, u32, u32, u64, u64)>(&mut connection)
                    .await
            })
            .await;
        match reply {
            Ok((outcome, limit, remaining, reset_unix, retry_after)) => {
                if outcome == 3 {
                    super::ratelimit::ban_started();
                }
                Decision {
                    allowed: outcome == 1,
                    limit,
                    remaining,
                    reset_unix,
                    retry_after_secs: (outcome != 1).then_some(retry_after.max(1)),
                    banned: outcome >= 2,
                    unavailable: false,
                }
            }
            Err(_) => Decision::unavailable(
                self.store.options().when_unavailable == WhenUnavailable::Allow,
            ),
        }
    }
}

impl RateLimiter for RedisRateLimiter {
    fn check<'a>(
        &'a self,
        key: &'a str,
        quota: Quota,
        now: SystemTime,
    ) -> Pin<Box<dyn Future<Output = Decision> + Send + 'a>> {
        Box::pin(self.decide(key, quota, now))
    }
}

/// Claims a key: the stored fields when the key exists, else marks it running (with the
/// fingerprint) for at most ARGV[2] seconds and returns an empty list.
const CLAIM: &str = r"
local v = redis.call('HMGET', KEYS[1], 'state', 'fp', 'status', 'headers', 'body')
if v[1] then return v end
redis.call('HSET', KEYS[1], 'state', 'running', 'fp', ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return {}
";

/// Frees a key only while it is still running (never a stored response).
const ABANDON: &str = r"
if redis.call('HGET', KEYS[1], 'state') == 'running' then redis.call('DEL', KEYS[1]) end
return 0
";

/// `Idempotency-Key` responses in Redis, shared by every instance: one hash per key with
/// its state, the request's fingerprint and, once done, the response; claimed atomically by a
/// script (one round trip) and stored with the response's TTL. A running claim expires after
/// [`RedisIdempotencyStore::RUNNING_TTL`], so a crashed instance cannot hold a key forever.
#[derive(Clone, Debug)]
pub struct RedisIdempotencyStore {
    store: RedisStore,
    claim: Arc<Script>,
    abandon: Arc<Script>,
}

impl RedisIdempotencyStore {
    /// How long a claim lasts without a response: longer than any handler should run.
    pub const RUNNING_TTL: Duration = Duration::from_secs(300);

    /// An idempotency store on `store`.
    pub fn new(store: RedisStore) -> Self {
        RedisIdempotencyStore {
            store,
            claim: Arc::new(Script::new(CLAIM)),
            abandon: Arc::new(Script::new(ABANDON)),
        }
    }

    fn key(&self, key: &str) -> String {
        self.store.key(&format!("idem:{key}"))
    }
}

type Fields = Vec<Option<Vec<u8>>>;

impl IdempotencyStore for RedisIdempotencyStore {
    fn claim<'a>(
        &'a self,
        key: &'a str,
        fingerprint: [u8; 32],
    ) -> Pin<Box<dyn Future<Output = Claim> + Send + 'a>> {
        Box::pin(async move {
            let mut call = self.claim.prepare_invoke();
            call.key(self.key(key))
                .arg(&fingerprint[..])
                .arg(Self::RUNNING_TTL.as_secs());
            let reply = self
                .store
                .call(|mut c| async move { call.invoke_async::<Fields>(&mut c).await })
                .await;
            let Ok(fields) = reply else {
                return Claim::Unavailable {
                    allow: self.store.options().when_unavailable == WhenUnavailable::Allow,
                };
            };
            let field = |i: usize| fields.get(i).cloned().flatten();
            let Some(state) = field(0) else {
                return Claim::Claimed;
            };
            let fingerprint = field(1)
                .and_then(|f| <[u8; 32]>::try_from(f.as_slice()).ok())
                .unwrap_or([0; 32]);
            if state != b"done" {
                return Claim::InProgress { fingerprint };
            }
            let status = field(2)
                .and_then(|s| String::from_utf8(s).ok())
                .and_then(|s| s.parse().ok())
                .unwrap_or(500);
            let headers = field(3)
                .map(|h| {
                    String::from_utf8_lossy(&h)
                        .lines()
                        .filter_map(|l| l.split_once(": "))
                        .map(|(n, v)| (n.to_owned(), v.to_owned()))
                        .collect()
                })
                .unwrap_or_default();
            Claim::Done {
                fingerprint,
                response: StoredResponse {
                    status,
                    headers,
                    body: field(4).unwrap_or_default(),
                },
            }
        })
    }

    fn complete<'a>(
        &'a self,
        key: &'a str,
        fingerprint: [u8; 32],
        response: &'a StoredResponse,
        ttl: Duration,
    ) -> Pin<Box<dyn Future<Output = ()> + Send + 'a>> {
        Box::pin(async move {
            let key = self.key(key);
            let headers: String = response
                .headers
                .iter()
                .map(|(n, v)| format!("{n}: {v}\n"))
                .collect();
            let mut pipe = redis::pipe();
            pipe.atomic()
                .hset_multiple(
                    &key,
                    &[
                        ("state", b"done".to_vec()),
                        ("fp", fingerprint.to_vec()),
                        ("status", response.status.to_string().into_bytes()),
                        ("headers", headers.into_bytes()),
                        ("body", response.body.clone()),
                    ],
                )
                .ignore()
                .expire(&key, ttl.as_secs().max(1) as i64)
                .ignore();
            if let Err(e) = self
                .store
                .call(|mut c| async move { pipe.query_async::<()>(&mut c).await })
                .await
            {
                // The response still goes out; a retry will run the operation again.
                tracing::warn!(error = %e, "could not store a response for Idempotency-Key");
            }
        })
    }

    fn abandon(&self, key: &str) {
        let this = self.clone();
        let key = self.key(key);
        // Called from `Drop`: fire and forget on the current runtime; without one (a drop
        // at shutdown) the claim simply expires after `RUNNING_TTL`.
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        runtime.spawn(async move {
            let mut call = this.abandon.prepare_invoke();
            call.key(key);
            let _ = this
                .store
                .call(|mut c| async move { call.invoke_async::<i64>(&mut c).await })
                .await;
        });
    }
}
