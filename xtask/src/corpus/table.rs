//! The corpus table: one row per document (generated or refused, lines, warnings, errors),
//! the summary line and the details under it.

use super::*;

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Generated {
    Yes,
    /// First line of the errors, and how many there are.
    Error(String, usize),
    /// Where and what.
    Panic(String),
}

#[derive(Debug, Clone)]
pub(super) struct Row {
    pub(super) doc: String,
    pub(super) generated: Generated,
    pub(super) gen_ms: f64,
    pub(super) lines: Option<usize>,
    pub(super) gen_warnings: usize,
    /// Generator warning kind → how many, and the JSON pointer of the first.
    pub(super) gen_warning_kinds: BTreeMap<String, (usize, String)>,
    /// The crate-name stem when the crates were written.
    pub(super) crates: Option<String>,
    pub(super) server: Option<CrateBuild>,
    pub(super) client: Option<CrateBuild>,
    pub(super) cli: Option<CrateBuild>,
    /// Operations of the document, when it generated.
    pub(super) operations: Option<usize>,
    pub(super) notes: Vec<String>,
    /// Generator errors or the panic, for the details section.
    pub(super) details: Vec<String>,
}

impl Row {
    pub(super) fn new(doc: String) -> Row {
        Row {
            doc,
            generated: Generated::Yes,
            gen_ms: 0.0,
            lines: None,
            gen_warnings: 0,
            gen_warning_kinds: BTreeMap::new(),
            crates: None,
            server: None,
            client: None,
            cli: None,
            operations: None,
            notes: Vec::new(),
            details: Vec::new(),
        }
    }

    /// Each crate's build, by side.
    pub(super) fn sides(&self) -> [(&'static str, &Option<CrateBuild>); 3] {
        [
            ("server", &self.server),
            ("client", &self.client),
            ("cli", &self.cli),
        ]
    }
}

/// At most `max` characters of `line`, saying how many were left out.
pub(super) fn clip(line: &str, max: usize) -> String {
    let total = line.chars().count();
    if total <= max {
        return line.to_string();
    }
    let kept: String = line.chars().take(max).collect();
    format!("{kept}… ({} more characters)", total - max)
}

/// A table cell: one line, no `|`, at most `max` characters.
pub(super) fn cell(text: &str, max: usize) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut s: String = one_line.chars().take(max).collect();
    if one_line.chars().count() > max {
        s.push('…');
    }
    s.replace('|', "\\|")
}

pub(super) fn render_table(rows: &[Row]) -> String {
    let mut s = String::from(
        "| document | generated | ops | gen ms | lines | server compiles | client compiles | CLI compiles | warnings (gen + rustc server/client/CLI + rustdoc) | notes |\n\
         |---|---|---:|---:|---:|---|---|---|---|---|\n",
    );
    for r in rows {
        let generated = match &r.generated {
            Generated::Yes => "yes".to_string(),
            Generated::Error(first, n) => {
                let more = if *n > 1 {
                    format!(" (+{} more)", n - 1)
                } else {
                    String::new()
                };
                format!("ERROR {}{more}", cell(first, 110))
            }
            Generated::Panic(what) => format!("**PANIC** {}", cell(what, 110)),
        };
        let side = |b: &Option<CrateBuild>| b.as_ref().map_or("–".into(), CrateBuild::cell);
        let warnings = match &r.generated {
            Generated::Yes => {
                let count = |b: &Option<CrateBuild>| {
                    b.as_ref()
                        .filter(|b| b.attempted())
                        .map_or("?".into(), |b| b.warnings.to_string())
                };
                let documented: Vec<usize> = [&r.server, &r.client, &r.cli]
                    .iter()
                    .filter_map(|b| b.as_ref().and_then(|b| b.doc_warnings))
                    .collect();
                let docs = (!documented.is_empty()).then(|| documented.iter().sum::<usize>());
                format!(
                    "{} + {}/{}/{} + {}",
                    r.gen_warnings,
                    count(&r.server),
                    count(&r.client),
                    count(&r.cli),
                    docs.map_or("?".into(), |n| n.to_string())
                )
            }
            _ => "–".into(),
        };
        let notes: Vec<String> = r.notes.iter().map(|n| cell(n, 160)).collect();
        let _ = writeln!(
            s,
            "| `{}` | {} | {} | {:.0} | {} | {} | {} | {} | {} | {} |",
            r.doc,
            generated,
            r.operations.map_or("–".into(), |n| n.to_string()),
            r.gen_ms,
            r.lines.map_or("–".into(), |n| n.to_string()),
            side(&r.server),
            side(&r.client),
            side(&r.cli),
            warnings,
            notes.join("; ")
        );
    }
    s
}

