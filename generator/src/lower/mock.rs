//! What the generated mock answers (`ir::MockAnswer`): per operation, a documented response
//! and candidate values for its body and headers, made from the document's examples and from
//! the types themselves. Values are made from the IR's types (what the server's serde types
//! and checks accept), not from the raw schemas, so a made-up value decodes into the Rust type
//! and passes its `Validate`; the mock still checks every candidate at run time and uses the
//! first that does (an example may not fit its schema).
//!
//! Decision: `docs/decisions/0005-the-mock.md`.

use std::collections::BTreeMap;

use serde_json::{Map, Number, Value};
use std::cell::RefCell;

use crate::ir::{
    BodyKind, Bound, Constraints, MockAnswer, Operation, Status, TypeDef, TypeKind, TypeRef, Usage,
};

/// Below this depth a made-up value leaves optional fields out and arrays empty, so that a
/// recursive type ends.
const SHALLOW: usize = 4;
/// Past this depth even required fields of a recursive type get `null`.
const DEEPEST: usize = 24;

/// Fills in [`Operation::mock`] and [`Operation::usage`] for every operation.
pub fn plan(ops: &mut [Operation], types: &[TypeDef]) {
    let types: BTreeMap<&str, &TypeDef> = types.iter().map(|t| (t.name.as_str(), t)).collect();
    for op in ops.iter_mut() {
        op.mock = answer(op, &types);
        op.usage = usage(op, &types);
    }
}

/// The values an example call shows: the document's example where it has the value's shape,
/// else one made for a request (required members only, none `readOnly`).
fn usage(op: &Operation, types: &BTreeMap<&str, &TypeDef>) -> Usage {
    let maker = Maker::for_request(types);
    let pick = |ty: &TypeRef, c: &Constraints, examples: &[Value]| {
        examples
            .iter()
            .find(|e| fits(ty, e, types))
            .cloned()
            .unwrap_or_else(|| maker.value(ty, c, 0))
    };
    let params = op
        .params
        .iter()
        .filter(|p| p.required)
        .map(
            |p| match pick(&p.ty, &p.constraints, p.example.as_slice()) {
                // Text with nothing to go by reads better as the parameter's name (`"owner"`).
                Value::String(s) if s == "string" && named_text_fits(&p.wire, &p.constraints) => {
                    Value::String(p.wire.clone())
                }
                value => value,
            },
        )
        .collect();
    let query_string = op.query_string.as_ref().map(|q| match &q.kind {
        crate::ir::QueryStringKind::Form(t) | crate::ir::QueryStringKind::Json(t) => {
            maker.value(t, &Constraints::default(), 0)
        }
        crate::ir::QueryStringKind::Raw => Value::String("name=value".into()),
    });
    let body = op.body.as_ref().map(|b| match &b.kind {
        // A multipart form is sent as its parts: the members of the type it is checked as.
        BodyKind::Bytes if b.is_multipart_form() => match &b.checked_as {
            Some(t) => pick(t, &b.constraints, &b.examples),
            None => Value::Object(Map::new()),
        },
        BodyKind::Json(t) | BodyKind::Form(t) | BodyKind::Multipart { ty: t, .. } => {
            pick(t, &b.constraints, &b.examples)
        }
        BodyKind::Text | BodyKind::Bytes | BodyKind::Stream(_) => b
            .examples
            .iter()
            .find_map(|e| e.as_str().map(|s| Value::String(s.to_owned())))
            .unwrap_or_else(|| Value::String("text".into())),
    });
    Usage {
        params,
        query_string,
        body,
    }
}

/// Whether a parameter's name may stand as its value: the only constraints on it are lengths it
/// meets.
fn named_text_fits(name: &str, c: &Constraints) -> bool {
    let n = name.chars().count();
    c.pattern.is_none()
        && c.format.is_none()
        && c.checked_format.is_none()
        && c.min_length.is_none_or(|min| n >= min)
        && c.max_length.is_none_or(|max| n <= max)
}

