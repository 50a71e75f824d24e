//! The session file, and the Markdown report of a session's products.
//!
//! A session file is one JSON document (`.roundtable.json`): `format` and `schema_version` first,
//! the app version, the members (a provider and model name each — never a key), the whole event
//! log, the final snapshot of the state and a checksum of the events. [`from_file`] is a pure
//! function: it checks the size, parses, checks the format and version (a migration hook upgrades
//! older files), verifies the checksum, replays the events and compares the result with the
//! snapshot, and returns a new [`Session`] — or an [`ImportError`] saying in plain words why the
//! file was refused. It never touches any other session.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use thiserror::Error;

use crate::engine::{Engine, Event};
use crate::session::{Kind, Session};

pub mod shared_lines;

/// The `format` field of every session file.
pub const FORMAT: &str = "roundtable.session";

/// The schema version this build writes and reads. Version 2 added kinds of session: the file says
/// its `kind`, lists members by id, name and model only, and keeps a protocol-neutral summary as
/// its snapshot instead of the whole state. Version 3 writes each repeated line of what the models
/// were sent once ([`shared_lines`]).
pub const SCHEMA_VERSION: u32 = 3;

/// The largest file [`from_file`] reads (bytes), so a wrong file cannot exhaust the tab's memory.
pub const MAX_FILE_BYTES: usize = 64 * 1024 * 1024;

/// The app version written into files.
pub const APP_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The session file, field order as written (`format` and `schema_version` first).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionFile {
    /// Always [`FORMAT`].
    pub format: String,
    /// [`SCHEMA_VERSION`] when written.
    #[serde(rename = "schema_version")]
    pub schema_version: u32,
    /// Version of the app that wrote it.
    pub app_version: String,
    /// When it was exported (ms).
    pub exported_at: u64,
    /// The kind of session ([`Kind::name`]).
    pub kind: String,
    /// The title, for file lists.
    pub title: String,
    /// The members, with their provider and model names only.
    pub members: Vec<MemberBrief>,
    /// The whole event log, its prompts' repeated lines written once ([`shared_lines`]).
    pub events: Box<serde_json::value::RawValue>,
    /// What the exporting app saw the events fold to, to check a replay against.
    pub snapshot: Summary,
    /// `fnv1a64:<16 hex digits>` of the compact JSON of `events` as written.
    pub checksum: String,
}

pub use crate::session::MemberBrief;

/// What a replay of the file's events must reproduce: the engine's state in brief, the same for
/// every kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    /// Status word.
    pub status: String,
    /// Round reached.
    pub round: u32,
    /// Calls issued.
    pub calls: usize,
    /// Tokens counted.
    pub tokens_used: u64,
    /// Micro-dollars the calls cost (those with a known cost); left out when nothing was priced.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cost_used: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Why a file was refused. Every message says it in words a person understands.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ImportError {
    /// Over [`MAX_FILE_BYTES`]: the file's own size on disk, not what reading it made.
    #[error("the file is too large: it is {} ({size} bytes), and a session file is at most {}", bytes_words(*size), bytes_words(*max as u64))]
    TooLarge {
        /// Its size in bytes.
        size: u64,
        /// The limit.
        max: usize,
    },
    /// Bytes that are not UTF-8 text (an image, an archive, random data).
    #[error("the file is not a Roundtable session: it is not text (byte {at} is not UTF-8), and a session file is JSON text")]
    NotText {
        /// The offset of the first byte that is not UTF-8.
        at: usize,
    },
    /// Not JSON at all.
    #[error("the file is not a Roundtable session: it is not valid JSON ({0})")]
    NotJson(String),
    /// JSON, but not ours.
    #[error(
        "the file is not a Roundtable session: its \"format\" is {0}, not \"roundtable.session\""
    )]
    WrongFormat(String),
    /// Written by a newer app.
    #[error("the file was written by a newer Roundtable (schema version {found}; this app reads up to {supported}); update the app to open it")]
    NewerVersion {
        /// The file's version.
        found: u64,
        /// What this app reads.
        supported: u32,
    },
    /// No usable version.
    #[error("the file has no valid \"schema_version\"")]
    NoVersion,
    /// A field missing or of the wrong type.
    #[error("the file is damaged: {0}")]
    Malformed(String),
    /// The events were changed after export.
    #[error("the file is damaged or was edited: its checksum does not match its events (expected {expected}, computed {computed})")]
    Checksum {
        /// Written in the file.
        expected: String,
        /// Computed from the events.
        computed: String,
    },
    /// The events do not replay.
    #[error("the session's history does not replay: {0}")]
    Replay(String),
    /// The replayed state differs from the snapshot.
    #[error(
        "the session's history does not lead to the state saved with it; the file is inconsistent"
    )]
    SnapshotMismatch,
    /// The members list differs from the session's.
    #[error("the file's member list does not match its session")]
    MembersMismatch,
}

