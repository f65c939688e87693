//! Decode speed beside the hand-written SDKs: instructions per `serde_json` decode of the same
//! JSON into the generated clients' types and into async-openai 0.43's and octocrab 0.54's, for
//! a chat completion, a response with function calls and GitHub issue lists (one issue, and
//! about 2 MB). Written to `docs/reports/decode-speed.md`.
//!
//! The clients are generated from the corpus documents with a copy of the runtime (as
//! `cargo xtask codegen --vendor-runtime` writes them, client only) into a throwaway workspace,
//! `target/bench-compile/decode/ws`, with its own lock file and target directory (the SDKs'
//! dependencies are not the project's), beside one release binary that decodes a file N times
//! into one side's type. callgrind counts it at N and 2N decodes: the difference over N is one
//! decode (and drop), start-up and reading the file cancelled out. Instruction counts do not
//! move with the load of a shared machine; wall-clock medians are given too, as secondary.

use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use crate::compile_corpus::cargo_in;

const GITHUB: &str = "../shared/openapi-corpus/progenitor/api.github.com.json";
const OPENAI: &str = "../shared/openapi-corpus-31/openai/openapi.yaml";
/// The large issue list: about this many bytes, as a few pages' worth a client might read.
const LIST_BYTES: usize = 2 << 20;
/// Function calls in the response sample (the document's example has one).
const CALLS: usize = 8;
/// Native runs per side for the wall-clock median.
const WALL_RUNS: usize = 7;

/// How the three sides decode: the generated type through `serde_json::from_slice`, the
/// generated type as the generated client decodes a body (`runtime::integer::from_slice`,
/// which wraps serde_json's deserializer to take `1.0` for an integer), the SDK's type through
/// `serde_json::from_slice`.
pub const SIDES: [&str; 3] = ["generated", "generated-client", "handwritten"];
/// The sides as the report names them.
const SHOWN: [&str; 3] = ["generated", "client path", "hand-written"];

/// One JSON body and the type family it is decoded into.
pub struct Sample {
    pub name: &'static str,
    /// `chat`, `response` or `issues`: the binary's first argument.
    pub kind: &'static str,
    /// Where it comes from, for the report.
    pub source: String,
    pub bytes: Vec<u8>,
    /// The bytes before properties the example leaves out though its schema requires them
    /// were added, when any were: each side is checked on them too, for the report.
    pub verbatim: Option<Vec<u8>>,
}

pub struct Row {
    pub sample: Sample,
    /// Per side of [`SIDES`]: instructions per decode, or why there is no figure.
    pub instructions: Vec<Result<f64, String>>,
    /// Per side: median nanoseconds per decode, natively.
    pub wall: Vec<Option<f64>>,
    /// How each side took the example as the document has it, when it was completed.
    pub verbatim: Option<String>,
}

/// The decoding binary: `decode-speed KIND SIDE FILE N`. It prints only the mean
/// nanoseconds per decode, after the loop.
const MAIN_RS: &str = r#"// Written by petstore-bench (decode).
use std::hint::black_box;
use std::time::Instant;

use serde::de::DeserializeOwned;

type Decode = fn(&[u8]) -> Result<(), String>;

fn plain<T: DeserializeOwned>(bytes: &[u8]) -> Result<(), String> {
    black_box(serde_json::from_slice::<T>(black_box(bytes)).map_err(|e| e.to_string())?);
    Ok(())
}

fn github<T: DeserializeOwned>(bytes: &[u8]) -> Result<(), String> {
    let value = github_client::runtime::integer::from_slice::<T>(black_box(bytes));
    black_box(value.map_err(|e| e.to_string())?);
    Ok(())
}

fn openai<T: DeserializeOwned>(bytes: &[u8]) -> Result<(), String> {
    let value = openai_client::runtime::integer::from_slice::<T>(black_box(bytes));
    black_box(value.map_err(|e| e.to_string())?);
    Ok(())
}

