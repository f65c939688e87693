//! The throwaway workspace and cargo: manifests written, `cargo metadata`, builds and docs
//! run with JSON messages, and their diagnostics tallied per crate.

use super::*;

pub(super) fn workspace_manifest(members: &[String], extra: &str) -> String {
    let mut s = String::from(
        "# Written by `cargo xtask corpus`: a throwaway workspace of generated crates.\n\
         [workspace]\nresolver = \"3\"\nmembers = [\n",
    );
    for m in members {
        let _ = writeln!(s, "    \"{m}\",");
    }
    s.push_str("]\n");
    s.push_str(extra);
    s
}

pub(crate) fn write_workspace(ws: &Path, root: &Path, members: &[String]) -> Result<(), String> {
    write_workspace_with(ws, root, members, "")
}

/// [`write_workspace`] with more lines for the workspace's manifest (a `[profile.dev]`).
pub(crate) fn write_workspace_with(
    ws: &Path,
    root: &Path,
    members: &[String],
    extra: &str,
) -> Result<(), String> {
    let manifest = ws.join("Cargo.toml");
    fs::write(&manifest, workspace_manifest(members, extra))
        .map_err(|e| format!("cannot write {}: {e}", manifest.display()))?;
    // The repository's lock file, so that the corpus builds the versions the repository
    // builds and needs nothing new from the registry; cargo prunes and extends it.
    let lock = ws.join("Cargo.lock");
    fs::copy(root.join("Cargo.lock"), &lock)
        .map_err(|e| format!("cannot copy Cargo.lock to {}: {e}", lock.display()))?;
    Ok(())
}

/// `cargo` with the caller's flags removed: the corpus counts warnings, it does not deny them.
pub(crate) fn cargo() -> Command {
    let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    for var in [
        "RUSTFLAGS",
        "RUSTDOCFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_BUILD_RUSTFLAGS",
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_TARGET_DIR",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

/// Package id → package name, and member → why cargo could not load it.
pub(crate) type Loaded = (HashMap<String, String>, BTreeMap<String, String>);

/// Writes the workspace of `members` and asks cargo for its packages (package id → name). A
/// member whose manifest cargo cannot load stops every cargo command in the workspace: it is
/// set aside (removed from `members`, returned with cargo's error) and cargo asked again.
pub(crate) fn load_workspace(
    ws: &Path,
    root: &Path,
    members: &mut Vec<String>,
    extra: &str,
) -> Result<Loaded, String> {
    write_workspace_with(ws, root, members, extra)?;
    let mut excluded: BTreeMap<String, String> = BTreeMap::new();
    loop {
        match cargo_metadata(ws) {
            Ok(names) => return Ok((names, excluded)),
            Err(stderr) => {
                let bad: Vec<String> = members
                    .iter()
                    .filter(|m| mentions_member(&stderr, ws, m))
                    .cloned()
                    .collect();
                if bad.is_empty() {
                    return Err(format!(
                        "cargo cannot load the workspace {}:\n{stderr}",
                        ws.display()
                    ));
                }
                for m in bad {
                    excluded.insert(m.clone(), first_cargo_error(&stderr));
                    members.retain(|x| *x != m);
                }
                write_workspace_with(ws, root, members, extra)?;
            }
        }
    }
}

/// Package id → package name for the workspace members, or cargo's stderr when it cannot
/// load the workspace.
pub(crate) fn cargo_metadata(ws: &Path) -> Result<HashMap<String, String>, String> {
    let out = cargo()
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--manifest-path",
        ])
        .arg(ws.join("Cargo.toml"))
        .current_dir(ws)
        .output()
        .map_err(|e| format!("cannot run cargo metadata: {e}"))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let json = Json::parse(&text).map_err(|e| format!("cargo metadata output: {e}"))?;
    Ok(json
        .get("packages")
        .map(Json::items)
        .unwrap_or_default()
        .iter()
        .filter_map(|p| {
            Some((
                p.get("id")?.as_str()?.to_string(),
                p.get("name")?.as_str()?.to_string(),
            ))
        })
        .collect())
}

/// Whether cargo's error names the member's directory (or manifest).
pub(super) fn mentions_member(stderr: &str, ws: &Path, member: &str) -> bool {
    let dir = ws.join(member);
    let dir = dir.to_string_lossy();
    stderr.contains(&format!("{dir}/")) || stderr.contains(&format!("{dir}`"))
}

