//! Owns request bodies: content-type checks (415), the size limit (413), reading, and decoding
//! JSON, text, bytes and url-encoded forms into typed values with client-readable errors (400
//! naming the JSON pointer of the bad field).

use std::borrow::Cow;

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes, HttpBody};
use http::header;
use http::request::Parts;
use serde::de::{self, DeserializeOwned, IntoDeserializer, Visitor};
use tokio::time::{Instant, Sleep};

use super::integer::{self, WholeNumbers};
use super::layer::Runtime;
use super::limits;
use super::problem::Problem;
use super::validate::{Violation, join, join_index};

/// The request's media type, lower-cased, without parameters (`application/json`).
pub fn media_type(parts: &Parts) -> Option<String> {
    media_essence(parts).map(Cow::into_owned)
}

/// [`media_type`], borrowed from the header when it is already lower-case (the usual case).
fn media_essence(parts: &Parts) -> Option<Cow<'_, str>> {
    let raw = parts.headers.get(header::CONTENT_TYPE)?;
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

/// Turns the `Ok(None)` of an absent body into the 400 a required body gets (the `read_*`
/// functions already do so when called with `required = true`; this lets generated code get
/// a `T` without an unreachable branch: `read_json(..).await.and_then(body::required)?`).
pub fn required<T>(body: Option<T>) -> Result<T, Problem> {
    body.ok_or_else(|| Problem::bad_request("the request body is required"))
}

/// For an optional property that is not `nullable`, on the server side:
/// `#[serde(default, deserialize_with = "crate::runtime::body::non_null")]` on its
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
/// field. Both passes run the same deserializer, so the second fails at the same place with
/// the same error. Integer fields take whole numbers such as `1.0` ([`super::integer`]).
pub fn decode_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Problem> {
    match integer::from_slice(bytes) {
        Ok(value) => Ok(value),
        Err(_) => decode_json_located(bytes),
    }
}

/// The slow path of [`decode_json`]: decodes with `serde_path_to_error` to locate the error.
fn decode_json_located<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Problem> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let result: Result<T, serde_path_to_error::Error<serde_json::Error>> =
        serde_path_to_error::deserialize(WholeNumbers(&mut de));
    let value = match result {
        Ok(v) => v,
        Err(e) => {
            let pointer = pointer_of(e.path());
            return Err(json_problem(pointer, e.into_inner()));
        }
    };
    // Trailing garbage after the document is a syntax error too.
    if let Err(e) = de.end() {
        return Err(json_problem(String::new(), e));
    }
    Ok(value)
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

