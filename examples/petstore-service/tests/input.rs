//! Bad input over real HTTP: every kind is a 4xx with the `Error` body (never axum's plain
//! text, never a 5xx), and the rate-limit headers are on every answer.

mod common;

use common::{ENTERPRISE_KEY, client, post_pet, raw, send, start};

fn assert_bad_request(r: &common::Reply, message_part: &str) {
    assert_eq!(r.status, 400, "{}", r.body);
    let (code, message) = r.problem();
    assert_eq!(code, "bad_request");
    assert!(
        message.contains(message_part),
        "{message:?} should mention {message_part:?}"
    );
    r.rate_limit();
}

#[tokio::test]
async fn malformed_json_is_400() {
    let srv = start().await;
    let c = client();
    for body in [
        "{not json",
        r#"{"name":"Rex","categoryId":1"#,
        "",
        r#"{"name":"Rex","categoryId":1} trailing"#,
    ] {
        let r = send(post_pet(&c, &srv, ENTERPRISE_KEY, body)).await;
        if body.is_empty() {
            assert_bad_request(&r, "the request body is required");
        } else {
            assert_bad_request(&r, "malformed JSON");
        }
    }
    // Not an object at all: a shape error, still 400.
    let r = send(post_pet(&c, &srv, ENTERPRISE_KEY, "[1,2]")).await;
    assert_bad_request(&r, "invalid type");
}

