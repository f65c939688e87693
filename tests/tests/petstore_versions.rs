//! spec/petstore.yaml in OpenAPI 3.1.1 and its OpenAPI 3.0.3 form, kept as
//! tests/fixtures/petstore-3.0.yaml, produce the same Rust code, file for file. Only the name
//! of the source document differs (header lines, the READMEs).

use std::collections::BTreeMap;
use std::path::Path;

fn generate(spec: &str) -> BTreeMap<String, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let text = std::fs::read_to_string(root.join(spec)).unwrap();
    let options = apigen::Options {
        api_name: None,
        name: "petstore".into(),
        spec_label: spec.into(),
        command: "cargo xtask codegen".into(),
        string_formats: false,
        ..Default::default()
    };
    let output = apigen::generate(&text, &options).unwrap_or_else(|e| panic!("{spec}: {e}"));
    assert!(output.warnings.is_empty(), "{spec}: {:?}", output.warnings);
    output.files
}

/// The file with its document's name (the header line, the README's "generated from")
/// replaced by a placeholder: the only place the two outputs may differ.
fn body(text: &str, spec: &str) -> String {
    text.replace(spec, "<document>")
}

#[test]
fn the_3_1_document_says_3_1() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let text = std::fs::read_to_string(root.join("spec/petstore.yaml")).unwrap();
    assert!(text.starts_with("openapi: 3.1.1\n"));
    let old = std::fs::read_to_string(root.join("tests/fixtures/petstore-3.0.yaml")).unwrap();
    assert!(old.contains("\nopenapi: 3.0.3\n"));
}

#[test]
fn openapi_3_0_and_3_1_forms_generate_the_same_code() {
    let new = generate("spec/petstore.yaml");
    let old = generate("tests/fixtures/petstore-3.0.yaml");
    assert_eq!(
        new.keys().collect::<Vec<_>>(),
        old.keys().collect::<Vec<_>>(),
        "the same files"
    );
    let mut differ = Vec::new();
    for (path, text) in &new {
        // The document itself, which the server serves as written: each form its own text.
        if path.starts_with("server/src/document.") {
            continue;
        }
        let a = body(text, "spec/petstore.yaml");
        let b = body(&old[path], "tests/fixtures/petstore-3.0.yaml");
        if a != b {
            // The first differing line, for the failure message.
            if let Some((x, y)) = a.lines().zip(b.lines()).find(|(x, y)| x != y) {
                eprintln!("{path}:\n  3.1: {x}\n  3.0: {y}");
            }
            differ.push(path.clone());
        }
    }
    assert!(
        differ.is_empty(),
        "files that differ beyond their first line: {differ:?} (a change to spec/petstore.yaml \
         belongs in its 3.0 form, tests/fixtures/petstore-3.0.yaml, too)"
    );
}
