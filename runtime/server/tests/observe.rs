//! Each request's span, id and metrics (`observe`), over real HTTP: the span's fields as a
//! `tracing` subscriber receives them and the metrics as a `metrics` recorder receives them
//! (both installed for this binary), never by reading log text. The route is registered as
//! generated routers register theirs (`layer::operation(..).named(..)`), behind the gate
//! with keys on plans and an in-memory rate limit.
//!
//! One test over HTTP in this binary: the subscriber and the recorder are process-wide.

mod common;
#[path = "common/spans.rs"]
mod spans;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use apigen_server_runtime as runtime;
use axum::extract::Request;
use axum::response::Response;
use axum::routing;
use common::{client, send, serve};
use http::StatusCode;
use metrics::{
    Counter, CounterFn, Gauge, GaugeFn, Histogram, HistogramFn, Key, KeyName, Metadata, Recorder,
    SharedString, Unit,
};
use runtime::auth::{self, StaticKeys};
use runtime::layer::{self, Runtime, ServerConfig};
use runtime::observe::{
    METRIC_ACTIVE, METRIC_BANS, METRIC_DURATION, METRIC_RATE_LIMITED, RequestId, TRACEPARENT,
    TraceContext,
};
use runtime::{Quota, RateLimitPolicy, response};
use spans::Spans;
use tracing_subscriber::layer::SubscriberExt;

// The subscriber: common/spans.rs.

// ---- a recorder that keeps every value ------------------------------------------------------

/// `name{label=value,...}` → counter total, gauge value, or histogram samples.
#[derive(Default, Clone)]
struct Metrics(Arc<Mutex<BTreeMap<String, Vec<f64>>>>);

struct Handle {
    key: String,
    store: Metrics,
    gauge: AtomicU64,
}

fn key_text(key: &Key) -> String {
    let mut labels: Vec<String> = key
        .labels()
        .map(|l| format!("{}={}", l.key(), l.value()))
        .collect();
    labels.sort();
    format!("{}{{{}}}", key.name(), labels.join(","))
}

impl Handle {
    fn set(&self, value: f64) {
        self.store
            .0
            .lock()
            .unwrap()
            .insert(self.key.clone(), vec![value]);
    }
}

impl CounterFn for Handle {
    fn increment(&self, value: u64) {
        let mut map = self.store.0.lock().unwrap();
        let entry = map.entry(self.key.clone()).or_insert_with(|| vec![0.0]);
        entry[0] += value as f64;
    }
    fn absolute(&self, value: u64) {
        self.set(value as f64);
    }
}

impl GaugeFn for Handle {
    fn increment(&self, value: f64) {
        let now = f64::from_bits(self.gauge.load(Ordering::SeqCst)) + value;
        self.gauge.store(now.to_bits(), Ordering::SeqCst);
        self.set(now);
    }
    fn decrement(&self, value: f64) {
        GaugeFn::increment(self, -value);
    }
    fn set(&self, value: f64) {
        self.gauge.store(value.to_bits(), Ordering::SeqCst);
        Handle::set(self, value);
    }
}

impl HistogramFn for Handle {
    fn record(&self, value: f64) {
        self.store
            .0
            .lock()
            .unwrap()
            .entry(self.key.clone())
            .or_default()
            .push(value);
    }
}

/// One handle per key, so that a gauge's increments and decrements meet.
#[derive(Default, Clone)]
struct Record_ {
    store: Metrics,
    handles: Arc<Mutex<BTreeMap<String, Arc<Handle>>>>,
}

impl Record_ {
    fn handle(&self, key: &Key) -> Arc<Handle> {
        let text = key_text(key);
        self.handles
            .lock()
            .unwrap()
            .entry(text.clone())
            .or_insert_with(|| {
                Arc::new(Handle {
                    key: text,
                    store: self.store.clone(),
                    gauge: AtomicU64::new(0f64.to_bits()),
                })
            })
            .clone()
    }
}

impl Recorder for Record_ {
    fn describe_counter(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}
    fn describe_gauge(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}
    fn describe_histogram(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}
    fn register_counter(&self, key: &Key, _: &Metadata<'_>) -> Counter {
        Counter::from_arc(self.handle(key))
    }
    fn register_gauge(&self, key: &Key, _: &Metadata<'_>) -> Gauge {
        Gauge::from_arc(self.handle(key))
    }
    fn register_histogram(&self, key: &Key, _: &Metadata<'_>) -> Histogram {
        Histogram::from_arc(self.handle(key))
    }
}

