//! A `oneOf`/`anyOf` declared (`unions::json!`): the enum, its serde impls, its reading by a
//! discriminator or variant by variant ([`Trial`]), and, for a union of scalars, its reading
//! from and writing as a parameter's text. Shared by the client and server runtimes.
//!
//! Decision: `docs/decisions/0012-enums-and-unions-declared.md`.

use super::integer;
use super::object::{self, Object};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::fmt::Display;

/// The variants of a union tried in order on one input (a JSON value, or a parameter's
/// text), the first that reads it winning.
///
/// With checks (a server's union whose variants hold constraints), the first whose checks the
/// value also passes wins, else the first that read it (whose checks then refuse it): variants
/// told apart by constraints alone (nexus's `IpNet`, an IPv4 or an IPv6 net, both strings, by
/// `pattern`) are read as the one the value fits. A struct variant that would drop members of
/// the value ([`object::names_all`]) is taken only when no later variant names them all
/// (discord's channel update: the first variant read `{"name", "icon"}` and dropped `icon`).
pub struct Trial<I, U> {
    input: I,
    checks: Option<fn(&U) -> bool>,
    /// Why each variant tried so far refused the input, for the error.
    reasons: Vec<String>,
    /// A variant that passed its checks and names every member: the answer.
    found: Option<U>,
    /// The first that passed its checks but drops members.
    fits: Option<U>,
    /// The first that read the input but failed its checks.
    unchecked: Option<U>,
}

impl<I, U> Trial<I, U> {
    /// A trial of `input`; `checks` says whether a variant's value passes its checks.
    pub fn new(input: I, checks: Option<fn(&U) -> bool>) -> Self {
        Trial {
            input,
            checks,
            reasons: Vec::new(),
            found: None,
            fits: None,
            unchecked: None,
        }
    }

    /// Tries one variant (skipped once a variant won): `read` gives its value and whether it
    /// names every member of the input.
    pub fn read<E: Display>(&mut self, label: &str, read: impl FnOnce(&I) -> Result<(U, bool), E>) {
        if self.found.is_some() {
            return;
        }
        match read(&self.input) {
            Ok((value, whole)) => {
                let passes = self.checks.is_none_or(|checks| checks(&value));
                if passes && whole {
                    self.found = Some(value);
                } else if passes {
                    self.fits.get_or_insert(value);
                } else {
                    self.unchecked.get_or_insert(value);
                }
            }
            Err(e) => self.reasons.push(format!("{label}: {e}")),
        }
    }

    /// The variant that won, or the error saying why each refused.
    pub fn end(self, name: &str) -> Result<U, String> {
        self.end_with(name, None::<fn(I) -> U>)
    }

    /// As [`end`](Self::end), but an input no variant reads is kept (`keep`, the client's
    /// `Unknown`), unless this union is itself a variant being tried (the outer union decides
    /// then).
    pub fn end_or_keep(self, name: &str, keep: impl FnOnce(I) -> U) -> Result<U, String> {
        self.end_with(name, Some(keep))
    }

    fn end_with(self, name: &str, keep: Option<impl FnOnce(I) -> U>) -> Result<U, String> {
        if let Some(value) = self.found.or(self.fits).or(self.unchecked) {
            return Ok(value);
        }
        match keep {
            Some(keep) if !integer::in_union_trial() => Ok(keep(self.input)),
            _ => Err(format!(
                "no variant of `{name}` matched: {}",
                self.reasons.join("; ")
            )),
        }
    }
}

impl<U> Trial<Value, U> {
    /// Tries a variant read from a copy of the value
    /// ([`variant_from_value`](integer::variant_from_value)).
    pub fn plain<T: DeserializeOwned>(&mut self, label: &str, wrap: impl FnOnce(T) -> U) {
        self.read(label, |value| {
            integer::variant_from_value::<T>(value.clone()).map(|read| (wrap(read), true))
        });
    }

