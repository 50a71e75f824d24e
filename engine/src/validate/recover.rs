//! Getting the one JSON object out of what models really send, without a new model call.
//!
//! Runs only when the strict pass failed. Two stages: [`locate`] finds the object (past a BOM, a
//! `` ```json `` fence, prose before and after) by string-aware bracket matching and refuses what would
//! change meaning to guess at (two objects, a cut-off answer, an array); [`normalize`] fixes what is
//! only spelling (trailing commas, comments, raw newlines and tabs in strings, curly quotes around
//! keys, keys unquoted or in single quotes, a missing comma between fields) in one pass, copying
//! the text only if something needs fixing; [`unwrap`] takes the answer out of a wrapper that
//! carries it whole (the object sent as one JSON string, or inside a tool-call object
//! `{name, arguments}`), and [`locate`] says so when an XML-style tag was around it. Every repair
//! becomes a warning with path `""`, so the transcript shows what the model really sent, and each
//! says what really happened (an answer sent as a JSON string is not "cut off").

use std::borrow::Cow;

use super::json::{scan_string, shorten, Stop};
use super::Violation;

fn note(message: &str, received: &str, hint: &str) -> Violation {
    Violation {
        path: String::new(),
        message: message.to_string(),
        expected: "one JSON object and nothing else".to_string(),
        received: shorten(received, 80),
        hint: hint.to_string(),
    }
}

/// A refusal of the whole answer (path `""`).
fn refuse(message: &str, expected: &str, received: &str, hint: &str) -> Violation {
    Violation {
        path: String::new(),
        message: message.to_string(),
        expected: expected.to_string(),
        received: shorten(received, 80),
        hint: hint.to_string(),
    }
}

/// The error for an answer that stops before its object is closed.
pub fn cut_off(received: &str) -> Violation {
    refuse(
        "the answer looks cut off: it ends before the JSON object is closed",
        "one complete JSON object",
        tail(received),
        "Answer again with a shorter answer: keep every text brief so that the whole object fits.",
    )
}

fn tail(s: &str) -> &str {
    let mut cut = s.len().saturating_sub(60);
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    &s[cut..]
}

/// Strips a byte order mark; returns the rest and whether there was one.
pub fn strip_bom(raw: &str) -> (&str, Option<Violation>) {
    match raw.strip_prefix('\u{feff}') {
        Some(rest) => (
            rest,
            Some(note(
                "removed a byte order mark (BOM) before the answer",
                "\u{feff}",
                "Send plain UTF-8 text.",
            )),
        ),
        None => (raw, None),
    }
}

/// The answer inside a wrapper that carries it whole, with a warning saying which: the object
/// sent as one JSON string (`"{\"responseType\": …}"`), or a tool call (`{"name": …,
/// "arguments": {…}}`, `arguments` an object or a string holding one). `None` when `text` is no
/// such wrapper (an answer with a `responseType` is never one).
pub fn unwrap(text: &str) -> Option<(String, Violation)> {
    let t = text.trim();
    if t.starts_with('"') {
        let inner: String = serde_json::from_str(t).ok()?;
        return inner.trim_start().starts_with('{').then(|| {
            let note = note(
                "the answer was one JSON string holding the object; used the object inside it",
                t,
                "Send the JSON object itself, not a string that contains it.",
            );
            (inner, note)
        });
    }
    if !t.starts_with('{') {
        return None;
    }
    // Only the keys a wrapper has are read; the rest of the text is skipped, not built into a
    // value (an invalid 20 KB answer comes this way on every check).
    #[derive(serde::Deserialize)]
    struct Wrapper<'a> {
        #[serde(rename = "responseType")]
        response_type: Option<serde::de::IgnoredAny>,
        #[serde(borrow)]
        name: Option<&'a serde_json::value::RawValue>,
        #[serde(borrow)]
        arguments: Option<&'a serde_json::value::RawValue>,
        #[serde(borrow)]
        input: Option<&'a serde_json::value::RawValue>,
    }
    let wrapper: Wrapper = serde_json::from_str(t).ok()?;
    if wrapper.response_type.is_some() {
        return None;
    }
    let name = wrapper.name?;
    let carried = wrapper.arguments.or(wrapper.input)?.get();
    let inner = if carried.starts_with('"') {
        serde_json::from_str::<String>(carried)
            .ok()
            .filter(|s| s.trim_start().starts_with('{'))?
    } else if carried.starts_with('{') {
        carried.to_string()
    } else {
        return None;
    };
    let name = serde_json::from_str::<String>(name.get()).unwrap_or_else(|_| "?".into());
    Some((
        inner,
        note(
            &format!("the answer came as a tool call ({name}); used its arguments as the answer"),
            t,
            "Send the JSON object itself, not a function or tool call.",
        ),
    ))
}

