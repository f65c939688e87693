//! Oversize and slow requests over real TCP: a long request target answers 414 and a large
//! header section 431 with the `Error` body and the rate-limit headers; a client that trickles
//! its head or its body gets 408 and its connection closed; `serve` holds at most
//! `max_connections` connections. Timeouts are 1 s here; the bounds asserted are generous.

mod common;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use apigen_server_runtime::limits::{self, Limits};
use apigen_server_runtime::ratelimit::{Quota, RateLimitPolicy};
use common::{GOOD_KEY, config, serve_petstore, serve_petstore_limited};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Longer than any wait in these tests should take; reaching it fails the test.
const GENEROUS: Duration = Duration::from_secs(10);

fn policy() -> RateLimitPolicy {
    let mut plans = BTreeMap::new();
    let quota = Quota {
        per_minute: 1000,
        per_day: 10_000,
    };
    plans.insert("free".to_owned(), quota);
    RateLimitPolicy {
        plans,
        anonymous_plan: "free".into(),
        default_plan: "free".into(),
        ban_strikes: 100,
        ban: Duration::from_secs(1),
    }
}

fn short_timeouts() -> Limits {
    Limits::new()
        .head_timeout(Some(Duration::from_secs(1)))
        .body_timeout(Some(Duration::from_secs(1)))
}

/// A response read off the wire: status, lower-cased head, body.
struct Wire {
    status: u16,
    head: String,
    body: String,
}

impl Wire {
    fn parse(bytes: &[u8]) -> Wire {
        let text = String::from_utf8_lossy(bytes).into_owned();
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status line in {text:?}"));
        Wire {
            status,
            head: head.to_ascii_lowercase(),
            body: body.to_owned(),
        }
    }

    fn has_header(&self, name: &str) -> bool {
        self.head.contains(&format!("\r\n{name}:"))
    }

    /// The `Error` body's code and message (asserting its shape and status).
    fn problem(&self) -> (String, String) {
        assert!(
            self.has_header("content-type") && self.head.contains("application/json"),
            "{}",
            self.head
        );
        let v: serde_json::Value = serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("body is not JSON ({e}): {:?}", self.body));
        assert_eq!(v.as_object().map(|o| o.len()), Some(3), "{v}");
        assert_eq!(v["status"].as_u64(), Some(u64::from(self.status)), "{v}");
        (
            v["code"].as_str().unwrap().to_owned(),
            v["message"].as_str().unwrap().to_owned(),
        )
    }

    fn assert_rate_limited(&self) {
        for name in [
            "x-ratelimit-limit",
            "x-ratelimit-remaining",
            "x-ratelimit-reset",
        ] {
            assert!(self.has_header(name), "{name} missing: {}", self.head);
        }
    }
}

/// Sends `request` whole and reads until the server closes (bounded by [`GENEROUS`]).
async fn exchange(addr: SocketAddr, request: &[u8]) -> Wire {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    // The server may answer and close before reading everything.
    let _ = stream.write_all(request).await;
    let mut buf = Vec::new();
    tokio::time::timeout(GENEROUS, stream.read_to_end(&mut buf))
        .await
        .expect("the server neither answered nor closed")
        .ok();
    Wire::parse(&buf)
}

fn get(addr: SocketAddr, target: &str, extra_headers: &str) -> Vec<u8> {
    format!(
        "GET {target} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {GOOD_KEY}\r\n{extra_headers}Connection: close\r\n\r\n"
    )
    .into_bytes()
}

#[tokio::test]
async fn a_long_request_target_is_414_with_the_error_body_and_rate_limit_headers() {
    let cfg = config().rate_limit_in_memory(policy());
    let srv =
        serve_petstore_limited(cfg.clone().limits(Limits::new().max_request_target(1024))).await;
    let at_limit = format!("/v1/pets?q={}", "a".repeat(1024 - "/v1/pets?q=".len()));
    let r = exchange(srv.addr, &get(srv.addr, &at_limit, "")).await;
    assert_eq!(r.status, 200, "{}", r.body);

    let over = format!("{at_limit}a");
    let r = exchange(srv.addr, &get(srv.addr, &over, "")).await;
    assert_eq!(r.status, 414, "{}", r.body);
    let (code, message) = r.problem();
    assert_eq!(code, "uri_too_long");
    assert_eq!(
        message,
        "the request target is 1025 bytes, over the limit of 1024 bytes"
    );
    r.assert_rate_limited();

    // The default limit (8 KiB) under axum's own serve loop too: the check is the layer's.
    let srv = serve_petstore(cfg).await;
    let r = exchange(
        srv.addr,
        &get(srv.addr, &format!("/v1/pets?q={}", "a".repeat(20_000)), ""),
    )
    .await;
    assert_eq!(r.status, 414, "{}", r.body);
    assert_eq!(r.problem().0, "uri_too_long");
    r.assert_rate_limited();
}

