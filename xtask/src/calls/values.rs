//! Values valid by a schema of the document, for the parameters and bodies `cargo xtask
//! calls` sends. Read from the document itself (its JSON, `$ref`s resolved here), never from
//! the generator's model of it, so that the generated client is checked against the
//! document and not against itself.
//!
//! Rounds vary what is sent: round 1 gives required members only and the first choice
//! everywhere (first enum value, first `oneOf` variant, first alternative of a pattern);
//! round 2 adds every optional member (to a depth) and takes second choices; later rounds
//! mix, seeded. Every value meets the keywords Prism checks: `type`, `enum`, `const`,
//! `format`, `pattern`, lengths, bounds, `multipleOf`, item and property counts,
//! `required`, `readOnly` (left out of requests), and a discriminator's tag.

use serde_json::{Map, Value};

mod schema;

pub use super::refs::{UNRESOLVED, resolve};
pub use schema::CONTRADICTS;
use schema::{enum_values, is_null_only, merge, type_of};

/// Deeper than this, an object gets its required members only (keeps bodies small and
/// recursive schemas finite).
const OPTIONAL_DEPTH: usize = 3;
/// A schema nested deeper than this cannot be given a value (a required cycle).
const MAX_DEPTH: usize = 24;

/// A small seeded generator (splitmix64): deterministic per round, operation and place.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64, salt: &str) -> Rng {
        let mut h = seed ^ 0x9e37_79b9_7f4a_7c15;
        for b in salt.bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        Rng(h)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// Makes values for one request.
pub struct Values<'a> {
    root: &'a Value,
    round: u32,
    rng: Rng,
}

