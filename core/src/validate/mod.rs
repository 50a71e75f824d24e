//! Raw model text in, a typed answer or every violation out.
//!
//! Two layers. `recover` gets the one JSON object out of what models really send (a `` ```json ``
//! fence, prose around it, a BOM, trailing commas, comments, raw newlines in strings, curly quotes
//! around keys) and records each repair as a warning with path `""`; what would change meaning
//! (two objects, a cut-off answer, Python literals, wrong enum spellings) is refused with a hint
//! instead. `check` then walks the object against its shape (`shape`, generated from the answer
//! types' schemas: required fields, enums, lengths, counts, ranges, the step × responseType
//! matrix, Write content that is not JSON) and asks the kind's id scope about every id it names
//! (`check::IdScope`; the team's is `protocol::team::ids::TeamIds`, with the ids the session
//! knows), collecting every violation with a JSON pointer, what was expected, what was received
//! and a hint (the error format of spec `002`). A team step's answer comes in through
//! [`check_step`] / [`validate_step`], a meeting's or a dialectic's through
//! [`check_object_answer`]; a shape a person gives at run time (a dialectic's `response_schema`)
//! is compiled by [`compile_schema`] into the same walker's shape and checked by
//! [`check_against_schema`].
//! [`Report::repair_prompt`] turns the violations into the message sent back to the same model.
//!
//! # Two entry points
//!
//! - [`check_step`] (and [`check_step_with`]) gives only the verdict: errors, warnings, and the
//!   recovered JSON text, borrowed from the raw answer when nothing had to be rewritten. It builds
//!   no value: one pass over the text with borrowed slices, no `serde_json::Value`, chars counted
//!   only when a string's byte length could break a limit. This is what the JS API calls on every
//!   answer; a caller that wants the value runs `JSON.parse` on the recovered text.
//! - [`validate_step`] (and [`validate_step_with`]) is `check_step` followed, when there is no
//!   error, by `serde_json` into [`StepAnswer`] with the spec's defaults filled in: what the engine
//!   consumes.
//!
//! The checker never accepts what `serde` then refuses (a proptest and the fuzz target hold it to
//! that), and its shapes are tested field by field against `step_schema(step, Plain)`, so ajv on
//! the JSON Schema and this validator agree on every answer that needs no recovery and no id check.

use std::borrow::Cow;
use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::protocol::team::ids::TeamIds;
use crate::protocol::team::wire::{
    BootstrapOutput, FinalOutput, InspectionOutput, PeerReviewOutput, PlanAssignOutput,
    PresentationOutput, ReflectOutput, Step, StepAnswer, WireAnswer, WriteOutput,
};

pub(crate) mod check;
pub(crate) mod json;
mod recover;
mod report;
pub use report::repair_prompt;
mod runtime;
pub use runtime::{check_against_schema, compile_schema, RuntimeShape, SchemaProblem};
pub(crate) mod shape;
#[cfg(test)]
mod shape_gen;
pub mod tape;

/// The ids a session knows, to check that every id an answer names exists. When the caller has no
/// session (the JS API without `known`), pass `None` and only the shape is checked.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Known {
    /// Product temp ids (`p0`, `p1`, …).
    #[serde(default)]
    pub products: BTreeSet<String>,
    /// Version temp ids (`v1`, …).
    #[serde(default)]
    pub versions: BTreeSet<String>,
    /// Member ids (`chair`, `operative-1`, `inspector`, `envoy`, `user-1`).
    #[serde(default)]
    pub members: BTreeSet<String>,
    /// Collab temp ids (`c1`, …).
    #[serde(default)]
    pub collabs: BTreeSet<String>,
}

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
    /// The five parts in the order the error format of spec `002` reads them.
    pub(crate) fn new(
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
pub struct Validated {
    /// The typed answer, with the spec's defaults filled in.
    pub answer: StepAnswer,
    /// Non-fatal notes, shown in the transcript.
    pub warnings: Vec<Violation>,
}

/// Why an answer was refused: every violation found, not only the first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The step the answer was for.
    pub step: Step,
    /// What must be fixed (never empty in a returned report).
    pub errors: Vec<Violation>,
    /// Non-fatal notes.
    pub warnings: Vec<Violation>,
}

