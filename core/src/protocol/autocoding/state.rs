//! Hegelion's `AutocodingState` (spec `002`), field for field: what its tools pass from call to
//! call, what save writes and load reads. A loaded state is checked field by field and every
//! problem is reported at once, in the validator's error format (pointer, expected, received,
//! hint), so a state written by hand or by Hegelion itself either loads whole or says all that is
//! wrong with it.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::text::cut_at_word;
use crate::validate::Violation;

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
    /// Whether the coach approved.
    pub approved: bool,
    /// The coach's score in [0, 1], when it gave one.
    pub score: Option<f64>,
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
}

impl AutocodingState {
    /// A state made from `text` (a saved state's JSON), or every reason it cannot be one.
    ///
    /// Fields Hegelion may leave out take its defaults (`current_turn` 0, `max_turns` 10, `phase`
    /// `init`, `status` `active`, empty history and scores, `approval_threshold` 0.9, no name and
    /// no feedback); `session_id` and `requirements` are required. Beyond each field's type and
    /// range, the fields must agree: as many scores as scored reviews, `current_turn` within
    /// `max_turns`, an ended phase with its status.
    pub fn load(text: &str) -> Result<AutocodingState, Vec<Violation>> {
        let value: Value = serde_json::from_str(text).map_err(|e| {
            vec![violation(
                "",
                format!("the state is not JSON: {e}"),
                "a JSON object (an AutocodingState)",
                received(&Value::String(cut_at_word(text, 80).into())),
                "give the text autocoding_save wrote, unchanged",
            )]
        })?;
        Self::from_value(&value)
    }

    /// The same as [`AutocodingState::load`] for a value already parsed.
    pub fn from_value(value: &Value) -> Result<AutocodingState, Vec<Violation>> {
        let Some(obj) = value.as_object() else {
            return Err(vec![violation(
                "",
                "the state is not an object".into(),
                "a JSON object (an AutocodingState)",
                received(value),
                "give the whole state object, as autocoding_init or autocoding_advance returned it",
            )]);
        };
        let mut f = Fields {
            obj,
            problems: Vec::new(),
        };
        if let Some(v) = obj.get("schema_version") {
            if v.as_u64() != Some(u64::from(SCHEMA_VERSION)) {
                f.problem(
                    "schema_version",
                    "this build reads schema version 1",
                    "1",
                    v,
                    "set schema_version to 1, or leave it out",
                );
            }
        }
        let session_id = f.text("session_id", true).unwrap_or_default();
        let session_name = f.optional_text("session_name");
        let requirements = f.text("requirements", true).unwrap_or_default();
        let current_turn = f.count("current_turn", 0, 0);
        let max_turns = f.count("max_turns", DEFAULT_MAX_TURNS, 1);
        let phase = f.word("phase", Phase::Init, &Phase::ALL, Phase::word);
        let status = f.word("status", Status::Active, &Status::ALL, Status::word);
        let turn_history = f.history();
        let last_coach_feedback = f.optional_text("last_coach_feedback");
        let quality_scores = f.scores();
        let approval_threshold = f.fraction("approval_threshold", DEFAULT_APPROVAL_THRESHOLD);
        let mut problems = f.problems;
        if problems.is_empty() {
            let state = AutocodingState {
                schema_version: SCHEMA_VERSION,
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
            };
            problems.extend(state.disagreements(value));
            if problems.is_empty() {
                return Ok(state);
            }
        }
        Err(problems)
    }

    /// The state as save writes it: pretty JSON, the spec's field order.
    pub fn save(&self) -> String {
        serde_json::to_string_pretty(self).expect("a state always serializes")
    }

    /// Where the fields contradict each other (each field is valid on its own).
    fn disagreements(&self, value: &Value) -> Vec<Violation> {
        let mut out = Vec::new();
        let at = |field: &str| value.get(field).cloned().unwrap_or(Value::Null);
        if self.current_turn > self.max_turns {
            out.push(violation(
                "/current_turn",
                format!(
                    "turn {} is past max_turns ({})",
                    self.current_turn, self.max_turns
                ),
                &format!("at most {}", self.max_turns),
                received(&at("current_turn")),
                "raise max_turns or lower current_turn",
            ));
        }
        let scored = self
            .turn_history
            .iter()
            .filter(|t| t.score.is_some())
            .count();
        if scored != self.quality_scores.len() {
            out.push(violation(
                "/quality_scores",
                format!(
                    "{} scores for {scored} scored reviews in turn_history",
                    self.quality_scores.len()
                ),
                &format!("{scored} scores, one per scored review, in order"),
                received(&at("quality_scores")),
                "list each turn_history score, in order",
            ));
        }
        let ended = match self.phase {
            Phase::Approved => Some(Status::Approved),
            Phase::Timeout => Some(Status::Timeout),
            _ => None,
        };
        let consistent = match (ended, self.status) {
            (Some(want), have) => want == have,
            (None, Status::Active | Status::Rejected) => true,
            (None, _) => false,
        };
        if !consistent {
            let want = ended.map_or("active or rejected", Status::word);
            out.push(violation(
                "/status",
                format!(
                    "status {} does not go with phase {}",
                    self.status.word(),
                    self.phase.word()
                ),
                &format!("\"{want}\" with phase \"{}\"", self.phase.word()),
                received(&at("status")),
                "set status and phase to the same ending, or phase to player or coach while active",
            ));
        }
        out
    }
}

