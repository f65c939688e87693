//! `apigen::diff` on fixture pairs: every directory of tests/fixtures/diff/ holds `base.yaml`,
//! `new.yaml` and `expected.txt` (one `class pointer kind` line per change the rule must
//! report, and nothing else); and the pet store in its 3.0 and 3.1 forms compares equal.

use apigen::diff::{Class, Report, diff};
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// 2026-11-23 00:00 UTC: fixtures about sunsets place theirs on either side of it.
const NOW: i64 = 1_795_392_000;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn lines(report: &Report) -> BTreeSet<String> {
    report
        .changes
        .iter()
        .map(|c| format!("{} {} {}", c.class.as_str(), c.pointer, c.kind))
        .collect()
}

#[test]
fn every_fixture_pair_is_classified_as_expected() {
    let dir = root().join("tests/fixtures/diff");
    let mut cases: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    assert!(cases.len() >= 30, "fixture pairs missing: {cases:?}");
    let mut failures = Vec::new();
    let mut kinds = BTreeSet::new();
    for case in &cases {
        let name = case.file_name().unwrap().to_string_lossy().to_string();
        let read = |f: &str| fs::read_to_string(case.join(f)).unwrap();
        let expected: BTreeSet<String> = read("expected.txt")
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(str::to_string)
            .collect();
        // Only a pair written to show that nothing changed may expect nothing.
        assert_eq!(
            expected.is_empty(),
            name.ends_with("-only"),
            "{name}: expected.txt lists no change"
        );
        let report = match diff(&read("base.yaml"), &read("new.yaml"), NOW) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{name}: refused:\n{e}"));
                continue;
            }
        };
        let got = lines(&report);
        if got != expected {
            failures.push(format!(
                "{name}:\n  missing: {:?}\n  unexpected: {:?}\n{}",
                expected.difference(&got).collect::<Vec<_>>(),
                got.difference(&expected).collect::<Vec<_>>(),
                report.human()
            ));
        }
        for c in &report.changes {
            assert!(!c.reason.is_empty(), "{name}: {c:?} has no reason");
            assert!(!c.reason.contains('\n'), "{name}: {c:?} is not one line");
        }
        kinds.extend(report.changes.iter().map(|c| c.kind.clone()));
        // Swapped, the pair must still be read (and say something).
        let back = diff(&read("new.yaml"), &read("base.yaml"), NOW).unwrap();
        assert_eq!(
            back.changes.is_empty(),
            expected.is_empty(),
            "{name} reversed"
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // Every rule the brief names has a pair.
    for kind in [
        "operation-added",
        "operation-removed-without-deprecation",
        "request-parameter-added-required",
        "request-parameter-removed",
        "request-parameter-became-required",
        "request-property-added-required",
        "response-property-became-optional",
        "request-body-became-optional",
        "response-type-changed",
        "request-format-changed",
        "request-enum-value-removed",
        "response-enum-value-added",
        "request-max-length-decreased",
        "response-max-length-set",
        "response-status-added",
        "response-status-removed",
        "response-body-removed",
        "security-alternative-removed",
        "operation-deprecated",
        "operation-sunset-moved-earlier",
    ] {
        assert!(kinds.contains(kind), "no fixture pair shows {kind}");
    }
}

/// The report is the same however often it is made, and sorted by class first.
#[test]
fn reports_are_deterministic_and_sorted() {
    let case = root().join("tests/fixtures/diff/constraints-request");
    let base = fs::read_to_string(case.join("base.yaml")).unwrap();
    let new = fs::read_to_string(case.join("new.yaml")).unwrap();
    let first = diff(&base, &new, NOW).unwrap();
    for _ in 0..3 {
        assert_eq!(diff(&base, &new, NOW).unwrap(), first);
    }
    let classes: Vec<Class> = first.changes.iter().map(|c| c.class).collect();
    let mut sorted = classes.clone();
    sorted.sort();
    assert_eq!(classes, sorted);
    assert_eq!(first.breaking_for_clients().len(), 2, "{first:#?}");
}

/// tests/fixtures/petstore-3.0.yaml and spec/petstore.yaml describe one interface in two
/// versions of OpenAPI: no change. The same document against an edited copy shows the
/// comparison is live on it (an optional request property is found).
#[test]
fn the_pet_store_in_3_0_and_3_1_is_one_interface() {
    let v30 = fs::read_to_string(root().join("tests/fixtures/petstore-3.0.yaml")).unwrap();
    let v31 = fs::read_to_string(root().join("spec/petstore.yaml")).unwrap();
    let report = diff(&v30, &v31, NOW).unwrap();
    assert!(report.changes.is_empty(), "{}", report.human());
    assert!(diff(&v31, &v30, NOW).unwrap().changes.is_empty());

    let edited = v31.replacen(
        "        categoryId:\n          type: integer\n          format: int64\n",
        "        categoryId:\n          type: integer\n          format: int64\n          maximum: 1000\n",
        1,
    );
    assert_ne!(edited, v31, "the edit applies");
    let report = diff(&v30, &edited, NOW).unwrap();
    let got = lines(&report);
    // NewPet is sent by clients (createPet) and, through Pet's allOf, by servers.
    assert_eq!(
        got,
        BTreeSet::from([
            "breaking-for-clients /components/schemas/NewPet/properties/categoryId/maximum request-maximum-set".to_string(),
            "breaking-for-servers /components/schemas/NewPet/properties/categoryId/maximum response-maximum-set".to_string(),
        ]),
        "{}",
        report.human()
    );
}

/// A bad new document is refused with the pointer of the problem, as `generate` refuses it.
#[test]
fn a_bad_document_is_a_located_error() {
    let v31 = fs::read_to_string(root().join("spec/petstore.yaml")).unwrap();
    let bad = v31.replacen("sunset: \"2030-12-05\"", "sunset: \"soon\"", 1);
    let err = diff(&v31, &bad, NOW).unwrap_err();
    assert_eq!(
        err.0[0].pointer, "/paths/~1pets~1{petId}/get/x-deprecation/sunset",
        "{err}"
    );
    assert!(err.0[0].message.starts_with("new document: "), "{err}");
}
