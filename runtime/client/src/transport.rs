//! Transport: the one place around sending. Credentials, retries and waits, rate-limit
//! bookkeeping and deprecation warnings all happen in [`Transport::send`] and nowhere else.
//!
//! Decisions:
//! `docs/decisions/0013-client-requests-built-by-the-runtime.md`,
//! `docs/decisions/0018-clients-against-real-servers.md`,
//! `docs/decisions/0022-proxies-and-loopback.md`.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use bytes::Bytes;
use http::header::HeaderName;
use web_time::SystemTime;

use super::auth::{self, Credentials, Security, SecurityScheme};
use super::error::{Error, SendError};
use super::options::RequestOptions;
use super::progress::OnProgress;
#[cfg(not(target_arch = "wasm32"))]
use super::progress::{Direction, UPLOAD_REPORTED_FROM};
use super::random;
use super::ratelimit::{self, RateLimit};
use super::response::{DEPRECATION, Errors, Raw, ResponseValue, SUNSET};
use super::retry::{self, Decision, Instant, Outcome, RetryPolicy, TransportErrorKind};
use super::stream::{Resume, Streamed};
use super::trace;
use tracing::Instrument;

/// One attempt's response: read whole, or (a success of a streamed operation) not yet read,
/// with what resuming it takes.
enum Received {
    Complete(Raw),
    // Boxed: the request kept for resuming is large, and most answers are not streams.
    Live(reqwest::Response, Option<Box<Resume>>),
}

/// What [`Transport::send`] needs to know about an operation; the generator emits one static
/// per operation.
#[derive(Clone, Debug)]
pub struct OperationInfo {
    /// The `operationId`.
    pub id: &'static str,
    /// The document's path template (`/pets/{petId}`): the call span's `url.template`.
    pub path: &'static str,
    /// The HTTP method.
    pub method: http::Method,
    /// Whether sending twice has the effect of sending once (GET, HEAD, PUT, DELETE, OPTIONS,
    /// TRACE); decides which failures are retried.
    pub idempotent: bool,
    /// `deprecated: true` in the document.
    pub deprecated: bool,
    /// The security requirement: which schemes' credentials go with the request.
    pub security: Security,
    /// The operation declares an `Idempotency-Key` header: every call sends a fresh key, the
    /// same on each of its retries, so the server runs it once however often it arrives; its
    /// requests are then retried like idempotent ones (and a 409, "the first attempt is still
    /// running", like a 503).
    pub idempotency_key: bool,
    /// The `Accept` [`Transport::call`] sends: the media types the operation's answers are
    /// read as, or `None` for no header (`Some("application/json")` unless said otherwise).
    pub accept: Option<&'static str>,
    /// The `Content-Type` of the body [`Transport::call`] sends (`application/json` unless
    /// said otherwise); unused without a body.
    pub content_type: &'static str,
}

/// An operation of a standard method, as generated code declares it:
/// `OperationInfo::get("/pets/{petId}", "getPet").secured(&[&["bearerAuth"]])`. The method
/// says whether it is idempotent; the rest starts off (not deprecated, no security, no
/// `Idempotency-Key`, JSON accepted and sent) and the modifiers say otherwise.
impl OperationInfo {
    const fn standard(
        method: http::Method,
        idempotent: bool,
        path: &'static str,
        id: &'static str,
    ) -> Self {
        OperationInfo {
            id,
            path,
            method,
            idempotent,
            deprecated: false,
            security: &[],
            idempotency_key: false,
            accept: Some(JSON_MEDIA),
            content_type: JSON_MEDIA,
        }
    }

    /// A `GET` operation (idempotent).
    pub const fn get(path: &'static str, id: &'static str) -> Self {
        Self::standard(http::Method::GET, true, path, id)
    }

    /// A `PUT` operation (idempotent).
    pub const fn put(path: &'static str, id: &'static str) -> Self {
        Self::standard(http::Method::PUT, true, path, id)
    }

    /// A `POST` operation.
    pub const fn post(path: &'static str, id: &'static str) -> Self {
        Self::standard(http::Method::POST, false, path, id)
    }

