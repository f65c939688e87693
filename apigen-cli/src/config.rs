//! `apigen.toml`: the OpenAPI documents of a workspace and the crates generated from each.
//!
//! ```toml
//! [[api]]
//! spec = "openapi.yaml"      # the document, relative to this file
//! name = "petstore"          # crate names petstore-server, -client, -cli; trait PetstoreApi
//! out = "petstore"           # where the crates go: petstore/server, petstore/client, petstore/cli
//! cli = true                 # also the command-line client (default false)
//! tags = ["pets"]            # only the operations of these tags (and their types)
//! operations = ["getOrder"]  # … and these operations (default: all operations)
//! ```
//!
//! Every path is relative to the file, so what is generated does not depend on the directory
//! `apigen` runs in or on how a path was typed. Unknown keys are errors with their line (a
//! misspelt option must not be ignored).

use std::path::{Path, PathBuf};
use toml_edit::{Document, Item, TableLike};

/// The file's name; `apigen` looks for it in the current directory and its parents.
pub const FILE_NAME: &str = "apigen.toml";

/// A read `apigen.toml`.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// The file itself; relative paths in it are relative to its directory.
    pub path: PathBuf,
    /// The command this project regenerates with (`command = "cargo xtask codegen"`), which
    /// generated files name in their first line; `None`: the caller's (`apigen generate`).
    /// One value per project, so files do not change with the tool that wrote them.
    pub command: Option<String>,
    pub apis: Vec<ApiEntry>,
}

/// One `[[api]]` table.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiEntry {
    /// The document, as written (relative to the file).
    pub spec: String,
    /// Crate-name stem, as written; it names the server's trait too (`petstore` →
    /// `PetstoreApi`). `None`: from the document's file name ([`default_name`]), the trait
    /// from its title.
    pub name: Option<String>,
    /// Each crate's directory as written (relative to the file); `None`: not generated.
    pub server: Option<String>,
    pub client: Option<String>,
    pub cli: Option<String>,
    pub string_formats: bool,
    pub runtime: Runtime,
    /// `tags` and `operations`: the part of the document to generate (all when both empty).
    pub select: apigen::Selection,
}

impl ApiEntry {
    /// The crate-name stem: `name`, or one made from the document's file name.
    pub fn crate_stem(&self) -> String {
        self.name
            .clone()
            .unwrap_or_else(|| default_name(&self.spec))
    }

    /// As [`ApiEntry::crate_stem`], the document (in `dir`) read for its title when its file
    /// name is generic ([`document_name`]).
    pub fn crate_stem_in(&self, dir: &Path) -> String {
        self.name
            .clone()
            .unwrap_or_else(|| document_name(&dir.join(&self.spec)))
    }
}

/// Where the generated crates get the runtime crates from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Runtime {
    /// From the registry, by version (`apigen-server-runtime = "0.2.3"`): the default.
    Registry,
    /// A directory holding the runtime crates (`server/`, `client/`, `cli/`), relative to the
    /// file: an apigen checkout, or a monorepo's copy. The version stays in the dependency.
    Path(String),
    /// A copy of the runtime's source in each generated crate.
    Vendored,
}

impl Config {
    /// The directory relative paths start from.
    pub fn dir(&self) -> &Path {
        self.path.parent().unwrap_or(Path::new("."))
    }

    /// Reads and checks the file.
    pub fn load(path: &Path) -> Result<Config, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Config::parse(&text, path)
    }

    /// Checks `text`, the contents of `path` (named in errors, `path:LINE: message`).
    pub fn parse(text: &str, path: &Path) -> Result<Config, String> {
        let at = |span: Option<std::ops::Range<usize>>| {
            let line = span.map_or(1, |s| text[..s.start].matches('\n').count() + 1);
            format!("{}:{line}", path.display())
        };
        let doc = Document::parse(text).map_err(|e| {
            format!(
                "{}: not valid TOML: {}",
                at(e.span()),
                e.message().trim_end()
            )
        })?;
        let mut apis = Vec::new();
        let mut command = None;
        for (key, item) in doc.iter() {
            if key == "command" {
                command = Some(
                    item.as_str()
                        .filter(|c| !c.trim().is_empty())
                        .ok_or_else(|| {
                            format!(
                                "{}: `command` is the command that regenerates, as a string",
                                at(item.span())
                            )
                        })?
                        .to_string(),
                );
                continue;
            }
            if key != "api" {
                let span = doc.key(key).and_then(|k| k.span());
                return Err(format!(
                    "{}: unknown key `{key}` (apigen.toml holds `command` and `[[api]]` tables)",
                    at(span)
                ));
            }
            let Some(tables) = item.as_array_of_tables() else {
                return Err(format!(
                    "{}: `api` is a list of tables: write each document as `[[api]]`",
                    at(item.span())
                ));
            };
            for table in tables.iter() {
                apis.push(entry(table, &at)?);
            }
        }
        if apis.is_empty() {
            return Err(format!(
                "{}: no `[[api]]` table: list at least one document",
                path.display()
            ));
        }
        let mut names = std::collections::BTreeSet::new();
        for api in &apis {
            if !names.insert(api.crate_stem()) {
                return Err(format!(
                    "{}: two `[[api]]` tables are named `{}`: crate names must differ",
                    path.display(),
                    api.crate_stem()
                ));
            }
        }
        Ok(Config {
            path: path.to_path_buf(),
            command,
            apis,
        })
    }
}

