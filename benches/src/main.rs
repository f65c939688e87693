//! `cargo run --release -p petstore-bench [-- OPTIONS]` (to be `cargo xtask bench`): measures
//! the generated server and client against hand-written equivalents, the generator's speed
//! and the generated crates' compile cost; prints a markdown report and writes it to
//! `docs/reports/benchmarks.md`. Timings are reported, never asserted.
//!
//! The binary re-executes itself as `petstore-bench serve-generated|serve-handwritten
//! [--rate-limit]` to run each server in its own process (see `serve.rs`).

mod build_cost;
mod client;
mod codegen;
mod compile;
mod compile_corpus;
mod decode;
mod digest;
mod handwritten;
mod inproc;
mod instructions;
mod limiter;
mod load;
mod observed;
#[cfg(test)]
mod parity;
mod report;
mod serve;
mod server;
mod stats;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

const HELP: &str = "\
petstore-bench [OPTIONS]
    Run every benchmark, print the report and write it to docs/reports/benchmarks.md.

OPTIONS
    --rounds N          rounds per comparison, each side once per round (default 20)
    --secs S            measured seconds per side per round (default 0.4)
    --warmup S          unrecorded warm-up seconds before each measured run (default 0.15)
    --connections N     concurrent keep-alive connections / callers (default 16)
    --codegen-runs N    runs of the generator per document (default 5)
    --only LIST         comma-separated subset of
                        server,inproc,instructions,limiter,client,codegen,compile,
                        compile-corpus,build-cost,decode
                        (instructions: counted with valgrind's callgrind when installed;
                        limiter: the Redis rate limiter, with redis-server when installed;
                        compile-corpus: check and release builds of the crates for the three
                        largest corpus documents, beside progenitor's client when
                        `cargo progenitor` is installed; tens of minutes on 2 cores;
                        build-cost: check and debug builds of GitHub's and OpenAI's
                        generated crates, all features and one tag's, beside octocrab and
                        async-openai, GitHub's as 0892509 generated them, nexus's client
                        beside progenitor 0.15.1's, and Stripe's (APIGEN_BENCH_STRIPE=PATH),
                        written to docs/reports/build-cost.md; about an hour;
                        decode: instructions per decode of chat, response and GitHub issue
                        bodies into the generated clients' types and async-openai's and
                        octocrab's, written to docs/reports/decode-speed.md)
    --fresh-compile     remeasure the clean build (with dependencies) of the generated crates
    --no-write          print the report without writing docs/reports/benchmarks.md
    --out PATH          write the report there instead of docs/reports/benchmarks.md

petstore-bench codegen-dump DOC OUT [--runs N]
    Generate from one document, write every file under OUT (to diff output before and after a
    change to the generator), then time N more calls and print their median.
";

/// What one run measures and for how long.
#[derive(Clone, Debug)]
pub struct Settings {
    pub rounds: usize,
    pub duration: Duration,
    pub warmup: Duration,
    pub connections: usize,
    pub codegen_runs: usize,
    pub only: Vec<String>,
    pub fresh_compile: bool,
    pub out: Option<PathBuf>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            rounds: 20,
            duration: Duration::from_millis(400),
            warmup: Duration::from_millis(150),
            connections: 16,
            codegen_runs: 5,
            only: Vec::new(),
            fresh_compile: false,
            out: Some(root().join("docs/reports/benchmarks.md")),
        }
    }
}

impl Settings {
    fn wants(&self, part: &str) -> bool {
        self.only.is_empty() || self.only.iter().any(|p| p == part)
    }
}

/// The workspace root: read when the program runs (`cargo run` sets `CARGO_MANIFEST_DIR`), so a
/// moved checkout is not taken for its old place; the compiled-in path is the fallback.
pub fn root() -> PathBuf {
    let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .filter(|d| d.join("../apigen.toml").is_file())
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    let root = manifest_dir.join("..");
    root.canonicalize().unwrap_or(root)
}

fn parse_args(args: &[String]) -> Result<Settings, String> {
    let mut s = Settings::default();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        let number = |name: &str, v: String| {
            v.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0)
                .ok_or_else(|| format!("{name}: not a number: {v}"))
        };
        match arg.as_str() {
            "--rounds" => s.rounds = number(arg, value(arg)?)?.max(1.0) as usize,
            "--secs" => s.duration = Duration::from_secs_f64(number(arg, value(arg)?)?.max(0.1)),
            "--warmup" => s.warmup = Duration::from_secs_f64(number(arg, value(arg)?)?),
            "--connections" => s.connections = number(arg, value(arg)?)?.max(1.0) as usize,
            "--codegen-runs" => s.codegen_runs = number(arg, value(arg)?)?.max(1.0) as usize,
            "--only" => {
                s.only = value(arg)?
                    .split(',')
                    .map(|p| p.trim().to_owned())
                    .collect();
                if let Some(bad) = s.only.iter().find(|p| {
                    ![
                        "server",
                        "inproc",
                        "instructions",
                        "limiter",
                        "client",
                        "codegen",
                        "compile",
                        "compile-corpus",
                        "build-cost",
                        "decode",
                    ]
                    .contains(&p.as_str())
                }) {
                    return Err(format!("--only: unknown part `{bad}`"));
                }
            }
            "--fresh-compile" => s.fresh_compile = true,
            "--no-write" => s.out = None,
            "--out" => s.out = Some(PathBuf::from(value(arg)?)),
            "-h" | "--help" | "help" => return Err(HELP.to_owned()),
            other => return Err(format!("unknown option `{other}`\n\n{HELP}")),
        }
    }
    Ok(s)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("serve-generated") => serve::child_main(
            serve::Kind::Generated,
            args.iter().any(|a| a == "--rate-limit"),
        ),
        Some("serve-handwritten") => serve::child_main(
            serve::Kind::Handwritten,
            args.iter().any(|a| a == "--rate-limit"),
        ),
        Some("profile") => inproc::profile(&args[1..]),
        Some("profile-client") => client::profile(&args[1..]),
        Some("codegen-dump") => codegen::dump(&args[1..]),
        _ => parse_args(&args).and_then(|settings| bench(&settings)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}

