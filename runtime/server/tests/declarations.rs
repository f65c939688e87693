//! The runtime's declarations (`object::json!`, `unions::json!`, `response::answers!`,
//! `params::declare!`) expanded as a generated crate expands them: through a module named
//! `runtime`, every form the generator prints.

mod runtime {
    pub use apigen_server_runtime::*;
}

use runtime::problem::Problem;
use runtime::response::IntoHttp;
use runtime::validate::{Validate, Violations};
use runtime::{object, response, unions};

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

object::json! {
    /// A cat, which names its own tag.
    #[derive(Debug, Clone, PartialEq)]
    #[json(checks = none)]
    pub struct Cat {
        #[json("kind", required)]
        pub kind: String,
        #[json("lives", required)]
        pub lives: i64,
    }
}

object::json! {
    /// A dog.
    #[derive(Debug, Clone, PartialEq)]
    #[json(checks = none)]
    pub struct Dog {
        #[json("bark", required)]
        pub bark: String,
    }
}

unions::json! {
    /// Tagged by `kind`: a cat under two tags writes its own; a dog (boxed) the first it lists;
    /// a name no tag names writes `"Named"`.
    #[derive(Debug, Clone, PartialEq)]
    #[json(tag = "kind")]
    pub enum Animal {
        #[json("cat", "kitten", whole, own)]
        Cat(Cat),
        #[json("dog", "puppy", whole_boxed)]
        Dog(Box<Dog>),
        #[json(whole, writes "Named")]
        Named(Pet),
    }
}

impl Validate for Animal {
    fn validate(&self, _pointer: &str, _out: &mut Violations) {}
}

unions::json! {
    /// Tagged by an integer.
    #[derive(Debug, Clone, PartialEq)]
    #[json(tag = "version", integer)]
    pub enum Versioned {
        #[json(1, whole)]
        One(Dog),
        #[json(2, whole)]
        Two(Cat),
    }
}

unions::json! {
    /// Untagged, checked in order, read from a parameter's text: a short text is `Short`,
    /// a longer one `Long`, a number `Number`.
    #[derive(Debug, Clone, PartialEq)]
    #[json(checked, from_param)]
    pub enum Word {
        #[json(plain)]
        Short(String),
        #[json(plain)]
        Long(String),
        #[json(plain)]
        Number(i64),
    }
}

impl Validate for Word {
    fn validate(&self, pointer: &str, out: &mut Violations) {
        if let Word::Short(text) = self {
            runtime::validate::check_max_length(text, 3, pointer, out);
        }
    }
}