/// The keys an `[[api]]` table may have.
const KEYS: &[&str] = &[
    "spec",
    "name",
    "out",
    "server",
    "client",
    "cli",
    "string-formats",
    "runtime",
    "tags",
    "operations",
];

fn entry(
    table: &dyn TableLike,
    at: &dyn Fn(Option<std::ops::Range<usize>>) -> String,
) -> Result<ApiEntry, String> {
    let table_span = table
        .iter()
        .next()
        .and_then(|(k, _)| table.key(k))
        .and_then(|k| k.span());
    for (key, _) in table.iter() {
        if !KEYS.contains(&key) {
            return Err(format!(
                "{}: unknown key `{key}` in `[[api]]` (known: {})",
                at(table.key(key).and_then(|k| k.span())),
                KEYS.join(", ")
            ));
        }
    }
    let string = |key: &str| -> Result<Option<String>, String> {
        match table.get(key) {
            None => Ok(None),
            Some(item) => item
                .as_str()
                .map(|s| Some(s.to_string()))
                .ok_or_else(|| format!("{}: `{key}` must be a string", at(item.span()))),
        }
    };
    let spec = string("spec")?.ok_or_else(|| {
        format!(
            "{}: `[[api]]` needs `spec`, the document's path",
            at(table_span)
        )
    })?;
    let name = match string("name")? {
        Some(name) if apigen::naming::is_crate_stem(&name) => Some(name),
        Some(name) => {
            return Err(format!(
                "{}: name `{name}` is not a valid crate name stem (ASCII letters, digits, `-` and `_`, starting with a letter); try `{}`",
                at(table.get("name").and_then(Item::span)),
                apigen::naming::crate_stem(&name)
            ));
        }
        None => None,
    };
    let out = string("out")?.unwrap_or_else(|| name.clone().unwrap_or_else(|| default_name(&spec)));
    let side = |key: &str, default: bool| -> Result<Option<String>, String> {
        let dir = format!("{}/{key}", out.trim_end_matches('/'));
        match table.get(key) {
            None => Ok(default.then_some(dir)),
            Some(item) => match (item.as_bool(), item.as_str()) {
                (Some(true), _) => Ok(Some(dir)),
                (Some(false), _) => Ok(None),
                (_, Some(path)) => Ok(Some(path.to_string())),
                _ => Err(format!(
                    "{}: `{key}` is true, false or the crate's directory",
                    at(item.span())
                )),
            },
        }
    };
    let server = side("server", true)?;
    let client = side("client", true)?;
    let cli = side("cli", false)?;
    if cli.is_some() && client.is_none() {
        return Err(format!(
            "{}: the command-line client is built on the client: `cli` needs `client`",
            at(table.get("cli").and_then(Item::span))
        ));
    }
    let string_formats = match table.get("string-formats") {
        None => false,
        Some(item) => item
            .as_bool()
            .ok_or_else(|| format!("{}: `string-formats` is true or false", at(item.span())))?,
    };
    let runtime = match table.get("runtime") {
        None => Runtime::Registry,
        Some(item) => runtime(item).ok_or_else(|| {
            format!(
                "{}: `runtime` is \"registry\" (the default), \"vendored\" or {{ path = \"DIR\" }} (a directory holding the runtime crates)",
                at(item.span())
            )
        })?,
    };
    let list = |key: &str| -> Result<Vec<String>, String> {
        let Some(item) = table.get(key) else {
            return Ok(Vec::new());
        };
        let wrong = || format!("{}: `{key}` is a list of strings", at(item.span()));
        let array = item.as_array().ok_or_else(wrong)?;
        array
            .iter()
            .map(|v| v.as_str().map(str::to_owned).ok_or_else(wrong))
            .collect()
    };
    let select = apigen::Selection {
        tags: list("tags")?,
        operations: list("operations")?,
    };
    Ok(ApiEntry {
        spec,
        name,
        server,
        client,
        cli,
        string_formats,
        runtime,
        select,
    })
}

