//! Owns streamed responses (OpenAPI 3.2 `itemSchema`): the item streams an implementation
//! returns ([`EventStream`], [`JsonLines`]) and their writing as Server-Sent Events or JSON
//! Lines, each item sent as soon as the implementation yields it.
//!
//! Failure policy (the status and headers are on the wire before the first item, so a failure
//! cannot change them):
//! - an item `Err(problem)` (or an item that does not serialize, which becomes
//!   `Problem::internal()`) ends the stream;
//! - Server-Sent Events: the last event is `event: error` whose `data` is the problem as the
//!   default `Error` body (`{"code","message","status"}`), then the response ends cleanly;
//! - JSON Lines has no way to mark an error, so the response body is aborted (the chunked
//!   encoding never terminates): the client sees a broken body, never a short list that looks
//!   complete. The problem is logged.

use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use axum::response::Response;
use futures_core::Stream;
use http::StatusCode;
use http::header::{self, HeaderValue};
use serde::Serialize;

use super::problem::{self, Problem};

/// The stream an implementation returns: items, or a problem that ends it.
pub type BoxStream<T> = Pin<Box<dyn Stream<Item = Result<T, Problem>> + Send>>;

/// One Server-Sent Event: `data` and the optional `event` (type; clients read `message` when
/// absent), `id` (becomes the client's last event id) and `retry` (reconnection delay, ms).
#[derive(Debug, Clone, PartialEq)]
pub struct Event<T> {
    /// The event's payload, written as JSON on `data:` lines.
    pub data: T,
    /// The event type (`event:`); `None`: the default, `message`.
    pub event: Option<String>,
    /// The event id (`id:`), which a reconnecting client sends back as `Last-Event-ID`.
    pub id: Option<String>,
    /// The reconnection delay in milliseconds the client should use (`retry:`).
    pub retry: Option<u64>,
}

impl<T> Event<T> {
    /// An event of the default type (`message`) carrying `data`.
    pub fn new(data: T) -> Self {
        Event {
            data,
            event: None,
            id: None,
            retry: None,
        }
    }

    /// Sets the event type. Line breaks are dropped when written (they would end the field).
    pub fn with_event(mut self, event: impl Into<String>) -> Self {
        self.event = Some(event.into());
        self
    }

    /// Sets the event id. Line breaks are dropped when written.
    pub fn with_id(mut self, id: impl Into<String>) -> Self {
        self.id = Some(id.into());
        self
    }

    /// Sets the reconnection delay, in milliseconds, the client should use.
    pub fn with_retry(mut self, millis: u64) -> Self {
        self.retry = Some(millis);
        self
    }
}

impl<T> From<T> for Event<T> {
    fn from(data: T) -> Self {
        Event::new(data)
    }
}

/// A `text/event-stream` response body: the events an operation sends, as they come.
pub struct EventStream<T>(BoxStream<Event<T>>);

impl<T> EventStream<T> {
    /// Events from any stream (a channel receiver wrapped as a stream, an `async-stream`, ...).
    pub fn new(stream: impl Stream<Item = Result<Event<T>, Problem>> + Send + 'static) -> Self {
        EventStream(Box::pin(stream))
    }

    /// Events known up front.
    pub fn from_events(events: impl IntoIterator<Item = Event<T>>) -> Self
    where
        T: Send + 'static,
    {
        let events: Vec<Event<T>> = events.into_iter().collect();
        EventStream::new(Iter(events.into_iter().map(Ok)))
    }

    /// The underlying stream.
    pub fn into_inner(self) -> BoxStream<Event<T>> {
        self.0
    }
}

impl<T> fmt::Debug for EventStream<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EventStream").finish_non_exhaustive()
    }
}

/// A JSON Lines response body (`application/jsonl`, `application/x-ndjson`): one JSON value
/// per line, as the items come.
pub struct JsonLines<T>(BoxStream<T>);

impl<T> JsonLines<T> {
    /// Items from any stream.
    pub fn new(stream: impl Stream<Item = Result<T, Problem>> + Send + 'static) -> Self {
        JsonLines(Box::pin(stream))
    }

    /// Items known up front.
    pub fn from_items(items: impl IntoIterator<Item = T>) -> Self
    where
        T: Send + 'static,
    {
        let items: Vec<T> = items.into_iter().collect();
        JsonLines::new(Iter(items.into_iter().map(Ok)))
    }

    /// The underlying stream.
    pub fn into_inner(self) -> BoxStream<T> {
        self.0
    }
}

impl<T> fmt::Debug for JsonLines<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JsonLines").finish_non_exhaustive()
    }
}

/// An iterator as a stream whose items are always ready.
struct Iter<I>(I);

// The iterator is never pinned (it is only called through `&mut`), so moving it is fine.
impl<I> Unpin for Iter<I> {}

impl<I: Iterator> Stream for Iter<I> {
    type Item = I::Item;

    fn poll_next(mut self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<Option<I::Item>> {
        Poll::Ready(self.0.next())
    }
}

/// A Server-Sent Events response whose `data` fields are the items as JSON.
pub fn event_stream<T: Serialize + 'static>(
    status: StatusCode,
    events: EventStream<T>,
) -> Response {
    streamed(
        status,
        HeaderValue::from_static("text/event-stream"),
        Encoder {
            inner: events.0,
            encode: encode_event_json::<T>,
            on_error: Failure::ErrorEvent,
            done: false,
        },
    )
}

