//! Prism (npm `@stoplight/prism-cli`, pinned in `scripts/prism/package-lock.json`): installed
//! with `npm ci` when missing, started on a free loopback port for one document, and its log
//! read call by call.
//!
//! Prism writes one log line per step of each request it handles (`Request received`, the
//! validator's findings, `Violation: request…`/`Violation: response…`, `Request terminated
//! with error: …`). Calls are made one at a time; after each, the harness sends Prism a
//! request of its own to a path no document has (a *fence*) and reads the log up to the fence's
//! `Request received`: everything before it belongs to the call.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// The fence's path; no document names it.
const FENCE: &str = "/__apigen_calls_fence";
/// How long Prism may take to read a document and listen (the largest corpus documents take
/// about half a minute on a busy machine).
const START_TIMEOUT: Duration = Duration::from_secs(600);

/// `scripts/prism/node_modules/.bin/prism`, installed with `npm ci` (the lock file's
/// versions) when it is not there yet.
pub fn install(root: &Path) -> Result<PathBuf, String> {
    let dir = root.join("scripts/prism");
    let bin = dir.join("node_modules/.bin/prism");
    if bin.exists() {
        return Ok(bin);
    }
    eprintln!("calls: installing Prism (npm ci in {})", dir.display());
    let status = Command::new("npm")
        .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
        .current_dir(&dir)
        .status()
        .map_err(|e| format!("cannot run npm (Node.js and npm are needed for Prism): {e}"))?;
    if !status.success() || !bin.exists() {
        return Err(format!("npm ci in {} failed: {status}", dir.display()));
    }
    Ok(bin)
}

/// How Prism answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// `-d --seed N`: random answers valid by the schemas, the same for the same seed.
    Dynamic(u64),
    /// The document's own examples (a static answer built from the schema where it has none).
    Examples,
}

impl Mode {
    pub fn label(self) -> String {
        match self {
            Mode::Dynamic(seed) => format!("dynamic, seed {seed}"),
            Mode::Examples => "examples".into(),
        }
    }
}

/// A running Prism; stopped when dropped.
pub struct Prism {
    child: Child,
    pub port: u16,
    lines: Receiver<String>,
    /// Every line read so far, for the log file.
    pub log: Vec<String>,
    fences: usize,
}

impl Prism {
    pub fn start(bin: &Path, document: &Path, mode: Mode) -> Result<Prism, String> {
        let port = free_port()?;
        let mut cmd = Command::new(bin);
        cmd.arg("mock")
            .arg(document)
            .args(["--host", "127.0.0.1", "--port"])
            .arg(port.to_string());
        if let Mode::Dynamic(seed) = mode {
            cmd.args(["--dynamic", "--seed"]).arg(seed.to_string());
        }
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start Prism ({}): {e}", bin.display()))?;
        let (tx, lines) = channel();
        for stream in [
            child
                .stdout
                .take()
                .map(|s| Box::new(s) as Box<dyn Read + Send>),
            child
                .stderr
                .take()
                .map(|s| Box::new(s) as Box<dyn Read + Send>),
        ]
        .into_iter()
        .flatten()
        {
            let tx = tx.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines() {
                    let Ok(line) = line else { break };
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            });
        }
        let mut prism = Prism {
            child,
            port,
            lines,
            log: Vec::new(),
            fences: 0,
        };
        let started = Instant::now();
        loop {
            match prism.lines.recv_timeout(Duration::from_millis(200)) {
                Ok(line) => {
                    let ready = line.contains("Prism is listening on");
                    prism.log.push(line);
                    if ready {
                        return Ok(prism);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {}
            }
            if let Ok(Some(status)) = prism.child.try_wait() {
                while let Ok(line) = prism.lines.try_recv() {
                    prism.log.push(line);
                }
                // Its own message is the `fatal` line; then comes its usage text.
                let why = prism
                    .log
                    .iter()
                    .position(|l| l.contains("fatal"))
                    .map(|i| {
                        prism.log[i..]
                            .iter()
                            .take(2)
                            .map(|l| message(l))
                            .collect::<Vec<_>>()
                            .join(" ")
                    })
                    .unwrap_or_else(|| tail(&prism.log, 12));
                return Err(format!("Prism stopped before listening ({status}): {why}"));
            }
            if started.elapsed() > START_TIMEOUT {
                return Err(format!(
                    "Prism did not listen within {} s: {}",
                    START_TIMEOUT.as_secs(),
                    tail(&prism.log, 12)
                ));
            }
        }
    }

    /// Sends the fence and returns the log lines since the previous one: what Prism logged
    /// about the call made in between.
    pub fn fence(&mut self) -> Result<Vec<String>, String> {
        self.fences += 1;
        let path = format!("{FENCE}/{}", self.fences);
        let mut stream = TcpStream::connect(("127.0.0.1", self.port))
            .map_err(|e| format!("cannot reach Prism for the fence: {e}"))?;
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .map_err(|e| e.to_string())?;
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        )
        .map_err(|e| format!("cannot send the fence: {e}"))?;
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        let marker = format!("get {path} ");
        let mut block = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.log.push(line.clone());
                    if line.contains(&marker) && line.contains("Request received") {
                        break;
                    }
                    block.push(line);
                }
                Err(_) => return Err("Prism's log did not show the fence".into()),
            }
        }
        // The fence's own lines (its 404) come after; they are dropped at the next fence
        // by the marker test below.
        Ok(block.into_iter().filter(|l| !l.contains(FENCE)).collect())
    }
}

