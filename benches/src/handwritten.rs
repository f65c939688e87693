//! The hand-written baseline: the pet store service as a team would write it directly on axum,
//! without the generator. It does the same work as the generated router on the benchmarked
//! requests:
//!
//! - the same store, through the same interface (`petstore_service::Storage`, the reference
//!   service's database abstraction: a service that can run on SQLite or PostgreSQL as well as
//!   in memory, as the generated side's can, answers its errors with 503 or 500), and the same
//!   JSON (the same `Pet`/`Error` shapes, `application/json`);
//! - bearer authentication with the scheme name case-insensitive and the key compared in
//!   constant time (SHA-256 digests compared with `subtle`, every key checked, no early exit),
//!   401 with `WWW-Authenticate` otherwise, 400 when `Authorization` comes more than once (a
//!   proxy in front may have read the other one);
//! - the request head's size limits the generated server applies by default (8 KiB request
//!   target, 32 KiB of headers: 414 and 431, counted by the rate limit);
//! - when rate limiting is on, the same in-memory limiter and policy, the same keys
//!   (`sub:<subject>`, `addr:<ip>`), 429 with `Retry-After`, and `X-RateLimit-Limit/Remaining/Reset`
//!   on every response;
//! - `limit` parsed (default 20) and checked (1..=100), `status` checked against the enum;
//! - the body's content type, size (1 MiB) and shape checked, errors in the `Error` body;
//! - `Deprecation`, `Sunset` and `Link` on every response of `getPet`;
//! - a request id: an incoming `X-Request-Id` kept, else a new UUID made, and echoed in the
//!   answer, with `tower-http`'s request-id layers (what a team writing axum by hand uses). Its
//!   ids come from the same kind of per-thread generator as the generated runtime's (a few
//!   instructions a draw), so that the rows weigh the plumbing and not two random-number
//!   generators.
//!
//! What it leaves out is what a hand-written service would typically leave out: no problem
//! renderer hook, no collected-violations list, no request context handed to a trait. It also
//! leaves out `Idempotency-Key` (neither the header's check nor the replay): the benchmarked
//! requests carry no key, and for a request without one the generated side pays a header
//! lookup and an extension lookup, which stay in its count.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::SystemTime;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::rejection::PathRejection;
use axum::extract::{ConnectInfo, Path, Request, State};
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::get;
use http::header::{self, HeaderMap, HeaderValue};
use http::{StatusCode, Uri};
use petstore_server::runtime::ratelimit::Decision;
use petstore_server::types::{Error, NewPet, PetStatus};
use petstore_server::{InMemoryRateLimiter, RateLimitPolicy};
use petstore_service::storage::{Storage, StorageError};
use serde::Serialize;
use sha2::{Digest, Sha256};
use subtle::{ConditionallySelectable, ConstantTimeEq};
use tower_http::request_id::{
    MakeRequestId, PropagateRequestIdLayer, RequestId, SetRequestIdLayer,
};
use tower_layer::Stack;

const BODY_LIMIT: usize = 1024 * 1024;
/// The generated server's default head limits (`Limits::default()`).
const MAX_REQUEST_TARGET: usize = 8 * 1024;
const MAX_HEADER_SECTION: usize = 32 * 1024;

/// One API key: its SHA-256 digest (the key itself is not kept), subject and plan.
struct ApiKey {
    digest: [u8; 32],
    subject: String,
    plan: String,
}

struct AppState {
    store: Arc<dyn Storage>,
    keys: Vec<ApiKey>,
    limiter: Option<(InMemoryRateLimiter, RateLimitPolicy)>,
}

/// The authenticated caller, for the handlers.
#[derive(Clone)]
struct Caller {
    subject: String,
}

