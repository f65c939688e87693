//! A recording HTTP/1.1 relay between the CLI and Prism, so that the harness sees each
//! exchange as it was: the request line, the answer's status, headers and body (Prism's log
//! says what it decided, not what it sent).
//!
//! Each request is read whole (a `Content-Length` or chunked body), sent to Prism on a
//! connection of its own with `Connection: close`, and the answer read to its end and passed
//! back with a `Content-Length`; the CLI's connection is kept for its next request.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// One request and the answer Prism gave it.
#[derive(Debug, Clone, Default)]
pub struct Exchange {
    /// `GET /pets?limit=5`
    pub request: String,
    /// The request's header lines as sent (`name: value`, the name as written).
    pub request_headers: Vec<(String, String)>,
    /// The request's body.
    pub request_body: Vec<u8>,
    pub status: u16,
    /// Names lower case.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Exchange {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The relay: listens on a free loopback port until the process ends.
pub struct Proxy {
    pub port: u16,
    exchanges: Arc<Mutex<Vec<Exchange>>>,
}

impl Proxy {
    /// Relays to `127.0.0.1:upstream`.
    pub fn start(upstream: u16) -> Result<Proxy, String> {
        let listener = TcpListener::bind("127.0.0.1:0")
            .map_err(|e| format!("cannot listen for the relay: {e}"))?;
        let port = listener.local_addr().map_err(|e| e.to_string())?.port();
        let exchanges = Arc::new(Mutex::new(Vec::new()));
        let recorded = Arc::clone(&exchanges);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let recorded = Arc::clone(&recorded);
                std::thread::spawn(move || {
                    let _ = relay(stream, upstream, &recorded);
                });
            }
        });
        Ok(Proxy { port, exchanges })
    }

    /// The exchanges since the last call.
    pub fn take(&self) -> Vec<Exchange> {
        std::mem::take(&mut *self.exchanges.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// An upstream that answers every request `200` with the JSON `{}` (the echo harness: the
/// relay in front of it records what the client sent); its port.
pub fn start_echo() -> Result<u16, String> {
    let listener = TcpListener::bind("127.0.0.1:0")
        .map_err(|e| format!("cannot listen for the echo server: {e}"))?;
    let port = listener.local_addr().map_err(|e| e.to_string())?.port();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            std::thread::spawn(move || {
                let _ = answer_empty(stream);
            });
        }
    });
    Ok(port)
}

/// Reads one request and answers it `{}` (the relay opens a connection per request).
fn answer_empty(stream: TcpStream) -> Result<(), String> {
    let mut reader = BufReader::new(stream.try_clone().map_err(|e| e.to_string())?);
    let mut writer = stream;
    if read_message(&mut reader, Kind::Request)?.is_none() {
        return Ok(());
    }
    writer
        .write_all(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
        )
        .map_err(|e| e.to_string())
}

