//! Tests of the parts that need no network: header parsing, the retry decision table,
//! backoff and jitter, request helpers, response conversions and errors.

use std::time::Duration;

use apigen_client_runtime::error::{Error, SendError};
use apigen_client_runtime::ratelimit::{self, RateLimit};
use apigen_client_runtime::request::{self, Query, ToParam};
use apigen_client_runtime::response::{self, Raw};
use apigen_client_runtime::retry::{self, Decision, Outcome, RetryPolicy, TransportErrorKind};
use bytes::Bytes;
use http::{HeaderMap, HeaderValue, StatusCode};
use web_time::{SystemTime, UNIX_EPOCH};

fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
    let mut map = HeaderMap::new();
    for (name, value) in pairs {
        map.append(*name, HeaderValue::from_str(value).unwrap());
    }
    map
}

fn at(secs: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(secs)
}

// ---- Retry-After ----------------------------------------------------------------------------

#[test]
fn retry_after_delay_seconds() {
    let now = at(1_700_000_000);
    assert_eq!(
        ratelimit::retry_after(&headers(&[("retry-after", "120")]), now),
        Some(Duration::from_secs(120))
    );
    assert_eq!(
        ratelimit::retry_after(&headers(&[("retry-after", " 0 ")]), now),
        Some(Duration::ZERO)
    );
    // Absurdly many seconds saturate instead of vanishing: still a (very long) ban.
    assert_eq!(
        ratelimit::parse_retry_after("99999999999999999999999", now),
        Some(Duration::from_secs(u64::MAX))
    );
}

#[test]
fn retry_after_http_date() {
    // 1_700_000_000 = Tue, 14 Nov 2023 22:13:20 GMT
    let now = at(1_700_000_000);
    let value = "Tue, 14 Nov 2023 22:15:20 GMT";
    assert_eq!(
        ratelimit::retry_after(&headers(&[("retry-after", value)]), now),
        Some(Duration::from_secs(120))
    );
    // The obsolete forms RFC 9110 says recipients must accept.
    assert_eq!(
        ratelimit::parse_retry_after("Tuesday, 14-Nov-23 22:15:20 GMT", now),
        Some(Duration::from_secs(120))
    );
    assert_eq!(
        ratelimit::parse_retry_after("Tue Nov 14 22:15:20 2023", now),
        Some(Duration::from_secs(120))
    );
}

#[test]
fn retry_after_date_in_the_past_is_zero() {
    let now = at(1_700_000_000);
    assert_eq!(
        ratelimit::parse_retry_after("Tue, 14 Nov 2023 22:00:00 GMT", now),
        Some(Duration::ZERO)
    );
}

#[test]
fn retry_after_garbage_is_none() {
    let now = at(1_700_000_000);
    for value in [
        "",
        "soon",
        "-5",
        "1.5",
        "12 s",
        "Tue, 99 Nov 2023 22:00:00 GMT",
    ] {
        assert_eq!(
            ratelimit::retry_after(&headers(&[("retry-after", value)]), now),
            None,
            "{value:?}"
        );
    }
    assert_eq!(ratelimit::retry_after(&HeaderMap::new(), now), None);
    // A non-UTF-8 / opaque header value.
    let mut map = HeaderMap::new();
    map.insert("retry-after", HeaderValue::from_bytes(b"\xff\xfe").unwrap());
    assert_eq!(ratelimit::retry_after(&map, now), None);
}

// ---- X-RateLimit-* --------------------------------------------------------------------------

#[test]
fn rate_limit_headers_parse() {
    let rl = RateLimit::from_headers(&headers(&[
        ("X-RateLimit-Limit", "60"),
        ("x-ratelimit-remaining", "0"),
        ("X-RATELIMIT-RESET", "1700000060"),
    ]));
    assert_eq!(
        rl,
        RateLimit {
            limit: Some(60),
            remaining: Some(0),
            reset: Some(at(1_700_000_060)),
        }
    );
    assert!(!rl.is_empty());
    assert_eq!(
        rl.wait_until_reset(at(1_700_000_000)),
        Some(Duration::from_secs(60))
    );
    // Reset already passed, or requests remain: no wait.
    assert_eq!(rl.wait_until_reset(at(1_700_000_100)), None);
    let some_left = RateLimit {
        remaining: Some(3),
        ..rl.clone()
    };
    assert_eq!(some_left.wait_until_reset(at(1_700_000_000)), None);
}

