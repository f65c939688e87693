//! apigen: one OpenAPI 3.0, 3.1 or 3.2 document (or Swagger 2.0, read as its 3.0 form) in; a
//! server crate, a client crate and a command-line client crate out.
//!
//! The library is pure: [`generate`] takes the document's text and returns the files to
//! write, with their paths relative to the output directory (`server/…`, `client/…`);
//! [`generate_with_cli`] adds the command-line client's (`cli/…`) from the same lowering.
//! A document split over several files is read with [`generate_from`] through a [`Source`]
//! the caller gives (the disk: [`FileSystem`]; a map of texts; a git revision), which is
//! the only way the library reaches a file; [`Output::inputs`] names the files it read.
//! [`Builder`] (for build scripts) is the one part that reads and writes the disk itself.
//!
//! Stages: [`load`] (text → `openapiv3`, located errors) → `lower` (→ the plain-data
//! [`ir`], where every decision is made) → `emit` (quote → syn → prettyplease, askama for
//! Cargo.toml and README). [`diff`] compares two versions of a document and classifies each
//! change. Generated crates depend on the hand-written runtime crates
//! (`runtime/server`, `runtime/client`, `runtime/cli`), or carry a copy of them
//! ([`RuntimeSource::Vendored`]).

mod builder;
pub mod diag;
pub mod diff;
mod docs;
mod emit;
pub mod ir;
pub mod load;
mod lower;
pub mod naming;
mod options;
mod runtime;
#[cfg(test)]
mod tests;

pub use builder::{BuildError, Builder, Generated};
pub use load::source::{FileSystem, Source};
pub use options::{Options, RuntimeSource, Selection};

use diag::{Diagnostic, Diagnostics, Severity, Sink};
use emit::Side;
use emit::manifest::{self, Kind};
use std::collections::BTreeMap;

/// The generated files and the warnings about constructs that fell back to a simpler type.
#[derive(Debug, Clone)]
pub struct Output {
    /// Path relative to the output directory (`server/src/lib.rs`) → contents.
    pub files: BTreeMap<String, String>,
    pub warnings: Vec<Diagnostic>,
    /// Operations with a sunset date (`x-deprecation.sunset`), in document order, for tools
    /// that warn as the date nears (`cargo xtask codegen`).
    pub sunsets: Vec<SunsetNotice>,
    /// The files the document was read from: the root first, then every file its `$ref`s
    /// reached, as [`Source`] names them (for build scripts' `rerun-if-changed`).
    pub inputs: Vec<String>,
    /// How many operations the crates serve and call (for reports).
    pub operations: usize,
}

/// One operation's sunset: from `at` on, the generated server answers it with 410 Gone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SunsetNotice {
    pub operation: String,
    /// JSON pointer of the `sunset` member, as the user wrote the document.
    pub pointer: String,
    /// `YYYY-MM-DD`, as written.
    pub day: String,
    /// Unix seconds (midnight UTC of `day`).
    pub at: i64,
}

/// Generates the server and client crates from the document text. Never panics on document content; every
/// problem comes back with the JSON pointer of where it stands. The text is the whole
/// document: a `$ref` into another file is an error (see [`generate_from`]).
///
/// The work runs on a thread of its own with a large stack (64 MiB of address space): reading a
/// document recurses once per nesting level (serde's derived deserializers take large frames in
/// debug builds), and the caller's thread may be a test thread of 2 MiB. The parsers stop at
/// 128 levels and the lowering at a fixed nesting of schemas, so this stack is always enough.
pub fn generate(text: &str, options: &Options) -> Result<Output, Diagnostics> {
    let root = &options.spec_label;
    generate_from(root, &load::source::Text { root, text }, options)
}