#[tokio::test]
async fn a_request_target_hyper_cannot_hold_is_its_own_empty_414() {
    // Documented: the HTTP library refuses targets over 65534 bytes before any of our code
    // runs (its URI type cannot hold them), with no body.
    let srv = serve_petstore_limited(config()).await;
    let target = format!("/v1/pets?q={}", "a".repeat(100_000));
    let r = exchange(srv.addr, &get(srv.addr, &target, "")).await;
    assert_eq!(r.status, 414);
    assert_eq!(r.body, "");
}

#[tokio::test]
async fn a_large_header_section_is_431_with_the_error_body_and_rate_limit_headers() {
    let srv = serve_petstore_limited(config().rate_limit_in_memory(policy())).await;
    let headers = |n: usize| -> String {
        (0..n)
            .map(|i| format!("X-Filler-{i:02}: {}\r\n", "v".repeat(1000)))
            .collect()
    };
    // 20 kB of headers: under the 32 KiB default.
    let r = exchange(srv.addr, &get(srv.addr, "/v1/pets", &headers(20))).await;
    assert_eq!(r.status, 200, "{}", r.body);
    // 70 headers, 70 kB: over it, answered by our layer (hyper's buffer takes ~400 kB).
    let r = exchange(srv.addr, &get(srv.addr, "/v1/pets", &headers(70))).await;
    assert_eq!(r.status, 431, "{}", r.body);
    let (code, message) = r.problem();
    assert_eq!(code, "header_fields_too_large");
    assert!(
        message.ends_with("bytes, over the limit of 32768 bytes"),
        "{message}"
    );
    r.assert_rate_limited();
}

#[test]
fn head_sizes_are_counted_as_sent() {
    let uri: http::Uri = "/v1/pets?limit=5".parse().unwrap();
    assert_eq!(limits::request_target_len(&uri), 16);
    let uri: http::Uri = "http://example.com/v1/pets".parse().unwrap();
    assert_eq!(limits::request_target_len(&uri), 26);
    let mut headers = http::HeaderMap::new();
    headers.insert("host", "a".parse().unwrap());
    headers.append("x-y", "bc".parse().unwrap());
    // "host: a\r\n" + "x-y: bc\r\n"
    assert_eq!(limits::header_section_len(&headers), 9 + 9);
    let limits = Limits::new().max_request_target(16).max_header_section(18);
    assert!(
        limits
            .check_head(&"/v1/pets?limit=5".parse().unwrap(), &headers)
            .is_none()
    );
    headers.append("x-y", "".parse().unwrap());
    let p = limits
        .check_head(&"/v1/pets?limit=5".parse().unwrap(), &headers)
        .unwrap();
    assert_eq!(p.status, 431);
}

/// Sends `first`, then `line` every 300 ms (at most 100 times, while the server takes them)
/// and returns what the server answered, and how long until it closed the connection.
async fn trickle(addr: SocketAddr, first: String, line: &'static [u8]) -> (Wire, Duration) {
    let started = Instant::now();
    let stream = TcpStream::connect(addr).await.unwrap();
    let (mut reader, mut writer) = stream.into_split();
    writer.write_all(first.as_bytes()).await.unwrap();
    let writing = tokio::spawn(async move {
        for _ in 0..100 {
            tokio::time::sleep(Duration::from_millis(300)).await;
            if writer.write_all(line).await.is_err() {
                return;
            }
        }
    });
    let mut buf = Vec::new();
    tokio::time::timeout(GENEROUS, reader.read_to_end(&mut buf))
        .await
        .expect("the trickling client was not cut off")
        .ok();
    let elapsed = started.elapsed();
    writing.abort();
    (Wire::parse(&buf), elapsed)
}

#[tokio::test]
async fn a_client_trickling_its_head_gets_408_and_is_cut_off() {
    let srv = serve_petstore_limited(config().limits(short_timeouts())).await;
    let first = format!("GET /v1/pets HTTP/1.1\r\nHost: {}\r\n", srv.addr);
    let (r, elapsed) = trickle(srv.addr, first, b"X-Slow: yes\r\n").await;
    assert_eq!(r.status, 408, "{}", r.body);
    let (code, message) = r.problem();
    assert_eq!(code, "request_timeout");
    assert_eq!(message, "the request head was not received within 1 second");
    assert!(r.head.contains("\r\nconnection: close"), "{}", r.head);
    assert!(elapsed < GENEROUS, "{elapsed:?}");
}

