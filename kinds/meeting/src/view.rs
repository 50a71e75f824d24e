//! What the shell shows of a meeting: the phase stepper, the attendees with their share of the
//! floor, the transcript (decisions, with the fallback rule's marked), and the minutes. Computed
//! here so the page renders it and re-derives nothing.

use serde::Serialize;

use super::answer::Phase;
use super::{MeetingRole, MeetingState, Turn};
use roundtable_engine::engine::Protocol as _;

/// A meeting as the page shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MeetingView {
    /// The seven phases in order, each marked done, current or upcoming.
    pub phases: Vec<PhaseMark>,
    /// The attendees, the orchestrator first.
    pub attendees: Vec<AttendeeMark>,
    /// The transcript, oldest first.
    pub turns: Vec<TurnView>,
    /// How many decisions the fallback rule made in the orchestrator's place.
    pub fallbacks: usize,
    /// Why the meeting ended, once it has.
    pub ended: Option<String>,
    /// The minutes as Markdown (without the transcript, which the page shows beside them).
    pub minutes_markdown: String,
    /// Whether the minutes are written.
    pub has_minutes: bool,
}

/// Where a phase stands in the stepper.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PhaseState {
    /// Over.
    Done,
    /// The meeting is in it.
    Current,
    /// Not reached yet.
    Upcoming,
}

impl PhaseState {
    /// Its word (the stepper item's class): `done`, `current`, `upcoming`.
    pub fn word(self) -> &'static str {
        match self {
            PhaseState::Done => "done",
            PhaseState::Current => "current",
            PhaseState::Upcoming => "upcoming",
        }
    }
}

/// What a transcript entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnKind {
    /// The orchestrator's decision.
    Decision,
    /// A decision the fallback rule made in the orchestrator's place.
    Fallback,
    /// An attendee's contribution.
    Contribution,
    /// The person's remark.
    Remark,
}

impl TurnKind {
    /// Its word (the entry's `data-turn`): `decision`, `fallback`, `contribution`, `remark`.
    pub fn word(self) -> &'static str {
        match self {
            TurnKind::Decision => "decision",
            TurnKind::Fallback => "fallback",
            TurnKind::Contribution => "contribution",
            TurnKind::Remark => "remark",
        }
    }
}

/// One phase of the stepper.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PhaseMark {
    /// Wire name (`OptionGeneration`).
    pub name: &'static str,
    /// In words.
    pub title: &'static str,
    /// What it is for.
    pub purpose: &'static str,
    /// Done, current or upcoming.
    pub state: PhaseState,
    /// Contributions made in it.
    pub contributions: usize,
    /// Them in words: "1 turn", "3 turns".
    pub turns_words: String,
}

/// One attendee with its share of the floor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AttendeeMark {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// What it speaks for.
    pub role: String,
    /// True for the orchestrator.
    pub orchestrator: bool,
    /// Contributions made.
    pub contributions: usize,
    /// True while it has the floor.
    pub has_floor: bool,
    /// Its part in words: "Orchestrator", or its turns ("1 turn", "7 turns").
    pub part_words: String,
}

/// One transcript entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnView {
    /// The round (turn number).
    pub round: u32,
    /// A decision (the orchestrator's, or the fallback rule's), a contribution or a remark.
    pub kind: TurnKind,
    /// The phase it happened in.
    pub phase: &'static str,
    /// Who: an attendee id, `orchestrator`'s id, or `user-1`.
    pub who: String,
    /// Their name.
    pub name: String,
    /// A contribution or remark (Markdown); a decision in words.
    pub text: String,
    /// A decision's rationale.
    pub rationale: Option<String>,
}

