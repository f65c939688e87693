//! Numbers by `format`: those that keep every digit (`decimal`, `decimal128`, the integers
//! wider than 64 bits) and the one place they cannot (a union's trial), which is warned of.

use super::{field, lower_text};
use crate::ir::TypeRef;

const DOC: &str = r#"
openapi: 3.0.3
info: {title: Numbers, version: '1'}
paths: {}
components:
  schemas:
    Money:
      type: object
      properties:
        amount: {type: number, format: decimal}
        rate: {type: number, format: decimal128}
        huge: {type: integer, format: int128}
        unsigned: {type: integer, format: uint128}
        big: {type: integer, format: bigint}
        plain: {type: number}
        text: {type: string, format: decimal}
    AmountOrCode:
      oneOf:
        - $ref: '#/components/schemas/Money'
        - {type: string}
"#;

#[test]
fn decimal_formats_keep_every_digit() {
    let (api, _) = lower_text(DOC);
    let ty = |name: &str| field(&api, "Money", name).ty.clone();
    assert_eq!(ty("amount"), TypeRef::Decimal);
    assert_eq!(ty("rate"), TypeRef::Decimal);
    assert_eq!(ty("huge"), TypeRef::BigInt);
    assert_eq!(ty("unsigned"), TypeRef::BigInt);
    assert_eq!(ty("big"), TypeRef::BigInt);
    assert_eq!(ty("plain"), TypeRef::F64);
    // A decimal written as a string stays the string, held to a number's grammar.
    let text = field(&api, "Money", "text");
    assert_eq!(text.ty, TypeRef::String);
    assert_eq!(text.constraints.checked_format.as_deref(), Some("decimal"));
}

/// A union reads its variants from the value's text, so a decimal inside one keeps every
/// digit (apigen-client-runtime 0.4): nothing to warn of.
#[test]
fn a_decimal_inside_a_union_is_not_warned_of() {
    let (_, sink) = lower_text(DOC);
    assert!(
        !sink.items.iter().any(|d| d.message.contains("union")),
        "{:?}",
        sink.items
    );
}
