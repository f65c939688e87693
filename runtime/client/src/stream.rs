//! Streamed responses (OpenAPI 3.2 `itemSchema`): a response whose body is read as it arrives
//! ([`Streamed`]) and decoded item by item into a typed stream: Server-Sent Events
//! ([`EventStream`], parsed by the WHATWG rules) or JSON Lines ([`JsonLines`]).
//!
//! Both streams implement `futures_core::Stream<Item = Result<T, Error<E>>>` and have an
//! inherent `next().await`, so no stream library is needed to read them. Retries happen only
//! before the first byte of a successful response: once items flow, a failure ends the stream
//! with an error item ([`Error::Transport`] for a broken body, [`Error::Decode`] for an item
//! that does not decode, the operation's typed error for an `error` event), after which the
//! stream yields `None`.
//!
//! The event type `error` is reserved: it is how the server says why it ended a stream (its
//! `data` is the document's `Error` body), and becomes the error the same problem would have
//! been as a response.

// `Error<E>` keeps status, headers and body; see response.rs for why it is not boxed.
#![allow(clippy::result_large_err)]

use std::collections::VecDeque;
use std::future::poll_fn;
use std::marker::PhantomData;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use futures_core::Stream;
use http::{HeaderMap, StatusCode};
use serde::de::DeserializeOwned;

use super::error::{Error, SendError};
use super::integer;
use super::response::{Raw, ResponseValue};
use super::retry::{self, Instant, RetryPolicy};

/// An item (one line, one event) longer than this ends the stream with [`Error::Decode`]
/// rather than growing the buffer without bound.
pub const MAX_ITEM_BYTES: usize = 16 * 1024 * 1024;

#[cfg(not(target_arch = "wasm32"))]
type ByteStream = Pin<Box<dyn Stream<Item = Result<Bytes, reqwest::Error>> + Send>>;
// Browser responses are not `Send`.
#[cfg(target_arch = "wasm32")]
type ByteStream = Pin<Box<dyn Stream<Item = Result<Bytes, reqwest::Error>>>>;

#[cfg(not(target_arch = "wasm32"))]
type BoxFuture<T> = Pin<Box<dyn std::future::Future<Output = T> + Send>>;
#[cfg(target_arch = "wasm32")]
type BoxFuture<T> = Pin<Box<dyn std::future::Future<Output = T>>>;

/// A response whose body has not been read yet (a success of a streamed operation), or has
/// (every other status, read whole so the retry decision and error decoding can see it).
pub struct Streamed {
    /// The response's status.
    pub status: StatusCode,
    /// The response's headers.
    pub headers: HeaderMap,
    body: Body,
    resume: Option<Box<Resume>>,
}

/// What resuming an event stream that dropped takes: the request as it was sent, the client
/// that sent it, and the retry policy that bounds the reconnections.
///
/// An event stream whose connection breaks after the server numbered an event (`id:`) is
/// sent again with `Last-Event-ID` (WHATWG's reconnection), after the server's `retry:`
/// delay or else the policy's backoff, at most `max_attempts` times in a row and within its
/// budget; the event the break cut short is dropped (it was never complete), and an event
/// the server sends again with the id resumed from is not delivered twice. A stream the
/// server never numbered, a body that cannot be sent again, or an answer `204 No Content`
/// to the reconnection (the server's "do not reconnect") ends it.
pub struct Resume {
    http: reqwest::Client,
    request: reqwest::Request,
    policy: RetryPolicy,
}

impl Resume {
    pub(super) fn new(
        http: reqwest::Client,
        request: reqwest::Request,
        policy: RetryPolicy,
    ) -> Self {
        Resume {
            http,
            request,
            policy,
        }
    }
}

/// A reconnection under way: from which event id, how often it was tried, and the failure
/// that started it (reported when it gives up).
struct Resuming {
    id: String,
    /// The server's `retry:` delay (ms), if it gave one.
    delay: Option<u64>,
    attempt: u32,
    started: Instant,
    cause: reqwest::Error,
    step: Step,
}

enum Step {
    Waiting(BoxFuture<()>),
    Sending(BoxFuture<Result<reqwest::Response, reqwest::Error>>),
}

enum Body {
    Complete(Bytes),
    Live(ByteStream),
}

impl std::fmt::Debug for Streamed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Streamed")
            .field("status", &self.status)
            .finish_non_exhaustive()
    }
}

