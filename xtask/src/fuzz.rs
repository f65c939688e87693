//! `cargo xtask fuzz [--seeds N] [--start S] [--batch B] | --print SEED`: random valid
//! documents in, both crates generated and checked by clippy, every failure reduced to a small
//! document.
//!
//! Each seed makes one document (a small xorshift generator, deterministic by seed) that
//! combines what the generator supports: component schemas (objects, enumerations, arrays,
//! maps, `oneOf`, `allOf`, recursion, nullability, constraints), parameters in every
//! location, JSON, form, text and binary bodies, responses with headers and status ranges,
//! security schemes and requirements; every third seed is an OpenAPI 3.1 document, with
//! `type: [T, "null"]` and `anyOf: [X, {type: null}]`, numeric `exclusiveMinimum`, `const`,
//! `prefixItems`, `examples` and `webhooks`. Names are drawn from the adversarial list: every
//! identifier the emitters introduce (`apigen::naming::reserved`), prelude and std names and
//! keywords. Seeds are generated in batches; a batch's crates are written into one throwaway
//! workspace (`target/fuzz/ws`) and checked by ONE `cargo clippy --workspace --keep-going`
//! with the corpus command's target directory, so dependencies are built once for both.
//!
//! A failure is a generator panic, a generator error on a valid document, a generation that
//! takes over a minute (kept whole, not reduced), a crate that does not compile, or any rustc
//! or clippy warning. Each is reduced (nodes of the document removed while the failure stays
//! the same, the candidates of a round checked together) and written to
//! `tests/fuzz/seed-N.json`. Every document kept there is checked again on every run, so
//! once fixed, a failure stays fixed.

use crate::corpus::{self, CrateBuild};
use apigen::naming::reserved;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

mod documents;
mod generator;

use documents::*;
use generator::*;

pub fn main(args: &[String]) -> Result<(), String> {
    let started = Instant::now();
    let mut seeds = 20u64;
    let mut start = 1u64;
    let mut batch = 50usize;
    let mut shared_target = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut number = |what: &str| -> Result<u64, String> {
            it.next()
                .and_then(|n| n.parse().ok())
                .ok_or_else(|| format!("{what} needs a number"))
        };
        match arg.as_str() {
            "--seeds" => seeds = number("--seeds")?,
            "--start" => start = number("--start")?,
            "--batch" => batch = number("--batch")?.max(1) as usize,
            "--shared-target" => shared_target = true,
            // One seed's document on standard output, to look at or to generate by hand.
            "--print" => {
                print!("{}", document(number("--print")?).render());
                return Ok(());
            }
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    let root = crate::codegen::root();
    let root = root.canonicalize().unwrap_or(root);
    let ws = root.join("target/fuzz/ws");
    // The corpus command's target directory: both build throwaway crates with the same
    // dependencies (the repository's Cargo.lock), so CI builds those once for both; with
    // `--shared-target`, as the corpus's, the repository's and its dev profile.
    let build = if shared_target {
        BuildDir {
            dir: root.join("target"),
            profile: crate::corpus::repository_profile(&root)?,
        }
    } else {
        BuildDir {
            dir: root.join("target/corpus/target"),
            profile: String::new(),
        }
    };
    let kept_dir = root.join("tests/fuzz");

    // The documents kept from earlier runs first, then the seeds.
    let mut cases: Vec<Case> = Vec::new();
    let mut kept: Vec<PathBuf> = fs::read_dir(&kept_dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    kept.sort();
    for path in kept {
        let text = fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("kept");
        cases.push(Case {
            label: format!("tests/fuzz/{name}.json"),
            slug: format!("kept-{}", slug(name)),
            text,
            seed: None,
        });
    }
    for seed in start..start + seeds {
        cases.push(Case {
            label: format!("seed {seed}"),
            slug: format!("seed-{seed}"),
            text: document(seed).render(),
            seed: Some(seed),
        });
    }

    fs::create_dir_all(&ws).map_err(|e| format!("cannot create {}: {e}", ws.display()))?;
    let mut failures: Vec<(Case, Failure)> = Vec::new();
    for chunk in cases.chunks(batch) {
        eprintln!(
            "fuzz: checking {} (of {} documents)",
            chunk
                .iter()
                .map(|c| c.label.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            cases.len()
        );
        let found = check(&root, &ws, &build, chunk)?;
        for (case, failure) in chunk.iter().zip(found) {
            if let Some(f) = failure {
                eprintln!("fuzz: {}: {}", case.label, f.summary);
                failures.push((case.clone(), f));
            }
        }
    }

    let mut report = String::new();
    for (case, failure) in &failures {
        let _ = writeln!(report, "{}: {}", case.label, failure.summary);
        let Some(seed) = case.seed else {
            continue;
        };
        // A document that takes too long is kept whole: each candidate of a reduction could
        // take as long again.
        let small = if failure.signature == TOO_LONG {
            case.text.clone()
        } else {
            eprintln!("fuzz: reducing seed {seed} ({})", failure.signature);
            reduce(&root, &ws, &build, seed, &case.text, &failure.signature)?
        };
        fs::create_dir_all(&kept_dir)
            .map_err(|e| format!("cannot create {}: {e}", kept_dir.display()))?;
        let path = kept_dir.join(format!("seed-{seed}.json"));
        fs::write(&path, &small).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let _ = writeln!(
            report,
            "    reduced from {} to {} bytes: tests/fuzz/seed-{seed}.json",
            case.text.len(),
            small.len()
        );
    }
    println!(
        "fuzz: {} seeds ({}..={}) and {} kept documents checked in {:.0} s: {}",
        seeds,
        start,
        start + seeds - 1,
        cases.len() as u64 - seeds,
        started.elapsed().as_secs_f64(),
        if failures.is_empty() {
            "no failure".to_string()
        } else {
            format!("{} failing", failures.len())
        }
    );
    print!("{report}");
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "fuzz: {} failing documents; reduced ones are in tests/fuzz/ (fix, then keep them as regressions)",
            failures.len()
        ))
    }
}

