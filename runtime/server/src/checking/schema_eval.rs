//! A compiled [`Schema`] walked over a JSON value: every keyword held as JSON Schema says,
//! each violation named by the JSON pointer of the value that breaks it.
//!
//! One walk serves both uses: collecting violations (a request's answer names them all) and
//! the yes-or-no a union, `not` or `if` needs of a part, which stops at the first failure and
//! builds no pointer or message.

use std::cmp::Ordering;

use serde_json::{Map, Number, Value};

use super::schema::{Keywords, Node, Schema, types};
use super::validate::{Violations, join, join_index};

/// Records a failure: `$ok` becomes false and the violation is pushed; with no sink (a yes or
/// no is wanted) the answer is known, and the function returns.
macro_rules! fail {
    ($ok:ident, $out:ident, $pointer:expr, $($message:tt)+) => {{
        $ok = false;
        match $out.as_deref_mut() {
            Some(o) => o.push($pointer, format!($($message)+)),
            None => return false,
        }
    }};
}

/// Records a part's verdict (a subschema walked with the same sink): as [`fail!`] when it
/// did not pass.
macro_rules! verdict {
    ($ok:ident, $out:ident, $passed:expr) => {{
        if !$passed {
            $ok = false;
            if $out.is_none() {
                return false;
            }
        }
    }};
}

impl Schema {
    /// Pushes a violation (pointer below `pointer`, message) for every keyword `value` breaks.
    /// A valid value is walked once without building a pointer or a message; only an invalid
    /// one is walked again to name every violation (as `body::decode_json` decodes again only
    /// what failed).
    pub fn check(&self, value: &Value, pointer: &str, out: &mut Violations) {
        if !self.eval(0, value, "", None) {
            self.eval(0, value, pointer, Some(out));
        }
    }

    /// Whether `value` is valid (stops at the first failure).
    pub fn is_valid(&self, value: &Value) -> bool {
        self.eval(0, value, "", None)
    }

    pub(crate) fn eval(
        &self,
        node: usize,
        v: &Value,
        at: &str,
        out: Option<&mut Violations>,
    ) -> bool {
        match &self.nodes[node] {
            Node::Always(true) => true,
            Node::Always(false) => {
                if let Some(out) = out {
                    out.push(at, "no value is allowed here");
                }
                false
            }
            Node::Keywords(k) => self.keywords(k, v, at, out),
        }
    }