fn runtime(item: &Item) -> Option<Runtime> {
    if let Some(word) = item.as_str() {
        return match word {
            "registry" => Some(Runtime::Registry),
            "vendored" => Some(Runtime::Vendored),
            _ => None,
        };
    }
    let table = item.as_table_like()?;
    if table.iter().count() != 1 {
        return None;
    }
    table
        .get("path")?
        .as_str()
        .map(|p| Runtime::Path(p.to_string()))
}

/// The crate-name stem of a document without `name`: from its file name
/// (`api.github.com.json` → `api-github-com`). Where the document can be read, prefer
/// [`document_name`], which also reads the title a generic file name gives way to.
pub fn default_name(spec: &str) -> String {
    let stem = Path::new(spec)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("api");
    apigen::naming::crate_stem(stem)
}

/// The crate-name stem of the document at `path` without `name`:
/// [`apigen::naming::document_stem`], from its file name, or from its title when the file
/// name is generic (OpenAI's `openapi.yaml`, "OpenAI API" → `openai`, so its CLI reads
/// `OPENAI_API_KEY`).
pub fn document_name(path: &Path) -> String {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("api");
    let title = std::fs::read_to_string(path)
        .ok()
        .and_then(|text| apigen::load::to_json_value(&text).ok())
        .and_then(|doc| doc.pointer("/info/title")?.as_str().map(str::to_string))
        .unwrap_or_default();
    apigen::naming::document_stem(stem, &title)
}

/// The text of a new `apigen.toml` with one document (`apigen init`); `command`: the
/// project's regenerating command when it is not `apigen generate`.
pub fn render(entry: &ApiEntry, command: Option<&str>) -> String {
    let mut text = String::from(
        "# apigen.toml: the OpenAPI documents of this workspace and the crates generated from each.\n\
         # `apigen generate` rewrites the crates, `apigen check` (CI) fails while they are stale.\n\
         # Paths are relative to this file. Keys: spec, name, out, server, client, cli,\n\
         # string-formats, runtime (\"registry\", \"vendored\" or { path = \"DIR\" }),\n\
         # tags and operations (lists: generate only these operations and the types they reach).\n",
    );
    if let Some(command) = command {
        text.push_str(&format!(
            "# `command`: how this project regenerates, as generated files say (either tool writes the same).\ncommand = {}\n",
            quoted(command)
        ));
    }
    text.push_str("\n[[api]]\n");
    text.push_str(&format!("spec = {}\n", quoted(&entry.spec)));
    if let Some(name) = &entry.name {
        text.push_str(&format!("name = {}\n", quoted(name)));
    }
    let out = common_out(entry);
    if let Some(out) = &out {
        text.push_str(&format!("out = {}\n", quoted(out)));
    }
    for (key, dir, default) in [
        ("server", &entry.server, true),
        ("client", &entry.client, true),
        ("cli", &entry.cli, false),
    ] {
        let usual = out.as_ref().map(|o| format!("{o}/{key}"));
        match dir {
            None if default => text.push_str(&format!("{key} = false\n")),
            None => {}
            // At its usual place: written only where the default is not to generate it.
            Some(d) if usual.as_ref() == Some(d) && !default => {
                text.push_str(&format!("{key} = true\n"));
            }
            Some(d) if usual.as_ref() == Some(d) => {}
            Some(d) => text.push_str(&format!("{key} = {}\n", quoted(d))),
        }
    }
    if entry.string_formats {
        text.push_str("string-formats = true\n");
    }
    let list = |items: &[String]| {
        let quoted: Vec<String> = items.iter().map(|i| quoted(i)).collect();
        format!("[{}]", quoted.join(", "))
    };
    if !entry.select.tags.is_empty() {
        text.push_str(&format!("tags = {}\n", list(&entry.select.tags)));
    }
    if !entry.select.operations.is_empty() {
        text.push_str(&format!(
            "operations = {}\n",
            list(&entry.select.operations)
        ));
    }
    match &entry.runtime {
        Runtime::Registry => {}
        Runtime::Vendored => text.push_str("runtime = \"vendored\"\n"),
        Runtime::Path(p) => text.push_str(&format!("runtime = {{ path = {} }}\n", quoted(p))),
    }
    text
}

/// The `out` folder an entry's crates share (`petstore` for `petstore/server` …), if any.
fn common_out(entry: &ApiEntry) -> Option<String> {
    let parent = |dir: &String, side: &str| dir.strip_suffix(&format!("/{side}")).map(String::from);
    let mut outs = [
        entry.server.as_ref().map(|d| parent(d, "server")),
        entry.client.as_ref().map(|d| parent(d, "client")),
        entry.cli.as_ref().map(|d| parent(d, "cli")),
    ]
    .into_iter()
    .flatten();
    let first = outs.next()??;
    outs.all(|o| o.as_ref() == Some(&first)).then_some(first)
}