#[tokio::test]
async fn a_body_that_is_not_json_is_415() {
    let srv = start().await;
    let c = client();
    let url = format!("{}/pets", srv.base_url());
    let body = r#"{"name":"Rex","categoryId":1}"#;
    for content_type in [
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
        Some("application/xml"),
        None,
    ] {
        let mut rb = c.post(&url).bearer_auth(ENTERPRISE_KEY).body(body);
        if let Some(ct) = content_type {
            rb = rb.header("content-type", ct);
        }
        let r = send(rb).await;
        assert_eq!(r.status, 415, "{content_type:?}: {}", r.body);
        let (code, message) = r.problem();
        assert_eq!(code, "unsupported_media_type");
        assert!(message.contains("application/json"), "{message}");
        r.rate_limit();
    }
    // JSON with parameters is JSON.
    let r = send(
        c.post(&url)
            .bearer_auth(ENTERPRISE_KEY)
            .header("content-type", "application/json; charset=utf-8")
            .body(body),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
}

#[tokio::test]
async fn missing_fields_wrong_types_and_unknown_enum_values_are_400() {
    let srv = start().await;
    let c = client();
    let cases = [
        (r#"{}"#, "missing field"),
        (r#"{"categoryId":1}"#, "body: missing field `name`"),
        (r#"{"name":"Rex"}"#, "body: missing field `categoryId`"),
        (
            r#"{"name":5,"categoryId":1}"#,
            "/name: invalid type: integer `5`",
        ),
        (
            r#"{"name":"Rex","categoryId":"x"}"#,
            "/categoryId: invalid type: string",
        ),
        (
            r#"{"name":"Rex","categoryId":1.5}"#,
            "/categoryId: invalid type",
        ),
        (
            r#"{"name":"Rex","categoryId":99999999999999999999}"#,
            "/categoryId",
        ),
        (
            r#"{"name":null,"categoryId":1}"#,
            "/name: invalid type: null",
        ),
        (
            r#"{"name":"Rex","categoryId":1,"status":"lost"}"#,
            "/status: expected one of `available`, `pending`, `sold`, got `lost`",
        ),
        (
            r#"{"name":"Rex","categoryId":1,"status":"AVAILABLE"}"#,
            "/status",
        ),
        (
            r#"{"name":"Rex","categoryId":1,"status":3}"#,
            "/status: invalid type",
        ),
    ];
    for (body, part) in cases {
        let r = send(post_pet(&c, &srv, ENTERPRISE_KEY, body)).await;
        assert_bad_request(&r, part);
    }
    // Nothing was stored.
    let r = send(
        c.get(format!("{}/pets", srv.base_url()))
            .bearer_auth(ENTERPRISE_KEY),
    )
    .await;
    assert_eq!(r.json(), serde_json::json!([]));
}

#[tokio::test]
async fn unknown_fields_are_ignored() {
    let srv = start().await;
    let c = client();
    let r = send(post_pet(
        &c,
        &srv,
        ENTERPRISE_KEY,
        r#"{"name":"Rex","categoryId":1,"id":999,"colour":"brown"}"#,
    ))
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    // The id is the service's, not the caller's.
    assert_eq!(
        r.json(),
        serde_json::json!({"id": 1, "name": "Rex", "categoryId": 1})
    );
}

/// The spec does not make `status` nullable, so `null` must be refused like any other
/// wrong type. Fails today: the generated `NewPet.status` is a plain `Option` with
/// `#[serde(default)]`, which reads `null` as absent (a generator issue; schemathesis finds it
/// too). Run with `cargo test -p petstore-service -- --ignored` once the generator emits
/// `deserialize_with = "crate::runtime::body::non_null"` for such fields.
#[tokio::test]
async fn null_for_an_optional_non_nullable_field_is_400() {
    let srv = start().await;
    let c = client();
    let r = send(post_pet(
        &c,
        &srv,
        ENTERPRISE_KEY,
        r#"{"name":"Rex","categoryId":1,"status":null}"#,
    ))
    .await;
    assert_bad_request(&r, "/status: invalid type: null");
}

#[tokio::test]
async fn bad_limit_and_status_are_400() {
    let srv = start().await;
    let c = client();
    let get = |q: &str| {
        c.get(format!("{}/pets?{q}", srv.base_url()))
            .bearer_auth(ENTERPRISE_KEY)
    };
    let cases = [
        (
            "limit=0",
            "query/limit: must be greater than or equal to 1, got 0",
        ),
        (
            "limit=101",
            "query/limit: must be less than or equal to 100, got 101",
        ),
        ("limit=-5", "query/limit"),
        (
            "limit=abc",
            r#"query/limit: expected an integer (int32), got "abc""#,
        ),
        ("limit=", "query/limit"),
        ("limit=1.5", "query/limit"),
        ("limit=99999999999", "query/limit"),
        ("status=lost", "query/status"),
        ("status=", "query/status"),
    ];
    for (q, part) in cases {
        assert_bad_request(&send(get(q)).await, part);
    }
    // Every problem at once.
    let r = send(get("limit=0&status=lost")).await;
    assert_bad_request(&r, "query/limit");
    assert!(r.problem().1.contains("query/status"), "{}", r.body);
    // The bounds themselves are fine.
    for q in ["limit=1", "limit=100", "status=sold&limit=20"] {
        assert_eq!(send(get(q)).await.status, 200, "{q}");
    }
}

#[tokio::test]
async fn single_valued_inputs_given_twice_are_400_naming_them() {
    let srv = start().await;
    let c = client();
    let url = |q: &str| format!("{}/pets?{q}", srv.base_url());
    // Neither value is guessed, even when both are valid and equal.
    for q in [
        "limit=5&limit=6",
        "limit=5&limit=5",
        "status=sold&limit=2&status=sold",
    ] {
        let r = send(c.get(url(q)).bearer_auth(ENTERPRISE_KEY)).await;
        assert_bad_request(&r, "given 2 times; a single value is expected");
        let name = if q.starts_with("limit") {
            "query/limit"
        } else {
            "query/status"
        };
        assert!(r.problem().1.starts_with(name), "{q}: {}", r.body);
    }
    // Two `Authorization` lines: the credential of the operation's scheme is ambiguous.
    let r = send(
        c.get(url("limit=5"))
            .header("authorization", format!("Bearer {ENTERPRISE_KEY}"))
            .header("authorization", "Bearer someone-else"),
    )
    .await;
    assert_bad_request(&r, "header/Authorization: credential given more than once");
}

#[tokio::test]
async fn bad_pet_ids_are_400_never_5xx() {
    let srv = start().await;
    let auth = format!("Authorization: Bearer {ENTERPRISE_KEY}");
    let cases = [
        (
            "/v1/pets/abc",
            r#"path/petId: expected an integer (int64), got \"abc\""#,
        ),
        ("/v1/pets/1.5", "path/petId"),
        (
            "/v1/pets/9223372036854775808",
            r#"path/petId: \"9223372036854775808\" is out of range for int64"#,
        ),
        ("/v1/pets/-9223372036854775809", "out of range for int64"),
        ("/v1/pets/99999999999999999999999", "out of range for int64"),
        (
            "/v1/pets/%FF",
            "a path segment is not valid percent-encoded UTF-8",
        ),
        ("/v1/pets/%20", "path/petId"),
        ("/v1/pets/1%00", "path/petId"),
    ];
    for (path, part) in cases {
        let (status, text) = raw(srv.addr(), &format!("GET {path} HTTP/1.1\r\n{auth}"), b"").await;
        assert_eq!(status, 400, "{path}: {text}");
        assert!(text.contains(r#""code":"bad_request""#), "{path}: {text}");
        assert!(text.contains(part), "{path}: {text} should mention {part}");
        assert!(
            text.to_ascii_lowercase().contains("x-ratelimit-remaining:"),
            "{text}"
        );
    }
    // Valid int64s that name no animal are 404, at both ends of the range.
    for id in ["-1", "0", "9223372036854775807", "-9223372036854775808"] {
        let (status, text) = raw(
            srv.addr(),
            &format!("GET /v1/pets/{id} HTTP/1.1\r\n{auth}"),
            b"",
        )
        .await;
        assert_eq!(status, 404, "{id}: {text}");
    }
}

#[tokio::test]
async fn an_oversized_body_is_413() {
    let srv = start().await;
    let c = client();
    // Declared length over the 1 MiB limit.
    let big = format!(r#"{{"name":"{}","categoryId":1}}"#, "x".repeat(1024 * 1024));
    let r = send(post_pet(&c, &srv, ENTERPRISE_KEY, &big)).await;
    assert_eq!(r.status, 413, "{}", r.body);
    assert_eq!(r.problem().0, "payload_too_large");
    r.rate_limit();

    // Streamed (chunked, no length): counted while reading.
    let chunk = vec![b' '; 64 * 1024];
    let mut body = Vec::new();
    for _ in 0..20 {
        body.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
        body.extend_from_slice(&chunk);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(b"0\r\n\r\n");
    let head = format!(
        "POST /v1/pets HTTP/1.1\r\nAuthorization: Bearer {ENTERPRISE_KEY}\r\n\
         Content-Type: application/json\r\nTransfer-Encoding: chunked"
    );
    let (status, text) = raw(srv.addr(), &head, &body).await;
    assert_eq!(status, 413, "{text}");
    assert!(text.contains(r#""code":"payload_too_large""#), "{text}");

    // Just under the limit is read (and then judged on its content).
    let fits = format!(r#"{{"name":"{}","categoryId":1}}"#, "x".repeat(1000 * 1000));
    let r = send(post_pet(&c, &srv, ENTERPRISE_KEY, &fits)).await;
    assert_eq!(r.status, 201);
}

#[tokio::test]
async fn unknown_paths_are_404_with_the_error_body() {
    let srv = start().await;
    let c = client();
    let origin = format!("http://{}", srv.addr());
    for path in [
        "/v1/nope",
        "/nope",
        "/",
        "/v1",
        "/v1/pets/1/extra",
        "/pets",
        "/v2/pets",
        "/v1/store",
    ] {
        for key in [Some(ENTERPRISE_KEY), None] {
            let mut rb = c.get(format!("{origin}{path}"));
            if let Some(k) = key {
                rb = rb.bearer_auth(k);
            }
            let r = send(rb).await;
            assert_eq!(r.status, 404, "{path}: {}", r.body);
            assert_eq!(
                r.problem(),
                (
                    "not_found".into(),
                    "the requested resource was not found".into()
                ),
                "{path}"
            );
            r.rate_limit();
        }
    }
}

fn allow_set(v: Option<&str>) -> Vec<String> {
    let mut m: Vec<String> = v
        .expect("Allow header")
        .split(',')
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .collect();
    m.sort();
    m
}

#[tokio::test]
async fn undeclared_methods_are_405_with_allow_and_the_error_body() {
    let srv = start().await;
    let c = client();
    let base = srv.base_url();
    let cases = [
        (
            reqwest::Method::DELETE,
            format!("{base}/pets"),
            vec!["GET", "HEAD", "POST"],
        ),
        (
            reqwest::Method::PUT,
            format!("{base}/pets"),
            vec!["GET", "HEAD", "POST"],
        ),
        (
            reqwest::Method::PATCH,
            format!("{base}/pets/1"),
            vec!["GET", "HEAD"],
        ),
        (
            reqwest::Method::POST,
            format!("{base}/pets/1"),
            vec!["GET", "HEAD"],
        ),
        (
            reqwest::Method::DELETE,
            format!("{base}/pets/abc"),
            vec!["GET", "HEAD"],
        ),
        (
            reqwest::Method::POST,
            format!("{base}/store/orders"),
            vec!["GET", "HEAD"],
        ),
        (
            reqwest::Method::OPTIONS,
            format!("{base}/store/orders"),
            vec!["GET", "HEAD"],
        ),
        (
            reqwest::Method::from_bytes(b"BREW").unwrap(),
            format!("{base}/pets"),
            vec!["GET", "HEAD", "POST"],
        ),
    ];
    for (method, url, allow) in cases {
        for key in [Some(ENTERPRISE_KEY), None] {
            let mut rb = c.request(method.clone(), &url);
            if let Some(k) = key {
                rb = rb.bearer_auth(k);
            }
            let r = send(rb).await;
            assert_eq!(r.status, 405, "{method} {url}: {}", r.body);
            assert_eq!(allow_set(r.header("allow")), allow, "{method} {url}");
            let (code, message) = r.problem();
            assert_eq!(code, "method_not_allowed");
            assert_eq!(
                message,
                format!("method {method} is not allowed on this path")
            );
            r.rate_limit();
        }
    }
}

#[tokio::test]
async fn rate_limit_headers_are_on_every_kind_of_answer() {
    let srv = start().await;
    let c = client();
    let base = srv.base_url();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let answers = [
        (
            201,
            post_pet(&c, &srv, ENTERPRISE_KEY, r#"{"name":"Rex","categoryId":1}"#),
        ),
        (
            200,
            c.get(format!("{base}/pets")).bearer_auth(ENTERPRISE_KEY),
        ),
        (
            200,
            c.get(format!("{base}/pets/1")).bearer_auth(ENTERPRISE_KEY),
        ),
        (
            200,
            c.get(format!("{base}/store/orders"))
                .bearer_auth(ENTERPRISE_KEY),
        ),
        (400, post_pet(&c, &srv, ENTERPRISE_KEY, "{")),
        (
            400,
            c.get(format!("{base}/pets?limit=0"))
                .bearer_auth(ENTERPRISE_KEY),
        ),
        (
            404,
            c.get(format!("{base}/pets/77")).bearer_auth(ENTERPRISE_KEY),
        ),
        (
            404,
            c.get(format!("{base}/nowhere")).bearer_auth(ENTERPRISE_KEY),
        ),
        (
            405,
            c.delete(format!("{base}/pets")).bearer_auth(ENTERPRISE_KEY),
        ),
        (
            415,
            c.post(format!("{base}/pets"))
                .bearer_auth(ENTERPRISE_KEY)
                .header("content-type", "text/plain")
                .body("x"),
        ),
        (
            413,
            post_pet(&c, &srv, ENTERPRISE_KEY, &" ".repeat(2 * 1024 * 1024)),
        ),
        (401, c.get(format!("{base}/pets"))),
        (401, c.get(format!("{base}/pets")).bearer_auth("nope")),
    ];
    for (i, (status, rb)) in answers.into_iter().enumerate() {
        let r = send(rb).await;
        assert_eq!(r.status, status, "#{i}: {}", r.body);
        let (limit, remaining, reset) = r.rate_limit();
        assert!(remaining < limit, "#{i}: {remaining} of {limit}");
        // a minute's end (the test may straddle one)
        assert!(
            reset > now && reset <= now + 120 && reset % 60 == 0,
            "#{i}: reset {reset}"
        );
        if i < 11 {
            // the Enterprise key's bucket: 10,000 a minute
            assert_eq!(limit, 10_000, "#{i}");
        } else {
            // without a valid key: the client address, on the Free plan
            assert_eq!(limit, 60, "#{i}");
        }
    }
}
