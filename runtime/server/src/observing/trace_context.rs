//! Owns the ids a request gets: W3C Trace Context (an incoming `traceparent` read, or a new
//! trace started: [`TraceContext`], [`TraceId`], [`SpanId`]), new request ids (version 4
//! UUIDs), drawn from `random.rs`. `observe` puts them on the request's span, in its
//! extensions and on its answer.

use http::HeaderValue;
use http::header::HeaderName;

use super::random::{random_u64, random_u128, write_hex, write_uuid_v4};

/// A new id: a random (version 4) UUID's text, `8-4-4-4-12` lowercase hexadecimal digits,
/// from [`random_u64`], without a random-number dependency. A UUID because it is what
/// request-id headers hold where documents say what they hold (scalar-galaxy's
/// `X-Request-ID: format: uuid`; bare hex broke that answer header's schema). Written into
/// the header value directly (its one allocation), not through a `String` first.
pub(crate) fn new_id() -> HeaderValue {
    let mut text = [0u8; 36];
    write_uuid_v4(&mut text);
    HeaderValue::from_bytes(&text).expect("hex digits and hyphens are a valid header value")
}

/// A trace id of W3C Trace Context: 32 lowercase hexadecimal digits, kept as their text in
/// place (no allocation per request; an incoming id is copied, not parsed and formatted again).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TraceId([u8; 32]);

/// A span id of W3C Trace Context: 16 lowercase hexadecimal digits, kept as [`TraceId`] is.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SpanId([u8; 16]);

macro_rules! hex_id {
    ($name:ident, $int:ty, $len:literal) => {
        impl $name {
            /// The id of this number.
            pub fn from_u128(value: u128) -> Self {
                let mut digits = [0; $len];
                write_hex(&mut digits, value);
                Self(digits)
            }

            /// The id's number.
            pub fn to_int(&self) -> $int {
                <$int>::from_str_radix(self.as_str(), 16).expect("hexadecimal digits")
            }

            /// The id's text: lowercase hexadecimal digits.
            pub fn as_str(&self) -> &str {
                std::str::from_utf8(&self.0).expect("hexadecimal digits are ASCII")
            }

            /// Its text's length (always the same).
            #[allow(clippy::len_without_is_empty)]
            pub const fn len(&self) -> usize {
                $len
            }

            /// The id of lowercase hexadecimal `text` of the right length, not all zeros.
            fn parse(text: &str) -> Option<Self> {
                let bytes: [u8; $len] = text.as_bytes().try_into().ok()?;
                let valid = bytes
                    .iter()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(b))
                    && bytes.iter().any(|b| *b != b'0');
                valid.then_some(Self(bytes))
            }
        }

        impl std::ops::Deref for $name {
            type Target = str;
            fn deref(&self) -> &str {
                self.as_str()
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Debug::fmt(self.as_str(), f)
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.as_str() == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.as_str() == *other
            }
        }
    };
}

hex_id!(TraceId, u128, 32);
hex_id!(SpanId, u64, 16);

/// The request's place in its trace (W3C Trace Context): the trace it continues (from a valid
/// incoming `traceparent`) or starts, and the request span's own id. In the request's
/// extensions, for an application that calls further services ([`TraceContext::traceparent`]),
/// and in the answer's, for an access log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceContext {
    /// 32 lowercase hexadecimal digits.
    pub trace_id: TraceId,
    /// This request's span: 16 lowercase hexadecimal digits.
    pub span_id: SpanId,
    /// The caller's span, from `traceparent`; `None` when the trace starts here.
    pub parent_id: Option<SpanId>,
    /// The caller's `sampled` flag (`true` when the trace starts here).
    pub sampled: bool,
    /// The caller's `tracestate`, passed on as it came.
    pub tracestate: Option<HeaderValue>,
}

impl TraceContext {
    /// Reads `traceparent` (and `tracestate`); a missing or malformed one starts a new trace,
    /// as the recommendation says (a malformed header is not an error of the request). A
    /// valid one: version `00` with exactly four fields, or a later version (not `ff`) read by
    /// its first four; lowercase hexadecimal ids, neither all zeros.
    pub fn from_headers(headers: &http::HeaderMap) -> TraceContext {
        let parent = headers
            .get(&TRACEPARENT)
            .and_then(|v| v.to_str().ok())
            .and_then(parse_traceparent);
        let span_id = SpanId::from_u128(u128::from(random_u64()));
        match parent {
            Some((trace_id, parent_id, sampled)) => TraceContext {
                trace_id,
                span_id,
                parent_id: Some(parent_id),
                sampled,
                tracestate: headers.get(&TRACESTATE).cloned(),
            },
            None => TraceContext {
                trace_id: TraceId::from_u128(random_u128()),
                span_id,
                parent_id: None,
                sampled: true,
                tracestate: None,
            },
        }
    }

    /// The `traceparent` a call this request makes sends: this trace, this request's span as
    /// the parent.
    pub fn traceparent(&self) -> String {
        let flags = if self.sampled { "01" } else { "00" };
        format!("00-{}-{}-{flags}", self.trace_id, self.span_id)
    }
}

/// `traceparent`: W3C Trace Context.
pub static TRACEPARENT: HeaderName = HeaderName::from_static("traceparent");
/// `tracestate`: W3C Trace Context, vendors' part.
pub static TRACESTATE: HeaderName = HeaderName::from_static("tracestate");

/// `version-traceid-parentid-flags`: (trace id, parent id, sampled) when valid. Version `ff`
/// is invalid; a later version is read by its first four fields, as the recommendation asks.
fn parse_traceparent(value: &str) -> Option<(TraceId, SpanId, bool)> {
    let mut parts = value.trim().split('-');
    let (version, trace, parent, flags) =
        (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    let hex = |s: &str, n: usize| {
        s.len() == n
            && s.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    };
    if !hex(version, 2) || version == "ff" || (version == "00" && parts.next().is_some()) {
        return None;
    }
    let (trace, parent) = (TraceId::parse(trace)?, SpanId::parse(parent)?);
    if !hex(flags, 2) {
        return None;
    }
    let sampled = u8::from_str_radix(flags, 16).ok()? & 1 == 1;
    Some((trace, parent, sampled))
}
