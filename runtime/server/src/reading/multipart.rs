//! Owns `multipart/form-data` request bodies (RFC 7578): the boundary from the Content-Type,
//! the parts split out of the whole body, and each part's name, file name and media type.
//!
//! The body is read whole first (under the same size and time limits as every body), so the
//! parser works on one buffer; nothing here streams.

use axum::body::Bytes;

use super::problem::Problem;

/// One part of a form: the field it fills and its content, as sent.
#[derive(Debug, Clone)]
pub struct Part {
    /// The `name` of its `Content-Disposition: form-data`.
    pub name: String,
    /// The `filename`, when the part is a file.
    pub filename: Option<String>,
    /// Its `Content-Type` (`text/plain` when absent, RFC 7578 §4.4).
    pub content_type: Option<String>,
    /// The part's content, as sent.
    pub data: Bytes,
}

/// The `boundary` parameter of a `multipart/…` Content-Type, unquoted.
pub fn boundary(content_type: &str) -> Option<String> {
    content_type.split(';').skip(1).find_map(|param| {
        let (key, value) = param.split_once('=')?;
        if !key.trim().eq_ignore_ascii_case("boundary") {
            return None;
        }
        let value = value.trim();
        let value = value
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .unwrap_or(value);
        // RFC 2046 §5.1.1: 1 to 70 characters.
        (!value.is_empty() && value.len() <= 70).then(|| value.to_owned())
    })
}

/// The parts of a whole `multipart/form-data` body. Every malformation is a 400 that says
/// what is wrong: a missing closing boundary, a part without a name, a header line that is
/// not one.
pub fn parse(body: &Bytes, boundary: &str) -> Result<Vec<Part>, Problem> {
    let delimiter = format!("--{boundary}");
    let delimiter = delimiter.as_bytes();
    let bad = |what: &str| Problem::bad_request(format!("malformed multipart body: {what}"));
    // The first delimiter opens the body or follows a preamble line.
    let mut at = if body.starts_with(delimiter) {
        delimiter.len()
    } else {
        find(body, &[b"\r\n", delimiter].concat(), 0)
            .ok_or_else(|| bad("no part opens with the boundary of its Content-Type"))?
            + 2
            + delimiter.len()
    };
    let close = [b"\r\n", delimiter].concat();
    let mut parts = Vec::new();
    loop {
        if body[at..].starts_with(b"--") {
            return Ok(parts); // the closing delimiter; the epilogue is ignored
        }
        // Transport padding (RFC 2046 §5.1.1), then the line break that ends the delimiter.
        while matches!(body.get(at), Some(b' ' | b'\t')) {
            at += 1;
        }
        if !body[at..].starts_with(b"\r\n") {
            return Err(bad("a boundary is not followed by a line break"));
        }
        at += 2;
        let end = find(body, &close, at)
            .ok_or_else(|| bad("the body ends before its closing boundary"))?;
        parts.push(part(body.slice(at..end)).map_err(|what| bad(&what))?);
        at = end + close.len();
    }
}

/// One part: its header lines up to the blank line, then its content.
fn part(raw: Bytes) -> Result<Part, String> {
    let (head, data) = match find(&raw, b"\r\n\r\n", 0) {
        Some(i) => (&raw[..i], raw.slice(i + 4..)),
        // No headers at all: the part opens with its blank line.
        None if raw.starts_with(b"\r\n") => (&raw[..0], raw.slice(2..)),
        None => return Err("a part's headers do not end with a blank line".into()),
    };
    let head = std::str::from_utf8(head).map_err(|_| "a part's headers are not UTF-8")?;
    let (mut name, mut filename, mut content_type) = (None, None, None);
    for line in head.split("\r\n").filter(|l| !l.is_empty()) {
        let (key, value) = line
            .split_once(':')
            .ok_or_else(|| format!("`{line}` is not a header line"))?;
        let key = key.trim();
        if key.eq_ignore_ascii_case("content-disposition") {
            name = parameter(value, "name");
            filename = parameter(value, "filename");
        } else if key.eq_ignore_ascii_case("content-type") {
            content_type = Some(value.trim().to_owned());
        }
    }
    let name = name.ok_or("a part has no `Content-Disposition: form-data; name=…`")?;
    Ok(Part {
        name,
        filename,
        content_type,
        data,
    })
}