impl Streamed {
    pub(super) fn complete(raw: Raw) -> Self {
        Streamed {
            status: raw.status,
            headers: raw.headers,
            body: Body::Complete(raw.body),
            resume: None,
        }
    }

    pub(super) fn live(response: reqwest::Response, resume: Option<Box<Resume>>) -> Self {
        let status = response.status();
        let headers = response.headers().clone();
        Streamed {
            status,
            headers,
            body: Body::Live(Box::pin(response.bytes_stream())),
            resume,
        }
    }

    /// The whole response, the body read to its end.
    pub async fn into_raw(self) -> Result<Raw, SendError> {
        let body = match self.body {
            Body::Complete(body) => body,
            Body::Live(mut stream) => {
                let mut all = Vec::new();
                while let Some(chunk) = poll_fn(|cx| stream.as_mut().poll_next(cx)).await {
                    all.extend_from_slice(&chunk.map_err(SendError::Transport)?);
                }
                Bytes::from(all)
            }
        };
        Ok(Raw {
            status: self.status,
            headers: self.headers,
            body,
        })
    }

    /// The body as Server-Sent Events whose `data` is JSON decoded as `T`. `on_error` turns an
    /// `error` event into the operation's error (the generated status mapping).
    pub fn event_stream<T: DeserializeOwned, E>(
        self,
        on_error: fn(Raw) -> Error<E>,
    ) -> ResponseValue<EventStream<T, E>> {
        self.events(json_data::<T>, on_error)
    }

    /// The body as Server-Sent Events whose `data` is kept as text.
    pub fn event_stream_text<E>(
        self,
        on_error: fn(Raw) -> Error<E>,
    ) -> ResponseValue<EventStream<String, E>> {
        self.events(text_data, on_error)
    }

    fn events<T, E>(
        self,
        decode: fn(&str) -> Result<T, (String, String)>,
        on_error: fn(Raw) -> Error<E>,
    ) -> ResponseValue<EventStream<T, E>> {
        let mut source = Source::new(self.body, self.status, self.headers.clone());
        source.resume = self.resume;
        let stream = EventStream {
            source,
            parser: SseParser::default(),
            resumed_from: None,
            last_dispatched: None,
            ready: VecDeque::new(),
            decode,
            on_error,
            _item: PhantomData,
        };
        ResponseValue::new(stream, self.status, self.headers)
    }

    /// The body as JSON Lines, each line decoded as `T`.
    pub fn json_lines<T: DeserializeOwned, E>(self) -> ResponseValue<JsonLines<T, E>> {
        let stream = JsonLines {
            source: Source::new(self.body, self.status, self.headers.clone()),
            splitter: LineSplitter::default(),
            ready: VecDeque::new(),
            _item: PhantomData,
        };
        ResponseValue::new(stream, self.status, self.headers)
    }
}

/// Where the bytes come from, and what a failure needs to say (status and headers).
struct Source {
    body: Option<Body>,
    status: StatusCode,
    headers: HeaderMap,
    /// A failure or the end was reported: only `None` from now on.
    finished: bool,
    /// How to send the request again (an event stream of a request that can be).
    resume: Option<Box<Resume>>,
    /// A reconnection under way.
    resuming: Option<Resuming>,
}

enum Chunk {
    Data(Bytes),
    End,
    Failed(reqwest::Error),
}

impl Source {
    fn new(body: Body, status: StatusCode, headers: HeaderMap) -> Self {
        Source {
            body: Some(body),
            status,
            headers,
            finished: false,
            resume: None,
            resuming: None,
        }
    }

    /// Starts reconnecting after `cause` broke the body, from event `id`, when the request
    /// can be sent again and the policy allows one attempt; `Err(cause)` otherwise.
    fn resume_from(
        &mut self,
        id: String,
        delay: Option<u64>,
        cause: reqwest::Error,
    ) -> Result<(), reqwest::Error> {
        let Some(resume) = &self.resume else {
            return Err(cause);
        };
        if resume.policy.max_attempts < 2 {
            return Err(cause);
        }
        let wait = wait_before(&resume.policy, delay, 1);
        if wait > resume.policy.budget {
            return Err(cause);
        }
        self.resuming = Some(Resuming {
            id,
            delay,
            attempt: 1,
            started: Instant::now(),
            cause,
            step: Step::Waiting(Box::pin(retry::sleep(wait))),
        });
        Ok(())
    }

