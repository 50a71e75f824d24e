//! The event log read from and written to JSON by code that is compiled once for every kind.
//!
//! An [`Event`] holds the kind's own payloads (its config, steps, outputs, requests, edits) as
//! [`super::KindValue`]s, which only the kind can read. Here the log is read into [`EventWire`],
//! the same shape with each payload of the kind kept as its JSON text ([`RawValue`]), then each
//! payload is read by the kind's reader ([`KindInfo`]), so [`Event::read`] needs the kind. Written,
//! an event is borrowed as [`KindOut`] with those payloads written as text first. The JSON is the
//! same both ways; nothing about the file changes.
//! The big payloads that are not the kind's (a call's messages, reports, raw answers) are read
//! once, by the engine's own code.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::call::{CallKind, Message, StoredCall};
use super::control::Until;
use super::event::{EngineEdit, Event, EventKind, ForkOrigin, Usage};
use super::kind::KindInfo;
use super::status::{CallBound, Findings, Fix, PauseReason, Settings};
use crate::cost::MemberPrices;
use crate::validate::Violation;

/// A kind's payload as its JSON text, read into the kind's type when the event is.
type Payload = Box<RawValue>;

/// One event as read: as [`Event`], its kind's payloads still text.
#[derive(Deserialize)]
struct EventWire {
    seq: u64,
    at: u64,
    kind: KindWire,
}

/// A stored call as read: as [`StoredCall`], its step as text.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CallWire {
    id: String,
    member: String,
    step: Payload,
    round: u32,
    kind: CallKind,
    #[serde(default)]
    messages: Vec<Message>,
    token_estimate: u64,
}

/// [`EventKind`] as read: the same variants and fields (see there for what each means), every
/// payload of the kind as text.
#[derive(Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
enum KindWire {
    Created {
        #[serde(default)]
        kind: String,
        config: Payload,
    },
    Started {
        #[serde(default)]
        until: Option<Until>,
        #[serde(default)]
        prices: Option<MemberPrices>,
    },
    RoundStarted {
        round: u32,
    },
    StepStarted {
        round: u32,
        step: Payload,
        members: Vec<String>,
    },
    CallIssued {
        call: Box<CallWire>,
    },
    AnswerReceived {
        call_id: String,
        raw: crate::text::Text,
        #[serde(default)]
        whole_bytes: Option<u64>,
        usage: Option<Usage>,
        tokens: u64,
    },
    AnswerRefused {
        call_id: String,
        raw: String,
        reason: String,
    },
    AnswerInvalid {
        call_id: String,
        report: Findings,
        repair_prompt: String,
    },
    FellBack {
        call_id: String,
        report: Findings,
        output: Payload,
    },
    ContextServed {
        call_id: String,
        requests: Payload,
        slices: Payload,
        follow_up: String,
        warnings: Vec<Violation>,
    },
    HaltRaised {
        call_id: String,
        halt: super::PersonAsk,
        warnings: Vec<Violation>,
    },
    Applied {
        call_id: String,
        output: Payload,
        warnings: Vec<Violation>,
    },
    PersonAnswered {
        answer: String,
        #[serde(default)]
        verdict: Option<super::Verdict>,
        #[serde(default)]
        call_id: Option<String>,
    },
    PersonEdited {
        edit: EditWire,
    },
    Paused {
        reason: PauseWire,
    },
    Resumed {
        #[serde(default)]
        until: Option<Until>,
        #[serde(default)]
        prices: Option<MemberPrices>,
    },
    RoundsEnded {
        by: String,
        #[serde(default)]
        call_id: Option<String>,
        #[serde(default)]
        message: Option<String>,
        #[serde(default)]
        warnings: Vec<Violation>,
    },
    EffectIssued {
        effect_id: String,
        effect: super::Effect,
    },
    EffectDone {
        effect_id: String,
        output: serde_json::Value,
    },
    CallRetried {
        call_id: String,
        attempt: u32,
        wait_ms: u64,
        error: String,
    },
    Finished,
    Forked {
        from: ForkOrigin,
    },
}
crate::tagged::tagged!(read [] KindWire, tag = "type");

