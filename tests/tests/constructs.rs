//! Round trips of the tricky generated types (tests/fixtures/constructs.yaml): oneOf,
//! nullable, additionalProperties, enums with odd values, recursion, keyword names; and the
//! server-side checks of constraints deep inside a body.

use constructs_client::types as c;
use constructs_server::runtime::validate::{Validate, Violations};
use constructs_server::types as s;
use serde_json::json;

#[test]
fn untagged_one_of_picks_the_first_match_and_explains_failures() {
    let circle: c::Shape = serde_json::from_value(json!({"radius": 2.0})).unwrap();
    assert_eq!(circle, c::Shape::Circle(c::ShapeCircle { radius: 2.0 }));
    let text: c::Shape = serde_json::from_value(json!("hexagon")).unwrap();
    assert_eq!(text, c::Shape::String("hexagon".into()));
    assert_eq!(
        serde_json::to_value(&circle).unwrap(),
        json!({"radius": 2.0})
    );
    // A value no variant reads: the client keeps it (forward compatibility), the server
    // refuses it, saying why each variant did.
    assert_eq!(
        serde_json::from_value::<c::Shape>(json!(7)).unwrap(),
        c::Shape::Unknown(json!(7))
    );
    let err = serde_json::from_value::<s::Shape>(json!(7))
        .unwrap_err()
        .to_string();
    assert!(err.contains("no variant of `Shape` matched"), "{err}");
    assert!(err.contains("Circle:") && err.contains("String:"), "{err}");
}

/// A discriminator without `mapping` whose variants pin the property
/// (`type: {enum: [function]}`, or a `$ref` to such an enum) is keyed by the pinned values, as
/// servers and the documents' own examples send them; the schema names are still read, and the
/// pinned value is what both sides write.
#[test]
fn pinned_discriminator_values_are_the_tags() {
    let function: c::ToolCall =
        serde_json::from_value(json!({"type": "function", "name": "f"})).unwrap();
    assert!(matches!(&function, c::ToolCall::FunctionCall(f) if f.name == "f"));
    let custom: c::ToolCall =
        serde_json::from_value(json!({"type": "custom", "input": "x"})).unwrap();
    assert!(matches!(&custom, c::ToolCall::CustomCall(c) if c.input == "x"));
    // The implicit mapping of OpenAPI (the schema's name) is read too.
    let named: c::ToolCall =
        serde_json::from_value(json!({"type": "CustomCall", "input": "y"})).unwrap();
    assert!(matches!(named, c::ToolCall::CustomCall(_)));
    assert_eq!(
        serde_json::to_value(&function).unwrap(),
        json!({"type": "function", "name": "f"})
    );
    // The server's types read and write the same values.
    let server: s::ToolCall =
        serde_json::from_value(json!({"type": "custom", "input": "x"})).unwrap();
    assert_eq!(
        serde_json::to_value(&server).unwrap(),
        json!({"type": "custom", "input": "x"})
    );
    // A variant that allows several values is named by each; one that is a union itself by
    // its own variants' values.
    let preview: c::ToolCall = serde_json::from_value(json!({"type": "search_preview"})).unwrap();
    assert!(matches!(preview, c::ToolCall::SearchCall(_)));
    let shell: c::ToolCall =
        serde_json::from_value(json!({"type": "shell", "command": "ls"})).unwrap();
    assert!(
        matches!(&shell, c::ToolCall::LocalCall(c::LocalCall::ShellCall(s)) if s.command == "ls")
    );
    assert_eq!(
        serde_json::to_value(&shell).unwrap(),
        json!({"type": "shell", "command": "ls"})
    );
    // The union variant's second tag is its own too, not the first written in its place
    // (the first would send openai's `apply_patch_call_output` as `file_search_call`).
    let patch: c::ToolCall =
        serde_json::from_value(json!({"type": "patch", "diff": "-a\n+b"})).unwrap();
    assert_eq!(
        serde_json::to_value(&patch).unwrap(),
        json!({"type": "patch", "diff": "-a\n+b"})
    );
    let preview_back = serde_json::to_value(
        serde_json::from_value::<c::ToolCall>(json!({"type": "search_preview"})).unwrap(),
    )
    .unwrap();
    assert_eq!(preview_back, json!({"type": "search_preview"}));
    assert_eq!(
        serde_json::from_value::<c::ToolCall>(json!({"type": "other"})).unwrap(),
        c::ToolCall::Unknown(json!({"type": "other"}))
    );
    let err = serde_json::from_value::<s::ToolCall>(json!({"type": "other"}))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("expected one of `function`, `FunctionCall`, `custom`, `CustomCall`, `search`, `search_preview`, `SearchCall`, `shell`, `patch`, `LocalCall`"),
        "{err}"
    );
}

