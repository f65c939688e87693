//! CORS over loopback HTTP: preflights answered before authentication and never charged,
//! every refusal (401, 404, 405, 429) readable by a browser script, the exposed and allowed
//! headers derived from the runtime and the document, a document's own `options` operation
//! left alone, and bad rules refused when built.

mod common;

use std::time::Duration;

use apigen_server_runtime::cors::{Cors, CorsError, RUNTIME_RESPONSE_HEADERS};
use apigen_server_runtime::layer::{self, ServerConfig};
use apigen_server_runtime::ratelimit::RateLimitPolicy;
use common::{GOOD_KEY, Reply, client, send, serve_petstore};

const APP: &str = "http://app.example:8000";

fn cors() -> Cors {
    Cors::builder().allow_origin(APP).build().unwrap()
}

/// A few requests a minute for everyone, so any charge shows.
/// `limit` requests a minute AND a day: a test that crosses a UTC minute mid-run still finds
/// its quota used up (the day window carries it), so no test depends on the wall clock.
fn tight_policy(limit: u32) -> RateLimitPolicy {
    common::free_plan_policy(limit, limit)
}

async fn preflight(base: &str, path: &str, origin: &str, method: &str, headers: &str) -> Reply {
    let mut rb = client()
        .request(reqwest::Method::OPTIONS, format!("{base}{path}"))
        .header("origin", origin)
        .header("access-control-request-method", method);
    if !headers.is_empty() {
        rb = rb.header("access-control-request-headers", headers);
    }
    send(rb).await
}

fn list(reply: &Reply, name: &str) -> Vec<String> {
    let mut items: Vec<String> = reply
        .header_all(name)
        .iter()
        .flat_map(|v| v.split(','))
        .map(|s| s.trim().to_ascii_lowercase())
        .filter(|s| !s.is_empty())
        .collect();
    items.sort();
    items
}

#[tokio::test]
async fn a_preflight_is_answered_204_before_authentication_with_the_allowed_methods_and_headers() {
    let srv = serve_petstore(common::config().cors(cors())).await;
    let r = preflight(
        &srv.base,
        "/v1/pets",
        APP,
        "POST",
        "authorization,content-type",
    )
    .await;
    assert_eq!(r.status, 204, "{r:?}");
    assert_eq!(r.body, "");
    assert_eq!(r.header("access-control-allow-origin"), Some(APP));
    assert_eq!(list(&r, "access-control-allow-methods"), ["get", "post"]);
    assert_eq!(
        list(&r, "access-control-allow-headers"),
        // The runtime's own (credentials, bodies, trace context, request id), then the
        // document's (here X-Request-Id again, listed once).
        [
            "authorization",
            "content-type",
            "traceparent",
            "tracestate",
            "x-request-id"
        ]
    );
    assert_eq!(r.header("access-control-max-age"), Some("600"));
    assert!(r.header("access-control-allow-credentials").is_none());
    assert!(list(&r, "vary").contains(&"origin".to_owned()), "{r:?}");
    // answered by the CORS layer: no problem body, no 401 challenge, nothing charged
    assert!(r.header("www-authenticate").is_none());
    assert!(r.header("x-ratelimit-remaining").is_none());
}

#[tokio::test]
async fn a_preflight_from_an_origin_not_allowed_gets_no_allow_origin() {
    let srv = serve_petstore(common::config().cors(cors())).await;
    let r = preflight(&srv.base, "/v1/pets", "http://evil.example", "GET", "").await;
    assert_eq!(r.status, 204);
    assert!(r.header("access-control-allow-origin").is_none(), "{r:?}");
    // and the real request: answered, but without the header a browser needs to read it
    let r = send(
        client()
            .get(format!("{}/v1/pets", srv.base))
            .header("origin", "http://evil.example")
            .bearer_auth(GOOD_KEY),
    )
    .await;
    assert_eq!(r.status, 200);
    assert!(r.header("access-control-allow-origin").is_none(), "{r:?}");
    assert!(list(&r, "vary").contains(&"origin".to_owned()), "{r:?}");
}

