//! The schema checker's OpenAPI side, which JSON Schema's suite (`schema_suite.rs`) does not
//! reach: 3.0's `nullable`, the formats the server checks, `$dynamicRef`, the messages of
//! `not` and of a union that nothing fits, discriminators through cycles, the places left
//! unchecked, and `Held`, a body's schema in the served document.

use apigen_server_runtime::document::Document;
use apigen_server_runtime::schema::{Dialect, Held, Schema};
use apigen_server_runtime::validate::Violations;
use serde_json::{Value, json};

fn compile(schema: Value, dialect: Dialect) -> Schema {
    Schema::compile(&schema, "", dialect).unwrap_or_else(|e| panic!("{schema}: {e}"))
}

/// Each violation as `pointer: message`.
fn check(schema: &Schema, value: Value) -> Vec<String> {
    let mut out = Violations::new();
    schema.check(&value, "", &mut out);
    assert_eq!(schema.is_valid(&value), out.is_empty(), "{value}");
    out.as_slice()
        .iter()
        .map(|v| format!("{}: {}", v.pointer, v.message))
        .collect()
}

#[test]
fn nullable_admits_null_only_where_it_is_written() {
    for dialect in [Dialect::OpenApi30, Dialect::OpenApi31] {
        let nullable = compile(json!({"type": "string", "nullable": true}), dialect);
        assert!(nullable.is_valid(&json!(null)) && nullable.is_valid(&json!("a")));
        let plain = compile(json!({"type": "string"}), dialect);
        assert!(!plain.is_valid(&json!(null)));
        let not_nullable = compile(json!({"type": "string", "nullable": false}), dialect);
        assert!(!not_nullable.is_valid(&json!(null)));
    }
    // 3.0: beside a `$ref` only `nullable` counts.
    let referenced = compile(
        json!({"$ref": "#/$defs/s", "nullable": true, "$defs": {"s": {"type": "string"}}}),
        Dialect::OpenApi30,
    );
    assert!(referenced.is_valid(&json!(null)) && !referenced.is_valid(&json!(1)));
}

#[test]
fn a_type_listed_twice_is_listed_once() {
    let schema = compile(json!({"type": ["string", "string"]}), Dialect::OpenApi31);
    assert!(schema.is_valid(&json!("a")));
    assert_eq!(
        check(&schema, json!(5)),
        [": must be a string, got a number"]
    );
}

#[test]
fn checked_formats_hold_strings_to_their_grammar() {
    let date = compile(
        json!({"type": "string", "format": "date"}),
        Dialect::OpenApi31,
    );
    assert!(date.is_valid(&json!("2024-02-29")));
    assert_eq!(
        check(&date, json!("2023-02-29")),
        [": must be a valid date"]
    );
    // A format the server does not check is an annotation.
    let other = compile(json!({"format": "color"}), Dialect::OpenApi31);
    assert!(other.is_valid(&json!("not a color")));
}

#[test]
fn a_dynamic_reference_in_the_document_is_followed_as_a_plain_one() {
    let schema = compile(
        json!({
            "type": "object",
            "properties": {
                "child": {"$dynamicRef": "#"},
                "count": {"$dynamicRef": "#/$defs/count"}
            },
            "$defs": {"count": {"minimum": 0}}
        }),
        Dialect::OpenApi31,
    );
    assert!(schema.is_valid(&json!({"child": {"count": 1}, "count": 0})));
    assert!(!schema.is_valid(&json!({"child": 5})));
    assert!(!schema.is_valid(&json!({"count": -1})));
    assert!(!schema.is_valid(&json!({"child": {"count": -1}})));
}

#[test]
fn a_count_that_is_not_a_whole_number_is_not_read() {
    let whole = compile(json!({"maxLength": 1.0}), Dialect::OpenApi31);
    assert!(!whole.is_valid(&json!("ab")));
    let fraction = compile(json!({"maxLength": 1.5}), Dialect::OpenApi31);
    assert!(fraction.is_valid(&json!("ab")));
}

#[test]
fn not_of_required_names_what_must_not_all_be_there() {
    let schema = compile(
        json!({"not": {"required": ["image_url", "file_id"]}}),
        Dialect::OpenApi31,
    );
    assert!(schema.is_valid(&json!({"image_url": "u"})));
    assert_eq!(
        check(&schema, json!({"image_url": "u", "file_id": "f"})),
        [": must not have all of `image_url`, `file_id`"]
    );
    // A `not` that says more than `required` gets the general message.
    for more in [
        json!({"required": ["a"], "maxProperties": 5}),
        json!({"required": ["a"], "type": "object"}),
        json!({"required": ["a"], "properties": {"a": {}}}),
        json!({"required": ["a"], "minProperties": 1}),
        json!({"required": ["a"], "enum": [{"a": 1}]}),
    ] {
        let schema = compile(json!({ "not": more }), Dialect::OpenApi31);
        assert_eq!(
            check(&schema, json!({"a": 1})),
            [": must not match the schema of `not`"],
            "{more}"
        );
    }
}