impl Metrics {
    fn get(&self, key: &str) -> Vec<f64> {
        self.0.lock().unwrap().get(key).cloned().unwrap_or_default()
    }
}

// ---- the service -----------------------------------------------------------------------------

/// A generated-style handler: authorizes, then answers who the caller is and its request id.
async fn whoami(_: Arc<()>, request: Request) -> Response {
    let (parts, _) = request.into_parts();
    let rt = Runtime::from_parts(&parts);
    let result = auth::authorize(parts.extensions.get(), &[&["bearerAuth"]]).map(|_| {
        let id = parts
            .extensions
            .get::<RequestId>()
            .map(|id| id.as_str().to_owned())
            .unwrap_or_default();
        response::text(StatusCode::OK, "text/plain", id)
    });
    rt.reply(result, &[])
}

fn router() -> axum::Router {
    let keys = StaticKeys::new()
        .with_key("gold-key", "ada", Some("gold"))
        .with_key("free-key", "bob", Some("free"));
    let policy = RateLimitPolicy {
        plans: BTreeMap::from([
            (
                "gold".to_owned(),
                Quota {
                    per_minute: 100,
                    per_day: 1000,
                },
            ),
            (
                "free".to_owned(),
                Quota {
                    per_minute: 1,
                    per_day: 1000,
                },
            ),
        ]),
        anonymous_plan: "free".to_owned(),
        default_plan: "free".to_owned(),
        ban_strikes: 2,
        ban: Duration::from_secs(60),
    };
    let config = ServerConfig::new()
        .authenticator(keys)
        .rate_limit_in_memory(policy);
    let routes = axum::Router::new().route(
        "/v1/users/{name}/whoami",
        routing::get_service(layer::operation(&Arc::new(()), whoami).named("whoAmI")),
    );
    layer::finish_prefixed(
        routes,
        common::SECURITY_SCHEMES,
        "/v1",
        &common::CORS,
        config,
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spans_ids_and_metrics_of_each_request() {
    let spans = Spans::default();
    tracing::subscriber::set_global_default(tracing_subscriber::registry().with(spans.clone()))
        .unwrap();
    let recorder = Record_::default();
    let metrics = recorder.store.clone();
    metrics::set_global_recorder(recorder).unwrap();

    let srv = serve(router()).await;
    let url = format!("{}/v1/users/ada/whoami", srv.base);

    // A sane incoming id is kept: on the answer, in the request's extensions, on the span.
    let reply = send(
        client()
            .get(&url)
            .bearer_auth("gold-key")
            .header("x-request-id", "req-0001")
            .header("user-agent", "observe-test/1")
            .header(
                "traceparent",
                "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            ),
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body, "req-0001");
    assert_eq!(reply.headers["x-request-id"], "req-0001");
    let span = spans.request("req-0001");
    let expect = [
        ("otel.name", "whoAmI"),
        ("otel.kind", "server"),
        ("http.request.method", "GET"),
        ("http.route", "/v1/users/{name}/whoami"),
        ("http.response.status_code", "200"),
        ("url.scheme", "http"),
        ("url.path", "/v1/users/ada/whoami"),
        ("server.address", "127.0.0.1"),
        ("user_agent.original", "observe-test/1"),
        ("apigen.operation.id", "whoAmI"),
        ("apigen.plan", "gold"),
        ("enduser.id", "ada"),
        ("apigen.rate_limit", "allowed"),
        // The caller's trace continues here.
        ("trace_id", "4bf92f3577b34da6a3ce929d0e0e4736"),
        ("parent_span_id", "00f067aa0ba902b7"),
    ];
    for (field, value) in expect {
        assert_eq!(
            span.get(field).map(String::as_str),
            Some(value),
            "{field} in {span:?}"
        );
    }
    assert!(!span.contains_key("error.type"), "{span:?}");
    // The credential is nowhere on the span.
    assert!(!format!("{span:?}").contains("gold-key"), "{span:?}");

    // An id that is not sane is replaced by a new one; so is a missing one.
    let reply = send(
        client()
            .get(&url)
            .bearer_auth("gold-key")
            .header("x-request-id", "two words"),
    )
    .await;
    let made = reply.headers["x-request-id"].to_str().unwrap().to_owned();
    assert_ne!(made, "two words");
    // A version-4 UUID's text (what documents that describe the header say it holds).
    let uuid = uuid::Uuid::parse_str(&made).unwrap_or_else(|e| panic!("{made}: {e}"));
    assert_eq!((made.len(), uuid.get_version_num()), (36, 4), "{made}");
    assert_eq!(reply.body, made);
    let again = send(client().get(&url).bearer_auth("gold-key")).await;
    assert_ne!(again.headers["x-request-id"], made.as_str());
    // Without a traceparent, the request starts a trace of its own.
    let span = spans.request(&made);
    assert_eq!(span["trace_id"].len(), 32, "{span:?}");
    assert_ne!(span["trace_id"], "4bf92f3577b34da6a3ce929d0e0e4736");
    assert!(!span.contains_key("parent_span_id"), "{span:?}");

    // The free plan allows one request a minute: the second is refused, counted by plan.
    let first = send(
        client()
            .get(&url)
            .bearer_auth("free-key")
            .header("x-request-id", "free-1"),
    )
    .await;
    assert_eq!(first.status, 200);
    let second = send(
        client()
            .get(&url)
            .bearer_auth("free-key")
            .header("x-request-id", "free-2"),
    )
    .await;
    assert_eq!(second.status, 429);
    assert_eq!(second.headers["x-request-id"], "free-2");
    let refused = spans.request("free-2");
    assert_eq!(refused["apigen.rate_limit"], "limited");
    assert_eq!(refused["apigen.plan"], "free");
    assert_eq!(refused["http.response.status_code"], "429");
    assert_eq!(
        metrics.get(&format!(
            "{METRIC_RATE_LIMITED}{{apigen.plan=free,apigen.rate_limit=limited}}"
        )),
        [1.0]
    );
    // Two more refusals past the first (the policy's strikes) ban the key: counted once as a
    // ban, and each banned answer as a refusal of that kind.
    for n in 3..=5 {
        let reply = send(
            client()
                .get(&url)
                .bearer_auth("free-key")
                .header("x-request-id", format!("free-{n}")),
        )
        .await;
        assert_eq!(reply.status, 429);
    }
    assert_eq!(spans.request("free-4")["apigen.rate_limit"], "banned");
    assert_eq!(metrics.get(&format!("{METRIC_BANS}{{}}")), [1.0]);
    assert_eq!(
        metrics.get(&format!(
            "{METRIC_RATE_LIMITED}{{apigen.plan=free,apigen.rate_limit=banned}}"
        )),
        [2.0]
    );

    // An unknown path: no operation; the span is named by the method.
    let lost = send(
        client()
            .get(format!("{}/v1/nowhere", srv.base))
            .header("x-request-id", "lost-1"),
    )
    .await;
    assert_eq!(lost.status, 404);
    let span = spans.request("lost-1");
    assert_eq!(span["otel.name"], "GET");
    assert!(!span.contains_key("apigen.operation.id"), "{span:?}");

    // The duration of every request, by method, route, status and operation.
    let ok = metrics.get(&format!(
        "{METRIC_DURATION}{{apigen.operation.id=whoAmI,http.request.method=GET,http.response.status_code=200,http.route=/v1/users/{{name}}/whoami}}"
    ));
    assert_eq!(ok.len(), 4, "{ok:?}");
    assert!(ok.iter().all(|s| *s > 0.0 && *s < 10.0), "{ok:?}");
    let limited = metrics.get(&format!(
        "{METRIC_DURATION}{{apigen.operation.id=whoAmI,http.request.method=GET,http.response.status_code=429,http.route=/v1/users/{{name}}/whoami}}"
    ));
    assert_eq!(limited.len(), 4, "{limited:?}");
    let not_found = metrics.get(&format!(
        "{METRIC_DURATION}{{apigen.operation.id=,http.request.method=GET,http.response.status_code=404,http.route=}}"
    ));
    assert_eq!(not_found.len(), 1, "{not_found:?}");
    // Every request has ended: none in flight.
    assert_eq!(metrics.get(&format!("{METRIC_ACTIVE}{{}}")), [0.0]);
}

/// `traceparent` as the W3C recommendation reads it: valid ones continue their trace, anything
/// else starts a new one.
#[test]
fn traceparent_is_read_as_the_recommendation_says() {
    let trace = "4bf92f3577b34da6a3ce929d0e0e4736";
    let parent = "00f067aa0ba902b7";
    let read = |value: &str| {
        let mut headers = http::HeaderMap::new();
        headers.insert(&TRACEPARENT, value.parse().unwrap());
        TraceContext::from_headers(&headers)
    };
    let continued = read(&format!("00-{trace}-{parent}-01"));
    assert_eq!(continued.trace_id, trace);
    assert_eq!(continued.parent_id.as_deref(), Some(parent));
    assert!(continued.sampled);
    assert_eq!(continued.span_id.len(), 16);
    assert_ne!(continued.span_id, parent);
    // Calls made while serving the request: this trace, this request's span as the parent.
    assert_eq!(
        continued.traceparent(),
        format!("00-{trace}-{}-01", continued.span_id)
    );
    assert!(!read(&format!("00-{trace}-{parent}-00")).sampled);
    // A later version is read by its first four fields.
    assert_eq!(
        read(&format!("01-{trace}-{parent}-01-later")).trace_id,
        trace
    );
    for bad in [
        format!("ff-{trace}-{parent}-01"),
        format!("00-{}-{parent}-01", "0".repeat(32)),
        format!("00-{trace}-{}-01", "0".repeat(16)),
        format!("00-{}-{parent}-01", trace.to_uppercase()),
        format!("00-{trace}-{parent}-1"),
        format!("00-{trace}-{parent}-01-x"),
        "garbage".to_owned(),
    ] {
        let started = read(&bad);
        assert_ne!(started.trace_id, trace, "{bad}");
        assert_eq!(started.trace_id.len(), 32, "{bad}");
        assert_eq!(started.parent_id, None, "{bad}");
    }
}

/// Trace and span ids are kept as their digits (no allocation per request): made from a
/// number, they read back as that number and print as W3C's lowercase hexadecimal.
#[test]
fn ids_are_their_hexadecimal_digits() {
    use runtime::observe::{SpanId, TraceId};
    let n = 0x4bf9_2f35_77b3_4da6_a3ce_929d_0e0e_4736_u128;
    let trace = TraceId::from_u128(n);
    assert_eq!(trace.to_int(), n);
    assert_eq!(trace.to_string(), format!("{n:032x}"));
    assert_eq!(format!("{trace:?}"), format!("\"{n:032x}\""));
    let span = SpanId::from_u128(0xf0);
    assert_eq!(span.as_str(), "00000000000000f0");
    assert_eq!(span.to_int(), 0xf0);
    for n in [
        0,
        1,
        0xab,
        u128::from(u64::MAX),
        u128::MAX,
        0x0123_4567_89ab_cdef << 40,
    ] {
        assert_eq!(TraceId::from_u128(n).as_str(), format!("{n:032x}"));
        let low = n & u128::from(u64::MAX);
        assert_eq!(SpanId::from_u128(low).as_str(), format!("{low:016x}"));
    }
    // A made context's traceparent reads back as the same ids.
    let made = TraceContext::from_headers(&http::HeaderMap::new());
    let mut headers = http::HeaderMap::new();
    headers.insert(&TRACEPARENT, made.traceparent().parse().unwrap());
    let continued = TraceContext::from_headers(&headers);
    assert_eq!(continued.trace_id, made.trace_id);
    assert_eq!(continued.parent_id, Some(made.span_id));
}

/// New trace ids (a per-thread generator, `trace_context.rs`) never repeat, within a thread or
/// across threads (each thread's stream starts elsewhere), and are well spread: each of the
/// 128 bits is set in about half of them.
#[test]
fn new_trace_ids_do_not_repeat_and_are_well_spread() {
    let draws: Vec<Vec<u128>> = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..4)
            .map(|_| {
                scope.spawn(|| {
                    (0..10_000)
                        .map(|_| {
                            TraceContext::from_headers(&http::HeaderMap::new())
                                .trace_id
                                .to_int()
                        })
                        .collect()
                })
            })
            .collect();
        threads.into_iter().map(|t| t.join().unwrap()).collect()
    });
    let all: std::collections::HashSet<u128> = draws.iter().flatten().copied().collect();
    assert_eq!(all.len(), 40_000);
    for bit in 0..128 {
        let set = draws[0].iter().filter(|v| *v >> bit & 1 == 1).count();
        assert!((4_000..6_000).contains(&set), "bit {bit}: {set} of 10000");
    }
}
