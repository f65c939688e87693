//! Embeds the runtime crates' source files, so the generator copies them into generated
//! crates without a hand-kept list that could fall out of step.

use std::fs;
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("runtime");
    let mut out = String::new();
    for side in ["server", "client", "cli"] {
        let dir = root.join(side).join("src");
        println!("cargo:rerun-if-changed={}", dir.display());
        let mut files: Vec<_> = fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "rs"))
            .collect();
        files.sort();
        out.push_str(&format!(
            "pub const {}: &[(&str, &str)] = &[\n",
            side.to_uppercase()
        ));
        for path in files {
            println!("cargo:rerun-if-changed={}", path.display());
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .expect("utf-8 file name");
            out.push_str(&format!(
                "    ({name:?}, include_str!({:?})),\n",
                path.display().to_string()
            ));
        }
        out.push_str("];\n");
    }
    let dest =
        Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("runtime_files.rs");
    fs::write(dest, out).expect("write runtime_files.rs");
}
