//! The meeting of spec `001`: an orchestrator moves the attendees through seven phases, giving
//! the floor turn by turn, and writes the minutes when the meeting ends.
//!
//! A round is one turn: the orchestrator's decision ([`MeetingStep::Decide`]) and, when it gave
//! someone the floor, that attendee's contribution ([`MeetingStep::Speak`]). A decision that breaks
//! `001`'s rules is not sent back for repair: a deterministic rule decides in its place (next
//! speaker in turn; the next phase once everyone has spoken in this one or its turn limit is
//! reached; the end after Conclusion), recorded as a `fell_back` event with the refused answer. When
//! the meeting ends (the orchestrator's `end_meeting`, or the person's wrap-up), the orchestrator
//! writes the minutes ([`MeetingStep::Minutes`]): decisions, action items with owners, open
//! questions.

pub mod answer;
pub mod config;
mod demo;
mod prompt;
#[rustfmt::skip]
mod shape;
mod view;

use serde::{Deserialize, Serialize};

pub use self::answer::{ActionItem, Contribution, Decision, Minutes, Phase};
pub use self::config::{Attendee, MeetingConfig, MeetingConfigError, MeetingRole};
pub use self::prompt::{MeetingEnvelope, TRANSCRIPT_BUDGET};
pub use self::view::{AttendeeMark, MeetingView, PhaseMark, PhaseState, TurnKind, TurnView};
use roundtable_engine::engine::{
    Core, DemoReply, EngineEdit, Event, EventKind, Findings, FoldError, IdChoice, Judgement,
    JudgementOf, MemberChange, Message, ModelRef, Move, MoveOf, Protocol, Settings, StoredCall,
};
use roundtable_engine::text::one_line;
use roundtable_engine::validate::{self, Violation};

/// A meeting: the engine driving the meeting protocol.
pub type MeetingSession = roundtable_engine::engine::KindEngine<MeetingState>;

/// The id of the person, who may own action items.
pub const PERSON: &str = "user-1";

/// The steps of a turn, and the closing step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MeetingStep {
    /// The orchestrator decides what happens next (spec `001`).
    Decide,
    /// The attendee who has the floor speaks.
    Speak,
    /// The orchestrator writes the minutes.
    Minutes,
}

/// A valid answer of a meeting step, as the fold applies it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MeetingOutput {
    /// The orchestrator's decision.
    Decision(Decision),
    /// An attendee's contribution.
    Contribution(Contribution),
    /// The minutes.
    Minutes(Minutes),
}

/// A person's edit of a meeting.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "snake_case")]
pub enum MeetingEdit {
    /// A remark to the meeting, shown to every attendee from the next call on.
    Remark {
        /// What the person says.
        content: String,
    },
    /// An attendee's provider and model, or its persona, changed (a fork's what-if).
    Member(MemberChange),
}
roundtable_engine::tagged::tagged!([] MeetingEdit, tag = "edit");

/// A meeting never waits for the person on its own account (it has no reason of its own to
/// pause), so this has no values.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum MeetingBlock {}

/// One entry of the meeting's transcript.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "turn", rename_all = "snake_case")]
pub enum Turn {
    /// The orchestrator decided (or the fallback rule decided in its place).
    Decision {
        /// Round.
        round: u32,
        /// The phase it was decided in.
        phase: Phase,
        /// The decision.
        decision: Decision,
        /// True when the orchestrator's answer was refused and the rule decided.
        fell_back: bool,
        /// When the rule decided: why the orchestrator's decision was not usable (its first
        /// violation), so the transcript says why the rule spoke.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        refused: Option<String>,
    },
    /// An attendee spoke.
    Contribution {
        /// Round.
        round: u32,
        /// The phase.
        phase: Phase,
        /// Attendee id.
        speaker: String,
        /// What it said (Markdown).
        text: String,
    },
    /// The person remarked.
    Remark {
        /// Round.
        round: u32,
        /// What the person said.
        text: String,
    },
}

