//! Owns request bodies: content-type checks (415), the size limit (413), reading, and decoding
//! JSON, text, bytes and forms (the form reader is `form`) into typed values with
//! client-readable errors (400 naming the JSON pointer of the bad field).

use std::borrow::Cow;

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes, HttpBody};
use http::header;
use http::request::Parts;
use serde::de::{self, DeserializeOwned};
use tokio::time::{Instant, Sleep};

use super::form;
use super::integer;
use super::limits;
use super::problem::Problem;
use super::problem::Violation;
use super::runtime_handle::Runtime;
use super::validate::{Violations, join};

/// The request's media type, lower-cased, without parameters (`application/json`).
pub fn media_type(parts: &Parts) -> Option<String> {
    media_essence(parts).map(Cow::into_owned)
}

/// [`media_type`], borrowed from the header when it is already lower-case (the usual case).
fn media_essence(parts: &Parts) -> Option<Cow<'_, str>> {
    let raw = parts.headers.get(header::CONTENT_TYPE)?;
    // The usual value exactly, compared at once (a JSON body's every request).
    if raw.as_bytes() == b"application/json" {
        return Some(Cow::Borrowed("application/json"));
    }
    fn essence(text: &str) -> &str {
        text.split_once(';')
            .map_or(text, |(essence, _)| essence)
            .trim()
    }
    // Visible ASCII (the usual case) borrows; anything else goes through a lossy copy.
    let text = match raw.to_str() {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(raw.as_bytes()),
    };
    Some(match text {
        Cow::Borrowed(text) => {
            let essence = essence(text);
            if essence.bytes().any(|b| b.is_ascii_uppercase()) {
                Cow::Owned(essence.to_ascii_lowercase())
            } else {
                Cow::Borrowed(essence)
            }
        }
        Cow::Owned(text) => Cow::Owned(essence(&text).to_ascii_lowercase()),
    })
}

fn raw_content_type(parts: &Parts) -> Option<Cow<'_, str>> {
    parts
        .headers
        .get(header::CONTENT_TYPE)
        .map(|v| String::from_utf8_lossy(v.as_bytes()))
}

/// `application/json` or any `type/subtype+json` (`application/merge-patch+json`, ...).
pub fn is_json(media_type: &str) -> bool {
    match media_type.split_once('/') {
        Some((ty, sub)) => {
            !ty.is_empty() && (sub == "json" && ty == "application" || sub.ends_with("+json"))
        }
        None => false,
    }
}

/// Whether `media_type` is covered by one of `accept`'s entries (`*/*`, `image/*` or exact).
/// An empty `accept` takes anything.
pub fn media_type_matches(media_type: &str, accept: &[&str]) -> bool {
    if accept.is_empty() {
        return true;
    }
    accept.iter().any(|range| {
        let range = range.trim().to_ascii_lowercase();
        if range == "*/*" || range == media_type {
            return true;
        }
        match range.strip_suffix("/*") {
            Some(ty) => media_type.split_once('/').is_some_and(|(t, _)| t == ty),
            None => false,
        }
    })
}

/// Reads the whole body, refusing more than `limit` bytes (413) before buffering them: a
/// declared `Content-Length` over the limit is refused without reading anything. A client that
/// has not sent the whole body within the configured body timeout (`Limits::body_timeout`,
/// counted from the first read that has to wait for it) gets 408.
pub async fn collect(parts: &Parts, body: Body, limit: usize) -> Result<Bytes, Problem> {
    let mut deadline = Deadline::new(parts);
    collect_until(parts, body, limit, &mut deadline).await
}

/// When the body must have arrived. Nothing is looked up, no clock read and no timer made
/// until a read has to wait: a body that came with the head (the usual case) costs none of
/// them, and one that did not is given the whole timeout from that first wait.
struct Deadline<'p> {
    parts: &'p Parts,
    /// Set at the first wait: the configured timeout and its timer (None: no timeout).
    armed: Option<Option<(Duration, Pin<Box<Sleep>>)>>,
}

impl<'p> Deadline<'p> {
    fn new(parts: &'p Parts) -> Self {
        Deadline { parts, armed: None }
    }

    /// Ready once the deadline has passed (never without a timeout).
    fn poll_expired(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        let parts = self.parts;
        let armed = self.armed.get_or_insert_with(|| {
            let timeout = Runtime::from_parts(parts).limits().body_timeout?;
            let at = Instant::now().checked_add(timeout)?;
            Some((timeout, Box::pin(tokio::time::sleep_until(at))))
        });
        match armed {
            Some((_, timer)) => timer.as_mut().poll(cx),
            None => Poll::Pending,
        }
    }

