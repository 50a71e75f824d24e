//! The append-only event log of a session.
//!
//! Every change of a session is one [`Event`]: the session's creation, each model call issued (with
//! its messages and envelope), each raw answer, each validation report, each applied change, each
//! thing the person did. The state is a fold of the events ([`crate::protocol::team::TeamState::fold`]),
//! so a session can be replayed, audited and exported exactly. Events hold everything the fold needs
//! (served context slices, repair prompts, halts) so replay never re-runs the validator or the prompt
//! builder: a session file stays readable after either changes.

use serde::{Deserialize, Serialize};

use crate::context::ContextSlice;
use crate::protocol::ModelCall;
use crate::schema::{ContextRequest, FinalOutput, Halt, Step};
use crate::session::{Charter, PauseReason, SessionConfig, Settings};
use crate::validate::{Report, Violation};

/// One entry of the log: its position, when it happened (ms, passed in), and what happened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// 0, 1, 2, … without gaps; replay refuses a log with a gap.
    pub seq: u64,
    /// Milliseconds since the Unix epoch, as the caller said.
    pub at: u64,
    /// What happened.
    pub kind: EventKind,
}

/// Tokens a provider reported for one call; the engine counts them against the budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Usage {
    /// Prompt tokens.
    pub input_tokens: u64,
    /// Answer tokens.
    pub output_tokens: u64,
    /// The provider said it stopped because the answer hit its length limit.
    #[serde(default)]
    pub stopped_for_length: bool,
}

/// What the person did, besides answering a halt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "edit", rename_all = "snake_case")]
pub enum PersonEdit {
    /// Replaces the mission charter.
    Charter {
        /// The new charter.
        charter: Charter,
    },
    /// Accepts a version of a product, as the chair would.
    AcceptVersion {
        /// Product id.
        product_id: String,
        /// Version id.
        version_id: String,
    },
    /// Rejects the latest version of a product with a reason the next writer sees.
    RejectVersion {
        /// Product id.
        product_id: String,
        /// Why.
        reason: String,
    },
    /// A remark to the chair, shown in its next prompt.
    RemarkToChair {
        /// The remark.
        content: String,
    },
    /// New limits (round limit, token budget, repairs allowed).
    Settings {
        /// The new settings.
        settings: Settings,
    },
}

/// Everything that can happen to a session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventKind {
    /// The first event: the team, the request, the settings.
    Created {
        /// The configuration the session starts from.
        config: SessionConfig,
    },
    /// The person started the session (draft → running).
    Started,
    /// A round begins.
    RoundStarted {
        /// Its number, from 1.
        round: u32,
    },
    /// A step begins for these members (in parallel).
    StepStarted {
        /// The round.
        round: u32,
        /// The step.
        step: Step,
        /// Who must answer.
        members: Vec<String>,
    },
    /// A model call was issued (kept whole: the person can see what each member saw).
    CallIssued {
        /// The call, without its JSON Schema (a function of the step).
        call: Box<ModelCall>,
    },
    /// A raw answer arrived for an outstanding call.
    AnswerReceived {
        /// The call.
        call_id: String,
        /// The text as the model sent it.
        raw: String,
        /// What the provider reported, if anything.
        usage: Option<Usage>,
        /// Tokens counted against the budget (reported, or estimated).
        tokens: u64,
    },
    /// An answer for a call that is not outstanding (unknown, superseded, already answered);
    /// recorded, never applied.
    AnswerRefused {
        /// The id it came with.
        call_id: String,
        /// The text.
        raw: String,
        /// Why it was refused.
        reason: String,
    },
    /// The answer was invalid; nothing of it was applied. The same member is asked again with
    /// `repair_prompt` unless its repairs are used up.
    AnswerInvalid {
        /// The call.
        call_id: String,
        /// Every violation.
        report: Report,
        /// The message sent back to the model.
        repair_prompt: String,
    },
    /// The member asked for more context; the slices are served and the step asked again.
    ContextServed {
        /// The call.
        call_id: String,
        /// What was asked.
        requests: Vec<ContextRequest>,
        /// What was served.
        slices: Vec<ContextSlice>,
        /// The follow-up message sent to the model.
        follow_up: String,
        /// Warnings from validation.
        warnings: Vec<Violation>,
    },
    /// A member halted: a question for the person, or `done`.
    HaltRaised {
        /// The call.
        call_id: String,
        /// The halt.
        halt: Halt,
        /// Warnings from validation.
        warnings: Vec<Violation>,
    },
    /// A valid final output was applied (the fold re-applies it deterministically).
    Applied {
        /// The call.
        call_id: String,
        /// The output.
        output: Box<FinalOutput>,
        /// Warnings from validation.
        warnings: Vec<Violation>,
    },
    /// The person answered the open halt question.
    PersonAnswered {
        /// Free text or one of the options.
        answer: String,
    },
    /// The person changed something.
    PersonEdited {
        /// What.
        edit: PersonEdit,
    },
    /// The session paused.
    Paused {
        /// Why.
        reason: PauseReason,
    },
    /// The session runs again.
    Resumed,
    /// The rounds end (the chair halted `done`, or the person asked for the presentation);
    /// outstanding calls are superseded.
    RoundsEnded {
        /// `chair` or `user-1`.
        by: String,
    },
    /// The session is over.
    Finished,
}

impl EventKind {
    /// A short name for timelines and logs.
    pub fn name(&self) -> &'static str {
        match self {
            EventKind::Created { .. } => "created",
            EventKind::Started => "started",
            EventKind::RoundStarted { .. } => "round_started",
            EventKind::StepStarted { .. } => "step_started",
            EventKind::CallIssued { .. } => "call_issued",
            EventKind::AnswerReceived { .. } => "answer_received",
            EventKind::AnswerRefused { .. } => "answer_refused",
            EventKind::AnswerInvalid { .. } => "answer_invalid",
            EventKind::ContextServed { .. } => "context_served",
            EventKind::HaltRaised { .. } => "halt_raised",
            EventKind::Applied { .. } => "applied",
            EventKind::PersonAnswered { .. } => "person_answered",
            EventKind::PersonEdited { .. } => "person_edited",
            EventKind::Paused { .. } => "paused",
            EventKind::Resumed => "resumed",
            EventKind::RoundsEnded { .. } => "rounds_ended",
            EventKind::Finished => "finished",
        }
    }
}
