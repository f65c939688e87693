//! A `oneOf`/`anyOf` declared (`unions::json!`): the enum, its serde impls, its reading by a
//! discriminator or variant by variant ([`Trial`]), and, for a union of scalars, its reading
//! from and writing as a parameter's text. Shared by the client and server runtimes.
//!
//! Decision: `docs/decisions/0012-enums-and-unions-declared.md`.

use super::integer;
use super::object::Object;
use serde::de::{self, DeserializeOwned, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use std::fmt::{self, Display};

/// The variants of a union tried in order on one input (a JSON value's text, [`Json`], or a
/// parameter's text), the first that reads it winning.
///
/// With checks (a server's union whose variants hold constraints), the first whose checks the
/// value also passes wins, else the first that read it (whose checks then refuse it): variants
/// told apart by constraints alone (nexus's `IpNet`, an IPv4 or an IPv6 net, both strings, by
/// `pattern`) are read as the one the value fits. A struct variant that would drop members of
/// the value ([`Json::names_all`]) is taken only when no later variant names them all
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
        if self.found.is_none() {
            let read = read(&self.input).map_err(|e| e.to_string());
            self.settle(label, read);
        }
    }

    /// Keeps what one variant read, or why it refused: the part of [`read`](Self::read) that
    /// is the same for every variant, so it is compiled once a union, not once a variant.
    fn settle(&mut self, label: &str, read: Result<(U, bool), String>) {
        match read {
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

impl<U> Trial<Json, U> {
    /// Tries a variant read from the value's text
    /// ([`variant_from_text`](integer::variant_from_text)).
    pub fn plain<T: DeserializeOwned>(&mut self, label: &str, wrap: impl FnOnce(T) -> U) {
        if self.found.is_none() {
            let read = integer::variant_from_text::<T>(&self.input.0);
            self.settle(
                label,
                read.map(|read| (wrap(read), true))
                    .map_err(|e| e.to_string()),
            );
        }
    }

    /// Tries a struct variant, with whether it names every member of the value
    /// ([`Json::names_all`]).
    pub fn whole<T: Object + DeserializeOwned>(&mut self, label: &str, wrap: impl FnOnce(T) -> U) {
        if self.found.is_none() {
            let read = integer::variant_from_text::<T>(&self.input.0);
            let read = read.map(|read| (wrap(read), self.input.names_all(T::index)));
            self.settle(label, read.map_err(|e| e.to_string()));
        }
    }
}

/// A union's input as JSON text, which each variant is read from by the deserializer every
/// type already has ([`integer::from_slice`]'s).
///
/// Trying the variants on a parsed `serde_json::Value` compiled every type a union can hold
/// for a second deserializer, the `Value`'s (13 % of the OpenAI client's LLVM IR, `cargo
/// llvm-lines`; decision 0043). The text is the input's own bytes where the
/// deserializer is serde_json's (its raw-value path: a number keeps every digit), else the
/// value read and written again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Json(String);

/// The name serde_json gives the newtype through which it hands out a value's raw text
/// (`serde_json::value::RawValue`'s own `Deserialize` asks for it). A deserializer that does
/// not know it hands out the value, which is read and written again: slower, as right.
const RAW_VALUE: &str = "$serde_json::private::RawValue";

impl Json {
    /// An object of these entries, in this order (a key twice stays twice, for the struct
    /// reading it to refuse).
    pub(crate) fn object(entries: impl IntoIterator<Item = (String, Json)>) -> Json {
        let mut text = String::from("{");
        for (key, value) in entries {
            if text.len() > 1 {
                text.push(',');
            }
            text.push_str(&Value::from(key).to_string());
            text.push(':');
            text.push_str(&value.0);
        }
        text.push('}');
        Json(text)
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The value the text spells (the client's `Unknown` keeps it); the text is always one
    /// JSON value, so the fallback, the text as a string, is never taken.
    pub fn into_value(self) -> Value {
        serde_json::from_str(&self.0).unwrap_or(Value::String(self.0))
    }

    /// Whether `index` (a struct's [`Object::index`]) knows every member of the value;
    /// anything but an object: yes. A union tries a struct variant that would drop members
    /// only after the others.
    pub fn names_all(&self, index: fn(&str) -> Option<usize>) -> bool {
        /// Reads an object's keys, skipping its values (all of them: serde_json refuses an
        /// object left unfinished).
        struct Names(fn(&str) -> Option<usize>);
        impl<'de> Visitor<'de> for Names {
            type Value = bool;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
                let mut all = true;
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    all &= (self.0)(&key).is_some();
                    map.next_value::<IgnoredAny>()?;
                }
                Ok(all)
            }
        }
        let mut de = serde_json::Deserializer::from_str(&self.0);
        // Anything but an object (which `Names` refuses): nothing to drop.
        de::Deserializer::deserialize_any(&mut de, Names(index)).unwrap_or(true)
    }
}

impl From<Value> for Json {
    fn from(value: Value) -> Json {
        Json(value.to_string())
    }
}

impl<'de> serde::Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Json, D::Error> {
        deserializer.deserialize_newtype_struct(RAW_VALUE, JsonVisitor)
    }
}

