//! The generated client (`petstore_client::Client`, exactly as a frontend team calls it)
//! against a scripted HTTP/1.1 server on 127.0.0.1: what it sends (credentials, path and
//! query encoding, bodies) and how it reads what comes back (values it does not know,
//! missing or garbled rate-limit headers, 429 and bans, undocumented statuses, bodies that
//! do not decode, deprecation headers).
//!
//! runtime/client/tests covers the same machinery with a hand-written client; these tests
//! check that the generated methods wire it up as the spec says.

mod common;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio::time::Instant;

use common::scripted::{Server, json, reply};
use petstore_client::client::{GetPetError, ListPetsError, ListPetsOptions};
use petstore_client::types::{NewPet, Pet, PetStatus};
use petstore_client::{Client, Error, RateLimit, RetryPolicy};

const KEY: &str = "key-1";

/// Short waits so the suite stays fast; 5 s is the budget Retry-After is measured against.
fn fast() -> RetryPolicy {
    RetryPolicy {
        max_attempts: 4,
        initial_backoff: Duration::from_millis(5),
        max_backoff: Duration::from_millis(20),
        budget: Duration::from_secs(5),
        retry_transient: true,
        wait_on_exhausted: true,
    }
}

fn client_with(server: &Server, retry: RetryPolicy) -> Client {
    Client::builder(&server.base_url)
        .bearer_auth(KEY)
        .retry_policy(retry)
        .build()
        .unwrap()
}

fn client(server: &Server) -> Client {
    client_with(server, fast())
}

const REX: &str = r#"{"id":1,"name":"Rex","categoryId":7,"status":"available"}"#;
const ERROR_429: &str = r#"{"code":"rate_limited","message":"rate limit exceeded; retry after 3 seconds","status":429}"#;
const BANNED: &str = r#"{"code":"banned","message":"temporarily banned after repeated requests over the rate limit; retry after 900 seconds","status":429}"#;

fn rex() -> Pet {
    Pet::new("Rex", 7, 1).with_status(PetStatus::Available)
}

// ---- Values this client does not know ------------------------------------------------------

#[tokio::test]
async fn a_status_this_client_does_not_know_is_kept_as_unknown() {
    let server = Server::start(vec![
        json(
            200,
            &[],
            r#"[
                {"id":1,"name":"Kit","categoryId":1,"status":"reserved"},
                {"id":2,"name":"Rex","categoryId":1,"status":"available"},
                {"id":3,"name":"Nemo","categoryId":1},
                {"id":4,"name":"Dot","categoryId":1,"status":null}
            ]"#,
        ),
        json(
            200,
            &[],
            r#"{"id":1,"name":"Kit","categoryId":1,"status":"reserved"}"#,
        ),
    ])
    .await;
    let client = client(&server);

    let pets = client.list_pets().await.unwrap();
    let statuses: Vec<Option<PetStatus>> = pets.iter().map(|p| p.status.clone()).collect();
    assert_eq!(
        statuses,
        [
            Some(PetStatus::Unknown("reserved".into())),
            Some(PetStatus::Available),
            None,
            None,
        ]
    );

    #[allow(deprecated)]
    let kit = client.get_pet(1).await.unwrap().into_inner();
    assert_eq!(kit.status, Some(PetStatus::Unknown("reserved".into())));
    // It goes back out as it came in.
    assert_eq!(kit.status.as_ref().unwrap().as_str(), "reserved");
    assert_eq!(serde_json::to_value(&kit).unwrap()["status"], "reserved");
}

#[tokio::test]
async fn fields_this_client_does_not_know_are_ignored() {
    let server = Server::start(vec![json(
        200,
        &[],
        r#"[{"id":1,"name":"Rex","categoryId":7,"status":"available","tags":["good"],"owner":{"id":3}}]"#,
    )])
    .await;
    let pets = client(&server).list_pets().await.unwrap();
    assert_eq!(pets.into_inner(), [rex()]);
}

// ---- Rate-limit headers ---------------------------------------------------------------------

