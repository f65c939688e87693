//! Owns the export of request spans over OTLP/HTTP (feature `otlp`, `--otlp-endpoint URL`):
//! each `request` span of the server runtime (`observe`), named after its operation, goes to a
//! collector through `tracing-opentelemetry` and the OpenTelemetry SDK's batch processor.
//!
//! The exported span is the one the logs talk about: it continues the caller's trace (its
//! `traceparent`, parent span and sampled flag, [`Continue`]) and carries the runtime's own
//! trace and span ids (the access log's `trace_id` and `span_id`, and the parent of the calls
//! the request makes: `TraceContext::traceparent`), not ids of the SDK's making
//! ([`RequestIds`]).

use std::cell::Cell;
use std::convert::Infallible;
use std::task::{Context as TaskContext, Poll};

use axum::extract::Request;
use opentelemetry::context::{FutureExt as _, WithContext};
use opentelemetry::trace::{
    SpanContext, SpanId, TraceContextExt, TraceFlags, TraceId, TraceState, TracerProvider as _,
};
use opentelemetry_sdk::trace::{IdGenerator, RandomIdGenerator, SdkTracerProvider};
use petstore_server::runtime::observe::TraceContext;
use tower_layer::Layer;
use tower_service::Service;
use tracing::Subscriber;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id};
use tracing_subscriber::Layer as _;
use tracing_subscriber::layer::Context;

/// The OTLP/HTTP path of traces, appended to an endpoint given without it.
const TRACES_PATH: &str = "/v1/traces";

/// The exporter's pipeline: `provider` to shut down (it sends what is left) when the process
/// stops, `layer` for the subscriber.
pub struct Otlp<S> {
    pub provider: SdkTracerProvider,
    pub layer: Box<dyn tracing_subscriber::Layer<S> + Send + Sync>,
}

/// The pipeline exporting to `endpoint` (`http://collector:4318`, or with `/v1/traces`).
/// Made before the async runtime starts: the exporter's HTTP client is a blocking one, run by
/// the batch processor's own thread.
pub fn pipeline<S>(endpoint: &str) -> Result<Otlp<S>, String>
where
    S: Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a> + Send + Sync,
{
    use opentelemetry_otlp::{WithExportConfig, WithHttpConfig as _};
    let endpoint = endpoint.trim_end_matches('/');
    let url = if endpoint.ends_with(TRACES_PATH) {
        endpoint.to_owned()
    } else {
        format!("{endpoint}{TRACES_PATH}")
    };
    let client = reqwest::blocking::Client::builder()
        .no_proxy()
        .build()
        .map_err(|e| format!("--otlp-endpoint: cannot make the HTTP client: {e}"))?;
    let exporter = opentelemetry_otlp::SpanExporter::builder()
        .with_http()
        .with_http_client(client)
        .with_endpoint(url.as_str())
        .build()
        .map_err(|e| format!("--otlp-endpoint {url}: {e}"))?;
    let provider = SdkTracerProvider::builder()
        .with_batch_exporter(exporter)
        .with_id_generator(RuntimeIds)
        .with_resource(
            opentelemetry_sdk::Resource::builder()
                .with_service_name("petstore-service")
                .build(),
        )
        .build();
    let tracer = provider.tracer("petstore-service");
    // A span is built when it closes (no context activation), so that the name the route
    // gives it later (`otel.name`) is its name. `RequestIds` first: it must see a request span
    // close before the OpenTelemetry layer builds it.
    let layer = RequestIds.and_then(
        tracing_opentelemetry::layer()
            .with_tracer(tracer)
            .with_context_activation(false)
            .with_location(false)
            .with_threads(false)
            .with_target(false)
            .with_tracked_inactivity(false),
    );
    Ok(Otlp {
        provider,
        layer: Box::new(layer),
    })
}

thread_local! {
    /// The runtime's ids of the request span closing on this thread (`RequestIds`), for the
    /// SDK to give the span it builds for it next (`RuntimeIds`).
    static PENDING: Cell<Option<(u128, u64)>> = const { Cell::new(None) };
    /// The trace id of the span the SDK is building now (its span id was asked first).
    static BUILDING: Cell<Option<u128>> = const { Cell::new(None) };
}

