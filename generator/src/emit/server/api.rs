//! Prints `api.rs`: the trait an implementation fills in, each operation's parameter struct
//! and response enum (with its headers), and the defaults of optional parameters.

use super::*;

pub fn api_rs(api: &Api) -> TokenStream {
    let trait_ident = trait_name(api);
    // An operation's items and method compile under its features (`lower::features`).
    let gated = |i: usize, items: TokenStream| {
        crate::emit::gates::items(items, api.features.of_operation(i))
    };
    // Each operation's parameters and answers, a tag's in one module under its feature.
    let groups = crate::emit::gates::grouped(api.operations.iter().enumerate().map(|(i, op)| {
        let mut own = params_struct(api, op);
        for r in &op.responses {
            if let Some(h) = &r.headers_type {
                own.extend(headers_struct(op, r, h));
            }
        }
        own.extend(response_enum(op));
        (api.features.of_operation(i), own)
    }));
    let mut items = vec![crate::emit::gates::modules(groups, quote!(pub))];
    let mut methods: Vec<TokenStream> = api
        .operations
        .iter()
        .enumerate()
        .map(|(i, op)| gated(i, trait_method(op)))
        .collect();
    let allowances = crate::emit::gates::allowances(&api.features.features);
    let trait_docs = doc(&[
        format!(
            "{} {}: implement one method per operation.",
            api.title, api.version
        ),
        String::new(),
        "Each method receives the request context (principal, headers, extensions) and its".into(),
        "parsed, checked inputs; it returns the operation's response enum or your own error,"
            .into(),
        "which [`handle_error`](Self::handle_error) turns into a response.".into(),
        String::new(),
        "Every method has a default answering `501 Not Implemented` with the `Error` body, so an"
            .into(),
        "operation the document adds later does not break an implementation written before it"
            .into(),
        "(the price: the compiler does not point at an operation you forgot).".into(),
    ]);
    let intro = module_doc(&[format!(
        "The [`{trait_ident}`] trait and the inputs and responses of each operation."
    )]);
    // The trait's own `handle_error`, printed below, names these whatever the operations hold.
    let mut fixed = quote!(RequestContext Problem);
    let uses = crate::emit::imports(
        items
            .iter_mut()
            .chain(methods.iter_mut())
            .chain(std::iter::once(&mut fixed)),
        &[
            ("crate::types", "types::"),
            ("crate::runtime::codegen::params", "params::"),
            (
                "crate::runtime::codegen::params::ObjectQuery",
                "ObjectQuery::",
            ),
            ("crate::runtime::codegen::params::Style", "Style::"),
            ("crate::runtime::codegen::response", "response::"),
            ("crate::runtime::codegen::stream", "stream::"),
            ("crate::runtime::codegen::RequestContext", "RequestContext"),
            ("crate::runtime::codegen::Problem", "Problem"),
            ("crate::runtime::codegen::Answer", "Answer"),
            ("std::future::Future", "Future"),
        ],
    );
    quote! {
        #![cfg_attr(rustfmt, rustfmt::skip)]
        #allowances
        #intro
        #uses

        #trait_docs
        // The default methods answer 501 without reading their inputs: allowed once here
        // rather than named `_ctx` (a name an editor copies into the implementation).
        #[allow(unused_variables)]
        pub trait #trait_ident: Send + Sync + 'static {
            /// Your error type; anything `Display` (e.g. `anyhow::Error`).
            type Error: std::fmt::Display + Send + 'static;

            #(#methods)*

            /// Turns an error of yours into the problem sent to the client. The default logs it
            /// and answers 500 with the `Error` body, without internals.
            fn handle_error(&self, ctx: &RequestContext, error: Self::Error) -> Problem {
                tracing::error!(operation = ctx.operation_id, %error, "handler failed");
                Problem::internal()
            }
        }

        #(#items)*
    }
}