/// The checksum of the events' JSON text as a file holds it (pretty or compact): the whitespace
/// between tokens is dropped first, so it equals [`checksum`] of the events that were written.
pub fn checksum_of_text(json: &str) -> String {
    let mut compact = Vec::with_capacity(json.len());
    let (mut in_string, mut escaped) = (false, false);
    for &b in json.as_bytes() {
        if in_string {
            compact.push(b);
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
        } else if !b.is_ascii_whitespace() {
            in_string = b == b'"';
            compact.push(b);
        }
    }
    // FNV-1a: a checksum against accidental damage and casual edits (not a signature).
    format!("fnv1a64:{:016x}", crate::hash::fnv1a(&compact))
}

/// Why a session cannot be written as a file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ExportError {
    /// The file would be larger than [`from_file`] reads, so nobody could open it.
    #[error("this session is too large to export ({size} bytes; a session file may hold at most {max} bytes, the most an import reads)")]
    TooLarge {
        /// The file's size.
        size: usize,
        /// [`MAX_FILE_BYTES`].
        max: usize,
    },
}

/// The session as a file, or why it cannot be one: export never writes a file that import would
/// refuse for its size.
pub fn checked_file(session: &Session, now: u64) -> Result<String, ExportError> {
    file_within(session, now, MAX_FILE_BYTES)
}

fn file_within(session: &Session, now: u64, max: usize) -> Result<String, ExportError> {
    let text = to_file(session, now);
    if text.len() > max {
        return Err(ExportError::TooLarge {
            size: text.len(),
            max,
        });
    }
    Ok(text)
}

/// The session as a pretty-printed session file (whatever its size: see [`checked_file`]).
pub fn to_file(session: &Session, now: u64) -> String {
    let title = session.title();
    let members = session.members();
    file_text(session.any_engine(), session.kind(), title, members, now)
}

fn file_text(
    session: &Engine,
    kind: Kind,
    title: String,
    members: Vec<MemberBrief>,
    now: u64,
) -> String {
    let mut events: Value =
        serde_json::from_str(&serde_json::to_string(session.events()).unwrap_or_default())
            .unwrap_or(Value::Null);
    shared_lines::share(&mut events);
    let events = serde_json::value::to_raw_value(&events).unwrap_or_default();
    let file = SessionFile {
        format: FORMAT.into(),
        schema_version: SCHEMA_VERSION,
        app_version: APP_VERSION.into(),
        exported_at: now,
        kind: kind.name().into(),
        title,
        members,
        checksum: checksum_of_text(events.get()),
        events,
        snapshot: summary(session),
    };
    pretty_json(&serde_json::to_string(&file).unwrap_or_default())
}

/// The brief state a file's snapshot holds.
fn summary(session: &Engine) -> Summary {
    let core = session.state().core();
    Summary {
        status: core.status.word().into(),
        round: core.round,
        calls: core.calls.len(),
        tokens_used: core.tokens_used,
        cost_used: core.cost_used,
    }
}

