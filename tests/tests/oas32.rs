//! tests/fixtures/oas32.yaml end to end over loopback HTTP: responses streamed item by item
//! (Server-Sent Events, JSON Lines), the `QUERY` method, an `additionalOperations` method
//! (`PURGE`), a query string read as one typed object (`in: querystring`) and webhooks sent by
//! the server crate's `Webhook` and read by the client crate's.

mod common;

use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use oas32_client::{Client, Error, RetryPolicy};
use oas32_server::api::*;
use oas32_server::{
    Event, EventStream, JsonLines, Problem, RequestContext, ServerConfig, StaticKeys, TickerApi,
    types,
};
use tokio::sync::{Notify, mpsc};

const KEY: &str = "k-32";

/// Generous: only there so a server that buffers a stream fails the test instead of hanging.
const PATIENCE: Duration = Duration::from_secs(60);

/// A stream fed by a channel, so the implementation decides when each item goes out.
struct Channel<T>(mpsc::UnboundedReceiver<Result<T, Problem>>);

impl<T> futures_core::Stream for Channel<T> {
    type Item = Result<T, Problem>;
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.0.poll_recv(cx)
    }
}

#[derive(Default)]
struct Ticker {
    /// Released by the test once it has read the first event of a stream: until then the
    /// implementation holds the rest back, so that event can only have come while streaming.
    gate: Arc<Notify>,
    purged: Mutex<BTreeSet<i64>>,
    filters: Mutex<Vec<types::TickFilter>>,
}

fn tick(seq: i64) -> types::Tick {
    types::Tick {
        seq,
        price: seq as f64 * 1.5,
        note: (seq % 2 == 0).then(|| Some(format!("tick {seq}"))),
    }
}

impl TickerApi for Ticker {
    type Error = String;

    // ANCHOR: server
    async fn watch_ticks(
        &self,
        _ctx: &RequestContext,
        params: WatchTicksParams,
    ) -> Result<WatchTicksResponse, String> {
        let (tx, rx) = mpsc::unbounded_channel();
        let gate = self.gate.clone();
        tokio::spawn(async move {
            for seq in 0..params.count {
                if seq == 1 {
                    gate.notified().await;
                }
                // 13 ticks is the count that fails after two, with the problem as last event.
                if params.count == 13 && seq == 2 {
                    let _ = tx.send(Err(Problem::new(
                        http::StatusCode::TOO_MANY_REQUESTS,
                        "feed_overloaded",
                        "the feed is overloaded",
                    )));
                    return;
                }
                let event = Event::new(tick(seq)).with_id(seq.to_string());
                if tx.send(Ok(event)).is_err() {
                    return;
                }
            }
        });
        Ok(WatchTicksResponse::Ok(EventStream::new(Channel(rx))))
    }
    // ANCHOR_END: server

    async fn search_ticks(
        &self,
        _ctx: &RequestContext,
        _params: SearchTicksParams,
        body: types::TickFilter,
    ) -> Result<SearchTicksResponse, String> {
        Ok(SearchTicksResponse::Ok(matching(&body)))
    }

    async fn export_ticks(
        &self,
        _ctx: &RequestContext,
        params: ExportTicksParams,
    ) -> Result<ExportTicksResponse, String> {
        Ok(ExportTicksResponse::Ok(JsonLines::from_items(
            (0..params.count).map(tick),
        )))
    }

    async fn find_ticks(
        &self,
        _ctx: &RequestContext,
        _params: FindTicksParams,
        filter: types::TickFilter,
    ) -> Result<FindTicksResponse, String> {
        self.filters.lock().unwrap().push(filter.clone());
        Ok(FindTicksResponse::Ok(matching(&filter)))
    }

    async fn select_ticks(
        &self,
        _ctx: &RequestContext,
        _params: SelectTicksParams,
        selection: Option<types::TickFilter>,
    ) -> Result<SelectTicksResponse, String> {
        let filter = selection.unwrap_or_default();
        self.filters.lock().unwrap().push(filter.clone());
        Ok(SelectTicksResponse::Ok(matching(&filter)))
    }

