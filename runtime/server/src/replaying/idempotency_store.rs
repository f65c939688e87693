//! Owns where idempotent responses live: the `IdempotencyStore` interface (claim a key,
//! complete it with the response, abandon it), the in-memory store, and the store with its
//! keeping time as `ServerConfig::idempotency` sets it (`Idempotency`). The HTTP rules of
//! `Idempotency-Key` are `idempotency`'s; the Redis store is `redis_store`'s.

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A completed response as stored: what a replay sends back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredResponse {
    /// The response's status code.
    pub status: u16,
    /// Header lines, in order (only those whose values are text).
    pub headers: Vec<(String, String)>,
    /// The response's body.
    pub body: Vec<u8>,
}

/// What a store found when a request tried to claim its key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The key was free: this request runs, then completes or abandons it.
    Claimed,
    /// Another request with this key is running; its fingerprint.
    InProgress {
        /// The SHA-256 digest of the running request (method, path and query, body).
        fingerprint: [u8; 32],
    },
    /// The key's first request completed.
    Done {
        /// The SHA-256 digest of the first request (method, path and query, body).
        fingerprint: [u8; 32],
        /// What it answered, to replay.
        response: StoredResponse,
    },
    /// The store could not answer in time; `allow`: serve without replay, else 503.
    Unavailable {
        /// Serve the request without replay (`true`) or refuse it with 503 (`false`).
        allow: bool,
    },
}

type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Where responses are kept. `key` is already scoped (caller, operation, client key) and
/// hashed, so stores may use it as is.
pub trait IdempotencyStore: Send + Sync + 'static {
    /// Claims `key` for a request with `fingerprint`, atomically: of concurrent claims of a
    /// free key exactly one gets `Claimed`. The claim lasts until `complete` or `abandon`.
    fn claim<'a>(&'a self, key: &'a str, fingerprint: [u8; 32]) -> BoxFuture<'a, Claim>;

    /// Stores the claimed key's response, kept for `ttl`.
    fn complete<'a>(
        &'a self,
        key: &'a str,
        fingerprint: [u8; 32],
        response: &'a StoredResponse,
        ttl: Duration,
    ) -> BoxFuture<'a, ()>;

    /// Frees a claimed key without a response (the handler failed or never finished), so a
    /// retry runs again. Called from `Drop`, so it must not wait.
    fn abandon(&self, key: &str);
}

impl<S: IdempotencyStore + ?Sized> IdempotencyStore for Arc<S> {
    fn claim<'a>(&'a self, key: &'a str, fingerprint: [u8; 32]) -> BoxFuture<'a, Claim> {
        (**self).claim(key, fingerprint)
    }

    fn complete<'a>(
        &'a self,
        key: &'a str,
        fingerprint: [u8; 32],
        response: &'a StoredResponse,
        ttl: Duration,
    ) -> BoxFuture<'a, ()> {
        (**self).complete(key, fingerprint, response, ttl)
    }

    fn abandon(&self, key: &str) {
        (**self).abandon(key)
    }
}

#[derive(Debug)]
enum Entry {
    Running([u8; 32]),
    Done {
        fingerprint: [u8; 32],
        response: StoredResponse,
        expires: Instant,
    },
}

#[derive(Debug, Default)]
struct Entries {
    map: HashMap<String, Entry>,
    last_sweep: Option<Instant>,
}

/// A process-local store: one mutex-guarded map; expired responses are swept at most once a
/// minute, so memory is bounded by the responses of one `ttl`.
#[derive(Debug, Default)]
pub struct InMemoryIdempotencyStore {
    entries: Mutex<Entries>,
}

impl InMemoryIdempotencyStore {
    /// An empty store.
    pub fn new() -> Self {
        InMemoryIdempotencyStore::default()
    }

    /// Keys currently held (for tests and metrics).
    pub fn len(&self) -> usize {
        self.lock().map.len()
    }

    /// Whether the store holds no key.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Entries> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn claim_now(&self, key: &str, fingerprint: [u8; 32]) -> Claim {
        let now = Instant::now();
        let mut entries = self.lock();
        if entries
            .last_sweep
            .is_none_or(|t| now.duration_since(t) >= Duration::from_secs(60))
        {
            entries
                .map
                .retain(|_, e| !matches!(e, Entry::Done { expires, .. } if *expires <= now));
            entries.last_sweep = Some(now);
        }
        match entries.map.get(key) {
            Some(Entry::Running(fingerprint)) => Claim::InProgress {
                fingerprint: *fingerprint,
            },
            Some(Entry::Done {
                fingerprint,
                response,
                expires,
            }) if *expires > now => Claim::Done {
                fingerprint: *fingerprint,
                response: response.clone(),
            },
            _ => {
                entries
                    .map
                    .insert(key.to_owned(), Entry::Running(fingerprint));
                Claim::Claimed
            }
        }
    }
}

impl IdempotencyStore for InMemoryIdempotencyStore {
    fn claim<'a>(&'a self, key: &'a str, fingerprint: [u8; 32]) -> BoxFuture<'a, Claim> {
        Box::pin(std::future::ready(self.claim_now(key, fingerprint)))
    }

    fn complete<'a>(
        &'a self,
        key: &'a str,
        fingerprint: [u8; 32],
        response: &'a StoredResponse,
        ttl: Duration,
    ) -> BoxFuture<'a, ()> {
        self.lock().map.insert(
            key.to_owned(),
            Entry::Done {
                fingerprint,
                response: response.clone(),
                expires: Instant::now() + ttl,
            },
        );
        Box::pin(std::future::ready(()))
    }

    fn abandon(&self, key: &str) {
        let mut entries = self.lock();
        if matches!(entries.map.get(key), Some(Entry::Running(_))) {
            entries.map.remove(key);
        }
    }
}

/// The store and how long responses are kept; `ServerConfig::idempotency` sets it.
#[derive(Clone)]
pub struct Idempotency {
    /// Where claims and responses are kept.
    pub store: Arc<dyn IdempotencyStore>,
    /// How long a completed response is replayed for its key.
    pub ttl: Duration,
}

impl fmt::Debug for Idempotency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Idempotency")
            .field("ttl", &self.ttl)
            .finish_non_exhaustive()
    }
}