#[tokio::test]
async fn rate_limit_headers_missing_or_garbled_are_none_not_errors() {
    let server = Server::start(vec![
        json(200, &[], "[]"),
        json(
            200,
            &[
                ("X-RateLimit-Limit", "lots"),
                ("X-RateLimit-Remaining", "-1"),
                ("X-RateLimit-Reset", "in five minutes"),
            ],
            "[]",
        ),
        json(
            200,
            &[
                ("X-RateLimit-Limit", "60"),
                ("X-RateLimit-Remaining", "5.5"),
                // An absolute Unix timestamp (the spec's decision), not seconds from now.
                ("X-RateLimit-Reset", "1795305660"),
            ],
            "[]",
        ),
    ])
    .await;
    let client = client(&server);

    let missing = client.list_pets().await.unwrap();
    assert_eq!(missing.rate_limit(), RateLimit::default());
    assert_eq!(client.last_rate_limit(), RateLimit::default());

    let garbled = client.list_pets().await.unwrap();
    assert_eq!(garbled.rate_limit(), RateLimit::default());
    assert!(garbled.is_empty(), "the body still decodes");

    let partial = client.list_pets().await.unwrap();
    assert_eq!(
        partial.rate_limit(),
        RateLimit {
            limit: Some(60),
            remaining: None,
            reset: Some(UNIX_EPOCH + Duration::from_secs(1_795_305_660)),
        }
    );
    assert_eq!(client.last_rate_limit(), partial.rate_limit());
    assert_eq!(server.count(), 3, "none of them was retried");
}

// ---- 429 and bans ---------------------------------------------------------------------------

// On tokio's paused clock: the client's waits and its budget clock are tokio's, so the wait
// is measured exactly and takes no real time.
#[tokio::test(start_paused = true)]
async fn too_many_requests_with_retry_after_then_success_after_one_retry() {
    let server = Server::start(vec![
        json(429, &[("Retry-After", "3")], ERROR_429),
        json(200, &[], &format!("[{REX}]")),
    ])
    .await;
    let client = client(&server);
    let started = Instant::now();
    let pets = client
        .list_pets_with(
            ListPetsOptions::default()
                .with_limit(5)
                .with_status(PetStatus::Available),
        )
        .await
        .unwrap();
    let elapsed = started.elapsed();
    assert_eq!(pets.into_inner(), [rex()]);
    assert_eq!(elapsed.as_secs(), 3, "waited Retry-After: {elapsed:?}");
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    for request in &requests {
        assert_eq!(request.target, "/v1/pets?limit=5&status=available");
        assert_eq!(request.header("authorization"), Some("Bearer key-1"));
    }
}

#[tokio::test(start_paused = true)]
async fn a_ban_longer_than_the_budget_is_returned_at_once_and_typed() {
    let server = Server::start(vec![
        json(
            429,
            &[
                ("Retry-After", "900"),
                ("X-RateLimit-Limit", "60"),
                ("X-RateLimit-Remaining", "0"),
            ],
            BANNED,
        ),
        json(200, &[], "[]"),
    ])
    .await;
    // The default policy: 30 s of budget cannot hold a 900 s wait.
    let client = client_with(&server, RetryPolicy::default());
    let started = Instant::now();
    let error = client.list_pets().await.unwrap_err();
    // On the paused clock any wait would show as whole seconds.
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(server.count(), 1);
    let retry_after = error.retry_after().unwrap();
    assert!(
        retry_after > Duration::from_secs(890) && retry_after <= Duration::from_secs(900),
        "{retry_after:?}"
    );
    assert_eq!(error.rate_limit().remaining, Some(0));
    match error {
        Error::Api {
            status,
            body: ListPetsError::TooManyRequests(e),
            ..
        } => {
            assert_eq!(status.as_u16(), 429);
            assert_eq!((e.code.as_str(), e.status), ("banned", 429));
            assert!(e.message.contains("900 seconds"), "{}", e.message);
        }
        other => panic!("expected a typed 429, got {other:?}"),
    }
}

