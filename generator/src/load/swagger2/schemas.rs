//! 2.0 schemas into 3.0's: `definitions` and inline schemas (`type: file`, a string
//! `discriminator`, `x-nullable`), and the value schemas of non-body parameters and headers.

use super::*;

impl Converter {
    pub(super) fn schemas(&mut self, value: &Value, loc: &Loc) -> Value {
        let mut out = Map::new();
        for (name, s) in value.as_object().into_iter().flatten() {
            out.insert(name.clone(), self.schema(s, &loc.child(name)));
        }
        Value::Object(out)
    }

    /// A 2.0 schema in 3.0 terms (the same keywords but for `type: file`, a string
    /// `discriminator` and `x-nullable`, and references into `definitions`).
    pub(super) fn schema(&mut self, s: &Value, loc: &Loc) -> Value {
        let Some(src) = s.as_object() else {
            return s.clone();
        };
        let file = src.get("type").and_then(Value::as_str) == Some("file");
        let mut out = Map::new();
        for (key, value) in src {
            let here = loc.child(key);
            match key.as_str() {
                "$ref" => {
                    let rewritten = self.schema_ref(value, loc);
                    out.insert(key.clone(), rewritten);
                }
                "type" if file => {
                    out.insert("type".into(), json!("string"));
                    out.insert("format".into(), json!("binary"));
                }
                "format" if file => {}
                "x-nullable" => {
                    if value.as_bool() == Some(true) {
                        out.insert("nullable".into(), json!(true));
                    }
                }
                "discriminator" => {
                    let d = match value {
                        Value::String(name) => json!({ "propertyName": name }),
                        other => other.clone(),
                    };
                    out.insert(key.clone(), d);
                }
                "properties" | "patternProperties" | "definitions" => {
                    out.insert(key.clone(), self.schemas(value, &here));
                }
                "items" | "additionalProperties" | "not" if value.is_object() => {
                    out.insert(key.clone(), self.schema(value, &here));
                }
                "items" | "allOf" | "anyOf" | "oneOf" if value.is_array() => {
                    let list = value
                        .as_array()
                        .into_iter()
                        .flatten()
                        .enumerate()
                        .map(|(i, item)| self.schema(item, &here.child(&i.to_string())))
                        .collect();
                    out.insert(key.clone(), Value::Array(list));
                }
                _ => {
                    out.insert(key.clone(), value.clone());
                }
            }
        }
        Value::Object(out)
    }

    /// The schema of a non-body parameter, a header or an items object: its value keywords.
    pub(super) fn value_schema(&mut self, src: &Map<String, Value>, loc: &Loc) -> Value {
        let mut schema = Map::new();
        for key in VALUE_KEYWORDS {
            let Some(value) = src.get(*key) else {
                continue;
            };
            match *key {
                "items" => {
                    let here = loc.child("items");
                    let items = match value.as_object() {
                        // A `$ref` or a full schema where an items object belongs: read it as
                        // the schema it is.
                        Some(m) if m.contains_key("$ref") || m.contains_key("properties") => {
                            self.schema(value, &here)
                        }
                        Some(m) => {
                            if m.get("type").and_then(Value::as_str) == Some("array")
                                && m.get("collectionFormat")
                                    .and_then(Value::as_str)
                                    .is_some_and(|f| f != "csv")
                            {
                                self.warn(
                                    &push(&here.orig, "collectionFormat"),
                                    "a collection format of items inside items has no OpenAPI 3 style; inner arrays are read comma-separated",
                                );
                            }
                            self.value_schema(m, &here)
                        }
                        None => value.clone(),
                    };
                    schema.insert("items".into(), items);
                }
                "type" if value.as_str() == Some("file") => {
                    schema.insert("type".into(), json!("string"));
                    schema.insert("format".into(), json!("binary"));
                }
                "format" if src.get("type").and_then(Value::as_str) == Some("file") => {}
                "x-nullable" => {
                    if value.as_bool() == Some(true) {
                        schema.insert("nullable".into(), json!(true));
                    }
                }
                _ => {
                    schema.insert((*key).into(), value.clone());
                }
            }
        }
        // Extensions on the object describe the value too (`x-example` stays on the
        // parameter, as it is written there).
        Value::Object(schema)
    }

    /// `#/definitions/X` → `#/components/schemas/X` (and what is below it); a name that is
    /// not in `definitions` is an error in the document's own spelling.
    pub(super) fn schema_ref(&mut self, r: &Value, loc: &Loc) -> Value {
        let Some(text) = r.as_str() else {
            return r.clone();
        };
        let Some(rest) = text.strip_prefix("#/definitions/") else {
            return r.clone();
        };
        let name = crate::load::unescape(rest.split('/').next().unwrap_or_default());
        if !self.definitions.contains(&name) {
            self.error(&loc.orig, format!("`{text}` points at nothing"));
        }
        json!(format!("#/components/schemas/{rest}"))
    }
}
