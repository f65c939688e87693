//! Tracing and metrics on, for the rows that weigh what they cost: a `tracing` subscriber at
//! INFO writing plain text (no colours) to a sink (every span an INFO span makes is built and
//! its fields formatted, as a service logging at INFO pays; nothing is written anywhere), and
//! the reference service's `metrics` recorder installed (what `--metrics-addr` installs;
//! nothing scrapes it). Process-wide: only the `profile … --observe` runs install them.
//!
//! The hand-written side does what a team writing axum by hand would do for the same
//! dashboards: `tower-http`'s `TraceLayer` with its span at INFO recording the attributes the
//! generated router's span records where a hand-written service knows them (method, scheme,
//! path, server address, user agent; then route, operation, caller, plan, status and request
//! id as the request goes through), no event per response (the generated router writes none
//! either), and a middleware recording the same metrics (requests in flight, the duration
//! histogram with method, route, status and operation), its labels made per request as axum's
//! own metrics example makes them. It leaves out the trace context (`trace_id`, `span_id`:
//! a hand-written service would need OpenTelemetry's propagator for it), which the generated
//! side pays for.

use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::middleware::{self, Next};
use axum::response::Response;
use http::header::{HOST, USER_AGENT};
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use tracing::field::Empty;
use tracing::{Level, Span};

/// Installs the subscriber and the recorder, once for the process.
pub fn install() -> Result<(), String> {
    tracing_subscriber::fmt()
        .with_max_level(Level::INFO)
        .with_writer(std::io::sink)
        // As a service writes to a file or a pipe (the reference service's colours are for a
        // terminal only): with them, colouring each field's name was ~30 % of a request.
        .with_ansi(false)
        .try_init()
        .map_err(|e| format!("a tracing subscriber: {e}"))?;
    metrics::set_global_recorder(petstore_service::prometheus::Prometheus::default())
        .map_err(|e| format!("a metrics recorder: {e}"))
}

/// The hand-written router with its trace layer and metrics.
pub fn handwritten(router: axum::Router) -> axum::Router {
    router.layer(middleware::from_fn(track)).layer(
        TraceLayer::new_for_http()
            .make_span_with(request_span)
            .on_response(DefaultOnResponse::new().level(Level::DEBUG)),
    )
}

/// The request's span: what the request tells at once, the rest left for later.
fn request_span(req: &Request) -> Span {
    let header = |name| req.headers().get(name).and_then(|v| v.to_str().ok());
    tracing::info_span!(
        "request",
        otel.name = Empty,
        otel.kind = "server",
        http.request.method = %req.method(),
        http.route = Empty,
        http.response.status_code = Empty,
        url.scheme = req.uri().scheme_str().unwrap_or("http"),
        url.path = req.uri().path(),
        server.address = header(HOST).map(|h| h.rsplit_once(':').map_or(h, |(name, _)| name)),
        user_agent.original = header(USER_AGENT),
        http.request_id = Empty,
        apigen.operation.id = Empty,
        apigen.plan = Empty,
        enduser.id = Empty,
        apigen.rate_limit = Empty,
    )
}

/// The operation a hand-written route serves, for the metric's label.
fn operation(method: &http::Method, route: &str) -> &'static str {
    match (method.as_str(), route) {
        ("GET", "/v1/pets") => "listPets",
        ("POST", "/v1/pets") => "createPet",
        ("GET", "/v1/pets/{petId}") => "getPet",
        _ => "",
    }
}

async fn track(req: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = req.method().clone();
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map(|p| p.as_str().to_owned())
        .unwrap_or_default();
    let op = operation(&method, &route);
    let span = Span::current();
    span.record("otel.name", op);
    span.record("apigen.operation.id", op);
    span.record("http.route", route.as_str());
    metrics::gauge!("http.server.active_requests").increment(1.0);
    let response = next.run(req).await;
    metrics::gauge!("http.server.active_requests").decrement(1.0);
    span.record("http.response.status_code", response.status().as_u16());
    if let Some(id) = response
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
    {
        span.record("http.request_id", id);
    }
    let labels = [
        ("http.request.method", method.to_string()),
        ("apigen.operation.id", op.to_owned()),
        ("http.route", route),
        (
            "http.response.status_code",
            response.status().as_u16().to_string(),
        ),
    ];
    metrics::histogram!("http.server.request.duration", &labels)
        .record(started.elapsed().as_secs_f64());
    response
}
