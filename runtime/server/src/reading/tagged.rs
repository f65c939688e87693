//! Reads a `oneOf` with a discriminator as its input streams past: the object's entries are
//! read until the tag, only those before it are kept (as `serde_json::Value`s), and the
//! variant the tag names reads the kept entries, the tag and the rest of the object straight
//! from the input. Reading the whole object into a `Value` tree first and decoding it a second
//! time costs a third more instructions than serde's own tagged enums on OpenAI's responses;
//! the tag usually comes first, so usually nothing is kept. (Reading the whole object's text
//! again when entries came first cost 40 % more on OpenAI's tool calls, `{"id": …, "type":
//! "function", …}`.)
//!
//! Everything that is not an object with a tag of the expected kind (no tag, a tag that is
//! not a string or, for integer tags, not an integer; an array or a scalar) is kept as its
//! text and handed to the union's untagged reading, which tries its variants in order. A tag
//! the document does not list is refused, naming the tags it does list, unless the union keeps
//! such values ([`Tagged::unknown`]: the client's, forward compatible).
//!
//! Decision: `docs/decisions/0007-struct-decoding-in-the-runtime.md`.

use super::integer::{self, WholeNumbers};
use super::unions::Json;
use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, Visitor};
use serde_json::Value;
use std::fmt;
use std::marker::PhantomData;

/// A discriminator's value, as read: text, or an integer for an integer property.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tag<'a> {
    /// A string value.
    Text(&'a str),
    /// An integer value, for a discriminator property of type `integer`.
    Integer(i64),
}

impl fmt::Display for Tag<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tag::Text(text) => f.write_str(text),
            Tag::Integer(n) => write!(f, "{n}"),
        }
    }
}

/// A union told apart by a discriminator. Generated code implements it and reads the union
/// with [`deserialize`].
pub trait Tagged: Sized {
    /// The discriminator's property.
    const PROPERTY: &'static str;
    /// Whether the tags are integers (`propertyName` of an integer property).
    const INTEGER: bool;
    /// The tags the document lists, as the error for another one shows them (a trailing `, `
    /// is dropped).
    const KNOWN: &'static str;

    /// The variant `tag` names, read from `body` (the whole object, tag included); `body`
    /// back, unread, for a tag the document does not list.
    fn variant<'de, D: Deserializer<'de>>(
        tag: Tag<'_>,
        body: D,
    ) -> Result<Result<Self, D::Error>, D>;

    /// The value read without a tag (its text): its variants tried in order.
    ///
    /// Generic over the error, so that it is compiled only for a union some decode reaches
    /// (the variants' readers with it): a method that is not generic is compiled for every
    /// union a crate declares, whether anything reads it or not.
    fn untagged<E: de::Error>(input: Json) -> Result<Self, E>;

    /// A value whose tag the document does not list, kept whole (the client's `Unknown`
    /// variant, which writes it back unchanged); `None`, the default, refuses it (the
    /// server, which holds requests to the document).
    fn unknown(value: Value) -> Option<Self> {
        let _ = value;
        None
    }
}

/// The value an unlisted tag came with, as the union keeps it ([`Tagged::unknown`]): not
/// while the union is itself a variant being tried, where the outer union decides.
///
/// `refusal` is made only when it is said: a known tag, the usual case, costs nothing here.
fn keep_unknown<'de, T: Tagged, D: Deserializer<'de>>(
    body: D,
    refusal: impl FnOnce() -> String,
) -> Result<T, D::Error> {
    if integer::in_union_trial() {
        return Err(de::Error::custom(refusal()));
    }
    let value = Value::deserialize(body)?;
    T::unknown(value).ok_or_else(|| de::Error::custom(refusal()))
}

/// Reads a [`Tagged`] union (the body of its `Deserialize` impl).
pub fn deserialize<'de, T: Tagged, D: Deserializer<'de>>(deserializer: D) -> Result<T, D::Error> {
    if integer::reading_text() {
        // A form's values are all text, and the variant's numbers are read from it by the
        // whole-number rules of a `Value` (`02` is no number), as for an untagged union.
        let value = Value::deserialize(deserializer)?;
        return from_value(value).map_err(de::Error::custom);
    }
    deserializer.deserialize_any(TaggedVisitor(PhantomData))
}

/// Reads a [`Tagged`] union from a value read whole (a form's), through its text.
fn from_value<T: Tagged>(value: Value) -> Result<T, String> {
    let tag = value.get(T::PROPERTY).cloned().unwrap_or(Value::Null);
    let input = Json::from(value);
    match tag_of::<T>(&tag) {
        Some(tag) => named_from_text(tag, &input),
        None => T::untagged::<de::value::Error>(input).map_err(|e| e.to_string()),
    }
}

/// The variant `tag` names, read from the whole object's text by the deserializer every type
/// is compiled for ([`integer::from_slice`]'s).
fn named_from_text<T: Tagged>(tag: Tag<'_>, input: &Json) -> Result<T, String> {
    let mut de = serde_json::Deserializer::from_slice(input.as_str().as_bytes());
    let read = match T::variant(tag, WholeNumbers(&mut de)) {
        Ok(read) => read,
        Err(body) => keep_unknown::<T, _>(body, || unknown::<T>(tag)),
    };
    read.and_then(|read| de.end().map(|()| read))
        .map_err(|e| e.to_string())
}

