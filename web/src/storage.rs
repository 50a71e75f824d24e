//! IndexedDB: the only place a session, its events and the person's keys live.
//!
//! Three stores. `sessions` holds one record per session (what the home page lists and what it
//! takes to rebuild the engine), `events` holds the append-only log keyed by
//! `[sessionId, seq]`, and `settings` holds preferences and provider keys — keys are written here
//! and nowhere else: never in an export, a URL or the console.
//!
//! Records are stored as JSON text inside a tiny wrapper object. That keeps the format exactly the
//! one `core` serialises (no JS `Map`s, no float surprises for big integers) and makes a record
//! readable in the browser's devtools.
//!
//! Writes are one transaction per batch: the session record and its new events commit together or
//! not at all, so a quota error or a closed tab never leaves half a step behind. Events are added
//! with `add`, not `put`, so a second writer that reached the same sequence number fails instead of
//! overwriting history.

use std::cell::RefCell;
use std::rc::Rc;

use idb::{
    Database, DatabaseEvent, Factory, KeyPath, KeyRange, ObjectStoreParams, Query, TransactionMode,
};
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use wasm_bindgen::JsValue;

/// The database name; bump [`DB_VERSION`] with an upgrade step when a store changes.
pub const DB_NAME: &str = "roundtable";
/// Schema version of the IndexedDB layout (not of the session file).
pub const DB_VERSION: u32 = 1;

const SESSIONS: &str = "sessions";
const EVENTS: &str = "events";
const SETTINGS: &str = "settings";

/// Why a storage call failed, in words a person can act on.
#[derive(Debug, Clone, thiserror::Error)]
pub enum StorageError {
    /// The browser refused to store more: the disk or the site's quota is full.
    #[error("the browser's storage is full (quota exceeded): nothing of this step was saved; free some space or delete old sessions, then run the session again")]
    Quota,
    /// IndexedDB is missing (private mode in some browsers, or blocked by settings).
    #[error("this browser does not offer IndexedDB here, so sessions cannot be kept: {0}")]
    Unavailable(String),
    /// A record had the same key as one already stored — another tab wrote this step first.
    #[error("another tab already saved this step; reopen the session to see its latest state")]
    Conflict,
    /// A stored record could not be read back.
    #[error("a stored record is damaged: {0}")]
    Corrupt(String),
    /// Anything else IndexedDB reported.
    #[error("storage failed: {0}")]
    Other(String),
}

impl From<idb::Error> for StorageError {
    fn from(e: idb::Error) -> Self {
        classify(&format!("{e:?}"))
    }
}

/// Maps a DOMException name seen anywhere in an error's text to the error a person understands.
fn classify(text: &str) -> StorageError {
    if text.contains("QuotaExceeded") || text.contains("quota") {
        StorageError::Quota
    } else if text.contains("ConstraintError") {
        StorageError::Conflict
    } else {
        StorageError::Other(text.chars().take(300).collect())
    }
}

/// What the home page lists and what it takes to rebuild a session, stored under its id.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionRecord {
    /// Random id (uuid v4), also the key of its events.
    pub id: String,
    /// A short title, from the request until the chair names the mission.
    pub title: String,
    /// The kind of session (`team`, …), as the protocol names it.
    pub kind: String,
    /// `running`, `paused`, `halted`, `done`, `stopped` or `failed`, as last saved.
    pub status: String,
    /// The round the session is in.
    pub round: u32,
    /// Milliseconds since the epoch of the last saved change.
    pub updated_at: f64,
    /// Milliseconds since the epoch of creation.
    pub created_at: f64,
    /// Tokens spent so far (input + output, as providers reported or core estimated).
    pub tokens: u64,
    /// The sequence number the next event gets (= number of events stored).
    pub next_seq: u64,
    /// The session it was forked from and the last event it kept, when it is a fork (its log
    /// says so too: this copy is for the list). Records from before forks have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forked_from: Option<(String, u64)>,
    /// A fork's line, naming its what-ifs ("Fork after “Ana's answer was taken, turn 3”: Ana on demo-2"), core's
    /// words ([`roundtable_core::fork::ForkNote::words`]). Records from before it have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fork_note: Option<String>,
}

