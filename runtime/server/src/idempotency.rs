//! Owns idempotent retries (IETF draft-ietf-httpapi-idempotency-key-header): for operations
//! whose document declares an `Idempotency-Key` header, the first completed response per
//! (caller, operation, key) is stored and replayed to every repeat; `serve` wraps such an
//! operation's handler, `IdempotencyStore` is where responses live (`InMemoryIdempotencyStore`,
//! both in `idempotency_store.rs` and public here; `RedisIdempotencyStore` with the `redis`
//! feature).
//!
//! Rules (also in the README): only requests of an authenticated caller with a key take part
//! (keys are scoped by the caller, so nobody can read another's responses); anything refused
//! before the handler runs (401, 429, a bad key) is never stored, so retrying it is honest;
//! a 5xx is not stored either (the retry runs again); every other response is kept for the
//! configured time (24 h by default). A repeat with the same method, path, query and body
//! gets the stored response with `Idempotent-Replayed: true`; the same key with anything
//! different is 422 `idempotency_key_reused`; a repeat while the first is still running is
//! 409 `idempotency_key_in_use`; a malformed key is 400 `idempotency_key_invalid`; a missing
//! one, where the operation requires it, 400 `idempotency_key_missing`.

use std::fmt;
use std::future::{Future, Ready};
use std::pin::Pin;

use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Body;
use axum::response::Response;
use http::header::{HeaderName, HeaderValue};
use http::request::Parts;
use http::{HeaderMap, StatusCode};
use sha2::{Digest, Sha256};

use super::auth::Identity;
pub use super::idempotency_store::{
    Claim, Idempotency, IdempotencyStore, InMemoryIdempotencyStore, StoredResponse,
};
use super::problem::Problem;
use super::runtime_handle::Runtime;

/// How long a completed response is kept by default: 24 hours, as Stripe does.
pub const DEFAULT_TTL: Duration = Duration::from_secs(24 * 60 * 60);

/// The longest the longest key may be (Stripe's limit).
pub const MAX_KEY_LEN: usize = 255;

static IDEMPOTENCY_KEY: HeaderName = HeaderName::from_static("idempotency-key");
static IDEMPOTENT_REPLAYED: HeaderName = HeaderName::from_static("idempotent-replayed");

/// Frees the claim if the request ends without a stored response (the handler panicked, or
/// the connection closed and the handler's future was dropped).
struct ClaimGuard<'a> {
    store: &'a dyn IdempotencyStore,
    key: &'a str,
    armed: bool,
}

impl Drop for ClaimGuard<'_> {
    fn drop(&mut self) {
        if self.armed {
            self.store.abandon(self.key);
        }
    }
}

/// Serves one request of an operation that declares `Idempotency-Key` (`operation` is its
/// id; `required`: a request without a key is refused). `serve` is the operation's handler;
/// `headers` its own response headers, as for [`Runtime::reply`].
///
/// What to do is decided before any future is made: a request without a key (most of them)
/// gets the handler's future as [`Runtime::reply_to`] wraps it, nothing more; only a request
/// with a key gets the future that claims, stores and replays, boxed, since it is large.
pub fn serve<F, Fut>(
    rt: Runtime,
    operation: &'static str,
    required: bool,
    parts: Parts,
    body: Body,
    headers: &'static [(&'static str, &'static str)],
    serve: F,
) -> Served<impl Future<Output = Response>, impl Future<Output = Response>>
where
    F: FnOnce(Parts, Body) -> Fut,
    Fut: Future<Output = Result<Response, Problem>>,
{
    match first_step(&rt, required, &parts) {
        FirstStep::Serve => Served::Direct {
            reply: rt.reply_future(Ok(()), serve(parts, body), headers),
        },
        FirstStep::Refuse(problem) => Served::Answered {
            answer: std::future::ready(rt.reply(Err(problem), headers)),
        },
        FirstStep::Keyed(key) => Served::Keyed {
            keyed: Box::pin(keyed(rt, operation, parts, body, headers, serve, key)),
        },
    }
}

pin_project_lite::pin_project! {
    /// The future of [`serve`].
    #[project = ServedProjection]
    pub enum Served<D, K> {
        /// No key: the handler, as for any operation.
        Direct { #[pin] reply: D },
        /// Refused before the handler (a bad or missing key).
        Answered { answer: Ready<Response> },
        /// A key: claimed, served, stored (or replayed).
        Keyed { keyed: Pin<Box<K>> },
    }
}

impl<D, K> Future for Served<D, K>
where
    D: Future<Output = Response>,
    K: Future<Output = Response>,
{
    type Output = Response;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Response> {
        match self.project() {
            ServedProjection::Direct { reply } => reply.poll(cx),
            ServedProjection::Answered { answer } => Pin::new(answer).poll(cx),
            ServedProjection::Keyed { keyed } => keyed.as_mut().poll(cx),
        }
    }
}

impl<D, K> fmt::Debug for Served<D, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Served::Direct { .. } => "Served::Direct",
            Served::Answered { .. } => "Served::Answered",
            Served::Keyed { .. } => "Served::Keyed",
        })
    }
}

