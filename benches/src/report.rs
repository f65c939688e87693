//! The markdown report: the tables, the machine, the date, the commit, the method.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::Settings;
use crate::stats::{Pair, median};

/// The performance targets. Server: hand-written / generated, for instructions and CPU time per
/// request, in all six rows (the generated code knows the whole document in advance, so it
/// should cost no more than what a careful person writes by hand).
pub const SERVER_TARGET: f64 = 1.00;
/// Client: plain reqwest / generated, for instructions and CPU time per call, in all three
/// rows (the generated client adds authentication, retries and typed errors to reqwest, so a
/// little more than nothing is allowed).
pub const CLIENT_TARGET: f64 = 0.98;
/// The secondary target: generated / hand-written throughput (req/s, calls/s).
pub const THROUGHPUT_TARGET: f64 = 0.95;

pub struct Report {
    pub cores: usize,
    pub date: String,
    pub commit: String,
    pub cpu: String,
    pub load_before: String,
    pub load_after: String,
    pub settings: Settings,
    pub server: Vec<crate::server::Row>,
    pub inproc: Vec<crate::inproc::Row>,
    /// Instruction counts, and the valgrind that counted them (or why there are none).
    pub instructions: Vec<crate::instructions::Row>,
    pub instructions_note: Option<String>,
    /// The shared rate limiter's rows, and the redis-server they ran against (or why none).
    pub limiter: Vec<crate::limiter::Row>,
    pub limiter_note: Option<String>,
    pub client: Vec<crate::client::Row>,
    pub codegen: Vec<crate::codegen::Row>,
    pub compile: Vec<crate::compile::Row>,
    pub compile_corpus: Vec<crate::compile_corpus::Row>,
}

