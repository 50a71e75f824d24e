//! The answer shapes of a meeting and their checks: the orchestrator's decision (spec `001`), a
//! member's contribution, and the minutes.
//!
//! Each shape is one serde type; its JSON Schema (`core/schemas/meeting_*.json`) is derived from
//! it with `schemars`, and the examples in the prompts are values of it, serialised — so the
//! schema, the prompt and the checker cannot drift apart (tests compare them). The checker reads a
//! recovered JSON value field by field ([`crate::validate::fields`]) and reports every violation
//! with its JSON pointer, what was expected, what was received and a hint.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::validate::fields::{one_of, quote, Fields};
use crate::validate::Violation;

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
#[serde(tag = "decision", rename_all = "snake_case")]
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
    pub next_agent_id: Option<String>,
    /// Required with `change_phase`: the phase to move to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_phase: Option<Phase>,
    /// Required with `end_meeting`: why the meeting ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
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
    pub owner: String,
    /// What is to be done.
    #[schemars(length(min = 3, max = limits::ITEM_MAX))]
    pub task: String,
    /// When, in words ("by Friday"), if anyone said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
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
    #[schemars(length(max = limits::LIST_MAX))]
    pub decisions: Vec<String>,
    /// Who does what.
    #[schemars(length(max = limits::ACTIONS_MAX))]
    pub action_items: Vec<ActionItem>,
    /// What is still open.
    #[schemars(length(max = limits::LIST_MAX))]
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
}

/// Checks a decision against spec `001`'s rules: `decision` one of the three; `rationale` always;
/// `next_agent_id` with `continue` and one of `attendees`; `new_phase` with `change_phase` and one
/// of the seven; `end_reason` with `end_meeting`. Every violation is collected.
pub fn check_decision(
    value: &Value,
    attendees: &[&str],
    warnings: &mut Vec<Violation>,
) -> Result<Decision, Vec<Violation>> {
    let mut f = Fields::of(value, "").map_err(|v| vec![v])?;
    let word = f.word(
        "decision",
        &["continue", "change_phase", "end_meeting"],
        "Say \"continue\" to give someone the floor, \"change_phase\" to move on, \"end_meeting\" to close.",
    );
    let rationale = f.text(
        "rationale",
        1,
        limits::RATIONALE_MAX,
        "Give the reasoning behind the decision in a sentence or two.",
    );
    let mut decision = None;
    match word {
        Some("continue") => {
            let hint = format!("Give the floor to one of: {}.", attendees.join(", "));
            if let Some(id) = f.text("next_agent_id", 1, 80, &hint) {
                if attendees.contains(&id.as_str()) {
                    decision = rationale.clone().map(|rationale| Decision::Continue {
                        next_agent_id: id,
                        rationale,
                    });
                } else {
                    f.error(
                        "next_agent_id",
                        format!("{id} is not an attendee of this meeting"),
                        &one_of(attendees),
                        &quote(&id),
                        &hint,
                    );
                }
            }
        }
        Some("change_phase") => {
            let names: Vec<&'static str> = Phase::ALL.iter().map(|p| p.name()).collect();
            if let Some(name) = f.word(
                "new_phase",
                &names,
                "Name one of the seven phases exactly as written.",
            ) {
                let new_phase = Phase::from_name(name).expect("listed above");
                decision = rationale.clone().map(|rationale| Decision::ChangePhase {
                    new_phase,
                    rationale,
                });
            }
        }
        Some(_) => {
            if let Some(end_reason) = f.text(
                "end_reason",
                1,
                limits::END_REASON_MAX,
                "Say in a sentence why the meeting can end.",
            ) {
                decision = rationale.clone().map(|rationale| Decision::EndMeeting {
                    end_reason,
                    rationale,
                });
            }
        }
        None => {}
    }
    // The fields of the other decisions are not errors, only ignored.
    for key in ["next_agent_id", "new_phase", "end_reason"] {
        f.raw(key);
    }
    let errors = f.finish(warnings);
    match decision {
        Some(d) if errors.is_empty() => Ok(d),
        _ => Err(errors),
    }
}

/// Checks a contribution.
pub fn check_contribution(
    value: &Value,
    warnings: &mut Vec<Violation>,
) -> Result<Contribution, Vec<Violation>> {
    let mut f = Fields::of(value, "").map_err(|v| vec![v])?;
    let text = f.text(
        "contribution",
        limits::CONTRIBUTION_MIN,
        limits::CONTRIBUTION_MAX,
        "Put what you say, in Markdown, in `contribution`.",
    );
    let errors = f.finish(warnings);
    match text {
        Some(contribution) if errors.is_empty() => Ok(Contribution { contribution }),
        _ => Err(errors),
    }
}

/// Checks the minutes; every action item's owner must be one of `owners`.
pub fn check_minutes(
    value: &Value,
    owners: &[&str],
    warnings: &mut Vec<Violation>,
) -> Result<Minutes, Vec<Violation>> {
    let mut f = Fields::of(value, "").map_err(|v| vec![v])?;
    let summary = f.text(
        "summary",
        limits::SUMMARY_MIN,
        limits::SUMMARY_MAX,
        "Sum the meeting up in two to four sentences.",
    );
    let decisions = f.texts(
        "decisions",
        limits::LIST_MAX,
        limits::ITEM_MAX,
        "List each decision as one string.",
    );
    let open_questions = f.texts(
        "open_questions",
        limits::LIST_MAX,
        limits::ITEM_MAX,
        "List each open question as one string (an empty list if none).",
    );
    let mut action_items = Vec::new();
    if let Some(items) = f.list(
        "action_items",
        limits::ACTIONS_MAX,
        "List the action items (an empty list if none).",
    ) {
        for (i, item) in items.iter().enumerate() {
            let path = f.pointer(&format!("action_items/{i}"));
            let mut a = match Fields::of(item, &path) {
                Ok(a) => a,
                Err(v) => {
                    f.errors.push(v);
                    continue;
                }
            };
            let owner_hint = format!("Name the owner by attendee id: {}.", owners.join(", "));
            let owner = a.text("owner", 1, 80, &owner_hint);
            if let Some(o) = &owner {
                if !owners.contains(&o.as_str()) {
                    a.error(
                        "owner",
                        format!("{o} is not an attendee of this meeting"),
                        &one_of(owners),
                        &quote(o),
                        &owner_hint,
                    );
                }
            }
            let task = a.text("task", 3, limits::ITEM_MAX, "Say what is to be done.");
            let due = a.optional_text("due", 80, "Say when in words, or leave `due` out.");
            let errs = a.finish(warnings);
            if errs.is_empty() {
                if let (Some(owner), Some(task)) = (owner, task) {
                    action_items.push(ActionItem { owner, task, due });
                }
            }
            f.errors.extend(errs);
        }
    }
    let errors = f.finish(warnings);
    match summary {
        Some(summary) if errors.is_empty() => Ok(Minutes {
            summary,
            decisions,
            action_items,
            open_questions,
        }),
        _ => Err(errors),
    }
}
