//! Owns what production dashboards read of each request: its `tracing` span (named after the
//! operation, with OpenTelemetry's HTTP server attributes), its request id (`X-Request-Id`,
//! kept or made, echoed), and the request metrics, recorded through the `metrics` facade (the
//! application installs a recorder, a Prometheus exporter for instance; without one every
//! call is a no-op).
//!
//! The layer is the outermost of the generated router (`layer::finish*`), so that the span
//! and the duration cover everything the request goes through: CORS, the gate (which records
//! the caller's plan, its principal and the rate-limit outcome on the span), the
//! route (which records the operation, `layer::Operation`, or, on a route several path keys
//! share, the operation its dispatch function chose, `layer::dispatched`; `http.route` is then
//! the shared route's template).
//!
//! Span fields (`tracing` names, dotted as OpenTelemetry's attributes are):
//! `otel.name` (the operation id, else `METHOD route`), `otel.kind` (`server`),
//! `http.request.method`, `http.route` (the route template as served: `/v1/pets/{petId}`),
//! `http.response.status_code`, `url.scheme`, `url.path`, `server.address`,
//! `user_agent.original`, `error.type` (the status code, for 5xx answers),
//! `http.request_id`, `trace_id`, `span_id` and `parent_span_id` (W3C Trace Context: a valid
//! incoming `traceparent` continues its trace, [`TraceContext`]), `apigen.operation.id`, `apigen.plan`, `enduser.id` (the principal's
//! subject, never its credential) and `apigen.rate_limit` (`allowed`, `limited`, `banned`,
//! `unavailable`).
//!
//! Metrics (OpenTelemetry's names where they exist; a Prometheus exporter writes the dots as
//! underscores): see the `METRIC_*` constants.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::task::{Context, Poll};
use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::response::Response;
use http::HeaderValue;
use http::header::{HOST, HeaderName, USER_AGENT};
use metrics::{Gauge, Histogram, SharedString};
use tower_layer::Layer;
use tower_service::Service;
use tracing::Value;
use tracing::field::{Empty, Field, display};

use super::auth::Identity;
use super::ratelimit::Decision;
// Counted where bans start (`ratelimit`); listed here with the other metrics' names.
pub use super::ratelimit::METRIC_BANS;
use super::trace_context::new_id;
pub use super::trace_context::{SpanId, TRACEPARENT, TRACESTATE, TraceContext, TraceId};

/// `X-Request-Id`: kept from the request when sane, else made; echoed on every answer.
pub static X_REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Histogram, seconds: the time from the request's arrival at the router to its answer's
/// head, per `http.request.method`, `http.route`, `http.response.status_code` and
/// `apigen.operation.id` (OpenTelemetry's `http.server.request.duration`).
pub const METRIC_DURATION: &str = "http.server.request.duration";
/// Gauge: requests being served now (OpenTelemetry's `http.server.active_requests`).
pub const METRIC_ACTIVE: &str = "http.server.active_requests";
/// Counter: requests the rate limit refused, per `apigen.plan` (`anonymous` for callers
/// without credentials) and `apigen.rate_limit` (`limited`, `banned`, `unavailable`).
pub const METRIC_RATE_LIMITED: &str = "apigen.rate_limit.refused";

/// Counter: `Idempotency-Key` requests answered with the stored response.
pub const METRIC_IDEMPOTENT_REPLAYS: &str = "apigen.idempotency.replays";
/// Counter: `Idempotency-Key` requests refused, per `reason` (`in_progress`: 409, the first is
/// still running; `different_request`: 422, the key came with another request).
pub const METRIC_IDEMPOTENT_CONFLICTS: &str = "apigen.idempotency.conflicts";
/// Counter: request bodies refused, per `reason` (`too_large`: 413; `timeout`: 408, not sent
/// within `Limits::body_timeout`).
pub const METRIC_BODY_REFUSED: &str = "apigen.request.body.refused";
/// Counter: calls to a shared store that failed, per `store` (`redis`; the reference service
/// counts its `database` too) and `error` (`timeout`, `error`).
pub const METRIC_STORE_ERRORS: &str = "apigen.store.errors";