    async fn watch_messages(
        &self,
        _ctx: &RequestContext,
        _params: WatchMessagesParams,
    ) -> Result<WatchMessagesResponse, String> {
        Ok(WatchMessagesResponse::Ok(EventStream::from_events([
            Event::new("hello".to_string()),
            Event::new("two\nlines".to_string()).with_event("notice"),
        ])))
    }

    async fn heartbeat(
        &self,
        _ctx: &RequestContext,
        _params: HeartbeatParams,
    ) -> Result<HeartbeatResponse, String> {
        Ok(HeartbeatResponse::Ok(JsonLines::from_items([1, 2, 3])))
    }

    async fn who_am_i(
        &self,
        _ctx: &RequestContext,
        params: WhoAmIParams,
    ) -> Result<WhoAmIResponse, String> {
        Ok(WhoAmIResponse::Ok(types::WhoAmIOkBody {
            session: params.session,
            theme: params.theme,
        }))
    }

    async fn get_tick(
        &self,
        _ctx: &RequestContext,
        params: GetTickParams,
    ) -> Result<GetTickResponse, String> {
        Ok(if self.purged.lock().unwrap().contains(&params.tick_id) {
            GetTickResponse::NotFound(not_found())
        } else {
            GetTickResponse::Ok(tick(params.tick_id))
        })
    }

    async fn purge_tick(
        &self,
        _ctx: &RequestContext,
        params: PurgeTickParams,
    ) -> Result<PurgeTickResponse, String> {
        Ok(if self.purged.lock().unwrap().insert(params.tick_id) {
            PurgeTickResponse::NoContent
        } else {
            PurgeTickResponse::NotFound(not_found())
        })
    }
}

fn not_found() -> types::Error {
    types::Error {
        code: "not_found".into(),
        message: "no such tick".into(),
        status: 404,
    }
}

/// Ticks 0..10 whose price is at least `min_price`, at most `limit` of them.
fn matching(filter: &types::TickFilter) -> Vec<types::Tick> {
    (0..10)
        .map(tick)
        .filter(|t| t.price >= filter.min_price.unwrap_or(0.0))
        .take(filter.limit.unwrap_or(100) as usize)
        .collect()
}

async fn serve() -> (SocketAddr, Arc<Ticker>) {
    let ticker = Arc::new(Ticker::default());
    let config = ServerConfig::new()
        .authenticator(StaticKeys::new().with_key(KEY, "tester", Some("pro")))
        .rate_limit_in_memory(oas32_server::rate_limit_policy());
    let app = oas32_server::router(ticker.clone(), config);
    (common::spawn(app).await, ticker)
}

fn client(addr: SocketAddr) -> Client {
    Client::builder(format!("http://{addr}/api"))
        .bearer_auth(KEY)
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap()
}

fn client_tick(seq: i64) -> oas32_client::types::Tick {
    oas32_client::types::Tick {
        seq,
        price: seq as f64 * 1.5,
        note: (seq % 2 == 0).then(|| Some(format!("tick {seq}"))),
    }
}

#[tokio::test]
async fn server_sent_events_arrive_typed_while_the_stream_is_open() {
    let (addr, ticker) = serve().await;
    let response = client(addr).watch_ticks(4).await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.headers()["content-type"].to_str().unwrap(),
        "text/event-stream"
    );
    let mut events = response.into_inner();
    let first = tokio::time::timeout(PATIENCE, events.next())
        .await
        .expect("the first event comes before the implementation lets the rest go")
        .unwrap()
        .unwrap();
    assert_eq!(first.data, client_tick(0));
    assert_eq!(first.event, "message");
    assert_eq!(first.id.as_deref(), Some("0"));

    ticker.gate.notify_one();
    let mut rest = Vec::new();
    while let Some(event) = tokio::time::timeout(PATIENCE, events.next()).await.unwrap() {
        let event = event.unwrap();
        rest.push((event.data.seq, event.id));
    }
    assert_eq!(
        rest,
        [
            (1, Some("1".into())),
            (2, Some("2".into())),
            (3, Some("3".into()))
        ]
    );
}

