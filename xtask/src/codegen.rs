//! `cargo xtask codegen`: writes (or, with `--check`, compares) every generated crate.
//!
//! One function, [`sync`], serves the command, `--check` in CI and the drift `#[test]`
//! below, so the three can never disagree about what "up to date" means.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The command that regenerates everything, as generated files name it.
pub const COMMAND: &str = "cargo xtask codegen";

/// One document and where its two crates live.
pub struct Target {
    pub spec: PathBuf,
    /// How headers name the document (relative to the repository).
    pub spec_label: String,
    pub name: String,
    pub server_dir: PathBuf,
    pub client_dir: PathBuf,
    /// The command-line client crate's directory, and the client's path as seen from it;
    /// `None`: no CLI (the fixtures, `--out` without `--cli`).
    pub cli: Option<(PathBuf, String)>,
    pub command: String,
    /// `--string-formats`: `apigen::Options::string_formats`.
    pub string_formats: bool,
    /// Where the crates get the runtime: this checkout's `runtime/` crates by path, or a copy
    /// (`--vendor-runtime`).
    pub runtime: apigen::RuntimeSource,
}

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Fixture documents that only feed a test comparing generated output (no crate of their own).
const COMPARISON_ONLY: &[&str] = &["petstore-3.0.yaml"];

/// The pet store and every fixture document in `tests/fixtures/` (but [`COMPARISON_ONLY`]).
pub fn workspace_targets() -> Result<Vec<Target>, String> {
    let root = root();
    let mut targets = vec![Target {
        spec: root.join("spec/petstore.yaml"),
        spec_label: "spec/petstore.yaml".into(),
        name: "petstore".into(),
        server_dir: root.join("generated-server"),
        client_dir: root.join("generated-client"),
        cli: Some((root.join("generated-cli"), "../generated-client".into())),
        command: COMMAND.into(),
        string_formats: false,
        runtime: runtime_beside(&root.join("generated-server")),
    }];
    let fixtures = root.join("tests/fixtures");
    let mut docs: Vec<PathBuf> = fs::read_dir(&fixtures)
        .map_err(|e| format!("cannot read {}: {e}", fixtures.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "json"))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_none_or(|n| !COMPARISON_ONLY.contains(&n))
        })
        .collect();
    docs.sort();
    for doc in docs {
        let stem = doc
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("fixture")
            .to_string();
        targets.push(Target {
            spec_label: format!(
                "tests/fixtures/{}",
                doc.file_name().and_then(|s| s.to_str()).unwrap_or_default()
            ),
            spec: doc,
            server_dir: root.join(format!("tests/generated/{stem}-server")),
            client_dir: root.join(format!("tests/generated/{stem}-client")),
            // Every fixture's CLI is built (and linted) with the workspace: the odd names and
            // constructs of the fixtures are the CLI emitter's tests too.
            cli: Some((
                root.join(format!("tests/generated/{stem}-cli")),
                format!("../{stem}-client"),
            )),
            runtime: runtime_beside(&root.join(format!("tests/generated/{stem}-server"))),
            name: stem,
            command: COMMAND.into(),
            string_formats: false,
        });
    }
    Ok(targets)
}

/// What a sync found (or changed).
#[derive(Debug, Default)]
pub struct Report {
    pub changed: Vec<PathBuf>,
    pub missing: Vec<PathBuf>,
    pub orphaned: Vec<PathBuf>,
    pub warnings: Vec<String>,
    /// (document label, sunset) of every operation with a sunset date.
    pub sunsets: Vec<(String, apigen::SunsetNotice)>,
}

impl Report {
    pub fn is_clean(&self) -> bool {
        self.changed.is_empty() && self.missing.is_empty() && self.orphaned.is_empty()
    }
}

