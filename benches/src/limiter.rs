//! The shared rate limiter's cost: the generated router (the reference service's, `GET
//! /v1/pets/{id}`) called in process with no limiter, the in-memory limiter and the Redis
//! limiter (a local `redis-server` on loopback, started here), one caller and 16 concurrent
//! callers; plus the Redis round trips (`EVALSHA` calls) and commands each request cost, read
//! from Redis's own counters (`INFO commandstats`) around the measured runs. Needs `redis-server`
//! (`apt-get install redis-server`); skipped without it.

use std::time::{Duration, Instant};

use petstore_server::{RedisOptions, RedisRateLimiter, RedisStore, ServerConfig};
use petstore_service::Plan;

use crate::Settings;
use crate::inproc::{peer, send};
use crate::serve::{KEY, bench_policy, seeded_store};
use crate::stats::median;

#[path = "../../runtime/server/tests/common/redis_server.rs"]
mod redis_server;

/// Concurrent callers per row.
pub const CALLERS: [usize; 2] = [1, 16];

pub struct Row {
    pub callers: usize,
    /// Nanoseconds per request (elapsed / requests), one per round.
    pub ns_off: Vec<f64>,
    pub ns_memory: Vec<f64>,
    pub ns_redis: Vec<f64>,
    /// Per request served by the Redis-limited router: commands Redis executed (those the
    /// script runs included), and `EVALSHA` calls (round trips).
    pub redis_commands_per_request: f64,
    pub round_trips_per_request: f64,
}

impl Row {
    /// Redis / in memory, per request (above 1: Redis costs more).
    pub fn ratio(&self) -> f64 {
        median(&self.ns_redis) / median(&self.ns_memory)
    }
}

/// `redis-server --version`'s first words, or None when it is not installed.
pub fn redis_version() -> Option<String> {
    let out = std::process::Command::new("redis-server")
        .arg("--version")
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let version = text
        .split_whitespace()
        .find_map(|w| w.strip_prefix("v="))?
        .to_owned();
    Some(format!("redis-server {version}"))
}

fn router(limiter: Limiter, store: Option<RedisStore>) -> axum::Router {
    let config =
        ServerConfig::new().authenticator(petstore_service::static_keys([(KEY, Plan::Enterprise)]));
    let config = match (limiter, store) {
        (Limiter::Off, _) => config,
        (Limiter::Memory, _) => config.rate_limit_in_memory(bench_policy()),
        (Limiter::Redis, Some(store)) => {
            let policy = bench_policy();
            config.rate_limit(RedisRateLimiter::for_policy(store, &policy), policy)
        }
        (Limiter::Redis, None) => unreachable!("a Redis row has a store"),
    };
    petstore_service::router(seeded_store(), config)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Limiter {
    Off,
    Memory,
    Redis,
}

/// `callers` tasks send requests for `duration`; returns (ns per request, requests).
async fn drive(
    router: &axum::Router,
    workload: &crate::load::Workload,
    callers: usize,
    duration: Duration,
) -> Result<(f64, u64), String> {
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for caller in 0..callers {
        let mut router = router.clone();
        let workload = workload.clone();
        tasks.spawn(async move {
            let mut n = caller as u64 * 1_000_003;
            let mut sent = 0u64;
            while started.elapsed() < duration {
                for _ in 0..16 {
                    send(&mut router, &workload, n, peer()).await?;
                    n += 1;
                    sent += 1;
                }
            }
            Ok::<u64, String>(sent)
        });
    }
    let mut total = 0;
    while let Some(done) = tasks.join_next().await {
        total += done.map_err(|e| e.to_string())??;
    }
    Ok((started.elapsed().as_nanos() as f64 / total as f64, total))
}

/// Redis's counts so far, from `INFO commandstats`: (every command executed, those run by
/// scripts included; `EVALSHA` calls, i.e. round trips of the limiter). Earlier INFO calls
/// are counted, this one is not.
fn commands(redis: &redis_server::RedisServer) -> Result<(u64, u64), String> {
    let info = redis.command("INFO commandstats");
    let mut total = 0;
    let mut evalsha = 0;
    for line in info.lines() {
        let Some((name, stats)) = line
            .strip_prefix("cmdstat_")
            .and_then(|l| l.split_once(":calls="))
        else {
            continue;
        };
        let calls: u64 = stats
            .split(',')
            .next()
            .and_then(|c| c.parse().ok())
            .ok_or_else(|| format!("unreadable INFO line {line:?}"))?;
        total += calls;
        if name == "evalsha" {
            evalsha = calls;
        }
    }
    if total == 0 {
        return Err(format!("no command counts in INFO: {info:?}"));
    }
    Ok((total, evalsha))
}

pub fn run(settings: &Settings) -> Result<Vec<Row>, String> {
    let redis = redis_server::RedisServer::start();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let (_, workload) = crate::server::workloads()
        .into_iter()
        .find(|(name, _)| *name == "GET /v1/pets/{id}")
        .ok_or("no GET /v1/pets/{id} workload")?;
    let duration = settings.duration / 2;
    runtime.block_on(async {
        let store = RedisStore::open(
            &redis.url(),
            RedisOptions {
                key_prefix: "bench:".to_owned(),
                // Generous: a benchmark measures a served request, never the fallback.
                timeout: Duration::from_secs(2),
                ..RedisOptions::default()
            },
        )
        .map_err(|e| e.to_string())?;
        let routers = [
            (Limiter::Off, router(Limiter::Off, None)),
            (Limiter::Memory, router(Limiter::Memory, None)),
            (Limiter::Redis, router(Limiter::Redis, Some(store))),
        ];
        let mut rows = Vec::new();
        for callers in CALLERS {
            // Warm-up, unrecorded: connects to Redis and loads the script.
            for (_, r) in &routers {
                drive(r, &workload, callers, settings.warmup).await?;
            }
            let mut row = Row {
                callers,
                ns_off: Vec::new(),
                ns_memory: Vec::new(),
                ns_redis: Vec::new(),
                redis_commands_per_request: 0.0,
                round_trips_per_request: 0.0,
            };
            let (mut redis_requests, mut redis_commands, mut round_trips) = (0u64, 0u64, 0u64);
            for round in 0..settings.rounds {
                // The order of the three rotates every round.
                for k in 0..routers.len() {
                    let (limiter, r) = &routers[(round + k) % routers.len()];
                    let before = match limiter {
                        Limiter::Redis => commands(&redis)?,
                        _ => (0, 0),
                    };
                    let (ns, n) = drive(r, &workload, callers, duration).await?;
                    match limiter {
                        Limiter::Off => row.ns_off.push(ns),
                        Limiter::Memory => row.ns_memory.push(ns),
                        Limiter::Redis => {
                            row.ns_redis.push(ns);
                            redis_requests += n;
                            let after = commands(&redis)?;
                            // Minus the INFO that read `before` (counted in `after`).
                            redis_commands += after.0 - before.0 - 1;
                            round_trips += after.1 - before.1;
                        }
                    }
                }
            }
            row.redis_commands_per_request = redis_commands as f64 / redis_requests as f64;
            row.round_trips_per_request = round_trips as f64 / redis_requests as f64;
            eprintln!(
                "  limiter, {callers:>2} caller(s): off {:>6.0}, in memory {:>6.0}, Redis {:>6.0} ns/req (Redis / in memory {:.2}), {:.3} round trips and {:.2} commands/req",
                median(&row.ns_off),
                median(&row.ns_memory),
                median(&row.ns_redis),
                row.ratio(),
                row.round_trips_per_request,
                row.redis_commands_per_request,
            );
            rows.push(row);
        }
        Ok(rows)
    })
}
