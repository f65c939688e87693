//! Owns reading YAML text into serde_yaml's value tree, integers beyond 64 bits included:
//! serde_yaml's own `Value` refuses them (openai's document writes an int64 bound rounded
//! by a JSON writer, `minimum: -9223372036854776000`), so here they become doubles, as JSON
//! readers make them. The schema up-reading decides what such a bound means.

use serde::de::{
    self, Deserialize, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor,
};
use serde_yaml::{Mapping, Number, Value};
use std::fmt;

/// One YAML node.
pub(super) struct Node(pub Value);

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Node, D::Error> {
        deserializer.deserialize_any(NodeVisitor).map(Node)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E: de::Error>(self, i: i64) -> Result<Value, E> {
        Ok(Value::Number(i.into()))
    }

    fn visit_u64<E: de::Error>(self, u: u64) -> Result<Value, E> {
        Ok(Value::Number(u.into()))
    }

    fn visit_i128<E: de::Error>(self, i: i128) -> Result<Value, E> {
        Ok(Value::Number(Number::from(i as f64)))
    }

    fn visit_u128<E: de::Error>(self, u: u128) -> Result<Value, E> {
        Ok(Value::Number(Number::from(u as f64)))
    }

    fn visit_f64<E: de::Error>(self, f: f64) -> Result<Value, E> {
        Ok(Value::Number(f.into()))
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_owned()))
    }

    fn visit_string<E: de::Error>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Node::deserialize(d).map(|n| n.0)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Node(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Sequence(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Mapping::new();
        while let Some(Node(key)) = map.next_key()? {
            if out.contains_key(&key) {
                return Err(de::Error::custom(format_args!(
                    "duplicate entry with key {}",
                    serde_yaml::to_string(&key).unwrap_or_default().trim_end()
                )));
            }
            let Node(value) = map.next_value()?;
            out.insert(key, value);
        }
        Ok(Value::Mapping(out))
    }

    // A tagged node (`!name value`): the tag says nothing OpenAPI reads; its value stays.
    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Value, A::Error> {
        let (_tag, contents): (de::IgnoredAny, _) = data.variant()?;
        contents.newtype_variant::<Node>().map(|n| n.0)
    }
}
