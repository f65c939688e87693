//! The server side of the server and client benchmarks, run in a child process of the bench
//! binary (`petstore-bench serve-generated|serve-handwritten [--rate-limit]`) so that each
//! server's peak memory is its own.
//!
//! Protocol on the child's standard streams: it prints `listening <addr>` once bound; each
//! `stats` line on stdin is answered with `stats <VmHWM kB> <VmRSS kB> <CPU ticks>` read from
//! `/proc/self/status` and `/proc/self/stat`; end of stdin ends the process.

use std::io::{BufRead, Write};
use std::net::SocketAddr;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use petstore_server::types::{NewPet, PetStatus};
use petstore_server::{RateLimitPolicy, ServerConfig};
use petstore_service::{PetStore, Plan};

/// The one API key both servers accept (plan Enterprise, subject `key-1`).
pub const KEY: &str = "bench-key-0123456789abcdef0123456789abcdef";
/// Pets in the store when a server starts.
pub const SEEDED_PETS: i64 = 100;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Generated,
    Handwritten,
}

impl Kind {
    pub fn command(self) -> &'static str {
        match self {
            Kind::Generated => "serve-generated",
            Kind::Handwritten => "serve-handwritten",
        }
    }
}

/// The spec's policy (`x-rate-limit`), with the Enterprise plan's quota raised so that a
/// benchmark never hits it: what is measured is the limiter's bookkeeping, never a refusal.
pub fn bench_policy() -> RateLimitPolicy {
    let mut policy = petstore_server::rate_limit_policy();
    let quota = policy
        .plans
        .get_mut(Plan::Enterprise.as_str())
        .expect("the spec has an enterprise plan");
    quota.per_minute = u32::MAX / 2;
    quota.per_day = u32::MAX / 2;
    policy
}

pub fn seeded_store() -> Arc<PetStore> {
    let store = PetStore::new();
    let statuses = [PetStatus::Available, PetStatus::Pending, PetStatus::Sold];
    for i in 0..SEEDED_PETS {
        store.add(NewPet::new(format!("pet-{i}"), i % 7).with_status(statuses[(i % 3) as usize]));
    }
    Arc::new(store)
}

/// A server of either kind around a freshly seeded store.
pub fn app(kind: Kind, rate_limit: bool) -> axum::Router {
    app_with(kind, rate_limit, None)
}

/// The origin the diagnostic `profile … --cors` allows and sends.
pub const CORS_ORIGIN: &str = "https://app.example";

/// [`app`], the generated side with `cors` (a diagnostic: the hand-written side has none).
pub fn app_with(kind: Kind, rate_limit: bool, cors: Option<petstore_server::Cors>) -> axum::Router {
    let store = seeded_store();
    match kind {
        Kind::Generated => {
            // The reference service's own router builder, with its own key helper.
            let mut config = ServerConfig::new()
                .authenticator(petstore_service::static_keys([(KEY, Plan::Enterprise)]));
            if rate_limit {
                config = config.rate_limit_in_memory(bench_policy());
            }
            if let Some(cors) = cors {
                config = config.cors(cors);
            }
            petstore_service::router(store, config)
        }
        Kind::Handwritten => crate::handwritten::app(
            store,
            &[(KEY, "key-1", Plan::Enterprise.as_str())],
            rate_limit.then(bench_policy),
        ),
    }
}

/// The child process's main: serve until stdin closes.
pub fn child_main(kind: Kind, rate_limit: bool) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(async move {
        let app = app(kind, rate_limit);
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
            .await
            .map_err(|e| e.to_string())?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        println!("listening {addr}");
        std::io::stdout().flush().map_err(|e| e.to_string())?;
        std::thread::spawn(|| {
            let stdin = std::io::stdin();
            for line in stdin.lock().lines() {
                let Ok(line) = line else { break };
                if line.trim() == "stats" {
                    let ProcessStats {
                        peak_kb,
                        rss_kb,
                        cpu_ns,
                    } = ProcessStats::of_self();
                    println!("stats {peak_kb} {rss_kb} {cpu_ns}");
                    let _ = std::io::stdout().flush();
                }
            }
            std::process::exit(0);
        });
        let config = petstore_service::petstore_server::ServerConfig::new();
        petstore_service::serve(listener, app, &config, std::future::pending())
            .await
            .map_err(|e| e.to_string())
    })
}

