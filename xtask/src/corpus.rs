//! `cargo xtask corpus [DIR...] [--filter SUBSTR] [--keep DIR]`: the robustness run.
//!
//! Every OpenAPI document under the DIRs (default `../shared/openapi-corpus`, 3.0, and
//! `../shared/openapi-corpus-31`, 3.1/3.2; with several, labels start with the folder's
//! name) goes through
//! `apigen::generate` (a panic is caught and reported as a bug); the crates of the documents
//! that generate are written into one throwaway workspace (default `target/corpus/ws/`) and
//! compiled by ONE `cargo clippy --workspace --keep-going --message-format=json`, with a
//! shared target directory (`target/corpus/target`) so dependencies are built once. The
//! result is a markdown table, printed and written to `target/corpus/report.md`.
//!
//! The pure parts (slugs, the JSON reader for cargo's messages, the per-crate tally and the
//! table) are small functions with unit tests at the bottom; the rest only runs processes
//! and touches the disk.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::fs;
use std::io::{BufRead, BufReader, Read};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::Instant;

const COMMAND: &str = "cargo xtask corpus";
use crate::corpus_docs::{self, Document, EXTENSIONS};

/// The crates written for each document, by the side the generator names.
const SIDES: [&str; 3] = ["server", "client", "cli"];
/// Generation runs on its own thread with a large stack, so that deep recursion in the
/// generator on a big document shows up as a result rather than a stack overflow of the run.
const GENERATOR_STACK: usize = 256 << 20;

// ---------------------------------------------------------------------------------------------
// The command

pub fn main(args: &[String]) -> Result<(), String> {
    let started = Instant::now();
    let args = Args::parse(args)?;
    let root = crate::codegen::root();
    let root = root.canonicalize().unwrap_or(root);
    let Found {
        docs,
        known_invalid,
        dir_list,
    } = find_documents(&root, &args.dirs, &args.filters)?;
    let out_dir = root.join("target/corpus");
    let ws = args.keep.clone().unwrap_or_else(|| out_dir.join("ws"));
    let target_dir = out_dir.join("target");

    // 1. Generate every document and write the crates of those that generate.
    fs::create_dir_all(&ws).map_err(|e| format!("cannot create {}: {e}", ws.display()))?;
    let mut rows = Vec::new();
    let mut members = Vec::new();
    let mut taken = BTreeSet::new();
    let previous_hook = panic::take_hook();
    panic::set_hook(Box::new(record_panic));
    for doc in &docs {
        let label = &doc.label;
        let slug = unique(slug(label), &mut taken);
        eprintln!("corpus: generating {label}");
        let mut row = Row::new(label.clone());
        if known_invalid.contains(label) {
            row.notes.push("known-invalid (INDEX.md)".into());
        }
        if doc.split {
            row.notes.push("split over several files".into());
        }
        let options = apigen::Options {
            api_name: None,
            name: slug.clone(),
            spec_label: label.clone(),
            command: COMMAND.into(),
            string_formats: false,
            runtime: crate::codegen::runtime_beside(&ws.join(format!("{slug}-server"))),
        };
        let client_path = format!("../{slug}-client");
        let (result, ms) = generate_guarded(doc.clone(), options, Some(client_path));
        row.gen_ms = ms;
        match result {
            Ok(Ok(output)) => {
                row.gen_warnings = output.warnings.len();
                row.operations = Some(output.operations);
                for w in &output.warnings {
                    let kind = row
                        .gen_warning_kinds
                        .entry(kind_of(&w.message))
                        .or_default();
                    kind.0 += 1;
                    if kind.1.is_empty() {
                        kind.1 = w.pointer.clone();
                    }
                }
                row.lines = Some(generated_lines(&output.files));
                write_crates(&ws, &slug, &output.files)?;
                row.crates = Some(slug.clone());
                for side in SIDES {
                    members.push(format!("{slug}-{side}"));
                }
                row.generated = Generated::Yes;
            }
            Ok(Err(diagnostics)) => {
                let all = diagnostics.to_string();
                let first = all.lines().next().unwrap_or("(no message)").to_string();
                if all.contains("internal generator error") {
                    row.notes.push("internal generator error: a bug".into());
                }
                row.details = all.lines().take(20).map(|l| clip(l, 600)).collect();
                row.generated = Generated::Error(first, diagnostics.0.len());
            }
            Err(message) => {
                row.details = message.lines().take(20).map(|l| clip(l, 600)).collect();
                row.generated = Generated::Panic(message);
            }
        }
        rows.push(row);
    }
    panic::set_hook(previous_hook);

    // 2. One workspace, one build.
    let mut builds: HashMap<String, CrateBuild> = HashMap::new();
    let mut build_note = None;
    let mut build_secs = 0.0;
    let mut doc_secs = 0.0;
    if !members.is_empty() {
        let (names, excluded) = load_workspace(&ws, &root, &mut members, "")?;
        for (member, why) in excluded {
            builds.insert(
                member,
                CrateBuild {
                    manifest_error: Some(why),
                    ..CrateBuild::default()
                },
            );
        }
        if !members.is_empty() {
            eprintln!(
                "corpus: building {} crates in {} (target {})",
                members.len(),
                ws.display(),
                target_dir.display()
            );
            let build_started = Instant::now();
            // The servers' `mock` feature too (cargo checks each crate once, with it on), so
            // the generated mock modules are held to the same bar.
            let features: Vec<String> = members
                .iter()
                .filter(|m| m.ends_with("-server"))
                .map(|m| format!("{m}/mock"))
                .collect();
            let (lines, status, stderr) = cargo_build(&ws, &target_dir, &features)?;
            build_secs = build_started.elapsed().as_secs_f64();
            let mut tally = tally(lines.iter().map(String::as_str), &names);
            for member in &members {
                builds.insert(member.clone(), tally.remove(member).unwrap_or_default());
            }
            if !status && !members.iter().any(|m| builds[m].attempted()) {
                // Nothing of ours reached rustc: resolution or a dependency failed.
                build_note = Some(first_cargo_error(&stderr));
            }
            if args.doc {
                // Their documentation too: rustdoc's lints (broken links, bare URLs, HTML in
                // descriptions) only run there, and a team's `cargo doc` must be clean.
                eprintln!("corpus: documenting the crates");
                let doc_started = Instant::now();
                let (lines, _, _) = cargo_doc(&ws, &target_dir)?;
                doc_secs = doc_started.elapsed().as_secs_f64();
                let mut docs = self::tally(lines.iter().map(String::as_str), &names);
                for member in &members {
                    if let (Some(build), Some(doc)) = (builds.get_mut(member), docs.remove(member))
                    {
                        build.doc_warnings = Some(doc.warnings);
                        build.doc_warning_kinds = doc.warning_kinds;
                    } else if let Some(build) = builds.get_mut(member) {
                        build.doc_warnings = Some(0);
                    }
                }
            }
        }
    }
    for row in &mut rows {
        if let Some(slug) = &row.crates {
            row.server = builds.remove(&format!("{slug}-server"));
            row.client = builds.remove(&format!("{slug}-client"));
            row.cli = builds.remove(&format!("{slug}-cli"));
            let mut notes = Vec::new();
            for (side, build) in row.sides() {
                if let Some(b) = build {
                    if let Some(e) = &b.errors.first() {
                        notes.push(format!("{side}: {}", e.short()));
                    }
                    if let Some(m) = &b.manifest_error {
                        notes.push(format!("{side} manifest: {m}"));
                    }
                }
            }
            row.notes.extend(notes);
        }
    }

    // 3. Report.
    let mut report = render_table(&rows);
    report.push('\n');
    report.push_str(&summary_line(&rows));
    report.push('\n');
    if let Some(note) = &build_note {
        let _ = writeln!(
            report,
            "\ncargo clippy failed before checking any corpus crate: {note}"
        );
    }
    report.push_str(&render_details(&rows));
    report.push_str(&render_warnings(&rows));
    let elapsed = started.elapsed().as_secs_f64();
    let _ = writeln!(
        report,
        "\n_{} documents from {}; generation {:.1} s, build {:.1} s, doc {:.1} s, total {:.1} s._",
        rows.len(),
        dir_list,
        rows.iter().map(|r| r.gen_ms).sum::<f64>() / 1000.0,
        build_secs,
        doc_secs,
        elapsed
    );
    fs::create_dir_all(&out_dir)
        .map_err(|e| format!("cannot create {}: {e}", out_dir.display()))?;
    let report_path = out_dir.join("report.md");
    fs::write(&report_path, &report)
        .map_err(|e| format!("cannot write {}: {e}", report_path.display()))?;
    println!("{report}");
    println!("report written to {}", report_path.display());

    let failures = failures(&rows);
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!("corpus: {}", failures.join("; ")))
    }
}

