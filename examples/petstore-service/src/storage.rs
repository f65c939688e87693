//! Where the service keeps its animals: the [`Storage`] trait the request handlers call, and
//! the choice among its three implementations: in memory ([`PetStore`](crate::PetStore), for
//! tests), a SQLite file ([`sqlite`], the binary's default: one instance, data kept across
//! restarts) and PostgreSQL ([`postgres`], several instances sharing one database).
//!
//! Crates, chosen for a lean tree and a short build on a 2-core CI machine:
//! - `rusqlite` with its `bundled` feature: SQLite compiled from the C amalgamation by the `cc`
//!   build step (about 20 s of one core, once), so `cargo run -p petstore-service` needs no
//!   system library; the system `libsqlite3-dev` would save that build but make a fresh machine
//!   fail to link. rusqlite is synchronous: each call runs on Tokio's blocking pool.
//! - `tokio-postgres` (no TLS, no pool): the protocol over one pipelined connection, which
//!   already runs concurrent queries without a pool since every query here is one statement;
//!   `sqlx` would bring both databases behind one API but also its own runtime layer, macros
//!   and a much longer compile.
//!
//! Ids: SQLite's `AUTOINCREMENT` and PostgreSQL's identity column (a sequence) hand out each
//! id once, also under concurrent adds from several processes; an id is never reused, even
//! after a failed insert (which may leave a gap).

pub mod postgres;
pub mod sqlite;

use std::fmt;
use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;

use petstore_server::types::{NewPet, Pet, PetStatus};

use crate::PetStore;

/// What a storage call returns: boxed, so that `Arc<dyn Storage>` works and the generated
/// router is compiled once whatever the backend.
pub type StorageFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StorageError>> + Send + 'a>>;

/// The operations the pet store needs from a database.
pub trait Storage: Send + Sync + 'static {
    /// Stores an animal under a fresh id and returns it with that id.
    fn add(&self, new: NewPet) -> StorageFuture<'_, Pet>;

    fn get(&self, id: i64) -> StorageFuture<'_, Option<Pet>>;

    /// The first `limit` animals by id whose status is `status` (any status when `None`;
    /// animals added without a status match no status filter).
    fn list(&self, status: Option<PetStatus>, limit: usize) -> StorageFuture<'_, Vec<Pet>>;

    /// Where the animals are, for the start-up banner and logs: never a password.
    fn describe(&self) -> String;

    /// Whether the database answers now (`GET /readyz`): one trivial statement. Memory always
    /// does.
    fn ready(&self) -> StorageFuture<'_, ()> {
        Box::pin(std::future::ready(Ok(())))
    }
}

/// A database failure. The handlers answer it with a 500 (`handle_error` logs it), or with a
/// 503 when [`is_unavailable`](StorageError::is_unavailable): the database could not be
/// reached or is busy, and the same request may succeed shortly (whether a write whose
/// connection broke under it was stored is unknown: see [`postgres`]).
#[derive(Debug)]
pub struct StorageError {
    message: String,
    unavailable: bool,
}

impl StorageError {
    /// A failure retrying will not cure (a bad stored value, an SQL error): 500.
    pub fn new(what: impl fmt::Display) -> StorageError {
        StorageError {
            message: what.to_string(),
            unavailable: false,
        }
    }

    /// The database is unreachable, restarting or locked by another process for longer than
    /// the service waits: 503, so clients retry.
    pub fn unavailable(what: impl fmt::Display) -> StorageError {
        StorageError {
            message: what.to_string(),
            unavailable: true,
        }
    }

    pub fn is_unavailable(&self) -> bool {
        self.unavailable
    }
}

impl fmt::Display for StorageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for StorageError {}

/// Which storage the binary uses (`--in-memory`, `--db PATH`, `--database-url URL`).
#[derive(Clone, PartialEq, Eq)]
pub enum Backend {
    Memory,
    Sqlite(PathBuf),
    /// A `postgres://user:password@host:port/database` URL (or a key=value string).
    Postgres(String),
}

impl Backend {
    /// The binary's default: a SQLite file in the current directory.
    pub fn default_sqlite() -> Backend {
        Backend::Sqlite(PathBuf::from(sqlite::DEFAULT_FILE))
    }

    /// Opens the storage: creates the SQLite file, or connects to PostgreSQL, and brings the
    /// schema up to date. Fails when the database cannot be reached or was written by a newer
    /// version of the service.
    pub async fn open(&self) -> Result<Arc<dyn Storage>, StorageError> {
        Ok(match self {
            Backend::Memory => Arc::new(PetStore::new()),
            Backend::Sqlite(path) => Arc::new(sqlite::SqliteStorage::open(path.clone()).await?),
            Backend::Postgres(url) => Arc::new(postgres::PostgresStorage::connect(url).await?),
        })
    }
}

// A URL may carry a password: Debug (which `Options` derives) shows none.
impl fmt::Debug for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Backend::Memory => f.write_str("Memory"),
            Backend::Sqlite(path) => f.debug_tuple("Sqlite").field(path).finish(),
            Backend::Postgres(_) => f.write_str("Postgres(..)"),
        }
    }
}

impl Storage for PetStore {
    fn add(&self, new: NewPet) -> StorageFuture<'_, Pet> {
        let pet = PetStore::add(self, new);
        Box::pin(std::future::ready(Ok(pet)))
    }

    fn get(&self, id: i64) -> StorageFuture<'_, Option<Pet>> {
        Box::pin(std::future::ready(Ok(PetStore::get(self, id))))
    }

    fn list(&self, status: Option<PetStatus>, limit: usize) -> StorageFuture<'_, Vec<Pet>> {
        Box::pin(std::future::ready(Ok(PetStore::list(self, status, limit))))
    }

    fn describe(&self) -> String {
        "in memory (lost when the service stops)".to_owned()
    }
}

/// The text a status is stored as (the spec's enum value), and back.
fn status_text(status: Option<&PetStatus>) -> Option<&str> {
    status.map(PetStatus::as_str)
}

fn status_from(text: Option<String>) -> Result<Option<PetStatus>, StorageError> {
    text.map(|t| {
        t.parse::<PetStatus>()
            .map_err(|_| StorageError::new(format!("stored status {t:?} is not one of the spec's")))
    })
    .transpose()
}