#[test]
fn a_tagged_union_reads_by_its_tag_and_writes_it() {
    let cat: Animal = serde_json::from_str(r#"{"kind": "kitten", "lives": 9}"#).unwrap();
    assert_eq!(
        cat,
        Animal::Cat(Cat {
            kind: "kitten".into(),
            lives: 9
        })
    );
    assert_eq!(
        serde_json::to_string(&cat).unwrap(),
        r#"{"kind":"kitten","lives":9}"#
    );
    let dog: Animal = serde_json::from_str(r#"{"bark": "woof", "kind": "puppy"}"#).unwrap();
    assert_eq!(
        dog,
        Animal::Dog(Box::new(Dog {
            bark: "woof".into()
        }))
    );
    assert_eq!(
        serde_json::to_string(&dog).unwrap(),
        r#"{"kind":"dog","bark":"woof"}"#
    );
    // No tag: the variants in order.
    let named: Animal = serde_json::from_str(r#"{"name": "Rex", "parent": null}"#).unwrap();
    assert_eq!(named, Animal::Named(Pet::new("Rex", None)));
    assert_eq!(
        serde_json::to_string(&named).unwrap(),
        r#"{"kind":"Named","name":"Rex","parent":null}"#
    );
    // An unlisted tag: refused, naming those listed.
    let refused = serde_json::from_str::<Animal>(r#"{"kind": "cow"}"#).unwrap_err();
    assert!(
        refused
            .to_string()
            .contains("expected one of `cat`, `kitten`, `dog`, `puppy` at"),
        "{refused}"
    );
    let none = serde_json::from_str::<Animal>("[1]")
        .unwrap_err()
        .to_string();
    assert!(
        none.contains("no variant of `Animal` matched: Cat: ") && none.contains("; Dog: "),
        "{none}"
    );
}

#[test]
fn an_integer_tag_names_its_variant() {
    // Tried in order, `One` (a dog) would read it first: the tag says `Two`.
    let two: Versioned =
        serde_json::from_str(r#"{"version": 2, "bark": "b", "kind": "c", "lives": 1}"#).unwrap();
    assert!(matches!(two, Versioned::Two(_)));
    assert_eq!(
        serde_json::to_string(&two).unwrap(),
        r#"{"version":2,"kind":"c","lives":1}"#
    );
    let refused = serde_json::from_str::<Versioned>(r#"{"version": 3}"#).unwrap_err();
    assert!(
        refused.to_string().contains("expected one of `1`, `2`"),
        "{refused}"
    );
    assert!(serde_json::from_str::<Versioned>(r#"{"version": 3}"#).is_err());
}

#[test]
fn a_checked_union_is_the_first_variant_the_value_passes() {
    use runtime::params::FromParam;
    let short: Word = serde_json::from_str(r#""abc""#).unwrap();
    assert_eq!(short, Word::Short("abc".into()));
    let long: Word = serde_json::from_str(r#""abcd""#).unwrap();
    assert_eq!(long, Word::Long("abcd".into()));
    assert_eq!(Word::from_param("ab").unwrap(), Word::Short("ab".into()));
    assert_eq!(
        Word::from_param("abcdef").unwrap(),
        Word::Long("abcdef".into())
    );
    assert_eq!(serde_json::to_string(&Word::Number(7)).unwrap(), "7");
}

/// The headers one answer documents, written as the generated crate writes them.
#[derive(Debug, Clone, PartialEq)]
pub struct CreatedHeaders {
    pub location: String,
}

impl CreatedHeaders {
    pub(crate) fn write(&self, response: &mut axum::response::Response) -> Result<(), Problem> {
        response::set_header(response, "location", &self.location)
    }
}

response::answers! {
    /// Every way an answer is written.
    #[derive(Debug)]
    pub enum EveryAnswer {
        /// 200: JSON.
        Ok(Vec<i64>) = json(200),
        /// 201: JSON and a header.
        Created(Vec<i64>, CreatedHeaders) = json(201, headers),
        /// 202: no body, a header.
        Accepted(CreatedHeaders) = empty(202, headers),
        /// 204: nothing.
        NoContent = empty(204),
        /// 299: a code without a constant, JSON under the document's own type.
        Odd(Vec<i64>) = json_as(299, "application/problem+json"),
        /// 4XX: the status held, the body as text.
        ClientError(http::StatusCode, String) = text(held, "text/plain"),
        /// default: the status held, bytes and a header.
        Default(http::StatusCode, Vec<u8>, CreatedHeaders) = bytes(held, "image/png", headers),
        /// 5XX: the status alone.
        ServerError(http::StatusCode) = empty(held),
        /// 418: as the printer writes a declaration too long for its line.
        Teapot(
            Vec<i64>,
            CreatedHeaders,
        ) = json_as(
            418,
            "application/problem+json",
            headers,
        ),
        Unimplemented = unimplemented(
            "every",
        ),
    }
}

async fn written(answer: EveryAnswer) -> (u16, Option<String>, Option<String>, Vec<u8>) {
    let response = answer.into_http().expect("written");
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .map(|v| v.to_str().unwrap().to_string())
    };
    let (status, content_type, location) = (
        response.status().as_u16(),
        header("content-type"),
        header("location"),
    );
    let body = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .unwrap();
    (status, content_type, location, body.to_vec())
}

#[tokio::test]
async fn each_answer_is_written_with_its_status_body_and_headers() {
    let here = || CreatedHeaders {
        location: "/pets/7".into(),
    };
    let json = Some("application/json".to_string());
    assert_eq!(
        written(EveryAnswer::Ok(vec![1, 2])).await,
        (200, json.clone(), None, b"[1,2]".to_vec())
    );
    assert_eq!(
        written(EveryAnswer::Created(vec![7], here())).await,
        (201, json, Some("/pets/7".into()), b"[7]".to_vec())
    );
    assert_eq!(
        written(EveryAnswer::Accepted(here())).await,
        (202, None, Some("/pets/7".into()), vec![])
    );
    assert_eq!(
        written(EveryAnswer::NoContent).await,
        (204, None, None, vec![])
    );
    let odd = written(EveryAnswer::Odd(vec![])).await;
    assert_eq!(
        (odd.0, odd.1.as_deref()),
        (299, Some("application/problem+json"))
    );
    let teapot = http::StatusCode::IM_A_TEAPOT;
    assert_eq!(
        written(EveryAnswer::ClientError(teapot, "short and stout".into())).await,
        (
            418,
            Some("text/plain".into()),
            None,
            b"short and stout".to_vec()
        )
    );
    let png = written(EveryAnswer::Default(teapot, vec![137, 80], here())).await;
    assert_eq!(
        png,
        (
            418,
            Some("image/png".into()),
            Some("/pets/7".into()),
            vec![137, 80]
        )
    );
    let failed = http::StatusCode::BAD_GATEWAY;
    assert_eq!(
        written(EveryAnswer::ServerError(failed)).await,
        (502, None, None, vec![])
    );
    // Written as declared when the declaration is wrapped over lines (trailing commas).
    let (status, media, location, _) = written(EveryAnswer::Teapot(vec![], here())).await;
    assert_eq!(
        (status, media.as_deref(), location.is_some()),
        (418, Some("application/problem+json"), true)
    );
    let unimplemented = EveryAnswer::Unimplemented.into_http().unwrap_err();
    assert_eq!(unimplemented.status, http::StatusCode::NOT_IMPLEMENTED);
}

#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
struct Color {
    r: u8,
    g: u8,
}

use runtime::params::{ObjectQuery, Style};

runtime::params::declare! {
    /// Every read form a generated struct declares.
    #[derive(Debug, Clone, PartialEq)]
    pub struct EveryForm {
        /// A path parameter.
        #[param(required, path("id"))]
        pub id: i64,
        #[param(default(20), query("limit"))]
        pub limit: i32,
        #[param(optional, query("q"))]
        pub q: Option<String>,
        #[param(optional, query("tag"), array(true))]
        pub tag: Option<Vec<String>>,
        #[param(required, query("ids"), delimited(false, '|'))]
        pub ids: Vec<i64>,
        #[param(optional, query("filter"), object(ObjectQuery::Deep))]
        pub filter: Option<Color>,
        #[param(required, header("X-Color"), styled_object(Style::Simple, false))]
        pub color: Color,
        #[param(optional, header("X-Flag"))]
        pub flag: Option<bool>,
        #[param(optional, cookie("session"), as_sent)]
        pub session: Option<String>,
        #[param(optional, path("label"), styled(Style::Simple))]
        pub label: Option<String>,
    }
}

runtime::params::declare! {
    /// No parameters (yet).
    #[derive(Debug, Clone, Default, PartialEq)]
    pub struct NoParams {}
}

fn request_parts(uri: &str, headers: &[(&str, &str)]) -> http::request::Parts {
    let mut request = http::Request::builder().uri(uri);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.body(()).unwrap().into_parts().0
}

/// A declared parameter struct reads each field by the form its words name; a request missing
/// a required one and holding a bad one is refused with both problems at once. `PATH` says
/// whether the path's values are needed; a struct without fields reads nothing.
#[test]
fn declared_parameters_read_every_form_and_report_every_failure() {
    use runtime::params::{PathParams, RawParams, Read};
    const { assert!(EveryForm::PATH) };
    const { assert!(!NoParams::PATH) };
    let parts = request_parts("/x", &[]);
    assert_eq!(
        NoParams::read(&RawParams::from_parts(&parts, PathParams::none())).unwrap(),
        NoParams {}
    );
    let parts = request_parts(
        "/x?limit=5&tag=a&tag=b&ids=1|2&filter[r]=1&filter[g]=2",
        &[("x-color", "r,3,g,4"), ("cookie", "session=s%20t")],
    );
    let path: PathParams = [("id".to_string(), "7".to_string())].into_iter().collect();
    let read = EveryForm::read(&RawParams::from_parts(&parts, path)).unwrap();
    assert_eq!(
        read,
        EveryForm {
            id: 7,
            limit: 5,
            q: None,
            tag: Some(vec!["a".into(), "b".into()]),
            ids: vec![1, 2],
            filter: Some(Color { r: 1, g: 2 }),
            color: Color { r: 3, g: 4 },
            flag: None,
            session: Some("s%20t".into()),
            label: None,
        }
    );

    // No `id`, no `X-Color`, a bad `limit`: the default is not taken for a value sent wrong,
    // and every failure is listed.
    let parts = request_parts("/x?limit=many&ids=1", &[]);
    let problem = EveryForm::read(&RawParams::from_parts(&parts, PathParams::none())).unwrap_err();
    assert_eq!(problem.status, http::StatusCode::BAD_REQUEST);
    let at: Vec<&str> = problem
        .violations
        .iter()
        .map(|v| v.pointer.as_str())
        .collect();
    assert_eq!(
        at,
        ["path/id", "query/limit", "header/X-Color"],
        "{problem:?}"
    );
}
