//! Keywords beside a parameter's `$ref` (issue 45, item 4): `{$ref:
//! '#/components/parameters/Filter', required: true, description: …}`.
//!
//! OpenAPI 3.1 lets `summary` and `description` beside a Reference Object override the
//! target's and says any other property is ignored; 3.0 says all are ignored. The tools users
//! check documents with read them otherwise: Prism and Redocly apply `required` (and the
//! rest) beside a parameter's `$ref`, and APIs written that way refuse requests without such a
//! parameter. Decision: the reference is replaced by a copy of its target with the siblings
//! applied over it, on both sides (the server requires what the client sends), with a warning
//! at the place naming what was applied; `name` and `in`, which would make it another
//! parameter, and `summary`, which a parameter does not have, are ignored with a warning.
//! Nothing beside a `$ref` is dropped without a word.

use serde_json::{Map, Value};

use crate::diag::{Diagnostic, push};

/// The HTTP methods a path item holds operations under.
const METHODS: &[&str] = &[
    "get", "put", "post", "delete", "options", "head", "patch", "trace", "query",
];

/// Applies the siblings of every parameter `$ref` (in paths, webhooks and path items under
/// components, at the path item's and the operation's level); returns the warnings.
pub(super) fn apply(doc: &mut Value) -> Vec<Diagnostic> {
    let parameters = doc
        .pointer("/components/parameters")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut warnings = Vec::new();
    for (container, at) in [
        ("paths", "/paths".to_string()),
        ("webhooks", "/webhooks".to_string()),
    ] {
        if let Some(Value::Object(items)) = doc.get_mut(container) {
            for (key, item) in items.iter_mut() {
                path_item(item, &push(&at, key), &parameters, &mut warnings);
            }
        }
    }
    if let Some(Value::Object(items)) = doc.pointer_mut("/components/pathItems") {
        for (key, item) in items.iter_mut() {
            let at = push("/components/pathItems", key);
            path_item(item, &at, &parameters, &mut warnings);
        }
    }
    warnings
}

fn path_item(
    item: &mut Value,
    at: &str,
    parameters: &Map<String, Value>,
    warnings: &mut Vec<Diagnostic>,
) {
    let Some(item) = item.as_object_mut() else {
        return;
    };
    list(item, at, parameters, warnings);
    for (key, op) in item.iter_mut() {
        if METHODS.contains(&key.as_str())
            && let Some(op) = op.as_object_mut()
        {
            list(op, &push(at, key), parameters, warnings);
        }
    }
}

fn list(
    owner: &mut Map<String, Value>,
    at: &str,
    parameters: &Map<String, Value>,
    warnings: &mut Vec<Diagnostic>,
) {
    let Some(Value::Array(list)) = owner.get_mut("parameters") else {
        return;
    };
    let at = push(at, "parameters");
    for (i, p) in list.iter_mut().enumerate() {
        let Some(obj) = p.as_object() else {
            continue;
        };
        let Some(reference) = obj.get("$ref").and_then(Value::as_str) else {
            continue;
        };
        if obj.len() == 1 {
            continue;
        }
        let Some(target) = target(reference, parameters) else {
            // A reference to nothing is reported where it is resolved.
            continue;
        };
        let place = push(&at, &i.to_string());
        let (merged, applied, ignored) = merge(target, obj);
        if !applied.is_empty() {
            warnings.push(Diagnostic::warning(
                place.clone(),
                format!(
                    "{} beside `$ref` applied over `{reference}`, as Prism and Redocly read it (OpenAPI lets only `summary` and `description` stand beside a reference)",
                    names(&applied)
                ),
            ));
        }
        if !ignored.is_empty() {
            warnings.push(Diagnostic::warning(
                place,
                format!(
                    "{} beside `$ref` ignored: it would make `{reference}` another parameter, or a parameter has no such field",
                    names(&ignored)
                ),
            ));
        }
        *p = merged;
    }
}

/// The parameter a `#/components/parameters/…` reference names, following references.
fn target<'a>(reference: &str, parameters: &'a Map<String, Value>) -> Option<&'a Value> {
    let mut reference = reference;
    for _ in 0..16 {
        let name = reference.strip_prefix("#/components/parameters/")?;
        let name = name.replace("~1", "/").replace("~0", "~");
        let found = parameters.get(&name)?;
        match found.get("$ref").and_then(Value::as_str) {
            Some(next) => reference = next,
            None => return Some(found),
        }
    }
    None
}

/// The target with the siblings over it: (the parameter, keys applied, keys ignored).
fn merge(target: &Value, siblings: &Map<String, Value>) -> (Value, Vec<String>, Vec<String>) {
    let mut merged = target.clone();
    let (mut applied, mut ignored) = (Vec::new(), Vec::new());
    for (key, value) in siblings {
        match key.as_str() {
            "$ref" => {}
            "name" | "in" | "summary" => ignored.push(key.clone()),
            // The description overrides (OpenAPI 3.1 says so): no warning.
            "description" => {
                merged[key] = value.clone();
            }
            _ => {
                merged[key] = value.clone();
                applied.push(key.clone());
            }
        }
    }
    (merged, applied, ignored)
}

fn names(keys: &[String]) -> String {
    let quoted: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
    quoted.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn siblings_are_applied_and_identity_is_kept() {
        let mut doc = json!({
            "paths": {"/items": {"get": {"parameters": [
                {"$ref": "#/components/parameters/Filter", "required": true,
                 "description": "Which items.", "name": "other"},
                {"$ref": "#/components/parameters/Filter"}
            ]}}},
            "components": {"parameters": {"Filter": {
                "name": "filter", "in": "query", "schema": {"type": "string"}
            }}}
        });
        let warnings = apply(&mut doc);
        let p = &doc["paths"]["/items"]["get"]["parameters"];
        assert_eq!(p[0]["required"], true);
        assert_eq!(p[0]["name"], "filter");
        assert_eq!(p[0]["description"], "Which items.");
        assert_eq!(p[1], json!({"$ref": "#/components/parameters/Filter"}));
        let messages: Vec<&str> = warnings.iter().map(|w| w.message.as_str()).collect();
        assert_eq!(warnings.len(), 2, "{messages:?}");
        assert!(messages[0].starts_with("`required` beside `$ref` applied"));
        assert!(messages[1].starts_with("`name` beside `$ref` ignored"));
        assert_eq!(warnings[0].pointer, "/paths/~1items/get/parameters/0");
    }
}