#[tokio::test]
async fn a_failing_event_stream_ends_with_the_typed_error() {
    let (addr, ticker) = serve().await;
    ticker.gate.notify_one();
    // ANCHOR: client
    let mut events = client(addr).watch_ticks(13).await.unwrap().into_inner();
    let mut seen = Vec::new();
    let failure = loop {
        match tokio::time::timeout(PATIENCE, events.next()).await.unwrap() {
            Some(Ok(event)) => seen.push(event.data.seq),
            Some(Err(e)) => break e,
            None => panic!("the stream ended without its error event after {seen:?}"),
        }
    };
    // ANCHOR_END: client
    assert_eq!(seen, [0, 1]);
    match failure {
        Error::Api {
            status,
            body: oas32_client::client::WatchTicksError::TooManyRequests(body),
            ..
        } => {
            assert_eq!(status, 429);
            assert_eq!(body.code, "feed_overloaded");
            assert_eq!(body.message, "the feed is overloaded");
        }
        other => panic!("expected the typed 429, got {other:?}"),
    }
    assert!(events.next().await.is_none(), "nothing after the error");
}

#[tokio::test]
async fn a_stream_refused_before_it_starts_is_an_ordinary_error() {
    let (addr, _) = serve().await;
    match client(addr).watch_ticks(0).await.unwrap_err() {
        Error::Api {
            status,
            body: oas32_client::client::WatchTicksError::BadRequest(body),
            ..
        } => {
            assert_eq!(status, 400);
            assert_eq!(body.status, 400);
        }
        other => panic!("expected the typed 400, got {other:?}"),
    }
    let anonymous = Client::builder(format!("http://{addr}/api"))
        .retry_policy(RetryPolicy::none())
        .build()
        .unwrap();
    match anonymous.watch_ticks(2).await.unwrap_err() {
        Error::Api { status, .. } => assert_eq!(status, 401),
        other => panic!("expected the typed 401, got {other:?}"),
    }
}

#[tokio::test]
#[allow(deprecated)] // exportTicks is deprecated in the fixture: its headers are under test
async fn json_lines_arrive_typed_with_the_operations_headers() {
    let (addr, _) = serve().await;
    let response = client(addr).export_ticks(5).await.unwrap();
    assert_eq!(response.status(), 200);
    assert!(response.is_deprecated(), "Deprecation header on a stream");
    assert!(response.headers().contains_key("x-ratelimit-limit"));
    let mut lines = response.into_inner();
    let mut got = Vec::new();
    while let Some(item) = tokio::time::timeout(PATIENCE, lines.next()).await.unwrap() {
        got.push(item.unwrap());
    }
    assert_eq!(got, (0..5).map(client_tick).collect::<Vec<_>>());

    // On the wire: one JSON document per line, `application/jsonl`.
    let raw = common::raw_http()
        .get(format!("http://{addr}/api/ticks/lines?count=2"))
        .bearer_auth(KEY)
        .send()
        .await
        .unwrap();
    assert_eq!(raw.headers()["content-type"], "application/jsonl");
    let text = raw.text().await.unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert_eq!(lines[1]["seq"], 1);
}

#[tokio::test]
async fn text_events_keep_their_names_and_lines() {
    let (addr, _) = serve().await;
    let mut events = client(addr).watch_messages().await.unwrap().into_inner();
    let mut got = Vec::new();
    while let Some(event) = tokio::time::timeout(PATIENCE, events.next()).await.unwrap() {
        let event = event.unwrap();
        got.push((event.event, event.data));
    }
    assert_eq!(
        got,
        [
            ("message".to_string(), "hello".to_string()),
            ("notice".to_string(), "two\nlines".to_string()),
        ]
    );
}