/// The XML-style tag name when `before` ends with `<tag>` and `after` starts with `</tag>`.
fn xml_tag<'t>(before: &'t str, after: &str) -> Option<&'t str> {
    let open = before.trim_end().strip_suffix('>')?;
    let start = open.rfind('<')?;
    let name = &open[start + 1..];
    let plain = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    (plain && after.trim_start().starts_with(&format!("</{name}>"))).then_some(name)
}

/// Finds the one top-level object in `text`; returns its slice and a warning for each thing
/// around it that was dropped.
pub fn locate(text: &str) -> Result<(&str, Vec<Violation>), Violation> {
    let mut warnings = Vec::new();
    let Some(start) = text.find('{') else {
        let t = text.trim();
        return Err(if t.is_empty() {
            refuse(
                "the answer is empty",
                "one JSON object",
                "",
                "Answer with the JSON object the step asks for.",
            )
        } else {
            refuse(
                "the answer has no JSON object",
                "one JSON object",
                t,
                "Answer with only the JSON object the step asks for, starting with {.",
            )
        });
    };
    let before = &text[..start];
    let fence_open = before.rfind("```");
    let prose = match fence_open {
        Some(f) => {
            let opener_end = before[f..].find('\n').map_or(before.len(), |n| f + n);
            warnings.push(note(
                "removed a ``` code fence around the JSON object",
                before[f..opener_end].trim(),
                "Send the JSON object without a code fence.",
            ));
            format!("{}{}", &before[..f], &before[opener_end..])
        }
        None => before.to_string(),
    };
    let prose = prose.trim();
    let Some(end) = matching_end(text, start) else {
        return Err(cut_off(text));
    };
    // `<answer>{…}</answer>`: the tag goes, and the warning names it.
    let (prose, after_tag) = match xml_tag(prose, &text[end..]) {
        Some(name) => {
            warnings.push(note(
                &format!("removed an XML-style <{name}> tag around the JSON object"),
                &format!("<{name}>"),
                "Send the JSON object without tags around it.",
            ));
            let open = prose.trim_end().len() - name.len() - 2;
            let close = text[end..].find(&format!("</{name}>")).unwrap_or(0) + name.len() + 3;
            (prose[..open].trim(), end + close)
        }
        None => (prose, end),
    };
    if prose.ends_with('[') {
        return Err(refuse(
            "the answer is a JSON array; it must be one JSON object",
            "one JSON object",
            text,
            "Answer with a single object, not a list of objects.",
        ));
    }
    if !prose.is_empty() {
        warnings.push(note(
            "ignored text before the JSON object",
            prose,
            "Send only the JSON object, without an introduction.",
        ));
    }
    let after = &text[after_tag..];
    let mut rest = after.trim_start();
    if let Some(r) = rest.strip_prefix("```") {
        if fence_open.is_none() {
            warnings.push(note(
                "removed a closing ``` fence after the JSON object",
                "```",
                "Send the JSON object without a code fence.",
            ));
        }
        rest = r.trim_start();
    }
    let second = rest.trim_start_matches(|c: char| c == ',' || c.is_whitespace());
    if second.starts_with('{') || rest.contains("```json") {
        return Err(refuse(
            "the answer has two top-level JSON objects",
            "exactly one JSON object",
            second,
            "Answer with one JSON object; merge everything into it, or choose one.",
        ));
    }
    if !rest.trim().is_empty() {
        warnings.push(note(
            "ignored text after the JSON object",
            rest.trim(),
            "Send only the JSON object, without comments after it.",
        ));
    }
    Ok((&text[start..end], warnings))
}

