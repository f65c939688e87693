//! Documents split over several files, through every command, as a user runs them: generate,
//! check (stale when only a referenced file changed), diff against git and against another
//! copy, and errors that name the file and line of the problem.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("apigen-split-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn write(&self, name: &str, text: &str) {
        let path = self.0.join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn apigen(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_apigen"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .current_dir(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", text(&out));
}

/// A small cafe split as split documents are: the root, a path item per file, schemas in
/// their own folder, one in JSON, a file name with `{}`.
fn cafe(dir: &Scratch) {
    dir.write(
        "api/openapi.yaml",
        "openapi: 3.1.0\ninfo: {title: Cafe, version: 1.0.0}\npaths:\n  /menu:\n    $ref: paths/menu.yaml\n  /menu/{id}:\n    $ref: paths/menu_{id}.yaml\n",
    );
    dir.write(
        "api/paths/menu.yaml",
        "get:\n  operationId: listMenu\n  responses:\n    '200':\n      description: the menu\n      content:\n        application/json:\n          schema:\n            type: array\n            items: {$ref: ../schemas/Item.yaml}\n",
    );
    dir.write(
        "api/paths/menu_{id}.yaml",
        "get:\n  operationId: getItem\n  parameters:\n    - {name: id, in: path, required: true, schema: {type: string}}\n  responses:\n    '200':\n      description: one item\n      content:\n        application/json:\n          schema: {$ref: '../schemas/Item.yaml'}\n    '404':\n      description: none\n      content:\n        application/json:\n          schema: {$ref: '../schemas/Error.json'}\n",
    );
    dir.write(
        "api/schemas/Item.yaml",
        "type: object\nrequired: [name, price]\nproperties:\n  name: {type: string}\n  price: {type: integer, minimum: 0}\n",
    );
    dir.write(
        "api/schemas/Error.json",
        r#"{"type": "object", "properties": {"message": {"type": "string"}}}"#,
    );
    dir.write(
        "apigen.toml",
        "[[api]]\nspec = \"api/openapi.yaml\"\nname = \"cafe\"\nout = \"cafe\"\ncli = true\n",
    );
}

#[test]
fn generate_check_and_diff_follow_every_file() {
    let dir = Scratch::new("commands");
    cafe(&dir);
    git(&dir.0, &["init", "-q"]);
    git(&dir.0, &["add", "."]);
    git(&dir.0, &["commit", "-q", "-m", "cafe"]);

    let out = apigen(&dir.0, &["generate"]);
    assert!(out.status.success(), "{}", text(&out));
    let types = fs::read_to_string(dir.0.join("cafe/client/src/types.rs")).unwrap();
    assert!(types.contains("pub struct Item {"), "{types}");
    assert!(types.contains("pub struct Error {"), "{types}");
    let client = fs::read_to_string(dir.0.join("cafe/client/src/client.rs")).unwrap();
    assert!(client.contains("pub async fn get_item("), "{client}");
    let out = apigen(&dir.0, &["check"]);
    assert!(out.status.success(), "{}", text(&out));

    // Only a referenced file changes: the crates are stale, and the diff names the file.
    dir.write(
        "api/schemas/Item.yaml",
        "type: object\nrequired: [name, price]\nproperties:\n  name: {type: string}\n  price: {type: integer, minimum: 0}\n  vegan: {type: boolean}\n",
    );
    let out = apigen(&dir.0, &["check"]);
    assert!(!out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("stale: cafe/client/src/types.rs"),
        "{}",
        text(&out)
    );
    let out = apigen(&dir.0, &["diff"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(
        text(&out).contains("api/schemas/Item.yaml#/properties/vegan"),
        "{}",
        text(&out)
    );
    // A change that breaks clients, in a referenced file, against another copy of the
    // document (`--base-file`): exit status 1.
    let base = Scratch::new("commands-base");
    cafe(&base);
    dir.write(
        "api/schemas/Item.yaml",
        "type: object\nrequired: [name]\nproperties:\n  name: {type: string}\n",
    );
    let base_root = base.0.join("api/openapi.yaml");
    let out = apigen(
        &dir.0,
        &[
            "diff",
            "--spec",
            "api/openapi.yaml",
            "--base-file",
            base_root.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("api/schemas/Item.yaml#/properties/price\n")
            && text(&out).contains("property `price` removed"),
        "{}",
        text(&out)
    );
    let out = apigen(&dir.0, &["generate"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("breaking-for-clients api/schemas/Item.yaml#/properties/price"),
        "{}",
        text(&out)
    );
    let out = apigen(&dir.0, &["check"]);
    assert!(out.status.success(), "{}", text(&out));
}

#[test]
fn a_broken_reference_names_its_file_and_line() {
    let dir = Scratch::new("errors");
    cafe(&dir);
    dir.write(
        "api/paths/menu.yaml",
        "get:\n  operationId: listMenu\n  responses:\n    '200':\n      description: the menu\n      content:\n        application/json:\n          schema:\n            type: array\n            items: {$ref: ../schemas/Itme.yaml}\n",
    );
    let out = apigen(&dir.0, &["generate"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains(
            "error: api/paths/menu.yaml:10:13: /get/responses/200/content/application~1json/schema/items: `../schemas/Itme.yaml`: cannot read api/schemas/Itme.yaml: No such file or directory"
        ),
        "{}",
        text(&out)
    );
    assert!(!dir.0.join("cafe").exists(), "nothing written");
    // The same with the document named on the command line, from another directory.
    let out = apigen(
        &dir.0.join("api"),
        &["generate", "--spec", "openapi.yaml", "--out", "../out"],
    );
    assert!(
        text(&out).contains("error: paths/menu.yaml:10:13: "),
        "{}",
        text(&out)
    );
}
