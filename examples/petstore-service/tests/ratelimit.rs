//! Rate limits over real HTTP, with the spec's policy and the limiter's clock set by the test
//! (no sleeps): a Free key's minute quota, the 429 that follows, the ban after 20 refusals in
//! one window and its end, callers without a key limited by address.

mod common;

use common::{
    Clock, ENTERPRISE_KEY, FREE_KEY, PRO_KEY, T0, client, post_pet, send, spec_policy,
    start_clocked,
};

#[tokio::test]
async fn a_free_key_gets_60_a_minute_then_429_then_a_ban_that_ends() {
    let clock = Clock::at(T0 + 10);
    let srv = start_clocked(spec_policy(), &clock).await;
    let c = client();
    let base = srv.base_url();
    let minute_end = T0 + 60;

    // 60 requests of every kind pass, each counted, each with the headers.
    for i in 1..=60u64 {
        let r = match i % 4 {
            0 => send(c.get(format!("{base}/pets")).bearer_auth(FREE_KEY)).await,
            1 => {
                send(post_pet(
                    &c,
                    &srv,
                    FREE_KEY,
                    r#"{"name":"Rex","categoryId":1}"#,
                ))
                .await
            }
            2 => send(c.get(format!("{base}/pets/1")).bearer_auth(FREE_KEY)).await,
            _ => send(c.get(format!("{base}/pets?limit=0")).bearer_auth(FREE_KEY)).await,
        };
        assert!(
            r.status < 500 && r.status != 429,
            "#{i}: {} {}",
            r.status,
            r.body
        );
        assert_eq!(r.rate_limit(), (60, 60 - i, minute_end), "#{i}");
    }

    // The 61st: 429 with the Error body, Retry-After to the minute's end, and the headers.
    let r = send(c.get(format!("{base}/pets")).bearer_auth(FREE_KEY)).await;
    assert_eq!(r.status, 429, "{}", r.body);
    assert_eq!(
        r.problem(),
        (
            "rate_limited".into(),
            "rate limit exceeded; retry after 50 seconds".into()
        )
    );
    assert_eq!(r.header("retry-after"), Some("50"));
    assert_eq!(r.rate_limit(), (60, 0, minute_end));

    // Other keys have their own buckets.
    let r = send(c.get(format!("{base}/pets")).bearer_auth(PRO_KEY)).await;
    assert_eq!((r.status, r.rate_limit()), (200, (300, 299, minute_end)));
    let r = send(c.get(format!("{base}/pets")).bearer_auth(ENTERPRISE_KEY)).await;
    assert_eq!(
        (r.status, r.rate_limit()),
        (200, (10_000, 9_999, minute_end))
    );

    // 19 more refusals (20 in all), of any kind, still `rate_limited`...
    clock.advance(5);
    for i in 2..=20 {
        let rb = match i % 3 {
            0 => c.get(format!("{base}/nowhere")).bearer_auth(FREE_KEY),
            1 => post_pet(&c, &srv, FREE_KEY, "{broken"),
            _ => c.get(format!("{base}/pets/1")).bearer_auth(FREE_KEY),
        };
        let r = send(rb).await;
        assert_eq!(r.status, 429, "refusal {i}: {}", r.body);
        assert_eq!(r.problem().0, "rate_limited", "refusal {i}");
        assert_eq!(r.header("retry-after"), Some("45"), "refusal {i}");
    }
    // ... and the next one bans the key for 15 minutes.
    let banned_at = clock.now();
    let r = send(c.get(format!("{base}/pets")).bearer_auth(FREE_KEY)).await;
    assert_eq!(r.status, 429);
    let (code, message) = r.problem();
    assert_eq!(code, "banned");
    assert!(message.contains("retry after 900 seconds"), "{message}");
    assert_eq!(r.header("retry-after"), Some("900"));
    assert_eq!(r.rate_limit(), (60, 0, banned_at + 900));

    // A new minute does not lift the ban; Retry-After counts down to its end.
    clock.advance(60);
    let r = send(c.get(format!("{base}/store/orders")).bearer_auth(FREE_KEY)).await;
    assert_eq!(r.status, 429);
    assert_eq!(r.problem().0, "banned");
    assert_eq!(r.header("retry-after"), Some("840"));
    clock.advance(839);
    let r = send(c.get(format!("{base}/pets")).bearer_auth(FREE_KEY)).await;
    assert_eq!((r.status, r.header("retry-after")), (429, Some("1")));
    // Other keys were never affected.
    let r = send(c.get(format!("{base}/pets")).bearer_auth(PRO_KEY)).await;
    assert_eq!(r.status, 200);

    // At the ban's end the key works again, in a fresh window.
    clock.advance(1);
    assert_eq!(clock.now(), banned_at + 900);
    let r = send(c.get(format!("{base}/pets")).bearer_auth(FREE_KEY)).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let now = clock.now();
    assert_eq!(r.rate_limit(), (60, 59, now - now % 60 + 60));
    assert!(r.header("retry-after").is_none());
}

#[tokio::test]
async fn fewer_than_20_refusals_in_a_window_do_not_ban() {
    let clock = Clock::at(T0 + 30);
    let srv = start_clocked(spec_policy(), &clock).await;
    let c = client();
    let url = format!("{}/store/orders", srv.base_url());
    for _ in 0..60 {
        assert_eq!(send(c.get(&url).bearer_auth(FREE_KEY)).await.status, 200);
    }
    for _ in 0..20 {
        let r = send(c.get(&url).bearer_auth(FREE_KEY)).await;
        assert_eq!((r.status, r.problem().0.as_str()), (429, "rate_limited"));
    }
    // The window resets before the 21st refusal: no ban, and the strikes start over.
    clock.advance(30);
    for _ in 0..60 {
        assert_eq!(send(c.get(&url).bearer_auth(FREE_KEY)).await.status, 200);
    }
    for _ in 0..20 {
        let r = send(c.get(&url).bearer_auth(FREE_KEY)).await;
        assert_eq!(r.problem().0, "rate_limited");
    }
}

#[tokio::test]
async fn callers_without_a_valid_key_are_limited_by_address_on_free() {
    let clock = Clock::at(T0 + 1);
    let srv = start_clocked(spec_policy(), &clock).await;
    let c = client();
    let url = format!("{}/pets", srv.base_url());
    for i in 1..=60u64 {
        // missing and wrong keys share the address's bucket
        let rb = if i % 2 == 0 {
            c.get(&url)
        } else {
            c.get(&url).bearer_auth(format!("guess-{i}"))
        };
        let r = send(rb).await;
        assert_eq!(r.status, 401);
        assert_eq!(r.rate_limit(), (60, 60 - i, T0 + 60));
    }
    let r = send(c.get(&url).bearer_auth("guess-61")).await;
    assert_eq!(r.status, 429);
    assert_eq!(r.problem().0, "rate_limited");
    assert_eq!(r.header("retry-after"), Some("59"));
    // A valid key from the same address is counted apart.
    let r = send(c.get(&url).bearer_auth(FREE_KEY)).await;
    assert_eq!((r.status, r.rate_limit()), (200, (60, 59, T0 + 60)));
}
