//! Owns finding where a JSON pointer's place starts in a file's text (line and column), for
//! error messages that an editor opens at the right line.
//!
//! Neither serde_json's nor serde_yaml's value keeps positions, but both readers stamp an
//! error raised by a visitor with the position the reader has reached. So the text is read
//! again with a visitor that walks down the pointer and raises an error on arriving: the
//! error's position is the place. Done only for the few places that are reported as errors,
//! so reading a file a second time costs nothing on the way that succeeds.

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// The 1-based line and column where `pointer` (`/paths/~1a/get`) starts in `text` (a YAML or
/// JSON document): the line of its key for a member, of the item for an array item. A pointer
/// that goes further than the text does stops at the deepest place that exists.
pub fn find(text: &str, pointer: &str) -> Option<(usize, usize)> {
    let tokens: Vec<String> = if pointer.is_empty() {
        Vec::new()
    } else {
        pointer
            .strip_prefix('/')?
            .split('/')
            .map(super::unescape)
            .collect()
    };
    if tokens.is_empty() {
        return Some((1, 1));
    }
    // Each shorter prefix in turn, so that a pointer below the text (into a value the loader
    // made) still gets the line of its deepest written ancestor.
    (1..=tokens.len())
        .rev()
        .find_map(|n| at(text, &tokens[..n]))
}

fn at(text: &str, tokens: &[String]) -> Option<(usize, usize)> {
    let seek = Seek { tokens };
    if text.trim_start().starts_with('{') || text.trim_start().starts_with('[') {
        let mut de = serde_json::Deserializer::from_str(text);
        match seek.deserialize(&mut de) {
            Err(e) if e.to_string().starts_with(FOUND) => Some((e.line(), e.column().max(1))),
            _ => None,
        }
    } else {
        match seek.deserialize(serde_yaml::Deserializer::from_str(text)) {
            Err(e) if e.to_string().contains(FOUND) => {
                e.location().map(|l| (l.line(), l.column().max(1)))
            }
            _ => None,
        }
    }
}

/// The message of the error raised on arriving; anything else means the place is not there.
const FOUND: &str = "apigen: found the place";

/// Walks down `tokens`; on the last, raises [`FOUND`] while the reader stands on its key (an
/// object member) or its value (an array item).
struct Seek<'t> {
    tokens: &'t [String],
}

impl<'de> DeserializeSeed<'de> for Seek<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Seek<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a document")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let Some((first, rest)) = self.tokens.split_first() else {
            return Err(de::Error::custom(FOUND));
        };
        while let Some(matched) = map.next_key_seed(Key {
            wanted: first,
            last: rest.is_empty(),
        })? {
            if matched {
                return map.next_value_seed(Seek { tokens: rest });
            }
            map.next_value::<IgnoredAny>()?;
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let Some((first, rest)) = self.tokens.split_first() else {
            return Err(de::Error::custom(FOUND));
        };
        let Ok(index) = first.parse::<usize>() else {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            return Ok(());
        };
        for _ in 0..index {
            if seq.next_element::<IgnoredAny>()?.is_none() {
                return Ok(());
            }
        }
        seq.next_element_seed(Seek { tokens: rest })?;
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(())
    }

    // A scalar reached with tokens left: the pointer goes below the text.
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        self.arrived()
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        self.arrived()
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        self.arrived()
    }
    fn visit_i128<E: de::Error>(self, _: i128) -> Result<(), E> {
        self.arrived()
    }
    fn visit_u128<E: de::Error>(self, _: u128) -> Result<(), E> {
        self.arrived()
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        self.arrived()
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        self.arrived()
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.arrived()
    }
    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        self.arrived()
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
    // A tagged YAML node: the place is its value.
    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<(), A::Error> {
        use de::VariantAccess;
        let (IgnoredAny, variant) = data.variant()?;
        variant.newtype_variant_seed(self)
    }
}

impl Seek<'_> {
    fn arrived<E: de::Error>(&self) -> Result<(), E> {
        if self.tokens.is_empty() {
            Err(E::custom(FOUND))
        } else {
            Ok(())
        }
    }
}

/// Reads one key: whether it is the wanted one, raising [`FOUND`] on it when it is the last
/// token (the reader then stands on the key, whose line is the member's).
struct Key<'t> {
    wanted: &'t str,
    last: bool,
}

impl<'de> DeserializeSeed<'de> for Key<'_> {
    type Value = bool;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Key<'_> {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<bool, E> {
        self.matched(key == self.wanted)
    }
    fn visit_i64<E: de::Error>(self, key: i64) -> Result<bool, E> {
        self.matched(key.to_string() == self.wanted)
    }
    fn visit_u64<E: de::Error>(self, key: u64) -> Result<bool, E> {
        self.matched(key.to_string() == self.wanted)
    }
    fn visit_bool<E: de::Error>(self, key: bool) -> Result<bool, E> {
        self.matched(key.to_string() == self.wanted)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_unit<E: de::Error>(self) -> Result<bool, E> {
        self.matched(self.wanted == "null")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(false)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<bool, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(false)
    }
}

impl Key<'_> {
    fn matched<E: de::Error>(&self, yes: bool) -> Result<bool, E> {
        if yes && self.last {
            Err(E::custom(FOUND))
        } else {
            Ok(yes)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::find;

    const YAML: &str = "\
openapi: 3.0.3
info: {title: x, version: '1'}
paths:
  /pets/{id}:
    get:
      parameters:
        - name: id
          in: path
        - $ref: '#/components/parameters/Limit'
      responses:
        200:
          description: ok
";

    #[test]
    fn yaml_places() {
        assert_eq!(find(YAML, ""), Some((1, 1)));
        assert_eq!(find(YAML, "/paths"), Some((3, 1)));
        assert_eq!(find(YAML, "/paths/~1pets~1{id}/get"), Some((5, 5)));
        assert_eq!(
            find(YAML, "/paths/~1pets~1{id}/get/parameters/1"),
            Some((9, 11))
        );
        assert_eq!(
            find(YAML, "/paths/~1pets~1{id}/get/parameters/0/in"),
            Some((8, 11))
        );
        assert_eq!(
            find(YAML, "/paths/~1pets~1{id}/get/responses/200/description"),
            Some((12, 11))
        );
        assert_eq!(find(YAML, "/info/title"), Some((2, 8)));
        // Below the text: its deepest written ancestor.
        assert_eq!(
            find(YAML, "/paths/~1pets~1{id}/get/responses/200/content/x"),
            Some((11, 9))
        );
        assert_eq!(find(YAML, "/nothing/here"), None);
    }

    #[test]
    fn json_places() {
        let json = "{\n  \"openapi\": \"3.0.3\",\n  \"paths\": {\n    \"/a\": {\n      \"get\": {\"responses\": {}}\n    }\n  },\n  \"tags\": [\n    {\"name\": \"x\"},\n    {\"name\": \"y\"}\n  ]\n}\n";
        assert_eq!(find(json, "/paths").map(|p| p.0), Some(3));
        assert_eq!(find(json, "/paths/~1a/get/responses").map(|p| p.0), Some(5));
        assert_eq!(find(json, "/tags/1").map(|p| p.0), Some(10));
        assert_eq!(find(json, "/tags/1/name").map(|p| p.0), Some(10));
        assert_eq!(find(json, "/tags/7").map(|p| p.0), Some(8));
    }
}
