//! Prints `server/src/document.rs` and the document the server crate was generated from, as
//! JSON and as YAML beside it, for `ServerConfig::serve_document` (the runtime's `document` module).

use crate::load::Written;

/// The module, and the two texts it includes (`document.json`, `document.yaml` beside it).
pub struct DocumentFiles {
    pub rust: String,
    pub json: String,
    pub yaml: String,
}

/// The module: the header, then `DOCUMENT` including both texts from the files beside it
/// (data, not code: a reviewer reads the document's own diff there, and the crate's Rust is
/// its code alone). The text the author wrote is kept byte for byte in its own format; the
/// other format is converted from it. A document split over several files is served bundled
/// into one. The two data files carry no header (JSON has no comment, and the written one is
/// served exactly as written): this module names the command that wrote them.
pub fn document_files(
    header: &str,
    title: &str,
    written: &Written,
) -> Result<DocumentFiles, String> {
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
    let rust = format!(
        "{header}//! The document this crate was generated from, served by `router` when\n\
         //! `ServerConfig::serve_document` asks (off by default). `document.json` and\n\
         //! `document.yaml` beside this file hold it, written by the same command.\n\n\
         use crate::runtime::codegen::Document;\n\n\
         /// The document, as JSON and as YAML (the one it was written in is its exact text).\n\
         pub static DOCUMENT: Document = Document {{\n    \
         json: include_str!(\"document.json\"),\n    \
         yaml: include_str!(\"document.yaml\"),\n    \
         title: {},\n}};\n",
        raw(title),
    );
    Ok(DocumentFiles { rust, json, yaml })
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
