//! Comparing two versions of a document: every change between them, each with its JSON
//! pointer, a rule id (`kind`), who it breaks (`class`) and a one-line reason. Pure: text in,
//! a [`Report`] out (`cargo xtask diff` and `cargo xtask codegen` read files and print).
//!
//! Both versions are read by the generator's own loader (3.0, 3.1 and 3.2 alike) and checked
//! by its lowering, so a document the generator refuses is refused here with the same located
//! errors; the comparison then runs on the up-read 3.0 shape, where the three versions'
//! spellings of one interface are the same. Rules and decisions: book/src/reference/breaking-changes.md.

mod doc;
mod operations;
mod render;
mod schema;
mod security;

use crate::diag::{Diagnostic, Diagnostics};
use doc::Doc;
use std::collections::BTreeSet;

/// Who a change breaks. The order is the order of severity (reports list breaking first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// A client written against the base document can fail against a server that follows
    /// the new one: a request it sends may be refused, an answer may hold what it was not
    /// told to expect, or code using the generated client stops compiling.
    BreakingForClients,
    /// Clients are unaffected, but a server written against the base document no longer
    /// follows the new one (it refuses requests now allowed, lacks an operation, or may send
    /// what is no longer allowed): work for whoever implements the interface.
    BreakingForServers,
    /// Neither.
    Compatible,
}

impl Class {
    pub fn as_str(self) -> &'static str {
        match self {
            Class::BreakingForClients => "breaking-for-clients",
            Class::BreakingForServers => "breaking-for-servers",
            Class::Compatible => "compatible",
        }
    }
}

/// One change between the two documents.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Change {
    /// JSON pointer into the new document, or into the base one for what was removed, as the
    /// user wrote the document (3.1 spellings included).
    pub pointer: String,
    /// The rule, kebab-case, direction first where it matters (`request-max-length-decreased`).
    pub kind: String,
    pub class: Class,
    pub reason: String,
}

/// Everything that changed, with the two documents' `info.version`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// Sorted by class (breaking for clients first), then pointer, then kind.
    pub changes: Vec<Change>,
    pub base_version: String,
    pub new_version: String,
}

impl Report {
    /// The changes that break clients: what `--deny-breaking` refuses.
    pub fn breaking_for_clients(&self) -> Vec<&Change> {
        self.changes
            .iter()
            .filter(|c| c.class == Class::BreakingForClients)
            .collect()
    }

    pub fn count(&self, class: Class) -> usize {
        self.changes.iter().filter(|c| c.class == class).count()
    }

    /// Whether `info.version` announces a breaking release: the major number went up, or,
    /// below 1.0, the minor one did (Cargo's reading of `0.x`).
    pub fn major_bumped(&self) -> bool {
        match (
            version_parts(&self.base_version),
            version_parts(&self.new_version),
        ) {
            (Some((0, base_minor)), Some((0, new_minor))) => new_minor > base_minor,
            (Some((base, _)), Some((new, _))) => new > base,
            _ => false,
        }
    }
}

/// `1.4.2` → (1, 4); a leading `v` is allowed; anything else is not a version we can compare.
fn version_parts(version: &str) -> Option<(u64, u64)> {
    let v = version.trim();
    let v = v.strip_prefix(['v', 'V']).unwrap_or(v);
    let mut parts = v.split(['.', '-', '+']);
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next().map_or(Some(0), |m| m.parse().ok())?;
    Some((major, minor))
}

/// Compares `base` (the earlier version) with `new`. `now` (Unix seconds) decides whether an
/// operation removed while deprecated was past its sunset. Never panics on document content:
/// a document the generator would refuse gives its located errors, each message saying which
/// of the two documents it is about.
pub fn diff(base: &str, new: &str, now: i64) -> Result<Report, Diagnostics> {
    let base = crate::load::source::Text {
        root: "",
        text: base,
    };
    let new = crate::load::source::Text {
        root: "",
        text: new,
    };
    diff_from(("", &base), ("", &new), now)
}