/// Whether a document's example has the shape of `ty` (an example may not fit its schema:
/// a snippet built from one that does not would fail where the document's reader tries it).
/// Objects and unions are taken as the document gives them.
fn fits(ty: &TypeRef, v: &Value, types: &BTreeMap<&str, &TypeDef>) -> bool {
    let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
    let date = |s: &str| {
        let mut parts = s.split('-');
        matches!(
            (parts.next(), parts.next(), parts.next(), parts.next()),
            (Some(y), Some(m), Some(d), None) if digits(y, 4) && digits(m, 2) && digits(d, 2)
        )
    };
    match (ty, v) {
        (TypeRef::Nullable(_), Value::Null) | (TypeRef::Unit, Value::Null) => true,
        (TypeRef::Nullable(inner), _) => fits(inner, v, types),
        (
            TypeRef::String | TypeRef::Bytes | TypeRef::Base64 | TypeRef::Base64Url,
            Value::String(_),
        ) => true,
        (TypeRef::Bool, Value::Bool(_)) => true,
        (TypeRef::I32, Value::Number(n)) => n.as_i64().is_some_and(|n| i32::try_from(n).is_ok()),
        (TypeRef::I64, Value::Number(n)) => n.is_i64(),
        (TypeRef::U8, Value::Number(n)) => n.as_u64().is_some_and(|n| u8::try_from(n).is_ok()),
        (TypeRef::U16, Value::Number(n)) => n.as_u64().is_some_and(|n| u16::try_from(n).is_ok()),
        (TypeRef::U32, Value::Number(n)) => n.as_u64().is_some_and(|n| u32::try_from(n).is_ok()),
        (TypeRef::U64, Value::Number(n)) => n.is_u64(),
        (TypeRef::BigInt, Value::Number(n)) => n.is_i64() || n.is_u64(),
        (TypeRef::F32 | TypeRef::F64 | TypeRef::Decimal, Value::Number(_)) => true,
        (TypeRef::Uuid, Value::String(s)) => {
            s.len() == 36
                && s.char_indices().all(|(i, c)| match i {
                    8 | 13 | 18 | 23 => c == '-',
                    _ => c.is_ascii_hexdigit(),
                })
        }
        (TypeRef::Date, Value::String(s)) => date(s),
        (TypeRef::DateTime, Value::String(s)) => s.split_once('T').is_some_and(|(d, t)| {
            date(d) && (t.ends_with('Z') || t.ends_with('z') || t.contains('+') || t.contains('-'))
        }),
        (TypeRef::Ipv4, Value::String(s)) => s.parse::<std::net::Ipv4Addr>().is_ok(),
        (TypeRef::Ipv6, Value::String(s)) => s.parse::<std::net::Ipv6Addr>().is_ok(),
        (TypeRef::Vec(item), Value::Array(items)) => items.iter().all(|i| fits(item, i, types)),
        (TypeRef::Tuple(items), Value::Array(values)) => {
            items.len() == values.len() && items.iter().zip(values).all(|(t, v)| fits(t, v, types))
        }
        (TypeRef::Map(item), Value::Object(map)) => map.values().all(|v| fits(item, v, types)),
        (TypeRef::Json, _) | (TypeRef::JsonObject, Value::Object(_)) => true,
        (TypeRef::Named(name), _) => match types.get(name.as_str()).map(|d| &d.kind) {
            Some(TypeKind::Enum(variants)) => variants.iter().any(|e| v.as_str() == Some(&e.wire)),
            Some(TypeKind::Alias(inner, _)) => fits(inner, v, types),
            Some(TypeKind::Struct(_)) => v.is_object(),
            Some(TypeKind::OneOf(_)) => true,
            None => false,
        },
        _ => false,
    }
}

