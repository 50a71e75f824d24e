//! UTF-16 text, as JS strings hold it, turned into a Rust `String`.
//!
//! A model's answer reaches the WASM validator as a JS string. Transcoding it to UTF-8 in JS
//! (`TextEncoder.encodeInto`) runs at ~1.5 GB/s on Node 20 for the two-byte strings that real
//! answers with typographic punctuation are, which cost more than the whole check of a 20 KB
//! answer. Node can instead copy the string's code units into linear memory as they are
//! (`Buffer.write(s, 'utf16le')`, a memcpy); this module turns those UTF-16LE bytes into UTF-8
//! here, 32 ASCII units a step (two `simd128` narrows), and the rest one code point at a time.
//!
//! The result equals `encodeInto`'s (and [`String::from_utf16_lossy`]'s): an unpaired surrogate
//! becomes U+FFFD, so both ways into the validator see the same text.

/// The UTF-8 text of `bytes`, a run of UTF-16 code units in little-endian order (a trailing odd
/// byte is ignored). Unpaired surrogates become U+FFFD.
pub fn utf16le_to_string(bytes: &[u8]) -> String {
    let out = utf16le_to_utf8(bytes);
    // Valid by construction; the check is the price of having no `unsafe`.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// The UTF-8 bytes of [`utf16le_to_string`].
fn utf16le_to_utf8(bytes: &[u8]) -> Vec<u8> {
    let end = bytes.len() & !1;
    // Sized for all-ASCII text plus slack; written by index, so the ASCII path is a bounds check
    // and a few stores per block of ASCII units. Invariant at the top of the loop:
    // `out.len() >= o + (units left) + SLACK`.
    const SLACK: usize = BLOCK;
    let mut out = vec![0u8; end / 2 + SLACK];
    let (mut i, mut o) = (0, 0);
    while i < end {
        let units = ascii_block(bytes, i, &mut out, o);
        if units > 0 {
            i += 2 * units;
            o += units;
            continue;
        }
        let unit = unit_at(bytes, i);
        i += 2;
        if unit < 0x80 {
            out[o] = unit as u8;
            o += 1;
            continue;
        }
        let c = match unit {
            0xD800..=0xDBFF if i < end && matches!(unit_at(bytes, i), 0xDC00..=0xDFFF) => {
                let low = unit_at(bytes, i);
                i += 2;
                0x10000 + ((u32::from(unit) - 0xD800) << 10) + (u32::from(low) - 0xDC00)
            }
            0xD800..=0xDFFF => 0xFFFD,
            _ => u32::from(unit),
        };
        let c = char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER);
        let need = o + c.len_utf8() + (end - i) / 2 + SLACK;
        if out.len() < need {
            out.resize(need.max(out.len() + out.len() / 4), 0);
        }
        o += c.encode_utf8(&mut out[o..]).len();
    }
    out.truncate(o);
    out
}

/// The code unit at byte offset `i` (which must have two bytes).
#[inline(always)]
fn unit_at(bytes: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([bytes[i], bytes[i + 1]])
}

/// How many units one step of the ASCII path looks at.
const BLOCK: usize = 32;

