//! Owns building success responses: the body is serialized before the status is committed, so
//! a serialization failure becomes a clean 500 problem instead of a half-written response.
//!
//! Decision: `docs/decisions/0017-server-answers-and-entry.md`.

use std::cell::RefCell;
use std::collections::HashMap;
use std::future::Future;
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

/// What an operation's method of a generated API trait returns: a future of the operation's
/// answer enum or the implementation's error, which the server may run on any worker thread
/// (so `Send`). The trait writes `-> impl Answer<GetPetResponse, Self::Error>`; an `async fn`
/// or `async` block with that output is one (the blanket impl), so an implementation writes
/// `async fn get_pet(&self, …) -> Result<GetPetResponse, MyError>` as it would for
/// `impl Future<Output = Result<…>> + Send`, which this names in fewer words.
pub trait Answer<R, E>: Future<Output = Result<R, E>> + Send {}

impl<F, R, E> Answer<R, E> for F where F: Future<Output = Result<R, E>> + Send {}

/// An operation's answer enum as HTTP: what [`answers!`] implements for each.
pub trait IntoHttp {
    /// The body written first (a failure is the problem answered instead), then the status
    /// and the documented headers.
    fn into_http(self) -> Result<Response, Problem>;
}

/// The implementation's `outcome` as the answer: its answer enum written, or its error turned
/// into a problem by `handle_error` (the API's `handle_error`, which logs it).
#[inline]
pub fn answer<R: IntoHttp, E>(
    outcome: Result<R, E>,
    handle_error: impl FnOnce(E) -> Problem,
) -> Result<Response, Problem> {
    match outcome {
        Ok(answer) => answer.into_http(),
        Err(error) => Err(handle_error(error)),
    }
}

