//! A session's history, any point of it: the state after its first `k` events, for the session
//! page's timeline slider.
//!
//! The state after `k` events is the fold of those events, so a point of history is exact by
//! construction ([`Session::rewound`] is the plain form). Stepping must stay quick on a big
//! session, so [`History`] keeps a cursor that steps forward by folding only the next events,
//! and a mark (a copy of the state) every [`History::every`] events to step back from: going
//! back to `k` clones the nearest mark at or before `k` and folds the few events after it.

use crate::engine::FoldError;
use crate::session::{LogError, Session};

/// Marks every this many events unless asked otherwise.
pub const DEFAULT_EVERY: usize = 64;

/// A view of one session's history that moves to any point quickly.
#[derive(Debug, Clone)]
pub struct History {
    every: usize,
    /// `marks[i]` is the session after its first `1 + i * every` events.
    marks: Vec<Session>,
    cursor: Session,
}

impl History {
    /// A history of `session` with a mark every `every` events (at least 1).
    pub fn new(session: &Session, every: usize) -> Result<History, LogError> {
        let first = session.rewound(1)?;
        Ok(History {
            every: every.max(1),
            marks: vec![first.clone()],
            cursor: first,
        })
    }

    /// Events between two marks.
    pub fn every(&self) -> usize {
        self.every
    }

    /// The point shown last ([`History::at`]).
    pub fn current(&self) -> &Session {
        &self.cursor
    }

    /// `session` as it was after its first `len` events (1 ..= its event count; clamped).
    /// `session` must be the one this history was made of, or a later state of it (its log
    /// only grows).
    pub fn at(&mut self, session: &Session, len: usize) -> Result<&Session, LogError> {
        let len = len.clamp(1, session.event_count().max(1));
        // The nearest mark at or before `len`: start there when the cursor is past `len` or
        // further behind than the mark.
        let i = ((len - 1) / self.every).min(self.marks.len() - 1);
        let here = self.cursor.event_count();
        if here > len || self.marks[i].event_count() > here {
            self.cursor = self.marks[i].clone();
        }
        while self.cursor.event_count() < len {
            let next_mark = 1 + self.marks.len() * self.every;
            let to = if next_mark <= len { next_mark } else { len };
            self.cursor.extend_from(session, to)?;
            if self.cursor.event_count() == next_mark {
                self.marks.push(self.cursor.clone());
            }
        }
        Ok(&self.cursor)
    }
}

impl Session {
    /// Folds `source`'s events from this session's count up to `len` onto this session (`source`
    /// is this session's future: the same log, longer).
    pub fn extend_from(&mut self, source: &Session, len: usize) -> Result<(), LogError> {
        let from = self.event_count();
        if source.kind() != self.kind() {
            return Err(LogError::Replay(FoldError::Unexpected(
                "another kind of session".into(),
            )));
        }
        let src = source.any_engine().events();
        self.any_engine_mut()
            .extend(&src[from.min(len)..len.min(src.len())])?;
        Ok(())
    }
}
