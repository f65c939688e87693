//! apigen: one OpenAPI 3.0 document in, a server crate and a client crate out.
//!
//! The library is pure: [`generate`] takes the document's text and returns the files to
//! write, with their paths relative to the output directory (`server/…`, `client/…`).
//! Only `xtask` and tests touch the disk.
//!
//! Stages: [`load`] (text → `openapiv3`, located errors) → `lower` (→ the plain-data
//! [`ir`], where every decision is made) → `emit` (quote → syn → prettyplease, askama for
//! Cargo.toml and README) → the hand-written runtime copied in.

pub mod diag;
mod emit;
pub mod ir;
pub mod load;
mod lower;
pub mod naming;
mod runtime;

use diag::{Diagnostic, Diagnostics, Severity, Sink};
use emit::Side;
use emit::manifest::{self, Kind};
use std::collections::BTreeMap;

/// How to name and label the generated crates.
#[derive(Debug, Clone)]
pub struct Options {
    /// Stem of the crate names: `petstore` gives `petstore-server` and `petstore-client`.
    pub name: String,
    /// How the document is named in headers (`spec/petstore.yaml`): never an absolute path,
    /// so output does not depend on where the repository lives.
    pub spec_label: String,
    /// The command that regenerates the files, for their first line.
    pub command: String,
}

/// The generated files and the warnings about constructs that fell back to a simpler type.
#[derive(Debug, Clone)]
pub struct Output {
    /// Path relative to the output directory (`server/src/lib.rs`) → contents.
    pub files: BTreeMap<String, String>,
    pub warnings: Vec<Diagnostic>,
}

/// Generates both crates from the document text. Never panics on document content; every
/// problem comes back with the JSON pointer of where it stands.
pub fn generate(text: &str, options: &Options) -> Result<Output, Diagnostics> {
    let doc = load::parse(text)?;
    let mut sink = Sink::default();
    let api = lower::lower(&doc, &mut sink);
    if sink.has_errors() {
        let mut errors: Vec<Diagnostic> = sink
            .items
            .into_iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        errors.sort();
        return Err(Diagnostics(errors));
    }
    let mut files = BTreeMap::new();
    emit_all(&api, options, &mut files).map_err(|message| {
        Diagnostics(vec![Diagnostic {
            severity: Severity::Error,
            pointer: String::new(),
            message: format!("internal generator error: {message}"),
        }])
    })?;
    let mut warnings = sink.items;
    warnings.sort();
    warnings.dedup();
    Ok(Output { files, warnings })
}

fn emit_all(
    api: &ir::Api,
    o: &Options,
    files: &mut BTreeMap<String, String>,
) -> Result<(), String> {
    let header = emit::header(&o.command, &o.spec_label);
    let server_crate = format!("{}-server", o.name);
    let client_crate = format!("{}-client", o.name);

    let rust = |tokens| emit::render(tokens, &header);
    files.insert(
        "server/src/lib.rs".into(),
        rust(emit::server::lib_rs(api, &server_crate))?,
    );
    files.insert("server/src/api.rs".into(), rust(emit::server::api_rs(api))?);
    files.insert(
        "server/src/router.rs".into(),
        rust(emit::server::router_rs(api))?,
    );
    files.insert(
        "server/src/types.rs".into(),
        rust(emit::types::file(api, Side::Server))?,
    );
    files.insert(
        "client/src/lib.rs".into(),
        rust(emit::client::lib_rs(api, &client_crate))?,
    );
    files.insert(
        "client/src/client.rs".into(),
        rust(emit::client::client_rs(api))?,
    );
    files.insert(
        "client/src/types.rs".into(),
        rust(emit::types::file(api, Side::Client))?,
    );

    let toml_header = header.replacen("//", "#", 1);
    files.insert(
        "server/Cargo.toml".into(),
        manifest::cargo_toml(api, Kind::Server, &server_crate, &toml_header)?,
    );
    files.insert(
        "client/Cargo.toml".into(),
        manifest::cargo_toml(api, Kind::Client, &client_crate, &toml_header)?,
    );
    files.insert(
        "server/README.md".into(),
        manifest::readme(
            api,
            Kind::Server,
            &server_crate,
            &header,
            &o.spec_label,
            &o.command,
        )?,
    );
    files.insert(
        "client/README.md".into(),
        manifest::readme(
            api,
            Kind::Client,
            &client_crate,
            &header,
            &o.spec_label,
            &o.command,
        )?,
    );
    for (name, text) in runtime::files(runtime::SERVER, "runtime/server", &o.command) {
        files.insert(format!("server/src/runtime/{name}"), text);
    }
    for (name, text) in runtime::files(runtime::CLIENT, "runtime/client", &o.command) {
        files.insert(format!("client/src/runtime/{name}"), text);
    }
    Ok(())
}
