//! The router-wide behaviour over real HTTP: base path, 404/405 problems with `Allow`,
//! garbage path and query values (4xx, never 5xx), deprecation headers, the renderer hook,
//! and the generated-handler shape of API.md end to end.

mod common;

use std::sync::Arc;

use apigen_server_runtime::ServerConfig;
use apigen_server_runtime::problem::{Problem, RenderProblem};
use axum::response::Response;
use common::{GOOD_KEY, client, config, raw, raw_with_body, send, serve_petstore};

fn allow_set(v: Option<&str>) -> Vec<String> {
    let mut m: Vec<String> = v
        .unwrap_or("")
        .split(',')
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .collect();
    m.sort();
    m
}

#[tokio::test]
async fn unknown_paths_are_404_problems() {
    let srv = serve_petstore(config()).await;
    let c = client();
    for path in ["/v1/nope", "/nope", "/", "/v1", "/v1/pets/1/extra", "/pets"] {
        let r = send(c.get(format!("{}{path}", srv.base)).bearer_auth(GOOD_KEY)).await;
        assert_eq!(r.status, 404, "{path}: {}", r.body);
        assert_eq!(
            r.problem(),
            (
                "not_found".into(),
                "the requested resource was not found".into()
            ),
            "{path}"
        );
    }
}

#[tokio::test]
async fn undeclared_methods_are_405_problems_with_allow() {
    let srv = serve_petstore(config()).await;
    let c = client();
    let pets = format!("{}/v1/pets", srv.base);
    let pet = format!("{}/v1/pets/1", srv.base);

    let r = send(c.delete(&pets).bearer_auth(GOOD_KEY)).await;
    assert_eq!(r.status, 405);
    assert_eq!(allow_set(r.header("allow")), vec!["GET", "HEAD", "POST"]);
    let (code, message) = r.problem();
    assert_eq!(code, "method_not_allowed");
    assert_eq!(message, "method DELETE is not allowed on this path");

    let r = send(c.put(&pet)).await; // no credentials: 405 still wins (the route decides)
    assert_eq!(r.status, 405);
    assert_eq!(allow_set(r.header("allow")), vec!["GET", "HEAD"]);
    assert_eq!(r.problem().0, "method_not_allowed");

    let brew = reqwest::Method::from_bytes(b"BREW").unwrap();
    let r = send(c.request(brew, &pets)).await;
    assert_eq!(r.status, 405);
    assert_eq!(allow_set(r.header("allow")), vec!["GET", "HEAD", "POST"]);

    // An unknown path with an odd method is still a 404.
    let r = send(c.delete(format!("{}/v1/nothing", srv.base))).await;
    assert_eq!(r.status, 404);
}