/// Counts one refused request body (`reason`: `too_large` or `timeout`).
pub(crate) fn body_refused(reason: &'static str) {
    metrics::counter!(METRIC_BODY_REFUSED, "reason" => reason).increment(1);
}

/// A request's id, in its extensions for the application (`RequestContext::extensions`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestId(pub HeaderValue);

impl RequestId {
    /// The id as text (always visible ASCII).
    pub fn as_str(&self) -> &str {
        self.0.to_str().unwrap_or_default()
    }
}

/// The incoming id when it is one a log can hold as it is: 1 to 128 characters of letters,
/// digits and `-_.:/+=@` (UUIDs, ULIDs, AWS and Heroku ids); anything else is replaced, so a
/// client cannot write into the logs what a log reader would misread.
fn sane(value: &HeaderValue) -> bool {
    let bytes = value.as_bytes();
    (1..=128).contains(&bytes.len())
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.:/+=@".contains(b))
}

/// What the route tells about the request it served, in the answer's extensions (for an
/// access log outside the router, as the reference service's).
#[derive(Debug, Clone)]
pub struct Routed {
    /// The operation id: the route's (`layer::Operation::named`), or the one a route's
    /// dispatch function chose (`layer::dispatched`); `""` when none was chosen (a 404 or 405
    /// of a dispatched route).
    pub operation: &'static str,
    /// The route template as served (`/v1/pets/{petId}`).
    pub route: Option<MatchedPath>,
    /// The route template as a metric label, shared by every request of the route (the
    /// operation keeps it, `layer::Operation`), so that a request does not copy it.
    pub(crate) label: Option<SharedString>,
    /// The operation's histograms, shared by its requests (`layer::Operation`); `None` where
    /// no operation took the request (a 404, a 405, a preflight): those register per request.
    pub(crate) durations: Option<Arc<Durations>>,
}

impl Routed {
    /// The route template as a metric label: the operation's shared one, else a copy.
    fn route_label(&self) -> SharedString {
        match (&self.label, &self.route) {
            (Some(label), _) => label.clone(),
            (None, Some(route)) => SharedString::from_owned(route.as_str().to_owned()),
            (None, None) => SharedString::const_str(""),
        }
    }
}

/// The method as a metric label: the standard ones without a copy.
fn method_label(method: &http::Method) -> SharedString {
    use http::Method;
    let known = match *method {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::PATCH => "PATCH",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        Method::TRACE => "TRACE",
        Method::CONNECT => "CONNECT",
        _ => return SharedString::from_owned(method.as_str().to_owned()),
    };
    SharedString::const_str(known)
}

/// The three digits of every status code (100 to 999, the codes `http` allows), so that a
/// status label is a `'static` slice of them rather than a copy per request.
static STATUS_DIGITS: [u8; 2700] = {
    let mut digits = [0; 2700];
    let mut code = 100;
    while code < 1000 {
        let at = (code - 100) * 3;
        digits[at] = b'0' + (code / 100) as u8;
        digits[at + 1] = b'0' + (code / 10 % 10) as u8;
        digits[at + 2] = b'0' + (code % 10) as u8;
        code += 1;
    }
    digits
};

/// The status code as a metric label, without a copy.
fn status_label(status: http::StatusCode) -> SharedString {
    let at = (usize::from(status.as_u16()) - 100) * 3;
    SharedString::const_str(
        std::str::from_utf8(&STATUS_DIGITS[at..at + 3]).expect("the table holds ASCII digits"),
    )
}

/// The recorder metrics go to now (`metrics::with_recorder`: the thread's local one, else the
/// global one, else the no-op), by address: a handle registered with one recorder is kept only
/// while it is still the one in use, so a recorder installed after the first requests (or a
/// test's local recorder) gets every later request's metrics.
fn recorder_id() -> usize {
    metrics::with_recorder(|r| std::ptr::from_ref(r).cast::<()>() as usize)
}

