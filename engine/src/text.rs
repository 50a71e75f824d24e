//! Small text helpers shared by the tree's rendering, the prompts and the engine's activity log:
//! one place decides how a long text is flattened or cut, so every prompt cuts the same way. And
//! [`Text`], how a long text (a version's content, a raw answer) is held once however many
//! places keep it.

/// A long text held once and shared: a version's content is the same allocation in the answer
/// the engine applied, in the event log and in the tree, and a raw answer the same in its event
/// and its call record. It reads and serialises as a plain string.
pub type Text = std::sync::Arc<str>;

use std::fmt::Write as _;

/// A text on one line, at most about `max` characters: when it is longer, cut after the last
/// whole word that fits and marked with what was left out (`… (312 more characters)`), so a
/// reader never takes a cut word for a real one nor a cut text for the whole. The marker is
/// counted in `max` (a single word longer than the room is cut inside, still marked).
pub fn one_line(text: &str, max: usize) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let total: usize =
        words.iter().map(|w| w.chars().count()).sum::<usize>() + words.len().saturating_sub(1);
    if total <= max {
        return words.join(" ");
    }
    // Room for the words: the limit less the marker (`… (` + the digits + ` more characters)`).
    let marker = 20 + total.to_string().len();
    let room = max.saturating_sub(marker).max(1);
    let mut out = String::with_capacity(room + marker);
    let mut count = 0;
    for word in &words {
        let extra = word.chars().count() + usize::from(count > 0);
        if count + extra > room {
            if count == 0 {
                out.extend(word.chars().take(room));
                count = room;
            }
            break;
        }
        if count > 0 {
            out.push(' ');
        }
        out.push_str(word);
        count += extra;
    }
    let _ = write!(out, "… ({} more characters)", total - count);
    out
}

/// A file as a Markdown section: its path as a heading, its text in a code fence one longer
/// than any fence inside it, so the file's own fences cannot close it.
pub fn file_section(path: &str, content: &str) -> String {
    let fence = if content.contains("```") {
        "````"
    } else {
        "```"
    };
    format!("### {path}\n{fence}\n{}\n{fence}\n", content.trim_end())
}

/// The wire spelling of a unit enum value (`needs_revision`), as serde writes it, for prompts.
pub fn wire_word<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// Cuts a text at its last whitespace within `max` characters (never mid-word, unless a single
/// word is longer), saying how much was left out.
pub fn cut(text: &str, max: usize) -> String {
    let total = text.chars().count();
    if total <= max {
        return text.to_string();
    }
    let end = text.char_indices().nth(max).map_or(text.len(), |(i, _)| i);
    let head = &text[..end];
    let head = match head.rfind(char::is_whitespace) {
        Some(i) if i > 0 => head[..i].trim_end(),
        _ => head,
    };
    let left = total - head.chars().count();
    format!("{head}\n[… {left} more characters left out]")
}

/// Whether `c` is invisible or reorders text around it: a control character, a bidirectional
/// mark, embedding, override or isolate, a zero-width character, a soft hyphen, a line or
/// paragraph separator. A name holding one can read as another (`evil\u{202E}sj.txt` shows as
/// `eviltxt.js`), so such a name is refused, and shown with each one escaped.
pub fn is_invisible(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{061C}'
                | '\u{180E}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{2069}'
                | '\u{FEFF}'
                | '\u{FFF9}'..='\u{FFFB}'
        )
}

