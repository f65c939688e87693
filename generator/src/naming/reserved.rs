//! Every identifier the emitters introduce, by the scope it lives in, so that no name taken
//! from a document can collide with one of ours.
//!
//! The scheme: in each scope where document-derived names and generated names meet, the
//! lowering claims the generated names first ([`Scope::reserving`](super::Scope::reserving)),
//! so a document's `raw` parameter becomes the local `raw_2` and its `Result` schema the type
//! `Result2`; names the document cannot reach (wire names in strings, fields read through
//! `self.`, variants read through `Self::`) are left as the document spells them. Where a
//! prefix makes collisions impossible by construction (router functions are `handle_…` and
//! `serve_…`), no reservation is needed.
//!
//! A unit test at the bottom parses the generated files of the fixtures and fails when an
//! emitter binds a local or a parameter that is not listed here: adding one means adding it
//! to its scope below, which reserves it.

/// Names the types module (`types.rs`, both sides) uses unqualified in type position:
/// prelude types, imported traits and the generic parameters of serde impls (`D`, `S`, `T`:
/// a variant type named `D` inside `fn deserialize<D>` would mean the generic; the builders'
/// `impl Into<String>` and `Default::default()`). Schema types may not take them.
pub const TYPES_MODULE: &[&str] = &[
    "Box",
    "D",
    "Default",
    "Deserialize",
    "Into",
    "Option",
    "Result",
    "S",
    "Serialize",
    "String",
    "T",
    "Validate",
    "Vec",
    "Violations",
];

/// Operation stems whose derived type names (`{stem}Params`) would be names `router.rs`
/// imports (`PathParams`, `RawParams`).
pub const OPERATION_STEMS: &[&str] = &["Path", "Raw"];

/// Suffixes of the types the emitters name after an operation's stem in `api.rs` (server)
/// and `client.rs` (client): `{stem}Params`, `{stem}Response`, `{stem}Options`,
/// `{stem}Error`, `{stem}Success`. Claimed before the answers' `{stem}{variant}Headers`.
pub const OPERATION_TYPE_SUFFIXES: &[&str] = &["Params", "Response", "Options", "Error", "Success"];

/// Names `api.rs` and `client.rs` import or define beside the operations' types; the
/// answers' header structs may not take them.
pub const OPERATIONS_MODULE: &[&str] = &[
    "Arc",
    "Client",
    "ClientBuilder",
    "Credentials",
    "Duration",
    "Error",
    "Future",
    "OperationInfo",
    "Problem",
    "Query",
    "RateLimit",
    "RequestContext",
    "ResponseValue",
    "RetryPolicy",
    "SchemeKind",
    "Secret",
    "SecurityScheme",
    "Server",
    "ToParam",
    "Transport",
    "types",
];

/// Methods beside the operations' own: the server trait's `handle_error`, the client's
/// constructors and accessors. Operation methods may not take them.
pub const OPERATION_METHODS: &[&str] = &[
    "base_url",
    "builder",
    "for_server",
    "handle_error",
    "last_rate_limit",
    "with_options",
];

/// `ClientBuilder` methods beside the credential setters (one per security scheme).
pub const BUILDER_METHODS: &[&str] = &[
    "build",
    "http_client",
    "retry_policy",
    "timeout",
    "user_agent",
];

/// Server variants beside the document's servers.
pub const SERVER_VARIANTS: &[&str] = &["Custom"];

/// Client enum variants beside the document's values.
pub const ENUM_VARIANTS: &[&str] = &["Unknown"];

/// Struct fields beside the document's properties.
pub const STRUCT_FIELDS: &[&str] = &["additional_properties"];

/// Locals and parameters of the server's per-operation functions (`router.rs`: the route
/// handler, `serve_…` and its parameter-reading block), where a parameter's value is bound
/// next to them.
pub const SERVER_OPERATION_LOCALS: &[&str] = &[
    "_body",
    "api",
    "at",
    "body",
    "body_limit",
    "ctx",
    "error",
    "errors",
    // A multipart body's decoded parts, checked before its bytes are passed on (`_form`
    // where its type has no checks).
    "_form",
    "form",
    // Whether the request carries the document's optional `Idempotency-Key`.
    "has_key",
    // An array's items and a map's values, each checked in a loop of its own (`for (i, item)`,
    // `for (key, item)`).
    "i",
    "item",
    // `key` is also the document's `Idempotency-Key` as read, checked into `key_checked`.
    "key",
    "key_checked",
    "media",
    "out",
    "outcome",
    "params",
    "parts",
    "path",
    // The boxed refusal of a key the document refuses (`key_checked.map_err(|problem| …)`).
    "problem",
    "raw",
    "replayable",
    "request",
    "response",
    "rt",
    "scheme",
    "serve",
    "sunset",
    "value",
];

