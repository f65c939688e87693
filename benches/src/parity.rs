//! Checks that the hand-written baseline does the work the generated server does: the same
//! status and error code, in process, for the benchmarked requests and for the refusals the
//! spec asks for (a missing, wrong or repeated credential, a head over the size limits, a bad
//! parameter, a body of the wrong type). A baseline that skipped one of them would be cheaper
//! for doing less, and the comparison would flatter it.

use std::net::SocketAddr;

use axum::body::Body;
use axum::extract::ConnectInfo;
use http::{Method, Request, StatusCode, header};
use tower_service::Service;

use crate::serve::{self, KEY, Kind};

/// Status, `code` of the error body (None for a success) and whether `WWW-Authenticate` and
/// `Retry-After` were sent.
type Answer = (StatusCode, Option<String>, bool, bool);

/// Builds one request of a case (called once per server).
type MakeRequest = fn() -> Request<Body>;

async fn answer(kind: Kind, rate_limit: bool, req: MakeRequest) -> Answer {
    let mut router = serve::app(kind, rate_limit);
    let mut req = req();
    req.extensions_mut()
        .insert(ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 40000))));
    let resp = router.call(req).await.expect("infallible");
    let status = resp.status();
    let www = resp.headers().contains_key(header::WWW_AUTHENTICATE);
    let retry = resp.headers().contains_key(header::RETRY_AFTER);
    let body = axum::body::to_bytes(resp.into_body(), usize::MAX)
        .await
        .expect("a body");
    let code = if status.is_success() {
        None
    } else {
        let value: serde_json::Value = serde_json::from_slice(&body).expect("an Error body");
        value["code"].as_str().map(str::to_owned)
    };
    (status, code, www, retry)
}

fn builder(method: Method, uri: &str) -> http::request::Builder {
    Request::builder()
        .method(method)
        .uri(uri)
        .header(header::HOST, "127.0.0.1")
        .header(header::AUTHORIZATION, format!("Bearer {KEY}"))
}

fn cases() -> Vec<(&'static str, MakeRequest)> {
    vec![
        ("list", || {
            builder(Method::GET, "/v1/pets?limit=20")
                .body(Body::empty())
                .unwrap()
        }),
        ("create", || {
            builder(Method::POST, "/v1/pets")
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(r#"{"name":"Rex","categoryId":7}"#))
                .unwrap()
        }),
        ("get", || {
            builder(Method::GET, "/v1/pets/3")
                .body(Body::empty())
                .unwrap()
        }),
        ("no credential", || {
            Request::get("/v1/pets").body(Body::empty()).unwrap()
        }),
        ("wrong key", || {
            Request::get("/v1/pets")
                .header(header::AUTHORIZATION, "Bearer nope")
                .body(Body::empty())
                .unwrap()
        }),
        ("repeated Authorization", || {
            builder(Method::GET, "/v1/pets")
                .header(header::AUTHORIZATION, format!("Bearer {KEY}"))
                .body(Body::empty())
                .unwrap()
        }),
        ("headers over 32 KiB", || {
            builder(Method::GET, "/v1/pets")
                .header("x-padding", "x".repeat(40 * 1024))
                .body(Body::empty())
                .unwrap()
        }),
        ("request target over 8 KiB", || {
            builder(Method::GET, &format!("/v1/pets?q={}", "x".repeat(9 * 1024)))
                .body(Body::empty())
                .unwrap()
        }),
        ("limit out of range", || {
            builder(Method::GET, "/v1/pets?limit=0")
                .body(Body::empty())
                .unwrap()
        }),
        ("body not JSON", || {
            builder(Method::POST, "/v1/pets")
                .header(header::CONTENT_TYPE, "text/plain")
                .body(Body::from("Rex"))
                .unwrap()
        }),
        ("unknown pet", || {
            builder(Method::GET, "/v1/pets/999999")
                .body(Body::empty())
                .unwrap()
        }),
    ]
}

#[tokio::test]
async fn the_baseline_answers_every_case_as_the_generated_server_does() {
    for rate_limit in [false, true] {
        for (name, req) in cases() {
            let generated = answer(Kind::Generated, rate_limit, req).await;
            let handwritten = answer(Kind::Handwritten, rate_limit, req).await;
            assert_eq!(
                generated, handwritten,
                "{name} (limiter {rate_limit}): generated vs hand-written"
            );
        }
    }
}
