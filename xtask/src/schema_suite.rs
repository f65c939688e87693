//! `cargo xtask schema-suite [--draft 2020-12|4] [--filter S]...`: JSON Schema's own test
//! suite held against a generated server and client.
//!
//! The suite's files (`tests/fixtures/json-schema-suite/<draft>/`, copied with their origin in
//! that folder's README) are lists of groups, each a schema and values with `valid: true` or
//! `false`. Every group becomes one `POST` operation of one generated document whose required
//! JSON body is the group's schema (`document.rs`); the server crate's mock program is built
//! and started on a free loopback port, and every value is sent: a valid one must reach the
//! implementation (`204`), an invalid one must be refused with `400`. The client crate's types
//! decode every valid value (a small program built beside it, `decode.rs`). A group the
//! generator refuses is set aside with its located error and counted as lost, never skipped
//! silently. What apigen does not hold by decision is listed in `decisions.rs` with why; the
//! rest is expected to pass. The table (per file) is printed and written to
//! `target/schema-suite/<draft>/report.md`, every failing case beside it in `failures.md`.

use std::collections::BTreeMap;
use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::corpus;

mod decisions;
mod decode;
mod document;
mod report;

use document::{Group, document, group_of_pointer, read_groups};
use report::{Outcome, Tally};

const COMMAND: &str = "cargo xtask schema-suite";
const SUITE: &str = "tests/fixtures/json-schema-suite";
const START_TIMEOUT: Duration = Duration::from_secs(30);

#[derive(Debug, Clone, PartialEq)]
struct Args {
    /// `draft2020-12` or `draft4`.
    drafts: Vec<String>,
    /// Groups whose label (`file.json #N`) holds any of these (all when none).
    filters: Vec<String>,
    /// Build in the repository's target directory with its dev profile (`--shared-target`,
    /// CI: the dependencies the test step built are reused).
    shared_target: bool,
}

impl Args {
    fn parse(args: &[String]) -> Result<Args, String> {
        let mut out = Args {
            drafts: Vec::new(),
            filters: Vec::new(),
            shared_target: false,
        };
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            match arg.as_str() {
                "--draft" => {
                    let d = it.next().ok_or("--draft needs 2020-12 or 4")?;
                    let d = d.trim_start_matches("draft");
                    match d {
                        "2020-12" | "4" => out.drafts.push(format!("draft{d}")),
                        _ => return Err(format!("--draft {d}: 2020-12 or 4")),
                    }
                }
                "--shared-target" => out.shared_target = true,
                "--filter" => out
                    .filters
                    .push(it.next().ok_or("--filter needs a text")?.clone()),
                other => return Err(format!("schema-suite: unknown argument `{other}`")),
            }
        }
        if out.drafts.is_empty() {
            out.drafts = vec!["draft2020-12".into(), "draft4".into()];
        }
        Ok(out)
    }
}

pub fn main(args: &[String]) -> Result<(), String> {
    let args = Args::parse(args)?;
    let root = crate::codegen::root();
    let root = root.canonicalize().unwrap_or(root);
    let mut failing = Vec::new();
    for draft in &args.drafts {
        let (tally, stale) = run_draft(&root, draft, &args)?;
        if tally.unexpected() > 0 {
            failing.push(format!("{draft}: {} unexpected", tally.unexpected()));
        }
        if !stale.is_empty() {
            failing.push(format!(
                "{draft}: listed as open but passing now (remove them from the list): {}",
                stale.join(", ")
            ));
        }
    }
    if failing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "schema-suite: cases fail that {} does not set aside: {}",
            decisions::WHERE,
            failing.join("; ")
        ))
    }
}

