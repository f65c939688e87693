//! Owns reading forms into types: url-encoded pairs and a multipart body's text fields, each
//! value text parsed on demand into what its field asks for (numbers, booleans, lists of
//! repeated keys, JSON objects), a repeated key refused where one value belongs, and a
//! multipart part's `null` JSON's null.

use serde::de::{self, DeserializeOwned, IntoDeserializer, Visitor};

use super::integer::{self, WholeNumbers};
use super::problem::Violation;
use super::validate::pointer_of;

/// [`decode_pairs`](super::body::decode_pairs); `null_text`: a value `null` is JSON's null
/// where the field admits it (a multipart body's parts).
///
/// A list is read from its repeated keys, each one item. Where that reading fails and a key
/// given once holds a JSON array, the form is read again with such a key's text as the list
/// itself: how a multipart part holds an array of objects (schemathesis and browsers write
/// the part's JSON; discord's `attachments`). Repeated keys come first because the same text
/// can be one item of a list of strings; only a form that does not fit that way is read the
/// other.
pub(crate) fn decode_fields<T: DeserializeOwned>(
    pairs: impl IntoIterator<Item = (String, String)>,
    null_text: bool,
) -> Result<T, Violation> {
    // Group repeated keys, keeping first-appearance order.
    let mut fields: Vec<(String, Vec<String>)> = Vec::new();
    for (k, v) in pairs {
        match fields.iter_mut().find(|(name, _)| *name == k) {
            Some((_, values)) => values.push(v),
            None => fields.push((k, vec![v])),
        }
    }
    let has_json_list = fields
        .iter()
        .any(|(_, values)| matches!(values.as_slice(), [one] if json_array(one).is_some()));
    if !has_json_list {
        return decode_grouped(fields, null_text, false);
    }
    decode_grouped(fields.clone(), null_text, false)
        .or_else(|first| decode_grouped(fields, null_text, true).map_err(|_| first))
}

/// One reading of the grouped fields; `json_lists`: a key given once whose text is a JSON
/// array is the list (see [`decode_fields`]).
fn decode_grouped<T: DeserializeOwned>(
    fields: Vec<(String, Vec<String>)>,
    null_text: bool,
    json_lists: bool,
) -> Result<T, Violation> {
    let de: de::value::MapDeserializer<'_, _, de::value::Error> =
        de::value::MapDeserializer::new(fields.into_iter().map(|(k, v)| {
            let field = FormField(v, null_text, json_lists);
            (k, field)
        }));
    // A type that buffers the form first (a `oneOf` body) reads its variants' numbers and
    // booleans from the text they arrived as.
    integer::text_scalars(|| serde_path_to_error::deserialize(de)).map_err(|e| Violation {
        pointer: pointer_of(e.path()),
        message: e.into_inner().to_string(),
    })
}

/// `text` as the JSON array it spells, if it does.
fn json_array(text: &str) -> Option<serde_json::Value> {
    if !text.trim_start().starts_with('[') {
        return None;
    }
    serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .filter(serde_json::Value::is_array)
}

/// The values of one form key (never empty); whether `null` is JSON's null (see
/// [`FormValue`]); whether a lone JSON array is the list (see [`decode_fields`]).
struct FormField(Vec<String>, bool, bool);

/// One form value, parsed on demand into whatever the target type asks for; with `.1` (the
/// parts of a multipart body), the text `null` is JSON's null for a field that admits it:
/// schemathesis writes a part's non-string values in their JSON spelling, and a browser's
/// `FormData` turns `null` into the text `null` too. (A url-encoded form's `null` stays text.)
struct FormValue(String, bool);

/// Whether a form value is JSON's null: the text `null` of a multipart part (see
/// [`FormValue`]).
fn is_json_null(text: &str, multipart: bool) -> bool {
    multipart && text == "null"
}

impl FormValue {
    fn is_null(&self) -> bool {
        is_json_null(&self.0, self.1)
    }

    /// The value as the JSON object it must spell, or serde's "invalid type" naming the text.
    fn json_object(
        &self,
        expected: &dyn de::Expected,
    ) -> Result<serde_json::Value, de::value::Error> {
        match serde_json::from_str::<serde_json::Value>(&self.0) {
            Ok(value @ serde_json::Value::Object(_)) => Ok(value),
            _ => Err(de::Error::invalid_type(
                de::Unexpected::Str(&self.0),
                expected,
            )),
        }
    }
}

impl<'de> IntoDeserializer<'de, de::value::Error> for FormField {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

impl<'de> IntoDeserializer<'de, de::value::Error> for FormValue {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

impl FormField {
    fn first(self) -> FormValue {
        FormValue(self.0.into_iter().next().unwrap_or_default(), self.1)
    }

