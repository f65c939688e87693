//! Build cost beside the hand-written SDKs a team would pick instead (issue 46): `cargo check`
//! and a debug build of api.github.com's generated server and client and of the OpenAI 3.1
//! document's generated client, with every feature and with one tag's feature, next to
//! octocrab 0.54 (GitHub) and async-openai 0.43 (OpenAI, with `full` and with its one API's
//! feature), each crate alone. Written to `docs/build-cost.md`.
//!
//! Everything builds in one throwaway workspace, `target/bench-compile/sdks/ws`, with its own
//! target directory and lock file (the SDKs' dependencies are not the project's). Each row is
//! built once untimed with its features (its dependencies then built), then its crate is
//! cleaned (`cargo clean -p`; for an SDK the SDK's own package too) and timed: the check, then
//! after another clean the debug build. TLS is off on both sides where the crate lets it be
//! (apigen's clients have it off by default; async-openai is taken with
//! `default-features = false`); octocrab is taken as users take it, with its defaults.

use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::compile_corpus::{cargo, cargo_in, rust_lines};

/// One crate built one way.
pub struct Row {
    /// The API (`api.github.com`, `OpenAI`).
    pub api: &'static str,
    /// The crate as a reader knows it (`apigen client`, `octocrab 0.54`).
    pub krate: String,
    /// The features it was built with, as written in the table.
    pub features: String,
    /// Its Rust lines (every feature's), or none for a repeated crate.
    pub lines: Option<usize>,
    /// `cargo check` and debug build seconds, or why it did not build.
    pub times: Result<(f64, f64), String>,
    /// The row whose times this one is compared with (index), if any.
    pub against: Option<usize>,
}

/// What is built: (API, member, shown name, cargo feature arguments, features shown, SDK
/// packages cleaned with it, the row it is compared with).
struct Plan {
    api: &'static str,
    member: &'static str,
    shown: &'static str,
    args: &'static [&'static str],
    features: &'static str,
    also_clean: &'static [&'static str],
    against: Option<usize>,
}

const PLANS: &[Plan] = &[
    Plan {
        api: "api.github.com",
        member: "sdk-octocrab",
        shown: "octocrab 0.54 (hand-written)",
        args: &[],
        features: "its defaults",
        also_clean: &["octocrab"],
        against: None,
    },
    Plan {
        api: "api.github.com",
        member: "github-client",
        shown: "apigen client",
        args: &[],
        features: "all (`default`)",
        also_clean: &[],
        against: Some(0),
    },
    Plan {
        api: "api.github.com",
        member: "github-client",
        shown: "apigen client",
        args: &["--no-default-features", "--features", "issues"],
        features: "`issues`",
        also_clean: &[],
        against: Some(0),
    },
    Plan {
        api: "api.github.com",
        member: "github-server",
        shown: "apigen server",
        args: &[],
        features: "all (`default`)",
        also_clean: &[],
        against: None,
    },
    Plan {
        api: "api.github.com",
        member: "github-server",
        shown: "apigen server",
        args: &["--no-default-features", "--features", "issues"],
        features: "`issues`",
        also_clean: &[],
        against: None,
    },
    Plan {
        api: "OpenAI",
        member: "sdk-async-openai",
        shown: "async-openai 0.43 (hand-written)",
        args: &["--features", "full"],
        features: "`full`",
        also_clean: &["async-openai"],
        against: None,
    },
    Plan {
        api: "OpenAI",
        member: "openai-client",
        shown: "apigen client",
        args: &[],
        features: "all (`default`)",
        also_clean: &[],
        against: Some(5),
    },
    Plan {
        api: "OpenAI",
        member: "sdk-async-openai",
        shown: "async-openai 0.43 (hand-written)",
        args: &["--features", "chat-completion"],
        features: "`chat-completion`",
        also_clean: &["async-openai"],
        against: None,
    },
    Plan {
        api: "OpenAI",
        member: "openai-client",
        shown: "apigen client",
        args: &["--no-default-features", "--features", "chat"],
        features: "`chat`",
        also_clean: &[],
        against: Some(7),
    },
];

