//! A throwaway `redis-server` for tests: started on a free loopback port with no persistence,
//! stoppable and restartable on the same port, killed when dropped. Needs the `redis-server`
//! binary (Debian: `apt-get install redis-server`; `.ci/run` installs it when missing): where
//! it is not installed, [`RedisServer::start_or_skip`] says so and the test does not run,
//! unless `APIGEN_REQUIRE_SERVICES` is set (`.ci/run` sets it), when that is a failure.
//! Shared by several test crates through `#[path]`.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct RedisServer {
    pub port: u16,
    child: Option<Child>,
}

/// Set (to anything) where a test needing a server program must run: a missing program is
/// then a failure, not a skip. `.ci/run` sets it, so CI never passes with these tests unrun.
pub const REQUIRE_SERVICES: &str = "APIGEN_REQUIRE_SERVICES";

/// Whether a test that needs `what` (found or not, per `installed`) runs. When it does not,
/// one line says so on the terminal, past the test harness's capture of output (so a plain
/// `cargo test` shows it among the results), with how to run it; with
/// [`REQUIRE_SERVICES`] set it panics instead.
pub fn runs_here(test: &str, what: &str, installed: bool, install: &str) -> bool {
    if installed {
        return true;
    }
    let message = format!(
        "{what} is not installed, so `{test}` did not run: install it with `{install}` (`.ci/run` does)"
    );
    if std::env::var_os(REQUIRE_SERVICES).is_some() {
        panic!("{message}; {REQUIRE_SERVICES} is set, so this is a failure");
    }
    // `eprintln!` would be captured (and dropped) for a passing test.
    let _ = std::io::Write::write_all(
        &mut std::io::stderr(),
        format!("\nSKIPPED: {message}\n").as_bytes(),
    );
    false
}

impl RedisServer {
    /// [`RedisServer::start`] where `redis-server` is installed; `None` (the test returns at
    /// once) where it is not, after saying so ([`runs_here`]).
    pub fn start_or_skip(test: &str) -> Option<RedisServer> {
        let installed = Command::new("redis-server")
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        runs_here(
            test,
            "redis-server",
            installed,
            "apt-get install redis-server",
        )
        .then(RedisServer::start)
    }

    /// Starts a server on a free port and waits until it answers PING.
    pub fn start() -> RedisServer {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free loopback port")
            .port();
        let mut server = RedisServer { port, child: None };
        server.restart();
        server
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    /// Kills the server (its data is gone: nothing is persisted).
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts the server again on the same port (after `stop`).
    pub fn restart(&mut self) {
        self.stop();
        let child = Command::new("redis-server")
            .args(["--bind", "127.0.0.1", "--port"])
            .arg(self.port.to_string())
            .args(["--save", "", "--appendonly", "no", "--protected-mode", "no"])
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "cannot start redis-server ({e}): these tests need it; install it with \
                     `apt-get install redis-server` (.ci/run does)"
                )
            });
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(30);
        while !self.answers_ping() {
            assert!(
                Instant::now() < deadline,
                "redis-server did not answer on port {} within 30 s",
                self.port
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Sends one raw command (inline syntax) and returns the reply's text.
    pub fn command(&self, line: &str) -> String {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).expect("connect to redis");
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        s.write_all(format!("{line}\r\n").as_bytes()).unwrap();
        let mut buf = vec![0u8; 1 << 16];
        let n = s.read(&mut buf).unwrap_or(0);
        String::from_utf8_lossy(&buf[..n]).into_owned()
    }

    fn answers_ping(&self) -> bool {
        let Ok(mut s) = TcpStream::connect(("127.0.0.1", self.port)) else {
            return false;
        };
        let _ = s.set_read_timeout(Some(Duration::from_secs(1)));
        if s.write_all(b"PING\r\n").is_err() {
            return false;
        }
        let mut buf = [0u8; 16];
        matches!(s.read(&mut buf), Ok(n) if buf[..n].starts_with(b"+PONG"))
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.stop();
    }
}
