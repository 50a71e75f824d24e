//! The answer shapes of a meeting and their checks: the orchestrator's decision (spec `001`), a
//! member's contribution, and the minutes.
//!
//! Each shape is one serde type; its JSON Schema (`core/schemas/meeting_*.json`) is derived from
//! it with `schemars`, the validator's shape tables are generated from that schema
//! (`validate/shape_gen.rs`, like the team's), and the examples in the prompts are values of it,
//! serialised — so the schema, the prompt and the checker cannot drift apart (tests compare
//! them). The validator walks the raw answer against its shape (types, enums, every length, with
//! the JSON pointer, what was expected, what was received and a hint); the checks here add only
//! what a schema cannot say: which field each decision needs, and that the ids named are
//! attendees of this meeting.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use roundtable_engine::validate::{self, Options, Violation};

/// The seven phases of a meeting, in order (spec `001`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
pub enum Phase {
    /// Goals, constraints, who brings what.
    Initialization,
    /// What exactly the problem is: facts, unknowns, success criteria.
    ProblemClarification,
    /// Distinct options.
    OptionGeneration,
    /// Options weighed against the criteria.
    Evaluation,
    /// One option chosen, and why.
    Decision,
    /// Who does what by when.
    ExecutionPlanning,
    /// Recap and close.
    Conclusion,
}

impl Phase {
    /// Every phase in meeting order.
    pub const ALL: [Phase; 7] = [
        Phase::Initialization,
        Phase::ProblemClarification,
        Phase::OptionGeneration,
        Phase::Evaluation,
        Phase::Decision,
        Phase::ExecutionPlanning,
        Phase::Conclusion,
    ];

    /// The wire name (`ProblemClarification`), as 001 spells it.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Initialization => "Initialization",
            Phase::ProblemClarification => "ProblemClarification",
            Phase::OptionGeneration => "OptionGeneration",
            Phase::Evaluation => "Evaluation",
            Phase::Decision => "Decision",
            Phase::ExecutionPlanning => "ExecutionPlanning",
            Phase::Conclusion => "Conclusion",
        }
    }

    /// The phase in words for people.
    pub fn title(self) -> &'static str {
        match self {
            Phase::Initialization => "Initialization",
            Phase::ProblemClarification => "Problem clarification",
            Phase::OptionGeneration => "Option generation",
            Phase::Evaluation => "Evaluation",
            Phase::Decision => "Decision",
            Phase::ExecutionPlanning => "Execution planning",
            Phase::Conclusion => "Conclusion",
        }
    }

    /// What the phase is for, as the prompts say it.
    pub fn purpose(self) -> &'static str {
        match self {
            Phase::Initialization => {
                "frame the meeting: the goal, the constraints, and what each attendee brings"
            }
            Phase::ProblemClarification => {
                "pin down the problem: the facts, the unknowns, and how success will be judged"
            }
            Phase::OptionGeneration => {
                "put distinct options on the table, each in a sentence or two"
            }
            Phase::Evaluation => "weigh the options against the criteria: costs, risks, trade-offs",
            Phase::Decision => "choose one option and say why",
            Phase::ExecutionPlanning => "turn the decision into tasks: who does what, by when",
            Phase::Conclusion => "recap what was decided and close",
        }
    }

    /// The phase after this one (`None` after Conclusion).
    pub fn next(self) -> Option<Phase> {
        let i = Phase::ALL.iter().position(|p| *p == self)?;
        Phase::ALL.get(i + 1).copied()
    }

    /// The phase with this wire name.
    pub fn from_name(name: &str) -> Option<Phase> {
        Phase::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// The orchestrator's decision, as the engine keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum Decision {
    /// Give the floor to this attendee.
    Continue {
        /// Attendee id.
        next_agent_id: String,
        /// Why.
        rationale: String,
    },
    /// Move the meeting to this phase.
    ChangePhase {
        /// The phase.
        new_phase: Phase,
        /// Why.
        rationale: String,
    },
    /// End the meeting (the minutes follow).
    EndMeeting {
        /// Why it ends.
        end_reason: String,
        /// Why now.
        rationale: String,
    },
}
roundtable_engine::tagged::tagged!([] Decision, tag = "decision");

impl Decision {
    /// The decision in a few words for the timeline ("gave the floor to engineer-1").
    pub fn describe(&self) -> String {
        match self {
            Decision::Continue { next_agent_id, .. } => {
                format!("gave the floor to {next_agent_id}")
            }
            Decision::ChangePhase { new_phase, .. } => {
                format!("moved the meeting to {}", new_phase.title())
            }
            Decision::EndMeeting { end_reason, .. } => format!("ended the meeting: {end_reason}"),
        }
    }

