//! The team session of specs `000` and `003` as a state machine.
//!
//! Two halves. [`TeamState::fold`] is the only code that changes a session's state: it folds one
//! [`Event`] in, deterministically, without validating or building prompts (events carry what it
//! needs), so replaying a log rebuilds the same state. The engine functions ([`advance`],
//! [`submit`]) decide what happens next — which step, which members, which calls, whether an
//! answer is valid and allowed — and express every decision as events recorded through
//! [`Session`].
//!
//! A round is Reflect (members who wrote last round) → PlanAssign (chair) → Write (assignees) →
//! PeerReview (operatives, on others' new versions) → Inspection (inspector, or the chair). Steps
//! with nobody to act are skipped. A `halt done` (or the person's finish) ends the rounds and the
//! envoy (or the chair) presents.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::context::{
    self, ActivityItem, AssessmentView, ContextSlice, ReflectionView, RemarkView,
};
use crate::event::{Event, EventKind, PersonEdit, Usage};
use crate::protocol::{estimate_messages, estimate_tokens, CallKind, ChatRole, Message, ModelCall};
use crate::schema::{
    AttachedContext, CollabOutput, ContextNeed, ContextRequest, Directive, FinalOutput, Halt,
    HaltType, OperativeDomain, PresentationMessage, RemarkOutput, Step, StepAnswer, TreeOperation,
};
use crate::session::{
    Charter, EngineError, Member, Outcome, PauseReason, Session, SessionConfig, Settings, Status,
    TeamRole,
};
use crate::text::{cut, one_line};
use crate::tree::{ProductStatus, ProductTree, TreeError, VersionDraft};
use crate::validate::{self, Known, Report, Violation};

/// Why an event could not be folded: the log is corrupt or was not written by this engine.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum FoldError {
    /// Sequence numbers must be 0, 1, 2, … without gaps.
    #[error("event {found} found where event {expected} was expected")]
    Sequence {
        /// Expected seq.
        expected: u64,
        /// Found seq.
        found: u64,
    },
    /// The first event must create the session, and only the first.
    #[error("the log must start with exactly one `created` event")]
    NotCreated,
    /// An event names a call the session never issued or that is not outstanding.
    #[error("event refers to call {0}, which is not outstanding")]
    Call(String),
    /// An event names a member that has no place in the current step.
    #[error("member {0} has nothing to do at the current step")]
    Slot(String),
    /// A change the tree refused.
    #[error("the tree refused a change: {0}")]
    Tree(#[from] TreeError),
    /// Anything else out of order.
    #[error("{0}")]
    Unexpected(String),
}

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
    /// Slices served at this step.
    pub served: Vec<ContextSlice>,
    /// The report of the last invalid answer, while a repair is pending.
    pub pending_report: Option<Report>,
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
            served: Vec::new(),
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

/// What became of a call's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "snake_case")]
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
        report: Report,
    },
    /// Context served.
    ContextServed {
        /// What was served.
        slices: Vec<ContextSlice>,
    },
    /// A halt.
    Halted {
        /// The halt.
        halt: Halt,
    },
    /// Superseded before an answer came (the rounds ended).
    Superseded,
}

/// One model call and what happened to it: the transcript entry the UI shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallRecord {
    /// The call as issued (messages and envelope included).
    pub call: ModelCall,
    /// When it was issued.
    pub issued_at: u64,
    /// The raw answer.
    pub raw_answer: Option<String>,
    /// When the answer came.
    pub answered_at: Option<u64>,
    /// The provider's usage.
    pub usage: Option<Usage>,
    /// Tokens counted for this call.
    pub tokens: u64,
    /// What became of it.
    pub result: Option<CallResult>,
}

/// One assignment of one round.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Assignment {
    /// Round.
    pub round: u32,
    /// Product id.
    pub product_id: String,
    /// Member id.
    pub assignee: String,
    /// The directive.
    pub directive: Directive,
    /// Attached context.
    pub attached: Vec<AttachedContext>,
}

/// One version written, with when and at which step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Written {
    /// Round.
    pub round: u32,
    /// Step (Write, or PlanAssign for the chair's versions).
    pub step: Step,
    /// Author.
    pub member: String,
    /// Product id.
    pub product_id: String,
    /// Version id.
    pub version_id: String,
}

/// A halt the person saw, and their answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HaltRecord {
    /// Round.
    pub round: u32,
    /// Step.
    pub step: Step,
    /// Member who halted.
    pub asked_by: String,
    /// The halt.
    pub halt: Halt,
    /// The person's answer (questions only).
    pub answer: Option<String>,
}

/// One step of the timeline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StepRecord {
    /// Round.
    pub round: u32,
    /// Step.
    pub step: Step,
    /// Members who acted.
    pub members: Vec<String>,
    /// Start time.
    pub started_at: u64,
    /// End time (when the next step started or the session finished).
    pub ended_at: Option<u64>,
}

/// The whole state of a team session: what the fold of its events gives.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TeamState {
    /// Team name.
    pub team_name: String,
    /// Team description.
    pub team_description: String,
    /// The person's request.
    pub request: String,
    /// The team (personas as Bootstrap and overrides left them).
    pub members: Vec<Member>,
    /// Operative domains.
    pub domains: BTreeMap<String, OperativeDomain>,
    /// Limits.
    pub settings: Settings,
    /// The charter.
    pub charter: Option<Charter>,
    /// The product tree.
    pub tree: ProductTree,
    /// Status.
    pub status: Status,
    /// Current round (0 = Bootstrap).
    pub round: u32,
    /// Current (or last finished) step of the round.
    pub step: Option<Step>,
    /// Members of the current step.
    pub slots: Vec<Slot>,
    /// Every call, in issue order.
    pub calls: Vec<CallRecord>,
    /// Answers refused (call id, reason).
    pub refused: Vec<(String, String)>,
    /// Every assignment.
    pub assignments: Vec<Assignment>,
    /// Every version written.
    pub written: Vec<Written>,
    /// Every review and inspection.
    pub assessments: Vec<AssessmentView>,
    /// Every reflection, with its round.
    pub reflections: Vec<(u32, ReflectionView)>,
    /// Every remark.
    pub remarks: Vec<RemarkView>,
    /// Every halt.
    pub halts: Vec<HaltRecord>,
    /// Bootstrap's missing details.
    pub missing_details: Vec<String>,
    /// Activity lines, chronological.
    pub activity: Vec<ActivityItem>,
    /// The presentation.
    pub presentation: Vec<PresentationMessage>,
    /// Steps run.
    pub timeline: Vec<StepRecord>,
    /// Tokens counted.
    pub tokens_used: u64,
    /// The rounds are over (Presentation next or done).
    pub rounds_ended: bool,
    created: bool,
}

impl TeamState {
    /// The state before the first event.
    pub fn empty() -> TeamState {
        TeamState {
            team_name: String::new(),
            team_description: String::new(),
            request: String::new(),
            members: Vec::new(),
            domains: BTreeMap::new(),
            settings: Settings::default(),
            charter: None,
            tree: ProductTree::new(""),
            status: Status::Draft,
            round: 0,
            step: None,
            slots: Vec::new(),
            calls: Vec::new(),
            refused: Vec::new(),
            assignments: Vec::new(),
            written: Vec::new(),
            assessments: Vec::new(),
            reflections: Vec::new(),
            remarks: Vec::new(),
            halts: Vec::new(),
            missing_details: Vec::new(),
            activity: Vec::new(),
            presentation: Vec::new(),
            timeline: Vec::new(),
            tokens_used: 0,
            rounds_ended: false,
            created: false,
        }
    }

