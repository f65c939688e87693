//! `browser-harness [ADDR [ORIGIN...]]`: the reference service as the browser tests need it,
//! on ADDR (default `127.0.0.1:18181`): CORS for the ORIGINs (the test runner's page is served
//! from another port; without any, every origin), the keys of `lib.rs`, and a short fixed
//! window for the burst key so that a real 429 with a short `Retry-After` happens within a
//! test. Runs until killed.

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    harness::main()
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod harness {
    use std::collections::BTreeMap;
    use std::future::Future;
    use std::pin::Pin;
    use std::process::ExitCode;
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, SystemTime, UNIX_EPOCH};

    use petstore_browser_tests as keys;
    use petstore_server::runtime::ratelimit::Decision;
    use petstore_server::{
        Cors, InMemoryRateLimiter, Quota, RateLimitPolicy, RateLimiter, ServerConfig, StaticKeys,
    };
    use petstore_service::{PetStore, router, serve, with_access_log};

    pub fn main() -> ExitCode {
        let mut args = std::env::args().skip(1);
        let addr = args.next().unwrap_or_else(|| keys::DEFAULT_ADDR.to_owned());
        let origins: Vec<String> = args.collect();
        let cors = match origins.is_empty() {
            true => Cors::any_origin(),
            false => match origins
                .into_iter()
                .fold(Cors::builder(), |b, o| b.allow_origin(o))
                .build()
            {
                Ok(cors) => cors,
                Err(e) => {
                    eprintln!("browser-harness: {e}");
                    return ExitCode::from(2);
                }
            },
        };
        let runtime = match tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
        {
            Ok(rt) => rt,
            Err(e) => {
                eprintln!("browser-harness: {e}");
                return ExitCode::FAILURE;
            }
        };
        runtime.block_on(run(addr, cors))
    }

    async fn run(addr: String, cors: Cors) -> ExitCode {
        let listener = match tokio::net::TcpListener::bind(&addr).await {
            Ok(l) => l,
            Err(e) => {
                eprintln!("browser-harness: cannot listen on {addr}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let quota = |per_minute| Quota {
            per_minute,
            per_day: 1_000_000,
        };
        let policy = RateLimitPolicy {
            plans: BTreeMap::from([
                ("enterprise".to_owned(), quota(100_000)),
                ("burst".to_owned(), quota(keys::BURST_LIMIT)),
                ("ban".to_owned(), quota(1)),
            ]),
            // wrong keys are anonymous: never limited in a test run
            anonymous_plan: "enterprise".into(),
            default_plan: "enterprise".into(),
            ban_strikes: keys::BAN_STRIKES,
            ban: Duration::from_secs(keys::BAN_SECS),
        };
        let limiter = Limiter {
            standard: InMemoryRateLimiter::for_policy(&policy),
            burst: Mutex::new((0, 0)),
        };
        let config = ServerConfig::new()
            .authenticator(
                StaticKeys::new()
                    .with_key(keys::GOOD_KEY, "good", Some("enterprise"))
                    .with_key(keys::BURST_KEY, "burst", Some("burst"))
                    .with_key(keys::BAN_KEY, "ban", Some("ban")),
            )
            .rate_limit(limiter, policy)
            .cors(cors);
        let app = with_access_log(router(Arc::new(PetStore::new()), config.clone()));
        println!("browser-harness listening on http://{addr}/v1");
        match serve(listener, app, &config, std::future::pending()).await {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("browser-harness: {e}");
                ExitCode::FAILURE
            }
        }
    }

    /// The runtime's in-memory limiter, except for the burst key: fixed windows of
    /// `BURST_WINDOW_SECS` seconds (the runtime's are a minute, too long to wait out in a test).
    struct Limiter {
        standard: InMemoryRateLimiter,
        /// (window start, requests in it)
        burst: Mutex<(u64, u32)>,
    }

    impl Limiter {
        fn decide(&self, key: &str, quota: Quota, now: SystemTime) -> Decision {
            if key != "sub:burst"
                && let Some(d) = self.standard.check_sync(key, quota, now)
            {
                return d;
            }
            let secs = now.duration_since(UNIX_EPOCH).unwrap_or_default().as_secs();
            let start = secs - secs % keys::BURST_WINDOW_SECS;
            let reset = start + keys::BURST_WINDOW_SECS;
            let mut window = self.burst.lock().unwrap_or_else(|e| e.into_inner());
            if window.0 != start {
                *window = (start, 0);
            }
            let limit = quota.per_minute;
            let allowed = window.1 < limit;
            if allowed {
                window.1 += 1;
            }
            Decision {
                allowed,
                limit,
                remaining: limit - window.1,
                reset_unix: reset,
                retry_after_secs: (!allowed).then(|| (reset - secs).max(1)),
                banned: false,
                unavailable: false,
            }
        }
    }

    impl RateLimiter for Limiter {
        fn check<'a>(
            &'a self,
            key: &'a str,
            quota: Quota,
            now: SystemTime,
        ) -> Pin<Box<dyn Future<Output = Decision> + Send + 'a>> {
            let decision = self.decide(key, quota, now);
            Box::pin(async move { decision })
        }

        fn check_sync(&self, key: &str, quota: Quota, now: SystemTime) -> Option<Decision> {
            Some(self.decide(key, quota, now))
        }
    }
}