/// Byte offset just past the bracket closing the one at `start`, skipping strings (straight or
/// curly-quoted) and comments; `None` when the text ends first.
fn matching_end(text: &str, start: usize) -> Option<usize> {
    let b = text.as_bytes();
    let mut depth = 0usize;
    let mut i = start;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                loop {
                    match scan_string(b, i) {
                        Stop::Backslash(at) => i = at + 2,
                        Stop::Control(at) => i = at + 1,
                        Stop::Quote(at) => {
                            i = at;
                            break;
                        }
                        Stop::End => return None,
                    }
                }
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = text[i..].find('\n').map_or(b.len(), |n| i + n);
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = text[i + 2..].find("*/").map(|n| i + 2 + n + 1)?;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Copies the text lazily: only once the first change is needed.
struct Edit<'a> {
    src: &'a str,
    out: Option<String>,
    copied: usize,
}

impl Edit<'_> {
    /// Replaces `src[at..end]` with `with`.
    fn replace(&mut self, at: usize, end: usize, with: &str) {
        let out = self
            .out
            .get_or_insert_with(|| String::with_capacity(self.src.len() + 16));
        out.push_str(&self.src[self.copied..at]);
        out.push_str(with);
        self.copied = end;
    }
}

/// Fixes the spelling mistakes models make in JSON; one warning per kind of fix.
pub fn normalize(text: &str) -> (Cow<'_, str>, Vec<Violation>) {
    let b = text.as_bytes();
    let mut e = Edit {
        src: text,
        out: None,
        copied: 0,
    };
    let (mut comment, mut comma, mut control, mut curly) =
        (None::<usize>, None::<usize>, None::<usize>, None::<usize>);
    let (mut unquoted, mut single, mut missing) = (None::<usize>, None::<usize>, None::<usize>);
    // The last byte outside strings and comments that was not a blank: what came before a key
    // or value says whether a comma is missing and whether a bare word is a key.
    let mut last: Option<u8> = None;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let starts_value = matches!(c, b'"' | b'\'' | b'{' | b'[');
        if starts_value && ends_value(last) && (c != b'{' || last == Some(b'}')) {
            // `"a": 1 "b": 2`: a value ended and the next key or value starts without a comma.
            missing.get_or_insert(i);
            e.replace(i, i, ",");
            last = Some(b',');
        }
        match c {
            b'\'' if matches!(last, None | Some(b'{' | b'[' | b',' | b':')) => {
                match single_quoted(text, i) {
                    Some((end, quoted)) => {
                        single.get_or_insert(i);
                        e.replace(i, end, &quoted);
                        i = end;
                        last = Some(b'"');
                    }
                    None => i += 1,
                }
                continue;
            }
            c if is_ident_start(c) => {
                // A bare word: a literal (true, null, or Python's True, left for the checker to
                // name) or, when a colon follows, a key written without quotes.
                let end = text[i..]
                    .find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_' || ch == '$'))
                    .map_or(b.len(), |n| i + n);
                let is_key = text[end..].trim_start().starts_with(':');
                if is_key && ends_value(last) {
                    missing.get_or_insert(i);
                    e.replace(i, i, ",");
                    last = Some(b',');
                }
                if is_key && matches!(last, Some(b'{' | b',')) {
                    unquoted.get_or_insert(i);
                    e.replace(i, end, &format!("\"{}\"", &text[i..end]));
                    last = Some(b'"');
                } else {
                    last = Some(b[end - 1]);
                }
                i = end;
                continue;
            }
            b' ' | b'\n' | b'\r' | b'\t' => {}
            b'/' if matches!(b.get(i + 1), Some(b'/' | b'*')) => {}
            b'"' => {}
            0xE2 => {}
            other => last = Some(other),
        }
        match b[i] {
            b'"' => {
                last = Some(b'"');
                i += 1;
                loop {
                    match scan_string(b, i) {
                        Stop::Backslash(at) => i = at + 2,
                        Stop::Control(at) => {
                            control.get_or_insert(at);
                            e.replace(at, at + 1, &escape_control(b[at]));
                            i = at + 1;
                        }
                        Stop::Quote(at) => {
                            i = at + 1;
                            break;
                        }
                        Stop::End => {
                            i = b.len();
                            break;
                        }
                    }
                }
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                comment.get_or_insert(i);
                let end = text[i..].find('\n').map_or(b.len(), |n| i + n);
                e.replace(i, end, "");
                i = end;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                comment.get_or_insert(i);
                let end = text[i + 2..].find("*/").map_or(b.len(), |n| i + 2 + n + 2);
                e.replace(i, end, " ");
                i = end;
            }
            b',' if closes_next(text, i + 1) => {
                comma.get_or_insert(i);
                e.replace(i, i + 1, "");
                i += 1;
            }
            0xE2 if text[i..].starts_with('\u{201c}') || text[i..].starts_with('\u{201d}') => {
                // A key (or value) in curly quotes: “key” → "key".
                curly.get_or_insert(i);
                let body_start = i + 3;
                let close = text[body_start..]
                    .find(['\u{201d}', '\u{201c}', '"', '\n'])
                    .map_or(b.len(), |n| body_start + n);
                let body = &text[body_start..close];
                let quoted = format!("\"{}\"", body.replace('\\', "\\\\"));
                let close_len = text[close..].chars().next().map_or(0, char::len_utf8);
                e.replace(i, (close + close_len).min(b.len()), &quoted);
                i = (close + close_len).min(b.len());
                last = Some(b'"');
            }
            _ => i += 1,
        }
    }
    // Each repair made, where it was first made, and how the model should write it instead.
    let repairs = [
        (
            comma,
            "removed a trailing comma before } or ]",
            "JSON allows no comma after the last item.",
        ),
        (
            comment,
            "removed comments (// or /* */)",
            "JSON has no comments; leave them out.",
        ),
        (
            control,
            "escaped raw newlines or tabs inside strings",
            "Inside JSON strings write a newline as \\n and a tab as \\t.",
        ),
        (
            curly,
            "replaced curly quotes “ ” around keys with straight quotes",
            "Quote keys with straight double quotes \".",
        ),
        (
            unquoted,
            "put quotes around keys written without them",
            "Quote every key with double quotes: \"key\": value.",
        ),
        (
            single,
            "replaced single quotes around keys or strings with double quotes",
            "JSON strings and keys use double quotes \", never single quotes.",
        ),
        (
            missing,
            "added a missing comma between two fields or items",
            "Separate fields and list items with a comma.",
        ),
    ];
    let warnings = repairs
        .into_iter()
        .filter_map(|(at, message, hint)| at.map(|at| note(message, around(text, at), hint)))
        .collect();
    let fixed = match e.out {
        Some(mut out) => {
            out.push_str(&text[e.copied..]);
            Cow::Owned(out)
        }
        None => Cow::Borrowed(text),
    };
    (fixed, warnings)
}