#[test]
fn rate_limit_missing_or_garbled_is_none() {
    let empty = RateLimit::from_headers(&HeaderMap::new());
    assert_eq!(empty, RateLimit::default());
    assert!(empty.is_empty());

    let garbled = RateLimit::from_headers(&headers(&[
        ("x-ratelimit-limit", "sixty"),
        ("x-ratelimit-remaining", "-1"),
        ("x-ratelimit-reset", "2023-11-14T22:13:20Z"),
    ]));
    assert_eq!(garbled, RateLimit::default());

    let partial = RateLimit::from_headers(&headers(&[
        ("x-ratelimit-limit", "100"),
        ("x-ratelimit-remaining", ""),
    ]));
    assert_eq!(partial.limit, Some(100));
    assert_eq!(partial.remaining, None);
    assert_eq!(partial.reset, None);
    // Any one header is state worth keeping.
    assert!(!partial.is_empty());
    for one in [
        RateLimit {
            limit: Some(1),
            ..RateLimit::default()
        },
        RateLimit {
            remaining: Some(0),
            ..RateLimit::default()
        },
        RateLimit {
            reset: Some(at(1)),
            ..RateLimit::default()
        },
    ] {
        assert!(!one.is_empty(), "{one:?}");
    }
}

// ---- Backoff and jitter ---------------------------------------------------------------------

#[test]
fn policy_defaults_and_none() {
    let p = RetryPolicy::default();
    assert_eq!(p.max_attempts, 4);
    assert_eq!(p.initial_backoff, Duration::from_millis(250));
    assert_eq!(p.max_backoff, Duration::from_secs(10));
    assert_eq!(p.budget, Duration::from_secs(30));
    assert!(p.retry_transient && p.wait_on_exhausted);

    let none = RetryPolicy::none();
    assert_eq!(none.max_attempts, 1);
    assert!(!none.retry_transient && !none.wait_on_exhausted);
    let d = none.decide(
        1,
        Duration::ZERO,
        Outcome::Status(StatusCode::TOO_MANY_REQUESTS),
        true,
        Some(Duration::ZERO),
        0.5,
    );
    assert_eq!(d, Decision::GiveUp);
}

#[test]
fn backoff_ceiling_doubles_and_caps() {
    let p = RetryPolicy::default();
    let ms = |n| Duration::from_millis(n);
    assert_eq!(p.backoff_ceiling(1), ms(250));
    assert_eq!(p.backoff_ceiling(2), ms(500));
    assert_eq!(p.backoff_ceiling(3), ms(1000));
    assert_eq!(p.backoff_ceiling(6), ms(8000));
    assert_eq!(p.backoff_ceiling(7), Duration::from_secs(10));
    // No overflow however many attempts.
    assert_eq!(p.backoff_ceiling(u32::MAX), Duration::from_secs(10));
    assert_eq!(p.backoff_ceiling(0), ms(250));
}

#[test]
fn backoff_is_full_jitter_within_bounds() {
    let p = RetryPolicy::default();
    for attempt in 1..10 {
        let ceiling = p.backoff_ceiling(attempt);
        assert_eq!(p.backoff(attempt, 0.0), Duration::ZERO);
        assert_eq!(p.backoff(attempt, 0.5), ceiling / 2);
        assert!(p.backoff(attempt, 0.999_999) <= ceiling);
        // Out-of-range samples are clamped, never panic.
        assert_eq!(p.backoff(attempt, 7.0), ceiling);
        assert_eq!(p.backoff(attempt, -1.0), Duration::ZERO);
        assert_eq!(p.backoff(attempt, f64::NAN), Duration::ZERO);
        for _ in 0..50 {
            assert!(p.backoff(attempt, retry::jitter()) <= ceiling);
        }
    }
}

#[test]
fn jitter_is_in_unit_range_and_spread() {
    let samples: Vec<f64> = (0..2000).map(|_| retry::jitter()).collect();
    assert!(samples.iter().all(|j| (0.0..1.0).contains(j)));
    let mean = samples.iter().sum::<f64>() / samples.len() as f64;
    assert!((0.4..0.6).contains(&mean), "mean {mean}");
    let low = samples.iter().filter(|j| **j < 0.1).count();
    let high = samples.iter().filter(|j| **j >= 0.9).count();
    assert!(low > 100 && high > 100, "low {low} high {high}");
}

// ---- Decision table -------------------------------------------------------------------------

