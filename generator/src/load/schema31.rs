//! JSON Schema 2020-12 (the Schema Object of OpenAPI 3.1/3.2) read into the 3.0 Schema
//! Object shape: `type` lists and `{type: null}` branches become `nullable`, numeric
//! exclusive bounds become 3.0's flags, `const` a one-value `enum`, `$ref` siblings an
//! `allOf`, and the keywords 3.0 has no field for travel in `x-apigen-*` extensions.

use super::normalize::{Loc, Normalizer};
use crate::diag::push;
use serde_json::{Map, Value};

/// Keywords that only describe (kept on the outer schema when a schema is split or wrapped).
const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "summary",
    "default",
    "example",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "externalDocs",
    "xml",
    "$comment",
    "nullable",
];

/// Which keywords belong to which instance type, for splitting a multi-type schema.
fn keyword_type(key: &str) -> Option<&'static str> {
    Some(match key {
        "minLength" | "maxLength" | "pattern" | "contentEncoding" | "contentMediaType"
        | "contentSchema" => "string",
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => "number",
        "items" | "prefixItems" | "minItems" | "maxItems" | "uniqueItems" | "contains"
        | "minContains" | "maxContains" | "unevaluatedItems" => "array",
        "properties"
        | "required"
        | "additionalProperties"
        | "patternProperties"
        | "minProperties"
        | "maxProperties"
        | "propertyNames"
        | "dependentRequired"
        | "dependentSchemas"
        | "unevaluatedProperties"
        | "discriminator" => "object",
        _ => return None,
    })
}

/// Keywords we do not check, with why they fall back (the schema's other keywords apply).
const UNCHECKED: &[(&str, &str)] = &[
    (
        "if",
        "`if`/`then`/`else` is checked where it describes a JSON, form or multipart request body or a parameter (the server holds such a value to its schema as written) and nowhere else (the client decodes answers by their types); the other keywords of the schema still apply",
    ),
    (
        "dependentSchemas",
        "`dependentSchemas` is checked where it describes a JSON, form or multipart request body or a parameter (the server holds such a value to its schema as written) and nowhere else (the client decodes answers by their types)",
    ),
    (
        "propertyNames",
        "`propertyNames` is checked where it describes a JSON, form or multipart request body or a parameter (the server holds such a value to its schema as written) and nowhere else (the client decodes answers by their types)",
    ),
    (
        "contains",
        "`contains` is checked where it describes a JSON, form or multipart request body or a parameter (the server holds such a value to its schema as written) and nowhere else (the client decodes answers by their types)",
    ),
    (
        "unevaluatedItems",
        "`unevaluatedItems` is not checked by the generated code",
    ),
    (
        "$anchor",
        "`$anchor` is not resolved; references must be JSON pointers (`#/components/schemas/…`)",
    ),
    (
        "$id",
        "`$id` is not resolved; references must be JSON pointers (`#/components/schemas/…`)",
    ),
];

fn is_null_schema(v: &Value) -> bool {
    let Some(obj) = v.as_object() else {
        return false;
    };
    let only_null_type = match obj.get("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(ts)) => ts.len() == 1 && ts[0] == "null",
        _ => false,
    };
    let null_enum = obj.get("const") == Some(&Value::Null)
        || obj
            .get("enum")
            .and_then(Value::as_array)
            .is_some_and(|e| e.len() == 1 && e[0].is_null());
    (only_null_type || null_enum)
        && obj.keys().all(|k| {
            matches!(k.as_str(), "type" | "const" | "enum") || ANNOTATIONS.contains(&k.as_str())
        })
}

impl Normalizer {
    /// Moves each component schema's `$defs` into `components/schemas` (named
    /// `<Component>_<Def>`), marking where it was written with `x-apigen-origin`.
    pub(super) fn hoist_defs(&mut self, components: &mut Map<String, Value>, at: &Loc) {
        self.hoist(components, at, "$defs");
    }

