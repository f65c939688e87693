//! Prints the `…_stream` method of a paginated operation: every item of every page, the
//! next page found by the cursor, link or offset the document describes.

use super::*;

/// The argument type of a required parameter of a `…_stream` method: as [`arg_type`], with
/// the stream's lifetime on references (the stream borrows them for every page).
pub(super) fn arg_type_for_stream(p: &Param) -> TokenStream {
    match &p.ty {
        TypeRef::String => quote!(&'a str),
        TypeRef::Vec(inner) => {
            let inner = rust_type(inner, true);
            quote!(&'a [#inner])
        }
        other => {
            let t = rust_type(other, true);
            if by_ref(p) { quote!(&'a #t) } else { t }
        }
    }
}

/// `…_stream`: every item of every page, fetched lazily through `…_with` (so each page is
/// authenticated, retried and rate-limited like any call). How the next page is asked for is
/// the IR's [`Pagination`].
pub(super) fn stream_method(op: &Operation, p: &Pagination) -> TokenStream {
    let name = ident(&p.rust);
    let Some(with) = op.rust_with.as_ref().map(|w| ident(w)) else {
        return quote!();
    };
    let options_ty = options_ident(op);
    let error_ty = error_ident(op);
    let item = rust_type(&p.item, true);
    let required: Vec<&Param> = op.params.iter().filter(|p| p.required).collect();
    let args = required.iter().map(|p| {
        let rust = ident(&p.local);
        let t = arg_type_for_stream(p);
        quote!(#rust: #t,)
    });
    let forward = required.iter().map(|p| {
        let a = ident(&p.local);
        quote!(#a,)
    });
    let set_next = set_next(op, p);
    let read_page = read_page(p);
    let how = match &p.next {
        NextPage::Cursor {
            keep_only: Some(_), ..
        } => {
            "dropshot's `next_page`, sent back as `page_token` (with `limit` only, as dropshot wants)"
        }
        NextPage::Cursor { .. } => {
            "the cursor in the body, sent back in the query with the other options unchanged"
        }
        NextPage::Link { .. } => {
            "the `Link` header's `rel=\"next\"` target, whose query parameters set the options"
        }
    };
    let docs = doc(&[
        format!(
            "Every item of `{}`, page after page, as one stream: the next page is fetched when this one's items are taken, through [`{w}`](Self::{w}) (authenticated, retried and rate-limited like any call).",
            op.id,
            w = crate::naming::bare(&with.to_string())
        ),
        String::new(),
        format!(
            "Next page: {how}. The stream ends after the last page, after an error (yielded once), or when a page names the same next page as the one before."
        ),
    ]);
    let deprecated = op.deprecated.as_ref().map(|d| {
        let note = &d.note;
        quote!(#[deprecated(note = #note)] #[allow(deprecated)])
    });
    let reads_deprecated = (op.deprecated.is_none()
        && op.params.iter().any(|p| !p.required && p.deprecated))
    .then(|| quote!(#[allow(deprecated)]));
    let many = (1 + required.len() + 1 > 7).then(|| quote!(#[allow(clippy::too_many_arguments)]));
    // `#[inline]`: boxing the page closure instantiates the whole call (the `…_with` future,
    // the decoding of the page type) wherever this method is compiled. Without the attribute
    // an optimised build of the client compiles that for every paginated operation, used or
    // not; with it, like the operations' async methods (whose bodies are compiled where they
    // are awaited), only in the crates that call it.
    quote! {
        #docs
        #deprecated
        #reads_deprecated
        #many
        #[inline]
        pub fn #name<'a>(
            &'a self,
            #(#args)*
            options: #options_ty,
        ) -> Pages<'a, #item, #error_ty> {
            Pages::from_calls(
                options,
                #set_next,
                move |options| self.#with(#(#forward)* options),
                #read_page,
            )
        }
    }
}

/// How the options of the next request are set from the page's `next` (a cursor, or the
/// query of a `Link` target, which the options' declaration reads: `pages::Follow`).
fn set_next(op: &Operation, p: &Pagination) -> TokenStream {
    let options_ty = options_ident(op);
    match &p.next {
        NextPage::Cursor {
            param,
            keep_only: None,
            ..
        } => {
            let param = ident(param);
            quote!(|options, next| options.#param = Some(next))
        }
        NextPage::Cursor {
            param,
            keep_only: Some(keep),
            ..
        } => {
            let setter = |rust: &str| {
                let p = op.params.iter().find(|p| p.rust == rust);
                ident(p.map_or(rust, |p| p.setter.as_str()))
            };
            let set_param = setter(param);
            let keep = keep.iter().map(|k| {
                let (set, k) = (setter(k), ident(k));
                quote!(.#set(options.#k.take()))
            });
            quote! {
                |options, next| *options = #options_ty::default().#set_param(next)#(#keep)*
            }
        }
        NextPage::Link { .. } => quote!(pages::follow_link),
    }
}

/// How a page is read from an answer: its items (the body, or a member of it) and where the
/// next page is named.
fn read_page(p: &Pagination) -> TokenStream {
    match (&p.next, &p.items_field) {
        (
            NextPage::Cursor {
                field, more: None, ..
            },
            Some(items),
        ) => {
            let (field, items) = (ident(field), ident(items));
            quote! {
                |response| {
                    let body = response.into_inner();
                    Page::new(body.#items, body.#field)
                }
            }
        }
        (
            NextPage::Cursor {
                field,
                more: Some(more),
                ..
            },
            Some(items),
        ) => {
            let (field, items, more) = (ident(field), ident(items), ident(more));
            quote! {
                |response| {
                    let body = response.into_inner();
                    Page::new(body.#items, pages::when(body.#more, body.#field))
                }
            }
        }
        (NextPage::Link { .. }, Some(items)) => {
            let items = ident(items);
            quote! {
                |response| {
                    let next = pages::link_next(response.headers());
                    Page::new(response.into_inner().#items, next)
                }
            }
        }
        _ => quote!(pages::link_page),
    }
}
