//! Owns `multipart/form-data` request bodies (RFC 7578): a form of text, JSON and file parts,
//! written with a boundary that none of its parts contains.
//!
//! A generated method whose body is a multipart form takes a [`Form`]: files are bytes, which
//! the schema's `format: binary` strings cannot hold, so the form is built part by part (or
//! from a value's fields with [`Form::from_fields`], files added after).

use bytes::Bytes;
use http::HeaderValue;
use serde::Serialize;
use serde_json::Value;

use super::error::SendError;

/// A multipart form, its parts in the order added.
#[derive(Debug, Clone, Default)]
pub struct Form {
    parts: Vec<Part>,
}

#[derive(Debug, Clone)]
struct Part {
    name: String,
    filename: Option<String>,
    content_type: Option<std::borrow::Cow<'static, str>>,
    data: Bytes,
}

impl Form {
    /// A form without parts.
    pub fn new() -> Self {
        Form::default()
    }

    /// A form of a value's fields, as a server reads them back: a string, number or boolean
    /// is a text part, an array of them one part per item, an object (or an array holding
    /// one) a JSON part; `null` and absent fields are left out. Fails when the value is not
    /// an object.
    pub fn from_fields<T: Serialize + ?Sized>(value: &T) -> Result<Self, SendError> {
        let value = serde_json::to_value(value).map_err(|e| {
            SendError::InvalidRequest(format!("multipart body serialization failed: {e}"))
        })?;
        let Value::Object(fields) = value else {
            return Err(SendError::InvalidRequest(
                "a multipart body is an object's fields".into(),
            ));
        };
        let mut form = Form::new();
        for (name, value) in fields {
            match value {
                Value::Null => {}
                Value::Array(items) if items.iter().all(is_scalar) => {
                    for item in &items {
                        form = form.text(name.clone(), scalar_text(item));
                    }
                }
                v if is_scalar(&v) => form = form.text(name, scalar_text(&v)),
                v => form = form.json_value(name, &v),
            }
        }
        Ok(form)
    }

    /// A text part.
    pub fn text(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.parts.push(Part {
            name: name.into(),
            filename: None,
            content_type: None,
            data: Bytes::from(value.into()),
        });
        self
    }

    /// A file: its bytes, sent as `application/octet-stream` under `filename`.
    pub fn file(
        mut self,
        name: impl Into<String>,
        filename: impl Into<String>,
        data: impl Into<Bytes>,
    ) -> Self {
        self.parts.push(Part {
            name: name.into(),
            filename: Some(filename.into()),
            content_type: Some("application/octet-stream".into()),
            data: data.into(),
        });
        self
    }

    /// A file sent as `content_type` (an image as `image/png`; the document's `encoding`, or
    /// what the file's name says), under `filename`.
    pub fn file_as(
        mut self,
        name: impl Into<String>,
        filename: impl Into<String>,
        content_type: impl Into<String>,
        data: impl Into<Bytes>,
    ) -> Self {
        self.parts.push(Part {
            name: name.into(),
            filename: Some(filename.into()),
            content_type: Some(content_type.into().into()),
            data: data.into(),
        });
        self
    }

    /// A part holding a value as JSON (`Content-Type: application/json`): OpenAPI's encoding
    /// of an object property.
    pub fn json<T: Serialize + ?Sized>(
        self,
        name: impl Into<String>,
        value: &T,
    ) -> Result<Self, SendError> {
        let value = serde_json::to_value(value).map_err(|e| {
            SendError::InvalidRequest(format!("multipart part serialization failed: {e}"))
        })?;
        Ok(self.json_value(name, &value))
    }

    fn json_value(mut self, name: impl Into<String>, value: &Value) -> Self {
        self.parts.push(Part {
            name: name.into(),
            filename: None,
            content_type: Some("application/json".into()),
            data: Bytes::from(value.to_string()),
        });
        self
    }