    /// The timeout that passed (after `poll_expired` was ready).
    fn timeout(&self) -> Duration {
        self.armed
            .as_ref()
            .and_then(|a| a.as_ref())
            .map_or_else(Duration::default, |(t, _)| *t)
    }
}

async fn collect_until(
    parts: &Parts,
    mut body: Body,
    limit: usize,
    deadline: &mut Deadline<'_>,
) -> Result<Bytes, Problem> {
    if let Some(len) = parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        && len > limit as u64
    {
        super::observe::body_refused("too_large");
        return Err(Problem::payload_too_large(limit));
    }
    let mut buf: Vec<u8> = Vec::new();
    let mut first: Option<Bytes> = None;
    loop {
        // None: the deadline passed before the next frame came.
        let next = std::future::poll_fn(|cx| match Pin::new(&mut body).poll_frame(cx) {
            Poll::Ready(frame) => Poll::Ready(Some(frame)),
            Poll::Pending => deadline.poll_expired(cx).map(|()| None),
        })
        .await;
        let frame = match next {
            Some(Some(frame)) => frame,
            Some(None) => break,
            None => {
                super::observe::body_refused("timeout");
                return Err(limits::request_timeout("body", deadline.timeout()));
            }
        };
        let frame = frame.map_err(|e| {
            tracing::debug!(error = %e, "failed to read request body");
            Problem::bad_request("the request body could not be read")
        })?;
        let Ok(data) = frame.into_data() else {
            continue; // trailers carry nothing we use
        };
        let total = buf.len() + first.as_ref().map_or(0, Bytes::len) + data.len();
        if total > limit {
            super::observe::body_refused("too_large");
            return Err(Problem::payload_too_large(limit));
        }
        // A single-chunk body (the common case) is passed through without copying.
        match first.take() {
            None if buf.is_empty() => first = Some(data),
            Some(prev) => {
                buf.extend_from_slice(&prev);
                buf.extend_from_slice(&data);
            }
            None => buf.extend_from_slice(&data),
        }
    }
    Ok(match first {
        Some(b) => b,
        None => Bytes::from(buf),
    })
}

/// Checks the content type, reads, and returns None for an absent optional body.
async fn read_checked(
    parts: &Parts,
    body: Body,
    limit: usize,
    required: bool,
    accept: impl Fn(&str) -> bool,
    expected: &str,
    empty_is_value: bool,
) -> Result<Option<Bytes>, Problem> {
    let media = media_essence(parts);
    if let Some(m) = &media
        && !accept(m)
    {
        return Err(Problem::unsupported_media_type(
            raw_content_type(parts).as_deref(),
            expected,
        ));
    }
    let bytes = collect(parts, body, limit).await?;
    // A form, a text or bytes can be empty: sent with its Content-Type, an empty body is that
    // value (the form of no fields, "", no bytes), not an absent body; a request without a
    // body carries no Content-Type. JSON has no empty value: there it is absent.
    if bytes.is_empty() && empty_is_value && media.is_some() {
        return Ok(Some(bytes));
    }
    if bytes.is_empty() {
        return if required {
            Err(Problem::bad_request("the request body is required"))
        } else {
            Ok(None)
        };
    }
    if media.is_none() {
        return Err(Problem::unsupported_media_type(None, expected));
    }
    Ok(Some(bytes))
}

/// A JSON body. 415 unless the content type is JSON, 413 over `limit`, 400 when empty but
/// `required`, 400 "malformed JSON: ... at line L column C" for bad syntax, and 400
/// `"<pointer>: <reason>"` (with the violation attached) when the shape is wrong.
pub async fn read_json<T: DeserializeOwned>(
    parts: &Parts,
    body: Body,
    limit: usize,
    required: bool,
) -> Result<Option<T>, Problem> {
    let Some(bytes) = read_checked(
        parts,
        body,
        limit,
        required,
        is_json,
        "application/json",
        false,
    )
    .await?
    else {
        return Ok(None);
    };
    decode_json(&bytes).map(Some)
}

