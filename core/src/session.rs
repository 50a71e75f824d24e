//! [`Session`]: one closed enum over the kinds of session — all the web app touches.
//!
//! Each variant is the engine ([`crate::engine::Engine`]) driving one protocol. The enum forwards
//! the commands every kind shares (start, submit, pause, resume, wrap up, answer a question, change
//! the limits), hands out the calls due as protocol-neutral [`ModelCall`]s, stores and replays the
//! event log as JSON (the `created` event's `kind` picks the variant), and renders the
//! [`SessionView`] the shell shows for any kind. Kind-specific panels reach the protocol's own
//! state through [`Session::as_team`].

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::engine::{
    EngineEdit, EngineError, Event, EventKind, FoldError, ModelCall, Outcome, Protocol, Settings,
    Status, Usage,
};
use crate::protocol::meeting::{MeetingSession, MeetingState};
use crate::protocol::team::{TeamSession, TeamState};

/// The kinds of session this build runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A chair, operatives, an inspector and an envoy work in rounds on a tree of products.
    Team,
    /// An orchestrator moves attendees through seven phases to a decision and minutes.
    Meeting,
}

impl Kind {
    /// Every kind, in the order the new-session page offers them.
    pub const ALL: [Kind; 2] = [Kind::Team, Kind::Meeting];

    /// The kind's name in files and the `created` event.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Team => TeamState::KIND,
            Kind::Meeting => MeetingState::KIND,
        }
    }

    /// The kind in words for people.
    pub fn title(self) -> &'static str {
        match self {
            Kind::Team => "Team session",
            Kind::Meeting => "Meeting",
        }
    }

    /// The kind named `name` (a log written before there were kinds names none: a team).
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL
            .into_iter()
            .find(|k| k.name() == name)
            .or((name.is_empty()).then_some(Kind::Team))
    }
}

/// Why a stored or imported log could not be read back into a session.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum LogError {
    /// The log has no events.
    #[error("the log is empty")]
    Empty,
    /// The first event does not name a kind this build runs.
    #[error("this build does not know sessions of kind \"{0}\"")]
    UnknownKind(String),
    /// An event is not valid JSON of that kind's events.
    #[error("event {seq} is damaged: {reason}")]
    Damaged {
        /// Its position.
        seq: usize,
        /// What serde said.
        reason: String,
    },
    /// The events do not fold.
    #[error("the events do not replay: {0}")]
    Replay(#[from] FoldError),
}

/// A session of any kind.
// One value per open session, never held in bulk: boxing the larger kind would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Session {
    /// A team session.
    Team(TeamSession),
    /// A meeting.
    Meeting(MeetingSession),
}

/// Runs the same expression on whichever engine the session holds.
macro_rules! each {
    ($session:expr, $engine:ident => $body:expr) => {
        match $session {
            Session::Team($engine) => $body,
            Session::Meeting($engine) => $body,
        }
    };
}

/// What the shell shows of a session, whatever its kind: computed by the engine's rules, never
/// re-derived by a page.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionView {
    /// The kind.
    pub kind: Kind,
    /// `draft`, `running`, `paused`, `awaiting_person`, `done`.
    pub status: &'static str,
    /// The status in words (why it is paused, who asked what).
    pub status_text: String,
    /// Where the session stands: "Round 2 · Write".
    pub stage: String,
    /// The current round.
    pub round: u32,
    /// The round limit.
    pub max_rounds: u32,
    /// Tokens counted so far.
    pub tokens_used: u64,
    /// Each member of the current step with what it is doing (`working`, `repairing`, …).
    pub live: Vec<(String, &'static str)>,
    /// What the person may do now.
    pub actions: Actions,
}

/// The person's controls, each on only when the engine would accept it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Actions {
    /// Start a draft.
    pub start: bool,
    /// Run (resume a paused session, or go on running).
    pub resume: bool,
    /// Pause a running session.
    pub pause: bool,
    /// End the work now and go to the closing step.
    pub wrap_up: bool,
    /// Answer the open question.
    pub answer: bool,
    /// Change the limits or the kind's state.
    pub edit: bool,
}

impl Session {
    /// A new team session.
    pub fn new_team(
        config: crate::protocol::team::SessionConfig,
        now: u64,
    ) -> Result<Session, EngineError> {
        TeamSession::new(config, now).map(Session::Team)
    }

    /// A new meeting.
    pub fn new_meeting(
        config: crate::protocol::meeting::MeetingConfig,
        now: u64,
    ) -> Result<Session, EngineError> {
        MeetingSession::new(config, now).map(Session::Meeting)
    }

