//! tests/fixtures/adversarial.yaml over loopback HTTP: parameters, properties, schemas and
//! operations named like the generated code's own locals, methods and imports, and like
//! prelude names. That both crates compile (with `-D warnings`) is half of the proof; these
//! calls are the other half: every value still reaches its own place.

mod common;

use adversarial_client::client::{
    CloneError, CloneOptions, HandleErrorOptions, Path2Options, PlaceholdersError,
    PlaceholdersOptions, Raw2Options, ResultOptions,
};
use adversarial_client::{Client, Error, types as ct};
use adversarial_server::api::*;
use adversarial_server::{AdversarialApi, RequestContext, ServerConfig, StaticKeys, types};
use serde_json::json;
use std::net::SocketAddr;

struct Service;

fn value(v: serde_json::Value) -> types::Value {
    serde_json::from_value(v).expect("a Value")
}

impl AdversarialApi for Service {
    type Error = String;

    async fn path(
        &self,
        _ctx: &RequestContext,
        params: Path2Params,
    ) -> Result<Path2Response, String> {
        let echo = value(json!({
            "path": params.path,
            "raw": params.raw,
            "query": params.query,
            "errors": params.errors,
            "out": params.out,
            "body": params.body,
            "cookie": params.cookie,
            "cookies": params.cookies,
        }));
        let headers = Path2OkHeaders {
            response: Some(format!("r-{}", params.raw)),
            value: Some(params.raw * 2),
        };
        Ok(Path2Response::Ok(echo, headers))
    }

    async fn raw(
        &self,
        _ctx: &RequestContext,
        params: Raw2Params,
        body: types::Result2,
    ) -> Result<Raw2Response, String> {
        let echo = value(json!({
            "http": params.http,
            "base": params.base,
            "ctx": params.ctx,
            "builder": params.builder,
            "options": params.options,
            "values": params.values,
            "at": params.at,
            "params": params.params,
            "type": params.r#type.map(|k| k.as_str().to_string()),
            "self": params.self_,
            "result": body,
        }));
        Ok(Raw2Response::Created(echo))
    }

    async fn handle_error_2(
        &self,
        _ctx: &RequestContext,
        params: HandleErrorParams,
    ) -> Result<HandleErrorResponse, String> {
        let all = [
            params.api,
            params.parts,
            params.request,
            params.response,
            params.rt,
            params.scheme,
            params.serve,
            params.media,
            params.outcome,
            params.error,
            params.body_limit,
        ];
        let expected = [
            "api",
            "parts",
            "request",
            "response",
            "rt",
            "scheme",
            "serve",
            "media",
            "outcome",
            "error",
            "body_limit",
        ];
        let all: Vec<String> = all.into_iter().map(Option::unwrap_or_default).collect();
        if all == expected && params.value == Some(3) {
            Ok(HandleErrorResponse::NoContent)
        } else {
            Err(format!(
                "parameters out of place: {all:?} {:?}",
                params.value
            ))
        }
    }

    async fn builder_2(
        &self,
        _ctx: &RequestContext,
        _params: BuilderParams,
    ) -> Result<BuilderResponse, String> {
        Ok(BuilderResponse::Ok(vec![types::String2 {
            value: Some("v".into()),
            string: Some("s".into()),
        }]))
    }

    async fn for_server_2(
        &self,
        _ctx: &RequestContext,
        _params: ForServerParams,
    ) -> Result<ForServerResponse, String> {
        let inner = types::Box2 {
            r#box: None,
            box_2: Some("inner".into()),
        };
        Ok(ForServerResponse::Ok(types::Box2 {
            r#box: Some(Box::new(inner)),
            box_2: Some("outer".into()),
        }))
    }

    async fn base_url_2(
        &self,
        _ctx: &RequestContext,
        _params: BaseUrlParams,
    ) -> Result<BaseUrlResponse, String> {
        Ok(BaseUrlResponse::Ok(types::String2 {
            value: None,
            string: Some("base".into()),
        }))
    }