/// The tag a property's value is, when it is of the union's kind.
fn tag_of<T: Tagged>(value: &Value) -> Option<Tag<'_>> {
    match value {
        Value::String(text) if !T::INTEGER => Some(Tag::Text(text)),
        Value::Number(n) if T::INTEGER => n.as_i64().map(Tag::Integer),
        _ => None,
    }
}

/// The error for a tag the document does not list.
fn unknown<T: Tagged>(tag: Tag<'_>) -> String {
    format!(
        "unknown `{}` value `{tag}`; expected one of {}",
        T::PROPERTY,
        // A declared union lists each tag followed by `, ` (`unions::json!`).
        T::KNOWN.trim_end_matches(", ")
    )
}

/// Reads the object entry by entry; anything else as its text for the untagged reading.
struct TaggedVisitor<T>(PhantomData<T>);

impl<T: Tagged> TaggedVisitor<T> {
    fn untagged<E: de::Error>(value: Value) -> Result<T, E> {
        T::untagged(Json::from(value))
    }
}

impl<'de, T: Tagged> Visitor<'de> for TaggedVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "an object with `{}`", T::PROPERTY)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<T, E> {
        Self::untagged(Value::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
        Self::untagged(Value::from(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
        Self::untagged(Value::from(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<T, E> {
        Self::untagged(Value::from(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        Self::untagged(Value::from(v))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<T, E> {
        Self::untagged(Value::String(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<T, E> {
        Self::untagged(Value::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<T, E> {
        Self::untagged(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<T, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Value>()? {
            items.push(item);
        }
        Self::untagged(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        let mut kept: Vec<(String, Value)> = Vec::new();
        while let Some(key) = map.next_key_seed(KeySeed)? {
            if key.as_str() != T::PROPERTY {
                kept.push((key.into_owned(), map.next_value()?));
                continue;
            }
            let value: Value = map.next_value()?;
            let Some(tag) = tag_of::<T>(&value) else {
                // A tag of the wrong kind: the whole object, read in order.
                kept.push((key.into_owned(), value));
                return T::untagged(rest_of(kept, map)?);
            };
            let body = Body {
                kept: kept.into_iter(),
                property: T::PROPERTY,
                tag: Some(tag),
                pending: None,
                map,
            };
            return match T::variant(tag, de::value::MapAccessDeserializer::new(body)) {
                Ok(read) => read,
                Err(body) => keep_unknown::<T, _>(body, || unknown::<T>(tag)),
            };
        }
        T::untagged(rest_of(kept, map)?)
    }
}

/// The kept entries and the rest of the map, as one object's text, in the input's order.
fn rest_of<'de, A: MapAccess<'de>>(
    kept: Vec<(String, Value)>,
    mut map: A,
) -> Result<Json, A::Error> {
    let mut entries: Vec<(String, Json)> = kept
        .into_iter()
        .map(|(key, value)| (key, Json::from(value)))
        .collect();
    while let Some(entry) = map.next_entry::<String, Json>()? {
        entries.push(entry);
    }
    Ok(Json::object(entries))
}

/// An object key, borrowed from the input where it can be.
enum Key<'de> {
    Borrowed(&'de str),
    Owned(String),
}

impl Key<'_> {
    fn as_str(&self) -> &str {
        match self {
            Key::Borrowed(key) => key,
            Key::Owned(key) => key,
        }
    }

    fn into_owned(self) -> String {
        match self {
            Key::Borrowed(key) => key.to_owned(),
            Key::Owned(key) => key,
        }
    }
}

struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Key<'de>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Key<'de>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Key<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a property name")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
        Ok(Key::Borrowed(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
        Ok(Key::Owned(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Key<'de>, E> {
        Ok(Key::Owned(v))
    }
}

/// The object as the variant reads it: the entries kept before the tag, the tag, then the
/// rest of the input's map.
struct Body<'t, A> {
    kept: std::vec::IntoIter<(String, Value)>,
    property: &'static str,
    tag: Option<Tag<'t>>,
    /// The value of the kept entry whose key was just handed out.
    pending: Option<Pending<'t>>,
    map: A,
}

enum Pending<'t> {
    Kept(Value),
    Tag(Tag<'t>),
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Body<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        if let Some((key, value)) = self.kept.next() {
            self.pending = Some(Pending::Kept(value));
            return seed.deserialize(key.into_deserializer()).map(Some);
        }
        if let Some(tag) = self.tag.take() {
            self.pending = Some(Pending::Tag(tag));
            return seed
                .deserialize(self.property.into_deserializer())
                .map(Some);
        }
        self.map.next_key_seed(seed)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        match self.pending.take() {
            Some(Pending::Kept(value)) => seed
                .deserialize(WholeNumbers(value))
                .map_err(de::Error::custom),
            Some(Pending::Tag(tag)) => seed.deserialize(TagValue(tag, PhantomData)),
            None => self.map.next_value_seed(seed),
        }
    }
}

/// The tag handed back to the variant, whose field for it may be optional.
struct TagValue<'t, E>(Tag<'t>, PhantomData<E>);

impl<'de, E: de::Error> Deserializer<'de> for TagValue<'_, E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        match self.0 {
            Tag::Text(text) => visitor.visit_str(text),
            Tag::Integer(n) => visitor.visit_i64(n),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_some(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, E> {
        match self.0 {
            Tag::Text(text) => visitor.visit_enum(text.into_deserializer()),
            Tag::Integer(_) => self.deserialize_any(visitor),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct newtype_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}
