//! Parameters sent in a style other than one plain value: an object-valued query parameter
//! ([`ObjectQuery`]) and values written in a path, header or cookie style (`label`,
//! `matrix`, `simple`, `form`), each read into its type with every failure a violation.

use super::*;

impl RawParams<'_> {
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
        match super::super::body::decode_pairs(pairs) {
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
        match super::super::body::decode_pairs(pairs) {
            Ok(value) => Some(value),
            Err(mut violation) => {
                violation.pointer = format!("{at}{}", violation.pointer);
                errs.push_violation(violation);
                None
            }
        }
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