/// Takes the raw text serde_json hands out, or any value to write again.
struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Json, E> {
        Ok(Json::from(Value::Bool(v)))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Json, E> {
        Ok(Json::from(Value::from(v)))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Json, E> {
        Ok(Json::from(Value::from(v)))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Json, E> {
        Ok(Json::from(Value::from(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Json, E> {
        Ok(Json::from(Value::from(v)))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Json, E> {
        Ok(Json("null".to_owned()))
    }

    fn visit_none<E: de::Error>(self) -> Result<Json, E> {
        self.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Json, D::Error> {
        serde::Deserialize::deserialize(d)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Json, D::Error> {
        <Value as serde::Deserialize>::deserialize(d).map(Json::from)
    }

    // An array's or object's members are read as `Json` each, so that those the deserializer
    // has as text (a tagged union's stream hands its variant the input's own map) keep it.
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut text = String::from("[");
        while let Some(item) = seq.next_element::<Json>()? {
            if text.len() > 1 {
                text.push(',');
            }
            text.push_str(&item.0);
        }
        text.push(']');
        Ok(Json(text))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let first = match map.next_key::<FirstKey>()? {
            None => return Ok(Json("{}".to_owned())),
            Some(FirstKey::Raw) => return map.next_value::<String>().map(Json),
            Some(FirstKey::Member(key)) => key,
        };
        let mut entries = vec![(first, map.next_value::<Json>()?)];
        while let Some(entry) = map.next_entry::<String, Json>()? {
            entries.push(entry);
        }
        Ok(Json::object(entries))
    }
}

/// A map's first key: serde_json's raw-value name (told without copying it), or a member's.
enum FirstKey {
    Raw,
    Member(String),
}

impl<'de> serde::Deserialize<'de> for FirstKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<FirstKey, D::Error> {
        deserializer.deserialize_str(FirstKeyVisitor)
    }
}

struct FirstKeyVisitor;

impl<'de> Visitor<'de> for FirstKeyVisitor {
    type Value = FirstKey;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a property name")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<FirstKey, E> {
        Ok(if v == RAW_VALUE {
            FirstKey::Raw
        } else {
            FirstKey::Member(v.to_owned())
        })
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<FirstKey, E> {
        Ok(if v == RAW_VALUE {
            FirstKey::Raw
        } else {
            FirstKey::Member(v)
        })
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

            fn untagged<E: serde::de::Error>(
                input: crate::runtime::codegen::unions::Json,
            ) -> Result<Self, E> {
                $crate::__apigen_json_union!(@trial $name, input, [tag = $property $($opt)*] [$([$variant, $mode])*] [$($unknown)?])
                    .map_err(E::custom)
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
                let input = <crate::runtime::codegen::unions::Json as serde::Deserialize>::deserialize(
                    deserializer,
                )?;
                $crate::__apigen_json_union!(@trial $name, input, [$($opt)*] [$([$variant, $mode])*] [$($unknown)?])
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

    // The variants tried in order on the value's text.
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
        $trial.end_or_keep(stringify!($name), |input| Self::$unknown(input.into_value()))
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
