//! The append-only event log of a session.
//!
//! Every change of a session is one [`Event`]: its creation, each model call issued (with its
//! messages and envelope), each raw answer, each validation report, each applied change, each
//! thing the person did. The state is a fold of the events, so a session can be replayed, audited
//! and exported exactly. Events hold everything the fold needs (served context, repair prompts,
//! halts), so replay never re-runs the validator or the prompt builder: a session file stays
//! readable after either changes. The kind's own payloads (its config, outputs, edits) ride
//! inside the same events as [`KindValue`]s, read and typed by the kind.

use serde::{Deserialize, Serialize};

use super::call::StoredCall;
use super::control::Until;
use super::kind_value::{KindValue, StepId};
use super::status::{Findings, PauseReason, Settings};
use crate::cost::MemberPrices;
use crate::validate::Violation;

/// One entry of the log: its position, when it happened (ms, passed in), and what happened.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// 0, 1, 2, … without gaps; replay refuses a log with a gap.
    pub seq: u64,
    /// Milliseconds since the Unix epoch, as the caller said.
    pub at: u64,
    /// What happened.
    pub kind: EventKind,
}

/// Tokens a provider reported for one call, and what the call cost; the engine counts them
/// against the budgets.
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
    /// What the call cost, when the runner knew (the provider's figure, or a price times the
    /// tokens; [`crate::cost::of_call`]); counted against the money budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<crate::cost::Cost>,
    /// How the provider was held to the answer's schema (whole, trimmed, JSON mode), when the
    /// runner sent one; absent in sessions recorded before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema_form: Option<super::SchemaForm>,
}

/// Where a fork came from: the session it was made of and the last event it kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForkOrigin {
    /// The original session's id (the app's id, passed in).
    pub session: String,
    /// The `seq` of the original's last event the fork kept; everything after it is the fork's.
    pub seq: u64,
}

/// A person's edit: the engine's own (limits), or one of the protocol's. Read through
/// [`super::wire`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum EngineEdit {
    /// New limits (round limit, token and money budgets, repairs allowed).
    Settings {
        /// The new settings.
        settings: Settings,
    },
    /// The person's name for the session, shown in place of its request's first line; empty
    /// gives that default back. Any kind, any status (a finished session may be renamed too).
    Title {
        /// The new title, one line (empty: the default).
        title: String,
    },
    /// An edit of the protocol's state (its own `edit` tag).
    #[serde(rename = "(untagged)")]
    Protocol(KindValue),
}
crate::tagged::tagged!(write [] EngineEdit, tag = "edit");

impl EngineEdit {
    /// A person's edit of the kind's own state, as the engine carries it.
    pub fn of_kind<E: super::KindData>(edit: E) -> EngineEdit {
        EngineEdit::Protocol(KindValue::new(edit))
    }
}