#[test]
fn a_union_nothing_fits_says_why_each_branch_refused() {
    let schema = compile(
        json!({"oneOf": [
            {"type": "string"},
            {"type": "object", "properties": {"n": {"type": "integer"}}}
        ]}),
        Dialect::OpenApi31,
    );
    assert_eq!(
        check(&schema, json!({"n": "x"})),
        [
            ": must match exactly one of the 2 schemas of oneOf, matches none (#0: must be a \
             string, got an object; #1: /n: must be an integer, got a string)"
        ]
    );
}

#[test]
fn discriminators_through_cycles_end() {
    // Branches that refer to themselves through `allOf` and through `oneOf`: looking for the
    // values they pin their tag to ends (at a depth bound), and the union still checks.
    let schema = compile(
        json!({
            "oneOf": [{"$ref": "#/$defs/a"}, {"$ref": "#/$defs/b"}],
            "discriminator": {"propertyName": "kind"},
            "$defs": {
                "a": {"allOf": [{"$ref": "#/$defs/a"}], "properties": {"x": {"type": "string"}}},
                "b": {"oneOf": [{"$ref": "#/$defs/b"}]}
            }
        }),
        Dialect::OpenApi31,
    );
    assert!(!schema.is_valid(&json!({"kind": "c"})));
}

#[test]
fn a_pattern_the_engine_cannot_read_is_said_not_checked() {
    let schema = compile(
        json!({"properties": {"name": {"pattern": "^\\p{Letter}+$"}}}),
        Dialect::OpenApi31,
    );
    assert_eq!(schema.unchecked().len(), 1);
    assert!(
        schema.unchecked()[0].starts_with("/properties/name/pattern: "),
        "{:?}",
        schema.unchecked()
    );
    assert!(schema.is_valid(&json!({"name": "123"})));
    assert!(
        compile(json!({"pattern": "^a+$"}), Dialect::OpenApi31)
            .unchecked()
            .is_empty()
    );
}

static SMALL: Document = Document {
    json: r##"{"components": {"schemas": {
        "Body": {"type": "object", "properties": {"n": {"type": "integer", "maximum": 3}}},
        "Broken": {"$ref": "#/components/schemas/Nowhere"}
    }}}"##,
    yaml: "",
    title: "small",
};

static LARGE: Document = Document {
    json: r##"{"components": {"schemas": {
        "Body": {"type": "object", "properties": {"n": {"type": "integer", "maximum": 300}}}
    }}}"##,
    yaml: "",
    title: "large",
};

static SMALL_BODY: Held = Held::new(&SMALL, "/components/schemas/Body", true);
static LARGE_BODY: Held = Held::new(&LARGE, "/components/schemas/Body", true);
static BROKEN: Held = Held::new(&SMALL, "/components/schemas/Broken", true);

fn held(schema: &Held, value: Value, form: bool) -> Vec<String> {
    let mut out = Violations::new();
    if form {
        schema.check_form(&value, "body", &mut out, false);
    } else {
        schema.check_typed(&value, "body", &mut out);
    }
    out.as_slice()
        .iter()
        .map(|v| format!("{}: {}", v.pointer, v.message))
        .collect()
}

#[test]
fn a_held_schema_checks_against_its_own_document() {
    assert!(held(&SMALL_BODY, json!({"n": 3}), false).is_empty());
    assert_eq!(
        held(&SMALL_BODY, json!({"n": 4}), false),
        ["body/n: must be at most 3, got 4"]
    );
    // Two documents served by one process: each schema is read from its own.
    assert!(held(&LARGE_BODY, json!({"n": 4}), false).is_empty());
    assert_eq!(held(&SMALL_BODY, json!({"n": 4}), false).len(), 1);
    assert!(SMALL_BODY.schema().is_some());
}

#[test]
fn a_held_form_reads_its_text_as_the_schema_says_first() {
    assert!(held(&SMALL_BODY, json!({"n": "2"}), true).is_empty());
    assert_eq!(
        held(&SMALL_BODY, json!({"n": "4"}), true),
        ["body/n: must be at most 3, got 4"]
    );
    // As a typed value, text is text.
    assert_eq!(
        held(&SMALL_BODY, json!({"n": "2"}), false),
        ["body/n: must be an integer, got a string"]
    );
}

#[test]
fn a_schema_that_cannot_be_compiled_checks_nothing() {
    assert!(BROKEN.schema().is_none());
    assert!(held(&BROKEN, json!({"anything": true}), false).is_empty());
}
