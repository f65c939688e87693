//! Prints `server/src/document.rs`: the document the server crate was generated from, as JSON
//! and as YAML, for `ServerConfig::serve_document` (the runtime's `document` module).

use crate::load::Written;

/// The file: the header, then `DOCUMENT` with both texts as raw string literals. The text
/// the author wrote is kept byte for byte in its own format; the other format is converted
/// from it. A document split over several files is served bundled into one.
pub fn document_rs(header: &str, title: &str, written: &Written) -> Result<String, String> {
    let exact = written.text.as_deref();
    let is_json = exact.is_some_and(|t| t.trim_start().starts_with('{'));
    let json = match exact {
        Some(text) if is_json => text.to_owned(),
        _ => serde_json::to_string_pretty(&written.value)
            .map_err(|e| format!("the document as JSON: {e}"))?,
    };
    let yaml = match exact {
        Some(text) if !is_json => text.to_owned(),
        _ => serde_yaml::to_string(&written.value)
            .map_err(|e| format!("the document as YAML: {e}"))?,
    };
    Ok(format!(
        "{header}#![cfg_attr(rustfmt, rustfmt::skip)]\n\
         //! The document this crate was generated from, served by `router` when\n\
         //! `ServerConfig::serve_document` asks (off by default).\n\n\
         use crate::runtime::document::Document;\n\n\
         /// The document, as JSON and as YAML (the one it was written in is its exact text).\n\
         pub static DOCUMENT: Document = Document {{\n    \
         json: {},\n    yaml: {},\n    title: {},\n}};\n",
        raw(&json),
        raw(&yaml),
        raw(title),
    ))
}

/// `text` as a raw string literal, with one `#` more than the longest run after a `"` in it.
fn raw(text: &str) -> String {
    let mut longest = 0;
    for (i, _) in text.match_indices('"') {
        let run = text[i + 1..].bytes().take_while(|b| *b == b'#').count();
        longest = longest.max(run);
    }
    let hashes = "#".repeat(longest + 1);
    format!("r{hashes}\"{text}\"{hashes}")
}
