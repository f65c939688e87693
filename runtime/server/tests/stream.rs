//! Streamed responses over real HTTP: Server-Sent Events and JSON Lines bytes as written, items
//! reaching the client before the stream ends, the failure policy (an `error` event; an aborted
//! JSON Lines body), and the 405 of a path that dispatches its own methods (`QUERY`).

use std::pin::Pin;
use std::task::{Context, Poll};

use apigen_server_runtime::ServerConfig;
use apigen_server_runtime::cors;
use apigen_server_runtime::layer;
use apigen_server_runtime::problem::Problem;
use apigen_server_runtime::stream::{self, Event, EventStream, JsonLines};
use axum::extract::Request;
use axum::response::Response;
use axum::routing;
use futures_core::Stream;
use http::StatusCode;
use serde::Serialize;
use tokio::sync::mpsc;

#[derive(Serialize)]
struct Tick {
    n: u32,
    note: String,
}

fn tick(n: u32) -> Tick {
    Tick {
        n,
        note: format!("line\nbreak {n}"),
    }
}

/// A channel receiver as a stream, so a test decides when each item is produced.
struct Channel<T>(mpsc::UnboundedReceiver<Result<T, Problem>>);

impl<T> Stream for Channel<T> {
    type Item = Result<T, Problem>;
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.0.poll_recv(cx)
    }
}

async fn serve(app: axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(listener, app).await.unwrap();
    });
    format!("http://{addr}")
}

/// A client for the test's loopback server: never through a proxy the environment names
/// (the suite passes with `HTTP_PROXY` set).
fn http() -> reqwest::Client {
    reqwest::Client::builder().no_proxy().build().unwrap()
}

async fn get(url: String) -> reqwest::Result<reqwest::Response> {
    http().get(url).send().await
}

async fn body_text(resp: reqwest::Response) -> String {
    resp.text().await.unwrap()
}

#[tokio::test]
async fn events_are_written_with_their_fields_and_json_data() {
    let app = axum::Router::new().route(
        "/events",
        routing::get(|| async {
            stream::event_stream(
                StatusCode::OK,
                EventStream::from_events([
                    Event::new(tick(1)),
                    Event::new(tick(2))
                        .with_event("tick\r\nid: forged")
                        .with_id("7")
                        .with_retry(1500),
                ]),
            )
        }),
    );
    let base = serve(app).await;
    let resp = get(format!("{base}/events")).await.unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["content-type"], "text/event-stream");
    assert_eq!(resp.headers()["cache-control"], "no-cache");
    assert_eq!(
        body_text(resp).await,
        "data: {\"n\":1,\"note\":\"line\\nbreak 1\"}\n\n\
         event: tickid: forged\nid: 7\nretry: 1500\ndata: {\"n\":2,\"note\":\"line\\nbreak 2\"}\n\n"
    );
}

#[tokio::test]
async fn text_data_with_line_breaks_becomes_several_data_lines() {
    let app = axum::Router::new().route(
        "/text",
        routing::get(|| async {
            stream::event_stream_text(
                StatusCode::OK,
                EventStream::from_events([Event::new("one\ntwo\r\nthree\rfour".to_owned())]),
            )
        }),
    );
    let base = serve(app).await;
    let resp = get(format!("{base}/text")).await.unwrap();
    assert_eq!(
        body_text(resp).await,
        "data: one\ndata: two\ndata: three\ndata: four\n\n"
    );
}

#[tokio::test]
async fn each_event_reaches_the_client_before_the_next_is_produced() {
    let (tx, rx) = mpsc::unbounded_channel();
    let rx = std::sync::Arc::new(std::sync::Mutex::new(Some(rx)));
    let app = axum::Router::new().route(
        "/live",
        routing::get(move || {
            let rx = rx.lock().unwrap().take().unwrap();
            async move { stream::event_stream(StatusCode::OK, EventStream::new(Channel(rx))) }
        }),
    );
    let base = serve(app).await;
    tx.send(Ok(Event::new(tick(1)))).unwrap();
    let mut resp = get(format!("{base}/live")).await.unwrap();
    // The first event arrives while the stream is still open (the second not produced yet).
    let first = resp.chunk().await.unwrap().unwrap();
    assert_eq!(
        &first[..],
        b"data: {\"n\":1,\"note\":\"line\\nbreak 1\"}\n\n"
    );
    tx.send(Ok(Event::new(tick(2)))).unwrap();
    let second = resp.chunk().await.unwrap().unwrap();
    assert!(second.starts_with(b"data: {\"n\":2"), "{second:?}");
    drop(tx);
    assert!(resp.chunk().await.unwrap().is_none());
}