/// The whole state of a meeting: what the fold of its events gives.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MeetingState {
    /// The engine's part.
    pub core: Core,
    /// The agenda, verbatim.
    pub agenda: String,
    /// The attendees, the orchestrator included.
    pub attendees: Vec<Attendee>,
    /// Speaking turns a phase may take.
    pub max_turns_per_phase: u32,
    /// The current phase.
    pub phase: Phase,
    /// Who spoke in the current phase, in order.
    pub spoken: Vec<String>,
    /// Every decision, contribution and remark, in order.
    pub transcript: Vec<Turn>,
    /// Who has the floor this round, and why (set by a `continue`).
    pub floor: Option<(String, String)>,
    /// Why the meeting ended, once the orchestrator (or the rule) ended it.
    pub ended: Option<String>,
    /// The minutes, once written.
    pub minutes: Option<Minutes>,
}

impl MeetingState {
    /// The orchestrator's id.
    pub fn orchestrator(&self) -> &str {
        self.attendees
            .iter()
            .find(|a| a.meeting_role == MeetingRole::Orchestrator)
            .map_or("orchestrator", |a| a.id.as_str())
    }

    /// The participants' ids, in attendee order.
    pub fn participants(&self) -> Vec<&str> {
        self.attendees
            .iter()
            .filter(|a| a.meeting_role == MeetingRole::Participant)
            .map(|a| a.id.as_str())
            .collect()
    }

    /// The attendee with this id.
    pub fn attendee(&self, id: &str) -> Option<&Attendee> {
        self.attendees.iter().find(|a| a.id == id)
    }

    /// Whether the current phase has used its speaking turns.
    pub fn phase_turns_used(&self) -> bool {
        self.spoken.len() as u32 >= self.max_turns_per_phase
    }

    /// The decision the deterministic rule of `001`'s fallback makes now: the next participant in
    /// turn who has not spoken in this phase; the next phase once everyone has (or the phase's
    /// turns are used); the end after Conclusion.
    pub fn fallback_decision(&self) -> Decision {
        let participants = self.participants();
        let everyone_spoke = participants
            .iter()
            .all(|p| self.spoken.iter().any(|s| s == p));
        if everyone_spoke || self.phase_turns_used() {
            return match self.phase.next() {
                Some(next) => Decision::ChangePhase {
                    new_phase: next,
                    rationale: format!(
                        "Fallback rule: {} is complete, so the meeting moves on.",
                        self.phase.name()
                    ),
                },
                None => Decision::EndMeeting {
                    end_reason: "The agenda is complete.".into(),
                    rationale: "Fallback rule: the Conclusion phase is complete.".into(),
                },
            };
        }
        // The rotation runs across phases: it starts after whoever spoke last in the meeting,
        // so when a phase has fewer turns than participants the last ones still get the floor
        // in the next phase.
        let last_speaker = self.spoken.last().map(String::as_str).or_else(|| {
            self.transcript.iter().rev().find_map(|t| match t {
                Turn::Contribution { speaker, .. } => Some(speaker.as_str()),
                _ => None,
            })
        });
        let last = last_speaker.and_then(|l| participants.iter().position(|p| *p == l));
        let start = last.map_or(0, |i| i + 1);
        let next = (0..participants.len())
            .map(|k| participants[(start + k) % participants.len()])
            .find(|p| !self.spoken.iter().any(|s| s == p))
            .unwrap_or(participants[0]);
        Decision::Continue {
            next_agent_id: next.to_string(),
            // Attendees by name and the phase as people write it: the rationale is read in the
            // transcript and the minutes.
            rationale: format!(
                "Fallback rule: {} is next in turn and has not spoken yet in {}.",
                self.attendee(next).map_or(next, |a| a.name.as_str()),
                self.phase.title()
            ),
        }
    }

    /// `001`'s rules beyond the shape, against the meeting as it stands — the orchestrator's
    /// policy, said in its prompt and checked here (a decision that breaks one is not repaired:
    /// the fallback rule decides, 001):
    /// - `continue` only while the phase has speaking turns left;
    /// - `change_phase` only to the next phase: phases move forward, one at a time;
    /// - `end_meeting` only in the last phases (ExecutionPlanning, Conclusion): earlier, the
    ///   person ends the meeting themselves (wrap up), and sees why in the end reason.
    fn decision_rules(&self, decision: &Decision) -> Vec<Violation> {
        phase_policy(
            decision,
            self.phase,
            self.phase_turns_used(),
            self.max_turns_per_phase,
        )
    }

