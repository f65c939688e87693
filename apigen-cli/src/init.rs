//! `apigen init`: sets a workspace up for one document: writes `apigen.toml`, generates the
//! crates, adds them to the workspace's members and, with `--xtask`, writes an `xtask` crate
//! (`cargo xtask codegen`) for teams that would rather not install a binary.
//!
//! Nothing is written until the document has generated: a document apigen cannot read leaves
//! the workspace as it was.

use crate::config::{self, ApiEntry, Config, Runtime};
use crate::project::{self, Report, Target};
use crate::{Invocation, paths};
use std::fs;
use std::path::{Path, PathBuf};
use toml_edit::{Array, DocumentMut, Item, Table, Value};

pub const HELP: &str = "\
Set this workspace up for an OpenAPI document: write apigen.toml, generate the crates, and add
them to the workspace's members. Run it at the root of a Cargo workspace (or in an empty
directory, which becomes one).

Usage: {program} init --spec PATH [--name NAME] [--out DIR] [--cli] [--xtask]
                      [--string-formats] [--vendor-runtime | --runtime-path DIR] [--force]

Options:
  --spec PATH          the document (kept where it is; apigen.toml records its path)
  --name NAME          crate names NAME-server, NAME-client, NAME-cli (default: from the
                       file name)
  --out DIR            where the crates go: DIR/server, DIR/client, DIR/cli (default: NAME)
  --cli                also the command-line client
  --xtask              also an `xtask` crate, so the team runs `cargo xtask codegen`
                       (with apigen's version pinned in Cargo.lock) instead of installing
  --string-formats     keep format uuid, date-time, date, ipv4 and ipv6 as String
  --vendor-runtime     copy the runtime crates' source into the generated crates
  --runtime-path DIR   depend on the runtime crates in DIR by path (and version): an apigen
                       checkout's runtime/, or a monorepo's copy
  --force              replace an existing apigen.toml
";

pub fn run(args: &[String], inv: &Invocation) -> Result<(), String> {
    let mut spec = None;
    let mut name = None;
    let mut out = None;
    let mut cli = false;
    let mut xtask = false;
    let mut string_formats = false;
    let mut runtime = Runtime::Registry;
    let mut force = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--spec" => spec = Some(PathBuf::from(it.next().ok_or("--spec needs a path")?)),
            "--name" => name = Some(it.next().ok_or("--name needs a crate name stem")?.clone()),
            "--out" => out = Some(PathBuf::from(it.next().ok_or("--out needs a directory")?)),
            "--cli" => cli = true,
            "--xtask" => xtask = true,
            "--string-formats" => string_formats = true,
            "--vendor-runtime" => runtime = Runtime::Vendored,
            "--runtime-path" => {
                let dir = PathBuf::from(it.next().ok_or("--runtime-path needs a directory")?);
                runtime = Runtime::Path(paths::label(&dir, &inv.cwd));
            }
            "--force" => force = true,
            other => return Err(crate::unknown_option(other, "init", inv)),
        }
    }
    let spec = spec.ok_or_else(|| {
        format!(
            "`{} init` needs --spec PATH, the OpenAPI document",
            inv.program
        )
    })?;
    let root = paths::normalise(&inv.cwd);
    let config_path = root.join(config::FILE_NAME);
    if config_path.exists() && !force {
        return Err(format!(
            "{} exists: `{}` regenerates what it lists (add an `[[api]]` table for another document), or `--force` replaces it",
            config_path.display(),
            inv.generate
        ));
    }
    let workspace = Workspace::open(&root)?;
    if !root.join(&spec).is_file() {
        return Err(format!("cannot read {}: no such file", spec.display()));
    }

    // 1. The entry, as apigen.toml will hold it, and its crates generated in memory first.
    let spec_label = paths::label(&root.join(&spec), &root);
    if let Some(n) = name.as_ref().filter(|n| !apigen::naming::is_crate_stem(n)) {
        return Err(format!(
            "--name `{n}` is not a valid crate name stem (ASCII letters, digits, `-` and `_`, starting with a letter); try `{}`",
            apigen::naming::crate_stem(n)
        ));
    }
    let stem = name
        .clone()
        .unwrap_or_else(|| config::document_name(&root.join(&spec)));
    let out = match out {
        Some(dir) => paths::label(&root.join(dir), &root),
        None => stem.clone(),
    };
    let entry = ApiEntry {
        spec: spec_label,
        server: Some(format!("{out}/server")),
        client: Some(format!("{out}/client")),
        cli: cli.then(|| format!("{out}/cli")),
        name,
        string_formats,
        select: apigen::Selection::default(),
        runtime,
    };
    // With an xtask, the project regenerates with it: generated files say so, whichever tool
    // wrote them.
    let text = config::render(&entry, xtask.then_some("cargo xtask codegen"));
    let config = Config::parse(&text, &config_path)?;
    let targets = Target::from_config(&config, &inv.generate)?;
    generate_in_memory(&targets, force)?;
    if xtask && root.join("xtask").exists() {
        return Err(format!(
            "{} exists: leave out --xtask and call `apigen_cli::xtask_main()` from it yourself",
            root.join("xtask").display()
        ));
    }

    // 2. Write: apigen.toml, the crates, the members (and the xtask).
    write(&config_path, &text)?;
    println!("created: {}", config::FILE_NAME);
    let mut report = Report::default();
    for target in &targets {
        project::sync(target, false, &mut report)?;
    }
    println!(
        "generated: {} files in {}",
        report.changed.len() + report.missing.len(),
        targets
            .iter()
            .flat_map(Target::dirs)
            .map(|d| paths::label(d, &root))
            .collect::<Vec<_>>()
            .join(", ")
    );
    for w in &report.warnings {
        eprintln!("{w}");
    }
    let mut members: Vec<String> = targets
        .iter()
        .flat_map(Target::dirs)
        .map(|d| paths::label(d, &root))
        .collect();
    if xtask {
        write_xtask(&root, &entry)?;
        members.push("xtask".into());
        println!("created: xtask/ (`cargo xtask codegen [--check]`, alias in .cargo/config.toml)");
    }
    let added = workspace.add_members(&members)?;
    if !added.is_empty() {
        println!("workspace members added: {}", added.join(", "));
    }
    print_next(&stem, &out, &entry.spec, xtask, inv);
    Ok(())
}

