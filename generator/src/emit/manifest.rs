//! Prints the non-Rust files of a generated crate (Cargo.toml, README.md) with askama.
//!
//! The dependency lines are read from the runtime crate's own Cargo.toml (resolving
//! `workspace = true` against the workspace's), so the runtime and the generated manifest can
//! never disagree: a crate that depends on the runtime lists it and the crates its own code
//! names, with the runtime's specification of each; a vendored crate lists all of the
//! runtime's.
//!
//! Decision: these manifests are read line by line, not with a TOML parser. They are this
//! repository's own (compiled in with `include_str!`, never a user's file), written one
//! dependency per line; a TOML parser (`toml_edit`, which apigen-cli uses to edit a user's
//! workspace) would be compiled into every `build.rs` that uses `apigen::Builder` for that.
//! What would break the line reading (a dependency spread over several lines) fails the
//! vendored build in CI, which compiles with exactly these lines.

use crate::ir::{Api, Feature, FeatureOf};
use crate::options::RuntimeSource;
use askama::Template;

const WORKSPACE_MANIFEST: &str = include_str!("../../runtime-src/workspace.toml");
const SERVER_RUNTIME_MANIFEST: &str = include_str!("../../runtime-src/server.toml");
const CLIENT_RUNTIME_MANIFEST: &str = include_str!("../../runtime-src/client.toml");
const CLI_RUNTIME_MANIFEST: &str = include_str!("../../runtime-src/cli.toml");

/// The crates a generated server's own code names (the runtime's other dependencies are the
/// runtime's business).
const SERVER_NAMES: &[&str] = &[
    "axum",
    "http",
    "serde",
    "serde_json",
    "tracing",
    "uuid",
    "jiff",
];
/// The crates a generated client's own code names.
const CLIENT_NAMES: &[&str] = &[
    "reqwest",
    "http",
    "bytes",
    "serde",
    "serde_json",
    "uuid",
    "jiff",
];

#[derive(Template)]
#[template(path = "Cargo.toml.txt", escape = "none")]
struct CargoToml<'a> {
    header: &'a str,
    name: &'a str,
    version: &'a str,
    description: &'a str,
    deps: Vec<String>,
    sections: Vec<(String, Vec<String>)>,
    features: Vec<String>,
}

#[derive(Template)]
#[template(path = "README.md.txt", escape = "none")]
struct Readme<'a> {
    header_text: &'a str,
    name: &'a str,
    summary: &'a str,
    spec: &'a str,
    title: &'a str,
    version: &'a str,
    command: &'a str,
    files: Vec<(&'a str, &'a str)>,
    operations: Vec<(String, String, String, bool)>,
    usage: &'a str,
    reference: String,
}

pub enum Kind {
    Server,
    Client,
}

