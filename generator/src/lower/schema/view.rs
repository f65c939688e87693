//! One reading of a schema's keywords, whichever of openapiv3's kinds holds them.
//!
//! openapiv3 reads a schema into `Type::String`, `Type::Integer`, … when it holds one type's
//! keywords alone, into `OneOf`/`AnyOf`/`AllOf`/`Not` when it holds that keyword alone, and
//! into `Any` for every mix (`{type: string, allOf: […]}`, properties with no `type`, a
//! bound beside `enum`). The same schema thus arrives in one of several shapes depending on
//! what stands beside what. The lowering asks a [`View`] what the schema says (its `type`,
//! `enum`, bounds, properties, parts) and never which kind openapiv3 chose, so each rule is
//! written once, by keyword.

use super::*;
use indexmap::IndexMap;
use openapiv3::{
    AnySchema, IntegerFormat, NumberFormat, SchemaKind, StringFormat, Type, VariantOrUnknownOrEmpty,
};
use serde_json::Value;

/// A schema's properties, as openapiv3 holds them.
pub(super) type Properties = IndexMap<String, ReferenceOr<Box<Schema>>>;

/// The properties of a schema that has none.
static NO_PROPERTIES: std::sync::LazyLock<Properties> = std::sync::LazyLock::new(IndexMap::new);

/// What a schema says, keyword by keyword (absent keywords empty or `None`).
pub(super) struct View<'s> {
    /// `type`, when it says one (`string`, `integer`, `number`, `boolean`, `array`, `object`).
    pub typ: Option<&'s str>,
    /// `format` as written (`int32`, `date-time`, `byte`, …).
    pub format: Option<&'s str>,
    /// `enum`, values as written (`null` included), borrowed.
    pub enumeration: Enum<'s>,
    pub pattern: Option<&'s str>,
    pub min_length: Option<usize>,
    pub max_length: Option<usize>,
    /// `minimum`: an integer when the schema is an integer and nothing else (openapiv3 keeps
    /// it exact then), a number otherwise (beside other keywords it read an `f64`).
    pub minimum: Option<Bound>,
    pub maximum: Option<Bound>,
    pub exclusive_minimum: bool,
    pub exclusive_maximum: bool,
    pub multiple_of: Option<f64>,
    pub properties: &'s Properties,
    pub required: &'s [String],
    pub additional_properties: Option<&'s AdditionalProperties>,
    pub min_properties: Option<usize>,
    pub max_properties: Option<usize>,
    pub items: Option<&'s ReferenceOr<Box<Schema>>>,
    pub min_items: Option<usize>,
    pub max_items: Option<usize>,
    pub unique_items: bool,
    pub one_of: &'s [ReferenceOr<Schema>],
    pub any_of: &'s [ReferenceOr<Schema>],
    pub all_of: &'s [ReferenceOr<Schema>],
    /// `not` is there.
    pub not: bool,
    /// Nothing stands beside `oneOf`, `anyOf`, `allOf` or `not` that shapes the value (a
    /// wrapper of parts: `{allOf: [{$ref: X}]}` with a title, not `{allOf: [..], type: ..}`).
    pub only_parts: bool,
}

