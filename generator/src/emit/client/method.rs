//! One operation's methods on the client (`op`, and `op_with` when it has optional
//! parameters): the signature's inputs and the statements, whose request parts `parts.rs`
//! prints and whose call and answers `send.rs` does.

use super::parts::{body, cookies, header_prep, http_method, path, query, request};
use super::send::{operation_info, send_and_match, send_parts};
use super::{arg_type, body_type, error_ident, options_ident, success_type};
use crate::emit::{doc, ident, operation_doc, rust_type};
use crate::ir::{BodyKind, Operation, Param, QueryStringKind, TypeRef};
use proc_macro2::TokenStream;
use quote::quote;

/// The method (or the pair) of `op`; `example`, a call of it its docs show
/// (`emit::usage::client_call`).
pub(super) fn method(op: &Operation, example: Option<&str>) -> TokenStream {
    let inputs = Inputs::of(op);
    let body = statements(op);
    match &op.rust_with {
        None => single(op, &inputs, body, example),
        Some(with) => pair(op, &inputs, with, body, example),
    }
}

/// The methods that send the body as `multipart/form-data` where the document offers that
/// beside JSON or a form ([`Operation::multipart_twin`]): the operation's methods again, under
/// the twin's names, with the body a `runtime::multipart::Form` of the multipart schema.
pub(super) fn multipart_twin(op: &Operation) -> Option<TokenStream> {
    let twin = op.multipart_twin.as_ref()?;
    let b = op.body.as_ref()?;
    let (content_type, ty) = b.multipart_alternative_media()?;
    let mut sent = op.clone();
    sent.rust = twin.rust.clone();
    sent.rust_with = twin.rust_with.clone();
    sent.pagination = None;
    let typed = crate::naming::bare(&op.rust);
    sent.doc = vec![format!(
        "[`{typed}`](Self::{typed}) with the body sent as `{content_type}` (the document offers both): build it with [`Form`](crate::runtime::multipart::Form), a file as bytes."
    )];
    if !op.doc.is_empty() {
        sent.doc.push(String::new());
        sent.doc.extend(op.doc.iter().cloned());
    }
    sent.body = Some(crate::ir::Body {
        kind: BodyKind::Bytes,
        content_type: content_type.to_owned(),
        alternatives: Vec::new(),
        checked_as: Some(ty.clone()),
        ..b.clone()
    });
    Some(method(&sent, None))
}

/// What the method `op` and `op_with` show alike: the operation's docs, its deprecation and
/// the types of its answer.
struct Shared {
    docs: TokenStream,
    deprecated: Option<TokenStream>,
    success_ty: TokenStream,
    error_ty: proc_macro2::Ident,
}