impl Report {
    pub fn new(settings: &Settings, root: &Path) -> Report {
        Report {
            cores: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1),
            date: utc_now(),
            commit: commit(root),
            cpu: cpu_model(),
            load_before: load_average(),
            load_after: String::new(),
            settings: settings.clone(),
            server: Vec::new(),
            inproc: Vec::new(),
            instructions: Vec::new(),
            instructions_note: None,
            limiter: Vec::new(),
            limiter_note: None,
            client: Vec::new(),
            codegen: Vec::new(),
            compile: Vec::new(),
            compile_corpus: Vec::new(),
        }
    }

    pub fn finish(&mut self) {
        self.load_after = load_average();
    }

    pub fn markdown(&self) -> String {
        let s = &self.settings;
        let mut md = String::new();
        let w = &mut md;
        let _ = writeln!(w, "# Benchmarks\n");
        let _ = writeln!(
            w,
            "Written by `cargo xtask bench` (the release build of `benches/`, package `petstore-bench`); do not edit by hand, rerun it. Instruction counts are the primary guide: they do not move with the load of a shared machine. Throughput and CPU time come second: they are what a team sees, and what the noise of a shared machine moves.\n"
        );
        let _ = writeln!(
            w,
            "The cost of generated code is reported beside this file: `docs/reports/build-cost.md` (`cargo xtask bench --only build-cost`: check and debug build of the GitHub and OpenAI crates, every feature and one tag's, beside octocrab and async-openai), `docs/reports/decode-speed.md` (`cargo xtask bench --only decode`: the generated types' decoding beside the same SDKs' types) and `docs/reports/check-profile.md` (`bash scripts/check-profile.sh`: where a check's time goes, by kind of generated code).\n"
        );
        let _ = writeln!(
            w,
            "- **date**: {} (UTC)\n- **commit**: {}\n- **machine**: {} core(s) (`std::thread::available_parallelism`), {}; load average {} before, {} after\n- **settings**: {} round(s) × {:.2} s per side per row (after {:.2} s of unrecorded warm-up each), {} concurrent keep-alive connections, sides alternated (the side that goes first swaps every round)\n- **load generator**: our own, in this crate (`benches/src/load.rs`): hyper's HTTP/1.1 client connection API, one request at a time per connection, every latency recorded. It builds from crates.io with the workspace, so a fresh machine needs no system package (`wrk`) or separately installed tool (`oha`), and it adds no pool, retry or redirect logic of its own to what is measured.\n",
            self.date,
            self.commit,
            self.cores,
            self.cpu,
            self.load_before,
            self.load_after,
            s.rounds,
            s.duration.as_secs_f64(),
            s.warmup.as_secs_f64(),
            s.connections,
        );
        self.targets(w);
        self.instructions_table(w);
        self.observed_table(w);
        if !self.server.is_empty() {
            let _ = writeln!(
                w,
                "## 2. Server: generated router vs hand-written axum, throughput and CPU (targets: CPU per request, hand-written / generated ≥ {SERVER_TARGET:.2}; req/s ratio ≥ {THROUGHPUT_TARGET}, secondary)\n"
            );
            let _ = writeln!(
                w,
                "| request | rate limiter | req/s generated | req/s hand-written | ratio (95 % CI) | p50 µs gen / hand | p99 µs gen / hand | server CPU µs/req gen / hand | CPU hand / gen (95 % CI) | peak RSS MiB gen / hand | CPU target? | req/s target? |"
            );
            let _ = writeln!(w, "|---|---|---:|---:|---|---|---|---|---|---|---|---|");
            for r in &self.server {
                let _ = writeln!(
                    w,
                    "| `{}` | {} | {} | {} | {} | {} | {} | {} | {} | {:.1} / {:.1} | {} | {} |",
                    r.request,
                    if r.rate_limit { "on" } else { "off" },
                    per_sec(&r.pair.generated.per_sec),
                    per_sec(&r.pair.handwritten.per_sec),
                    ratio_cell(&r.pair),
                    latency_cell(&r.pair.generated.p50_us, &r.pair.handwritten.p50_us),
                    latency_cell(&r.pair.generated.p99_us, &r.pair.handwritten.p99_us),
                    cpu_cell(&r.pair),
                    cpu_ratio_cell(&r.pair),
                    r.peak_kb_generated as f64 / 1024.0,
                    r.peak_kb_handwritten as f64 / 1024.0,
                    verdict_cpu(&r.pair, r.mismatch.as_deref(), SERVER_TARGET),
                    verdict_pair(&r.pair, r.mismatch.as_deref()),
                );
            }
            let _ = writeln!(w);
        }

        if !self.inproc.is_empty() {
            let _ = writeln!(
                w,
                "### 2b. Diagnostic: the same two routers called in process (no network, one thread; no target)\n"
            );
            let _ = writeln!(
                w,
                "| request | rate limiter | ns/req generated | ns/req hand-written | hand-written / generated |"
            );
            let _ = writeln!(w, "|---|---|---:|---:|---|");
            for r in &self.inproc {
                let _ = writeln!(
                    w,
                    "| `{}` | {} | {:.0} | {:.0} | **{:.3}** |",
                    r.request,
                    if r.rate_limit { "on" } else { "off" },
                    median(&r.ns_generated),
                    median(&r.ns_handwritten),
                    r.ratio()
                );
            }
            let _ = writeln!(w);
        }

        if !self.client.is_empty() {
            let _ = writeln!(
                w,
                "## 3. Client: generated client vs plain reqwest, throughput and CPU (targets: CPU per call, plain / generated ≥ {CLIENT_TARGET:.2}; calls/s ratio ≥ {THROUGHPUT_TARGET}, secondary)\n"
            );
            let _ = writeln!(
                w,
                "| operation | calls/s generated | calls/s plain reqwest | ratio (95 % CI) | p50 µs gen / plain | p99 µs gen / plain | client CPU µs/call gen / plain | CPU plain / gen (95 % CI) | CPU target? | calls/s target? |"
            );
            let _ = writeln!(w, "|---|---:|---:|---|---|---|---|---|---|---|");
            for r in &self.client {
                let _ = writeln!(
                    w,
                    "| `{}` | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                    r.request,
                    per_sec(&r.pair.generated.per_sec),
                    per_sec(&r.pair.handwritten.per_sec),
                    ratio_cell(&r.pair),
                    latency_cell(&r.pair.generated.p50_us, &r.pair.handwritten.p50_us),
                    latency_cell(&r.pair.generated.p99_us, &r.pair.handwritten.p99_us),
                    cpu_cell(&r.pair),
                    cpu_ratio_cell(&r.pair),
                    verdict_cpu(&r.pair, None, CLIENT_TARGET),
                    verdict_pair(&r.pair, None),
                );
            }
            let _ = writeln!(w);
        }

        self.codegen_table(w);
        if !self.compile.is_empty() {
            let _ = writeln!(
                w,
                "## 5. Compile cost: release build of each generated crate (no target; reported)\n"
            );
            let _ = writeln!(
                w,
                "| crate | crate alone, dependencies prebuilt | clean build incl. dependencies | crate's share | meets target? |"
            );
            let _ = writeln!(w, "|---|---:|---|---:|---|");
            for r in &self.compile {
                let (clean, share) = match r.clean_secs {
                    Some(c) => (
                        format!("{} ({})", seconds(c), r.clean_measured),
                        format!("{:.0} %", 100.0 * r.crate_secs / c),
                    ),
                    None => (r.clean_measured.clone(), "—".to_owned()),
                };
                let _ = writeln!(
                    w,
                    "| `{}` | {} | {} | {} | no target |",
                    r.krate,
                    seconds(r.crate_secs),
                    clean,
                    share
                );
            }
            let _ = writeln!(w);
        }

        if !self.compile_corpus.is_empty() {
            let _ = writeln!(
                w,
                "## 5b. Compile cost of the largest corpus documents, beside progenitor (no target; reported)\n"
            );
            let _ = writeln!(
                w,
                "`cargo check` and `cargo build --release` of each crate alone (dependencies and the runtime crates prebuilt, the crate cleaned first), in `target/bench-compile/corpus/`. progenitor generates a client only, from OpenAPI 3.0 documents.\n"
            );
            let _ = writeln!(
                w,
                "| document | size | OpenAPI | crate | Rust lines | check | release build |"
            );
            let _ = writeln!(w, "|---|---:|---|---|---:|---:|---:|");
            for r in &self.compile_corpus {
                let size = format!("{:.0} KiB", r.bytes as f64 / 1024.0);
                let mut first = true;
                // `lines` is None when the crate could not be generated.
                let mut row = |krate: &str,
                               lines: Option<usize>,
                               times: &Result<(f64, f64), String>| {
                    let (doc, size, version) = if first {
                        (format!("`{}`", r.document), size.clone(), r.version.clone())
                    } else {
                        (String::new(), String::new(), String::new())
                    };
                    first = false;
                    let (check, release) = match times {
                        Ok((c, b)) => (seconds(*c), seconds(*b)),
                        Err(e) => (e.clone(), "—".to_owned()),
                    };
                    let lines = lines.map_or_else(|| "—".to_owned(), |n| n.to_string());
                    let _ = writeln!(
                        w,
                        "| {doc} | {size} | {version} | {krate} | {lines} | {check} | {release} |"
                    );
                };
                for (side, lines, times) in &r.ours {
                    row(&format!("apigen {side}"), Some(*lines), times);
                }
                match &r.progenitor {
                    Ok((lines, check, release)) => {
                        row("progenitor client", Some(*lines), &Ok((*check, *release)))
                    }
                    Err(why) => row("progenitor client", None, &Err(why.clone())),
                }
            }
            let _ = writeln!(w);
        }

        if let Some(note) = &self.limiter_note {
            let _ = writeln!(
                w,
                "## 6. Shared rate limiter: Redis vs in memory vs none (no target; reported)\n"
            );
            if self.limiter.is_empty() {
                let _ = writeln!(w, "{note}\n");
            } else {
                let _ = writeln!(
                    w,
                    "The generated router (the reference service's) called in process, `GET /v1/pets/{{id}}`, one Enterprise key, with no limiter, `InMemoryRateLimiter` and `RedisRateLimiter` against `{note}` on loopback (one multiplexed connection); the three alternate within each round. Medians of {} round(s) × {:.2} s each. Round trips and commands per request are Redis's own counts (`INFO commandstats`) over the measured runs: `EVALSHA` calls, and every command executed, those the script runs included.\n",
                    s.rounds,
                    (s.duration / 2).as_secs_f64(),
                );
                let _ = writeln!(
                    w,
                    "| concurrent callers | ns/req no limiter | ns/req in memory | ns/req Redis | Redis / in memory | Redis / no limiter | Redis's cost per request, µs (Redis − in memory) | Redis round trips per request | Redis commands per request |"
                );
                let _ = writeln!(w, "|---:|---:|---:|---:|---|---|---:|---:|---:|");
                for r in &self.limiter {
                    let (off, memory, redis) =
                        (median(&r.ns_off), median(&r.ns_memory), median(&r.ns_redis));
                    let _ = writeln!(
                        w,
                        "| {} | {off:.0} | {memory:.0} | {redis:.0} | **{:.2}** | {:.2} | {:.1} | {:.3} | {:.2} |",
                        r.callers,
                        r.ratio(),
                        redis / off,
                        (redis - memory) / 1000.0,
                        r.round_trips_per_request,
                        r.redis_commands_per_request,
                    );
                }
                let _ = writeln!(w);
            }
        }

        let _ = writeln!(w, "## Method and noise\n");
        let _ = writeln!(
            w,
            "Each server runs in its own child process (the bench binary re-executed as `serve-generated` or `serve-handwritten`), started fresh for every row with the same 100 pets; its peak memory is `VmHWM` (from `/proc/self/status`) and its CPU time that of all its threads in nanoseconds (`clock_gettime(CLOCK_PROCESS_CPUTIME_ID)`; `/proc/self/stat`'s utime and stime count 10 ms ticks, about 3 % of what a server spends in one round), both read by the process itself (in the `POST` rows the peak includes the pets the run added, so the faster side stores more). Both servers use the reference service's store through its storage interface (`petstore_service::Storage` over `PetStore`, the interface that lets the service run on SQLite or PostgreSQL): the generated side is `petstore_service::router`, the generated router around that store; the hand-written side is `benches/src/handwritten.rs`, plain axum doing the same authentication (SHA-256 digest, constant-time compare), the same checks the spec asks for (a repeated `Authorization`, the head-size limits, parameters, the body's type and size), the same limiter and headers and the same JSON. A test (`benches/src/parity.rs`) holds the two to the same status and error code for the benchmarked requests and eleven refusals, and before each row one request to each server checks that both answer with the same status, header names and body. With the limiter on, the key is on the Enterprise plan with its quota raised so that nothing is ever refused (the spec's 10,000 a minute would run out within a second). The client rows run both clients in the bench process against one generated server (limiter off); the plain reqwest client is configured as the generated one is by default (same user agent, 10 s connect and 60 s request timeouts: reqwest's timeout arms a timer per request, 2–3 % of this loop, and a client without one is not what a team ships), and it decodes the same JSON into plain structs; the client CPU column is the bench process's own CPU time per call. Each comparison runs both sides alternately in the same run, {rounds} times each, the side that goes first swapping every round, and reports medians; the ratio is the ratio of the median throughputs. Many short rounds rather than a few long ones, so that a burst of load from other jobs lands on both sides. `petstore-bench profile generated|handwritten ROW N` and `petstore-bench profile-client generated|plain list|create|get N` run one side alone for a profiler: `valgrind --tool=callgrind` instruction counts are steady where times are not, and they are what guided the optimisations. The crates compared (this bench with the hand-written server, the generated crates, the reference service, the runtime crates) are each compiled as one codegen unit in release (the workspace's `Cargo.toml` says why): with the default 16 the same code's count moved by up to 3,000 instructions a request from one build to the next.",
            rounds = s.rounds,
        );
        let _ = writeln!(w);
        let _ = writeln!(
            w,
            "Noise: the load generator, the clients and the servers share the machine's {cores} core(s), so a throughput is that of the whole loop, not of the server alone, and other jobs on a shared machine move it by tens of percent from one second to the next (see the confidence intervals and the load averages above). CPU time per request is much steadier, because it counts only the measured process's own work whatever share of the machine it gets, so it is the better guide to what the generated code costs; the in-process table removes the network and the load generator altogether. Latencies are per request (send to last body byte) over every request of a run; p50 and p99 are medians over rounds. Codegen times are the median of {codegen_runs} calls after one unmeasured call. Compile times are wall times of `cargo build --release --locked -p <crate>` in a target directory of the crate's own under `target/bench-compile/`, after `cargo clean --release -p <crate>`. Nothing here asserts a timing.",
            cores = self.cores,
            codegen_runs = s.codegen_runs,
        );
        md
    }

    /// The performance targets, one line each, and how many rows meet them.
    fn targets(&self, w: &mut String) {
        // (target, rows meeting it, rows), for the parts this run measured.
        let mut lines: Vec<(String, usize, usize)> = Vec::new();
        let mut add = |what: String, rows: Vec<bool>| {
            if !rows.is_empty() {
                lines.push((what, rows.iter().filter(|met| **met).count(), rows.len()));
            }
        };
        let instructions = |part: &str, target: f64| -> Vec<bool> {
            self.instructions
                .iter()
                .filter(|r| r.part.starts_with(part))
                .map(|r| r.ratio() >= target)
                .collect()
        };
        add(
            format!(
                "server instructions per request, hand-written / generated ≥ {SERVER_TARGET:.2} (§1)"
            ),
            instructions("server", SERVER_TARGET),
        );
        add(
            format!("server CPU per request, hand-written / generated ≥ {SERVER_TARGET:.2} (§2)"),
            self.server
                .iter()
                .map(|r| {
                    r.mismatch.is_none() && valid(&r.pair) && r.pair.cpu_ratio() >= SERVER_TARGET
                })
                .collect(),
        );
        add(
            format!(
                "client instructions per call, plain reqwest / generated ≥ {CLIENT_TARGET:.2} (§1)"
            ),
            instructions("client", CLIENT_TARGET),
        );
        add(
            format!("client CPU per call, plain reqwest / generated ≥ {CLIENT_TARGET:.2} (§3)"),
            self.client
                .iter()
                .map(|r| valid(&r.pair) && r.pair.cpu_ratio() >= CLIENT_TARGET)
                .collect(),
        );
        for r in &self.codegen {
            if let Some(t) = r.target_secs {
                add(
                    format!("codegen of `{}` < {t} s, median, release (§4)", r.document),
                    vec![r.meets_target()],
                );
            }
        }
        if lines.is_empty() {
            return;
        }
        let (met, total) = lines
            .iter()
            .fold((0, 0), |(m, t), (_, met, total)| (m + met, t + total));
        let _ = writeln!(w, "## Targets\n");
        let _ = writeln!(w, "| target | rows meeting it |");
        let _ = writeln!(w, "|---|---|");
        for (what, met, total) in &lines {
            let _ = writeln!(w, "| {what} | **{met} of {total}** |");
        }
        let _ = writeln!(
            w,
            "\n**{met} of {total} rows meet their target.** Every ratio is arranged so that above 1 means the generated side is cheaper or faster. Throughput (req/s, calls/s against ≥ {THROUGHPUT_TARGET}) is reported in §2 and §3 as a secondary guide and not counted here; a CPU or throughput miss whose 95 % interval (a bootstrap over rounds) reaches the target is marked as within the noise of this run.\n"
        );
    }

    /// §1: instructions per request or call, counted by callgrind: the primary guide.
    fn instructions_table(&self, w: &mut String) {
        if self.instructions.is_empty() && self.instructions_note.is_none() {
            return;
        }
        let _ = writeln!(
            w,
            "## 1. Instructions per request (callgrind; the primary guide; targets: server ≥ {SERVER_TARGET:.2}, client ≥ {CLIENT_TARGET:.2})\n"
        );
        if let Some(note) = &self.instructions_note {
            let _ = writeln!(w, "{note}\n");
        }
        if self.instructions.is_empty() {
            return;
        }
        let _ = writeln!(
            w,
            "| part | request | generated | hand-written / plain reqwest | baseline / generated | meets target? |"
        );
        let _ = writeln!(w, "|---|---|---:|---:|---|---|");
        for r in &self.instructions {
            let target = if r.part.starts_with("server") {
                SERVER_TARGET
            } else {
                CLIENT_TARGET
            };
            let verdict = if r.ratio() >= target {
                "yes".to_owned()
            } else {
                format!(
                    "no ({:.0} instructions more than {target:.2} × the baseline allows)",
                    r.generated - r.baseline / target
                )
            };
            let _ = writeln!(
                w,
                "| {} | `{}` | {:.0} | {:.0} | **{:.3}** | {verdict} |",
                r.part,
                r.request,
                r.generated,
                r.baseline,
                r.ratio()
            );
        }
        let _ = writeln!(w);
    }

    /// §1b: what tracing and metrics on add to each side, from the §1 rows off and on.
    fn observed_table(&self, w: &mut String) {
        let on: Vec<_> = self
            .instructions
            .iter()
            .filter(|r| r.part == crate::instructions::OBSERVED)
            .collect();
        if on.is_empty() {
            return;
        }
        let _ = writeln!(
            w,
            "### 1b. What tracing and metrics cost (instructions per request, limiter off; no target)
"
        );
        let _ = writeln!(
            w,
            "On: a `tracing` subscriber at INFO writing to a sink and the reference service's `metrics` recorder installed, nothing exporting (`benches/src/observed.rs`); the hand-written side adds `tower-http`'s `TraceLayer` (its span at INFO, no event per response, as the generated router) and a middleware recording the same metrics. Off: the §1 rows without them (no subscriber, no recorder).\n"
        );
        let _ = writeln!(
            w,
            "| request | generated off | generated on | generated on / off | hand-written off | hand-written on | hand-written on / off |"
        );
        let _ = writeln!(w, "|---|---:|---:|---|---:|---:|---|");
        for r in on {
            let Some(off) = self
                .instructions
                .iter()
                .find(|o| o.part == "server, limiter off" && o.request == r.request)
            else {
                continue;
            };
            let _ = writeln!(
                w,
                "| `{}` | {:.0} | {:.0} | **{:.3}** | {:.0} | {:.0} | **{:.3}** |",
                r.request,
                off.generated,
                r.generated,
                r.generated / off.generated,
                off.baseline,
                r.baseline,
                r.baseline / off.baseline
            );
        }
        let _ = writeln!(w);
    }

    /// §4: the generator's speed, with the system allocator and with mimalloc.
    fn codegen_table(&self, w: &mut String) {
        if self.codegen.is_empty() {
            return;
        }
        let _ = writeln!(
            w,
            "## 4. Codegen: `apigen::generate` as a library call (target: largest corpus document < 0.5 s, median, release)\n"
        );
        let _ = writeln!(
            w,
            "The same calls in two processes: `petstore-bench` itself, with the system allocator (glibc's malloc), and `petstore-codegen`, with mimalloc, the global allocator of `cargo xtask codegen` (xtask's `ALLOCATOR`). The generator allocates and frees tens of millions of small tokens, syntax nodes and strings on a large document; which allocator serves them is the calling program's choice, and the target is judged on the one our command runs with. Both processes' output hashes alike (checked: a row whose outputs differ is marked).\n"
        );
        let _ = writeln!(
            w,
            "| document | size | median, mimalloc (runs) | median, system allocator (runs) | of which reading the document | lines generated: all files / Rust | operations | warnings | meets target? |"
        );
        let _ = writeln!(w, "|---|---:|---|---|---|---|---:|---:|---|");
        for r in &self.codegen {
            let fast = r.mimalloc_median_secs();
            let verdict = match (&r.error, r.target_secs, fast, &r.mimalloc_times) {
                (Some(e), _, _, _) => format!("no ({e})"),
                (None, Some(_), None, Err(why)) => format!("not judged ({why})"),
                (None, Some(t), Some(_), _) if r.meets_target() => format!("yes (< {t} s)"),
                (None, Some(t), _, _) => format!("no (≥ {t} s)"),
                (None, None, _, _) => "no target".to_owned(),
            };
            let mimalloc = match &r.mimalloc_times {
                Ok(times) => format!("{} ({})", seconds(median(times)), times.len()),
                Err(why) => format!("— ({why})"),
            };
            let _ = writeln!(
                w,
                "| `{}` | {:.1} KiB | {mimalloc} | {} ({}) | {} | {} / {} | {} | {} | {verdict} |",
                r.document,
                r.bytes as f64 / 1024.0,
                seconds(r.median_secs()),
                r.times.len(),
                seconds(median(&r.load_times)),
                r.lines_total,
                r.lines_rust,
                r.operations_hint,
                r.warnings,
            );
        }
        let _ = writeln!(w);
    }
}

