//! The runtime's declarations as a generated client expands them: a union (`unions::json!`),
//! its `Unknown` variant keeping what no variant reads and a union of scalars as a parameter;
//! an operation's error enum (`response::errors!`), each status read into its variant; an
//! operation's optional parameters (`request::parameters!`) writing their query.

mod runtime {
    pub use apigen_client_runtime::*;
}

use runtime::pages::Follow;
use runtime::request::{self, ObjectQuery, Query};
use runtime::response::{self, Raw, errors};
use runtime::style::Style;
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

unions::json! {
    /// An amount kept to its last digit, or a name.
    #[derive(Debug, Clone, PartialEq)]
    pub enum AmountOrName {
        #[json(plain)]
        Amount(runtime::decimal::Decimal),
        #[json(plain)]
        Name(String),
    }
}

unions::json! {
    /// A tagged union whose variant is itself a union, read variant by variant.
    #[derive(Debug, Clone, PartialEq)]
    #[json(tag = "kind")]
    pub enum Nested {
        #[json("dog", whole, own)]
        Dog(Dog),
        #[json("any", plain)]
        Any(Animal),
    }
}

/// A union tries its variants on the value's text, whichever deserializer reached it:
/// serde_json's own (its raw text, every digit kept), a `Value`, a tagged union's stream (a
/// union as its variant), or an object whose tag comes after other members.
#[test]
fn a_union_reads_its_variants_from_the_values_text_from_any_deserializer() {
    let exact: AmountOrName = runtime::integer::from_slice(b"12.500000000000000001").unwrap();
    let AmountOrName::Amount(amount) = exact else {
        panic!("{exact:?}")
    };
    assert_eq!(amount.as_str(), "12.500000000000000001");
    let id: NameOrId = serde_json::from_value(serde_json::json!(7)).unwrap();
    assert_eq!(id, NameOrId::Id(7));
    let whole: NameOrId = runtime::integer::from_slice(b"7.0").unwrap();
    assert_eq!(whole, NameOrId::Id(7));

    let late = r#"{"bark":"woof","kind":"dog"}"#;
    let dog = Animal::Dog(Dog {
        kind: "dog".into(),
        bark: "woof".into(),
    });
    assert_eq!(serde_json::from_str::<Animal>(late).unwrap(), dog);
    let from_value: Animal = serde_json::from_value(serde_json::from_str(late).unwrap()).unwrap();
    assert_eq!(from_value, dog);
    let late_twice = r#"{"bark":"woof","kind":"dog","bark":"yip"}"#;
    let error = serde_json::from_str::<Animal>(late_twice).unwrap_err();
    assert!(
        error.to_string().contains("duplicate field `bark`"),
        "{error}"
    );

    let any: Nested = serde_json::from_str(r#"{"kind":"any","moo":true}"#).unwrap();
    let cow = serde_json::json!({"kind": "any", "moo": true});
    assert_eq!(any, Nested::Any(Animal::Unknown(cow)));
    let late_any: Nested = serde_json::from_str(r#"{"moo":true,"kind":"any"}"#).unwrap();
    assert!(
        matches!(late_any, Nested::Any(Animal::Unknown(_))),
        "{late_any:?}"
    );
}

runtime::enums::string! {
    /// Declared as generated now: each value in a variant's discriminant place.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub enum Status {
        /// `available`
        Available = "available",
        /// The empty string.
        Empty = "",
        #[unknown]
        Unknown(String),
    }
}

runtime::enums::string! {
    /// Declared as a crate generated for an older runtime declared it.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub enum OldStatus {
        /// `available`
        #[json("available")]
        Available,
        Unknown(String),
    }
}

