//! Documents and the directories their crates live in ([`Target`]), and [`sync`]: generate
//! one and write its files, or only compare them (`check`).
//!
//! One function serves `generate`, `check` and the drift tests, so they can never disagree
//! about what "up to date" means.

use crate::config::{Config, Runtime};
use crate::paths;
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// One document and where its crates live.
#[derive(Debug, Clone)]
pub struct Target {
    pub spec: PathBuf,
    /// The directory the document's files are named from in messages (`apigen.toml`'s, or
    /// the one the command ran in): `spec/paths/orders.yaml:12:7`.
    pub spec_base: PathBuf,
    /// How headers and reports name the document: relative to `apigen.toml` (or to the
    /// directory the command ran in), never absolute, so output does not depend on where the
    /// project lives.
    pub spec_label: String,
    /// Crate-name stem.
    pub name: String,
    /// The name the user gave (`apigen::Options::api_name`); `None`: derived.
    pub api_name: Option<String>,
    /// Each crate's directory; `None`: not generated.
    pub server_dir: Option<PathBuf>,
    pub client_dir: Option<PathBuf>,
    /// The command-line client crate's directory (it depends on the client's).
    pub cli_dir: Option<PathBuf>,
    /// The command that regenerates the files, for their first line.
    pub command: String,
    /// `--string-formats`: `apigen::Options::string_formats`.
    pub string_formats: bool,
    /// `--tag`/`--operation`, apigen.toml's `tags`/`operations`: `apigen::Options::select`.
    pub select: apigen::Selection,
    pub runtime: apigen::RuntimeSource,
}

impl Target {
    /// The targets of a read `apigen.toml`; `command` is what regenerates them
    /// (`apigen generate`, `cargo xtask codegen`) unless the file says ([`Config::command`]).
    pub fn from_config(config: &Config, command: &str) -> Result<Vec<Target>, String> {
        let dir = config.dir();
        let command = config.command.as_deref().unwrap_or(command);
        config
            .apis
            .iter()
            .map(|api| {
                let spec = dir.join(&api.spec);
                let server_dir = api.server.as_ref().map(|d| dir.join(d));
                let client_dir = api.client.as_ref().map(|d| dir.join(d));
                let cli_dir = api.cli.as_ref().map(|d| dir.join(d));
                let runtime = match &api.runtime {
                    Runtime::Registry => apigen::RuntimeSource::Crates { path: None },
                    Runtime::Vendored => apigen::RuntimeSource::Vendored,
                    Runtime::Path(runtime) => {
                        let dirs: Vec<&PathBuf> = [&server_dir, &client_dir, &cli_dir]
                            .into_iter()
                            .flatten()
                            .collect();
                        runtime_at(&dirs, &dir.join(runtime)).map_err(|why| {
                            format!(
                                "{}: [[api]] `{}`: {why}",
                                config.path.display(),
                                api.crate_stem()
                            )
                        })?
                    }
                };
                Ok(Target {
                    spec_label: paths::label(&spec, dir),
                    spec,
                    spec_base: dir.to_path_buf(),
                    name: api.crate_stem_in(dir),
                    api_name: api.name.clone(),
                    server_dir,
                    client_dir,
                    cli_dir,
                    command: command.to_string(),
                    string_formats: api.string_formats,
                    select: api.select.clone(),
                    runtime,
                })
            })
            .collect()
    }

    /// The document's root file as the generator names it, and the disk it reads it (and
    /// every file its `$ref`s reach) from.
    pub fn source(&self) -> (String, apigen::FileSystem) {
        (
            paths::label(&self.spec, &self.spec_base),
            apigen::FileSystem::new(&self.spec_base),
        )
    }

    /// The crates' directories, in the order server, client, CLI.
    pub fn dirs(&self) -> impl Iterator<Item = &PathBuf> {
        [&self.server_dir, &self.client_dir, &self.cli_dir]
            .into_iter()
            .flatten()
    }
}

