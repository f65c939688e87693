//! `runtime::schema` against JSON Schema's own test suite (tests/fixtures/json-schema-suite,
//! both drafts): every group whose schema compiles must judge every value as the suite says.
//! A group that does not compile must be one the module's decisions leave out (a remote,
//! `$id`-relative or anchor reference), named below with why; so must a file left out whole.

use std::fs;
use std::path::PathBuf;

use apigen_server_runtime::schema::{Dialect, Schema};
use apigen_server_runtime::validate::Violations;
use serde_json::Value;

/// Files whose keywords the module does not hold, by decision (module docs of `schema`).
const LEFT_OUT: &[(&str, &str)] = &[
    ("dynamicRef", "`$dynamicRef` beyond a plain reference"),
    (
        "unevaluatedItems",
        "`unevaluatedItems` (a generation warning)",
    ),
    (
        "unevaluatedProperties",
        "`unevaluatedProperties` (a generation warning)",
    ),
    ("refRemote", "references to other documents by URL"),
    ("vocabulary", "custom metaschemas"),
    ("anchor", "`$anchor` references"),
    ("defs", "references to the metaschema by URL"),
    ("id", "`$id`-relative references"),
    (
        "format",
        "2020-12 makes `format` an annotation; apigen asserts the formats it checks, as \
         OpenAPI's typed readers do (a `uuid` field is a `Uuid`)",
    ),
];

fn suite(draft: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/json-schema-suite")
        .join(draft)
}

/// A reference the module leaves out: to another document, or relative to an `$id`.
fn uses_identifiers(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => map.iter().any(|(k, v)| {
            let identifier = matches!(k.as_str(), "$id" | "id" | "$anchor" | "$dynamicAnchor");
            let elsewhere = k == "$ref" && v.as_str().is_some_and(|r| !r.starts_with('#'));
            (identifier && v.is_string()) || elsewhere || uses_identifiers(v)
        }),
        Value::Array(items) => items.iter().any(uses_identifiers),
        _ => false,
    }
}

fn run(draft: &str, dialect: Dialect) -> (usize, usize, Vec<String>) {
    let mut files: Vec<PathBuf> = fs::read_dir(suite(draft))
        .expect("the suite's folder")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let (mut cases, mut passed, mut failures) = (0, 0, Vec::new());
    let mut unchecked = 0;
    for path in files {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        if LEFT_OUT.iter().any(|(f, _)| *f == stem) {
            continue;
        }
        let groups: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
        for (g, group) in groups.as_array().unwrap().iter().enumerate() {
            let schema = &group["schema"];
            // Left out: references by identifier, and groups about `unevaluated*`.
            if uses_identifiers(schema) || schema.to_string().contains("\"unevaluated") {
                continue;
            }
            let compiled = match Schema::compile(schema, "", dialect) {
                Ok(s) => s,
                Err(e) => {
                    failures.push(format!("{stem} #{g}: does not compile: {e}"));
                    continue;
                }
            };
            for test in group["tests"].as_array().unwrap() {
                cases += 1;
                let data = &test["data"];
                let valid = test["valid"].as_bool().unwrap();
                let mut out = Violations::new();
                compiled.check(data, "", &mut out);
                let quick = compiled.is_valid(data);
                if out.is_empty() == valid && quick == valid {
                    passed += 1;
                } else if !compiled.unchecked().is_empty() {
                    // A pattern regex-lite cannot read: said, not checked (`Schema::unchecked`).
                    unchecked += 1;
                } else {
                    failures.push(format!(
                        "{stem} #{g} {:?}: {:?} data {data}: valid {valid}, check {:?}, is_valid {quick}",
                        group["description"], test["description"], out.as_slice()
                    ));
                }
            }
        }
    }
    // Two groups of 2020-12 (`\p{Letter}` in a pattern and a pattern property).
    assert!(unchecked <= 4, "{unchecked} cases fail on unread patterns");
    (cases, passed, failures)
}

#[test]
fn draft2020_12() {
    let (cases, passed, failures) = run("draft2020-12", Dialect::OpenApi31);
    assert!(cases > 800, "{cases} cases");
    assert!(
        failures.is_empty(),
        "{passed} of {cases} pass;\n{}",
        failures.join("\n")
    );
}

#[test]
fn draft4() {
    let (cases, passed, failures) = run("draft4", Dialect::OpenApi30);
    assert!(cases > 400, "{cases} cases");
    assert!(
        failures.is_empty(),
        "{passed} of {cases} pass;\n{}",
        failures.join("\n")
    );
}

