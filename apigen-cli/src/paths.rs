//! Paths as apigen records them: lexically normalised, relative to a base directory, with
//! forward slashes, so that what is written (headers, manifests, apigen.toml) does not
//! depend on how a path was typed or where the checkout lives.

use std::path::{Component, Path, PathBuf};

/// An absolute path without `.` or `..` components (lexically: symbolic links are not read,
/// and the path need not exist).
pub fn normalise(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out = PathBuf::new();
    for component in absolute.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// `to` as seen from the directory `from` (`../runtime`), by their normalised forms. Forward
/// slashes, as Cargo.toml wants on any platform; `.` when they are the same directory.
pub fn between(from: &Path, to: &Path) -> String {
    let from = normalise(from);
    let to = normalise(to);
    let common = from
        .components()
        .zip(to.components())
        .take_while(|(a, b)| a == b)
        .count();
    let ups = from.components().count() - common;
    let mut parts: Vec<String> = vec!["..".to_string(); ups];
    parts.extend(
        to.components()
            .skip(common)
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    }
}

/// `path` as seen from the directory `base`, however either was typed (`spec/api.yaml`,
/// `../api/openapi.yaml`): what headers and reports name a file by.
pub fn label(path: &Path, base: &Path) -> String {
    between(base, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_between_directories() {
        let p = |from: &str, to: &str| between(Path::new(from), Path::new(to));
        assert_eq!(p("/r/generated-server", "/r/runtime"), "../runtime");
        assert_eq!(
            p("/r/tests/generated/x-server", "/r/runtime"),
            "../../../runtime"
        );
        assert_eq!(
            p("/tmp/out/server", "/work/r/runtime"),
            "../../../work/r/runtime"
        );
        assert_eq!(p("/r/a/./b/../server", "/r/runtime"), "../../runtime");
        assert_eq!(p("/r/runtime", "/r/runtime"), ".");
        let here = std::env::current_dir().unwrap();
        assert_eq!(
            p("out/server", here.join("runtime").to_str().unwrap()),
            "../../runtime"
        );
    }

    #[test]
    fn labels_do_not_depend_on_how_a_path_was_typed() {
        let here = std::env::current_dir().unwrap();
        let typed = [
            PathBuf::from("spec/api.yaml"),
            PathBuf::from("./spec/../spec/api.yaml"),
            here.join("spec/api.yaml"),
        ];
        for path in typed {
            assert_eq!(label(&path, &here), "spec/api.yaml", "{}", path.display());
        }
        assert_eq!(label(&here, &here), ".");
        assert_eq!(
            label(&here.join("../api/openapi.yaml"), &here),
            "../api/openapi.yaml"
        );
    }
}
