//! The entries a generated handler calls (`layer::call`, `call_json`, `handle`, …, and the
//! `layer::handler!` that declares one): the request split, authorized, its parameters and
//! body read and checked, the implementation called, its answer or problem written. Re-exported
//! by `layer`, where generated code names them.

use std::future::Future;

use axum::extract::Request;
use axum::response::Response;
use http::request::Parts;

use super::auth;
use super::body;
use super::context::RequestContext;
use super::errors::ErrorBodies;
use super::params;
use super::problem::Problem;
use super::runtime_handle::Runtime;
use super::validate::{Validate, Violations};

/// The handler of an operation with nothing to do before it is served (no sunset, no
/// `Idempotency-Key`, no headers or error bodies of its own): the request split, `serve`
/// called with the parts and the body, its problem (if any) rendered as the answer.
///
/// What a generated handler is: `layer::handle(api, request, |api, parts, _body| async move {
/// … })`, the operation's reading and call in the `async` block. The block is returned rather
/// than awaited in an `async fn`: the future then holds the request head once, not once more
/// for the argument.
#[inline]
pub fn handle<S, F>(
    state: S,
    request: Request,
    serve: impl FnOnce(S, Parts, axum::body::Body) -> F,
) -> impl Future<Output = Response> + Send
where
    F: Future<Output = Result<Response, Problem>> + Send,
{
    handle_body(state, request, |state, _limit, parts, body| {
        serve(state, parts, body)
    })
}

/// [`handle`] for an operation that reads a body: `serve` gets the configured body limit.
#[inline]
pub fn handle_body<S, F>(
    state: S,
    request: Request,
    serve: impl FnOnce(S, usize, Parts, axum::body::Body) -> F,
) -> impl Future<Output = Response> + Send
where
    F: Future<Output = Result<Response, Problem>> + Send,
{
    let (parts, body) = request.into_parts();
    let rt = Runtime::from_parts(&parts);
    let serve = serve(state, rt.body_limit(), parts, body);
    rt.reply_to(serve, &[])
}

/// [`handle`] for an operation whose error bodies differ from the document's (its problems
/// are written in its own shapes, [`Runtime::problem_in`]).
#[inline]
pub fn handle_in<S, F>(
    errors: &'static ErrorBodies,
    state: S,
    request: Request,
    serve: impl FnOnce(S, Parts, axum::body::Body) -> F,
) -> impl Future<Output = Response> + Send
where
    F: Future<Output = Result<Response, Problem>> + Send,
{
    handle_body_in(errors, state, request, |state, _limit, parts, body| {
        serve(state, parts, body)
    })
}

/// [`handle_body`] for an operation whose error bodies differ from the document's.
#[inline]
pub fn handle_body_in<S, F>(
    errors: &'static ErrorBodies,
    state: S,
    request: Request,
    serve: impl FnOnce(S, usize, Parts, axum::body::Body) -> F,
) -> impl Future<Output = Response> + Send
where
    F: Future<Output = Result<Response, Problem>> + Send,
{
    let (parts, body) = request.into_parts();
    let rt = Runtime::from_parts(&parts);
    let serve = serve(state, rt.body_limit(), parts, body);
    rt.reply_to_checked_in(errors, Ok(()), serve, &[])
}

/// The handler of an operation with nothing to do before it is served and nothing to read
/// but its parameters (`P`, declared with `params::declare!`): the request authorized by
/// `security`, `P` read (the path's values first when it has some), the context named
/// `operation`, then `call` with the state, the context and the parameters, whose answer (or
/// problem) is the response.
///
/// What such a generated handler is: `layer::call("listPets", &[&["bearerAuth"]], api,
/// request, |api, ctx, params| async move { … A::list_pets(&api, &ctx, params).await … })`.
#[inline]
pub fn call<S, P, F>(
    operation: &'static str,
    security: auth::Security,
    state: S,
    request: Request,
    call: impl FnOnce(S, RequestContext, P) -> F + Send,
) -> impl Future<Output = Response> + Send
where
    S: Send,
    P: params::Read + Send,
    F: Future<Output = Result<Response, Problem>> + Send,
{
    handle(state, request, move |state, parts, _body| {
        serve_call(operation, security, state, parts, call)
    })
}

