//! Compile cost of the crates generated for the three largest documents of the public corpus
//! (`cargo check` and a release build of each crate, its dependencies prebuilt), next to the
//! client progenitor generates for the same document where progenitor can (`cargo progenitor`,
//! when installed: `cargo install cargo-progenitor --locked`). progenitor 0.15 generates none
//! of the three (it panics on github's, reads OpenAPI 3.0 only, refuses openai's), so the
//! three largest 3.0 documents it does generate are measured too, both ways.
//!
//! Everything builds in one throwaway workspace, `target/bench-compile/corpus/ws`, with its own
//! target directory beside it. Before anything is timed, small crates with the same
//! dependencies are built (the pet store's server and client by apigen, and its 3.0 form's
//! client by progenitor), so each timed build is the crate itself (and, for our crates, nothing
//! else: the runtime crates are built by then too). Each crate is cleaned (`cargo clean -p`)
//! before each timed build.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// How many of the largest documents (and of the largest progenitor generates).
const DOCUMENTS: usize = 3;

/// Seconds of `cargo check` and of the release build, or why the crate did not build.
pub type Times = Result<(f64, f64), String>;

pub struct Row {
    pub document: String,
    pub bytes: u64,
    pub version: String,
    /// (crate, generated lines, check seconds, release seconds) for our server and client.
    pub ours: Vec<(String, usize, Times)>,
    /// progenitor's client: its lines and times, or why there is none.
    pub progenitor: Result<(usize, f64, f64), String>,
}

pub(crate) fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned())
}

/// Runs cargo in `ws` with the bench's target directory (`ws/../target`); the seconds it
/// took.
pub(crate) fn cargo_in(ws: &Path, args: &[&str]) -> Result<f64, String> {
    cargo_measured(ws, args, false).map(|(secs, _)| secs)
}

/// [`cargo_in`], and with `peak` the largest resident set of any process cargo waited for
/// (rustc's, for a crate whose dependencies are built), in KiB, as GNU time (`/usr/bin/time`,
/// Debian's `time`) reads it from the kernel; `None` without GNU time.
pub(crate) fn cargo_measured(
    ws: &Path,
    args: &[&str],
    peak: bool,
) -> Result<(f64, Option<u64>), String> {
    const GNU_TIME: &str = "/usr/bin/time";
    const MARK: &str = "apigen-bench-peak-kib ";
    let timed = peak && Path::new(GNU_TIME).exists();
    let mut command = if timed {
        let mut c = Command::new(GNU_TIME);
        c.args(["-f", &format!("{MARK}%M"), &cargo()]);
        c
    } else {
        Command::new(cargo())
    };
    let started = Instant::now();
    let out = command
        .current_dir(ws)
        .args(args)
        .arg("--target-dir")
        .arg(ws.join("../target"))
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_TARGET_DIR")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let first = stderr
            .lines()
            .find(|l| l.starts_with("error"))
            .unwrap_or("cargo failed");
        return Err(format!("`cargo {}`: {first}", args.join(" ")));
    }
    let secs = started.elapsed().as_secs_f64();
    let kib = String::from_utf8_lossy(&out.stderr)
        .lines()
        .find_map(|l| l.strip_prefix(MARK)?.trim().parse().ok());
    Ok((secs, kib))
}

/// `cargo check` then a release build of `krate`, each after cleaning it.
fn time_crate(ws: &Path, krate: &str) -> Times {
    cargo_in(ws, &["clean", "-p", krate])?;
    let check = cargo_in(ws, &["check", "-p", krate])?;
    cargo_in(ws, &["clean", "--release", "-p", krate])?;
    let release = cargo_in(ws, &["build", "--release", "-p", krate])?;
    eprintln!("  {krate}: check {check:.1} s, release {release:.1} s");
    Ok((check, release))
}