    /// Drives a reconnection: `Ready(None)` once the new body flows, `Ready(Some(chunk))`
    /// when it gave up (the failure that started it) or the server said not to reconnect.
    fn poll_resuming(&mut self, cx: &mut Context<'_>) -> Poll<Option<Chunk>> {
        let (Some(r), Some(resume)) = (&mut self.resuming, &self.resume) else {
            return Poll::Ready(None);
        };
        loop {
            match &mut r.step {
                Step::Waiting(sleep) => {
                    std::task::ready!(sleep.as_mut().poll(cx));
                    let Some(mut request) = resume.request.try_clone() else {
                        let r = self.resuming.take().expect("resuming");
                        return Poll::Ready(Some(Chunk::Failed(r.cause)));
                    };
                    if let Ok(id) = http::HeaderValue::from_str(&r.id) {
                        request.headers_mut().insert(LAST_EVENT_ID.clone(), id);
                    }
                    r.step = Step::Sending(Box::pin(resume.http.execute(request)));
                }
                Step::Sending(sending) => {
                    let outcome = std::task::ready!(sending.as_mut().poll(cx));
                    match outcome {
                        Ok(response) if response.status() == StatusCode::NO_CONTENT => {
                            self.resuming = None;
                            return Poll::Ready(Some(Chunk::End));
                        }
                        Ok(response) if response.status().is_success() => {
                            tracing::debug!(
                                last_event_id = r.id.as_str(),
                                attempt = r.attempt,
                                "event stream resumed"
                            );
                            self.body = Some(Body::Live(Box::pin(response.bytes_stream())));
                            self.resuming = None;
                            return Poll::Ready(None);
                        }
                        _ => {
                            r.attempt += 1;
                            let wait = wait_before(&resume.policy, r.delay, r.attempt);
                            let spent = r.started.elapsed() + wait;
                            if r.attempt >= resume.policy.max_attempts
                                || spent > resume.policy.budget
                            {
                                let r = self.resuming.take().expect("resuming");
                                return Poll::Ready(Some(Chunk::Failed(r.cause)));
                            }
                            r.step = Step::Waiting(Box::pin(retry::sleep(wait)));
                        }
                    }
                }
            }
        }
    }

    fn poll_chunk(&mut self, cx: &mut Context<'_>) -> Poll<Chunk> {
        if self.resuming.is_some()
            && let Some(chunk) = std::task::ready!(self.poll_resuming(cx))
        {
            return Poll::Ready(chunk);
        }
        match self.body.take() {
            None => Poll::Ready(Chunk::End),
            Some(Body::Complete(bytes)) => Poll::Ready(Chunk::Data(bytes)),
            Some(Body::Live(mut stream)) => match stream.as_mut().poll_next(cx) {
                Poll::Pending => {
                    self.body = Some(Body::Live(stream));
                    Poll::Pending
                }
                Poll::Ready(None) => Poll::Ready(Chunk::End),
                Poll::Ready(Some(Err(e))) => Poll::Ready(Chunk::Failed(e)),
                Poll::Ready(Some(Ok(bytes))) => {
                    self.body = Some(Body::Live(stream));
                    Poll::Ready(Chunk::Data(bytes))
                }
            },
        }
    }

    fn decode_error<E>(&self, item: &[u8], (path, message): (String, String)) -> Error<E> {
        Error::Decode {
            status: self.status,
            headers: self.headers.clone(),
            body: Bytes::copy_from_slice(item),
            path,
            message,
        }
    }
}

/// One Server-Sent Event as the client reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct Event<T> {
    /// The event type; `message` when the server named none.
    pub event: String,
    /// The event's data, decoded.
    pub data: T,
    /// The last event id the stream set (ids carry over to later events, as in browsers).
    pub id: Option<String>,
    /// The last reconnection delay (ms) the stream asked for.
    pub retry: Option<u64>,
}

/// A typed stream of Server-Sent Events; `E` is the operation's error enum.
pub struct EventStream<T, E> {
    source: Source,
    parser: SseParser,
    /// The id a reconnection resumed from, until an event with another id comes: an event
    /// the server sends again with it is not delivered twice.
    resumed_from: Option<String>,
    /// The id of the last event dispatched (WHATWG's "last event ID string": an `id` line
    /// of an event the connection cut short does not count), which a reconnection names.
    last_dispatched: Option<String>,
    ready: VecDeque<Result<Event<T>, Error<E>>>,
    decode: fn(&str) -> Result<T, (String, String)>,
    on_error: fn(Raw) -> Error<E>,
    _item: PhantomData<fn() -> T>,
}

