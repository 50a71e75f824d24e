//! An autocoding session's configuration: the requirements, the turn limit and the approval
//! threshold (spec `002`'s `autocoding_init` arguments), the player and the coach (each its own
//! provider, model and persona), whether the person approves the end, the sandbox's time limit,
//! and optionally a saved `AutocodingState` to go on from — every problem collected at once.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::answer::PlayerAnswer;
use super::prompt::CodeFile;
use super::state::{AutocodingState, Phase, Status, DEFAULT_APPROVAL_THRESHOLD, DEFAULT_MAX_TURNS};
use roundtable_engine::engine::{ModelRef, Settings};

/// The player or the coach: who it is and which model it runs on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AutocodingMember {
    /// Id (`player`, `coach`).
    pub id: String,
    /// Display name ("The player").
    pub name: String,
    /// A line of its own beside the role's prompt ("Prefers small pure functions").
    #[serde(default)]
    pub persona: String,
    /// The provider and model it runs on.
    pub model: ModelRef,
}

/// Everything an autocoding session starts from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AutocodingConfig {
    /// The requirements, verbatim from the person: the single source of truth of both roles.
    pub requirements: String,
    /// 002's `session_id` (the app makes a fresh one; a resumed state keeps its own).
    #[serde(default = "default_session_id")]
    pub session_id: String,
    /// 002's optional label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_name: Option<String>,
    /// Turns before the session times out.
    pub max_turns: u32,
    /// The score the coach's approval must reach, in [0, 1].
    pub approval_threshold: f64,
    /// Whether the person has the last word: the coach's approval then waits in the inbox for
    /// approve / reject / revise.
    #[serde(default)]
    pub person_approval: bool,
    /// Writes the code.
    pub player: AutocodingMember,
    /// Checks it.
    pub coach: AutocodingMember,
    /// The sandbox's wall-clock limit for one run of the tests, in milliseconds.
    #[serde(default = "default_run_limit")]
    pub run_limit_ms: u64,
    /// The files the player starts from (a project to go on with; empty: from scratch).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<CodeFile>,
    /// A saved state (Hegelion's or ours) to go on from, in the player phase; the requirements,
    /// turn limit and threshold above must be its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume: Option<AutocodingState>,
    /// The engine's limits (its round limit is the turn limit: a turn is a round).
    #[serde(default)]
    pub settings: Settings,
}

/// The sandbox's default time limit for one run.
pub const DEFAULT_RUN_LIMIT_MS: u64 = 5_000;

fn default_session_id() -> String {
    "autocoding".into()
}

fn default_run_limit() -> u64 {
    DEFAULT_RUN_LIMIT_MS
}

/// One reason an autocoding config was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum AutocodingConfigError {
    /// Nothing to build.
    #[error("the requirements are empty: say what the code must do")]
    EmptyRequirements,
    /// The requirements are too long for a prompt.
    #[error("the requirements are longer than {0} characters")]
    LongRequirements(usize),
    /// No turn to play.
    #[error("the turn limit must be from 1 to {0}")]
    Turns(u32),
    /// A threshold outside [0, 1].
    #[error("the approval threshold must be a number from 0 to 1")]
    Threshold,
    /// A member id that does not fit prompts and pointers, or both roles under one id.
    #[error("member ids must be two different words of lowercase letters, digits and dashes")]
    MemberIds,
    /// A member with no name or no model.
    #[error("{0} needs a name, a provider and a model")]
    Member(String),
    /// A persona too long for a prompt.
    #[error("{0}'s persona is longer than {1} characters")]
    LongPersona(String, usize),
    /// A time limit the sandbox cannot keep.
    #[error("the run's time limit must be from {0} to {1} ms")]
    RunLimit(u64, u64),
    /// A starting file set a player could not have written.
    #[error("the starting files are not a valid file set: {0}")]
    Files(String),
    /// A saved state that cannot be gone on from.
    #[error("the saved state cannot be continued: {0}")]
    Resume(String),
}

/// Every reason a config was refused, in words a person can act on.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
pub struct AutocodingConfigErrors(pub Vec<AutocodingConfigError>);

impl AutocodingConfig {
    /// The longest requirements a prompt carries.
    pub const REQUIREMENTS_MAX: usize = 8_000;
    /// The longest persona.
    pub const PERSONA_MAX: usize = 600;
    /// The most turns a session may have.
    pub const TURNS_MAX: u32 = 30;
    /// The shortest and longest run time limits: past 30 s a tab waiting on a run stops
    /// feeling usable (the sandbox's page holds the same cap).
    pub const RUN_LIMIT_RANGE: (u64, u64) = (500, 30_000);