    /// A `DELETE` operation (idempotent).
    pub const fn delete(path: &'static str, id: &'static str) -> Self {
        Self::standard(http::Method::DELETE, true, path, id)
    }

    /// An `OPTIONS` operation (idempotent).
    pub const fn options(path: &'static str, id: &'static str) -> Self {
        Self::standard(http::Method::OPTIONS, true, path, id)
    }

    /// A `HEAD` operation (idempotent).
    pub const fn head(path: &'static str, id: &'static str) -> Self {
        Self::standard(http::Method::HEAD, true, path, id)
    }

    /// A `PATCH` operation.
    pub const fn patch(path: &'static str, id: &'static str) -> Self {
        Self::standard(http::Method::PATCH, false, path, id)
    }

    /// A `TRACE` operation (idempotent).
    pub const fn trace(path: &'static str, id: &'static str) -> Self {
        Self::standard(http::Method::TRACE, true, path, id)
    }

    /// `deprecated: true` in the document.
    // `mut self` and assignment: a struct update (`..self`) would drop `self`'s `Method` in a
    // `const fn`, which stable Rust refuses.
    pub const fn deprecated(mut self) -> Self {
        self.deprecated = true;
        self
    }

    /// The security requirement: alternatives, each the schemes it needs together.
    pub const fn secured(mut self, security: Security) -> Self {
        self.security = security;
        self
    }

    /// The operation declares an `Idempotency-Key` header (see the field of that name).
    pub const fn idempotency_key(mut self) -> Self {
        self.idempotency_key = true;
        self
    }

    /// The `Accept` to send when it is not JSON's (`None`: no header).
    pub const fn accepts(mut self, accept: Option<&'static str>) -> Self {
        self.accept = accept;
        self
    }

    /// The `Content-Type` of the body when it is not JSON.
    pub const fn sends(mut self, content_type: &'static str) -> Self {
        self.content_type = content_type;
        self
    }
}

const JSON_MEDIA: &str = "application/json";

static IDEMPOTENCY_KEY: HeaderName = HeaderName::from_static("idempotency-key");

/// A fresh key for one call: a random (version 4) UUID as a Structured Field string, the
/// IETF draft's form (`"3f0e…"`), of random bits (`random.rs`):
/// unique, which is what a key must be (the server scopes keys per caller).
pub(crate) fn new_idempotency_key() -> http::HeaderValue {
    // Written straight into a buffer: formatting it (two `format!`s and a copy) was most of
    // what a key cost.
    let mut text = *b"\"00000000-0000-0000-0000-000000000000\"";
    random::write_uuid_v4(&mut text[1..37]);
    http::HeaderValue::from_bytes(&text).expect("hex digits and dashes are a valid header value")
}

/// Builds one attempt's request from the client and the base URL (see [`Transport::send`]):
/// what [`Transport::send_dyn`] takes, as a reference to a closure.
#[cfg(not(target_arch = "wasm32"))]
pub type BuildRequest<'a> =
    dyn Fn(&reqwest::Client, &str) -> reqwest::RequestBuilder + Send + Sync + 'a;
/// Builds one attempt's request from the client and the base URL (see [`Transport::send`]):
/// what [`Transport::send_dyn`] takes, as a reference to a closure.
// Browser futures are not `Send`, so neither need their builders be.
#[cfg(target_arch = "wasm32")]
pub type BuildRequest<'a> = dyn Fn(&reqwest::Client, &str) -> reqwest::RequestBuilder + 'a;

/// A media type as a header's value; JSON's is made once (`from_static` checks every byte
/// of its text each time).
fn header_value(media_type: &'static str) -> http::HeaderValue {
    static JSON: http::HeaderValue = http::HeaderValue::from_static(JSON_MEDIA);
    if media_type == JSON_MEDIA {
        JSON.clone()
    } else {
        http::HeaderValue::from_static(media_type)
    }
}

