//! Writes a `oneOf` variant with its discriminator: the tag entry first, then the variant's
//! own members, straight to the output. (Through a `serde_json::Value` first, a `float`
//! member was widened to `f64` digits: `1.1` written as `1.100000023841858`.) A member the
//! variant's own type has under the discriminator's name is the tag's: written once, as the
//! tag, so the value reads back as the variant it is.

use serde::ser::{self, Impossible, Serialize, SerializeMap, SerializeStruct, Serializer};
use std::fmt;

/// Serializes `value`, an object, with `property: tag` as its first member.
pub fn serialize_tagged<S, V, T>(
    value: &V,
    property: &'static str,
    tag: &T,
    serializer: S,
) -> Result<S::Ok, S::Error>
where
    S: Serializer,
    V: Serialize + ?Sized,
    T: Serialize + ?Sized,
{
    value.serialize(WithTag {
        inner: serializer,
        property,
        tag,
    })
}

struct WithTag<'t, S, T: ?Sized> {
    inner: S,
    property: &'static str,
    tag: &'t T,
}

/// The members after the tag, skipping the variant's own member of the tag's name.
struct Members<M> {
    map: M,
    property: &'static str,
}

/// Why a map key is not compared with the tag's name (it is no string): [`KeyIs`]'s error.
#[derive(Debug)]
struct NotAnObject(String);

impl fmt::Display for NotAnObject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl<S: Serializer, T: Serialize + ?Sized> WithTag<'_, S, T> {
    fn start(self, len: Option<usize>) -> Result<Members<S::SerializeMap>, S::Error> {
        let mut map = self.inner.serialize_map(len.map(|n| n + 1))?;
        map.serialize_entry(self.property, self.tag)?;
        Ok(Members {
            map,
            property: self.property,
        })
    }
}

impl<M: SerializeMap> SerializeStruct for Members<M> {
    type Ok = M::Ok;
    type Error = M::Error;

    fn serialize_field<V: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &V,
    ) -> Result<(), M::Error> {
        if key == self.property {
            return Ok(());
        }
        self.map.serialize_entry(key, value)
    }

    fn end(self) -> Result<M::Ok, M::Error> {
        self.map.end()
    }
}

impl<M: SerializeMap> SerializeMap for Members<M> {
    type Ok = M::Ok;
    type Error = M::Error;

    fn serialize_key<K: Serialize + ?Sized>(&mut self, _key: &K) -> Result<(), M::Error> {
        Err(ser::Error::custom(
            "a map variant of a tagged union is written by entries",
        ))
    }

    fn serialize_value<V: Serialize + ?Sized>(&mut self, _value: &V) -> Result<(), M::Error> {
        Err(ser::Error::custom(
            "a map variant of a tagged union is written by entries",
        ))
    }

    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<(), M::Error> {
        // The generated types' maps are keyed by strings; one equal to the tag's name is the
        // tag's.
        if key.serialize(KeyIs(self.property)).unwrap_or(false) {
            return Ok(());
        }
        self.map.serialize_entry(key, value)
    }

    fn end(self) -> Result<M::Ok, M::Error> {
        self.map.end()
    }
}

/// Everything that is not an object is written as it is, without the tag (as a union whose
/// variant is not an object was written before; OpenAPI requires objects there).
macro_rules! as_it_is {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {$(
        fn $method(self, $($arg: $ty),*) -> Result<Self::Ok, Self::Error> {
            self.inner.$method($($arg),*)
        }
    )*};
}

impl<'t, S: Serializer, T: Serialize + ?Sized> Serializer for WithTag<'t, S, T> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = S::SerializeSeq;
    type SerializeTuple = S::SerializeTuple;
    type SerializeTupleStruct = S::SerializeTupleStruct;
    type SerializeTupleVariant = S::SerializeTupleVariant;
    type SerializeMap = Members<S::SerializeMap>;
    type SerializeStruct = Members<S::SerializeMap>;
    type SerializeStructVariant = S::SerializeStructVariant;

    as_it_is! {
        serialize_bool(v: bool);
        serialize_i8(v: i8);
        serialize_i16(v: i16);
        serialize_i32(v: i32);
        serialize_i64(v: i64);
        serialize_u8(v: u8);
        serialize_u16(v: u16);
        serialize_u32(v: u32);
        serialize_u64(v: u64);
        serialize_f32(v: f32);
        serialize_f64(v: f64);
        serialize_char(v: char);
        serialize_str(v: &str);
        serialize_bytes(v: &[u8]);
        serialize_none();
        serialize_unit();
        serialize_unit_struct(name: &'static str);
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str);
    }

    fn serialize_some<V: Serialize + ?Sized>(self, value: &V) -> Result<S::Ok, S::Error> {
        value.serialize(self)
    }

    fn serialize_newtype_struct<V: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &V,
    ) -> Result<S::Ok, S::Error> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<V: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &V,
    ) -> Result<S::Ok, S::Error> {
        self.inner
            .serialize_newtype_variant(name, index, variant, value)
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        self.inner.serialize_seq(len)
    }

    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple, S::Error> {
        self.inner.serialize_tuple(len)
    }

    fn serialize_tuple_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleStruct, S::Error> {
        self.inner.serialize_tuple_struct(name, len)
    }

    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        self.inner
            .serialize_tuple_variant(name, index, variant, len)
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        self.start(len)
    }

    fn serialize_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStruct, S::Error> {
        self.start(Some(len))
    }

    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        self.inner
            .serialize_struct_variant(name, index, variant, len)
    }
}

