//! Owns how JSON numbers reach integer fields: a number with a zero fractional part (`1.0`,
//! `-18114.0`, `1e3`) is an integer, as JSON Schema 2020-12 (OpenAPI 3.1) defines `integer`,
//! and serde alone refuses it. `1.5` and values outside the field's type are still refused,
//! with serde's message (`invalid type: floating point `1.5`, expected i64`).
//!
//! Such a number arrives as a double, exact only up to 2^53 in magnitude: beyond that,
//! `-9223372036854775809` (past `i64`, so read as a double) would round to `i64::MIN`. So a
//! whole number written with a fraction or exponent is taken up to ±2^53 (JavaScript's safe
//! integers) and refused beyond; integers written as plain digits are read exactly, as
//! serde_json reads them.
//!
//! The rule is the same for every document version (the runtime does not know the version,
//! and 3.0's JSON Schema draft is read the same way by lenient validators): see
//! book/src/reference/type-mapping.md. [`WholeNumbers`] wraps any serde deserializer and only changes what an integer
//! field receives; everything else (strings, floats, `serde_json::Value` fields) passes
//! through untouched, so a free-form `1.0` stays `1.0`.
//!
//! The same wrapper keeps JSON objects maps: a derived `Deserialize` of a struct also reads
//! serde's sequence form, the field values in order, so `[null, null]` would be taken for a
//! struct of two optional fields. A struct is only ever an object in a document, so a sequence
//! where a struct is asked for is refused (`invalid type: sequence, expected struct Pet`), in
//! every generated type at any depth, without a line of generated code.
//!
//! Inside [`text_scalars`] it also reads numbers and booleans written as text (`"420"` for a
//! `number`): a form's values are all text, and a type that buffers its input first (a
//! `oneOf` tries its variants on the value's text) would otherwise meet `"420"` where its
//! variant's field wants a number. Outside it, a string is only ever a string.
//!
//! Decision: `docs/decisions/0019-integers-written-as-whole-numbers.md`.

use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess,
    VariantAccess, Visitor,
};
use std::cell::Cell;
use std::fmt;

thread_local! {
    /// Whether [`text_scalars`] is running on this thread.
    static TEXT_SCALARS: Cell<bool> = const { Cell::new(false) };
    /// Whether [`from_checked_value`] is running on this thread.
    static FROM_DOUBLES: Cell<bool> = const { Cell::new(false) };
    /// How many unions are trying a variant on this thread ([`variant_from_text`]).
    static UNION_TRIALS: Cell<u32> = const { Cell::new(0) };
}

/// A union's variant read from the value's text ([`from_slice`], the one deserializer every
/// type is compiled for), marked as a trial while it runs: a union inside it does not fall
/// back to its `Unknown` variant (the client's forward-compatible unions) but fails, so that
/// the outer union tries its next variant and only the outermost keeps a value nothing reads
/// as `Unknown`.
pub fn variant_from_text<T: DeserializeOwned>(text: &str) -> serde_json::Result<T> {
    /// Ends the trial, also when the decode panics.
    struct End;
    impl Drop for End {
        fn drop(&mut self) {
            UNION_TRIALS.set(UNION_TRIALS.get().saturating_sub(1));
        }
    }
    UNION_TRIALS.set(UNION_TRIALS.get() + 1);
    let _end = End;
    from_slice(text.as_bytes())
}

/// Whether a union's variant is being tried on this thread (see [`variant_from_text`]): a
/// union read then keeps no value as `Unknown`.
pub fn in_union_trial() -> bool {
    UNION_TRIALS.get() > 0
}

/// Runs `f` (a synchronous decode) with numbers and booleans written as text read as what
/// they spell, by every [`WholeNumbers`] on this thread: how form values, which are all text,
/// reach the fields of a type that buffers them first.
pub fn text_scalars<R>(f: impl FnOnce() -> R) -> R {
    scalars_as_text(true, f)
}