    fn keywords(
        &self,
        k: &Keywords,
        v: &Value,
        at: &str,
        mut out: Option<&mut Violations>,
    ) -> bool {
        if k.nullable && v.is_null() {
            return true;
        }
        let mut ok = true;
        if let Some(r) = k.reference {
            verdict!(ok, out, self.eval(r, v, at, out.as_deref_mut()));
        }
        if k.types != 0 && !type_fits(k.types, v) {
            fail!(
                ok,
                out,
                at,
                "must be {}, got {}",
                type_names(k.types),
                kind(v)
            );
        }
        if let Some(allowed) = &k.enumeration
            && !allowed.iter().any(|a| equal(a, v))
        {
            fail!(ok, out, at, "must be one of {}", list(allowed));
        }
        if let Some(c) = &k.constant
            && !equal(c, v)
        {
            fail!(ok, out, at, "must be {c}");
        }
        match v {
            Value::Number(n) => {
                for b in &k.bounds {
                    let order = compare(n, &b.value);
                    let breaks = match (b.upper, b.exclusive) {
                        (true, false) => order == Ordering::Greater,
                        (true, true) => order != Ordering::Less,
                        (false, false) => order == Ordering::Less,
                        (false, true) => order != Ordering::Greater,
                    };
                    if breaks {
                        let (word, or_equal) = if b.upper {
                            ("at most", "below")
                        } else {
                            ("at least", "above")
                        };
                        if b.exclusive {
                            fail!(ok, out, at, "must be {or_equal} {}, got {n}", b.value);
                        } else {
                            fail!(ok, out, at, "must be {word} {}, got {n}", b.value);
                        }
                    }
                }
                if let Some(m) = &k.multiple_of
                    && !multiple_of(n, m)
                {
                    fail!(ok, out, at, "must be a multiple of {m}, got {n}");
                }
            }
            Value::String(s) => {
                if k.min_length.is_some() || k.max_length.is_some() {
                    let n = s.chars().count() as u64;
                    if let Some(min) = k.min_length.filter(|min| n < *min) {
                        fail!(
                            ok,
                            out,
                            at,
                            "must be at least {min} characters long, got {n}"
                        );
                    }
                    if let Some(max) = k.max_length.filter(|max| n > *max) {
                        fail!(
                            ok,
                            out,
                            at,
                            "must be at most {max} characters long, got {n}"
                        );
                    }
                }
                if let Some((pattern, text)) = &k.pattern
                    && !pattern.is_match(s)
                {
                    fail!(ok, out, at, "must match the pattern {text:?}");
                }
                if let Some(format) = k.format
                    && !format_fits(format, s)
                {
                    fail!(ok, out, at, "must be a valid {format}");
                }
            }
            Value::Array(items) => {
                let n = items.len() as u64;
                if let Some(min) = k.min_items.filter(|min| n < *min) {
                    fail!(ok, out, at, "must have at least {min} items, got {n}");
                }
                if let Some(max) = k.max_items.filter(|max| n > *max) {
                    fail!(ok, out, at, "must have at most {max} items, got {n}");
                }
                if k.unique_items
                    && let Some((i, j)) = duplicate(items)
                {
                    fail!(
                        ok,
                        out,
                        at,
                        "items {i} and {j} are equal: items must be unique"
                    );
                }
                for (i, item) in items.iter().enumerate() {
                    let schema = k
                        .prefix_items
                        .get(i)
                        .copied()
                        .or(if i >= k.prefix_items.len() {
                            k.items
                        } else {
                            None
                        });
                    if let Some(schema) = schema {
                        let pointer = if out.is_some() {
                            join_index(at, i)
                        } else {
                            String::new()
                        };
                        verdict!(
                            ok,
                            out,
                            self.eval(schema, item, &pointer, out.as_deref_mut())
                        );
                    }
                }
                if let Some(contains) = k.contains {
                    let found = items
                        .iter()
                        .filter(|item| self.eval(contains, item, "", None))
                        .count() as u64;
                    let min = k.min_contains.unwrap_or(1);
                    if found < min {
                        fail!(
                            ok,
                            out,
                            at,
                            "must contain at least {min} matching items, got {found}"
                        );
                    }
                    if let Some(max) = k.max_contains.filter(|max| found > *max) {
                        fail!(
                            ok,
                            out,
                            at,
                            "must contain at most {max} matching items, got {found}"
                        );
                    }
                }
            }
            Value::Object(map) => {
                verdict!(ok, out, self.object(k, v, map, at, out.as_deref_mut()))
            }
            Value::Null | Value::Bool(_) => {}
        }
        for &part in &k.all_of {
            verdict!(ok, out, self.eval(part, v, at, out.as_deref_mut()));
        }
        // A discriminator decides the branch of an object by its property (OpenAPI): an object
        // whose property names a branch is held to that branch alone, one whose property names
        // none is refused (as the types' decoding refuses it), and one without the property is
        // held to `defaultMapping`'s branch where the document gives one, else to
        // `anyOf`/`oneOf` as JSON Schema reads them (the branches say whether the property is
        // required; scalar-galaxy's `CelestialBody` does not require its `type`).
        let mut discriminated = false;
        if let (Some(d), Value::Object(map)) = (&k.discriminator, v) {
            let branch = match map.get(&d.property) {
                None => d.default,
                Some(tag) => match d
                    .tags
                    .iter()
                    .find(|(t, _)| tag.as_str() == Some(t.as_str()))
                {
                    Some((_, node)) => Some(*node),
                    None => {
                        let known: Vec<&str> = d.tags.iter().map(|(t, _)| t.as_str()).collect();
                        fail!(
                            ok,
                            out,
                            &join(at, &d.property),
                            "must be one of {}, got {tag}",
                            known.join(", ")
                        );
                        discriminated = true;
                        None
                    }
                },
            };
            if let Some(node) = branch {
                discriminated = true;
                verdict!(ok, out, self.eval(node, v, at, out.as_deref_mut()));
            }
        }
        if !discriminated
            && !k.any_of.is_empty()
            && !k.any_of.iter().any(|&b| self.eval(b, v, "", None))
        {
            let why = self.why_not(&k.any_of, v, at, out.is_some());
            fail!(
                ok,
                out,
                at,
                "must match at least one of the {} schemas of anyOf, matches none{why}",
                k.any_of.len()
            );
        }
        if !discriminated && !k.one_of.is_empty() {
            let matching: Vec<usize> = (0..k.one_of.len())
                .filter(|&i| self.eval(k.one_of[i], v, "", None))
                .collect();
            match matching.len() {
                1 => {}
                0 => {
                    let why = self.why_not(&k.one_of, v, at, out.is_some());
                    fail!(
                        ok,
                        out,
                        at,
                        "must match exactly one of the {} schemas of oneOf, matches none{why}",
                        k.one_of.len()
                    )
                }
                _ => fail!(
                    ok,
                    out,
                    at,
                    "must match exactly one schema of oneOf, matches {}",
                    list_indices(&matching)
                ),
            }
        }
        if let Some(not) = k.not
            && self.eval(not, v, "", None)
        {
            match self.required_only(not) {
                // `not: {required: [image_url, file_id]}`: a URL or a file id, not both.
                Some(names) => fail!(ok, out, at, "must not have all of {names}"),
                None => fail!(ok, out, at, "must not match the schema of `not`"),
            }
        }
        if let Some((condition, then, other)) = k.condition {
            let branch = if self.eval(condition, v, "", None) {
                then
            } else {
                other
            };
            if let Some(branch) = branch {
                verdict!(ok, out, self.eval(branch, v, at, out.as_deref_mut()));
            }
        }
        ok
    }

