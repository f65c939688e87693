//! `cargo xtask calls [DOC|DIR...] [--filter SUBSTR] [--seeds N] [--no-examples]`: every
//! operation of every document's generated CLI, called against an independent mock of the
//! same document (Prism).
//!
//! For each document (the corpus walker's, [`crate::corpus::find_documents`]): generate the client
//! and the command-line client (`apigen::generate`, `apigen::generate_cli`) into one
//! throwaway workspace (`target/calls/ws`), build every CLI with one `cargo build`
//! (`target/calls/target`, shared), then per round start Prism on a free loopback port (N
//! seeded dynamic rounds, `-d --seed 1..N`, and one round of the document's examples) and
//! run each subcommand once with arguments valid by the document ([`requests`]). Each call is
//! classified ([`Outcome`]) from the CLI's exit status and message and from what Prism's log
//! says about it ([`prism`]). A table per document is printed and written, with every
//! failure's details, to `target/calls/report.md`; Prism's logs go to `target/calls/logs/`.
//! Fails on a CLI that does not compile, a request Prism refuses, an answer the CLI cannot
//! decode (unless Prism's answer broke the document), and any call that could not be made.
//! With `--echo`, an echo server stands in for Prism and each request is held to the style
//! table's expansion of the values sent ([`echo`]).

pub(crate) mod check;
mod echo;
mod pattern;
mod prism;
pub(crate) mod proxy;
pub(crate) mod refs;
mod report;
pub(crate) mod requests;
mod values;

use std::collections::BTreeSet;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::corpus;
use prism::{Mode, Prism};
use report::{CallResult, DocRun, Outcome, RoundRun};

const COMMAND: &str = "cargo xtask calls";
/// The longest one call may take (Prism answers in milliseconds; a client retrying a 5xx
/// waits a few seconds).
const CALL_TIMEOUT: Duration = Duration::from_secs(60);
/// The throwaway workspace's profile: no debug info (the corpus's CLIs would take tens of GB
/// with it, and nothing here is debugged).
const PROFILE: &str = "\n[profile.dev]\ndebug = 0\n";

/// Credentials the CLIs read: any value is good enough for Prism, which only checks that
/// the document's scheme is used.
const KEY: &str = "apigen-calls-key";