    async fn last_rate_limit_2(
        &self,
        _ctx: &RequestContext,
        _params: LastRateLimitParams,
    ) -> Result<LastRateLimitResponse, String> {
        Ok(LastRateLimitResponse::Ok(types::Option2::S2(types::S2 {
            s: 5,
        })))
    }

    async fn router(
        &self,
        _ctx: &RequestContext,
        _params: RouterParams,
    ) -> Result<RouterResponse, String> {
        Ok(RouterResponse::NoContent)
    }

    async fn rate_limit_policy(
        &self,
        _ctx: &RequestContext,
        _params: RateLimitPolicyParams,
    ) -> Result<RateLimitPolicyResponse, String> {
        Ok(RateLimitPolicyResponse::NoContent)
    }

    async fn serve_path(
        &self,
        _ctx: &RequestContext,
        _params: ServePathParams,
    ) -> Result<ServePathResponse, String> {
        Ok(ServePathResponse::NoContent)
    }

    async fn api(&self, _ctx: &RequestContext, _params: ApiParams) -> Result<ApiResponse, String> {
        Ok(ApiResponse::NoContent)
    }

    async fn config(
        &self,
        _ctx: &RequestContext,
        _params: ConfigParams,
    ) -> Result<ConfigResponse, String> {
        Ok(ConfigResponse::NoContent)
    }

    async fn routes(
        &self,
        _ctx: &RequestContext,
        _params: RoutesParams,
    ) -> Result<RoutesResponse, String> {
        Ok(RoutesResponse::NoContent)
    }

    async fn r#type(
        &self,
        _ctx: &RequestContext,
        _params: TypeParams,
    ) -> Result<TypeResponse, String> {
        Ok(TypeResponse::NoContent)
    }

    async fn self_(
        &self,
        _ctx: &RequestContext,
        _params: SelfParams,
    ) -> Result<SelfResponse, String> {
        Ok(SelfResponse::Ok(types::Self_ {
            self_: Some("me".into()),
        }))
    }

    async fn super_(
        &self,
        _ctx: &RequestContext,
        params: SuperParams,
    ) -> Result<SuperResponse, String> {
        assert_eq!(params.crate_.as_deref(), Some("c"));
        Ok(SuperResponse::Ok(params.super_))
    }

    async fn get_internal(
        &self,
        _ctx: &RequestContext,
        _params: GetInternalParams,
    ) -> Result<GetInternalResponse, String> {
        Ok(GetInternalResponse::ServerError(
            http::StatusCode::NOT_IMPLEMENTED,
            GetInternalServerErrorHeaders {
                x_range: Some("from 5XX".into()),
            },
        ))
    }

    async fn get(&self, _ctx: &RequestContext, _params: GetParams) -> Result<GetResponse, String> {
        Ok(GetResponse::InternalServerError(
            GetInternalServerErrorHeaders2 {
                x_code: Some("from 500".into()),
            },
        ))
    }

    async fn clone(
        &self,
        _ctx: &RequestContext,
        params: CloneParams,
    ) -> Result<CloneResponse, String> {
        use types::Chain::Array;
        match params.old.as_deref() {
            Some("bad") => Ok(CloneResponse::BadRequest(types::Error {
                code: "bad".into(),
                message: "bad".into(),
                status: 400,
            })),
            Some("teapot") => Ok(CloneResponse::ClientError(
                http::StatusCode::IM_A_TEAPOT,
                types::Error {
                    code: "teapot".into(),
                    message: "teapot".into(),
                    status: 418,
                },
            )),
            _ => Ok(CloneResponse::Ok(Array(vec![
                Array(vec![]),
                Array(vec![Array(vec![])]),
            ]))),
        }
    }

    async fn _1st(
        &self,
        _ctx: &RequestContext,
        _params: V1stParams,
        body: types::Loose,
    ) -> Result<V1stResponse, String> {
        let default = match body {
            types::Loose::Variant0(_) => types::Default2::On,
            _ => types::Default2::Off,
        };
        Ok(V1stResponse::Ok(
            types::V1stOkBody::default()
                .with_into(types::Into2::default().with_name("into"))
                .with_default(default),
        ))
    }

    async fn braces(
        &self,
        _ctx: &RequestContext,
        params: BracesParams,
    ) -> Result<BracesResponse, String> {
        Ok(BracesResponse::Ok(types::BracesOkBody {
            mark: params.mark,
            kind: params.kind.as_str().to_string(),
        }))
    }

    async fn placeholders(
        &self,
        _ctx: &RequestContext,
        params: PlaceholdersParams,
        body: types::Placeholder,
    ) -> Result<PlaceholdersResponse, String> {
        // `default` is the only answer: the implementation picks the status.
        let status = if body.quux == Some(-1) {
            http::StatusCode::UNPROCESSABLE_ENTITY
        } else {
            http::StatusCode::OK
        };
        let echoed = types::Placeholder::new(format!("{}|{}", params.baz, body.baz))
            .with_quux(params.foo.map(|f| f.len() as i64).or(body.quux));
        Ok(PlaceholdersResponse::Default(status, echoed))
    }

    async fn result(
        &self,
        _ctx: &RequestContext,
        params: ResultParams,
    ) -> Result<ResultResponse, String> {
        if params.none.is_some() {
            return Ok(ResultResponse::NotFound(types::Error {
                code: "none".into(),
                message: format!("{:?} {:?} {:?}", params.ok, params.err, params.some),
                status: 404,
            }));
        }
        Ok(ResultResponse::Ok(
            serde_json::from_value(json!({
                "crate": {"crate": params.ok},
                "super": {"super": params.err},
                "t": {"t": null},
                "types": {"types": params.some},
            }))
            .expect("the body"),
        ))
    }
}

