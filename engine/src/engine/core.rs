//! The engine's part of a session's state, and the fold of its events.
//!
//! Every kind of session carries one [`Core`]: the status, the round and step, one [`Slot`] per
//! member of the current step (its outstanding call, its repair and context counters, its
//! conversation), every call with what became of it, the halts, the tokens counted, the limits.
//! [`Core::fold`] is the only code that changes it; the protocol folds its own part of the same
//! event first ([`super::Protocol::fold`]).

use serde::{Deserialize, Serialize};

use super::call::{
    CallKind, CallRecord, CallResult, ChatRole, Message, MAX_ANSWER_TOKENS, MIN_ANSWER_TOKENS,
};
use super::control::{Until, PERSON};
use super::effect::EffectRecord;
use super::event::{EngineEdit, Event, EventKind, ForkOrigin};
use super::inbox::{PersonAsk, PersonReply};
use super::kind_value::StepId;
use super::status::{Findings, FoldError, PauseReason, Settings, Status};
use crate::cost::MemberPrices;

/// One member's place in the current step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Slot {
    /// Member id.
    pub member: String,
    /// The outstanding call, if one is out.
    pub call_id: Option<String>,
    /// `request_context` answers given so far at this step.
    pub context_requests: u32,
    /// Repair prompts sent so far at this step.
    pub repairs: u32,
    /// The member's step is over.
    pub done: bool,
    /// Repairs are used up; the session paused. Resume starts the member afresh.
    pub exhausted: bool,
    /// The conversation so far (the next call continues it).
    pub messages: Vec<Message>,
    /// What kind of call comes next.
    pub next_kind: CallKind,
    /// The report of the last invalid answer, while a repair is pending.
    pub pending_report: Option<Findings>,
}

impl Slot {
    fn new(member: &str) -> Slot {
        Slot {
            member: member.to_string(),
            call_id: None,
            context_requests: 0,
            repairs: 0,
            done: false,
            exhausted: false,
            messages: Vec::new(),
            next_kind: CallKind::Initial,
            pending_report: None,
        }
    }

    fn restart(&mut self) {
        self.call_id = None;
        self.repairs = 0;
        self.exhausted = false;
        self.messages.clear();
        self.next_kind = CallKind::Initial;
        self.pending_report = None;
    }

    /// What the member is doing, in one word, for the timeline.
    pub fn live_state(&self) -> &'static str {
        if self.done {
            "done"
        } else if self.exhausted {
            "stuck"
        } else if self.call_id.is_some() {
            match self.next_kind {
                CallKind::Repair => "repairing",
                CallKind::AfterContext => "reading_context",
                CallKind::Initial => "working",
            }
        } else {
            "waiting"
        }
    }
}

/// Something a member put to the person, and the person's word once given.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HaltRecord {
    /// Round.
    pub round: u32,
    /// Step.
    pub step: Option<StepId>,
    /// Member who asked.
    pub asked_by: String,
    /// The call whose answer asked.
    pub call_id: String,
    /// What was put to the person.
    pub halt: PersonAsk,
    /// The person's word; `None` while it waits.
    pub answer: Option<PersonReply>,
}

/// One step of the timeline.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StepRecord {
    /// Round.
    pub round: u32,
    /// Step.
    pub step: StepId,
    /// Members who acted.
    pub members: Vec<String>,
    /// Start time.
    pub started_at: u64,
    /// End time (when the next step started or the session finished).
    pub ended_at: Option<u64>,
}

