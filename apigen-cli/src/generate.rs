//! `apigen generate` and `apigen check`: every document of `apigen.toml` (or the one named
//! with `--spec`/`--out`) generated and written, or compared with what is on disk; then the
//! spec's changes that break clients against the last commit, and sunsets coming up.

use crate::Invocation;
use crate::config::Runtime;
use crate::paths;
use crate::project::{self, Report, Target};
use std::path::PathBuf;

pub const HELP: &str = "\
Generate the crates of every document listed in apigen.toml (found in this directory or a
parent), or of one document named on the command line.

Usage: {program} {generate} [--check] [--deny-breaking] [--sunset-warning-days N]
       {program} {generate} --spec PATH --out DIR [--name NAME] [--cli] [--string-formats]
                 [--tag TAG]... [--operation ID]... [--vendor-runtime | --runtime-path DIR]
                 [--check]

Options:
  --check                 write nothing; fail while any generated file is stale, missing or
                          orphaned (what CI runs; `{check}` is the same)
  --deny-breaking         refuse (writing nothing) a spec change that breaks clients unless
                          info.version's major number went up, compared with git's HEAD
  --sunset-warning-days N warn about operations whose x-deprecation sunset is less than N
                          days away (default 90) or past
  --config PATH           the apigen.toml to use (default: found from this directory up)
  --spec PATH --out DIR   without apigen.toml: this document's crates in DIR/server,
                          DIR/client (and DIR/cli with --cli)
  --name NAME             crate names NAME-server, NAME-client, NAME-cli (default: from the
                          file name)
  --cli                   also the command-line client
  --string-formats        keep format uuid, date-time, date, ipv4 and ipv6 as String
  --tag TAG               only the operations tagged TAG (repeatable), and the types they
                          reach: a part of a large API costs what that part costs
  --operation ID          only this operation (repeatable; with --tag: those as well)
  --vendor-runtime        copy the runtime crates' source into the crates (no dependency)
  --runtime-path DIR      depend on the runtime crates in DIR (server/, client/, cli/) by
                          path as well as version (a checkout of apigen, a monorepo)

Without --check, the summary ends with the changes to each document that break clients
against git's HEAD (`{program} diff` lists every change).
";

/// How close a sunset must be for `generate` to warn, unless `--sunset-warning-days` says.
pub const DEFAULT_SUNSET_WARNING_DAYS: u32 = 90;

/// `generate`'s and `check`'s options, as typed.
struct Args {
    check: bool,
    deny_breaking: bool,
    spec: Option<PathBuf>,
    out: Option<PathBuf>,
    name: Option<String>,
    cli: bool,
    string_formats: bool,
    select: apigen::Selection,
    vendor_runtime: bool,
    runtime_path: Option<PathBuf>,
    sunset_days: u32,
}

