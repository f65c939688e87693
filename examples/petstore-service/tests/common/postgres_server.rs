//! A throwaway PostgreSQL for tests: a fresh cluster (`initdb`) in a temporary directory,
//! served by `postgres` on a free loopback port, stopped (fast shutdown) and deleted when
//! dropped. Needs the server binaries (Debian: `apt-get install postgresql`; `.ci/run` installs
//! it when missing); they are looked for on `PATH`, then in `/usr/lib/postgresql/*/bin`.
//! PostgreSQL refuses to run as root: as root, the cluster belongs to the `postgres` user (or
//! `nobody` when there is none) and both programs run as that user.

#![allow(dead_code)]

use std::fs;
use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct PostgresServer {
    pub port: u16,
    dir: PathBuf,
    bin: PathBuf,
    owner: Option<(u32, u32)>,
    child: Option<Child>,
}

impl PostgresServer {
    /// Whether PostgreSQL's server programs are installed (tests that need them skip, or fail
    /// under `APIGEN_REQUIRE_SERVICES`, through `redis_server::runs_here`).
    pub fn installed() -> bool {
        find_bin_dir().is_some()
    }

    /// Creates a cluster with the superuser `postgres` (trust authentication on loopback) and
    /// starts it; returns once it accepts connections.
    pub fn start() -> PostgresServer {
        let bin = bin_dir();
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free loopback port")
            .port();
        let dir = std::env::temp_dir().join(format!("petstore-pg-{}-{port}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o700)).unwrap();
        let owner = run_as();
        if let Some((uid, gid)) = owner {
            std::os::unix::fs::chown(&dir, Some(uid), Some(gid)).unwrap();
        }
        let data = dir.join("data");
        let out = as_owner(Command::new(bin.join("initdb")), owner, &dir)
            .arg("-D")
            .arg(&data)
            .args([
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync",
            ])
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", bin.join("initdb").display()));
        assert!(
            out.status.success(),
            "initdb failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let mut server = PostgresServer {
            port,
            dir,
            bin,
            owner,
            child: None,
        };
        server.child = Some(server.spawn());
        server.wait_ready();
        server
    }

    /// Stops the server as an operator would, `pg_ctl stop -m fast` (every session is ended
    /// with `57P01 terminating connection due to administrator command`), and waits for it to
    /// exit. The cluster stays on disk for `restart`.
    pub fn stop(&mut self) {
        let Some(mut child) = self.child.take() else {
            return;
        };
        let out = as_owner(Command::new(self.bin.join("pg_ctl")), self.owner, &self.dir)
            .arg("stop")
            .arg("-D")
            .arg(self.data())
            .args(["-m", "fast", "-w", "-t", "60"])
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", self.bin.join("pg_ctl").display()));
        assert!(
            out.status.success(),
            "pg_ctl stop failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let _ = child.wait();
    }

    /// Starts the server again on the same port and data directory (after `stop`); returns
    /// once it accepts connections.
    pub fn restart(&mut self) {
        self.stop();
        self.child = Some(self.spawn());
        self.wait_ready();
    }

    /// `postgres://postgres@127.0.0.1:PORT/postgres`.
    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    fn spawn(&self) -> Child {
        let (bin, owner) = (&self.bin, self.owner);
        // Appended to: a restart keeps what the first run logged.
        let log = fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.dir.join("postgres.log"))
            .unwrap();
        if let Some((uid, gid)) = owner {
            std::os::unix::fs::chown(self.dir.join("postgres.log"), Some(uid), Some(gid)).unwrap();
        }
        as_owner(Command::new(bin.join("postgres")), owner, &self.dir)
            .arg("-D")
            .arg(self.data())
            .args(["-p", &self.port.to_string()])
            .arg("-k")
            .arg(&self.dir)
            // A test database: durability off (nothing outlives the test), few resources.
            .args(["-c", "listen_addresses=127.0.0.1"])
            .args(["-c", "fsync=off", "-c", "synchronous_commit=off"])
            .args(["-c", "full_page_writes=off", "-c", "shared_buffers=16MB"])
            .args(["-c", "max_connections=40"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", bin.join("postgres").display()))
    }

    fn wait_ready(&mut self) {
        let bin = self.bin.clone();
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let ready = Command::new(bin.join("pg_isready"))
                .args(["-q", "-h", "127.0.0.1", "-p", &self.port.to_string()])
                .status()
                .is_ok_and(|s| s.success());
            if ready {
                return;
            }
            if let Some(Ok(Some(status))) = self.child.as_mut().map(Child::try_wait) {
                panic!("postgres exited ({status}): {}", self.log());
            }
            assert!(
                Instant::now() < deadline,
                "postgres did not accept connections within 60 s: {}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// What the server logged (for failure messages).
    pub fn log(&self) -> String {
        fs::read_to_string(self.dir.join("postgres.log")).unwrap_or_default()
    }
}

impl Drop for PostgresServer {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            // SIGINT is PostgreSQL's fast shutdown: sessions are ended, shared memory freed.
            let _ = Command::new("kill")
                .args(["-INT", &child.id().to_string()])
                .status();
            let deadline = Instant::now() + Duration::from_secs(30);
            while matches!(child.try_wait(), Ok(None)) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(20));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// `cmd` running as `owner` (uid, gid) when set, in `dir` (the user may not enter ours).
fn as_owner(mut cmd: Command, owner: Option<(u32, u32)>, dir: &Path) -> Command {
    if let Some((uid, gid)) = owner {
        cmd.uid(uid).gid(gid);
    }
    cmd.current_dir(dir);
    cmd
}

/// The user to run PostgreSQL as: none when we are not root, else `postgres` (made by the
/// Debian package) or `nobody`.
fn run_as() -> Option<(u32, u32)> {
    let status = fs::read_to_string("/proc/self/status").unwrap_or_default();
    let uid = status
        .lines()
        .find_map(|l| l.strip_prefix("Uid:"))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|u| u.parse::<u32>().ok());
    if uid != Some(0) {
        return None;
    }
    let passwd = fs::read_to_string("/etc/passwd").unwrap_or_default();
    let user = |name: &str| {
        passwd.lines().find_map(|line| {
            let fields: Vec<&str> = line.split(':').collect();
            (fields.len() > 3 && fields[0] == name)
                .then(|| Some((fields[2].parse().ok()?, fields[3].parse().ok()?)))
                .flatten()
        })
    };
    Some(
        user("postgres")
            .or_else(|| user("nobody"))
            .unwrap_or((65534, 65534)),
    )
}

/// The directory holding `initdb`, `postgres`, `pg_isready` and `pg_ctl`.
fn bin_dir() -> PathBuf {
    find_bin_dir().unwrap_or_else(|| {
        panic!(
            "PostgreSQL's server programs (initdb, postgres, pg_isready, pg_ctl) were not found on PATH \
             nor in /usr/lib/postgresql/*/bin: these tests need them; install them with \
             `apt-get install postgresql` (.ci/run does)"
        )
    })
}

/// [`bin_dir`], or `None` where PostgreSQL's server programs are not installed.
fn find_bin_dir() -> Option<PathBuf> {
    let has_all = |d: &Path| {
        ["initdb", "postgres", "pg_isready", "pg_ctl"]
            .iter()
            .all(|b| d.join(b).is_file())
    };
    let on_path = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default();
    if let Some(d) = on_path.into_iter().find(|d| has_all(d)) {
        return Some(d);
    }
    // Debian keeps the server programs out of PATH, one directory per major version.
    let mut versions: Vec<(u32, PathBuf)> = fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let v = e.file_name().to_str()?.parse::<u32>().ok()?;
            Some((v, e.path().join("bin")))
        })
        .filter(|(_, d)| has_all(d))
        .collect();
    versions.sort();
    versions.pop().map(|(_, d)| d)
}
