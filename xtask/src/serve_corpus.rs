//! `cargo xtask serve-corpus [DOC|DIR...] [--filter S] [--max-examples N] [--seed N]
//! [--workers N]`: every corpus document's generated server, started with its mock and held
//! to schemathesis (issue 34).
//!
//! Per document (found as `cargo xtask corpus` finds them, `corpus::find_documents`): the
//! server crate is generated into one throwaway workspace (`target/serve-corpus/ws/`) and its
//! `<name>-server-mock` program built by one `cargo build` (shared target directory
//! `target/serve-corpus/target`); each program is started on a free loopback port with a key,
//! and schemathesis (the version `scripts/schemathesis.sh` installs into `.venv/`) runs
//! against it with every check (positive and negative data acceptance among them), a fixed
//! seed and a bounded number of examples. Every failing check of every case is tallied per
//! document; a failure is accepted only when `docs/serving.md` lists it as the document's own
//! defect, with its reason. The table (documents, operations, cases, failures by check, listed
//! defects) is printed and written to `target/serve-corpus/report.md`; the run fails on any
//! failure not listed, on a server that does not build or start, and on a listed defect that
//! no longer shows (so the list cannot go stale).
//!
//! The pure parts (arguments, the defect table, schemathesis's events, the report) have unit
//! tests at the bottom; the rest runs processes.

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

const COMMAND: &str = "cargo xtask serve-corpus";
/// Where the table of accepted document defects lives (and the whole-corpus table).
const DEFECTS_DOC: &str = "docs/serving.md";
/// Checks not run, each with why (docs/serving.md repeats it).
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
        eprintln!("serve-corpus: serving {}", row.label);
        let reports = out.join("reports").join(&row.slug);
        row.outcome = serve_and_test(row, &binary, &reports, &st, &args);
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
    seed: u64,
    workers: u32,
}

