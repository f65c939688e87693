//! Transport::send against a scripted server on 127.0.0.1: retries, Retry-After, bans, what is
//! never retried, rate-limit bookkeeping, deprecation warnings, and the shape generated
//! methods take (the two methods below are the worked examples of API.md, through `send_dyn`;
//! the deprecation tests call the generic `send`).

mod common;

use std::time::Duration;

use apigen_client_runtime::auth::{Credentials, SchemeKind, Secret, Security, SecurityScheme};
use apigen_client_runtime::error::{Error, SendError};
use apigen_client_runtime::request::{self, Query};
use apigen_client_runtime::response::{ApiResult, Raw};
use apigen_client_runtime::retry::RetryPolicy;
use apigen_client_runtime::transport::{
    OperationInfo, Transport, direct_for_loopback, is_loopback_url,
};
use common::{Server, capture, cut_off, direct_http, hang_up, json, refused_base_url, reply};
use http::{Method, StatusCode};
use tokio::time::Instant;
use web_time::{SystemTime, UNIX_EPOCH};

// ---- What the generator emits for the pet store (API.md's worked example) -------------------

static SCHEMES: &[SecurityScheme] = &[SecurityScheme {
    name: "bearerAuth",
    kind: SchemeKind::HttpBearer,
}];
const BEARER: Security = &[&["bearerAuth"]];

static LIST_PETS: OperationInfo = OperationInfo {
    id: "listPets",
    path: "/test",
    method: Method::GET,
    idempotent: true,
    deprecated: false,
    security: BEARER,
    idempotency_key: false,
    accept: Some("application/json"),
    content_type: "application/json",
};

static CREATE_PET: OperationInfo = OperationInfo {
    id: "createPet",
    path: "/test",
    method: Method::POST,
    idempotent: false,
    deprecated: false,
    security: BEARER,
    idempotency_key: false,
    accept: Some("application/json"),
    content_type: "application/json",
};

#[derive(Debug, PartialEq, serde::Deserialize)]
struct Pet {
    id: i64,
    name: String,
    #[serde(rename = "categoryId")]
    category_id: i64,
}

#[derive(serde::Serialize)]
struct NewPet {
    name: String,
    #[serde(rename = "categoryId")]
    category_id: i64,
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
}

#[derive(Debug, PartialEq)]
enum CreatePetError {
    BadRequest(ErrorBody),
    Unauthorized(ErrorBody),
}

struct Client {
    transport: Transport,
}

impl Client {
    #[allow(clippy::result_large_err)]
    async fn list_pets(
        &self,
        limit: Option<i64>,
        status: Option<&str>,
    ) -> ApiResult<Vec<Pet>, ListPetsError> {
        let mut query = Query::new();
        query.append_opt("limit", limit.as_ref());
        query.append_opt("status", status);
        let query = query.finish();
        let raw = self
            .transport
            .send_dyn(&LIST_PETS, SCHEMES, &|http, base| {
                http.get(request::url(base, "/pets", &query))
                    .header(http::header::ACCEPT, "application/json")
            })
            .await?;
        match raw.status.as_u16() {
            200 => raw.json(),
            401 => Err(raw.api_error(ListPetsError::Unauthorized)),
            429 => Err(raw.api_error_with(ListPetsError::TooManyRequests)),
            _ => Err(raw.unexpected()),
        }
    }

    #[allow(clippy::result_large_err)]
    async fn create_pet(&self, body: &NewPet) -> ApiResult<Pet, CreatePetError> {
        let body = request::to_json(body)?;
        let raw = self
            .transport
            .send_dyn(&CREATE_PET, SCHEMES, &|http, base| {
                request::json_body(http.post(request::url(base, "/pets", "")), &body)
                    .header(http::header::ACCEPT, "application/json")
            })
            .await?;
        match raw.status.as_u16() {
            201 => raw.json(),
            400 => Err(raw.api_error(CreatePetError::BadRequest)),
            401 => Err(raw.api_error(CreatePetError::Unauthorized)),
            _ => Err(raw.unexpected()),
        }
    }
}

// ---- Helpers --------------------------------------------------------------------------------

/// Short waits so the suite stays fast; the budget is what the Retry-After tests measure against.
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

fn client(base_url: &str, retry: RetryPolicy) -> Client {
    Client {
        transport: Transport::new(
            direct_http(),
            base_url,
            Credentials::new().with("bearerAuth", Secret::Token("key-1".into())),
            retry,
        ),
    }
}

const PETS: &str = r#"[{"id":1,"name":"Rex","categoryId":2}]"#;
const PET: &str = r#"{"id":7,"name":"Tom","categoryId":3}"#;