fn bench(settings: &Settings) -> Result<(), String> {
    if cfg!(debug_assertions) {
        eprintln!("warning: this is a debug build; run with --release for meaningful figures");
    }
    let root = root();
    let mut report = report::Report::new(settings, &root);
    eprintln!(
        "petstore-bench: {} core(s), {} round(s) × {:.2} s per side per row, {} connections",
        report.cores,
        settings.rounds,
        settings.duration.as_secs_f64(),
        settings.connections
    );

    if settings.wants("server") || settings.wants("client") {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        if settings.wants("server") {
            eprintln!("server: generated router vs hand-written axum");
            report.server = runtime.block_on(server::run(settings))?;
        }
        if settings.wants("client") {
            eprintln!("client: generated client vs plain reqwest");
            report.client = runtime.block_on(client::run(settings))?;
        }
    }
    if settings.wants("inproc") {
        eprintln!("server, in process (diagnostic): the two routers called without a network");
        report.inproc = inproc::run(settings)?;
    }
    if settings.wants("instructions") {
        match instructions::valgrind() {
            Some(version) => {
                eprintln!("instructions per request ({version}, callgrind)");
                report.instructions = instructions::run()?;
                report.instructions_note = Some(format!(
                    "Counted by `{version}` (`--tool=callgrind`) on `petstore-bench profile …` (the two routers called in process, as in the in-process table, {server_short} and {server_long} requests) and `petstore-bench profile-client …` (one client, sequential calls to a generated server in another process, {client_short} and {client_long} calls): the per-request figure is the difference of the two counts over the difference of the requests, so set-up cancels out.",
                    server_short = instructions::SERVER_RUNS.0,
                    server_long = instructions::SERVER_RUNS.1,
                    client_short = instructions::CLIENT_RUNS.0,
                    client_long = instructions::CLIENT_RUNS.1,
                ));
            }
            None => {
                eprintln!("instructions: valgrind is not installed; skipped");
                report.instructions_note = Some(
                    "Skipped: `valgrind` is not installed on this machine (`apt-get install valgrind`)."
                        .to_owned(),
                );
            }
        }
    }
    if settings.wants("limiter") {
        match limiter::redis_version() {
            Some(version) => {
                eprintln!("rate limiter: none, in memory, Redis ({version}, loopback)");
                report.limiter = limiter::run(settings)?;
                report.limiter_note = Some(version);
            }
            None => {
                eprintln!("rate limiter: redis-server is not installed; skipped");
                report.limiter_note = Some(
                    "Skipped: `redis-server` is not installed on this machine (`apt-get install redis-server`)."
                        .to_owned(),
                );
            }
        }
    }
    if settings.wants("codegen") {
        eprintln!("codegen: apigen::generate");
        report.codegen = codegen::run(&root, settings.codegen_runs)?;
    }
    if settings.wants("compile") {
        eprintln!("compile: release builds of the generated crates");
        report.compile = compile::run(&root, settings.fresh_compile, &report.date)?;
    }
    if settings.wants("compile-corpus") {
        eprintln!("compile: the crates of the largest corpus documents, and progenitor's");
        report.compile_corpus = compile_corpus::run(&root)?;
    }

    // The parts with a report of their own: the same header, the machine's state before.
    let header = format!(
        "- **date**: {} (UTC)\n- **commit**: {}\n- **machine**: {} core(s), {}; load average {} before\n",
        report.date, report.commit, report.cores, report.cpu, report.load_before
    );
    let write_own = |markdown: String, file: &str| -> Result<(), String> {
        println!("{markdown}");
        if settings.out.is_some() {
            let out = root.join(file);
            std::fs::write(&out, &markdown)
                .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
            eprintln!("wrote {}", out.display());
        }
        Ok(())
    };
    if settings.wants("build-cost") {
        eprintln!("build cost: GitHub's and OpenAI's crates beside octocrab and async-openai");
        let (rows, prepared) = build_cost::run(&root)?;
        write_own(
            build_cost::markdown(&rows, &prepared, &header),
            "docs/reports/build-cost.md",
        )?;
    }
    if settings.wants("decode") {
        eprintln!("decode: the generated clients' types beside async-openai's and octocrab's");
        let rows = decode::run(&root)?;
        let valgrind = instructions::valgrind();
        write_own(
            decode::markdown(&rows, &header, valgrind.as_deref()),
            "docs/reports/decode-speed.md",
        )?;
    }
    // Alone, they leave docs/reports/benchmarks.md as the last full run wrote it.
    if !settings.only.is_empty()
        && settings
            .only
            .iter()
            .all(|p| p == "build-cost" || p == "decode")
    {
        return Ok(());
    }

    report.finish();
    let markdown = report.markdown();
    println!("{markdown}");
    if let Some(out) = &settings.out {
        std::fs::write(out, &markdown)
            .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
        eprintln!("wrote {}", out.display());
    }
    Ok(())
}
