//! The protocol-neutral session engine: one event log, one fold, one loop, for every kind of
//! session.
//!
//! A kind of session (a *protocol*) implements [`Protocol`]: its configuration, its state, who acts
//! next, the prompt of each call, how an answer is judged and what it changes. The engine owns
//! everything every kind needs and no kind may get wrong on its own:
//! - the append-only event log ([`event`]) and the fold that rebuilds the state from it;
//! - call ids, and refusing an answer to a late, unknown or superseded call;
//! - the repair and `request_context` counters of each member at each step ([`core::Slot`]);
//! - questions that wait for the person, pause and resume, and the limits (rounds, tokens);
//! - applying an answer all-or-nothing: a change the protocol's fold refuses leaves the state as
//!   it was and goes back to the model as a violation (the engine checks its own part before the
//!   protocol folds, and each protocol checks an output whole before it changes anything).
//!
//! The engine never names a protocol (a test reads this folder and fails if it does). It returns
//! the model calls to make as data ([`call::ModelCall`]); the runner performs them and feeds the
//! raw answers back through [`Engine::submit`]. Time comes in as `now` (ms) on every command.
//!
//! The engine is compiled once, whatever the number of kinds: its data ([`Core`], [`Event`],
//! [`Status`], the call records) is the same type for every kind, with the kind's payloads as
//! [`KindValue`]s and its steps as [`StepId`]s, and it reaches the kind through one object
//! ([`KindState`], every [`Protocol`] is one) and one static descriptor ([`KindInfo`]). Kinds are
//! still written against the typed [`Protocol`]; code that knows the kind holds a typed handle
//! ([`KindEngine`]).

pub mod call;
pub mod control;
pub mod core;
pub mod effect;
pub mod event;
pub mod fork;
pub mod inbox;
pub mod kind;
pub mod kind_value;
pub mod long_answer;
pub mod retry;
mod run;
pub mod status;
pub mod title;
pub mod typed;
mod wire;

use std::fmt::Debug;

use serde::de::DeserializeOwned;
use serde::Serialize;

pub use self::call::{
    estimate_messages, estimate_tokens, CallKind, CallRecord, CallResult, ChatRole, DemoReply,
    DueCall, IdChoice, Message, ModelCall, SchemaForm, StoredCall, DEMO_PROVIDER,
    MAX_ANSWER_TOKENS, MIN_ANSWER_TOKENS,
};
pub use self::control::{RunTarget, Until};
pub use self::core::{Core, HaltRecord, Slot, StepRecord};
pub use self::effect::{DueEffect, Effect, EffectRecord};
pub use self::event::{EngineEdit, Event, EventKind, ForkOrigin, Usage};
pub use self::fork::{ForkError, ForkPlan};
pub use self::inbox::{PersonAsk, PersonReply, Verdict};
pub use self::kind::{KindInfo, KindState};
pub use self::kind_value::{KindValue, StepId};
pub use self::run::Engine;
pub use self::status::{
    clause, CallBound, EngineError, Findings, Fix, FoldError, LimitKind, Outcome, PauseReason,
    Settings, Status,
};
pub use self::typed::{KindEngine, KindMut, KindRef};

use crate::validate::Violation;

/// What a type must be to travel in events and session files.
pub trait Wire: Debug + Clone + PartialEq + Serialize + DeserializeOwned {}
impl<T: Debug + Clone + PartialEq + Serialize + DeserializeOwned> Wire for T {}

/// What a kind's own values must be to ride in the engine's data as [`KindValue`]s.
pub trait KindData: Wire + Send + Sync + 'static {}
impl<T: Wire + Send + Sync + 'static> KindData for T {}

/// Which provider and model a member runs on. Never a key: keys stay in the runner's storage.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, serde::Deserialize)]
pub struct ModelRef {
    /// Provider name (`openai`, `anthropic`, `demo`, …).
    pub provider: String,
    /// Model name as the provider spells it.
    pub model: String,
}

