//! Prints the server crate's mock (feature `mock`): `mock.rs`, the trait implemented from the
//! answers `lower/mock.rs` chose, and `bin/mock.rs`, the program that serves it.

use super::server::{query_string_type, request_body_type, trait_name, validated_types};
use super::types::contents_validated;
use super::{doc, ident, json_literal, module_doc, rust_type, status_text};
use crate::ir::{Api, BodyKind, Operation, Status, StreamFormat};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// `src/mock.rs` of the server crate.
pub fn mock_rs(api: &Api) -> TokenStream {
    let trait_ident = trait_name(api);
    let validated = validated_types(api);
    // An operation's answer compiles under its features, as its trait method does.
    let methods: Vec<TokenStream> = api
        .operations
        .iter()
        .enumerate()
        .map(|(i, op)| super::gates::items(method(op, &validated), api.features.of_operation(i)))
        .collect();
    let allowances = super::gates::allowances(&api.features.features);
    let intro = module_doc(&[
        format!(
            "A mock of {} {} (feature `mock`): [`Mock`] answers every operation from the",
            api.title, api.version
        ),
        "document's examples, or from values made from its schemas where it has none, through"
            .into(),
        "the same types and serializer as an implementation of yours. Serve it with".into(),
        "[`router`](crate::router()) (authentication, the document's checks, rate limits and the"
            .into(),
        "error body are the real service's), or run the crate's `…-mock` program.".into(),
        String::new(),
        "Each answer takes the first of its candidate values that decodes into the answer's type"
            .into(),
        "and passes its checks; when none does, the operation answers 500 with code".into(),
        "`mock_has_no_value` and every candidate's reason.".into(),
    ]);
    let docs = doc(&[format!(
        "Implements [`{trait_ident}`] from the document's examples (see the module's docs)."
    )]);
    let mut body = quote! {
        #docs
        #[derive(Debug, Clone, Copy, Default)]
        pub struct Mock;

        impl #trait_ident for Mock {
            type Error = MockError;

            #(#methods)*

            /// The 500 of an answer the mock has no value for, with its reasons.
            fn handle_error(&self, _ctx: &RequestContext, error: MockError) -> Problem {
                error.problem()
            }
        }
    };
    let uses = super::imports(
        [&mut body],
        &[
            ("crate::types", "types::"),
            ("crate::runtime::codegen::mock", "mock::"),
            ("crate::runtime::codegen::stream", "stream::"),
            ("crate::runtime::codegen::RequestContext", "RequestContext"),
            ("crate::runtime::codegen::MockError", "MockError"),
            ("crate::runtime::codegen::Problem", "Problem"),
            ("http::StatusCode", "StatusCode"),
        ],
    );
    quote! {
        #![cfg_attr(rustfmt, rustfmt::skip)]
        #allowances
        #intro
        use crate::api::*;
        #uses

        #body
    }
}

