//! Streamed responses: the Server-Sent Events parser against the WHATWG rules and the JSON
//! Lines splitter (pure), then typed streams over a loopback server that writes chunks when the
//! test says so: items before the end, the `error` event, a bad line, a broken body, retries
//! before the stream begins, and a custom method (`QUERY`) on the wire.

use std::time::Duration;

use apigen_client_runtime::auth::{Credentials, Security, SecurityScheme};
use apigen_client_runtime::error::Error;
use apigen_client_runtime::request;
use apigen_client_runtime::response::Raw;
use apigen_client_runtime::retry::RetryPolicy;
use apigen_client_runtime::stream::{LineSplitter, RawEvent, SseParser};
use apigen_client_runtime::transport::{OperationInfo, Transport};
use http::Method;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;

// ---- the parser, on its own -----------------------------------------------------------------

fn parse_chunks(chunks: &[&[u8]]) -> Vec<RawEvent> {
    let mut parser = SseParser::default();
    let mut out = Vec::new();
    for c in chunks {
        parser.feed(c, &mut out).unwrap();
    }
    out
}

fn ev(event: &str, data: &str, id: Option<&str>, retry: Option<u64>) -> RawEvent {
    RawEvent {
        event: event.into(),
        data: data.into(),
        id: id.map(Into::into),
        retry,
    }
}

#[test]
fn sse_fields_comments_and_line_breaks_follow_whatwg() {
    let text = "\u{feff}: a comment\r\n\
                data: first\r\n\r\n\
                event: add\rdata:no space\rdata:  two spaces\r\rid: 7\ndata\n\n\
                retry: 1500\nretry: soon\nid: bad\0id\ndata: x\n\n\
                id\ndata: y\nunknown: field\n\n\
                event: lonely\n\n\
                data: dropped at the end";
    let expected = vec![
        ev("message", "first", None, None),
        ev("add", "no space\n two spaces", None, None),
        ev("message", "", Some("7"), None),
        ev("message", "x", Some("7"), Some(1500)),
        ev("message", "y", None, Some(1500)),
    ];
    assert_eq!(parse_chunks(&[text.as_bytes()]), expected);
    // The same bytes cut at every position give the same events.
    let bytes = text.as_bytes();
    for cut in 1..bytes.len() {
        assert_eq!(
            parse_chunks(&[&bytes[..cut], &bytes[cut..]]),
            expected,
            "cut at {cut}"
        );
    }
    // And byte by byte (the BOM then arrives in pieces and is not recognised; without it the
    // events are the same).
    let plain = &bytes[3..];
    let singles: Vec<&[u8]> = plain.chunks(1).collect();
    assert_eq!(parse_chunks(&singles), expected);
}

#[test]
fn line_splitter_joins_a_crlf_split_across_chunks() {
    let mut s = LineSplitter::default();
    assert_eq!(s.feed(b"{\"a\":1}\r").unwrap(), vec![b"{\"a\":1}".to_vec()]);
    assert_eq!(s.feed(b"\n{\"a\":2}").unwrap(), Vec::<Vec<u8>>::new());
    assert_eq!(s.feed(b"\n").unwrap(), vec![b"{\"a\":2}".to_vec()]);
    assert_eq!(s.feed(b"{\"a\":3}").unwrap(), Vec::<Vec<u8>>::new());
    assert_eq!(s.finish(), vec![b"{\"a\":3}".to_vec()]);
    assert!(s.finish().is_empty());
}

#[test]
fn an_endless_line_is_refused_not_buffered() {
    let mut s = LineSplitter::default();
    let big = vec![b'x'; 1024 * 1024];
    let mut failed = false;
    for _ in 0..20 {
        if s.feed(&big).is_err() {
            failed = true;
            break;
        }
    }
    assert!(failed, "17+ MiB without a line break must be refused");
}

// ---- a loopback server that writes what the test sends it ----------------------------------

/// What the server does next on its one connection.
enum Step {
    Write(Vec<u8>),
    /// Close the socket without finishing the chunked body.
    Drop,
}

struct Scripted {
    base: String,
    steps: mpsc::UnboundedSender<Step>,
    /// Request lines received, in order.
    requests: mpsc::UnboundedReceiver<String>,
}

