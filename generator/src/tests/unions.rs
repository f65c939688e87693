//! What a union's writer and reader are told of its variants: a variant named by several tags
//! that knows its own (`Discriminator::own_tag`), through aliases too, and the struct variants
//! that name their members (`OneOfVariant::names_members`).

use super::lower_text;
use crate::ir::TypeKind;

const DOC: &str = r#"
openapi: 3.1.0
info: {title: Unions, version: '1'}
paths: {}
components:
  schemas:
    InputItem:
      oneOf:
        - $ref: '#/components/schemas/Message'
        - {$ref: '#/components/schemas/Item', description: Any item (an alias of Item).}
      discriminator: {propertyName: type}
    Message:
      type: object
      required: [type]
      properties:
        type: {type: string, enum: [message]}
    Item:
      oneOf:
        - $ref: '#/components/schemas/Search'
        - $ref: '#/components/schemas/Patch'
      discriminator: {propertyName: type}
    Search:
      type: object
      required: [type]
      properties:
        type: {type: string, enum: [search, search_preview]}
    Patch:
      type: object
      required: [type, diff]
      properties:
        type: {type: string, enum: [patch]}
        diff: {type: string}
"#;

#[test]
fn variants_named_by_several_tags_write_their_own() {
    let (api, _) = lower_text(DOC);
    let one_of = |name: &str| match &api.types.iter().find(|t| t.name == name).unwrap().kind {
        TypeKind::OneOf(o) => o.clone(),
        other => panic!("{name} is {other:?}"),
    };
    let input = one_of("InputItem");
    let d = input.discriminator.as_ref().unwrap();
    // `Item` (through its alias) stands for `search`, `search_preview` and `patch`; `Message`
    // for `message` and its component's name, and holds `type`, as every variant here does.
    assert_eq!(d.own_tag, [0, 1], "{:?}", d.mapping);
    let item = one_of("Item");
    assert_eq!(item.discriminator.as_ref().unwrap().own_tag, [0, 1]);
    assert!(item.variants.iter().all(|v| v.names_members));
    assert!(input.variants[0].names_members && !input.variants[1].names_members);
}

/// A union that can only be read by reading itself again is refused at its schema; one that
/// reaches itself through a member or an item (a tree) is not.
#[test]
fn a_union_that_reads_itself_in_place_is_refused_where_it_loops() {
    let looping = r#"
openapi: 3.1.0
info: {title: Loop, version: '1'}
paths: {}
components:
  schemas:
    Node:
      anyOf:
        - $ref: '#/components/schemas/Wrapper'
        - {type: integer}
    Wrapper:
      oneOf:
        - {$ref: '#/components/schemas/Node'}
        - {type: 'null'}
    Tree:
      anyOf:
        - {type: array, items: {$ref: '#/components/schemas/Tree'}}
        - {type: object, properties: {parent: {$ref: '#/components/schemas/Tree'}}}
        - {type: string}
"#;
    let (_, sink) = lower_text(looping);
    let errors: Vec<String> = sink
        .items
        .iter()
        .filter(|d| d.severity == crate::diag::Severity::Error)
        .map(|d| format!("{}: {}", d.pointer, d.message))
        .collect();
    assert!(
        errors
            .iter()
            .any(|e| e.starts_with("/components/schemas/Node: the schema can only be read")),
        "{errors:?}"
    );
    assert!(!errors.iter().any(|e| e.contains("Tree")), "{errors:?}");
}