#[tokio::test]
async fn query_and_a_custom_method_are_routed_beside_get() {
    let (addr, _) = serve().await;
    let client = client(addr);
    let found = client
        .search_ticks(&oas32_client::types::TickFilter {
            min_price: Some(6.0),
            limit: Some(2),
        })
        .await
        .unwrap();
    assert_eq!(
        found.into_inner().iter().map(|t| t.seq).collect::<Vec<_>>(),
        [4, 5]
    );

    assert_eq!(client.get_tick(7).await.unwrap().seq, 7);
    assert_eq!(client.purge_tick(7).await.unwrap().status(), 204);
    match client.purge_tick(7).await.unwrap_err() {
        Error::Api {
            status,
            body: oas32_client::client::PurgeTickError::NotFound(body),
            ..
        } => {
            assert_eq!(status, 404);
            assert_eq!(body.code, "not_found");
        }
        other => panic!("expected the typed 404, got {other:?}"),
    }
    assert!(client.get_tick(7).await.is_err(), "purged");

    // A method the path does not declare: the same 405 problem as any path, with `Allow`.
    let raw = common::raw_http()
        .delete(format!("http://{addr}/api/ticks"))
        .bearer_auth(KEY)
        .send()
        .await
        .unwrap();
    assert_eq!(raw.status(), 405);
    assert_eq!(raw.headers()["allow"], "GET,HEAD,QUERY");
    let body: serde_json::Value = serde_json::from_slice(&raw.bytes().await.unwrap()).unwrap();
    assert_eq!(body["status"], 405);
    assert_eq!(body["code"], "method_not_allowed");

    // QUERY still authenticates like every operation.
    let raw = common::raw_http()
        .request(
            http::Method::from_bytes(b"QUERY").unwrap(),
            format!("http://{addr}/api/ticks"),
        )
        .header("content-type", "application/json")
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(raw.status(), 401);
}

#[tokio::test]
async fn the_query_string_is_one_typed_object() {
    let (addr, ticker) = serve().await;
    let found = client(addr)
        .find_ticks(&oas32_client::types::TickFilter {
            min_price: Some(3.0),
            limit: Some(3),
        })
        .await
        .unwrap();
    assert_eq!(
        found.into_inner().iter().map(|t| t.seq).collect::<Vec<_>>(),
        [2, 3, 4]
    );
    assert_eq!(
        ticker.filters.lock().unwrap().last(),
        Some(&types::TickFilter {
            min_price: Some(3.0),
            limit: Some(3),
        })
    );

    // Checked like a body: a bad field, a violated bound, each a 400 naming the field.
    for (query, field) in [("limit=many", "limit"), ("limit=0&minPrice=1", "limit")] {
        let raw = common::raw_http()
            .get(format!("http://{addr}/api/ticks/search?{query}"))
            .bearer_auth(KEY)
            .send()
            .await
            .unwrap();
        assert_eq!(raw.status(), 400, "{query}");
        let body = raw.text().await.unwrap();
        assert!(body.contains(field), "{query}: {body}");
    }
}

/// A consumer's endpoint: reads each delivery with the client crate's `Webhook`.
async fn webhook_receiver() -> (SocketAddr, mpsc::UnboundedReceiver<oas32_client::Webhook>) {
    let (tx, rx) = mpsc::unbounded_channel();
    let app = axum::Router::new().route(
        "/hooks/{name}",
        axum::routing::any(
            move |axum::extract::Path(name): axum::extract::Path<String>,
                  method: http::Method,
                  headers: http::HeaderMap,
                  body: bytes::Bytes| {
                let tx = tx.clone();
                async move {
                    match oas32_client::Webhook::from_request(&name, &method, &headers, &body) {
                        Ok(delivery) => {
                            tx.send(delivery).unwrap();
                            http::StatusCode::NO_CONTENT
                        }
                        Err(e) => e.status(),
                    }
                }
            },
        ),
    );
    (common::spawn(app).await, rx)
}

/// Sends what the server crate's `Webhook::to_request` built, as a provider would.
async fn deliver(request: http::Request<Vec<u8>>) -> u16 {
    let request: reqwest::Request = request.map(reqwest::Body::from).try_into().unwrap();
    common::raw_http()
        .execute(request)
        .await
        .unwrap()
        .status()
        .as_u16()
}

