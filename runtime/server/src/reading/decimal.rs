//! Numbers that keep every digit: [`Decimal`], the type of `format: decimal` and
//! `decimal128` numbers and of integers wider than 64 bits (`int128`, `uint128`, `bigint`).
//!
//! An `f64` keeps 17 significant digits, so `903275809834567386763` would arrive as
//! `903275809834567300000` and `0.1 + 0.2` money would drift. A `Decimal` holds the number's
//! text as it was written (validated as a JSON number), is written back as that JSON number,
//! and compares, orders and hashes by value (`1.50 == 1.5`). It reads and writes through
//! serde_json's `RawValue` (the `raw_value` feature), so no big-number crate and no
//! `arbitrary_precision` (which every number of every decode would pay for) is needed.
//!
//! Arithmetic is the caller's: convert with [`Decimal::as_str`] into the decimal crate your
//! code already uses (`rust_decimal`, `bigdecimal`), or [`Decimal::to_f64`] where a double is
//! enough. A `Decimal` read from a `serde_json::Value` (whose numbers are doubles: a union
//! trying its variants) gets the double's digits. The server's bound and `multipleOf` checks ([`Decimal::cmp_text`],
//! [`Decimal::is_multiple_of`]) are exact.
//!
//! Decision: `docs/decisions/0035-decimal-numbers.md`.

use serde::de::{self, Deserialize, Deserializer};
use serde::ser::{Serialize, Serializer};
use serde_json::value::RawValue;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

/// A number kept as the text it was written with: see the [module docs](self).
#[derive(Clone)]
pub struct Decimal(Box<str>);

/// A text that is not a JSON number (`1.5`, `-2`, `3e-7`; no `+`, no leading zeros, no `.5`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseDecimalError(());

impl fmt::Display for ParseDecimalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a decimal number (digits, an optional fraction and exponent)")
    }
}

impl std::error::Error for ParseDecimalError {}

impl Decimal {
    /// The number written as `text`, which must be a JSON number.
    pub fn new(text: impl Into<String>) -> Result<Decimal, ParseDecimalError> {
        let text = text.into();
        if split(&text).is_none() {
            return Err(ParseDecimalError(()));
        }
        Ok(Decimal(text.into_boxed_str()))
    }

    /// A number known to be valid (the generated code's defaults, written by the generator
    /// from the document).
    ///
    /// # Panics
    /// When `text` is not a JSON number.
    pub fn from_static(text: &'static str) -> Decimal {
        match Decimal::new(text) {
            Ok(d) => d,
            Err(_) => panic!("not a decimal number: {text}"),
        }
    }

    /// The text as written (`1.50`, `9.03e20`).
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The nearest double (digits beyond 17 are lost).
    pub fn to_f64(&self) -> f64 {
        self.0.parse().unwrap_or(f64::NAN)
    }

    /// Whether the value is a whole number (`12`, `1.0`, `3e2`): what an integer of more than
    /// 64 bits held in a `Decimal` must be.
    pub fn is_integer(&self) -> bool {
        let n = self.normal();
        n.digits.is_empty() || n.exponent >= n.digits.len() as i64
    }

    /// Compares with a number written as `text` (a bound of the document): exact, digit by
    /// digit. `None` when `text` is not a number.
    pub fn cmp_text(&self, text: &str) -> Option<Ordering> {
        Some(self.normal().cmp(&Normal::of(text)?))
    }