/// `Cargo.toml` of a generated crate.
pub fn cargo_toml(
    api: &Api,
    kind: Kind,
    crate_name: &str,
    runtime: &RuntimeSource,
    header: &str,
) -> Result<String, String> {
    let (manifest, side, names, description) = match kind {
        Kind::Server => (
            SERVER_RUNTIME_MANIFEST,
            "server",
            SERVER_NAMES,
            format!(
                "Server for {} {}: implement the trait, serve the router.",
                api.title, api.version
            ),
        ),
        Kind::Client => (
            CLIENT_RUNTIME_MANIFEST,
            "client",
            CLIENT_NAMES,
            format!("Client for {} {}.", api.title, api.version),
        ),
    };
    let (all, target_sections) = runtime_dependencies(manifest)?;
    let (deps, mut sections, mut features) = match runtime {
        RuntimeSource::Vendored => (all, target_sections, section_lines(manifest, "features")),
        RuntimeSource::Crates { path } => {
            let package = package_name(manifest)?;
            let mut deps = vec![runtime_dependency(manifest, side, path.as_deref())?];
            deps.extend(all.into_iter().filter(|line| {
                line.split_once(' ')
                    .is_some_and(|(name, _)| names.contains(&name.replace('-', "_").as_str()))
            }));
            // The runtime's features, passed on to it.
            let features = section_lines(manifest, "features")
                .iter()
                .filter_map(|line| line.split_once('=').map(|(name, _)| name.trim()))
                .map(|name| format!("{name} = [\"{package}/{name}\"]"))
                .collect();
            (deps, Vec::new(), features)
        }
    };
    match kind {
        Kind::Server => {
            sections.push((
                "dev-dependencies".to_string(),
                vec![
                    "# The usage example in src/lib.rs is a doc test (compiled by `cargo test`); it binds"
                        .to_string(),
                    "# a TCP listener.".to_string(),
                    "tokio = { version = \"1\", features = [\"net\"] }".to_string(),
                ],
            ));
            // `[[bin]]`: the template prints the name inside brackets.
            sections.push((
                "[bin]".to_string(),
                vec![
                    "# The mock of the API (src/mock.rs), served through the router:".to_string(),
                    format!("# cargo run --features mock --bin {crate_name}-mock -- --help"),
                    format!("name = \"{crate_name}-mock\""),
                    "path = \"src/bin/mock.rs\"".to_string(),
                    "required-features = [\"mock\"]".to_string(),
                ],
            ));
            features.extend([
                "# The `mock` module and the `…-mock` program: the document's examples served through"
                    .to_string(),
                "# the router (no other dependency).".to_string(),
                "mock = []".to_string(),
            ]);
            features.extend(tag_features(api));
        }
        Kind::Client => {
            features.extend([
                "# HTTPS through rustls; off by default so that plain builds stay small."
                    .to_string(),
                "rustls = [\"reqwest/rustls\"]".to_string(),
            ]);
            features.extend(tag_features(api));
        }
    }
    CargoToml {
        header: header.trim_end(),
        name: crate_name,
        version: &crate_version(&api.version),
        description: &toml_escape(&description),
        deps,
        sections,
        features,
    }
    .render()
    .map_err(|e| format!("Cargo.toml template: {e}"))
}

/// The client's feature per tag (`lower::features`), all on by `default`.
fn tag_features(api: &Api) -> Vec<String> {
    let all = &api.features.features;
    if all.is_empty() {
        return Vec::new();
    }
    let names: Vec<String> = all.iter().map(|f| format!("\"{}\"", f.name)).collect();
    let mut lines = vec![
        "# One feature per tag, all on by default: with `default-features = false` and the"
            .to_string(),
        "# features of the tags a project calls, only their operations and the types those"
            .to_string(),
        "# reach compile (book/src/guide/large-api.md).".to_string(),
        format!("default = [{}]", names.join(", ")),
    ];
    for Feature { name, of } in all {
        match of {
            FeatureOf::UnusedSchemas => lines
                .push("# The schemas no operation uses, as plain types for your own code.".into()),
            FeatureOf::Group(group) if name != group => {
                lines.push(format!("# `{}`", group.replace(['\n', '\r'], " ")));
            }
            FeatureOf::Group(_) => {}
        }
        lines.push(format!("{name} = []"));
    }
    lines
}

/// The `[dependencies]` line of a runtime crate (`side`: `server`, `client`, `cli`): its
/// version, and the checkout's path when there is one.
pub(crate) fn runtime_dependency(
    manifest: &str,
    side: &str,
    path: Option<&str>,
) -> Result<String, String> {
    let name = package_name(manifest)?;
    let version = package_value(manifest, "version")?;
    Ok(match path {
        Some(path) => {
            let path = toml_escape(&format!("{}/{side}", path.trim_end_matches('/')));
            format!("{name} = {{ version = \"{version}\", path = \"{path}\" }}")
        }
        None => format!("{name} = \"{version}\""),
    })
}

/// The CLI runtime's dependency line (see [`runtime_dependency`]).
pub(crate) fn cli_runtime_dependency(path: Option<&str>) -> Result<String, String> {
    runtime_dependency(CLI_RUNTIME_MANIFEST, "cli", path)
}

fn package_name(manifest: &str) -> Result<String, String> {
    package_value(manifest, "name")
}

/// A `key = "value"` of a runtime manifest's `[package]`.
fn package_value(manifest: &str, key: &str) -> Result<String, String> {
    section_lines(manifest, "package")
        .iter()
        .find_map(|line| {
            let (k, v) = line.split_once('=')?;
            (k.trim() == key).then(|| v.trim().trim_matches('"').to_string())
        })
        .ok_or_else(|| format!("a runtime manifest has no package {key}"))
}