/// The SDK wrappers: a library crate that depends on the SDK, its features passed on.
const SDKS: &[(&str, &str, &str)] = &[
    ("sdk-octocrab", "octocrab = \"0.54\"", ""),
    (
        "sdk-async-openai",
        "async-openai = { version = \"0.43\", default-features = false }",
        "full = [\"async-openai/full\"]\nchat-completion = [\"async-openai/chat-completion\"]\n",
    ),
];

/// Writes apigen's `side` crate for the document at `spec` (relative to the checkout) as
/// `ws/<member>`, with the checkout's runtime.
fn generate(root: &Path, spec: &str, side: &str, member: &str, ws: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(root.join(spec)).map_err(|e| format!("{spec}: {e}"))?;
    let options = apigen::Options {
        api_name: None,
        name: member.trim_end_matches(&format!("-{side}")).to_owned(),
        spec_label: spec.to_owned(),
        command: "petstore-bench".to_owned(),
        // From `target/bench-compile/sdks/ws/<crate>` to the checkout's `runtime/`.
        runtime: apigen::RuntimeSource::Crates {
            path: Some("../../../../../runtime".to_owned()),
        },
        ..Default::default()
    };
    let output = apigen::generate(&text, &options).map_err(|e| format!("apigen: {e}"))?;
    let dir = ws.join(member);
    let _ = std::fs::remove_dir_all(&dir);
    for (path, contents) in &output.files {
        let Some(rest) = path.strip_prefix(&format!("{side}/")) else {
            continue;
        };
        let file = dir.join(rest);
        if let Some(parent) = file.parent() {
            std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        std::fs::write(&file, contents).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// The source directory of the registry package `name` the workspace resolved.
fn package_dir(ws: &Path, name: &str) -> Option<std::path::PathBuf> {
    let out = Command::new(cargo())
        .current_dir(ws)
        .args(["metadata", "--format-version", "1"])
        .stdin(Stdio::null())
        .output()
        .ok()?;
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
    meta.get("packages")?
        .as_array()?
        .iter()
        .find(|p| p.get("name").and_then(|n| n.as_str()) == Some(name))
        .and_then(|p| p.get("manifest_path")?.as_str())
        .and_then(|m| Path::new(m).parent().map(Path::to_path_buf))
}

pub fn run(root: &Path) -> Result<Vec<Row>, String> {
    let ws = root.join("target/bench-compile/sdks/ws");
    std::fs::create_dir_all(&ws).map_err(|e| format!("cannot create {}: {e}", ws.display()))?;
    generate(
        root,
        "../shared/openapi-corpus/progenitor/api.github.com.json",
        "server",
        "github-server",
        &ws,
    )?;
    generate(
        root,
        "../shared/openapi-corpus/progenitor/api.github.com.json",
        "client",
        "github-client",
        &ws,
    )?;
    generate(
        root,
        "../shared/openapi-corpus-31/openai/openapi.yaml",
        "client",
        "openai-client",
        &ws,
    )?;
    for (member, dependency, features) in SDKS {
        let dir = ws.join(member).join("src");
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let krate = member.trim_start_matches("sdk-").replace('-', "_");
        std::fs::write(dir.join("lib.rs"), format!("pub use {krate};\n"))
            .map_err(|e| e.to_string())?;
        let manifest = format!(
            "# Written by petstore-bench (build-cost).\n[package]\nname = \"{member}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\n{dependency}\n\n[features]\n{features}"
        );
        std::fs::write(ws.join(member).join("Cargo.toml"), manifest).map_err(|e| e.to_string())?;
    }
    let members = ["github-server", "github-client", "openai-client"]
        .into_iter()
        .chain(SDKS.iter().map(|s| s.0))
        .map(|m| format!("\"{m}\""))
        .collect::<Vec<_>>()
        .join(", ");
    std::fs::write(
        ws.join("Cargo.toml"),
        format!(
            "# Written by petstore-bench (build-cost).\n[workspace]\nresolver = \"3\"\nmembers = [{members}]\n"
        ),
    )
    .map_err(|e| e.to_string())?;
    let mut rows: Vec<Row> = Vec::new();
    for plan in PLANS {
        eprintln!("  {} {} ({})", plan.api, plan.shown, plan.features);
        let with = |command: &'static str| {
            let mut args = vec![command, "-p", plan.member];
            args.extend(plan.args);
            args
        };
        let mut clean = vec!["clean", "-p", plan.member];
        for package in plan.also_clean {
            clean.extend(["-p", package]);
        }
        let times = (|| {
            // Untimed: the dependencies with these features.
            cargo_in(&ws, &with("check"))?;
            cargo_in(&ws, &with("build"))?;
            cargo_in(&ws, &clean)?;
            let check = cargo_in(&ws, &with("check"))?;
            cargo_in(&ws, &clean)?;
            let build = cargo_in(&ws, &with("build"))?;
            eprintln!("    check {check:.1} s, debug build {build:.1} s");
            Ok((check, build))
        })();
        let seen = rows
            .iter()
            .any(|r| r.krate == plan.shown && r.api == plan.api);
        let lines = (!seen).then(|| match plan.also_clean.first() {
            Some(package) => package_dir(&ws, package).map_or(0, |d| rust_lines(&d.join("src"))),
            None => rust_lines(&ws.join(plan.member).join("src")),
        });
        rows.push(Row {
            api: plan.api,
            krate: plan.shown.to_owned(),
            features: plan.features.to_owned(),
            lines,
            times,
            against: plan.against,
        });
    }
    Ok(rows)
}

/// The part's report (`docs/build-cost.md`).
pub fn markdown(rows: &[Row], header: &str) -> String {
    let mut w = String::new();
    let _ = writeln!(
        w,
        "# Build cost beside hand-written SDKs\n\nWritten by `cargo xtask bench --only build-cost` (`benches/src/build_cost.rs`); do not edit by hand, rerun it.\n\n{header}\n`cargo check` and a debug `cargo build` of each crate alone, in one run on one machine: every dependency built first with the same features (untimed), then the crate cleaned (`cargo clean -p`, for a hand-written SDK its own package too) and built. The generated crates come from the corpus documents with today's generator; the hand-written SDKs from crates.io. octocrab covers a part of GitHub's API by hand (its own models); the generated client covers all 767 operations. Ratios are generated / hand-written: above 1, the generated crate costs more.\n"
    );
    let _ = writeln!(
        w,
        "| API | crate | features | Rust lines | check | debug build | check, generated / hand-written | build, generated / hand-written |"
    );
    let _ = writeln!(w, "|---|---|---|---:|---:|---:|---:|---:|");
    for row in rows {
        let lines = row.lines.map_or(String::new(), |n| n.to_string());
        let (check, build) = match &row.times {
            Ok((c, b)) => (format!("{c:.1} s"), format!("{b:.1} s")),
            Err(e) => (format!("failed: {e}"), String::new()),
        };
        let ratio = |pick: fn(&(f64, f64)) -> f64| {
            let base = row.against.and_then(|i| rows.get(i))?;
            let (ours, theirs) = (row.times.as_ref().ok()?, base.times.as_ref().ok()?);
            Some(format!("**{:.2}**", pick(ours) / pick(theirs)))
        };
        let _ = writeln!(
            w,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            row.api,
            row.krate,
            row.features,
            lines,
            check,
            build,
            ratio(|t| t.0).unwrap_or_default(),
            ratio(|t| t.1).unwrap_or_default()
        );
    }
    w
}
