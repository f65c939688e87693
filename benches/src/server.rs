//! Server comparison: the reference service's generated router against the hand-written axum
//! service, each in its own child process, under the same closed-loop keep-alive load.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::Method;

use crate::Settings;
use crate::load::{self, Workload};
use crate::serve::{KEY, Kind, SEEDED_PETS, ServerProcess};
use crate::stats::Pair;

pub struct Row {
    pub request: &'static str,
    pub rate_limit: bool,
    pub pair: Pair,
    /// Peak resident memory (VmHWM) of each server process, kB.
    pub peak_kb_generated: u64,
    pub peak_kb_handwritten: u64,
    /// Set when the two servers did not answer the probe request alike.
    pub mismatch: Option<String>,
}

pub fn workloads() -> Vec<(&'static str, Workload)> {
    let base = |method, path: &str, body: Option<&'static str>, expected| Workload {
        method,
        path: path.to_owned(),
        id_range: SEEDED_PETS,
        body: body.map(|b: &'static str| Bytes::from_static(b.as_bytes())),
        bearer: KEY.to_owned(),
        expected_status: expected,
        origin: None,
    };
    vec![
        (
            "GET /v1/pets?limit=20",
            base(Method::GET, "/v1/pets?limit=20", None, 200),
        ),
        (
            "POST /v1/pets",
            base(
                Method::POST,
                "/v1/pets",
                Some(r#"{"name":"Rex","categoryId":7,"status":"available"}"#),
                201,
            ),
        ),
        (
            "GET /v1/pets/{id}",
            base(Method::GET, "/v1/pets/{id}", None, 200),
        ),
    ]
}

pub async fn run(settings: &Settings) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    for rate_limit in [false, true] {
        for (request, workload) in workloads() {
            let workload = Arc::new(workload);
            // Fresh processes per row: the peak memory is this row's, and the store starts
            // with the same 100 pets on both sides.
            let mut generated = ServerProcess::start(Kind::Generated, rate_limit)?;
            let mut handwritten = ServerProcess::start(Kind::Handwritten, rate_limit)?;

            let g = load::probe(generated.addr, &workload).await?;
            let h = load::probe(handwritten.addr, &workload).await?;
            let mismatch = (g != h).then(|| {
                format!(
                    "generated {} {:?} {:?} vs hand-written {} {:?} {:?}",
                    g.status,
                    g.header_names,
                    String::from_utf8_lossy(&g.body),
                    h.status,
                    h.header_names,
                    String::from_utf8_lossy(&h.body)
                )
            });
            if let Some(m) = &mismatch {
                eprintln!("  warning: {request}: the servers answer differently: {m}");
            }

            let mut pair = Pair::default();
            for round in 0..settings.rounds {
                // Alternate which side goes first, so a drift in machine load hits both.
                let order = if round % 2 == 0 {
                    [Kind::Generated, Kind::Handwritten]
                } else {
                    [Kind::Handwritten, Kind::Generated]
                };
                for kind in order {
                    let (server, side) = match kind {
                        Kind::Generated => (&mut generated, &mut pair.generated),
                        Kind::Handwritten => (&mut handwritten, &mut pair.handwritten),
                    };
                    let addr = server.addr;
                    let before = server.stats()?;
                    let result = load::run(
                        addr,
                        workload.clone(),
                        settings.connections,
                        settings.warmup,
                        settings.duration,
                    )
                    .await?;
                    let cpu = server.stats()?.cpu_ns.saturating_sub(before.cpu_ns);
                    side.push(&result, cpu);
                    // Let the sockets of the finished run close before the other side starts.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
            let peak_g = generated.stats()?.peak_kb;
            let peak_h = handwritten.stats()?.peak_kb;
            let row = Row {
                request,
                rate_limit,
                pair,
                peak_kb_generated: peak_g,
                peak_kb_handwritten: peak_h,
                mismatch,
            };
            eprintln!(
                "  server {:<22} limiter {:<3}: {:>8.0} vs {:>8.0} req/s, ratio {:.3}",
                row.request,
                if rate_limit { "on" } else { "off" },
                crate::stats::median(&row.pair.generated.per_sec),
                crate::stats::median(&row.pair.handwritten.per_sec),
                row.pair.ratio()
            );
            rows.push(row);
        }
    }
    Ok(rows)
}