    /// Whether the orchestrator may end the meeting in `phase`: only in the last two.
    pub fn may_end_in(phase: Phase) -> bool {
        matches!(phase, Phase::ExecutionPlanning | Phase::Conclusion)
    }

    /// Folds an applied (or fallen-back) output; returns the change in words.
    fn apply(
        &mut self,
        call_id: &str,
        output: &MeetingOutput,
        refused: Option<&Findings>,
    ) -> Result<Vec<String>, FoldError> {
        let fell_back = refused.is_some();
        let round = self.core.round;
        let change = match output {
            MeetingOutput::Decision(decision) => {
                match decision {
                    Decision::Continue {
                        next_agent_id,
                        rationale,
                    } => {
                        if self.attendee(next_agent_id).is_none() {
                            return Err(FoldError::Refused {
                                pointer: "/next_agent_id".into(),
                                reason: format!("{next_agent_id} is not an attendee"),
                                expected: "an attendee's id".into(),
                                received: next_agent_id.clone(),
                            });
                        }
                        self.floor = Some((next_agent_id.clone(), rationale.clone()));
                    }
                    Decision::ChangePhase { new_phase, .. } => {
                        self.phase = *new_phase;
                        self.spoken.clear();
                    }
                    Decision::EndMeeting { end_reason, .. } => {
                        self.ended = Some(end_reason.clone());
                    }
                }
                self.transcript.push(Turn::Decision {
                    round,
                    phase: self.phase,
                    decision: decision.clone(),
                    fell_back,
                    refused: refused
                        .and_then(|f| f.errors.first())
                        .map(|v| v.message.clone()),
                });
                self.decision_words(decision)
            }
            MeetingOutput::Contribution(c) => {
                let speaker = self.core.answered_member(call_id)?.to_string();
                self.spoken.push(speaker.clone());
                self.transcript.push(Turn::Contribution {
                    round,
                    phase: self.phase,
                    speaker: speaker.clone(),
                    text: c.contribution.clone(),
                });
                format!(
                    "{} spoke: {}",
                    self.member_name(&speaker),
                    one_line(&c.contribution, 100)
                )
            }
            MeetingOutput::Minutes(m) => {
                self.minutes = Some(m.clone());
                format!(
                    "wrote the minutes: {}, {}, {}",
                    roundtable_engine::text::count(m.decisions.len(), "decision", "decisions"),
                    roundtable_engine::text::count(
                        m.action_items.len(),
                        "action item",
                        "action items"
                    ),
                    roundtable_engine::text::count(
                        m.open_questions.len(),
                        "open question",
                        "open questions"
                    )
                )
            }
        };
        Ok(vec![change])
    }

    /// How far the meeting has got, in percent: the phases before the current one, plus the
    /// current phase's share of its speaking turns; 100 once the minutes are written.
    pub fn progress(&self) -> u32 {
        if self.minutes.is_some() {
            return 100;
        }
        let phase = Phase::ALL
            .iter()
            .position(|p| *p == self.phase)
            .unwrap_or(0) as f64;
        let within = (self.spoken.len() as f64 / self.max_turns_per_phase.max(1) as f64).min(1.0);
        ((phase + within) / Phase::ALL.len() as f64 * 100.0).round() as u32
    }

    /// The minutes and the whole transcript as Markdown: the meeting's report.
    pub fn minutes_markdown(&self) -> String {
        prompt::minutes_markdown(self, true)
    }
}