pub use crate::text::pretty_json;

pub use crate::text::bytes_words;

/// Refuses a file by its size on disk before anything reads it.
pub fn check_size(size: u64) -> Result<(), ImportError> {
    if size > MAX_FILE_BYTES as u64 {
        return Err(ImportError::TooLarge {
            size,
            max: MAX_FILE_BYTES,
        });
    }
    Ok(())
}

/// A file's bytes as the text of a session file, or why not: too large (its real size), or not
/// text at all. Nothing is decoded lossily, so a binary file is never measured or parsed as text.
pub fn text_of_file(bytes: &[u8]) -> Result<&str, ImportError> {
    check_size(bytes.len() as u64)?;
    std::str::from_utf8(bytes).map_err(|e| ImportError::NotText {
        at: e.valid_up_to(),
    })
}

/// [`text_of_file`] for bytes the caller owns: the text without a copy of them.
pub fn into_text(bytes: Vec<u8>) -> Result<String, ImportError> {
    check_size(bytes.len() as u64)?;
    String::from_utf8(bytes).map_err(|e| ImportError::NotText {
        at: e.utf8_error().valid_up_to(),
    })
}

/// Reads a session file into a new session, or says why not: [`check_file`], then
/// [`CheckedFile::read`], then [`ReadFile::replay`] in one go.
pub fn from_file(text: &str) -> Result<Session, ImportError> {
    check_file(text)?.read()?.replay()
}

/// A session file whose envelope passed: the size, the format, the version, the checksum of the
/// events and the fields' types. The first of the three stages of an import; the app yields to the
/// page between stages so a big file never holds it for long, and shows which stage it is in.
#[derive(Debug)]
pub struct CheckedFile<'a> {
    kind: Kind,
    /// The events as a JSON array: the file's own text (a migrated older file's, rewritten).
    events: std::borrow::Cow<'a, str>,
    /// Whether the events hold shared lines to expand (only files of version 3 on can).
    shared_lines: bool,
    snapshot: Option<Value>,
    members: Option<Value>,
}

/// A session file whose events are read into Rust types and not yet replayed: the second stage.
#[derive(Debug)]
pub struct ReadFile {
    events: KindEvents,
    snapshot: Option<Value>,
    members: Option<Value>,
}

/// A file's events, read by its kind's readers.
#[derive(Debug)]
struct KindEvents {
    kind: Kind,
    events: Vec<Event>,
}

impl KindEvents {
    /// Reads a file's events (one JSON array) as those of `kind`, after the kind's migration of
    /// an older log.
    fn read(kind: Kind, text: &str) -> Result<KindEvents, ImportError> {
        let info = kind.info();
        let migrated = (info.migrate_log_array)(text);
        let events = Event::read_array(info, migrated.as_deref().unwrap_or(text))
            .map_err(|e| ImportError::Malformed(e.to_string()))?;
        Ok(KindEvents { kind, events })
    }

    fn len(&self) -> usize {
        self.events.len()
    }

    /// Replays the events into a session, and the summary a replay gives.
    fn replay(&self) -> Result<(Session, Value), ImportError> {
        let engine = Engine::replay(self.kind.info(), &self.events)
            .map_err(|e| ImportError::Replay(e.to_string()))?;
        let summary = as_value(&summary(&engine));
        Ok((Session::of_engine(engine), summary))
    }
}