impl<'a> Values<'a> {
    pub fn new(root: &'a Value, round: u32, rng: Rng) -> Values<'a> {
        Values { root, round, rng }
    }

    /// A value of `schema` as a request carries it: `readOnly` members left out. Each value
    /// made is checked against the schema ([`super::check`]: a `oneOf` must match exactly one
    /// variant, `not` must not match); one that does not fit is made again with other,
    /// seeded choices.
    pub fn request(&mut self, schema: &Value) -> Result<Value, String> {
        self.fitting(schema, false)
    }

    /// As [`Self::request`], for a parameter: its text must also fit one variant of a `oneOf`
    /// however a mock reads it back ([`super::check::parameter_text_violations`]).
    pub fn parameter(&mut self, schema: &Value) -> Result<Value, String> {
        self.fitting(schema, true)
    }

    fn fitting(&mut self, schema: &Value, parameter: bool) -> Result<Value, String> {
        let root = self.root;
        let violations = |v: &Value| {
            let mut why = super::check::request_violations(root, schema, v);
            if parameter {
                why.extend(super::check::parameter_text_violations(root, schema, v));
            }
            why
        };
        let first = self.value(schema, 0);
        let why = match &first {
            Ok(v) => violations(v),
            Err(_) => Vec::new(),
        };
        if first.is_ok() && why.is_empty() {
            return first;
        }
        let saved = self.round;
        self.round = 3;
        let mut found = None;
        for _ in 0..48 {
            if let Ok(v) = self.value(schema, 0)
                && violations(&v).is_empty()
            {
                found = Some(v);
                break;
            }
        }
        self.round = saved;
        match (found, first) {
            (Some(v), _) => Ok(v),
            (None, Err(e)) => Err(e),
            (None, Ok(_)) => Err(format!("no value made fits the schema: {}", why.join("; "))),
        }
    }

    /// Index of the choice among `n` for this round.
    fn pick(&mut self, n: usize) -> usize {
        match self.round {
            0 | 1 => 0,
            2 => 1 % n.max(1),
            _ => self.rng.below(n),
        }
    }

    fn include_optional(&mut self, depth: usize) -> bool {
        depth <= OPTIONAL_DEPTH
            && match self.round {
                0 | 1 => false,
                2 => true,
                _ => self.rng.next().is_multiple_of(2),
            }
    }

    fn value(&mut self, schema: &Value, depth: usize) -> Result<Value, String> {
        if depth > MAX_DEPTH {
            return Err("the schema nests too deep (a required member refers to itself)".into());
        }
        let (s, name) = self.flatten(schema, 0)?;
        if let Some(c) = s.get("const") {
            return Ok(c.clone());
        }
        if let Some(Value::Array(values)) = s.get("enum") {
            let values = enum_values(&s, values)?;
            if values.is_empty() {
                return Ok(Value::Null);
            }
            let i = self.pick(values.len());
            return Ok(values[i].clone());
        }
        let union = s
            .get("oneOf")
            .or_else(|| s.get("anyOf"))
            .and_then(Value::as_array);
        if let Some(variants) = union {
            return self.union(&s, variants, depth);
        }
        self.flat(&s, name.as_deref(), depth)
    }

    /// One variant of a `oneOf`/`anyOf`, with the members the union's own schema adds and
    /// the discriminator's tag for that variant.
    fn union(
        &mut self,
        s: &Map<String, Value>,
        variants: &[Value],
        depth: usize,
    ) -> Result<Value, String> {
        let mut base = s.clone();
        base.remove("oneOf");
        base.remove("anyOf");
        let discriminator = base.remove("discriminator");
        // `{type: 'null'}` is a variant only when nothing else is.
        let mut candidates = Vec::new();
        for v in variants {
            let (flat, name) = self.flatten(v, 0)?;
            if !is_null_only(&flat) {
                candidates.push((v, flat, name));
            }
        }
        if candidates.is_empty() {
            return Ok(Value::Null);
        }
        let first = self.pick(candidates.len());
        let mut why = Vec::new();
        for k in 0..candidates.len() {
            let (variant, flat, name) = &candidates[(first + k) % candidates.len()];
            let mut merged = base.clone();
            merge(&mut merged, flat.clone());
            let value = if merged.contains_key("oneOf") || merged.contains_key("anyOf") {
                self.value(&Value::Object(merged.clone()), depth + 1)
            } else {
                self.flat(&merged, name.as_deref(), depth)
            };
            match value {
                Ok(mut value) => {
                    // A variant that is a union itself carries the tag of the variant made.
                    let nested = flat.contains_key("oneOf") || flat.contains_key("anyOf");
                    if let Some(d) = &discriminator
                        && !nested
                        && let Err(e) = self.tag(&mut value, d, variant, name.as_deref(), &merged)
                    {
                        why.push(e);
                        continue;
                    }
                    if discriminator.is_none() && !nested {
                        self.pin(&mut value, &merged);
                    }
                    return Ok(value);
                }
                Err(e) => why.push(e),
            }
        }
        Err(format!(
            "no variant can be given a value: {}",
            why.join("; ")
        ))
    }

    /// Sets the discriminator's property to the value naming `variant`: its `mapping` key,
    /// else the value the variant pins (`enum: [x]`, `const`), else the schema's name. A
    /// mapping key the variant's own property forbids (scalar-galaxy maps `planet` to a
    /// `Planet` whose `type` is one of `terrestrial`, `gas_giant`, …) is the document
    /// contradicting itself: no value is both.
    fn tag(
        &self,
        value: &mut Value,
        discriminator: &Value,
        variant: &Value,
        name: Option<&str>,
        merged: &Map<String, Value>,
    ) -> Result<(), String> {
        let Some(property) = discriminator.get("propertyName").and_then(Value::as_str) else {
            return Ok(());
        };
        let Value::Object(object) = value else {
            return Ok(());
        };
        let reference = variant.get("$ref").and_then(Value::as_str);
        let mapped = discriminator
            .get("mapping")
            .and_then(Value::as_object)
            .and_then(|m| {
                m.iter().find_map(|(key, target)| {
                    let target = target.as_str()?;
                    let hit = Some(target) == reference
                        || name.is_some_and(|n| target == n || target.ends_with(&format!("/{n}")));
                    hit.then(|| key.clone())
                })
            });
        if let Some(key) = mapped {
            if let Some(allowed) = self.allowed(merged, property)
                && !allowed.contains(&Value::String(key.clone()))
            {
                let list: Vec<String> = allowed.iter().map(Value::to_string).collect();
                return Err(format!(
                    "{CONTRADICTS}its discriminator maps `{key}` to `{}`, whose `{property}` allows only {}",
                    name.or(variant.get("$ref").and_then(Value::as_str))
                        .unwrap_or("the variant"),
                    list.join(", ")
                ));
            }
            object.insert(property.to_string(), Value::String(key));
            return Ok(());
        }
        // A variant that pins the property (`enum: [x]`, `const`) is named by it even where the
        // property is optional: given without it, the object could fit several variants
        // (discord's rule update: `{}` fits every one, and JSON Schema's `oneOf` refuses it),
        // and the client writes the tag of the variant it holds (docs/reports/echo.md).
        if let Some(allowed) = self.allowed(merged, property) {
            if !object.contains_key(property)
                && let Some(first) = allowed.into_iter().next()
            {
                object.insert(property.to_string(), first);
            }
            return Ok(());
        }
        if let Some(name) = name {
            object.insert(property.to_string(), Value::String(name.to_string()));
        }
        Ok(())
    }

    /// Gives a union variant without a discriminator each property it pins to one value
    /// (`const`, `enum: [x]`) that the value left out: the client tells such variants apart
    /// by that property (discord's rule update pins `trigger_type`, optional, in each of
    /// four), and writes it for the variant it holds (docs/reports/echo.md).
    fn pin(&self, value: &mut Value, s: &Map<String, Value>) {
        let (Value::Object(object), Some(Value::Object(properties))) = (value, s.get("properties"))
        else {
            return;
        };
        for (name, property) in properties {
            if !object.contains_key(name)
                && let Some(value) = self.pinned_value(property, 0)
            {
                object.insert(name.clone(), value);
            }
        }
    }

    /// The one value a property schema allows, `null` aside (discord's `entity_type` is
    /// `oneOf: [{type: null}, {enum: [3]}]`); `None` when it allows several or any.
    fn pinned_value(&self, schema: &Value, depth: usize) -> Option<Value> {
        let (flat, _) = self.flatten(schema, 0).ok()?;
        if let Some(c) = flat.get("const") {
            return Some(c.clone());
        }
        if let Some(Value::Array(values)) = flat.get("enum") {
            return (values.len() == 1).then(|| values[0].clone());
        }
        let variants = flat
            .get("oneOf")
            .or_else(|| flat.get("anyOf"))?
            .as_array()?;
        let mut others = variants.iter().filter(|v| {
            self.flatten(v, 0)
                .map(|(f, _)| !is_null_only(&f))
                .unwrap_or(true)
        });
        match (others.next(), others.next()) {
            (Some(only), None) if depth < 4 => self.pinned_value(only, depth + 1),
            _ => None,
        }
    }

    /// The values the object schema's property is restricted to (`enum`, or `const` as one),
    /// None when it is open.
    fn allowed(&self, s: &Map<String, Value>, property: &str) -> Option<Vec<Value>> {
        let p = s.get("properties")?.get(property)?;
        let (p, _) = self.flatten(p, 0).ok()?;
        if let Some(c) = p.get("const") {
            return Some(vec![c.clone()]);
        }
        p.get("enum")?.as_array().cloned()
    }

    /// A value of a schema without `oneOf`/`anyOf` at its top.
    fn flat(
        &mut self,
        s: &Map<String, Value>,
        name: Option<&str>,
        depth: usize,
    ) -> Result<Value, String> {
        if let Some(c) = s.get("const") {
            return Ok(c.clone());
        }
        if let Some(Value::Array(values)) = s.get("enum") {
            let values = enum_values(s, values)?;
            if let Some(v) = values.first() {
                let i = self.pick(values.len());
                return Ok(values.get(i).unwrap_or(v).to_owned().clone());
            }
            return Ok(Value::Null);
        }
        match type_of(s).as_str() {
            "null" => Ok(Value::Null),
            "boolean" => Ok(Value::Bool(match self.round {
                0 | 1 => true,
                2 => false,
                _ => self.rng.next().is_multiple_of(2),
            })),
            "integer" => self.number(s, true),
            "number" => self.number(s, false),
            "string" => self.string(s),
            "array" => self.array(s, depth),
            "object" => {
                let mut value = self.object(s, depth)?;
                // A schema inheriting a discriminator (`allOf: [{$ref: Pet}, …]`, where `Pet`
                // names `petType`) is tagged with its own name.
                if let (Some(d), Some(name)) = (s.get("discriminator"), name) {
                    let reference = Value::Object(Map::new());
                    self.tag(&mut value, d, &reference, Some(name), s)?;
                }
                Ok(value)
            }
            _ => Ok(Value::String("value".into())),
        }
    }

    fn number(&mut self, s: &Map<String, Value>, integer: bool) -> Result<Value, String> {
        let get = |k: &str| s.get(k).and_then(Value::as_f64);
        let flag = |k: &str| s.get(k).and_then(Value::as_bool).unwrap_or(false);
        // 3.0 writes exclusiveness as a boolean beside the bound, 3.1 as the bound itself.
        let (mut lo, mut lo_open) = (get("minimum"), flag("exclusiveMinimum"));
        if let Some(x) = get("exclusiveMinimum")
            && lo.is_none_or(|m| x >= m)
        {
            (lo, lo_open) = (Some(x), true);
        }
        let (mut hi, mut hi_open) = (get("maximum"), flag("exclusiveMaximum"));
        if let Some(x) = get("exclusiveMaximum")
            && hi.is_none_or(|m| x <= m)
        {
            (hi, hi_open) = (Some(x), true);
        }
        let step = get("multipleOf").filter(|m| *m > 0.0);
        let preferred = match self.round {
            0 | 1 => 1.0,
            2 if integer => 2.0,
            2 => 1.5,
            _ => (self.rng.below(90) + 3) as f64,
        };
        let unit = if integer { 1.0 } else { 0.001 };
        let low = lo.map(|l| if lo_open { l + unit } else { l });
        let high = hi.map(|h| if hi_open { h - unit } else { h });
        let mut v = preferred;
        if let Some(l) = low
            && v < l
        {
            v = l;
        }
        if let Some(h) = high
            && v > h
        {
            v = h;
        }
        if integer {
            v = if low.is_some_and(|l| v <= l) {
                v.ceil()
            } else {
                v.floor()
            };
        }
        if let Some(m) = step {
            let mut k = (v / m).ceil();
            if high.is_some_and(|h| k * m > h) {
                k = (v / m).floor();
            }
            v = k * m;
        }
        if low.is_some_and(|l| v < l) || high.is_some_and(|h| v > h) {
            return Err(format!(
                "no number fits the bounds ({lo:?}..{hi:?}, step {step:?})"
            ));
        }
        Ok(if integer || v.fract() == 0.0 && v.abs() < 9e15 {
            Value::from(v as i64)
        } else {
            serde_json::Number::from_f64(v).map_or(Value::from(1), Value::Number)
        })
    }

    fn string(&mut self, s: &Map<String, Value>) -> Result<Value, String> {
        let min = s.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
        let max = s
            .get("maxLength")
            .and_then(Value::as_u64)
            .map_or(usize::MAX, |m| m as usize);
        if let Some(pattern) = s.get("pattern").and_then(Value::as_str) {
            let choice = match self.round {
                0 | 1 => 0,
                2 => 1,
                _ => self.rng.next(),
            };
            let mut extra = 0;
            loop {
                let text = super::pattern::sample(pattern, choice, extra)?;
                let n = text.chars().count();
                if n >= min || extra > 256 {
                    if n < min || n > max {
                        return Err(format!(
                            "pattern `{pattern}` gives no string of {min} to {max} characters here"
                        ));
                    }
                    return Ok(Value::String(text));
                }
                extra += min - n;
            }
        }
        let format = s.get("format").and_then(Value::as_str).unwrap_or("");
        let encoded = s.get("contentEncoding").and_then(Value::as_str);
        let text = match (format, encoded) {
            (_, Some("base64" | "base64url")) | ("byte", _) => "aGVsbG8gd29ybGQ=".to_string(),
            ("date-time", _) => {
                ["2024-05-06T07:08:09Z", "2023-11-12T13:14:15.5Z"][self.round as usize % 2].into()
            }
            ("date", _) => "2024-05-06".into(),
            ("time", _) => "07:08:09Z".into(),
            ("duration", _) => "P1DT2H".into(),
            ("email" | "idn-email", _) => "someone@example.com".into(),
            ("hostname" | "idn-hostname", _) => "example.com".into(),
            ("ipv4", _) => "192.0.2.10".into(),
            ("ipv6", _) => "2001:db8::10".into(),
            ("uri" | "url" | "iri", _) => "https://example.com/item".into(),
            ("uri-reference" | "iri-reference", _) => "/item".into(),
            ("uri-template", _) => "https://example.com/{id}".into(),
            ("uuid", _) => [
                "3fa85f64-5717-4562-b3fc-2c963f66afa6",
                "0b9e5a04-1c2d-4e3f-8a9b-0c1d2e3f4a5b",
            ][self.round as usize % 2]
                .into(),
            ("json-pointer", _) => "/a/b".into(),
            ("relative-json-pointer", _) => "0/a".into(),
            ("regex", _) => "^a+$".into(),
            ("int32" | "int64" | "integer", _) => "7".into(),
            ("double" | "float" | "number" | "decimal", _) => "1.5".into(),
            _ => match self.round {
                0 | 1 => "text".into(),
                2 => "some text".into(),
                _ => format!("text-{}", self.rng.below(1000)),
            },
        };
        let n = text.chars().count();
        if n < min {
            if !format.is_empty() && format != "password" {
                return Err(format!("format `{format}` with minLength {min}"));
            }
            let pad: String = "x".repeat(min - n);
            return Ok(Value::String(text + &pad));
        }
        if n > max {
            if !format.is_empty() && format != "password" {
                return Err(format!("format `{format}` with maxLength {max}"));
            }
            return Ok(Value::String(
                text.chars().take(max.max(1).min(n)).collect(),
            ));
        }
        Ok(Value::String(text))
    }

    fn array(&mut self, s: &Map<String, Value>, depth: usize) -> Result<Value, String> {
        let min = s.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
        let max = s
            .get("maxItems")
            .and_then(Value::as_u64)
            .map_or(usize::MAX, |m| m as usize);
        let mut out = Vec::new();
        if let Some(prefix) = s.get("prefixItems").and_then(Value::as_array) {
            for item in prefix {
                out.push(self.value(item, depth + 1)?);
            }
        }
        let wanted = min
            .max(if depth <= OPTIONAL_DEPTH { 1 } else { 0 })
            .min(max);
        let items = s.get("items").cloned().unwrap_or(Value::Bool(true));
        let unique = s
            .get("uniqueItems")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let mut attempts = 0;
        while out.len() < wanted && items != Value::Bool(false) {
            attempts += 1;
            let saved = self.round;
            // Later items of a unique array take other choices.
            if attempts > 1 {
                self.round = 3;
            }
            let item = self.value(&items, depth + 1);
            self.round = saved;
            let item = item?;
            if unique && out.contains(&item) {
                if attempts > wanted * 8 + 8 {
                    break;
                }
                continue;
            }
            out.push(item);
        }
        if out.len() < min {
            return Err(format!("cannot make {min} distinct items"));
        }
        Ok(Value::Array(out))
    }

    fn object(&mut self, s: &Map<String, Value>, depth: usize) -> Result<Value, String> {
        let required: Vec<&str> = s
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let optional = self.include_optional(depth);
        let mut out = Map::new();
        let empty = Map::new();
        let properties = s
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let mut skipped = Vec::new();
        for (key, schema) in properties {
            let (flat, _) = self.flatten(schema, 0)?;
            if flat.get("readOnly").and_then(Value::as_bool) == Some(true) {
                continue;
            }
            let needed = required.contains(&key.as_str());
            if !needed && !optional {
                skipped.push((key, schema));
                continue;
            }
            match self.value(schema, depth + 1) {
                Ok(v) => {
                    out.insert(key.clone(), v);
                }
                Err(e) if needed => return Err(format!("/{key}: {e}")),
                Err(_) => {}
            }
        }
        for key in &required {
            if !properties.contains_key(*key) {
                out.insert((*key).to_string(), Value::String("value".into()));
            }
        }
        let additional = s.get("additionalProperties");
        let extra_allowed = !matches!(additional, Some(Value::Bool(false)));
        let min = s.get("minProperties").and_then(Value::as_u64).unwrap_or(0) as usize;
        // Optional members first, then made-up names where extra members are allowed.
        for (key, schema) in skipped {
            if out.len() >= min {
                break;
            }
            if let Ok(v) = self.value(schema, depth + 1) {
                out.insert(key.clone(), v);
            }
        }
        let wants_extra = properties.is_empty()
            && matches!(additional, Some(Value::Object(_)))
            && (self.round >= 2 || min > 0)
            && depth <= OPTIONAL_DEPTH;
        let mut n = 0;
        while extra_allowed && (out.len() < min || (wants_extra && n == 0)) {
            n += 1;
            let value = match additional {
                Some(schema @ Value::Object(_)) => self.value(schema, depth + 1)?,
                _ => Value::String("value".into()),
            };
            out.insert(format!("key{n}"), value);
        }
        Ok(Value::Object(out))
    }

    /// The schema with `$ref`s followed and `allOf` parts merged into one object, and the
    /// component name of the first `$ref` followed (`Cat` for `#/components/schemas/Cat`).
    fn flatten(
        &self,
        schema: &Value,
        hops: usize,
    ) -> Result<(Map<String, Value>, Option<String>), String> {
        if hops > 64 {
            return Err("`$ref`s or `allOf`s refer to each other without end".into());
        }
        let object = match schema {
            Value::Object(o) => o,
            Value::Bool(true) => return Ok((Map::new(), None)),
            Value::Bool(false) => return Err("the schema `false` admits no value".into()),
            other => return Err(format!("not a schema: {other}")),
        };
        let mut out = Map::new();
        let mut name = None;
        if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
            let target = self.resolve(reference)?;
            let (flat, _) = self.flatten(target, hops + 1)?;
            merge(&mut out, flat);
            name = reference.rsplit('/').next().map(str::to_string);
        }
        let mut own = object.clone();
        own.remove("$ref");
        let parts = own.remove("allOf");
        merge(&mut out, own);
        if let Some(Value::Array(parts)) = parts {
            for part in &parts {
                let (flat, _) = self.flatten(part, hops + 1)?;
                merge(&mut out, flat);
            }
        }
        Ok((out, name))
    }

    /// The schema a local `$ref` (`#/components/schemas/Pet`) points at.
    pub fn resolve(&self, reference: &str) -> Result<&'a Value, String> {
        resolve(self.root, reference)
    }
}

#[cfg(test)]
mod tests;
