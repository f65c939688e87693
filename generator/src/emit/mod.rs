//! Printing the IR: `quote!` token streams → `syn` → prettyplease, plus the header line.
//! Emitters only print what the IR says; they make no decisions.

pub mod cli;
pub mod client;
pub mod document;
pub mod gates;
pub mod manifest;
pub mod mock;
mod reflow;
pub mod root;
pub mod server;
pub mod types;
pub mod usage;
pub mod webhooks;

use crate::ir::{Location, Operation, Response, SchemeKind, Status, TypeRef};
use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

/// Which crate a file is printed for: the two differ in how strict they read input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Rejects what the document does not allow (unknown enum values).
    Server,
    /// Tolerates what a newer server may send (unknown enum values become `Unknown`).
    Client,
}

/// An identifier from a name the naming module made (raw identifiers included).
pub fn ident(name: &str) -> Ident {
    match name.strip_prefix("r#") {
        Some(raw) => Ident::new_raw(raw, Span::call_site()),
        None => format_ident!("{}", name),
    }
}

/// One `#[doc]` attribute per line: prettyplease prints each as a `///` line.
pub fn doc(lines: &[String]) -> TokenStream {
    let lines = crate::docs::link_bare_urls(lines);
    let lines = lines.iter().map(|l| {
        let text = doc_value(&visible_controls(l));
        quote!(#[doc = #text])
    });
    quote!(#(#lines)*)
}

/// A line with its control characters (but tabs) written as Rust escapes (`\r`, `\u{1}`): a
/// name the document gives (a property called `foo\rbar`, as JSON Schema's test suite has)
/// reaches a doc line as written, and rustc refuses a bare carriage return in a doc comment.
fn visible_controls(line: &str) -> std::borrow::Cow<'_, str> {
    // A tab too: clippy refuses tabs in doc comments (`tabs_in_doc_comments`).
    if !line.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len() + 8);
    for c in line.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

std::thread_local! {
    /// While [`render_built`] builds a file: the text of its doc lines, each standing in the
    /// tokens as a short placeholder until the file is printed.
    static DOC_LINES: std::cell::RefCell<Option<Vec<String>>> =
        const { std::cell::RefCell::new(None) };
}

/// Starts the placeholders of doc lines (the `\u{1}` control character, which
/// `docs::render` never lets through, then the line's number).
const DOC_MARK: char = '\u{1}';

/// The value of one doc attribute (` line`, or empty). While [`render_built`] builds a file,
/// a placeholder: prettyplease prints a doc value without a line break or leading `/` as
/// `///value` (`//!value`) with its trailing spaces trimmed and nothing else, so the text
/// can be put in after printing. A description is most of the text of a large file; this
/// way it is not escaped into a literal, unescaped by syn and again by prettyplease.
fn doc_value(line: &str) -> String {
    let text = if line.is_empty() {
        String::new()
    } else {
        format!(" {line}")
    };
    if text.contains(['\n', DOC_MARK]) || text.starts_with('/') {
        return text;
    }
    DOC_LINES.with(|lines| match &mut *lines.borrow_mut() {
        Some(lines) => {
            lines.push(text);
            format!("{DOC_MARK}{}", lines.len() - 1)
        }
        None => text,
    })
}

/// Builds a file with `make` and formats it as [`render`] does, printing doc lines as
/// placeholders and putting their text in afterwards (the same text).
pub fn render_built(make: impl FnOnce() -> TokenStream, header: &str) -> Result<String, String> {
    DOC_LINES.with(|lines| *lines.borrow_mut() = Some(Vec::new()));
    let tokens = make();
    let lines = DOC_LINES
        .with(|lines| lines.borrow_mut().take())
        .unwrap_or_default();
    let text = render(tokens, header)?;
    Ok(fill_docs(&text, &lines))
}

/// rustfmt's default `max_width`: doc lines are wrapped to it.
const WIDTH: usize = 100;

/// Puts the doc lines in for their placeholders (`///` or `//!`, the mark, the number, the
/// end of the line), trimming trailing spaces as prettyplease does, each wrapped to
/// [`WIDTH`] where Markdown allows (`docs::wrap`).
fn fill_docs(text: &str, lines: &[String]) -> String {
    if lines.is_empty() {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() + lines.iter().map(String::len).sum::<usize>());
    let mut fence = None;
    let mut rest = text;
    while let Some(at) = rest.find(DOC_MARK) {
        let (before, after) = (&rest[..at], &rest[at + DOC_MARK.len_utf8()..]);
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        let line = (before.ends_with("///") || before.ends_with("//!"))
            .then_some(())
            .filter(|()| after[digits..].starts_with('\n'))
            .and_then(|()| after[..digits].parse::<usize>().ok())
            .and_then(|n| lines.get(n));
        out.push_str(before);
        match line {
            Some(line) => {
                // The `///` (or `//!`) and its indentation start each line it becomes.
                let start = out.rfind('\n').map_or(0, |i| i + 1);
                let width = WIDTH.saturating_sub(out[start..].chars().count());
                let pieces = crate::docs::wrap::wrap(line, width, &mut fence);
                let lead = out[start..].to_string();
                for (i, piece) in pieces.iter().enumerate() {
                    if i > 0 {
                        out.push('\n');
                        out.push_str(&lead);
                    }
                    out.push_str(piece.trim_end_matches(' '));
                }
                rest = &after[digits..];
            }
            None => {
                out.push(DOC_MARK);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Ends a description that closes with a Markdown list item (`- a`, `1. b`) with an empty
/// line, so that a note added after it starts a paragraph of its own instead of running into
/// the item (rustdoc would read it as the item's lazy continuation; clippy warns).
pub fn end_list(lines: &mut Vec<String>) {
    let Some(last) = lines.last() else {
        return;
    };
    let item = last.trim_start();
    let numbered = item
        .split_once(". ")
        .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    if item.starts_with("- ") || item.starts_with("* ") || item.starts_with("+ ") || numbered {
        lines.push(String::new());
    }
}

/// Inner `//!` docs for a module.
pub fn module_doc(lines: &[String]) -> TokenStream {
    let lines = crate::docs::link_bare_urls(lines);
    let lines = lines.iter().map(|l| {
        let text = doc_value(l);
        quote!(#![doc = #text])
    });
    quote!(#(#lines)*)
}

/// The Rust type for a `TypeRef`; named types are qualified with `prefix` (`types::`) when
/// printed outside the types module, so they never collide with generated names.
pub fn rust_type(t: &TypeRef, qualified: bool) -> TokenStream {
    match t {
        TypeRef::Named(n) => {
            let n = ident(n);
            if qualified {
                quote!(types::#n)
            } else {
                quote!(#n)
            }
        }
        TypeRef::String => quote!(String),
        TypeRef::Uuid => quote!(uuid::Uuid),
        TypeRef::DateTime => quote!(jiff::Timestamp),
        TypeRef::Date => quote!(jiff::civil::Date),
        TypeRef::Ipv4 => quote!(std::net::Ipv4Addr),
        TypeRef::Ipv6 => quote!(std::net::Ipv6Addr),
        TypeRef::Bool => quote!(bool),
        TypeRef::I32 => quote!(i32),
        TypeRef::I64 => quote!(i64),
        TypeRef::U8 => quote!(u8),
        TypeRef::U16 => quote!(u16),
        TypeRef::U32 => quote!(u32),
        TypeRef::U64 => quote!(u64),
        TypeRef::F32 => quote!(f32),
        TypeRef::F64 => quote!(f64),
        TypeRef::Decimal | TypeRef::BigInt => quote!(crate::runtime::codegen::Decimal),
        TypeRef::Bytes => quote!(Vec<u8>),
        TypeRef::Base64 => quote!(crate::runtime::codegen::Base64),
        TypeRef::Base64Url => quote!(crate::runtime::codegen::Base64Url),
        TypeRef::Tuple(items) => {
            let items = items.iter().map(|t| rust_type(t, qualified));
            quote!((#(#items,)*))
        }
        TypeRef::Vec(inner) => {
            let inner = rust_type(inner, qualified);
            quote!(Vec<#inner>)
        }
        TypeRef::Map(inner) => {
            let inner = rust_type(inner, qualified);
            quote!(std::collections::BTreeMap<String, #inner>)
        }
        TypeRef::Json => quote!(serde_json::Value),
        TypeRef::Unit => quote!(()),
        TypeRef::Nullable(inner) => {
            let inner = rust_type(inner, qualified);
            quote!(Option<#inner>)
        }
        TypeRef::JsonObject => quote!(serde_json::Map<String, serde_json::Value>),
    }
}

/// A raw string literal of JSON text (`r#"…"#`, with as many `#` as it needs).
pub fn json_literal(value: &serde_json::Value) -> TokenStream {
    let text = value.to_string();
    let mut hashes = String::from("#");
    while text.contains(&format!("\"{hashes}")) {
        hashes.push('#');
    }
    format!("r{hashes}\"{text}\"{hashes}")
        .parse()
        .expect("a raw string literal")
}

/// `path`, `query`, `header`, `cookie`: how docs and pointers name a parameter's location.
/// `#[allow(…)]` for the clippy lints an operation's method trips by its name alone
/// ([`crate::naming::self_convention_lints`]); nothing for other names.
pub fn convention_allows(method: &str) -> TokenStream {
    let lints: Vec<syn::Path> = crate::naming::self_convention_lints(method)
        .iter()
        .filter_map(|lint| syn::parse_str(lint).ok())
        .collect();
    if lints.is_empty() {
        TokenStream::new()
    } else {
        quote!(#[allow(#(#lints),*)])
    }
}

pub fn location_text(l: Location) -> &'static str {
    l.name()
}

/// A response's status as the document writes it (`404`, `4XX`, `default`).
pub fn status_text(r: &Response) -> String {
    match &r.status {
        Status::Code(c) => c.to_string(),
        Status::Range(c) => format!("{c}XX"),
        Status::Default => "default".into(),
    }
}

/// A security scheme as the runtimes describe it (both runtimes name the kinds alike).
pub fn scheme_kind(kind: &SchemeKind) -> TokenStream {
    match kind {
        SchemeKind::Bearer => quote!(SchemeKind::HttpBearer),
        SchemeKind::Basic => quote!(SchemeKind::HttpBasic),
        SchemeKind::ApiKeyHeader(n) => quote!(SchemeKind::ApiKeyHeader(#n)),
        SchemeKind::ApiKeyQuery(n) => quote!(SchemeKind::ApiKeyQuery(#n)),
        SchemeKind::ApiKeyCookie(n) => quote!(SchemeKind::ApiKeyCookie(#n)),
    }
}

/// A response variant's docs: `404: <description>`, then the rest of the description.
pub fn response_doc(r: &Response) -> TokenStream {
    let mut lines = vec![format!(
        "{}: {}",
        status_text(r),
        r.doc.first().cloned().unwrap_or_default()
    )];
    lines.extend(r.doc.iter().skip(1).cloned());
    doc(&lines)
}

/// An operation's docs: summary, description, then its method, path and id.
pub fn operation_doc(op: &Operation) -> TokenStream {
    let mut lines = op.doc.clone();
    if !lines.is_empty() {
        lines.push(String::new());
    }
    lines.push(format!(
        "`{} {}` (operation `{}`).",
        op.method, op.path, op.id
    ));
    doc(&lines)
}

/// The first line of every generated file.
pub fn header(command: &str, spec: &str) -> String {
    format!(
        "// @generated by `{command}` from {spec}. Do not edit by hand; edit the spec and rerun.\n"
    )
}

/// Formats one Rust file. A token stream that does not parse is a generator bug; it is
/// reported with the text around it so it can be fixed, never a panic.
///
/// The file is parsed and printed one top-level item at a time. The text is the same as
/// printing the whole `syn::File` (prettyplease prints a file's items one after the other,
/// each ending its own line), but syn's copy of the tokens (its `TokenBuffer`) and the
/// syntax tree are only ever those of one item: on a large document they were the largest
/// allocations the generator made, and memory that is reused stays in the cache and needs no
/// fresh pages from the kernel.
pub fn render(tokens: TokenStream, header: &str) -> Result<String, String> {
    use proc_macro2::{Delimiter, TokenTree};
    let mut text = String::new();
    let mut item = Vec::new();
    let mut trees = tokens.into_iter().peekable();
    while let Some(tree) = trees.next() {
        // At the top level of a file, a `;` ends an item, and so does a `{ … }` not followed by
        // `;` or `.` (those continue a `const`'s or `static`'s initialiser). A guess that cuts
        // an item short only fails to parse, and the next tokens are then added to it.
        let ends = match &tree {
            TokenTree::Punct(p) => p.as_char() == ';',
            TokenTree::Group(g) => {
                g.delimiter() == Delimiter::Brace
                    && !matches!(trees.peek(), Some(TokenTree::Punct(p)) if matches!(p.as_char(), ';' | '.'))
            }
            _ => false,
        };
        item.push(tree);
        let last = trees.peek().is_none();
        if !(ends || last) {
            continue;
        }
        match print_items(&item) {
            Ok(printed) => {
                text.push_str(&printed);
                item.clear();
            }
            Err(e) if last => {
                // What was printed before the item that failed locates it.
                let printed = text.chars().rev().take(300).collect::<Vec<_>>();
                let excerpt: String = printed.into_iter().rev().collect();
                return Err(format!(
                    "generated code does not parse ({e}); the last item that did ends: …{excerpt}"
                ));
            }
            Err(_) => {}
        }
    }
    Ok(format!(
        "{header}{}",
        space_items(&reflow::attributes(&text))
    ))
}

/// Parses the tokens as what `syn::File`'s parser reads (inner attributes, then items) and
/// prints them, an item at a time.
fn print_items(tokens: &[proc_macro2::TokenTree]) -> syn::Result<String> {
    use syn::parse::Parser;
    let mut text = String::new();
    let print = |input: syn::parse::ParseStream| -> syn::Result<()> {
        let mut attrs = input.call(syn::Attribute::parse_inner)?;
        loop {
            let items = if input.is_empty() {
                Vec::new()
            } else {
                vec![input.parse::<syn::Item>()?]
            };
            if let [item] = items.as_slice()
                && let Some(printed) = print_nested(item)
            {
                // The file's inner attributes, when they came with this item, first.
                if !attrs.is_empty() {
                    text.push_str(&unparse(std::mem::take(&mut attrs), Vec::new()));
                }
                text.push_str(&printed);
            } else if !(items.is_empty() && attrs.is_empty()) {
                text.push_str(&unparse(std::mem::take(&mut attrs), items));
            }
            if input.is_empty() {
                return Ok(());
            }
        }
    };
    print.parse2(tokens.iter().cloned().collect())?;
    Ok(text)
}

/// prettyplease's text of a file of these inner attributes and items.
fn unparse(attrs: Vec<syn::Attribute>, items: Vec<syn::Item>) -> String {
    prettyplease::unparse(&syn::File {
        shebang: None,
        frontmatter: None,
        attrs,
        items,
    })
}

/// An item that holds declarations prettyplease would print as a run of tokens: a macro call
/// in braces ([`print_item_macro`]), or a module holding one (a tag's items, under its
/// feature), printed item by item inside its braces. `None`: an item prettyplease prints
/// well itself.
fn print_nested(item: &syn::Item) -> Option<String> {
    match item {
        syn::Item::Macro(call) => print_item_macro(call),
        syn::Item::Mod(module) => {
            let (brace, items) = module.content.as_ref()?;
            if !items
                .iter()
                .any(|i| matches!(i, syn::Item::Macro(_) | syn::Item::Mod(_)))
            {
                return None;
            }
            let mut empty = module.clone();
            empty.content = Some((*brace, Vec::new()));
            let head = unparse(Vec::new(), vec![syn::Item::Mod(empty)]);
            let head = head.trim_end().strip_suffix("{}")?;
            let mut out = format!("{head}{{\n");
            for (i, inner) in items.iter().enumerate() {
                // A blank line between items, as at the top level.
                if i > 0 {
                    out.push('\n');
                }
                let printed =
                    print_nested(inner).unwrap_or_else(|| unparse(Vec::new(), vec![inner.clone()]));
                for line in printed.lines() {
                    if !line.is_empty() {
                        out.push_str("    ");
                    }
                    out.push_str(line);
                    out.push('\n');
                }
            }
            out.push_str("}\n");
            Some(out)
        }
        _ => None,
    }
}

/// A macro call in braces whose body is one item (the runtime's `object::json! { struct … }`),
/// printed with its item formatted as an item, indented inside the braces: prettyplease prints
/// a macro's body as a run of tokens, without line breaks.
fn print_item_macro(call: &syn::ItemMacro) -> Option<String> {
    if !matches!(call.mac.delimiter, syn::MacroDelimiter::Brace(_)) || call.ident.is_some() {
        return None;
    }
    let body: syn::Item = syn::parse2(call.mac.tokens.clone()).ok()?;
    let mut empty = call.clone();
    empty.mac.tokens = TokenStream::new();
    let head = unparse(Vec::new(), vec![syn::Item::Macro(empty)]);
    let head = head.trim_end().strip_suffix("{}")?;
    let mut out = format!("{head}{{\n");
    for line in unparse(Vec::new(), vec![body]).lines() {
        if !line.is_empty() {
            out.push_str("    ");
        }
        if line.trim_start().starts_with("//") {
            out.push_str(line);
        } else {
            space_after_colons(line, &mut out);
        }
        out.push('\n');
    }
    out.push_str("}\n");
    Some(out)
}

/// A line of code with a space after each lone `:` outside string literals: prettyplease
/// prints an attribute's tokens as they come, and the runtime's declarations name types there
/// (`#[json(new(name: impl Into<String>))]`, `with_tag: text`); `::` stays as it is.
fn space_after_colons(line: &str, out: &mut String) {
    let chars: Vec<char> = line.chars().collect();
    let (mut in_string, mut escaped) = (false, false);
    for (i, &c) in chars.iter().enumerate() {
        out.push(c);
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            ':' => {
                let before = i > 0 && chars[i - 1] == ':';
                let after = chars.get(i + 1).copied();
                if !before && !matches!(after, Some(':' | ' ') | None) {
                    out.push(' ');
                }
            }
            _ => {}
        }
    }
}

/// A `serde_json::Value` as a Rust expression of type `ty` (for defaults).
pub fn literal(value: &serde_json::Value, ty: &TypeRef) -> Option<TokenStream> {
    use serde_json::Value;
    Some(match (value, ty) {
        (Value::Bool(b), TypeRef::Bool) => quote!(#b),
        (Value::Number(n), TypeRef::I32 | TypeRef::I64) => {
            let v = n.as_i64()?;
            if *ty == TypeRef::I32 {
                i32::try_from(v).ok()?;
            }
            let lit = proc_macro2::Literal::i64_unsuffixed(v.abs());
            if v < 0 { quote!(-#lit) } else { quote!(#lit) }
        }
        (Value::Number(n), TypeRef::U8 | TypeRef::U16 | TypeRef::U32 | TypeRef::U64) => {
            let v = proc_macro2::Literal::u64_unsuffixed(n.as_u64()?);
            quote!(#v)
        }
        (Value::Number(n), TypeRef::F32 | TypeRef::F64) => {
            let v = proc_macro2::Literal::f64_unsuffixed(n.as_f64()?);
            quote!(#v)
        }
        // As the document reader holds it (a double beyond 64-bit integers:
        // book/src/reference/type-mapping.md).
        (Value::Number(n), TypeRef::Decimal | TypeRef::BigInt) => {
            let text = n.to_string();
            quote!(crate::runtime::codegen::Decimal::from_static(#text))
        }
        (Value::String(s), TypeRef::String) => quote!(String::from(#s)),
        _ => return None,
    })
}

/// prettyplease prints items back to back; a person leaves a blank line between items and
/// between the methods of an impl or trait. Consecutive `use` and `mod` lines stay grouped.
fn space_items(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    let mut previous: Option<&str> = None;
    for line in text.lines() {
        if let Some(prev) = previous {
            let indent = |l: &str| l.len() - l.trim_start().len();
            let (p, c) = (prev.trim(), line.trim());
            let same_level = indent(prev) == indent(line);
            let grouped = |l: &str| {
                [
                    "use ",
                    "pub use ",
                    "mod ",
                    "pub mod ",
                    "#[allow(unused_imports)]",
                ]
                .iter()
                .any(|k| l.starts_with(k))
            };
            let opens_item = c.starts_with("///")
                || c.starts_with("#[")
                || c.starts_with("pub ")
                || c.starts_with("fn ")
                || c.starts_with("async fn")
                || c.starts_with("impl")
                || c.starts_with("const ")
                || c.starts_with("struct ")
                || c.starts_with("enum ")
                || c.starts_with("type ")
                || c.starts_with("trait ")
                // An item a macro declares (`routes::table! {`).
                || (c.ends_with("! {") && !c.starts_with("let "));
            // A comment line never closes an item, whatever it ends with: a doc line of a
            // description ending in `;` or `}` followed by another doc line must not get a
            // blank line between them (clippy's `empty_line_after_doc_comments`).
            let closes = !p.starts_with("//")
                && (p == "}" || (p.ends_with(';') && !p.starts_with("let ") && indent(prev) <= 4));
            let inner_doc_end = p.starts_with("//!") && !c.starts_with("//!");
            let after_attr_header = p.starts_with("#![");
            if !c.is_empty()
                && same_level
                && !(grouped(p) && grouped(c))
                && ((closes && opens_item) || inner_doc_end)
                && !after_attr_header
            {
                out.push('\n');
            }
        }
        out.push_str(line);
        out.push('\n');
        previous = Some(line);
    }
    out
}

/// The `use` items a file needs: each candidate `(path, trigger)` is imported when the
/// bodies mention `trigger` (a name, or `.name` for a method call that needs a trait in
/// scope), so no generated file carries an unused import whatever the document holds.
///
/// The walk compares identifiers in place (no string per token) and stops looking once every
/// trigger has been seen. It visits every token of the largest files, so it takes each body
/// apart and puts it back together (the same tokens) rather than iterating a shared stream,
/// which would copy every token (`proc_macro2` streams are iterated by value).
pub fn imports<'a>(
    bodies: impl IntoIterator<Item = &'a mut TokenStream>,
    candidates: &[(&str, &str)],
) -> TokenStream {
    let triggers: Vec<Trigger> = candidates
        .iter()
        .map(|(_, trigger)| Trigger::new(trigger))
        .collect();
    let mut walk = Walk {
        triggers: &triggers,
        seen: vec![false; triggers.len()],
        left: triggers.len(),
        name: String::new(),
        paths_only: false,
    };
    for body in bodies {
        *body = walk.find(std::mem::take(body), true);
    }
    let seen = walk.seen;
    let wanted = candidates
        .iter()
        .zip(&seen)
        .filter(|(_, seen)| **seen)
        .map(|((path, _), _)| *path);
    // Whatever comes from the runtime comes through its facade, in one `use`: a name's module
    // in the candidate says where it lives, the facade re-exports it by its last segment.
    let (runtime, others): (Vec<&str>, Vec<&str>) =
        wanted.partition(|path| path.starts_with(RUNTIME_FACADE));
    let mut names: Vec<syn::Ident> = runtime
        .iter()
        .filter_map(|path| path.rsplit("::").next())
        .map(|name| format_ident!("{name}"))
        .collect();
    names.sort_by_key(|name| {
        (
            !name.to_string().starts_with(char::is_lowercase),
            name.to_string(),
        )
    });
    names.dedup();
    let facade = (!names.is_empty()).then(|| quote!(use crate::runtime::codegen::{#(#names),*};));
    let items = others
        .into_iter()
        .filter_map(|path| syn::parse_str::<syn::Path>(path).ok())
        .map(|path| quote!(use #path;));
    quote!(#(#items)* #facade)
}

/// The path generated code names the runtime's facade by (`runtime::codegen` re-exports what
/// generated code uses, so that the runtime's surface for applications stays apart).
const RUNTIME_FACADE: &str = "crate::runtime::codegen::";

/// How a trigger of [`imports`] shows in the tokens.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mention {
    /// `name`, not reached through a path (`Self::name`, `a::name`).
    Name,
    /// `.name(…)`: a method call.
    Method,
    /// `name::`: a path through a module.
    Path,
}

/// One trigger of [`imports`]: how it shows, and the identifier (`r#type` mentions `type`).
struct Trigger {
    mention: Mention,
    name: String,
}

impl Trigger {
    fn new(trigger: &str) -> Trigger {
        let (mention, name) = if let Some(name) = trigger.strip_prefix('.') {
            (Mention::Method, name)
        } else if let Some(name) = trigger.strip_suffix("::") {
            (Mention::Path, name)
        } else {
            (Mention::Name, trigger)
        };
        Trigger {
            mention,
            name: name.to_owned(),
        }
    }
}

/// The state of [`imports`]' walk over the tokens.
struct Walk<'a> {
    triggers: &'a [Trigger],
    /// Which triggers the tokens mention, and how many are not seen yet.
    seen: Vec<bool>,
    left: usize,
    /// The identifier at hand, spelled into one buffer for the whole walk.
    name: String,
    /// Within a declaration (a top-level macro call in braces): only paths count.
    paths_only: bool,
}

impl Walk<'_> {
    /// Marks the triggers the tokens mention; gives back the same tokens. At the top level
    /// (`top`), the body of a macro call in braces is a declaration the runtime expands
    /// (`object::json! { … }`, `enums::string! { … }`): only the paths it names count there
    /// (`types::Pet`), since its other identifiers are the document's (a variant spelled
    /// `Deserialize` must not import serde's trait).
    fn find(&mut self, tokens: TokenStream, top: bool) -> TokenStream {
        use proc_macro2::{Delimiter, Group, Punct, Spacing, TokenTree};
        use std::fmt::Write as _;
        let mut trees: Vec<TokenTree> = tokens.into_iter().collect();
        for i in 0..trees.len() {
            if self.left == 0 {
                break;
            }
            match &trees[i] {
                TokenTree::Ident(ident) => {
                    let punct = |at: usize| match trees.get(at) {
                        Some(TokenTree::Punct(p)) => Some(p.as_char()),
                        _ => None,
                    };
                    // `a.name(…)` is a method call; `name::` is a path through a module; in
                    // `Self::name` or `a::name` the name is reached through the path, so
                    // nothing needs importing for it.
                    let called = matches!(
                        trees.get(i + 1),
                        Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis
                    );
                    // A field read (`self.validate`) is not a call of the trait's method.
                    let method = i > 0 && punct(i - 1) == Some('.') && called;
                    let path = punct(i + 1) == Some(':') && punct(i + 2) == Some(':');
                    let name = !(i > 1 && punct(i - 1) == Some(':') && punct(i - 2) == Some(':'));
                    self.name.clear();
                    let _ = write!(self.name, "{ident}");
                    let spelled = self.name.strip_prefix("r#").unwrap_or(&self.name);
                    for (trigger, seen) in self.triggers.iter().zip(self.seen.iter_mut()) {
                        let mentioned = match trigger.mention {
                            Mention::Name => name && !self.paths_only,
                            Mention::Method => method && !self.paths_only,
                            Mention::Path => path,
                        };
                        if !*seen && mentioned && trigger.name == spelled {
                            *seen = true;
                            self.left -= 1;
                        }
                    }
                }
                TokenTree::Group(g)
                    if top
                        && !self.paths_only
                        && g.delimiter() == Delimiter::Brace
                        && i > 0
                        && matches!(&trees[i - 1], TokenTree::Punct(p) if p.as_char() == '!') =>
                {
                    self.paths_only = true;
                    self.find(g.stream(), false);
                    self.paths_only = false;
                }
                TokenTree::Group(_) => {
                    // Take the group out (a stand-in holds its place meanwhile) so that its
                    // stream is not shared while it is walked, then put the same group back.
                    let stand_in = TokenTree::Punct(Punct::new('#', Spacing::Alone));
                    let TokenTree::Group(group) = std::mem::replace(&mut trees[i], stand_in) else {
                        unreachable!("matched a group")
                    };
                    let (delimiter, span) = (group.delimiter(), group.span());
                    let stream = group.stream();
                    drop(group);
                    let mut group = Group::new(delimiter, self.find(stream, false));
                    group.set_span(span);
                    trees[i] = TokenTree::Group(group);
                }
                _ => {}
            }
        }
        trees.into_iter().collect()
    }
}

/// The runtime's `Style` of a parameter written as one value (`deepObject` is never one).
pub(crate) fn style_tokens(style: crate::ir::Style) -> TokenStream {
    use crate::ir::Style as S;
    match style {
        S::Simple | S::DeepObject => quote!(Style::Simple),
        S::Label => quote!(Style::Label),
        S::Matrix => quote!(Style::Matrix),
        S::Form => quote!(Style::Form),
        S::SpaceDelimited => quote!(Style::SpaceDelimited),
        S::PipeDelimited => quote!(Style::PipeDelimited),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn doc_lines_printed_as_placeholders_read_as_written() {
        let make = || {
            let module = super::module_doc(&["Module.".into(), String::new(), "x  ".into()]);
            let lines: Vec<String> = ["A line", "", "trailing  ", "a \u{1}7 mark", "\\ \"q\""]
                .iter()
                .map(|l| l.to_string())
                .collect();
            let docs = super::doc(&lines);
            quote::quote! {
                #module
                #docs
                pub struct A;
                impl A {
                    #docs
                    pub fn f(&self) {}
                }
            }
        };
        let direct = super::render(make(), "// h\n").unwrap();
        assert_eq!(super::render_built(make, "// h\n").unwrap(), direct);
        assert!(direct.contains("    /// trailing\n"), "{direct}");
    }

    /// Items are cut at the top level by guessing where each ends; items whose braces do not
    /// end them (initialisers, a `use` group) must come out as printing the whole file does.
    #[test]
    fn rendering_item_by_item_prints_what_the_whole_file_prints() {
        let make = || {
            quote::quote! {
                #![allow(dead_code)]
                //! Module.
                use std::collections::{BTreeMap, HashMap};
                pub struct S { pub a: u8 }
                const X: S = S { a: 1 };
                const Y: u8 = S { a: 2 }.a;
                // Cut short after `{ 1 }`: the guess fails to parse, and the rest is added.
                const W: u8 = if true { 1 } else { 2 };
                static Z: fn() -> u8 = || { 3 };
                #[derive(Debug)]
                pub enum E { A, B }
                impl S where S: Sized { pub fn a(&self) -> u8 { self.a } }
                macro_rules! m { () => {} }
                m!();
                pub mod inner { pub fn f() {} }
                type M = BTreeMap<String, HashMap<u8, u8>>;
            }
        };
        let whole = prettyplease::unparse(&syn::parse2(make()).unwrap());
        let rendered = super::render(make(), "// h\n").unwrap();
        assert_eq!(rendered, format!("// h\n{}", super::space_items(&whole)));
    }

    #[test]
    fn tokens_that_do_not_parse_are_an_error_that_says_where() {
        let error =
            super::render(quote::quote!(pub struct A; pub struct B; fn ();), "// h\n").unwrap_err();
        assert!(
            error.starts_with("generated code does not parse ("),
            "{error}"
        );
        assert!(error.ends_with("pub struct B;\n"), "{error}");
    }

    #[test]
    fn doc_lines_ending_like_code_get_no_blank_line_after_them() {
        let text = "/// let x = 1;\n/// }\n/// ```\npub struct A;\npub struct B;\n";
        assert_eq!(
            super::space_items(text),
            "/// let x = 1;\n/// }\n/// ```\npub struct A;\n\npub struct B;\n"
        );
    }
}

#[cfg(test)]
mod end_list_tests {
    use super::end_list;

    fn ended(text: &[&str]) -> Vec<String> {
        let mut lines: Vec<String> = text.iter().map(|l| l.to_string()).collect();
        end_list(&mut lines);
        lines
    }

    #[test]
    fn a_note_after_a_list_starts_a_paragraph() {
        // openai's parameter descriptions end with their values as a list.
        for last in ["- `desc`: newest first.", "  * b", "+ c", "12. twelfth"] {
            assert_eq!(
                ended(&["Order:", last]).last().map(String::as_str),
                Some(""),
                "{last}"
            );
        }
        for last in ["Plain text.", "-1 is the default", "v1. Old", ""] {
            assert_eq!(ended(&["Text", last]).len(), 2, "{last}");
        }
        assert!(ended(&[]).is_empty());
    }
}
