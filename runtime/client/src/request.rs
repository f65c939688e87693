//! Request building helpers: path segments, query strings (OpenAPI `style: form`), URLs and
//! JSON bodies, so generated methods only list their parameters.
//!
//! Decisions:
//! `docs/decisions/0013-client-requests-built-by-the-runtime.md`,
//! `docs/decisions/0015-client-query-pages-headers-declared.md`.

use bytes::Bytes;
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde::Serialize;

use super::error::SendError;
use super::style::Flat;
pub use super::style::Style;

// RFC 3986 unreserved characters are the only ones left as they are; everything else,
// reserved delimiters included, is percent-encoded, so a value can never change the URL's
// structure (a `/` in a path parameter, a `&` or `=` in a query value).
const UNRESERVED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// Percent-encodes a path parameter value: everything but unreserved characters.
pub fn encode_path_segment(value: &str) -> String {
    utf8_percent_encode(value, UNRESERVED).to_string()
}

/// Percent-encodes a query name or value the same way (space as `%20`, never `+`).
pub fn encode_query_component(value: &str) -> String {
    utf8_percent_encode(value, UNRESERVED).to_string()
}

/// What `allowReserved` leaves as it is besides the unreserved characters: the reserved ones a
/// query may hold (RFC 3986 §3.4) but for the query's own delimiters `&`, `=` and `+`, and
/// `'`, which the URL parser (WHATWG's, reqwest's) encodes in a query anyway.
const QUERY_RESERVED_KEPT: &AsciiSet = &UNRESERVED
    .remove(b':')
    .remove(b'/')
    .remove(b'?')
    .remove(b'@')
    .remove(b'!')
    .remove(b'$')
    .remove(b'(')
    .remove(b')')
    .remove(b'*')
    .remove(b',')
    .remove(b';');

/// A query value of a parameter with `allowReserved: true`: RFC 6570's reserved expansion, as
/// OpenAPI 3.1.1 defines it. Reserved characters a query may hold and `%XX` triples pass
/// unchanged; `&`, `=`, `+`, `#`, `[`, `]`, `'`, a `%` that begins no triple and everything
/// else are percent-encoded, so the value still cannot end the pair.
pub fn encode_query_reserved(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(at) = rest.find('%') {
        let (before, from) = rest.split_at(at);
        out.extend(utf8_percent_encode(before, QUERY_RESERVED_KEPT));
        let triple = from.as_bytes().get(1..3);
        if triple.is_some_and(|t| t.iter().all(u8::is_ascii_hexdigit)) {
            out.push_str(&from[..3]);
            rest = &from[3..];
        } else {
            out.push_str("%25");
            rest = &from[1..];
        }
    }
    out.extend(utf8_percent_encode(rest, QUERY_RESERVED_KEPT));
    out
}

/// A path from its template and its parameters' values in the template's order: each
/// `{name}` is the next value, written as a parameter and percent-encoded as one segment
/// (`style: simple`), so that `path("/pets/{petId}/tags/{tag}", &[&7, &"a/b"])` is
/// `/pets/7/tags/a%2Fb`. A template names each parameter once, and every value fills one.
pub fn path(template: &str, values: &[&dyn ToParam]) -> String {
    // Bytes, not `str::find(char)`: its searcher cost more than the rest of a short path
    // (callgrind, the bench's `getPet`); each value is encoded straight into the path.
    let at = |text: &str, byte: u8| text.bytes().position(|b| b == byte);
    let mut out = String::with_capacity(template.len() + 16 * values.len());
    let (mut rest, mut values) = (template, values.iter());
    while let Some(open) = at(rest, b'{') {
        out.push_str(&rest[..open]);
        let close = at(&rest[open..], b'}').map_or(rest.len(), |c| open + c + 1);
        match values.next() {
            Some(value) => value.push_encoded(&mut out),
            None => out.push_str(&rest[open..close]),
        }
        rest = &rest[close..];
    }
    out.push_str(rest);
    out
}