impl Shared {
    fn of(op: &Operation, example: Option<&str>) -> Shared {
        let mut docs = operation_doc(op);
        if let Some(example) = example {
            // `ignore`: a doc test per operation would be built by every `cargo test` of the
            // crate; the repository's tests build the same snippets from the README instead.
            let mut lines = vec![String::new(), "```ignore".to_string()];
            lines.extend(example.lines().map(str::to_owned));
            lines.push("```".into());
            docs.extend(doc(&lines));
        }
        if let Some(b) = op.body.as_ref().filter(|b| b.media_chosen()) {
            let listed: Vec<String> = b.sendable_media().map(|m| format!("`{m}`")).collect();
            docs.extend(doc(&[
                String::new(),
                format!(
                    "The document takes the body as {}: name the media type with [`Upload::new`](crate::runtime::request::Upload::new); bytes or text alone are sent as the first (for a range, as [`Upload::content_type`](crate::runtime::request::Upload::content_type) says).",
                    listed.join(" or ")
                ),
            ]));
        }
        Shared {
            docs,
            deprecated: op.deprecated.as_ref().map(|d| {
                let note = &d.note;
                quote!(#[deprecated(note = #note)])
            }),
            success_ty: success_type(op),
            error_ty: error_ident(op),
        }
    }
}

/// The one method of an operation without optional parameters.
fn single(
    op: &Operation,
    inputs: &Inputs<'_>,
    body: TokenStream,
    example: Option<&str>,
) -> TokenStream {
    let name = ident(&op.rust);
    let Shared {
        docs,
        deprecated,
        success_ty,
        error_ty,
    } = Shared::of(op, example);
    let (args, query_string_arg, body_arg) = (
        inputs.required_args(),
        &inputs.query_string_arg,
        &inputs.body_arg,
    );
    let many = (inputs.count > 7).then(|| quote!(#[allow(clippy::too_many_arguments)]));
    let allows = crate::emit::convention_allows(&name.to_string());
    quote! {
        #docs
        #deprecated
        #many
        #allows
        pub async fn #name(
            &self,
            #(#args)*
            #query_string_arg
            #body_arg
        ) -> ApiResult<#success_ty, #error_ty> {
            #body
        }
    }
}

/// With optional parameters: `op(required…)` sends none of them and forwards to
/// `op_with(required…, options)`, so an operation's first optional parameter adds a method
/// rather than changing one (book/src/guide/evolving.md).
fn pair(
    op: &Operation,
    inputs: &Inputs<'_>,
    with: &str,
    body: TokenStream,
    example: Option<&str>,
) -> TokenStream {
    let name = ident(&op.rust);
    let with = ident(with);
    let Shared {
        docs,
        deprecated,
        success_ty,
        error_ty,
    } = Shared::of(op, example);
    let (query_string_arg, body_arg) = (&inputs.query_string_arg, &inputs.body_arg);
    let options_ty = options_ident(op);
    let options_arg = inputs.has_optional.then(|| quote!(options: #options_ty,));
    let forward = inputs
        .required
        .iter()
        .map(|p| ident(&p.local))
        .map(|a| quote!(#a,))
        .chain(op.query_string.as_ref().map(|q| {
            let q = ident(&q.rust);
            quote!(#q,)
        }))
        .chain(op.body.as_ref().map(|_| quote!(body,)));
    let many = (inputs.count > 7).then(|| quote!(#[allow(clippy::too_many_arguments)]));
    let many_short = (inputs.count > 8).then(|| quote!(#[allow(clippy::too_many_arguments)]));
    let with_docs = doc(&[
        format!(
            "[`{}`](Self::{}) with the optional parameters in `options`.",
            crate::naming::bare(&op.rust),
            crate::naming::bare(&op.rust)
        ),
        String::new(),
        format!("`{} {}` (operation `{}`).", op.method, op.path, op.id),
    ]);
    let thin_note = doc(&[
        String::new(),
        format!(
            "Sends none of the optional parameters; [`{w}`](Self::{w}) takes them.",
            w = crate::naming::bare(&with.to_string())
        ),
    ]);
    let allows = crate::emit::convention_allows(&name.to_string());
    let with_allows = crate::emit::convention_allows(&with.to_string());
    // A deprecated operation's `…_with` is deprecated too; calling it is this method's job.
    let calls_deprecated = op.deprecated.as_ref().map(|_| quote!(#[allow(deprecated)]));
    // The method sends every option it is given, deprecated ones too.
    let reads_deprecated = op
        .params
        .iter()
        .any(|p| !p.required && p.deprecated)
        .then(|| quote!(#[allow(deprecated)]));
    let (args, args_again) = (inputs.required_args(), inputs.required_args());
    quote! {
        #docs
        #thin_note
        #deprecated
        #calls_deprecated
        #many_short
        #allows
        pub async fn #name(
            &self,
            #(#args_again)*
            #query_string_arg
            #body_arg
        ) -> ApiResult<#success_ty, #error_ty> {
            self.#with(#(#forward)* Default::default()).await
        }

        #with_docs
        #deprecated
        #reads_deprecated
        #many
        #with_allows
        pub async fn #with(
            &self,
            #(#args)*
            #query_string_arg
            #body_arg
            #options_arg
        ) -> ApiResult<#success_ty, #error_ty> {
            #body
        }
    }
}

/// The statements of the method that sends: the method and descriptor, the path, the query,
/// the cookies and the body made once, then the call (which builds each attempt's request)
/// and the answer read by its status.
fn statements(op: &Operation) -> TokenStream {
    let (method_decl, method_value) = http_method(op);
    let path = path(op);
    let query = query(op);
    let cookies = cookies(op);
    let (body_prep, body_attach) = body(op);
    let build = request(
        op,
        &method_value,
        &path.arg,
        &query.arg,
        &cookies.set,
        &body_attach,
    );
    let (operation_decl, operation_ref) = operation_info(op, &method_value);
    let send_parts = send_parts(
        op,
        &operation_ref,
        &path.arg,
        &query.arg,
        cookies.set.is_some(),
    );
    let send_and_match = send_and_match(op, &operation_ref, &build, send_parts);
    let (path_expr, query_expr, cookie_expr) = (&path.expr, &query.expr, &cookies.expr);
    let header_prep = header_prep(op);
    quote! {
        #method_decl
        #operation_decl
        #path_expr
        #query_expr
        #cookie_expr
        #header_prep
        #body_prep
        #send_and_match
    }
}

/// What a method takes besides `&self`: the required parameters, the query string, the body
/// (the options, when there are optional parameters, are added by [`method`]).
struct Inputs<'a> {
    required: Vec<&'a Param>,
    has_optional: bool,
    query_string_arg: Option<TokenStream>,
    body_arg: Option<TokenStream>,
    /// How many inputs `op_with` has, `&self` included: a long list is the document's to
    /// choose (clippy::too_many_arguments counts `self`).
    count: usize,
}

impl<'a> Inputs<'a> {
    fn of(op: &'a Operation) -> Inputs<'a> {
        let required: Vec<&Param> = op.params.iter().filter(|p| p.required).collect();
        let has_optional = op.params.iter().any(|p| !p.required);
        let query_string_arg = op.query_string.as_ref().map(|q| {
            let name = ident(&q.rust);
            let t = match &q.kind {
                QueryStringKind::Form(t) | QueryStringKind::Json(t) => {
                    let t = rust_type(t, true);
                    quote!(&#t)
                }
                QueryStringKind::Raw => quote!(&str),
            };
            if q.required {
                quote!(#name: #t,)
            } else {
                quote!(#name: Option<#t>,)
            }
        });
        let body_arg = op.body.as_ref().map(|b| {
            // Bytes or text the caller labels (several media types, or a range): plain bytes
            // or text still convert, so the method takes what one of a single type takes.
            if b.media_chosen() {
                return if b.required {
                    quote!(body: impl Into<crate::runtime::codegen::Upload>,)
                } else {
                    quote!(body: Option<crate::runtime::codegen::Upload>,)
                };
            }
            let t = match &b.kind {
                BodyKind::Text => quote!(str),
                _ if b.is_multipart_form() => quote!(crate::runtime::codegen::Form),
                // A list is taken as a slice (`&[Pet]`), as a person would write it.
                BodyKind::Json(TypeRef::Vec(item)) => {
                    let item = rust_type(item, true);
                    quote!([#item])
                }
                _ => body_type(op, &b.kind),
            };
            if b.required {
                quote!(body: &#t,)
            } else {
                quote!(body: Option<&#t>,)
            }
        });
        let count = 1
            + required.len()
            + usize::from(has_optional)
            + usize::from(op.query_string.is_some())
            + usize::from(op.body.is_some());
        Inputs {
            required,
            has_optional,
            query_string_arg,
            body_arg,
            count,
        }
    }

    /// `name: Type,` of each required parameter.
    fn required_args(&self) -> Vec<TokenStream> {
        self.required
            .iter()
            .map(|p| {
                let rust = ident(&p.local);
                let t = arg_type(p);
                quote!(#rust: #t,)
            })
            .collect()
    }
}
