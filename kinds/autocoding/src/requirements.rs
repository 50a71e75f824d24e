//! The requirements as numbered items (`R1`, `R2`, …), so the coach names which requirement each
//! point of its review is about and the check can tell a requirement left out. A list in the
//! requirements (`-`, `*`, `+`, `1.`, `1)`, `- [ ]` items) gives one item each, with their indented
//! or following lines; text before the first item is context, not a requirement. Without a list,
//! the whole text is one requirement.

/// One requirement: its id and its text as the person wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Requirement {
    /// `R1`, `R2`, …
    pub id: String,
    /// The item's text, its marker removed.
    pub text: String,
}

/// The text after a list marker at the start of `line`, if it starts with one.
fn item_text(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let rest = if let Some(r) = t
        .strip_prefix("- ")
        .or_else(|| t.strip_prefix("* "))
        .or_else(|| t.strip_prefix("+ "))
    {
        r
    } else {
        let digits = t.chars().take_while(char::is_ascii_digit).count();
        if digits == 0 || digits > 3 {
            return None;
        }
        t[digits..]
            .strip_prefix(". ")
            .or_else(|| t[digits..].strip_prefix(") "))?
    };
    let rest = rest.trim_start();
    Some(
        ["[ ] ", "[x] ", "[X] "]
            .iter()
            .find_map(|box_| rest.strip_prefix(box_))
            .unwrap_or(rest),
    )
}

/// The text before the first list item (empty without a list, where the whole text is the one
/// requirement).
pub fn context(text: &str) -> String {
    match text.lines().position(|l| item_text(l).is_some()) {
        Some(first) => text
            .lines()
            .take(first)
            .collect::<Vec<_>>()
            .join("\n")
            .trim()
            .to_string(),
        None => String::new(),
    }
}

/// The requirements as a prompt shows them: the context, then one numbered line each.
pub fn render(text: &str) -> String {
    let mut out = context(text);
    if !out.is_empty() {
        out.push_str("\n\n");
    }
    let lines: Vec<String> = items(text)
        .iter()
        .map(|r| format!("{}. {}", r.id, r.text))
        .collect();
    out.push_str(&lines.join("\n"));
    out
}

/// The requirements of `text`, numbered from `R1`.
pub fn items(text: &str) -> Vec<Requirement> {
    let mut out: Vec<String> = Vec::new();
    let mut in_item = false;
    for line in text.lines() {
        if let Some(rest) = item_text(line) {
            out.push(rest.trim().to_string());
            in_item = true;
        } else if in_item && !line.trim().is_empty() {
            let last = out.last_mut().expect("in an item");
            last.push(' ');
            last.push_str(line.trim());
        } else if line.trim().is_empty() {
            // A blank line ends an item's continuation only when the next line is not indented;
            // keeping it simple: a blank line ends it.
            in_item = false;
        }
    }
    out.retain(|t| !t.is_empty());
    if out.is_empty() {
        let whole = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if !whole.is_empty() {
            out.push(whole);
        }
    }
    out.into_iter()
        .enumerate()
        .map(|(i, text)| Requirement {
            id: format!("R{}", i + 1),
            text,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(text: &str) -> Vec<(String, String)> {
        items(text).into_iter().map(|r| (r.id, r.text)).collect()
    }

    #[test]
    fn a_list_gives_one_requirement_per_item_and_the_preamble_is_context() {
        assert_eq!(
            texts("Build an adder.\n\n- add(a, b) returns the sum\n  of two numbers\n* throws on text\n3) has tests\n- [ ] documented"),
            vec![
                ("R1".into(), "add(a, b) returns the sum of two numbers".into()),
                ("R2".into(), "throws on text".into()),
                ("R3".into(), "has tests".into()),
                ("R4".into(), "documented".into()),
            ]
        );
        assert_eq!(context("Build an adder.\n\n- a\n- b"), "Build an adder.");
        assert_eq!(
            render("Build an adder.\n\n- a\n- b"),
            "Build an adder.\n\nR1. a\nR2. b"
        );
    }

    #[test]
    fn text_without_a_list_is_one_requirement_and_empty_text_none() {
        assert_eq!(
            texts("Write a\nfunction that adds."),
            vec![("R1".into(), "Write a function that adds.".into())]
        );
        assert_eq!(texts("  \n"), vec![]);
        assert_eq!(context("Write a\nfunction."), "");
        // A number that is not a list marker stays text.
        assert_eq!(
            texts("2024 was a year."),
            vec![("R1".into(), "2024 was a year.".into())]
        );
    }
}
