p='generator/src/emit/client.rs'
s=open(p).read()
def rep(old,new,count=1):
    global s
    assert old in s, old[:90]
    s=s.replace(old,new,count)

rep('''use crate::ir::{Api, BodyKind, Location, Operation, Param, Response, SchemeKind, Status, TypeRef};''',
'''use crate::ir::{
    Api, BodyKind, Location, Operation, Param, Response, SchemeKind, Status, StreamFormat, TypeRef,
};''')
rep('''fn body_type(kind: &BodyKind) -> TokenStream {
    match kind {
        BodyKind::Json(t) | BodyKind::Form(t) => rust_type(t, true),
        BodyKind::Text => quote!(String),
        BodyKind::Bytes => quote!(bytes::Bytes),
    }
}''','''fn body_type(op: &Operation, kind: &BodyKind) -> TokenStream {
    match kind {
        BodyKind::Json(t) | BodyKind::Form(t) => rust_type(t, true),
        BodyKind::Text => quote!(String),
        BodyKind::Bytes => quote!(bytes::Bytes),
        BodyKind::Stream(s) => {
            let item = rust_type(&s.item, true);
            let error = error_ident(op);
            match s.format {
                StreamFormat::JsonLines => quote!(JsonLines<#item, #error>),
                StreamFormat::Events | StreamFormat::EventsText => {
                    quote!(EventStream<#item, #error>)
                }
            }
        }
    }
}''')
rep('''        [one] => match &one.body {
            Some(b) => body_type(&b.kind),''','''        [one] => match &one.body {
            Some(b) => body_type(op, &b.kind),''')
rep('''            match &r.body {
                Some(b) => {
                    let t = body_type(&b.kind);
                    quote!(#docs #v(#t),)
                }
                None => quote!(#docs #v,),
            }
        });
        let docs = doc(&[format!("The successful answers of `{}`.", op.id)]);
        quote! {
            #docs
            #[derive(Debug, Clone, PartialEq)]''','''            match &r.body {
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
            #derives''')
# error enum: from_raw for streamed ops
rep('''        let docs = doc(&[format!(
            "The documented error answers of `{}`; the status and headers are on [`Error::Api`].",
            op.id
        )]);
        quote! {
            #docs
            #[derive(Debug, Clone, PartialEq)]
            #[allow(clippy::large_enum_variant)]
            pub enum #name { #(#variants)* }
        }
    };''','''        let docs = doc(&[format!(
            "The documented error answers of `{}`; the status and headers are on [`Error::Api`].",
            op.id
        )]);
        let from_raw = op.streamed.then(|| {
            let (arms, fallback) = error_arms(op);
            quote! {
                impl #name {
                    /// The error a response of another status than the stream's becomes (also
                    /// the `error` event that ends a stream, by its `status`).
                    fn from_raw(raw: Raw) -> Error<Self> {
                        match raw.status.as_u16() {
                            #(#arms)*
                            #fallback
                        }
                    }
                }
            }
        });
        quote! {
            #docs
            #[derive(Debug, Clone, PartialEq)]
            #[allow(clippy::large_enum_variant)]
            pub enum #name { #(#variants)* }
            #from_raw
        }
    };''')
rep('''/// Whether a required parameter is taken by reference''','''/// The match arms (codes first, then ranges, then `default`) turning a documented error status
/// into the operation's error, and the arm for an undocumented one, as expressions of `raw`.
fn error_arms(op: &Operation) -> (Vec<TokenStream>, Option<TokenStream>) {
    let error_ty = error_ident(op);
    let mut arms: Vec<(u8, TokenStream)> = op
        .responses
        .iter()
        .filter(|r| !r.is_success())
        .map(|r| {
            let pattern = status_pattern(r);
            let v = ident(&r.variant);
            let arm = match r.body.as_ref().map(|b| &b.kind) {
                Some(BodyKind::Json(_) | BodyKind::Form(_)) => {
                    quote!(#pattern => raw.api_error(#error_ty::#v),)
                }
                _ => quote!(#pattern => raw.api_error_with(#error_ty::#v),),
            };
            (status_rank(r), arm)
        })
        .collect();
    arms.sort_by_key(|(rank, _)| *rank);
    let has_default = op.responses.iter().any(|r| r.status == Status::Default);
    let fallback = (!has_default).then(|| quote!(_ => raw.unexpected(),));
    (arms.into_iter().map(|(_, a)| a).collect(), fallback)
}

/// Match order: exact codes, then ranges, then `default`.
fn status_rank(r: &Response) -> u8 {
    match r.status {
        Status::Code(_) => 0,
        Status::Range(_) => 1,
        Status::Default => 2,
    }
}

/// Whether a required parameter is taken by reference''')
# method: custom methods and streamed
rep('''    let name = ident(&op.rust);
    let id = &op.id;
    let http_method = format_ident!("{}", op.method.to_uppercase());''','''    let name = ident(&op.rust);
    let id = &op.id;
    // Standard methods are constants; others (`QUERY`, `additionalOperations`) are built once
    // from their name, outside the closure that builds each attempt.
    let (method_decl, method_value) = if op.standard_method {
        let m = format_ident!("{}", op.method.to_uppercase());
        (quote!(), quote!(http::Method::#m))
    } else {
        let m = &op.method;
        (quote!(let method = request::method(#m)?;), quote!(method.clone()))
    };''')