    /// The member with this id.
    pub fn member(&self, id: &str) -> Option<&Member> {
        self.members.iter().find(|m| m.id == id)
    }

    /// The member who inspects: the inspector, or the chair when there is none.
    pub fn inspector_id(&self) -> &str {
        self.role_or_chair(TeamRole::Inspector)
    }

    /// The member who presents: the envoy, or the chair when there is none.
    pub fn presenter_id(&self) -> &str {
        self.role_or_chair(TeamRole::Envoy)
    }

    fn role_or_chair(&self, role: TeamRole) -> &str {
        self.members
            .iter()
            .find(|m| m.team_role == role)
            .map(|m| m.id.as_str())
            .unwrap_or("chair")
    }

    /// Calls issued and not yet answered, in issue order.
    pub fn outstanding_calls(&self) -> impl Iterator<Item = &ModelCall> {
        let ids: BTreeSet<&str> = self
            .slots
            .iter()
            .filter_map(|s| s.call_id.as_deref())
            .collect();
        self.calls
            .iter()
            .filter(move |c| ids.contains(c.call.id.as_str()))
            .map(|c| &c.call)
    }

    /// The transcript entry of a call.
    pub fn call(&self, id: &str) -> Option<&CallRecord> {
        call_index(id)
            .and_then(|i| self.calls.get(i))
            .filter(|c| c.call.id == id)
    }

    /// The calls of one member at one step of one round, oldest first: the first ask, then each
    /// re-ask after served context or a repair — one transcript thread for the UI.
    pub fn calls_of(&self, member: &str, round: u32, step: Step) -> Vec<&CallRecord> {
        self.calls
            .iter()
            .filter(|c| c.call.member == member && c.call.round == round && c.call.step == step)
            .collect()
    }

    /// Each member of the current step with what it is doing now (`waiting`, `working`,
    /// `reading_context`, `repairing`, `stuck`, `done`), for the live timeline.
    pub fn live_states(&self) -> Vec<(&str, &'static str)> {
        self.slots
            .iter()
            .map(|s| (s.member.as_str(), s.live_state()))
            .collect()
    }

    /// The ids an answer may name: the tree's plus every member and `user-1`.
    pub fn known(&self) -> Known {
        let mut known = self.tree.known();
        known.members = self.members.iter().map(|m| m.id.clone()).collect();
        known.members.insert("user-1".into());
        known
    }

    /// This round's assignments.
    pub fn assignments_of_round(&self, round: u32) -> impl Iterator<Item = &Assignment> {
        self.assignments.iter().filter(move |a| a.round == round)
    }

    /// Versions written in a round, in writing order.
    pub fn written_in(&self, round: u32) -> impl Iterator<Item = &Written> {
        self.written.iter().filter(move |w| w.round == round)
    }

    /// The versions `member` should look at in PeerReview (others' versions of this round) or,
    /// for the inspector at Inspection, every version of this round. Only versions still latest.
    pub fn to_review(&self, member: &str, step: Step) -> Vec<&Written> {
        self.written_in(self.round)
            .filter(|w| step == Step::Inspection || w.member != member)
            .filter(|w| {
                self.tree.product(&w.product_id).is_some_and(|p| {
                    p.status != ProductStatus::Removed
                        && p.latest_version() == Some(w.version_id.as_str())
                })
            })
            .collect()
    }

    /// The members who take part in `step` of the current round (in team order).
    pub fn members_for(&self, step: Step) -> Vec<String> {
        let in_team_order = |set: BTreeSet<&str>| -> Vec<String> {
            self.members
                .iter()
                .filter(|m| set.contains(m.id.as_str()))
                .map(|m| m.id.clone())
                .collect()
        };
        match step {
            Step::Bootstrap | Step::PlanAssign => vec!["chair".into()],
            Step::Reflect => in_team_order(
                self.written
                    .iter()
                    .filter(|w| w.round + 1 == self.round && w.step == Step::Write)
                    .map(|w| w.member.as_str())
                    .collect(),
            ),
            Step::Write => in_team_order(
                self.assignments_of_round(self.round)
                    .map(|a| a.assignee.as_str())
                    .collect(),
            ),
            Step::PeerReview => self
                .members
                .iter()
                .filter(|m| m.team_role == TeamRole::Operative)
                .filter(|m| !self.to_review(&m.id, Step::PeerReview).is_empty())
                .map(|m| m.id.clone())
                .collect(),
            Step::Inspection => {
                if self.to_review("", Step::Inspection).is_empty() {
                    Vec::new()
                } else {
                    vec![self.inspector_id().to_string()]
                }
            }
            Step::Presentation => vec![self.presenter_id().to_string()],
        }
    }

