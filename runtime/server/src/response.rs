//! Owns building success responses: the body is serialized before the status is committed, so
//! a serialization failure becomes a clean 500 problem instead of a half-written response.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use axum::body::{Body, Bytes};
use axum::response::Response;
use http::StatusCode;
use http::header::{self, HeaderName, HeaderValue};

use super::problem::Problem;

/// The initial buffer of a serialized JSON body.
const JSON_CAPACITY: usize = 256;

/// A JSON response. Serialization failure (a map with non-string keys, a failing custom
/// `Serialize`) is logged and becomes `Problem::internal()`.
pub fn json<T: serde::Serialize>(status: StatusCode, body: &T) -> Result<Response, Problem> {
    // Room for a typical object up front: growing from empty reallocates five times before
    // the first 100 bytes.
    let mut bytes = Vec::with_capacity(JSON_CAPACITY);
    serde_json::to_writer(&mut bytes, body).map_err(|e| {
        tracing::error!(error = %e, "failed to serialize a response body");
        Problem::internal()
    })?;
    Ok(with_body(
        status,
        HeaderValue::from_static("application/json"),
        Bytes::from(bytes),
    ))
}

/// [`json`] under the document's own JSON media type (`application/vnd.api+json`,
/// `application/problem+json`): clients and conformance tools compare the answer's
/// `Content-Type` with the one documented. An invalid one falls back to `application/json`.
pub fn json_as<T: serde::Serialize>(
    status: StatusCode,
    content_type: &'static str,
    body: &T,
) -> Result<Response, Problem> {
    let mut resp = json(status, body)?;
    // The generated code names a literal: the header refers to it, no copy per answer.
    let value = if content_type
        .bytes()
        .all(|b| b == b'\t' || (0x20..0x7f).contains(&b))
    {
        HeaderValue::from_static(content_type)
    } else {
        content_type_value(content_type, "application/json")
    };
    resp.headers_mut().insert(header::CONTENT_TYPE, value);
    Ok(resp)
}

/// A response without a body (204, 304, or a documented status without content).
pub fn empty(status: StatusCode) -> Response {
    let mut resp = Response::new(Body::empty());
    *resp.status_mut() = status;
    resp
}

/// A byte body with the given content type (an invalid one falls back to
/// `application/octet-stream` and is logged: it comes from the spec, not the client).
pub fn bytes(status: StatusCode, content_type: &str, body: Bytes) -> Response {
    with_body(
        status,
        content_type_value(content_type, "application/octet-stream"),
        body,
    )
}

/// A text body with the given content type (`text/plain; charset=utf-8` when invalid).
pub fn text(status: StatusCode, content_type: &str, body: String) -> Response {
    with_body(
        status,
        content_type_value(content_type, "text/plain; charset=utf-8"),
        Bytes::from(body),
    )
}

/// The document's media type as the answer's `Content-Type`; a range (`*/*`, `text/*`) is
/// what a client may accept, not what a server can send, so it becomes `fallback`.
fn content_type_value(content_type: &str, fallback: &'static str) -> HeaderValue {
    if content_type.split(';').next().unwrap_or("").contains('*') {
        return HeaderValue::from_static(fallback);
    }
    HeaderValue::from_str(content_type).unwrap_or_else(|_| {
        tracing::warn!(content_type, "invalid content type; using {fallback}");
        HeaderValue::from_static(fallback)
    })
}

#[inline]
fn with_body(status: StatusCode, content_type: HeaderValue, body: Bytes) -> Response {
    let mut resp = Response::new(Body::from(body));
    *resp.status_mut() = status;
    resp.headers_mut()
        .insert(header::CONTENT_TYPE, content_type);
    resp
}

/// Appends the operation's fixed headers (from the descriptor: `Deprecation`, `Sunset`,
/// `Link`, ...). A name or value that is not a valid header is skipped and logged, never a
/// panic.
///
/// Each descriptor is parsed once per thread and kept: later responses get clones of the
/// parsed names and values, which point at the same static text (no copy, no parse).
pub fn append_headers(resp: &mut Response, headers: &'static [(&'static str, &'static str)]) {
    if headers.is_empty() {
        return;
    }
    let key = (headers.as_ptr() as usize, headers.len());
    let cached = PARSED_HEADERS.try_with(|cache| {
        let mut cache = cache.borrow_mut();
        let parsed = cache.entry(key).or_insert_with(|| parse_headers(headers));
        let map = resp.headers_mut();
        for (name, value) in parsed.iter() {
            map.append(name.clone(), value.clone());
        }
    });
    if cached.is_err() {
        // The thread is shutting down and its cache is gone: parse for this response only.
        let map = resp.headers_mut();
        for (name, value) in parse_headers(headers).into_vec() {
            map.append(name, value);
        }
    }
}

/// The valid entries of a descriptor's header list (invalid ones are logged and left out).
fn parse_headers(headers: &'static [(&'static str, &'static str)]) -> ParsedHeaders {
    headers
        .iter()
        .filter_map(|(name, value)| {
            match (
                HeaderName::from_bytes(name.as_bytes()),
                // From the static text itself: checked, not copied.
                HeaderValue::from_maybe_shared(Bytes::from_static(value.as_bytes())),
            ) {
                (Ok(n), Ok(v)) => Some((n, v)),
                _ => {
                    tracing::warn!(name, "skipping an invalid response header");
                    None
                }
            }
        })
        .collect()
}

type ParsedHeaders = Box<[(HeaderName, HeaderValue)]>;

thread_local! {
    /// Parsed header lists by the address and length of their static descriptor.
    static PARSED_HEADERS: RefCell<HashMap<(usize, usize), ParsedHeaders, BuildHasherDefault<AddressHasher>>> =
        RefCell::new(HashMap::default());
}

/// Hashes the (address, length) keys of `PARSED_HEADERS`: a multiply and a fold, so the
/// aligned low bits of an address still spread over the table.
#[derive(Default)]
struct AddressHasher(u64);

impl Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        let x = (self.0 ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = x ^ (x >> 29);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

/// Sets one header whose value the handler computed (a response header the spec declares).
/// Err(internal problem) when the value cannot be a header value (e.g. contains a newline).
pub fn set_header(resp: &mut Response, name: &'static str, value: &str) -> Result<(), Problem> {
    let name = HeaderName::from_bytes(name.as_bytes()).map_err(|_| {
        tracing::error!(name, "invalid response header name");
        Problem::internal()
    })?;
    let value = HeaderValue::from_str(value).map_err(|_| {
        tracing::error!(%name, "response header value is not a valid header value");
        Problem::internal()
    })?;
    resp.headers_mut().insert(name, value);
    Ok(())
}