#[tokio::test]
async fn webhooks_sent_by_the_server_crate_are_read_by_the_client_crate() {
    let (addr, mut received) = webhook_receiver().await;
    let sent = [
        oas32_server::Webhook::TickPublished(tick(3)),
        oas32_server::Webhook::FeedClosed(types::FeedClosedBody {
            reason: "maintenance".into(),
            at: Some(None),
        }),
    ];
    for hook in &sent {
        let url = format!("http://{addr}/hooks/{}", hook.name());
        assert_eq!(deliver(hook.to_request(&url).unwrap()).await, 204);
    }
    assert_eq!(
        received.recv().await.unwrap(),
        oas32_client::Webhook::TickPublished(client_tick(3))
    );
    match received.recv().await.unwrap() {
        oas32_client::Webhook::FeedClosed(body) => {
            assert_eq!(body.reason, "maintenance");
            assert_eq!(body.at, Some(None), "an explicit null stays null");
        }
        other => panic!("expected feedClosed, got {other:?}"),
    }
    assert_eq!(
        oas32_client::Webhook::NAMES,
        ["tickPublished", "feedClosed", "feedPaused"]
    );

    // One name, two methods: the method tells the deliveries apart, and a third is refused.
    let paused = [
        oas32_server::Webhook::FeedPausedPut(types::FeedPausedPutBody::new(
            "2030-01-01T00:00:00Z".parse().unwrap(),
        )),
        oas32_server::Webhook::FeedPausedDelete,
    ];
    for hook in &paused {
        let url = format!("http://{addr}/hooks/{}", hook.name());
        assert_eq!(deliver(hook.to_request(&url).unwrap()).await, 204);
    }
    match received.recv().await.unwrap() {
        oas32_client::Webhook::FeedPausedPut(body) => {
            assert_eq!(body.until.to_string(), "2030-01-01T00:00:00Z")
        }
        other => panic!("expected feedPaused by PUT, got {other:?}"),
    }
    assert_eq!(
        received.recv().await.unwrap(),
        oas32_client::Webhook::FeedPausedDelete
    );
    let patch = http::Request::patch(format!("http://{addr}/hooks/feedPaused"))
        .body(Vec::new())
        .unwrap();
    assert_eq!(deliver(patch).await, 405);
    let refused = oas32_client::Webhook::from_request(
        "feedPaused",
        &http::Method::PATCH,
        &http::HeaderMap::new(),
        b"",
    );
    assert!(
        matches!(&refused, Err(oas32_client::webhooks::WebhookError::MethodNotAllowed { expected, .. }) if expected == "PUT or DELETE"),
        "{refused:?}"
    );

    // Refused deliveries get the status that says why.
    let url = |name: &str| format!("http://{addr}/hooks/{name}");
    let post = |name: &str, content_type: &str, body: &str| {
        http::Request::post(url(name))
            .header("content-type", content_type)
            .body(body.as_bytes().to_vec())
            .unwrap()
    };
    assert_eq!(deliver(post("nope", "application/json", "{}")).await, 404);
    assert_eq!(
        deliver(
            http::Request::put(url("tickPublished"))
                .body(b"{}".to_vec())
                .unwrap()
        )
        .await,
        405
    );
    assert_eq!(
        deliver(post(
            "tickPublished",
            "text/plain",
            "{\"seq\":1,\"price\":2}"
        ))
        .await,
        415
    );
    assert_eq!(
        deliver(post("tickPublished", "application/json", "{\"seq\":\"x\"}")).await,
        400
    );
    assert_eq!(
        deliver(post("feedClosed", "application/json", "")).await,
        400
    );
    assert!(received.try_recv().is_err(), "nothing refused was accepted");
}

