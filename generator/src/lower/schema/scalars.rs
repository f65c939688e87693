//! Scalar schemas → Rust scalars: strings (with their formats and encodings), integers by
//! `format`, numbers and booleans, and the `Any` kind's spelling of the same.

use super::*;

impl<'a> Schemas<'a> {
    /// A string: bytes when the 3.1 `contentEncoding` says base64, the format's own type when
    /// it has one (docs/architecture.md, "String formats") and `string_formats` is off, else
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
        Some(match &schema.schema_kind {
            // `enum: [null]` (schemars' `()`): no string fits, only `null`.
            _ if only_null(schema) => TypeRef::Unit,
            SchemaKind::Type(Type::String(s))
                if s.enumeration.iter().flatten().next().is_some() =>
            {
                return None;
            }
            SchemaKind::Type(Type::String(s)) => {
                let format = match &s.format {
                    VariantOrUnknownOrEmpty::Item(StringFormat::Date) => Some("date"),
                    VariantOrUnknownOrEmpty::Item(StringFormat::DateTime) => Some("date-time"),
                    VariantOrUnknownOrEmpty::Unknown(f) => Some(f.as_str()),
                    _ => None,
                };
                self.string_type(schema, format, pointer, sink)
            }
            SchemaKind::Type(Type::Boolean(_)) => TypeRef::Bool,
            SchemaKind::Type(Type::Integer(i)) => integer(&i.format),
            SchemaKind::Type(Type::Number(n)) => match &n.format {
                VariantOrUnknownOrEmpty::Item(NumberFormat::Float) => TypeRef::F32,
                _ => TypeRef::F64,
            },
            SchemaKind::Type(Type::Array(a)) if prefix_items(schema).is_some() => {
                let bounds = (a.min_items, a.max_items);
                self.tuple(schema, a.items.as_ref(), bounds, hint, pointer, sink)
            }
            SchemaKind::Type(Type::Array(a)) => {
                let item = match &a.items {
                    Some(items) => {
                        let item = self.type_of(
                            SchemaRef::of_boxed(items),
                            &format!("{hint}Item"),
                            &push(pointer, "items"),
                            sink,
                        );
                        self.or_null(SchemaRef::of_boxed(items), item)
                    }
                    None => TypeRef::Json,
                };
                TypeRef::Vec(Box::new(item))
            }
            // Names checked by the server: a type of its own.
            SchemaKind::Type(Type::Object(o))
                if o.properties.is_empty() && pattern_properties(schema).is_some() =>
            {
                return None;
            }
            SchemaKind::Type(Type::Object(o)) if o.properties.is_empty() => {
                match &o.additional_properties {
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
                }
            }
            // `{type: string, enum: [], allOf: [{$ref: Status}]}` (discord's query `status`):
            // the one part says what the string is; an empty `enum`, which read literally
            // admits nothing, is taken for "none listed" (README "Type mapping").
            SchemaKind::Any(any) if string_beside_one_part(any) => {
                return Some(self.type_of(
                    SchemaRef::of(&any.all_of[0]),
                    hint,
                    &push(&push(pointer, "allOf"), "0"),
                    sink,
                ));
            }
            SchemaKind::Any(any) => {
                let composite = !any.properties.is_empty()
                    || !any.one_of.is_empty()
                    || !any.any_of.is_empty()
                    || !any.all_of.is_empty() && !is_scalar_all_of(any)
                    || any.typ.as_deref() == Some("object") && any.additional_properties.is_some();
                if composite {
                    return None;
                }
                match any.typ.as_deref() {
                    Some("string") if any.enumeration.is_empty() => {
                        self.string_type(schema, any.format.as_deref(), pointer, sink)
                    }
                    Some("boolean") => TypeRef::Bool,
                    Some("integer") => any_integer(any.format.as_deref()),
                    Some("number") if any.format.as_deref() == Some("float") => TypeRef::F32,
                    Some("number") => TypeRef::F64,
                    Some("object") if pattern_properties(schema).is_some() => return None,
                    Some("object") => TypeRef::JsonObject,
                    Some("array") if prefix_items(schema).is_some() => self.tuple(
                        schema,
                        any.items.as_ref(),
                        (any.min_items, any.max_items),
                        hint,
                        pointer,
                        sink,
                    ),
                    Some("array") => match &any.items {
                        Some(items) => {
                            let item = self.type_of(
                                SchemaRef::of_boxed(items),
                                &format!("{hint}Item"),
                                &push(pointer, "items"),
                                sink,
                            );
                            TypeRef::Vec(Box::new(item))
                        }
                        None => TypeRef::Vec(Box::new(TypeRef::Json)),
                    },
                    _ => TypeRef::Json,
                }
            }
            SchemaKind::Not { .. } => {
                sink.warn(
                    pointer,
                    "`not` cannot be expressed as a Rust type; using any JSON value",
                );
                TypeRef::Json
            }
            SchemaKind::AllOf { all_of } if all_of.len() == 1 => {
                // A single-part allOf is the part itself, with a title or description beside.
                return Some(self.type_of(
                    SchemaRef::of(&all_of[0]),
                    hint,
                    &push(&push(pointer, "allOf"), "0"),
                    sink,
                ));
            }
            _ => return None,
        })
    }
}

/// The type of a string `format` that has one. Formats are case-sensitive names (JSON Schema
/// 2020-12, 7.3), so `dateTime` or `UUID` stay strings. `uri`, `email`, `hostname` stay
/// strings too: see docs/architecture.md, "String formats".
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

/// An integer's Rust type from a `format` openapiv3 left as text (on an "any" schema).
pub(super) fn any_integer(format: Option<&str>) -> TypeRef {
    match format {
        Some("int32") => TypeRef::I32,
        Some(other) => integer(&VariantOrUnknownOrEmpty::Unknown(other.to_string())),
        None => TypeRef::I64,
    }
}

pub(super) fn integer(format: &VariantOrUnknownOrEmpty<IntegerFormat>) -> TypeRef {
    match format {
        VariantOrUnknownOrEmpty::Item(IntegerFormat::Int32) => TypeRef::I32,
        VariantOrUnknownOrEmpty::Item(IntegerFormat::Int64) => TypeRef::I64,
        VariantOrUnknownOrEmpty::Unknown(f) => match f.as_str() {
            "uint8" => TypeRef::U8,
            "uint16" => TypeRef::U16,
            "uint32" => TypeRef::U32,
            "uint64" | "uint" => TypeRef::U64,
            "int8" | "int16" => TypeRef::I32,
            _ => TypeRef::I64,
        },
        VariantOrUnknownOrEmpty::Empty => TypeRef::I64,
    }
}