/// `base` + `path` + (`?query` unless empty). `base` has no trailing slash, `path` starts with `/`.
pub fn url(base: &str, path: &str, query: &str) -> String {
    let mut url = String::with_capacity(base.len() + path.len() + query.len() + 1);
    url.push_str(base);
    url.push_str(path);
    if !query.is_empty() {
        url.push('?');
        url.push_str(query);
    }
    url
}

/// How a value is written as a parameter (path, query, header). Implemented for primitives and
/// strings; generated enums implement it with their wire names.
pub trait ToParam {
    /// The value as text, unencoded.
    fn to_param(&self) -> String;

    /// Appends the value to `out` percent-encoded, everything but unreserved characters
    /// encoded: one path segment (`style: simple`, what [`path`] fills a template with) or a
    /// query value ([`Query::append`]). Strings and integers write themselves, without a
    /// `String` of their own.
    fn push_encoded(&self, out: &mut String) {
        out.extend(utf8_percent_encode(&self.to_param(), UNRESERVED));
    }
}

impl<T: ToParam + ?Sized> ToParam for &T {
    fn to_param(&self) -> String {
        (**self).to_param()
    }

    fn push_encoded(&self, out: &mut String) {
        (**self).push_encoded(out);
    }
}

impl ToParam for str {
    fn to_param(&self) -> String {
        self.to_owned()
    }

    fn push_encoded(&self, out: &mut String) {
        out.extend(utf8_percent_encode(self, UNRESERVED));
    }
}

impl ToParam for String {
    fn to_param(&self) -> String {
        self.clone()
    }

    fn push_encoded(&self, out: &mut String) {
        self.as_str().push_encoded(out);
    }
}

/// Integers up to 64 bits: their digits (and `-`) need no encoding.
macro_rules! integer_to_param {
    ($($t:ty),* $(,)?) => {
        $(impl ToParam for $t {
            fn to_param(&self) -> String {
                self.to_string()
            }

            #[allow(clippy::cast_lossless, clippy::unnecessary_cast)]
            fn push_encoded(&self, out: &mut String) {
                push_digits(out, (*self as i128) < 0, (*self as i128).unsigned_abs() as u64);
            }
        })*
    };
}

integer_to_param!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

/// Appends `magnitude` in decimal, after `-` when `negative`.
fn push_digits(out: &mut String, negative: bool, mut magnitude: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (magnitude % 10) as u8;
        magnitude /= 10;
        if magnitude == 0 {
            break;
        }
    }
    if negative {
        out.push('-');
    }
    out.push_str(std::str::from_utf8(&digits[at..]).expect("ASCII digits"));
}

macro_rules! to_param_via_display {
    ($($t:ty),* $(,)?) => {
        $(impl ToParam for $t {
            fn to_param(&self) -> String {
                self.to_string()
            }
        })*
    };
}

// Display of these is exactly their JSON/text form (`true`, `42`, `1.5`; a UUID hyphenated
// in lower case, a timestamp in RFC 3339 with `Z`, a date `YYYY-MM-DD`, a decimal as written).
to_param_via_display!(
    bool,
    char,
    i128,
    u128,
    f32,
    f64,
    uuid::Uuid,
    jiff::Timestamp,
    jiff::civil::Date,
    std::net::Ipv4Addr,
    std::net::Ipv6Addr,
    super::decimal::Decimal,
);

/// How the members of an object-valued query parameter are written (OpenAPI's `style` and
/// `explode` for an object).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjectQuery {
    /// `form`, exploded (the default): each member a pair of its own, `role=admin`.
    Exploded,
    /// `form`, not exploded: one pair, names and values in turn, `id=role,admin,first,Alex`.
    Joined,
    /// `deepObject`: `id[role]=admin&id[first]=Alex`.
    Deep,
}

/// A query string under construction (`style: form`, the OpenAPI default for queries).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Query {
    buf: String,
    /// Values appended now keep reserved characters ([`Query::allow_reserved`]).
    reserved: bool,
}