impl Args {
    fn parse(args: &[String], check_command: bool, inv: &Invocation) -> Result<Args, String> {
        let mut parsed = Args {
            check: check_command,
            deny_breaking: false,
            spec: None,
            out: None,
            name: None,
            cli: false,
            string_formats: false,
            select: apigen::Selection::default(),
            vendor_runtime: false,
            runtime_path: None,
            sunset_days: DEFAULT_SUNSET_WARNING_DAYS,
        };
        let command = if check_command { "check" } else { "generate" };
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            match arg.as_str() {
                "--check" => parsed.check = true,
                "--deny-breaking" => parsed.deny_breaking = true,
                "--sunset-warning-days" => {
                    let days = it
                        .next()
                        .ok_or("--sunset-warning-days needs a number of days")?;
                    parsed.sunset_days = days.parse().map_err(|_| {
                        format!("--sunset-warning-days: `{days}` is not a number of days")
                    })?;
                }
                "--spec" => {
                    parsed.spec = Some(PathBuf::from(it.next().ok_or("--spec needs a path")?))
                }
                "--out" => {
                    parsed.out = Some(PathBuf::from(it.next().ok_or("--out needs a directory")?))
                }
                "--name" => {
                    parsed.name = Some(it.next().ok_or("--name needs a crate name stem")?.clone())
                }
                "--cli" => parsed.cli = true,
                "--string-formats" => parsed.string_formats = true,
                "--tag" => parsed.select.tags.push(
                    it.next()
                        .ok_or("--tag needs a tag of the document")?
                        .clone(),
                ),
                "--operation" => parsed.select.operations.push(
                    it.next()
                        .ok_or("--operation needs an operationId of the document")?
                        .clone(),
                ),
                "--vendor-runtime" => parsed.vendor_runtime = true,
                "--runtime-path" => {
                    parsed.runtime_path = Some(PathBuf::from(
                        it.next().ok_or("--runtime-path needs a directory")?,
                    ))
                }
                other => return Err(crate::unknown_option(other, command, inv)),
            }
        }
        if parsed.vendor_runtime && parsed.runtime_path.is_some() {
            return Err("--vendor-runtime and --runtime-path exclude each other".into());
        }
        Ok(parsed)
    }

    /// The documents to generate (apigen.toml's, or the one `--spec` names) and the command
    /// that regenerates them.
    fn targets(self, inv: &Invocation) -> Result<(Vec<Target>, String), String> {
        match (self.spec, self.out) {
            (None, None) => {
                if self.name.is_some()
                    || self.cli
                    || self.string_formats
                    || !self.select.is_all()
                    || self.vendor_runtime
                    || self.runtime_path.is_some()
                {
                    return Err(format!(
                        "--name, --cli, --string-formats, --tag, --operation, --vendor-runtime and --runtime-path go with --spec and --out; with {} set them there",
                        crate::config::FILE_NAME
                    ));
                }
                let config = inv.config()?;
                let targets = Target::from_config(&config, &inv.generate)?;
                let fix = config
                    .command
                    .clone()
                    .unwrap_or_else(|| inv.generate.clone());
                Ok((targets, fix))
            }
            (Some(spec), Some(out)) => {
                let runtime = if self.vendor_runtime {
                    Runtime::Vendored
                } else if let Some(p) = self.runtime_path.or_else(|| inv.runtime_path.clone()) {
                    Runtime::Path(p.display().to_string())
                } else {
                    Runtime::Registry
                };
                let target = one_document(
                    &spec,
                    &out,
                    self.name,
                    self.cli,
                    (self.string_formats, self.select),
                    runtime,
                    inv,
                )?;
                let fix = target.command.clone();
                Ok((vec![target], fix))
            }
            _ => Err("--spec and --out go together".into()),
        }
    }
}

/// `generate` (`check == false` unless `--check`) or `check`.
pub fn run(args: &[String], check_command: bool, inv: &Invocation) -> Result<(), String> {
    let args = Args::parse(args, check_command, inv)?;
    let (check, deny_breaking, sunset_days) = (args.check, args.deny_breaking, args.sunset_days);
    let (targets, fix) = args.targets(inv)?;
    // Each document compared with its last commit. `--check` alone stays what CI runs on
    // every commit: a drift check and nothing else.
    let evolution: Vec<(String, Result<apigen::diff::Report, String>)> = if !check || deny_breaking
    {
        targets
            .iter()
            .map(|t| {
                let (root, _) = t.source();
                (
                    t.spec_label.clone(),
                    crate::diff::against_git(&t.spec_base, &root),
                )
            })
            .collect()
    } else {
        Vec::new()
    };
    if deny_breaking {
        for (label, diff) in &evolution {
            if let Ok(diff) = diff {
                refuse_breaking(label, diff)?;
            }
        }
    }
    let mut report = Report::default();
    for target in &targets {
        project::sync(target, check, &mut report)?;
    }
    print_files(&report, check, inv);
    print_breaking(&evolution, &inv.program);
    print_warnings(&report, sunset_days);
    if check && !report.is_clean() {
        return Err(format!(
            "generated files are out of date ({} stale, {} missing, {} orphaned); run `{fix}` and commit the result",
            report.changed.len(),
            report.missing.len(),
            report.orphaned.len()
        ));
    }
    if report.is_clean() {
        println!(
            "generated files are up to date ({} document{})",
            targets.len(),
            if targets.len() == 1 { "" } else { "s" }
        );
    }
    Ok(())
}

/// The files written (or, with `--check`, out of date), one line each.
fn print_files(report: &Report, check: bool, inv: &Invocation) {
    let verb = if check { "stale" } else { "updated" };
    let shown = |p: &PathBuf| paths::label(p, &inv.cwd);
    for p in &report.changed {
        println!("{verb}: {}", shown(p));
    }
    for p in &report.missing {
        println!(
            "{}: {}",
            if check { "missing" } else { "created" },
            shown(p)
        );
    }
    for p in &report.orphaned {
        println!(
            "{}: {}",
            if check { "orphaned" } else { "removed" },
            shown(p)
        );
    }
}