/// `text` with each [`is_invisible`] character written as `\u{…}`, so a person sees it.
pub fn escape_invisible(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(is_invisible) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_invisible(c) {
            let _ = write!(out, "\\u{{{:04X}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A count with its noun in the right number, as pages say it: "1 turn", "7 turns" (never
/// "7 turn(s)").
pub fn count(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// A model as a person names it, from its `provider/model` id: the model's own name without its
/// provider's prefix ("gpt-4o-mini" for `openai/gpt-4o-mini`), and the built-in demo model in
/// words ("demo model", "demo model, second voice") rather than its id `demo/demo-1`. Pages,
/// minutes and reports all name models through this one rule.
pub fn model_name(model: &str) -> String {
    match model.split_once('/') {
        Some(("demo", "demo-1")) => "demo model".to_string(),
        Some(("demo", "demo-2")) => "demo model, second voice".to_string(),
        Some(("demo", other)) => format!("demo model ({other})"),
        Some((_, name)) if !name.is_empty() => name.to_string(),
        _ => model.to_string(),
    }
}

/// The one model every member runs on, by name, when they all share one (`provider/model`
/// each): a page or a report then says it once instead of on every member.
pub fn shared_model_name(models: impl IntoIterator<Item = String>) -> Option<String> {
    let names: std::collections::BTreeSet<String> =
        models.into_iter().map(|m| model_name(&m)).collect();
    (names.len() == 1)
        .then(|| names.into_iter().next())
        .flatten()
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

/// At most `max` chars, cut at the last space before the limit when there is one.
pub fn cut_at_word(text: &str, max: usize) -> &str {
    if text.chars().count() <= max {
        return text;
    }
    let byte_end = text
        .char_indices()
        .nth(max)
        .map(|(i, _)| i)
        .unwrap_or(text.len());
    let head = &text[..byte_end];
    match head.rfind(' ') {
        Some(i) if i > max / 2 => head[..i].trim_end(),
        _ => head,
    }
}

/// Re-indents compact JSON exactly as `serde_json::to_string_pretty` would write it (two spaces,
/// `"key": value`, `[]`/`{}` when empty).
///
/// Why not `to_string_pretty` directly: each serializer is compiled once per type it writes, so a
/// pretty and a compact one for the whole event log and state doubled that code in the browser
/// app. Everything is written compact (as the stored events are) and indented here afterwards.
pub fn pretty_json(compact: &str) -> String {
    let mut out = String::with_capacity(compact.len() + compact.len() / 2);
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let mut chars = compact.chars().peekable();
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        for _ in 0..depth {
            out.push_str("  ");
        }
    };
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '{' | '[' => {
                out.push(c);
                if matches!(chars.peek(), Some('}' | ']')) {
                    out.extend(chars.next());
                } else {
                    depth += 1;
                    newline(&mut out, depth);
                }
            }
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(c);
            }
            ',' => {
                out.push(c);
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            _ => out.push(c),
        }
    }
    out
}

/// A size in words: "812 bytes", "50.0 MB".
pub fn bytes_words(size: u64) -> String {
    const KB: u64 = 1024;
    match size {
        s if s < KB => format!("{s} bytes"),
        s if s < KB * KB => format!("{:.1} KB", s as f64 / KB as f64),
        s if s < KB * KB * KB => format!("{:.1} MB", s as f64 / (KB * KB) as f64),
        s => format!("{:.1} GB", s as f64 / (KB * KB * KB) as f64),
    }
}

#[cfg(test)]
mod tests {
    use super::{cut, one_line, title_of};

    #[test]
    fn one_line_flattens_and_cuts_at_the_limit() {
        assert_eq!(one_line("a  b\n\tc", 10), "a b c");
        assert_eq!(one_line("", 10), "");
        assert_eq!(one_line("abcdef ghij", 11), "abcdef ghij");
        // Cut after a whole word, marked with what was left out, within the limit.
        let long = "alpha beta gamma delta epsilon zeta eta theta iota kappa";
        let cut = one_line(long, 40);
        assert_eq!(cut, "alpha beta gamma… (40 more characters)");
        assert!(cut.chars().count() <= 40);
        // A single word longer than the room is cut inside, still marked.
        assert_eq!(
            one_line(&"x".repeat(100), 40),
            format!("{}… (83 more characters)", "x".repeat(17))
        );
    }

    #[test]
    fn cut_ends_at_a_word_and_says_how_much_is_left_out() {
        let text = "one two three four five";
        assert_eq!(cut(text, 100), text);
        assert_eq!(cut(text, 10), "one two\n[… 16 more characters left out]");
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
