//! Owns idempotent retries (IETF draft-ietf-httpapi-idempotency-key-header): for operations
//! whose document declares an `Idempotency-Key` header, the first completed response per
//! (caller, operation, key) is stored and replayed to every repeat; `serve` wraps such an
//! operation's handler, `IdempotencyStore` is where responses live (`InMemoryIdempotencyStore`,
//! both in `idempotency_store.rs` and public here; `RedisIdempotencyStore` with the `redis`
//! feature).
//!
//! Rules (also in book/src/guide/production.md): the key's syntax, and whether one is required, are the
//! document's: the handler reads the header as it reads any other and answers a key the
//! document refuses, or a missing one it requires, with its 400 (after authorizing), and such a
//! request never takes part in replay. What this module adds is the draft's replay, and only
//! where the server's configuration has it on (`ServerConfig::without_idempotency` turns it
//! off; the mock program has it off unless asked): only requests of an authenticated caller
//! with a key take part (keys are scoped by the caller, so nobody can read another's
//! responses); anything refused before the handler runs (401, 429) is never stored, so
//! retrying it is honest; a 5xx is not stored either (the retry runs again); every other
//! response is kept for the configured time (24 h by default). A repeat with the same method,
//! path, query and body gets the stored response with `Idempotent-Replayed: true`; the same key
//! with anything different is 422 `idempotency_key_reused`; a repeat while the first is still
//! running is 409 `idempotency_key_in_use` (the draft's answers).

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

/// The longest key [`serve`]'s former rule takes (Stripe's limit); generated code holds the key
/// to the document's rules.
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
/// id; `replayable`: the request's key, if any, is one the document's rules take, and none is
/// missing that they require: the handler answers the others). `serve` is the operation's
/// handler; `headers` its own response headers, as for [`Runtime::reply`].
///
/// What to do is decided before any future is made: a request without a key (most of them)
/// gets the handler's future as [`Runtime::reply_to`] wraps it, nothing more; only a request
/// with a key gets the future that claims, stores and replays, boxed, since it is large.
pub fn serve_replayable<F, Fut>(
    rt: Runtime,
    operation: &'static str,
    replayable: bool,
    parts: Parts,
    body: Body,
    headers: &'static [(&'static str, &'static str)],
    serve: F,
) -> Served<impl Future<Output = Response>, impl Future<Output = Response>>
where
    F: FnOnce(Parts, Body) -> Fut,
    Fut: Future<Output = Result<Response, Problem>>,
{
    let step = match keyed_by(&rt, replayable, &parts) {
        Some(key) => FirstStep::Keyed(key),
        None => FirstStep::Serve,
    };
    take(step, rt, operation, parts, body, headers, serve)
}

/// What code generated before the document's rules read the key calls (the runtime's
/// public API only grows within 0.1): the key is checked by the runtime's former rule, 1 to
/// [`MAX_KEY_LEN`] visible ASCII characters other than `"` and `\`, quoted or bare, and a
/// missing one refused where `required`; then as [`serve_replayable`]. Generated code calls
/// [`serve_replayable`] instead.
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
    let step = match former_key_rule(&parts.headers, required) {
        Err(problem) => FirstStep::Refuse(problem),
        Ok(()) => match keyed_by(&rt, true, &parts) {
            Some(key) => FirstStep::Keyed(key),
            None => FirstStep::Serve,
        },
    };
    take(step, rt, operation, parts, body, headers, serve)
}

/// What [`serve`] and [`serve_replayable`] do with a request, decided from its head.
enum FirstStep {
    /// Straight to the handler.
    Serve,
    /// Refused before the handler (only by [`serve`]'s former key rule).
    Refuse(Problem),
    /// A key from an authenticated caller, with replay on.
    Keyed(String),
}

fn take<F, Fut>(
    step: FirstStep,
    rt: Runtime,
    operation: &'static str,
    parts: Parts,
    body: Body,
    headers: &'static [(&'static str, &'static str)],
    serve: F,
) -> Served<impl Future<Output = Response>, impl Future<Output = Response>>
where
    F: FnOnce(Parts, Body) -> Fut,
    Fut: Future<Output = Result<Response, Problem>>,
{
    match step {
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
    // pin_project_lite takes no docs on fields; each variant's doc says what it holds.
    #[allow(missing_docs)]
    #[project = ServedProjection]
    pub enum Served<D, K> {
        /// No key: the handler, as for any operation.
        Direct { #[pin] reply: D },
        /// Refused before the handler ([`serve`]'s former key rule).
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

/// Whether the request carries an `Idempotency-Key` header: a handler whose document makes the
/// key optional reads and checks it only then (most requests have none, and a missing optional
/// key breaks no rule).
pub fn has_key(parts: &Parts) -> bool {
    parts.headers.contains_key(&IDEMPOTENCY_KEY)
}

/// The key a request is served under, with replay (decided from its head), or `None`: straight
/// to the handler, for a request without a key, with one the document refuses (the handler
/// answers it), with replay switched off, or of a caller the layer refused or could not
/// authenticate (whatever it gets is not stored).
fn keyed_by(rt: &Runtime, replayable: bool, parts: &Parts) -> Option<String> {
    if !replayable {
        return None;
    }
    rt.idempotency()?;
    let key = read_key(&parts.headers)?;
    caller(parts)?;
    Some(key)
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

/// The client's key, as the document's checks took it: a Structured Field string (`"…"`, as
/// the draft writes it) is the text between its quotes, anything else the value as sent (as
/// Stripe takes it). Only its hash is stored, so its length and bytes are the document's
/// business.
pub(crate) fn read_key(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(&IDEMPOTENCY_KEY)?;
    let text = String::from_utf8_lossy(value.as_bytes());
    let text = text.trim();
    let key = text
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
        .unwrap_or(text);
    Some(key.to_owned())
}

/// [`serve`]'s former rule for the key (see there).
fn former_key_rule(headers: &HeaderMap, required: bool) -> Result<(), Problem> {
    let refuse = |code: &'static str, message: String| {
        let mut problem = Problem::bad_request(message);
        problem.code = code.into();
        Err(problem)
    };
    let mut values = headers.get_all(&IDEMPOTENCY_KEY).iter();
    let Some(value) = values.next() else {
        return match required {
            true => refuse(
                "idempotency_key_missing",
                format!(
                    "this operation requires an Idempotency-Key header (1 to {MAX_KEY_LEN} characters, unique per request)"
                ),
            ),
            false => Ok(()),
        };
    };
    let bytes = value.as_bytes();
    let key = match bytes {
        [b'"', inner @ .., b'"'] => inner,
        _ => bytes,
    };
    let visible = |b: &u8| (0x21..0x7f).contains(b) && *b != b'"' && *b != b'\\';
    if values.next().is_some()
        || key.is_empty()
        || key.len() > MAX_KEY_LEN
        || !key.iter().all(visible)
    {
        return refuse(
            "idempotency_key_invalid",
            format!(
                "invalid Idempotency-Key: 1 to {MAX_KEY_LEN} visible ASCII characters other than `\"` and `\\`, sent once"
            ),
        );
    }
    Ok(())
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