    /// A session with 002's defaults (10 turns, threshold 0.9), both roles on `model`.
    pub fn standard(requirements: &str, model: ModelRef) -> AutocodingConfig {
        let member = |id: &str, name: &str| AutocodingMember {
            id: id.into(),
            name: name.into(),
            persona: String::new(),
            model: model.clone(),
        };
        AutocodingConfig {
            requirements: requirements.into(),
            session_id: default_session_id(),
            session_name: None,
            max_turns: DEFAULT_MAX_TURNS,
            approval_threshold: DEFAULT_APPROVAL_THRESHOLD,
            person_approval: false,
            player: member("player", "The player"),
            coach: member("coach", "The coach"),
            run_limit_ms: DEFAULT_RUN_LIMIT_MS,
            files: Vec::new(),
            resume: None,
            settings: Settings::default(),
        }
    }

    /// Both members, player first.
    pub fn members(&self) -> [&AutocodingMember; 2] {
        [&self.player, &self.coach]
    }

    /// Every problem of the config, or none.
    pub fn check(&self) -> Result<(), AutocodingConfigErrors> {
        use AutocodingConfigError as E;
        let mut out = Vec::new();
        if self.requirements.trim().is_empty() {
            out.push(E::EmptyRequirements);
        } else if self.requirements.chars().count() > Self::REQUIREMENTS_MAX {
            out.push(E::LongRequirements(Self::REQUIREMENTS_MAX));
        }
        if self.max_turns == 0 || self.max_turns > Self::TURNS_MAX {
            out.push(E::Turns(Self::TURNS_MAX));
        }
        if !(0.0..=1.0).contains(&self.approval_threshold) {
            out.push(E::Threshold);
        }
        let good_id = |id: &str| {
            !id.is_empty()
                && id
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        };
        if !good_id(&self.player.id) || !good_id(&self.coach.id) || self.player.id == self.coach.id
        {
            out.push(E::MemberIds);
        }
        for m in self.members() {
            if m.name.trim().is_empty()
                || m.model.provider.trim().is_empty()
                || m.model.model.trim().is_empty()
            {
                out.push(E::Member(m.id.clone()));
            }
            if m.persona.chars().count() > Self::PERSONA_MAX {
                out.push(E::LongPersona(m.name.clone(), Self::PERSONA_MAX));
            }
        }
        let (low, high) = Self::RUN_LIMIT_RANGE;
        if !(low..=high).contains(&self.run_limit_ms) {
            out.push(E::RunLimit(low, high));
        }
        if !self.files.is_empty() {
            let written = PlayerAnswer {
                files: self
                    .files
                    .iter()
                    .map(|f| super::answer::FileWrite {
                        path: f.path.clone(),
                        content: f.content.clone(),
                    })
                    .collect(),
                delete: Vec::new(),
            };
            if let Some(v) = written.problems(&[]).first() {
                out.push(E::Files(format!("{} at {}", v.message, v.path)));
            }
        }
        if let Some(state) = &self.resume {
            if let Some(why) = resume_problem(state) {
                out.push(E::Resume(why));
            }
            // 002's tools carry the requirements, the turn limit and the threshold unchanged
            // from autocoding_init on: a session going on from a state runs with its own.
            if self.requirements != state.requirements
                || self.max_turns != state.max_turns
                || self.approval_threshold != state.approval_threshold
            {
                out.push(E::Resume(
                    "it keeps its own requirements, turn limit and approval threshold: 002 has \
                     no tool that changes them"
                        .into(),
                ));
            }
        }
        if out.is_empty() {
            Ok(())
        } else {
            Err(AutocodingConfigErrors(out))
        }
    }

    /// 002's state the session starts from: the saved one going on (its requirements, limit and
    /// threshold are the config's, `check` makes sure), or a fresh one in the player phase (what
    /// `autocoding_init` returns) with this config's.
    pub fn initial_state(&self) -> AutocodingState {
        let mut state = self.resume.clone().unwrap_or_else(|| {
            AutocodingState::fresh(self.session_id.clone(), None, String::new(), 0, 0.0)
        });
        if state.session_id.trim().is_empty() {
            state.session_id = default_session_id();
        }
        state.requirements = self.requirements.clone();
        state.max_turns = self.max_turns;
        state.approval_threshold = self.approval_threshold;
        if self.session_name.is_some() {
            state.session_name = self.session_name.clone();
        }
        // `init` (Hegelion's dataclass default) goes on as the player's turn.
        state.phase = Phase::Player;
        state
    }
}

/// Why a saved state cannot be gone on from, if it cannot (DESIGN): it must still be active, in
/// the player phase (or `init`), with turns left. An approved, timed-out or rejected state, or
/// one waiting for the coach, is shown, never continued.
pub fn resume_problem(state: &AutocodingState) -> Option<String> {
    let max_turns = state.max_turns;
    if state.status != Status::Active {
        return Some(format!("its status is {}, not active", state.status.word()));
    }
    if !matches!(state.phase, Phase::Player | Phase::Init) {
        return Some(format!(
            "it is in the {} phase: go on from a state in the player phase (the one \
             autocoding_advance returns)",
            state.phase.word()
        ));
    }
    if state.current_turn >= max_turns {
        return Some(format!(
            "its {} turns leave none of the {max_turns} allowed",
            state.current_turn
        ));
    }
    None
}
