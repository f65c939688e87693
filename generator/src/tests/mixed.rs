//! Unit tests of the schema view (`lower/schema/view.rs`): a schema with a keyword of another
//! type beside its own (which openapiv3 reads as a different kind) lowers as the schema
//! without it; a union's keyword is kept whatever stands beside it.

use crate::ir::{Api, TypeDef, TypeKind, TypeRef};

/// The document with `Plain` and `Mixed` as component schemas (YAML flow mappings), lowered.
fn lower_pair(plain: &str, mixed: &str) -> Api {
    let text = format!(
        "openapi: 3.0.3\ninfo: {{title: T, version: '1'}}\npaths: {{}}\n\
         components:\n  schemas:\n    Plain: {plain}\n    Mixed: {mixed}\n"
    );
    let (api, sink) = super::lower_text(&text);
    assert!(!sink.has_errors(), "{:?}", sink.items);
    api
}

fn def<'a>(api: &'a Api, name: &str) -> &'a TypeDef {
    api.types
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no type {name}"))
}

/// `Mixed` (= `Plain` and `extra`) lowers to what `Plain` does, constraints included.
fn same_as_plain(plain: &str, extra: &str) -> TypeKind {
    let mixed = format!(
        "{}, {extra}}}",
        plain.strip_suffix('}').expect("a flow mapping")
    );
    let api = lower_pair(plain, &mixed);
    let (p, m) = (&def(&api, "Plain").kind, &def(&api, "Mixed").kind);
    // Equal string enums are one type (`share_equal_enums`): `Mixed` names `Plain`'s.
    if let TypeKind::Alias(TypeRef::Named(n), _) = m {
        assert!(
            matches!(p, TypeKind::Enum(_)) && n == "Plain",
            "{plain} beside {extra}"
        );
        return p.clone();
    }
    assert_eq!(format!("{p:?}"), format!("{m:?}"), "{plain} beside {extra}");
    p.clone()
}

#[test]
fn an_array_beside_a_string_keyword_keeps_its_item_count() {
    let kind = same_as_plain(
        "{type: array, items: {type: string, nullable: true}, minItems: 1, uniqueItems: true}",
        "maxLength: 3",
    );
    let TypeKind::Alias(TypeRef::Vec(item), c) = kind else {
        panic!("{kind:?}")
    };
    assert!(matches!(*item, TypeRef::Nullable(_)), "{item:?}");
    assert_eq!((c.min_items, c.unique_items), (Some(1), true));
}

#[test]
fn a_map_beside_a_string_keyword_is_a_map() {
    let kind = same_as_plain(
        "{type: object, additionalProperties: {type: integer, minimum: 2}}",
        "minLength: 1",
    );
    let TypeKind::Alias(TypeRef::Map(value), c) = kind else {
        panic!("{kind:?}")
    };
    assert_eq!(*value, TypeRef::I64);
    assert!(c.each.is_some_and(|each| each.minimum.is_some()));
}

#[test]
fn a_string_enum_beside_a_number_keyword_is_an_enum() {
    let kind = same_as_plain("{type: string, enum: [a, b]}", "minimum: 1");
    assert!(
        matches!(&kind, TypeKind::Enum(v) if v.len() == 2),
        "{kind:?}"
    );
}

#[test]
fn a_string_format_beside_a_number_keyword_is_checked() {
    let kind = same_as_plain("{type: string, format: uri, maxLength: 9}", "maximum: 5");
    let TypeKind::Alias(TypeRef::String, c) = kind else {
        panic!("{kind:?}")
    };
    assert_eq!(c.checked_format.as_deref(), Some("uri"));
}

#[test]
fn integer_formats_read_the_same_beside_other_keywords() {
    for format in ["int32", "int64", "uint8", "uint64", "int16"] {
        let api = lower_pair(
            &format!("{{type: integer, format: {format}}}"),
            &format!("{{type: integer, format: {format}, maxLength: 2}}"),
        );
        let ty = |name| match &def(&api, name).kind {
            TypeKind::Alias(ty, _) => ty.clone(),
            other => panic!("{other:?}"),
        };
        assert_eq!(ty("Plain"), ty("Mixed"), "{format}");
    }
}

#[test]
fn an_any_of_beside_a_keyword_keeps_its_keyword_in_pointers() {
    let union = "anyOf: [{type: object, properties: {a: {type: string}}}, \
                 {type: object, properties: {b: {type: string}}}]";
    let api = lower_pair(
        &format!("{{{union}}}"),
        &format!("{{{union}, maxProperties: 3}}"),
    );
    for owner in ["Plain", "Mixed"] {
        let TypeKind::OneOf(o) = &def(&api, owner).kind else {
            panic!("{owner} is no union")
        };
        let TypeRef::Named(first) = &o.variants[0].ty else {
            panic!("{:?}", o.variants[0].ty)
        };
        let origin = &def(&api, first).origin;
        assert_eq!(
            origin,
            &format!("/components/schemas/{owner}/anyOf/0"),
            "{owner}"
        );
    }
}