/// One stored event: the session it belongs to, its place in the log and core's JSON for it.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredEvent {
    /// Position in the session's log, from 0.
    pub seq: u64,
    /// The event as core serialises it.
    pub json: String,
}

thread_local! {
    static DB: RefCell<Option<Rc<Database>>> = const { RefCell::new(None) };
}

/// Opens (once) and returns the database, creating the stores on first use.
pub async fn db() -> Result<Rc<Database>, StorageError> {
    if let Some(db) = DB.with(|d| d.borrow().clone()) {
        return Ok(db);
    }
    let factory = Factory::new().map_err(|e| StorageError::Unavailable(format!("{e:?}")))?;
    let mut request = factory.open(DB_NAME, Some(DB_VERSION))?;
    request.on_upgrade_needed(|event| {
        let Ok(db) = event.database() else { return };
        let names = db.store_names();
        if !names.iter().any(|n| n == SESSIONS) {
            let mut p = ObjectStoreParams::new();
            p.key_path(Some(KeyPath::new_single("id")));
            let _ = db.create_object_store(SESSIONS, p);
        }
        if !names.iter().any(|n| n == EVENTS) {
            let mut p = ObjectStoreParams::new();
            p.key_path(Some(KeyPath::new_array(["sessionId", "seq"])));
            let _ = db.create_object_store(EVENTS, p);
        }
        if !names.iter().any(|n| n == SETTINGS) {
            let mut p = ObjectStoreParams::new();
            p.key_path(Some(KeyPath::new_single("key")));
            let _ = db.create_object_store(SETTINGS, p);
        }
    });
    let db = Rc::new(request.await?);
    DB.with(|d| *d.borrow_mut() = Some(db.clone()));
    Ok(db)
}

fn wrapper(pairs: &[(&str, JsValue)]) -> JsValue {
    let obj = js_sys::Object::new();
    for (k, v) in pairs {
        let _ = js_sys::Reflect::set(&obj, &JsValue::from_str(k), v);
    }
    obj.into()
}

fn field(obj: &JsValue, name: &str) -> Option<JsValue> {
    js_sys::Reflect::get(obj, &JsValue::from_str(name))
        .ok()
        .filter(|v| !v.is_undefined())
}

fn json_of(obj: &JsValue) -> Result<String, StorageError> {
    field(obj, "json")
        .and_then(|v| v.as_string())
        .ok_or_else(|| StorageError::Corrupt("a record without its JSON".into()))
}

fn parse<T: DeserializeOwned>(text: &str) -> Result<T, StorageError> {
    serde_json::from_str(text).map_err(|e| StorageError::Corrupt(e.to_string()))
}

fn to_json<T: Serialize>(value: &T) -> Result<String, StorageError> {
    serde_json::to_string(value).map_err(|e| StorageError::Other(e.to_string()))
}

fn session_value(record: &SessionRecord) -> Result<JsValue, StorageError> {
    Ok(wrapper(&[
        ("id", JsValue::from_str(&record.id)),
        ("json", JsValue::from_str(&to_json(record)?)),
    ]))
}

fn event_key(session_id: &str, seq: u64) -> JsValue {
    js_sys::Array::of2(
        &JsValue::from_str(session_id),
        &JsValue::from_f64(seq as f64),
    )
    .into()
}

fn event_range(session_id: &str) -> Result<KeyRange, StorageError> {
    Ok(KeyRange::bound(
        &event_key(session_id, 0),
        &event_key(session_id, u64::MAX >> 11),
        Some(false),
        Some(false),
    )?)
}

/// Awaits a read-write transaction and turns an abort into the reason the browser gave.
///
/// A full disk or quota does not fail a request: the browser aborts the whole transaction at
/// commit with `QuotaExceededError` on `transaction.error`, and no `error` event fires. So a
/// second handle on the same transaction is kept to read that reason after the abort; without
/// it the person would only learn that "the transaction was aborted".
async fn finish(tx: idb::Transaction) -> Result<(), StorageError> {
    let raw: JsValue = tx.into();
    let handle = idb::Transaction::try_from(raw.clone())?;
    let tx = idb::Transaction::try_from(raw)?;
    match tx.commit()?.await {
        Ok(r) if r.is_committed() => Ok(()),
        Ok(_) => Err(abort_reason(&handle)),
        Err(e) => Err(e.into()),
    }
}

