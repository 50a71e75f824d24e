//! Model calls: what the engine asks of a model, what the runner performs, and what became of it.
//!
//! A [`StoredCall`] is a call as the event log keeps it: who, which step, and exactly the
//! conversation the model was sent — nothing the fold can rebuild (the state envelope the prompt
//! was built from is rebuilt on demand by [`super::Engine::envelope_of`]; a repair or a re-ask
//! after served context is written without the conversation it continues, which the fold already
//! holds). A [`DueCall`] is a call due now with its envelope, for tests and tools. A [`ModelCall`]
//! is the call as the runner sees it: who must answer, the conversation to send, the schema
//! name, nothing protocol-specific, so one runner drives every kind of session. A [`CallRecord`]
//! is one transcript entry: the call, its raw answer and what the engine made of it.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::kind_value::{KindValue, StepId};
use super::status::Findings;
use super::Usage;
use crate::validate::Violation;

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
    /// What is said (a model's answer shared with its record, [`crate::text::Text`]).
    pub content: crate::text::Text,
}

impl Message {
    /// A message with the given role.
    pub fn new(role: ChatRole, content: impl Into<crate::text::Text>) -> Self {
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

/// What the timeline and the transcript say of a call's kind: one wording, core's.
impl CallKind {
    /// The kind in words (the transcript's badge): "first ask", "repair".
    pub fn word(self) -> &'static str {
        match self {
            CallKind::Initial => "first ask",
            CallKind::AfterContext => "asked again with context",
            CallKind::Repair => "repair",
        }
    }

    /// What a list of calls adds after the member's name for a call that is not a first ask:
    /// "with context", "repair".
    pub fn note(self) -> Option<&'static str> {
        match self {
            CallKind::Initial => None,
            CallKind::AfterContext => Some("with context"),
            CallKind::Repair => Some("repair"),
        }
    }
}

/// One call as the event log keeps it: everything needed to show the person what the member was
/// sent.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredCall {
    /// Deterministic id (`call-<seq>`); the answer must come back under this id.
    pub id: String,
    /// Member id that must answer.
    pub member: String,
    /// The step the answer is for.
    pub step: StepId,
    /// The round.
    pub round: u32,
    /// Why the call exists.
    pub kind: CallKind,
    /// The conversation sent, system first. In the event log, a continuing call (a repair, a
    /// re-ask after served context) leaves it empty: the fold fills it from the member's
    /// conversation so far, which is exactly what was sent.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub messages: Vec<Message>,
    /// Estimated prompt tokens (characters / 4; no tokenizer in core).
    pub token_estimate: u64,
}

/// A call due now, with the state envelope it was built from (what the demo model reads).
#[derive(Debug, Clone, PartialEq)]
pub struct DueCall {
    /// The call.
    pub call: StoredCall,
    /// The state picture the prompt was built from (the kind's envelope).
    pub envelope: KindValue,
}

impl std::ops::Deref for DueCall {
    type Target = StoredCall;

    fn deref(&self) -> &StoredCall {
        &self.call
    }
}

/// One model call due now, as the runner performs it: the same for every kind of session, and
/// nothing secret (the runner looks the key up from the member's provider).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelCall {
    /// The id the answer must come back under.
    pub id: String,
    /// Member id that must answer.
    pub member: String,
    /// The step's wire name, also the name of its answer schema (`schemas/<step>.plain.json`).
    pub step: &'static str,
    /// The step in words, for progress messages.
    pub step_title: &'static str,
    /// The round.
    pub round: u32,
    /// Why the call exists.
    pub kind: CallKind,
    /// The conversation to send, system first.
    pub messages: Vec<Message>,
    /// The plain JSON Schema of this call's answer when the kind made one for it
    /// ([`super::Protocol::call_schema`]: an answer held to a schema the person chose at run time);
    /// `None`: the step's committed schema (`schemas/<step>.plain.json`) is the one to send.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schema: Option<Value>,
    /// Estimated prompt tokens.
    pub token_estimate: u64,
    /// The most answer tokens to ask the provider for (its max output tokens):
    /// [`MAX_ANSWER_TOKENS`], or what a token budget leaves for this call when that is less.
    pub max_answer_tokens: u32,
    /// The built-in demo model's answer, filled in for members on the demo provider only.
    #[serde(skip)]
    pub demo: Option<DemoReply>,
    /// The ids this call may name, place by place: a provider that enforces schemas gets the
    /// step's schema narrowed to them ([`crate::provider_schema::narrow`]), so it cannot produce
    /// a dangling id. The validator still checks every answer.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ids: Vec<IdChoice>,
}

