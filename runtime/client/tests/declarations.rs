//! The runtime's declarations as a generated client expands them: a union (`unions::json!`),
//! its `Unknown` variant keeping what no variant reads and a union of scalars as a parameter;
//! an operation's error enum (`response::errors!`), each status read into its variant.

mod runtime {
    pub use apigen_client_runtime::*;
}

use runtime::response::{Raw, errors};
use runtime::{Error, ToParam, object, unions};

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

/// The document's error shape.
#[derive(Debug, Clone, PartialEq, serde::Deserialize, serde::Serialize)]
pub struct Problem {
    pub code: String,
}

errors! {
    /// Every kind of answer: codes, a range around one of them, text, `default`, and a sunset.
    #[gone("getPet", "listPets")]
    pub enum GetPetError {
        /// 404: No such animal.
        #[status(404)]
        NotFound(Problem),
        /// 4XX: Any other client error.
        #[status(400..=499)]
        ClientError(Problem),
        /// 302: Elsewhere, said in text.
        #[status(302, text)]
        Found(String),
        /// Anything else.
        #[status(default, text)]
        Default(String),
    }
}

errors! {
    /// Errors the document does not list, read as its error type when they are one.
    pub enum ListPetsError {
        /// 401: No key.
        #[status(401)]
        Unauthorized(Problem),
        #[status(undocumented)]
        Undocumented(Problem),
    }
}

errors! {
    /// No documented error at all.
    pub enum PingError {}
}

fn raw(status: u16, body: &str) -> Raw {
    Raw {
        status: http::StatusCode::from_u16(status).unwrap(),
        headers: http::HeaderMap::new(),
        body: bytes::Bytes::copy_from_slice(body.as_bytes()),
    }
}

fn body<E: std::fmt::Debug>(error: Error<E>) -> E {
    match error {
        Error::Api { body, .. } => body,
        other => panic!("not a documented error: {other:?}"),
    }
}

#[test]
fn each_status_is_read_into_its_variant_codes_before_ranges() {
    let problem = || Problem { code: "x".into() };
    let found = |s, b| body::<GetPetError>(raw(s, b).error());
    assert_eq!(
        found(404, r#"{"code":"x"}"#),
        GetPetError::NotFound(problem())
    );
    assert_eq!(
        found(409, r#"{"code":"x"}"#),
        GetPetError::ClientError(problem())
    );
    assert_eq!(
        found(302, "see there"),
        GetPetError::Found("see there".into())
    );
    assert_eq!(found(503, "down"), GetPetError::Default("down".into()));
    // The sunset's 410 comes before `default` but after the codes and ranges, and the 4XX
    // range above takes it: a document that describes a 410 itself is read as it says.
    assert_eq!(
        found(410, r#"{"code":"x"}"#),
        GetPetError::ClientError(problem())
    );
    // A documented JSON body that is not one is a decode error, not a variant.
    assert!(matches!(
        raw(404, "oops").error::<GetPetError>(),
        Error::Decode { .. }
    ));
}

#[test]
fn an_undocumented_error_is_read_as_the_documents_type_when_it_is_one() {
    let error = |s, b| raw(s, b).error::<ListPetsError>();
    assert_eq!(
        body(error(401, r#"{"code":"no"}"#)),
        ListPetsError::Unauthorized(Problem { code: "no".into() })
    );
    assert_eq!(
        body(error(500, r#"{"code":"down"}"#)),
        ListPetsError::Undocumented(Problem {
            code: "down".into()
        })
    );
    assert!(matches!(
        error(500, "<html>"),
        Error::UnexpectedStatus { .. }
    ));
    assert!(matches!(
        raw(500, "").error::<PingError>(),
        Error::UnexpectedStatus { .. }
    ));
}

errors! {
    /// A sunset with no 4XX described: the 410 is `Gone`, naming the replacement.
    #[gone("getPet", "listPets")]
    pub enum GetPetSunsetError {
        /// 404: No such animal.
        #[status(404)]
        NotFound(Problem),
    }
}

#[test]
fn past_its_sunset_a_410_is_gone_naming_the_replacement() {
    match raw(410, "").error::<GetPetSunsetError>() {
        Error::Gone {
            operation,
            replacement,
            ..
        } => assert_eq!((operation, replacement), ("getPet", Some("listPets"))),
        other => panic!("not gone: {other:?}"),
    }
}
