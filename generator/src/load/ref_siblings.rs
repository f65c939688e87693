//! Keywords beside a parameter's, request body's, response's or header's `$ref`: `{$ref:
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
//!
//! Decision: `docs/decisions/0004-siblings-of-a-ref.md`.

use serde_json::{Map, Value};

use crate::diag::{Diagnostic, push};

/// The HTTP methods a path item holds operations under.
const METHODS: &[&str] = &[
    "get", "put", "post", "delete", "options", "head", "patch", "trace", "query",
];

/// What a reference stands for: where its targets live and which siblings it cannot take.
#[derive(Clone, Copy)]
enum Kind {
    Parameter,
    RequestBody,
    Response,
    Header,
}

impl Kind {
    fn components(self) -> &'static str {
        match self {
            Kind::Parameter => "parameters",
            Kind::RequestBody => "requestBodies",
            Kind::Response => "responses",
            Kind::Header => "headers",
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Kind::Parameter => "parameter",
            Kind::RequestBody => "request body",
            Kind::Response => "response",
            Kind::Header => "header",
        }
    }

    /// Siblings that would make the target another thing, or that it has no field for.
    fn ignores(self, key: &str) -> bool {
        match self {
            Kind::Parameter => matches!(key, "name" | "in" | "summary"),
            Kind::Header => matches!(key, "name" | "in" | "summary"),
            Kind::RequestBody | Kind::Response => key == "summary",
        }
    }
}

/// Applies the siblings of every parameter, request body, response and header `$ref` (in
/// paths, webhooks and path items under components, and the headers of component responses);
/// returns the warnings.
pub(super) fn apply(doc: &mut Value) -> Vec<Diagnostic> {
    let components = doc
        .get("components")
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
                path_item(item, &push(&at, key), &components, &mut warnings);
            }
        }
    }
    if let Some(Value::Object(items)) = doc.pointer_mut("/components/pathItems") {
        for (key, item) in items.iter_mut() {
            let at = push("/components/pathItems", key);
            path_item(item, &at, &components, &mut warnings);
        }
    }
    if let Some(Value::Object(responses)) = doc.pointer_mut("/components/responses") {
        for (key, response) in responses.iter_mut() {
            let at = push("/components/responses", key);
            headers(response, &at, &components, &mut warnings);
        }
    }
    warnings
}

fn path_item(
    item: &mut Value,
    at: &str,
    components: &Map<String, Value>,
    warnings: &mut Vec<Diagnostic>,
) {
    let Some(item) = item.as_object_mut() else {
        return;
    };
    list(item, at, components, warnings);
    for (key, op) in item.iter_mut() {
        if METHODS.contains(&key.as_str())
            && let Some(op) = op.as_object_mut()
        {
            let at = push(at, key);
            list(op, &at, components, warnings);
            if let Some(body) = op.get_mut("requestBody") {
                let at = push(&at, "requestBody");
                reference(body, &at, Kind::RequestBody, components, warnings);
            }
            if let Some(Value::Object(responses)) = op.get_mut("responses") {
                let at = push(&at, "responses");
                for (status, response) in responses.iter_mut() {
                    let at = push(&at, status);
                    reference(response, &at, Kind::Response, components, warnings);
                    headers(response, &at, components, warnings);
                }
            }
        }
    }
}

/// The `$ref`s among a response's headers.
fn headers(
    response: &mut Value,
    at: &str,
    components: &Map<String, Value>,
    warnings: &mut Vec<Diagnostic>,
) {
    if let Some(Value::Object(headers)) = response.get_mut("headers") {
        let at = push(at, "headers");
        for (name, header) in headers.iter_mut() {
            reference(header, &push(&at, name), Kind::Header, components, warnings);
        }
    }
}

fn list(
    owner: &mut Map<String, Value>,
    at: &str,
    components: &Map<String, Value>,
    warnings: &mut Vec<Diagnostic>,
) {
    let Some(Value::Array(list)) = owner.get_mut("parameters") else {
        return;
    };
    let at = push(at, "parameters");
    for (i, p) in list.iter_mut().enumerate() {
        let place = push(&at, &i.to_string());
        reference(p, &place, Kind::Parameter, components, warnings);
    }
}