    /// The body and its Content-Type, whose boundary no part contains.
    pub fn encode(&self) -> (HeaderValue, Bytes) {
        let boundary = (0u64..)
            .map(|n| format!("apigen-form-boundary-{n:016x}"))
            .find(|b| !self.parts.iter().any(|p| contains(&p.data, b.as_bytes())))
            .unwrap_or_default();
        let mut body = Vec::new();
        for part in &self.parts {
            body.extend_from_slice(b"--");
            body.extend_from_slice(boundary.as_bytes());
            body.extend_from_slice(b"\r\nContent-Disposition: form-data; name=\"");
            body.extend_from_slice(quoted(&part.name).as_bytes());
            body.push(b'"');
            if let Some(filename) = &part.filename {
                body.extend_from_slice(b"; filename=\"");
                body.extend_from_slice(quoted(filename).as_bytes());
                body.push(b'"');
            }
            if let Some(content_type) = &part.content_type {
                body.extend_from_slice(b"\r\nContent-Type: ");
                body.extend_from_slice(content_type.as_bytes());
            }
            body.extend_from_slice(b"\r\n\r\n");
            body.extend_from_slice(&part.data);
            body.extend_from_slice(b"\r\n");
        }
        body.extend_from_slice(b"--");
        body.extend_from_slice(boundary.as_bytes());
        body.extend_from_slice(b"--\r\n");
        // The boundary is ASCII letters, digits and dashes: always a valid header value.
        let content_type =
            HeaderValue::from_str(&format!("multipart/form-data; boundary={boundary}"))
                .unwrap_or_else(|_| HeaderValue::from_static("multipart/form-data"));
        (content_type, Bytes::from(body))
    }
}

fn is_scalar(value: &Value) -> bool {
    matches!(value, Value::String(_) | Value::Number(_) | Value::Bool(_))
}

fn scalar_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A name in a quoted header parameter: `"` and `\` escaped, line breaks (which would end
/// the header) as spaces.
fn quoted(name: &str) -> String {
    name.chars()
        .flat_map(|c| match c {
            '"' | '\\' => vec!['\\', c],
            '\r' | '\n' => vec![' '],
            c => vec![c],
        })
        .collect()
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_form_of_fields_and_a_file() {
        let form = Form::from_fields(&serde_json::json!({
            // In name order: serde_json's map keeps it with or without `preserve_order`.
            "copies": 2, "gone": null, "meta": {"author": "ann"}, "tags": ["a", "b"], "title": "Rex"
        }))
        .unwrap()
        .file("file", "a \"b\".png", vec![0xff, 0]);
        let (content_type, body) = form.encode();
        let boundary = "apigen-form-boundary-0000000000000000";
        assert_eq!(
            content_type,
            format!("multipart/form-data; boundary={boundary}")
        );
        let expected = [
            "--B\r\nContent-Disposition: form-data; name=\"copies\"\r\n\r\n2\r\n",
            "--B\r\nContent-Disposition: form-data; name=\"meta\"\r\nContent-Type: application/json\r\n\r\n{\"author\":\"ann\"}\r\n",
            "--B\r\nContent-Disposition: form-data; name=\"tags\"\r\n\r\na\r\n",
            "--B\r\nContent-Disposition: form-data; name=\"tags\"\r\n\r\nb\r\n",
            "--B\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nRex\r\n",
            "--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a \\\"b\\\".png\"\r\nContent-Type: application/octet-stream\r\n\r\n",
        ]
        .concat()
        .replace("--B", &format!("--{boundary}"));
        let mut want = expected.into_bytes();
        want.extend_from_slice(&[0xff, 0]);
        want.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
        assert_eq!(body.to_vec(), want);
    }

    #[test]
    fn the_boundary_is_in_no_part() {
        let clash = "x--apigen-form-boundary-0000000000000000y";
        let (content_type, _) = Form::new().text("a", clash).encode();
        assert_eq!(
            content_type,
            "multipart/form-data; boundary=apigen-form-boundary-0000000000000001"
        );
        assert!(Form::from_fields(&[1, 2]).is_err());
    }
}