/// Generates the server and client crates from the document whose root file is named `root`, read through
/// `source` together with every file its `$ref`s reach (relative paths are resolved against
/// the file that holds them). Errors name the file, the JSON pointer in it and its line
/// ([`diag::Diagnostic::position`]).
///
/// ```no_run
/// let options = apigen::Options { name: "cafe".into(), spec_label: "openapi.yaml".into(), ..Default::default() };
/// let output = apigen::generate_from("openapi.yaml", &apigen::FileSystem::new("api"), &options)?;
/// assert_eq!(output.inputs[0], "openapi.yaml");
/// # Ok::<(), apigen::diag::Diagnostics>(())
/// ```
pub fn generate_from(
    root: &str,
    source: &dyn Source,
    options: &Options,
) -> Result<Output, Diagnostics> {
    let crates = Crates {
        server_and_client: true,
        cli: None,
    };
    on_large_stack(|| generate_here(root, source, options, crates))
}

/// Runs `work` on a thread of its own with [`GENERATE_STACK`] (see [`generate`]).
fn on_large_stack(
    work: impl FnOnce() -> Result<Output, Diagnostics> + Send,
) -> Result<Output, Diagnostics> {
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("apigen".into())
            .stack_size(GENERATE_STACK)
            .spawn_scoped(scope, work)
            .map_err(|e| internal(format!("cannot start the generator's thread: {e}")))?;
        // A panic (a generator bug) reaches the caller as the panic it was.
        worker
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// Stack of the generator's thread: reserved address space, touched only as deep as the
/// document nests (a 128-level document takes a few MiB in a debug build).
const GENERATE_STACK: usize = 64 << 20;

fn internal(message: String) -> Diagnostics {
    Diagnostics(vec![Diagnostic::error(
        String::new(),
        format!("internal generator error: {message}"),
    )])
}

/// The plain-data model of a document ([`ir::Api`]: every decision made, what the emitters
/// print) and the warnings [`generate`] would give, for tools and tests that look at the
/// decisions without generating code (the corpus routing test builds every document's routes
/// from it). Runs on the calling thread: give it a large stack for deeply nested documents.
pub fn model(text: &str, options: &Options) -> Result<(ir::Api, Vec<Diagnostic>), Diagnostics> {
    let root = &options.spec_label;
    model_from(root, &load::source::Text { root, text }, options)
}

/// [`model`] for a document read through a [`Source`], as [`generate_from`] reads it.
pub fn model_from(
    root: &str,
    source: &dyn Source,
    options: &Options,
) -> Result<(ir::Api, Vec<Diagnostic>), Diagnostics> {
    lowered(root, source, options).map(|(api, warnings, _)| (api, warnings))
}

/// Loads and lowers, mapping every diagnostic's pointer to the place the user wrote.
fn lowered(
    root: &str,
    source: &dyn Source,
    options: &Options,
) -> Result<(ir::Api, Vec<Diagnostic>, load::Loaded), Diagnostics> {
    let mut loaded = load::read(root, source)?;
    let mut sink = Sink::default();
    let mut api = if options.select.is_all() {
        lower::lower_with(&loaded.doc, options, &mut sink)
    } else {
        let part = lower::select::document(&loaded.doc, &options.select, &mut sink);
        let mut api = lower::lower_with(&part, options, &mut sink);
        lower::select::prune_types(&mut api);
        api
    };
    lower::held::decide(&mut api, &loaded.written.value, loaded.version);
    if !options.without_tag_features {
        lower::features::decide(&mut api);
    }
    // The lowering speaks of places in the up-read document; the user wrote them elsewhere.
    for d in &mut sink.items {
        d.pointer = loaded.original(&d.pointer);
    }
    sink.items.extend(std::mem::take(&mut loaded.warnings));
    if sink.has_errors() {
        let mut errors: Vec<Diagnostic> = sink
            .items
            .into_iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        errors.sort();
        loaded.locate(&mut errors);
        return Err(Diagnostics(errors));
    }
    let mut warnings = sink.items;
    warnings.sort();
    warnings.dedup();
    Ok((api, warnings, loaded))
}

fn generate_here(
    root: &str,
    source: &dyn Source,
    options: &Options,
    crates: Crates<'_>,
) -> Result<Output, Diagnostics> {
    let (api, warnings, loaded) = lowered(root, source, options)?;
    let mut files = BTreeMap::new();
    emit_all(&api, options, crates, &mut files).map_err(internal)?;
    if crates.server_and_client {
        let header = emit::header(&options.command, &options.spec_label);
        let document = emit::document::document_files(&header, &api.title, &loaded.written)
            .map_err(internal)?;
        files.insert("server/src/document.rs".into(), document.rust);
        files.insert("server/src/document.json".into(), document.json);
        files.insert("server/src/document.yaml".into(), document.yaml);
    }
    let sunsets = api
        .operations
        .iter()
        .filter_map(|op| {
            let sunset = op.deprecated.as_ref()?.sunset.as_ref()?;
            let pointer = diag::push(
                &diag::push(&diag::push("/paths", &op.path), &op.method.to_lowercase()),
                "x-deprecation",
            );
            Some(SunsetNotice {
                operation: op.id.clone(),
                pointer: loaded.original(&diag::push(&pointer, "sunset")),
                day: sunset.day.clone(),
                at: sunset.at,
            })
        })
        .collect();
    Ok(Output {
        files,
        warnings,
        sunsets,
        inputs: loaded.files,
        operations: api.operations.len(),
    })
}

/// Which crates one run emits, all from the one lowered [`ir::Api`].
#[derive(Debug, Clone, Copy)]
struct Crates<'a> {
    /// The server crate (`server/…`) and the client crate (`client/…`).
    server_and_client: bool,
    /// The command-line client (`cli/…`), whose manifest finds the client crate at this path.
    cli: Option<&'a str>,
}