#[tokio::test]
async fn garbage_path_values_are_400_never_5xx() {
    let srv = serve_petstore(config()).await;
    let auth = format!("Authorization: Bearer {GOOD_KEY}");
    let cases = [
        (
            "/v1/pets/abc",
            r#"path/petId: expected an integer (int64), got \"abc\""#,
        ),
        (
            "/v1/pets/99999999999999999999",
            r#"path/petId: \"99999999999999999999\" is out of range for int64"#,
        ),
        (
            "/v1/pets/%FF",
            "a path segment is not valid percent-encoded UTF-8",
        ),
        (
            "/v1/pets/%ZZ",
            r#"path/petId: expected an integer (int64), got \"%ZZ\""#,
        ),
        (
            "/v1/pets/-",
            r#"path/petId: expected an integer (int64), got \"-\""#,
        ),
    ];
    for (path, message) in cases {
        let (status, text) = raw(srv.addr, &format!("GET {path} HTTP/1.1\r\n{auth}")).await;
        assert_eq!(status, 400, "{path}: {text}");
        assert!(
            text.contains(&format!(r#""message":"{message}""#)),
            "{path}: {text}"
        );
        assert!(text.contains(r#""code":"bad_request""#), "{text}");
    }
    // Percent-encoded digits are decoded before parsing.
    let (status, text) = raw(srv.addr, &format!("GET /v1/pets/%31 HTTP/1.1\r\n{auth}")).await;
    assert_eq!(status, 200, "{text}");
    assert!(text.contains(r#""name":"Rex""#), "{text}");
}

#[tokio::test]
async fn query_values_are_parsed_and_validated_together() {
    let srv = serve_petstore(config()).await;
    let c = client();
    let get = |q: &str| {
        c.get(format!("{}/v1/pets?{q}", srv.base))
            .bearer_auth(GOOD_KEY)
    };

    let r = send(get("limit=2&status=sold")).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    assert_eq!(v.as_array().unwrap().len(), 2);
    assert_eq!(v[0]["status"], "sold");

    let r = send(get("limit=0")).await;
    assert_eq!(r.status, 400);
    assert_eq!(
        r.problem(),
        (
            "bad_request".into(),
            "query/limit: must be greater than or equal to 1, got 0".into()
        )
    );

    let r = send(get("limit=abc&status=bogus")).await;
    assert_eq!(r.status, 400);
    assert_eq!(
        r.problem().1,
        r#"query/limit: expected an integer (int32), got "abc"; query/status: expected one of available, pending, sold, got "bogus""#
    );

    let r = send(get("limit=101")).await;
    assert_eq!(
        r.problem().1,
        "query/limit: must be less than or equal to 100, got 101"
    );

    let r = send(get("limit=9223372036854775808")).await;
    assert_eq!(r.status, 400);
    assert_eq!(
        r.problem().1,
        r#"query/limit: "9223372036854775808" is out of range for int32"#
    );
}

#[tokio::test]
async fn json_bodies_end_to_end() {
    let srv = serve_petstore(config().body_limit(200)).await;
    let c = client();
    let url = format!("{}/v1/pets", srv.base);
    let post = |ct: &str, body: &str| {
        c.post(&url)
            .bearer_auth(GOOD_KEY)
            .header("content-type", ct)
            .body(body.to_owned())
    };

    let r = send(post("application/json", r#"{"name":"Rex","categoryId":3}"#)).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_eq!(r.json()["id"], 1);
    assert_eq!(r.json()["categoryId"], 3);

    let r = send(post("text/plain", "hi")).await;
    assert_eq!(r.status, 415);
    assert_eq!(
        r.problem(),
        (
            "unsupported_media_type".into(),
            r#"unsupported content type "text/plain"; expected application/json"#.into()
        )
    );

    let r = send(post(
        "application/json",
        &format!(r#"{{"name":"{}"}}"#, "a".repeat(300)),
    ))
    .await;
    assert_eq!(r.status, 413);
    assert_eq!(
        r.problem(),
        (
            "payload_too_large".into(),
            "request body exceeds the limit of 200 bytes".into()
        )
    );

    let r = send(post("application/json", r#"{"name":"Rex","#)).await;
    assert_eq!(r.status, 400);
    assert_eq!(
        r.problem().1,
        "malformed JSON: EOF while parsing a value at line 1 column 14"
    );

    let r = send(post(
        "application/json",
        r#"{"name":"Rex","categoryId":"x"}"#,
    ))
    .await;
    assert_eq!(
        r.problem().1,
        r#"/categoryId: invalid type: string "x", expected i64"#
    );

    let r = send(post(
        "application/json",
        r#"{"name":"R2D2!","categoryId":0}"#,
    ))
    .await;
    assert_eq!(r.status, 400);
    assert_eq!(
        r.problem().1,
        r#"/name: must match the pattern "^[A-Za-z ]*$"; /categoryId: must be greater than or equal to 1, got 0"#
    );

    let r = send(c.post(&url).bearer_auth(GOOD_KEY)).await;
    assert_eq!(r.status, 400);
    assert_eq!(r.problem().1, "the request body is required");
}

#[tokio::test]
async fn chunked_bodies_are_limited_while_streaming() {
    let srv = serve_petstore(config().body_limit(40)).await;
    let head = format!(
        "POST /v1/pets HTTP/1.1\r\nAuthorization: Bearer {GOOD_KEY}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked"
    );
    let chunk = |s: &str| format!("{:x}\r\n{s}\r\n", s.len());
    // 30 bytes in two chunks: under the limit.
    let ok = format!(
        "{}{}0\r\n\r\n",
        chunk(r#"{"name":"Rex","#),
        chunk(r#""categoryId":7}"#)
    );
    let (status, text) = raw_with_body(srv.addr, &head, &ok).await;
    assert_eq!(status, 201, "{text}");
    // 51 bytes, no Content-Length: refused once the running total passes 40.
    let big = format!(
        "{}{}{}0\r\n\r\n",
        chunk(r#"{"name":"Rex","#),
        chunk(r#""categoryId":7,"#),
        chunk(r#""status":"available"}"#)
    );
    let (status, text) = raw_with_body(srv.addr, &head, &big).await;
    assert_eq!(status, 413, "{text}");
    assert!(text.contains(r#""code":"payload_too_large""#), "{text}");
}

#[tokio::test]
async fn deprecation_headers_and_typed_errors() {
    let srv = serve_petstore(config()).await;
    let c = client();
    let r = send(
        c.get(format!("{}/v1/pets/1", srv.base))
            .bearer_auth(GOOD_KEY),
    )
    .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("deprecation"), Some("@1688169599"));
    assert_eq!(r.header("sunset"), Some("Thu, 05 Dec 2030 00:00:00 GMT"));
    let r = send(
        c.get(format!("{}/v1/pets/2", srv.base))
            .bearer_auth(GOOD_KEY),
    )
    .await;
    assert_eq!(r.status, 404);
    assert_eq!(r.problem(), ("not_found".into(), "no such pet".into()));
    assert_eq!(r.header("deprecation"), Some("@1688169599"));
}

#[tokio::test]
async fn base_path_variants() {
    // None: the document's base path; Some: the application's override.
    for base in [None, Some(""), Some("/"), Some("v1/"), Some("/api/v2/")] {
        let cfg = match base {
            Some(b) => config().base_path(b),
            None => config(),
        };
        let srv = serve_petstore(cfg).await;
        let prefix = match base {
            None | Some("v1/") => "/v1",
            Some("" | "/") => "",
            Some(_) => "/api/v2",
        };
        let r = send(
            client()
                .get(format!("{}{prefix}/pets/1", srv.base))
                .bearer_auth(GOOD_KEY),
        )
        .await;
        assert_eq!(r.status, 200, "base {base:?}: {}", r.body);
        if !prefix.is_empty() {
            let r = send(
                client()
                    .get(format!("{}/pets/1", srv.base))
                    .bearer_auth(GOOD_KEY),
            )
            .await;
            assert_eq!(
                r.status, 404,
                "base {base:?}: routes live only under the prefix"
            );
        }
    }
}

#[tokio::test]
async fn the_render_hook_renders_every_problem() {
    let render: RenderProblem = Arc::new(|p: &Problem| -> Response {
        let mut resp = Response::new(axum::body::Body::from(format!(
            "{}|{}|{}",
            p.status.as_u16(),
            p.code,
            p.violations.len()
        )));
        *resp.status_mut() = p.status;
        for (k, v) in p.headers.iter() {
            resp.headers_mut().append(k.clone(), v.clone());
        }
        resp
    });
    let srv = serve_petstore(config().render_problem(render)).await;
    let c = client();
    let r = send(c.get(format!("{}/v1/nope", srv.base))).await;
    assert_eq!(r.body, "404|not_found|0");
    let r = send(c.get(format!("{}/v1/pets", srv.base))).await;
    assert_eq!(r.body, "401|unauthorized|0");
    assert!(r.header("www-authenticate").is_some());
    let r = send(c.patch(format!("{}/v1/pets", srv.base))).await;
    assert_eq!(r.body, "405|method_not_allowed|0");
    assert!(r.header("allow").is_some());
    let r = send(
        c.get(format!("{}/v1/pets?limit=0&status=x", srv.base))
            .bearer_auth(GOOD_KEY),
    )
    .await;
    assert_eq!(r.body, "400|bad_request|2");
}

#[tokio::test]
async fn handlers_without_finish_use_default_runtime() {
    // The generated routes alone (no finish): no Identity, so 401; the default renderer.
    use axum::routing::get;
    let app = axum::Router::new().route(
        "/pets",
        get(|req: axum::extract::Request| async move {
            let (parts, _) = req.into_parts();
            let rt = apigen_server_runtime::Runtime::from_parts(&parts);
            assert_eq!(rt.body_limit(), 1024 * 1024);
            rt.respond(
                apigen_server_runtime::auth::authorize(parts.extensions.get(), &[&["bearerAuth"]])
                    .map(|_| apigen_server_runtime::response::empty(http::StatusCode::NO_CONTENT)),
            )
        }),
    );
    let srv = common::serve(app).await;
    let r = send(client().get(format!("{}/pets", srv.base))).await;
    assert_eq!(r.status, 401);
    assert_eq!(r.problem().0, "unauthorized");
    let _ = ServerConfig::new();
}

#[tokio::test]
async fn a_document_without_paths_still_answers_problems() {
    let app = apigen_server_runtime::finish(
        axum::Router::new(),
        &[],
        "/v1",
        &apigen_server_runtime::DocumentCors::EMPTY,
        ServerConfig::new(),
    );
    let srv = common::serve(app).await;
    for path in ["/", "/v1", "/v1/pets"] {
        let r = send(client().post(format!("{}{path}", srv.base))).await;
        assert_eq!(r.status, 404, "{path}");
        assert_eq!(r.problem().0, "not_found");
    }
}

#[test]
fn route_paths_carry_the_base_path() {
    use apigen_server_runtime::layer::route_path;
    assert_eq!(route_path("/v1", "/pets"), "/v1/pets");
    assert_eq!(route_path("/v1", "/pets/{petId}"), "/v1/pets/{petId}");
    assert_eq!(
        route_path("/v1", "/"),
        "/v1",
        "the root under a base is the base"
    );
    assert_eq!(route_path("", "/pets"), "/pets");
    assert_eq!(route_path("", "/"), "/");
    let config = ServerConfig::new();
    assert_eq!(config.base_path_or("/v1"), "/v1");
    assert_eq!(config.base_path_or("v1/"), "/v1");
    assert_eq!(config.base_path_or("/"), "");
    assert_eq!(config.base_path_or(""), "");
    assert_eq!(
        ServerConfig::new()
            .base_path("/api/v2/")
            .base_path_or("/v1"),
        "/api/v2"
    );
    assert_eq!(ServerConfig::new().base_path("/").base_path_or("/v1"), "");
}

/// Routes that answer with what the application sees of the request: `RequestContext::uri`
/// and `path`, and whether the layer's rate-limit decision reached it.
fn echo_routes(prefixed_with: Option<&str>) -> axum::Router {
    use apigen_server_runtime::context::RequestContext;
    use apigen_server_runtime::layer::route_path;
    let path = match prefixed_with {
        Some(base) => route_path(base, "/echo"),
        None => "/echo".to_owned(),
    };
    axum::Router::new().route(
        &path,
        axum::routing::get(|req: axum::extract::Request| async move {
            let (parts, _) = req.into_parts();
            let ctx = RequestContext::new("echo", None, parts);
            let limited = ctx.identity().and_then(|i| i.rate_limit()).map(|d| d.limit);
            format!("{} {} {limited:?}", ctx.uri, ctx.path())
        }),
    )
}

#[tokio::test]
async fn the_application_sees_the_uri_as_sent_and_the_path_as_routed_either_way() {
    use apigen_server_runtime::DocumentCors;
    use apigen_server_runtime::layer::{finish, finish_prefixed};
    let policy = || apigen_server_runtime::RateLimitPolicy {
        plans: [(
            "free".to_owned(),
            apigen_server_runtime::ratelimit::Quota {
                per_minute: 1000,
                per_day: 1000,
            },
        )]
        .into_iter()
        .collect(),
        anonymous_plan: "free".into(),
        default_plan: "free".into(),
        ban_strikes: 0,
        ban: std::time::Duration::ZERO,
    };
    let nested = finish(
        echo_routes(None),
        &[],
        "/v1",
        &DocumentCors::EMPTY,
        config(),
    );
    let base = config().base_path_or("/v1");
    let prefixed = finish_prefixed(
        echo_routes(Some(&base)),
        &[],
        "/v1",
        &DocumentCors::EMPTY,
        config().rate_limit_in_memory(policy()),
    );
    for (app, limited) in [(nested, "None"), (prefixed, "Some(1000)")] {
        let srv = common::serve(app).await;
        let r = send(client().get(format!("{}/v1/echo?a=1&b=%20", srv.base))).await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.body, format!("/v1/echo?a=1&b=%20 /echo {limited}"));
        let r = send(client().get(format!("{}/echo", srv.base))).await;
        assert_eq!(r.status, 404, "outside the base path");
    }
}
