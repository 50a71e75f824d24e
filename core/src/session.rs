//! A team session: its members, its charter, its limits, and the engine the runner drives.
//!
//! [`Session`] is the whole public surface the web app needs. It owns the loop: the runner asks
//! [`Session::next_calls`] for the model calls due now, performs them, and hands each raw answer to
//! [`Session::submit`]; the person acts through [`Session::start`], [`Session::answer_halt`],
//! [`Session::pause`], [`Session::resume`], [`Session::finish`] and [`Session::edit`]. Every one of
//! these appends typed events to the log ([`crate::event`]) and the state is the fold of those
//! events, so [`Session::replay`] of [`Session::events`] rebuilds exactly [`Session::state`].
//! Time comes in as `now` (ms) on every call; ids are deterministic (`call-<seq>`).

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::event::{Event, EventKind, PersonEdit, Usage};
use crate::protocol::team::{self, FoldError, TeamState};
use crate::protocol::ModelCall;
use crate::schema::Step;
use crate::tree::ProductStatus;
use crate::validate::{Known, Report};

/// What a member does in the team; decides which steps it takes part in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TeamRole {
    /// Bootstraps, plans, assigns, accepts; inspects and presents when nobody else does.
    Chair,
    /// Writes versions of assigned products and reviews the others'.
    Operative,
    /// Checks each round's versions against their definition of done.
    Inspector,
    /// Presents the result to the person.
    Envoy,
}

impl TeamRole {
    /// The wire word (`operative`).
    pub fn word(self) -> &'static str {
        match self {
            TeamRole::Chair => "chair",
            TeamRole::Operative => "operative",
            TeamRole::Inspector => "inspector",
            TeamRole::Envoy => "envoy",
        }
    }
}

/// Which provider and model a member runs on. Never a key: keys stay in the runner's storage.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ModelRef {
    /// Provider name (`openai`, `anthropic`, `demo`, …).
    pub provider: String,
    /// Model name as the provider spells it.
    pub model: String,
}

/// One member of the team.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Member {
    /// `chair`, `operative-1`, `operative-2`, …, `inspector`, `envoy`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Free-text role ("UX researcher").
    pub role: String,
    /// Its place in the protocol.
    pub team_role: TeamRole,
    /// The persona; Bootstrap and the chair's overrides may rewrite it.
    #[serde(default)]
    pub persona: String,
    /// Skills, shown in its system prompt.
    #[serde(default)]
    pub skills: Vec<String>,
    /// Characteristics, shown in its system prompt.
    #[serde(default)]
    pub characteristics: Vec<String>,
    /// The provider and model it runs on.
    pub model: ModelRef,
}

/// The mission charter. All three parts are required before any step but Bootstrap runs.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Charter {
    /// What the team is for.
    pub mission: String,
    /// What it must achieve.
    pub objectives: String,
    /// What it must respect.
    pub constraints: String,
}

impl Charter {
    /// True when mission, objectives and constraints are all non-empty.
    pub fn is_complete(&self) -> bool {
        !self.mission.trim().is_empty()
            && !self.objectives.trim().is_empty()
            && !self.constraints.trim().is_empty()
    }
}

/// Limits of a session; reaching one pauses it with a reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    /// Rounds before the session pauses (default 8).
    pub max_rounds: u32,
    /// Tokens (reported or estimated, prompts and answers) before it pauses; `None`: no budget.
    pub token_budget: Option<u64>,
    /// Repair prompts one member may get per step before the session pauses (default 2).
    pub max_repairs: u32,
    /// `request_context` answers one member may give per step (default 2).
    pub max_context_requests: u32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            max_rounds: 8,
            token_budget: None,
            max_repairs: 2,
            max_context_requests: 2,
        }
    }
}

