//! `--otlp-endpoint` (feature `otlp`): the binary exports each request's span over OTLP/HTTP to
//! a collector this test runs on loopback (no network), and the span it receives is the
//! request's: the caller's trace id and parent span (from `traceparent`), the runtime's own
//! span id (the one in the access log), named after the operation. Run with
//! `cargo test -p petstore-service --features otlp --test otlp`.
#![cfg(feature = "otlp")]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::routing::post;

const BIN: &str = env!("CARGO_BIN_EXE_petstore-service");

const TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT: &str = "00f067aa0ba902b7";

/// A span as OTLP's protobuf (`opentelemetry.proto.trace.v1.Span`) carries it, the fields
/// this test reads: ids as lowercase hexadecimal.
#[derive(Debug, Default, Clone)]
struct Span {
    trace_id: String,
    span_id: String,
    parent_span_id: String,
    name: String,
    attributes: Vec<String>,
}

/// Protobuf's wire format, read field by field: (number, length-delimited bytes) for the
/// length-delimited fields; varints and fixed-width ones are skipped.
fn fields(mut buf: &[u8]) -> Vec<(u64, &[u8])> {
    fn varint(buf: &mut &[u8]) -> u64 {
        let mut value = 0;
        for shift in (0..64).step_by(7) {
            let byte = buf[0];
            *buf = &buf[1..];
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                break;
            }
        }
        value
    }
    let mut out = Vec::new();
    while !buf.is_empty() {
        let key = varint(&mut buf);
        match key & 7 {
            0 => {
                varint(&mut buf);
            }
            1 => buf = &buf[8..],
            5 => buf = &buf[4..],
            2 => {
                let len = varint(&mut buf) as usize;
                out.push((key >> 3, &buf[..len]));
                buf = &buf[len..];
            }
            other => panic!("wire type {other} in an OTLP message"),
        }
    }
    out
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `ExportTraceServiceRequest` → resource_spans (1) → scope_spans (2) → spans (2): trace_id
/// (1), span_id (2), parent_span_id (4), name (5), attributes (9: `KeyValue`, key 1).
fn spans(request: &[u8]) -> Vec<Span> {
    let mut out = Vec::new();
    for (n, resource) in fields(request) {
        if n != 1 {
            continue;
        }
        for (n, scope) in fields(resource) {
            if n != 2 {
                continue;
            }
            for (n, span) in fields(scope) {
                if n != 2 {
                    continue;
                }
                let mut s = Span::default();
                for (n, value) in fields(span) {
                    match n {
                        1 => s.trace_id = hex(value),
                        2 => s.span_id = hex(value),
                        4 => s.parent_span_id = hex(value),
                        5 => s.name = String::from_utf8_lossy(value).into_owned(),
                        9 => {
                            if let Some((_, key)) = fields(value).into_iter().find(|(k, _)| *k == 1)
                            {
                                s.attributes.push(String::from_utf8_lossy(key).into_owned());
                            }
                        }
                        _ => {}
                    }
                }
                out.push(s);
            }
        }
    }
    out
}

#[test]
fn request_spans_are_exported_over_otlp_with_the_callers_trace() {
    // The collector: POST /v1/traces, protobuf bodies kept.
    let received: Arc<Mutex<Vec<Span>>> = Arc::default();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let collector = {
        let received = received.clone();
        let app = axum::Router::new().route(
            "/v1/traces",
            post(move |body: Bytes| {
                let received = received.clone();
                async move {
                    received.lock().unwrap().extend(spans(&body));
                    // An empty ExportTraceServiceResponse.
                    (
                        [("content-type", "application/x-protobuf")],
                        Vec::<u8>::new(),
                    )
                }
            }),
        );
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .unwrap();
        let addr = listener.local_addr().unwrap();
        runtime.spawn(async move { axum::serve(listener, app).await });
        addr
    };

    let mut child = Command::new(BIN)
        .args(["--addr", "127.0.0.1:0", "--in-memory"])
        .args(["--api-key", "otlp-key=pro"])
        .args(["--otlp-endpoint", &format!("http://{collector}")])
        .env("RUST_LOG", "info")
        .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
        .env_remove("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let addr = loop {
        let mut line = String::new();
        assert_ne!(out.read_line(&mut line).unwrap(), 0, "the service exited");
        if let Some(url) = line
            .trim()
            .strip_prefix("petstore-service listening on http://")
        {
            break url.trim_end_matches("/v1").to_owned();
        }
    };

    let mut s = TcpStream::connect(&addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(
        s,
        "GET /v1/pets HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer otlp-key\r\nX-Request-Id: otlp-1\r\ntraceparent: 00-{TRACE}-{PARENT}-01\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");

    // A graceful stop sends what the batch holds.
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "the service did not stop within 30 s"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(status.success(), "{status}: {err}");

    // The access log's span id for this request: the exported span's.
    let logged = err
        .lines()
        .find(|l| l.contains("otlp-1") && l.contains("span_id"))
        .unwrap_or_else(|| panic!("no access-log line of otlp-1 in {err}"));
    let span_id = logged
        .split("span_id=")
        .nth(1)
        .map(|rest| rest.trim_start_matches('"'))
        .and_then(|rest| rest.get(..16))
        .unwrap_or_else(|| panic!("no span_id in {logged}"));

    let received = received.lock().unwrap().clone();
    let span = received
        .iter()
        .find(|s| s.trace_id == TRACE)
        .unwrap_or_else(|| panic!("no span of trace {TRACE} among {received:?}"));
    assert_eq!(span.name, "listPets", "{span:?}");
    assert_eq!(span.parent_span_id, PARENT, "{span:?}");
    assert_eq!(span.span_id, span_id, "{span:?}\n{logged}");
    for attribute in [
        "http.request.method",
        "http.route",
        "http.response.status_code",
    ] {
        assert!(
            span.attributes.iter().any(|a| a == attribute),
            "{attribute} not in {span:?}"
        );
    }
}
