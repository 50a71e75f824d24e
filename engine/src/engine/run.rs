//! [`Engine`]: a session of any kind, the commands the runner and the person give it, and the loop
//! that decides what happens next.
//!
//! Every command appends events through [`Engine::record`], the one door every change goes
//! through; the state is the fold of those events, so [`Engine::replay`] of [`Engine::events`]
//! rebuilds exactly [`Engine::state`].

use super::call::{
    estimate_messages, estimate_tokens, CallKind, DemoReply, DueCall, ModelCall, StoredCall,
};
use super::control::{RunTarget, Until, PERSON};
use super::event::{EngineEdit, Event, EventKind, Usage};
use super::inbox::PersonReply;
use super::kind::{Judged, KindInfo, KindState, Next};
use super::kind_value::KindValue;
use super::long_answer;
use super::status::{
    budget_words, money_words, CallBound, EngineError, Findings, FoldError, Outcome, PauseReason,
    Status,
};
use super::Protocol;
use crate::cost::MemberPrices;
use crate::validate::Violation;

/// A session of any kind: its event log and the state folded from it. The same type for every
/// kind: the kind's state is behind [`KindState`], so the engine is compiled once.
#[derive(Debug, Clone)]
pub struct Engine {
    events: Vec<Event>,
    state: Box<dyn KindState>,
}

impl PartialEq for Engine {
    fn eq(&self, other: &Engine) -> bool {
        self.events == other.events && self.state.same(other.state.as_ref())
    }
}

impl Engine {
    /// A new draft session of kind `P`. Refuses a config the kind finds unusable.
    pub fn new<P: Protocol>(config: P::Config, now: u64) -> Result<Engine, EngineError> {
        Engine::create(&P::INFO, KindValue::new(config), now)
    }

    /// A new draft session of the kind `info` describes, from its config.
    pub fn create(
        info: &'static KindInfo,
        config: KindValue,
        now: u64,
    ) -> Result<Engine, EngineError> {
        let state = (info.create)(&config).map_err(EngineError::Config)?;
        let mut engine = Engine {
            events: Vec::new(),
            state,
        };
        engine.record(
            EventKind::Created {
                kind: info.kind.into(),
                config,
            },
            now,
        )?;
        Ok(engine)
    }

    /// Rebuilds a session of the kind `info` describes from its events. The result's state
    /// equals the state of the session that wrote them.
    pub fn replay(info: &'static KindInfo, events: &[Event]) -> Result<Engine, FoldError> {
        let Some(Event {
            kind: EventKind::Created { config, .. },
            ..
        }) = events.first()
        else {
            return Err(FoldError::NotCreated);
        };
        // A log from elsewhere (an imported file) gets the same checks as a new session.
        let state = (info.create)(config).map_err(|e| {
            FoldError::Unexpected(format!("the session's configuration is invalid: {e}"))
        })?;
        let mut engine = Engine {
            events: Vec::with_capacity(events.len()),
            state,
        };
        for (i, event) in events.iter().enumerate() {
            if event.seq != i as u64 {
                return Err(FoldError::Sequence {
                    expected: i as u64,
                    found: event.seq,
                });
            }
            if i > 0 && matches!(event.kind, EventKind::Created { .. }) {
                return Err(FoldError::NotCreated);
            }
            fold_into(engine.state.as_mut(), event)?;
            engine.events.push(event.clone());
        }
        Ok(engine)
    }

    /// Folds `more` events onto this session, each the next in sequence: how a view of the
    /// session's history goes forward from a point it already has, without replaying from zero.
    /// On an error the events before the failing one stay folded.
    pub fn extend(&mut self, more: &[Event]) -> Result<(), FoldError> {
        for event in more {
            let expected = self.events.len() as u64;
            if event.seq != expected {
                return Err(FoldError::Sequence {
                    expected,
                    found: event.seq,
                });
            }
            if matches!(event.kind, EventKind::Created { .. }) {
                return Err(FoldError::NotCreated);
            }
            fold_into(self.state.as_mut(), event)?;
            self.events.push(event.clone());
        }
        Ok(())
    }

    /// The event log, oldest first.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The state: the fold of the events, as the engine sees it.
    pub fn state(&self) -> &dyn KindState {
        self.state.as_ref()
    }