    /// Whether the value is an exact multiple of the number written as `factor` (JSON Schema's
    /// `multipleOf`, whose factor is greater than 0). `None` when `factor` is not a positive
    /// number of at most 38 significant digits.
    pub fn is_multiple_of(&self, factor: &str) -> Option<bool> {
        let value = self.normal();
        let factor = Normal::of(factor)?;
        if factor.negative || factor.digits.is_empty() || factor.digits.len() > 38 {
            return None;
        }
        if value.digits.is_empty() {
            return Some(true);
        }
        // value = A·10^p and factor = B·10^q, A and B whole without trailing zeros.
        let b: u128 = factor.digits.parse().ok()?;
        let p = value.exponent - value.digits.len() as i64;
        let q = factor.exponent - factor.digits.len() as i64;
        if p < q {
            // A/(B·10^(q-p)) is whole only if 10 divides A, which has no trailing zero.
            return Some(false);
        }
        // A·10^(p-q) mod B, by long division over A's digits then by 10^(p-q) mod B.
        let mut rem: u128 = 0;
        for d in value.digits.bytes() {
            rem = mul_mod(rem, 10, b);
            rem = (rem + u128::from(d - b'0')) % b;
        }
        Some(mul_mod(rem, pow_mod(10, (p - q) as u64, b), b) == 0)
    }

    fn normal(&self) -> Normal<'_> {
        Normal::of(&self.0).expect("a Decimal holds a number")
    }
}

/// Whether `text` is a JSON number (`format: decimal` on a string is held to this).
pub fn is_decimal(text: &str) -> bool {
    split(text).is_some()
}

/// `a·b mod m` without overflow (a < m < 2^127).
fn mul_mod(mut a: u128, mut b: u128, m: u128) -> u128 {
    let mut out = 0u128;
    while b > 0 {
        if b & 1 == 1 {
            out = (out + a) % m;
        }
        a = (a << 1) % m;
        b >>= 1;
    }
    out
}

/// `base^exp mod m`.
fn pow_mod(base: u128, mut exp: u64, m: u128) -> u128 {
    let mut out = 1 % m;
    let mut base = base % m;
    while exp > 0 {
        if exp & 1 == 1 {
            out = mul_mod(out, base, m);
        }
        base = mul_mod(base, base, m);
        exp >>= 1;
    }
    out
}

/// A JSON number's parts: sign, integer digits, fraction digits, exponent; `None` when the
/// text is not one.
fn split(text: &str) -> Option<(bool, &str, &str, i64)> {
    let (negative, rest) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let int_len = rest.bytes().take_while(u8::is_ascii_digit).count();
    let (int, rest) = rest.split_at(int_len);
    if int.is_empty() || int.len() > 1 && int.starts_with('0') {
        return None;
    }
    let (frac, rest) = match rest.strip_prefix('.') {
        Some(after) => {
            let len = after.bytes().take_while(u8::is_ascii_digit).count();
            if len == 0 {
                return None;
            }
            after.split_at(len)
        }
        None => ("", rest),
    };
    let exponent = match rest.strip_prefix(['e', 'E']) {
        Some(exp) => {
            // An optional sign and digits, which is what `i64`'s parser takes.
            // Beyond ±10^15 no digit string could be compared or printed anyway.
            let e: i64 = exp.parse().ok()?;
            if e.abs() > 1_000_000_000_000_000 {
                return None;
            }
            e
        }
        None if rest.is_empty() => 0,
        None => return None,
    };
    Some((negative, int, frac, exponent))
}

/// A number as `±0.DIGITS × 10^exponent`, DIGITS without leading or trailing zeros (empty for
/// zero, whose sign and exponent then do not count).
#[derive(Debug)]
struct Normal<'a> {
    negative: bool,
    digits: std::borrow::Cow<'a, str>,
    exponent: i64,
}

