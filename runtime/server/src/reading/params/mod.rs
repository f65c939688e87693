//! Owns parameter parsing: raw path/query/header/cookie values in, typed values out, with every
//! failure collected as a violation ("query/limit: expected an integer (int64), got \"abc\"").
//! Nothing here panics on client input.
//!
//! Decision: `docs/decisions/0016-server-params-declared.md`.

use std::borrow::Cow;
use std::fmt;

use axum::extract::rejection::RawPathParamsRejection;
use axum::extract::{FromRequestParts, RawPathParams};
use http::HeaderMap;
use http::request::Parts;

pub use super::from_param::{FromParam, expected};
use super::problem::Problem;
pub use super::style::Style;
use super::validate::{MISSING_PARAMETER, Violations};

mod declared;
mod styled;
pub use declared::{Read, declare, read};
pub use styled::ObjectQuery;

/// Where a parameter lives, as OpenAPI's `in` says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    /// A segment of the path (`/pets/{petId}`).
    Path,
    /// The query string.
    Query,
    /// A request header.
    Header,
    /// A cookie of the `Cookie` header.
    Cookie,
}

impl Location {
    /// The name OpenAPI gives the location (`path`, `query`, `header`, `cookie`), as a
    /// violation's pointer starts with it.
    pub fn as_str(self) -> &'static str {
        match self {
            Location::Path => "path",
            Location::Query => "query",
            Location::Header => "header",
            Location::Cookie => "cookie",
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The path parameters of one request, percent-decoded: the ones axum matched (taken over
/// as axum stores them, nothing copied) or ones given directly (tests, own routers).
#[derive(Debug, Default)]
pub struct PathParams(PathSource);

#[derive(Debug)]
enum PathSource {
    Matched(RawPathParams),
    /// Empty for an operation without path parameters (no allocation).
    Given(Vec<(String, String)>),
}

impl Default for PathSource {
    fn default() -> Self {
        PathSource::Given(Vec::new())
    }
}

impl PathParams {
    /// No path parameters (the operation's path has none).
    pub fn none() -> Self {
        PathParams::default()
    }

    /// Every `(name, value)` pair, in path order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        let (matched, given): (_, &[(String, String)]) = match &self.0 {
            PathSource::Matched(raw) => (Some(raw), &[]),
            PathSource::Given(pairs) => (None, pairs),
        };
        matched
            .into_iter()
            .flat_map(|raw| raw.iter())
            .chain(given.iter().map(|(k, v)| (k.as_str(), v.as_str())))
    }
}

impl Clone for PathParams {
    // axum's `RawPathParams` is not `Clone`: a copy holds the pairs themselves.
    fn clone(&self) -> Self {
        self.iter()
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect()
    }
}

impl FromIterator<(String, String)> for PathParams {
    fn from_iter<I: IntoIterator<Item = (String, String)>>(pairs: I) -> Self {
        PathParams(PathSource::Given(pairs.into_iter().collect()))
    }
}

/// The path parameters axum matched, percent-decoded. A path segment that does not decode to
/// UTF-8 (`/pets/%FF`) is a 400 problem, not axum's plain-text rejection.
pub async fn path_params(parts: &mut Parts) -> Result<PathParams, Problem> {
    match RawPathParams::from_request_parts(parts, &()).await {
        Ok(raw) => Ok(PathParams(PathSource::Matched(raw))),
        Err(rejection) => {
            // The only client-caused rejection is invalid UTF-8 in a segment; a handler used on
            // a route without parameters also lands here and gets no parameters.
            if matches!(rejection, RawPathParamsRejection::InvalidUtf8InPathParam(_)) {
                Err(Problem::bad_request(
                    "a path segment is not valid percent-encoded UTF-8",
                ))
            } else {
                Ok(PathParams::none())
            }
        }
    }
}

/// A cookie value as the document's parameter means it: percent-decoded, `+` kept.
///
/// RFC 6265 gives a cookie value no encoding and forbids spaces, `"`, `,`, `;` and `\\` in
/// it, so a value holding those must be encoded somehow; OpenAPI's cookie parameters use
/// `style: form` (RFC 6570 form expansion, which percent-encodes like a query value with
/// space as `%20`, as the OpenAPI 3.2 style table spells out), and the generated client
/// encodes them so. `+` is not a space here (that is HTML forms' rule, not RFC 6570's). A `%`
/// not followed by two hex digits stays as it is, as browsers' decoders keep it; None when
/// the decoded bytes are not UTF-8.
fn cookie_value(value: &str) -> Option<Cow<'_, str>> {
    if !value.contains('%') {
        return Some(Cow::Borrowed(value));
    }
    String::from_utf8(percent_decode(value.as_bytes()))
        .ok()
        .map(Cow::Owned)
}