pub fn main(args: &[String]) -> Result<(), String> {
    let started = Instant::now();
    let args = Args::parse(args)?;
    let root = crate::codegen::root();
    let root = root.canonicalize().unwrap_or(root);
    let paths = if args.paths.is_empty() {
        default_paths(&root)
    } else {
        args.paths.clone()
    };
    let filters: Vec<String> = args.filter.iter().cloned().collect();
    let corpus::Found { docs, dir_list, .. } = corpus::find_documents(&root, &paths, &filters)?;
    let out_dir = root.join("target/calls");
    let ws = out_dir.join("ws");
    // The whole corpus builds apart, without debug info (about 5 GB); a few documents (CI)
    // build beside the repository's own crates, whose tests have built most dependencies
    // already: same target directory, same profile.
    let (target_dir, profile) = if args.shared_target {
        (
            root.join("target"),
            crate::corpus::repository_profile(&root)?,
        )
    } else {
        (out_dir.join("target"), PROFILE.to_string())
    };
    let logs = out_dir.join("logs");
    for dir in [&ws, &logs] {
        fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }

    // 1. Generate the client and the CLI of every document.
    let mut runs = Vec::new();
    let mut members = Vec::new();
    let mut taken = BTreeSet::new();
    let previous_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(corpus::record_panic));
    for doc in &docs {
        let (path, label) = (&doc.base.join(&doc.root), &doc.label);
        let slug = corpus::unique(corpus::slug(label), &mut taken);
        eprintln!("calls: generating {label}");
        let mut run = DocRun::new(label.clone(), slug.clone(), path.clone());
        match generate(doc, label, &slug, &ws) {
            Ok((plan, own)) => {
                members.push(format!("{slug}-client"));
                members.push(format!("{slug}-cli"));
                run.plan = Some(plan);
                run.own_copy = own;
            }
            Err(e) => run.not_generated = Some(e),
        }
        runs.push(run);
    }
    std::panic::set_hook(previous_hook);

    // 2. One workspace, one build of every CLI (and the clients they use).
    if !members.is_empty() {
        let (names, excluded) = corpus::load_workspace(&ws, &root, &mut members, &profile)?;
        for run in &mut runs {
            for side in ["client", "cli"] {
                if let Some(why) = excluded.get(&format!("{}-{side}", run.slug)) {
                    run.build_error = Some(format!("{side} manifest: {why}"));
                }
            }
        }
        eprintln!(
            "calls: building {} crates in {} (target {})",
            members.len(),
            ws.display(),
            target_dir.display()
        );
        let (lines, _, stderr) = corpus::cargo_run(&ws, &target_dir, "build")?;
        let tally = corpus::tally(lines.iter().map(String::as_str), &names);
        attach_builds(&mut runs, &tally, &target_dir, &stderr);
    }

    if args.echo {
        return echo_rounds(&runs, args.seeds, &out_dir);
    }

    // 3. The calls, document by document, round by round.
    let prism_bin = if runs.iter().any(|r| r.bin.is_some()) {
        Some(prism::install(&root)?)
    } else {
        None
    };
    let mut modes: Vec<Mode> = (1..=args.seeds).map(Mode::Dynamic).collect();
    if args.examples {
        modes.push(Mode::Examples);
    }
    let mock_docs = out_dir.join("mock-documents");
    for run in &mut runs {
        let (Some(bin), Some(prism_bin), Some((doc, api, cli))) = (&run.bin, &prism_bin, &run.plan)
        else {
            continue;
        };
        // Nothing to call: no mock needed.
        if cli.commands.is_empty() {
            continue;
        }
        let (document, changes) =
            mock_document(doc, (&run.slug, &run.path, run.own_copy), &mock_docs)?;
        run.mock_changes = changes;
        for (i, mode) in modes.iter().enumerate() {
            let round = i as u32 + 1;
            eprintln!(
                "calls: {} — {} ({} operations)",
                run.label,
                mode.label(),
                cli.commands.len()
            );
            let calls = requests::calls(doc, api, cli, round);
            let log = logs.join(format!("{}-{}.log", run.slug, mode_file(*mode)));
            let target = Target {
                document: &document,
                doc,
                bin,
                cli,
            };
            let result = call_all(prism_bin, &target, *mode, &calls, &log);
            let mut round = RoundRun {
                mode: *mode,
                calls: Vec::new(),
                prism_error: None,
                unavailable: None,
            };
            match result {
                Ok(calls) => round.calls = calls,
                Err(RoundError::Unavailable(e)) => round.unavailable = Some(e),
                Err(RoundError::Failed(e)) => round.prism_error = Some(e),
            }
            run.rounds.push(round);
        }
    }

    // 4. Report.
    let report = report::render(&runs, &dir_list, &modes, started.elapsed().as_secs_f64());
    let path = out_dir.join("report.md");
    fs::write(&path, &report).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    println!("{}", report::tables(&runs));
    println!("report written to {}", path.display());
    let failures = report::failures(&runs);
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "calls: {} (details in {})",
            failures.join("; "),
            path.display()
        ))
    }
}

/// `--echo`: every built CLI's calls, `seeds` rounds of values, against the echo server; the
/// table printed and written to `target/calls/echo-report.md`. Fails on a request that is not
/// the table's and on a call that sent nothing.
fn echo_rounds(runs: &[DocRun], seeds: u64, out_dir: &Path) -> Result<(), String> {
    let mut rounds = Vec::new();
    let mut failures = Vec::new();
    for run in runs {
        if let Some(e) = run.not_generated.as_ref().or(run.build_error.as_ref()) {
            failures.push(format!("{}: {e}", run.label));
            continue;
        }
        let (Some(bin), Some((doc, api, cli))) = (&run.bin, &run.plan) else {
            continue;
        };
        for round in 1..=seeds as u32 {
            eprintln!("calls --echo: {} — round {round}", run.label);
            let calls = requests::calls(doc, api, cli, round);
            rounds.push((run.label.clone(), round, echo::round(bin, cli, &calls)?));
        }
    }
    let (table, differ) = echo::report(&rounds);
    let path = out_dir.join("echo-report.md");
    fs::write(&path, &table).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    println!("{table}");
    if differ > 0 {
        failures.push(format!(
            "{differ} requests not as the style table writes them"
        ));
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "calls --echo: {} ({})",
            failures.join("; "),
            path.display()
        ))
    }
}