/// A Server-Sent Events response whose `data` fields are text, written as is (a line break in
/// the text becomes a second `data:` line, which the client joins back with `\n`).
pub fn event_stream_text<T: AsRef<str> + 'static>(
    status: StatusCode,
    events: EventStream<T>,
) -> Response {
    streamed(
        status,
        HeaderValue::from_static("text/event-stream"),
        Encoder {
            inner: events.0,
            encode: encode_event_text::<T>,
            on_error: Failure::ErrorEvent,
            done: false,
        },
    )
}

/// A JSON Lines response with the document's media type (`application/jsonl`, ...).
pub fn json_lines<T: Serialize + 'static>(
    status: StatusCode,
    content_type: &str,
    items: JsonLines<T>,
) -> Response {
    let content_type = HeaderValue::from_str(content_type).unwrap_or_else(|_| {
        tracing::warn!(
            content_type,
            "invalid content type; using application/jsonl"
        );
        HeaderValue::from_static("application/jsonl")
    });
    streamed(
        status,
        content_type,
        Encoder {
            inner: items.0,
            encode: encode_line::<T>,
            on_error: Failure::Abort,
            done: false,
        },
    )
}

fn streamed<T: 'static>(
    status: StatusCode,
    content_type: HeaderValue,
    body: Encoder<T>,
) -> Response {
    let mut resp = Response::new(Body::from_stream(body));
    *resp.status_mut() = status;
    let headers = resp.headers_mut();
    headers.insert(header::CONTENT_TYPE, content_type);
    // Caches and buffering proxies would hold the items back; each must reach the client now.
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(
        header::HeaderName::from_static("x-accel-buffering"),
        HeaderValue::from_static("no"),
    );
    resp
}

/// What a failed item turns into.
#[derive(Clone, Copy)]
enum Failure {
    /// A last `event: error` with the problem body, then a clean end.
    ErrorEvent,
    /// An aborted body.
    Abort,
}

/// Items → wire bytes, one chunk per item.
struct Encoder<T> {
    inner: BoxStream<T>,
    encode: fn(&T, &mut Vec<u8>) -> Result<(), Problem>,
    on_error: Failure,
    done: bool,
}

impl<T> Stream for Encoder<T> {
    type Item = Result<Bytes, Problem>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.done {
            return Poll::Ready(None);
        }
        let item = match self.inner.as_mut().poll_next(cx) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(None) => {
                self.done = true;
                return Poll::Ready(None);
            }
            Poll::Ready(Some(item)) => item,
        };
        let mut out = Vec::with_capacity(128);
        let failed = match item {
            Ok(item) => match (self.encode)(&item, &mut out) {
                Ok(()) => return Poll::Ready(Some(Ok(Bytes::from(out)))),
                Err(problem) => problem,
            },
            Err(problem) => problem,
        };
        self.done = true;
        tracing::error!(code = %failed.code, message = %failed.message, "a streamed response failed; ending it");
        Poll::Ready(Some(match self.on_error {
            Failure::ErrorEvent => {
                out.clear();
                out.extend_from_slice(b"event: error\ndata: ");
                out.extend_from_slice(&problem::body_json(&failed));
                out.extend_from_slice(b"\n\n");
                Ok(Bytes::from(out))
            }
            Failure::Abort => Err(failed),
        }))
    }
}

fn serialize_into<T: Serialize>(value: &T, out: &mut Vec<u8>) -> Result<(), Problem> {
    // serde_json escapes control characters inside strings, so the text has no line break.
    serde_json::to_writer(out, value).map_err(|e| {
        tracing::error!(error = %e, "failed to serialize a streamed item");
        Problem::internal()
    })
}

fn encode_line<T: Serialize>(item: &T, out: &mut Vec<u8>) -> Result<(), Problem> {
    serialize_into(item, out)?;
    out.push(b'\n');
    Ok(())
}

fn encode_event_json<T: Serialize>(event: &Event<T>, out: &mut Vec<u8>) -> Result<(), Problem> {
    fields(event, out);
    out.extend_from_slice(b"data: ");
    serialize_into(&event.data, out)?;
    out.extend_from_slice(b"\n\n");
    Ok(())
}

fn encode_event_text<T: AsRef<str>>(event: &Event<T>, out: &mut Vec<u8>) -> Result<(), Problem> {
    fields(event, out);
    let text = event.data.as_ref();
    // `\r\n`, `\r` and `\n` all end a line for the client.
    for line in text.split("\r\n").flat_map(|l| l.split(['\r', '\n'])) {
        out.extend_from_slice(b"data: ");
        out.extend_from_slice(line.as_bytes());
        out.push(b'\n');
    }
    out.push(b'\n');
    Ok(())
}

/// `event`, `id` and `retry` lines, line breaks removed from the values.
fn fields<T>(event: &Event<T>, out: &mut Vec<u8>) {
    let mut line = |name: &str, value: &str| {
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b": ");
        out.extend(value.bytes().filter(|b| *b != b'\r' && *b != b'\n'));
        out.push(b'\n');
    };
    if let Some(e) = &event.event {
        line("event", e);
    }
    if let Some(id) = &event.id {
        line("id", id);
    }
    if let Some(retry) = event.retry {
        line("retry", &retry.to_string());
    }
}