/// Shared state of a client: the HTTP client, where to send, credentials, retry policy, and
/// what earlier responses taught (rate-limit state, deprecations already warned about).
///
/// A clone ([`Transport::with_options`]) shares what responses taught with the original.
#[derive(Debug, Clone)]
pub struct Transport {
    /// The HTTP client requests go through (its timeouts, proxies and TLS settings apply).
    pub http: reqwest::Client,
    /// Without a trailing slash; operation paths (starting with `/`) are appended.
    pub base_url: String,
    /// The secrets applied to requests, per security scheme.
    pub credentials: Credentials,
    /// When and how failed attempts are retried.
    pub retry: RetryPolicy,
    learned: Arc<Learned>,
    /// Told how far long transfers have got (`ClientBuilder::on_progress`); `None`: nothing
    /// is counted.
    progress: Option<OnProgress>,
    /// Applied to every call (`Client::with_options`); empty by default.
    options: RequestOptions,
    /// The document's security schemes, which [`Transport::call`] applies credentials by
    /// (`Transport::with_schemes`); none by default.
    schemes: &'static [SecurityScheme],
}

/// What responses taught a client, shared by its clones.
#[derive(Debug, Default)]
struct Learned {
    last_rate_limit: Mutex<RateLimit>,
    // Whether `last_rate_limit` says nothing remains in its window, so the common case (quota
    // left, or no rate-limit headers at all) is known without taking the lock.
    exhausted: AtomicBool,
    // Operation ids already warned about, so a deprecated call logs once per client, not
    // once per request.
    warned_deprecated: Mutex<BTreeSet<&'static str>>,
    // Operation ids whose undocumented statuses were warned about, likewise.
    warned_undocumented: Mutex<BTreeSet<&'static str>>,
}

impl Transport {
    /// A transport sending to `base_url` (trailing slashes are dropped) through `http`, with
    /// `credentials` and `retry`.
    pub fn new(
        http: reqwest::Client,
        base_url: impl Into<String>,
        credentials: Credentials,
        retry: RetryPolicy,
    ) -> Self {
        let mut base_url = base_url.into();
        while base_url.ends_with('/') {
            base_url.pop();
        }
        Self {
            http,
            base_url,
            credentials,
            retry,
            learned: Arc::default(),
            progress: None,
            options: RequestOptions::default(),
            schemes: &[],
        }
    }

    /// This transport applying credentials by `schemes`, the document's security schemes, in
    /// [`Transport::call`] (what a generated client is built with).
    pub fn with_schemes(mut self, schemes: &'static [SecurityScheme]) -> Self {
        self.schemes = schemes;
        self
    }

    /// This transport with `options` applied to every call, on top of the ones it has; it
    /// shares connections and what responses taught (rate limits, warnings) with `self`.
    pub fn with_options(&self, options: RequestOptions) -> Self {
        let mut out = self.clone();
        out.options = self.options.merged(options);
        out
    }

    /// The options every call applies.
    pub fn options(&self) -> &RequestOptions {
        &self.options
    }

    /// A success read from a status `op` does not document (see
    /// `ResponseValue::status_documented`): marked so, with a warning logged the first time
    /// per operation.
    // The error passes through untouched (see `response.rs` on the size of `Error`).
    #[allow(clippy::result_large_err)]
    pub fn undocumented<T, E>(
        &self,
        op: &OperationInfo,
        result: Result<ResponseValue<T>, Error<E>>,
    ) -> Result<ResponseValue<T>, Error<E>> {
        let value = result?;
        if lock(&self.learned.warned_undocumented).insert(op.id) {
            tracing::warn!(
                operation = op.id,
                status = value.status().as_u16(),
                "API operation `{}` answered {}, a status its document does not list; read as its documented success",
                op.id,
                value.status(),
            );
        }
        Ok(value.with_undocumented_status())
    }

    /// Reports the progress of request bodies of [`UPLOAD_REPORTED_FROM`] bytes and more as
    /// they are sent, and of every response body as it is read (native targets; a browser's
    /// fetch reports nothing here).
    pub fn with_progress(mut self, progress: Option<OnProgress>) -> Self {
        self.progress = progress;
        self
    }

