//! Whether an answer fits the document: the JSON Schema keywords a decoder depends on,
//! checked by the harness itself, because Prism's own check of its answers is silent on some
//! documents (slack's examples lack required members and Prism says nothing).
//!
//! An answer the CLI could not decode is the mock's fault (or, in the examples round, the
//! document's example's) only when this finds where it breaks the document; otherwise the
//! client is wrong. Checked: `$ref`, `allOf`/`anyOf`/`oneOf`, `type` (3.0 `nullable`, 3.1
//! type lists), `enum`, `const`, object members (`required`, `properties`,
//! `additionalProperties`), items (`items`, `prefixItems`, counts), string lengths and
//! `pattern`, numeric bounds and `multipleOf`, and the formats the generated types parse
//! (the registry's integer formats `int8`…`uint64`, `uuid`, `date-time`, `date`, `ipv4`,
//! `ipv6`). Not checked (they never make a decoder fail): `not`, `uniqueItems`,
//! `patternProperties`, `dependentRequired`, `if`/`then`/`else`, discriminator mappings.

use serde_json::Value;

use super::refs::resolve;

/// Where `value`, an answer, breaks `schema` (JSON pointer: what), at most a few.
pub fn violations(root: &Value, schema: &Value, value: &Value) -> Vec<String> {
    check(root, schema, value, false)
}

/// As [`violations`], for a request: a `readOnly` member is never required (OpenAPI: "the
/// required will take effect on the response only").
pub fn request_violations(root: &Value, schema: &Value, value: &Value) -> Vec<String> {
    check(root, schema, value, true)
}

/// Where a parameter's `value` is ambiguous as the text the request carries: a mock reads a
/// path, query or header value back as whatever type fits (`1` as an integer and as a
/// string), so a `oneOf` whose variants take both (api.github.com's `workflow_id`: an
/// integer or a file name) refuses the integer's text, which fits two. Empty when the text
/// fits at most one variant, or the schema has no `oneOf` at its top.
pub fn parameter_text_violations(root: &Value, schema: &Value, value: &Value) -> Vec<String> {
    let mut schema = schema;
    for _ in 0..16 {
        match schema.get("$ref").and_then(Value::as_str) {
            Some(r) => match resolve(root, r) {
                Ok(target) => schema = target,
                Err(_) => return Vec::new(),
            },
            None => break,
        }
    }
    let Some(variants) = schema.get("oneOf").and_then(Value::as_array) else {
        return Vec::new();
    };
    let Some((text, readings)) = text_readings(value) else {
        return Vec::new();
    };
    let check = Check {
        root,
        out: Vec::new(),
        request: true,
        scope: Vec::new(),
    };
    let fitting = variants
        .iter()
        .filter(|v| readings.iter().any(|r| check.fits(v, r, 1)))
        .count();
    if fitting > 1 {
        vec![format!(
            "/: the text `{text}` fits {fitting} variants of the `oneOf` (a parameter is read back as any type its text spells)"
        )]
    } else {
        Vec::new()
    }
}

/// A parameter's value as the request carries it, text, and the readings a server may give
/// that text: itself, and the number or boolean it spells; `None` for a value that is no
/// scalar.
pub fn text_readings(value: &Value) -> Option<(String, Vec<Value>)> {
    let text = match value {
        Value::String(s) => s.clone(),
        Value::Number(_) | Value::Bool(_) => value.to_string(),
        _ => return None,
    };
    let mut readings = vec![Value::String(text.clone())];
    readings.extend(
        serde_json::from_str::<serde_json::Number>(&text)
            .ok()
            .map(Value::Number),
    );
    readings.extend(text.parse::<bool>().ok().map(Value::Bool));
    Some((text, readings))
}

fn check(root: &Value, schema: &Value, value: &Value, request: bool) -> Vec<String> {
    let mut check = Check {
        root,
        out: Vec::new(),
        request,
        scope: Vec::new(),
    };
    check.schema(schema, value, "", 0);
    check.out.truncate(8);
    check.out
}

struct Check<'a> {
    root: &'a Value,
    out: Vec<String>,
    request: bool,
    /// The dynamic scope: each `$dynamicAnchor` the schemas entered so far define in their
    /// `$defs`, outermost first (JSON Schema 2020-12: a `$dynamicRef` takes the outermost).
    scope: Vec<(String, Value)>,
}