impl Drop for Prism {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> Result<u16, String> {
    let listener = TcpListener::bind("127.0.0.1:0")
        .map_err(|e| format!("cannot find a free loopback port: {e}"))?;
    listener
        .local_addr()
        .map(|a| a.port())
        .map_err(|e| e.to_string())
}

fn tail(lines: &[String], n: usize) -> String {
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// What Prism's log says about one call.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Seen {
    /// Requests Prism received (more than one: the client retried).
    pub requests: usize,
    /// Why Prism refused the request: it breaks the document.
    pub refused: Vec<String>,
    /// Where Prism's own answer breaks the document, or Prism failed to build one.
    pub mock_faults: Vec<String>,
    /// The validator's findings about the request (`Request query must have required
    /// property 'x'`), which say why a refusal was made.
    pub reasons: Vec<String>,
}

/// Prism's own defects a refusal may come from, each checked by hand against Prism 5.14.2:
/// the reason Prism gives (a substring of its validator's message) and what is wrong.
const DEFECTS: &[(&str, &str)] = &[(
    // fitbit's `filter[organization]`: 422 whether the client writes `filter[organization]`,
    // `filter%5Borganization%5D` or `filter%5borganization%5d`.
    "%5b",
    "Prism cannot match a query parameter whose name holds `[` or `]`: it looks for the percent-encoded name among the decoded ones, however the request spells it",
)];

/// The Prism defect behind a refusal, when its reasons name one.
pub fn defect(seen: &Seen) -> Option<&'static str> {
    DEFECTS.iter().find_map(|(mark, why)| {
        seen.reasons
            .iter()
            .any(|r| r.starts_with("Request query must have required property") && r.contains(mark))
            .then_some(*why)
    })
}

/// The document as Prism gets it: where an integer's `format` is one of the format
/// registry's (`int8`…`uint64`) and its bounds do not already say so, the format's range is
/// written as `minimum`/`maximum`. Prism's generator ignores these formats (nexus's `uint16`
/// fields got 30818977), so its answers broke the document; nothing else is changed. `None`
/// when nothing needed writing.
pub fn with_format_bounds(doc: &serde_json::Value) -> Option<serde_json::Value> {
    fn walk(v: &mut serde_json::Value, changed: &mut bool) {
        match v {
            serde_json::Value::Object(map) => {
                let integer = match map.get("type") {
                    Some(serde_json::Value::String(t)) => t == "integer",
                    Some(serde_json::Value::Array(ts)) => ts.iter().any(|t| t == "integer"),
                    _ => false,
                };
                let range = map
                    .get("format")
                    .and_then(serde_json::Value::as_str)
                    .and_then(super::check::integer_format);
                if let (true, Some((lo, hi))) = (integer, range) {
                    // Doubles in JSON: the 64-bit ends are not exact, so those stay open.
                    let exact = |n: i128| n.unsigned_abs() < (1u128 << 53);
                    let lower = map.get("minimum").and_then(serde_json::Value::as_f64);
                    if exact(lo) && lower.is_none_or(|m| m < lo as f64) {
                        map.insert("minimum".into(), serde_json::Value::from(lo as i64));
                        *changed = true;
                    }
                    let upper = map.get("maximum").and_then(serde_json::Value::as_f64);
                    if exact(hi) && upper.is_none_or(|m| m > hi as f64) {
                        map.insert("maximum".into(), serde_json::Value::from(hi as i64));
                        *changed = true;
                    }
                }
                for value in map.values_mut() {
                    walk(value, changed);
                }
            }
            serde_json::Value::Array(items) => {
                for item in items {
                    walk(item, changed);
                }
            }
            _ => {}
        }
    }
    let mut copy = doc.clone();
    let mut changed = false;
    walk(&mut copy, &mut changed);
    changed.then_some(copy)
}