    /// The names a schema that says only `required` lists (`` `a`, `b` ``), for the message
    /// of its `not`.
    fn required_only(&self, node: usize) -> Option<String> {
        let Node::Keywords(k) = &self.nodes[node] else {
            return None;
        };
        let same = k.types == 0
            && k.properties.is_empty()
            && k.all_of.is_empty()
            && k.any_of.is_empty()
            && k.one_of.is_empty()
            && k.not.is_none()
            && k.reference.is_none()
            && k.enumeration.is_none()
            && k.constant.is_none()
            && k.min_properties.is_none()
            && k.max_properties.is_none()
            && k.additional.is_none()
            && k.dependent_required.is_empty()
            && !k.required.is_empty();
        same.then(|| {
            let names: Vec<String> = k.required.iter().map(|n| format!("`{n}`")).collect();
            names.join(", ")
        })
    }

    /// Why each branch of a union refuses `v` (its first violation), for the message of a
    /// value that fits none: ` (#0: /a: must be a string, got a number; #1: …)`. Empty when
    /// no message is wanted.
    fn why_not(&self, branches: &[usize], v: &Value, at: &str, wanted: bool) -> String {
        if !wanted {
            return String::new();
        }
        let reasons: Vec<String> = branches
            .iter()
            .enumerate()
            .map(|(i, &branch)| {
                let mut scratch = Violations::new();
                self.eval(branch, v, at, Some(&mut scratch));
                match scratch.as_slice().first() {
                    Some(first) if first.pointer == at => format!("#{i}: {}", first.message),
                    Some(first) => format!("#{i}: {}: {}", first.pointer, first.message),
                    None => format!("#{i}: refused"),
                }
            })
            .collect();
        format!(" ({})", reasons.join("; "))
    }

    fn object(
        &self,
        k: &Keywords,
        whole: &Value,
        map: &Map<String, Value>,
        at: &str,
        mut out: Option<&mut Violations>,
    ) -> bool {
        let mut ok = true;
        let n = map.len() as u64;
        if let Some(min) = k.min_properties.filter(|min| n < *min) {
            fail!(ok, out, at, "must have at least {min} properties, got {n}");
        }
        if let Some(max) = k.max_properties.filter(|max| n > *max) {
            fail!(ok, out, at, "must have at most {max} properties, got {n}");
        }
        for name in &k.required {
            if !map.contains_key(name) {
                fail!(ok, out, &join(at, name), "is required");
            }
        }
        for (present, needed) in &k.dependent_required {
            if map.contains_key(present) {
                for name in needed.iter().filter(|n| !map.contains_key(*n)) {
                    fail!(
                        ok,
                        out,
                        &join(at, name),
                        "is required when `{present}` is present"
                    );
                }
            }
        }
        for (name, value) in map {
            let pointer = if out.is_some() {
                join(at, name)
            } else {
                String::new()
            };
            if let Some(names) = k.property_names
                && !self.eval(names, &Value::String(name.clone()), "", None)
            {
                fail!(ok, out, &pointer, "this property name is not allowed here");
            }
            let mut matched = false;
            if let Some((_, schema)) = k.properties.iter().find(|(p, _)| p == name) {
                matched = true;
                verdict!(
                    ok,
                    out,
                    self.eval(*schema, value, &pointer, out.as_deref_mut())
                )
            }
            for (pattern, schema) in &k.pattern_properties {
                if pattern.is_match(name) {
                    matched = true;
                    verdict!(
                        ok,
                        out,
                        self.eval(*schema, value, &pointer, out.as_deref_mut())
                    )
                }
            }
            if !matched && let Some(additional) = k.additional {
                if matches!(self.nodes[additional], Node::Always(false)) {
                    fail!(ok, out, &pointer, "is not a property this object may have");
                } else {
                    verdict!(
                        ok,
                        out,
                        self.eval(additional, value, &pointer, out.as_deref_mut())
                    );
                }
            }
        }
        for (present, schema) in &k.dependent_schemas {
            if map.contains_key(present) {
                verdict!(ok, out, self.eval(*schema, whole, at, out.as_deref_mut()));
            }
        }
        ok
    }
}

