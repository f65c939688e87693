//! Pets in a SQLite file (the binary's default, `--db PATH`): created on first run, schema
//! versioned with `PRAGMA user_version`, one connection used from Tokio's blocking pool (SQLite prepares a
//! statement in microseconds, so none is cached).
//!
//! Journal in WAL mode with `synchronous=NORMAL`: a commit survives the process being killed
//! (it is in the WAL file), and only a power loss may drop the last commits.
//!
//! Several processes on one machine may share the file (tested by `tests/instances.rs`):
//! - ids stay unique: each add is one `INSERT … RETURNING` statement, its own transaction,
//!   and `AUTOINCREMENT` reads and bumps `sqlite_sequence` under the file's write lock;
//! - in WAL mode readers never block the writer nor it them, and a read sees every commit
//!   made before it started, by any process;
//! - one writer at a time across all processes: a write waits up to `BUSY_TIMEOUT` for the
//!   lock (SQLite's busy handler). Every write here is a single autocommit statement, so SQLite
//!   opens its snapshot and takes the write lock together, retrying both under the busy
//!   handler; it never meets `SQLITE_BUSY_SNAPSHOT` (a read transaction upgraded to a write
//!   after another process committed, which no wait cures). Still busy after `BUSY_TIMEOUT`: 503, never "database is
//!   locked" in a 500;
//! - start-up on a new file is safe with several processes at once: the busy timeout is set
//!   before anything else, and the migration is one `IMMEDIATE` transaction.
//!
//! Not over a network file system (NFS, SMB): WAL needs the `-shm` file mapped in shared
//! memory by every process, and those file systems' locks are unreliable; instances on
//! several machines need PostgreSQL.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use petstore_server::types::{NewPet, Pet, PetStatus};
use rusqlite::{Connection, OptionalExtension, params};

use super::{Storage, StorageError, StorageFuture, status_from, status_text};

/// The file the binary uses without `--db`, in its current directory.
pub const DEFAULT_FILE: &str = "petstore.db";

/// How long a write waits for another process holding the file's write lock.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The schema, one step per version: step `n` takes `user_version` from `n` to `n + 1`.
/// Append, never edit: a file written by an older version is brought up to date at start.
const MIGRATIONS: &[&str] = &["
    CREATE TABLE pets (
        -- AUTOINCREMENT: an id is never handed out twice, even after the last pet is deleted
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        name        TEXT    NOT NULL,
        category_id INTEGER NOT NULL,
        status      TEXT    CHECK (status IN ('available', 'pending', 'sold'))
    );
    CREATE INDEX pets_by_status ON pets (status, id);
"];

#[derive(Clone)]
pub struct SqliteStorage {
    path: PathBuf,
    connection: Arc<Mutex<Connection>>,
}

impl SqliteStorage {
    /// Opens (creating it if needed) the file at `path` and migrates its schema.
    pub async fn open(path: PathBuf) -> Result<SqliteStorage, StorageError> {
        let opened = path.clone();
        let connection = tokio::task::spawn_blocking(move || open_file(&opened))
            .await
            .map_err(StorageError::new)??;
        Ok(SqliteStorage {
            path,
            connection: Arc::new(Mutex::new(connection)),
        })
    }

    /// Runs `f` on the connection on the blocking pool.
    fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> StorageFuture<'static, T> {
        let connection = self.connection.clone();
        Box::pin(async move {
            tokio::task::spawn_blocking(move || {
                // A panic inside rusqlite cannot leave the connection half-used: SQLite rolls
                // back an unfinished statement, so a poisoned lock is still usable.
                let connection = connection.lock().unwrap_or_else(|e| e.into_inner());
                f(&connection)
            })
            .await
            .map_err(StorageError::new)?
            .map_err(|e| {
                // Another process held the write lock for all of `BUSY_TIMEOUT`: the same
                // request may well succeed in a moment, so 503 rather than 500.
                let busy = matches!(
                    e.sqlite_error_code(),
                    Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
                );
                match busy {
                    true => StorageError::unavailable(format!("SQLite: {e}")),
                    false => StorageError::new(format!("SQLite: {e}")),
                }
            })
        })
    }
}