impl Check<'_> {
    fn fail(&mut self, at: &str, what: String) {
        self.out
            .push(format!("{}: {what}", if at.is_empty() { "/" } else { at }));
    }

    /// Whether `value` fits `schema`, without recording why (for `anyOf`/`oneOf`).
    fn fits(&self, schema: &Value, value: &Value, depth: usize) -> bool {
        let mut inner = Check {
            root: self.root,
            out: Vec::new(),
            request: self.request,
            scope: self.scope.clone(),
        };
        inner.schema(schema, value, "", depth);
        inner.out.is_empty()
    }

    fn schema(&mut self, schema: &Value, value: &Value, at: &str, depth: usize) {
        let entered = self.scope.len();
        if let Some(Value::Object(defs)) = schema.get("$defs") {
            for def in defs.values() {
                if let Some(anchor) = def.get("$dynamicAnchor").and_then(Value::as_str) {
                    self.scope.push((anchor.to_owned(), def.clone()));
                }
            }
        }
        self.keywords(schema, value, at, depth);
        self.scope.truncate(entered);
    }

    fn keywords(&mut self, schema: &Value, value: &Value, at: &str, depth: usize) {
        if depth > 64 {
            return;
        }
        let s = match schema {
            Value::Bool(false) => return self.fail(at, "no value is allowed here".into()),
            Value::Object(s) => s,
            _ => return,
        };
        // scalar-galaxy's `PaginatedResource<T>`: `items: {$dynamicRef: '#itemType'}`, bound
        // by the schema that refers to it. An anchor no schema in scope defines is not
        // checked.
        if let Some(anchor) = s
            .get("$dynamicRef")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix('#'))
            && let Some((_, target)) = self.scope.iter().find(|(name, _)| name == anchor)
        {
            let target = target.clone();
            self.schema(&target, value, at, depth + 1);
        }
        if let Some(reference) = s.get("$ref").and_then(Value::as_str) {
            match resolve(self.root, reference) {
                Ok(target) => self.schema(target, value, at, depth + 1),
                // Outside the document: nothing to check against.
                Err(_) => return,
            }
        }
        if value.is_null() && s.get("nullable") == Some(&Value::Bool(true)) {
            return;
        }
        if let Some(parts) = s.get("allOf").and_then(Value::as_array) {
            for part in parts {
                self.schema(part, value, at, depth + 1);
            }
        }
        if let Some(variants) = s.get("anyOf").and_then(Value::as_array)
            && !variants.iter().any(|v| self.fits(v, value, depth + 1))
        {
            self.fail(
                at,
                format!("fits none of the {} `anyOf` variants", variants.len()),
            );
        }
        if let Some(variants) = s.get("oneOf").and_then(Value::as_array) {
            let n = variants
                .iter()
                .filter(|v| self.fits(v, value, depth + 1))
                .count();
            if n != 1 {
                self.fail(
                    at,
                    format!("fits {n} of the `oneOf` variants, not exactly one"),
                );
            }
        }
        if let Some(types) = s.get("type") {
            let names: Vec<&str> = match types {
                Value::String(t) => vec![t.as_str()],
                Value::Array(list) => list.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            if !names.is_empty() && !names.iter().any(|t| is_type(value, t)) {
                return self.fail(
                    at,
                    format!(
                        "{} where the document says {}",
                        kind(value),
                        names.join(" or ")
                    ),
                );
            }
        }
        if let Some(Value::Array(values)) = s.get("enum")
            && !values.iter().any(|v| same(v, value))
        {
            self.fail(
                at,
                format!("{} is not one of the `enum` values", short(value)),
            );
        }
        if let Some(not) = s.get("not")
            && self.fits(not, value, depth + 1)
        {
            self.fail(at, "fits the schema under `not`".into());
        }
        if let Some(c) = s.get("const")
            && !same(c, value)
        {
            self.fail(
                at,
                format!("{} is not the `const` {}", short(value), short(c)),
            );
        }
        match value {
            Value::Object(map) => self.object(s, map, at, depth),
            Value::Array(items) => self.array(s, items, at, depth),
            Value::String(text) => self.string(s, text, at),
            Value::Number(n) => self.number(s, n, at),
            _ => {}
        }
    }

    fn object(
        &mut self,
        s: &serde_json::Map<String, Value>,
        map: &serde_json::Map<String, Value>,
        at: &str,
        depth: usize,
    ) {
        let properties = s.get("properties").and_then(Value::as_object);
        for name in s
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            let read_only = || {
                properties
                    .and_then(|p| p.get(name))
                    .is_some_and(|p| self.read_only(p))
            };
            let exempt = self.request && read_only();
            if !map.contains_key(name) && !exempt {
                self.fail(at, format!("the required member `{name}` is missing"));
            }
        }
        for (key, member) in map {
            let here = format!("{at}/{}", key.replace('~', "~0").replace('/', "~1"));
            match properties.and_then(|p| p.get(key)) {
                Some(schema) => self.schema(schema, member, &here, depth + 1),
                None => match s.get("additionalProperties") {
                    Some(Value::Bool(false)) => {
                        self.fail(at, format!("the member `{key}` is not allowed"));
                    }
                    Some(extra @ Value::Object(_)) => self.schema(extra, member, &here, depth + 1),
                    _ => {}
                },
            }
        }
    }

    fn array(
        &mut self,
        s: &serde_json::Map<String, Value>,
        items: &[Value],
        at: &str,
        depth: usize,
    ) {
        let count = |k: &str| s.get(k).and_then(Value::as_u64).map(|n| n as usize);
        if count("minItems").is_some_and(|m| items.len() < m) {
            self.fail(at, format!("{} items, fewer than `minItems`", items.len()));
        }
        if count("maxItems").is_some_and(|m| items.len() > m) {
            self.fail(at, format!("{} items, more than `maxItems`", items.len()));
        }
        let prefix = s
            .get("prefixItems")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        for (i, item) in items.iter().enumerate() {
            let here = format!("{at}/{i}");
            if let Some(schema) = prefix.get(i).or_else(|| s.get("items")) {
                self.schema(schema, item, &here, depth + 1)
            }
        }
    }

    /// Whether a property's schema (through references and `allOf`) says `readOnly`.
    fn read_only(&self, schema: &Value) -> bool {
        let mut current = schema;
        for _ in 0..16 {
            if current.get("readOnly") == Some(&Value::Bool(true)) {
                return true;
            }
            if let Some(parts) = current.get("allOf").and_then(Value::as_array)
                && parts.iter().any(|p| self.read_only(p))
            {
                return true;
            }
            match current.get("$ref").and_then(Value::as_str) {
                Some(r) => match resolve(self.root, r) {
                    Ok(target) => current = target,
                    Err(_) => return false,
                },
                None => return false,
            }
        }
        false
    }

    fn string(&mut self, s: &serde_json::Map<String, Value>, text: &str, at: &str) {
        let length = text.chars().count();
        if let Some(min) = s.get("minLength").and_then(Value::as_u64)
            && (length as u64) < min
        {
            self.fail(
                at,
                format!("{length} characters, fewer than `minLength` {min}"),
            );
        }
        if let Some(max) = s.get("maxLength").and_then(Value::as_u64)
            && (length as u64) > max
        {
            self.fail(
                at,
                format!("{length} characters, more than `maxLength` {max}"),
            );
        }
        if let Some(pattern) = s.get("pattern").and_then(Value::as_str) {
            // A pattern regex-lite cannot read (look-arounds past the start) is not
            // checked here.
            if super::pattern::matches(pattern, text) == Some(false) {
                self.fail(
                    at,
                    format!(
                        "{} does not match `{pattern}`",
                        short(&Value::String(text.into()))
                    ),
                );
            }
        }
        let format = s.get("format").and_then(Value::as_str).unwrap_or("");
        let fits = match format {
            "uuid" => is_uuid(text),
            "date-time" => is_date_time(text),
            "date" => is_date(text),
            "ipv4" => text.parse::<std::net::Ipv4Addr>().is_ok(),
            "ipv6" => text.parse::<std::net::Ipv6Addr>().is_ok(),
            _ => true,
        };
        if !fits {
            self.fail(
                at,
                format!("{} is not a `{format}`", short(&Value::String(text.into()))),
            );
        }
    }

    fn number(&mut self, s: &serde_json::Map<String, Value>, n: &serde_json::Number, at: &str) {
        let Some(v) = n.as_f64() else { return };
        let get = |k: &str| s.get(k).and_then(Value::as_f64);
        let flag = |k: &str| s.get(k) == Some(&Value::Bool(true));
        if let Some(min) = get("minimum")
            && (v < min || (flag("exclusiveMinimum") && v == min))
        {
            self.fail(at, format!("{n} is below the minimum {min}"));
        }
        if let Some(min) = get("exclusiveMinimum")
            && v <= min
        {
            self.fail(at, format!("{n} is not above the exclusive minimum {min}"));
        }
        if let Some(max) = get("maximum")
            && (v > max || (flag("exclusiveMaximum") && v == max))
        {
            self.fail(at, format!("{n} is above the maximum {max}"));
        }
        if let Some(max) = get("exclusiveMaximum")
            && v >= max
        {
            self.fail(at, format!("{n} is not below the exclusive maximum {max}"));
        }
        if let Some(step) = get("multipleOf").filter(|m| *m > 0.0) {
            let k = v / step;
            if (k - k.round()).abs() > 1e-9 * k.abs().max(1.0) {
                self.fail(at, format!("{n} is not a multiple of {step}"));
            }
        }
        if let Some(format) = s.get("format").and_then(Value::as_str)
            && let Some((lo, hi)) = integer_format(format)
        {
            let inside = match (n.as_i64(), n.as_u64()) {
                (Some(i), _) => i128::from(i) >= lo && i128::from(i) <= hi,
                (None, Some(u)) => i128::from(u) <= hi,
                // A fraction, or beyond 64 bits.
                _ => v.fract() == 0.0 && v >= lo as f64 && v <= hi as f64,
            };
            if !inside {
                self.fail(at, format!("{n} is outside `{format}` ({lo}..={hi})"));
            }
        }
    }
}

