//! The book (book/src) and the repository's Markdown hold together:
//! - every Rust block of the book is an `{{#include …}}` of a file the workspace compiles, and
//!   the anchor it names is in that file, so no example in the book can drift from the code;
//! - every relative link in the book, README.md and docs/ leads to a file that exists, and a
//!   `#fragment` into a Markdown file to one of its headings (GitHub's and mdBook's slugs);
//! - every excerpt of generated code in README.md (`// FROM: file` in a Rust block) is that
//!   file's lines, in order and together, doc comments and indentation aside.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every `.md` file under `dir`, recursively, in a stable order.
fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            markdown_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

/// The book's own pages: book/src without the pages `cargo xtask book` writes.
fn book_pages() -> Vec<PathBuf> {
    let mut pages = Vec::new();
    markdown_files(&root().join("book/src"), &mut pages);
    pages.retain(|p| !p.components().any(|c| c.as_os_str() == "generated"));
    assert!(!pages.is_empty(), "book/src holds no page");
    pages
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A fence's opening or closing line: its marker (``` or ~~~) and its info string.
fn fence(line: &str) -> Option<(&str, &str)> {
    let trimmed = line.trim_start();
    ["```", "~~~"]
        .into_iter()
        .find(|m| trimmed.starts_with(m))
        .map(|m| {
            (
                m,
                trimmed.trim_start_matches(m.chars().next().unwrap()).trim(),
            )
        })
        // A backtick fence's info string holds no backtick: "```` ```x ````" is a code span.
        .filter(|(m, info)| *m != "```" || !info.contains('`'))
}

/// The lines outside fenced code blocks, with their numbers (from 1); inline code spans blanked.
fn prose(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut open: Option<&str> = None;
    for (n, line) in text.lines().enumerate() {
        match (open, fence(line)) {
            (None, Some((marker, _))) => open = Some(marker),
            (Some(marker), Some((m, info))) if m == marker && info.is_empty() => open = None,
            (None, None) => out.push((n + 1, without_code_spans(line))),
            _ => {}
        }
    }
    out
}

/// `line` with each inline code span replaced by spaces (a link inside one is text).
fn without_code_spans(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(at) = rest.find('`') {
        let ticks = rest[at..].chars().take_while(|&c| c == '`').count();
        let marker = "`".repeat(ticks);
        let after = &rest[at + ticks..];
        match after.find(&marker) {
            Some(end) => {
                out.push_str(&rest[..at]);
                out.push_str(&" ".repeat(ticks * 2 + end));
                rest = &after[end + ticks..];
            }
            None => break,
        }
    }
    out.push_str(rest);
    out
}

/// The targets of the inline links and images of one line (`[text](target "title")`).
fn link_targets(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let mut depth = 0usize;
        let mut end = None;
        for (i, c) in after.char_indices() {
            match c {
                '(' => depth += 1,
                ')' if depth == 0 => {
                    end = Some(i);
                    break;
                }
                ')' => depth -= 1,
                _ => {}
            }
        }
        let Some(end) = end else { break };
        let target = after[..end].trim();
        let target = target.split_once(" \"").map_or(target, |(t, _)| t);
        let target = target.trim_start_matches('<').trim_end_matches('>');
        if !target.is_empty() {
            out.push(target.to_string());
        }
        rest = &after[end..];
    }
    out
}