/// Opens the file, retrying for up to `BUSY_TIMEOUT` while another process holds it: when
/// several processes start together on one new file, switching it to WAL can answer "database
/// is locked" at once, without waiting in the busy handler (seen in CI: one of two processes
/// started at the same moment exited at start).
fn open_file(path: &Path) -> Result<Connection, StorageError> {
    let started = std::time::Instant::now();
    loop {
        match open_once(path) {
            Err(Opening::Busy(_)) if started.elapsed() < BUSY_TIMEOUT => {
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(Opening::Busy(e) | Opening::Failed(e)) => return Err(e),
            Ok(connection) => return Ok(connection),
        }
    }
}

enum Opening {
    Busy(StorageError),
    Failed(StorageError),
}

fn open_once(path: &Path) -> Result<Connection, Opening> {
    let fail = |e: rusqlite::Error| {
        let busy = matches!(
            e.sqlite_error_code(),
            Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
        );
        let e = StorageError::new(format!("SQLite file {}: {e}", path.display()));
        if busy {
            Opening::Busy(e)
        } else {
            Opening::Failed(e)
        }
    };
    let mut connection = Connection::open(path).map_err(fail)?;
    connection.busy_timeout(BUSY_TIMEOUT).map_err(fail)?;
    let mode: String = connection
        .pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get(0))
        .map_err(fail)?;
    if !mode.eq_ignore_ascii_case("wal") {
        // SQLite keeps the old journal when WAL is impossible there (some file systems): the
        // file still works, but readers and the writer then wait for each other.
        tracing::warn!(file = %path.display(), journal_mode = %mode, "SQLite could not switch to WAL");
    }
    connection
        .pragma_update(None, "synchronous", "NORMAL")
        .map_err(fail)?;
    migrate(&mut connection).map_err(|e| match e {
        Migration::Sqlite(e) => fail(e),
        Migration::Newer(version) => Opening::Failed(StorageError::new(format!(
            "SQLite file {}: schema version {version} was written by a newer petstore-service \
             (this one knows {})",
            path.display(),
            MIGRATIONS.len()
        ))),
    })?;
    Ok(connection)
}

enum Migration {
    Sqlite(rusqlite::Error),
    Newer(usize),
}

impl From<rusqlite::Error> for Migration {
    fn from(e: rusqlite::Error) -> Self {
        Migration::Sqlite(e)
    }
}

/// Applies the missing steps in one write transaction (`IMMEDIATE`: two processes starting
/// on one new file do not both create the table).
fn migrate(connection: &mut Connection) -> Result<(), Migration> {
    let tx = connection.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let version: i64 = tx.pragma_query_value(None, "user_version", |row| row.get(0))?;
    let version = usize::try_from(version).unwrap_or(usize::MAX);
    if version > MIGRATIONS.len() {
        return Err(Migration::Newer(version));
    }
    for step in &MIGRATIONS[version..] {
        tx.execute_batch(step)?;
    }
    tx.pragma_update(None, "user_version", MIGRATIONS.len() as i64)?;
    tx.commit()?;
    Ok(())
}

fn pet_from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Pet> {
    let status: Option<String> = row.get(3)?;
    let status = status_from(status).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(3, rusqlite::types::Type::Text, Box::new(e))
    })?;
    Ok(Pet::new(row.get::<_, String>(1)?, row.get(2)?, row.get(0)?).with_status(status))
}

impl Storage for SqliteStorage {
    fn add(&self, new: NewPet) -> StorageFuture<'_, Pet> {
        self.run(move |c| {
            let id: i64 = c
                .prepare(
                    "INSERT INTO pets (name, category_id, status) VALUES (?1, ?2, ?3) RETURNING id",
                )?
                .query_row(
                    params![new.name, new.category_id, status_text(new.status.as_ref())],
                    |row| row.get(0),
                )?;
            Ok(Pet::new(new.name, new.category_id, id).with_status(new.status))
        })
    }

    fn get(&self, id: i64) -> StorageFuture<'_, Option<Pet>> {
        self.run(move |c| {
            c.prepare("SELECT id, name, category_id, status FROM pets WHERE id = ?1")?
                .query_row([id], pet_from_row)
                .optional()
        })
    }

    fn list(&self, status: Option<PetStatus>, limit: usize) -> StorageFuture<'_, Vec<Pet>> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.run(move |c| {
            c.prepare(
                "SELECT id, name, category_id, status FROM pets \
                 WHERE ?1 IS NULL OR status = ?1 ORDER BY id LIMIT ?2",
            )?
            .query_map(params![status_text(status.as_ref()), limit], pet_from_row)?
            .collect()
        })
    }

    fn describe(&self) -> String {
        format!("in the SQLite file {}", self.path.display())
    }

    fn ready(&self) -> StorageFuture<'_, ()> {
        self.run(|c| c.query_row("SELECT 1", [], |_| Ok(())))
    }
}