impl<'a> Normal<'a> {
    fn of(text: &'a str) -> Option<Normal<'a>> {
        let (negative, int, frac, exponent) = split(text)?;
        let int_trimmed = int.trim_start_matches('0');
        let (digits, exponent) = if int_trimmed.is_empty() {
            // 0.000123: the leading zeros of the fraction lower the exponent.
            let significant = frac.trim_start_matches('0');
            let zeros = (frac.len() - significant.len()) as i64;
            (
                std::borrow::Cow::Borrowed(significant.trim_end_matches('0')),
                exponent - zeros,
            )
        } else {
            let whole = int_trimmed.len() as i64;
            let digits = if frac.is_empty() {
                std::borrow::Cow::Borrowed(int_trimmed.trim_end_matches('0'))
            } else {
                let joined = format!("{int_trimmed}{frac}");
                std::borrow::Cow::Owned(joined.trim_end_matches('0').to_owned())
            };
            (digits, exponent + whole)
        };
        Some(Normal {
            negative: negative && !digits.is_empty(),
            exponent: if digits.is_empty() { 0 } else { exponent },
            digits,
        })
    }

    /// Compares magnitudes.
    fn cmp_abs(&self, other: &Normal<'_>) -> Ordering {
        match (self.digits.is_empty(), other.digits.is_empty()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            // Digits without trailing zeros compare as strings once the exponents agree.
            (false, false) => self
                .exponent
                .cmp(&other.exponent)
                .then_with(|| self.digits.as_ref().cmp(other.digits.as_ref())),
        }
    }

    fn cmp(&self, other: &Normal<'_>) -> Ordering {
        match (self.negative, other.negative) {
            (false, false) => self.cmp_abs(other),
            (true, true) => other.cmp_abs(self),
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
        }
    }
}

impl PartialEq for Decimal {
    fn eq(&self, other: &Decimal) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Decimal {}

impl PartialOrd for Decimal {
    fn partial_cmp(&self, other: &Decimal) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Decimal {
    fn cmp(&self, other: &Decimal) -> Ordering {
        self.normal().cmp(&other.normal())
    }
}

impl Hash for Decimal {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let n = self.normal();
        n.negative.hash(state);
        n.digits.hash(state);
        n.exponent.hash(state);
    }
}

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for Decimal {
    type Err = ParseDecimalError;

    fn from_str(s: &str) -> Result<Decimal, ParseDecimalError> {
        Decimal::new(s)
    }
}

impl TryFrom<String> for Decimal {
    type Error = ParseDecimalError;

    fn try_from(s: String) -> Result<Decimal, ParseDecimalError> {
        Decimal::new(s)
    }
}

impl TryFrom<f64> for Decimal {
    type Error = ParseDecimalError;

