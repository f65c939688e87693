//! A schema's own checks (`minLength`, `pattern`, bounds, `multipleOf`, item and property
//! counts, checked formats) → `ir::Constraints`.

use super::*;

/// The constraints the server enforces for one schema. Keywords of a type apply when the
/// schema says that type or none (`{minimum: 2}` as an `allOf` part): which apply is decided
/// where they are checked, by the value's type.
pub fn constraints_of(schema: &Schema) -> Constraints {
    let v = View::of(schema);
    let mut c = Constraints::default();
    if v.may_be("integer") || v.may_be("number") {
        c.minimum = v.minimum;
        c.maximum = v.maximum;
        c.exclusive_minimum = v.exclusive_minimum;
        c.exclusive_maximum = v.exclusive_maximum;
        c.multiple_of = v.multiple_of;
        c.one_of = v.enumeration.numbers();
    }
    if v.may_be("string") {
        c.min_length = v.min_length;
        c.max_length = v.max_length;
        c.pattern = v.pattern.map(str::to_string);
    }
    if v.is("string") {
        // The format, for values made up (the mock's) and, for those the server checks,
        // as a check; a format read into a type of its own drops both
        // (`Constraints::drop_string_checks`).
        let format = v.format.filter(|f| !UNCHECKED_STRING_FORMATS.contains(f));
        c.checked_format = format
            .filter(|f| crate::ir::CHECKED_FORMATS.contains(f))
            .map(str::to_string);
        // `binary` is kept as written too: a multipart part of that format is a file (the
        // command line's `--file`); nothing is made up or checked for it.
        c.format = format
            .or(v.format.filter(|f| *f == "binary"))
            .map(str::to_string);
    }
    if v.is("boolean") {
        // `enum: [false]`: the one value; `[true, false]` allows both, as no enum does.
        let mut values = v.enumeration.booleans().into_iter();
        if let Some(first) = values.next()
            && values.all(|b| b == first)
        {
            c.boolean = Some(first);
        }
    }
    if v.may_be("array") {
        c.min_items = v.min_items;
        c.max_items = v.max_items;
        c.unique_items = v.unique_items;
    }
    if v.may_be("object") {
        c.min_properties = v.min_properties;
        c.max_properties = v.max_properties;
    }
    // `{type: object, additionalProperties: false}` and no properties (github's app manifest
    // conversion): the empty object alone, read as a free-form object that may hold no
    // member.
    if v.is("object")
        && v.properties.is_empty()
        && v.no_parts()
        && matches!(
            v.additional_properties,
            Some(AdditionalProperties::Any(false))
        )
        && pattern_properties(schema).is_none()
    {
        c.max_properties = Some(0);
    }
    c
}

/// String formats that describe how bytes are written (`byte`, `binary`) or shown
/// (`password`): nothing a value is checked by or made up from.
const UNCHECKED_STRING_FORMATS: &[&str] = &["byte", "binary", "password"];