/// By default all four folders: a split document is called as bundled, a 2.0 one as the 3.0
/// document it is read as (Prism and the harness both read that).
fn default_paths(root: &Path) -> Vec<PathBuf> {
    [
        "openapi-corpus",
        "openapi-corpus-31",
        "openapi-corpus-multi",
        "openapi-corpus-swagger2",
    ]
    .iter()
    .map(|d| root.join("../shared").join(d))
    .collect()
}

/// The document Prism mocks for a run: the harness's copy when it changed something or when
/// the JSON is not the root file as written (split, or 2.0 read as 3.0), else the file itself.
fn mock_document(
    doc: &serde_json::Value,
    (slug, path, own_copy): (&str, &Path, bool),
    mock_docs: &Path,
) -> Result<(PathBuf, Vec<String>), String> {
    let mut changes = Vec::new();
    // Prism reads the harness's copy when it changed something, or when the JSON is not
    // the root file as written (split, or 2.0 read as 3.0).
    let copy = match prism::mock_copy(doc) {
        Some((copy, made)) => {
            changes = made;
            Some(copy)
        }
        None => own_copy.then(|| doc.clone()),
    };
    // A bundled copy is read from another folder: references to other files that only
    // extensions hold (redocly's `x-codeSamples` sources) would point at nothing there.
    let copy = copy.map(|mut copy| {
        let dropped = drop_file_references_in_extensions(&mut copy);
        if dropped > 0 {
            changes.push(format!(
                "{dropped} extension members referring to other files left out"
            ));
        }
        copy
    });
    let document = match copy {
        Some(copy) => {
            fs::create_dir_all(mock_docs)
                .map_err(|e| format!("cannot create {}: {e}", mock_docs.display()))?;
            let path = mock_docs.join(format!("{slug}.json"));
            let text = serde_json::to_string(&copy).map_err(|e| e.to_string())?;
            fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            path
        }
        None => path.to_path_buf(),
    };
    Ok((document, changes))
}

/// Each generated run takes its CLI binary, or the first build error of its crates.
fn attach_builds(
    runs: &mut [DocRun],
    tally: &std::collections::HashMap<String, corpus::CrateBuild>,
    target_dir: &Path,
    stderr: &str,
) {
    for run in runs.iter_mut().filter(|r| r.plan.is_some()) {
        let bin = target_dir.join("debug").join(format!("{}-cli", run.slug));
        if run.build_error.is_some() {
            continue;
        }
        let errors: Vec<String> = ["client", "cli"]
            .iter()
            .filter_map(|side| tally.get(&format!("{}-{side}", run.slug)))
            .flat_map(|b| b.errors.iter().map(|e| e.short()))
            .collect();
        if bin.exists() && errors.is_empty() {
            run.bin = Some(bin);
        } else {
            run.build_error = Some(match errors.first() {
                Some(first) => format!("{} ({} errors)", first, errors.len()),
                None => corpus::first_cargo_error(stderr),
            });
        }
    }
}

struct Args {
    paths: Vec<PathBuf>,
    filter: Option<String>,
    seeds: u64,
    examples: bool,
    /// Build in the repository's own target directory with its dev profile
    /// ([`crate::corpus::repository_profile`]), so that the dependencies its tests built are reused.
    shared_target: bool,
    /// Call an echo server instead of Prism and hold each request to the style table
    /// ([`echo`]).
    echo: bool,
}

impl Args {
    fn parse(args: &[String]) -> Result<Args, String> {
        let mut parsed = Args {
            paths: Vec::new(),
            filter: None,
            seeds: 3,
            examples: true,
            shared_target: false,
            echo: false,
        };
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            match arg.as_str() {
                "--filter" => {
                    parsed.filter = Some(it.next().ok_or("--filter needs a substring")?.clone())
                }
                "--seeds" => {
                    let n = it.next().ok_or("--seeds needs a number")?;
                    parsed.seeds = n
                        .parse()
                        .map_err(|_| format!("--seeds: `{n}` is not a number"))?;
                }
                "--no-examples" => parsed.examples = false,
                "--shared-target" => parsed.shared_target = true,
                "--echo" => parsed.echo = true,
                other if other.starts_with('-') => {
                    return Err(format!("unknown option `{other}`"));
                }
                other => parsed.paths.push(other.into()),
            }
        }
        Ok(parsed)
    }
}

fn mode_file(mode: Mode) -> String {
    match mode {
        Mode::Dynamic(seed) => format!("seed-{seed}"),
        Mode::Examples => "examples".into(),
    }
}

