//! The Redis rate limiter against a real `redis-server` started on a free loopback port:
//! it decides exactly as the in-memory limiter does (a long scripted sequence compared step by
//! step), stays exact under concurrent checks, lets its keys expire, and when Redis stops it
//! applies the configured rule (allow without headers, or 503 with the error body) and
//! recovers by itself once Redis is back. Needs `redis-server` (`apt-get install redis-server`).

mod common;
#[path = "common/redis_server.rs"]
mod redis_server;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use apigen_server_runtime::ratelimit::{InMemoryRateLimiter, Quota, RateLimitPolicy, RateLimiter};
use apigen_server_runtime::redis_store::{
    RedisOptions, RedisRateLimiter, RedisStore, WhenUnavailable,
};
use common::{GOOD_KEY, client, config, send, serve_petstore};
use redis_server::RedisServer;

/// 2030-01-01T00:00:00Z, a day and minute boundary.
const T0: u64 = 1_893_456_000;

fn at(secs: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(secs)
}

/// A key prefix no other test (or earlier run) uses.
fn fresh_prefix() -> String {
    static N: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("t{nanos}-{}:", N.fetch_add(1, Ordering::Relaxed))
}

/// Generous waits: these tests check decisions, not speed, on a shared machine.
fn options(when_unavailable: WhenUnavailable) -> RedisOptions {
    RedisOptions {
        key_prefix: fresh_prefix(),
        timeout: Duration::from_secs(5),
        when_unavailable,
    }
}