    /// Sends one call of `op`, retrying per [`Transport::retry`], and returns the final
    /// response whatever its status (the generated method maps the status), or the transport
    /// error of the last attempt.
    ///
    /// `build` is called again for every attempt (request bodies are re-created from
    /// serialized bytes); it gets the client and the base URL. Credentials are applied here,
    /// per `op.security`, on top of what `build` set.
    pub async fn send<F>(
        &self,
        op: &OperationInfo,
        schemes: &'static [SecurityScheme],
        build: F,
    ) -> Result<Raw, SendError>
    where
        F: Fn(&reqwest::Client, &str) -> reqwest::RequestBuilder,
    {
        match self.send_with(op, schemes, build, false).await? {
            Received::Complete(raw) => Ok(raw),
            // Not asked for; read whole all the same.
            Received::Live(response, _) => Streamed::live(response, None).into_raw().await,
        }
    }

    /// [`Transport::send`] with the request builder as a reference to a closure: what
    /// generated methods call.
    ///
    /// Why: `send` is generic over `build`, so every operation that calls it gets its own copy
    /// of the whole retry loop's state machine, compiled in whichever crate awaits it (a
    /// generated client with a thousand operations spent most of its machine code there).
    /// Here `build` has one type whatever the operation, so the loop is compiled once, in this
    /// crate; an operation's own code is its request builder and the call. The future is not
    /// boxed: a box cost an allocation and a copy of the 1.5 KB future per call, about 1,000
    /// instructions of the bench's `createPet` (callgrind), for no saving in compile time.
    pub async fn send_dyn(
        &self,
        op: &OperationInfo,
        schemes: &'static [SecurityScheme],
        build: &BuildRequest<'_>,
    ) -> Result<Raw, SendError> {
        self.send(op, schemes, build).await
    }

