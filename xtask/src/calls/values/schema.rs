//! Reading the document's schemas as values are made: enum values, the type a schema says,
//! and `allOf` parts merged (`$ref`s are resolved by `calls::refs`).

use super::*;

/// How an error about a schema no value can fit begins (the document's fault).
pub const CONTRADICTS: &str = "the document contradicts itself: ";

/// The values of an `enum` a request may carry: not `null`, and of the schema's `type` when it
/// names one. An `enum` none of whose values is of that type (swagger-parser's issue 597: an
/// `array` whose `enum` lists strings) is the document contradicting itself.
pub(super) fn enum_values<'v>(
    s: &Map<String, Value>,
    values: &'v [Value],
) -> Result<Vec<&'v Value>, String> {
    let listed: Vec<&Value> = values.iter().filter(|v| !v.is_null()).collect();
    let Some(Value::String(ty)) = s.get("type") else {
        return Ok(listed);
    };
    let fits = |v: &Value| match ty.as_str() {
        "string" => v.is_string(),
        "integer" => v.is_i64() || v.is_u64(),
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        _ => true,
    };
    let fitting: Vec<&Value> = listed.iter().copied().filter(|v| fits(v)).collect();
    if fitting.is_empty() && !listed.is_empty() {
        let shown: Vec<String> = listed.iter().take(3).map(|v| v.to_string()).collect();
        return Err(format!(
            "{CONTRADICTS}its `enum` ({}) lists no value of its `type` ({ty})",
            shown.join(", ")
        ));
    }
    Ok(fitting)
}

/// The JSON type a value of the schema gets: its `type` (the first that is not `null`), or
/// the one its keywords imply.
pub(super) fn type_of(s: &Map<String, Value>) -> String {
    match s.get("type") {
        Some(Value::String(t)) => return t.clone(),
        Some(Value::Array(types)) => {
            let names: Vec<&str> = types.iter().filter_map(Value::as_str).collect();
            if let Some(t) = names.iter().find(|t| **t != "null") {
                return (*t).to_string();
            }
            if !names.is_empty() {
                return "null".into();
            }
        }
        _ => {}
    }
    let has = |keys: &[&str]| keys.iter().any(|k| s.contains_key(*k));
    if has(&[
        "properties",
        "additionalProperties",
        "required",
        "minProperties",
    ]) {
        "object".into()
    } else if has(&["items", "prefixItems", "minItems", "maxItems"]) {
        "array".into()
    } else if has(&["pattern", "minLength", "maxLength", "format"]) {
        "string".into()
    } else if has(&["minimum", "maximum", "multipleOf"]) {
        "number".into()
    } else {
        "any".into()
    }
}

pub(super) fn is_null_only(s: &Map<String, Value>) -> bool {
    match s.get("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(t)) => !t.is_empty() && t.iter().all(|t| t == "null"),
        _ => s
            .get("enum")
            .and_then(Value::as_array)
            .is_some_and(|e| e.iter().all(Value::is_null) && !e.is_empty()),
    }
}

/// Adds `other`'s keywords to `into` as `allOf` means them: properties and `required`
/// united, bounds narrowed, `type` and `enum` intersected, the rest kept where already set.
pub(super) fn merge(into: &mut Map<String, Value>, other: Map<String, Value>) {
    for (key, value) in other {
        let Some(existing) = into.get_mut(&key) else {
            into.insert(key, value);
            continue;
        };
        match key.as_str() {
            "properties" => {
                if let (Value::Object(a), Value::Object(b)) = (existing, value) {
                    for (name, schema) in b {
                        match a.get_mut(&name) {
                            Some(old) => {
                                let both = Value::Array(vec![old.take(), schema]);
                                let mut m = Map::new();
                                m.insert("allOf".into(), both);
                                *old = Value::Object(m);
                            }
                            None => {
                                a.insert(name, schema);
                            }
                        }
                    }
                }
            }
            "required" => {
                if let (Value::Array(a), Value::Array(b)) = (existing, value) {
                    for r in b {
                        if !a.contains(&r) {
                            a.push(r);
                        }
                    }
                }
            }
            "type" => {
                let list = |v: &Value| -> Vec<Value> {
                    match v {
                        Value::Array(a) => a.clone(),
                        other => vec![other.clone()],
                    }
                };
                let both: Vec<Value> = list(existing)
                    .into_iter()
                    .filter(|t| list(&value).contains(t))
                    .collect();
                if let Some(first) = both.first() {
                    *existing = if both.len() == 1 {
                        first.clone()
                    } else {
                        Value::Array(both)
                    };
                }
            }
            "enum" => {
                if let (Value::Array(a), Value::Array(b)) = (existing, &value) {
                    a.retain(|v| b.contains(v));
                }
            }
            "minimum" | "minLength" | "minItems" | "minProperties" => {
                if let (Some(a), Some(b)) = (existing.as_f64(), value.as_f64())
                    && b > a
                {
                    *existing = value;
                }
            }
            "maximum" | "maxLength" | "maxItems" | "maxProperties" => {
                if let (Some(a), Some(b)) = (existing.as_f64(), value.as_f64())
                    && b < a
                {
                    *existing = value;
                }
            }
            _ => {}
        }
    }
}
