//! `cargo xtask real-servers`: generated clients held to real servers nobody here wrote.
//!
//! Each server is an application someone published (npm, PyPI), installed by the harness
//! into `target/real-servers/`, started on a free loopback port, and asked for the document
//! its makers publish (fetched from the running server). The harness generates the client and
//! the CLI from that document, builds the CLI, and calls the server through a recording relay
//! (`calls::proxy`): a scenario a frontend team would run (create, read, list, update,
//! delete, each step feeding the next its ids) and a sweep of every operation that needs no
//! prior state (a `GET` without path parameters, with the values the document's schemas
//! give). Every call is classified (see [`Outcome`]); an answer the CLI could not decode is
//! checked against its schema by the harness's own checker (`calls::check`), which says
//! whether the document or the client is at fault.
//!
//! `--fast` (CI) runs the servers that install in seconds, `--shared-target` builds beside the
//! repository's own crates (CI); the whole run writes
//! `docs/reports/real-servers.md`, a run with `--fast` or `--only` `target/real-servers/report.md`.
//! Exit status 1 when a call fails where the server answered success, an answer that fits its
//! schema does not decode, or the server refuses a request for how the client wrote it.

use std::fmt::Write as _;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::calls::{check, proxy, requests};

mod servers;

use servers::{Expect, SERVERS, Server};

/// How long a server may take to answer its document after it was started.
const READY: Duration = Duration::from_secs(90);
/// How long one call may take.
const CALL_TIMEOUT: Duration = Duration::from_secs(30);

/// What became of one call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    /// A success, read as its documented type.
    Ok,
    /// A success whose status the document does not list, read as its documented success.
    Undocumented,
    /// An error answer the scenario expects (a read after the delete).
    Expected,
    /// The server refused the request (4XX), with its reason: the document's fault or the
    /// server's unless it is how the client wrote it (then it fails the run).
    Refused,
    /// The server failed (5XX).
    ServerError,
    /// A redirect the document does not describe (3XX: the client follows none).
    Redirected,
    /// The answer did not decode, and does not fit its schema either: the document's fault.
    DocumentFault,
    /// The answer fits its schema and did not decode, or a success failed: the client's fault.
    ClientFault,
    /// Nothing was sent (a usage error), or the call could not be made.
    NotSent,
}

impl Outcome {
    fn label(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Undocumented => "undocumented status read",
            Outcome::Expected => "expected error",
            Outcome::Refused => "refused by the server",
            Outcome::ServerError => "server error",
            Outcome::Redirected => "redirected (3XX, not followed)",
            Outcome::DocumentFault => "not decoded: the document's fault",
            Outcome::ClientFault => "the client's fault",
            Outcome::NotSent => "not sent",
        }
    }
}

/// One call as the table shows it.
struct Called {
    what: String,
    outcome: Outcome,
    detail: String,
}

/// One server's run.
struct Run {
    server: &'static Server,
    /// `title version`, the OpenAPI version and the number of operations.
    document: String,
    calls: Vec<Called>,
    /// Why the server could not be called at all (not installed, not started, not generated).
    failed: Option<String>,
}

pub fn main(args: &[String]) -> Result<(), String> {
    let fast = args.iter().any(|a| a == "--fast");
    let shared = args.iter().any(|a| a == "--shared-target");
    let only: Vec<&str> = args
        .windows(2)
        .filter(|w| w[0] == "--only")
        .map(|w| w[1].as_str())
        .collect();
    let root = crate::codegen::root().join("target/real-servers");
    std::fs::create_dir_all(&root).map_err(|e| format!("{}: {e}", root.display()))?;
    let chosen: Vec<&'static Server> = SERVERS
        .iter()
        .filter(|s| !fast || s.fast)
        .filter(|s| only.is_empty() || only.contains(&s.name))
        .collect();
    let started = Instant::now();
    let mut runs = Vec::new();
    for server in chosen {
        eprintln!("real-servers: {} ({})", server.name, server.package);
        runs.push(run(server, &root, shared));
    }
    let report = render(&runs, started.elapsed().as_secs_f64());
    let whole = !fast && only.is_empty();
    let out = if whole {
        crate::codegen::root().join("docs/reports/real-servers.md")
    } else {
        root.join("report.md")
    };
    std::fs::write(&out, &report).map_err(|e| format!("{}: {e}", out.display()))?;
    println!("{report}");
    eprintln!("report written to {}", out.display());
    let failing: Vec<String> = runs
        .iter()
        .flat_map(|r| {
            let mut out: Vec<String> = r
                .calls
                .iter()
                .filter(|c| c.outcome == Outcome::ClientFault)
                .map(|c| format!("{}: {}: {}", r.server.name, c.what, c.detail))
                .collect();
            out.extend(r.failed.iter().map(|f| format!("{}: {f}", r.server.name)));
            out
        })
        .collect();
    if failing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} failing:\n{}",
            failing.len(),
            failing.join("\n")
        ))
    }
}

