//! A small load generator: N keep-alive HTTP/1.1 connections to a loopback address, each
//! sending one request at a time (closed loop) for a fixed duration after a warm-up, with
//! every latency recorded. Built on hyper's client connection API, so it adds no pool, no
//! retries and no redirects to what is measured, and it installs with the rest of the
//! workspace from crates.io: no system package (`wrk`) or extra tool (`oha`) is needed.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::{HeaderValue, Method, Request, header};
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;

/// At most this many latencies are kept per connection (bounded memory).
const MAX_SAMPLES_PER_CONNECTION: usize = 4_000_000;
/// A request that takes longer than this fails the run.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// What to send.
#[derive(Clone, Debug)]
pub struct Workload {
    pub method: Method,
    /// The path; `{id}` is replaced with a pet id cycling through `1..=id_range`.
    pub path: String,
    pub id_range: i64,
    pub body: Option<Bytes>,
    pub bearer: String,
    pub expected_status: u16,
    /// `Origin` to send (the in-process `profile … --cors` diagnostic only).
    pub origin: Option<&'static str>,
}

impl Workload {
    fn request(&self, host: &HeaderValue, n: u64) -> Request<Full<Bytes>> {
        let path = if self.path.contains("{id}") {
            let id = (n % self.id_range.max(1) as u64) as i64 + 1;
            self.path.replace("{id}", &id.to_string())
        } else {
            self.path.clone()
        };
        let mut builder = Request::builder()
            .method(self.method.clone())
            .uri(path)
            .header(header::HOST, host.clone())
            .header(header::AUTHORIZATION, format!("Bearer {}", self.bearer));
        if self.body.is_some() {
            builder = builder.header(header::CONTENT_TYPE, "application/json");
        }
        builder
            .body(Full::new(self.body.clone().unwrap_or_default()))
            .expect("a valid request")
    }
}

/// The outcome of one run.
#[derive(Clone, Debug, Default)]
pub struct RunResult {
    /// Requests started and completed inside the measured window.
    pub completed: u64,
    /// Of those, answered with another status than expected.
    pub unexpected: u64,
    /// Every request completed, warm-up and tail included (to divide CPU time by).
    pub all_completed: u64,
    pub window: Duration,
    /// Sorted, microseconds.
    pub latencies_us: Vec<u32>,
}

impl RunResult {
    pub fn requests_per_sec(&self) -> f64 {
        self.completed as f64 / self.window.as_secs_f64()
    }

    pub fn percentile_us(&self, p: f64) -> f64 {
        percentile(&self.latencies_us, p)
    }
}

/// Nearest-rank percentile of sorted values.
pub fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    f64::from(sorted[rank.clamp(1, sorted.len()) - 1])
}

/// One response, for checking that two servers answer alike.
#[derive(Debug, PartialEq, Eq)]
pub struct Probe {
    pub status: u16,
    /// Header names, sorted (values such as `date` legitimately differ).
    pub header_names: Vec<String>,
    pub body: Bytes,
}

/// Sends one request of `workload` (with id 1) and returns what came back.
pub async fn probe(addr: SocketAddr, workload: &Workload) -> Result<Probe, String> {
    let stream = tokio::net::TcpStream::connect(addr)
        .await
        .map_err(|e| e.to_string())?;
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| e.to_string())?;
    let driver = tokio::spawn(conn);
    let host = HeaderValue::from_str(&addr.to_string()).map_err(|e| e.to_string())?;
    let resp = sender
        .send_request(workload.request(&host, 0))
        .await
        .map_err(|e| e.to_string())?;
    let status = resp.status().as_u16();
    let mut header_names: Vec<String> = resp
        .headers()
        .keys()
        .map(|k| k.as_str().to_owned())
        .filter(|k| k != "date")
        .collect();
    header_names.sort();
    header_names.dedup();
    let body = resp
        .into_body()
        .collect()
        .await
        .map_err(|e| e.to_string())?
        .to_bytes();
    drop(sender);
    driver.abort();
    Ok(Probe {
        status,
        header_names,
        body,
    })
}

/// Opens `connections` connections, sends for `warmup` (not recorded), then for `duration`.
pub async fn run(
    addr: SocketAddr,
    workload: Arc<Workload>,
    connections: usize,
    warmup: Duration,
    duration: Duration,
) -> Result<RunResult, String> {
    let host = HeaderValue::from_str(&addr.to_string()).map_err(|e| e.to_string())?;
    let mut senders = Vec::with_capacity(connections);
    let mut drivers = Vec::with_capacity(connections);
    for _ in 0..connections {
        let stream = tokio::net::TcpStream::connect(addr)
            .await
            .map_err(|e| format!("connect {addr}: {e}"))?;
        stream.set_nodelay(true).map_err(|e| e.to_string())?;
        let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| e.to_string())?;
        drivers.push(tokio::spawn(conn));
        senders.push(sender);
    }
    let start = Instant::now();
    let measure_from = start + warmup;
    let end = measure_from + duration;
    let mut tasks = Vec::with_capacity(connections);
    for (i, mut sender) in senders.into_iter().enumerate() {
        let workload = workload.clone();
        let host = host.clone();
        let stride = connections as u64;
        tasks.push(tokio::spawn(async move {
            let mut n = i as u64;
            let mut latencies = Vec::with_capacity(16 * 1024);
            let mut completed = 0u64;
            let mut unexpected = 0u64;
            let mut all = 0u64;
            loop {
                let request = workload.request(&host, n);
                n += stride;
                let sent = Instant::now();
                if sent >= end {
                    break;
                }
                let exchange = async {
                    sender.ready().await?;
                    let resp = sender.send_request(request).await?;
                    let status = resp.status().as_u16();
                    resp.into_body().collect().await?;
                    Ok::<u16, hyper::Error>(status)
                };
                let status = match tokio::time::timeout(REQUEST_TIMEOUT, exchange).await {
                    Ok(Ok(status)) => status,
                    Ok(Err(e)) => return Err(format!("request failed: {e}")),
                    Err(_) => return Err("a request timed out".to_owned()),
                };
                let done = Instant::now();
                all += 1;
                if sent >= measure_from && done <= end {
                    completed += 1;
                    if status != workload.expected_status {
                        unexpected += 1;
                    }
                    if latencies.len() < MAX_SAMPLES_PER_CONNECTION {
                        let us = (done - sent).as_micros().min(u128::from(u32::MAX)) as u32;
                        latencies.push(us);
                    }
                }
            }
            Ok((completed, unexpected, all, latencies))
        }));
    }
    let mut result = RunResult {
        window: duration,
        ..RunResult::default()
    };
    for task in tasks {
        let (completed, unexpected, all, latencies) = task.await.map_err(|e| e.to_string())??;
        result.completed += completed;
        result.unexpected += unexpected;
        result.all_completed += all;
        result.latencies_us.extend(latencies);
    }
    for driver in drivers {
        driver.abort();
    }
    result.latencies_us.sort_unstable();
    Ok(result)
}
