//! Test support: a hand-written stand-in for generated code, written exactly in the shape
//! API.md asks the generator to emit, plus helpers that serve a router on 127.0.0.1 and talk
//! to it (reqwest, and a raw TCP client for requests reqwest would normalize).
#![allow(dead_code)]

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use apigen_server_runtime as runtime;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::response::Response;
use axum::routing::get;
use http::StatusCode;
use http::request::Parts;
use runtime::auth::{self, SchemeKind, Security, SecurityScheme};
use runtime::body;
use runtime::context::RequestContext;
use runtime::layer::{self, Runtime, ServerConfig};
use runtime::params::{self, FromParam, Location, RawParams};
use runtime::problem::Problem;
use runtime::response;
use runtime::validate::{self, Validate, Violations};
use serde::{Deserialize, Serialize};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

// ---- what the generator emits (see API.md) -------------------------------------------------

pub static SECURITY_SCHEMES: &[SecurityScheme] = &[
    SecurityScheme {
        name: "bearerAuth",
        kind: SchemeKind::HttpBearer,
    },
    SecurityScheme {
        name: "apiKeyHeader",
        kind: SchemeKind::ApiKeyHeader("X-API-Key"),
    },
];

pub struct Operation {
    pub operation_id: &'static str,
    pub security: Security,
    pub headers: &'static [(&'static str, &'static str)],
}

pub static LIST_PETS: Operation = Operation {
    operation_id: "listPets",
    security: &[&["bearerAuth"]],
    headers: &[],
};
pub static CREATE_PET: Operation = Operation {
    operation_id: "createPet",
    security: &[&["bearerAuth"]],
    headers: &[],
};
pub static GET_PET: Operation = Operation {
    operation_id: "getPet",
    security: &[&["bearerAuth"]],
    headers: &[
        ("Deprecation", "@1688169599"),
        ("Sunset", "Thu, 05 Dec 2030 00:00:00 GMT"),
    ],
};
pub static WHOAMI: Operation = Operation {
    operation_id: "whoami",
    // bearer, or the API key header, or anonymous
    security: &[&["bearerAuth"], &["apiKeyHeader"], &[]],
    headers: &[],
};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PetStatus {
    Available,
    Pending,
    Sold,
}