/// Checks a session file's envelope without reading its events into Rust types: the size, that it
/// is JSON, its format and version (an older file is migrated), the checksum of its events as
/// written, and the types of the other fields. The events of a current file stay a slice of its
/// text, so a big file is scanned once here, not built into a tree of values.
pub fn check_file(text: &str) -> Result<CheckedFile<'_>, ImportError> {
    check_size(text.len() as u64)?;
    let text = text.trim_start_matches('\u{feff}');
    // The top level as raw fields: a scan of the text, no tree built. Anything that is not an
    // object of fields is read again as a value, which says why it is not a session file.
    let Ok(fields) = serde_json::from_str::<
        std::collections::BTreeMap<String, &serde_json::value::RawValue>,
    >(text) else {
        let value: Value =
            serde_json::from_str(text).map_err(|e| ImportError::NotJson(e.to_string()))?;
        return Err(ImportError::WrongFormat(
            value
                .get("format")
                .cloned()
                .unwrap_or(Value::Null)
                .to_string(),
        ));
    };
    // A field as a value. A field too deep for the parser is refused like any text that is not
    // JSON. The fields that decide whether to go on are read first, so a file that is not ours
    // (or not whole) is refused before its other fields are read.
    let read = |name: &str| -> Result<Value, ImportError> {
        fields.get(name).map_or(Ok(Value::Null), |raw| {
            serde_json::from_str(raw.get())
                .map_err(|e| ImportError::NotJson(format!("in the field `{name}`: {e}")))
        })
    };
    let format = read("format")?;
    if format.as_str() != Some(FORMAT) {
        return Err(ImportError::WrongFormat(format.to_string()));
    }
    let version = read("schema_version")?
        .as_u64()
        .filter(|v| *v >= 1)
        .ok_or(ImportError::NoVersion)?;
    if version > u64::from(SCHEMA_VERSION) {
        return Err(ImportError::NewerVersion {
            found: version,
            supported: SCHEMA_VERSION,
        });
    }
    // The checksum is of the events as written, not as this build would write them again: a file
    // of an older version (whose events this build reads but would write differently) still
    // checks, and any edit of the text is still caught.
    let raw_events = fields
        .get("events")
        .map(|raw| raw.get())
        .ok_or_else(|| ImportError::Malformed("missing field `events`".into()))?;
    let checksum = read("checksum")?;
    let checksum = checksum
        .as_str()
        .ok_or_else(|| ImportError::Malformed("missing field `checksum`".into()))?;
    let computed = checksum_of_text(raw_events);
    if checksum != computed {
        return Err(ImportError::Checksum {
            expected: checksum.to_string(),
            computed,
        });
    }
    // Every other field but the events, as values (small: the snapshot and the members are a few
    // hundred bytes).
    let mut envelope = serde_json::Map::new();
    for name in fields.keys().filter(|name| name.as_str() != "events") {
        envelope.insert(name.clone(), read(name)?);
    }
    // Since version 2 a file names its kind and saves its state's snapshot: a kind that is not
    // text, or a snapshot that is null or not an object, is a damaged file — never read as an
    // old team file, and never a reason to skip the check against the replayed state.
    if version >= 2 {
        match envelope.get("kind") {
            Some(Value::String(_)) => {}
            Some(_) => {
                return Err(ImportError::Malformed(
                    "the field `kind` is not text".into(),
                ))
            }
            None => return Err(ImportError::Malformed("missing field `kind`".into())),
        }
        if !envelope.get("snapshot").is_some_and(Value::is_object) {
            return Err(ImportError::Malformed(
                "the field `snapshot` is not the session's saved state".into(),
            ));
        }
    }
    let events = if version == u64::from(SCHEMA_VERSION) {
        // The events stay the file's own text; shared lines (`@@`, see `shared_lines`) are
        // expanded by the next stage.
        std::borrow::Cow::Borrowed(raw_events)
    } else {
        let mut value = Value::Object(envelope);
        value["events"] =
            serde_json::from_str(raw_events).map_err(|e| ImportError::Malformed(e.to_string()))?;
        // Files before version 3 have no shared lines.
        let mut value = migrate(value, version)?;
        // Written with its tags first, so the events are read without the slow path.
        let events = crate::tagged::tags_first(&value["events"].take());
        envelope = match value {
            Value::Object(map) => map,
            _ => serde_json::Map::new(),
        };
        std::borrow::Cow::Owned(events)
    };
    check_envelope(&envelope)?;
    let kind_name = envelope.get("kind").and_then(Value::as_str).unwrap_or("");
    let kind = Kind::from_name(kind_name).ok_or_else(|| {
        ImportError::Malformed(format!(
            "this app does not know sessions of kind \"{kind_name}\""
        ))
    })?;
    Ok(CheckedFile {
        kind,
        shared_lines: version >= 3 && events.contains("@@"),
        events,
        snapshot: envelope.remove("snapshot").filter(|s| !s.is_null()),
        members: envelope.remove("members"),
    })
}