/// A JSON pointer (RFC 6901) for a serde path.
fn pointer_of(path: &serde_path_to_error::Path) -> String {
    let mut p = String::new();
    for seg in path.iter() {
        match seg {
            serde_path_to_error::Segment::Seq { index } => p = join_index(&p, *index),
            serde_path_to_error::Segment::Map { key } => p = join(&p, key),
            serde_path_to_error::Segment::Enum { variant } => p = join(&p, variant),
            serde_path_to_error::Segment::Unknown => p = join(&p, "?"),
        }
    }
    p
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
    let declared = content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    let accept: &[&str] = if declared.is_empty() {
        &[]
    } else {
        &[&declared]
    };
    let expected = if declared.is_empty() {
        "any media type"
    } else {
        declared.as_str()
    };
    read_checked(
        parts,
        body,
        limit,
        required,
        |m| media_type_matches(m, accept),
        expected,
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
    decode_fields(fields, true)
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
    let value = decode_fields(fields, true).map_err(|violation| {
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
    decode_fields(fields, true)
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
    decode_fields(pairs, false)
}

/// [`decode_pairs`]; `null_text`: a value `null` is JSON's null where the field admits it (a
/// multipart body's parts, see [`multipart_fields`]).
fn decode_fields<T: DeserializeOwned>(
    pairs: impl IntoIterator<Item = (String, String)>,
    null_text: bool,
) -> Result<T, Violation> {
    // Group repeated keys, keeping first-appearance order.
    let mut fields: Vec<(String, Vec<String>)> = Vec::new();
    for (k, v) in pairs {
        match fields.iter_mut().find(|(name, _)| *name == k) {
            Some((_, values)) => values.push(v),
            None => fields.push((k, vec![v])),
        }
    }
    let de: de::value::MapDeserializer<'_, _, de::value::Error> = de::value::MapDeserializer::new(
        fields
            .into_iter()
            .map(|(k, v)| (k, FormField(v, null_text))),
    );
    // A type that buffers the form first (a `oneOf` body) reads its variants' numbers and
    // booleans from the text they arrived as.
    integer::text_scalars(|| serde_path_to_error::deserialize(de)).map_err(|e| Violation {
        pointer: pointer_of(e.path()),
        message: e.into_inner().to_string(),
    })
}

/// The values of one form key (never empty); whether `null` is JSON's null (see
/// [`FormValue`]).
struct FormField(Vec<String>, bool);

/// One form value, parsed on demand into whatever the target type asks for; with `.1` (the
/// parts of a multipart body), the text `null` is JSON's null for a field that admits it:
/// schemathesis writes a part's non-string values in their JSON spelling, and a browser's
/// `FormData` turns `null` into the text `null` too. (A url-encoded form's `null` stays text.)
struct FormValue(String, bool);

/// Whether a form value is JSON's null: the text `null` of a multipart part (see
/// [`FormValue`]).
fn is_json_null(text: &str, multipart: bool) -> bool {
    multipart && text == "null"
}

impl FormValue {
    fn is_null(&self) -> bool {
        is_json_null(&self.0, self.1)
    }

    /// The value as the JSON object it must spell, or serde's "invalid type" naming the text.
    fn json_object(
        &self,
        expected: &dyn de::Expected,
    ) -> Result<serde_json::Value, de::value::Error> {
        match serde_json::from_str::<serde_json::Value>(&self.0) {
            Ok(value @ serde_json::Value::Object(_)) => Ok(value),
            _ => Err(de::Error::invalid_type(
                de::Unexpected::Str(&self.0),
                expected,
            )),
        }
    }
}

impl<'de> IntoDeserializer<'de, de::value::Error> for FormField {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

impl<'de> IntoDeserializer<'de, de::value::Error> for FormValue {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

impl FormField {
    fn first(self) -> FormValue {
        FormValue(self.0.into_iter().next().unwrap_or_default(), self.1)
    }

    /// The one value of a field that holds one value: a key given more than once is refused,
    /// as a query parameter's is (which of them was meant is not for the server to guess;
    /// discord's `invitable` sent twice).
    fn single(self) -> Result<FormValue, de::value::Error> {
        match self.0.len() {
            0 | 1 => Ok(self.first()),
            n => Err(de::Error::custom(format!(
                "given {n} times; a single value is expected"
            ))),
        }
    }
}

macro_rules! field_to_single {
    ($($method:ident),*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
            self.single()?.$method(visitor)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for FormField {
    type Error = de::value::Error;

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        let null_text = self.1;
        visitor.visit_seq(de::value::SeqDeserializer::new(
            self.0.into_iter().map(|v| FormValue(v, null_text)),
        ))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        if matches!(self.0.as_slice(), [one] if is_json_null(one, self.1)) {
            return visitor.visit_none();
        }
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.single()?.deserialize_enum(name, variants, visitor)
    }

    // A type that buffers its input (a `oneOf`) sees a repeated key as a list.
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        if self.0.len() > 1 {
            return self.deserialize_seq(visitor);
        }
        self.first().deserialize_any(visitor)
    }

    // A member the type does not know is skipped, however often it is given.
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        self.first().deserialize_ignored_any(visitor)
    }

    field_to_single!(
        deserialize_bool,
        deserialize_i8,
        deserialize_i16,
        deserialize_i32,
        deserialize_i64,
        deserialize_i128,
        deserialize_u8,
        deserialize_u16,
        deserialize_u32,
        deserialize_u64,
        deserialize_u128,
        deserialize_f32,
        deserialize_f64,
        deserialize_char,
        deserialize_str,
        deserialize_string,
        deserialize_bytes,
        deserialize_byte_buf,
        deserialize_unit,
        deserialize_map,
        deserialize_identifier
    );

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.single()?.deserialize_unit_struct(name, visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.single()?.deserialize_tuple(len, visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.single()?.deserialize_tuple_struct(name, len, visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.single()?.deserialize_struct(name, fields, visitor)
    }
}

macro_rules! parse_value {
    ($($method:ident => $t:ty, $visit:ident);* $(;)?) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
            match self.0.parse::<$t>() {
                Ok(v) => visitor.$visit(v),
                Err(_) => Err(de::Error::invalid_value(de::Unexpected::Str(&self.0), &visitor)),
            }
        }
    )*};
}

/// As `parse_value!`, and a whole number written as a JSON number (`5.0`, `5e0`) is an
/// integer too, as in a JSON body ([`integer`]).
macro_rules! parse_integer {
    ($($method:ident => $t:ty, $visit:ident);* $(;)?) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
            if let Ok(v) = self.0.parse::<$t>() {
                return visitor.$visit(v);
            }
            match integer::whole_text(&self.0) {
                Some(whole) => WholeNumbers(whole.into_deserializer()).$method(visitor),
                None => Err(de::Error::invalid_value(de::Unexpected::Str(&self.0), &visitor)),
            }
        }
    )*};
}

impl<'de> de::Deserializer<'de> for FormValue {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        // A type that buffers its input (a `oneOf`) sees `null` as JSON's null.
        if self.is_null() {
            return visitor.visit_unit();
        }
        visitor.visit_string(self.0)
    }

    parse_integer!(
        deserialize_i8 => i8, visit_i8;
        deserialize_i16 => i16, visit_i16;
        deserialize_i32 => i32, visit_i32;
        deserialize_i64 => i64, visit_i64;
        deserialize_i128 => i128, visit_i128;
        deserialize_u8 => u8, visit_u8;
        deserialize_u16 => u16, visit_u16;
        deserialize_u32 => u32, visit_u32;
        deserialize_u64 => u64, visit_u64;
        deserialize_u128 => u128, visit_u128;
    );
    parse_value!(
        deserialize_bool => bool, visit_bool;
        deserialize_f32 => f32, visit_f32;
        deserialize_f64 => f64, visit_f64;
    );

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        if self.is_null() {
            return visitor.visit_none();
        }
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_seq(de::value::SeqDeserializer::new(std::iter::once(self)))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        let unit: de::value::StringDeserializer<de::value::Error> = self.0.into_deserializer();
        visitor.visit_enum(unit)
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_unit()
    }

    // An object in a form value is JSON text: how a multipart part whose property is an
    // object is sent (RFC 7578 with OpenAPI's default `application/json` for it). It is read
    // as a JSON body is, through `WholeNumbers`: an array where an object belongs is refused
    // at any depth, and its strings stay strings.
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        let value = self.json_object(&visitor)?;
        integer::json_scalars(|| WholeNumbers(value).deserialize_map(visitor))
            .map_err(de::Error::custom)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        let value = self.json_object(&visitor)?;
        integer::json_scalars(|| WholeNumbers(value).deserialize_struct(name, fields, visitor))
            .map_err(de::Error::custom)
    }

    serde::forward_to_deserialize_any! {
        char str string bytes byte_buf unit_struct tuple tuple_struct identifier ignored_any
    }
}