fn answer(op: &Operation, types: &BTreeMap<&str, &TypeDef>) -> MockAnswer {
    let success = op
        .responses
        .iter()
        .enumerate()
        .filter(|(_, r)| r.is_success())
        .min_by_key(|(_, r)| match r.status {
            Status::Code(c) => c,
            _ => 299,
        })
        .map(|(i, _)| i);
    let chosen = success
        .or_else(|| {
            op.responses
                .iter()
                .position(|r| matches!(r.status, Status::Default))
        })
        .or((!op.responses.is_empty()).then_some(0));
    let Some(index) = chosen else {
        return MockAnswer::default();
    };
    let response = &op.responses[index];
    let status = match response.status {
        Status::Code(c) => c,
        Status::Range(r) => u16::from(r) * 100,
        Status::Default => 200,
    };
    let bodies = match &response.body {
        None => Vec::new(),
        Some(body) => {
            let made = |examples| {
                let maker = Maker::new(types, examples);
                match &body.kind {
                    BodyKind::Json(t) | BodyKind::Form(t) | BodyKind::Multipart { ty: t, .. } => {
                        maker.value(t, &Constraints::default(), 0)
                    }
                    BodyKind::Stream(s) => maker.value(&s.item, &Constraints::default(), 0),
                    BodyKind::Text | BodyKind::Bytes => Value::String("mock".into()),
                }
            };
            let mut out: Vec<Value> = match &body.kind {
                // Text and bytes examples are the body's text.
                BodyKind::Text | BodyKind::Bytes => body
                    .examples
                    .iter()
                    .map(|e| match e {
                        Value::String(_) => e.clone(),
                        other => Value::String(other.to_string()),
                    })
                    .collect(),
                // A stream's examples describe whole answers, not an item.
                BodyKind::Stream(_) => Vec::new(),
                _ => body.examples.clone(),
            };
            for candidate in [made(true), made(false)] {
                if !out.contains(&candidate) {
                    out.push(candidate);
                }
            }
            out
        }
    };
    let headers = response
        .headers
        .iter()
        .map(|h| Maker::new(types, false).value(&h.ty, &h.constraints, 0))
        .collect();
    MockAnswer {
        response: Some(index),
        status,
        bodies,
        headers,
    }
}

/// Makes a value of a type (also the templates of the document's error bodies,
/// `lower/errors.rs`).
pub(super) struct Maker<'a> {
    types: &'a BTreeMap<&'a str, &'a TypeDef>,
    /// Use the schemas' own examples where they have one.
    examples: bool,
    /// A value to send rather than to answer: each object with its required members alone
    /// (a snippet's value, short), none `readOnly`, `writeOnly` ones kept.
    request: bool,
    /// The named types being made, outermost first, each with the depth it was entered at.
    /// Past [`SHALLOW`] a value holds its required members only, so a type entered there and
    /// met again below itself recurses through required members: that value is `null`, and a
    /// union takes a variant that does not lead there. Without it a type that recurses
    /// through two required members (a tree whose nodes hold two nodes) cost two values to
    /// the power of the depth ([`DEEPEST`]): minutes and gigabytes.
    making: RefCell<Vec<(String, usize)>>,
}

impl<'a> Maker<'a> {
    pub(super) fn new(types: &'a BTreeMap<&'a str, &'a TypeDef>, examples: bool) -> Self {
        Maker {
            types,
            examples,
            request: false,
            making: RefCell::new(Vec::new()),
        }
    }

    /// A maker of values to send, the schemas' examples used.
    fn for_request(types: &'a BTreeMap<&'a str, &'a TypeDef>) -> Self {
        Maker {
            request: true,
            ..Maker::new(types, true)
        }
    }

    /// Whether `name` was entered past [`SHALLOW`] and is still being made.
    fn recursing(&self, name: &str) -> bool {
        self.making
            .borrow()
            .iter()
            .any(|(m, depth)| m == name && *depth >= SHALLOW)
    }

    /// Whether a value of `ty` would start with a type [`Maker::recursing`].
    fn leads_back(&self, ty: &TypeRef) -> bool {
        match ty {
            TypeRef::Named(name) => self.recursing(name),
            TypeRef::Nullable(inner) => self.leads_back(inner),
            _ => false,
        }
    }
}

