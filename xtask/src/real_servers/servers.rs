//! The real servers `cargo xtask real-servers` calls: how each is installed and started, where
//! it serves its document, and the scenario a frontend team would run against it.

use std::path::Path;
use std::process::{Child, Command, Stdio};

/// What a step expects of the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    Success,
    /// An error answer (a read after the delete): the client reading it is the point.
    Failure,
}

/// One call of a scenario: the CLI's arguments after its global flags (`{name}` stands for
/// a value an earlier step captured), and what to capture from its answer (a JSON pointer
/// into the body, which `--raw` writes as received).
pub struct Step {
    pub label: &'static str,
    pub args: Vec<String>,
    pub expect: Expect,
    pub capture: Option<(&'static str, &'static str)>,
}

fn step(label: &'static str, args: &[&str]) -> Step {
    Step {
        label,
        args: args.iter().map(|a| a.to_string()).collect(),
        expect: Expect::Success,
        capture: None,
    }
}

impl Step {
    fn capture(mut self, var: &'static str, pointer: &'static str) -> Step {
        self.capture = Some((var, pointer));
        self
    }

    fn fails(mut self) -> Step {
        self.expect = Expect::Failure;
        self
    }
}

pub struct Server {
    /// The crates' name, the folder under `target/real-servers`.
    pub name: &'static str,
    /// The package and version installed, and from where.
    pub package: &'static str,
    /// Language and framework.
    pub framework: &'static str,
    /// In CI's part (`--fast`): installs and starts in seconds.
    pub fast: bool,
    pub install: fn(&Path) -> Result<(), String>,
    /// Starts the server in its folder on `port`.
    pub start: fn(&Path, u16) -> Result<Child, String>,
    /// Where the server serves its document.
    pub document: &'static str,
    /// Headers the document's own request needs.
    pub fetch_headers: &'static [(&'static str, &'static str)],
    /// Global flags every sweep call carries (credentials the document does not declare).
    pub auth: &'static [&'static str],
    pub steps: fn() -> Vec<Step>,
}

