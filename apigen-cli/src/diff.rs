//! `apigen diff`: reads two versions of a document (a file, or a file at a git revision) and
//! prints `apigen::diff`'s report; `generate` uses [`against_git`] for its summary and
//! `--deny-breaking`.

use crate::{Invocation, paths};
use apigen::Source;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Exit status when some change breaks clients (0: none does; 2: the comparison failed).
pub const BREAKING: u8 = 1;

pub const HELP: &str = "\
Compare two versions of an OpenAPI document and list every change with its JSON pointer, rule,
class (breaking-for-clients, breaking-for-servers, compatible) and reason.

Usage: {program} diff [--spec PATH] [--base GIT-REF | --base-file PATH] [--json]

Options:
  --spec PATH        the new version (default: every document of apigen.toml)
  --base GIT-REF     compare with the document as committed at GIT-REF (default: HEAD)
  --base-file PATH   compare with this file instead
  --json             the report as JSON

Exit status: 0 when no change breaks clients, 1 when one does, 2 when a document cannot be
read (with the pointer of the problem, as `generate` gives it).
";

pub fn run(args: &[String], inv: &Invocation) -> Result<u8, String> {
    let mut base_ref = None;
    let mut base_file = None;
    let mut spec = None;
    let mut json = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--base" => base_ref = Some(it.next().ok_or("--base needs a git revision")?.clone()),
            "--base-file" => {
                base_file = Some(PathBuf::from(it.next().ok_or("--base-file needs a path")?))
            }
            "--spec" => spec = Some(PathBuf::from(it.next().ok_or("--spec needs a path")?)),
            "--json" => json = true,
            other => return Err(crate::unknown_option(other, "diff", inv)),
        }
    }
    let (specs, base) = match spec {
        Some(spec) => (vec![inv.cwd.join(spec)], inv.cwd.clone()),
        None => {
            let config = inv.config()?;
            let dir = config.dir().to_path_buf();
            let specs = config.apis.iter().map(|a| dir.join(&a.spec)).collect();
            (specs, dir)
        }
    };
    if base_file.is_some() && specs.len() > 1 {
        return Err("--base-file compares one document: name it with --spec".into());
    }
    let mut worst = 0;
    for spec in specs {
        // A document split over several files is read whole on both sides: a change in a
        // file the root refers to is a change of the document.
        let spec_label = paths::label(&spec, &base);
        let new_source = apigen::FileSystem::new(&base);
        let report = match (&base_ref, &base_file) {
            (Some(_), Some(_)) => return Err("--base and --base-file exclude each other".into()),
            (None, Some(file)) => {
                let file = inv.cwd.join(file);
                read(&file)?;
                let base_label = paths::label(&file, &inv.cwd);
                let base_source = apigen::FileSystem::new(&inv.cwd);
                compare(
                    (&base_label, &base_source),
                    (&spec_label, &new_source),
                    &spec_label,
                )?
            }
            (rev, None) => {
                let rev = rev.clone().unwrap_or_else(|| "HEAD".into());
                let base_source = Git {
                    rev: rev.clone(),
                    base: base.clone(),
                };
                base_source.read(&spec_label)?;
                compare(
                    (&spec_label, &base_source),
                    (&spec_label, &new_source),
                    &format!("{rev}:{spec_label}"),
                )?
            }
        };
        let text = if json {
            format!("{}\n", report.json())
        } else {
            let base_label = match (&base_ref, &base_file) {
                (_, Some(file)) => file.display().to_string(),
                (rev, None) => format!("{}:{spec_label}", rev.as_deref().unwrap_or("HEAD")),
            };
            format!("{base_label} → {spec_label}\n{}", report.human())
        };
        // A reader that stops early (`| head`) is not an error worth a panic.
        let _ = std::io::Write::write_all(&mut std::io::stdout().lock(), text.as_bytes());
        if !report.breaking_for_clients().is_empty() {
            worst = BREAKING;
        }
    }
    Ok(worst)
}

/// The two versions compared, each read from its root file through its source.
fn compare(
    base: (&str, &dyn apigen::Source),
    new: (&str, &dyn apigen::Source),
    base_label: &str,
) -> Result<apigen::diff::Report, String> {
    // The new root must be readable; said plainly before the generator's own messages.
    new.1
        .read(new.0)
        .map_err(|e| format!("cannot read {}: {e}", new.0))?;
    apigen::diff::diff_from(base, new, now())
        .map_err(|e| format!("cannot compare {base_label} with {}:\n{e}", new.0))
}

/// Files as committed at a git revision, named from `base` (a directory inside the
/// repository).
struct Git {
    rev: String,
    base: PathBuf,
}

impl apigen::Source for Git {
    fn read(&self, path: &str) -> Result<String, String> {
        git_show(&self.rev, &self.base.join(path))
    }
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// Unix seconds now (sunset dates are judged against it).
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// The file at `path` as it is at revision `rev` of the repository holding it.
fn git_show(rev: &str, path: &Path) -> Result<String, String> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| format!("{} is not a file name", path.display()))?;
    // `REV:./name` is read relative to the directory git runs in, wherever the repository is.
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["show", &format!("{rev}:./{name}")])
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        // The two everyday cases in plain words; anything else as git said it.
        if stderr.contains("not a git repository") {
            return Err(format!(
                "{} is not in a git repository: no earlier version to compare with",
                path.display()
            ));
        }
        if stderr.contains("exists on disk, but not in") || stderr.contains("does not exist in") {
            return Err(format!(
                "{} is not in {rev} yet: no earlier version to compare with",
                path.display()
            ));
        }
        return Err(format!(
            "git show {rev}:{}: {}",
            path.display(),
            stderr.trim()
        ));
    }
    String::from_utf8(output.stdout).map_err(|_| format!("{rev}:{} is not UTF-8", path.display()))
}

/// The document whose root file `root` is named from the directory `base`, compared with its
/// last commit (`HEAD`), every file it pulls in included, for `generate`.
pub fn against_git(base: &Path, root: &str) -> Result<apigen::diff::Report, String> {
    let committed = Git {
        rev: "HEAD".into(),
        base: base.to_path_buf(),
    };
    committed.read(root)?;
    let files = apigen::FileSystem::new(base);
    apigen::diff::diff_from((root, &committed), (root, &files), now()).map_err(|e| {
        // One line: the document's own errors come from the generation itself.
        let first = e.0.first().map(ToString::to_string).unwrap_or_default();
        format!("cannot compare with HEAD: {first}")
    })
}