/// Generates `target` and writes it (`check == false`) or only compares (`check == true`).
pub fn sync(target: &Target, check: bool, report: &mut Report) -> Result<(), String> {
    let text = fs::read_to_string(&target.spec)
        .map_err(|e| format!("cannot read {}: {e}", target.spec.display()))?;
    let options = apigen::Options {
        name: target.name.clone(),
        spec_label: target.spec_label.clone(),
        command: target.command.clone(),
        string_formats: target.string_formats,
        runtime: target.runtime.clone(),
    };
    let output =
        apigen::generate(&text, &options).map_err(|e| format!("{}:\n{e}", target.spec_label))?;
    report.warnings.extend(
        output
            .warnings
            .iter()
            .map(|w| format!("{}: {w}", target.spec_label)),
    );
    report.sunsets.extend(
        output
            .sunsets
            .iter()
            .map(|s| (target.spec_label.clone(), s.clone())),
    );
    let mut expected: BTreeSet<PathBuf> = BTreeSet::new();
    let mut files = output.files;
    if let Some((_, client_path)) = &target.cli {
        let cli = apigen::generate_cli(&text, &options, client_path)
            .map_err(|e| format!("{}:\n{e}", target.spec_label))?;
        files.extend(cli);
    }
    for (rel, contents) in &files {
        let (side, rest) = rel
            .split_once('/')
            .ok_or_else(|| format!("unexpected output path {rel}"))?;
        let dir = match (side, &target.cli) {
            ("server", _) => &target.server_dir,
            ("cli", Some((dir, _))) => dir,
            _ => &target.client_dir,
        };
        let path = dir.join(rest);
        expected.insert(path.clone());
        match fs::read_to_string(&path) {
            Ok(existing) if existing == *contents => {}
            Ok(_) => {
                report.changed.push(path.clone());
                if !check {
                    fs::write(&path, contents)
                        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                }
            }
            Err(_) => {
                report.missing.push(path.clone());
                if !check {
                    if let Some(parent) = path.parent() {
                        fs::create_dir_all(parent)
                            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
                    }
                    fs::write(&path, contents)
                        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                }
            }
        }
    }
    let cli_dir = target.cli.as_ref().map(|(dir, _)| dir);
    for dir in [&target.server_dir, &target.client_dir]
        .into_iter()
        .chain(cli_dir)
    {
        for path in files_under(dir) {
            if !expected.contains(&path) {
                report.orphaned.push(path.clone());
                if !check {
                    fs::remove_file(&path)
                        .map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
                }
            }
        }
    }
    Ok(())
}

/// Files of a generated crate, leaving out build output.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n == "target") {
                continue;
            }
            out.extend(files_under(&path));
        } else {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// The runtime crates of this checkout, by path from a generated crate's directory
/// (`crate_dir`; the server, client and CLI of one document are siblings).
pub fn runtime_beside(crate_dir: &Path) -> apigen::RuntimeSource {
    apigen::RuntimeSource::Crates {
        path: Some(path_between(crate_dir, &root().join("runtime"))),
    }
}

/// `to` as seen from the directory `from` (`../runtime`), by their absolute, lexically
/// normalised forms: neither needs to exist yet. Forward slashes, as Cargo.toml wants on any
/// platform.
pub fn path_between(from: &Path, to: &Path) -> String {
    let from = normalise(from);
    let to = normalise(to);
    let common = from
        .iter()
        .zip(to.iter())
        .take_while(|(a, b)| a == b)
        .count();
    let ups = from.iter().count() - common;
    let mut parts: Vec<String> = vec!["..".to_string(); ups];
    parts.extend(
        to.iter()
            .skip(common)
            .map(|c| c.to_string_lossy().into_owned()),
    );
    if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    }
}

/// An absolute path without `.` or `..` components (lexically: symbolic links are not read).
fn normalise(path: &Path) -> PathBuf {
    use std::path::Component;
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out = PathBuf::new();
    for component in absolute.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

pub fn relative(path: &Path) -> String {
    // Lexically, so that a file just removed is named the same way as one that exists.
    let root = normalise(&root());
    let full = normalise(path);
    full.strip_prefix(&root)
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| path.display().to_string())
}