/// [`generate`] and the command-line client crate too (`cli/Cargo.toml`,
/// `cli/src/{lib,main,support}.rs`), from one reading and one lowering of the document, so
/// the CLI and the client it calls agree on every type. `client_path` is where the client
/// crate is relative to the CLI's directory (`../client` beside it under `--out`).
pub fn generate_with_cli(
    text: &str,
    options: &Options,
    client_path: &str,
) -> Result<Output, Diagnostics> {
    let root = &options.spec_label;
    generate_with_cli_from(
        root,
        &load::source::Text { root, text },
        options,
        client_path,
    )
}

/// [`generate_with_cli`] for a document read through a [`Source`], as [`generate_from`] reads
/// it.
pub fn generate_with_cli_from(
    root: &str,
    source: &dyn Source,
    options: &Options,
    client_path: &str,
) -> Result<Output, Diagnostics> {
    let crates = Crates {
        server_and_client: true,
        cli: Some(client_path),
    };
    on_large_stack(|| generate_here(root, source, options, crates))
}

/// The command-line client crate (`cli/Cargo.toml`, `cli/src/{lib,main,support}.rs`)
/// for a document whose client crate is at `client_path` relative to the CLI's directory
/// (`../client` beside it under `--out`). Warnings are those of [`generate`], not repeated.
/// Only the CLI's files: [`generate_with_cli`] gives them with the server's and the client's
/// from one lowering.
pub fn generate_cli(
    text: &str,
    options: &Options,
    client_path: &str,
) -> Result<BTreeMap<String, String>, Diagnostics> {
    let root = &options.spec_label;
    generate_cli_from(
        root,
        &load::source::Text { root, text },
        options,
        client_path,
    )
}

/// [`generate_cli`] for a document read through a [`Source`], as [`generate_from`] reads it.
pub fn generate_cli_from(
    root: &str,
    source: &dyn Source,
    options: &Options,
    client_path: &str,
) -> Result<BTreeMap<String, String>, Diagnostics> {
    let crates = Crates {
        server_and_client: false,
        cli: Some(client_path),
    };
    on_large_stack(|| generate_here(root, source, options, crates)).map(|output| output.files)
}