/// OpenAPI's `discriminator` (no test of the suite's): the tag decides the branch, so a value
/// that fits both is the one it names; a value with an unknown tag is refused naming the
/// property; one without the tag is held to `oneOf` as JSON Schema reads it (here both
/// branches require the tag, so it is refused, naming it in each branch).
#[test]
fn a_discriminator_decides_the_branch() {
    let document = serde_json::json!({"components": {"schemas": {
        "Member": {
            "oneOf": [{"$ref": "#/components/schemas/Adult"}, {"$ref": "#/components/schemas/Child"}],
            "discriminator": {"propertyName": "kind", "mapping": {"kid": "#/components/schemas/Child"}}
        },
        "Adult": {"type": "object", "required": ["kind", "name"],
                  "properties": {"kind": {"type": "string"}, "name": {"type": "string"}}},
        "Child": {"type": "object", "required": ["kind", "name", "guardian"],
                  "properties": {"kind": {"type": "string"}, "name": {"type": "string"},
                                 "guardian": {"type": "string"}}}
    }}});
    let judge = judge_of(&document, "/components/schemas/Member", Dialect::OpenApi30);
    // Fits both branches; the tag names one.
    assert!(judge(serde_json::json!({"kind": "kid", "name": "T", "guardian": "A"})).is_empty());
    assert!(judge(serde_json::json!({"kind": "Adult", "name": "A"})).is_empty());
    assert_eq!(
        judge(serde_json::json!({"kind": "Child", "name": "T"})),
        ["/guardian: is required"]
    );
    let untagged = judge(serde_json::json!({"name": "T"}));
    assert_eq!(untagged.len(), 1);
    assert!(
        untagged[0].starts_with(": must match exactly one of the 2 schemas of oneOf, matches none")
            && untagged[0].contains("/kind: is required"),
        "{untagged:?}"
    );
    let unknown = judge(serde_json::json!({"kind": "robot", "name": "R"}));
    assert_eq!(unknown.len(), 1);
    assert!(
        unknown[0].starts_with("/kind: must be one of kid, Adult, Child"),
        "{unknown:?}"
    );
}