/// Answers each connection: `heads[i]` for the i-th request (a complete non-streamed response
/// when it has a body, else a chunked head), then, for the last one, the steps the test sends.
async fn scripted(heads: Vec<Vec<u8>>) -> Scripted {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (steps_tx, mut steps_rx) = mpsc::unbounded_channel::<Step>();
    let (req_tx, req_rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        let count = heads.len();
        for (i, head) in heads.into_iter().enumerate() {
            let (mut sock, _) = listener.accept().await.unwrap();
            let line = read_head(&mut sock).await;
            req_tx.send(line).unwrap();
            sock.write_all(&head).await.unwrap();
            if i + 1 < count {
                continue;
            }
            while let Some(step) = steps_rx.recv().await {
                match step {
                    Step::Write(bytes) => {
                        let chunk = format!("{:x}\r\n", bytes.len());
                        sock.write_all(chunk.as_bytes()).await.unwrap();
                        sock.write_all(&bytes).await.unwrap();
                        sock.write_all(b"\r\n").await.unwrap();
                    }
                    Step::Drop => return,
                }
            }
            let _ = sock.write_all(b"0\r\n\r\n").await;
            // Let the client read the end before the socket goes.
            let mut rest = [0u8; 16];
            let _ = tokio::time::timeout(Duration::from_secs(5), sock.read(&mut rest)).await;
        }
    });
    Scripted {
        base,
        steps: steps_tx,
        requests: req_rx,
    }
}

async fn read_head(sock: &mut TcpStream) -> String {
    let mut buf = Vec::new();
    let mut byte = [0u8; 1];
    while !buf.ends_with(b"\r\n\r\n") {
        if sock.read(&mut byte).await.unwrap() == 0 {
            break;
        }
        buf.push(byte[0]);
    }
    String::from_utf8_lossy(&buf)
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned()
}

fn chunked_head(content_type: &str) -> Vec<u8> {
    format!("HTTP/1.1 200 OK\r\ncontent-type: {content_type}\r\ntransfer-encoding: chunked\r\nx-ratelimit-remaining: 9\r\n\r\n").into_bytes()
}

// ---- what a generated method does -----------------------------------------------------------

static SCHEMES: &[SecurityScheme] = &[];
const OPEN: Security = &[];

static WATCH: OperationInfo = OperationInfo {
    id: "watchTicks",
    path: "/test",
    method: Method::GET,
    idempotent: true,
    deprecated: false,
    security: OPEN,
    idempotency_key: false,
    accept: Some("application/json"),
    content_type: "application/json",
};

#[derive(Debug, PartialEq, serde::Deserialize)]
struct Tick {
    n: u32,
}

#[derive(Debug, PartialEq, serde::Deserialize)]
struct ErrorBody {
    code: String,
    status: u16,
}

#[derive(Debug, PartialEq)]
enum WatchError {
    Unavailable(ErrorBody),
    Other(ErrorBody),
}

/// The generated status mapping of the operation's error answers.
#[allow(clippy::result_large_err)]
fn watch_error(raw: Raw) -> Error<WatchError> {
    match raw.status.as_u16() {
        503 => raw.api_error(WatchError::Unavailable),
        400..=599 => raw.api_error(WatchError::Other),
        _ => raw.unexpected(),
    }
}

fn transport(base: &str) -> Transport {
    let retry = RetryPolicy {
        max_attempts: 3,
        initial_backoff: Duration::from_millis(5),
        max_backoff: Duration::from_millis(20),
        budget: Duration::from_secs(10),
        retry_transient: true,
        wait_on_exhausted: false,
    };
    // Loopback, so never through a proxy the environment names.
    let http = reqwest::Client::builder().no_proxy().build().unwrap();
    Transport::new(http, base, Credentials::default(), retry)
}

