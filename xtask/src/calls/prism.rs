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

/// What a refusal is judged by, besides Prism's reasons: the request's method, whether its
/// body was form data, and the `readOnly` members the request body's schema names.
pub struct Request<'a> {
    pub method: &'a str,
    pub form_body: bool,
    /// The body was a multipart form.
    pub multipart_body: bool,
    /// The request body's media type as the document gives it (empty without a body).
    pub media_type: &'a str,
    pub read_only: &'a [String],
}

/// The Prism defect behind a refusal, when its reasons name one. Each was checked by hand
/// against Prism 5.14.2 (the refusal stands whatever the request says) and is a refusal of
/// what the document allows; the report says which.
pub fn defect(seen: &Seen, request: &Request<'_>) -> Option<&'static str> {
    let reasons = || seen.reasons.iter().chain(&seen.refused);
    // fitbit's `filter[organization]`: 422 whether the client writes `filter[organization]`,
    // `filter%5Borganization%5D` or `filter%5borganization%5d`.
    if reasons()
        .any(|r| r.starts_with("Request query must have required property") && r.contains("%5b"))
    {
        return Some(
            "Prism cannot match a query parameter whose name holds `[` or `]`: it looks for the percent-encoded name among the decoded ones, however the request spells it",
        );
    }
    // twilio's `Items`: 422 for `Items=a`, `Items=a&Items=b`, `Items=a,b`, `Items[]=a`.
    if request.form_body
        && reasons().all(|r| r.contains("must be array") || r.contains("errors#UNPROCESSABLE"))
    {
        return Some(
            "Prism reads no form-data field as an array, however the request writes it (repeated, comma-separated or bracketed)",
        );
    }
    // A multipart form's JSON part (`meta={"year":1};type=application/json`, with or without
    // the document's `encoding`) and its repeated parts (`tags=a`, `tags=b`): 422 "must be
    // object" / "must be array" for what curl's `-F` sends too.
    // A union part (openai's `chunking_strategy`: `auto`, an object or null) adds the other
    // branches' failures for the same property, which the same reading causes.
    if request.multipart_body && reasons().all(|r| text_part_reason(r, reasons())) {
        return Some(
            "Prism reads every part of a multipart form as text: a JSON part (`Content-Type: application/json`) is no object to it, and repeated parts are no array",
        );
    }
    // 3.2's positional multipart (`multipart/mixed` with `prefixItems`, `prefixEncoding`,
    // `itemEncoding`: scalar-galaxy's observations): 400 "must be array" even for a body of
    // well-formed parts that fit the schema (checked by hand with curl).
    if request.media_type.starts_with("multipart/")
        && !request.multipart_body
        && reasons().all(|r| r.ends_with("Request body must be array"))
    {
        return Some(
            "Prism 5 reads no OpenAPI 3.2 positional multipart body (`multipart/mixed` with `prefixItems`): it is no array to it, however well formed",
        );
    }
    // 3.2's `query` and `additionalOperations`: Prism 5 knows the eight methods of 3.0.
    if reasons().any(|r| r.contains("NO_METHOD_MATCHED_ERROR"))
        && !matches!(
            request.method,
            "GET" | "PUT" | "POST" | "DELETE" | "OPTIONS" | "HEAD" | "PATCH" | "TRACE"
        )
    {
        return Some("Prism 5 knows no OpenAPI 3.2 `query` or `additionalOperations` method");
    }
    // scalar-galaxy's `id`, required and readOnly inside a `oneOf`: the request leaves it out
    // (OpenAPI: `required` takes effect on responses only), and the harness checked the body.
    let required: Vec<&str> = reasons()
        .filter_map(|r| {
            r.split_once("must have required property '")
                .and_then(|(_, rest)| rest.split('\'').next())
        })
        .collect();
    let read_only = |name: &&str| request.read_only.iter().any(|r| r == name);
    // A multipart form of a `oneOf` (redocly's menu items): Prism reports every variant's
    // failures (the other variant's required members, its `const`) beside the readOnly
    // members it requires; the harness made the value valid by the schema (`values`), so a
    // refusal that names a readOnly member is that defect.
    let multipart_one_of = request.multipart_body
        && reasons().any(|r| r.contains("must match exactly one schema in oneOf"))
        && required.iter().any(read_only);
    if multipart_one_of || (!required.is_empty() && required.iter().all(read_only)) {
        return Some(
            "Prism requires a readOnly member in a request where it sits inside a `oneOf`/`anyOf` or an array's items (it leaves readOnly members out only at the top); OpenAPI says a request leaves it out",
        );
    }
    None
}

/// Whether `reason` is one that Prism's reading of every multipart part as text explains: a
/// part that is no object or no array, a failure Prism does not explain (`errors#…`), or
/// another failure of a property that is also said to be no object or no array (a union's
/// other branches).
fn text_part_reason<'r>(reason: &str, mut all: impl Iterator<Item = &'r String>) -> bool {
    let shape = |r: &str| r.contains("must be object") || r.contains("must be array");
    if shape(reason) || reason.contains("errors#UNPROCESSABLE") {
        return true;
    }
    let property = |r: &str| {
        r.split_once("Request body property ")
            .and_then(|(_, rest)| rest.split_once(" must ").map(|(name, _)| name.to_owned()))
    };
    match property(reason) {
        Some(name) => all.any(|r| shape(r) && property(r).as_deref() == Some(name.as_str())),
        None => false,
    }
}

