//! Test support: a scripted HTTP/1.1 server on 127.0.0.1 that answers canned raw responses in
//! sequence and records the requests, and a tracing subscriber that captures events.

#![allow(dead_code)] // each test binary uses a different part of this module

use std::sync::{Arc, Mutex};

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

/// One request as the server received it.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub method: String,
    /// Path and query, as on the request line.
    pub target: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Bytes written verbatim after a request is read; the connection is then closed.
pub struct Reply(pub Vec<u8>);

/// A complete response with `Content-Length` and `Connection: close`.
pub fn reply(status: u16, headers: &[(&str, &str)], body: &str) -> Reply {
    let mut raw = format!(
        "HTTP/1.1 {status} {}\r\nContent-Length: {}\r\nConnection: close\r\n",
        http::StatusCode::from_u16(status)
            .ok()
            .and_then(|s| s.canonical_reason())
            .unwrap_or("Whatever"),
        body.len()
    );
    for (name, value) in headers {
        raw.push_str(&format!("{name}: {value}\r\n"));
    }
    raw.push_str("\r\n");
    raw.push_str(body);
    Reply(raw.into_bytes())
}

/// A JSON response.
pub fn json(status: u16, headers: &[(&str, &str)], body: &str) -> Reply {
    let mut all = vec![("Content-Type", "application/json")];
    all.extend_from_slice(headers);
    reply(status, &all, body)
}

/// Headers announcing 100 bytes, then only a few of them before the connection closes.
pub fn cut_off() -> Reply {
    Reply(
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\nConnection: close\r\n\r\n{\"id\":"
            .to_vec(),
    )
}

/// Closes the connection without answering at all.
pub fn hang_up() -> Reply {
    Reply(Vec::new())
}

pub struct Server {
    pub base_url: String,
    requests: Arc<Mutex<Vec<Recorded>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Server {
    /// Serves `replies` in order, one per connection; after them, every request gets a 500.
    pub async fn start(replies: Vec<Reply>) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base_url = format!("http://{}", listener.local_addr().unwrap());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let recorded = Arc::clone(&requests);
        let task = tokio::spawn(async move {
            let mut replies = replies.into_iter();
            loop {
                let Ok((socket, _)) = listener.accept().await else {
                    return;
                };
                let (read, mut write) = socket.into_split();
                let mut reader = BufReader::new(read);
                let Some(request) = read_request(&mut reader).await else {
                    continue;
                };
                recorded.lock().unwrap().push(request);
                let reply = replies
                    .next()
                    .unwrap_or_else(|| reply(500, &[], "script exhausted"));
                let _ = write.write_all(&reply.0).await;
                let _ = write.shutdown().await;
            }
        });
        Server {
            base_url,
            requests,
            task,
        }
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.requests.lock().unwrap().clone()
    }

    pub fn count(&self) -> usize {
        self.requests.lock().unwrap().len()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn read_request<R: tokio::io::AsyncRead + Unpin>(
    reader: &mut BufReader<R>,
) -> Option<Recorded> {
    let mut line = String::new();
    reader.read_line(&mut line).await.ok()?;
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_owned();
    let target = parts.next()?.to_owned();
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).await.ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':')?;
        headers.push((name.trim().to_owned(), value.trim().to_owned()));
    }
    let length = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse::<usize>().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).await.ok()?;
    Some(Recorded {
        method,
        target,
        headers,
        body,
    })
}

/// The HTTP client tests send with: it ignores `HTTP_PROXY` and friends (every server here is
/// on loopback), so the suite passes on machines with a proxy set.
pub fn direct_http() -> reqwest::Client {
    reqwest::Client::builder().no_proxy().build().unwrap()
}

/// A port on 127.0.0.1 where nothing listens (bound, then released).
pub fn refused_base_url() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    format!("http://{addr}")
}

pub mod capture {
    //! A minimal tracing subscriber that records each event's level and message, installed for
    //! the current thread (tokio's test runtime polls everything on that thread).

    use std::fmt::Write as _;
    use std::sync::{Arc, Mutex};

    use tracing::field::{Field, Visit};
    use tracing::span::{Attributes, Id, Record};
    use tracing::subscriber::DefaultGuard;
    use tracing::{Event, Level, Metadata, Subscriber};

    #[derive(Clone, Debug)]
    pub struct Captured {
        pub level: Level,
        /// The message followed by ` name=value` for every other field.
        pub text: String,
    }

    #[derive(Clone, Default)]
    pub struct Events(Arc<Mutex<Vec<Captured>>>);

    impl Events {
        pub fn all(&self) -> Vec<Captured> {
            self.0.lock().unwrap().clone()
        }

        pub fn at(&self, level: Level) -> Vec<String> {
            self.all()
                .into_iter()
                .filter(|e| e.level == level)
                .map(|e| e.text)
                .collect()
        }
    }

    struct Collector(Events);

    struct Text<'a>(&'a mut String, &'a mut String);

    impl Visit for Text<'_> {
        fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
            if field.name() == "message" {
                let _ = write!(self.0, "{value:?}");
            } else {
                let _ = write!(self.1, " {}={value:?}", field.name());
            }
        }
        fn record_str(&mut self, field: &Field, value: &str) {
            if field.name() == "message" {
                self.0.push_str(value);
            } else {
                let _ = write!(self.1, " {}={value}", field.name());
            }
        }
    }

    impl Subscriber for Collector {
        fn enabled(&self, _: &Metadata<'_>) -> bool {
            true
        }
        fn new_span(&self, _: &Attributes<'_>) -> Id {
            Id::from_u64(1)
        }
        fn record(&self, _: &Id, _: &Record<'_>) {}
        fn record_follows_from(&self, _: &Id, _: &Id) {}
        fn event(&self, event: &Event<'_>) {
            let (mut message, mut fields) = (String::new(), String::new());
            event.record(&mut Text(&mut message, &mut fields));
            self.0.0.lock().unwrap().push(Captured {
                level: *event.metadata().level(),
                text: message + &fields,
            });
        }
        fn enter(&self, _: &Id) {}
        fn exit(&self, _: &Id) {}
    }

    /// Captures events on this thread until the guard drops.
    pub fn start() -> (Events, DefaultGuard) {
        let events = Events::default();
        let guard = tracing::subscriber::set_default(Collector(events.clone()));
        (events, guard)
    }
}