fn quoted(s: &str) -> String {
    toml_edit::Value::from(s).to_string().trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Config, String> {
        Config::parse(text, Path::new("apigen.toml"))
    }

    #[test]
    fn defaults() {
        let config = parse("[[api]]\nspec = \"spec/api.github.com.json\"\n").unwrap();
        let api = &config.apis[0];
        assert_eq!(api.name, None);
        assert_eq!(api.crate_stem(), "api-github-com");
        assert_eq!(api.server.as_deref(), Some("api-github-com/server"));
        assert_eq!(api.client.as_deref(), Some("api-github-com/client"));
        assert_eq!(api.cli, None);
        assert_eq!(api.runtime, Runtime::Registry);
        assert!(!api.string_formats);
    }

    #[test]
    fn every_key() {
        let config = parse(
            r#"
[[api]]
spec = "a.yaml"
name = "shop"
out = "crates"
cli = true
server = false
string-formats = true
runtime = { path = "../apigen/runtime" }
tags = ["issues", "pulls"]
operations = ["getPet"]

[[api]]
spec = "b.yaml"
client = "web/b-client"
runtime = "vendored"
"#,
        )
        .unwrap();
        let a = &config.apis[0];
        assert_eq!(
            (a.server.as_deref(), a.client.as_deref(), a.cli.as_deref()),
            (None, Some("crates/client"), Some("crates/cli"))
        );
        assert!(a.string_formats);
        assert_eq!(a.runtime, Runtime::Path("../apigen/runtime".into()));
        assert_eq!(
            (a.select.tags.as_slice(), a.select.operations.as_slice()),
            (
                &["issues".to_string(), "pulls".to_string()][..],
                &["getPet".to_string()][..]
            )
        );
        let b = &config.apis[1];
        assert_eq!(b.client.as_deref(), Some("web/b-client"));
        assert_eq!(b.runtime, Runtime::Vendored);
    }

    #[test]
    fn errors_name_the_line() {
        let cases = [
            (
                "[[api]]\nspec = \"a.yaml\"\nclii = true\n",
                "apigen.toml:3: unknown key `clii`",
            ),
            (
                "[[api]]\nname = \"x\"\n",
                "apigen.toml:2: `[[api]]` needs `spec`",
            ),
            (
                "[[api]]\nspec = \"a.yaml\"\nname = \"a.b\"\n",
                "apigen.toml:3: name `a.b` is not a valid crate name stem",
            ),
            (
                "[[api]]\nspec = \"a.yaml\"\nruntime = \"git\"\n",
                "apigen.toml:3: `runtime` is \"registry\"",
            ),
            (
                "[[api]]\nspec = \"a.yaml\"\nclient = false\ncli = true\n",
                "apigen.toml:4: the command-line client is built on the client",
            ),
            (
                "[api]\nspec = \"a.yaml\"\n",
                "apigen.toml:1: `api` is a list of tables",
            ),
            ("spec = \"a.yaml\"\n", "apigen.toml:1: unknown key `spec`"),
            (
                "command = 3\n[[api]]\nspec = \"a.yaml\"\n",
                "apigen.toml:1: `command` is the command",
            ),
            ("[[api]]\nspec = \n", "apigen.toml:2: not valid TOML"),
            (
                "[[api]]\nspec = \"a.yaml\"\ntags = \"issues\"\n",
                "apigen.toml:3: `tags` is a list of strings",
            ),
            ("", "apigen.toml: no `[[api]]` table"),
            (
                "[[api]]\nspec = \"a.yaml\"\n[[api]]\nspec = \"b/a.json\"\n",
                "two `[[api]]` tables are named `a`",
            ),
        ];
        for (text, expected) in cases {
            let err = parse(text).unwrap_err();
            assert!(
                err.starts_with(expected) || err.contains(expected),
                "{text:?}: {err}"
            );
        }
    }

    #[test]
    fn rendered_files_read_back() {
        for entry in [
            ApiEntry {
                spec: "openapi.yaml".into(),
                name: Some("petstore".into()),
                server: Some("petstore/server".into()),
                client: Some("petstore/client".into()),
                cli: Some("petstore/cli".into()),
                string_formats: false,
                runtime: Runtime::Registry,
                select: apigen::Selection::default(),
            },
            ApiEntry {
                spec: "specs/my api.yaml".into(),
                name: None,
                server: None,
                client: Some("crates/my-api-client".into()),
                cli: None,
                string_formats: true,
                runtime: Runtime::Path("../apigen/runtime".into()),
                select: apigen::Selection {
                    tags: vec!["issues".into(), "pulls".into()],
                    operations: vec!["meta/root".into()],
                },
            },
        ] {
            let text = render(&entry, Some("cargo xtask codegen"));
            let back = parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(back.apis, vec![entry], "{text}");
            assert_eq!(back.command.as_deref(), Some("cargo xtask codegen"));
        }
    }
}
