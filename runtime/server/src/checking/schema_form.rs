//! A form's text read as its schema says, before the schema walk: every field of a
//! url-encoded or multipart body is text, and where the body's type leaves a field as text (a
//! member of no one Rust type, held as `serde_json::Value`: discord's invite form is an `allOf`
//! of an `anyOf`) the walk saw `"0"` where the schema wants an integer and refused a valid
//! form. The types' own decoding reads text the same way (`form.rs`); this is that reading
//! for the parts only the schema describes.

use serde_json::{Number, Value};

use super::schema::{Node, Schema, types};

/// Unions and wrappers nest; a recursive schema ends somewhere.
const MAX_DEPTH: usize = 32;

impl Schema {
    /// Rewrites in place each string of `value` that stands where the schema admits no
    /// string as the value its text spells: `"0"` an integer, `"true"` a boolean, `"[…]"` or
    /// `"{…}"` JSON, a lone item an array of one (a form writes an array as one field per
    /// item). `nulls`: the text `null` is JSON's null where the schema admits it (a multipart
    /// part; in a url-encoded form it stays text, book/src/reference/type-mapping.md). In a union, the first
    /// branch whose reading the value then fits decides. Text no reading fits stays text, for
    /// the walk to name.
    pub fn read_form_text(&self, value: &mut Value, nulls: bool) {
        self.read_text(0, value, nulls, 0);
    }

    fn read_text(&self, node: usize, v: &mut Value, nulls: bool, depth: usize) {
        let Node::Keywords(k) = &self.nodes[node] else {
            return;
        };
        if depth > MAX_DEPTH {
            return;
        }
        let mut allowed = k.types;
        if k.nullable && allowed != 0 {
            allowed |= types::NULL;
        }
        if let Value::String(text) = v
            && allowed != 0
            && allowed & types::STRING == 0
            && let Some(read) = spelled(text, allowed, nulls)
        {
            *v = read;
        }
        if let Some(r) = k.reference {
            self.read_text(r, v, nulls, depth + 1);
        }
        for &part in &k.all_of {
            self.read_text(part, v, nulls, depth + 1);
        }
        for branches in [&k.any_of, &k.one_of] {
            if branches.is_empty() || branches.iter().any(|&b| self.eval(b, v, "", None)) {
                continue;
            }
            let fitting = branches.iter().find_map(|&b| {
                let mut candidate = v.clone();
                self.read_text(b, &mut candidate, nulls, depth + 1);
                self.eval(b, &candidate, "", None).then_some(candidate)
            });
            match fitting {
                Some(read) => *v = read,
                // Refused whatever the reading: read by every branch, so that the refusal
                // names what is wrong (`/guests/0/name: is required`), not the text.
                None => {
                    for &b in branches {
                        self.read_text(b, v, nulls, depth + 1);
                    }
                }
            }
        }
        match v {
            Value::Object(map) => {
                for (name, member) in map.iter_mut() {
                    let mut matched = false;
                    if let Some((_, schema)) = k.properties.iter().find(|(p, _)| p == name) {
                        matched = true;
                        self.read_text(*schema, member, nulls, depth + 1);
                    }
                    for (pattern, schema) in &k.pattern_properties {
                        if pattern.is_match(name) {
                            matched = true;
                            self.read_text(*schema, member, nulls, depth + 1);
                        }
                    }
                    if !matched && let Some(additional) = k.additional {
                        self.read_text(additional, member, nulls, depth + 1);
                    }
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter_mut().enumerate() {
                    let schema = k.prefix_items.get(i).copied().or(k.items);
                    if let Some(schema) = schema {
                        self.read_text(schema, item, nulls, depth + 1);
                    }
                }
            }
            _ => {}
        }
    }
}

/// The value `text` spells among the `allowed` types (none of them a string), if any.
fn spelled(text: &str, allowed: u8, nulls: bool) -> Option<Value> {
    let allows = |bit: u8| allowed & bit != 0;
    if nulls && allows(types::NULL) && text == "null" {
        return Some(Value::Null);
    }
    if allows(types::BOOLEAN) && matches!(text, "true" | "false") {
        return Some(Value::Bool(text == "true"));
    }
    if allows(types::NUMBER | types::INTEGER)
        && let Ok(n) = serde_json::from_str::<Number>(text.trim())
    {
        return Some(Value::Number(n));
    }
    if allows(types::OBJECT | types::ARRAY) {
        match serde_json::from_str::<Value>(text) {
            Ok(json @ Value::Object(_)) if allows(types::OBJECT) => return Some(json),
            Ok(json @ Value::Array(_)) if allows(types::ARRAY) => return Some(json),
            _ => {}
        }
    }
    // One field where a form writes an array as one field per item.
    allows(types::ARRAY).then(|| Value::Array(vec![Value::String(text.to_owned())]))
}