/// Reads the runtime's `trace_id` and `span_id` from each new `request` span and, as it
/// closes, hands them to [`RuntimeIds`]: the OpenTelemetry layer (after this one) builds the
/// span in the same call, on the same thread.
struct RequestIds;

#[derive(Default, Clone, Copy)]
struct Ids {
    trace: Option<u128>,
    span: Option<u64>,
}

impl Visit for Ids {
    fn record_str(&mut self, field: &Field, value: &str) {
        match field.name() {
            "trace_id" => self.trace = u128::from_str_radix(value, 16).ok(),
            "span_id" => self.span = u64::from_str_radix(value, 16).ok(),
            _ => {}
        }
    }
    // The runtime records the ids as displayed text (`tracing::field::display`), which
    // arrives here: its `Debug` is the text itself.
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if matches!(field.name(), "trace_id" | "span_id") {
            self.record_str(field, &format!("{value:?}"));
        }
    }
}

impl<S> tracing_subscriber::Layer<S> for RequestIds
where
    S: Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
{
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        let meta = attrs.metadata();
        if meta.name() != "request" || !meta.target().ends_with("::observe") {
            return;
        }
        let mut ids = Ids::default();
        attrs.record(&mut ids);
        if let Some(span) = ctx.span(id) {
            span.extensions_mut().insert(ids);
        }
    }

    fn on_close(&self, id: Id, ctx: Context<'_, S>) {
        let ids = ctx
            .span(&id)
            .and_then(|span| span.extensions().get::<Ids>().copied());
        // Set for every span that closes, so that a span that is not a request's never
        // takes ids left by another.
        let ids = match ids {
            Some(Ids {
                trace: Some(trace),
                span: Some(span),
            }) => Some((trace, span)),
            _ => None,
        };
        PENDING.with(|p| p.set(ids));
    }
}

/// The SDK's ids: the runtime's for a request span ([`RequestIds`]), random ones otherwise.
/// The SDK asks for the span id first, then for a trace id only when the span has no parent.
#[derive(Debug)]
struct RuntimeIds;

impl IdGenerator for RuntimeIds {
    fn new_span_id(&self) -> SpanId {
        let pending = PENDING.with(Cell::take);
        BUILDING.with(|b| b.set(pending.map(|(trace, _)| trace)));
        match pending {
            Some((_, span)) => SpanId::from(span),
            None => RandomIdGenerator::default().new_span_id(),
        }
    }

    fn new_trace_id(&self) -> TraceId {
        match BUILDING.with(Cell::take) {
            Some(trace) => TraceId::from(trace),
            None => RandomIdGenerator::default().new_trace_id(),
        }
    }
}

/// Around the routes: a request with a valid `traceparent` has its caller's span as the
/// current OpenTelemetry context while the runtime makes its span, which the OpenTelemetry
/// layer takes as the parent (its trace, its span, its sampled flag); any other request an
/// empty one (a root span).
#[derive(Clone, Copy, Debug, Default)]
pub struct ContinueLayer;

impl<S> Layer<S> for ContinueLayer {
    type Service = Continue<S>;
    fn layer(&self, inner: S) -> Continue<S> {
        Continue { inner }
    }
}

/// See [`ContinueLayer`].
#[derive(Clone, Debug)]
pub struct Continue<S> {
    inner: S,
}

impl<S> Service<Request> for Continue<S>
where
    S: Service<Request, Error = Infallible>,
{
    type Response = S::Response;
    type Error = Infallible;
    type Future = WithContext<S::Future>;

    fn poll_ready(&mut self, cx: &mut TaskContext<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: Request) -> Self::Future {
        let trace = TraceContext::from_headers(req.headers());
        let Some(parent) = trace.parent_id else {
            return self
                .inner
                .call(req)
                .with_context(opentelemetry::Context::new());
        };
        let flags = if trace.sampled {
            TraceFlags::SAMPLED
        } else {
            TraceFlags::default()
        };
        let remote = SpanContext::new(
            TraceId::from(trace.trace_id.to_int()),
            SpanId::from(parent.to_int()),
            flags,
            true,
            TraceState::default(),
        );
        // Current while the router's future runs: axum calls the route's service (where the
        // runtime makes the request span) when that future is first polled, not here.
        let caller = opentelemetry::Context::new().with_remote_span_context(remote);
        self.inner.call(req).with_context(caller)
    }
}
