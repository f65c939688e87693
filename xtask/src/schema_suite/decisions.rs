//! What apigen does not hold of JSON Schema, by decision, with why; and the groups still
//! failing that apigen has yet to fix (each named, so the run fails when one starts to pass and
//! the list goes stale). Failures of these groups are set aside (still run and shown); every
//! other case is expected to pass.

use serde_json::Value;

use super::document::Group;

/// Where the decisions are written for users.
pub const WHERE: &str = "xtask/src/schema_suite/decisions.rs, book/src/reference/type-mapping.md";

/// Whole suite files set aside, with why.
const FILES: &[(&str, &str)] = &[
    (
        "dynamicRef",
        "`$dynamicRef` is read as a plain reference (what 3.1 documents write); dynamic scopes are not held",
    ),
    (
        "refRemote",
        "references to other documents by URL: apigen reads no URL (a located error)",
    ),
    (
        "vocabulary",
        "custom metaschemas and vocabularies: apigen reads the 2020-12 dialect 3.1 names",
    ),
    (
        "anchor",
        "`$anchor` references: references are JSON pointers (a generation warning)",
    ),
    (
        "defs",
        "the metaschema by URL: apigen reads no URL (a located error)",
    ),
    (
        "unevaluatedItems",
        "`unevaluatedItems` is not checked (a generation warning)",
    ),
    (
        "format",
        "`format` is asserted for the formats apigen checks (book/src/reference/type-mapping.md), as OpenAPI's typed readers do; 2020-12 makes it an annotation",
    ),
    (
        "unevaluatedProperties",
        "`unevaluatedProperties` is checked only as `false` on a typed object (a generation warning otherwise)",
    ),
];

/// Groups still failing, by label, with what stands in the way. The run fails when one of them
/// passes, so that the list is kept true.
const OPEN: &[(&str, &str)] = &[
    (
        "draft2020-12 allOf.json #10",
        "`allOf: [{allOf: [{type: 'null'}]}]` is lowered as an object (a struct), which refuses the `null` the schema admits",
    ),
    (
        "draft2020-12 items.json #6",
        "`items` beside an `allOf` of `prefixItems` is lowered as an object (a struct), which refuses the arrays the schema admits",
    ),
];

/// Why a group's schema is set aside, by what it uses, if it is.
fn by_content(draft: &str, schema: &Value) -> Option<&'static str> {
    let text = schema.to_string();
    if implies_object(schema) {
        return Some(
            "`properties`, `required` or `additionalProperties` with no `type` are read as an object (a struct, the type users want of such a schema); JSON Schema lets other values through them, the generated server and client refuse them",
        );
    }
    if draft == "draft4" && beyond_openapi_30(schema) {
        return Some(
            "not an OpenAPI 3.0 schema object (a list of types, a list of `items`, `additionalItems`): the generator refuses it with a located error; 3.1 documents say these",
        );
    }
    if uses_identifiers(schema) {
        return Some(
            "`$id`, `$anchor` and references to other documents: references are JSON pointers into the one document",
        );
    }
    if text.contains("\"unevaluated") {
        return Some("`unevaluatedProperties`/`unevaluatedItems` (a generation warning)");
    }
    if text.contains("\\\\p{") {
        return Some(
            "Unicode classes (`\\p{…}`) in patterns: the pattern engine (regex-lite) has none; such a pattern is logged at start and not checked",
        );
    }
    None
}

/// A schema with object keywords and no `type`, at its top or in its properties.
fn implies_object(schema: &Value) -> bool {
    let Some(map) = schema.as_object() else {
        return false;
    };
    let object_keywords = ["properties", "required", "additionalProperties"]
        .iter()
        .any(|k| map.contains_key(*k));
    (object_keywords && !map.contains_key("type"))
        || map
            .get("properties")
            .and_then(Value::as_object)
            .is_some_and(|p| p.values().any(implies_object))
}

/// Draft 4 keywords OpenAPI 3.0's schema object leaves out: `type` as a list, `items` as a
/// list, `additionalItems`.
fn beyond_openapi_30(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => map.iter().any(|(k, v)| {
            (k == "type" && v.is_array())
                || (k == "items" && v.is_array())
                || k == "additionalItems"
                || beyond_openapi_30(v)
        }),
        Value::Array(items) => items.iter().any(beyond_openapi_30),
        _ => false,
    }
}

fn uses_identifiers(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => map.iter().any(|(k, v)| {
            let identifier = matches!(k.as_str(), "$id" | "id" | "$anchor" | "$dynamicAnchor");
            let elsewhere = k == "$ref" && v.as_str().is_some_and(|r| !r.starts_with('#'));
            (identifier && v.is_string()) || elsewhere || uses_identifiers(v)
        }),
        Value::Array(items) => items.iter().any(uses_identifiers),
        _ => false,
    }
}

/// The decisions, as the report lists them.
pub fn listed() -> Vec<(String, &'static str)> {
    let mut out: Vec<(String, &'static str)> = FILES
        .iter()
        .map(|(file, why)| (format!("`{file}.json`"), *why))
        .collect();
    out.push((
        "groups using `$id` or `$anchor`".into(),
        "references are JSON pointers into the one document",
    ));
    out.push((
        "groups with `properties`, `required` or `additionalProperties` and no `type`".into(),
        "read as an object (a struct): other values, which JSON Schema lets through, are refused",
    ));
    out.push((
        "draft 4 groups with `type` or `items` as a list, or `additionalItems`".into(),
        "not an OpenAPI 3.0 schema object: the generator refuses it with a located error",
    ));
    out.push((
        "groups with `\\p{…}` in a pattern".into(),
        "the pattern engine (regex-lite) has no Unicode classes: logged at start, not checked",
    ));
    out.extend(
        OPEN.iter()
            .map(|(label, why)| (format!("{label} (open)"), *why)),
    );
    out
}

/// Why a group's failures are set aside, if they are.
pub fn set_aside(group: &Group) -> Option<&'static str> {
    FILES
        .iter()
        .find(|(file, _)| *file == group.file)
        .map(|(_, why)| *why)
        .or_else(|| by_content(&group.draft, &group.schema))
        .or_else(|| open(group))
}

/// Why a group is listed as still failing, if it is.
pub fn open(group: &Group) -> Option<&'static str> {
    let label = format!("{} {}", group.draft, group.label());
    OPEN.iter().find(|(l, _)| *l == label).map(|(_, why)| *why)
}