/// The engine's part of the state of any session.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Core {
    /// Status.
    pub status: Status,
    /// Limits.
    pub settings: Settings,
    /// Current round (0 before the first round).
    pub round: u32,
    /// Current (or last finished) step.
    pub step: Option<StepId>,
    /// Members of the current step.
    pub slots: Vec<Slot>,
    /// Every call, in issue order.
    pub calls: Vec<CallRecord>,
    /// Answers refused (call id, reason).
    pub refused: Vec<(String, String)>,
    /// Every halt.
    pub halts: Vec<HaltRecord>,
    /// Steps run.
    pub timeline: Vec<StepRecord>,
    /// Tokens counted.
    pub tokens_used: u64,
    /// Micro-dollars the answered calls cost (those with a known cost).
    #[serde(default)]
    pub cost_used: u64,
    /// The work is over (the closing step next, or done).
    pub rounds_ended: bool,
    /// Where the current run stops by itself (see [`super::control`]); none: to the end.
    #[serde(default)]
    pub until: Option<Until>,
    /// The price of each member's model, as the last run that gave them said: what bounds a
    /// call's cost before it is made (see [`crate::cost::MemberPrices`]).
    #[serde(default, skip_serializing_if = "MemberPrices::is_empty")]
    pub prices: MemberPrices,
    /// Where this session was forked from, when it is a fork (the `forked` event).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forked_from: Option<ForkOrigin>,
    /// The person's title for the session (a `title` edit); none: its request's first line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Every effect the kind asked the runner for, in issue order ([`super::effect`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<EffectRecord>,
}

impl Core {
    /// The engine's state of a new session with these limits.
    pub fn new(settings: Settings) -> Core {
        Core {
            status: Status::Draft,
            settings,
            round: 0,
            step: None,
            slots: Vec::new(),
            calls: Vec::new(),
            refused: Vec::new(),
            halts: Vec::new(),
            timeline: Vec::new(),
            tokens_used: 0,
            cost_used: 0,
            rounds_ended: false,
            until: None,
            prices: MemberPrices::new(),
            forked_from: None,
            title: None,
            effects: Vec::new(),
        }
    }

    /// The effect with this id, if the kind asked for one.
    pub fn effect(&self, id: &str) -> Option<&EffectRecord> {
        self.effects.iter().find(|e| e.id == id)
    }

    /// Effects asked for whose output the runner still owes, in issue order.
    pub fn pending_effects(&self) -> impl Iterator<Item = &EffectRecord> {
        self.effects.iter().filter(|e| e.pending())
    }

    /// The id the next call issued gets (`call-N`, numbered from 1 in issue order): a kind
    /// that names its call in the prompt (the review loop's nonce) reads it when the engine
    /// asks for the call's envelope.
    pub fn next_call_id(&self) -> String {
        call_id(self.calls.len() + 1)
    }

    /// The transcript entry of a call.
    pub fn call(&self, id: &str) -> Option<&CallRecord> {
        call_index(id)
            .and_then(|i| self.calls.get(i))
            .filter(|c| c.call.id == id)
    }

    /// Calls issued and not yet answered, in issue order.
    pub fn outstanding_calls(&self) -> impl Iterator<Item = &CallRecord> {
        self.slots
            .iter()
            .filter_map(|s| s.call_id.as_deref())
            .filter_map(|id| self.call(id))
    }

    /// The calls of one member at one step of one round, oldest first: the first ask, then each
    /// re-ask after served context or a repair — one transcript thread.
    pub fn thread(&self, member: &str, round: u32, step: StepId) -> Vec<&CallRecord> {
        self.calls
            .iter()
            .filter(|c| c.call.member == member && c.call.round == round && c.call.step == step)
            .collect()
    }

    /// Each member of the current step with what it is doing now, for the live timeline.
    pub fn live_states(&self) -> Vec<(&str, &'static str)> {
        self.slots
            .iter()
            .map(|s| (s.member.as_str(), s.live_state()))
            .collect()
    }

    /// What waits for the person, oldest first: the session's inbox.
    pub fn open_asks(&self) -> impl Iterator<Item = &HaltRecord> {
        self.halts.iter().filter(|h| h.answer.is_none())
    }

    /// The member of an answered call whose result is not decided yet.
    pub fn answered_member(&self, call_id: &str) -> Result<&str, FoldError> {
        self.call(call_id)
            .filter(|c| c.raw_answer.is_some() && c.result.is_none())
            .map(|c| c.call.member.as_str())
            .ok_or_else(|| FoldError::Call(call_id.to_string()))
    }

