//! Which documents a corpus folder holds: every `.yaml`, `.yml` and `.json` file, except that
//! a folder its `SOURCES.md` lists with a root file (a table with a `root file` column, as
//! `../shared/openapi-corpus-multi/SOURCES.md` has) is one document split over its files,
//! read from that root; its other files are parts of it, not documents of their own.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

pub(crate) const EXTENSIONS: [&str; 3] = ["yaml", "yml", "json"];

/// One document of a corpus folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Document {
    /// The corpus folder: the files of the document are named from it.
    pub base: PathBuf,
    /// The root file, relative to `base` with `/` separators (`cafe/openapi.yaml`).
    pub root: String,
    /// How reports name it: `root`, after the folder's name when several folders are read.
    pub label: String,
    /// Split over several files (listed in SOURCES.md).
    pub split: bool,
}

impl Document {
    /// A document of one file, named by its path.
    pub(crate) fn single(path: &Path) -> Document {
        let base = path.parent().unwrap_or(Path::new(".")).to_path_buf();
        let root = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        Document {
            base,
            label: root.clone(),
            root,
            split: false,
        }
    }
}

/// The documents under each of `dirs`, in order; labels start with the folder's name when
/// `prefixed` (several folders: `openapi-corpus/openai/openapi.yaml`).
pub(crate) fn find(dirs: &[PathBuf], prefixed: bool) -> Result<Vec<Document>, String> {
    let mut docs = Vec::new();
    for dir in dirs {
        // The folder of one split document, named as such (its parent's SOURCES.md lists
        // it): that document, not each of its files.
        if let Some(doc) = split_folder(dir) {
            docs.push(doc);
            continue;
        }
        let prefix = if prefixed {
            dir.file_name()
                .map(|n| format!("{}/", n.to_string_lossy()))
                .unwrap_or_default()
        } else {
            String::new()
        };
        let split = fs::read_to_string(dir.join("SOURCES.md"))
            .map(|text| roots(&text))
            .unwrap_or_default();
        let mut found = Vec::new();
        collect(dir, &mut found)?;
        let mut here: Vec<Document> = Vec::new();
        for path in found {
            let rel = relative(&path, dir);
            if split
                .iter()
                .any(|(folder, _)| rel.starts_with(&format!("{folder}/")))
            {
                continue;
            }
            here.push(Document {
                base: dir.clone(),
                label: format!("{prefix}{rel}"),
                root: rel,
                split: false,
            });
        }
        for (folder, root) in &split {
            let rel = format!("{folder}/{root}");
            if !dir.join(&rel).is_file() {
                return Err(format!(
                    "{}: SOURCES.md names the root file {rel}, which is not there",
                    dir.display()
                ));
            }
            here.push(Document {
                base: dir.clone(),
                label: format!("{prefix}{rel}"),
                root: rel,
                split: true,
            });
        }
        here.sort_by(|a, b| a.root.cmp(&b.root));
        docs.extend(here);
    }
    Ok(docs)
}

/// The split document whose folder `dir` is, when the SOURCES.md beside that folder lists it
/// with its root file.
fn split_folder(dir: &Path) -> Option<Document> {
    let parent = dir.parent()?;
    let name = dir.file_name()?.to_string_lossy().into_owned();
    let text = fs::read_to_string(parent.join("SOURCES.md")).ok()?;
    let (folder, root) = roots(&text)
        .into_iter()
        .find(|(folder, _)| *folder == name)?;
    let rel = format!("{folder}/{root}");
    parent.join(&rel).is_file().then(|| Document {
        base: parent.to_path_buf(),
        label: format!(
            "{}/{rel}",
            parent
                .file_name()
                .map(|n| n.to_string_lossy())
                .unwrap_or_default()
        ),
        root: rel,
        split: true,
    })
}

/// (folder, root file) of each row of a markdown table whose header has a `root file`
/// column (and a `folder` one): `` | `cafe/` | `openapi.yaml` | … | ``.
pub(crate) fn roots(markdown: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut columns: Option<(usize, usize)> = None;
    for line in markdown.lines() {
        let line = line.trim();
        if !line.starts_with('|') {
            columns = None;
            continue;
        }
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        match columns {
            None => {
                let folder = cells.iter().position(|c| c.eq_ignore_ascii_case("folder"));
                let root = cells
                    .iter()
                    .position(|c| c.eq_ignore_ascii_case("root file"));
                if let (Some(f), Some(r)) = (folder, root) {
                    columns = Some((f, r));
                }
            }
            Some((f, r)) => {
                let strip = |c: &str| c.trim_matches('`').trim_end_matches('/').to_string();
                match (cells.get(f), cells.get(r)) {
                    (Some(folder), Some(root)) if folder.starts_with('`') => {
                        out.push((strip(folder), strip(root)))
                    }
                    _ => {}
                }
            }
        }
    }
    let mut seen = BTreeSet::new();
    out.retain(|(folder, _)| seen.insert(folder.clone()));
    out
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry
            .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
            .path();
        if path.is_dir() {
            collect(&path, out)?;
        } else if is_document(&path) {
            out.push(path);
        }
    }
    Ok(())
}