/// One draft's run: its tally, and the groups listed as open that pass now.
fn run_draft(root: &Path, draft: &str, args: &Args) -> Result<(Tally, Vec<String>), String> {
    let filters = &args.filters;
    let started = Instant::now();
    let groups = read_groups(&root.join(SUITE).join(draft))?;
    let groups: Vec<&Group> = groups
        .iter()
        .filter(|g| filters.is_empty() || filters.iter().any(|f| g.label().contains(f)))
        .collect();
    let commit = fs::read_to_string(root.join(SUITE).join("README.md"))
        .ok()
        .and_then(|t| {
            t.split_whitespace()
                .find(|w| w.len() == 40 && w.chars().all(|c| c.is_ascii_hexdigit()))
                .map(str::to_string)
        })
        .unwrap_or_else(|| "unknown".into());
    let out = root.join("target/schema-suite").join(draft);
    let ws = out.join("ws");
    fs::create_dir_all(&ws).map_err(|e| format!("cannot create {}: {e}", ws.display()))?;

    // 1. Generate, setting aside each group the generator refuses (with its error).
    let mut outcomes: BTreeMap<String, Outcome> = BTreeMap::new();
    let mut kept: Vec<&Group> = groups.clone();
    let slug = format!("suite-{}", draft.replace('-', ""));
    let (output, api) = loop {
        let doc = document(draft, &commit, &kept);
        let text = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
        let spec = out.join("openapi.json");
        fs::write(&spec, &text).map_err(|e| format!("cannot write {}: {e}", spec.display()))?;
        let options = apigen::Options {
            name: slug.clone(),
            spec_label: "openapi.json".into(),
            command: COMMAND.into(),
            runtime: crate::codegen::runtime_beside(&ws.join(format!("{slug}-server"))),
            ..Default::default()
        };
        let generated = {
            let (text, options) = (text.clone(), options.clone());
            corpus::guarded(move || {
                apigen::generate(&text, &options)
                    .and_then(|out| apigen::model(&text, &options).map(|(api, _)| (out, api)))
            })
            .0
        };
        match generated {
            Ok(Ok(pair)) => break pair,
            Ok(Err(diagnostics)) => {
                let first = diagnostics
                    .0
                    .first()
                    .ok_or("the generator refused, saying nothing")?;
                let Some(group) = group_of_pointer(&first.pointer, &kept) else {
                    return Err(format!(
                        "the generator refused the whole document: {diagnostics}"
                    ));
                };
                let message = format!("{}: {}", first.pointer, first.message);
                eprintln!(
                    "schema-suite: {} refused by the generator: {message}",
                    group.label()
                );
                outcomes.insert(group.name(), Outcome::Refused(message));
                kept.retain(|g| g.name() != group.name());
            }
            Err(panic) => return Err(format!("the generator panicked: {panic}")),
        }
    };
    let files: BTreeMap<String, String> = output
        .files
        .into_iter()
        .filter(|(path, _)| path.starts_with("server/") || path.starts_with("client/"))
        .collect();
    corpus::write_crates(&ws, &slug, &files)?;
    let decoder = decode::write_program(&ws, &slug, &api, &kept)?;
    let members = vec![
        format!("{slug}-server"),
        format!("{slug}-client"),
        decoder.clone(),
    ];
    let (target, profile) = if args.shared_target {
        (
            root.join("target"),
            crate::corpus::repository_profile(root)?,
        )
    } else {
        (
            root.join("target/schema-suite/target"),
            "\n[profile.dev]\ndebug = 0\n".to_string(),
        )
    };
    corpus::write_workspace_with(&ws, root, &members, &profile)?;

    // 2. Build the mock program and the decoder.
    let status = corpus::cargo()
        .args(["build", "--bins", "--features"])
        .arg(format!("{slug}-server/mock"))
        .args(["-p", &format!("{slug}-server"), "-p", &decoder])
        .arg("--manifest-path")
        .arg(ws.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&target)
        .status()
        .map_err(|e| format!("cannot run cargo build: {e}"))?;
    if !status.success() {
        return Err(format!(
            "schema-suite: the generated crates of {draft} do not build ({status}); see above"
        ));
    }
    let bin = |name: &str| {
        target
            .join("debug")
            .join(format!("{name}{}", std::env::consts::EXE_SUFFIX))
    };

    // 3. Every value to the server, every valid one to the client's types.
    let server = serve(&bin(&format!("{slug}-server-mock")), &out)?;
    let decoded = decode::run(&bin(&decoder), &out, &kept)?;
    for group in &kept {
        let mut results = Vec::new();
        for (i, case) in group.cases.iter().enumerate() {
            let answer = post(&server.address, &group.path(), &case.data);
            let client = decoded.get(&(group.name(), i)).cloned();
            results.push(report::judge(case, answer, client));
        }
        outcomes.insert(group.name(), Outcome::Ran(results));
    }
    drop(server);

    // 4. Report.
    let table = report::render(draft, &commit, &groups, &outcomes, started.elapsed());
    let failures = report::failures(&groups, &outcomes);
    fs::write(out.join("report.md"), &table).map_err(|e| e.to_string())?;
    fs::write(out.join("failures.md"), &failures).map_err(|e| e.to_string())?;
    println!("{table}");
    println!(
        "report written to {}, failing cases to {}",
        out.join("report.md").display(),
        out.join("failures.md").display()
    );
    let stale = groups
        .iter()
        .filter(|g| decisions::open(g).is_some())
        .filter(|g| matches!(outcomes.get(&g.name()), Some(Outcome::Ran(r)) if r.iter().all(report::CaseResult::passes)))
        .map(|g| g.label())
        .collect();
    Ok((report::tally(&groups, &outcomes), stale))
}

