//! Owns where a document's files come from ([`Source`]) and how a `$ref`'s file part becomes
//! the name of another file ([`join`]).
//!
//! The library reads no file itself: the caller's `Source` does (the disk, a map in memory, a
//! git revision), which keeps the generator pure for callers that pass text and lets tools
//! watch which files a document pulls in. Files are named by `/`-separated paths, starting
//! from the name the caller gave the root file: a root `spec/openapi.yaml` that refers to
//! `../common/Error.yaml` pulls in `common/Error.yaml`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Where the files of a document come from. `Sync`: the generator reads on a thread of its
/// own (see [`crate::generate`]).
pub trait Source: Sync {
    /// The text of the file named `path` (the root's name as the caller gave it, or a name
    /// [`join`] made from a `$ref`), or why it cannot be read.
    fn read(&self, path: &str) -> Result<String, String>;
}

/// Files on disk, named relative to a base directory (the one the root's name starts from).
#[derive(Debug, Clone)]
pub struct FileSystem {
    base: PathBuf,
}

impl FileSystem {
    /// Names are relative to `base` (absolute names are read as they are).
    pub fn new(base: impl Into<PathBuf>) -> FileSystem {
        FileSystem { base: base.into() }
    }

    /// Where the file named `path` is on disk.
    pub fn path(&self, path: &str) -> PathBuf {
        self.base.join(path)
    }
}

impl Source for FileSystem {
    fn read(&self, path: &str) -> Result<String, String> {
        let full = self.path(path);
        std::fs::read(&full)
            .map_err(|e| e.to_string())
            .and_then(|bytes| {
                String::from_utf8(bytes).map_err(|_| "the file is not UTF-8 text".to_string())
            })
    }
}

/// Files held in memory: name → text.
impl Source for BTreeMap<String, String> {
    fn read(&self, path: &str) -> Result<String, String> {
        self.get(path)
            .cloned()
            .ok_or_else(|| "no such file".to_string())
    }
}

/// Any function from a name to the file's text.
impl<F: Fn(&str) -> Result<String, String> + Sync> Source for F {
    fn read(&self, path: &str) -> Result<String, String> {
        self(path)
    }
}

/// One document given as text: the root alone, with no other file to refer to.
pub(crate) struct Text<'a> {
    pub root: &'a str,
    pub text: &'a str,
}

impl Source for Text<'_> {
    fn read(&self, path: &str) -> Result<String, String> {
        if path == self.root {
            Ok(self.text.to_string())
        } else {
            Err("the document was given as text, so no file beside it can be read; generate from the document's file (`apigen generate --spec PATH`, `apigen::generate_from`) to follow references into other files".into())
        }
    }
}

/// The file a `$ref`'s file part (`../schemas/Pet.yaml`, `Pet%20Card.yaml`) names, from the
/// file `from` that holds it: relative to `from`'s directory, percent-decoded, with `.` and
/// `..` worked out by name (`spec/../common/Error.yaml` is `common/Error.yaml`), so that one
/// file reached by two ways has one name. An absolute path stays absolute.
pub fn join(from: &str, reference: &str) -> String {
    let reference = percent_decode(reference);
    let reference = reference.strip_prefix("file://").unwrap_or(&reference);
    let joined = if reference.starts_with('/') || Path::new(reference).is_absolute() {
        reference.to_string()
    } else {
        match from.rfind('/') {
            Some(slash) => format!("{}/{reference}", &from[..slash]),
            None => reference.to_string(),
        }
    };
    normalize(&joined)
}

/// `a/./b/../c` → `a/c`; leading `..` that cannot be worked out stay (`../x`).
fn normalize(path: &str) -> String {
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|p| *p != "..") {
                    parts.pop();
                } else if !absolute {
                    parts.push("..");
                }
            }
            other => parts.push(other),
        }
    }
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else {
        joined
    }
}

/// `%20` → ` ` (RFC 3986 percent-encoding); a `%` not followed by two hex digits stays.
pub(crate) fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && let (Some(h), Some(l)) = (
                bytes.get(i + 1).and_then(|b| hex(*b)),
                bytes.get(i + 2).and_then(|b| hex(*b)),
            )
        {
            out.push((h * 16 + l) as u8);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_name_files_from_the_referring_file() {
        assert_eq!(join("openapi.yaml", "paths/menu.yaml"), "paths/menu.yaml");
        assert_eq!(
            join("paths/menu.yaml", "../components/schemas/Pet.yaml"),
            "components/schemas/Pet.yaml"
        );
        assert_eq!(
            join("spec/swagger.yaml", "../common/Error.yaml"),
            "common/Error.yaml"
        );
        assert_eq!(join("swagger.yaml", "../common/E.yaml"), "../common/E.yaml");
        assert_eq!(join("../a/b.yaml", "../../c.yaml"), "../../c.yaml");
        assert_eq!(join("a/b.yaml", "./c.yaml"), "a/c.yaml");
        assert_eq!(join("a/b.yaml", "x/../c.yaml"), "a/c.yaml");
        assert_eq!(join("a/b.yaml", "Pet%20Card.yaml"), "a/Pet Card.yaml");
        assert_eq!(join("a/b.yaml", "Pet Card.yaml"), "a/Pet Card.yaml");
        assert_eq!(join("a/b.yaml", "p_{id}@v2.yaml"), "a/p_{id}@v2.yaml");
        assert_eq!(join("a/b.yaml", "100%.yaml"), "a/100%.yaml");
        assert_eq!(join("a/b.yaml", "/abs/c.yaml"), "/abs/c.yaml");
        assert_eq!(join("/abs/b.yaml", "../c.yaml"), "/c.yaml");
        assert_eq!(join("a/b.yaml", "file:///abs/c.yaml"), "/abs/c.yaml");
    }
}