/// A union with no discriminator whose variants each pin `type` to their own values (openai's
/// chunking strategies and `tool_choice`) is tagged by `type`. Tried in order, the client's
/// first variant (whose `type` enum keeps unknown values) would read the second's objects and
/// drop what only the second has: `{"type": "static", "static": {…}}` would go out as
/// `{"type": "static"}`, which the API refuses.
#[test]
fn variants_that_pin_a_property_are_told_apart_by_it() {
    let static_ = json!({"type": "static", "static": {"max_tokens": 200}});
    let chunking: c::Chunking = serde_json::from_value(static_.clone()).unwrap();
    assert!(
        matches!(&chunking, c::Chunking::StaticChunking(s) if s.r#static.max_tokens == 200),
        "{chunking:?}"
    );
    assert_eq!(serde_json::to_value(&chunking).unwrap(), static_);
    let auto: c::Chunking = serde_json::from_value(json!({"type": "auto"})).unwrap();
    assert!(matches!(auto, c::Chunking::AutoChunking(_)));
    // A value no variant pins is refused by the server, naming the values that are known,
    // and kept by the client; the schemas' names are not tags here (no discriminator, so no
    // implicit mapping).
    for other in ["dynamic", "AutoChunking"] {
        let kept: c::Chunking = serde_json::from_value(json!({"type": other})).unwrap();
        assert_eq!(kept, c::Chunking::Unknown(json!({"type": other})));
        let err = serde_json::from_value::<s::Chunking>(json!({"type": other}))
            .unwrap_err()
            .to_string();
        assert!(err.contains("expected one of `auto`, `static`"), "{err}");
    }
    // The server reads and writes the same.
    let server: s::Chunking = serde_json::from_value(static_.clone()).unwrap();
    assert_eq!(serde_json::to_value(&server).unwrap(), static_);

    // A string beside two kinds of object: the objects by `type`, the string as itself.
    let function = json!({"type": "function", "name": "lookup"});
    let choice: c::ToolChoice = serde_json::from_value(function.clone()).unwrap();
    assert!(
        matches!(&choice, c::ToolChoice::FunctionChoice(f) if f.name == "lookup"),
        "{choice:?}"
    );
    assert_eq!(serde_json::to_value(&choice).unwrap(), function);
    let hosted: c::ToolChoice = serde_json::from_value(json!({"type": "web_search"})).unwrap();
    assert!(matches!(hosted, c::ToolChoice::HostedToolChoice(_)));
    // Without a tag, a variant that would drop members is taken only when no other names
    // them all (found by the echo harness on discord's channel update).
    let update: c::ChannelUpdate =
        serde_json::from_value(json!({"name": "general", "icon": "aWNvbg=="})).unwrap();
    assert!(
        matches!(&update, c::ChannelUpdate::RenameWithIcon(u) if u.icon.as_deref() == Some("aWNvbg==")),
        "{update:?}"
    );
    let rename: c::ChannelUpdate = serde_json::from_value(json!({"name": "general"})).unwrap();
    assert!(matches!(rename, c::ChannelUpdate::Rename(_)), "{rename:?}");
    // A variant named by two tags writes its own, not the first of them (the first would send
    // `web_search` as `file_search`; the echo harness checks this).
    assert_eq!(
        serde_json::to_value(&hosted).unwrap(),
        json!({"type": "web_search"})
    );
    let mode: c::ToolChoice = serde_json::from_value(json!("required")).unwrap();
    assert!(matches!(
        mode,
        c::ToolChoice::String(c::ToolChoiceString::Required)
    ));
    assert_eq!(serde_json::to_value(&mode).unwrap(), json!("required"));

    // An integer property (discord's action types), pinned beside an `allOf` too.
    let flag = json!({"type": 2, "metadata": {"channel": "c1"}});
    let action: c::Action = serde_json::from_value(flag.clone()).unwrap();
    assert!(
        matches!(&action, c::Action::FlagAction(f) if f.metadata.channel == "c1"),
        "{action:?}"
    );
    assert_eq!(serde_json::to_value(&action).unwrap(), flag);
    let block: s::Action = serde_json::from_value(json!({"type": 1})).unwrap();
    assert!(matches!(block, s::Action::BlockAction(_)));
    assert_eq!(
        serde_json::from_value::<c::Action>(json!({"type": 3})).unwrap(),
        c::Action::Unknown(json!({"type": 3}))
    );
    let err = serde_json::from_value::<s::Action>(json!({"type": 3}))
        .unwrap_err()
        .to_string();
    assert!(err.contains("expected one of `1`, `2`"), "{err}");
}

/// Items and map values whose schema admits `null` (api.github.com's gist `files`, its
/// code-scanning `classifications`) are `Option`s: `null` decodes on both sides, and the server
/// checks the items that hold a value.
#[test]
fn items_and_values_that_may_be_null() {
    let sparse = json!({
        "labels": ["ab", null],
        "kinds": ["a", null],
        "files": {"x.txt": {"name": "x.txt"}, "gone.txt": null}
    });
    let client: c::Sparse = serde_json::from_value(sparse.clone()).unwrap();
    assert_eq!(client.labels, Some(vec![Some("ab".into()), None]));
    assert_eq!(client.kinds, Some(vec![Some(c::NullableKind::A), None]));
    assert_eq!(client.files.as_ref().unwrap()["gone.txt"], None);
    assert_eq!(serde_json::to_value(&client).unwrap(), sparse);
    let server: s::Sparse = serde_json::from_value(sparse).unwrap();
    let mut out = Violations::default();
    server.validate("body", &mut out);
    assert!(out.is_empty(), "{out:?}");
    // A present item is still checked (`maxLength: 4`), named by its index.
    let long: s::Sparse = serde_json::from_value(json!({"labels": [null, "toolong"]})).unwrap();
    let mut out = Violations::default();
    long.validate("body", &mut out);
    assert!(format!("{out:?}").contains("body/labels/1"), "{out:?}");
}

/// An answer that leaves the discriminator's property out is read by trying the variants in
/// order, as a union without a discriminator is.
#[test]
fn a_missing_discriminator_property_tries_the_variants() {
    let fish: c::Animal = serde_json::from_value(json!({"fins": 2})).unwrap();
    assert!(matches!(fish, c::Animal::Fish(f) if f.fins == 2));
    let bird: s::Animal = serde_json::from_value(json!({"wings": 2})).unwrap();
    assert!(matches!(bird, s::Animal::Bird(b) if b.wings == 2));
    let tagged: c::Animal = serde_json::from_value(json!({"kind": "fish", "fins": 1})).unwrap();
    assert!(matches!(tagged, c::Animal::Fish(_)));
    assert!(matches!(
        serde_json::from_value::<c::Animal>(json!({"legs": 4})),
        Ok(c::Animal::Unknown(_))
    ));
    let err = serde_json::from_value::<s::Animal>(json!({"legs": 4}))
        .unwrap_err()
        .to_string();
    assert!(err.contains("no variant of `Animal` matched"), "{err}");
}

/// A discriminated union is read as its input streams past. Wherever the tag stands, the
/// entries before it reach the variant as the ones after it do (whole numbers written `2.0`
/// included), the tag reaches the variant's own field for it, a tag of the wrong kind is read
/// as no tag, and an unknown one is refused naming the known ones.
#[test]
fn a_discriminated_union_reads_its_tag_wherever_it_stands() {
    let read =
        |text: &str| constructs_client::runtime::integer::from_slice::<c::Animal>(text.as_bytes());
    // What the client keeps as `Unknown`, the server refuses: its reasons are read there.
    let refuse = |text: &str| {
        let kept = read(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert!(matches!(kept, c::Animal::Unknown(_)), "{text}: {kept:?}");
        constructs_server::runtime::integer::from_slice::<s::Animal>(text.as_bytes())
    };
    for text in [
        r#"{"kind": "fish", "fins": 2}"#,
        r#"{"fins": 2, "kind": "fish"}"#,
        r#"{"fins": 2.0, "kind": "fish", "extra": {"a": [1, 2]}}"#,
        r#"{"extra": null, "fins": 2e0, "kind": "fish"}"#,
    ] {
        let animal = read(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert!(
            matches!(&animal, c::Animal::Fish(f) if f.fins == 2 && f.kind.as_deref() == Some("fish")),
            "{text}: {animal:?}"
        );
    }
    // The kept entries are the variant's to refuse, as the rest are.
    let err = read(r#"{"fins": 2.5, "kind": "fish"}"#)
        .unwrap_err()
        .to_string();
    assert!(err.contains("2.5"), "{err}");
    let err = read(r#"{"kind": "fish"}"#).unwrap_err().to_string();
    assert!(err.contains("missing field `fins`"), "{err}");
    let err = refuse(r#"{"wings": 1, "kind": "cat"}"#)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("unknown `kind` value `cat`; expected one of `bird`, `fish`"),
        "{err}"
    );
    // A tag that is no string is no tag: the variants are tried in order, and the first that
    // reads the object wins (Bird has no `fins`, Fish reads it; `kind` is then no string).
    let err = refuse(r#"{"kind": 7, "fins": 1}"#).unwrap_err().to_string();
    assert!(err.contains("no variant of `Animal` matched"), "{err}");
    let bird = read(r#"{"wings": 2}"#).unwrap();
    assert!(matches!(bird, c::Animal::Bird(b) if b.wings == 2));
    // Not an object at all: tried in order too, and refused by each variant.
    let err = refuse("[1, 2]").unwrap_err().to_string();
    assert!(err.contains("no variant of `Animal` matched"), "{err}");
    // The server's types read the same way.
    let fish: s::Animal = serde_json::from_str(r#"{"fins": 3, "kind": "fish"}"#).unwrap();
    assert!(matches!(fish, s::Animal::Fish(f) if f.fins == 3));
}

#[test]
fn absent_null_and_value_stay_distinct() {
    let absent: c::Patch = serde_json::from_value(json!({"required_nullable": null})).unwrap();
    assert_eq!(absent.optional_nullable, None);
    assert_eq!(absent.required_nullable, None);
    let null: c::Patch =
        serde_json::from_value(json!({"required_nullable": "x", "optional_nullable": null}))
            .unwrap();
    assert_eq!(null.optional_nullable, Some(None));
    let value: c::Patch =
        serde_json::from_value(json!({"required_nullable": "x", "optional_nullable": "y"}))
            .unwrap();
    assert_eq!(value.optional_nullable, Some(Some("y".into())));
    // Written back the same way: absent stays absent, null stays null.
    assert_eq!(
        serde_json::to_value(&null).unwrap(),
        json!({"required_nullable": "x", "optional_nullable": null})
    );
    assert_eq!(
        serde_json::to_value(&absent).unwrap(),
        json!({"required_nullable": null})
    );
    // A required nullable property must be present.
    assert!(serde_json::from_value::<c::Patch>(json!({})).is_err());
}

#[test]
fn read_only_and_write_only_are_never_required() {
    let p: s::Patch = serde_json::from_value(json!({"required_nullable": "x"})).unwrap();
    assert_eq!(p.read_only_id, None);
    assert_eq!(p.secret, None);
}

#[test]
fn extra_properties_beside_declared_ones() {
    let value = json!({"Self": "a", "self": "b", "type": "t", "Type": "T", "2fa": true, "additional_properties": 5, "x": 1, "y": 2});
    let client: c::Client = serde_json::from_value(value.clone()).unwrap();
    assert_eq!(client.self_.as_deref(), Some("a"));
    assert_eq!(client.self_2.as_deref(), Some("b"));
    assert_eq!(client.r#type.as_deref(), Some("t"));
    assert_eq!(client.type_2.as_deref(), Some("T"));
    assert_eq!(client._2fa, Some(true));
    assert_eq!(client.additional_properties_2, Some(5));
    assert_eq!(client.additional_properties.len(), 2);
    assert_eq!(client.additional_properties["x"], 1);
    assert_eq!(serde_json::to_value(&client).unwrap(), value);
    assert!(serde_json::from_value::<c::Client>(json!({"x": "not an integer"})).is_err());
}

#[test]
fn enums_with_odd_values() {
    for wire in [
        "", "a b", "A-B", "+1", "-1", "ÄÖ", "self", "Self", "type", "unknown", "Unknown",
    ] {
        let server: s::Odd = serde_json::from_value(json!(wire)).unwrap();
        assert_eq!(server.as_str(), wire);
        assert_eq!(serde_json::to_value(server).unwrap(), json!(wire));
        let client: c::Odd = serde_json::from_value(json!(wire)).unwrap();
        assert_eq!(client.as_str(), wire);
        assert!(
            !matches!(client, c::Odd::Unknown(_)),
            "{wire} is a known value"
        );
    }
    // The server refuses a value the document does not list; the client keeps it.
    let err = serde_json::from_value::<s::Odd>(json!("new"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("expected one of"), "{err}");
    let kept: c::Odd = serde_json::from_value(json!("new")).unwrap();
    assert_eq!(kept, c::Odd::Unknown("new".into()));
    assert_eq!(serde_json::to_value(&kept).unwrap(), json!("new"));
}

#[test]
fn recursive_types_round_trip() {
    let value = json!({"value": 1, "left": {"value": 2}, "children": [{"value": 3, "right": {"value": 4}}]});
    let tree: c::Tree = serde_json::from_value(value.clone()).unwrap();
    assert_eq!(tree.left.as_ref().map(|t| t.value), Some(2));
    assert_eq!(serde_json::to_value(&tree).unwrap(), value);
}

#[test]
fn constraints_deep_inside_a_body_are_checked_with_pointers() {
    let named: s::Named = serde_json::from_value(json!({
        "inner": {"deep": {"value": "NOT-lower-and-too-long"}},
        "tags": ["a", "a", "b", "c"],
    }))
    .unwrap();
    let mut out = Violations::new();
    named.validate("", &mut out);
    let found: Vec<String> = out
        .as_slice()
        .iter()
        .map(|v| format!("{}: {}", v.pointer, v.message))
        .collect();
    assert!(
        found
            .iter()
            .any(|v| v.starts_with("/inner/deep/value") && v.contains("pattern")),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .any(|v| v.starts_with("/inner/deep/value") && v.contains("8")),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .any(|v| v.starts_with("/tags") && v.contains("3")),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .any(|v| v.starts_with("/tags") && v.contains("unique")),
        "{found:?}"
    );

    let fine: s::Named =
        serde_json::from_value(json!({"inner": {"deep": {"value": "abc"}}, "tags": ["a"]}))
            .unwrap();
    let mut out = Violations::new();
    fine.validate("", &mut out);
    assert!(
        out.is_empty(),
        "{:?}",
        out.as_slice()
            .iter()
            .map(|v| &v.message)
            .collect::<Vec<_>>()
    );
}