/// The ids one place of an answer may hold, e.g. `items/*/ownerId`: only the ids the member may
/// name there at this step. `at` walks property names from the answer's root, `*` for the items
/// of an array.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IdChoice {
    /// Where in the answer: property names and `*`, joined by `/`.
    pub at: String,
    /// The ids allowed there; none means "not narrowed" (an empty enum would forbid everything).
    pub ids: Vec<String>,
}

impl IdChoice {
    /// The choice of `ids` at `at`.
    pub fn new(at: &str, ids: impl IntoIterator<Item = impl Into<String>>) -> Self {
        IdChoice {
            at: at.to_string(),
            ids: ids.into_iter().map(Into::into).collect(),
        }
    }
}

/// How a provider was held to a call's answer schema, as the adapter sent it: the whole schema,
/// a trimmed one (parts a provider's limits leave out stay with the validator), or JSON mode
/// (no schema enforced). The validator judges every answer in full either way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SchemaForm {
    /// The provider enforced the whole schema.
    Full,
    /// The provider enforced a schema that leaves rarely used optional parts to the validator.
    Trimmed,
    /// The provider only promised JSON: the schema was too large for its limits, or the model
    /// takes no schema (a Groq model without structured outputs).
    JsonMode,
}

impl SchemaForm {
    /// The form in words, for the transcript.
    pub fn words(self) -> &'static str {
        match self {
            SchemaForm::Full => "the provider enforced the whole answer schema",
            SchemaForm::Trimmed => {
                "the provider enforced a trimmed answer schema (its limits left some optional parts to the validator)"
            }
            SchemaForm::JsonMode => {
                "the provider enforced JSON only (the schema exceeds its limits, or the model takes none); the validator checked the rest"
            }
        }
    }
}

/// What the built-in demo model answers to one call, as a provider adapter would report it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DemoReply {
    /// The raw answer text.
    pub text: String,
    /// Why generation stopped, as providers say it (`stop`, `length`).
    pub finish_reason: String,
    /// Tokens of the prompt (the engine's own estimate).
    pub prompt_tokens: u64,
    /// Tokens of the answer.
    pub completion_tokens: u64,
}

impl DemoReply {
    /// A demo answer that ended normally: its text, the prompt's token estimate, and the answer's
    /// tokens estimated the way the engine estimates every text. Every kind's demo model answers
    /// through this one constructor.
    pub fn stop(text: String, prompt_tokens: u64) -> Self {
        Self {
            completion_tokens: crate::engine::estimate_tokens(&text),
            prompt_tokens,
            finish_reason: "stop".into(),
            text,
        }
    }
}

/// What became of a call's answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum CallResult {
    /// Applied, with the changes in words.
    Applied {
        /// What changed.
        changes: Vec<String>,
        /// Validation warnings.
        warnings: Vec<Violation>,
    },
    /// Invalid; nothing applied.
    Invalid {
        /// The report.
        report: Findings,
    },
    /// Invalid, and the protocol's rule decided in the model's place.
    FellBack {
        /// Why the answer was refused.
        report: Findings,
        /// What the rule changed.
        changes: Vec<String>,
    },
    /// Context served.
    ContextServed {
        /// What was served.
        slices: KindValue,
    },
    /// The member put something to the person.
    Halted {
        /// What waits (or waited) for the person.
        halt: super::PersonAsk,
    },
    /// The kind judged this answer to end the rounds.
    Ended {
        /// The member's words.
        message: String,
    },
    /// Superseded before an answer came (the rounds ended, or the person stopped the run).
    Superseded,
}
crate::tagged::tagged!(write [] CallResult, tag = "result");