/// [`EngineEdit`] as read: the kind's own edit as the value it was.
#[derive(Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
enum EditWire {
    Settings {
        settings: Settings,
    },
    Title {
        title: String,
    },
    #[serde(rename = "(untagged)")]
    Protocol(serde_json::Value),
}
crate::tagged::tagged!(read [] EditWire, tag = "edit", untagged = true);

impl Event {
    /// One event of a session of the kind `info` describes, read from its JSON text: the
    /// engine's fields by code compiled once, the kind's payloads by the kind's readers.
    pub fn read(info: &KindInfo, text: &str) -> Result<Event, serde_json::Error> {
        serde_json::from_str::<EventWire>(text)?.into_event(info)
    }

    /// A whole log held as one JSON array (a session file's `events`), read as [`Event::read`]
    /// reads each.
    pub fn read_array(info: &KindInfo, text: &str) -> Result<Vec<Event>, serde_json::Error> {
        serde_json::from_str::<Vec<EventWire>>(text)?
            .into_iter()
            .map(|e| e.into_event(info))
            .collect()
    }
}

impl EventWire {
    /// The event, its payloads read by the kind `info` describes.
    fn into_event(self, info: &KindInfo) -> Result<Event, serde_json::Error> {
        Ok(Event {
            seq: self.seq,
            at: self.at,
            kind: self.kind.into_kind(info)?,
        })
    }
}

impl KindWire {
    fn into_kind(self, info: &KindInfo) -> Result<EventKind, serde_json::Error> {
        Ok(match self {
            KindWire::Created { kind, config } => EventKind::Created {
                kind,
                config: (info.read_config)(&config)?,
            },
            KindWire::Started { until, prices } => EventKind::Started { until, prices },
            KindWire::RoundStarted { round } => EventKind::RoundStarted { round },
            KindWire::StepStarted {
                round,
                step,
                members,
            } => EventKind::StepStarted {
                round,
                step: (info.read_step)(&step)?,
                members,
            },
            KindWire::CallIssued { call } => {
                let CallWire {
                    id,
                    member,
                    step,
                    round,
                    kind,
                    messages,
                    token_estimate,
                } = *call;
                EventKind::CallIssued {
                    call: Box::new(StoredCall {
                        id,
                        member,
                        step: (info.read_step)(&step)?,
                        round,
                        kind,
                        messages,
                        token_estimate,
                    }),
                }
            }
            KindWire::AnswerReceived {
                call_id,
                raw,
                whole_bytes,
                usage,
                tokens,
            } => EventKind::AnswerReceived {
                call_id,
                raw,
                whole_bytes,
                usage,
                tokens,
            },
            KindWire::AnswerRefused {
                call_id,
                raw,
                reason,
            } => EventKind::AnswerRefused {
                call_id,
                raw,
                reason,
            },
            KindWire::AnswerInvalid {
                call_id,
                report,
                repair_prompt,
            } => EventKind::AnswerInvalid {
                call_id,
                report,
                repair_prompt,
            },
            KindWire::FellBack {
                call_id,
                report,
                output,
            } => EventKind::FellBack {
                call_id,
                report,
                output: (info.read_output)(&output)?,
            },
            KindWire::ContextServed {
                call_id,
                requests,
                slices,
                follow_up,
                warnings,
            } => EventKind::ContextServed {
                call_id,
                requests: (info.read_ask)(&requests)?,
                slices: (info.read_served)(&slices)?,
                follow_up,
                warnings,
            },
            KindWire::HaltRaised {
                call_id,
                halt,
                warnings,
            } => EventKind::HaltRaised {
                call_id,
                halt,
                warnings,
            },
            KindWire::Applied {
                call_id,
                output,
                warnings,
            } => EventKind::Applied {
                call_id,
                output: (info.read_output)(&output)?,
                warnings,
            },
            KindWire::PersonAnswered {
                answer,
                verdict,
                call_id,
            } => EventKind::PersonAnswered {
                answer,
                verdict,
                call_id,
            },
            KindWire::PersonEdited { edit } => EventKind::PersonEdited {
                edit: match edit {
                    EditWire::Settings { settings } => EngineEdit::Settings { settings },
                    EditWire::Title { title } => EngineEdit::Title { title },
                    EditWire::Protocol(value) => EngineEdit::Protocol((info.read_edit)(&value)?),
                },
            },
            KindWire::Paused { reason } => EventKind::Paused {
                reason: reason.into_reason(info)?,
            },
            KindWire::Resumed { until, prices } => EventKind::Resumed { until, prices },
            KindWire::RoundsEnded {
                by,
                call_id,
                message,
                warnings,
            } => EventKind::RoundsEnded {
                by,
                call_id,
                message,
                warnings,
            },
            KindWire::EffectIssued { effect_id, effect } => {
                EventKind::EffectIssued { effect_id, effect }
            }
            KindWire::EffectDone { effect_id, output } => {
                EventKind::EffectDone { effect_id, output }
            }
            KindWire::CallRetried {
                call_id,
                attempt,
                wait_ms,
                error,
            } => EventKind::CallRetried {
                call_id,
                attempt,
                wait_ms,
                error,
            },
            KindWire::Finished => EventKind::Finished,
            KindWire::Forked { from } => EventKind::Forked { from },
        })
    }
}

