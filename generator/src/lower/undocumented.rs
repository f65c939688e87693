//! How the client reads a status its document does not list ([`Undocumented`]).
//!
//! Rules (book/src/reference/type-mapping.md, "Answers the client reads"):
//! - a 2XX that no documented code, no `2XX` range and no `default` read as a success
//!   covers is a success: it is read as the nearest documented success (by status
//!   distance, the lower one on a tie; `201` beside a documented `200` and `204` reads as
//!   the `200`), or as a success without a body when the operation documents none;
//! - a 4XX or 5XX that nothing documents, in an operation without `default`, is read as
//!   the operation's error type when all its JSON error answers share one, else as the type
//!   most of the document's JSON error answers use; the client keeps it raw when it does
//!   not decode as that type, or when the document describes no JSON error at all.

use std::collections::BTreeMap;

use crate::ir::{BodyKind, Operation, Status, TypeRef, Undocumented};

/// Fills [`Operation::undocumented`] of every operation.
pub fn plan(ops: &mut [Operation]) {
    let common = common_error_type(ops);
    for op in ops.iter_mut() {
        op.undocumented = Undocumented {
            success: nearest_success(op),
            success_arm: !covers_every_success(op),
            error: error_type(op, common.as_ref()),
        };
    }
}

/// The documented 2XX codes and ranges leave no 2XX uncovered: a `2XX` range, or a
/// `default` that the client reads as a success.
fn covers_every_success(op: &Operation) -> bool {
    op.default_succeeds || op.responses.iter().any(|r| r.status == Status::Range(2))
}

/// The documented success nearest to the undocumented statuses: the index of the exact 2XX
/// code whose answer an undocumented one reads as. Distance to `200` decides between two
/// codes; an undocumented status that is nearer another code reads as that one's type all
/// the same when both share it, and the success enum's variants name their status anyway.
/// One index for every undocumented status keeps the generated arm a single line.
fn nearest_success(op: &Operation) -> Option<usize> {
    op.responses
        .iter()
        .enumerate()
        .filter_map(|(i, r)| match r.status {
            Status::Code(c) if (200..300).contains(&c) => Some((c.abs_diff(200), c, i)),
            _ => None,
        })
        .min()
        .map(|(_, _, i)| i)
}

/// The JSON types of an operation's error answers (codes and ranges of 4XX and 5XX), in
/// document order.
fn error_types(op: &Operation) -> impl Iterator<Item = &TypeRef> {
    op.responses.iter().filter_map(|r| {
        let is_error = match r.status {
            Status::Code(c) => c >= 400,
            Status::Range(class) => class >= 4,
            Status::Default => false,
        };
        match r.body.as_ref().map(|b| &b.kind) {
            Some(BodyKind::Json(t)) if is_error => Some(t),
            _ => None,
        }
    })
}

/// The type most JSON error answers of the document use (the first of them on a tie).
fn common_error_type(ops: &[Operation]) -> Option<TypeRef> {
    let mut counts: BTreeMap<&TypeRef, (usize, usize)> = BTreeMap::new();
    for (order, t) in ops.iter().flat_map(error_types).enumerate() {
        counts.entry(t).or_insert((0, order)).0 += 1;
    }
    counts
        .into_iter()
        .max_by_key(|(_, (count, first))| (*count, std::cmp::Reverse(*first)))
        .map(|(t, _)| t.clone())
}

fn error_type(op: &Operation, common: Option<&TypeRef>) -> Option<TypeRef> {
    if op.responses.iter().any(|r| r.status == Status::Default) {
        return None;
    }
    let mut own = error_types(op);
    match own.next() {
        Some(first) if own.all(|t| t == first) => Some(first.clone()),
        _ => common.cloned(),
    }
}

#[cfg(test)]
mod tests {
    use crate::diag::Sink;

    fn api(yaml: &str) -> crate::ir::Api {
        let doc: openapiv3::OpenAPI = serde_yaml::from_str(yaml).unwrap();
        let mut sink = Sink::default();
        let api = crate::lower::lower(&doc, &mut sink);
        assert!(!sink.has_errors(), "{:?}", sink.items);
        api
    }

    const DOC: &str = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /a:
    post:
      operationId: create
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Thing"}}}}
        "204": {description: none}
        "422": {description: bad, content: {application/json: {schema: {$ref: "#/components/schemas/Problem"}}}}
    get:
      operationId: list
      responses:
        "2XX": {description: ok}
        "404": {description: missing, content: {application/json: {schema: {$ref: "#/components/schemas/Problem"}}}}
        "409": {description: conflict, content: {application/json: {schema: {$ref: "#/components/schemas/Other"}}}}
    delete:
      operationId: remove
      responses:
        "404": {description: missing, content: {application/json: {schema: {$ref: "#/components/schemas/Problem"}}}}
        default: {description: other}
components:
  schemas:
    Thing: {type: object, properties: {id: {type: integer}}}
    Problem: {type: object, properties: {detail: {type: string}}}
    Other: {type: object, properties: {why: {type: string}}}
"##;

    #[test]
    fn an_undocumented_status_reads_as_the_nearest_success_or_the_common_error() {
        let api = api(DOC);
        let op = |id: &str| api.operations.iter().find(|o| o.id == id).unwrap();
        let create = &op("create").undocumented;
        assert!(create.success_arm);
        assert_eq!(
            op("create").responses[create.success.unwrap()].status,
            crate::ir::Status::Code(200)
        );
        assert_eq!(
            create.error,
            Some(crate::ir::TypeRef::Named("Problem".into()))
        );
        // A 2XX range covers every success; two error types: the document's most used.
        let list = &op("list").undocumented;
        assert!(!list.success_arm);
        assert_eq!(
            list.error,
            Some(crate::ir::TypeRef::Named("Problem".into()))
        );
        // `default` reads every other status; `default` is read as the success.
        let remove = &op("remove").undocumented;
        assert_eq!(
            (remove.success, remove.success_arm, &remove.error),
            (None, false, &None)
        );
    }
}
