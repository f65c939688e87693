//! Unit tests of the pure parts: slugs, arguments, cargo's messages, the table, the JSON
//! reader.

use super::*;

#[test]
fn slugs_are_crate_names() {
    assert_eq!(
        slug("oai-examples-v3.0/petstore-expanded.yaml"),
        "oai-examples-v3-0-petstore-expanded"
    );
    assert_eq!(
        slug("progenitor/api.github.com.json"),
        "progenitor-api-github-com"
    );
    assert_eq!(
        slug("twilio/twilio_iam_scim.json"),
        "twilio-twilio-iam-scim"
    );
    assert_eq!(
        slug("openai/openapi-2025-01-17-d78fe2ac.yaml"),
        "openai-openapi-2025-01-17-d78fe2ac"
    );
    assert_eq!(slug("2024/API v2!.YML"), "doc-2024-api-v2");
    assert_eq!(slug("__.json"), "doc");
    assert_eq!(slug("notes.txt"), "notes-txt");
}

#[test]
fn panics_become_results() {
    let (ok, _) = guarded(|| 7);
    assert_eq!(ok, Ok(7));
    // No hook installed here (tests share the process): the payload is the message.
    let (err, _) = guarded(|| -> u8 { panic!("boom {}", 1) });
    assert_eq!(err, Err("boom 1".to_string()));
    let (err, _) = guarded(|| -> u8 { std::panic::panic_any(3_u8) });
    assert_eq!(err, Err("panic with a non-string payload".to_string()));
}

#[test]
fn colliding_slugs_get_a_suffix() {
    let mut taken = BTreeSet::new();
    assert_eq!(unique("a-b".into(), &mut taken), "a-b");
    assert_eq!(unique("a-b".into(), &mut taken), "a-b-2");
    assert_eq!(unique("a-b".into(), &mut taken), "a-b-3");
}

#[test]
fn known_invalid_rows_of_the_index() {
    let index = "\
| file | size | openapi | paths | ops | schemas | oas-val | openapiv3 2.2.0 | st load |
|---|---:|---|---:|---:|---:|---|---|---|
| `a/ok.yaml` | 2 KiB | 3.0.0 | 1 | 1 | 0 | valid | ok | ok (1 ops) |
| `a/bad.yaml` | 1 MiB | 3.0.0 | 9 | 9 | 9 | INVALID | FAIL | ok (9 ops) |
- notes: **KNOWN-BAD 3.0**: INVALID | FAIL mentioned in prose
";
    assert_eq!(
        known_invalid(index).into_iter().collect::<Vec<_>>(),
        ["a/bad.yaml"]
    );
}

#[test]
fn json_values() {
    let v = Json::parse(
        r#" {"a": [1, -2.5e1, true, false, null], "s": "x\"\\\/\n\u00e9\ud83d\ude00", "o": {}} "#,
    )
    .unwrap();
    assert_eq!(
        v.get("a").unwrap().items(),
        [
            Json::Number(1.0),
            Json::Number(-25.0),
            Json::Bool(true),
            Json::Bool(false),
            Json::Null
        ]
    );
    assert_eq!(v.get("s").unwrap().as_str(), Some("x\"\\/\né😀"));
    assert_eq!(v.get("o"), Some(&Json::Object(vec![])));
    assert_eq!(Json::parse("\"ünï\"").unwrap().as_str(), Some("ünï"));
    for bad in [
        "",
        "{",
        "[1,]",
        "{\"a\" 1}",
        "\"abc",
        "tru",
        "1 2",
        "\"\\x\"",
    ] {
        assert!(Json::parse(bad).is_err(), "{bad:?} should not parse");
    }
}

const ID_S: &str = "path+file:///ws/pets-server#1.0.0";
const ID_C: &str = "path+file:///ws/pets-client#1.0.0";