#[tokio::test]
async fn events_arrive_typed_one_by_one_before_the_stream_ends() {
    let mut srv = scripted(vec![chunked_head("text/event-stream")]).await;
    let t = transport(&srv.base);
    let streamed = t
        .send_streaming(&WATCH, SCHEMES, |http, base| {
            http.get(request::url(base, "/ticks", ""))
        })
        .await
        .unwrap();
    assert_eq!(streamed.status, 200);
    let response = streamed.event_stream::<Tick, _>(watch_error);
    assert_eq!(response.rate_limit().remaining, Some(9));
    let mut events = response.into_inner();
    // An event cut in the middle of a line and of its CRLF.
    srv.steps
        .send(Step::Write(b"id: 1\r\ndata: {\"n\"".to_vec()))
        .unwrap();
    srv.steps.send(Step::Write(b":1}\r".to_vec())).unwrap();
    srv.steps.send(Step::Write(b"\n\r\n".to_vec())).unwrap();
    let first = events.next().await.unwrap().unwrap();
    assert_eq!(first.data, Tick { n: 1 });
    assert_eq!(first.event, "message");
    assert_eq!(first.id.as_deref(), Some("1"));
    // The server has not written the second event yet: the first came on its own.
    srv.steps
        .send(Step::Write(b"event: tock\ndata: {\"n\":2}\n\n".to_vec()))
        .unwrap();
    let second = events.next().await.unwrap().unwrap();
    assert_eq!((second.event.as_str(), second.data.n), ("tock", 2));
    assert_eq!(second.id.as_deref(), Some("1"), "ids carry over");
    drop(srv.steps);
    assert!(events.next().await.is_none());
    assert!(events.next().await.is_none());
    assert_eq!(srv.requests.recv().await.unwrap(), "GET /ticks HTTP/1.1");
}

#[tokio::test]
async fn an_error_event_becomes_the_operations_typed_error_and_ends_the_stream() {
    let srv = scripted(vec![chunked_head("text/event-stream")]).await;
    let t = transport(&srv.base);
    let mut events = t
        .send_streaming(&WATCH, SCHEMES, |http, base| {
            http.get(request::url(base, "/ticks", ""))
        })
        .await
        .unwrap()
        .event_stream::<Tick, _>(watch_error)
        .into_inner();
    srv.steps
        .send(Step::Write(
            b"data: {\"n\":1}\n\nevent: error\ndata: {\"code\":\"upstream_gone\",\"message\":\"m\",\"status\":503}\n\ndata: {\"n\":3}\n\n"
                .to_vec(),
        ))
        .unwrap();
    assert_eq!(events.next().await.unwrap().unwrap().data, Tick { n: 1 });
    match events.next().await.unwrap() {
        Err(Error::Api { status, body, .. }) => {
            assert_eq!(status, 503);
            assert_eq!(
                body,
                WatchError::Unavailable(ErrorBody {
                    code: "upstream_gone".into(),
                    status: 503
                })
            );
        }
        other => panic!("expected the typed error, got {other:?}"),
    }
    assert!(events.next().await.is_none(), "nothing after the error");
}

#[tokio::test]
async fn an_event_whose_data_does_not_decode_is_a_decode_error_with_the_data() {
    let srv = scripted(vec![chunked_head("text/event-stream")]).await;
    let t = transport(&srv.base);
    let mut events = t
        .send_streaming(&WATCH, SCHEMES, |http, base| {
            http.get(request::url(base, "/ticks", ""))
        })
        .await
        .unwrap()
        .event_stream::<Tick, _>(watch_error)
        .into_inner();
    srv.steps
        .send(Step::Write(b"data: {\"n\":\"one\"}\n\n".to_vec()))
        .unwrap();
    match events.next().await.unwrap() {
        Err(Error::Decode { body, message, .. }) => {
            assert_eq!(&body[..], b"{\"n\":\"one\"}");
            assert!(message.contains("invalid type"), "{message}");
        }
        other => panic!("expected a decode error, got {other:?}"),
    }
    assert!(events.next().await.is_none());
}

#[tokio::test]
async fn json_lines_decode_per_line_and_the_last_line_needs_no_break() {
    let srv = scripted(vec![chunked_head("application/jsonl")]).await;
    let t = transport(&srv.base);
    let mut lines = t
        .send_streaming(&WATCH, SCHEMES, |http, base| {
            http.get(request::url(base, "/ticks", ""))
        })
        .await
        .unwrap()
        .json_lines::<Tick, WatchError>()
        .into_inner();
    srv.steps
        .send(Step::Write(b"{\"n\":1}\n\n{\"n\"".to_vec()))
        .unwrap();
    assert_eq!(lines.next().await.unwrap().unwrap(), Tick { n: 1 });
    srv.steps
        .send(Step::Write(b":2}\r\n{\"n\":3}".to_vec()))
        .unwrap();
    assert_eq!(lines.next().await.unwrap().unwrap(), Tick { n: 2 });
    drop(srv.steps);
    assert_eq!(lines.next().await.unwrap().unwrap(), Tick { n: 3 });
    assert!(lines.next().await.is_none());
}

