//! `cargo xtask codegen [--check]` and `cargo xtask diff`: the `apigen` command's own code
//! (`apigen_cli`), run on this repository's `apigen.toml`, with this checkout's runtime crates
//! for `--spec`/`--out`. Also the paths other xtask commands share.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The repository's root, read when the command runs (`cargo run` sets
/// `CARGO_MANIFEST_DIR`), so that a moved checkout is never taken for its old place; the
/// path compiled in is only the fallback for a binary started by hand.
pub fn root() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .filter(|dir| dir.join("../apigen.toml").is_file())
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")))
        .join("..")
}

/// How `cargo xtask codegen` and `cargo xtask diff` reach `apigen_cli`.
pub fn invocation() -> apigen_cli::Invocation {
    let root = root();
    apigen_cli::Invocation {
        config: Some(root.join(apigen_cli::config::FILE_NAME)),
        runtime_path: Some(root.join("runtime")),
        ..apigen_cli::Invocation::xtask()
    }
}

/// `cargo xtask codegen ARGS`: `apigen generate ARGS` (`--check` included).
pub fn main(args: &[String]) -> ExitCode {
    let mut line = vec!["codegen".to_string()];
    line.extend(args.iter().cloned());
    apigen_cli::run(&line, invocation())
}

/// The runtime crates of this checkout, by path from a generated crate's directory
/// (`crate_dir`; the server, client and CLI of one document are siblings).
pub fn runtime_beside(crate_dir: &Path) -> apigen::RuntimeSource {
    apigen::RuntimeSource::Crates {
        path: Some(path_between(crate_dir, &root().join("runtime"))),
    }
}

/// `to` as seen from the directory `from` (`../runtime`); see [`apigen_cli::paths::between`].
pub fn path_between(from: &Path, to: &Path) -> String {
    apigen_cli::paths::between(from, to)
}

#[cfg(test)]
mod tests {
    use super::*;
    use apigen_cli::project::{Report, sync};

    /// The command that regenerates everything, as generated files name it.
    const COMMAND: &str = "cargo xtask codegen";

    /// The targets of the repository's `apigen.toml`.
    fn workspace_targets() -> Result<Vec<apigen_cli::project::Target>, String> {
        let config = apigen_cli::config::Config::load(&root().join(apigen_cli::config::FILE_NAME))?;
        apigen_cli::project::Target::from_config(&config, COMMAND)
    }

    /// The drift check as a test: committed generated files equal what the generator makes.
    #[test]
    fn generated_files_are_up_to_date() {
        let mut report = Report::default();
        for target in workspace_targets().unwrap() {
            sync(&target, true, &mut report).unwrap();
        }
        assert!(report.is_clean(), "run `{COMMAND}`: {report:#?}");
    }

    /// Every fixture document has its crates listed in apigen.toml (but the one that only
    /// feeds a comparison), so a new fixture cannot be forgotten by the drift check.
    #[test]
    fn every_fixture_is_in_apigen_toml() {
        let listed: Vec<String> = workspace_targets()
            .unwrap()
            .into_iter()
            .map(|t| t.spec_label)
            .collect();
        let mut fixtures: Vec<String> = std::fs::read_dir(root().join("tests/fixtures"))
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.ends_with(".yaml") || n.ends_with(".json"))
            .filter(|n| n != "petstore-3.0.yaml")
            .map(|n| format!("tests/fixtures/{n}"))
            .collect();
        fixtures.sort();
        for fixture in fixtures {
            assert!(listed.contains(&fixture), "{fixture} is not in apigen.toml");
        }
    }

    /// The pet store's own sunset reaches the report with the pointer the user wrote.
    #[test]
    fn the_pet_stores_sunset_is_reported() {
        let target = &workspace_targets().unwrap()[0];
        let mut report = Report::default();
        sync(target, true, &mut report).unwrap();
        let (label, s) = &report.sunsets[0];
        assert_eq!(label, "spec/petstore.yaml");
        assert_eq!(
            (s.operation.as_str(), s.day.as_str(), s.at),
            ("getPet", "2030-12-05", 1_922_659_200)
        );
        assert_eq!(s.pointer, "/paths/~1pets~1{petId}/get/x-deprecation/sunset");
    }
}
