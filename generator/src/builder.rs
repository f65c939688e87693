//! [`Builder`]: the generator from a `build.rs`, for teams that do not commit generated code.
//! The only part of the library that touches the disk: it reads the document (every file of
//! it, when it is split over several) and writes one file per side into `OUT_DIR`, and tells
//! cargo to rerun when any of those files changes.

use crate::options::{Options, RuntimeSource};
use crate::{FileSystem, Source, generate_from};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Generates a document's server or client code from a build script, into `OUT_DIR`.
///
/// The code is a whole crate's: include it at the root of a crate of its own (one crate per
/// side; the generated code names its items from the crate root, `crate::types::…`).
///
/// ```no_run
/// // In `fn main` of the build.rs of a crate `petstore-client`:
/// apigen::Builder::new("../openapi.yaml")
///     .client()
///     .generate()
///     .unwrap_or_else(|e| panic!("{e}"));
/// ```
///
/// ```ignore
/// // src/lib.rs of that crate
/// include!(concat!(env!("OUT_DIR"), "/apigen/client.rs"));
/// ```
///
/// The including crate depends on what a generated crate's `Cargo.toml` would list: for a
/// client `apigen-client-runtime` (this crate's version), `reqwest`, `http`, `bytes`, `serde`
/// (feature `derive`), `serde_json`, `uuid` and `jiff` (feature `serde`); for a server
/// `apigen-server-runtime`, `axum`, `http`, `serde`, `serde_json`, `tracing`, `uuid` and
/// `jiff`, and declares a `redis` feature (`redis = ["apigen-server-runtime/redis"]`: the
/// server code re-exports the Redis store under it). [`Generated::dependencies`] gives the
/// exact lines. The crate-level documentation of a generated crate (its `//!` lines) is left
/// out: an included file cannot carry it.
#[derive(Debug, Clone)]
pub struct Builder {
    spec: PathBuf,
    server: bool,
    client: bool,
    name: Option<String>,
    string_formats: bool,
    select: crate::options::Selection,
    out_dir: Option<PathBuf>,
}

/// What [`Builder::generate`] wrote.
#[derive(Debug, Clone)]
pub struct Generated {
    /// The files written (`OUT_DIR/apigen/server.rs`, `…/client.rs`, and the server's
    /// `document.json` and `document.yaml`, which `server.rs` includes).
    pub files: Vec<PathBuf>,
    /// Generator warnings (constructs generated with a fallback), also passed to cargo.
    pub warnings: Vec<String>,
    /// The files the document was read from, each told to cargo with `rerun-if-changed`:
    /// the document and every file its `$ref`s reach (paths from the package's directory).
    pub inputs: Vec<String>,
    dependencies: Vec<(String, Vec<String>)>,
}

impl Generated {
    /// The `[dependencies]` lines the including crate of `side` (`"server"`, `"client"`)
    /// needs, as a generated `Cargo.toml` would list them.
    pub fn dependencies(&self, side: &str) -> &[String] {
        self.dependencies
            .iter()
            .find(|(s, _)| s == side)
            .map_or(&[], |(_, lines)| lines.as_slice())
    }
}

/// Why [`Builder::generate`] failed: the document could not be read or generated (with the
/// JSON pointer of each problem), or a file could not be written.
#[derive(Debug)]
pub struct BuildError(String);

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BuildError {}

impl Builder {
    /// The document at `spec` (relative to the package's directory, where cargo runs build
    /// scripts).
    pub fn new(spec: impl AsRef<Path>) -> Builder {
        Builder {
            spec: spec.as_ref().to_path_buf(),
            server: false,
            client: false,
            name: None,
            string_formats: false,
            select: Default::default(),
            out_dir: None,
        }
    }

    /// Generate the server side (`OUT_DIR/apigen/server.rs`).
    pub fn server(mut self) -> Builder {
        self.server = true;
        self
    }

    /// Generate the client side (`OUT_DIR/apigen/client.rs`).
    pub fn client(mut self) -> Builder {
        self.client = true;
        self
    }

    /// The name the API's trait is named after (`petstore` → `PetstoreApi`); default: the
    /// document's title.
    pub fn name(mut self, name: impl Into<String>) -> Builder {
        self.name = Some(name.into());
        self
    }

    /// Keep `format: uuid`, `date-time`, … as `String` ([`Options::string_formats`]).
    pub fn string_formats(mut self, yes: bool) -> Builder {
        self.string_formats = yes;
        self
    }

    /// Generate only the operations tagged with any of `tags` (and those [`Builder::operations`]
    /// names), and the types they reach ([`crate::Selection`]).
    pub fn tags<S: Into<String>>(mut self, tags: impl IntoIterator<Item = S>) -> Builder {
        self.select.tags = tags.into_iter().map(Into::into).collect();
        self
    }

    /// Generate only these operations (by operationId), besides [`Builder::tags`]'.
    pub fn operations<S: Into<String>>(mut self, ids: impl IntoIterator<Item = S>) -> Builder {
        self.select.operations = ids.into_iter().map(Into::into).collect();
        self
    }

