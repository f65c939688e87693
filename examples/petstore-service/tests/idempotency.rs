//! `Idempotency-Key` on `createPet` over real HTTP: a response cut off after the server
//! stored the pet, retried by the generated client, leaves exactly one pet (and two without
//! the server's store, so the test can tell); replays, 409, 422 and 400 as documented; and a
//! key stored in Redis is replayed by another instance. The Redis test needs `redis-server`
//! (`apt-get install redis-server`; `.ci/run` installs it).

mod common;
#[path = "../../../runtime/server/tests/common/redis_server.rs"]
mod redis_server;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use common::{FREE_KEY, PRO_KEY, client, keys, post_pet, send};
use petstore_client::Client;
use petstore_client::types::{NewPet, PetStatus};
use petstore_service::petstore_server::runtime::idempotency::{
    self, Claim, IdempotencyStore, InMemoryIdempotencyStore,
};
use petstore_service::petstore_server::{
    RedisIdempotencyStore, RedisOptions, RedisStore, ServerConfig, WhenUnavailable,
};
use petstore_service::{PetStore, config, router, spawn};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// A proxy in front of `upstream` that, on its first connection, forwards the request, reads
/// the whole response and then closes the client's connection without a byte of it: the
/// server did the work, the client saw the connection drop. Later connections pass through.
async fn cutting_proxy(upstream: SocketAddr) -> (SocketAddr, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let connections = Arc::new(AtomicUsize::new(0));
    let seen = connections.clone();
    tokio::spawn(async move {
        loop {
            let Ok((mut inbound, _)) = listener.accept().await else {
                return;
            };
            let first = seen.fetch_add(1, Ordering::SeqCst) == 0;
            tokio::spawn(async move {
                let mut outbound = TcpStream::connect(upstream).await.unwrap();
                if !first {
                    let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    return;
                }
                let request = read_message(&mut inbound).await;
                outbound.write_all(&request).await.unwrap();
                let response = read_message(&mut outbound).await;
                assert!(
                    response.starts_with(b"HTTP/1.1 201"),
                    "the server added the pet"
                );
                drop(inbound); // cut off
            });
        }
    });
    (addr, connections)
}

/// One HTTP/1.1 message with a `Content-Length` body (what reqwest and the server send).
async fn read_message(stream: &mut TcpStream) -> Vec<u8> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
            let length: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .map_or(0, |v| v.trim().parse().unwrap());
            if buf.len() >= end + 4 + length {
                return buf;
            }
        }
        let n = stream.read(&mut chunk).await.unwrap();
        assert!(n > 0, "connection closed mid-message");
        buf.extend_from_slice(&chunk[..n]);
    }
}

fn rex() -> NewPet {
    NewPet::new("Rex", 1).with_status(PetStatus::Available)
}

/// Adds one pet through the cutting proxy with the generated client (default retries);
/// returns how many pets the store holds afterwards.
async fn add_through_a_cut(config: ServerConfig) -> (usize, bool) {
    let store = Arc::new(PetStore::new());
    let running = spawn(router(store.clone(), config)).await.unwrap();
    let (proxy, connections) = cutting_proxy(running.addr()).await;
    let client = Client::builder(format!("http://{proxy}/v1"))
        .bearer_auth(PRO_KEY)
        .build()
        .unwrap();
    let created = client.create_pet(&rex()).await.expect("the retry succeeds");
    assert_eq!(created.status().as_u16(), 201);
    assert_eq!(created.name, "Rex");
    assert!(
        connections.load(Ordering::SeqCst) >= 2,
        "the client retried"
    );
    let replayed = created
        .headers()
        .get("idempotent-replayed")
        .is_some_and(|v| v == "true");
    (store.len(), replayed)
}

#[tokio::test]
async fn a_cut_off_create_retried_by_the_client_adds_one_pet() {
    let (pets, replayed) = add_through_a_cut(config(keys())).await;
    assert_eq!(pets, 1, "exactly one pet");
    assert!(replayed, "the retry got the stored response");

    // Without the server's store the same retry adds the animal twice: what the key prevents.
    let (pets, replayed) = add_through_a_cut(config(keys()).without_idempotency()).await;
    assert_eq!(pets, 2);
    assert!(!replayed);
}

const BODY: &str = r#"{"name":"Rex","categoryId":1}"#;