/// [`diff`] of two documents each read through a [`crate::Source`] from its root file, as
/// [`crate::generate_from`] reads one: two versions of a document split over several files
/// (a change in a file the root refers to is a change of the document, reported at
/// `file#pointer`).
pub fn diff_from(
    base: (&str, &dyn crate::Source),
    new: (&str, &dyn crate::Source),
    now: i64,
) -> Result<Report, Diagnostics> {
    // Reading a document recurses once per nesting level with large debug-build frames, as in
    // `generate`: the same large stack.
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("apigen-diff".into())
            .stack_size(crate::GENERATE_STACK)
            .spawn_scoped(scope, || diff_here(base, new, now))
            .map_err(|e| {
                Diagnostics(vec![Diagnostic::error(
                    String::new(),
                    format!("internal error: cannot start the diff's thread: {e}"),
                )])
            })?;
        worker
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

fn diff_here(
    base: (&str, &dyn crate::Source),
    new: (&str, &dyn crate::Source),
    now: i64,
) -> Result<Report, Diagnostics> {
    let base_doc = Doc::read(base.0, base.1, "base document");
    let new_doc = Doc::read(new.0, new.1, "new document");
    let (base_doc, new_doc) = match (base_doc, new_doc) {
        (Ok(b), Ok(n)) => (b, n),
        (b, n) => {
            let mut errors = Vec::new();
            errors.extend(b.err().into_iter().flat_map(|d| d.0));
            errors.extend(n.err().into_iter().flat_map(|d| d.0));
            return Err(Diagnostics(errors));
        }
    };
    let mut cx = Cx::new(&base_doc, &new_doc);
    operations::compare(&mut cx, now);
    security::compare_schemes(&mut cx);
    let mut changes = cx.changes;
    changes.sort_by(|a, b| {
        (a.class, &a.pointer, &a.kind, &a.reason).cmp(&(b.class, &b.pointer, &b.kind, &b.reason))
    });
    // A component reached from several operations is one change, once per class (a schema
    // used in requests and in responses can break both sides by one edit).
    let mut seen = BTreeSet::new();
    changes.retain(|c| seen.insert((c.class, c.pointer.clone(), c.kind.clone())));
    Ok(Report {
        changes,
        base_version: base_doc.version(),
        new_version: new_doc.version(),
    })
}

/// Which way data flows where a schema stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Dir {
    /// Sent by clients (parameters, request bodies).
    Request,
    /// Sent by servers (response bodies and headers).
    Response,
}

impl Dir {
    fn word(self) -> &'static str {
        match self {
            Dir::Request => "request",
            Dir::Response => "response",
        }
    }
}

/// What an edit does to the set of values a schema allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Effect {
    Narrows,
    Widens,
    /// Neither set holds the other (a type replaced, a pattern rewritten).
    Replaces,
}

impl Effect {
    /// Narrowing what clients send breaks clients; widening it breaks servers that still
    /// refuse the new values. For answers it is the mirror image.
    fn class(self, dir: Dir) -> Class {
        match (self, dir) {
            (Effect::Replaces, _)
            | (Effect::Narrows, Dir::Request)
            | (Effect::Widens, Dir::Response) => Class::BreakingForClients,
            (Effect::Widens, Dir::Request) | (Effect::Narrows, Dir::Response) => {
                Class::BreakingForServers
            }
        }
    }

    /// The consequence, for the end of a reason.
    fn consequence(self, dir: Dir) -> &'static str {
        match (self, dir) {
            (Effect::Narrows, Dir::Request) => "requests valid before may now be refused",
            (Effect::Widens, Dir::Request) => {
                "servers built from the base document refuse values now allowed"
            }
            (Effect::Narrows, Dir::Response) => {
                "servers built from the base document may send values no longer allowed"
            }
            (Effect::Widens, Dir::Response) => {
                "clients may now receive values they were not told to expect"
            }
            (Effect::Replaces, Dir::Request) => {
                "values valid before may be refused, and new ones refused by old servers"
            }
            (Effect::Replaces, Dir::Response) => "clients may receive values they cannot read",
        }
    }
}

/// The comparison's state: both documents and the changes found so far.
pub(crate) struct Cx<'a> {
    pub base: &'a Doc,
    pub new: &'a Doc,
    pub changes: Vec<Change>,
    /// Schema pairs (base pointer, new pointer, direction) already compared or being
    /// compared: each is compared once, which also ends recursion through `$ref` cycles.
    pub seen: BTreeSet<(String, String, Dir)>,
}

impl<'a> Cx<'a> {
    fn new(base: &'a Doc, new: &'a Doc) -> Self {
        Cx {
            base,
            new,
            changes: Vec::new(),
            seen: BTreeSet::new(),
        }
    }

    /// A change located in the new document (`at` is a pointer of its up-read form).
    pub fn at_new(&mut self, at: &str, kind: impl Into<String>, class: Class, reason: String) {
        let pointer = self.new.original(at);
        self.push(pointer, kind.into(), class, reason);
    }

    /// A change located in the base document (something removed).
    pub fn at_base(&mut self, at: &str, kind: impl Into<String>, class: Class, reason: String) {
        let pointer = self.base.original(at);
        self.push(pointer, kind.into(), class, reason);
    }

    fn push(&mut self, pointer: String, kind: String, class: Class, reason: String) {
        self.changes.push(Change {
            pointer,
            kind,
            class,
            reason,
        });
    }
}

#[cfg(test)]
mod tests;