/// cargo's first `error:` with its `caused by` chain, on one line.
pub(crate) fn first_cargo_error(stderr: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for line in stderr.lines().skip_while(|l| !l.starts_with("error")) {
        let line = line.trim();
        if !out.is_empty() && (line.starts_with("error") || line.starts_with("warning")) {
            break;
        }
        if !line.is_empty() {
            out.push(line);
        }
    }
    if out.is_empty() {
        stderr
            .lines()
            .last()
            .unwrap_or("(no output)")
            .trim()
            .to_string()
    } else {
        out.join(" ")
    }
}

/// One `cargo clippy --workspace --keep-going --message-format=json` (clippy's lints on top
/// of rustc's: generated code must be clean under both): stdout lines (the JSON messages),
/// whether cargo succeeded, and its stderr (also echoed, for progress).
pub(crate) fn cargo_build(
    ws: &Path,
    target_dir: &Path,
    features: &[String],
) -> Result<(Vec<String>, bool, String), String> {
    let features = if features.is_empty() {
        Vec::new()
    } else {
        vec!["--features".to_string(), features.join(",")]
    };
    let mut command = vec!["clippy", "--workspace", "--keep-going"];
    command.extend(features.iter().map(String::as_str));
    cargo_json(ws, target_dir, &command)
}

/// `cargo SUBCOMMAND --workspace --keep-going --message-format=json` (`clippy` to check and
/// lint, `build` for binaries), as [`cargo_build`].
pub(crate) fn cargo_run(
    ws: &Path,
    target_dir: &Path,
    subcommand: &str,
) -> Result<(Vec<String>, bool, String), String> {
    cargo_json(ws, target_dir, &[subcommand, "--workspace", "--keep-going"])
}

/// One `cargo doc --workspace --no-deps --keep-going --message-format=json`: rustdoc's
/// warnings about the generated crates' documentation, as [`cargo_build`] returns them.
pub(super) fn cargo_doc(
    ws: &Path,
    target_dir: &Path,
) -> Result<(Vec<String>, bool, String), String> {
    cargo_json(
        ws,
        target_dir,
        &["doc", "--workspace", "--no-deps", "--keep-going"],
    )
}

