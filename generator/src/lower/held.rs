//! Which JSON bodies the runtime holds to their schema as written (`runtime::schema`), decided
//! once per operation.
//!
//! Two places check a body. The body's types and their `Validate` impls hold what a Rust type
//! says of a value: a typed object's properties and `required`, a string's length, pattern
//! and format, a number's bounds, an array's item count; decoding straight from the bytes
//! into the types is the cheapest read (the pet store's `POST /pets` body: ~1,800
//! instructions). Everything else JSON Schema says (`oneOf`'s "exactly one", `not`,
//! `if`/`then`/`else`, `const`, `enum` of non-strings, `contains`, `uniqueItems`,
//! `propertyNames`, `patternProperties`, `dependentRequired`, `minProperties`, `allOf`,
//! `anyOf`, boolean schemas, schemas with no `type`, keywords that ignore other types) is
//! held by the runtime, which walks the schema as the document writes it over the body's
//! JSON value before the types decode it (~2,600 more instructions for a body that size:
//! the value's tree and the walk). A body is held when its schema, followed through its
//! references, says anything of the second kind; a plain body costs what it did.
//!
//! Form bodies too: read into their type, then held as the JSON value it is (a form is an
//! object of fields; each field's text was read as its schema's type). So are multipart
//! bodies, the body's own or an alternative beside JSON: their parts decoded into the
//! schema's type (a file as its text, which is what `format: binary` says of it) and held as
//! that JSON value. Parameters are decided
//! the same way: one whose schema says more than its type holds (`not`,
//! `const`, an `enum` of numbers, `allOf`, `uniqueItems` of a query array) is read into its
//! type and then held, as a JSON value, to its schema as written. A Swagger 2.0 parameter has
//! no `schema` object: the parameter object itself is walked as its schema (its `type`,
//! `items`, `enum`, bounds are draft 4's keywords; `name`, `in`, `required: true` and
//! `collectionFormat` say nothing the walk reads), so swagger-parser 597's array `status`
//! with an `enum` of strings is held to it as written (no array is one of those strings: every
//! request is refused, naming the place). Unions of several variants keep their types' checks
//! (the text read as one variant is not a JSON value that tells which: one value of a query
//! that is a string or an array of strings is the string).

use std::borrow::Cow;
use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::diag::push;
use crate::ir::{Api, BodyKind, Held, Location};
use crate::load::Version;

/// Keywords that say nothing of validity.
const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "example",
    "examples",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "externalDocs",
    "xml",
    "$comment",
    "nullable",
    "format",
    "contentMediaType",
    // Swagger 2.0's items objects: how the values are written, not what they may be.
    "collectionFormat",
];

/// The members of a Swagger 2.0 parameter object that are not its value's schema.
const PARAMETER_ONLY: &[&str] = &["name", "in", "required", "allowEmptyValue"];

/// Sets [`crate::ir::Body::held`] on every JSON body whose schema, in `written` (the document
/// as the server serves it), says more than its types hold.
pub fn decide(api: &mut Api, written: &Value, version: Version) {
    let dialect_2020 = version >= Version::V31;
    for op in &mut api.operations {
        for param in &mut op.params {
            let location = location_name(param.location);
            let Some(pointer) = param_pointer(written, &op.path, &op.method, &param.wire, location)
            else {
                continue;
            };
            let Some(schema) = written.pointer(&pointer) else {
                continue;
            };
            let schema = match (version, schema) {
                (Version::V20, Value::Object(map)) => Cow::Owned(Value::Object(
                    map.iter()
                        .filter(|(k, _)| !PARAMETER_ONLY.contains(&k.as_str()))
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect(),
                )),
                _ => Cow::Borrowed(schema),
            };
            if !plain(written, &schema, &mut HashSet::new()) && !union(written, &schema) {
                param.held = Some(Held {
                    pointer,
                    dialect_2020,
                });
            }
        }
        let Some(body) = op.body.as_mut() else {
            continue;
        };
        // A multipart body checked as its schema's type (its own, or an alternative's).
        let multipart = if body.is_multipart_form() && body.checked_as.is_some() {
            Some(body.content_type.clone())
        } else {
            body.multipart_alternative_media()
                .map(|(ct, _)| ct.to_owned())
        };
        if let Some(ct) = multipart
            && let Some(pointer) = schema_pointer(written, &op.path, &op.method, &ct, version)
            && let Some(schema) = written.pointer(&pointer)
            && !plain(written, schema, &mut HashSet::new())
        {
            body.multipart_held = Some(Held {
                pointer,
                dialect_2020,
            });
        }
        if !matches!(body.kind, BodyKind::Json(_) | BodyKind::Form(_)) {
            continue;
        }
        let Some(pointer) =
            schema_pointer(written, &op.path, &op.method, &body.content_type, version)
        else {
            continue;
        };
        let Some(schema) = written.pointer(&pointer) else {
            continue;
        };
        let mut seen = HashSet::new();
        if !plain(written, schema, &mut seen) {
            body.held = Some(Held {
                pointer,
                dialect_2020,
            });
        }
    }
}