/// Whether a map key, serialized, is the string `.0` (any other key is not).
struct KeyIs(&'static str);

impl ser::Error for NotAnObject {
    fn custom<M: fmt::Display>(message: M) -> Self {
        NotAnObject(message.to_string())
    }
}

impl std::error::Error for NotAnObject {}

macro_rules! not_a_string {
    ($($method:ident($($arg:ty),*);)*) => {$(
        fn $method(self, $(_: $arg),*) -> Result<bool, NotAnObject> {
            Ok(false)
        }
    )*};
}

impl Serializer for KeyIs {
    type Ok = bool;
    type Error = NotAnObject;
    type SerializeSeq = Impossible<bool, NotAnObject>;
    type SerializeTuple = Impossible<bool, NotAnObject>;
    type SerializeTupleStruct = Impossible<bool, NotAnObject>;
    type SerializeTupleVariant = Impossible<bool, NotAnObject>;
    type SerializeMap = Impossible<bool, NotAnObject>;
    type SerializeStruct = Impossible<bool, NotAnObject>;
    type SerializeStructVariant = Impossible<bool, NotAnObject>;

    fn serialize_str(self, v: &str) -> Result<bool, NotAnObject> {
        Ok(v == self.0)
    }

    not_a_string! {
        serialize_bool(bool);
        serialize_i8(i8);
        serialize_i16(i16);
        serialize_i32(i32);
        serialize_i64(i64);
        serialize_u8(u8);
        serialize_u16(u16);
        serialize_u32(u32);
        serialize_u64(u64);
        serialize_f32(f32);
        serialize_f64(f64);
        serialize_char(char);
        serialize_bytes(&[u8]);
        serialize_none();
        serialize_unit();
        serialize_unit_struct(&'static str);
        serialize_unit_variant(&'static str, u32, &'static str);
    }

    fn serialize_some<V: Serialize + ?Sized>(self, value: &V) -> Result<bool, NotAnObject> {
        value.serialize(self)
    }

    fn serialize_newtype_struct<V: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &V,
    ) -> Result<bool, NotAnObject> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<V: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &V,
    ) -> Result<bool, NotAnObject> {
        Ok(false)
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, NotAnObject> {
        Err(NotAnObject("not a key".into()))
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, NotAnObject> {
        Err(NotAnObject("not a key".into()))
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, NotAnObject> {
        Err(NotAnObject("not a key".into()))
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, NotAnObject> {
        Err(NotAnObject("not a key".into()))
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, NotAnObject> {
        Err(NotAnObject("not a key".into()))
    }

    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, NotAnObject> {
        Err(NotAnObject("not a key".into()))
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, NotAnObject> {
        Err(NotAnObject("not a key".into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;

    #[derive(Serialize)]
    struct Circle {
        radius: f32,
        #[serde(rename = "kind")]
        own_kind: &'static str,
    }

    struct Tagged<'a, V>(&'a V, &'static str);

    impl<V: Serialize> Serialize for Tagged<'_, V> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            serialize_tagged(self.0, "kind", self.1, s)
        }
    }

    #[test]
    fn the_tag_comes_first_and_floats_stay_as_written() {
        let circle = Circle {
            radius: 1.1,
            own_kind: "ignored",
        };
        let text = serde_json::to_string(&Tagged(&circle, "circle")).unwrap();
        assert_eq!(text, r#"{"kind":"circle","radius":1.1}"#);
        let mut map = std::collections::BTreeMap::new();
        map.insert("kind", 1.5f32);
        map.insert("size", 2.25f32);
        let text = serde_json::to_string(&Tagged(&map, "square")).unwrap();
        assert_eq!(text, r#"{"kind":"square","size":2.25}"#);
        // Not an object: as it is.
        assert_eq!(serde_json::to_string(&Tagged(&3, "n")).unwrap(), "3");
    }
}
