//! A local `$ref` of the document resolved to what it points at (percent-escapes and chains
//! of references followed): read by the values made (`values`) and their checks (`check`).

use serde_json::Value;

/// How an error about a `$ref` the document cannot resolve begins (the document's fault).
pub const UNRESOLVED: &str = "unresolvable `$ref: ";

/// The value a local `$ref` points at, following a chain of them.
pub fn resolve<'v>(root: &'v Value, reference: &str) -> Result<&'v Value, String> {
    let mut reference = reference.to_string();
    for _ in 0..32 {
        let pointer = reference
            .strip_prefix('#')
            .ok_or_else(|| format!("{UNRESOLVED}{reference}`: it points outside the document"))?;
        let pointer = percent_decode(pointer);
        // `#` (how the loader writes fitbit's `$ref: ""`) is the whole document: no schema.
        if pointer.is_empty() {
            return Err(format!(
                "{UNRESOLVED}{reference}`: it points at the whole document, not a schema"
            ));
        }
        let target = root
            .pointer(&pointer)
            .ok_or_else(|| format!("{UNRESOLVED}{reference}`: it points at nothing"))?;
        match target.get("$ref").and_then(Value::as_str) {
            // Parameters, bodies and responses may be references to references.
            Some(next) if target.as_object().is_some_and(|o| o.len() == 1) => {
                reference = next.to_string();
            }
            _ => return Ok(target),
        }
    }
    Err(format!("`$ref: {reference}`: too many references in a row"))
}

/// `%7B` → `{` in a JSON pointer taken from a URI fragment.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(h) = text.get(i + 1..i + 3)
            && let Ok(b) = u8::from_str_radix(h, 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
