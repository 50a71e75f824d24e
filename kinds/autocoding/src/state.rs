//! Hegelion's `AutocodingState` (spec `002`), field for field: what its tools pass from call to
//! call, what save writes and load reads.
//!
//! The readings (DESIGN "Autocoding (002): readings decided"): every key of 002's example is
//! required except `session_name`, inside `turn_history` entries too — a missing key is refused
//! at its own pointer, never filled with a default; `score` and `last_coach_feedback` may be
//! `null` (Hegelion writes `null` before a score or a review). Fields 002 does not name are kept
//! as they are (in `extra`, written back by save) and warned about at their pointers; a key such
//! as `__proto__` is one more such field, data like any other.
//!
//! Readings where 002 is silent (each refused at its pointer when broken): history entries are
//! numbered 0, 1, 2, … as Hegelion's `advance_turn` writes them, none past `current_turn`;
//! `last_coach_feedback` is `null` before the first coach turn and the last entry's feedback
//! after it (Hegelion sets both from the same review); `init` goes with `active` only, `player`
//! and `coach` with `active` or `rejected` (the person's verdict, which this app records at the
//! coach's phase), `approved` and `timeout` with their own status.
//!
//! The rules across fields live in one place, [`AutocodingState::check`], which load runs on
//! every state it reads and save runs before it writes, so save never writes what load refuses.
//! Each refusal is a [`Violation`] at its JSON pointer, with `received` in the terms of
//! `expected` (a count for a count, a turn for a turn).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use roundtable_engine::text::cut_at_word;
use roundtable_engine::validate::Violation;

/// The `schema_version` every structured output of spec `002` carries.
pub const SCHEMA_VERSION: u32 = 1;
/// Hegelion's default number of turns before a session times out.
pub const DEFAULT_MAX_TURNS: u32 = 10;
/// Hegelion's default score the coach's approval must reach.
pub const DEFAULT_APPROVAL_THRESHOLD: f64 = 0.9;

/// Where the player/coach loop stands: whose prompt comes next, or how it ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Made, before the first player turn (Hegelion's dataclass default; `init` itself starts in
    /// `player`).
    Init,
    /// The player writes or revises the code next.
    Player,
    /// The coach reviews the player's turn next.
    Coach,
    /// The coach approved at or above the threshold.
    Approved,
    /// The turns ran out without approval.
    Timeout,
}

impl Phase {
    /// Every phase, in the order the loop meets them.
    pub const ALL: [Phase; 5] = [
        Phase::Init,
        Phase::Player,
        Phase::Coach,
        Phase::Approved,
        Phase::Timeout,
    ];

    /// The wire word (`player`).
    pub fn word(self) -> &'static str {
        match self {
            Phase::Init => "init",
            Phase::Player => "player",
            Phase::Coach => "coach",
            Phase::Approved => "approved",
            Phase::Timeout => "timeout",
        }
    }
}

/// Whether the session still runs, and if not, how it ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Turns go on.
    Active,
    /// The coach approved.
    Approved,
    /// The person rejected the work.
    Rejected,
    /// The turns ran out.
    Timeout,
}

impl Status {
    /// Every status.
    pub const ALL: [Status; 4] = [
        Status::Active,
        Status::Approved,
        Status::Rejected,
        Status::Timeout,
    ];

    /// The wire word (`active`).
    pub fn word(self) -> &'static str {
        match self {
            Status::Active => "active",
            Status::Approved => "approved",
            Status::Rejected => "rejected",
            Status::Timeout => "timeout",
        }
    }
}

/// One coach review, as the turn history keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TurnRecord {
    /// The turn reviewed (0-based, as `current_turn` was then).
    pub turn: u32,
    /// The coach's feedback, verbatim.
    pub feedback: String,
    /// Whether the coach approved: the coach's own word, whatever the threshold made of it.
    pub approved: bool,
    /// The coach's score in [0, 1], when it gave one (`null` when it did not).
    pub score: Option<f64>,
    /// Fields 002 does not name, kept as they were read.
    #[serde(flatten, default)]
    pub extra: Map<String, Value>,
}