    /// Tries a struct variant, with whether it names every member of the value
    /// ([`struct_variant`](object::struct_variant)).
    pub fn whole<T: Object + DeserializeOwned>(&mut self, label: &str, wrap: impl FnOnce(T) -> U) {
        self.read(label, |value| {
            object::struct_variant::<T>(value).map(|(read, all)| (wrap(read), all))
        });
    }
}

/// Declares a `oneOf`/`anyOf` (generated code calls it as `unions::json!`).
///
/// After the derives, an optional `#[json(…)]` says how the union is read: `tag = "type"` (a
/// discriminator; `tag = "kind", integer` for integer tags), then any of `checked` (a server's
/// union: the first variant whose checks the value passes wins), `from_param` (the server reads
/// it from a parameter's text) and `to_param` (the client writes it as one). Each variant says
/// the tags that name it, how it is tried without a tag (`plain`, `whole` for a struct,
/// `whole_boxed` for a struct held in a `Box`) and, for a tagged union, how it writes its
/// tag: the first it lists, its own (`own`: a variant named by several tags that holds the
/// property) or `writes "Name"` (a variant no tag names). A last `#[unknown]` variant keeps
/// what no variant reads (the client's, written back unchanged).
///
/// ```ignore
/// unions::json! {
///     /// A tool.
///     #[derive(Debug, Clone, PartialEq)]
///     #[json(tag = "type")]
///     pub enum Tool {
///         #[json("code_interpreter", whole)]
///         Code(CodeTool),
///         #[json("function", whole)]
///         Function(FunctionTool),
///         #[unknown]
///         Unknown(serde_json::Value),
///     }
/// }
/// ```
///
/// It expands to the enum, `Serialize` (the variant's value, its tag put first),
/// `Deserialize` (by the tag as the input streams past, [`tagged::deserialize`](super::tagged),
/// or variant by variant, [`Trial`]) and the parameter impls: what every union printed is
/// written once here. The expansion names the runtime as the generated crate does,
/// `crate::runtime`.
#[doc(hidden)]
#[macro_export]
// `crate::runtime`, not `$crate`: the runtime as the calling crate names it (see `object::json!`).
#[allow(clippy::crate_in_macro_def)]
macro_rules! __apigen_json_union {
    (
        $(#[doc = $doc:literal])*
        #[derive($($derive:tt)*)]
        $(#[json($($opt:tt)*)])?
        $vis:vis enum $name:ident $body:tt
    ) => {
        // The options as one token tree, which every variant's expansion can name.
        $crate::__apigen_json_union!(@enum [$($($opt)*)?]
            $(#[doc = $doc])*
            #[derive($($derive)*)]
            $vis enum $name $body
        );
    };
    (@enum $opts:tt
        $(#[doc = $doc:literal])*
        #[derive($($derive:tt)*)]
        $vis:vis enum $name:ident {
            $(
                #[json($($tag:literal,)* $mode:ident $(, $($write:tt)*)?)]
                $variant:ident($ty:ty $(,)?),
            )*
            $(
                #[unknown]
                $unknown:ident(serde_json::Value),
            )?
        }
    ) => {
        $(#[doc = $doc])*
        #[derive($($derive)*)]
        #[allow(clippy::large_enum_variant)]
        $vis enum $name {
            $($variant($ty),)*
            $(
                /// A value this client does not know (a tag the document does not list, or a
                /// shape none of the variants reads), kept as sent; written back unchanged.
                $unknown(serde_json::Value),
            )?
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                match self {
                    $(
                        Self::$variant(value) => $crate::__apigen_json_union!(
                            @write value, serializer, $opts, [$($tag,)* $mode $(, $($write)*)?]
                        ),
                    )*
                    $(Self::$unknown(value) => serde::Serialize::serialize(value, serializer),)?
                }
            }
        }

        $crate::__apigen_json_union!(@read $name $opts
            [$([$variant, $ty, $mode, $($tag),*])*] [$($unknown)?]);
        $crate::__apigen_json_union!(@param $name $opts $opts [$($variant)*] [$($unknown)?]);
    };

    // How a variant writes itself: with the union's tag first, or as it is.
    (@write $value:ident, $s:ident, [tag = $property:literal $($opt:tt)*],
        [$($tag:literal,)* $mode:ident, own]) => {
        serde::Serialize::serialize($value, $s)
    };
    (@write $value:ident, $s:ident, [tag = $property:literal $($opt:tt)*],
        [$mode:ident, writes $written:literal]) => {
        crate::runtime::codegen::tagging::serialize_tagged($value, $property, &$written, $s)
    };
    (@write $value:ident, $s:ident, [tag = $property:literal $($opt:tt)*],
        [$first:literal, $($tag:literal,)* $mode:ident]) => {
        crate::runtime::codegen::tagging::serialize_tagged($value, $property, &$first, $s)
    };
    (@write $value:ident, $s:ident, [$($opt:tt)*], [$($variant:tt)*]) => {
        serde::Serialize::serialize($value, $s)
    };

    // Reading: by the tag, the variants tried in order when there is none.
    (@read $name:ident [tag = $property:literal $($opt:tt)*]
        [$([$variant:ident, $ty:ty, $mode:ident, $($tag:literal),*])*] [$($unknown:ident)?]) => {
        impl crate::runtime::codegen::tagged::Tagged for $name {
            const PROPERTY: &'static str = $property;
            const INTEGER: bool = $crate::__apigen_json_union!(@integer [tag = $property $($opt)*]);
            const KNOWN: &'static str = concat!($($("`", $tag, "`, ",)*)*);

            $crate::__apigen_json_union!(@variant [tag = $property $($opt)*]
                [$([$variant, $ty, $($tag),*])*]);

            fn untagged(value: serde_json::Value) -> Result<Self, String> {
                $crate::__apigen_json_union!(@trial $name, value, [tag = $property $($opt)*] [$([$variant, $mode])*] [$($unknown)?])
            }

            $(
                fn unknown(value: serde_json::Value) -> Option<Self> {
                    Some(Self::$unknown(value))
                }
            )?
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                crate::runtime::codegen::tagged::deserialize(deserializer)
            }
        }
    };
    (@read $name:ident [$($opt:tt)*]
        [$([$variant:ident, $ty:ty, $mode:ident, $($tag:literal),*])*] [$($unknown:ident)?]) => {
        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let value = <serde_json::Value as serde::Deserialize>::deserialize(deserializer)?;
                $crate::__apigen_json_union!(@trial $name, value, [$($opt)*] [$([$variant, $mode])*] [$($unknown)?])
                    .map_err(serde::de::Error::custom)
            }
        }
    };

    // The variant a tag names: a `match` on the tag's text or integer, as a person writes it.
    (@variant [tag = $property:literal, integer $($opt:tt)*]
        [$([$variant:ident, $ty:ty, $($tag:literal),*])*]) => {
        fn variant<'de, D: serde::Deserializer<'de>>(
            tag: crate::runtime::codegen::tagged::Tag<'_>,
            body: D,
        ) -> Result<Result<Self, D::Error>, D> {
            let crate::runtime::codegen::tagged::Tag::Integer(tag) = tag else {
                return Err(body);
            };
            match tag {
                $($($tag => Ok(<$ty as serde::Deserialize>::deserialize(body).map(Self::$variant)),)*)*
                _ => Err(body),
            }
        }
    };
    (@variant [tag = $property:literal $($opt:tt)*]
        [$([$variant:ident, $ty:ty, $($tag:literal),*])*]) => {
        fn variant<'de, D: serde::Deserializer<'de>>(
            tag: crate::runtime::codegen::tagged::Tag<'_>,
            body: D,
        ) -> Result<Result<Self, D::Error>, D> {
            let crate::runtime::codegen::tagged::Tag::Text(tag) = tag else {
                return Err(body);
            };
            match tag {
                $($($tag => Ok(<$ty as serde::Deserialize>::deserialize(body).map(Self::$variant)),)*)*
                _ => Err(body),
            }
        }
    };

    // The variants tried in order on a value read whole.
    (@trial $name:ident, $value:ident, [$($opt:tt)*] [$([$variant:ident, $mode:ident])*] [$($unknown:ident)?]) => {{
        let mut trial = crate::runtime::codegen::unions::Trial::new(
            $value,
            $crate::__apigen_json_union!(@checks [$($opt)*]),
        );
        $($crate::__apigen_json_union!(@try trial, $mode, $variant);)*
        $crate::__apigen_json_union!(@end trial, $name $(, $unknown)?)
    }};
    (@try $trial:ident, plain, $variant:ident) => {
        $trial.plain(stringify!($variant), Self::$variant)
    };
    (@try $trial:ident, whole, $variant:ident) => {
        $trial.whole(stringify!($variant), Self::$variant)
    };
    (@try $trial:ident, whole_boxed, $variant:ident) => {
        $trial.whole(stringify!($variant), |read| Self::$variant(Box::new(read)))
    };
    (@end $trial:ident, $name:ident) => {
        $trial.end(stringify!($name))
    };
    (@end $trial:ident, $name:ident, $unknown:ident) => {
        $trial.end_or_keep(stringify!($name), Self::$unknown)
    };

    // Whether tags are integers.
    (@integer [tag = $property:literal, integer $($opt:tt)*]) => { true };
    (@integer [$($opt:tt)*]) => { false };

    // The checks a variant's value must pass to win (`checked`: the server's `Validate`).
    (@checks [checked $($opt:tt)*]) => {
        Some(|value: &Self| {
            let mut errors = crate::runtime::codegen::validate::Violations::new();
            crate::runtime::codegen::validate::Validate::validate(value, "", &mut errors);
            errors.is_empty()
        })
    };
    (@checks [$first:tt $($opt:tt)*]) => { $crate::__apigen_json_union!(@checks [$($opt)*]) };
    (@checks []) => { None };

    // A union of scalars as a parameter: read from text (the server, the first variant that
    // reads it winning) or written as text (the client, a kept value as its JSON text, a
    // string as itself).
    (@param $name:ident $all:tt [from_param $($opt:tt)*] [$($variant:ident)*] [$($unknown:ident)?]) => {
        impl crate::runtime::codegen::params::FromParam for $name {
            fn from_param(raw: &str) -> Result<Self, String> {
                let mut trial = crate::runtime::codegen::unions::Trial::new(
                    raw,
                    $crate::__apigen_json_union!(@checks $all),
                );
                $(
                    trial.read(stringify!($variant), |raw| {
                        crate::runtime::codegen::params::FromParam::from_param(raw)
                            .map(|read| (Self::$variant(read), true))
                    });
                )*
                trial.end(stringify!($name))
            }
        }
    };
    (@param $name:ident $all:tt [to_param $($opt:tt)*] [$($variant:ident)*] [$($unknown:ident)?]) => {
        impl crate::runtime::codegen::request::ToParam for $name {
            fn to_param(&self) -> String {
                match self {
                    $(Self::$variant(value) => crate::runtime::codegen::request::ToParam::to_param(value),)*
                    $(
                        Self::$unknown(serde_json::Value::String(value)) => value.clone(),
                        Self::$unknown(value) => value.to_string(),
                    )?
                }
            }
        }
    };
    (@param $name:ident $all:tt [$first:tt $($opt:tt)*] $variants:tt $unknown:tt) => {
        $crate::__apigen_json_union!(@param $name $all [$($opt)*] $variants $unknown);
    };
    (@param $name:ident $all:tt [] $variants:tt $unknown:tt) => {};
}

pub use crate::__apigen_json_union as json;
