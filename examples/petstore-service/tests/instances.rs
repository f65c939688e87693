//! Several instances of the binary, as deployed behind a load balancer: three processes on
//! three ports sharing one Redis (`--redis`) and one PostgreSQL (`--database-url`), checked
//! over real HTTP: a plan's limit holds in total, a ban earned on one instance holds on the
//! others, pets are shared and outlive a restart, 200 concurrent adds get 200 ids, an
//! idempotent create retried on another instance is stored once, and a Redis outage gives the
//! configured behaviour until Redis is back. PostgreSQL stopped and started again under a
//! running service (503s meanwhile, then the very next request succeeds), and its connection
//! cut under a statement (a read retried, a write answered 503). One instance on a SQLite
//! file, restarted, and two processes sharing one SQLite file.
//!
//! Needs `redis-server` and PostgreSQL's server programs (Debian: `apt-get install
//! redis-server postgresql`; `.ci/run` installs them): the harness starts both on free
//! loopback ports and removes them afterwards. Run alone with
//! `cargo test -p petstore-service --test instances`.

#[path = "common/postgres_server.rs"]
mod postgres_server;
#[path = "../../../runtime/server/tests/common/redis_server.rs"]
mod redis_server;

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use petstore_client::Client;
use petstore_client::types::NewPet;
use postgres_server::PostgresServer;
use redis_server::RedisServer;

/// Whether a test needing PostgreSQL runs here (see `redis_server::runs_here`).
fn postgres_here(test: &str) -> bool {
    redis_server::runs_here(
        test,
        "PostgreSQL (initdb, postgres)",
        PostgresServer::installed(),
        "apt-get install postgresql",
    )
}
use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

const BIN: &str = env!("CARGO_BIN_EXE_petstore-service");

/// The keys every instance is started with, in this order: the subjects rate limits count
/// against (`key-1`, `key-2`, ...) are then the same on every instance.
const KEYS: [(&str, &str); 5] = [
    ("free-a-0123456789", "free"),
    ("free-b-0123456789", "free"),
    ("free-c-0123456789", "free"),
    ("free-d-0123456789", "free"),
    ("enterprise-0123456789", "enterprise"),
];
const FREE: [&str; 4] = [KEYS[0].0, KEYS[1].0, KEYS[2].0, KEYS[3].0];
const ENTERPRISE: &str = KEYS[4].0;
/// The Free plan's `perMinute` in spec/petstore.yaml.
const FREE_PER_MINUTE: usize = 60;
/// `x-rate-limit.ban.strikes`: refusals after the first one in a window that ban the key.
const BAN_STRIKES: usize = 20;

/// Taken by every test for its whole run: each starts servers and processes that time out on
/// a slow machine (the rate limiter waits 100 ms for Redis), so the tests take turns rather
/// than load the machine together.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// One `petstore-service` process.
struct Instance {
    child: Child,
    base: String,
    args: Vec<String>,
}

impl Instance {
    /// Starts the binary on a free port with `args` (and the keys above) and waits for its
    /// banner.
    fn start(args: &[String]) -> Instance {
        let mut child = Command::new(BIN)
            .args(["--addr", "127.0.0.1:0"])
            .args(
                KEYS.iter()
                    .flat_map(|(k, p)| ["--api-key".to_owned(), format!("{k}={p}")]),
            )
            .args(args)
            // Warnings only (a Redis outage, a lost database connection), not every request.
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let mut reader = BufReader::new(child.stdout.take().unwrap());
        let mut base = None;
        let mut banner = Vec::new();
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap() == 0 {
                panic!("the service exited before its banner: {banner:?} ({args:?})");
            }
            if let Some(url) = line.trim().strip_prefix("petstore-service listening on ") {
                base = Some(url.to_owned());
            }
            let last = line.contains("API key(s)");
            banner.push(line);
            if last {
                break;
            }
        }
        Instance {
            child,
            base: base.unwrap_or_else(|| panic!("no address in {banner:?}")),
            args: args.to_vec(),
        }
    }

    fn addr(&self) -> SocketAddr {
        self.base
            .trim_start_matches("http://")
            .trim_end_matches("/v1")
            .parse()
            .unwrap()
    }

    /// SIGTERM, and waits (at most 30 s, a hang guard) for a clean exit.
    fn stop(mut self) {
        let pid = self.child.id().to_string();
        assert!(
            Command::new("kill")
                .args(["-TERM", &pid])
                .status()
                .unwrap()
                .success()
        );
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "{status}");
                return;
            }
            assert!(Instant::now() < deadline, "no exit within 30 s of SIGTERM");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn http() -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .pool_max_idle_per_host(0)
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap()
}

