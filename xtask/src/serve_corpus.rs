//! `cargo xtask serve-corpus [DOC|DIR...] [--filter S] [--max-examples N] [--seed N]
//! [--seeds N] [--workers N] [--generate-only]`: every corpus document's generated server,
//! started with its mock and held to schemathesis, on one seed or several (a pass must not
//! depend on the seed).
//!
//! Per document (found as `cargo xtask corpus` finds them, `corpus::find_documents`): the
//! server crate is generated into one throwaway workspace (`target/serve-corpus/ws/`) and its
//! `<name>-server-mock` program built by one `cargo build` (shared target directory
//! `target/serve-corpus/target`); each program is started on a free loopback port with a key,
//! and schemathesis (the version `scripts/schemathesis.sh` installs into `.venv/`) runs
//! against it with every check (positive and negative data acceptance among them), a fixed
//! seed and a bounded number of examples. Every failing check of every case is tallied per
//! document; a failure is accepted only when `docs/reports/serving.md` lists it as the
//! document's own defect, with its reason. The table (documents, operations, cases, failures by
//! check, listed defects) is printed and written to `target/serve-corpus/report.md`; the run
//! fails on any failure not listed, on a server that does not build or start, and on a listed
//! defect that no longer shows (so the list cannot go stale).
//!
//! The pure parts (arguments in this file, `defects`, `events` with its `classes`, `report`)
//! have unit tests in `tests.rs`; the rest runs processes.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::corpus::{self, Json};
use crate::corpus_docs::Document;

mod classes;
mod defects;
mod events;
mod report;
#[cfg(test)]
mod tests;

use classes::TOOL_ERROR_NOTE;
use defects::{Defect, read_defects, stale_defects};
use events::read_run;
use report::render;

const COMMAND: &str = "cargo xtask serve-corpus";
/// Where the table of accepted document defects lives (and the whole-corpus table).
const DEFECTS_DOC: &str = "docs/reports/serving.md";
/// Checks not run, each with why (docs/reports/serving.md repeats it).
const EXCLUDED_CHECKS: &[(&str, &str)] = &[(
    "use_after_free",
    "the mock keeps no state: after a DELETE the resource is still answered",
)];
/// How long a mock may take to print its address.
const START_TIMEOUT: Duration = Duration::from_secs(30);
/// How long schemathesis may run on one document before it is stopped.
const RUN_TIMEOUT: Duration = Duration::from_secs(45 * 60);

