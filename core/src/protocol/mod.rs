//! Kinds of session, each a state machine that says which member acts next, with which prompt,
//! under which schema, and what the answer changes.
//!
//! Every protocol hands its effects to the runner as data: a [`ModelCall`] is one request to one
//! model (who, which step, the messages, the JSON Schema the answer must meet, a token estimate and
//! the state envelope it was built from). The runner performs it and gives the raw text back to the
//! engine; nothing here does I/O. [`team`] is the team session of specs `000` and `003`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::context::Envelope;
use crate::schema::Step;

pub mod team;

/// Who speaks in a chat message, as every chat API names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChatRole {
    /// Instructions that frame the whole conversation.
    System,
    /// The engine speaking to the model (task, served context, repair prompt).
    User,
    /// The model's own earlier answer, kept so a repair continues the same conversation.
    Assistant,
}

/// One chat message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// Who speaks.
    pub role: ChatRole,
    /// What is said.
    pub content: String,
}

impl Message {
    /// A message with the given role.
    pub fn new(role: ChatRole, content: impl Into<String>) -> Self {
        Message {
            role,
            content: content.into(),
        }
    }
}

/// Why a call was issued: the first ask of a step, a re-ask after served context, or a repair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CallKind {
    /// The first call of this member at this step.
    Initial,
    /// The same step asked again with the slices the member requested.
    AfterContext,
    /// The same step asked again with the validation report of the last answer.
    Repair,
}

/// One model call due now: everything a runner needs to perform it, and nothing secret (the
/// provider key is looked up by the runner from `member` → model reference).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelCall {
    /// Deterministic id (`call-<seq>`); the answer must come back under this id.
    pub id: String,
    /// Member id that must answer.
    pub member: String,
    /// The step the answer is for.
    pub step: Step,
    /// The round.
    pub round: u32,
    /// Why the call exists.
    pub kind: CallKind,
    /// The conversation to send, system first.
    pub messages: Vec<Message>,
    /// The JSON Schema of the step's answer ([`crate::step_schema`], plain flavour). Not stored in
    /// the event log (it is a function of `step`); filled in when calls are handed out by
    /// [`crate::Session::next_calls`] (not by [`crate::Session::pending_calls`]).
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub schema: Value,
    /// Estimated prompt tokens (characters / 4; no tokenizer in core).
    pub token_estimate: u64,
    /// The state envelope the prompt was built from (003's session context artifact).
    pub envelope: Envelope,
}

impl ModelCall {
    /// The call with its step's JSON Schema (plain flavour) filled in, for a provider that
    /// constrains answers with a schema.
    pub fn with_schema(mut self) -> Self {
        self.schema = crate::step_schema(self.step, crate::SchemaFlavor::Plain);
        self
    }
}

/// Rough token count of a text: one token per four characters, rounded up. Good enough for budget
/// checks; the provider's reported usage is what counts against the budget when it is given.
pub fn estimate_tokens(text: &str) -> u64 {
    (text.chars().count() as u64).div_ceil(4)
}

/// Token estimate of a whole conversation.
pub fn estimate_messages(messages: &[Message]) -> u64 {
    messages
        .iter()
        .map(|m| estimate_tokens(&m.content) + 4)
        .sum()
}