/// The document as JSON (what arguments are made from and Prism is given), the lowered API
/// and the CLI's plan.
type Plan = (serde_json::Value, apigen::ir::Api, apigen::ir::Cli);

/// Generates the client and the CLI into the workspace; the plan and whether the JSON is not
/// the root file as written (a split document bundled into one, a Swagger 2.0 document as the
/// OpenAPI 3.0 it is read as: Prism is then given that, so that it and the harness read the
/// same document), or why there is none (the generator's first error, or its panic).
fn generate(
    doc: &crate::corpus_docs::Document,
    label: &str,
    slug: &str,
    ws: &Path,
) -> Result<(Plan, bool), String> {
    let options = apigen::Options {
        api_name: None,
        name: slug.to_string(),
        spec_label: label.to_string(),
        command: COMMAND.into(),
        string_formats: false,
        select: Default::default(),
        runtime: crate::codegen::runtime_beside(&ws.join(format!("{slug}-client"))),
        without_tag_features: false,
    };
    let client_path = format!("../{slug}-client");
    let (base, root) = (doc.base.clone(), doc.root.clone());
    let (result, _) = corpus::guarded(move || {
        let files = apigen::FileSystem::new(&base);
        let loaded = apigen::load::read(&root, &files)?;
        let (json, own) = if loaded.written.value.get("swagger").is_some() {
            let converted = serde_json::to_value(&loaded.doc).map_err(|e| {
                apigen::diag::Diagnostics(vec![apigen::diag::Diagnostic::error(
                    String::new(),
                    format!("the converted document is not JSON: {e}"),
                )])
            })?;
            (converted, true)
        } else {
            (loaded.written.value, loaded.written.text.is_none())
        };
        let output = apigen::generate_with_cli_from(&root, &files, &options, &client_path)?;
        let plan = apigen::cli_plan_from(&root, &files, &options)?;
        Ok::<_, apigen::diag::Diagnostics>((json, own, output, plan))
    });
    let (json, own, output, (api, plan)) = match result {
        Ok(Ok(done)) => done,
        Ok(Err(diagnostics)) => return Err(first_line(&diagnostics.to_string())),
        Err(panic) => return Err(format!("generator panicked: {}", first_line(&panic))),
    };
    // The server is not called here; only the client and the CLI are written.
    let files: std::collections::BTreeMap<String, String> = output
        .files
        .into_iter()
        .filter(|(p, _)| p.starts_with("client/") || p.starts_with("cli/"))
        .collect();
    corpus::write_crates(ws, slug, &files)?;
    Ok(((json, api, plan), own))
}

/// Generates the client and the CLI of `doc` into `ws` as a round does (`cargo xtask
/// real-servers` calls real servers with them): the document as JSON, the lowered API and
/// the CLI's plan.
pub(crate) fn generate_into(
    doc: &crate::corpus_docs::Document,
    label: &str,
    slug: &str,
    ws: &Path,
) -> Result<Plan, String> {
    generate(doc, label, slug, ws).map(|(plan, _)| plan)
}

fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or("").to_string()
}

/// One round: Prism started in `mode` behind the recording relay, every call made and
/// classified; Prism's log written. `Err` when Prism cannot serve the document at all
/// ([`Unavailable`]) or stopped answering.
fn call_all(
    prism_bin: &Path,
    target: &Target<'_>,
    mode: Mode,
    calls: &[requests::Call],
    log: &Path,
) -> Result<Vec<CallResult>, RoundError> {
    let Target {
        document,
        doc,
        bin,
        cli,
    } = *target;
    let mut prism = Prism::start(prism_bin, document, mode).map_err(|e| {
        if e.starts_with("Prism stopped before listening") {
            RoundError::Unavailable(e)
        } else {
            RoundError::Failed(e)
        }
    })?;
    let relay = proxy::Proxy::start(prism.port).map_err(RoundError::Failed)?;
    let base_url = format!("http://127.0.0.1:{}", relay.port);
    let mut results = Vec::new();
    let outcome = (|| -> Result<(), String> {
        for call in calls {
            if let Some(fault) = &call.document_fault {
                results.push(CallResult::new(call, Outcome::DocumentFault, fault.clone()));
                continue;
            }
            if let Some(problem) = &call.problem {
                results.push(CallResult::new(call, Outcome::NoValues, problem.clone()));
                continue;
            }
            let ran = run_cli(bin, cli, &base_url, call)?;
            let lines = prism.fence()?;
            let seen = prism::read(&lines);
            let exchanges = relay.take();
            let (outcome, detail) = classify(&ran, &seen, exchanges.last(), doc, call, mode);
            results.push(CallResult::new(call, outcome, detail));
        }
        Ok(())
    })();
    let _ = fs::write(log, prism.log.join("\n") + "\n");
    outcome.map(|()| results).map_err(RoundError::Failed)
}