impl Report {
    /// The recovered JSON and the verdict, handed back together so a caller that logs the report
    /// can also see what was repaired.
    fn from_verdict(step: Step, verdict: Verdict<'_>) -> Report {
        Report {
            step,
            errors: verdict.errors,
            warnings: verdict.warnings,
        }
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

/// Checks a raw model answer for `step` without building the typed value: recovery, shape, limits,
/// the step × responseType matrix and (with `known`) every id. The fast entry point for the JS API;
/// see [`validate_step`] for the typed one.
pub fn check_step<'a>(step: Step, raw: &'a str, known: Option<&Known>) -> Verdict<'a> {
    check_step_with(step, raw, known, Options::default())
}

/// [`check_step`] with what the caller knows about the call (see [`Options`]).
pub fn check_step_with<'a>(
    step: Step,
    raw: &'a str,
    known: Option<&Known>,
    options: Options,
) -> Verdict<'a> {
    check_step_inner(check::Root::Step(step), raw, known, options, |_| {
        tape::NoTape
    })
    .0
}

/// Checks a raw answer of a kind whose answers are one object each, with no `responseType` (a
/// meeting's), against the shape generated from its schema (`schema`: the schema's name,
/// `meeting_decision`): the same recovery, walker and wording as a team step's answer, with no id
/// rules (the kind checks its own ids on the value). `None` when no shape has that name.
pub fn check_object_answer<'a>(
    schema: &str,
    raw: &'a str,
    options: Options,
) -> Option<Verdict<'a>> {
    let root = check::Root::Object(shape::answer_object(schema)?);
    Some(check_step_inner(root, raw, None, options, |_| tape::NoTape).0)
}

/// Reads checked JSON (the `json` of a [`Verdict`] without errors) into its typed value; a value
/// serde refuses all the same becomes one violation of the whole answer.
pub fn read_checked<T: serde::de::DeserializeOwned>(json: &str) -> Result<T, Violation> {
    serde_json::from_str(json).map_err(|e| report::serde_violation(&e))
}

/// [`check_step_with`] that also writes the answer's value [`tape`] into `words` as it checks
/// (the JS API builds the parsed value from it instead of running `JSON.parse`). The `bool` says
/// whether the tape describes the whole answer: not when the answer was repaired on the way in or
/// has a key that is no field name; the caller then parses the text.
pub fn check_step_with_tape<'a>(
    step: Step,
    raw: &'a str,
    known: Option<&Known>,
    options: Options,
    words: &mut Vec<u32>,
) -> (Verdict<'a>, bool) {
    // Offsets must be into the caller's own text: not after a BOM was dropped.
    check_step_inner(
        check::Root::Step(step),
        raw,
        known,
        options,
        |body: &str| {
            if body.len() == raw.len() {
                tape::Tape::new(body, words)
            } else {
                tape::Tape::refused(words)
            }
        },
    )
}