/// The pointer of an operation's JSON body schema in the written document, its request body
/// (or Swagger 2.0's `in: body` parameter) followed through local references.
fn schema_pointer(
    written: &Value,
    path: &str,
    method: &str,
    content_type: &str,
    version: Version,
) -> Option<String> {
    let op_at = push(&push("/paths", path), &method.to_ascii_lowercase());
    let op = written.pointer(&op_at)?;
    if version == Version::V20 {
        let params = op.get("parameters")?.as_array()?;
        let (i, _) = params
            .iter()
            .enumerate()
            .find(|(_, p)| p.get("in").and_then(Value::as_str) == Some("body"))?;
        return Some(push(&push(&op_at, "parameters"), &i.to_string()) + "/schema");
    }
    let mut at = push(&op_at, "requestBody");
    for _ in 0..16 {
        let value = written.pointer(&at)?;
        match value.get("$ref").and_then(Value::as_str) {
            Some(r) => at = local(r)?,
            None => break,
        }
    }
    let content = written.pointer(&at)?.get("content")?.as_object()?;
    content
        .contains_key(content_type)
        .then(|| push(&push(&push(&at, "content"), content_type), "schema"))
}

/// A parameter whose schema is a union of several non-null variants (`oneOf: [string, array
/// of strings]`): its type reads the text as one variant (one value of such a query is the
/// scalar's), which its JSON value would not tell again, so the type's own checks decide.
fn union(doc: &Value, schema: &Value) -> bool {
    let mut schema = schema;
    for _ in 0..16 {
        match schema.get("$ref").and_then(Value::as_str).and_then(local) {
            Some(target) => match doc.pointer(&target) {
                Some(next) => schema = next,
                None => return false,
            },
            None => break,
        }
    }
    ["oneOf", "anyOf"].iter().any(|k| {
        schema
            .get(*k)
            .and_then(Value::as_array)
            .is_some_and(|variants| {
                variants
                    .iter()
                    .filter(|v| v.get("type").and_then(Value::as_str) != Some("null"))
                    .count()
                    > 1
            })
    })
}

fn location_name(location: Location) -> &'static str {
    match location {
        Location::Path => "path",
        Location::Query => "query",
        Location::Header => "header",
        Location::Cookie => "cookie",
    }
}

/// The pointer of a parameter's schema in the written document: the operation's parameter of
/// that name and place, else the path item's, followed through local references; a Swagger
/// 2.0 parameter (no `schema`) is its own.
fn param_pointer(
    written: &Value,
    path: &str,
    method: &str,
    name: &str,
    location: &str,
) -> Option<String> {
    let item_at = push("/paths", path);
    let op_at = push(&item_at, &method.to_ascii_lowercase());
    for owner in [op_at, item_at] {
        let list_at = push(&owner, "parameters");
        let Some(list) = written.pointer(&list_at).and_then(Value::as_array) else {
            continue;
        };
        for i in 0..list.len() {
            let mut at = push(&list_at, &i.to_string());
            for _ in 0..16 {
                match written.pointer(&at)?.get("$ref").and_then(Value::as_str) {
                    Some(r) => at = local(r)?,
                    None => break,
                }
            }
            let param = written.pointer(&at)?;
            let text = |key: &str| param.get(key).and_then(Value::as_str).unwrap_or_default();
            // Header names are case-insensitive; the others are not.
            let named = match location {
                "header" => text("name").eq_ignore_ascii_case(name),
                _ => text("name") == name,
            };
            if named && text("in") == location {
                return match param.get("schema") {
                    Some(_) => Some(push(&at, "schema")),
                    None if param.get("type").is_some() => Some(at),
                    None => None,
                };
            }
        }
    }
    None
}

/// The pointer a local reference names (`#/a/b`, percent-decoded); `None` for another file's.
fn local(reference: &str) -> Option<String> {
    let fragment = reference.strip_prefix('#')?;
    let decoded = crate::load::source::percent_decode(fragment);
    (decoded.is_empty() || decoded.starts_with('/')).then_some(decoded)
}

