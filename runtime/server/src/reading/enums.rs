//! String enumerations declared by generated code and expanded here: the enum as written,
//! each variant with its value (`Available = "available"`), and the impls every such enum
//! has (`as_str`, `FromStr`, `Display`, `Serialize`, `Deserialize`, and a parameter's reading
//! or writing) printed once by [`string!`] rather than per enum.
//!
//! Decision: `docs/decisions/0012-enums-and-unions-declared.md`.

/// What a closed enum's `FromStr` says of a value it does not list:
/// `` expected one of `a`, `b`, got `c` ``.
pub fn not_one_of(values: &[&str], got: &str) -> String {
    let listed: Vec<String> = values.iter().map(|v| format!("`{v}`")).collect();
    format!("expected one of {}, got `{got}`", listed.join(", "))
}

/// Declares a string enumeration: the enum as written (its docs, derives and variants), each
/// variant with its value on the wire in the place of a discriminant (`Available =
/// "available",`: one line a value, as a person lists them).
///
/// With `#[unknown] Unknown(String),` last (the client's), the enum is open: a value it does
/// not list reads as `Unknown` and is written back as it came (a newer server may add
/// values), and it is written as a parameter (`ToParam`). Without it (the server's), a value it does not list
/// is refused (`expected one of …`), and it is read as a parameter (`FromParam`) and has the
/// empty `Validate` every checked value needs.
///
/// ```ignore
/// enums::string! {
///     /// Availability of an animal.
///     #[derive(Debug, Clone, PartialEq, Eq)]
///     #[non_exhaustive]
///     pub enum PetStatus {
///         /// `available`
///         Available = "available",
///         /// `sold`
///         Sold = "sold",
///         #[unknown]
///         Unknown(String),
///     }
/// }
/// ```
///
/// The expansion names the runtime as the generated crate does, `crate::runtime` (see
/// [`object::json!`](super::object::json)).
#[doc(hidden)]
#[macro_export]
// `crate::runtime`, not `$crate`: the runtime as the calling crate names it (when vendored,
// `$crate` is the generated crate, whose runtime is its `runtime` module).
#[allow(clippy::crate_in_macro_def)]
macro_rules! __apigen_string_enum {
    (
        $(#[$attr:meta])*
        $vis:vis enum $name:ident {
            $(
                $(#[doc = $doc:literal])*
                $variant:ident = $wire:literal,
            )*
            #[unknown]
            Unknown(String),
        }
    ) => {
        $(#[$attr])*
        $vis enum $name {
            $($(#[doc = $doc])* $variant,)*
            /// A value this client does not know (the server may have added it).
            Unknown(String),
        }

        impl $name {
            /// The value as it appears on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    $(Self::$variant => $wire,)*
                    Self::Unknown(other) => other,
                }
            }
        }

        impl std::str::FromStr for $name {
            type Err = std::convert::Infallible;

            fn from_str(value: &str) -> Result<Self, std::convert::Infallible> {
                Ok(match value {
                    $($wire => Self::$variant,)*
                    other => Self::Unknown(other.to_string()),
                })
            }
        }

        impl crate::runtime::codegen::request::ToParam for $name {
            fn to_param(&self) -> String {
                self.as_str().to_string()
            }

            fn push_encoded(&self, out: &mut String) {
                crate::runtime::codegen::request::ToParam::push_encoded(self.as_str(), out);
            }
        }

        $crate::__apigen_string_enum!(@common $name crate::runtime::codegen::response::from_str_value);
    };
    (
        $(#[$attr:meta])*
        $vis:vis enum $name:ident {
            $(
                $(#[doc = $doc:literal])*
                $variant:ident = $wire:literal,
            )*
        }
    ) => {
        $(#[$attr])*
        $vis enum $name {
            $($(#[doc = $doc])* $variant,)*
        }

        impl $name {
            /// The value as it appears on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    $(Self::$variant => $wire,)*
                }
            }
        }

        impl std::str::FromStr for $name {
            type Err = String;

            fn from_str(value: &str) -> Result<Self, String> {
                match value {
                    $($wire => Ok(Self::$variant),)*
                    other => Err(crate::runtime::codegen::enums::not_one_of(&[$($wire),*], other)),
                }
            }
        }

        impl crate::runtime::codegen::params::FromParam for $name {
            fn from_param(raw: &str) -> Result<Self, String> {
                raw.parse()
            }
        }

        impl crate::runtime::codegen::validate::Validate for $name {
            fn validate(&self, _pointer: &str, _out: &mut crate::runtime::codegen::validate::Violations) {}
        }

        $crate::__apigen_string_enum!(@common $name crate::runtime::codegen::body::from_str_value);
    };
    // Crates generated for runtimes before 0.4 (client) and 0.3 (server) put each value in an
    // attribute above its variant (`#[json("available")]` and `Available,`): the same enum.
    (
        $(#[$attr:meta])*
        $vis:vis enum $name:ident {
            $(
                $(#[doc = $doc:literal])*
                #[json($wire:literal)]
                $variant:ident,
            )*
            Unknown(String),
        }
    ) => {
        $crate::__apigen_string_enum! {
            $(#[$attr])*
            $vis enum $name {
                $($(#[doc = $doc])* $variant = $wire,)*
                #[unknown]
                Unknown(String),
            }
        }
    };
    (
        $(#[$attr:meta])*
        $vis:vis enum $name:ident {
            $(
                $(#[doc = $doc:literal])*
                #[json($wire:literal)]
                $variant:ident,
            )*
        }
    ) => {
        $crate::__apigen_string_enum! {
            $(#[$attr])*
            $vis enum $name {
                $($(#[doc = $doc])* $variant = $wire,)*
            }
        }
    };
    (@common $name:ident $($from_str_value:ident)::+) => {
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                $($from_str_value)::+(deserializer)
            }
        }
    };
}

#[doc(inline)]
pub use crate::__apigen_string_enum as string;

#[cfg(test)]
mod tests {
    #[test]
    fn a_value_not_listed_is_named_with_the_listed_ones() {
        assert_eq!(
            super::not_one_of(&["available", "sold"], "gone"),
            "expected one of `available`, `sold`, got `gone`"
        );
        assert_eq!(super::not_one_of(&[""], "x"), "expected one of ``, got `x`");
    }
}