/// Whether `id` may name a member of any kind: lowercase letters, digits and `-`, at most 40,
/// and never `user-1` (the person's own id), so it fits prompts, pointers and file names.
pub fn member_id_ok(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 40
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && id != "user-1"
}

/// One member as lists, files and the fork dialog show it: who, on which model, with which
/// persona (never a key).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct MemberInfo {
    /// Member id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Provider and model.
    pub model: ModelRef,
    /// Persona (empty when it has none).
    pub persona: String,
}

/// A person's change of one member (a what-if of a fork): its provider and model, its persona.
/// Every kind carries it in its own edits; `None` leaves that part as it is.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, serde::Deserialize)]
pub struct MemberChange {
    /// Member id.
    pub member: String,
    /// The provider and model it runs on from now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<ModelRef>,
    /// Its persona from now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub persona: Option<String>,
}

impl MemberChange {
    /// What is wrong with the change for a member whose current persona limit is `persona_max`
    /// characters, if anything.
    pub fn problem(&self, persona_max: usize) -> Option<String> {
        if let Some(m) = &self.model {
            if m.provider.trim().is_empty() || m.model.trim().is_empty() {
                return Some(format!(
                    "{}'s provider and model must both be named",
                    self.member
                ));
            }
        }
        match &self.persona {
            Some(p) if p.chars().count() > persona_max => Some(format!(
                "{}'s persona is longer than {persona_max} characters",
                self.member
            )),
            _ => None,
        }
    }

    /// The change in words, for the activity and the transcript.
    pub fn words(&self) -> String {
        let mut parts = Vec::new();
        if let Some(m) = &self.model {
            parts.push(format!("model to {}/{}", m.provider, m.model));
        }
        if self.persona.is_some() {
            parts.push("persona".to_string());
        }
        format!("changed {}'s {}", self.member, parts.join(" and "))
    }
}