    /// [`Self::hoist_defs`] for the entries of `key` (`$defs`; 3.0's `definitions`, draft 4's
    /// spelling, which the 3.0 model does not keep: a reference into it found nothing).
    pub(super) fn hoist(&mut self, components: &mut Map<String, Value>, at: &Loc, key: &str) {
        let Some(Value::Object(schemas)) = components.get_mut("schemas") else {
            return;
        };
        let mut queue: Vec<String> = schemas.keys().cloned().collect();
        while let Some(name) = queue.pop() {
            let Some(Value::Object(schema)) = schemas.get_mut(&name) else {
                continue;
            };
            let Some(Value::Object(defs)) = schema.remove(key) else {
                continue;
            };
            let owner = schema
                .get("x-apigen-origin")
                .and_then(Value::as_str)
                .map(str::to_string)
                .unwrap_or_else(|| push(&push(&at.orig, "schemas"), &name));
            for (def, mut s) in defs {
                let mut new_name = format!("{name}_{def}");
                let mut n = 2;
                while schemas.contains_key(&new_name) {
                    new_name = format!("{name}_{def}{n}");
                    n += 1;
                }
                let origin = push(&push(&owner, key), &def);
                if let Value::Object(obj) = &mut s {
                    obj.insert("x-apigen-origin".into(), Value::String(origin.clone()));
                } else {
                    s = Value::Object(Map::from_iter([
                        ("allOf".to_string(), Value::Array(vec![s])),
                        ("x-apigen-origin".to_string(), Value::String(origin.clone())),
                    ]));
                }
                self.moves
                    .record(&push(&push(&at.out, "schemas"), &new_name), &origin, true);
                schemas.insert(new_name.clone(), s);
                queue.push(new_name);
            }
        }
    }

    /// Up-reads one schema in place (and every schema inside it).
    pub(super) fn schema(&mut self, v: &mut Value, loc: &Loc) {
        // Boolean schemas: `true` admits anything, `false` nothing.
        if let Value::Bool(b) = v {
            *v = if *b {
                Value::Object(Map::new())
            } else {
                serde_json::json!({"not": {}})
            };
            return;
        }
        let Some(obj) = v.as_object_mut() else {
            return;
        };
        // Unions with `null` first: a single remaining branch may be a `$ref` with siblings.
        self.null_branches(obj, "anyOf", loc);
        self.null_branches(obj, "oneOf", loc);
        const_branches(obj, "oneOf");
        const_branches(obj, "anyOf");
        if obj.contains_key("$ref") {
            let parts = self.ref_siblings(obj, loc);
            if parts.is_empty() {
                return;
            }
            examples(obj);
            if let Some(Value::Array(list)) = obj.get_mut("allOf") {
                for (part, at) in list.iter_mut().zip(parts) {
                    self.schema(part, &at);
                }
            }
            return;
        }
        if let Some(Value::String(target)) = obj.get("$dynamicRef") {
            let message = format!(
                "`$dynamicRef: {target}` (a schema bound where it is used) cannot be expressed as a Rust type; using any JSON value"
            );
            obj.remove("$dynamicRef");
            self.warn(loc, message);
        }
        for (key, message) in UNCHECKED {
            if obj.contains_key(*key) {
                self.warn(&loc.child(key), *message);
            }
        }
        if obj.contains_key("not") && obj.len() > 1 {
            self.warn(
                &loc.child("not"),
                "`not` is checked where it describes a JSON, form or multipart request body or a parameter (the server holds such a value to its schema as written) and nowhere else (the client decodes answers by their types); the other keywords of the schema still apply",
            );
        }
        if let Some(Value::String(s)) = obj.get("$schema")
            && !s.contains("2020-12")
            && !s.contains("spec.openapis.org/oas/3.")
        {
            let s = s.clone();
            self.warn(
                &loc.child("$schema"),
                format!("schema read as JSON Schema 2020-12, not as `{s}`"),
            );
        }
        self.constant(obj, loc);
        if self.type_list(obj) {
            // Split into `anyOf` branches: each walked where it now stands.
            if let Some(Value::Array(branches)) = obj.get_mut("anyOf") {
                for (i, b) in branches.iter_mut().enumerate() {
                    let out = push(&push(&loc.out, "anyOf"), &i.to_string());
                    self.moves.record(&out, &loc.orig, true);
                    self.schema(
                        b,
                        &Loc {
                            out,
                            orig: loc.orig.clone(),
                        },
                    );
                }
            }
            return;
        }
        bounds(obj, "exclusiveMinimum", "minimum", |bound, exclusive| {
            bound > exclusive
        });
        bounds(obj, "exclusiveMaximum", "maximum", |bound, exclusive| {
            bound < exclusive
        });
        self.integer_bounds(obj, loc);
        examples(obj);
        if let Some(Value::Bool(false)) = obj.get("unevaluatedProperties")
            && !obj.contains_key("additionalProperties")
        {
            obj.insert("additionalProperties".into(), Value::Bool(false));
        } else if obj.contains_key("unevaluatedProperties") {
            self.warn(
                &loc.child("unevaluatedProperties"),
                "`unevaluatedProperties` other than `false` is not checked by the generated code",
            );
        }
        for (key, ext) in [
            ("prefixItems", "x-apigen-prefix-items"),
            ("patternProperties", "x-apigen-pattern-properties"),
            ("dependentRequired", "x-apigen-dependent-required"),
            ("contentEncoding", "x-apigen-content-encoding"),
            ("contentMediaType", "x-apigen-content-media-type"),
        ] {
            if let Some(value) = obj.remove(key) {
                let at = loc.renamed(ext, key);
                self.moves.record(&at.out, &at.orig, true);
                obj.insert(ext.into(), value);
            }
        }
        self.subschemas(obj, loc);
    }