    /// Folds one event into the state. The only code that changes a session.
    pub fn fold(&mut self, event: &Event) -> Result<(), FoldError> {
        let at = event.at;
        match &event.kind {
            EventKind::Created { config } => {
                if self.created {
                    return Err(FoldError::NotCreated);
                }
                // A log from elsewhere (an imported file) gets the same team checks as a new session.
                config.check().map_err(|e| {
                    FoldError::Unexpected(format!("the session's team is invalid: {e}"))
                })?;
                self.create(config);
                return Ok(());
            }
            _ if !self.created => return Err(FoldError::NotCreated),
            EventKind::Started => self.status = Status::Running,
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
                let expected = format!("call-{}", self.calls.len() + 1);
                if call.id != expected {
                    return Err(FoldError::Call(call.id.clone()));
                }
                let slot = self.slot_mut(&call.member)?;
                if slot.done || slot.call_id.is_some() {
                    return Err(FoldError::Slot(call.member.clone()));
                }
                slot.call_id = Some(call.id.clone());
                slot.messages = call.messages.clone();
                slot.next_kind = call.kind;
                let mut stored = (**call).clone();
                stored.schema = serde_json::Value::Null;
                self.calls.push(CallRecord {
                    call: stored,
                    issued_at: at,
                    raw_answer: None,
                    answered_at: None,
                    usage: None,
                    tokens: 0,
                    result: None,
                });
            }
            EventKind::AnswerReceived {
                call_id,
                raw,
                usage,
                tokens,
            } => {
                let slot = self.slot_of_call_mut(call_id)?;
                slot.call_id = None;
                slot.messages.push(Message::new(ChatRole::Assistant, raw));
                let rec = self.call_mut(call_id)?;
                rec.raw_answer = Some(raw.clone());
                rec.answered_at = Some(at);
                rec.usage = *usage;
                rec.tokens = *tokens;
                self.tokens_used += tokens;
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
                let member = self.answered_member(call_id)?;
                let slot = self.slot_mut(&member)?;
                slot.repairs += 1;
                slot.exhausted = slot.repairs > max;
                slot.pending_report = Some(report.clone());
                slot.messages
                    .push(Message::new(ChatRole::User, repair_prompt));
                slot.next_kind = CallKind::Repair;
                self.call_mut(call_id)?.result = Some(CallResult::Invalid {
                    report: report.clone(),
                });
            }
            EventKind::ContextServed {
                call_id,
                slices,
                follow_up,
                ..
            } => {
                let member = self.answered_member(call_id)?;
                let slot = self.slot_mut(&member)?;
                slot.context_requests += 1;
                slot.served.extend(slices.iter().cloned());
                slot.messages.push(Message::new(ChatRole::User, follow_up));
                slot.next_kind = CallKind::AfterContext;
                slot.pending_report = None;
                self.call_mut(call_id)?.result = Some(CallResult::ContextServed {
                    slices: slices.clone(),
                });
            }
            EventKind::HaltRaised { call_id, halt, .. } => {
                let member = self.answered_member(call_id)?;
                let step = self.step.unwrap_or(Step::Bootstrap);
                let round = self.round;
                let slot = self.slot_mut(&member)?;
                match halt.halt_type {
                    HaltType::Question => {
                        // Asked afresh once the person answers: the answer is in the new prompt.
                        slot.restart();
                        slot.context_requests = 0;
                        slot.served.clear();
                        self.status = Status::AwaitingPerson {
                            asked_by: member.clone(),
                            halt: halt.clone(),
                        };
                    }
                    HaltType::Done => {
                        slot.done = true;
                        slot.pending_report = None;
                        self.rounds_ended = true;
                    }
                }
                self.halts.push(HaltRecord {
                    round,
                    step,
                    asked_by: member.clone(),
                    halt: halt.clone(),
                    answer: None,
                });
                self.activity.push(ActivityItem {
                    round,
                    step,
                    who: member,
                    what: match halt.halt_type {
                        HaltType::Question => {
                            format!("asked the person: {}", one_line(&halt.message, 160))
                        }
                        HaltType::Done => {
                            format!("declared the work done: {}", one_line(&halt.message, 160))
                        }
                    },
                });
                self.call_mut(call_id)?.result = Some(CallResult::Halted { halt: halt.clone() });
            }
            EventKind::Applied {
                call_id,
                output,
                warnings,
            } => {
                let member = self.answered_member(call_id)?;
                let changes = self.apply_output(&member, output)?;
                let slot = self.slot_mut(&member)?;
                slot.done = true;
                slot.pending_report = None;
                self.call_mut(call_id)?.result = Some(CallResult::Applied {
                    changes,
                    warnings: warnings.clone(),
                });
            }
            EventKind::PersonAnswered { answer } => {
                let Status::AwaitingPerson { .. } = self.status else {
                    return Err(FoldError::Unexpected("no question is open".into()));
                };
                if let Some(h) = self
                    .halts
                    .iter_mut()
                    .rev()
                    .find(|h| h.halt.halt_type == HaltType::Question && h.answer.is_none())
                {
                    h.answer = Some(answer.clone());
                }
                self.activity.push(ActivityItem {
                    round: self.round,
                    step: self.step.unwrap_or(Step::Bootstrap),
                    who: "user-1".into(),
                    what: format!("answered: {}", one_line(answer, 160)),
                });
                self.status = Status::Running;
            }
            EventKind::PersonEdited { edit } => self.apply_edit(edit)?,
            EventKind::Paused { reason } => {
                self.status = Status::Paused {
                    reason: reason.clone(),
                }
            }
            EventKind::Resumed => {
                for slot in self.slots.iter_mut().filter(|s| s.exhausted) {
                    slot.restart();
                }
                self.status = Status::Running;
            }
            EventKind::RoundsEnded { by } => {
                for slot in &self.slots {
                    if let Some(id) = &slot.call_id {
                        if let Some(i) = call_index(id) {
                            if let Some(rec) = self.calls.get_mut(i) {
                                rec.result = Some(CallResult::Superseded);
                            }
                        }
                    }
                }
                for slot in &mut self.slots {
                    slot.call_id = None;
                    slot.done = true;
                }
                self.rounds_ended = true;
                self.status = Status::Running;
                self.activity.push(ActivityItem {
                    round: self.round,
                    step: self.step.unwrap_or(Step::Bootstrap),
                    who: by.clone(),
                    what: "ended the rounds".into(),
                });
            }
            EventKind::Finished => {
                self.close_step(at);
                self.slots.clear();
                self.status = Status::Done;
            }
        }
        Ok(())
    }

    fn create(&mut self, config: &SessionConfig) {
        *self = TeamState::empty();
        self.created = true;
        self.team_name = config.team_name.clone();
        self.team_description = config.team_description.clone();
        self.request = config.request.clone();
        self.members = config.members.clone();
        self.settings = config.settings.clone();
        self.charter = config.charter.clone();
        self.tree = ProductTree::new(&config.team_name);
    }

    fn close_step(&mut self, at: u64) {
        if let Some(last) = self.timeline.last_mut() {
            if last.ended_at.is_none() {
                last.ended_at = Some(at);
            }
        }
    }

    fn slot_mut(&mut self, member: &str) -> Result<&mut Slot, FoldError> {
        self.slots
            .iter_mut()
            .find(|s| s.member == member)
            .ok_or_else(|| FoldError::Slot(member.to_string()))
    }

    fn slot_of_call_mut(&mut self, call_id: &str) -> Result<&mut Slot, FoldError> {
        self.slots
            .iter_mut()
            .find(|s| s.call_id.as_deref() == Some(call_id))
            .ok_or_else(|| FoldError::Call(call_id.to_string()))
    }

    fn call_mut(&mut self, call_id: &str) -> Result<&mut CallRecord, FoldError> {
        call_index(call_id)
            .and_then(|i| self.calls.get_mut(i))
            .filter(|c| c.call.id == call_id)
            .ok_or_else(|| FoldError::Call(call_id.to_string()))
    }

    /// The member of an answered call whose result is not decided yet.
    fn answered_member(&self, call_id: &str) -> Result<String, FoldError> {
        let rec = self
            .call(call_id)
            .filter(|c| c.raw_answer.is_some() && c.result.is_none())
            .ok_or_else(|| FoldError::Call(call_id.to_string()))?;
        Ok(rec.call.member.clone())
    }

    fn apply_edit(&mut self, edit: &PersonEdit) -> Result<(), FoldError> {
        let round = self.round;
        let step = self.step.unwrap_or(Step::Bootstrap);
        let what = match edit {
            PersonEdit::Charter { charter } => {
                self.charter = Some(charter.clone());
                "edited the charter".to_string()
            }
            PersonEdit::AcceptVersion {
                product_id,
                version_id,
            } => {
                self.tree.accept(product_id, version_id)?;
                format!("accepted {version_id} of {product_id}")
            }
            PersonEdit::RejectVersion { product_id, reason } => {
                self.tree.reject(product_id, reason)?;
                format!(
                    "rejected the latest version of {product_id}: {}",
                    one_line(reason, 120)
                )
            }
            PersonEdit::RemarkToChair { content } => {
                self.remarks.push(RemarkView {
                    round,
                    from: "user-1".into(),
                    recipients: vec!["chair".into()],
                    remark_type: "note".into(),
                    content: content.clone(),
                });
                format!("told the chair: {}", one_line(content, 160))
            }
            PersonEdit::Settings { settings } => {
                self.settings = settings.clone();
                format!(
                    "set the limits: {} rounds, budget {}",
                    settings.max_rounds,
                    settings
                        .token_budget
                        .map_or("none".to_string(), |b| b.to_string())
                )
            }
        };
        self.activity.push(ActivityItem {
            round,
            step,
            who: "user-1".into(),
            what,
        });
        Ok(())
    }

    /// Applies a valid, allowed final output of `member` at the current step.
    fn apply_output(
        &mut self,
        member: &str,
        output: &FinalOutput,
    ) -> Result<Vec<String>, FoldError> {
        let round = self.round;
        let step = output.step();
        let mut changes = Vec::new();
        match output {
            FinalOutput::Bootstrap(b) => {
                let mut tree = self.tree.clone();
                let mut added = Vec::new();
                for initial in &b.initial_products {
                    let id = tree.add_initial(initial)?;
                    added.push(format!("added {id} \"{}\"", initial.name));
                }
                self.tree = tree;
                self.charter = Some(Charter {
                    mission: b.mission.clone(),
                    objectives: b.objectives.clone(),
                    constraints: b.constraints.clone(),
                });
                changes.push("set the mission charter".to_string());
                changes.extend(added);
                for (id, persona) in &b.personas {
                    if let Some(m) = self.members.iter_mut().find(|m| &m.id == id) {
                        m.persona = persona.clone();
                    }
                }
                for (id, domain) in &b.operative_domains {
                    self.domains.insert(id.clone(), domain.clone());
                }
                if let Some(missing) = &b.missing_details {
                    self.missing_details.extend(missing.iter().cloned());
                }
            }
            FinalOutput::Reflect(r) => {
                for refl in &r.reflections {
                    let version = self
                        .written
                        .iter()
                        .rev()
                        .find(|w| {
                            w.member == member
                                && w.product_id == refl.refers_to_product
                                && w.round + 1 == round
                        })
                        .map(|w| w.version_id.clone());
                    let dod = dod_word(refl.dod_status);
                    if let Some(v) = version {
                        self.tree.set_reflection_note(
                            &v,
                            format!("DoD {dod}. Next: {}", refl.next_version_delta),
                        )?;
                        changes.push(format!("reflected on {v} of {}", refl.refers_to_product));
                    }
                    self.reflections.push((
                        round,
                        ReflectionView {
                            by: member.to_string(),
                            product_id: refl.refers_to_product.clone(),
                            dod_status: dod.to_string(),
                            next_version_delta: refl.next_version_delta.clone(),
                            blockers: refl.blockers.clone().unwrap_or_default(),
                        },
                    ));
                }
                self.add_collabs(member, step, &r.collabs, &mut changes)?;
                self.add_remarks(member, step, &r.remarks, &mut changes);
            }
            FinalOutput::PlanAssign(p) => {
                // Every tree change of the answer lands on a copy first: all of them or none.
                let mut tree = self.tree.clone();
                let mut new_assignments = Vec::new();
                let mut new_written = Vec::new();
                let applied = tree.apply(&p.tree_operations)?;
                for (i, op) in p.tree_operations.iter().enumerate() {
                    changes.push(describe_op(op, &applied.new_ids, i));
                }
                let resolve = |id: &str| -> String {
                    applied
                        .new_ids
                        .get(id)
                        .cloned()
                        .unwrap_or_else(|| id.to_string())
                };
                for a in &p.assignments {
                    let pid = resolve(&a.product_id);
                    tree.set_assignee(&pid, Some(a.assignee.clone()))?;
                    new_assignments.push(Assignment {
                        round,
                        product_id: pid.clone(),
                        assignee: a.assignee.clone(),
                        directive: a.directive.clone(),
                        attached: a.attached_context.clone().unwrap_or_default(),
                    });
                    changes.push(format!("assigned {pid} to {}", a.assignee));
                }
                for d in &p.acceptance {
                    let pid = resolve(&d.product_id);
                    match (d.accepted, &d.version_id) {
                        (true, Some(v)) => {
                            tree.accept(&pid, v)?;
                            changes.push(format!("accepted {v} of {pid}"));
                        }
                        (true, None) => {
                            let latest = tree
                                .product(&pid)
                                .and_then(|p| p.latest_version().map(str::to_string))
                                .ok_or_else(|| {
                                    FoldError::Unexpected(format!("{pid} has no version to accept"))
                                })?;
                            tree.accept(&pid, &latest)?;
                            changes.push(format!("accepted {latest} of {pid}"));
                        }
                        (false, _) => {
                            let reason = d
                                .rejection_reason
                                .clone()
                                .unwrap_or_else(|| "rejected by the chair".into());
                            tree.reject(&pid, &reason)?;
                            changes.push(format!("rejected the latest version of {pid}"));
                        }
                    }
                }
                for cv in p.chair_versions.iter().flatten() {
                    let pid = resolve(&cv.product_id);
                    let v = tree.add_version(
                        &pid,
                        VersionDraft {
                            title: tree
                                .product(&pid)
                                .map(|p| p.name.clone())
                                .unwrap_or_default(),
                            content: cv.content.clone(),
                            change_summary: cv.change_summary.clone(),
                            author: member.to_string(),
                            round,
                            directive: None,
                            reflection_note: None,
                        },
                    )?;
                    new_written.push(Written {
                        round,
                        step,
                        member: member.to_string(),
                        product_id: pid.clone(),
                        version_id: v.clone(),
                    });
                    changes.push(format!("wrote {v} of {pid}"));
                }
                self.tree = tree;
                self.assignments.extend(new_assignments);
                self.written.extend(new_written);
                self.add_remarks(member, step, &p.remarks, &mut changes);
                if let Some(o) = &p.bootstrap_overrides {
                    let charter = self.charter.get_or_insert_with(Charter::default);
                    if let Some(m) = &o.mission {
                        charter.mission = m.clone();
                        changes.push("changed the mission".into());
                    }
                    if let Some(m) = &o.objectives {
                        charter.objectives = m.clone();
                        changes.push("changed the objectives".into());
                    }
                    for (id, persona) in o.personas.iter().flatten() {
                        if let Some(m) = self.members.iter_mut().find(|m| &m.id == id) {
                            m.persona = persona.clone();
                            changes.push(format!("rewrote the persona of {id}"));
                        }
                    }
                    for (id, patch) in o.operative_domains.iter().flatten() {
                        let d = self.domains.entry(id.clone()).or_insert(OperativeDomain {
                            responsibility: String::new(),
                            area: String::new(),
                        });
                        if let Some(r) = &patch.responsibility {
                            d.responsibility = r.clone();
                        }
                        if let Some(a) = &patch.area {
                            d.area = a.clone();
                        }
                        changes.push(format!("changed the domain of {id}"));
                    }
                }
            }
            FinalOutput::Write(w) => {
                for wv in &w.versions {
                    let directive = self
                        .assignments_of_round(round)
                        .find(|a| a.product_id == wv.product_id && a.assignee == member)
                        .map(|a| a.directive.clone());
                    let v = self.tree.add_version(
                        &wv.product_id,
                        VersionDraft {
                            title: wv.new_version.content_title.clone(),
                            content: wv.new_version.content.clone(),
                            change_summary: wv.new_version.change_summary.clone(),
                            author: member.to_string(),
                            round,
                            directive,
                            reflection_note: None,
                        },
                    )?;
                    self.written.push(Written {
                        round,
                        step,
                        member: member.to_string(),
                        product_id: wv.product_id.clone(),
                        version_id: v.clone(),
                    });
                    changes.push(format!("wrote {v} of {}", wv.product_id));
                }
                self.add_collabs(member, step, &w.collabs, &mut changes)?;
                self.add_remarks(member, step, &w.remarks, &mut changes);
            }
            FinalOutput::PeerReview(p) => {
                for r in &p.reviews {
                    self.assessments.push(AssessmentView {
                        round,
                        by: member.to_string(),
                        kind: "review".into(),
                        product_id: r.product_id.clone(),
                        version_id: r.version_id.clone(),
                        assessment: AssessmentView::review_word(r.assessment).into(),
                        summary: r.summary.clone(),
                    });
                    changes.push(format!(
                        "reviewed {} of {}: {}",
                        r.version_id,
                        r.product_id,
                        AssessmentView::review_word(r.assessment)
                    ));
                }
                self.add_collabs(member, step, &p.collabs, &mut changes)?;
                self.add_remarks(member, step, &p.remarks, &mut changes);
            }
            FinalOutput::Inspection(i) => {
                for ins in &i.inspections {
                    let summary = ins
                        .findings
                        .iter()
                        .map(|f| {
                            format!(
                                "[{:?} {}] {} → {}",
                                f.category, f.severity, f.issue, f.recommendation
                            )
                        })
                        .collect::<Vec<_>>()
                        .join("; ");
                    self.assessments.push(AssessmentView {
                        round,
                        by: member.to_string(),
                        kind: "inspection".into(),
                        product_id: ins.product_id.clone(),
                        version_id: ins.version_id.clone(),
                        assessment: AssessmentView::inspection_word(ins.assessment).into(),
                        summary: if summary.is_empty() {
                            "no findings".into()
                        } else {
                            summary
                        },
                    });
                    changes.push(format!(
                        "inspected {} of {}: {}",
                        ins.version_id,
                        ins.product_id,
                        AssessmentView::inspection_word(ins.assessment)
                    ));
                }
                self.add_collabs(member, step, &i.collabs, &mut changes)?;
                self.add_remarks(member, step, &i.remarks, &mut changes);
            }
            FinalOutput::Presentation(p) => {
                self.presentation = p.messages.clone();
                changes.push(format!(
                    "presented the result in {} message(s)",
                    p.messages.len()
                ));
            }
        }
        for c in &changes {
            self.activity.push(ActivityItem {
                round,
                step,
                who: member.to_string(),
                what: c.clone(),
            });
        }
        Ok(changes)
    }

    fn add_collabs(
        &mut self,
        member: &str,
        _step: Step,
        collabs: &[CollabOutput],
        changes: &mut Vec<String>,
    ) -> Result<(), FoldError> {
        for c in collabs {
            let id = self.tree.add_collab(member, self.round, c)?;
            changes.push(format!(
                "commented {id} on {}: {}",
                c.refers_to_product,
                one_line(&c.shortest_summary, 120)
            ));
        }
        Ok(())
    }

    fn add_remarks(
        &mut self,
        member: &str,
        _step: Step,
        remarks: &[RemarkOutput],
        changes: &mut Vec<String>,
    ) {
        for r in remarks {
            self.remarks.push(RemarkView {
                round: self.round,
                from: member.to_string(),
                recipients: r.recipients.clone(),
                remark_type: serde_json::to_value(r.remark_type)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default(),
                content: r.content.clone(),
            });
            changes.push(format!(
                "remarked to {}: {}",
                r.recipients.join(", "),
                one_line(&r.content, 120)
            ));
        }
    }
}

