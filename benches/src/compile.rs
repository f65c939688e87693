//! Compile cost of each generated crate: release build of the crate alone with its
//! dependencies already built, and that time's share of a clean release build of the crate
//! with all its dependencies.
//!
//! Each crate builds in its own target directory under `target/bench-compile/<crate>`, with
//! only that crate selected (`-p`), so features are resolved as a user of the crate alone would
//! get them. The first time a directory is created, the whole clean build is timed and recorded
//! in `clean-build.txt` there; later runs reuse that record (a clean build of axum or reqwest
//! and their dependencies takes minutes on two cores) unless `--fresh-compile` is given.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

pub struct Row {
    pub krate: &'static str,
    /// Seconds to build the crate alone (dependencies prebuilt).
    pub crate_secs: f64,
    /// Seconds of the clean build (dependencies + crate), and when it was measured.
    pub clean_secs: Option<f64>,
    pub clean_measured: String,
}

fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned())
}

fn cargo_run(root: &Path, args: &[&str], target_dir: &Path) -> Result<f64, String> {
    let started = Instant::now();
    let out = Command::new(cargo())
        .current_dir(root)
        .args(args)
        .arg("--target-dir")
        .arg(target_dir)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    let secs = started.elapsed().as_secs_f64();
    if !out.status.success() {
        return Err(format!(
            "`cargo {}` failed:\n{}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(secs)
}

pub fn run(root: &Path, fresh: bool, today: &str) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    for krate in ["petstore-server", "petstore-client"] {
        let dir: PathBuf = root.join("target/bench-compile").join(krate);
        let record = dir.join("clean-build.txt");
        if fresh && dir.exists() {
            std::fs::remove_dir_all(&dir)
                .map_err(|e| format!("cannot remove {}: {e}", dir.display()))?;
        }
        let clean = !dir.join("release").exists();
        if clean {
            eprintln!("  compile {krate}: clean build with dependencies (first run only)…");
        }
        // Dependencies first (and, when the directory is new, the timed clean build).
        let build = ["build", "--release", "--locked", "-p", krate];
        let full = cargo_run(root, &build, &dir)?;
        if clean {
            std::fs::write(&record, format!("{full:.3} {today}\n"))
                .map_err(|e| format!("cannot write {}: {e}", record.display()))?;
        }
        let (clean_secs, clean_measured) = match std::fs::read_to_string(&record) {
            Ok(text) => {
                let mut it = text.split_whitespace();
                let secs = it.next().and_then(|s| s.parse().ok());
                let when = it.collect::<Vec<_>>().join(" ");
                (
                    secs,
                    if clean {
                        "this run".to_owned()
                    } else {
                        format!("recorded {when}")
                    },
                )
            }
            Err(_) => (None, "not recorded (run with --fresh-compile)".to_owned()),
        };
        // Then the crate alone.
        cargo_run(root, &["clean", "--release", "-p", krate], &dir)?;
        let crate_secs = cargo_run(root, &build, &dir)?;
        eprintln!("  compile {krate}: {crate_secs:.1} s alone");
        rows.push(Row {
            krate,
            crate_secs,
            clean_secs,
            clean_measured,
        });
    }
    Ok(rows)
}