/// Serves one connection of the CLI until it closes.
fn relay(client: TcpStream, upstream: u16, recorded: &Mutex<Vec<Exchange>>) -> Result<(), String> {
    client
        .set_read_timeout(Some(Duration::from_secs(120)))
        .map_err(|e| e.to_string())?;
    let mut reader = BufReader::new(client.try_clone().map_err(|e| e.to_string())?);
    let mut writer = client;
    loop {
        let Some((head, body)) = read_message(&mut reader, Kind::Request)? else {
            return Ok(());
        };
        let request_line = head.first().cloned().unwrap_or_default();
        let mut upstream_stream = TcpStream::connect(("127.0.0.1", upstream))
            .map_err(|e| format!("cannot reach Prism: {e}"))?;
        upstream_stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .map_err(|e| e.to_string())?;
        let mut out = format!("{request_line}\r\n");
        for line in &head[1..] {
            let name = line
                .split(':')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase();
            if matches!(
                name.as_str(),
                "connection" | "content-length" | "transfer-encoding"
            ) {
                continue;
            }
            out.push_str(line);
            out.push_str("\r\n");
        }
        if !body.is_empty() || has_body_method(&request_line) {
            out.push_str(&format!("Content-Length: {}\r\n", body.len()));
        }
        out.push_str("Connection: close\r\n\r\n");
        upstream_stream
            .write_all(out.as_bytes())
            .and_then(|()| upstream_stream.write_all(&body))
            .map_err(|e| format!("cannot send to Prism: {e}"))?;
        let mut upstream_reader = BufReader::new(upstream_stream);
        let head_request = request_line.starts_with("HEAD ");
        let Some((answer_head, answer_body)) =
            read_message(&mut upstream_reader, Kind::Answer { head_request })?
        else {
            return Err("Prism closed the connection without answering".into());
        };
        let status_line = answer_head.first().cloned().unwrap_or_default();
        let status = status_line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        // An answer that has no body by its status (or a HEAD's) keeps its `Content-Length`
        // as sent: Prism writes the declared content's length on a 204, and a client must
        // ignore it (RFC 9112, 6.3), so the CLI sees it too.
        let bodiless = head_request || !status_has_body(status);
        let mut headers = Vec::new();
        let mut back = format!("{status_line}\r\n");
        for line in &answer_head[1..] {
            let (name, value) = line.split_once(':').unwrap_or((line, ""));
            let lower = name.trim().to_ascii_lowercase();
            headers.push((lower.clone(), value.trim().to_string()));
            let framing = match lower.as_str() {
                "connection" | "transfer-encoding" | "keep-alive" => true,
                "content-length" => !bodiless,
                _ => false,
            };
            if framing {
                continue;
            }
            back.push_str(line);
            back.push_str("\r\n");
        }
        if !bodiless {
            back.push_str(&format!("Content-Length: {}\r\n", answer_body.len()));
        }
        back.push_str("\r\n");
        recorded
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Exchange {
                request: request_line,
                request_headers: head[1..]
                    .iter()
                    .map(|line| {
                        let (name, value) = line.split_once(':').unwrap_or((line, ""));
                        (name.trim().to_string(), value.trim().to_string())
                    })
                    .collect(),
                request_body: body.clone(),
                status,
                headers,
                body: answer_body.clone(),
            });
        writer
            .write_all(back.as_bytes())
            .and_then(|()| writer.write_all(&answer_body))
            .and_then(|()| writer.flush())
            .map_err(|e| format!("cannot answer the CLI: {e}"))?;
    }
}

fn has_body_method(request_line: &str) -> bool {
    matches!(
        request_line.split_whitespace().next(),
        Some("POST" | "PUT" | "PATCH")
    )
}

/// Whether an answer with this status may have a body: never a 1xx, 204 or 304 (RFC 9112,
/// 6.3), whatever its `Content-Length` says.
fn status_has_body(status: u16) -> bool {
    !(100..200).contains(&status) && status != 204 && status != 304
}

/// A message's head lines (without CRLF) and its body.
type Message = (Vec<String>, Vec<u8>);

/// Which message is read: how its body ends depends on it.
#[derive(Debug, Clone, Copy)]
enum Kind {
    Request,
    /// An answer, to a HEAD request or not.
    Answer {
        head_request: bool,
    },
}