fn dod_word(s: crate::schema::DodStatus) -> &'static str {
    match s {
        crate::schema::DodStatus::Met => "met",
        crate::schema::DodStatus::PartiallyMet => "partially_met",
        crate::schema::DodStatus::NotMet => "not_met",
    }
}

fn describe_op(op: &TreeOperation, new_ids: &BTreeMap<String, String>, _i: usize) -> String {
    match op {
        TreeOperation::Add {
            new_id,
            parent_id,
            product,
            ..
        } => format!(
            "added {} \"{}\" under {}",
            new_ids.get(new_id).map_or(new_id.as_str(), String::as_str),
            product.name,
            new_ids
                .get(parent_id)
                .map_or(parent_id.as_str(), String::as_str)
        ),
        TreeOperation::Remove { product_id, .. } => format!("removed {product_id}"),
        TreeOperation::Move {
            product_id,
            parent_id,
            ..
        } => format!(
            "moved {product_id} under {}",
            new_ids
                .get(parent_id)
                .map_or(parent_id.as_str(), String::as_str)
        ),
        TreeOperation::Update { product_id, .. } => format!("updated {product_id}"),
    }
}

/// `call-12` → index 11 in `calls`.
fn call_index(id: &str) -> Option<usize> {
    id.strip_prefix("call-")?
        .parse::<usize>()
        .ok()?
        .checked_sub(1)
}