/// What [`serve`] does with a request, decided from its head.
enum FirstStep {
    /// Straight to the handler: no key, idempotency switched off, or a request the layer
    /// refused or could not authenticate (whatever it gets is not stored).
    Serve,
    /// A bad key, or none where one is required.
    Refuse(Problem),
    /// A valid key from an authenticated caller.
    Keyed(String),
}

fn first_step(rt: &Runtime, required: bool, parts: &Parts) -> FirstStep {
    if rt.idempotency().is_none() {
        // Switched off: the key is still a declared header, checked like any other.
        return match read_key(&parts.headers) {
            Ok(_) => FirstStep::Serve,
            Err(problem) => FirstStep::Refuse(problem),
        };
    }
    let key = read_key(&parts.headers);
    // Most requests: no key, none required (the caller's look-up is skipped).
    if matches!(key, Ok(None)) && !required {
        return FirstStep::Serve;
    }
    // Refused or unauthenticated requests pass untouched (`authorize` answers them).
    if caller(parts).is_none() {
        return FirstStep::Serve;
    }
    match key {
        Ok(Some(key)) => FirstStep::Keyed(key),
        Ok(None) if required => {
            let missing = Problem::bad_request(format!(
                "this operation requires an Idempotency-Key header (1 to {MAX_KEY_LEN} characters, unique per request)"
            ));
            FirstStep::Refuse(with_code(missing, "idempotency_key_missing"))
        }
        Ok(None) => FirstStep::Serve,
        Err(problem) => FirstStep::Refuse(problem),
    }
}

/// The subject of the caller the layer authenticated and did not refuse: whose keys these are.
fn caller(parts: &Parts) -> Option<&str> {
    parts
        .extensions
        .get::<Identity>()
        .filter(|i| i.refusal().is_none())
        .and_then(|i| i.principals().first())
        .map(|p| p.subject.as_str())
}

/// [`serve`] for a request with `key`, from an authenticated caller, with idempotency on.
async fn keyed<F, Fut>(
    rt: Runtime,
    operation: &'static str,
    parts: Parts,
    body: Body,
    headers: &'static [(&'static str, &'static str)],
    serve: F,
    key: String,
) -> Response
where
    F: FnOnce(Parts, Body) -> Fut,
    Fut: Future<Output = Result<Response, Problem>>,
{
    let (Some(idem), Some(caller)) = (rt.idempotency(), caller(&parts)) else {
        // `first_step` checked both.
        return rt.reply(serve(parts, body).await, headers);
    };
    let limit = rt.body_limit();
    let Ok(bytes) = axum::body::to_bytes(body, limit).await else {
        super::observe::body_refused("too_large");
        return rt.reply(Err(Problem::payload_too_large(limit)), headers);
    };
    let fingerprint = fingerprint(&parts, &bytes);
    let scoped = scoped_key(operation, caller, &key);

    match idem.store.claim(&scoped, fingerprint).await {
        Claim::Claimed => {}
        // 409 whatever the body: once the first completes, a different one gets its 422.
        Claim::InProgress { .. } => {
            count_conflict("in_progress");
            return rt.reply(Err(conflict(true)), headers);
        }
        Claim::Done {
            fingerprint: first,
            response,
        } => {
            if first != fingerprint {
                count_conflict("different_request");
                return rt.reply(Err(conflict(false)), headers);
            }
            metrics::counter!(super::observe::METRIC_IDEMPOTENT_REPLAYS).increment(1);
            return replay(&response);
        }
        Claim::Unavailable { allow: true } => {
            return rt.reply(serve(parts, Body::from(bytes)).await, headers);
        }
        Claim::Unavailable { allow: false } => {
            let p = Problem::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "idempotency_unavailable",
                "the Idempotency-Key cannot be checked right now; retry shortly",
            )
            .with_header(http::header::RETRY_AFTER, HeaderValue::from(1u32));
            return rt.reply(Err(p), headers);
        }
    }

    let mut guard = ClaimGuard {
        store: idem.store.as_ref(),
        key: &scoped,
        armed: true,
    };
    let response = rt.reply(serve(parts, Body::from(bytes)).await, headers);
    if response.status().is_server_error() {
        return response; // the guard frees the key: a retry runs again
    }
    let (head, body) = response.into_parts();
    let Ok(body) = axum::body::to_bytes(body, usize::MAX).await else {
        tracing::error!("could not buffer a response to store it for Idempotency-Key");
        return Response::from_parts(head, Body::empty());
    };
    let stored = StoredResponse {
        status: head.status.as_u16(),
        headers: head
            .headers
            .iter()
            .filter_map(|(n, v)| Some((n.as_str().to_owned(), v.to_str().ok()?.to_owned())))
            .collect(),
        body: body.to_vec(),
    };
    idem.store
        .complete(&scoped, fingerprint, &stored, idem.ttl)
        .await;
    guard.armed = false;
    Response::from_parts(head, Body::from(body))
}