#[derive(Debug, Clone)]
struct Case {
    label: String,
    slug: String,
    text: String,
    seed: Option<u64>,
}

#[derive(Debug, Clone)]
struct Failure {
    /// What kind of failure: reduction keeps documents that fail the same way.
    signature: String,
    summary: String,
}

fn slug(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect()
}

/// Where the crates are checked: the target directory and the `[profile.dev]` tables the
/// workspace's manifest carries (so that dependencies built there are reused).
struct BuildDir {
    dir: PathBuf,
    profile: String,
}

/// Generates every case, checks the crates of those that generate in one clippy run, and
/// says how each failed (`None`: it did not).
fn check(
    root: &Path,
    ws: &Path,
    build: &BuildDir,
    cases: &[Case],
) -> Result<Vec<Option<Failure>>, String> {
    let mut out: Vec<Option<Failure>> = vec![None; cases.len()];
    let mut members = Vec::new();
    let mut built: Vec<(usize, String)> = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        match generate(case) {
            Ok(files) => {
                corpus::write_crates(ws, &case.slug, &files)?;
                members.push(format!("{}-server", case.slug));
                members.push(format!("{}-client", case.slug));
                built.push((i, case.slug.clone()));
            }
            Err(f) => out[i] = Some(f),
        }
    }
    if members.is_empty() {
        return Ok(out);
    }
    corpus::write_workspace_with(ws, root, &members, &build.profile)?;
    let names = corpus::cargo_metadata(ws).map_err(|stderr| {
        format!(
            "cargo cannot load the fuzz workspace: {}",
            corpus::first_cargo_error(&stderr)
        )
    })?;
    let (lines, _, stderr) = corpus::cargo_build(ws, &build.dir, &[])?;
    let mut tally = corpus::tally(lines.iter().map(String::as_str), &names);
    for (i, slug) in built {
        out[i] = ["server", "client"].into_iter().find_map(|side| {
            let b: CrateBuild = tally.remove(&format!("{slug}-{side}")).unwrap_or_default();
            build_failure(side, &b, &stderr)
        });
    }
    Ok(out)
}

fn build_failure(side: &str, b: &CrateBuild, stderr: &str) -> Option<Failure> {
    if let Some(e) = b.errors.first() {
        return Some(Failure {
            signature: format!(
                "{side} {}",
                e.code
                    .clone()
                    .unwrap_or_else(|| corpus::kind_of(&e.message))
            ),
            summary: format!("{side} does not compile: {}", e.short()),
        });
    }
    if let Some((kind, (count, at))) = b.warning_kinds.iter().next() {
        return Some(Failure {
            signature: format!("{side} warning {kind}"),
            summary: format!("{side} warns ({count}× {kind}, first at {at})"),
        });
    }
    (!b.compiled).then(|| Failure {
        signature: format!("{side} not built"),
        summary: format!("{side} not built: {}", corpus::first_cargo_error(stderr)),
    })
}

/// Generates a case's files; a panic or an error on a valid document is a failure.
/// How long one document may take to generate: the corpus's largest take seconds, so a
/// minute is a blow-up in the generator (seed 109, a type recursing through two required
/// members, once took minutes and gigabytes), not a slow machine.
const GENERATE_LIMIT: std::time::Duration = std::time::Duration::from_secs(60);

/// The signature of a generation that took longer than [`GENERATE_LIMIT`].
const TOO_LONG: &str = "generate: too long";