/// A parameter of a header value (`form-data; name="file"; filename="a.txt"`), unquoted;
/// `\"` and `\\` inside quotes are the characters they escape.
fn parameter(value: &str, wanted: &str) -> Option<String> {
    let mut rest = value.split_once(';')?.1;
    loop {
        let (key, after) = rest.split_once('=')?;
        let after = after.trim_start();
        let (value, next) = if let Some(quoted) = after.strip_prefix('"') {
            let mut out = String::new();
            let mut chars = quoted.char_indices();
            let mut end = None;
            while let Some((i, c)) = chars.next() {
                match c {
                    '\\' => out.extend(chars.next().map(|(_, c)| c)),
                    '"' => {
                        end = Some(i + 1);
                        break;
                    }
                    c => out.push(c),
                }
            }
            let rest = &quoted[end?..];
            (out, rest.split_once(';').map_or("", |(_, r)| r))
        } else {
            let (v, r) = after.split_once(';').unwrap_or((after, ""));
            (v.trim().to_owned(), r)
        };
        if key.trim().eq_ignore_ascii_case(wanted) {
            return Some(value);
        }
        if next.is_empty() {
            return None;
        }
        rest = next;
    }
}

/// Where `needle` first occurs in `haystack` at or after `from`.
fn find(haystack: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    let first = *needle.first()?;
    let mut at = from;
    while at + needle.len() <= haystack.len() {
        let i = haystack[at..=haystack.len() - needle.len()]
            .iter()
            .position(|&b| b == first)?;
        if haystack[at + i..].starts_with(needle) {
            return Some(at + i);
        }
        at += i + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(text: &str) -> Bytes {
        Bytes::from(text.replace('\n', "\r\n"))
    }

    #[test]
    fn parts_with_names_files_and_types() {
        let parts = parse(
            &body(
                "preamble\n--XyZ\nContent-Disposition: form-data; name=\"name\"\n\nRex\n\
                 --XyZ\nContent-Disposition: form-data; name=\"photo\"; filename=\"a \\\"b\\\".png\"\n\
                 Content-Type: image/png\n\n\u{1}\u{2}\n--XyZ\nContent-Disposition: form-data; name=tags\n\n\n\
                 --XyZ--\nepilogue",
            ),
            "XyZ",
        )
        .expect("parses");
        let seen: Vec<_> = parts
            .iter()
            .map(|p| {
                (
                    p.name.as_str(),
                    p.filename.as_deref(),
                    p.content_type.as_deref(),
                    &p.data[..],
                )
            })
            .collect();
        assert_eq!(
            seen,
            [
                ("name", None, None, &b"Rex"[..]),
                ("photo", Some("a \"b\".png"), Some("image/png"), &[1, 2][..]),
                ("tags", None, None, &b""[..]),
            ]
        );
    }

    #[test]
    fn malformed_bodies_say_what_is_wrong() {
        for (text, says) in [
            (
                "--b\nContent-Disposition: form-data; name=a\n\nx\n",
                "closing boundary",
            ),
            ("no boundary here", "opens with the boundary"),
            (
                "--b\nContent-Type: text/plain\n\nx\n--b--",
                "no `Content-Disposition",
            ),
            ("--b\nnot a header\n\nx\n--b--", "not a header line"),
            ("--bx\n", "line break"),
        ] {
            let problem = parse(&body(text), "b").expect_err(text);
            assert!(
                problem.message.contains(says),
                "{text}: {}",
                problem.message
            );
        }
    }

    #[test]
    fn the_boundary_parameter_quoted_or_not() {
        assert_eq!(
            boundary("multipart/form-data; boundary=abc").as_deref(),
            Some("abc")
        );
        assert_eq!(
            boundary("multipart/form-data; charset=utf-8; Boundary=\"a b\"").as_deref(),
            Some("a b")
        );
        assert_eq!(boundary("multipart/form-data"), None);
        assert_eq!(boundary("multipart/form-data; boundary="), None);
    }
}
