//! Reads a generated struct from a JSON object: what serde's derive would print for every
//! struct (a visitor, its field-name visitor, a reading of the struct's array form) is here
//! once, and a struct's own code is its slots and one `match` on the field's index. Issue 46
//! measured serde's derived `Deserialize` impls at a third of a generated crate's check time,
//! a third of that the array form (`[1, "Rex"]` for a struct), which no document ever sends
//! and [`WholeNumbers`](super::integer::WholeNumbers) refused anyway.
//!
//! The rules are serde's derive's: a property named twice is refused (`duplicate field`), an
//! unknown one skipped (or refused, `unknown field`, where the struct denies them), a missing
//! required one refused (`missing field`) unless its type reads absence (an `Option`), and
//! anything but an object is `invalid type: …, expected struct Name`.

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use std::fmt;
use std::marker::PhantomData;

/// A struct read from an object. Generated code implements it and reads the struct with
/// [`deserialize`].
pub trait Object: Sized {
    /// The struct's name, as errors show it (`expected struct Pet`).
    const NAME: &'static str;
    /// The properties' names on the wire, in the order [`next_field`] numbers them.
    const FIELDS: &'static [&'static str];
    /// Whether a property not in [`Object::FIELDS`] is refused (the server's
    /// `additionalProperties: false`) rather than skipped.
    const DENY_UNKNOWN: bool;

    /// The index in [`Object::FIELDS`] of a property name (a `match`, which the compiler
    /// turns into a few comparisons: faster than a search of `FIELDS`, and cheap to compile,
    /// not being generic).
    fn index(name: &str) -> Option<usize>;

    /// Reads the struct from the object's entries.
    fn read<'de, A: MapAccess<'de>>(map: A) -> Result<Self, A::Error>;
}

/// Whether `T` names every member of `value` (anything but an object: yes): a union tries a
/// struct variant that would drop members only after the others.
pub fn names_all<T: Object>(value: &serde_json::Value) -> bool {
    match value {
        serde_json::Value::Object(members) => members.keys().all(|k| T::index(k).is_some()),
        _ => true,
    }
}

/// A union's struct variant tried on a copy of `value`
/// ([`variant_from_value`](super::integer::variant_from_value)), with whether it names every
/// member ([`names_all`]): generated unions take one that would drop members only when no
/// later variant names them all.
pub fn struct_variant<T: Object + serde::de::DeserializeOwned>(
    value: &serde_json::Value,
) -> serde_json::Result<(T, bool)> {
    let read = super::integer::variant_from_value::<T>(value.clone())?;
    Ok((read, names_all::<T>(value)))
}

/// Reads an [`Object`] (the body of its `Deserialize` impl).
pub fn deserialize<'de, T: Object, D: Deserializer<'de>>(deserializer: D) -> Result<T, D::Error> {
    deserializer.deserialize_struct(T::NAME, T::FIELDS, ObjectVisitor(PhantomData))
}

/// Takes a map only: a struct is never an array in a document.
struct ObjectVisitor<T>(PhantomData<T>);

impl<'de, T: Object> Visitor<'de> for ObjectVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "struct {}", T::NAME)
    }

    #[inline]
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        T::read(map)
    }
}

/// The index in `T::FIELDS` of the next known property, skipping (or refusing) unknown
/// ones; `None` at the object's end.
#[inline(always)]
pub fn next_field<'de, T: Object, A: MapAccess<'de>>(
    map: &mut A,
) -> Result<Option<usize>, A::Error> {
    loop {
        match map.next_key_seed(FieldSeed::<T>(PhantomData))? {
            None => return Ok(None),
            Some(Some(index)) => return Ok(Some(index)),
            Some(None) => {
                map.next_value::<IgnoredAny>()?;
            }
        }
    }
}

/// Reads the value of the property just named into its slot; a second time is an error.
#[inline(always)]
pub fn field<'de, A: MapAccess<'de>, V: Deserialize<'de>>(
    map: &mut A,
    slot: &mut Option<V>,
    name: &'static str,
) -> Result<(), A::Error> {
    if slot.is_some() {
        return Err(de::Error::duplicate_field(name));
    }
    *slot = Some(map.next_value()?);
    Ok(())
}

/// A string format read exactly (the server's readers of `date-time`, `date` and `uuid`,
/// `formats::DATE_TIME` and its neighbours): the reader, and what a refusal says it expects.
pub struct Exact<V> {
    pub read: fn(&str) -> Option<V>,
    pub expected: &'static str,
}

/// Reads the value of the property just named, a string, with `format`'s exact reader; a
/// second time is an error, as for [`field`]. The reader runs inside the value's decoding, so
/// a refusal is located at the property (`/at`).
#[inline]
pub fn field_exact<'de, A: MapAccess<'de>, V>(
    map: &mut A,
    slot: &mut Option<V>,
    name: &'static str,
    format: &Exact<V>,
) -> Result<(), A::Error> {
    if slot.is_some() {
        return Err(de::Error::duplicate_field(name));
    }
    *slot = Some(map.next_value_seed(format)?);
    Ok(())
}

impl<'de, V> DeserializeSeed<'de> for &Exact<V> {
    type Value = V;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<V, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de, V> Visitor<'de> for &Exact<V> {
    type Value = V;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.expected)
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<V, E> {
        (self.read)(text).ok_or_else(|| E::invalid_value(de::Unexpected::Str(text), &self.expected))
    }
}

/// A required property's value; when it was absent, what its type reads from absence (an
/// `Option` reads `None`), else `missing field`.
#[inline]
pub fn required<'de, V: Deserialize<'de>, E: de::Error>(
    slot: Option<V>,
    name: &'static str,
) -> Result<V, E> {
    match slot {
        Some(value) => Ok(value),
        None => V::deserialize(Missing(name, PhantomData)),
    }
}

/// An optional property that takes `null` as absence (the client's, tolerant of what
/// servers send): absent and `null` are both `None`.
#[inline]
pub fn optional<V>(slot: Option<Option<V>>) -> Option<V> {
    slot.flatten()
}

/// A required property's value, whatever its type: absent is `missing field`, also for a
/// nullable property (`Option<T>`, whose `null` is `None`).
#[inline]
pub fn present<V, E: de::Error>(slot: Option<V>, name: &'static str) -> Result<V, E> {
    slot.ok_or_else(|| de::Error::missing_field(name))
}

/// Reads a property name as its index in `T::FIELDS` (`None`: not one of them).
struct FieldSeed<T>(PhantomData<T>);

impl<'de, T: Object> DeserializeSeed<'de> for FieldSeed<T> {
    type Value = Option<usize>;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<usize>, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl<'de, T: Object> Visitor<'de> for FieldSeed<T> {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("field identifier")
    }

    #[inline]
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Option<usize>, E> {
        match T::index(v) {
            None if T::DENY_UNKNOWN => Err(de::Error::unknown_field(v, T::FIELDS)),
            found => Ok(found),
        }
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Option<usize>, E> {
        match std::str::from_utf8(v) {
            Ok(text) => self.visit_str(text),
            Err(_) if T::DENY_UNKNOWN => {
                Err(de::Error::invalid_value(de::Unexpected::Bytes(v), &self))
            }
            Err(_) => Ok(None),
        }
    }
}

/// An absent property, read by its type: `None` for an `Option`, `missing field` for the rest.
struct Missing<E>(&'static str, PhantomData<E>);

impl<'de, E: de::Error> Deserializer<'de> for Missing<E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, E> {
        Err(de::Error::missing_field(self.0))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_none()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}