/// An operation's parameter struct (an empty one too: a parameter the document adds then
/// becomes a field, not a new argument of the trait method).
fn params_struct(api: &Api, op: &Operation) -> TokenStream {
    if op.params.is_empty() {
        // Passed even empty, so that the operation's first parameter adds a field
        // rather than an argument to the trait method (book/src/guide/evolving.md).
        let name = params_ident(op);
        let docs = doc(&[format!(
            "Parameters of `{}` (`{} {}`): none yet; one the document adds becomes a field.",
            op.id, op.method, op.path
        )]);
        quote! {
            params::declare! {
                #docs
                #[derive(Debug, Clone, Default, PartialEq)]
                pub struct #name {}
            }
        }
    } else {
        let name = params_ident(op);
        let validated = validated_types(api);
        let declared = super::handler::params_declared(op, &validated);
        let fields = op.params.iter().map(|p| {
            let rust = ident(&p.rust);
            let ty = param_type(api, p);
            let words = declared.then(|| super::handler::param_words(api, p, &validated));
            let mut lines = p.doc.clone();
            let mut where_ = format!("{} parameter `{}`", location_text(p.location), p.wire);
            if let Some(d) = &p.default {
                where_.push_str(&format!(", default `{d}`"));
            }
            if p.deprecated {
                where_.push_str(", deprecated");
            }
            crate::emit::end_list(&mut lines);
            lines.push(format!("({where_})"));
            let docs = doc(&lines);
            quote!(#docs #words pub #rust: #ty,)
        });
        let docs = doc(&[format!(
            "Parameters of `{}` (`{} {}`), parsed and checked.",
            op.id, op.method, op.path
        )]);
        let item = quote! {
            #docs
            #[derive(Debug, Clone, PartialEq)]
            pub struct #name { #(#fields)* }
        };
        if declared {
            quote!(params::declare! { #item })
        } else {
            item
        }
    }
}

/// An operation's response enum: one variant per documented status, with its body and headers,
/// and the one the trait's default method answers (501).
fn response_enum(op: &Operation) -> TokenStream {
    let name = response_ident(op);
    let variants = op.responses.iter().map(|r| {
        let v = ident(&r.variant);
        let docs = response_doc(r);
        let status = (!matches!(r.status, Status::Code(_))).then(|| quote!(http::StatusCode));
        let body = r.body.as_ref().map(|b| body_type(&b.kind));
        let headers = r.headers_type.as_ref().map(|h| {
            let h = ident(h);
            quote!(#h)
        });
        let how = answer_how(r);
        let fields: Vec<TokenStream> = [status, body, headers].into_iter().flatten().collect();
        if fields.is_empty() {
            quote!(#docs #v = #how,)
        } else {
            quote!(#docs #v(#(#fields),*) = #how,)
        }
    });
    let docs = doc(&[format!(
        "What `{}` answers: one variant per documented status, and [`{}`]({name}::{}) for an implementation without the operation.",
        op.id, op.unimplemented, op.unimplemented
    )]);
    let unimplemented = ident(&op.unimplemented);
    let unimplemented_doc = doc(&[
        "501 with the `Error` body (code `not_implemented`): what the trait's default".into(),
        "method answers.".into(),
    ]);
    let id = &op.id;
    // Bodies are held by value, as a person writes them; boxing the large one would
    // make every handler noisier for a move that happens once per request.
    let derives = if has_stream(op) {
        quote!(#[derive(Debug)])
    } else {
        quote!(#[derive(Debug, Clone, PartialEq)])
    };
    quote! {
        response::answers! {
            #docs
            #derives
            pub enum #name {
                #(#variants)*
                #unimplemented_doc
                #unimplemented = unimplemented(#id),
            }
        }
    }
}

/// How a response variant is written, its discriminant in `response::answers!`: the body's
/// kind (`json`, `text`, `empty`, …), then the status (a code, or `held` when the variant
/// holds it), the media type where the kind takes one, and `headers` when it carries its
/// headers struct: `json(201, headers)`, `text(held, "text/plain")`.
fn answer_how(r: &Response) -> TokenStream {
    let status = match r.status {
        Status::Code(c) => {
            let c = proc_macro2::Literal::u16_unsuffixed(c);
            quote!(#c)
        }
        Status::Range(_) | Status::Default => quote!(held),
    };
    let (kind, media) = match r.body.as_ref() {
        None => (quote!(empty), None),
        Some(b) => {
            let ct = b.content_type.as_str();
            match &b.kind {
                BodyKind::Json(_) => match b.own_json_media_type() {
                    Some(own) => (quote!(json_as), Some(quote!(#own))),
                    None => (quote!(json), None),
                },
                BodyKind::Form(_) | BodyKind::Multipart { .. } => (quote!(json), None),
                BodyKind::Text => (quote!(text), Some(quote!(#ct))),
                BodyKind::Bytes => (quote!(bytes), Some(quote!(#ct))),
                BodyKind::Stream(s) => match s.format {
                    StreamFormat::Events => (quote!(events), None),
                    StreamFormat::EventsText => (quote!(events_text), None),
                    StreamFormat::JsonLines => (quote!(json_lines), Some(quote!(#ct))),
                },
            }
        }
    };
    let headers = r.headers_type.as_ref().map(|_| quote!(headers));
    let parts: Vec<TokenStream> = [Some(status), media, headers]
        .into_iter()
        .flatten()
        .collect();
    quote!(#kind(#(#parts),*))
}

/// One method of the trait, with its default answering 501.
fn trait_method(op: &Operation) -> TokenStream {
    let method = ident(&op.rust);
    let response = response_ident(op);
    let docs = operation_doc(op);
    let params = {
        let p = params_ident(op);
        Some(quote!(params: #p,))
    };
    let body = op.body.as_ref().map(|b| {
        let t = request_body_type(b);
        if b.required {
            quote!(body: #t,)
        } else {
            quote!(body: Option<#t>,)
        }
    });
    let query_string = op.query_string.as_ref().map(|q| {
        let name = ident(&q.rust);
        let t = query_string_type(q);
        quote!(#name: #t,)
    });
    let deprecated = op.deprecated.as_ref().map(|d| {
        let note = &d.note;
        quote!(#[deprecated(note = #note)])
    });
    let unimplemented = ident(&op.unimplemented);
    let allows = crate::emit::convention_allows(&method.to_string());
    quote! {
        #docs
        #deprecated
        #allows
        fn #method(
            &self,
            ctx: &RequestContext,
            #params
            #query_string
            #body
        ) -> impl Answer<#response, Self::Error> {
            async { Ok(#response::#unimplemented) }
        }
    }
}

/// The headers the implementation sets on one answer, declared (`response::headers!`): each
/// field's `#[header("name")]` says its header, `required` when it is always set and `list`
/// for a list written as its items joined by commas; the runtime writes them.
pub(super) fn headers_struct(op: &Operation, r: &Response, name: &str) -> TokenStream {
    let name = ident(name);
    let fields = r.headers.iter().map(|h| {
        let rust = ident(&h.rust);
        let t = rust_type(&h.ty, true);
        let t = if h.required { t } else { quote!(Option<#t>) };
        let mut lines = h.doc.clone();
        lines.push(format!("(header `{}`)", h.wire));
        let docs = doc(&lines);
        let wire = &h.wire;
        let required = h.required.then(|| quote!(, required));
        let list = matches!(h.ty, TypeRef::Vec(_)).then(|| quote!(, list));
        quote!(#docs #[header(#wire #required #list)] pub #rust: #t,)
    });
    let default = r
        .headers
        .iter()
        .all(|h| !h.required)
        .then(|| quote!(Default,));
    let docs = doc(&[format!(
        "Headers of the `{}` answer of `{}`.",
        status_text(r),
        op.id
    )]);
    quote! {
        response::headers! {
            #docs
            #[derive(Debug, Clone, #default PartialEq)]
            pub struct #name { #(#fields)* }
        }
    }
}

/// The default of a parameter as an expression of its type (enum defaults name a variant).
pub(super) fn default_expr(api: &Api, p: &Param) -> Option<TokenStream> {
    let value = p.default.as_ref()?;
    if let (TypeRef::Named(n), serde_json::Value::String(wire)) = (&p.ty, value) {
        // An enum shared by equal schemas is reached through its alias (GitHub's
        // `ReposListForOrgDirection` → `IssuesListDirection`, `share_equal_enums`); the
        // variant is named through the parameter's own type.
        let mut def = api.types.iter().find(|t| &t.name == n)?;
        while let TypeKind::Alias(TypeRef::Named(next), _) = &def.kind {
            def = api.types.iter().find(|t| &t.name == next)?;
        }
        if let TypeKind::Enum(variants) = &def.kind {
            let v = variants.iter().find(|v| &v.wire == wire)?;
            let (t, v) = (ident(n), ident(&v.rust));
            return Some(quote!(types::#t::#v));
        }
        return None;
    }
    literal(value, &p.ty)
}