impl Query {
    /// An empty query string.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends `name=value`.
    pub fn append<T: ToParam + ?Sized>(&mut self, name: &str, value: &T) -> &mut Self {
        self.start_pair(name);
        if self.reserved {
            let value = self.encode(&value.to_param());
            self.buf.push_str(&value);
        } else {
            // The same encoding as `encode_query_component`, written in place.
            value.push_encoded(&mut self.buf);
        }
        self
    }

    /// Appends `name=value` when `value` is `Some`; nothing otherwise (an absent optional
    /// parameter is left out, not sent empty).
    pub fn append_opt<T: ToParam + ?Sized>(&mut self, name: &str, value: Option<&T>) -> &mut Self {
        if let Some(value) = value {
            self.append(name, value);
        }
        self
    }

    /// Appends an array. `explode: true` repeats the name (`a=1&a=2`); `explode: false`
    /// joins the values with `delimiter` (`a=1,2`; `' '` for `spaceDelimited`, `'|'` for
    /// `pipeDelimited`). A delimiter inside a value is encoded, so the split stays unambiguous.
    /// An empty array appends nothing.
    pub fn append_array<T: ToParam>(
        &mut self,
        name: &str,
        values: &[T],
        explode: bool,
        delimiter: char,
    ) -> &mut Self {
        if values.is_empty() {
            return self;
        }
        if explode {
            for value in values {
                self.append(name, value);
            }
            return self;
        }
        // `,` and `|` are written as is (as OpenAPI's examples show); anything else, notably
        // the space of spaceDelimited, is percent-encoded.
        let delimiter = match delimiter {
            ',' | '|' => delimiter.to_string(),
            other => encode_query_component(other.encode_utf8(&mut [0; 4])),
        };
        self.start_pair(name);
        for (i, value) in values.iter().enumerate() {
            if i > 0 {
                self.buf.push_str(&delimiter);
            }
            let value = self.encode(&value.to_param());
            self.buf.push_str(&value);
        }
        self
    }

    /// Appends an object-valued parameter, member by member, as `style` says (see
    /// [`ObjectQuery`]). A member that is a list repeats its name, `null` members are left
    /// out; an object with no members appends nothing.
    pub fn append_object<T: Serialize + ?Sized>(
        &mut self,
        name: &str,
        value: &T,
        style: ObjectQuery,
    ) -> Result<&mut Self, SendError> {
        let pairs = members(value, &format!("query parameter `{name}`"))?;
        match style {
            ObjectQuery::Exploded => {
                for (member, value) in &pairs {
                    self.append(member, value);
                }
            }
            ObjectQuery::Deep => {
                for (member, value) in &pairs {
                    self.append(&format!("{name}[{member}]"), value);
                }
            }
            ObjectQuery::Joined if pairs.is_empty() => {}
            ObjectQuery::Joined => {
                // Names and values in turn, each encoded, so a comma inside one stays apart
                // from the commas between them.
                self.start_pair(name);
                for (i, (member, value)) in pairs.iter().enumerate() {
                    if i > 0 {
                        self.buf.push(',');
                    }
                    let member = self.encode(member);
                    self.buf.push_str(&member);
                    self.buf.push(',');
                    let value = self.encode(value);
                    self.buf.push_str(&value);
                }
            }
        }
        Ok(self)
    }

    /// Appends one pair whose value is `value` written in `style` (a `pipeDelimited` or
    /// `spaceDelimited` object: `color=R|100|G|200`), names and values encoded.
    pub fn append_styled<T: Serialize + ?Sized>(
        &mut self,
        name: &str,
        value: &T,
        style: Style,
        explode: bool,
    ) -> Result<&mut Self, SendError> {
        let flat = flat(value, "query", name)?;
        self.start_pair(name);
        let encode = if self.reserved {
            encode_query_reserved
        } else {
            encode_query_component
        };
        self.buf
            .push_str(&style.expand(explode, name, &flat, &encode));
        Ok(self)
    }