/// A discriminator without `mapping` whose branches pin the tag (openai's chat messages,
/// `role: {enum: [developer]}`): the pinned values name the branches as the component names
/// do (both are read; schemathesis and the API send the pinned ones). A branch that does not
/// require the tag takes a value without it, as JSON Schema says (scalar-galaxy's
/// `CelestialBody`); `defaultMapping` (3.2) names the branch for such a value.
#[test]
fn a_discriminator_reads_pinned_values_and_a_missing_tag_by_the_branches() {
    let document = serde_json::json!({"components": {"schemas": {
        "Message": {
            "oneOf": [{"$ref": "#/components/schemas/Developer"}, {"$ref": "#/components/schemas/User"}],
            "discriminator": {"propertyName": "role"}
        },
        "Developer": {"type": "object", "required": ["role", "content"], "properties": {
            "role": {"type": "string", "enum": ["developer"]}, "content": {"type": "string"}}},
        "User": {"allOf": [{"$ref": "#/components/schemas/Base"}, {"properties": {"role": {"const": "user"}}}]},
        "Base": {"type": "object", "required": ["content"], "properties": {"content": {"type": "string"}}},
        "Body": {
            "oneOf": [{"$ref": "#/components/schemas/Planet"}, {"$ref": "#/components/schemas/Moon"}],
            "discriminator": {"propertyName": "type", "mapping": {"dwarf": "#/components/schemas/Planet"}}
        },
        "Planet": {"type": "object", "required": ["name"], "additionalProperties": false,
                   "properties": {"name": {"type": "string"}, "type": {"type": "string"}}},
        "Moon": {"type": "object", "required": ["name", "orbit"],
                 "properties": {"name": {"type": "string"}, "orbit": {"type": "object"}}},
        "Defaulted": {
            "oneOf": [{"$ref": "#/components/schemas/Planet"}, {"$ref": "#/components/schemas/Moon"}],
            "discriminator": {"propertyName": "type", "mapping": {"dwarf": "Planet"},
                              "defaultMapping": "Moon"}
        }
    }}});
    let message = judge_of(&document, "/components/schemas/Message", Dialect::OpenApi31);
    assert!(message(serde_json::json!({"role": "developer", "content": ""})).is_empty());
    assert!(message(serde_json::json!({"role": "user", "content": ""})).is_empty());
    // The component's name names the branch too, whose own `enum` then refuses it.
    assert_eq!(
        message(serde_json::json!({"role": "Developer", "content": ""})).len(),
        1
    );
    assert_eq!(
        message(serde_json::json!({"role": "developer"})),
        ["/content: is required"]
    );
    // A branch that is itself a union pins each of its variants' values (openai's `Item`
    // among the `InputItem`s: `apply_patch_call_output` names `Item`).
    let nested = serde_json::json!({"components": {"schemas": {
        "Input": {
            "anyOf": [{"$ref": "#/components/schemas/Easy"}, {"$ref": "#/components/schemas/Item"}],
            "discriminator": {"propertyName": "type"}
        },
        "Easy": {"type": "object", "properties": {"type": {"enum": ["message"]}}},
        "Item": {"oneOf": [
            {"type": "object", "required": ["call_id"], "properties": {"type": {"const": "patch_output"}, "call_id": {"type": "string"}}},
            {"type": "object", "properties": {"type": {"const": "reasoning"}}}
        ]}
    }}});
    let input = judge_of(&nested, "/components/schemas/Input", Dialect::OpenApi31);
    assert!(input(serde_json::json!({"type": "patch_output", "call_id": "0"})).is_empty());
    assert!(input(serde_json::json!({"type": "reasoning"})).is_empty());
    assert_eq!(input(serde_json::json!({"type": "patch_output"})).len(), 1);
    let body = judge_of(&document, "/components/schemas/Body", Dialect::OpenApi31);
    // No tag: only Moon fits (Planet takes no `orbit`).
    assert!(body(serde_json::json!({"name": "Phobos", "orbit": {}})).is_empty());
    assert!(body(serde_json::json!({"name": "Ceres"})).is_empty());
    // No tag, fits neither: refused naming both branches.
    let neither = body(serde_json::json!({"name": "X", "orbit": 1}));
    assert!(
        neither.len() == 1 && neither[0].contains("matches none"),
        "{neither:?}"
    );
    let defaulted = judge_of(
        &document,
        "/components/schemas/Defaulted",
        Dialect::OpenApi31,
    );
    // No tag: the default branch alone decides.
    assert_eq!(
        defaulted(serde_json::json!({"name": "Ceres"})),
        ["/orbit: is required"]
    );
    assert!(defaulted(serde_json::json!({"name": "Ceres", "type": "dwarf"})).is_empty());
}

/// 3.0's `nullable: true` beside a `$ref` admits `null`, as the generator's types read it
/// (openai's `{$ref: AssistantsApiResponseFormatOption, nullable: true}`); nothing else beside
/// the reference counts.
#[test]
fn nullable_beside_a_reference_admits_null_in_3_0() {
    let document = serde_json::json!({"components": {"schemas": {
        "Format": {"oneOf": [{"type": "string"}, {"type": "object"}]},
        "Holder": {"type": "object", "properties": {
            "format": {"$ref": "#/components/schemas/Format", "nullable": true, "maxLength": 1},
            "strict": {"$ref": "#/components/schemas/Format"}}}
    }}});
    let judge = judge_of(&document, "/components/schemas/Holder", Dialect::OpenApi30);
    assert!(judge(serde_json::json!({"format": null})).is_empty());
    assert!(judge(serde_json::json!({"format": "long"})).is_empty());
    assert_eq!(judge(serde_json::json!({"strict": null})).len(), 1);
    assert_eq!(judge(serde_json::json!({"format": 1})).len(), 1);
}

