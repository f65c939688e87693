//! Reads a generated struct from a JSON object: what serde's derive would print for every
//! struct (a visitor, its field-name visitor, a reading of the struct's array form) is here
//! once, and a struct's own code is its slots and one `match` on the field's index. serde's
//! derived `Deserialize` impls take a third of a generated crate's check time, a third of that
//! the array form (`[1, "Rex"]` for a struct), which no document ever sends and
//! [`WholeNumbers`](super::integer::WholeNumbers) refuses anyway.
//!
//! The rules are serde's derive's: a property named twice is refused (`duplicate field`), an
//! unknown one skipped (or refused, `unknown field`, where the struct denies them), a missing
//! required one refused (`missing field`) unless its type reads absence (an `Option`), and
//! anything but an object is `invalid type: …, expected struct Name`.
//!
//! Decisions:
//! `docs/decisions/0007-struct-decoding-in-the-runtime.md`,
//! `docs/decisions/0011-structs-declared.md`.

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
    /// Reads the text; `None` when it is not of the format.
    pub read: fn(&str) -> Option<V>,
    /// What the value should have been, for the refusal's message (`a date, YYYY-MM-DD`).
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
/// `Option` reads `None`), else `missing field`. Kept for crates generated before structs
/// were declared ([`json!`] calls [`take::required`]), which print calls to it.
#[inline]
pub fn required<'de, V: Deserialize<'de>, E: de::Error>(
    slot: Option<V>,
    name: &'static str,
) -> Result<V, E> {
    take::required(slot, name)
}

/// An optional property that takes `null` as absence: absent and `null` are both `None`.
/// Kept for crates generated before structs were declared.
#[inline]
pub fn optional<V>(slot: Option<Option<V>>) -> Option<V> {
    slot.flatten()
}

/// A required property's value, whatever its type: absent is `missing field`, also for a
/// nullable property. Kept for crates generated before structs were declared.
#[inline]
pub fn present<V, E: de::Error>(slot: Option<V>, name: &'static str) -> Result<V, E> {
    take::required_nullable(slot, name)
}

/// A field's value taken from its slot at the object's end, by how [`json!`] declares its
/// property (one function per way, named as the declaration names it). The error type is
/// the map's, given by the caller (`take::required::<_, A::Error>`).
pub mod take {
    use super::{Missing, PhantomData};
    use serde::Deserialize;
    use serde::de::Error;

    /// A required property's value; when it was absent, what its type reads from absence (an
    /// `Option` reads `None`), else `missing field`.
    #[inline]
    pub fn required<'de, V: Deserialize<'de>, E: Error>(
        slot: Option<V>,
        name: &'static str,
    ) -> Result<V, E> {
        match slot {
            Some(value) => Ok(value),
            None => V::deserialize(Missing(name, PhantomData)),
        }
    }

    /// A required property's value, whatever its type: absent is `missing field`, also for a
    /// nullable property (`Option<T>`, whose `null` is `None`).
    #[inline]
    pub fn required_nullable<V, E: Error>(slot: Option<V>, name: &'static str) -> Result<V, E> {
        slot.ok_or_else(|| E::missing_field(name))
    }

    /// An optional property that takes `null` as absence (the client's, tolerant of what
    /// servers send): absent and `null` are both `None`.
    #[inline]
    pub fn optional<V, E>(slot: Option<Option<V>>, _name: &'static str) -> Result<Option<V>, E> {
        Ok(slot.flatten())
    }

    /// An optional nullable property: absent (`None`), `null` (`Some(None)`, the slot holding
    /// what `null` read as) and a value kept apart.
    #[inline]
    pub fn optional_nullable<V, E>(slot: Option<V>, _name: &'static str) -> Result<Option<V>, E> {
        Ok(slot)
    }

    /// An optional property whose `null` its type read (refused, unless the type takes it).
    #[inline]
    pub fn optional_not_null<V, E>(slot: Option<V>, _name: &'static str) -> Result<Option<V>, E> {
        Ok(slot)
    }
}

/// How many members a field writes (0 or 1), by how [`json!`] declares its property: an
/// optional one is left out when `None`.
pub mod count {
    /// Always written.
    #[inline]
    pub fn required<V>(_value: &V) -> usize {
        1
    }

    /// Always written (`null` for `None`).
    #[inline]
    pub fn required_nullable<V>(_value: &V) -> usize {
        1
    }

    /// Written when set.
    #[inline]
    pub fn optional<V>(value: &Option<V>) -> usize {
        usize::from(value.is_some())
    }