/// Runs `f` with strings read as strings again, inside [`text_scalars`]: a JSON value
/// carried by a form (a multipart part holding an object) writes its numbers as numbers,
/// so `{"pages": "5"}` there is a string where a number belongs, as in a JSON body.
pub fn json_scalars<R>(f: impl FnOnce() -> R) -> R {
    scalars_as_text(false, f)
}

/// Whether [`text_scalars`] is running on this thread (and [`json_scalars`] not inside it).
pub(crate) fn reading_text() -> bool {
    TEXT_SCALARS.get()
}

/// Runs `f` with [`TEXT_SCALARS`] set to `on`, and puts the previous state back after.
fn scalars_as_text<R>(on: bool, f: impl FnOnce() -> R) -> R {
    /// Puts the previous state back, also when `f` panics.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            TEXT_SCALARS.set(self.0);
        }
    }
    let _restore = Restore(TEXT_SCALARS.replace(on));
    f()
}

/// Decodes JSON bytes into `T`, integers written as whole numbers included.
pub fn from_slice<T: DeserializeOwned>(bytes: &[u8]) -> serde_json::Result<T> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = T::deserialize(WholeNumbers(&mut de))?;
    de.end()?;
    Ok(value)
}

/// A decode that failed: where in the value, and what was wrong there.
#[derive(Debug)]
pub struct Located {
    /// The JSON pointer of the value that failed (`/choices/0/message`); empty for the whole
    /// document (a syntax error, or trailing bytes after it).
    pub pointer: String,
    /// What serde_json reported there.
    pub error: serde_json::Error,
}

/// [`from_slice`], naming the place of a failure ([`Located::pointer`]).
///
/// The value is decoded once, as `from_slice` does; only a failure is decoded again with
/// the path tracked (`serde_path_to_error` wraps every visitor, which would slow every
/// successful decode). Both passes run the same readers, so the second fails where the
/// first did. A union reads its variants from a buffered value, so a pointer ends at the
/// union.
pub fn from_slice_located<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Located> {
    match from_slice(bytes) {
        Ok(value) => Ok(value),
        Err(first) => Err(locate::<T>(bytes).unwrap_or(Located {
            pointer: String::new(),
            error: first,
        })),
    }
}

/// The located failure of decoding `bytes` as `T`; `None` when this pass succeeds (it
/// cannot, where the first failed; the first's error is kept then).
fn locate<T: DeserializeOwned>(bytes: &[u8]) -> Option<Located> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let result: Result<T, serde_path_to_error::Error<serde_json::Error>> =
        serde_path_to_error::deserialize(WholeNumbers(&mut de));
    match result {
        Err(e) => Some(Located {
            pointer: pointer_of(e.path()),
            error: e.into_inner(),
        }),
        Ok(_) => de.end().err().map(|error| Located {
            pointer: String::new(),
            error,
        }),
    }
}

/// A path as a JSON pointer (RFC 6901: `~` and `/` in a key escaped as `~0` and `~1`).
pub(crate) fn pointer_of(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut pointer = String::new();
    for segment in path.iter() {
        pointer.push('/');
        match segment {
            Segment::Seq { index } => pointer.push_str(&index.to_string()),
            Segment::Map { key } => pointer.push_str(&key.replace('~', "~0").replace('/', "~1")),
            Segment::Enum { variant } => pointer.push_str(variant),
            Segment::Unknown => pointer.push('?'),
        }
    }
    pointer
}

/// Decodes a JSON value into `T`, integers written as whole numbers included (generated
/// `oneOf` types try their variants with it).
pub fn from_value<T: DeserializeOwned>(value: serde_json::Value) -> serde_json::Result<T> {
    T::deserialize(WholeNumbers(value))
}

