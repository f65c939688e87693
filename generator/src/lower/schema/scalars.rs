//! Scalar schemas → Rust scalars: strings (with their formats and encodings), integers by
//! `format`, numbers and booleans, and the `Any` kind's spelling of the same.

use super::*;

impl<'a> Schemas<'a> {
    /// A string: bytes when the 3.1 `contentEncoding` says base64, the format's own type when
    /// it has one (book/src/internals/values.md, "String formats") and `string_formats` is off, else
    /// `String`.
    pub(super) fn string_type(
        &self,
        schema: &Schema,
        format: Option<&str>,
        pointer: &str,
        sink: &mut Sink,
    ) -> TypeRef {
        let encoding = schema
            .schema_data
            .extensions
            .get("x-apigen-content-encoding")
            .and_then(|v| v.as_str());
        match encoding.map(str::to_ascii_lowercase).as_deref() {
            None if self.string_formats => TypeRef::String,
            None => format.and_then(format_type).unwrap_or(TypeRef::String),
            Some("base64") => TypeRef::Base64,
            Some("base64url") => TypeRef::Base64Url,
            Some(other) => {
                sink.warn(
                    push(pointer, "contentEncoding"),
                    format!("`contentEncoding: {other}` is not decoded; the value stays a string"),
                );
                TypeRef::String
            }
        }
    }

    /// Scalars, arrays and maps need no type of their own; `None` means it does.
    pub(super) fn primitive(
        &mut self,
        schema: &Schema,
        hint: &str,
        pointer: &str,
        sink: &mut Sink,
    ) -> Option<TypeRef> {
        let v = View::of(schema);
        // `enum: [null]` (schemars' `()`): no string fits, only `null`.
        if only_null(schema) {
            return Some(TypeRef::Unit);
        }
        // `{type: string, enum: [], allOf: [{$ref: Status}]}` (discord's query `status`): the
        // one part says what the string is; an empty `enum`, which read literally admits
        // nothing, is taken for "none listed" (book/src/reference/type-mapping.md). A single-part `allOf`
        // with nothing beside but a title or description is the part itself too.
        if string_beside_one_part(&v) || v.only_parts && v.all_of.len() == 1 {
            return Some(self.type_of(
                SchemaRef::of(&v.all_of[0]),
                hint,
                &push(&push(pointer, "allOf"), "0"),
                sink,
            ));
        }
        // Members, unions and object parts: a type of its own.
        let composite = !v.properties.is_empty()
            || v.union().is_some()
            || !v.all_of.is_empty() && !is_scalar_all_of(&v);
        if composite {
            return None;
        }
        Some(match v.typ {
            Some("string") if is_string_enum(&v) => return None,
            // (An `enum` of strings and other values beside `type: string` is any JSON value.)
            Some("string") if v.enumeration.is_empty() => {
                self.string_type(schema, v.format, pointer, sink)
            }
            Some("boolean") => TypeRef::Bool,
            Some("integer") => integer(v.format),
            Some("number") if v.format == Some("float") => TypeRef::F32,
            Some("number") if matches!(v.format, Some("decimal" | "decimal128")) => {
                TypeRef::Decimal
            }
            Some("number") => TypeRef::F64,
            Some("array") if prefix_items(schema).is_some() => self.tuple(
                schema,
                v.items,
                (v.min_items, v.max_items),
                hint,
                pointer,
                sink,
            ),
            Some("array") => match v.items {
                Some(items) => {
                    let item = self.type_of(
                        SchemaRef::of_boxed(items),
                        &format!("{hint}Item"),
                        &push(pointer, "items"),
                        sink,
                    );
                    TypeRef::Vec(Box::new(self.or_null(SchemaRef::of_boxed(items), item)))
                }
                None => TypeRef::Vec(Box::new(TypeRef::Json)),
            },
            // Names checked by the server: a type of its own.
            Some("object") if pattern_properties(schema).is_some() => return None,
            Some("object") => match v.additional_properties {
                Some(AdditionalProperties::Schema(s)) => {
                    let value = self.type_of(
                        SchemaRef::of(s),
                        &format!("{hint}Value"),
                        &push(pointer, "additionalProperties"),
                        sink,
                    );
                    TypeRef::Map(Box::new(self.or_null(SchemaRef::of(s), value)))
                }
                _ => TypeRef::JsonObject,
            },
            None if v.not => {
                sink.warn(
                    pointer,
                    "`not` cannot be expressed as a Rust type; using any JSON value",
                );
                TypeRef::Json
            }
            _ => TypeRef::Json,
        })
    }
}

/// The type of a string `format` that has one. Formats are case-sensitive names (JSON Schema
/// 2020-12, 7.3), so `dateTime` or `UUID` stay strings. `uri`, `email`, `hostname` stay
/// strings too: see book/src/internals/values.md, "String formats".
pub fn format_type(format: &str) -> Option<TypeRef> {
    Some(match format {
        "uuid" => TypeRef::Uuid,
        "date-time" => TypeRef::DateTime,
        "date" => TypeRef::Date,
        "ipv4" => TypeRef::Ipv4,
        "ipv6" => TypeRef::Ipv6,
        _ => return None,
    })
}

/// An integer's Rust type by its `format`: the sizes Rust has, a decimal that keeps every
/// digit for those wider than 64 bits, `i64` for the rest.
pub(super) fn integer(format: Option<&str>) -> TypeRef {
    match format {
        Some("int128" | "uint128" | "bigint") => TypeRef::BigInt,
        Some("int32") => TypeRef::I32,
        Some("uint8") => TypeRef::U8,
        Some("uint16") => TypeRef::U16,
        Some("uint32") => TypeRef::U32,
        Some("uint64" | "uint") => TypeRef::U64,
        Some("int8" | "int16") => TypeRef::I32,
        _ => TypeRef::I64,
    }
}