#[tokio::test]
async fn preflights_are_not_charged_against_any_quota() {
    let config = common::config()
        .rate_limit_in_memory(tight_policy(2))
        .cors(cors());
    let srv = serve_petstore(config).await;
    for _ in 0..5 {
        let r = preflight(&srv.base, "/v1/pets", APP, "GET", "authorization").await;
        assert_eq!(r.status, 204, "{r:?}");
    }
    let r = send(
        client()
            .get(format!("{}/v1/pets", srv.base))
            .header("origin", APP)
            .bearer_auth(GOOD_KEY),
    )
    .await;
    assert_eq!(r.status, 200, "{r:?}");
    assert_eq!(r.header("x-ratelimit-limit"), Some("2"));
    assert_eq!(r.header("x-ratelimit-remaining"), Some("1"));
}

#[tokio::test]
async fn every_refusal_carries_the_cors_headers_and_exposes_the_runtime_headers() {
    let config = common::config()
        .rate_limit_in_memory(tight_policy(3))
        .cors(cors());
    let srv = serve_petstore(config).await;
    let mut expected: Vec<String> = RUNTIME_RESPONSE_HEADERS
        .iter()
        .map(|h| h.to_string())
        .collect();
    expected.push("x-total-count".into());
    expected.sort();
    let get = |path: &str, key: Option<&str>| {
        let mut rb = client()
            .get(format!("{}{path}", srv.base))
            .header("origin", APP);
        if let Some(key) = key {
            rb = rb.bearer_auth(key);
        }
        send(rb)
    };
    let check = |r: &Reply, status: u16| {
        assert_eq!(r.status, status, "{r:?}");
        assert_eq!(r.header("access-control-allow-origin"), Some(APP), "{r:?}");
        assert_eq!(list(r, "access-control-expose-headers"), expected, "{r:?}");
        assert!(list(r, "vary").contains(&"origin".to_owned()), "{r:?}");
    };
    // 401 with its challenge (charged to the address), then alice's 404 and 405 problems and
    // a 200 use up her quota (3 a minute): 429
    let r = get("/v1/pets", Some("wrong-key")).await;
    check(&r, 401);
    assert!(r.header("www-authenticate").is_some());
    let r = get("/v1/nowhere", Some(GOOD_KEY)).await;
    check(&r, 404);
    assert_eq!(r.problem().0, "not_found");
    let r = send(
        client()
            .delete(format!("{}/v1/pets", srv.base))
            .header("origin", APP)
            .bearer_auth(GOOD_KEY),
    )
    .await;
    check(&r, 405);
    let r = get("/v1/pets", Some(GOOD_KEY)).await;
    check(&r, 200);
    let r = get("/v1/pets", Some(GOOD_KEY)).await;
    check(&r, 429);
    assert!(r.header("retry-after").is_some());
    assert_eq!(r.header("x-ratelimit-remaining"), Some("0"));
}

#[tokio::test]
async fn deprecation_headers_are_exposed_and_sent() {
    let srv = serve_petstore(common::config().cors(cors())).await;
    let r = send(
        client()
            .get(format!("{}/v1/pets/1", srv.base))
            .header("origin", APP)
            .bearer_auth(GOOD_KEY),
    )
    .await;
    assert_eq!(r.header("access-control-allow-origin"), Some(APP), "{r:?}");
    assert!(r.header("deprecation").is_some(), "{r:?}");
    let exposed = list(&r, "access-control-expose-headers");
    for h in ["deprecation", "sunset", "link"] {
        assert!(exposed.contains(&h.to_owned()), "{h} not in {exposed:?}");
    }
}

#[tokio::test]
async fn any_origin_answers_star_and_credentials_echo_the_origin() {
    let srv = serve_petstore(common::config().cors(Cors::any_origin())).await;
    let r = preflight(&srv.base, "/v1/pets", "http://anywhere.example", "GET", "").await;
    assert_eq!(r.status, 204);
    assert_eq!(r.header("access-control-allow-origin"), Some("*"));

    let rules = Cors::builder()
        .allow_origin(APP)
        .allow_origin("http://other.example")
        .allow_credentials(true)
        .max_age(Duration::from_secs(30))
        .build()
        .unwrap();
    let srv = serve_petstore(common::config().cors(rules)).await;
    let r = preflight(&srv.base, "/v1/pets", "http://other.example", "GET", "").await;
    assert_eq!(r.status, 204);
    assert_eq!(
        r.header("access-control-allow-origin"),
        Some("http://other.example")
    );
    assert_eq!(r.header("access-control-allow-credentials"), Some("true"));
    assert_eq!(r.header("access-control-max-age"), Some("30"));
}