    /// The kind.
    pub fn kind(&self) -> Kind {
        match self {
            Session::Team(_) => Kind::Team,
            Session::Meeting(_) => Kind::Meeting,
        }
    }

    /// The team session, when this is one.
    pub fn as_team(&self) -> Option<&TeamSession> {
        match self {
            Session::Team(s) => Some(s),
            _ => None,
        }
    }

    /// The meeting, when this is one.
    pub fn as_meeting(&self) -> Option<&MeetingSession> {
        match self {
            Session::Meeting(s) => Some(s),
            _ => None,
        }
    }

    /// The number of events in the log.
    pub fn event_count(&self) -> usize {
        each!(self, s => s.events().len())
    }

    /// Events `from..` as JSON, one string each with its sequence number (for storage).
    pub fn events_json(&self, from: usize) -> Result<Vec<(u64, String)>, String> {
        fn encode<P: Protocol>(
            events: &[Event<P>],
            from: usize,
        ) -> Result<Vec<(u64, String)>, String> {
            events[from.min(events.len())..]
                .iter()
                .map(|e| {
                    serde_json::to_string(e)
                        .map(|json| (e.seq, json))
                        .map_err(|err| format!("an event could not be serialised: {err}"))
                })
                .collect()
        }
        each!(self, s => encode(s.events(), from))
    }

    /// The whole log as JSON values (for session files).
    pub fn events_value(&self) -> serde_json::Value {
        each!(self, s => serde_json::to_value(s.events()).unwrap_or_default())
    }

    /// Rebuilds a session from its events as JSON; the first event's `kind` picks the kind.
    pub fn replay_json(events: &[serde_json::Value]) -> Result<Session, LogError> {
        fn decode<P: Protocol>(events: &[serde_json::Value]) -> Result<Vec<Event<P>>, LogError> {
            events
                .iter()
                .enumerate()
                .map(|(seq, e)| {
                    Event::<P>::deserialize(e).map_err(|err| LogError::Damaged {
                        seq,
                        reason: err.to_string(),
                    })
                })
                .collect()
        }
        let first = events.first().ok_or(LogError::Empty)?;
        let name = first
            .pointer("/kind/kind")
            .and_then(|k| k.as_str())
            .unwrap_or("");
        match Kind::from_name(name).ok_or_else(|| LogError::UnknownKind(name.into()))? {
            Kind::Team => Ok(Session::Team(crate::engine::Engine::replay(&decode(
                events,
            )?)?)),
            Kind::Meeting => Ok(Session::Meeting(crate::engine::Engine::replay(&decode(
                events,
            )?)?)),
        }
    }

    /// Model calls due now, for the runner.
    pub fn next_calls(&self) -> Vec<ModelCall> {
        each!(self, s => s.next_calls())
    }

    /// Hands in a model's raw answer.
    pub fn submit(
        &mut self,
        call_id: &str,
        raw: &str,
        usage: Option<Usage>,
        now: u64,
    ) -> Result<Outcome, EngineError> {
        each!(self, s => s.submit(call_id, raw, usage, now))
    }

    /// Starts a draft.
    pub fn start(&mut self, now: u64) -> Result<(), EngineError> {
        each!(self, s => s.start(now))
    }

    /// Pauses a running session.
    pub fn pause(&mut self, now: u64) -> Result<(), EngineError> {
        each!(self, s => s.pause(now))
    }

    /// Resumes a paused session.
    pub fn resume(&mut self, now: u64) -> Result<(), EngineError> {
        each!(self, s => s.resume(now))
    }

    /// Ends the work and asks for the closing step.
    pub fn finish(&mut self, now: u64) -> Result<(), EngineError> {
        each!(self, s => s.finish(now))
    }

    /// The person's answer to the open question.
    pub fn answer_halt(&mut self, answer: &str, now: u64) -> Result<(), EngineError> {
        each!(self, s => s.answer_halt(answer, now))
    }

    /// New limits.
    pub fn set_settings(&mut self, settings: Settings, now: u64) -> Result<(), EngineError> {
        each!(self, s => s.edit(EngineEdit::Settings { settings }, now))
    }

    /// The current limits.
    pub fn settings(&self) -> Settings {
        each!(self, s => s.state().core().settings.clone())
    }

