//! Responses: the raw response [`Transport::send`](super::transport::Transport::send) returns,
//! its conversions into a typed success value or an [`Error`], and deprecation headers.
//!
//! Decisions:
//! `docs/decisions/0014-client-errors-declared.md`,
//! `docs/decisions/0015-client-query-pages-headers-declared.md`.

// `Error<E>` keeps status, headers and body of the response, so it is larger than clippy's
// default threshold; it is built once per failed call, after network I/O, and matching on its
// fields directly is worth more than boxing them. (Generated methods carry the same allow.)
#![allow(clippy::result_large_err)]

use std::fmt;
use std::ops::{Deref, DerefMut};
use std::time::Duration;

use bytes::Bytes;
use http::header::HeaderName;
use http::{HeaderMap, StatusCode};
use serde::de::DeserializeOwned;
use web_time::{SystemTime, UNIX_EPOCH};

use super::error::Error;
use super::integer;
use super::ratelimit::{self, RateLimit};

/// `Deprecation` (RFC 9745) and `Sunset` (RFC 8594), named once (not parsed per lookup).
pub(super) static DEPRECATION: HeaderName = HeaderName::from_static("deprecation");
pub(super) static SUNSET: HeaderName = HeaderName::from_static("sunset");

/// A complete response: status, headers and the whole body.
#[derive(Clone, Debug)]
pub struct Raw {
    /// The status.
    pub status: StatusCode,
    /// The headers.
    pub headers: HeaderMap,
    /// The whole body.
    pub body: Bytes,
}

impl Raw {
    /// Decodes the body as JSON; a failure is [`Error::Decode`] with the bytes kept and the
    /// place of the failure named.
    pub fn json<T: DeserializeOwned, E>(self) -> Result<ResponseValue<T>, Error<E>> {
        match integer::from_slice_located(&self.body) {
            Ok(value) => Ok(self.value(value)),
            Err(e) => Err(self.decode_error(e.pointer, e.error.to_string())),
        }
    }

    /// A success without a body (whatever body came is ignored, and kept raw).
    pub fn empty<E>(self) -> Result<ResponseValue<()>, Error<E>> {
        Ok(self.value(()))
    }

    /// The typed value with this response's status, headers and body.
    fn value<T>(self, inner: T) -> ResponseValue<T> {
        ResponseValue::new(inner, self.status, self.headers).with_raw_body(self.body)
    }

    /// The body as UTF-8 text; invalid UTF-8 is [`Error::Decode`]. An answer whose
    /// `Content-Type` says JSON and that holds one JSON string is that string (a `*/*` or
    /// `text/*` answer a server chose to send as JSON), not its quoted form.
    pub fn text<E>(self) -> Result<ResponseValue<String>, Error<E>> {
        if self.says_json()
            && let Ok(text) = serde_json::from_slice::<String>(&self.body)
        {
            return Ok(self.value(text));
        }
        match std::str::from_utf8(&self.body) {
            Ok(text) => {
                let text = text.to_owned();
                Ok(self.value(text))
            }
            Err(e) => Err(self.decode_error(String::new(), e.to_string())),
        }
    }

    /// Whether the `Content-Type` is JSON (`application/json` or `…+json`).
    fn says_json(&self) -> bool {
        let Some(value) = self.headers.get(http::header::CONTENT_TYPE) else {
            return false;
        };
        let essence = value.to_str().unwrap_or("").split(';').next().unwrap_or("");
        let essence = essence.trim().to_ascii_lowercase();
        essence == "application/json" || essence.ends_with("+json")
    }

    /// The body as bytes.
    pub fn bytes<E>(self) -> Result<ResponseValue<Bytes>, Error<E>> {
        let body = self.body.clone();
        Ok(self.value(body))
    }

    /// A documented error status with a JSON body: decodes it as `B` and wraps it into the
    /// operation's error enum. A body that does not decode is [`Error::Decode`].
    pub fn api_error<E, B: DeserializeOwned>(self, wrap: impl FnOnce(B) -> E) -> Error<E> {
        match integer::from_slice_located(&self.body) {
            Ok(body) => Error::Api {
                status: self.status,
                headers: self.headers,
                body: wrap(body),
                raw: self.body,
            },
            Err(e) => self.decode_error(e.pointer, e.error.to_string()),
        }
    }

