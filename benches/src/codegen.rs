//! Generator speed: `apigen::generate` called as a library (no cargo, no disk writes) on the
//! pet store document and on the largest document of the public corpus.

use std::path::Path;
use std::time::Instant;

use crate::stats::median;

pub struct Row {
    pub document: String,
    pub bytes: u64,
    /// Seconds, one per run.
    pub times: Vec<f64>,
    /// Seconds, one per run, in `petstore-codegen` (the same calls with mimalloc as the global
    /// allocator, as `cargo xtask codegen` runs them), or why there are none.
    pub mimalloc_times: Result<Vec<f64>, String>,
    /// Seconds of `apigen::load::parse` alone (text → `openapiv3` document), one per run.
    pub load_times: Vec<f64>,
    /// Lines of every generated file / of the Rust files / of those outside the copied runtime.
    pub lines_total: usize,
    pub lines_rust: usize,
    pub lines_rust_generated: usize,
    pub operations_hint: usize,
    pub warnings: usize,
    /// Set when the generator rejected the document.
    pub error: Option<String>,
    /// Target in seconds, if any.
    pub target_secs: Option<f64>,
}

impl Row {
    pub fn median_secs(&self) -> f64 {
        median(&self.times)
    }

    /// The median with mimalloc, the figure the target is judged on.
    pub fn mimalloc_median_secs(&self) -> Option<f64> {
        self.mimalloc_times.as_ref().ok().map(|t| median(t))
    }

    /// Generated without error, and the median with mimalloc is under the target.
    pub fn meets_target(&self) -> bool {
        self.error.is_none()
            && self
                .target_secs
                .zip(self.mimalloc_median_secs())
                .is_some_and(|(target, median)| median < target)
    }
}

pub fn run(root: &Path, runs: usize) -> Result<Vec<Row>, String> {
    // The corpus of public documents lives beside the repository (as for `cargo xtask corpus`).
    let corpus = root.join("../shared/openapi-corpus");
    let mut docs = vec![(
        root.join("spec/petstore.yaml"),
        "spec/petstore.yaml".to_owned(),
        "petstore",
        None,
    )];
    match largest_corpus_document(&corpus) {
        Some(path) => {
            // Named relative to the repository, so the report reads the same on any machine.
            let relative = path.strip_prefix(&corpus).unwrap_or(&path);
            let label = Path::new("../shared/openapi-corpus")
                .join(relative)
                .display()
                .to_string();
            docs.push((path, label, "corpus", Some(0.5)));
        }
        None => eprintln!("  warning: no corpus found; skipping the largest-document row"),
    }

    let mut rows = Vec::new();
    for (path, label, name, target_secs) in docs {
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let options = apigen::Options {
            api_name: None,
            name: name.to_owned(),
            spec_label: label.clone(),
            command: "cargo xtask codegen".to_owned(),
            string_formats: false,
            ..Default::default()
        };
        // One unmeasured run first (page cache, allocator warm-up).
        let first = apigen::generate(&text, &options);
        let mut times = Vec::with_capacity(runs);
        let mut load_times = Vec::with_capacity(runs);
        for _ in 0..runs {
            let started = Instant::now();
            let out = apigen::generate(&text, &options);
            times.push(started.elapsed().as_secs_f64());
            drop(std::hint::black_box(out));
            let started = Instant::now();
            let doc = apigen::load::parse(&text);
            load_times.push(started.elapsed().as_secs_f64());
            drop(std::hint::black_box(doc));
        }
        let mimalloc_times =
            time_with_mimalloc(&path, name, &label, runs, crate::digest::output(&first));
        let mut row = Row {
            document: label,
            mimalloc_times,
            bytes: text.len() as u64,
            times,
            load_times,
            lines_total: 0,
            lines_rust: 0,
            lines_rust_generated: 0,
            operations_hint: 0,
            warnings: 0,
            error: None,
            target_secs,
        };
        match first {
            Ok(output) => {
                for (file, contents) in &output.files {
                    let lines = contents.lines().count();
                    row.lines_total += lines;
                    if file.ends_with(".rs") {
                        row.lines_rust += lines;
                        if !file.contains("/src/runtime/") {
                            row.lines_rust_generated += lines;
                        }
                    }
                    if file == "server/src/router.rs" {
                        row.operations_hint = contents.matches("fn serve_").count();
                    }
                }
                row.warnings = output.warnings.len();
            }
            Err(diagnostics) => {
                let text = diagnostics.to_string();
                let first_line = text.lines().next().unwrap_or("").to_owned();
                row.error = Some(format!(
                    "rejected: {} error(s), first: {first_line}",
                    diagnostics.0.len()
                ));
            }
        }
        eprintln!(
            "  codegen {:<60} median {:.3} s (system allocator), {} (mimalloc)",
            row.document,
            row.median_secs(),
            match row.mimalloc_median_secs() {
                Some(s) => format!("{s:.3} s"),
                None => "not measured".to_owned(),
            }
        );
        rows.push(row);
    }
    Ok(rows)
}