impl<'s> View<'s> {
    pub fn of(schema: &'s Schema) -> View<'s> {
        let mut v = View::empty();
        match &schema.schema_kind {
            SchemaKind::Type(Type::String(s)) => {
                v.typ = Some("string");
                v.format = match &s.format {
                    VariantOrUnknownOrEmpty::Item(f) => Some(string_format(f)),
                    VariantOrUnknownOrEmpty::Unknown(f) => Some(f),
                    VariantOrUnknownOrEmpty::Empty => None,
                };
                v.enumeration = Enum::Strings(&s.enumeration);
                v.pattern = s.pattern.as_deref();
                v.min_length = s.min_length;
                v.max_length = s.max_length;
            }
            SchemaKind::Type(Type::Integer(i)) => {
                v.typ = Some("integer");
                v.format = match &i.format {
                    VariantOrUnknownOrEmpty::Item(IntegerFormat::Int32) => Some("int32"),
                    VariantOrUnknownOrEmpty::Item(IntegerFormat::Int64) => Some("int64"),
                    VariantOrUnknownOrEmpty::Unknown(f) => Some(f),
                    VariantOrUnknownOrEmpty::Empty => None,
                };
                v.enumeration = Enum::Integers(&i.enumeration);
                v.minimum = i.minimum.map(Bound::Integer);
                v.maximum = i.maximum.map(Bound::Integer);
                v.exclusive_minimum = i.exclusive_minimum;
                v.exclusive_maximum = i.exclusive_maximum;
                v.multiple_of = i.multiple_of.map(|m| m as f64);
            }
            SchemaKind::Type(Type::Number(n)) => {
                v.typ = Some("number");
                v.format = match &n.format {
                    VariantOrUnknownOrEmpty::Item(NumberFormat::Float) => Some("float"),
                    VariantOrUnknownOrEmpty::Item(NumberFormat::Double) => Some("double"),
                    VariantOrUnknownOrEmpty::Unknown(f) => Some(f),
                    VariantOrUnknownOrEmpty::Empty => None,
                };
                v.enumeration = Enum::Numbers(&n.enumeration);
                v.minimum = n.minimum.map(Bound::Number);
                v.maximum = n.maximum.map(Bound::Number);
                v.exclusive_minimum = n.exclusive_minimum;
                v.exclusive_maximum = n.exclusive_maximum;
                v.multiple_of = n.multiple_of;
            }
            SchemaKind::Type(Type::Boolean(b)) => {
                v.typ = Some("boolean");
                v.enumeration = Enum::Booleans(&b.enumeration);
            }
            SchemaKind::Type(Type::Array(a)) => {
                v.typ = Some("array");
                v.items = a.items.as_ref();
                v.min_items = a.min_items;
                v.max_items = a.max_items;
                v.unique_items = a.unique_items;
            }
            SchemaKind::Type(Type::Object(o)) => {
                v.typ = Some("object");
                v.properties = &o.properties;
                v.required = &o.required;
                v.additional_properties = o.additional_properties.as_ref();
                v.min_properties = o.min_properties;
                v.max_properties = o.max_properties;
            }
            SchemaKind::OneOf { one_of } => {
                v.one_of = one_of;
                v.only_parts = true;
            }
            SchemaKind::AnyOf { any_of } => {
                v.any_of = any_of;
                v.only_parts = true;
            }
            SchemaKind::AllOf { all_of } => {
                v.all_of = all_of;
                v.only_parts = true;
            }
            SchemaKind::Not { .. } => {
                v.not = true;
                v.only_parts = true;
            }
            SchemaKind::Any(any) => v = View::of_any(any),
        }
        v
    }

    /// Keywords of several kinds, or keywords beside parts: each as written.
    fn of_any(any: &'s AnySchema) -> View<'s> {
        View {
            typ: any.typ.as_deref(),
            format: any.format.as_deref(),
            enumeration: Enum::Values(&any.enumeration),
            pattern: any.pattern.as_deref(),
            min_length: any.min_length,
            max_length: any.max_length,
            minimum: any.minimum.map(Bound::Number),
            maximum: any.maximum.map(Bound::Number),
            exclusive_minimum: any.exclusive_minimum.unwrap_or(false),
            exclusive_maximum: any.exclusive_maximum.unwrap_or(false),
            multiple_of: any.multiple_of,
            properties: &any.properties,
            required: &any.required,
            additional_properties: any.additional_properties.as_ref(),
            min_properties: any.min_properties,
            max_properties: any.max_properties,
            items: any.items.as_ref(),
            min_items: any.min_items,
            max_items: any.max_items,
            unique_items: any.unique_items.unwrap_or(false),
            one_of: &any.one_of,
            any_of: &any.any_of,
            all_of: &any.all_of,
            not: any.not.is_some(),
            only_parts: false,
        }
    }

    fn empty() -> View<'s> {
        View {
            typ: None,
            format: None,
            enumeration: Enum::Values(&[]),
            pattern: None,
            min_length: None,
            max_length: None,
            minimum: None,
            maximum: None,
            exclusive_minimum: false,
            exclusive_maximum: false,
            multiple_of: None,
            properties: &NO_PROPERTIES,
            required: &[],
            additional_properties: None,
            min_properties: None,
            max_properties: None,
            items: None,
            min_items: None,
            max_items: None,
            unique_items: false,
            one_of: &[],
            any_of: &[],
            all_of: &[],
            not: false,
            only_parts: false,
        }
    }

    /// `type` is `t`.
    pub fn is(&self, t: &str) -> bool {
        self.typ == Some(t)
    }

    /// `type` is `t`, or the schema says none (keywords of `t` then apply to values of `t`).
    pub fn may_be(&self, t: &str) -> bool {
        self.typ.is_none_or(|typ| typ == t)
    }

    /// No `oneOf`, `anyOf` or `allOf`.
    pub fn no_parts(&self) -> bool {
        self.one_of.is_empty() && self.any_of.is_empty() && self.all_of.is_empty()
    }

    /// The `oneOf` parts, else the `anyOf` ones, with the keyword they stand under (a schema
    /// with both is read by its `oneOf`).
    pub fn union(&self) -> Option<(&'s [ReferenceOr<Schema>], &'static str)> {
        if !self.one_of.is_empty() {
            Some((self.one_of, "oneOf"))
        } else if !self.any_of.is_empty() {
            Some((self.any_of, "anyOf"))
        } else {
            None
        }
    }

    /// The strings `enum` lists (not its `null`).
    pub fn enum_strings(&self) -> impl Iterator<Item = &'s str> {
        self.enumeration.strings()
    }