impl FromParam for PetStatus {
    fn from_param(raw: &str) -> Result<Self, String> {
        match raw {
            "available" => Ok(PetStatus::Available),
            "pending" => Ok(PetStatus::Pending),
            "sold" => Ok(PetStatus::Sold),
            _ => Err(params::expected("one of available, pending, sold", raw)),
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NewPet {
    pub name: String,
    #[serde(rename = "categoryId")]
    pub category_id: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<PetStatus>,
}

impl Validate for NewPet {
    fn validate(&self, pointer: &str, out: &mut Violations) {
        let p = validate::join(pointer, "name");
        validate::check_min_length(&self.name, 1, &p, out);
        validate::check_max_length(&self.name, 20, &p, out);
        validate::check_pattern(&self.name, "^[A-Za-z ]*$", &p, out);
        let p = validate::join(pointer, "categoryId");
        validate::check_minimum(self.category_id, 1, false, &p, out);
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Pet {
    pub id: i64,
    pub name: String,
    #[serde(rename = "categoryId")]
    pub category_id: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<PetStatus>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Error {
    pub code: String,
    pub message: String,
    pub status: i32,
}

#[derive(Debug)]
pub struct ListPetsParams {
    pub limit: i32,
    pub status: Option<PetStatus>,
}

impl Validate for ListPetsParams {
    fn validate(&self, _pointer: &str, out: &mut Violations) {
        validate::check_minimum(self.limit, 1, false, "query/limit", out);
        validate::check_maximum(self.limit, 100, false, "query/limit", out);
    }
}

#[derive(Debug)]
pub struct GetPetParams {
    pub pet_id: i64,
}

impl Validate for GetPetParams {
    fn validate(&self, _pointer: &str, _out: &mut Violations) {}
}

pub enum ListPetsResponse {
    Status200(Vec<Pet>),
}
pub enum CreatePetResponse {
    Status201(Pet),
    Status400(Error),
}
pub enum GetPetResponse {
    Status200(Pet),
    Status404(Error),
}
pub enum WhoamiResponse {
    Status200(String),
}

pub trait Api: Send + Sync + 'static {
    fn list_pets(
        &self,
        ctx: RequestContext,
        params: ListPetsParams,
    ) -> impl Future<Output = ListPetsResponse> + Send;
    fn create_pet(
        &self,
        ctx: RequestContext,
        body: NewPet,
    ) -> impl Future<Output = CreatePetResponse> + Send;
    fn get_pet(
        &self,
        ctx: RequestContext,
        params: GetPetParams,
    ) -> impl Future<Output = GetPetResponse> + Send;
    fn whoami(&self, ctx: RequestContext) -> impl Future<Output = WhoamiResponse> + Send;
}

pub const BASE_PATH: &str = "/v1";

/// As the generator derives it: the document's methods, header parameters and declared
/// response headers.
pub static CORS: runtime::DocumentCors = runtime::DocumentCors {
    methods: &["GET", "POST"],
    request_headers: &["x-request-id"],
    response_headers: &["x-total-count"],
};

pub fn router<A: Api>(api: Arc<A>, config: ServerConfig) -> axum::Router {
    let base = config.base_path_or(BASE_PATH);
    let routes = axum::Router::new()
        .route(
            &layer::route_path(&base, "/pets"),
            get(list_pets::<A>).post(create_pet::<A>),
        )
        .route(
            &layer::route_path(&base, "/pets/{petId}"),
            get(get_pet::<A>),
        )
        .route(&layer::route_path(&base, "/whoami"), get(whoami::<A>))
        .with_state(api);
    layer::finish_prefixed(routes, SECURITY_SCHEMES, BASE_PATH, &CORS, config)
}

async fn list_pets<A: Api>(State(api): State<Arc<A>>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let rt = Runtime::from_parts(&parts);
    let mut resp = rt.respond(list_pets_inner(&*api, parts, body, &rt).await);
    response::append_headers(&mut resp, LIST_PETS.headers);
    resp
}

async fn list_pets_inner<A: Api>(
    api: &A,
    mut parts: Parts,
    _body: Body,
    _rt: &Runtime,
) -> Result<Response, Problem> {
    let scheme = auth::authorize_scheme(parts.extensions.get(), LIST_PETS.security)?;
    let raw = RawParams::from_request_parts(&mut parts).await?;
    let mut errs = Violations::new();
    let limit = raw.optional::<i32>(Location::Query, "limit", &mut errs);
    let status = raw.optional::<PetStatus>(Location::Query, "status", &mut errs);
    let params = ListPetsParams {
        limit: limit.unwrap_or(20),
        status,
    };
    params.validate("", &mut errs);
    errs.check()?;
    let ctx = RequestContext::new(LIST_PETS.operation_id, scheme, parts);
    match api.list_pets(ctx, params).await {
        ListPetsResponse::Status200(body) => response::json(StatusCode::OK, &body),
    }
}

async fn create_pet<A: Api>(State(api): State<Arc<A>>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let rt = Runtime::from_parts(&parts);
    let mut resp = rt.respond(create_pet_inner(&*api, parts, body, &rt).await);
    response::append_headers(&mut resp, CREATE_PET.headers);
    resp
}

async fn create_pet_inner<A: Api>(
    api: &A,
    mut parts: Parts,
    body: Body,
    rt: &Runtime,
) -> Result<Response, Problem> {
    let scheme = auth::authorize_scheme(parts.extensions.get(), CREATE_PET.security)?;
    let _raw = RawParams::from_request_parts(&mut parts).await?;
    let body: NewPet = body::read_json(&parts, body, rt.body_limit(), true)
        .await
        .and_then(body::required)?;
    let mut errs = Violations::new();
    body.validate("", &mut errs);
    errs.check()?;
    let ctx = RequestContext::new(CREATE_PET.operation_id, scheme, parts);
    match api.create_pet(ctx, body).await {
        CreatePetResponse::Status201(body) => response::json(StatusCode::CREATED, &body),
        CreatePetResponse::Status400(body) => response::json(StatusCode::BAD_REQUEST, &body),
    }
}

async fn get_pet<A: Api>(State(api): State<Arc<A>>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let rt = Runtime::from_parts(&parts);
    let mut resp = rt.respond(get_pet_inner(&*api, parts, body, &rt).await);
    response::append_headers(&mut resp, GET_PET.headers);
    resp
}

async fn get_pet_inner<A: Api>(
    api: &A,
    mut parts: Parts,
    _body: Body,
    _rt: &Runtime,
) -> Result<Response, Problem> {
    let scheme = auth::authorize_scheme(parts.extensions.get(), GET_PET.security)?;
    let raw = RawParams::from_request_parts(&mut parts).await?;
    let mut errs = Violations::new();
    let pet_id = raw.required::<i64>(Location::Path, "petId", &mut errs);
    let (Some(pet_id),) = (pet_id,) else {
        return Err(errs.into_problem());
    };
    let params = GetPetParams { pet_id };
    params.validate("", &mut errs);
    errs.check()?;
    let ctx = RequestContext::new(GET_PET.operation_id, scheme, parts);
    match api.get_pet(ctx, params).await {
        GetPetResponse::Status200(body) => response::json(StatusCode::OK, &body),
        GetPetResponse::Status404(body) => response::json(StatusCode::NOT_FOUND, &body),
    }
}

async fn whoami<A: Api>(State(api): State<Arc<A>>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let rt = Runtime::from_parts(&parts);
    let mut resp = rt.respond(whoami_inner(&*api, parts, body, &rt).await);
    response::append_headers(&mut resp, WHOAMI.headers);
    resp
}

async fn whoami_inner<A: Api>(
    api: &A,
    parts: Parts,
    _body: Body,
    _rt: &Runtime,
) -> Result<Response, Problem> {
    let scheme = auth::authorize_scheme(parts.extensions.get(), WHOAMI.security)?;
    let ctx = RequestContext::new(WHOAMI.operation_id, scheme, parts);
    match api.whoami(ctx).await {
        WhoamiResponse::Status200(body) => Ok(response::text(
            StatusCode::OK,
            "text/plain; charset=utf-8",
            body,
        )),
    }
}

// ---- the application under test ------------------------------------------------------------

#[derive(Default)]
pub struct PetStore {
    next_id: AtomicI64,
}

impl Api for PetStore {
    async fn list_pets(&self, _ctx: RequestContext, params: ListPetsParams) -> ListPetsResponse {
        let pets = (0..params.limit.min(3))
            .map(|i| Pet {
                id: i64::from(i) + 1,
                name: format!("pet{i}"),
                category_id: 1,
                status: params.status,
            })
            .collect();
        ListPetsResponse::Status200(pets)
    }

    async fn create_pet(&self, _ctx: RequestContext, body: NewPet) -> CreatePetResponse {
        let id = self.next_id.fetch_add(1, Ordering::SeqCst) + 1;
        CreatePetResponse::Status201(Pet {
            id,
            name: body.name,
            category_id: body.category_id,
            status: body.status,
        })
    }

    async fn get_pet(&self, _ctx: RequestContext, params: GetPetParams) -> GetPetResponse {
        if params.pet_id == 1 {
            GetPetResponse::Status200(Pet {
                id: 1,
                name: "Rex".into(),
                category_id: 2,
                status: Some(PetStatus::Available),
            })
        } else {
            GetPetResponse::Status404(Error {
                code: "not_found".into(),
                message: "no such pet".into(),
                status: 404,
            })
        }
    }

    async fn whoami(&self, ctx: RequestContext) -> WhoamiResponse {
        let who = match ctx.principal() {
            Some(p) => format!(
                "{} via {} on {}",
                p.subject,
                p.scheme,
                p.plan.as_deref().unwrap_or("-")
            ),
            None => "anonymous".to_owned(),
        };
        WhoamiResponse::Status200(who)
    }
}

pub const GOOD_KEY: &str = "k-good-0123456789";
pub const PRO_KEY: &str = "k-pro-9876543210";

pub fn keys() -> runtime::auth::StaticKeys {
    runtime::auth::StaticKeys::new()
        .with_key(GOOD_KEY, "alice", None)
        .with_key(PRO_KEY, "bob", Some("pro"))
}

/// One plan, "free", for every caller (keys without a plan and anonymous ones alike), with
/// `per_minute` and `per_day` requests and no bans.
pub fn free_plan_policy(per_minute: u32, per_day: u32) -> runtime::RateLimitPolicy {
    runtime::RateLimitPolicy {
        plans: std::collections::BTreeMap::from([(
            "free".to_owned(),
            runtime::Quota {
                per_minute,
                per_day,
            },
        )]),
        anonymous_plan: "free".into(),
        default_plan: "free".into(),
        ban_strikes: 0,
        ban: std::time::Duration::ZERO,
    }
}

/// Keys installed; the base path is the document's ("/v1").
pub fn config() -> ServerConfig {
    ServerConfig::new().authenticator(keys())
}

// ---- serving and talking -------------------------------------------------------------------

pub struct Server {
    pub addr: SocketAddr,
    pub base: String,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Serves `app` on 127.0.0.1 with a random port, with `ConnectInfo` available.
pub async fn serve(app: axum::Router) -> Server {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task = tokio::spawn(async move {
        axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .await
        .unwrap();
    });
    Server {
        addr,
        base: format!("http://{addr}"),
        task,
    }
}

/// Serves the pet store with the runtime's own `serve` (HTTP/1.1, the connection-level
/// limits of `config` applied) on 127.0.0.1 with a random port.
pub async fn serve_petstore_limited(config: ServerConfig) -> Server {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = router(Arc::new(PetStore::default()), config.clone());
    let task = tokio::spawn(async move {
        runtime::serve(listener, app, &config, std::future::pending())
            .await
            .unwrap();
    });
    Server {
        addr,
        base: format!("http://{addr}"),
        task,
    }
}

pub async fn serve_petstore(config: ServerConfig) -> Server {
    serve(router(Arc::new(PetStore::default()), config)).await
}

/// The test client. It ignores `HTTP_PROXY` and friends: the server is on loopback.
pub fn client() -> reqwest::Client {
    reqwest::Client::builder().no_proxy().build().unwrap()
}

/// A response reduced to what tests assert on.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: http::HeaderMap,
    pub body: String,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    pub fn header_all(&self, name: &str) -> Vec<String> {
        self.headers
            .get_all(name)
            .iter()
            .map(|v| v.to_str().unwrap().to_owned())
            .collect()
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("body is not JSON ({e}): {:?}", self.body))
    }

    /// Asserts the default problem shape and returns (code, message).
    pub fn problem(&self) -> (String, String) {
        assert_eq!(
            self.header("content-type"),
            Some("application/json"),
            "problem content type; body {:?}",
            self.body
        );
        let v = self.json();
        let obj = v.as_object().expect("problem is an object");
        assert_eq!(obj.len(), 3, "exactly code/message/status: {v}");
        assert_eq!(v["status"].as_u64(), Some(u64::from(self.status)), "{v}");
        (
            v["code"].as_str().unwrap().to_owned(),
            v["message"].as_str().unwrap().to_owned(),
        )
    }
}

pub async fn send(rb: reqwest::RequestBuilder) -> Reply {
    let resp = rb.send().await.expect("request failed");
    let status = resp.status().as_u16();
    let headers = resp.headers().clone();
    let body = resp.text().await.expect("body");
    Reply {
        status,
        headers,
        body,
    }
}

/// Sends `request_head` (without the final blank line) verbatim over TCP and returns the
/// status code and the whole response text. For targets reqwest would re-encode.
pub async fn raw(addr: SocketAddr, request_head: &str) -> (u16, String) {
    raw_with_body(addr, request_head, "").await
}

/// Like [`raw`], with `body` sent verbatim after the head (frame it yourself).
pub async fn raw_with_body(addr: SocketAddr, request_head: &str, body: &str) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let req = format!("{request_head}\r\nHost: {addr}\r\nConnection: close\r\n\r\n{body}");
    stream.write_all(req.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    stream.read_to_end(&mut buf).await.unwrap();
    let text = String::from_utf8_lossy(&buf).into_owned();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {text:?}"));
    (status, text)
}