/// `let name: T = mock::value(what, &[candidates])?;` (`checked` for a type with checks).
fn pick(
    name: &str,
    ty: TokenStream,
    checked: bool,
    what: &str,
    candidates: &[serde_json::Value],
) -> TokenStream {
    let name = format_ident!("{name}");
    let candidates = candidates.iter().map(json_literal);
    let call = if checked {
        quote!(mock::checked)
    } else {
        quote!(mock::value)
    };
    quote!(let #name: #ty = #call(#what, &[#(#candidates),*])?;)
}

fn method(op: &Operation, validated: &std::collections::BTreeSet<String>) -> TokenStream {
    let name = ident(&op.rust);
    let response_ident = format_ident!("{}Response", op.stem);
    let params = format_ident!("{}Params", op.stem);
    let query_string = op.query_string.as_ref().map(|q| {
        let t = query_string_type(q);
        quote!(_query_string: #t,)
    });
    let body_arg = op.body.as_ref().map(|b| {
        let t = request_body_type(b);
        if b.required {
            quote!(_body: #t,)
        } else {
            quote!(_body: Option<#t>,)
        }
    });
    let deprecated = op.deprecated.as_ref().map(|_| quote!(#[allow(deprecated)]));
    let mut lets = Vec::new();
    let answer = match op.mock.response.map(|i| &op.responses[i]) {
        None => {
            let v = ident(&op.unimplemented);
            quote!(#response_ident::#v)
        }
        Some(r) => {
            let v = ident(&r.variant);
            let what_status = status_text(r);
            let status = (!matches!(r.status, Status::Code(_))).then(|| {
                let code = proc_macro2::Literal::u16_unsuffixed(op.mock.status);
                quote!(StatusCode::from_u16(#code).unwrap_or(StatusCode::OK))
            });
            let body = r.body.as_ref().map(|b| {
                let what = format!("{}: {what_status} body", op.id);
                let candidates = &op.mock.bodies;
                match &b.kind {
                    BodyKind::Json(t) | BodyKind::Form(t) | BodyKind::Multipart { ty: t, .. } => {
                        let checked = contents_validated(t, validated);
                        lets.push(pick("body", rust_type(t, true), checked, &what, candidates));
                        quote!(body)
                    }
                    BodyKind::Text => {
                        lets.push(pick("body", quote!(String), false, &what, candidates));
                        quote!(body)
                    }
                    BodyKind::Bytes => {
                        lets.push(pick("body", quote!(String), false, &what, candidates));
                        quote!(body.into_bytes())
                    }
                    BodyKind::Stream(s) => {
                        let checked = contents_validated(&s.item, validated);
                        let t = rust_type(&s.item, true);
                        lets.push(pick("item", t, checked, &what, candidates));
                        match s.format {
                            StreamFormat::JsonLines => {
                                quote!(stream::JsonLines::from_items([item]))
                            }
                            StreamFormat::Events | StreamFormat::EventsText => {
                                quote!(stream::EventStream::from_events([stream::Event::new(item)]))
                            }
                        }
                    }
                }
            });
            let headers = r.headers_type.as_ref().map(|h| {
                let h = ident(h);
                let fields: Vec<TokenStream> = r
                    .headers
                    .iter()
                    .zip(&op.mock.headers)
                    .map(|(header, value)| {
                        let field = ident(&header.rust);
                        let what = format!("{}: {what_status} header {}", op.id, header.wire);
                        let ty = rust_type(&header.ty, true);
                        lets.push(pick(
                            &format!("header_{}", crate::naming::bare(&header.rust)),
                            ty,
                            false,
                            &what,
                            std::slice::from_ref(value),
                        ));
                        let local = format_ident!("header_{}", crate::naming::bare(&header.rust));
                        if header.required {
                            quote!(#field: #local,)
                        } else {
                            quote!(#field: Some(#local),)
                        }
                    })
                    .collect();
                quote!(#h { #(#fields)* })
            });
            let fields: Vec<TokenStream> = [status, body, headers].into_iter().flatten().collect();
            if fields.is_empty() {
                quote!(#response_ident::#v)
            } else {
                quote!(#response_ident::#v(#(#fields),*))
            }
        }
    };
    let docs = doc(&[format!(
        "`{} {}`: {}",
        op.method,
        op.path,
        match op.mock.response {
            Some(i) => format!("the {} answer.", status_text(&op.responses[i])),
            None => "no documented answer: 501, as without the mock.".into(),
        }
    )]);
    quote! {
        #docs
        #deprecated
        async fn #name(
            &self,
            _ctx: &RequestContext,
            _params: #params,
            #query_string
            #body_arg
        ) -> Result<#response_ident, MockError> {
            #(#lets)*
            Ok(#answer)
        }
    }
}

/// `src/bin/mock.rs`: the program serving [`Mock`] (`<crate>-mock`).
pub fn bin_rs(api: &Api, crate_name: &str) -> TokenStream {
    let krate = format_ident!("{}", crate_name.replace('-', "_"));
    let program = format!("{crate_name}-mock");
    let title = &api.title;
    let policy = match api.rate_limit {
        Some(_) => quote!(Some(#krate::rate_limit_policy())),
        None => quote!(None),
    };
    let intro = module_doc(&[
        format!("`{program}`: serves the mock of {title} (the crate's `mock` module) through"),
        "the generated router; `--help` for its options.".into(),
    ]);
    quote! {
        #![cfg_attr(rustfmt, rustfmt::skip)]
        #intro

        fn main() -> std::process::ExitCode {
            #krate::runtime::mock::main(#program, #title, #krate::BASE_PATH, #policy, |config| {
                #krate::router(std::sync::Arc::new(#krate::mock::Mock), config)
            })
        }
    }
}