    /// The one value of a field that holds one value: a key given more than once is refused,
    /// as a query parameter's is (which of them was meant is not for the server to guess;
    /// discord's `invitable` sent twice).
    fn single(self) -> Result<FormValue, de::value::Error> {
        match self.0.len() {
            0 | 1 => Ok(self.first()),
            n => Err(de::Error::custom(format!(
                "given {n} times; a single value is expected"
            ))),
        }
    }
}

macro_rules! field_to_single {
    ($($method:ident),*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
            self.single()?.$method(visitor)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for FormField {
    type Error = de::value::Error;

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        if self.2
            && let [one] = self.0.as_slice()
            && let Some(list) = json_array(one)
        {
            return integer::json_scalars(|| WholeNumbers(list).deserialize_seq(visitor))
                .map_err(de::Error::custom);
        }
        let null_text = self.1;
        visitor.visit_seq(de::value::SeqDeserializer::new(
            self.0.into_iter().map(|v| FormValue(v, null_text)),
        ))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        if matches!(self.0.as_slice(), [one] if is_json_null(one, self.1)) {
            return visitor.visit_none();
        }
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.single()?.deserialize_enum(name, variants, visitor)
    }

    // A type that buffers its input (a `oneOf`) sees a repeated key as a list.
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        if self.0.len() > 1 {
            return self.deserialize_seq(visitor);
        }
        self.first().deserialize_any(visitor)
    }

    // A member the type does not know is skipped, however often it is given.
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        self.first().deserialize_ignored_any(visitor)
    }

    field_to_single!(
        deserialize_bool,
        deserialize_i8,
        deserialize_i16,
        deserialize_i32,
        deserialize_i64,
        deserialize_i128,
        deserialize_u8,
        deserialize_u16,
        deserialize_u32,
        deserialize_u64,
        deserialize_u128,
        deserialize_f32,
        deserialize_f64,
        deserialize_char,
        deserialize_str,
        deserialize_string,
        deserialize_bytes,
        deserialize_byte_buf,
        deserialize_unit,
        deserialize_map,
        deserialize_identifier
    );

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.single()?.deserialize_unit_struct(name, visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.single()?.deserialize_tuple(len, visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.single()?.deserialize_tuple_struct(name, len, visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.single()?.deserialize_struct(name, fields, visitor)
    }
}

macro_rules! parse_value {
    ($($method:ident => $t:ty, $visit:ident);* $(;)?) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
            match self.0.parse::<$t>() {
                Ok(v) => visitor.$visit(v),
                Err(_) => Err(de::Error::invalid_value(de::Unexpected::Str(&self.0), &visitor)),
            }
        }
    )*};
}

/// As `parse_value!`, and a whole number written as a JSON number (`5.0`, `5e0`) is an
/// integer too, as in a JSON body ([`integer`]).
macro_rules! parse_integer {
    ($($method:ident => $t:ty, $visit:ident);* $(;)?) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
            if let Ok(v) = self.0.parse::<$t>() {
                return visitor.$visit(v);
            }
            match integer::whole_text(&self.0) {
                Some(whole) => WholeNumbers(whole.into_deserializer()).$method(visitor),
                None => Err(de::Error::invalid_value(de::Unexpected::Str(&self.0), &visitor)),
            }
        }
    )*};
}

impl<'de> de::Deserializer<'de> for FormValue {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        // A type that buffers its input (a `oneOf`) sees `null` as JSON's null.
        if self.is_null() {
            return visitor.visit_unit();
        }
        visitor.visit_string(self.0)
    }

    parse_integer!(
        deserialize_i8 => i8, visit_i8;
        deserialize_i16 => i16, visit_i16;
        deserialize_i32 => i32, visit_i32;
        deserialize_i64 => i64, visit_i64;
        deserialize_i128 => i128, visit_i128;
        deserialize_u8 => u8, visit_u8;
        deserialize_u16 => u16, visit_u16;
        deserialize_u32 => u32, visit_u32;
        deserialize_u64 => u64, visit_u64;
        deserialize_u128 => u128, visit_u128;
    );
    parse_value!(
        deserialize_bool => bool, visit_bool;
        deserialize_f32 => f32, visit_f32;
        deserialize_f64 => f64, visit_f64;
    );

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        if self.is_null() {
            return visitor.visit_none();
        }
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_seq(de::value::SeqDeserializer::new(std::iter::once(self)))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        let unit: de::value::StringDeserializer<de::value::Error> = self.0.into_deserializer();
        visitor.visit_enum(unit)
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_unit()
    }

    // An object in a form value is JSON text: how a multipart part whose property is an
    // object is sent (RFC 7578 with OpenAPI's default `application/json` for it). It is read
    // as a JSON body is, through `WholeNumbers`: an array where an object belongs is refused
    // at any depth, and its strings stay strings.
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        let value = self.json_object(&visitor)?;
        integer::json_scalars(|| WholeNumbers(value).deserialize_map(visitor))
            .map_err(de::Error::custom)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        let value = self.json_object(&visitor)?;
        integer::json_scalars(|| WholeNumbers(value).deserialize_struct(name, fields, visitor))
            .map_err(de::Error::custom)
    }

    serde::forward_to_deserialize_any! {
        char str string bytes byte_buf unit_struct tuple tuple_struct identifier ignored_any
    }
}