/// What the command-line client of a document offers ([`ir::Cli`]: its subcommands, their
/// flags, the credentials' variables, the operations it leaves out and why), with the lowered
/// API its indexes point into: for tools that drive a generated CLI (`cargo xtask calls`).
/// [`generate_cli`] prints exactly this.
pub fn cli_plan(text: &str, options: &Options) -> Result<(ir::Api, ir::Cli), Diagnostics> {
    let root = &options.spec_label;
    cli_plan_from(root, &load::source::Text { root, text }, options)
}

/// [`cli_plan`] for a document read through a [`Source`], as [`generate_from`] reads it.
pub fn cli_plan_from(
    root: &str,
    source: &dyn Source,
    options: &Options,
) -> Result<(ir::Api, ir::Cli), Diagnostics> {
    let (api, _, _) = lowered(root, source, options)?;
    let cli = lower::cli::lower(&api, &options.name);
    Ok((api, cli))
}

/// Stack of each emitting thread: reserved address space, touched only as deep as a document
/// nests (a nesting of `MAX_NESTING` levels takes about 3 MiB in a debug build).
const EMIT_STACK: usize = 32 << 20;

fn emit_all(
    api: &ir::Api,
    o: &Options,
    crates: Crates<'_>,
    files: &mut BTreeMap<String, String>,
) -> Result<(), String> {
    let header = emit::header(&o.command, &o.spec_label);
    let server_crate = format!("{}-server", o.name);
    let client_crate = format!("{}-client", o.name);
    let vendored = o.runtime.is_vendored();
    // The CLI's plan is lowered from the same API the client is printed from.
    let cli = crates.cli.map(|_| lower::cli::lower(api, &o.name));

    // Each Rust file is built and formatted on its own thread: parsing and pretty-printing
    // are most of the generator's time on large documents, and the files are independent.
    // (Token streams are not `Send`, so each thread makes its own.)
    type Job<'a> = (
        &'static str,
        Box<dyn Fn() -> proc_macro2::TokenStream + Send + Sync + 'a>,
    );
    let mut jobs: Vec<Job<'_>> = Vec::new();
    if crates.server_and_client {
        jobs = vec![
            (
                "server/src/lib.rs",
                Box::new(|| emit::server::lib_rs(api, &server_crate, vendored)),
            ),
            ("server/src/api.rs", Box::new(|| emit::server::api_rs(api))),
            (
                "server/src/router.rs",
                Box::new(|| emit::server::router_rs(api)),
            ),
            (
                "server/src/types.rs",
                Box::new(|| emit::types::file(api, Side::Server)),
            ),
            ("server/src/mock.rs", Box::new(|| emit::mock::mock_rs(api))),
            (
                "server/src/bin/mock.rs",
                Box::new(|| emit::mock::bin_rs(api, &server_crate)),
            ),
            (
                "client/src/lib.rs",
                Box::new(|| emit::client::lib_rs(api, &client_crate, vendored)),
            ),
            (
                "client/src/client.rs",
                Box::new(|| emit::client::client_rs(api, &client_crate)),
            ),
            (
                "client/src/types.rs",
                Box::new(|| emit::types::file(api, Side::Client)),
            ),
        ];
        // Only a document with `webhooks` has their module.
        if !api.webhooks.is_empty() {
            jobs.push((
                "server/src/webhooks.rs",
                Box::new(|| emit::webhooks::server_rs(api)),
            ));
            jobs.push((
                "client/src/webhooks.rs",
                Box::new(|| emit::webhooks::client_rs(api)),
            ));
        }
    }
    if let Some(cli) = &cli {
        jobs.push((
            "cli/src/lib.rs",
            Box::new(|| emit::cli::lib_rs(api, cli, &client_crate, vendored)),
        ));
        jobs.push(("cli/src/main.rs", Box::new(|| emit::cli::main_rs(&o.name))));
    }
    let rendered: Vec<(&str, Result<String, String>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = jobs
            .iter()
            .map(|(path, make)| {
                let header = &header;
                // syn and prettyplease recurse once per nesting level of a type
                // (`Vec<Vec<…>>`), with large frames in debug builds: the threads get room
                // for the deepest nesting the lowering lets through (`lower::schema::MAX_NESTING`).
                let handle = std::thread::Builder::new()
                    .stack_size(EMIT_STACK)
                    .spawn_scoped(scope, move || emit::render_built(make, header));
                (*path, handle)
            })
            .collect();
        handles
            .into_iter()
            .map(|(path, h)| {
                let result = match h {
                    Ok(h) => h
                        .join()
                        .unwrap_or_else(|_| Err(format!("emitting {path} panicked"))),
                    Err(e) => Err(format!("cannot start a thread to emit {path}: {e}")),
                };
                (path, result)
            })
            .collect()
    });
    for (path, text) in rendered {
        files.insert(path.to_string(), text?);
    }

    let toml_header = header.replacen("//", "#", 1);
    if crates.server_and_client {
        server_and_client_files(api, o, &header, files)?;
    }
    if let (Some(_), Some(cli)) = (crates.cli, &cli)
        && !cli.commands.is_empty()
    {
        files.insert(
            "cli/src/commands.json".to_string(),
            emit::cli::commands_json(api, cli),
        );
    }
    if let (Some(_), Some(cli)) = (crates.cli, &cli) {
        files.insert(
            "cli/README.md".to_string(),
            emit::manifest::cli_readme(api, cli, &header, &o.spec_label, &o.command),
        );
    }
    if let Some(client_path) = crates.cli {
        files.insert(
            "cli/Cargo.toml".to_string(),
            emit::cli::cargo_toml(
                api,
                &o.name,
                &client_crate,
                client_path,
                &o.runtime,
                &toml_header,
            )?,
        );
        if vendored {
            for (name, text) in runtime::files(runtime::CLI, "runtime/cli", &o.command) {
                // The CLI's copy of its runtime is one module, `support` (`support.rs`, its
                // submodules in `support/`).
                let name = if name == "mod.rs" {
                    "support.rs".to_owned()
                } else {
                    format!("support/{name}")
                };
                files.insert(format!("cli/src/{name}"), text);
            }
        }
    }
    Ok(())
}

