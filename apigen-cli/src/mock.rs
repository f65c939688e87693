//! `apigen mock DOC`: any document served at once as a typed mock. Generates the document's
//! server crate into a throwaway workspace (`target/apigen-mock/<name>/` under the current
//! directory, kept between runs so a second start builds nothing), builds its `<name>-server-mock`
//! program (the crate's `mock` feature: every operation answered from the document's examples
//! or values made from its schemas, through the generated router) and runs it.
//!
//! `cargo xtask mock` is this same code; `cargo xtask serve-corpus` builds the same programs
//! for every corpus document with [`write_server`].

use crate::Invocation;
use crate::paths;
use crate::project::{self, Report, Target};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

pub const HELP: &str = "\
Serve an OpenAPI document at once as a mock: its server crate generated and built with the
`mock` feature, every operation answered from the document's examples (or values made from its
schemas) through the generated router, so authentication, the document's checks, rate limits
and the error body are the real service's.

Usage: {program} mock DOC [--port N | --addr HOST:PORT] [--key KEY] [--plan NAME]
                     [--cors-origin ORIGIN]... [--no-idempotency]
                     [--dir DIR] [--runtime-path DIR | --vendor-runtime]

Options of the mock:
  --port N              port on 127.0.0.1 (default 8080; 0 picks a free one)
  --addr HOST:PORT      the address to listen on instead
  --key KEY             the API key (or bearer token) callers present (default: a fresh one,
                        printed)
  --plan NAME           the key's plan in the document's x-rate-limit (default: its default)
  --cors-origin ORIGIN  let a browser page from ORIGIN call it (`*` for any); repeatable
  --no-idempotency      ignore Idempotency-Key headers

Options of the build:
  --dir DIR             the throwaway workspace (default: target/apigen-mock under the current
                        directory; its target/ is shared by every document mocked there)
  --runtime-path DIR    depend on the runtime crates in DIR (server/, client/, cli/) by path
  --vendor-runtime      copy the runtime into the crate (the default unless the command knows
                        a checkout's runtime, as `cargo xtask mock` does)

It prints `… mock listening on http://ADDR/BASE` and the key, then serves until stopped.
";

/// Options of the mock program itself, passed on as given.
const MOCK_OPTIONS: &[(&str, bool)] = &[
    ("--port", true),
    ("--addr", true),
    ("--key", true),
    ("--plan", true),
    ("--cors-origin", true),
    ("--no-idempotency", false),
];

/// `apigen mock ARGS`: returns the mock program's exit status (it runs until stopped).
pub fn run(args: &[String], inv: &Invocation) -> Result<u8, String> {
    let mut spec = None;
    let mut dir = None;
    let mut runtime_path = inv.runtime_path.clone();
    let mut vendor = false;
    let mut passed = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--dir" => dir = Some(PathBuf::from(it.next().ok_or("--dir needs a directory")?)),
            "--runtime-path" => {
                runtime_path = Some(PathBuf::from(
                    it.next().ok_or("--runtime-path needs a directory")?,
                ))
            }
            "--vendor-runtime" => vendor = true,
            other => match MOCK_OPTIONS.iter().find(|(name, _)| *name == other) {
                Some((name, takes_value)) => {
                    passed.push(name.to_string());
                    if *takes_value {
                        passed.push(
                            it.next()
                                .ok_or_else(|| format!("{name} needs a value"))?
                                .clone(),
                        );
                    }
                }
                None if other.starts_with('-') => {
                    return Err(crate::unknown_option(other, "mock", inv));
                }
                None if spec.is_none() => spec = Some(PathBuf::from(other)),
                None => return Err(format!("one document at a time (`{other}`)")),
            },
        }
    }
    let spec = inv.cwd.join(spec.ok_or_else(|| {
        format!(
            "which document? `{} mock DOC`; `{} mock --help` for the options",
            inv.program, inv.program
        )
    })?);
    if vendor {
        runtime_path = None;
    }
    let runtime_path = runtime_path.map(|p| inv.cwd.join(p));
    let workspace = dir
        .map(|d| inv.cwd.join(d))
        .unwrap_or_else(|| inv.cwd.join("target/apigen-mock"));
    let name = crate::config::default_name(&spec.to_string_lossy());
    let ws = workspace.join(&name);
    let crate_dir = ws.join(format!("{name}-server"));
    let command = format!("{} mock", inv.program);
    let warnings = write_server(&spec, &name, &crate_dir, runtime_path.as_deref(), &command)?;
    eprintln!(
        "{}: {} ({} generator warning{}); building {name}-server-mock in {}",
        inv.program,
        paths::label(&spec, &inv.cwd),
        warnings,
        if warnings == 1 { "" } else { "s" },
        paths::label(&ws, &inv.cwd)
    );
    write_workspace(&ws, &[format!("{name}-server")], runtime_path.as_deref())?;
    let target_dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace.join("target"));
    let program = format!("{name}-server-mock");
    let built = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .args([
            "build",
            "--features",
            "mock",
            "--bin",
            &program,
            "--manifest-path",
        ])
        .arg(ws.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&target_dir)
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !built.success() {
        return Err(format!(
            "building {program} failed ({built}); the generated crate is in {}",
            crate_dir.display()
        ));
    }
    let binary = target_dir
        .join("debug")
        .join(format!("{program}{}", std::env::consts::EXE_SUFFIX));
    let mut mock = Command::new(&binary);
    mock.args(&passed);
    // The mock takes this process's place, so that a signal meant for it (Ctrl-C, a
    // harness's kill) reaches it rather than leaving it running.
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let error = mock.exec();
        Err(format!("cannot run {}: {error}", binary.display()))
    }
    #[cfg(not(unix))]
    {
        let status = mock
            .status()
            .map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
        Ok(status.code().map_or(1, |c| u8::try_from(c).unwrap_or(1)))
    }
}