#[tokio::test]
async fn without_cors_configured_a_preflight_is_an_undeclared_method() {
    let srv = serve_petstore(common::config()).await;
    let r = preflight(&srv.base, "/v1/pets", APP, "GET", "").await;
    assert_eq!(r.status, 405);
    assert!(r.header("access-control-allow-origin").is_none());
}

#[tokio::test]
async fn a_documents_own_options_operation_is_not_shadowed() {
    // routes as the generator writes them for a path with `get` and `options` operations
    let routes = axum::Router::new().route(
        "/v1/things",
        axum::routing::get(|| async { "list" }).options(|| async {
            (
                [("allow", "GET, OPTIONS"), ("x-total-count", "2")],
                "options operation",
            )
        }),
    );
    static DOC: apigen_server_runtime::DocumentCors = apigen_server_runtime::DocumentCors {
        methods: &["GET", "OPTIONS"],
        request_headers: &[],
        response_headers: &["x-total-count"],
    };
    let app = layer::finish_prefixed(routes, &[], "/v1", &DOC, ServerConfig::new().cors(cors()));
    let srv = common::serve(app).await;
    // a plain OPTIONS request, from a page or not, reaches the operation
    for origin in [None, Some(APP)] {
        let mut rb = client().request(reqwest::Method::OPTIONS, format!("{}/v1/things", srv.base));
        if let Some(origin) = origin {
            rb = rb.header("origin", origin);
        }
        let r = send(rb).await;
        assert_eq!(r.status, 200, "{r:?}");
        assert_eq!(r.body, "options operation");
        assert_eq!(r.header("access-control-allow-origin"), origin, "{r:?}");
    }
    // a true preflight is answered by the CORS layer
    let r = preflight(&srv.base, "/v1/things", APP, "OPTIONS", "").await;
    assert_eq!(r.status, 204, "{r:?}");
    assert_eq!(r.body, "");
    assert_eq!(list(&r, "access-control-allow-methods"), ["get", "options"]);
    // a plain OPTIONS on an unknown path is still the 404 problem, readable
    let r = send(
        client()
            .request(reqwest::Method::OPTIONS, format!("{}/v1/other", srv.base))
            .header("origin", APP),
    )
    .await;
    assert_eq!(r.status, 404, "{r:?}");
    assert_eq!(r.header("access-control-allow-origin"), Some(APP));
}

#[test]
fn bad_rules_are_refused_with_a_clear_error() {
    let build = |origins: &[&str], credentials: bool| {
        origins
            .iter()
            .fold(Cors::builder(), |b, o| b.allow_origin(*o))
            .allow_credentials(credentials)
            .build()
    };
    let err = build(&["*"], true).unwrap_err();
    assert_eq!(err, CorsError::CredentialsWithAnyOrigin);
    assert!(err.to_string().contains("credentials"), "{err}");
    assert_eq!(build(&[], false).unwrap_err(), CorsError::NoOrigin);
    assert_eq!(
        build(&["*", APP], false).unwrap_err(),
        CorsError::AnyWithList
    );
    for bad in [
        "localhost:8000",
        "http://app.example/",
        "http://app.example/page",
        "http://",
        "http://app.example?x=1",
    ] {
        let err = build(&[bad], false).unwrap_err();
        assert!(
            matches!(err, CorsError::InvalidOrigin(ref o, _) if o == bad),
            "{bad}: {err:?}"
        );
        assert!(err.to_string().contains("scheme://host"), "{err}");
    }
    let ok = build(&["HTTP://App.Example:8000", "https://b.example"], true).unwrap();
    assert_eq!(ok.origins(), [APP, "https://b.example"]);
    assert!(ok.credentials());
    assert!(build(&["*"], false).unwrap().allows_any_origin());
}
