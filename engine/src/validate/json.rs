//! Byte-level JSON helpers for the checker: finding the end of a string eight bytes at a time,
//! counting chars the way JSON Schema's `maxLength` does, unescaping, and writing JSON pointers.
//!
//! Strings stay as borrowed raw slices (escapes included) everywhere; they are unescaped only in
//! the rare case where the exact text matters (a key or enum value with a backslash in it).

use std::borrow::Cow;

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// A mask with the high bit set in the lowest byte of `w` that is a `"`, a `\` or a control
/// char (< 0x20), or 0. Bits above the lowest may be spurious (borrows), the lowest never is, so
/// `trailing_zeros / 8` is the exact offset of the first such byte.
#[inline(always)]
fn stop_mask(w: u64) -> u64 {
    let quote = w ^ (ONES * b'"' as u64);
    let backslash = w ^ (ONES * b'\\' as u64);
    let has_zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGHS;
    let below_space = w.wrapping_sub(ONES * 0x20) & !w & HIGHS;
    has_zero(quote) | has_zero(backslash) | below_space
}

#[inline(always)]
fn word_at(bytes: &[u8], i: usize) -> u64 {
    match bytes[i..i + 8].try_into() {
        Ok(word) => u64::from_le_bytes(word),
        Err(_) => 0,
    }
}

/// WASM `simd128`: sixteen bytes a step, with the same answers as the eight-byte SWAR paths
/// (which stay the fallback and the native code). The 16-byte array read compiles to one
/// `v128.load`, so no `unsafe` is needed.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd {
    use core::arch::wasm32::{
        u8x16, u8x16_bitmask, u8x16_eq, u8x16_lt, u8x16_splat, v128, v128_or,
    };

    /// The sixteen bytes at `i`, or `None` near the end of the text.
    #[inline(always)]
    pub(super) fn load(b: &[u8], i: usize) -> Option<v128> {
        let w: &[u8; 16] = b.get(i..i.checked_add(16)?)?.try_into().ok()?;
        Some(u8x16(
            w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8], w[9], w[10], w[11], w[12], w[13],
            w[14], w[15],
        ))
    }

    /// A bit per byte that is a `"`, a `\` or a control char.
    #[inline(always)]
    pub(super) fn stops(v: v128) -> u16 {
        let quote = u8x16_eq(v, u8x16_splat(b'"'));
        let backslash = u8x16_eq(v, u8x16_splat(b'\\'));
        let control = u8x16_lt(v, u8x16_splat(0x20));
        u8x16_bitmask(v128_or(v128_or(quote, backslash), control))
    }

    /// A bit per byte that is not a space.
    #[inline(always)]
    pub(super) fn not_spaces(v: v128) -> u16 {
        !u8x16_bitmask(u8x16_eq(v, u8x16_splat(b' ')))
    }
}

/// What stopped a string scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// The closing quote, at this offset.
    Quote(usize),
    /// A backslash, at this offset.
    Backslash(usize),
    /// A raw control char (not allowed in JSON strings), at this offset.
    Control(usize),
    /// The text ended first.
    End,
}

/// Finds the first `"`, `\` or control char at or after `from`, eight bytes at a time.
#[inline]
pub fn scan_string(bytes: &[u8], from: usize) -> Stop {
    let len = bytes.len();
    let mut i = from;
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    while let Some(v) = simd::load(bytes, i) {
        let mask = simd::stops(v);
        if mask != 0 {
            i += mask.trailing_zeros() as usize;
            return classify(bytes[i], i);
        }
        i += 16;
    }
    while i + 8 <= len {
        let mask = stop_mask(word_at(bytes, i));
        if mask != 0 {
            i += (mask.trailing_zeros() / 8) as usize;
            return classify(bytes[i], i);
        }
        i += 8;
    }
    while i < len {
        if matches!(bytes[i], b'"' | b'\\') || bytes[i] < 0x20 {
            return classify(bytes[i], i);
        }
        i += 1;
    }
    Stop::End
}

#[inline(always)]
fn classify(b: u8, at: usize) -> Stop {
    match b {
        b'"' => Stop::Quote(at),
        b'\\' => Stop::Backslash(at),
        _ => Stop::Control(at),
    }
}

/// Offset of the first byte at or after `from` that is not a space, newline, return or tab.
#[inline]
pub fn skip_blanks(bytes: &[u8], from: usize) -> usize {
    const SPACES: u64 = ONES * b' ' as u64;
    let len = bytes.len();
    let mut i = from;
    loop {
        if i + 8 <= len {
            let x = word_at(bytes, i) ^ SPACES;
            if x == 0 {
                i += 8;
                continue;
            }
            i += (x.trailing_zeros() / 8) as usize;
        } else {
            while i < len && bytes[i] == b' ' {
                i += 1;
            }
        }
        match bytes.get(i) {
            Some(b'\n' | b'\r' | b'\t') => i += 1,
            _ => return i,
        }
    }
}