async fn client() -> Client {
    let keys = StaticKeys::new().with_key("key", "ann", None);
    let app = adversarial_server::router(
        std::sync::Arc::new(Service),
        ServerConfig::new().authenticator(keys),
    );
    let addr: SocketAddr = common::spawn(app).await;
    Client::builder(format!("http://{addr}/v1"))
        .build_2("key")
        .build()
        .unwrap()
}

#[tokio::test]
async fn parameters_named_like_locals_reach_their_fields() {
    let client = client().await;
    let answer = client
        .path_with(
            "a path/with slash",
            42,
            "the query",
            "the body header", // Characters a cookie value cannot hold as they are (RFC 6265): the client
            // percent-encodes them, the server decodes them.
            "the cookie; a=b, \"c\" é+1%",
            Path2Options {
                errors: Some(3),
                out: Some("out".into()),
                cookies: Some("more".into()),
            },
        )
        .await
        .unwrap();
    let echo = ct::Value::clone(&answer);
    assert_eq!(echo.path.as_deref(), Some("a path/with slash"));
    assert_eq!(echo.raw, Some(42));
    assert_eq!(echo.query.as_deref(), Some("the query"));
    assert_eq!(echo.errors, Some(3));
    assert_eq!(echo.out.as_deref(), Some("out"));
    assert_eq!(echo.body.as_deref(), Some("the body header"));
    assert_eq!(echo.cookie.as_deref(), Some("the cookie; a=b, \"c\" é+1%"));
    assert_eq!(echo.cookies.as_deref(), Some("more"));
    let h = adversarial_client::client::Path2OkHeaders::from_headers(answer.headers());
    assert_eq!(h.response.as_deref(), Some("r-42"));
    assert_eq!(h.value, Some(84));
}