    /// The slot of a member of the current step.
    pub fn slot(&self, member: &str) -> Option<&Slot> {
        self.slots.iter().find(|s| s.member == member)
    }

    /// The most tokens the calls still out can still add: each one's estimated prompt and the
    /// longest answer it was allowed.
    pub fn tokens_out(&self) -> u64 {
        self.outstanding_calls()
            .map(|c| c.call.token_estimate + u64::from(c.max_answer))
            .sum()
    }

    /// Under a token budget, what is left of it for new calls: the budget less the tokens
    /// counted and what the calls still out can still add. `None`: no token budget.
    pub fn tokens_left(&self) -> Option<u64> {
        let budget = self.settings.token_budget?;
        Some(
            budget
                .saturating_sub(self.tokens_used)
                .saturating_sub(self.tokens_out()),
        )
    }

    /// Members of the current step waiting for a call to be made (at least 1: the one asked
    /// about): under a token budget they share what is left of it.
    pub fn waiting_for_a_call(&self) -> u64 {
        let waiting = self
            .slots
            .iter()
            .filter(|x| !x.done && !x.exhausted && x.call_id.is_none())
            .count();
        (waiting as u64).max(1)
    }

    /// The longest answer the next call, with a prompt of `prompt_tokens` (estimated), may be
    /// given now: [`MAX_ANSWER_TOKENS`], or, under a token budget, when that is less, its share
    /// of what is left ([`Core::tokens_left`]) once its prompt is counted — shared evenly with
    /// the other members of the step still waiting for a call, so the first call made does not
    /// take what the others need. Every call is bounded so before it is made, and the calls
    /// made can never take the tokens counted past the budget (counted as the engine estimates
    /// them; a provider that counts a prompt at more tokens than the estimate can pass it by the
    /// difference, and the next call then waits).
    pub fn answer_room(&self, prompt_tokens: u64) -> u32 {
        let room = self.tokens_left().map_or(u64::MAX, |left| {
            left.saturating_sub(prompt_tokens) / self.waiting_for_a_call()
        });
        u32::try_from(room.min(u64::from(MAX_ANSWER_TOKENS))).unwrap_or(MAX_ANSWER_TOKENS)
    }

    /// Whether a call with a prompt of `prompt_tokens` may not be made under the token budget:
    /// what is left of it cannot hold the prompt and an answer of [`MIN_ANSWER_TOKENS`]. The
    /// engine pauses before such a call (`PauseReason::TokenBudget`).
    pub fn over_token_budget(&self, prompt_tokens: u64) -> bool {
        self.settings.token_budget.is_some() && self.answer_room(prompt_tokens) < MIN_ANSWER_TOKENS
    }

    /// The money budget, when it is spent: (used, budget) in micro-dollars.
    pub fn money_spent(&self) -> Option<(u64, u64)> {
        self.settings
            .money_budget
            .filter(|b| self.cost_used >= *b)
            .map(|b| (self.cost_used, b))
    }

    /// The most a call of `member` with a prompt of `prompt_tokens` (estimated) and an answer
    /// of at most `max_answer` tokens can cost at `prices`: `None` when its model has no known
    /// price.
    pub fn worst_case(
        &self,
        prices: &MemberPrices,
        member: &str,
        prompt_tokens: u64,
        max_answer: u32,
    ) -> Option<u64> {
        prices
            .get(member)
            .map(|p| p.worst_case(prompt_tokens, u64::from(max_answer)))
    }

    /// The most the calls still out can cost at `prices` (those with a known price).
    pub fn worst_case_out(&self, prices: &MemberPrices) -> u64 {
        self.outstanding_calls()
            .filter_map(|c| {
                self.worst_case(prices, &c.call.member, c.call.token_estimate, c.max_answer)
            })
            .sum()
    }