/// `README.md` of a generated crate.
pub fn readme(
    api: &Api,
    kind: Kind,
    crate_name: &str,
    header: &str,
    spec: &str,
    command: &str,
    vendored: bool,
) -> Result<String, String> {
    let (summary, mut files, usage) = match kind {
        Kind::Server => (
            format!(
                "The server side of {}: a trait with one async method per operation, and a router that serves an implementation over HTTP with authentication, validation, error bodies, rate limits and deprecation headers handled.",
                api.title
            ),
            vec![
                (
                    "src/api.rs",
                    "the trait to implement, with the parameter and response types of each operation",
                ),
                (
                    "src/router.rs",
                    "`router()`: the axum `Router` that serves an implementation",
                ),
                (
                    "src/types.rs",
                    "the schema types, with the checks of their constraints",
                ),
            ],
            "## Use\n\nImplement the trait in `src/api.rs` for your service type, then\n`axum::serve(listener, router(Arc::new(service), ServerConfig::new().authenticator(keys)))`.\nSee the crate docs (`cargo doc --open`) for the whole walk-through.",
        ),
        Kind::Client => (
            format!(
                "A typed client for {}: one async method per operation, credentials applied as the document says, polite retries on 429 and transient failures.",
                api.title
            ),
            vec![
                (
                    "src/client.rs",
                    "`Client`, its builder, and one method per operation with its error type",
                ),
                ("src/types.rs", "the schema types"),
            ],
            "## Use\n\nBuild a client with `Client::builder(base_url)`, set credentials, and call the methods.\nSee the crate docs (`cargo doc --open`) for the whole walk-through.",
        ),
    };
    files.push(match (&kind, vendored) {
        (Kind::Server, true) => (
            "src/runtime/",
            "the server runtime (authentication, rate limits, problems), copied from the generator's `apigen-server-runtime`",
        ),
        (Kind::Client, true) => (
            "src/runtime/",
            "the client runtime (retries, rate-limit state, errors), copied from the generator's `apigen-client-runtime`",
        ),
        (Kind::Server, false) => (
            "runtime",
            "the crate `apigen-server-runtime` (authentication, rate limits, problems), re-exported by `src/lib.rs` as the module `runtime`",
        ),
        (Kind::Client, false) => (
            "runtime",
            "the crate `apigen-client-runtime` (retries, rate-limit state, errors), re-exported by `src/lib.rs` as the module `runtime`",
        ),
    });
    let operations = api
        .operations
        .iter()
        .map(|op| {
            (
                op.id.clone(),
                format!("{} {}", op.method, op.path),
                op.rust.clone(),
                op.deprecated.is_some(),
            )
        })
        .collect();
    let header_text = header.trim().trim_start_matches("//").trim();
    // The client's features (`lower::features`), one row per tag or path group.
    let usage = match kind {
        Kind::Client | Kind::Server if !api.features.features.is_empty() => {
            let part = match kind {
                Kind::Client => {
                    "you call, only their operations and\nthe types those reach compile."
                }
                Kind::Server => {
                    "you serve, only their operations (trait\nmethods, handlers, routes, mock answers) and the types those reach compile; a request for\nan operation left out is answered as one for a path the document lacks (404, or 405 where\nthe path has an operation that is on)."
                }
            };
            let mut text = format!(
                "{usage}\n\n## Features\n\nOne per tag (a path group where the document has none), all on by `default`: with\n`default-features = false` and the features of the tags {part}\n\n| feature | operations of |\n|---|---|"
            );
            for Feature { name, of } in &api.features.features {
                match of {
                    FeatureOf::UnusedSchemas => text.push_str(&format!(
                        "\n| `{name}` | none: the schemas no operation, webhook or error body uses |"
                    )),
                    FeatureOf::Group(group) => text
                        .push_str(&format!("\n| `{name}` | `{}` |", group.replace('|', "\\|"))),
                }
            }
            text
        }
        _ => usage.to_string(),
    };
    Readme {
        header_text,
        name: crate_name,
        summary: &summary,
        spec,
        title: &api.title,
        version: &api.version,
        command,
        files,
        operations,
        usage: &usage,
        reference: reference(api, &kind, &crate_name.replace('-', "_")),
    }
    .render()
    .map(|s| format!("{}\n", s.trim_end()))
    .map_err(|e| format!("README template: {e}"))
}