pub(super) fn summary_line(rows: &[Row]) -> String {
    let count = |f: &dyn Fn(&Row) -> bool| rows.iter().filter(|r| f(r)).count();
    let compiles = |b: &Option<CrateBuild>| b.as_ref().is_some_and(|b| b.compiled);
    format!(
        "corpus: {} documents, {} generated, {} servers compile, {} clients compile, {} CLIs compile, {} clean errors, {} panics",
        rows.len(),
        count(&|r| r.generated == Generated::Yes),
        count(&|r| compiles(&r.server)),
        count(&|r| compiles(&r.client)),
        count(&|r| compiles(&r.cli)),
        count(&|r| matches!(r.generated, Generated::Error(..))),
        count(&|r| matches!(r.generated, Generated::Panic(_))),
    )
}

/// Per failure: the generator's errors or panic, or per crate that does not compile the
/// error kinds with counts and the first error as rustc printed it.
pub(super) fn render_details(rows: &[Row]) -> String {
    let mut s = String::new();
    for r in rows {
        let mut section = String::new();
        if !r.details.is_empty() {
            section.push_str("```text\n");
            for line in &r.details {
                section.push_str(line);
                section.push('\n');
            }
            section.push_str("```\n");
        }
        for (side, build) in r.sides() {
            let Some(b) = build else { continue };
            if let Some(m) = &b.manifest_error {
                let _ = writeln!(section, "{side}: cargo cannot load the manifest: {m}\n");
            }
            if b.errors.is_empty() {
                continue;
            }
            let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
            for e in &b.errors {
                let key = match &e.code {
                    Some(code) => format!("{code} {}", kind_of(&e.message)),
                    None => kind_of(&e.message),
                };
                *kinds.entry(key).or_default() += 1;
            }
            let mut kinds: Vec<_> = kinds.into_iter().collect();
            kinds.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            let _ = writeln!(section, "{side}: {}", plural(b.errors.len(), "error"));
            for (kind, n) in kinds.iter().take(8) {
                let _ = writeln!(section, "- {n} × {}", cell(kind, 150));
            }
            let rendered: Vec<&str> = b.errors[0].rendered.trim_end().lines().take(30).collect();
            let _ = writeln!(section, "\n```text\n{}\n```\n", rendered.join("\n"));
        }
        if !section.is_empty() {
            let _ = writeln!(s, "\n### `{}`\n\n{section}", r.doc);
        }
    }
    if s.is_empty() {
        s
    } else {
        format!("\n## Failures\n{s}")
    }
}

/// Warnings by kind, from the generator and from rustc: how many, in how many documents or
/// crates, and where the first one is.
pub(super) fn render_warnings(rows: &[Row]) -> String {
    type Kinds<'a> = BTreeMap<&'a str, (usize, usize, String)>;
    fn add<'a>(kinds: &mut Kinds<'a>, from: &'a BTreeMap<String, (usize, String)>, doc: &str) {
        for (kind, (n, at)) in from {
            let entry = kinds
                .entry(kind)
                .or_insert_with(|| (0, 0, format!("{doc}{at}")));
            entry.0 += n;
            entry.1 += 1;
        }
    }
    fn table(title: &str, unit: &str, kinds: Kinds<'_>) -> String {
        if kinds.is_empty() {
            return String::new();
        }
        let mut kinds: Vec<_> = kinds.into_iter().collect();
        kinds.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.0.cmp(b.0)));
        let mut s = format!(
            "\n## {title}\n\n| warning | count | {unit} | first at |\n|---|---:|---:|---|\n"
        );
        for (kind, (n, m, at)) in kinds {
            let _ = writeln!(
                s,
                "| {} | {n} | {m} | {} |",
                cell(kind, 120),
                cell(&at, 140)
            );
        }
        s
    }
    let mut generator = Kinds::new();
    let mut rustc = Kinds::new();
    let mut rustdoc = Kinds::new();
    for r in rows {
        add(&mut generator, &r.gen_warning_kinds, &format!("{} ", r.doc));
        for b in [&r.server, &r.client, &r.cli].into_iter().flatten() {
            add(&mut rustc, &b.warning_kinds, "");
            add(&mut rustdoc, &b.doc_warning_kinds, "");
        }
    }
    table("Generator warnings by kind", "documents", generator)
        + &table("rustc warnings by kind", "crates", rustc)
        + &table("rustdoc warnings by kind", "crates", rustdoc)
}

/// The message's first line with every backtick- or double-quoted name replaced by `…`
/// (keeping the trait of a `Type: Trait` bound), so that "cannot find type `A`" and "cannot
/// find type `B`" count as one kind.
pub(crate) fn kind_of(message: &str) -> String {
    let first = message.lines().next().unwrap_or("");
    let mut out = String::new();
    let mut rest = first;
    while let Some(open) = rest.find(['`', '"']) {
        let quote = &rest[open..open + 1];
        out.push_str(&rest[..open]);
        let inner = &rest[open + 1..];
        let (name, after) = inner.split_once(quote).unwrap_or((inner, ""));
        match name.rsplit_once(": ") {
            Some((_, bound)) if quote == "`" => out.push_str(&format!("`…: {bound}`")),
            _ => out.push_str(&format!("{quote}…{quote}")),
        }
        rest = after;
    }
    out.push_str(rest);
    out
}