fn type_fits(allowed: u8, v: &Value) -> bool {
    let bit = match v {
        Value::Null => types::NULL,
        Value::Bool(_) => types::BOOLEAN,
        Value::Object(_) => types::OBJECT,
        Value::Array(_) => types::ARRAY,
        Value::String(_) => types::STRING,
        Value::Number(n) => {
            // Every integer serde_json holds is a whole double too.
            let whole = n.as_f64().is_some_and(|f| f.fract() == 0.0);
            if whole && allowed & types::INTEGER != 0 {
                return true;
            }
            types::NUMBER
        }
    };
    allowed & bit != 0
}

fn type_names(allowed: u8) -> String {
    let names = [
        (types::NULL, "null"),
        (types::BOOLEAN, "a boolean"),
        (types::OBJECT, "an object"),
        (types::ARRAY, "an array"),
        (types::NUMBER, "a number"),
        (types::STRING, "a string"),
        (types::INTEGER, "an integer"),
    ];
    let listed: Vec<&str> = names
        .iter()
        .filter(|(b, _)| allowed & b != 0)
        .map(|(_, n)| *n)
        .collect();
    listed.join(" or ")
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Object(_) => "an object",
        Value::Array(_) => "an array",
        Value::String(_) => "a string",
        Value::Number(_) => "a number",
    }
}

/// Two numbers in order, exactly when both are integers.
fn compare(a: &Number, b: &Number) -> Ordering {
    let int = |n: &Number| {
        n.as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from))
    };
    match (int(a), int(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        _ => {
            let (x, y) = (
                a.as_f64().unwrap_or(f64::NAN),
                b.as_f64().unwrap_or(f64::NAN),
            );
            x.partial_cmp(&y).unwrap_or(Ordering::Equal)
        }
    }
}

fn multiple_of(n: &Number, m: &Number) -> bool {
    let int = |n: &Number| {
        n.as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from))
    };
    if let (Some(x), Some(y)) = (int(n), int(m))
        && y != 0
    {
        return x % y == 0;
    }
    let (x, y) = (
        n.as_f64().unwrap_or(f64::NAN),
        m.as_f64().unwrap_or(f64::NAN),
    );
    let q = x / y;
    if !q.is_finite() {
        return false;
    }
    // A quotient this close to a whole number is one: 0.0075 / 0.0001 is 74.99999999999999.
    (q - q.round()).abs() <= 1e-9 * q.abs().max(1.0)
}

/// JSON equality: numbers by value (`1` equals `1.0`), objects whatever their order.
pub(crate) fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => compare(x, y) == Ordering::Equal,
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| equal(v, w)))
        }
        _ => a == b,
    }
}

/// The first two equal items, if any.
fn duplicate(items: &[Value]) -> Option<(usize, usize)> {
    for i in 0..items.len() {
        for j in i + 1..items.len() {
            if equal(&items[i], &items[j]) {
                return Some((i, j));
            }
        }
    }
    None
}

fn format_fits(format: &str, s: &str) -> bool {
    use super::formats;
    match format {
        "uri" => formats::is_uri(s),
        "uri-reference" => formats::is_uri_reference(s),
        "email" => formats::is_email(s),
        "hostname" => formats::is_hostname(s),
        "decimal" => super::decimal::is_decimal(s),
        "uuid" => formats::uuid(s).is_some(),
        "date-time" => formats::date_time(s).is_some(),
        "date" => formats::date(s).is_some(),
        "ipv4" => s.parse::<std::net::Ipv4Addr>().is_ok(),
        "ipv6" => s.parse::<std::net::Ipv6Addr>().is_ok(),
        _ => true,
    }
}

fn list(values: &[Value]) -> String {
    let shown: Vec<String> = values.iter().take(10).map(Value::to_string).collect();
    let more = if values.len() > 10 { ", …" } else { "" };
    format!("{}{more}", shown.join(", "))
}

fn list_indices(indices: &[usize]) -> String {
    let shown: Vec<String> = indices.iter().map(|i| format!("#{i}")).collect();
    shown.join(" and ")
}