fn valid(pair: &Pair) -> bool {
    pair.generated.unexpected == 0 && pair.handwritten.unexpected == 0
}

/// Whether a row meets the throughput target (generated / baseline req/s or calls/s).
fn verdict_pair(pair: &Pair, mismatch: Option<&str>) -> String {
    if !valid(pair) {
        return format!(
            "invalid: {} / {} unexpected answers",
            pair.generated.unexpected, pair.handwritten.unexpected
        );
    }
    if mismatch.is_some() {
        return "invalid: the servers answer differently".to_owned();
    }
    verdict(pair.ratio(), pair.ratio_ci(), THROUGHPUT_TARGET)
}

/// Whether a row meets its CPU target (baseline / generated CPU time per request or call).
fn verdict_cpu(pair: &Pair, mismatch: Option<&str>, target: f64) -> String {
    if !valid(pair) || mismatch.is_some() {
        return "invalid (see the req/s column)".to_owned();
    }
    verdict(pair.cpu_ratio(), pair.cpu_ratio_ci(), target)
}

fn verdict(ratio: f64, (_, hi): (f64, f64), target: f64) -> String {
    if ratio >= target {
        "yes".to_owned()
    } else if hi >= target {
        format!(
            "no ({:.1} % short, within the noise: the interval reaches {target})",
            100.0 * (target - ratio)
        )
    } else {
        format!("no ({:.1} % short)", 100.0 * (target - ratio))
    }
}

