//! A Swagger 2.0 document generates the same crates as its OpenAPI 3.0 form written by hand:
//! tests/fixtures/swagger2/kennel.yaml and tests/fixtures/swagger2/kennel-3.0.yaml give the same server,
//! client and command-line crates, file for file and byte for byte but for the document's name
//! (header lines, the READMEs), and the same warnings.

use std::collections::BTreeMap;
use std::path::Path;

fn generate(spec: &str) -> (BTreeMap<String, String>, Vec<String>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let text = std::fs::read_to_string(root.join(spec)).unwrap();
    let options = apigen::Options {
        name: "kennel".into(),
        spec_label: spec.into(),
        command: "cargo xtask codegen".into(),
        ..Default::default()
    };
    let output = apigen::generate_with_cli(&text, &options, "../client")
        .unwrap_or_else(|e| panic!("{spec}: {e}"));
    let warnings = output.warnings.iter().map(|w| w.message.clone()).collect();
    (output.files, warnings)
}

#[test]
fn swagger_2_0_and_its_3_0_form_generate_the_same_crates() {
    let (new, new_warnings) = generate("tests/fixtures/swagger2/kennel.yaml");
    let (old, old_warnings) = generate("tests/fixtures/swagger2/kennel-3.0.yaml");
    assert_eq!(
        new.keys().collect::<Vec<_>>(),
        old.keys().collect::<Vec<_>>(),
        "the same files"
    );
    assert!(new.contains_key("cli/src/lib.rs"));
    let mut differ = Vec::new();
    for (path, text) in &new {
        // The document itself, which the server serves as written: each form its own text.
        if path.starts_with("server/src/document.") {
            continue;
        }
        let a = text.replace("tests/fixtures/swagger2/kennel.yaml", "<document>");
        let b = old[path].replace("tests/fixtures/swagger2/kennel-3.0.yaml", "<document>");
        if a != b {
            if let Some((x, y)) = a.lines().zip(b.lines()).find(|(x, y)| x != y) {
                eprintln!("{path}:\n  2.0: {x}\n  3.0: {y}");
            }
            differ.push(path.clone());
        }
    }
    assert!(differ.is_empty(), "files that differ: {differ:?}");
    assert_eq!(new_warnings, old_warnings);
}