/// Each target's crates generated in memory, before anything is written: a folder that
/// holds files apigen did not write is refused (unless `--force`), and an unreadable document
/// stops here, with its errors.
fn generate_in_memory(targets: &[Target], force: bool) -> Result<(), String> {
    for target in targets {
        for dir in target.dirs() {
            if dir.exists() && fs::read_dir(dir).is_ok_and(|mut d| d.next().is_some()) {
                let generated = dir.join("Cargo.toml");
                let ours =
                    fs::read_to_string(&generated).is_ok_and(|t| t.starts_with("# @generated by"));
                if !ours && !force {
                    return Err(format!(
                        "{} exists and was not generated by apigen: choose another --out, or remove it",
                        dir.display()
                    ));
                }
            }
        }
        project::sync(target, true, &mut Report::default())?;
    }
    Ok(())
}

/// What to do next: implement the trait, call the client, regenerate after an edit.
fn print_next(stem: &str, out: &str, spec: &str, xtask: bool, inv: &Invocation) {
    let krate = |side: &str| format!("{stem}-{side}");
    println!(
        "\nNext:\n  - implement the trait of `{server}` ({out}/server/src/api.rs) in your service and serve \
         `{server_snake}::router(…)`: add `{server} = {{ path = \"{out}/server\" }}` to its dependencies;\n  \
         - call the API with `{client}` ({out}/client);\n  \
         - after editing {spec}, run `{generate}`; in CI, `{check}`.",
        server = krate("server"),
        server_snake = krate("server").replace('-', "_"),
        client = krate("client"),
        generate = if xtask {
            "cargo xtask codegen"
        } else {
            &inv.generate
        },
        check = if xtask {
            "cargo xtask codegen --check"
        } else {
            &inv.check
        },
    );
}

/// The workspace's root manifest, edited in place (comments and layout kept).
struct Workspace {
    path: PathBuf,
    doc: DocumentMut,
}

impl Workspace {
    /// The manifest in `root`: made when there is none (a virtual workspace), given a
    /// `[workspace]` table when it is a lone package. A directory inside another workspace
    /// is refused: members are added at its root.
    fn open(root: &Path) -> Result<Workspace, String> {
        let path = root.join("Cargo.toml");
        if let Some(outer) = root.ancestors().skip(1).find_map(|dir| {
            let manifest = dir.join("Cargo.toml");
            let text = fs::read_to_string(&manifest).ok()?;
            let doc: DocumentMut = text.parse().ok()?;
            let covers = doc.get("workspace").and_then(Item::as_table_like).is_some();
            covers.then_some(manifest)
        }) {
            let here = fs::read_to_string(&path)
                .ok()
                .and_then(|t| t.parse::<DocumentMut>().ok());
            if here.is_none_or(|d| d.get("workspace").is_none()) {
                return Err(format!(
                    "{} is a workspace root above this directory: run `apigen init` there",
                    outer.display()
                ));
            }
        }
        let text = match fs::read_to_string(&path) {
            Ok(text) => text,
            Err(_) => "[workspace]\nresolver = \"3\"\nmembers = []\n".to_string(),
        };
        let mut doc: DocumentMut = text
            .parse()
            .map_err(|e| format!("{}: not valid TOML: {e}", path.display()))?;
        if doc.get("workspace").is_none() {
            doc["workspace"] = Item::Table(Table::new());
        }
        Ok(Workspace { path, doc })
    }

