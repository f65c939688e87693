//! The router-wide configuration as a small router built the generated way sees it: sunsets
//! judged on an injected clock (410, or served when not enforced), `Idempotency-Key` replay
//! through the configured store (or none when switched off), a path's own method dispatch
//! answering the layer's refusal, what `ServerConfig`'s and `Runtime`'s `Debug` show, and an
//! operation served by `layer::call`, `layer::call_json` and `layer::call_json_checked`, its
//! parameters' declared checks and its body's checks run before it is called.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, UNIX_EPOCH};

use apigen_server_runtime as runtime;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::response::Response;
use axum::routing::{get, post};
use common::{GOOD_KEY, client, keys, send, serve};
use http::StatusCode;
use runtime::auth::{self, Identity, Security};
use runtime::idempotency;
use runtime::layer::{self, Runtime, ServerConfig};
use runtime::problem::Problem;
use runtime::response;
use runtime::{Clock, InMemoryIdempotencyStore, Retirement};

/// 2030-12-05T00:00:00Z.
const SUNSET: u64 = 1_922_659_200;

static RETIREMENT: Retirement = Retirement {
    operation: "oldThing",
    at: SUNSET,
    day: "2030-12-05",
    replacement: Some("newThing"),
};
static OLD_HEADERS: &[(&str, &str)] = &[("Sunset", "Thu, 05 Dec 2030 00:00:00 GMT")];
static SECURED: Security = &[&["bearerAuth"]];

fn at(secs: u64) -> Clock {
    Clock::new(move || UNIX_EPOCH + Duration::from_secs(secs))
}

/// An operation with a sunset, in the generated handler's order: the sunset first, then
/// authorization, then the application.
async fn old_thing(req: Request) -> Response {
    let (parts, _body) = req.into_parts();
    let rt = Runtime::from_parts(&parts);
    let result = rt.check_sunset(&RETIREMENT).and_then(|()| {
        auth::authorize_scheme(parts.extensions.get(), SECURED)?;
        Ok(response::text(
            StatusCode::OK,
            "text/plain; charset=utf-8",
            "still here".into(),
        ))
    });
    rt.reply(result, OLD_HEADERS)
}

/// An operation declaring `Idempotency-Key`, served through `idempotency::serve`; it counts
/// how often the application really ran.
async fn create_order(State(runs): State<Arc<AtomicUsize>>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let rt = Runtime::from_parts(&parts);
    idempotency::serve_replayable(
        rt,
        "createOrder",
        // No document rules for this key: every key takes part in replay.
        true,
        parts,
        body,
        &[],
        move |parts, _body: Body| async move {
            auth::authorize_scheme(parts.extensions.get(), SECURED)?;
            let n = runs.fetch_add(1, Ordering::SeqCst) + 1;
            Ok(response::text(
                StatusCode::CREATED,
                "text/plain; charset=utf-8",
                format!("order {n}"),
            ))
        },
    )
    .await
}

/// As code generated before the key's rules were the document's calls it: `serve`, whose
/// former rule (1 to 255 visible characters) still holds for that code.
async fn create_order_as_before(State(runs): State<Arc<AtomicUsize>>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let rt = Runtime::from_parts(&parts);
    idempotency::serve(
        rt,
        "createOrderAsBefore",
        false,
        parts,
        body,
        &[],
        move |_parts, _body: Body| async move {
            let n = runs.fetch_add(1, Ordering::SeqCst) + 1;
            Ok(response::text(
                StatusCode::CREATED,
                "text/plain; charset=utf-8",
                format!("order {n}"),
            ))
        },
    )
    .await
}

fn router(config: ServerConfig, runs: Arc<AtomicUsize>) -> axum::Router {
    let routes = axum::Router::new()
        .route("/old", get(old_thing))
        .route("/orders", post(create_order))
        .route("/orders-as-before", post(create_order_as_before))
        .with_state(runs);
    layer::finish_prefixed(routes, common::SECURITY_SCHEMES, "", &common::CORS, config)
}