/// Every raw parameter value of one request, borrowed from the request's head: nothing is
/// copied up front. The query string is decoded and the `Cookie` headers are split only when
/// a parameter is asked for, and only as far as that parameter needs.
#[derive(Clone, Debug, Default)]
pub struct RawParams<'a> {
    path: PathParams,
    /// The request's path as sent (still percent-encoded), for arrays in a path segment.
    raw_path: Cow<'a, str>,
    /// The raw query string ("" when the URI has none).
    query: Cow<'a, str>,
    headers: Cow<'a, HeaderMap>,
}

impl<'a> RawParams<'a> {
    /// `path_params` comes from [`path_params`]. The query string is form-decoded (`+` is a
    /// space); cookies are taken from every `Cookie` header, their values percent-decoded
    /// (see `cookie_value`).
    #[inline]
    pub fn from_parts(parts: &'a Parts, path_params: PathParams) -> Self {
        RawParams {
            path: path_params,
            raw_path: Cow::Borrowed(parts.uri.path()),
            query: Cow::Borrowed(parts.uri.query().unwrap_or("")),
            headers: Cow::Borrowed(&parts.headers),
        }
    }

    /// [`path_params`] then [`RawParams::from_parts`].
    pub async fn from_request_parts(parts: &'a mut Parts) -> Result<RawParams<'a>, Problem> {
        let path = path_params(parts).await?;
        Ok(RawParams::from_parts(parts, path))
    }

    /// The same values, no longer borrowing the request (copies the query string and the
    /// headers).
    pub fn into_owned(self) -> RawParams<'static> {
        RawParams {
            path: self.path,
            raw_path: Cow::Owned(self.raw_path.into_owned()),
            query: Cow::Owned(self.query.into_owned()),
            headers: Cow::Owned(self.headers.into_owned()),
        }
    }

    /// Calls `each` with every raw value of `name` at `loc`, in request order, while it
    /// returns true. Header names are case-insensitive; the others are not. A header value
    /// that is not text is a violation (and skipped).
    fn visit<'s>(
        &'s self,
        loc: Location,
        name: &str,
        errs: &mut Violations,
        mut each: impl FnMut(Cow<'s, str>) -> bool,
    ) {
        match loc {
            Location::Path => {
                for (k, v) in self.path.iter() {
                    if k == name && !each(Cow::Borrowed(v)) {
                        return;
                    }
                }
            }
            Location::Query => {
                // A set of one char, not the `'&'` pattern: this runs once per parameter
                // per request over a short string, where the char searcher's set-up is most
                // of the cost.
                for pair in self.query.split(['&']) {
                    if let Some(v) = query_value(pair, name)
                        && !each(v)
                    {
                        return;
                    }
                }
            }
            Location::Header => {
                for v in self.headers.get_all(name) {
                    match v.to_str() {
                        Ok(s) => {
                            if !each(Cow::Borrowed(s)) {
                                return;
                            }
                        }
                        Err(_) => {
                            errs.push(pointer(loc, name), "header value is not visible ASCII text")
                        }
                    }
                }
            }
            Location::Cookie => {
                for v in self.cookies_as_sent(name) {
                    let Some(v) = cookie_value(v) else {
                        errs.push(
                            pointer(loc, name),
                            "cookie value is not valid percent-encoded UTF-8",
                        );
                        continue;
                    };
                    if !each(v) {
                        return;
                    }
                }
            }
        }
    }

