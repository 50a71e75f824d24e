//! Moving sessions in and out of the browser: the session file (`.roundtable.json`) and the
//! Markdown report, both produced and checked by `roundtable-core`'s export module.
//!
//! An import is parsed and replayed completely before anything is written; the write is one
//! transaction; so a bad file leaves every stored session as it was.

use roundtable_core::event::Event;
use roundtable_core::session::Session;

use crate::storage;
use crate::util::{download, file_stem, new_id, now_ms};
use crate::{runner, sessions};

/// The session file of a stored session, as text.
pub fn session_file(session: &Session) -> Result<String, String> {
    let doc = serde_json::json!({
        "format": "roundtable-session",
        "schema_version": 1,
        "events": session.events(),
    });
    serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())
}

/// Parses and replays a session file; nothing is stored.
pub fn parse_session_file(text: &str) -> Result<Session, String> {
    let value: serde_json::Value = serde_json::from_str(text.trim_start_matches('\u{feff}'))
        .map_err(|e| format!("this is not a JSON file ({e})"))?;
    if value.get("format").and_then(|f| f.as_str()) != Some("roundtable-session") {
        return Err("this JSON file is not a Roundtable session".into());
    }
    let events: Vec<Event> =
        serde_json::from_value(value.get("events").cloned().unwrap_or_default())
            .map_err(|e| format!("the events are damaged: {e}"))?;
    if events.is_empty() {
        return Err("the file holds no events".into());
    }
    Session::replay(&events).map_err(|e| format!("the session does not replay: {e}"))
}

/// The Markdown report of a session.
pub fn report(session: &Session) -> String {
    let s = session.state();
    let mut out = format!("# {}\n\n{}\n", s.team_name, s.request);
    for (depth, p) in s.tree.walk() {
        out.push_str(&format!(
            "\n{} {}\n",
            "#".repeat((depth + 2).min(6)),
            p.name
        ));
        if let Some(v) = p.selected_version().and_then(|v| s.tree.version(v)) {
            out.push_str(&format!("\n{}\n", v.content));
        }
    }
    out
}

/// Imports a session file as a new session; returns its id.
pub async fn import_session(text: &str) -> Result<String, String> {
    let session = parse_session_file(text)?;
    let id = new_id();
    let mut record = sessions::record_for(&id, &session, now_ms());
    record.created_at = session
        .events()
        .first()
        .map(|e| e.at as f64)
        .unwrap_or_else(now_ms);
    let events = sessions::stored_events(&session, 0)?;
    storage::replace_session(&record, &events)
        .await
        .map_err(|e| e.to_string())?;
    Ok(id)
}

/// Downloads the session file of a stored session.
pub async fn export_session_file(id: &str) -> Result<(), String> {
    let (record, session) = match runner::existing(id) {
        Some(r) => (r.record(), r.with_untracked(Clone::clone)),
        None => sessions::load(id).await?,
    };
    let text = session_file(&session)?;
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
        &report(session),
    )
}
