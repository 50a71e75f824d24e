//! Small text helpers shared by the tree's rendering, the prompts and the engine's activity log:
//! one place decides how a long text is flattened or cut, so every prompt cuts the same way. And
//! [`Text`], how a long text (a version's content, a raw answer) is held once however many
//! places keep it.

/// A long text held once and shared: a version's content is the same allocation in the answer
/// the engine applied, in the event log and in the tree, and a raw answer the same in its event
/// and its call record. It reads and serialises as a plain string.
pub type Text = std::sync::Arc<str>;

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

/// A title for lists: the first line of the request, shortened.
pub fn title_of(request: &str) -> String {
    let first = request
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("Untitled");
    // A request written in Markdown: the title is the heading's text, not its markup.
    let mut first = first.trim();
    // Quote markers, then one heading marker (1–6 `#` and a space: `#1 priority` stays), then
    // one list bullet.
    first = first.trim_start_matches(['>', ' ']);
    let hashes = first.len() - first.trim_start_matches('#').len();
    if (1..=6).contains(&hashes)
        && first[hashes..]
            .chars()
            .next()
            .is_none_or(char::is_whitespace)
    {
        first = first[hashes..].trim_start();
    }
    let first = ["- ", "* ", "+ "]
        .iter()
        .find_map(|bullet| first.strip_prefix(bullet))
        .unwrap_or(first)
        .trim();
    let first = if first.is_empty() { "Untitled" } else { first };
    if first.chars().count() > 90 {
        let cut: String = first.chars().take(88).collect();
        format!("{}…", cut.trim_end())
    } else {
        first.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::{one_line, title_of};

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

    #[test]
    fn the_title_is_the_first_line_without_its_markdown_markup() {
        assert_eq!(
            title_of("# Plan a garden party\n\nWe host 40."),
            "Plan a garden party"
        );
        assert_eq!(title_of("\n\n> - Compare heat pumps"), "Compare heat pumps");
        assert_eq!(title_of("Plain request"), "Plain request");
        assert_eq!(title_of("###"), "Untitled");
        assert_eq!(title_of("#1 priority: ship it"), "#1 priority: ship it");
        assert_eq!(title_of("#hashtag campaign"), "#hashtag campaign");
        assert_eq!(title_of("####### seven"), "####### seven");
        let long = "word ".repeat(40);
        let t = title_of(&long);
        assert!(t.ends_with('…') && t.chars().count() <= 89, "{t}");
    }
}
