//! Embeds the runtime crates' source files, so the generator copies them into generated
//! crates without a hand-kept list that could fall out of step.
//!
//! They are read through `runtime-src/`, symbolic links to `../runtime/*/src` (and the runtime
//! manifests) inside this package: `cargo package` follows them, so the published crate
//! carries the same files and builds on its own. The package's directory is read when the
//! script runs (not baked in when it is compiled), so a moved checkout rebuilds correctly.

use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    let root = PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"),
    )
    .join("runtime-src");
    let mut out = String::new();
    for side in ["server", "client", "cli"] {
        let dir = root.join(side);
        println!("cargo:rerun-if-changed={}", dir.display());
        let mut files = Vec::new();
        rust_files(&dir, &mut files);
        files.sort();
        out.push_str(&format!(
            "pub const {}: &[(&str, &str)] = &[\n",
            side.to_uppercase()
        ));
        for path in files {
            println!("cargo:rerun-if-changed={}", path.display());
            // The path below `src/`, with `/` between folders (`reading/params.rs`): the
            // server runtime keeps its modules in one folder per concern.
            let name = path
                .strip_prefix(&dir)
                .expect("found under the runtime's folder")
                .components()
                .map(|c| c.as_os_str().to_str().expect("utf-8 file name"))
                .collect::<Vec<_>>()
                .join("/");
            out.push_str(&format!(
                "    ({name:?}, include_str!({:?})),\n",
                path.display().to_string()
            ));
        }
        out.push_str("];\n");
    }
    let dest = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("runtime_files.rs");
    fs::write(dest, out).expect("write runtime_files.rs");
}

/// Every `.rs` file under `dir`, its folders' too (symbolic links followed, as the client's
/// files shared with the server are).
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = fs::read_dir(dir).unwrap_or_else(|e| {
        panic!(
            "cannot read {} ({e}): it is a symbolic link to the runtime's sources; \
             on Windows, clone with `git clone -c core.symlinks=true`",
            dir.display()
        )
    });
    for path in entries.filter_map(|entry| entry.ok().map(|e| e.path())) {
        if path.is_dir() {
            println!("cargo:rerun-if-changed={}", path.display());
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}
