//! A part of a document (`Options::select`, apigen.toml's `tags` and `operations`): the
//! operations picked and the types they reach, for teams that call five operations of a
//! 700-operation API and should not compile the rest.
//!
//! Rules: an operation is kept when one of its tags is listed or its operationId is (an
//! operation without an operationId is picked by its tags only); a tag or id that names no
//! operation is an error (a misspelt name must not leave a crate empty). Webhooks
//! are kept. A type is kept when a kept operation, a webhook or the document's error bodies
//! reach it, through any number of other types. The served document stays whole: it is the
//! API's description, whatever part a crate implements.

use std::collections::{BTreeSet, HashMap};

use crate::diag::Sink;
use openapiv3::{OpenAPI, ReferenceOr};

use crate::ir::Api;
use crate::options::Selection;

/// Where [`document`] records the operations it left out (operationId → path), for
/// `x-deprecation` replacements that name one.
pub const LEFT_OUT: &str = "x-apigen-left-out";

/// The document with only the operations `select` picks, before anything is lowered (so no
/// warning speaks of an operation not generated); errors for each tag or id that names none.
pub fn document(doc: &OpenAPI, select: &Selection, sink: &mut Sink) -> OpenAPI {
    let mut doc = doc.clone();
    let picked = |op: &openapiv3::Operation| {
        op.tags.iter().any(|t| select.tags.contains(t))
            || op
                .operation_id
                .as_ref()
                .is_some_and(|id| select.operations.contains(id))
    };
    let mut tags_seen: BTreeSet<String> = BTreeSet::new();
    let mut ids_seen: BTreeSet<String> = BTreeSet::new();
    // Operations left out, by id, with their paths: an `x-deprecation` replacement may name
    // one (the `Link` to its path is still the API's).
    let mut left_out = serde_json::Map::new();
    for (path, item) in doc.paths.paths.iter_mut() {
        let ReferenceOr::Item(item) = item else {
            continue;
        };
        for slot in [
            &mut item.get,
            &mut item.put,
            &mut item.post,
            &mut item.delete,
            &mut item.options,
            &mut item.head,
            &mut item.patch,
            &mut item.trace,
        ] {
            if let Some(op) = slot {
                tags_seen.extend(op.tags.iter().cloned());
                ids_seen.extend(op.operation_id.iter().cloned());
                if !picked(op) {
                    if let Some(id) = &op.operation_id {
                        left_out.insert(id.clone(), serde_json::Value::String(path.clone()));
                    }
                    *slot = None;
                }
            }
        }
        // 3.2's `query` and `additionalOperations`, kept by the loader as extensions.
        item.extensions.retain(|key, value| {
            let ops: Vec<&serde_json::Value> = match key.as_str() {
                "x-apigen-query" => vec![value],
                "x-apigen-additional-operations" => match value.as_object() {
                    Some(map) => map.values().collect(),
                    None => return true,
                },
                _ => return true,
            };
            let strings = |op: &serde_json::Value, key: &str| -> Vec<String> {
                match op.get(key) {
                    Some(serde_json::Value::String(s)) => vec![s.clone()],
                    Some(serde_json::Value::Array(list)) => list
                        .iter()
                        .filter_map(|v| v.as_str().map(str::to_owned))
                        .collect(),
                    _ => Vec::new(),
                }
            };
            let mut keep = false;
            for op in ops {
                let (tags, ids) = (strings(op, "tags"), strings(op, "operationId"));
                keep |= tags.iter().any(|t| select.tags.contains(t))
                    || ids.iter().any(|i| select.operations.contains(i));
                tags_seen.extend(tags);
                ids_seen.extend(ids);
            }
            keep
        });
    }
    doc.extensions
        .insert(LEFT_OUT.to_owned(), serde_json::Value::Object(left_out));
    for tag in select.tags.iter().filter(|t| !tags_seen.contains(*t)) {
        let mut known: Vec<&str> = tags_seen.iter().map(String::as_str).collect();
        known.truncate(40);
        sink.error(
            "",
            format!(
                "`tags`: no operation is tagged `{tag}` (the document's tags: {})",
                if known.is_empty() {
                    "none".to_owned()
                } else {
                    known.join(", ")
                }
            ),
        );
    }
    for id in select.operations.iter().filter(|i| !ids_seen.contains(*i)) {
        sink.error(
            "",
            format!("`operations`: the document has no operation with operationId `{id}`"),
        );
    }
    doc
}

/// Drops the types nothing kept reaches.
///
/// A type is reached where an operation, a webhook or an error body names it anywhere: in a
/// parameter, a body and its alternatives, an answer and its headers, a query string, a
/// page's items. Rather than a list of those places to keep in step with the IR, each is
/// read from its `Debug` text, where every reference is printed `Named("…")` (type names are
/// Rust identifiers: no quote inside); a place added to the IR is then found without a word.
pub fn prune_types(api: &mut Api) {
    let by_name: HashMap<&str, usize> = api
        .types
        .iter()
        .enumerate()
        .map(|(i, t)| (t.name.as_str(), i))
        .collect();
    let mut roots = String::new();
    roots.push_str(&format!("{:?}", api.operations));
    roots.push_str(&format!("{:?}", api.webhooks));
    roots.push_str(&format!("{:?}", api.error_bodies));
    roots.push_str(&format!("{:?}", api.errors));
    let mut keep = vec![false; api.types.len()];
    let mut queue: Vec<usize> = named(&roots)
        .filter_map(|n| by_name.get(n).copied())
        .collect();
    while let Some(i) = queue.pop() {
        if std::mem::replace(&mut keep[i], true) {
            continue;
        }
        let text = format!("{:?}", api.types[i].kind);
        queue.extend(named(&text).filter_map(|n| by_name.get(n).copied()));
    }
    let mut index = 0;
    api.types.retain(|_| {
        index += 1;
        keep[index - 1]
    });
}

/// The names in every `Named("…")` of a `Debug` text.
pub(super) fn named(text: &str) -> impl Iterator<Item = &str> {
    text.split("Named(\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_read_from_debug_text() {
        let text = r#"Vec(Named("Pet")), Nullable(Named("Error")), name: "NotNamed""#;
        assert_eq!(named(text).collect::<Vec<_>>(), ["Pet", "Error"]);
    }
}
