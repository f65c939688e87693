//! Diagnostic: the two routers called in process, one request at a time on one thread, with
//! no network, no HTTP parsing and no load generator. What remains is exactly the code that
//! differs between the two servers (routing, authentication, rate limiting, parameter and
//! body handling, the store, serialization), so this isolates the generated code and its
//! runtime from the measurement noise of the loopback runs.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::ConnectInfo;
use http::{Method, Request, header};
use tower_service::Service;

use crate::Settings;
use crate::serve::{self, KEY, Kind};
use crate::stats::median;

pub struct Row {
    pub request: &'static str,
    pub rate_limit: bool,
    /// Nanoseconds per request, one per round.
    pub ns_generated: Vec<f64>,
    pub ns_handwritten: Vec<f64>,
}

impl Row {
    /// hand-written ns / generated ns: above 1 means the generated router is cheaper.
    pub fn ratio(&self) -> f64 {
        median(&self.ns_handwritten) / median(&self.ns_generated)
    }
}

fn request(workload: &crate::load::Workload, n: u64, peer: SocketAddr) -> Request<Body> {
    let path = workload.path.replace(
        "{id}",
        &((n % workload.id_range.max(1) as u64) as i64 + 1).to_string(),
    );
    let mut builder = Request::builder()
        .method(workload.method.clone())
        .uri(path)
        .header(header::HOST, "127.0.0.1")
        .header(header::AUTHORIZATION, format!("Bearer {KEY}"));
    if workload.method == Method::POST {
        builder = builder.header(header::CONTENT_TYPE, "application/json");
    }
    if let Some(origin) = workload.origin {
        builder = builder.header(header::ORIGIN, origin);
    }
    let mut req = builder
        .body(Body::from(workload.body.clone().unwrap_or_default()))
        .expect("a valid request");
    // What `into_make_service_with_connect_info` adds on a real connection.
    req.extensions_mut().insert(ConnectInfo(peer));
    req
}

/// Sends request number `n` and reads the whole answer; an unexpected status is an error.
pub(crate) async fn send(
    router: &mut axum::Router,
    workload: &crate::load::Workload,
    n: u64,
    peer: SocketAddr,
) -> Result<(), String> {
    let resp = router
        .call(request(workload, n, peer))
        .await
        .map_err(|e| e.to_string())?;
    if resp.status().as_u16() != workload.expected_status {
        return Err(format!(
            "in-process {} {}: status {}",
            workload.method,
            workload.path,
            resp.status()
        ));
    }
    let body = axum::body::to_bytes(resp.into_body(), usize::MAX)
        .await
        .map_err(|e| e.to_string())?;
    std::hint::black_box(body);
    Ok(())
}

/// The client address every in-process request comes from.
pub(crate) fn peer() -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], 40000))
}

/// Sends requests for `duration`; returns nanoseconds per request.
async fn drive(
    router: &mut axum::Router,
    workload: &crate::load::Workload,
    duration: Duration,
) -> Result<f64, String> {
    let peer = peer();
    let started = Instant::now();
    let mut n = 0u64;
    while started.elapsed() < duration {
        // 64 requests between clock reads.
        for _ in 0..64 {
            send(router, workload, n, peer).await?;
            n += 1;
        }
    }
    Ok(started.elapsed().as_nanos() as f64 / n as f64)
}

pub fn run(settings: &Settings) -> Result<Vec<Row>, String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let duration = settings.duration / 2;
    let mut rows = Vec::new();
    for rate_limit in [false, true] {
        for (request, workload) in crate::server::workloads() {
            let mut generated = serve::app(Kind::Generated, rate_limit);
            let mut handwritten = serve::app(Kind::Handwritten, rate_limit);
            let mut row = Row {
                request,
                rate_limit,
                ns_generated: Vec::new(),
                ns_handwritten: Vec::new(),
            };
            runtime.block_on(async {
                // Warm-up, unrecorded.
                drive(&mut generated, &workload, settings.warmup).await?;
                drive(&mut handwritten, &workload, settings.warmup).await?;
                for round in 0..settings.rounds {
                    let generated_first = round % 2 == 0;
                    for generated_turn in [generated_first, !generated_first] {
                        if generated_turn {
                            let ns = drive(&mut generated, &workload, duration).await?;
                            row.ns_generated.push(ns);
                        } else {
                            let ns = drive(&mut handwritten, &workload, duration).await?;
                            row.ns_handwritten.push(ns);
                        }
                    }
                }
                Ok::<(), String>(())
            })?;
            eprintln!(
                "  in-process {:<22} limiter {:<3}: {:>6.0} vs {:>6.0} ns/req, hand/gen {:.3}",
                row.request,
                if rate_limit { "on" } else { "off" },
                median(&row.ns_generated),
                median(&row.ns_handwritten),
                row.ratio()
            );
            rows.push(row);
        }
    }
    Ok(rows)
}

/// `petstore-bench profile generated|handwritten ROW N [--rate-limit] [--cors]`: sends N
/// in-process requests of one row (0 = list, 1 = create, 2 = get) to one router, for a
/// profiler (`valgrind --tool=callgrind`), whose instruction counts hold still on a noisy
/// machine. `--cors` (generated side only, not part of the report): CORS on for one origin,
/// and every request sent from it, as a browser's would be.
///
/// `--observe`: tracing and metrics on (`observed`), on either side.
pub fn profile(args: &[String]) -> Result<(), String> {
    let usage =
        || "profile: generated|handwritten ROW N [--rate-limit] [--cors] [--observe]".to_owned();
    let kind = match args.first().map(String::as_str) {
        Some("generated") => Kind::Generated,
        Some("handwritten") => Kind::Handwritten,
        _ => return Err(usage()),
    };
    let row: usize = args.get(1).and_then(|a| a.parse().ok()).ok_or_else(usage)?;
    let n: u64 = args.get(2).and_then(|a| a.parse().ok()).ok_or_else(usage)?;
    let rate_limit = args.iter().any(|a| a == "--rate-limit");
    let cors = args.iter().any(|a| a == "--cors");
    let observe = args.iter().any(|a| a == "--observe");
    if observe {
        crate::observed::install()?;
    }
    if cors && matches!(kind, Kind::Handwritten) {
        return Err("profile: --cors is for the generated side only".into());
    }
    let (_, mut workload) = crate::server::workloads()
        .into_iter()
        .nth(row)
        .ok_or("profile: ROW is 0, 1 or 2")?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let cors = if cors {
        workload.origin = Some(serve::CORS_ORIGIN);
        Some(
            petstore_server::Cors::builder()
                .allow_origin(serve::CORS_ORIGIN)
                .build()
                .map_err(|e| e.to_string())?,
        )
    } else {
        None
    };
    let mut router = serve::app_with(kind, rate_limit, cors);
    if observe && matches!(kind, Kind::Handwritten) {
        router = crate::observed::handwritten(router);
    }
    let peer = peer();
    runtime.block_on(async {
        for i in 0..n {
            send(&mut router, &workload, i, peer).await?;
        }
        Ok(())
    })
}