/// The README's reference: every operation, by feature group where there are several, with a
/// call of its client method or the trait method an implementation writes
/// (`emit::usage`).
fn reference(api: &Api, kind: &Kind, lib: &str) -> String {
    let mut out = String::new();
    match kind {
        Kind::Client => {
            out.push_str(&format!(
                "## Calls\n\nEach operation's call with its required arguments, the document's examples where it gives them.\nThe snippets run in a function returning `Result<_, Box<dyn std::error::Error>>`, after:\n\n```rust\nuse {lib}::{{Client, serde_json, types}};\n\nlet client = Client::builder(\"{}\")\n",
                api.servers
                    .first()
                    .map(|s| s.url.as_str())
                    .unwrap_or("http://127.0.0.1:8080")
            ));
            for s in &api.security_schemes {
                let arg = match s.kind {
                    crate::ir::SchemeKind::Basic => "\"user\", \"password\"",
                    _ => "\"secret\"",
                };
                out.push_str(&format!("    .{}({arg})\n", crate::naming::bare(&s.rust)));
            }
            out.push_str("    .build()?;\n```\n");
        }
        Kind::Server => out.push_str(&format!(
            "## Implementing\n\nEach operation's method as an implementation of `{name}` (in `src/api.rs`) writes it, inside:\n\n```rust\nuse {lib}::{{RequestContext, api::*, http, serde_json, types}};\n\nstruct Service;\n\nimpl {name} for Service {{\n    type Error = std::convert::Infallible;\n    // The methods below; one left out answers 501 with the document's error body.\n}}\n```\n",
            name = format!("{}Api", api.api_name)
        )),
    }
    let groups = operation_groups(api, 0..api.operations.len());
    for (group, ops) in &groups {
        let level = match group {
            Some(group) => {
                out.push_str(&format!("\n### {group}\n"));
                "####"
            }
            None => "###",
        };
        for &i in ops {
            let op = &api.operations[i];
            out.push_str(&format!(
                "\n{level} `{}`{}\n\n`{} {}`",
                op.id,
                heading_tail(op),
                op.method,
                op.path
            ));
            let snippet = match kind {
                Kind::Client => {
                    if let Some(with) = &op.rust_with {
                        out.push_str(&format!("; optional parameters through `{with}`"));
                    }
                    super::usage::client_call(api, op, lib)
                }
                Kind::Server => {
                    let answers: Vec<String> = op
                        .responses
                        .iter()
                        .map(|r| {
                            let status = match r.status {
                                crate::ir::Status::Code(c) => c.to_string(),
                                crate::ir::Status::Range(r) => format!("{r}XX"),
                                crate::ir::Status::Default => "default".into(),
                            };
                            format!("`{}` {status}", r.variant)
                        })
                        .collect();
                    if !answers.is_empty() {
                        out.push_str(&format!("; answers {}", answers.join(", ")));
                    }
                    super::usage::server_method(op, lib)
                }
            };
            out.push_str(&format!(".\n\n```rust\n{snippet}\n```\n"));
        }
    }
    out
}

/// The operations at `indices`, by feature group (the first feature each compiles under)
/// in the order groups first appear; one group without a name when the document has no
/// features.
fn operation_groups(
    api: &Api,
    indices: impl Iterator<Item = usize>,
) -> Vec<(Option<String>, Vec<usize>)> {
    let group_of = |i: usize| -> Option<String> {
        let feature = api.features.operations.get(i)?.first()?;
        api.features.features.iter().find_map(|f| match &f.of {
            FeatureOf::Group(g) if &f.name == feature => Some(g.clone()),
            _ => None,
        })
    };
    let mut groups: Vec<(Option<String>, Vec<usize>)> = Vec::new();
    for i in indices {
        let group = group_of(i);
        match groups.iter_mut().find(|(g, _)| *g == group) {
            Some((_, ops)) => ops.push(i),
            None => groups.push((group, vec![i])),
        }
    }
    groups
}

/// What follows an operation's id in its heading: `: ` and its summary on one line, and
/// `(deprecated)` unless the summary says so.
fn heading_tail(op: &crate::ir::Operation) -> String {
    let summary = crate::docs::short_summary(op.summary.as_deref())
        .map(|s| format!(": {s}"))
        .unwrap_or_default();
    // Said once: a summary may say it already.
    let deprecated = if op.deprecated.is_some() && !summary.to_lowercase().contains("deprecated") {
        " (deprecated)"
    } else {
        ""
    };
    format!("{summary}{deprecated}")
}

