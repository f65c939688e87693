//! Document text (descriptions, summaries) → rustdoc lines: the author's Markdown, rendered so
//! that it reads as written and that no clippy doc lint, doctest or rustdoc code block fires
//! on it, whatever the text is.
//!
//! What is rewritten, and why (everything else is kept as the author wrote it):
//! - line ends (`\r\n`, `\r`) become `\n`, tabs four spaces (`tabs_in_doc_comments`), other
//!   control characters are dropped, trailing spaces trimmed, the common indentation removed
//!   (YAML block scalars keep it), and leading and trailing blank lines dropped;
//! - a list item's continuation lines are indented exactly to the item's text
//!   (`doc_lazy_continuation` fires below it, `doc_overindented_list_items` above it), and a
//!   quote's continuation lines get their `>` (`doc_lazy_continuation`);
//! - code blocks become fenced blocks that rustdoc does not compile: an indented block, or a
//!   fenced one without a language (or marked `rust`), is fenced as `text`, since a
//!   description's example is not a doctest of the generated crate; a fence the author
//!   left open is closed; a fence's info string is cut to its language (rustdoc reads the
//!   rest as its own attributes and warns);
//! - bracketed text that is no Markdown link (`filter[sender]`) is escaped, `\[sender\]`:
//!   rustdoc would take it for an intra-doc link that resolves to nothing.

mod links;
pub mod wrap;

/// An operation's summary for a one-line heading or list entry (the generated READMEs, the
/// crates' pages per tag): on one line, and only when short; a document that writes
/// paragraphs there (OpenAI's run to several hundred characters of Markdown) has the
/// operation named by its id alone.
pub fn short_summary(summary: Option<&str>) -> Option<String> {
    let line = summary?.split_whitespace().collect::<Vec<_>>().join(" ");
    (!line.is_empty() && line.chars().count() <= SHORT_SUMMARY).then_some(line)
}

/// The longest summary [`short_summary`] keeps, in characters.
const SHORT_SUMMARY: usize = 80;

/// The doc lines of an optional text; none for no text or only blanks.
pub fn doc_lines(text: Option<&str>) -> Vec<String> {
    text.map(render).unwrap_or_default()
}

/// A rendered doc line as plain text for a terminal (the CLI's help): the brackets
/// `escape_brackets` escaped for rustdoc shown without their backslash.
pub fn plain(line: &str) -> String {
    line.replace("\\[", "[").replace("\\]", "]")
}

/// Doc lines with every bare URL (`http://…`, `https://…`) outside code written as an
/// autolink (`<https://…>`), as rustdoc's `bare_urls` lint asks: a description's address is
/// then a link in the documentation, and `cargo doc` of a generated crate stays clean. URLs in
/// code spans and fences, in angle brackets and in Markdown links are left as they are.
pub fn link_bare_urls(lines: &[String]) -> Vec<String> {
    let mut fence: Option<String> = None;
    lines
        .iter()
        .map(|line| {
            if follow_fence(line, &mut fence) || fence.is_some() || !line.contains("://") {
                return line.clone();
            }
            link_line(line)
        })
        .collect()
}

/// Follows the fences of doc lines read in order: `fence` is the open fence's marker (three or
/// more backticks or tildes), `None` outside code. True when `line` opens or closes one (or is
/// a fence line inside another).
pub(crate) fn follow_fence(line: &str, fence: &mut Option<String>) -> bool {
    let marker: String = line
        .trim_start()
        .chars()
        .take_while(|c| *c == '`' || *c == '~')
        .collect();
    if marker.len() < 3 {
        return false;
    }
    match fence {
        Some(open) if marker.starts_with(open.as_str()) => *fence = None,
        None => *fence = Some(marker),
        Some(_) => {}
    }
    true
}