    /// Written when set (`null` for `Some(None)`).
    #[inline]
    pub fn optional_nullable<V>(value: &Option<V>) -> usize {
        usize::from(value.is_some())
    }

    /// Written when set.
    #[inline]
    pub fn optional_not_null<V>(value: &Option<V>) -> usize {
        usize::from(value.is_some())
    }
}

/// Writes a field as its member, by how [`json!`] declares its property: an optional one
/// is left out (`skip_field`) when `None`.
pub mod write {
    use serde::Serialize;
    use serde::ser::SerializeStruct;

    /// Always written.
    #[inline]
    pub fn required<S: SerializeStruct, V: Serialize>(
        out: &mut S,
        name: &'static str,
        value: &V,
    ) -> Result<(), S::Error> {
        out.serialize_field(name, value)
    }

    /// Always written (`null` for `None`).
    #[inline]
    pub fn required_nullable<S: SerializeStruct, V: Serialize>(
        out: &mut S,
        name: &'static str,
        value: &V,
    ) -> Result<(), S::Error> {
        out.serialize_field(name, value)
    }

    /// Written when set.
    #[inline]
    pub fn optional<S: SerializeStruct, V: Serialize>(
        out: &mut S,
        name: &'static str,
        value: &Option<V>,
    ) -> Result<(), S::Error> {
        match value {
            Some(value) => out.serialize_field(name, value),
            None => out.skip_field(name),
        }
    }

    /// Written when set (`null` for `Some(None)`).
    #[inline]
    pub fn optional_nullable<S: SerializeStruct, V: Serialize>(
        out: &mut S,
        name: &'static str,
        value: &Option<V>,
    ) -> Result<(), S::Error> {
        optional(out, name, value)
    }