/// The whole state of an autocoding session as spec `002` gives it. Field names and order are
/// the spec's; `None` is written as `null`, as Hegelion writes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AutocodingState {
    /// Always [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The session's id (a UUID in Hegelion; any non-empty text here).
    pub session_id: String,
    /// An optional label.
    pub session_name: Option<String>,
    /// The requirements: the single source of truth both roles work from.
    pub requirements: String,
    /// Turns completed (0-based: the first player turn is turn 0).
    pub current_turn: u32,
    /// Turns allowed before the session times out (at least 1).
    pub max_turns: u32,
    /// Whose prompt comes next.
    pub phase: Phase,
    /// Whether the session still runs.
    pub status: Status,
    /// Every coach review so far.
    pub turn_history: Vec<TurnRecord>,
    /// The coach's last feedback, which the next player turn starts from.
    pub last_coach_feedback: Option<String>,
    /// Every score the coach gave, in order.
    pub quality_scores: Vec<f64>,
    /// The score an approval must reach, in [0, 1].
    pub approval_threshold: f64,
    /// Fields 002 does not name, kept as they were read and written back by save.
    #[serde(flatten, default)]
    pub extra: Map<String, Value>,
}

/// The keys of 002's `AutocodingState`, in its order.
pub const STATE_KEYS: [&str; 12] = [
    "schema_version",
    "session_id",
    "session_name",
    "requirements",
    "current_turn",
    "max_turns",
    "phase",
    "status",
    "turn_history",
    "last_coach_feedback",
    "quality_scores",
    "approval_threshold",
];

/// The keys of a `turn_history` entry, in 002's order.
pub const TURN_KEYS: [&str; 4] = ["turn", "feedback", "approved", "score"];

/// A state that loaded, with what is worth saying about it: fields 002 does not name (kept), an
/// approval on the coach's word alone (Hegelion's rule), each at its pointer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Loaded {
    /// Always 1.
    pub schema_version: u32,
    /// The state, whole, unknown fields kept.
    pub state: AutocodingState,
    /// What was accepted but is worth a look.
    pub warnings: Vec<Violation>,
}

/// What [`AutocodingState::check`] finds: the rules a state breaks, and what it keeps that is
/// worth a warning.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Findings {
    /// Rules broken: the state is refused.
    pub errors: Vec<Violation>,
    /// Accepted, but said.
    pub warnings: Vec<Violation>,
}

impl AutocodingState {
    /// A new session as `autocoding_init` makes it: turn 0, the player's phase, active, no
    /// history, scores or feedback, nothing 002 does not name.
    pub fn fresh(
        session_id: String,
        session_name: Option<String>,
        requirements: String,
        max_turns: u32,
        approval_threshold: f64,
    ) -> Self {
        AutocodingState {
            schema_version: SCHEMA_VERSION,
            session_id,
            session_name,
            requirements,
            current_turn: 0,
            max_turns,
            phase: Phase::Player,
            status: Status::Active,
            turn_history: Vec::new(),
            last_coach_feedback: None,
            quality_scores: Vec::new(),
            approval_threshold,
            extra: Map::new(),
        }
    }

    /// A state read from `text` (a saved state's JSON), with its warnings; or every reason it
    /// cannot be one.
    pub fn load(text: &str) -> Result<Loaded, Vec<Violation>> {
        let value: Value = serde_json::from_str(text).map_err(|e| {
            vec![violation(
                "",
                format!("the state is not JSON: {e}"),
                "a JSON object (an AutocodingState)",
                format!(
                    "text that is not JSON: {}",
                    received(&Value::String(cut_at_word(text, 60).into()))
                ),
                "give the text autocoding_save wrote, unchanged",
            )]
        })?;
        Self::from_value(&value)
    }