/// The fields of a session file besides its events are present and of their type.
fn check_envelope(envelope: &serde_json::Map<String, Value>) -> Result<(), ImportError> {
    let expect = |name: &str, ok: fn(&Value) -> bool, what: &str| match envelope.get(name) {
        None => Err(ImportError::Malformed(format!("missing field `{name}`"))),
        Some(v) if !ok(v) => Err(ImportError::Malformed(format!(
            "the field `{name}` is not {what}"
        ))),
        Some(_) => Ok(()),
    };
    expect("schema_version", Value::is_u64, "a whole number")?;
    expect("appVersion", Value::is_string, "text")?;
    expect("exportedAt", Value::is_u64, "a whole number")?;
    expect("title", Value::is_string, "text")?;
    Ok(())
}

impl CheckedFile<'_> {
    /// The kind of session the file holds.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The size of the events' text in bytes, which is what the next two stages' time scales with.
    pub fn events_bytes(&self) -> usize {
        self.events.len()
    }

    /// Reads the events into Rust types: the second stage.
    pub fn read(self) -> Result<ReadFile, ImportError> {
        // A file without a shared line (`@@`) is read from its own text; any other from its
        // expanded events.
        let expanded;
        let text = if self.shared_lines {
            expanded = shared_lines::expand_text_of(&self.events)?;
            expanded.as_str()
        } else {
            &self.events
        };
        Ok(ReadFile {
            events: KindEvents::read(self.kind, text)?,
            snapshot: self.snapshot,
            members: self.members,
        })
    }
}

impl ReadFile {
    /// How many events the file holds.
    pub fn len(&self) -> usize {
        self.events.len()
    }

    /// Whether the file holds no event (such a file does not replay).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Replays the events into a new session and compares it with the file's snapshot and member
    /// list: the last stage.
    pub fn replay(self) -> Result<Session, ImportError> {
        let (session, replayed) = self.events.replay()?;
        if let Some(snapshot) = &self.snapshot {
            if &replayed != snapshot {
                return Err(ImportError::SnapshotMismatch);
            }
        }
        if self.members.as_ref() != Some(&as_value(&session.members())) {
            return Err(ImportError::MembersMismatch);
        }
        Ok(session)
    }
}

/// `x` as a JSON value, through the compact writer [`to_file`] uses (so no second serializer is
/// compiled for the state's types).
fn as_value<T: Serialize>(x: &T) -> Value {
    serde_json::to_string(x)
        .ok()
        .and_then(|s| serde_json::from_str(&s).ok())
        .unwrap_or(Value::Null)
}

/// Upgrades a file of an older schema version to the current one. Version 1 is the first; each
/// future version adds one step here (`1 → 2`, `2 → 3`, …) so old files keep opening.
pub fn migrate(mut value: Value, from: u64) -> Result<Value, ImportError> {
    if from == 1 {
        // Version 1 had one kind (the team), its whole state as the snapshot (a shape this
        // build no longer folds to: it is dropped; the checksum and the replay still check the
        // events) and full team members.
        value["kind"] = Value::from("team");
        value["snapshot"] = Value::Null;
        if let Some(members) = value.get_mut("members").and_then(Value::as_array_mut) {
            for m in members.iter_mut() {
                *m = serde_json::json!({ "id": m["id"], "name": m["name"], "model": m["model"] });
            }
        }
        value["schema_version"] = Value::from(2);
        return migrate(value, 2);
    }
    match from {
        // Version 2 wrote every line in full, which version 3 still reads as it is.
        2 => {
            value["schema_version"] = Value::from(3);
            Ok(value)
        }
        3 => Ok(value),
        other => Err(ImportError::NewerVersion {
            found: other,
            supported: SCHEMA_VERSION,
        }),
    }
}