pub(super) fn cargo_json(
    ws: &Path,
    target_dir: &Path,
    command: &[&str],
) -> Result<(Vec<String>, bool, String), String> {
    let name = command[0];
    let mut child = cargo()
        .args(command)
        .args(["--message-format=json", "--manifest-path"])
        .arg(ws.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(target_dir)
        .current_dir(ws)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run cargo {name}: {e}"))?;
    let stderr = child.stderr.take().expect("piped stderr");
    let echo = std::thread::spawn(move || {
        let mut kept = String::new();
        let mut reader = BufReader::new(stderr);
        let mut line = String::new();
        while reader.read_line(&mut line).unwrap_or(0) > 0 {
            eprint!("{line}");
            kept.push_str(&line);
            line.clear();
        }
        kept
    });
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .expect("piped stdout")
        .read_to_string(&mut stdout)
        .map_err(|e| format!("cannot read cargo's output: {e}"))?;
    let status = child
        .wait()
        .map_err(|e| format!("cargo {name} did not finish: {e}"))?;
    let stderr = echo.join().unwrap_or_default();
    Ok((
        stdout.lines().map(str::to_string).collect(),
        status.success(),
        stderr,
    ))
}

// ---------------------------------------------------------------------------------------------
// cargo's JSON messages → per-crate results

/// What the build said about one crate.
#[derive(Debug, Default, Clone)]
pub(crate) struct CrateBuild {
    pub(crate) compiled: bool,
    pub(crate) warnings: usize,
    pub(crate) errors: Vec<CompileError>,
    /// Warning kind (see [`kind_of`]) → how many, and where the first one is.
    pub(crate) warning_kinds: BTreeMap<String, (usize, String)>,
    /// Set aside before the build: cargo could not load the crate's manifest.
    pub(crate) manifest_error: Option<String>,
    /// rustdoc's warnings (`None`: not documented).
    pub(crate) doc_warnings: Option<usize>,
    pub(crate) doc_warning_kinds: BTreeMap<String, (usize, String)>,
}

impl CrateBuild {
    pub(super) fn attempted(&self) -> bool {
        self.compiled || !self.errors.is_empty() || self.warnings > 0
    }

    pub(super) fn cell(&self) -> String {
        if self.compiled {
            "yes".into()
        } else if self.manifest_error.is_some() {
            "**no** (manifest)".into()
        } else if self.errors.is_empty() {
            "**not built**".into()
        } else {
            format!("**no** ({})", plural(self.errors.len(), "error"))
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CompileError {
    pub(crate) code: Option<String>,
    pub(crate) message: String,
    /// `file:line` of the primary span, relative to the corpus workspace.
    pub(super) location: Option<String>,
    pub(super) rendered: String,
}

impl CompileError {
    /// `file:line: CODE message`, the location first so that it survives a cut.
    pub(crate) fn short(&self) -> String {
        let mut s = String::new();
        if let Some(at) = &self.location {
            let _ = write!(s, "{at}: ");
        }
        if let Some(code) = &self.code {
            let _ = write!(s, "{code} ");
        }
        s.push_str(self.message.lines().next().unwrap_or(""));
        s
    }
}

/// Folds cargo's JSON lines into results per package name. `names` maps package ids (from
/// `cargo metadata`) to names; messages about other packages (dependencies) are ignored.
pub(crate) fn tally<'a>(
    lines: impl Iterator<Item = &'a str>,
    names: &HashMap<String, String>,
) -> HashMap<String, CrateBuild> {
    let mut out: HashMap<String, CrateBuild> = HashMap::new();
    for line in lines {
        let Ok(msg) = Json::parse(line) else { continue };
        let Some(name) = msg
            .get("package_id")
            .and_then(Json::as_str)
            .and_then(|id| names.get(id))
        else {
            continue;
        };
        match msg.get("reason").and_then(Json::as_str) {
            Some("compiler-artifact") => {
                out.entry(name.clone()).or_default().compiled = true;
            }
            Some("compiler-message") => {
                let Some(diag) = msg.get("message") else {
                    continue;
                };
                let level = diag.get("level").and_then(Json::as_str).unwrap_or("");
                let text = diag.get("message").and_then(Json::as_str).unwrap_or("");
                let spans = diag.get("spans").map(Json::items).unwrap_or_default();
                if spans.is_empty() && is_summary(text) {
                    continue;
                }
                let entry = out.entry(name.clone()).or_default();
                match level {
                    "warning" => {
                        entry.warnings += 1;
                        let kind = entry.warning_kinds.entry(kind_of(text)).or_default();
                        kind.0 += 1;
                        if kind.1.is_empty() {
                            kind.1 = primary_location(spans).unwrap_or_default();
                        }
                    }
                    "error" | "error: internal compiler error" => {
                        entry.errors.push(CompileError {
                            code: diag
                                .get("code")
                                .and_then(|c| c.get("code"))
                                .and_then(Json::as_str)
                                .map(str::to_string),
                            message: text.to_string(),
                            location: primary_location(spans),
                            rendered: diag
                                .get("rendered")
                                .and_then(Json::as_str)
                                .unwrap_or(text)
                                .to_string(),
                        });
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    out
}

/// `file:line` of a diagnostic's primary span.
pub(super) fn primary_location(spans: &[Json]) -> Option<String> {
    let span = spans
        .iter()
        .find(|s| s.get("is_primary") == Some(&Json::Bool(true)))
        .or(spans.first())?;
    Some(format!(
        "{}:{}",
        span.get("file_name")?.as_str()?,
        span.get("line_start")?.as_number()?
    ))
}

pub(super) fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// rustc's closing lines ("aborting due to 3 previous errors", "2 warnings emitted").
pub(super) fn is_summary(message: &str) -> bool {
    message.starts_with("aborting due to")
        || (message.ends_with(" emitted")
            && (message.contains("warning") || message.contains("error")))
}

/// The repository manifest's `[profile.dev]` tables (`[profile.dev]`,
/// `[profile.dev.package."*"]`, …) as they are written, for a workspace that shares its
/// target directory: a unit built with another profile would be built again.
pub(crate) fn repository_profile(root: &Path) -> Result<String, String> {
    let manifest = root.join("Cargo.toml");
    let text = fs::read_to_string(&manifest)
        .map_err(|e| format!("cannot read {}: {e}", manifest.display()))?;
    Ok(dev_profile_tables(&text))
}

pub(super) fn dev_profile_tables(manifest: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for line in manifest.lines() {
        let header = line.trim_start();
        if header.starts_with('[') {
            inside = header == "[profile.dev]" || header.starts_with("[profile.dev.");
            if inside {
                out.push('\n');
            }
        }
        if inside && !header.starts_with('#') && !header.is_empty() {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}