pub const SERVERS: &[Server] = &[
    Server {
        name: "loopback-todo",
        package: "npm @loopback/example-todo 6.0.0",
        framework: "LoopBack 4 on Express (Node.js)",
        fast: true,
        install: |dir| {
            run(Command::new("npm")
                .args(["install", "--no-audit", "--no-fund", "--loglevel=error"])
                .arg("@loopback/example-todo@6.0.0")
                .current_dir(dir))
        },
        start: |dir, port| {
            // The memory connector reads and writes `./data/db.json`: a fresh copy a run.
            let run_dir = fresh_run_dir(dir)?;
            std::fs::create_dir_all(run_dir.join("data")).map_err(|e| e.to_string())?;
            let package = dir.join("node_modules/@loopback/example-todo");
            std::fs::copy(package.join("data/db.json"), run_dir.join("data/db.json"))
                .map_err(|e| e.to_string())?;
            spawn(
                Command::new("node")
                    .arg(package.join("dist/index.js"))
                    .env("PORT", port.to_string())
                    .env("HOST", "127.0.0.1")
                    .current_dir(&run_dir),
                dir,
            )
        },
        document: "/openapi.json",
        fetch_headers: &[],
        auth: &[],
        steps: || {
            vec![
                step(
                    "create",
                    &["--json", "create", "--title", "milk", "--desc", "2 l"],
                )
                .capture("id", "/id"),
                step("list", &["find"]),
                step(
                    "list with a filter",
                    &["find", "--filter", r#"{"where":{"title":"milk"}}"#],
                ),
                step("count", &["count"]),
                step("read", &["find-by-id", "--id", "{id}"]),
                step(
                    "update",
                    &["update-by-id", "--id", "{id}", "--is-complete", "true"],
                ),
                step(
                    "replace",
                    &["replace-by-id", "--id", "{id}", "--title", "oat milk"],
                ),
                step("read again", &["find-by-id", "--id", "{id}"]),
                step("delete", &["delete-by-id", "--id", "{id}"]),
                step("read after the delete", &["find-by-id", "--id", "{id}"]).fails(),
            ]
        },
    },
    Server {
        name: "kinto",
        package: "PyPI kinto 26.5.0",
        framework: "Pyramid and Cornice (Python)",
        fast: true,
        install: |dir| pip_install(dir, "kinto==26.5.0"),
        start: |dir, port| {
            let run_dir = fresh_run_dir(dir)?;
            let kinto = dir.join("venv/bin/kinto");
            run(Command::new(&kinto)
                .args([
                    "init",
                    "--ini",
                    "kinto.ini",
                    "--backend",
                    "memory",
                    "--cache-backend",
                    "memory",
                ])
                .current_dir(&run_dir))?;
            spawn(
                Command::new(&kinto)
                    .args(["start", "--ini", "kinto.ini", "--port", &port.to_string()])
                    .current_dir(&run_dir),
                dir,
            )
        },
        document: "/v1/__api__",
        fetch_headers: &[],
        // `admin:s3cret`, the account the scenario creates (the document declares no scheme).
        auth: &["-H", "Authorization: Basic YWRtaW46czNjcmV0"],
        steps: || {
            const AUTH: &str = "Authorization: Basic YWRtaW46czNjcmV0";
            vec![
                step(
                    "create an account (anonymously)",
                    &[
                        "update-account",
                        "--id",
                        "admin",
                        "--body",
                        r#"{"data":{"password":"s3cret"}}"#,
                    ],
                ),
                step(
                    "create a bucket",
                    &[
                        "-H",
                        AUTH,
                        "create-bucket",
                        "--body",
                        r#"{"data":{"id":"shop"}}"#,
                    ],
                ),
                step(
                    "create a collection",
                    &[
                        "-H",
                        AUTH,
                        "create-collection",
                        "--bucket-id",
                        "shop",
                        "--body",
                        r#"{"data":{"id":"list"}}"#,
                    ],
                ),
                step(
                    "create a record",
                    &[
                        "-H",
                        AUTH,
                        "create-record",
                        "--bucket-id",
                        "shop",
                        "--collection-id",
                        "list",
                        "--body",
                        r#"{"data":{"title":"milk"}}"#,
                    ],
                )
                .capture("id", "/data/id"),
                step(
                    "list the records",
                    &[
                        "-H",
                        AUTH,
                        "get-records",
                        "--bucket-id",
                        "shop",
                        "--collection-id",
                        "list",
                    ],
                ),
                step(
                    "read the record",
                    &[
                        "-H",
                        AUTH,
                        "get-record",
                        "--bucket-id",
                        "shop",
                        "--collection-id",
                        "list",
                        "--id",
                        "{id}",
                    ],
                ),
                step(
                    "update the record",
                    &[
                        "-H",
                        AUTH,
                        "patch-record",
                        "--bucket-id",
                        "shop",
                        "--collection-id",
                        "list",
                        "--id",
                        "{id}",
                        "--body",
                        r#"{"data":{"done":true}}"#,
                    ],
                ),
                step(
                    "replace the record",
                    &[
                        "-H",
                        AUTH,
                        "update-record",
                        "--bucket-id",
                        "shop",
                        "--collection-id",
                        "list",
                        "--id",
                        "{id}",
                        "--body",
                        r#"{"data":{"title":"oat milk"}}"#,
                    ],
                ),
                step(
                    "delete the record",
                    &[
                        "-H",
                        AUTH,
                        "delete-record",
                        "--bucket-id",
                        "shop",
                        "--collection-id",
                        "list",
                        "--id",
                        "{id}",
                    ],
                ),
                step(
                    "read after the delete",
                    &[
                        "-H",
                        AUTH,
                        "get-record",
                        "--bucket-id",
                        "shop",
                        "--collection-id",
                        "list",
                        "--id",
                        "{id}",
                    ],
                )
                .fails(),
                step(
                    "delete the bucket",
                    &["-H", AUTH, "delete-bucket", "--id", "shop"],
                ),
            ]
        },
    },
    Server {
        name: "jupyter-server",
        package: "PyPI jupyter-server 2.21.1",
        framework: "Tornado (Python)",
        fast: false,
        install: |dir| pip_install(dir, "jupyter-server==2.21.1"),
        start: |dir, port| {
            let run_dir = fresh_run_dir(dir)?;
            for sub in ["root", "config", "data", "runtime"] {
                std::fs::create_dir_all(run_dir.join(sub)).map_err(|e| e.to_string())?;
            }
            spawn(
                Command::new(dir.join("venv/bin/jupyter-server"))
                    .args(["--ip=127.0.0.1", "--no-browser", "--allow-root"])
                    .arg(format!("--port={port}"))
                    .arg("--IdentityProvider.token=apigen-token")
                    .arg(format!(
                        "--ServerApp.root_dir={}",
                        run_dir.join("root").display()
                    ))
                    .env("JUPYTER_CONFIG_DIR", run_dir.join("config"))
                    .env("JUPYTER_DATA_DIR", run_dir.join("data"))
                    .env("JUPYTER_RUNTIME_DIR", run_dir.join("runtime"))
                    .current_dir(&run_dir),
                dir,
            )
        },
        document: "/api/spec.yaml",
        fetch_headers: &[("Authorization", "token apigen-token")],
        auth: &["-H", "Authorization: token apigen-token"],
        steps: || {
            const AUTH: &str = "Authorization: token apigen-token";
            vec![
                step(
                    "create a file",
                    &[
                        "-H",
                        AUTH,
                        "put-api-contents-path",
                        "--path",
                        "notes.txt",
                        "--body",
                        r#"{"type":"file","format":"text","content":"milk"}"#,
                    ],
                ),
                step(
                    "create a folder",
                    &[
                        "-H",
                        AUTH,
                        "put-api-contents-path",
                        "--path",
                        "shop",
                        "--body",
                        r#"{"type":"directory"}"#,
                    ],
                ),
                step(
                    "create a file in it",
                    &[
                        "-H",
                        AUTH,
                        "put-api-contents-path",
                        "--path",
                        "shop/list.txt",
                        "--body",
                        r#"{"type":"file","format":"text","content":"eggs"}"#,
                    ],
                ),
                step(
                    "list the folder",
                    &["-H", AUTH, "get-api-contents-path", "--path", "shop"],
                ),
                step(
                    "read the file",
                    &["-H", AUTH, "get-api-contents-path", "--path", "notes.txt"],
                ),
                step(
                    "rename the file",
                    &[
                        "-H",
                        AUTH,
                        "patch-api-contents-path",
                        "--path",
                        "notes.txt",
                        "--body",
                        r#"{"path":"groceries.txt"}"#,
                    ],
                ),
                step(
                    "replace the file",
                    &[
                        "-H",
                        AUTH,
                        "put-api-contents-path",
                        "--path",
                        "groceries.txt",
                        "--body",
                        r#"{"type":"file","format":"text","content":"oat milk"}"#,
                    ],
                ),
                step(
                    "delete the file",
                    &[
                        "-H",
                        AUTH,
                        "delete-api-contents-path",
                        "--path",
                        "groceries.txt",
                    ],
                ),
                step(
                    "read after the delete",
                    &[
                        "-H",
                        AUTH,
                        "get-api-contents-path",
                        "--path",
                        "groceries.txt",
                    ],
                )
                .fails(),
            ]
        },
    },
    Server {
        name: "prefect",
        package: "PyPI prefect 3.9.1",
        framework: "FastAPI on Starlette (Python)",
        fast: false,
        install: |dir| pip_install(dir, "prefect==3.9.1"),
        start: |dir, port| {
            // The application under uvicorn alone (`prefect server start` runs it as a child
            // process of its own, which stopping the command would leave running); its
            // SQLite database in a fresh home a run.
            let home = fresh_run_dir(dir)?;
            spawn(
                Command::new(dir.join("venv/bin/python"))
                    .args(["-m", "uvicorn", "--factory"])
                    .arg("prefect.server.api.server:create_app")
                    .args(["--host", "127.0.0.1", "--port", &port.to_string()])
                    .env("PREFECT_HOME", &home)
                    .env("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
                    .env("PREFECT_UI_ENABLED", "false")
                    .current_dir(&home),
                dir,
            )
        },
        document: "/api/openapi.json",
        fetch_headers: &[],
        auth: &[],
        // FastAPI's operation ids (`create_variable_variables__post`) read as their plain
        // names (`create-variable`).
        steps: || {
            vec![
                step(
                    "create",
                    &[
                        "create-variable",
                        "--body",
                        r#"{"name":"milk","value":"2 l"}"#,
                    ],
                )
                .capture("id", "/id"),
                step("read", &["read-variable", "--id", "{id}"]),
                step("read by name", &["read-variable-by-name", "--name", "milk"]),
                step("list", &["read-variables", "--body", "{}"]),
                step("count", &["count-variables", "--body", "{}"]),
                step(
                    "update",
                    &[
                        "update-variable",
                        "--id",
                        "{id}",
                        "--body",
                        r#"{"value":"1 l"}"#,
                    ],
                ),
                step("read again", &["read-variable", "--id", "{id}"]),
                step("delete", &["delete-variable", "--id", "{id}"]),
                step("read after the delete", &["read-variable", "--id", "{id}"]).fails(),
            ]
        },
    },
];

/// `dir/run`, empty: a server's state starts afresh on every run.
fn fresh_run_dir(dir: &Path) -> Result<std::path::PathBuf, String> {
    let run_dir = dir.join("run");
    let _ = std::fs::remove_dir_all(&run_dir);
    std::fs::create_dir_all(&run_dir).map_err(|e| e.to_string())?;
    Ok(run_dir)
}

/// A virtual environment of its own in `dir/venv`, with `package` installed from PyPI.
fn pip_install(dir: &Path, package: &str) -> Result<(), String> {
    run(Command::new("python3")
        .args(["-m", "venv", "venv"])
        .current_dir(dir))?;
    run(Command::new(dir.join("venv/bin/pip"))
        .args(["install", "--quiet", "--disable-pip-version-check", package])
        .current_dir(dir))
}

/// Runs an install or set-up command to its end.
fn run(cmd: &mut Command) -> Result<(), String> {
    let out = cmd
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{cmd:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .last()
                .unwrap_or("")
        ))
    }
}

/// Starts a server, its output in `server.log`.
fn spawn(cmd: &mut Command, dir: &Path) -> Result<Child, String> {
    let log = std::fs::File::create(dir.join("server.log")).map_err(|e| e.to_string())?;
    let err = log.try_clone().map_err(|e| e.to_string())?;
    cmd.stdin(Stdio::null())
        .stdout(log)
        .stderr(err)
        .spawn()
        .map_err(|e| format!("cannot start {cmd:?}: {e}"))
}
