//! The team's answers checked: a step's raw model text in, the typed [`StepAnswer`] or a
//! [`Report`] of every violation out — the team's API on the kind-neutral validator
//! (`roundtable_engine::validate`), which it hands the team's shapes (`shape.rs`, generated), its id rules
//! (`ids.rs`, with the ids the session knows: [`Known`]) and its words for a `responseType` a step
//! does not allow.
//!
//! # Two entry points
//!
//! - [`check_step`] (and [`check_step_with`]) gives only the verdict: errors, warnings, and the
//!   recovered JSON text, borrowed from the raw answer when nothing had to be rewritten. It builds
//!   no value: one pass over the text with borrowed slices, no `serde_json::Value`, chars counted
//!   only when a string's byte length could break a limit. This is what the JS API calls on every
//!   answer; a caller that wants the value runs `JSON.parse` on the recovered text (or builds it
//!   from the value tape: [`check_step_with_tape`], [`key_names`]).
//! - [`validate_step`] (and [`validate_step_with`]) is `check_step` followed, when there is no
//!   error, by `serde_json` into [`StepAnswer`] with the spec's defaults filled in: what the engine
//!   consumes.
//!
//! The checker never accepts what `serde` then refuses (a proptest and the fuzz target hold it to
//! that), and its shapes are tested field by field against `step_schema(step, Plain)`, so ajv on
//! the JSON Schema and this validator agree on every answer that needs no recovery and no id check.

use std::sync::OnceLock;

use super::ids::TeamIds;
use super::shape;
use super::wire::{
    BootstrapOutput, FinalOutput, InspectionOutput, PeerReviewOutput, PlanAssignOutput,
    PresentationOutput, ReflectOutput, Step, StepAnswer, WireAnswer, WriteOutput,
};
use roundtable_engine::validate::check::{IdScope, Root};
use roundtable_engine::validate::tape::TapeKeys;
use roundtable_engine::validate::{
    self, read_checked, repair_prompt, IdRules, Options, Report, Validated, Verdict,
};

pub use crate::ids::Known;

/// The team's id rules for one check: a fresh [`TeamIds`] per walk, with the session's ids.
struct TeamRules<'k>(Option<&'k Known>);

impl IdRules for TeamRules<'_> {
    fn scope<'a>(&'a self) -> Box<dyn IdScope<'a> + 'a> {
        Box::new(TeamIds::new(self.0))
    }
}

/// What a whole answer of `step` must be: the union on `responseType` of what the step allows.
fn root(step: Step) -> Root {
    Root::Tagged(shape::root(step))
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
    validate::check_answer(root(step), raw, &TeamRules(known), options)
}

/// [`check_step_with`] that also writes the answer's value tape (`validate::tape`) into `words`
/// as it checks, with the key ids of [`key_names`] (the JS API builds the parsed value from it
/// instead of running `JSON.parse`). The `bool` says whether the tape describes the whole answer:
/// not when the answer was repaired on the way in or has a key that is no field name; the caller
/// then parses the text.
pub fn check_step_with_tape<'a>(
    step: Step,
    raw: &'a str,
    known: Option<&Known>,
    options: Options,
    words: &mut Vec<u32>,
) -> (Verdict<'a>, bool) {
    validate::check_answer_with_tape(
        root(step),
        raw,
        &TeamRules(known),
        options,
        tape_keys(),
        words,
    )
}

/// The team's tape key table: every field name of every step's answers.
fn tape_keys() -> &'static TapeKeys {
    static KEYS: OnceLock<TapeKeys> = OnceLock::new();
    KEYS.get_or_init(|| {
        TapeKeys::new(
            Step::ALL
                .into_iter()
                .flat_map(|step| shape::root(step).union.variants.iter().map(|(_, obj)| *obj)),
        )
    })
}

/// Every field name of every step's answers, in a fixed order: a key's id on the value tape is
/// its index here. The JS side interns these once.
pub fn key_names() -> &'static [&'static str] {
    tape_keys().names()
}

/// Turns a raw model answer for `step` into the typed answer, with the spec's defaults filled in,
/// or a [`Report`] of every violation (whose [`Report::repair_prompt`] goes back to the model).
///
/// `known` holds the ids of the session; with `None` only the shape is checked. This is
/// [`check_step`] followed, when it finds no error, by `serde_json` on the recovered text.
pub fn validate_step(
    step: Step,
    raw: &str,
    known: Option<&Known>,
) -> Result<Validated<StepAnswer>, Report<Step>> {
    validate_step_with(step, raw, known, Options::default())
}

/// [`validate_step`] with what the caller knows about the call (see [`Options`]).
pub fn validate_step_with(
    step: Step,
    raw: &str,
    known: Option<&Known>,
    options: Options,
) -> Result<Validated<StepAnswer>, Report<Step>> {
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
            errors: vec![e],
            warnings: verdict.warnings,
        }),
    }
}

/// A team step's report as the message that sends it back to the model (a trait: the report is
/// the engine's type).
pub trait RepairPrompt {
    /// The message to send back to the same model: what was wrong, each violation with its path,
    /// what was expected and received and a hint, and the request to answer again with only the
    /// corrected JSON object. Short on purpose: it is appended to a conversation.
    fn repair_prompt(&self) -> String;
}

impl RepairPrompt for Report<Step> {
    fn repair_prompt(&self) -> String {
        repair_prompt(&format!("the {} step", self.step.title()), &self.errors)
    }
}

/// Reads checked JSON into the typed answer of `step`.
fn typed(step: Step, json: &str) -> Result<StepAnswer, roundtable_engine::validate::Violation> {
    fn read<F: serde::de::DeserializeOwned>(
        json: &str,
        wrap: fn(F) -> FinalOutput,
    ) -> Result<StepAnswer, roundtable_engine::validate::Violation> {
        Ok(match read_checked::<WireAnswer<F>>(json)? {
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