/// [`PauseReason`] as read: the step as text, the kind's own reason as the value it was.
#[derive(Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
enum PauseWire {
    Person,
    InvalidAnswer {
        member: String,
        step: Payload,
        report: Findings,
    },
    RoundLimit {
        max_rounds: u32,
    },
    TokenBudget {
        used: u64,
        budget: u64,
    },
    MoneyBudget {
        used: u64,
        budget: u64,
        #[serde(default)]
        out: u64,
        #[serde(default)]
        next: Option<CallBound<Payload>>,
    },
    CallFailed {
        member: String,
        call_id: String,
        step: Payload,
        error: String,
        fix: Fix,
    },
    Reached {
        until: Until,
    },
    Forked,
    #[serde(rename = "(untagged)")]
    Blocked(serde_json::Value),
}
crate::tagged::tagged!(read [] PauseWire, tag = "reason", untagged = true);

impl PauseWire {
    fn into_reason(self, info: &KindInfo) -> Result<PauseReason, serde_json::Error> {
        Ok(match self {
            PauseWire::Person => PauseReason::Person,
            PauseWire::InvalidAnswer {
                member,
                step,
                report,
            } => PauseReason::InvalidAnswer {
                member,
                step: (info.read_step)(&step)?,
                report,
            },
            PauseWire::RoundLimit { max_rounds } => PauseReason::RoundLimit { max_rounds },
            PauseWire::TokenBudget { used, budget } => PauseReason::TokenBudget { used, budget },
            PauseWire::MoneyBudget {
                used,
                budget,
                out,
                next,
            } => PauseReason::MoneyBudget {
                used,
                budget,
                out,
                next: match next {
                    Some(CallBound {
                        member,
                        step,
                        up_to,
                    }) => Some(CallBound {
                        member,
                        step: (info.read_step)(&step)?,
                        up_to,
                    }),
                    None => None,
                },
            },
            PauseWire::CallFailed {
                member,
                call_id,
                step,
                error,
                fix,
            } => PauseReason::CallFailed {
                member,
                call_id,
                step: (info.read_step)(&step)?,
                error,
                fix,
            },
            PauseWire::Reached { until } => PauseReason::Reached { until },
            PauseWire::Forked => PauseReason::Forked,
            PauseWire::Blocked(value) => PauseReason::Blocked((info.read_block)(&value)?),
        })
    }
}

/// Whether a borrowed list is empty, for `skip_serializing_if` on [`KindOut`]'s fields.
fn no_items<T>(items: &&[T]) -> bool {
    items.is_empty()
}