#[test]
fn a_string_enum_reads_and_writes_its_values_in_either_form() {
    let read: Status = serde_json::from_str(r#""available""#).unwrap();
    assert_eq!(read, Status::Available);
    assert_eq!(
        serde_json::from_str::<Status>(r#""""#).unwrap(),
        Status::Empty
    );
    let new: Status = serde_json::from_str(r#""pending""#).unwrap();
    assert_eq!(new, Status::Unknown("pending".into()));
    assert_eq!(serde_json::to_string(&new).unwrap(), r#""pending""#);
    assert_eq!(Status::Available.as_str(), "available");
    let old: OldStatus = serde_json::from_str(r#""available""#).unwrap();
    assert_eq!(old, OldStatus::Available);
    assert_eq!(old.to_param(), "available");
}

object::json! {
    /// Its `new` derived from the fields: every kind of required field, and optional ones.
    #[derive(Debug, Clone, PartialEq)]
    pub struct Kennel {
        #[json("name", required, into)]
        pub name: String,
        #[json("size", required)]
        pub size: u64,
        #[json("note", optional, with_note: text)]
        pub note: Option<String>,
        #[json("owner", required_nullable)]
        pub owner: Option<String>,
        #[json("guard", required, into)]
        pub guard: Box<Dog>,
        #[json("tags", required)]
        pub tags: Vec<String>,
    }
}

object::json! {
    /// Nothing required: no `new`, `Default` is the way to start.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct Leash {
        #[json("length", optional, with_length: into(u64))]
        pub length: Option<u64>,
    }
}

#[test]
fn a_structs_new_is_derived_from_its_required_fields_in_order() {
    let dog = Dog {
        kind: "dog".into(),
        bark: "woof".into(),
    };
    let kennel = Kennel::new("North", 3, None, dog.clone(), vec!["warm".into()]).with_note("hi");
    assert_eq!(kennel.name, "North");
    assert_eq!(kennel.size, 3);
    assert_eq!(kennel.owner, None);
    assert_eq!(*kennel.guard, dog);
    assert_eq!(kennel.note.as_deref(), Some("hi"));
    let boxed = Kennel::new(
        String::from("South"),
        1,
        Some("Ann".into()),
        Box::new(dog),
        vec![],
    );
    assert_eq!(boxed.owner.as_deref(), Some("Ann"));
    assert_eq!(Leash::default().with_length(2u64).length, Some(2));
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
        NotFound(Problem) = 404,
        /// 4XX: Any other client error.
        ClientError(Problem) = 400..=499,
        /// 302: Elsewhere, said in text.
        Found(String) = 302 as text,
        /// Anything else.
        Default(String) = default as text,
    }
}

errors! {
    /// Errors the document does not list, read as its error type when they are one.
    pub enum ListPetsError {
        /// 401: No key.
        Unauthorized(Problem) = 401,
        Undocumented(Problem) = undocumented,
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
        NotFound(Problem) = 404,
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

/// The query a declaration writes: the fields set, in the declaration's order, each in
/// its style; a header's field and an unset one write nothing; `next` fields are set
/// from a link's query.
#[test]
fn optional_parameters_write_their_query_in_order_and_style() {
    #[derive(Debug, Clone, PartialEq, serde::Serialize)]
    struct Color {
        r: u8,
        g: u8,
    }
    request::parameters! {
        /// Options.
        #[derive(Debug, Clone, Default, PartialEq)]
        pub struct Options {
            #[param("page", with_page, query, next)]
            pub page: Option<u32>,
            #[param("X-Trace", with_trace)]
            pub trace: Option<String>,
            #[param("ids", with_ids, query(array, false, '|'))]
            pub ids: Option<Vec<i64>>,
            #[param("tags", with_tags, query(array, true, ','))]
            pub tags: Option<Vec<String>>,
            #[param("filter", with_filter, query(object, ObjectQuery::Deep))]
            pub filter: Option<Color>,
            #[param("color", with_color, query(styled, Style::PipeDelimited, false))]
            pub color: Option<Color>,
            #[param("q", with_q, query, next)]
            pub q: Option<String>,
        }
    }
    assert_eq!(Options::default().query().unwrap(), "");
    let set = Options::default()
        .with_q("a b".to_string())
        .with_trace("t".to_string())
        .with_page(2)
        .with_ids(vec![1, 2])
        .with_tags(vec!["x".to_string(), "y".to_string()])
        .with_filter(Color { r: 1, g: 2 })
        .with_color(Color { r: 3, g: 4 });
    assert_eq!(
        set.query().unwrap(),
        "page=2&ids=1|2&tags=x&tags=y&filter%5Br%5D=1&filter%5Bg%5D=2&color=r|3|g|4&q=a%20b"
    );
    let mut query = Query::new();
    query.append("first", &true);
    set.append_query(&mut query).unwrap();
    assert!(query.finish().starts_with("first=true&page=2&"));

    let mut next = Options::default().with_trace("kept".to_string());
    next.follow("page", "3");
    next.follow("q", "b");
    next.follow("ids", "9");
    next.follow("elsewhere", "1");
    assert_eq!(next.page, Some(3));
    assert_eq!(next.q.as_deref(), Some("b"));
    assert_eq!(next.ids, None);
    assert_eq!(next.trace.as_deref(), Some("kept"));
    next.follow("page", "not a number");
    assert_eq!(next.page, None);
}

/// A type name too long for one line is printed `Option<\n Type,\n>`: the declaration
/// takes the trailing comma.
#[test]
fn optional_parameters_declare_a_setter_each() {
    type AVeryLongTypeNameThatAPrinterWrapsOntoALineOfItsOwnWithATrailingComma = u32;
    request::parameters! {
        /// Options.
        #[derive(Debug, Clone, Default, PartialEq)]
        pub struct Options {
            #[param("limit", with_limit)]
            pub limit: Option<i64>,
            #[param("long", with_long)]
            pub long: Option<
                AVeryLongTypeNameThatAPrinterWrapsOntoALineOfItsOwnWithATrailingComma,
            >,
        }
    }
    let set = Options::default().with_limit(3).with_long(Some(7));
    assert_eq!(set.limit, Some(3));
    assert_eq!(set.long, Some(7));
    assert_eq!(set.with_limit(None).limit, None);
}

response::headers! {
    /// Headers of an answer.
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct AnswerHeaders {
        /// A link.
        #[header("link")]
        pub link: Option<String>,
        #[header("x-count")]
        pub count: Option<i64>,
        #[header("x-ids", list)]
        pub ids: Option<Vec<u32>>,
    }
}

/// A declared header struct reads each header as its type; one that is absent or does not
/// parse is `None`, the others still read.
#[test]
fn declared_headers_read_each_or_none() {
    let mut map = http::HeaderMap::new();
    map.insert("link", "<https://x/?page=2>; rel=\"next\"".parse().unwrap());
    map.insert("x-count", " 42 ".parse().unwrap());
    map.insert("x-ids", "1, 2,3".parse().unwrap());
    let read = AnswerHeaders::from_headers(&map);
    assert_eq!(
        read.link.as_deref(),
        Some("<https://x/?page=2>; rel=\"next\"")
    );
    assert_eq!(read.count, Some(42));
    assert_eq!(read.ids, Some(vec![1, 2, 3]));
    map.insert("x-count", "many".parse().unwrap());
    map.insert("x-ids", "1, two".parse().unwrap());
    map.remove("link");
    assert_eq!(AnswerHeaders::from_headers(&map), AnswerHeaders::default());
}