async fn get_old(config: ServerConfig) -> common::Reply {
    let srv = serve(router(config, Arc::default())).await;
    send(
        client()
            .get(format!("{}/old", srv.base))
            .bearer_auth(GOOD_KEY),
    )
    .await
}

#[tokio::test]
async fn an_operation_past_its_sunset_is_gone_by_the_configured_clock() {
    // The clock is set after the authenticator: a `clock` that dropped the rest of the
    // configuration would also lose the keys.
    let r = get_old(ServerConfig::new().authenticator(keys()).clock(at(SUNSET))).await;
    assert_eq!(r.status, 410, "{}", r.body);
    let (code, message) = r.problem();
    assert_eq!(code, "gone");
    assert_eq!(
        message,
        "operation oldThing was removed on 2030-12-05 (its sunset); use newThing instead"
    );
    // The operation's own headers come with the 410 too.
    assert_eq!(r.header("sunset"), Some("Thu, 05 Dec 2030 00:00:00 GMT"));
}

#[tokio::test]
async fn an_operation_before_its_sunset_is_served_by_the_configured_clock() {
    let r = get_old(
        ServerConfig::new()
            .authenticator(keys())
            .clock(at(SUNSET - 1)),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body, "still here");
    assert_eq!(r.header("sunset"), Some("Thu, 05 Dec 2030 00:00:00 GMT"));
}

#[tokio::test]
async fn sunsets_not_enforced_keep_the_operation_served() {
    let config = ServerConfig::new()
        .authenticator(keys())
        .clock(at(SUNSET + 86_400));
    let r = get_old(config.clone().enforce_sunset(false)).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body, "still here");
    // The same configuration enforcing: gone.
    let r = get_old(config.enforce_sunset(true)).await;
    assert_eq!(r.status, 410, "{}", r.body);
}

async fn post_order(base: &str, key: &str) -> common::Reply {
    send(
        client()
            .post(format!("{base}/orders"))
            .bearer_auth(GOOD_KEY)
            .header("idempotency-key", key)
            .body("{}"),
    )
    .await
}

#[tokio::test]
async fn a_repeated_idempotency_key_is_replayed_from_the_configured_store() {
    let store = Arc::new(InMemoryIdempotencyStore::new());
    let runs = Arc::new(AtomicUsize::new(0));
    let config = ServerConfig::new()
        .authenticator(keys())
        .idempotency(store.clone(), Duration::from_secs(60));
    let srv = serve(router(config, runs.clone())).await;

    let first = post_order(&srv.base, "order-1").await;
    assert_eq!(first.status, 201, "{}", first.body);
    assert_eq!(first.body, "order 1");
    assert_eq!(first.header("idempotent-replayed"), None);

    let again = post_order(&srv.base, "order-1").await;
    assert_eq!(again.status, 201, "{}", again.body);
    assert_eq!(again.body, "order 1", "the first response, replayed");
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(runs.load(Ordering::SeqCst), 1, "the application ran once");
    // Kept in the store the configuration named, not in a default one.
    assert_eq!(store.len(), 1);
}