/// The runtime crates in `runtime` (a directory holding `server/`, `client/`, `cli/`) as the
/// generated crates in `dirs` see them: one relative path for all, so the crates must sit in
/// one directory (the generator writes one path into every manifest).
pub fn runtime_at(dirs: &[&PathBuf], runtime: &Path) -> Result<apigen::RuntimeSource, String> {
    let Some(first) = dirs.first() else {
        return Ok(apigen::RuntimeSource::Crates { path: None });
    };
    let path = paths::between(first, runtime);
    if let Some(other) = dirs.iter().find(|d| paths::between(d, runtime) != path) {
        return Err(format!(
            "with runtime = {{ path }}, the crates must sit side by side ({} and {} do not)",
            first.display(),
            other.display()
        ));
    }
    Ok(apigen::RuntimeSource::Crates { path: Some(path) })
}

/// What a sync found (or changed).
#[derive(Debug, Default)]
pub struct Report {
    pub changed: Vec<PathBuf>,
    pub missing: Vec<PathBuf>,
    pub orphaned: Vec<PathBuf>,
    pub warnings: Vec<String>,
    /// (document label, sunset) of every operation with a sunset date.
    pub sunsets: Vec<(String, apigen::SunsetNotice)>,
}

impl Report {
    pub fn is_clean(&self) -> bool {
        self.changed.is_empty() && self.missing.is_empty() && self.orphaned.is_empty()
    }
}

/// Generates `target` and writes its files (`check == false`) or only compares them
/// (`check == true`): a file that differs is `changed`, one not there `missing`, and a file in
/// a crate's directory that the generator no longer makes `orphaned` (removed when writing).
pub fn sync(target: &Target, check: bool, report: &mut Report) -> Result<(), String> {
    let (root, source) = target.source();
    let options = apigen::Options {
        name: target.name.clone(),
        spec_label: target.spec_label.clone(),
        command: target.command.clone(),
        string_formats: target.string_formats,
        runtime: target.runtime.clone(),
        api_name: target.api_name.clone(),
        select: target.select.clone(),
        // The generated crates' manifests declare the client's tag features.
        without_tag_features: false,
    };
    // The CLI comes from the same lowering as the client it calls.
    let client_path = match (&target.cli_dir, &target.client_dir) {
        (Some(cli), Some(client)) => Some(paths::between(cli, client)),
        _ => None,
    };
    let output = match &client_path {
        Some(client_path) => apigen::generate_with_cli_from(&root, &source, &options, client_path),
        None => apigen::generate_from(&root, &source, &options),
    }
    .map_err(|e| format!("{}:\n{e}", target.spec_label))?;
    report.warnings.extend(
        output
            .warnings
            .iter()
            .map(|w| format!("{}: {w}", target.spec_label)),
    );
    report.sunsets.extend(
        output
            .sunsets
            .iter()
            .map(|s| (target.spec_label.clone(), s.clone())),
    );
    let files = output.files;
    let mut expected: BTreeSet<PathBuf> = BTreeSet::new();
    for (rel, contents) in &files {
        let (side, rest) = rel
            .split_once('/')
            .ok_or_else(|| format!("unexpected output path {rel}"))?;
        let dir = match side {
            "server" => &target.server_dir,
            "client" => &target.client_dir,
            "cli" => &target.cli_dir,
            other => return Err(format!("unexpected output side {other} ({rel})")),
        };
        let Some(dir) = dir else { continue };
        let path = dir.join(rest);
        expected.insert(path.clone());
        match fs::read_to_string(&path) {
            Ok(existing) if existing == *contents => {}
            Ok(_) => {
                report.changed.push(path.clone());
                if !check {
                    write(&path, contents)?;
                }
            }
            Err(_) => {
                report.missing.push(path.clone());
                if !check {
                    write(&path, contents)?;
                }
            }
        }
    }
    for dir in target.dirs() {
        for path in files_under(dir) {
            if !expected.contains(&path) {
                report.orphaned.push(path.clone());
                if !check {
                    fs::remove_file(&path)
                        .map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
                }
            }
        }
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

/// Files of a generated crate, leaving out build output (`target/`) and lock files (a crate
/// built on its own makes a `Cargo.lock` the generator does not own).
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n == "target") {
                continue;
            }
            out.extend(files_under(&path));
        } else if path.file_name().is_none_or(|n| n != "Cargo.lock") {
            out.push(path);
        }
    }
    out.sort();
    out
}