impl Maker<'_> {
    pub(super) fn value(&self, ty: &TypeRef, c: &Constraints, depth: usize) -> Value {
        if depth > DEEPEST {
            return Value::Null;
        }
        match ty {
            TypeRef::Named(name) => self.named(name, c, depth),
            // `enum: [null]`: null is its one value.
            TypeRef::Unit => Value::Null,
            // A value rather than null: an answer with data exercises more of the reader.
            TypeRef::Nullable(inner) => self.value(inner, c, depth),
            TypeRef::String => Value::String(string(c)),
            TypeRef::Bool => Value::Bool(c.boolean.unwrap_or(true)),
            TypeRef::I32 => integer(c, i32::MIN.into(), i32::MAX.into()),
            TypeRef::I64 => integer(c, i64::MIN.into(), i64::MAX.into()),
            TypeRef::U8 => integer(c, 0, u8::MAX.into()),
            TypeRef::U16 => integer(c, 0, u16::MAX.into()),
            TypeRef::U32 => integer(c, 0, u32::MAX.into()),
            TypeRef::U64 => integer(c, 0, i128::from(u64::MAX)),
            TypeRef::F32 | TypeRef::F64 | TypeRef::Decimal => number(c),
            TypeRef::BigInt => integer(c, i128::MIN, i128::MAX),
            TypeRef::Bytes => Value::String(String::new()),
            TypeRef::Base64 | TypeRef::Base64Url => Value::String("bW9jaw".into()),
            TypeRef::Uuid => Value::String("3fa85f64-5717-4562-b3fc-2c963f66afa6".into()),
            TypeRef::DateTime => Value::String("2024-01-01T00:00:00Z".into()),
            TypeRef::Date => Value::String("2024-01-01".into()),
            TypeRef::Ipv4 => Value::String("192.0.2.1".into()),
            TypeRef::Ipv6 => Value::String("2001:db8::1".into()),
            TypeRef::Tuple(items) => Value::Array(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, t)| {
                        let c = c.prefix_items.get(i).cloned().unwrap_or_default();
                        self.value(t, &c, depth + 1)
                    })
                    .collect(),
            ),
            TypeRef::Vec(item) => {
                let wanted = if depth >= SHALLOW { 0 } else { 1 };
                let n = wanted
                    .max(c.min_items.unwrap_or(0))
                    .min(c.max_items.unwrap_or(usize::MAX));
                let each = c.each.as_deref().cloned().unwrap_or_default();
                let one = self.value(item, &each, depth + 1);
                Value::Array(
                    (0..n)
                        .map(|i| {
                            if c.unique_items {
                                distinct(&one, i)
                            } else {
                                one.clone()
                            }
                        })
                        .collect(),
                )
            }
            TypeRef::Map(item) => {
                let n = c.min_properties.unwrap_or(0);
                let each = c.each.as_deref().cloned().unwrap_or_default();
                let one = self.value(item, &each, depth + 1);
                Value::Object(
                    (0..n)
                        .map(|i| (format!("key{}", i + 1), one.clone()))
                        .collect(),
                )
            }
            TypeRef::Json | TypeRef::JsonObject => {
                let n = c.min_properties.unwrap_or(0);
                Value::Object(
                    (0..n)
                        .map(|i| (format!("key{}", i + 1), Value::String("value".into())))
                        .collect(),
                )
            }
        }
    }

    fn named(&self, name: &str, c: &Constraints, depth: usize) -> Value {
        let Some(def) = self.types.get(name) else {
            return Value::Null;
        };
        if self.recursing(name) {
            return Value::Null;
        }
        self.making.borrow_mut().push((name.to_owned(), depth));
        let value = self.made(def, c, depth);
        self.making.borrow_mut().pop();
        value
    }

    fn made(&self, def: &TypeDef, c: &Constraints, depth: usize) -> Value {
        if self.examples
            && let Some(example) = &def.example
        {
            return example.clone();
        }
        match &def.kind {
            TypeKind::Enum(variants) => variants
                .first()
                .map_or(Value::Null, |v| Value::String(v.wire.clone())),
            TypeKind::Alias(inner, own) => {
                let mut both = own.clone();
                both.narrow(c);
                self.value(inner, &both, depth)
            }
            TypeKind::OneOf(one) => {
                // With a discriminator, a variant it names, with its tag: the first that does
                // not lead back to a type recursing through required members, where there is one.
                let ends = |i: &usize| {
                    one.variants
                        .get(*i)
                        .is_some_and(|v| !self.leads_back(&v.ty))
                };
                let (index, tag) = match &one.discriminator {
                    Some(d) => match d
                        .mapping
                        .iter()
                        .find(|(_, i)| ends(i))
                        .or(d.mapping.first())
                    {
                        Some((wire, i)) => {
                            let tag = match d.integer_tag(wire) {
                                Some(n) => Value::from(n),
                                None => Value::String(wire.clone()),
                            };
                            (*i, Some((d.property.clone(), tag)))
                        }
                        None => (0, None),
                    },
                    None => ((0..one.variants.len()).find(ends).unwrap_or(0), None),
                };
                let Some(variant) = one.variants.get(index) else {
                    return Value::Null;
                };
                let mut value = self.value(&variant.ty, &variant.constraints, depth + 1);
                if let (Some((property, tag)), Value::Object(map)) = (tag, &mut value) {
                    map.insert(property, tag);
                }
                value
            }
            TypeKind::Struct(st) => {
                let mut map = Map::new();
                for f in &st.fields {
                    // One Rust type for both directions: an answer leaves write-only
                    // properties out; past `SHALLOW`, every one the answer may lack (a
                    // required readOnly one, scalar-galaxy's `Planet.id`, it may not).
                    let left_out = if self.request {
                        !f.required || f.read_only
                    } else {
                        f.write_only || (depth >= SHALLOW && !f.required_in_answers)
                    };
                    if left_out {
                        continue;
                    }
                    let value = match (&f.example, self.examples) {
                        (Some(example), true) => example.clone(),
                        _ if depth >= DEEPEST && f.nullable => Value::Null,
                        _ => self.value(&f.ty, &f.constraints, depth + 1),
                    };
                    map.insert(f.wire.clone(), value);
                }
                // `not: {required: [..]}`: the last optional one of a group all present
                // is left out.
                for names in &st.not_all_of {
                    if names.iter().all(|n| map.contains_key(n)) {
                        let optional = st
                            .fields
                            .iter()
                            .rev()
                            .find(|f| !f.required_in_answers && names.contains(&f.wire));
                        if let Some(f) = optional {
                            map.remove(&f.wire);
                        }
                    }
                }
                Value::Object(map)
            }
        }
    }
}