/// A heading's anchor as GitHub and mdBook make it: the text without Markdown (code ticks,
/// emphasis, link targets), lower case, letters, digits, `-` and `_` kept, spaces made `-`.
fn slug(heading: &str) -> String {
    let mut text = String::new();
    let mut rest = heading;
    // A link's text stays, its target goes.
    while let Some(at) = rest.find("](") {
        text.push_str(&rest[..at]);
        match rest[at..].find(')') {
            Some(end) => rest = &rest[at + end + 1..],
            None => {
                rest = "";
            }
        }
    }
    text.push_str(rest);
    text.trim()
        .chars()
        .flat_map(char::to_lowercase)
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown file: one per heading (repeats numbered `-1`, `-2`, as both
/// renderers do), and explicit `id="…"` / `name="…"` attributes.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut open: Option<&str> = None;
    for line in text.lines() {
        match (open, fence(line)) {
            (None, Some((marker, _))) => {
                open = Some(marker);
                continue;
            }
            (Some(marker), Some((m, info))) if m == marker && info.is_empty() => {
                open = None;
                continue;
            }
            (Some(_), _) => continue,
            _ => {}
        }
        if let Some(heading) = line.strip_prefix('#') {
            let heading = heading.trim_start_matches('#');
            if heading.starts_with(' ') {
                let base = slug(heading);
                let mut anchor = base.clone();
                let mut n = 0;
                while out.contains(&anchor) {
                    n += 1;
                    anchor = format!("{base}-{n}");
                }
                out.insert(anchor);
            }
        }
        for attr in ["id=\"", "name=\""] {
            let mut rest = line;
            while let Some(at) = rest.find(attr) {
                let after = &rest[at + attr.len()..];
                if let Some(end) = after.find('"') {
                    out.insert(after[..end].to_string());
                }
                rest = after;
            }
        }
    }
    out
}

/// Problems with the relative links of `file`: targets that do not exist, fragments that name
/// no heading of a Markdown target.
fn link_problems(file: &Path) -> Vec<String> {
    let text = read(file);
    let dir = file.parent().unwrap();
    let mut problems = Vec::new();
    for (n, line) in prose(&text) {
        for target in link_targets(&line) {
            let scheme = target
                .split_once(':')
                .is_some_and(|(s, _)| s.chars().all(|c| c.is_ascii_alphanumeric() || c == '+'));
            if scheme || target.starts_with("{{") {
                continue;
            }
            let (path, fragment) = match target.split_once('#') {
                Some((p, f)) => (p, Some(f)),
                None => (target.as_str(), None),
            };
            let place = format!("{}:{n}: `{target}`", file.display());
            let resolved = if path.is_empty() {
                file.to_path_buf()
            } else {
                dir.join(path)
            };
            if !resolved.exists() {
                problems.push(format!("{place}: no file {}", resolved.display()));
                continue;
            }
            if let Some(fragment) = fragment
                && resolved.extension().is_some_and(|e| e == "md")
                && !anchors(&read(&resolved)).contains(fragment)
            {
                problems.push(format!("{place}: no heading `#{fragment}` in {path}"));
            }
        }
    }
    problems
}

#[test]
fn every_relative_link_leads_to_a_file_and_a_heading() {
    let root = root();
    let mut files = book_pages();
    files.push(root.join("README.md"));
    markdown_files(&root.join("docs"), &mut files);
    let problems: Vec<String> = files.iter().flat_map(|f| link_problems(f)).collect();
    assert!(
        problems.is_empty(),
        "broken links:\n{}",
        problems.join("\n")
    );
}

#[test]
fn every_rust_block_of_the_book_is_included_from_compiled_code() {
    let mut problems = Vec::new();
    for page in book_pages() {
        let text = read(&page);
        let dir = page.parent().unwrap();
        let mut open: Option<(&str, bool)> = None;
        for (n, line) in text.lines().enumerate() {
            let place = format!("{}:{}", page.display(), n + 1);
            match (open, fence(line)) {
                (None, Some((marker, info))) => {
                    let rust = info.split([',', ' ']).next() == Some("rust");
                    open = Some((marker, rust));
                }
                (Some((marker, _)), Some((m, info))) if m == marker && info.is_empty() => {
                    open = None;
                }
                (Some((_, true)), _) if !line.trim().is_empty() => {
                    let directive = ["{{#include ", "{{#rustdoc_include "]
                        .into_iter()
                        .find_map(|d| line.trim().strip_prefix(d));
                    let Some(directive) = directive.and_then(|d| d.strip_suffix("}}")) else {
                        problems.push(format!(
                            "{place}: a Rust block holds code instead of an include: `{line}`"
                        ));
                        continue;
                    };
                    problems.extend(include_problem(dir, directive, &place));
                }
                _ => {}
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// An include's file must exist and hold its anchor (`path:anchor`), unless `cargo xtask book`
/// writes it (book/src/generated/).
fn include_problem(dir: &Path, directive: &str, place: &str) -> Option<String> {
    let (path, anchor) = match directive.split_once(':') {
        Some((p, a)) => (p, Some(a)),
        None => (directive, None),
    };
    if path.split('/').any(|part| part == "generated") {
        return None;
    }
    let file = dir.join(path);
    let Ok(text) = std::fs::read_to_string(&file) else {
        return Some(format!(
            "{place}: the included file {} does not exist",
            file.display()
        ));
    };
    let anchor = anchor.filter(|a| !a.chars().next().is_some_and(|c| c.is_ascii_digit()))?;
    let starts = text
        .lines()
        .any(|l| l.trim() == format!("// ANCHOR: {anchor}"));
    let ends = text
        .lines()
        .any(|l| l.trim() == format!("// ANCHOR_END: {anchor}"));
    (!starts || !ends).then(|| format!("{place}: {path} has no anchor `{anchor}`"))
}

/// A file's lines as an excerpt is compared with them: trimmed, without doc comments or blank
/// lines.
fn code_lines(text: &str) -> Vec<&str> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("///") && !l.starts_with("//!"))
        .collect()
}

#[test]
fn the_readmes_excerpts_of_generated_code_are_the_files_lines() {
    let readme = read(&root().join("README.md"));
    let mut excerpts: Vec<(String, Vec<String>)> = Vec::new();
    let mut in_rust = false;
    for line in readme.lines() {
        if line.starts_with("```") {
            in_rust = line == "```rust";
            continue;
        }
        if !in_rust {
            continue;
        }
        if let Some(file) = line.strip_prefix("// FROM: ") {
            excerpts.push((file.to_string(), Vec::new()));
        } else if let Some((_, lines)) = excerpts.last_mut() {
            lines.push(line.to_string());
        }
    }
    assert!(
        !excerpts.is_empty(),
        "README.md has no `// FROM:` excerpt; this test then checks nothing"
    );
    for (file, lines) in &excerpts {
        let text = read(&root().join(file));
        let whole = code_lines(&text);
        let excerpt: Vec<&str> = lines
            .iter()
            .map(|l| l.trim())
            .filter(|l| !l.is_empty())
            .collect();
        assert!(
            whole
                .windows(excerpt.len())
                .any(|w| w == excerpt.as_slice()),
            "README.md's excerpt of {file} is not its lines (regenerated code changed?):\n{}",
            excerpt.join("\n")
        );
    }
}

#[test]
fn slugs_follow_github_and_mdbook() {
    assert_eq!(
        slug(" Use apigen in your project"),
        "use-apigen-in-your-project"
    );
    assert_eq!(
        slug(" Safe retries: `Idempotency-Key`"),
        "safe-retries-idempotency-key"
    );
    assert_eq!(slug(" Type mapping (decisions)"), "type-mapping-decisions");
    assert_eq!(slug(" A [link](x.md) here"), "a-link-here");
    let text = "# A\n## A\n```\n# not a heading\n```\n<a id=\"custom\"></a>\n";
    let found = anchors(text);
    assert!(found.contains("a") && found.contains("a-1") && found.contains("custom"));
    assert!(!found.contains("not-a-heading"));
    assert_eq!(
        link_targets("see [a](b.md#c) and ![i](img.png \"t\") and [x](https://e.org)"),
        ["b.md#c", "img.png", "https://e.org"]
    );
    assert_eq!(
        without_code_spans("a `[x](y)` b"),
        format!("a {} b", " ".repeat(8))
    );
    assert_eq!(fence("```` ```JSON { ```` opened"), None);
}
