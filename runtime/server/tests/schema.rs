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
    // values they pin their tag to ends (at a depth bound), and the schema, which would loop
    // on a value, is refused.
    let looping = json!({
        "oneOf": [{"$ref": "#/$defs/a"}, {"$ref": "#/$defs/b"}],
        "discriminator": {"propertyName": "kind"},
        "$defs": {
            "a": {"allOf": [{"$ref": "#/$defs/a"}], "properties": {"x": {"type": "string"}}},
            "b": {"oneOf": [{"$ref": "#/$defs/b"}]}
        }
    });
    let error = Schema::compile(&looping, "", Dialect::OpenApi31)
        .err()
        .unwrap();
    assert!(error.contains("refers to itself"), "{error}");
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

#[test]
fn a_type_list_is_named_whole() {
    let schema = compile(json!({"type": ["string", "integer"]}), Dialect::OpenApi31);
    assert_eq!(
        check(&schema, json!(true)),
        [": must be a string or an integer, got a boolean"]
    );
}

#[test]
fn integers_compare_exactly_beyond_what_a_double_holds() {
    // 2^53 + 1: a double reads it as 2^53.
    let bounded = compile(json!({"maximum": 9007199254740992u64}), Dialect::OpenApi31);
    assert!(bounded.is_valid(&json!(9007199254740992u64)));
    assert!(!bounded.is_valid(&json!(9007199254740993u64)));
    let even = compile(json!({"multipleOf": 2}), Dialect::OpenApi31);
    assert!(!even.is_valid(&json!(9007199254740993u64)));
    assert!(even.is_valid(&json!(9007199254740994u64)));
    // Objects are equal member by member, numbers by value.
    let listed = compile(json!({"enum": [{"a": 1, "b": [2]}]}), Dialect::OpenApi31);
    assert!(listed.is_valid(&json!({"b": [2.0], "a": 1.0})));
    assert!(!listed.is_valid(&json!({"a": 1, "b": [3]})));
}

#[test]
fn a_multiple_of_a_fraction_tolerates_the_doubles_error_relative_to_the_quotient() {
    // 1234567.7 / 0.1 is 12345676.999999998 in doubles.
    let tenths = compile(json!({"multipleOf": 0.1}), Dialect::OpenApi31);
    assert!(tenths.is_valid(&json!(1234567.7)));
    assert!(!tenths.is_valid(&json!(1234567.75)));
}

#[test]
fn every_checked_format_takes_its_grammar_and_nothing_else() {
    let cases = [
        ("uri", "https://example.com/a", "example.com"),
        ("uri-reference", "/a/b?c", "/a#b#c"),
        ("email", "a@example.com", "a@@example.com"),
        ("hostname", "example.com", "-example.com"),
        ("decimal", "12.50", "12,50"),
        (
            "uuid",
            "550e8400-e29b-41d4-a716-446655440000",
            "550e8400e29b41d4a716446655440000",
        ),
        (
            "date-time",
            "2024-06-19T15:22:45Z",
            "2024-06-19T15:22:45+01",
        ),
        ("date", "2024-02-29", "2024-02-30"),
        ("ipv4", "192.0.2.1", "192.0.2.256"),
        ("ipv6", "2001:db8::1", "2001:db8:::1"),
    ];
    let listed: Vec<&str> = cases.iter().map(|(f, _, _)| *f).collect();
    assert_eq!(listed, apigen_server_runtime::schema::CHECKED_FORMATS);
    for (format, good, bad) in cases {
        let schema = compile(json!({ "format": format }), Dialect::OpenApi31);
        assert!(schema.is_valid(&json!(good)), "{format}: {good}");
        assert_eq!(
            check(&schema, json!(bad)),
            [format!(": must be a valid {format}")],
            "{format}: {bad}"
        );
        // A format holds strings only.
        assert!(schema.is_valid(&json!(5)), "{format}");
    }
}

/// `value` as a form's text read by `schema` (`nulls`: a multipart part's `null` is null).
fn read_form(schema: &Schema, value: Value, nulls: bool) -> Value {
    let mut value = value;
    schema.read_form_text(&mut value, nulls);
    value
}