#[tokio::test]
async fn checks_on_parameters_named_like_locals_still_run() {
    let client = client().await;
    let err = client
        .path_with(
            "p",
            1,
            "q",
            "b",
            "c",
            Path2Options {
                errors: Some(0),
                out: Some("longer than eight".into()),
                cookies: None,
            },
        )
        .await
        .unwrap_err();
    let Error::Api { body, status, .. } = err else {
        panic!("expected the document's error, got {err:?}");
    };
    assert_eq!(status.as_u16(), 400);
    let adversarial_client::client::Path2Error::BadRequest(problem) = body else {
        panic!("expected the 400 variant, got {body:?}");
    };
    assert!(
        problem.message.contains("query/errors"),
        "{}",
        problem.message
    );
    assert!(problem.message.contains("query/out"), "{}", problem.message);
}

#[tokio::test]
async fn body_named_like_the_prelude_result_round_trips() {
    let client = client().await;
    let body: ct::Result2 = serde_json::from_value(json!({
        "type": "t",
        "self": "s",
        "Self": "S",
        "crate": 1,
        "super": true,
        "value": 5,
        "pointer": "abc",
        "out": "o",
        "at": ["x"],
        "serializer": null,
        "r#type": "raw",
        "Option": "opt",
        "ok": {"ok": "fine"},
        "none": {},
    }))
    .unwrap();
    assert_eq!(body.self_2.as_deref(), Some("S"));
    assert_eq!(body.serializer, Some(None));
    let answer = client
        .raw_with(
            "h",
            "b",
            "c",
            &body,
            Raw2Options {
                builder: Some("bu".into()),
                options: Some("op".into()),
                values: Some(vec!["1".into(), "2".into()]),
                at: None,
                params: Some("pa".into()),
                r#type: Some(ct::Kind::Err),
                self_: Some("me".into()),
            },
        )
        .await
        .unwrap();
    let echo = answer.into_inner();
    assert_eq!(echo.http.as_deref(), Some("h"));
    assert_eq!(echo.base.as_deref(), Some("b"));
    assert_eq!(echo.ctx.as_deref(), Some("c"));
    assert_eq!(echo.builder.as_deref(), Some("bu"));
    assert_eq!(echo.options.as_deref(), Some("op"));
    assert_eq!(echo.values, Some(vec!["1".to_string(), "2".to_string()]));
    assert_eq!(echo.at, Some(7), "the default applies");
    assert_eq!(echo.params.as_deref(), Some("pa"));
    assert_eq!(echo.r#type.as_deref(), Some("Err"));
    assert_eq!(echo.self_.as_deref(), Some("me"));
    assert_eq!(echo.result, Some(body));
}

#[tokio::test]
async fn a_body_breaking_the_checks_of_result_is_refused_with_its_pointers() {
    let client = client().await;
    let body: ct::Result2 = serde_json::from_value(json!({
        "type": "t", "value": 0, "pointer": "NOT LOWER", "out": "", "crate": -1,
    }))
    .unwrap();
    let err = client.raw("h", "b", "c", &body).await.unwrap_err();
    let Error::Api { body, status, .. } = err else {
        panic!("expected the document's error, got {err:?}");
    };
    assert_eq!(status.as_u16(), 400);
    let adversarial_client::client::Raw2Error::BadRequest(problem) = body else {
        panic!("expected the 400 variant, got {body:?}");
    };
    for pointer in ["/value", "/pointer", "/out", "/crate"] {
        assert!(
            problem.message.contains(pointer),
            "{pointer}: {}",
            problem.message
        );
    }
}

#[tokio::test]
async fn operations_named_like_generated_methods_are_served() {
    let client = client().await;
    client
        .handle_error_2_with(HandleErrorOptions {
            api: Some("api".into()),
            parts: Some("parts".into()),
            request: Some("request".into()),
            response: Some("response".into()),
            rt: Some("rt".into()),
            scheme: Some("scheme".into()),
            serve: Some("serve".into()),
            media: Some("media".into()),
            outcome: Some("outcome".into()),
            error: Some("error".into()),
            body_limit: Some("body_limit".into()),
            value: Some(3),
        })
        .await
        .unwrap();
    let list = client.builder_2().await.unwrap().into_inner();
    assert_eq!(list[0].string.as_deref(), Some("s"));
    let boxed = client.for_server_2().await.unwrap().into_inner();
    assert_eq!(boxed.r#box.unwrap().box_2.as_deref(), Some("inner"));
    assert_eq!(
        client
            .base_url_2()
            .await
            .unwrap()
            .into_inner()
            .string
            .as_deref(),
        Some("base")
    );
    assert!(client.base_url().starts_with("http://127.0.0.1:"));
    assert_eq!(
        client.last_rate_limit_2().await.unwrap().into_inner(),
        ct::Option2::S2(ct::S2 { s: 5 })
    );
    client.router().await.unwrap();
    client.rate_limit_policy().await.unwrap();
    client.serve_path().await.unwrap();
    client.api().await.unwrap();
    client.config().await.unwrap();
    client.routes().await.unwrap();
    client.r#type().await.unwrap();
    assert_eq!(
        client.self_().await.unwrap().into_inner().self_.as_deref(),
        Some("me")
    );
    let kind = client
        .super_with(
            &ct::Type::Self_,
            adversarial_client::client::SuperOptions {
                crate_: Some("c".into()),
            },
        )
        .await
        .unwrap();
    assert_eq!(kind.into_inner(), ct::Type::Self_);
    let all = client
        .result_with(ResultOptions {
            ok: Some("o".into()),
            err: Some("e".into()),
            some: Some("s".into()),
            none: None,
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(all.crate_.unwrap().crate_.as_deref(), Some("o"));
    assert_eq!(all.super_.unwrap().super_.as_deref(), Some("e"));
    assert_eq!(all.types.unwrap().types.as_deref(), Some("s"));
}

#[tokio::test]
async fn answers_whose_header_structs_spell_alike_keep_their_own_headers() {
    // `getInternal` + 5XX (`ServerError`) and `get` + 500 (`InternalServerError`) both
    // spell `GetInternalServerErrorHeaders`; the second is `…Headers2` on both sides.
    use adversarial_client::client::{
        GetError, GetInternalError, GetInternalServerErrorHeaders as FiveXx,
        GetInternalServerErrorHeaders2 as FiveHundred,
    };
    let client = client().await;
    let err = client.get_internal().await.unwrap_err();
    assert_eq!(err.status(), Some(http::StatusCode::NOT_IMPLEMENTED));
    assert!(matches!(
        err.api_body(),
        Some(GetInternalError::ServerError(text)) if text.is_empty()
    ));
    let headers = FiveXx::from_headers(err.headers().unwrap());
    assert_eq!(headers.x_range.as_deref(), Some("from 5XX"));
    let err = client.get().await.unwrap_err();
    assert_eq!(err.status(), Some(http::StatusCode::INTERNAL_SERVER_ERROR));
    assert!(matches!(
        err.api_body(),
        Some(GetError::InternalServerError(text)) if text.is_empty()
    ));
    let headers = FiveHundred::from_headers(err.headers().unwrap());
    assert_eq!(headers.x_code.as_deref(), Some("from 500"));
}

#[test]
fn enumeration_values_named_like_variants_of_the_prelude_round_trip() {
    for wire in [
        "Ok", "Err", "Some", "None", "Unknown", "Self", "self", "type", "Result",
    ] {
        let server: types::Kind = wire.parse().unwrap();
        assert_eq!(server.as_str(), wire);
        let client: ct::Kind = wire.parse().unwrap();
        assert_eq!(client.as_str(), wire);
        assert!(!matches!(client, ct::Kind::Unknown(_)), "{wire} is known");
    }
    let newer: ct::Kind = "Newer".parse().unwrap();
    assert_eq!(newer, ct::Kind::Unknown("Newer".into()));
    assert!("Newer".parse::<types::Kind>().is_err());
}

#[test]
fn one_of_over_types_named_like_generic_parameters_round_trips() {
    for (text, expected) in [
        (
            json!({"d": "x"}),
            types::Option2::D2(types::D2 { d: "x".into() }),
        ),
        (json!({"s": 4}), types::Option2::S2(types::S2 { s: 4 })),
    ] {
        let read: types::Option2 = serde_json::from_value(text.clone()).unwrap();
        assert_eq!(read, expected);
        assert_eq!(serde_json::to_value(&read).unwrap(), text);
    }
    assert!(serde_json::from_value::<types::Option2>(json!({"q": 1})).is_err());
}

/// `foo`, `baz` and `quux` (names clippy flags by default) reach their places; `default`, the
/// only documented answer, is the success type for a 2XX status and the error otherwise; and
/// the body's second JSON media type is read like the first.
#[tokio::test]
async fn placeholder_names_and_a_lone_default_answer() {
    let client = client().await;
    let answer = client
        .placeholders_with(
            "header",
            &ct::Placeholder::new("body"),
            PlaceholdersOptions::default().with_foo("four".to_string()),
        )
        .await
        .expect("a 2XX through `default` is a success");
    assert_eq!(answer.status(), 200);
    assert_eq!(answer.baz, "header|body");
    assert_eq!(
        answer.quux,
        Some(4),
        "the query parameter `foo` reached the server"
    );

    let err = client
        .placeholders("header", &ct::Placeholder::new("body").with_quux(-1))
        .await
        .expect_err("a 422 through `default` is the documented error");
    let Error::Api { body, status, .. } = err else {
        panic!("expected the documented error, got {err:?}");
    };
    assert_eq!(status, 422);
    let PlaceholdersError::Default(body) = body else {
        panic!("expected `default`, got {body:?}");
    };
    assert_eq!(body.quux, Some(-1));

    // `application/merge-patch+json` is read by the JSON reader too; a media type the
    // document does not list is refused.
    for (media, expected) in [("application/merge-patch+json", 200), ("text/plain", 415)] {
        let raw = common::raw_http()
            .post(format!("{}/ops/placeholders", client.base_url()))
            .bearer_auth("key")
            .header("baz", "h")
            .header("content-type", media)
            .body(r#"{"baz":"b"}"#)
            .send()
            .await
            .unwrap();
        assert_eq!(raw.status(), expected, "{media}");
    }
}

/// An operation named `clone` reaches the implementation (not `Arc::clone`), a schema that is
/// an array of itself round trips, and a `400` beside `4XX` keeps each its own arm.
#[tokio::test]
#[allow(deprecated)]
async fn clone_a_recursive_array_and_the_status_ranges() {
    use ct::Chain::Array;
    let client = client().await;
    let chain = client.clone().await.unwrap();
    assert_eq!(
        chain.into_inner(),
        Array(vec![Array(vec![]), Array(vec![Array(vec![])])])
    );
    for (old, status) in [("bad", 400), ("teapot", 418)] {
        let err = client
            .clone_with(CloneOptions::default().with_old(old.to_string()))
            .await
            .expect_err(old);
        let Error::Api {
            body, status: got, ..
        } = err
        else {
            panic!("{old}: expected the documented error, got {err:?}");
        };
        assert_eq!(got, status, "{old}");
        match (status, body) {
            (400, CloneError::BadRequest(e)) | (418, CloneError::ClientError(e)) => {
                assert_eq!(e.code, old)
            }
            (_, other) => panic!("{old}: wrong variant {other:?}"),
        }
    }
}

/// `_1st` is served (its handler is `handle_1st`); a `oneOf` of a checked object and a
/// free-form one reads a value that fails the first's checks as the second, and refuses one
/// that fits both (JSON Schema's `oneOf`: exactly one); `Into` and `Default` are schema types
/// like any other.
#[tokio::test]
async fn an_underscored_method_and_a_loose_one_of() {
    let client = client().await;
    // `{"n": 1}` fits the checked variant and the free-form one: not exactly one, so it is
    // refused rather than taken as the first variant that fits.
    let checked = ct::Loose::Variant0(ct::LooseVariant0::new(1));
    // The operation documents no 400: the refusal is read as the document's error type.
    match client._1st(&checked).await {
        Err(error @ Error::Api { .. }) => {
            assert_eq!(error.status().map(|s| s.as_u16()), Some(400));
            assert!(
                error
                    .to_string()
                    .contains("exactly one schema of oneOf, matches #0 and #1"),
                "{error}"
            );
        }
        other => panic!("a value fitting both variants was taken: {other:?}"),
    }

    let mut loose = serde_json::Map::new();
    loose.insert("anything".into(), json!([1, "two"]));
    let answer = client._1st(&ct::Loose::Variant1(loose)).await.unwrap();
    assert_eq!(answer.into_inner().default, Some(ct::Default2::Off));

    // `n` below its minimum: the first variant reads the value but its check refuses it, so
    // it is the free-form variant, which JSON Schema says it fits (the implementation answers
    // `off` for it). Were the first variant that reads it to win, its check would refuse a
    // valid body with a 400.
    let send = |body: &'static str| {
        let url = format!("{}/ops/1st", client.base_url());
        async move {
            let raw = common::raw_http()
                .post(url)
                .bearer_auth("key")
                .header("content-type", "application/json")
                .body(body)
                .send()
                .await
                .unwrap();
            (raw.status().as_u16(), raw.text().await.unwrap())
        }
    };
    let (status, body) = send(r#"{"n": 0}"#).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains(r#""default":"off""#), "{body}");
    let (status, body) = send(r#"{"n": 1}"#).await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("matches #0 and #1"), "{body}");
    // What no variant reads is refused.
    let (status, body) = send("[1]").await;
    assert_eq!(status, 400, "{body}");
}

/// A struct's generated `Deserialize` binds the map it reads and one slot per field; a schema
/// named like the map's generic parameter (`A`) and a field named `map` read as any other, a
/// property named twice is refused, and an array is no struct.
#[test]
fn a_struct_named_like_the_readers_parameters_reads_as_any_other() {
    let a: ct::A = serde_json::from_value(json!({"map": "x", "a": {"map": "y"}})).unwrap();
    assert_eq!(a.map.as_deref(), Some("x"));
    assert_eq!(a.a.as_ref().and_then(|a| a.map.as_deref()), Some("y"));
    let server: types::A = serde_json::from_str(r#"{"a": {"a": {}}, "map": "z"}"#).unwrap();
    assert_eq!(server.map.as_deref(), Some("z"));
    let err = serde_json::from_str::<ct::A>(r#"{"map": "x", "map": "y"}"#).unwrap_err();
    assert!(err.to_string().contains("duplicate field `map`"), "{err}");
    let err = serde_json::from_str::<ct::A>(r#"["x", null]"#).unwrap_err();
    assert!(
        err.to_string()
            .contains("invalid type: sequence, expected struct A"),
        "{err}"
    );
}

#[tokio::test]
async fn strings_with_format_braces_are_checked_and_named_as_written() {
    let client = client().await;
    // The `const`, the default of an `enum` that lists `{a}` twice: both as written.
    let answer = client.braces("const with ${<brackets>}").await.unwrap();
    assert_eq!(
        (answer.mark.as_str(), answer.kind.as_str()),
        ("const with ${<brackets>}", "}b{")
    );
    let get = |query: &'static str| {
        let url = format!("{}/ops/braces?{query}", client.base_url());
        async move {
            let r = common::raw_http()
                .get(url)
                .bearer_auth("key")
                .send()
                .await
                .unwrap();
            (r.status().as_u16(), r.text().await.unwrap())
        }
    };
    let (status, body) = get("mark=const%20with%20%24%7B%3Cbrackets%3E%7D&kind=%7Ba%7D").await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains(r#""kind":"{a}""#), "{body}");
    // Refusals name the values with their braces.
    let (status, body) = get("mark=const%20with%20%24%7B%3Cbrackets%3E%7D&kind=b").await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body.contains("expected one of `{a}`, `}b{`, got `b`"),
        "{body}"
    );
    let (status, body) = get("mark=other").await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("query/mark"), "{body}");
}
