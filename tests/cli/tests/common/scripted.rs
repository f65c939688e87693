//! A scripted HTTP/1.1 server on 127.0.0.1: answers each connection with the next canned raw
//! response and records the requests, so tests see exactly what the client sent and control
//! exactly what it receives (statuses, headers and bodies a real server would never send).

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

/// Bytes written verbatim after a request is read (after a pause, when it has one); the
/// connection is then closed.
pub struct Reply(pub Vec<u8>, pub Option<std::time::Duration>);

/// `reply`, written only after `pause` (a slow server, for timeouts).
pub fn delayed(reply: Reply, pause: std::time::Duration) -> Reply {
    Reply(reply.0, Some(pause))
}

/// A complete response with `Content-Length` and `Connection: close`.
pub fn reply(status: u16, headers: &[(&str, &str)], body: &str) -> Reply {
    let mut raw = format!(
        "HTTP/1.1 {status} Scripted\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (name, value) in headers {
        raw.push_str(&format!("{name}: {value}\r\n"));
    }
    raw.push_str("\r\n");
    raw.push_str(body);
    Reply(raw.into_bytes(), None)
}

/// A JSON response.
pub fn json(status: u16, headers: &[(&str, &str)], body: &str) -> Reply {
    let mut all = vec![("Content-Type", "application/json")];
    all.extend_from_slice(headers);
    reply(status, &all, body)
}

pub struct Server {
    /// `http://127.0.0.1:PORT/v1`: the pet store's `/v1` prefix, so tests also see that the
    /// client keeps the base URL's path.
    pub base_url: String,
    requests: Arc<Mutex<Vec<Recorded>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Server {
    /// Serves `replies` in order, one per connection; after them, every request gets a 500.
    /// Must be called inside a tokio runtime (the server is a task of it).
    pub async fn start(replies: Vec<Reply>) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base_url = format!("http://{}/v1", listener.local_addr().unwrap());
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
                // A slow answer is written by a task of its own, so that the next
                // connection (a retry after a timeout) is served meanwhile.
                tokio::spawn(async move {
                    if let Some(pause) = reply.1 {
                        tokio::time::sleep(pause).await;
                    }
                    let _ = write.write_all(&reply.0).await;
                    let _ = write.shutdown().await;
                });
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
