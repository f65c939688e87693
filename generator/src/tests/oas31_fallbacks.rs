//! Unit tests of the 3.1 fallbacks found in public documents: integer bounds beyond 64 bits
//! (openai), named enumerations spelled as `oneOf` of `const`s and `allOf` around them
//! (discord), and the constraints of tuple items.

use super::field;
use crate::diag::Sink;
use crate::ir::{Api, Bound, Constraints, TypeKind, TypeRef};

fn lower(body: &str) -> (Api, Sink) {
    super::lower_text(&format!(
        "openapi: 3.1.0\ninfo: {{title: T, version: '1'}}\n{body}"
    ))
}

fn warnings(sink: &Sink) -> Vec<(String, String)> {
    sink.items
        .iter()
        .map(|d| (d.pointer.clone(), d.message.clone()))
        .collect()
}

#[test]
fn integer_bounds_beyond_64_bits_fall_back_with_a_warning() {
    // openai's `seed`, as written (YAML integers past i64 on both sides).
    let (api, sink) = lower(
        "components:
  schemas:
    Req:
      type: object
      properties:
        seed:
          type: integer
          minimum: -9223372036854776000
          maximum: 9223372036854776000
          nullable: true
        half: {type: integer, exclusiveMinimum: 1.5, maximum: 10.0, multipleOf: 2.0}
        odd: {type: integer, multipleOf: 0.5, enum: [1, 2.0, 2.5, 1e30]}
        huge: {type: integer, format: uint64, maximum: 18446744073709551615}
",
    );
    let seed = field(&api, "Req", "seed");
    assert_eq!(
        (
            seed.constraints.minimum.map(Bound::as_f64),
            seed.constraints.maximum.map(Bound::as_f64)
        ),
        (None, None)
    );
    let half = &field(&api, "Req", "half").constraints;
    assert_eq!(
        (half.minimum.map(Bound::as_f64), half.exclusive_minimum),
        (Some(2.0), false)
    );
    assert_eq!(
        (half.maximum.map(Bound::as_f64), half.multiple_of),
        (Some(10.0), Some(2.0))
    );
    let odd = &field(&api, "Req", "odd").constraints;
    assert_eq!(odd.multiple_of, None);
    assert_eq!(odd.one_of, vec![1.into(), 2.into()]);
    assert_eq!(
        field(&api, "Req", "huge")
            .constraints
            .maximum
            .map(Bound::as_f64),
        None
    );
    let w = warnings(&sink);
    for place in [
        "seed/minimum",
        "seed/maximum",
        "odd/multipleOf",
        "huge/maximum",
    ] {
        let pointer = format!("/components/schemas/Req/properties/{place}");
        assert!(w.iter().any(|(p, _)| *p == pointer), "{pointer} in {w:?}");
    }
    assert_eq!(w.len(), 4, "{w:?}");
}

#[test]
fn yaml_integers_beyond_64_bits_and_tags_are_read() {
    let (api, _) = lower(
        "components:
  schemas:
    N:
      type: object
      properties:
        big: {type: number, minimum: -100000000000000000000, maximum: 100000000000000000000}
        tagged: !custom {type: string}
",
    );
    let big = &field(&api, "N", "big").constraints;
    assert_eq!(
        (
            big.minimum.map(Bound::as_f64),
            big.maximum.map(Bound::as_f64)
        ),
        (Some(-1e20), Some(1e20))
    );
    assert_eq!(field(&api, "N", "tagged").ty, TypeRef::String);
}

const DISCORD: &str = "components:
  schemas:
    ComponentTypes:
      type: integer
      format: int32
      description: The kind of a component.
      oneOf:
        - {title: ACTION_ROW, description: Container for other components, const: 1}
        - {title: BUTTON, const: 2}
        - {const: 3}
    Status:
      oneOf:
        - {title: Online, const: online}
        - {title: Offline, const: offline}
    Row:
      type: object
      required: [type]
      properties:
        type:
          type: integer
          enum: [1]
          allOf:
            - $ref: '#/components/schemas/ComponentTypes'
          format: int32
        any:
          type: integer
          allOf:
            - $ref: '#/components/schemas/ComponentTypes'
            - {minimum: 2}
        status: {$ref: '#/components/schemas/Status'}
";

#[test]
fn const_branches_are_enumerations_and_all_of_around_a_scalar_narrows_it() {
    let (api, sink) = lower(DISCORD);
    assert!(sink.items.is_empty(), "{:?}", warnings(&sink));
    let types = |name: &str| &api.types.iter().find(|t| t.name == name).unwrap().kind;
    let ints = |v: &[i64]| {
        v.iter()
            .map(|&i| i.into())
            .collect::<Vec<serde_json::Number>>()
    };
    match types("ComponentTypes") {
        TypeKind::Alias(TypeRef::I32, c) => assert_eq!(c.one_of, ints(&[1, 2, 3])),
        other => panic!("{other:?}"),
    }
    let doc = &api
        .types
        .iter()
        .find(|t| t.name == "ComponentTypes")
        .unwrap()
        .doc;
    assert_eq!(
        doc.last().map(String::as_str),
        Some("Values: `1` ACTION_ROW (Container for other components); `2` BUTTON; `3`."),
        "{doc:?}"
    );
    match types("Status") {
        TypeKind::Enum(variants) => {
            let wires: Vec<&str> = variants.iter().map(|v| v.wire.as_str()).collect();
            assert_eq!(wires, ["online", "offline"]);
        }
        other => panic!("{other:?}"),
    }
    let ty = field(&api, "Row", "type");
    assert_eq!(
        (&ty.ty, &ty.constraints.one_of),
        (&TypeRef::I32, &ints(&[1]))
    );
    let any = field(&api, "Row", "any");
    assert_eq!(any.ty, TypeRef::I64);
    assert_eq!(
        (
            &any.constraints.one_of,
            any.constraints.minimum.map(Bound::as_f64)
        ),
        (&ints(&[1, 2, 3]), Some(2.0))
    );
}