#[test]
fn decision_table() {
    use Decision::{GiveUp, Retry};
    use TransportErrorKind::{Connect, Other, Timeout};
    let p = RetryPolicy::default();
    let s = |code: u16| Outcome::Status(StatusCode::from_u16(code).unwrap());
    let t = Outcome::Transport;
    let secs = Duration::from_secs;
    let zero = Duration::ZERO;
    // With jitter 0.5 the first backoff is 125 ms, the second 250 ms.
    let b1 = Duration::from_millis(125);
    let b2 = Duration::from_millis(250);

    // (attempt, elapsed, outcome, idempotent, retry_after) → expected
    #[rustfmt::skip]
    let table: Vec<(u32, Duration, Outcome, bool, Option<Duration>, Decision)> = vec![
        // 429: Retry-After honoured, any method.
        (1, zero, s(429), true, Some(secs(2)), Retry(secs(2))),
        (1, zero, s(429), false, Some(secs(2)), Retry(secs(2))),
        (1, zero, s(429), false, Some(zero), Retry(zero)),
        // 429 without Retry-After: backoff.
        (1, zero, s(429), true, None, Retry(b1)),
        (2, zero, s(429), false, None, Retry(b2)),
        // 429 whose Retry-After exceeds the remaining budget (a ban): give up at once.
        (1, zero, s(429), true, Some(secs(900)), GiveUp),
        (1, secs(25), s(429), true, Some(secs(6)), GiveUp),
        (1, secs(25), s(429), true, Some(secs(5)), Retry(secs(5))),
        // Attempts exhausted.
        (4, zero, s(429), true, Some(zero), GiveUp),
        (4, zero, s(503), true, None, GiveUp),
        // 502/503/504: idempotent only; Retry-After honoured.
        (1, zero, s(502), true, None, Retry(b1)),
        (1, zero, s(503), true, None, Retry(b1)),
        (1, zero, s(504), true, None, Retry(b1)),
        (1, zero, s(503), true, Some(secs(3)), Retry(secs(3))),
        (1, zero, s(503), false, None, GiveUp),
        (1, zero, s(502), false, Some(zero), GiveUp),
        // Other statuses are answers, not failures to retry.
        (1, zero, s(500), true, None, GiveUp),
        (1, zero, s(501), true, None, GiveUp),
        (1, zero, s(400), true, None, GiveUp),
        (1, zero, s(401), true, None, GiveUp),
        (1, zero, s(404), true, None, GiveUp),
        (1, zero, s(408), true, None, GiveUp),
        (1, zero, s(200), true, None, GiveUp),
        // Connect errors: never sent, so any method.
        (1, zero, t(Connect), true, None, Retry(b1)),
        (1, zero, t(Connect), false, None, Retry(b1)),
        (3, zero, t(Connect), false, None, Retry(Duration::from_millis(500))),
        // Timeouts and broken responses: idempotent only.
        (1, zero, t(Timeout), true, None, Retry(b1)),
        (1, zero, t(Timeout), false, None, GiveUp),
        (1, zero, t(Other), true, None, Retry(b1)),
        (1, zero, t(Other), false, None, GiveUp),
        // Backoff that would overrun the budget.
        (1, secs(30), t(Connect), true, None, GiveUp),
        (1, Duration::from_millis(29_900), s(503), true, None, GiveUp),
        (1, secs(30), s(429), true, Some(zero), GiveUp),
        (1, secs(31), s(429), true, Some(zero), GiveUp),
        (1, Duration::from_millis(29_999), s(429), true, Some(zero), Retry(zero)),
    ];
    for (i, (attempt, elapsed, outcome, idempotent, retry_after, expected)) in
        table.into_iter().enumerate()
    {
        let got = p.decide(attempt, elapsed, outcome, idempotent, retry_after, 0.5);
        assert_eq!(
            got, expected,
            "row {i}: attempt {attempt}, elapsed {elapsed:?}, {outcome:?}, idempotent {idempotent}, retry-after {retry_after:?}"
        );
    }

    // retry_transient off: 429 still retried, nothing else.
    let strict = RetryPolicy {
        retry_transient: false,
        ..RetryPolicy::default()
    };
    assert_eq!(strict.decide(1, zero, s(429), true, None, 0.5), Retry(b1));
    assert_eq!(strict.decide(1, zero, s(503), true, None, 0.5), GiveUp);
    assert_eq!(strict.decide(1, zero, t(Connect), true, None, 0.5), GiveUp);
}

// ---- Request helpers ------------------------------------------------------------------------

#[test]
fn path_segments_encode_everything_reserved() {
    assert_eq!(request::encode_path_segment("abc-._~XYZ09"), "abc-._~XYZ09");
    assert_eq!(request::encode_path_segment("a/b?c#d"), "a%2Fb%3Fc%23d");
    assert_eq!(request::encode_path_segment("a b%"), "a%20b%25");
    assert_eq!(request::encode_path_segment(".."), "..");
    assert_eq!(request::encode_path_segment("ü"), "%C3%BC");
    assert_eq!(request::encode_path_segment(&42i64.to_param()), "42");
}

