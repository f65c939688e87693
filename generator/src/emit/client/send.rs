//! How one operation's client method sends and reads: its descriptor (`OperationInfo`),
//! the call that sends the request, and its answer read by status.

use super::{status_pattern, success_ident};
use crate::emit::{ident, rust_type};
use crate::ir::{BodyKind, Operation, Response, Status, StreamFormat};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The call that sends a request made of its URL and at most a serialized body (no headers
/// or cookies of its own): the runtime builds it (`Transport::call`) from the parts and the
/// descriptor's `Accept` and `Content-Type`.
pub(super) fn send_parts(
    op: &Operation,
    operation_ref: &TokenStream,
    path: &TokenStream,
    query: &TokenStream,
    has_cookies: bool,
) -> Option<TokenStream> {
    let accept_sendable = op
        .accept
        .as_deref()
        .is_none_or(super::is_static_header_value);
    if !super::parts::headers(op).is_empty() || has_cookies || !accept_sendable {
        return None;
    }
    let Some(b) = &op.body else {
        return Some(quote!(call(#operation_ref, #path, #query, None)));
    };
    let plain = matches!(
        b.kind,
        BodyKind::Json(_) | BodyKind::Form(_) | BodyKind::Text | BodyKind::Bytes
    ) && !b.is_multipart_form()
        && !b.media_chosen()
        && super::is_static_header_value(&b.content_type);
    let body = if b.required {
        quote!(Some(&body))
    } else {
        quote!(body.as_ref())
    };
    plain.then(|| quote!(call(#operation_ref, #path, #query, #body)))
}

/// The operation's descriptor for the transport (retries, authentication, deprecation):
/// its declaration and how the call names it. Standard methods make it a constant; others
/// are built from their name.
pub(super) fn operation_info(
    op: &Operation,
    method_value: &TokenStream,
) -> (TokenStream, TokenStream) {
    let id = &op.id;
    let template = &op.path;
    let idempotency_key = op.idempotency_key.is_some();
    let deprecated_flag = op.deprecated.is_some();
    let security: Vec<TokenStream> = op.security.iter().map(|alt| quote!(&[#(#alt),*])).collect();
    let (accept, content_type) = media(op);
    let accept_tokens = match accept {
        Some(a) => quote!(Some(#a)),
        None => quote!(None),
    };
    if op.standard_method {
        // The runtime's constructor by method (`OperationInfo::get`), which knows whether it
        // is idempotent; what is not off (or JSON) is said by a modifier.
        let method = format_ident!("{}", op.method.to_ascii_lowercase());
        let deprecated = deprecated_flag.then(|| quote!(.deprecated()));
        let secured = (!security.is_empty()).then(|| quote!(.secured(&[#(#security),*])));
        let key = idempotency_key.then(|| quote!(.idempotency_key()));
        let accepts = (accept != Some(JSON_MEDIA)).then(|| quote!(.accepts(#accept_tokens)));
        let sends = (content_type != JSON_MEDIA).then(|| quote!(.sends(#content_type)));
        return (
            quote! {
                const OPERATION: OperationInfo =
                    OperationInfo::#method(#template, #id)
                        #deprecated #secured #key #accepts #sends;
            },
            quote!(&OPERATION),
        );
    }
    let idempotent = op.idempotent;
    let operation = quote!(OperationInfo {
        id: #id,
        path: #template,
        method: #method_value,
        idempotent: #idempotent,
        deprecated: #deprecated_flag,
        security: &[#(#security),*],
        idempotency_key: #idempotency_key,
        accept: #accept_tokens,
        content_type: #content_type,
    });
    (quote!(let operation = #operation;), quote!(&operation))
}

const JSON_MEDIA: &str = "application/json";

/// The `Accept` and `Content-Type` the descriptor holds for `Transport::call`: the
/// operation's own when the runtime can send them as they are (every byte one a header value
/// may hold), JSON's otherwise (such an operation builds its request itself, see
/// [`send_parts`]).
fn media(op: &Operation) -> (Option<&str>, &str) {
    let accept = op.accept.as_deref().map(|a| {
        if super::is_static_header_value(a) {
            a
        } else {
            JSON_MEDIA
        }
    });
    let content_type = match &op.body {
        Some(b) if super::is_static_header_value(&b.content_type) => b.content_type.as_str(),
        _ => JSON_MEDIA,
    };
    (accept, content_type)
}

/// Sends the request and reads the answer by its status: the successes here, every other
/// status by the error enum's declaration (`response::errors!`).
///
/// `send_dyn` (not the generic `send`): the retry loop is compiled once in the runtime
/// rather than once per operation, the largest share of a big client's machine code.
pub(super) fn send_and_match(
    op: &Operation,
    operation_ref: &TokenStream,
    build: &TokenStream,
    send_parts: Option<TokenStream>,
) -> TokenStream {
    let success = success_arms(op, operation_ref);
    if op.streamed {
        // Every other answer is read whole first, then as the operation's error.
        return quote! {
            let streamed = self
                .transport
                .send_streaming_dyn(#operation_ref, SECURITY_SCHEMES, &|http, base| { #build })
                .await?;
            match streamed.status.as_u16() {
                #(#success)*
                _ => Err(streamed.into_raw().await?.error()),
            }
        };
    }
    let send = send_parts.unwrap_or_else(
        || quote!(send_dyn(#operation_ref, SECURITY_SCHEMES, &|http, base| { #build })),
    );
    let read = match uniform_success(op) {
        // Every success read one way: the runtime's `answer` tells them from the errors.
        Some((codes, read)) => {
            quote!(self.transport.answer(#operation_ref, raw, &[#(#codes),*], #read))
        }
        None if success.is_empty() => quote!(Err(raw.error())),
        None => quote! {
            match raw.status.as_u16() {
                #(#success)*
                _ => Err(raw.error()),
            }
        },
    };
    quote! {
        let raw = self.transport.#send.await?;
        #read
    }
}

/// The documented success codes and the one reader of them all (`Raw::json`), when every
/// success, an undocumented 2XX's included, is a code (not a range or `default`) read the
/// same way into one type.
fn uniform_success(op: &Operation) -> Option<(Vec<proc_macro2::Literal>, TokenStream)> {
    if op.success_enum || op.default_succeeds || !op.undocumented.success_arm {
        return None;
    }
    let mut codes = Vec::new();
    let mut kinds = Vec::new();
    for r in op.responses.iter().filter(|r| r.is_success()) {
        let Status::Code(c) = r.status else {
            return None;
        };
        codes.push(proc_macro2::Literal::u16_unsuffixed(c));
        kinds.push(r.body.as_ref().map(|b| &b.kind));
    }
    let undocumented = op
        .undocumented
        .success
        .map(|i| op.responses[i].body.as_ref().map(|b| &b.kind));
    kinds.push(undocumented.flatten());
    // Compared as the whole reading (`raw.json::<T, _>()`), type included.
    let first = decode(op, kinds[0]).to_string();
    let same = kinds.iter().all(|k| decode(op, *k).to_string() == first);
    reader(kinds[0]).filter(|_| same).map(|read| (codes, read))
}

/// `Raw`'s reader of a body of `kind` as a function (`Raw::json`), when it has one.
fn reader(kind: Option<&BodyKind>) -> Option<TokenStream> {
    match kind {
        // The type is the method's to say (its return type).
        Some(BodyKind::Json(_) | BodyKind::Form(_) | BodyKind::Multipart { .. }) => {
            Some(quote!(Raw::json))
        }
        Some(BodyKind::Text) => Some(quote!(Raw::text)),
        Some(BodyKind::Bytes) => Some(quote!(Raw::bytes)),
        Some(BodyKind::Stream(_)) => None,
        None => Some(quote!(Raw::empty)),
    }
}

/// The successes' `match` arms: exact codes first, then ranges, then a `default` read as a
/// success, then any other 2XX read as the nearest documented one, marked undocumented
/// (book/src/reference/type-mapping.md, "Answers the client reads").
fn success_arms(op: &Operation, operation_ref: &TokenStream) -> Vec<TokenStream> {
    let mut arms: Vec<(u8, TokenStream)> = Vec::new();
    for r in &op.responses {
        if r.status == Status::Default && op.default_succeeds {
            let decode = decode(op, r.body.as_ref().map(|b| &b.kind));
            arms.push((1, quote!(200..=299 => #decode,)));
        }
        if r.is_success() {
            let pattern = status_pattern(r, op);
            let rank = u8::from(matches!(r.status, Status::Range(_)));
            let expr = success_expr(op, r);
            arms.push((rank, quote!(#pattern => #expr,)));
        }
    }
    if op.undocumented.success_arm {
        let expr = match op.undocumented.success {
            Some(i) => success_expr(op, &op.responses[i]),
            None => decode(op, None),
        };
        let pattern = super::class_pattern(2, op);
        arms.push((
            1,
            quote!(#pattern => self.transport.undocumented(#operation_ref, #expr),),
        ));
    }
    arms.sort_by_key(|(rank, _)| *rank);
    arms.into_iter().map(|(_, arm)| arm).collect()
}

/// Reads the success `r`, into its variant of the success enum when there is one.
fn success_expr(op: &Operation, r: &Response) -> TokenStream {
    let decode = decode(op, r.body.as_ref().map(|b| &b.kind));
    if !op.success_enum {
        return decode;
    }
    let v = ident(&r.variant);
    let success = success_ident(op);
    let wrap = if r.body.is_some() {
        quote!(#success::#v)
    } else {
        quote!(|()| #success::#v)
    };
    quote!(#decode.map(|value| value.map(#wrap)))
}

/// Reads a success's body of `kind`. A streamed operation's other answers are read whole
/// first.
fn decode(op: &Operation, kind: Option<&BodyKind>) -> TokenStream {
    let d = match kind {
        Some(BodyKind::Json(t) | BodyKind::Form(t) | BodyKind::Multipart { ty: t, .. }) => {
            let t = rust_type(t, true);
            quote!(raw.json::<#t, _>())
        }
        Some(BodyKind::Text) => quote!(raw.text()),
        Some(BodyKind::Bytes) => quote!(raw.bytes()),
        Some(BodyKind::Stream(s)) => {
            let t = rust_type(&s.item, true);
            match s.format {
                StreamFormat::Events => {
                    quote!(Ok(streamed.event_stream::<#t, _>(Raw::error)))
                }
                StreamFormat::EventsText => {
                    quote!(Ok(streamed.event_stream_text(Raw::error)))
                }
                StreamFormat::JsonLines => quote!(Ok(streamed.json_lines::<#t, _>())),
            }
        }
        None => quote!(raw.empty()),
    };
    if op.streamed && !matches!(kind, Some(BodyKind::Stream(_))) {
        quote!({ let raw = streamed.into_raw().await?; #d })
    } else {
        d
    }
}
