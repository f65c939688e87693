//! `cargo xtask …`: the project's commands. Run `cargo xtask help` for the list.

mod book;
mod calls;
mod codegen;
mod compat;
mod corpus;
mod corpus_docs;
mod fuzz;
mod mutants;
mod public_api;
mod real_servers;
mod schema_suite;
mod serve_corpus;

use std::process::ExitCode;

/// The generator allocates and frees tens of millions of small objects (tokens, syntax trees,
/// strings) on a large document; with glibc's malloc that was about a third of its CPU time,
/// with mimalloc it is about a tenth (`cargo xtask bench`, codegen table, times both).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const HELP: &str = "\
cargo xtask codegen [--check] [--deny-breaking] [--sunset-warning-days N]
    `apigen generate` (`apigen check` with --check) on this repository's apigen.toml: the pet
    store's crates (generated-server/, generated-client/, generated-cli/) and the fixtures'
    (tests/generated/). `cargo xtask codegen --help` has every option.
cargo xtask codegen --spec PATH --out DIR [--name NAME] [--cli] [--string-formats] [--vendor-runtime]
    Any other document's crates in DIR/server, DIR/client (and DIR/cli), depending on this
    checkout's runtime crates by path and version (`--vendor-runtime`: a copy instead).
cargo xtask diff [--base GIT-REF | --base-file PATH] [--spec PATH] [--json]
    `apigen diff`: every change between two versions of a document (default: each of
    apigen.toml's at HEAD against the working tree's), with its JSON pointer, rule, class and
    reason (book/src/reference/breaking-changes.md). Exit status 0 when no change breaks clients, 1 when one does, 2
    when a document cannot be read.
cargo xtask mock DOC [--port N] [--key KEY] [--plan NAME] [--cors-origin ORIGIN] [--no-idempotency]
    `apigen mock` with this checkout's runtime crates: DOC's server crate generated into
    target/apigen-mock/, built with its `mock` feature and run: every operation answered from the
    document's examples (or values made from its schemas) through the generated router.
cargo xtask compat [--shared-target]
    Additive spec changes are source-compatible: regenerates the pet store crates from
    spec/petstore.yaml plus an optional property, query parameters (one the first of its
    operation), an error status, a same-body success status, an enum value and an operation
    (throwaway workspace target/compat/ws), and checks that the reference service and the
    CLI's tests, unchanged (all targets), compile against them. --shared-target: check in
    target/ (nothing else may build there meanwhile), reusing the dependencies checked there.
cargo xtask corpus [DIR...] [--filter SUBSTR]... [--keep DIR] [--no-doc] [--generate-only]
                   [--shared-target]
    Robustness run over every .yaml/.yml/.json document under the DIRs (default
    ../shared/openapi-corpus, -31, -multi and -swagger2, recursively; a folder that SOURCES.md
    lists with a root file is one document split over its files; with several folders labels
    start with the folder name; --filter keeps labels containing any SUBSTR): generate the
    server, client and CLI crates of each (a panic is caught and reported), write them into one
    throwaway workspace (target/corpus/ws/, or --keep DIR), check them with one `cargo clippy
    --keep-going` and document them with one `cargo doc` (not with --no-doc; shared target
    dir target/corpus/target). Prints a table and writes it to target/corpus/report.md. Fails
    on a panic, an internal generator error or a generated crate that does not compile or
    warns (rustc, clippy or rustdoc); a located error refusing a document is fine.
    --generate-only: write the crates and each document's outcome (ws/outcomes.txt) and stop,
    to compare two generators' output with `diff -r`. --shared-target: build in target/ with
    the repository's dev profile (CI: the dependencies clippy checked are reused).
cargo xtask serve-corpus [DOC|DIR...] [--filter SUBSTR] [--max-examples N] [--seed N] [--workers N]
                         [--generate-only]
    Every document (default: both corpus folders, as `corpus` finds them) served by its
    generated server with the mock (target/serve-corpus/), on a free loopback port with a key,
    and held to schemathesis (.venv/, scripts/schemathesis.sh) with every check, seed N (42) and
    N examples per operation and phase (10). Prints the table (operations, cases, failures by
    check, listed defects) and writes target/serve-corpus/report.md; fails on a failure that
    docs/reports/serving.md does not list as the document's own defect, a server that does not build
    or start, and a listed defect that no longer shows. --generate-only: write the servers
    into target/serve-corpus/ws/ and stop (to compare two generators' output).
cargo xtask schema-suite [--draft 2020-12|4] [--filter SUBSTR]... [--shared-target]
    JSON Schema's own test suite (tests/fixtures/json-schema-suite/, both drafts by default):
    every group's schema the JSON body of one operation of one generated document (3.1 for
    2020-12, 3.0 for draft 4), every value sent to the generated server's mock program (valid:
    204, invalid: 400) and every valid one decoded by the generated client's types. Prints a
    table per keyword file and writes target/schema-suite/<draft>/report.md and failures.md;
    a group the generator refuses is lost with its error. Fails on a failing case that
    xtask/src/schema_suite/decisions.rs does not set aside, and on a group listed there as
    open that passes. Builds in target/schema-suite/target, or with --shared-target in target/
    with the workspace's dev profile (CI). Table: docs/reports/json-schema-suite.md.