/// Why an aborted transaction was aborted, from the DOMException on its `error`.
fn abort_reason(tx: &idb::Transaction) -> StorageError {
    match tx.error() {
        Some(e) => classify(&format!("{}: {}", e.name(), e.message())),
        None => StorageError::Other("the transaction was aborted".into()),
    }
}

/// Every stored session, most recently changed first.
pub async fn list_sessions() -> Result<Vec<SessionRecord>, StorageError> {
    let db = db().await?;
    let tx = db.transaction(&[SESSIONS], TransactionMode::ReadOnly)?;
    let values = tx.object_store(SESSIONS)?.get_all(None, None)?.await?;
    let mut out = Vec::with_capacity(values.len());
    for v in values {
        out.push(parse::<SessionRecord>(&json_of(&v)?)?);
    }
    roundtable_core::order::sort_by(&mut out, |a, b| b.updated_at.total_cmp(&a.updated_at));
    Ok(out)
}

/// One session's record, if it exists.
pub async fn get_session(id: &str) -> Result<Option<SessionRecord>, StorageError> {
    let db = db().await?;
    let tx = db.transaction(&[SESSIONS], TransactionMode::ReadOnly)?;
    let value = tx
        .object_store(SESSIONS)?
        .get(Query::Key(JsValue::from_str(id)))?
        .await?;
    value.map(|v| parse(&json_of(&v)?)).transpose()
}

/// A session's whole event log, in order.
pub async fn load_events(id: &str) -> Result<Vec<StoredEvent>, StorageError> {
    let db = db().await?;
    let tx = db.transaction(&[EVENTS], TransactionMode::ReadOnly)?;
    let values = tx
        .object_store(EVENTS)?
        .get_all(Some(Query::KeyRange(event_range(id)?)), None)?
        .await?;
    let mut out = Vec::with_capacity(values.len());
    for v in values {
        let seq = field(&v, "seq")
            .and_then(|s| s.as_f64())
            .ok_or_else(|| StorageError::Corrupt("an event without its sequence number".into()))?;
        out.push(StoredEvent {
            seq: seq as u64,
            json: json_of(&v)?,
        });
    }
    Ok(out)
}

/// Saves a session record and the events that led to it in one transaction: both or neither.
///
/// `events` must continue the log exactly where the stored one ends; each is `add`ed, so an event
/// already stored under the same sequence number (another tab) aborts the whole batch with
/// [`StorageError::Conflict`].
pub async fn commit(record: &SessionRecord, events: &[StoredEvent]) -> Result<(), StorageError> {
    let db = db().await?;
    let tx = db.transaction(&[SESSIONS, EVENTS], TransactionMode::ReadWrite)?;
    let store = tx.object_store(EVENTS)?;
    for e in events {
        let value = wrapper(&[
            ("sessionId", JsValue::from_str(&record.id)),
            ("seq", JsValue::from_f64(e.seq as f64)),
            ("json", JsValue::from_str(&e.json)),
        ]);
        if let Err(err) = store.add(&value, None) {
            let _ = tx.abort();
            return Err(err.into());
        }
    }
    if let Err(err) = tx
        .object_store(SESSIONS)?
        .put(&session_value(record)?, None)
    {
        let _ = tx.abort();
        return Err(err.into());
    }
    finish(tx).await
}

/// Replaces a session wholesale (import): record and all events in one transaction.
pub async fn replace_session(
    record: &SessionRecord,
    events: &[StoredEvent],
) -> Result<(), StorageError> {
    let db = db().await?;
    let tx = db.transaction(&[SESSIONS, EVENTS], TransactionMode::ReadWrite)?;
    let store = tx.object_store(EVENTS)?;
    store.delete(Query::KeyRange(event_range(&record.id)?))?;
    for e in events {
        let value = wrapper(&[
            ("sessionId", JsValue::from_str(&record.id)),
            ("seq", JsValue::from_f64(e.seq as f64)),
            ("json", JsValue::from_str(&e.json)),
        ]);
        store.put(&value, None)?;
    }
    tx.object_store(SESSIONS)?
        .put(&session_value(record)?, None)?;
    finish(tx).await
}

