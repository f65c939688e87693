//! Unit tests of the comparison's building blocks; the rules themselves are tested on
//! fixture pairs (tests/tests/diff.rs, tests/fixtures/diff/).

use super::*;

#[test]
fn versions() {
    assert_eq!(version_parts("1.0.0"), Some((1, 0)));
    assert_eq!(version_parts("v2"), Some((2, 0)));
    assert_eq!(version_parts("0.3.1-beta"), Some((0, 3)));
    assert_eq!(version_parts("2024-01-01"), Some((2024, 1)));
    assert_eq!(version_parts("latest"), None);
    let report = |base: &str, new: &str| Report {
        changes: Vec::new(),
        base_version: base.into(),
        new_version: new.into(),
    };
    assert!(report("1.4.0", "2.0.0").major_bumped());
    assert!(!report("1.4.0", "1.5.0").major_bumped());
    assert!(!report("2.0.0", "1.0.0").major_bumped());
    assert!(
        report("0.1.0", "0.2.0").major_bumped(),
        "0.x: the minor is the major"
    );
    assert!(!report("0.1.0", "0.1.5").major_bumped());
    assert!(!report("1.0.0", "next").major_bumped());
}

#[test]
fn effects_by_direction() {
    assert_eq!(
        Effect::Narrows.class(Dir::Request),
        Class::BreakingForClients
    );
    assert_eq!(
        Effect::Widens.class(Dir::Request),
        Class::BreakingForServers
    );
    assert_eq!(
        Effect::Narrows.class(Dir::Response),
        Class::BreakingForServers
    );
    assert_eq!(
        Effect::Widens.class(Dir::Response),
        Class::BreakingForClients
    );
    assert_eq!(
        Effect::Replaces.class(Dir::Response),
        Class::BreakingForClients
    );
    assert_eq!(
        Effect::Replaces.class(Dir::Request),
        Class::BreakingForClients
    );
}

#[test]
fn kebab_names() {
    assert_eq!(schema::kebab("maxLength"), "max-length");
    assert_eq!(schema::kebab("oneOf"), "one-of");
}

/// A bad document is refused with its pointer and which document it is.
#[test]
fn bad_documents_are_located() {
    let good = "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths: {}\n";
    let bad = "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths:\n  /a:\n    get:\n      responses: 7\n";
    let err = diff(good, bad, 0).unwrap_err();
    assert_eq!(err.0[0].pointer, "/paths/~1a/get/responses", "{err}");
    assert!(err.0[0].message.starts_with("new document: "), "{err}");
    let err = diff(bad, good, 0).unwrap_err();
    assert!(err.0[0].message.starts_with("base document: "), "{err}");
    let dangling = "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {$ref: '#/components/schemas/Nope'}\n";
    let err = diff(good, dangling, 0).unwrap_err();
    assert!(err.to_string().contains("Nope"), "{err}");
}

/// A schema that refers to itself is compared once, not forever.
#[test]
fn recursive_schemas_end() {
    let doc = |extra: &str| {
        format!(
            "openapi: 3.0.3\ninfo: {{title: x, version: '1'}}\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {{$ref: '#/components/schemas/Node'}}\ncomponents:\n  schemas:\n    Node:\n      type: object\n      properties:\n        next: {{$ref: '#/components/schemas/Node'}}\n        label: {{type: string{extra}}}\n"
        )
    };
    let report = diff(&doc(""), &doc(", maxLength: 5"), 0).unwrap();
    assert_eq!(report.changes.len(), 1, "{report:#?}");
    assert_eq!(
        report.changes[0].pointer,
        "/components/schemas/Node/properties/label/maxLength"
    );
    assert_eq!(report.changes[0].kind, "response-max-length-set");
    assert_eq!(report.changes[0].class, Class::BreakingForServers);
}
