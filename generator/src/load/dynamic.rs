//! `$dynamicRef` generics (JSON Schema 2020-12) bound where they are used: each use of a generic
//! component with a binding becomes a component of its own, the binding in place.
//!
//! A generic component (scalar-galaxy's `PaginatedResource`) holds `items: {$dynamicRef:
//! '#itemType'}` and a default binding in its `$defs` (`{$dynamicAnchor: itemType, not: {}}`).
//! A use binds the anchor beside its `$ref`: `{$ref: PaginatedResource, $defs: {itemType:
//! {$dynamicAnchor: itemType, $ref: Planet}}}`. Rust has no such late binding, so the use
//! becomes `$ref` to a copy of the generic with `Planet` where the `$dynamicRef` stood: a
//! `PaginatedPlanets` struct whose `data` is `Vec<Planet>`, named after the use's `$id` (or
//! `<Generic>Of<Binding>`). A `$dynamicRef` left unbound stays for the 3.1 reading, which
//! warns and reads any JSON value.

use super::moves::Moves;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Binds every use of a generic component in the document (a 3.1 or 3.2 one, before it is
/// up-read), recording where each new component came from.
pub(super) fn bind(doc: &mut Value, moves: &mut Moves) {
    let Some(schemas) = doc
        .pointer("/components/schemas")
        .and_then(Value::as_object)
    else {
        return;
    };
    // Generic components: name → the anchors their `$dynamicRef`s name.
    let generics: BTreeMap<String, Vec<String>> = schemas
        .iter()
        .filter_map(|(name, schema)| {
            let mut anchors = Vec::new();
            dynamic_refs(schema, &mut anchors);
            (!anchors.is_empty()).then(|| (name.clone(), anchors))
        })
        .collect();
    if generics.is_empty() {
        return;
    }
    let originals = schemas.clone();
    let mut made: BTreeMap<String, Value> = BTreeMap::new();
    walk(doc, &generics, &originals, &mut made, moves);
    if let Some(Value::Object(schemas)) = doc.pointer_mut("/components/schemas") {
        for (name, schema) in made {
            schemas.insert(name, schema);
        }
    }
}

/// The anchors (`#itemType` → `itemType`) of the `$dynamicRef`s in a schema.
fn dynamic_refs(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(obj) => {
            if let Some(Value::String(target)) = obj.get("$dynamicRef")
                && let Some(anchor) = target.strip_prefix('#')
                && !out.iter().any(|a| a == anchor)
            {
                out.push(anchor.to_string());
            }
            for (key, child) in obj {
                if !is_data(key) {
                    dynamic_refs(child, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|i| dynamic_refs(i, out)),
        _ => {}
    }
}

/// Keys whose values are data, not schemas.
fn is_data(key: &str) -> bool {
    matches!(key, "example" | "examples" | "default" | "enum" | "const")
}

fn walk(
    v: &mut Value,
    generics: &BTreeMap<String, Vec<String>>,
    originals: &Map<String, Value>,
    made: &mut BTreeMap<String, Value>,
    moves: &mut Moves,
) {
    match v {
        Value::Object(obj) => {
            if let Some(name) = bound_use(obj, generics, originals, made, moves) {
                *v = serde_json::json!({ "$ref": format!("#/components/schemas/{name}") });
                return;
            }
            for (key, child) in obj.iter_mut() {
                if !is_data(key) {
                    walk(child, generics, originals, made, moves);
                }
            }
        }
        Value::Array(items) => {
            for item in items.iter_mut() {
                walk(item, generics, originals, made, moves);
            }
        }
        _ => {}
    }
}

/// When `obj` is a use of a generic component that binds one of its anchors: the name of the
/// component made for it (made now, or earlier for an equal one).
fn bound_use(
    obj: &Map<String, Value>,
    generics: &BTreeMap<String, Vec<String>>,
    originals: &Map<String, Value>,
    made: &mut BTreeMap<String, Value>,
    moves: &mut Moves,
) -> Option<String> {
    let generic = obj
        .get("$ref")?
        .as_str()?
        .strip_prefix("#/components/schemas/")?;
    let anchors = generics.get(generic)?;
    let defs = obj.get("$defs")?.as_object()?;
    let bindings: BTreeMap<&str, Map<String, Value>> = defs
        .values()
        .filter_map(|d| {
            let d = d.as_object()?;
            let anchor = d.get("$dynamicAnchor")?.as_str()?;
            anchors.iter().any(|a| a == anchor).then(|| {
                let mut schema = d.clone();
                schema.remove("$dynamicAnchor");
                (anchor, schema)
            })
        })
        .collect();
    if bindings.is_empty() {
        return None;
    }
    let mut copy = originals.get(generic)?.clone();
    if let Value::Object(c) = &mut copy {
        c.remove("$id");
        // The generic's default bindings are for its unbound uses.
        if let Some(Value::Object(own)) = c.get_mut("$defs") {
            own.retain(|_, d| d.get("$dynamicAnchor").is_none());
            if own.is_empty() {
                c.remove("$defs");
            }
        }
        // The use's own annotations describe this use.
        for (key, value) in obj {
            if !matches!(key.as_str(), "$ref" | "$defs" | "$id") {
                c.insert(key.clone(), value.clone());
            }
        }
    }
    substitute(&mut copy, &bindings);
    let base = obj
        .get("$id")
        .and_then(Value::as_str)
        .and_then(|id| id.rsplit('/').next())
        .map(|last| last.split('.').next().unwrap_or(last).to_string())
        .filter(|n| !n.is_empty() && !originals.contains_key(n))
        .unwrap_or_else(|| {
            let bound = bindings
                .values()
                .next()
                .and_then(|b| b.get("$ref")?.as_str()?.rsplit('/').next())
                .unwrap_or("Item");
            format!("{generic}Of{bound}")
        });
    let mut name = base.clone();
    let mut n = 2;
    loop {
        match made.get(&name) {
            Some(existing) if *existing == copy => return Some(name),
            None if !originals.contains_key(&name) => break,
            _ => {
                name = format!("{base}{n}");
                n += 1;
            }
        }
    }
    // Diagnostics inside the new component name the generic, where its schema was written.
    moves.record(
        &format!("/components/schemas/{name}"),
        &format!("/components/schemas/{generic}"),
        true,
    );
    made.insert(name.clone(), copy);
    Some(name)
}

/// Puts each binding where a `$dynamicRef` to its anchor stands (the reference's own
/// annotations kept beside it).
fn substitute(v: &mut Value, bindings: &BTreeMap<&str, Map<String, Value>>) {
    match v {
        Value::Object(obj) => {
            let bound = obj
                .get("$dynamicRef")
                .and_then(Value::as_str)
                .and_then(|t| t.strip_prefix('#'))
                .and_then(|anchor| bindings.get(anchor));
            if let Some(binding) = bound {
                obj.remove("$dynamicRef");
                for (key, value) in binding {
                    obj.insert(key.clone(), value.clone());
                }
                return;
            }
            for (key, child) in obj.iter_mut() {
                if !is_data(key) {
                    substitute(child, bindings);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|i| substitute(i, bindings)),
        _ => {}
    }
}