/// The end of a run of spaces starting at `from` (a line's indentation) when what follows is
/// neither blank nor `/`, i.e. when the whitespace ends there; `None` sends the caller to
/// [`skip_blanks`] (tabs, blank lines, a comment, the end of the text).
#[inline(always)]
pub fn indent_end(bytes: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    loop {
        let mask = simd::not_spaces(simd::load(bytes, i)?);
        if mask != 0 {
            i += mask.trailing_zeros() as usize;
            let c = bytes[i];
            return (c > b' ' && c != b'/').then_some(i);
        }
        i += 16;
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    loop {
        const SPACES: u64 = ONES * b' ' as u64;
        let word = bytes.get(i..i + 8)?;
        let x = u64::from_le_bytes(word.try_into().ok()?) ^ SPACES;
        if x != 0 {
            i += (x.trailing_zeros() / 8) as usize;
            let c = bytes[i];
            return (c > b' ' && c != b'/').then_some(i);
        }
        i += 8;
    }
}

/// Length in chars (Unicode scalar values) of a raw JSON string body, an escape counting as the
/// one char it stands for and a `\uD83D\uDE00` surrogate pair as one. Stops counting at `cap`.
pub fn char_len(raw: &str, has_escape: bool, cap: usize) -> usize {
    let bytes = raw.as_bytes();
    let mut n = 0;
    if !has_escape {
        for &b in bytes {
            n += usize::from(b & 0xC0 != 0x80);
            if n >= cap {
                return n;
            }
        }
        return n;
    }
    let mut i = 0;
    while i < bytes.len() && n < cap {
        let b = bytes[i];
        if b == b'\\' {
            let len = if bytes.get(i + 1) == Some(&b'u') {
                let low_follows =
                    is_high_surrogate(&bytes[i..]) && bytes.get(i + 6) == Some(&b'\\');
                if low_follows {
                    12
                } else {
                    6
                }
            } else {
                2
            };
            i += len;
        } else {
            i += 1;
            if b & 0xC0 == 0x80 {
                continue;
            }
        }
        n += 1;
    }
    n
}

fn is_high_surrogate(esc: &[u8]) -> bool {
    esc.len() >= 6
        && matches!(
            &esc[2..4],
            [b'd' | b'D', b'8' | b'9' | b'a' | b'b' | b'A' | b'B']
        )
}

/// The text a raw JSON string body stands for. Borrowed when it has no escape. The body must have
/// passed [`check_escape`].
#[inline]
pub fn unescape(raw: &str, has_escape: bool) -> Cow<'_, str> {
    if has_escape {
        Cow::Owned(unescape_slow(raw))
    } else {
        Cow::Borrowed(raw)
    }
}

fn unescape_slow(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.char_indices();
    while let Some((i, c)) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some((_, e)) = chars.next() else { break };
        match e {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'u' => {
                let hi = hex4(&raw[i + 2..]).unwrap_or(0xFFFD);
                for _ in 0..4 {
                    chars.next();
                }
                let code = if (0xD800..0xDC00).contains(&hi) && raw[i + 6..].starts_with("\\u") {
                    let lo = hex4(&raw[i + 8..]).unwrap_or(0);
                    for _ in 0..6 {
                        chars.next();
                    }
                    0x10000 + ((hi - 0xD800) << 10) + (lo.wrapping_sub(0xDC00) & 0x3FF)
                } else {
                    hi
                };
                out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
            }
            other => out.push(other),
        }
    }
    out
}

fn hex4(s: &str) -> Option<u32> {
    let h = s.get(..4)?;
    u32::from_str_radix(h, 16).ok()
}

/// Checks the escape starting at `bytes[at] == b'\\'`; returns its length or why it is wrong.
pub fn check_escape(bytes: &[u8], at: usize) -> Result<usize, &'static str> {
    match bytes.get(at + 1) {
        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(2),
        Some(b'u') => {
            let code = hex_at(bytes, at + 2).ok_or("a \\u escape needs four hex digits")?;
            match code {
                0xD800..=0xDBFF => {
                    let low = (bytes.get(at + 6) == Some(&b'\\')
                        && bytes.get(at + 7) == Some(&b'u'))
                    .then(|| hex_at(bytes, at + 8))
                    .flatten();
                    match low {
                        Some(0xDC00..=0xDFFF) => Ok(12),
                        _ => Err("a \\u escape of a high surrogate must be followed by a low one"),
                    }
                }
                0xDC00..=0xDFFF => Err("a lone low surrogate \\u escape"),
                _ => Ok(6),
            }
        }
        Some(_) => Err("an unknown escape after a backslash"),
        None => Err("the text ends inside an escape"),
    }
}

fn hex_at(bytes: &[u8], at: usize) -> Option<u32> {
    let h = bytes.get(at..at + 4)?;
    let mut v = 0u32;
    for &b in h {
        v = v * 16 + (b as char).to_digit(16)?;
    }
    Some(v)
}