    /// The values of the cookie `name` as sent (not percent-decoded), from every `Cookie`
    /// header, in order. RFC 6265 allows a value in double quotes; the quotes are not part of it.
    fn cookies_as_sent<'s, 'n>(
        &'s self,
        name: &'n str,
    ) -> impl Iterator<Item = &'s str> + use<'s, 'n> {
        self.headers
            .get_all(http::header::COOKIE)
            .into_iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(';'))
            .filter_map(move |pair| {
                let pair = pair.trim();
                if pair.is_empty() {
                    return None;
                }
                let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                if k.trim() != name {
                    return None;
                }
                let v = v.trim();
                Some(
                    v.strip_prefix('"')
                        .and_then(|v| v.strip_suffix('"'))
                        .unwrap_or(v),
                )
            })
    }

    /// The raw values of a query parameter (as sent, still encoded), in request order.
    fn query_as_sent<'s, 'n>(
        &'s self,
        name: &'n str,
    ) -> impl Iterator<Item = &'s str> + use<'s, 'n> {
        self.query.split(['&']).filter_map(move |pair| {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            (!pair.is_empty() && query_value(key, name).is_some()).then_some(value)
        })
    }

    /// The path segment as sent whose decoded form is `value`, when exactly one is.
    fn path_segment_as_sent(&self, value: &str) -> Option<&str> {
        let mut found = None;
        for segment in self.raw_path.split('/') {
            if percent_decode(segment.as_bytes()) == value.as_bytes() {
                match found {
                    Some(f) if f != segment => return None,
                    _ => found = Some(segment),
                }
            }
        }
        found
    }

    /// Every raw value of `name` at `loc`, in request order.
    fn values<'s>(&'s self, loc: Location, name: &str, errs: &mut Violations) -> Vec<Cow<'s, str>> {
        let mut out = Vec::new();
        self.visit(loc, name, errs, |v| {
            out.push(v);
            true
        });
        out
    }

    /// The raw value of a single-valued parameter. Given more than once (`?limit=5&limit=6`,
    /// two header lines, a cookie sent twice) is a violation and None: a proxy in front of the
    /// service may read another of the values than we would, so neither is guessed.
    fn single<'s>(
        &'s self,
        loc: Location,
        name: &str,
        errs: &mut Violations,
    ) -> Option<Cow<'s, str>> {
        let mut first = None;
        let mut count = 0usize;
        self.visit(loc, name, errs, |v| {
            count += 1;
            if first.is_none() {
                first = Some(v);
            }
            true
        });
        if count > 1 {
            errs.push(pointer(loc, name), repeated_message(count));
            return None;
        }
        first
    }

    /// A required parameter: a violation when absent, given more than once or unparsable.
    pub fn required<T: FromParam>(
        &self,
        loc: Location,
        name: &str,
        errs: &mut Violations,
    ) -> Option<T> {
        let before = errs.len();
        match self.single(loc, name, errs) {
            Some(raw) => parse_one(loc, name, &raw, errs),
            None => {
                if errs.len() == before {
                    errs.push(pointer(loc, name), MISSING_PARAMETER);
                }
                None
            }
        }
    }

    /// An optional parameter: None when absent (no violation), a violation when given more
    /// than once or unparsable.
    pub fn optional<T: FromParam>(
        &self,
        loc: Location,
        name: &str,
        errs: &mut Violations,
    ) -> Option<T> {
        self.single(loc, name, errs)
            .and_then(|raw| parse_one(loc, name, &raw, errs))
    }

    /// An array parameter. `explode` (OpenAPI's default for query and cookie): one key per
    /// item, `?tag=a&tag=b`; otherwise one comma-separated value, `?tag=a,b` (the form headers
    /// and path segments always use). None when absent or when any item fails (each failing
    /// item is a violation named `"<loc>/<name>/<index>"`). An empty value is an empty array.
    /// The value is split as sent, before it is decoded: an encoded comma (`a%2Cb`) is part
    /// of an item, as RFC 6570 writes one (headers are not encoded: a comma there always
    /// separates).
    pub fn array<T: FromParam>(
        &self,
        loc: Location,
        name: &str,
        explode: bool,
        errs: &mut Violations,
    ) -> Option<Vec<T>> {
        self.delimited_array(loc, name, explode, ',', errs)
    }

    /// [`RawParams::array`] with another delimiter between the items of a value that is not
    /// exploded: `'|'` for `style: pipeDelimited`, `' '` for `spaceDelimited` (a space is
    /// always encoded in a query, so those items are split after decoding).
    pub fn delimited_array<T: FromParam>(
        &self,
        loc: Location,
        name: &str,
        explode: bool,
        delimiter: char,
        errs: &mut Violations,
    ) -> Option<Vec<T>> {
        let values = self.values(loc, name, errs);
        if values.is_empty() {
            return None;
        }
        let items: Vec<Cow<'_, str>> =
            if explode && matches!(loc, Location::Query | Location::Cookie) {
                values
            } else {
                match loc {
                    // A pipe: `|` as the generated client writes it, else `%7C` as OpenAPI
                    // 3.1.1's table spells it (see `style::Style::PipeDelimited`).
                    Location::Query if delimiter == '|' => self
                        .query_as_sent(name)
                        .filter(|v| !v.is_empty())
                        .flat_map(|v| {
                            let pieces: Vec<&str> = if v.contains('|') {
                                v.split('|').collect()
                            } else {
                                v.split("%7C").flat_map(|p| p.split("%7c")).collect()
                            };
                            pieces
                        })
                        .map(form_decode)
                        .collect(),
                    Location::Query if delimiter != ' ' => self
                        .query_as_sent(name)
                        .filter(|v| !v.is_empty())
                        .flat_map(|v| v.split(delimiter))
                        .map(form_decode)
                        .collect(),
                    Location::Cookie if delimiter != ' ' => {
                        let mut items = Vec::new();
                        for piece in self
                            .cookies_as_sent(name)
                            .filter(|v| !v.is_empty())
                            .flat_map(|v| v.split(delimiter))
                        {
                            match cookie_value(piece) {
                                Some(item) => items.push(item),
                                None => {
                                    errs.push(
                                        pointer(loc, name),
                                        "cookie value is not valid percent-encoded UTF-8",
                                    );
                                    return None;
                                }
                            }
                        }
                        items
                    }
                    Location::Path => {
                        let mut items = Vec::new();
                        for v in values.iter().filter(|v| !v.is_empty()) {
                            match self.path_segment_as_sent(v) {
                                // Split as sent, then decoded (the segment was valid UTF-8 whole).
                                Some(raw) => items.extend(raw.split(delimiter).map(|piece| {
                                    Cow::Owned(
                                        String::from_utf8_lossy(&percent_decode(piece.as_bytes()))
                                            .into_owned(),
                                    )
                                })),
                                None => items
                                    .extend(v.split(delimiter).map(|s| Cow::Owned(s.to_owned()))),
                            }
                        }
                        items
                    }
                    _ => values
                        .iter()
                        .filter(|v| !v.is_empty())
                        .flat_map(|v| v.split(delimiter))
                        .map(|v| {
                            let v = if loc == Location::Header { v.trim() } else { v };
                            Cow::Owned(v.to_owned())
                        })
                        .collect(),
                }
            };
        let mut out = Vec::with_capacity(items.len());
        let mut ok = true;
        for (i, raw) in items.iter().enumerate() {
            match T::from_param(raw) {
                Ok(v) => out.push(v),
                Err(msg) => {
                    ok = false;
                    errs.push(format!("{}/{i}", pointer(loc, name)), msg);
                }
            }
        }
        ok.then_some(out)
    }

    /// Like [`RawParams::delimited_array`], with a violation when the parameter is absent.
    pub fn required_delimited_array<T: FromParam>(
        &self,
        loc: Location,
        name: &str,
        explode: bool,
        delimiter: char,
        errs: &mut Violations,
    ) -> Option<Vec<T>> {
        if !self.contains(loc, name) {
            errs.push(pointer(loc, name), MISSING_PARAMETER);
            return None;
        }
        self.delimited_array(loc, name, explode, delimiter, errs)
    }

    /// A cookie parameter of `style: cookie` (OpenAPI 3.2): its value as sent, without the
    /// percent-decoding of `style: form`. None when absent (no violation), a violation when
    /// given more than once or unparsable.
    pub fn optional_cookie_as_sent<T: FromParam>(
        &self,
        name: &str,
        errs: &mut Violations,
    ) -> Option<T> {
        let loc = Location::Cookie;
        let mut values = self.cookies_as_sent(name);
        let first = values.next()?;
        let count = 1 + values.count();
        if count > 1 {
            errs.push(pointer(loc, name), repeated_message(count));
            return None;
        }
        parse_one(loc, name, first, errs)
    }

    /// Like [`RawParams::optional_cookie_as_sent`], with a violation when absent.
    pub fn required_cookie_as_sent<T: FromParam>(
        &self,
        name: &str,
        errs: &mut Violations,
    ) -> Option<T> {
        if self.cookies_as_sent(name).next().is_none() {
            errs.push(pointer(Location::Cookie, name), MISSING_PARAMETER);
            return None;
        }
        self.optional_cookie_as_sent(name, errs)
    }

    /// Like [`RawParams::array`], with a violation when the parameter is absent.
    pub fn required_array<T: FromParam>(
        &self,
        loc: Location,
        name: &str,
        explode: bool,
        errs: &mut Violations,
    ) -> Option<Vec<T>> {
        if !self.contains(loc, name) {
            errs.push(pointer(loc, name), MISSING_PARAMETER);
            return None;
        }
        self.array(loc, name, explode, errs)
    }

    /// Whether the request carries the parameter `name` in `loc` at all (with any value).
    pub fn contains(&self, loc: Location, name: &str) -> bool {
        let mut found = false;
        self.visit(loc, name, &mut Violations::new(), |_| {
            found = true;
            false
        });
        found
    }
}

