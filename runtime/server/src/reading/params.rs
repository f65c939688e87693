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

    /// An object-valued query parameter, its members sent as `style` says (see
    /// [`ObjectQuery`]), each value parsed into its member's type as a form field is. None
    /// when no pair of it was sent (a violation when `required`) or when a member fails (the
    /// violation names it: `query/filter/since`).
    pub fn object<T: serde::de::DeserializeOwned>(
        &self,
        name: &str,
        style: ObjectQuery<'_>,
        required: bool,
        errs: &mut Violations,
    ) -> Option<T> {
        let at = pointer(Location::Query, name);
        let mut pairs: Vec<(String, String)> = Vec::new();
        if let ObjectQuery::Joined = style {
            let sent: Vec<&str> = self.query_as_sent(name).collect();
            if sent.len() > 1 {
                errs.push(at, repeated_message(sent.len()));
                return None;
            }
            if let Some(sent) = sent.first().filter(|s| !s.is_empty()) {
                // Split as sent, before decoding: an encoded comma is part of a name or value.
                let items: Vec<Cow<'_, str>> = sent.split(',').map(form_decode).collect();
                // Names and values in turn: an odd count leaves a name without its value.
                let in_turn = items.chunks_exact(2);
                if !in_turn.remainder().is_empty() {
                    errs.push(
                        at,
                        "expected names and values in turn (`name,value,...`), got an odd number of items",
                    );
                    return None;
                }
                pairs.extend(
                    in_turn.map(|kv| (kv[0].clone().into_owned(), kv[1].clone().into_owned())),
                );
            }
        } else {
            for (key, value) in form_urlencoded::parse(self.query.as_bytes()) {
                let member = match style {
                    ObjectQuery::Members(names) => names.contains(&&*key).then_some(key),
                    // Nor a deepObject's member of a parameter taken (`range[gt]`).
                    ObjectQuery::Rest(taken) => {
                        let owner = key.split_once('[').map_or(&*key, |(owner, _)| owner);
                        (!taken.contains(&&*key) && !taken.contains(&owner)).then_some(key)
                    }
                    ObjectQuery::Deep => key
                        .strip_prefix(name)
                        .and_then(|k| k.strip_prefix('['))
                        .and_then(|k| k.strip_suffix(']'))
                        .map(|k| Cow::Owned(k.to_owned())),
                    ObjectQuery::Joined => None,
                };
                if let Some(member) = member {
                    pairs.push((member.into_owned(), value.into_owned()));
                }
            }
        }
        if pairs.is_empty() {
            if required {
                errs.push(at, MISSING_PARAMETER);
            }
            return None;
        }
        match super::body::decode_pairs(pairs) {
            Ok(value) => Some(value),
            Err(mut violation) => {
                violation.pointer = format!("{at}{}", violation.pointer);
                errs.push_violation(violation);
                None
            }
        }
    }

    /// The one value of `name` at `loc` as sent, and how its pieces are decoded: a path
    /// segment and a query value percent-decoded (`+` a space in the query), a cookie
    /// percent-decoded, a header as it is.
    fn sent<'s>(
        &'s self,
        loc: Location,
        name: &str,
        errs: &mut Violations,
    ) -> Option<(Cow<'s, str>, Decode)> {
        fn percent(piece: &str) -> Option<String> {
            String::from_utf8(percent_decode(piece.as_bytes())).ok()
        }
        fn form(piece: &str) -> Option<String> {
            Some(form_decode(piece).into_owned())
        }
        fn header(piece: &str) -> Option<String> {
            Some(piece.trim().to_owned())
        }
        let at = pointer(loc, name);
        let many = |errs: &mut Violations, n: usize| errs.push(at.clone(), repeated_message(n));
        match loc {
            Location::Path => {
                let value = self.single(loc, name, errs)?;
                // Split as sent: a decoded `,` or `.` is a value's own.
                Some(match self.path_segment_as_sent(&value) {
                    Some(raw) => (Cow::Borrowed(raw), percent as Decode),
                    None => (value, (|p: &str| Some(p.to_owned())) as Decode),
                })
            }
            Location::Query => {
                let sent: Vec<&str> = self.query_as_sent(name).collect();
                if sent.len() > 1 {
                    many(errs, sent.len());
                    return None;
                }
                sent.first().map(|v| (Cow::Borrowed(*v), form as Decode))
            }
            Location::Cookie => {
                let sent: Vec<&str> = self.cookies_as_sent(name).collect();
                if sent.len() > 1 {
                    many(errs, sent.len());
                    return None;
                }
                sent.first().map(|v| (Cow::Borrowed(*v), percent as Decode))
            }
            Location::Header => self.single(loc, name, errs).map(|v| (v, header as Decode)),
        }
    }

    /// A scalar parameter written in `style` (a path's `label` or `matrix`: `.blue`,
    /// `;color=blue`), parsed as [`RawParams::required`] parses. None when absent (a
    /// violation when `required`) or when it does not read.
    pub fn styled<T: FromParam>(
        &self,
        loc: Location,
        name: &str,
        style: Style,
        required: bool,
        errs: &mut Violations,
    ) -> Option<T> {
        let before = errs.len();
        let Some((sent, decode)) = self.sent(loc, name, errs) else {
            if required && errs.len() == before {
                errs.push(pointer(loc, name), MISSING_PARAMETER);
            }
            return None;
        };
        match style.scalar(name, &sent, &decode) {
            Ok(raw) => parse_one(loc, name, &raw, errs),
            Err(message) => {
                errs.push(pointer(loc, name), message);
                None
            }
        }
    }

    /// A list parameter written in `style` as one value (`.blue.black`, `;c=blue;c=black`),
    /// each item parsed as [`RawParams::array`] parses them.
    pub fn styled_array<T: FromParam>(
        &self,
        loc: Location,
        name: &str,
        style: Style,
        explode: bool,
        required: bool,
        errs: &mut Violations,
    ) -> Option<Vec<T>> {
        let before = errs.len();
        let Some((sent, decode)) = self.sent(loc, name, errs) else {
            if required && errs.len() == before {
                errs.push(pointer(loc, name), MISSING_PARAMETER);
            }
            return None;
        };
        let items = match style.list(explode, name, &sent, &decode) {
            Ok(items) => items,
            Err(message) => {
                errs.push(pointer(loc, name), message);
                return None;
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

    /// An object parameter written in `style` as one value (a path's `R=100,G=200` or
    /// `;R=100;G=200`, a header's `R,100,G,200`, a cookie's, a query's `R|100|G|200`), each
    /// member parsed into its field's type as a form field is; a violation names the member
    /// (`path/color/R`).
    pub fn styled_object<T: serde::de::DeserializeOwned>(
        &self,
        loc: Location,
        name: &str,
        style: Style,
        explode: bool,
        required: bool,
        errs: &mut Violations,
    ) -> Option<T> {
        let at = pointer(loc, name);
        let before = errs.len();
        let Some((sent, decode)) = self.sent(loc, name, errs) else {
            if required && errs.len() == before {
                errs.push(at, MISSING_PARAMETER);
            }
            return None;
        };
        let pairs = match style.object(explode, name, &sent, &decode) {
            Ok(pairs) => pairs,
            Err(message) => {
                errs.push(at, message);
                return None;
            }
        };
        match super::body::decode_pairs(pairs) {
            Ok(value) => Some(value),
            Err(mut violation) => {
                violation.pointer = format!("{at}{}", violation.pointer);
                errs.push_violation(violation);
                None
            }
        }
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

/// How the pieces of a value written in a style are decoded (see `RawParams::sent`).
type Decode = fn(&str) -> Option<String>;

/// How the members of an object-valued query parameter are sent (OpenAPI's `style` and
/// `explode` for an object).
#[derive(Clone, Copy, Debug)]
pub enum ObjectQuery<'n> {
    /// `form`, exploded (the default): each member is a pair of its own, `role=admin`; these
    /// are the names of the object's properties.
    Members(&'n [&'n str]),
    /// `form`, exploded, for a map (any member names): every pair of the query that no other
    /// parameter of the operation names (these are the names taken; `name[…]` is taken with
    /// `name`).
    Rest(&'n [&'n str]),
    /// `form`, not exploded: one pair, names and values in turn, `id=role,admin,first,Alex`.
    Joined,
    /// `deepObject`: `id[role]=admin&id[first]=Alex`.
    Deep,
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

/// An operation's parameter struct read from a request (`declare!` implements it).
pub trait Read: Sized {
    /// Whether a field is a path parameter (the path's values are then taken first).
    const PATH: bool;

    /// Reads every parameter from `raw`; the problem lists every failure.
    fn read(raw: &RawParams<'_>) -> Result<Self, Problem>;
}

/// `P` read from `raw` ([`Read::read`]), its type the one the call it is passed to takes.
#[inline]
pub fn read<P: Read>(raw: &RawParams<'_>) -> Result<P, Problem> {
    P::read(raw)
}

/// Declares an operation's parameter struct and how each field is read: the struct as
/// written, every field under `#[param(…)]`, which says
///
/// - first, how it ends: `required` (a missing one is a violation; the field is `T`),
///   `optional` (the field is `Option<T>`) or `default(expr)` (the field is `T`, `expr` when
///   the request leaves it out);
/// - then where: `path("name")`, `query("name")`, `header("name")`, `cookie("name")`;
/// - then, for other than one plain value, the style: `array(explode)`,
///   `delimited(explode, '|')`, `object(ObjectQuery::Deep)`, `styled(Style::Label)`,
///   `styled_array(Style::Label, explode)`, `styled_object(Style::Simple, explode)`, `as_sent`
///   (a 3.2 cookie written as it is).
///
/// A field the schema constrains says how under `#[checks(…)]`, after `#[param(…)]`: the
/// schema's keywords in snake case, each the [`validate`](super::validate) function of its
/// name, `minimum(1)`, `exclusive_maximum(100)`, `multiple_of(5.0)`, `one_of(1, 2)`,
/// `min_length(1)`, `max_length(64)`, `pattern("^[a-z]+$")`, `format("email")`,
/// `min_items(1)`, `max_items(10)`, `unique_items`, `min_properties(1)`,
/// `max_properties(8)`, and `validate` for a named type with checks of its own. (A
/// parameter whose checks say more, decimals' exact bounds, each item's own or a schema held
/// as written, is read in its handler instead.)
///
/// It expands to the struct and its [`Read`], which reads every field from a request's
/// [`RawParams`] by the [`RawParams`] method the words name, checks each read value,
/// collects every failure, and fails (with all of them) only after the last field was read
/// and checked, as one 400 lists every problem. A struct without fields is declared too (its
/// `read` takes nothing).
///
/// ```ignore
/// params::declare! {
///     /// Parameters of `getPet`.
///     #[derive(Debug, Clone, PartialEq)]
///     pub struct GetPetParams {
///         #[param(required, path("petId"))]
///         pub pet_id: i64,
///         #[param(default(20), query("limit"))]
///         #[checks(minimum(1), maximum(100))]
///         pub limit: i32,
///     }
/// }
/// ```
#[doc(hidden)]
#[macro_export]
// `crate::runtime`, not `$crate`: the runtime as the calling crate names it (see `object::json!`).
#[allow(clippy::crate_in_macro_def)]
macro_rules! __apigen_params {
    (
        $(#[doc = $doc:literal])*
        #[derive($($derive:tt)*)]
        $vis:vis struct $name:ident {
            $(
                $(#[doc = $field_doc:literal])*
                #[param($($how:tt)*)]
                $(#[checks($($checks:tt)*)])?
                $field_vis:vis $field:ident: $ty:ty,
            )*
        }
    ) => {
        $(#[doc = $doc])*
        #[derive($($derive)*)]
        $vis struct $name {
            $($(#[doc = $field_doc])* $field_vis $field: $ty,)*
        }

        // Each field is read into a local of its own name (the document's, `foo` included).
        #[allow(clippy::disallowed_names)]
        impl crate::runtime::codegen::params::Read for $name {
            const PATH: bool = false $(|| $crate::__apigen_params!(@path $($how)*))*;

            // A struct without fields reads nothing from `raw`.
            #[inline]
            #[allow(unused_variables)]
            fn read(
                raw: &crate::runtime::codegen::params::RawParams<'_>,
            ) -> Result<Self, crate::runtime::codegen::problem::Problem> {
                let mut errors = crate::runtime::codegen::validate::Violations::new();
                $(
                    let $field: $crate::__apigen_params!(@local $ty, $($how)*) =
                        $crate::__apigen_params!(@read raw, errors, $($how)*);
                )*
                // Checked before any return, so that one 400 lists every problem.
                $($crate::__apigen_params!(@checks errors, $field, [$($how)*], $($($checks)*)?);)*
                $($crate::__apigen_params!(@take errors, $field, $($how)*);)*
                errors.check()?;
                Ok(Self { $($field),* })
            }
        }
    };

    // What a field is read into: a required one's `Option` until every field was read.
    (@local $ty:ty, required $($rest:tt)*) => { Option<$ty> };
    (@local $ty:ty, $($rest:tt)*) => { $ty };

    // A field's checks, on its value where it has one, located as `query/limit`.
    (@checks $errors:ident, $field:ident, [$($how:tt)*],) => {};
    (@checks $errors:ident, $field:ident, [default($($default:tt)*), $loc:ident($wire:literal) $($rest:tt)*], $($check:tt)*) => {
        let value = &$field;
        let at = concat!(stringify!($loc), "/", $wire);
        $crate::__apigen_params!(@check value, at, $errors, $($check)*);
    };
    (@checks $errors:ident, $field:ident, [$finish:ident, $loc:ident($wire:literal) $($rest:tt)*], $($check:tt)*) => {
        if let Some(value) = &$field {
            let at = concat!(stringify!($loc), "/", $wire);
            $crate::__apigen_params!(@check value, at, $errors, $($check)*);
        }
    };
    // Each check word, the `validate` function it names (the schema's keyword, snake case).
    (@check $value:ident, $at:ident, $errors:ident, $(,)?) => {};
    (@check $value:ident, $at:ident, $errors:ident, minimum($bound:expr) $(, $($rest:tt)*)?) => {
        crate::runtime::codegen::validate::check_minimum(*$value, $bound, false, $at, &mut $errors);
        $crate::__apigen_params!(@check $value, $at, $errors, $($($rest)*)?);
    };
    (@check $value:ident, $at:ident, $errors:ident, exclusive_minimum($bound:expr) $(, $($rest:tt)*)?) => {
        crate::runtime::codegen::validate::check_minimum(*$value, $bound, true, $at, &mut $errors);
        $crate::__apigen_params!(@check $value, $at, $errors, $($($rest)*)?);
    };
    (@check $value:ident, $at:ident, $errors:ident, maximum($bound:expr) $(, $($rest:tt)*)?) => {
        crate::runtime::codegen::validate::check_maximum(*$value, $bound, false, $at, &mut $errors);
        $crate::__apigen_params!(@check $value, $at, $errors, $($($rest)*)?);
    };
    (@check $value:ident, $at:ident, $errors:ident, exclusive_maximum($bound:expr) $(, $($rest:tt)*)?) => {
        crate::runtime::codegen::validate::check_maximum(*$value, $bound, true, $at, &mut $errors);
        $crate::__apigen_params!(@check $value, $at, $errors, $($($rest)*)?);
    };
    (@check $value:ident, $at:ident, $errors:ident, multiple_of($factor:expr) $(, $($rest:tt)*)?) => {
        crate::runtime::codegen::validate::check_multiple_of(*$value, $factor, $at, &mut $errors);
        $crate::__apigen_params!(@check $value, $at, $errors, $($($rest)*)?);
    };
    (@check $value:ident, $at:ident, $errors:ident, one_of($($allowed:expr),+ $(,)?) $(, $($rest:tt)*)?) => {
        crate::runtime::codegen::validate::check_one_of($value, &[$($allowed),*], $at, &mut $errors);
        $crate::__apigen_params!(@check $value, $at, $errors, $($($rest)*)?);
    };
    (@check $value:ident, $at:ident, $errors:ident, $word:ident($n:literal) $(, $($rest:tt)*)?) => {
        $crate::__apigen_params!(@sized $word, $value, $n, $at, $errors);
        $crate::__apigen_params!(@check $value, $at, $errors, $($($rest)*)?);
    };
    (@check $value:ident, $at:ident, $errors:ident, unique_items $(, $($rest:tt)*)?) => {
        crate::runtime::codegen::validate::check_unique_items($value, $at, &mut $errors);
        $crate::__apigen_params!(@check $value, $at, $errors, $($($rest)*)?);
    };
    // A named type with checks of its own checks itself.
    (@check $value:ident, $at:ident, $errors:ident, validate $(, $($rest:tt)*)?) => {
        crate::runtime::codegen::validate::Validate::validate($value, $at, &mut $errors);
        $crate::__apigen_params!(@check $value, $at, $errors, $($($rest)*)?);
    };
    (@sized min_length, $value:ident, $n:literal, $at:ident, $errors:ident) => {
        crate::runtime::codegen::validate::check_min_length($value, $n, $at, &mut $errors)
    };
    (@sized max_length, $value:ident, $n:literal, $at:ident, $errors:ident) => {
        crate::runtime::codegen::validate::check_max_length($value, $n, $at, &mut $errors)
    };
    (@sized pattern, $value:ident, $n:literal, $at:ident, $errors:ident) => {
        crate::runtime::codegen::validate::check_pattern($value, $n, $at, &mut $errors)
    };
    (@sized format, $value:ident, $n:literal, $at:ident, $errors:ident) => {
        crate::runtime::codegen::validate::check_format($value, $n, $at, &mut $errors)
    };
    (@sized min_items, $value:ident, $n:literal, $at:ident, $errors:ident) => {
        crate::runtime::codegen::validate::check_min_items($value, $n, $at, &mut $errors)
    };
    (@sized max_items, $value:ident, $n:literal, $at:ident, $errors:ident) => {
        crate::runtime::codegen::validate::check_max_items($value, $n, $at, &mut $errors)
    };
    (@sized min_properties, $value:ident, $n:literal, $at:ident, $errors:ident) => {
        crate::runtime::codegen::validate::check_min_properties($value.len(), $n, $at, &mut $errors)
    };
    (@sized max_properties, $value:ident, $n:literal, $at:ident, $errors:ident) => {
        crate::runtime::codegen::validate::check_max_properties($value.len(), $n, $at, &mut $errors)
    };

    (@path $finish:ident $(($($default:tt)*))?, path $($rest:tt)*) => { true };
    (@path $($other:tt)*) => { false };

    // A required field is taken out of its `Option` after every field was read.
    (@take $errors:ident, $field:ident, required $($rest:tt)*) => {
        let Some($field) = $field else {
            return Err($errors.into_problem());
        };
    };
    (@take $($other:tt)*) => {};

    (@read $raw:ident, $errors:ident, required, $($read:tt)*) => {
        $crate::__apigen_params!(@form $raw, $errors, true, $($read)*)
    };
    (@read $raw:ident, $errors:ident, optional, $($read:tt)*) => {
        $crate::__apigen_params!(@form $raw, $errors, false, $($read)*)
    };
    (@read $raw:ident, $errors:ident, default($default:expr), $($read:tt)*) => {
        $crate::__apigen_params!(@form $raw, $errors, false, $($read)*).unwrap_or($default)
    };

    (@form $raw:ident, $errors:ident, true, $loc:ident($wire:literal)) => {
        $raw.required($crate::__apigen_params!(@loc $loc), $wire, &mut $errors)
    };
    (@form $raw:ident, $errors:ident, false, $loc:ident($wire:literal)) => {
        $raw.optional($crate::__apigen_params!(@loc $loc), $wire, &mut $errors)
    };
    (@form $raw:ident, $errors:ident, true, $loc:ident($wire:literal), array($explode:literal)) => {
        $raw.required_array($crate::__apigen_params!(@loc $loc), $wire, $explode, &mut $errors)
    };
    (@form $raw:ident, $errors:ident, false, $loc:ident($wire:literal), array($explode:literal)) => {
        $raw.array($crate::__apigen_params!(@loc $loc), $wire, $explode, &mut $errors)
    };
    (@form $raw:ident, $errors:ident, true, $loc:ident($wire:literal), delimited($explode:literal, $delimiter:literal)) => {
        $raw.required_delimited_array(
            $crate::__apigen_params!(@loc $loc),
            $wire,
            $explode,
            $delimiter,
            &mut $errors,
        )
    };
    (@form $raw:ident, $errors:ident, false, $loc:ident($wire:literal), delimited($explode:literal, $delimiter:literal)) => {
        $raw.delimited_array(
            $crate::__apigen_params!(@loc $loc),
            $wire,
            $explode,
            $delimiter,
            &mut $errors,
        )
    };
    (@form $raw:ident, $errors:ident, true, cookie($wire:literal), as_sent) => {
        $raw.required_cookie_as_sent($wire, &mut $errors)
    };
    (@form $raw:ident, $errors:ident, false, cookie($wire:literal), as_sent) => {
        $raw.optional_cookie_as_sent($wire, &mut $errors)
    };
    (@form $raw:ident, $errors:ident, $required:literal, query($wire:literal), object($style:expr)) => {
        $raw.object($wire, $style, $required, &mut $errors)
    };
    (@form $raw:ident, $errors:ident, $required:literal, $loc:ident($wire:literal), styled($style:expr)) => {
        $raw.styled($crate::__apigen_params!(@loc $loc), $wire, $style, $required, &mut $errors)
    };
    (@form $raw:ident, $errors:ident, $required:literal, $loc:ident($wire:literal), styled_array($style:expr, $explode:literal)) => {
        $raw.styled_array(
            $crate::__apigen_params!(@loc $loc),
            $wire,
            $style,
            $explode,
            $required,
            &mut $errors,
        )
    };
    (@form $raw:ident, $errors:ident, $required:literal, $loc:ident($wire:literal), styled_object($style:expr, $explode:literal)) => {
        $raw.styled_object(
            $crate::__apigen_params!(@loc $loc),
            $wire,
            $style,
            $explode,
            $required,
            &mut $errors,
        )
    };

    (@loc path) => { crate::runtime::codegen::params::Location::Path };
    (@loc query) => { crate::runtime::codegen::params::Location::Query };
    (@loc header) => { crate::runtime::codegen::params::Location::Header };
    (@loc cookie) => { crate::runtime::codegen::params::Location::Cookie };
}

#[doc(inline)]
pub use crate::__apigen_params as declare;
