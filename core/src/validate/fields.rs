//! Checking a recovered JSON value field by field, collecting every violation with its JSON
//! pointer — the checker kinds of session use for shapes of their own.
//!
//! [`Fields`] reads one object: each getter checks one field (present, of the right type, within
//! its limits, one of the allowed words) and records a [`Violation`] when it is not, so one pass
//! reports everything wrong. Fields the caller never read are reported as warnings ("unknown field,
//! ignored"), as the team's validator does.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::json::shorten;
use super::Violation;

/// One object being checked: its pointer, the violations found so far, the keys read.
pub struct Fields<'a> {
    object: &'a Map<String, Value>,
    path: String,
    read: BTreeSet<&'static str>,
    /// Errors found in this object (and in the objects read through it).
    pub errors: Vec<Violation>,
}

impl<'a> Fields<'a> {
    /// Starts on `value` at `path` (`""` for the whole answer). Not an object: one error.
    pub fn of(value: &'a Value, path: &str) -> Result<Fields<'a>, Violation> {
        match value {
            Value::Object(object) => Ok(Fields {
                object,
                path: path.to_string(),
                read: BTreeSet::new(),
                errors: Vec::new(),
            }),
            other => Err(Violation {
                path: path.to_string(),
                message: "expected a JSON object here".into(),
                expected: "an object".into(),
                received: type_word(other).into(),
                hint: "Answer with one JSON object with the fields the step asks for.".into(),
            }),
        }
    }

    /// The pointer of a field of this object (`key` may go deeper: `items/0`; our field names
    /// need no escaping).
    pub fn pointer(&self, key: &str) -> String {
        format!("{}/{key}", self.path)
    }

    /// Records an error at `key`.
    pub fn error(
        &mut self,
        key: &str,
        message: String,
        expected: &str,
        received: &str,
        hint: &str,
    ) {
        self.errors.push(Violation {
            path: self.pointer(key),
            message,
            expected: expected.to_string(),
            received: shorten(received, 80),
            hint: hint.to_string(),
        });
    }

    /// The raw value of a field, if present (and marks it read).
    pub fn raw(&mut self, key: &'static str) -> Option<&'a Value> {
        self.read.insert(key);
        self.object.get(key)
    }

    /// A required text of `min..=max` characters (after trimming), or an error.
    pub fn text(
        &mut self,
        key: &'static str,
        min: usize,
        max: usize,
        hint: &str,
    ) -> Option<String> {
        match self.raw(key) {
            None | Some(Value::Null) => {
                self.error(
                    key,
                    format!("`{key}` is required"),
                    "a string",
                    "nothing",
                    hint,
                );
                None
            }
            Some(v) => self.text_value(key, v, min, max, hint),
        }
    }

    /// An optional text: absent or null is `None`, anything else is checked like [`Fields::text`].
    pub fn optional_text(&mut self, key: &'static str, max: usize, hint: &str) -> Option<String> {
        match self.raw(key) {
            None | Some(Value::Null) => None,
            Some(v) => self.text_value(key, v, 1, max, hint),
        }
    }

    fn text_value(
        &mut self,
        key: &str,
        v: &Value,
        min: usize,
        max: usize,
        hint: &str,
    ) -> Option<String> {
        let Value::String(s) = v else {
            self.error(
                key,
                format!("`{key}` must be a string"),
                "a string",
                type_word(v),
                hint,
            );
            return None;
        };
        let n = s.trim().chars().count();
        if n < min {
            self.error(
                key,
                format!("`{key}` is too short ({n} characters; at least {min})"),
                &format!("a string of at least {min} characters"),
                &quote(s),
                hint,
            );
            None
        } else if s.chars().count() > max {
            self.error(
                key,
                format!(
                    "`{key}` is too long ({} characters; at most {max})",
                    s.chars().count()
                ),
                &format!("a string of at most {max} characters"),
                &quote(s),
                "Say it shorter.",
            );
            None
        } else {
            Some(s.trim().to_string())
        }
    }

    /// A required word from `allowed`, or an error that lists them.
    pub fn word(
        &mut self,
        key: &'static str,
        allowed: &[&'static str],
        hint: &str,
    ) -> Option<&'static str> {
        let expected = one_of(allowed);
        match self.raw(key) {
            None | Some(Value::Null) => {
                self.error(
                    key,
                    format!("`{key}` is required"),
                    &expected,
                    "nothing",
                    hint,
                );
                None
            }
            Some(Value::String(s)) => match allowed.iter().find(|a| **a == s.as_str()) {
                Some(a) => Some(a),
                None => {
                    self.error(
                        key,
                        format!("\"{s}\" is not an allowed value of `{key}`"),
                        &expected,
                        &quote(s),
                        hint,
                    );
                    None
                }
            },
            Some(other) => {
                self.error(
                    key,
                    format!("`{key}` must be a string"),
                    &expected,
                    type_word(other),
                    hint,
                );
                None
            }
        }
    }

    /// A required list of texts (each `1..=max` characters), at most `max_items` of them.
    pub fn texts(
        &mut self,
        key: &'static str,
        max_items: usize,
        max: usize,
        hint: &str,
    ) -> Vec<String> {
        let Some(items) = self.list(key, max_items, hint) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let at = format!("{key}/{i}");
            if let Some(s) = self.text_value(&at, item, 1, max, hint) {
                out.push(s);
            }
        }
        out
    }

    /// A required list of at most `max_items` values, for the caller to read item by item.
    pub fn list(
        &mut self,
        key: &'static str,
        max_items: usize,
        hint: &str,
    ) -> Option<&'a Vec<Value>> {
        match self.raw(key) {
            None | Some(Value::Null) => {
                self.error(
                    key,
                    format!("`{key}` is required"),
                    "a list",
                    "nothing",
                    hint,
                );
                None
            }
            Some(Value::Array(items)) if items.len() > max_items => {
                self.error(
                    key,
                    format!(
                        "`{key}` has {} items; at most {max_items} are allowed",
                        items.len()
                    ),
                    &format!("at most {max_items} items"),
                    &format!("{} items", items.len()),
                    "Keep only the most important ones.",
                );
                None
            }
            Some(Value::Array(items)) => Some(items),
            Some(other) => {
                self.error(
                    key,
                    format!("`{key}` must be a list"),
                    "a list",
                    type_word(other),
                    hint,
                );
                None
            }
        }
    }

    /// Warnings for the fields the caller never read, then the errors found.
    pub fn finish(self, warnings: &mut Vec<Violation>) -> Vec<Violation> {
        for key in self.object.keys() {
            if !self.read.contains(key.as_str()) {
                warnings.push(Violation {
                    path: self.pointer(key),
                    message: format!("unknown field `{key}` was ignored"),
                    expected: "only the fields of the step's shape".into(),
                    received: key.clone(),
                    hint: "Leave out fields the step does not ask for.".into(),
                });
            }
        }
        self.errors
    }
}

/// A received text as the repair prompt shows it: quoted, shortened.
pub fn quote(s: &str) -> String {
    serde_json::to_string(&shorten(s, 80)).unwrap_or_default()
}

/// `"a", "b" or "c"`, for expected-value texts.
pub fn one_of(allowed: &[&str]) -> String {
    let quoted: Vec<String> = allowed.iter().map(|a| format!("\"{a}\"")).collect();
    match quoted.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("one of {} or {last}", rest.join(", ")),
    }
}

/// The JSON type of a value, in words.
pub fn type_word(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}
