//! The kind as the engine sees it: one object per session ([`KindState`]) and one static
//! descriptor per kind ([`KindInfo`]), the same types for every kind, so the engine is compiled
//! once.
//!
//! Kinds are written against the typed trait [`Protocol`], with their own config, steps,
//! outputs and edits. The adapter here turns each into the two dynamic pieces the engine calls:
//! - [`KindState`], implemented for every [`Protocol`]: the state's methods with the kind's
//!   values as [`KindValue`]s and its steps as [`StepId`]s;
//! - [`KindInfo`], what a kind says without a state (its name, its steps in words, how to read
//!   its values from a log, how to make a state from a config, how to rewrite an older log),
//!   built once per kind as a constant ([`Protocol::INFO`]).
//!
//! A value reaches a kind's typed method only from that kind's own session, so the adapter reads
//! it back with [`KindValue::get`]; a person's edit of another kind is the one value that can
//! come from outside, and it is refused in words ([`KindState::check_edit`]).

use std::any::Any;
use std::fmt;

use serde_json::value::RawValue;

use super::call::{DemoReply, IdChoice, Message, StoredCall};
use super::core::Core;
use super::effect::DueEffect;
use super::event::Event;
use super::kind_value::{KindValue, StepId};
use super::status::{Findings, FoldError, Settings};
use super::{EditWhatIf, JudgementOf, MemberChange, MemberInfo, ModelRef, MoveOf, Protocol};
use crate::validate::Violation;

/// What a kind says without a session: its names, its steps in words, and how its values are
/// read from a log and a state made from a config. One constant per kind
/// ([`Protocol::INFO`]); the engine holds a `&'static` to it.
pub struct KindInfo {
    /// The kind's name in files and the `created` event (one lowercase word).
    pub kind: &'static str,
    /// The kind in words for people, as the kind picker names it.
    pub title: &'static str,
    /// What a round is called in this kind ("Round", "Turn").
    pub round_word: &'static str,
    /// The state before the first step, from a config (`Err`: what is wrong, in words).
    pub create: fn(&KindValue) -> Result<Box<dyn KindState>, String>,
    /// The limits a session of this config starts with.
    pub settings: fn(&KindValue) -> Settings,
    /// The kind's config read from a log.
    pub read_config: fn(&RawValue) -> Result<KindValue, serde_json::Error>,
    /// A step read from a log: only the kind's own steps are read.
    pub read_step: fn(&RawValue) -> Result<StepId, serde_json::Error>,
    /// An output (an `applied` or `fell_back` event's) read from a log.
    pub read_output: fn(&RawValue) -> Result<KindValue, serde_json::Error>,
    /// A `request_context` request read from a log.
    pub read_ask: fn(&RawValue) -> Result<KindValue, serde_json::Error>,
    /// What was served for one, read from a log.
    pub read_served: fn(&RawValue) -> Result<KindValue, serde_json::Error>,
    /// A person's edit of the kind read from a log (from a value: it shares its tag's key with
    /// the engine's own edits).
    pub read_edit: fn(&serde_json::Value) -> Result<KindValue, serde_json::Error>,
    /// The kind's own reason to wait read from a log (likewise from a value).
    pub read_block: fn(&serde_json::Value) -> Result<KindValue, serde_json::Error>,
    /// The wire name of a step, also the name of its answer schema.
    pub step_name: fn(StepId) -> &'static str,
    /// A step in words for people.
    pub step_title: fn(StepId) -> &'static str,
    /// An answer to a step this many bytes long refused by its length alone, if it is.
    pub too_long: fn(StepId, usize) -> Option<Violation>,
    /// The kind's edit that applies a member change (a fork's what-if).
    pub member_edit: fn(MemberChange) -> KindValue,
    /// The kind's edit seen as a fork's what-if, or `None` for an edit that is none.
    pub what_if_of: for<'a> fn(&'a KindValue) -> Option<EditWhatIf<'a>>,
    /// What a `request_context` served, as (heading, text) pairs for the transcript.
    pub served_lines: fn(&KindValue) -> Vec<(String, String)>,
    /// A log written by an older build, one JSON text per event, rewritten to what this one
    /// reads (`None`: it needs nothing).
    pub migrate_log: fn(&[&str]) -> Option<Vec<String>>,
    /// The same for a log held as one JSON array.
    pub migrate_log_array: fn(&str) -> Option<String>,
}

impl fmt::Debug for KindInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "KindInfo({})", self.kind)
    }
}

impl PartialEq for KindInfo {
    fn eq(&self, other: &KindInfo) -> bool {
        std::ptr::eq(self, other) || self.kind == other.kind
    }
}

