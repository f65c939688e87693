//! The route table a generated router declares (`routes::table!`, and 0.2.2's
//! `routes::declare!`): one line per operation, its method, path and handler (a function, or
//! the runtime entry that serves it), which the runtime registers with axum.
//!
//! A path's methods are registered one by one; axum merges them into the path's one method
//! router (`Router::route` on a path it holds merges), so a path whose operations compile
//! under different features needs nothing special: each line carries its operation's
//! `#[cfg]`.

use axum::Router;
use axum::routing::MethodRouter;

use super::layer;

/// Registers `service` on `path` under `base` (see [`layer::route_path`]), beside the path's
/// other methods. The root path (`/`) under a base path is also registered with a trailing
/// slash, where URL joining puts it (see [`layer::route_root`]).
pub fn add(routes: Router, base: &str, path: &str, service: MethodRouter) -> Router {
    if path == "/" {
        layer::route_root(routes, base, service)
    } else {
        routes.route(&layer::route_path(base, path), service)
    }
}

/// Declares a generated router's route table: a function that registers each line's
/// operation, under its `#[cfg]`, with [`add`]:
///
/// ```ignore
/// routes::declare! {
///     /// Every operation's route, under `base`.
///     fn routes<A: PetStoreApi>(api: &Arc<A>, base: &str) -> axum::Router {
///         #[cfg(feature = "pets")]
///         get("/pets", handle_list_pets, "listPets");
///         #[cfg(feature = "pets")]
///         post("/pets", handle_create_pet, "createPet");
///         any("/files/{name}.{ext}", dispatch_files_name_ext);
///     }
/// }
/// ```
///
/// A line is the method in lower case (`get`, `put`, `post`, `delete`, `options`, `head`,
/// `patch`, `trace`), the path as the document writes it, the handler, and the operation id
/// the request's span and metrics carry (`layer::Operation::named`); `any` serves every
/// method with a dispatcher that tells several operations' path keys apart, named by them.
/// Names the runtime as `crate::runtime`, where generated crates have it.
#[doc(hidden)]
#[macro_export]
// `crate::runtime`, not `$crate`: the runtime as the calling crate names it (see `object::json!`).
#[allow(clippy::crate_in_macro_def)]
macro_rules! __apigen_routes {
    (
        $(#[$meta:meta])*
        $vis:vis fn $name:ident<A: $api:path>($state:ident: &Arc<A>, $base:ident: &str $(,)?) -> axum::Router {
            $($(#[$cfg:meta])* $method:ident($path:literal, $handler:ident $(, $id:literal)? $(,)?);)*
        }
    ) => {
        $(#[$meta])*
        $vis fn $name<A: $api>($state: &std::sync::Arc<A>, $base: &str) -> axum::Router {
            let routes = axum::Router::new();
            $(
                $(#[$cfg])*
                let routes = crate::runtime::codegen::routes::add(
                    routes,
                    $base,
                    $path,
                    $crate::__apigen_routes!(
                        @service $method
                        crate::runtime::codegen::layer::operation($state, $handler::<A>)$(.named($id))?
                    ),
                );
            )*
            routes
        }
    };
    (@service get $service:expr) => { axum::routing::get_service($service) };
    (@service put $service:expr) => { axum::routing::put_service($service) };
    (@service post $service:expr) => { axum::routing::post_service($service) };
    (@service delete $service:expr) => { axum::routing::delete_service($service) };
    (@service options $service:expr) => { axum::routing::options_service($service) };
    (@service head $service:expr) => { axum::routing::head_service($service) };
    (@service patch $service:expr) => { axum::routing::patch_service($service) };
    (@service trace $service:expr) => { axum::routing::trace_service($service) };
    (@service any $service:expr) => { axum::routing::any_service($service) };
}

pub use crate::__apigen_routes as declare;

/// Declares a generated router's route table as [`declare!`] does, its lines grouped by the
/// `#[cfg]` they compile under (one attribute a group, not one a line), and a line's handler
/// either a function or the runtime entry that serves it, written where the route is:
///
/// ```ignore
/// routes::table! {
///     /// Every operation's route, under `base`.
///     fn route_table<A: PetStoreApi>(api: &Arc<A>, base: &str) -> axum::Router {
///         #[cfg(feature = "pets")]
///         {
///             get("/pets", call(A::list_pets, "listPets", &[&["bearerAuth"]]));
///             post("/pets", handle_create_pet, "createPet");
///         }
///         {
///             any("/files/{name}.{ext}", dispatch_files_name_ext);
///         }
///     }
/// }
/// ```
///
/// A line whose handler is an entry (`call`, `call_in`, `call_json`, `call_json_in`,
/// `call_json_checked`, `call_json_checked_in`, with the arguments
/// [`layer::handler!`](crate::layer::handler) takes) is the handler that macro would write,
/// named by the operation id among the entry's arguments; its operation needs no function of
/// its own. A line of a function is [`declare!`]'s. Names the runtime as `crate::runtime`,
/// where generated crates have it.
#[doc(hidden)]
#[macro_export]
// `crate::runtime`, not `$crate`: the runtime as the calling crate names it (see `object::json!`).
#[allow(clippy::crate_in_macro_def)]
macro_rules! __apigen_route_table {
    (
        $(#[$meta:meta])*
        $vis:vis fn $name:ident<A: $api:path>($state:ident: &Arc<A>, $base:ident: &str $(,)?) -> axum::Router {
            $($(#[$cfg:meta])* { $($method:ident $line:tt;)* })*
        }
    ) => {
        $(#[$meta])*
        $vis fn $name<A: $api>($state: &std::sync::Arc<A>, $base: &str) -> axum::Router {
            let routes = axum::Router::new();
            $(
                $(#[$cfg])*
                let routes = {
                    let routes = routes;
                    $(
                        let routes = crate::runtime::codegen::routes::add(
                            routes,
                            $base,
                            $crate::__apigen_route_table!(@path $line),
                            $crate::__apigen_routes!(
                                @service $method
                                $crate::__apigen_route_table!(@operation $api, $state $line)
                            ),
                        );
                    )*
                    routes
                };
            )*
            routes
        }
    };
    (@path ($path:literal, $($rest:tt)*)) => { $path };
    // A function: `declare!`'s line.
    (@operation $api:path, $state:ident ($path:literal, $handler:ident $(, $id:literal)? $(,)?)) => {
        crate::runtime::codegen::layer::operation($state, $handler::<A>)$(.named($id))?
    };
    // An entry: the function `layer::handler!` writes, declared where it is used. A function
    // of its own, not a closure: the compiler checks each apart, where 679 closures in one
    // body (GitHub's) took it half as long again as the functions did.
    (@operation $api:path, $state:ident ($path:literal, $entry:ident(A::$op:ident, $($arg:expr),+ $(,)?) $(,)?)) => {
        crate::runtime::codegen::layer::operation($state, {
            $crate::__apigen_handler! {
                fn handler<A: $api>() {
                    $entry(A::$op, $($arg),+)
                }
            }
            handler::<A>
        })
        .named($crate::__apigen_route_table!(@id $($arg),+))
    };
    // The operation id among an entry's arguments: the first of two (id, security), or the
    // second of three (error bodies, id, security: a `…_in` entry).
    (@id $id:expr, $security:expr) => { $id };
    (@id $errors:expr, $id:expr, $security:expr) => { $id };
}

pub use crate::__apigen_route_table as table;