impl MeetingState {
    /// The meeting as the page shows it.
    pub fn view(&self) -> MeetingView {
        let current = Phase::ALL
            .iter()
            .position(|p| *p == self.phase)
            .unwrap_or(0);
        let name_of = |id: &str| {
            self.attendee(id)
                .map_or_else(|| "You".to_string(), |a| a.name.clone())
        };
        let mut phase_of_turn = Vec::new();
        let turns: Vec<TurnView> = self
            .transcript
            .iter()
            .map(|t| match t {
                Turn::Decision {
                    round,
                    phase,
                    decision,
                    fell_back,
                    ..
                } => {
                    phase_of_turn.push(None);
                    TurnView {
                        round: *round,
                        kind: if *fell_back {
                            TurnKind::Fallback
                        } else {
                            TurnKind::Decision
                        },
                        phase: phase.title(),
                        who: self.orchestrator().to_string(),
                        name: name_of(self.orchestrator()),
                        text: self.decision_words(decision),
                        rationale: Some(decision.rationale().to_string()),
                    }
                }
                Turn::Contribution {
                    round,
                    phase,
                    speaker,
                    text,
                } => {
                    phase_of_turn.push(Some(*phase));
                    TurnView {
                        round: *round,
                        kind: TurnKind::Contribution,
                        phase: phase.title(),
                        who: speaker.clone(),
                        name: name_of(speaker),
                        text: text.clone(),
                        rationale: None,
                    }
                }
                Turn::Remark { round, text } => {
                    phase_of_turn.push(None);
                    TurnView {
                        round: *round,
                        kind: TurnKind::Remark,
                        phase: "",
                        who: super::PERSON.to_string(),
                        name: "You".into(),
                        text: text.clone(),
                        rationale: None,
                    }
                }
            })
            .collect();
        let over =
            self.minutes.is_some() || self.core.status == roundtable_engine::engine::Status::Done;
        MeetingView {
            phases: Phase::ALL
                .iter()
                .enumerate()
                .map(|(i, p)| PhaseMark {
                    name: p.name(),
                    title: p.title(),
                    purpose: p.purpose(),
                    state: if i < current || (i == current && over) {
                        PhaseState::Done
                    } else if i == current {
                        PhaseState::Current
                    } else {
                        PhaseState::Upcoming
                    },
                    contributions: phase_of_turn.iter().filter(|x| **x == Some(*p)).count(),
                    turns_words: String::new(),
                })
                .map(|mut mark| {
                    mark.turns_words =
                        roundtable_engine::text::count(mark.contributions, "turn", "turns");
                    mark
                })
                .collect(),
            attendees: self
                .attendees
                .iter()
                .map(|a| AttendeeMark {
                    id: a.id.clone(),
                    name: a.name.clone(),
                    role: a.role.clone(),
                    orchestrator: a.meeting_role == MeetingRole::Orchestrator,
                    contributions: turns
                        .iter()
                        .filter(|t| t.kind == TurnKind::Contribution && t.who == a.id)
                        .count(),
                    has_floor: !over
                        && self.core.step.map(Self::step_of) == Some(super::MeetingStep::Speak)
                        && self.floor.as_ref().is_some_and(|(who, _)| *who == a.id),
                    part_words: String::new(),
                })
                .map(|mut mark| {
                    mark.part_words = if mark.orchestrator {
                        "Orchestrator".into()
                    } else {
                        roundtable_engine::text::count(mark.contributions, "turn", "turns")
                    };
                    mark
                })
                .collect(),
            fallbacks: turns
                .iter()
                .filter(|t| t.kind == TurnKind::Fallback)
                .count(),
            turns,
            ended: self.ended.clone(),
            minutes_markdown: super::prompt::minutes_markdown(self, false),
            has_minutes: self.minutes.is_some(),
        }
    }
}

impl MeetingState {
    /// A decision as the transcript says it, attendees by name: "gave the floor to Ana" (the
    /// prompts name them by id, which is what a model answers with).
    pub(super) fn decision_words(&self, decision: &super::answer::Decision) -> String {
        match decision {
            super::answer::Decision::Continue { next_agent_id, .. } => format!(
                "gave the floor to {}",
                self.attendee(next_agent_id)
                    .map_or(next_agent_id.as_str(), |a| a.name.as_str())
            ),
            other => other.describe(),
        }
    }
}

impl roundtable_engine::engine::KindView for MeetingState {
    type View<'a> = MeetingView;
    fn kind_view(&self) -> MeetingView {
        self.view()
    }
}