/// [`call`] for an operation whose error bodies differ from the document's.
#[inline]
pub fn call_in<S, P, F>(
    errors: &'static ErrorBodies,
    operation: &'static str,
    security: auth::Security,
    state: S,
    request: Request,
    call: impl FnOnce(S, RequestContext, P) -> F + Send,
) -> impl Future<Output = Response> + Send
where
    S: Send,
    P: params::Read + Send,
    F: Future<Output = Result<Response, Problem>> + Send,
{
    handle_in(errors, state, request, move |state, parts, _body| {
        serve_call(operation, security, state, parts, call)
    })
}

/// [`call`] for an operation whose one input besides its parameters is a required JSON body
/// (`B`, read by `body::read_json` within the configured limit: 415, 413 and 400 as there,
/// and 400 when it is missing), passed to `call` after the parameters.
#[inline]
pub fn call_json<S, P, B, F>(
    operation: &'static str,
    security: auth::Security,
    state: S,
    request: Request,
    call: impl FnOnce(S, RequestContext, P, B) -> F + Send,
) -> impl Future<Output = Response> + Send
where
    S: Send,
    P: params::Read + Send,
    B: serde::de::DeserializeOwned + Send,
    F: Future<Output = Result<Response, Problem>> + Send,
{
    handle_body(state, request, move |state, limit, parts, body| {
        serve_call_json(
            operation, security, state, limit, parts, body, unchecked, call,
        )
    })
}

/// [`call_json`] for a body whose type has checks of its own (`B: Validate`): the body is
/// checked after it was read, every violation in one 400, before `call`.
#[inline]
pub fn call_json_checked<S, P, B, F>(
    operation: &'static str,
    security: auth::Security,
    state: S,
    request: Request,
    call: impl FnOnce(S, RequestContext, P, B) -> F + Send,
) -> impl Future<Output = Response> + Send
where
    S: Send,
    P: params::Read + Send,
    B: serde::de::DeserializeOwned + Validate + Send,
    F: Future<Output = Result<Response, Problem>> + Send,
{
    handle_body(state, request, move |state, limit, parts, body| {
        serve_call_json(
            operation, security, state, limit, parts, body, checked, call,
        )
    })
}

/// [`call_json_checked`] for an operation whose error bodies differ from the document's.
#[inline]
pub fn call_json_checked_in<S, P, B, F>(
    errors: &'static ErrorBodies,
    operation: &'static str,
    security: auth::Security,
    state: S,
    request: Request,
    call: impl FnOnce(S, RequestContext, P, B) -> F + Send,
) -> impl Future<Output = Response> + Send
where
    S: Send,
    P: params::Read + Send,
    B: serde::de::DeserializeOwned + Validate + Send,
    F: Future<Output = Result<Response, Problem>> + Send,
{
    handle_body_in(errors, state, request, move |state, limit, parts, body| {
        serve_call_json(
            operation, security, state, limit, parts, body, checked, call,
        )
    })
}

/// A body with nothing to check ([`call_json`]).
fn unchecked<B>(_body: &B) -> Result<(), Problem> {
    Ok(())
}

/// A body checked by its type ([`call_json_checked`]): every violation, located from the
/// body's root, in one problem.
fn checked<B: Validate>(body: &B) -> Result<(), Problem> {
    let mut errors = Violations::new();
    body.validate("", &mut errors);
    errors.check()
}

/// [`call_json`] for an operation whose error bodies differ from the document's.
#[inline]
pub fn call_json_in<S, P, B, F>(
    errors: &'static ErrorBodies,
    operation: &'static str,
    security: auth::Security,
    state: S,
    request: Request,
    call: impl FnOnce(S, RequestContext, P, B) -> F + Send,
) -> impl Future<Output = Response> + Send
where
    S: Send,
    P: params::Read + Send,
    B: serde::de::DeserializeOwned + Send,
    F: Future<Output = Result<Response, Problem>> + Send,
{
    handle_body_in(errors, state, request, move |state, limit, parts, body| {
        serve_call_json(
            operation, security, state, limit, parts, body, unchecked, call,
        )
    })
}

