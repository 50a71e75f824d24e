//! Sessions as the app keeps them: creating one, loading it back by replaying its stored events,
//! and the record the home page lists.
//!
//! The engine (`roundtable_core::session::Session`) is the only source of truth; the stored
//! events are exactly its log, and a session is loaded by [`Session::replay`] — nothing here
//! re-derives state.

use roundtable_core::event::Event;
use roundtable_core::session::{status_word, Session, SessionConfig};

use crate::storage::{self, SessionRecord, StoredEvent};
use crate::util::now_ms;

/// The kind of session every record made here has (the only protocol the engine runs today).
pub const KIND_TEAM: &str = "team";

/// A title for lists: the first line of the request, shortened.
pub fn title_of(session: &Session) -> String {
    let request = &session.state().request;
    let first = request
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("Untitled");
    // A request written in Markdown: the title is the heading's text, not its markup.
    let mut first = first.trim();
    // Quote markers, then one heading marker (1–6 `#` and a space: `#1 priority` stays), then
    // one list bullet.
    first = first.trim_start_matches(['>', ' ']);
    let hashes = first.len() - first.trim_start_matches('#').len();
    if (1..=6).contains(&hashes)
        && first[hashes..]
            .chars()
            .next()
            .is_none_or(char::is_whitespace)
    {
        first = first[hashes..].trim_start();
    }
    let first = ["- ", "* ", "+ "]
        .iter()
        .find_map(|bullet| first.strip_prefix(bullet))
        .unwrap_or(first)
        .trim();
    let first = if first.is_empty() { "Untitled" } else { first };
    if first.chars().count() > 90 {
        let cut: String = first.chars().take(88).collect();
        format!("{}…", cut.trim_end())
    } else {
        first.to_string()
    }
}

/// The record for a session as it stands now.
pub fn record_for(id: &str, session: &Session, created_at: f64) -> SessionRecord {
    let state = session.state();
    SessionRecord {
        id: id.to_string(),
        title: title_of(session),
        kind: KIND_TEAM.into(),
        status: status_word(&state.status).into(),
        round: state.round,
        updated_at: now_ms(),
        created_at,
        tokens: state.tokens_used,
        next_seq: session.events().len() as u64,
    }
}

/// Events `from..` of a session, serialised for storage.
pub fn stored_events(session: &Session, from: usize) -> Result<Vec<StoredEvent>, String> {
    session.events()[from.min(session.events().len())..]
        .iter()
        .map(|e| {
            serde_json::to_string(e)
                .map(|json| StoredEvent { seq: e.seq, json })
                .map_err(|err| format!("an event could not be serialised: {err}"))
        })
        .collect()
}

/// Creates a draft session from a config and stores it; returns its id.
pub async fn create(config: SessionConfig) -> Result<String, String> {
    let now = now_ms();
    let session = Session::new(config, now as u64).map_err(|e| e.to_string())?;
    let id = crate::util::new_id();
    let record = record_for(&id, &session, now);
    let events = stored_events(&session, 0)?;
    storage::commit(&record, &events)
        .await
        .map_err(|e| e.to_string())?;
    Ok(id)
}

/// Loads a stored session: its record and the engine rebuilt from its events.
pub async fn load(id: &str) -> Result<(SessionRecord, Session), String> {
    let record = storage::get_session(id)
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| "There is no session with this id in this browser.".to_string())?;
    let stored = storage::load_events(id).await.map_err(|e| e.to_string())?;
    let mut events = Vec::with_capacity(stored.len());
    for s in &stored {
        let event: Event = serde_json::from_str(&s.json)
            .map_err(|e| format!("stored event {} is damaged: {e}", s.seq))?;
        events.push(event);
    }
    let session =
        Session::replay(&events).map_err(|e| format!("the stored session does not replay: {e}"))?;
    Ok((record, session))
}

#[cfg(test)]
mod tests {
    use super::*;
    use roundtable_core::session::{ModelRef, SessionConfig};

    fn titled(request: &str) -> String {
        let model = ModelRef {
            provider: "demo".into(),
            model: "demo-1".into(),
        };
        let config = SessionConfig::standard(request, 1, false, false, model);
        title_of(&Session::new(config, 0).expect("a session"))
    }

    #[test]
    fn the_title_is_the_first_line_without_its_markdown_markup() {
        assert_eq!(
            titled("# Plan a garden party\n\nWe host 40."),
            "Plan a garden party"
        );
        assert_eq!(titled("\n\n> - Compare heat pumps"), "Compare heat pumps");
        assert_eq!(titled("Plain request"), "Plain request");
        assert_eq!(titled("###"), "Untitled");
        assert_eq!(titled("#1 priority: ship it"), "#1 priority: ship it");
        assert_eq!(titled("#hashtag campaign"), "#hashtag campaign");
        assert_eq!(titled("####### seven"), "####### seven");
        let long = "word ".repeat(40);
        let t = titled(&long);
        assert!(t.ends_with('…') && t.chars().count() <= 89, "{t}");
    }
}