/// Runs `petstore-codegen` (built beside this binary by `cargo xtask bench`) on the document:
/// its run times, or why there are none. Its output must hash as `expected`, this process's.
fn time_with_mimalloc(
    doc: &Path,
    name: &str,
    label: &str,
    runs: usize,
    expected: u64,
) -> Result<Vec<f64>, String> {
    let exe = std::env::current_exe()
        .map_err(|e| format!("cannot find this binary: {e}"))?
        .with_file_name("petstore-codegen");
    if !exe.exists() {
        return Err(
            "`petstore-codegen` is not built (`cargo build --release -p petstore-bench --bins`; `cargo xtask bench` does it)"
                .to_owned(),
        );
    }
    let out = std::process::Command::new(&exe)
        .arg(doc)
        .args([name, label, &runs.to_string()])
        .output()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    if !out.status.success() {
        return Err(format!(
            "petstore-codegen failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut times = Vec::new();
    let mut digest = None;
    for line in stdout.lines() {
        match line.split_once(' ') {
            Some(("time", secs)) => times.push(
                secs.parse::<f64>()
                    .map_err(|_| format!("petstore-codegen printed `{line}`"))?,
            ),
            Some(("digest", hex)) => digest = u64::from_str_radix(hex, 16).ok(),
            _ => return Err(format!("petstore-codegen printed `{line}`")),
        }
    }
    if digest != Some(expected) {
        return Err("petstore-codegen's output differs from this process's".to_owned());
    }
    Ok(times)
}

/// The largest `.json`/`.yaml`/`.yml` file under the corpus directory.
fn largest_corpus_document(dir: &Path) -> Option<std::path::PathBuf> {
    documents_by_size(dir).into_iter().next().map(|(_, p)| p)
}

/// Every `.json`, `.yaml` and `.yml` file under `dir`, with its size, largest first.
pub fn documents_by_size(dir: &Path) -> Vec<(u64, std::path::PathBuf)> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(meta) = entry.metadata() else { continue };
            if meta.is_dir() {
                stack.push(path);
            } else if path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| matches!(e, "json" | "yaml" | "yml"))
            {
                found.push((meta.len(), path));
            }
        }
    }
    found.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    found
}

/// `petstore-bench codegen-dump DOC OUT [--runs N]`: generates from one document, writes every
/// output file (and the warnings, or the errors, as `WARNINGS.txt` / `ERRORS.txt`) under OUT,
/// then times N more calls (default 0) and prints their median with the process's CPU time.
/// Used to check that an optimisation of the generator leaves its output byte for byte
/// (`diff -r`) and to time or profile one document alone.
pub fn dump(args: &[String]) -> Result<(), String> {
    let usage = "usage: petstore-bench codegen-dump DOC OUT [--runs N]";
    let mut positional = Vec::new();
    let mut runs = 0usize;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if arg == "--runs" {
            runs = it
                .next()
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| usage.to_owned())?;
        } else {
            positional.push(arg);
        }
    }
    let [doc, out] = positional[..] else {
        return Err(usage.to_owned());
    };
    let text = std::fs::read_to_string(doc).map_err(|e| format!("cannot read {doc}: {e}"))?;
    let options = apigen::Options {
        api_name: None,
        name: "dump".to_owned(),
        spec_label: doc.clone(),
        command: "cargo xtask codegen".to_owned(),
        string_formats: false,
        ..Default::default()
    };
    let out = Path::new(out);
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let write = |name: &str, contents: &str| {
        let path = out.join(name);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        std::fs::write(&path, contents).map_err(|e| format!("{}: {e}", path.display()))
    };
    match apigen::generate(&text, &options) {
        Ok(output) => {
            for (file, contents) in &output.files {
                write(file, contents)?;
            }
            let warnings: String = output.warnings.iter().map(|w| format!("{w}\n")).collect();
            write("WARNINGS.txt", &warnings)?;
        }
        Err(diagnostics) => write("ERRORS.txt", &format!("{diagnostics}\n"))?,
    }
    if runs > 0 {
        let cpu_before = crate::serve::cpu_ns_of_self();
        let mut times = Vec::with_capacity(runs);
        for _ in 0..runs {
            let started = Instant::now();
            let result = apigen::generate(&text, &options);
            times.push(started.elapsed().as_secs_f64());
            drop(std::hint::black_box(result));
        }
        let cpu = (crate::serve::cpu_ns_of_self() - cpu_before) as f64 / crate::serve::NS_PER_SEC;
        let mut sorted = times.clone();
        sorted.sort_by(f64::total_cmp);
        println!(
            "{doc}: median {:.3} s over {runs} runs (min {:.3}, max {:.3}); CPU {:.3} s per run",
            median(&times),
            sorted[0],
            sorted[runs - 1],
            cpu / runs as f64
        );
    }
    Ok(())
}
