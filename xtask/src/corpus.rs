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

mod cargo;
mod json;
mod table;
#[cfg(test)]
mod tests;

pub(crate) use cargo::*;
pub(crate) use json::Json;
pub(crate) use table::kind_of;
use table::*;

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
    // `--shared-target` (CI): the repository's target directory and dev profile, so that the
    // dependencies its clippy step checked are not checked again.
    let (target_dir, profile) = if args.shared_target {
        (
            root.join("target"),
            crate::corpus::repository_profile(&root)?,
        )
    } else {
        (out_dir.join("target"), String::new())
    };

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
        let row = generate_row(doc, &slug, &ws, &known_invalid)?;
        if row.crates.is_some() {
            for side in SIDES {
                members.push(format!("{slug}-{side}"));
            }
        }
        rows.push(row);
    }
    panic::set_hook(previous_hook);
    if args.generate_only {
        return write_outcomes(&ws, &rows);
    }

    // 2. One workspace, one build.
    let mut builds: HashMap<String, CrateBuild> = HashMap::new();
    let mut build_note = None;
    let mut build_secs = 0.0;
    let mut doc_secs = 0.0;
    if !members.is_empty() {
        let (names, excluded) = load_workspace(&ws, &root, &mut members, &profile)?;
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
    attach_builds(&mut rows, &mut builds);

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

/// Each generated document's row takes the builds of its crates, and a note of each first
/// error or manifest error.
fn attach_builds(rows: &mut [Row], builds: &mut HashMap<String, CrateBuild>) {
    for row in rows {
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
}

/// Generates one document and writes its crates into the workspace: the row of the table,
/// with `crates` set when it generated.
fn generate_row(
    doc: &Document,
    slug: &str,
    ws: &Path,
    known_invalid: &BTreeSet<String>,
) -> Result<Row, String> {
    let label = &doc.label;
    let mut row = Row::new(label.clone());
    if known_invalid.contains(label) {
        row.notes.push("known-invalid (INDEX.md)".into());
    }
    if doc.split {
        row.notes.push("split over several files".into());
    }
    let options = apigen::Options {
        api_name: None,
        name: slug.to_string(),
        spec_label: label.clone(),
        command: COMMAND.into(),
        string_formats: false,
        select: Default::default(),
        runtime: crate::codegen::runtime_beside(&ws.join(format!("{slug}-server"))),
        without_tag_features: false,
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
            write_crates(ws, slug, &output.files)?;
            row.crates = Some(slug.to_string());
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
    Ok(row)
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
    /// Write the crates and each document's outcome, build nothing (`--generate-only`).
    generate_only: bool,
    /// Build in the repository's target directory (`--shared-target`).
    shared_target: bool,
}

/// `--generate-only`: each document's outcome (generated, or its first error, warnings by
/// kind) beside its crates in `ws/outcomes.txt`, so that two generators' output, refusals
/// included, compare with one `diff -r`.
fn write_outcomes(ws: &Path, rows: &[Row]) -> Result<(), String> {
    let mut text = String::new();
    for row in rows {
        let outcome = match &row.generated {
            Generated::Yes => "generated".to_string(),
            Generated::Error(first, n) => format!("refused ({n} errors): {first}"),
            Generated::Panic(at) => format!("panicked: {at}"),
        };
        let _ = writeln!(text, "{}: {outcome}", row.doc);
        for (kind, (n, first)) in &row.gen_warning_kinds {
            let _ = writeln!(text, "    warning {kind} x{n}, first at {first}");
        }
    }
    let path = ws.join("outcomes.txt");
    fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    eprintln!(
        "corpus: {} documents generated into {}",
        rows.len(),
        ws.display()
    );
    Ok(())
}

impl Args {
    fn parse(args: &[String]) -> Result<Args, String> {
        let mut parsed = Args {
            dirs: Vec::new(),
            filters: Vec::new(),
            keep: None,
            doc: true,
            generate_only: false,
            shared_target: false,
        };
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            match arg.as_str() {
                "--filter" => parsed
                    .filters
                    .push(it.next().ok_or("--filter needs a substring")?.clone()),
                "--no-doc" => parsed.doc = false,
                "--generate-only" => parsed.generate_only = true,
                "--shared-target" => parsed.shared_target = true,
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