/// Everything a session starts from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionConfig {
    /// Team name (also the name of the root product).
    pub team_name: String,
    /// What the team is for.
    #[serde(default)]
    pub team_description: String,
    /// The person's request, verbatim.
    pub request: String,
    /// The team.
    pub members: Vec<Member>,
    /// Limits.
    #[serde(default)]
    pub settings: Settings,
    /// A charter the person wrote up front (Bootstrap still runs and may refine it).
    #[serde(default)]
    pub charter: Option<Charter>,
}

impl SessionConfig {
    /// A config with the standard team: a chair, `operatives` operatives, optionally an inspector
    /// and an envoy, all on `model`. For demos, tests and the "new session" form's defaults.
    pub fn standard(
        request: &str,
        operatives: usize,
        inspector: bool,
        envoy: bool,
        model: ModelRef,
    ) -> SessionConfig {
        let mk = |id: String, name: String, role: &str, team_role| Member {
            id,
            name,
            role: role.to_string(),
            team_role,
            persona: String::new(),
            skills: Vec::new(),
            characteristics: Vec::new(),
            model: model.clone(),
        };
        let mut members = vec![mk(
            "chair".into(),
            "Chair".into(),
            "Team lead",
            TeamRole::Chair,
        )];
        for i in 1..=operatives {
            members.push(mk(
                format!("operative-{i}"),
                format!("Operative {i}"),
                "Specialist",
                TeamRole::Operative,
            ));
        }
        if inspector {
            members.push(mk(
                "inspector".into(),
                "Inspector".into(),
                "Quality reviewer",
                TeamRole::Inspector,
            ));
        }
        if envoy {
            members.push(mk(
                "envoy".into(),
                "Envoy".into(),
                "Presenter",
                TeamRole::Envoy,
            ));
        }
        SessionConfig {
            team_name: "Roundtable".into(),
            team_description: "A small team working on the person's request.".into(),
            request: request.to_string(),
            members,
            settings: Settings::default(),
            charter: None,
        }
    }

    /// Checks the team: exactly one chair with id `chair`, operatives `operative-N`, at most one
    /// `inspector` and one `envoy`, unique ids, a non-empty request.
    pub fn check(&self) -> Result<(), ConfigError> {
        if self.request.trim().is_empty() {
            return Err(ConfigError::EmptyRequest);
        }
        let mut seen = std::collections::BTreeSet::new();
        for m in &self.members {
            if !seen.insert(m.id.as_str()) {
                return Err(ConfigError::DuplicateMember(m.id.clone()));
            }
            let ok = match m.team_role {
                TeamRole::Chair => m.id == "chair",
                TeamRole::Inspector => m.id == "inspector",
                TeamRole::Envoy => m.id == "envoy",
                TeamRole::Operative => m.id.strip_prefix("operative-").is_some_and(|n| {
                    !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && !n.starts_with('0')
                }),
            };
            if !ok {
                return Err(ConfigError::BadMemberId {
                    id: m.id.clone(),
                    team_role: m.team_role.word(),
                });
            }
        }
        if !seen.contains("chair") {
            return Err(ConfigError::NoChair);
        }
        if self.settings.max_rounds == 0 {
            return Err(ConfigError::NoRounds);
        }
        Ok(())
    }
}

/// Why a session config was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum ConfigError {
    /// Nothing to work on.
    #[error("the request is empty: say what the team should do")]
    EmptyRequest,
    /// Two members share an id.
    #[error("two members have the id {0}")]
    DuplicateMember(String),
    /// An id that does not match the member's team role.
    #[error("member id {id} does not fit its team role {team_role} (use chair, operative-1…, inspector, envoy)")]
    BadMemberId {
        /// The id.
        id: String,
        /// The role.
        team_role: &'static str,
    },
    /// Every team needs its chair.
    #[error("the team has no chair")]
    NoChair,
    /// A round limit of 0 leaves nothing to do.
    #[error("the round limit must be at least 1")]
    NoRounds,
}

