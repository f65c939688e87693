//! The client's cargo features printed (issue 46, `lower::features` decides them): a
//! `#[cfg(any(feature = …))]` on every item an operation or a type prints, and the
//! allowances a crate built with some features off needs.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};

/// `items` (top-level items, as one type or one operation prints them) each under
/// `#[cfg(any(feature = "a", feature = "b"))]` of `features`; unchanged when there are none.
pub fn items(items: TokenStream, features: Option<&[String]>) -> TokenStream {
    let Some(features) = features.filter(|f| !f.is_empty()) else {
        return items;
    };
    let attr = cfg(features);
    let Ok(mut file) = syn::parse2::<syn::File>(items.clone()) else {
        // Not items: printed as they are (the file's own parse reports what is wrong).
        return items;
    };
    for item in &mut file.items {
        if let Some(attrs) = item_attrs(item) {
            after_docs(attrs, &attr);
        }
    }
    file.items.iter().map(ToTokens::to_token_stream).collect()
}

/// Methods of an `impl` block (an operation's methods of `Client`), each under the same
/// `cfg` as [`items`].
pub fn methods(methods: TokenStream, features: Option<&[String]>) -> TokenStream {
    let Some(features) = features.filter(|f| !f.is_empty()) else {
        return methods;
    };
    let attr = cfg(features);
    let Ok(mut block) = syn::parse2::<syn::ItemImpl>(quote!(impl Gated { #methods })) else {
        return methods;
    };
    for item in &mut block.items {
        if let syn::ImplItem::Fn(f) = item {
            after_docs(&mut f.attrs, &attr);
        }
    }
    block.items.iter().map(ToTokens::to_token_stream).collect()
}

/// A file's inner attribute for a crate built with some features off: the imports and
/// private helpers only the left-out items use are then unused (with every feature on, as
/// `default` builds it, the lints stay on).
pub fn allowances(all: &[(String, String)]) -> Option<TokenStream> {
    let names = all.iter().map(|(name, _)| name);
    (!all.is_empty()).then(
        || quote!(#![cfg_attr(not(all(#(feature = #names),*)), allow(unused_imports, dead_code))]),
    )
}

/// `#[cfg(feature = "a")]`, or `#[cfg(any(feature = "a", feature = "b"))]` for several.
fn cfg(features: &[String]) -> syn::Attribute {
    match features {
        [one] => syn::parse_quote!(#[cfg(feature = #one)]),
        _ => syn::parse_quote!(#[cfg(any(#(feature = #features),*))]),
    }
}

/// `attr` after an item's doc comments, before its other attributes (as a person writes it).
fn after_docs(attrs: &mut Vec<syn::Attribute>, attr: &syn::Attribute) {
    let docs = attrs
        .iter()
        .take_while(|a| a.path().is_ident("doc"))
        .count();
    attrs.insert(docs, attr.clone());
}

fn item_attrs(item: &mut syn::Item) -> Option<&mut Vec<syn::Attribute>> {
    use syn::Item;
    Some(match item {
        Item::Const(i) => &mut i.attrs,
        Item::Enum(i) => &mut i.attrs,
        Item::Fn(i) => &mut i.attrs,
        Item::Impl(i) => &mut i.attrs,
        Item::Macro(i) => &mut i.attrs,
        Item::Mod(i) => &mut i.attrs,
        Item::Static(i) => &mut i.attrs,
        Item::Struct(i) => &mut i.attrs,
        Item::Trait(i) => &mut i.attrs,
        Item::Type(i) => &mut i.attrs,
        Item::Union(i) => &mut i.attrs,
        Item::Use(i) => &mut i.attrs,
        _ => return None,
    })
}