// ---------------------------------------------------------------------------------------------
// The engine: decisions, recorded as events.
// ---------------------------------------------------------------------------------------------

enum Move {
    Step(u32, Step, Vec<String>),
    Round(u32),
    Finish,
}

fn next_move(s: &TeamState) -> Move {
    if s.rounds_ended {
        if s.step == Some(Step::Presentation) || s.charter.is_none() {
            return Move::Finish;
        }
        return Move::Step(
            s.round,
            Step::Presentation,
            s.members_for(Step::Presentation),
        );
    }
    const ROUND: [Step; 5] = [
        Step::Reflect,
        Step::PlanAssign,
        Step::Write,
        Step::PeerReview,
        Step::Inspection,
    ];
    match (s.round, s.step) {
        (0, None) => Move::Step(0, Step::Bootstrap, vec!["chair".into()]),
        (0, Some(_)) => Move::Round(1),
        (r, current) => {
            let from = match current {
                None => 0,
                Some(step) => ROUND
                    .iter()
                    .position(|x| *x == step)
                    .map_or(ROUND.len(), |i| i + 1),
            };
            for step in &ROUND[from..] {
                let members = s.members_for(*step);
                if !members.is_empty() {
                    return Move::Step(r, *step, members);
                }
            }
            Move::Round(r + 1)
        }
    }
}

/// Why a paused session cannot resume yet, if it cannot.
pub fn still_blocked(s: &TeamState, reason: &PauseReason) -> Option<String> {
    match reason {
        PauseReason::RoundLimit { .. } if !s.rounds_ended && s.round >= s.settings.max_rounds && round_complete(s) => {
            Some(format!(
                "the round limit ({}) is still reached: raise it in the settings or ask for the presentation",
                s.settings.max_rounds
            ))
        }
        PauseReason::TokenBudget { .. } => budget_spent(s).map(|(used, budget)| {
            format!("the token budget is still spent ({used} of {budget}): raise it or ask for the presentation")
        }),
        PauseReason::MissingCharter if s.charter.as_ref().is_none_or(|c| !c.is_complete()) => {
            Some("the charter still lacks a mission, objectives or constraints".into())
        }
        _ => None,
    }
}

fn round_complete(s: &TeamState) -> bool {
    s.slots.iter().all(|x| x.done)
}

fn budget_spent(s: &TeamState) -> Option<(u64, u64)> {
    s.settings
        .token_budget
        .filter(|b| s.tokens_used >= *b)
        .map(|b| (s.tokens_used, b))
}