/// Why the session is paused.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum PauseReason {
    /// The person paused it.
    Person,
    /// A member kept answering invalidly; the last report says why.
    InvalidAnswer {
        /// Member id.
        member: String,
        /// Step.
        step: Step,
        /// The last report.
        report: Report,
    },
    /// The round limit is reached; raise it (settings edit) or finish.
    RoundLimit {
        /// The limit.
        max_rounds: u32,
    },
    /// The token budget is spent; raise it (settings edit) or finish.
    TokenBudget {
        /// Tokens counted so far.
        used: u64,
        /// The budget.
        budget: u64,
    },
    /// The charter lacks a mission, objectives or constraints; edit it to go on.
    MissingCharter,
}

impl PauseReason {
    /// The reason in plain words, for the status bar.
    pub fn describe(&self) -> String {
        match self {
            PauseReason::Person => "paused by you".into(),
            PauseReason::InvalidAnswer { member, step, report } => format!(
                "{member} used up its repairs at {step}; its last answer still had {} problem(s)",
                report.errors.len()
            ),
            PauseReason::RoundLimit { max_rounds } => {
                format!("the round limit ({max_rounds}) is reached: raise it or ask for the presentation")
            }
            PauseReason::TokenBudget { used, budget } => format!(
                "the token budget is spent ({used} of {budget}): raise it or ask for the presentation"
            ),
            PauseReason::MissingCharter => {
                "the mission charter needs a mission, objectives and constraints".into()
            }
        }
    }
}

/// Where a session stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Status {
    /// Created, not started.
    Draft,
    /// Calls are being made.
    Running,
    /// Stopped until the person resumes.
    Paused {
        /// Why.
        reason: PauseReason,
    },
    /// A member asked the person a question.
    AwaitingPerson {
        /// Who asked.
        asked_by: String,
        /// The question.
        halt: crate::schema::Halt,
    },
    /// Presented and over.
    Done,
    /// Broken beyond repair (kept for logs that say so; the engine itself pauses instead).
    Failed {
        /// Why.
        reason: String,
    },
}

/// Why the engine refused a command. Nothing was applied (an answer to a call that is not
/// outstanding is still recorded, as [`EventKind::AnswerRefused`]).
#[derive(Debug, Clone, PartialEq, Error)]
pub enum EngineError {
    /// The config is not usable.
    #[error("the session cannot be created: {0}")]
    Config(#[from] ConfigError),
    /// The answer's call id is unknown, superseded or already answered.
    #[error("answer refused for {call_id}: {reason}")]
    CallNotOutstanding {
        /// The id.
        call_id: String,
        /// Why.
        reason: String,
    },
    /// The command does not fit the session's status (e.g. answering a halt nobody raised).
    #[error("cannot {action} while the session is {status}")]
    WrongStatus {
        /// What was attempted.
        action: &'static str,
        /// The status word.
        status: String,
    },
    /// Resume would hit the same limit again.
    #[error("cannot resume: {0}")]
    StillBlocked(String),
    /// A person's edit names something that does not exist, or breaks a rule.
    #[error("edit refused: {0}")]
    Edit(String),
    /// A bug: an event the engine itself produced did not fold.
    #[error("internal error: {0}")]
    Internal(#[from] FoldError),
}

/// What one submitted answer did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Outcome {
    /// The output was valid and is applied.
    Applied,
    /// Context was served; the same step is asked again.
    ContextServed,
    /// The answer was invalid; nothing applied. `paused` is true when repairs are used up.
    Invalid {
        /// Every violation.
        report: Report,
        /// The session paused instead of asking again.
        paused: bool,
    },
    /// A question for the person; the session waits for [`Session::answer_halt`].
    AwaitingPerson,
    /// The chair ended the rounds; Presentation follows.
    RoundsEnded,
}

/// A session: its event log and the state folded from it.
#[derive(Debug, Clone)]
pub struct Session {
    events: Vec<Event>,
    state: TeamState,
    /// The ids answers may name, rebuilt only when the tree's ids change (a cache: not part of
    /// the session's identity).
    known: Option<(KnownKey, Known)>,
}

/// What identifies the set of known ids: counts of products, live products, versions, collabs.
type KnownKey = (usize, usize, usize, usize);

impl PartialEq for Session {
    fn eq(&self, other: &Self) -> bool {
        self.events == other.events && self.state == other.state
    }
}

impl Session {
    /// A new draft session. Refuses a config whose team breaks the id rules.
    pub fn new(config: SessionConfig, now: u64) -> Result<Session, EngineError> {
        config.check()?;
        let mut s = Session {
            events: Vec::new(),
            state: TeamState::empty(),
            known: None,
        };
        s.record(EventKind::Created { config }, now)?;
        Ok(s)
    }