    /// The rationale.
    pub fn rationale(&self) -> &str {
        match self {
            Decision::Continue { rationale, .. }
            | Decision::ChangePhase { rationale, .. }
            | Decision::EndMeeting { rationale, .. } => rationale,
        }
    }
}

/// The orchestrator's decision as sent (spec `001`): the source of its JSON Schema.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "meeting_decision")]
pub struct DecisionWire {
    /// `continue`, `change_phase` or `end_meeting`.
    pub decision: DecisionWord,
    /// Required with `continue`: the attendee who speaks next.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = limits::ID_MAX))]
    pub next_agent_id: Option<String>,
    /// Required with `change_phase`: the phase to move to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_phase: Option<Phase>,
    /// Required with `end_meeting`: why the meeting ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = limits::END_REASON_MAX))]
    pub end_reason: Option<String>,
    /// Always required: the reasoning behind the decision.
    #[schemars(length(min = 1, max = limits::RATIONALE_MAX))]
    pub rationale: String,
}

/// The three decisions of spec `001`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DecisionWord {
    /// Give the floor to someone.
    Continue,
    /// Move to another phase.
    ChangePhase,
    /// End the meeting.
    EndMeeting,
}

impl From<&Decision> for DecisionWire {
    fn from(d: &Decision) -> Self {
        let (decision, next_agent_id, new_phase, end_reason) = match d {
            Decision::Continue { next_agent_id, .. } => (
                DecisionWord::Continue,
                Some(next_agent_id.clone()),
                None,
                None,
            ),
            Decision::ChangePhase { new_phase, .. } => {
                (DecisionWord::ChangePhase, None, Some(*new_phase), None)
            }
            Decision::EndMeeting { end_reason, .. } => (
                DecisionWord::EndMeeting,
                None,
                None,
                Some(end_reason.clone()),
            ),
        };
        DecisionWire {
            decision,
            next_agent_id,
            new_phase,
            end_reason,
            rationale: d.rationale().to_string(),
        }
    }
}

/// A member's turn: what it says, in Markdown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "meeting_contribution")]
pub struct Contribution {
    /// What the member says, in Markdown: one to four short paragraphs or a short list.
    #[schemars(length(min = limits::CONTRIBUTION_MIN, max = limits::CONTRIBUTION_MAX))]
    pub contribution: String,
}

/// One action item of the minutes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ActionItem {
    /// The attendee who owns it (an attendee id, or `user-1` for the person).
    #[schemars(length(min = 1, max = limits::ID_MAX))]
    pub owner: String,
    /// What is to be done.
    #[schemars(length(min = 3, max = limits::ITEM_MAX))]
    pub task: String,
    /// When, in words ("by Friday"), if anyone said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = limits::DUE_MAX))]
    pub due: Option<String>,
}

/// The minutes the orchestrator writes when the meeting ends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "meeting_minutes")]
pub struct Minutes {
    /// What the meeting was about and how it went, in two to four sentences.
    #[schemars(length(min = limits::SUMMARY_MIN, max = limits::SUMMARY_MAX))]
    pub summary: String,
    /// What was decided, one item each.
    #[schemars(length(max = limits::LIST_MAX), inner(length(min = 1, max = limits::ITEM_MAX)))]
    pub decisions: Vec<String>,
    /// Who does what.
    #[schemars(length(max = limits::ACTIONS_MAX))]
    pub action_items: Vec<ActionItem>,
    /// What is still open.
    #[schemars(length(max = limits::LIST_MAX), inner(length(min = 1, max = limits::ITEM_MAX)))]
    pub open_questions: Vec<String>,
}

/// The JSON Schema of a step's answer, derived from its type with `schemars` (draft 2020-12):
/// the source the committed `core/schemas/<step>.plain.json` files are checked against.
pub fn derive_schema(step: super::MeetingStep) -> Value {
    let generator = schemars::generate::SchemaSettings::draft2020_12().into_generator();
    let root = match step {
        super::MeetingStep::Decide => generator.into_root_schema_for::<DecisionWire>(),
        super::MeetingStep::Speak => generator.into_root_schema_for::<Contribution>(),
        super::MeetingStep::Minutes => generator.into_root_schema_for::<Minutes>(),
    };
    root.to_value()
}

/// Limits of the meeting's shapes, in one place for the checker, the schema and the prompts.
pub mod limits {
    /// Longest rationale.
    pub const RATIONALE_MAX: usize = 600;
    /// Longest end reason.
    pub const END_REASON_MAX: usize = 300;
    /// Shortest contribution.
    pub const CONTRIBUTION_MIN: usize = 20;
    /// Longest contribution.
    pub const CONTRIBUTION_MAX: usize = 4000;
    /// Shortest summary.
    pub const SUMMARY_MIN: usize = 20;
    /// Longest summary.
    pub const SUMMARY_MAX: usize = 1500;
    /// Most decisions / open questions in the minutes.
    pub const LIST_MAX: usize = 12;
    /// Most action items.
    pub const ACTIONS_MAX: usize = 20;
    /// Longest list item.
    pub const ITEM_MAX: usize = 300;
    /// Longest attendee id an answer may name.
    pub const ID_MAX: usize = 80;
    /// Longest due date, in words.
    pub const DUE_MAX: usize = 80;
}