/// A message, its body by `Content-Length`, chunked, or (an answer without either) to the
/// end of the connection; an answer to a HEAD request, or whose status has no body, has none
/// whatever its headers say. `None` at a clean end of input.
fn read_message(reader: &mut impl BufRead, kind: Kind) -> Result<Option<Message>, String> {
    let mut head = Vec::new();
    loop {
        let mut line = String::new();
        let n = reader
            .read_line(&mut line)
            .map_err(|e| format!("reading a message head: {e}"))?;
        if n == 0 {
            return if head.is_empty() {
                Ok(None)
            } else {
                Err("the connection closed inside a message head".into())
            };
        }
        let line = line.trim_end_matches(['\r', '\n']).to_string();
        if line.is_empty() {
            if head.is_empty() {
                continue;
            }
            break;
        }
        head.push(line);
    }
    let header = |name: &str| {
        head[1..].iter().find_map(|l| {
            let (n, v) = l.split_once(':')?;
            n.trim()
                .eq_ignore_ascii_case(name)
                .then(|| v.trim().to_string())
        })
    };
    let mut body = Vec::new();
    if let Kind::Answer { head_request } = kind {
        let status = head[0]
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(200);
        if head_request || !status_has_body(status) {
            return Ok(Some((head, body)));
        }
    }
    if header("transfer-encoding").is_some_and(|v| v.to_ascii_lowercase().contains("chunked")) {
        loop {
            let mut size = String::new();
            reader.read_line(&mut size).map_err(|e| e.to_string())?;
            let size = usize::from_str_radix(size.trim().split(';').next().unwrap_or("0"), 16)
                .map_err(|_| format!("a bad chunk size `{}`", size.trim()))?;
            if size == 0 {
                // Trailers, up to the empty line.
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).map_err(|e| e.to_string())? == 0
                        || line.trim().is_empty()
                    {
                        break;
                    }
                }
                break;
            }
            let mut chunk = vec![0; size];
            reader.read_exact(&mut chunk).map_err(|e| e.to_string())?;
            body.extend(chunk);
            let mut crlf = String::new();
            reader.read_line(&mut crlf).map_err(|e| e.to_string())?;
        }
    } else if let Some(length) = header("content-length") {
        let length: usize = length
            .parse()
            .map_err(|_| format!("a bad Content-Length `{length}`"))?;
        body = vec![0; length];
        reader.read_exact(&mut body).map_err(|e| e.to_string())?;
    } else if matches!(kind, Kind::Answer { .. }) {
        reader.read_to_end(&mut body).map_err(|e| e.to_string())?;
    }
    Ok(Some((head, body)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_read_by_length_chunks_or_to_the_end() {
        let mut text: &[u8] =
            b"POST /a HTTP/1.1\r\nContent-Length: 3\r\n\r\nabcGET /b HTTP/1.1\r\nHost: x\r\n\r\n";
        let (head, body) = read_message(&mut text, Kind::Request).unwrap().unwrap();
        assert_eq!(head[0], "POST /a HTTP/1.1");
        assert_eq!(body, b"abc");
        let (head, body) = read_message(&mut text, Kind::Request).unwrap().unwrap();
        assert_eq!(head, ["GET /b HTTP/1.1", "Host: x"]);
        assert!(body.is_empty());
        assert!(read_message(&mut text, Kind::Request).unwrap().is_none());
        let mut chunked: &[u8] =
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n";
        assert_eq!(
            read_message(
                &mut chunked,
                Kind::Answer {
                    head_request: false
                }
            )
            .unwrap()
            .unwrap()
            .1,
            b"abcde"
        );
        let mut open: &[u8] = b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nall of it";
        assert_eq!(
            read_message(
                &mut open,
                Kind::Answer {
                    head_request: false
                }
            )
            .unwrap()
            .unwrap()
            .1,
            b"all of it"
        );
    }

    #[test]
    fn answers_without_a_body_by_status_or_method_are_not_read_for_one() {
        // Prism's 204 for a declared JSON content: the content's length, and no body.
        let mut no_content: &[u8] =
            b"HTTP/1.1 204 No Content\r\nContent-Length: 65\r\n\r\nHTTP/1.1 200 OK\r\n";
        let (head, body) = read_message(
            &mut no_content,
            Kind::Answer {
                head_request: false,
            },
        )
        .unwrap()
        .unwrap();
        assert_eq!(head[0], "HTTP/1.1 204 No Content");
        assert!(body.is_empty());
        let mut head_answer: &[u8] = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n";
        let (_, body) = read_message(&mut head_answer, Kind::Answer { head_request: true })
            .unwrap()
            .unwrap();
        assert!(body.is_empty());
        for status in [101, 204, 304] {
            assert!(!status_has_body(status), "{status}");
        }
        assert!(status_has_body(200) && status_has_body(205));
    }
}