/// Checks a person's edit against the state before it is recorded.
pub fn check_edit(s: &TeamState, edit: &PersonEdit) -> Result<(), String> {
    match edit {
        PersonEdit::Charter { charter } => {
            if charter.mission.chars().count() > crate::schema::limits::MISSION_MAX {
                return Err(format!(
                    "the mission is longer than {} characters",
                    crate::schema::limits::MISSION_MAX
                ));
            }
            Ok(())
        }
        PersonEdit::AcceptVersion {
            product_id,
            version_id,
        } => {
            let mut tree = s.tree.clone();
            tree.accept(product_id, version_id)
                .map_err(|e| e.to_string())
        }
        PersonEdit::RejectVersion { product_id, .. } => match s.tree.product(product_id) {
            Some(p) if p.status != ProductStatus::Removed => Ok(()),
            _ => Err(format!("there is no product {product_id}")),
        },
        PersonEdit::RemarkToChair { content } => {
            if content.trim().is_empty() {
                Err("the remark is empty".into())
            } else {
                Ok(())
            }
        }
        PersonEdit::Settings { settings } => {
            if settings.max_rounds == 0 {
                Err("the round limit must be at least 1".into())
            } else {
                Ok(())
            }
        }
    }
}

/// Issues whatever is due: calls for members of the current step that have none out, the next
/// step or round when the current one is complete, pauses when a limit is reached.
pub fn advance(session: &mut Session, now: u64) -> Result<(), EngineError> {
    loop {
        let s = session.state();
        if s.status != Status::Running {
            return Ok(());
        }
        let has_open = s.slots.iter().any(|x| !x.done);
        if has_open {
            let due: Vec<String> = s
                .slots
                .iter()
                .filter(|x| !x.done && !x.exhausted && x.call_id.is_none())
                .map(|x| x.member.clone())
                .collect();
            for member in due {
                if let Some((used, budget)) = budget_spent(session.state()) {
                    session.record(
                        EventKind::Paused {
                            reason: PauseReason::TokenBudget { used, budget },
                        },
                        now,
                    )?;
                    return Ok(());
                }
                let call = build_call(session.state(), &member);
                session.record(
                    EventKind::CallIssued {
                        call: Box::new(call),
                    },
                    now,
                )?;
            }
            return Ok(());
        }
        match next_move(s) {
            Move::Finish => {
                session.record(EventKind::Finished, now)?;
                return Ok(());
            }
            Move::Round(r) => {
                if r > s.settings.max_rounds {
                    let max_rounds = s.settings.max_rounds;
                    session.record(
                        EventKind::Paused {
                            reason: PauseReason::RoundLimit { max_rounds },
                        },
                        now,
                    )?;
                    return Ok(());
                }
                session.record(EventKind::RoundStarted { round: r }, now)?;
            }
            Move::Step(round, step, members) => {
                if step != Step::Bootstrap && s.charter.as_ref().is_none_or(|c| !c.is_complete()) {
                    session.record(
                        EventKind::Paused {
                            reason: PauseReason::MissingCharter,
                        },
                        now,
                    )?;
                    return Ok(());
                }
                session.record(
                    EventKind::StepStarted {
                        round,
                        step,
                        members,
                    },
                    now,
                )?;
            }
        }
    }
}

/// Builds the next call of `member` at the current step: a fresh prompt, or the continued
/// conversation after served context or a repair prompt.
fn build_call(s: &TeamState, member: &str) -> ModelCall {
    let step = s.step.unwrap_or(Step::Bootstrap);
    let slot = s.slots.iter().find(|x| x.member == member);
    let envelope = context::build_envelope(s, member, step);
    let (kind, messages) = match slot {
        Some(slot) if !slot.messages.is_empty() => (slot.next_kind, slot.messages.clone()),
        _ => {
            let prompt = context::render_prompt(&envelope);
            (
                CallKind::Initial,
                vec![
                    Message::new(ChatRole::System, prompt.system),
                    Message::new(ChatRole::User, prompt.user),
                ],
            )
        }
    };
    ModelCall {
        id: format!("call-{}", s.calls.len() + 1),
        member: member.to_string(),
        step,
        round: s.round,
        kind,
        token_estimate: estimate_messages(&messages),
        messages,
        schema: serde_json::Value::Null,
        envelope,
    }
}

/// The engine side of [`Session::submit`].
pub fn submit(
    session: &mut Session,
    call_id: &str,
    raw: &str,
    usage: Option<Usage>,
    now: u64,
) -> Result<Outcome, EngineError> {
    let s = session.state();
    let outstanding = s
        .slots
        .iter()
        .any(|x| x.call_id.as_deref() == Some(call_id));
    if !outstanding {
        let reason = match s.call(call_id) {
            None => "no call has this id".to_string(),
            Some(c) if matches!(c.result, Some(CallResult::Superseded)) => {
                "the call was superseded".to_string()
            }
            Some(c) if c.raw_answer.is_some() => "the call was already answered".to_string(),
            Some(_) => "the call is no longer outstanding".to_string(),
        };
        session.record(
            EventKind::AnswerRefused {
                call_id: call_id.to_string(),
                raw: raw.to_string(),
                reason: reason.clone(),
            },
            now,
        )?;
        return Err(EngineError::CallNotOutstanding {
            call_id: call_id.to_string(),
            reason,
        });
    }
    let Some(record) = s.call(call_id) else {
        return Err(EngineError::CallNotOutstanding {
            call_id: call_id.to_string(),
            reason: "no call has this id".into(),
        });
    };
    let step = record.call.step;
    let member = record.call.member.clone();
    let tokens = usage
        .map(|u| u.input_tokens + u.output_tokens)
        .filter(|t| *t > 0)
        .unwrap_or(record.call.token_estimate + estimate_tokens(raw));
    session.record(
        EventKind::AnswerReceived {
            call_id: call_id.to_string(),
            raw: raw.to_string(),
            usage,
            tokens,
        },
        now,
    )?;
    let options = validate::Options {
        truncated: usage.is_some_and(|u| u.stopped_for_length),
    };
    let verdict = validate::validate_step_with(step, raw, Some(session.known_now()), options);
    let outcome = match verdict {
        Err(report) => invalid(session, call_id, &member, report, now)?,
        Ok(validated) => match validated.answer {
            StepAnswer::RequestContext { context_requests } => {
                let s = session.state();
                let made = s
                    .slots
                    .iter()
                    .find(|x| x.member == member)
                    .map_or(0, |x| x.context_requests);
                let max = s.settings.max_context_requests;
                if made >= max {
                    let report = Report {
                        step,
                        errors: vec![Violation {
                            path: "/responseType".into(),
                            message: format!(
                                "you already asked for context {made} time(s) at this step; no more requests are allowed"
                            ),
                            expected: "\"final_output\"".into(),
                            received: "\"request_context\"".into(),
                            hint: "answer with responseType \"final_output\" using what you have".into(),
                        }],
                        warnings: validated.warnings,
                    };
                    invalid(session, call_id, &member, report, now)?
                } else {
                    let slices = serve_context(s, &member, &context_requests);
                    let left = max - made - 1;
                    let follow_up = context::follow_up_text(step, &slices, left);
                    session.record(
                        EventKind::ContextServed {
                            call_id: call_id.to_string(),
                            requests: context_requests,
                            slices,
                            follow_up,
                            warnings: validated.warnings,
                        },
                        now,
                    )?;
                    Outcome::ContextServed
                }
            }
            StepAnswer::Halt { halt } => {
                let done = halt.halt_type == HaltType::Done;
                session.record(
                    EventKind::HaltRaised {
                        call_id: call_id.to_string(),
                        halt,
                        warnings: validated.warnings,
                    },
                    now,
                )?;
                if done {
                    Outcome::RoundsEnded
                } else {
                    Outcome::AwaitingPerson
                }
            }
            StepAnswer::FinalOutput { output } => {
                let mut errors = check_output(session.state(), &member, step, &output);
                if errors.is_empty() {
                    let kind = EventKind::Applied {
                        call_id: call_id.to_string(),
                        output: Box::new(output),
                        warnings: validated.warnings.clone(),
                    };
                    // Bootstrap and PlanAssign apply their tree changes all-or-nothing; the other
                    // steps were fully checked above, so a refusal here leaves the state as it was.
                    match session.record(kind, now) {
                        Ok(()) => {}
                        Err(EngineError::Internal(e)) => errors.push(fold_violation(&e)),
                        Err(e) => return Err(e),
                    }
                }
                if errors.is_empty() {
                    Outcome::Applied
                } else {
                    let report = Report {
                        step,
                        errors,
                        warnings: validated.warnings,
                    };
                    invalid(session, call_id, &member, report, now)?
                }
            }
        },
    };
    advance(session, now)?;
    Ok(outcome)
}

