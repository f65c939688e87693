//! Authentication over real HTTP: every operation needs the bearer key; 401s carry the
//! `Error` body and the right `WWW-Authenticate`; the scheme word is case-insensitive; no key
//! is ever echoed; the check happens before the body is read.

mod common;

use common::{ENTERPRISE_KEY, FREE_KEY, client, post_pet, send, start};

#[tokio::test]
async fn every_operation_needs_a_key() {
    let srv = start().await;
    let c = client();
    let base = srv.base_url();
    let requests = [
        c.get(format!("{base}/pets")),
        c.post(format!("{base}/pets"))
            .header("content-type", "application/json")
            .body(r#"{"name":"Rex","categoryId":1}"#),
        c.get(format!("{base}/pets/1")),
        c.get(format!("{base}/store/orders")),
    ];
    for rb in requests {
        let r = send(rb).await;
        assert_eq!(r.status, 401, "{}", r.body);
        assert_eq!(
            r.problem(),
            ("unauthorized".into(), "authentication is required".into())
        );
        // No credential sent: a bare challenge, no error attribute (RFC 6750 §3).
        assert_eq!(r.header("www-authenticate"), Some(r#"Bearer realm="api""#));
        r.rate_limit();
    }
}

#[tokio::test]
async fn a_wrong_key_is_401_invalid_token_and_never_echoed() {
    let srv = start().await;
    let c = client();
    let base = srv.base_url();
    let wrong = "wrong-key-SHOULD-NOT-ECHO-42";
    let requests = [
        c.get(format!("{base}/pets?limit=5")).bearer_auth(wrong),
        post_pet(&c, &srv, wrong, r#"{"name":"Rex","categoryId":1}"#),
        c.get(format!("{base}/pets/1")).bearer_auth(wrong),
        c.get(format!("{base}/store/orders")).bearer_auth(wrong),
        // a valid key in the wrong scheme is not a bearer token
        c.get(format!("{base}/pets"))
            .header("authorization", format!("Basic {ENTERPRISE_KEY}")),
        // a key sent without a scheme word
        c.get(format!("{base}/pets"))
            .header("authorization", ENTERPRISE_KEY),
    ];
    for (i, rb) in requests.into_iter().enumerate() {
        let r = send(rb).await;
        assert_eq!(r.status, 401, "#{i}: {}", r.body);
        let (code, message) = r.problem();
        assert_eq!(code, "unauthorized");
        let challenge = r.header("www-authenticate").unwrap();
        if i < 4 {
            assert_eq!(message, "the credentials are not valid", "#{i}");
            assert_eq!(challenge, r#"Bearer realm="api", error="invalid_token""#);
        } else {
            // no bearer credential was presented
            assert_eq!(message, "authentication is required", "#{i}");
            assert_eq!(challenge, r#"Bearer realm="api""#);
        }
        let all = r.everything();
        assert!(!all.contains(wrong), "#{i} echoes the key: {all}");
        assert!(!all.contains(ENTERPRISE_KEY), "#{i} echoes the key: {all}");
    }

    // An empty token is presented but not valid.
    let r = send(
        c.get(format!("{base}/pets"))
            .header("authorization", "Bearer "),
    )
    .await;
    assert_eq!(r.status, 401);
    assert_eq!(
        r.header("www-authenticate"),
        Some(r#"Bearer realm="api", error="invalid_token""#)
    );
}

#[tokio::test]
async fn the_scheme_word_is_case_insensitive() {
    let srv = start().await;
    let c = client();
    for scheme in ["Bearer", "bearer", "BEARER", "bEaReR"] {
        let r = send(
            c.get(format!("{}/pets", srv.base_url()))
                .header("authorization", format!("{scheme} {ENTERPRISE_KEY}")),
        )
        .await;
        assert_eq!(r.status, 200, "{scheme}: {}", r.body);
        assert_eq!(r.json(), serde_json::json!([]));
    }
    // The key itself is compared exactly.
    let r = send(
        c.get(format!("{}/pets", srv.base_url()))
            .bearer_auth(ENTERPRISE_KEY.to_uppercase()),
    )
    .await;
    assert_eq!(r.status, 401);
}

#[tokio::test]
async fn successful_answers_never_echo_the_key() {
    let srv = start().await;
    let c = client();
    let created = send(post_pet(
        &c,
        &srv,
        FREE_KEY,
        r#"{"name":"Rex","categoryId":1}"#,
    ))
    .await;
    assert_eq!(created.status, 201);
    let listed = send(
        c.get(format!("{}/pets", srv.base_url()))
            .bearer_auth(FREE_KEY),
    )
    .await;
    let got = send(
        c.get(format!("{}/pets/1", srv.base_url()))
            .bearer_auth(FREE_KEY),
    )
    .await;
    for r in [created, listed, got] {
        assert!(!r.everything().contains(FREE_KEY), "{}", r.everything());
    }
}

#[tokio::test]
async fn authentication_comes_before_the_body_and_parameters() {
    let srv = start().await;
    let c = client();
    let base = srv.base_url();
    let requests = [
        // malformed JSON, wrong content type, oversized: all 401 without a key
        c.post(format!("{base}/pets"))
            .header("content-type", "application/json")
            .body("{not json"),
        c.post(format!("{base}/pets"))
            .header("content-type", "text/plain")
            .body("hello"),
        c.post(format!("{base}/pets"))
            .header("content-type", "application/json")
            .body(vec![b' '; 2 * 1024 * 1024]),
        c.get(format!("{base}/pets?limit=0")),
        c.get(format!("{base}/pets/abc")),
    ];
    for rb in requests {
        let r = send(rb).await;
        assert_eq!(r.status, 401, "{}", r.body);
        assert_eq!(r.problem().0, "unauthorized");
    }
}
