//! A schema's own checks (`minLength`, `pattern`, bounds, `multipleOf`, item and property
//! counts, checked formats) → `ir::Constraints`.

use super::*;

/// The constraints the server enforces for one schema.
pub fn constraints_of(schema: &Schema) -> Constraints {
    let mut c = Constraints::default();
    match &schema.schema_kind {
        SchemaKind::Type(Type::String(s)) => {
            c.min_length = s.min_length;
            c.max_length = s.max_length;
            c.pattern = s.pattern.clone();
            // The format, for values made up (the mock's) and, for those the server checks,
            // as a check; a format read into a type of its own drops both
            // (`Constraints::drop_string_checks`).
            let format = match &s.format {
                VariantOrUnknownOrEmpty::Item(StringFormat::Date) => Some("date".to_string()),
                VariantOrUnknownOrEmpty::Item(StringFormat::DateTime) => {
                    Some("date-time".to_string())
                }
                VariantOrUnknownOrEmpty::Unknown(f) => Some(f.clone()),
                _ => None,
            };
            c.checked_format = format
                .clone()
                .filter(|f| crate::ir::CHECKED_FORMATS.contains(&f.as_str()));
            c.format = format;
        }
        SchemaKind::Type(Type::Integer(i)) => {
            c.minimum = i.minimum.map(Bound::Integer);
            c.maximum = i.maximum.map(Bound::Integer);
            c.exclusive_minimum = i.exclusive_minimum;
            c.exclusive_maximum = i.exclusive_maximum;
            c.multiple_of = i.multiple_of.map(|v| v as f64);
            c.one_of = i
                .enumeration
                .iter()
                .flatten()
                .map(|v| (*v).into())
                .collect();
        }
        SchemaKind::Type(Type::Number(n)) => {
            c.minimum = n.minimum.map(Bound::Number);
            c.maximum = n.maximum.map(Bound::Number);
            c.exclusive_minimum = n.exclusive_minimum;
            c.exclusive_maximum = n.exclusive_maximum;
            c.multiple_of = n.multiple_of;
            c.one_of = n
                .enumeration
                .iter()
                .flatten()
                .filter_map(|v| serde_json::Number::from_f64(*v))
                .collect();
        }
        SchemaKind::Type(Type::Boolean(b)) => {
            // `enum: [false]`: the one value; `[true, false]` allows both, as no enum does.
            let mut values = b.enumeration.iter().flatten().copied();
            if let Some(first) = values.next()
                && values.all(|v| v == first)
            {
                c.boolean = Some(first);
            }
        }
        SchemaKind::Type(Type::Array(a)) => {
            c.min_items = a.min_items;
            c.max_items = a.max_items;
            c.unique_items = a.unique_items;
        }
        SchemaKind::Type(Type::Object(o)) => {
            c.min_properties = o.min_properties;
            c.max_properties = o.max_properties;
            // `{type: object, additionalProperties: false}` and no properties (github's app
            // manifest conversion): the empty object alone, read as a free-form object that
            // may hold no member.
            if o.properties.is_empty()
                && matches!(
                    o.additional_properties,
                    Some(AdditionalProperties::Any(false))
                )
                && pattern_properties(schema).is_none()
            {
                c.max_properties = Some(0);
            }
        }
        // Keywords beside `allOf` (or other combinations openapiv3 reads as "any"), and an
        // `allOf` part that only adds a bound (`{minimum: 2}`). Which apply is decided where
        // they are checked, by the value's type.
        SchemaKind::Any(any) => {
            if matches!(any.typ.as_deref(), None | Some("integer" | "number")) {
                // openapiv3 reads these as `f64` already (beside `allOf`, 2^53 and beyond may
                // have rounded).
                c.minimum = any.minimum.map(Bound::Number);
                c.maximum = any.maximum.map(Bound::Number);
                c.exclusive_minimum = any.exclusive_minimum.unwrap_or(false);
                c.exclusive_maximum = any.exclusive_maximum.unwrap_or(false);
                c.multiple_of = any.multiple_of;
                c.one_of = any
                    .enumeration
                    .iter()
                    .filter_map(|v| v.as_number().cloned())
                    .collect();
            }
            if matches!(any.typ.as_deref(), None | Some("string")) {
                c.min_length = any.min_length;
                c.max_length = any.max_length;
                c.pattern = any.pattern.clone();
            }
            if matches!(any.typ.as_deref(), None | Some("object")) {
                c.min_properties = any.min_properties;
                c.max_properties = any.max_properties;
            }
        }
        _ => {}
    }
    // A map made of `patternProperties` alone: its names are checked.
    c
}
