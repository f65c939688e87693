//! Owns what a call tells tracing: its `tracing` span (`call`, with OpenTelemetry's HTTP
//! client attributes) and its W3C `traceparent`, which every attempt sends so that the
//! server's span for the request joins the call's trace (the generated server reads it).
//!
//! Span fields: `otel.name` (the operation id), `otel.kind` (`client`), `apigen.operation.id`,
//! `http.request.method`, `server.address`, `url.template` (the document's path template),
//! `http.response.status_code`, `http.request.resend_count` (from the second attempt on),
//! `error.type` (the status for 4xx/5xx answers; `timeout`, `connect`, `transport` or
//! `invalid_request` for calls without an answer), `trace_id` and `span_id`. Retries and
//! rate-limit waits are events inside the span.

use http::HeaderValue;
use http::header::HeaderName;
use tracing::field::Empty;

use super::error::SendError;
use super::random::{random_u64, write_hex};

/// `traceparent`: W3C Trace Context.
pub static TRACEPARENT: HeaderName = HeaderName::from_static("traceparent");

/// One call's place in a trace: a new trace (the client knows no caller's context), and the
/// call's span id, the parent of the server's span.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CallTrace {
    pub(crate) trace_id: u128,
    pub(crate) span_id: u64,
}

impl CallTrace {
    pub(crate) fn new() -> CallTrace {
        let (high, low, span) = (random_u64(), random_u64(), random_u64());
        CallTrace {
            // Never all zeros (invalid): the low bit of each part set.
            trace_id: (u128::from(high) << 64 | u128::from(low)) | 1,
            span_id: span | 1,
        }
    }

    /// `00-{trace}-{span}-01`: version 0, sampled; written into a buffer (a `format!` of
    /// the two numbers cost more than the rest of the header).
    pub(crate) fn traceparent(&self) -> HeaderValue {
        let mut text = *b"00-00000000000000000000000000000000-0000000000000000-01";
        write_hex(&mut text[3..35], self.trace_id);
        write_hex(&mut text[36..52], u128::from(self.span_id));
        HeaderValue::from_bytes(&text).expect("hex digits and dashes are a valid header value")
    }
}

/// The call's span (of the operation `id`, `method` and path `template`), its answer's
/// fields empty until it comes.
pub(crate) fn call_span(
    (id, method, template): (&str, &http::Method, &str),
    base_url: &str,
    trace: &CallTrace,
) -> tracing::Span {
    tracing::info_span!(
        "call",
        otel.name = id,
        otel.kind = "client",
        apigen.operation.id = id,
        http.request.method = method.as_str(),
        server.address = host(base_url),
        url.template = template,
        http.response.status_code = Empty,
        http.request.resend_count = Empty,
        error.type = Empty,
        trace_id = format_args!("{:032x}", trace.trace_id),
        span_id = format_args!("{:016x}", trace.span_id),
    )
}

/// The answer's status on the span; `error.type` too for 4xx and 5xx, as the conventions say
/// for clients.
pub(crate) fn record_status(span: &tracing::Span, status: http::StatusCode) {
    span.record("http.response.status_code", status.as_u16());
    if status.is_client_error() || status.is_server_error() {
        span.record("error.type", status.as_str());
    }
}

/// `error.type` of a call that got no answer.
pub(crate) fn error_type(error: &SendError) -> &'static str {
    match error {
        SendError::Transport(e) if e.is_timeout() => "timeout",
        SendError::Transport(e) if connect_error(e) => "connect",
        SendError::Transport(_) => "transport",
        SendError::InvalidRequest(_) => "invalid_request",
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn connect_error(e: &reqwest::Error) -> bool {
    e.is_connect()
}

// The browser's fetch does not tell a connection that failed from any other failure.
#[cfg(target_arch = "wasm32")]
fn connect_error(_: &reqwest::Error) -> bool {
    false
}

/// The host of `http://host:port/base` (no port, no brackets around an IPv6 address).
fn host(base_url: &str) -> &str {
    let rest = base_url.split_once("://").map_or(base_url, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let authority = authority.rsplit_once('@').map_or(authority, |(_, a)| a);
    if let Some(v6) = authority.strip_prefix('[') {
        return v6.split(']').next().unwrap_or(v6);
    }
    authority.split(':').next().unwrap_or(authority)
}