/// Locals and parameters of a client method, where required parameters are arguments and
/// their values are bound next to them (`base` and `http` are the send closure's).
pub const CLIENT_OPERATION_LOCALS: &[&str] = &[
    "base",
    "body",
    "builder",
    // A body the caller labels (`runtime::request::Upload`): the `Content-Type` it is sent as.
    "content_type",
    "cookie",
    "cookies",
    "http",
    "item",
    "multipart_type",
    "options",
    "path",
    "query",
    "raw",
    "value",
    "values",
];

/// Locals of the command-line client's subcommand functions (`lib.rs` of a `…-cli` crate),
/// which bind the required parameters' values next to them, and of `run`, where they were
/// bound before each subcommand had its function (kept, so no generated name moves).
pub const CLI_OPERATION_LOCALS: &[&str] = &[
    // A body also offered as multipart: the boxed call, either way.
    "answer",
    "base_url",
    "body",
    "builder",
    // A body the caller labels (`--content-type`): its bytes and media type.
    "bytes",
    "call",
    // `run`: the chosen subcommand's declaration, its deprecation note, its function.
    "chosen",
    "client",
    "command",
    "credentials",
    // `form(parts)`: the CLI's function building a multipart form, called in the runner.
    "form",
    "json",
    "key",
    "m",
    "media",
    "note",
    "options",
    "output",
    "parts",
    "result",
    "run",
    "runtime",
    "verbose",
];

/// Bindings of generated functions that never see a document-derived local (serde impls,
/// `Validate`, conversions, the builder): listed so the test knows every binding; nothing
/// needs to be claimed around them.
pub const OTHER_LOCALS: &[&str] = &[
    "_body",
    "_ctx",
    "_headers",
    "_params",
    "_query_string",
    "_json",
    "_out",
    "_pointer",
    "api",
    "app",
    "at",
    "b",
    "base",
    "base_url",
    "body",
    "build",
    "builder",
    "cmd",
    "code",
    "config",
    // The CLI's `form`, over the parts read from the command line.
    "data",
    "deserializer",
    "e",
    "env",
    "f",
    "filename",
    "headers",
    "http",
    "item",
    "k",
    "key",
    // The CLI's `run`: its progress line, and the client's report to it.
    "line",
    "map",
    "matches",
    "message",
    "names",
    "operation",
    // A union's variant that read the value but leaves members unnamed, kept while later
    // ones are tried.
    "fits",
    "other",
    "out",
    "p",
    "part",
    "password",
    "pointer",
    "print",
    "raw",
    "reasons",
    // The client builder's `on_progress`.
    "report",
    "response",
    "retry",
    "routes",
    "s",
    "serializer",
    "server",
    "state",
    "status",
    "subcommands",
    "tag",
    "text",
    "timeout",
    "token",
    // A union's first readable variant, kept while later ones are tried against their checks.
    "unchecked",
    // Whether a union's struct variant names every member of the object it read.
    "whole",
    "url",
    "user",
    "user_agent",
    "v",
    "value",
];

/// Names clippy flags wherever they are bound (`clippy::disallowed_names`, on by default):
/// a parameter spelled so gets a local `foo_2` (its wire name stays `foo`); a struct field
/// keeps its name and the impl of its `new` and setters (and of a client `…Options`) allows
/// the lint.
pub const CLIPPY_PLACEHOLDERS: &[&str] = &["baz", "foo", "quux"];

/// The names a parameter's local binding in the command-line client may not take.
pub fn cli_parameter_locals() -> Vec<&'static str> {
    let mut all: Vec<&str> = CLI_OPERATION_LOCALS
        .iter()
        .chain(CLIPPY_PLACEHOLDERS)
        .copied()
        .collect();
    all.sort_unstable();
    all
}

