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

/// Imports a session file as a new session; returns its id.
pub async fn import_session(text: &str) -> Result<String, String> {
    let session = export::from_file(text).map_err(|e| e.to_string())?;
    // Let the page breathe between reading the file and writing its events: a big session's
    // import is two shorter tasks, not one long one.
    runner::gloo_timers_sleep(0).await;
    let id = new_id();
    let now = now_ms();
    let created_at = session.created_at().map_or(now, |at| at as f64);
    let record = sessions::record_for(&id, &session, created_at, now);
    let events = sessions::stored_events(&session, 0)?;
    storage::replace_session(&record, &events)
        .await
        .map_err(|e| e.to_string())?;
    Ok(id)
}

/// Downloads the session file of a stored session.
pub async fn export_session_file(id: &str) -> Result<(), String> {
    let now = now_ms() as u64;
    // The open session is read in place, not copied.
    let (record, text) = match runner::existing(id) {
        Some(r) => (r.record(), r.with_untracked(|s| export::to_file(s, now))),
        None => {
            let (record, session) = sessions::load(id).await?;
            (record, export::to_file(&session, now))
        }
    };
    download(
        &format!("{}.roundtable.json", file_stem(&record.title)),
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
