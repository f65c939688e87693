//! A value one level deep as serde_json writes it, for the writers that need its members or
//! items one by one (form bodies, objects in the query and in parameter styles). Read back
//! from the JSON text rather than built as a `serde_json::Value`: a `Value` holds every number
//! as an `f64`, so a `float` member was written with an `f64`'s digits (`1.1` as
//! `1.100000023841858`), and the text keeps the digits serde_json wrote. Members stay in the
//! order they were written.

use serde::Deserialize;
use serde::de::{MapAccess, Visitor};
use serde_json::value::RawValue;
use std::fmt;

/// A value's first level, each part still JSON text.
pub(crate) enum Level<'a> {
    Object(Vec<(String, &'a RawValue)>),
    List(Vec<&'a RawValue>),
    Scalar(&'a RawValue),
}

/// `text` (JSON, as `serde_json::to_string` wrote it) read one level deep.
pub(crate) fn level(text: &str) -> serde_json::Result<Level<'_>> {
    match text.trim_start().as_bytes().first() {
        Some(b'{') => Ok(Level::Object(serde_json::from_str::<Entries<'_>>(text)?.0)),
        Some(b'[') => Ok(Level::List(serde_json::from_str(text)?)),
        _ => Ok(Level::Scalar(serde_json::from_str(text)?)),
    }
}

/// A part as a parameter or a form writes it: a string without its quotes, anything else its
/// JSON text (a number as written, a nested value compact); `None` for `null`.
pub(crate) fn text(raw: &RawValue) -> serde_json::Result<Option<String>> {
    let json = raw.get();
    if json == "null" {
        Ok(None)
    } else if json.starts_with('"') {
        serde_json::from_str::<String>(json).map(Some)
    } else {
        Ok(Some(json.to_owned()))
    }
}

/// An object's entries, in the order written.
struct Entries<'a>(Vec<(String, &'a RawValue)>);

impl<'de> Deserialize<'de> for Entries<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EntriesVisitor;
        impl<'de> Visitor<'de> for EntriesVisitor {
            type Value = Entries<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entries<'de>, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry::<String, &'de RawValue>()? {
                    entries.push(entry);
                }
                Ok(Entries(entries))
            }
        }
        deserializer.deserialize_map(EntriesVisitor)
    }
}