    /// An error status (4XX, 5XX) the operation does not document: read as the document's
    /// common error type `B` into the error enum's `Undocumented` variant when it decodes as
    /// one, else kept raw ([`Error::UnexpectedStatus`], as any other status is).
    pub fn undocumented_error<E, B: DeserializeOwned>(self, wrap: impl FnOnce(B) -> E) -> Error<E> {
        if !(self.status.is_client_error() || self.status.is_server_error()) {
            return self.unexpected();
        }
        match integer::from_slice(&self.body) {
            Ok(body) => Error::Api {
                status: self.status,
                headers: self.headers,
                body: wrap(body),
                raw: self.body,
            },
            Err(_) => self.unexpected(),
        }
    }

    /// A documented error status whose body is not JSON (or not described): the body as
    /// text, lossily, so the server's message is kept (empty when there was none).
    pub fn api_error_text<E>(self, wrap: impl FnOnce(String) -> E) -> Error<E> {
        let text = String::from_utf8_lossy(&self.body).into_owned();
        Error::Api {
            status: self.status,
            headers: self.headers,
            body: wrap(text),
            raw: self.body,
        }
    }

    /// A documented error status without a body (or whose body is not described).
    pub fn api_error_with<E>(self, body: E) -> Error<E> {
        Error::Api {
            status: self.status,
            headers: self.headers,
            body,
            raw: self.body,
        }
    }

    /// A 410 from an operation with a sunset date: it is gone, and `replacement` (an
    /// `operationId`) replaces it.
    pub fn gone<E>(self, operation: &'static str, replacement: Option<&'static str>) -> Error<E> {
        Error::Gone {
            status: self.status,
            headers: self.headers,
            body: self.body,
            operation,
            replacement,
        }
    }

    /// A status the operation does not document.
    pub fn unexpected<E>(self) -> Error<E> {
        Error::UnexpectedStatus {
            status: self.status,
            headers: self.headers,
            body: self.body,
        }
    }

    /// The rate-limit state the response's `X-RateLimit-*` headers report.
    pub fn rate_limit(&self) -> RateLimit {
        RateLimit::from_headers(&self.headers)
    }

    /// How long `Retry-After` asks to wait (seconds, or an HTTP date from now), if present.
    pub fn retry_after(&self) -> Option<Duration> {
        ratelimit::retry_after(&self.headers, SystemTime::now())
    }

    fn decode_error<E>(self, path: String, message: String) -> Error<E> {
        Error::Decode {
            status: self.status,
            headers: self.headers,
            body: self.body,
            path,
            message,
        }
    }
}

/// How a response that is not one of an operation's successes becomes the operation's error:
/// what [`errors!`] implements for each generated error enum from the statuses declared on
/// its variants.
pub trait Errors: Sized {
    /// A documented error status into its variant (codes first, then ranges, then
    /// `default`), a 410 past the operation's sunset into [`Error::Gone`], an undocumented
    /// error into `Undocumented` when its body reads as the document's error type, anything
    /// else kept raw ([`Error::UnexpectedStatus`]).
    fn from_raw(raw: Raw) -> Error<Self>;
}

impl Raw {
    /// This response as the operation's error ([`Errors::from_raw`]).
    pub fn error<E: Errors>(self) -> Error<E> {
        E::from_raw(self)
    }
}

