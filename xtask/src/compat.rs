//! `cargo xtask compat`: proves that additive spec changes are source-compatible. The pet
//! store spec gains the [`ADDITIONS`]; the server, client and CLI crates are regenerated into
//! a throwaway workspace, and the reference service and the CLI's tests (which also use the
//! generated client directly), copied unchanged, must compile against them.
//!
//! A separate workspace and target directory (`target/compat/`), because cargo cannot build
//! inside the workspace's own target directory while `cargo test` holds it; so the first run
//! compiles the dependencies once (a few minutes on two cores) and CI runs it as its own step
//! rather than inside `cargo test`, with `--shared-target` (the workspace's target directory,
//! whose dependencies the clippy step has checked already). The edit itself is unit tested below.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_yaml::{Mapping, Value};

use crate::codegen;
use apigen_cli::project::{Report, Target, sync};

/// What the evolved document adds, each an additive kind of change.
pub const ADDITIONS: &[&str] = &[
    "optional property `nickname` on NewPet (and so on Pet, through allOf)",
    "optional query parameter `tag` on listPets",
    "response status 503 on listPets",
    "first parameter of listOrders: optional query parameter `since`",
    "second success status 200 on createPet, with the Pet body of its 201",
    "enum value `adopted` in PetStatus",
    "operation deletePet (DELETE /pets/{petId})",
];

/// The pet store document with the additions above.
pub fn evolve(spec: &str) -> Result<String, String> {
    let mut doc: Value =
        serde_yaml::from_str(spec).map_err(|e| format!("spec/petstore.yaml: {e}"))?;
    let yaml = |text: &str| -> Value { serde_yaml::from_str(text).expect("a valid literal") };

    let schemas = at(&mut doc, &["components", "schemas"])?;
    at(schemas, &["NewPet", "properties"])?
        .as_mapping_mut()
        .ok_or("NewPet.properties is not a mapping")?
        .insert(
            "nickname".into(),
            yaml("{type: string, description: What the animal answers to.}"),
        );
    at(schemas, &["PetStatus", "enum"])?
        .as_sequence_mut()
        .ok_or("PetStatus.enum is not a list")?
        .push("adopted".into());

    let list = at(&mut doc, &["paths", "/pets", "get"])?;
    at(list, &["parameters"])?
        .as_sequence_mut()
        .ok_or("listPets.parameters is not a list")?
        .push(yaml(
            "{name: tag, in: query, required: false, description: Only animals with this tag., schema: {type: string}}",
        ));
    at(list, &["responses"])?
        .as_mapping_mut()
        .ok_or("listPets.responses is not a mapping")?
        .insert(
            "503".into(),
            yaml(
                "{description: Under maintenance., content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}",
            ),
        );

    // An operation without parameters gains its first, optional one.
    at(&mut doc, &["paths", "/store/orders", "get"])?
        .as_mapping_mut()
        .ok_or("listOrders is not a mapping")?
        .insert(
            "parameters".into(),
            yaml(
                "[{name: since, in: query, required: false, description: Only orders placed from this day on., schema: {type: string}}]",
            ),
        );
    // A second success status with the body of the first.
    let created = at(&mut doc, &["paths", "/pets", "post", "responses", "201"])?.clone();
    at(&mut doc, &["paths", "/pets", "post", "responses"])?
        .as_mapping_mut()
        .ok_or("createPet.responses is not a mapping")?
        .insert("200".into(), created);

    at(&mut doc, &["paths", "/pets/{petId}"])?
        .as_mapping_mut()
        .ok_or("/pets/{petId} is not a mapping")?
        .insert(
            "delete".into(),
            yaml(
                "{operationId: deletePet, summary: Remove an animal,
                  parameters: [{name: petId, in: path, required: true, schema: {type: integer, format: int64}}],
                  responses: {'204': {description: Removed.},
                              '404': {description: No such animal., content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}}}",
            ),
        );
    serde_yaml::to_string(&doc).map_err(|e| format!("cannot write the evolved document: {e}"))
}

/// The value at `path` (mapping keys), for editing.
fn at<'a>(value: &'a mut Value, path: &[&str]) -> Result<&'a mut Value, String> {
    let mut here = value;
    for (i, key) in path.iter().enumerate() {
        here = here
            .as_mapping_mut()
            .and_then(|m: &mut Mapping| m.get_mut(*key))
            .ok_or_else(|| format!("spec/petstore.yaml has no /{}", path[..=i].join("/")))?;
    }
    Ok(here)
}