impl KindInfo {
    /// Kind `P`'s descriptor, made of its typed functions.
    pub const fn of<P: Protocol>() -> KindInfo {
        KindInfo {
            kind: P::KIND,
            title: P::TITLE,
            round_word: P::ROUND_WORD,
            create: create::<P>,
            settings: |config| P::settings(config.get()),
            read_config: read::<P::Config>,
            read_step: |raw| Ok(P::step_id(serde_json::from_str(raw.get())?)),
            read_output: read::<P::Output>,
            read_ask: read::<P::Ask>,
            read_served: read::<P::Served>,
            read_edit: read_value::<P::Edit>,
            read_block: read_value::<P::Block>,
            step_name: |step| P::step_name(P::step_of(step)),
            step_title: |step| P::step_title(P::step_of(step)),
            too_long: |step, bytes| P::too_long(P::step_of(step), bytes),
            member_edit: |change| KindValue::new(P::member_edit(change)),
            what_if_of: |edit| edit.try_get().and_then(P::what_if_of),
            served_lines: |served| P::served_lines(served.get()),
            migrate_log: |events| P::migrate_log(events),
            migrate_log_array: P::migrate_log_array,
        }
    }
}

fn create<P: Protocol>(config: &KindValue) -> Result<Box<dyn KindState>, String> {
    let config = config
        .try_get::<P::Config>()
        .ok_or_else(|| format!("not the configuration of a {} session", P::KIND))?;
    Ok(Box::new(P::create(config)?))
}

/// Reads one of the kind's values from its text.
fn read<T: super::KindData>(raw: &RawValue) -> Result<KindValue, serde_json::Error> {
    Ok(KindValue::new(serde_json::from_str::<T>(raw.get())?))
}

/// Reads one of the kind's values that was read as a value (one tagged by the same key as the
/// engine's enum around it), from text with its tags first so the kind's reader takes its fast
/// path.
fn read_value<T: super::KindData>(
    value: &serde_json::Value,
) -> Result<KindValue, serde_json::Error> {
    Ok(KindValue::new(serde_json::from_str::<T>(
        &crate::tagged::tags_first(value),
    )?))
}

/// What the engine does next, the kind's values erased.
pub type Next = MoveOf<StepId, KindValue>;

/// A kind's judgement of one raw answer, the kind's values erased.
pub type Judged = JudgementOf<KindValue, KindValue>;

/// A session's state as the engine holds it: the kind's typed state behind the methods the
/// engine calls, its values erased. Implemented for every [`Protocol`]; see there for what each
/// method means. Not `Debug` (see [`KindValue`]'s `Payload` for why): it shows as its kind.
pub trait KindState: Any + Send + Sync {
    /// The kind's descriptor.
    fn info(&self) -> &'static KindInfo;
    /// The typed state, for code that knows the kind ([`super::Engine::state_of`]).
    fn as_any(&self) -> &dyn Any;
    /// A copy of the state (a session's history is a copy folded to a point).
    fn clone_box(&self) -> Box<dyn KindState>;
    /// Whether `other` is a state of the same kind equal to this one.
    fn same(&self, other: &dyn KindState) -> bool;
    /// The engine's part of the state.
    fn core(&self) -> &Core;
    /// The engine's part of the state, for the engine's fold only.
    fn core_mut(&mut self) -> &mut Core;
    /// What the person asked for, verbatim.
    fn request(&self) -> &str;
    /// The members, in the kind's order.
    fn members(&self) -> Vec<MemberInfo>;
    /// How far the current round has got, in percent.
    fn progress(&self) -> u32;
    /// The session's result as Markdown (raw model text).
    fn report_markdown(&self) -> String;
    /// The model a member runs on.
    fn model_of(&self, member: &str) -> Option<&ModelRef>;
    /// A member's name for people.
    fn member_name(&self, member: &str) -> String;
    /// A call in a person's words.
    fn call_title(&self, member: &str, step: StepId, round: u32) -> String;
    /// What comes next once every member of the current step is done.
    fn next_move(&self) -> Next;
    /// Why a pause for the kind's `block` still holds, if it does.
    fn still_blocked(&self, block: &KindValue) -> Option<String>;
    /// Why the person cannot wrap up now, if they cannot.
    fn cannot_finish(&self) -> Option<String>;
    /// The state picture `member` gets at the current step.
    fn envelope(&self, member: &str) -> KindValue;
    /// The first prompt of a step, from its envelope.
    fn first_messages(&self, envelope: &KindValue) -> Vec<Message>;
    /// Judges a raw answer to `call`.
    fn judge(&self, call: &StoredCall, raw: &str, truncated: bool) -> Judged;
    /// Serves a context request: what was served and the follow-up message.
    fn serve(&self, member: &str, ask: &KindValue, left: u32) -> (KindValue, String);
    /// The message that sends an invalid answer back to the model.
    fn repair_prompt(&self, step: StepId, findings: &Findings) -> String;
    /// A change the fold refused, as a violation for the repair prompt.
    fn refusal(&self, error: &FoldError) -> Violation;
    /// Checks a person's edit before it is recorded (an edit of another kind is refused).
    fn check_edit(&self, edit: &KindValue) -> Result<(), String>;
    /// Folds the kind's part of one event in.
    fn fold(&mut self, event: &Event) -> Result<Vec<String>, FoldError>;
    /// The built-in demo model's answer to `call`.
    fn demo_answer(&self, call: &StoredCall, envelope: &KindValue) -> DemoReply;
    /// The demo's stand-in output for an effect, where the kind has one.
    fn demo_effect(&self, effect: &DueEffect) -> Option<serde_json::Value>;
    /// The ids `call`'s answer may name, place by place.
    fn id_choices(&self, call: &StoredCall) -> Vec<IdChoice>;
    /// The plain JSON Schema `call`'s answer is sent with, when not the step's committed one.
    fn call_schema(&self, call: &StoredCall) -> Option<serde_json::Value>;
}