/// The field-by-field reader behind [`AutocodingState::from_value`]: each accessor reads one
/// field, records what is wrong with it, and returns the field's value or its default.
struct Fields<'a> {
    obj: &'a Map<String, Value>,
    problems: Vec<Violation>,
}

impl Fields<'_> {
    fn problem(&mut self, field: &str, message: &str, expected: &str, got: &Value, hint: &str) {
        self.problems.push(violation(
            &format!("/{field}"),
            format!("{field}: {message}"),
            expected,
            received(got),
            hint,
        ));
    }

    fn text(&mut self, field: &str, required: bool) -> Option<String> {
        match self.obj.get(field) {
            None if required => {
                self.problems.push(violation(
                    &format!("/{field}"),
                    format!("{field} is missing"),
                    "a non-empty string",
                    "nothing".into(),
                    &format!("add {field}: it is required"),
                ));
                None
            }
            None => None,
            Some(Value::String(s)) if !s.trim().is_empty() => Some(s.clone()),
            Some(v) => {
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

    fn optional_text(&mut self, field: &str) -> Option<String> {
        match self.obj.get(field) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
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

    fn count(&mut self, field: &str, default: u32, min: u32) -> u32 {
        match self.obj.get(field) {
            None => default,
            Some(v) => match v.as_u64().and_then(|n| u32::try_from(n).ok()) {
                Some(n) if n >= min => n,
                _ => {
                    let expected = format!("an integer ≥ {min}");
                    self.problem(
                        field,
                        &format!("must be {expected}"),
                        &expected,
                        v,
                        "write a whole number",
                    );
                    default
                }
            },
        }
    }

    fn fraction(&mut self, field: &str, default: f64) -> f64 {
        match self.obj.get(field) {
            None => default,
            Some(v) => match v.as_f64() {
                Some(x) if (0.0..=1.0).contains(&x) => x,
                _ => {
                    self.problem(
                        field,
                        "must be a number from 0 to 1",
                        "a number in [0, 1]",
                        v,
                        "write a fraction such as 0.9",
                    );
                    default
                }
            },
        }
    }

    fn word<T: Copy>(
        &mut self,
        field: &str,
        default: T,
        all: &[T],
        word: fn(T) -> &'static str,
    ) -> T {
        let Some(v) = self.obj.get(field) else {
            return default;
        };
        if let Some(t) = all.iter().copied().find(|t| v.as_str() == Some(word(*t))) {
            return t;
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
        default
    }

    fn scores(&mut self) -> Vec<f64> {
        let Some(v) = self.obj.get("quality_scores") else {
            return Vec::new();
        };
        let Some(items) = v.as_array() else {
            self.problem(
                "quality_scores",
                "must be a list of numbers",
                "an array of numbers in [0, 1]",
                v,
                "write [] when there are none",
            );
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            match item.as_f64() {
                Some(x) if (0.0..=1.0).contains(&x) => out.push(x),
                _ => self.problem(
                    &format!("quality_scores/{i}"),
                    "must be a number from 0 to 1",
                    "a number in [0, 1]",
                    item,
                    "write each score as a fraction such as 0.7",
                ),
            }
        }
        out
    }

    fn history(&mut self) -> Vec<TurnRecord> {
        let Some(v) = self.obj.get("turn_history") else {
            return Vec::new();
        };
        let Some(items) = v.as_array() else {
            self.problem(
                "turn_history",
                "must be a list of turn records",
                "an array of {turn, feedback, approved, score}",
                v,
                "write [] when there are none",
            );
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let Some(obj) = item.as_object() else {
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
                problems: Vec::new(),
            };
            let turn = inner.count("turn", 0, 0);
            let feedback = match obj.get("feedback") {
                Some(Value::String(s)) => s.clone(),
                other => {
                    inner.problem(
                        "feedback",
                        "must be text",
                        "a string",
                        other.unwrap_or(&Value::Null),
                        "write the coach's feedback as text",
                    );
                    String::new()
                }
            };
            let approved = match obj.get("approved") {
                Some(Value::Bool(b)) => *b,
                other => {
                    inner.problem(
                        "approved",
                        "must be true or false",
                        "a boolean",
                        other.unwrap_or(&Value::Null),
                        "write true or false",
                    );
                    false
                }
            };
            let score = match obj.get("score") {
                None | Some(Value::Null) => None,
                Some(s) => match s.as_f64() {
                    Some(x) if (0.0..=1.0).contains(&x) => Some(x),
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
            for mut p in inner.problems {
                p.path = format!("/turn_history/{i}{}", p.path);
                self.problems.push(p);
            }
            out.push(TurnRecord {
                turn,
                feedback,
                approved,
                score,
            });
        }
        out
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