fn rex() -> Vec<Pet> {
    vec![Pet {
        id: 1,
        name: "Rex".into(),
        category_id: 2,
    }]
}

fn tom() -> NewPet {
    NewPet {
        name: "Tom".into(),
        category_id: 3,
    }
}

fn http_date_in(secs: u64) -> String {
    httpdate::fmt_http_date(std::time::SystemTime::now() + Duration::from_secs(secs))
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

// ---- Success and request shape --------------------------------------------------------------

#[tokio::test]
async fn get_sends_query_and_bearer_and_decodes() {
    let server = Server::start(vec![json(200, &[], PETS)]).await;
    // A trailing slash on the base URL is dropped.
    let c = client(&format!("{}/", server.base_url), fast());
    let pets = c.list_pets(Some(5), Some("available")).await.unwrap();
    assert_eq!(*pets, rex());
    assert_eq!(pets.status(), StatusCode::OK);
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].method, "GET");
    assert_eq!(requests[0].target, "/pets?limit=5&status=available");
    assert_eq!(requests[0].header("authorization"), Some("Bearer key-1"));
    assert_eq!(requests[0].header("accept"), Some("application/json"));
}

/// The default HTTP client follows no redirect: a `303` is the answer (here undocumented, so
/// `UnexpectedStatus`, its `Location` kept), and nothing is sent where it points (nexus's login
/// answers `303`, and following it sends the request to Prism's made-up place).
#[tokio::test]
async fn redirects_are_answers_not_followed() {
    let server = Server::start(vec![
        reply(303, &[("Location", "/elsewhere")], ""),
        json(200, &[], PETS),
    ])
    .await;
    let c = Client {
        transport: Transport::new(
            apigen_client_runtime::transport::default_http_client(&server.base_url).unwrap(),
            &server.base_url,
            Credentials::new().with("bearerAuth", Secret::Token("key-1".into())),
            fast(),
        ),
    };
    let err = c.list_pets(None, None).await.unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::SEE_OTHER));
    assert_eq!(
        err.headers()
            .and_then(|h| h.get("location"))
            .map(|v| v.to_str().unwrap()),
        Some("/elsewhere")
    );
    assert_eq!(server.requests().len(), 1, "the Location was not followed");
}