    /// Written when set.
    #[inline]
    pub fn optional_not_null<S: SerializeStruct, V: Serialize>(
        out: &mut S,
        name: &'static str,
        value: &Option<V>,
    ) -> Result<(), S::Error> {
        optional(out, name, value)
    }
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

/// Declares a generated struct, how it is read from and written to a JSON object and how it is
/// built: the struct as written (its docs, derives and fields), each field's doc comment
/// followed by `#[json("property", how)]`, where `how` says how the property is read:
///
/// - `required`: must be present (absent: `missing field`, unless the field's type reads
///   absence, as an `Option` does);
/// - `required_nullable`: must be present, `null` allowed (`None`);
/// - `optional`: may be absent; `null` reads as absent (the client, tolerant of what servers
///   send);
/// - `optional_nullable`: may be absent (`None`), `null` (`Some(None)`) or a value, kept apart;
/// - `optional_not_null`: may be absent; `null` is refused unless the type reads it (the
///   server, where the schema does not allow it);
///
/// then `, exact(FORMAT)` reads a string with one of the server runtime's `formats` readers
/// (the server's `date-time`, `date`, `uuid`), and `, with_name: what` declares an optional
/// field's setter, `what` saying what it takes:
///
/// - `text`: `impl Into<String>` (`"Rex"` or a `String`);
/// - `into(T)`: `impl Into<Option<T>>` (a `T`, or an `Option` to copy one over; `None` unsets
///   the field); `boxed(T)` the same for a field held in a `Box`;
/// - `nullable(T)`: `Option<T>` (`None` sends `null`); `nullable_boxed(T)` the same boxed.
///
/// An optional property is left out when `None`. After the derives, `#[json(deny_unknown_fields)]`
/// refuses properties the struct does not name, `#[json(checks = none)]` gives a server's
/// struct with nothing to check its empty `Validate`.
///
/// `new` takes the required fields in order and leaves the optional ones unset. It is derived
/// from the fields: a required field is a parameter of its own type, or `impl Into<T>` where its
/// attribute says `into` (a string's, so that `"Rex"` does; a boxed value's). A struct may list
/// the parameters instead, `#[json(new(name: Type, …))]` (each converted with `Into`; a
/// nullable one's value too): the generator does so for a struct of more than 100 fields, since
/// the derivation reads one field a step and rustc stops macro expansion 128 deep, and for one
/// whose `new` takes a boxed nullable value unboxed. Nothing required: no `new`.
///
/// ```ignore
/// object::json! {
///     /// An animal.
///     #[derive(Debug, Clone, PartialEq)]
///     pub struct Pet {
///         /// The animal's name.
///         #[json("name", required, into)]
///         pub name: String,
///         #[json("categoryId", optional, with_category_id: into(i64))]
///         pub category_id: Option<i64>,
///     }
/// }
/// ```
///
/// It expands to the struct, `new` and the setters, its [`Object`] impl (the reader),
/// `Deserialize` through [`deserialize`] and `Serialize`: what serde's derives and a builder
/// would print for every struct is written once here, and a generated struct is its fields and
/// their properties. The expansion names the runtime as the generated crate does,
/// `crate::runtime` (a dependency re-exported under that name, or the runtime's files vendored
/// as that module).
#[doc(hidden)]
#[macro_export]
// `crate::runtime`, not `$crate`: the runtime as the calling crate names it (when vendored,
// `$crate` is the generated crate, whose runtime is its `runtime` module).
#[allow(clippy::crate_in_macro_def)]
macro_rules! __apigen_json_object {
    // The first form, `#[json(deny_unknown_fields)]` before the docs, as generated code before
    // the builders were declared prints it.
    (#[json(deny_unknown_fields)] $($item:tt)*) => {
        $crate::__apigen_json_object!(@struct true; $($item)*);
    };
    (
        $(#[doc = $doc:literal])*
        $(#[allow($($allow:tt)*)])?
        #[derive($($derive:tt)*)]
        #[json(deny_unknown_fields)]
        $($item:tt)*
    ) => {
        $crate::__apigen_json_object!(@struct true;
            $(#[doc = $doc])*
            $(#[allow($($allow)*)])?
            #[derive($($derive)*)]
            $($item)*
        );
    };
    (@struct $deny:literal;
        $(#[doc = $struct_doc:literal])*
        $(#[allow($($allow:tt)*)])?
        #[derive($($derive:tt)*)]
        $(#[json(checks = $checks:ident)])?
        $vis:vis struct $name:ident {}
    ) => {
        $(#[doc = $struct_doc])*
        $(#[allow($($allow)*)])?
        #[derive($($derive)*)]
        $vis struct $name {}

        $($crate::__apigen_json_object!(@checks $name $checks);)?

        const _: () = {
            impl crate::runtime::codegen::object::Object for $name {
                const NAME: &'static str = stringify!($name);
                const FIELDS: &'static [&'static str] = &[];
                const DENY_UNKNOWN: bool = $deny;

                fn index(_name: &str) -> Option<usize> {
                    None
                }

                fn read<'de, A: serde::de::MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
                    // Skips (or refuses) every member, and says `None` at the end.
                    match crate::runtime::codegen::object::next_field::<Self, _>(&mut map)? {
                        Some(_) => unreachable!("`next_field` numbers the fields of `FIELDS`, which is empty"),
                        None => Ok(Self {}),
                    }
                }
            }

            impl<'de> serde::Deserialize<'de> for $name {
                fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                    crate::runtime::codegen::object::deserialize(deserializer)
                }
            }

            impl serde::Serialize for $name {
                fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                    use serde::ser::SerializeStruct;
                    serializer.serialize_struct(stringify!($name), 0)?.end()
                }
            }
        };
    };
    (@struct $deny:literal;
        $(#[doc = $struct_doc:literal])*
        $(#[allow($($allow:tt)*)])?
        #[derive($($derive:tt)*)]
        $(#[json(checks = $checks:ident)])?
        $(#[json(new($($param:ident: $param_ty:ty),* $(,)?))])?
        $vis:vis struct $name:ident {
            $(
                $(#[doc = $doc:literal])*
                $(#[deprecated $($deprecated:tt)*])?
                #[json($wire:literal, $mode:ident $(, $($option:tt)*)?)]
                $field_vis:vis $field:ident: $ty:ty,
            )*
        }
    ) => {
        $(#[doc = $struct_doc])*
        $(#[allow($($allow)*)])?
        #[derive($($derive)*)]
        $vis struct $name {
            $(
                $(#[doc = $doc])*
                $(#[deprecated $($deprecated)*])?
                $field_vis $field: $ty,
            )*
        }

        // `new` converts each required value with `Into` (an `i64` into itself included);
        // the document names the fields (`foo` among them), and may mark some deprecated.
        #[allow(
            deprecated,
            clippy::disallowed_names,
            clippy::too_many_arguments,
            clippy::useless_conversion
        )]
        impl $name {
            $crate::__apigen_json_object!(@new
                [$($($param: $param_ty),*)?]
                [$($field $mode)*]
                [$([$field $mode [$($($option)*)?] $ty])*]
            );
            $(
                $crate::__apigen_json_object!(@set
                    [$(#[deprecated $($deprecated)*])?] $wire $field $($($option)*)?
                );
            )*
        }

        $($crate::__apigen_json_object!(@checks $name $checks);)?

        // The fields' indices in `FIELDS` are their places in `__Field`, named through `__At`'s
        // constants so that `read` matches on them as numbers. (Underscored: the expansion's
        // names meet the generated crate's, and a schema may well be called `Field`.)
        #[allow(deprecated, non_camel_case_types, non_upper_case_globals, clippy::disallowed_names)]
        const _: () = {
            enum __Field {
                $($field,)*
            }
            struct __At;
            impl __At {
                $(const $field: usize = __Field::$field as usize;)*
            }

            impl crate::runtime::codegen::object::Object for $name {
                const NAME: &'static str = stringify!($name);
                const FIELDS: &'static [&'static str] = &[$($wire),*];
                const DENY_UNKNOWN: bool = $deny;

                fn index(name: &str) -> Option<usize> {
                    match name {
                        $($wire => Some(__At::$field),)*
                        _ => None,
                    }
                }

                // Inlined into the runtime's visitor, the struct is built where its caller
                // keeps it rather than copied out of each call. One `?` after the `match`,
                // not one per arm, and none for an optional field: each `?` is a way out that
                // drops every slot, which the borrow checker walks, and `read` was most of a
                // check's time in serde impls (a third less with this, OpenAI's client).
                #[inline]
                fn read<'de, A: serde::de::MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
                    $(let mut $field = None;)*
                    while let Some(index) = crate::runtime::codegen::object::next_field::<Self, _>(&mut map)? {
                        match index {
                            $(__At::$field => $crate::__apigen_json_object!(
                                @read map $field $wire $($($option)*)?
                            ),)*
                            _ => unreachable!("`next_field` numbers the fields of `FIELDS`"),
                        }?;
                    }
                    Ok(Self {
                        $($field: $crate::__apigen_json_object!(@take $mode $field $wire A),)*
                    })
                }
            }

            impl<'de> serde::Deserialize<'de> for $name {
                fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                    crate::runtime::codegen::object::deserialize(deserializer)
                }
            }

            impl serde::Serialize for $name {
                fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                    use serde::ser::SerializeStruct;
                    let len = 0 $(+ crate::runtime::codegen::object::count::$mode(&self.$field))*;
                    let mut out = serializer.serialize_struct(stringify!($name), len)?;
                    $(crate::runtime::codegen::object::write::$mode(&mut out, $wire, &self.$field)?;)*
                    out.end()
                }
            }
        };
    };
    (@read $map:ident $field:ident $wire:literal exact($format:ident) $($rest:tt)*) => {
        crate::runtime::codegen::object::field_exact(
            &mut $map, &mut $field, $wire, &crate::runtime::codegen::formats::$format,
        )
    };
    (@read $map:ident $field:ident $wire:literal $($rest:tt)*) => {
        crate::runtime::codegen::object::field(&mut $map, &mut $field, $wire)
    };
    // A field's value from its slot at the object's end (`take`'s functions, inline where
    // they cannot fail); `$map` names the map's type, whose error a missing one is.
    (@take optional $field:ident $wire:literal $map:ident) => {
        $field.flatten()
    };
    (@take optional_nullable $field:ident $wire:literal $map:ident) => {
        $field
    };
    (@take optional_not_null $field:ident $wire:literal $map:ident) => {
        $field
    };
    (@take $mode:ident $field:ident $wire:literal $map:ident) => {
        crate::runtime::codegen::object::take::$mode::<_, $map::Error>($field, $wire)?
    };
    // A server's struct with nothing to check: the `Validate` every checked value has.
    (@checks $name:ident none) => {
        impl crate::runtime::codegen::validate::Validate for $name {
            fn validate(&self, _pointer: &str, _out: &mut crate::runtime::codegen::validate::Violations) {}
        }
    };
    // `new`: its parameters as the struct lists them (`#[json(new(…))]`), else derived from
    // the fields: each required one a parameter, in order (one field a step; `into` marks a
    // field taken as `impl Into<T>`, a string's or a boxed value's); nothing required, no
    // `new` (the struct is `Default`).
    (@new [] $inits:tt [$($fields:tt)*]) => {
        $crate::__apigen_json_object!(@derive $inits [] $($fields)*);
    };
    (@new [$($param:ident: $param_ty:ty),+] $inits:tt $fields:tt) => {
        $crate::__apigen_json_object!(@fn $inits [$($param: $param_ty),+]);
    };
    (@derive $inits:tt []) => {};
    (@derive $inits:tt [$($param:tt)+]) => {
        $crate::__apigen_json_object!(@fn $inits [$($param)+]);
    };
    (@derive $inits:tt [$($param:tt)*] [$field:ident required [into] $ty:ty] $($rest:tt)*) => {
        $crate::__apigen_json_object!(@derive $inits [$($param)* $field: impl Into<$ty>,] $($rest)*);
    };
    (@derive $inits:tt [$($param:tt)*] [$field:ident required [$($o:tt)*] $ty:ty] $($rest:tt)*) => {
        $crate::__apigen_json_object!(@derive $inits [$($param)* $field: $ty,] $($rest)*);
    };
    (@derive $inits:tt [$($param:tt)*] [$field:ident required_nullable [$($o:tt)*] $ty:ty] $($rest:tt)*) => {
        $crate::__apigen_json_object!(@derive $inits [$($param)* $field: $ty,] $($rest)*);
    };
    (@derive $inits:tt $params:tt [$field:ident $mode:ident [$($o:tt)*] $ty:ty] $($rest:tt)*) => {
        $crate::__apigen_json_object!(@derive $inits $params $($rest)*);
    };
    // The function itself, its parameters named as the fields they fill.
    (@fn [$($field:ident $mode:ident)*] [$($param:tt)+]) => {
        /// A value from its required properties, in the order the schema lists them; the
        /// optional ones start unset (`with_…` sets them).
        pub fn new($($param)+) -> Self {
            Self {
                $($field: $crate::__apigen_json_object!(@init $mode $field),)*
            }
        }
    };
    (@init required $field:ident) => {
        ::core::convert::Into::into($field)
    };
    (@init required_nullable $field:ident) => {
        $field.map(::core::convert::Into::into)
    };
    (@init $mode:ident $field:ident) => {
        None
    };
    // A field's setter, when it declares one (after its `exact(…)`, if any).
    (@set [$($deprecated:tt)*] $wire:literal $field:ident exact($format:ident) $(, $($rest:tt)*)?) => {
        $crate::__apigen_json_object!(@set [$($deprecated)*] $wire $field $($($rest)*)?);
    };
    (@set [$($deprecated:tt)*] $wire:literal $field:ident) => {};
    (@set [$($deprecated:tt)*] $wire:literal $field:ident into) => {};
    (@set [$($deprecated:tt)*] $wire:literal $field:ident $setter:ident: text) => {
        #[doc = concat!("Sets `", $wire, "`.")]
        $($deprecated)*
        pub fn $setter(mut self, $field: impl Into<String>) -> Self {
            self.$field = Some($field.into());
            self
        }
    };
    (@set [$($deprecated:tt)*] $wire:literal $field:ident $setter:ident: into($ty:ty)) => {
        #[doc = concat!("Sets `", $wire, "` (`None` unsets it).")]
        $($deprecated)*
        pub fn $setter(mut self, $field: impl Into<Option<$ty>>) -> Self {
            self.$field = $field.into();
            self
        }
    };
    (@set [$($deprecated:tt)*] $wire:literal $field:ident $setter:ident: boxed($ty:ty)) => {
        #[doc = concat!("Sets `", $wire, "` (`None` unsets it).")]
        $($deprecated)*
        pub fn $setter(mut self, $field: impl Into<Option<$ty>>) -> Self {
            self.$field = $field.into().map(Box::new);
            self
        }
    };
    (@set [$($deprecated:tt)*] $wire:literal $field:ident $setter:ident: nullable($ty:ty)) => {
        #[doc = concat!("Sets `", $wire, "`; `None` sends `null`.")]
        $($deprecated)*
        pub fn $setter(mut self, $field: Option<$ty>) -> Self {
            self.$field = Some($field);
            self
        }
    };
    (@set [$($deprecated:tt)*] $wire:literal $field:ident $setter:ident: nullable_boxed($ty:ty)) => {
        #[doc = concat!("Sets `", $wire, "`; `None` sends `null`.")]
        $($deprecated)*
        pub fn $setter(mut self, $field: Option<$ty>) -> Self {
            self.$field = Some($field.map(Box::new));
            self
        }
    };
    ($($item:tt)*) => {
        $crate::__apigen_json_object!(@struct false; $($item)*);
    };
}

#[doc(inline)]
pub use crate::__apigen_json_object as json;
