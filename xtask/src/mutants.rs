//! `cargo xtask mutants`: mutation testing (cargo-mutants) of the rules that matter, with the
//! survivors that cannot matter listed, and explained, in docs/reports/mutants.md.
//!
//! Each group below is one cargo-mutants run: one package, the files of the rules that matter
//! (authentication and its constant-time compare, rate limits and bans, headers on every
//! response, retries and their budget, deprecation, problem rendering, parameter and body
//! checks), and the test targets that exercise them. A mutant that no test notices ("missed")
//! fails the command unless docs/reports/mutants.md names it, without its line and column (they
//! move with every edit), in a line of the form
//! ``- `path/to/file.rs`: `replace … in Function` — why it cannot matter``.
//!
//! Runs are slow (each mutant rebuilds the package and reruns its tests), so the full set is
//! not part of `.ci/run`; CI runs `--ci`, the constant-time key lookup: nine mutants, each
//! rebuilding the runtime and its `auth` test target only (37 s in all on two cores, with the
//! tests' build done; 262 s when every test target was rebuilt for each mutant).

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

const HELP: &str = "\
cargo xtask mutants [--ci] [--group NAME] [--file SUBSTR] [--re REGEX] [--timeout SECS]
    Mutation testing with cargo-mutants (install: cargo install cargo-mutants --locked) of the
    runtime and generator files that carry the rules that matter. Each group is one run; its
    report goes to target/mutants/NAME/mutants.out. Fails when a mutant survives that
    docs/reports/mutants.md does not list with its reason.
    --ci           only the fast selection CI runs (the constant-time key lookup)
    --group NAME   only this group (server, checks, client, generator)
    --file SUBSTR  only files whose path contains SUBSTR
    --re REGEX     only mutants whose name matches, instead of the group's selection
                   (cargo-mutants' --re: a re-run of the functions a change touched)
    --timeout SECS per-mutant test timeout (default 90)
";

/// One cargo-mutants run.
struct Group {
    name: &'static str,
    package: &'static str,
    files: &'static [&'static str],
    /// Test targets to run: `lib` for the unit tests (`--lib`), any other name an integration
    /// test target (`--test NAME`); empty: all of the package's tests.
    tests: &'static [&'static str],
    /// A `--re` filter on mutant names, for the CI selection.
    re: Option<&'static str>,
}

const GROUPS: &[Group] = &[
    Group {
        name: "server",
        package: "apigen-server-runtime",
        files: &[
            "runtime/server/src/authenticating/auth.rs",
            "runtime/server/src/authenticating/authenticator.rs",
            "runtime/server/src/authenticating/credentials.rs",
            "runtime/server/src/limiting/ratelimit.rs",
            "runtime/server/src/serving/layer.rs",
            "runtime/server/src/serving/entries.rs",
            "runtime/server/src/serving/runtime_handle.rs",
            "runtime/server/src/answering/problem.rs",
            "runtime/server/src/answering/response.rs",
            "runtime/server/src/reading/params.rs",
            "runtime/server/src/reading/from_param.rs",
            "runtime/server/src/reading/body.rs",
            "runtime/server/src/checking/validate.rs",
        ],
        tests: &[],
        re: None,
    },
    Group {
        name: "client",
        package: "apigen-client-runtime",
        files: &[
            "runtime/client/src/retry.rs",
            "runtime/client/src/transport.rs",
            "runtime/client/src/ratelimit.rs",
            "runtime/client/src/auth.rs",
            "runtime/client/src/response.rs",
            "runtime/client/src/error.rs",
            "runtime/client/src/pages.rs",
        ],
        tests: &[],
        re: None,
    },
    // The input checks: the JSON Schema checker, the string formats, the parameter styles and
    // the decimal reader. The package's unit tests (`lib`: formats, styles, decimals) and the
    // test targets that drive the checker (JSON Schema's own suite, the validation and
    // parameter tests); the rest of the package's targets never reach these files, and
    // building them for each of ~800 mutants would double the run.
    Group {
        name: "checks",
        package: "apigen-server-runtime",
        files: &[
            "runtime/server/src/checking/formats.rs",
            "runtime/server/src/reading/style.rs",
            "runtime/server/src/reading/decimal.rs",
            "runtime/server/src/checking/schema_form.rs",
            "runtime/server/src/checking/schema.rs",
            "runtime/server/src/checking/schema_eval.rs",
        ],
        tests: &["lib", "schema_suite", "schema", "validate", "params"],
        re: None,
    },
    Group {
        name: "generator",
        package: "apigen-codegen",
        // Where the document's x-rate-limit and x-deprecation become the IR.
        files: &["generator/src/lower/extensions.rs"],
        tests: &[],
        re: None,
    },
];