/// A JSON body held to its schema as written before it is decoded (`schema`, when the
/// generator decided the body's types cannot hold all the schema says; see the `schema`
/// module): [`read_json`]'s answers, and 400 naming every place the value breaks the schema.
/// With no schema (it could not be compiled: logged once) it is [`read_json`].
pub async fn read_json_held<T: DeserializeOwned>(
    parts: &Parts,
    body: Body,
    limit: usize,
    required: bool,
    held: &super::schema::Held,
) -> Result<Option<T>, Problem> {
    let Some(bytes) = read_checked(
        parts,
        body,
        limit,
        required,
        is_json,
        "application/json",
        false,
    )
    .await?
    else {
        return Ok(None);
    };
    let Some(schema) = held.schema() else {
        return decode_json(&bytes).map(Some);
    };
    // Bad syntax: `decode_json`'s own message, with line and column.
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
        return decode_json(&bytes).map(Some);
    };
    let mut violations = Violations::new();
    schema.check(&value, "", &mut violations);
    violations.check()?;
    // The types read the value the check walked (not the bytes again); a value they cannot
    // hold is decoded again from the bytes, as `decode_json` does, to name the place.
    match integer::from_checked_value(value) {
        Ok(typed) => Ok(Some(typed)),
        Err(_) => decode_json(&bytes).map(Some),
    }
}

/// Turns the `Ok(None)` of an absent body into the 400 a required body gets (the `read_*`
/// functions already do so when called with `required = true`; this lets generated code get
/// a `T` without an unreachable branch: `read_json(..).await.and_then(body::required)?`).
pub fn required<T>(body: Option<T>) -> Result<T, Problem> {
    body.ok_or_else(|| Problem::bad_request("the request body is required"))
}