/// Both entry points: `tape` makes what the checker tells of each value (nothing, or the value
/// tape) for the text it checks on the fast path. Generic, so the plain check has no tape code.
fn check_step_inner<'a, E: tape::Emit>(
    root: check::Root,
    raw: &'a str,
    known: Option<&Known>,
    options: Options,
    tape: impl FnOnce(&'a str) -> E,
) -> (Verdict<'a>, bool) {
    let (mut verdict, taped) = check_text(root, raw, known, tape);
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
    known: Option<&Known>,
    tape: impl FnOnce(&'a str) -> E,
) -> (Verdict<'a>, bool) {
    let (body, bom) = recover::strip_bom(raw);
    let mut warnings: Vec<Violation> = bom.into_iter().collect();
    // Fast path: the answer is already one clean object; nothing is copied. Only here is the
    // tape written (its offsets are into this text).
    if body.trim_start().starts_with('{') {
        let outcome = walk(root, body, known, tape(body));
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
    (check_repaired(root, body, known, warnings), false)
}

/// One walk of `text` against `root`, with the id scope of the answer's kind: the team's
/// (`TeamIds`, with the session's `known` ids) for a team step's answer, none for an answer of
/// one object (a meeting's, whose ids its own rules check).
fn walk<E: tape::Emit>(
    root: check::Root,
    text: &str,
    known: Option<&Known>,
    tape: E,
) -> Result<check::Outcome, Box<check::Syntax>> {
    match root {
        check::Root::Step(_) => check::check(root, text, &mut TeamIds::new(known), tape),
        check::Root::Object(_) => check::check(root, text, &mut check::NoIds, tape),
    }
}

/// [`check_text`] past the fast path: the object found in prose or a fence, then normalized.
fn check_repaired<'a>(
    root: check::Root,
    body: &'a str,
    known: Option<&Known>,
    mut warnings: Vec<Violation>,
) -> Verdict<'a> {
    // The answer sent whole inside a wrapper (a JSON string, a tool call): check what it carries.
    if let Some((inner, note)) = recover::unwrap(body) {
        warnings.push(note);
        return owned(check_repaired(root, &inner, known, warnings));
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
        return owned(check_repaired(root, &inner, known, warnings));
    }
    // A fenced or prose-wrapped answer is often clean inside: check the slice as it is first.
    if !found_nothing_around(&warnings) || !body.trim_start().starts_with('{') {
        if let Ok(outcome) = walk(root, object, known, tape::NoTape) {
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
    match walk(root, &fixed, known, tape::NoTape) {
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

/// Turns a raw model answer for `step` into the typed answer, with the spec's defaults filled in,
/// or a [`Report`] of every violation (whose [`Report::repair_prompt`] goes back to the model).
///
/// `known` holds the ids of the session; with `None` only the shape is checked. This is
/// [`check_step`] followed, when it finds no error, by `serde_json` on the recovered text.
pub fn validate_step(step: Step, raw: &str, known: Option<&Known>) -> Result<Validated, Report> {
    validate_step_with(step, raw, known, Options::default())
}

/// [`validate_step`] with what the caller knows about the call (see [`Options`]).
pub fn validate_step_with(
    step: Step,
    raw: &str,
    known: Option<&Known>,
    options: Options,
) -> Result<Validated, Report> {
    let verdict = check_step_with(step, raw, known, options);
    if !verdict.is_ok() {
        return Err(Report::from_verdict(step, verdict));
    }
    match typed(step, &verdict.json) {
        Ok(answer) => Ok(Validated {
            answer,
            warnings: verdict.warnings,
        }),
        Err(e) => Err(Report {
            step,
            errors: vec![report::serde_violation(&e)],
            warnings: verdict.warnings,
        }),
    }
}

/// Reads checked JSON into the typed answer of `step`.
fn typed(step: Step, json: &str) -> Result<StepAnswer, serde_json::Error> {
    fn read<F: serde::de::DeserializeOwned>(
        json: &str,
        wrap: fn(F) -> FinalOutput,
    ) -> Result<StepAnswer, serde_json::Error> {
        Ok(match serde_json::from_str::<WireAnswer<F>>(json)? {
            WireAnswer::RequestContext { context_requests } => {
                StepAnswer::RequestContext { context_requests }
            }
            WireAnswer::Halt { halt } => StepAnswer::Halt { halt },
            WireAnswer::FinalOutput(output) => StepAnswer::FinalOutput {
                output: wrap(output),
            },
        })
    }
    match step {
        Step::Bootstrap => read::<BootstrapOutput>(json, FinalOutput::Bootstrap),
        Step::Reflect => read::<ReflectOutput>(json, FinalOutput::Reflect),
        Step::PlanAssign => read::<PlanAssignOutput>(json, FinalOutput::PlanAssign),
        Step::Write => read::<WriteOutput>(json, FinalOutput::Write),
        Step::PeerReview => read::<PeerReviewOutput>(json, FinalOutput::PeerReview),
        Step::Inspection => read::<InspectionOutput>(json, FinalOutput::Inspection),
        Step::Presentation => read::<PresentationOutput>(json, FinalOutput::Presentation),
    }
}

#[cfg(test)]
mod tests;