    /// The same as [`AutocodingState::load`] for a value already parsed.
    pub fn from_value(value: &Value) -> Result<Loaded, Vec<Violation>> {
        let Some(obj) = value.as_object() else {
            return Err(vec![violation(
                "",
                "the state is not an object".into(),
                "a JSON object (an AutocodingState)",
                format!("{}: {}", kind_of(value), received(value)),
                "give the whole state object, as autocoding_init or autocoding_advance returned it",
            )]);
        };
        let mut f = Fields {
            obj,
            at: String::new(),
            problems: Vec::new(),
        };
        let schema_version = f.required("schema_version").and_then(|v| {
            if v.as_u64() == Some(u64::from(SCHEMA_VERSION)) {
                Some(SCHEMA_VERSION)
            } else {
                f.problem(
                    "schema_version",
                    "this build reads schema version 1",
                    "1",
                    v,
                    "set schema_version to 1",
                );
                None
            }
        });
        let session_id = f.text("session_id");
        let session_name = f.optional_text("session_name");
        let requirements = f.text("requirements");
        let current_turn = f.count("current_turn", 0);
        let max_turns = f.count("max_turns", 1);
        let phase = f.word("phase", &Phase::ALL, Phase::word);
        let status = f.word("status", &Status::ALL, Status::word);
        let turn_history = f.history();
        let last_coach_feedback = f.nullable_text("last_coach_feedback");
        let quality_scores = f.scores();
        let approval_threshold = f.fraction("approval_threshold");
        let mut warnings = unknown_fields(obj, "", &STATE_KEYS);
        if let Some(items) = obj.get("turn_history").and_then(Value::as_array) {
            for (i, item) in items.iter().enumerate() {
                if let Some(entry) = item.as_object() {
                    warnings.extend(unknown_fields(
                        entry,
                        &format!("/turn_history/{i}"),
                        &TURN_KEYS,
                    ));
                }
            }
        }
        let problems = f.problems;
        let (
            Some(schema_version),
            Some(session_id),
            Some(session_name),
            Some(requirements),
            Some(current_turn),
            Some(max_turns),
            Some(phase),
            Some(status),
            Some(turn_history),
            Some(last_coach_feedback),
            Some(quality_scores),
            Some(approval_threshold),
        ) = (
            schema_version,
            session_id,
            session_name,
            requirements,
            current_turn,
            max_turns,
            phase,
            status,
            turn_history,
            last_coach_feedback,
            quality_scores,
            approval_threshold,
        )
        else {
            return Err(problems);
        };
        let extra = obj
            .iter()
            .filter(|(k, _)| !STATE_KEYS.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let state = AutocodingState {
            schema_version,
            session_id,
            session_name,
            requirements,
            current_turn,
            max_turns,
            phase,
            status,
            turn_history,
            last_coach_feedback,
            quality_scores,
            approval_threshold,
            extra,
        };
        let found = state.check();
        if !found.errors.is_empty() {
            return Err(found.errors);
        }
        warnings.extend(found.warnings);
        Ok(Loaded {
            schema_version: SCHEMA_VERSION,
            state,
            warnings,
        })
    }

    /// The state as save writes it (pretty JSON, the spec's field order, unknown fields after),
    /// or the rules it breaks: save reads the state as load would and refuses what load refuses.
    pub fn save(&self) -> Result<String, Vec<Violation>> {
        let value = serde_json::to_value(self).expect("a state always serializes");
        Self::from_value(&value)?;
        Ok(serde_json::to_string_pretty(self).expect("a state always serializes"))
    }

    /// Every rule across fields the state breaks, and the approvals worth a warning: the one
    /// place these rules are written, run by load and by save. Each field is valid on its own
    /// here (load checks types and ranges first; a typed state cannot break them).
    pub fn check(&self) -> Findings {
        let mut f = Findings::default();
        let turn = self.current_turn;
        let max = self.max_turns;
        let entries = self.turn_history.len();
        if self.schema_version != SCHEMA_VERSION {
            f.errors.push(violation(
                "/schema_version",
                "this build reads schema version 1".into(),
                "1",
                self.schema_version.to_string(),
                "set schema_version to 1",
            ));
        }
        // No turn past the limit.
        if turn > max {
            f.errors.push(violation(
                "/current_turn",
                format!("turn {turn} is past max_turns ({max})"),
                &format!("at most {max} (max_turns)"),
                turn.to_string(),
                "raise max_turns or lower current_turn",
            ));
        }
        // 002's example: turn 0 with one entry — at most current_turn + 1 entries.
        if entries > turn as usize + 1 {
            f.errors.push(violation(
                "/turn_history",
                format!("{} for turn {turn}", entries_word(entries)),
                &format!(
                    "at most {} (current_turn + 1)",
                    entries_word(turn as usize + 1)
                ),
                entries_word(entries),
                "remove the entries of turns not played, or raise current_turn",
            ));
        }
        // Made, before any turn: no history, turn 0.
        if self.phase == Phase::Init {
            if turn != 0 {
                f.errors.push(violation(
                    "/current_turn",
                    format!("an init state is at turn 0, not {turn}"),
                    "0 (the init phase comes before the first turn)",
                    turn.to_string(),
                    "set current_turn to 0, or phase to player",
                ));
            }
            if entries != 0 {
                f.errors.push(violation(
                    "/turn_history",
                    format!(
                        "an init state has no history, not {}",
                        entries_word(entries)
                    ),
                    "0 entries (the init phase comes before the first turn)",
                    entries_word(entries),
                    "empty turn_history, or set phase to player",
                ));
            }
        }
        // Turn numbers strictly increase from 0, none past the turn the state is at.
        let mut before: Option<u32> = None;
        for (i, t) in self.turn_history.iter().enumerate() {
            let at = format!("/turn_history/{i}/turn");
            let problem = match before {
                None if t.turn != 0 => {
                    Some(("0 (the first turn)".to_string(), "history starts at turn 0"))
                }
                Some(b) if t.turn <= b => Some((
                    format!("more than {b} (the entry before)"),
                    "turn numbers strictly increase",
                )),
                _ if t.turn > turn => Some((
                    format!("at most {turn} (current_turn)"),
                    "no entry is past the turn the state is at",
                )),
                _ => None,
            };
            if let Some((expected, why)) = problem {
                f.errors.push(violation(
                    &at,
                    format!("turn {} out of order: {why}", t.turn),
                    &expected,
                    t.turn.to_string(),
                    "number the entries 0, 1, 2, … as the turns were played",
                ));
            }
            before = Some(t.turn);
        }
        // quality_scores: the history's scores, one per scored entry, in order.
        let scored: Vec<(u32, f64)> = self
            .turn_history
            .iter()
            .filter_map(|t| t.score.map(|s| (t.turn, s)))
            .collect();
        if scored.len() != self.quality_scores.len() {
            f.errors.push(violation(
                "/quality_scores",
                format!(
                    "{} for {} in turn_history",
                    count_word(self.quality_scores.len(), "score", "scores"),
                    count_word(scored.len(), "scored entry", "scored entries")
                ),
                &format!(
                    "{} (one per scored entry of turn_history, in order)",
                    count_word(scored.len(), "score", "scores")
                ),
                count_word(self.quality_scores.len(), "score", "scores"),
                "list each turn_history score, in order",
            ));
        } else {
            for (i, ((t, want), have)) in scored.iter().zip(&self.quality_scores).enumerate() {
                if want != have {
                    f.errors.push(violation(
                        &format!("/quality_scores/{i}"),
                        format!("score {have} is not turn {t}'s score {want}"),
                        &format!("{want} (turn {t}'s score in turn_history)"),
                        have.to_string(),
                        "list each turn_history score, in order",
                    ));
                }
            }
        }
        // A status that agrees with the phase.
        let statuses: &[Status] = match self.phase {
            Phase::Init => &[Status::Active],
            Phase::Player | Phase::Coach => &[Status::Active, Status::Rejected],
            Phase::Approved => &[Status::Approved],
            Phase::Timeout => &[Status::Timeout],
        };
        if !statuses.contains(&self.status) {
            let words: Vec<String> = statuses
                .iter()
                .map(|s| format!("\"{}\"", s.word()))
                .collect();
            f.errors.push(violation(
                "/status",
                format!(
                    "status {} does not go with phase {}",
                    self.status.word(),
                    self.phase.word()
                ),
                &format!(
                    "{} with phase \"{}\"",
                    words.join(" or "),
                    self.phase.word()
                ),
                format!("\"{}\"", self.status.word()),
                "set status and phase to the same ending, or phase to player or coach while active",
            ));
        }
        // Timeout only at max_turns; an active state has turns left.
        if self.phase == Phase::Timeout && turn < max {
            f.errors.push(violation(
                "/current_turn",
                format!("a timeout at turn {turn}, before max_turns ({max})"),
                &format!("{max} (max_turns) in a timeout state"),
                turn.to_string(),
                "a session times out only when its turns run out",
            ));
        }
        if self.status == Status::Active && self.phase != Phase::Timeout && turn == max {
            f.errors.push(violation(
                "/current_turn",
                format!("an active state at turn {turn} has no turn left of {max}"),
                &format!("less than {max} (max_turns) while active"),
                turn.to_string(),
                "set phase and status to timeout, or raise max_turns",
            ));
        }
        // Feedback only after a coach turn, and it is the last turn's.
        match (self.turn_history.last(), &self.last_coach_feedback) {
            (None, Some(text)) => f.errors.push(violation(
                "/last_coach_feedback",
                "coach feedback before any coach turn".into(),
                "null (no coach turn yet)",
                received(&Value::String(text.clone())),
                "set last_coach_feedback to null, or add the turn it came from",
            )),
            (Some(last), have) if have.as_deref() != Some(last.feedback.as_str()) => {
                f.errors.push(violation(
                    "/last_coach_feedback",
                    format!("not the feedback of the last turn ({})", last.turn),
                    &format!(
                        "{} (turn {}'s feedback)",
                        received(&Value::String(last.feedback.clone())),
                        last.turn
                    ),
                    received(&have.clone().map_or(Value::Null, Value::String)),
                    "copy the last turn_history entry's feedback",
                ))
            }
            _ => {}
        }
        // Approved only with the coach's approval at or above the threshold; Hegelion's
        // approval on the coach's word alone loads, with a warning.
        if self.phase == Phase::Approved {
            match self.turn_history.last() {
                None => f.errors.push(violation(
                    "/turn_history",
                    "an approved state with no coach turn".into(),
                    "at least 1 entry, the last approved by the coach",
                    "0 entries".into(),
                    "add the coach's approving turn, or set phase and status to active",
                )),
                Some(last) if !last.approved => f.errors.push(violation(
                    &format!("/turn_history/{}/approved", entries - 1),
                    format!("the state is approved but the coach did not approve turn {}", last.turn),
                    "true (the coach approved the last turn)",
                    "false".into(),
                    "an approved state ends with the coach's approval",
                )),
                Some(last) => match last.score {
                    Some(s) if s >= self.approval_threshold => {}
                    score => f.warnings.push(violation(
                        &format!("/turn_history/{}/score", entries - 1),
                        format!(
                            "approved on the coach's word alone (Hegelion's rule): this app \
                             approves only at a score of {} or more",
                            self.approval_threshold
                        ),
                        &format!("at least {} (approval_threshold)", self.approval_threshold),
                        score.map_or("null".into(), |s| s.to_string()),
                        "loaded as it is; a session going on from here approves only at the threshold",
                    )),
                },
            }
        }
        f
    }
}

/// A warning for each key of `obj` not among `known`: kept, said at its pointer.
fn unknown_fields(obj: &Map<String, Value>, at: &str, known: &[&str]) -> Vec<Violation> {
    obj.iter()
        .filter(|(k, _)| !known.contains(&k.as_str()))
        .map(|(k, v)| {
            violation(
                &format!("{at}/{}", pointer_token(k)),
                format!(
                    "{} is not a field of 002's AutocodingState: kept as it is",
                    received(&Value::String(k.clone()))
                ),
                &format!("one of 002's fields ({})", known.join(", ")),
                received(v),
                "nothing to do if you wrote it on purpose; save keeps it",
            )
        })
        .collect()
}

/// A key as a JSON pointer token (`~` as `~0`, `/` as `~1`).
pub fn pointer_token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn entries_word(n: usize) -> String {
    count_word(n, "entry", "entries")
}

fn count_word(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// What kind of JSON value `v` is, in words ("a string").
fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The field-by-field reader behind [`AutocodingState::from_value`]: each accessor reads one
/// required field (or an optional one), records what is wrong with it at its pointer, and
/// returns its value when it is right.
struct Fields<'a> {
    obj: &'a Map<String, Value>,
    /// The pointer of `obj` (`""`, `/turn_history/0`).
    at: String,
    problems: Vec<Violation>,
}

impl<'a> Fields<'a> {
    fn pointer(&self, field: &str) -> String {
        format!("{}/{field}", self.at)
    }

