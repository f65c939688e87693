//! Problems and the default renderer.

use apigen_server_runtime::problem::{Problem, render_default};
use apigen_server_runtime::validate::Violation;
use http::{HeaderValue, Method, StatusCode};

async fn render(p: &Problem) -> (StatusCode, http::HeaderMap, serde_json::Value) {
    let resp = render_default(p);
    let status = resp.status();
    let headers = resp.headers().clone();
    let bytes = axum::body::to_bytes(resp.into_body(), usize::MAX)
        .await
        .unwrap();
    (status, headers, serde_json::from_slice(&bytes).unwrap())
}

#[tokio::test]
async fn default_render_is_the_error_schema() {
    let (status, headers, body) = render(&Problem::not_found()).await;
    assert_eq!(status, 404);
    assert_eq!(headers["content-type"], "application/json");
    assert_eq!(
        body,
        serde_json::json!({"code": "not_found", "message": "the requested resource was not found", "status": 404})
    );
}

#[tokio::test]
async fn violations_are_listed_in_the_message_only() {
    let mut p = Problem::bad_request("ignored");
    p.violations = vec![
        Violation {
            pointer: "/a".into(),
            message: "bad".into(),
        },
        Violation {
            pointer: "".into(),
            message: "missing field `x`".into(),
        },
    ];
    let (status, _, body) = render(&p).await;
    assert_eq!(status, 400);
    assert_eq!(body["message"], "/a: bad; body: missing field `x`");
    assert_eq!(body.as_object().unwrap().len(), 3);
}

#[tokio::test]
async fn headers_travel_with_the_problem() {
    let p = Problem::method_not_allowed(&[Method::GET, Method::POST]);
    assert_eq!(
        p.message,
        "this method is not allowed on this path; allowed: GET, POST"
    );
    let (status, headers, body) = render(&p).await;
    assert_eq!(status, 405);
    assert_eq!(headers["allow"], "GET, POST");
    assert_eq!(body["code"], "method_not_allowed");

    let (status, headers, body) = render(&Problem::too_many_requests(17, false)).await;
    assert_eq!(status, 429);
    assert_eq!(headers["retry-after"], "17");
    assert_eq!(body["code"], "rate_limited");
    let (_, headers, body) = render(&Problem::too_many_requests(900, true)).await;
    assert_eq!(headers["retry-after"], "900");
    assert_eq!(body["code"], "banned");

    let p = Problem::unauthorized("x")
        .append_header(
            http::header::WWW_AUTHENTICATE,
            HeaderValue::from_static("Bearer"),
        )
        .append_header(
            http::header::WWW_AUTHENTICATE,
            HeaderValue::from_static("Basic"),
        )
        .with_header("x-extra", HeaderValue::from_static("1"));
    let (_, headers, _) = render(&p).await;
    assert_eq!(headers.get_all("www-authenticate").iter().count(), 2);
    assert_eq!(headers["x-extra"], "1");
}

#[test]
fn constructors() {
    let p = Problem::internal();
    assert_eq!(
        (p.status.as_u16(), p.code.as_ref(), p.message.as_str()),
        (500, "internal", "internal server error")
    );
    let p = Problem::payload_too_large(1024);
    assert_eq!(p.message, "request body exceeds the limit of 1024 bytes");
    let p = Problem::unsupported_media_type(Some(&"x".repeat(300)), "application/json");
    assert!(
        p.message.len() < 160,
        "client input is truncated: {}",
        p.message
    );
    let p = Problem::new(StatusCode::CONFLICT, "conflict", "already there");
    assert_eq!(p.to_string(), "409 conflict: already there");
}

#[test]
fn response_helpers() {
    use apigen_server_runtime::response;
    let r = response::json(StatusCode::CREATED, &serde_json::json!({"a": 1})).unwrap();
    assert_eq!(r.status(), 201);
    assert_eq!(r.headers()["content-type"], "application/json");
    // a map with non-string keys cannot be JSON: a clean 500 problem, not a panic
    let mut bad = std::collections::BTreeMap::new();
    bad.insert(vec![1u8], 1);
    let p = response::json(StatusCode::OK, &bad).unwrap_err();
    assert_eq!(p.status, 500);
    assert_eq!(p.message, "internal server error");
    let mut r = response::empty(StatusCode::NO_CONTENT);
    response::append_headers(
        &mut r,
        &[
            ("Deprecation", "@1"),
            ("bad name", "x"),
            ("Link", "<a>; rel=\"x\""),
        ],
    );
    assert_eq!(r.headers()["deprecation"], "@1");
    assert_eq!(r.headers()["link"], "<a>; rel=\"x\"");
    assert_eq!(r.headers().len(), 2);
    let r = response::text(StatusCode::OK, "bad\nvalue", "x".into());
    assert_eq!(r.headers()["content-type"], "text/plain; charset=utf-8");
    let r = response::bytes(
        StatusCode::OK,
        "image/png",
        axum::body::Bytes::from_static(b"\x89PNG"),
    );
    assert_eq!(r.headers()["content-type"], "image/png");
    let mut r = response::empty(StatusCode::OK);
    assert!(response::set_header(&mut r, "x-count", "3").is_ok());
    assert!(response::set_header(&mut r, "x-count", "a\nb").is_err());
    assert_eq!(r.headers()["x-count"], "3");
}