/// The `i`th of several distinct values like `one` (for `uniqueItems`).
fn distinct(one: &Value, i: usize) -> Value {
    match one {
        Value::String(s) => Value::String(if i == 0 { s.clone() } else { format!("{s}{i}") }),
        Value::Number(n) => n
            .as_i64()
            .map(|v| Value::from(v + i as i64))
            .unwrap_or_else(|| Value::from(n.as_f64().unwrap_or(0.0) + i as f64)),
        other => other.clone(),
    }
}

/// An integer within the type's range and the bounds, a multiple of `multipleOf`, one of the
/// listed values when there are some: 1 when it may be, else the closest to it.
fn integer(c: &Constraints, min: i128, max: i128) -> Value {
    if let Some(first) = c.one_of.first() {
        return Value::Number(first.clone());
    }
    let mut lo = min;
    let mut hi = max;
    if let Some(m) = c.minimum.and_then(|m| m.least_integer(c.exclusive_minimum)) {
        lo = lo.max(m);
    }
    if let Some(m) = c
        .maximum
        .and_then(|m| m.greatest_integer(c.exclusive_maximum))
    {
        hi = hi.min(m);
    }
    let mut v = 1i128.clamp(lo, hi.max(lo));
    if let Some(step) = c.multiple_of.filter(|s| *s >= 1.0 && s.fract() == 0.0) {
        let step = step as i128;
        v = if v % step == 0 {
            v
        } else {
            (v.div_euclid(step) + 1) * step
        };
        if v > hi {
            v = lo.div_euclid(step) * step;
            if v < lo {
                v += step;
            }
        }
    }
    Value::Number(match i64::try_from(v) {
        Ok(v) => Number::from(v),
        Err(_) => Number::from(u64::try_from(v).unwrap_or(u64::MAX)),
    })
}

