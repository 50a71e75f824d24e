//! Forking any session from any step, whatever its kind: the kind-neutral what-ifs a person may
//! make before the fork runs, and the form the fork dialog fills in.
//!
//! The engine does the work ([`crate::engine::Engine::fork_at`]); this module turns the
//! person's what-ifs (a member's provider and model or persona, the charter, the chosen call's
//! answer) into the kind's own edits, and says what the dialog starts from: the members and the
//! charter as they were at that point, and the call's recorded answer.

use serde::Serialize;

use crate::engine::{
    Engine, EngineEdit, EngineError, ForkError, ForkOrigin, ForkPlan, MemberChange, Protocol,
};
use crate::protocol::team::{Charter, PersonEdit};
use crate::session::{each, Registered, Session};

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
pub type ForkMember = crate::engine::MemberInfo;

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
        each!(self, s => s.state().core().forked_from.as_ref())
    }

    /// The last event a fork at `at` keeps.
    pub fn fork_seq(&self, at: &ForkAt) -> Result<u64, ForkError> {
        let point = match at {
            ForkAt::Event(seq) => *seq,
            ForkAt::Call(id) => each!(self, s => s.fork_point(id))?,
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
        let members = each!(&before, s => s.state().members());
        // The charter is the team's own what-if; other kinds change members only.
        let team = before.as_team();
        let charter = team.and_then(|t| t.state().charter.clone());
        let has_charter = team.is_some();
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
        if let Some(charter) = what_if.charter {
            let team = self.as_team().ok_or_else(|| {
                ForkError::Edit(EngineError::Edit(format!(
                    "a {} has no charter to change",
                    self.kind().title().to_lowercase()
                )))
            })?;
            let extra = EngineEdit::Protocol(PersonEdit::Charter { charter });
            return plan_fork(team, origin, what_if.members, Some(extra), answer, now);
        }
        each!(self, s => plan_fork(s, origin, what_if.members, None, answer, now))
    }
}

/// The fork of `engine`: each member change as the kind's own edit, then `extra` (a kind's own
/// what-if), then the answer.
fn plan_fork<P: Registered>(
    engine: &Engine<P>,
    origin: ForkOrigin,
    members: Vec<MemberChange>,
    extra: Option<EngineEdit<P>>,
    answer: Option<(String, String)>,
    now: u64,
) -> Result<Session, ForkError> {
    let edits = members
        .into_iter()
        .map(|change| EngineEdit::Protocol(P::member_edit(change)))
        .chain(extra)
        .collect();
    engine
        .fork_at(
            ForkPlan {
                origin,
                edits,
                answer,
            },
            now,
        )
        .map(P::wrap)
}