impl Args {
    fn parse(args: &[String]) -> Result<Args, String> {
        let mut parsed = Args {
            dirs: Vec::new(),
            filters: Vec::new(),
            max_examples: 10,
            seed: 42,
            workers: 2,
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
                "--workers" => parsed.workers = number("a number")?.clamp(1, 64) as u32,
                other if other.starts_with('-') => {
                    return Err(format!("unknown option `{other}`"));
                }
                other => parsed.dirs.push(other.into()),
            }
        }
        Ok(parsed)
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
/// which issue 28's tests hold to the 2.0 text.
fn tested_document(doc: &Document, reports: &Path) -> Result<PathBuf, String> {
    let path = doc.base.join(&doc.root);
    // Only a 2.0 document is read again (a large 3.x one would be parsed for nothing).
    let mut head = Vec::new();
    if let Ok(file) = fs::File::open(&path) {
        let _ = std::io::Read::read_to_end(&mut std::io::Read::take(file, 4096), &mut head);
    }
    if !String::from_utf8_lossy(&head).contains("swagger") {
        return Ok(path);
    }
    let files = apigen::FileSystem::new(&doc.base);
    let Ok(loaded) = apigen::load::read(&doc.root, &files) else {
        return Ok(path);
    };
    if loaded.written.value.get("swagger").is_none() {
        return Ok(path);
    }
    let converted = serde_json::to_string_pretty(&loaded.doc)
        .map_err(|e| format!("the 3.0 reading of the document is not JSON: {e}"))?;
    let out = reports.join("document-3.0.json");
    fs::write(&out, converted).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    Ok(out)
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

fn serve_and_test(row: &Row, binary: &Path, reports: &Path, st: &Path, args: &Args) -> Outcome {
    let model = row.model.clone().unwrap_or_default();
    if let Err(e) = fs::create_dir_all(reports) {
        return Outcome::Broken(format!("cannot create {}: {e}", reports.display()));
    }
    let key = format!("serve-corpus-{}", std::process::id());
    let mut command = Command::new(binary);
    command.args(["--port", "0", "--key", &key, "--no-idempotency"]);
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
        .args(["--max-examples", &args.max_examples.to_string()])
        .args(["--seed", &args.seed.to_string()])
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
    match read_run(&summary, &events) {
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

/// Reads schemathesis's JSON run report (cases, errors, warnings) and its events (every
/// check of every case, with the operation and the first failure's message).
fn read_run(summary: &str, events: &str) -> Result<Run, String> {
    let json = Json::parse(summary)?;
    let mut run = Run {
        cases: json
            .get("test_cases")
            .and_then(|t| t.get("generated"))
            .and_then(Json::as_number)
            .unwrap_or(0.0) as usize,
        ..Run::default()
    };
    for error in json.get("errors").map(Json::items).unwrap_or_default() {
        let operation = error
            .get("label")
            .or_else(|| error.get("operation"))
            .and_then(Json::as_str)
            .unwrap_or("")
            .to_string();
        let message = ["title", "message"]
            .iter()
            .filter_map(|k| error.get(k).and_then(Json::as_str))
            .collect::<Vec<_>>()
            .join(": ");
        run.errors.push((operation, message));
    }
    if let Some(Json::Object(warnings)) = json.get("warnings") {
        for (kind, list) in warnings {
            let n = list.items().len();
            if n > 0 {
                run.warnings.insert(kind.clone(), n);
            }
        }
    }
    // Each failing (check, case) once: a case can be reported by more than one event.
    let mut seen: BTreeSet<(String, String)> = BTreeSet::new();
    for line in events
        .lines()
        .filter(|l| l.contains("\"ScenarioFinished\""))
    {
        let Ok(event) = Json::parse(line) else {
            continue;
        };
        let Some(recorder) = event
            .get("ScenarioFinished")
            .and_then(|e| e.get("recorder"))
        else {
            continue;
        };
        let scenario = recorder.get("label").and_then(Json::as_str).unwrap_or("");
        let Some(Json::Object(checks)) = recorder.get("checks") else {
            continue;
        };
        for (case, results) in checks {
            let value = recorder
                .get("cases")
                .and_then(|c| c.get(case))
                .and_then(|c| c.get("value"));
            let negative = value
                .and_then(|v| v.get("meta")?.get("generation")?.get("mode")?.as_str())
                == Some("negative");
            // A stateful scenario's cases are of several operations: each says its own.
            let operation = value
                .and_then(|v| {
                    Some(format!(
                        "{} {}",
                        v.get("method")?.as_str()?,
                        v.get("path")?.as_str()?
                    ))
                })
                .unwrap_or_else(|| scenario.to_string());
            for result in results.items() {
                if result.get("status").and_then(Json::as_str) != Some("failure") {
                    continue;
                }
                let failure = result.get("failure_info").and_then(|f| f.get("failure"));
                let text = |key: &str| {
                    failure
                        .and_then(|f| f.get(key))
                        .and_then(Json::as_str)
                        .unwrap_or("")
                };
                let mut check = result
                    .get("name")
                    .and_then(Json::as_str)
                    .unwrap_or("?")
                    .to_string();
                if check == "status_code_conformance"
                    && (negative && undocumented_refusal(text("message"))
                        || undocumented_challenge(text("message")))
                {
                    check = UNDOCUMENTED_REFUSAL.to_string();
                }
                if matches!(
                    check.as_str(),
                    "positive_data_acceptance" | "status_code_conformance"
                ) && !negative
                    && value.is_some_and(beyond_64_bits)
                {
                    check = BEYOND_64_BITS.to_string();
                }
                // A discriminator without `mapping` whose variants pin the tag (openai's
                // `type: message`): OpenAPI's implicit mapping makes the schema names the
                // values, which schemathesis expects; the API sends the pinned values, and so
                // does the mock (issue 33's decision: both are read, the pinned one written).
                if check == "response_schema_conformance"
                    && text("title") == "Unknown discriminator value"
                {
                    check = PINNED_DISCRIMINATOR.to_string();
                }
                // A body sent as XML, which the generated server does not read (415, with the
                // generator's warning at the media type: a decision the README states).
                let xml = value
                    .and_then(|v| v.get("media_type")?.as_str())
                    .is_some_and(|m| m.ends_with("/xml") || m.ends_with("+xml"));
                if xml
                    && (check == "positive_data_acceptance"
                        || check == "status_code_conformance"
                            && text("message").contains("Received: 415"))
                {
                    check = XML_BODY.to_string();
                }
                // An empty array in a form body: `Items=[]` encodes to no pair at all, the
                // same bytes as a body without the required `Items` (twilio's bulk
                // operations), which the server refuses naming the field.
                // So in a multipart body, where an empty array is no part at all (openai's
                // image edits: `image: []`).
                let form = value
                    .and_then(|v| v.get("media_type")?.as_str())
                    .is_some_and(|m| {
                        m.starts_with("application/x-www-form-urlencoded")
                            || m.starts_with("multipart/form-data")
                    });
                let empty_array = value.and_then(|v| v.get("body")).is_some_and(|b| match b {
                    Json::Object(members) => members
                        .iter()
                        .any(|(_, v)| matches!(v, Json::Array(items) if items.is_empty())),
                    _ => false,
                });
                if form
                    && empty_array
                    && !negative
                    && matches!(
                        check.as_str(),
                        "positive_data_acceptance" | "status_code_conformance"
                    )
                {
                    check = EMPTY_FORM_ARRAY.to_string();
                }
                // A `null` written as the text `null` where a url-encoded form or a query has
                // no null (discord's `sku_ids=null`, `components=null`): see [`null_as_text`].
                let refused_400 = recorder.get("interactions").and_then(|i| {
                    i.get(case)?
                        .get("response")?
                        .get("status_code")?
                        .as_number()
                }) == Some(400.0);
                if !negative
                    && refused_400
                    && matches!(
                        check.as_str(),
                        "positive_data_acceptance" | "status_code_conformance"
                    )
                    && value.is_some_and(null_as_text)
                {
                    check = NULL_AS_TEXT.to_string();
                }
                // An "incorrect type" a form writes with the bytes of a valid value (discord's
                // multipart `sticker_ids: 0`, one part `0`, as the array `["0"]` is): see
                // [`form_same_bytes`].
                if negative
                    && check == "negative_data_rejection"
                    && value.is_some_and(|case| form_same_bytes(case, text("message")))
                {
                    check = FORM_SAME_BYTES.to_string();
                }
                // A request target the HTTP layer does not read: hyper answers a bare 414
                // (no body, no media type) to one over 64 KiB before any service sees it,
                // as servers bound request targets (RFC 9112 §3: at least 8,000 octets);
                // discord lets its path parameter `code` be 152,133 characters long. A head
                // larger still (that target beside long headers) gets hyper's bare 431.
                let status = recorder.get("interactions").and_then(|i| {
                    i.get(case)?
                        .get("response")?
                        .get("status_code")?
                        .as_number()
                });
                if status == Some(414.0) || status == Some(431.0) {
                    check = URI_TOO_LONG.to_string();
                }
                // An operation that switches protocols (nexus's serial console, a WebSocket):
                // schemathesis speaks plain HTTP and never asks for the switch, so every case
                // gets the 426 that says what to send.
                if status == Some(426.0) {
                    check = UPGRADE_REQUIRED.to_string();
                }
                // A valid request the server refused because an integer is beyond its
                // `format` (nexus's `uint32` `limit=9539416630`; schemathesis ignores the
                // `uint*` formats): the server's 400 says so, as the README's type table decides.
                let answer = recorder
                    .get("interactions")
                    .and_then(|i| i.get(case)?.get("response"));
                // Likewise a string that is not base64 where the document says
                // `contentEncoding: base64`, and an empty date-time: see [`refusal_by_decision`].
                let refused = answer
                    .filter(|a| a.get("status_code").and_then(Json::as_number) == Some(400.0))
                    .and_then(|a| a.get("content")?.get("$base64")?.as_str())
                    .and_then(base64_text);
                if !negative
                    && matches!(
                        check.as_str(),
                        "positive_data_acceptance" | "status_code_conformance"
                    )
                    && let Some(class) = refused.as_deref().and_then(refusal_by_decision)
                {
                    check = class.to_string();
                }
                if !seen.insert((check.clone(), case.clone())) {
                    continue;
                }
                *run.by_check.entry(check.clone()).or_default() += 1;
                let message = match failure {
                    Some(_) => format!("{}: {}", text("title"), text("message")),
                    None => String::new(),
                };
                let entry = run
                    .failures
                    .entry((check, operation.clone()))
                    .or_insert((0, message));
                entry.0 += 1;
            }
        }
    }
    Ok(run)
}

/// Appended to a schemathesis error that its log shows to be Hypothesis failing in its own
/// source reader (see `serve`), which the harness calls a `tool_error`.
const TOOL_ERROR_NOTE: &str = " (Hypothesis's own: lambda_sources.py)";

/// The name the harness gives a valid form body's refusal when the case holds an empty array,
/// which a form cannot write (no pair at all).
const EMPTY_FORM_ARRAY: &str = "empty_form_array";

/// The name the harness gives a valid request's refusal where a url-encoded form or a query
/// carried a `null` as the text `null` (see [`null_as_text`]).
const NULL_AS_TEXT: &str = "null_as_text";

/// Whether a case writes a `null` where its encoding has none: a member of a url-encoded form
/// body that is `null` (or a list holding `null`), which schemathesis writes as the text
/// `null`, or a query value recorded as that text (`sku_ids=0&sku_ids=null`, an item of
/// `oneOf: [null, SnowflakeType]`). RFC 6570 leaves an undefined value out; the generated
/// server reads the text as text (README "Type mapping": only a multipart part's `null` is
/// JSON's null) and refuses it where the member is no string.
fn null_as_text(case: &Json) -> bool {
    let form = case
        .get("media_type")
        .and_then(Json::as_str)
        .is_some_and(|m| m.starts_with("application/x-www-form-urlencoded"));
    let null = |v: &Json| match v {
        Json::Null => true,
        Json::Array(items) => items.iter().any(|i| matches!(i, Json::Null)),
        _ => false,
    };
    let text_null = |v: &Json| match v {
        Json::String(t) => t == "null",
        Json::Array(items) => items.iter().any(|i| i.as_str() == Some("null")),
        _ => false,
    };
    let members = |key: &str| match case.get(key) {
        Some(Json::Object(members)) => members.iter().map(|(_, v)| v).collect(),
        _ => Vec::new(),
    };
    form && members("body").into_iter().any(null) || members("query").into_iter().any(text_null)
}

/// The name the harness gives an invalid form body accepted because its form is byte for byte
/// that of a valid one (see [`form_same_bytes`]).
const FORM_SAME_BYTES: &str = "form_same_bytes";

/// Whether schemathesis' "Invalid component: in body - NAME: Incorrect type" case sent, in a
/// url-encoded or multipart form, a scalar for NAME (discord's `sticker_ids: 0`, an array of
/// snowflakes): a form writes every value as text and an array as one pair per item, so the
/// scalar `0` is the same bytes as the array `["0"]`, or as the string `"0"`. Where the
/// declared type has a value of that spelling, no server can tell the invalid case from a
/// valid one; where it has none (an integer sent as `"x"`), the server refuses it and no
/// failure shows.
fn form_same_bytes(case: &Json, message: &str) -> bool {
    let form = case
        .get("media_type")
        .and_then(Json::as_str)
        .is_some_and(|m| {
            m.starts_with("application/x-www-form-urlencoded")
                || m.starts_with("multipart/form-data")
        });
    let Some(name) = message
        .split("Invalid component: in body - ")
        .nth(1)
        .and_then(|rest| {
            rest.strip_suffix(": Incorrect type")
                .or_else(|| rest.split_once(": Incorrect type").map(|(name, _)| name))
        })
    else {
        return false;
    };
    let scalar = case
        .get("body")
        .and_then(|b| b.get(name))
        .is_some_and(|v| matches!(v, Json::Bool(_) | Json::Number(_) | Json::String(_)));
    form && scalar
}

/// The name the harness gives any failure on a 414 answer: a request target longer than the
/// HTTP layer reads.
const URI_TOO_LONG: &str = "uri_too_long";

/// The name the harness gives any failure on a 426 answer: a request to an operation that
/// switches protocols which does not ask for the switch.
const UPGRADE_REQUIRED: &str = "upgrade_required";

/// The name the harness gives the 415 refusing a body sent as XML.
const XML_BODY: &str = "xml_body_not_read";

/// The name the harness gives a valid request's refusal whose data holds an integer no 64-bit
/// integer can hold (see [`beyond_64_bits`]).
const BEYOND_64_BITS: &str = "integer_beyond_64_bits";

/// Whether a case's parameters or body hold an integer beyond `i64` (fitbit's
/// `page[limit]=12628635628150235136` for an `integer` without `format`): JSON Schema sets no
/// bound, the generated server reads `i64` and refuses it with a 400 naming the place, as the
/// README's type mapping decides; schemathesis calls that valid data refused.
fn beyond_64_bits(case: &Json) -> bool {
    fn big(value: &Json) -> bool {
        match value {
            // (Read as f64: 2^63 and beyond are whole there, and nothing below it rounds up.)
            Json::Number(n) => n.fract() == 0.0 && n.abs() >= 9_223_372_036_854_775_808.0,
            Json::String(s) => {
                let digits = s.strip_prefix('-').unwrap_or(s);
                !digits.is_empty()
                    && digits.bytes().all(|b| b.is_ascii_digit())
                    && s.parse::<i64>().is_err()
            }
            Json::Array(items) => items.iter().any(big),
            Json::Object(members) => members.iter().any(|(_, v)| big(v)),
            _ => false,
        }
    }
    ["query", "path_parameters", "headers", "cookies", "body"]
        .iter()
        .filter_map(|part| case.get(part))
        .any(big)
}

/// The name the harness gives a valid request's refusal whose answer says an integer is
/// beyond the range of its `format` (see [`beyond_format`]).
const BEYOND_FORMAT: &str = "integer_beyond_format";

/// Whether a 400's body is the generated server refusing an integer beyond its format's
/// range: `"9539416630" is out of range for uint32` (a parameter), or serde's `invalid value:
/// integer `9539416630`, expected u32` (a body field).
fn beyond_format(body: &str) -> bool {
    const FORMATS: [(&str, &str); 8] = [
        ("int8", "i8"),
        ("int16", "i16"),
        ("int32", "i32"),
        ("int64", "i64"),
        ("uint8", "u8"),
        ("uint16", "u16"),
        ("uint32", "u32"),
        ("uint64", "u64"),
    ];
    FORMATS.iter().any(|(format, rust)| {
        body.contains(&format!("is out of range for {format}\""))
            || body.contains(&format!("is out of range for {format}\\\""))
            || body.contains("invalid value: integer `")
                && body.contains(&format!("`, expected {rust}"))
    })
}

/// The name the harness gives schemathesis' "Unknown discriminator value" on an answer: the
/// tag is the pinned value of a variant where the document's discriminator has no `mapping`.
const PINNED_DISCRIMINATOR: &str = "discriminator_pinned_value";

/// The name the harness gives a valid request's refusal whose answer says a string is not the
/// base64 its `contentEncoding: base64` (3.1) or `format: byte` says it is.
const NOT_BASE64: &str = "not_base64";

/// The name the harness gives a valid request's refusal whose answer says a `date-time` was
/// empty.
const EMPTY_DATE_TIME: &str = "empty_date_time";

/// The class of a 400's body that refuses a request by one of the README's decisions, which
/// schemathesis calls valid data refused:
/// - an integer beyond its `format` ([`beyond_format`]);
/// - a string that is not base64 where the document says it is: JSON Schema makes
///   `contentEncoding` an annotation, so schemathesis sends any text (discord's `avatar`,
///   `image`: `"äC"`); the generated server decodes such a string into bytes and refuses text
///   that is not base64 with a 400 naming the place (runtime `base64`);
/// - an empty `date-time`: schemathesis makes `""` for a `date-time` whose `type` is a list
///   (`type: [string, "null"]`, discord's `scheduled_end_time`), which its own validator with
///   formats checked refuses (`jsonschema_rs`, `validate_formats=True`); the server's 400
///   says the year is missing.
fn refusal_by_decision(body: &str) -> Option<&'static str> {
    if beyond_format(body) {
        Some(BEYOND_FORMAT)
    } else if body.contains("invalid base64 character at") || body.contains("invalid base64 length")
    {
        Some(NOT_BASE64)
    } else if body.contains("expected four digit year") && body.contains("but found end of input") {
        Some(EMPTY_DATE_TIME)
    } else {
        None
    }
}

/// Standard base64 (as schemathesis stores bodies) decoded to text; `None` when it is not
/// base64 or the bytes are not UTF-8.
fn base64_text(encoded: &str) -> Option<String> {
    let mut bits = 0u32;
    let mut count = 0;
    let mut out = Vec::new();
    for c in encoded.bytes().filter(|&c| c != b'=') {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        bits = (bits << 6) | u32::from(v);
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
            bits &= (1 << count) - 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The name the harness gives a `status_code_conformance` failure that is a refusal the
/// document has no status for (see [`undocumented_refusal`]).
const UNDOCUMENTED_REFUSAL: &str = "undocumented_refusal";

/// Whether schemathesis's "Received: 401 ⏎ Documented: 200, 400, 404" is the server asking
/// for the credentials a secured operation requires (schemathesis sends some cases without
/// them, or with wrong ones, on purpose) where the operation documents no 401 (nor `4XX`, nor
/// `default`): redocly-museum's operations need HTTP basic and list no 401. The document
/// gives that refusal no status.
fn undocumented_challenge(message: &str) -> bool {
    let field = |name: &str| {
        message
            .lines()
            .find_map(|l| l.trim().strip_prefix(name))
            .map(str::trim)
    };
    field("Received:") == Some("401")
        && !field("Documented:")
            .unwrap_or("")
            .split(',')
            .map(str::trim)
            .any(|d| matches!(d, "401" | "4XX" | "default"))
}

/// Whether schemathesis's "Received: 400 ⏎ Documented: 200, 404" is the server refusing
/// invalid data (the case was made invalid on purpose) with a 4XX the operation does not list,
/// when the operation lists neither 400 nor 422: the document gives no status for the refusal
/// negative_data_rejection demands, so no answer satisfies both checks. A 400 where the
/// operation lists 422 (or the reverse), a 5XX or a 2XX stays a status_code_conformance failure.
fn undocumented_refusal(message: &str) -> bool {
    let field = |name: &str| {
        message
            .lines()
            .find_map(|l| l.trim().strip_prefix(name))
            .map(str::trim)
    };
    let Some(received) = field("Received:").and_then(|r| r.parse::<u16>().ok()) else {
        return false;
    };
    let documented: Vec<&str> = field("Documented:")
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    (400..500).contains(&received)
        && !documented
            .iter()
            .any(|d| matches!(*d, "400" | "422" | "4XX" | "default"))
}

// ---------------------------------------------------------------------------------------------
// The list of document defects

/// A failure the document itself causes, accepted with its reason (docs/serving.md).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Defect {
    document: String,
    check: String,
    /// `METHOD /path` as schemathesis names it, or `*` for every operation.
    operation: String,
    reason: String,
}

impl Defect {
    /// `*` as the document: every document (a class of defect, never stale).
    fn covers(&self, document: &str, check: &str, operation: &str) -> bool {
        (self.document == "*" || self.document == document)
            && self.check == check
            && (self.operation == "*" || self.operation == operation)
    }
}

/// The rows of the table under `## Document defects`: `| `document` | `check` | `operation` |
/// reason |`. Every listed defect needs a reason.
fn read_defects(path: &Path) -> Result<Vec<Defect>, String> {
    let text =
        fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse_defects(&text).map_err(|e| format!("{}: {e}", path.display()))
}

fn parse_defects(text: &str) -> Result<Vec<Defect>, String> {
    let mut out = Vec::new();
    let mut inside = false;
    for (n, line) in text.lines().enumerate() {
        if line.starts_with("## ") {
            inside = line.trim() == "## Document defects";
            continue;
        }
        if !inside || !line.starts_with("| `") {
            continue;
        }
        let cells: Vec<&str> = line
            .trim()
            .trim_matches('|')
            .split(" | ")
            .map(str::trim)
            .collect();
        let [document, check, operation, reason] = cells.as_slice() else {
            return Err(format!(
                "line {}: a defect row has four cells (document, check, operation, reason)",
                n + 1
            ));
        };
        let unquote = |s: &str| s.trim_matches('`').to_string();
        if reason.is_empty() {
            return Err(format!("line {}: a listed defect needs its reason", n + 1));
        }
        out.push(Defect {
            document: unquote(document),
            check: unquote(check),
            operation: unquote(operation),
            reason: reason.to_string(),
        });
    }
    Ok(out)
}

/// Listed defects of documents that ran and no longer show: the list must not hide a fixed
/// document (a filtered run only judges the documents it ran).
fn stale_defects<'a>(rows: &[Row], defects: &'a [Defect]) -> Vec<&'a Defect> {
    defects
        .iter()
        .filter(|d| {
            rows.iter()
                .find(|r| r.label == d.document)
                .is_some_and(|r| {
                    matches!(r.outcome, Outcome::Ran(_))
                        && !r
                            .accepted
                            .iter()
                            .any(|(check, op)| d.covers(&r.label, check, op))
                })
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The report

fn render(rows: &[Row], stale: &[&Defect], args: &Args, took: Duration) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "| document | operations | cases | failures by check | listed defects | verdict |\n|---|---:|---:|---|---|---|"
    );
    for r in rows {
        let operations = r
            .model
            .as_ref()
            .map_or("–".to_string(), |m| m.operations.to_string());
        let (cases, failures) = match &r.outcome {
            Outcome::Ran(run) => {
                let mut by: Vec<String> = run
                    .by_check
                    .iter()
                    .map(|(check, n)| format!("{check} {n}"))
                    .collect();
                if !run.errors.is_empty() {
                    by.push(format!("errors {}", run.errors.len()));
                }
                (
                    run.cases.to_string(),
                    if by.is_empty() {
                        "none".into()
                    } else {
                        by.join(", ")
                    },
                )
            }
            Outcome::Broken(why) => ("–".into(), format!("**{}**", cell(why, 120))),
            Outcome::NotGenerated => (
                "–".into(),
                format!(
                    "not generated: {}",
                    cell(r.refused.as_deref().unwrap_or("(no message)"), 100)
                ),
            ),
        };
        let listed = if r.accepted.is_empty() {
            "–".to_string()
        } else {
            let checks: BTreeSet<&str> = r.accepted.iter().map(|(c, _)| c.as_str()).collect();
            format!(
                "{} ({})",
                r.accepted.len(),
                checks.into_iter().collect::<Vec<_>>().join(", ")
            )
        };
        let verdict = match r.verdict() {
            Verdict::Passes => "passes",
            Verdict::Fails => "**fails**",
            Verdict::NotServed => "not served",
        };
        let _ = writeln!(
            s,
            "| `{}` | {operations} | {cases} | {failures} | {listed} | {verdict} |",
            r.label
        );
    }
    let count = |v: Verdict| rows.iter().filter(|r| r.verdict() == v).count();
    let _ = writeln!(
        s,
        "\nserve-corpus: {} documents, {} served and passing, {} failing, {} not generated; {} cases; checks: all but {} ({}); max examples {}, seed {}, workers {}; {:.0} s.",
        rows.len(),
        count(Verdict::Passes),
        count(Verdict::Fails),
        count(Verdict::NotServed),
        rows.iter()
            .map(|r| match &r.outcome {
                Outcome::Ran(run) => run.cases,
                _ => 0,
            })
            .sum::<usize>(),
        EXCLUDED_CHECKS
            .iter()
            .map(|(c, _)| *c)
            .collect::<Vec<_>>()
            .join(", "),
        EXCLUDED_CHECKS
            .iter()
            .map(|(_, why)| *why)
            .collect::<Vec<_>>()
            .join("; "),
        args.max_examples,
        args.seed,
        args.workers,
        took.as_secs_f64()
    );
    // Every failure not listed, with its first message.
    let mut details = String::new();
    for r in rows {
        let Outcome::Ran(run) = &r.outcome else {
            continue;
        };
        if r.unlisted.is_empty() {
            continue;
        }
        let _ = writeln!(details, "\n### `{}`\n", r.label);
        for (check, operation) in &r.unlisted {
            let first = run
                .failures
                .get(&(check.clone(), operation.clone()))
                .map(|(n, m)| format!("{n} × {}", clip(m, 600)))
                .or_else(|| {
                    run.errors
                        .iter()
                        .find(|(op, _)| op == operation)
                        .map(|(_, m)| clip(m, 600))
                })
                .unwrap_or_default();
            let _ = writeln!(details, "- `{check}` `{operation}`: {first}");
        }
    }
    if !details.is_empty() {
        let _ = write!(s, "\n## Failures not listed as document defects\n{details}");
    }
    if !stale.is_empty() {
        let _ = writeln!(s, "\n## Listed defects that no longer show (remove them)\n");
        for d in stale {
            let _ = writeln!(s, "- `{}` `{}` `{}`", d.document, d.check, d.operation);
        }
    }
    s
}

fn cell(text: &str, max: usize) -> String {
    clip(&text.split_whitespace().collect::<Vec<_>>().join(" "), max).replace('|', "\\|")
}

fn clip(text: &str, max: usize) -> String {
    let one_line = text.replace('\n', " ⏎ ");
    if one_line.chars().count() <= max {
        one_line
    } else {
        format!("{}…", one_line.chars().take(max).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments() {
        let a = Args::parse(&[
            "x.yaml".into(),
            "--filter".into(),
            "oai".into(),
            "--max-examples".into(),
            "5".into(),
            "--seed".into(),
            "7".into(),
            "--workers".into(),
            "3".into(),
        ])
        .unwrap();
        assert_eq!(a.dirs, [PathBuf::from("x.yaml")]);
        assert_eq!(
            (a.filters.as_slice(), a.max_examples, a.seed, a.workers),
            (&["oai".to_string()][..], 5, 7, 3)
        );
        assert!(Args::parse(&["--seed".into(), "x".into()]).is_err());
        assert!(Args::parse(&["--nope".into()]).is_err());
    }

    #[test]
    fn refusals_the_document_has_no_status_for_are_told_apart() {
        assert!(undocumented_refusal("Received: 400\nDocumented: 200"));
        assert!(undocumented_refusal("Received: 400\nDocumented: 204, 404"));
        assert!(undocumented_refusal("Received: 401\nDocumented: "));
        assert!(!undocumented_refusal("Received: 400\nDocumented: 200, 422"));
        assert!(!undocumented_refusal("Received: 422\nDocumented: 200, 400"));
        assert!(!undocumented_refusal("Received: 501\nDocumented: 200"));
        assert!(!undocumented_refusal("Received: 200\nDocumented: 201"));
        assert!(!undocumented_refusal("no status"));
        assert!(undocumented_challenge(
            "Received: 401\nDocumented: 200, 400, 404"
        ));
        assert!(!undocumented_challenge(
            "Received: 401\nDocumented: 200, 401"
        ));
        assert!(!undocumented_challenge(
            "Received: 401\nDocumented: 200, 4XX"
        ));
        assert!(!undocumented_challenge("Received: 403\nDocumented: 200"));
    }

    #[test]
    fn integers_beyond_their_format_are_found_in_the_servers_refusal() {
        // Base64 as schemathesis stores bodies; the messages as the runtime writes them.
        let encode = |text: &str| {
            const ALPHABET: &[u8] =
                b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
            let mut out = String::new();
            for chunk in text.as_bytes().chunks(3) {
                let n = chunk.iter().fold(0u32, |n, &b| n << 8 | u32::from(b))
                    << (8 * (3 - chunk.len()));
                for i in 0..=chunk.len() {
                    out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
                }
                out.push_str(&"=".repeat(3 - chunk.len()));
            }
            out
        };
        for (body, beyond) in [
            (
                r#"{"message":"query/limit: \"9539416630\" is out of range for uint32"}"#,
                true,
            ),
            (
                r#"{"message":"/ncpus: invalid value: integer `70000`, expected u16"}"#,
                true,
            ),
            (
                r#"{"message":"query/limit: expected an integer (uint32), got \"x\""}"#,
                false,
            ),
            (
                r#"{"message":"/name: invalid type: integer `5`, expected a string"}"#,
                false,
            ),
        ] {
            let decoded = base64_text(&encode(body)).expect("base64");
            assert_eq!(decoded, body);
            assert_eq!(beyond_format(&decoded), beyond, "{body}");
        }
        assert_eq!(base64_text("not base64!"), None);
    }

    #[test]
    fn a_null_written_as_text_is_named_only_where_the_encoding_has_none() {
        for (case, named) in [
            (r#"{"query": {"sku_ids": ["0", "null"]}}"#, true),
            (r#"{"query": {"status": "null"}}"#, true),
            (r#"{"query": {"sku_ids": ["0", "1"]}}"#, false),
            (
                r#"{"media_type": "application/x-www-form-urlencoded", "body": {"type": null}}"#,
                true,
            ),
            (
                r#"{"media_type": "application/x-www-form-urlencoded", "body": {"ids": ["1", null]}}"#,
                true,
            ),
            // A JSON body and a multipart body have their null.
            (
                r#"{"media_type": "application/json", "body": {"type": null}}"#,
                false,
            ),
            (
                r#"{"media_type": "multipart/form-data", "body": {"type": null}}"#,
                false,
            ),
        ] {
            let case = Json::parse(case).unwrap();
            assert_eq!(null_as_text(&case), named, "{case:?}");
        }
    }

    #[test]
    fn an_incorrect_type_a_form_cannot_write_is_named_only_in_a_form() {
        let message = "Invalid data should have been rejected ⏎ Expected: 400 ⏎ Invalid component: in body - sticker_ids: Incorrect type";
        for (case, named) in [
            (
                r#"{"media_type": "multipart/form-data", "body": {"sticker_ids": 0}}"#,
                true,
            ),
            (
                r#"{"media_type": "application/x-www-form-urlencoded", "body": {"sticker_ids": "0"}}"#,
                true,
            ),
            (
                r#"{"media_type": "application/json", "body": {"sticker_ids": 0}}"#,
                false,
            ),
            (
                r#"{"media_type": "multipart/form-data", "body": {"sticker_ids": {"a": 1}}}"#,
                false,
            ),
            (
                r#"{"media_type": "multipart/form-data", "body": {"other": 0}}"#,
                false,
            ),
        ] {
            let case = Json::parse(case).unwrap();
            assert_eq!(form_same_bytes(&case, message), named, "{case:?}");
        }
        let case =
            Json::parse(r#"{"media_type": "multipart/form-data", "body": {"a": 0}}"#).unwrap();
        assert!(!form_same_bytes(
            &case,
            "Invalid component: in body - a: Value greater than maximum"
        ));
    }

    #[test]
    fn refusals_by_decision_are_named_from_the_servers_answer() {
        for (body, class) in [
            (
                r#"{"message":"query/limit: \"9539416630\" is out of range for uint32"}"#,
                Some(BEYOND_FORMAT),
            ),
            (
                r#"{"message":"/avatar: invalid base64 character at 0"}"#,
                Some(NOT_BASE64),
            ),
            (
                r#"{"message":"/scheduled_end_time: expected four digit year (or leading sign for six digit year), but found end of input"}"#,
                Some(EMPTY_DATE_TIME),
            ),
            (
                r#"{"message":"/when: expected four digit year (or leading sign for six digit year), but found \"x\""}"#,
                None,
            ),
            (r#"{"message":"/name: must match the pattern"}"#, None),
        ] {
            assert_eq!(refusal_by_decision(body), class, "{body}");
        }
    }

    #[test]
    fn integers_beyond_64_bits_are_found_in_any_part_of_a_case() {
        let case = |text: &str| Json::parse(text).unwrap();
        assert!(beyond_64_bits(&case(
            r#"{"query": {"page[limit]": 12628635628150235136}}"#
        )));
        assert!(beyond_64_bits(&case(
            r#"{"body": {"a": [1, -9223372036854775809]}}"#
        )));
        assert!(beyond_64_bits(&case(
            r#"{"path_parameters": {"id": "99999999999999999999"}}"#
        )));
        assert!(!beyond_64_bits(&case(
            r#"{"query": {"n": 9223372036854775000, "s": "12a", "f": 2.5}}"#
        )));

        let case = |id: &str, mode: &str, documented: &str| {
            format!(
                r#"{{"ScenarioFinished": {{"recorder": {{"label": "GET /k", "cases": {{"{id}": {{"value": {{"method": "GET", "path": "/k", "meta": {{"generation": {{"mode": "{mode}"}}}}}}}}}}, "checks": {{"{id}": [{{"name": "status_code_conformance", "status": "failure", "failure_info": {{"failure": {{"title": "Undocumented status code", "message": "Received: 400\nDocumented: {documented}"}}}}}}]}}}}}}}}"#
            )
        };
        let events = [
            case("n1", "negative", "200"),
            case("n2", "negative", "200, 422"),
            case("p1", "positive", "200"),
        ]
        .join("\n");
        let run = read_run(r#"{"test_cases": {"generated": 3}}"#, &events).unwrap();
        assert_eq!(run.by_check[UNDOCUMENTED_REFUSAL], 1);
        assert_eq!(run.by_check["status_code_conformance"], 2);
        let class = Defect {
            document: "*".into(),
            check: UNDOCUMENTED_REFUSAL.into(),
            operation: "*".into(),
            reason: "r".into(),
        };
        assert!(class.covers("any.yaml", UNDOCUMENTED_REFUSAL, "GET /k"));
        assert!(!class.covers("any.yaml", "status_code_conformance", "GET /k"));
    }

    #[test]
    fn the_defect_table() {
        let doc = "# Serving\n\n## Document defects\n\n| document | check | operation | reason |\n|---|---|---|---|\n| `a/b.yaml` | `response_schema_conformance` | `GET /x` | its example breaks its schema |\n| `a/c.yaml` | `error` | `*` | unsatisfiable |\n\n## Other\n\n| `z` | `y` | `x` | w |\n";
        let defects = parse_defects(doc).unwrap();
        assert_eq!(defects.len(), 2);
        assert!(defects[0].covers("a/b.yaml", "response_schema_conformance", "GET /x"));
        assert!(!defects[0].covers("a/b.yaml", "response_schema_conformance", "GET /y"));
        assert!(defects[1].covers("a/c.yaml", "error", "POST /anything"));
        let no_reason = "## Document defects\n| `a` | `b` | `c` |  |\n";
        assert!(parse_defects(no_reason).is_err());
    }

    #[test]
    fn schemathesis_events_are_tallied_per_check_and_operation() {
        let summary = r#"{"test_cases": {"generated": 12}, "errors": [{"label": "GET /z", "title": "Schema error", "message": "unsatisfiable"}], "warnings": {"missing_auth": [], "missing_test_data": ["GET /x"]}}"#;
        let fail = |case: &str, op: &str, check: &str| {
            let (method, path) = op.split_once(' ').unwrap();
            format!(
                r#"{{"ScenarioFinished": {{"recorder": {{"label": "{op}", "cases": {{"{case}": {{"value": {{"method": "{method}", "path": "{path}"}}}}}}, "checks": {{"{case}": [{{"name": "not_a_server_error", "status": "success"}}, {{"name": "{check}", "status": "failure", "failure_info": {{"failure": {{"title": "Bad", "message": "why"}}}}}}]}}}}}}}}"#
            )
        };
        let events = [
            fail("c1", "GET /x", "response_schema_conformance"),
            fail("c2", "GET /x", "response_schema_conformance"),
            fail("c2", "GET /x", "response_schema_conformance"), // the same case again
            fail("c3", "POST /y", "negative_data_rejection"),
            r#"{"PhaseStarted": {}}"#.to_string(),
        ]
        .join("\n");
        let run = read_run(summary, &events).unwrap();
        assert_eq!(run.cases, 12);
        assert_eq!(run.by_check["response_schema_conformance"], 2);
        assert_eq!(run.by_check["negative_data_rejection"], 1);
        assert_eq!(
            run.failures[&("response_schema_conformance".into(), "GET /x".into())],
            (2, "Bad: why".to_string())
        );
        assert_eq!(
            run.errors,
            [(
                "GET /z".to_string(),
                "Schema error: unsatisfiable".to_string()
            )]
        );
        assert_eq!(run.warnings.get("missing_test_data"), Some(&1));
        assert!(!run.warnings.contains_key("missing_auth"));

        let doc = Document {
            base: PathBuf::from("."),
            root: "a.yaml".into(),
            label: "a.yaml".into(),
            split: false,
        };
        let mut row = Row::new("a", &doc);
        row.model = Some(Model::default());
        row.outcome = Outcome::Ran(run);
        let defects = vec![Defect {
            document: "a.yaml".into(),
            check: "response_schema_conformance".into(),
            operation: "*".into(),
            reason: "r".into(),
        }];
        row.judge(&defects);
        assert_eq!(row.verdict(), Verdict::Fails);
        assert_eq!(
            row.unlisted,
            [
                ("negative_data_rejection".to_string(), "POST /y".to_string()),
                ("error".to_string(), "GET /z".to_string())
            ]
        );
        assert!(stale_defects(&[row.clone()], &defects).is_empty());
        let report = render(
            &[row],
            &[],
            &Args::parse(&[]).unwrap(),
            Duration::from_secs(1),
        );
        assert!(report.contains("| `a.yaml` | 0 | 12 | negative_data_rejection 1, response_schema_conformance 2, errors 1 | 1 (response_schema_conformance) | **fails** |"), "{report}");
        assert!(
            report.contains("- `negative_data_rejection` `POST /y`: 1 × Bad: why"),
            "{report}"
        );
    }

    #[test]
    fn failures_on_a_414_are_named_uri_too_long() {
        let event = |status: u16| {
            format!(
                r#"{{"ScenarioFinished": {{"recorder": {{"label": "PUT /i/{{code}}", "cases": {{"c1": {{"value": {{"method": "PUT", "path": "/i/{{code}}", "meta": {{"generation": {{"mode": "negative"}}}}}}}}}}, "checks": {{"c1": [{{"name": "negative_data_rejection", "status": "failure", "failure_info": {{"failure": {{"title": "Accepted", "message": "why"}}}}}}, {{"name": "content_type_conformance", "status": "failure", "failure_info": {{"failure": {{"title": "Media", "message": "none"}}}}}}]}}, "interactions": {{"c1": {{"response": {{"status_code": {status}}}}}}}}}}}}}"#
            )
        };
        let summary = r#"{"test_cases": {"generated": 1}}"#;
        let run = read_run(summary, &event(414)).unwrap();
        assert_eq!(
            run.by_check.get(URI_TOO_LONG),
            Some(&1),
            "{:?}",
            run.by_check
        );
        assert!(!run.by_check.contains_key("negative_data_rejection"));
        // hyper's 431 to a head larger still is the same class.
        let run = read_run(summary, &event(431)).unwrap();
        assert_eq!(run.by_check.get(URI_TOO_LONG), Some(&1));
        let run = read_run(summary, &event(400)).unwrap();
        assert!(!run.by_check.contains_key(URI_TOO_LONG));
        assert_eq!(run.by_check["negative_data_rejection"], 1);
    }

    #[test]
    fn an_empty_array_in_a_form_is_named() {
        let event = |media: &str, items: &str| {
            format!(
                r#"{{"ScenarioFinished": {{"recorder": {{"label": "POST /b", "cases": {{"c1": {{"value": {{"method": "POST", "path": "/b", "media_type": "{media}", "body": {{"Items": {items}}}, "meta": {{"generation": {{"mode": "positive"}}}}}}}}}}, "checks": {{"c1": [{{"name": "positive_data_acceptance", "status": "failure", "failure_info": {{"failure": {{"title": "Rejected", "message": "why"}}}}}}]}}}}}}}}"#
            )
        };
        let summary = r#"{"test_cases": {"generated": 1}}"#;
        let form = "application/x-www-form-urlencoded";
        let run = read_run(summary, &event(form, "[]")).unwrap();
        assert_eq!(
            run.by_check.get(EMPTY_FORM_ARRAY),
            Some(&1),
            "{:?}",
            run.by_check
        );
        for (media, items) in [(form, "[1]"), ("application/json", "[]")] {
            let run = read_run(summary, &event(media, items)).unwrap();
            assert_eq!(run.by_check["positive_data_acceptance"], 1);
        }
    }

    #[test]
    fn credentials_for_every_scheme() {
        use apigen::ir::SchemeKind;
        let model = Model {
            schemes: vec![
                ("bearerAuth".into(), SchemeKind::Bearer),
                (
                    "api \"key\"".into(),
                    SchemeKind::ApiKeyHeader("X-Key".into()),
                ),
                ("basic".into(), SchemeKind::Basic),
            ],
            ..Model::default()
        };
        let config = schemathesis_config(&model, "k");
        assert!(
            config.contains("[auth.openapi.\"bearerAuth\"]\nbearer = \"k\""),
            "{config}"
        );
        assert!(
            config.contains("[auth.openapi.\"api \\\"key\\\"\"]\napi_key = \"k\""),
            "{config}"
        );
        assert!(
            config.contains("username = \"mock\"\npassword = \"k\""),
            "{config}"
        );
    }
}
