//! The client's cargo features printed (`lower::features` decides them): a
//! `#[cfg(any(feature = …))]` on every item an operation or a type prints, and the allowances a
//! crate built with some features off needs.
//!
//! Decision: `docs/decisions/0006-cargo-features-per-tag.md`.

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use quote::quote;

use crate::ir::Feature;

/// `items` (top-level items, as one type or one operation prints them, or an operation's
/// methods inside `impl Client`) each under `#[cfg(feature = "a")]` (`any(…)` of several features), placed after
/// the item's doc comments; unchanged when there are none.
///
/// The items are told apart on the tokens, without parsing them (parsing every type of a
/// large document again cost half the generator's time): an item is its attributes, then
/// everything to its first `;` or `{…}` at the top level (a macro call's braces included), or
/// to its `;` for the kinds that hold a value (`const`, `static`, `type`, `use`).
pub fn items(items: TokenStream, features: Option<&[String]>) -> TokenStream {
    let Some(cfg) = cfg(features) else {
        return items;
    };
    let mut out = TokenStream::new();
    let mut tokens = items.into_iter().peekable();
    while tokens.peek().is_some() {
        // The doc comments, then the cfg, then the item's other attributes and the rest.
        let mut item: Vec<TokenTree> = Vec::new();
        let mut docs_done = false;
        let mut valued = None;
        while let Some(token) = tokens.next() {
            let at_attribute = matches!(&token, TokenTree::Punct(p) if p.as_char() == '#')
                && matches!(tokens.peek(), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Bracket);
            if at_attribute {
                let Some(TokenTree::Group(body)) = tokens.next() else {
                    unreachable!("peeked a bracket group")
                };
                let is_doc = matches!(body.stream().into_iter().next(), Some(TokenTree::Ident(i)) if i == "doc");
                if !is_doc && !docs_done {
                    item.extend(cfg.clone());
                    docs_done = true;
                }
                item.push(token);
                item.push(TokenTree::Group(body));
                continue;
            }
            if !docs_done {
                item.extend(cfg.clone());
                docs_done = true;
            }
            if valued.is_none()
                && let TokenTree::Ident(i) = &token
            {
                let word = i.to_string();
                if ["const", "static", "type", "use"].contains(&word.as_str()) {
                    valued = Some(true);
                } else if ["struct", "enum", "union", "impl", "fn", "mod", "trait"]
                    .contains(&word.as_str())
                {
                    valued = Some(false);
                }
            }
            // A macro call in braces (`object::json! { … }`) is an item of its own.
            let called = matches!(item.last(), Some(TokenTree::Punct(p)) if p.as_char() == '!');
            let ends = match &token {
                TokenTree::Punct(p) => p.as_char() == ';',
                TokenTree::Group(g) => {
                    g.delimiter() == Delimiter::Brace
                        && (valued == Some(false) || (valued.is_none() && called))
                }
                _ => false,
            };
            item.push(token);
            if ends {
                break;
            }
        }
        out.extend(item);
    }
    out
}