#[test]
fn query_building() {
    assert_eq!(Query::new().finish(), "");

    let mut q = Query::new();
    q.append("limit", &20i64)
        .append_opt("status", Some("available"))
        .append_opt::<str>("missing", None)
        .append("q", "a b&c=d")
        .append("flag", &true);
    assert_eq!(
        q.finish(),
        "limit=20&status=available&q=a%20b%26c%3Dd&flag=true"
    );

    let mut q = Query::new();
    q.append_array("tag", &["x", "y,z"], true, ',');
    q.append_array("id", &[1, 2, 3], false, ',');
    q.append_array("s", &["a", "b"], false, ' ');
    q.append_array("p", &["a", "b"], false, '|');
    q.append_array::<&str>("empty", &[], false, ',');
    q.append_array::<&str>("empty2", &[], true, ',');
    assert!(!q.is_empty());
    assert_eq!(q.finish(), "tag=x&tag=y%2Cz&id=1,2,3&s=a%20b&p=a|b");

    // A generated enum implements ToParam with its wire name.
    enum Status {
        Available,
    }
    impl ToParam for Status {
        fn to_param(&self) -> String {
            match self {
                Status::Available => "available".into(),
            }
        }
    }
    let mut q = Query::new();
    q.append_opt("status", Some(&Status::Available));
    q.append_array("statuses", &[Status::Available], false, ',');
    assert_eq!(q.finish(), "status=available&statuses=available");
}

#[test]
fn urls_join() {
    assert_eq!(request::url("http://h/v1", "/pets", ""), "http://h/v1/pets");
    assert_eq!(
        request::url("http://h/v1", "/pets", "limit=2"),
        "http://h/v1/pets?limit=2"
    );
}

#[test]
fn json_bodies_serialize_once() {
    #[derive(serde::Serialize)]
    struct NewPet<'a> {
        name: &'a str,
        #[serde(rename = "categoryId")]
        category_id: i64,
    }
    let bytes = request::to_json(&NewPet {
        name: "Rex",
        category_id: 1,
    })
    .unwrap();
    assert_eq!(&bytes[..], br#"{"name":"Rex","categoryId":1}"#);

    let client = reqwest::Client::new();
    let req = request::json_body(client.post("http://h/pets"), &bytes)
        .build()
        .unwrap();
    assert_eq!(req.headers()["content-type"], "application/json");
    assert_eq!(req.body().and_then(|b| b.as_bytes()), Some(&bytes[..]));

    // A map with non-string keys cannot be JSON: InvalidRequest, convertible with `?`.
    let bad: std::collections::BTreeMap<(i32, i32), i32> = [((1, 2), 3)].into();
    let err = request::to_json(&bad).unwrap_err();
    assert!(matches!(err, SendError::InvalidRequest(_)));
    let err: Error<()> = err.into();
    assert!(
        err.to_string()
            .starts_with("invalid request: request body serialization failed")
    );
}

// ---- Responses and errors -------------------------------------------------------------------