#[tokio::test]
async fn post_sends_json_body() {
    let server = Server::start(vec![json(201, &[], PET)]).await;
    let c = client(&server.base_url, fast());
    let pet = c.create_pet(&tom()).await.unwrap();
    assert_eq!(pet.status(), StatusCode::CREATED);
    assert_eq!(pet.id, 7);
    let requests = server.requests();
    assert_eq!(requests[0].method, "POST");
    assert_eq!(requests[0].target, "/pets");
    assert_eq!(requests[0].header("content-type"), Some("application/json"));
    assert_eq!(requests[0].body, br#"{"name":"Tom","categoryId":3}"#);
}

// `call`, what most generated methods send: the descriptor's `Accept` and `Content-Type`
// (JSON's unless a modifier says otherwise), the credentials by the transport's schemes, the
// body's bytes as they are; and no `Content-Type` without a body.
#[tokio::test]
async fn call_sends_the_descriptors_media_types() {
    const SEND_TEXT: OperationInfo = OperationInfo::put("/notes/{id}", "putNote")
        .secured(BEARER)
        .accepts(None)
        .sends("text/plain; charset=utf-8");
    const LIST: OperationInfo = OperationInfo::get("/notes", "listNotes");
    let server = Server::start(vec![json(200, &[], "{}"), json(200, &[], "[]")]).await;
    let c = client(&server.base_url, fast());
    let transport = c.transport.with_schemes(SCHEMES);
    let body = bytes::Bytes::from_static(b"hello");
    let raw = transport
        .call(&SEND_TEXT, "/notes/7", "", Some(&body))
        .await
        .unwrap();
    assert_eq!(raw.status, StatusCode::OK);
    let raw = transport
        .call(&LIST, "/notes", "q=a%20b", None)
        .await
        .unwrap();
    assert_eq!(raw.status, StatusCode::OK);
    let requests = server.requests();
    assert_eq!(requests[0].method, "PUT");
    assert_eq!(requests[0].target, "/notes/7");
    // No `Accept` of the descriptor's: reqwest's own default goes.
    assert_eq!(requests[0].header("accept"), Some("*/*"));
    assert_eq!(
        requests[0].header("content-type"),
        Some("text/plain; charset=utf-8")
    );
    assert_eq!(requests[0].header("authorization"), Some("Bearer key-1"));
    assert_eq!(requests[0].body, b"hello");
    assert_eq!(requests[1].method, "GET");
    assert_eq!(requests[1].target, "/notes?q=a%20b");
    assert_eq!(requests[1].header("accept"), Some("application/json"));
    assert_eq!(requests[1].header("content-type"), None);
    // Not secured: no credentials sent.
    assert_eq!(requests[1].header("authorization"), None);
    assert!(requests[1].body.is_empty());
}

// ---- 429 and Retry-After --------------------------------------------------------------------

// The waits below run on tokio's paused clock: `sleep` returns as soon as nothing else can
// run, and the transport's budget clock (`retry::Instant`, tokio's) moves with it, so the
// assertions bound virtual time exactly without waiting in real time. `Retry-After` dates and
// `X-RateLimit-Reset` are wall-clock times, which the paused clock does not move; the small
// real time a test takes only shortens those waits, by less than a second.

/// A policy whose budget holds the waits the paused-clock tests ask for.
fn patient() -> RetryPolicy {
    RetryPolicy {
        budget: Duration::from_secs(300),
        ..fast()
    }
}

#[tokio::test(start_paused = true)]
async fn too_many_requests_with_retry_after_seconds_then_success() {
    let server = Server::start(vec![
        reply(429, &[("Retry-After", "7")], ""),
        json(200, &[], PETS),
    ])
    .await;
    let c = client(&server.base_url, patient());
    let started = Instant::now();
    let pets = c.list_pets(None, None).await.unwrap();
    let elapsed = started.elapsed();
    assert_eq!(*pets, rex());
    assert_eq!(server.count(), 2);
    assert_eq!(elapsed.as_secs(), 7, "{elapsed:?}");
}

#[tokio::test(start_paused = true)]
async fn too_many_requests_with_http_date_then_success() {
    let server = Server::start(vec![
        reply(429, &[("Retry-After", &http_date_in(60))], ""),
        json(200, &[], PETS),
    ])
    .await;
    let c = client(&server.base_url, patient());
    let started = Instant::now();
    let pets = c.list_pets(None, None).await.unwrap();
    let elapsed = started.elapsed();
    assert_eq!(*pets, rex());
    assert_eq!(server.count(), 2);
    // An HTTP-date has whole seconds: the wait is in (59, 60] s (less the real time passed).
    assert!(
        elapsed > Duration::from_secs(57) && elapsed <= Duration::from_secs(60),
        "{elapsed:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn the_budget_counts_every_wait_of_a_call() {
    // 20 s + 20 s fit a 50 s budget; a third 20 s wait would end past it, so the third 429
    // is returned instead of a fourth attempt (max_attempts would allow it).
    let server = Server::start(
        (0..4)
            .map(|_| reply(429, &[("Retry-After", "20")], ""))
            .collect(),
    )
    .await;
    let policy = RetryPolicy {
        budget: Duration::from_secs(50),
        ..fast()
    };
    let c = client(&server.base_url, policy);
    let started = Instant::now();
    let err = c.list_pets(None, None).await.unwrap_err();
    let elapsed = started.elapsed();
    assert_eq!(err.status(), Some(StatusCode::TOO_MANY_REQUESTS));
    assert_eq!(server.count(), 3);
    assert_eq!(elapsed.as_secs(), 40, "{elapsed:?}");
}

#[tokio::test]
async fn a_post_is_retried_after_429() {
    // The rate limiter refused the request before acting on it, so resending is safe.
    let server = Server::start(vec![
        reply(429, &[("Retry-After", "0")], ""),
        json(201, &[], PET),
    ])
    .await;
    let c = client(&server.base_url, fast());
    assert_eq!(c.create_pet(&tom()).await.unwrap().id, 7);
    assert_eq!(server.count(), 2);
}

#[tokio::test(start_paused = true)]
async fn a_ban_returns_the_429_at_once() {
    let server = Server::start(vec![
        reply(429, &[("Retry-After", "900")], "banned"),
        json(200, &[], PETS),
    ])
    .await;
    // The default policy's 30 s budget cannot hold a 900 s wait.
    let c = client(&server.base_url, RetryPolicy::default());
    let started = Instant::now();
    let err = c.list_pets(None, None).await.unwrap_err();
    // On the paused clock any wait would show as whole seconds.
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(server.count(), 1);
    assert_eq!(err.api_body(), Some(&ListPetsError::TooManyRequests));
    assert_eq!(err.status(), Some(StatusCode::TOO_MANY_REQUESTS));
    let retry_after = err.retry_after().unwrap();
    assert!(retry_after > Duration::from_secs(890) && retry_after <= Duration::from_secs(900));
}

#[tokio::test]
async fn attempts_are_bounded() {
    let server = Server::start(
        (0..6)
            .map(|_| reply(429, &[("Retry-After", "0")], ""))
            .collect(),
    )
    .await;
    let c = client(&server.base_url, fast());
    let err = c.list_pets(None, None).await.unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::TOO_MANY_REQUESTS));
    assert_eq!(server.count(), 4);
}

