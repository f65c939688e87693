//! Shared by the HTTP tests: start the service (as the binary configures it, or with a clock
//! the test moves), send requests, and read responses (reqwest, and raw TCP for requests
//! reqwest would not send as written).
#![allow(dead_code)]

use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use petstore_service::petstore_server::runtime::ratelimit::Decision;
use petstore_service::petstore_server::{
    self, InMemoryRateLimiter, Quota, RateLimitPolicy, RateLimiter, ServerConfig,
};
use petstore_service::{PetStore, Plan, Running, app, router, spawn, static_keys};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

pub const FREE_KEY: &str = "free-key-0123456789";
pub const PRO_KEY: &str = "pro-key-0123456789";
pub const ENTERPRISE_KEY: &str = "enterprise-key-0123456789";

pub fn keys() -> Vec<(&'static str, Plan)> {
    vec![
        (FREE_KEY, Plan::Free),
        (PRO_KEY, Plan::Pro),
        (ENTERPRISE_KEY, Plan::Enterprise),
    ]
}

/// The service as the binary runs it (real clock), with the three keys above.
pub async fn start() -> Running {
    spawn(app(Arc::new(PetStore::new()), keys())).await.unwrap()
}

/// 2030-01-01T00:00:00Z: a minute and day boundary.
pub const T0: u64 = 1_893_456_000;

/// A clock the test sets: the in-memory limiter with time injected.
#[derive(Clone)]
pub struct Clock(Arc<Mutex<u64>>);

impl Clock {
    pub fn at(secs: u64) -> Clock {
        Clock(Arc::new(Mutex::new(secs)))
    }
    pub fn now(&self) -> u64 {
        *self.0.lock().unwrap()
    }
    pub fn advance(&self, secs: u64) {
        *self.0.lock().unwrap() += secs;
    }
}

pub struct ClockedLimiter {
    inner: InMemoryRateLimiter,
    clock: Clock,
}

impl RateLimiter for ClockedLimiter {
    fn check<'a>(
        &'a self,
        key: &'a str,
        quota: Quota,
        _now: SystemTime,
    ) -> Pin<Box<dyn Future<Output = Decision> + Send + 'a>> {
        let now = UNIX_EPOCH + Duration::from_secs(self.clock.now());
        Box::pin(std::future::ready(self.inner.check_now(key, quota, now)))
    }
}

/// The service with `policy` (e.g. the spec's, `petstore_server::rate_limit_policy()`) and a
/// limiter whose time is `clock`.
pub async fn start_clocked(policy: RateLimitPolicy, clock: &Clock) -> Running {
    let limiter = ClockedLimiter {
        inner: InMemoryRateLimiter::for_policy(&policy),
        clock: clock.clone(),
    };
    let config = ServerConfig::new()
        .authenticator(static_keys(keys()))
        .rate_limit(limiter, policy);
    spawn(router(Arc::new(PetStore::new()), config))
        .await
        .unwrap()
}

pub fn spec_policy() -> RateLimitPolicy {
    petstore_server::rate_limit_policy()
}

/// The test client. It ignores `HTTP_PROXY` and friends: the service is on loopback.
pub fn client() -> reqwest::Client {
    reqwest::Client::builder().no_proxy().build().unwrap()
}

/// What tests assert on.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub body: String,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("body is not JSON ({e}): {:?}", self.body))
    }

    /// Asserts the spec's `Error` body (exactly `code`, `message`, `status` = the HTTP
    /// status, as `application/json`) and returns (code, message).
    pub fn problem(&self) -> (String, String) {
        assert_eq!(
            self.header("content-type"),
            Some("application/json"),
            "error content type; body {:?}",
            self.body
        );
        let v = self.json();
        let obj = v.as_object().expect("the Error body is an object");
        assert_eq!(obj.len(), 3, "exactly code, message, status: {v}");
        assert_eq!(v["status"].as_u64(), Some(u64::from(self.status)), "{v}");
        (
            v["code"].as_str().expect("code is a string").to_owned(),
            v["message"]
                .as_str()
                .expect("message is a string")
                .to_owned(),
        )
    }

    /// `X-RateLimit-Limit`, `-Remaining`, `-Reset` as numbers; panics when one is missing.
    pub fn rate_limit(&self) -> (u64, u64, u64) {
        let get = |name: &str| -> u64 {
            self.header(name)
                .unwrap_or_else(|| panic!("{name} missing on {} {:?}", self.status, self.body))
                .parse()
                .unwrap_or_else(|e| panic!("{name} is not an integer: {e}"))
        };
        (
            get("x-ratelimit-limit"),
            get("x-ratelimit-remaining"),
            get("x-ratelimit-reset"),
        )
    }

    /// The whole response as text (headers and body), for "never echoed" checks.
    pub fn everything(&self) -> String {
        let mut s = String::new();
        for (k, v) in &self.headers {
            s.push_str(&format!("{k}: {}\n", String::from_utf8_lossy(v.as_bytes())));
        }
        s.push_str(&self.body);
        s
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

/// A JSON POST to `/v1/pets` with `key`.
pub fn post_pet(
    c: &reqwest::Client,
    srv: &Running,
    key: &str,
    body: &str,
) -> reqwest::RequestBuilder {
    c.post(format!("{}/pets", srv.base_url()))
        .bearer_auth(key)
        .header("content-type", "application/json")
        .body(body.to_owned())
}

/// Sends `head` (request line and headers, without the blank line) and `body` verbatim over
/// TCP, with `Host` and `Connection: close` added; returns the status and the whole response.
pub async fn raw(addr: SocketAddr, head: &str, body: &[u8]) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut req = format!("{head}\r\nHost: {addr}\r\nConnection: close\r\n\r\n").into_bytes();
    req.extend_from_slice(body);
    // The server may answer (413) and close before it has read everything: ignore write errors.
    let _ = stream.write_all(&req).await;
    let mut buf = Vec::new();
    let _ = stream.read_to_end(&mut buf).await;
    let text = String::from_utf8_lossy(&buf).into_owned();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {text:?}"));
    (status, text)
}