    fn problem(&mut self, field: &str, message: &str, expected: &str, got: &Value, hint: &str) {
        let path = self.pointer(field);
        self.problems.push(violation(
            &path,
            format!("{field}: {message}"),
            expected,
            format!("{}: {}", kind_of(got), received(got)),
            hint,
        ));
    }

    /// The field's value, or a refusal at its own pointer when the key is missing.
    fn required(&mut self, field: &str) -> Option<&'a Value> {
        let v = self.obj.get(field);
        if v.is_none() {
            let path = self.pointer(field);
            self.problems.push(violation(
                &path,
                format!("{field} is missing"),
                &format!("a {field} key: 002 requires it"),
                "no such key".into(),
                &format!("add {field}: it is required, and never taken as a default"),
            ));
        }
        v
    }

    fn text(&mut self, field: &str) -> Option<String> {
        match self.required(field)? {
            Value::String(s) if !s.trim().is_empty() => Some(s.clone()),
            v => {
                self.problem(
                    field,
                    "must be a non-empty string",
                    "a non-empty string",
                    v,
                    "write it as text",
                );
                None
            }
        }
    }

    /// An optional key: absent or `null` is `None`. `Some(None)` means "read, empty".
    fn optional_text(&mut self, field: &str) -> Option<Option<String>> {
        match self.obj.get(field) {
            None | Some(Value::Null) => Some(None),
            Some(Value::String(s)) => Some(Some(s.clone())),
            Some(v) => {
                self.problem(
                    field,
                    "must be text or null",
                    "a string or null",
                    v,
                    "write it as text, or null",
                );
                None
            }
        }
    }

