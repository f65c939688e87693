//! One side of a comparison: the document read by the generator's loader, checked by its
//! lowering, and held as the JSON of its up-read 3.0 shape, with `$ref` following and the map
//! back to the pointers the user wrote.

use crate::diag::{Diagnostic, Diagnostics, Severity, Sink};
use crate::load::{self, Moves};
use serde_json::{Map, Value};

pub(crate) struct Doc {
    /// The up-read document serialized back from the `openapiv3` model: one spelling for
    /// what 3.0, 3.1 and 3.2 write differently (defaults left out, `type` lists as
    /// `nullable`, numeric exclusive bounds as flags).
    value: Value,
    moves: Moves,
    /// The operations (`GET /pets`) whose generated client returns an enum of successes, as
    /// the lowering decided (IR `Operation::success_enum`): the diff reads the decision, it
    /// does not make it again.
    success_enums: std::collections::BTreeSet<String>,
}

/// How the diff names an operation: `GET /pets`.
pub(crate) fn operation_key(method: &str, path: &str) -> String {
    format!("{} {path}", method.to_uppercase())
}

/// `$ref` chains longer than this are treated as cycles (the loader's resolvers agree).
const MAX_REF_CHAIN: usize = 32;

impl Doc {
    /// Reads and checks one document (its root file `root`, through `source`); `label` names
    /// it in error messages.
    pub fn read(root: &str, source: &dyn crate::Source, label: &str) -> Result<Doc, Diagnostics> {
        let located = |mut d: Diagnostics| {
            for item in &mut d.0 {
                item.message = format!("{label}: {}", item.message);
            }
            d
        };
        let loaded = load::read(root, source).map_err(located)?;
        // The lowering finds what the loader lets through (dangling `$ref`s, bad
        // `x-deprecation` dates): the same errors `generate` gives, so a document that
        // generates also compares.
        let mut sink = Sink::default();
        let api = crate::lower::lower(&loaded.doc, &mut sink);
        let success_enums = api
            .operations
            .iter()
            .filter(|op| op.success_enum)
            .map(|op| operation_key(&op.method, &op.path))
            .collect();
        let mut errors: Vec<Diagnostic> = sink
            .items
            .into_iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|mut d| {
                d.pointer = loaded.original(&d.pointer);
                d
            })
            .collect();
        if !errors.is_empty() {
            errors.sort();
            errors.dedup();
            loaded.locate(&mut errors);
            return Err(located(Diagnostics(errors)));
        }
        let value = serde_json::to_value(&loaded.doc).map_err(|e| {
            located(Diagnostics(vec![Diagnostic::error(
                String::new(),
                format!("internal error: cannot re-serialize the document: {e}"),
            )]))
        })?;
        Ok(Doc {
            value,
            moves: loaded.moves,
            success_enums,
        })
    }

    /// The user's pointer for a pointer of the up-read form.
    pub fn original(&self, pointer: &str) -> String {
        self.moves.original(pointer)
    }

    pub fn version(&self) -> String {
        self.value
            .pointer("/info/version")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    }

    pub fn get(&self, pointer: &str) -> Option<&Value> {
        self.value.pointer(pointer)
    }

    /// Follows `$ref` (any local reference) from `value` standing at `at`, returning what it
    /// points at and where. A dangling or cyclic reference is returned as it is (the
    /// lowering has refused documents with those where they matter).
    pub fn success_enum(&self, operation: &str) -> bool {
        self.success_enums.contains(operation)
    }

    pub fn resolve<'a>(&'a self, mut value: &'a Value, at: &str) -> (&'a Value, String) {
        let mut at = at.to_string();
        for _ in 0..MAX_REF_CHAIN {
            let Some(reference) = value.get("$ref").and_then(Value::as_str) else {
                break;
            };
            let Some(target) = reference
                .strip_prefix('#')
                .and_then(|p| self.value.pointer(p))
            else {
                break;
            };
            at = reference[1..].to_string();
            value = target;
        }
        (value, at)
    }
}

/// The members of an object (none for anything else), in document order.
pub(crate) fn members(value: &Value) -> Vec<(&String, &Value)> {
    value
        .as_object()
        .map(|m| m.iter().collect())
        .unwrap_or_default()
}

pub(crate) fn object(value: &Value) -> Option<&Map<String, Value>> {
    value.as_object()
}

pub(crate) fn flag(value: &Value, key: &str) -> bool {
    value.get(key).and_then(Value::as_bool).unwrap_or(false)
}

pub(crate) fn text<'a>(value: &'a Value, key: &str) -> Option<&'a str> {
    value.get(key).and_then(Value::as_str)
}