    /// Walks every schema a schema holds.
    fn subschemas(&mut self, obj: &mut Map<String, Value>, loc: &Loc) {
        for key in [
            "items",
            "additionalProperties",
            "not",
            "if",
            "then",
            "else",
            "contains",
            "propertyNames",
            "unevaluatedItems",
            "unevaluatedProperties",
            "contentSchema",
        ] {
            if let Some(s) = obj.get_mut(key) {
                // `additionalProperties: false` means the same in 3.0.
                if key == "additionalProperties" && s.is_boolean() {
                    continue;
                }
                self.schema(s, &loc.child(key));
            }
        }
        for key in [
            "properties",
            "x-apigen-pattern-properties",
            "dependentSchemas",
        ] {
            if let Some(Value::Object(map)) = obj.get_mut(key) {
                let at = if key == "x-apigen-pattern-properties" {
                    loc.renamed(key, "patternProperties")
                } else {
                    loc.child(key)
                };
                for (name, s) in map.iter_mut() {
                    self.schema(s, &at.child(name));
                }
            }
        }
        for key in ["allOf", "anyOf", "oneOf", "x-apigen-prefix-items"] {
            if let Some(Value::Array(list)) = obj.get_mut(key) {
                let at = if key == "x-apigen-prefix-items" {
                    loc.renamed(key, "prefixItems")
                } else {
                    loc.child(key)
                };
                for (i, s) in list.iter_mut().enumerate() {
                    self.schema(s, &at.child(&i.to_string()));
                }
            }
        }
    }

    /// 3.1: keywords beside `$ref` apply too. Annotations and `nullable` go on an `allOf`
    /// wrapper (how 3.0 models them); a `$ref` with nothing else beside stays a reference.
    /// Returns where each `allOf` part stands (empty when nothing was wrapped).
    fn ref_siblings(&mut self, obj: &mut Map<String, Value>, loc: &Loc) -> Vec<Loc> {
        let siblings: Vec<String> = obj
            .keys()
            .filter(|k| *k != "$ref" && *k != "$comment")
            .cloned()
            .collect();
        if siblings.is_empty() {
            return Vec::new();
        }
        let part_at = |i: usize, orig: String| Loc {
            out: push(&push(&loc.out, "allOf"), &i.to_string()),
            orig,
        };
        let mut locs = vec![part_at(0, loc.orig.clone())];
        let reference = obj.remove("$ref").unwrap_or(Value::Null);
        let mut inner = Map::new();
        inner.insert("$ref".into(), reference);
        let mut all_of = vec![Value::Object(inner)];
        self.moves
            .record(&push(&push(&loc.out, "allOf"), "0"), &loc.orig, true);
        // Keywords that constrain (not only describe) form a second part, so the lowering
        // merges them with the referenced schema as it does any `allOf`.
        let structural: Vec<String> = siblings
            .iter()
            .filter(|k| !ANNOTATIONS.contains(&k.as_str()) && !k.starts_with("x-") && *k != "allOf")
            .cloned()
            .collect();
        if !structural.is_empty() {
            let mut part = Map::new();
            for k in structural {
                if let Some(v) = obj.remove(&k) {
                    part.insert(k, v);
                }
            }
            self.moves
                .record(&push(&push(&loc.out, "allOf"), "1"), &loc.orig, false);
            all_of.push(Value::Object(part));
            locs.push(part_at(1, loc.orig.clone()));
        }
        // An `allOf` already beside the reference keeps its parts after those.
        if let Some(Value::Array(parts)) = obj.remove("allOf") {
            let first = all_of.len();
            for (i, p) in parts.into_iter().enumerate() {
                let out = push(&push(&loc.out, "allOf"), &(first + i).to_string());
                let orig = push(&push(&loc.orig, "allOf"), &i.to_string());
                self.moves.record(&out, &orig, true);
                all_of.push(p);
                locs.push(part_at(first + i, orig));
            }
        }
        obj.insert("allOf".into(), Value::Array(all_of));
        locs
    }