    /// `allowReserved`: the values appended after `allow_reserved(true)` keep the reserved
    /// characters a query may hold ([`encode_query_reserved`]); names are always encoded.
    /// Generated code turns it on around such a parameter and off after it.
    pub fn allow_reserved(&mut self, allow: bool) -> &mut Self {
        self.reserved = allow;
        self
    }

    /// A value as this query encodes it now.
    fn encode(&self, value: &str) -> String {
        if self.reserved {
            encode_query_reserved(value)
        } else {
            encode_query_component(value)
        }
    }

    /// Whether nothing was appended.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// The encoded query, without `?`; `""` when nothing was appended.
    pub fn finish(self) -> String {
        self.buf
    }

    fn start_pair(&mut self, name: &str) {
        if !self.buf.is_empty() {
            self.buf.push('&');
        }
        self.buf.push_str(&encode_query_component(name));
        self.buf.push('=');
    }
}

/// A path parameter's segment in `style` (`simple`, `label`, `matrix`; a list or an object
/// too: `.R=100.G=200`), every name and value percent-encoded but for unreserved characters
/// (and `.` in a `label`).
pub fn path_styled<T: Serialize + ?Sized>(
    value: &T,
    style: Style,
    explode: bool,
    name: &str,
) -> Result<String, SendError> {
    let flat = flat(value, "path", name)?;
    if style == Style::Label {
        // `.` is unreserved, so RFC 6570 leaves it as it is; a `label` value's own dot would
        // then read as the separator of an exploded label. Encoded, it cannot.
        return Ok(style.expand(explode, name, &flat, &|s| {
            encode_path_segment(s).replace('.', "%2E")
        }));
    }
    Ok(style.expand(explode, name, &flat, &encode_path_segment))
}

/// A header parameter's value in `style: simple` (`R=100,G=200`), written as it is: HTTP
/// header values have no percent-encoding, so a `,` or `=` inside a member's value cannot be
/// told from the separators (OpenAPI leaves that to the document).
pub fn header_styled<T: Serialize + ?Sized>(
    value: &T,
    explode: bool,
    name: &str,
) -> Result<String, SendError> {
    let flat = flat(value, "header", name)?;
    Ok(Style::Simple.expand(explode, name, &flat, &|s| s.to_owned()))
}

/// A cookie's value in `style: form`, not exploded (`R,100,G,200`), percent-encoded as a
/// query value is.
pub fn cookie_styled<T: Serialize + ?Sized>(
    value: &T,
    explode: bool,
    name: &str,
) -> Result<String, SendError> {
    let flat = flat(value, "cookie", name)?;
    Ok(Style::Form.expand(explode, name, &flat, &encode_query_component))
}

/// `value` flattened for a style, numbers as serde_json wrote them ([`super::written`]).
fn flat<T: Serialize + ?Sized>(value: &T, location: &str, name: &str) -> Result<Flat, SendError> {
    use super::written::{Level, level, text};
    let failed = |e: serde_json::Error| {
        SendError::InvalidRequest(format!("{location} parameter `{name}`: {e}"))
    };
    let json = serde_json::to_string(value).map_err(failed)?;
    Ok(match level(&json).map_err(failed)? {
        Level::Object(members) => {
            let mut out = Vec::with_capacity(members.len());
            for (member, raw) in members {
                if let Some(value) = text(raw).map_err(failed)? {
                    out.push((member, value));
                }
            }
            Flat::Object(out)
        }
        Level::List(items) => Flat::List(
            items
                .into_iter()
                .map(|raw| text(raw).map(Option::unwrap_or_default))
                .collect::<Result<_, _>>()
                .map_err(failed)?,
        ),
        Level::Scalar(raw) => Flat::Scalar(text(raw).map_err(failed)?.unwrap_or_default()),
    })
}

/// A bytes or text request body and the media type it is sent as, for an operation whose
/// document lists several (`image/png` and `image/jpeg`) or a range that names none
/// (api.github.com's release assets: `*/*`): `Upload::new("application/zip", bytes)`. Plain
/// bytes or text (`&bytes`, `"…"`) convert into one sent as the document's first media type
/// (for a range, what it names plainest: `application/octet-stream`, `text/plain` for
/// `text/*`), so such a method takes what a method of one media type takes.
#[derive(Debug, Clone)]
pub struct Upload {
    media: Option<String>,
    bytes: Bytes,
}

