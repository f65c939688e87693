//! Prints each operation's own types beside the client: its options struct, its success
//! enum and its error enum, with the statuses each variant stands for.

use super::*;
use crate::ir::UNDOCUMENTED_VARIANT;

/// Options, success and error types of one operation.
pub(super) fn operation_types(op: &Operation) -> TokenStream {
    let options = options_struct(op);
    let success = success_enum(op);
    let error = error_enum(op);
    let headers = op.responses.iter().filter_map(|r| headers_struct(op, r));
    quote!(#options #success #error #(#headers)*)
}

/// The options struct of an operation's optional parameters, declared to the runtime's
/// `request::parameters!`, which prints a setter for each (`#[param("name", with_name)]`)
/// and, from the words after it, the query they write and what a `Link` target sets.
fn options_struct(op: &Operation) -> Option<TokenStream> {
    let optional: Vec<&Param> = op.params.iter().filter(|p| !p.required).collect();
    // The parameters a `Link` target's query sets (`pages::Follow`).
    let next: &[(String, String)] = match &op.pagination {
        Some(Pagination {
            next: NextPage::Link { params },
            ..
        }) => params,
        _ => &[],
    };
    (!optional.is_empty()).then(|| {
        let name = options_ident(op);
        let fields = optional.iter().map(|p| {
            let rust = ident(&p.rust);
            let setter = ident(&p.setter);
            let wire = &p.wire;
            let t = rust_type(&p.ty, true);
            let mut lines = p.doc.clone();
            let mut note = format!("{} parameter `{}`", location_text(p.location), p.wire);
            if let Some(d) = &p.default {
                note.push_str(&format!("; the server uses `{d}` when unset"));
            }
            crate::emit::end_list(&mut lines);
            lines.push(format!("({note})"));
            let docs = doc(&lines);
            let deprecated = p
                .deprecated
                .then(|| quote!(#[deprecated(note = "deprecated in the API description")]));
            let mut words = Vec::new();
            if p.location == crate::ir::Location::Query && op.query_in_options() {
                words.push(super::parts::query_words(p));
            }
            if next.iter().any(|(w, _)| *w == p.wire) {
                words.push(quote!(next));
            }
            quote!(#docs #deprecated #[param(#wire, #setter #(, #words)*)] pub #rust: Option<#t>,)
        });
        let docs = doc(&[format!(
            "Optional parameters of `{}`; `Default::default()` sets none, the `with_…` methods set one each.",
            op.id
        )]);
        let allow = optional
            .iter()
            .any(|p| p.deprecated)
            .then(|| quote!(#[allow(deprecated)]));
        quote! {
            request::parameters! {
                #docs
                #allow
                #[derive(Debug, Clone, Default, PartialEq)]
                pub struct #name { #(#fields)* }
            }
        }
    })
}

/// The enum of an operation's successes, when it has several.
fn success_enum(op: &Operation) -> Option<TokenStream> {
    let successes = success_responses(op);
    op.success_enum.then(|| {
        let name = success_ident(op);
        let variants = successes.iter().map(|r| {
            let v = ident(&r.variant);
            let docs = doc(&[format!(
                "{}: {}",
                status_text(r),
                r.doc.first().cloned().unwrap_or_default()
            )]);
            match &r.body {
                Some(b) => {
                    let t = body_type(op, &b.kind);
                    quote!(#docs #v(#t),)
                }
                None => quote!(#docs #v,),
            }
        });
        let docs = doc(&[format!("The successful answers of `{}`.", op.id)]);
        // A stream is read once: neither `Clone` nor `PartialEq`.
        let derives = if op.streamed {
            quote!(#[derive(Debug)])
        } else {
            quote!(#[derive(Debug, Clone, PartialEq)])
        };
        quote! {
            #docs
            #derives
            #[allow(clippy::large_enum_variant)]
            pub enum #name { #(#variants)* }
        }
    })
}

/// The enum of an operation's documented error answers, declared to the runtime's
/// `response::errors!`: each variant with the status it stands for (`NotFound(types::Error)
/// = 404`, `= 400..=499 as text`, `= default`, `= undocumented`), the enum under `#[gone(…)]`
/// when the operation has a sunset. The runtime reads a response into it.
fn error_enum(op: &Operation) -> TokenStream {
    let name = error_ident(op);
    let variants = op.responses.iter().filter(|r| !r.is_success()).map(|r| {
        let v = ident(&r.variant);
        let docs = response_doc(r);
        let status = match r.status {
            Status::Code(_) | Status::Range(_) => status_pattern(r, op),
            Status::Default => quote!(default),
        };
        match r.body.as_ref().map(|b| &b.kind) {
            Some(BodyKind::Json(t) | BodyKind::Form(t)) => {
                let t = rust_type(t, true);
                quote!(#docs #v(#t) = #status,)
            }
            // Whatever the server sent, as text: the document describes no JSON body, but
            // the message a server writes there (a sentence, a JSON it did not declare)
            // is often the only explanation of the failure.
            _ => {
                let mut lines = vec![format!(
                    "{}: {}",
                    status_text(r),
                    r.doc.first().cloned().unwrap_or_default()
                )];
                lines.extend(r.doc.iter().skip(1).cloned());
                lines.push(String::new());
                lines.push("Holds the body as text, as the server sent it (empty if none).".into());
                let docs = doc(&lines);
                quote!(#docs #v(String) = #status as text,)
            }
        }
    });
    let undocumented = op.undocumented.error.as_ref().map(|t| {
        let t = rust_type(t, true);
        let v = ident(UNDOCUMENTED_VARIANT);
        let docs = doc(&[
            "An error status the document does not list for this operation, read as the"
                .to_string(),
            "document's error type (a body that is not one is `Error::UnexpectedStatus`)."
                .to_string(),
        ]);
        quote!(#docs #v(#t) = undocumented,)
    });
    // Past its sunset the server answers 410: `Error::Gone`, naming the replacement, unless
    // the document describes a 410 (or 4XX) itself.
    let documents_410 = op
        .responses
        .iter()
        .any(|r| matches!(r.status, Status::Code(410) | Status::Range(4)));
    let gone = op
        .deprecated
        .as_ref()
        .filter(|d| d.sunset.is_some() && !documents_410)
        .map(|d| {
            let id = &op.id;
            let replacement = d.replacement.iter();
            quote!(#[gone(#id #(, #replacement)*)])
        });
    let docs = doc(&[format!(
        "The documented error answers of `{}`; the status and headers are on [`Error::Api`].",
        op.id
    )]);
    quote! {
        response::errors! {
            #docs
            #gone
            pub enum #name { #(#variants)* #undocumented }
        }
    }
}

/// The struct of the documented headers of one answer, declared to `response::headers!`,
/// which prints `from_headers` (each header read as its type, `None` when it does not parse).
fn headers_struct(op: &Operation, r: &Response) -> Option<TokenStream> {
    let name = ident(r.headers_type.as_ref()?);
    let fields = r.headers.iter().map(|h| {
        let rust = ident(&h.rust);
        let wire = &h.wire;
        let t = rust_type(&h.ty, true);
        let mut lines = h.doc.clone();
        lines.push(format!(
            "(header `{}`; `None` when absent or unreadable)",
            h.wire
        ));
        let docs = doc(&lines);
        let list = matches!(h.ty, TypeRef::Vec(_)).then(|| quote!(, list));
        quote!(#docs #[header(#wire #list)] pub #rust: Option<#t>,)
    });
    let docs = doc(&[
        format!("Headers of the `{}` answer of `{}`.", status_text(r), op.id),
        "Read them with `from_headers(response.headers())`.".to_string(),
    ]);
    Some(quote! {
        response::headers! {
            #docs
            #[derive(Debug, Clone, Default, PartialEq)]
            pub struct #name { #(#fields)* }
        }
    })
}
