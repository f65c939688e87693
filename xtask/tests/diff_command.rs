//! The real `cargo xtask diff` binary on fixture pairs: its JSON, its human output and its
//! exit status (0: nothing breaks clients, 1: something does, 2: a document is unreadable).

use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture(case: &str, file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/diff")
        .join(case)
        .join(file)
}

fn xtask(args: &[&str], base: &Path, spec: &Path) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .arg("diff")
        .arg("--base-file")
        .arg(base)
        .arg("--spec")
        .arg(spec)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn json_output_and_exit_status_on_a_breaking_pair() {
    let case = "enum-value-removed";
    let (code, out, err) = xtask(
        &["--json"],
        &fixture(case, "base.yaml"),
        &fixture(case, "new.yaml"),
    );
    assert_eq!(code, 1, "a change breaks clients: {out}{err}");
    let report: serde_json::Value = serde_json::from_str(&out).expect("stdout is JSON");
    let changes = report["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 2, "{out}");
    assert_eq!(changes[0]["class"], "breaking-for-clients");
    assert_eq!(changes[0]["kind"], "request-enum-value-removed");
    assert_eq!(changes[0]["pointer"], "/components/schemas/Kind/enum");
    assert!(
        changes[0]["reason"]
            .as_str()
            .unwrap()
            .contains("`large` removed"),
        "{out}"
    );
    assert_eq!(changes[1]["class"], "breaking-for-servers");
    assert_eq!(report["summary"]["breaking-for-clients"], 1);
    assert_eq!(report["base_version"], "1.0.0");
    assert_eq!(report["major_bumped"], false);
}

#[test]
fn exit_status_zero_when_nothing_breaks_clients() {
    let case = "operation-added";
    let (code, out, _) = xtask(&[], &fixture(case, "base.yaml"), &fixture(case, "new.yaml"));
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("breaking-for-servers"), "{out}");
    assert!(out.contains("operation-added"), "{out}");
    assert!(
        out.contains("1 change: 0 breaking for clients, 1 breaking for servers, 0 compatible"),
        "{out}"
    );
}

#[test]
fn exit_status_two_on_an_unreadable_document() {
    let case = "operation-added";
    let missing = fixture(case, "no-such-file.yaml");
    let (code, _, err) = xtask(&[], &fixture(case, "base.yaml"), &missing);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot read"), "{err}");
}