    /// Write into `dir` instead of `OUT_DIR/apigen`.
    pub fn out_dir(mut self, dir: impl AsRef<Path>) -> Builder {
        self.out_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Reads the document, generates the sides asked for and writes them; prints
    /// `cargo:rerun-if-changed` for the document and for every file its `$ref`s pull in (also
    /// when generation fails, so that fixing any of them reruns the build script), and
    /// `cargo:warning` for each generator warning.
    pub fn generate(self) -> Result<Generated, BuildError> {
        if !self.server && !self.client {
            return Err(BuildError(
                "apigen::Builder: ask for .server() or .client() (or both, for two crates)".into(),
            ));
        }
        let label = self.spec.file_name().map_or_else(
            || self.spec.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let stem = self
            .name
            .clone()
            .unwrap_or_else(|| crate::naming::crate_stem(label.split('.').next().unwrap_or("api")));
        let options = Options {
            name: stem,
            spec_label: label.clone(),
            command: "cargo build (apigen::Builder in build.rs)".into(),
            string_formats: self.string_formats,
            runtime: RuntimeSource::Crates { path: None },
            api_name: self.name.clone(),
            select: self.select.clone(),
            // The including crate's own Cargo.toml declares no tag features (a build script
            // picks a part with `tags`/`operations` instead).
            without_tag_features: true,
        };
        // Files are named from the package's directory, where cargo runs build scripts.
        let watched = Watched {
            files: FileSystem::new(""),
            read: Mutex::new(Vec::new()),
        };
        let root = self.spec.to_string_lossy().replace('\\', "/");
        let result = generate_from(&root, &watched, &options);
        let inputs = watched.read.into_inner().unwrap_or_else(|e| e.into_inner());
        for file in &inputs {
            println!("cargo:rerun-if-changed={file}");
        }
        let output = result.map_err(|e| BuildError(format!("{}:\n{e}", self.spec.display())))?;
        let dir = match self.out_dir {
            Some(dir) => dir,
            None => PathBuf::from(std::env::var_os("OUT_DIR").ok_or_else(|| {
                BuildError("OUT_DIR is not set: run from a build script, or set .out_dir(…)".into())
            })?)
            .join("apigen"),
        };
        std::fs::create_dir_all(&dir)
            .map_err(|e| BuildError(format!("cannot create {}: {e}", dir.display())))?;
        let mut files = Vec::new();
        let mut dependencies = Vec::new();
        for (side, wanted) in [("server", self.server), ("client", self.client)] {
            if !wanted {
                continue;
            }
            let text = single_file(&output.files, side)?;
            let path = dir.join(format!("{side}.rs"));
            std::fs::write(&path, text)
                .map_err(|e| BuildError(format!("cannot write {}: {e}", path.display())))?;
            files.push(path);
            // The data the code includes (`include_str!("document.json")`), beside the file
            // that includes it, where an included file's `include_str!` looks.
            let prefix = format!("{side}/src/");
            for (name, text) in &output.files {
                let Some(name) = name.strip_prefix(&prefix) else {
                    continue;
                };
                if name.ends_with(".rs") || name.contains('/') {
                    continue;
                }
                let path = dir.join(name);
                std::fs::write(&path, text)
                    .map_err(|e| BuildError(format!("cannot write {}: {e}", path.display())))?;
                files.push(path);
            }
            let manifest = output
                .files
                .get(&format!("{side}/Cargo.toml"))
                .map(String::as_str)
                .unwrap_or_default();
            dependencies.push((side.to_string(), dependency_lines(manifest)));
        }
        let warnings: Vec<String> = output
            .warnings
            .iter()
            .map(|w| format!("{label}: {w}"))
            .collect();
        for w in &warnings {
            println!("cargo:warning={w}");
        }
        Ok(Generated {
            files,
            warnings,
            inputs,
            dependencies,
        })
    }
}

/// The disk, remembering every name asked for (files that could not be read included).
struct Watched {
    files: FileSystem,
    read: Mutex<Vec<String>>,
}

impl Source for Watched {
    fn read(&self, path: &str) -> Result<String, String> {
        if let Ok(mut read) = self.read.lock()
            && !read.iter().any(|p| p == path)
        {
            read.push(path.to_string());
        }
        self.files.read(path)
    }
}

/// One side's files as one file to `include!` at a crate root: `lib.rs` without its inner
/// attributes and `//!` documentation (an included file may not hold them), each `pub mod
/// x;` replaced by the module's file inline (where they may stay).
fn single_file(
    files: &std::collections::BTreeMap<String, String>,
    side: &str,
) -> Result<String, BuildError> {
    let lib = files
        .get(&format!("{side}/src/lib.rs"))
        .ok_or_else(|| BuildError(format!("internal generator error: no {side}/src/lib.rs")))?;
    let mut out = String::with_capacity(files.values().map(String::len).sum());
    let mut lines = lib.lines().peekable();
    while let Some(line) = lines.next() {
        if line.starts_with("#![") || line.starts_with("//!") {
            continue;
        }
        // The mock module is a feature of a generated crate; the including crate has no such
        // feature (it serves a mock with `apigen mock`), so it is left out with its gate.
        if line == "#[cfg(feature = \"mock\")]" {
            lines.next();
            continue;
        }
        let module = line
            .strip_prefix("pub mod ")
            .and_then(|rest| rest.strip_suffix(';'));
        match module.and_then(|m| files.get(&format!("{side}/src/{m}.rs")).map(|t| (m, t))) {
            Some((name, text)) => {
                out.push_str(&format!("pub mod {name} {{\n"));
                // The module's own first line is the generated-file header, a plain comment.
                out.push_str(text);
                out.push_str("}\n");
            }
            None if module.is_some() => {
                return Err(BuildError(format!(
                    "internal generator error: {side}/src/lib.rs declares `{line}` without its file"
                )));
            }
            None => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    Ok(out)
}

/// The `[dependencies]` lines of a generated manifest.
fn dependency_lines(manifest: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut inside = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == "[dependencies]";
        } else if inside && !line.is_empty() && !line.starts_with('#') {
            lines.push(line.to_string());
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_become_one_includable_file() {
        let dir = std::env::temp_dir().join(format!("apigen-builder-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let spec = concat!(env!("CARGO_MANIFEST_DIR"), "/../spec/petstore.yaml");
        let generated = Builder::new(spec)
            .server()
            .client()
            .out_dir(&dir)
            .generate()
            .unwrap();
        // Each side's one file, and the document's two texts the server's includes.
        let names: Vec<String> = generated
            .files
            .iter()
            .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            ["server.rs", "document.json", "document.yaml", "client.rs"]
        );
        let server = std::fs::read_to_string(dir.join("server.rs")).unwrap();
        assert!(server.contains("include_str!(\"document.json\")"));
        assert!(dir.join("document.json").is_file() && dir.join("document.yaml").is_file());
        let client = std::fs::read_to_string(dir.join("client.rs")).unwrap();
        assert!(!client.contains("#![") || client.contains("pub mod client {"));
        for line in client
            .lines()
            .take_while(|l| !l.starts_with("pub mod client {"))
        {
            assert!(
                !line.starts_with("#![") && !line.starts_with("//!"),
                "{line}"
            );
        }
        assert!(client.contains("pub mod client {") && client.contains("pub mod types {"));
        assert!(!client.contains("pub mod client;"));
        let deps = generated.dependencies("client");
        assert!(
            deps.iter()
                .any(|d| d.starts_with("apigen-client-runtime = ")),
            "{deps:?}"
        );
        let err = Builder::new(spec).out_dir(&dir).generate().unwrap_err();
        assert!(err.to_string().contains(".server() or .client()"), "{err}");
        let err = Builder::new("no/such.yaml")
            .client()
            .out_dir(&dir)
            .generate()
            .unwrap_err();
        assert!(
            err.to_string().contains("cannot read no/such.yaml"),
            "{err}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Every file a split document pulls in is an input cargo watches, however it was reached.
    #[test]
    fn every_file_of_a_split_document_is_watched() {
        let dir = std::env::temp_dir().join(format!("apigen-builder-split-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let write = |name: &str, text: &str| {
            let path = dir.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write(
            "api/openapi.yaml",
            "openapi: 3.0.3\ninfo: {title: Cafe, version: '1'}\npaths:\n  /menu: {$ref: 'paths/menu.yaml'}\n",
        );
        write(
            "api/paths/menu.yaml",
            "get:\n  operationId: listMenu\n  responses:\n    '200':\n      description: ok\n      content:\n        application/json:\n          schema: {$ref: '../schemas/Menu.yaml'}\n",
        );
        write(
            "api/schemas/Menu.yaml",
            "type: object\nproperties:\n  items: {type: array, items: {$ref: 'Item.json'}}\n",
        );
        write(
            "api/schemas/Item.json",
            r#"{"type": "object", "properties": {"name": {"type": "string"}}}"#,
        );
        let spec = dir.join("api/openapi.yaml");
        let generated = Builder::new(&spec)
            .client()
            .out_dir(dir.join("out"))
            .generate()
            .unwrap();
        let root = spec.to_string_lossy().into_owned();
        let api = root.trim_end_matches("openapi.yaml");
        assert_eq!(
            generated.inputs,
            [
                root.clone(),
                format!("{api}paths/menu.yaml"),
                format!("{api}schemas/Menu.yaml"),
                format!("{api}schemas/Item.json"),
            ]
        );
        let client = std::fs::read_to_string(dir.join("out/client.rs")).unwrap();
        assert!(client.contains("pub struct Menu") && client.contains("pub struct Item"));
        assert!(client.contains("pub async fn list_menu("));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
