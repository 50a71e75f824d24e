//! Forking any session from any step, whatever its kind: the kind-neutral what-ifs a person may
//! make before the fork runs, and the form the fork dialog fills in.
//!
//! The engine does the work ([`crate::engine::Engine::fork_at`]); this module turns the
//! person's what-ifs (a member's provider and model or persona, the charter, the chosen call's
//! answer) into the kind's own edits, and says what the dialog starts from: the members and the
//! charter as they were at that point, and the call's recorded answer.

use serde::Serialize;

use crate::engine::{
    EditWhatIf, Engine, EngineEdit, EngineError, EventKind, ForkError, ForkOrigin, ForkPlan,
    MemberChange,
};
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

/// A fork as lists and its page name it: where it came from and what the person changed there,
/// read from its log (the edits and the hand-written answer recorded right after `forked`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ForkNote {
    /// The original and the last event kept.
    pub from: ForkOrigin,
    /// Each what-if in a person's words ("Ana on demo-2", "a new charter"), in the order made.
    pub what_ifs: Vec<String>,
    /// The point forked from in a person's words ([`crate::session::Session::point_words`]:
    /// "Ana's answer was taken, turn 3"), never its index.
    pub point: String,
}

impl ForkNote {
    /// The fork's line: "Fork after “Ana's answer was taken, turn 3”: Ana on demo-2", or
    /// "Fork after “…”, nothing changed" when it runs on as the original did.
    pub fn words(&self) -> String {
        let point = &self.point;
        if self.what_ifs.is_empty() {
            format!("Fork after “{point}”, nothing changed")
        } else {
            format!("Fork after “{point}”: {}", self.what_ifs.join("; "))
        }
    }
}

/// A member's change as a what-if, under the member's name: "Ana on demo-2", "Ana with a new
/// persona", or both.
fn member_words(change: &MemberChange, name: &str) -> String {
    let mut words = name.to_string();
    if let Some(m) = &change.model {
        words.push_str(&format!(" on {}", m.model));
    }
    if change.persona.is_some() {
        words.push_str(" with a new persona");
    }
    words
}

/// The note of `engine`, when it is a fork: the person's edits between its `forked` event and
/// the run that follows (a pause, a start or a resume), and a call answered by hand there.
fn note_of(engine: &Engine) -> Option<ForkNote> {
    let events = engine.events();
    let at = events
        .iter()
        .position(|e| matches!(e.kind, EventKind::Forked { .. }))?;
    let EventKind::Forked { from } = &events[at].kind else {
        return None;
    };
    let members = engine.state().members();
    let name = |id: &str| {
        members
            .iter()
            .find(|m| m.id == id)
            .map_or_else(|| id.to_string(), |m| m.name.clone())
    };
    let mut what_ifs = Vec::new();
    for e in &events[at + 1..] {
        match &e.kind {
            EventKind::Paused { .. } | EventKind::Started { .. } | EventKind::Resumed { .. } => {
                break
            }
            EventKind::PersonEdited {
                edit: EngineEdit::Protocol(edit),
            } => match (engine.info().what_if_of)(edit) {
                Some(EditWhatIf::Member(change)) => {
                    what_ifs.push(member_words(change, &name(&change.member)))
                }
                Some(EditWhatIf::Kind(words)) => what_ifs.push(words.to_string()),
                None => {}
            },
            EventKind::AnswerReceived { call_id, .. } => {
                if let Some(rec) = engine.state().core().call(call_id) {
                    what_ifs.push(format!(
                        "{}'s answer written by hand",
                        name(&rec.call.member)
                    ));
                }
            }
            _ => {}
        }
    }
    // The fork keeps the original's events up to its point, then `Forked`: the point is the
    // event just before it, named as the original's history slider names it.
    let point = at
        .checked_sub(1)
        .and_then(|seq| crate::session::point_words(events, engine.state(), seq))
        .unwrap_or_else(|| "the start".to_string());
    Some(ForkNote {
        from: from.clone(),
        what_ifs,
        point,
    })
}

impl Session {
    /// What this session was forked from and what the person changed there, if it is a fork.
    pub fn fork_note(&self) -> Option<ForkNote> {
        note_of(self.any_engine())
    }

    /// The original this session was forked from, if it is a fork.
    pub fn forked_from(&self) -> Option<&ForkOrigin> {
        self.any_engine().state().core().forked_from.as_ref()
    }

    /// The last event a fork at `at` keeps.
    pub fn fork_seq(&self, at: &ForkAt) -> Result<u64, ForkError> {
        let point = match at {
            ForkAt::Event(seq) => *seq,
            ForkAt::Call(id) => self.any_engine().fork_point(id)?,
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
        let members = before.any_engine().state().members();
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
            let extra = EngineEdit::of_kind(PersonEdit::Charter { charter });
            return plan_fork(&team, origin, what_if.members, Some(extra), answer, now);
        }
        plan_fork(
            self.any_engine(),
            origin,
            what_if.members,
            None,
            answer,
            now,
        )
    }
}

/// The fork of `engine`: each member change as the kind's own edit, then `extra` (a kind's own
/// what-if), then the answer.
fn plan_fork(
    engine: &Engine,
    origin: ForkOrigin,
    members: Vec<MemberChange>,
    extra: Option<EngineEdit>,
    answer: Option<(String, String)>,
    now: u64,
) -> Result<Session, ForkError> {
    let edits = members
        .into_iter()
        .map(|change| EngineEdit::Protocol((engine.info().member_edit)(change)))
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
        .map(Session::of_engine)
}