fn names() -> HashMap<String, String> {
    [(ID_S, "pets-server"), (ID_C, "pets-client")]
        .into_iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

fn message(id: &str, level: &str, text: &str, spans: &str) -> String {
    format!(
        r#"{{"reason":"compiler-message","package_id":"{id}","manifest_path":"/ws/x/Cargo.toml","target":{{"kind":["lib"],"name":"x"}},"message":{{"rendered":"{level}: {text}\n --> rendered\n","$message_type":"diagnostic","children":[],"code":{{"code":"E0412","explanation":"..."}},"level":"{level}","message":"{text}","spans":[{spans}]}}}}"#
    )
}

#[test]
fn cargo_messages_fold_per_crate() {
    let span = r#"{"file_name":"pets-client/src/types.rs","line_start":12,"line_end":12,"is_primary":false},{"file_name":"pets-client/src/client.rs","line_start":40,"line_end":40,"is_primary":true}"#;
    let warn_span = r#"{"file_name":"pets-server/src/api.rs","line_start":3,"is_primary":true}"#;
    let lines = [
        r#"{"reason":"compiler-artifact","package_id":"registry+https://github.com/rust-lang/crates.io-index#serde@1.0.0","target":{"kind":["lib"]}}"#.to_string(),
        message(ID_S, "warning", "unused import: `x`", warn_span),
        message(ID_S, "warning", "unused variable: `y`", warn_span),
        message(ID_S, "warning", "2 warnings emitted", ""),
        r#"{"reason":"compiler-artifact","package_id":"path+file:///ws/pets-server#1.0.0","target":{"kind":["lib"]}}"#.to_string(),
        message(ID_C, "error", "cannot find type `Foo` in this scope", span),
        message(ID_C, "error", "cannot find type `Bar` in this scope", span),
        message(ID_C, "error", "aborting due to 2 previous errors", ""),
        "not json".to_string(),
        r#"{"reason":"build-finished","success":false}"#.to_string(),
    ];
    let t = tally(lines.iter().map(String::as_str), &names());
    assert_eq!(t.len(), 2);
    let server = &t["pets-server"];
    assert!(server.compiled);
    assert_eq!(server.warnings, 2);
    assert!(server.errors.is_empty());
    let client = &t["pets-client"];
    assert!(!client.compiled);
    assert_eq!(client.errors.len(), 2);
    assert_eq!(
        client.errors[0].short(),
        "pets-client/src/client.rs:40: E0412 cannot find type `Foo` in this scope"
    );
    assert!(
        client.errors[0]
            .rendered
            .starts_with("error: cannot find type")
    );
    assert_eq!(
        server.warning_kinds,
        BTreeMap::from([
            (
                "unused import: `…`".to_string(),
                (1, "pets-server/src/api.rs:3".to_string())
            ),
            (
                "unused variable: `…`".to_string(),
                (1, "pets-server/src/api.rs:3".to_string())
            ),
        ])
    );
    assert_eq!(
        kind_of(&client.errors[1].message),
        "cannot find type `…` in this scope"
    );
    assert_eq!(
        kind_of("the trait bound `Foo: Default` is not satisfied\nmore"),
        "the trait bound `…: Default` is not satisfied"
    );
    assert_eq!(kind_of("unbalanced `quote"), "unbalanced `…`");
    assert_eq!(
        kind_of(r#"Named("NameOrId") parameters, `a` and `b`"#),
        r#"Named("…") parameters, `…` and `…`"#
    );
}

fn rows() -> Vec<Row> {
    let ok = CrateBuild {
        compiled: true,
        warnings: 1,
        warning_kinds: BTreeMap::from([(
            "unused import: `…`".to_string(),
            (1, "a-server/src/router.rs:12".to_string()),
        )]),
        ..CrateBuild::default()
    };
    let failed = CrateBuild {
        errors: vec![CompileError {
            code: Some("E0412".into()),
            message: "cannot find type `Foo`".into(),
            location: Some("a-client/src/types.rs:7".into()),
            rendered: "error[E0412]: cannot find type `Foo`\n --> a-client/src/types.rs:7:5".into(),
        }],
        ..CrateBuild::default()
    };
    let documented = CrateBuild {
        compiled: true,
        doc_warnings: Some(1),
        doc_warning_kinds: BTreeMap::from([(
            "this URL is not a hyperlink".to_string(),
            (1, "a-cli/src/lib.rs:3".to_string()),
        )]),
        ..CrateBuild::default()
    };
    let mut a = Row::new("a.yaml".into());
    a.operations = Some(4);
    a.cli = Some(documented);
    a.gen_ms = 12.4;
    a.lines = Some(300);
    a.gen_warnings = 2;
    a.gen_warning_kinds.insert(
        "`…` is not supported; using `…`".into(),
        (2, "/paths/~1a/get".into()),
    );
    a.crates = Some("a".into());
    a.server = Some(ok);
    a.client = Some(failed);
    a.notes
        .push("client: E0412 cannot find type `Foo` at a-client/src/types.rs:7".into());
    let mut b = Row::new("dir/b.json".into());
    b.generated = Generated::Error("error: /paths/~1x|y: not 3.0".into(), 3);
    b.details = vec!["error: /paths/~1x|y: not 3.0".into()];
    let mut c = Row::new("c.yaml".into());
    c.generated = Generated::Panic("panicked at generator/src/lower/mod.rs:10:5:\nboom".into());
    vec![a, b, c]
}

#[test]
fn table_and_summary() {
    let rows = rows();
    let table = render_table(&rows);
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 5);
    assert_eq!(
        lines[2],
        "| `a.yaml` | yes | 4 | 12 | 300 | yes | **no** (1 error) | yes | 2 + 1/0/0 + 1 | client: E0412 cannot find type `Foo` at a-client/src/types.rs:7 |"
    );
    assert_eq!(
        lines[3],
        "| `dir/b.json` | ERROR error: /paths/~1x\\|y: not 3.0 (+2 more) | – | 0 | – | – | – | – | – |  |"
    );
    assert_eq!(
        lines[4],
        "| `c.yaml` | **PANIC** panicked at generator/src/lower/mod.rs:10:5: boom | – | 0 | – | – | – | – | – |  |"
    );
    assert_eq!(
        summary_line(&rows),
        "corpus: 3 documents, 1 generated, 1 servers compile, 0 clients compile, 1 CLIs compile, 1 clean errors, 1 panics"
    );
    assert_eq!(
        failures(&rows),
        [
            "a.yaml server: 1 warning",
            "a.yaml client does not compile",
            "a.yaml cli: 1 warning from cargo doc",
            "c.yaml: generator panicked"
        ]
    );
    let details = render_details(&rows);
    assert!(details.starts_with("\n## Failures"));
    assert!(details.contains("client: 1 error\n- 1 × E0412 cannot find type `…`"));
    assert!(details.contains("### `dir/b.json`"));
    assert_eq!(
        render_warnings(&rows),
        "\n## Generator warnings by kind\n\n| warning | count | documents | first at |\n|---|---:|---:|---|\n\
         | `…` is not supported; using `…` | 2 | 1 | a.yaml /paths/~1a/get |\n\
         \n## rustc warnings by kind\n\n| warning | count | crates | first at |\n|---|---:|---:|---|\n\
         | unused import: `…` | 1 | 1 | a-server/src/router.rs:12 |\n\
         \n## rustdoc warnings by kind\n\n| warning | count | crates | first at |\n|---|---:|---:|---|\n\
         | this URL is not a hyperlink | 1 | 1 | a-cli/src/lib.rs:3 |\n"
    );
}

#[test]
fn cells_are_one_line_and_bounded() {
    assert_eq!(cell("a\n  b | c", 100), "a b \\| c");
    assert_eq!(cell("abcdef", 3), "abc…");
    assert_eq!(clip("abcdef", 6), "abcdef");
    assert_eq!(clip("abcdéf", 3), "abc… (3 more characters)");
}

#[test]
fn arguments() {
    let a = Args::parse(&[
        "x".into(),
        "--filter".into(),
        "oai".into(),
        "--keep".into(),
        "kept/ws".into(),
    ])
    .unwrap();
    assert_eq!(a.dirs, [PathBuf::from("x")]);
    assert_eq!(a.filters, ["oai"]);
    assert!(a.doc);
    assert_eq!(a.keep, Some(PathBuf::from("kept/ws")));
    let a = Args::parse(&[
        "--filter".into(),
        "a".into(),
        "--filter".into(),
        "b".into(),
        "--no-doc".into(),
    ])
    .unwrap();
    assert_eq!(a.filters, ["a", "b"]);
    assert!(!a.doc);
    assert!(Args::parse(&["--nope".into()]).is_err());
    assert_eq!(
        Args::parse(&["a".into(), "b".into()]).unwrap().dirs.len(),
        2
    );
    assert!(Args::parse(&["--filter".into()]).is_err());
}

#[test]
fn cargo_errors_name_members() {
    let stderr = "error: failed to load manifest for workspace member `/ws/a-server`\n\
                  referenced via `members`\n\ncaused by:\n  bad version\n";
    assert!(mentions_member(stderr, Path::new("/ws"), "a-server"));
    assert!(!mentions_member(stderr, Path::new("/ws"), "a-client"));
    assert!(!mentions_member(stderr, Path::new("/ws"), "a-serve"));
    assert_eq!(
        first_cargo_error(stderr),
        "error: failed to load manifest for workspace member `/ws/a-server` referenced via `members` caused by: bad version"
    );
}

#[test]
fn the_repository_dev_profile_is_copied_whole() {
    let manifest = "[workspace]\nmembers = []\n\n[profile.dev]\ndebug = \"line-tables-only\"\n\n# why\n[profile.dev.package.\"*\"]\ndebug = false\n\n[profile.release.package.x]\ncodegen-units = 1\n";
    assert_eq!(
        dev_profile_tables(manifest),
        "\n[profile.dev]\ndebug = \"line-tables-only\"\n\n[profile.dev.package.\"*\"]\ndebug = false\n"
    );
}