/// The range of one of the format registry's integer formats.
pub fn integer_format(format: &str) -> Option<(i128, i128)> {
    Some(match format {
        "int8" => (i8::MIN.into(), i8::MAX.into()),
        "int16" => (i16::MIN.into(), i16::MAX.into()),
        "int32" => (i32::MIN.into(), i32::MAX.into()),
        "int64" => (i64::MIN.into(), i64::MAX.into()),
        "uint8" => (0, u8::MAX.into()),
        "uint16" => (0, u16::MAX.into()),
        "uint32" => (0, u32::MAX.into()),
        "uint64" => (0, u64::MAX.into()),
        _ => return None,
    })
}

fn is_type(value: &Value, t: &str) -> bool {
    match t {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "number" => value.is_number(),
        "integer" => {
            value.as_f64().is_some_and(|v| v.fract() == 0.0) || value.is_i64() || value.is_u64()
        }
        _ => true,
    }
}

fn kind(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(_) => "a boolean".into(),
        Value::Number(_) => format!("the number {value}"),
        Value::String(_) => format!("the string {}", short(value)),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// JSON equality, numbers by value (`1` equals `1.0`).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 60 {
        format!("{}…", text.chars().take(60).collect::<String>())
    } else {
        text
    }
}

fn is_uuid(text: &str) -> bool {
    let groups: Vec<&str> = text.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, n)| g.len() == n && g.chars().all(|c| c.is_ascii_hexdigit()))
}