impl<T, E> std::fmt::Debug for EventStream<T, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EventStream").finish_non_exhaustive()
    }
}

impl<T, E> EventStream<T, E> {
    /// The next event, `None` once the stream ended (after the end, or after an error item).
    pub async fn next(&mut self) -> Option<Result<Event<T>, Error<E>>> {
        poll_fn(|cx| self.poll_item(cx)).await
    }

    fn poll_item(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<Event<T>, Error<E>>>> {
        loop {
            if let Some(item) = self.ready.pop_front() {
                return Poll::Ready(Some(item));
            }
            if self.source.finished {
                return Poll::Ready(None);
            }
            match self.source.poll_chunk(cx) {
                Poll::Pending => return Poll::Pending,
                // Per WHATWG, an event not ended by a blank line when the stream ends is dropped.
                Poll::Ready(Chunk::End) => self.source.finished = true,
                Poll::Ready(Chunk::Failed(e)) => {
                    // Resumed from the last id the server gave, if it gave one.
                    let id = self.last_dispatched.clone();
                    let failed = match id {
                        Some(id) => {
                            let retry = self.parser.retry;
                            self.source
                                .resume_from(id.clone(), retry, e)
                                .map(|()| {
                                    self.parser.reconnected();
                                    self.resumed_from = Some(id);
                                })
                                .err()
                        }
                        None => Some(e),
                    };
                    if let Some(e) = failed {
                        self.source.finished = true;
                        self.ready.push_back(Err(Error::Transport(e)));
                    }
                }
                Poll::Ready(Chunk::Data(bytes)) => {
                    let mut events = Vec::new();
                    let fed = self.parser.feed(&bytes, &mut events);
                    for raw in events {
                        if raw.id.is_some() {
                            self.last_dispatched.clone_from(&raw.id);
                        }
                        if let Some(from) = self.resumed_from.take()
                            && raw.id.as_deref() == Some(from.as_str())
                        {
                            // The event resumed from, sent again.
                            self.resumed_from = Some(from);
                            continue;
                        }
                        let item = self.typed(raw);
                        let failed = item.is_err();
                        self.ready.push_back(item);
                        if failed {
                            self.source.finished = true;
                            return Poll::Ready(self.ready.pop_front());
                        }
                    }
                    if let Err(message) = fed {
                        self.source.finished = true;
                        let e = self.source.decode_error(&[], (String::new(), message));
                        self.ready.push_back(Err(e));
                    }
                }
            }
        }
    }

    fn typed(&self, raw: RawEvent) -> Result<Event<T>, Error<E>> {
        if raw.event == "error" {
            // The server's reason for ending the stream: the error the same problem would
            // have been as a response, by its `status` field (500 when it has none).
            let status = serde_json::from_str::<serde_json::Value>(&raw.data)
                .ok()
                .and_then(|v| v.get("status")?.as_u64())
                .and_then(|s| StatusCode::from_u16(u16::try_from(s).ok()?).ok())
                .filter(|s| !s.is_success())
                .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            return Err((self.on_error)(Raw {
                status,
                headers: self.source.headers.clone(),
                body: Bytes::from(raw.data),
            }));
        }
        match (self.decode)(&raw.data) {
            Ok(data) => Ok(Event {
                event: raw.event,
                data,
                id: raw.id,
                retry: raw.retry,
            }),
            Err(message) => Err(self.source.decode_error(raw.data.as_bytes(), message)),
        }
    }
}

// No field is ever pinned (items are only moved in and out of the queue), so the stream may
// move while in use; that also gives it `next(&mut self)`.
impl<T, E> Unpin for EventStream<T, E> {}

impl<T, E> Stream for EventStream<T, E> {
    type Item = Result<Event<T>, Error<E>>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.get_mut().poll_item(cx)
    }
}

fn json_data<T: DeserializeOwned>(data: &str) -> Result<T, (String, String)> {
    integer::from_slice_located(data.as_bytes()).map_err(|e| (e.pointer, e.error.to_string()))
}