#[tokio::test]
async fn a_429_without_the_error_body_is_a_decode_error_that_keeps_retry_after() {
    // The spec gives every 429 the Error body (our decision), but a proxy in front of the
    // service may answer in its own words: the typed variant cannot be built, the delay and
    // the bytes are still there.
    let server = Server::start(vec![reply(
        429,
        &[("Retry-After", "900"), ("Content-Type", "text/plain")],
        "slow down",
    )])
    .await;
    let error = client_with(&server, RetryPolicy::default())
        .list_orders()
        .await
        .unwrap_err();
    assert_eq!(error.status().map(|s| s.as_u16()), Some(429));
    assert!(error.retry_after().unwrap() > Duration::from_secs(890));
    match error {
        Error::Decode { body, .. } => assert_eq!(&body[..], b"slow down"),
        other => panic!("expected a decode error, got {other:?}"),
    }
}

// ---- Undocumented statuses and bodies that do not decode ------------------------------------

#[tokio::test]
async fn an_undocumented_status_is_unexpected_status_with_the_body_kept() {
    let server = Server::start(vec![reply(
        418,
        &[
            ("Content-Type", "text/plain"),
            ("X-RateLimit-Remaining", "41"),
        ],
        "I'm a teapot",
    )])
    .await;
    let error = client(&server).list_pets().await.unwrap_err();
    assert_eq!(server.count(), 1, "not retried");
    assert_eq!(error.rate_limit().remaining, Some(41));
    match error {
        Error::UnexpectedStatus {
            status,
            headers,
            body,
            ..
        } => {
            assert_eq!(status.as_u16(), 418);
            assert_eq!(headers["content-type"], "text/plain");
            assert_eq!(&body[..], b"I'm a teapot");
        }
        other => panic!("expected an unexpected status, got {other:?}"),
    }
}

/// A `3xx` is the API's answer, never followed by the client `ClientBuilder::build` makes
/// (the generated builder once made its own reqwest client, which followed nexus's `303`
/// to wherever `Location` pointed and sent the request again).
#[tokio::test]
async fn a_redirect_is_the_answer_not_followed() {
    let server = Server::start(vec![
        reply(303, &[("Location", "/elsewhere")], ""),
        json(200, &[], "[]"),
    ])
    .await;
    let error = client(&server).list_pets().await.unwrap_err();
    assert_eq!(server.count(), 1, "the Location was not followed");
    match error {
        Error::UnexpectedStatus {
            status, headers, ..
        } => {
            assert_eq!(status.as_u16(), 303);
            assert_eq!(headers["location"], "/elsewhere");
        }
        other => panic!("expected the 303 itself, got {other:?}"),
    }
}

#[tokio::test]
async fn malformed_json_in_a_success_is_a_decode_error_with_the_bytes_kept() {
    let truncated = r#"[{"id":1,"name":"Rex""#;
    let wrong_shape = r#"{"pets":[]}"#;
    let server = Server::start(vec![json(200, &[], truncated), json(200, &[], wrong_shape)]).await;
    let client = client(&server);
    for expected in [truncated, wrong_shape] {
        match client.list_pets().await {
            Err(Error::Decode {
                status,
                body,
                message,
                ..
            }) => {
                assert_eq!(status.as_u16(), 200);
                assert_eq!(&body[..], expected.as_bytes());
                assert!(!message.is_empty());
            }
            other => panic!("expected a decode error, got {other:?}"),
        }
    }
    assert_eq!(server.count(), 2, "a decode error is not retried");
}

#[tokio::test]
async fn a_documented_error_is_typed_with_the_servers_message() {
    let server = Server::start(vec![
        json(
            401,
            &[(
                "WWW-Authenticate",
                r#"Bearer realm="petstore", error="invalid_token""#,
            )],
            r#"{"code":"unauthorized","message":"missing or invalid API key","status":401}"#,
        ),
        json(
            404,
            &[
                ("Deprecation", "@1795305600"),
                ("Sunset", "Thu, 05 Dec 2030 00:00:00 GMT"),
            ],
            r#"{"code":"not_found","message":"no animal with id 42","status":404}"#,
        ),
    ])
    .await;
    let client = client(&server);
    match client.list_orders().await.unwrap_err() {
        Error::Api {
            status,
            headers,
            body: petstore_client::client::ListOrdersError::Unauthorized(e),
            ..
        } => {
            assert_eq!(status.as_u16(), 401);
            assert_eq!(e.message, "missing or invalid API key");
            assert!(
                headers["www-authenticate"]
                    .to_str()
                    .unwrap()
                    .contains("invalid_token")
            );
        }
        other => panic!("expected a typed 401, got {other:?}"),
    }
    #[allow(deprecated)]
    let error = client.get_pet(42).await.unwrap_err();
    // The deprecation headers of an error answer are there too.
    let sunset = error
        .headers()
        .and_then(petstore_client::runtime::response::sunset_date);
    assert_eq!(
        sunset,
        Some(UNIX_EPOCH + Duration::from_secs(1_922_659_200))
    );
    match error {
        Error::Api {
            body: GetPetError::NotFound(e),
            ..
        } => assert_eq!(
            (e.code.as_str(), e.message.as_str()),
            ("not_found", "no animal with id 42")
        ),
        other => panic!("expected a typed 404, got {other:?}"),
    }
}