pub fn main(args: &[String]) -> Result<(), String> {
    let mut check = false;
    let mut deny_breaking = false;
    let mut spec = None;
    let mut out = None;
    let mut name = None;
    let mut cli = false;
    let mut string_formats = false;
    let mut vendor_runtime = false;
    let mut sunset_days = DEFAULT_SUNSET_WARNING_DAYS;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--check" => check = true,
            "--deny-breaking" => deny_breaking = true,
            "--sunset-warning-days" => {
                let days = it
                    .next()
                    .ok_or("--sunset-warning-days needs a number of days")?;
                sunset_days = days.parse().map_err(|_| {
                    format!("--sunset-warning-days: `{days}` is not a number of days")
                })?;
            }
            "--spec" => spec = Some(it.next().ok_or("--spec needs a path")?.clone()),
            "--out" => out = Some(it.next().ok_or("--out needs a directory")?.clone()),
            "--name" => name = Some(it.next().ok_or("--name needs a crate name stem")?.clone()),
            "--cli" => cli = true,
            "--string-formats" => string_formats = true,
            "--vendor-runtime" => vendor_runtime = true,
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    let targets = match (spec, out) {
        // The workspace's crates are generated one way, so that `--check` has one answer.
        (None, None) if string_formats => {
            return Err("--string-formats goes with --spec and --out".into());
        }
        (None, None) if vendor_runtime => {
            return Err("--vendor-runtime goes with --spec and --out".into());
        }
        (None, None) => workspace_targets()?,
        (Some(spec), Some(out)) => {
            let spec = PathBuf::from(spec);
            let stem = spec
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("api")
                .to_string();
            // A file name is rarely a package name (`api.github.com.json`): derive one.
            let name = match name {
                Some(n) if apigen::naming::is_crate_stem(&n) => n,
                Some(n) => {
                    return Err(format!(
                        "--name `{n}` is not a valid crate name stem (ASCII letters, digits, `-` and `_`, starting with a letter); try `{}`",
                        apigen::naming::crate_stem(&n)
                    ));
                }
                None => apigen::naming::crate_stem(&stem),
            };
            let out = PathBuf::from(out);
            let mut flag = String::new();
            if string_formats {
                flag.push_str(" --string-formats");
            }
            if vendor_runtime {
                flag.push_str(" --vendor-runtime");
            }
            vec![Target {
                spec_label: spec
                    .file_name()
                    .and_then(|s| s.to_str())
                    .unwrap_or("the document")
                    .to_string(),
                command: format!(
                    "cargo xtask codegen --spec {} --out DIR{}{flag}",
                    spec.display(),
                    if cli { " --cli" } else { "" }
                ),
                spec,
                server_dir: out.join("server"),
                client_dir: out.join("client"),
                cli: cli.then(|| (out.join("cli"), "../client".to_string())),
                runtime: if vendor_runtime {
                    apigen::RuntimeSource::Vendored
                } else {
                    runtime_beside(&out.join("server"))
                },
                name,
                string_formats,
            }]
        }
        _ => return Err("--spec and --out go together".into()),
    };
    // The document compared with its last commit: the first target is the pet store (or the
    // one `--spec` names); the fixtures are test inputs, not interfaces anyone consumes.
    // `--check` alone stays what CI runs on every commit: a drift check and nothing else.
    let evolution = (!check || deny_breaking).then(|| {
        let target = &targets[0];
        (
            target.spec_label.clone(),
            crate::diff::against_git(&target.spec),
        )
    });
    if deny_breaking && let Some((label, Ok(diff))) = &evolution {
        refuse_breaking(label, diff)?;
    }
    let mut report = Report::default();
    for target in &targets {
        sync(target, check, &mut report)?;
    }
    let verb = if check { "stale" } else { "updated" };
    for p in &report.changed {
        println!("{verb}: {}", relative(p));
    }
    for p in &report.missing {
        println!(
            "{}: {}",
            if check { "missing" } else { "created" },
            relative(p)
        );
    }
    for p in &report.orphaned {
        println!(
            "{}: {}",
            if check { "orphaned" } else { "removed" },
            relative(p)
        );
    }
    if let Some((label, diff)) = &evolution {
        print_breaking(label, diff);
    }
    // After the file list, so they are not lost among the "created:" lines, and counted.
    if !report.warnings.is_empty() {
        eprintln!();
        for w in &report.warnings {
            eprintln!("{w}");
        }
        eprintln!(
            "{} generator warning{}: each construct above was generated with a fallback",
            report.warnings.len(),
            if report.warnings.len() == 1 { "" } else { "s" }
        );
    }
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    let sunsets = sunset_warnings(&report.sunsets, now, sunset_days);
    if !sunsets.is_empty() {
        eprintln!();
        for w in &sunsets {
            eprintln!("{w}");
        }
    }
    if check && !report.is_clean() {
        return Err(format!(
            "generated files are out of date ({} stale, {} missing, {} orphaned); run `{COMMAND}` and commit the result",
            report.changed.len(),
            report.missing.len(),
            report.orphaned.len()
        ));
    }
    if report.is_clean() {
        println!(
            "generated files are up to date ({} documents)",
            targets.len()
        );
    }
    Ok(())
}