/// Deletes a session and its events together.
pub async fn delete_session(id: &str) -> Result<(), StorageError> {
    let db = db().await?;
    let tx = db.transaction(&[SESSIONS, EVENTS], TransactionMode::ReadWrite)?;
    tx.object_store(EVENTS)?
        .delete(Query::KeyRange(event_range(id)?))?;
    tx.object_store(SESSIONS)?
        .delete(Query::Key(JsValue::from_str(id)))?;
    finish(tx).await
}

/// Reads a setting (`theme`, `key:openai`, `model:anthropic`, …).
pub async fn get_setting(key: &str) -> Result<Option<String>, StorageError> {
    let db = db().await?;
    let tx = db.transaction(&[SETTINGS], TransactionMode::ReadOnly)?;
    let value = tx
        .object_store(SETTINGS)?
        .get(Query::Key(JsValue::from_str(key)))?
        .await?;
    Ok(value
        .and_then(|v| field(&v, "value"))
        .and_then(|v| v.as_string()))
}

/// Reads several settings in one transaction (each request out before the first is awaited):
/// what a call needs (a provider's key, address and limit) costs one round trip, not three.
pub async fn get_settings(keys: &[String]) -> Result<Vec<Option<String>>, StorageError> {
    let db = db().await?;
    let tx = db.transaction(&[SETTINGS], TransactionMode::ReadOnly)?;
    let store = tx.object_store(SETTINGS)?;
    let requests = keys
        .iter()
        .map(|k| store.get(Query::Key(JsValue::from_str(k))))
        .collect::<Result<Vec<_>, _>>()?;
    let mut values = Vec::with_capacity(requests.len());
    for request in requests {
        values.push(
            request
                .await?
                .and_then(|v| field(&v, "value"))
                .and_then(|v| v.as_string()),
        );
    }
    Ok(values)
}

/// Writes a setting; `None` removes it.
pub async fn set_setting(key: &str, value: Option<&str>) -> Result<(), StorageError> {
    let db = db().await?;
    let tx = db.transaction(&[SETTINGS], TransactionMode::ReadWrite)?;
    let store = tx.object_store(SETTINGS)?;
    match value {
        Some(v) => {
            store.put(
                &wrapper(&[
                    ("key", JsValue::from_str(key)),
                    ("value", JsValue::from_str(v)),
                ]),
                None,
            )?;
        }
        None => {
            store.delete(Query::Key(JsValue::from_str(key)))?;
        }
    }
    finish(tx).await
}

/// Every setting whose key starts with `prefix` (e.g. all `key:` entries), as (key, value).
pub async fn settings_with_prefix(prefix: &str) -> Result<Vec<(String, String)>, StorageError> {
    let db = db().await?;
    let tx = db.transaction(&[SETTINGS], TransactionMode::ReadOnly)?;
    let values = tx.object_store(SETTINGS)?.get_all(None, None)?.await?;
    Ok(values
        .into_iter()
        .filter_map(|v| {
            let k = field(&v, "key")?.as_string()?;
            let val = field(&v, "value")?.as_string()?;
            k.starts_with(prefix).then_some((k, val))
        })
        .collect())
}

/// Removes every provider key in one transaction ("forget all keys").
pub async fn forget_all_keys() -> Result<usize, StorageError> {
    let keys = settings_with_prefix(KEY_PREFIX).await?;
    let db = db().await?;
    let tx = db.transaction(&[SETTINGS], TransactionMode::ReadWrite)?;
    let store = tx.object_store(SETTINGS)?;
    for (k, _) in &keys {
        store.delete(Query::Key(JsValue::from_str(k)))?;
    }
    finish(tx).await?;
    Ok(keys.len())
}

/// Settings keys holding a provider's API key start with this.
pub const KEY_PREFIX: &str = "key:";