/// The document as Prism gets it, and what was changed (for the report); `None` when nothing
/// was. Two things Prism reads wrongly:
///
/// - where an integer's `format` is one of the format registry's (`int8`…`uint64`) and its
///   bounds do not already say so, the format's range is written as `minimum`/`maximum`:
///   Prism's generator ignores these formats (nexus's `uint16` fields got 30818977);
/// - an example value holding a `$ref` member (api.github.com's SCIM examples hold
///   `"$ref": "https://api.github.com/scim/v2/…"`, which is data) is left out: Prism's reader
///   follows it as a reference, fails to download it and refuses the whole document.
pub fn mock_copy(doc: &serde_json::Value) -> Option<(serde_json::Value, Vec<String>)> {
    use serde_json::Value;
    fn holds_ref(v: &Value) -> bool {
        match v {
            Value::Object(m) => m.contains_key("$ref") || m.values().any(holds_ref),
            Value::Array(items) => items.iter().any(holds_ref),
            _ => false,
        }
    }
    fn walk(v: &mut Value, at: &str, notes: &mut Vec<String>, bounds: &mut usize) {
        match v {
            Value::Object(map) => {
                let integer = match map.get("type") {
                    Some(Value::String(t)) => t == "integer",
                    Some(Value::Array(ts)) => ts.iter().any(|t| t == "integer"),
                    _ => false,
                };
                let range = map
                    .get("format")
                    .and_then(Value::as_str)
                    .and_then(super::check::integer_format);
                if let (true, Some((lo, hi))) = (integer, range) {
                    // Doubles in JSON: the 64-bit ends are not exact, so those stay open.
                    let exact = |n: i128| n.unsigned_abs() < (1u128 << 53);
                    let lower = map.get("minimum").and_then(Value::as_f64);
                    if exact(lo) && lower.is_none_or(|m| m < lo as f64) {
                        map.insert("minimum".into(), Value::from(lo as i64));
                        *bounds += 1;
                    }
                    let upper = map.get("maximum").and_then(Value::as_f64);
                    if exact(hi) && upper.is_none_or(|m| m > hi as f64) {
                        map.insert("maximum".into(), Value::from(hi as i64));
                        *bounds += 1;
                    }
                }
                // Example values are data: a `$ref` member in one is not a reference.
                let example_object = map.contains_key("value")
                    && map.keys().all(|k| {
                        matches!(
                            k.as_str(),
                            "value" | "summary" | "description" | "externalValue"
                        ) || k.starts_with("x-")
                    });
                for key in ["example", "value"] {
                    if (key == "example" || example_object) && map.get(key).is_some_and(holds_ref) {
                        map.remove(key);
                        notes.push(format!("{at}/{key}"));
                    }
                }
                if let Some(Value::Array(items)) = map.get_mut("examples") {
                    let before = items.len();
                    items.retain(|item| !holds_ref(item));
                    if items.len() != before {
                        notes.push(format!("{at}/examples"));
                    }
                }
                for (key, value) in map.iter_mut() {
                    let here = format!("{at}/{}", key.replace('~', "~0").replace('/', "~1"));
                    walk(value, &here, notes, bounds);
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter_mut().enumerate() {
                    walk(item, &format!("{at}/{i}"), notes, bounds);
                }
            }
            _ => {}
        }
    }
    let mut copy = doc.clone();
    let mut notes = Vec::new();
    let mut bounds = 0;
    walk(&mut copy, "", &mut notes, &mut bounds);
    let mut changes: Vec<String> = Vec::new();
    if bounds > 0 {
        changes.push(format!(
            "{bounds} bounds of integer formats written out (int8…uint64)"
        ));
    }
    if !notes.is_empty() {
        changes.push(format!(
            "{} example values holding a `$ref` member left out ({}{})",
            notes.len(),
            notes.iter().take(3).cloned().collect::<Vec<_>>().join(", "),
            if notes.len() > 3 { ", …" } else { "" }
        ));
    }
    (!changes.is_empty()).then_some((copy, changes))
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
    fn the_mock_copy_bounds_integer_formats_and_drops_example_refs() {
        use serde_json::json;
        let doc = json!({"components": {
            "schemas": {"Port": {"type": "integer", "format": "uint16"},
                        "Big": {"type": "integer", "format": "int64"},
                        "Small": {"type": "integer", "format": "int8", "minimum": 0}},
            "examples": {"Scim": {"summary": "a group", "value": {"members": [{"$ref": "https://api.github.com/scim/v2/Users/1"}]}}}
        }});
        let (copy, changes) = mock_copy(&doc).expect("changed");
        assert_eq!(
            copy["components"]["schemas"]["Port"],
            json!({"type": "integer", "format": "uint16", "minimum": 0, "maximum": 65535})
        );
        assert_eq!(
            copy["components"]["schemas"]["Big"],
            json!({"type": "integer", "format": "int64"}),
            "64-bit ends are not exact in JSON's doubles"
        );
        assert_eq!(
            copy["components"]["schemas"]["Small"],
            json!({"type": "integer", "format": "int8", "minimum": 0, "maximum": 127})
        );
        assert_eq!(
            copy["components"]["examples"]["Scim"],
            json!({"summary": "a group"})
        );
        assert_eq!(changes.len(), 2, "{changes:?}");
        assert!(
            mock_copy(&json!({"components": {"schemas": {"N": {"type": "integer"}}}})).is_none()
        );
    }

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
        let plain = Request {
            method: "GET",
            form_body: false,
            multipart_body: false,
            media_type: "",
            read_only: &[],
        };
        assert_eq!(defect(&seen, &plain), None);
        let brackets = Seen {
            reasons: vec!["Request query must have required property 'filter%5bname%5d'".into()],
            ..Seen::default()
        };
        assert!(defect(&brackets, &plain).is_some());
        let read_only = Seen {
            reasons: vec![
                "Request body must have required property 'id'".into(),
                "Request body must match exactly one schema in oneOf".into(),
            ],
            ..Seen::default()
        };
        assert_eq!(
            defect(&read_only, &plain),
            None,
            "`id` is not readOnly here"
        );
        let ids = ["id".to_string()];
        let with_ids = Request {
            read_only: &ids,
            ..plain
        };
        assert!(defect(&read_only, &with_ids).is_some());
        // twilio's `Items`: Prism reads no form field as an array.
        let array = Seen {
            reasons: vec!["Request body property Items must be array".into()],
            ..Seen::default()
        };
        assert_eq!(defect(&array, &plain), None, "a JSON body");
        let form = Request {
            form_body: true,
            multipart_body: false,
            ..plain
        };
        assert!(defect(&array, &form).is_some());
        // A multipart form's JSON part and repeated parts: Prism reads every part as text.
        let parts = Seen {
            reasons: vec![
                "Request body property meta must be object".into(),
                "Request body property tags must be array".into(),
            ],
            ..Seen::default()
        };
        assert_eq!(defect(&parts, &plain), None, "a JSON body");
        let multipart = Request {
            multipart_body: true,
            ..plain
        };
        assert!(defect(&parts, &multipart).is_some());
        // A union part (`auto`, an object or null) read as text: its other branches' failures
        // go with its "must be object"; a failure of a property never said to be no object
        // is not this defect.
        let union = Seen {
            reasons: vec![
                "Request body property chunking_strategy must be equal to one of the allowed values: auto".into(),
                "Request body property chunking_strategy must be object".into(),
                "Request body property chunking_strategy must match a schema in anyOf".into(),
                "Request body property languages must be array".into(),
            ],
            ..Seen::default()
        };
        assert!(defect(&union, &multipart).is_some());
        let other = Seen {
            reasons: vec![
                "Request body property model must be equal to one of the allowed values: a".into(),
                "Request body property languages must be array".into(),
            ],
            ..Seen::default()
        };
        assert_eq!(
            defect(&other, &multipart),
            None,
            "`model` is no part read as text"
        );
        // 3.2's positional multipart: no array to Prism, however well formed.
        let positional = Seen {
            reasons: vec!["request.body Request body must be array".into()],
            ..Seen::default()
        };
        let mixed = Request {
            media_type: "multipart/mixed",
            ..plain
        };
        assert!(defect(&positional, &mixed).is_some());
        assert_eq!(
            defect(&positional, &plain),
            None,
            "a JSON body that is no array"
        );
        let missing = Seen {
            reasons: vec!["Request body must have required property 'cover'".into()],
            ..Seen::default()
        };
        assert_eq!(
            defect(&missing, &multipart),
            None,
            "a part left out is ours"
        );
        // 3.2's QUERY: a method Prism 5 does not know, not an unmatched path.
        let no_method = Seen {
            refused: vec!["https://stoplight.io/prism/errors#NO_METHOD_MATCHED_ERROR".into()],
            ..Seen::default()
        };
        assert_eq!(defect(&no_method, &plain), None, "GET is known");
        let query = Request {
            method: "QUERY",
            ..plain
        };
        assert!(defect(&no_method, &query).is_some());
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