    /// `enum` lists strings, and nothing but strings and `null`.
    pub fn is_string_enum(&self) -> bool {
        self.enum_strings().next().is_some() && self.enumeration.only_strings_or_null()
    }
}

/// A schema's `enum` as openapiv3 holds it: typed values for a schema of one type's keywords
/// alone (`None` for `null`), JSON values otherwise. Read in place: a schema is viewed many
/// times while it is lowered, and its `enum` (hundreds of strings in api.github.com's) is
/// not copied for each look.
#[derive(Clone, Copy)]
pub(super) enum Enum<'s> {
    Strings(&'s [Option<String>]),
    Integers(&'s [Option<i64>]),
    Numbers(&'s [Option<f64>]),
    Booleans(&'s [Option<bool>]),
    Values(&'s [Value]),
}

impl<'s> Enum<'s> {
    pub fn is_empty(self) -> bool {
        match self {
            Enum::Strings(e) => e.is_empty(),
            Enum::Integers(e) => e.is_empty(),
            Enum::Numbers(e) => e.is_empty(),
            Enum::Booleans(e) => e.is_empty(),
            Enum::Values(e) => e.is_empty(),
        }
    }

    /// Each value is it `null`.
    fn nulls(self) -> Box<dyn Iterator<Item = bool> + 's> {
        match self {
            Enum::Strings(e) => Box::new(e.iter().map(Option::is_none)),
            Enum::Integers(e) => Box::new(e.iter().map(Option::is_none)),
            Enum::Numbers(e) => Box::new(e.iter().map(Option::is_none)),
            Enum::Booleans(e) => Box::new(e.iter().map(Option::is_none)),
            Enum::Values(e) => Box::new(e.iter().map(Value::is_null)),
        }
    }

    /// `null` is one of the values.
    pub fn has_null(self) -> bool {
        self.nulls().any(|null| null)
    }

    /// Values listed, every one `null`.
    pub fn only_null(self) -> bool {
        !self.is_empty() && self.nulls().all(|null| null)
    }

    /// Every value a string or `null`.
    pub fn only_strings_or_null(self) -> bool {
        match self {
            Enum::Strings(_) => true,
            Enum::Values(e) => e.iter().all(|v| v.is_string() || v.is_null()),
            other => other.nulls().all(|null| null),
        }
    }

    /// The strings listed.
    pub fn strings(self) -> impl Iterator<Item = &'s str> {
        let (typed, values): (&[Option<String>], &[Value]) = match self {
            Enum::Strings(e) => (e, &[]),
            Enum::Values(e) => (&[], e),
            _ => (&[], &[]),
        };
        typed
            .iter()
            .flatten()
            .map(String::as_str)
            .chain(values.iter().filter_map(Value::as_str))
    }

    /// The numbers listed, as JSON numbers.
    pub fn numbers(self) -> Vec<serde_json::Number> {
        match self {
            Enum::Integers(e) => e.iter().flatten().map(|&n| n.into()).collect(),
            Enum::Numbers(e) => e
                .iter()
                .flatten()
                .filter_map(|&n| serde_json::Number::from_f64(n))
                .collect(),
            Enum::Values(e) => e.iter().filter_map(|v| v.as_number().cloned()).collect(),
            _ => Vec::new(),
        }
    }

    /// The whole numbers listed as integers (a `number` schema's values are not).
    pub fn integers(self) -> Vec<i64> {
        match self {
            Enum::Integers(e) => e.iter().flatten().copied().collect(),
            Enum::Values(e) => e.iter().filter_map(Value::as_i64).collect(),
            _ => Vec::new(),
        }
    }

    /// The booleans listed.
    pub fn booleans(self) -> Vec<bool> {
        match self {
            Enum::Booleans(e) => e.iter().flatten().copied().collect(),
            Enum::Values(e) => e.iter().filter_map(Value::as_bool).collect(),
            _ => Vec::new(),
        }
    }
}

/// The text of a `format` openapiv3 reads into its own enum.
fn string_format(format: &StringFormat) -> &'static str {
    match format {
        StringFormat::Date => "date",
        StringFormat::DateTime => "date-time",
        StringFormat::Password => "password",
        StringFormat::Byte => "byte",
        StringFormat::Binary => "binary",
    }
}
