//! Small text helpers shared by the tree's rendering, the prompts and the engine's activity log:
//! one place decides how a long text is flattened or cut, so every prompt cuts the same way.

/// A text on one line, cut at `max` characters.
pub(crate) fn one_line(text: &str, max: usize) -> String {
    let mut out = String::with_capacity(text.len().min(max * 4));
    let mut count = 0;
    for word in text.split_whitespace() {
        let extra = word.chars().count() + usize::from(count > 0);
        if count + extra > max {
            // Cut inside the budget, leaving room for the ellipsis.
            let room = max.saturating_sub(1).saturating_sub(count);
            if count > 0 && room > 0 {
                out.push(' ');
            }
            out.extend(
                word.chars()
                    .take(room.saturating_sub(usize::from(count > 0))),
            );
            out.push('…');
            return out;
        }
        if count > 0 {
            out.push(' ');
        }
        out.push_str(word);
        count += extra;
    }
    out
}

/// The wire spelling of a unit enum value (`needs_revision`), as serde writes it, for prompts.
pub(crate) fn wire_word<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// Cuts a text at `max` characters, saying so.
pub(crate) fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let head: String = text.chars().take(max).collect();
        format!("{head}\n[… cut at {max} characters]")
    }
}

#[cfg(test)]
mod tests {
    use super::one_line;

    #[test]
    fn one_line_flattens_and_cuts_at_the_limit() {
        assert_eq!(one_line("a  b\n\tc", 10), "a b c");
        assert_eq!(one_line("", 10), "");
        assert_eq!(one_line("abcdef ghij", 11), "abcdef ghij");
        let cut = one_line("abcdef ghijkl", 10);
        assert_eq!(cut.chars().count(), 10);
        assert!(cut.ends_with('…'));
        assert!(cut.starts_with("abcdef gh"));
        assert_eq!(one_line("abcdefghijkl", 5).chars().count(), 5);
    }
}
