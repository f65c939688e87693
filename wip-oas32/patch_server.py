p='generator/src/emit/server.rs'
s=open(p).read()
def rep(old,new,count=1):
    global s
    assert old in s, old[:80]
    s=s.replace(old,new,count)

rep('''use crate::ir::{Api, BodyKind, Location, Operation, Param, Response, Status, TypeKind, TypeRef};''',
'''use crate::ir::{
    Api, BodyKind, Dispatcher, Location, Operation, Param, Response, Status, StreamFormat,
    TypeKind, TypeRef,
};''')
# body type
rep('''        BodyKind::Text => quote!(String),
        BodyKind::Bytes => quote!(Vec<u8>),
    }
}''','''        BodyKind::Text => quote!(String),
        BodyKind::Bytes => quote!(Vec<u8>),
        BodyKind::Stream(s) => {
            let item = rust_type(&s.item, true);
            match s.format {
                StreamFormat::JsonLines => quote!(stream::JsonLines<#item>),
                StreamFormat::Events | StreamFormat::EventsText => {
                    quote!(stream::EventStream<#item>)
                }
            }
        }
    }
}

/// Whether an answer of `op` is a stream (which is neither `Clone` nor `PartialEq`).
fn has_stream(op: &Operation) -> bool {
    op.responses
        .iter()
        .any(|r| matches!(r.body.as_ref().map(|b| &b.kind), Some(BodyKind::Stream(_))))
}''')
rep('''        // Bodies are held by value, as a person writes them; boxing the large one would
        // make every handler noisier for a move that happens once per request.
        items.push(quote! {
            #docs
            #[derive(Debug, Clone, PartialEq)]''','''        // Bodies are held by value, as a person writes them; boxing the large one would
        // make every handler noisier for a move that happens once per request.
        let derives = if has_stream(op) {
            quote!(#[derive(Debug)])
        } else {
            quote!(#[derive(Debug, Clone, PartialEq)])
        };
        items.push(quote! {
            #docs
            #derives''')
rep('''            ("crate::types", "types::"),
            ("std::future::Future", "Future"),
        ],
    );''','''            ("crate::types", "types::"),
            ("crate::runtime::stream", "stream::"),
            ("std::future::Future", "Future"),
        ],
    );''')
# lib re-exports
rep('''    quote! {
        #![cfg_attr(rustfmt, rustfmt::skip)]
        #docs
        pub mod api;
        pub mod router;
        pub mod runtime;
        pub mod types;
''','''    let streams = api.operations.iter().any(has_stream).then(|| {
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
        pub mod api;
        pub mod router;
        pub mod runtime;
        pub mod types;
        #webhooks
''')
rep('''        pub use runtime::ratelimit::{InMemoryRateLimiter, Quota, RateLimitPolicy, RateLimiter};
    }
}''','''        pub use runtime::ratelimit::{InMemoryRateLimiter, Quota, RateLimitPolicy, RateLimiter};
        #streams
    }
}''')
# routes
rep('''    let routes = paths.iter().map(|(path, ops)| {
        let mut chain = TokenStream::new();''','''    let routes = paths.iter().map(|(path, ops)| {
        if let Some(d) = api.dispatchers.iter().find(|d| d.path == *path) {
            let dispatch = ident(&d.rust);
            return quote!(.route(&layer::route_path(&base, #path), routing::any(#dispatch::<A>)));
        }
        let mut chain = TokenStream::new();''')
rep('''    let conversions = api.operations.iter().map(response_conversion);''','''    let conversions = api.operations.iter().map(response_conversion);
    let dispatchers = api.dispatchers.iter().map(|d| dispatcher(d, &trait_ident));''')
rep('''        #(#handlers)*
        #(#conversions)*
    };''','''        #(#dispatchers)*
        #(#handlers)*
        #(#conversions)*
    };''')
rep('''            ("crate::runtime::response", "response::"),''','''            ("crate::runtime::response", "response::"),
            ("crate::runtime::stream", "stream::"),''')
# request body read: stream never a request body
rep('''            BodyKind::Bytes => {
                let ct = &b.content_type;''','''            BodyKind::Bytes | BodyKind::Stream(_) => {
                let ct = &b.content_type;''')
# response conversion
rep('''            Some((BodyKind::Bytes, ct)) => quote!(Ok(response::bytes(#status, #ct, body.into()))),''','''            Some((BodyKind::Bytes, ct)) => quote!(Ok(response::bytes(#status, #ct, body.into()))),
            Some((BodyKind::Stream(s), ct)) => match s.format {
                StreamFormat::Events => quote!(Ok(stream::event_stream(#status, body))),
                StreamFormat::EventsText => quote!(Ok(stream::event_stream_text(#status, body))),
                StreamFormat::JsonLines => quote!(Ok(stream::json_lines(#status, #ct, body))),
            },''')
rep('''/// `StatusCode::NOT_FOUND` for a code http names''','''/// The function a path with a method axum cannot name is routed to: it picks the handler by
/// the method's name, and answers other methods as every path does (405 with `Allow`).
fn dispatcher(d: &Dispatcher, trait_ident: &proc_macro2::Ident) -> TokenStream {
    let name = ident(&d.rust);
    let allow = &d.allow;
    let arms = d.methods.iter().map(|(method, handler)| {
        let handler = ident(handler);
        quote!(#method => #handler::<A>(state, request).await,)
    });
    let list = d
        .methods
        .iter()
        .map(|(m, _)| format!("`{m}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let docs = doc(&[
        format!("`{}`: {list}, dispatched by method name (axum's method filter cannot name them all).", d.path),
    ]);
    quote! {
        #docs
        async fn #name<A: #trait_ident>(state: State<Arc<A>>, request: Request) -> Response {
            match request.method().as_str() {
                #(#arms)*
                _ => layer::method_not_allowed(&request, #allow),
            }
        }
    }
}

/// `StatusCode::NOT_FOUND` for a code http names''')
open(p,'w').write(s)