/// Whether a borrowed text is empty, for `skip_serializing_if`.
fn no_text(text: &&str) -> bool {
    text.is_empty()
}

/// One event as written: as [`Event`], its kind's payloads already text.
#[derive(Serialize)]
struct EventOut<'a> {
    seq: u64,
    at: u64,
    kind: KindOut<'a>,
}

/// A stored call as written: as [`StoredCall`], its step already JSON text.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CallOut<'a> {
    id: &'a str,
    member: &'a str,
    step: Payload,
    round: u32,
    kind: CallKind,
    #[serde(skip_serializing_if = "no_items")]
    messages: &'a [Message],
    token_estimate: u64,
}

/// [`EventKind`] as written, borrowing the event: the same variants, fields and attributes
/// (see there), every payload of the kind already JSON text. Compiled once for every kind.
#[derive(Serialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
enum KindOut<'a> {
    Created {
        #[serde(skip_serializing_if = "no_text")]
        kind: &'a str,
        config: Payload,
    },
    Started {
        #[serde(skip_serializing_if = "Option::is_none")]
        until: Option<&'a Until>,
        #[serde(skip_serializing_if = "Option::is_none")]
        prices: Option<&'a MemberPrices>,
    },
    RoundStarted {
        round: u32,
    },
    StepStarted {
        round: u32,
        step: Payload,
        members: &'a [String],
    },
    CallIssued {
        call: CallOut<'a>,
    },
    AnswerReceived {
        call_id: &'a str,
        raw: &'a crate::text::Text,
        #[serde(skip_serializing_if = "Option::is_none")]
        whole_bytes: Option<u64>,
        usage: Option<&'a Usage>,
        tokens: u64,
    },
    AnswerRefused {
        call_id: &'a str,
        raw: &'a str,
        reason: &'a str,
    },
    AnswerInvalid {
        call_id: &'a str,
        report: &'a Findings,
        repair_prompt: &'a str,
    },
    FellBack {
        call_id: &'a str,
        report: &'a Findings,
        output: Payload,
    },
    ContextServed {
        call_id: &'a str,
        requests: Payload,
        slices: Payload,
        follow_up: &'a str,
        warnings: &'a [Violation],
    },
    HaltRaised {
        call_id: &'a str,
        halt: &'a super::PersonAsk,
        warnings: &'a [Violation],
    },
    Applied {
        call_id: &'a str,
        output: Payload,
        warnings: &'a [Violation],
    },
    PersonAnswered {
        answer: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        verdict: Option<&'a super::Verdict>,
        #[serde(skip_serializing_if = "Option::is_none")]
        call_id: Option<&'a str>,
    },
    PersonEdited {
        edit: Payload,
    },
    Paused {
        reason: Payload,
    },
    Resumed {
        #[serde(skip_serializing_if = "Option::is_none")]
        until: Option<&'a Until>,
        #[serde(skip_serializing_if = "Option::is_none")]
        prices: Option<&'a MemberPrices>,
    },
    RoundsEnded {
        by: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        call_id: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        message: Option<&'a str>,
        #[serde(skip_serializing_if = "no_items")]
        warnings: &'a [Violation],
    },
    EffectIssued {
        effect_id: &'a str,
        effect: &'a super::Effect,
    },
    EffectDone {
        effect_id: &'a str,
        output: &'a serde_json::Value,
    },
    CallRetried {
        call_id: &'a str,
        attempt: u32,
        wait_ms: u64,
        error: &'a str,
    },
    Finished,
    Forked {
        from: &'a ForkOrigin,
    },
}
crate::tagged::tagged!(write ['a] KindOut<'a>, tag = "type");

/// A payload of the kind as JSON text.
fn write<T: Serialize>(value: &T) -> Result<Payload, serde_json::Error> {
    serde_json::value::to_raw_value(value)
}

impl<'a> KindOut<'a> {
    /// The event's kind to write, its payloads written as JSON text.
    fn of(kind: &'a EventKind) -> Result<KindOut<'a>, serde_json::Error> {
        Ok(match kind {
            EventKind::Created { kind, config } => KindOut::Created {
                kind,
                config: config.write()?,
            },
            EventKind::Started { until, prices } => KindOut::Started {
                until: until.as_ref(),
                prices: prices.as_ref(),
            },
            EventKind::RoundStarted { round } => KindOut::RoundStarted { round: *round },
            EventKind::StepStarted {
                round,
                step,
                members,
            } => KindOut::StepStarted {
                round: *round,
                step: write(step)?,
                members,
            },
            EventKind::CallIssued { call } => KindOut::CallIssued {
                call: CallOut {
                    id: &call.id,
                    member: &call.member,
                    step: write(&call.step)?,
                    round: call.round,
                    kind: call.kind,
                    messages: &call.messages,
                    token_estimate: call.token_estimate,
                },
            },
            EventKind::AnswerReceived {
                call_id,
                raw,
                whole_bytes,
                usage,
                tokens,
            } => KindOut::AnswerReceived {
                call_id,
                raw,
                whole_bytes: *whole_bytes,
                usage: usage.as_ref(),
                tokens: *tokens,
            },
            EventKind::AnswerRefused {
                call_id,
                raw,
                reason,
            } => KindOut::AnswerRefused {
                call_id,
                raw,
                reason,
            },
            EventKind::AnswerInvalid {
                call_id,
                report,
                repair_prompt,
            } => KindOut::AnswerInvalid {
                call_id,
                report,
                repair_prompt,
            },
            EventKind::FellBack {
                call_id,
                report,
                output,
            } => KindOut::FellBack {
                call_id,
                report,
                output: output.write()?,
            },
            EventKind::ContextServed {
                call_id,
                requests,
                slices,
                follow_up,
                warnings,
            } => KindOut::ContextServed {
                call_id,
                requests: requests.write()?,
                slices: slices.write()?,
                follow_up,
                warnings,
            },
            EventKind::HaltRaised {
                call_id,
                halt,
                warnings,
            } => KindOut::HaltRaised {
                call_id,
                halt,
                warnings,
            },
            EventKind::Applied {
                call_id,
                output,
                warnings,
            } => KindOut::Applied {
                call_id,
                output: output.write()?,
                warnings,
            },
            EventKind::PersonAnswered {
                answer,
                verdict,
                call_id,
            } => KindOut::PersonAnswered {
                answer,
                verdict: verdict.as_ref(),
                call_id: call_id.as_deref(),
            },
            EventKind::PersonEdited { edit } => KindOut::PersonEdited { edit: write(edit)? },
            EventKind::Paused { reason } => KindOut::Paused {
                reason: write(reason)?,
            },
            EventKind::Resumed { until, prices } => KindOut::Resumed {
                until: until.as_ref(),
                prices: prices.as_ref(),
            },
            EventKind::RoundsEnded {
                by,
                call_id,
                message,
                warnings,
            } => KindOut::RoundsEnded {
                by,
                call_id: call_id.as_deref(),
                message: message.as_deref(),
                warnings,
            },
            EventKind::EffectIssued { effect_id, effect } => {
                KindOut::EffectIssued { effect_id, effect }
            }
            EventKind::EffectDone { effect_id, output } => {
                KindOut::EffectDone { effect_id, output }
            }
            EventKind::CallRetried {
                call_id,
                attempt,
                wait_ms,
                error,
            } => KindOut::CallRetried {
                call_id,
                attempt: *attempt,
                wait_ms: *wait_ms,
                error,
            },
            EventKind::Finished => KindOut::Finished,
            EventKind::Forked { from } => KindOut::Forked { from },
        })
    }
}

impl Serialize for Event {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        EventOut {
            seq: self.seq,
            at: self.at,
            kind: KindOut::of(&self.kind).map_err(serde::ser::Error::custom)?,
        }
        .serialize(s)
    }
}

impl Serialize for EventKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        KindOut::of(self)
            .map_err(serde::ser::Error::custom)?
            .serialize(s)
    }
}