/// For an optional property that is not `nullable`, on the server side:
/// `#[serde(default, deserialize_with = "crate::runtime::codegen::body::non_null")]` on its
/// `Option<T>` field. Absent is `None` (through `default`); `null` is refused like any other
/// value of the wrong type (400 naming the field: `/status: invalid type: null, expected a
/// string`); anything else decodes as `T`. A plain `Option<T>` would take `null` as `None`,
/// accepting a body the schema forbids.
pub fn non_null<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: de::Deserializer<'de>,
    T: de::Deserialize<'de>,
{
    T::deserialize(deserializer).map(Some)
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

/// Decodes a JSON document with the same errors as [`read_json`].
///
/// A valid document is decoded once, without `serde_path_to_error` (about twice as fast as
/// going through it); only a failure is decoded again with the path tracked, to name the bad
/// field ([`integer::from_slice_located`]). Integer fields take whole numbers such as `1.0`
/// ([`super::integer`]).
pub fn decode_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Problem> {
    integer::from_slice_located(bytes).map_err(|e| json_problem(e.pointer, e.error))
}

fn json_problem(pointer: String, e: serde_json::Error) -> Problem {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    let reason = full.strip_suffix(&suffix).unwrap_or(&full).to_owned();
    match e.classify() {
        serde_json::error::Category::Data => {
            Problem::bad_request(String::new()).with_violations(vec![Violation {
                pointer,
                message: reason,
            }])
        }
        _ => Problem::bad_request(format!("malformed JSON: {full}")),
    }
}

/// Raw bytes (`application/octet-stream`, `image/png`, `multipart/form-data`, ...).
/// `content_type` is what the operation declares: a media type or range (`image/*`, `*/*`);
/// its parameters are ignored, and so are the request's.
pub async fn read_bytes(
    parts: &Parts,
    body: Body,
    limit: usize,
    required: bool,
    content_type: &str,
) -> Result<Option<Bytes>, Problem> {
    read_bytes_among(parts, body, limit, required, &[content_type]).await
}

/// [`read_bytes`] of a body the operation declares in several media types (`image/png` and
/// `image/jpeg`): any of them is read, as the bytes it is; another is a 415 listing them.
pub async fn read_bytes_among(
    parts: &Parts,
    body: Body,
    limit: usize,
    required: bool,
    declared: &[&str],
) -> Result<Option<Bytes>, Problem> {
    let essences: Vec<String> = declared
        .iter()
        .map(|m| {
            m.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase()
        })
        .filter(|m| !m.is_empty())
        .collect();
    let accept: Vec<&str> = essences.iter().map(String::as_str).collect();
    let expected = if accept.is_empty() {
        "any media type".to_owned()
    } else {
        accept.join(" or ")
    };
    read_checked(
        parts,
        body,
        limit,
        required,
        |m| media_type_matches(m, &accept),
        &expected,
        true,
    )
    .await
}

/// A text body: any `text/*` content type; the bytes must be UTF-8.
pub async fn read_text(
    parts: &Parts,
    body: Body,
    limit: usize,
    required: bool,
) -> Result<Option<String>, Problem> {
    read_text_of(parts, body, limit, required, "text/*").await
}

/// A text body of the media types `accept` covers (`*/*`: any, for a `*/*` request body whose
/// schema is a string, github's release asset upload); the bytes must be UTF-8.
pub async fn read_text_of(
    parts: &Parts,
    body: Body,
    limit: usize,
    required: bool,
    accept: &str,
) -> Result<Option<String>, Problem> {
    let Some(bytes) = read_checked(
        parts,
        body,
        limit,
        required,
        |m| media_type_matches(m, &[accept]),
        accept,
        true,
    )
    .await?
    else {
        return Ok(None);
    };
    match String::from_utf8(bytes.to_vec()) {
        Ok(s) => Ok(Some(s)),
        Err(_) => Err(Problem::bad_request(
            "the request body is not valid UTF-8 text",
        )),
    }
}

/// An `application/x-www-form-urlencoded` body decoded into `T`. Values are strings on the
/// wire and are parsed into the field's type (`categoryId=5` fills an `i64`); a key sent more
/// than once fills a `Vec` field (a field of one value given twice is a 400: `/name: given 2
/// times; a single value is expected`). Errors name the field:
/// "/categoryId: invalid value: string \"x\", expected i64".
pub async fn read_form<T: DeserializeOwned>(
    parts: &Parts,
    body: Body,
    limit: usize,
    required: bool,
) -> Result<Option<T>, Problem> {
    // Sent with its Content-Type, an empty body is the form of no fields (`{}`, checked like
    // any form: a required field is then missing), not an absent body (`read_checked`).
    let Some(bytes) = read_checked(
        parts,
        body,
        limit,
        required,
        |m| m == "application/x-www-form-urlencoded",
        "application/x-www-form-urlencoded",
        true,
    )
    .await?
    else {
        return Ok(None);
    };
    decode_form(&bytes).map(Some)
}

/// [`read_form`], then the form read held to its schema as written (`held`, compiled once):
/// the fields as the JSON value their types make (a form's text read as each field's schema
/// type), every violation in one 400. For a form whose schema says more than its type holds.
pub async fn read_form_held<T: DeserializeOwned + serde::Serialize>(
    parts: &Parts,
    body: Body,
    limit: usize,
    required: bool,
    held: &super::schema::Held,
) -> Result<Option<T>, Problem> {
    let form = read_form::<T>(parts, body, limit, required).await?;
    if let Some(value) = &form {
        let mut errors = Violations::new();
        held.check_form(value, "", &mut errors, false);
        errors.check()?;
    }
    Ok(form)
}

/// A request body the document offers both as JSON (or a form) and as `multipart/form-data`
/// (discord's messages with their files, openai's video and image uploads): the first decoded
/// into the schema's type, the second passed on as sent, after the server has decoded its parts
/// into the multipart schema's type and checked them (files are bytes, which the schema's
/// `format: binary` strings cannot hold). [`multipart::parse`](super::multipart::parse) splits
/// the bytes into parts; the boundary is in the request's `Content-Type` (`ctx.headers`,
/// [`multipart::boundary`](super::multipart::boundary)).
#[derive(Debug, Clone, PartialEq)]
pub enum OrMultipart<T> {
    /// Sent as JSON (or a form), decoded and checked.
    Typed(T),
    /// Sent as `multipart/form-data`: the body's bytes, its parts checked.
    Multipart(Vec<u8>),
}

/// A `multipart/form-data` body (RFC 7578) decoded into `T` as a form is ([`read_form`]):
/// each part's text fills the field its name says, parts of one name fill a `Vec` field, a
/// JSON part fills an object field. A part that is not UTF-8 text (a file) is refused with a
/// 400 naming its field: `T`'s fields hold text.
pub async fn read_multipart<T: DeserializeOwned>(
    parts: &Parts,
    body: Body,
    limit: usize,
    required: bool,
) -> Result<Option<T>, Problem> {
    let Some((fields, _)) = read_parts(parts, body, limit, required, false).await? else {
        return Ok(None);
    };
    form::decode_fields(fields, true)
        .map(Some)
        .map_err(|violation| Problem::bad_request(String::new()).with_violations(vec![violation]))
}

/// A `multipart/form-data` body decoded into `T` as [`read_multipart`] does, with the body as
/// sent (its boundary is in the request's Content-Type), for an implementation that reads the
/// parts itself: the generated server checks the decoded `T` against the document's schema,
/// then passes the bytes on. A file's bytes are decoded as lossy text: its content is the
/// implementation's to read; its presence and the other fields are what is checked.
pub async fn read_multipart_as<T: DeserializeOwned>(
    parts: &Parts,
    body: Body,
    limit: usize,
    required: bool,
) -> Result<Option<(T, Vec<u8>)>, Problem> {
    let Some((fields, raw)) = read_parts(parts, body, limit, required, true).await? else {
        return Ok(None);
    };
    let value = form::decode_fields(fields, true).map_err(|violation| {
        Problem::bad_request(String::new()).with_violations(vec![violation])
    })?;
    Ok(Some((value, raw.to_vec())))
}

/// The name/text pairs of a multipart body, and the body itself. 415 for another media type,
/// 400 without a boundary or when malformed.
async fn read_parts(
    parts: &Parts,
    body: Body,
    limit: usize,
    required: bool,
    lossy: bool,
) -> Result<Option<(Vec<(String, String)>, Bytes)>, Problem> {
    const MULTIPART: &str = "multipart/form-data";
    let Some(bytes) = read_checked(
        parts,
        body,
        limit,
        required,
        |m| m == MULTIPART,
        MULTIPART,
        false,
    )
    .await?
    else {
        return Ok(None);
    };
    let content_type = raw_content_type(parts).unwrap_or_default();
    let fields = multipart_fields(&content_type, &bytes, lossy)?;
    Ok(Some((fields, bytes)))
}

/// A `multipart/form-data` body's parts decoded into `T` as [`read_multipart`] does, from the
/// request's `Content-Type` (its boundary) and the body's bytes: how an implementation given
/// [`OrMultipart::Multipart`] reads the fields that are text (`ctx.headers`' Content-Type).
/// A part that is not UTF-8 text (a file) is refused naming its field; read files with
/// [`multipart::parse`](super::multipart::parse).
pub fn decode_multipart<T: DeserializeOwned>(
    content_type: &str,
    bytes: &[u8],
) -> Result<T, Problem> {
    let fields = multipart_fields(content_type, &Bytes::copy_from_slice(bytes), false)?;
    form::decode_fields(fields, true)
        .map_err(|violation| Problem::bad_request(String::new()).with_violations(vec![violation]))
}

/// The name/text pairs of a multipart body; `lossy`: a part that is not UTF-8 (a file) is
/// read as lossy text rather than refused.
fn multipart_fields(
    content_type: &str,
    bytes: &Bytes,
    lossy: bool,
) -> Result<Vec<(String, String)>, Problem> {
    let Some(boundary) = super::multipart::boundary(content_type) else {
        return Err(Problem::bad_request(
            "the multipart body's Content-Type names no boundary",
        ));
    };
    let mut fields = Vec::new();
    for part in super::multipart::parse(bytes, &boundary)? {
        let text = match String::from_utf8(part.data.to_vec()) {
            Ok(text) => text,
            Err(e) if lossy => String::from_utf8_lossy(e.as_bytes()).into_owned(),
            Err(_) => {
                return Err(
                    Problem::bad_request(String::new()).with_violations(vec![Violation {
                        pointer: join("", &part.name),
                        message: "the part is not UTF-8 text".into(),
                    }]),
                );
            }
        };
        fields.push((part.name, text));
    }
    Ok(fields)
}

/// Decodes a url-encoded form with the same errors as [`read_form`].
pub fn decode_form<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Problem> {
    let pairs = form_urlencoded::parse(bytes).map(|(k, v)| (k.into_owned(), v.into_owned()));
    decode_pairs(pairs)
        .map_err(|violation| Problem::bad_request(String::new()).with_violations(vec![violation]))
}

/// Decoded name/value pairs into `T`, as a form's: each value parsed into its field's type, a
/// name given more than once filling a `Vec` field. The failure names the field (its pointer
/// relative to `T`). Also how an object-valued query parameter is read
/// ([`RawParams::object`](super::params::RawParams::object)).
pub(crate) fn decode_pairs<T: DeserializeOwned>(
    pairs: impl IntoIterator<Item = (String, String)>,
) -> Result<T, Violation> {
    form::decode_fields(pairs, false)
}