    /// A required key whose value may be `null`.
    fn nullable_text(&mut self, field: &str) -> Option<Option<String>> {
        match self.required(field)? {
            Value::Null => Some(None),
            Value::String(s) => Some(Some(s.clone())),
            v => {
                self.problem(
                    field,
                    "must be text or null",
                    "a string or null",
                    v,
                    "write it as text, or null",
                );
                None
            }
        }
    }

    fn count(&mut self, field: &str, min: u32) -> Option<u32> {
        let v = self.required(field)?;
        match v.as_u64().and_then(|n| u32::try_from(n).ok()) {
            Some(n) if n >= min => Some(n),
            _ => {
                let expected = format!("an integer ≥ {min}");
                self.problem(
                    field,
                    &format!("must be {expected}"),
                    &expected,
                    v,
                    "write a whole number",
                );
                None
            }
        }
    }

    fn fraction(&mut self, field: &str) -> Option<f64> {
        let v = self.required(field)?;
        match v.as_f64() {
            Some(x) if (0.0..=1.0).contains(&x) => Some(x),
            _ => {
                self.problem(
                    field,
                    "must be a number from 0 to 1",
                    "a number in [0, 1]",
                    v,
                    "write a fraction such as 0.9",
                );
                None
            }
        }
    }

    fn word<T: Copy>(&mut self, field: &str, all: &[T], word: fn(T) -> &'static str) -> Option<T> {
        let v = self.required(field)?;
        if let Some(t) = all.iter().copied().find(|t| v.as_str() == Some(word(*t))) {
            return Some(t);
        }
        let words: Vec<String> = all.iter().map(|t| format!("\"{}\"", word(*t))).collect();
        let expected = format!("one of {}", words.join(", "));
        self.problem(
            field,
            &format!("must be {expected}"),
            &expected,
            v,
            "use one of the listed words, in lower case",
        );
        None
    }