/// [`from_value`] on a value parsed from bytes that are still at hand (a body held to its
/// schema): a [`Decimal`](super::decimal::Decimal) refuses to be read from it, since the
/// value's numbers are doubles, so that the caller decodes the bytes instead and every digit
/// is kept.
#[allow(dead_code)] // The client has no held bodies.
pub(crate) fn from_checked_value<T: DeserializeOwned>(
    value: serde_json::Value,
) -> serde_json::Result<T> {
    /// Clears the flag, also when the decode panics.
    struct End(bool);
    impl Drop for End {
        fn drop(&mut self) {
            FROM_DOUBLES.set(self.0);
        }
    }
    let _end = End(FROM_DOUBLES.replace(true));
    from_value(value)
}

/// Whether [`from_checked_value`] is running on this thread.
pub(crate) fn numbers_are_doubles() -> bool {
    FROM_DOUBLES.get()
}

/// `T::deserialize` through [`WholeNumbers`], for fields serde fills from its own buffer
/// (a `#[serde(flatten)]` map of extra properties: `deserialize_with` names this function).
pub fn deserialize<'de, D: Deserializer<'de>, T: de::Deserialize<'de>>(
    deserializer: D,
) -> Result<T, D::Error> {
    T::deserialize(WholeNumbers(deserializer))
}

/// The value of a whole number written as text (a parameter or form value such as `1.0` or
/// `1e3`), when the text is a JSON number and its value has no fractional part and is within
/// ±2^53; `None` otherwise (`1.5`, `1e300`, `inf`, `0x10`, ` 1`).
pub fn whole_text(text: &str) -> Option<f64> {
    if !is_json_number(text) {
        return None;
    }
    text.parse::<f64>().ok().filter(|v| is_safe_whole(*v))
}

/// A whole number (from [`whole_text`]) as `T`, when `T` holds it exactly.
pub fn exact<T: TryFrom<i64>>(whole: f64) -> Option<T> {
    if is_safe_whole(whole) {
        T::try_from(whole as i64).ok()
    } else {
        None
    }
}

/// The JSON number grammar (RFC 8259): `-`? int (`.` digits)? ([eE] [+-]? digits)?.
fn is_json_number(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i > start
    };
    let int_start = i;
    if !digits(&mut i) || (b[int_start] == b'0' && i - int_start > 1) {
        return false;
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        if !digits(&mut i) {
            return false;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if !digits(&mut i) {
            return false;
        }
    }
    i == b.len()
}

/// Whole and within ±2^53, where every integer is a double and every double an exact integer.
fn is_safe_whole(v: f64) -> bool {
    v.fract() == 0.0 && v.abs() <= SAFE
}

/// 2^53.
const SAFE: f64 = 9_007_199_254_740_992.0;

/// A deserializer that hands integer fields whole-valued floats as integers.
pub struct WholeNumbers<D>(pub D);

/// Forwards a `deserialize_*` call with the visitor wrapped.
macro_rules! forward {
    ($($method:ident),* $(,)?) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
            self.0.$method(Wrap::new(visitor))
        }
    )*};
}