/// What a round calls: the document Prism mocks (its path, and as JSON) and the CLI.
#[derive(Clone, Copy)]
struct Target<'a> {
    document: &'a Path,
    doc: &'a serde_json::Value,
    bin: &'a Path,
    cli: &'a apigen::ir::Cli,
}

/// Why a round made no calls.
pub enum RoundError {
    /// Prism cannot read the document (an external `$ref` it cannot download, no paths):
    /// the mock's fault, nothing the CLI did.
    Unavailable(String),
    /// Prism, the relay or the CLI could not be run, or Prism stopped answering.
    Failed(String),
}

/// What one run of the CLI did.
struct Ran {
    /// The exit status; `None` when it was killed (timed out) or died of a signal.
    code: Option<i32>,
    timed_out: bool,
    stderr: String,
    stdout_bytes: usize,
}

fn run_cli(
    bin: &Path,
    cli: &apigen::ir::Cli,
    base_url: &str,
    call: &requests::Call,
) -> Result<Ran, String> {
    let mut cmd = Command::new(bin);
    cmd.arg(&call.command)
        .args(["--base-url", base_url, "--json"])
        .args(&call.args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    {
        let var = &cli.key_var;
        cmd.env(var, KEY);
    }
    cmd.env(&cli.user_var, "apigen").env(&cli.password_var, KEY);
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
    let mut out = child.stdout.take().expect("piped stdout");
    let mut err = child.stderr.take().expect("piped stderr");
    let out_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = out.read_to_end(&mut buf);
        buf.len()
    });
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = err.read_to_end(&mut buf);
        String::from_utf8_lossy(&buf).into_owned()
    });
    let started = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if started.elapsed() > CALL_TIMEOUT {
            timed_out = true;
            let _ = child.kill();
            break child.wait().map_err(|e| e.to_string())?;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Ok(Ran {
        code: status.code(),
        timed_out,
        stderr: err_reader.join().unwrap_or_default(),
        stdout_bytes: out_reader.join().unwrap_or(0),
    })
}

/// The call's outcome, from the CLI's exit status and message, what Prism logged, and the
/// answer the relay saw (checked against the document when the CLI could not decode it).
fn classify(
    ran: &Ran,
    seen: &prism::Seen,
    exchange: Option<&proxy::Exchange>,
    doc: &serde_json::Value,
    call: &requests::Call,
    mode: Mode,
) -> (Outcome, String) {
    let said = ran
        .stderr
        .lines()
        .filter(|l| !l.starts_with("warning:"))
        .collect::<Vec<_>>()
        .join(" ");
    if !seen.refused.is_empty() {
        let mut why = seen.reasons.clone();
        why.extend(seen.refused.iter().cloned());
        why.dedup();
        let request = prism::Request {
            method: &call.method,
            form_body: call.form_body,
            multipart_body: call.multipart_body,
            media_type: &call.media_type,
            read_only: &call.read_only,
        };
        if let Some(defect) = prism::defect(seen, &request) {
            return (
                Outcome::MockFault,
                format!("Prism's defect: {defect} ({})", why.join("; ")),
            );
        }
        return (Outcome::Refused, why.join("; "));
    }
    if ran.timed_out {
        return (
            Outcome::Failed,
            format!("no answer within {} s", CALL_TIMEOUT.as_secs()),
        );
    }
    match ran.code {
        Some(0) => (Outcome::Ok, format!("{} bytes of output", ran.stdout_bytes)),
        Some(2) => (Outcome::NotSent, said),
        // Prism answers 5xx only of its own accord (it picks a documented success first):
        // json-schema-faker could not make an answer (prefect's `prefixItems`).
        _ if exchange.is_some_and(|e| e.status >= 500) => {
            let e = exchange.expect("checked");
            (
                Outcome::MockFault,
                format!(
                    "Prism failed to answer ({}): {}",
                    e.status,
                    excerpt(&e.body)
                ),
            )
        }
        _ if !seen.mock_faults.is_empty() => (Outcome::MockFault, seen.mock_faults.join("; ")),
        _ if said.contains("could not decode") => {
            let Some(exchange) = exchange else {
                return (Outcome::Undecoded, said);
            };
            match answer_breaks_document(doc, call, exchange) {
                Some(broken) => {
                    let whose = match mode {
                        Mode::Examples => "the document's example breaks its schema",
                        Mode::Dynamic(_) => "Prism's answer breaks the document",
                    };
                    (Outcome::MockFault, format!("{whose}: {broken}"))
                }
                None => (
                    Outcome::Undecoded,
                    format!(
                        "{said}; the answer to `{}` ({} {}): {}",
                        exchange.request,
                        exchange.status,
                        exchange.header("content-type").unwrap_or("no content type"),
                        excerpt(&exchange.body)
                    ),
                ),
            }
        }
        // An operation that documents errors only (swagger-parser's issue 1032: a 403), whose
        // error the client decoded as its error type: it read what the mock sent.
        Some(1) if said.contains("error response ") && errors_only(doc, call) => (
            Outcome::Ok,
            format!("a documented error, read as the operation's error type: {said}"),
        ),
        Some(code) => (Outcome::Failed, format!("exit status {code}: {said}")),
        None => (Outcome::Failed, format!("killed by a signal: {said}")),
    }
}

