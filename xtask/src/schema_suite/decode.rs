//! The client side of the suite: a small program beside the generated client crate that
//! decodes each value into the body type of its group's operation as the client reads an
//! answer (its runtime's `integer::from_value`), and its answers read back.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::process::Command;

use apigen::ir::{Api, BodyKind, TypeRef};
use serde_json::json;

use super::Group;

/// Writes `<slug>-decode` into the workspace; returns its package name.
pub fn write_program(
    ws: &Path,
    slug: &str,
    api: &Api,
    groups: &[&Group],
) -> Result<String, String> {
    let name = format!("{slug}-decode");
    let client = format!("{slug}-client");
    let lib = client.replace('-', "_");
    let dir = ws.join(&name);
    fs::create_dir_all(dir.join("src")).map_err(|e| e.to_string())?;
    let manifest = format!(
        "# Written by `cargo xtask schema-suite`: decodes the suite's values with the client's types.\n\
         [package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [dependencies]\n{client} = {{ path = \"../{client}\" }}\nserde_json = \"1\"\n\
         uuid = {{ version = \"1\", features = [\"serde\"] }}\n\
         jiff = {{ version = \"1\", features = [\"serde\"] }}\n"
    );
    let mut arms = String::new();
    for group in groups {
        let id = group.name();
        let ty = api
            .operations
            .iter()
            .find(|op| op.id == id)
            .and_then(|op| op.body.as_ref())
            .and_then(|body| match &body.kind {
                BodyKind::Json(ty) => Some(rust_type(ty, &lib)),
                _ => None,
            })
            .unwrap_or_else(|| "serde_json::Value".into());
        let _ = writeln!(
            arms,
            "        \"{id}\" => {lib}::runtime::integer::from_value::<{ty}>(data).map(drop),"
        );
    }
    let main = format!(
        "//! Written by `cargo xtask schema-suite`: each line of the file named by the first \
         argument is\n//! `[operation, value]`; prints `ok` or the decoding error, one line each.\n\n\
         fn main() {{\n    \
             let path = std::env::args().nth(1).expect(\"the cases file\");\n    \
             let text = std::fs::read_to_string(path).expect(\"readable cases\");\n    \
             for line in text.lines() {{\n        \
                 let (op, data): (String, serde_json::Value) = serde_json::from_str(line).expect(\"a case\");\n        \
                 match decode(&op, data) {{\n            \
                     Ok(()) => println!(\"ok\"),\n            \
                     Err(e) => println!(\"{{}}\", e.to_string().replace('\\n', \" \")),\n        \
                 }}\n    \
             }}\n\
         }}\n\n\
         fn decode(op: &str, data: serde_json::Value) -> Result<(), serde_json::Error> {{\n    \
             match op {{\n{arms}        \
                 _ => panic!(\"unknown operation {{op}}\"),\n    \
             }}\n\
         }}\n"
    );
    fs::write(dir.join("Cargo.toml"), manifest).map_err(|e| e.to_string())?;
    fs::write(dir.join("src/main.rs"), main).map_err(|e| e.to_string())?;
    Ok(name)
}

/// (group, case index) → `Ok` or the decoding error.
pub type Decoded = BTreeMap<(String, usize), Result<(), String>>;

/// Runs the decoder on every valid value of `groups`: (group, case index) → `Ok` or the error.
pub fn run(binary: &Path, out: &Path, groups: &[&Group]) -> Result<Decoded, String> {
    let mut lines = String::new();
    let mut keys = Vec::new();
    for group in groups {
        for (i, case) in group.cases.iter().enumerate() {
            lines.push_str(&json!([group.name(), case.data]).to_string());
            lines.push('\n');
            keys.push((group.name(), i));
        }
    }
    let cases = out.join("decode-cases.ndjson");
    fs::write(&cases, lines).map_err(|e| e.to_string())?;
    let output = Command::new(binary)
        .arg(&cases)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
    if !output.status.success() {
        return Err(format!(
            "the decoder failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let answers: Vec<&str> = text.lines().collect();
    if answers.len() != keys.len() {
        return Err(format!(
            "the decoder answered {} of {} cases",
            answers.len(),
            keys.len()
        ));
    }
    Ok(keys
        .into_iter()
        .zip(answers)
        .map(|(key, answer)| {
            let result = if answer == "ok" {
                Ok(())
            } else {
                Err(answer.to_string())
            };
            (key, result)
        })
        .collect())
}

/// The Rust type the client crate gives a body (as its emitter prints it), from outside it.
fn rust_type(ty: &TypeRef, lib: &str) -> String {
    let inner = |t: &TypeRef| rust_type(t, lib);
    match ty {
        TypeRef::Named(n) => format!("{lib}::types::{n}"),
        TypeRef::String => "String".into(),
        TypeRef::Bool => "bool".into(),
        TypeRef::I32 => "i32".into(),
        TypeRef::I64 => "i64".into(),
        TypeRef::U8 => "u8".into(),
        TypeRef::U16 => "u16".into(),
        TypeRef::U32 => "u32".into(),
        TypeRef::U64 => "u64".into(),
        TypeRef::F32 => "f32".into(),
        TypeRef::F64 => "f64".into(),
        TypeRef::Decimal | TypeRef::BigInt => format!("{lib}::runtime::decimal::Decimal"),
        TypeRef::Bytes => "Vec<u8>".into(),
        TypeRef::Base64 => format!("{lib}::runtime::base64::Base64"),
        TypeRef::Base64Url => format!("{lib}::runtime::base64::Base64Url"),
        TypeRef::Uuid => "uuid::Uuid".into(),
        TypeRef::DateTime => "jiff::Timestamp".into(),
        TypeRef::Date => "jiff::civil::Date".into(),
        TypeRef::Ipv4 => "std::net::Ipv4Addr".into(),
        TypeRef::Ipv6 => "std::net::Ipv6Addr".into(),
        TypeRef::Tuple(items) => {
            let items: Vec<String> = items.iter().map(inner).collect();
            format!("({},)", items.join(", "))
        }
        TypeRef::Vec(t) => format!("Vec<{}>", inner(t)),
        TypeRef::Map(t) => format!("std::collections::BTreeMap<String, {}>", inner(t)),
        TypeRef::Json => "serde_json::Value".into(),
        TypeRef::JsonObject => "serde_json::Map<String, serde_json::Value>".into(),
        TypeRef::Unit => "()".into(),
        TypeRef::Nullable(t) => format!("Option<{}>", inner(t)),
    }
}