/// One step of a JSON pointer, kept borrowed until a violation needs the pointer as text.
#[derive(Debug, Clone, Copy)]
pub enum Seg<'a> {
    /// An object key, raw (escapes included).
    Key(&'a str, bool),
    /// An array index.
    Idx(usize),
}

/// Renders a path as an RFC 6901 JSON pointer (`""` for the whole answer).
pub fn pointer(path: &[Seg<'_>]) -> String {
    let mut out = String::new();
    for seg in path {
        out.push('/');
        match *seg {
            Seg::Idx(i) => out.push_str(&i.to_string()),
            Seg::Key(raw, esc) => {
                for c in unescape(raw, esc).chars() {
                    match c {
                        '~' => out.push_str("~0"),
                        '/' => out.push_str("~1"),
                        c => out.push(c),
                    }
                }
            }
        }
    }
    out
}

/// Shortens `s` to about `max` chars for a violation's `received`, keeping char boundaries.
pub fn shorten(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        None => s.to_string(),
        Some((cut, _)) => format!("{}…", &s[..cut]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_scan(s: &str) -> Stop {
        scan_string(s.as_bytes(), 0)
    }

    #[test]
    fn scan_finds_the_first_stop_at_any_offset() {
        for pad in 0..20 {
            let body = "a".repeat(pad);
            assert_eq!(check_scan(&format!("{body}\"x")), Stop::Quote(pad));
            assert_eq!(check_scan(&format!("{body}\\n\"")), Stop::Backslash(pad));
            assert_eq!(check_scan(&format!("{body}\n\"")), Stop::Control(pad));
            assert_eq!(check_scan(&format!("{body}é€😀\"")), Stop::Quote(pad + 9));
            assert_eq!(check_scan(&body), Stop::End);
        }
    }

    #[test]
    fn blanks_are_skipped_at_any_offset() {
        for pad in 0..20 {
            let text = format!("{}\n\t {}x", " ".repeat(pad), " ".repeat(pad));
            assert_eq!(skip_blanks(text.as_bytes(), 0), 2 * pad + 3);
            assert_eq!(skip_blanks(" ".repeat(pad).as_bytes(), 0), pad);
        }
        assert_eq!(skip_blanks(b"x  ", 0), 0);
    }

    #[test]
    fn indentation_ends_at_the_first_non_blank() {
        for pad in 0..30 {
            let text = format!("{}\"k\": 1, \"more\": 2", " ".repeat(pad));
            assert_eq!(indent_end(text.as_bytes(), 0), Some(pad));
            for stop in ["\t", "\n", "\r", "/", " "] {
                let text = format!("{}{stop}\"k\": 1, \"more\": 2", " ".repeat(pad));
                let want = if stop == " " { Some(pad + 1) } else { None };
                assert_eq!(indent_end(text.as_bytes(), 0), want, "{pad} {stop:?}");
            }
        }
        assert_eq!(indent_end(b"   x", 0), None, "fewer than eight bytes left");
    }

    #[test]
    fn chars_counted_like_json_schema_max_length() {
        assert_eq!(char_len("abc", false, usize::MAX), 3);
        assert_eq!(char_len("é😀", false, usize::MAX), 2);
        assert_eq!(char_len("a\\nb", true, usize::MAX), 3);
        assert_eq!(char_len("\\u00e9x", true, usize::MAX), 2);
        assert_eq!(char_len("\\ud83d\\ude00", true, usize::MAX), 1);
        assert_eq!(char_len("abcdef", false, 3), 3);
    }

    #[test]
    fn unescape_gives_the_text() {
        assert_eq!(
            unescape("a\\n\\\"b\\u00e9\\ud83d\\ude00\\/", true),
            "a\n\"bé😀/"
        );
        assert!(matches!(unescape("plain", false), Cow::Borrowed("plain")));
    }

    #[test]
    fn escapes_are_checked() {
        assert_eq!(check_escape(b"\\n", 0), Ok(2));
        assert_eq!(check_escape(b"\\u00e9", 0), Ok(6));
        assert_eq!(check_escape(b"\\ud83d\\ude00", 0), Ok(12));
        assert!(check_escape(b"\\ud83d", 0).is_err());
        assert!(check_escape(b"\\x", 0).is_err());
        assert!(check_escape(b"\\u12", 0).is_err());
    }

    #[test]
    fn pointers_escape_tilde_and_slash() {
        let path = [Seg::Key("a/b", false), Seg::Idx(3), Seg::Key("m~n", false)];
        assert_eq!(pointer(&path), "/a~1b/3/m~0n");
        assert_eq!(pointer(&[]), "");
    }

    #[test]
    fn shorten_keeps_char_boundaries() {
        assert_eq!(shorten("ééé", 2), "éé…");
        assert_eq!(shorten("ab", 2), "ab");
    }
}