/// The server's and the client's manifests and READMEs, and their copies of the runtime when
/// it is vendored.
fn server_and_client_files(
    api: &ir::Api,
    o: &Options,
    header: &str,
    files: &mut BTreeMap<String, String>,
) -> Result<(), String> {
    let server_crate = format!("{}-server", o.name);
    let client_crate = format!("{}-client", o.name);
    let vendored = o.runtime.is_vendored();
    let toml_header = header.replacen("//", "#", 1);
    files.insert(
        "server/Cargo.toml".into(),
        manifest::cargo_toml(api, Kind::Server, &server_crate, &o.runtime, &toml_header)?,
    );
    files.insert(
        "client/Cargo.toml".into(),
        manifest::cargo_toml(api, Kind::Client, &client_crate, &o.runtime, &toml_header)?,
    );
    files.insert(
        "server/README.md".into(),
        manifest::readme(
            api,
            Kind::Server,
            &server_crate,
            header,
            &o.spec_label,
            &o.command,
            vendored,
        )?,
    );
    files.insert(
        "client/README.md".into(),
        manifest::readme(
            api,
            Kind::Client,
            &client_crate,
            header,
            &o.spec_label,
            &o.command,
            vendored,
        )?,
    );
    if vendored {
        for (name, text) in runtime::files(runtime::SERVER, "runtime/server", &o.command) {
            files.insert(format!("server/src/runtime/{name}"), text);
        }
        for (name, text) in runtime::files(runtime::CLIENT, "runtime/client", &o.command) {
            files.insert(format!("client/src/runtime/{name}"), text);
        }
    }
    Ok(())
}