impl Upload {
    /// `body`, sent with the `Content-Type` `media`.
    pub fn new(media: impl Into<String>, body: impl Into<Bytes>) -> Upload {
        Upload {
            media: Some(media.into()),
            bytes: body.into(),
        }
    }

    /// The media type given, if one was.
    pub fn media(&self) -> Option<&str> {
        self.media.as_deref()
    }

    /// The body's bytes (cloning `Bytes` shares them).
    pub fn bytes(&self) -> &Bytes {
        &self.bytes
    }

    /// The `Content-Type` to send: the media type given, else `declared` (the document's
    /// first; a range, its plainest member). A media type that is no header value is refused
    /// before anything is sent.
    pub fn content_type(&self, declared: &str) -> Result<http::HeaderValue, SendError> {
        let media = match &self.media {
            Some(media) => media.as_str(),
            None => match declared.split(';').next().unwrap_or("").trim() {
                "text/*" => "text/plain",
                range if range.ends_with("/*") => "application/octet-stream",
                _ => declared,
            },
        };
        http::HeaderValue::from_str(media).map_err(|_| {
            SendError::InvalidRequest(format!("`{media}` is not a valid Content-Type"))
        })
    }
}

impl From<Bytes> for Upload {
    fn from(bytes: Bytes) -> Upload {
        Upload { media: None, bytes }
    }
}

impl From<&Bytes> for Upload {
    fn from(bytes: &Bytes) -> Upload {
        Upload::from(bytes.clone())
    }
}

impl From<Vec<u8>> for Upload {
    fn from(bytes: Vec<u8>) -> Upload {
        Upload::from(Bytes::from(bytes))
    }
}

impl From<&str> for Upload {
    fn from(text: &str) -> Upload {
        Upload::from(Bytes::copy_from_slice(text.as_bytes()))
    }
}

impl From<String> for Upload {
    fn from(text: String) -> Upload {
        Upload::from(Bytes::from(text))
    }
}

/// Serializes a JSON request body once, before the first attempt; [`json_body`] then attaches
/// it to each attempt's request without serializing again.
pub fn to_json<T: Serialize + ?Sized>(value: &T) -> Result<Bytes, SendError> {
    serde_json::to_vec(value)
        .map(Bytes::from)
        .map_err(|e| SendError::InvalidRequest(format!("request body serialization failed: {e}")))
}

/// Attaches serialized JSON (`Bytes` clones are cheap reference-count increments).
pub fn json_body(builder: reqwest::RequestBuilder, body: &Bytes) -> reqwest::RequestBuilder {
    builder
        .header(http::header::CONTENT_TYPE, "application/json")
        .body(body.clone())
}

/// Serializes an `application/x-www-form-urlencoded` body: each top-level field becomes a
/// pair, arrays repeat their key (OpenAPI's default `explode` for forms), nested objects are
/// sent as their JSON text, and `null`/absent fields are left out.
pub fn to_form<T: Serialize + ?Sized>(value: &T) -> Result<Bytes, SendError> {
    form_pairs(value, "request body").map(Bytes::from)
}

/// An OpenAPI 3.2 `in: querystring` parameter with `application/x-www-form-urlencoded`
/// content: the whole query string, written as [`to_form`] writes a body.
pub fn to_query_string<T: Serialize + ?Sized>(value: &T) -> Result<String, SendError> {
    form_pairs(value, "query string")
}

/// An `in: querystring` parameter with JSON content: the whole query string is the value's
/// JSON text, percent-encoded (everything but the unreserved characters).
pub fn to_query_string_json<T: Serialize + ?Sized>(value: &T) -> Result<String, SendError> {
    let json = serde_json::to_string(value).map_err(|e| {
        SendError::InvalidRequest(format!("query string serialization failed: {e}"))
    })?;
    Ok(encode_query_component(&json))
}