// ---- Transient failures ---------------------------------------------------------------------

#[tokio::test]
async fn service_unavailable_then_success_for_get() {
    let server = Server::start(vec![reply(503, &[], "busy"), json(200, &[], PETS)]).await;
    let c = client(&server.base_url, fast());
    assert_eq!(*c.list_pets(None, None).await.unwrap(), rex());
    assert_eq!(server.count(), 2);
}

#[tokio::test]
async fn service_unavailable_is_not_retried_for_post() {
    let server = Server::start(vec![reply(503, &[], "busy"), json(201, &[], PET)]).await;
    let c = client(&server.base_url, fast());
    let err = c.create_pet(&tom()).await.unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::SERVICE_UNAVAILABLE));
    assert_eq!(err.body_bytes().map(|b| &b[..]), Some(&b"busy"[..]));
    assert_eq!(server.count(), 1);
}

#[tokio::test]
async fn post_is_not_retried_after_response_cut_off() {
    let server = Server::start(vec![cut_off(), json(201, &[], PET)]).await;
    let c = client(&server.base_url, fast());
    let err = c.create_pet(&tom()).await.unwrap_err();
    assert!(matches!(err, Error::Transport(_)), "{err:?}");
    assert_eq!(server.count(), 1);
}

#[tokio::test]
async fn post_is_not_retried_after_connection_closed_without_answer() {
    let server = Server::start(vec![hang_up(), json(201, &[], PET)]).await;
    let c = client(&server.base_url, fast());
    let err = c.create_pet(&tom()).await.unwrap_err();
    assert!(matches!(err, Error::Transport(_)), "{err:?}");
    assert_eq!(server.count(), 1);
}

#[tokio::test]
async fn get_is_retried_after_response_cut_off() {
    let server = Server::start(vec![cut_off(), hang_up(), json(200, &[], PETS)]).await;
    let c = client(&server.base_url, fast());
    assert_eq!(*c.list_pets(None, None).await.unwrap(), rex());
    assert_eq!(server.count(), 3);
}

#[tokio::test]
async fn connection_refused_get_retries_then_returns_transport_error() {
    let (events, _guard) = capture::start();
    let c = client(&refused_base_url(), fast());
    let err = c.list_pets(None, None).await.unwrap_err();
    match &err {
        Error::Transport(e) => assert!(e.is_connect(), "{e:?}"),
        other => panic!("{other:?}"),
    }
    assert!(std::error::Error::source(&err).is_some());
    let retries = events
        .at(tracing::Level::DEBUG)
        .into_iter()
        .filter(|m| {
            m.starts_with("retrying after transport error") && m.contains("operation=listPets")
        })
        .count();
    assert_eq!(retries, 3, "{:?}", events.all());
}

#[tokio::test]
async fn connection_refused_post_is_retried_because_nothing_was_sent() {
    let (events, _guard) = capture::start();
    let c = client(&refused_base_url(), fast());
    let err = c.create_pet(&tom()).await.unwrap_err();
    assert!(matches!(err, Error::Transport(_)));
    let retries = events
        .at(tracing::Level::DEBUG)
        .into_iter()
        .filter(|m| {
            m.starts_with("retrying after transport error") && m.contains("operation=createPet")
        })
        .count();
    assert_eq!(retries, 3);
}

#[tokio::test]
async fn no_retry_policy_sends_once() {
    let server = Server::start(vec![reply(503, &[], ""), json(200, &[], PETS)]).await;
    let c = client(&server.base_url, RetryPolicy::none());
    let err = c.list_pets(None, None).await.unwrap_err();
    assert_eq!(err.status(), Some(StatusCode::SERVICE_UNAVAILABLE));
    assert_eq!(server.count(), 1);
}

// ---- Status mapping -------------------------------------------------------------------------