/// A number within the bounds (1.5 when it may be).
fn number(c: &Constraints) -> Value {
    if let Some(first) = c.one_of.first() {
        return Value::Number(first.clone());
    }
    let mut v = 1.5;
    if let Some(m) = c.minimum.map(Bound::as_f64)
        && (v < m || (c.exclusive_minimum && v == m))
    {
        v = if c.exclusive_minimum { m + 0.5 } else { m };
    }
    if let Some(m) = c.maximum.map(Bound::as_f64)
        && (v > m || (c.exclusive_maximum && v == m))
    {
        v = if c.exclusive_maximum { m - 0.5 } else { m };
    }
    if let Some(step) = c.multiple_of.filter(|s| *s > 0.0) {
        v = (v / step).ceil() * step;
    }
    Number::from_f64(v).map_or(Value::Null, Value::Number)
}

/// A string the pattern matches when there is one, of a length within the bounds.
fn string(c: &Constraints) -> String {
    let min = c.min_length.unwrap_or(0);
    let max = c.max_length.unwrap_or(usize::MAX);
    if let Some(pattern) = &c.pattern {
        // Repetitions stretched until the sample is long enough (up to 64 more of each).
        let fits = (0..=64)
            .filter_map(|stretch| sample_stretched(pattern, stretch))
            .find(|s| s.chars().count() >= min);
        if let Some(s) = fits.or_else(|| sample_pattern(pattern)) {
            return s;
        }
    }
    let mut s = c
        .format
        .as_deref()
        .and_then(format_sample)
        .unwrap_or("string")
        .to_string();
    let len = s.chars().count();
    if len < min {
        // At the end: a URI's path, or any other text, takes more characters there.
        s.extend(std::iter::repeat_n('x', min - len));
    }
    s.chars().take(max).collect()
}

/// A value of a `format` JSON Schema validators check (the mock's answers are checked
/// against the document by them), for strings kept as text.
fn format_sample(format: &str) -> Option<&'static str> {
    Some(match format {
        "uri" | "iri" | "uri-reference" | "iri-reference" | "url" => "https://example.com/",
        "email" | "idn-email" => "user@example.com",
        "hostname" | "idn-hostname" => "example.com",
        "uri-template" => "https://example.com/{id}",
        "duration" => "P1D",
        "time" => "12:00:00Z",
        "json-pointer" => "/a",
        "relative-json-pointer" => "0/a",
        "regex" => "^a$",
        // A decimal kept as text (`type: string, format: decimal`), which the server checks.
        "decimal" => "1.5",
        // With `Options::string_formats`, these stay text too.
        "uuid" => "3fa85f64-5717-4562-b3fc-2c963f66afa6",
        "date-time" => "2024-01-01T00:00:00Z",
        "date" => "2024-01-01",
        "ipv4" => "192.0.2.1",
        "ipv6" => "2001:db8::1",
        _ => return None,
    })
}

/// A string a regular expression matches, for the common shapes of patterns in documents
/// (literals, escapes, classes, groups with alternatives, quantifiers, anchors); `None`
/// for what it does not read (the mock then tries its other candidates).
pub fn sample_pattern(pattern: &str) -> Option<String> {
    sample_stretched(pattern, 0)
}

/// [`sample_pattern`] with every repetition `stretch` times longer than its least, as far as
/// its most allows (to reach a `minLength`).
fn sample_stretched(pattern: &str, stretch: usize) -> Option<String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut pos = 0;
    let out = alternatives(&chars, &mut pos, stretch)?;
    (pos == chars.len()).then_some(out)
}