fn text_data(data: &str) -> Result<String, (String, String)> {
    Ok(data.to_owned())
}

/// A typed stream of JSON Lines items; `E` is the operation's error enum.
pub struct JsonLines<T, E> {
    source: Source,
    splitter: LineSplitter,
    ready: VecDeque<Result<T, Error<E>>>,
    _item: PhantomData<fn() -> T>,
}

impl<T, E> std::fmt::Debug for JsonLines<T, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JsonLines").finish_non_exhaustive()
    }
}

impl<T: DeserializeOwned, E> JsonLines<T, E> {
    /// The next item, `None` once the stream ended (after the end, or after an error item).
    pub async fn next(&mut self) -> Option<Result<T, Error<E>>> {
        poll_fn(|cx| self.poll_item(cx)).await
    }

    fn poll_item(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<T, Error<E>>>> {
        loop {
            if let Some(item) = self.ready.pop_front() {
                return Poll::Ready(Some(item));
            }
            if self.source.finished {
                return Poll::Ready(None);
            }
            let lines = match self.source.poll_chunk(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Chunk::Failed(e)) => {
                    self.source.finished = true;
                    return Poll::Ready(Some(Err(Error::Transport(e))));
                }
                // The last line may lack its line break.
                Poll::Ready(Chunk::End) => {
                    self.source.finished = true;
                    self.splitter.finish()
                }
                Poll::Ready(Chunk::Data(bytes)) => match self.splitter.feed(&bytes) {
                    Ok(lines) => lines,
                    Err(message) => {
                        self.source.finished = true;
                        return Poll::Ready(Some(Err(self
                            .source
                            .decode_error(&[], (String::new(), message)))));
                    }
                },
            };
            for line in lines {
                if line.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                match integer::from_slice_located::<T>(&line) {
                    Ok(item) => self.ready.push_back(Ok(item)),
                    Err(e) => {
                        self.source.finished = true;
                        let e = self
                            .source
                            .decode_error(&line, (e.pointer, e.error.to_string()));
                        self.ready.push_back(Err(e));
                        break;
                    }
                }
            }
        }
    }
}

// As for `EventStream`: nothing is pinned.
impl<T, E> Unpin for JsonLines<T, E> {}

impl<T: DeserializeOwned, E> Stream for JsonLines<T, E> {
    type Item = Result<T, Error<E>>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.get_mut().poll_item(cx)
    }
}

// ---- wire formats, independent of HTTP (tested on their own) --------------------------------

/// Splits bytes into lines at `\n`, `\r\n` or `\r` (the line breaks of both formats), across
/// chunk boundaries.
#[derive(Debug, Default)]
pub struct LineSplitter {
    partial: Vec<u8>,
    /// The last chunk ended with `\r`: a `\n` starting the next one belongs to it.
    after_cr: bool,
}

impl LineSplitter {
    /// The lines `chunk` completes, without their line breaks; Err when an unfinished line
    /// grows beyond [`MAX_ITEM_BYTES`].
    pub fn feed(&mut self, chunk: &[u8]) -> Result<Vec<Vec<u8>>, String> {
        let mut lines = Vec::new();
        let mut rest = chunk;
        if self.after_cr && rest.first() == Some(&b'\n') {
            rest = &rest[1..];
        }
        self.after_cr = false;
        while let Some(i) = rest.iter().position(|b| *b == b'\n' || *b == b'\r') {
            self.partial.extend_from_slice(&rest[..i]);
            lines.push(std::mem::take(&mut self.partial));
            if rest[i] == b'\r' {
                match rest.get(i + 1) {
                    Some(b'\n') => rest = &rest[i + 2..],
                    Some(_) => rest = &rest[i + 1..],
                    None => {
                        self.after_cr = true;
                        rest = &[];
                    }
                }
            } else {
                rest = &rest[i + 1..];
            }
        }
        self.partial.extend_from_slice(rest);
        if self.partial.len() > MAX_ITEM_BYTES {
            return Err(format!(
                "a line of the stream exceeds {MAX_ITEM_BYTES} bytes"
            ));
        }
        Ok(lines)
    }

    /// The unfinished last line at the end of the stream, if any.
    pub fn finish(&mut self) -> Vec<Vec<u8>> {
        let last = std::mem::take(&mut self.partial);
        if last.is_empty() {
            Vec::new()
        } else {
            vec![last]
        }
    }
}