#[tokio::test]
async fn deprecation_headers_of_get_pet_are_readable() {
    let server = Server::start(vec![json(
        200,
        &[
            ("Deprecation", "@1795305600"),
            ("Sunset", "Thu, 05 Dec 2030 00:00:00 GMT"),
            ("Link", r#"</v1/pets>; rel="successor-version""#),
        ],
        REX,
    )])
    .await;
    #[allow(deprecated)]
    let pet = client(&server).get_pet(1).await.unwrap();
    assert!(pet.is_deprecated());
    let at = |secs: u64| Some(UNIX_EPOCH + Duration::from_secs(secs));
    assert_eq!(pet.deprecation(), at(1_795_305_600)); // 2026-11-22
    assert_eq!(pet.sunset(), at(1_922_659_200)); // 2030-12-05
    assert_eq!(
        pet.headers()["link"],
        r#"</v1/pets>; rel="successor-version""#
    );
    assert!(pet.sunset().unwrap() > SystemTime::UNIX_EPOCH);
    assert_eq!(pet.into_inner(), rex());
}

// ---- What the client sends ------------------------------------------------------------------

#[tokio::test]
async fn requests_carry_the_bearer_key_and_the_spec_s_path_and_query() {
    let server = Server::start(
        std::iter::repeat_with(|| json(200, &[], "[]"))
            .take(4)
            .chain([
                json(200, &[], REX),
                json(200, &[], REX),
                json(200, &[], "[]"),
                json(201, &[], REX),
                json(201, &[], REX),
            ])
            .collect(),
    )
    .await;
    let client = client(&server);
    let list = |limit: Option<i32>, status: Option<PetStatus>| {
        ListPetsOptions::default()
            .with_limit(limit)
            .with_status(status)
    };
    client.list_pets_with(list(None, None)).await.unwrap();
    client
        .list_pets_with(list(Some(5), Some(PetStatus::Available)))
        .await
        .unwrap();
    client
        .list_pets_with(list(None, Some(PetStatus::Sold)))
        .await
        .unwrap();
    // A value the client does not know is sent as given, percent-encoded as a query value.
    client
        .list_pets_with(list(
            Some(100),
            Some(PetStatus::Unknown("on hold&x=1/2".into())),
        ))
        .await
        .unwrap();
    #[allow(deprecated)]
    {
        client.get_pet(-5).await.unwrap();
        client.get_pet(i64::MAX).await.unwrap();
    }
    client.list_orders().await.unwrap();
    client.create_pet(&NewPet::new("Rex", 7)).await.unwrap();
    client
        .create_pet(&NewPet::new("Tom & \"Jerry\"", 3).with_status(PetStatus::Pending))
        .await
        .unwrap();

    let requests = server.requests();
    let lines: Vec<String> = requests
        .iter()
        .map(|r| format!("{} {}", r.method, r.target))
        .collect();
    assert_eq!(
        lines,
        [
            "GET /v1/pets",
            "GET /v1/pets?limit=5&status=available",
            "GET /v1/pets?status=sold",
            "GET /v1/pets?limit=100&status=on%20hold%26x%3D1%2F2",
            "GET /v1/pets/-5",
            "GET /v1/pets/9223372036854775807",
            "GET /v1/store/orders",
            "POST /v1/pets",
            "POST /v1/pets",
        ]
    );
    for request in &requests {
        assert_eq!(
            request.header("authorization"),
            Some("Bearer key-1"),
            "{request:?}"
        );
        assert!(
            request
                .header("user-agent")
                .unwrap()
                .starts_with("petstore-client/"),
            "{request:?}"
        );
    }
    let body =
        |i: usize| -> serde_json::Value { serde_json::from_slice(&requests[i].body).unwrap() };
    assert_eq!(requests[7].header("content-type"), Some("application/json"));
    assert_eq!(body(7), serde_json::json!({"name": "Rex", "categoryId": 7}));
    assert_eq!(
        body(8),
        serde_json::json!({"name": "Tom & \"Jerry\"", "categoryId": 3, "status": "pending"})
    );
    assert!(requests[..7].iter().all(|r| r.body.is_empty()));
}

#[tokio::test]
async fn string_path_parameters_are_percent_encoded() {
    // The pet store's only path parameter is an int64, which never needs encoding; the test
    // fixture's generated client has a string one.
    let server = Server::start(vec![json(
        404,
        &[],
        r#"{"code":"not_found","message":"no","status":404}"#,
    )])
    .await;
    let client = library_client::Client::builder(&server.base_url)
        .library_key("lib-key")
        .retry_policy(library_client::RetryPolicy::none())
        .build()
        .unwrap();
    let _ = client.get_books_isbn("978 0/1?#%é").await;
    let requests = server.requests();
    assert_eq!(requests[0].target, "/v1/books/978%200%2F1%3F%23%25%C3%A9");
    assert_eq!(requests[0].header("x-library-key"), Some("lib-key"));
}

// ---- Real servers: statuses the document does not list, per-call options -------------------

/// A 2XX the document does not list (FastAPI answers `201` where its document says `200`) is
/// read as the operation's success type and says so; `createPet` documents `201`, and a `200`
/// reads the same way.
#[tokio::test]
async fn an_undocumented_success_status_reads_as_the_success_type() {
    let server = Server::start(vec![
        json(201, &[], &format!("[{REX}]")),
        json(200, &[], REX),
        json(200, &[], "[]"),
    ])
    .await;
    let client = client(&server);
    let pets = client.list_pets().await.unwrap();
    assert_eq!(pets.status().as_u16(), 201);
    assert!(!pets.status_documented());
    assert_eq!(*pets, vec![rex()]);
    assert_eq!(&pets.raw_body()[..], format!("[{REX}]").as_bytes());
    let created = client
        .create_pet(&NewPet::new("Rex", 7).with_status(PetStatus::Available))
        .await
        .unwrap();
    assert_eq!(
        (created.status().as_u16(), created.status_documented()),
        (200, false)
    );
    assert_eq!(created.into_inner(), rex());
    let documented = client.list_pets().await.unwrap();
    assert!(documented.status_documented());
}

/// An error keeps what the server said: a documented 422 whose body has members the schema
/// does not name, and an undocumented one whose body is not the document's error shape at
/// all (FastAPI's own handler), both show the server's message and keep the raw body.
#[tokio::test]
async fn an_error_keeps_the_servers_words_and_members_the_schema_does_not_name() {
    let fastapi = r#"{"exception_message":"Invalid request received.","exception_detail":[{"msg":"String should match pattern '^[a-z]+$'"}]}"#;
    let extra = r#"{"code":"idempotency_key_reused","message":"key used with another body","status":422,"first_seen":"2026-12-01"}"#;
    let conflict = r#"{"code":"conflict","message":"a pet of that name exists","status":409}"#;
    let server = Server::start(vec![
        json(422, &[("X-Request-Id", "req-42")], fastapi),
        json(422, &[], extra),
        json(409, &[], conflict),
    ])
    .await;
    let client = client(&server);

    let error = client.list_pets().await.unwrap_err();
    assert!(matches!(error, Error::UnexpectedStatus { .. }), "{error:?}");
    assert_eq!(
        error.to_string(),
        "unexpected response status 422 Unprocessable Entity: Invalid request received. (request id req-42)"
    );
    assert_eq!(error.request_id(), Some("req-42"));
    assert_eq!(&error.raw_body().unwrap()[..], fastapi.as_bytes());

    let error = client.create_pet(&NewPet::new("Rex", 7)).await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "error response 422 Unprocessable Entity: key used with another body"
    );
    let kept: serde_json::Value = serde_json::from_slice(error.raw_body().unwrap()).unwrap();
    assert_eq!(kept["first_seen"], "2026-12-01");

    // `listPets` lists no 409; its body is the document's error shape, so it is typed.
    match client.list_pets().await.unwrap_err() {
        Error::Api {
            status,
            body: ListPetsError::Undocumented(e),
            ..
        } => {
            assert_eq!(status.as_u16(), 409);
            assert_eq!(e.message, "a pet of that name exists");
        }
        other => panic!("expected the undocumented variant, got {other:?}"),
    }
}