#[test]
fn a_forms_text_is_read_as_the_schema_says() {
    let schema = compile(
        json!({
            "type": "object",
            "properties": {
                "n": {"type": "integer"},
                "ratio": {"type": "number"},
                "flag": {"type": "boolean"},
                "name": {"type": "string"},
                "tags": {"type": "array", "items": {"type": "string"}},
                "pair": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "boolean"}]},
                "meta": {"type": "object", "properties": {"k": {"type": "integer"}}},
                "maybe": {"type": ["integer", "null"]},
                "referenced": {"$ref": "#/$defs/count"},
                "both": {"allOf": [{"$ref": "#/$defs/count"}]}
            },
            "patternProperties": {"^x_": {"type": "integer"}},
            "additionalProperties": {"type": "boolean"},
            "$defs": {"count": {"type": "integer", "minimum": 0}}
        }),
        Dialect::OpenApi31,
    );
    let read = read_form(
        &schema,
        json!({
            "n": "5", "ratio": " 1.5", "flag": "true", "name": "5", "tags": "solo",
            "pair": ["1", "false"], "meta": "{\"k\": 2}", "maybe": "null",
            "referenced": "3", "both": "4", "x_a": "6", "other": "false"
        }),
        true,
    );
    assert_eq!(
        read,
        json!({
            "n": 5, "ratio": 1.5, "flag": true, "name": "5", "tags": ["solo"],
            "pair": [1, false], "meta": {"k": 2}, "maybe": null,
            "referenced": 3, "both": 4, "x_a": 6, "other": false
        })
    );
    // In a url-encoded form `null` is text; where the schema admits no null it stays text
    // whatever the form.
    assert_eq!(
        read_form(&schema, json!({"maybe": "null"}), false),
        json!({"maybe": "null"})
    );
    assert_eq!(
        read_form(&schema, json!({"n": "null"}), true),
        json!({"n": "null"})
    );
    // Text that spells nothing the schema admits stays text, for the check to name: an
    // object's JSON where a list is due is one item, a list's JSON where an object is due text.
    assert_eq!(
        read_form(&schema, json!({"n": "five"}), true),
        json!({"n": "five"})
    );
    assert_eq!(
        read_form(&schema, json!({"tags": "{\"a\": 1}", "meta": "[1]"}), true),
        json!({"tags": ["{\"a\": 1}"], "meta": "[1]"})
    );
}

#[test]
fn a_forms_nullable_text_follows_the_dialect() {
    let nullable = compile(
        json!({"properties": {"n": {"type": "integer", "nullable": true}, "m": {"nullable": true}}}),
        Dialect::OpenApi30,
    );
    assert_eq!(
        read_form(&nullable, json!({"n": "null", "m": "null"}), true),
        json!({"n": null, "m": "null"})
    );
}

#[test]
fn in_a_forms_union_the_first_branch_whose_reading_fits_decides() {
    let schema = compile(
        json!({"properties": {
            "either": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
            "one": {"oneOf": [{"type": "boolean"}, {"type": "integer"}]},
            "guests": {"anyOf": [
                {"type": "array", "items": {"type": "object", "required": ["name"],
                    "properties": {"name": {"type": "string"}, "age": {"type": "integer"}}}},
                {"type": "integer"}
            ]}
        }}),
        Dialect::OpenApi31,
    );
    // Text a branch takes as it is stays text.
    assert_eq!(
        read_form(&schema, json!({"either": "5"}), false),
        json!({"either": "5"})
    );
    assert_eq!(
        read_form(&schema, json!({"one": "7"}), false),
        json!({"one": 7})
    );
    // Refused whatever the reading: read by every branch, so the refusal names the member.
    let read = read_form(&schema, json!({"guests": [{"age": "30"}]}), false);
    assert_eq!(read, json!({"guests": [{"age": 30}]}));
    assert_eq!(
        check(&schema, read),
        [
            "/guests: must match at least one of the 2 schemas of anyOf, matches none (#0: \
             /guests/0/name: is required; #1: must be an integer, got an array)"
        ]
    );
}

#[test]
fn a_union_matched_twice_names_both_branches() {
    let schema = compile(
        json!({"oneOf": [{"type": "integer"}, {"minimum": 0}, {"type": "string"}]}),
        Dialect::OpenApi31,
    );
    assert_eq!(
        check(&schema, json!(3)),
        [": must match exactly one schema of oneOf, matches #0 and #1"]
    );
    let listed = compile(
        json!({"enum": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]}),
        Dialect::OpenApi31,
    );
    let ten = compile(
        json!({"enum": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}),
        Dialect::OpenApi31,
    );
    let eleven = check(&listed, json!(0));
    let just_ten = check(&ten, json!(0));
    assert!(eleven[0].ends_with("10, …"), "{eleven:?}");
    assert!(just_ten[0].ends_with("9, 10"), "{just_ten:?}");
}

#[test]
fn a_schema_that_reaches_itself_in_place_is_refused_where_it_loops() {
    // Checking `"x"` against it would never end.
    for looping in [
        json!({"anyOf": [{"$ref": "#"}, {"type": "integer"}]}),
        json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}},
               "properties": {"p": {"$ref": "#/$defs/a"}}}),
        json!({"not": {"if": {"$ref": "#"}}}),
    ] {
        let error = Schema::compile(&looping, "", Dialect::OpenApi31)
            .err()
            .unwrap_or_else(|| panic!("{looping} compiled"));
        assert!(error.contains("refers to itself"), "{error}");
    }
    // Through a member or an item it ends with the value.
    let tree = compile(
        json!({"type": "object", "properties": {
            "children": {"type": "array", "items": {"$ref": "#"}},
            "parent": {"anyOf": [{"$ref": "#"}, {"type": "null"}]}
        }}),
        Dialect::OpenApi31,
    );
    assert!(tree.is_valid(&json!({"children": [{"children": []}], "parent": null})));
    assert!(!tree.is_valid(&json!({"children": [5]})));
}