rep('''            let ct = &b.content_type;
            let serialize = match &b.kind {''','''            let ct = &b.content_type;
            let serialize = match &b.kind {
                BodyKind::Stream(_) => quote!(Ok::<_, crate::runtime::error::SendError>(body.clone())),''')
rep('''    let body_arg = op.body.as_ref().map(|b| {
        let t = match b.kind {
            BodyKind::Text => quote!(str),
            _ => body_type(&b.kind),
        };''','''    let body_arg = op.body.as_ref().map(|b| {
        let t = match b.kind {
            BodyKind::Text => quote!(str),
            _ => body_type(op, &b.kind),
        };''')
rep('''    let request = quote!(http.request(http::Method::#http_method, request::url(base, #path_arg, #query_arg))#accept);''','''    let request = quote!(http.request(#method_value, request::url(base, #path_arg, #query_arg))#accept);''')
rep('''        let decode = |kind: Option<&BodyKind>| match kind {
            Some(BodyKind::Json(t) | BodyKind::Form(t)) => {
                let t = rust_type(t, true);
                quote!(raw.json::<#t, _>())
            }
            Some(BodyKind::Text) => quote!(raw.text()),
            Some(BodyKind::Bytes) => quote!(raw.bytes()),
            None => quote!(raw.empty()),
        };''','''        let decode = |kind: Option<&BodyKind>| match kind {
            Some(BodyKind::Json(t) | BodyKind::Form(t)) => {
                let t = rust_type(t, true);
                quote!(raw.json::<#t, _>())
            }
            Some(BodyKind::Text) => quote!(raw.text()),
            Some(BodyKind::Bytes) => quote!(raw.bytes()),
            Some(BodyKind::Stream(s)) => {
                let t = rust_type(&s.item, true);
                match s.format {
                    StreamFormat::Events => quote!(Ok(streamed.event_stream::<#t, _>(#error_ty::from_raw))),
                    StreamFormat::EventsText => quote!(Ok(streamed.event_stream_text(#error_ty::from_raw))),
                    StreamFormat::JsonLines => quote!(Ok(streamed.json_lines::<#t, _>())),
                }
            }
            None => quote!(raw.empty()),
        };
        // A streamed operation's other answers are read whole first.
        let decode = |kind: Option<&BodyKind>| {
            let d = decode(kind);
            if op.streamed && !matches!(kind, Some(BodyKind::Stream(_))) {
                quote!({ let raw = streamed.into_raw().await?; #d })
            } else {
                d
            }
        };''')