fn progenitor_installed() -> bool {
    Command::new(cargo())
        .args(["progenitor", "--help"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// progenitor's client crate for `doc` in `ws/<name>`; its Rust lines, or why it failed.
/// `program` is `cargo` (with cargo-progenitor installed) or cargo-progenitor itself, which
/// takes the same arguments.
pub(crate) fn progenitor(
    program: &std::ffi::OsStr,
    doc: &Path,
    ws: &Path,
    name: &str,
) -> Result<usize, String> {
    let dir = ws.join(name);
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new(program)
        .args(["progenitor", "-i"])
        .arg(doc)
        .arg("-o")
        .arg(&dir)
        .args(["-n", name, "-v", "0.1.0"])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run cargo progenitor: {e}"))?;
    if !out.status.success() || !dir.join("Cargo.toml").exists() {
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stderr),
            String::from_utf8_lossy(&out.stdout)
        );
        let reason = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .unwrap_or("no output")
            .chars()
            .take(160)
            .collect::<String>();
        return Err(format!("progenitor cannot generate it: {reason}"));
    }
    Ok(rust_lines(&dir.join("src")))
}

/// The code lines of the `.rs` files under `dir`, as tokei counts them: lines that are blank
/// or only a comment (`//`, `///`, `//!`, or inside `/* … */`) aside, which is how issue 61's
/// targets count ("wrapping docs costs nothing").
pub(crate) fn code_lines(dir: &Path) -> usize {
    rs_files(dir)
        .iter()
        .map(|p| std::fs::read_to_string(p).map_or(0, |t| count_code(&t)))
        .sum()
}

/// The code lines of one file's text (see [`code_lines`]).
fn count_code(text: &str) -> usize {
    let mut in_block = false;
    let mut code = 0;
    for line in text.lines() {
        let t = line.trim();
        if in_block {
            in_block = !t.contains("*/");
            continue;
        }
        if t.is_empty() || t.starts_with("//") {
            continue;
        }
        if t.starts_with("/*") {
            in_block = !t.contains("*/");
            continue;
        }
        code += 1;
    }
    code
}

/// The `.rs` files under `dir`, in its subfolders too.
fn rs_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for path in entries.flatten().map(|e| e.path()) {
        if path.is_dir() {
            out.extend(rs_files(&path));
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
    out
}

/// The lines of the `.rs` files under `dir`.
pub(crate) fn rust_lines(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| e.path())
        .map(|p| {
            if p.is_dir() {
                rust_lines(&p)
            } else if p.extension().is_some_and(|x| x == "rs") {
                std::fs::read_to_string(&p).map_or(0, |t| t.lines().count())
            } else {
                0
            }
        })
        .sum()
}

/// The `n` largest documents of both corpus folders, by size, with their labels.
fn largest(root: &Path, n: usize) -> Vec<(PathBuf, String, u64)> {
    let mut docs = Vec::new();
    for folder in ["openapi-corpus", "openapi-corpus-31"] {
        let dir = root.join("../shared").join(folder);
        for (bytes, path) in crate::codegen::documents_by_size(&dir) {
            let relative = path
                .strip_prefix(&dir)
                .unwrap_or(&path)
                .display()
                .to_string();
            docs.push((path, format!("../shared/{folder}/{relative}"), bytes));
        }
    }
    docs.sort_by(|a, b| b.2.cmp(&a.2).then(a.1.cmp(&b.1)));
    docs.truncate(n);
    docs
}

/// Writes apigen's crates for `text` as `ws/<stem>-server` and `ws/<stem>-client`; their
/// generated Rust lines.
fn generate(text: &str, stem: &str, label: &str, ws: &Path) -> Result<(usize, usize), String> {
    let options = apigen::Options {
        api_name: None,
        name: stem.to_owned(),
        spec_label: label.to_owned(),
        command: "petstore-bench".to_owned(),
        // From `target/bench-compile/corpus/ws/<crate>` to the checkout's `runtime/`.
        runtime: apigen::RuntimeSource::Crates {
            path: Some("../../../../../runtime".to_owned()),
        },
        ..Default::default()
    };
    let output = apigen::generate(text, &options).map_err(|e| format!("apigen: {e}"))?;
    let mut lines = (0, 0);
    for side in ["server", "client"] {
        let _ = std::fs::remove_dir_all(ws.join(format!("{stem}-{side}")));
    }
    for (path, contents) in &output.files {
        let Some((side, rest)) = path.split_once('/') else {
            continue;
        };
        let file = ws.join(format!("{stem}-{side}")).join(rest);
        if let Some(parent) = file.parent() {
            std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        std::fs::write(&file, contents).map_err(|e| e.to_string())?;
        if rest.ends_with(".rs") {
            let n = contents.lines().count();
            if side == "server" {
                lines.0 += n;
            } else {
                lines.1 += n;
            }
        }
    }
    Ok(lines)
}

pub fn run(root: &Path) -> Result<Vec<Row>, String> {
    let ws = root.join("target/bench-compile/corpus/ws");
    std::fs::create_dir_all(&ws).map_err(|e| format!("cannot create {}: {e}", ws.display()))?;
    let with_progenitor = progenitor_installed();
    if !with_progenitor {
        eprintln!("  cargo-progenitor is not installed: its column stays empty");
    }
    let mut docs = largest(root, DOCUMENTS);
    if with_progenitor {
        // The largest documents progenitor generates, for a comparison on equal terms.
        let probe = ws.join("probe");
        let mut found = 0;
        for doc in largest(root, usize::MAX) {
            if found == DOCUMENTS || docs.iter().any(|d| d.0 == doc.0) {
                continue;
            }
            if progenitor(cargo().as_ref(), &doc.0, &ws, "probe").is_ok() {
                docs.push(doc);
                found += 1;
            }
        }
        let _ = std::fs::remove_dir_all(probe);
    }
    let mut members = vec!["warm-server".to_owned(), "warm-client".to_owned()];
    let petstore =
        std::fs::read_to_string(root.join("spec/petstore.yaml")).map_err(|e| e.to_string())?;
    generate(&petstore, "warm", "spec/petstore.yaml", &ws)?;
    if with_progenitor
        && progenitor(
            cargo().as_ref(),
            &root.join("tests/fixtures/petstore-3.0.yaml"),
            &ws,
            "warm-progenitor",
        )
        .is_ok()
    {
        members.push("warm-progenitor".to_owned());
    }
    let mut prepared = Vec::new();
    for (i, (path, label, bytes)) in docs.iter().enumerate() {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{label}: {e}"))?;
        let version = text
            .split(['"', '\'', '\n', ' '])
            .skip_while(|t| !t.starts_with("openapi"))
            .find(|t| t.starts_with('3'))
            .unwrap_or("?")
            .to_owned();
        let stem = format!("doc{}", i + 1);
        let ours = generate(&text, &stem, label, &ws);
        if ours.is_ok() {
            members.push(format!("{stem}-server"));
            members.push(format!("{stem}-client"));
        }
        let theirs = if with_progenitor {
            let name = format!("{stem}-progenitor");
            let result = progenitor(cargo().as_ref(), path, &ws, &name);
            if result.is_ok() {
                members.push(name);
            }
            result
        } else {
            Err("cargo-progenitor is not installed".to_owned())
        };
        prepared.push((label.clone(), *bytes, version, stem, ours, theirs));
    }
    let manifest = format!(
        "# Written by petstore-bench (compile-corpus).\n[workspace]\nresolver = \"3\"\nmembers = [{}]\n",
        members
            .iter()
            .map(|m| format!("\"{m}\""))
            .collect::<Vec<_>>()
            .join(", ")
    );
    std::fs::write(ws.join("Cargo.toml"), manifest).map_err(|e| e.to_string())?;
    if !ws.join("Cargo.lock").exists() {
        std::fs::copy(root.join("Cargo.lock"), ws.join("Cargo.lock")).map_err(|e| e.to_string())?;
    }
    eprintln!("  building the warm-up crates (dependencies; not timed)…");
    for m in members.iter().filter(|m| m.starts_with("warm-")) {
        cargo_in(&ws, &["check", "-p", m])?;
        cargo_in(&ws, &["build", "--release", "-p", m])?;
    }
    let mut rows = Vec::new();
    for (label, bytes, version, stem, ours, theirs) in prepared {
        eprintln!("  {label}");
        let ours = match ours {
            Ok((server_lines, client_lines)) => ["server", "client"]
                .into_iter()
                .zip([server_lines, client_lines])
                .map(|(side, lines)| {
                    let krate = format!("{stem}-{side}");
                    let times = time_crate(&ws, &krate);
                    (side.to_owned(), lines, times)
                })
                .collect(),
            Err(e) => vec![("server and client".to_owned(), 0, Err(e))],
        };
        let progenitor = theirs.and_then(|lines| {
            let (check, release) = time_crate(&ws, &format!("{stem}-progenitor"))?;
            Ok((lines, check, release))
        });
        rows.push(Row {
            document: label,
            bytes,
            version,
            ours,
            progenitor,
        });
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::count_code;

    #[test]
    fn code_lines_leave_out_blank_lines_and_comments() {
        let text = "//! A module.\n\n/// A struct.\npub struct A {\n    // why\n    pub b: u8, // trailing\n}\n/* a\n   block */\nfn f() {}\n";
        assert_eq!(count_code(text), 4);
    }
}
