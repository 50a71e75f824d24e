//! The event log read from JSON by code that is compiled once for every kind.
//!
//! An [`Event`] holds the kind's own payloads (its config, steps, outputs, requests, edits), so
//! serde's derive would compile the whole reader of the log — nineteen variants, every field of
//! the engine's own — once per kind: about 22 KB of wasm code each. Here the log is read into
//! [`EventWire`], the same shape with each payload of the kind kept as its JSON text
//! ([`RawValue`]); only the small step from that to `Event<P>` — reading those payloads — is
//! compiled per kind. The JSON is the same in both directions; nothing about the file changes.
//! The big payloads that are not the kind's (a call's messages, reports, raw answers) are read
//! once, by the engine's own code.

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::value::RawValue;

use super::call::{CallKind, Message, StoredCall};
use super::control::Until;
use super::event::{EngineEdit, Event, EventKind, ForkOrigin, Usage};
use super::status::{CallBound, Findings, Fix, PauseReason, Settings};
use super::Protocol;
use crate::cost::MemberPrices;
use crate::validate::Violation;

/// A kind's payload as its JSON text, read into the kind's type when the event is.
type Payload = Box<RawValue>;

/// One event as read: as [`Event`], without its kind.
#[derive(Deserialize)]
pub(super) struct EventWire {
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
    Finished,
    Forked {
        from: ForkOrigin,
    },
}
crate::tagged::tagged!(read [] KindWire, tag = "type");

/// Reads one payload of the kind from its text.
fn read<T: DeserializeOwned>(raw: &RawValue) -> Result<T, serde_json::Error> {
    serde_json::from_str(raw.get())
}

/// Reads a payload of the kind that was read as a value (one tagged by the same key as the
/// engine's enum around it), from text with its tags first so the kind's reader takes its fast
/// path.
fn read_value<T: DeserializeOwned>(value: &serde_json::Value) -> Result<T, serde_json::Error> {
    serde_json::from_str(&crate::tagged::tags_first(value))
}

/// [`EngineEdit`] as read: the kind's own edit as the value it was.
#[derive(Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
enum EditWire {
    Settings {
        settings: Settings,
    },
    #[serde(rename = "(untagged)")]
    Protocol(serde_json::Value),
}
crate::tagged::tagged!(read [] EditWire, tag = "edit");

impl<'de, P: Protocol> Deserialize<'de> for EngineEdit<P> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match EditWire::deserialize(d)? {
            EditWire::Settings { settings } => Ok(EngineEdit::Settings { settings }),
            EditWire::Protocol(value) => read_value(&value)
                .map(EngineEdit::Protocol)
                .map_err(serde::de::Error::custom),
        }
    }
}

impl EventWire {
    /// The event, its payloads read as kind `P`'s.
    pub(super) fn into_event<P: Protocol>(self) -> Result<Event<P>, serde_json::Error> {
        Ok(Event {
            seq: self.seq,
            at: self.at,
            kind: self.kind.into_kind()?,
        })
    }
}

impl KindWire {
    fn into_kind<P: Protocol>(self) -> Result<EventKind<P>, serde_json::Error> {
        Ok(match self {
            KindWire::Created { kind, config } => EventKind::Created {
                kind,
                config: read(&config)?,
            },
            KindWire::Started { until, prices } => EventKind::Started { until, prices },
            KindWire::RoundStarted { round } => EventKind::RoundStarted { round },
            KindWire::StepStarted {
                round,
                step,
                members,
            } => EventKind::StepStarted {
                round,
                step: read(&step)?,
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
                        step: read(&step)?,
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
                usage,
                tokens,
            } => EventKind::AnswerReceived {
                call_id,
                raw,
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
                output: read(&output)?,
            },
            KindWire::ContextServed {
                call_id,
                requests,
                slices,
                follow_up,
                warnings,
            } => EventKind::ContextServed {
                call_id,
                requests: read(&requests)?,
                slices: read(&slices)?,
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
                output: read(&output)?,
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
                    EditWire::Protocol(value) => EngineEdit::Protocol(read_value(&value)?),
                },
            },
            KindWire::Paused { reason } => EventKind::Paused {
                reason: reason.into_reason()?,
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
            KindWire::Finished => EventKind::Finished,
            KindWire::Forked { from } => EventKind::Forked { from },
        })
    }
}

impl<'de, P: Protocol> Deserialize<'de> for Event<P> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        EventWire::deserialize(d)?
            .into_event()
            .map_err(serde::de::Error::custom)
    }
}

impl<'de, P: Protocol> Deserialize<'de> for EventKind<P> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        KindWire::deserialize(d)?
            .into_kind()
            .map_err(serde::de::Error::custom)
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
crate::tagged::tagged!(read [] PauseWire, tag = "reason");

impl PauseWire {
    fn into_reason<P: Protocol>(self) -> Result<PauseReason<P>, serde_json::Error> {
        Ok(match self {
            PauseWire::Person => PauseReason::Person,
            PauseWire::InvalidAnswer {
                member,
                step,
                report,
            } => PauseReason::InvalidAnswer {
                member,
                step: read(&step)?,
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
                        step: read(&step)?,
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
                step: read(&step)?,
                error,
                fix,
            },
            PauseWire::Reached { until } => PauseReason::Reached { until },
            PauseWire::Forked => PauseReason::Forked,
            PauseWire::Blocked(value) => PauseReason::Blocked(read_value(&value)?),
        })
    }
}

impl<'de, P: Protocol> Deserialize<'de> for PauseReason<P> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        PauseWire::deserialize(d)?
            .into_reason()
            .map_err(serde::de::Error::custom)
    }
}