/// The selection `.ci/run` runs: small, and on the rules most easily broken unnoticed.
const CI_GROUPS: &[Group] = &[Group {
    name: "ci-server-keys",
    package: "apigen-server-runtime",
    files: &["runtime/server/src/authenticating/authenticator.rs"],
    tests: &["auth"],
    re: Some("StaticKeys::lookup|constant_time_eq"),
}];

struct Args {
    ci: bool,
    group: Option<String>,
    file: Option<String>,
    re: Option<String>,
    timeout: u64,
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut parsed = Args {
        ci: false,
        group: None,
        file: None,
        re: None,
        timeout: 90,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value\n\n{HELP}"))
        };
        match arg.as_str() {
            "--ci" => parsed.ci = true,
            "--group" => parsed.group = Some(value("--group")?),
            "--file" => parsed.file = Some(value("--file")?),
            "--re" => parsed.re = Some(value("--re")?),
            "--timeout" => {
                parsed.timeout = value("--timeout")?
                    .parse()
                    .map_err(|e| format!("--timeout: {e}"))?
            }
            "--help" | "-h" => return Err(HELP.to_string()),
            other => return Err(format!("unknown argument `{other}`\n\n{HELP}")),
        }
    }
    Ok(parsed)
}

pub fn main(args: &[String]) -> Result<(), String> {
    let args = parse(args)?;
    let root = crate::codegen::root();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let installed = Command::new(&cargo)
        .args(["mutants", "--version"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !installed {
        return Err("cargo-mutants is not installed: cargo install cargo-mutants --locked".into());
    }
    let documented = documented_survivors(&root.join("docs/reports/mutants.md"))?;

    let groups = if args.ci { CI_GROUPS } else { GROUPS };
    let mut undocumented = Vec::new();
    let mut totals = Counts::default();
    for group in groups {
        if args.group.as_deref().is_some_and(|g| g != group.name) {
            continue;
        }
        let files: Vec<&str> = group
            .files
            .iter()
            .copied()
            .filter(|f| args.file.as_deref().is_none_or(|s| f.contains(s)))
            .collect();
        if files.is_empty() {
            continue;
        }
        let out = root.join("target/mutants").join(group.name);
        std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
        let mut command = Command::new(&cargo);
        command
            .current_dir(&root)
            .args(["mutants", "--package", group.package, "--no-shuffle"])
            .args(["--timeout", &args.timeout.to_string()])
            .arg("--output")
            .arg(&out);
        if args.ci {
            // CI's checkout is throwaway and nothing else edits it: mutate it in place and
            // build in its warm target directory (cargo-mutants restores every file).
            command.arg("--in-place");
        } else {
            // A copy of the tree, so the checkout stays editable while the run goes on. The
            // checkout's target directory is not copied along (with the corpus's throwaway
            // crates it holds tens of GB): the copies build in one target directory of their
            // own, kept between runs, so dependencies are built once.
            command
                .args(["--copy-target", "false"])
                .env("CARGO_TARGET_DIR", root.join("target/mutants/target"));
        }
        for file in &files {
            command.args(["--file", file]);
        }
        // The caller's selection, else the group's (cargo-mutants ORs repeated `--re`s).
        if let Some(re) = args.re.as_deref().or(group.re) {
            command.args(["--re", re]);
        }
        // As cargo arguments, not test arguments after `--`: cargo-mutants' build phase
        // (`cargo test --no-run`) then builds these targets only. With `--` it built every
        // test target of the package for each mutant (~25 s a mutant on 2 cores, where the
        // chosen target alone takes a few).
        for test in group.tests {
            if *test == "lib" {
                command.arg("--cargo-arg=--lib");
            } else {
                command.arg(format!("--cargo-arg=--test={test}"));
            }
        }
        println!("== mutants: {} ({})", group.name, files.join(", "));
        // cargo-mutants exits non-zero when mutants survive; the outcome files decide here.
        let status = command
            .status()
            .map_err(|e| format!("cannot run cargo mutants: {e}"))?;
        let report = out.join("mutants.out");
        let counts = Counts::read(&report)?;
        if counts.total() == 0 && !status.success() {
            return Err(format!(
                "cargo mutants failed for {} before testing any mutant ({status})",
                group.name
            ));
        }
        println!(
            "   {}: {} caught, {} missed, {} timeouts, {} unviable",
            group.name,
            counts.caught,
            counts.missed.len(),
            counts.timeout,
            counts.unviable
        );
        for missed in &counts.missed {
            if !documented.contains(&without_position(missed)) {
                undocumented.push(missed.clone());
            }
        }
        totals.add(counts);
    }
    println!(
        "mutants: {} caught, {} missed ({} documented in docs/reports/mutants.md), {} timeouts, {} unviable",
        totals.caught,
        totals.missed.len(),
        totals.missed.len() - undocumented.len(),
        totals.timeout,
        totals.unviable
    );
    if undocumented.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "surviving mutants that no test kills and docs/reports/mutants.md does not explain:\n  {}",
            undocumented.join("\n  ")
        ))
    }
}