fn generate(case: &Case) -> Result<BTreeMap<String, String>, Failure> {
    let options = apigen::Options {
        api_name: None,
        name: case.slug.clone(),
        spec_label: case.label.clone(),
        command: "cargo xtask fuzz".into(),
        string_formats: false,
        select: Default::default(),
        // Every case's crates are in `target/fuzz/ws/<slug>-*`.
        runtime: crate::codegen::runtime_beside(&crate::codegen::root().join("target/fuzz/ws/x")),
        without_tag_features: false,
    };
    let text = case.text.clone();
    // On a thread of its own, so that a generation that does not end is a finding rather
    // than a run that never ends (the thread is left to the process's exit).
    let (sent, received) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let result = std::panic::catch_unwind(move || apigen::generate(&text, &options));
        let _ = sent.send(result);
    });
    let Ok(result) = received.recv_timeout(GENERATE_LIMIT) else {
        return Err(Failure {
            signature: TOO_LONG.into(),
            summary: format!(
                "the generator took over {} s (the corpus's largest documents take seconds)",
                GENERATE_LIMIT.as_secs()
            ),
        });
    };
    match result {
        Ok(Ok(output)) => Ok(output.files),
        Ok(Err(diagnostics)) => {
            let first = diagnostics.0.first();
            Err(Failure {
                // Without the pointer, which moves as the document shrinks.
                signature: format!(
                    "generate: {}",
                    first
                        .map(|d| corpus::kind_of(&d.message))
                        .unwrap_or_default()
                ),
                summary: format!("the generator refused a valid document: {diagnostics}"),
            })
        }
        Err(panic) => {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Err(Failure {
                signature: "panic".into(),
                summary: format!("the generator panicked: {message}"),
            })
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Reduction

/// The smallest document found that still fails with `signature`: each round removes one
/// node of the tree (largest first), checks the candidates together and keeps the smallest
/// that fails the same way, until no removal does.
fn reduce(
    root: &Path,
    ws: &Path,
    build: &BuildDir,
    seed: u64,
    text: &str,
    signature: &str,
) -> Result<String, String> {
    const PER_ROUND: usize = 24;
    let mut current = document(seed);
    debug_assert_eq!(current.render(), text);
    let mut round = 0;
    loop {
        round += 1;
        let mut paths = Vec::new();
        current.node_paths(&mut Vec::new(), &mut paths);
        // Largest subtrees first: one success removes the most.
        paths.sort_by_key(|p| std::cmp::Reverse(current.at(p).map_or(0, |v| v.render().len())));
        let mut improved = false;
        for chunk in paths.chunks(PER_ROUND) {
            let candidates: Vec<Value> = chunk.iter().filter_map(|p| current.without(p)).collect();
            let cases: Vec<Case> = candidates
                .iter()
                .enumerate()
                .map(|(i, doc)| Case {
                    label: format!("seed {seed}, reduction {round}.{i}"),
                    slug: format!("reduce-{i}"),
                    text: doc.render(),
                    seed: None,
                })
                .collect();
            let results = check(root, ws, build, &cases)?;
            let best = cases
                .iter()
                .zip(&candidates)
                .zip(results)
                .filter(|(_, r)| r.as_ref().is_some_and(|f| f.signature == signature))
                .min_by_key(|((case, _), _)| case.text.len());
            if let Some(((_, doc), _)) = best {
                current = doc.clone();
                improved = true;
                break;
            }
        }
        eprintln!(
            "fuzz: seed {seed} round {round}: {} bytes",
            current.render().len()
        );
        if !improved {
            return Ok(current.render());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_are_deterministic_by_seed_and_differ_between_seeds() {
        assert_eq!(document(7).render(), document(7).render());
        assert_ne!(document(7).render(), document(8).render());
    }

    #[test]
    fn documents_generate() {
        // Most seeds must make a document the generator accepts (the rest are findings).
        let accepted = (1..=30)
            .filter(|seed| {
                let case = Case {
                    label: format!("seed {seed}"),
                    slug: format!("seed-{seed}"),
                    text: document(*seed).render(),
                    seed: Some(*seed),
                };
                generate(&case).is_ok()
            })
            .count();
        assert!(accepted >= 25, "{accepted} of 30 seeds generate");
    }

    #[test]
    fn removal_paths_cover_every_node() {
        let v = obj(vec![
            ("a", Value::Arr(vec![s("x"), s("y")])),
            ("b", Value::Int(1)),
        ]);
        let mut paths = Vec::new();
        v.node_paths(&mut Vec::new(), &mut paths);
        assert_eq!(paths.len(), 4);
        let smaller = v.without(&[0, 1]).unwrap();
        assert_eq!(
            smaller,
            obj(vec![("a", Value::Arr(vec![s("x")])), ("b", Value::Int(1))])
        );
    }
}