/// `a|b|c` up to a `)` or the end: the first alternative.
fn alternatives(chars: &[char], pos: &mut usize, stretch: usize) -> Option<String> {
    let first = sequence(chars, pos, stretch)?;
    while chars.get(*pos) == Some(&'|') {
        *pos += 1;
        sequence(chars, pos, stretch)?;
    }
    Some(first)
}

fn sequence(chars: &[char], pos: &mut usize, stretch: usize) -> Option<String> {
    let mut out = String::new();
    while let Some(&c) = chars.get(*pos) {
        let atom: String = match c {
            '|' | ')' => break,
            '^' | '$' => {
                *pos += 1;
                continue;
            }
            '(' => {
                *pos += 1;
                // Non-capturing and named groups read like plain ones.
                if chars.get(*pos) == Some(&'?') {
                    match chars.get(*pos + 1) {
                        Some(':') => *pos += 2,
                        Some('<') | Some('P') => {
                            while chars.get(*pos).is_some_and(|c| *c != '>') {
                                *pos += 1;
                            }
                            *pos += 1;
                        }
                        _ => return None,
                    }
                }
                let inner = alternatives(chars, pos, stretch)?;
                if chars.get(*pos) != Some(&')') {
                    return None;
                }
                *pos += 1;
                inner
            }
            '[' => class(chars, pos)?.to_string(),
            '\\' => {
                *pos += 1;
                let e = *chars.get(*pos)?;
                *pos += 1;
                escape(e)?.to_string()
            }
            '.' => {
                *pos += 1;
                "a".to_string()
            }
            '*' | '+' | '?' | '{' => return None,
            other => {
                *pos += 1;
                other.to_string()
            }
        };
        let (min, max) = quantifier(chars, pos)?;
        let times = (min + stretch).min(max.unwrap_or(usize::MAX)).max(min);
        for _ in 0..times {
            out.push_str(&atom);
        }
    }
    Some(out)
}

/// The repetition after an atom: (least, most); `(1, 1)` when there is none. `*`, `+`, `?`
/// and `{n}`, `{n,}`, `{n,m}`, each possibly lazy or possessive.
fn quantifier(chars: &[char], pos: &mut usize) -> Option<(usize, Option<usize>)> {
    let q = match chars.get(*pos) {
        Some('*') => {
            *pos += 1;
            (0, None)
        }
        Some('+') => {
            *pos += 1;
            (1, None)
        }
        Some('?') => {
            *pos += 1;
            (0, Some(1))
        }
        Some('{') => {
            let close = chars[*pos..].iter().position(|c| *c == '}')? + *pos;
            let inside: String = chars[*pos + 1..close].iter().collect();
            *pos = close + 1;
            match inside.split_once(',') {
                None => {
                    let n = inside.trim().parse().ok()?;
                    (n, Some(n))
                }
                Some((a, b)) => (
                    a.trim().parse().ok()?,
                    if b.trim().is_empty() {
                        None
                    } else {
                        Some(b.trim().parse().ok()?)
                    },
                ),
            }
        }
        _ => return Some((1, Some(1))),
    };
    if matches!(chars.get(*pos), Some('?') | Some('+')) {
        *pos += 1;
    }
    Some(q)
}

/// A character a `[...]` class admits: its first member, or for a negated class the first of
/// `a`, `0`, `_` it does not exclude.
fn class(chars: &[char], pos: &mut usize) -> Option<char> {
    *pos += 1;
    let negated = chars.get(*pos) == Some(&'^');
    if negated {
        *pos += 1;
    }
    let mut members: Vec<(char, char)> = Vec::new();
    let mut first = true;
    loop {
        let c = *chars.get(*pos)?;
        if c == ']' && !first {
            *pos += 1;
            break;
        }
        first = false;
        let lo = if c == '\\' {
            *pos += 1;
            let e = *chars.get(*pos)?;
            match e {
                'd' => {
                    members.push(('0', '9'));
                    *pos += 1;
                    continue;
                }
                'w' => {
                    members.push(('a', 'z'));
                    members.push(('0', '9'));
                    members.push(('_', '_'));
                    *pos += 1;
                    continue;
                }
                's' => {
                    members.push((' ', ' '));
                    *pos += 1;
                    continue;
                }
                other => escape(other)?,
            }
        } else {
            c
        };
        *pos += 1;
        if chars.get(*pos) == Some(&'-') && chars.get(*pos + 1).is_some_and(|c| *c != ']') {
            let hi = chars[*pos + 1];
            *pos += 2;
            members.push((lo, hi));
        } else {
            members.push((lo, lo));
        }
    }
    if negated {
        ['a', '0', '_', 'x', 'Z']
            .into_iter()
            .find(|c| !members.iter().any(|(lo, hi)| lo <= c && c <= hi))
    } else {
        members.first().map(|(lo, _)| *lo)
    }
}

