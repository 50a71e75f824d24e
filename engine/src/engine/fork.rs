//! Forks: a new session made of another's log up to a chosen event, with what-if edits, that
//! then runs live.
//!
//! A fork keeps the original's first events exactly as they were (so it replays to the original's
//! state at that point: recorded answers are folded, no call is made), then records where it came
//! from (a `forked` event), the person's edits (a member's model or persona, the kind's state — the
//! protocol's own edits, checked like any edit), and, when forked at a call, optionally an edited
//! answer to that call, judged like any answer: an invalid one refuses the fork with the same
//! findings a model would get. A fork that would run is left paused ([`PauseReason::Forked`]) so
//! the person starts it. Pure: the original is untouched, the id and the time come in.

use thiserror::Error;

use super::event::{EngineEdit, EventKind, ForkOrigin};
use super::status::{EngineError, Findings, FoldError, Outcome, PauseReason, Status};
use super::Engine;

/// Why a fork could not be made. Nothing is created.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ForkError {
    /// The point is past the end of the log.
    #[error("there is no event {at} to fork from (the session has {len} events)")]
    NoSuchEvent {
        /// The event asked for.
        at: u64,
        /// Events in the log.
        len: usize,
    },
    /// No call has this id.
    #[error("there is no call {0} to fork from")]
    NoSuchCall(String),
    /// The log up to the point does not replay (a damaged log).
    #[error("the session's history up to that point does not replay: {0}")]
    Replay(#[from] FoldError),
    /// A what-if edit was refused.
    #[error("the edit cannot be made: {0}")]
    Edit(EngineError),
    /// An edited answer was given, but the fork has no call of that member to answer.
    #[error("there is no call of {0} to answer at that point")]
    NothingToAnswer(String),
    /// The edited answer is invalid: the findings a model would get.
    #[error("the edited answer is invalid: {}", crate::text::count(.0.errors.len(), "problem", "problems"))]
    InvalidAnswer(Findings),
}

/// Where to fork and what to change.
#[derive(Debug, Clone, PartialEq)]
pub struct ForkPlan {
    /// The new session's origin: the original's id, and the last event kept.
    pub origin: ForkOrigin,
    /// The person's edits, recorded in order after the `forked` event.
    pub edits: Vec<EngineEdit>,
    /// An answer to give the chosen call in place of a model's: (member, raw text). Judged like
    /// any answer.
    pub answer: Option<(String, String)>,
}

impl Engine {
    /// The event a fork at `call_id` keeps last: the one before the call was issued, so the call
    /// is made again in the fork (with the fork's edits in its prompt) or answered by hand.
    pub fn fork_point(&self, call_id: &str) -> Result<u64, ForkError> {
        let issued = self
            .events()
            .iter()
            .position(|e| matches!(&e.kind, EventKind::CallIssued { call } if call.id == call_id))
            .ok_or_else(|| ForkError::NoSuchCall(call_id.to_string()))?;
        // A call is never the first event: `created` always comes before it.
        Ok(issued as u64 - 1)
    }

    /// A new session whose log is this one's events `0..=plan.origin.seq`, then `forked`, the
    /// edits and the edited answer of `plan`; paused when it would run, so the person starts it.
    pub fn fork_at(&self, plan: ForkPlan, now: u64) -> Result<Engine, ForkError> {
        let at = plan.origin.seq;
        let len = self.events().len();
        if at as usize >= len {
            return Err(ForkError::NoSuchEvent { at, len });
        }
        let mut fork = Engine::replay(self.info(), &self.events()[..=at as usize])?;
        fork.record(EventKind::Forked { from: plan.origin }, now)
            .map_err(ForkError::Edit)?;
        for edit in plan.edits {
            fork.edit(edit, now).map_err(ForkError::Edit)?;
        }
        if let Some((member, raw)) = plan.answer {
            fork.answer_by_hand(&member, &raw, now)?;
        }
        if *fork.status() == Status::Running {
            fork.record(
                EventKind::Paused {
                    reason: PauseReason::Forked,
                },
                now,
            )
            .map_err(ForkError::Edit)?;
        }
        Ok(fork)
    }

    /// Issues what is due and hands `raw` in as `member`'s answer; refuses an invalid one.
    fn answer_by_hand(&mut self, member: &str, raw: &str, now: u64) -> Result<(), ForkError> {
        let nothing = || ForkError::NothingToAnswer(member.to_string());
        if *self.status() != Status::Running {
            return Err(nothing());
        }
        self.advance(now).map_err(ForkError::Edit)?;
        let call_id = self
            .state()
            .core()
            .outstanding_calls()
            .find(|c| c.call.member == member)
            .map(|c| c.call.id.clone())
            .ok_or_else(nothing)?;
        match self.submit(&call_id, raw, None, now) {
            Ok(Outcome::Invalid { report, .. } | Outcome::FellBack { report }) => {
                Err(ForkError::InvalidAnswer(report))
            }
            Ok(_) => Ok(()),
            Err(e) => Err(ForkError::Edit(e)),
        }
    }
}
