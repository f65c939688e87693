//! A small in-test pet store: the generated server's trait implemented over a vector, served
//! by the generated router on 127.0.0.1 with a real authenticator and rate limiter.

use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use petstore_server::api::{
    CreatePetParams, CreatePetResponse, GetPetParams, GetPetResponse, ListOrdersParams,
    ListOrdersResponse, ListPetsParams, ListPetsResponse,
};
use petstore_server::runtime::ratelimit::Decision;
use petstore_server::types::{self, PetStatus};
use petstore_server::{PetStoreApi, Quota, RateLimiter, RequestContext, ServerConfig, StaticKeys};

use super::Background;

/// The one valid API key (on the enterprise plan: 10,000 requests a minute).
pub const KEY: &str = "cli-test-key-0123456789";

/// The id `get` answers with a handler failure (an undocumented 500 with the `Error` body).
pub const FAILING_ID: i64 = 666;

pub struct Store {
    pets: Mutex<Vec<types::Pet>>,
    next_id: AtomicI64,
}

fn pet(id: i64, name: &str, category_id: i64, status: Option<PetStatus>) -> types::Pet {
    types::Pet::new(name, category_id, id).with_status(status)
}

impl Store {
    /// Rex (1, available), Tom (2, sold), Bella (3, pending), Nemo (4, no status).
    pub fn seeded() -> Store {
        Store {
            pets: Mutex::new(vec![
                pet(1, "Rex", 7, Some(PetStatus::Available)),
                pet(2, "Tom", 3, Some(PetStatus::Sold)),
                pet(3, "Bella", 7, Some(PetStatus::Pending)),
                pet(4, "Nemo", 9, None),
            ]),
            next_id: AtomicI64::new(5),
        }
    }
}

impl PetStoreApi for Store {
    type Error = String;

    async fn list_pets(
        &self,
        _ctx: &RequestContext,
        params: ListPetsParams,
    ) -> Result<ListPetsResponse, String> {
        let pets = self.pets.lock().unwrap();
        Ok(ListPetsResponse::Ok(
            pets.iter()
                .filter(|p| params.status.is_none() || p.status == params.status)
                .take(params.limit as usize)
                .cloned()
                .collect(),
        ))
    }

    async fn create_pet(
        &self,
        _ctx: &RequestContext,
        _params: CreatePetParams,
        body: types::NewPet,
    ) -> Result<CreatePetResponse, String> {
        let id = self.next_id.fetch_add(1, Ordering::SeqCst);
        let created = pet(id, &body.name, body.category_id, body.status);
        self.pets.lock().unwrap().push(created.clone());
        Ok(CreatePetResponse::Created(created))
    }

    async fn get_pet(
        &self,
        _ctx: &RequestContext,
        params: GetPetParams,
    ) -> Result<GetPetResponse, String> {
        if params.pet_id == FAILING_ID {
            return Err("the store's database is on fire".into());
        }
        let pets = self.pets.lock().unwrap();
        Ok(match pets.iter().find(|p| p.id == params.pet_id) {
            Some(p) => GetPetResponse::Ok(p.clone()),
            None => GetPetResponse::NotFound(types::Error::new(
                "not_found",
                format!("no animal with id {}", params.pet_id),
                404,
            )),
        })
    }

    async fn list_orders(
        &self,
        _ctx: &RequestContext,
        _params: ListOrdersParams,
    ) -> Result<ListOrdersResponse, String> {
        let order = |value: serde_json::Value| match value {
            serde_json::Value::Object(map) => map,
            _ => unreachable!(),
        };
        Ok(ListOrdersResponse::Ok(vec![
            order(serde_json::json!({"id": 1, "petId": 2, "quantity": 1, "status": "placed"})),
            order(serde_json::json!({"id": 2, "petId": 1, "complete": true})),
        ]))
    }
}

/// How the server limits requests.
pub enum Limits {
    /// The document's plans (`x-rate-limit`), the test key on enterprise.
    Document,
    /// Every request refused with 429 and this `Retry-After`, in seconds.
    RefuseAll { retry_after_secs: u64 },
}

/// Refuses everything: a window that is always used up.
struct RefuseAll(u64);

impl RateLimiter for RefuseAll {
    fn check<'a>(
        &'a self,
        _key: &'a str,
        quota: Quota,
        now: SystemTime,
    ) -> Pin<Box<dyn Future<Output = Decision> + Send + 'a>> {
        let now = now.duration_since(UNIX_EPOCH).unwrap().as_secs();
        Box::pin(std::future::ready(Decision {
            allowed: false,
            limit: quota.per_minute,
            remaining: 0,
            reset_unix: now + self.0,
            retry_after_secs: Some(self.0),
            banned: false,
            unavailable: false,
        }))
    }
}

/// A served store; the server stops when this is dropped.
pub struct Running {
    /// With the `/v1` prefix, as the CLI's `--base-url` takes it.
    pub base_url: String,
    _runtime: Background,
}

pub fn serve(limits: Limits) -> Running {
    let runtime = Background::new();
    let keys = StaticKeys::new().with_key(KEY, "cli-tester", Some("enterprise"));
    let config = ServerConfig::new().authenticator(keys);
    let config = match limits {
        Limits::Document => config.rate_limit_in_memory(petstore_server::rate_limit_policy()),
        Limits::RefuseAll { retry_after_secs } => config.rate_limit(
            RefuseAll(retry_after_secs),
            petstore_server::rate_limit_policy(),
        ),
    };
    let app = petstore_server::router(std::sync::Arc::new(Store::seeded()), config);
    let addr = runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            axum::serve(
                listener,
                app.into_make_service_with_connect_info::<SocketAddr>(),
            )
            .await
            .unwrap();
        });
        addr
    });
    Running {
        base_url: format!("http://{addr}/v1"),
        _runtime: runtime,
    }
}
