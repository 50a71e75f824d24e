//! Raw model text in, a typed answer or every violation out — for the answers of any kind; the
//! validator names no kind.
//!
//! Two layers. `recover` gets the one JSON object out of what models really send (a `` ```json ``
//! fence, prose around it, a BOM, trailing commas, comments, raw newlines in strings, curly quotes
//! around keys) and records each repair as a warning with path `""`; what would change meaning
//! (two objects, a cut-off answer, Python literals, wrong enum spellings) is refused with a hint
//! instead. `check` then walks the object against its shape (`shape`: required fields, enums,
//! lengths, counts, ranges, a tag a step does not allow, a long text that is JSON) and asks the
//! kind's id scope about every id it names (`check::IdScope`), collecting every violation with a
//! JSON pointer, what was expected, what was received and a hint (the error format of spec `002`).
//!
//! Each kind hands the validator what is its own, as data: its shapes (generated into its folder
//! by `shape_gen` from its JSON Schemas: a [`check::Root`]), its id rules ([`IdRules`]: a fresh
//! [`check::IdScope`] per walk, or [`check::NoIds`]), and its answer type, read from the checked
//! text by the kind ([`read_checked`], [`Validated`]); a refused answer is a [`Report`] naming the
//! kind's step. The entry points are [`check_answer`] (the verdict only: errors, warnings and the
//! recovered JSON text, borrowed from the raw answer when nothing had to be rewritten; one pass,
//! no `serde_json::Value`), [`check_answer_with_tape`] (the same, also writing the value [`tape`]
//! for the JS API) and [`check_object`] (an answer of one object with no ids). The team's step
//! API (`check_step`, `validate_step`, its `Known` ids) is built on them in
//! `protocol/team/check.rs`. A shape a person gives at run time (a dialectic's `response_schema`)
//! is compiled by [`compile_schema`] into the same walker's shape and checked by
//! [`check_against_schema`]. [`repair_prompt`] turns the violations into the message sent back to
//! the same model.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

pub mod check;
pub mod json;
mod recover;
mod report;
pub use report::repair_prompt;
mod runtime;
pub use runtime::{
    check_against_schema, compile_schema, decode_pointer_segment, parse_schema_text, RuntimeShape,
    SchemaProblem, SCHEMA_DEPTH_MAX, SCHEMA_TEXT_MAX,
};
pub mod shape;
use shape::Obj;
/// The generator of a kind's shape tables from its JSON Schemas: test-time code (each kind's
/// `committed_shape_tables_are_current` runs it), built for the kinds' tests by the `codegen`
/// feature, never into the app.
#[cfg(any(test, feature = "codegen"))]
pub mod shape_gen;
pub mod tape;

/// One thing wrong (an error) or worth noting (a warning) in an answer, in the error format of
/// spec `002`: where, what, what was expected, what was received, and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Violation {
    /// JSON pointer into the answer (`/treeOperations/0/parentId`); `""` for the whole answer.
    pub path: String,
    /// One sentence saying what is wrong.
    pub message: String,
    /// What the schema wants there.
    pub expected: String,
    /// What the answer had there, shortened.
    pub received: String,
    /// How to fix it.
    pub hint: String,
}

impl Violation {
    /// A kind's own rule broken at `path` (the words of a refusal past the schema): the message
    /// and pointer as built, the rest as written.
    pub fn at(
        path: String,
        message: String,
        expected: &str,
        received: &str,
        hint: &str,
    ) -> Violation {
        Violation {
            path,
            message,
            expected: expected.to_string(),
            received: received.to_string(),
            hint: hint.to_string(),
        }
    }

    /// The five parts in the order the error format of spec `002` reads them.
    pub fn new(
        path: String,
        message: String,
        expected: String,
        received: String,
        hint: String,
    ) -> Violation {
        Violation {
            path,
            message,
            expected,
            received,
            hint,
        }
    }
}

/// A valid answer and what was noticed on the way (recoveries, unknown extra fields).
#[derive(Debug, Clone, PartialEq)]
pub struct Validated<A> {
    /// The typed answer of the kind (the team's `StepAnswer`), with the spec's defaults filled in.
    pub answer: A,
    /// Non-fatal notes, shown in the transcript.
    pub warnings: Vec<Violation>,
}

/// Why an answer was refused: every violation found, not only the first, and the kind's step
/// the answer was for (`S`: the kind's step type, shown by its wire name).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report<S> {
    /// The step the answer was for.
    pub step: S,
    /// What must be fixed (never empty in a returned report).
    pub errors: Vec<Violation>,
    /// Non-fatal notes.
    pub warnings: Vec<Violation>,
}

