//! insta snapshots of every generated file, so a change in output is a reviewed change:
//! `cargo insta review` or `INSTA_UPDATE=always cargo test`. The crates are generated as the
//! workspace's are, depending on the runtime crates by path; the vendored form (runtime
//! copies, which are verbatim copies of `runtime/*/src`) is checked for its file list and
//! the lines that differ.

use std::path::Path;

fn generate(spec: &str, name: &str) -> apigen::Output {
    generate_with(spec, name, workspace_runtime())
}

/// The runtime as the workspace's generated crates get it: `tests/generated/<name>-server`
/// sees `runtime/` at `../../../runtime`.
fn workspace_runtime() -> apigen::RuntimeSource {
    apigen::RuntimeSource::Crates {
        path: Some("../../../runtime".into()),
    }
}

fn generate_with(spec: &str, name: &str, runtime: apigen::RuntimeSource) -> apigen::Output {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let text = std::fs::read_to_string(root.join(spec)).unwrap();
    let options = apigen::Options {
        api_name: None,
        name: name.into(),
        spec_label: spec.into(),
        command: "cargo xtask codegen".into(),
        string_formats: false,
        runtime,
        select: Default::default(),
        without_tag_features: false,
    };
    apigen::generate(&text, &options).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

/// The files generated for every document (the vendored form adds the runtime copies): a
/// file added or dropped is a reviewed change of this list.
const GENERATED: &[&str] = &[
    "client/Cargo.toml",
    "client/README.md",
    "client/src/client.rs",
    "client/src/lib.rs",
    "client/src/types.rs",
    "server/Cargo.toml",
    "server/README.md",
    "server/src/api.rs",
    "server/src/bin/mock.rs",
    "server/src/document.json",
    "server/src/document.rs",
    "server/src/document.yaml",
    "server/src/lib.rs",
    "server/src/mock.rs",
    "server/src/router.rs",
    "server/src/types.rs",
];

/// The paths of the runtime copies: one per file of `runtime/<side>/src`, its folders' too
/// (the server's modules are grouped by concern, `reading/params.rs`); its `lib.rs` becomes
/// `runtime/mod.rs`.
fn runtime_copies() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut paths = Vec::new();
    for side in ["client", "server"] {
        let src = root.join("runtime").join(side).join("src");
        let mut folders = vec![src.clone()];
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    folders.push(path);
                    continue;
                }
                let name = path
                    .strip_prefix(&src)
                    .unwrap()
                    .to_str()
                    .unwrap()
                    .to_owned();
                let name = if name == "lib.rs" {
                    "mod.rs".into()
                } else {
                    name
                };
                paths.push(format!("{side}/src/runtime/{name}"));
            }
        }
    }
    paths
}

fn snapshot_all(spec: &str, name: &str) {
    snapshot_with(spec, name, &[]);
}

/// As [`snapshot_all`], for a document that also makes the files `extra` (`webhooks.rs`).
fn snapshot_with(spec: &str, name: &str, extra: &[&str]) {
    let output = generate(spec, name);
    let mut expected: Vec<String> = GENERATED
        .iter()
        .chain(extra)
        .map(|p| p.to_string())
        .collect();
    expected.sort();
    // A BTreeMap: its keys come sorted.
    let paths: Vec<String> = output.files.keys().cloned().collect();
    assert_eq!(paths, expected, "{spec}: the generated file list");
    for (path, text) in &output.files {
        // The document itself, as written (the reference service's test compares it with
        // the spec); a snapshot would only repeat the fixture.
        if is_document_text(path) {
            continue;
        }
        let snapshot = format!("{name}__{}", path.replace('/', "__"));
        insta::with_settings!({ snapshot_path => "snapshots", prepend_module_to_snapshot => false }, {
            insta::assert_snapshot!(snapshot, text);
        });
    }
}

#[test]
fn petstore_output() {
    snapshot_all("spec/petstore.yaml", "petstore");
}

#[test]
fn library_fixture_output() {
    snapshot_all("tests/fixtures/library.yaml", "library");
}

#[test]
fn constructs_fixture_output() {
    snapshot_all("tests/fixtures/constructs.yaml", "constructs");
}

#[test]
fn oas31_fixture_output() {
    snapshot_all("tests/fixtures/oas31.yaml", "oas31");
}

#[test]
fn oas32_fixture_output() {
    snapshot_with(
        "tests/fixtures/oas32.yaml",
        "oas32",
        &["client/src/webhooks.rs", "server/src/webhooks.rs"],
    );
}

#[test]
fn adversarial_fixture_output() {
    snapshot_all("tests/fixtures/adversarial.yaml", "adversarial");
}

#[test]
fn paging_fixture_output() {
    snapshot_all("tests/fixtures/paging.yaml", "paging");
}

#[test]
fn routing_fixture_output() {
    snapshot_all("tests/fixtures/routing.yaml", "routing");
}

