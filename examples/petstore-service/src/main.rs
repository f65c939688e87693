//! `cargo run -p petstore-service -- [--addr HOST:PORT] [--api-key KEY=PLAN]... [STORAGE] [--redis URL] [LIMITS]`:
//! serves the reference pet store until Ctrl-C (or SIGTERM). See `--help`.

use std::process::ExitCode;
use std::time::Duration;

use petstore_service::cli::{self, Command};
#[cfg(feature = "otlp")]
use petstore_service::otlp;
use petstore_service::petstore_server::runtime::idempotency::DEFAULT_TTL;
use petstore_service::petstore_server::{
    RedisIdempotencyStore, RedisOptions, RedisRateLimiter, RedisStore, ServerConfig,
    WhenUnavailable,
};
use petstore_service::prometheus::Prometheus;
use petstore_service::{Plan, config, router, serve, static_keys, with_access_log, with_health};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tracing_subscriber::EnvFilter;
use tracing_subscriber::Layer as _;
use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::util::SubscriberInitExt as _;

/// How long requests in flight may take to finish once a shutdown is asked for.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

fn main() -> ExitCode {
    let options = match cli::parse(std::env::args().skip(1)) {
        Ok(Command::Help) => {
            print!("{}", cli::USAGE);
            return ExitCode::SUCCESS;
        }
        Ok(Command::Serve(options)) => options,
        Err(message) => {
            eprintln!("petstore-service: {message}\nTry `petstore-service --help`.");
            return ExitCode::from(2);
        }
    };

    // The filter first, for every layer: RUST_LOG, else info.
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let logs = tracing_subscriber::fmt::layer().with_writer(std::io::stderr);
    #[cfg_attr(not(feature = "otlp"), allow(unused_mut))]
    let mut layers = vec![match options.log_format {
        cli::LogFormat::Text => logs
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .boxed(),
        // The current span (the request's, with its id, operation and plan) beside each event.
        cli::LogFormat::Json => logs
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .boxed(),
    }];
    // Made before the async runtime: its HTTP client is a blocking one, on a thread of its own.
    #[cfg(feature = "otlp")]
    let otlp = match options.otlp_endpoint.as_deref().map(otlp::pipeline) {
        None => None,
        Some(Ok(pipeline)) => {
            layers.push(pipeline.layer);
            Some(pipeline.provider)
        }
        Some(Err(message)) => {
            eprintln!("petstore-service: {message}");
            return ExitCode::FAILURE;
        }
    };
    #[cfg(not(feature = "otlp"))]
    if options.otlp_endpoint.is_some() {
        eprintln!(
            "petstore-service: --otlp-endpoint needs a binary built with the otlp feature (cargo build -p petstore-service --features otlp)"
        );
        return ExitCode::from(2);
    }
    tracing_subscriber::registry()
        .with(filter)
        .with(layers)
        .init();

    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("petstore-service: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    #[cfg(feature = "otlp")]
    let exporting = otlp.is_some();
    #[cfg(not(feature = "otlp"))]
    let exporting = false;
    let code = runtime.block_on(run(options, exporting));
    // The spans not sent yet go now, before the process ends.
    #[cfg(feature = "otlp")]
    if let Some(provider) = otlp
        && let Err(e) = provider.shutdown()
    {
        eprintln!("petstore-service: --otlp-endpoint: the last spans were not sent: {e}");
    }
    code
}

/// `exporting`: request spans are exported (`--otlp-endpoint`), so each continues its
/// caller's trace in OpenTelemetry's context too (`otlp::ContinueLayer`).
async fn run(options: cli::Options, exporting: bool) -> ExitCode {
    // Listening for Ctrl-C and SIGTERM starts before the service says it is ready: a signal
    // sent the moment it does is then a graceful stop, never the default action (which ends
    // the process at once, with status 143).
    let shutdown = shutdown_signal();
    // The database first: an instance that cannot reach its data does not take traffic.
    let pets = match options.storage.open().await {
        Ok(pets) => pets,
        Err(e) => {
            eprintln!("petstore-service: {e}");
            return ExitCode::FAILURE;
        }
    };
    let listener = match TcpListener::bind(options.addr.as_str()).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("petstore-service: cannot listen on {}: {e}", options.addr);
            return ExitCode::FAILURE;
        }
    };
    let addr = match listener.local_addr() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("petstore-service: {e}");
            return ExitCode::FAILURE;
        }
    };

    let mut keys = options.keys;
    let demo = keys.is_empty().then(cli::demo_key);
    if let Some(key) = &demo {
        keys.push((key.clone(), Plan::Free));
    }

    // Metrics before the first request: the recorder is installed once, for the process.
    let metrics = match &options.metrics_addr {
        None => None,
        Some(at) => match TcpListener::bind(at.as_str()).await {
            Ok(l) => Some(l),
            Err(e) => {
                eprintln!("petstore-service: cannot listen on {at} (--metrics-addr): {e}");
                return ExitCode::FAILURE;
            }
        },
    };
    let metrics_url = match &metrics {
        None => None,
        Some(listener) => {
            let exporter = Prometheus::default();
            if metrics::set_global_recorder(exporter.clone()).is_err() {
                eprintln!("petstore-service: a metrics recorder is already installed");
                return ExitCode::FAILURE;
            }
            let url = listener
                .local_addr()
                .map(|a| format!("http://{a}/metrics"))
                .unwrap_or_default();
            Some((url, exporter))
        }
    };
    if let (Some(listener), Some((_, exporter))) = (metrics, &metrics_url) {
        let app = exporter.router();
        tokio::spawn(async move {
            if let Err(e) = axum::serve(listener, app).await {
                tracing::error!(error = %e, "the metrics listener stopped");
            }
        });
    }

    let base = format!("http://{addr}{}", petstore_server::BASE_PATH);
    println!("petstore-service listening on {base}");
    if let Some((url, _)) = &metrics_url {
        println!("metrics (Prometheus text) at {url}");
    }
    println!("pets kept {}", pets.describe());
    if options.redis.is_some() {
        println!("rate limits, bans and idempotency kept in Redis (shared with other instances)");
    }
    if let Some(cors) = &options.cors {
        match cors.allows_any_origin() {
            true => println!("CORS: pages from any origin may call the service"),
            false => println!(
                "CORS: pages from {} may call the service",
                cors.origins().join(", ")
            ),
        }
    }
    match &demo {
        Some(key) => {
            println!("demo API key (plan free, valid until the service stops): {key}");
            println!("try: curl -H 'Authorization: Bearer {key}' {base}/pets");
        }
        None => {
            let plans: Vec<&str> = keys.iter().map(|(_, p)| p.as_str()).collect();
            println!("{} API key(s), plans: {}", keys.len(), plans.join(", "));
        }
    }
    tracing::info!(%addr, keys = keys.len(), limits = ?options.limits, "listening");

    let (config, redis) = match &options.redis {
        None => (config(keys), None),
        Some(url) => match shared_config(
            keys,
            url,
            options.when_redis_unavailable,
            options.redis_timeout,
        ) {
            Ok((config, store)) => (config, Some(store)),
            Err(e) => {
                eprintln!("petstore-service: --redis: {e}");
                return ExitCode::FAILURE;
            }
        },
    };
    // The document it serves, for the tools that read it, and a page listing its operations.
    let mut config = config.limits(options.limits).serve_document("/openapi");
    if !options.idempotency {
        config = config.without_idempotency();
    }
    if let Some(cors) = options.cors {
        config = config.cors(cors);
    }
    let routes = router(pets.clone(), config.clone());
    #[cfg(feature = "otlp")]
    let routes = match exporting {
        true => routes.layer(otlp::ContinueLayer),
        false => routes,
    };
    #[cfg(not(feature = "otlp"))]
    let _ = exporting;
    let app = with_health(with_access_log(routes), pets, redis);
    let (stop, stopped) = oneshot::channel::<()>();
    let mut server = tokio::spawn(async move {
        serve(listener, app, &config, async move {
            let _ = stopped.await;
        })
        .await
    });

    tokio::select! {
        result = &mut server => return report(result),
        () = shutdown => {}
    }
    tracing::info!("shutting down: finishing requests in flight");
    let _ = stop.send(());
    match tokio::time::timeout(SHUTDOWN_GRACE, &mut server).await {
        Ok(result) => report(result),
        Err(_) => {
            tracing::warn!(
                "requests still in flight after {}s; stopping anyway",
                SHUTDOWN_GRACE.as_secs()
            );
            server.abort();
            ExitCode::SUCCESS
        }
    }
}