/// The value of one `name=value` piece of a query string when its name is `name`, both
/// decoded as `form_urlencoded::parse` decodes them (`+` is a space, `%XX` escapes, invalid
/// UTF-8 replaced); None for another name or an empty piece.
///
/// Every parameter lookup goes through the whole query string, so only what is needed is
/// decoded: text without `%` or `+` (the usual case) decodes to itself and is compared or
/// borrowed as sent, and a value is decoded only when its name matched.
pub(crate) fn query_value<'q>(pair: &'q str, name: &str) -> Option<Cow<'q, str>> {
    if pair.is_empty() {
        return None;
    }
    // One pass: where the name ends, and whether the name or the value has anything to
    // decode.
    let mut split = None;
    let (mut key_escaped, mut value_escaped) = (false, false);
    for (i, b) in pair.bytes().enumerate() {
        match b {
            b'=' if split.is_none() => split = Some(i),
            b'%' | b'+' if split.is_none() => key_escaped = true,
            b'%' | b'+' => value_escaped = true,
            _ => {}
        }
    }
    if !key_escaped {
        let (key, value) = match split {
            Some(i) => (&pair[..i], &pair[i + 1..]),
            None => (pair, ""),
        };
        if key != name {
            return None;
        }
        if !value_escaped {
            return Some(Cow::Borrowed(value));
        }
    }
    // Something to decode: the piece is one pair to `form_urlencoded` (it holds no `&`).
    let (key, value) = form_urlencoded::parse(pair.as_bytes()).next()?;
    (key == name).then_some(value)
}

