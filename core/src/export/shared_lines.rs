//! Repeated lines of what the models were sent, stored once in a session file.
//!
//! Every call's prompt is kept verbatim, and consecutive prompts repeat most of their lines: the
//! rules of a step, the member list, the products shown again and again. A file numbers the lines
//! of these texts in the order they are first written — the messages of every `call_issued`, then
//! the follow-up of every `context_served`, in event order — and writes a line that was already
//! written (and is longer than [`MIN_SHARED_LEN`]) as a reference: a line `@@12` stands for line
//! 12 again, `@@12-40` for lines 12 to 40. A line of the text that itself starts with `@@` is
//! written with one more `@`. Only these engine fields are touched, so this holds for every kind of
//! session; everything else in the file is as the log stores it.
//!
//! On the 6-operative demo session this halves the file (17.7 → 7.3 KB per call, see
//! BENCHMARKS.md), and a reader of the raw file still sees every new line in place.

use std::collections::HashMap;

use serde_json::Value;

use super::ImportError;

/// Lines this short are always written out: a reference would save nothing.
pub const MIN_SHARED_LEN: usize = 8;

/// The most text the references of one file may expand to (bytes), so a small hostile file
/// cannot make the tab build gigabytes of text.
pub const MAX_EXPANDED_BYTES: usize = 256 * 1024 * 1024;

/// The texts of one event that take part in the numbering, in file order.
fn texts_mut(event: &mut Value) -> Vec<&mut Value> {
    let Some(kind) = event.get_mut("kind") else {
        return Vec::new();
    };
    match kind.get("type").and_then(Value::as_str) {
        Some("call_issued") => kind
            .get_mut("call")
            .and_then(|c| c.get_mut("messages"))
            .and_then(Value::as_array_mut)
            .map(|messages| {
                messages
                    .iter_mut()
                    .filter_map(|m| m.get_mut("content"))
                    .collect()
            })
            .unwrap_or_default(),
        Some("context_served") => kind.get_mut("follow_up").into_iter().collect(),
        _ => Vec::new(),
    }
}

/// Rewrites the texts of `events` (a JSON array of events) with each repeated line as a reference.
pub fn share(events: &mut Value) {
    let mut first_seen: HashMap<String, usize> = HashMap::new();
    let mut numbered = 0usize;
    for event in events.as_array_mut().into_iter().flatten() {
        for text in texts_mut(event) {
            if let Some(s) = text.as_str() {
                *text = Value::from(share_text(s, &mut first_seen, &mut numbered));
            }
        }
    }
}

fn share_text(text: &str, first_seen: &mut HashMap<String, usize>, numbered: &mut usize) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut run: Option<(usize, usize)> = None;
    let flush = |run: &mut Option<(usize, usize)>, out: &mut Vec<String>| {
        if let Some((from, to)) = run.take() {
            out.push(if from == to {
                format!("@@{from}")
            } else {
                format!("@@{from}-{to}")
            });
        }
    };
    for line in text.split('\n') {
        match first_seen.get(line) {
            Some(&n) if line.len() > MIN_SHARED_LEN => match &mut run {
                Some((_, to)) if *to + 1 == n => *to = n,
                _ => {
                    flush(&mut run, &mut out);
                    run = Some((n, n));
                }
            },
            _ => {
                flush(&mut run, &mut out);
                first_seen.entry(line.to_owned()).or_insert(*numbered);
                *numbered += 1;
                out.push(if line.starts_with("@@") {
                    format!("@{line}")
                } else {
                    line.to_owned()
                });
            }
        }
    }
    flush(&mut run, &mut out);
    out.join("\n")
}

/// Rewrites the texts of `events` back to what the models were sent, or says which event holds a
/// reference that cannot be read.
pub fn expand(events: &mut Value) -> Result<(), ImportError> {
    let mut numbered = Numbered::default();
    for (i, event) in events.as_array_mut().into_iter().flatten().enumerate() {
        numbered.expand_event(event, i)?;
    }
    Ok(())
}

/// [`expand`] on the events' JSON text, giving the expanded text. Only the events that hold
/// texts of the numbering are read into values and written again; the others (a long answer, an
/// applied output) stay the file's own text, so a big file is not built into a tree of values.
pub fn expand_text_of(events: &str) -> Result<String, ImportError> {
    let raw: Vec<&serde_json::value::RawValue> =
        serde_json::from_str(events).map_err(|e| ImportError::Malformed(e.to_string()))?;
    let mut numbered = Numbered::default();
    let mut out = String::with_capacity(events.len() * 2);
    out.push('[');
    for (i, event) in raw.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let text = event.get();
        // A superset of the events `texts_mut` reads (the type is checked on the value).
        if !(text.contains("\"call_issued\"") || text.contains("\"context_served\"")) {
            out.push_str(text);
            continue;
        }
        let mut value: Value =
            serde_json::from_str(text).map_err(|e| ImportError::Malformed(e.to_string()))?;
        numbered.expand_event(&mut value, i)?;
        // Written with its tags first, so the events are read without the slow path.
        out.push_str(&crate::tagged::tags_first(&value));
    }
    out.push(']');
    Ok(out)
}