/// `README.md` of a generated command-line crate: how to run it, then every subcommand with
/// a command line that runs it (`CliCommand::usage`), by feature group, and the operations
/// it leaves to the client library.
pub fn cli_readme(
    api: &Api,
    cli: &crate::ir::Cli,
    header: &str,
    spec: &str,
    command: &str,
) -> String {
    let header_text = header.trim().trim_start_matches("//").trim();
    let bin = &cli.bin;
    let mut out = format!(
        "<!-- {header_text} -->\n# {bin}\n\nThe command line of {title}: one subcommand per operation, its parameters and body as flags, the\nanswer printed as a table or, with `--json`, as JSON.\n\nGenerated from `{spec}` ({title} {version}) by `{command}`. Do not edit these files;\nedit the spec and regenerate.\n\n## Use\n\n`{bin} --help` lists the subcommands and `{bin} SUBCOMMAND --help` a subcommand's flags.\n`--base-url URL` or `--env NAME` picks the server (the document's first by default).",
        title = api.title,
        version = api.version,
    );
    if let Some(help) = &cli.credentials_help {
        out.push(' ');
        out.push_str(help);
    }
    out.push_str("\n\n## Commands\n");
    let by_operation: std::collections::BTreeMap<usize, &crate::ir::CliCommand> =
        cli.commands.iter().map(|c| (c.operation, c)).collect();
    for (group, ops) in operation_groups(api, by_operation.keys().copied()) {
        let level = match &group {
            Some(group) => {
                out.push_str(&format!("\n### {group}\n"));
                "####"
            }
            None => "###",
        };
        for i in ops {
            let (op, c) = (&api.operations[i], by_operation[&i]);
            out.push_str(&format!(
                "\n{level} `{}`{}\n\n`{} {}` (operation `{}`).\n\n```sh\n{}\n```\n",
                c.name,
                heading_tail(op),
                op.method,
                op.path,
                op.id,
                c.usage
            ));
        }
    }
    if !cli.left_out.is_empty() {
        out.push_str("\n## Left to the client library\n\n");
        for l in &cli.left_out {
            let op = &api.operations[l.operation];
            out.push_str(&format!(
                "- `{}` (`{} {}`): {}\n",
                op.id, op.method, op.path, l.reason
            ));
        }
    }
    format!("{}\n", out.trim_end())
}

/// The inside of a TOML basic string (`"…"`): backslashes, quotes and control characters
/// escaped, so any document title makes a valid manifest.
pub(crate) fn toml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// A crate version from `info.version` when it is semver-like, else `0.1.0`.
pub(crate) fn crate_version(v: &str) -> String {
    let core = v.trim().trim_start_matches('v');
    let parts: Vec<&str> = core.split('.').collect();
    if parts.len() == 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
    {
        core.to_string()
    } else {
        "0.1.0".to_string()
    }
}

/// The client runtime's `uuid` and `jiff` lines (the types of typed string formats), for a
/// crate built on a generated client that names those types (the CLI): the same
/// specification as the client's, so one build of each serves both.
pub fn format_dependencies() -> Vec<String> {
    runtime_dependencies(CLIENT_RUNTIME_MANIFEST)
        .map(|(deps, _)| deps)
        .unwrap_or_default()
        .into_iter()
        .filter(|d| d.starts_with("uuid = ") || d.starts_with("jiff = "))
        .collect()
}

/// Plain dependency lines, and target-specific sections with theirs.
type Dependencies = (Vec<String>, Vec<(String, Vec<String>)>);