fn cpu_ratio_cell(pair: &Pair) -> String {
    let (lo, hi) = pair.cpu_ratio_ci();
    format!("**{:.3}** ({lo:.3}–{hi:.3})", pair.cpu_ratio())
}

fn per_sec(values: &[f64]) -> String {
    format!("{:.0}", median(values))
}

fn ratio_cell(pair: &Pair) -> String {
    let (lo, hi) = pair.ratio_ci();
    format!("**{:.3}** ({lo:.3}–{hi:.3})", pair.ratio())
}

fn latency_cell(generated: &[f64], handwritten: &[f64]) -> String {
    format!("{:.0} / {:.0}", median(generated), median(handwritten))
}

fn cpu_cell(pair: &Pair) -> String {
    format!(
        "{:.1} / {:.1}",
        median(&pair.generated.cpu_us),
        median(&pair.handwritten.cpu_us),
    )
}

fn seconds(s: f64) -> String {
    if s < 1.0 {
        format!("{:.1} ms", s * 1000.0)
    } else {
        format!("{s:.2} s")
    }
}

fn commit(root: &Path) -> String {
    let git = |args: &[&str]| {
        Command::new("git")
            .current_dir(root)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
    };
    match git(&["rev-parse", "--short", "HEAD"]) {
        Some(hash) => {
            let dirty = git(&["status", "--porcelain"]).is_some_and(|s| !s.is_empty());
            if dirty {
                format!("`{hash}` (with uncommitted changes in the working tree)")
            } else {
                format!("`{hash}`")
            }
        }
        None => "unknown (not a git checkout)".to_owned(),
    }
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines()
                .find_map(|l| l.strip_prefix("model name"))
                .map(|rest| rest.trim_start_matches([' ', '\t', ':']).trim().to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".to_owned())
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| "unknown".to_owned())
}

/// `YYYY-MM-DD HH:MM` in UTC from the system clock.
fn utc_now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60
    )
}

/// Days since 1970-01-01 → (year, month, day), proleptic Gregorian (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}