impl Protocol for MeetingState {
    const KIND: &'static str = "meeting";
    const TITLE: &'static str = "Meeting";
    const ROUND_WORD: &'static str = "Turn";
    type Config = MeetingConfig;
    type Step = MeetingStep;
    const STEPS: &'static [MeetingStep] = &[
        MeetingStep::Decide,
        MeetingStep::Speak,
        MeetingStep::Minutes,
    ];
    type Envelope = MeetingEnvelope;
    type Output = MeetingOutput;
    type Ask = ();
    type Served = ();
    type Edit = MeetingEdit;
    type Block = MeetingBlock;

    fn request(&self) -> &str {
        &self.agenda
    }

    fn members(&self) -> Vec<roundtable_engine::engine::MemberInfo> {
        self.attendees
            .iter()
            .map(|a| roundtable_engine::engine::MemberInfo {
                id: a.id.clone(),
                name: a.name.clone(),
                model: a.model.clone(),
                persona: a.persona.clone(),
            })
            .collect()
    }

    fn progress(&self) -> u32 {
        MeetingState::progress(self)
    }

    fn report_markdown(&self) -> String {
        self.minutes_markdown()
    }

    fn member_edit(change: roundtable_engine::engine::MemberChange) -> MeetingEdit {
        MeetingEdit::Member(change)
    }

    fn what_if_of(edit: &MeetingEdit) -> Option<roundtable_engine::engine::EditWhatIf<'_>> {
        match edit {
            MeetingEdit::Member(change) => {
                Some(roundtable_engine::engine::EditWhatIf::Member(change))
            }
            _ => None,
        }
    }

    fn create(config: &MeetingConfig) -> Result<MeetingState, String> {
        config.check().map_err(|e| e.to_string())?;
        Ok(MeetingState {
            core: Core::new(config.settings.clone()),
            agenda: config.agenda.clone(),
            attendees: config.attendees.clone(),
            max_turns_per_phase: config.max_turns_per_phase,
            phase: Phase::Initialization,
            spoken: Vec::new(),
            transcript: Vec::new(),
            floor: None,
            ended: None,
            minutes: None,
        })
    }

    fn settings(config: &MeetingConfig) -> Settings {
        config.settings.clone()
    }

    fn core(&self) -> &Core {
        &self.core
    }

    fn core_mut(&mut self) -> &mut Core {
        &mut self.core
    }

    fn step_wire(step: MeetingStep) -> &'static str {
        match step {
            MeetingStep::Decide => "decide",
            MeetingStep::Speak => "speak",
            MeetingStep::Minutes => "minutes",
        }
    }

    fn step_name(step: MeetingStep) -> &'static str {
        match step {
            MeetingStep::Decide => "meeting_decision",
            MeetingStep::Speak => "meeting_contribution",
            MeetingStep::Minutes => "meeting_minutes",
        }
    }

    fn step_title(step: MeetingStep) -> &'static str {
        match step {
            // Not "Decision": that is a phase's name, and a decision is taken in every phase.
            MeetingStep::Decide => "Next move",
            MeetingStep::Speak => "Contribution",
            MeetingStep::Minutes => "Minutes",
        }
    }

    fn model_of(&self, member: &str) -> Option<&ModelRef> {
        self.attendee(member).map(|a| &a.model)
    }

    /// "Ana's turn in Option generation", "Orchestrator's next move in Initialization",
    /// "Orchestrator's minutes": the phase the turn was held in (the current one for a call
    /// still out).
    fn call_title(&self, member: &str, step: MeetingStep, round: u32) -> String {
        let name = self.member_name(member);
        let turn = round;
        let phase_of = |want: MeetingStep| {
            self.transcript
                .iter()
                .find_map(|t| match (t, want) {
                    (Turn::Decision { round, phase, .. }, MeetingStep::Decide)
                    | (Turn::Contribution { round, phase, .. }, MeetingStep::Speak)
                        if *round == turn =>
                    {
                        Some(*phase)
                    }
                    _ => None,
                })
                .unwrap_or(self.phase)
                .title()
        };
        match step {
            MeetingStep::Decide => format!("{name}'s next move in {}", phase_of(step)),
            MeetingStep::Speak => format!("{name}'s turn in {}", phase_of(step)),
            MeetingStep::Minutes => format!("{name}'s minutes"),
        }
    }

    fn next_move(&self) -> Move<MeetingState> {
        let core = &self.core;
        let orchestrator = || vec![self.orchestrator().to_string()];
        if core.rounds_ended || self.ended.is_some() {
            return match core.step.map(Self::step_of) {
                Some(MeetingStep::Minutes) => MoveOf::Finish,
                _ => MoveOf::Step(core.round, MeetingStep::Minutes, orchestrator()),
            };
        }
        match (core.round, core.step.map(Self::step_of)) {
            (0, _) => MoveOf::Round(1),
            (r, None) => MoveOf::Step(r, MeetingStep::Decide, orchestrator()),
            (r, Some(MeetingStep::Decide)) => match &self.floor {
                Some((speaker, _)) => MoveOf::Step(r, MeetingStep::Speak, vec![speaker.clone()]),
                None => MoveOf::Round(r + 1),
            },
            (r, Some(MeetingStep::Speak)) => MoveOf::Round(r + 1),
            (_, Some(MeetingStep::Minutes)) => MoveOf::Finish,
        }
    }

    fn still_blocked(&self, block: &MeetingBlock) -> Option<String> {
        match *block {}
    }

    fn envelope(&self, member: &str) -> MeetingEnvelope {
        prompt::envelope(self, member)
    }

    fn first_messages(&self, envelope: &MeetingEnvelope) -> Vec<Message> {
        prompt::messages(envelope)
    }

    fn judge(&self, call: &StoredCall, raw: &str, truncated: bool) -> Judgement<MeetingState> {
        let step = Self::step_name(Self::step_of(call.step)).to_string();
        let options = validate::Options { truncated };
        let mut warnings = Vec::new();
        let checked = match Self::step_of(call.step) {
            MeetingStep::Decide => {
                let participants = self.participants();
                answer::check_decision(raw, options, &participants, &mut warnings).and_then(|d| {
                    let errors = self.decision_rules(&d);
                    if errors.is_empty() {
                        Ok(MeetingOutput::Decision(d))
                    } else {
                        Err(errors)
                    }
                })
            }
            MeetingStep::Speak => answer::check_contribution(raw, options, &mut warnings)
                .map(MeetingOutput::Contribution),
            MeetingStep::Minutes => {
                let mut owners: Vec<&str> = self.attendees.iter().map(|a| a.id.as_str()).collect();
                owners.push(PERSON);
                answer::check_minutes(raw, options, &owners, &mut warnings)
                    .map(MeetingOutput::Minutes)
            }
        };
        match checked {
            Ok(output) => JudgementOf::Apply { output, warnings },
            Err(errors) => JudgementOf::Invalid {
                fallback: (Self::step_of(call.step) == MeetingStep::Decide)
                    .then(|| MeetingOutput::Decision(self.fallback_decision())),
                findings: Findings {
                    step,
                    errors,
                    warnings,
                },
            },
        }
    }

    fn serve(&self, _member: &str, _ask: &(), _left: u32) -> ((), String) {
        ((), String::new())
    }

    fn repair_prompt(&self, step: MeetingStep, findings: &Findings) -> String {
        prompt::repair(step, findings)
    }

    fn check_edit(&self, edit: &MeetingEdit) -> Result<(), String> {
        match edit {
            MeetingEdit::Remark { content } if content.trim().is_empty() => {
                Err("the remark is empty".into())
            }
            MeetingEdit::Remark { content } if content.chars().count() > 2000 => {
                Err("the remark is longer than 2,000 characters".into())
            }
            MeetingEdit::Remark { .. } => Ok(()),
            MeetingEdit::Member(change) => {
                if !self.attendees.iter().any(|a| a.id == change.member) {
                    return Err(format!("there is no attendee {}", change.member));
                }
                change.problem(config::PERSONA_MAX).map_or(Ok(()), Err)
            }
        }
    }

    fn fold(&mut self, event: &Event) -> Result<Vec<String>, FoldError> {
        match &event.kind {
            EventKind::RoundStarted { .. } => self.floor = None,
            EventKind::Applied {
                call_id, output, ..
            } => return self.apply(call_id, output.get(), None),
            EventKind::FellBack {
                call_id,
                output,
                report,
            } => return self.apply(call_id, output.get(), Some(report)),
            EventKind::PersonEdited {
                edit: EngineEdit::Protocol(edit),
            } => match edit.get::<MeetingEdit>() {
                MeetingEdit::Remark { content } => self.transcript.push(Turn::Remark {
                    round: self.core.round,
                    text: content.clone(),
                }),
                MeetingEdit::Member(change) => {
                    if let Some(a) = self.attendees.iter_mut().find(|a| a.id == change.member) {
                        if let Some(model) = &change.model {
                            a.model = model.clone();
                        }
                        if let Some(persona) = &change.persona {
                            a.persona = persona.clone();
                        }
                    }
                }
            },
            _ => {}
        }
        Ok(Vec::new())
    }

    fn id_choices(&self, call: &StoredCall) -> Vec<IdChoice> {
        match Self::step_of(call.step) {
            MeetingStep::Decide => vec![IdChoice::new("next_agent_id", self.participants())],
            MeetingStep::Minutes => {
                let mut owners: Vec<&str> = self.attendees.iter().map(|a| a.id.as_str()).collect();
                owners.push(PERSON);
                vec![IdChoice::new("action_items/*/owner", owners)]
            }
            MeetingStep::Speak => Vec::new(),
        }
    }

    fn demo_answer(&self, call: &StoredCall, envelope: &MeetingEnvelope) -> DemoReply {
        let model = self.model_of(&call.member).map_or("", |m| m.model.as_str());
        demo::answer(call, envelope, model)
    }
}

