//! Sessions as the app keeps them: creating one, loading it back by replaying its stored events,
//! and the record the home page lists.
//!
//! The engine (`roundtable_core::session::Session`) is the only source of truth; the stored
//! events are exactly its log ([`Session::events_json`]), a session is loaded by
//! [`Session::replay_stored`], and every field of the record is the session's own word — nothing
//! here re-derives state.

use roundtable_core::session::{Registered, Session};

use crate::storage::{self, SessionRecord, StoredEvent};
use crate::util::now_ms;

/// The record for a session as it stands at `now` (ms).
pub fn record_for(id: &str, session: &Session, created_at: f64, now: f64) -> SessionRecord {
    SessionRecord {
        id: id.to_string(),
        title: session.title(),
        kind: session.kind().name().into(),
        status: session.status_word().into(),
        round: session.round(),
        updated_at: now,
        created_at,
        tokens: session.tokens_used(),
        next_seq: session.event_count() as u64,
        forked_from: session.forked_from().map(|o| (o.session.clone(), o.seq)),
        fork_note: session.fork_note().map(|n| n.words()),
    }
}

/// Events `from..` of a session, serialised for storage.
pub fn stored_events(session: &Session, from: usize) -> Result<Vec<StoredEvent>, String> {
    Ok(session
        .events_json(from)?
        .into_iter()
        .map(|(seq, json)| StoredEvent { seq, json })
        .collect())
}

/// Creates a draft session of kind `P` from its config and stores it; returns its id.
pub async fn create<P: Registered>(config: P::Config) -> Result<String, String> {
    let session = Session::create::<P>(config, now_ms() as u64).map_err(|e| e.to_string())?;
    store_new(session).await
}

/// What every new-session form does with a valid config: stores a draft of kind `P` and opens
/// it, or says why it could not; `busy` is on while it works (the form's Create is off).
pub fn create_and_open<P: Registered>(config: P::Config, busy: leptos::prelude::RwSignal<bool>)
where
    P::Config: 'static,
{
    use leptos::prelude::Set;
    busy.set(true);
    leptos::task::spawn_local(async move {
        match create::<P>(config).await {
            Ok(id) => crate::route::navigate(&crate::route::Route::session(id)),
            Err(e) => crate::app::app_state().error(e),
        }
        busy.set(false);
    });
}

/// Stores a new session of any kind (its record and its first events; a fork too, made by
/// [`Session::fork`]); returns its id.
pub async fn store_new(session: Session) -> Result<String, String> {
    let now = now_ms();
    let id = crate::util::new_id();
    let record = record_for(&id, &session, now, now);
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
    let json: Vec<String> = stored.into_iter().map(|s| s.json).collect();
    let session = Session::replay_stored(&json)
        .map_err(|e| format!("the stored session does not replay: {e}"))?;
    Ok((record, session))
}

#[cfg(test)]
mod tests {
    use super::*;
    use roundtable_core::engine::ModelRef;
    use roundtable_core::protocol::team::TeamConfig;

    fn session(request: &str) -> Session {
        let model = ModelRef {
            provider: "demo".into(),
            model: "demo-1".into(),
        };
        let config = TeamConfig::standard(request, 1, false, false, model);
        Session::new_team(config, 0).expect("a session")
    }

    #[test]
    fn the_record_is_the_sessions_own_words() {
        let s = session("# Plan a garden party\n\nWe host 40.");
        let r = record_for("id-1", &s, 5.0, 6.0);
        assert_eq!(r.title, "Plan a garden party");
        assert_eq!((r.kind.as_str(), r.status.as_str()), ("team", "draft"));
        assert_eq!((r.round, r.tokens), (0, 0));
        assert_eq!((r.created_at, r.updated_at), (5.0, 6.0));
        assert_eq!(r.next_seq, 1, "the created event");
    }

    #[test]
    fn stored_events_replay_into_the_same_session() {
        let mut s = session("Plan a garden party");
        s.start(1).unwrap();
        let events = stored_events(&s, 0).unwrap();
        assert_eq!(
            events.iter().map(|e| e.seq).collect::<Vec<_>>(),
            (0..s.event_count() as u64).collect::<Vec<_>>()
        );
        assert_eq!(stored_events(&s, 1).unwrap(), events[1..].to_vec());
        let json: Vec<&str> = events.iter().map(|e| e.json.as_str()).collect();
        assert_eq!(Session::replay_stored(&json).unwrap(), s);
    }
}