/// Declares an operation's error enum: the enum as written, each variant with the status
/// it stands for as its discriminant, `NotFound(types::Error) = 404`, `= 400..=499` (a
/// range, less the codes that have variants of their own), `= default`, or `= undocumented`
/// (an error status the document does not list, read as its error type when it fits), with
/// `as text` after it when the body is read as text rather than JSON (the variant then holds
/// a `String`). Above the enum, `#[gone("operationId", "replacementId")]` (the replacement
/// optional) when the operation has a sunset date: a 410 is [`Error::Gone`].
///
/// The status is written where a discriminant goes because it is what the variant stands
/// for, on the variant's own line; the expansion has no discriminants (the variants hold
/// bodies).
///
/// It expands to the enum, deriving `Debug`, `Clone`, `PartialEq` and `Serialize` (untagged:
/// a variant writes the body the server sent), `non_exhaustive` (an error status the document
/// adds later is a new variant), and its [`Errors`] impl.
///
/// ```ignore
/// response::errors! {
///     /// The documented error answers of `getPet`.
///     #[gone("getPet", "listPets")]
///     pub enum GetPetError {
///         /// 404: No such animal.
///         NotFound(types::Error) = 404,
///         /// 5XX: The server failed; its message as text.
///         ServerError(String) = 500..=599 as text,
///     }
/// }
/// ```
#[doc(hidden)]
#[macro_export]
// `crate::runtime`, not `$crate`: the runtime as the calling crate names it (see `object::json!`).
#[allow(clippy::crate_in_macro_def)]
macro_rules! __apigen_errors {
    (
        $(#[doc = $doc:literal])*
        $(#[gone($operation:literal $(, $replacement:literal)?)])?
        $vis:vis enum $name:ident {
            $(
                $(#[doc = $variant_doc:literal])*
                $variant:ident($ty:ty $(,)?) = $status:tt $(..= $high:literal)? $(as $how:ident)?,
            )*
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, PartialEq, serde::Serialize)]
        #[serde(untagged)]
        #[allow(clippy::large_enum_variant)]
        #[non_exhaustive]
        $vis enum $name {
            $($(#[doc = $variant_doc])* $variant($ty),)*
        }

        impl crate::runtime::codegen::response::Errors for $name {
            fn from_raw(
                raw: crate::runtime::codegen::response::Raw,
            ) -> crate::runtime::codegen::error::Error<Self> {
                // Codes, then ranges, then the sunset's 410, then `default` (or an
                // undocumented error): a code inside a range is its own variant's.
                $($crate::__apigen_errors!(@code raw, $variant, $status $(..= $high)? $(, $how)?);)*
                $($crate::__apigen_errors!(@range raw, $variant, $status $(..= $high)? $(, $how)?);)*
                $(
                    if raw.status == 410 {
                        return raw.gone($operation, $crate::__apigen_errors!(@some $($replacement)?));
                    }
                )?
                $crate::__apigen_errors!(@rest raw, [$([$variant, $status $(..= $high)? $(, $how)?])*])
            }
        }
    };

    (@code $raw:ident, $variant:ident, $code:literal $(, $how:ident)?) => {
        if $raw.status == $code {
            return $crate::__apigen_errors!(@read $raw, $variant $(, $how)?);
        }
    };
    (@code $raw:ident, $variant:ident, $($other:tt)*) => {};

    (@range $raw:ident, $variant:ident, $low:literal ..= $high:literal $(, $how:ident)?) => {
        if ($low..=$high).contains(&$raw.status.as_u16()) {
            return $crate::__apigen_errors!(@read $raw, $variant $(, $how)?);
        }
    };
    (@range $raw:ident, $variant:ident, $($other:tt)*) => {};

    // The last answer: `default`'s variant, the undocumented one, or none (kept raw).
    (@rest $raw:ident, []) => { $raw.unexpected() };
    (@rest $raw:ident, [[$variant:ident, default $(, $how:ident)?] $($rest:tt)*]) => {
        $crate::__apigen_errors!(@read $raw, $variant $(, $how)?)
    };
    (@rest $raw:ident, [[$variant:ident, undocumented] $($rest:tt)*]) => {
        $raw.undocumented_error(Self::$variant)
    };
    (@rest $raw:ident, [[$($skipped:tt)*] $($rest:tt)*]) => {
        $crate::__apigen_errors!(@rest $raw, [$($rest)*])
    };

    (@read $raw:ident, $variant:ident) => { $raw.api_error(Self::$variant) };
    (@read $raw:ident, $variant:ident, text) => { $raw.api_error_text(Self::$variant) };

    (@some) => { None };
    (@some $replacement:literal) => { Some($replacement) };
}

#[doc(inline)]
pub use crate::__apigen_errors as errors;

/// A documented response header read as a `T`: `None` when it is absent, not text, or not
/// a `T` (a client reads what a server sends without failing the call over a header).
pub fn header<T: std::str::FromStr>(headers: &HeaderMap, name: &str) -> Option<T> {
    headers.get(name)?.to_str().ok()?.trim().parse().ok()
}

/// A documented list header (`a, b`), each item read as a `T`: `None` when it is absent,
/// not text, or an item is not a `T`.
pub fn header_list<T: std::str::FromStr>(headers: &HeaderMap, name: &str) -> Option<Vec<T>> {
    let value = headers.get(name)?.to_str().ok()?;
    value.split(',').map(|v| v.trim().parse().ok()).collect()
}

/// Declares the documented headers of an answer: the struct as written, every field an
/// `Option` under `#[header("name")]` (`#[header("name", list)]` for a list, `a, b`). It
/// expands to the struct and `from_headers`, which reads each one ([`header`],
/// [`header_list`]).
///
/// ```ignore
/// response::headers! {
///     /// Headers of the `200` answer of `listPets`.
///     #[derive(Debug, Clone, Default, PartialEq)]
///     pub struct ListPetsOkHeaders {
///         #[header("x-next")]
///         pub x_next: Option<String>,
///     }
/// }
/// ```
#[doc(hidden)]
#[macro_export]
// `crate::runtime`, not `$crate`: the runtime as the calling crate names it (see `object::json!`).
#[allow(clippy::crate_in_macro_def)]
macro_rules! __apigen_headers {
    (
        $(#[doc = $doc:literal])*
        #[derive($($derive:tt)*)]
        $vis:vis struct $name:ident {
            $(
                $(#[doc = $field_doc:literal])*
                #[header($wire:literal $(, $list:ident)?)]
                $field_vis:vis $field:ident: Option<$ty:ty $(,)?>,
            )*
        }
    ) => {
        $(#[doc = $doc])*
        #[derive($($derive)*)]
        $vis struct $name {
            $($(#[doc = $field_doc])* $field_vis $field: Option<$ty>,)*
        }

        impl $name {
            /// Reads the documented headers; a header that is missing or does not parse is
            /// `None`.
            pub fn from_headers(headers: &http::HeaderMap) -> Self {
                Self {
                    $($field: $crate::__apigen_headers!(@read headers, $wire $(, $list)?),)*
                }
            }
        }
    };
    (@read $headers:ident, $wire:literal) => {
        crate::runtime::codegen::response::header($headers, $wire)
    };
    (@read $headers:ident, $wire:literal, list) => {
        crate::runtime::codegen::response::header_list($headers, $wire)
    };
}

#[doc(inline)]
pub use crate::__apigen_headers as headers;

/// What a generated client's method returns: the typed value of a success, with its
/// response ([`ResponseValue`]), or an [`Error`] whose `Api` variant carries the operation's
/// typed error `E`. An alias, so `?`, `match` and `map` work as on any `Result`.
pub type ApiResult<T, E> = Result<ResponseValue<T>, Error<E>>;

/// A successful response's typed value, with the status, headers and body it came with.
/// Derefs to the value.
///
/// The body is kept as received ([`ResponseValue::raw_body`]): the bytes were read before
/// they were decoded, so keeping them costs no copy, only their memory for as long as this
/// value lives ([`ResponseValue::into_inner`] lets them go).
#[derive(Clone)]
pub struct ResponseValue<T> {
    inner: T,
    status: StatusCode,
    headers: HeaderMap,
    raw: Bytes,
    documented: bool,
}

impl<T> ResponseValue<T> {
    /// A value received with `status` and `headers`.
    pub fn new(inner: T, status: StatusCode, headers: HeaderMap) -> Self {
        Self {
            inner,
            status,
            headers,
            raw: Bytes::new(),
            documented: true,
        }
    }

    /// The same value, with the body it was decoded from.
    pub fn with_raw_body(mut self, raw: Bytes) -> Self {
        self.raw = raw;
        self
    }

    /// The same value, marked as read from a status the document does not list for the
    /// operation ([`ResponseValue::status_documented`]).
    pub fn with_undocumented_status(mut self) -> Self {
        self.documented = false;
        self
    }

    /// The body as the server sent it (empty for a streamed response, read as it came).
    pub fn raw_body(&self) -> &Bytes {
        &self.raw
    }

    /// Whether the document lists this response's status for the operation. A 2XX it does
    /// not list (a `201` where it says `200`) is read as the nearest documented success; this
    /// says so, and the client logs a warning the first time per operation.
    pub fn status_documented(&self) -> bool {
        self.documented
    }

    /// The value, without status and headers.
    pub fn into_inner(self) -> T {
        self.inner
    }

    /// The value, the status and the headers.
    pub fn into_parts(self) -> (T, StatusCode, HeaderMap) {
        (self.inner, self.status, self.headers)
    }

    /// The response's status.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The response's headers.
    pub fn headers(&self) -> &HeaderMap {
        &self.headers
    }

    /// The rate-limit state the response's `X-RateLimit-*` headers report.
    pub fn rate_limit(&self) -> RateLimit {
        RateLimit::from_headers(&self.headers)
    }

    /// Whether the response carried a `Deprecation` header.
    pub fn is_deprecated(&self) -> bool {
        self.headers.contains_key(&DEPRECATION)
    }

    /// The date of the `Deprecation` header (RFC 9745), when present and readable.
    pub fn deprecation(&self) -> Option<SystemTime> {
        deprecation_date(&self.headers)
    }

    /// The date of the `Sunset` header (RFC 8594), when present and readable.
    pub fn sunset(&self) -> Option<SystemTime> {
        sunset_date(&self.headers)
    }

    /// The same response with its value passed through `f`.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> ResponseValue<U> {
        ResponseValue {
            inner: f(self.inner),
            status: self.status,
            headers: self.headers,
            raw: self.raw,
            documented: self.documented,
        }
    }
}

impl<T> Deref for ResponseValue<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.inner
    }
}

impl<T> DerefMut for ResponseValue<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.inner
    }
}

impl<T: fmt::Debug> fmt::Debug for ResponseValue<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResponseValue")
            .field("status", &self.status)
            .field("inner", &self.inner)
            .finish_non_exhaustive()
    }
}

/// The `Deprecation` date: RFC 9745's structured-field date `@<unix seconds>`; an HTTP-date
/// (as earlier drafts used) is accepted too.
pub fn deprecation_date(headers: &HeaderMap) -> Option<SystemTime> {
    let value = headers.get(&DEPRECATION)?.to_str().ok()?.trim();
    match value.strip_prefix('@') {
        Some(secs) => UNIX_EPOCH.checked_add(Duration::from_secs(secs.parse().ok()?)),
        None => ratelimit::http_date(value),
    }
}

/// The `Sunset` date (an HTTP-date).
pub fn sunset_date(headers: &HeaderMap) -> Option<SystemTime> {
    ratelimit::http_date(headers.get(&SUNSET)?.to_str().ok()?)
}

/// Deserializes a string-valued type (generated string enums) through its `FromStr`, reading
/// the string borrowed from the input where the format allows (serde_json does for strings
/// without escapes): no allocation for a known value. Generated code:
/// `fn deserialize(d) { ..::from_str_value(d) }`.
pub fn from_str_value<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: std::str::FromStr,
    T::Err: std::fmt::Display,
{
    struct StrVisitor<T>(std::marker::PhantomData<T>);
    impl<T> serde::de::Visitor<'_> for StrVisitor<T>
    where
        T: std::str::FromStr,
        T::Err: std::fmt::Display,
    {
        type Value = T;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a string")
        }
        fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<T, E> {
            value.parse().map_err(E::custom)
        }
    }
    deserializer.deserialize_str(StrVisitor(std::marker::PhantomData))
}
