//! Newline-delimited JSON, decoded from bytes as they arrive: Ollama's native `/api/chat` streams
//! one JSON object per line (`application/x-ndjson`), cut into network chunks anywhere.
//!
//! Pure, like [`super::sse`]: bytes are kept until a whole line is in, so a character split
//! between two chunks is decoded only once both halves are here. Blank lines are skipped; a last
//! line with no newline is still delivered when the stream ends.

/// Decodes a stream of JSON lines fed in arbitrary chunks into its lines.
#[derive(Debug, Default)]
pub struct NdjsonDecoder {
    /// Bytes of the line not yet ended.
    line: Vec<u8>,
}

impl NdjsonDecoder {
    /// Takes the next chunk and returns every line it completed, in order.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<String> {
        let mut lines = Vec::new();
        for &b in bytes {
            if b == b'\n' {
                self.end_line(&mut lines);
            } else {
                self.line.push(b);
            }
        }
        lines
    }

    /// The stream ended: a last line with no newline is still delivered.
    pub fn finish(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        self.end_line(&mut lines);
        lines
    }

    fn end_line(&mut self, lines: &mut Vec<String>) {
        let line = std::mem::take(&mut self.line);
        let text = String::from_utf8_lossy(&line);
        let text = text.trim();
        if !text.is_empty() {
            lines.push(text.to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const STREAM: &str = "{\"message\":{\"content\":\"naïve 日本\"},\"done\":false}\r\n\n\
                          {\"message\":{\"content\":\"🎉\"},\"done\":false}\n{\"done\":true}";

    fn decode(chunks: &[&[u8]]) -> Vec<String> {
        let mut d = NdjsonDecoder::default();
        let mut out: Vec<String> = chunks.iter().flat_map(|c| d.feed(c)).collect();
        out.extend(d.finish());
        out
    }

    #[test]
    fn lines_blank_lines_and_an_unended_last_line() {
        assert_eq!(
            decode(&[STREAM.as_bytes()]),
            vec![
                "{\"message\":{\"content\":\"naïve 日本\"},\"done\":false}",
                "{\"message\":{\"content\":\"🎉\"},\"done\":false}",
                "{\"done\":true}",
            ]
        );
    }

    proptest! {
        #[test]
        fn any_chunking_gives_the_same_lines(cuts in proptest::collection::vec(0..STREAM.len(), 0..8)) {
            let bytes = STREAM.as_bytes();
            let mut cuts = cuts;
            cuts.sort_unstable();
            let mut chunks = Vec::new();
            let mut at = 0;
            for c in cuts {
                chunks.push(&bytes[at..c.max(at)]);
                at = c.max(at);
            }
            chunks.push(&bytes[at..]);
            prop_assert_eq!(decode(&chunks), decode(&[bytes]));
        }
    }
}
