//! Server-sent events, decoded from bytes as they arrive: the streamed answers of OpenAI-compatible
//! servers and of Anthropic come as `text/event-stream`, cut into network chunks anywhere.
//!
//! Pure (no browser types) so it runs under plain `cargo test`. Bytes are kept until a whole line
//! is in: line ends (CR, LF, CRLF) are ASCII and never part of a multi-byte UTF-8 sequence, so a
//! character split between two chunks is decoded only once both halves are here. Only `data`
//! fields matter to us; comments (`: …`) and other fields (`event`, `id`, `retry`) are skipped,
//! and a blank line ends an event, as in the WHATWG event-stream format.

/// Decodes an event stream fed in arbitrary chunks into the `data` of each event.
#[derive(Debug, Default)]
pub struct SseDecoder {
    /// Bytes of the line not yet ended.
    line: Vec<u8>,
    /// The data lines of the event not yet ended, joined by `\n`.
    data: String,
    /// Whether the event being read has a `data` field (an empty one counts).
    has_data: bool,
    /// The last byte fed was a CR: an LF right after it ends no second line.
    after_cr: bool,
    /// A line has ended (the first one may start with a byte-order mark, which is dropped).
    past_first_line: bool,
}

impl SseDecoder {
    /// A decoder at the start of a stream.
    pub fn new() -> SseDecoder {
        SseDecoder::default()
    }

    /// Takes the next chunk and returns the data of every event it completed, in order.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<String> {
        let mut events = Vec::new();
        for &b in bytes {
            if std::mem::take(&mut self.after_cr) && b == b'\n' {
                continue;
            }
            match b {
                b'\r' | b'\n' => {
                    self.after_cr = b == b'\r';
                    self.end_line(&mut events);
                }
                _ => self.line.push(b),
            }
        }
        events
    }

    /// The stream ended: an event whose blank line never came is still delivered (servers that
    /// close right after the last `data:` line would otherwise lose it).
    pub fn finish(&mut self) -> Vec<String> {
        let mut events = Vec::new();
        if !self.line.is_empty() {
            self.end_line(&mut events);
        }
        self.end_line(&mut events);
        events
    }

    fn end_line(&mut self, events: &mut Vec<String>) {
        let mut line = std::mem::take(&mut self.line);
        if !std::mem::replace(&mut self.past_first_line, true) && line.starts_with(b"\xEF\xBB\xBF")
        {
            line.drain(..3);
        }
        if line.is_empty() {
            if std::mem::take(&mut self.has_data) {
                events.push(std::mem::take(&mut self.data));
            }
            return;
        }
        let line = String::from_utf8_lossy(&line);
        let (field, value) = match line.find(':') {
            Some(0) => return, // a comment
            Some(i) => {
                let value = &line[i + 1..];
                (&line[..i], value.strip_prefix(' ').unwrap_or(value))
            }
            None => (&line[..], ""),
        };
        if field == "data" {
            if self.has_data {
                self.data.push('\n');
            }
            self.data.push_str(value);
            self.has_data = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_byte_order_mark_at_the_start_is_dropped() {
        let mut d = SseDecoder::new();
        let mut out = d.feed(b"\xEF\xBB\xBFdata: first\n\ndata: \xEF\xBB\xBFkept\n\n");
        out.extend(d.finish());
        assert_eq!(out, ["first", "\u{FEFF}kept"]);
    }

    /// Feeds `stream` cut at `at` (and whole, when `at` is past the end), then ends it.
    fn decode_split(stream: &[u8], at: usize) -> Vec<String> {
        let mut d = SseDecoder::new();
        let at = at.min(stream.len());
        let mut out = d.feed(&stream[..at]);
        out.extend(d.feed(&stream[at..]));
        out.extend(d.finish());
        out
    }

    /// Every cut position, and one byte per chunk, give the same events.
    fn decode_everywhere(stream: &str) -> Vec<String> {
        let bytes = stream.as_bytes();
        let whole = decode_split(bytes, usize::MAX);
        for at in 0..=bytes.len() {
            assert_eq!(decode_split(bytes, at), whole, "cut at byte {at}");
        }
        let mut d = SseDecoder::new();
        let mut one_by_one: Vec<String> = bytes.iter().flat_map(|b| d.feed(&[*b])).collect();
        one_by_one.extend(d.finish());
        assert_eq!(one_by_one, whole, "one byte per chunk");
        whole
    }

    #[test]
    fn lf_and_crlf_and_cr_line_ends_give_the_same_events() {
        let lf = "data: {\"a\":1}\n\ndata: {\"b\":2}\n\ndata: [DONE]\n\n";
        let want = vec!["{\"a\":1}", "{\"b\":2}", "[DONE]"];
        assert_eq!(decode_everywhere(lf), want);
        assert_eq!(decode_everywhere(&lf.replace('\n', "\r\n")), want);
        assert_eq!(decode_everywhere(&lf.replace('\n', "\r")), want);
    }

    #[test]
    fn data_lines_of_one_event_join_with_newlines() {
        let s = "data: first\ndata:second\ndata\ndata:  indented\n\n";
        assert_eq!(decode_everywhere(s), vec!["first\nsecond\n\n indented"]);
    }

    #[test]
    fn comments_other_fields_and_garbage_are_skipped() {
        let s = ": keep-alive\n\nevent: content_block_delta\nid: 7\nretry: 100\nnonsense line\n\
                 data: {\"x\":1}\n\n\n\nevent: ping\n\n";
        assert_eq!(decode_everywhere(s), vec!["{\"x\":1}"]);
    }

    #[test]
    fn a_multibyte_character_split_between_chunks_is_decoded_whole() {
        let s = "data: {\"content\":\"naïve — 日本語 🎉\"}\n\n";
        assert_eq!(
            decode_everywhere(s),
            vec!["{\"content\":\"naïve — 日本語 🎉\"}"]
        );
    }

    #[test]
    fn an_event_cut_off_by_the_end_of_the_stream_is_still_delivered() {
        assert_eq!(decode_everywhere("data: [DONE]"), vec!["[DONE]"]);
        assert_eq!(decode_everywhere("data: a\n"), vec!["a"]);
        assert!(decode_everywhere("").is_empty());
    }

    #[test]
    fn invalid_utf8_becomes_replacement_characters_not_a_failure() {
        let mut d = SseDecoder::new();
        assert_eq!(d.feed(b"data: a\xffb\n\n"), vec!["a\u{fffd}b"]);
    }
}
