//! Owns who a credential belongs to: the `Principal` an `Authenticator` vouches for, the
//! `Authenticator` interface the application plugs in, and the two the runtime brings:
//! `StaticKeys` (a fixed table of keys kept as SHA-256 digests, compared in constant time)
//! and `DenyAll`. `auth` re-exports them and decides what a request may do with them.
//!
//! Secrets never reach logs: `StaticKeys` redacts itself in `Debug`.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use sha2::{Digest, Sha256};
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};

use super::credentials::Credential;
use super::scheme::SecurityScheme;

/// Who the caller is, as an `Authenticator` vouches. `plan` selects the rate-limit quota
/// (None: the policy's default plan). `scheme` is set by the layer to the scheme's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Principal {
    /// Who the caller is (a user id, an account name); rate limits count per subject.
    pub subject: String,
    /// The rate-limit plan of the caller; `None` takes the policy's default plan.
    pub plan: Option<String>,
    /// The name of the scheme that vouched for the caller; the layer sets it, so an
    /// authenticator may leave it empty.
    pub scheme: &'static str,
}

/// Decides whether a credential is valid. Called by the router-wide layer once per scheme
/// that has a credential in the request, before any handler runs.
pub trait Authenticator: Send + Sync + 'static {
    /// The principal `credential` belongs to under `scheme`, or `None` when it is not valid.
    fn authenticate<'a>(
        &'a self,
        scheme: &'a SecurityScheme,
        credential: Credential<'a>,
    ) -> Pin<Box<dyn Future<Output = Option<Principal>> + Send + 'a>>;

    /// The answer without waiting, for authenticators that need no I/O (a fixed key table):
    /// `Some(answer)` is used as is and `authenticate` is not called, which spares the boxed
    /// future; `None` (the default) means "ask `authenticate`". An implementation that
    /// overrides this must give the same answer `authenticate` would.
    fn authenticate_sync(
        &self,
        scheme: &SecurityScheme,
        credential: Credential<'_>,
    ) -> Option<Option<Principal>> {
        let _ = (scheme, credential);
        None
    }
}

impl<A: Authenticator + ?Sized> Authenticator for Arc<A> {
    fn authenticate<'a>(
        &'a self,
        scheme: &'a SecurityScheme,
        credential: Credential<'a>,
    ) -> Pin<Box<dyn Future<Output = Option<Principal>> + Send + 'a>> {
        (**self).authenticate(scheme, credential)
    }

    fn authenticate_sync(
        &self,
        scheme: &SecurityScheme,
        credential: Credential<'_>,
    ) -> Option<Option<Principal>> {
        (**self).authenticate_sync(scheme, credential)
    }
}

/// Accepts nobody: the default until the application installs its own authenticator, so a
/// forgotten setup fails closed.
#[derive(Clone, Copy, Debug, Default)]
pub struct DenyAll;

impl Authenticator for DenyAll {
    fn authenticate<'a>(
        &'a self,
        _scheme: &'a SecurityScheme,
        _credential: Credential<'a>,
    ) -> Pin<Box<dyn Future<Output = Option<Principal>> + Send + 'a>> {
        Box::pin(std::future::ready(None))
    }

    fn authenticate_sync(
        &self,
        _scheme: &SecurityScheme,
        _credential: Credential<'_>,
    ) -> Option<Option<Principal>> {
        Some(None)
    }
}

struct KeyEntry {
    digest: [u8; 32],
    subject: String,
    plan: Option<String>,
}

/// How two key digests are compared: [`constant_time_eq`] unless a test replaces it
/// ([`StaticKeys::with_digest_compare`], a seam for tests only).
#[doc(hidden)]
pub type DigestCompare = fn(&[u8; 32], &[u8; 32]) -> Choice;

/// Compares two digests in time independent of where they differ (`subtle`). Public for the
/// tests that wrap it to count comparisons; applications never call it.
#[doc(hidden)]
pub fn constant_time_eq(a: &[u8; 32], b: &[u8; 32]) -> Choice {
    a.ct_eq(b)
}

/// A fixed table of API keys (bearer tokens or apiKey values). Keys are kept only as SHA-256
/// digests; a lookup hashes the presented key and compares it with every entry in constant
/// time, without stopping at a match, so timing reveals neither which key nor how much of it
/// matched. When a key was added twice, the later entry wins.
pub struct StaticKeys {
    entries: Vec<KeyEntry>,
    compare: DigestCompare,
}

impl Default for StaticKeys {
    fn default() -> Self {
        StaticKeys {
            entries: Vec::new(),
            compare: constant_time_eq,
        }
    }
}

impl StaticKeys {
    /// An empty table: every key is refused until one is added.
    pub fn new() -> Self {
        StaticKeys::default()
    }

    /// Replaces the digest comparison every lookup makes: a seam for tests, which count the
    /// comparisons to prove that a lookup compares the presented key with every entry, match
    /// or not, instead of stopping early. Applications keep [`constant_time_eq`].
    #[doc(hidden)]
    pub fn with_digest_compare(mut self, compare: DigestCompare) -> Self {
        self.compare = compare;
        self
    }

    /// Adds a key for `subject` on `plan` (None: the policy's default plan).
    pub fn with_key(
        mut self,
        key: impl AsRef<str>,
        subject: impl Into<String>,
        plan: Option<&str>,
    ) -> Self {
        self.entries.push(KeyEntry {
            digest: digest(key.as_ref()),
            subject: subject.into(),
            plan: plan.map(str::to_owned),
        });
        self
    }

    /// The number of keys in the table.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the table has no key.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The subject and plan of `key`, if it is one of ours.
    pub fn lookup(&self, key: &str) -> Option<(&str, Option<&str>)> {
        let wanted = digest(key);
        let mut found = Choice::from(0);
        let mut index = 0u64;
        for (i, entry) in self.entries.iter().enumerate() {
            let eq = (self.compare)(&entry.digest, &wanted);
            index.conditional_assign(&(i as u64), eq);
            found |= eq;
        }
        if bool::from(found) {
            let entry = self.entries.get(index as usize)?;
            Some((entry.subject.as_str(), entry.plan.as_deref()))
        } else {
            None
        }
    }
}

fn digest(key: &str) -> [u8; 32] {
    Sha256::digest(key.as_bytes()).into()
}

impl fmt::Debug for StaticKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let subjects: Vec<&str> = self.entries.iter().map(|e| e.subject.as_str()).collect();
        f.debug_struct("StaticKeys")
            .field("subjects", &subjects)
            .finish_non_exhaustive()
    }
}

impl StaticKeys {
    fn principal(&self, scheme: &SecurityScheme, credential: Credential<'_>) -> Option<Principal> {
        let key = match credential {
            Credential::Bearer(k) | Credential::ApiKey(k) => k,
            Credential::Basic { .. } => return None,
        };
        self.lookup(key).map(|(subject, plan)| Principal {
            subject: subject.to_owned(),
            plan: plan.map(str::to_owned),
            scheme: scheme.name,
        })
    }
}

impl Authenticator for StaticKeys {
    fn authenticate<'a>(
        &'a self,
        scheme: &'a SecurityScheme,
        credential: Credential<'a>,
    ) -> Pin<Box<dyn Future<Output = Option<Principal>> + Send + 'a>> {
        Box::pin(std::future::ready(self.principal(scheme, credential)))
    }

    fn authenticate_sync(
        &self,
        scheme: &SecurityScheme,
        credential: Credential<'_>,
    ) -> Option<Option<Principal>> {
        Some(self.principal(scheme, credential))
    }
}