/// The final products as Markdown: the tree in order, each product with its accepted version (or
/// its latest, marked as not accepted), then the presentation.
///
/// What models wrote is made safe for any Markdown viewer by the rules the app's renderer keeps
/// ([`crate::safe_markdown::defang`]): raw HTML shows as text, only http/https/mailto links stay.
pub fn markdown_report(session: &Session) -> String {
    let report = session.any_engine().state().report_markdown();
    crate::safe_markdown::defang(&report)
}

#[cfg(test)]
mod tests {
    use super::{
        check_size, file_within, pretty_json, text_of_file, ExportError, ImportError,
        MAX_FILE_BYTES,
    };

    /// Export refuses, with both sizes, a file larger than import reads, and writes one that fits.
    #[test]
    fn export_never_writes_a_file_import_would_refuse() {
        let model = crate::engine::ModelRef {
            provider: "demo".into(),
            model: "demo-1".into(),
        };
        let config =
            crate::protocol::team::TeamConfig::standard("A guide.", 1, false, false, model);
        let session = crate::session::Session::of_kind(
            crate::protocol::team::TeamSession::new(config, 0).unwrap(),
        );
        let size = file_within(&session, 1, usize::MAX).unwrap().len();
        assert_eq!(
            file_within(&session, 1, size - 1),
            Err(ExportError::TooLarge {
                size,
                max: size - 1
            })
        );
        assert!(file_within(&session, 1, size).is_ok());
        let message = file_within(&session, 1, 100).unwrap_err().to_string();
        assert!(message.contains(&format!("{size} bytes")) && message.contains("at most 100"));
    }

    #[test]
    fn a_refused_file_is_told_by_its_real_size_and_the_real_reason() {
        // 50 MB of random bytes: within the size limit, refused as not text (not as "too large"
        // after a lossy decode inflated it).
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let random: Vec<u8> = (0..50 * 1024 * 1024)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                (seed >> 24) as u8
            })
            .collect();
        let err = text_of_file(&random).unwrap_err();
        assert!(matches!(err, ImportError::NotText { .. }), "{err}");
        assert!(err.to_string().contains("it is not text"), "{err}");
        // Over the limit: its own size, in words and bytes.
        let err = check_size(70 * 1024 * 1024).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the file is too large: it is 70.0 MB (73400320 bytes), and a session file is at most 64.0 MB"
        );
        assert!(check_size(MAX_FILE_BYTES as u64).is_ok());
        assert_eq!(text_of_file(b"{\"format\": 1}"), Ok("{\"format\": 1}"));
    }

    #[test]
    fn pretty_json_matches_serde_json_pretty() {
        let value = serde_json::json!({
            "a": [1, 2, {"b": "x, y: {z}", "c": []}],
            "d": {},
            "e": "quote \" backslash \\ [not] {nested}",
            "f": [[], {}, [[1]]],
            "g": null, "h": true, "i": -1.5e3,
            "j": "ünïcode \u{1F600} \n tab\t"
        });
        let compact = serde_json::to_string(&value).unwrap();
        assert_eq!(
            pretty_json(&compact),
            serde_json::to_string_pretty(&value).unwrap()
        );
        assert_eq!(pretty_json("[]"), "[]");
        assert_eq!(pretty_json("\"a\""), "\"a\"");
    }
}