/// The hand-written service. `keys` are `(key, subject, plan)`; `rate_limit` switches the
/// in-memory limiter on with that policy.
pub fn app(
    store: Arc<dyn Storage>,
    keys: &[(&str, &str, &str)],
    rate_limit: Option<RateLimitPolicy>,
) -> Router {
    let state = Arc::new(AppState {
        store,
        keys: keys
            .iter()
            .map(|(key, subject, plan)| ApiKey {
                digest: Sha256::digest(key.as_bytes()).into(),
                subject: (*subject).to_owned(),
                plan: (*plan).to_owned(),
            })
            .collect(),
        limiter: rate_limit.map(|p| (InMemoryRateLimiter::for_policy(&p), p)),
    });
    Router::new()
        .route("/v1/pets", get(list_pets).post(create_pet))
        .route("/v1/pets/{petId}", get(get_pet))
        .method_not_allowed_fallback(|| async {
            error(
                StatusCode::METHOD_NOT_ALLOWED,
                "method_not_allowed",
                "method not allowed".into(),
            )
        })
        .fallback(|| async {
            error(
                StatusCode::NOT_FOUND,
                "not_found",
                "the requested resource was not found".into(),
            )
        })
        .layer(middleware::from_fn_with_state(
            state.clone(),
            authenticate_and_limit,
        ))
        // One layer of the two (as `tower::ServiceBuilder` would make it, the way tower-http's
        // documentation shows): the router clones one service around each route per request.
        .layer(Stack::new(
            PropagateRequestIdLayer::x_request_id(),
            SetRequestIdLayer::x_request_id(NewRequestId),
        ))
        .with_state(state)
}

/// Makes a version 4 UUID's text for a request without an `X-Request-Id`.
#[derive(Clone, Copy)]
struct NewRequestId;

impl MakeRequestId for NewRequestId {
    fn make_request_id<B>(&mut self, _request: &http::Request<B>) -> Option<RequestId> {
        let bits = (u128::from(random_u64()) << 64 | u128::from(random_u64()))
            & !(0xf << 76)
            & !(0x3 << 62)
            | (0x4 << 76)
            | (0x2 << 62);
        let mut text = [0u8; 36];
        let mut at = 0;
        for (i, digit) in (0..32).rev().enumerate() {
            if matches!(i, 8 | 12 | 16 | 20) {
                text[at] = b'-';
                at += 1;
            }
            text[at] = b"0123456789abcdef"[(bits >> (digit * 4)) as usize & 0xf];
            at += 1;
        }
        HeaderValue::from_bytes(&text).ok().map(RequestId::new)
    }
}

/// 64 random bits from a per-thread wyrand generator seeded from std's random hash keys.
fn random_u64() -> u64 {
    use std::hash::BuildHasher;
    thread_local! {
        static STATE: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    }
    STATE.with(|state| {
        let mut current = state.get();
        if current == 0 {
            current = std::collections::hash_map::RandomState::new()
                .hash_one(std::thread::current().id())
                | 1;
        }
        let next = current.wrapping_add(0xa076_1d64_78bd_642f);
        state.set(next);
        let product = u128::from(next) * u128::from(next ^ 0xe703_7ed1_a0b4_28db);
        (product >> 64) as u64 ^ product as u64
    })
}

impl AppState {
    /// Compares the presented key's digest with every stored digest in constant time.
    fn lookup(&self, key: &str) -> Option<&ApiKey> {
        let wanted: [u8; 32] = Sha256::digest(key.as_bytes()).into();
        let mut found = subtle::Choice::from(0);
        let mut index = 0u64;
        for (i, entry) in self.keys.iter().enumerate() {
            let eq = entry.digest.ct_eq(&wanted);
            index.conditional_assign(&(i as u64), eq);
            found |= eq;
        }
        if bool::from(found) {
            self.keys.get(index as usize)
        } else {
            None
        }
    }
}

/// `Authorization: Bearer <key>`, scheme name case-insensitive: `None` when absent, repeated
/// or another scheme, `Some("")` when the token is empty.
fn bearer(headers: &HeaderMap) -> Option<&str> {
    let mut lines = headers.get_all(header::AUTHORIZATION).iter();
    let first = lines.next()?;
    if lines.next().is_some() {
        return None;
    }
    let value = first.to_str().ok()?.trim();
    let (scheme, token) = value.split_once([' ', '\t']).unwrap_or((value, ""));
    scheme
        .eq_ignore_ascii_case("bearer")
        .then_some(token.trim())
}