fn link_line(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 8);
    let mut in_code = false;
    let mut rest = line;
    while let Some(c) = rest.chars().next() {
        if c == '`' {
            in_code = !in_code;
            out.push(c);
            rest = &rest[1..];
            continue;
        }
        let starts_url = !in_code
            && (rest.starts_with("http://") || rest.starts_with("https://"))
            && !out.ends_with(['<', '(', '[', '"', '\'', '=', '/'])
            && !out.ends_with("](");
        if starts_url {
            let end = rest
                .find(|c: char| c.is_whitespace() || "<>\"'`".contains(c))
                .unwrap_or(rest.len());
            let mut url = &rest[..end];
            // Sentence punctuation after an address is not part of it, nor is a closing
            // bracket that opened before it.
            loop {
                let trimmed = url.trim_end_matches(['.', ',', ';', ':', '!', '?']);
                let trimmed = if trimmed.ends_with(')') && !trimmed.contains('(') {
                    &trimmed[..trimmed.len() - 1]
                } else {
                    trimmed
                };
                if trimmed.len() == url.len() {
                    break;
                }
                url = trimmed;
            }
            if url.len() > "https://".len() {
                out.push('<');
                out.push_str(url);
                out.push('>');
                rest = &rest[url.len()..];
                continue;
            }
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// One open list item: where its text starts in the author's text and in ours.
#[derive(Clone, Copy)]
struct Item {
    source: usize,
    out: usize,
}

/// An open fenced code block.
struct Fence {
    marker: char,
    len: usize,
    /// Spaces of the author's indentation removed from its lines.
    strip: usize,
    /// Spaces put in front of its lines (the list item it stands in).
    indent: usize,
}

#[derive(Clone, Copy, PartialEq)]
enum Prev {
    Blank,
    Text,
    Quote,
    Other,
}

fn render(text: &str) -> Vec<String> {
    let lines = normalize(text);
    let labels = reference_labels(&lines);
    let text = |line: &str| escape_brackets(line, &labels);
    let mut out: Vec<String> = Vec::new();
    let mut items: Vec<Item> = Vec::new();
    let mut fence: Option<Fence> = None;
    let mut prev = Prev::Blank;
    let mut i = 0;
    while i < lines.len() {
        let line = &lines[i];
        i += 1;
        if let Some(f) = &fence {
            let indent = indentation(line);
            let rest = line.trim_start();
            let closes = indent < f.strip + 4
                && rest.starts_with(&f.marker.to_string().repeat(f.len))
                && rest.chars().all(|c| c == f.marker);
            let kept = &line[indent.min(f.strip)..];
            if closes {
                out.push(format!("{}{}", " ".repeat(f.indent), rest));
                fence = None;
                prev = Prev::Other;
            } else if kept.is_empty() {
                out.push(String::new());
            } else {
                out.push(format!("{}{kept}", " ".repeat(f.indent)));
            }
            continue;
        }
        if line.is_empty() {
            out.push(String::new());
            prev = Prev::Blank;
            continue;
        }
        let indent = indentation(line);
        let rest = line.trim_start();

        // A fence opens: in the deepest item its indentation reaches.
        if let Some((marker, len, info)) = fence_open(rest) {
            items.retain(|it| it.source <= indent);
            let at = items.last().map_or(0, |it| it.out);
            let info = fence_language(info);
            out.push(format!(
                "{}{}{info}",
                " ".repeat(at),
                marker.to_string().repeat(len)
            ));
            fence = Some(Fence {
                marker,
                len,
                strip: indent,
                indent: at,
            });
            prev = Prev::Other;
            continue;
        }

        // A list item: a child of the deepest item whose text its marker reaches.
        if let Some(width) = list_marker(rest, prev == Prev::Text && items.is_empty()) {
            items.retain(|it| it.source <= indent);
            let at = items.last().map_or(0, |it| it.out);
            let (marker, text) = rest.split_at(width);
            let item_text = text.trim_start();
            let shown = match task_box(item_text) {
                Some(b) => format!("{b}{}", escape_brackets(&item_text[b.len()..], &labels)),
                None => escape_brackets(item_text, &labels),
            };
            out.push(
                format!("{}{marker} {shown}", " ".repeat(at))
                    .trim_end()
                    .to_string(),
            );
            let source_text = indent + width + (rest.len() - width - item_text.len()).max(1);
            items.push(Item {
                source: source_text.min(indent + width + 1),
                out: at + width + 1,
            });
            prev = Prev::Text;
            continue;
        }

        // Text right below text continues its paragraph: inside an item, at the item's
        // indentation; below a quote, quoted.
        if prev == Prev::Text && !items.is_empty() {
            let at = items.last().map_or(0, |it| it.out);
            out.push(format!("{}{}", " ".repeat(at), text(rest)));
            continue;
        }
        if prev == Prev::Quote && !rest.starts_with('>') {
            out.push(format!("> {}", text(rest)));
            continue;
        }
        if prev == Prev::Blank {
            // After a blank line, text stays in the deepest item its indentation reaches.
            items.retain(|it| it.source <= indent);
        }
        let at = items.last().map_or(0, |it| it.out);
        let base = items.last().map_or(0, |it| it.source);
        if prev == Prev::Blank && indent >= base + 4 {
            // An indented code block: fenced as text, up to the next line less indented.
            let mut block = vec![&line[base + 4..]];
            while i < lines.len() {
                let next = &lines[i];
                if !next.is_empty() && indentation(next) < base + 4 {
                    break;
                }
                block.push(if next.is_empty() {
                    ""
                } else {
                    &next[base + 4..]
                });
                i += 1;
            }
            while block.last() == Some(&"") {
                block.pop();
                i -= 1;
            }
            let pad = " ".repeat(at);
            out.push(format!("{pad}```text"));
            for l in block {
                out.push(if l.is_empty() {
                    String::new()
                } else {
                    format!("{pad}{l}")
                });
            }
            out.push(format!("{pad}```"));
            prev = Prev::Other;
            continue;
        }
        out.push(format!("{}{}", " ".repeat(at), text(rest)));
        prev = if rest.starts_with('>') {
            Prev::Quote
        } else {
            Prev::Text
        };
    }
    if let Some(f) = fence {
        out.push(format!(
            "{}{}",
            " ".repeat(f.indent),
            f.marker.to_string().repeat(f.len)
        ));
    }
    while out.last().is_some_and(String::is_empty) {
        out.pop();
    }
    out
}

/// Lines with `\n` ends, no tabs or control characters, no trailing spaces, the common
/// indentation removed, no blank lines at either end.
fn normalize(text: &str) -> Vec<String> {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut lines: Vec<String> = text
        .split('\n')
        .map(|l| {
            l.replace('\t', "    ")
                .chars()
                .filter(|c| !c.is_control())
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect();
    while lines.first().is_some_and(String::is_empty) {
        lines.remove(0);
    }
    while lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    let common = lines
        .iter()
        .filter(|l| !l.is_empty())
        .map(|l| indentation(l))
        .min()
        .unwrap_or(0);
    for l in &mut lines {
        if !l.is_empty() {
            l.drain(..common);
        }
    }
    lines
}

fn indentation(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// `(marker, length, info string)` of a line opening a fenced code block.
fn fence_open(rest: &str) -> Option<(char, usize, &str)> {
    let marker = rest.chars().next().filter(|c| matches!(c, '`' | '~'))?;
    let len = rest.chars().take_while(|c| *c == marker).count();
    let info = rest[len..].trim();
    // A backtick fence's info string cannot hold a backtick (that is inline code).
    (len >= 3 && !(marker == '`' && info.contains('`'))).then_some((marker, len, info))
}

/// The info string a fence is printed with: its language only, or `text`. rustdoc reads the
/// whole info string as its own attributes (`{…}` opens a class block, `compile-fail` is a
/// misspelt attribute: both warn), so what an author put after the language (`JSON  {`,
/// `js title="x"`) is dropped, and a language rustdoc would compile as Rust, or one it would
/// read as something else than a language, becomes `text`.
fn fence_language(info: &str) -> &str {
    let language = info
        .split(|c: char| c == ',' || c.is_whitespace())
        .find(|t| !t.is_empty())
        .unwrap_or("");
    let plain = language
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "+#._-".contains(c));
    let squashed: String = language
        .chars()
        .filter(|c| !matches!(c, '-' | '_'))
        .collect::<String>()
        .to_ascii_lowercase();
    let attribute_like = [
        "compilefail",
        "shouldpanic",
        "norun",
        "testharness",
        "standalonecrate",
        "allowfail",
    ]
    .contains(&squashed.as_str())
        || squashed.starts_with("ignore")
        || squashed.starts_with("edition");
    if !plain || attribute_like || is_rust(language) {
        "text"
    } else {
        language
    }
}

/// The labels of the text's link reference definitions (`[label]: https://…`), normalized as
/// CommonMark matches them (case and runs of white space do not count).
fn reference_labels(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| {
            let rest = l.trim_start();
            if indentation(l) > 3 || !rest.starts_with('[') {
                return None;
            }
            let close = rest.find("]:")?;
            Some(label(&rest[1..close]))
        })
        .collect()
}

fn label(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// A task list item's box (`[ ] `, `[x] `) at the start of an item's text: rustdoc shows a
/// checkbox, so it is not escaped.
fn task_box(text: &str) -> Option<&'static str> {
    ["[ ] ", "[x] ", "[X] "]
        .into_iter()
        .find(|b| text.starts_with(b))
}

/// A line of text with each `[…]` that is no Markdown link written `\[…\]`. rustdoc takes
/// any bracketed text without a target for an intra-doc link to a Rust item and warns that
/// it resolves to nothing (`filter[sender]`, `[deprecated]`); escaped, it shows as written.
/// Links stay as they are: `[text](url)`, `[text][label]`, a label defined in the same text
/// (`[label]` with `[label]: url`), a definition itself, an image's text; so do code spans,
/// autolinks, bare URLs, escaped brackets, empty brackets and brackets that do not pair up
/// on the line.
fn escape_brackets(line: &str, labels: &[String]) -> String {
    if !line.contains('[') {
        return line.to_string();
    }
    let unlinked = links::rust_path_links(line);
    let line = unlinked.as_str();
    let bytes = line.as_bytes();
    // Byte positions of the brackets outside code spans, autolinks, bare URLs and escapes.
    let mut brackets = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let rest = &line[i..];
        match bytes[i] {
            b'\\' => i += 1 + line[i + 1..].chars().next().map_or(0, char::len_utf8),
            b'`' => {
                let run = rest.bytes().take_while(|b| *b == b'`').count();
                let ticks = &rest[..run];
                i += run;
                // A span closes at the next run of exactly as many backticks.
                let mut j = i;
                while let Some(at) = line[j..].find(ticks) {
                    let start = j + at;
                    let len = line[start..].bytes().take_while(|b| *b == b'`').count();
                    if len == run {
                        i = start + run;
                        break;
                    }
                    j = start + len;
                }
            }
            b'<' if rest.contains('>') && autolink_scheme(&rest[1..]) => {
                i += rest.find('>').map_or(rest.len(), |e| e + 1);
            }
            b'h' if rest.starts_with("http://") || rest.starts_with("https://") => {
                i += rest
                    .find(|c: char| c.is_whitespace() || "<>\"'`".contains(c))
                    .unwrap_or(rest.len());
            }
            b'[' | b']' => {
                brackets.push(i);
                i += 1;
            }
            _ => i += rest.chars().next().map_or(1, char::len_utf8),
        }
    }
    // The pairs, as (opening, closing) positions.
    let mut open: Vec<usize> = Vec::new();
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for at in brackets {
        if bytes[at] == b'[' {
            open.push(at);
        } else if let Some(start) = open.pop() {
            pairs.push((start, at));
        }
    }
    let inner = |(start, close): (usize, usize)| &line[start + 1..close];
    let defined = |text: &str| labels.contains(&label(text));
    let mut escaped = Vec::new();
    for &(start, close) in &pairs {
        let text = inner((start, close));
        let after = bytes.get(close + 1).copied();
        let before = start.checked_sub(1).map(|b| bytes[b]);
        // `[text][label]` is a link when the label is defined (`[text][]` when the text is),
        // and so is its label; `[text]` on its own when the text is a defined label.
        let next = pairs.iter().find(|p| p.0 == close + 1).copied();
        let is_link = match (after, next) {
            (Some(b'('), _) => true,
            (Some(b':'), _) if line[..start].trim().is_empty() => true,
            (Some(b'['), Some(next)) if inner(next).is_empty() => defined(text),
            (Some(b'['), Some(next)) => defined(inner(next)) || defined(text),
            _ => before == Some(b'!') || defined(text),
        };
        if !is_link && !text.trim().is_empty() {
            escaped.push(start);
            escaped.push(close);
        }
    }
    if escaped.is_empty() {
        return line.to_string();
    }
    escaped.sort_unstable();
    let mut out = String::with_capacity(line.len() + escaped.len());
    let mut from = 0;
    for at in escaped {
        out.push_str(&line[from..at]);
        out.push('\\');
        from = at;
    }
    out.push_str(&line[from..]);
    out
}

/// Whether text after a `<` starts an autolink (`<https://…>`, `<mailto:…>`).
fn autolink_scheme(rest: &str) -> bool {
    let scheme = rest.split(':').next().unwrap_or("");
    rest.len() > scheme.len()
        && (2..=32).contains(&scheme.len())
        && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+.-".contains(c))
}

/// Whether rustdoc would compile a block with this info string as a doctest: no language,
/// `rust`, or only rustdoc's own attributes.
fn is_rust(info: &str) -> bool {
    const RUSTDOC: &[&str] = &[
        "rust",
        "ignore",
        "should_panic",
        "no_run",
        "compile_fail",
        "test_harness",
        "standalone_crate",
        "allow_fail",
    ];
    info.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .all(|t| RUSTDOC.contains(&t) || t.starts_with("edition"))
}

/// The width of a list marker at the start of `rest` (`-`, `*`, `+`, `1.`, `1)`), when it
/// starts a list item as CommonMark reads it. Right after a paragraph line only a bullet or
/// `1.` starts one, and only with text after it.
fn list_marker(rest: &str, after_paragraph: bool) -> Option<usize> {
    let bytes = rest.as_bytes();
    let width = match bytes.first()? {
        b'-' | b'*' | b'+' => 1,
        b'0'..=b'9' => {
            let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
            if digits > 9 || !matches!(bytes.get(digits), Some(b'.' | b')')) {
                return None;
            }
            if after_paragraph && &rest[..digits] != "1" {
                return None;
            }
            digits + 1
        }
        _ => return None,
    };
    let after = &rest[width..];
    if after.is_empty() {
        return (!after_paragraph).then_some(width);
    }
    if !after.starts_with(' ') {
        return None;
    }
    // `- - -` and `***` are thematic breaks, not items.
    let first = bytes[0];
    if matches!(first, b'-' | b'*')
        && rest.chars().all(|c| c == first as char || c == ' ')
        && rest.chars().filter(|c| *c == first as char).count() >= 3
    {
        return None;
    }
    Some(width)
}

#[cfg(test)]
mod tests {
    use super::{doc_lines, link_bare_urls, short_summary};

    /// A short summary is one line; a long one (OpenAI writes paragraphs there) is left out.
    #[test]
    fn a_summary_is_kept_for_a_heading_only_when_short() {
        assert_eq!(
            short_summary(Some("List  animals\n in stock")).as_deref(),
            Some("List animals in stock")
        );
        assert_eq!(short_summary(Some(&"word ".repeat(17))), None);
        assert_eq!(short_summary(Some(" \n ")), None);
        assert_eq!(short_summary(None), None);
    }

    fn doc(text: &str) -> Vec<String> {
        doc_lines(Some(text))
    }

    #[test]
    fn bare_urls_become_links_outside_code() {
        let lines = |text: &[&str]| -> Vec<String> { text.iter().map(|s| s.to_string()).collect() };
        assert_eq!(
            link_bare_urls(&lines(&[
                "See http://swagger.io, or https://a.example/x?y=1 (or <https://b.example>).",
                "A [link](https://c.example) and `http://code.example` stay.",
                "(https://d.example/path)",
                "```",
                "curl http://e.example",
                "```",
                "http://",
            ])),
            lines(&[
                "See <http://swagger.io>, or <https://a.example/x?y=1> (or <https://b.example>).",
                "A [link](https://c.example) and `http://code.example` stay.",
                "(https://d.example/path)",
                "```",
                "curl http://e.example",
                "```",
                "http://",
            ])
        );
    }

    #[test]
    fn plain_text_is_kept_and_trimmed() {
        assert_eq!(doc("  One line.  \n"), vec!["One line."]);
        assert_eq!(doc("\n\nA\n\nB\n\n"), vec!["A", "", "B"]);
        assert_eq!(doc("   "), Vec::<String>::new());
        assert_eq!(doc_lines(None), Vec::<String>::new());
    }

    #[test]
    fn line_ends_tabs_and_control_characters() {
        assert_eq!(doc("a\r\nb\rc"), vec!["a", "b", "c"]);
        assert_eq!(doc("x\u{7}y\u{0}"), vec!["xy"]);
        assert_eq!(doc("- a\n\tb"), vec!["- a", "  b"]);
    }

    #[test]
    fn common_indentation_is_removed() {
        assert_eq!(doc("    a\n      b\n    c"), vec!["a", "b", "c"]);
    }

    #[test]
    fn lazy_list_continuations_are_indented_to_the_item() {
        assert_eq!(
            doc("Kinds:\n- one that goes\non and on\n- two\n\nAfter."),
            vec![
                "Kinds:",
                "- one that goes",
                "  on and on",
                "- two",
                "",
                "After."
            ]
        );
        assert_eq!(
            doc("1. first\nmore\n10. tenth\nmore"),
            vec!["1. first", "   more", "10. tenth", "    more"]
        );
    }

    #[test]
    fn overindented_continuations_are_brought_back() {
        assert_eq!(doc("* a\n        deep\n* b"), vec!["* a", "  deep", "* b"]);
        assert_eq!(
            doc("-   wide marker\n    text"),
            vec!["- wide marker", "  text"]
        );
    }

    #[test]
    fn nested_lists_keep_their_levels() {
        assert_eq!(
            doc("- a\n   - b\n   lazy\n- c"),
            vec!["- a", "  - b", "    lazy", "- c"]
        );
    }

    #[test]
    fn text_after_a_blank_line_leaves_or_stays_in_the_list() {
        assert_eq!(doc("- a\n\nout"), vec!["- a", "", "out"]);
        assert_eq!(doc("- a\n\n  in"), vec!["- a", "", "  in"]);
    }

    #[test]
    fn what_only_looks_like_an_item_is_text() {
        // CommonMark: `2.` cannot interrupt a paragraph, `-x` is no marker, `---` a rule.
        assert_eq!(
            doc("Total\n2. not an item\nmore"),
            vec!["Total", "2. not an item", "more"]
        );
        assert_eq!(doc("-x\ny"), vec!["-x", "y"]);
        assert_eq!(doc("a\n\n- - -\nb"), vec!["a", "", "- - -", "b"]);
    }

    #[test]
    fn quotes_keep_their_marker() {
        assert_eq!(doc("> quoted\nlazy"), vec!["> quoted", "> lazy"]);
    }

    #[test]
    fn code_blocks_never_become_doctests() {
        assert_eq!(
            doc("Example:\n```\nlet x = 1;\n```"),
            vec!["Example:", "```text", "let x = 1;", "```"]
        );
        assert_eq!(doc("```rust,ignore\nx\n```"), vec!["```text", "x", "```"]);
        assert_eq!(
            doc("~~~json\n{\"a\": 1}\n~~~"),
            vec!["~~~json", "{\"a\": 1}", "~~~"]
        );
        assert_eq!(
            doc("Run:\n\n    curl -X POST\n\n      --data x\n\nDone."),
            vec![
                "Run:",
                "",
                "```text",
                "curl -X POST",
                "",
                "  --data x",
                "```",
                "",
                "Done."
            ]
        );
        // A fence left open is closed; lines inside are kept as written.
        assert_eq!(doc("```\n- a\nb"), vec!["```text", "- a", "b", "```"]);
    }

    #[test]
    fn brackets_that_are_no_link_are_escaped() {
        // fitbit: rustdoc read `[sender]` as an intra-doc link and warned it resolves to nothing.
        assert_eq!(
            doc("Required if filter[sender] is not defined; see [deprecated] and [a b]."),
            vec![r"Required if filter\[sender\] is not defined; see \[deprecated\] and \[a b\]."]
        );
        // Links, definitions, images, code, URLs, escapes, empty and unpaired brackets stay.
        let kept = [
            "A [link](https://a.example) and [another][ref] and [ref].",
            "[ref]: https://b.example",
            "An ![image](i.png), `code[i]`, ``x[`y`]``, <https://c.example/?a[b]=1>.",
            "Bare https://d.example/?q[x]=1 stays, \\[escaped\\] too, so do [] and a lone [ here.",
            "A lone ] there.",
        ];
        assert_eq!(doc(&kept.join("\n")), kept.to_vec());
        // fitbit: `[identifier][value]` is a reference to an undefined label, so no link.
        assert_eq!(
            doc("requires \"filter[identifier][value]\"; [x][] and [y][z] too"),
            vec![r#"requires "filter\[identifier\]\[value\]"; \[x\][] and \[y\]\[z\] too"#]
        );
        // A label is matched as CommonMark matches it; a task box is a checkbox.
        assert_eq!(
            doc(
                "See [The  Spec].\n\n[the spec]: https://e.example\n\n- [x] done [now]\n- [ ] open"
            ),
            vec![
                "See [The  Spec].",
                "",
                "[the spec]: https://e.example",
                "",
                r"- [x] done \[now\]",
                "- [ ] open"
            ]
        );
        // Inside fences nothing is escaped; in quotes and continuations it is.
        assert_eq!(
            doc("```json\n{\"a\": [1]}\n```\n> q[x]\nlazy[y]"),
            vec![
                "```json",
                "{\"a\": [1]}",
                "```",
                r"> q\[x\]",
                r"> lazy\[y\]"
            ]
        );
        // Multi-byte text around escapes and brackets.
        assert_eq!(doc("é\\é [ü] `ß`"), vec![r"é\é \[ü\] `ß`"]);
    }

    #[test]
    fn fence_info_strings_are_cut_to_their_language() {
        // fitbit: rustdoc read `JSON  {` as an attribute block left open.
        assert_eq!(doc("```JSON  {\n{}\n```"), vec!["```JSON", "{}", "```"]);
        assert_eq!(doc("```js title=\"x\"\nx\n```")[0], "```js");
        assert_eq!(doc("```{.json}\nx\n```")[0], "```text");
        assert_eq!(doc("```compile-fail\nx\n```")[0], "```text");
        assert_eq!(doc("```edition2021\nx\n```")[0], "```text");
        assert_eq!(doc("```c++\nx\n```")[0], "```c++");
    }

    #[test]
    fn code_inside_a_list_item_stays_in_it() {
        assert_eq!(
            doc("- item:\n  ```\n  x\n  ```\n- next"),
            vec!["- item:", "  ```text", "  x", "  ```", "- next"]
        );
    }
}