#[tokio::test]
async fn a_bad_line_ends_json_lines_with_a_decode_error() {
    let srv = scripted(vec![chunked_head("application/x-ndjson")]).await;
    let t = transport(&srv.base);
    let mut lines = t
        .send_streaming(&WATCH, SCHEMES, |http, base| {
            http.get(request::url(base, "/ticks", ""))
        })
        .await
        .unwrap()
        .json_lines::<Tick, WatchError>()
        .into_inner();
    srv.steps
        .send(Step::Write(b"{\"n\":1}\nnot json\n{\"n\":3}\n".to_vec()))
        .unwrap();
    assert_eq!(lines.next().await.unwrap().unwrap(), Tick { n: 1 });
    match lines.next().await.unwrap() {
        Err(Error::Decode { body, .. }) => assert_eq!(&body[..], b"not json"),
        other => panic!("expected a decode error, got {other:?}"),
    }
    assert!(lines.next().await.is_none());
}

#[tokio::test]
async fn a_broken_body_is_a_transport_error_after_the_items_before_it() {
    let srv = scripted(vec![chunked_head("application/jsonl")]).await;
    let t = transport(&srv.base);
    let mut lines = t
        .send_streaming(&WATCH, SCHEMES, |http, base| {
            http.get(request::url(base, "/ticks", ""))
        })
        .await
        .unwrap()
        .json_lines::<Tick, WatchError>()
        .into_inner();
    srv.steps
        .send(Step::Write(b"{\"n\":1}\n".to_vec()))
        .unwrap();
    assert_eq!(lines.next().await.unwrap().unwrap(), Tick { n: 1 });
    srv.steps.send(Step::Drop).unwrap();
    assert!(matches!(lines.next().await, Some(Err(Error::Transport(_)))));
    assert!(lines.next().await.is_none());
}

#[tokio::test]
async fn errors_before_the_stream_are_retried_and_read_whole() {
    let busy = b"HTTP/1.1 429 Too Many Requests\r\nretry-after: 0\r\ncontent-type: application/json\r\ncontent-length: 45\r\nconnection: close\r\n\r\n{\"code\":\"rate_limited\",\"message\":\"m\",\"status\":429}"
        [..]
        .to_vec();
    // The declared length matches the body exactly.
    let body_len = busy.len() - busy.windows(4).position(|w| w == b"\r\n\r\n").unwrap() - 4;
    let busy = String::from_utf8(busy)
        .unwrap()
        .replace("content-length: 45", &format!("content-length: {body_len}"))
        .into_bytes();
    let gone = busy.clone();
    // First: 429 then a stream (retried); second server: 429 three times (given up, typed).
    let srv = scripted(vec![busy.clone(), chunked_head("application/jsonl")]).await;
    let t = transport(&srv.base);
    let mut lines = t
        .send_streaming(&WATCH, SCHEMES, |http, base| {
            http.get(request::url(base, "/ticks", ""))
        })
        .await
        .unwrap()
        .json_lines::<Tick, WatchError>()
        .into_inner();
    srv.steps
        .send(Step::Write(b"{\"n\":1}\n".to_vec()))
        .unwrap();
    assert_eq!(lines.next().await.unwrap().unwrap(), Tick { n: 1 });

    let srv = scripted(vec![busy.clone(), busy.clone(), gone]).await;
    let t = transport(&srv.base);
    let streamed = t
        .send_streaming(&WATCH, SCHEMES, |http, base| {
            http.get(request::url(base, "/ticks", ""))
        })
        .await
        .unwrap();
    assert_eq!(streamed.status, 429);
    let error = watch_error(streamed.into_raw().await.unwrap());
    assert_eq!(
        error.api_body(),
        Some(&WatchError::Other(ErrorBody {
            code: "rate_limited".into(),
            status: 429
        }))
    );
}

#[tokio::test]
async fn a_custom_method_goes_on_the_wire_by_its_name() {
    let mut srv = scripted(vec![chunked_head("application/jsonl")]).await;
    let t = transport(&srv.base);
    let query = request::method("QUERY").unwrap();
    let op = OperationInfo {
        id: "searchTicks",
        path: "/test",
        method: query.clone(),
        idempotent: true,
        deprecated: false,
        security: OPEN,
        idempotency_key: false,
        accept: Some("application/json"),
        content_type: "application/json",
    };
    let mut lines = t
        .send_streaming(&op, SCHEMES, |http, base| {
            http.request(query.clone(), request::url(base, "/ticks", ""))
                .body("{}")
        })
        .await
        .unwrap()
        .json_lines::<Tick, WatchError>()
        .into_inner();
    drop(srv.steps);
    assert!(lines.next().await.is_none());
    assert_eq!(srv.requests.recv().await.unwrap(), "QUERY /ticks HTTP/1.1");
    assert!(request::method("NOT A TOKEN").is_err());
}