    /// Refuses an `applied` or `fell_back` event that [`Core::fold`] would refuse, before any part
    /// of the state changes (the protocol folds its part first): its call must be answered and
    /// not yet judged, and its member in the current step. Past this, the engine's fold of the
    /// event cannot fail, so a refusal anywhere leaves the state as it was.
    pub(super) fn check_outcome(&self, event: &Event) -> Result<(), FoldError> {
        if let EventKind::EffectDone { effect_id, .. } = &event.kind {
            if !self.effect(effect_id).is_some_and(EffectRecord::pending) {
                return Err(FoldError::Effect(effect_id.clone()));
            }
        }
        if let EventKind::Applied { call_id, .. } | EventKind::FellBack { call_id, .. } =
            &event.kind
        {
            let member = self.answered_member(call_id)?;
            if self.slot(member).is_none() {
                return Err(FoldError::Slot(member.to_string()));
            }
        }
        Ok(())
    }

    /// Folds the engine's part of one event in. `changes` is what the protocol's fold said an
    /// applied output changed.
    pub(super) fn fold(&mut self, event: &Event, changes: Vec<String>) -> Result<(), FoldError> {
        let at = event.at;
        match &event.kind {
            EventKind::Created { .. } => {}
            EventKind::Started { until, prices } => {
                self.status = Status::Running;
                self.until = *until;
                if let Some(prices) = prices {
                    self.prices = prices.clone();
                }
            }
            EventKind::RoundStarted { round } => {
                self.close_step(at);
                self.round = *round;
                self.step = None;
                self.slots.clear();
            }
            EventKind::StepStarted {
                round,
                step,
                members,
            } => {
                self.close_step(at);
                self.round = *round;
                self.step = Some(*step);
                self.slots = members.iter().map(|m| Slot::new(m)).collect();
                self.timeline.push(StepRecord {
                    round: *round,
                    step: *step,
                    members: members.clone(),
                    started_at: at,
                    ended_at: None,
                });
            }
            EventKind::CallIssued { call } => {
                // Worked out before the call counts as out: what is left for it alone.
                let max_answer = self.answer_room(call.token_estimate);
                let messages = issue(
                    &mut self.slots,
                    self.calls.len(),
                    &call.id,
                    &call.member,
                    call.kind,
                    &call.messages,
                )?;
                let mut call = (**call).clone();
                if let Some(messages) = messages {
                    call.messages = messages;
                }
                self.calls.push(CallRecord {
                    call,
                    issued_at: at,
                    raw_answer: None,
                    whole_bytes: None,
                    answered_at: None,
                    usage: None,
                    tokens: 0,
                    result: None,
                    failed: None,
                    retries: 0,
                    max_answer,
                });
            }
            EventKind::AnswerReceived {
                call_id,
                raw,
                whole_bytes,
                usage,
                tokens,
            } => {
                answered(&mut self.slots, call_id, raw, *whole_bytes)?;
                let rec = self.call_mut(call_id)?;
                rec.raw_answer = Some(raw.clone());
                rec.whole_bytes = *whole_bytes;
                rec.answered_at = Some(at);
                rec.usage = *usage;
                rec.tokens = *tokens;
                self.tokens_used += tokens;
                self.cost_used += usage.and_then(|u| u.cost).map_or(0, |c| c.micro_usd);
            }
            EventKind::AnswerRefused {
                call_id, reason, ..
            } => self.refused.push((call_id.clone(), reason.clone())),
            EventKind::AnswerInvalid {
                call_id,
                report,
                repair_prompt,
            } => {
                let max = self.settings.max_repairs;
                let member = self.answered_member(call_id)?.to_string();
                self.slot_mut(&member)?.refused(max, report, repair_prompt);
                self.call_mut(call_id)?.result = Some(CallResult::Invalid {
                    report: report.clone(),
                });
            }
            EventKind::FellBack {
                call_id, report, ..
            } => {
                let member = self.answered_member(call_id)?.to_string();
                let slot = self.slot_mut(&member)?;
                slot.done = true;
                slot.pending_report = None;
                self.call_mut(call_id)?.result = Some(CallResult::FellBack {
                    report: report.clone(),
                    changes,
                });
            }
            EventKind::ContextServed {
                call_id,
                slices,
                follow_up,
                ..
            } => {
                let member = self.answered_member(call_id)?.to_string();
                self.slot_mut(&member)?.served(follow_up);
                self.call_mut(call_id)?.result = Some(CallResult::ContextServed {
                    slices: slices.clone(),
                });
            }
            EventKind::HaltRaised { call_id, halt, .. } => {
                let member = self.answered_member(call_id)?.to_string();
                let (round, step) = (self.round, self.step);
                let slot = self.slot_mut(&member)?;
                // Asked afresh once the person answers: the answer is in the new prompt.
                slot.restart();
                slot.context_requests = 0;
                if !matches!(self.status, Status::AwaitingPerson { .. }) {
                    self.status = Status::AwaitingPerson {
                        asked_by: member.clone(),
                        halt: halt.clone(),
                    };
                }
                self.halts.push(HaltRecord {
                    round,
                    step,
                    asked_by: member,
                    call_id: call_id.clone(),
                    halt: halt.clone(),
                    answer: None,
                });
                self.call_mut(call_id)?.result = Some(CallResult::Halted { halt: halt.clone() });
            }
            EventKind::Applied {
                call_id, warnings, ..
            } => {
                let member = self.answered_member(call_id)?.to_string();
                let slot = self.slot_mut(&member)?;
                slot.done = true;
                slot.pending_report = None;
                self.call_mut(call_id)?.result = Some(CallResult::Applied {
                    changes,
                    warnings: warnings.clone(),
                });
            }
            EventKind::PersonAnswered {
                answer,
                verdict,
                call_id,
            } => {
                let Status::AwaitingPerson { .. } = self.status else {
                    return Err(FoldError::Unexpected("no question is open".into()));
                };
                let open = self
                    .halts
                    .iter_mut()
                    .filter(|h| h.answer.is_none())
                    .find(|h| call_id.as_ref().is_none_or(|id| *id == h.call_id))
                    .ok_or_else(|| FoldError::Unexpected("no such question is open".into()))?;
                open.answer = Some(PersonReply {
                    text: answer.clone(),
                    verdict: *verdict,
                });
                let next = self
                    .open_asks()
                    .next()
                    .map(|next| (next.asked_by.clone(), next.halt.clone()));
                self.status = match next {
                    Some((asked_by, halt)) => Status::AwaitingPerson { asked_by, halt },
                    None => Status::Running,
                };
            }
            EventKind::PersonEdited { edit } => match edit {
                EngineEdit::Settings { settings } => self.settings = settings.clone(),
                EngineEdit::Title { title } => {
                    self.title = (!title.is_empty()).then(|| title.clone());
                }
                EngineEdit::Protocol(_) => {}
            },
            EventKind::Paused { reason } => {
                if let PauseReason::CallFailed { call_id, error, .. } = reason {
                    let rec = self.call_mut(call_id)?;
                    if rec.raw_answer.is_some() {
                        return Err(FoldError::Call(call_id.clone()));
                    }
                    rec.failed = Some(error.clone());
                }
                self.status = Status::Paused {
                    reason: reason.clone(),
                }
            }
            EventKind::Resumed { until, prices } => {
                self.until = *until;
                if let Some(prices) = prices {
                    self.prices = prices.clone();
                }
                for slot in self.slots.iter_mut().filter(|s| s.exhausted) {
                    slot.restart();
                }
                self.status = Status::Running;
            }
            EventKind::RoundsEnded {
                call_id: Some(call_id),
                message,
                ..
            } => {
                // A member's answer ended the rounds: its step is done, the others finish theirs,
                // and the run's boundary holds, so the closing step waits for the next run control.
                let member = self.answered_member(call_id)?.to_string();
                let slot = self.slot_mut(&member)?;
                slot.done = true;
                slot.pending_report = None;
                self.call_mut(call_id)?.result = Some(CallResult::Ended {
                    message: message.clone().unwrap_or_default(),
                });
                self.rounds_ended = true;
            }
            EventKind::RoundsEnded { by, .. } => {
                // The person's wrap-up runs the closing step to the end.
                if by == PERSON {
                    self.until = None;
                }
                for slot in &mut self.slots {
                    if let Some(id) = slot.call_id.take() {
                        if let Some(rec) = call_index(&id).and_then(|i| self.calls.get_mut(i)) {
                            rec.result = Some(CallResult::Superseded);
                        }
                    }
                    slot.done = true;
                }
                for effect in self.effects.iter_mut().filter(|e| e.pending()) {
                    effect.dropped = true;
                }
                self.rounds_ended = true;
                self.status = Status::Running;
            }
            EventKind::EffectIssued { effect_id, effect } => self.effects.push(EffectRecord {
                id: effect_id.clone(),
                effect: effect.clone(),
                output: None,
                dropped: false,
            }),
            EventKind::CallRetried { call_id, .. } => {
                let outstanding = self
                    .slots
                    .iter()
                    .any(|s| s.call_id.as_deref() == Some(call_id.as_str()));
                let rec = self.call_mut(call_id)?;
                if !outstanding || rec.raw_answer.is_some() {
                    return Err(FoldError::Call(call_id.clone()));
                }
                rec.retries += 1;
            }
            EventKind::EffectDone { effect_id, output } => {
                let record = self
                    .effects
                    .iter_mut()
                    .find(|e| e.id == *effect_id && e.pending())
                    .ok_or_else(|| FoldError::Effect(effect_id.clone()))?;
                record.output = Some(output.clone());
            }
            EventKind::Forked { from } => self.forked_from = Some(from.clone()),
            EventKind::Finished => {
                self.close_step(at);
                self.slots.clear();
                self.status = Status::Done;
            }
        }
        Ok(())
    }

