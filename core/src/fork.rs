//! Forking any session from any step, whatever its kind: the kind-neutral what-ifs a person may
//! make before the fork runs, and the form the fork dialog fills in.
//!
//! The engine does the work ([`crate::engine::Engine::fork_at`]); this module turns the
//! person's what-ifs (a member's provider and model or persona, the charter, the chosen call's
//! answer) into the kind's own edits, and says what the dialog starts from: the members and the
//! charter as they were at that point, and the call's recorded answer.

use serde::Serialize;

use crate::engine::{
    Engine, EngineEdit, EngineError, ForkError, ForkOrigin, ForkPlan, MemberChange, ModelRef,
    Protocol,
};
use crate::protocol::meeting::MeetingEdit;
use crate::protocol::team::{Charter, PersonEdit};
use crate::session::Session;

/// Where a fork starts: at a call (it is made again, or answered by hand), or after any event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ForkAt {
    /// Keep every event before this call was issued.
    Call(String),
    /// Keep events `0..=seq`.
    Event(u64),
}

/// What the person changes in the fork before it runs. Empty: the fork runs from there as the
/// original did, live.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct WhatIf {
    /// Members whose provider and model or persona change.
    pub members: Vec<MemberChange>,
    /// A new charter (team sessions only).
    pub charter: Option<Charter>,
    /// The chosen call's answer, as the person wrote it (forks at a call only); judged like a
    /// model's.
    pub answer: Option<String>,
}

/// One member as the fork dialog shows it: as it was at the fork's point.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ForkMember {
    /// Member id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Provider and model.
    pub model: ModelRef,
    /// Persona at that point.
    pub persona: String,
}

/// What the fork dialog starts from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ForkForm {
    /// The last event the fork keeps.
    pub seq: u64,
    /// The members at that point.
    pub members: Vec<ForkMember>,
    /// The charter at that point (team sessions; `None` for a meeting or before Bootstrap).
    pub charter: Option<Charter>,
    /// Whether the session has a charter to edit at all (team sessions).
    pub has_charter: bool,
    /// For a fork at a call: its member and the answer it recorded (if one came).
    pub call: Option<(String, Option<crate::text::Text>)>,
}

impl Session {
    /// The original this session was forked from, if it is a fork.
    pub fn forked_from(&self) -> Option<&ForkOrigin> {
        match self {
            Session::Team(s) => s.state().core.forked_from.as_ref(),
            Session::Meeting(s) => s.state().core.forked_from.as_ref(),
        }
    }

    /// The last event a fork at `at` keeps.
    pub fn fork_seq(&self, at: &ForkAt) -> Result<u64, ForkError> {
        let point = match (self, at) {
            (_, ForkAt::Event(seq)) => *seq,
            (Session::Team(s), ForkAt::Call(id)) => s.fork_point(id)?,
            (Session::Meeting(s), ForkAt::Call(id)) => s.fork_point(id)?,
        };
        let len = self.event_count();
        if point as usize >= len {
            return Err(ForkError::NoSuchEvent { at: point, len });
        }
        Ok(point)
    }

    /// What the fork dialog starts from for a fork at `at`.
    pub fn fork_form(&self, at: &ForkAt) -> Result<ForkForm, ForkError> {
        let seq = self.fork_seq(at)?;
        let before = self.rewound(seq as usize + 1).map_err(|e| match e {
            crate::session::LogError::Replay(f) => ForkError::Replay(f),
            other => ForkError::Replay(crate::engine::FoldError::Unexpected(other.to_string())),
        })?;
        let call = match at {
            ForkAt::Call(id) => self
                .call_view(id)
                .map(|c| (c.member.clone(), c.raw_answer.clone())),
            ForkAt::Event(_) => None,
        };
        let (members, charter, has_charter) = match &before {
            Session::Team(s) => (
                s.state()
                    .members
                    .iter()
                    .map(|m| ForkMember {
                        id: m.id.clone(),
                        name: m.name.clone(),
                        model: m.model.clone(),
                        persona: m.persona.clone(),
                    })
                    .collect(),
                s.state().charter.clone(),
                true,
            ),
            Session::Meeting(s) => (
                s.state()
                    .attendees
                    .iter()
                    .map(|a| ForkMember {
                        id: a.id.clone(),
                        name: a.name.clone(),
                        model: a.model.clone(),
                        persona: a.persona.clone(),
                    })
                    .collect(),
                None,
                false,
            ),
        };
        Ok(ForkForm {
            seq,
            members,
            charter,
            has_charter,
            call,
        })
    }

    /// A fork of this session at `at`, with the person's what-ifs, as a new session that records
    /// `original_id` and the point as its origin. The original is untouched; nothing is made
    /// when an edit or the edited answer is refused (the error says which and why).
    pub fn fork(
        &self,
        at: &ForkAt,
        original_id: &str,
        what_if: WhatIf,
        now: u64,
    ) -> Result<Session, ForkError> {
        let seq = self.fork_seq(at)?;
        let answer = match (at, what_if.answer) {
            (_, None) => None,
            (ForkAt::Call(id), Some(raw)) => {
                let member = self
                    .call_view(id)
                    .ok_or_else(|| ForkError::NoSuchCall(id.clone()))?
                    .member;
                Some((member, raw))
            }
            (ForkAt::Event(_), Some(_)) => {
                return Err(ForkError::NothingToAnswer("the chosen call".into()))
            }
        };
        let origin = ForkOrigin {
            session: original_id.to_string(),
            seq,
        };
        match self {
            Session::Team(s) => {
                let mut edits: Vec<EngineEdit<_>> = what_if
                    .members
                    .into_iter()
                    .map(|change| PersonEdit::Member(change).into())
                    .collect();
                if let Some(charter) = what_if.charter {
                    edits.push(PersonEdit::Charter { charter }.into());
                }
                plan_fork(s, origin, edits, answer, now).map(Session::Team)
            }
            Session::Meeting(s) => {
                if what_if.charter.is_some() {
                    return Err(ForkError::Edit(EngineError::Edit(
                        "a meeting has no charter to change".into(),
                    )));
                }
                let edits = what_if
                    .members
                    .into_iter()
                    .map(|change| MeetingEdit::Member(change).into())
                    .collect();
                plan_fork(s, origin, edits, answer, now).map(Session::Meeting)
            }
        }
    }
}

fn plan_fork<P: Protocol>(
    engine: &Engine<P>,
    origin: ForkOrigin,
    edits: Vec<EngineEdit<P>>,
    answer: Option<(String, String)>,
    now: u64,
) -> Result<Engine<P>, ForkError> {
    engine.fork_at(
        ForkPlan {
            origin,
            edits,
            answer,
        },
        now,
    )
}
