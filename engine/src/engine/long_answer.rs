//! An answer refused for its length: what the log keeps of it.
//!
//! A model may send megabytes (a player writing an 8 MB file). Any kind's answer longer than the
//! kind reads at that step ([`super::Protocol::too_long`]) is refused by its length before it is
//! read, and its `answer_received` event keeps only the answer's first [`ANSWER_KEPT_BYTES`]
//! with the whole answer's length (`whole_bytes`): writing, cloning and storing the event stays
//! cheap, and the transcript says "the answer was 8.0 MB; the first 64.0 KB are kept".
//!
//! The refusal is recorded as the fact it was (the `answer_invalid` event holds the length
//! violation and the repair prompt), never re-derived from the kept text: replay, import, export,
//! share and fork give the verdict and the repair prompt of the live run. The conversation's
//! quote of a cut answer is worked out from the event alone ([`quoted_cut`]), so it is the same
//! live and replayed. A log written before answers were cut (the whole answer in the event, no
//! `whole_bytes`) reads and replays as it always did.

use crate::validate::Violation;

/// The longest answer any kind reads at any step unless it says less
/// ([`super::Protocol::too_long`]): 4 MiB, far past the longest answer a provider gives within
/// its output-token limits (a few hundred KB).
pub const ANSWER_BYTES_MAX: usize = 4 * 1024 * 1024;

/// How much of an answer refused for its length the log keeps: its first 64 KiB (cut back to a
/// character).
pub const ANSWER_KEPT_BYTES: usize = 64 * 1024;

/// The default refusal of an answer `bytes` long past `max` bytes, or `None` within it.
pub fn refusal(bytes: usize, max: usize) -> Option<Violation> {
    (bytes > max).then(|| Violation {
        path: String::new(),
        message: format!("the answer is {bytes} bytes long"),
        expected: format!("at most {max} bytes"),
        received: format!("{bytes} bytes"),
        hint: "answer with the shape asked for, and nothing more".into(),
    })
}

/// The head of `raw` the log keeps when it is refused for its length: its first
/// [`ANSWER_KEPT_BYTES`], cut back to a character boundary; `None` when `raw` is no longer than
/// that (it is kept whole).
pub fn kept_head(raw: &str) -> Option<&str> {
    if raw.len() <= ANSWER_KEPT_BYTES {
        return None;
    }
    let mut end = ANSWER_KEPT_BYTES;
    while !raw.is_char_boundary(end) {
        end -= 1;
    }
    Some(&raw[..end])
}

/// What was kept of a cut answer, in words for the transcript: "The answer was 8.0 MB (8388640
/// bytes); the first 64.0 KB are kept."
pub fn kept_words(whole_bytes: u64, kept_bytes: usize) -> String {
    format!(
        "The answer was {} ({whole_bytes} bytes); the first {} are kept.",
        crate::text::bytes_words(whole_bytes),
        crate::text::bytes_words(kept_bytes as u64)
    )
}

/// The conversation's quote of an answer the log keeps only the head of: the first part of the
/// quote [`super::core::quoted_answer`] gives a long answer (cut at whitespace), then a line
/// saying how long the whole answer was. Worked out from the event alone.
pub fn quoted_cut(kept: &str, whole_bytes: u64) -> String {
    let head = super::core::quote_head(kept);
    format!(
        "{head}\n[… the rest of this answer left out here: it was {whole_bytes} bytes long; the problems below say what to fix …]"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_head_is_cut_at_a_character_and_only_past_the_limit() {
        assert_eq!(kept_head(&"x".repeat(ANSWER_KEPT_BYTES)), None);
        let long = format!("{}é{}", "x".repeat(ANSWER_KEPT_BYTES - 1), "y".repeat(10));
        let head = kept_head(&long).unwrap();
        assert_eq!(
            head.len(),
            ANSWER_KEPT_BYTES - 1,
            "the two-byte é is not split"
        );
        assert!(long.starts_with(head));
    }

    #[test]
    fn the_default_refusal_is_by_length_past_the_limit_only() {
        assert_eq!(refusal(10, 10), None);
        let v = refusal(11, 10).unwrap();
        assert_eq!(
            (v.message.as_str(), v.expected.as_str(), v.received.as_str()),
            (
                "the answer is 11 bytes long",
                "at most 10 bytes",
                "11 bytes"
            )
        );
    }

    #[test]
    fn the_words_say_how_long_it_was_and_what_is_kept() {
        assert_eq!(
            kept_words(8 * 1024 * 1024 + 32, ANSWER_KEPT_BYTES),
            "The answer was 8.0 MB (8388640 bytes); the first 64.0 KB are kept."
        );
        let quote = quoted_cut(&"word ".repeat(20_000), 9_000_000);
        assert!(quote.ends_with("it was 9000000 bytes long; the problems below say what to fix …]"));
        assert!(quote.len() < super::super::core::ANSWER_QUOTE_MAX);
    }
}
