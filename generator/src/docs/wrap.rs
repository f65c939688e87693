//! Doc lines wrapped to rustfmt's width: a long line of a description becomes several, broken
//! only where Markdown reads the result as the same text.
//!
//! A line is broken at a space outside a code span, and only before a word that cannot start
//! a block of its own (a list marker, `#`, `>`, `|`, `<`, a thematic break); a list item's or
//! a quote's continuation lines are indented to its text (or get its `>`), as clippy's
//! `doc_lazy_continuation` asks. Fenced code, tables, headings and HTML are left as written,
//! and so is a word longer than the width (an address).

/// Where an open fence stands while the lines of a file are wrapped in order: `None` outside
/// code, else its marker (three or more backticks or tildes).
pub type FenceState = Option<String>;

/// The doc line `line` (` text`, with the space `///` is followed by, or empty) as lines of at
/// most `width` characters where it can be broken; `fence` follows the file's fences.
pub fn wrap(line: &str, width: usize, fence: &mut FenceState) -> Vec<String> {
    if super::follow_fence(line, fence) || fence.is_some() || line.chars().count() <= width {
        return vec![line.to_string()];
    }
    let Some((lead, continuation, text)) = container(line) else {
        return vec![line.to_string()];
    };
    let mut out = Vec::new();
    let mut current = lead.to_string();
    let mut current_len = lead.chars().count();
    let mut first_word = true;
    for word in words(text) {
        let len = word.chars().count();
        let fits = current_len + 1 + len <= width;
        if first_word {
            current.push_str(word);
            current_len += len;
            first_word = false;
        } else if fits
            || !starts_line_safely(word)
            // A word that fits no line (an address, a long pointer) stays where it is:
            // moving it down would only add a short line.
            || continuation.chars().count() + len > width
        {
            current.push(' ');
            current.push_str(word);
            current_len += 1 + len;
        } else {
            out.push(current);
            current = format!("{continuation}{word}");
            current_len = continuation.chars().count() + len;
        }
    }
    out.push(current);
    out
}

/// Splits a line into what comes before its text (its indentation, a quote's `>`, a list
/// marker), what a continuation line starts with instead, and the text. `None` for a line
/// that is not a paragraph's (a heading, a table row, HTML) and so is left whole.
fn container(line: &str) -> Option<(&str, String, &str)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let mut at = indent;
    let mut continuation = " ".repeat(indent);
    if let Some(after) = line[at..].strip_prefix("> ") {
        at = line.len() - after.len();
        continuation.push_str("> ");
    }
    let rest = &line[at..];
    if rest.starts_with(['#', '|', '<', '>']) || rest.is_empty() {
        return None;
    }
    if let Some(width) = super::list_marker(rest, false)
        && rest[width..].starts_with(' ')
    {
        let text_at = width + 1 + rest[width + 1..].len() - rest[width + 1..].trim_start().len();
        continuation.push_str(&" ".repeat(text_at));
        at += text_at;
    }
    let text = &line[at..];
    if text.is_empty() {
        return None;
    }
    Some((&line[..at], continuation, text))
}

/// The words of a text: runs between single spaces, a code span (`` `a b` ``) kept whole.
fn words(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut ticks = 0usize;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'`' => {
                let run = bytes[i..].iter().take_while(|b| **b == b'`').count();
                // A span closes with a run of as many backticks as opened it.
                if ticks == 0 {
                    ticks = run;
                } else if run == ticks {
                    ticks = 0;
                }
                i += run;
                continue;
            }
            b' ' if ticks == 0 => {
                if i > start {
                    out.push(&text[start..i]);
                }
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    // A span left open is no span: its words were kept together, which is still correct.
    out
}

/// Whether a word may begin a continuation line without starting a block of its own there.
fn starts_line_safely(word: &str) -> bool {
    let first = word.chars().next().unwrap_or(' ');
    if matches!(first, '#' | '>' | '|' | '<' | '=') {
        return false;
    }
    // `-`, `*`, `+` alone are list markers; `---`, `***`, `___` thematic breaks; ```` ``` ````
    // and `~~~` fences.
    if matches!(first, '-' | '*' | '+' | '_' | '`' | '~') && word.chars().all(|c| c == first) {
        return false;
    }
    if word.starts_with("```") || word.starts_with("~~~") {
        return false;
    }
    // `1.` and `2)` are ordered list markers.
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    !(digits > 0 && digits == word.len() - 1 && word.ends_with(['.', ')']))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wrapped(line: &str, width: usize) -> Vec<String> {
        wrap(line, width, &mut None)
    }

    #[test]
    fn a_paragraph_breaks_at_spaces_within_the_width() {
        let out = wrapped(" The quick brown fox jumps over the lazy dog.", 20);
        assert_eq!(
            out,
            [" The quick brown fox", " jumps over the lazy", " dog."]
        );
        assert!(out.iter().all(|l| l.chars().count() <= 20));
        assert_eq!(wrapped(" short", 20), [" short"]);
    }

    #[test]
    fn list_items_and_quotes_continue_under_their_text() {
        assert_eq!(
            wrapped(" - alpha beta gamma delta", 14),
            [" - alpha beta", "   gamma delta"]
        );
        assert_eq!(
            wrapped("   10. alpha beta gamma", 16),
            ["   10. alpha", "       beta", "       gamma"]
        );
        assert_eq!(
            wrapped(" > alpha beta gamma", 14),
            [" > alpha beta", " > gamma"]
        );
    }

    #[test]
    fn no_continuation_starts_a_block() {
        // Breaking before `-`, `1.`, `#` or `>` would make a list, a heading or a quote.
        for word in ["-", "1.", "#", ">", "|", "***", "<div>", "2)"] {
            let line = format!(" aaaa {word} bbbb");
            let out = wrapped(&line, 6);
            assert!(
                out.iter()
                    .skip(1)
                    .all(|l| !l.trim_start().starts_with(word)),
                "{word}: {out:?}"
            );
        }
        assert_eq!(wrapped(" aaaa -b", 6), [" aaaa", " -b"]);
    }

    #[test]
    fn code_spans_fences_tables_and_long_words_stay_whole() {
        assert_eq!(
            wrapped(" see `a b c d` here", 10),
            [" see", " `a b c d`", " here"]
        );
        let mut fence = None;
        let long = format!(" {}", "word ".repeat(30));
        assert_eq!(wrap(" ```text", 10, &mut fence), [" ```text"]);
        assert_eq!(wrap(&long, 10, &mut fence), [long.as_str()]);
        assert_eq!(wrap(" ```", 10, &mut fence), [" ```"]);
        assert!(fence.is_none());
        assert!(wrap(&long, 10, &mut fence).len() > 1);
        let row = format!(" | {} |", "cell ".repeat(30));
        assert_eq!(wrapped(&row, 10), [row.as_str()]);
        let heading = format!(" # {}", "title ".repeat(30));
        assert_eq!(wrapped(&heading, 10), [heading.as_str()]);
        let url = " <https://example.com/a/very/long/address/that/does/not/fit>";
        assert_eq!(wrapped(url, 10), [url]);
        let pointer = " Schema: `/paths/~1uploads/post/requestBody/content`.";
        assert_eq!(wrapped(pointer, 20), [pointer]);
    }
}