/// A body that does not decode says where: the JSON pointer of the value.
#[tokio::test]
async fn a_decode_error_names_the_json_pointer() {
    let server = Server::start(vec![json(
        200,
        &[],
        r#"[{"id":1,"name":"Kit","categoryId":1},{"id":2,"name":["Rex"],"categoryId":1}]"#,
    )])
    .await;
    match client(&server).list_pets().await.unwrap_err() {
        Error::Decode { path, message, .. } => {
            assert_eq!(path, "/1/name");
            assert!(message.starts_with("invalid type: sequence"), "{message}");
        }
        other => panic!("{other:?}"),
    }
}

/// Options of one call: its own headers, query pairs, idempotency key and hooks reach the
/// wire, the client it was made from sends none of them, and a per-call timeout ends a slow
/// answer.
#[tokio::test]
async fn a_call_carries_its_own_header_query_key_and_timeout() {
    use petstore_client::RequestOptions;
    use petstore_client::runtime::options::Hook;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    struct Count(Arc<AtomicUsize>);
    impl Hook for Count {
        fn on_request(&self, request: &mut petstore_client::reqwest::Request) {
            request
                .headers_mut()
                .insert("x-signed", http::HeaderValue::from_static("yes"));
        }
        fn on_response(&self, status: http::StatusCode, _: &http::HeaderMap) {
            assert_eq!(status.as_u16(), 200);
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }
    let server = Server::start(vec![
        json(200, &[], "[]"),
        json(201, &[], REX),
        json(200, &[], "[]"),
        common::scripted::delayed(json(200, &[], "[]"), Duration::from_secs(3)),
    ])
    .await;
    let client = client(&server);
    let seen = Arc::new(AtomicUsize::new(0));
    let options = RequestOptions::new()
        .header("X-Trace", "on")
        .header("Authorization", "Bearer per-call")
        .query("beta", "a b")
        .hook(Count(Arc::clone(&seen)));
    client.with_options(options).list_pets().await.unwrap();
    assert_eq!(seen.load(Ordering::SeqCst), 1);
    client
        .with_options(RequestOptions::new().idempotency_key("key-of-mine"))
        .create_pet(&NewPet::new("Rex", 7))
        .await
        .unwrap();
    client.list_pets().await.unwrap();

    let sent = server.requests();
    assert_eq!(sent[0].header("x-trace"), Some("on"));
    assert_eq!(sent[0].header("x-signed"), Some("yes"));
    assert_eq!(sent[0].header("authorization"), Some("Bearer per-call"));
    assert_eq!(sent[0].target, "/v1/pets?beta=a+b");
    assert_eq!(sent[1].header("idempotency-key"), Some("key-of-mine"));
    // The client the options were given to is unchanged.
    assert_eq!(sent[2].header("x-trace"), None);
    assert_eq!(sent[2].header("authorization"), Some("Bearer key-1"));
    assert_eq!(sent[2].target, "/v1/pets");

    let started = Instant::now();
    let error = client
        .with_options(
            RequestOptions::new()
                .timeout(Duration::from_millis(200))
                .retry_policy(RetryPolicy::none()),
        )
        .list_pets()
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::Transport(e) if e.is_timeout()),
        "{error:?}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );

    // A header that is not one fails the call before anything is sent.
    let before = server.count();
    let error = client
        .with_options(RequestOptions::new().header("bad header", "x"))
        .list_pets()
        .await
        .unwrap_err();
    assert!(matches!(error, Error::InvalidRequest(_)), "{error:?}");
    assert_eq!(server.count(), before);
}