    fn close_step(&mut self, at: u64) {
        if let Some(last) = self.timeline.last_mut() {
            if last.ended_at.is_none() {
                last.ended_at = Some(at);
            }
        }
    }

    fn slot_mut(&mut self, member: &str) -> Result<&mut Slot, FoldError> {
        slot_of(&mut self.slots, member)
    }

    fn call_mut(&mut self, call_id: &str) -> Result<&mut CallRecord, FoldError> {
        call_index(call_id)
            .and_then(|i| self.calls.get_mut(i))
            .filter(|c| c.call.id == call_id)
            .ok_or_else(|| FoldError::Call(call_id.to_string()))
    }
}

// The parts of the fold that touch only the slots.

/// The slot of `member`.
fn slot_of<'a>(slots: &'a mut [Slot], member: &str) -> Result<&'a mut Slot, FoldError> {
    slots
        .iter_mut()
        .find(|s| s.member == member)
        .ok_or_else(|| FoldError::Slot(member.to_string()))
}

/// The id of the `n`-th call issued, from 1.
fn call_id(n: usize) -> String {
    format!("call-{n}")
}

/// A call issued to `member` as the `calls`+1-th call: its slot holds it out. Returns the
/// conversation a continuing call (sent with no messages) sent: the slot's so far.
fn issue(
    slots: &mut [Slot],
    calls: usize,
    id: &str,
    member: &str,
    kind: CallKind,
    messages: &[Message],
) -> Result<Option<Vec<Message>>, FoldError> {
    if id != call_id(calls + 1) {
        return Err(FoldError::Call(id.to_string()));
    }
    let slot = slot_of(slots, member)?;
    if slot.done || slot.call_id.is_some() {
        return Err(FoldError::Slot(member.to_string()));
    }
    slot.call_id = Some(id.to_string());
    slot.next_kind = kind;
    if messages.is_empty() {
        Ok(Some(slot.messages.clone()))
    } else {
        slot.messages = messages.to_vec();
        Ok(None)
    }
}