/// The hand-written crates checked, and the fixtures' generated crates the CLI's tests also
/// use (its binary and tests run the fixtures' CLIs and the answers fixture's server).
const COPIED: &[&str] = &["examples/petstore-service", "tests/cli", "tests/generated"];

/// Copied beside them: the runtime crates every generated crate (and the copied fixture
/// client) depends on by path, so the workspace holds one of each (cargo makes path
/// dependencies inside the workspace's directory members); the test helpers the copied tests
/// include by path are among them (`runtime/server/tests/common`).
const SUPPORT: &[&str] = &["runtime/server", "runtime/client", "runtime/cli"];

pub fn main(args: &[String]) -> Result<(), String> {
    // `--shared-target`: check in the workspace's own target directory (CI, where nothing else
    // holds it, and the clippy step's dependencies are reused: the copy keeps the repository's
    // lock file and profiles).
    let shared_target = match args {
        [] => false,
        [flag] if flag == "--shared-target" => true,
        [other, ..] => {
            return Err(format!(
                "`cargo xtask compat` takes only --shared-target (got `{other}`)"
            ));
        }
    };
    let root = codegen::root();
    let root = root.canonicalize().unwrap_or(root);
    let base = root.join("target/compat");
    let target_dir = if shared_target {
        root.join("target")
    } else {
        base.join("target")
    };
    let ws = base.join("ws");
    let _ = fs::remove_dir_all(&ws);
    fs::create_dir_all(ws.join("spec"))
        .map_err(|e| format!("cannot create {}: {e}", ws.display()))?;

    let spec = fs::read_to_string(root.join("spec/petstore.yaml"))
        .map_err(|e| format!("cannot read spec/petstore.yaml: {e}"))?;
    let evolved = ws.join("spec/petstore.yaml");
    fs::write(&evolved, evolve(&spec)?)
        .map_err(|e| format!("cannot write {}: {e}", evolved.display()))?;
    let target = Target {
        spec: evolved,
        spec_base: ws.clone(),
        spec_label: "spec/petstore.yaml (evolved by cargo xtask compat)".into(),
        name: "petstore".into(),
        api_name: None,
        server_dir: Some(ws.join("generated-server")),
        client_dir: Some(ws.join("generated-client")),
        cli_dir: Some(ws.join("generated-cli")),
        command: "cargo xtask compat".into(),
        string_formats: false,
        select: Default::default(),
        // The workspace's own copy of the runtime (see `SUPPORT`).
        runtime: apigen::RuntimeSource::Crates {
            path: Some(codegen::path_between(
                &ws.join("generated-server"),
                &ws.join("runtime"),
            )),
        },
    };
    sync(&target, false, &mut Report::default())?;
    for dir in COPIED.iter().chain(SUPPORT) {
        copy_dir(&root.join(dir), &ws.join(dir))?;
    }
    let manifest = fs::read_to_string(root.join("Cargo.toml"))
        .map_err(|e| format!("cannot read Cargo.toml: {e}"))?;
    // A copied folder of crates (tests/generated) is a glob of members.
    let members = ["generated-server", "generated-client", "generated-cli"]
        .iter()
        .chain(COPIED)
        .map(|m| match root.join(m).join("Cargo.toml").is_file() {
            true => format!("    \"{m}\",\n"),
            false => format!("    \"{m}/*\",\n"),
        })
        .collect::<String>();
    fs::write(ws.join("Cargo.toml"), with_members(&manifest, &members)?)
        .map_err(|e| format!("cannot write the workspace manifest: {e}"))?;
    // The repository's versions, so nothing new is fetched.
    fs::copy(root.join("Cargo.lock"), ws.join("Cargo.lock"))
        .map_err(|e| format!("cannot copy Cargo.lock: {e}"))?;

    println!("evolved spec/petstore.yaml:");
    for a in ADDITIONS {
        println!("  + {a}");
    }
    println!("checking the unchanged reference service and CLI (all targets) against it...");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args(["check", "--workspace", "--all-targets", "--manifest-path"])
        .arg(ws.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&target_dir)
        .env_remove("CARGO_TARGET_DIR")
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if status.success() {
        println!(
            "compatible: the service and the CLI tests compile unchanged ({})",
            ws.display()
        );
        Ok(())
    } else {
        Err(format!(
            "an additive spec change broke hand-written code (workspace kept in {})",
            ws.display()
        ))
    }
}