fn form_pairs<T: Serialize + ?Sized>(value: &T, what: &str) -> Result<String, SendError> {
    let mut out = Query::new();
    for (name, value) in members(value, what)? {
        out.append(&name, &value);
    }
    Ok(out.finish())
}

/// An object's members as name/value pairs, as a form writes them: a list repeats its name,
/// `null` is left out, a nested value is its JSON text; numbers as serde_json wrote them
/// ([`super::written`]), members in their order.
fn members<T: Serialize + ?Sized>(
    value: &T,
    what: &str,
) -> Result<Vec<(String, String)>, SendError> {
    use super::written::{Level, level, text};
    let failed = |e: serde_json::Error| {
        SendError::InvalidRequest(format!("{what} serialization failed: {e}"))
    };
    let json = serde_json::to_string(value).map_err(failed)?;
    let Level::Object(fields) = level(&json).map_err(failed)? else {
        return Err(SendError::InvalidRequest(format!(
            "a form-encoded {what} must be an object with named fields"
        )));
    };
    let mut out = Vec::with_capacity(fields.len());
    for (name, raw) in fields {
        match level(raw.get()).map_err(failed)? {
            Level::List(items) => {
                for item in items {
                    if let Some(item) = text(item).map_err(failed)? {
                        out.push((name.clone(), item));
                    }
                }
            }
            _ => {
                if let Some(value) = text(raw).map_err(failed)? {
                    out.push((name, value));
                }
            }
        }
    }
    Ok(out)
}

/// A method the `http` crate has no constant for (`QUERY`, an `additionalOperations` method),
/// by its name as the document spells it. The generator checks names are HTTP tokens, so this
/// fails only for a hand-written bad name.
pub fn method(name: &str) -> Result<http::Method, SendError> {
    http::Method::from_bytes(name.as_bytes())
        .map_err(|_| SendError::InvalidRequest(format!("`{name}` is not a valid HTTP method")))
}

