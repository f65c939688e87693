//! Two ways of writing one thing made one before a document is read further: counts written
//! `2.0`, percent-encoded local references (JSON Schema's test suite writes both).

use serde_json::Value;

/// The keywords whose value is a count (a non-negative integer).
const COUNTS: &[&str] = &[
    "maxLength",
    "minLength",
    "maxItems",
    "minItems",
    "maxProperties",
    "minProperties",
    "maxContains",
    "minContains",
];

/// Two ways of writing a thing made one, so that what follows reads one:
/// - `maxItems: 2.0` read as `maxItems: 2`: JSON Schema counts a number whose fraction is zero
///   as an integer (its test suite writes counts so), while the 3.0 model wants an integer. A
///   count with a fraction (`2.5`) is left as written and refused where it is read, with its
///   place.
/// - a local reference's fragment percent-decoded (`#/$defs/percent%25field` names the key
///   `percent%field`): a fragment is part of a URI (RFC 6901 §6), and every later stage
///   compares and splits references as pointers. References to other files are decoded where
///   they are followed (`refs`).
///
/// Values that are data (`example`, `enum`, …) are left alone.
pub(super) fn canonical(value: &mut Value) {
    walk(value, false);
}

/// `responses`: `value` is an operation's map of responses, whose `default` is a response
/// (elsewhere a `default` is data).
fn walk(value: &mut Value, responses: bool) {
    match value {
        Value::Object(obj) => {
            if let Some(Value::String(r)) = obj.get_mut("$ref")
                && r.starts_with('#')
                && r.contains('%')
            {
                *r = super::source::percent_decode(r);
            }
            for (key, child) in obj.iter_mut() {
                if COUNTS.contains(&key.as_str())
                    && let Some(n) = child.as_f64().filter(|_| !child.is_u64())
                    && n >= 0.0
                    && n.fract() == 0.0
                    && n < 9_007_199_254_740_992.0
                {
                    *child = Value::from(n as u64);
                } else if (responses && key == "default")
                    || !matches!(
                        key.as_str(),
                        "example" | "examples" | "default" | "enum" | "const"
                    )
                {
                    walk(child, key == "responses");
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| walk(item, false)),
        _ => {}
    }
}
