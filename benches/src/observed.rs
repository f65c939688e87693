//! Tracing and metrics on, for the rows that weigh what they cost (issue 30): a `tracing`
//! subscriber at INFO writing plain text (no colours) to a sink (every span an INFO span makes is built and its
//! fields formatted, as a service logging at INFO pays; nothing is written anywhere), and the
//! reference service's `metrics` recorder installed (what `--metrics-addr` installs; nothing
//! scrapes it). Process-wide: only the `profile … --observe` runs install them.
//!
//! The hand-written side does what a team writing axum by hand would do for the same
//! dashboards: `tower-http`'s `TraceLayer` with its span at INFO (its default is DEBUG, which
//! a subscriber at INFO would skip: not the same work) and no event per response (the
//! generated router writes none either), and a middleware recording the same metrics
//! (requests in flight, the duration histogram with method, route, status and operation), its
//! labels made per request as axum's own metrics example makes them.

use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::middleware::{self, Next};
use axum::response::Response;
use tower_http::trace::{DefaultMakeSpan, DefaultOnResponse, TraceLayer};
use tracing::Level;

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
            .make_span_with(DefaultMakeSpan::new().level(Level::INFO))
            .on_response(DefaultOnResponse::new().level(Level::DEBUG)),
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
    metrics::gauge!("http.server.active_requests").increment(1.0);
    let response = next.run(req).await;
    metrics::gauge!("http.server.active_requests").decrement(1.0);
    let labels = [
        ("http.request.method", method.to_string()),
        ("apigen.operation.id", operation(&method, &route).to_owned()),
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
