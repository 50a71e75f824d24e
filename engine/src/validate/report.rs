//! Words for people and models: syntax errors as violations, a [`Report`] as text, and the
//! repair prompt that goes back to the same model.

use std::fmt;

use super::check::{Syntax, SyntaxKind};
use super::json::shorten;
use super::{Report, Violation};

/// A syntax error that recovery could not fix, as a violation of the whole answer (or, for a
/// Python literal, of the field where it stands).
pub fn syntax_violation(text: &str, syntax: &Syntax) -> Violation {
    let (line, column) = line_column(text, syntax.pos);
    let near = snippet(text, syntax.pos);
    let at = format!("at line {line}, column {column}");
    let generic_hint =
        "Answer with one valid JSON object; check the quotes, commas and brackets near there.";
    let (path, message, expected, received, hint) = match &syntax.kind {
        SyntaxKind::End => {
            let v = super::recover::cut_off(text);
            return v;
        }
        SyntaxKind::Python(python, json) => (
            syntax.path.clone(),
            format!("{python} is Python, not JSON ({at})"),
            (*json).to_string(),
            (*python).to_string(),
            "Use the JSON literals true, false and null, in lower case.".to_string(),
        ),
        SyntaxKind::Expected(what) => (
            String::new(),
            format!("the answer is not valid JSON: expected {what} {at}"),
            "valid JSON".to_string(),
            near,
            generic_hint.to_string(),
        ),
        SyntaxKind::Control => (
            String::new(),
            format!("a raw control character inside a string {at}"),
            "escaped characters (\\n, \\t)".to_string(),
            near,
            "Inside JSON strings write a newline as \\n and a tab as \\t.".to_string(),
        ),
        SyntaxKind::Escape(why) => (
            String::new(),
            format!("a bad escape inside a string {at}: {why}"),
            "a JSON escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)".to_string(),
            near,
            "Write a backslash inside a string as \\\\.".to_string(),
        ),
        SyntaxKind::TrailingComma => (
            String::new(),
            format!("a comma before a closing bracket {at}"),
            "no comma after the last item".to_string(),
            near,
            generic_hint.to_string(),
        ),
        SyntaxKind::Comment => (
            String::new(),
            format!("a comment {at}"),
            "no comments".to_string(),
            near,
            "JSON has no comments; leave them out.".to_string(),
        ),
        SyntaxKind::TooDeep => (
            String::new(),
            format!("the answer nests deeper than JSON answers ever need {at}"),
            "at most 128 levels of nesting".to_string(),
            near,
            "Answer with the shape the step asks for.".to_string(),
        ),
        SyntaxKind::NotAnObject => (
            String::new(),
            "the answer is not a JSON object".to_string(),
            "one JSON object".to_string(),
            near,
            "Answer with one JSON object, starting with {.".to_string(),
        ),
        SyntaxKind::TrailingText => (
            String::new(),
            format!("something follows the JSON object {at}"),
            "nothing after the object".to_string(),
            near,
            "Send only the JSON object.".to_string(),
        ),
        SyntaxKind::Number => (
            syntax.path.clone(),
            format!("a malformed number {at}"),
            "a JSON number (e.g. 7, -2, 0.5)".to_string(),
            near,
            "Write numbers without leading zeros, plus signs or trailing dots.".to_string(),
        ),
    };
    Violation::new(path, message, expected, received, hint)
}

/// A disagreement between the checker and `serde` (should never happen; kept visible if it does).
pub fn serde_violation(e: &serde_json::Error) -> Violation {
    Violation {
        path: String::new(),
        message: format!("the answer could not be read: {e}"),
        expected: "an answer of the step's shape".into(),
        received: String::new(),
        hint: "Answer with exactly the fields the step asks for.".into(),
    }
}

/// The provider said it stopped for length, yet the answer is whole and valid.
pub fn complete_despite_length() -> Violation {
    Violation {
        path: String::new(),
        message:
            "the provider reported that the answer stopped for length, but it is complete and valid"
                .into(),
        expected: "an answer that ends on its own".into(),
        received: "stop for length".into(),
        hint: "Keep answers shorter so that they are never near the length limit.".into(),
    }
}

fn line_column(text: &str, pos: usize) -> (usize, usize) {
    let mut pos = pos.min(text.len());
    while !text.is_char_boundary(pos) {
        pos -= 1;
    }
    let before = &text[..pos];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

fn snippet(text: &str, pos: usize) -> String {
    let mut s = pos.saturating_sub(30).min(text.len());
    while !text.is_char_boundary(s) {
        s -= 1;
    }
    shorten(&text[s..], 60)
}

/// The message that sends an invalid answer back to the model: every violation, numbered, with
/// where, what, what was expected, what was received and how to fix it. `what` names the answer
/// ("the PlanAssign step", "the minutes"). Every kind of session words repairs this way.
pub fn repair_prompt(what: &str, errors: &[Violation]) -> String {
    use fmt::Write as _;
    let n = errors.len();
    let size: usize = errors
        .iter()
        .map(|v| {
            v.path.len() + v.message.len() + v.expected.len() + v.received.len() + v.hint.len() + 64
        })
        .sum();
    let mut out = String::with_capacity(size + 200);
    // Writing to a String cannot fail.
    let _ = writeln!(
        out,
        "Your answer to {what} could not be used: {n} problem{} to fix.",
        if n == 1 { "" } else { "s" }
    );
    for (i, v) in errors.iter().enumerate() {
        let at = if v.path.is_empty() {
            "the whole answer"
        } else {
            &v.path
        };
        let _ = writeln!(out, "\n{}. {at}: {}", i + 1, v.message);
        let _ = writeln!(out, "   expected: {}", v.expected);
        if !v.received.is_empty() {
            let _ = writeln!(out, "   received: {}", v.received);
        }
        let _ = writeln!(out, "   hint: {}", v.hint);
    }
    out.push_str(
        "\nAnswer again with only the corrected JSON object: no code fence, no text before or after it.",
    );
    out
}

impl<S: fmt::Display> fmt::Display for Report<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid {} answer: ", self.step)?;
        for (i, v) in self.errors.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            let at = if v.path.is_empty() {
                "(answer)"
            } else {
                &v.path
            };
            write!(f, "{at}: {}", v.message)?;
        }
        Ok(())
    }
}

impl<S: fmt::Display + fmt::Debug> std::error::Error for Report<S> {}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.path.is_empty() {
            "(answer)"
        } else {
            &self.path
        };
        write!(
            f,
            "{at}: {} (expected {}, received {})",
            self.message, self.expected, self.received
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_are_one_based() {
        assert_eq!(line_column("ab\ncd", 4), (2, 2));
        assert_eq!(line_column("x", 0), (1, 1));
    }
}