async fn authenticate_and_limit(
    State(state): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    mut req: Request,
    next: Next,
) -> Response {
    let presented = bearer(req.headers());
    let key = presented
        .filter(|t| !t.is_empty())
        .and_then(|t| state.lookup(t));

    let decision = state.limiter.as_ref().and_then(|(limiter, policy)| {
        let (rate_key, quota) = match key {
            Some(k) => (format!("sub:{}", k.subject), policy.quota(Some(&k.plan))),
            None => (format!("addr:{}", peer.ip()), policy.anonymous_quota()),
        };
        quota.map(|q| limiter.check_now(&rate_key, q, SystemTime::now()))
    });
    // The caller and the limiter's answer on the request's span, as the generated gate
    // records them (a no-op without a subscriber; `observed.rs` makes the span).
    let span = tracing::Span::current();
    if let Some(k) = key {
        span.record("enduser.id", k.subject.as_str());
        span.record("apigen.plan", k.plan.as_str());
    }
    if let Some(d) = &decision {
        span.record(
            "apigen.rate_limit",
            if d.allowed { "allowed" } else { "limited" },
        );
    }

    let mut resp = match (&decision, key) {
        (Some(d), _) if !d.allowed => {
            let (code, message) = if d.banned {
                ("banned", "the API key is temporarily banned")
            } else {
                ("rate_limited", "too many requests")
            };
            let mut resp = error(StatusCode::TOO_MANY_REQUESTS, code, message.into());
            resp.headers_mut().insert(
                header::RETRY_AFTER,
                HeaderValue::from(d.retry_after_secs.unwrap_or(1)),
            );
            resp
        }
        // Counted by the limiter, like every request, but no route sees it.
        _ if let Some(resp) = too_large(&req) => resp,
        (_, None)
            if req
                .headers()
                .get_all(header::AUTHORIZATION)
                .iter()
                .nth(1)
                .is_some() =>
        {
            bad_request("Authorization: credential given more than once; send exactly one".into())
        }
        (_, None) => {
            let mut resp = error(
                StatusCode::UNAUTHORIZED,
                "unauthorized",
                if presented.is_some() {
                    "the credentials are not valid".into()
                } else {
                    "authentication is required".into()
                },
            );
            let challenge = if presented.is_some() {
                "Bearer realm=\"api\", error=\"invalid_token\""
            } else {
                "Bearer realm=\"api\""
            };
            resp.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static(challenge),
            );
            resp
        }
        (_, Some(k)) => {
            req.extensions_mut().insert(Caller {
                subject: k.subject.clone(),
            });
            next.run(req).await
        }
    };
    if let Some(d) = &decision {
        rate_limit_headers(resp.headers_mut(), d);
    }
    resp
}

/// 414 or 431 for a request head over the limits.
fn too_large(req: &Request) -> Option<Response> {
    let target = req.uri().path_and_query().map_or(0, |p| p.as_str().len());
    if target > MAX_REQUEST_TARGET {
        return Some(error(
            StatusCode::URI_TOO_LONG,
            "uri_too_long",
            format!("the request target is {target} bytes, over the limit"),
        ));
    }
    let section: usize = req
        .headers()
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len() + 4)
        .sum();
    (section > MAX_HEADER_SECTION).then(|| {
        error(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            "header_fields_too_large",
            format!("the request headers are {section} bytes, over the limit"),
        )
    })
}

/// A database failure: 503 with `Retry-After` while it cannot be reached, else 500.
fn storage_error(e: StorageError) -> Response {
    if e.is_unavailable() {
        tracing::warn!(error = %e, "database unavailable");
        let mut resp = error(
            StatusCode::SERVICE_UNAVAILABLE,
            "database_unavailable",
            "the database cannot be reached right now; retry shortly".into(),
        );
        resp.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(1u32));
        resp
    } else {
        tracing::error!(error = %e, "handler failed");
        error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal_error",
            "internal server error".into(),
        )
    }
}

fn rate_limit_headers(headers: &mut HeaderMap, d: &Decision) {
    headers.insert("x-ratelimit-limit", HeaderValue::from(d.limit));
    headers.insert("x-ratelimit-remaining", HeaderValue::from(d.remaining));
    headers.insert("x-ratelimit-reset", HeaderValue::from(d.reset_unix));
}

fn json<T: Serialize>(status: StatusCode, body: &T) -> Response {
    match serde_json::to_vec(body) {
        Ok(bytes) => {
            let mut resp = Response::new(Body::from(bytes));
            *resp.status_mut() = status;
            resp.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            resp
        }
        Err(e) => {
            tracing::error!(error = %e, "failed to serialize a response body");
            error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal_error",
                "internal server error".into(),
            )
        }
    }
}

