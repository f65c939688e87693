//! The reference pet store service: [`PetStore`] implements the generated
//! [`PetStoreApi`](petstore_server::PetStoreApi) trait the way a backend team would, and the
//! helpers below build the router the binary serves, so tests, the CLI's tests and benchmarks
//! run exactly the same service.
//!
//! ```no_run
//! # async fn demo() -> std::io::Result<()> {
//! use petstore_service::{Plan, PetStore, app, spawn};
//! use std::sync::Arc;
//!
//! let store = Arc::new(PetStore::new()); // or storage::Backend::open: SQLite, PostgreSQL
//! let running = spawn(app(store, [("secret-key", Plan::Pro)])).await?;
//! println!("serving on {}", running.base_url()); // http://127.0.0.1:PORT/v1
//! running.shutdown().await
//! # }
//! ```
//!
//! What the generated router does before [`PetStore`]'s methods run (authentication, rate
//! limits, parameter and body checks, error bodies, deprecation headers) is described in the
//! book (book/src/guide/server.md); this crate only holds the store and the wiring.

pub mod cli;
pub mod health;
#[cfg(feature = "otlp")]
pub mod otlp;
pub mod prometheus;
pub mod storage;

use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::net::SocketAddr;
use std::str::FromStr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use axum::extract::{ConnectInfo, Request};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use petstore_server::api::{
    CreatePetParams, CreatePetResponse, GetPetParams, GetPetResponse, ListOrdersParams,
    ListOrdersResponse, ListPetsParams, ListPetsResponse,
};
use petstore_server::runtime::observe::{
    METRIC_STORE_ERRORS as STORE_ERRORS, Routed, TraceContext, X_REQUEST_ID,
};
use petstore_server::types::{Error, NewPet, Pet, PetStatus};
use petstore_server::{PetStoreApi, Problem, RequestContext, ServerConfig, StaticKeys};
use storage::{Storage, StorageError};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub use health::with_health;
pub use petstore_server;

/// The rate-limit plans of the interface (`x-rate-limit.plans` in the spec).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Plan {
    Free,
    Pro,
    Business,
    Enterprise,
}

impl Plan {
    pub const ALL: [Plan; 4] = [Plan::Free, Plan::Pro, Plan::Business, Plan::Enterprise];

    /// The plan's name in the spec's `x-rate-limit.plans` (and on the command line).
    pub fn as_str(self) -> &'static str {
        match self {
            Plan::Free => "free",
            Plan::Pro => "pro",
            Plan::Business => "business",
            Plan::Enterprise => "enterprise",
        }
    }
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A plan name that is not one of `free`, `pro`, `business`, `enterprise`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownPlan(pub String);

impl fmt::Display for UnknownPlan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown plan {:?}; expected one of free, pro, business, enterprise",
            self.0
        )
    }
}

impl std::error::Error for UnknownPlan {}

impl FromStr for Plan {
    type Err = UnknownPlan;

    /// Case-insensitive: `pro`, `Pro` and `PRO` are the same plan.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Plan::ALL
            .into_iter()
            .find(|p| p.as_str().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownPlan(s.to_owned()))
    }
}

/// The in-memory [`Storage`]: animals kept in process memory, ids assigned by the store (the
/// storage of tests and benchmarks; the binary keeps pets in SQLite or PostgreSQL unless
/// started with `--in-memory`).
///
/// One mutex guards both the id counter and the map, so concurrent adds get distinct,
/// gap-free ids (1, 2, 3, ...) and a pet is listed as soon as its id has been handed out.
/// The lock is never held across an `.await`.
#[derive(Debug, Default)]
pub struct PetStore {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    /// By id, so listing is in creation order.
    pets: BTreeMap<i64, Pet>,
    last_id: i64,
}