    /// Rebuilds a session from its events. The result's state equals the state of the session
    /// that wrote them.
    pub fn replay(events: &[Event]) -> Result<Session, FoldError> {
        let mut state = TeamState::empty();
        for (i, e) in events.iter().enumerate() {
            if e.seq != i as u64 {
                return Err(FoldError::Sequence {
                    expected: i as u64,
                    found: e.seq,
                });
            }
            state.fold(e)?;
        }
        Ok(Session {
            events: events.to_vec(),
            state,
            known: None,
        })
    }

    /// The event log, oldest first.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The folded state: tree, members, charter, status, timeline, transcripts.
    pub fn state(&self) -> &TeamState {
        &self.state
    }

    /// The session's status.
    pub fn status(&self) -> &Status {
        &self.state.status
    }

    /// Model calls the runner should perform now (empty unless running). Each comes with its JSON
    /// Schema filled in. A call stays here until answered or superseded, so a runner that lost
    /// track can ask again; it must not perform the same id twice.
    pub fn next_calls(&self) -> Vec<ModelCall> {
        self.pending_calls()
            .into_iter()
            .map(ModelCall::with_schema)
            .collect()
    }

    /// [`Session::next_calls`] without the JSON Schemas, for a runner whose providers never send
    /// one (the browser app's send `json_object`; the schema is in the prompt anyway). Such a
    /// runner then does not carry the schema texts (≈ 80 KB in the browser app's wasm).
    pub fn pending_calls(&self) -> Vec<ModelCall> {
        if self.state.status != Status::Running {
            return Vec::new();
        }
        self.state.outstanding_calls().cloned().collect()
    }

    /// Starts a draft session: Bootstrap is issued to the chair.
    pub fn start(&mut self, now: u64) -> Result<(), EngineError> {
        if self.state.status != Status::Draft {
            return Err(self.wrong("start"));
        }
        self.record(EventKind::Started, now)?;
        team::advance(self, now)
    }

    /// Hands in a model's raw answer for `call_id`. Validates it against the step and the
    /// session, applies it if valid, asks again if it requested context or was invalid, and
    /// issues whatever calls are due next.
    pub fn submit(
        &mut self,
        call_id: &str,
        raw: &str,
        usage: Option<Usage>,
        now: u64,
    ) -> Result<Outcome, EngineError> {
        team::submit(self, call_id, raw, usage, now)
    }

    /// The person's answer to the open halt question (free text or one of the options).
    pub fn answer_halt(&mut self, answer: &str, now: u64) -> Result<(), EngineError> {
        if !matches!(self.state.status, Status::AwaitingPerson { .. }) {
            return Err(self.wrong("answer a question"));
        }
        self.record(
            EventKind::PersonAnswered {
                answer: answer.to_string(),
            },
            now,
        )?;
        team::advance(self, now)
    }

    /// Pauses a running session (answers to calls already issued are still accepted; no new
    /// call is issued until [`Session::resume`]).
    pub fn pause(&mut self, now: u64) -> Result<(), EngineError> {
        if self.state.status != Status::Running {
            return Err(self.wrong("pause"));
        }
        self.record(
            EventKind::Paused {
                reason: PauseReason::Person,
            },
            now,
        )?;
        Ok(())
    }