fn run(server: &'static Server, root: &Path, shared: bool) -> Run {
    let mut out = Run {
        server,
        document: String::new(),
        calls: Vec::new(),
        failed: None,
    };
    if let Err(e) = call_server(server, root, shared, &mut out) {
        out.failed = Some(e);
    }
    out
}

fn call_server(
    server: &'static Server,
    root: &Path,
    shared: bool,
    out: &mut Run,
) -> Result<(), String> {
    let dir = root.join(server.name);
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let installed = dir.join(".installed");
    if !installed.exists() {
        (server.install)(&dir)?;
        std::fs::write(&installed, server.package).map_err(|e| e.to_string())?;
    }
    let port = free_port()?;
    let mut child = Guard((server.start)(&dir, port)?);
    let base = format!("http://127.0.0.1:{port}");
    let document_url = format!("{base}{}", server.document);
    let text = wait_for(&document_url, server.fetch_headers, &child.0)?;
    eprintln!("real-servers: {}: document at {document_url}", server.name);
    // As served: JSON, or YAML (named so, for the reader).
    let raw: serde_json::Value = serde_json::from_str(&text)
        .or_else(|_| serde_yaml::from_str(&text))
        .unwrap_or_default();
    let json_text = text.trim_start().starts_with('{');
    let doc_path = dir.join(if json_text {
        "document.json"
    } else {
        "document.yaml"
    });
    std::fs::write(&doc_path, &text).map_err(|e| e.to_string())?;
    let ws = root.join("ws");
    let (json, api, cli) = generate(&doc_path, server.name, &ws)?;
    out.document = format!(
        "{} {} ({}, {} operations)",
        api.title,
        api.version,
        raw.get("openapi")
            .map(|v| format!("OpenAPI {}", v.as_str().unwrap_or("?")))
            .or_else(|| raw
                .get("swagger")
                .map(|v| format!("Swagger {}", v.as_str().unwrap_or("?"))))
            .unwrap_or_else(|| "?".into()),
        api.operations.len()
    );
    eprintln!("real-servers: {}: generated; building its CLI", server.name);
    let bin = build_cli(root, server.name, shared)?;
    eprintln!("real-servers: {}: calling", server.name);
    let relay = proxy::Proxy::start(port)?;
    let prefix = api
        .servers
        .first()
        .map(|s| path_of(&s.url))
        .unwrap_or_default();
    let base_url = format!("http://127.0.0.1:{}{prefix}", relay.port);
    // The scenario, each step's captures feeding the later ones.
    let mut vars: Vec<(String, String)> = Vec::new();
    for step in (server.steps)() {
        let args: Vec<String> = step.args.iter().map(|a| substitute(a, &vars)).collect();
        let ran = run_cli(&bin, &base_url, &args)?;
        let exchanges = relay.take();
        let exchange = exchanges.last();
        let (outcome, detail) = classify(&ran, exchange, &json, &api, &cli, &args, step.expect);
        if let (Some((var, pointer)), 0) = (step.capture, ran.code.unwrap_or(1)) {
            let value: serde_json::Value = serde_json::from_slice(&ran.stdout)
                .map_err(|e| format!("{}: the answer is not JSON: {e}", step.label))?;
            let found = value
                .pointer(pointer)
                .ok_or_else(|| format!("{}: no {pointer} in the answer", step.label))?;
            let text = match found {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            vars.push((var.to_string(), text));
        }
        out.calls.push(Called {
            what: format!("{}: `{}`", step.label, args.join(" ")),
            outcome,
            detail,
        });
    }
    // The sweep: every `GET` without path parameters, as the document's values make it.
    for call in requests::calls(&json, &api, &cli, 1) {
        if call.method != "GET" || call.path.contains('{') || call.problem.is_some() {
            continue;
        }
        let mut args = vec![call.command.clone()];
        args.extend(call.args.iter().cloned());
        let mut with_auth: Vec<String> = server.auth.iter().map(|a| a.to_string()).collect();
        with_auth.extend(args);
        let ran = run_cli(&bin, &base_url, &with_auth)?;
        let exchanges = relay.take();
        let (outcome, detail) = classify(
            &ran,
            exchanges.last(),
            &json,
            &api,
            &cli,
            &with_auth,
            Expect::Success,
        );
        out.calls.push(Called {
            what: format!("sweep: `{} {}`", call.method, call.path),
            outcome,
            detail,
        });
    }
    drop(relay);
    child.stop();
    Ok(())
}

/// The path of a server URL (`/v1` of `http://h/v1/`, or of `/v1`), without a trailing slash.
fn path_of(url: &str) -> String {
    let rest = match url.split_once("://") {
        Some((_, rest)) => rest.find('/').map_or("", |i| &rest[i..]),
        None => url,
    };
    rest.trim_end_matches('/').to_string()
}

fn substitute(arg: &str, vars: &[(String, String)]) -> String {
    let mut out = arg.to_string();
    for (name, value) in vars {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

/// A started server, stopped when dropped.
struct Guard(Child);

impl Guard {
    fn stop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        if let Ok(None) = self.0.try_wait() {
            self.stop();
        }
    }
}

fn free_port() -> Result<u16, String> {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| format!("no free port: {e}"))
}

/// `GET url` (with `headers`) by Python's standard library, which every machine here has:
/// the body of a 200, else `Err`.
pub(crate) fn http_get(url: &str, headers: &[(&str, &str)]) -> Result<String, String> {
    let script = "import sys, urllib.request\n\
        r = urllib.request.Request(sys.argv[1])\n\
        for h in sys.argv[2:]:\n\
        \x20   k, v = h.split(':', 1)\n\
        \x20   r.add_header(k, v.strip())\n\
        sys.stdout.buffer.write(urllib.request.urlopen(r, timeout=10).read())\n";
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(url)
        .args(headers.iter().map(|(k, v)| format!("{k}: {v}")))
        .env_remove("http_proxy")
        .env_remove("HTTP_PROXY")
        .output()
        .map_err(|e| format!("cannot run python3: {e}"))?;
    if out.status.success() {
        String::from_utf8(out.stdout).map_err(|e| e.to_string())
    } else {
        Err(String::from_utf8_lossy(&out.stderr)
            .lines()
            .last()
            .unwrap_or("no answer")
            .to_string())
    }
}

/// The document, once the server answers it (or why not: the server stopped, or never did).
fn wait_for(url: &str, headers: &[(&str, &str)], child: &Child) -> Result<String, String> {
    let started = Instant::now();
    let mut last = String::new();
    let pid = child.id();
    while started.elapsed() < READY {
        match http_get(url, headers) {
            Ok(text) => return Ok(text),
            Err(e) => last = e,
        }
        if !Path::new(&format!("/proc/{pid}")).exists() {
            return Err(format!(
                "the server stopped before it answered {url}: {last}"
            ));
        }
        std::thread::sleep(Duration::from_millis(300));
    }
    Err(format!(
        "no answer from {url} within {} s: {last}",
        READY.as_secs()
    ))
}

/// Generates the client and the CLI into `ws` (as `calls` does) and reads the CLI's plan.
fn generate(
    doc: &Path,
    name: &str,
    ws: &Path,
) -> Result<(serde_json::Value, apigen::ir::Api, apigen::ir::Cli), String> {
    let document = crate::corpus_docs::Document::single(doc);
    crate::calls::generate_into(&document, &format!("real-servers/{name}"), name, ws)
}

/// Builds the CLI of `name` in the harness's workspace (every server's crates are members),
/// with the repository's lock file; with `shared`, in `target/` with the repository's dev
/// profile, beside what the test step built (CI), else in `target/real-servers/target`.
fn build_cli(root: &Path, name: &str, shared: bool) -> Result<PathBuf, String> {
    let ws = root.join("ws");
    let mut members: Vec<String> = std::fs::read_dir(&ws)
        .map_err(|e| e.to_string())?
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("Cargo.toml").exists())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    members.sort();
    let repository = crate::codegen::root();
    let (target, profile) = if shared {
        (
            repository.join("target"),
            crate::corpus::repository_profile(&repository)?,
        )
    } else {
        (root.join("target"), String::new())
    };
    crate::corpus::write_workspace_with(&ws, &repository, &members, &profile)?;
    let status = crate::corpus::cargo()
        .args(["build", "--quiet", "-p", &format!("{name}-cli")])
        .current_dir(&ws)
        .env("CARGO_TARGET_DIR", &target)
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(format!("the CLI of {name} does not build"));
    }
    Ok(target.join(format!("debug/{name}-cli")))
}