impl From<MeetingEdit> for EngineEdit {
    fn from(edit: MeetingEdit) -> Self {
        EngineEdit::of_kind(edit)
    }
}

/// The orchestrator's phase policy (`001`'s rules beyond the shape, as this meeting reads
/// them), for a decision taken in `phase`: `continue` only while the phase has turns left
/// (`turns_used`: it has used its `max_turns`), `change_phase` only to the next phase,
/// `end_meeting` only in the last two phases. Every broken rule as a violation.
pub fn phase_policy(
    decision: &Decision,
    phase: Phase,
    turns_used: bool,
    max_turns: u32,
) -> Vec<Violation> {
    let mut errors = Vec::new();
    match decision {
        Decision::Continue { .. } if turns_used => errors.push(Violation {
            path: "/decision".into(),
            message: format!("{} has used its {} speaking turns", phase.name(), max_turns),
            expected: "\"change_phase\" or \"end_meeting\"".into(),
            received: "\"continue\"".into(),
            hint: "Move the meeting to the next phase, or end it.".into(),
        }),
        Decision::ChangePhase { new_phase, .. } if Some(*new_phase) != phase.next() => {
            let (message, expected) = match phase.next() {
                Some(next) if *new_phase == phase => (
                    format!("the meeting is already in {}", new_phase.name()),
                    format!("\"{}\"", next.name()),
                ),
                Some(next) => (
                    format!(
                        "phases move forward one at a time: after {} comes {}, not {}",
                        phase.name(),
                        next.name(),
                        new_phase.name()
                    ),
                    format!("\"{}\"", next.name()),
                ),
                None => (
                    format!("{} is the last phase", phase.name()),
                    "\"end_meeting\"".into(),
                ),
            };
            errors.push(Violation {
                path: "/new_phase".into(),
                message,
                expected,
                received: format!("\"{}\"", new_phase.name()),
                hint: "Move to the next phase, or continue in this one.".into(),
            });
        }
        Decision::EndMeeting { .. } if !MeetingState::may_end_in(phase) => errors.push(Violation {
            path: "/decision".into(),
            message: format!(
                "the meeting can end only in ExecutionPlanning or Conclusion, and it is in {}",
                phase.name()
            ),
            expected: "\"continue\" or \"change_phase\"".into(),
            received: "\"end_meeting\"".into(),
            hint: "Move the meeting on to the next phase.".into(),
        }),
        _ => {}
    }
    errors
}