    /// Resumes a paused session. Refused while the limit that paused it is still reached (raise
    /// it with a settings edit, or [`Session::finish`]).
    pub fn resume(&mut self, now: u64) -> Result<(), EngineError> {
        let Status::Paused { reason } = &self.state.status else {
            return Err(self.wrong("resume"));
        };
        if let Some(why) = team::still_blocked(&self.state, reason) {
            return Err(EngineError::StillBlocked(why));
        }
        self.record(EventKind::Resumed, now)?;
        team::advance(self, now)
    }

    /// Ends the rounds now and asks for the presentation (the person's "wrap up"). Outstanding
    /// calls are superseded.
    pub fn finish(&mut self, now: u64) -> Result<(), EngineError> {
        match &self.state.status {
            Status::Done | Status::Failed { .. } | Status::Draft => {
                return Err(self.wrong("finish"))
            }
            _ => {}
        }
        if self.state.charter.as_ref().is_none_or(|c| !c.is_complete()) {
            return Err(EngineError::StillBlocked(
                "there is no complete charter yet; edit it or let Bootstrap run first".into(),
            ));
        }
        if self.state.rounds_ended {
            return Err(self.wrong("finish again"));
        }
        self.record(
            EventKind::RoundsEnded {
                by: "user-1".into(),
            },
            now,
        )?;
        team::advance(self, now)
    }

    /// A person's edit: charter, accept/reject a version, a remark to the chair, settings.
    pub fn edit(&mut self, edit: PersonEdit, now: u64) -> Result<(), EngineError> {
        if matches!(self.state.status, Status::Done | Status::Failed { .. }) {
            return Err(self.wrong("edit"));
        }
        team::check_edit(&self.state, &edit).map_err(EngineError::Edit)?;
        self.record(EventKind::PersonEdited { edit }, now)?;
        Ok(())
    }

    /// Appends an event and folds it into the state. The one door every change goes through.
    pub(crate) fn record(&mut self, kind: EventKind, now: u64) -> Result<(), EngineError> {
        let event = Event {
            seq: self.events.len() as u64,
            at: now,
            kind,
        };
        self.state.fold(&event)?;
        self.events.push(event);
        Ok(())
    }

    /// The ids an answer may name now ([`TeamState::known`]), cached between answers that do not
    /// change the tree's ids (a 1,000-product tree takes ~0.3 ms to list).
    pub(crate) fn known_now(&mut self) -> &Known {
        let tree = &self.state.tree;
        let key = (
            tree.products().len(),
            tree.products()
                .iter()
                .filter(|p| p.status != ProductStatus::Removed)
                .count(),
            tree.versions().len(),
            tree.collabs().len(),
        );
        if self.known.as_ref().is_none_or(|(k, _)| *k != key) {
            self.known = Some((key, self.state.known()));
        }
        &self.known.as_ref().expect("just filled").1
    }

    fn wrong(&self, action: &'static str) -> EngineError {
        EngineError::WrongStatus {
            action,
            status: status_word(&self.state.status).into(),
        }
    }
}

/// The one-word name of a status (`awaiting_person`).
pub fn status_word(status: &Status) -> &'static str {
    match status {
        Status::Draft => "draft",
        Status::Running => "running",
        Status::Paused { .. } => "paused",
        Status::AwaitingPerson { .. } => "awaiting_person",
        Status::Done => "done",
        Status::Failed { .. } => "failed",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pending_calls_are_next_calls_without_their_schemas() {
        let model = ModelRef {
            provider: "demo".into(),
            model: "demo-1".into(),
        };
        let config = SessionConfig::standard("Plan a workshop", 2, false, false, model);
        let mut s = Session::new(config, 0).unwrap();
        assert!(s.pending_calls().is_empty(), "a draft has no calls");
        s.start(1).unwrap();
        let pending = s.pending_calls();
        let next = s.next_calls();
        assert!(!pending.is_empty());
        assert_eq!(pending.len(), next.len());
        for (p, n) in pending.into_iter().zip(next) {
            assert!(p.schema.is_null());
            assert_eq!(
                n.schema,
                crate::step_schema(n.step, crate::SchemaFlavor::Plain)
            );
            assert_eq!(p.with_schema(), n);
        }
    }
}