#[tokio::test]
async fn decides_exactly_as_the_in_memory_limiter() {
    let Some(redis) = RedisServer::start_or_skip("decides_exactly_as_the_in_memory_limiter") else {
        return;
    };
    let store = RedisStore::open(&redis.url(), options(WhenUnavailable::Refuse)).unwrap();
    let shared = RedisRateLimiter::new(store, 3, Duration::from_secs(150));
    let local = InMemoryRateLimiter::new(3, Duration::from_secs(150));
    let quotas = [
        Quota {
            per_minute: 5,
            per_day: 300,
        },
        Quota {
            per_minute: 12,
            per_day: 60,
        },
        Quota {
            per_minute: 0,
            per_day: 0,
        },
    ];
    // A deterministic walk: three callers, time moving 0..15 s a step, across minute and day
    // boundaries (the day quota runs out, bans start and end).
    let mut seed: u64 = 0x5eed;
    let mut t = T0 - 200;
    let (mut allowed, mut refused, mut banned) = (0, 0, 0);
    for step in 0..3000 {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let r = seed >> 33;
        t += r % 16;
        if step == 1500 {
            t += 86_400; // a new day
        }
        let who = (r >> 8) % 3;
        let key = format!("caller{who}");
        let quota = quotas[(who as usize).min(if r.is_multiple_of(97) { 2 } else { 1 })];
        let want = local.check_now(&key, quota, at(t));
        let got = shared.check(&key, quota, at(t)).await;
        assert_eq!(
            got,
            want,
            "step {step}, t = T0{:+}, {key}",
            t as i64 - T0 as i64
        );
        match (want.allowed, want.banned) {
            (true, _) => allowed += 1,
            (false, false) => refused += 1,
            (false, true) => banned += 1,
        }
    }
    // The walk really went through every kind of decision.
    assert!(
        allowed > 200 && refused > 200 && banned > 200,
        "{allowed} {refused} {banned}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn exact_under_concurrency_and_keys_expire() {
    let Some(redis) = RedisServer::start_or_skip("exact_under_concurrency_and_keys_expire") else {
        return;
    };
    let opts = options(WhenUnavailable::Refuse);
    let prefix = opts.key_prefix.clone();
    let store = RedisStore::open(&redis.url(), opts).unwrap();
    let limiter: Arc<dyn RateLimiter> = Arc::new(RedisRateLimiter::new(store, 0, Duration::ZERO));
    let quota = Quota {
        per_minute: 500,
        per_day: 100_000,
    };
    let now = SystemTime::now();
    let tasks: Vec<_> = (0..8)
        .map(|_| {
            let limiter = limiter.clone();
            tokio::spawn(async move {
                let mut n = 0;
                for _ in 0..100 {
                    if limiter.check("key", quota, now).await.allowed {
                        n += 1;
                    }
                }
                n
            })
        })
        .collect();
    let mut total = 0;
    for t in tasks {
        total += t.await.unwrap();
    }
    assert_eq!(total, 500);
    // Every key the limiter wrote carries a TTL (-1 would mean "forever").
    let keys = redis.command(&format!("KEYS {prefix}*"));
    let names: Vec<&str> = keys
        .lines()
        .filter(|l| l.starts_with(prefix.as_str()))
        .collect();
    assert_eq!(
        names.len(),
        3,
        "the minute and day counters, the strikes: {keys:?}"
    );
    for name in names {
        let ttl = redis.command(&format!("TTL {name}"));
        let ttl: i64 = ttl.trim().trim_start_matches(':').parse().unwrap();
        assert!(ttl > 0 && ttl <= 86_400 + 60, "{name}: {ttl}");
    }
}

fn policy() -> RateLimitPolicy {
    let mut plans = BTreeMap::new();
    plans.insert(
        "free".to_owned(),
        Quota {
            per_minute: 1000,
            per_day: 100_000,
        },
    );
    RateLimitPolicy {
        plans,
        anonymous_plan: "free".into(),
        default_plan: "free".into(),
        ban_strikes: 0,
        ban: Duration::ZERO,
    }
}

/// Sends until `done(status)` holds, for at most 60 s.
async fn until(base: &str, done: impl Fn(u16) -> bool) -> common::Reply {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let r = send(
            client()
                .get(format!("{base}/v1/pets"))
                .bearer_auth(GOOD_KEY),
        )
        .await;
        if done(r.status) || Instant::now() > deadline {
            return r;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn redis_stopped_mid_run_refuse_then_recover() {
    let Some(mut redis) = RedisServer::start_or_skip("redis_stopped_mid_run_refuse_then_recover")
    else {
        return;
    };
    let mut opts = options(WhenUnavailable::Refuse);
    opts.timeout = Duration::from_millis(500);
    let store = RedisStore::open(&redis.url(), opts).unwrap();
    let limiter = RedisRateLimiter::for_policy(store, &policy());
    let srv = serve_petstore(config().rate_limit(limiter, policy())).await;

    let r = send(
        client()
            .get(format!("{}/v1/pets", srv.base))
            .bearer_auth(GOOD_KEY),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("x-ratelimit-remaining"), Some("999"));

    redis.stop();
    let r = until(&srv.base, |s| s != 200).await;
    assert_eq!(r.status, 503, "{}", r.body);
    assert_eq!(
        r.problem(),
        (
            "rate_limit_unavailable".into(),
            "the rate limit cannot be checked right now; retry shortly".into()
        )
    );
    assert_eq!(r.header("retry-after"), Some("1"));
    assert_eq!(r.header("x-ratelimit-limit"), None);

    // Back (empty: nothing was persisted): the same store reconnects by itself.
    redis.restart();
    let r = until(&srv.base, |s| s == 200).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("x-ratelimit-remaining"), Some("999"));
}

#[tokio::test]
async fn redis_stopped_mid_run_allow_then_recover() {
    let Some(mut redis) = RedisServer::start_or_skip("redis_stopped_mid_run_allow_then_recover")
    else {
        return;
    };
    let mut opts = options(WhenUnavailable::Allow);
    opts.timeout = Duration::from_millis(500);
    let store = RedisStore::open(&redis.url(), opts).unwrap();
    let limiter = RedisRateLimiter::for_policy(store, &policy());
    let srv = serve_petstore(config().rate_limit(limiter, policy())).await;

    let r = send(
        client()
            .get(format!("{}/v1/pets", srv.base))
            .bearer_auth(GOOD_KEY),
    )
    .await;
    assert_eq!(r.header("x-ratelimit-remaining"), Some("999"));

    redis.stop();
    // Served, but without a limit: no rate-limit headers while Redis is away.
    for _ in 0..3 {
        let r = send(
            client()
                .get(format!("{}/v1/pets", srv.base))
                .bearer_auth(GOOD_KEY),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.header("x-ratelimit-limit"), None);
    }

    redis.restart();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let r = send(
            client()
                .get(format!("{}/v1/pets", srv.base))
                .bearer_auth(GOOD_KEY),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.body);
        if r.header("x-ratelimit-remaining") == Some("999") {
            break;
        }
        assert!(Instant::now() < deadline, "the limiter never came back");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn unreachable_from_the_start_is_not_a_startup_error() {
    // Nothing listens on this port (bound then released).
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut opts = options(WhenUnavailable::Refuse);
    opts.timeout = Duration::from_millis(300);
    let store = RedisStore::open(&format!("redis://127.0.0.1:{port}/"), opts).unwrap();
    let limiter = RedisRateLimiter::new(store, 0, Duration::ZERO);
    let d = limiter
        .check(
            "k",
            Quota {
                per_minute: 1,
                per_day: 1,
            },
            SystemTime::now(),
        )
        .await;
    assert!(d.unavailable && !d.allowed, "{d:?}");
    assert!(RedisStore::open("not a url", RedisOptions::default()).is_err());
}