/// Declares an operation's optional parameters: the struct as written, every field an
/// `Option` under `#[param("name", with_name)]` (the parameter's name in the document and its
/// setter's), then what the runtime does with it:
///
/// - `query`: a query parameter in `style: form`, `name=value`;
/// - `query(array, explode, 'delimiter')`: a list (`Query::append_array`);
/// - `query(object, ObjectQuery::Deep)`: an object's members (`Query::append_object`);
/// - `query(styled, Style::PipeDelimited, explode)`: one pair in a style
///   (`Query::append_styled`);
/// - `next` (after the above): set from a `Link` target's query (`pages::Follow`).
///
/// It expands to the struct, one setter per field, taking `impl Into<Option<T>>` (a value,
/// or an `Option` to pass one on without an `if let`; `None` unsets it), `append_query` and
/// `query`, which write the query fields that are set in the declaration's order, and
/// `pages::Follow`.
///
/// ```ignore
/// request::parameters! {
///     /// Optional parameters of `listPets`.
///     #[derive(Debug, Clone, Default, PartialEq)]
///     pub struct ListPetsOptions {
///         /// How many animals at most (query parameter `limit`).
///         #[param("limit", with_limit, query, next)]
///         pub limit: Option<i64>,
///     }
/// }
/// ```
#[doc(hidden)]
#[macro_export]
// `crate::runtime`, not `$crate`: the runtime as the calling crate names it (see `object::json!`).
#[allow(clippy::crate_in_macro_def)]
macro_rules! __apigen_optional_parameters {
    (
        $(#[doc = $doc:literal])*
        $(#[allow($($allow:tt)*)])?
        #[derive($($derive:tt)*)]
        $vis:vis struct $name:ident {
            $(
                $(#[doc = $field_doc:literal])*
                $(#[deprecated $($deprecated:tt)*])?
                #[param($wire:literal, $setter:ident $(, $($how:tt)+)?)]
                $field_vis:vis $field:ident: Option<$ty:ty $(,)?>,
            )*
        }
    ) => {
        $(#[doc = $doc])*
        $(#[allow($($allow)*)])?
        #[derive($($derive)*)]
        $vis struct $name {
            $(
                $(#[doc = $field_doc])*
                $(#[deprecated $($deprecated)*])?
                $field_vis $field: Option<$ty>,
            )*
        }

        // Each setter takes the value under the field's own name (the document's, `foo`
        // included), and the document may mark some deprecated.
        #[allow(deprecated, clippy::disallowed_names)]
        impl $name {
            $(
                #[doc = concat!("Sets `", $wire, "` (`None` unsets it).")]
                $(#[deprecated $($deprecated)*])?
                pub fn $setter(mut self, $field: impl Into<Option<$ty>>) -> Self {
                    self.$field = $field.into();
                    self
                }
            )*

            /// Appends the query parameters that are set to `query`, in the document's
            /// order, each in its style.
            // Options of headers alone write nothing to `query`.
            #[allow(unused_variables)]
            pub fn append_query(
                &self,
                query: &mut crate::runtime::codegen::request::Query,
            ) -> Result<(), crate::runtime::codegen::error::SendError> {
                $($crate::__apigen_optional_parameters!(@query query, $wire, self.$field, $($($how)+)?);)*
                Ok(())
            }

            /// The query parameters that are set, as a query string (without `?`).
            pub fn query(&self) -> Result<String, crate::runtime::codegen::error::SendError> {
                let mut query = crate::runtime::codegen::request::Query::new();
                self.append_query(&mut query)?;
                Ok(query.finish())
            }
        }

        #[allow(deprecated)]
        impl crate::runtime::codegen::pages::Follow for $name {
            fn follow(&mut self, _name: &str, _value: &str) {
                $($crate::__apigen_optional_parameters!(@next self.$field, _name, _value, $wire, $($($how)+)?);)*
            }
        }
    };

    (@query $q:ident, $wire:literal, $v:expr, query $(, next)?) => {
        $q.append_opt($wire, $v.as_ref());
    };
    (@query $q:ident, $wire:literal, $v:expr, query(array, $explode:literal, $delimiter:literal) $(, next)?) => {
        if let Some(values) = &$v {
            $q.append_array($wire, values, $explode, $delimiter);
        }
    };
    (@query $q:ident, $wire:literal, $v:expr, query(object, $style:path) $(, next)?) => {
        if let Some(value) = &$v {
            $q.append_object($wire, value, $style)?;
        }
    };
    (@query $q:ident, $wire:literal, $v:expr, query(styled, $style:path, $explode:literal) $(, next)?) => {
        if let Some(value) = &$v {
            $q.append_styled($wire, value, $style, $explode)?;
        }
    };
    // A header, or a query parameter the generated method writes itself.
    (@query $q:ident, $wire:literal, $v:expr, $($other:tt)*) => {};

    (@next $v:expr, $name:ident, $value:ident, $wire:literal, $($query:ident $(($($args:tt)*))? ,)? next) => {
        if $name == $wire {
            $v = $value.parse().ok();
        }
    };
    (@next $($other:tt)*) => {};
}

#[doc(inline)]
pub use crate::__apigen_optional_parameters as parameters;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_its_template_with_each_value_encoded_in_order() {
        assert_eq!(path("/pets", &[]), "/pets");
        assert_eq!(path("/pets/{petId}", &[&7_i64]), "/pets/7");
        assert_eq!(
            path("/repos/{owner}/{repo}/issues", &[&"a b", &"c/d"]),
            "/repos/a%20b/c%2Fd/issues"
        );
        assert_eq!(path("/{a}{b}.json", &[&1_i32, &"é"]), "/1%C3%A9.json");
        assert_eq!(
            path("/{a}/{b}/{c}/{d}", &[&i64::MIN, &u64::MAX, &0_u8, &-7_i8]),
            "/-9223372036854775808/18446744073709551615/0/-7"
        );
        assert_eq!(path("/{a}", &[&String::from("x?y")]), "/x%3Fy");
        assert_eq!(path("/{a}", &[&true]), "/true");
    }
}