    /// Adds each of `members` not already listed (or matched by a `dir/*` pattern) and writes
    /// the manifest; returns those added.
    fn add_members(mut self, members: &[String]) -> Result<Vec<String>, String> {
        let workspace = self.doc["workspace"]
            .as_table_like_mut()
            .ok_or_else(|| format!("{}: `workspace` is not a table", self.path.display()))?;
        if workspace.get("members").is_none() {
            workspace.insert("members", Item::Value(Value::Array(Array::new())));
        }
        let list = workspace
            .get_mut("members")
            .and_then(Item::as_array_mut)
            .ok_or_else(|| format!("{}: `workspace.members` is not a list", self.path.display()))?;
        let listed: Vec<String> = list
            .iter()
            .filter_map(|v| v.as_str().map(String::from))
            .collect();
        let covered = |member: &str| {
            listed.iter().any(|l| {
                l.trim_end_matches('/') == member
                    || l.strip_suffix("/*").is_some_and(|dir| {
                        member
                            .rsplit_once('/')
                            .is_some_and(|(parent, _)| parent == dir)
                    })
            })
        };
        let added: Vec<String> = members.iter().filter(|m| !covered(m)).cloned().collect();
        // A list written one member a line stays so: each new member on a line of its own,
        // indented as the last, after any comment that ended the list.
        let indent = list
            .iter()
            .last()
            .and_then(|v| v.decor().prefix()?.as_str())
            .and_then(|p| p.rsplit_once('\n'))
            .map(|(_, indent)| indent.to_string());
        match indent {
            Some(indent) if !added.is_empty() => {
                let trailing = list
                    .trailing()
                    .as_str()
                    .unwrap_or("")
                    .trim_end()
                    .to_string();
                for (i, member) in added.iter().enumerate() {
                    let mut value = Value::from(member.as_str());
                    let before = if i == 0 { trailing.as_str() } else { "" };
                    value.decor_mut().set_prefix(format!("{before}\n{indent}"));
                    list.push_formatted(value);
                }
                list.set_trailing("\n");
                list.set_trailing_comma(true);
            }
            _ => {
                for member in &added {
                    list.push(member.as_str());
                }
            }
        }
        write(&self.path, &self.doc.to_string())?;
        Ok(added)
    }
}

/// `xtask/` with `cargo xtask codegen` and `diff`, and the `xtask` alias.
fn write_xtask(root: &Path, entry: &ApiEntry) -> Result<(), String> {
    let version = env!("CARGO_PKG_VERSION");
    // An apigen checkout beside the runtime crates the entry names: its apigen-cli too.
    let path = match &entry.runtime {
        Runtime::Path(runtime) => {
            let cli = root.join(runtime).join("../apigen-cli");
            cli.join("Cargo.toml")
                .is_file()
                .then(|| paths::between(&root.join("xtask"), &cli))
        }
        _ => None,
    };
    let dependency = match path {
        Some(path) => format!("apigen-cli = {{ version = \"{version}\", path = \"{path}\" }}"),
        None => format!("apigen-cli = \"{version}\""),
    };
    write(
        &root.join("xtask/Cargo.toml"),
        &format!(
            "[package]\nname = \"xtask\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n\
             [dependencies]\n# `cargo xtask codegen` is apigen at the version Cargo.lock pins.\n{dependency}\n"
        ),
    )?;
    write(
        &root.join("xtask/src/main.rs"),
        "//! `cargo xtask codegen [--check]` regenerates (or checks) the crates apigen.toml lists;\n\
         //! `cargo xtask diff` lists a document's changes since the last commit.\n\n\
         fn main() -> std::process::ExitCode {\n    apigen_cli::xtask_main()\n}\n",
    )?;
    let config = root.join(".cargo/config.toml");
    let text = fs::read_to_string(&config).unwrap_or_default();
    let mut doc: DocumentMut = text
        .parse()
        .map_err(|e| format!("{}: not valid TOML: {e}", config.display()))?;
    if doc.get("alias").is_none() {
        doc["alias"] = Item::Table(Table::new());
    }
    let alias = doc["alias"]
        .as_table_like_mut()
        .ok_or_else(|| format!("{}: `alias` is not a table", config.display()))?;
    if alias.get("xtask").is_none() {
        alias.insert("xtask", toml_edit::value("run --package xtask --"));
        write(&config, &doc.to_string())?;
    }
    Ok(())
}

fn write(path: &Path, contents: &str) -> Result<(), String> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    fs::write(path, contents).map_err(|e| format!("cannot write {}: {e}", path.display()))
}