/// The repository's manifest with its `members` list replaced (dependencies, lints and
/// profiles kept, so the copies build as they do here).
fn with_members(manifest: &str, members: &str) -> Result<String, String> {
    let start = manifest
        .find("members = [")
        .ok_or("Cargo.toml has no `members = [`")?;
    let end = start
        + manifest[start..]
            .find("\n]")
            .ok_or("Cargo.toml's members list does not end")?;
    Ok(format!(
        "# Written by `cargo xtask compat`.\n{}members = [\n{members}{}",
        &manifest[..start],
        &manifest[end + 1..]
    ))
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    fs::create_dir_all(to).map_err(|e| format!("cannot create {}: {e}", to.display()))?;
    let entries = fs::read_dir(from).map_err(|e| format!("cannot read {}: {e}", from.display()))?;
    for entry in entries {
        let path: PathBuf = entry.map_err(|e| e.to_string())?.path();
        let name = path.file_name().unwrap_or_default();
        if name == "target" {
            continue;
        }
        let dest = to.join(name);
        if path.is_dir() {
            copy_dir(&path, &dest)?;
        } else {
            fs::copy(&path, &dest).map_err(|e| format!("cannot copy {}: {e}", path.display()))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each addition is really in the evolved document and reaches the generated code; with
    /// one missing, `cargo xtask compat` would prove less than it says.
    #[test]
    fn the_evolved_spec_adds_what_it_says() {
        let spec = fs::read_to_string(codegen::root().join("spec/petstore.yaml")).unwrap();
        let evolved = evolve(&spec).unwrap();
        let options = apigen::Options {
            api_name: None,
            name: "petstore".into(),
            spec_label: "evolved".into(),
            command: "test".into(),
            string_formats: false,
            ..Default::default()
        };
        let before = apigen::generate(&spec, &options).unwrap();
        let after = apigen::generate(&evolved, &options).unwrap();
        let file = |out: &apigen::Output, path: &str| -> String {
            out.files
                .get(path)
                .cloned()
                .unwrap_or_else(|| panic!("no {path}"))
        };
        for (path, added) in [
            ("server/src/types.rs", "pub nickname: Option<String>"),
            ("client/src/types.rs", "with_nickname: text"),
            ("server/src/types.rs", "Adopted = \"adopted\","),
            ("client/src/types.rs", "Adopted = \"adopted\","),
            ("server/src/api.rs", "pub tag: Option<String>"),
            ("client/src/client.rs", "#[param(\"tag\", with_tag, query)]"),
            ("server/src/api.rs", "ServiceUnavailable(types::Error)"),
            ("client/src/client.rs", "ServiceUnavailable(types::Error)"),
            ("server/src/api.rs", "fn delete_pet("),
            ("client/src/client.rs", "pub async fn delete_pet("),
        ] {
            assert!(
                !file(&before, path).contains(added),
                "{path} already has {added}"
            );
            assert!(file(&after, path).contains(added), "{path} lacks {added}");
        }
    }

    /// `cargo xtask compat` proves these additions keep client code compiling; the diff
    /// must agree that none breaks clients, and still see each of them.
    #[test]
    fn the_diff_finds_the_additions_and_no_client_break() {
        let spec = fs::read_to_string(codegen::root().join("spec/petstore.yaml")).unwrap();
        let evolved = evolve(&spec).unwrap();
        let report = apigen::diff::diff(&spec, &evolved, 0).unwrap();
        assert!(
            report.breaking_for_clients().is_empty(),
            "{}",
            report.human()
        );
        let kinds: Vec<&str> = report.changes.iter().map(|c| c.kind.as_str()).collect();
        for kind in [
            "request-property-added-optional",
            "request-enum-value-added",
            "response-enum-value-added",
            "request-parameter-added-optional",
            "response-status-added",
            "operation-added",
        ] {
            assert!(
                kinds.contains(&kind),
                "{kind} not found: {}",
                report.human()
            );
        }
    }

    #[test]
    fn members_are_replaced_and_the_rest_kept() {
        let manifest = "[workspace]\nresolver = \"3\"\nmembers = [\n    \"a\",\n    \"b\",\n]\n\n[workspace.dependencies]\nx = \"1\"\n";
        let out = with_members(manifest, "    \"c\",\n").unwrap();
        assert!(out.contains("members = [\n    \"c\",\n]\n"), "{out}");
        assert!(!out.contains("\"a\""), "{out}");
        assert!(out.contains("[workspace.dependencies]\nx = \"1\""), "{out}");
    }
}