/// Nanoseconds per second, for [`cpu_ns_of_self`]'s figures.
pub const NS_PER_SEC: f64 = 1e9;

/// Memory and CPU figures of one process.
#[derive(Clone, Copy, Debug, Default)]
pub struct ProcessStats {
    /// `VmHWM`: peak resident set, kB.
    pub peak_kb: u64,
    /// `VmRSS`: current resident set, kB.
    pub rss_kb: u64,
    /// CPU time of every thread, in nanoseconds.
    pub cpu_ns: u64,
}

impl ProcessStats {
    pub fn of_self() -> ProcessStats {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|rest| rest.split_whitespace().next())
                .and_then(|n| n.parse().ok())
                .unwrap_or(0)
        };
        ProcessStats {
            peak_kb: field("VmHWM:"),
            rss_kb: field("VmRSS:"),
            cpu_ns: cpu_ns_of_self(),
        }
    }
}

/// CPU time of every thread of this process, in nanoseconds (`CLOCK_PROCESS_CPUTIME_ID`).
/// Not `/proc/self/stat`'s utime + stime: those count 10 ms ticks, about 3 % of the CPU a
/// server spends in one 0.4 s round, which was most of the noise of the CPU ratios.
pub fn cpu_ns_of_self() -> u64 {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid, writable timespec for the duration of the call.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut now) };
    if rc != 0 {
        return 0;
    }
    u64::try_from(now.tv_sec).unwrap_or(0) * 1_000_000_000 + u64::try_from(now.tv_nsec).unwrap_or(0)
}

/// A server running in a child process.
pub struct ServerProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: std::io::BufReader<ChildStdout>,
    pub addr: SocketAddr,
}

impl ServerProcess {
    pub fn start(kind: Kind, rate_limit: bool) -> Result<Self, String> {
        let exe = std::env::current_exe().map_err(|e| e.to_string())?;
        let mut cmd = Command::new(exe);
        cmd.arg(kind.command());
        if rate_limit {
            cmd.arg("--rate-limit");
        }
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start the {kind:?} server: {e}"))?;
        let stdin = child.stdin.take();
        let mut stdout = std::io::BufReader::new(child.stdout.take().ok_or("no stdout")?);
        let mut line = String::new();
        stdout.read_line(&mut line).map_err(|e| e.to_string())?;
        let addr = line
            .trim()
            .strip_prefix("listening ")
            .and_then(|a| a.parse().ok())
            .ok_or_else(|| format!("the {kind:?} server did not start: {line:?}"))?;
        Ok(ServerProcess {
            child,
            stdin,
            stdout,
            addr,
        })
    }

    /// Memory and CPU figures of the server process, as it reads them itself.
    pub fn stats(&mut self) -> Result<ProcessStats, String> {
        let stdin = self.stdin.as_mut().ok_or("stdin closed")?;
        stdin.write_all(b"stats\n").map_err(|e| e.to_string())?;
        stdin.flush().map_err(|e| e.to_string())?;
        let mut line = String::new();
        self.stdout
            .read_line(&mut line)
            .map_err(|e| e.to_string())?;
        let mut it = line.split_whitespace().skip(1).map(str::parse::<u64>);
        match (it.next(), it.next(), it.next()) {
            (Some(Ok(peak_kb)), Some(Ok(rss_kb)), Some(Ok(cpu_ns))) => Ok(ProcessStats {
                peak_kb,
                rss_kb,
                cpu_ns,
            }),
            _ => Err(format!("unexpected answer to stats: {line:?}")),
        }
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        // Closing stdin ends the child; kill it (by its own handle) if it lingers.
        drop(self.stdin.take());
        for _ in 0..50 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
