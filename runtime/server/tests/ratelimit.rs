//! Rate limiting: the in-memory limiter's exactness under concurrency, window selection,
//! refusals, bans and their end, expiry (time injected, no sleeps), then the layer's headers
//! and 429s over real HTTP on 401/404/405 responses too.

mod common;

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use apigen_server_runtime::ratelimit::{
    Decision, InMemoryRateLimiter, Quota, RateLimitPolicy, RateLimiter,
};
use common::{GOOD_KEY, PRO_KEY, client, config, send, serve_petstore};

/// 2030-01-01T00:00:00Z, a day and minute boundary.
const T0: u64 = 1_893_456_000;

fn at(secs: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(secs)
}

fn at_ms(ms: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(ms)
}

const Q: Quota = Quota {
    per_minute: 10,
    per_day: 12,
};

#[test]
fn exact_under_concurrency_threads() {
    let limiter = Arc::new(InMemoryRateLimiter::new(0, Duration::ZERO));
    let quota = Quota {
        per_minute: 500,
        per_day: 100_000,
    };
    let allowed = Arc::new(AtomicU32::new(0));
    let threads: Vec<_> = (0..8)
        .map(|_| {
            let limiter = limiter.clone();
            let allowed = allowed.clone();
            std::thread::spawn(move || {
                for _ in 0..100 {
                    if limiter.check_now("k", quota, at(T0 + 5)).allowed {
                        allowed.fetch_add(1, Ordering::SeqCst);
                    }
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    assert_eq!(allowed.load(Ordering::SeqCst), 500);
    // The next one is refused and the count did not move past the quota.
    let d = limiter.check_now("k", quota, at(T0 + 5));
    assert!(!d.allowed);
    assert_eq!((d.limit, d.remaining), (500, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn exact_under_concurrency_tasks() {
    let limiter: Arc<dyn RateLimiter> = Arc::new(InMemoryRateLimiter::new(0, Duration::ZERO));
    let quota = Quota {
        per_minute: 500,
        per_day: 100_000,
    };
    let tasks: Vec<_> = (0..8)
        .map(|_| {
            let limiter = limiter.clone();
            tokio::spawn(async move {
                let mut n = 0;
                for _ in 0..100 {
                    if limiter.check("key", quota, at(T0)).await.allowed {
                        n += 1;
                    }
                    tokio::task::yield_now().await;
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
}

#[test]
fn headers_report_the_window_with_fewer_remaining() {
    let l = InMemoryRateLimiter::new(0, Duration::ZERO);
    // minute: 9 left of 10, day: 11 left of 12 → the minute
    let d = l.check_now("k", Q, at(T0 + 1));
    assert_eq!(
        d,
        Decision {
            allowed: true,
            limit: 10,
            remaining: 9,
            reset_unix: T0 + 60,
            retry_after_secs: None,
            banned: false,
            unavailable: false,
        }
    );
    for _ in 0..9 {
        assert!(l.check_now("k", Q, at(T0 + 2)).allowed);
    }
    // minute exhausted: refused until the minute ends; refusals do not consume quota
    let d = l.check_now("k", Q, at_ms((T0 + 50) * 1000 + 500));
    assert!(!d.allowed);
    assert_eq!((d.limit, d.remaining, d.reset_unix), (10, 0, T0 + 60));
    assert_eq!(d.retry_after_secs, Some(10));
    let d = l.check_now("k", Q, at_ms((T0 + 59) * 1000 + 999));
    assert_eq!(d.retry_after_secs, Some(1), "never 0");

    // next minute: minute 9 left, day 1 left → the day
    let d = l.check_now("k", Q, at(T0 + 61));
    assert!(d.allowed);
    assert_eq!((d.limit, d.remaining, d.reset_unix), (12, 1, T0 + 86_400));
    assert!(l.check_now("k", Q, at(T0 + 62)).allowed);
    // day exhausted: refused with the day's reset even though the minute has room
    let d = l.check_now("k", Q, at(T0 + 63));
    assert!(!d.allowed);
    assert_eq!((d.limit, d.reset_unix), (12, T0 + 86_400));
    assert_eq!(d.retry_after_secs, Some(86_400 - 63));
    // the next day everything is fresh again
    let d = l.check_now("k", Q, at(T0 + 86_400));
    assert!(d.allowed);
    assert_eq!((d.limit, d.remaining), (10, 9));
    // other keys are independent
    assert_eq!(l.check_now("other", Q, at(T0 + 63)).remaining, 9);
}

#[test]
fn zero_quota_refuses_everything() {
    let l = InMemoryRateLimiter::new(0, Duration::ZERO);
    let q = Quota {
        per_minute: 0,
        per_day: 0,
    };
    let d = l.check_now("k", q, at(T0 + 30));
    assert!(!d.allowed);
    assert_eq!(d.retry_after_secs, Some(86_400 - 30));
}

#[test]
fn ban_after_strikes_and_its_end() {
    let q = Quota {
        per_minute: 2,
        per_day: 1000,
    };
    let l = InMemoryRateLimiter::new(3, Duration::from_secs(600));
    let t = T0 + 10;
    assert!(l.check_now("k", q, at(t)).allowed);
    assert!(l.check_now("k", q, at(t)).allowed);
    // the first refusal, then 3 more: the third of those is banned
    for i in 0..3 {
        let d = l.check_now("k", q, at(t + i));
        assert!(!d.allowed && !d.banned, "refusal {i}: {d:?}");
        assert_eq!(d.retry_after_secs, Some(50 - i));
    }
    let d = l.check_now("k", q, at(t + 3));
    assert!(d.banned && !d.allowed, "{d:?}");
    assert_eq!(d.retry_after_secs, Some(600));
    assert_eq!(d.reset_unix, t + 3 + 600);
    // banned even in a fresh minute; retry_after counts down to the ban's end
    let d = l.check_now("k", q, at(t + 103));
    assert!(d.banned);
    assert_eq!(d.retry_after_secs, Some(500));
    let d = l.check_now("k", q, at(t + 602));
    assert!(d.banned);
    assert_eq!(d.retry_after_secs, Some(1));
    // the ban is over: allowed again (a new minute), with a clean strike count
    let end = t + 603;
    assert!(l.check_now("k", q, at(end)).allowed);
    assert!(l.check_now("k", q, at(end)).allowed);
    for _ in 0..3 {
        assert!(!l.check_now("k", q, at(end)).banned);
    }
    assert!(l.check_now("k", q, at(end)).banned);
}

#[test]
fn strikes_do_not_carry_across_windows() {
    let q = Quota {
        per_minute: 1,
        per_day: 1000,
    };
    let l = InMemoryRateLimiter::new(2, Duration::from_secs(60));
    assert!(l.check_now("k", q, at(T0)).allowed);
    assert!(!l.check_now("k", q, at(T0 + 1)).banned); // first refusal
    assert!(!l.check_now("k", q, at(T0 + 2)).banned); // strike 1
    // new minute: allowed, then refused again: the count starts over
    assert!(l.check_now("k", q, at(T0 + 60)).allowed);
    assert!(!l.check_now("k", q, at(T0 + 61)).banned);
    assert!(!l.check_now("k", q, at(T0 + 62)).banned);
    assert!(l.check_now("k", q, at(T0 + 63)).banned);
}

#[test]
fn bans_can_be_disabled() {
    let q = Quota {
        per_minute: 1,
        per_day: 1000,
    };
    for l in [
        InMemoryRateLimiter::new(0, Duration::from_secs(60)),
        InMemoryRateLimiter::new(2, Duration::ZERO),
    ] {
        assert!(l.check_now("k", q, at(T0)).allowed);
        for _ in 0..50 {
            let d = l.check_now("k", q, at(T0 + 1));
            assert!(!d.allowed && !d.banned);
        }
    }
}

#[test]
fn old_entries_are_expired() {
    let l = InMemoryRateLimiter::new(1, Duration::from_secs(3 * 86_400));
    let q = Quota {
        per_minute: 1,
        per_day: 10,
    };
    for i in 0..1000 {
        l.check_now(&format!("k{i}"), q, at(T0 + 5));
    }
    // one key gets banned for three days
    l.check_now("bad", q, at(T0 + 5));
    l.check_now("bad", q, at(T0 + 5));
    assert!(l.check_now("bad", q, at(T0 + 5)).banned);
    assert_eq!(l.tracked_keys(), 1001);
    // still the same day: nothing may be forgotten (the day counts matter)
    l.check_now("x", q, at(T0 + 3600));
    assert_eq!(l.tracked_keys(), 1002);
    // the next day: yesterday's keys go, the ban stays
    l.check_now("y", q, at(T0 + 86_400 + 60));
    assert_eq!(l.tracked_keys(), 2, "the banned key and y");
    assert!(l.check_now("bad", q, at(T0 + 86_400 + 60)).banned);
}

#[test]
fn policy_quota_fallbacks() {
    let mut plans = BTreeMap::new();
    plans.insert(
        "free".to_owned(),
        Quota {
            per_minute: 60,
            per_day: 1000,
        },
    );
    plans.insert(
        "pro".to_owned(),
        Quota {
            per_minute: 300,
            per_day: 10_000,
        },
    );
    let p = RateLimitPolicy {
        plans,
        anonymous_plan: "anon".into(),
        default_plan: "free".into(),
        ban_strikes: 5,
        ban: Duration::from_secs(60),
    };
    assert_eq!(p.quota(Some("pro")).unwrap().per_minute, 300);
    assert_eq!(p.quota(None).unwrap().per_minute, 60);
    assert_eq!(p.quota(Some("enterprise")).unwrap().per_minute, 60);
    assert_eq!(
        p.anonymous_quota().unwrap().per_minute,
        60,
        "unknown → default"
    );
    let mut p2 = p.clone();
    p2.default_plan = "missing".into();
    assert_eq!(p2.quota(None), None);
}

// ---- over HTTP ------------------------------------------------------------------------------

/// The in-memory limiter with the clock pinned, so a test never straddles a minute.
struct PinnedClock(InMemoryRateLimiter, SystemTime);

impl RateLimiter for PinnedClock {
    fn check<'a>(
        &'a self,
        key: &'a str,
        quota: Quota,
        _now: SystemTime,
    ) -> Pin<Box<dyn Future<Output = Decision> + Send + 'a>> {
        self.0.check(key, quota, self.1)
    }
}

fn http_policy() -> RateLimitPolicy {
    let mut plans = BTreeMap::new();
    plans.insert(
        "anon".to_owned(),
        Quota {
            per_minute: 4,
            per_day: 100,
        },
    );
    plans.insert(
        "free".to_owned(),
        Quota {
            per_minute: 6,
            per_day: 100,
        },
    );
    plans.insert(
        "pro".to_owned(),
        Quota {
            per_minute: 50,
            per_day: 40,
        },
    );
    RateLimitPolicy {
        plans,
        anonymous_plan: "anon".into(),
        default_plan: "free".into(),
        ban_strikes: 2,
        ban: Duration::from_secs(900),
    }
}

#[tokio::test]
async fn every_response_carries_rate_limit_headers_and_429_follows() {
    let now = T0 + 30;
    let limiter = PinnedClock(InMemoryRateLimiter::for_policy(&http_policy()), at(now));
    let srv = serve_petstore(config().rate_limit(limiter, http_policy())).await;
    let c = client();
    let base = &srv.base;

    // anonymous (by address), 4 a minute: 404, 405, 401, then 200 on an open operation
    let r404 = send(c.get(format!("{base}/v1/nope"))).await;
    let r405 = send(c.delete(format!("{base}/v1/pets"))).await;
    let r401 = send(c.get(format!("{base}/v1/pets")).bearer_auth("wrong")).await;
    let r200 = send(c.get(format!("{base}/v1/whoami"))).await;
    for (r, status, remaining) in [
        (&r404, 404, "3"),
        (&r405, 405, "2"),
        (&r401, 401, "1"),
        (&r200, 200, "0"),
    ] {
        assert_eq!(r.status, status, "{}", r.body);
        assert_eq!(r.header("x-ratelimit-limit"), Some("4"), "{status}");
        assert_eq!(
            r.header("x-ratelimit-remaining"),
            Some(remaining),
            "{status}"
        );
        let reset = (T0 + 60).to_string();
        assert_eq!(
            r.header("x-ratelimit-reset"),
            Some(reset.as_str()),
            "{status}"
        );
    }

    // the fifth: 429 problem with Retry-After (seconds to the minute's end)
    let r = send(c.get(format!("{base}/v1/nope"))).await;
    assert_eq!(r.status, 429);
    assert_eq!(
        r.problem(),
        (
            "rate_limited".into(),
            "rate limit exceeded; retry after 30 seconds".into()
        )
    );
    assert_eq!(r.header("retry-after"), Some("30"));
    assert_eq!(r.header("x-ratelimit-remaining"), Some("0"));
    assert_eq!(r.header("x-ratelimit-limit"), Some("4"));

    // a valid key has its own bucket and its plan's quota (default plan: free, 6)
    let r = send(c.get(format!("{base}/v1/pets")).bearer_auth(GOOD_KEY)).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("x-ratelimit-limit"), Some("6"));
    assert_eq!(r.header("x-ratelimit-remaining"), Some("5"));
    // pro: 50 a minute but 40 a day → the day has fewer remaining
    let r = send(c.get(format!("{base}/v1/pets")).bearer_auth(PRO_KEY)).await;
    assert_eq!(r.header("x-ratelimit-limit"), Some("40"));
    assert_eq!(r.header("x-ratelimit-remaining"), Some("39"));
    let reset = (T0 + 86_400).to_string();
    assert_eq!(r.header("x-ratelimit-reset"), Some(reset.as_str()));

    // anonymous keeps going while refused: 2 more strikes → banned
    let r = send(c.get(format!("{base}/v1/nope"))).await;
    assert_eq!(r.problem().0, "rate_limited");
    let r = send(c.get(format!("{base}/v1/nope"))).await;
    assert_eq!(r.status, 429);
    assert_eq!(r.problem().0, "banned");
    assert_eq!(r.header("retry-after"), Some("900"));
    // the ban does not touch keyed callers
    let r = send(c.get(format!("{base}/v1/pets")).bearer_auth(GOOD_KEY)).await;
    assert_eq!(r.status, 200);
}

#[tokio::test]
async fn forwarded_for_only_when_trusted() {
    let now = T0 + 1;
    let policy = || {
        let mut p = http_policy();
        p.plans.get_mut("anon").unwrap().per_minute = 1;
        p
    };
    for trust in [false, true] {
        let limiter = PinnedClock(InMemoryRateLimiter::for_policy(&policy()), at(now));
        let srv = serve_petstore(
            config()
                .rate_limit(limiter, policy())
                .trust_forwarded_for(trust),
        )
        .await;
        let c = client();
        let get = |ip: &str| {
            c.get(format!("{}/v1/whoami", srv.base))
                .header("x-forwarded-for", format!("198.51.100.9, {ip}"))
        };
        assert_eq!(send(get("203.0.113.1")).await.status, 200);
        // a different forwarded address is a different key only when trusted
        let second = send(get("203.0.113.2")).await.status;
        assert_eq!(second, if trust { 200 } else { 429 }, "trust={trust}");
    }
}

#[tokio::test]
async fn no_headers_without_a_rate_limit() {
    let srv = serve_petstore(config()).await;
    let r = send(client().get(format!("{}/v1/nope", srv.base))).await;
    assert_eq!(r.status, 404);
    assert!(r.header("x-ratelimit-limit").is_none());
}

#[tokio::test]
async fn refused_requests_are_answered_by_their_route_without_reading_them() {
    let policy = || {
        let mut p = http_policy();
        p.plans.get_mut("anon").unwrap().per_minute = 1;
        p.ban_strikes = 0; // no ban: every refusal below is a plain 429
        p
    };
    let limiter = PinnedClock(InMemoryRateLimiter::for_policy(&policy()), at(T0 + 45));
    let srv = serve_petstore(config().rate_limit(limiter, policy())).await;
    let c = client();
    let base = &srv.base;
    assert_eq!(send(c.get(format!("{base}/v1/whoami"))).await.status, 200);

    // A deprecated operation's 429 carries the operation's headers, like its other answers.
    let r = send(c.get(format!("{base}/v1/pets/1"))).await;
    assert_eq!(r.status, 429, "{}", r.body);
    assert_eq!(r.problem().0, "rate_limited");
    assert_eq!(r.header("retry-after"), Some("15"));
    assert_eq!(r.header("deprecation"), Some("@1688169599"));
    assert_eq!(r.header("sunset"), Some("Thu, 05 Dec 2030 00:00:00 GMT"));
    assert_eq!(r.header("x-ratelimit-remaining"), Some("0"));
    assert_eq!(r.header("x-ratelimit-limit"), Some("1"));

    // Nothing of a refused request is read: no 400/415 for bad input, no 401, 404 or 405.
    let refused = [
        (c.get(format!("{base}/v1/pets/abc")), true),
        (c.get(format!("{base}/v1/pets?limit=0")), false),
        (
            c.post(format!("{base}/v1/pets"))
                .header("content-type", "text/plain")
                .body("{not json"),
            false,
        ),
        (c.get(format!("{base}/v1/pets")).bearer_auth("wrong"), false),
        (c.get(format!("{base}/v1/nope")), false),
        (c.delete(format!("{base}/v1/pets")), false),
    ];
    for (rb, deprecated) in refused {
        let r = send(rb).await;
        assert_eq!(r.status, 429, "{}", r.body);
        assert_eq!(r.problem().0, "rate_limited");
        assert_eq!(r.header("retry-after"), Some("15"));
        assert_eq!(r.header("x-ratelimit-remaining"), Some("0"));
        assert_eq!(
            r.header("deprecation").is_some(),
            deprecated,
            "{:?}",
            r.headers
        );
        // (axum adds `Allow` to whatever the 405 fallback answers; harmless on a 429)
        assert!(r.header("www-authenticate").is_none());
    }
}

#[tokio::test]
async fn a_route_that_ignores_the_refusal_still_answers_429() {
    use apigen_server_runtime::layer;
    let policy = || {
        let mut p = http_policy();
        p.plans.get_mut("anon").unwrap().per_minute = 1;
        p
    };
    let limiter = PinnedClock(InMemoryRateLimiter::for_policy(&policy()), at(T0 + 1));
    // hand-written, without `auth::authorize`
    let routes = axum::Router::new().route("/open", axum::routing::get(|| async { "open" }));
    let app = layer::finish(
        routes,
        common::SECURITY_SCHEMES,
        "/v1",
        &apigen_server_runtime::DocumentCors::EMPTY,
        config().rate_limit(limiter, policy()),
    );
    let srv = common::serve(app).await;
    let c = client();
    let r = send(c.get(format!("{}/v1/open", srv.base))).await;
    assert_eq!((r.status, r.body.as_str()), (200, "open"));
    let r = send(c.get(format!("{}/v1/open", srv.base))).await;
    assert_eq!(r.status, 429, "{}", r.body);
    assert_eq!(r.problem().0, "rate_limited");
    assert_eq!(r.header("retry-after"), Some("59"));
}

/// A limiter whose store did not answer: `allow` lets the request through with nothing to
/// report; refusing says when to come back (`Retry-After: 1`), and neither counts as a ban.
#[test]
fn an_unavailable_decision_says_when_to_retry_only_when_it_refuses() {
    let allowed = Decision::unavailable(true);
    assert!(allowed.allowed && allowed.unavailable && !allowed.banned);
    assert_eq!(allowed.retry_after_secs, None);

    let refused = Decision::unavailable(false);
    assert!(!refused.allowed && refused.unavailable && !refused.banned);
    assert_eq!(refused.retry_after_secs, Some(1));
}