#[tokio::test]
async fn a_json_query_string_is_one_typed_value() {
    let (addr, ticker) = serve().await;
    let client = client(addr);
    let filter = oas32_client::types::TickFilter {
        min_price: Some(10.5),
        limit: None,
    };
    let found = client.select_ticks(Some(&filter)).await.unwrap();
    assert_eq!(
        found.into_inner().iter().map(|t| t.seq).collect::<Vec<_>>(),
        [7, 8, 9]
    );
    // Without one, the implementation gets `None` (and here answers every tick).
    assert_eq!(client.select_ticks(None).await.unwrap().len(), 10);
    assert_eq!(
        ticker.filters.lock().unwrap().first(),
        Some(&types::TickFilter {
            min_price: Some(10.5),
            limit: None,
        })
    );

    // On the wire: the percent-encoded JSON text; bad JSON and a violated bound are 400s.
    let get = |query: &'static str| {
        common::raw_http()
            .get(format!("http://{addr}/api/ticks/select?{query}"))
            .bearer_auth(KEY)
            .send()
    };
    let ok = get("%7B%22limit%22%3A2%7D").await.unwrap();
    assert_eq!(ok.status(), 200);
    let body: serde_json::Value = serde_json::from_slice(&ok.bytes().await.unwrap()).unwrap();
    assert_eq!(body.as_array().unwrap().len(), 2);
    for (query, says) in [
        ("%7B%22limit%22%3A", "EOF"),
        ("%7B%22limit%22%3A0%7D", "limit"),
    ] {
        let refused = get(query).await.unwrap();
        assert_eq!(refused.status(), 400, "{query}");
        let text = refused.text().await.unwrap();
        assert!(text.contains(says), "{query}: {text}");
    }
}

#[tokio::test]
async fn ndjson_items_of_a_stream_without_documented_errors() {
    let (addr, _) = serve().await;
    let response = client(addr).heartbeat().await.unwrap();
    assert_eq!(response.headers()["content-type"], "application/x-ndjson");
    let mut beats = response.into_inner();
    let mut got = Vec::new();
    while let Some(beat) = tokio::time::timeout(PATIENCE, beats.next()).await.unwrap() {
        got.push(beat.unwrap());
    }
    assert_eq!(got, [1, 2, 3]);

    // Any error status is then undocumented: read as the document's error type, its body kept.
    let unimplemented = oas32_server::router(Arc::new(Bare), ServerConfig::new());
    let addr = common::spawn(unimplemented).await;
    let error = client(addr).heartbeat().await.unwrap_err();
    match &error {
        Error::Api { status, .. } => {
            assert_eq!(*status, 501);
            assert!(String::from_utf8_lossy(error.raw_body().unwrap()).contains("not_implemented"));
        }
        other => panic!("expected the undocumented 501, got {other:?}"),
    }
}

/// Implements nothing: every operation answers the trait's default 501.
struct Bare;

impl TickerApi for Bare {
    type Error = String;
}

/// `style: cookie` (3.2): the client sends the value as it is and the server reads it so (a
/// base64 token keeps its `/` and `=`, a `%2F` stays three characters); `style: form` beside
/// it is percent-encoded and decoded.
#[tokio::test]
async fn cookies_of_style_cookie_go_as_they_are() {
    let (addr, _) = serve().await;
    let me = client(addr)
        .who_am_i_with(
            "ab/c+d==",
            oas32_client::client::WhoAmIOptions::default().with_theme("dark blue/2".to_string()),
        )
        .await
        .unwrap()
        .into_inner();
    assert_eq!(me.session, "ab/c+d==");
    assert_eq!(me.theme.as_deref(), Some("dark blue/2"));
    let raw = reqwest::Client::builder()
        .no_proxy()
        .build()
        .unwrap()
        .get(format!("http://{addr}/api/session"))
        .header("cookie", "session=a%2Fb; theme=a%2Fb")
        .send()
        .await
        .unwrap();
    let body: serde_json::Value = serde_json::from_slice(&raw.bytes().await.unwrap()).unwrap();
    assert_eq!(
        body,
        serde_json::json!({"session": "a%2Fb", "theme": "a/b"})
    );
}
