//! Predicates on a schema's shape that decide which lowering reads it (only `null`, a bare
//! object, a union, a scalar beside `allOf` parts).

use super::*;

/// `enum: [null]`, with `type: string` or none: a schema only `null` fits (schemars writes it
/// for `()`; typify reads it as `()`). Read literally, `type: string` admits no `null` at all;
/// every server that writes it sends `null`, and so does Prism.
pub(super) fn only_null(schema: &Schema) -> bool {
    match &schema.schema_kind {
        SchemaKind::Type(Type::String(s)) => {
            !s.enumeration.is_empty() && s.enumeration.iter().all(Option::is_none)
        }
        SchemaKind::Any(any) => {
            any.typ.as_deref().is_none_or(|t| t == "string")
                && !any.enumeration.is_empty()
                && any.enumeration.iter().all(serde_json::Value::is_null)
                && any.properties.is_empty()
                && any.one_of.is_empty()
                && any.any_of.is_empty()
                && any.all_of.is_empty()
        }
        _ => false,
    }
}

pub(super) fn is_empty_schema(s: &Schema) -> bool {
    matches!(&s.schema_kind, SchemaKind::Any(a) if a.typ.is_none() && a.properties.is_empty())
}

/// Whether the schema says only "an object": `type: object` and annotations, no members,
/// bounds or union.
pub(super) fn is_bare_object(schema: &Schema) -> bool {
    match &schema.schema_kind {
        SchemaKind::Type(Type::Object(o)) => {
            o.properties.is_empty()
                && o.required.is_empty()
                && o.additional_properties.is_none()
                && o.min_properties.is_none()
                && o.max_properties.is_none()
        }
        _ => false,
    }
}

/// Whether the schema is a `oneOf`/`anyOf` with no members of its own.
pub(super) fn is_union(schema: &Schema) -> bool {
    match &schema.schema_kind {
        SchemaKind::OneOf { .. } | SchemaKind::AnyOf { .. } => true,
        SchemaKind::Any(any) => {
            (!any.one_of.is_empty() || !any.any_of.is_empty()) && any.properties.is_empty()
        }
        _ => false,
    }
}

/// `{type: string, enum: [..], allOf: [..]}`: an enum of strings, whatever the parts say.
pub(super) fn string_enum_beside_all_of(any: &AnySchema) -> bool {
    any.typ.as_deref() == Some("string")
        && !any.all_of.is_empty()
        && any.properties.is_empty()
        && any.one_of.is_empty()
        && any.any_of.is_empty()
        && !any.enumeration.is_empty()
        && any.enumeration.iter().all(serde_json::Value::is_string)
}

/// `{type: string, allOf: [one part]}` and nothing else that shapes the value: the part.
pub(super) fn string_beside_one_part(any: &AnySchema) -> bool {
    any.typ.as_deref() == Some("string")
        && any.all_of.len() == 1
        && any.properties.is_empty()
        && any.one_of.is_empty()
        && any.any_of.is_empty()
        && any.enumeration.is_empty()
}

/// `allOf` around a number or boolean (discord: `{type: integer, enum: [1], allOf: [{$ref:
/// MessageComponentTypes}]}`): one value that must meet every part, so that scalar with the
/// parts' constraints narrowing its own, not a struct.
pub(super) fn is_scalar_all_of(any: &AnySchema) -> bool {
    !any.all_of.is_empty()
        && any.properties.is_empty()
        && any.one_of.is_empty()
        && any.any_of.is_empty()
        && matches!(any.typ.as_deref(), Some("integer" | "number" | "boolean"))
}