/// What one run of the CLI did.
struct Ran {
    code: Option<i32>,
    stdout: Vec<u8>,
    stderr: String,
}

fn run_cli(bin: &Path, base_url: &str, args: &[String]) -> Result<Ran, String> {
    let mut child = Command::new(bin)
        .args(["--base-url", base_url, "--raw"])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let out = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stdout.read_to_end(&mut buf);
        buf
    });
    let err = std::thread::spawn(move || {
        let mut buf = String::new();
        let _ = stderr.read_to_string(&mut buf);
        buf
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if started.elapsed() > CALL_TIMEOUT {
            let _ = child.kill();
            break child.wait().map_err(|e| e.to_string())?;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Ok(Ran {
        code: status.code(),
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    })
}

/// The call's outcome, from the CLI's exit status and words and the answer the relay saw.
fn classify(
    ran: &Ran,
    exchange: Option<&proxy::Exchange>,
    doc: &serde_json::Value,
    api: &apigen::ir::Api,
    cli: &apigen::ir::Cli,
    args: &[String],
    expect: Expect,
) -> (Outcome, String) {
    let said: String = ran
        .stderr
        .lines()
        .find(|l| l.starts_with("error:"))
        .unwrap_or("")
        .to_string();
    let status = exchange.map(|e| e.status);
    let answered = |e: &proxy::Exchange| {
        format!(
            "{} → {} {}",
            e.request,
            e.status,
            excerpt(&e.body).replace('\n', " ")
        )
    };
    match ran.code {
        Some(0) if ran.stderr.contains("a status the document does not list") => {
            let e = exchange.map(answered).unwrap_or_default();
            (Outcome::Undocumented, e)
        }
        Some(0) => (
            Outcome::Ok,
            exchange
                .map(|e| format!("{} → {}", e.request, e.status))
                .unwrap_or_default(),
        ),
        Some(2) => (Outcome::NotSent, said),
        _ if said.contains("could not decode") => {
            let Some(e) = exchange else {
                return (Outcome::ClientFault, said);
            };
            match breaks_schema(doc, api, cli, args, e) {
                Ok(Some(why)) => (
                    Outcome::DocumentFault,
                    format!("{said}; the answer breaks its schema: {why}"),
                ),
                Ok(None) => (
                    Outcome::ClientFault,
                    format!("{said}; the answer fits its schema: {}", answered(e)),
                ),
                Err(why) => (Outcome::ClientFault, format!("{said}; not checked: {why}")),
            }
        }
        _ => match status {
            Some(s) if expect == Expect::Failure && s >= 400 => (Outcome::Expected, said),
            Some(s) if (200..300).contains(&s) => {
                (Outcome::ClientFault, format!("a success failed: {said}"))
            }
            Some(s) if (400..500).contains(&s) => (Outcome::Refused, said),
            Some(s) if s >= 500 => (Outcome::ServerError, said),
            Some(s) if (300..400).contains(&s) => (
                Outcome::Redirected,
                exchange
                    .and_then(|e| e.header("location"))
                    .map(|l| format!("{said} (Location: {l})"))
                    .unwrap_or(said),
            ),
            _ => (Outcome::NotSent, format!("no answer: {said}")),
        },
    }
}

/// Why the answer does not fit the schema its operation documents for its status, if so;
/// `Err` when there is no schema to hold it to.
fn breaks_schema(
    doc: &serde_json::Value,
    api: &apigen::ir::Api,
    cli: &apigen::ir::Cli,
    args: &[String],
    e: &proxy::Exchange,
) -> Result<Option<String>, String> {
    let op = args
        .iter()
        .find_map(|a| cli.commands.iter().find(|c| &c.name == a))
        .map(|c| &api.operations[c.operation])
        .ok_or("no command in the arguments")?;
    let schema = requests::response_schema(
        doc,
        &op.path,
        &op.method,
        e.status,
        e.header("content-type"),
    )
    .ok_or_else(|| format!("no schema for {} {} {}", op.method, op.path, e.status))?;
    let value: serde_json::Value = match serde_json::from_slice(&e.body) {
        Ok(v) => v,
        Err(err) => return Ok(Some(format!("not JSON ({err})"))),
    };
    let found = check::violations(doc, &schema, &value);
    Ok((!found.is_empty()).then(|| found.join("; ")))
}

fn excerpt(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    if text.chars().count() > 160 {
        format!("{}…", text.chars().take(160).collect::<String>())
    } else {
        text.into_owned()
    }
}

fn render(runs: &[Run], secs: f64) -> String {
    let mut out = String::new();
    let commit = Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "# Generated clients against real servers\n\nWritten by `cargo xtask real-servers` on {commit} ({secs:.0} s). Each server is an application \
        its makers published, installed from its registry and started on loopback; its document is the one it serves. \
        Every call goes through the generated CLI (and so the generated client). Outcomes: ok; undocumented \
        status read (a success the document does not list, read as its documented success); expected error (a read \
        after the delete); refused by the server (4XX, with its words); server error (5XX); redirected (a 3XX the \
        document does not describe; the client follows none); not decoded, with \
        whose fault it is by the harness's own schema checker; the client's fault (fails the run); not sent.\n"
    );
    let _ = writeln!(
        out,
        "| server | framework | document | calls | ok | undocumented status read | expected error | refused | server error | redirected | document's fault | client's fault | not sent |\n|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    for r in runs {
        let n = |o: Outcome| r.calls.iter().filter(|c| c.outcome == o).count();
        let document = match &r.failed {
            Some(f) if r.document.is_empty() => format!("not called: {}", f.replace('|', "\\|")),
            _ => r.document.clone(),
        };
        let _ = writeln!(
            out,
            "| {} ({}) | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.server.name,
            r.server.package,
            r.server.framework,
            document,
            r.calls.len(),
            n(Outcome::Ok),
            n(Outcome::Undocumented),
            n(Outcome::Expected),
            n(Outcome::Refused),
            n(Outcome::ServerError),
            n(Outcome::Redirected),
            n(Outcome::DocumentFault),
            n(Outcome::ClientFault),
            n(Outcome::NotSent),
        );
    }
    for r in runs {
        let _ = writeln!(out, "\n## {}\n", r.server.name);
        if let Some(f) = &r.failed {
            let _ = writeln!(out, "Stopped: {f}\n");
        }
        for c in &r.calls {
            let _ = writeln!(
                out,
                "- {} — **{}**{}",
                c.what,
                c.outcome.label(),
                if c.detail.is_empty() {
                    String::new()
                } else {
                    format!(": {}", c.detail.replace('\n', " "))
                }
            );
        }
    }
    out
}