/// One dispatched Server-Sent Event before its data is decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawEvent {
    /// The event type; `message` when the server named none.
    pub event: String,
    /// The `data:` lines, joined with line feeds.
    pub data: String,
    /// The last event id the stream set.
    pub id: Option<String>,
    /// The reconnection delay (ms) the event asked for.
    pub retry: Option<u64>,
}

/// The event-stream interpretation of the WHATWG HTML standard ("Server-sent events",
/// parsing an event stream): fields `event`, `data`, `id`, `retry`; comments; a blank line
/// dispatches; a leading byte order mark is skipped.
#[derive(Debug, Default)]
pub struct SseParser {
    lines: LineSplitter,
    started: bool,
    data: String,
    /// `Some` once a `data` field was seen in the current event.
    has_data: bool,
    event: String,
    last_id: Option<String>,
    retry: Option<u64>,
    /// Bytes of the current event so far, for [`MAX_ITEM_BYTES`].
    size: usize,
}

/// The header a reconnection names the last event id in (WHATWG).
static LAST_EVENT_ID: http::HeaderName = http::HeaderName::from_static("last-event-id");

/// The delay before reconnection `attempt` (1 for the first): the server's `retry:` when it
/// gave one, else the policy's backoff.
fn wait_before(policy: &RetryPolicy, server: Option<u64>, attempt: u32) -> std::time::Duration {
    match server {
        Some(ms) => std::time::Duration::from_millis(ms),
        None => policy.backoff(attempt, retry::jitter()),
    }
}

impl SseParser {
    /// A new connection of the same stream: what the broken one left unfinished is dropped
    /// (an event is only delivered once its blank line came), the reconnection delay is kept,
    /// and the last event id starts unset (the reader keeps the one it resumed from), so that
    /// an event the server sends again with that id is told from a new one.
    pub fn reconnected(&mut self) {
        let retry = self.retry;
        *self = SseParser {
            retry,
            ..SseParser::default()
        };
    }

    /// Feeds one chunk; pushes the events it completes. Err when an event grows beyond
    /// [`MAX_ITEM_BYTES`] (the events before it are still pushed).
    pub fn feed(&mut self, mut chunk: &[u8], out: &mut Vec<RawEvent>) -> Result<(), String> {
        if !self.started {
            // A BOM can only be recognised once its three bytes are here; streams start with
            // more than that in practice, and a shorter first chunk is simply not checked.
            if !chunk.is_empty() {
                self.started = true;
                chunk = chunk.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(chunk);
            }
        }
        let lines = self.lines.feed(chunk)?;
        for line in lines {
            self.line(&line, out);
            if self.size > MAX_ITEM_BYTES {
                return Err(format!(
                    "an event of the stream exceeds {MAX_ITEM_BYTES} bytes"
                ));
            }
        }
        Ok(())
    }

    fn line(&mut self, line: &[u8], out: &mut Vec<RawEvent>) {
        if line.is_empty() {
            self.dispatch(out);
            return;
        }
        if line[0] == b':' {
            return;
        }
        self.size += line.len();
        let (field, value) = match line.iter().position(|b| *b == b':') {
            Some(i) => {
                let value = &line[i + 1..];
                (&line[..i], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &[][..]),
        };
        let value = String::from_utf8_lossy(value);
        match field {
            b"event" => self.event = value.into_owned(),
            b"data" => {
                self.data.push_str(&value);
                self.data.push('\n');
                self.has_data = true;
            }
            b"id" if !value.contains('\0') => {
                self.last_id = (!value.is_empty()).then(|| value.into_owned());
            }
            b"retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                // Too many digits for a u64: ignored like any other bad value.
                self.retry = value.parse().ok().or(self.retry);
            }
            _ => {}
        }
    }

    fn dispatch(&mut self, out: &mut Vec<RawEvent>) {
        self.size = 0;
        let event = std::mem::take(&mut self.event);
        if !self.has_data {
            self.data.clear();
            return;
        }
        self.has_data = false;
        let mut data = std::mem::take(&mut self.data);
        data.pop(); // the `\n` after the last data line
        out.push(RawEvent {
            event: if event.is_empty() {
                "message".to_owned()
            } else {
                event
            },
            data,
            id: self.last_id.clone(),
            retry: self.retry,
        });
    }
}
