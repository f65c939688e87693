//! An operation's parameter struct declared (`params::declare!`) and read from a request
//! ([`Read`]): the macro that writes the struct and its reader from `#[param(…)]` and
//! `#[checks(…)]` words, and [`read`], which the runtime's entries call.

use super::{Problem, RawParams};

/// An operation's parameter struct read from a request (`declare!` implements it).
pub trait Read: Sized {
    /// Whether a field is a path parameter (the path's values are then taken first).
    const PATH: bool;

    /// Reads every parameter from `raw`; the problem lists every failure.
    fn read(raw: &RawParams<'_>) -> Result<Self, Problem>;
}

/// `P` read from `raw` ([`Read::read`]), its type the one the call it is passed to takes.
#[inline]
pub fn read<P: Read>(raw: &RawParams<'_>) -> Result<P, Problem> {
    P::read(raw)
}

/// Declares an operation's parameter struct and how each field is read: the struct as
/// written, every field under `#[param(…)]`, which says
///
/// - first, how it ends: `required` (a missing one is a violation; the field is `T`),
///   `optional` (the field is `Option<T>`) or `default(expr)` (the field is `T`, `expr` when
///   the request leaves it out);
/// - then where: `path("name")`, `query("name")`, `header("name")`, `cookie("name")`;
/// - then, for other than one plain value, the style: `array(explode)`,
///   `delimited(explode, '|')`, `object(ObjectQuery::Deep)`, `styled(Style::Label)`,
///   `styled_array(Style::Label, explode)`, `styled_object(Style::Simple, explode)`, `as_sent`
///   (a 3.2 cookie written as it is).
///
/// A field the schema constrains says how under `#[checks(…)]`, after `#[param(…)]`: the
/// schema's keywords in snake case, each the [`validate`](super::super::validate) function of its
/// name, `minimum(1)`, `exclusive_maximum(100)`, `multiple_of(5.0)`, `one_of(1, 2)`,
/// `min_length(1)`, `max_length(64)`, `pattern("^[a-z]+$")`, `format("email")`,
/// `min_items(1)`, `max_items(10)`, `unique_items`, `min_properties(1)`,
/// `max_properties(8)`, and `validate` for a named type with checks of its own. (A
/// parameter whose checks say more, decimals' exact bounds, each item's own or a schema held
/// as written, is read in its handler instead.)
///
/// It expands to the struct and its [`Read`], which reads every field from a request's
/// [`RawParams`] by the [`RawParams`] method the words name, checks each read value,
/// collects every failure, and fails (with all of them) only after the last field was read
/// and checked, as one 400 lists every problem. A struct without fields is declared too (its
/// `read` takes nothing).
///
/// ```ignore
/// params::declare! {
///     /// Parameters of `getPet`.
///     #[derive(Debug, Clone, PartialEq)]
///     pub struct GetPetParams {
///         #[param(required, path("petId"))]
///         pub pet_id: i64,
///         #[param(default(20), query("limit"))]
///         #[checks(minimum(1), maximum(100))]
///         pub limit: i32,
///     }
/// }
/// ```
#[doc(hidden)]
#[macro_export]
// `crate::runtime`, not `$crate`: the runtime as the calling crate names it (see `object::json!`).
#[allow(clippy::crate_in_macro_def)]
macro_rules! __apigen_params {
    (
        $(#[doc = $doc:literal])*
        #[derive($($derive:tt)*)]
        $vis:vis struct $name:ident {
            $(
                $(#[doc = $field_doc:literal])*
                #[param($($how:tt)*)]
                $(#[checks($($checks:tt)*)])?
                $field_vis:vis $field:ident: $ty:ty,
            )*
        }
    ) => {
        $(#[doc = $doc])*
        #[derive($($derive)*)]
        $vis struct $name {
            $($(#[doc = $field_doc])* $field_vis $field: $ty,)*
        }

        // Each field is read into a local of its own name (the document's, `foo` included).
        #[allow(clippy::disallowed_names)]
        impl crate::runtime::codegen::params::Read for $name {
            const PATH: bool = false $(|| $crate::__apigen_params!(@path $($how)*))*;

            // A struct without fields reads nothing from `raw`.
            #[inline]
            #[allow(unused_variables)]
            fn read(
                raw: &crate::runtime::codegen::params::RawParams<'_>,
            ) -> Result<Self, crate::runtime::codegen::problem::Problem> {
                let mut errors = crate::runtime::codegen::validate::Violations::new();
                $(
                    let $field: $crate::__apigen_params!(@local $ty, $($how)*) =
                        $crate::__apigen_params!(@read raw, errors, $($how)*);
                )*
                // Checked before any return, so that one 400 lists every problem.
                $($crate::__apigen_params!(@checks errors, $field, [$($how)*], $($($checks)*)?);)*
                $($crate::__apigen_params!(@take errors, $field, $($how)*);)*
                errors.check()?;
                Ok(Self { $($field),* })
            }
        }
    };

    // What a field is read into: a required one's `Option` until every field was read.
    (@local $ty:ty, required $($rest:tt)*) => { Option<$ty> };
    (@local $ty:ty, $($rest:tt)*) => { $ty };

    // A field's checks, on its value where it has one, located as `query/limit`.
    (@checks $errors:ident, $field:ident, [$($how:tt)*],) => {};
    (@checks $errors:ident, $field:ident, [default($($default:tt)*), $loc:ident($wire:literal) $($rest:tt)*], $($check:tt)*) => {
        let value = &$field;
        let at = concat!(stringify!($loc), "/", $wire);
        $crate::__apigen_params!(@check value, at, $errors, $($check)*);
    };
    (@checks $errors:ident, $field:ident, [$finish:ident, $loc:ident($wire:literal) $($rest:tt)*], $($check:tt)*) => {
        if let Some(value) = &$field {
            let at = concat!(stringify!($loc), "/", $wire);
            $crate::__apigen_params!(@check value, at, $errors, $($check)*);
        }
    };
    // Each check word, the `validate` function it names (the schema's keyword, snake case).
    (@check $value:ident, $at:ident, $errors:ident, $(,)?) => {};
    (@check $value:ident, $at:ident, $errors:ident, minimum($bound:expr) $(, $($rest:tt)*)?) => {
        crate::runtime::codegen::validate::check_minimum(*$value, $bound, false, $at, &mut $errors);
        $crate::__apigen_params!(@check $value, $at, $errors, $($($rest)*)?);
    };
    (@check $value:ident, $at:ident, $errors:ident, exclusive_minimum($bound:expr) $(, $($rest:tt)*)?) => {
        crate::runtime::codegen::validate::check_minimum(*$value, $bound, true, $at, &mut $errors);
        $crate::__apigen_params!(@check $value, $at, $errors, $($($rest)*)?);
    };
    (@check $value:ident, $at:ident, $errors:ident, maximum($bound:expr) $(, $($rest:tt)*)?) => {
        crate::runtime::codegen::validate::check_maximum(*$value, $bound, false, $at, &mut $errors);
        $crate::__apigen_params!(@check $value, $at, $errors, $($($rest)*)?);
    };
    (@check $value:ident, $at:ident, $errors:ident, exclusive_maximum($bound:expr) $(, $($rest:tt)*)?) => {
        crate::runtime::codegen::validate::check_maximum(*$value, $bound, true, $at, &mut $errors);
        $crate::__apigen_params!(@check $value, $at, $errors, $($($rest)*)?);
    };
    (@check $value:ident, $at:ident, $errors:ident, multiple_of($factor:expr) $(, $($rest:tt)*)?) => {
        crate::runtime::codegen::validate::check_multiple_of(*$value, $factor, $at, &mut $errors);
        $crate::__apigen_params!(@check $value, $at, $errors, $($($rest)*)?);
    };
    (@check $value:ident, $at:ident, $errors:ident, one_of($($allowed:expr),+ $(,)?) $(, $($rest:tt)*)?) => {
        crate::runtime::codegen::validate::check_one_of($value, &[$($allowed),*], $at, &mut $errors);
        $crate::__apigen_params!(@check $value, $at, $errors, $($($rest)*)?);
    };
    (@check $value:ident, $at:ident, $errors:ident, $word:ident($n:literal) $(, $($rest:tt)*)?) => {
        $crate::__apigen_params!(@sized $word, $value, $n, $at, $errors);
        $crate::__apigen_params!(@check $value, $at, $errors, $($($rest)*)?);
    };
    (@check $value:ident, $at:ident, $errors:ident, unique_items $(, $($rest:tt)*)?) => {
        crate::runtime::codegen::validate::check_unique_items($value, $at, &mut $errors);
        $crate::__apigen_params!(@check $value, $at, $errors, $($($rest)*)?);
    };
    // A named type with checks of its own checks itself.
    (@check $value:ident, $at:ident, $errors:ident, validate $(, $($rest:tt)*)?) => {
        crate::runtime::codegen::validate::Validate::validate($value, $at, &mut $errors);
        $crate::__apigen_params!(@check $value, $at, $errors, $($($rest)*)?);
    };
    (@sized min_length, $value:ident, $n:literal, $at:ident, $errors:ident) => {
        crate::runtime::codegen::validate::check_min_length($value, $n, $at, &mut $errors)
    };
    (@sized max_length, $value:ident, $n:literal, $at:ident, $errors:ident) => {
        crate::runtime::codegen::validate::check_max_length($value, $n, $at, &mut $errors)
    };
    (@sized pattern, $value:ident, $n:literal, $at:ident, $errors:ident) => {
        crate::runtime::codegen::validate::check_pattern($value, $n, $at, &mut $errors)
    };
    (@sized format, $value:ident, $n:literal, $at:ident, $errors:ident) => {
        crate::runtime::codegen::validate::check_format($value, $n, $at, &mut $errors)
    };
    (@sized min_items, $value:ident, $n:literal, $at:ident, $errors:ident) => {
        crate::runtime::codegen::validate::check_min_items($value, $n, $at, &mut $errors)
    };
    (@sized max_items, $value:ident, $n:literal, $at:ident, $errors:ident) => {
        crate::runtime::codegen::validate::check_max_items($value, $n, $at, &mut $errors)
    };
    (@sized min_properties, $value:ident, $n:literal, $at:ident, $errors:ident) => {
        crate::runtime::codegen::validate::check_min_properties($value.len(), $n, $at, &mut $errors)
    };
    (@sized max_properties, $value:ident, $n:literal, $at:ident, $errors:ident) => {
        crate::runtime::codegen::validate::check_max_properties($value.len(), $n, $at, &mut $errors)
    };

    (@path $finish:ident $(($($default:tt)*))?, path $($rest:tt)*) => { true };
    (@path $($other:tt)*) => { false };

    // A required field is taken out of its `Option` after every field was read.
    (@take $errors:ident, $field:ident, required $($rest:tt)*) => {
        let Some($field) = $field else {
            return Err($errors.into_problem());
        };
    };
    (@take $($other:tt)*) => {};

    (@read $raw:ident, $errors:ident, required, $($read:tt)*) => {
        $crate::__apigen_params!(@form $raw, $errors, true, $($read)*)
    };
    (@read $raw:ident, $errors:ident, optional, $($read:tt)*) => {
        $crate::__apigen_params!(@form $raw, $errors, false, $($read)*)
    };
    (@read $raw:ident, $errors:ident, default($default:expr), $($read:tt)*) => {
        $crate::__apigen_params!(@form $raw, $errors, false, $($read)*).unwrap_or($default)
    };

    (@form $raw:ident, $errors:ident, true, $loc:ident($wire:literal)) => {
        $raw.required($crate::__apigen_params!(@loc $loc), $wire, &mut $errors)
    };
    (@form $raw:ident, $errors:ident, false, $loc:ident($wire:literal)) => {
        $raw.optional($crate::__apigen_params!(@loc $loc), $wire, &mut $errors)
    };
    (@form $raw:ident, $errors:ident, true, $loc:ident($wire:literal), array($explode:literal)) => {
        $raw.required_array($crate::__apigen_params!(@loc $loc), $wire, $explode, &mut $errors)
    };
    (@form $raw:ident, $errors:ident, false, $loc:ident($wire:literal), array($explode:literal)) => {
        $raw.array($crate::__apigen_params!(@loc $loc), $wire, $explode, &mut $errors)
    };
    (@form $raw:ident, $errors:ident, true, $loc:ident($wire:literal), delimited($explode:literal, $delimiter:literal)) => {
        $raw.required_delimited_array(
            $crate::__apigen_params!(@loc $loc),
            $wire,
            $explode,
            $delimiter,
            &mut $errors,
        )
    };
    (@form $raw:ident, $errors:ident, false, $loc:ident($wire:literal), delimited($explode:literal, $delimiter:literal)) => {
        $raw.delimited_array(
            $crate::__apigen_params!(@loc $loc),
            $wire,
            $explode,
            $delimiter,
            &mut $errors,
        )
    };
    (@form $raw:ident, $errors:ident, true, cookie($wire:literal), as_sent) => {
        $raw.required_cookie_as_sent($wire, &mut $errors)
    };
    (@form $raw:ident, $errors:ident, false, cookie($wire:literal), as_sent) => {
        $raw.optional_cookie_as_sent($wire, &mut $errors)
    };
    (@form $raw:ident, $errors:ident, $required:literal, query($wire:literal), object($style:expr)) => {
        $raw.object($wire, $style, $required, &mut $errors)
    };
    (@form $raw:ident, $errors:ident, $required:literal, $loc:ident($wire:literal), styled($style:expr)) => {
        $raw.styled($crate::__apigen_params!(@loc $loc), $wire, $style, $required, &mut $errors)
    };
    (@form $raw:ident, $errors:ident, $required:literal, $loc:ident($wire:literal), styled_array($style:expr, $explode:literal)) => {
        $raw.styled_array(
            $crate::__apigen_params!(@loc $loc),
            $wire,
            $style,
            $explode,
            $required,
            &mut $errors,
        )
    };
    (@form $raw:ident, $errors:ident, $required:literal, $loc:ident($wire:literal), styled_object($style:expr, $explode:literal)) => {
        $raw.styled_object(
            $crate::__apigen_params!(@loc $loc),
            $wire,
            $style,
            $explode,
            $required,
            &mut $errors,
        )
    };

    (@loc path) => { crate::runtime::codegen::params::Location::Path };
    (@loc query) => { crate::runtime::codegen::params::Location::Query };
    (@loc header) => { crate::runtime::codegen::params::Location::Header };
    (@loc cookie) => { crate::runtime::codegen::params::Location::Cookie };
}

#[doc(inline)]
pub use crate::__apigen_params as declare;