    /// [`Transport::send_dyn`] for a request that is its method, URL and at most a body
    /// serialized before the first attempt (JSON, a form, text or bytes: no headers or
    /// cookies of its own), with the `Accept` and `Content-Type` of `op`'s descriptor and
    /// credentials applied by the schemes of [`Transport::with_schemes`]: what most
    /// operations send, so that their generated methods name the parts rather than build it.
    ///
    /// Through [`Transport::send_dyn`], so the retry loop is compiled once for every such
    /// operation. Handing this builder to the generic `send` instead (one builder type too,
    /// and no future of its own around `send`'s) cost more, not less: 342 instructions a
    /// `createPet` and 311 a `getPet` (callgrind, `petstore-bench profile-client`).
    pub fn call<'a>(
        &'a self,
        op: &'a OperationInfo,
        path: &'a str,
        query: &'a str,
        body: Option<&'a Bytes>,
    ) -> impl Future<Output = Result<Raw, SendError>> + 'a {
        let build = move |http: &reqwest::Client, base: &str| {
            let mut builder =
                http.request(op.method.clone(), super::request::url(base, path, query));
            if let Some(accept) = op.accept {
                builder = builder.header(http::header::ACCEPT, header_value(accept));
            }
            if let Some(body) = body {
                builder = builder
                    .header(http::header::CONTENT_TYPE, header_value(op.content_type))
                    .body(body.clone());
            }
            builder
        };
        async move { self.send_dyn(op, self.schemes, &build).await }
    }

    /// The answer of a call whose documented successes (`documented`, codes) are all read by
    /// `read`: one of those, or another 2XX read the same way and marked undocumented
    /// ([`Transport::undocumented`]), or the operation's error ([`Errors::from_raw`]).
    // The error passes through untouched (see `response.rs` on the size of `Error`).
    // Generic over `read` (not a `fn` pointer) so that each operation's reading is inlined
    // where it is called, as the `match` it replaces was.
    #[allow(clippy::result_large_err)]
    #[inline]
    pub fn answer<T, E: Errors>(
        &self,
        op: &OperationInfo,
        raw: Raw,
        documented: &[u16],
        read: impl FnOnce(Raw) -> Result<ResponseValue<T>, Error<E>>,
    ) -> Result<ResponseValue<T>, Error<E>> {
        if documented.contains(&raw.status.as_u16()) {
            read(raw)
        } else if raw.status.is_success() {
            self.undocumented(op, read(raw))
        } else {
            Err(raw.error())
        }
    }

    /// [`Transport::send_streaming`] with the request builder as a reference to a closure (see
    /// [`Transport::send_dyn`] for why).
    pub async fn send_streaming_dyn(
        &self,
        op: &OperationInfo,
        schemes: &'static [SecurityScheme],
        build: &BuildRequest<'_>,
    ) -> Result<Streamed, SendError> {
        self.send_streaming(op, schemes, build).await
    }

    /// [`Transport::send`] for an operation with a streamed response: a success comes back
    /// with its body unread, to be decoded as it arrives; every other status is read whole
    /// (and retried) as `send` does. Nothing is retried once a success has begun.
    pub async fn send_streaming<F>(
        &self,
        op: &OperationInfo,
        schemes: &'static [SecurityScheme],
        build: F,
    ) -> Result<Streamed, SendError>
    where
        F: Fn(&reqwest::Client, &str) -> reqwest::RequestBuilder,
    {
        Ok(match self.send_with(op, schemes, build, true).await? {
            Received::Complete(raw) => Streamed::complete(raw),
            Received::Live(response, resume) => Streamed::live(response, resume),
        })
    }

    /// One call inside its span (see [`call_span`]), with a `traceparent` of its own.
    async fn send_with<F>(
        &self,
        op: &OperationInfo,
        schemes: &'static [SecurityScheme],
        build: F,
        stream_success: bool,
    ) -> Result<Received, SendError>
    where
        F: Fn(&reqwest::Client, &str) -> reqwest::RequestBuilder,
    {
        let trace = trace::CallTrace::new();
        let span = trace::call_span((op.id, &op.method, op.path), &self.base_url, &trace);
        let result = self
            .attempts(op, schemes, build, stream_success, &trace)
            .instrument(span.clone())
            .await;
        if !span.is_disabled() {
            match &result {
                Ok(Received::Complete(raw)) => trace::record_status(&span, raw.status),
                Ok(Received::Live(response, _)) => trace::record_status(&span, response.status()),
                Err(e) => {
                    span.record("error.type", trace::error_type(e));
                }
            }
        }
        result
    }

    async fn attempts<F>(
        &self,
        op: &OperationInfo,
        schemes: &'static [SecurityScheme],
        build: F,
        stream_success: bool,
        trace: &trace::CallTrace,
    ) -> Result<Received, SendError>
    where
        F: Fn(&reqwest::Client, &str) -> reqwest::RequestBuilder,
    {
        let started = Instant::now();
        let mut attempt: u32 = 0;
        let options = &self.options;
        if let Some(problem) = &options.invalid {
            return Err(SendError::InvalidRequest(problem.clone()));
        }
        let retry = options.retry.as_ref().unwrap_or(&self.retry);
        let key = match &options.idempotency_key {
            Some(key) => Some(key.clone()),
            None => op.idempotency_key.then(new_idempotency_key),
        };
        let repeatable = op.idempotent || key.is_some();
        loop {
            attempt += 1;
            // Only before the first attempt: a retry already waits what the failed attempt's
            // response (its Retry-After) asked for, which is better informed.
            if attempt == 1 {
                self.wait_if_exhausted(op, retry, started).await;
            }

            let mut request = build(&self.http, &self.base_url)
                .build()
                .map_err(|e| SendError::InvalidRequest(error_chain(&e)))?;
            auth::apply(&mut request, schemes, op.security, &self.credentials)
                .map_err(SendError::InvalidRequest)?;
            if let Some(key) = &key {
                request
                    .headers_mut()
                    .insert(IDEMPOTENCY_KEY.clone(), key.clone());
            }
            #[cfg(not(target_arch = "wasm32"))]
            if let Some(progress) = &self.progress {
                counted_upload(&mut request, progress);
            }
            // The server's span for this request joins the call's trace.
            request
                .headers_mut()
                .insert(trace::TRACEPARENT.clone(), trace.traceparent());
            if !options.is_empty() {
                apply_options(&mut request, options);
            }
            if attempt > 1 {
                tracing::Span::current().record("http.request.resend_count", attempt - 1);
            }

            // A stream that drops is resumed with the same request (`Last-Event-ID` added):
            // kept while its body can be sent again (bytes, not a stream).
            let again = stream_success
                .then(|| request.try_clone())
                .flatten()
                .map(|request| Box::new(Resume::new(self.http.clone(), request, retry.clone())));
            let delay = match self.execute(request, stream_success).await {
                Ok(Received::Live(response, _)) => {
                    self.observe(op, response.headers());
                    return Ok(Received::Live(response, again));
                }
                Ok(Received::Complete(raw)) => {
                    self.observe(op, &raw.headers);
                    if raw.status.is_success() {
                        return Ok(Received::Complete(raw));
                    }
                    let retry_after = ratelimit::retry_after(&raw.headers, SystemTime::now());
                    // With a key, 409 means "your first attempt is still running".
                    let status = match raw.status {
                        http::StatusCode::CONFLICT if key.is_some() => {
                            http::StatusCode::SERVICE_UNAVAILABLE
                        }
                        status => status,
                    };
                    let decision = retry.decide(
                        attempt,
                        started.elapsed(),
                        Outcome::Status(status),
                        repeatable,
                        retry_after,
                        retry::jitter(),
                    );
                    match decision {
                        Decision::GiveUp => return Ok(Received::Complete(raw)),
                        Decision::Retry(delay) => {
                            tracing::debug!(
                                operation = op.id,
                                method = %op.method,
                                attempt,
                                status = raw.status.as_u16(),
                                delay_ms = delay.as_millis() as u64,
                                "retrying after error status"
                            );
                            delay
                        }
                    }
                }
                Err(error) => {
                    let decision = retry.decide(
                        attempt,
                        started.elapsed(),
                        Outcome::Transport(TransportErrorKind::of(&error)),
                        repeatable,
                        None,
                        retry::jitter(),
                    );
                    match decision {
                        Decision::GiveUp => return Err(SendError::Transport(error)),
                        Decision::Retry(delay) => {
                            tracing::debug!(
                                operation = op.id,
                                method = %op.method,
                                attempt,
                                error = %error,
                                delay_ms = delay.as_millis() as u64,
                                "retrying after transport error"
                            );
                            delay
                        }
                    }
                }
            };
            retry::sleep(delay).await;
        }
    }

    /// The rate-limit state of the most recent response that announced one.
    pub fn last_rate_limit(&self) -> RateLimit {
        lock(&self.learned.last_rate_limit).clone()
    }

    /// Whether the deprecation warning for operation `op_id` has been logged.
    pub fn deprecation_warned(&self, op_id: &str) -> bool {
        lock(&self.learned.warned_deprecated).contains(op_id)
    }

    // Sends and reads the whole body: a body cut off is a transport error of this attempt,
    // which the retry decision must see. A success of a streamed operation is left unread.
    async fn execute(
        &self,
        request: reqwest::Request,
        stream_success: bool,
    ) -> Result<Received, reqwest::Error> {
        let mut response = self.http.execute(request).await?;
        let status = response.status();
        for hook in &self.options.hooks {
            hook.on_response(status, response.headers());
        }
        if stream_success && status.is_success() {
            return Ok(Received::Live(response, None));
        }
        // Taken, not copied: reading the body does not need them.
        let headers = std::mem::take(response.headers_mut());
        let body = match &self.progress {
            #[cfg(not(target_arch = "wasm32"))]
            Some(progress) => counted_download(&mut response, progress).await?,
            _ => response.bytes().await?,
        };
        Ok(Received::Complete(Raw {
            status,
            headers,
            body,
        }))
    }

    // When the last response said the window is used up, waiting for its reset (if that fits
    // the budget) beats collecting a 429 and risking a ban for continued requests.
    async fn wait_if_exhausted(&self, op: &OperationInfo, retry: &RetryPolicy, started: Instant) {
        if !retry.wait_on_exhausted || !self.learned.exhausted.load(Ordering::Relaxed) {
            return;
        }
        let Some(wait) = self.last_rate_limit().wait_until_reset(SystemTime::now()) else {
            return;
        };
        if wait <= retry.budget.saturating_sub(started.elapsed()) {
            tracing::debug!(
                operation = op.id,
                wait_ms = wait.as_millis() as u64,
                "rate limit exhausted; waiting for the window to reset"
            );
            retry::sleep(wait).await;
        }
    }

    fn observe(&self, op: &OperationInfo, headers: &http::HeaderMap) {
        // One pass over the (few) header names says which lookups can find anything; most
        // responses carry neither rate-limit nor deprecation headers.
        let (mut rate_limited, mut deprecating) = (false, false);
        for name in headers.keys() {
            let name = name.as_str();
            if name.starts_with("x-ratelimit-") {
                rate_limited = true;
            } else if name == DEPRECATION.as_str() || name == SUNSET.as_str() {
                deprecating = true;
            }
        }

        let rate_limit = if rate_limited {
            RateLimit::from_headers(headers)
        } else {
            RateLimit::default()
        };
        if !rate_limit.is_empty() {
            let mut last = lock(&self.learned.last_rate_limit);
            // Set under the lock, so the flag never disagrees with the state it summarizes.
            self.learned
                .exhausted
                .store(rate_limit.remaining == Some(0), Ordering::Relaxed);
            *last = rate_limit;
        }

        // Nothing to say, or said already: decided without building any text.
        let present = |name: &HeaderName| headers.get_all(name).iter().any(|v| v.to_str().is_ok());
        if !(op.deprecated || deprecating && (present(&DEPRECATION) || present(&SUNSET))) {
            return;
        }
        if !lock(&self.learned.warned_deprecated).insert(op.id) {
            return;
        }
        let header = |name: &HeaderName| {
            let values: Vec<&str> = headers
                .get_all(name)
                .iter()
                .filter_map(|v| v.to_str().ok())
                .collect();
            (!values.is_empty()).then(|| values.join(", "))
        };
        let deprecation = header(&DEPRECATION);
        let sunset = header(&SUNSET);
        let link = header(&http::header::LINK);
        tracing::warn!(
            operation = op.id,
            deprecation = deprecation.as_deref().unwrap_or("-"),
            sunset = sunset.as_deref().unwrap_or("-"),
            link = link.as_deref().unwrap_or("-"),
            "API operation `{}` is deprecated{}{}",
            op.id,
            sunset
                .as_deref()
                .map(|s| format!("; it is to be removed (Sunset: {s})"))
                .unwrap_or_default(),
            link.as_deref()
                .map(|l| format!("; see {l}"))
                .unwrap_or_default(),
        );
    }
}