    /// Removes `{type: null}` branches of `anyOf`/`oneOf`, marking the schema `nullable`; a
    /// single remaining branch replaces the union.
    fn null_branches(&mut self, obj: &mut Map<String, Value>, key: &str, loc: &Loc) {
        let Some(Value::Array(branches)) = obj.get(key) else {
            return;
        };
        if !branches.iter().any(is_null_schema) {
            return;
        }
        let Some(Value::Array(branches)) = obj.remove(key) else {
            return;
        };
        obj.insert("nullable".into(), Value::Bool(true));
        let kept: Vec<(usize, Value)> = branches
            .into_iter()
            .enumerate()
            .filter(|(_, b)| !is_null_schema(b))
            .collect();
        let structural = obj.keys().any(|k| {
            !ANNOTATIONS.contains(&k.as_str()) && !k.starts_with("x-") && k != "discriminator"
        });
        match kept.len() {
            0 => {
                // Only `null`: any JSON value that is null; read as a free-form value.
            }
            1 if !structural => {
                let (i, only) = kept.into_iter().next().expect("one branch");
                let orig = push(&push(&loc.orig, key), &i.to_string());
                match only {
                    Value::Object(branch) if branch.contains_key("$ref") && branch.len() == 1 => {
                        let out = push(&push(&loc.out, "allOf"), "0");
                        self.moves.record(&out, &orig, true);
                        obj.insert("allOf".into(), Value::Array(vec![Value::Object(branch)]));
                    }
                    Value::Object(branch) => {
                        // The branch's keywords become the schema's own; the outer
                        // description and default win, as they describe this use.
                        self.moves.record(&loc.out, &orig, false);
                        for (k, val) in branch {
                            if !obj.contains_key(&k) {
                                obj.insert(k, val);
                            }
                        }
                    }
                    Value::Bool(true) => {}
                    other => {
                        obj.insert(key.into(), Value::Array(vec![other]));
                    }
                }
            }
            _ => {
                let mut list = Vec::new();
                for (j, (i, b)) in kept.into_iter().enumerate() {
                    self.moves.record(
                        &push(&push(&loc.out, key), &j.to_string()),
                        &push(&push(&loc.orig, key), &i.to_string()),
                        true,
                    );
                    list.push(b);
                }
                obj.insert(key.into(), Value::Array(list));
            }
        }
    }

    /// `const` → a one-value `enum` (checked like any enum), with `type` inferred if absent.
    fn constant(&mut self, obj: &mut Map<String, Value>, loc: &Loc) {
        let Some(value) = obj.get("const").cloned() else {
            return;
        };
        if !obj.contains_key("enum") {
            obj.insert("enum".into(), Value::Array(vec![value.clone()]));
        }
        let inferred = match &value {
            Value::String(_) => "string",
            Value::Bool(_) => "boolean",
            Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
            Value::Number(_) => "number",
            Value::Null => {
                obj.insert("nullable".into(), Value::Bool(true));
                return;
            }
            Value::Array(_) | Value::Object(_) => {
                self.warn(
                    &loc.child("const"),
                    "`const` with an array or object value is checked where it describes a JSON, form or multipart request body or a parameter (the server holds such a value to its schema as written) and nowhere else (the client decodes answers by their types)",
                );
                obj.remove("enum");
                return;
            }
        };
        if !obj.contains_key("type") {
            obj.insert("type".into(), Value::String(inferred.into()));
        }
    }