async fn list(http: &reqwest::Client, base: &str, key: &str) -> reqwest::Response {
    http.get(format!("{base}/pets?limit=1"))
        .bearer_auth(key)
        .send()
        .await
        .unwrap()
}

async fn add(http: &reqwest::Client, base: &str, name: &str) -> Value {
    let resp = http
        .post(format!("{base}/pets"))
        .bearer_auth(ENTERPRISE)
        .header("content-type", "application/json")
        .body(json!({"name": name, "categoryId": 7, "status": "available"}).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::CREATED);
    body(resp).await
}

async fn get(http: &reqwest::Client, base: &str, id: i64) -> (StatusCode, Value) {
    let resp = http
        .get(format!("{base}/pets/{id}"))
        .bearer_auth(ENTERPRISE)
        .send()
        .await
        .unwrap();
    (resp.status(), body(resp).await)
}

/// The response's JSON body.
async fn body(resp: reqwest::Response) -> Value {
    serde_json::from_str(&resp.text().await.unwrap()).unwrap()
}

fn header(resp: &reqwest::Response, name: &str) -> Option<String> {
    resp.headers()
        .get(name)
        .map(|v| v.to_str().unwrap().to_owned())
}

fn utc_minute() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
        / 60
}

/// How many pets named `name` the database holds.
async fn count_named(database_url: &str, name: &str) -> i64 {
    let (client, connection) = tokio_postgres::connect(database_url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    client
        .query_one(
            "SELECT count(*) FROM pets WHERE name = $1",
            &[&name.as_bytes()],
        )
        .await
        .unwrap()
        .get(0)
}

/// A load balancer in front of `upstreams`: connection `n` goes to upstream `n % len`. With
/// `cut_first`, the first connection's request is forwarded and its whole response read, then
/// the client's connection is closed without a byte of it (the server did the work, the
/// client saw the connection drop).
async fn balancer(upstreams: Vec<SocketAddr>, cut_first: bool) -> (SocketAddr, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let connections = Arc::new(AtomicUsize::new(0));
    let seen = connections.clone();
    tokio::spawn(async move {
        loop {
            let Ok((mut inbound, _)) = listener.accept().await else {
                return;
            };
            let n = seen.fetch_add(1, Ordering::SeqCst);
            let upstream = upstreams[n % upstreams.len()];
            tokio::spawn(async move {
                let mut outbound = TcpStream::connect(upstream).await.unwrap();
                if n > 0 || !cut_first {
                    let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    return;
                }
                let request = read_message(&mut inbound).await;
                outbound.write_all(&request).await.unwrap();
                let response = read_message(&mut outbound).await;
                assert!(
                    response.starts_with(b"HTTP/1.1 201"),
                    "the first instance added it"
                );
                drop(inbound);
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_instances_share_limits_bans_pets_and_retries() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let test = "three_instances_share_limits_bans_pets_and_retries";
    if !postgres_here(test) {
        return;
    }
    let Some(mut redis) = RedisServer::start_or_skip(test) else {
        return;
    };
    let postgres = PostgresServer::start();
    let database_url = postgres.url();
    let shared = |extra: &[&str]| -> Vec<String> {
        let mut args = vec![
            "--database-url".to_owned(),
            database_url.clone(),
            "--redis".to_owned(),
            redis.url(),
            // 150 requests at once on a loaded 2-core machine can keep Redis's answer past the
            // default 100 ms; then the limits would not be counted (or, on the third, 503s)
            // and the counts below would be wrong for a reason that is not the one tested.
            // A stopped Redis refuses connections at once, so step 6 does not wait for this.
            "--redis-timeout".to_owned(),
            "5".to_owned(),
        ];
        args.extend(extra.iter().map(|s| s.to_string()));
        args
    };
    // The third refuses requests while Redis is away; the others serve them unmetered.
    let mut instances = vec![
        Instance::start(&shared(&[])),
        Instance::start(&shared(&[])),
        Instance::start(&shared(&["--redis-unavailable", "refuse"])),
    ];
    let bases: Vec<String> = instances.iter().map(|i| i.base.clone()).collect();
    let http = http();

    // 1. A Free key's 150 concurrent requests spread over the three: exactly 60 served.
    let (client, urls) = (&http, &bases);
    let statuses = in_one_minute(&FREE[..2], |key| {
        (0..150).map(move |i| {
            let (http, base) = (client.clone(), urls[i % 3].clone());
            async move { list(&http, &base, key).await.status() }
        })
    })
    .await;
    let served = statuses.iter().filter(|s| **s == StatusCode::OK).count();
    let refused = statuses
        .iter()
        .filter(|s| **s == StatusCode::TOO_MANY_REQUESTS)
        .count();
    assert_eq!(
        served, FREE_PER_MINUTE,
        "the plan's limit in total, not per instance"
    );
    assert_eq!(refused, 150 - FREE_PER_MINUTE, "{statuses:?}");

    // 2. A ban earned on the first instance only is enforced by the other two.
    let mut banned = None;
    let statuses = in_one_minute(&FREE[2..], |key| {
        banned = Some(key);
        (0..FREE_PER_MINUTE + BAN_STRIKES + 5).map(move |_| {
            let (http, base) = (client.clone(), urls[0].clone());
            async move { list(&http, &base, key).await.status() }
        })
    })
    .await;
    assert!(statuses.contains(&StatusCode::TOO_MANY_REQUESTS));
    let key = banned.unwrap();
    for base in &bases[1..] {
        let resp = list(&http, base, key).await;
        assert_eq!(resp.status(), StatusCode::TOO_MANY_REQUESTS, "{base}");
        let wait: u64 = header(&resp, "retry-after").unwrap().parse().unwrap();
        // A minute window's refusal waits at most 60 s; the ban's, its 900 s.
        assert!(wait > 60, "banned on {base}: Retry-After {wait}");
        let body: Value = body(resp).await;
        assert_eq!(body["status"], 429, "{body}");
    }

    // 3. A pet added on one instance is read on the others.
    let rex = add(&http, &bases[0], "Rex").await;
    let id = rex["id"].as_i64().unwrap();
    for base in &bases[1..] {
        assert_eq!(get(&http, base, id).await, (StatusCode::OK, rex.clone()));
    }

    // 4. 200 concurrent adds across the three get 200 distinct ids.
    let added = futures_join((0..200).map(|i| {
        let (http, base) = (http.clone(), bases[i % 3].clone());
        async move {
            add(&http, &base, &format!("pet-{i}")).await["id"]
                .as_i64()
                .unwrap()
        }
    }))
    .await;
    let ids: BTreeSet<i64> = added.iter().copied().collect();
    assert_eq!(ids.len(), 200, "distinct ids");
    assert!(!ids.contains(&id));

    // 5. The same Idempotency-Key on another instance replays the first answer; a create cut
    //    off after the first instance stored the pet, retried by the generated client through
    //    the balancer onto the second, leaves one pet.
    let send = |base: &str| {
        http.post(format!("{base}/pets"))
            .bearer_auth(ENTERPRISE)
            .header("Idempotency-Key", "shared-key-1")
            .header("content-type", "application/json")
            .body(json!({"name": "Once", "categoryId": 1}).to_string())
            .send()
    };
    let first = send(&bases[0]).await.unwrap();
    assert_eq!(first.status(), StatusCode::CREATED);
    let first: Value = body(first).await;
    let again = send(&bases[1]).await.unwrap();
    assert_eq!(again.status(), StatusCode::CREATED);
    assert_eq!(
        header(&again, "idempotent-replayed").as_deref(),
        Some("true")
    );
    assert_eq!(body(again).await, first);
    assert_eq!(count_named(&database_url, "Once").await, 1);

    let upstreams: Vec<SocketAddr> = instances.iter().map(Instance::addr).collect();
    let (lb, connections) = balancer(upstreams, true).await;
    let client = Client::builder(format!("http://{lb}/v1"))
        .bearer_auth(ENTERPRISE)
        .build()
        .unwrap();
    let created = client
        .create_pet(&NewPet::new("Cut", 2))
        .await
        .expect("the retry succeeds");
    assert_eq!(created.status().as_u16(), 201);
    assert!(
        connections.load(Ordering::SeqCst) >= 2,
        "the client retried"
    );
    assert_eq!(
        created
            .headers()
            .get("idempotent-replayed")
            .map(|v| v.to_str().unwrap()),
        Some("true"),
        "the second instance replayed the first one's answer"
    );
    assert_eq!(count_named(&database_url, "Cut").await, 1, "one pet");

    // 6. Redis away: the first instance serves without limits (no X-RateLimit-* headers),
    //    the third (--redis-unavailable refuse) answers 503; both recover once it is back.
    redis.stop();
    let resp = list(&http, &bases[0], ENTERPRISE).await;
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(header(&resp, "x-ratelimit-limit"), None);
    let resp = list(&http, &bases[2], ENTERPRISE).await;
    assert_eq!(resp.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body: Value = body(resp).await;
    assert_eq!(body["code"], "rate_limit_unavailable", "{body}");
    redis.restart();
    for base in [&bases[0], &bases[2]] {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let resp = list(&http, base, ENTERPRISE).await;
            if resp.status() == StatusCode::OK && header(&resp, "x-ratelimit-limit").is_some() {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "{base}: no limits 30 s after Redis came back"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    // 7. Every instance stopped and started again: every pet is still there.
    let args: Vec<Vec<String>> = instances.iter().map(|i| i.args.clone()).collect();
    for instance in instances.drain(..) {
        instance.stop();
    }
    instances = args.iter().map(|a| Instance::start(a)).collect();
    for (n, instance) in instances.iter().enumerate() {
        assert_eq!(
            get(&http, &instance.base, id).await,
            (StatusCode::OK, rex.clone())
        );
        let some = added[n * 50];
        assert_eq!(get(&http, &instance.base, some).await.0, StatusCode::OK);
    }
    let next = add(&http, &instances[0].base, "After").await["id"]
        .as_i64()
        .unwrap();
    assert!(
        ids.iter().all(|old| *old < next),
        "ids are not reused after a restart"
    );
    drop(instances);
}

/// One instance on a SQLite file: pets and ids survive a restart.
#[tokio::test]
async fn a_sqlite_file_keeps_the_pets_across_a_restart() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let dir = std::env::temp_dir().join(format!("petstore-sqlite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("pets.db");
    let args = vec!["--db".to_owned(), file.display().to_string()];
    let http = http();

    let first = Instance::start(&args);
    let added = futures_join((0..20).map(|i| {
        let (http, base) = (http.clone(), first.base.clone());
        async move { add(&http, &base, &format!("pet-{i}")).await }
    }))
    .await;
    let ids: BTreeSet<i64> = added.iter().map(|p| p["id"].as_i64().unwrap()).collect();
    assert_eq!(ids.len(), 20);
    first.stop();
    assert!(Path::new(&file).is_file());

    let second = Instance::start(&args);
    for pet in &added {
        let id = pet["id"].as_i64().unwrap();
        assert_eq!(
            get(&http, &second.base, id).await,
            (StatusCode::OK, pet.clone())
        );
    }
    let next = add(&http, &second.base, "After").await["id"]
        .as_i64()
        .unwrap();
    assert!(ids.iter().all(|old| *old < next));
    second.stop();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs the requests `burst(key)` makes concurrently with the first of `keys`, and again with
/// the next key if the UTC minute changed meanwhile (a burst straddling two minute windows may
/// legitimately be served more); returns their outputs in order.
async fn in_one_minute<I, F>(
    keys: &[&'static str],
    mut burst: impl FnMut(&'static str) -> I,
) -> Vec<F::Output>
where
    I: IntoIterator<Item = F>,
    F: std::future::Future + Send + 'static,
    F::Output: Send + 'static,
{
    for key in keys {
        let minute = utc_minute();
        let out = futures_join(burst(key)).await;
        if utc_minute() == minute {
            return out;
        }
    }
    panic!("every burst straddled a minute boundary");
}

/// Runs the futures concurrently on the runtime and returns their outputs in order.
async fn futures_join<F>(futures: impl IntoIterator<Item = F>) -> Vec<F::Output>
where
    F: std::future::Future + Send + 'static,
    F::Output: Send + 'static,
{
    let handles: Vec<_> = futures.into_iter().map(tokio::spawn).collect();
    let mut out = Vec::with_capacity(handles.len());
    for h in handles {
        out.push(h.await.unwrap());
    }
    out
}

/// The service's answer while its database is away: 503 with the `Error` body.
async fn assert_database_unavailable(resp: reqwest::Response) {
    assert_eq!(resp.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(header(&resp, "retry-after").as_deref(), Some("1"));
    assert_eq!(
        header(&resp, "content-type").as_deref(),
        Some("application/json")
    );
    let body = body(resp).await;
    assert_eq!(body["code"], "database_unavailable", "{body}");
    assert_eq!(body["status"], 503, "{body}");
    assert!(body["message"].is_string(), "{body}");
    assert_eq!(body.as_object().unwrap().len(), 3, "{body}");
}

/// Every pet the service lists (the spec's largest page).
async fn list_all(http: &reqwest::Client, base: &str) -> (StatusCode, Value) {
    let resp = http
        .get(format!("{base}/pets?limit=100"))
        .bearer_auth(ENTERPRISE)
        .send()
        .await
        .unwrap();
    (resp.status(), body(resp).await)
}

fn post(http: &reqwest::Client, base: &str, name: &str) -> reqwest::RequestBuilder {
    http.post(format!("{base}/pets"))
        .bearer_auth(ENTERPRISE)
        .header("content-type", "application/json")
        .body(json!({"name": name, "categoryId": 7, "status": "available"}).to_string())
}

/// PostgreSQL stopped (`pg_ctl stop -m fast`) under a running service: every operation
/// answers 503 with the `Error` body; started again on the same port and data directory,
/// the very next request succeeds (a write after the first restart, a read after the second)
/// and every pet added before is there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_restarted_under_a_running_service() {
    let _turn = ONE_AT_A_TIME.lock().await;
    if !postgres_here("postgres_restarted_under_a_running_service") {
        return;
    }
    let mut postgres = PostgresServer::start();
    let service = Instance::start(&["--database-url".to_owned(), postgres.url()]);
    let (http, base) = (http(), service.base.clone());
    let mut added = futures_join((0..10).map(|i| {
        let (http, base) = (http.clone(), base.clone());
        async move { add(&http, &base, &format!("before-{i}")).await }
    }))
    .await;
    added.sort_by_key(|pet| pet["id"].as_i64());

    for round in 0..2 {
        postgres.stop();
        // Concurrent requests of every pet operation, twice: the first ones find the
        // connection closed by the server's goodbye, the later ones a refused reconnection.
        for _ in 0..2 {
            let answers = futures_join((0..12).map(|i| {
                let (http, base) = (http.clone(), base.clone());
                async move {
                    match i % 3 {
                        0 => post(&http, &base, "during").send().await.unwrap(),
                        1 => http
                            .get(format!("{base}/pets/1"))
                            .bearer_auth(ENTERPRISE)
                            .send()
                            .await
                            .unwrap(),
                        _ => list(&http, &base, ENTERPRISE).await,
                    }
                }
            }))
            .await;
            for resp in answers {
                assert_database_unavailable(resp).await;
            }
        }
        postgres.restart();
        if round == 0 {
            added.push(add(&http, &base, "after-first-restart").await);
        } else {
            let (status, listed) = list_all(&http, &base).await;
            assert_eq!(status, StatusCode::OK, "{listed}");
            assert_eq!(
                listed,
                Value::Array(added.clone()),
                "every pet, in id order"
            );
        }
    }
    for pet in &added {
        let id = pet["id"].as_i64().unwrap();
        assert_eq!(get(&http, &base, id).await, (StatusCode::OK, pet.clone()));
    }
    assert_eq!(count_named(&postgres.url(), "during").await, 0);
    service.stop();
}

/// A TCP proxy to `upstream` whose connections can be cut the way a vanished server or a
/// lost NAT entry cuts them: on `cut`, each open connection's server side is closed, and its
/// client side stays open, without a byte or a FIN, until the client sends something; then
/// it is closed too. Connections opened after the cut are forwarded as usual.
async fn cuttable_proxy(upstream: SocketAddr) -> (SocketAddr, tokio::sync::watch::Sender<u32>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (cut, cuts) = tokio::sync::watch::channel(0u32);
    tokio::spawn(async move {
        loop {
            let Ok((mut inbound, _)) = listener.accept().await else {
                return;
            };
            let mut cuts = cuts.clone();
            // Only cuts from now on end this connection.
            cuts.borrow_and_update();
            tokio::spawn(async move {
                let mut outbound = TcpStream::connect(upstream).await.unwrap();
                tokio::select! {
                    _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound) => return,
                    _ = cuts.changed() => {}
                }
                drop(outbound);
                let mut byte = [0u8; 1];
                let _ = inbound.read(&mut byte).await;
            });
        }
    });
    (addr, cut)
}

/// The connection cut under a statement (the service's driver only learns it when the
/// statement goes unanswered): a read is sent again on a new connection and succeeds; a
/// write is not (the service cannot know whether it reached the database) and answers 503,
/// and here, where it did not reach it, nothing is stored; the next write succeeds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_cut_under_a_statement() {
    let _turn = ONE_AT_A_TIME.lock().await;
    if !postgres_here("a_connection_cut_under_a_statement") {
        return;
    }
    let postgres = PostgresServer::start();
    let (proxy, cut) = cuttable_proxy(SocketAddr::from(([127, 0, 0, 1], postgres.port))).await;
    let url = format!("postgres://postgres@{proxy}/postgres");
    let service = Instance::start(&["--database-url".to_owned(), url]);
    let (http, base) = (http(), service.base.clone());
    let rex = add(&http, &base, "Rex").await;
    let id = rex["id"].as_i64().unwrap();

    cut.send_modify(|n| *n += 1);
    assert_eq!(get(&http, &base, id).await, (StatusCode::OK, rex.clone()));
    let (status, listed) = list_all(&http, &base).await;
    assert_eq!((status, listed), (StatusCode::OK, json!([rex])));

    cut.send_modify(|n| *n += 1);
    assert_database_unavailable(post(&http, &base, "Lost").send().await.unwrap()).await;
    assert_eq!(count_named(&postgres.url(), "Lost").await, 0);
    add(&http, &base, "Kept").await;
    assert_eq!(count_named(&postgres.url(), "Kept").await, 1);
    service.stop();
}

/// Two processes on one SQLite file (one machine), started at the same moment on a file
/// that does not exist yet: 100 concurrent adds spread over both get 100 distinct ids, none
/// is refused (no "database is locked" reaches a client), and either instance lists them all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_share_one_sqlite_file() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let dir = std::env::temp_dir().join(format!("petstore-sqlite-shared-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let args = vec!["--db".to_owned(), dir.join("pets.db").display().to_string()];
    // Both create and migrate the file at once: one waits for the other's migration.
    let instances: Vec<Instance> = std::thread::scope(|s| {
        let starts: Vec<_> = (0..2).map(|_| s.spawn(|| Instance::start(&args))).collect();
        starts.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let bases: Vec<String> = instances.iter().map(|i| i.base.clone()).collect();
    let http = http();

    // Lists interleaved with the adds: a reader must not make a writer fail either.
    let answers = futures_join((0..200).map(|i| {
        let (http, base) = (http.clone(), bases[i % 2].clone());
        async move {
            let resp = match i % 4 < 2 {
                true => post(&http, &base, &format!("pet-{i}"))
                    .send()
                    .await
                    .unwrap(),
                false => list(&http, &base, ENTERPRISE).await,
            };
            (i % 4 < 2, resp.status(), body(resp).await)
        }
    }))
    .await;
    let mut added = Vec::new();
    for (write, status, body) in answers {
        match write {
            true => {
                assert_eq!(status, StatusCode::CREATED, "{body}");
                added.push(body);
            }
            false => assert_eq!(status, StatusCode::OK, "{body}"),
        }
    }
    added.sort_by_key(|pet| pet["id"].as_i64());
    let ids: BTreeSet<i64> = added.iter().map(|p| p["id"].as_i64().unwrap()).collect();
    assert_eq!(ids.len(), 100, "distinct ids");

    for base in &bases {
        let (status, listed) = list_all(&http, base).await;
        assert_eq!(status, StatusCode::OK, "{listed}");
        assert_eq!(
            listed,
            Value::Array(added.clone()),
            "{base} lists every pet"
        );
    }
    for instance in instances {
        instance.stop();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `/readyz` follows the database: 200 while PostgreSQL answers, 503 with the `Error` body
/// (code `not_ready`) while it is stopped, 200 again once it is back; `/healthz` answers 200
/// throughout (the process is up). Neither needs a key.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readiness_follows_postgres() {
    let _turn = ONE_AT_A_TIME.lock().await;
    if !postgres_here("readiness_follows_postgres") {
        return;
    }
    let mut postgres = PostgresServer::start();
    let service = Instance::start(&["--database-url".to_owned(), postgres.url()]);
    let root = format!("http://{}", service.addr());
    let http = http();
    let probe = |path: &'static str| {
        let (http, root) = (http.clone(), root.clone());
        async move {
            let resp = http.get(format!("{root}{path}")).send().await.unwrap();
            let status = resp.status();
            (status, resp.text().await.unwrap())
        }
    };
    assert_eq!(probe("/healthz").await, (StatusCode::OK, "ok".to_owned()));
    assert_eq!(probe("/readyz").await, (StatusCode::OK, "ready".to_owned()));

    postgres.stop();
    let (status, body) = probe("/readyz").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    let error: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(error["code"], "not_ready");
    assert_eq!(error["status"], 503);
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("the database does not answer"),
        "{body}"
    );
    assert_eq!(probe("/healthz").await.0, StatusCode::OK);

    postgres.restart();
    // The first probe after the restart may still find the old connection's goodbye; a
    // bounded wait (a hang guard, generous for a loaded machine) for the next one.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (status, body) = probe("/readyz").await;
        if status == StatusCode::OK {
            assert_eq!(body, "ready");
            break;
        }
        assert!(Instant::now() < deadline, "not ready again: {body}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    service.stop();
}