/// The summary after the file list: changes that break clients, one per line, then the count
/// of every class; one line when there is no base to compare with.
fn print_breaking(label: &str, diff: &Result<apigen::diff::Report, String>) {
    println!();
    match diff {
        Err(why) => println!("{label}: breaking changes not checked ({why})"),
        Ok(diff) => {
            for c in diff.breaking_for_clients() {
                println!(
                    "breaking-for-clients {}: {}: {}",
                    c.pointer, c.kind, c.reason
                );
            }
            println!("{label} against HEAD: {}", diff.summary());
            if !diff.breaking_for_clients().is_empty() && !diff.major_bumped() {
                println!(
                    "(`--deny-breaking` refuses these unless info.version's major goes up; `cargo xtask diff` lists every change)"
                );
            } else if !diff.changes.is_empty() {
                println!("(`cargo xtask diff` lists every change)");
            }
        }
    }
}

/// `--deny-breaking`: a change that breaks clients needs a major version (decision,
/// docs/diff.md). Changes that break only servers are work for implementers, not refused.
pub fn refuse_breaking(label: &str, diff: &apigen::diff::Report) -> Result<(), String> {
    let breaking = diff.breaking_for_clients();
    if breaking.is_empty() || diff.major_bumped() {
        return Ok(());
    }
    let mut message = String::new();
    for c in &breaking {
        message.push_str(&format!(
            "breaking-for-clients {}: {}: {}\n",
            c.pointer, c.kind, c.reason
        ));
    }
    message.push_str(&format!(
        "{label}: refused (--deny-breaking): {} change{} break{} clients and info.version's major did not go up ({} → {}); raise the major version or undo {}; nothing was written",
        breaking.len(),
        if breaking.len() == 1 { "" } else { "s" },
        if breaking.len() == 1 { "s" } else { "" },
        diff.base_version,
        diff.new_version,
        if breaking.len() == 1 { "it" } else { "them" },
    ));
    Err(message)
}

/// How close a sunset must be for `codegen` to warn, unless `--sunset-warning-days` says.
pub const DEFAULT_SUNSET_WARNING_DAYS: u32 = 90;

/// One warning per operation whose sunset is less than `days` days after `now` (Unix
/// seconds), or already past.
pub fn sunset_warnings(
    sunsets: &[(String, apigen::SunsetNotice)],
    now: i64,
    days: u32,
) -> Vec<String> {
    const DAY: i64 = 86_400;
    sunsets
        .iter()
        .filter_map(|(label, s)| {
            let left = s.at - now;
            let what = if left <= 0 {
                let ago = -left / DAY;
                format!(
                    "sunset {} was {} ago: the generated server answers {} with 410 Gone; remove the operation from the document",
                    s.day,
                    plural(ago, "day"),
                    s.operation
                )
            } else if left < i64::from(days) * DAY {
                // Whole days, rounded up: "in 1 day" until the last second.
                let left_days = (left + DAY - 1) / DAY;
                format!(
                    "sunset {} is in {}: from then on the generated server answers {} with 410 Gone",
                    s.day,
                    plural(left_days, "day"),
                    s.operation
                )
            } else {
                return None;
            };
            Some(format!("{label}: warning: {}: {what}", s.pointer))
        })
        .collect()
}