/// Declares an operation's handler served by [`call`], [`call_in`], [`call_json`],
/// [`call_json_in`], [`call_json_checked`] or [`call_json_checked_in`]: the generated router's form of a handler with nothing but declared
/// parameters (and perhaps one plain JSON body) to read. The declaration names the entry,
/// the trait method, the operation and its security; the macro writes the function the route
/// calls: the entry, with a closure that calls the method and answers with its outcome (an
/// error through the trait's `handle_error`).
///
/// ```ignore
/// layer::handler! {
///     /// `GET /pets/{petId}`: see [`PetStoreApi::get_pet`].
///     fn handle_get_pet<A: PetStoreApi>() {
///         call(A::get_pet, "getPet", &[&["bearerAuth"]])
///     }
/// }
/// ```
///
/// The function's attributes (`#[cfg]`, `#[allow(deprecated)]`, docs) and visibility are kept. Names the
/// runtime as `crate::runtime`, where generated crates have it.
#[doc(hidden)]
#[macro_export]
// `crate::runtime`, not `$crate`: the runtime as the calling crate names it (see `object::json!`).
#[allow(clippy::crate_in_macro_def)]
macro_rules! __apigen_handler {
    (
        $(#[$meta:meta])*
        $vis:vis fn $name:ident<A: $api:path $(,)?>() {
            $entry:ident(A::$method:ident, $($arg:expr),+ $(,)?)
        }
    ) => {
        $(#[$meta])*
        $vis fn $name<A: $api>(
            api: std::sync::Arc<A>,
            request: axum::extract::Request,
        ) -> impl std::future::Future<Output = axum::response::Response> + Send {
            crate::runtime::codegen::layer::$entry(
                $($arg,)+
                api,
                request,
                $crate::__apigen_handler!(@call $entry $method),
            )
        }
    };
    // The closure each entry calls with what it read: the parameters, and the body after them.
    (@call call $method:ident) => { $crate::__apigen_handler!(@params $method) };
    (@call call_in $method:ident) => { $crate::__apigen_handler!(@params $method) };
    (@call call_json $method:ident) => { $crate::__apigen_handler!(@body $method) };
    (@call call_json_in $method:ident) => { $crate::__apigen_handler!(@body $method) };
    (@call call_json_checked $method:ident) => { $crate::__apigen_handler!(@body $method) };
    (@call call_json_checked_in $method:ident) => { $crate::__apigen_handler!(@body $method) };
    (@params $method:ident) => {
        |api, ctx, params| async move {
            let outcome = A::$method(&api, &ctx, params).await;
            crate::runtime::codegen::response::answer(outcome, |error| api.handle_error(&ctx, error))
        }
    };
    (@body $method:ident) => {
        |api, ctx, params, body| async move {
            let outcome = A::$method(&api, &ctx, params, body).await;
            crate::runtime::codegen::response::answer(outcome, |error| api.handle_error(&ctx, error))
        }
    };
}

/// What [`call`] does once the request is split.
async fn serve_call<S, P, F>(
    operation: &'static str,
    security: auth::Security,
    state: S,
    mut parts: Parts,
    call: impl FnOnce(S, RequestContext, P) -> F + Send,
) -> Result<Response, Problem>
where
    P: params::Read,
    F: Future<Output = Result<Response, Problem>>,
{
    let scheme = auth::authorize_scheme(parts.extensions.get(), security)?;
    let params = read_params(&mut parts).await?;
    let ctx = RequestContext::new(operation, scheme, parts);
    call(state, ctx, params).await
}

/// What [`call_json`] does once the request is split: as [`serve_call`], the body read
/// after the parameters and held to `check` ([`call_json_checked`]).
// Private, and each argument is one thing an entry hands through; a struct of them would be
// built and taken apart again in every entry.
#[allow(clippy::too_many_arguments)]
async fn serve_call_json<S, P, B, F>(
    operation: &'static str,
    security: auth::Security,
    state: S,
    limit: usize,
    mut parts: Parts,
    body: axum::body::Body,
    check: fn(&B) -> Result<(), Problem>,
    call: impl FnOnce(S, RequestContext, P, B) -> F + Send,
) -> Result<Response, Problem>
where
    P: params::Read,
    B: serde::de::DeserializeOwned,
    F: Future<Output = Result<Response, Problem>>,
{
    let scheme = auth::authorize_scheme(parts.extensions.get(), security)?;
    let params = read_params(&mut parts).await?;
    let Some(body) = body::read_json::<B>(&parts, body, limit, true).await? else {
        return Err(Problem::bad_request("the request body is required"));
    };
    check(&body)?;
    let ctx = RequestContext::new(operation, scheme, parts);
    call(state, ctx, params, body).await
}

/// An operation's parameters, the path's values first when it has some.
async fn read_params<P: params::Read>(parts: &mut Parts) -> Result<P, Problem> {
    // The raw values are gone once this returns, so the caller's future does not carry them.
    let path = if P::PATH {
        params::path_params(parts).await?
    } else {
        params::PathParams::none()
    };
    P::read(&params::RawParams::from_parts(parts, path))
}