/// A client for `base_url` with sensible timeouts where the target has them (native: 10 s to
/// connect, 60 s per attempt; on wasm32 the browser's fetch decides), reaching a loopback
/// `base_url` directly ([`direct_for_loopback`]), and following no redirect.
///
/// Why no redirect: a `3xx` is an answer of the API. A documented one (nexus's login answers
/// `303` with the `Location` the caller must show a user) is read as its typed variant, with
/// its headers; following it would send the request again, to a place the document does not
/// name, and read an answer that the operation does not document (or nothing at all). An
/// undocumented one is `Error::UnexpectedStatus`, whose headers hold `Location`; the client's
/// credentials (an API key in a header of the document's choosing, which reqwest would not
/// strip) never go to a host the caller did not pick. A caller who wants redirects followed
/// passes their own `reqwest::Client` (`ClientBuilder::http_client`).
pub fn default_http_client(base_url: &str) -> Result<reqwest::Client, reqwest::Error> {
    configured(reqwest::Client::builder(), base_url, None).build()
}

/// `builder` (holding the caller's own settings, such as default headers) set up as
/// [`default_http_client`] describes: no proxy for a loopback `base_url`, the connect
/// timeout, `timeout` per attempt (60 s when `None`; the browser decides on wasm32) and no
/// redirect followed. The generated `ClientBuilder::build` goes through it, so its client and
/// this one cannot drift apart (they did: the generated one followed nexus's `303`).
pub fn configured(
    builder: reqwest::ClientBuilder,
    base_url: &str,
    timeout: Option<std::time::Duration>,
) -> reqwest::ClientBuilder {
    let builder = direct_for_loopback(builder, base_url);
    #[cfg(not(target_arch = "wasm32"))]
    let builder = builder
        .connect_timeout(std::time::Duration::from_secs(10))
        .timeout(timeout.unwrap_or(std::time::Duration::from_secs(60)))
        .redirect(reqwest::redirect::Policy::none());
    #[cfg(target_arch = "wasm32")]
    let _ = timeout;
    builder
}