/// A piece of a query value as `form_urlencoded` decodes one: `+` is a space, `%XX` escapes,
/// invalid UTF-8 replaced.
fn form_decode(piece: &str) -> Cow<'_, str> {
    if !piece.contains(['%', '+']) {
        return Cow::Borrowed(piece);
    }
    let spaced = piece.replace('+', " ");
    Cow::Owned(String::from_utf8_lossy(&percent_decode(spaced.as_bytes())).into_owned())
}

/// The violation message for a single-valued input sent `count` times.
pub(crate) fn repeated_message(count: usize) -> String {
    format!("given {count} times; a single value is expected")
}

/// `"<location>/<name>"`, the pointer of a parameter in violations.
pub fn pointer(loc: Location, name: &str) -> String {
    format!("{}/{name}", loc.as_str())
}

fn parse_one<T: FromParam>(
    loc: Location,
    name: &str,
    raw: &str,
    errs: &mut Violations,
) -> Option<T> {
    match T::from_param(raw) {
        Ok(v) => Some(v),
        Err(msg) => {
            errs.push(pointer(loc, name), msg);
            None
        }
    }
}

/// An OpenAPI 3.2 `in: querystring` parameter with `application/x-www-form-urlencoded`
/// content: the query string's pairs are the fields of `T`, decoded as a form body is (same
/// 400 problem, the bad field's pointer). An optional one is `None` when the request has no
/// query string (or an empty one); a required one decodes even an empty query string, so a
/// missing required field is reported by name.
pub fn query_string_form<T: serde::de::DeserializeOwned>(
    parts: &Parts,
    required: bool,
) -> Result<Option<T>, Problem> {
    let query = parts.uri.query().unwrap_or("");
    if query.is_empty() && !required {
        return Ok(None);
    }
    super::body::decode_form(query.as_bytes()).map(Some)
}

/// An `in: querystring` parameter with JSON content: the query string is the percent-encoded
/// JSON text of a `T` (`?%7B%22limit%22%3A3%7D`), decoded as a JSON body is (same 400 problem
/// with the bad value's pointer). Absent or empty as in [`query_string_form`].
pub fn query_string_json<T: serde::de::DeserializeOwned>(
    parts: &Parts,
    required: bool,
) -> Result<Option<T>, Problem> {
    let query = parts.uri.query().unwrap_or("");
    if query.is_empty() && !required {
        return Ok(None);
    }
    super::body::decode_json(&percent_decode(query.as_bytes())).map(Some)
}

/// `%XX` escapes decoded (`+` stays `+`: this is not form encoding); a `%` not followed by two
/// hex digits is kept as it is.
fn percent_decode(raw: &[u8]) -> Vec<u8> {
    let hex = |b: Option<&u8>| b.and_then(|b| (*b as char).to_digit(16)).map(|d| d as u8);
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        match (raw[i], hex(raw.get(i + 1)), hex(raw.get(i + 2))) {
            (b'%', Some(high), Some(low)) => {
                out.push(high * 16 + low);
                i += 3;
            }
            (byte, _, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    out
}

/// An `in: querystring` parameter of another media type: the query string as sent (still
/// percent-encoded), `None` when there is none.
pub fn query_string_raw(parts: &Parts) -> Option<String> {
    parts
        .uri
        .query()
        .filter(|q| !q.is_empty())
        .map(str::to_owned)
}
