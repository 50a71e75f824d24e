//! Where each value of a JSON text stands: the pointer of every value in the order the text
//! writes them (so a schema's violations come in the order of the answer, though
//! `serde_json::Value` sorts keys), and the first place a text nests deeper than a limit (so a
//! too-deep schema is refused with its depth and pointer before the parser gives up on it).

use std::collections::BTreeMap;

use super::super::Violation;
use super::escape;

/// One open container while the text is read.
struct Frame {
    key: Option<String>,
    index: Option<usize>,
    expect_key: bool,
}

/// Reads `text`, calling `at(pointer, depth)` at the start of every value; stops early when
/// `at` returns false.
fn walk(text: &str, mut at: impl FnMut(&str, usize) -> bool) {
    let bytes = text.as_bytes();
    let mut stack: Vec<Frame> = Vec::new();
    let pointer = |stack: &[Frame]| {
        let mut out = String::new();
        for f in stack {
            match (&f.key, f.index) {
                (Some(k), _) => {
                    out.push('/');
                    out.push_str(&escape(k));
                }
                (None, Some(i)) => {
                    out.push('/');
                    out.push_str(&i.to_string());
                }
                (None, None) => {}
            }
        }
        out
    };
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'"' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                let end = (i + 1).min(bytes.len());
                let is_key = stack.last().is_some_and(|f| f.expect_key);
                if is_key {
                    let raw = text.get(start..end).unwrap_or("\"\"");
                    let key: String = serde_json::from_str(raw)
                        .unwrap_or_else(|_| raw.trim_matches('"').to_string());
                    if let Some(f) = stack.last_mut() {
                        f.key = Some(key);
                        f.expect_key = false;
                    }
                } else if !at(&pointer(&stack), stack.len()) {
                    return;
                }
            }
            b'{' | b'[' => {
                if !at(&pointer(&stack), stack.len()) {
                    return;
                }
                stack.push(Frame {
                    key: None,
                    index: (b == b'[').then_some(0),
                    expect_key: b == b'{',
                });
                if !stack.is_empty() && !at_depth(&mut at, &pointer(&stack), stack.len()) {
                    return;
                }
            }
            b'}' | b']' => {
                stack.pop();
            }
            b',' => {
                if let Some(f) = stack.last_mut() {
                    match f.index.as_mut() {
                        Some(n) => *n += 1,
                        None => {
                            f.expect_key = true;
                            f.key = None;
                        }
                    }
                }
            }
            b'-' | b'0'..=b'9' | b't' | b'f' | b'n' => {
                if !at(&pointer(&stack), stack.len()) {
                    return;
                }
                while i + 1 < bytes.len()
                    && matches!(bytes[i + 1], b'-' | b'+' | b'.' | b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z')
                {
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
}

/// Tells `at` of a container just opened (its depth is the stack's length).
fn at_depth(at: &mut impl FnMut(&str, usize) -> bool, pointer: &str, depth: usize) -> bool {
    at(&format!("{pointer}\u{0}"), depth)
}

/// The depth and pointer of the first container nested deeper than `limit`, if any.
pub(super) fn too_deep(text: &str, limit: usize) -> Option<(usize, String)> {
    let mut found = None;
    walk(text, |pointer, depth| {
        if let Some(p) = pointer.strip_suffix('\u{0}') {
            if depth > limit {
                found = Some((depth, p.to_string()));
                return false;
            }
        }
        true
    });
    found
}

/// Sorts violations into the order the answer writes their values; a violation about a value
/// that is not there (a missing field) goes after the others, in the order it was found.
pub(super) fn sort_by_answer(errors: &mut [Violation], text: &str) {
    if errors.len() < 2 {
        return;
    }
    let mut first: BTreeMap<String, usize> = BTreeMap::new();
    let mut n = 0;
    walk(text, |pointer, _| {
        if !pointer.ends_with('\u{0}') {
            first.entry(pointer.to_string()).or_insert(n);
            n += 1;
        }
        true
    });
    let key = |v: &Violation| first.get(&v.path).copied().unwrap_or(usize::MAX);
    errors.sort_by_key(key);
}
