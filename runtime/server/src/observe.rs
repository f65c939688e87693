//! Owns what production dashboards read of each request: its `tracing` span (named after the
//! operation, with OpenTelemetry's HTTP server attributes), its request id (`X-Request-Id`,
//! kept or made, echoed), and the request metrics, recorded through the `metrics` facade (the
//! application installs a recorder, a Prometheus exporter for instance; without one every
//! call is a no-op).
//!
//! The layer is the outermost of the generated router (`layer::finish*`), so that the span
//! and the duration cover everything the request goes through: CORS, the gate (which records
//! the caller's plan, its principal and the rate-limit outcome on the span, [`admitted`]), the
//! route (which records the operation, `layer::Operation`).
//!
//! Span fields (`tracing` names, dotted as OpenTelemetry's attributes are):
//! `otel.name` (the operation id, else `METHOD route`), `otel.kind` (`server`),
//! `http.request.method`, `http.route` (the route template as served: `/v1/pets/{petId}`),
//! `http.response.status_code`, `url.scheme`, `url.path`, `server.address`,
//! `user_agent.original`, `error.type` (the status code, for 5xx answers),
//! `http.request_id`, `apigen.operation.id`, `apigen.plan`, `enduser.id` (the principal's
//! subject, never its credential) and `apigen.rate_limit` (`allowed`, `limited`, `banned`,
//! `unavailable`).
//!
//! Metrics (OpenTelemetry's names where they exist; a Prometheus exporter writes the dots as
//! underscores): see the `METRIC_*` constants.

use std::convert::Infallible;
use std::future::Future;
use std::hash::{BuildHasher, Hasher};
use std::pin::Pin;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::response::Response;
use http::HeaderValue;
use http::header::{HOST, HeaderName, USER_AGENT};
use tower_layer::Layer;
use tower_service::Service;
use tracing::field::Empty;

use super::auth::Identity;
use super::ratelimit::Decision;

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

/// A new id: 32 hexadecimal digits, unique in the process (a counter) and unpredictable
/// across processes (keyed by the process's random hash keys), without a random-number
/// dependency.
fn new_id() -> HeaderValue {
    static KEYS: OnceLock<std::collections::hash_map::RandomState> = OnceLock::new();
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let keys = KEYS.get_or_init(std::collections::hash_map::RandomState::new);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let half = |salt: u64| {
        let mut h = keys.build_hasher();
        h.write_u64(n);
        h.write_u64(salt);
        h.finish()
    };
    let text = format!("{:016x}{:016x}", half(0x5eed), half(0xc0ffee));
    HeaderValue::from_str(&text).expect("hex digits are a valid header value")
}

/// What the route tells about the request it served, in the answer's extensions (for an
/// access log outside the router, as the reference service's).
#[derive(Debug, Clone)]
pub struct Routed {
    /// The operation id (`""` for a route several operations share, which named none).
    pub operation: &'static str,
    /// The route template as served (`/v1/pets/{petId}`).
    pub route: Option<MatchedPath>,
}

/// Records the operation and the route template on the request's span (called by
/// `layer::Operation` as the route takes the request).
pub(crate) fn routed(operation: &'static str, route: Option<&MatchedPath>) {
    let span = tracing::Span::current();
    if span.is_disabled() {
        return;
    }
    if !operation.is_empty() {
        span.record("apigen.operation.id", operation);
        span.record("otel.name", operation);
    }
    if let Some(route) = route {
        span.record("http.route", route.as_str());
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
            "apigen.plan" => plan.unwrap_or(if principal.is_some() { "default" } else { "anonymous" }).to_owned(),
            "apigen.rate_limit" => outcome,
        )
        .increment(1);
    }
    let span = tracing::Span::current();
    if span.is_disabled() {
        return;
    }
    if let Some(p) = principal {
        span.record("enduser.id", p.subject.as_str());
    }
    if let Some(plan) = plan {
        span.record("apigen.plan", plan);
    }
    if let Some(outcome) = outcome {
        span.record("apigen.rate_limit", outcome);
    }
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
        let span = request_span(&req, &id);
        req.extensions_mut().insert(RequestId(id.clone()));
        metrics::gauge!(METRIC_ACTIVE).increment(1.0);
        let method = req.method().clone();
        let inner = {
            let _entered = span.enter();
            self.inner.call(req)
        };
        ObservedFuture {
            inner,
            span,
            id: Some(id),
            method,
            started: Instant::now(),
        }
    }
}