/// The answer to `call_id` came: its slot has no call out, and its conversation quotes the
/// answer as far as a repair or a follow-up needs (the event and the call keep it whole, or, for
/// an answer refused for its length, its head and `whole_bytes`: see [`super::long_answer`]).
fn answered(
    slots: &mut [Slot],
    call_id: &str,
    raw: &str,
    whole_bytes: Option<u64>,
) -> Result<(), FoldError> {
    let slot = slots
        .iter_mut()
        .find(|s| s.call_id.as_deref() == Some(call_id))
        .ok_or_else(|| FoldError::Call(call_id.to_string()))?;
    slot.call_id = None;
    let quote = match whole_bytes {
        Some(whole) => std::borrow::Cow::Owned(super::long_answer::quoted_cut(raw, whole)),
        None => quoted_answer(raw),
    };
    slot.messages.push(Message::new(ChatRole::Assistant, quote));
    Ok(())
}

impl Slot {
    /// The member's answer was refused: a repair prompt follows (or, past `max_repairs`, the
    /// member is stuck).
    fn refused(&mut self, max_repairs: u32, report: &Findings, repair_prompt: &str) {
        self.repairs += 1;
        self.exhausted = self.repairs > max_repairs;
        self.pending_report = Some(report.clone());
        self.messages
            .push(Message::new(ChatRole::User, repair_prompt));
        self.next_kind = CallKind::Repair;
    }