fn is_date(text: &str) -> bool {
    let b = text.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let num = |r: std::ops::Range<usize>| text.get(r).and_then(|t| t.parse::<u32>().ok());
    let (Some(y), Some(m), Some(d)) = (num(0..4), num(5..7), num(8..10)) else {
        return false;
    };
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

/// RFC 3339 `date-time` (`T` or a space, seconds with an optional fraction, `Z` or an offset).
fn is_date_time(text: &str) -> bool {
    if text.len() < 20 || !is_date(&text[..10]) {
        return false;
    }
    let sep = text.as_bytes()[10];
    if !matches!(sep, b'T' | b't' | b' ') {
        return false;
    }
    let rest = &text[11..];
    let (time, zone) = match rest.find(['Z', 'z', '+', '-']) {
        Some(i) => rest.split_at(i),
        None => return false,
    };
    let clock: Vec<&str> = time.split(':').collect();
    let hms_ok = clock.len() == 3
        && clock[0].len() == 2
        && clock[1].len() == 2
        && clock[0].parse::<u32>().is_ok_and(|h| h < 24)
        && clock[1].parse::<u32>().is_ok_and(|m| m < 60)
        && {
            let (sec, frac) = clock[2].split_once('.').unwrap_or((clock[2], "0"));
            sec.len() == 2
                && sec.parse::<u32>().is_ok_and(|s| s <= 60)
                && !frac.is_empty()
                && frac.chars().all(|c| c.is_ascii_digit())
        };
    let zone_ok = matches!(zone, "Z" | "z")
        || (zone.len() == 6
            && zone.as_bytes()[3] == b':'
            && zone[1..3].parse::<u32>().is_ok()
            && zone[4..].parse::<u32>().is_ok());
    hms_ok && zone_ok
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_dynamic_reference_takes_the_outermost_anchor() {
        let root = json!({"components": {"schemas": {
            "Planet": {"type": "object", "required": ["name"]},
            "Paginated": {
                "$defs": {"itemType": {"$dynamicAnchor": "itemType", "not": {}}},
                "type": "object",
                "properties": {"data": {"type": "array", "items": {"$dynamicRef": "#itemType"}}}
            }
        }}});
        let planets = json!({
            "$defs": {"itemType": {"$dynamicAnchor": "itemType", "$ref": "#/components/schemas/Planet"}},
            "$ref": "#/components/schemas/Paginated"
        });
        assert!(violations(&root, &planets, &json!({"data": [{"name": "Mars"}]})).is_empty());
        assert_eq!(
            violations(
                &root,
                &planets,
                &json!({"data": [{"$dynamicRef": "#itemType"}]})
            ),
            ["/data/0: the required member `name` is missing"]
        );
        // Alone, the generic schema's own anchor (`not: {}`) admits no item.
        let generic = json!({"$ref": "#/components/schemas/Paginated"});
        assert!(!violations(&root, &generic, &json!({"data": [{"name": "Mars"}]})).is_empty());
    }

    #[test]
    fn answers_are_checked_against_the_schema() {
        let root = json!({"components": {"schemas": {
            "Group": {"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}, "size": {"type": "integer", "format": "uint16"}}}
        }}});
        let schema = json!({"type": "object", "required": ["ok", "group"], "properties": {
            "ok": {"enum": [true]}, "group": {"$ref": "#/components/schemas/Group"}}});
        assert!(
            violations(
                &root,
                &schema,
                &json!({"ok": true, "group": {"id": "g", "size": 3}})
            )
            .is_empty()
        );
        assert_eq!(
            violations(&root, &schema, &json!({"ok": true})),
            ["/: the required member `group` is missing"]
        );
        assert_eq!(
            violations(
                &root,
                &schema,
                &json!({"ok": true, "group": {"id": "g", "size": 30818977}})
            ),
            ["/group/size: 30818977 is outside `uint16` (0..=65535)"]
        );
        assert_eq!(
            violations(&root, &schema, &json!({"ok": false, "group": {"id": 1}})),
            [
                "/ok: false is not one of the `enum` values",
                "/group/id: the number 1 where the document says string"
            ]
        );
        let nullable = json!({"type": "string", "nullable": true, "format": "date-time"});
        assert!(violations(&root, &nullable, &Value::Null).is_empty());
        assert!(violations(&root, &nullable, &json!("2024-05-06T07:08:09.5+02:00")).is_empty());
        assert_eq!(violations(&root, &nullable, &json!("yesterday")).len(), 1);
        let one_of = json!({"oneOf": [{"type": "integer"}, {"type": "number"}]});
        assert_eq!(
            violations(&root, &one_of, &json!(2)),
            ["/: fits 2 of the `oneOf` variants, not exactly one"]
        );
        assert!(violations(&root, &one_of, &json!(2.5)).is_empty());
        assert!(violations(&root, &json!({"type": ["array", "null"]}), &Value::Null).is_empty());
    }

    #[test]
    fn a_request_leaves_read_only_members_out_and_not_is_checked() {
        let root = json!({"components": {"schemas": {
            "Id": {"type": "string", "readOnly": true}
        }}});
        // scalar-galaxy's planets: `id` required and readOnly (here through a reference).
        let planet = json!({"type": "object", "required": ["id", "name"], "properties": {
            "id": {"$ref": "#/components/schemas/Id"}, "name": {"type": "string"}}});
        let body = json!({"name": "Mars"});
        assert!(request_violations(&root, &planet, &body).is_empty());
        assert_eq!(
            violations(&root, &planet, &body),
            ["/: the required member `id` is missing"],
            "an answer must carry it"
        );
        let not_empty = json!({"type": "string", "not": {"enum": [""]}});
        assert!(violations(&root, &not_empty, &json!("x")).is_empty());
        assert_eq!(
            violations(&root, &not_empty, &json!("")),
            ["/: fits the schema under `not`"]
        );
    }
}