/// A person's edit read as a fork's what-if ([`Protocol::what_if_of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditWhatIf<'a> {
    /// A member's provider and model or persona changed.
    Member(&'a MemberChange),
    /// A change of the kind's own, in a person's words ("a new brief").
    Kind(&'static str),
}

/// What the engine does next when no member of the current step has work left: with a kind's
/// own step and reason-to-wait types as a kind says it ([`Move`]), with the engine's erased ones
/// as the engine reads it ([`kind::Next`]).
#[derive(Debug, Clone, PartialEq)]
pub enum MoveOf<S, B> {
    /// Start this step of this round with these members (in parallel).
    Step(u32, S, Vec<String>),
    /// Start this round (the engine pauses instead when it is past the round limit).
    Round(u32),
    /// The session is over.
    Finish,
    /// The kind cannot go on until the person fixes something.
    Block(B),
    /// The runner must perform this first (run the code); the kind's fold reads its output.
    Effect(Effect),
}

/// A kind's next move, in its own types.
pub type Move<P> = MoveOf<<P as Protocol>::Step, <P as Protocol>::Block>;

/// A kind's judgement of one raw answer: with its own output and request types as a kind says it
/// ([`Judgement`]), with the engine's erased ones as the engine reads it ([`kind::Judged`]).
#[derive(Debug, Clone, PartialEq)]
pub enum JudgementOf<O, A> {
    /// Valid and allowed: fold it in.
    Apply {
        /// The output, as the kind's fold consumes it.
        output: O,
        /// Recoveries and unknown fields, kept for the transcript.
        warnings: Vec<Violation>,
    },
    /// The member asks for more context before answering.
    WantsContext {
        /// What it asked for.
        ask: A,
        /// Warnings from validation.
        warnings: Vec<Violation>,
    },
    /// The member puts a question or an approval to the person; the session waits for the word.
    Ask {
        /// What waits for the person.
        ask: PersonAsk,
        /// Warnings from validation.
        warnings: Vec<Violation>,
    },
    /// The kind's verdict on this answer: the rounds are over (the member may say the work is
    /// finished); the member's step is done and the closing step follows.
    EndRounds {
        /// Why, in the member's words, for the transcript.
        message: String,
        /// Warnings from validation.
        warnings: Vec<Violation>,
    },
    /// Not usable. Nothing is applied. With a `fallback`, the kind's rule decides instead of
    /// the model (no repair); without, the same member is asked again with the repair prompt.
    Invalid {
        /// Every violation.
        findings: Findings,
        /// The output a deterministic rule puts in the answer's place, if the kind has one.
        fallback: Option<O>,
    },
}

/// A kind's judgement of one raw answer, in its own types.
pub type Judgement<P> = JudgementOf<<P as Protocol>::Output, <P as Protocol>::Ask>;

/// A kind of session. Implemented by the protocol's state type, which carries the engine's part
/// ([`Core`]) so the protocol's rules can read the round, the step and the slots.
///
/// Every method is deterministic: the same state and inputs give the same result, so a replayed
/// log rebuilds the same state and a recorded demo session plays the same way again.
pub trait Protocol: Debug + Clone + PartialEq + Sized + Send + Sync + 'static {
    /// The kind's name in files and the `created` event (one lowercase word).
    const KIND: &'static str;
    /// The kind in words for people, as the kind picker names it.
    const TITLE: &'static str;
    /// What a round is called in this kind, for people ("Round 2").
    const ROUND_WORD: &'static str = "Round";
    /// Everything a session of this kind starts from (the `created` event holds it).
    type Config: KindData;
    /// A step of a round (who answers under which shape).
    type Step: KindData + Copy + Eq;
    /// Every step of the kind, each once.
    const STEPS: &'static [Self::Step];
    /// The kind as the engine holds it: its descriptor, made of the functions here.
    const INFO: KindInfo = KindInfo::of::<Self>();
    /// The state picture a call's prompt is built from (rebuilt on demand, never stored).
    type Envelope: KindData;
    /// A valid answer as the fold applies it.
    type Output: KindData;
    /// What a member may ask for with `request_context`.
    type Ask: KindData;
    /// What was served for such a request (kept in the `context_served` event).
    type Served: KindData;
    /// A person's edit of this kind's state.
    type Edit: KindData;
    /// This kind's own reasons to pause (e.g. something the person must fill in first).
    type Block: KindData;

    /// Checks a configuration and returns the state before the first step. `Err` says what is
    /// wrong in words a person can act on.
    fn create(config: &Self::Config) -> Result<Self, String>;
    /// The limits the session starts with.
    fn settings(config: &Self::Config) -> Settings;
    /// What the person asked for, verbatim (a request, an agenda, a query): the session's title
    /// is its first line.
    fn request(&self) -> &str;
    /// The members, in the kind's order.
    fn members(&self) -> Vec<MemberInfo>;
    /// How far the current round (or opening/closing step) has got, in percent.
    fn progress(&self) -> u32;
    /// The session's result as Markdown, for the report download. Raw model text: the caller
    /// makes it safe.
    fn report_markdown(&self) -> String;
    /// The kind's edit that applies a member change (a fork's what-if).
    fn member_edit(change: MemberChange) -> Self::Edit;
    /// The kind's edit seen as a fork's what-if (the fork's line names it), or `None` for an
    /// edit that is none (a remark, an accepted version). Kinds that fork say; by default none.
    fn what_if_of(edit: &Self::Edit) -> Option<EditWhatIf<'_>> {
        let _ = edit;
        None
    }
    /// A log written by an older build, rewritten to what this one reads (one JSON text per
    /// event), or `None` when it needs nothing. The checksum is checked before this runs.
    fn migrate_log<S: AsRef<str>>(events: &[S]) -> Option<Vec<String>> {
        let _ = events;
        None
    }
    /// The same for a log held as one JSON array (a session file's `events`).
    fn migrate_log_array(text: &str) -> Option<String> {
        let _ = text;
        None
    }
    /// The engine's part of the state.
    fn core(&self) -> &Core;
    /// The engine's part of the state, for the engine's fold only.
    fn core_mut(&mut self) -> &mut Core;

    /// A step's name in files, as its type's serde name spells it (`write`, `player`): what
    /// the engine's [`StepId`] holds.
    fn step_wire(step: Self::Step) -> &'static str;
    /// A step as the engine holds it.
    fn step_id(step: Self::Step) -> StepId {
        StepId::named(Self::step_wire(step))
    }
    /// The kind's step the engine's `id` names.
    ///
    /// # Panics
    /// When no step of the kind has that name: a `StepId` of a session is made by its own kind
    /// (read from a log by the kind's reader), so this is a bug, not bad input.
    fn step_of(id: StepId) -> Self::Step {
        *Self::STEPS
            .iter()
            .find(|s| Self::step_wire(**s) == id.wire())
            .unwrap_or_else(|| panic!("{} has no step {:?}", Self::KIND, id.wire()))
    }

    /// The wire name of a step, also the name of its answer schema.
    fn step_name(step: Self::Step) -> &'static str;
    /// A step in words for people.
    fn step_title(step: Self::Step) -> &'static str;
    /// The model a member runs on.
    fn model_of(&self, member: &str) -> Option<&ModelRef>;
    /// A member's name for people: "You" for the person, else the member's name (its id when
    /// the kind has no member by that id).
    fn member_name(&self, member: &str) -> String {
        if member == control::PERSON {
            return "You".into();
        }
        self.members()
            .into_iter()
            .find(|m| m.id == member)
            .map_or_else(|| member.to_string(), |m| m.name)
    }
    /// A call in a person's words (made, or about to be made: `member` at `step` of `round`),
    /// for the transcript's and the fork dialog's titles and the messages about it: whose work
    /// at which step, "Ana's writing, round 2". A kind may say it in its own terms (a kind whose
    /// work has stages of its own may name the stage).
    fn call_title(&self, member: &str, step: Self::Step, round: u32) -> String {
        let step = Self::step_title(step);
        let mut step_words = step.chars();
        let step = step_words.next().map_or_else(String::new, |c| {
            c.to_lowercase().chain(step_words).collect::<String>()
        });
        let name = self.member_name(member);
        if round == 0 {
            format!("{name}'s {step}")
        } else {
            format!(
                "{name}'s {step}, {} {round}",
                Self::ROUND_WORD.to_lowercase()
            )
        }
    }

    /// What comes next once every member of the current step is done.
    fn next_move(&self) -> Move<Self>;
    /// Why a pause for `block` still holds, if it does.
    fn still_blocked(&self, block: &Self::Block) -> Option<String>;
    /// Why the person cannot end the work now ("wrap up"), if they cannot.
    fn cannot_finish(&self) -> Option<String> {
        None
    }
    /// The state picture `member` gets at the current step (kept with each of its calls).
    fn envelope(&self, member: &str) -> Self::Envelope;
    /// The first prompt of a step, rendered from its envelope (later calls of the same step
    /// continue that conversation).
    fn first_messages(&self, envelope: &Self::Envelope) -> Vec<Message>;
    /// An answer to `step` `bytes` long refused by its length alone, before it is read: the
    /// violation sent back, or `None` when an answer that long is read. The engine records the
    /// refusal and keeps only the answer's head in the log ([`long_answer`]). By default every
    /// kind refuses past [`long_answer::ANSWER_BYTES_MAX`]; a kind whose answers are bounded
    /// lower says so here (and its `judge` need not check the length again). No kind reads more
    /// than that: the runner does not re-spell a longer answer for a strict provider
    /// (`provider_schema::plain_answer`).
    fn too_long(step: Self::Step, bytes: usize) -> Option<Violation> {
        let _ = step;
        long_answer::refusal(bytes, long_answer::ANSWER_BYTES_MAX)
    }
    /// Judges a raw answer to `call` (validation, the kind's own rules on ids and changes).
    fn judge(&self, call: &StoredCall, raw: &str, truncated: bool) -> Judgement<Self>;
    /// Serves a context request; returns what was served and the follow-up message to the model.
    /// `left` is how many more requests the member may make at this step.
    fn serve(&self, member: &str, ask: &Self::Ask, left: u32) -> (Self::Served, String);
    /// The message that sends an invalid answer back to the model.
    fn repair_prompt(&self, step: Self::Step, findings: &Findings) -> String;
    /// A change the fold refused, as a violation for the repair prompt.
    fn refusal(&self, error: &FoldError) -> Violation {
        Violation {
            path: String::new(),
            message: format!("this change cannot be applied: {error}"),
            expected: "a change the session accepts".into(),
            received: "a change it refused".into(),
            hint: "fix this part using the ids in the current state".into(),
        }
    }
    /// What a `request_context` served, as (heading, text) pairs for the transcript.
    fn served_lines(served: &Self::Served) -> Vec<(String, String)> {
        let _ = served;
        Vec::new()
    }
    /// Checks a person's edit before it is recorded.
    fn check_edit(&self, edit: &Self::Edit) -> Result<(), String>;

    /// Folds the protocol's part of one event in, before the engine folds its own part (so
    /// [`Protocol::core`] still shows the state before the event). Returns, for `applied` and
    /// `fell_back`, the changes in words for the transcript.
    ///
    /// An `Err` on `applied` refuses the answer (it goes back to the model as a violation,
    /// [`Protocol::refusal`]), and must leave the state exactly as it was: check everything an
    /// output needs against the state as it is, then change it — never stop halfway. The engine
    /// takes no copy to put back (a copy of a big session's state cost more than the rest of
    /// an answer together); `tests/all_or_nothing.rs` holds every kind to this.
    fn fold(&mut self, event: &Event) -> Result<Vec<String>, FoldError>;

    /// What the built-in demo model answers to `call`, built from `envelope`, as a provider would
    /// hand it to the runner.
    fn demo_answer(&self, call: &StoredCall, envelope: &Self::Envelope) -> DemoReply;

    /// What the built-in demo's stand-in hands back for `effect` when a session is played with
    /// no runner (tests, the recorded demo): the kind's own stand-in, where it has one. The app
    /// always performs effects for real. None by default.
    fn demo_effect(&self, effect: &DueEffect) -> Option<serde_json::Value> {
        let _ = effect;
        None
    }

    /// The ids `call`'s answer may name, place by place, for providers that enforce a schema
    /// (spec `003`: prefer enumerated ids). None by default: the step's schema goes as it is.
    fn id_choices(&self, _call: &StoredCall) -> Vec<IdChoice> {
        Vec::new()
    }

    /// The plain JSON Schema `call`'s answer is sent with when it is not the step's committed one
    /// (a schema the person chose at run time), carried on [`ModelCall::schema`] for providers
    /// that enforce one. None by default: the runner sends `schemas/<step>.plain.json`.
    fn call_schema(&self, _call: &StoredCall) -> Option<serde_json::Value> {
        None
    }
}

/// What a kind's pages show, written in the kind's crate (its `view.rs`): the web app's pages
/// render this and never read the kind's state, so no page re-derives a rule of the kind.
pub trait KindView {
    /// The kind's view model: what its panels show (it may borrow the state and compute each
    /// panel's part when the panel asks).
    type View<'a>
    where
        Self: 'a;
    /// The view model of this state.
    fn kind_view(&self) -> Self::View<'_>;
    /// The kind's own document of the session, where it has one (a document in a format its
    /// spec defines): the word its file name ends with and the document as pretty JSON.
    fn kind_document(&self) -> Option<(&'static str, String)> {
        None
    }
}