/// With WASM `simd128`: writes the ASCII units that start the [`BLOCK`] units at byte offset `i`
/// to `out` at `o` and returns how many there were (0 when the first is not ASCII, or near the
/// end). `out` must have room for a whole block at `o` (the caller's invariant); bytes after the
/// returned count are scratch, overwritten later.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn ascii_block(bytes: &[u8], i: usize, out: &mut [u8], o: usize) -> usize {
    use core::arch::wasm32::{
        i16x8_bitmask, i16x8_ne, i16x8_splat, u16x8_splat, u8x16, u8x16_narrow_i16x8, v128,
        v128_and, v128_any_true, v128_or,
    };
    // Sixteen bytes as one vector; the array read compiles to one `v128.load`, so no `unsafe`.
    let load = |at: usize| -> Option<v128> {
        let w: &[u8; 16] = bytes.get(at..at.checked_add(16)?)?.try_into().ok()?;
        Some(u8x16(
            w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8], w[9], w[10], w[11], w[12], w[13],
            w[14], w[15],
        ))
    };
    let (Some(a), Some(b), Some(c), Some(d), Some(dest)) = (
        load(i),
        load(i + 16),
        load(i + 32),
        load(i + 48),
        out.get_mut(o..o + BLOCK),
    ) else {
        return 0;
    };
    let high = u16x8_splat(0xFF80);
    let (ab, cd) = (u8x16_narrow_i16x8(a, b), u8x16_narrow_i16x8(c, d));
    dest[..16].copy_from_slice(&to_bytes(ab));
    dest[16..].copy_from_slice(&to_bytes(cd));
    if !v128_any_true(v128_and(v128_or(v128_or(a, b), v128_or(c, d)), high)) {
        return BLOCK;
    }
    // Some unit is not ASCII: the narrowed bytes before the first such unit are right.
    let bits = |x| u32::from(i16x8_bitmask(i16x8_ne(v128_and(x, high), i16x8_splat(0))));
    let non_ascii = bits(a) | bits(b) << 8 | bits(c) << 16 | bits(d) << 24;
    non_ascii.trailing_zeros() as usize
}

/// The sixteen bytes of a vector, through two 64-bit lanes (no `unsafe` store needed).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn to_bytes(v: core::arch::wasm32::v128) -> [u8; 16] {
    use core::arch::wasm32::u64x2_extract_lane;
    let mut out = [0u8; 16];
    out[..8].copy_from_slice(&u64x2_extract_lane::<0>(v).to_le_bytes());
    out[8..].copy_from_slice(&u64x2_extract_lane::<1>(v).to_le_bytes());
    out
}

/// Without SIMD: writes the ASCII units that start the [`BLOCK`] units at byte offset `i` to
/// `out` at `o` and returns how many (0 when the first is not ASCII, or near the end).
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
fn ascii_block(bytes: &[u8], i: usize, out: &mut [u8], o: usize) -> usize {
    let (Some(w), Some(dest)) = (bytes.get(i..i + 2 * BLOCK), out.get_mut(o..o + BLOCK)) else {
        return 0;
    };
    let mut n = 0;
    for (unit, byte) in w.chunks_exact(2).zip(dest.iter_mut()) {
        if unit[1] != 0 || unit[0] >= 0x80 {
            break;
        }
        *byte = unit[0];
        n += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn le(units: &[u16]) -> Vec<u8> {
        units.iter().flat_map(|u| u.to_le_bytes()).collect()
    }

    #[test]
    fn ascii_and_non_ascii_text_round_trips() {
        for s in [
            "",
            "a",
            "plain ascii that is longer than sixteen units, twice over: 0123456789",
            "é — “quoted” → ok, then a long ASCII run after it to reach the fast path",
            "𝄞 a clef, 😀 an emoji, 中文 text",
        ] {
            let units: Vec<u16> = s.encode_utf16().collect();
            assert_eq!(utf16le_to_string(&le(&units)), s);
        }
    }

    #[test]
    fn unpaired_surrogates_become_replacement_chars() {
        let units = [0x61, 0xD800, 0x62, 0xDC00, 0xD83D, 0xDE00, 0xD83D];
        assert_eq!(
            utf16le_to_string(&le(&units)),
            "a\u{FFFD}b\u{FFFD}😀\u{FFFD}"
        );
    }

    #[test]
    fn a_trailing_odd_byte_is_ignored() {
        assert_eq!(utf16le_to_string(&[b'a', 0, b'b']), "a");
    }

    proptest! {
        /// Any code units, ASCII-heavy or not, give what the standard library's lossy decoder
        /// (and so `TextEncoder.encodeInto`) gives.
        #[test]
        fn equals_the_standard_lossy_decoder(
            units in prop::collection::vec(
                prop_oneof![
                    6 => 0x20u16..0x7F,
                    1 => 0x80u16..0x800,
                    1 => 0xD800u16..0xE000,
                    1 => any::<u16>(),
                ],
                0..200,
            )
        ) {
            prop_assert_eq!(utf16le_to_string(&le(&units)), String::from_utf16_lossy(&units));
        }
    }
}