/// One reference with siblings: replaced by its target with them applied, with warnings.
fn reference(
    slot: &mut Value,
    place: &str,
    kind: Kind,
    components: &Map<String, Value>,
    warnings: &mut Vec<Diagnostic>,
) {
    let Some(obj) = slot.as_object() else {
        return;
    };
    let Some(reference) = obj.get("$ref").and_then(Value::as_str) else {
        return;
    };
    if obj.len() == 1 {
        return;
    }
    let Some(target) = target(reference, kind, components) else {
        // A reference to nothing is reported where it is resolved.
        return;
    };
    let (merged, applied, ignored) = merge(target, obj, kind);
    if !applied.is_empty() {
        warnings.push(Diagnostic::warning(
            place.to_owned(),
            format!(
                "{} beside `$ref` applied over `{reference}`, as Prism and Redocly read it (OpenAPI lets only `summary` and `description` stand beside a reference)",
                names(&applied)
            ),
        ));
    }
    if !ignored.is_empty() {
        warnings.push(Diagnostic::warning(
            place.to_owned(),
            format!(
                "{} beside `$ref` ignored: it would make `{reference}` another {}, or a {} has no such field",
                names(&ignored),
                kind.noun(),
                kind.noun()
            ),
        ));
    }
    *slot = merged;
}

/// The object a `#/components/<kind>/…` reference names, following references.
fn target<'a>(
    reference: &str,
    kind: Kind,
    components: &'a Map<String, Value>,
) -> Option<&'a Value> {
    let prefix = format!("#/components/{}/", kind.components());
    let found_in = components.get(kind.components())?.as_object()?;
    let mut reference = reference;
    for _ in 0..16 {
        let name = reference.strip_prefix(prefix.as_str())?;
        let name = name.replace("~1", "/").replace("~0", "~");
        let found = found_in.get(&name)?;
        match found.get("$ref").and_then(Value::as_str) {
            Some(next) => reference = next,
            None => return Some(found),
        }
    }
    None
}

/// The target with the siblings over it: (the object, keys applied, keys ignored).
fn merge(
    target: &Value,
    siblings: &Map<String, Value>,
    kind: Kind,
) -> (Value, Vec<String>, Vec<String>) {
    let mut merged = target.clone();
    let (mut applied, mut ignored) = (Vec::new(), Vec::new());
    for (key, value) in siblings {
        match key.as_str() {
            "$ref" => {}
            key if kind.ignores(key) => ignored.push(key.to_owned()),
            // The description overrides (OpenAPI 3.1 says so): no warning.
            "description" => {
                merged[key] = value.clone();
            }
            _ => {
                merged[key] = value.clone();
                applied.push(key.to_owned());
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

    #[test]
    fn siblings_of_bodies_responses_and_headers_are_applied_or_named() {
        let mut doc = json!({
            "paths": {"/items": {"post": {
                "requestBody": {"$ref": "#/components/requestBodies/Item", "required": false},
                "responses": {
                    "200": {"$ref": "#/components/responses/Ok", "description": "Done.",
                            "summary": "s"},
                    "201": {"description": "Made.", "headers": {
                        "Location": {"$ref": "#/components/headers/Loc", "required": true}
                    }}
                }
            }}},
            "components": {
                "requestBodies": {"Item": {"required": true, "content": {}}},
                "responses": {"Ok": {"description": "OK."}},
                "headers": {"Loc": {"schema": {"type": "string"}}}
            }
        });
        let warnings = apply(&mut doc);
        let op = &doc["paths"]["/items"]["post"];
        assert_eq!(op["requestBody"]["required"], false);
        assert_eq!(op["responses"]["200"], json!({"description": "Done."}));
        assert_eq!(
            op["responses"]["201"]["headers"]["Location"]["required"],
            true
        );
        let said: Vec<(&str, &str)> = warnings
            .iter()
            .map(|w| (w.pointer.as_str(), w.message.as_str()))
            .collect();
        assert_eq!(said.len(), 3, "{said:?}");
        assert!(said[0].0.ends_with("/requestBody") && said[0].1.starts_with("`required`"));
        assert!(said[1].0.ends_with("/responses/200") && said[1].1.contains("ignored"));
        assert!(said[2].0.ends_with("/headers/Location") && said[2].1.starts_with("`required`"));
    }
}
