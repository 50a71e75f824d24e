//! A session's title: the person's name for it, which overrides the request's first line.
//!
//! A rename is a person's edit ([`EngineEdit::Title`]), recorded in the log like any other, so it
//! survives a reload, an export and import, and a shared link with nothing else to carry. Unlike
//! the other edits it is taken in any status, a finished session too: it changes no work.
//! Older logs have no such event and keep the default.

use super::event::{EngineEdit, EventKind};
use super::status::EngineError;
use super::Engine;

/// The longest title a person may give, in characters.
pub const TITLE_MAX: usize = 120;

/// What is wrong with `title` as a session's title, if anything (empty is fine: the default).
pub fn problem(title: &str) -> Option<String> {
    if title.chars().count() > TITLE_MAX {
        return Some(format!("a title has at most {TITLE_MAX} characters"));
    }
    if title.contains(['\n', '\r']) {
        return Some("a title is one line".into());
    }
    None
}

impl Engine {
    /// Names the session `title` (trimmed; empty gives back the default, the request's first
    /// line). Nothing is recorded when the title stays as it is.
    pub fn rename(&mut self, title: &str, now: u64) -> Result<(), EngineError> {
        let title = title.trim().to_string();
        if let Some(p) = problem(&title) {
            return Err(EngineError::Edit(p));
        }
        if self.state().core().title.as_deref().unwrap_or("") == title {
            return Ok(());
        }
        self.record(
            EventKind::PersonEdited {
                edit: EngineEdit::Title { title },
            },
            now,
        )
    }
}
