//! Diagnostic: instructions per request, counted by valgrind's callgrind on the in-process
//! `profile` and `profile-client` modes of this binary. Unlike times, instruction counts do
//! not move with the load of a shared machine, so they show what the generated code costs
//! even when the throughput rows are within their noise. Skipped (with a note in the report)
//! when `valgrind` is not installed: it is a Debian package (`valgrind`), not a build
//! dependency.

use std::process::Command;

/// Requests of the short and the long run (server, client); the per-request figure is the
/// difference of the two counts over the difference of the requests, so start-up and set-up
/// cancel out.
pub const SERVER_RUNS: (u64, u64) = (1_000, 4_000);
pub const CLIENT_RUNS: (u64, u64) = (500, 2_000);

/// The part of the rows with tracing and metrics on (limiter off).
pub const OBSERVED: &str = "server, tracing and metrics on";

pub struct Row {
    pub request: &'static str,
    /// "server, limiter off", "server, limiter on", [`OBSERVED`] or "client".
    pub part: &'static str,
    pub generated: f64,
    /// The hand-written server or the plain reqwest client.
    pub baseline: f64,
}

impl Row {
    /// baseline / generated: above 1 means the generated side runs fewer instructions.
    pub fn ratio(&self) -> f64 {
        self.baseline / self.generated
    }
}

/// The valgrind version, or None when it cannot be run.
pub fn valgrind() -> Option<String> {
    let out = Command::new("valgrind").arg("--version").output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// Instructions `args` (a `profile…` invocation of this binary, with `{n}` for the request
/// count) runs per request.
fn per_request(args: &[&str], (short, long): (u64, u64)) -> Result<f64, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut counts = Vec::new();
    for n in [short, long] {
        let n = n.to_string();
        let out = Command::new("valgrind")
            .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
            .arg(&exe)
            .args(
                args.iter()
                    .map(|a| if *a == "{n}" { n.as_str() } else { a }),
            )
            .output()
            .map_err(|e| format!("valgrind: {e}"))?;
        let stderr = String::from_utf8_lossy(&out.stderr);
        if !out.status.success() {
            return Err(format!("valgrind {}: {stderr}", args.join(" ")));
        }
        let collected = stderr
            .lines()
            .find_map(|l| {
                l.split_once("Collected :")
                    .map(|(_, c)| c.trim().to_owned())
            })
            .and_then(|c| c.parse::<f64>().ok())
            .ok_or_else(|| format!("valgrind {}: no instruction count", args.join(" ")))?;
        counts.push(collected);
    }
    Ok((counts[1] - counts[0]) / (long - short) as f64)
}

pub fn run() -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    for rate_limit in [false, true] {
        let part = if rate_limit {
            "server, limiter on"
        } else {
            "server, limiter off"
        };
        for (index, (request, _)) in crate::server::workloads().into_iter().enumerate() {
            let index = index.to_string();
            let side = |kind: &'static str| {
                let mut args = vec!["profile", kind, index.as_str(), "{n}"];
                if rate_limit {
                    args.push("--rate-limit");
                }
                per_request(&args, SERVER_RUNS)
            };
            let row = Row {
                request,
                part,
                generated: side("generated")?,
                baseline: side("handwritten")?,
            };
            eprintln!(
                "  instructions {part:<20} {request:<22}: {:>7.0} vs {:>7.0} per request, hand/gen {:.3}",
                row.generated,
                row.baseline,
                row.ratio()
            );
            rows.push(row);
        }
    }
    // Tracing and metrics on (`observed`), limiter off: beside the hand-written router with
    // tower-http's trace layer and the same metrics; the report sets them beside the rows off.
    for (index, (request, _)) in crate::server::workloads().into_iter().enumerate() {
        let index = index.to_string();
        let side = |kind: &'static str| {
            per_request(
                &["profile", kind, index.as_str(), "{n}", "--observe"],
                SERVER_RUNS,
            )
        };
        let row = Row {
            request,
            part: OBSERVED,
            generated: side("generated")?,
            baseline: side("handwritten")?,
        };
        eprintln!(
            "  instructions {OBSERVED:<20} {request:<22}: {:>7.0} vs {:>7.0} per request, hand/gen {:.3}",
            row.generated,
            row.baseline,
            row.ratio()
        );
        rows.push(row);
    }
    for (request, op) in [
        ("listPets (limit=20)", "list"),
        ("createPet", "create"),
        ("getPet", "get"),
    ] {
        let row = Row {
            request,
            part: "client",
            generated: per_request(&["profile-client", "generated", op, "{n}"], CLIENT_RUNS)?,
            baseline: per_request(&["profile-client", "plain", op, "{n}"], CLIENT_RUNS)?,
        };
        eprintln!(
            "  instructions client {request:<22}: {:>7.0} vs {:>7.0} per call, plain/gen {:.3}",
            row.generated,
            row.baseline,
            row.ratio()
        );
        rows.push(row);
    }
    Ok(rows)
}