/// `http.server.active_requests`, registered once per recorder: the `gauge!` macro registers
/// it anew at every call (with the reference service's recorder, copying its name and looking
/// it up under a lock: ~500 instructions, twice a request).
fn active_requests() -> Gauge {
    static ACTIVE: Mutex<Option<(usize, Gauge)>> = Mutex::new(None);
    let recorder = recorder_id();
    let mut cached = ACTIVE.lock().unwrap_or_else(PoisonError::into_inner);
    match &*cached {
        Some((id, gauge)) if *id == recorder => gauge.clone(),
        _ => {
            let gauge = metrics::gauge!(METRIC_ACTIVE);
            *cached = Some((recorder, gauge.clone()));
            gauge
        }
    }
}

/// An operation's `http.server.request.duration` histograms, one per method, status and
/// operation id its requests were answered with (a handful), registered with the recorder on
/// the first such request and reused: registering builds the key's four labels and hands them
/// to the recorder, which looks the series up (the reference service's copies every label to
/// do so), several thousand instructions a request.
#[derive(Debug, Default)]
pub(crate) struct Durations {
    cached: Mutex<DurationCache>,
}

#[derive(Debug, Default)]
struct DurationCache {
    /// [`recorder_id`] of the recorder the handles were registered with.
    recorder: usize,
    /// Method, status, operation id and route template, and their histogram.
    handles: Vec<(
        http::Method,
        http::StatusCode,
        &'static str,
        SharedString,
        Histogram,
    )>,
}

impl Durations {
    /// Records one request's duration under its labels.
    fn record(
        &self,
        method: &http::Method,
        status: http::StatusCode,
        operation: &'static str,
        route: SharedString,
        seconds: f64,
    ) {
        let recorder = recorder_id();
        let mut cache = self.cached.lock().unwrap_or_else(PoisonError::into_inner);
        if cache.recorder != recorder {
            cache.handles.clear();
            cache.recorder = recorder;
        }
        let found = cache.handles.iter().find(|(m, s, o, r, _)| {
            *s == status && m == method && *o == operation && r[..] == route[..]
        });
        match found {
            Some((.., histogram)) => histogram.record(seconds),
            None => {
                let histogram = duration_histogram(method, status, operation, route.clone());
                histogram.record(seconds);
                cache
                    .handles
                    .push((method.clone(), status, operation, route, histogram));
            }
        }
    }
}

/// The duration histogram of these labels, registered with the recorder.
fn duration_histogram(
    method: &http::Method,
    status: http::StatusCode,
    operation: &'static str,
    route: SharedString,
) -> Histogram {
    metrics::histogram!(
        METRIC_DURATION,
        "http.request.method" => method_label(method),
        "http.route" => route,
        "http.response.status_code" => status_label(status),
        "apigen.operation.id" => operation,
    )
}

/// Records the operation and the route template on the request's span (called by
/// `layer::Operation` as the route takes the request).
pub(crate) fn routed(operation: &'static str, route: Option<&MatchedPath>) {
    let Some((span, meta, fields)) = current_request_span() else {
        return;
    };
    let operation = (!operation.is_empty()).then(|| display(operation));
    let route = route.map(|r| display(r.as_str()));
    span.record_all(&meta.fields().value_set(&[
        (
            &fields.operation,
            operation.as_ref().map(|v| v as &dyn Value),
        ),
        (&fields.name, operation.as_ref().map(|v| v as &dyn Value)),
        (&fields.route, route.as_ref().map(|v| v as &dyn Value)),
    ]));
}

/// The request span's fields recorded after it starts, looked up by name once: each
/// `Span::record` call is one visit of the subscriber (with `tracing-subscriber`'s `fmt`, a
/// look-up of the span and a lock on its formatted fields), so each step records its fields
/// in one `record_all`.
struct LateFields {
    name: Field,
    route: Field,
    status: Field,
    error: Field,
    operation: Field,
    plan: Field,
    principal: Field,
    rate_limit: Field,
}

static LATE_FIELDS: OnceLock<LateFields> = OnceLock::new();