    /// An integer's bounds, `multipleOf` and `enum` values as 64-bit integers, all the 3.0
    /// model (and a Rust integer) holds. Exact rewrites are silent: a fractional bound is
    /// rounded inward (`exclusiveMinimum: 1.5` admits the integers `minimum: 2` does), a whole
    /// one written as a float becomes an integer, an `enum` value no integer equals is left
    /// out. A bound beyond `i64` (openai's `minimum: -9223372036854776000`, an int64 bound
    /// rounded by a JSON writer) is dropped with a warning: no `i64` can cross it, and a
    /// `uint64` field loses that check.
    fn integer_bounds(&mut self, obj: &mut Map<String, Value>, loc: &Loc) {
        if obj.get("type").and_then(Value::as_str) != Some("integer") {
            return;
        }
        for (key, flag, inward) in [
            ("minimum", "exclusiveMinimum", f64::ceil as fn(f64) -> f64),
            ("maximum", "exclusiveMaximum", f64::floor),
        ] {
            let Some(bound) = obj.get(key).and_then(Value::as_f64) else {
                continue;
            };
            if obj.get(key).is_some_and(Value::is_i64) {
                continue;
            }
            let Some(whole) = as_i64(inward(bound)) else {
                obj.remove(key);
                obj.remove(flag);
                self.warn(
                    &loc.child(key),
                    format!("`{key}: {bound}` is beyond a 64-bit integer's range; not checked"),
                );
                continue;
            };
            if inward(bound) != bound {
                // x > 1.5 is x >= 2: the rounded bound is inclusive.
                obj.remove(flag);
            }
            obj.insert(key.into(), Value::from(whole));
        }
        if let Some(Value::Number(m)) = obj.get("multipleOf")
            && !m.is_i64()
        {
            match m.as_f64().and_then(as_i64) {
                Some(whole) => {
                    obj.insert("multipleOf".into(), Value::from(whole));
                }
                None => {
                    let m = m.to_string();
                    obj.remove("multipleOf");
                    self.warn(
                        &loc.child("multipleOf"),
                        format!("`multipleOf: {m}` on an integer is not checked (only whole factors within 64 bits are)"),
                    );
                }
            }
        }
        if let Some(Value::Array(values)) = obj.get_mut("enum") {
            // Whole values become integers; others no integer equals (fractions, values
            // beyond 64 bits) admit nothing, so leaving them out changes nothing.
            values.retain_mut(|v| match v {
                Value::Number(n) if !n.is_i64() => match n.as_f64().and_then(as_i64) {
                    Some(whole) => {
                        *v = Value::from(whole);
                        true
                    }
                    None => false,
                },
                _ => true,
            });
        }
    }

    /// `type: [..]`: one type (plus `"null"`) becomes `type` + `nullable`; several become an
    /// `anyOf` of one branch per type (true when split).
    fn type_list(&mut self, obj: &mut Map<String, Value>) -> bool {
        let types: Vec<String> = match obj.get("type") {
            Some(Value::Array(ts)) => ts
                .iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect(),
            // Only `null`: read as `enum: [null]` (what schemars writes for `()`), which the
            // lowering types as a unit. Nullable with no type would be any JSON value, and a
            // mock's `{}` for it breaks the document.
            Some(Value::String(t)) if t == "null" => {
                obj.remove("type");
                obj.insert("nullable".into(), Value::Bool(true));
                if !obj.contains_key("enum") && !obj.contains_key("const") {
                    obj.insert("enum".into(), Value::Array(vec![Value::Null]));
                }
                return false;
            }
            _ => return false,
        };
        let null = types.iter().any(|t| t == "null");
        let rest: Vec<String> = types.into_iter().filter(|t| t != "null").collect();
        if null {
            obj.insert("nullable".into(), Value::Bool(true));
        }
        match rest.len() {
            0 => {
                obj.remove("type");
                if null && !obj.contains_key("enum") && !obj.contains_key("const") {
                    obj.insert("enum".into(), Value::Array(vec![Value::Null]));
                }
                false
            }
            1 => {
                obj.insert("type".into(), Value::String(rest[0].clone()));
                false
            }
            _ => {
                obj.remove("type");
                let mut branches: Vec<Map<String, Value>> = rest
                    .iter()
                    .map(|t| Map::from_iter([("type".to_string(), Value::String(t.clone()))]))
                    .collect();
                let keys: Vec<String> = obj.keys().cloned().collect();
                for k in keys {
                    let Some(group) = keyword_type(&k) else {
                        continue;
                    };
                    let value = obj.remove(&k).unwrap_or(Value::Null);
                    for (t, b) in rest.iter().zip(branches.iter_mut()) {
                        let fits = t == group || (group == "number" && t == "integer");
                        if fits {
                            b.insert(k.clone(), value.clone());
                        }
                    }
                }
                // `enum`/`const` values go to the branch of their own type.
                for key in ["enum"] {
                    if let Some(Value::Array(values)) = obj.remove(key) {
                        for (t, b) in rest.iter().zip(branches.iter_mut()) {
                            let mine: Vec<Value> =
                                values.iter().filter(|v| value_is(v, t)).cloned().collect();
                            if !mine.is_empty() {
                                b.insert(key.into(), Value::Array(mine));
                            }
                        }
                    }
                }
                obj.remove("const");
                obj.insert(
                    "anyOf".into(),
                    Value::Array(branches.into_iter().map(Value::Object).collect()),
                );
                true
            }
        }
    }
}