/// Removes every `x-` member whose value holds a `$ref` to another file; how many.
fn drop_file_references_in_extensions(value: &mut serde_json::Value) -> usize {
    fn refers_out(value: &serde_json::Value) -> bool {
        match value {
            serde_json::Value::Object(o) => o.iter().any(|(k, v)| {
                (k == "$ref" && v.as_str().is_some_and(|r| !r.starts_with('#'))) || refers_out(v)
            }),
            serde_json::Value::Array(items) => items.iter().any(refers_out),
            _ => false,
        }
    }
    match value {
        serde_json::Value::Object(o) => {
            let before = o.len();
            o.retain(|k, v| !(k.starts_with("x-") && refers_out(v)));
            let mut dropped = before - o.len();
            for v in o.values_mut() {
                dropped += drop_file_references_in_extensions(v);
            }
            dropped
        }
        serde_json::Value::Array(items) => items
            .iter_mut()
            .map(drop_file_references_in_extensions)
            .sum(),
        _ => 0,
    }
}

/// Whether the operation documents no success (no `2XX` status, no `default`): a mock can
/// only answer it with one of its errors.
fn errors_only(doc: &serde_json::Value, call: &requests::Call) -> bool {
    requests::operation(doc, &call.path, &call.method)
        .and_then(|(_, op)| op.get("responses")?.as_object())
        .is_some_and(|responses| {
            !responses.is_empty()
                && responses
                    .keys()
                    .all(|status| !status.starts_with('2') && status != "default")
        })
}

/// Where the answer breaks the document's schema for its status and media type, if it does.
fn answer_breaks_document(
    doc: &serde_json::Value,
    call: &requests::Call,
    exchange: &proxy::Exchange,
) -> Option<String> {
    let schema = requests::response_schema(
        doc,
        &call.path,
        &call.method,
        exchange.status,
        exchange.header("content-type"),
    )?;
    let value: serde_json::Value = match serde_json::from_slice(&exchange.body) {
        Ok(v) => v,
        Err(e) => {
            return Some(format!(
                "the answer is not JSON ({e}): {}",
                excerpt(&exchange.body)
            ));
        }
    };
    let found = check::violations(doc, &schema, &value);
    (!found.is_empty()).then(|| found.join("; "))
}

/// At most 300 characters of a body, as text.
fn excerpt(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    if text.chars().count() > 300 {
        format!("{}…", text.chars().take(300).collect::<String>())
    } else {
        text.into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_referring_to_other_files_are_left_out_of_the_copy() {
        let mut doc = serde_json::json!({
            "paths": {"/a": {"get": {
                "x-codeSamples": [{"lang": "C#", "source": {"$ref": "code/get.cs"}}],
                "x-note": {"$ref": "#/components/x"},
                "responses": {"200": {"$ref": "#/components/responses/Ok"}}
            }}}
        });
        assert_eq!(drop_file_references_in_extensions(&mut doc), 1);
        let get = &doc["paths"]["/a"]["get"];
        assert!(get.get("x-codeSamples").is_none());
        assert!(get.get("x-note").is_some() && get.get("responses").is_some());
    }
}