/// A byte that can start a bare key (`name:` without quotes).
fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$'
}

/// Whether the last significant byte ended a value (a string, number, object, array or literal).
fn ends_value(last: Option<u8>) -> bool {
    matches!(last, Some(b'"' | b'}' | b']' | b'0'..=b'9' | b'e' | b'l'))
}

/// The single-quoted string starting at `at` as a double-quoted one, and where it ends; `None`
/// when it does not end on the same line (then it is not a string we can be sure of).
fn single_quoted(text: &str, at: usize) -> Option<(usize, String)> {
    let b = text.as_bytes();
    let mut out = String::from("\"");
    let mut i = at + 1;
    let mut from = i;
    while i < b.len() {
        match b[i] {
            b'\\' if b.get(i + 1) == Some(&b'\'') => {
                out.push_str(&text[from..i]);
                out.push('\'');
                i += 2;
                from = i;
            }
            b'\\' => i += 2,
            b'"' => {
                out.push_str(&text[from..i]);
                out.push_str("\\\"");
                i += 1;
                from = i;
            }
            b'\'' => {
                out.push_str(&text[from..i]);
                out.push('"');
                return Some((i + 1, out));
            }
            b'\n' => return None,
            _ => i += 1,
        }
    }
    None
}

/// True when only blanks and comments separate `from` from a closing `}` or `]`.
fn closes_next(text: &str, mut from: usize) -> bool {
    let b = text.as_bytes();
    loop {
        match b.get(from) {
            Some(b' ' | b'\n' | b'\r' | b'\t') => from += 1,
            Some(b'/') if b.get(from + 1) == Some(&b'/') => {
                from = text[from..].find('\n').map_or(b.len(), |n| from + n);
            }
            Some(b'/') if b.get(from + 1) == Some(&b'*') => {
                from = text[from + 2..]
                    .find("*/")
                    .map_or(b.len(), |n| from + 2 + n + 2);
            }
            Some(b'}' | b']') => return true,
            _ => return false,
        }
    }
}