#[tokio::test]
async fn a_failed_event_stream_ends_with_an_error_event() {
    let (tx, rx) = mpsc::unbounded_channel();
    tx.send(Ok(Event::new(tick(1)))).unwrap();
    tx.send(Err(Problem::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "upstream_gone",
        "the feed stopped",
    )))
    .unwrap();
    // Never read: the stream ends at the failure.
    tx.send(Ok(Event::new(tick(3)))).unwrap();
    let rx = std::sync::Arc::new(std::sync::Mutex::new(Some(rx)));
    let app = axum::Router::new().route(
        "/fail",
        routing::get(move || {
            let rx = rx.lock().unwrap().take().unwrap();
            async move { stream::event_stream(StatusCode::OK, EventStream::new(Channel(rx))) }
        }),
    );
    let base = serve(app).await;
    let resp = get(format!("{base}/fail")).await.unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(
        body_text(resp).await,
        "data: {\"n\":1,\"note\":\"line\\nbreak 1\"}\n\n\
         event: error\ndata: {\"code\":\"upstream_gone\",\"message\":\"the feed stopped\",\"status\":503}\n\n"
    );
    drop(tx);
}

#[tokio::test]
async fn json_lines_are_one_value_per_line_with_the_documented_type() {
    let app = axum::Router::new().route(
        "/lines",
        routing::get(|| async {
            stream::json_lines(
                StatusCode::OK,
                "application/x-ndjson",
                JsonLines::from_items([tick(1), tick(2)]),
            )
        }),
    );
    let base = serve(app).await;
    let resp = get(format!("{base}/lines")).await.unwrap();
    assert_eq!(resp.headers()["content-type"], "application/x-ndjson");
    assert_eq!(
        body_text(resp).await,
        "{\"n\":1,\"note\":\"line\\nbreak 1\"}\n{\"n\":2,\"note\":\"line\\nbreak 2\"}\n"
    );
}

#[tokio::test]
async fn a_failed_json_lines_body_is_aborted_not_ended() {
    let (tx, rx) = mpsc::unbounded_channel();
    tx.send(Ok(tick(1))).unwrap();
    let rx = std::sync::Arc::new(std::sync::Mutex::new(Some(rx)));
    let app = axum::Router::new().route(
        "/lines",
        routing::get(move || {
            let rx = rx.lock().unwrap().take().unwrap();
            async move {
                stream::json_lines(
                    StatusCode::OK,
                    "application/jsonl",
                    JsonLines::new(Channel(rx)),
                )
            }
        }),
    );
    let base = serve(app).await;
    let mut resp = get(format!("{base}/lines")).await.unwrap();
    let mut got = resp.chunk().await.unwrap().unwrap().to_vec();
    tx.send(Err(Problem::internal())).unwrap();
    let outcome = loop {
        match resp.chunk().await {
            Ok(Some(chunk)) => got.extend_from_slice(&chunk),
            Ok(None) => break Ok(()),
            Err(e) => break Err(e),
        }
    };
    assert_eq!(got, b"{\"n\":1,\"note\":\"line\\nbreak 1\"}\n");
    assert!(outcome.is_err(), "the body must not end cleanly");
    drop(tx);
}

/// A path with `GET` and `QUERY`, dispatched by method name as generated routers do.
async fn search(req: Request) -> Response {
    match req.method().as_str() {
        "GET" | "HEAD" | "QUERY" => Response::new(format!("{} ok", req.method()).into()),
        _ => layer::method_not_allowed(&req, "GET,HEAD,QUERY"),
    }
}

#[tokio::test]
async fn a_path_dispatching_its_own_methods_answers_405_with_allow() {
    let routes = axum::Router::new().route("/v1/search", routing::any(search));
    let app = layer::finish_prefixed(
        routes,
        &[],
        "/v1",
        &cors::DocumentCors::EMPTY,
        ServerConfig::new(),
    );
    let base = serve(app).await;
    let c = http();
    let query = reqwest::Method::from_bytes(b"QUERY").unwrap();
    let r = c
        .request(query, format!("{base}/v1/search"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.text().await.unwrap(), "QUERY ok");
    let r = c.delete(format!("{base}/v1/search")).send().await.unwrap();
    assert_eq!(r.status(), 405);
    assert_eq!(r.headers()["allow"], "GET,HEAD,QUERY");
    let body: serde_json::Value = serde_json::from_str(&r.text().await.unwrap()).unwrap();
    assert_eq!(body["code"], "method_not_allowed");
    assert_eq!(body["status"], 405);
    let r = c.get(format!("{base}/v1/other")).send().await.unwrap();
    assert_eq!(r.status(), 404);
}
