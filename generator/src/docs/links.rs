//! Links in a document's text that rustdoc would resolve in the generated crate: a link to a
//! Rust path of the server the document was written from.

/// A line with each link to a Rust path of the server the document was written from
/// (nexus's `[Certificate](crate::external_api::views::Certificate)`) left as its text in a
/// code span: rustdoc resolves such a target in the generated crate, where it names nothing.
pub(super) fn rust_path_links(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        let target_len = rest[at + 2..].find(')');
        let open = rest[..at].rfind('[');
        match (open, target_len) {
            (Some(open), Some(len)) => {
                let target = &rest[at + 2..at + 2 + len];
                let text = &rest[open + 1..at];
                let rust_path = target.contains("::")
                    && !target.contains("://")
                    && !target.contains(char::is_whitespace)
                    && !text.contains(['[', ']']);
                if rust_path {
                    out.push_str(&rest[..open]);
                    if text.contains('`') {
                        out.push_str(text);
                    } else {
                        out.push('`');
                        out.push_str(text);
                        out.push('`');
                    }
                } else {
                    out.push_str(&rest[..at + 3 + len]);
                }
                rest = &rest[at + 3 + len..];
            }
            _ => break,
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn links_to_rust_paths_of_another_crate_are_text() {
        // nexus: rustdoc warned that `crate::external_api::views::Certificate` resolves to nothing.
        assert_eq!(
            crate::docs::doc_lines(Some(
                "Parameters for a [`Certificate`](crate::external_api::views::Certificate)."
            )),
            vec!["Parameters for a `Certificate`."]
        );
        assert_eq!(
            crate::docs::doc_lines(Some(
                "See [Certificate](crate::views::Certificate) and [x](https://a.example/b::c)."
            )),
            vec!["See `Certificate` and [x](https://a.example/b::c)."]
        );
    }
}