#[tokio::test]
async fn documented_error_is_typed() {
    let server = Server::start(vec![json(
        401,
        &[("WWW-Authenticate", "Bearer")],
        r#"{"code":"unauthorized","message":"bad key","status":401}"#,
    )])
    .await;
    let c = client(&server.base_url, fast());
    let err = c.list_pets(None, None).await.unwrap_err();
    match err {
        Error::Api {
            status,
            body: ListPetsError::Unauthorized(body),
            ..
        } => {
            assert_eq!(status, StatusCode::UNAUTHORIZED);
            assert_eq!(body.code, "unauthorized");
            assert_eq!(body.message, "bad key");
            assert_eq!(body.status, 401);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(server.count(), 1);
}

#[tokio::test]
async fn documented_error_of_a_post_is_typed() {
    let server = Server::start(vec![json(
        400,
        &[],
        r#"{"code":"invalid","message":"name missing","status":400}"#,
    )])
    .await;
    let c = client(&server.base_url, fast());
    let err = c.create_pet(&tom()).await.unwrap_err();
    assert!(matches!(
        err.api_body(),
        Some(CreatePetError::BadRequest(ErrorBody { code, .. })) if code == "invalid"
    ));
}

#[tokio::test]
async fn undocumented_status_is_unexpected_with_body() {
    let server = Server::start(vec![reply(
        418,
        &[("Content-Type", "text/plain")],
        "teapot",
    )])
    .await;
    let c = client(&server.base_url, fast());
    match c.list_pets(None, None).await.unwrap_err() {
        Error::UnexpectedStatus {
            status,
            headers,
            body,
            ..
        } => {
            assert_eq!(status.as_u16(), 418);
            assert_eq!(headers["content-type"], "text/plain");
            assert_eq!(&body[..], b"teapot");
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn malformed_json_is_decode_error_with_bytes() {
    let server = Server::start(vec![json(200, &[], r#"[{"id":1,"name":"#)]).await;
    let c = client(&server.base_url, fast());
    match c.list_pets(None, None).await.unwrap_err() {
        Error::Decode {
            status,
            body,
            message,
            ..
        } => {
            assert_eq!(status, StatusCode::OK);
            assert_eq!(&body[..], br#"[{"id":1,"name":"#);
            assert!(!message.is_empty());
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn invalid_base_url_is_invalid_request_and_sends_nothing() {
    let c = client("not a url", fast());
    let err = c.list_pets(None, None).await.unwrap_err();
    match &err {
        Error::InvalidRequest(message) => assert!(message.contains("builder error"), "{message}"),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn invalid_secret_is_invalid_request() {
    let server = Server::start(vec![json(200, &[], PETS)]).await;
    let mut c = client(&server.base_url, fast());
    c.transport
        .credentials
        .set("bearerAuth", Secret::Token("line\nbreak".into()));
    let err = c.list_pets(None, None).await.unwrap_err();
    assert!(matches!(err, Error::InvalidRequest(_)), "{err:?}");
    assert_eq!(server.count(), 0);
}

// ---- Rate-limit state -----------------------------------------------------------------------

#[tokio::test]
async fn rate_limit_state_is_recorded() {
    let reset = (unix_now() + 600).to_string();
    let server = Server::start(vec![
        json(
            200,
            &[
                ("X-RateLimit-Limit", "60"),
                ("X-RateLimit-Remaining", "59"),
                ("X-RateLimit-Reset", &reset),
            ],
            PETS,
        ),
        // A response without the headers leaves the state as it was.
        json(200, &[], PETS),
    ])
    .await;
    let c = client(&server.base_url, fast());
    assert_eq!(c.transport.last_rate_limit(), Default::default());
    let pets = c.list_pets(None, None).await.unwrap();
    assert_eq!(pets.rate_limit().remaining, Some(59));
    c.list_pets(None, None).await.unwrap();
    let rl = c.transport.last_rate_limit();
    assert_eq!(rl.limit, Some(60));
    assert_eq!(rl.remaining, Some(59));
    assert_eq!(
        rl.reset,
        Some(UNIX_EPOCH + Duration::from_secs(reset.parse().unwrap()))
    );
}

#[tokio::test(start_paused = true)]
async fn exhausted_window_is_waited_out_before_sending() {
    let reset = unix_now() + 30;
    let server = Server::start(vec![
        json(
            200,
            &[
                ("X-RateLimit-Remaining", "0"),
                ("X-RateLimit-Reset", &reset.to_string()),
            ],
            PETS,
        ),
        json(200, &[("X-RateLimit-Remaining", "59")], PETS),
    ])
    .await;
    let c = client(&server.base_url, patient());
    c.list_pets(None, None).await.unwrap();
    let started = Instant::now();
    c.list_pets(None, None).await.unwrap();
    let elapsed = started.elapsed();
    assert_eq!(server.count(), 2);
    // The second request went out at the reset second: 30 s later, less the real time passed.
    assert!(
        elapsed > Duration::from_secs(27) && elapsed <= Duration::from_secs(30),
        "{elapsed:?}"
    );
    assert_eq!(c.transport.last_rate_limit().remaining, Some(59));
}

#[tokio::test(start_paused = true)]
async fn exhausted_window_beyond_budget_is_not_waited() {
    let reset = (unix_now() + 600).to_string();
    let server = Server::start(vec![
        json(
            200,
            &[
                ("X-RateLimit-Remaining", "0"),
                ("X-RateLimit-Reset", &reset),
            ],
            PETS,
        ),
        json(200, &[], PETS),
    ])
    .await;
    let c = client(&server.base_url, patient());
    c.list_pets(None, None).await.unwrap();
    let started = Instant::now();
    c.list_pets(None, None).await.unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(server.count(), 2);
}

#[tokio::test(start_paused = true)]
async fn exhausted_window_is_not_waited_when_switched_off() {
    let reset = (unix_now() + 30).to_string();
    let server = Server::start(vec![
        json(
            200,
            &[
                ("X-RateLimit-Remaining", "0"),
                ("X-RateLimit-Reset", &reset),
            ],
            PETS,
        ),
        json(200, &[], PETS),
    ])
    .await;
    let policy = RetryPolicy {
        wait_on_exhausted: false,
        ..patient()
    };
    let c = client(&server.base_url, policy);
    c.list_pets(None, None).await.unwrap();
    let started = Instant::now();
    c.list_pets(None, None).await.unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
}

// ---- Deprecation ----------------------------------------------------------------------------

const DEPRECATION_HEADERS: &[(&str, &str)] = &[
    ("Deprecation", "@1688169599"),
    ("Sunset", "Thu, 05 Dec 2030 00:00:00 GMT"),
    ("Link", "</v1/pets>; rel=\"successor-version\""),
];

#[tokio::test]
async fn deprecation_is_warned_once_per_operation() {
    let (events, _guard) = capture::start();
    let server = Server::start(vec![
        json(200, DEPRECATION_HEADERS, PETS),
        json(200, DEPRECATION_HEADERS, PETS),
        json(201, &[], PET),
    ])
    .await;
    let c = client(&server.base_url, fast());
    assert!(!c.transport.deprecation_warned("listPets"));
    let first = c.list_pets(None, None).await.unwrap();
    assert!(first.is_deprecated());
    assert!(c.transport.deprecation_warned("listPets"));
    // Warned by the first response that says so, not a later one.
    assert_eq!(events.at(tracing::Level::WARN).len(), 1);
    c.list_pets(None, None).await.unwrap();
    c.create_pet(&tom()).await.unwrap();
    assert!(!c.transport.deprecation_warned("createPet"));

    let warnings = events.at(tracing::Level::WARN);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].contains("`listPets` is deprecated"),
        "{}",
        warnings[0]
    );
    assert!(
        warnings[0].contains("Sunset: Thu, 05 Dec 2030 00:00:00 GMT"),
        "{}",
        warnings[0]
    );
    assert!(warnings[0].contains("successor-version"), "{}", warnings[0]);
}

#[tokio::test]
async fn operation_deprecated_in_the_document_is_warned_without_headers() {
    static GET_PET: OperationInfo = OperationInfo {
        id: "getPet",
        path: "/test",
        method: Method::GET,
        idempotent: true,
        deprecated: true,
        security: BEARER,
        idempotency_key: false,
        accept: Some("application/json"),
        content_type: "application/json",
    };
    let (events, _guard) = capture::start();
    let server = Server::start(vec![json(200, &[], PET), json(200, &[], PET)]).await;
    let c = client(&server.base_url, fast());
    for _ in 0..2 {
        let raw: Raw = c
            .transport
            .send(&GET_PET, SCHEMES, |http, base| {
                http.get(request::url(
                    base,
                    &format!("/pets/{}", request::encode_path_segment("7")),
                    "",
                ))
            })
            .await
            .unwrap();
        assert_eq!(raw.status, StatusCode::OK);
    }
    assert!(c.transport.deprecation_warned("getPet"));
    assert_eq!(events.at(tracing::Level::WARN).len(), 1);
    assert_eq!(server.requests()[0].target, "/pets/7");
}

// Generated methods are awaited inside `tokio::spawn`: the future must stay `Send` (it is one
// only because `BuildRequest` requires `Sync` builders).
#[test]
fn send_dyn_futures_are_send() {
    fn send<T: Send>(_: &T) {}
    let c = client("http://127.0.0.1:9", fast());
    let path = String::from("/pets");
    let build = |http: &reqwest::Client, base: &str| http.get(request::url(base, &path, ""));
    send(&c.transport.send_dyn(&LIST_PETS, SCHEMES, &build));
    send(&c.transport.send_streaming_dyn(&LIST_PETS, SCHEMES, &build));
    send(&c.transport.call(&LIST_PETS, &path, "", None));
}

/// A 200 whose only header is `header` (no length: the body, empty, ends with the connection).
fn only_header(header: &str) -> common::Reply {
    common::Reply(format!("HTTP/1.1 200 OK\r\n{header}\r\n\r\n").into_bytes())
}

#[tokio::test]
async fn a_deprecation_header_alone_is_warned_about() {
    let (events, _guard) = capture::start();
    let server = Server::start(vec![only_header("Deprecation: @1688169599")]).await;
    let c = client(&server.base_url, fast());
    let raw = c
        .transport
        .send(&LIST_PETS, SCHEMES, |http, base| {
            http.get(format!("{base}/pets"))
        })
        .await
        .unwrap();
    assert_eq!(raw.headers.len(), 1, "{:?}", raw.headers);
    let warnings = events.at(tracing::Level::WARN);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].contains("deprecation=@1688169599"),
        "{}",
        warnings[0]
    );
}

#[tokio::test]
async fn a_sunset_header_alone_is_warned_about() {
    let (events, _guard) = capture::start();
    let server = Server::start(vec![only_header("Sunset: Thu, 05 Dec 2030 00:00:00 GMT")]).await;
    let c = client(&server.base_url, fast());
    c.transport
        .send(&LIST_PETS, SCHEMES, |http, base| {
            http.get(format!("{base}/pets"))
        })
        .await
        .unwrap();
    assert_eq!(events.at(tracing::Level::WARN).len(), 1);
}

#[tokio::test]
async fn deprecation_headers_that_are_not_text_are_not_warned_about() {
    // Bytes outside visible ASCII (obs-text) are legal on the wire but not a date: a client
    // must not warn on what it cannot read, and must not fail the call either.
    let (events, _guard) = capture::start();
    let mut raw = reply(200, &[("Content-Type", "application/json")], PETS).0;
    let at = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 2;
    raw.splice(
        at..at,
        b"Deprecation: @\xff\r\nSunset: \xfe\r\n".iter().copied(),
    );
    let server = Server::start(vec![common::Reply(raw)]).await;
    let c = client(&server.base_url, fast());
    assert_eq!(*c.list_pets(None, None).await.unwrap(), rex());
    assert!(events.at(tracing::Level::WARN).is_empty());
    assert!(!c.transport.deprecation_warned("listPets"));
}

// ---- Errors of send itself ------------------------------------------------------------------

#[tokio::test]
async fn send_error_converts_into_any_error() {
    let c = client(&refused_base_url(), RetryPolicy::none());
    let err: SendError = c
        .transport
        .send(&LIST_PETS, SCHEMES, |http, base| {
            http.get(format!("{base}/pets"))
        })
        .await
        .unwrap_err();
    assert!(err.to_string().starts_with("transport error"));
    let typed: Error<CreatePetError> = err.into();
    assert!(matches!(typed, Error::Transport(_)));
}

// ---- Thread-safety on native targets --------------------------------------------------------

#[test]
fn transport_and_send_future_are_send_and_sync() {
    fn send_sync<T: Send + Sync>(_: &T) {}
    fn send<T: Send>(_: &T) {}
    let c = client("http://127.0.0.1:9", RetryPolicy::none());
    send_sync(&c.transport);
    // Generated methods are spawned on multi-threaded runtimes and held across awaits in axum
    // handlers, so the future must be Send (on wasm32 it need not be, and is not).
    let body = bytes::Bytes::from_static(b"{}");
    let future = c.transport.send(&CREATE_PET, SCHEMES, |http, base| {
        request::json_body(http.post(format!("{base}/pets")), &body)
    });
    send(&future);
    let list = c.list_pets(None, None);
    send(&list);
}

#[tokio::test]
async fn without_credentials_nothing_is_sent_for_auth() {
    let server = Server::start(vec![json(200, &[], PETS)]).await;
    let transport = Transport::new(direct_http(), &server.base_url, Credentials::new(), fast());
    let raw = transport
        .send(&LIST_PETS, SCHEMES, |http, base| {
            http.get(format!("{base}/pets"))
        })
        .await
        .unwrap();
    assert_eq!(raw.status, StatusCode::OK);
    // No credentials held: sent without Authorization, the server decides.
    assert_eq!(server.requests()[0].header("authorization"), None);
}

#[tokio::test(start_paused = true)]
async fn the_default_client_times_out_an_attempt_after_60_seconds() {
    // A server that accepts and never answers: the attempt ends at the client's timeout, on
    // tokio's paused clock (reqwest's timers are tokio's), so in no real time.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base_url = format!("http://{}", listener.local_addr().unwrap());
    let _held = tokio::spawn(async move {
        let mut open = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            open.push(socket);
        }
    });
    let http = apigen_client_runtime::transport::default_http_client(&base_url).unwrap();
    let started = Instant::now();
    let sent = tokio::time::timeout(
        Duration::from_secs(600),
        http.get(format!("{base_url}/pets")).send(),
    )
    .await
    .expect("the default client must time out by itself");
    let err = sent.unwrap_err();
    assert!(err.is_timeout(), "{err:?}");
    assert_eq!(started.elapsed().as_secs(), 60, "{:?}", started.elapsed());
}

// ---- Proxies --------------------------------------------------------------------------------

/// A proxy where nothing listens: a request that goes through it fails to connect.
fn dead_proxy() -> reqwest::ClientBuilder {
    let proxy = reqwest::Proxy::all(refused_base_url()).unwrap();
    reqwest::Client::builder().proxy(proxy)
}

#[tokio::test]
async fn loopback_base_url_bypasses_any_proxy() {
    let server = Server::start(vec![json(200, &[], PETS), json(200, &[], PETS)]).await;
    // Control: through the dead proxy the request fails, so the check below can fail.
    let proxied = dead_proxy().build().unwrap();
    let err = proxied
        .get(format!("{}/pets", server.base_url))
        .send()
        .await
        .unwrap_err();
    assert!(err.is_connect(), "{err:?}");
    assert_eq!(server.count(), 0);

    // The builder's other settings are kept (here a default header).
    let mut headers = http::HeaderMap::new();
    headers.insert("x-kept", http::HeaderValue::from_static("yes"));
    let direct = direct_for_loopback(dead_proxy().default_headers(headers), &server.base_url)
        .build()
        .unwrap();
    let response = direct
        .get(format!("{}/pets", server.base_url))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(server.count(), 1);
    assert_eq!(server.requests()[0].header("x-kept"), Some("yes"));
}

#[test]
fn loopback_urls_are_recognised() {
    for url in [
        "http://127.0.0.1:8080/v1",
        "http://127.1.2.3/",
        "http://[::1]:3000",
        "http://localhost:80/x",
        "https://LOCALHOST./",
        "http://api.localhost/v1",
    ] {
        assert!(is_loopback_url(url), "{url}");
    }
    for url in [
        "https://api.example.com/v1",
        "http://10.0.0.1/",
        "http://[::2]/",
        "http://localhost.example.com/",
        "http://notlocalhost/",
        "not a url",
        "",
    ] {
        assert!(!is_loopback_url(url), "{url}");
    }
}

// ---- Idempotency keys ------------------------------------------------------------------------

/// Each call of an operation declaring `Idempotency-Key` sends a quoted version 4 UUID in
/// lower-case hex (`"xxxxxxxx-xxxx-4xxx-[89ab]xxx-…"`), a different one per call.
#[tokio::test]
async fn idempotency_keys_are_quoted_v4_uuids_and_distinct() {
    static CREATE_PET: OperationInfo = OperationInfo {
        id: "createPet",
        path: "/test",
        method: Method::POST,
        idempotent: false,
        deprecated: false,
        security: BEARER,
        idempotency_key: true,
        accept: Some("application/json"),
        content_type: "application/json",
    };
    const CALLS: usize = 20;
    let server = Server::start((0..CALLS).map(|_| json(201, &[], PET)).collect()).await;
    let c = client(&server.base_url, fast());
    for _ in 0..CALLS {
        let raw: Raw = c
            .transport
            .send(&CREATE_PET, SCHEMES, |http, base| {
                http.post(request::url(base, "/pets", ""))
            })
            .await
            .unwrap();
        assert_eq!(raw.status, StatusCode::CREATED);
    }
    let mut seen = std::collections::HashSet::new();
    for recorded in server.requests() {
        let text = recorded
            .header("idempotency-key")
            .expect("a key")
            .to_owned();
        assert_eq!(text.len(), 38, "{text}");
        let inner = text
            .strip_prefix('"')
            .and_then(|t| t.strip_suffix('"'))
            .expect("quoted");
        let groups: Vec<&str> = inner.split('-').collect();
        assert_eq!(
            groups.iter().map(|g| g.len()).collect::<Vec<_>>(),
            [8, 4, 4, 4, 12],
            "{text}"
        );
        assert!(
            inner
                .bytes()
                .all(|b| b == b'-' || b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
            "{text}"
        );
        assert!(groups[2].starts_with('4'), "version 4: {text}");
        assert!(
            matches!(groups[3].as_bytes()[0], b'8' | b'9' | b'a' | b'b'),
            "RFC 4122 variant: {text}"
        );
        assert!(seen.insert(text.clone()), "repeated: {text}");
    }
    assert_eq!(seen.len(), CALLS);
}