/// `oneOf`/`anyOf` whose every branch is one `const` with at most a title and a description
/// (discord's named enumerations: `{type: integer, oneOf: [{title: ACTION_ROW, const: 1},
/// …]}`) → `enum` of the values, checked (and, for strings, named) like any enumeration; each
/// value's title and description are kept in a `Values:` line of the schema's description.
fn const_branches(obj: &mut Map<String, Value>, key: &str) {
    let Some(Value::Array(branches)) = obj.get(key) else {
        return;
    };
    if branches.is_empty() || obj.contains_key("enum") {
        return;
    }
    let mut values = Vec::new();
    let mut lines = Vec::new();
    for branch in branches {
        let Some(b) = branch.as_object() else {
            return;
        };
        let value = match b.get("const") {
            Some(v @ (Value::String(_) | Value::Number(_) | Value::Bool(_))) => v.clone(),
            _ => return,
        };
        if !b
            .keys()
            .all(|k| matches!(k.as_str(), "const" | "title" | "description"))
        {
            return;
        }
        let text = |k: &str| b.get(k).and_then(Value::as_str).map(str::trim);
        let line = match (text("title"), text("description")) {
            (Some(t), Some(d)) => format!("`{value}` {t} ({d})"),
            (Some(t), None) | (None, Some(t)) => format!("`{value}` {t}"),
            (None, None) => format!("`{value}`"),
        };
        values.push(value);
        lines.push(line);
    }
    let kind = |v: &Value| match v {
        Value::String(_) => "string",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        _ => "number",
    };
    let inferred = kind(&values[0]);
    if values.iter().any(|v| kind(v) != inferred) {
        return;
    }
    obj.remove(key);
    obj.entry("type")
        .or_insert_with(|| Value::String(inferred.into()));
    obj.insert("enum".into(), Value::Array(values));
    let mut description = obj
        .get("description")
        .and_then(Value::as_str)
        .map(|d| format!("{}\n\n", d.trim_end()))
        .unwrap_or_default();
    // One line: a list here would run into whatever text follows the description.
    description.push_str(&format!("Values: {}.", lines.join("; ")));
    obj.insert("description".into(), Value::String(description));
}

/// 3.1 `examples` (a list) → 3.0 `example` (its first entry), unless both are given.
fn examples(obj: &mut Map<String, Value>) {
    if !obj.contains_key("example")
        && let Some(Value::Array(list)) = obj.get("examples")
        && let Some(first) = list.first()
    {
        obj.insert("example".into(), first.clone());
    }
}

fn value_is(v: &Value, t: &str) -> bool {
    match t {
        "string" => v.is_string(),
        "integer" => v.is_i64() || v.is_u64(),
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        _ => false,
    }
}

/// `v` as an `i64` when it is whole and strictly within ±2^63. A double at -2^63 is also
/// what a writer's rounding makes of anything a little below `i64::MIN` (openai's
/// `-9223372036854776000`), so it counts as beyond too.
fn as_i64(v: f64) -> Option<i64> {
    const END: f64 = 9_223_372_036_854_775_808.0; // 2^63, exact as a double
    (v.fract() == 0.0 && v > -END && v < END).then_some(v as i64)
}

/// Numeric `exclusiveMinimum: n` → `minimum: n, exclusiveMinimum: true` (3.0's form), unless
/// an inclusive bound beside it is stricter.
fn bounds(
    obj: &mut Map<String, Value>,
    exclusive_key: &str,
    inclusive_key: &str,
    inclusive_is_stricter: fn(f64, f64) -> bool,
) {
    let Some(Value::Number(exclusive)) = obj.get(exclusive_key).cloned() else {
        return;
    };
    let stricter = obj
        .get(inclusive_key)
        .and_then(Value::as_f64)
        .zip(exclusive.as_f64())
        .is_some_and(|(bound, ex)| inclusive_is_stricter(bound, ex));
    if stricter {
        obj.remove(exclusive_key);
    } else {
        obj.insert(inclusive_key.into(), Value::Number(exclusive));
        obj.insert(exclusive_key.into(), Value::Bool(true));
    }
}