/// An integer target asks for any value: serde's own buffer (behind `flatten`) refuses a
/// float when asked for an integer without showing it to the visitor, and for JSON both
/// requests read the same.
macro_rules! integer {
    ($($method:ident),* $(,)?) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
            self.0.deserialize_any(Wrap { visitor, target: Target::Integer })
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for WholeNumbers<D> {
    type Error = D::Error;

    integer!(
        deserialize_i8,
        deserialize_i16,
        deserialize_i32,
        deserialize_i64,
        deserialize_i128,
        deserialize_u8,
        deserialize_u16,
        deserialize_u32,
        deserialize_u64,
        deserialize_u128
    );
    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        if TEXT_SCALARS.get() {
            let target = Target::Bool;
            return self.0.deserialize_any(Wrap { visitor, target });
        }
        self.0.deserialize_bool(Wrap::new(visitor))
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        if TEXT_SCALARS.get() {
            let target = Target::Float;
            return self.0.deserialize_any(Wrap { visitor, target });
        }
        self.0.deserialize_f32(Wrap::new(visitor))
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        if TEXT_SCALARS.get() {
            let target = Target::Float;
            return self.0.deserialize_any(Wrap { visitor, target });
        }
        self.0.deserialize_f64(Wrap::new(visitor))
    }

    forward!(
        deserialize_any,
        deserialize_char,
        deserialize_str,
        deserialize_string,
        deserialize_bytes,
        deserialize_byte_buf,
        deserialize_option,
        deserialize_unit,
        deserialize_seq,
        deserialize_map,
        deserialize_identifier,
        deserialize_ignored_any
    );

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.deserialize_unit_struct(name, Wrap::new(visitor))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.deserialize_newtype_struct(name, Wrap::new(visitor))
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.deserialize_tuple(len, Wrap::new(visitor))
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0
            .deserialize_tuple_struct(name, len, Wrap::new(visitor))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        let visitor = Wrap {
            visitor,
            target: Target::Struct,
        };
        self.0.deserialize_struct(name, fields, visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.deserialize_enum(name, variants, Wrap::new(visitor))
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

/// The caller's visitor, with nested values wrapped again; for an integer target, a
/// whole-valued float passed on as an integer; for a struct, a sequence refused.
struct Wrap<V> {
    visitor: V,
    target: Target,
}

/// What the caller's `deserialize_*` call asked for, where it matters.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    Integer,
    Struct,
    /// A float or a boolean asked for inside [`text_scalars`] (outside it, these ask for
    /// what they want and the target is `Other`).
    Float,
    Bool,
    Other,
}

impl<V> Wrap<V> {
    fn new(visitor: V) -> Self {
        Wrap {
            visitor,
            target: Target::Other,
        }
    }
}

macro_rules! pass {
    ($($method:ident: $t:ty),* $(,)?) => {$(
        fn $method<E: de::Error>(self, v: $t) -> Result<V::Value, E> {
            self.visitor.$method(v)
        }
    )*};
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Wrap<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.visitor.expecting(f)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<V::Value, E> {
        if self.target != Target::Integer || !v.is_finite() || v.fract() != 0.0 {
            return self.visitor.visit_f64(v); // refused as a fraction, as before
        }
        // The visitor checks its own type's range (`300.0` for a `u8` is "invalid value:
        // integer `300`, expected u8"); beyond 2^53 the double may not be what was written.
        if is_safe_whole(v) {
            self.visitor.visit_i64(v as i64)
        } else {
            Err(E::invalid_value(de::Unexpected::Float(v), &self))
        }
    }

    fn visit_f32<E: de::Error>(self, v: f32) -> Result<V::Value, E> {
        self.visit_f64(f64::from(v))
    }

    pass!(visit_bool: bool, visit_i8: i8, visit_i16: i16, visit_i32: i32, visit_i64: i64,
        visit_i128: i128, visit_u8: u8, visit_u16: u16, visit_u32: u32, visit_u64: u64,
        visit_u128: u128, visit_char: char, visit_bytes: &[u8], visit_borrowed_bytes: &'de [u8],
        visit_byte_buf: Vec<u8>);

    fn visit_str<E: de::Error>(self, v: &str) -> Result<V::Value, E> {
        if let Some(scalar) = self.spelled(v) {
            return self.scalar(scalar);
        }
        self.visitor.visit_str(v)
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<V::Value, E> {
        if let Some(scalar) = self.spelled(v) {
            return self.scalar(scalar);
        }
        self.visitor.visit_borrowed_str(v)
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<V::Value, E> {
        if let Some(scalar) = self.spelled(&v) {
            return self.scalar(scalar);
        }
        self.visitor.visit_string(v)
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.visitor.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.visitor.visit_unit()
    }

    // The inner value's own `deserialize_*` call says again whether it is an integer.
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.visitor.visit_some(WholeNumbers(d))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.visitor.visit_newtype_struct(WholeNumbers(d))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        if self.target == Target::Struct {
            return Err(refuse_array(seq, &self));
        }
        self.visitor.visit_seq(WholeNumbers(seq))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.visitor.visit_map(WholeNumbers(map))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.visitor.visit_enum(WholeNumbers(data))
    }
}

impl<V> Wrap<V> {
    /// What a string spells for this target ([`spelled`]): checked inline first, since a
    /// string asked for as a string (nearly every one) spells nothing, and a call per string
    /// cost 5 % of a decode's instructions.
    #[inline(always)]
    fn spelled(&self, v: &str) -> Option<Scalar> {
        match self.target {
            Target::Struct | Target::Other => None,
            target if TEXT_SCALARS.get() => spelled(v, target),
            _ => None,
        }
    }

    /// Hands the visitor what a string spelled ([`spelled`]).
    fn scalar<'de, E: de::Error>(self, scalar: Scalar) -> Result<V::Value, E>
    where
        V: Visitor<'de>,
    {
        match scalar {
            Scalar::Signed(n) => self.visitor.visit_i64(n),
            Scalar::Unsigned(n) => self.visitor.visit_u64(n),
            Scalar::Float(n) => self.visitor.visit_f64(n),
            Scalar::Bool(b) => self.visitor.visit_bool(b),
        }
    }
}

/// A number or boolean written as text, as [`spelled`] reads it.
enum Scalar {
    Signed(i64),
    Unsigned(u64),
    Float(f64),
    Bool(bool),
}

/// What a string read for `target` spells inside [`text_scalars`]: a number or a boolean
/// where one is asked for; `None` where the text is just text. Not generic, so
/// compiled once, not once for each type's visitor.
fn spelled(v: &str, target: Target) -> Option<Scalar> {
    // Only a number's JSON spelling is a number (`007`, `+7` and `1_000` stay text: a form's
    // `nonce` of 26 zeros is a string too long, not the integer 0).
    if !(is_json_number(v) || target == Target::Bool) {
        return None;
    }
    match target {
        Target::Integer => v
            .parse::<i64>()
            .map(Scalar::Signed)
            .or_else(|_| v.parse::<u64>().map(Scalar::Unsigned))
            .ok()
            .or_else(|| whole_text(v).map(|whole| Scalar::Signed(whole as i64))),
        Target::Float => v.parse::<f64>().ok().map(Scalar::Float),
        Target::Bool => v.parse::<bool>().ok().map(Scalar::Bool),
        Target::Struct | Target::Other => None,
    }
}

/// The error for an array where a struct is asked for, after reading the array to its end,
/// so that a malformed one is the syntax error it is.
fn refuse_array<'de, A: SeqAccess<'de>>(mut seq: A, expected: &dyn de::Expected) -> A::Error {
    loop {
        match seq.next_element::<de::IgnoredAny>() {
            Ok(Some(_)) => {}
            Ok(None) => return de::Error::invalid_type(de::Unexpected::Seq, expected),
            Err(e) => return e,
        }
    }
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for WholeNumbers<S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(WholeNumbers(d))
    }
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for WholeNumbers<A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        self.0.next_element_seed(WholeNumbers(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for WholeNumbers<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(WholeNumbers(seed))
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        self.0.next_value_seed(WholeNumbers(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: EnumAccess<'de>> EnumAccess<'de> for WholeNumbers<A> {
    type Error = A::Error;
    type Variant = WholeNumbers<A::Variant>;

    fn variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<(T::Value, Self::Variant), A::Error> {
        let (value, variant) = self.0.variant_seed(WholeNumbers(seed))?;
        Ok((value, WholeNumbers(variant)))
    }
}

impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for WholeNumbers<A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        self.0.unit_variant()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.0.newtype_variant_seed(WholeNumbers(seed))
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.0.tuple_variant(len, Wrap::new(visitor))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.0.struct_variant(fields, Wrap::new(visitor))
    }
}