    /// Context was served: the follow-up continues the conversation.
    fn served(&mut self, follow_up: &str) {
        self.context_requests += 1;
        self.messages.push(Message::new(ChatRole::User, follow_up));
        self.next_kind = CallKind::AfterContext;
        self.pending_report = None;
    }
}

/// The position of `call-<n>` in the call list.
fn call_index(id: &str) -> Option<usize> {
    id.strip_prefix("call-")?
        .parse::<usize>()
        .ok()?
        .checked_sub(1)
}

/// The most characters of a model's own answer the conversation quotes back to it after a refusal
/// or a served context request: a refused answer of a megabyte would otherwise go back whole, and
/// every later call of the conversation with it. The repair prompt that follows points at each
/// problem by path and quotes what it found there.
pub const ANSWER_QUOTE_MAX: usize = 6_000;

/// `raw` whole when it is short, else its first and last parts (cut at whitespace) around a line
/// saying how much was left out.
pub fn quoted_answer(raw: &str) -> std::borrow::Cow<'_, str> {
    // Only the ends are walked character by character: a huge answer (megabytes) costs one fast
    // count of its middle, not a walk of every character from its start.
    if raw.chars().nth(ANSWER_QUOTE_MAX).is_none() {
        return std::borrow::Cow::Borrowed(raw);
    }
    let head = quote_head(raw);
    // The tail: the last sixth, forward to the next whitespace.
    let tail_start = raw
        .char_indices()
        .rev()
        .nth(ANSWER_QUOTE_MAX / 6 - 1)
        .map_or(0, |(i, _)| i);
    let tail = raw[tail_start..]
        .find(char::is_whitespace)
        .map_or(&raw[tail_start..], |i| &raw[tail_start + i..]);
    let left = raw[head.len()..raw.len() - tail.len()].chars().count();
    std::borrow::Cow::Owned(format!(
        "{head}\n[… {left} more characters of this answer left out here; the problems below name where they are …]\n{tail}"
    ))
}

/// The head of a long answer's quote: two thirds of [`ANSWER_QUOTE_MAX`] characters, back to
/// the last whitespace (when that keeps more than half of them).
pub fn quote_head(raw: &str) -> &str {
    let head_end = raw
        .char_indices()
        .nth(ANSWER_QUOTE_MAX * 2 / 3)
        .map_or(raw.len(), |(i, _)| i);
    raw[..head_end]
        .rfind(char::is_whitespace)
        .filter(|i| *i > head_end / 2)
        .map_or(&raw[..head_end], |i| &raw[..i])
}
