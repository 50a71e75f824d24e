//! Sessions shared as a link: the session file, deflated and written in base64url into the URL's
//! fragment (`#s=…`), which browsers never send to a server.
//!
//! The app deflates with the browser's `CompressionStream("deflate-raw")` and writes the link with
//! [`encode`]; opening a link runs [`decode`] (base64url, then a bounded inflate, so a small link can
//! never grow into a huge allocation) and hands the bytes to the same checks as an imported file
//! ([`crate::export::text_of_file`], [`crate::export::from_file`]). A session file holds no key and
//! no setting, so neither can a link.

use thiserror::Error;

/// What a share link's fragment starts with (after the `#`).
pub const PREFIX: &str = "s=";

/// The longest link fragment the app writes or reads, in characters: about 48 KB of deflated
/// session file. A finished demo team session (a 180 KB file) makes a link of about 33,000
/// characters. Longer sessions are shared as a file.
pub const MAX_LINK_CHARS: usize = 64 * 1024;

/// The most a link may inflate to. Far above what [`MAX_LINK_CHARS`] holds for real session files
/// (they compress about 7 : 1), and low enough that a crafted link cannot exhaust memory.
pub const MAX_INFLATED_BYTES: usize = 8 * 1024 * 1024;

/// Why a link was refused. Every message says it in words a person understands.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ShareLinkError {
    /// The fragment is not a share link at all.
    #[error("this is not a Roundtable share link (it should end in #s=…)")]
    NotALink,
    /// Longer than any link the app writes.
    #[error("the link is too long: {chars} characters, and a share link is at most {max}; share the session as a file instead")]
    TooLong {
        /// Its length in characters.
        chars: usize,
        /// The limit.
        max: usize,
    },
    /// A character that base64url does not use: the link was cut or changed on the way.
    #[error("the link is damaged: character {at} ({found:?}) cannot be part of a share link; copy the whole link again")]
    BadCharacter {
        /// Its position in the encoded part (0-based).
        at: usize,
        /// The character.
        found: char,
    },
    /// The encoded part does not decode to whole bytes, or inflates to nothing valid.
    #[error("the link is damaged or cut short ({0}); copy the whole link again")]
    Damaged(String),
    /// Inflates to more than [`MAX_INFLATED_BYTES`].
    #[error("the link unpacks to more than {} MB, more than any shared session; it was not opened", MAX_INFLATED_BYTES / (1024 * 1024))]
    TooLarge,
}

/// The link fragment (without `#`) for a deflated session file.
pub fn encode(deflated: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::with_capacity(PREFIX.len() + deflated.len().div_ceil(3) * 4);
    out.push_str(PREFIX);
    for chunk in deflated.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        let digits = chunk.len() + 1;
        for i in 0..digits {
            out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

/// Whether a fragment (with or without its `#`) is meant as a share link, before it is decoded.
pub fn is_link(fragment: &str) -> bool {
    fragment.trim_start_matches('#').starts_with(PREFIX)
}

/// The session file bytes a link's fragment (with or without `#`) carries, or why not. The bytes
/// still need every check an imported file gets.
pub fn decode(fragment: &str) -> Result<Vec<u8>, ShareLinkError> {
    let encoded = fragment
        .trim_start_matches('#')
        .strip_prefix(PREFIX)
        .ok_or(ShareLinkError::NotALink)?;
    // Links pasted from a mail or a chat may end in whitespace or a full stop's neighbours.
    let encoded = encoded.trim_end();
    let chars = encoded.chars().count();
    if chars > MAX_LINK_CHARS {
        return Err(ShareLinkError::TooLong {
            chars,
            max: MAX_LINK_CHARS,
        });
    }
    let deflated = base64url(encoded)?;
    miniz_oxide::inflate::decompress_to_vec_with_limit(&deflated, MAX_INFLATED_BYTES).map_err(|e| {
        if e.status == miniz_oxide::inflate::TINFLStatus::HasMoreOutput {
            ShareLinkError::TooLarge
        } else {
            ShareLinkError::Damaged(e.to_string())
        }
    })
}

/// Base64url without padding (a trailing `=` or `%3D` from a tool that pads is accepted).
fn base64url(encoded: &str) -> Result<Vec<u8>, ShareLinkError> {
    let encoded = encoded.trim_end_matches("%3D").trim_end_matches('=');
    let mut out = Vec::with_capacity(encoded.len() / 4 * 3 + 2);
    let (mut acc, mut bits) = (0u32, 0u32);
    for (at, found) in encoded.chars().enumerate() {
        let value = match found {
            'A'..='Z' => found as u32 - 'A' as u32,
            'a'..='z' => found as u32 - 'a' as u32 + 26,
            '0'..='9' => found as u32 - '0' as u32 + 52,
            '-' => 62,
            '_' => 63,
            _ => return Err(ShareLinkError::BadCharacter { at, found }),
        };
        acc = (acc << 6) | value;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    if bits >= 6 {
        return Err(ShareLinkError::Damaged(
            "its last character is left over".into(),
        ));
    }
    Ok(out)
}