/// `parts` gathered by the features that compile them, each set once, in the order each set
/// first comes (an empty set is `None`, compiled always): a tag's methods in one `impl` block
/// under one `#[cfg]` rather than a `#[cfg]` on each.
pub fn grouped<'a>(
    parts: impl Iterator<Item = (Option<&'a [String]>, TokenStream)>,
) -> Vec<(Option<&'a [String]>, TokenStream)> {
    let mut groups: Vec<(Option<&'a [String]>, TokenStream)> = Vec::new();
    for (features, part) in parts {
        let features = features.filter(|f| !f.is_empty());
        match groups.iter_mut().find(|(f, _)| *f == features) {
            Some((_, tokens)) => tokens.extend(part),
            None => groups.push((features, part)),
        }
    }
    groups
}

/// Grouped items (see [`grouped`]) printed: those every build compiles as they are; each set
/// of features' in a private module under its `#[cfg]`, its items re-exported where they would
/// have been (`pub use operations_pets::*`), so a `#[cfg]` is written once per tag rather than
/// on every item. The module sees what the file imports (`use super::*`); `vis` is the
/// re-export's (`pub` for types, nothing for the router's handlers).
pub fn modules(groups: Vec<(Option<&[String]>, TokenStream)>, vis: TokenStream) -> TokenStream {
    print_modules(groups, Some(vis)).0
}

/// As [`modules`], without the re-exports: the rest of the file reaches a module's items by
/// its path. Also each group's `#[cfg]` and module (`None` for the items every build
/// compiles), in the groups' order.
pub fn private_modules(
    groups: Vec<(Option<&[String]>, TokenStream)>,
) -> (TokenStream, Vec<Placed>) {
    print_modules(groups, None)
}

/// Where [`private_modules`] put a group: its `#[cfg]` and its module (`None`, `None` for the
/// items every build compiles).
pub type Placed = (Option<TokenStream>, Option<proc_macro2::Ident>);

fn print_modules(
    groups: Vec<(Option<&[String]>, TokenStream)>,
    reexport: Option<TokenStream>,
) -> (TokenStream, Vec<Placed>) {
    let mut out = TokenStream::new();
    let mut taken: Vec<String> = Vec::new();
    let mut placed = Vec::new();
    for (features, items) in groups {
        let Some(features) = features else {
            out.extend(items);
            placed.push((None, None));
            continue;
        };
        let cfg = cfg(Some(features));
        let name = crate::naming::feature_module(features, &taken);
        taken.push(name.clone());
        let name = crate::emit::ident(&name);
        if let Some(vis) = &reexport {
            out.extend(quote! {
                #cfg
                #vis use #name::*;
            });
        }
        out.extend(quote! {
            #cfg
            mod #name {
                use super::*;
                #items
            }
        });
        placed.push((cfg, Some(name)));
    }
    (out, placed)
}

/// The visibility an item of one operation needs to be seen from the rest of its file: in
/// a feature's module ([`modules`]) `pub(super)`, at the top level nothing.
pub fn module_vis(features: Option<&[String]>) -> Option<TokenStream> {
    features
        .is_some_and(|f| !f.is_empty())
        .then(|| quote!(pub(super)))
}

/// What an `impl` block of one set of features says of itself: "Operations of the `pets`
/// feature."
pub fn group_doc(features: &[String]) -> String {
    let names: Vec<String> = features.iter().map(|f| format!("`{f}`")).collect();
    match names.as_slice() {
        [one] => format!("The operations of the {one} feature."),
        _ => format!("The operations of the features {}.", names.join(", ")),
    }
}

/// `#[cfg(feature = "a")]` (`any(…)` of several features); `None` for an item every build
/// compiles. Also what an array element or a match arm of one operation is put under.
pub fn cfg(features: Option<&[String]>) -> Option<TokenStream> {
    let features = features.filter(|f| !f.is_empty())?;
    Some(match features {
        [one] => quote!(#[cfg(feature = #one)]),
        _ => quote!(#[cfg(any(#(feature = #features),*))]),
    })
}

/// A file's inner attribute for a crate built with some features off: the imports and
/// private helpers only the left-out items use are then unused (with every feature on, as
/// `default` builds it, the lints stay on).
pub fn allowances(all: &[Feature]) -> Option<TokenStream> {
    allowances_with(all, quote!())
}

/// [`allowances`], and `unused_variables` too: for a function whose every use of a local is
/// gated (the router's `api` and base path, the CLI's parsed call), which a build with no
/// feature on (`default-features = false` alone, or `unused-schemas` alone) leaves unused.
pub fn allowances_with_variables(all: &[Feature]) -> Option<TokenStream> {
    allowances_with(all, quote!(, unused_variables))
}

fn allowances_with(all: &[Feature], more: TokenStream) -> Option<TokenStream> {
    let names = all.iter().map(|f| &f.name);
    (!all.is_empty()).then(
        || quote!(#![cfg_attr(not(all(#(feature = #names),*)), allow(unused_imports, dead_code #more))]),
    )
}