fn escape_control(c: u8) -> String {
    match c {
        b'\n' => "\\n".into(),
        b'\t' => "\\t".into(),
        b'\r' => "\\r".into(),
        c => format!("\\u{c:04x}"),
    }
}

/// A little of the text around a byte offset, for `received`.
fn around(text: &str, at: usize) -> &str {
    let mut s = at.saturating_sub(20);
    while !text.is_char_boundary(s) {
        s -= 1;
    }
    let mut e = (at + 20).min(text.len());
    while !text.is_char_boundary(e) {
        e += 1;
    }
    &text[s..e]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_locate(s: &str) -> Result<(&str, Vec<String>), String> {
        locate(s)
            .map(|(t, w)| (t, w.into_iter().map(|v| v.message).collect()))
            .map_err(|v| v.message)
    }

    fn check_normalize(s: &str) -> (String, Vec<String>) {
        let (t, w) = normalize(s);
        (t.into_owned(), w.into_iter().map(|v| v.message).collect())
    }

    #[test]
    fn finds_the_object_in_a_fence_with_prose() {
        let (obj, warnings) =
            check_locate("Sure! Here it is:\n```json\n{\"a\": \"}\"}\n```\nHope it helps.")
                .unwrap();
        assert_eq!(obj, "{\"a\": \"}\"}");
        assert_eq!(warnings.len(), 3, "{warnings:?}");
    }

    #[test]
    fn a_plain_object_needs_no_warning() {
        assert_eq!(
            check_locate("  {\"a\": [1, {\"b\": 2}]}  ").unwrap(),
            ("{\"a\": [1, {\"b\": 2}]}", vec![])
        );
    }

    #[test]
    fn refuses_what_would_be_a_guess() {
        assert!(check_locate("{\"a\": 1} {\"b\": 2}")
            .unwrap_err()
            .contains("two top-level"));
        assert!(
            check_locate("```json\n{\"a\": 1}\n```\n```json\n{\"b\": 2}\n```")
                .unwrap_err()
                .contains("two top-level")
        );
        assert!(check_locate("{\"a\": \"unfinished")
            .unwrap_err()
            .contains("cut off"));
        assert!(check_locate("{\"a\": [1, 2")
            .unwrap_err()
            .contains("cut off"));
        assert!(check_locate("no json here")
            .unwrap_err()
            .contains("no JSON object"));
        assert!(check_locate("[{\"a\": 1}]").unwrap_err().contains("array"));
        let multibyte = format!("[{{\"a\": \"{}\"}}]", "é".repeat(40));
        assert!(check_locate(&multibyte).unwrap_err().contains("array"));
    }

    #[test]
    fn fixes_spelling_and_says_so() {
        let (t, w) =
            check_normalize("{\"a\": [1, 2,], // note\n \"b\": \"x\ny\"\t, /* c */ “c”: 1,}");
        assert_eq!(t, "{\"a\": [1, 2], \n \"b\": \"x\\ny\"\t,   \"c\": 1}");
        assert_eq!(w.len(), 4, "{w:?}");
    }

    #[test]
    fn leaves_clean_text_borrowed() {
        let (t, w) = normalize("{\"a\": \"// not a comment, }\"}");
        assert!(matches!(t, Cow::Borrowed(_)));
        assert!(w.is_empty());
    }

    #[test]
    fn fixes_unquoted_and_single_quoted_keys_and_missing_commas() {
        let (t, w) = check_normalize(
            "{responseType: 'final_output', \"a\": 'it\\'s \"x\"'\n \"b\": [1 2], c: null d: true}",
        );
        assert_eq!(
            t,
            "{\"responseType\": \"final_output\", \"a\": \"it's \\\"x\\\"\"\n ,\"b\": [1 2], \"c\": null ,\"d\": true}"
        );
        assert_eq!(
            w,
            [
                "put quotes around keys written without them",
                "replaced single quotes around keys or strings with double quotes",
                "added a missing comma between two fields or items",
            ]
        );
        // literals and Python words are left for the checker; strings are never touched
        let (t, w) = check_normalize("{\"a\": True, \"b\": null, \"c\": \"x: 'y' z\"}");
        assert_eq!(t, "{\"a\": True, \"b\": null, \"c\": \"x: 'y' z\"}");
        assert!(w.is_empty(), "{w:?}");
    }

    #[test]
    fn unwraps_an_answer_sent_as_a_string_or_a_tool_call() {
        let (inner, w) = unwrap("\"{\\\"responseType\\\": \\\"final_output\\\"}\"").unwrap();
        assert_eq!(inner, "{\"responseType\": \"final_output\"}");
        assert!(w.message.contains("one JSON string"), "{}", w.message);
        let (inner, w) =
            unwrap("{\"name\": \"answer\", \"arguments\": {\"responseType\": \"final_output\"}}")
                .unwrap();
        // The arguments as they were sent, not re-written.
        assert_eq!(inner, "{\"responseType\": \"final_output\"}");
        assert!(w.message.contains("tool call (answer)"), "{}", w.message);
        let (inner, _) =
            unwrap("{\"name\": \"f\", \"arguments\": \"{\\\"responseType\\\": 1}\"}").unwrap();
        assert_eq!(inner, "{\"responseType\": 1}");
        assert!(
            unwrap("{\"responseType\": \"final_output\", \"name\": \"x\", \"arguments\": {}}")
                .is_none()
        );
        assert!(unwrap("\"just a sentence\"").is_none());
    }

    #[test]
    fn an_xml_style_tag_is_named() {
        let (obj, w) = check_locate("<answer>\n{\"a\": 1}\n</answer>").unwrap();
        assert_eq!(obj, "{\"a\": 1}");
        assert_eq!(
            w,
            ["removed an XML-style <answer> tag around the JSON object"]
        );
        let (_, w) = check_locate("Here: <json>{\"a\": 1}</json> done").unwrap();
        assert_eq!(w.len(), 3, "{w:?}");
    }
}