/// The configuration of an instance sharing its limits, bans and idempotency records with
/// others through Redis at `url` (keys under `petstore:`). Connects lazily: an instance
/// starts while Redis is down, and `--redis-unavailable` says what requests meet meanwhile.
fn shared_config(
    keys: Vec<(String, Plan)>,
    url: &str,
    when_unavailable: WhenUnavailable,
    timeout: Option<std::time::Duration>,
) -> Result<(ServerConfig, RedisStore), String> {
    let store = RedisStore::open(
        url,
        RedisOptions {
            key_prefix: "petstore:".to_owned(),
            when_unavailable,
            timeout: timeout.unwrap_or(RedisOptions::default().timeout),
        },
    )
    .map_err(|e| e.to_string())?;
    let policy = petstore_service::petstore_server::rate_limit_policy();
    let config = ServerConfig::new()
        .authenticator(static_keys(keys))
        .rate_limit(RedisRateLimiter::for_policy(store.clone(), &policy), policy)
        .idempotency(RedisIdempotencyStore::new(store.clone()), DEFAULT_TTL);
    Ok((config, store))
}

fn report(result: Result<std::io::Result<()>, tokio::task::JoinError>) -> ExitCode {
    match result {
        Ok(Ok(())) => {
            tracing::info!("stopped");
            ExitCode::SUCCESS
        }
        Ok(Err(e)) => {
            tracing::error!(error = %e, "server failed");
            ExitCode::FAILURE
        }
        Err(e) => {
            tracing::error!(error = %e, "server task failed");
            ExitCode::FAILURE
        }
    }
}

/// Ctrl-C, or SIGTERM on Unix (what `kill` and service managers send). The handlers are
/// installed when this is called, not when the future is first polled.
fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{Signal, SignalKind, signal};
        let interrupt = signal(SignalKind::interrupt());
        let terminate = signal(SignalKind::terminate());
        let wait = |installed: std::io::Result<Signal>, name: &'static str| async move {
            match installed {
                Ok(mut s) => {
                    s.recv().await;
                }
                Err(e) => {
                    tracing::error!(error = %e, "cannot listen for {name}");
                    std::future::pending::<()>().await;
                }
            }
        };
        async move {
            tokio::select! {
                () = wait(interrupt, "Ctrl-C") => {}
                () = wait(terminate, "SIGTERM") => {}
            }
        }
    }
    #[cfg(not(unix))]
    async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::error!(error = %e, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
    }
}