/// The request's span, its late fields empty until the gate, the route and the answer fill
/// them.
fn request_span(req: &Request, id: &HeaderValue) -> tracing::Span {
    let header = |name| req.headers().get(name).and_then(|v| v.to_str().ok());
    let host = header(HOST).or_else(|| req.uri().host()).unwrap_or("");
    // `server.address` is the host without its port.
    let address = match host.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    };
    tracing::info_span!(
        "request",
        otel.name = Empty,
        otel.kind = "server",
        http.request.method = %req.method(),
        http.route = Empty,
        http.response.status_code = Empty,
        url.scheme = req.uri().scheme_str().unwrap_or("http"),
        url.path = req.uri().path(),
        server.address = address,
        user_agent.original = header(USER_AGENT),
        error.type = Empty,
        http.request_id = id.to_str().unwrap_or_default(),
        apigen.operation.id = Empty,
        apigen.plan = Empty,
        enduser.id = Empty,
        apigen.rate_limit = Empty,
    )
}

pin_project_lite::pin_project! {
    /// The router's future inside the request's span; on its answer, the status on the span,
    /// the request id on the answer, the duration in the metrics.
    pub(crate) struct ObservedFuture<F> {
        #[pin]
        inner: F,
        span: tracing::Span,
        id: Option<HeaderValue>,
        method: http::Method,
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
        let routed = response.extensions().get::<Routed>().cloned();
        if !this.span.is_disabled() {
            this.span
                .record("http.response.status_code", status.as_u16());
            if status.is_server_error() {
                this.span.record("error.type", status.as_str());
            }
            if routed.is_none() {
                // No operation took it (a 404, a 405, a preflight): named by method and route.
                this.span.record("otel.name", this.method.as_str());
            }
        }
        if let Some(id) = this.id.take() {
            response.headers_mut().insert(X_REQUEST_ID.clone(), id);
        }
        let (operation, route) = match &routed {
            Some(r) => (
                r.operation,
                r.route.as_ref().map_or("", MatchedPath::as_str).to_owned(),
            ),
            None => ("", String::new()),
        };
        metrics::gauge!(METRIC_ACTIVE).decrement(1.0);
        metrics::histogram!(
            METRIC_DURATION,
            "http.request.method" => this.method.as_str().to_owned(),
            "http.route" => route,
            "http.response.status_code" => status.as_str().to_owned(),
            "apigen.operation.id" => operation,
        )
        .record(this.started.elapsed().as_secs_f64());
        Poll::Ready(Ok(response))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sane_ids_are_kept_and_others_are_not() {
        for ok in [
            "3fa85f64-5717-4562-b3fc-2c963f66afa6",
            "01ARZ3NDEKTSV4RRFFQ69G5FAV",
            "Root=1-5759e988-bd862e3fe1be46a994272793",
            "a",
        ] {
            assert!(sane(&HeaderValue::from_static(ok)), "{ok}");
        }
        let long = "a".repeat(129);
        for bad in ["", "two words", "a\"b", "<script>", long.as_str()] {
            assert!(!sane(&HeaderValue::from_str(bad).unwrap()), "{bad}");
        }
    }

    #[test]
    fn new_ids_are_sane_and_differ() {
        let (a, b) = (new_id(), new_id());
        assert_ne!(a, b);
        assert!(sane(&a) && a.len() == 32, "{a:?}");
    }
}