/// The span's metadata and its late fields, when it is an enabled request span
/// ([`request_span`]'s).
/// The request's span, when it is the current span and enabled; nothing (and no look-up of
/// the current span) when no subscriber takes INFO spans.
fn current_request_span() -> Option<(
    tracing::Span,
    &'static tracing::Metadata<'static>,
    &'static LateFields,
)> {
    if !tracing::level_enabled!(tracing::Level::INFO) {
        return None;
    }
    let span = tracing::Span::current();
    let (meta, fields) = late_fields(&span)?;
    Some((span, meta, fields))
}

fn late_fields(
    span: &tracing::Span,
) -> Option<(&'static tracing::Metadata<'static>, &'static LateFields)> {
    let meta = span.metadata()?;
    let fields = LATE_FIELDS.get()?;
    (fields.name.callsite() == meta.callsite()).then_some((meta, fields))
}

impl LateFields {
    fn of(meta: &'static tracing::Metadata<'static>) -> Option<LateFields> {
        let field = |name: &str| meta.fields().field(name);
        Some(LateFields {
            name: field("otel.name")?,
            route: field("http.route")?,
            status: field("http.response.status_code")?,
            error: field("error.type")?,
            operation: field("apigen.operation.id")?,
            plan: field("apigen.plan")?,
            principal: field("enduser.id")?,
            rate_limit: field("apigen.rate_limit")?,
        })
    }
}

/// Records the gate's decision on the request's span, and counts a refusal.
pub(crate) fn admitted(identity: &Identity, decision: Option<&Decision>) {
    let principal = identity.principals().first();
    let plan = principal.and_then(|p| p.plan.as_deref());
    let outcome = decision.map(|d| match d {
        d if d.allowed => "allowed",
        d if d.unavailable => "unavailable",
        d if d.banned => "banned",
        _ => "limited",
    });
    if let Some(outcome) = outcome.filter(|o| *o != "allowed") {
        metrics::counter!(
            METRIC_RATE_LIMITED,
            "apigen.plan" => match plan {
                Some(plan) => SharedString::from_owned(plan.to_owned()),
                None if principal.is_some() => SharedString::const_str("default"),
                None => SharedString::const_str("anonymous"),
            },
            "apigen.rate_limit" => outcome,
        )
        .increment(1);
    }
    let Some((span, meta, fields)) = current_request_span() else {
        return;
    };
    let principal = principal.map(|p| p.subject.as_str());
    let outcome = outcome.map(display);
    span.record_all(&meta.fields().value_set(&[
        (
            &fields.principal,
            principal.as_ref().map(|v| v as &dyn Value),
        ),
        (&fields.plan, plan.as_ref().map(|v| v as &dyn Value)),
        (
            &fields.rate_limit,
            outcome.as_ref().map(|v| v as &dyn Value),
        ),
    ]));
}

/// Puts [`Observed`] around the whole router (`Router::layer`, last).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ObserveLayer;

impl<S> Layer<S> for ObserveLayer {
    type Service = Observed<S>;

    fn layer(&self, inner: S) -> Observed<S> {
        Observed { inner }
    }
}

/// The router inside its request span, with its request id and its metrics.
#[derive(Clone, Debug)]
pub(crate) struct Observed<S> {
    inner: S,
}

impl<S> Service<Request> for Observed<S>
where
    S: Service<Request, Response = Response, Error = Infallible>,
{
    type Response = Response;
    type Error = Infallible;
    type Future = ObservedFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut req: Request) -> Self::Future {
        let id = match req.headers().get(&X_REQUEST_ID) {
            Some(v) if sane(v) => v.clone(),
            _ => new_id(),
        };
        let trace = TraceContext::from_headers(req.headers());
        let span = request_span(&req, &id, &trace);
        req.extensions_mut().insert(RequestId(id.clone()));
        req.extensions_mut().insert(trace.clone());
        // The handle is kept for the answer: one look-up of the recorder's gauge a request.
        let active = active_requests();
        active.increment(1.0);
        let method = req.method().clone();
        let inner = {
            let _entered = span.enter();
            self.inner.call(req)
        };
        ObservedFuture {
            inner,
            span,
            id: Some(id),
            trace: Some(trace),
            method,
            active,
            started: Instant::now(),
        }
    }
}