#[tokio::test]
async fn a_client_trickling_its_body_gets_408_and_is_cut_off() {
    let srv = serve_petstore_limited(config().limits(short_timeouts())).await;
    let first = format!(
        "POST /v1/pets HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {GOOD_KEY}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{\"name\":",
        srv.addr
    );
    let (r, elapsed) = trickle(srv.addr, first, b" ").await;
    assert_eq!(r.status, 408, "{}", r.body);
    let (code, message) = r.problem();
    assert_eq!(code, "request_timeout");
    assert_eq!(message, "the request body was not received within 1 second");
    assert!(r.head.contains("\r\nconnection: close"), "{}", r.head);
    assert!(elapsed < GENEROUS, "{elapsed:?}");
}

#[tokio::test]
async fn the_body_timeout_holds_under_axum_serve_too() {
    // The body limit is the layer's and `body::collect`'s: no special serve loop needed.
    let srv = serve_petstore(config().limits(short_timeouts())).await;
    let first = format!(
        "POST /v1/pets HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {GOOD_KEY}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
        srv.addr
    );
    let (r, _) = trickle(srv.addr, first, b"1\r\n \r\n").await;
    assert_eq!(r.status, 408, "{}", r.body);
    assert_eq!(r.problem().0, "request_timeout");
}

#[tokio::test]
async fn an_idle_connection_is_closed_after_the_head_timeout_without_an_answer() {
    let srv = serve_petstore_limited(config().limits(short_timeouts())).await;
    let started = Instant::now();
    let mut stream = TcpStream::connect(srv.addr).await.unwrap();
    let mut buf = Vec::new();
    tokio::time::timeout(GENEROUS, stream.read_to_end(&mut buf))
        .await
        .expect("an idle connection was kept open")
        .ok();
    assert!(buf.is_empty(), "{:?}", String::from_utf8_lossy(&buf));
    assert!(started.elapsed() < GENEROUS);

    // A kept-alive connection is idle again after its answer: closed the same way.
    let mut stream = TcpStream::connect(srv.addr).await.unwrap();
    let request = format!(
        "GET /v1/pets HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {GOOD_KEY}\r\n\r\n",
        srv.addr
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    tokio::time::timeout(GENEROUS, stream.read_to_end(&mut buf))
        .await
        .expect("a kept-alive connection was kept open")
        .ok();
    let text = String::from_utf8_lossy(&buf);
    assert!(text.starts_with("HTTP/1.1 200 "), "{text}");
    assert_eq!(text.matches("HTTP/1.1 ").count(), 1, "{text}");
}

#[tokio::test]
async fn serve_holds_at_most_max_connections() {
    let limits = Limits::new()
        .max_connections(Some(2))
        .head_timeout(Some(Duration::from_secs(60)));
    let srv = serve_petstore_limited(config().limits(limits)).await;
    let first = TcpStream::connect(srv.addr).await.unwrap();
    let _second = TcpStream::connect(srv.addr).await.unwrap();
    // The third connects (the kernel queues it) but is not served while two are open.
    let mut third = TcpStream::connect(srv.addr).await.unwrap();
    third
        .write_all(&get(srv.addr, "/v1/pets", ""))
        .await
        .unwrap();
    let mut byte = [0u8; 1];
    let early = tokio::time::timeout(Duration::from_millis(500), third.read(&mut byte)).await;
    assert!(early.is_err(), "served beyond the connection limit");
    // One closes: the third is served.
    drop(first);
    let mut buf = Vec::new();
    tokio::time::timeout(GENEROUS, third.read_to_end(&mut buf))
        .await
        .expect("the queued connection was never served")
        .unwrap();
    let text = String::from_utf8_lossy(&buf);
    assert!(text.starts_with("HTTP/1.1 200 "), "{text}");
}

#[tokio::test]
async fn serve_passes_client_addresses_and_stops_when_asked() {
    use axum::extract::ConnectInfo;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = axum::Router::new().route(
        "/peer",
        axum::routing::get(|ConnectInfo(peer): ConnectInfo<SocketAddr>| async move {
            peer.ip().to_string()
        }),
    );
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(async move {
        apigen_server_runtime::serve(listener, app, &config(), async {
            let _ = stopped.await;
        })
        .await
    });
    let c = reqwest::Client::builder().no_proxy().build().unwrap();
    let r = common::send(c.get(format!("http://{addr}/peer"))).await;
    assert_eq!((r.status, r.body.as_str()), (200, "127.0.0.1"));
    // The client keeps its connection open; stopping closes it once idle.
    stop.send(()).unwrap();
    tokio::time::timeout(GENEROUS, server)
        .await
        .expect("serve did not stop")
        .unwrap()
        .unwrap();
    assert!(TcpStream::connect(addr).await.is_err(), "still listening");
}