    /// The shortest text that reads back as the same double; NaN and the infinities are not
    /// numbers.
    fn try_from(v: f64) -> Result<Decimal, ParseDecimalError> {
        if !v.is_finite() {
            return Err(ParseDecimalError(()));
        }
        Decimal::new(v.to_string())
    }
}

macro_rules! from_integer {
    ($($t:ty),*) => {$(
        impl From<$t> for Decimal {
            fn from(v: $t) -> Decimal {
                Decimal(v.to_string().into_boxed_str())
            }
        }
    )*};
}

from_integer!(i8, i16, i32, i64, i128, u8, u16, u32, u64, u128);

impl Serialize for Decimal {
    /// The number as written: serde_json writes the text as is (any other serializer gets
    /// what serde_json's `RawValue` gives it).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let raw: &RawValue = serde_json::from_str(&self.0).map_err(serde::ser::Error::custom)?;
        raw.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Decimal {
    /// A JSON number, its text kept. Inside a form (whose values are all text, read by
    /// [`super::integer::text_scalars`]) a string that spells a number is read too.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Decimal, D::Error> {
        if super::integer::numbers_are_doubles() {
            // A value whose numbers are doubles already lost digits: the caller decodes the
            // bytes instead (`integer::from_checked_value`).
            return Err(de::Error::custom(
                "a decimal is read from the bytes, not a double",
            ));
        }
        let raw = Box::<RawValue>::deserialize(deserializer)?;
        let text = raw.get();
        if text.starts_with('"') && super::integer::reading_text() {
            let s: String = serde_json::from_str(text).map_err(de::Error::custom)?;
            return Decimal::new(s.trim()).map_err(|_| {
                de::Error::invalid_value(de::Unexpected::Str(&s), &"a decimal number")
            });
        }
        match Decimal::new(text) {
            Ok(d) => Ok(d),
            Err(_) => Err(de::Error::invalid_type(
                unexpected(text),
                &"a decimal number",
            )),
        }
    }
}

/// What a non-number JSON text is, for the error.
fn unexpected(text: &str) -> de::Unexpected<'_> {
    match text.as_bytes().first() {
        Some(b'"') => de::Unexpected::Other("a string"),
        Some(b'{') => de::Unexpected::Map,
        Some(b'[') => de::Unexpected::Seq,
        Some(b't' | b'f') => de::Unexpected::Bool(text == "true"),
        _ => de::Unexpected::Other(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal {
        Decimal::new(s).unwrap()
    }

    #[test]
    fn keeps_every_digit_both_ways() {
        let text = r#"{"amount":903275809834567386763,"small":0.100000000000000000001}"#;
        let v: std::collections::BTreeMap<String, Decimal> = serde_json::from_str(text).unwrap();
        assert_eq!(v["amount"].as_str(), "903275809834567386763");
        assert_eq!(serde_json::to_string(&v).unwrap(), text);
        // Through the server's reader, which wraps the deserializer.
        let w: std::collections::BTreeMap<String, Decimal> =
            super::super::integer::from_slice(text.as_bytes()).unwrap();
        assert_eq!(w, v);
    }

    #[test]
    fn refuses_what_is_not_a_json_number() {
        for bad in [
            "", "+1", "01", ".5", "1.", "1e", "1e+", "--1", "1.5.2", "NaN", "0x10", " 1",
        ] {
            assert!(Decimal::new(bad).is_err(), "{bad:?}");
        }
        // Exponents up to ±10^15 are numbers; beyond, no digit string could be compared.
        assert!(Decimal::new("1e1000000000000000").is_ok());
        assert!(Decimal::new("1e-1000000000000000").is_ok());
        assert!(Decimal::new("1e1000000000000001").is_err());
        assert!(Decimal::new("1e+-5").is_err() && Decimal::new("1e5x").is_err());
        assert!(serde_json::from_str::<Decimal>(r#""1.5""#).is_err());
        assert!(serde_json::from_str::<Decimal>("true").is_err());
        let in_form = super::super::integer::text_scalars(|| {
            super::super::integer::from_value::<Decimal>(serde_json::json!("12.50"))
        });
        assert_eq!(in_form.unwrap().as_str(), "12.50");
    }

    #[test]
    fn compares_by_value() {
        assert_eq!(d("1.50"), d("1.5"));
        assert_ne!(d("1.5"), d("1.05"));
        assert_eq!(d("150e-2"), d("1.5"));
        assert_eq!(d("-0"), d("0.000"));
        assert!(d("903275809834567386763") > d("903275809834567386762"));
        assert!(d("-2") < d("-1.99999999999999999999"));
        assert!(d("0.001") < d("0.01"));
        assert!(d("1e3") > d("999.9999"));
        assert_eq!(d("12").cmp_text("1.2e1"), Some(Ordering::Equal));
        assert_eq!(
            d("1.50000000000000000001").cmp_text("1.5"),
            Some(Ordering::Greater)
        );
        let hash = |x: Decimal| {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            x.hash(&mut h);
            h.finish()
        };
        assert_eq!(hash(d("2.0")), hash(d("2")));
        assert_ne!(hash(d("2")), hash(d("3")));
        assert_ne!(hash(d("2")), hash(d("-2")));
        assert_ne!(hash(d("2")), hash(d("20")));
    }

    #[test]
    fn written_as_read_and_refused_with_what_came() {
        assert_eq!(format!("{} {:?}", d("1.50"), d("9.03e20")), "1.50 9.03e20");
        for (json, what) in [
            (r#""1.5""#, "a string"),
            ("{}", "map"),
            ("[]", "sequence"),
            ("true", "boolean `true`"),
            ("false", "boolean `false`"),
            ("null", "null"),
        ] {
            let error = serde_json::from_str::<Decimal>(json)
                .unwrap_err()
                .to_string();
            assert!(
                error.starts_with(&format!("invalid type: {what}, expected a decimal number")),
                "{json}: {error}"
            );
        }
    }

    #[test]
    fn multiple_of_is_exact() {
        assert_eq!(d("0.3").is_multiple_of("0.1"), Some(true));
        assert_eq!(d("903275809834567386763").is_multiple_of("1"), Some(true));
        // Digit sums 111 and 110.
        assert_eq!(d("903275809834567386765").is_multiple_of("3"), Some(true));
        assert_eq!(d("903275809834567386764").is_multiple_of("3"), Some(false));
        assert_eq!(d("12.35").is_multiple_of("0.05"), Some(true));
        assert_eq!(d("12.351").is_multiple_of("0.05"), Some(false));
        assert_eq!(d("1e30").is_multiple_of("7"), Some(false));
        assert_eq!(d("7e30").is_multiple_of("7"), Some(true));
        assert_eq!(d("0").is_multiple_of("0.7"), Some(true));
        assert_eq!(d("1").is_multiple_of("0"), None);
        assert_eq!(d("6").is_multiple_of("-2"), None);
        // A factor of 38 significant digits is checked; one of 39 is beyond the arithmetic.
        let factor = "10000000000000000000000000000000000001";
        assert_eq!(d(factor).is_multiple_of(factor), Some(true));
        assert_eq!(
            d("30000000000000000000000000000000000003").is_multiple_of(factor),
            Some(true)
        );
        assert_eq!(
            d("30000000000000000000000000000000000004").is_multiple_of(factor),
            Some(false)
        );
        assert_eq!(d("1").is_multiple_of(&format!("{factor}1")), None);
        // Scales far apart: 10^64 and 10^40 modulo a factor of 38 digits.
        assert_eq!(d("1e64").is_multiple_of(factor), Some(false));
        assert_eq!(
            d(&format!("{factor}e40")).is_multiple_of(factor),
            Some(true)
        );
        // 2000 / 0.016 = 125000: the value's and the factor's scales both count.
        assert_eq!(d("2e3").is_multiple_of("0.016"), Some(true));
        assert_eq!(d("2e3").is_multiple_of("0.0016"), Some(true));
        assert_eq!(d("2e3").is_multiple_of("0.0003"), Some(false));
        assert!(d("3e2").is_integer() && d("1.0").is_integer() && !d("1.5").is_integer());
    }

    #[test]
    fn multiple_of_agrees_with_integer_arithmetic() {
        // a·10^e against b·10^-f, for every small a, e, b, f: whole when b divides a·10^(e+f).
        for a in 1u128..40 {
            for e in 0..14 {
                for b in 1u128..70 {
                    for f in 0..3 {
                        let whole = (a * 10u128.pow(e + f)).is_multiple_of(b);
                        let factor = if f == 0 {
                            b.to_string()
                        } else {
                            format!("{b}e-{f}")
                        };
                        assert_eq!(
                            d(&format!("{a}e{e}")).is_multiple_of(&factor),
                            Some(whole),
                            "{a}e{e} by {factor}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_string_check_and_the_error_say_what_a_number_is() {
        assert!(is_decimal("-1.5e3") && is_decimal("0"));
        assert!(!is_decimal("1,5") && !is_decimal("abc") && !is_decimal(""));
        let error = Decimal::new("1,5").unwrap_err();
        assert!(
            error.to_string().starts_with("not a decimal number"),
            "{error}"
        );
    }

    #[test]
    fn conversions() {
        assert_eq!(Decimal::try_from(1.1f64).unwrap().as_str(), "1.1");
        assert!(Decimal::try_from(f64::NAN).is_err());
        assert_eq!(Decimal::from(u128::MAX).as_str(), u128::MAX.to_string());
        assert_eq!(d("2.5").to_f64(), 2.5);
    }
}