/// Code generated before keeps what it was generated against (the runtime's API only grows
/// within 0.1): `serve` refuses a key of 256 characters, replays a good one; new code's
/// `serve_replayable` leaves the key's syntax to the document (tests/tests/oas31.rs).
#[tokio::test]
async fn code_generated_before_keeps_the_former_key_rule() {
    let runs = Arc::new(AtomicUsize::new(0));
    let config = ServerConfig::new().authenticator(keys());
    let srv = serve(router(config, runs.clone())).await;
    let post = |key: String| {
        let base = srv.base.clone();
        async move {
            send(
                client()
                    .post(format!("{base}/orders-as-before"))
                    .bearer_auth(GOOD_KEY)
                    .header("idempotency-key", key),
            )
            .await
        }
    };
    let r = post("k".repeat(256)).await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert_eq!(r.problem().0, "idempotency_key_invalid");
    for _ in 0..2 {
        let r = post("\"k-1\"".into()).await;
        assert_eq!((r.status, r.body.as_str()), (201, "order 1"));
    }
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn without_idempotency_every_repeat_runs_again() {
    let runs = Arc::new(AtomicUsize::new(0));
    let config = ServerConfig::new()
        .authenticator(keys())
        .without_idempotency();
    let srv = serve(router(config, runs.clone())).await;

    for n in 1..=2 {
        let r = post_order(&srv.base, "order-1").await;
        assert_eq!(r.status, 201, "{}", r.body);
        assert_eq!(r.body, format!("order {n}"));
        assert_eq!(r.header("idempotent-replayed"), None);
    }
    assert_eq!(runs.load(Ordering::SeqCst), 2);
}

fn request_with(identity: Identity) -> Request {
    let mut req = Request::builder()
        .method("QUERY")
        .uri("/search")
        .body(Body::empty())
        .unwrap();
    req.extensions_mut().insert(identity);
    req
}

#[tokio::test]
async fn a_paths_own_method_dispatch_answers_the_layers_refusal() {
    // Refused by the rate limit: the 429, not a 405 (and no `Allow`).
    let refused = Identity::new(common::SECURITY_SCHEMES, None, None)
        .with_refusal(Problem::too_many_requests(7, false));
    let resp = layer::method_not_allowed(&request_with(refused), "GET,HEAD");
    assert_eq!(resp.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(resp.headers().get("retry-after").unwrap(), "7");
    assert!(resp.headers().get("allow").is_none());

    // Not refused: the 405 with the path's methods.
    let resp = layer::method_not_allowed(
        &request_with(Identity::new(common::SECURITY_SCHEMES, None, None)),
        "GET,HEAD",
    );
    assert_eq!(resp.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(resp.headers().get("allow").unwrap(), "GET,HEAD");
}

#[test]
fn debug_shows_the_configuration() {
    // What an application logs of its configuration (no authenticator or keys in it).
    let config = ServerConfig::new()
        .authenticator(keys())
        .body_limit(4096)
        .base_path("/v2");
    let shown = format!("{config:?}");
    assert!(shown.starts_with("ServerConfig {"), "{shown}");
    assert!(shown.contains("body_limit: 4096"), "{shown}");
    assert!(shown.contains("base_path: Some(\"/v2\")"), "{shown}");
    assert!(!shown.contains(GOOD_KEY), "{shown}");

    let shown = format!("{:?}", config.runtime());
    assert!(shown.starts_with("Runtime {"), "{shown}");
    assert!(shown.contains("body_limit: 4096"), "{shown}");
}

runtime::params::declare! {
    /// A thing's parameters.
    #[derive(Debug, Clone, PartialEq)]
    pub struct ThingParams {
        #[param(required, path("id"))]
        #[checks(minimum(1))]
        pub id: i64,
        #[param(optional, query("note"))]
        #[checks(max_length(5), pattern("^[a-z]+$"))]
        pub note: Option<String>,
        #[param(default(10), query("size"))]
        #[checks(exclusive_minimum(0), maximum(100), multiple_of(5.0), one_of(10, 50, 100))]
        pub size: i32,
    }
}

#[derive(Debug, serde::Deserialize)]
struct NewThing {
    name: String,
}

/// What a generated struct's checks are: `name` is at least two characters.
impl runtime::validate::Validate for NewThing {
    fn validate(&self, pointer: &str, out: &mut runtime::validate::Violations) {
        let at = runtime::validate::join(pointer, "name");
        runtime::validate::check_min_length(&self.name, 2, &at, out);
    }
}

/// What a generated handler with declared parameters is (`layer::call`), and one with a
/// JSON body too (`layer::call_json`): the runtime authorizes, reads and names the context.
fn thing_router(config: ServerConfig) -> axum::Router {
    async fn get_thing(req: Request) -> Response {
        layer::call(
            "getThing",
            SECURED,
            (),
            req,
            |(), ctx, params: ThingParams| async move {
                Ok(response::text(
                    StatusCode::OK,
                    "text/plain; charset=utf-8",
                    format!("{} {:?} {}", ctx.operation_id, params.note, params.id),
                ))
            },
        )
        .await
    }
    async fn put_thing(req: Request) -> Response {
        layer::call_json(
            "putThing",
            SECURED,
            (),
            req,
            |(), ctx, params: ThingParams, body: NewThing| async move {
                Ok(response::text(
                    StatusCode::OK,
                    "text/plain; charset=utf-8",
                    format!("{} {} {}", ctx.operation_id, params.id, body.name),
                ))
            },
        )
        .await
    }
    async fn post_thing(req: Request) -> Response {
        layer::call_json_checked(
            "postThing",
            SECURED,
            (),
            req,
            |(), ctx, params: ThingParams, body: NewThing| async move {
                Ok(response::text(
                    StatusCode::OK,
                    "text/plain; charset=utf-8",
                    format!("{} {} {}", ctx.operation_id, params.size, body.name),
                ))
            },
        )
        .await
    }
    let routes = axum::Router::new().route(
        "/things/{id}",
        get(get_thing).put(put_thing).post(post_thing),
    );
    layer::finish_prefixed(routes, common::SECURITY_SCHEMES, "", &common::CORS, config)
}

#[tokio::test]
async fn a_declared_operation_is_authorized_read_and_called_by_the_runtime() {
    let srv = serve(thing_router(ServerConfig::new().authenticator(keys()))).await;
    let url = |path: &str| format!("{}{path}", srv.base);

    let r = send(client().get(url("/things/7?note=hi")).bearer_auth(GOOD_KEY)).await;
    assert_eq!(
        (r.status, r.body.as_str()),
        (200, "getThing Some(\"hi\") 7")
    );
    let r = send(client().get(url("/things/7"))).await;
    assert_eq!(r.status, 401, "{}", r.body);
    let r = send(client().get(url("/things/seven")).bearer_auth(GOOD_KEY)).await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("path/id"), "{}", r.body);

    let put = || client().put(url("/things/7")).bearer_auth(GOOD_KEY);
    let r = send(
        put()
            .header("content-type", "application/json")
            .body(r#"{"name":"x"}"#),
    )
    .await;
    assert_eq!((r.status, r.body.as_str()), (200, "putThing 7 x"));
    let r = send(put()).await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(
        r.body.contains("the request body is required"),
        "{}",
        r.body
    );
    let r = send(put().header("content-type", "text/plain").body("x")).await;
    assert_eq!(r.status, 415, "{}", r.body);
    let r = send(put().header("content-type", "application/json").body("{}")).await;
    assert_eq!(r.status, 400, "{}", r.body);
}

#[tokio::test]
async fn declared_checks_refuse_every_bad_parameter_and_body_in_one_400() {
    let srv = serve(thing_router(ServerConfig::new().authenticator(keys()))).await;
    let url = |path: &str| format!("{}{path}", srv.base);
    let get = |path: &str| client().get(url(path)).bearer_auth(GOOD_KEY);

    // Every parameter's checks run, and one 400 names each failure where it is.
    let r = send(get("/things/0?note=Too-long&size=7")).await;
    assert_eq!(r.status, 400, "{}", r.body);
    for located in ["path/id", "query/note", "query/size"] {
        assert!(r.body.contains(located), "{located}: {}", r.body);
    }
    assert!(r.body.contains("greater than or equal to 1"), "{}", r.body);
    assert!(r.body.contains("multiple of 5"), "{}", r.body);
    // The default is checked as it stands, and a value that passes every check is served.
    let r = send(get("/things/1?note=ok&size=50")).await;
    assert_eq!(
        (r.status, r.body.as_str()),
        (200, "getThing Some(\"ok\") 1")
    );
    let r = send(get("/things/1?size=0")).await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("greater than 0"), "{}", r.body);
    let r = send(get("/things/1?size=105")).await;
    assert!(r.body.contains("less than or equal to 100"), "{}", r.body);

    // A checked body: read, then held to its type's checks before the call.
    let post = |body: &'static str| {
        client()
            .post(url("/things/3"))
            .bearer_auth(GOOD_KEY)
            .header("content-type", "application/json")
            .body(body)
    };
    let r = send(post(r#"{"name":"Rex"}"#)).await;
    assert_eq!((r.status, r.body.as_str()), (200, "postThing 10 Rex"));
    let r = send(post(r#"{"name":"R"}"#)).await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("/name"), "{}", r.body);
    // Unauthenticated: refused before anything is read or checked.
    let r = send(client().post(url("/things/3")).body("{}")).await;
    assert_eq!(r.status, 401, "{}", r.body);
}

/// What the generated router declares for such an operation (`layer::handler!`): the trait's
/// method called through the runtime's entry, an error answered through `handle_error`.
mod declared {
    use super::*;
    use runtime::context::RequestContext;
    use std::future::Future;

    pub struct Answer(String);

    impl response::IntoHttp for Answer {
        fn into_http(self) -> Result<Response, Problem> {
            Ok(response::text(
                StatusCode::OK,
                "text/plain; charset=utf-8",
                self.0,
            ))
        }
    }

    pub trait ThingApi: Send + Sync + 'static {
        type Error: Send;
        fn get_thing(
            &self,
            ctx: &RequestContext,
            params: ThingParams,
        ) -> impl Future<Output = Result<Answer, Self::Error>> + Send;
        fn put_thing(
            &self,
            ctx: &RequestContext,
            params: ThingParams,
            body: NewThing,
        ) -> impl Future<Output = Result<Answer, Self::Error>> + Send;
        fn handle_error(&self, ctx: &RequestContext, error: Self::Error) -> Problem;
    }

    pub struct Things;

    impl ThingApi for Things {
        type Error = String;
        async fn get_thing(
            &self,
            ctx: &RequestContext,
            params: ThingParams,
        ) -> Result<Answer, String> {
            match params.note {
                Some(note) if note == "fail" => Err("no such thing".into()),
                note => Ok(Answer(format!(
                    "{} {note:?} {}",
                    ctx.operation_id, params.id
                ))),
            }
        }
        async fn put_thing(
            &self,
            ctx: &RequestContext,
            params: ThingParams,
            body: NewThing,
        ) -> Result<Answer, String> {
            Ok(Answer(format!(
                "{} {} {}",
                ctx.operation_id, params.id, body.name
            )))
        }
        fn handle_error(&self, _ctx: &RequestContext, error: String) -> Problem {
            Problem::new(StatusCode::CONFLICT, "conflict", error)
        }
    }

    layer::handler! {
        /// `GET /things/{id}`.
        fn handle_get_thing<A: ThingApi>() {
            call(A::get_thing, "getThing", SECURED)
        }
    }

    // As the printer writes a long name's generics: over lines, a comma after the bound.
    layer::handler! {
        /// `PUT /things/{id}`.
        fn handle_put_thing<
            A: ThingApi,
        >() {
            call_json(A::put_thing, "putThing", SECURED)
        }
    }

    /// An operation's own error bodies: a request it cannot read is a 422.
    const OWN: runtime::errors::ErrorBodies = runtime::errors::ErrorBodies {
        invalid: 422,
        bodies: &[],
    };

    layer::handler! {
        /// `GET /own/{id}`, with error bodies of its own.
        fn handle_get_own<A: ThingApi>() {
            call_in(A::get_thing, &OWN, "getOwn", SECURED)
        }
    }

    layer::handler! {
        /// `PUT /own/{id}`, with error bodies of its own.
        fn handle_put_own<A: ThingApi>() {
            call_json_in(A::put_thing, &OWN, "putOwn", SECURED)
        }
    }

    // The route table as the printer writes a long trait's: the signature over lines, a comma
    // after the last parameter and after a wrapped line's last argument. A path's two methods
    // come from two lines, merged into its one method router.
    runtime::routes::declare! {
        fn route_table<A: ThingApi>(
            api: &Arc<A>,
            base: &str,
        ) -> axum::Router {
            get("/things/{id}", handle_get_thing, "getThing");
            put(
                "/things/{id}",
                handle_put_thing,
                "putThing",
            );
            get("/own/{id}", handle_get_own, "getOwn");
            put("/own/{id}", handle_put_own, "putOwn");
        }
    }

    pub fn router(config: ServerConfig) -> axum::Router {
        let routes = route_table(&Arc::new(Things), "");
        layer::finish_prefixed(routes, common::SECURITY_SCHEMES, "", &common::CORS, config)
    }

    // The same routes as `routes::table!` writes them: entries on their lines, grouped by
    // `#[cfg]` (one group compiled, one not, one always), a function's line beside them, and
    // lines the printer wrapped (a comma after an entry's last argument and after a line's).
    runtime::routes::table! {
        /// The table.
        fn entry_table<A: ThingApi>(
            api: &Arc<A>,
            base: &str,
        ) -> axum::Router {
            #[cfg(all())]
            {
                get("/things/{id}", call(A::get_thing, "getThing", SECURED));
                put(
                    "/things/{id}",
                    call_json(
                        A::put_thing,
                        "putThing",
                        SECURED,
                    ),
                );
            }
            #[cfg(any())]
            {
                get("/never", handle_get_thing, "never");
            }
            {
                get("/own/{id}", call_in(A::get_thing, &OWN, "getOwn", SECURED));
                put("/own/{id}", handle_put_own, "putOwn");
            }
        }
    }

    pub fn table_router(config: ServerConfig) -> axum::Router {
        let routes = entry_table(&Arc::new(Things), "");
        layer::finish_prefixed(routes, common::SECURITY_SCHEMES, "", &common::CORS, config)
    }
}

#[tokio::test]
async fn a_declared_handler_calls_the_trait_and_answers_its_errors_through_it() {
    declared_routes_serve(declared::router(ServerConfig::new().authenticator(keys()))).await;
}

#[tokio::test]
async fn a_route_tables_entries_serve_as_declared_handlers_do() {
    let router = declared::table_router(ServerConfig::new().authenticator(keys()));
    declared_routes_serve(router.clone()).await;
    // The group under `#[cfg(any())]` is not compiled: its path is not routed.
    let srv = serve(router).await;
    let r = send(
        client()
            .get(format!("{}/never", srv.base))
            .bearer_auth(GOOD_KEY),
    )
    .await;
    assert_eq!(r.status, 404, "{}", r.body);
}

async fn declared_routes_serve(router: axum::Router) {
    let srv = serve(router).await;
    let url = |path: &str| format!("{}{path}", srv.base);
    let r = send(client().get(url("/things/7?note=hi")).bearer_auth(GOOD_KEY)).await;
    assert_eq!(
        (r.status, r.body.as_str()),
        (200, "getThing Some(\"hi\") 7")
    );
    let r = send(
        client()
            .get(url("/things/7?note=fail"))
            .bearer_auth(GOOD_KEY),
    )
    .await;
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.body.contains("no such thing"), "{}", r.body);
    let r = send(client().get(url("/things/7"))).await;
    assert_eq!(r.status, 401, "{}", r.body);
    let r = send(
        client()
            .put(url("/things/7"))
            .bearer_auth(GOOD_KEY)
            .header("content-type", "application/json")
            .body(r#"{"name":"x"}"#),
    )
    .await;
    assert_eq!((r.status, r.body.as_str()), (200, "putThing 7 x"));

    // With the operation's own error bodies (`call_in`, `call_json_in`): read and called the
    // same way, a request it cannot read answered with its own status.
    let r = send(client().get(url("/own/7?note=hi")).bearer_auth(GOOD_KEY)).await;
    assert_eq!((r.status, r.body.as_str()), (200, "getOwn Some(\"hi\") 7"));
    let r = send(client().get(url("/own/seven")).bearer_auth(GOOD_KEY)).await;
    assert_eq!(r.status, 422, "{}", r.body);
    let own_put = || {
        client()
            .put(url("/own/7"))
            .bearer_auth(GOOD_KEY)
            .header("content-type", "application/json")
    };
    let r = send(own_put().body(r#"{"name":"x"}"#)).await;
    assert_eq!((r.status, r.body.as_str()), (200, "putOwn 7 x"));
    let r = send(own_put().body("{}")).await;
    assert_eq!(r.status, 422, "{}", r.body);
}