/// The `[dependencies]` lines and target-specific sections of a runtime manifest, with
/// `workspace = true` replaced by the workspace's own specification.
fn runtime_dependencies(manifest: &str) -> Result<Dependencies, String> {
    let workspace = section_lines(WORKSPACE_MANIFEST, "workspace.dependencies");
    let resolve = |line: &str| -> Result<String, String> {
        let (name, value) = line
            .split_once('=')
            .ok_or_else(|| format!("cannot read dependency line `{line}`"))?;
        let dotted = name.trim().ends_with(".workspace");
        let name = name.trim().trim_end_matches(".workspace").trim();
        let value = value.trim();
        let inherits = dotted || value.replace(' ', "").contains("workspace=true");
        if !inherits {
            return Ok(format!("{name} = {value}"));
        }
        let base = workspace
            .iter()
            .find_map(|l| {
                l.split_once('=')
                    .filter(|(n, _)| n.trim() == name)
                    .map(|(_, v)| v.trim().to_string())
            })
            .ok_or_else(|| format!("`{name}` is not in [workspace.dependencies]"))?;
        // `x.workspace = true` adds nothing; `{ workspace = true, features = [...] }` adds the
        // keys beside `workspace` to the workspace's own specification.
        let extra = if dotted {
            String::new()
        } else {
            top_level_entries(value.trim_start_matches('{').trim_end_matches('}'))
                .into_iter()
                .filter(|p| !p.replace(' ', "").starts_with("workspace="))
                .collect::<Vec<_>>()
                .join(", ")
        };
        if extra.is_empty() {
            Ok(format!("{name} = {base}"))
        } else if base.starts_with('{') {
            Ok(format!(
                "{name} = {}, {extra} }}",
                base.trim_end_matches('}').trim_end()
            ))
        } else {
            Ok(format!("{name} = {{ version = {base}, {extra} }}"))
        }
    };
    let deps = section_lines(manifest, "dependencies")
        .iter()
        .map(|l| resolve(l))
        .collect::<Result<Vec<_>, _>>()?;
    let mut sections = Vec::new();
    for header in manifest.lines().filter_map(|l| {
        let l = l.trim();
        (l.starts_with("[target.") && l.ends_with(".dependencies]"))
            .then(|| l[1..l.len() - 1].to_string())
    }) {
        let lines = section_lines(manifest, &header)
            .iter()
            .map(|l| resolve(l))
            .collect::<Result<Vec<_>, _>>()?;
        sections.push((header, lines));
    }
    Ok((deps, sections))
}

/// The comma-separated entries of an inline table's body, leaving commas inside arrays alone.
fn top_level_entries(body: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut current = String::new();
    for c in body.chars() {
        match c {
            '[' | '{' => depth += 1,
            ']' | '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                out.push(current.trim().to_string());
                current.clear();
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    out.push(current.trim().to_string());
    out.retain(|e| !e.is_empty());
    out
}

/// The non-comment, non-empty lines of one `[section]` of a manifest.
fn section_lines(manifest: &str, section: &str) -> Vec<String> {
    let mut inside = false;
    let mut out = Vec::new();
    for line in manifest.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            inside = t == format!("[{section}]");
            continue;
        }
        if inside && !t.is_empty() && !t.starts_with('#') {
            out.push(t.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_are_escaped() {
        assert_eq!(
            toml_escape(r#"My "quoted" \ API"#),
            r#"My \"quoted\" \\ API"#
        );
        assert_eq!(toml_escape("a\nb"), "a\\nb");
    }

    #[test]
    fn versions() {
        assert_eq!(crate_version("1.0.0"), "1.0.0");
        assert_eq!(crate_version("v7.78.1"), "7.78.1");
        assert_eq!(crate_version("2017-04-19"), "0.1.0");
    }

    #[test]
    fn runtime_deps_resolve_against_the_workspace() {
        let (server, _) = runtime_dependencies(SERVER_RUNTIME_MANIFEST).unwrap();
        assert!(
            server.iter().any(|d| d.starts_with("axum = ")),
            "{server:?}"
        );
        assert!(
            server.iter().all(|d| !d.contains("workspace")),
            "{server:?}"
        );
        // The optional store's dependencies stay optional, and its feature is carried over.
        assert!(
            server
                .iter()
                .any(|d| d.starts_with("redis = ") && d.contains("optional = true")),
            "{server:?}"
        );
        assert!(
            section_lines(SERVER_RUNTIME_MANIFEST, "features")
                .iter()
                .any(|f| f.starts_with("redis = ")),
        );
        let (client, sections) = runtime_dependencies(CLIENT_RUNTIME_MANIFEST).unwrap();
        assert!(
            client.iter().any(|d| d.starts_with("reqwest = ")),
            "{client:?}"
        );
        assert!(!client.iter().any(|d| d.starts_with("axum")), "{client:?}");
        assert!(
            sections.iter().any(|(h, _)| h.contains("wasm32")),
            "{sections:?}"
        );
        let formats = format_dependencies();
        assert_eq!(formats.len(), 2, "{formats:?}");
        assert!(formats.iter().all(|d| client.contains(d)), "{formats:?}");
    }
}