impl CallResult {
    /// The result in a few words, for the timeline and the transcript (one wording for both).
    pub fn word(result: Option<&CallResult>, answered: bool) -> &'static str {
        match result {
            Some(CallResult::Applied { .. }) => "applied",
            Some(CallResult::Invalid { .. }) => "invalid",
            Some(CallResult::FellBack { .. }) => "fell back",
            Some(CallResult::ContextServed { .. }) => "asked for context",
            Some(CallResult::Halted { .. }) => "halted",
            Some(CallResult::Ended { .. }) => "ended the work",
            Some(CallResult::Superseded) => "superseded",
            None if answered => "answered",
            None => "waiting",
        }
    }
}

/// One model call and what happened to it: the transcript entry the UI shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CallRecord {
    /// The call as issued (the whole conversation sent).
    pub call: StoredCall,
    /// When it was issued.
    pub issued_at: u64,
    /// The raw answer (shared with its `answer_received` event): its head only when it was
    /// refused for its length ([`super::long_answer`]).
    pub raw_answer: Option<crate::text::Text>,
    /// The whole answer's length in bytes when `raw_answer` keeps only its head.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub whole_bytes: Option<u64>,
    /// When the answer came.
    pub answered_at: Option<u64>,
    /// The provider's usage.
    pub usage: Option<Usage>,
    /// Tokens counted for this call.
    pub tokens: u64,
    /// What became of it.
    pub result: Option<CallResult>,
    /// The provider's error, when the call failed without an answer (it is asked again on
    /// resume; a later answer lands on this same record).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed: Option<String>,
    /// How often the call was tried again after a failure that could pass
    /// ([`super::retry`]).
    #[serde(skip_serializing_if = "no_retries")]
    pub retries: u32,
    /// The longest answer the call may be given, in tokens (the request's max output tokens):
    /// [`MAX_ANSWER_TOKENS`], or less when a token budget leaves less
    /// ([`super::Core::answer_room`]). Not in the log: the fold works it out when the call is
    /// issued, from the state then, so every replay gives the same.
    #[serde(skip_serializing_if = "is_max_answer_tokens")]
    pub max_answer: u32,
}

fn no_retries(n: &u32) -> bool {
    *n == 0
}

fn is_max_answer_tokens(n: &u32) -> bool {
    *n == MAX_ANSWER_TOKENS
}

impl DemoReply {
    /// The reply as a provider asked for at most `max_tokens` answer tokens gives it: an answer
    /// longer than that is cut off there and said to have stopped for length.
    pub fn at_most(mut self, max_tokens: u32) -> DemoReply {
        let max = u64::from(max_tokens);
        if self.completion_tokens > max {
            // Tokens are estimated at four characters each (`estimate_tokens`).
            let cut = usize::try_from(max * 4).unwrap_or(usize::MAX);
            self.text = self.text.chars().take(cut).collect();
            self.completion_tokens = estimate_tokens(&self.text).min(max);
            self.finish_reason = "length".into();
        }
        self
    }
}

impl CallRecord {
    /// The call's tokens are the engine's estimate: it was answered and the provider counted
    /// none (the demo model, a server that reports no usage). Shown as an estimate, never as the
    /// provider's count.
    pub fn tokens_estimated(&self) -> bool {
        self.raw_answer.is_some()
            && self
                .usage
                .is_none_or(|u| u.input_tokens + u.output_tokens == 0)
    }

    /// What became of the call, in a few words.
    pub fn result_word(&self) -> &'static str {
        if self.result.is_none() && self.raw_answer.is_none() && self.failed.is_some() {
            return "failed";
        }
        CallResult::word(self.result.as_ref(), self.raw_answer.is_some())
    }
}

/// The provider name of the built-in demo model: a call to a member on it carries the demo's answer
/// ([`ModelCall::demo`]), built from the call's envelope, so the runner needs no network.
pub const DEMO_PROVIDER: &str = "demo";

/// The longest answer asked of a model, in tokens (the request's max output tokens): what bounds
/// a call's cost before it is made, so the runner asks for no more. Under a token budget a call
/// may be given less ([`ModelCall::max_answer_tokens`]).
pub const MAX_ANSWER_TOKENS: u32 = 8192;

/// The shortest answer worth asking for, in tokens: under a token budget, a call whose prompt
/// leaves less than this of the budget is not made (the engine pauses before it), since an
/// answer cut off shorter than this is refused as incomplete in most steps and its repair costs
/// the prompt again.
pub const MIN_ANSWER_TOKENS: u32 = 1024;

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