fn error(status: StatusCode, code: &str, message: String) -> Response {
    json(
        status,
        &Error {
            code: code.to_owned(),
            message,
            status: i32::from(status.as_u16()),
        },
    )
}

fn bad_request(message: String) -> Response {
    error(StatusCode::BAD_REQUEST, "bad_request", message)
}

/// `GET /v1/pets?limit=&status=`
async fn list_pets(State(state): State<Arc<AppState>>, uri: Uri) -> Response {
    let mut limit: Option<i32> = None;
    let mut status: Option<Option<PetStatus>> = None;
    let mut problems = Vec::new();
    for (name, value) in form_urlencoded::parse(uri.query().unwrap_or("").as_bytes()) {
        match &*name {
            "limit" if limit.is_none() => match value.parse::<i32>() {
                Ok(n) if (1..=100).contains(&n) => limit = Some(n),
                Ok(n) => {
                    limit = Some(20);
                    problems.push(format!("query/limit: must be between 1 and 100, got {n}"));
                }
                Err(_) => {
                    limit = Some(20);
                    problems.push(format!(
                        "query/limit: expected an integer (int32), got {value:?}"
                    ));
                }
            },
            "status" if status.is_none() => {
                status = Some(match &*value {
                    "available" => Some(PetStatus::Available),
                    "pending" => Some(PetStatus::Pending),
                    "sold" => Some(PetStatus::Sold),
                    other => {
                        problems.push(format!(
                            "query/status: expected one of `available`, `pending`, `sold`, got `{other}`"
                        ));
                        None
                    }
                })
            }
            _ => {}
        }
    }
    if !problems.is_empty() {
        return bad_request(problems.join("; "));
    }
    let limit = limit.unwrap_or(20) as usize;
    match state.store.list(status.flatten(), limit).await {
        Ok(pets) => json(StatusCode::OK, &pets),
        Err(e) => storage_error(e),
    }
}

/// `POST /v1/pets` with an `application/json` `NewPet`.
async fn create_pet(State(state): State<Arc<AppState>>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let json_type = parts
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| {
            v.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase()
        })
        .is_some_and(|m| m == "application/json" || m.ends_with("+json"));
    if !json_type {
        return error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "expected application/json".into(),
        );
    }
    let bytes: Bytes = match axum::body::to_bytes(body, BODY_LIMIT).await {
        Ok(b) => b,
        Err(_) => {
            return error(
                StatusCode::PAYLOAD_TOO_LARGE,
                "payload_too_large",
                format!("the request body is larger than {BODY_LIMIT} bytes"),
            );
        }
    };
    if bytes.is_empty() {
        return bad_request("the request body is required".into());
    }
    let new: NewPet = match serde_json::from_slice(&bytes) {
        Ok(n) => n,
        Err(e) => return bad_request(format!("invalid body: {e}")),
    };
    let pet = match state.store.add(new).await {
        Ok(pet) => pet,
        Err(e) => return storage_error(e),
    };
    tracing::debug!(
        id = pet.id,
        by = parts.extensions.get::<Caller>().map(|c| c.subject.as_str()),
        "pet added"
    );
    json(StatusCode::CREATED, &pet)
}

/// `GET /v1/pets/{petId}` (deprecated: `Deprecation`, `Sunset`, `Link` on every response).
async fn get_pet(
    State(state): State<Arc<AppState>>,
    id: Result<Path<i64>, PathRejection>,
) -> Response {
    let mut resp = match id {
        Ok(Path(id)) => match state.store.get(id).await {
            Ok(Some(pet)) => json(StatusCode::OK, &pet),
            Ok(None) => error(
                StatusCode::NOT_FOUND,
                "not_found",
                format!("no animal with id {id}"),
            ),
            Err(e) => storage_error(e),
        },
        Err(e) => bad_request(format!("path/petId: {e}")),
    };
    let headers = resp.headers_mut();
    headers.append("deprecation", HeaderValue::from_static("@1795305600"));
    headers.append(
        "sunset",
        HeaderValue::from_static("Thu, 05 Dec 2030 00:00:00 GMT"),
    );
    headers.append(
        "link",
        HeaderValue::from_static("</v1/pets>; rel=\"successor-version\""),
    );
    resp
}