/// Everything that can happen to a session. Read and written through [`super::wire`] (its
/// `KindOut` and `KindWire` say which fields may be left out).
#[derive(Debug, Clone, PartialEq)]
pub enum EventKind {
    /// The first event: the kind of session and its configuration.
    Created {
        /// The kind's name ([`super::Protocol::KIND`]); logs written before there were kinds leave it
        /// out (empty).
        kind: String,
        /// The configuration the session starts from.
        config: KindValue,
    },
    /// The person started the session (draft → running); `until` is where this run stops by
    /// itself (none: run to the end).
    Started {
        /// The run's boundary (One step / One round); left out when it runs to the end.
        until: Option<Until>,
        /// The price of each member's model as the runner knew it, which bounds each call's
        /// cost before it is made (see [`crate::cost::MemberPrices`]); left out when none was
        /// given (the prices in force stay).
        prices: Option<MemberPrices>,
    },
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
        step: StepId,
        /// Who must answer.
        members: Vec<String>,
    },
    /// A model call was issued (kept whole: the person can see what each member saw).
    CallIssued {
        /// The call.
        call: Box<StoredCall>,
    },
    /// A raw answer arrived for an outstanding call.
    AnswerReceived {
        /// The call.
        call_id: String,
        /// The text as the model sent it (shared with the call's record); only its first
        /// [`super::long_answer::ANSWER_KEPT_BYTES`] when it was refused for its length.
        raw: crate::text::Text,
        /// The whole answer's length in bytes when `raw` keeps only its head (absent when `raw`
        /// is whole, and in logs written before answers were cut).
        whole_bytes: Option<u64>,
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
        report: Findings,
        /// The message sent back to the model.
        repair_prompt: String,
    },
    /// The answer was invalid and the protocol's deterministic rule decided instead (no repair).
    FellBack {
        /// The call.
        call_id: String,
        /// Why the answer was refused.
        report: Findings,
        /// What the rule decided, applied in the answer's place.
        output: KindValue,
    },
    /// The member asked for more context; it is served and the step asked again.
    ContextServed {
        /// The call.
        call_id: String,
        /// What was asked.
        requests: KindValue,
        /// What was served.
        slices: KindValue,
        /// The follow-up message sent to the model.
        follow_up: String,
        /// Warnings from validation.
        warnings: Vec<Violation>,
    },
    /// A member put a question or an approval to the person ([`super::PersonAsk`]).
    HaltRaised {
        /// The call.
        call_id: String,
        /// What waits for the person.
        halt: super::PersonAsk,
        /// Warnings from validation.
        warnings: Vec<Violation>,
    },
    /// A valid output was applied (the fold re-applies it deterministically).
    Applied {
        /// The call.
        call_id: String,
        /// The output.
        output: KindValue,
        /// Warnings from validation.
        warnings: Vec<Violation>,
    },
    /// The person answered an open question or decided an approval.
    PersonAnswered {
        /// Free text or one of the options; with a verdict, its note.
        answer: String,
        /// For an approval: the person's decision.
        verdict: Option<super::Verdict>,
        /// The call whose ask this answers; left out for the oldest open one (older files).
        call_id: Option<String>,
    },
    /// The person changed something.
    PersonEdited {
        /// What.
        edit: EngineEdit,
    },
    /// The session paused.
    Paused {
        /// Why.
        reason: PauseReason,
    },
    /// The session runs again, up to `until` (none: to the end).
    Resumed {
        /// The run's boundary (One step / One round); left out when it runs to the end.
        until: Option<Until>,
        /// The prices of the members' models from now on, as on [`EventKind::Started`]; left
        /// out when the prices in force stay.
        prices: Option<MemberPrices>,
    },
    /// The work ends: the person wrapped up (outstanding calls are superseded), or the kind
    /// judged a member's answer to end the rounds ([`super::Judgement::EndRounds`]: that call is
    /// done, the others finish their step); the closing step follows.
    RoundsEnded {
        /// A member id or `user-1`.
        by: String,
        /// The answer that ended the rounds, when a member's did.
        call_id: Option<String>,
        /// The member's words, when a member's answer ended the rounds.
        message: Option<String>,
        /// Warnings from validating that answer.
        warnings: Vec<Violation>,
    },
    /// The kind asked the runner for an effect ([`super::Effect`]: run the code).
    EffectIssued {
        /// Its id (`effect-1`).
        effect_id: String,
        /// What to do.
        effect: super::Effect,
    },
    /// A call failed in a way that can pass (a rate limit, an overloaded server, the network) and
    /// core chose to try it again after `wait_ms` ([`super::retry`]); the runner waits, then
    /// makes the same call again. Its answer (or its final failure) lands on the same call.
    CallRetried {
        /// The call.
        call_id: String,
        /// The attempt that comes next (2 for the first retry).
        attempt: u32,
        /// How long the runner waits before it, in milliseconds.
        wait_ms: u64,
        /// What the provider said, in words a person can act on.
        error: String,
    },
    /// The runner performed an effect; its output, kept so it is never performed again.
    EffectDone {
        /// The effect's id.
        effect_id: String,
        /// What the runner handed back (the kind's shape).
        output: serde_json::Value,
    },
    /// The session is over.
    Finished,
    /// This session is a fork: the events before this one are the original's first events, as
    /// they were (see [`super::Engine::fork_at`]); what follows is its own.
    Forked {
        /// The original and the last event kept.
        from: ForkOrigin,
    },
}

impl EventKind {
    /// A short name for timelines and logs.
    pub fn name(&self) -> &'static str {
        match self {
            EventKind::Created { .. } => "created",
            EventKind::Started { .. } => "started",
            EventKind::RoundStarted { .. } => "round_started",
            EventKind::StepStarted { .. } => "step_started",
            EventKind::CallIssued { .. } => "call_issued",
            EventKind::AnswerReceived { .. } => "answer_received",
            EventKind::AnswerRefused { .. } => "answer_refused",
            EventKind::AnswerInvalid { .. } => "answer_invalid",
            EventKind::FellBack { .. } => "fell_back",
            EventKind::ContextServed { .. } => "context_served",
            EventKind::HaltRaised { .. } => "halt_raised",
            EventKind::Applied { .. } => "applied",
            EventKind::PersonAnswered { .. } => "person_answered",
            EventKind::PersonEdited { .. } => "person_edited",
            EventKind::Paused { .. } => "paused",
            EventKind::Resumed { .. } => "resumed",
            EventKind::RoundsEnded { .. } => "rounds_ended",
            EventKind::EffectIssued { .. } => "effect_issued",
            EventKind::EffectDone { .. } => "effect_done",
            EventKind::CallRetried { .. } => "call_retried",
            EventKind::Finished => "finished",
            EventKind::Forked { .. } => "forked",
        }
    }
}