fn invalid(
    session: &mut Session,
    call_id: &str,
    member: &str,
    report: Report,
    now: u64,
) -> Result<Outcome, EngineError> {
    let repair_prompt = repair_text(&report);
    session.record(
        EventKind::AnswerInvalid {
            call_id: call_id.to_string(),
            report: report.clone(),
            repair_prompt,
        },
        now,
    )?;
    let exhausted = session
        .state()
        .slots
        .iter()
        .any(|x| x.member == member && x.exhausted);
    if exhausted {
        let step = session.state().step.unwrap_or(Step::Bootstrap);
        session.record(
            EventKind::Paused {
                reason: PauseReason::InvalidAnswer {
                    member: member.to_string(),
                    step,
                    report: report.clone(),
                },
            },
            now,
        )?;
    }
    Ok(Outcome::Invalid {
        report,
        paused: exhausted,
    })
}

/// The repair prompt sent back to the model.
fn repair_text(report: &Report) -> String {
    report.repair_prompt()
}

fn fold_violation(e: &FoldError) -> Violation {
    let (path, message) = match e {
        FoldError::Tree(TreeError::Operation { index, reason, .. }) => {
            (format!("/treeOperations/{index}"), reason.to_string())
        }
        other => (String::new(), other.to_string()),
    };
    Violation {
        path,
        message: format!("this change cannot be applied: {message}"),
        expected: "a change the product tree accepts".into(),
        received: "a change the tree refused".into(),
        hint: "fix this part using the ids and names in the current project structure".into(),
    }
}

fn violation(
    path: String,
    message: String,
    expected: &str,
    received: &str,
    hint: &str,
) -> Violation {
    Violation {
        path,
        message,
        expected: expected.to_string(),
        received: received.to_string(),
        hint: hint.to_string(),
    }
}

/// The engine's own rules on a valid output: what this member may change at this step.
pub fn check_output(
    s: &TeamState,
    member: &str,
    step: Step,
    output: &FinalOutput,
) -> Vec<Violation> {
    let mut errors = Vec::new();
    if output.step() != step {
        errors.push(violation(
            String::new(),
            format!(
                "this answer is for {} but the step is {}",
                output.step(),
                step
            ),
            step.wire_name(),
            output.step().wire_name(),
            "answer the step you were asked",
        ));
        return errors;
    }
    let team: BTreeSet<&str> = s.members.iter().map(|m| m.id.as_str()).collect();
    match output {
        FinalOutput::Bootstrap(b) => {
            let mut names = BTreeSet::new();
            for (i, p) in b.initial_products.iter().enumerate() {
                let key = p.name.trim().to_lowercase();
                if key.is_empty() || !names.insert(key) {
                    errors.push(violation(
                        format!("/initialProducts/{i}/name"),
                        "initial product names must be non-empty and distinct".into(),
                        "a new, distinct name",
                        &p.name,
                        "give every initial product its own name",
                    ));
                }
                if let Some(owner) = &p.owner {
                    if !team.contains(owner.as_str()) {
                        errors.push(violation(
                            format!("/initialProducts/{i}/owner"),
                            format!("{owner} is not a member of the team"),
                            "a member id or null",
                            owner,
                            "use one of the member ids listed in the team",
                        ));
                    }
                }
            }
        }
        FinalOutput::Reflect(r) => {
            let wrote: BTreeSet<&str> = s
                .written
                .iter()
                .filter(|w| w.member == member && w.round + 1 == s.round)
                .map(|w| w.product_id.as_str())
                .collect();
            for (i, refl) in r.reflections.iter().enumerate() {
                if !wrote.contains(refl.refers_to_product.as_str()) {
                    errors.push(violation(
                        format!("/reflections/{i}/refersToProduct"),
                        format!("you did not write {} last round", refl.refers_to_product),
                        "a product you wrote last round",
                        &refl.refers_to_product,
                        "reflect only on the products listed under 'Products you worked on last round'",
                    ));
                }
            }
            check_collabs(s, member, &r.collabs, &mut errors);
        }
        FinalOutput::PlanAssign(p) => {
            let new_ids: BTreeSet<&str> = p
                .tree_operations
                .iter()
                .filter_map(|op| match op {
                    TreeOperation::Add { new_id, .. } => Some(new_id.as_str()),
                    _ => None,
                })
                .collect();
            let mut assigned = BTreeSet::new();
            for (i, a) in p.assignments.iter().enumerate() {
                if !team.contains(a.assignee.as_str()) {
                    errors.push(violation(
                        format!("/assignments/{i}/assignee"),
                        format!("{} is not a member of the team", a.assignee),
                        "a member id",
                        &a.assignee,
                        "assign products to team members only",
                    ));
                }
                let known_product = new_ids.contains(a.product_id.as_str())
                    || s.tree
                        .product(&a.product_id)
                        .is_some_and(|p| p.status != ProductStatus::Removed);
                if !known_product {
                    errors.push(violation(
                        format!("/assignments/{i}/productId"),
                        format!("there is no product {}", a.product_id),
                        "an existing product id or a new-N added in treeOperations",
                        &a.product_id,
                        "use ids from the current project structure",
                    ));
                }
                if !assigned.insert(a.product_id.as_str()) {
                    errors.push(violation(
                        format!("/assignments/{i}/productId"),
                        format!("{} is assigned twice", a.product_id),
                        "each product at most once",
                        &a.product_id,
                        "give each product one assignee per round",
                    ));
                }
            }
            for (i, d) in p.acceptance.iter().enumerate() {
                if d.accepted && d.version_id.is_none() {
                    let has_version = s
                        .tree
                        .product(&d.product_id)
                        .is_some_and(|p| p.latest_version().is_some());
                    if !has_version {
                        errors.push(violation(
                            format!("/acceptance/{i}/versionId"),
                            format!("{} has no version to accept", d.product_id),
                            "the id of the version you accept",
                            "nothing",
                            "accept only products that have a version",
                        ));
                    }
                }
            }
        }
        FinalOutput::Write(w) => {
            let mine: BTreeSet<&str> = s
                .assignments_of_round(s.round)
                .filter(|a| a.assignee == member)
                .map(|a| a.product_id.as_str())
                .collect();
            let mut seen = BTreeSet::new();
            for (i, v) in w.versions.iter().enumerate() {
                if !mine.contains(v.product_id.as_str()) {
                    errors.push(violation(
                        format!("/versions/{i}/productId"),
                        format!("{} is not assigned to you this round", v.product_id),
                        &format!("one of: {}", mine.iter().copied().collect::<Vec<_>>().join(", ")),
                        &v.product_id,
                        "write versions only for the products assigned to you; comment on others with a collab",
                    ));
                } else if !seen.insert(v.product_id.as_str()) {
                    errors.push(violation(
                        format!("/versions/{i}/productId"),
                        format!("two versions of {} in one answer", v.product_id),
                        "one version per product",
                        &v.product_id,
                        "merge them into one version",
                    ));
                }
            }
            check_collabs(s, member, &w.collabs, &mut errors);
        }
        FinalOutput::PeerReview(p) => {
            let targets: BTreeSet<(&str, &str)> = s
                .to_review(member, Step::PeerReview)
                .into_iter()
                .map(|w| (w.product_id.as_str(), w.version_id.as_str()))
                .collect();
            for (i, r) in p.reviews.iter().enumerate() {
                if !targets.contains(&(r.product_id.as_str(), r.version_id.as_str())) {
                    errors.push(violation(
                        format!("/reviews/{i}"),
                        format!(
                            "{} of {} is not a version for you to review",
                            r.version_id, r.product_id
                        ),
                        "a productId/versionId pair from 'Versions to review'",
                        &format!("{}/{}", r.product_id, r.version_id),
                        "review only others' versions written this round, as listed",
                    ));
                }
            }
            check_collabs(s, member, &p.collabs, &mut errors);
        }
        FinalOutput::Inspection(ins) => {
            let targets: BTreeSet<(&str, &str)> = s
                .to_review(member, Step::Inspection)
                .into_iter()
                .map(|w| (w.product_id.as_str(), w.version_id.as_str()))
                .collect();
            for (i, r) in ins.inspections.iter().enumerate() {
                if !targets.contains(&(r.product_id.as_str(), r.version_id.as_str())) {
                    errors.push(violation(
                        format!("/inspections/{i}"),
                        format!(
                            "{} of {} is not a version of this round",
                            r.version_id, r.product_id
                        ),
                        "a productId/versionId pair from 'Versions to inspect'",
                        &format!("{}/{}", r.product_id, r.version_id),
                        "inspect only the versions listed",
                    ));
                }
            }
            check_collabs(s, member, &ins.collabs, &mut errors);
        }
        FinalOutput::Presentation(p) => {
            for (i, m) in p.messages.iter().enumerate() {
                if !team.contains(m.as_agent.as_str()) {
                    errors.push(violation(
                        format!("/messages/{i}/asAgent"),
                        format!("{} is not a member of the team", m.as_agent),
                        "a member id",
                        &m.as_agent,
                        &format!("speak as {member}"),
                    ));
                }
            }
        }
    }
    errors
}