/// The lines written so far, in file order, and how much the references have expanded to.
#[derive(Default)]
struct Numbered {
    lines: Vec<String>,
    expanded: usize,
}

impl Numbered {
    /// Expands the texts of event number `i` (0-based) and numbers their lines.
    fn expand_event(&mut self, event: &mut Value, i: usize) -> Result<(), ImportError> {
        for text in texts_mut(event) {
            if let Some(s) = text.as_str() {
                let full = expand_text(s, &mut self.lines, &mut self.expanded)
                    .map_err(|why| ImportError::Malformed(format!("event {}: {why}", i + 1)))?;
                *text = Value::from(full);
            }
        }
        Ok(())
    }
}

fn expand_text(
    text: &str,
    lines: &mut Vec<String>,
    expanded: &mut usize,
) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    for (k, line) in text.split('\n').enumerate() {
        if k > 0 {
            out.push('\n');
        }
        let literal = match line.strip_prefix("@@") {
            Some(rest) if rest.starts_with('@') => &line[1..],
            Some(rest) => {
                let (from, to) = parse_range(rest).ok_or_else(|| {
                    format!("the line \"{line}\" is neither text nor a reference to earlier lines")
                })?;
                if from > to || to >= lines.len() {
                    return Err(format!(
                        "the reference \"{line}\" names lines that do not come before it ({} lines do)",
                        lines.len()
                    ));
                }
                let before = out.len();
                for (j, earlier) in lines[from..=to].iter().enumerate() {
                    if j > 0 {
                        out.push('\n');
                    }
                    out.push_str(earlier);
                }
                *expanded += out.len() - before;
                if *expanded > MAX_EXPANDED_BYTES {
                    return Err(format!(
                        "its repeated lines expand to more than {MAX_EXPANDED_BYTES} bytes"
                    ));
                }
                continue;
            }
            None => line,
        };
        lines.push(literal.to_owned());
        out.push_str(literal);
    }
    Ok(out)
}

/// `12` or `12-40`.
fn parse_range(s: &str) -> Option<(usize, usize)> {
    let number = |t: &str| {
        (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
            .then(|| t.parse().ok())
            .flatten()
    };
    match s.split_once('-') {
        Some((a, b)) => Some((number(a)?, number(b)?)),
        None => number(s).map(|n| (n, n)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn call(texts: &[&str]) -> Value {
        let messages: Vec<Value> = texts
            .iter()
            .map(|t| json!({ "role": "user", "content": t }))
            .collect();
        json!({ "seq": 1, "at": 1, "kind": { "type": "call_issued", "call": { "messages": messages } } })
    }

    #[test]
    fn repeated_lines_become_references_and_come_back_exactly() {
        let original = json!([
            call(&["rule one is long\nrule two is long\nshort\n@@not a reference"]),
            { "seq": 2, "at": 1, "kind": { "type": "context_served", "follow_up": "rule two is long\nnew line here" } },
            call(&["rule one is long\nrule two is long\nshort\nnew line here\n@@not a reference\n"]),
        ]);
        let mut file = original.clone();
        share(&mut file);
        assert_eq!(
            file[0]["kind"]["call"]["messages"][0]["content"],
            "rule one is long\nrule two is long\nshort\n@@@not a reference"
        );
        assert_eq!(
            file[1]["kind"]["follow_up"], "@@1\nnew line here",
            "numbering runs across events"
        );
        assert_eq!(
            file[2]["kind"]["call"]["messages"][0]["content"], "@@0-1\nshort\n@@4\n@@3\n",
            "short lines stay; a run of consecutive lines is one reference"
        );
        // From the file's text too, with an event between that holds no text (kept as written).
        let mut with_answer = file.as_array().unwrap().clone();
        with_answer.insert(
            1,
            json!({ "seq": 9, "at": 1, "kind": { "type": "answer_received", "raw": "@@0" } }),
        );
        let text = expand_text_of(&Value::from(with_answer).to_string()).unwrap();
        let mut back: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            back[1]["kind"]["raw"], "@@0",
            "an answer is not a text of the numbering"
        );
        back.as_array_mut().unwrap().remove(1);
        assert_eq!(back, original);
        expand(&mut file).unwrap();
        assert_eq!(file, original);
    }

    #[test]
    fn a_reference_forward_or_malformed_is_refused_with_its_event() {
        for (text, says) in [
            ("@@3", "do not come before it"),
            ("@@2-1", "do not come before it"),
            ("@@x", "neither text nor a reference"),
            ("@@", "neither text nor a reference"),
        ] {
            let mut file = json!([call(&["a long enough line"]), call(&[text])]);
            let err = expand(&mut file).unwrap_err().to_string();
            assert!(
                err.contains("event 2") && err.contains(says),
                "{text}: {err}"
            );
        }
    }

    #[test]
    fn references_cannot_expand_without_bound() {
        let line = "x".repeat(1024 * 1024);
        let refs = vec!["@@0"; 300].join("\n");
        let mut file = json!([call(&[&line]), call(&[&refs])]);
        let err = expand(&mut file).unwrap_err().to_string();
        assert!(err.contains("expand to more than"), "{err}");
    }
}