rep('''    quote! {
        #docs
        #deprecated
        pub async fn #name(
            &self,
            #(#args)*
            #options_arg
            #body_arg
        ) -> Result<ResponseValue<#success_ty>, Error<#error_ty>> {
            const OPERATION: OperationInfo = OperationInfo {
                id: #id,
                method: http::Method::#http_method,
                idempotent: #idempotent,
                deprecated: #deprecated_flag,
                security: &[#(#security),*],
            };
            #path_expr
            #query_expr
            #cookie_expr
            #body_prep
            let raw = self
                .transport
                .send(&OPERATION, SECURITY_SCHEMES, |http, base| { #build })
                .await?;
            match raw.status.as_u16() {
                #(#arms)*
                #fallback
            }
        }
    }''','''    let operation = quote!(OperationInfo {
        id: #id,
        method: #method_value,
        idempotent: #idempotent,
        deprecated: #deprecated_flag,
        security: &[#(#security),*],
    });
    let (operation_decl, operation_ref) = if op.standard_method {
        (quote!(const OPERATION: OperationInfo = #operation;), quote!(&OPERATION))
    } else {
        (quote!(let operation = #operation;), quote!(&operation))
    };
    let send_and_match = if op.streamed {
        // Every documented error goes through `from_raw`, the one mapping the stream's
        // `error` event also uses.
        let success_arms = arms_success;
        quote! {
            let streamed = self
                .transport
                .send_streaming(#operation_ref, SECURITY_SCHEMES, |http, base| { #build })
                .await?;
            match streamed.status.as_u16() {
                #(#success_arms)*
                _ => Err(#error_ty::from_raw(streamed.into_raw().await?)),
            }
        }
    } else {
        quote! {
            let raw = self
                .transport
                .send(#operation_ref, SECURITY_SCHEMES, |http, base| { #build })
                .await?;
            match raw.status.as_u16() {
                #(#arms)*
                #fallback
            }
        }
    };
    quote! {
        #docs
        #deprecated
        pub async fn #name(
            &self,
            #(#args)*
            #options_arg
            #body_arg
        ) -> Result<ResponseValue<#success_ty>, Error<#error_ty>> {
            #method_decl
            #operation_decl
            #path_expr
            #query_expr
            #cookie_expr
            #body_prep
            #send_and_match
        }
    }''')
# collect success arms separately
rep('''    let mut arms: Vec<(u8, TokenStream)> = Vec::new();
    for r in &op.responses {''','''    let mut arms: Vec<(u8, TokenStream)> = Vec::new();
    let mut arms_success: Vec<TokenStream> = Vec::new();
    for r in &op.responses {''')
rep('''        let arm = if r.is_success() {
            let decode = decode(r.body.as_ref().map(|b| &b.kind));
            if multi {
                let v = ident(&r.variant);
                let success = success_ident(op);
                let wrap = if r.body.is_some() {
                    quote!(#success::#v)
                } else {
                    quote!(|()| #success::#v)
                };
                quote!(#pattern => #decode.map(|value| value.map(#wrap)),)
            } else {
                quote!(#pattern => #decode,)
            }
        } else {''','''        let arm = if r.is_success() {
            let decode = decode(r.body.as_ref().map(|b| &b.kind));
            let arm = if multi {
                let v = ident(&r.variant);
                let success = success_ident(op);
                let wrap = if r.body.is_some() {
                    quote!(#success::#v)
                } else {
                    quote!(|()| #success::#v)
                };
                quote!(#pattern => #decode.map(|value| value.map(#wrap)),)
            } else {
                quote!(#pattern => #decode,)
            };
            arms_success.push(arm.clone());
            arm
        } else {''')
open(p,'w').write(s)
s=open(p).read()
rep('''            ("crate::runtime::response::ResponseValue", "ResponseValue"),''','''            ("crate::runtime::response::Raw", "Raw"),
            ("crate::runtime::response::ResponseValue", "ResponseValue"),
            ("crate::runtime::stream::EventStream", "EventStream"),
            ("crate::runtime::stream::JsonLines", "JsonLines"),''')
open(p,'w').write(s)
s=open(p).read()
rep('''    let docs = module_doc(&lines);
    quote! {
        #![cfg_attr(rustfmt, rustfmt::skip)]
        #docs
        pub mod client;
        pub mod runtime;
        pub mod types;
''','''    let docs = module_doc(&lines);
    let streams = api.operations.iter().any(|o| o.streamed).then(|| {
        quote!(pub use runtime::stream::{Event, EventStream, JsonLines};)
    });
    let webhooks = (!api.webhooks.is_empty()).then(|| {
        quote! {
            pub mod webhooks;
            pub use webhooks::Webhook;
        }
    });
    quote! {
        #![cfg_attr(rustfmt, rustfmt::skip)]
        #docs
        pub mod client;
        pub mod runtime;
        pub mod types;
        #webhooks
''')
rep('''        pub use runtime::retry::RetryPolicy;
        /// Re-exported so callers''','''        pub use runtime::retry::RetryPolicy;
        #streams
        /// Re-exported so callers''')
open(p,'w').write(s)
