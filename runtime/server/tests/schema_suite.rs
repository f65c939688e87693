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
/// that fits both is the one it names; a value without the tag, or with an unknown one, is
/// refused, naming the property.
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
    let schema =
        Schema::compile(&document, "/components/schemas/Member", Dialect::OpenApi30).unwrap();
    let judge = |value: Value| {
        let mut out = Violations::new();
        schema.check(&value, "", &mut out);
        assert_eq!(out.is_empty(), schema.is_valid(&value), "{value}");
        out.as_slice()
            .iter()
            .map(|v| format!("{}: {}", v.pointer, v.message))
            .collect::<Vec<_>>()
    };
    // Fits both branches; the tag names one.
    assert!(judge(serde_json::json!({"kind": "kid", "name": "T", "guardian": "A"})).is_empty());
    assert!(judge(serde_json::json!({"kind": "Adult", "name": "A"})).is_empty());
    assert_eq!(
        judge(serde_json::json!({"kind": "Child", "name": "T"})),
        ["/guardian: is required"]
    );
    assert_eq!(
        judge(serde_json::json!({"name": "T"})),
        ["/kind: is required (it names the schema the value is)"]
    );
    let unknown = judge(serde_json::json!({"kind": "robot", "name": "R"}));
    assert_eq!(unknown.len(), 1);
    assert!(
        unknown[0].starts_with("/kind: must be one of kid, Adult, Child"),
        "{unknown:?}"
    );
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
