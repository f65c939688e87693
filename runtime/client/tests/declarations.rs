//! The runtime's union declaration (`unions::json!`) as a generated client expands it: the
//! `Unknown` variant keeping what no variant reads, and a union of scalars as a parameter.

mod runtime {
    pub use apigen_client_runtime::*;
}

use runtime::{ToParam, object, unions};

object::json! {
    /// A dog.
    #[derive(Debug, Clone, PartialEq)]
    pub struct Dog {
        #[json("kind", required)]
        pub kind: String,
        #[json("bark", required)]
        pub bark: String,
    }
}

unions::json! {
    /// Tagged by `kind`; a newer server's animals kept as sent.
    #[derive(Debug, Clone, PartialEq)]
    #[json(tag = "kind")]
    pub enum Animal {
        #[json("dog", whole, own)]
        Dog(Dog),
        #[unknown]
        Unknown(serde_json::Value),
    }
}

unions::json! {
    /// A number or a name, as a query parameter.
    #[derive(Debug, Clone, PartialEq)]
    #[json(to_param)]
    pub enum NameOrId {
        #[json(plain)]
        Id(i64),
        #[json(plain)]
        Name(String),
        #[unknown]
        Unknown(serde_json::Value),
    }
}

#[test]
fn an_unlisted_tag_or_shape_is_kept_and_written_back() {
    let cow = r#"{"kind":"cow","moo":true}"#;
    let read: Animal = serde_json::from_str(cow).unwrap();
    assert_eq!(read, Animal::Unknown(serde_json::from_str(cow).unwrap()));
    assert_eq!(serde_json::to_string(&read).unwrap(), cow);
    let dog: Animal = serde_json::from_str(r#"{"kind":"dog","bark":"woof"}"#).unwrap();
    assert!(matches!(dog, Animal::Dog(_)));
    let odd: NameOrId = serde_json::from_str("[1]").unwrap();
    assert_eq!(odd, NameOrId::Unknown(serde_json::json!([1])));
}

#[test]
fn a_union_of_scalars_is_written_as_text() {
    let id: NameOrId = serde_json::from_str("7").unwrap();
    assert_eq!(id, NameOrId::Id(7));
    assert_eq!(id.to_param(), "7");
    assert_eq!(NameOrId::Name("rex".into()).to_param(), "rex");
    assert_eq!(NameOrId::Unknown(serde_json::json!("x")).to_param(), "x");
    assert_eq!(NameOrId::Unknown(serde_json::json!([1])).to_param(), "[1]");
}