// ---- an event stream that drops --------------------------------------------------------------

/// Serves one connection per entry: reads the request head (sent back on `heads`), writes a
/// chunked `text/event-stream` head and the chunks, then ends the body, or drops the socket
/// mid-body when `cut`.
async fn connections(
    script: Vec<(Vec<&'static str>, bool)>,
) -> (String, mpsc::UnboundedReceiver<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        for (chunks, cut) in script {
            let (mut sock, _) = listener.accept().await.unwrap();
            let mut head = Vec::new();
            let mut byte = [0u8; 1];
            while !head.ends_with(b"\r\n\r\n") {
                if sock.read(&mut byte).await.unwrap() == 0 {
                    break;
                }
                head.push(byte[0]);
            }
            tx.send(String::from_utf8_lossy(&head).to_ascii_lowercase())
                .unwrap();
            sock.write_all(&chunked_head("text/event-stream"))
                .await
                .unwrap();
            for chunk in chunks {
                let framed = format!("{:x}\r\n{chunk}\r\n", chunk.len());
                sock.write_all(framed.as_bytes()).await.unwrap();
                sock.flush().await.unwrap();
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            if cut {
                drop(sock);
                continue;
            }
            let _ = sock.write_all(b"0\r\n\r\n").await;
            let mut rest = [0u8; 16];
            let _ = tokio::time::timeout(Duration::from_secs(5), sock.read(&mut rest)).await;
        }
    });
    (base, rx)
}

/// A stream the server numbered is resumed after a cut: the request is sent again with
/// `Last-Event-ID` after the server's `retry:` delay, the event the cut left unfinished is
/// dropped, the one the server sends again is not delivered twice, and nothing is lost.
#[tokio::test]
async fn an_event_stream_cut_off_is_resumed_with_last_event_id() {
    let (base, mut heads) = connections(vec![
        (
            vec![
                "id: 1\ndata: {\"n\":1}\n\n",
                "id: 2\nretry: 30\ndata: {\"n\":2}\n\n",
                "id: 3\ndata: {\"n\":",
            ],
            true,
        ),
        (
            vec!["id: 2\ndata: {\"n\":2}\n\n", "id: 3\ndata: {\"n\":3}\n\n"],
            false,
        ),
    ])
    .await;
    let t = transport(&base);
    let mut events = t
        .send_streaming(&WATCH, SCHEMES, |http, base| {
            http.get(request::url(base, "/ticks", ""))
        })
        .await
        .unwrap()
        .event_stream::<Tick, WatchError>(watch_error)
        .into_inner();
    let mut got = Vec::new();
    while let Some(event) = events.next().await {
        let event = event.unwrap_or_else(|e| panic!("after {got:?}: {e}"));
        got.push((event.id.clone(), event.data.n));
    }
    assert_eq!(
        got,
        [
            (Some("1".to_string()), 1),
            (Some("2".to_string()), 2),
            (Some("3".to_string()), 3)
        ]
    );
    let first = heads.recv().await.unwrap();
    assert!(!first.contains("last-event-id"), "{first}");
    let second = heads.recv().await.unwrap();
    assert!(second.contains("last-event-id: 2\r\n"), "{second}");
}

/// A stream the server never numbered cannot be resumed without losing or repeating events:
/// a cut ends it with the transport error, and nothing is sent again.
#[tokio::test]
async fn an_event_stream_without_ids_is_not_resumed() {
    let (base, mut heads) = connections(vec![(vec!["data: {\"n\":1}\n\n"], true)]).await;
    let t = transport(&base);
    let mut events = t
        .send_streaming(&WATCH, SCHEMES, |http, base| {
            http.get(request::url(base, "/ticks", ""))
        })
        .await
        .unwrap()
        .event_stream::<Tick, WatchError>(watch_error)
        .into_inner();
    assert_eq!(events.next().await.unwrap().unwrap().data, Tick { n: 1 });
    assert!(matches!(
        events.next().await,
        Some(Err(Error::Transport(_)))
    ));
    assert!(events.next().await.is_none());
    heads.recv().await.unwrap();
    assert!(heads.try_recv().is_err(), "not sent again");
}