fn raw(status: u16, pairs: &[(&'static str, &str)], body: &'static str) -> Raw {
    Raw {
        status: StatusCode::from_u16(status).unwrap(),
        headers: headers(pairs),
        body: Bytes::from_static(body.as_bytes()),
    }
}

#[derive(Debug, PartialEq, serde::Deserialize)]
struct ErrorBody {
    code: String,
    message: String,
    status: i64,
}

#[derive(Debug, PartialEq)]
enum ListPetsError {
    Unauthorized(ErrorBody),
    TooManyRequests,
    Default(String),
}

#[test]
fn json_success_keeps_status_and_headers() {
    let value = raw(200, &[("x-ratelimit-remaining", "5")], "[1,2,3]")
        .json::<Vec<i64>, ListPetsError>()
        .unwrap();
    assert_eq!(*value, vec![1, 2, 3]);
    assert_eq!(value.len(), 3); // Deref
    assert_eq!(value.status(), StatusCode::OK);
    assert_eq!(value.rate_limit().remaining, Some(5));
    assert!(!value.is_deprecated());
    assert_eq!(value.clone().into_inner(), vec![1, 2, 3]);
    let (inner, status, headers) = value.map(|v| v.len()).into_parts();
    assert_eq!((inner, status, headers.len()), (3, StatusCode::OK, 1));
}

#[test]
fn malformed_json_is_decode_with_bytes_kept() {
    let err = raw(200, &[], "[1,2,")
        .json::<Vec<i64>, ListPetsError>()
        .unwrap_err();
    match &err {
        Error::Decode {
            status,
            body,
            message,
            ..
        } => {
            assert_eq!(*status, StatusCode::OK);
            assert_eq!(&body[..], b"[1,2,");
            assert!(message.contains("EOF"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(err.body_bytes().map(|b| &b[..]), Some(&b"[1,2,"[..]));
    assert!(
        err.to_string()
            .starts_with("could not decode the 200 OK response body")
    );
}

#[test]
fn an_array_where_an_object_is_described_is_a_decode_error() {
    // serde's sequence form of a struct (its fields in order) is not an object: refused,
    // at the top and nested, through the success and the error decoders alike.
    for body in [r#"["unauthorized", "no key", 401]"#, "[]"] {
        let err = raw(200, &[], body)
            .json::<ErrorBody, ListPetsError>()
            .unwrap_err();
        match &err {
            Error::Decode { message, .. } => assert!(
                message.contains("invalid type: sequence, expected struct ErrorBody"),
                "{message}"
            ),
            other => panic!("{body}: {other:?}"),
        }
        let err = raw(401, &[], body).api_error(ListPetsError::Unauthorized);
        assert!(matches!(err, Error::Decode { .. }), "{body}: {err:?}");
    }
    let err = raw(
        200,
        &[],
        r#"[{"code": "a", "message": "b", "status": 1}, ["a", "b", 1]]"#,
    )
    .json::<Vec<ErrorBody>, ListPetsError>()
    .unwrap_err();
    assert!(matches!(err, Error::Decode { .. }), "{err:?}");
    // An object still decodes.
    let ok = raw(200, &[], r#"{"code": "a", "message": "b", "status": 1.0}"#)
        .json::<ErrorBody, ListPetsError>()
        .unwrap();
    assert_eq!(ok.status, 1);
}

#[test]
fn other_success_forms() {
    let empty = raw(204, &[], "").empty::<()>().unwrap();
    assert_eq!(empty.status(), StatusCode::NO_CONTENT);
    assert_eq!(*raw(200, &[], "hé").text::<()>().unwrap(), "hé");
    assert_eq!(&raw(200, &[], "ab").bytes::<()>().unwrap()[..], b"ab");
    let bad_utf8 = Raw {
        body: Bytes::from_static(b"\xff"),
        ..raw(200, &[], "")
    };
    assert!(matches!(bad_utf8.text::<()>(), Err(Error::Decode { .. })));
    // Text sent as JSON (a `*/*` answer): one JSON string is that string; anything else stays
    // the text it is.
    let json = [("content-type", "application/json; charset=utf-8")];
    let quoted = raw(200, &json, r#""a \"b\"""#);
    assert_eq!(*quoted.text::<()>().unwrap(), r#"a "b""#);
    assert_eq!(*raw(200, &json, "[1]").text::<()>().unwrap(), "[1]");
    let plain = [("content-type", "text/plain")];
    assert_eq!(*raw(200, &plain, r#""q""#).text::<()>().unwrap(), r#""q""#);
}

#[test]
fn api_errors_are_typed() {
    let err = raw(
        401,
        &[("www-authenticate", "Bearer")],
        r#"{"code":"unauthorized","message":"no key","status":401}"#,
    )
    .api_error(ListPetsError::Unauthorized);
    assert_eq!(err.status(), Some(StatusCode::UNAUTHORIZED));
    assert_eq!(
        err.api_body(),
        Some(&ListPetsError::Unauthorized(ErrorBody {
            code: "unauthorized".into(),
            message: "no key".into(),
            status: 401,
        }))
    );
    assert_eq!(err.headers().unwrap()["www-authenticate"], "Bearer");
    // The server's own message, not the typed body's Debug form; the raw body is kept.
    assert_eq!(err.to_string(), "error response 401 Unauthorized: no key");
    assert_eq!(
        &err.raw_body().unwrap()[..],
        br#"{"code":"unauthorized","message":"no key","status":401}"#
    );

    // A documented status whose body does not decode.
    let err = raw(401, &[], "<html>").api_error(ListPetsError::Unauthorized);
    assert!(matches!(err, Error::Decode { .. }));

    // A documented status without a described body.
    let err = raw(429, &[("retry-after", "30")], "slow down")
        .api_error_with(ListPetsError::TooManyRequests);
    assert_eq!(err.api_body(), Some(&ListPetsError::TooManyRequests));
    assert_eq!(err.retry_after(), Some(Duration::from_secs(30)));

    // A documented status whose body the document does not describe as JSON: the text the
    // server sent is kept (lossily where it is not UTF-8), and shown by the error's message.
    let text = raw(501, &[], "not implemented: use v2").api_error_text(ListPetsError::Default);
    assert_eq!(
        text.api_body(),
        Some(&ListPetsError::Default("not implemented: use v2".into()))
    );
    assert_eq!(
        text.to_string(),
        "error response 501 Not Implemented: not implemented: use v2"
    );
    let lossy = Raw {
        body: Bytes::from_static(b"caf\xe9"),
        ..raw(500, &[], "")
    };
    assert_eq!(
        lossy.api_error_text(ListPetsError::Default).api_body(),
        Some(&ListPetsError::Default("caf\u{fffd}".into()))
    );

    // map_api changes the typed body only.
    let mapped = err.map_api(|_| "mapped");
    assert_eq!(mapped.api_body(), Some(&"mapped"));
    assert_eq!(mapped.status(), Some(StatusCode::TOO_MANY_REQUESTS));
}

#[test]
fn undocumented_status_keeps_body_and_rate_limit() {
    let err = raw(
        418,
        &[("x-ratelimit-limit", "60"), ("x-ratelimit-remaining", "59")],
        "short and stout",
    )
    .unexpected::<ListPetsError>();
    match &err {
        Error::UnexpectedStatus { status, body, .. } => {
            assert_eq!(status.as_u16(), 418);
            assert_eq!(&body[..], b"short and stout");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(err.rate_limit().limit, Some(60));
    assert_eq!(err.rate_limit().remaining, Some(59));
    assert_eq!(err.retry_after(), None);
    assert_eq!(
        err.to_string(),
        "unexpected response status 418 I'm a teapot: short and stout"
    );
    assert!(std::error::Error::source(&err).is_none());

    let long = "x".repeat(1000);
    let err = Raw {
        body: Bytes::from(long),
        ..raw(500, &[], "")
    }
    .unexpected::<()>();
    assert!(err.to_string().chars().count() < 260);
}

#[test]
fn invalid_request_has_no_response_parts() {
    let err: Error<()> = SendError::InvalidRequest("bad base url".into()).into();
    assert_eq!(err.status(), None);
    assert!(err.headers().is_none());
    assert_eq!(err.rate_limit(), RateLimit::default());
    assert_eq!(err.retry_after(), None);
    assert_eq!(err.to_string(), "invalid request: bad base url");
}

#[test]
fn deprecation_and_sunset_headers() {
    let h = headers(&[
        ("deprecation", "@1688169599"),
        ("sunset", "Thu, 05 Dec 2030 00:00:00 GMT"),
    ]);
    assert_eq!(response::deprecation_date(&h), Some(at(1_688_169_599)));
    assert_eq!(response::sunset_date(&h), Some(at(1_922_659_200)));
    let value = raw(200, &[], "1").json::<i64, ()>().unwrap();
    assert_eq!(value.deprecation(), None);
    let value = Raw {
        headers: h,
        ..raw(200, &[], "1")
    }
    .json::<i64, ()>()
    .unwrap();
    assert!(value.is_deprecated());
    assert_eq!(value.deprecation(), Some(at(1_688_169_599)));
    assert_eq!(value.sunset(), Some(at(1_922_659_200)));

    // Older drafts: an HTTP-date; garbage is None but still "deprecated".
    let h = headers(&[("deprecation", "Fri, 30 Jun 2023 23:59:59 GMT")]);
    assert_eq!(response::deprecation_date(&h), Some(at(1_688_169_599)));
    let h = headers(&[("deprecation", "?1"), ("sunset", "never")]);
    assert_eq!(response::deprecation_date(&h), None);
    assert_eq!(response::sunset_date(&h), None);
}

#[test]
fn form_bodies_flatten_one_level() {
    #[derive(serde::Serialize)]
    struct Form {
        count: u32,
        missing: Option<String>,
        name: String,
        tags: Vec<String>,
    }
    let body = apigen_client_runtime::request::to_form(&Form {
        name: "a b&c".into(),
        count: 3,
        tags: vec!["x".into(), "y".into()],
        missing: None,
    })
    .unwrap();
    // Fields in name order, so the expectation holds whether or not serde_json's
    // `preserve_order` feature is on in this build.
    assert_eq!(&body[..], b"count=3&name=a%20b%26c&tags=x&tags=y");
}

// Pagination: the `Link` header and the pieces of a page.

#[test]
fn the_next_link_is_found_among_others_and_across_header_lines() {
    use apigen_client_runtime::pages::link_next;
    let github = headers(&[(
        "link",
        "<https://api.github.com/repositories/1/issues?page=2>; rel=\"next\", <https://api.github.com/repositories/1/issues?page=5>; rel=\"last\"",
    )]);
    assert_eq!(
        link_next(&github).as_deref(),
        Some("https://api.github.com/repositories/1/issues?page=2")
    );
    // Order, spacing, case, unquoted and several relation types (RFC 8288).
    let odd = headers(&[
        ("link", "</items?page=1>; rel=prev"),
        ("link", "</items?page=3> ;title=\"x\"; REL=\"last next\""),
    ]);
    assert_eq!(link_next(&odd).as_deref(), Some("/items?page=3"));
    assert_eq!(link_next(&headers(&[("link", "</a>; rel=\"prev\"")])), None);
    assert_eq!(link_next(&headers(&[("link", "garbage")])), None);
    assert_eq!(link_next(&HeaderMap::new()), None);
}

#[test]
fn a_links_query_is_decoded_pair_by_pair() {
    use apigen_client_runtime::pages::query_pairs;
    assert_eq!(
        query_pairs("https://x.example/a?page=2&per_page=30&q=a+b%2Fc&flag#frag"),
        [
            ("page".to_string(), "2".to_string()),
            ("per_page".to_string(), "30".to_string()),
            ("q".to_string(), "a b/c".to_string()),
            ("flag".to_string(), String::new()),
        ]
    );
    assert!(query_pairs("https://x.example/a").is_empty());
}

#[test]
fn a_page_reads_its_fields_however_optional_and_an_empty_cursor_ends() {
    use apigen_client_runtime::pages::Page;
    let page = Page::new(Some(vec![1, 2]), Some(Some("n".to_string())));
    assert_eq!((page.items, page.next.as_deref()), (vec![1, 2], Some("n")));
    let last = Page::new(None::<Vec<u8>>, String::new());
    assert_eq!((last.items.len(), last.next), (0, None));
    assert_eq!(Page::new(vec![1], None::<String>).next, None);
    assert_eq!(Page::new(vec![1], None::<Option<String>>).next, None);
}

#[test]
fn has_more_decides_whether_the_last_id_is_the_next_cursor() {
    use apigen_client_runtime::pages::when;
    assert_eq!(when(true, "asst_9".to_string()).as_deref(), Some("asst_9"));
    assert_eq!(when(false, "asst_9".to_string()), None);
    assert_eq!(
        when(Some(true), Some("x".to_string())).as_deref(),
        Some("x")
    );
    assert_eq!(when(None::<bool>, Some("x".to_string())), None);
}

#[test]
fn an_undocumented_body_is_quoted_up_to_200_bytes_then_cut_with_an_ellipsis() {
    let message = |len: usize| {
        Raw {
            body: Bytes::from("y".repeat(len)),
            ..raw(500, &[], "")
        }
        .unexpected::<()>()
        .to_string()
    };
    let prefix = "unexpected response status 500 Internal Server Error: ";
    assert_eq!(message(200), format!("{prefix}{}", "y".repeat(200)));
    assert_eq!(message(201), format!("{prefix}{}…", "y".repeat(200)));
    assert_eq!(message(1000), format!("{prefix}{}…", "y".repeat(200)));
    assert_eq!(
        message(0),
        "unexpected response status 500 Internal Server Error"
    );
}

#[test]
fn a_send_errors_source_is_the_transport_error() {
    let transport = reqwest::Client::new().get("not a url").build().unwrap_err();
    let shown = transport.to_string();
    let err = SendError::Transport(transport);
    assert_eq!(err.to_string(), format!("transport error: {shown}"));
    let source = std::error::Error::source(&err).expect("the reqwest error");
    assert_eq!(source.to_string(), shown);
    assert!(std::error::Error::source(&SendError::InvalidRequest("x".into())).is_none());
}

#[test]
fn a_raw_response_reads_its_rate_limit_and_retry_after() {
    let r = raw(
        429,
        &[
            ("x-ratelimit-limit", "60"),
            ("x-ratelimit-remaining", "0"),
            ("retry-after", "30"),
        ],
        "",
    );
    assert_eq!(r.rate_limit().limit, Some(60));
    assert_eq!(r.rate_limit().remaining, Some(0));
    assert_eq!(r.retry_after(), Some(Duration::from_secs(30)));
    assert_eq!(raw(200, &[], "").retry_after(), None);
}

#[test]
fn a_response_value_shows_its_status_and_value_and_lends_its_headers() {
    let value = raw(201, &[("location", "/pets/7")], "[1,2]")
        .json::<Vec<i64>, ()>()
        .unwrap();
    assert_eq!(value.headers()["location"], "/pets/7");
    assert_eq!(
        format!("{value:?}"),
        "ResponseValue { status: 201, inner: [1, 2], .. }"
    );
}

#[test]
fn a_string_valued_type_refuses_a_non_string_saying_what_it_expected() {
    #[derive(Debug, PartialEq)]
    struct Colour(String);
    impl std::str::FromStr for Colour {
        type Err = String;
        fn from_str(s: &str) -> Result<Self, String> {
            match s {
                "red" | "blue" => Ok(Colour(s.to_owned())),
                other => Err(format!("unknown colour `{other}`")),
            }
        }
    }
    impl<'de> serde::Deserialize<'de> for Colour {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            response::from_str_value(d)
        }
    }
    assert_eq!(
        serde_json::from_str::<Colour>(r#""red""#).unwrap(),
        Colour("red".into())
    );
    let unknown = serde_json::from_str::<Colour>(r#""green""#).unwrap_err();
    assert!(
        unknown.to_string().starts_with("unknown colour `green`"),
        "{unknown}"
    );
    let number = serde_json::from_str::<Colour>("5").unwrap_err();
    assert!(
        number
            .to_string()
            .starts_with("invalid type: integer `5`, expected a string"),
        "{number}"
    );
}

/// The message a server wrote, where the usual shapes put it (`Error::server_message`).
#[test]
fn the_servers_message_is_found_in_the_usual_shapes() {
    use apigen_client_runtime::error::server_message;
    let cases: &[(&str, Option<&str>)] = &[
        (r#"{"message":"no key"}"#, Some("no key")),
        // RFC 9457 problem details: the type's title and this occurrence's detail.
        (
            r#"{"type":"about:blank","title":"Bad Request","detail":"name is empty","status":400}"#,
            Some("Bad Request: name is empty"),
        ),
        // A FastAPI application's own handler: members the schema does not name.
        (
            r#"{"exception_message":"Invalid request received.","exception_detail":[{"msg":"String should match pattern"}]}"#,
            Some("Invalid request received."),
        ),
        // FastAPI's validation errors.
        (
            r#"{"detail":[{"loc":["body","name"],"msg":"Field required","type":"missing"},{"loc":["query","limit"],"msg":"too big"}]}"#,
            Some("Field required; too big"),
        ),
        // openai's nesting.
        (
            r#"{"error":{"message":"Incorrect API key","type":"invalid_request_error"}}"#,
            Some("Incorrect API key"),
        ),
        (
            r#"{"errors":[{"title":"Invalid Attribute","detail":"x"}]}"#,
            Some("Invalid Attribute: x"),
        ),
        (r#"{"error":"not_found"}"#, Some("not_found")),
        (r#"{"code":5}"#, None),
        (r#""a bare string""#, None),
        ("<html>oops</html>", None),
        ("", None),
    ];
    for (body, expected) in cases {
        assert_eq!(
            server_message(body.as_bytes()).as_deref(),
            *expected,
            "{body}"
        );
    }
}

/// An error status the operation does not document is read as the document's error type when
/// it decodes as one (`Undocumented`), with the server's message in `Display` and the request
/// id beside it; anything else is kept raw.
#[test]
fn an_undocumented_error_status_reads_as_the_common_error_type_when_it_fits() {
    let body = r#"{"code":"conflict","message":"already there","status":409,"hint":"use PUT"}"#;
    let err = raw(409, &[("x-request-id", "req-7")], body)
        .undocumented_error(ListPetsError::Unauthorized);
    assert!(matches!(err, Error::Api { .. }), "{err:?}");
    assert_eq!(err.request_id(), Some("req-7"));
    assert_eq!(
        err.to_string(),
        "error response 409 Conflict: already there (request id req-7)"
    );
    // Members the type does not name are in the raw body.
    let kept: serde_json::Value = serde_json::from_slice(err.raw_body().unwrap()).unwrap();
    assert_eq!(kept["hint"], "use PUT");

    let err = raw(409, &[], "busy").undocumented_error(ListPetsError::Unauthorized);
    assert!(matches!(err, Error::UnexpectedStatus { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        "unexpected response status 409 Conflict: busy"
    );
    // Not an error class: kept raw whatever it holds.
    let err = raw(302, &[], body).undocumented_error(ListPetsError::Unauthorized);
    assert!(matches!(err, Error::UnexpectedStatus { .. }), "{err:?}");
    // A document's own request-id header.
    let err = raw(500, &[("x-github-request-id", "ABCD:1")], "").unexpected::<()>();
    assert_eq!(err.request_id(), Some("ABCD:1"));
}

/// A body that does not decode names the JSON pointer of the value that failed.
#[test]
fn a_decode_error_names_the_place() {
    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Inner {
        b: i64,
    }
    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Outer {
        a: Vec<Inner>,
    }
    let err = raw(200, &[], r#"{"a":[{"b":"x"}]}"#)
        .json::<Outer, ()>()
        .unwrap_err();
    match &err {
        Error::Decode { path, message, .. } => {
            assert_eq!(path, "/a/0/b");
            assert!(
                message.starts_with("invalid type: string \"x\", expected i64"),
                "{message}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(
        err.to_string()
            .starts_with("could not decode the 200 OK response body at /a/0/b: invalid type"),
        "{err}"
    );
    // A body cut off fails where the value was cut; bytes after the value are the whole
    // body's fault.
    match raw(200, &[], r#"{"a":"#).json::<Outer, ()>().unwrap_err() {
        Error::Decode { path, .. } => assert_eq!(path, "/a"),
        other => panic!("{other:?}"),
    }
    match raw(200, &[], r#"{"a":[]} x"#)
        .json::<Outer, ()>()
        .unwrap_err()
    {
        Error::Decode { path, message, .. } => {
            assert_eq!(path, "");
            assert!(message.starts_with("trailing characters"), "{message}");
        }
        other => panic!("{other:?}"),
    }
}