/// A form's fields are text: where the body's type leaves one as text (discord's invite form,
/// an `allOf` of an `anyOf`, is held as a JSON value), the text is read as the schema says
/// before the walk: `"0"` an integer in whichever branch fits, a lone field an array of one,
/// a JSON part an array of objects, `null` JSON's null only in a multipart part. Text no
/// reading fits stays text and is refused naming the place.
#[test]
fn a_form_s_text_is_read_as_its_schema_says() {
    let document = serde_json::json!({"components": {"schemas": {
        "Invite": {"allOf": [
            {"anyOf": [
                {"type": "object", "properties": {"max_age": {"type": ["integer", "null"], "minimum": 1}}},
                {"type": "object", "properties": {
                    "max_age": {"type": ["integer", "null"], "minimum": 0},
                    "unique": {"type": ["boolean", "null"]},
                    "role_ids": {"type": "array", "items": {"type": "integer"}}}}
            ]},
            {"type": "object", "properties": {
                "embeds": {"type": "array", "items": {"type": "object", "required": ["title"]}},
                "file": {"type": "string"}}}
        ]}
    }}});
    let schema =
        Schema::compile(&document, "/components/schemas/Invite", Dialect::OpenApi31).unwrap();
    let read = |form: Value, nulls: bool| {
        let mut value = form;
        schema.read_form_text(&mut value, nulls);
        let mut out = Violations::new();
        schema.check(&value, "", &mut out);
        let found: Vec<String> = out
            .as_slice()
            .iter()
            .map(|v| format!("{}: {}", v.pointer, v.message))
            .collect();
        (value, found)
    };
    let (value, found) = read(
        serde_json::json!({"max_age": "0", "unique": "true", "role_ids": "7",
            "embeds": "[{\"title\": \"hi\"}]", "file": "0"}),
        true,
    );
    assert!(found.is_empty(), "{found:?}");
    assert_eq!(
        value,
        serde_json::json!({"max_age": 0, "unique": true, "role_ids": [7],
            "embeds": [{"title": "hi"}], "file": "0"})
    );
    // `null` is JSON's null in a multipart part, text in a url-encoded form.
    assert!(
        read(serde_json::json!({"max_age": "null"}), true)
            .1
            .is_empty()
    );
    assert_eq!(
        read(serde_json::json!({"max_age": "null"}), false).1.len(),
        1
    );
    // Text that spells nothing the schema admits stays text, named.
    let (_, found) = read(serde_json::json!({"max_age": "soon"}), true);
    assert!(
        !found.is_empty() && found[0].contains("max_age"),
        "{found:?}"
    );
    let (_, found) = read(serde_json::json!({"embeds": "[{}]"}), true);
    assert!(
        found.iter().any(|f| f.starts_with("/embeds/0/title")),
        "{found:?}"
    );
}

/// The violations a schema of `document` finds in a value, each `pointer: message`; both
/// ways of walking are asked and must agree.
fn judge_of(document: &Value, pointer: &str, dialect: Dialect) -> impl Fn(Value) -> Vec<String> {
    let schema = Schema::compile(document, pointer, dialect).unwrap();
    move |value: Value| {
        let mut out = Violations::new();
        schema.check(&value, "", &mut out);
        assert_eq!(out.is_empty(), schema.is_valid(&value), "{value}");
        out.as_slice()
            .iter()
            .map(|v| format!("{}: {}", v.pointer, v.message))
            .collect::<Vec<_>>()
    }
}

/// A required property that is `readOnly` is required in answers only (OpenAPI): a request
/// without it is valid (scalar-galaxy's `id`, which schemathesis leaves out of requests).
#[test]
fn a_read_only_required_property_is_not_required_of_a_request() {
    let document = serde_json::json!({"components": {"schemas": {
        "Planet": {"type": "object", "required": ["id", "name"], "properties": {
            "id": {"$ref": "#/components/schemas/Id"}, "name": {"type": "string"}}},
        "Id": {"type": "integer", "readOnly": true}
    }}});
    let schema =
        Schema::compile(&document, "/components/schemas/Planet", Dialect::OpenApi31).unwrap();
    assert!(schema.is_valid(&serde_json::json!({"name": "Mars"})));
    assert!(!schema.is_valid(&serde_json::json!({"id": 1})));
}

/// A Swagger 2.0 parameter object is walked as its own schema (it has no `schema`): `name`,
/// `in`, `required: true` and `collectionFormat` are not keywords the walk reads, its `type`,
/// `items` and `enum` are (`swagger-parser-issue-597`: an array whose `enum` lists strings, so
/// no value is one of them).
#[test]
fn a_swagger_2_parameter_object_is_its_own_schema() {
    let document = serde_json::json!({"paths": {"/t": {"get": {"parameters": [
        {"name": "status", "in": "query", "required": true, "type": "array",
         "items": {"type": "string"}, "collectionFormat": "csv", "enum": ["available", "sold"]},
        {"name": "level", "in": "query", "type": "integer", "enum": [1, 2]}
    ]}}}});
    let status = judge_of(&document, "/paths/~1t/get/parameters/0", Dialect::OpenApi30);
    assert_eq!(
        status(serde_json::json!(["available"])),
        [": must be one of \"available\", \"sold\""]
    );
    let level = judge_of(&document, "/paths/~1t/get/parameters/1", Dialect::OpenApi30);
    assert!(level(serde_json::json!(2)).is_empty());
    assert_eq!(level(serde_json::json!(3)).len(), 1);
}
