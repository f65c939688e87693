//! Owns the randomness of the ids both runtimes make (request, trace and span ids, idempotency
//! keys) and their hexadecimal text. One file: the client runtime's `random.rs` is a link to
//! this one (book/src/internals/runtime-crates.md).
//!
//! Decision: ids must be unique and well spread (W3C Trace Context asks trace ids to be random
//! enough to sample on, and unique across systems), not secret: none grants anything, and each
//! is sent in clear. So a fast per-thread generator (wyrand: a Weyl sequence through a 128-bit
//! multiply, a dozen instructions a draw), seeded once per thread, not a cryptographic one (a
//! keyed hash per draw, three a request, was about 5 % of a small request's cost).

use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};

// The browser has no `std::time::SystemTime`; elsewhere `web_time` would be std's anyway.
#[cfg(not(target_arch = "wasm32"))]
use std::time::{SystemTime, UNIX_EPOCH};
#[cfg(target_arch = "wasm32")]
use web_time::{SystemTime, UNIX_EPOCH};

/// 64 random bits.
pub(crate) fn random_u64() -> u64 {
    thread_local! {
        // 0: not yet seeded (a seed is never 0).
        static STATE: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    }
    STATE.with(|state| {
        let mut current = state.get();
        if current == 0 {
            current = seed() | 1;
        }
        let next = current.wrapping_add(0xa076_1d64_78bd_642f);
        state.set(next);
        let product = u128::from(next) * u128::from(next ^ 0xe703_7ed1_a0b4_28db);
        (product >> 64) as u64 ^ product as u64
    })
}

/// 128 random bits: two draws of [`random_u64`].
pub(crate) fn random_u128() -> u128 {
    u128::from(random_u64()) << 64 | u128::from(random_u64())
}

/// A thread's seed: std's random hash keys (from the operating system) over a process-wide
/// counter, so that each thread's stream starts elsewhere, and the time, which sets pages
/// apart in the browser, where std has no randomness (its hash keys are fixed).
fn seed() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(NEXT.fetch_add(1, Ordering::Relaxed));
    h.write_u128(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos(),
    );
    h.finish()
}

/// Lowercase hexadecimal digits of `value`'s low `out.len() / 2` bytes, filling `out` (an
/// even number of digits), two a step from a table of the 256 bytes' digits.
pub(crate) fn write_hex(out: &mut [u8], mut value: u128) {
    const PAIRS: [[u8; 2]; 256] = {
        let digits = b"0123456789abcdef";
        let mut pairs = [[0; 2]; 256];
        let mut byte = 0;
        while byte < 256 {
            pairs[byte] = [digits[byte >> 4], digits[byte & 0xf]];
            byte += 1;
        }
        pairs
    };
    debug_assert!(out.len().is_multiple_of(2), "an even number of digits");
    for pair in out.rchunks_exact_mut(2) {
        pair.copy_from_slice(&PAIRS[(value & 0xff) as usize]);
        value >>= 8;
    }
}

/// A random (version 4) UUID's text, `8-4-4-4-12` lowercase hexadecimal digits, written into
/// `out` (36 bytes): what request ids (the server) and idempotency keys (the client) hold.
pub(crate) fn write_uuid_v4(out: &mut [u8]) {
    debug_assert_eq!(out.len(), 36, "a UUID's text is 36 characters");
    // RFC 9562: version 4 in the high nibble of byte 6, variant `10` in the top bits of byte 8.
    let bits = random_u128() & !(0xf << 76) & !(0x3 << 62) | (0x4 << 76) | (0x2 << 62);
    write_hex(&mut out[..8], bits >> 96);
    out[8] = b'-';
    write_hex(&mut out[9..13], bits >> 80);
    out[13] = b'-';
    write_hex(&mut out[14..18], bits >> 64);
    out[18] = b'-';
    write_hex(&mut out[19..23], bits >> 48);
    out[23] = b'-';
    write_hex(&mut out[24..36], bits);
}