    fn scores(&mut self) -> Option<Vec<f64>> {
        let v = self.required("quality_scores")?;
        let Some(items) = v.as_array() else {
            self.problem(
                "quality_scores",
                "must be a list of numbers",
                "an array of numbers in [0, 1]",
                v,
                "write [] when there are none",
            );
            return None;
        };
        let mut out = Vec::new();
        let mut ok = true;
        for (i, item) in items.iter().enumerate() {
            match item.as_f64() {
                Some(x) if (0.0..=1.0).contains(&x) => out.push(x),
                _ => {
                    ok = false;
                    self.problem(
                        &format!("quality_scores/{i}"),
                        "must be a number from 0 to 1",
                        "a number in [0, 1]",
                        item,
                        "write each score as a fraction such as 0.7",
                    );
                }
            }
        }
        ok.then_some(out)
    }

    fn history(&mut self) -> Option<Vec<TurnRecord>> {
        let v = self.required("turn_history")?;
        let Some(items) = v.as_array() else {
            self.problem(
                "turn_history",
                "must be a list of turn records",
                "an array of {turn, feedback, approved, score}",
                v,
                "write [] when there are none",
            );
            return None;
        };
        let mut out = Vec::new();
        let mut ok = true;
        for (i, item) in items.iter().enumerate() {
            let Some(obj) = item.as_object() else {
                ok = false;
                self.problem(
                    &format!("turn_history/{i}"),
                    "must be a turn record",
                    "an object {turn, feedback, approved, score}",
                    item,
                    "write each review as an object",
                );
                continue;
            };
            let mut inner = Fields {
                obj,
                at: format!("{}/turn_history/{i}", self.at),
                problems: Vec::new(),
            };
            let turn = inner.count("turn", 0);
            let feedback = match inner.required("feedback") {
                None => None,
                Some(Value::String(s)) => Some(s.clone()),
                Some(other) => {
                    inner.problem(
                        "feedback",
                        "must be text",
                        "a string",
                        other,
                        "write the coach's feedback as text",
                    );
                    None
                }
            };
            let approved = match inner.required("approved") {
                None => None,
                Some(Value::Bool(b)) => Some(*b),
                Some(other) => {
                    inner.problem(
                        "approved",
                        "must be true or false",
                        "a boolean",
                        other,
                        "write true or false",
                    );
                    None
                }
            };
            let score = match inner.required("score") {
                None => None,
                Some(Value::Null) => Some(None),
                Some(s) => match s.as_f64() {
                    Some(x) if (0.0..=1.0).contains(&x) => Some(Some(x)),
                    _ => {
                        inner.problem(
                            "score",
                            "must be a number from 0 to 1, or null",
                            "a number in [0, 1] or null",
                            s,
                            "write a fraction such as 0.7, or null",
                        );
                        None
                    }
                },
            };
            self.problems.extend(inner.problems);
            match (turn, feedback, approved, score) {
                (Some(turn), Some(feedback), Some(approved), Some(score)) => out.push(TurnRecord {
                    turn,
                    feedback,
                    approved,
                    score,
                    extra: obj
                        .iter()
                        .filter(|(k, _)| !TURN_KEYS.contains(&k.as_str()))
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect(),
                }),
                _ => ok = false,
            }
        }
        ok.then_some(out)
    }
}

fn violation(
    path: &str,
    message: String,
    expected: &str,
    received: String,
    hint: &str,
) -> Violation {
    Violation {
        path: path.into(),
        message,
        expected: expected.into(),
        received,
        hint: hint.into(),
    }
}

/// A value as the error format shows what was received: compact JSON, cut to a readable length.
fn received(value: &Value) -> String {
    cut_at_word(&value.to_string(), 80).to_string()
}
