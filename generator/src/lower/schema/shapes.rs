//! Predicates on a schema's shape that decide which lowering reads it (only `null`, a bare
//! object, a union, a scalar beside `allOf` parts).

use super::*;

/// `enum: [null]`, with `type: string` or none: a schema only `null` fits (schemars writes it
/// for `()`; typify reads it as `()`). Read literally, `type: string` admits no `null` at all;
/// every server that writes it sends `null`, and so does Prism.
pub(super) fn only_null(schema: &Schema) -> bool {
    let v = View::of(schema);
    v.may_be("string") && v.enumeration.only_null() && v.properties.is_empty() && v.no_parts()
}

/// Whether the schema says nothing about the value's shape: no type, properties or parts
/// (`{}`, or only a description).
pub(super) fn is_empty_schema(s: &Schema) -> bool {
    let v = View::of(s);
    v.typ.is_none() && v.properties.is_empty() && v.no_parts() && !v.not
}

/// Whether the schema says only "an object": `type: object` and annotations, no members,
/// bounds or union.
pub(super) fn is_bare_object(schema: &Schema) -> bool {
    let v = View::of(schema);
    v.is("object")
        && v.properties.is_empty()
        && v.required.is_empty()
        && v.additional_properties.is_none()
        && v.min_properties.is_none()
        && v.max_properties.is_none()
        && v.no_parts()
}

/// Whether the schema is a `oneOf`/`anyOf` with no members of its own.
pub(super) fn is_union(schema: &Schema) -> bool {
    let v = View::of(schema);
    v.union().is_some() && v.properties.is_empty()
}

/// `{type: string, enum: [..], allOf: [..]}`, or a string `enum` beside keywords of other
/// types: an enum of strings, whatever the parts say.
pub(super) fn is_string_enum(v: &View<'_>) -> bool {
    v.is("string")
        && v.properties.is_empty()
        && v.one_of.is_empty()
        && v.any_of.is_empty()
        && v.is_string_enum()
}

/// `{type: string, allOf: [one part]}` and nothing else that shapes the value: the part.
pub(super) fn string_beside_one_part(v: &View<'_>) -> bool {
    v.is("string")
        && v.all_of.len() == 1
        && v.properties.is_empty()
        && v.one_of.is_empty()
        && v.any_of.is_empty()
        && v.enumeration.is_empty()
}

/// `allOf` around a number or boolean (discord: `{type: integer, enum: [1], allOf: [{$ref:
/// MessageComponentTypes}]}`): one value that must meet every part, so that scalar with the
/// parts' constraints narrowing its own, not a struct.
pub(super) fn is_scalar_all_of(v: &View<'_>) -> bool {
    !v.all_of.is_empty()
        && v.properties.is_empty()
        && v.one_of.is_empty()
        && v.any_of.is_empty()
        && matches!(v.typ, Some("integer" | "number" | "boolean"))
}

/// A part of a union that holds no members (a string, number, boolean or array): it carries
/// no property a tag could be read from.
pub(super) fn is_memberless(v: &View<'_>) -> bool {
    matches!(
        v.typ,
        Some("string" | "number" | "integer" | "boolean" | "array")
    ) && v.properties.is_empty()
        && v.no_parts()
}