/// Generates the server crate of `spec` (crate `<name>-server`) into `crate_dir`, depending on
/// the runtime crates in `runtime_path` (a directory holding `server/`) or carrying a copy of
/// them; returns the number of generator warnings.
pub fn write_server(
    spec: &Path,
    name: &str,
    crate_dir: &Path,
    runtime_path: Option<&Path>,
    command: &str,
) -> Result<usize, String> {
    let runtime = match runtime_path {
        Some(runtime) => project::runtime_at(&[&crate_dir.to_path_buf()], runtime)?,
        None => apigen::RuntimeSource::Vendored,
    };
    let target = Target {
        spec: spec.to_path_buf(),
        // The document's own folder: the files its `$ref`s reach are named from there.
        spec_base: spec
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf),
        spec_label: spec.file_name().map_or_else(
            || spec.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        ),
        name: name.to_string(),
        api_name: None,
        server_dir: Some(crate_dir.to_path_buf()),
        client_dir: None,
        cli_dir: None,
        command: command.to_string(),
        string_formats: false,
        select: apigen::Selection::default(),
        runtime,
    };
    let mut report = Report::default();
    project::sync(&target, false, &mut report)?;
    Ok(report.warnings.len())
}

/// A throwaway workspace of `members` in `ws` (its own `[workspace]`, so that no workspace
/// above it claims the crates), with the lock file of the checkout whose runtime crates they
/// use when there is one and the workspace has none yet: the versions that checkout builds.
pub fn write_workspace(
    ws: &Path,
    members: &[String],
    runtime_path: Option<&Path>,
) -> Result<(), String> {
    fs::create_dir_all(ws).map_err(|e| format!("cannot create {}: {e}", ws.display()))?;
    let mut manifest = String::from(
        "# Written by `apigen mock`: a throwaway workspace of generated crates.\n[workspace]\nresolver = \"3\"\nmembers = [\n",
    );
    for m in members {
        manifest.push_str(&format!("    \"{m}\",\n"));
    }
    manifest.push_str("]\n");
    let path = ws.join("Cargo.toml");
    if fs::read_to_string(&path).ok().as_deref() != Some(manifest.as_str()) {
        fs::write(&path, manifest).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let lock = ws.join("Cargo.lock");
    if let Some(checkout_lock) = runtime_path.map(|r| r.join("../Cargo.lock"))
        && !lock.exists()
        && checkout_lock.is_file()
    {
        fs::copy(&checkout_lock, &lock)
            .map_err(|e| format!("cannot copy {}: {e}", checkout_lock.display()))?;
    }
    Ok(())
}