impl<S> Report<S> {
    /// The report of a refused verdict on an answer for `step`.
    pub fn from_verdict(step: S, verdict: Verdict<'_>) -> Report<S> {
        Report {
            step,
            errors: verdict.errors,
            warnings: verdict.warnings,
        }
    }
}

/// A kind's id rules: a fresh id scope for each walk of an answer (a walk may run more than once,
/// on the raw text and on its repair, and the scope remembers the ids the answer adds).
pub trait IdRules {
    /// The scope for one walk.
    fn scope<'a>(&'a self) -> Box<dyn check::IdScope<'a> + 'a>;
}

impl IdRules for check::NoIds {
    fn scope<'a>(&'a self) -> Box<dyn check::IdScope<'a> + 'a> {
        Box::new(check::NoIds)
    }
}

/// What the caller knows about the call beyond its text.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// The provider said it stopped for length (`finish_reason: "length"`, `stop_reason:
    /// "max_tokens"`). An answer that is not complete and valid is then refused as cut off, with a
    /// hint to answer shorter, instead of being guessed at.
    pub truncated: bool,
}

/// The verdict on an answer without the typed value: what the fast JS path needs.
///
/// `json` is the JSON text the checks ran on: borrowed from the raw answer when nothing had to be
/// repaired beyond dropping a BOM, a fence or prose around it, owned when the normalizer fixed
/// commas, comments, raw newlines or curly quotes. When `errors` is empty, `JSON.parse(json)` (or
/// `serde_json`) gives the answer; omitted lists are then still absent (serde fills the defaults,
/// see [`validate_step`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict<'a> {
    /// What must be fixed; empty when the answer is valid.
    pub errors: Vec<Violation>,
    /// Repairs made and unknown fields ignored.
    pub warnings: Vec<Violation>,
    /// The recovered JSON text of the answer.
    pub json: Cow<'a, str>,
}

impl Verdict<'_> {
    /// True when the answer is valid.
    pub fn is_ok(&self) -> bool {
        self.errors.is_empty()
    }
}

/// Checks a raw model answer against `root` without building the typed value: recovery, shape,
/// limits, the tags the step allows and (through `ids`) every id. The fast entry point; a kind
/// that wants the value reads the recovered text with [`read_checked`].
pub fn check_answer<'a>(
    root: check::Root,
    raw: &'a str,
    ids: &dyn IdRules,
    options: Options,
) -> Verdict<'a> {
    check_answer_inner(root, raw, ids, options, |_| tape::NoTape).0
}

/// Checks a raw answer of a kind whose answers are one object each, with no tag and no id rules
/// (a meeting's, a dialectic's: the kind checks its own ids on the value), against `obj`, one of
/// the kind's generated shapes: the same recovery, walker and wording as any answer.
pub fn check_object<'a>(obj: &'static Obj, raw: &'a str, options: Options) -> Verdict<'a> {
    check_answer(check::Root::Object(obj), raw, &check::NoIds, options)
}

/// Reads checked JSON (the `json` of a [`Verdict`] without errors) into its typed value; a value
/// serde refuses all the same becomes one violation of the whole answer.
pub fn read_checked<T: serde::de::DeserializeOwned>(json: &str) -> Result<T, Violation> {
    serde_json::from_str(json).map_err(|e| report::serde_violation(&e))
}

/// [`check_answer`] that also writes the answer's value [`tape`] into `words` as it checks, with
/// the key ids of `keys` (the JS API builds the parsed value from it instead of running
/// `JSON.parse`). The `bool` says whether the tape describes the whole answer: not when the
/// answer was repaired on the way in or has a key that is not in `keys`; the caller then parses
/// the text.
pub fn check_answer_with_tape<'a>(
    root: check::Root,
    raw: &'a str,
    ids: &dyn IdRules,
    options: Options,
    keys: &'static tape::TapeKeys,
    words: &mut Vec<u32>,
) -> (Verdict<'a>, bool) {
    // Offsets must be into the caller's own text: not after a BOM was dropped.
    check_answer_inner(root, raw, ids, options, |body: &str| {
        if body.len() == raw.len() {
            tape::Tape::new(body, words, keys)
        } else {
            tape::Tape::refused(words, keys)
        }
    })
}