impl PetStore {
    pub fn new() -> Self {
        PetStore::default()
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // Every update below is a single insert after the id is computed: a panic elsewhere
        // cannot leave the map half-written, so a poisoned lock is still consistent.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds an animal and returns it with its new id.
    pub fn add(&self, new: NewPet) -> Pet {
        let mut inner = self.lock();
        inner.last_id += 1;
        // `new` takes the required fields; optional ones the document adds later start unset.
        let pet = Pet::new(new.name, new.category_id, inner.last_id).with_status(new.status);
        inner.pets.insert(pet.id, pet.clone());
        pet
    }

    pub fn get(&self, id: i64) -> Option<Pet> {
        self.lock().pets.get(&id).cloned()
    }

    /// The first `limit` animals (in creation order) whose status is `status`, or any status
    /// when `status` is `None`. Animals added without a status match no status filter.
    pub fn list(&self, status: Option<PetStatus>, limit: usize) -> Vec<Pet> {
        self.lock()
            .pets
            .values()
            .filter(|p| status.is_none() || p.status == status)
            .take(limit)
            .cloned()
            .collect()
    }

    pub fn len(&self) -> usize {
        self.lock().pets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The generated trait implemented over a [`Storage`]: what the router calls.
pub struct Service {
    pets: Arc<dyn Storage>,
}

impl Service {
    pub fn new(pets: Arc<dyn Storage>) -> Service {
        Service { pets }
    }
}

impl PetStoreApi for Service {
    // A database failure: `handle_error` logs it and answers 503 or 500 with the Error body.
    type Error = StorageError;

    /// 503 `database_unavailable` with `Retry-After: 1` while the database cannot be reached
    /// (the spec's decision 16; see `storage::postgres` for when a write's outcome is
    /// unknown), 500 `internal` for any other failure. Neither tells the client more: the
    /// cause is in the log.
    fn handle_error(&self, ctx: &RequestContext, error: StorageError) -> Problem {
        metrics::counter!(
            STORE_ERRORS,
            "store" => "database",
            "error" => if error.is_unavailable() { "unavailable" } else { "error" },
        )
        .increment(1);
        if error.is_unavailable() {
            tracing::warn!(operation = ctx.operation_id, %error, "database unavailable");
            Problem::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "database_unavailable",
                "the database cannot be reached right now; retry shortly",
            )
            .with_header(header::RETRY_AFTER, HeaderValue::from(1u32))
        } else {
            tracing::error!(operation = ctx.operation_id, %error, "handler failed");
            Problem::internal()
        }
    }

    async fn list_pets(
        &self,
        _ctx: &RequestContext,
        params: ListPetsParams,
    ) -> Result<ListPetsResponse, StorageError> {
        // The router has already checked 1 <= limit <= 100.
        let limit = usize::try_from(params.limit).unwrap_or(0);
        Ok(ListPetsResponse::Ok(
            self.pets.list(params.status, limit).await?,
        ))
    }

    async fn create_pet(
        &self,
        ctx: &RequestContext,
        _params: CreatePetParams,
        body: NewPet,
    ) -> Result<CreatePetResponse, StorageError> {
        let pet = self.pets.add(body).await?;
        tracing::debug!(
            id = pet.id,
            by = ctx.principal().map(|p| p.subject.as_str()),
            "pet added"
        );
        Ok(CreatePetResponse::Created(pet))
    }

    async fn get_pet(
        &self,
        _ctx: &RequestContext,
        params: GetPetParams,
    ) -> Result<GetPetResponse, StorageError> {
        Ok(match self.pets.get(params.pet_id).await? {
            Some(pet) => GetPetResponse::Ok(pet),
            None => GetPetResponse::NotFound(Error::new(
                "not_found",
                format!("no animal with id {}", params.pet_id),
                404,
            )),
        })
    }

    async fn list_orders(
        &self,
        _ctx: &RequestContext,
        _params: ListOrdersParams,
    ) -> Result<ListOrdersResponse, StorageError> {
        // The interface shows no order resource and no way to create one.
        Ok(ListOrdersResponse::Ok(Vec::new()))
    }
}

/// A `StaticKeys` authenticator holding `keys`, each on its plan. Key number `n` (from 1, in
/// the order given) gets the subject `key-n`, which is what rate limits count against: two
/// keys never share a quota, and the key itself never appears in logs.
pub fn static_keys<K: AsRef<str>>(keys: impl IntoIterator<Item = (K, Plan)>) -> StaticKeys {
    keys.into_iter()
        .enumerate()
        .fold(StaticKeys::new(), |acc, (i, (key, plan))| {
            acc.with_key(key, format!("key-{}", i + 1), Some(plan.as_str()))
        })
}

/// The configuration the binary runs with: `keys` through [`static_keys`], and the in-memory
/// rate limiter with the spec's policy (`petstore_server::rate_limit_policy()`: plans,
/// anonymous callers at Free per address, 20 refusals in a window ban a key for 15 minutes).
pub fn config<K: AsRef<str>>(keys: impl IntoIterator<Item = (K, Plan)>) -> ServerConfig {
    ServerConfig::new()
        .authenticator(static_keys(keys))
        .rate_limit_in_memory(petstore_server::rate_limit_policy())
}

/// The service's router over `pets` (a [`PetStore`] in memory, or a database from
/// [`storage::Backend::open`]) with a configuration of your own (a custom rate-limit policy or
/// limiter, body limit, ...).
pub fn router(pets: Arc<dyn Storage>, config: ServerConfig) -> axum::Router {
    petstore_server::router(Arc::new(Service::new(pets)), config)
}

/// The service's router as the binary configures it (see [`config`]).
pub fn app<K: AsRef<str>>(
    store: Arc<dyn Storage>,
    keys: impl IntoIterator<Item = (K, Plan)>,
) -> axum::Router {
    router(store, config(keys))
}

/// Adds one log line per request (target `petstore_service::access`): method, path (no query,
/// no headers, so no credential), status, duration, peer address, request id, operation, and
/// the request's trace and span ids (W3C Trace Context). 5xx at `warn`, the rest
/// at `info`.
pub fn with_access_log(app: axum::Router) -> axum::Router {
    app.layer(axum::middleware::from_fn(access_log))
}

async fn access_log(req: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = req.method().clone();
    let mut path = req.uri().path().to_owned();
    if path.len() > 200 {
        let mut cut = 200;
        while !path.is_char_boundary(cut) {
            cut -= 1;
        }
        path.truncate(cut);
        path.push('…');
    }
    let peer = match req.extensions().get::<ConnectInfo<SocketAddr>>() {
        Some(c) => c.0.to_string(),
        None => "-".to_owned(),
    };
    let resp = next.run(req).await;
    let status = resp.status().as_u16();
    let micros = started.elapsed().as_micros() as u64;
    // What the generated router tells of the request: its id (kept or made, on the answer) and
    // the operation that served it.
    let request_id = resp
        .headers()
        .get(&X_REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("-")
        .to_owned();
    let operation = resp
        .extensions()
        .get::<Routed>()
        .map_or("-", |r| r.operation);
    let (trace_id, span_id) = resp
        .extensions()
        .get::<TraceContext>()
        .map_or(("-", "-"), |t| (t.trace_id.as_str(), t.span_id.as_str()));
    if resp.status().is_server_error() {
        tracing::warn!(target: "petstore_service::access", %method, path, status, micros, peer, request_id, operation, trace_id, span_id, "request");
    } else {
        tracing::info!(target: "petstore_service::access", %method, path, status, micros, peer, request_id, operation, trace_id, span_id, "request");
    }
    resp
}

/// Serves `app` on `listener` until `shutdown` completes, then finishes the requests in
/// flight. The generated crate's `serve` does the work: HTTP/1.1 with the connection-level
/// limits of `config` (the time to send a request head, connections at once; pass the
/// configuration `app` was built with), and client addresses passed on, so callers without a
/// valid key are rate-limited per address.
pub async fn serve(
    listener: TcpListener,
    app: axum::Router,
    config: &ServerConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    petstore_server::serve(listener, app, config, shutdown).await
}

/// A service running in the background on a loopback port (see [`spawn`]). Dropping it asks
/// the server to stop; [`Running::shutdown`] also waits for it.
#[derive(Debug)]
pub struct Running {
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<std::io::Result<()>>>,
}

impl Running {
    /// The address the service listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:PORT/v1`: the base URL clients use.
    pub fn base_url(&self) -> String {
        format!("http://{}{}", self.addr, petstore_server::BASE_PATH)
    }

    /// Stops accepting connections, lets requests in flight finish, and waits.
    pub async fn shutdown(mut self) -> std::io::Result<()> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        match self.task.take() {
            Some(task) => task.await.map_err(std::io::Error::other)?,
            None => Ok(()),
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// Binds `127.0.0.1` on a free port and serves `app` there on the current tokio runtime, with
/// the default connection-level limits.
pub async fn spawn(app: axum::Router) -> std::io::Result<Running> {
    spawn_with(app, &ServerConfig::new()).await
}

/// [`spawn`] with the connection-level limits of `config` (see [`serve`]).
pub async fn spawn_with(app: axum::Router, config: &ServerConfig) -> std::io::Result<Running> {
    let listener = TcpListener::bind(("127.0.0.1", 0)).await?;
    let addr = listener.local_addr()?;
    let (stop, stopped) = oneshot::channel::<()>();
    let config = config.clone();
    let task = tokio::spawn(async move {
        serve(listener, app, &config, async move {
            let _ = stopped.await;
        })
        .await
    });
    Ok(Running {
        addr,
        stop: Some(stop),
        task: Some(task),
    })
}