/// The documents of a run in label order, the labels INDEX.md marks as not valid OpenAPI,
/// and the folders as one line for the report.
pub(crate) struct Found {
    pub(crate) docs: Vec<Document>,
    pub(crate) known_invalid: BTreeSet<String>,
    pub(crate) dir_list: String,
}

/// The public corpus folders, read when no folder is named: 3.0, 3.1/3.2, documents split
/// over several files, Swagger 2.0.
const DEFAULT_FOLDERS: [&str; 4] = [
    "openapi-corpus",
    "openapi-corpus-31",
    "openapi-corpus-multi",
    "openapi-corpus-swagger2",
];

/// The documents under `dirs` (default: every public corpus folder), as
/// [`corpus_docs::find`] tells them apart (a folder SOURCES.md lists with a root file is one
/// document), keeping those whose label contains any of `filters` (all when none). A `dirs`
/// entry may also be one document, labelled as it would be in a run over its corpus folder.
pub(crate) fn find_documents(
    root: &Path,
    dirs: &[PathBuf],
    filters: &[String],
) -> Result<Found, String> {
    let defaults: Vec<PathBuf> = DEFAULT_FOLDERS
        .iter()
        .map(|d| root.join("../shared").join(d))
        .collect();
    let dirs = if dirs.is_empty() {
        defaults.clone()
    } else {
        dirs.to_vec()
    };
    let dirs = dirs
        .iter()
        .map(|d| {
            d.canonicalize()
                .map_err(|e| format!("cannot read corpus directory {}: {e}", d.display()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let (files, folders): (Vec<PathBuf>, Vec<PathBuf>) =
        dirs.iter().cloned().partition(|d| d.is_file());
    // A document named on its own is labelled within the corpus folder holding it.
    let corpus_folders: Vec<PathBuf> = defaults
        .iter()
        .filter_map(|d| d.canonicalize().ok())
        .collect();
    let several = dirs.len() > 1 || !files.is_empty();
    let prefix = |dir: &Path| -> String {
        if several {
            dir.file_name()
                .map(|n| format!("{}/", n.to_string_lossy()))
                .unwrap_or_default()
        } else {
            String::new()
        }
    };
    let mut docs = corpus_docs::find(&folders, several)?;
    for file in &files {
        let base = corpus_folders
            .iter()
            .find(|f| file.starts_with(f))
            .cloned()
            .or_else(|| file.parent().map(Path::to_path_buf))
            .unwrap_or_default();
        let rel = corpus_docs::relative(file, &base);
        docs.push(Document {
            label: format!("{}{rel}", prefix(&base)),
            base,
            root: rel,
            split: false,
        });
    }
    let mut known_invalid = BTreeSet::new();
    let mut seen = BTreeSet::new();
    for base in docs.iter().map(|d| d.base.clone()) {
        if !seen.insert(base.clone()) {
            continue;
        }
        if let Ok(text) = fs::read_to_string(base.join("INDEX.md")) {
            known_invalid.extend(
                self::known_invalid(&text)
                    .into_iter()
                    .map(|l| format!("{}{l}", prefix(&base))),
            );
        }
    }
    docs.retain(|d| filters.is_empty() || filters.iter().any(|f| d.label.contains(f)));
    let dir_list = dirs
        .iter()
        .map(|d| d.display().to_string())
        .collect::<Vec<_>>()
        .join(" and ");
    if docs.is_empty() {
        return Err(format!(
            "no .yaml, .yml or .json document under {}{}",
            dir_list,
            if filters.is_empty() {
                String::new()
            } else {
                format!(" whose path contains `{}`", filters.join("` or `"))
            }
        ));
    }
    Ok(Found {
        docs,
        known_invalid,
        dir_list,
    })
}

struct Args {
    dirs: Vec<PathBuf>,
    /// Documents whose label holds any of these (all when none).
    filters: Vec<String>,
    keep: Option<PathBuf>,
    /// `cargo doc` the crates too (off with `--no-doc`).
    doc: bool,
}

impl Args {
    fn parse(args: &[String]) -> Result<Args, String> {
        let mut parsed = Args {
            dirs: Vec::new(),
            filters: Vec::new(),
            keep: None,
            doc: true,
        };
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            match arg.as_str() {
                "--filter" => parsed
                    .filters
                    .push(it.next().ok_or("--filter needs a substring")?.clone()),
                "--no-doc" => parsed.doc = false,
                "--keep" => parsed.keep = Some(it.next().ok_or("--keep needs a directory")?.into()),
                other if other.starts_with('-') => {
                    return Err(format!("unknown option `{other}`"));
                }
                other => parsed.dirs.push(other.into()),
            }
        }
        Ok(parsed)
    }
}

/// Why the run fails: panics, crates that do not compile, internal generator errors.
fn failures(rows: &[Row]) -> Vec<String> {
    let mut out = Vec::new();
    for row in rows {
        match &row.generated {
            Generated::Panic(_) => out.push(format!("{}: generator panicked", row.doc)),
            Generated::Error(first, _) if first.contains("internal generator error") => {
                out.push(format!("{}: internal generator error", row.doc))
            }
            _ => {}
        }
        for (side, build) in row.sides() {
            match build {
                Some(b) if b.manifest_error.is_some() => out.push(format!(
                    "{} {side}: cargo cannot load its manifest",
                    row.doc
                )),
                Some(b) if !b.compiled => out.push(format!("{} {side} does not compile", row.doc)),
                // Teams deny warnings: a generated crate that warns cannot be built by them.
                Some(b) if b.warnings > 0 => out.push(format!(
                    "{} {side}: {}",
                    row.doc,
                    plural(b.warnings, "warning")
                )),
                Some(b) if b.doc_warnings.unwrap_or(0) > 0 => out.push(format!(
                    "{} {side}: {} from cargo doc",
                    row.doc,
                    plural(b.doc_warnings.unwrap_or(0), "warning")
                )),
                _ => {}
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Documents and generation

/// A crate-name stem from a document's relative path: lowercase ASCII letters and digits,
/// runs of anything else become one `-`, the extension is dropped, and a leading digit gets
/// a `doc-` prefix (`oai-examples-v3.0/petstore.yaml` → `oai-examples-v3-0-petstore`).
pub(crate) fn slug(label: &str) -> String {
    let stem = match label.rsplit_once('.') {
        Some((stem, ext)) if EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str()) => stem,
        _ => label,
    };
    let mut s = String::new();
    for c in stem.chars() {
        if c.is_ascii_alphanumeric() {
            s.push(c.to_ascii_lowercase());
        } else if !s.is_empty() && !s.ends_with('-') {
            s.push('-');
        }
    }
    while s.ends_with('-') {
        s.pop();
    }
    if s.is_empty() {
        s.push_str("doc");
    }
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert_str(0, "doc-");
    }
    s
}

/// `slug`, or `slug-2`, `slug-3`… when two paths sanitize to the same name.
pub(crate) fn unique(slug: String, taken: &mut BTreeSet<String>) -> String {
    let mut candidate = slug.clone();
    let mut n = 2;
    while taken.contains(&candidate) {
        candidate = format!("{slug}-{n}");
        n += 1;
    }
    taken.insert(candidate.clone());
    candidate
}

/// Documents INDEX.md marks as not valid OpenAPI 3.0: summary rows naming a `file` and
/// saying `INVALID` or `FAIL`.
fn known_invalid(index: &str) -> BTreeSet<String> {
    index
        .lines()
        .filter(|l| l.starts_with("| `") && (l.contains("| INVALID |") || l.contains("| FAIL |")))
        .filter_map(|l| l.split('`').nth(1).map(str::to_string))
        .collect()
}

static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);

/// Panic hook while generating: remember where and what, print nothing (the row says it).
pub(crate) fn record_panic(info: &panic::PanicHookInfo<'_>) {
    if let Ok(mut slot) = LAST_PANIC.lock() {
        *slot = Some(info.to_string());
    }
}

/// Generates a document's crates (server and client; with `client_path`, the command-line
/// client too, whose manifest finds the client there) on its own thread, catching a panic;
/// returns the result (or the panic's location and message) and the time the calls took in
/// milliseconds.
pub(crate) fn generate_guarded(
    doc: Document,
    options: apigen::Options,
    client_path: Option<String>,
) -> (
    Result<Result<apigen::Output, apigen::diag::Diagnostics>, String>,
    f64,
) {
    guarded(move || {
        let files = apigen::FileSystem::new(&doc.base);
        match client_path {
            Some(client_path) => {
                apigen::generate_with_cli_from(&doc.root, &files, &options, &client_path)
            }
            None => apigen::generate_from(&doc.root, &files, &options),
        }
    })
}

/// Runs `f` on a thread with a large stack, catching a panic (as reported by
/// [`record_panic`] when that hook is installed, else by its payload), and times it.
pub(crate) fn guarded<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> (Result<T, String>, f64) {
    if let Ok(mut slot) = LAST_PANIC.lock() {
        *slot = None;
    }
    let spawned = std::thread::Builder::new()
        .name("apigen".into())
        .stack_size(GENERATOR_STACK)
        .spawn(move || {
            let started = Instant::now();
            let result = panic::catch_unwind(AssertUnwindSafe(f));
            (result, started.elapsed().as_secs_f64() * 1000.0)
        });
    let (result, ms) = match spawned.map(|h| h.join()) {
        Ok(Ok(pair)) => pair,
        Ok(Err(_)) => (Err(Box::new("generator thread died") as _), 0.0),
        Err(e) => return (Err(format!("cannot start the generator thread: {e}")), 0.0),
    };
    let result = result.map_err(|payload| {
        let recorded = LAST_PANIC.lock().ok().and_then(|mut s| s.take());
        recorded.unwrap_or_else(|| {
            payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "panic with a non-string payload".into())
        })
    });
    (result, ms)
}

/// Lines the generator wrote for this document, leaving out the runtime copied verbatim.
fn generated_lines(files: &BTreeMap<String, String>) -> usize {
    files
        .iter()
        .filter(|(path, _)| !path.contains("/src/runtime/"))
        .map(|(_, text)| text.lines().count())
        .sum()
}

/// Writes `server/…` into `ws/<slug>-server/…`, `client/…` into `ws/<slug>-client/…` (and
/// `cli/…` into `ws/<slug>-cli/…`).
/// Files whose contents are unchanged are left alone (so cargo can reuse what it built last
/// time) and files a previous run left that this one does not write are removed.
pub(crate) fn write_crates(
    ws: &Path,
    slug: &str,
    files: &BTreeMap<String, String>,
) -> Result<(), String> {
    let mut written = BTreeSet::new();
    for (rel, text) in files {
        let (side, rest) = rel
            .split_once('/')
            .ok_or_else(|| format!("unexpected output path {rel}"))?;
        let path = ws.join(format!("{slug}-{side}")).join(rest);
        written.insert(path.clone());
        if fs::read_to_string(&path).is_ok_and(|old| old == *text) {
            continue;
        }
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)
                .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let mut sides: BTreeSet<&str> = files.keys().filter_map(|k| k.split('/').next()).collect();
    sides.extend(SIDES);
    for side in sides {
        for path in files_under(&ws.join(format!("{slug}-{side}"))) {
            if !written.contains(&path) {
                fs::remove_file(&path)
                    .map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
            }
        }
    }
    Ok(())
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files_under(&path));
        } else {
            out.push(path);
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The workspace and cargo

fn workspace_manifest(members: &[String], extra: &str) -> String {
    let mut s = String::from(
        "# Written by `cargo xtask corpus`: a throwaway workspace of generated crates.\n\
         [workspace]\nresolver = \"3\"\nmembers = [\n",
    );
    for m in members {
        let _ = writeln!(s, "    \"{m}\",");
    }
    s.push_str("]\n");
    s.push_str(extra);
    s
}

pub(crate) fn write_workspace(ws: &Path, root: &Path, members: &[String]) -> Result<(), String> {
    write_workspace_with(ws, root, members, "")
}

/// [`write_workspace`] with more lines for the workspace's manifest (a `[profile.dev]`).
pub(crate) fn write_workspace_with(
    ws: &Path,
    root: &Path,
    members: &[String],
    extra: &str,
) -> Result<(), String> {
    let manifest = ws.join("Cargo.toml");
    fs::write(&manifest, workspace_manifest(members, extra))
        .map_err(|e| format!("cannot write {}: {e}", manifest.display()))?;
    // The repository's lock file, so that the corpus builds the versions the repository
    // builds and needs nothing new from the registry; cargo prunes and extends it.
    let lock = ws.join("Cargo.lock");
    fs::copy(root.join("Cargo.lock"), &lock)
        .map_err(|e| format!("cannot copy Cargo.lock to {}: {e}", lock.display()))?;
    Ok(())
}

/// `cargo` with the caller's flags removed: the corpus counts warnings, it does not deny them.
pub(crate) fn cargo() -> Command {
    let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    for var in [
        "RUSTFLAGS",
        "RUSTDOCFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_BUILD_RUSTFLAGS",
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_TARGET_DIR",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

/// Package id → package name, and member → why cargo could not load it.
pub(crate) type Loaded = (HashMap<String, String>, BTreeMap<String, String>);

/// Writes the workspace of `members` and asks cargo for its packages (package id → name). A
/// member whose manifest cargo cannot load stops every cargo command in the workspace: it is
/// set aside (removed from `members`, returned with cargo's error) and cargo asked again.
pub(crate) fn load_workspace(
    ws: &Path,
    root: &Path,
    members: &mut Vec<String>,
    extra: &str,
) -> Result<Loaded, String> {
    write_workspace_with(ws, root, members, extra)?;
    let mut excluded: BTreeMap<String, String> = BTreeMap::new();
    loop {
        match cargo_metadata(ws) {
            Ok(names) => return Ok((names, excluded)),
            Err(stderr) => {
                let bad: Vec<String> = members
                    .iter()
                    .filter(|m| mentions_member(&stderr, ws, m))
                    .cloned()
                    .collect();
                if bad.is_empty() {
                    return Err(format!(
                        "cargo cannot load the workspace {}:\n{stderr}",
                        ws.display()
                    ));
                }
                for m in bad {
                    excluded.insert(m.clone(), first_cargo_error(&stderr));
                    members.retain(|x| *x != m);
                }
                write_workspace_with(ws, root, members, extra)?;
            }
        }
    }
}

/// Package id → package name for the workspace members, or cargo's stderr when it cannot
/// load the workspace.
pub(crate) fn cargo_metadata(ws: &Path) -> Result<HashMap<String, String>, String> {
    let out = cargo()
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--manifest-path",
        ])
        .arg(ws.join("Cargo.toml"))
        .current_dir(ws)
        .output()
        .map_err(|e| format!("cannot run cargo metadata: {e}"))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let json = Json::parse(&text).map_err(|e| format!("cargo metadata output: {e}"))?;
    Ok(json
        .get("packages")
        .map(Json::items)
        .unwrap_or_default()
        .iter()
        .filter_map(|p| {
            Some((
                p.get("id")?.as_str()?.to_string(),
                p.get("name")?.as_str()?.to_string(),
            ))
        })
        .collect())
}

/// Whether cargo's error names the member's directory (or manifest).
fn mentions_member(stderr: &str, ws: &Path, member: &str) -> bool {
    let dir = ws.join(member);
    let dir = dir.to_string_lossy();
    stderr.contains(&format!("{dir}/")) || stderr.contains(&format!("{dir}`"))
}

/// cargo's first `error:` with its `caused by` chain, on one line.
pub(crate) fn first_cargo_error(stderr: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for line in stderr.lines().skip_while(|l| !l.starts_with("error")) {
        let line = line.trim();
        if !out.is_empty() && (line.starts_with("error") || line.starts_with("warning")) {
            break;
        }
        if !line.is_empty() {
            out.push(line);
        }
    }
    if out.is_empty() {
        stderr
            .lines()
            .last()
            .unwrap_or("(no output)")
            .trim()
            .to_string()
    } else {
        out.join(" ")
    }
}

/// One `cargo clippy --workspace --keep-going --message-format=json` (clippy's lints on top
/// of rustc's: generated code must be clean under both): stdout lines (the JSON messages),
/// whether cargo succeeded, and its stderr (also echoed, for progress).
pub(crate) fn cargo_build(
    ws: &Path,
    target_dir: &Path,
    features: &[String],
) -> Result<(Vec<String>, bool, String), String> {
    let features = if features.is_empty() {
        Vec::new()
    } else {
        vec!["--features".to_string(), features.join(",")]
    };
    let mut command = vec!["clippy", "--workspace", "--keep-going"];
    command.extend(features.iter().map(String::as_str));
    cargo_json(ws, target_dir, &command)
}

/// `cargo SUBCOMMAND --workspace --keep-going --message-format=json` (`clippy` to check and
/// lint, `build` for binaries), as [`cargo_build`].
pub(crate) fn cargo_run(
    ws: &Path,
    target_dir: &Path,
    subcommand: &str,
) -> Result<(Vec<String>, bool, String), String> {
    cargo_json(ws, target_dir, &[subcommand, "--workspace", "--keep-going"])
}

/// One `cargo doc --workspace --no-deps --keep-going --message-format=json`: rustdoc's
/// warnings about the generated crates' documentation, as [`cargo_build`] returns them.
fn cargo_doc(ws: &Path, target_dir: &Path) -> Result<(Vec<String>, bool, String), String> {
    cargo_json(
        ws,
        target_dir,
        &["doc", "--workspace", "--no-deps", "--keep-going"],
    )
}

fn cargo_json(
    ws: &Path,
    target_dir: &Path,
    command: &[&str],
) -> Result<(Vec<String>, bool, String), String> {
    let name = command[0];
    let mut child = cargo()
        .args(command)
        .args(["--message-format=json", "--manifest-path"])
        .arg(ws.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(target_dir)
        .current_dir(ws)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run cargo {name}: {e}"))?;
    let stderr = child.stderr.take().expect("piped stderr");
    let echo = std::thread::spawn(move || {
        let mut kept = String::new();
        let mut reader = BufReader::new(stderr);
        let mut line = String::new();
        while reader.read_line(&mut line).unwrap_or(0) > 0 {
            eprint!("{line}");
            kept.push_str(&line);
            line.clear();
        }
        kept
    });
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .expect("piped stdout")
        .read_to_string(&mut stdout)
        .map_err(|e| format!("cannot read cargo's output: {e}"))?;
    let status = child
        .wait()
        .map_err(|e| format!("cargo {name} did not finish: {e}"))?;
    let stderr = echo.join().unwrap_or_default();
    Ok((
        stdout.lines().map(str::to_string).collect(),
        status.success(),
        stderr,
    ))
}

// ---------------------------------------------------------------------------------------------
// cargo's JSON messages → per-crate results

/// What the build said about one crate.
#[derive(Debug, Default, Clone)]
pub(crate) struct CrateBuild {
    pub(crate) compiled: bool,
    pub(crate) warnings: usize,
    pub(crate) errors: Vec<CompileError>,
    /// Warning kind (see [`kind_of`]) → how many, and where the first one is.
    pub(crate) warning_kinds: BTreeMap<String, (usize, String)>,
    /// Set aside before the build: cargo could not load the crate's manifest.
    pub(crate) manifest_error: Option<String>,
    /// rustdoc's warnings (`None`: not documented).
    pub(crate) doc_warnings: Option<usize>,
    pub(crate) doc_warning_kinds: BTreeMap<String, (usize, String)>,
}

impl CrateBuild {
    fn attempted(&self) -> bool {
        self.compiled || !self.errors.is_empty() || self.warnings > 0
    }

    fn cell(&self) -> String {
        if self.compiled {
            "yes".into()
        } else if self.manifest_error.is_some() {
            "**no** (manifest)".into()
        } else if self.errors.is_empty() {
            "**not built**".into()
        } else {
            format!("**no** ({})", plural(self.errors.len(), "error"))
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CompileError {
    pub(crate) code: Option<String>,
    pub(crate) message: String,
    /// `file:line` of the primary span, relative to the corpus workspace.
    location: Option<String>,
    rendered: String,
}

impl CompileError {
    /// `file:line: CODE message`, the location first so that it survives a cut.
    pub(crate) fn short(&self) -> String {
        let mut s = String::new();
        if let Some(at) = &self.location {
            let _ = write!(s, "{at}: ");
        }
        if let Some(code) = &self.code {
            let _ = write!(s, "{code} ");
        }
        s.push_str(self.message.lines().next().unwrap_or(""));
        s
    }
}

/// Folds cargo's JSON lines into results per package name. `names` maps package ids (from
/// `cargo metadata`) to names; messages about other packages (dependencies) are ignored.
pub(crate) fn tally<'a>(
    lines: impl Iterator<Item = &'a str>,
    names: &HashMap<String, String>,
) -> HashMap<String, CrateBuild> {
    let mut out: HashMap<String, CrateBuild> = HashMap::new();
    for line in lines {
        let Ok(msg) = Json::parse(line) else { continue };
        let Some(name) = msg
            .get("package_id")
            .and_then(Json::as_str)
            .and_then(|id| names.get(id))
        else {
            continue;
        };
        match msg.get("reason").and_then(Json::as_str) {
            Some("compiler-artifact") => {
                out.entry(name.clone()).or_default().compiled = true;
            }
            Some("compiler-message") => {
                let Some(diag) = msg.get("message") else {
                    continue;
                };
                let level = diag.get("level").and_then(Json::as_str).unwrap_or("");
                let text = diag.get("message").and_then(Json::as_str).unwrap_or("");
                let spans = diag.get("spans").map(Json::items).unwrap_or_default();
                if spans.is_empty() && is_summary(text) {
                    continue;
                }
                let entry = out.entry(name.clone()).or_default();
                match level {
                    "warning" => {
                        entry.warnings += 1;
                        let kind = entry.warning_kinds.entry(kind_of(text)).or_default();
                        kind.0 += 1;
                        if kind.1.is_empty() {
                            kind.1 = primary_location(spans).unwrap_or_default();
                        }
                    }
                    "error" | "error: internal compiler error" => {
                        entry.errors.push(CompileError {
                            code: diag
                                .get("code")
                                .and_then(|c| c.get("code"))
                                .and_then(Json::as_str)
                                .map(str::to_string),
                            message: text.to_string(),
                            location: primary_location(spans),
                            rendered: diag
                                .get("rendered")
                                .and_then(Json::as_str)
                                .unwrap_or(text)
                                .to_string(),
                        });
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    out
}

/// `file:line` of a diagnostic's primary span.
fn primary_location(spans: &[Json]) -> Option<String> {
    let span = spans
        .iter()
        .find(|s| s.get("is_primary") == Some(&Json::Bool(true)))
        .or(spans.first())?;
    Some(format!(
        "{}:{}",
        span.get("file_name")?.as_str()?,
        span.get("line_start")?.as_number()?
    ))
}

fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// rustc's closing lines ("aborting due to 3 previous errors", "2 warnings emitted").
fn is_summary(message: &str) -> bool {
    message.starts_with("aborting due to")
        || (message.ends_with(" emitted")
            && (message.contains("warning") || message.contains("error")))
}

// ---------------------------------------------------------------------------------------------
// The table

#[derive(Debug, Clone, PartialEq)]
enum Generated {
    Yes,
    /// First line of the errors, and how many there are.
    Error(String, usize),
    /// Where and what.
    Panic(String),
}

#[derive(Debug, Clone)]
struct Row {
    doc: String,
    generated: Generated,
    gen_ms: f64,
    lines: Option<usize>,
    gen_warnings: usize,
    /// Generator warning kind → how many, and the JSON pointer of the first.
    gen_warning_kinds: BTreeMap<String, (usize, String)>,
    /// The crate-name stem when the crates were written.
    crates: Option<String>,
    server: Option<CrateBuild>,
    client: Option<CrateBuild>,
    cli: Option<CrateBuild>,
    /// Operations of the document, when it generated.
    operations: Option<usize>,
    notes: Vec<String>,
    /// Generator errors or the panic, for the details section.
    details: Vec<String>,
}

impl Row {
    fn new(doc: String) -> Row {
        Row {
            doc,
            generated: Generated::Yes,
            gen_ms: 0.0,
            lines: None,
            gen_warnings: 0,
            gen_warning_kinds: BTreeMap::new(),
            crates: None,
            server: None,
            client: None,
            cli: None,
            operations: None,
            notes: Vec::new(),
            details: Vec::new(),
        }
    }

    /// Each crate's build, by side.
    fn sides(&self) -> [(&'static str, &Option<CrateBuild>); 3] {
        [
            ("server", &self.server),
            ("client", &self.client),
            ("cli", &self.cli),
        ]
    }
}

/// At most `max` characters of `line`, saying how many were left out.
fn clip(line: &str, max: usize) -> String {
    let total = line.chars().count();
    if total <= max {
        return line.to_string();
    }
    let kept: String = line.chars().take(max).collect();
    format!("{kept}… ({} more characters)", total - max)
}

/// A table cell: one line, no `|`, at most `max` characters.
fn cell(text: &str, max: usize) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut s: String = one_line.chars().take(max).collect();
    if one_line.chars().count() > max {
        s.push('…');
    }
    s.replace('|', "\\|")
}

fn render_table(rows: &[Row]) -> String {
    let mut s = String::from(
        "| document | generated | ops | gen ms | lines | server compiles | client compiles | CLI compiles | warnings (gen + rustc server/client/CLI + rustdoc) | notes |\n\
         |---|---|---:|---:|---:|---|---|---|---|---|\n",
    );
    for r in rows {
        let generated = match &r.generated {
            Generated::Yes => "yes".to_string(),
            Generated::Error(first, n) => {
                let more = if *n > 1 {
                    format!(" (+{} more)", n - 1)
                } else {
                    String::new()
                };
                format!("ERROR {}{more}", cell(first, 110))
            }
            Generated::Panic(what) => format!("**PANIC** {}", cell(what, 110)),
        };
        let side = |b: &Option<CrateBuild>| b.as_ref().map_or("–".into(), CrateBuild::cell);
        let warnings = match &r.generated {
            Generated::Yes => {
                let count = |b: &Option<CrateBuild>| {
                    b.as_ref()
                        .filter(|b| b.attempted())
                        .map_or("?".into(), |b| b.warnings.to_string())
                };
                let documented: Vec<usize> = [&r.server, &r.client, &r.cli]
                    .iter()
                    .filter_map(|b| b.as_ref().and_then(|b| b.doc_warnings))
                    .collect();
                let docs = (!documented.is_empty()).then(|| documented.iter().sum::<usize>());
                format!(
                    "{} + {}/{}/{} + {}",
                    r.gen_warnings,
                    count(&r.server),
                    count(&r.client),
                    count(&r.cli),
                    docs.map_or("?".into(), |n| n.to_string())
                )
            }
            _ => "–".into(),
        };
        let notes: Vec<String> = r.notes.iter().map(|n| cell(n, 160)).collect();
        let _ = writeln!(
            s,
            "| `{}` | {} | {} | {:.0} | {} | {} | {} | {} | {} | {} |",
            r.doc,
            generated,
            r.operations.map_or("–".into(), |n| n.to_string()),
            r.gen_ms,
            r.lines.map_or("–".into(), |n| n.to_string()),
            side(&r.server),
            side(&r.client),
            side(&r.cli),
            warnings,
            notes.join("; ")
        );
    }
    s
}

fn summary_line(rows: &[Row]) -> String {
    let count = |f: &dyn Fn(&Row) -> bool| rows.iter().filter(|r| f(r)).count();
    let compiles = |b: &Option<CrateBuild>| b.as_ref().is_some_and(|b| b.compiled);
    format!(
        "corpus: {} documents, {} generated, {} servers compile, {} clients compile, {} CLIs compile, {} clean errors, {} panics",
        rows.len(),
        count(&|r| r.generated == Generated::Yes),
        count(&|r| compiles(&r.server)),
        count(&|r| compiles(&r.client)),
        count(&|r| compiles(&r.cli)),
        count(&|r| matches!(r.generated, Generated::Error(..))),
        count(&|r| matches!(r.generated, Generated::Panic(_))),
    )
}

/// Per failure: the generator's errors or panic, or per crate that does not compile the
/// error kinds with counts and the first error as rustc printed it.
fn render_details(rows: &[Row]) -> String {
    let mut s = String::new();
    for r in rows {
        let mut section = String::new();
        if !r.details.is_empty() {
            section.push_str("```text\n");
            for line in &r.details {
                section.push_str(line);
                section.push('\n');
            }
            section.push_str("```\n");
        }
        for (side, build) in r.sides() {
            let Some(b) = build else { continue };
            if let Some(m) = &b.manifest_error {
                let _ = writeln!(section, "{side}: cargo cannot load the manifest: {m}\n");
            }
            if b.errors.is_empty() {
                continue;
            }
            let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
            for e in &b.errors {
                let key = match &e.code {
                    Some(code) => format!("{code} {}", kind_of(&e.message)),
                    None => kind_of(&e.message),
                };
                *kinds.entry(key).or_default() += 1;
            }
            let mut kinds: Vec<_> = kinds.into_iter().collect();
            kinds.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            let _ = writeln!(section, "{side}: {}", plural(b.errors.len(), "error"));
            for (kind, n) in kinds.iter().take(8) {
                let _ = writeln!(section, "- {n} × {}", cell(kind, 150));
            }
            let rendered: Vec<&str> = b.errors[0].rendered.trim_end().lines().take(30).collect();
            let _ = writeln!(section, "\n```text\n{}\n```\n", rendered.join("\n"));
        }
        if !section.is_empty() {
            let _ = writeln!(s, "\n### `{}`\n\n{section}", r.doc);
        }
    }
    if s.is_empty() {
        s
    } else {
        format!("\n## Failures\n{s}")
    }
}

/// Warnings by kind, from the generator and from rustc: how many, in how many documents or
/// crates, and where the first one is.
fn render_warnings(rows: &[Row]) -> String {
    type Kinds<'a> = BTreeMap<&'a str, (usize, usize, String)>;
    fn add<'a>(kinds: &mut Kinds<'a>, from: &'a BTreeMap<String, (usize, String)>, doc: &str) {
        for (kind, (n, at)) in from {
            let entry = kinds
                .entry(kind)
                .or_insert_with(|| (0, 0, format!("{doc}{at}")));
            entry.0 += n;
            entry.1 += 1;
        }
    }
    fn table(title: &str, unit: &str, kinds: Kinds<'_>) -> String {
        if kinds.is_empty() {
            return String::new();
        }
        let mut kinds: Vec<_> = kinds.into_iter().collect();
        kinds.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.0.cmp(b.0)));
        let mut s = format!(
            "\n## {title}\n\n| warning | count | {unit} | first at |\n|---|---:|---:|---|\n"
        );
        for (kind, (n, m, at)) in kinds {
            let _ = writeln!(
                s,
                "| {} | {n} | {m} | {} |",
                cell(kind, 120),
                cell(&at, 140)
            );
        }
        s
    }
    let mut generator = Kinds::new();
    let mut rustc = Kinds::new();
    let mut rustdoc = Kinds::new();
    for r in rows {
        add(&mut generator, &r.gen_warning_kinds, &format!("{} ", r.doc));
        for b in [&r.server, &r.client, &r.cli].into_iter().flatten() {
            add(&mut rustc, &b.warning_kinds, "");
            add(&mut rustdoc, &b.doc_warning_kinds, "");
        }
    }
    table("Generator warnings by kind", "documents", generator)
        + &table("rustc warnings by kind", "crates", rustc)
        + &table("rustdoc warnings by kind", "crates", rustdoc)
}

/// The message's first line with every backtick- or double-quoted name replaced by `…`
/// (keeping the trait of a `Type: Trait` bound), so that "cannot find type `A`" and "cannot
/// find type `B`" count as one kind.
pub(crate) fn kind_of(message: &str) -> String {
    let first = message.lines().next().unwrap_or("");
    let mut out = String::new();
    let mut rest = first;
    while let Some(open) = rest.find(['`', '"']) {
        let quote = &rest[open..open + 1];
        out.push_str(&rest[..open]);
        let inner = &rest[open + 1..];
        let (name, after) = inner.split_once(quote).unwrap_or((inner, ""));
        match name.rsplit_once(": ") {
            Some((_, bound)) if quote == "`" => out.push_str(&format!("`…: {bound}`")),
            _ => out.push_str(&format!("{quote}…{quote}")),
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

// ---------------------------------------------------------------------------------------------
// A small JSON reader for cargo's messages (xtask depends only on the generator).

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Json {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    pub(crate) fn parse(text: &str) -> Result<Json, String> {
        let mut p = JsonParser {
            bytes: text.as_bytes(),
            text,
            pos: 0,
        };
        let value = p.value(0)?;
        p.skip_ws();
        if p.pos != p.bytes.len() {
            return Err(format!("trailing characters at {}", p.pos));
        }
        Ok(value)
    }

    pub(crate) fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    pub(crate) fn as_number(&self) -> Option<f64> {
        match self {
            Json::Number(n) => Some(*n),
            _ => None,
        }
    }

    pub(crate) fn items(&self) -> &[Json] {
        match self {
            Json::Array(items) => items,
            _ => &[],
        }
    }
}

struct JsonParser<'a> {
    bytes: &'a [u8],
    text: &'a str,
    pos: usize,
}

impl JsonParser<'_> {
    fn skip_ws(&mut self) {
        while self
            .bytes
            .get(self.pos)
            .is_some_and(|b| b.is_ascii_whitespace())
        {
            self.pos += 1;
        }
    }

    fn error<T>(&self, what: &str) -> Result<T, String> {
        Err(format!("{what} at byte {}", self.pos))
    }

    fn eat(&mut self, byte: u8) -> Result<(), String> {
        self.skip_ws();
        if self.bytes.get(self.pos) == Some(&byte) {
            self.pos += 1;
            Ok(())
        } else {
            self.error(&format!("expected `{}`", byte as char))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, String> {
        if depth > 256 {
            return self.error("nested too deeply");
        }
        self.skip_ws();
        match self.bytes.get(self.pos) {
            Some(b'{') => {
                self.pos += 1;
                let mut fields = Vec::new();
                self.skip_ws();
                if self.bytes.get(self.pos) == Some(&b'}') {
                    self.pos += 1;
                    return Ok(Json::Object(fields));
                }
                loop {
                    self.skip_ws();
                    let key = self.string()?;
                    self.eat(b':')?;
                    fields.push((key, self.value(depth + 1)?));
                    self.skip_ws();
                    match self.bytes.get(self.pos) {
                        Some(b',') => self.pos += 1,
                        Some(b'}') => {
                            self.pos += 1;
                            return Ok(Json::Object(fields));
                        }
                        _ => return self.error("expected `,` or `}`"),
                    }
                }
            }
            Some(b'[') => {
                self.pos += 1;
                let mut items = Vec::new();
                self.skip_ws();
                if self.bytes.get(self.pos) == Some(&b']') {
                    self.pos += 1;
                    return Ok(Json::Array(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    self.skip_ws();
                    match self.bytes.get(self.pos) {
                        Some(b',') => self.pos += 1,
                        Some(b']') => {
                            self.pos += 1;
                            return Ok(Json::Array(items));
                        }
                        _ => return self.error("expected `,` or `]`"),
                    }
                }
            }
            Some(b'"') => Ok(Json::String(self.string()?)),
            Some(b't') => self.word("true", Json::Bool(true)),
            Some(b'f') => self.word("false", Json::Bool(false)),
            Some(b'n') => self.word("null", Json::Null),
            Some(b'-' | b'0'..=b'9') => {
                let start = self.pos;
                while self
                    .bytes
                    .get(self.pos)
                    .is_some_and(|b| matches!(b, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
                {
                    self.pos += 1;
                }
                self.text[start..self.pos]
                    .parse()
                    .map(Json::Number)
                    .or_else(|_| self.error("bad number"))
            }
            _ => self.error("expected a value"),
        }
    }

    fn word(&mut self, word: &str, value: Json) -> Result<Json, String> {
        if self.text[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(value)
        } else {
            self.error("expected a value")
        }
    }

    fn string(&mut self) -> Result<String, String> {
        if self.bytes.get(self.pos) != Some(&b'"') {
            return self.error("expected a string");
        }
        self.pos += 1;
        let mut out = String::new();
        loop {
            let start = self.pos;
            while self
                .bytes
                .get(self.pos)
                .is_some_and(|b| *b != b'"' && *b != b'\\')
            {
                self.pos += 1;
            }
            // Both delimiters are ASCII, so the run is whole UTF-8.
            out.push_str(&self.text[start..self.pos]);
            match self.bytes.get(self.pos) {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    let escaped = *self.bytes.get(self.pos).ok_or("unterminated string")?;
                    self.pos += 1;
                    match escaped {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let high = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&high)
                                && self.text[self.pos..].starts_with("\\u")
                            {
                                self.pos += 2;
                                let low = self.hex4()?;
                                0x10000
                                    + ((high - 0xD800) << 10)
                                    + (low.wrapping_sub(0xDC00) & 0x3FF)
                            } else {
                                high
                            };
                            out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
                        }
                        _ => return self.error("bad escape"),
                    }
                }
                _ => return self.error("unterminated string"),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let digits = self
            .text
            .get(self.pos..self.pos + 4)
            .ok_or("short \\u escape")?;
        self.pos += 4;
        u32::from_str_radix(digits, 16).or_else(|_| self.error("bad \\u escape"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_crate_names() {
        assert_eq!(
            slug("oai-examples-v3.0/petstore-expanded.yaml"),
            "oai-examples-v3-0-petstore-expanded"
        );
        assert_eq!(
            slug("progenitor/api.github.com.json"),
            "progenitor-api-github-com"
        );
        assert_eq!(
            slug("twilio/twilio_iam_scim.json"),
            "twilio-twilio-iam-scim"
        );
        assert_eq!(
            slug("openai/openapi-2025-01-17-d78fe2ac.yaml"),
            "openai-openapi-2025-01-17-d78fe2ac"
        );
        assert_eq!(slug("2024/API v2!.YML"), "doc-2024-api-v2");
        assert_eq!(slug("__.json"), "doc");
        assert_eq!(slug("notes.txt"), "notes-txt");
    }

    #[test]
    fn panics_become_results() {
        let (ok, _) = guarded(|| 7);
        assert_eq!(ok, Ok(7));
        // No hook installed here (tests share the process): the payload is the message.
        let (err, _) = guarded(|| -> u8 { panic!("boom {}", 1) });
        assert_eq!(err, Err("boom 1".to_string()));
        let (err, _) = guarded(|| -> u8 { std::panic::panic_any(3_u8) });
        assert_eq!(err, Err("panic with a non-string payload".to_string()));
    }

    #[test]
    fn colliding_slugs_get_a_suffix() {
        let mut taken = BTreeSet::new();
        assert_eq!(unique("a-b".into(), &mut taken), "a-b");
        assert_eq!(unique("a-b".into(), &mut taken), "a-b-2");
        assert_eq!(unique("a-b".into(), &mut taken), "a-b-3");
    }

    #[test]
    fn known_invalid_rows_of_the_index() {
        let index = "\
| file | size | openapi | paths | ops | schemas | oas-val | openapiv3 2.2.0 | st load |
|---|---:|---|---:|---:|---:|---|---|---|
| `a/ok.yaml` | 2 KiB | 3.0.0 | 1 | 1 | 0 | valid | ok | ok (1 ops) |
| `a/bad.yaml` | 1 MiB | 3.0.0 | 9 | 9 | 9 | INVALID | FAIL | ok (9 ops) |
- notes: **KNOWN-BAD 3.0**: INVALID | FAIL mentioned in prose
";
        assert_eq!(
            known_invalid(index).into_iter().collect::<Vec<_>>(),
            ["a/bad.yaml"]
        );
    }

    #[test]
    fn json_values() {
        let v = Json::parse(r#" {"a": [1, -2.5e1, true, false, null], "s": "x\"\\\/\n\u00e9\ud83d\ude00", "o": {}} "#)
            .unwrap();
        assert_eq!(
            v.get("a").unwrap().items(),
            [
                Json::Number(1.0),
                Json::Number(-25.0),
                Json::Bool(true),
                Json::Bool(false),
                Json::Null
            ]
        );
        assert_eq!(v.get("s").unwrap().as_str(), Some("x\"\\/\né😀"));
        assert_eq!(v.get("o"), Some(&Json::Object(vec![])));
        assert_eq!(Json::parse("\"ünï\"").unwrap().as_str(), Some("ünï"));
        for bad in [
            "",
            "{",
            "[1,]",
            "{\"a\" 1}",
            "\"abc",
            "tru",
            "1 2",
            "\"\\x\"",
        ] {
            assert!(Json::parse(bad).is_err(), "{bad:?} should not parse");
        }
    }

    const ID_S: &str = "path+file:///ws/pets-server#1.0.0";
    const ID_C: &str = "path+file:///ws/pets-client#1.0.0";

    fn names() -> HashMap<String, String> {
        [(ID_S, "pets-server"), (ID_C, "pets-client")]
            .into_iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    fn message(id: &str, level: &str, text: &str, spans: &str) -> String {
        format!(
            r#"{{"reason":"compiler-message","package_id":"{id}","manifest_path":"/ws/x/Cargo.toml","target":{{"kind":["lib"],"name":"x"}},"message":{{"rendered":"{level}: {text}\n --> rendered\n","$message_type":"diagnostic","children":[],"code":{{"code":"E0412","explanation":"..."}},"level":"{level}","message":"{text}","spans":[{spans}]}}}}"#
        )
    }

    #[test]
    fn cargo_messages_fold_per_crate() {
        let span = r#"{"file_name":"pets-client/src/types.rs","line_start":12,"line_end":12,"is_primary":false},{"file_name":"pets-client/src/client.rs","line_start":40,"line_end":40,"is_primary":true}"#;
        let warn_span =
            r#"{"file_name":"pets-server/src/api.rs","line_start":3,"is_primary":true}"#;
        let lines = [
            r#"{"reason":"compiler-artifact","package_id":"registry+https://github.com/rust-lang/crates.io-index#serde@1.0.0","target":{"kind":["lib"]}}"#.to_string(),
            message(ID_S, "warning", "unused import: `x`", warn_span),
            message(ID_S, "warning", "unused variable: `y`", warn_span),
            message(ID_S, "warning", "2 warnings emitted", ""),
            r#"{"reason":"compiler-artifact","package_id":"path+file:///ws/pets-server#1.0.0","target":{"kind":["lib"]}}"#.to_string(),
            message(ID_C, "error", "cannot find type `Foo` in this scope", span),
            message(ID_C, "error", "cannot find type `Bar` in this scope", span),
            message(ID_C, "error", "aborting due to 2 previous errors", ""),
            "not json".to_string(),
            r#"{"reason":"build-finished","success":false}"#.to_string(),
        ];
        let t = tally(lines.iter().map(String::as_str), &names());
        assert_eq!(t.len(), 2);
        let server = &t["pets-server"];
        assert!(server.compiled);
        assert_eq!(server.warnings, 2);
        assert!(server.errors.is_empty());
        let client = &t["pets-client"];
        assert!(!client.compiled);
        assert_eq!(client.errors.len(), 2);
        assert_eq!(
            client.errors[0].short(),
            "pets-client/src/client.rs:40: E0412 cannot find type `Foo` in this scope"
        );
        assert!(
            client.errors[0]
                .rendered
                .starts_with("error: cannot find type")
        );
        assert_eq!(
            server.warning_kinds,
            BTreeMap::from([
                (
                    "unused import: `…`".to_string(),
                    (1, "pets-server/src/api.rs:3".to_string())
                ),
                (
                    "unused variable: `…`".to_string(),
                    (1, "pets-server/src/api.rs:3".to_string())
                ),
            ])
        );
        assert_eq!(
            kind_of(&client.errors[1].message),
            "cannot find type `…` in this scope"
        );
        assert_eq!(
            kind_of("the trait bound `Foo: Default` is not satisfied\nmore"),
            "the trait bound `…: Default` is not satisfied"
        );
        assert_eq!(kind_of("unbalanced `quote"), "unbalanced `…`");
        assert_eq!(
            kind_of(r#"Named("NameOrId") parameters, `a` and `b`"#),
            r#"Named("…") parameters, `…` and `…`"#
        );
    }

    fn rows() -> Vec<Row> {
        let ok = CrateBuild {
            compiled: true,
            warnings: 1,
            warning_kinds: BTreeMap::from([(
                "unused import: `…`".to_string(),
                (1, "a-server/src/router.rs:12".to_string()),
            )]),
            ..CrateBuild::default()
        };
        let failed = CrateBuild {
            errors: vec![CompileError {
                code: Some("E0412".into()),
                message: "cannot find type `Foo`".into(),
                location: Some("a-client/src/types.rs:7".into()),
                rendered: "error[E0412]: cannot find type `Foo`\n --> a-client/src/types.rs:7:5"
                    .into(),
            }],
            ..CrateBuild::default()
        };
        let documented = CrateBuild {
            compiled: true,
            doc_warnings: Some(1),
            doc_warning_kinds: BTreeMap::from([(
                "this URL is not a hyperlink".to_string(),
                (1, "a-cli/src/lib.rs:3".to_string()),
            )]),
            ..CrateBuild::default()
        };
        let mut a = Row::new("a.yaml".into());
        a.operations = Some(4);
        a.cli = Some(documented);
        a.gen_ms = 12.4;
        a.lines = Some(300);
        a.gen_warnings = 2;
        a.gen_warning_kinds.insert(
            "`…` is not supported; using `…`".into(),
            (2, "/paths/~1a/get".into()),
        );
        a.crates = Some("a".into());
        a.server = Some(ok);
        a.client = Some(failed);
        a.notes
            .push("client: E0412 cannot find type `Foo` at a-client/src/types.rs:7".into());
        let mut b = Row::new("dir/b.json".into());
        b.generated = Generated::Error("error: /paths/~1x|y: not 3.0".into(), 3);
        b.details = vec!["error: /paths/~1x|y: not 3.0".into()];
        let mut c = Row::new("c.yaml".into());
        c.generated = Generated::Panic("panicked at generator/src/lower/mod.rs:10:5:\nboom".into());
        vec![a, b, c]
    }

    #[test]
    fn table_and_summary() {
        let rows = rows();
        let table = render_table(&rows);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 5);
        assert_eq!(
            lines[2],
            "| `a.yaml` | yes | 4 | 12 | 300 | yes | **no** (1 error) | yes | 2 + 1/0/0 + 1 | client: E0412 cannot find type `Foo` at a-client/src/types.rs:7 |"
        );
        assert_eq!(
            lines[3],
            "| `dir/b.json` | ERROR error: /paths/~1x\\|y: not 3.0 (+2 more) | – | 0 | – | – | – | – | – |  |"
        );
        assert_eq!(
            lines[4],
            "| `c.yaml` | **PANIC** panicked at generator/src/lower/mod.rs:10:5: boom | – | 0 | – | – | – | – | – |  |"
        );
        assert_eq!(
            summary_line(&rows),
            "corpus: 3 documents, 1 generated, 1 servers compile, 0 clients compile, 1 CLIs compile, 1 clean errors, 1 panics"
        );
        assert_eq!(
            failures(&rows),
            [
                "a.yaml server: 1 warning",
                "a.yaml client does not compile",
                "a.yaml cli: 1 warning from cargo doc",
                "c.yaml: generator panicked"
            ]
        );
        let details = render_details(&rows);
        assert!(details.starts_with("\n## Failures"));
        assert!(details.contains("client: 1 error\n- 1 × E0412 cannot find type `…`"));
        assert!(details.contains("### `dir/b.json`"));
        assert_eq!(
            render_warnings(&rows),
            "\n## Generator warnings by kind\n\n| warning | count | documents | first at |\n|---|---:|---:|---|\n\
             | `…` is not supported; using `…` | 2 | 1 | a.yaml /paths/~1a/get |\n\
             \n## rustc warnings by kind\n\n| warning | count | crates | first at |\n|---|---:|---:|---|\n\
             | unused import: `…` | 1 | 1 | a-server/src/router.rs:12 |\n\
             \n## rustdoc warnings by kind\n\n| warning | count | crates | first at |\n|---|---:|---:|---|\n\
             | this URL is not a hyperlink | 1 | 1 | a-cli/src/lib.rs:3 |\n"
        );
    }

    #[test]
    fn cells_are_one_line_and_bounded() {
        assert_eq!(cell("a\n  b | c", 100), "a b \\| c");
        assert_eq!(cell("abcdef", 3), "abc…");
        assert_eq!(clip("abcdef", 6), "abcdef");
        assert_eq!(clip("abcdéf", 3), "abc… (3 more characters)");
    }

    #[test]
    fn arguments() {
        let a = Args::parse(&[
            "x".into(),
            "--filter".into(),
            "oai".into(),
            "--keep".into(),
            "kept/ws".into(),
        ])
        .unwrap();
        assert_eq!(a.dirs, [PathBuf::from("x")]);
        assert_eq!(a.filters, ["oai"]);
        assert!(a.doc);
        assert_eq!(a.keep, Some(PathBuf::from("kept/ws")));
        let a = Args::parse(&[
            "--filter".into(),
            "a".into(),
            "--filter".into(),
            "b".into(),
            "--no-doc".into(),
        ])
        .unwrap();
        assert_eq!(a.filters, ["a", "b"]);
        assert!(!a.doc);
        assert!(Args::parse(&["--nope".into()]).is_err());
        assert_eq!(
            Args::parse(&["a".into(), "b".into()]).unwrap().dirs.len(),
            2
        );
        assert!(Args::parse(&["--filter".into()]).is_err());
    }

    #[test]
    fn cargo_errors_name_members() {
        let stderr = "error: failed to load manifest for workspace member `/ws/a-server`\n\
                      referenced via `members`\n\ncaused by:\n  bad version\n";
        assert!(mentions_member(stderr, Path::new("/ws"), "a-server"));
        assert!(!mentions_member(stderr, Path::new("/ws"), "a-client"));
        assert!(!mentions_member(stderr, Path::new("/ws"), "a-serve"));
        assert_eq!(
            first_cargo_error(stderr),
            "error: failed to load manifest for workspace member `/ws/a-server` referenced via `members` caused by: bad version"
        );
    }
}