#[tokio::test]
async fn replay_conflict_mismatch_and_bad_keys() {
    let store = Arc::new(InMemoryIdempotencyStore::new());
    let pets = Arc::new(PetStore::new());
    let running = spawn(router(
        pets.clone(),
        config(keys()).idempotency(store.clone(), Duration::from_secs(60)),
    ))
    .await
    .unwrap();
    let c = client();

    let first =
        send(post_pet(&c, &running, PRO_KEY, BODY).header("idempotency-key", "\"k-1\"")).await;
    assert_eq!(first.status, 201, "{}", first.body);
    assert_eq!(first.header("idempotent-replayed"), None);
    // The bare form of the same key is the same key.
    let again = send(post_pet(&c, &running, PRO_KEY, BODY).header("idempotency-key", "k-1")).await;
    assert_eq!(again.status, 201);
    assert_eq!(again.body, first.body, "the same pet, same id");
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(again.header("content-type"), Some("application/json"));
    assert_eq!(pets.len(), 1);

    // The same key with another body: 422, nothing added.
    let other = r#"{"name":"Tom","categoryId":1}"#;
    let r = send(post_pet(&c, &running, PRO_KEY, other).header("idempotency-key", "k-1")).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(r.problem().0, "idempotency_key_reused");
    // Another caller's key space is its own.
    let r = send(post_pet(&c, &running, FREE_KEY, BODY).header("idempotency-key", "k-1")).await;
    assert_eq!(r.status, 201);
    assert_eq!(r.header("idempotent-replayed"), None);
    assert_eq!(pets.len(), 2);

    // While the first request with a key is running: 409 with Retry-After.
    let running_key = idempotency::scoped_key("createPet", "key-2", "busy");
    assert_eq!(store.claim(&running_key, [7; 32]).await, Claim::Claimed);
    let r = send(post_pet(&c, &running, PRO_KEY, BODY).header("idempotency-key", "busy")).await;
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(r.problem().0, "idempotency_key_in_use");
    assert_eq!(r.header("retry-after"), Some("1"));
    store.abandon(&running_key);
    let r = send(post_pet(&c, &running, PRO_KEY, BODY).header("idempotency-key", "busy")).await;
    assert_eq!(r.status, 201, "free again once abandoned");

    // Keys the document's pattern refuses: its 400 naming the header, the request not run,
    // nothing stored.
    let long = "x".repeat(256);
    let (stored, added) = (store.len(), pets.len());
    for bad in ["", "\"open", long.as_str(), "\"a\"b\""] {
        let r = send(post_pet(&c, &running, PRO_KEY, BODY).header("idempotency-key", bad)).await;
        assert_eq!(r.status, 400, "{bad:?}: {}", r.body);
        assert!(
            r.body.contains("header/Idempotency-Key"),
            "{bad:?}: {}",
            r.body
        );
    }
    assert_eq!((store.len(), pets.len()), (stored, added));
    // Without a key: no replay, two adds.
    let before = pets.len();
    send(post_pet(&c, &running, PRO_KEY, BODY)).await;
    send(post_pet(&c, &running, PRO_KEY, BODY)).await;
    assert_eq!(pets.len(), before + 2);
    // A 401 is answered before the store is asked: nothing kept.
    let r =
        send(post_pet(&c, &running, "wrong-key", BODY).header("idempotency-key", "k-401")).await;
    assert_eq!(r.status, 401);
    assert_eq!(
        store.len(),
        3,
        "k-1 (two callers), busy; nothing for the 401"
    );
}

#[tokio::test]
async fn a_key_stored_in_redis_is_replayed_by_another_instance() {
    let Some(redis) = redis_server::RedisServer::start_or_skip(
        "a_key_stored_in_redis_is_replayed_by_another_instance",
    ) else {
        return;
    };
    let options = RedisOptions {
        key_prefix: "idem-test:".into(),
        timeout: Duration::from_secs(5),
        when_unavailable: WhenUnavailable::Refuse,
    };
    let shared = RedisStore::open(&redis.url(), options).unwrap();
    let (a_pets, b_pets) = (Arc::new(PetStore::new()), Arc::new(PetStore::new()));
    let a = spawn(router(
        a_pets.clone(),
        config(keys()).idempotency(
            RedisIdempotencyStore::new(shared.clone()),
            Duration::from_secs(60),
        ),
    ))
    .await
    .unwrap();
    let b = spawn(router(
        b_pets.clone(),
        config(keys()).idempotency(RedisIdempotencyStore::new(shared), Duration::from_secs(60)),
    ))
    .await
    .unwrap();
    let c = client();
    let first = send(post_pet(&c, &a, PRO_KEY, BODY).header("idempotency-key", "shared-1")).await;
    assert_eq!(first.status, 201);
    let again = send(post_pet(&c, &b, PRO_KEY, BODY).header("idempotency-key", "shared-1")).await;
    assert_eq!(again.status, 201);
    assert_eq!(again.body, first.body);
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!((a_pets.len(), b_pets.len()), (1, 0), "run once, on A");
    let r = send(
        post_pet(&c, &b, PRO_KEY, r#"{"name":"Tom","categoryId":1}"#)
            .header("idempotency-key", "shared-1"),
    )
    .await;
    assert_eq!(r.status, 422);
    // The stored response expires with the configured time.
    let ttl = redis.command(&format!(
        "TTL idem-test:idem:{}",
        idempotency::scoped_key("createPet", "key-2", "shared-1")
    ));
    let ttl: i64 = ttl.trim().trim_start_matches(':').parse().unwrap();
    assert!((1..=60).contains(&ttl), "{ttl}");
}