impl<P: Protocol> KindState for P {
    fn info(&self) -> &'static KindInfo {
        &P::INFO
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn clone_box(&self) -> Box<dyn KindState> {
        Box::new(self.clone())
    }

    fn same(&self, other: &dyn KindState) -> bool {
        other.as_any().downcast_ref::<P>() == Some(self)
    }

    fn core(&self) -> &Core {
        Protocol::core(self)
    }

    fn core_mut(&mut self) -> &mut Core {
        Protocol::core_mut(self)
    }

    fn request(&self) -> &str {
        Protocol::request(self)
    }

    fn members(&self) -> Vec<MemberInfo> {
        Protocol::members(self)
    }

    fn progress(&self) -> u32 {
        Protocol::progress(self)
    }

    fn report_markdown(&self) -> String {
        Protocol::report_markdown(self)
    }

    fn model_of(&self, member: &str) -> Option<&ModelRef> {
        Protocol::model_of(self, member)
    }

    fn member_name(&self, member: &str) -> String {
        Protocol::member_name(self, member)
    }

    fn call_title(&self, member: &str, step: StepId, round: u32) -> String {
        Protocol::call_title(self, member, P::step_of(step), round)
    }

    fn next_move(&self) -> Next {
        match Protocol::next_move(self) {
            MoveOf::Step(round, step, members) => Next::Step(round, P::step_id(step), members),
            MoveOf::Round(round) => Next::Round(round),
            MoveOf::Finish => Next::Finish,
            MoveOf::Block(block) => Next::Block(KindValue::new(block)),
            MoveOf::Effect(effect) => Next::Effect(effect),
        }
    }

    fn still_blocked(&self, block: &KindValue) -> Option<String> {
        Protocol::still_blocked(self, block.get())
    }

    fn cannot_finish(&self) -> Option<String> {
        Protocol::cannot_finish(self)
    }

    fn envelope(&self, member: &str) -> KindValue {
        KindValue::new(Protocol::envelope(self, member))
    }

    fn first_messages(&self, envelope: &KindValue) -> Vec<Message> {
        Protocol::first_messages(self, envelope.get())
    }

    fn judge(&self, call: &StoredCall, raw: &str, truncated: bool) -> Judged {
        match Protocol::judge(self, call, raw, truncated) {
            JudgementOf::Apply { output, warnings } => Judged::Apply {
                output: KindValue::new(output),
                warnings,
            },
            JudgementOf::WantsContext { ask, warnings } => Judged::WantsContext {
                ask: KindValue::new(ask),
                warnings,
            },
            JudgementOf::Ask { ask, warnings } => Judged::Ask { ask, warnings },
            JudgementOf::EndRounds { message, warnings } => Judged::EndRounds { message, warnings },
            JudgementOf::Invalid { findings, fallback } => Judged::Invalid {
                findings,
                fallback: fallback.map(KindValue::new),
            },
        }
    }

    fn serve(&self, member: &str, ask: &KindValue, left: u32) -> (KindValue, String) {
        let (served, follow_up) = Protocol::serve(self, member, ask.get(), left);
        (KindValue::new(served), follow_up)
    }

    fn repair_prompt(&self, step: StepId, findings: &Findings) -> String {
        Protocol::repair_prompt(self, P::step_of(step), findings)
    }

    fn refusal(&self, error: &FoldError) -> Violation {
        Protocol::refusal(self, error)
    }

    fn check_edit(&self, edit: &KindValue) -> Result<(), String> {
        let edit = edit
            .try_get()
            .ok_or_else(|| format!("this is not an edit of a {} session", P::KIND))?;
        Protocol::check_edit(self, edit)
    }

    fn fold(&mut self, event: &Event) -> Result<Vec<String>, FoldError> {
        Protocol::fold(self, event)
    }

    fn demo_answer(&self, call: &StoredCall, envelope: &KindValue) -> DemoReply {
        Protocol::demo_answer(self, call, envelope.get())
    }

    fn demo_effect(&self, effect: &DueEffect) -> Option<serde_json::Value> {
        Protocol::demo_effect(self, effect)
    }

    fn id_choices(&self, call: &StoredCall) -> Vec<IdChoice> {
        Protocol::id_choices(self, call)
    }

    fn call_schema(&self, call: &StoredCall) -> Option<serde_json::Value> {
        Protocol::call_schema(self, call)
    }
}

impl fmt::Debug for dyn KindState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "KindState({})", self.info().kind)
    }
}

impl Clone for Box<dyn KindState> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}
