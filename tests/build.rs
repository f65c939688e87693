//! Compiles the snippets of the generated crates' READMEs: every client call and every
//! server method the fixtures' READMEs show becomes a function of `snippets.rs` (in
//! `OUT_DIR`), which `tests/snippets.rs` includes and runs. A snippet that does not build
//! fails the build; one that builds but calls wrongly fails the test against the mocks.
//!
//! The crates are the client and server crates this package's dev-dependencies name by path.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let manifest = std::fs::read_to_string("Cargo.toml").expect("tests/Cargo.toml");
    println!("cargo:rerun-if-changed=Cargo.toml");
    let mut out = String::new();
    for line in manifest.lines() {
        // `petstore-client = { path = "../generated-client" }`
        let Some((name, rest)) = line.split_once(" = { path = \"") else {
            continue;
        };
        let Some((path, _)) = rest.split_once('"') else {
            continue;
        };
        let name = name.trim();
        let readme = Path::new(path).join("README.md");
        println!("cargo:rerun-if-changed={}", readme.display());
        let Ok(text) = std::fs::read_to_string(&readme) else {
            continue;
        };
        let lib = name.replace('-', "_");
        if name.ends_with("-client") {
            client(&mut out, &lib, &text);
        } else if name.ends_with("-server") {
            server(&mut out, &lib, &text);
        }
    }
    let dir = std::env::var("OUT_DIR").expect("OUT_DIR");
    std::fs::write(Path::new(&dir).join("snippets.rs"), out).expect("write snippets.rs");
}

/// Each operation's heading (`#### \`listPets\`…`) and the one ```rust block after it.
fn snippets(text: &str, section: &str) -> Vec<(String, String)> {
    let Some(start) = text.find(section) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    let mut id = None;
    let mut block: Option<String> = None;
    for line in text[start..].lines().skip(1) {
        if let Some(b) = block.as_mut() {
            if line == "```" {
                if let Some(id) = id.take() {
                    found.push((id, block.take().unwrap_or_default()));
                }
                block = None;
            } else {
                b.push_str(line);
                b.push('\n');
            }
        } else if line.starts_with("## ") {
            break;
        } else if line.starts_with("###") && line.contains(" `") {
            id = line.split('`').nth(1).map(str::to_owned);
        } else if line == "```rust" {
            block = Some(String::new());
        }
    }
    found
}

fn client(out: &mut String, lib: &str, text: &str) {
    // The opening block (imports, the client) is the test's to write; the calls after it.
    let calls: Vec<(String, String)> = snippets(text, "## Calls")
        .into_iter()
        .filter(|(id, _)| !id.is_empty())
        .collect();
    let _ = writeln!(
        out,
        "#[allow(unused_imports, unused_variables, deprecated)]\npub mod {lib}_calls {{\n    use {lib}::{{Client, serde_json, types}};\n"
    );
    for (i, (id, code)) in calls.iter().enumerate() {
        let _ = writeln!(
            out,
            "    /// `{id}`\n    pub async fn call_{i}(client: &Client) -> Result<(), Box<dyn std::error::Error>> {{\n{}        Ok(())\n    }}\n",
            indent(code, 8)
        );
    }
    let _ = writeln!(
        out,
        "    /// Every call in turn: the operation and what came of it.\n    pub async fn all(client: &Client) -> Vec<(&'static str, Result<(), String>)> {{\n        vec!["
    );
    for (i, (id, _)) in calls.iter().enumerate() {
        let _ = writeln!(
            out,
            "            ({id:?}, call_{i}(client).await.map_err(|e| format!(\"{{e:?}}\"))),"
        );
    }
    let _ = writeln!(out, "        ]\n    }}\n}}\n");
}

fn server(out: &mut String, lib: &str, text: &str) {
    // "… an implementation of `PetStoreApi` (in `src/api.rs`) …"
    let Some(name) = text
        .split("an implementation of `")
        .nth(1)
        .and_then(|rest| rest.split('`').next())
    else {
        return;
    };
    let _ = writeln!(
        out,
        "#[allow(unused_imports, unused_variables, deprecated)]\npub mod {lib}_methods {{\n    use {lib}::{{RequestContext, api::*, http, serde_json, types}};\n\n    /// Every method as the README writes it.\n    pub struct Service;\n\n    impl {name} for Service {{\n        type Error = std::convert::Infallible;\n"
    );
    for (_, code) in snippets(text, "## Implementing") {
        let _ = writeln!(out, "{}", indent(&code, 8));
    }
    let _ = writeln!(out, "    }}\n}}\n");
}

fn indent(code: &str, by: usize) -> String {
    let pad = " ".repeat(by);
    code.lines()
        .map(|l| {
            if l.is_empty() {
                "\n".to_string()
            } else {
                format!("{pad}{l}\n")
            }
        })
        .collect()
}