fn main() {
    use async_openai::types::{chat, responses};
    use openai_client::types as oa;
    type Issues = Vec<github_client::types::IssueSimple>;
    type Octocrab = Vec<octocrab::models::issues::Issue>;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [kind, side, file, n] = &args[..] else {
        eprintln!("usage: decode-speed chat|response|issues generated|generated-client|handwritten FILE N");
        std::process::exit(2);
    };
    let decode: Decode = match (kind.as_str(), side.as_str()) {
        ("chat", "generated") => plain::<oa::CreateChatCompletionResponse>,
        ("chat", "generated-client") => openai::<oa::CreateChatCompletionResponse>,
        ("chat", "handwritten") => plain::<chat::CreateChatCompletionResponse>,
        ("response", "generated") => plain::<oa::Response>,
        ("response", "generated-client") => openai::<oa::Response>,
        ("response", "handwritten") => plain::<responses::Response>,
        ("issues", "generated") => plain::<Issues>,
        ("issues", "generated-client") => github::<Issues>,
        ("issues", "handwritten") => plain::<Octocrab>,
        _ => {
            eprintln!("unknown kind or side: {kind} {side}");
            std::process::exit(2);
        }
    };
    let bytes = std::fs::read(file).unwrap_or_else(|e| panic!("{file}: {e}"));
    let n: u64 = n.parse().expect("N: a number");
    let started = Instant::now();
    for _ in 0..n {
        if let Err(e) = decode(&bytes) {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
    println!("{}", started.elapsed().as_nanos() as f64 / n.max(1) as f64);
}
"#;

/// The binary's manifest: the generated clients with only the features the three types
/// need, async-openai with only its chat and responses types, octocrab without its default
/// HTTP and TLS stack (its models are the same either way; the defaults pull in aws-lc).
const MANIFEST: &str = r#"# Written by petstore-bench (decode).
[package]
name = "decode-speed"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
serde = "1"
serde_json = "1"
github-client = { path = "../github-client", default-features = false, features = ["issues"] }
openai-client = { path = "../openai-client", default-features = false, features = ["chat", "responses"] }
async-openai = { version = "0.43", default-features = false, features = ["chat-completion-types", "response-types"] }
octocrab = { version = "0.54", default-features = false }
"#;

/// Writes `contents` unless the file already holds it, so a rerun does not rebuild the
/// generated crates (the OpenAI client's release build takes minutes).
fn write_if_changed(path: &Path, contents: &str) -> Result<(), String> {
    if std::fs::read_to_string(path).is_ok_and(|old| old == contents) {
        return Ok(());
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    std::fs::write(path, contents).map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes apigen's client for `text` (with a copy of the runtime) as `ws/<name>-client`.
fn generate(text: &str, spec: &str, name: &str, ws: &Path) -> Result<(), String> {
    let options = apigen::Options {
        name: name.to_owned(),
        spec_label: spec.to_owned(),
        command: "petstore-bench".to_owned(),
        runtime: apigen::RuntimeSource::Vendored,
        ..Default::default()
    };
    let output = apigen::generate(text, &options).map_err(|e| format!("apigen: {e}"))?;
    let dir = ws.join(format!("{name}-client"));
    for (path, contents) in &output.files {
        if let Some(rest) = path.strip_prefix("client/") {
            write_if_changed(&dir.join(rest), contents)?;
        }
    }
    Ok(())
}

/// The response text of an `x-oaiMeta` example of `POST path`, by title.
fn openai_example(doc: &Value, path: &str, title: &str) -> Result<String, String> {
    let pointer = format!("/paths/{}/post/x-oaiMeta/examples", path.replace('/', "~1"));
    doc.pointer(&pointer)
        .and_then(Value::as_array)
        .and_then(|all| all.iter().find(|e| e["title"] == title))
        .and_then(|e| e["response"].as_str())
        .map(str::to_owned)
        .ok_or_else(|| format!("no example `{title}` with a response at {pointer}"))
}

/// Adds `key: value` to the object at `pointer` when the example leaves out a property its
/// schema requires (the generated types hold required properties required, nullable or
/// not); what was added, for the report.
fn require(doc: &mut Value, pointer: &str, key: &str, value: Value, added: &mut Vec<String>) {
    if let Some(object) = doc.pointer_mut(pointer).and_then(Value::as_object_mut)
        && !object.contains_key(key)
    {
        added.push(format!("`{pointer}/{key}: {value}`"));
        object.insert(key.to_owned(), value);
    }
}

/// `doc` as the sample's bytes (pretty, as the OpenAI document writes its examples), with
/// the required properties `complete` adds; the source note says which.
fn completed(
    name: &'static str,
    kind: &'static str,
    mut source: String,
    mut doc: Value,
    complete: impl Fn(&mut Value, &mut Vec<String>),
) -> Result<Sample, String> {
    let verbatim = serde_json::to_vec_pretty(&doc).map_err(|e| e.to_string())?;
    let mut added = Vec::new();
    complete(&mut doc, &mut added);
    if !added.is_empty() {
        let _ = write!(
            source,
            "; with {}, which the schema requires and the example leaves out",
            added.join(", ")
        );
    }
    Ok(Sample {
        name,
        kind,
        source,
        bytes: serde_json::to_vec_pretty(&doc).map_err(|e| e.to_string())?,
        verbatim: (!added.is_empty()).then_some(verbatim),
    })
}

/// The samples, from the documents' own examples.
pub fn samples(github: &Value, openai: &Value) -> Result<Vec<Sample>, String> {
    let parse = |path: &str, title: &str| -> Result<Value, String> {
        serde_json::from_str(&openai_example(openai, path, title)?)
            .map_err(|e| format!("{path} example “{title}”: {e}"))
    };
    // A choice's `message.refusal` and `logprobs.refusal` are required (nullable); the
    // examples but the first leave them out, the API sends them.
    let chat = |name, title: &str| -> Result<Sample, String> {
        let source = format!("createChatCompletion's example “{title}”");
        completed(
            name,
            "chat",
            source,
            parse("/chat/completions", title)?,
            |doc, added| {
                let choices = doc["choices"].as_array().map_or(0, Vec::len);
                for i in 0..choices {
                    let message = format!("/choices/{i}/message");
                    require(doc, &message, "refusal", Value::Null, added);
                    let logprobs = format!("/choices/{i}/logprobs");
                    require(doc, &logprobs, "refusal", Value::Null, added);
                }
            },
        )
    };
    // The document's function-call response has one call; a turn that calls several tools
    // is the common case, so its call is repeated with distinct ids and arguments.
    let mut response = parse("/responses", "Functions")?;
    let call = response["output"][0].clone();
    let cities: Vec<&str> = "Boston, MA;Paris;Tokyo;Lagos;Lima;Oslo;Perth;Cairo"
        .split(';')
        .collect();
    response["output"] = (0..CALLS)
        .map(|i| {
            let mut c = call.clone();
            c["id"] = json!(format!("{}{i}", c["id"].as_str().unwrap_or("fc_")));
            c["call_id"] = json!(format!("{}{i}", c["call_id"].as_str().unwrap_or("call_")));
            let arguments = json!({"location": cities[i % cities.len()], "unit": "celsius"});
            c["arguments"] = json!(arguments.to_string());
            c
        })
        .collect();
    // GitHub's list of issues: the operation's example (a `$ref` to a named one).
    let ops = "/paths/~1repos~1{owner}~1{repo}~1issues/get/responses/200/content/application~1json/examples/default";
    let mut example = github
        .pointer(ops)
        .ok_or("no example for issues/list-for-repo")?;
    if let Some(target) = example["$ref"].as_str() {
        example = github
            .pointer(target.trim_start_matches('#'))
            .ok_or("a dangling $ref")?;
    }
    let issue = example["value"][0].clone();
    let one = serde_json::to_vec(&json!([issue])).map_err(|e| e.to_string())?;
    let copies = (LIST_BYTES / one.len()).max(1);
    let list: Vec<Value> = (0..copies)
        .map(|i| {
            let mut copy = issue.clone();
            copy["id"] = json!(i + 1);
            copy["number"] = json!(i + 1);
            copy
        })
        .collect();
    Ok(vec![
        chat("chat completion", "Default")?,
        chat("chat completion, tool call", "Functions")?,
        chat("chat completion, logprobs", "Logprobs")?,
        completed(
            "response, function calls",
            "response",
            format!(
                "createResponse's example “Functions”, its one `function_call` output item repeated {CALLS} times with distinct `id`, `call_id` and `arguments`"
            ),
            response,
            |doc, added| {
                let details = json!({"cached_tokens": 0, "cache_write_tokens": 0});
                require(doc, "/usage", "input_tokens_details", details, added);
            },
        )?,
        Sample {
            name: "GitHub issues, one",
            kind: "issues",
            source: "issues/list-for-repo's example (`issue-simple-items`), compact".to_owned(),
            bytes: one,
            verbatim: None,
        },
        Sample {
            name: "GitHub issues, ~2 MB",
            kind: "issues",
            source: format!("the same issue {copies} times, `id` and `number` 1…{copies}"),
            bytes: serde_json::to_vec(&list).map_err(|e| e.to_string())?,
            verbatim: None,
        },
    ])
}

/// Runs the binary natively; its stdout (nanoseconds per decode) or its error.
fn native(exe: &Path, args: &[&str]) -> Result<f64, String> {
    let out = Command::new(exe)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("{}: {e}", exe.display()))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        return Err(stderr.lines().next().unwrap_or("failed").to_owned());
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    stdout
        .trim()
        .parse()
        .map_err(|_| format!("no timing: {stdout}"))
}

/// Instructions of the whole process, counted by callgrind.
fn instructions(exe: &Path, args: &[&str]) -> Result<f64, String> {
    let out = Command::new("valgrind")
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .arg(exe)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("valgrind: {e}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        return Err(format!("valgrind {}: {stderr}", args.join(" ")));
    }
    stderr
        .lines()
        .find_map(|l| {
            l.split_once("Collected :")
                .map(|(_, c)| c.trim().to_owned())
        })
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| format!("valgrind {}: no instruction count", args.join(" ")))
}

fn median(mut xs: Vec<f64>) -> Option<f64> {
    xs.sort_by(f64::total_cmp);
    xs.get(xs.len() / 2).copied()
}

pub fn run(root: &Path) -> Result<Vec<Row>, String> {
    let dir = root.join("target/bench-compile/decode");
    let ws = dir.join("ws");
    let read =
        |spec: &str| std::fs::read_to_string(root.join(spec)).map_err(|e| format!("{spec}: {e}"));
    let (github_text, openai_text) = (read(GITHUB)?, read(OPENAI)?);
    eprintln!("  generating the clients");
    generate(&github_text, GITHUB, "github", &ws)?;
    generate(&openai_text, OPENAI, "openai", &ws)?;
    write_if_changed(&ws.join("decode-speed/Cargo.toml"), MANIFEST)?;
    write_if_changed(&ws.join("decode-speed/src/main.rs"), MAIN_RS)?;
    write_if_changed(
        &ws.join("Cargo.toml"),
        "# Written by petstore-bench (decode).\n[workspace]\nresolver = \"3\"\nmembers = [\"github-client\", \"openai-client\", \"decode-speed\"]\n",
    )?;
    eprintln!("  building decode-speed (release)");
    let secs = cargo_in(&ws, &["build", "--release", "-p", "decode-speed"])?;
    eprintln!("    built in {secs:.0} s");
    let exe = dir.join("target/release/decode-speed");

    let github: Value = serde_json::from_str(&github_text).map_err(|e| format!("{GITHUB}: {e}"))?;
    let openai = apigen::load::to_json_value(&openai_text).map_err(|e| format!("{OPENAI}: {e}"))?;
    let valgrind = crate::instructions::valgrind();
    let mut rows = Vec::new();
    for sample in samples(&github, &openai)? {
        let file = dir.join(format!("{}.json", sample.name.replace([' ', ',', '~'], "")));
        std::fs::write(&file, &sample.bytes).map_err(|e| format!("{}: {e}", file.display()))?;
        let file = file.to_string_lossy().into_owned();
        // About 4 MB of JSON per N decodes: enough for the difference to dwarf start-up.
        let n = ((4 << 20) / sample.bytes.len()).clamp(5, 2000);
        let (n1, n2) = (n.to_string(), (2 * n).to_string());
        // Natively, runs of some 50 ms at least, so that the first, cold decode and the
        // timer do not weigh.
        let wall_n = ((32 << 20) / sample.bytes.len())
            .clamp(5, 20_000)
            .to_string();
        let mut row = Row {
            instructions: Vec::new(),
            wall: vec![None; SIDES.len()],
            verbatim: None,
            sample,
        };
        let kind = row.sample.kind;
        if let Some(bytes) = &row.sample.verbatim {
            let path = format!("{file}.verbatim");
            std::fs::write(&path, bytes).map_err(|e| format!("{path}: {e}"))?;
            let each = [0, 1, 2].map(|i| match native(&exe, &[kind, SIDES[i], &path, "1"]) {
                Ok(_) => format!("{} decodes it", SHOWN[i]),
                // Double backticks: serde's messages hold backticks.
                Err(e) => format!("{} refuses it (`` {e} ``)", SHOWN[i]),
            });
            row.verbatim = Some(each.join("; "));
        }
        let mut times = vec![Vec::new(); SIDES.len()];
        for side in SIDES {
            let args = |n: &str| [kind, side, file.as_str(), n].map(str::to_owned);
            let count = |n: &str| instructions(&exe, &args(n).each_ref().map(String::as_str));
            // Checked natively first: a side that refuses the sample has no figure, only
            // the error.
            if let Err(e) = native(&exe, &[kind, side, &file, "1"]) {
                eprintln!("    {:<28} {side:<16} refused: {e}", row.sample.name);
                row.instructions.push(Err(format!("refused: {e}")));
                continue;
            }
            let counted = match valgrind {
                None => Err("not counted (no valgrind)".to_owned()),
                Some(_) => (|| Ok((count(&n2)? - count(&n1)?) / n as f64))(),
            };
            match &counted {
                Ok(c) => eprintln!(
                    "    {:<28} {side:<16} {c:>12.0} instructions",
                    row.sample.name
                ),
                Err(e) => eprintln!("    {:<28} {side:<16} {e}", row.sample.name),
            }
            row.instructions.push(counted);
        }
        // Wall clock, sides interleaved so that a change in the machine's load hits all three.
        for _ in 0..WALL_RUNS {
            for (i, side) in SIDES.iter().enumerate() {
                let refused = row.instructions[i]
                    .as_ref()
                    .is_err_and(|e| e.starts_with("refused"));
                if !refused && let Ok(ns) = native(&exe, &[kind, side, &file, &wall_n]) {
                    times[i].push(ns);
                }
            }
        }
        row.wall = times.into_iter().map(median).collect();
        rows.push(row);
    }
    Ok(rows)
}

/// The part's report (`docs/reports/decode-speed.md`).
pub fn markdown(rows: &[Row], header: &str, valgrind: Option<&str>) -> String {
    let mut w = String::new();
    let counted = valgrind.map_or("not counted: valgrind is not installed".to_owned(), |v| {
        format!("counted by `{v}` (`--tool=callgrind`)")
    });
    let _ = writeln!(
        w,
        "# Decode speed beside hand-written SDKs\n\nWritten by `cargo xtask bench --only decode` (`benches/src/decode.rs`); do not edit by hand, rerun it.\n\n{header}\n\
Instructions per decode of the same bytes into the generated client's type and into the hand-written SDK's: `CreateChatCompletionResponse` and `Response` of the client generated from the OpenAI 3.1 document (features `chat`, `responses`) against async-openai 0.43's (`types::chat`, `types::responses`; features `chat-completion-types`, `response-types`), and `Vec<IssueSimple>` (the 200 body of `GET /repos/{{owner}}/{{repo}}/issues` in the GitHub document; feature `issues`) against octocrab 0.54's `Vec<models::issues::Issue>`. One release binary holds every side (`target/bench-compile/decode/ws`, crates.io's SDKs, the clients generated with a copy of the runtime); each count is callgrind's for N and for 2N decodes of one file, the difference over N, so start-up and reading the file cancel out; a decode includes dropping the value. Instructions are {counted}. octocrab is taken without its default features (its HTTP and TLS stack; its models are the same); its `Issue` reads URLs as `url::Url` and times as `chrono::DateTime`, the generated `IssueSimple` URLs (`format: uri`) as `String` and times as `jiff::Timestamp`.\n\n\
The OpenAI samples are pretty-printed as the document writes its examples (re-serialized, key order kept), GitHub's compact as its API sends them.\n\n*generated* is `serde_json::from_slice` into the generated type, as for the SDK; *client path* is how the generated client decodes a body, `runtime::integer::from_slice` (serde_json's deserializer wrapped so that an integer field takes `1.0`, and a struct refuses an array). Target: hand-written / generated ≥ 1.00, reported, not asserted.\n"
    );
    let _ = writeln!(
        w,
        "| sample | size | generated | client path | hand-written | hand-written / generated | hand-written / client path |"
    );
    let _ = writeln!(w, "|---|---:|---:|---:|---:|---:|---:|");
    let cell = |r: &Result<f64, String>| match r {
        Ok(i) => format!("{i:.0}"),
        Err(e) => e.replace('|', "\\|"),
    };
    let ratio = |row: &Row, i: usize| match (&row.instructions[2], &row.instructions[i]) {
        (Ok(hand), Ok(ours)) => format!("**{:.3}**", hand / ours),
        _ => String::new(),
    };
    for row in rows {
        let bytes = row.sample.bytes.len() as f64;
        let size = if bytes >= 1e6 {
            format!("{:.2} MB", bytes / 1e6)
        } else {
            format!("{:.1} KB", bytes / 1e3)
        };
        let _ = writeln!(
            w,
            "| {} | {size} | {} | {} | {} | {} | {} |",
            row.sample.name,
            cell(&row.instructions[0]),
            cell(&row.instructions[1]),
            cell(&row.instructions[2]),
            ratio(row, 0),
            ratio(row, 1)
        );
    }
    let _ = writeln!(
        w,
        "\nWall clock, secondary (the machine may be shared): median of {WALL_RUNS} native runs of 16 to 32 MB of decodes each, the sides interleaved, microseconds per decode.\n\n| sample | generated | client path | hand-written | hand-written / generated |\n|---|---:|---:|---:|---:|"
    );
    for row in rows {
        let us = |x: &Option<f64>| x.map_or("–".to_owned(), |ns| format!("{:.2}", ns / 1e3));
        let ratio = match (row.wall[2], row.wall[0]) {
            (Some(h), Some(g)) => format!("{:.2}", h / g),
            _ => String::new(),
        };
        let _ = writeln!(
            w,
            "| {} | {} | {} | {} | {ratio} |",
            row.sample.name,
            us(&row.wall[0]),
            us(&row.wall[1]),
            us(&row.wall[2])
        );
    }
    let _ = writeln!(
        w,
        "\nSamples (written to `target/bench-compile/decode/` at each run):\n"
    );
    for row in rows {
        let _ = write!(w, "- **{}**: {}.", row.sample.name, row.sample.source);
        if let Some(verbatim) = &row.verbatim {
            let _ = write!(w, " As the document has it, {verbatim}.");
        }
        let _ = writeln!(w);
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The samples are JSON of the sizes the report names, and the long list's copies are
    /// distinct issues.
    #[test]
    fn samples_are_json_of_the_expected_size() {
        let root = crate::root();
        let read = |spec: &str| std::fs::read_to_string(root.join(spec)).unwrap();
        let github = serde_json::from_str(&read(GITHUB)).unwrap();
        let openai = apigen::load::to_json_value(&read(OPENAI)).unwrap();
        let samples = samples(&github, &openai).unwrap();
        assert_eq!(samples.len(), 6);
        for sample in &samples {
            let value: Value = serde_json::from_slice(&sample.bytes).unwrap();
            assert!(value.is_object() || value.is_array(), "{}", sample.name);
        }
        let response: Value = serde_json::from_slice(&samples[3].bytes).unwrap();
        assert_eq!(response["output"].as_array().unwrap().len(), CALLS);
        let list: Value = serde_json::from_slice(&samples[5].bytes).unwrap();
        let list = list.as_array().unwrap();
        assert!((LIST_BYTES * 9 / 10..=LIST_BYTES).contains(&samples[5].bytes.len()));
        let last = list.last().unwrap();
        assert_eq!(last["number"], json!(list.len()));
    }
}