/// The mock program, killed when dropped.
struct Server {
    child: Child,
    address: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(binary: &Path, out: &Path) -> Result<Server, String> {
    let log = fs::File::create(out.join("server.log")).map_err(|e| e.to_string())?;
    let mut child = Command::new(binary)
        .args(["--port", "0", "--no-idempotency"])
        .stdout(Stdio::piped())
        .stderr(Stdio::from(log))
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let line = rx.recv_timeout(START_TIMEOUT).map_err(|_| {
        format!(
            "the mock did not start; see {}",
            out.join("server.log").display()
        )
    })?;
    let url = line
        .rsplit_once("listening on ")
        .map(|(_, url)| url.trim().to_string())
        .ok_or_else(|| format!("the mock said `{line}`"))?;
    let address = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    Ok(Server { child, address })
}

/// What the server answered: its status and the start of its body.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: u16,
    pub body: String,
}

/// One `POST` of `data` as JSON over a new connection (HTTP/1.1, closed after the answer).
fn post(address: &str, path: &str, data: &Value) -> Result<Answer, String> {
    let body = data.to_string();
    let mut stream = TcpStream::connect(address).map_err(|e| format!("connect: {e}"))?;
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .map_err(|e| e.to_string())?;
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream
        .write_all(request.as_bytes())
        .map_err(|e| format!("send: {e}"))?;
    let mut answer = Vec::new();
    stream
        .read_to_end(&mut answer)
        .map_err(|e| format!("read: {e}"))?;
    let text = String::from_utf8_lossy(&answer);
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("not an HTTP answer: {}", text.lines().next().unwrap_or("")))?;
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.chars().take(300).collect())
        .unwrap_or_default();
    Ok(Answer { status, body })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments() {
        let args = |a: &[&str]| Args::parse(&a.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(args(&[]).unwrap().drafts, ["draft2020-12", "draft4"]);
        assert_eq!(args(&["--draft", "4"]).unwrap().drafts, ["draft4"]);
        assert_eq!(
            args(&["--draft", "draft2020-12"]).unwrap().drafts,
            ["draft2020-12"]
        );
        assert!(args(&["--draft", "7"]).is_err());
        assert_eq!(args(&["--filter", "oneOf"]).unwrap().filters, ["oneOf"]);
        assert!(args(&["--what"]).is_err());
    }
}