    /// The status word (`running`).
    pub fn status_word(&self) -> &'static str {
        each!(self, s => s.status().word())
    }

    /// Whether the session is running (the runner keeps going while it is).
    pub fn is_running(&self) -> bool {
        each!(self, s => *s.status() == Status::Running)
    }

    /// The current round.
    pub fn round(&self) -> u32 {
        each!(self, s => s.state().core().round)
    }

    /// Tokens counted so far.
    pub fn tokens_used(&self) -> u64 {
        each!(self, s => s.state().core().tokens_used)
    }

    /// The person's request (or a meeting's agenda), verbatim.
    pub fn request(&self) -> &str {
        match self {
            Session::Team(s) => &s.state().request,
            Session::Meeting(s) => &s.state().agenda,
        }
    }

    /// The members with their provider and model (never a key), for lists and files.
    pub fn members(&self) -> Vec<crate::export::MemberBrief> {
        match self {
            Session::Team(s) => s
                .state()
                .members
                .iter()
                .map(|m| crate::export::MemberBrief {
                    id: m.id.clone(),
                    name: m.name.clone(),
                    model: m.model.clone(),
                })
                .collect(),
            Session::Meeting(s) => s
                .state()
                .attendees
                .iter()
                .map(|a| crate::export::MemberBrief {
                    id: a.id.clone(),
                    name: a.name.clone(),
                    model: a.model.clone(),
                })
                .collect(),
        }
    }

    /// The title for lists: the first line of the request without its Markdown markup.
    pub fn title(&self) -> String {
        crate::text::title_of(self.request())
    }

    /// What the shell shows of the session.
    pub fn view(&self) -> SessionView {
        each!(self, s => view_of(self.kind(), s))
    }

    /// The event names with what each did, one line each (for scenario snapshots and logs).
    pub fn event_lines(&self) -> Vec<String> {
        each!(self, s => s.events().iter().map(event_line).collect())
    }
}

/// One event as a line: its name and what it says in brief.
fn event_line<P: Protocol>(e: &Event<P>) -> String {
    let name = e.kind.name();
    match &e.kind {
        EventKind::StepStarted {
            round,
            step,
            members,
        } => format!(
            "{name} r{round} {} [{}]",
            P::step_name(*step),
            members.join(", ")
        ),
        EventKind::RoundStarted { round } => format!("{name} {round}"),
        EventKind::CallIssued { call } => {
            format!("{name} {} {} ({:?})", call.id, call.member, call.kind)
        }
        EventKind::AnswerReceived { call_id, .. }
        | EventKind::Applied { call_id, .. }
        | EventKind::ContextServed { call_id, .. } => format!("{name} {call_id}"),
        EventKind::AnswerInvalid {
            call_id, report, ..
        }
        | EventKind::FellBack {
            call_id, report, ..
        } => format!(
            "{name} {call_id}: {}",
            report
                .errors
                .iter()
                .map(|v| if v.path.is_empty() {
                    "/".to_string()
                } else {
                    v.path.clone()
                })
                .collect::<Vec<_>>()
                .join(" ")
        ),
        EventKind::AnswerRefused {
            call_id, reason, ..
        } => format!("{name} {call_id}: {reason}"),
        EventKind::HaltRaised { call_id, halt, .. } => {
            format!("{name} {call_id} {:?}", halt.halt_type)
        }
        EventKind::Paused { reason } => format!(
            "{name} {}",
            serde_json::to_value(reason)
                .ok()
                .and_then(|v| v.get("reason").and_then(|r| r.as_str()).map(str::to_string))
                .unwrap_or_default()
        ),
        EventKind::RoundsEnded { by } => format!("{name} by {by}"),
        _ => name.to_string(),
    }
}

fn view_of<P: Protocol>(kind: Kind, s: &crate::engine::Engine<P>) -> SessionView {
    let state = s.state();
    let core = state.core();
    let status = &core.status;
    let status_text = match status {
        Status::Draft => "not started yet".to_string(),
        Status::Running => "running".to_string(),
        Status::Paused { reason } => reason.describe(state),
        Status::AwaitingPerson { asked_by, .. } => format!("{asked_by} asks you a question"),
        Status::Done => "done".to_string(),
    };
    let stage = match core.step {
        Some(step) if core.round > 0 => format!("Round {} · {}", core.round, P::step_title(step)),
        Some(step) => P::step_title(step).to_string(),
        None if core.round > 0 => format!("Round {}", core.round),
        None => String::new(),
    };
    let running = *status == Status::Running;
    let paused = matches!(status, Status::Paused { .. });
    SessionView {
        kind,
        status: status.word(),
        status_text,
        stage,
        round: core.round,
        max_rounds: core.settings.max_rounds,
        tokens_used: core.tokens_used,
        live: core
            .live_states()
            .into_iter()
            .map(|(m, w)| (m.to_string(), w))
            .collect(),
        actions: Actions {
            start: *status == Status::Draft,
            resume: paused,
            pause: running,
            wrap_up: s.cannot_finish().is_none(),
            answer: matches!(status, Status::AwaitingPerson { .. }),
            edit: *status != Status::Done,
        },
    }
}