/// The generator's warnings and the sunsets coming near, after the file list so that they
/// are not lost among the "created:" lines, and counted.
fn print_warnings(report: &Report, sunset_days: u32) {
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
    let sunsets = sunset_warnings(&report.sunsets, crate::diff::now(), sunset_days);
    if !sunsets.is_empty() {
        eprintln!();
        for w in &sunsets {
            eprintln!("{w}");
        }
    }
}

/// The target of `--spec PATH --out DIR`: paths in headers and manifests are relative to the
/// directory the command runs in, however they were typed, so `--check` gives the same answer
/// for `--spec api.yaml` and `--spec $PWD/api.yaml`.
fn one_document(
    spec: &std::path::Path,
    out: &std::path::Path,
    name: Option<String>,
    cli: bool,
    (string_formats, select): (bool, apigen::Selection),
    runtime: Runtime,
    inv: &Invocation,
) -> Result<Target, String> {
    let spec_label = paths::label(spec, &inv.cwd);
    let api_name = name.clone();
    let name = match name {
        Some(n) if apigen::naming::is_crate_stem(&n) => n,
        Some(n) => {
            return Err(format!(
                "--name `{n}` is not a valid crate name stem (ASCII letters, digits, `-` and `_`, starting with a letter); try `{}`",
                apigen::naming::crate_stem(&n)
            ));
        }
        None => crate::config::document_name(spec),
    };
    let out_label = paths::label(out, &inv.cwd);
    let mut flags = String::new();
    if cli {
        flags.push_str(" --cli");
    }
    if string_formats {
        flags.push_str(" --string-formats");
    }
    for tag in &select.tags {
        flags.push_str(&format!(" --tag {tag}"));
    }
    for id in &select.operations {
        flags.push_str(&format!(" --operation {id}"));
    }
    let server_dir = out.join("server");
    let client_dir = out.join("client");
    let cli_dir = cli.then(|| out.join("cli"));
    let runtime = match runtime {
        Runtime::Registry => apigen::RuntimeSource::Crates { path: None },
        Runtime::Vendored => {
            flags.push_str(" --vendor-runtime");
            apigen::RuntimeSource::Vendored
        }
        Runtime::Path(dir) => {
            let dir = PathBuf::from(dir);
            if inv.runtime_path.as_ref() != Some(&dir) {
                flags.push_str(&format!(" --runtime-path {}", paths::label(&dir, &inv.cwd)));
            }
            project::runtime_at(&[&server_dir], &dir)?
        }
    };
    Ok(Target {
        command: format!(
            "{} --spec {spec_label} --out {out_label}{flags}",
            inv.generate
        ),
        spec: spec.to_path_buf(),
        spec_base: inv.cwd.clone(),
        spec_label,
        name,
        api_name,
        server_dir: Some(server_dir),
        client_dir: Some(client_dir),
        cli_dir,
        string_formats,
        select,
        runtime,
    })
}

/// The summary after the file list: changes that break clients, one per line, then the count
/// of every class; one line when there is no base to compare with.
fn print_breaking(evolution: &[(String, Result<apigen::diff::Report, String>)], program: &str) {
    let mut hint = None;
    for (label, diff) in evolution {
        match diff {
            Err(why) => {
                println!();
                println!("{label}: breaking changes not checked ({why})");
            }
            Ok(diff) if diff.changes.is_empty() => {}
            Ok(diff) => {
                println!();
                for c in diff.breaking_for_clients() {
                    println!(
                        "breaking-for-clients {}: {}: {}",
                        c.pointer, c.kind, c.reason
                    );
                }
                println!("{label} against HEAD: {}", diff.summary());
                if !diff.breaking_for_clients().is_empty() && !diff.major_bumped() {
                    hint = Some(format!(
                        "(`--deny-breaking` refuses these unless info.version's major goes up; `{program} diff` lists every change)"
                    ));
                } else if hint.is_none() {
                    hint = Some(format!("(`{program} diff` lists every change)"));
                }
            }
        }
    }
    if let Some(hint) = hint {
        println!("{hint}");
    } else if !evolution.is_empty() && evolution.iter().all(|(_, d)| d.is_ok()) {
        println!();
        println!(
            "no change against HEAD in {}",
            match evolution {
                [(label, _)] => label.clone(),
                _ => format!("the {} documents", evolution.len()),
            }
        );
    }
}

/// `--deny-breaking`: a change that breaks clients needs a major version (decision,
/// book/src/reference/breaking-changes.md). Changes that break only servers are work for implementers, not refused.
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
}
