//! The `apigen` binary as a user runs it, in throwaway directories: `init` in an existing
//! workspace, `generate`/`check` after an edit, paths typed two ways, help and usage errors.
//! (Building what it generates, from packaged runtime crates outside the checkout, is
//! scripts/first-use.sh's job.)

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A fresh directory under the system's temporary one, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("apigen-cli-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn apigen(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_apigen"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn ok(out: Output) -> String {
    let all = text(&out);
    assert!(out.status.success(), "{all}");
    all
}

fn petstore() -> String {
    fs::read_to_string(repo().join("spec/petstore.yaml")).unwrap()
}

#[test]
fn help_for_every_command_and_clear_usage_errors() {
    let dir = Scratch::new("help");
    for args in [
        &["--help"][..],
        &["help"],
        &["generate", "--help"],
        &["check", "--help"],
        &["diff", "--help"],
        &["init", "--help"],
        &["help", "init"],
        &["mock", "--help"],
        &["help", "mock"],
    ] {
        let out = ok(apigen(&dir.0, args));
        assert!(out.contains("Usage: apigen"), "{args:?}: {out}");
    }
    assert!(ok(apigen(&dir.0, &["--version"])).starts_with("apigen 0."));
    let out = apigen(&dir.0, &["generate", "--frobnicate"]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("unknown option `--frobnicate` for `apigen generate`"),
        "{}",
        text(&out)
    );
    let out = apigen(&dir.0, &["frobnicate"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    // No apigen.toml here or above: say how to make one.
    let out = apigen(&dir.0, &["generate"]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("no apigen.toml in") && text(&out).contains("apigen init --spec"),
        "{}",
        text(&out)
    );
}

/// A file name that is not a package name (`api.github.com.json`) gives crates cargo
/// accepts, depending on the runtime crates by version alone (the default).
#[test]
fn dotted_file_names_make_valid_crates_that_depend_on_the_runtime_by_version() {
    let dir = Scratch::new("names");
    fs::write(
        dir.0.join("api.github.com.json"),
        r#"{"openapi": "3.1.0", "info": {"title": "GitHub", "version": "1"}, "paths": {}}"#,
    )
    .unwrap();
    ok(apigen(
        &dir.0,
        &["generate", "--spec", "api.github.com.json", "--out", "out"],
    ));
    for (side, expected) in [
        ("server", "api-github-com-server"),
        ("client", "api-github-com-client"),
    ] {
        let manifest = dir.0.join("out").join(side).join("Cargo.toml");
        let text = fs::read_to_string(&manifest).unwrap();
        assert!(text.contains(&format!("name = \"{expected}\"")), "{text}");
        // Each runtime has its own version (the client's moved to 0.2 alone).
        let runtime = match side {
            "server" => include_str!("../../runtime/server/Cargo.toml"),
            _ => include_str!("../../runtime/client/Cargo.toml"),
        };
        let version = runtime
            .lines()
            .find_map(|l| l.strip_prefix("version = \""))
            .and_then(|v| v.strip_suffix('"'))
            .unwrap();
        assert!(
            text.contains(&format!("apigen-{side}-runtime = \"{version}\"\n")),
            "by version alone: {text}"
        );
        // (The server's `[[bin]]` of the mock names its source file with `path =`: not a
        // dependency.)
        assert!(
            !text
                .lines()
                .any(|l| l.contains('{') && l.contains("path =")),
            "no dependency by path: {text}"
        );
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let status = Command::new(cargo)
            .args([
                "metadata",
                "--no-deps",
                "--offline",
                "--format-version",
                "1",
            ])
            .arg("--manifest-path")
            .arg(&manifest)
            .stdout(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "cargo refuses {}", manifest.display());
    }
    let out = apigen(
        &dir.0,
        &[
            "generate",
            "--spec",
            "api.github.com.json",
            "--out",
            "o",
            "--name",
            "a.b",
        ],
    );
    assert!(text(&out).contains("try `a-b`"), "{}", text(&out));
}

/// `check` gives the same answer however `--spec` and `--out` were typed, and its hint is the
/// command that regenerates those very files.
#[test]
fn check_does_not_depend_on_how_paths_were_typed() {
    let dir = Scratch::new("typed");
    fs::create_dir_all(dir.0.join("spec")).unwrap();
    fs::write(dir.0.join("spec/petstore.yaml"), petstore()).unwrap();
    let absolute = dir.0.join("spec/petstore.yaml");
    ok(apigen(
        &dir.0,
        &[
            "generate",
            "--spec",
            absolute.to_str().unwrap(),
            "--out",
            "api",
        ],
    ));
    let out = ok(apigen(
        &dir.0,
        &[
            "check",
            "--spec",
            "./spec/../spec/petstore.yaml",
            "--out",
            "./api/",
        ],
    ));
    assert!(out.contains("up to date"), "{out}");
    let header = fs::read_to_string(dir.0.join("api/server/src/lib.rs")).unwrap();
    assert!(
        header.starts_with(
            "// @generated by `apigen generate --spec spec/petstore.yaml --out api` from spec/petstore.yaml."
        ),
        "{}",
        header.lines().next().unwrap()
    );
    fs::write(dir.0.join("api/server/src/types.rs"), "// edited by hand\n").unwrap();
    let out = apigen(
        &dir.0,
        &["check", "--spec", "spec/petstore.yaml", "--out", "api"],
    );
    assert!(!out.status.success());
    assert!(
        text(&out).contains("stale: api/server/src/types.rs")
            && text(&out).contains("run `apigen generate --spec spec/petstore.yaml --out api`"),
        "{}",
        text(&out)
    );
}

/// The developer loop in a workspace set up by `init`: an optional property added to the
/// document makes `check` fail naming files of both crates; `generate` rewrites them and
/// `check` passes again, from any directory of the workspace.
#[test]
fn init_then_an_edit_then_generate_and_check() {
    let dir = Scratch::new("init");
    let ws = &dir.0;
    fs::write(
        ws.join("Cargo.toml"),
        "# Our workspace.\n[workspace]\nresolver = \"3\"\nmembers = [\n    \"service\", # the service\n]\n",
    )
    .unwrap();
    fs::create_dir_all(ws.join("docs")).unwrap();
    fs::write(ws.join("docs/openapi.yaml"), petstore()).unwrap();

    let out = ok(apigen(
        ws,
        &[
            "init",
            "--spec",
            "docs/openapi.yaml",
            "--name",
            "petstore",
            "--cli",
            "--xtask",
        ],
    ));
    assert!(out.contains("created: apigen.toml"), "{out}");
    let config = fs::read_to_string(ws.join("apigen.toml")).unwrap();
    assert!(
        config.contains(
            "spec = \"docs/openapi.yaml\"\nname = \"petstore\"\nout = \"petstore\"\ncli = true\n"
        ),
        "{config}"
    );
    // With an xtask the project regenerates with it, and generated files say so whichever
    // tool wrote them (so `apigen check` and `cargo xtask codegen --check` agree).
    assert!(
        config.contains("\ncommand = \"cargo xtask codegen\"\n"),
        "{config}"
    );
    let header = fs::read_to_string(ws.join("petstore/server/src/lib.rs")).unwrap();
    assert!(
        header.starts_with("// @generated by `cargo xtask codegen` from docs/openapi.yaml."),
        "{}",
        header.lines().next().unwrap()
    );
    let manifest = fs::read_to_string(ws.join("Cargo.toml")).unwrap();
    for member in [
        "petstore/server",
        "petstore/client",
        "petstore/cli",
        "xtask",
    ] {
        assert!(manifest.contains(&format!("\"{member}\"")), "{manifest}");
    }
    assert!(
        manifest.contains("# Our workspace.") && manifest.contains("\"service\", # the service"),
        "comments kept: {manifest}"
    );
    for file in [
        "petstore/server/src/api.rs",
        "petstore/client/src/client.rs",
        "petstore/cli/src/main.rs",
        "xtask/src/main.rs",
    ] {
        assert!(ws.join(file).is_file(), "{file}");
    }
    let alias = fs::read_to_string(ws.join(".cargo/config.toml")).unwrap();
    assert!(
        alias.contains("xtask = \"run --package xtask --\""),
        "{alias}"
    );
    let xtask = fs::read_to_string(ws.join("xtask/Cargo.toml")).unwrap();
    assert!(
        xtask.contains(&format!("apigen-cli = \"{}\"", env!("CARGO_PKG_VERSION"))),
        "{xtask}"
    );

    // A second init refuses to overwrite; nothing changes.
    let out = apigen(ws, &["init", "--spec", "docs/openapi.yaml"]);
    assert!(!out.status.success() && text(&out).contains("apigen.toml exists"));

    let out = ok(apigen(&ws.join("petstore/server"), &["check"]));
    assert!(out.contains("up to date"), "{out}");

    let spec = fs::read_to_string(ws.join("docs/openapi.yaml")).unwrap();
    let edited = spec.replacen("    NewPet:\n", "    NewPet:\n      x-edited: true\n", 1);
    let at = edited.find("    NewPet:\n").unwrap();
    let props =
        at + edited[at..].find("      properties:\n").unwrap() + "      properties:\n".len();
    let edited = format!(
        "{}        nickname: {{type: string, description: A nickname.}}\n{}",
        &edited[..props],
        &edited[props..]
    );
    fs::write(ws.join("docs/openapi.yaml"), edited).unwrap();
    let out = apigen(ws, &["check"]);
    assert!(!out.status.success());
    let all = text(&out);
    assert!(
        all.contains("stale: petstore/server/src/types.rs")
            && all.contains("stale: petstore/client/src/types.rs")
            && all.contains("run `cargo xtask codegen` and commit the result"),
        "{all}"
    );
    ok(apigen(ws, &["generate"]));
    assert!(ok(apigen(ws, &["check"])).contains("up to date"));
    for side in ["server", "client"] {
        let types = fs::read_to_string(ws.join(format!("petstore/{side}/src/types.rs"))).unwrap();
        assert!(types.contains("pub nickname: Option<String>"), "{side}");
    }
}

/// A document apigen cannot read leaves the workspace as it was: no apigen.toml, no crates,
/// no members; the error points into the document.
#[test]
fn init_with_a_bad_document_writes_nothing() {
    let dir = Scratch::new("bad");
    let ws = &dir.0;
    fs::write(ws.join("Cargo.toml"), "[workspace]\nmembers = []\n").unwrap();
    fs::write(
        ws.join("openapi.yaml"),
        "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        '200': {$ref: '#/components/responses/Missing'}\n",
    )
    .unwrap();
    let out = apigen(ws, &["init", "--spec", "openapi.yaml"]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("/paths/~1a/get/responses/200"),
        "located: {}",
        text(&out)
    );
    let left: Vec<_> = fs::read_dir(ws)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 2, "{left:?}");
    assert_eq!(
        fs::read_to_string(ws.join("Cargo.toml")).unwrap(),
        "[workspace]\nmembers = []\n"
    );
}

/// An empty directory becomes a workspace; a member directory of a workspace above is told
/// where to run.
#[test]
fn init_makes_a_workspace_or_points_at_the_real_root() {
    let dir = Scratch::new("roots");
    let ws = &dir.0;
    fs::write(
        ws.join("api.json"),
        r#"{"openapi": "3.0.3", "info": {"title": "T", "version": "1"}, "paths": {}}"#,
    )
    .unwrap();
    ok(apigen(ws, &["init", "--spec", "api.json"]));
    let manifest = fs::read_to_string(ws.join("Cargo.toml")).unwrap();
    assert!(
        manifest.contains("[workspace]") && manifest.contains("\"api/server\""),
        "{manifest}"
    );
    let member = ws.join("service");
    fs::create_dir_all(&member).unwrap();
    fs::write(
        member.join("Cargo.toml"),
        "[package]\nname = \"service\"\nversion = \"0.1.0\"\n",
    )
    .unwrap();
    let out = apigen(&member, &["init", "--spec", "../api.json"]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("is a workspace root above this directory: run `apigen init` there"),
        "{}",
        text(&out)
    );
}

#[test]
fn mock_needs_a_document_and_knows_its_options() {
    let dir = Scratch::new("mock-usage");
    let out = apigen(&dir.0, &["mock"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("which document? `apigen mock DOC`"),
        "{}",
        text(&out)
    );
    let out = apigen(&dir.0, &["mock", "a.yaml", "--frobnicate"]);
    assert!(
        text(&out).contains("unknown option `--frobnicate` for `apigen mock`"),
        "{}",
        text(&out)
    );
    let out = apigen(&dir.0, &["mock", "missing.yaml"]);
    assert!(text(&out).contains("cannot read"), "{}", text(&out));
}

/// `apigen mock` builds the pet store's mock and serves it: the document's example answers,
/// and the generated router's authentication and checks stand in front of it. The build shares
/// the workspace's target directory (the runtime and its dependencies are built already).
#[test]
fn mock_serves_a_document_through_its_router() {
    use std::io::{BufRead, BufReader, Read, Write};
    let dir = Scratch::new("mock");
    let runtime = repo().join("runtime");
    let mut child = Command::new(env!("CARGO_BIN_EXE_apigen"))
        .current_dir(&dir.0)
        .env(
            "CARGO_TARGET_DIR",
            std::env::var_os("CARGO_TARGET_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| repo().join("target")),
        )
        .args(["mock"])
        .arg(repo().join("spec/petstore.yaml"))
        .args(["--port", "0", "--key", "secret", "--runtime-path"])
        .arg(&runtime)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let listening = lines.next().expect("the mock prints its address").unwrap();
    let key_line = lines.next().unwrap().unwrap();
    let base = listening
        .rsplit_once("listening on http://")
        .map(|(_, rest)| rest.to_string())
        .unwrap_or_else(|| panic!("{listening}"));
    assert_eq!(key_line, "key: secret");
    let (addr, base_path) = base.split_once('/').unwrap();
    let get = |path: &str, key: Option<&str>| {
        let mut stream = std::net::TcpStream::connect(addr).unwrap();
        let auth = key
            .map(|k| format!("Authorization: Bearer {k}\r\n"))
            .unwrap_or_default();
        write!(
            stream,
            "GET /{base_path}{path} HTTP/1.1\r\nHost: {addr}\r\n{auth}Connection: close\r\n\r\n"
        )
        .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        answer
    };
    let pets = get("/pets", Some("secret"));
    let stranger = get("/pets", None);
    let refused = get("/pets?limit=0", Some("secret"));
    let _ = child.kill();
    let _ = child.wait();
    assert!(pets.starts_with("HTTP/1.1 200"), "{pets}");
    assert!(
        pets.contains(r#""name":"Rex""#),
        "the document's example: {pets}"
    );
    assert!(stranger.starts_with("HTTP/1.1 401"), "{stranger}");
    assert!(refused.starts_with("HTTP/1.1 400"), "{refused}");
    assert!(refused.contains("query/limit"), "{refused}");
}