fn plural(n: i64, unit: &str) -> String {
    if n == 1 {
        format!("1 {unit}")
    } else {
        format!("{n} {unit}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sunsets_warn_inside_the_window_and_after() {
        let notice = apigen::SunsetNotice {
            operation: "getPet".into(),
            pointer: "/paths/~1pets~1{petId}/get/x-deprecation/sunset".into(),
            day: "2030-12-05".into(),
            at: 1_922_659_200,
        };
        let sunsets = vec![("spec/petstore.yaml".to_string(), notice)];
        let day = 86_400;
        let at = 1_922_659_200;
        // Outside the window: nothing.
        assert!(sunset_warnings(&sunsets, at - 90 * day, 90).is_empty());
        assert_eq!(
            sunset_warnings(&sunsets, at - 90 * day + 1, 90),
            [
                "spec/petstore.yaml: warning: /paths/~1pets~1{petId}/get/x-deprecation/sunset: sunset 2030-12-05 is in 90 days: from then on the generated server answers getPet with 410 Gone"
            ]
        );
        assert!(sunset_warnings(&sunsets, at - 1, 90)[0].contains("is in 1 day:"));
        assert!(
            sunset_warnings(&sunsets, at - 1, 0).is_empty(),
            "0 days: only past sunsets"
        );
        assert!(sunset_warnings(&sunsets, at, 0)[0].contains("was 0 days ago"));
        assert!(
            sunset_warnings(&sunsets, at + 3 * day, 90)[0]
                .contains("sunset 2030-12-05 was 3 days ago: the generated server answers getPet with 410 Gone; remove the operation")
        );
    }

    #[test]
    fn paths_between_directories() {
        let p = |from: &str, to: &str| path_between(Path::new(from), Path::new(to));
        assert_eq!(p("/r/generated-server", "/r/runtime"), "../runtime");
        assert_eq!(
            p("/r/tests/generated/x-server", "/r/runtime"),
            "../../../runtime"
        );
        assert_eq!(
            p("/tmp/out/server", "/work/r/runtime"),
            "../../../work/r/runtime"
        );
        assert_eq!(p("/r/a/./b/../server", "/r/runtime"), "../../runtime");
        assert_eq!(p("/r/runtime", "/r/runtime"), ".");
        let here = std::env::current_dir().unwrap();
        assert_eq!(
            p("out/server", here.join("runtime").to_str().unwrap()),
            "../../runtime"
        );
    }

    /// The pet store's own sunset reaches the report with the pointer the user wrote.
    #[test]
    fn the_pet_stores_sunset_is_reported() {
        let target = &workspace_targets().unwrap()[0];
        let mut report = Report::default();
        sync(target, true, &mut report).unwrap();
        let (label, s) = &report.sunsets[0];
        assert_eq!(label, "spec/petstore.yaml");
        assert_eq!(
            (s.operation.as_str(), s.day.as_str(), s.at),
            ("getPet", "2030-12-05", 1_922_659_200)
        );
        assert_eq!(s.pointer, "/paths/~1pets~1{petId}/get/x-deprecation/sunset");
    }

    /// The developer loop of the README, on a copy: editing the spec (an optional field on
    /// `NewPet`) makes `--check` fail and name files of both crates; `codegen` then changes
    /// both crates and `--check` passes again.
    /// A file name that is not a package name (`api.github.com.json`, no `--name`) gives
    /// crates cargo accepts; cargo itself reads the manifests.
    #[test]
    fn crate_names_from_dotted_file_names_are_valid() {
        let dir = std::env::temp_dir().join(format!("apigen-names-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let spec = dir.join("api.github.com.json");
        fs::write(
            &spec,
            r#"{"openapi": "3.1.0", "info": {"title": "GitHub", "version": "1"}, "paths": {}}"#,
        )
        .unwrap();
        let out = dir.join("out");
        let args: Vec<String> = [
            "--spec",
            spec.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]
        .map(String::from)
        .to_vec();
        main(&args).unwrap();
        for (side, expected) in [
            ("server", "api-github-com-server"),
            ("client", "api-github-com-client"),
        ] {
            let manifest = out.join(side).join("Cargo.toml");
            let text = fs::read_to_string(&manifest).unwrap();
            assert!(text.contains(&format!("name = \"{expected}\"")), "{text}");
            // The runtime crate, by a path that leads from the crate to this checkout.
            let runtime = format!("apigen-{side}-runtime = {{ version = \"0.1.0\", path = \"");
            let start = text.find(&runtime).expect("a runtime dependency") + runtime.len();
            let path = &text[start..start + text[start..].find('"').unwrap()];
            assert_eq!(
                out.join(side).join(path).canonicalize().unwrap(),
                root().join("runtime").join(side).canonicalize().unwrap(),
                "{path}"
            );
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
            let status = std::process::Command::new(cargo)
                .args([
                    "metadata",
                    "--no-deps",
                    "--offline",
                    "--format-version",
                    "1",
                    "--manifest-path",
                ])
                .arg(&manifest)
                .stdout(std::process::Stdio::null())
                .status()
                .unwrap();
            assert!(status.success(), "cargo refuses {}", manifest.display());
        }
        let bad: Vec<String> = [
            "--spec",
            spec.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--name",
            "a.b",
        ]
        .map(String::from)
        .to_vec();
        let err = main(&bad).unwrap_err();
        assert!(err.contains("try `a-b`"), "{err}");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn spec_edit_changes_both_crates_and_check_catches_it() {
        let dir = std::env::temp_dir().join(format!("apigen-drift-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let spec = dir.join("petstore.yaml");
        let original = fs::read_to_string(root().join("spec/petstore.yaml")).unwrap();
        fs::write(&spec, &original).unwrap();
        let target = Target {
            spec: spec.clone(),
            spec_label: "spec/petstore.yaml".into(),
            name: "petstore".into(),
            server_dir: dir.join("server"),
            client_dir: dir.join("client"),
            cli: None,
            command: COMMAND.into(),
            string_formats: false,
            runtime: runtime_beside(&dir.join("server")),
        };
        let run = |check: bool| {
            let mut report = Report::default();
            sync(&target, check, &mut report).unwrap();
            report
        };
        assert!(!run(false).is_clean(), "first generation creates files");
        assert!(run(true).is_clean(), "nothing changed yet");

        // An optional `nickname` on NewPet, as a developer would add it.
        let edited = insert_property(
            &original,
            "NewPet",
            "nickname",
            "{type: string, description: A nickname.}",
        );
        fs::write(&spec, edited).unwrap();

        let stale = run(true);
        assert!(!stale.is_clean(), "--check fails before codegen");
        let names: Vec<String> = stale
            .changed
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        assert!(
            names
                .iter()
                .any(|n| n.contains("server") && n.ends_with("types.rs")),
            "{names:?}"
        );
        assert!(
            names
                .iter()
                .any(|n| n.contains("client") && n.ends_with("types.rs")),
            "{names:?}"
        );

        run(false);
        assert!(run(true).is_clean(), "--check passes after codegen");
        for side in ["server", "client"] {
            let types = fs::read_to_string(dir.join(side).join("src/types.rs")).unwrap();
            assert!(
                types.contains("pub nickname: Option<String>"),
                "{side}: {types}"
            );
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    /// Adds a property line under `properties:` of the named component schema.
    fn insert_property(spec: &str, schema: &str, name: &str, body: &str) -> String {
        let start = spec
            .find(&format!("\n    {schema}:\n"))
            .expect("schema present");
        let props = start
            + spec[start..]
                .find("      properties:\n")
                .expect("properties present");
        let at = props + "      properties:\n".len();
        format!("{}        {name}: {body}\n{}", &spec[..at], &spec[at..])
    }

    /// `--deny-breaking` refuses a change that breaks clients unless the major version went
    /// up, and never refuses one that only breaks servers.
    #[test]
    fn deny_breaking_needs_a_major_version() {
        let change = |class| apigen::diff::Change {
            pointer: "/paths/~1pets/get".into(),
            kind: "operation-removed-without-deprecation".into(),
            class,
            reason: "listPets removed".into(),
        };
        let report = |class, new_version: &str| apigen::diff::Report {
            changes: vec![change(class)],
            base_version: "1.0.0".into(),
            new_version: new_version.into(),
        };
        use apigen::diff::Class;
        let err = refuse_breaking(
            "spec/petstore.yaml",
            &report(Class::BreakingForClients, "1.1.0"),
        )
        .unwrap_err();
        assert!(
            err.contains("/paths/~1pets/get: operation-removed-without-deprecation"),
            "{err}"
        );
        assert!(err.contains("(1.0.0 → 1.1.0)"), "{err}");
        assert!(refuse_breaking("x", &report(Class::BreakingForClients, "2.0.0")).is_ok());
        assert!(refuse_breaking("x", &report(Class::BreakingForServers, "1.0.1")).is_ok());
        assert!(refuse_breaking("x", &report(Class::Compatible, "1.0.0")).is_ok());
    }

    /// The drift check as a test: committed generated files equal what the generator makes.
    #[test]
    fn generated_files_are_up_to_date() {
        let mut report = Report::default();
        for target in workspace_targets().unwrap() {
            sync(&target, true, &mut report).unwrap();
        }
        assert!(report.is_clean(), "run `{COMMAND}`: {report:#?}");
    }
}