#[test]
fn output_is_deterministic() {
    let a = generate("spec/petstore.yaml", "petstore");
    let b = generate("spec/petstore.yaml", "petstore");
    assert_eq!(a.files, b.files);
}

/// `server/src/document.json` and `.yaml`: the document's texts, which `document.rs` includes.
fn is_document_text(path: &str) -> bool {
    path == "server/src/document.json" || path == "server/src/document.yaml"
}

/// Every file but the document's two texts, which are the document as it is served (JSON
/// has no comment; the one written by hand is kept byte for byte): `document.rs`, which
/// includes them, says they are written with it.
#[test]
fn every_generated_file_names_its_command() {
    let files = generate("spec/petstore.yaml", "petstore").files;
    for (path, text) in &files {
        if is_document_text(path) {
            let rust = &files["server/src/document.rs"];
            let name = path.rsplit('/').next().unwrap();
            assert!(
                rust.contains(&format!("include_str!(\"{name}\")")),
                "{rust}"
            );
            continue;
        }
        let first = text.lines().next().unwrap_or_default();
        assert!(
            first.contains("@generated by `cargo xtask codegen`"),
            "{path} starts with {first:?}"
        );
    }
}

/// `--vendor-runtime`: the same files plus the runtime copies, each marked as a copy of its
/// source; the manifests list the runtime's own dependencies and features instead of the
/// runtime crate; `lib.rs` declares the module instead of re-exporting the crate. Every
/// other file is the same as with the runtime crates.
#[test]
fn vendored_output_carries_the_runtime() {
    let crates = generate("spec/petstore.yaml", "petstore");
    let vendored = generate_with(
        "spec/petstore.yaml",
        "petstore",
        apigen::RuntimeSource::Vendored,
    );
    let mut expected: Vec<String> = GENERATED.iter().map(|p| p.to_string()).collect();
    expected.extend(runtime_copies());
    expected.sort();
    let paths: Vec<String> = vendored.files.keys().cloned().collect();
    assert_eq!(paths, expected, "the vendored file list");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for path in runtime_copies() {
        let (side, name) = path.split_once("/src/runtime/").unwrap();
        let source = if name == "mod.rs" { "lib.rs" } else { name };
        let original =
            std::fs::read_to_string(root.join(format!("runtime/{side}/src/{source}"))).unwrap();
        let copy = &vendored.files[&path];
        let (header, body) = copy.split_once('\n').unwrap();
        assert!(
            header.starts_with("// @generated by `cargo xtask codegen`: a verbatim copy of"),
            "{path}: {header}"
        );
        assert_eq!(body, original, "{path} is a verbatim copy");
    }
    let differs = |file: &str| crates.files[file] != vendored.files[file];
    for file in GENERATED {
        let expected = matches!(
            *file,
            "server/Cargo.toml"
                | "client/Cargo.toml"
                | "server/src/lib.rs"
                | "client/src/lib.rs"
                | "server/README.md"
                | "client/README.md"
        );
        assert_eq!(differs(file), expected, "{file}");
    }
    let server_lib = &vendored.files["server/src/lib.rs"];
    assert!(server_lib.contains("pub mod runtime;"), "{server_lib}");
    assert!(
        crates.files["server/src/lib.rs"].contains("pub use apigen_server_runtime as runtime;")
    );
    assert!(
        crates.files["client/src/lib.rs"].contains("pub use apigen_client_runtime as runtime;")
    );
    let manifest = &vendored.files["server/Cargo.toml"];
    assert!(!manifest.contains("apigen-server-runtime"), "{manifest}");
    for dep in ["\nsha2 = ", "\nsubtle = ", "\nhyper = ", "\nredis = {"] {
        assert!(
            manifest.contains(dep),
            "vendored server lists {dep}: {manifest}"
        );
        assert!(
            !crates.files["server/Cargo.toml"].contains(dep),
            "the runtime crate brings {dep}"
        );
    }
    assert!(manifest.contains("redis = [\"dep:redis\"]"), "{manifest}");
    assert!(crates.files["server/Cargo.toml"].contains(
        "apigen-server-runtime = { version = \"0.3.0\", path = \"../../../runtime/server\" }"
    ));
    assert!(
        crates.files["server/Cargo.toml"].contains("redis = [\"apigen-server-runtime/redis\"]")
    );
}

/// Without a path (`RuntimeSource::default()`, what a library caller gets), the manifests
/// depend on the runtime by version alone, as crates.io would resolve it.
#[test]
fn runtime_by_version_only_by_default() {
    let output = generate_with(
        "spec/petstore.yaml",
        "petstore",
        apigen::RuntimeSource::default(),
    );
    assert!(output.files["server/Cargo.toml"].contains("\napigen-server-runtime = \"0.3.0\"\n"));
    assert!(output.files["client/Cargo.toml"].contains("\napigen-client-runtime = \"0.4.0\"\n"));
}