/// `builder` told to use no proxy when `base_url` is a loopback address (`localhost`, a
/// `.localhost` name, `127.0.0.0/8`, `::1`); any other base URL keeps reqwest's reading of
/// `HTTP_PROXY`, `HTTPS_PROXY`, `ALL_PROXY` and `NO_PROXY`.
///
/// Why: a proxy cannot reach the caller's own loopback interface, so sending loopback traffic
/// through one only breaks local development and tests on machines with a proxy set (Go's
/// `net/http` makes the same exception). The browser decides on wasm32.
pub fn direct_for_loopback(
    builder: reqwest::ClientBuilder,
    base_url: &str,
) -> reqwest::ClientBuilder {
    #[cfg(not(target_arch = "wasm32"))]
    if is_loopback_url(base_url) {
        return builder.no_proxy();
    }
    let _ = base_url;
    builder
}

/// Whether `url`'s host is a loopback address or name (see [`direct_for_loopback`]).
pub fn is_loopback_url(url: &str) -> bool {
    let Ok(url) = reqwest::Url::parse(url) else {
        return false;
    };
    let Some(host) = url.host_str() else {
        return false;
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    match host.parse::<std::net::IpAddr>() {
        Ok(ip) => ip.is_loopback(),
        Err(_) => {
            let host = host.trim_end_matches('.').to_ascii_lowercase();
            host == "localhost" || host.ends_with(".localhost")
        }
    }
}

/// The call's options on one attempt's request: headers replace, query pairs follow the
/// operation's, the timeout replaces the client's, the hooks run last.
fn apply_options(request: &mut reqwest::Request, options: &RequestOptions) {
    for (name, value) in options.headers.iter() {
        request.headers_mut().insert(name.clone(), value.clone());
    }
    if !options.query.is_empty() {
        let mut pairs = request.url_mut().query_pairs_mut();
        for (name, value) in &options.query {
            pairs.append_pair(name, value);
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(timeout) = options.timeout {
        *request.timeout_mut() = Some(timeout);
    }
    for hook in &options.hooks {
        hook.on_request(request);
    }
}

// A poisoned lock only means another thread panicked mid-update of plain data; the data
// is still usable, and a client must not start panicking because of it.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

// reqwest's builder error says only "builder error"; the cause is in its source chain.
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut message = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        message.push_str(": ");
        message.push_str(&cause.to_string());
        source = cause.source();
    }
    message
}

/// A request body of [`UPLOAD_REPORTED_FROM`] bytes or more sent in counted pieces, with its
/// `Content-Length` kept (a stream would otherwise go chunked). The bytes are copied once per
/// attempt: reqwest does not hand its own back, and a copy costs nothing beside the network.
#[cfg(not(target_arch = "wasm32"))]
fn counted_upload(request: &mut reqwest::Request, progress: &OnProgress) {
    let Some(bytes) = request.body().and_then(reqwest::Body::as_bytes) else {
        return;
    };
    if bytes.len() < UPLOAD_REPORTED_FROM {
        return;
    }
    let bytes = bytes::Bytes::copy_from_slice(bytes);
    request.headers_mut().insert(
        http::header::CONTENT_LENGTH,
        http::HeaderValue::from(bytes.len()),
    );
    *request.body_mut() = Some(progress.upload(bytes));
}

/// A response body read piece by piece, each reported with the length the response announced.
#[cfg(not(target_arch = "wasm32"))]
async fn counted_download(
    response: &mut reqwest::Response,
    progress: &OnProgress,
) -> Result<bytes::Bytes, reqwest::Error> {
    let total = response.content_length();
    // The announced length, up to what a bound on trust allows before the bytes arrive.
    let mut body = Vec::with_capacity(total.unwrap_or(0).min(8 << 20) as usize);
    while let Some(piece) = response.chunk().await? {
        body.extend_from_slice(&piece);
        progress.report(Direction::Download, body.len() as u64, total);
    }
    // The end, said once more where no length was announced: the length is known now.
    if total.is_none() {
        let len = body.len() as u64;
        progress.report(Direction::Download, len, Some(len));
    }
    Ok(bytes::Bytes::from(body))
}
