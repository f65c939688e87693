//! The runtime's declarations (`object::json!`) expanded as a generated crate expands them:
//! through a module named `runtime`, every form the generator prints.

mod runtime {
    pub use apigen_server_runtime::*;
}

use runtime::object;
use runtime::validate::{Validate, Violations};

object::json! {
    /// An object with no properties and nothing to check.
    #[derive(Debug, Clone, Default, PartialEq)]
    #[json(checks = none)]
    pub struct Empty {}
}

object::json! {
    /// The same, refusing any property.
    #[derive(Debug, Clone, Default, PartialEq)]
    #[json(deny_unknown_fields)]
    #[json(checks = none)]
    pub struct Closed {}
}

object::json! {
    /// A pet with a builder, refusing properties it does not name.
    #[derive(Debug, Clone, PartialEq)]
    #[json(deny_unknown_fields)]
    #[json(checks = none)]
    #[json(new(name: impl Into<String>, parent: Option<Pet>))]
    pub struct Pet {
        #[json("name", required)]
        pub name: String,
        #[json("parent", required_nullable)]
        pub parent: Option<Box<Pet>>,
        #[json("tag", optional_not_null, with_tag: text)]
        pub tag: Option<String>,
        #[json("age", optional_not_null, with_age: into(i64))]
        pub age: Option<i64>,
        #[json("next", optional_nullable, with_next: nullable_boxed(Pet))]
        pub next: Option<Option<Box<Pet>>>,
    }
}

#[test]
fn an_empty_struct_reads_writes_and_checks_nothing() {
    let empty: Empty = serde_json::from_str(r#"{"any": 1}"#).unwrap();
    assert_eq!(serde_json::to_string(&empty).unwrap(), "{}");
    let mut out = Violations::new();
    empty.validate("", &mut out);
    assert!(out.is_empty());
    assert!(serde_json::from_str::<Closed>("{}").is_ok());
    assert!(serde_json::from_str::<Closed>(r#"{"any": 1}"#).is_err());
}

#[test]
fn a_declared_builder_sets_what_it_declares() {
    let pet = Pet::new("Rex", Some(Pet::new("Old", None)))
        .with_tag("good")
        .with_age(3)
        .with_age(None)
        .with_next(None);
    assert_eq!(
        serde_json::to_string(&pet).unwrap(),
        r#"{"name":"Rex","parent":{"name":"Old","parent":null},"tag":"good","next":null}"#
    );
    let read: Pet = serde_json::from_str(&serde_json::to_string(&pet).unwrap()).unwrap();
    assert_eq!(read, pet);
    assert!(serde_json::from_str::<Pet>(r#"{"name":"x","parent":null,"other":1}"#).is_err());
    assert!(serde_json::from_str::<Pet>(r#"{"name":"x"}"#).is_err());
}