/// Whether the body's types hold all that `schema` says (see the module's docs).
fn plain(doc: &Value, schema: &Value, seen: &mut HashSet<String>) -> bool {
    let map = match schema {
        Value::Bool(b) => return *b,
        Value::Object(map) => map,
        _ => return true,
    };
    if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
        let others = map.keys().any(|k| k != "$ref" && !is_annotation(k));
        let Some(target) = local(reference) else {
            // Another file's schema stays with the types (a bundled document has none).
            return !others;
        };
        if !seen.insert(target.clone()) {
            return !others;
        }
        return !others && doc.pointer(&target).is_some_and(|t| plain(doc, t, seen));
    }
    let Some(ty) = single_type(map) else {
        // No type: plain only when nothing is said of the value.
        return map.keys().all(|k| is_annotation(k));
    };
    let allowed: &[&str] = match ty {
        "string" => &["type", "minLength", "maxLength", "pattern", "enum"],
        "integer" | "number" => &[
            "type",
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
        ],
        "boolean" => &["type"],
        "array" => &["type", "items", "minItems", "maxItems"],
        "object" => &["type", "properties", "required", "additionalProperties"],
        _ => return false,
    };
    // A map's (no declared properties) count of members is checked by its type's checks; a
    // struct's is not (its fields are not counted).
    let counted = |k: &str| {
        ty == "object"
            && matches!(k, "minProperties" | "maxProperties")
            && !map.contains_key("properties")
    };
    if !map
        .keys()
        .all(|k| is_annotation(k) || allowed.contains(&k.as_str()) || counted(k))
    {
        return false;
    }
    if ty == "string"
        && let Some(list) = map.get("enum")
        && !list
            .as_array()
            .is_some_and(|l| l.iter().all(Value::is_string))
    {
        return false;
    }
    // The parts are held as their own schemas are (a list of `items` is draft 4's tuple).
    let properties = map.get("properties").and_then(Value::as_object);
    let mut parts = properties
        .into_iter()
        .flat_map(|p| p.values())
        .chain(map.get("additionalProperties"))
        .chain(map.get("items"));
    parts.all(|s| !s.is_array() && plain(doc, s, seen))
}

fn is_annotation(key: &str) -> bool {
    ANNOTATIONS.contains(&key) || key.starts_with("x-")
}

/// The one type a schema names: `type: T`, or 3.1's `type: [T, "null"]` (an `Option`).
fn single_type(map: &Map<String, Value>) -> Option<&str> {
    match map.get("type")? {
        Value::String(t) => Some(t),
        Value::Array(list) => {
            let named: Vec<&str> = list
                .iter()
                .filter_map(Value::as_str)
                .filter(|t| *t != "null")
                .collect();
            (named.len() == 1 && list.len() <= 2).then(|| named[0])
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn is_plain(schema: Value) -> bool {
        let doc = json!({"components": {"schemas": {
            "Pet": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string", "maxLength": 9}}},
            "Odd": {"type": "object", "properties": {"a": {"const": 1}}}
        }}});
        plain(&doc, &schema, &mut HashSet::new())
    }

    #[test]
    fn what_types_hold_is_plain() {
        assert!(is_plain(json!({"$ref": "#/components/schemas/Pet"})));
        assert!(is_plain(
            json!({"type": "array", "items": {"$ref": "#/components/schemas/Pet"}, "maxItems": 3})
        ));
        assert!(is_plain(
            json!({"type": "string", "enum": ["a", "b"], "description": "x"})
        ));
        assert!(is_plain(json!({"type": ["integer", "null"], "minimum": 1})));
        assert!(is_plain(json!({})));
        assert!(is_plain(
            json!({"type": "object", "additionalProperties": {"type": "string"}, "maxProperties": 2})
        ));
    }

    #[test]
    fn what_they_cannot_say_is_held() {
        for schema in [
            json!({"$ref": "#/components/schemas/Odd"}),
            json!({"oneOf": [{"type": "string"}, {"type": "integer"}]}),
            json!({"minLength": 2}),
            json!({"type": "array", "uniqueItems": true}),
            json!({"type": "integer", "enum": [1, 2]}),
            json!({"type": "object", "properties": {"a": {"not": {"type": "null"}}}}),
            json!({"type": "object", "propertyNames": {"maxLength": 3}}),
            json!({"$ref": "#/components/schemas/Pet", "required": ["extra"]}),
            json!({"$defs": {"a": {"type": "integer"}}, "$ref": "#/$defs/a"}),
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "maxProperties": 1}),
            json!(false),
        ] {
            assert!(!is_plain(schema.clone()), "{schema}");
        }
    }
}