/// The character an escape stands for (`\d` → `0`, `\.` → `.`).
fn escape(e: char) -> Option<char> {
    Some(match e {
        'd' => '0',
        'w' => 'a',
        's' => ' ',
        'n' => '\n',
        't' => '\t',
        'D' | 'W' | 'S' => 'a',
        'b' | 'B' | 'A' | 'z' | 'Z' | 'p' | 'P' | 'u' | 'x' => return None,
        other if other.is_ascii_alphanumeric() => return None,
        other => other,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_give_matching_samples() {
        for (pattern, sample) in [
            ("^(0|[1-9][0-9]*)$", "0"),
            ("^[a-z0-9-]+$", "a"),
            (r"^\d{4}-\d{2}-\d{2}$", "0000-00-00"),
            ("^[A-Z]{2}$", "AA"),
            (r"^v\d+(\.\d+)*$", "v0"),
            ("^(?:ab|cd)?x$", "x"),
            ("[^/]+", "a"),
            (r"^\S+@\S+$", "a@a"),
            ("^AC[0-9a-fA-F]{32}$", "AC00000000000000000000000000000000"),
        ] {
            assert_eq!(
                sample_pattern(pattern).as_deref(),
                Some(sample),
                "{pattern}"
            );
        }
        assert_eq!(sample_pattern(r"^\p{L}+$"), None);
        assert_eq!(sample_pattern("(a"), None);
    }

    #[test]
    fn numbers_keep_their_bounds() {
        let c = |min: Option<f64>, max: Option<f64>, ex: bool, step: Option<f64>| Constraints {
            minimum: min.map(Bound::Number),
            maximum: max.map(Bound::Number),
            exclusive_minimum: ex,
            exclusive_maximum: ex,
            multiple_of: step,
            ..Default::default()
        };
        assert_eq!(integer(&c(None, None, false, None), 0, 10), 1);
        assert_eq!(integer(&c(Some(5.0), None, false, None), 0, 100), 5);
        assert_eq!(integer(&c(Some(5.0), None, true, None), 0, 100), 6);
        assert_eq!(integer(&c(None, Some(0.0), true, None), -10, 10), -1);
        assert_eq!(integer(&c(Some(3.0), None, false, Some(4.0)), 0, 100), 4);
        assert_eq!(number(&c(Some(2.0), Some(3.0), false, None)), 2.0);
        assert_eq!(number(&c(None, Some(1.0), true, None)), 0.5);
        assert_eq!(
            string(&Constraints {
                min_length: Some(10),
                ..Default::default()
            }),
            "stringxxxx"
        );
    }

    #[test]
    fn formats_give_fitting_samples() {
        let c = |format: &str, min_length: Option<usize>| Constraints {
            format: Some(format.to_string()),
            min_length,
            ..Default::default()
        };
        assert_eq!(string(&c("email", None)), "user@example.com");
        assert_eq!(string(&c("uri", None)), "https://example.com/");
        assert_eq!(string(&c("hostname", None)), "example.com");
        // Longer at the end: a URI's path, a host name's last label.
        assert_eq!(string(&c("uri", Some(24))), "https://example.com/xxxx");
        assert_eq!(string(&c("x-made-up", None)), "string");
    }
}
