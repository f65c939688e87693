//! String enums with equal values are one type (`lower::schema::share_equal_enums`): which one
//! keeps the definition, that the others become aliases of it, and that what names a variant
//! through an alias (a parameter's default) still does.

use crate::ir::{TypeKind, TypeRef};

const DOC: &str = r#"
openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /items:
    get:
      operationId: listItems
      parameters:
        - {name: direction, in: query, schema: {type: string, enum: [asc, desc], default: desc}}
        - {name: order, in: query, schema: {type: string, enum: [desc, asc]}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Item'}
components:
  schemas:
    Item:
      type: object
      properties:
        sort: {type: string, enum: [asc, desc]}
        kind: {type: string, enum: [item]}
    Direction: {type: string, enum: [asc, desc]}
"#;

fn kind<'a>(api: &'a crate::ir::Api, name: &str) -> &'a TypeKind {
    &api.types
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no type {name}: {:?}", api.types))
        .kind
}

fn alias_of(kind: &TypeKind) -> Option<&str> {
    match kind {
        TypeKind::Alias(TypeRef::Named(n), _) => Some(n),
        _ => None,
    }
}

#[test]
fn equal_enums_share_the_component_schemas_type() {
    let (api, _) = crate::model(DOC, &crate::Options::default()).unwrap();
    // `Direction`, a component of its own, keeps the definition though `Item`'s inline
    // `sort` comes first; the parameter's copy is an alias too.
    assert!(matches!(kind(&api, "Direction"), TypeKind::Enum(_)));
    assert_eq!(alias_of(kind(&api, "ItemSort")), Some("Direction"));
    assert_eq!(
        alias_of(kind(&api, "ListItemsDirection")),
        Some("Direction")
    );
    // Other values, or the same in another order (the mock answers with the first), stay
    // a type of their own.
    assert!(matches!(kind(&api, "ItemKind"), TypeKind::Enum(_)));
    assert!(matches!(kind(&api, "ListItemsOrder"), TypeKind::Enum(_)));
}

#[test]
fn an_aliased_enums_default_names_its_variant() {
    let out = crate::generate(DOC, &crate::Options::default()).unwrap();
    let types = &out.files["client/src/types.rs"];
    assert!(types.contains("pub type ItemSort = Direction;"), "{types}");
    let server: String = out
        .files
        .iter()
        .filter(|(path, _)| path.starts_with("server/src/"))
        .map(|(_, text)| text.as_str())
        .collect();
    assert!(
        server.contains("types::ListItemsDirection::Desc"),
        "the default `desc` is lost"
    );
}