/// The names a parameter's local binding may not take: it lives in the server's operation
/// functions and in the client's method.
pub fn parameter_locals() -> Vec<&'static str> {
    let mut all: Vec<&str> = SERVER_OPERATION_LOCALS
        .iter()
        .chain(CLIENT_OPERATION_LOCALS)
        .chain(CLIPPY_PLACEHOLDERS)
        .copied()
        .collect();
    all.sort_unstable();
    all.dedup();
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;
    use syn::visit::Visit;

    /// Every identifier a pattern binds (`let`, function and closure parameters, match arms).
    #[derive(Default)]
    struct Bindings(BTreeSet<String>);

    impl<'a> Visit<'a> for Bindings {
        fn visit_pat_ident(&mut self, p: &'a syn::PatIdent) {
            let name = p.ident.to_string().trim_start_matches("r#").to_string();
            // Upper-case "bindings" are unit variants and constants (`None`).
            if !name.starts_with(|c: char| c.is_ascii_uppercase()) {
                self.0.insert(name);
            }
            syn::visit::visit_pat_ident(self, p);
        }
    }

    fn fixtures() -> Vec<(&'static str, &'static str)> {
        vec![
            ("petstore", include_str!("../../../spec/petstore.yaml")),
            (
                "library",
                include_str!("../../../tests/fixtures/library.yaml"),
            ),
            (
                "constructs",
                include_str!("../../../tests/fixtures/constructs.yaml"),
            ),
            (
                "adversarial",
                include_str!("../../../tests/fixtures/adversarial.yaml"),
            ),
        ]
    }

    #[test]
    fn every_binding_an_emitter_introduces_is_listed() {
        let known: BTreeSet<&str> = SERVER_OPERATION_LOCALS
            .iter()
            .chain(CLIENT_OPERATION_LOCALS)
            .chain(CLI_OPERATION_LOCALS)
            .chain(OTHER_LOCALS)
            .copied()
            .collect();
        for (name, text) in fixtures() {
            let doc = crate::load::parse(text).expect("fixture loads").doc;
            let mut sink = crate::diag::Sink::default();
            let api = crate::lower::lower(&doc, &mut sink);
            // The only document-derived bindings: parameter values, and the arguments of the
            // structs' `new` and setters and the options' setters, named after the fields
            // (alone in those functions but for `self`, so nothing to reserve there). A
            // struct's reader is the runtime's `object::json!`, whose own locals are hygienic.
            let fields = api.types.iter().flat_map(|t| match &t.kind {
                crate::ir::TypeKind::Struct(s) => s.fields.iter().map(|f| f.rust.clone()).collect(),
                _ => Vec::new(),
            });
            let options = crate::Options {
                name: name.into(),
                spec_label: name.into(),
                command: "test".into(),
                string_formats: false,
                ..Default::default()
            };
            let (_, cli) = crate::cli_plan(text, &options).expect("fixture's CLI plan");
            let cli_locals = cli
                .commands
                .iter()
                .flat_map(|c| c.flags.iter().filter_map(|f| f.local.clone()));
            let derived: BTreeSet<String> = api
                .operations
                .iter()
                .flat_map(|op| {
                    op.params
                        .iter()
                        .flat_map(|p| [p.local.clone(), p.rust.clone()])
                })
                .chain(fields)
                .chain(cli_locals)
                .map(|l| l.trim_start_matches("r#").to_string())
                // The mock binds each answer header's value as `header_<field>`: a prefix no
                // other binding of its functions has.
                .chain(api.operations.iter().flat_map(|op| {
                    op.responses.iter().flat_map(|r| {
                        r.headers
                            .iter()
                            .map(|h| format!("header_{}", crate::naming::bare(&h.rust)))
                    })
                }))
                .collect();
            let files = crate::generate_with_cli(text, &options, "../client")
                .expect("fixture generates")
                .files;
            for (path, file) in &files {
                if !path.ends_with(".rs") || path.contains("/runtime/") {
                    continue;
                }
                let parsed: syn::File = syn::parse_file(file).expect("generated file parses");
                let mut bindings = Bindings::default();
                bindings.visit_file(&parsed);
                let unknown: Vec<&String> = bindings
                    .0
                    .iter()
                    .filter(|b| !known.contains(b.as_str()) && !derived.contains(*b))
                    .collect();
                assert!(
                    unknown.is_empty(),
                    "{name} {path}: bindings not listed in naming/reserved.rs: {unknown:?}"
                );
            }
        }
    }

    #[test]
    fn parameter_locals_avoid_every_operation_local() {
        let doc = crate::load::parse(include_str!("../../../tests/fixtures/adversarial.yaml"))
            .expect("fixture loads")
            .doc;
        let mut sink = crate::diag::Sink::default();
        let api = crate::lower::lower(&doc, &mut sink);
        let reserved = parameter_locals();
        let mut renamed = 0;
        for op in &api.operations {
            for p in &op.params {
                let local = p.local.trim_start_matches("r#");
                assert!(!reserved.contains(&local), "{}: {local}", op.id);
                renamed += usize::from(p.local != p.rust);
            }
        }
        assert!(
            renamed > 0,
            "the adversarial fixture exercises the renaming"
        );
    }
}
