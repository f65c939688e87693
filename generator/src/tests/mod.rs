//! The generator's unit tests that cross stages: a document read (`load`) and lowered
//! (`lower`) to the IR, or rewritten, asserted on the result. Each file owns one reading:
//! 3.1/3.2 (`oas31`, and `oas31_fallbacks` for what falls back with a warning), schemas
//! whose keywords openapiv3 reads as a mix (`mixed`), split documents (`refs`) and Swagger
//! 2.0 (`swagger2`).

mod enums;
mod mixed;
mod numbers;
mod oas31;
mod oas31_fallbacks;
mod refs;
mod select;
mod suite;
mod swagger2;
mod unions;

use crate::diag::Sink;
use crate::ir::{Api, Field, TypeKind};
use crate::load::parse;

/// `text` read and lowered, the diagnostics' pointers put back into the text as written
/// (before the 3.1 up-reading), the reading's warnings after the lowering's.
fn lower_text(text: &str) -> (Api, Sink) {
    let loaded = parse(text).unwrap_or_else(|e| panic!("{e}"));
    let mut sink = Sink::default();
    let api = crate::lower::lower(&loaded.doc, &mut sink);
    for d in &mut sink.items {
        d.pointer = loaded.original(&d.pointer);
    }
    sink.items.extend(loaded.warnings);
    (api, sink)
}

/// The field `name` (as on the wire) of the struct `ty`.
fn field<'a>(api: &'a Api, ty: &str, name: &str) -> &'a Field {
    let t = api
        .types
        .iter()
        .find(|t| t.name == ty)
        .unwrap_or_else(|| panic!("no type {ty}"));
    match &t.kind {
        TypeKind::Struct(s) => s
            .fields
            .iter()
            .find(|f| f.wire == name)
            .unwrap_or_else(|| panic!("no field {name}")),
        other => panic!("{ty} is {other:?}"),
    }
}
