//! Shapes JSON Schema's own test suite writes that documents may write too: counts written
//! `2.0`, references whose fragment is percent-encoded, property names with control characters.
//! Each is read (not refused) and printed as code rustc takes.

use super::{field, lower_text};
use crate::ir::{TypeKind, TypeRef};

const DOC: &str = r##"
openapi: 3.1.0
info: {title: t, version: '1'}
paths:
  /things:
    post:
      operationId: put_thing
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Thing'}
      responses:
        '204': {description: ok}
components:
  schemas:
    Thing:
      type: object
      $defs:
        percent%field: {type: integer}
        quote"d: {type: string}
      properties:
        tags: {type: array, items: {type: string, maxLength: 3.0}, maxItems: 2.0, minItems: 1.0}
        pct: {$ref: '#/components/schemas/Thing/$defs/percent%25field'}
        quoted: {$ref: '#/components/schemas/Thing/$defs/quote%22d'}
        "foo\rbar": {type: string}
        "tab\tbed": {type: string}
"##;

#[test]
fn counts_with_a_zero_fraction_are_counts() {
    let (api, sink) = lower_text(DOC);
    assert!(!sink.has_errors(), "{:?}", sink.items);
    let tags = field(&api, "Thing", "tags");
    assert_eq!(tags.constraints.max_items, Some(2));
    assert_eq!(tags.constraints.min_items, Some(1));
    let each = tags.constraints.each.as_deref().expect("item checks");
    assert_eq!(each.max_length, Some(3));
}

#[test]
fn percent_encoded_pointers_are_followed() {
    let (api, sink) = lower_text(DOC);
    assert!(!sink.has_errors(), "{:?}", sink.items);
    // `$defs` entries become types of their own: aliases of what they name.
    for (name, scalar) in [("pct", TypeRef::I64), ("quoted", TypeRef::String)] {
        let TypeRef::Named(ty) = &field(&api, "Thing", name).ty else {
            panic!("{name} is not the named `$defs` entry");
        };
        let def = api.types.iter().find(|t| &t.name == ty).expect("the type");
        assert!(
            matches!(&def.kind, TypeKind::Alias(t, _) if *t == scalar),
            "{name}: {def:?}"
        );
    }
}

/// Found by the fuzzer: `default` under `responses` is a response, not data, so a
/// percent-encoded reference in it is decoded like any other.
#[test]
fn a_percent_encoded_reference_in_a_default_response_is_followed() {
    let doc = r##"
openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /p:
    patch:
      responses:
        default:
          description: x
          content:
            application/json:
              schema: {$ref: '#/components/schemas/%72eqwest'}
components:
  schemas:
    reqwest: {type: object, properties: {a: {type: string}}}
"##;
    let (_, sink) = lower_text(doc);
    assert!(!sink.has_errors(), "{:?}", sink.items);
}

#[test]
fn a_count_with_a_fraction_is_still_refused() {
    let text = DOC.replace("maxItems: 2.0", "maxItems: 2.5");
    assert!(crate::load::parse(&text).is_err());
}

#[test]
fn control_characters_in_names_are_printed_escaped() {
    let options = crate::Options {
        name: "suite".into(),
        ..Default::default()
    };
    let output = crate::generate(DOC, &options).unwrap_or_else(|e| panic!("{e}"));
    for (path, text) in &output.files {
        assert!(!text.contains('\r'), "{path} holds a bare carriage return");
    }
    let types = &output.files["server/src/types.rs"];
    assert!(
        types.contains(r"foo\rbar"),
        "the name, escaped, in a doc line"
    );
    // A tab too (clippy's `tabs_in_doc_comments`; found by the fuzzer).
    assert!(
        types.contains(r"tab\tbed"),
        "the tab, escaped, in a doc line"
    );
    let (api, _) = lower_text(DOC);
    assert!(matches!(
        api.types
            .iter()
            .find(|t| t.name == "Thing")
            .map(|t| &t.kind),
        Some(TypeKind::Struct(_))
    ));
}

#[test]
fn an_all_of_that_says_nothing_of_objects_is_any_value() {
    let doc = r##"
openapi: 3.1.0
info: {title: t, version: '1'}
paths: {}
components:
  schemas:
    Range: {allOf: [{maximum: 30}, {minimum: 20}]}
    Anything: {allOf: [true, true]}
    Named: {allOf: [{$ref: '#/components/schemas/Pet'}, {required: [name]}]}
    Pet: {type: object, properties: {name: {type: string}}}
"##;
    let (api, sink) = lower_text(doc);
    assert!(!sink.has_errors(), "{:?}", sink.items);
    let kind = |name: &str| &api.types.iter().find(|t| t.name == name).expect(name).kind;
    assert!(
        matches!(kind("Range"), TypeKind::Alias(TypeRef::Json, _)),
        "{:?}",
        kind("Range")
    );
    assert!(matches!(
        kind("Anything"),
        TypeKind::Alias(TypeRef::Json, _)
    ));
    assert!(matches!(kind("Named"), TypeKind::Struct(_)));
}