/// Declares what an operation answers: the `…Response` enum as written, each variant with
/// how it is written as its discriminant, and the last one, `= unimplemented("operationId")`,
/// what the trait's default method answers (501 with the `Error` body, code
/// `not_implemented`). It
/// expands to the enum (`#[allow(clippy::large_enum_variant)]`, `#[non_exhaustive]`: a status
/// the document adds later is a new variant; no discriminants, the variants hold values) and
/// its [`IntoHttp`], which writes the body first, then the status, then the variant's headers.
///
/// A variant's discriminant names how its body is written, `json`, `json_as` (JSON under the
/// document's own media type), `text`, `bytes`, `events` (Server-Sent Events of JSON),
/// `events_text`, `json_lines`, or `empty` (no body), then in parentheses the status (a code,
/// or `held` for a range or `default`: the variant's first field is the status), the media
/// type where the kind takes one, and `headers` when the variant's last field is the answer's
/// headers struct (written by its `write`). A code is checked when the crate compiles. A
/// declaration too long for its line is wrapped as rustfmt wraps a call, trailing comma
/// included (`unimplemented(\n "a-long-operation-id",\n)`).
///
/// ```ignore
/// response::answers! {
///     /// What `getPet` answers.
///     #[derive(Debug, Clone, PartialEq)]
///     pub enum GetPetResponse {
///         /// 200: The animal.
///         Ok(types::Pet) = json(200),
///         /// 201: Made, with its `Location`.
///         Created(types::Pet, CreatedHeaders) = json(201, headers),
///         /// 5XX: Anything else, as text.
///         ServerError(http::StatusCode, String) = text(held, "text/plain"),
///         /// 501: The implementation does not offer the operation.
///         Unimplemented = unimplemented("getPet"),
///     }
/// }
/// ```
#[doc(hidden)]
#[macro_export]
// `crate::runtime`, not `$crate`: the runtime as the calling crate names it (see `object::json!`).
#[allow(clippy::crate_in_macro_def)]
macro_rules! __apigen_answers {
    (
        $(#[doc = $doc:literal])*
        #[derive($($derive:tt)*)]
        $vis:vis enum $name:ident {
            $(
                $(#[doc = $variant_doc:literal])*
                $variant:ident $(($($field:ty),+ $(,)?))? = $kind:ident($($how:tt)*),
            )*
        }
    ) => {
        $(#[doc = $doc])*
        #[derive($($derive)*)]
        #[allow(clippy::large_enum_variant)]
        #[non_exhaustive]
        $vis enum $name {
            $($(#[doc = $variant_doc])* $variant $(($($field),+))?,)*
        }

        impl crate::runtime::codegen::response::IntoHttp for $name {
            fn into_http(
                self,
            ) -> Result<axum::response::Response, crate::runtime::codegen::problem::Problem> {
                // The names the variants' fields are bound to, made here once so that each
                // arm's pattern and expression (two expansions) name the same bindings.
                match self {
                    $(
                        $crate::__apigen_answers!(@pattern $variant $kind [$($how)*] (status body headers))
                            => $crate::__apigen_answers!(@write $kind [$($how)*] (status body headers)),
                    )*
                }
            }
        }
    };

    // The variant's pattern: the status it holds (`held`), its body and its headers.
    (@pattern $v:ident unimplemented [$operation:literal $(,)?] $binds:tt) => { Self::$v };
    (@pattern $v:ident empty [held $(,)?] ($s:ident $b:ident $h:ident)) => { Self::$v($s) };
    (@pattern $v:ident empty [held, headers $(,)?] ($s:ident $b:ident $h:ident)) => { Self::$v($s, $h) };
    (@pattern $v:ident empty [$code:tt $(,)?] ($s:ident $b:ident $h:ident)) => { Self::$v };
    (@pattern $v:ident empty [$code:tt, headers $(,)?] ($s:ident $b:ident $h:ident)) => { Self::$v($h) };
    (@pattern $v:ident $kind:ident [held, $media:literal, headers $(,)?] ($s:ident $b:ident $h:ident)) => {
        Self::$v($s, $b, $h)
    };
    (@pattern $v:ident $kind:ident [held, headers $(,)?] ($s:ident $b:ident $h:ident)) => {
        Self::$v($s, $b, $h)
    };
    (@pattern $v:ident $kind:ident [held $(, $media:literal)? $(,)?] ($s:ident $b:ident $h:ident)) => {
        Self::$v($s, $b)
    };
    (@pattern $v:ident $kind:ident [$code:tt, $media:literal, headers $(,)?] ($s:ident $b:ident $h:ident)) => {
        Self::$v($b, $h)
    };
    (@pattern $v:ident $kind:ident [$code:tt, headers $(,)?] ($s:ident $b:ident $h:ident)) => {
        Self::$v($b, $h)
    };
    (@pattern $v:ident $kind:ident [$code:tt $(, $media:literal)? $(,)?] ($s:ident $b:ident $h:ident)) => {
        Self::$v($b)
    };

    // The variant written: the body under the status, then the headers.
    (@write unimplemented [$operation:literal $(,)?] $binds:tt) => {
        Err(crate::runtime::codegen::problem::Problem::not_implemented($operation))
    };
    (@write empty [$code:tt $(,)?] ($s:ident $b:ident $h:ident)) => {
        Ok(crate::runtime::codegen::response::empty($crate::__apigen_answers!(@status $code $s)))
    };
    (@write empty [$code:tt, headers $(,)?] ($s:ident $b:ident $h:ident)) => {{
        let mut response =
            crate::runtime::codegen::response::empty($crate::__apigen_answers!(@status $code $s));
        $h.write(&mut response)?;
        Ok(response)
    }};
    (@write $kind:ident [$code:tt, $media:literal, headers $(,)?] ($s:ident $b:ident $h:ident)) => {{
        let status = $crate::__apigen_answers!(@status $code $s);
        let mut response = $crate::__apigen_answers!(@body $kind($media), status, $b)?;
        $h.write(&mut response)?;
        Ok(response)
    }};
    (@write $kind:ident [$code:tt, headers $(,)?] ($s:ident $b:ident $h:ident)) => {{
        let status = $crate::__apigen_answers!(@status $code $s);
        let mut response = $crate::__apigen_answers!(@body $kind(), status, $b)?;
        $h.write(&mut response)?;
        Ok(response)
    }};
    (@write $kind:ident [$code:tt $(, $media:literal)? $(,)?] ($s:ident $b:ident $h:ident)) => {
        $crate::__apigen_answers!(@body $kind($($media)?), $crate::__apigen_answers!(@status $code $s), $b)
    };

    (@status held $s:ident) => { $s };
    (@status $code:literal $s:ident) => {
        const {
            match http::StatusCode::from_u16($code) {
                Ok(status) => status,
                Err(_) => panic!("not an HTTP status code"),
            }
        }
    };

    (@body json(), $status:expr, $b:ident) => { crate::runtime::codegen::response::json($status, &$b) };
    (@body json_as($media:literal), $status:expr, $b:ident) => {
        crate::runtime::codegen::response::json_as($status, $media, &$b)
    };
    (@body text($media:literal), $status:expr, $b:ident) => {
        Ok(crate::runtime::codegen::response::text($status, $media, $b))
    };
    (@body bytes($media:literal), $status:expr, $b:ident) => {
        Ok(crate::runtime::codegen::response::bytes($status, $media, $b.into()))
    };
    (@body events(), $status:expr, $b:ident) => {
        Ok(crate::runtime::codegen::stream::event_stream($status, $b))
    };
    (@body events_text(), $status:expr, $b:ident) => {
        Ok(crate::runtime::codegen::stream::event_stream_text($status, $b))
    };
    (@body json_lines($media:literal), $status:expr, $b:ident) => {
        Ok(crate::runtime::codegen::stream::json_lines($status, $media, $b))
    };
}

#[doc(inline)]
pub use crate::__apigen_answers as answers;

/// Declares the headers struct of an answer (`Location` on a 201, `X-Total-Count` on a
/// list): the struct as written, less each field's `#[header(…)]`, and its `write`, which
/// [`answers!`] calls to set them on the response. A field's attribute names its header and
/// says, in words, how it is written: nothing for an `Option` set only when it holds a value,
/// `required` for a field that is always set, and `list` for a list written as its items'
/// text joined by commas (`simple` style). A value is written by its `Display`.
///
/// ```ignore
/// response::headers! {
///     /// Headers of the `201` answer of `createPet`.
///     #[derive(Debug, Clone, PartialEq)]
///     pub struct CreatePetCreatedHeaders {
///         /// Where the new animal is.
///         #[header("location", required)]
///         pub location: String,
///         #[header("x-tags", list)]
///         pub x_tags: Option<Vec<String>>,
///     }
/// }
/// ```
#[doc(hidden)]
#[macro_export]
// `crate::runtime`, not `$crate`: the runtime as the calling crate names it (see `object::json!`).
#[allow(clippy::crate_in_macro_def)]
macro_rules! __apigen_answer_headers {
    (
        $(#[doc = $doc:literal])*
        #[derive($($derive:tt)*)]
        $vis:vis struct $name:ident {
            $(
                $(#[doc = $field_doc:literal])*
                #[header($wire:literal $(, $word:ident)* $(,)?)]
                $field_vis:vis $field:ident: $ty:ty,
            )*
        }
    ) => {
        $(#[doc = $doc])*
        #[derive($($derive)*)]
        $vis struct $name {
            $($(#[doc = $field_doc])* $field_vis $field: $ty,)*
        }

        impl $name {
            /// Sets each header that has a value on `response`.
            pub(crate) fn write(
                &self,
                response: &mut axum::response::Response,
            ) -> Result<(), crate::runtime::codegen::Problem> {
                $($crate::__apigen_answer_headers!(@write response, &self.$field, $wire $(, $word)*);)*
                Ok(())
            }
        }
    };
    (@write $response:ident, $value:expr, $wire:literal) => {
        if let Some(value) = $value {
            $crate::__apigen_answer_headers!(@set $response, $wire, &value.to_string());
        }
    };
    (@write $response:ident, $value:expr, $wire:literal, required) => {
        $crate::__apigen_answer_headers!(@set $response, $wire, &$value.to_string());
    };
    (@write $response:ident, $value:expr, $wire:literal, list) => {
        if let Some(value) = $value {
            $crate::__apigen_answer_headers!(@set $response, $wire, &$crate::__apigen_answer_headers!(@join value));
        }
    };
    (@write $response:ident, $value:expr, $wire:literal, required, list) => {
        $crate::__apigen_answer_headers!(@set $response, $wire, &$crate::__apigen_answer_headers!(@join $value));
    };
    (@join $value:expr) => {
        $value.iter().map(ToString::to_string).collect::<Vec<_>>().join(",")
    };
    (@set $response:ident, $wire:literal, $text:expr) => {
        crate::runtime::codegen::response::set_header($response, $wire, $text)?
    };
}

#[doc(inline)]
pub use crate::__apigen_answer_headers as headers;