pub fn main(args: &[String]) -> Result<(), String> {
    let started = Instant::now();
    let args = Args::parse(args)?;
    let root = crate::codegen::root();
    let root = root.canonicalize().unwrap_or(root);
    let found = corpus::find_documents(&root, &args.dirs, &args.filters)?;
    let defects = read_defects(&root.join(DEFECTS_DOC))?;
    let out = root.join("target/serve-corpus");
    let ws = out.join("ws");
    let target_dir = out.join("target");
    let st = schemathesis(&root)?;

    // 1. Generate every document's server crate.
    fs::create_dir_all(&ws).map_err(|e| format!("cannot create {}: {e}", ws.display()))?;
    let mut rows: Vec<Row> = Vec::new();
    let mut taken = BTreeSet::new();
    let previous_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(corpus::record_panic));
    for doc in &found.docs {
        let label = &doc.label;
        let slug = corpus::unique(corpus::slug(label), &mut taken);
        eprintln!("serve-corpus: generating {label}");
        let mut row = Row::new(&slug, doc);
        prepare(&mut row, &ws)?;
        rows.push(row);
    }
    std::panic::set_hook(previous_hook);
    if args.generate_only {
        eprintln!("serve-corpus: generated into {}", ws.display());
        return Ok(());
    }

    // 2. One build of every mock program.
    let members: Vec<String> = rows
        .iter()
        .filter(|r| r.model.is_some())
        .map(|r| format!("{}-server", r.slug))
        .collect();
    if !members.is_empty() {
        corpus::write_workspace(&ws, &root, &members)?;
        // No debug info: forty servers' programs would take tens of GB with it, and a failure
        // is read from schemathesis's report and the server's log, not a debugger.
        let manifest = ws.join("Cargo.toml");
        let mut text = fs::read_to_string(&manifest)
            .map_err(|e| format!("cannot read {}: {e}", manifest.display()))?;
        text.push_str("\n[profile.dev]\ndebug = 0\n");
        fs::write(&manifest, text)
            .map_err(|e| format!("cannot write {}: {e}", manifest.display()))?;
        build(&ws, &target_dir, &members)?;
    }

    // 3. Serve each and run schemathesis against it.
    for row in rows.iter_mut().filter(|r| r.model.is_some()) {
        let binary = target_dir.join("debug").join(format!(
            "{}-server-mock{}",
            row.slug,
            std::env::consts::EXE_SUFFIX
        ));
        if !binary.is_file() {
            row.outcome = Outcome::Broken("the mock program did not build".into());
            continue;
        }
        // One server per seed (a fresh one: the mock's rate limit counts every request), the
        // runs' findings added up.
        let mut outcome: Option<Outcome> = None;
        for seed in args.seeds() {
            eprintln!("serve-corpus: serving {} (seed {seed})", row.label);
            let mut reports = out.join("reports").join(&row.slug);
            if args.seeds > 1 {
                reports = reports.join(format!("seed-{seed}"));
            }
            let examples = args.examples_for(row.model.as_ref().map_or(0, |m| m.operations));
            let one = serve_and_test(row, &binary, &reports, &st, &args, seed, examples);
            outcome = Some(match outcome {
                None => one,
                Some(before) => before.and(one),
            });
        }
        row.outcome = outcome.unwrap_or_default();
    }

    // 4. Report.
    for row in &mut rows {
        row.judge(&defects);
    }
    let stale = stale_defects(&rows, &defects);
    let report = render(&rows, &stale, &args, started.elapsed());
    fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let report_path = out.join("report.md");
    fs::write(&report_path, &report)
        .map_err(|e| format!("cannot write {}: {e}", report_path.display()))?;
    println!("{report}");
    println!("report written to {}", report_path.display());
    let failing: Vec<String> = rows
        .iter()
        .filter(|r| r.verdict() == Verdict::Fails)
        .map(|r| r.label.clone())
        .chain(
            stale
                .iter()
                .map(|d| format!("{} (stale defect)", d.document)),
        )
        .collect();
    if failing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "serve-corpus: failures not listed in {DEFECTS_DOC}: {}",
            failing.join(", ")
        ))
    }
}

#[derive(Debug, Clone, PartialEq)]
struct Args {
    dirs: Vec<PathBuf>,
    /// Documents whose label holds any of these (all when none).
    filters: Vec<String>,
    max_examples: u32,
    /// The first seed; `--seeds N` runs `seed`, `seed + 1`, … `seed + N - 1`.
    seed: u64,
    seeds: u64,
    workers: u32,
    /// `--generate-only`: write the servers into the workspace and stop (to compare what two
    /// versions of the generator write for the whole corpus).
    generate_only: bool,
}

impl Args {
    fn parse(args: &[String]) -> Result<Args, String> {
        let mut parsed = Args {
            dirs: Vec::new(),
            filters: Vec::new(),
            max_examples: 10,
            seed: 42,
            seeds: 1,
            workers: 2,
            generate_only: false,
        };
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            let mut number = |what: &str| -> Result<u64, String> {
                let text = it.next().ok_or_else(|| format!("{arg} needs {what}"))?;
                text.parse()
                    .map_err(|_| format!("{arg}: `{text}` is not {what}"))
            };
            match arg.as_str() {
                "--filter" => parsed
                    .filters
                    .push(it.next().ok_or("--filter needs a substring")?.clone()),
                "--max-examples" => parsed.max_examples = number("a number")?.max(1) as u32,
                "--seed" => parsed.seed = number("a number")?,
                "--seeds" => parsed.seeds = number("a number")?.clamp(1, 100),
                "--workers" => parsed.workers = number("a number")?.clamp(1, 64) as u32,
                "--generate-only" => parsed.generate_only = true,
                other if other.starts_with('-') => {
                    return Err(format!("unknown option `{other}`"));
                }
                other => parsed.dirs.push(other.into()),
            }
        }
        Ok(parsed)
    }

    fn seeds(&self) -> impl Iterator<Item = u64> {
        (0..self.seeds).map(|i| self.seed.wrapping_add(i))
    }

    /// Examples per operation for a document of `operations`: the large documents (over
    /// `LARGE` operations: GitHub's 767, nexus's 193 is not) take half, at least 3, when
    /// several seeds run, so that three seeds of the whole corpus stay within an afternoon.
    fn examples_for(&self, operations: usize) -> u32 {
        const LARGE: usize = 300;
        if self.seeds > 1 && operations > LARGE {
            (self.max_examples / 2).max(3)
        } else {
            self.max_examples
        }
    }
}