/// Both entry points: `tape` makes what the checker tells of each value (nothing, or the value
/// tape) for the text it checks on the fast path. Generic, so the plain check has no tape code.
fn check_answer_inner<'a, E: tape::Emit>(
    root: check::Root,
    raw: &'a str,
    ids: &dyn IdRules,
    options: Options,
    tape: impl FnOnce(&'a str) -> E,
) -> (Verdict<'a>, bool) {
    let (mut verdict, taped) = check_text(root, raw, ids, tape);
    if options.truncated {
        if verdict.is_ok() {
            verdict.warnings.push(report::complete_despite_length());
        } else if !verdict
            .errors
            .iter()
            .any(|e| e.path.is_empty() && e.message.contains("cut off"))
        {
            verdict.errors.insert(0, recover::cut_off(raw));
        }
    }
    let taped = taped && verdict.is_ok();
    (verdict, taped)
}

fn check_text<'a, E: tape::Emit>(
    root: check::Root,
    raw: &'a str,
    ids: &dyn IdRules,
    tape: impl FnOnce(&'a str) -> E,
) -> (Verdict<'a>, bool) {
    let (body, bom) = recover::strip_bom(raw);
    let mut warnings: Vec<Violation> = bom.into_iter().collect();
    // Fast path: the answer is already one clean object; nothing is copied. Only here is the
    // tape written (its offsets are into this text).
    if body.trim_start().starts_with('{') {
        let outcome = walk(root, body, ids, tape(body));
        // A clean object with errors may still be a wrapper (a tool call) around the answer.
        let answer = outcome
            .ok()
            .filter(|o| o.errors.is_empty() || recover::unwrap(body).is_none());
        if let Some(outcome) = answer {
            warnings.extend(outcome.warnings);
            let verdict = Verdict {
                errors: outcome.errors,
                warnings,
                json: Cow::Borrowed(body),
            };
            return (verdict, outcome.tape_complete);
        }
    }
    (check_repaired(root, body, ids, warnings), false)
}

/// One walk of `text` against `root`, with a fresh id scope of the answer's kind.
fn walk<E: tape::Emit>(
    root: check::Root,
    text: &str,
    ids: &dyn IdRules,
    tape: E,
) -> Result<check::Outcome, Box<check::Syntax>> {
    check::check(root, text, &mut *ids.scope(), tape)
}

/// [`check_text`] past the fast path: the object found in prose or a fence, then normalized.
fn check_repaired<'a>(
    root: check::Root,
    body: &'a str,
    ids: &dyn IdRules,
    mut warnings: Vec<Violation>,
) -> Verdict<'a> {
    // The answer sent whole inside a wrapper (a JSON string, a tool call): check what it carries.
    if let Some((inner, note)) = recover::unwrap(body) {
        warnings.push(note);
        return owned(check_repaired(root, &inner, ids, warnings));
    }
    let (object, found) = match recover::locate(body) {
        Ok(found) => found,
        Err(refusal) => {
            return Verdict {
                errors: vec![refusal],
                warnings,
                json: Cow::Borrowed(body),
            }
        }
    };
    warnings.extend(found);
    if let Some((inner, note)) = recover::unwrap(object) {
        warnings.push(note);
        return owned(check_repaired(root, &inner, ids, warnings));
    }
    // A fenced or prose-wrapped answer is often clean inside: check the slice as it is first.
    if !found_nothing_around(&warnings) || !body.trim_start().starts_with('{') {
        if let Ok(outcome) = walk(root, object, ids, tape::NoTape) {
            warnings.extend(outcome.warnings);
            return Verdict {
                errors: outcome.errors,
                warnings,
                json: Cow::Borrowed(object),
            };
        }
    }
    let (fixed, repairs) = recover::normalize(object);
    warnings.extend(repairs);
    match walk(root, &fixed, ids, tape::NoTape) {
        Ok(outcome) => {
            warnings.extend(outcome.warnings);
            Verdict {
                errors: outcome.errors,
                warnings,
                json: fixed,
            }
        }
        Err(syntax) => {
            let error = report::syntax_violation(&fixed, &syntax);
            Verdict {
                errors: vec![error],
                warnings,
                json: fixed,
            }
        }
    }
}

/// A verdict that no longer borrows the text it was made from.
fn owned(v: Verdict<'_>) -> Verdict<'static> {
    Verdict {
        errors: v.errors,
        warnings: v.warnings,
        json: Cow::Owned(v.json.into_owned()),
    }
}

/// True when locating the object dropped nothing but (maybe) a BOM, i.e. the strict pass already
/// saw this very text and failed.
fn found_nothing_around(warnings: &[Violation]) -> bool {
    warnings
        .iter()
        .all(|w| w.message.contains("byte order mark"))
}

#[cfg(test)]
mod tests;