cargo xtask calls [DOC|DIR...] [--filter SUBSTR] [--seeds N] [--no-examples] [--shared-target] [--echo]
    Every operation of each document's generated command-line client, called against Prism
    (an independent mock of the same document; npm, pinned in scripts/prism, installed with
    npm ci when missing) on a free loopback port: N seeded dynamic rounds (default 3, Prism's
    -d --seed 1..N) and one round of the document's examples, each operation once per round
    with arguments valid by the document. Documents as for corpus (default both public
    folders; a DOC is a file). Every call is ok, refused by the mock, an answer not decoded,
    the mock's fault (Prism's answer breaks the document, as its log says) or another
    failure; operations the CLI leaves out are listed with its reason. Prints a table per
    document and writes target/calls/report.md (Prism's logs: target/calls/logs/). Fails on a
    CLI that does not compile and on any call that is not ok or the mock's fault. Builds in
    target/calls/target without debug info, or with --shared-target in target/ with the
    workspace's dev profile (CI: the dependencies the tests built are reused).
    --echo: an echo server instead of Prism, N rounds of values; every request (path, query,
    headers, cookies, a JSON body) is held to the expansion OpenAPI's style table gives the
    document's parameters for the values sent (written apart from the runtime's), table in
    target/calls/echo-report.md; fails on any request that differs or was not sent.
cargo xtask fuzz [--seeds N] [--start S] [--batch B] [--shared-target]
    Random valid documents (seeds S..S+N, default 1..=20; deterministic by seed) combining the
    constructs the generator supports with names from the adversarial list; both crates of
    each generated and checked by one `cargo clippy --keep-going` per batch of B seeds
    (default 50; throwaway workspace target/fuzz/ws). Fails on a panic, an error on a valid
    document, a generation over a minute, a crate that does not compile or any warning; each
    failing seed is reduced to a small document written to tests/fuzz/seed-N.json (one over
    a minute is kept whole), and every document kept there is checked again on every run. --shared-target: as corpus's (target/, the repository's dev
    profile).
cargo xtask fuzz --print SEED
    That seed's document on standard output (to read it, or generate it by hand).
cargo xtask mutants [--ci] [--group NAME] [--file SUBSTR] [--timeout SECS]
    Mutation testing (cargo-mutants; install: cargo install cargo-mutants --locked) of the
    runtime and generator files that carry auth, rate limits, retries, deprecation, problems
    and parameter/body checks. Fails on a surviving mutant docs/reports/mutants.md does not explain.
    --ci runs the small selection .ci/run uses. Reports: target/mutants/<group>/.
cargo xtask public-api [--bless] [--allow-breaking]
    Compare the public API of the runtime crates (runtime/{server,client,cli}) with the
    reviewed listing in each public-api.txt, printing what was added (+) and removed or
    changed (-); --bless rewrites the listings, refusing a removal or change unless the crate's
    version moved to a new minor (0.x) or major (--allow-breaking overrides). A test runs the
    comparison, so `cargo test` fails on an unreviewed change.
cargo xtask book
    The book (book/): writes the pages it includes from generated code into
    book/src/generated/ (GitHub's issues-only crates' READMEs from
    ../shared/openapi-corpus/progenitor/api.github.com.json, a placeholder when it is absent;
    excerpts of the pet store's generated crates), then runs `mdbook build book` (mdbook on
    PATH or in ~/.cargo/bin). Fails on any warning mdbook prints.
cargo xtask bench [ARGS]
    Benchmarks (release build of benches/, package petstore-bench): generated vs hand-written
    server and client, codegen time, compile cost. Prints the table and writes
    docs/reports/benchmarks.md. ARGS go to petstore-bench (`--only server,client,codegen`,
    `--no-write`).
";

/// Runs the benchmark binary in release; it is a separate package so that its dependencies
/// (the reference service, a load generator) stay out of xtask.
fn bench(args: &[String]) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // Every binary of the package: the bench runs `petstore-codegen` beside itself.
    let built = std::process::Command::new(&cargo)
        .args(["build", "--release", "-p", "petstore-bench", "--bins"])
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !built.success() {
        return Err(format!("building petstore-bench failed: {built}"));
    }
    let status = std::process::Command::new(cargo)
        .args(["run", "--release", "-p", "petstore-bench", "--"])
        .args(args)
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("petstore-bench failed: {status}"))
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("codegen") => return codegen::main(&args[1..]),
        Some("book") => book::main(&args[1..]),
        Some("corpus") => corpus::main(&args[1..]),
        Some("calls") => calls::main(&args[1..]),
        Some("real-servers") => real_servers::main(&args[1..]),
        Some("compat") => compat::main(&args[1..]),
        Some("diff") => return apigen_cli::run(&args, codegen::invocation()),
        // `apigen mock` with this checkout's runtime crates.
        Some("mock") => return apigen_cli::run(&args, codegen::invocation()),
        Some("fuzz") => fuzz::main(&args[1..]),
        Some("serve-corpus") => serve_corpus::main(&args[1..]),
        Some("schema-suite") => schema_suite::main(&args[1..]),
        Some("bench") => bench(&args[1..]),
        Some("mutants") => mutants::main(&args[1..]),
        Some("public-api") => public_api::main(&args[1..]),
        Some("help") | Some("--help") | Some("-h") | None => {
            print!("{HELP}");
            Ok(())
        }
        Some(other) => Err(format!("unknown command `{other}`\n\n{HELP}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}