#[test]
fn narrowing_keeps_the_tighter_bound_and_the_shared_values() {
    let mut c = Constraints {
        minimum: Some(Bound::Number(1.0)),
        maximum: Some(Bound::Integer(10)),
        exclusive_maximum: true,
        one_of: vec![1.into(), 2.into(), 3.into()],
        ..Constraints::default()
    };
    c.narrow(&Constraints {
        minimum: Some(Bound::Integer(1)),
        exclusive_minimum: true,
        maximum: Some(Bound::Number(20.0)),
        one_of: vec![2.into(), 3.into(), 4.into()],
        max_length: Some(3),
        ..Constraints::default()
    });
    assert_eq!(
        (c.minimum.map(Bound::as_f64), c.exclusive_minimum),
        (Some(1.0), true)
    );
    assert_eq!(
        (c.maximum.map(Bound::as_f64), c.exclusive_maximum),
        (Some(10.0), true)
    );
    assert_eq!(c.one_of, vec![2.into(), 3.into()]);
    assert_eq!(c.max_length, Some(3));
}

#[test]
fn integer_bounds_stay_exact_beyond_two_to_the_53() {
    // discord's permissions: `maximum: 18014398509481983`, 2^54 - 1, which an `f64` holds as
    // 2^54. The tighter of two integer bounds is found exactly too.
    let max = (1i64 << 54) - 1;
    let mut c = Constraints {
        maximum: Some(Bound::Integer(max)),
        ..Constraints::default()
    };
    c.narrow(&Constraints {
        maximum: Some(Bound::Integer(max - 1)),
        ..Constraints::default()
    });
    assert_eq!(c.maximum, Some(Bound::Integer(max - 1)));
    assert_eq!(
        Bound::Integer(max).greatest_integer(true),
        Some(i128::from(max) - 1)
    );
    assert_eq!(Bound::Number(2.5).least_integer(false), Some(3));
    assert_eq!(Bound::Number(2.0).least_integer(true), Some(3));
    assert_eq!(Bound::Number(2.5).greatest_integer(true), Some(2));
}

#[test]
fn tuple_items_carry_their_constraints() {
    let (api, _) = lower(
        "components:
  schemas:
    Lat: {type: number, minimum: -90, maximum: 90}
    Point:
      type: object
      required: [at]
      properties:
        at:
          type: array
          prefixItems:
            - $ref: '#/components/schemas/Lat'
            - {type: number, exclusiveMinimum: -180, maximum: 180}
            - {type: string}
          items: false
",
    );
    let at = field(&api, "Point", "at");
    let items = &at.constraints.prefix_items;
    assert_eq!(items.len(), 3);
    assert_eq!(
        (
            items[0].minimum.map(Bound::as_f64),
            items[0].maximum.map(Bound::as_f64)
        ),
        (Some(-90.0), Some(90.0))
    );
    assert_eq!(
        (
            items[1].minimum.map(Bound::as_f64),
            items[1].exclusive_minimum
        ),
        (Some(-180.0), true)
    );
    assert!(items[2].is_empty());
    assert!(
        api.types
            .iter()
            .find(|t| t.name == "Point")
            .unwrap()
            .validated
    );
}

#[test]
fn discriminated_variants_wrapped_for_their_annotations_keep_their_names() {
    // openai: `$ref` variants with a `title` beside them (read as `allOf: [$ref]` + title).
    let (api, sink) = lower(
        "components:
  schemas:
    Tokens:
      type: object
      properties: {type: {type: string}, input: {type: integer}}
    Seconds:
      type: object
      properties: {type: {type: string}, seconds: {type: number}}
    Usage:
      oneOf:
        - {$ref: '#/components/schemas/Tokens', title: Token Usage}
        - {$ref: '#/components/schemas/Seconds', title: Duration Usage}
      discriminator: {propertyName: type}
    Loose:
      oneOf:
        - {type: object, properties: {a: {type: string}}}
        - {type: object, properties: {b: {type: string}}}
      discriminator: {propertyName: kind}
",
    );
    let kind = |name: &str| &api.types.iter().find(|t| t.name == name).unwrap().kind;
    match kind("Usage") {
        TypeKind::OneOf(o) => {
            let d = o.discriminator.as_ref().expect("kept");
            assert_eq!(
                d.mapping,
                vec![("Tokens".to_string(), 0), ("Seconds".to_string(), 1)]
            );
        }
        other => panic!("{other:?}"),
    }
    match kind("Loose") {
        TypeKind::OneOf(o) => assert!(o.discriminator.is_none()),
        other => panic!("{other:?}"),
    }
    let w = warnings(&sink);
    assert_eq!(
        w.iter().map(|(p, _)| p.as_str()).collect::<Vec<_>>(),
        ["/components/schemas/Loose/discriminator"],
        "{w:?}"
    );
}