/// The request's span, its late fields empty until the gate, the route and the answer fill
/// them.
fn request_span(req: &Request, id: &HeaderValue, trace: &TraceContext) -> tracing::Span {
    let header = |name| req.headers().get(name).and_then(|v| v.to_str().ok());
    // `server.address` is the host without its port. A closure: the macro evaluates its
    // fields only when the span is enabled, and a disabled one should cost no header look-up.
    let address = || {
        let host = header(HOST).or_else(|| req.uri().host()).unwrap_or("");
        match host.rsplit_once(':') {
            Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
            _ => host,
        }
    };
    // What the server made or checked (the request id, the scheme, the method) is recorded as
    // displayed text, what the client sent as it is (`str`): a text log then quotes and
    // escapes only the latter, character by character.
    let span = tracing::info_span!(
        "request",
        otel.name = Empty,
        otel.kind = display("server"),
        http.request.method = %req.method(),
        http.route = Empty,
        http.response.status_code = Empty,
        url.scheme = display(req.uri().scheme_str().unwrap_or("http")),
        url.path = req.uri().path(),
        server.address = address(),
        user_agent.original = header(USER_AGENT),
        error.type = Empty,
        http.request_id = display(id.to_str().unwrap_or_default()),
        trace_id = display(trace.trace_id.as_str()),
        span_id = display(trace.span_id.as_str()),
        parent_span_id = trace.parent_id.as_deref().map(display),
        apigen.operation.id = Empty,
        apigen.plan = Empty,
        enduser.id = Empty,
        apigen.rate_limit = Empty,
    );
    if let Some(meta) = span.metadata()
        && LATE_FIELDS.get().is_none()
        && let Some(fields) = LateFields::of(meta)
    {
        let _ = LATE_FIELDS.set(fields);
    }
    span
}

pin_project_lite::pin_project! {
    /// The router's future inside the request's span; on its answer, the status on the span,
    /// the request id on the answer, the duration in the metrics.
    pub(crate) struct ObservedFuture<F> {
        #[pin]
        inner: F,
        span: tracing::Span,
        id: Option<HeaderValue>,
        trace: Option<TraceContext>,
        method: http::Method,
        active: Gauge,
        started: Instant,
    }
}

impl<F> Future for ObservedFuture<F>
where
    F: Future<Output = Result<Response, Infallible>>,
{
    type Output = Result<Response, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let Ok(mut response) = {
            let _entered = this.span.enter();
            std::task::ready!(this.inner.poll(cx))
        };
        let status = response.status();
        let routed = response.extensions().get::<Routed>();
        let named = routed.is_some();
        let (operation, route, durations) = match routed {
            Some(r) => (r.operation, r.route_label(), r.durations.clone()),
            None => ("", SharedString::const_str(""), None),
        };
        if let Some((meta, fields)) = late_fields(this.span) {
            let code = status.as_u16();
            let error = status.is_server_error().then(|| display(status.as_str()));
            // No operation took it (a 404, a 405, a preflight): named by its method.
            let name = (!named).then(|| display(this.method.as_str()));
            this.span.record_all(&meta.fields().value_set(&[
                (&fields.status, Some(&code as &dyn Value)),
                (&fields.error, error.as_ref().map(|v| v as &dyn Value)),
                (&fields.name, name.as_ref().map(|v| v as &dyn Value)),
            ]));
        }
        // On every answer, unless the operation wrote its own (a document may declare an
        // `X-Request-Id` answer header of another shape: the operation's value is the contract).
        if let Some(id) = this.id.take()
            && !response.headers().contains_key(&X_REQUEST_ID)
        {
            response.headers_mut().insert(X_REQUEST_ID.clone(), id);
        }
        if let Some(trace) = this.trace.take() {
            response.extensions_mut().insert(trace);
        }
        this.active.decrement(1.0);
        let seconds = this.started.elapsed().as_secs_f64();
        match durations {
            Some(durations) => durations.record(this.method, status, operation, route, seconds),
            None => duration_histogram(this.method, status, operation, route).record(seconds),
        }
        Poll::Ready(Ok(response))
    }
}