pub(crate) fn is_document(path: &Path) -> bool {
    path.extension()
        .and_then(|x| x.to_str())
        .is_some_and(|x| EXTENSIONS.contains(&x.to_ascii_lowercase().as_str()))
}

/// `path` relative to `dir`, with `/` separators.
pub(crate) fn relative(path: &Path, dir: &Path) -> String {
    let rel = path.strip_prefix(dir).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_from_a_sources_table() {
        let text = "\
# Multi-file documents

| folder | root file | version | origin |
|---|---|---|---|
| `cafe/` | `openapi.yaml` | 3.1.0 | somewhere |
| `fs/` | `root.json` | 3.1.0 | `x` |
| `v2/` | `spec/swagger.yaml` | Swagger 2.0 | there |

| file | size |
|---|---|
| `a.yaml` | 2 |
";
        assert_eq!(
            roots(text),
            [
                ("cafe".to_string(), "openapi.yaml".to_string()),
                ("fs".into(), "root.json".into()),
                ("v2".into(), "spec/swagger.yaml".into())
            ]
        );
        assert!(roots("| a | b |\n|---|---|\n| `x` | `y` |\n").is_empty());
    }

    #[test]
    fn a_folder_with_a_root_file_is_one_document() {
        let dir = std::env::temp_dir().join(format!("xtask-corpus-docs-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        for (name, text) in [
            (
                "SOURCES.md",
                "| folder | root file |\n|---|---|\n| `cafe/` | `openapi.yaml` |\n",
            ),
            ("cafe/openapi.yaml", "openapi: 3.1.0"),
            ("cafe/paths/menu.yaml", "get: {}"),
            ("single.json", "{}"),
            ("notes.txt", ""),
        ] {
            let path = dir.join(name);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
        let docs = find(std::slice::from_ref(&dir), false).unwrap();
        let roots: Vec<(&str, bool)> = docs.iter().map(|d| (d.root.as_str(), d.split)).collect();
        assert_eq!(roots, [("cafe/openapi.yaml", true), ("single.json", false)]);
        let docs = find(&[dir.clone(), dir.clone()], true).unwrap();
        let name = dir.file_name().unwrap().to_string_lossy();
        assert_eq!(docs[0].label, format!("{name}/cafe/openapi.yaml"));
        fs::write(
            dir.join("SOURCES.md"),
            "| folder | root file |\n|---|---|\n| `cafe/` | `nope.yaml` |\n",
        )
        .unwrap();
        assert!(
            find(std::slice::from_ref(&dir), false)
                .unwrap_err()
                .contains("cafe/nope.yaml")
        );
        let _ = fs::remove_dir_all(&dir);
    }

    /// A split document's own folder, given directly, is that one document (the corpus's
    /// SOURCES.md beside it names its root file), not each of its files.
    #[test]
    fn a_split_documents_folder_is_one_document() {
        let dir = std::env::temp_dir().join(format!("apigen-split-{}", std::process::id()));
        let cafe = dir.join("corpus/cafe");
        fs::create_dir_all(cafe.join("paths")).unwrap();
        fs::write(
            dir.join("corpus/SOURCES.md"),
            "| folder | root file |\n|---|---|\n| `cafe/` | `openapi.yaml` |\n",
        )
        .unwrap();
        fs::write(cafe.join("openapi.yaml"), "openapi: 3.1.0").unwrap();
        fs::write(cafe.join("paths/menu.yaml"), "get: {}").unwrap();
        let docs = find(std::slice::from_ref(&cafe), false).unwrap();
        let _ = fs::remove_dir_all(&dir);
        assert_eq!(docs.len(), 1, "{docs:?}");
        assert_eq!(docs[0].root, "cafe/openapi.yaml");
        assert_eq!(docs[0].label, "corpus/cafe/openapi.yaml");
        assert!(docs[0].split && docs[0].base.ends_with("corpus"));
    }
}