/// Collabs must be about live products, name a version of that product, and not repeat a comment
/// the member already made on it (spec 003: no duplicate comments).
fn check_collabs(
    s: &TeamState,
    member: &str,
    collabs: &[CollabOutput],
    errors: &mut Vec<Violation>,
) {
    let mut seen: BTreeSet<(String, String)> = BTreeSet::new();
    for (i, c) in collabs.iter().enumerate() {
        let Some(product) = s
            .tree
            .product(&c.refers_to_product)
            .filter(|p| p.status != ProductStatus::Removed)
        else {
            errors.push(violation(
                format!("/collabs/{i}/refersToProduct"),
                format!("there is no product {}", c.refers_to_product),
                "a product id of the current structure",
                &c.refers_to_product,
                "use ids from the current project structure",
            ));
            continue;
        };
        if let Some(v) = &c.refers_to_version {
            if !product.versions.iter().any(|x| x == v) {
                errors.push(violation(
                    format!("/collabs/{i}/refersToVersion"),
                    format!("{v} is not a version of {}", c.refers_to_product),
                    &format!("one of: {}", product.versions.join(", ")),
                    v,
                    "name a version of the product the collab is about, or leave refersToVersion out",
                ));
            }
        }
        let key = (c.refers_to_product.clone(), c.comment.trim().to_string());
        let repeated = !seen.insert(key.clone())
            || s.tree
                .collabs_on(&c.refers_to_product)
                .any(|x| x.author == member && x.comment.trim() == key.1);
        if repeated {
            errors.push(violation(
                format!("/collabs/{i}/comment"),
                format!("you already made this comment on {}", c.refers_to_product),
                "a new comment",
                &one_line(&c.comment, 60),
                "do not repeat a comment; if you agree with something, say so briefly in a new one",
            ));
        }
    }
}

/// Answers a `request_context` with the asked slices (each at most a few thousand characters).
pub fn serve_context(
    s: &TeamState,
    member: &str,
    requests: &[ContextRequest],
) -> Vec<ContextSlice> {
    const MAX: usize = 12_000;
    requests
        .iter()
        .map(|r| {
            let text = match s.tree.product(&r.product_id) {
                None => format!("There is no product {}.", r.product_id),
                Some(p) => match r.need {
                    ContextNeed::FullContent => {
                        match p.latest_version().and_then(|v| s.tree.version(v)) {
                            Some(v) => format!(
                                "{} \"{}\" by {} (round {}):\n{}",
                                v.id, v.title, v.author, v.round, v.content
                            ),
                            None => format!("{} has no version yet.", p.id),
                        }
                    }
                    ContextNeed::VersionHistory => {
                        let lines: Vec<String> = p
                            .versions
                            .iter()
                            .filter_map(|v| s.tree.version(v))
                            .map(|v| {
                                format!(
                                    "- {} (round {}, by {}) \"{}\": {}{}",
                                    v.id,
                                    v.round,
                                    v.author,
                                    v.title,
                                    one_line(&v.change_summary, 300),
                                    v.reflection_note
                                        .as_deref()
                                        .map(|n| format!(" | reflection: {}", one_line(n, 300)))
                                        .unwrap_or_default()
                                )
                            })
                            .collect();
                        if lines.is_empty() {
                            format!("{} has no version yet.", p.id)
                        } else {
                            lines.join("\n")
                        }
                    }
                    ContextNeed::AllFeedback => {
                        let lines: Vec<String> = s
                            .tree
                            .collabs_on(&p.id)
                            .map(|c| {
                                format!(
                                    "- {} by {} (round {}, {:?}, importance {}): {}",
                                    c.id, c.author, c.round, c.collab_type, c.importance, c.comment
                                )
                            })
                            .collect();
                        if lines.is_empty() {
                            format!("Nobody commented on {} yet.", p.id)
                        } else {
                            lines.join("\n")
                        }
                    }
                    ContextNeed::PeerContent => {
                        let mut parts = Vec::new();
                        let family =
                            std::iter::once(p).chain(s.tree.products().iter().filter(|c| {
                                c.parent.as_deref() == Some(p.id.as_str())
                                    && c.status != ProductStatus::Removed
                            }));
                        for q in family {
                            if let Some(v) = q.latest_version().and_then(|v| s.tree.version(v)) {
                                if v.author != member {
                                    parts.push(format!(
                                        "{} \"{}\" — {} by {}:\n{}",
                                        q.id, q.name, v.id, v.author, v.content
                                    ));
                                }
                            }
                        }
                        if parts.is_empty() {
                            format!("No other member has written {} or its children yet.", p.id)
                        } else {
                            parts.join("\n\n")
                        }
                    }
                },
            };
            ContextSlice {
                product_id: r.product_id.clone(),
                need: r.need,
                text: cut(&text, MAX),
            }
        })
        .collect()
}