/// Reads a call's log lines (see [`Prism::fence`]).
pub fn read(lines: &[String]) -> Seen {
    let mut seen = Seen::default();
    for line in lines {
        let text = message(line);
        if line.contains("[HTTP SERVER]") && text == "Request received" {
            seen.requests += 1;
        } else if line.contains("[VALIDATOR]")
            && level(line) == "error"
            && !text.starts_with("Violation: ")
        {
            seen.reasons.push(text.to_string());
        } else if let Some(v) = text.strip_prefix("Violation: ") {
            if v.starts_with("request") {
                if level(line) == "error" {
                    seen.refused.push(v.to_string());
                }
            } else {
                seen.mock_faults.push(v.to_string());
            }
        } else if let Some(e) = text.strip_prefix("Request terminated with error: ") {
            let kind = e
                .split_once("errors#")
                .map(|(_, k)| k.split(':').next().unwrap_or(k))
                .unwrap_or("UNKNOWN");
            match kind {
                // The request named what the document does not have, or lacked credentials,
                // or asked for what it cannot accept: the client's doing.
                "NO_PATH_MATCHED_ERROR"
                | "NO_METHOD_MATCHED_ERROR"
                | "NO_SERVER_MATCHED_ERROR"
                | "UNAUTHORIZED"
                | "UNPROCESSABLE_ENTITY"
                | "NOT_ACCEPTABLE"
                | "INVALID_CONTENT_TYPE" => seen.refused.push(e.to_string()),
                _ => seen.mock_faults.push(e.to_string()),
            }
        }
    }
    seen
}

/// The message of a log line: after its level word (`info`, `error`, `warning`…).
fn message(line: &str) -> &str {
    for marker in [
        "  info ",
        "  error ",
        "  warning ",
        "  success ",
        "  debug ",
        "  fatal ",
    ] {
        if let Some(i) = line.find(marker) {
            return line[i + marker.len()..].trim();
        }
    }
    line.trim()
}

fn level(line: &str) -> &'static str {
    for (marker, level) in [
        ("  error ", "error"),
        ("  warning ", "warning"),
        ("  info ", "info"),
    ] {
        if line.contains(marker) {
            return level;
        }
    }
    ""
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_calls_log_is_read() {
        let lines: Vec<String> = [
            "[9:56:54 PM] › [HTTP SERVER] get /pets ℹ  info      Request received",
            "[9:56:54 PM] ›     [VALIDATOR] ⚠  warning   Request did not pass the validation rules",
            "[9:56:54 PM] ›     [VALIDATOR] ✖  error     Request query parameter limit must be integer",
            "[9:56:54 PM] ›     [NEGOTIATOR] ℹ  info      > Responding with \"422\"",
            "[9:56:54 PM] ›     [VALIDATOR] ✖  error     Violation: request.query.limit Request query parameter limit must be integer",
            "[9:56:54 PM] ›     [VALIDATOR] ⚠  warning   Violation: response.body Response body property id must be integer",
            "[9:58:40 PM] › [HTTP SERVER] get /models ✖  error     Request terminated with error: https://stoplight.io/prism/errors#UNAUTHORIZED: Invalid security scheme used",
            "[9:58:40 PM] › [HTTP SERVER] get /x ✖  error     Request terminated with error: https://stoplight.io/prism/errors#SCHEMA_TOO_COMPLEX: too complex",
        ]
        .map(String::from)
        .to_vec();
        let seen = read(&lines);
        assert_eq!(seen.requests, 1);
        assert_eq!(
            seen.reasons,
            ["Request query parameter limit must be integer"]
        );
        assert_eq!(defect(&seen), None);
        assert_eq!(
            seen.refused,
            [
                "request.query.limit Request query parameter limit must be integer",
                "https://stoplight.io/prism/errors#UNAUTHORIZED: Invalid security scheme used"
            ]
        );
        assert_eq!(
            seen.mock_faults,
            [
                "response.body Response body property id must be integer",
                "https://stoplight.io/prism/errors#SCHEMA_TOO_COMPLEX: too complex"
            ]
        );
    }
}