impl Outcome {
    /// Two runs' findings on one document, added up (a run that broke is the outcome).
    fn and(self, other: Outcome) -> Outcome {
        match (self, other) {
            (Outcome::Ran(mut a), Outcome::Ran(b)) => {
                a.cases += b.cases;
                for (check, n) in b.by_check {
                    *a.by_check.entry(check).or_default() += n;
                }
                for (key, (n, first)) in b.failures {
                    a.failures
                        .entry(key)
                        .and_modify(|(m, _)| *m += n)
                        .or_insert((n, first));
                }
                a.errors.extend(b.errors);
                for (kind, n) in b.warnings {
                    let seen = a.warnings.entry(kind).or_default();
                    *seen = (*seen).max(n);
                }
                a.exit = a.exit.filter(|&code| code != 0).or(b.exit);
                Outcome::Ran(a)
            }
            (broken @ (Outcome::Broken(_) | Outcome::NotGenerated), _) => broken,
            (_, other) => other,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Documents, crates, the build

/// What the document's model says the harness needs.
#[derive(Debug, Clone, Default)]
struct Model {
    operations: usize,
    /// (scheme name, kind) for schemathesis's credentials.
    schemes: Vec<(String, apigen::ir::SchemeKind)>,
    /// The most generous plan of `x-rate-limit`, when the document has one.
    plan: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq)]
enum Outcome {
    /// Not generated (the generator refused the document): nothing to serve.
    #[default]
    NotGenerated,
    /// Generated but not built or not started.
    Broken(String),
    Ran(Run),
}

/// What schemathesis found on one document.
#[derive(Debug, Clone, Default, PartialEq)]
struct Run {
    cases: usize,
    /// check → failing cases
    by_check: BTreeMap<String, usize>,
    /// (check, operation) → (failing cases, the first failure's title and message)
    failures: BTreeMap<(String, String), (usize, String)>,
    /// schemathesis errors (operations it could not test): (operation or "", message)
    errors: Vec<(String, String)>,
    /// warning kind → operations
    warnings: BTreeMap<String, usize>,
    exit: Option<i32>,
}

#[derive(Debug, Clone)]
struct Row {
    label: String,
    slug: String,
    doc: Document,
    model: Option<Model>,
    /// Why the document did not generate (first line).
    refused: Option<String>,
    outcome: Outcome,
    /// (check, operation) failures a listed defect accepts, and those none does.
    accepted: Vec<(String, String)>,
    unlisted: Vec<(String, String)>,
}

impl Row {
    fn new(slug: &str, doc: &Document) -> Row {
        Row {
            label: doc.label.clone(),
            slug: slug.to_string(),
            doc: doc.clone(),
            model: None,
            refused: None,
            outcome: Outcome::NotGenerated,
            accepted: Vec::new(),
            unlisted: Vec::new(),
        }
    }

    fn judge(&mut self, defects: &[Defect]) {
        let Outcome::Ran(run) = &self.outcome else {
            return;
        };
        let mut found: Vec<(String, String)> = run.failures.keys().cloned().collect();
        found.extend(run.errors.iter().map(|(op, message)| {
            let check = if message.ends_with(TOOL_ERROR_NOTE) {
                "tool_error"
            } else {
                "error"
            };
            (check.to_string(), op.clone())
        }));
        for (check, operation) in found {
            let listed = defects
                .iter()
                .any(|d| d.covers(&self.label, &check, &operation));
            if listed {
                self.accepted.push((check, operation));
            } else {
                self.unlisted.push((check, operation));
            }
        }
    }

    fn verdict(&self) -> Verdict {
        match &self.outcome {
            Outcome::NotGenerated => Verdict::NotServed,
            Outcome::Broken(_) => Verdict::Fails,
            Outcome::Ran(_) if self.unlisted.is_empty() => Verdict::Passes,
            Outcome::Ran(_) => Verdict::Fails,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Passes,
    Fails,
    /// The generator refused the document (a located error): no server to hold to anything.
    NotServed,
}

/// Generates the document's server crate into `ws/<slug>-server` and reads its model.
fn prepare(row: &mut Row, ws: &Path) -> Result<(), String> {
    let crate_dir = ws.join(format!("{}-server", row.slug));
    let options = apigen::Options {
        name: row.slug.clone(),
        spec_label: row.label.clone(),
        command: COMMAND.into(),
        runtime: crate::codegen::runtime_beside(&crate_dir),
        ..Default::default()
    };
    let (generated, _) = corpus::generate_guarded(row.doc.clone(), options.clone(), None);
    let output = match generated {
        Ok(Ok(output)) => output,
        Ok(Err(diagnostics)) => {
            row.refused = Some(
                diagnostics
                    .to_string()
                    .lines()
                    .next()
                    .unwrap_or("")
                    .to_string(),
            );
            return Ok(());
        }
        Err(panic) => {
            row.outcome = Outcome::Broken(format!("the generator panicked: {panic}"));
            return Ok(());
        }
    };
    let files: BTreeMap<String, String> = output
        .files
        .into_iter()
        .filter(|(path, _)| path.starts_with("server/"))
        .collect();
    corpus::write_crates(ws, &row.slug, &files)?;
    let doc = row.doc.clone();
    let (model, _) = corpus::guarded(move || {
        apigen::model_from(&doc.root, &apigen::FileSystem::new(&doc.base), &options)
    });
    let Ok(Ok((api, _))) = model else {
        row.outcome = Outcome::Broken("the model could not be read again".into());
        return Ok(());
    };
    row.model = Some(Model {
        operations: api.operations.len(),
        schemes: api
            .security_schemes
            .iter()
            .map(|s| (s.name.clone(), s.kind.clone()))
            .collect(),
        plan: api.rate_limit.as_ref().and_then(|rl| {
            rl.plans
                .iter()
                .max_by_key(|(_, (minute, day))| (*minute, *day))
                .map(|(name, _)| name.clone())
        }),
    });
    Ok(())
}

/// `cargo build` of every member's mock program, continuing past a crate that fails.
fn build(ws: &Path, target_dir: &Path, members: &[String]) -> Result<(), String> {
    let features: Vec<String> = members.iter().map(|m| format!("{m}/mock")).collect();
    eprintln!(
        "serve-corpus: building {} mock programs in {} (target {})",
        members.len(),
        ws.display(),
        target_dir.display()
    );
    let status = corpus::cargo()
        .args([
            "build",
            "--workspace",
            "--bins",
            "--keep-going",
            "--features",
        ])
        .arg(features.join(","))
        .arg("--manifest-path")
        .arg(ws.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(target_dir)
        .status()
        .map_err(|e| format!("cannot run cargo build: {e}"))?;
    if !status.success() {
        eprintln!(
            "serve-corpus: cargo build failed ({status}); documents without a program are reported"
        );
    }
    Ok(())
}

/// The document schemathesis tests the server against: the root file, or for a Swagger 2.0
/// document the OpenAPI 3.0 one apigen reads it as (written beside the reports). schemathesis
/// reads a 2.0 operation's `produces` as the media types of every response, so it wants a
/// `Content-Type` on a `204` with no body; and the server was generated from the 3.0 reading,
/// which the generator's Swagger 2.0 tests hold to the 2.0 text. A document with references
/// where the specification allows none is tested bundled (below). Each document is read once
/// more here (a large one takes a second or two; its server took minutes to build).
fn tested_document(doc: &Document, reports: &Path) -> Result<PathBuf, String> {
    let path = doc.base.join(&doc.root);
    let files = apigen::FileSystem::new(&doc.base);
    let Ok(loaded) = apigen::load::read(&doc.root, &files) else {
        return Ok(path);
    };
    let (text, name) = if loaded.written.value.get("swagger").is_some() {
        let converted = serde_json::to_string_pretty(&loaded.doc)
            .map_err(|e| format!("the 3.0 reading of the document is not JSON: {e}"))?;
        (converted, "document-3.0.json")
    } else if loaded
        .warnings
        .iter()
        .any(|w| w.message.contains("no reference is allowed there"))
    {
        // References where the specification allows none (a map of properties kept in
        // another file; `load/refs.rs` warns of each so): schemathesis does not follow them,
        // so it is given the document bundled as apigen read it, as Redocly's bundler writes.
        let bundled = serde_json::to_string_pretty(&loaded.written.value)
            .map_err(|e| format!("the bundled document is not JSON: {e}"))?;
        (bundled, "document-bundled.json")
    } else {
        return Ok(path);
    };
    let out = reports.join(name);
    fs::write(&out, text).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    Ok(out)
}

/// The served document's text (see [`tested_document`]) as JSON: a JSON file as it is, a YAML
/// one as apigen reads it (bundled when split).
fn served_json(text: &str, doc: &Document) -> Option<serde_json::Value> {
    serde_json::from_str(text).ok().or_else(|| {
        let files = apigen::FileSystem::new(&doc.base);
        apigen::load::read(&doc.root, &files)
            .ok()
            .map(|loaded| loaded.written.value)
    })
}

/// `.venv/bin/st`, installed by `scripts/schemathesis.sh` when missing.
fn schemathesis(root: &Path) -> Result<PathBuf, String> {
    let out = Command::new("bash")
        .arg(root.join("scripts/schemathesis.sh"))
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run scripts/schemathesis.sh: {e}"))?;
    if !out.status.success() {
        return Err(format!("scripts/schemathesis.sh failed ({})", out.status));
    }
    Ok(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
}

// ---------------------------------------------------------------------------------------------
// Serving and testing one document

/// A child process killed when dropped.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn serve_and_test(
    row: &Row,
    binary: &Path,
    reports: &Path,
    st: &Path,
    args: &Args,
    seed: u64,
    max_examples: u32,
) -> Outcome {
    let model = row.model.clone().unwrap_or_default();
    if let Err(e) = fs::create_dir_all(reports) {
        return Outcome::Broken(format!("cannot create {}: {e}", reports.display()));
    }
    let key = format!("serve-corpus-{}", std::process::id());
    let mut command = Command::new(binary);
    // Replay is off in the mock by default (its 422 for one key with another body is not the
    // document's): the key is checked as the document declares it.
    command.args(["--port", "0", "--key", &key]);
    if let Some(plan) = &model.plan {
        command.args(["--plan", plan]);
    }
    let log = match fs::File::create(reports.join("server.log")) {
        Ok(log) => log,
        Err(e) => return Outcome::Broken(format!("cannot create the server log: {e}")),
    };
    let child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::from(log))
        .spawn();
    let mut server = match child {
        Ok(child) => Running(child),
        Err(e) => return Outcome::Broken(format!("cannot start {}: {e}", binary.display())),
    };
    let Some(stdout) = server.0.stdout.take() else {
        return Outcome::Broken("no stdout".into());
    };
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let url = match rx.recv_timeout(START_TIMEOUT) {
        Ok(line) => match line.rsplit_once("listening on ") {
            Some((_, url)) => url.trim().to_string(),
            None => return Outcome::Broken(format!("the mock said `{line}`")),
        },
        Err(_) => {
            let log = fs::read_to_string(reports.join("server.log")).unwrap_or_default();
            return Outcome::Broken(format!(
                "the mock did not start: {}",
                log.lines().last().unwrap_or("(no output)")
            ));
        }
    };
    let config = reports.join("schemathesis.toml");
    if let Err(e) = fs::write(&config, schemathesis_config(&model, &key)) {
        return Outcome::Broken(format!("cannot write {}: {e}", config.display()));
    }
    let document = match tested_document(&row.doc, reports) {
        Ok(path) => path,
        Err(e) => return Outcome::Broken(e),
    };
    let json = reports.join("report.json");
    let ndjson = reports.join("events.ndjson");
    let _ = fs::remove_file(&json);
    let _ = fs::remove_file(&ndjson);
    let excluded: Vec<&str> = EXCLUDED_CHECKS.iter().map(|(c, _)| *c).collect();
    let mut st_command = Command::new(st);
    st_command
        .current_dir(reports)
        .arg("--config-file")
        .arg(&config)
        .arg("--no-color")
        .arg("run")
        .arg(&document)
        .args(["--url", &url, "--checks", "all", "--exclude-checks"])
        .arg(excluded.join(","))
        .args(["--max-examples", &max_examples.to_string()])
        .args(["--seed", &seed.to_string()])
        .args(["--workers", &args.workers.to_string()])
        .args(["--request-timeout", "10", "--generation-database", "none"])
        .args(["--report", "json,ndjson", "--report-json-path"])
        .arg(&json)
        .arg("--report-ndjson-path")
        .arg(&ndjson)
        .env("NO_PROXY", "127.0.0.1,localhost")
        .env("no_proxy", "127.0.0.1,localhost");
    let st_log = match fs::File::create(reports.join("schemathesis.log")) {
        Ok(f) => f,
        Err(e) => return Outcome::Broken(format!("cannot create the schemathesis log: {e}")),
    };
    let started = Instant::now();
    let child = st_command
        .stdout(Stdio::from(st_log))
        .stderr(Stdio::inherit())
        .spawn();
    let mut tester = match child {
        Ok(child) => Running(child),
        Err(e) => return Outcome::Broken(format!("cannot run schemathesis: {e}")),
    };
    let exit = loop {
        match tester.0.try_wait() {
            Ok(Some(status)) => break status.code(),
            Ok(None) if started.elapsed() > RUN_TIMEOUT => {
                return Outcome::Broken(format!(
                    "schemathesis did not finish within {} minutes",
                    RUN_TIMEOUT.as_secs() / 60
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(200)),
            Err(e) => return Outcome::Broken(format!("schemathesis: {e}")),
        }
    };
    drop(server);
    let summary = fs::read_to_string(&json).unwrap_or_default();
    let events = fs::read_to_string(&ndjson).unwrap_or_default();
    if summary.is_empty() {
        return Outcome::Broken(format!(
            "schemathesis wrote no report (exit {exit:?}); see {}",
            reports.join("schemathesis.log").display()
        ));
    }
    // The document as served, for the classes that check a case's values against it.
    let served = fs::read_to_string(&document)
        .ok()
        .and_then(|text| served_json(&text, &row.doc));
    match read_run(&summary, &events, served.as_ref()) {
        Ok(mut run) => {
            run.exit = exit;
            // The report says only "Runtime Error"; the log says whose. Hypothesis (under
            // schemathesis) sometimes fails in its own source reader when workers run side by
            // side (`hypothesis/internal/lambda_sources.py`: "AST constructor recursion depth
            // mismatch", a `KeyError` of source lines): no request of that case reached the
            // server.
            let log = fs::read_to_string(reports.join("schemathesis.log")).unwrap_or_default();
            let tool_errors = log.matches("hypothesis/internal/lambda_sources.py").count();
            let mut relabelled = 0;
            for (_, message) in &mut run.errors {
                if relabelled < tool_errors && message == "Runtime Error" {
                    message.push_str(TOOL_ERROR_NOTE);
                    relabelled += 1;
                }
            }
            Outcome::Ran(run)
        }
        Err(e) => Outcome::Broken(format!("cannot read schemathesis's report: {e}")),
    }
}

/// The schemathesis configuration of one run: the key for every security scheme the document
/// declares (schemathesis applies each where the document puts it).
fn schemathesis_config(model: &Model, key: &str) -> String {
    use apigen::ir::SchemeKind;
    let mut s = String::from(
        "# Written by `cargo xtask serve-corpus` for one document; the key is the mock's.\n",
    );
    for (name, kind) in &model.schemes {
        let name = toml_string(name);
        let key = toml_string(key);
        let _ = match kind {
            SchemeKind::Bearer => writeln!(s, "\n[auth.openapi.{name}]\nbearer = {key}"),
            SchemeKind::Basic => {
                writeln!(
                    s,
                    "\n[auth.openapi.{name}]\nusername = \"mock\"\npassword = {key}"
                )
            }
            SchemeKind::ApiKeyHeader(_)
            | SchemeKind::ApiKeyQuery(_)
            | SchemeKind::ApiKeyCookie(_) => {
                writeln!(s, "\n[auth.openapi.{name}]\napi_key = {key}")
            }
        };
    }
    s
}

/// A TOML basic string.
fn toml_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