#[derive(Default)]
struct Counts {
    caught: usize,
    missed: Vec<String>,
    timeout: usize,
    unviable: usize,
}

impl Counts {
    fn read(report: &Path) -> Result<Counts, String> {
        let lines = |name: &str| -> Vec<String> {
            std::fs::read_to_string(report.join(name))
                .unwrap_or_default()
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(str::to_owned)
                .collect()
        };
        Ok(Counts {
            caught: lines("caught.txt").len(),
            missed: lines("missed.txt"),
            timeout: lines("timeout.txt").len(),
            unviable: lines("unviable.txt").len(),
        })
    }

    fn total(&self) -> usize {
        self.caught + self.missed.len() + self.timeout + self.unviable
    }

    fn add(&mut self, other: Counts) {
        self.caught += other.caught;
        self.missed.extend(other.missed);
        self.timeout += other.timeout;
        self.unviable += other.unviable;
    }
}

/// `path:line:col: description` → `path: description`.
fn without_position(mutant: &str) -> String {
    let mut parts = mutant.splitn(4, ':');
    match (parts.next(), parts.next(), parts.next(), parts.next()) {
        (Some(path), Some(_line), Some(_col), Some(rest)) => format!("{path}: {}", rest.trim()),
        _ => mutant.to_owned(),
    }
}

/// The survivors docs/reports/mutants.md explains: lines ``- `path`: `description` — reason``.
fn documented_survivors(doc: &Path) -> Result<BTreeSet<String>, String> {
    let text = match std::fs::read_to_string(doc) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeSet::new()),
        Err(e) => return Err(format!("{}: {e}", doc.display())),
    };
    Ok(text.lines().filter_map(documented_line).collect())
}

fn documented_line(line: &str) -> Option<String> {
    let rest = line.trim().strip_prefix("- `")?;
    let (path, rest) = rest.split_once("`: `")?;
    let (description, _reason) = rest.split_once('`')?;
    Some(format!("{path}: {description}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_dropped() {
        assert_eq!(
            without_position(
                "runtime/client/src/ratelimit.rs:39:58: replace && with || in RateLimit::is_empty"
            ),
            "runtime/client/src/ratelimit.rs: replace && with || in RateLimit::is_empty"
        );
    }

    #[test]
    fn documented_lines_are_read() {
        assert_eq!(
            documented_line(
                "- `runtime/client/src/ratelimit.rs`: `replace && with || in RateLimit::is_empty` — why"
            )
            .as_deref(),
            Some("runtime/client/src/ratelimit.rs: replace && with || in RateLimit::is_empty")
        );
        assert_eq!(documented_line("some prose"), None);
        assert_eq!(documented_line("- `a`: no backquoted mutant"), None);
    }

    #[test]
    fn arguments() {
        let a = parse(&["--ci".into(), "--timeout".into(), "30".into()]).unwrap();
        assert!(a.ci);
        assert_eq!(a.timeout, 30);
        assert!(parse(&["--group".into()]).is_err());
        assert!(parse(&["--nope".into()]).is_err());
        let re = parse(&["--re".into(), "a|b".into()]).unwrap();
        assert_eq!(re.re.as_deref(), Some("a|b"));
    }
}
