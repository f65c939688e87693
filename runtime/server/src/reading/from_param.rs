//! Owns reading one parameter's text as its type (`FromParam`): integers of each `format`
//! (whole numbers written `5.0` included), numbers, booleans, the string formats read into
//! types of their own, and the message a refusal gives ("expected an integer (int64), got
//! \"abc\""). Where the text comes from, and collecting every failure, is `params`'.

use super::integer;
use super::problem::quote_truncated;

/// Parses one parameter value. Generated enums implement it too (rejecting unknown values).
pub trait FromParam: Sized {
    /// On failure, a message for the client: what was expected and what came.
    fn from_param(raw: &str) -> Result<Self, String>;
}

/// Longest client value echoed back in a message.
const ECHO_MAX: usize = 64;

/// `"expected <what>, got \"<raw>\""` with the value truncated and escaped.
pub fn expected(what: &str, raw: &str) -> String {
    format!("expected {what}, got {}", quote_truncated(raw, ECHO_MAX))
}

impl FromParam for String {
    fn from_param(raw: &str) -> Result<Self, String> {
        Ok(raw.to_owned())
    }
}

impl FromParam for bool {
    fn from_param(raw: &str) -> Result<Self, String> {
        match raw {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(expected("a boolean (true or false)", raw)),
        }
    }
}

macro_rules! int_param {
    ($($t:ty => $format:literal),* $(,)?) => {$(
        impl FromParam for $t {
            fn from_param(raw: &str) -> Result<Self, String> {
                use std::num::IntErrorKind;
                let out_of_range = || {
                    format!("{} is out of range for {}", quote_truncated(raw, ECHO_MAX), $format)
                };
                match raw.parse::<$t>() {
                    Ok(v) => Ok(v),
                    Err(e) if matches!(e.kind(), IntErrorKind::PosOverflow | IntErrorKind::NegOverflow) => {
                        Err(out_of_range())
                    }
                    // `5.0`, `5e0`: a whole number is an integer, as in a JSON body.
                    Err(_) => match integer::whole_text(raw) {
                        Some(whole) => integer::exact::<$t>(whole).ok_or_else(out_of_range),
                        None => Err(expected(concat!("an integer (", $format, ")"), raw)),
                    },
                }
            }
        }
    )*};
}

int_param!(
    i8 => "int8", i16 => "int16", i32 => "int32", i64 => "int64",
    u8 => "uint8", u16 => "uint16", u32 => "uint32", u64 => "uint64",
);

macro_rules! float_param {
    ($($t:ty => $format:literal),*) => {$(
        impl FromParam for $t {
            fn from_param(raw: &str) -> Result<Self, String> {
                // Rust also reads "inf" and "NaN"; JSON numbers have neither.
                match raw.parse::<$t>() {
                    Ok(v) if v.is_finite() => Ok(v),
                    _ => Err(expected(concat!("a number (", $format, ")"), raw)),
                }
            }
        }
    )*};
}

float_param!(f32 => "float", f64 => "double");

// String formats read into types of their own (book/src/internals/values.md, "String formats"): the
// text must parse as the type, as in a JSON body.
// Written out, not by a macro: cargo-mutants does not mutate inside macros, and these are
// parameter checks (docs/reports/mutants.md).
impl FromParam for uuid::Uuid {
    fn from_param(raw: &str) -> Result<Self, String> {
        exactly(&super::formats::UUID, raw)
    }
}

impl FromParam for jiff::Timestamp {
    fn from_param(raw: &str) -> Result<Self, String> {
        exactly(&super::formats::DATE_TIME, raw)
    }
}

impl FromParam for jiff::civil::Date {
    fn from_param(raw: &str) -> Result<Self, String> {
        exactly(&super::formats::DATE, raw)
    }
}

fn exactly<V>(format: &super::object::Exact<V>, raw: &str) -> Result<V, String> {
    (format.read)(raw).ok_or_else(|| expected(format.expected, raw))
}

impl FromParam for std::net::Ipv4Addr {
    fn from_param(raw: &str) -> Result<Self, String> {
        raw.parse()
            .map_err(|_| expected("an IPv4 address (ipv4)", raw))
    }
}

impl FromParam for std::net::Ipv6Addr {
    fn from_param(raw: &str) -> Result<Self, String> {
        raw.parse()
            .map_err(|_| expected("an IPv6 address (ipv6)", raw))
    }
}

impl FromParam for super::decimal::Decimal {
    fn from_param(raw: &str) -> Result<Self, String> {
        super::decimal::Decimal::new(raw).map_err(|_| expected("a decimal number", raw))
    }
}
