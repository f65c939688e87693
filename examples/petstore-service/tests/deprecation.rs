//! `getPet` is deprecated: every one of its answers, errors included, carries `Deprecation`,
//! `Sunset` and `Link`; the other operations' answers do not.

mod common;

use common::{
    Clock, ENTERPRISE_KEY, FREE_KEY, T0, client, post_pet, send, spec_policy, start, start_clocked,
};

fn assert_deprecated(r: &common::Reply, what: &str) {
    assert_eq!(r.header("deprecation"), Some("@1795305600"), "{what}");
    assert_eq!(
        r.header("sunset"),
        Some("Thu, 05 Dec 2030 00:00:00 GMT"),
        "{what}"
    );
    assert_eq!(
        r.header("link"),
        Some(r#"</v1/pets>; rel="successor-version""#),
        "{what}"
    );
}

#[tokio::test]
async fn every_get_pet_answer_is_marked_deprecated() {
    let srv = start().await;
    let c = client();
    let base = srv.base_url();
    assert_eq!(
        send(post_pet(
            &c,
            &srv,
            ENTERPRISE_KEY,
            r#"{"name":"Rex","categoryId":1}"#
        ))
        .await
        .status,
        201
    );
    let cases = [
        (
            200,
            "found",
            c.get(format!("{base}/pets/1")).bearer_auth(ENTERPRISE_KEY),
        ),
        (
            404,
            "not found",
            c.get(format!("{base}/pets/2")).bearer_auth(ENTERPRISE_KEY),
        ),
        (
            400,
            "bad id",
            c.get(format!("{base}/pets/abc"))
                .bearer_auth(ENTERPRISE_KEY),
        ),
        (
            400,
            "int64 overflow",
            c.get(format!("{base}/pets/9223372036854775808"))
                .bearer_auth(ENTERPRISE_KEY),
        ),
        (401, "no key", c.get(format!("{base}/pets/1"))),
        (
            401,
            "wrong key",
            c.get(format!("{base}/pets/1")).bearer_auth("wrong"),
        ),
        (
            200,
            "HEAD",
            c.head(format!("{base}/pets/1")).bearer_auth(ENTERPRISE_KEY),
        ),
    ];
    for (status, what, rb) in cases {
        let r = send(rb).await;
        assert_eq!(r.status, status, "{what}: {}", r.body);
        assert_deprecated(&r, what);
        r.rate_limit();
    }
    let r = send(c.get(format!("{base}/pets/2")).bearer_auth(ENTERPRISE_KEY)).await;
    assert_eq!(
        r.json(),
        serde_json::json!({"code": "not_found", "message": "no animal with id 2", "status": 404})
    );

    // The other operations are not deprecated.
    for rb in [
        c.get(format!("{base}/pets")).bearer_auth(ENTERPRISE_KEY),
        post_pet(&c, &srv, ENTERPRISE_KEY, r#"{"name":"Tom","categoryId":2}"#),
        c.get(format!("{base}/store/orders"))
            .bearer_auth(ENTERPRISE_KEY),
        c.get(format!("{base}/pets")),
    ] {
        let r = send(rb).await;
        assert!(r.header("deprecation").is_none(), "{}", r.body);
        assert!(r.header("sunset").is_none());
        assert!(r.header("link").is_none());
    }
}

#[tokio::test]
async fn get_pet_429s_are_marked_deprecated_too() {
    let clock = Clock::at(T0 + 20);
    let srv = start_clocked(spec_policy(), &clock).await;
    let c = client();
    let url = format!("{}/pets/1", srv.base_url());
    for _ in 0..60 {
        assert_eq!(send(c.get(&url).bearer_auth(FREE_KEY)).await.status, 404);
    }
    for i in 1..=21 {
        let r = send(c.get(&url).bearer_auth(FREE_KEY)).await;
        assert_eq!(r.status, 429, "{i}");
        let code = if i <= 20 { "rate_limited" } else { "banned" };
        assert_eq!(r.problem().0, code, "{i}");
        assert!(r.header("retry-after").is_some());
        assert_deprecated(&r, code);
    }
}