/// The client's key: a Structured Field string (`"…"`, as the draft writes it) or a bare
/// token (as Stripe takes it) of 1 to 255 visible ASCII characters other than `"` and `\`
/// (no spaces), exactly the pattern the document declares for the header, so that every
/// value the document allows is taken and every other value refused.
pub(crate) fn read_key(headers: &HeaderMap) -> Result<Option<String>, Problem> {
    let mut values = headers.get_all(&IDEMPOTENCY_KEY).iter();
    let Some(value) = values.next() else {
        return Ok(None);
    };
    let invalid = |why: &str| {
        with_code(
            Problem::bad_request(format!("invalid Idempotency-Key: {why}")),
            "idempotency_key_invalid",
        )
    };
    if values.next().is_some() {
        return Err(invalid("sent more than once"));
    }
    let text = value
        .to_str()
        .map_err(|_| invalid("not printable ASCII"))?
        .trim();
    let key = match text.strip_prefix('"') {
        Some(rest) => rest
            .strip_suffix('"')
            .filter(|k| !k.contains(['"', '\\']))
            .ok_or_else(|| invalid("unbalanced quotes"))?,
        None => text,
    };
    if key.is_empty() || key.len() > MAX_KEY_LEN {
        return Err(invalid(&format!("must be 1 to {MAX_KEY_LEN} characters")));
    }
    if !key
        .bytes()
        .all(|b| (0x21..0x7f).contains(&b) && b != b'"' && b != b'\\')
    {
        return Err(invalid(
            "only visible ASCII characters other than `\"` and `\\` are allowed",
        ));
    }
    Ok(Some(key.to_owned()))
}

/// What identifies "the same request": method, path and query, body.
fn fingerprint(parts: &Parts, body: &[u8]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(parts.method.as_str().as_bytes());
    h.update([0]);
    h.update(
        parts
            .uri
            .path_and_query()
            .map_or("", |p| p.as_str())
            .as_bytes(),
    );
    h.update([0]);
    h.update(body);
    h.finalize().into()
}

/// The store key: a hash of operation, caller (the principal's subject) and client key
/// (lengths included, so no two triples collide), in hex.
pub fn scoped_key(operation: &str, caller: &str, key: &str) -> String {
    let mut h = Sha256::new();
    for part in [operation, caller, key] {
        h.update((part.len() as u64).to_be_bytes());
        h.update(part.as_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

fn with_code(mut problem: Problem, code: &'static str) -> Problem {
    problem.code = code.into();
    problem
}

fn count_conflict(reason: &'static str) {
    metrics::counter!(super::observe::METRIC_IDEMPOTENT_CONFLICTS, "reason" => reason).increment(1);
}

/// 409 (the same request is still running) or 422 (the key came with another request).
fn conflict(same_request: bool) -> Problem {
    if same_request {
        Problem::new(
            StatusCode::CONFLICT,
            "idempotency_key_in_use",
            "a request with this Idempotency-Key is still being processed; retry later",
        )
        .with_header(http::header::RETRY_AFTER, HeaderValue::from(1u32))
    } else {
        Problem::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "idempotency_key_reused",
            "this Idempotency-Key was used for a different request",
        )
    }
}

fn replay(stored: &StoredResponse) -> Response {
    let mut response = Response::new(Body::from(stored.body.clone()));
    *response.status_mut() = StatusCode::from_u16(stored.status).unwrap_or(StatusCode::OK);
    let headers = response.headers_mut();
    for (name, value) in &stored.headers {
        if let (Ok(n), Ok(v)) = (
            HeaderName::try_from(name.as_str()),
            HeaderValue::try_from(value.as_str()),
        ) {
            headers.append(n, v);
        }
    }
    headers.insert(
        IDEMPOTENT_REPLAYED.clone(),
        HeaderValue::from_static("true"),
    );
    response
}