/// Checks a raw decision against spec `001`'s rules. The validator walks it against the shape
/// generated from [`DecisionWire`]'s schema: `decision` one of the three, `rationale` always,
/// `new_phase` one of the seven, every field's type and length. Then the rules a schema cannot
/// say: `next_agent_id` with `continue` and one of `attendees`, `new_phase` with `change_phase`,
/// `end_reason` with `end_meeting` (the fields of the other decisions are ignored). Every
/// violation is collected: the shape's in the order they stand in the answer, then these.
pub fn check_decision(
    raw: &str,
    options: Options,
    attendees: &[&str],
    warnings: &mut Vec<Violation>,
) -> Result<Decision, Vec<Violation>> {
    let (value, mut errors) = walk("meeting_decision", raw, options, warnings)?;
    let text = |key: &str| value.get(key).and_then(Value::as_str);
    let absent = |key: &str| value.get(key).is_none_or(Value::is_null);
    let require = |key: &str, with: &str, hint: &str, errors: &mut Vec<Violation>| {
        if absent(key) {
            errors.push(Violation {
                path: format!("/{key}"),
                message: format!("`{key}` is required with \"{with}\""),
                expected: "a string".into(),
                received: "nothing".into(),
                hint: hint.into(),
            });
        }
    };
    match text("decision") {
        Some("continue") => {
            let hint = format!("Give the floor to one of: {}.", attendees.join(", "));
            require("next_agent_id", "continue", &hint, &mut errors);
            if let Some(id) = text("next_agent_id").map(str::trim) {
                if !id.is_empty() && !attendees.contains(&id) {
                    errors.push(Violation {
                        path: "/next_agent_id".into(),
                        message: format!("{id} is not an attendee of this meeting"),
                        expected: one_of(attendees),
                        received: quote(id),
                        hint,
                    });
                }
            }
        }
        Some("change_phase") => require(
            "new_phase",
            "change_phase",
            "Name one of the seven phases exactly as written.",
            &mut errors,
        ),
        Some("end_meeting") => require(
            "end_reason",
            "end_meeting",
            "Say in a sentence why the meeting can end.",
            &mut errors,
        ),
        _ => {}
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let wire: DecisionWire = read(&value)?;
    let rationale = wire.rationale.trim().to_string();
    let given = |v: Option<String>| v.map(|v| v.trim().to_string()).unwrap_or_default();
    Ok(match (wire.decision, wire.new_phase) {
        (DecisionWord::Continue, _) => Decision::Continue {
            next_agent_id: given(wire.next_agent_id),
            rationale,
        },
        (DecisionWord::ChangePhase, Some(new_phase)) => Decision::ChangePhase {
            new_phase,
            rationale,
        },
        // `require` above refused a change_phase without a phase.
        (DecisionWord::ChangePhase, None) => unreachable!("new_phase was required"),
        (DecisionWord::EndMeeting, _) => Decision::EndMeeting {
            end_reason: given(wire.end_reason),
            rationale,
        },
    })
}

/// Checks a raw contribution against the shape generated from [`Contribution`]'s schema.
pub fn check_contribution(
    raw: &str,
    options: Options,
    warnings: &mut Vec<Violation>,
) -> Result<Contribution, Vec<Violation>> {
    let (value, errors) = walk("meeting_contribution", raw, options, warnings)?;
    if !errors.is_empty() {
        return Err(errors);
    }
    let c: Contribution = read(&value)?;
    Ok(Contribution {
        contribution: c.contribution.trim().to_string(),
    })
}

/// Checks raw minutes against the shape generated from [`Minutes`]' schema, then that every
/// action item's owner is one of `owners`.
pub fn check_minutes(
    raw: &str,
    options: Options,
    owners: &[&str],
    warnings: &mut Vec<Violation>,
) -> Result<Minutes, Vec<Violation>> {
    let (value, mut errors) = walk("meeting_minutes", raw, options, warnings)?;
    let items = value.get("action_items").and_then(Value::as_array);
    for (i, item) in items.into_iter().flatten().enumerate() {
        let Some(owner) = item.get("owner").and_then(Value::as_str).map(str::trim) else {
            continue;
        };
        if !owner.is_empty() && !owners.contains(&owner) {
            errors.push(Violation {
                path: format!("/action_items/{i}/owner"),
                message: format!("{owner} is not an attendee of this meeting"),
                expected: one_of(owners),
                received: quote(owner),
                hint: format!("Name the owner by attendee id: {}.", owners.join(", ")),
            });
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let m: Minutes = read(&value)?;
    let trim = |v: Vec<String>| v.into_iter().map(|s| s.trim().to_string()).collect();
    Ok(Minutes {
        summary: m.summary.trim().to_string(),
        decisions: trim(m.decisions),
        action_items: m
            .action_items
            .into_iter()
            .map(|a| ActionItem {
                owner: a.owner.trim().to_string(),
                task: a.task.trim().to_string(),
                due: a.due.map(|d| d.trim().to_string()),
            })
            .collect(),
        open_questions: trim(m.open_questions),
    })
}

/// The validator's walk of `raw` against the generated shape named `schema`: the answer as a
/// value (for the rules the shape cannot say) and the shape's violations, or — when no JSON
/// object could be read at all — only the violations.
fn walk(
    schema: &str,
    raw: &str,
    options: Options,
    warnings: &mut Vec<Violation>,
) -> Result<(Value, Vec<Violation>), Vec<Violation>> {
    let shape =
        super::shape::answer_object(schema).expect("every meeting answer has a generated shape");
    let mut verdict = validate::check_object(shape, raw, options);
    warnings.extend(verdict.warnings);
    for error in &mut verdict.errors {
        let field = error.path.rsplit('/').find(|s| s.parse::<usize>().is_err());
        let hint = HINTS.iter().find(|(f, _)| Some(*f) == field);
        if let Some((_, hint)) = hint.filter(|_| !error.message.contains("chars long")) {
            error.hint = (*hint).to_string();
        }
    }
    match serde_json::from_str::<Value>(&verdict.json) {
        Ok(value) if value.is_object() => Ok((value, verdict.errors)),
        _ => Err(verdict.errors),
    }
}

/// What to do about each field of the meeting's answers, in the words of its prompts: the hint a
/// violation of the field carries (the validator's own says how to fix a length).
const HINTS: &[(&str, &str)] = &[
    (
        "decision",
        "Say \"continue\" to give someone the floor, \"change_phase\" to move on, \"end_meeting\" to close.",
    ),
    (
        "rationale",
        "Give the reasoning behind the decision in a sentence or two.",
    ),
    (
        "new_phase",
        "Name one of the seven phases exactly as written.",
    ),
    (
        "end_reason",
        "Say in a sentence why the meeting can end.",
    ),
    (
        "contribution",
        "Put what you say, in Markdown, in `contribution`.",
    ),
    ("summary", "Sum the meeting up in two to four sentences."),
    ("decisions", "List each decision as one string."),
    (
        "open_questions",
        "List each open question as one string (an empty list if none).",
    ),
    (
        "action_items",
        "List the action items (an empty list if none).",
    ),
    ("task", "Say what is to be done."),
    ("due", "Say when in words, or leave `due` out."),
];

/// A value the walker found valid, in its serde type.
fn read<T: serde::de::DeserializeOwned>(value: &Value) -> Result<T, Vec<Violation>> {
    validate::read_checked(&value.to_string()).map_err(|v| vec![v])
}

/// A received text as the repair prompt shows it: quoted, shortened.
fn quote(s: &str) -> String {
    let short: String = s.chars().take(80).collect();
    serde_json::to_string(&short).unwrap_or_default()
}

/// `"a", "b" or "c"`, for expected-value texts.
fn one_of(allowed: &[&str]) -> String {
    let quoted: Vec<String> = allowed.iter().map(|a| format!("\"{a}\"")).collect();
    match quoted.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("one of {} or {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod shape_tests {
    //! The meeting's shape tables (`shape.rs`): generated from its answers' schemas, and saying
    //! exactly what those schemas say.
    use super::super::MeetingStep;
    use super::derive_schema;
    use roundtable_engine::validate::shape_gen::check_object_tables;

    const STEPS: [MeetingStep; 3] = [
        MeetingStep::Decide,
        MeetingStep::Speak,
        MeetingStep::Minutes,
    ];

    /// `kinds/meeting/src/shape.rs` is what the schemas generate, and says exactly what they say
    /// (`UPDATE_SHAPES=1` rewrites it).
    #[test]
    fn committed_shape_tables_are_current() {
        let schemas: Vec<_> = STEPS.iter().map(|&s| derive_schema(s)).collect();
        check_object_tables(
            concat!(env!("CARGO_MANIFEST_DIR"), "/src/shape.rs"),
            "meeting",
            "the meeting's",
            "Meeting",
            include_str!("shape.rs"),
            &schemas,
            super::super::shape::answer_object,
        );
    }
}
