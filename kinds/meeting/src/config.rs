//! A meeting's configuration: the agenda, the attendees (one of them the orchestrator), the limits
//! on turns — and the rules a meeting must meet before it starts.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use roundtable_engine::engine::{ModelRef, Settings};

/// The longest persona an attendee may be given, in characters (the team's limit too).
pub const PERSONA_MAX: usize = 500;

/// What an attendee does in the meeting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MeetingRole {
    /// Decides who speaks, when the phase changes and when the meeting ends; writes the minutes.
    Orchestrator,
    /// Speaks when given the floor.
    Participant,
}

/// One attendee.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Attendee {
    /// `orchestrator`, or a participant id such as `engineer-1` (lowercase letters, digits, `-`).
    pub id: String,
    /// Display name.
    pub name: String,
    /// Free-text role ("Backend engineer"): what the attendee speaks for.
    pub role: String,
    /// Its place in the meeting.
    pub meeting_role: MeetingRole,
    /// A persona for its system prompt (at most [`PERSONA_MAX`] characters).
    #[serde(default)]
    pub persona: String,
    /// The provider and model it runs on.
    pub model: ModelRef,
}

/// Everything a meeting starts from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MeetingConfig {
    /// What the meeting is about and what it should produce, verbatim from the person.
    pub agenda: String,
    /// The attendees, the orchestrator first.
    pub attendees: Vec<Attendee>,
    /// Speaking turns a phase may take before the orchestrator must move on (default 4).
    pub max_turns_per_phase: u32,
    /// The engine's limits; a round is one turn (a decision, and a contribution if the floor
    /// was given), so `max_rounds` is the limit on turns in all.
    #[serde(default)]
    pub settings: Settings,
}

/// Why a meeting config was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MeetingConfigError {
    /// Nothing to meet about.
    #[error("the agenda is empty: say what the meeting is about")]
    EmptyAgenda,
    /// An id with characters that do not fit prompts and pointers.
    #[error("attendee id \"{0}\" must be lowercase letters, digits and dashes")]
    BadId(String),
    /// Two attendees share an id.
    #[error("two attendees have the id {0}")]
    DuplicateId(String),
    /// Not exactly one orchestrator.
    #[error("a meeting needs exactly one orchestrator (it has {0})")]
    Orchestrators(usize),
    /// Too few to talk.
    #[error("a meeting needs at least two participants besides the orchestrator")]
    TooFewParticipants,
    /// A name is missing.
    #[error("attendee {0} has no name")]
    NoName(String),
    /// Limits that leave nothing to do.
    #[error("the turn limits must be at least 1")]
    NoTurns,
}

impl MeetingConfig {
    /// The default limit of speaking turns a phase.
    pub const DEFAULT_TURNS_PER_PHASE: u32 = 4;
    /// The default limit of turns in all: room for seven phases of several speakers each.
    pub const DEFAULT_MAX_TURNS: u32 = 48;

    /// A meeting with an orchestrator and the given participants (id, name, role), all on
    /// `model`: for demos, tests and the new-meeting form's defaults.
    pub fn standard(
        agenda: &str,
        participants: &[(&str, &str, &str)],
        model: ModelRef,
    ) -> MeetingConfig {
        let mut attendees = vec![Attendee {
            id: "orchestrator".into(),
            name: "Orchestrator".into(),
            role: "Chairs the meeting".into(),
            meeting_role: MeetingRole::Orchestrator,
            persona: String::new(),
            model: model.clone(),
        }];
        attendees.extend(participants.iter().map(|(id, name, role)| Attendee {
            id: (*id).into(),
            name: (*name).into(),
            role: (*role).into(),
            meeting_role: MeetingRole::Participant,
            persona: String::new(),
            model: model.clone(),
        }));
        MeetingConfig {
            agenda: agenda.into(),
            attendees,
            max_turns_per_phase: Self::DEFAULT_TURNS_PER_PHASE,
            settings: Settings {
                max_rounds: Self::DEFAULT_MAX_TURNS,
                ..Settings::default()
            },
        }
    }

    /// A well-formed attendee id for `name` that is not in `taken`: its letters and digits in
    /// lowercase, words joined by `-` (`Ana Lima` → `ana-lima`), numbered when taken (`ana-2`),
    /// `participant` when the name has none.
    pub fn id_for(name: &str, taken: &[String]) -> String {
        let words: Vec<String> = name
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_ascii_lowercase)
            .collect();
        let mut base = words.join("-");
        base.truncate(30);
        let base = base.trim_end_matches('-').to_string();
        let base = if base.is_empty() || base == "user-1" || base == "orchestrator" {
            "participant".to_string()
        } else {
            base
        };
        if !taken.contains(&base) {
            return base;
        }
        (2..)
            .map(|n| format!("{base}-{n}"))
            .find(|id| !taken.contains(id))
            .expect("an unused number exists")
    }

    /// Checks the meeting: a non-empty agenda, well-formed unique ids, exactly one orchestrator,
    /// at least two participants, turn limits of at least 1.
    pub fn check(&self) -> Result<(), MeetingConfigError> {
        if self.agenda.trim().is_empty() {
            return Err(MeetingConfigError::EmptyAgenda);
        }
        let mut seen = std::collections::BTreeSet::new();
        for a in &self.attendees {
            if !roundtable_engine::engine::member_id_ok(&a.id) {
                return Err(MeetingConfigError::BadId(a.id.clone()));
            }
            if !seen.insert(a.id.as_str()) {
                return Err(MeetingConfigError::DuplicateId(a.id.clone()));
            }
            if a.name.trim().is_empty() {
                return Err(MeetingConfigError::NoName(a.id.clone()));
            }
        }
        let orchestrators = self
            .attendees
            .iter()
            .filter(|a| a.meeting_role == MeetingRole::Orchestrator)
            .count();
        if orchestrators != 1 {
            return Err(MeetingConfigError::Orchestrators(orchestrators));
        }
        if self.attendees.len() < 3 {
            return Err(MeetingConfigError::TooFewParticipants);
        }
        if self.max_turns_per_phase == 0 || self.settings.max_rounds == 0 {
            return Err(MeetingConfigError::NoTurns);
        }
        Ok(())
    }
}
