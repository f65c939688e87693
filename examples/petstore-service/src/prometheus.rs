//! Owns `--metrics-addr`: a `metrics` recorder that keeps every value in memory, and its
//! Prometheus text exposition (format 0.0.4) at `GET /metrics` on a listener of its own, so
//! the API's port never serves it. Small on purpose (the whole exporter is this file): the
//! service's metrics are a handful, and the runtime records them through the `metrics` facade
//! whatever exporter an application picks.
//!
//! Names as OpenTelemetry's Prometheus conversion writes them: dots become underscores,
//! counters end in `_total`, a duration histogram in `_seconds`
//! (`http.server.request.duration` → `http_server_request_duration_seconds`).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use axum::Router;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::get;
use metrics::{
    Counter, CounterFn, Gauge, GaugeFn, Histogram, HistogramFn, Key, KeyName, Metadata, Recorder,
    SharedString, Unit,
};

/// Upper bounds of the histograms' buckets, in seconds: OpenTelemetry's advice for
/// `http.server.request.duration`.
const BOUNDS: [f64; 14] = [
    0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0,
];

/// The recorder (install it with `metrics::set_global_recorder`) and the registry `/metrics`
/// reads; clones share it.
#[derive(Clone, Default)]
pub struct Prometheus {
    series: Arc<Mutex<BTreeMap<SeriesKey, Arc<Series>>>>,
}

/// A series' name and its labels, in the order recorded.
type SeriesKey = (String, Vec<(String, String)>);

/// One time series: a name and its labels, and its value.
struct Series {
    kind: Kind,
}

enum Kind {
    Counter(AtomicU64),
    /// An `f64`'s bits.
    Gauge(AtomicU64),
    Histogram(Mutex<Buckets>),
}

#[derive(Default)]
struct Buckets {
    /// Observations at or below each bound (not cumulative here; summed when written).
    counts: [u64; BOUNDS.len()],
    sum: f64,
    count: u64,
}

impl CounterFn for Series {
    fn increment(&self, value: u64) {
        if let Kind::Counter(c) = &self.kind {
            c.fetch_add(value, Ordering::Relaxed);
        }
    }
    fn absolute(&self, value: u64) {
        if let Kind::Counter(c) = &self.kind {
            c.fetch_max(value, Ordering::Relaxed);
        }
    }
}

impl GaugeFn for Series {
    fn increment(&self, value: f64) {
        if let Kind::Gauge(g) = &self.kind {
            let _ = g.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |bits| {
                Some((f64::from_bits(bits) + value).to_bits())
            });
        }
    }
    fn decrement(&self, value: f64) {
        GaugeFn::increment(self, -value);
    }
    fn set(&self, value: f64) {
        if let Kind::Gauge(g) = &self.kind {
            g.store(value.to_bits(), Ordering::Relaxed);
        }
    }
}

impl HistogramFn for Series {
    fn record(&self, value: f64) {
        if let Kind::Histogram(h) = &self.kind {
            let mut h = h.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(i) = BOUNDS.iter().position(|b| value <= *b) {
                h.counts[i] += 1;
            }
            h.sum += value;
            h.count += 1;
        }
    }
}

impl Prometheus {
    fn series(&self, key: &Key, kind: fn() -> Kind) -> Arc<Series> {
        let labels = key
            .labels()
            .map(|l| (l.key().to_owned(), l.value().to_owned()))
            .collect();
        self.series
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entry((key.name().to_owned(), labels))
            .or_insert_with(|| Arc::new(Series { kind: kind() }))
            .clone()
    }

    /// The exposition: every series, grouped by name, in name order.
    pub fn render(&self) -> String {
        let series = self.series.lock().unwrap_or_else(PoisonError::into_inner);
        let mut out = String::new();
        let mut last = String::new();
        for ((name, labels), s) in series.iter() {
            let (kind, base) = match &s.kind {
                Kind::Counter(_) => ("counter", format!("{}_total", prom_name(name))),
                Kind::Gauge(_) => ("gauge", prom_name(name)),
                Kind::Histogram(_) if name.ends_with(".duration") => {
                    ("histogram", format!("{}_seconds", prom_name(name)))
                }
                Kind::Histogram(_) => ("histogram", prom_name(name)),
            };
            if base != last {
                let _ = writeln!(out, "# TYPE {base} {kind}");
                last = base.clone();
            }
            match &s.kind {
                Kind::Counter(c) => {
                    let _ = writeln!(
                        out,
                        "{base}{} {}",
                        labels_text(labels, None),
                        c.load(Ordering::Relaxed)
                    );
                }
                Kind::Gauge(g) => {
                    let _ = writeln!(
                        out,
                        "{base}{} {}",
                        labels_text(labels, None),
                        f64::from_bits(g.load(Ordering::Relaxed))
                    );
                }
                Kind::Histogram(h) => {
                    let h = h.lock().unwrap_or_else(PoisonError::into_inner);
                    let mut cumulative = 0;
                    for (bound, count) in BOUNDS.iter().zip(h.counts) {
                        cumulative += count;
                        let le = bound.to_string();
                        let _ = writeln!(
                            out,
                            "{base}_bucket{} {cumulative}",
                            labels_text(labels, Some(&le))
                        );
                    }
                    let _ = writeln!(
                        out,
                        "{base}_bucket{} {}",
                        labels_text(labels, Some("+Inf")),
                        h.count
                    );
                    let _ = writeln!(out, "{base}_sum{} {}", labels_text(labels, None), h.sum);
                    let _ = writeln!(out, "{base}_count{} {}", labels_text(labels, None), h.count);
                }
            }
        }
        out
    }

    /// `GET /metrics`, for the metrics listener.
    pub fn router(&self) -> Router {
        let this = self.clone();
        Router::new().route(
            "/metrics",
            get(move || {
                let text = this.render();
                async move {
                    let mut response = (StatusCode::OK, text).into_response();
                    response.headers_mut().insert(
                        header::CONTENT_TYPE,
                        HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"),
                    );
                    response
                }
            }),
        )
    }
}

impl Recorder for Prometheus {
    fn describe_counter(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}
    fn describe_gauge(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}
    fn describe_histogram(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}
    fn register_counter(&self, key: &Key, _: &Metadata<'_>) -> Counter {
        Counter::from_arc(self.series(key, || Kind::Counter(AtomicU64::new(0))))
    }
    fn register_gauge(&self, key: &Key, _: &Metadata<'_>) -> Gauge {
        Gauge::from_arc(self.series(key, || Kind::Gauge(AtomicU64::new(0f64.to_bits()))))
    }
    fn register_histogram(&self, key: &Key, _: &Metadata<'_>) -> Histogram {
        Histogram::from_arc(self.series(key, || Kind::Histogram(Mutex::default())))
    }
}

/// `http.server.request.duration` → `http_server_request_duration`: what Prometheus allows
/// in a name (letters, digits, `_`, `:`), everything else `_`.
fn prom_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == ':' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// `{a="x",b="y"}` (with `le` last for a bucket), values escaped; empty without labels.
fn labels_text(labels: &[(String, String)], le: Option<&str>) -> String {
    let mut parts: Vec<String> = labels
        .iter()
        .map(|(k, v)| format!("{}=\"{}\"", prom_name(k).replace(':', "_"), escape(v)))
        .collect();
    if let Some(le) = le {
        parts.push(format!("le=\"{le}\""));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!("{{{}}}", parts.join(","))
    }
}

fn escape(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}
