//! Bytes that travel as base64 text in JSON (`contentEncoding: base64` / `base64url`,
//! OpenAPI 3.1): [`Base64`] and [`Base64Url`], each a `Vec<u8>` with the serde impls of its
//! alphabet. Written by hand: twenty lines do not earn a dependency.
//!
//! Decoding accepts the value with or without `=` padding and refuses any other character
//! of the wrong alphabet; encoding writes padding for [`Base64`] (RFC 4648 §4) and none for
//! [`Base64Url`] (the usual URL-safe form, RFC 4648 §5).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::ops::{Deref, DerefMut};

const STANDARD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL_SAFE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Encodes `bytes` (standard alphabet, padded; or URL-safe, unpadded).
pub fn encode(bytes: &[u8], url_safe: bool) -> String {
    let alphabet = if url_safe { URL_SAFE } else { STANDARD };
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..=chunk.len() {
            out.push(alphabet[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
        if !url_safe {
            for _ in chunk.len()..3 {
                out.push('=');
            }
        }
    }
    out
}

/// Decodes base64 text of the given alphabet; padding is optional.
pub fn decode(text: &str, url_safe: bool) -> Result<Vec<u8>, String> {
    let alphabet = if url_safe { URL_SAFE } else { STANDARD };
    let trimmed = text.trim_end_matches('=');
    if text.len() - trimmed.len() > 2 || trimmed.len() % 4 == 1 {
        return Err("invalid base64 length".into());
    }
    let mut out = Vec::with_capacity(trimmed.len() * 3 / 4);
    let mut acc: u32 = 0;
    let mut bits = 0;
    for (i, c) in trimmed.bytes().enumerate() {
        let v = alphabet
            .iter()
            .position(|&a| a == c)
            .ok_or_else(|| format!("invalid base64 character at {i}"))?;
        acc = (acc << 6) | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Ok(out)
}

macro_rules! base64_type {
    ($name:ident, $url_safe:expr, $what:literal) => {
        #[doc = concat!("Bytes written as ", $what, " text in JSON.")]
        #[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub Vec<u8>);

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(&encode(&self.0, $url_safe))
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
                decode(&text, $url_safe)
                    .map($name)
                    .map_err(serde::de::Error::custom)
            }
        }

        impl Deref for $name {
            type Target = Vec<u8>;
            fn deref(&self) -> &Vec<u8> {
                &self.0
            }
        }

        impl DerefMut for $name {
            fn deref_mut(&mut self) -> &mut Vec<u8> {
                &mut self.0
            }
        }

        impl From<Vec<u8>> for $name {
            fn from(bytes: Vec<u8>) -> Self {
                $name(bytes)
            }
        }

        impl From<$name> for Vec<u8> {
            fn from(value: $name) -> Self {
                value.0
            }
        }
    };
}

base64_type!(Base64, false, "base64 (RFC 4648 §4, padded)");
base64_type!(Base64Url, true, "URL-safe base64 (RFC 4648 §5, unpadded)");
