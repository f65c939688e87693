//! Unit tests of the value maker: each schema keyword met, references resolved, and the
//! document contradicting itself found.

use super::*;
use serde_json::json;

fn values(root: &Value, round: u32, schema: Value) -> Value {
    Values::new(root, round, Rng::new(1, "t"))
        .request(&schema)
        .unwrap()
}

#[test]
fn a_reference_to_the_whole_document_is_unresolvable() {
    // fitbit's `allOf: [{$ref: ""}]`, which the loader writes `#`: read as the document's
    // root, its `required` members were made up and Prism refused 9 bodies.
    let root = json!({"openapi": "3.0.0", "components": {"schemas": {"A": {"type": "string"}}}});
    for reference in ["#", ""] {
        let error = resolve(&root, reference).expect_err(reference);
        assert!(error.starts_with(UNRESOLVED), "{error}");
    }
    assert!(resolve(&root, "#/components/schemas/A").is_ok());
}

#[test]
fn scalars_meet_their_keywords() {
    let root = json!({});
    assert_eq!(
        values(&root, 1, json!({"type": "integer", "minimum": 5})),
        json!(5)
    );
    assert_eq!(
        values(
            &root,
            1,
            json!({"type": "integer", "minimum": 5, "exclusiveMinimum": true})
        ),
        json!(6)
    );
    assert_eq!(
        values(&root, 1, json!({"type": "integer", "exclusiveMaximum": 0})),
        json!(-1)
    );
    assert_eq!(
        values(
            &root,
            1,
            json!({"type": "number", "multipleOf": 0.5, "minimum": 2.2})
        ),
        json!(2.5)
    );
    assert_eq!(
        values(&root, 2, json!({"type": "string", "enum": ["a", "b"]})),
        json!("b")
    );
    assert_eq!(
        values(&root, 1, json!({"type": "string", "minLength": 6})),
        json!("textxx")
    );
    assert_eq!(
        values(&root, 1, json!({"type": "string", "maxLength": 2})),
        json!("te")
    );
    assert_eq!(
        values(&root, 1, json!({"type": "string", "format": "date"})),
        json!("2024-05-06")
    );
    assert_eq!(
        values(
            &root,
            1,
            json!({"type": "string", "pattern": "^v[0-9]+$", "minLength": 4})
        ),
        json!("v111")
    );
    assert_eq!(
        values(&root, 1, json!({"type": ["null", "boolean"]})),
        json!(true)
    );
    assert_eq!(values(&root, 1, json!({"const": "x"})), json!("x"));
}

#[test]
fn objects_arrays_and_references() {
    let root = json!({"components": {"schemas": {
        "Pet": {"type": "object", "required": ["name"], "properties": {
            "id": {"type": "integer", "readOnly": true},
            "name": {"type": "string"},
            "tag": {"type": "string"}
        }},
        "Named": {"allOf": [{"$ref": "#/components/schemas/Pet"}, {"required": ["tag"]}]}
    }}});
    let pet = json!({"$ref": "#/components/schemas/Pet"});
    assert_eq!(values(&root, 1, pet.clone()), json!({"name": "text"}));
    assert_eq!(
        values(&root, 2, pet),
        json!({"name": "some text", "tag": "some text"})
    );
    assert_eq!(
        values(&root, 1, json!({"$ref": "#/components/schemas/Named"})),
        json!({"name": "text", "tag": "text"})
    );
    assert_eq!(
        values(&root, 1, json!({"type": "array", "items": {"type": "integer"}, "minItems": 2, "uniqueItems": true})).as_array().unwrap().len(),
        2
    );
}

#[test]
fn discriminated_unions_are_tagged() {
    let root = json!({"components": {"schemas": {
        "Cat": {"type": "object", "required": ["kind", "meow"], "properties": {"kind": {"type": "string"}, "meow": {"type": "boolean"}}},
        "Dog": {"type": "object", "required": ["kind"], "properties": {"kind": {"type": "string", "enum": ["dog"]}}}
    }}});
    let union = json!({
        "oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}],
        "discriminator": {"propertyName": "kind", "mapping": {"cat": "#/components/schemas/Cat"}}
    });
    assert_eq!(
        values(&root, 1, union.clone()),
        json!({"kind": "cat", "meow": true})
    );
    assert_eq!(
        values(&root, 2, union.clone()),
        json!({"kind": "dog"}),
        "the pinned value"
    );
    let unmapped = json!({
        "oneOf": [{"$ref": "#/components/schemas/Cat"}],
        "discriminator": {"propertyName": "kind"}
    });
    assert_eq!(
        values(&root, 1, unmapped),
        json!({"kind": "Cat", "meow": true}),
        "the schema's name"
    );
    assert_eq!(
        values(
            &root,
            1,
            json!({"anyOf": [{"type": "null"}, {"type": "integer"}]})
        ),
        json!(1)
    );
    // A mapping key the variant's own property forbids: no value fits, and the error says
    // it is the document's (scalar-galaxy's `planet` for a `type` of `terrestrial`, …).
    let contradiction = json!({
        "oneOf": [{"$ref": "#/components/schemas/Dog"}],
        "discriminator": {"propertyName": "kind", "mapping": {"hound": "#/components/schemas/Dog"}}
    });
    let err = Values::new(&root, 1, Rng::new(1, "t"))
        .request(&contradiction)
        .unwrap_err();
    assert!(
        err.contains(CONTRADICTS) && err.contains("`hound`") && err.contains("\"dog\""),
        "{err}"
    );
}

#[test]
fn an_enum_of_no_value_of_its_type_is_the_documents_fault() {
    let root = json!({});
    let schema = json!({"type": "array", "items": {"type": "string"}, "enum": ["a", "b"]});
    let err = Values::new(&root, 1, Rng::new(1, "t"))
        .request(&schema)
        .unwrap_err();
    assert!(
        err.contains(CONTRADICTS) && err.contains("(array)"),
        "{err}"
    );
    // Values of the type are kept, the others left out.
    let mixed = json!({"type": "integer", "enum": ["x", 3]});
    assert_eq!(values(&root, 1, mixed), json!(3));
}