    /// The state as kind `P`'s, when the session is of that kind.
    pub fn state_of<P: Protocol>(&self) -> Option<&P> {
        self.state.as_any().downcast_ref()
    }

    /// The session's kind.
    pub fn info(&self) -> &'static KindInfo {
        self.state.info()
    }

    /// The session's status.
    pub fn status(&self) -> &Status {
        &self.state.core().status
    }

    /// Model calls the runner should perform now (empty unless running), each with the demo
    /// model's answer filled in when its member runs on the demo provider. A call stays here
    /// until answered or superseded, so a runner that lost track can ask again; it must not
    /// perform the same id twice.
    pub fn next_calls(&self) -> Vec<ModelCall> {
        let core = self.state.core();
        if core.status != Status::Running {
            return Vec::new();
        }
        core.outstanding_calls()
            .map(|rec| {
                let call = &rec.call;
                // Only the demo model reads an envelope; a real provider's call needs none built.
                let on_demo = self
                    .state
                    .model_of(&call.member)
                    .is_some_and(|m| m.provider == super::DEMO_PROVIDER);
                let demo = on_demo.then(|| {
                    let envelope = self.state.envelope(&call.member);
                    self.state
                        .demo_answer(call, &envelope)
                        .at_most(rec.max_answer)
                });
                ModelCall {
                    id: call.id.clone(),
                    member: call.member.clone(),
                    step: (self.info().step_name)(call.step),
                    step_title: (self.info().step_title)(call.step),
                    round: call.round,
                    kind: call.kind,
                    messages: call.messages.clone(),
                    schema: self.state.call_schema(call),
                    token_estimate: call.token_estimate,
                    max_answer_tokens: rec.max_answer,
                    demo,
                    ids: self.state.id_choices(call),
                }
            })
            .collect()
    }

    /// The calls due now with the envelopes they were built from (typed by the protocol), for
    /// tests and tools that drive the engine without the runner.
    pub fn calls_due(&self) -> Vec<DueCall> {
        let core = self.state.core();
        if core.status != Status::Running {
            return Vec::new();
        }
        core.outstanding_calls()
            .map(|rec| DueCall {
                envelope: self.state.envelope(&rec.call.member),
                call: rec.call.clone(),
            })
            .collect()
    }

    /// Effects the runner should perform now (empty unless running), in issue order. An effect
    /// stays here until its output is in, so a runner that lost track can ask again; it must
    /// not perform the same id twice (a runner that finds one it started before the page went
    /// away hands in an output saying so rather than run it again).
    pub fn next_effects(&self) -> Vec<super::DueEffect> {
        let core = self.state.core();
        if core.status != Status::Running {
            return Vec::new();
        }
        core.pending_effects()
            .map(|e| super::DueEffect {
                id: e.id.clone(),
                name: e.effect.name.clone(),
                input: e.effect.input.clone(),
            })
            .collect()
    }

    /// Hands in what the runner got from performing effect `effect_id`; the kind's fold reads
    /// it, and whatever is due next is issued.
    pub fn effect_done(
        &mut self,
        effect_id: &str,
        output: serde_json::Value,
        now: u64,
    ) -> Result<(), EngineError> {
        if matches!(self.state.core().status, Status::Done | Status::Draft) {
            return Err(self.wrong("hand in an effect's output"));
        }
        if !self
            .state
            .core()
            .effect(effect_id)
            .is_some_and(super::EffectRecord::pending)
        {
            return Err(EngineError::EffectNotPending(effect_id.to_string()));
        }
        self.record(
            EventKind::EffectDone {
                effect_id: effect_id.to_string(),
                output,
            },
            now,
        )?;
        self.advance(now)
    }

    /// The built-in demo model's answer to an outstanding call, no longer than the call may be
    /// answered ([`DemoReply::at_most`]), as the runner is given it. A call still out while the
    /// session is paused is answered from the envelope it was made from.
    pub fn demo_answer(&self, call_id: &str) -> Option<DemoReply> {
        let core = self.state.core();
        let rec = core.outstanding_calls().find(|c| c.call.id == call_id)?;
        let envelope = if core.status == Status::Running {
            self.state.envelope(&rec.call.member)
        } else {
            self.envelope_of(call_id)?
        };
        Some(
            self.state
                .demo_answer(&rec.call, &envelope)
                .at_most(rec.max_answer),
        )
    }

    /// The state envelope a call's prompt was built from, rebuilt by replaying the log up to the
    /// call (the log does not store it). `None` for an unknown id.
    pub fn envelope_of(&self, call_id: &str) -> Option<KindValue> {
        let at = self.events.iter().position(
            |e| matches!(&e.kind, EventKind::CallIssued { call } if call.id == call_id),
        )?;
        let member = match &self.events[at].kind {
            EventKind::CallIssued { call } => call.member.clone(),
            _ => return None,
        };
        let before = Self::replay(self.info(), &self.events[..at]).ok()?;
        Some(before.state.envelope(&member))
    }

    /// Starts a draft session to run to the end: the first step's calls are issued.
    pub fn start(&mut self, now: u64) -> Result<(), EngineError> {
        self.start_run(RunTarget::End, None, now)
    }

    /// Starts a draft session that runs as far as `target` says (see [`super::control`]), with
    /// the price of each member's model (`prices`, kept on the `started` event) that bounds
    /// each call's cost under the money budget before it is made.
    pub fn start_run(
        &mut self,
        target: RunTarget,
        prices: Option<MemberPrices>,
        now: u64,
    ) -> Result<(), EngineError> {
        if self.state.core().status != Status::Draft {
            return Err(self.wrong("start"));
        }
        let until = self.until(target);
        self.record(EventKind::Started { until, prices }, now)?;
        self.advance(now)
    }

    /// The boundary a run toward `target` begun now stops at: the step or round under way is
    /// finished, or, between two, the next one is run. The opening step (round 0) is no round of
    /// its own: One round from there runs round 1 too.
    fn until(&self, target: RunTarget) -> Option<Until> {
        let core = self.state.core();
        let step_open = core.slots.iter().any(|x| !x.done);
        let steps = core.timeline.len() as u32;
        match target {
            RunTarget::End => None,
            RunTarget::Step => Some(Until::Steps {
                steps: if step_open { steps } else { steps + 1 },
            }),
            RunTarget::Round => {
                let round_open = core.round >= 1
                    && (step_open
                        || matches!(self.state.next_move(), Next::Step(r, ..) if r == core.round));
                Some(Until::Round {
                    round: if round_open {
                        core.round
                    } else {
                        (core.round + 1).max(1)
                    },
                })
            }
        }
    }

    /// Whether the run's boundary comes before `next` (a step or round about to begin).
    fn reached(&self, next: &Next) -> Option<Until> {
        let core = self.state.core();
        let until = core.until?;
        let beyond = match (until, next) {
            // An effect belongs to the step that asked for it: it never waits for the next run.
            (_, Next::Finish | Next::Block(_) | Next::Effect(_)) => false,
            (Until::Steps { steps }, _) => core.timeline.len() as u32 >= steps,
            (Until::Round { round }, Next::Round(r) | Next::Step(r, ..)) => *r > round,
        };
        beyond.then_some(until)
    }

    /// Hands in a model's raw answer for `call_id`. Judges it, applies it if valid, asks again if
    /// it requested context or was invalid, and issues whatever calls are due next.
    pub fn submit(
        &mut self,
        call_id: &str,
        raw: &str,
        usage: Option<Usage>,
        now: u64,
    ) -> Result<Outcome, EngineError> {
        self.submit_read_as(call_id, raw, None, usage, now)
    }

    /// [`Engine::submit`] of an answer the runner had to re-spell before it can be judged: a
    /// provider's strict form made the model write maps as `{key, value}` pairs and "absent" as
    /// `null` (`provider_schema::plain_answer`). `raw`, exactly as the model sent it, is what the
    /// log, the transcript and the member's conversation keep; `read_as` (when given) is what the
    /// kind judges. The judgement is recorded as events, so a replay never judges again.
    pub fn submit_read_as(
        &mut self,
        call_id: &str,
        raw: &str,
        read_as: Option<&str>,
        usage: Option<Usage>,
        now: u64,
    ) -> Result<Outcome, EngineError> {
        let core = self.state.core();
        let outstanding = core
            .slots
            .iter()
            .any(|x| x.call_id.as_deref() == Some(call_id));
        let record = core.call(call_id).filter(|_| outstanding);
        let Some(record) = record else {
            let reason = match core.call(call_id) {
                None => "no call has this id",
                Some(c) if matches!(c.result, Some(super::CallResult::Superseded)) => {
                    "the call was superseded"
                }
                Some(c) if c.raw_answer.is_some() => "the call was already answered",
                Some(_) => "the call is no longer outstanding",
            }
            .to_string();
            self.record(
                EventKind::AnswerRefused {
                    call_id: call_id.to_string(),
                    raw: raw.into(),
                    reason: reason.clone(),
                },
                now,
            )?;
            return Err(EngineError::CallNotOutstanding {
                call_id: call_id.to_string(),
                reason,
            });
        };
        let call = record.call.clone();
        let tokens = usage
            .map(|u| u.input_tokens + u.output_tokens)
            .filter(|t| *t > 0)
            .unwrap_or(call.token_estimate + estimate_tokens(raw));
        // An answer past the kind's length is refused by its length before it is read, and
        // the log keeps only its head with its length (`long_answer`): the refusal is recorded
        // as it was, never judged again from the cut text.
        let read = read_as.unwrap_or(raw);
        let too_long = (self.info().too_long)(call.step, read.len());
        let (kept, whole_bytes) = match too_long.as_ref().and_then(|_| long_answer::kept_head(raw))
        {
            Some(head) => (head, Some(raw.len() as u64)),
            None => (raw, None),
        };
        self.record(
            EventKind::AnswerReceived {
                call_id: call_id.to_string(),
                raw: kept.into(),
                whole_bytes,
                usage,
                tokens,
            },
            now,
        )?;
        let truncated = usage.is_some_and(|u| u.stopped_for_length);
        let judgement = match too_long {
            Some(violation) => Judged::Invalid {
                findings: Findings {
                    step: (self.info().step_name)(call.step).to_string(),
                    errors: vec![violation],
                    warnings: Vec::new(),
                },
                fallback: None,
            },
            None => self.state.judge(&call, read, truncated),
        };
        let outcome = match judgement {
            Judged::Invalid {
                findings,
                fallback: None,
            } => self.invalid(&call, findings, now)?,
            Judged::Invalid {
                findings,
                fallback: Some(output),
            } => {
                self.record(
                    EventKind::FellBack {
                        call_id: call.id.clone(),
                        report: findings.clone(),
                        output,
                    },
                    now,
                )?;
                Outcome::FellBack { report: findings }
            }
            Judged::WantsContext { ask, warnings } => {
                let made = self
                    .state
                    .core()
                    .slot(&call.member)
                    .map_or(0, |x| x.context_requests);
                let max = self.state.core().settings.max_context_requests;
                if made >= max {
                    let findings =
                        no_more_context((self.info().step_name)(call.step), made, warnings);
                    self.invalid(&call, findings, now)?
                } else {
                    let (slices, follow_up) = self.state.serve(&call.member, &ask, max - made - 1);
                    self.record(
                        EventKind::ContextServed {
                            call_id: call.id.clone(),
                            requests: ask,
                            slices,
                            follow_up,
                            warnings,
                        },
                        now,
                    )?;
                    Outcome::ContextServed
                }
            }
            Judged::Ask { ask, warnings } => {
                self.record(
                    EventKind::HaltRaised {
                        call_id: call.id.clone(),
                        halt: ask,
                        warnings,
                    },
                    now,
                )?;
                Outcome::AwaitingPerson
            }
            Judged::EndRounds { message, warnings } => {
                self.record(
                    EventKind::RoundsEnded {
                        by: call.member.clone(),
                        call_id: Some(call.id.clone()),
                        message: Some(message),
                        warnings,
                    },
                    now,
                )?;
                Outcome::RoundsEnded
            }
            Judged::Apply { output, warnings } => {
                let kind = EventKind::Applied {
                    call_id: call.id.clone(),
                    output,
                    warnings: warnings.clone(),
                };
                match self.record(kind, now) {
                    Ok(()) => Outcome::Applied,
                    Err(EngineError::Internal(e)) => {
                        let findings = Findings {
                            step: (self.info().step_name)(call.step).to_string(),
                            errors: vec![self.state.refusal(&e)],
                            warnings,
                        };
                        self.invalid(&call, findings, now)?
                    }
                    Err(e) => return Err(e),
                }
            }
        };
        self.advance(now)?;
        Ok(outcome)
    }

    /// The person's answer to the oldest open question (free text or one of the options).
    pub fn answer_halt(&mut self, answer: &str, now: u64) -> Result<(), EngineError> {
        self.reply(None, PersonReply::answer(answer), now)
    }

    /// The person's word on one open ask of the inbox (`call_id`; `None`: the oldest): an
    /// answer to a question, or a verdict on an approval. Refused when nothing is open, when
    /// `call_id` names no open ask, or when the reply does not fit what was asked.
    pub fn reply(
        &mut self,
        call_id: Option<&str>,
        reply: PersonReply,
        now: u64,
    ) -> Result<(), EngineError> {
        let core = self.state.core();
        if !matches!(core.status, Status::AwaitingPerson { .. }) {
            return Err(self.wrong("answer a question"));
        }
        let open = core
            .open_asks()
            .find(|h| call_id.is_none_or(|id| id == h.call_id))
            .ok_or(EngineError::Reply(
                "nothing of that call waits for an answer",
            ))?;
        if let Some(problem) = reply.problem(&open.halt) {
            return Err(EngineError::Reply(problem));
        }
        self.record(
            EventKind::PersonAnswered {
                answer: reply.text,
                verdict: reply.verdict,
                call_id: call_id.map(str::to_string),
            },
            now,
        )?;
        self.advance(now)
    }

    /// Pauses a running session (answers to calls already issued are still accepted; no new
    /// call is issued until [`Engine::resume`]).
    pub fn pause(&mut self, now: u64) -> Result<(), EngineError> {
        if self.state.core().status != Status::Running {
            return Err(self.wrong("pause"));
        }
        self.record(
            EventKind::Paused {
                reason: PauseReason::Person,
            },
            now,
        )
    }

    /// A provider call failed; core decides whether it is tried again ([`super::retry`]): when it
    /// is, a `call_retried` event records the attempt and the wait, and the wait is returned (the
    /// runner waits that long, then makes the same call again). `None`: it is not tried again
    /// (its retries are spent, or waiting cannot help) and nothing is recorded; the runner then
    /// says so with [`Engine::fail_call`]. `seed` varies the wait (a clock reading). Refused as
    /// [`Engine::fail_call`] is.
    pub fn retry_call(
        &mut self,
        call_id: &str,
        error: &str,
        failure: super::retry::Failure,
        seed: u64,
        now: u64,
    ) -> Result<Option<u64>, EngineError> {
        let rec = self.out_for_failure(call_id, "retry a failed call")?;
        let attempt = rec.retries + 1;
        let Some(wait_ms) = super::retry::delay_ms(failure, attempt, seed) else {
            return Ok(None);
        };
        self.record(
            EventKind::CallRetried {
                call_id: call_id.to_string(),
                attempt: attempt + 1,
                wait_ms,
                error: error.trim().to_string(),
            },
            now,
        )?;
        Ok(Some(wait_ms))
    }

    /// The outstanding call `call_id` of a session that is running or paused, which a failure
    /// may be recorded on (`action` names the refused command).
    fn out_for_failure(
        &self,
        call_id: &str,
        action: &'static str,
    ) -> Result<&super::CallRecord, EngineError> {
        let core = self.state.core();
        if !matches!(core.status, Status::Running | Status::Paused { .. }) {
            return Err(self.wrong(action));
        }
        let outstanding = core
            .slots
            .iter()
            .any(|s| s.call_id.as_deref() == Some(call_id));
        core.call(call_id)
            .filter(|_| outstanding)
            .ok_or_else(|| EngineError::CallNotOutstanding {
                call_id: call_id.to_string(),
                reason: "it is not waiting for an answer".into(),
            })
    }

    /// A provider call failed for good (the runner's retries are spent, or waiting cannot
    /// help): the session pauses with the error and where to fix it, and the call is asked
    /// again on resume. Refused for a call that is not outstanding (answered, superseded,
    /// unknown) or a session that is neither running nor paused.
    pub fn fail_call(
        &mut self,
        call_id: &str,
        error: &str,
        fix: super::Fix,
        now: u64,
    ) -> Result<(), EngineError> {
        let rec = self.out_for_failure(call_id, "record a failed call")?;
        let (member, step) = (rec.call.member.clone(), rec.call.step);
        self.record(
            EventKind::Paused {
                reason: PauseReason::CallFailed {
                    member,
                    call_id: call_id.to_string(),
                    step,
                    error: error.trim().to_string(),
                    fix,
                },
            },
            now,
        )
    }

    /// Resumes a paused session to run to the end, at the prices in force.
    pub fn resume(&mut self, now: u64) -> Result<(), EngineError> {
        self.resume_run(RunTarget::End, None, now)
    }

    /// Resumes a paused session as far as `target` says (see [`super::control`]), with the
    /// members' prices from now on (`None`: the prices in force stay). Refused while the limit
    /// that paused it is still reached (raise it with a settings edit, or [`Engine::finish`]).
    pub fn resume_run(
        &mut self,
        target: RunTarget,
        prices: Option<MemberPrices>,
        now: u64,
    ) -> Result<(), EngineError> {
        let Status::Paused { reason } = &self.state.core().status else {
            return Err(self.wrong("resume"));
        };
        let in_force = prices.as_ref().unwrap_or(&self.state.core().prices);
        if let Some(why) = self.still_blocked(reason, in_force) {
            return Err(EngineError::StillBlocked(why));
        }
        let until = self.until(target);
        self.record(EventKind::Resumed { until, prices }, now)?;
        self.advance(now)
    }

    /// Why no run can begin now although the session is paused, if none can: the limit that
    /// paused it still holds at the prices in force (the check [`Engine::resume_run`] makes, so
    /// the run controls are offered only when a run would be accepted, and say why not).
    pub fn cannot_run(&self) -> Option<String> {
        let Status::Paused { reason } = &self.state.core().status else {
            return None;
        };
        self.still_blocked(reason, &self.state.core().prices)
    }

    /// Why a pause for `reason` still holds at `prices`, if it does.
    fn still_blocked(&self, reason: &PauseReason, prices: &MemberPrices) -> Option<String> {
        let core = self.state.core();
        match reason {
            PauseReason::RoundLimit { .. }
                if !core.rounds_ended
                    && core.round >= core.settings.max_rounds
                    && core.slots.iter().all(|x| x.done) =>
            {
                Some(format!(
                    "the round limit ({}) is still reached: raise it or wrap up",
                    core.settings.max_rounds
                ))
            }
            PauseReason::TokenBudget { .. } => {
                // The first call a resume would make, checked as the run would check it.
                let budget = core.settings.token_budget?;
                let member = core.slots.iter().find(|x| !x.done && x.call_id.is_none());
                let over = match member {
                    Some(slot) => {
                        core.over_token_budget(self.build_call(&slot.member).token_estimate)
                    }
                    None => core.tokens_used >= budget,
                };
                over.then(|| budget_words(self.state(), core.tokens_used, budget, true))
            }
            PauseReason::MoneyBudget { .. } => {
                // The first call a resume would make, checked as the run would check it.
                let member = core
                    .slots
                    .iter()
                    .find(|x| !x.done && x.call_id.is_none())?
                    .member
                    .clone();
                match self.over_money_budget(&self.build_call(&member), prices)? {
                    PauseReason::MoneyBudget {
                        used,
                        budget,
                        out,
                        next,
                    } => Some(money_words(
                        self.state(),
                        used,
                        budget,
                        out,
                        next.as_ref(),
                        true,
                    )),
                    _ => None,
                }
            }
            PauseReason::Blocked(block) => self.state.still_blocked(block),
            _ => None,
        }
    }

    /// Why the person cannot wrap up now, if they cannot (the same rule the command checks).
    pub fn cannot_finish(&self) -> Option<String> {
        let core = self.state.core();
        match core.status {
            Status::Done | Status::Draft => Some(format!(
                "a session that is {} cannot be wrapped up",
                core.status.word()
            )),
            _ if core.rounds_ended => Some("the work has already ended".into()),
            _ => self.state.cannot_finish(),
        }
    }

    /// Ends the work now and asks for the closing step (the person's "wrap up"). Outstanding
    /// calls are superseded.
    pub fn finish(&mut self, now: u64) -> Result<(), EngineError> {
        if matches!(self.state.core().status, Status::Done | Status::Draft) {
            return Err(self.wrong("finish"));
        }
        if let Some(why) = self.cannot_finish() {
            return Err(EngineError::StillBlocked(why));
        }
        self.record(
            EventKind::RoundsEnded {
                by: PERSON.into(),
                call_id: None,
                message: None,
                warnings: Vec::new(),
            },
            now,
        )?;
        self.advance(now)
    }

    /// A person's edit: the limits, or one of the kind's edits.
    pub fn edit(&mut self, edit: impl Into<EngineEdit>, now: u64) -> Result<(), EngineError> {
        self.edit_now(edit.into(), now)
    }

    fn edit_now(&mut self, edit: EngineEdit, now: u64) -> Result<(), EngineError> {
        if self.state.core().status == Status::Done {
            return Err(self.wrong("edit"));
        }
        match &edit {
            EngineEdit::Settings { settings } => {
                if let Some(problem) = settings.problem() {
                    return Err(EngineError::Edit(problem.into()));
                }
            }
            EngineEdit::Title { title } => {
                if let Some(problem) = super::title::problem(title) {
                    return Err(EngineError::Edit(problem));
                }
            }
            EngineEdit::Protocol(e) => self.state.check_edit(e).map_err(EngineError::Edit)?,
        }
        self.record(EventKind::PersonEdited { edit }, now)
    }

    /// Appends an event and folds it into the state. The one door every change goes through. An
    /// `applied` (or `fell_back`) event that is refused leaves the state exactly as it was
    /// (all-or-nothing), with no copy taken: the engine checks its own part first
    /// ([`super::Core::check_outcome`]), and every protocol's fold checks an output whole before it
    /// changes anything (the contract of [`Protocol::fold`]).
    // Kept out of line: called from a dozen places, each copy would hold the fold's call and the
    // log's growth again.
    #[inline(never)]
    pub(super) fn record(&mut self, kind: EventKind, now: u64) -> Result<(), EngineError> {
        let event = Event {
            seq: self.events.len() as u64,
            at: now,
            kind,
        };
        fold_into(self.state.as_mut(), &event)?;
        self.events.push(event);
        Ok(())
    }

    /// Records an invalid answer: a repair prompt for the same member, or a pause when its
    /// repairs are used up.
    fn invalid(
        &mut self,
        call: &StoredCall,
        findings: Findings,
        now: u64,
    ) -> Result<Outcome, EngineError> {
        let repair_prompt = self.state.repair_prompt(call.step, &findings);
        self.record(
            EventKind::AnswerInvalid {
                call_id: call.id.clone(),
                report: findings.clone(),
                repair_prompt,
            },
            now,
        )?;
        let exhausted = self
            .state
            .core()
            .slot(&call.member)
            .is_some_and(|x| x.exhausted);
        if exhausted {
            self.record(
                EventKind::Paused {
                    reason: PauseReason::InvalidAnswer {
                        member: call.member.clone(),
                        step: call.step,
                        report: findings.clone(),
                    },
                },
                now,
            )?;
        }
        Ok(Outcome::Invalid {
            report: findings,
            paused: exhausted,
        })
    }

    /// Issues whatever is due: calls for members of the current step that have none out, the
    /// next step or round when the current one is complete, pauses when a limit is reached.
    pub(super) fn advance(&mut self, now: u64) -> Result<(), EngineError> {
        loop {
            let core = self.state.core();
            if core.status != Status::Running {
                return Ok(());
            }
            if core.slots.iter().any(|x| !x.done) {
                let due: Vec<String> = core
                    .slots
                    .iter()
                    .filter(|x| !x.done && !x.exhausted && x.call_id.is_none())
                    .map(|x| x.member.clone())
                    .collect();
                for member in due {
                    let mut call = self.build_call(&member);
                    let core = self.state.core();
                    if core.over_token_budget(call.token_estimate) {
                        let (used, budget) = (core.tokens_used, core.settings.token_budget);
                        return self.record(
                            EventKind::Paused {
                                reason: PauseReason::TokenBudget {
                                    used,
                                    budget: budget.unwrap_or_default(),
                                },
                            },
                            now,
                        );
                    }
                    let prices = &core.prices;
                    if let Some(reason) = self.over_money_budget(&call, prices) {
                        return self.record(EventKind::Paused { reason }, now);
                    }
                    if call.kind != CallKind::Initial {
                        // The fold rebuilds the conversation from the member's slot.
                        call.messages.clear();
                    }
                    self.record(
                        EventKind::CallIssued {
                            call: Box::new(call),
                        },
                        now,
                    )?;
                }
                return Ok(());
            }
            if core.pending_effects().next().is_some() {
                // The runner owes an effect's output; the kind goes on once it is in.
                return Ok(());
            }
            let next = self.state.next_move();
            let past_limit = matches!(next, Next::Round(r) if r > core.settings.max_rounds);
            if let Some(until) = self.reached(&next).filter(|_| !past_limit) {
                return self.record(
                    EventKind::Paused {
                        reason: PauseReason::Reached { until },
                    },
                    now,
                );
            }
            let kind = match next {
                Next::Finish => {
                    return self.record(EventKind::Finished, now);
                }
                Next::Block(block) => {
                    return self.record(
                        EventKind::Paused {
                            reason: PauseReason::Blocked(block),
                        },
                        now,
                    );
                }
                Next::Round(r) if r > core.settings.max_rounds => {
                    let max_rounds = core.settings.max_rounds;
                    return self.record(
                        EventKind::Paused {
                            reason: PauseReason::RoundLimit { max_rounds },
                        },
                        now,
                    );
                }
                Next::Effect(effect) => EventKind::EffectIssued {
                    effect_id: format!("effect-{}", core.effects.len() + 1),
                    effect,
                },
                Next::Round(round) => EventKind::RoundStarted { round },
                Next::Step(round, step, members) => EventKind::StepStarted {
                    round,
                    step,
                    members,
                },
            };
            self.record(kind, now)?;
        }
    }

    /// Why `call` may not be made under the money budget at `prices`, if it may not: the most it
    /// could cost (its estimated prompt and the longest answer it may be given: less than
    /// `MAX_ANSWER_TOKENS` when a token budget leaves less), with what is spent and what the
    /// calls still out could cost, would go past the budget. A call whose
    /// model has no known price has no bound: it waits only once the budget is spent. A free
    /// model's call never waits.
    fn over_money_budget(&self, call: &StoredCall, prices: &MemberPrices) -> Option<PauseReason> {
        let core = self.state.core();
        let budget = core.settings.money_budget?;
        let used = core.cost_used;
        let max_answer = core.answer_room(call.token_estimate);
        let Some(up_to) = core.worst_case(prices, &call.member, call.token_estimate, max_answer)
        else {
            return (used >= budget).then_some(PauseReason::MoneyBudget {
                used,
                budget,
                out: 0,
                next: None,
            });
        };
        let out = core.worst_case_out(prices);
        let over = up_to > 0 && used.saturating_add(out).saturating_add(up_to) > budget;
        over.then(|| PauseReason::MoneyBudget {
            used,
            budget,
            out,
            next: Some(CallBound {
                member: call.member.clone(),
                step: call.step,
                up_to,
            }),
        })
    }

    /// The next call of `member` at the current step: a fresh prompt, or the continued
    /// conversation after served context or a repair prompt.
    fn build_call(&self, member: &str) -> StoredCall {
        let core = self.state.core();
        let step = core.step.expect("calls are issued only inside a step");
        let (kind, messages) = match core.slot(member) {
            Some(slot) if !slot.messages.is_empty() => (slot.next_kind, slot.messages.clone()),
            _ => (
                CallKind::Initial,
                self.state.first_messages(&self.state.envelope(member)),
            ),
        };
        StoredCall {
            id: core.next_call_id(),
            member: member.to_string(),
            step,
            round: core.round,
            kind,
            token_estimate: estimate_messages(&messages),
            messages,
        }
    }

    fn wrong(&self, action: &'static str) -> EngineError {
        EngineError::WrongStatus {
            action,
            status: self.state.core().status.word(),
        }
    }
}

/// The engine's checks of an answer's outcome, then the kind's fold, then the engine's.
fn fold_into(state: &mut dyn KindState, event: &Event) -> Result<(), FoldError> {
    state.core().check_outcome(event)?;
    let changes = state.fold(event)?;
    state.core_mut().fold(event, changes)
}

/// The findings for a member that asked for context once more than it may at this step.
fn no_more_context(step: &str, made: u32, warnings: Vec<Violation>) -> Findings {
    Findings {
        step: step.to_string(),
        errors: vec![Violation {
            path: "/responseType".into(),
            message: format!(
                "you already asked for context {made} time(s) at this step; no more requests are allowed"
            ),
            expected: "\"final_output\"".into(),
            received: "\"request_context\"".into(),
            hint: "answer with responseType \"final_output\" using what you have".into(),
        }],
        warnings,
    }
}
