//! Moving sessions in and out of the browser: the session file (`.roundtable.json`) and the
//! Markdown report, both produced and checked by `roundtable-core`'s export module.
//!
//! An import is parsed and replayed completely before anything is written; the write is one
//! transaction; so a bad file leaves every stored session as it was.

use roundtable_core::export;
use roundtable_core::session::Session;

use crate::storage;
use crate::util::{download, file_stem, new_id, now_ms};
use crate::{runner, sessions};

/// What an import did.
#[derive(Debug, Clone, PartialEq)]
pub enum Imported {
    /// Stored as a new session with this id.
    Stored(String),
    /// Nothing stored: the same session (same kind, title and creation time) is already here,
    /// under this id. Import again with `keep_both` to add a second copy.
    AlreadyThere(String),
}

/// The stages of an import, in order, as the progress bar names them. Each runs as its own task
/// with the page free in between, so a big file never holds the page for long.
pub const IMPORT_STAGES: [&str; 4] = [
    "checking the file",
    "reading its history",
    "replaying its history",
    "saving it in this browser",
];

/// Reads and checks a session file into a session, in the first three of [`IMPORT_STAGES`], each
/// its own task: `progress` is told each stage's index as it starts, and the page may draw and
/// take input before the next.
pub async fn read_in_stages(text: &str, progress: impl Fn(usize)) -> Result<Session, String> {
    let stage = |i: usize| {
        progress(i);
        runner::gloo_timers_sleep(0)
    };
    stage(0).await;
    let checked = export::check_file(text).map_err(|e| e.to_string())?;
    stage(1).await;
    let read = checked.read().map_err(|e| e.to_string())?;
    stage(2).await;
    read.replay().map_err(|e| e.to_string())
}

/// Imports a session file as a new session, telling `progress` the index in [`IMPORT_STAGES`] of
/// each stage as it starts. Unless `keep_both`, a session that is already stored is not added a
/// second time: the person is asked first.
pub async fn import_session(
    text: &str,
    keep_both: bool,
    progress: impl Fn(usize),
) -> Result<Imported, String> {
    let session = read_in_stages(text, &progress).await?;
    progress(3);
    runner::gloo_timers_sleep(0).await;
    let now = now_ms();
    let created_at = session.created_at().map_or(now, |at| at as f64);
    if !keep_both {
        let (title, kind) = (session.title(), session.kind().name());
        let forked_from = session.forked_from().map(|o| (o.session.as_str(), o.seq));
        let stored = storage::list_sessions().await.map_err(|e| e.to_string())?;
        if let Some(same) = stored.iter().find(|r| {
            r.created_at == created_at
                    && r.kind == kind
                    && r.title == title
                    // A fork shares its original's first event: it is another session.
                    && r.forked_from.as_ref().map(|(id, seq)| (id.as_str(), *seq))
                        == forked_from
        }) {
            return Ok(Imported::AlreadyThere(same.id.clone()));
        }
    }
    let id = new_id();
    let record = sessions::record_for(&id, &session, created_at, now);
    let events = sessions::stored_events(&session, 0)?;
    storage::replace_session(&record, &events)
        .await
        .map_err(|e| e.to_string())?;
    // The page that opens it next takes the session as it is, instead of replaying it again.
    runner::adopt(&id, record, session).await?;
    Ok(Imported::Stored(id))
}

/// Downloads the session file of a stored session.
pub async fn export_session_file(id: &str) -> Result<(), String> {
    // The open session is read in place, not copied.
    if let Some(runner) = runner::existing(id) {
        return export_open_session(&runner);
    }
    let (record, session) = sessions::load(id).await?;
    download_file(
        &record.title,
        export::checked_file(&session, now_ms() as u64),
    )
}

/// Downloads the session file of the session open on the page (stored or shared by link).
pub fn export_open_session(runner: &runner::Runner) -> Result<(), String> {
    let text = runner.with_untracked(|s| export::checked_file(s, now_ms() as u64));
    download_file(&runner.record().title, text)
}

fn download_file(title: &str, text: Result<String, export::ExportError>) -> Result<(), String> {
    let text = text.map_err(|e| e.to_string())?;
    download(
        &format!("{}.roundtable.json", file_stem(title)),
        "application/json",
        &text,
    )
}

/// Downloads the Markdown report of a session.
pub fn export_report(title: &str, session: &Session) -> Result<(), String> {
    download(
        &format!("{}.md", file_stem(title)),
        "text/markdown",
        &export::markdown_report(session),
    )
}
