//! Raw model text in, a typed answer or every violation out.
//!
//! Two layers. [`recover`] gets the one JSON object out of what models really send (a ```json
//! fence, prose around it, a BOM, trailing commas, comments, raw newlines in strings, curly quotes
//! around keys) and records each repair as a warning. The checker then walks the object against the
//! step's shape (required fields, enums, lengths, counts, ranges, the step × responseType matrix,
//! Write content that is not JSON) and against the ids the session knows, collecting every
//! violation with a JSON pointer, what was expected, what was received and a hint (the error
//! format of spec `002`). [`Report::repair_prompt`] turns the violations into the message sent
//! back to the same model.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::schema::{StepAnswer, Step};

/// The ids a session knows, to check that every id an answer names exists. When the caller has no
/// session (the JS API without `known`), pass `None` and only the shape is checked.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Known {
    /// Product temp ids (`p0`, `p1`, …).
    #[serde(default)]
    pub products: BTreeSet<String>,
    /// Version temp ids (`v1`, …).
    #[serde(default)]
    pub versions: BTreeSet<String>,
    /// Member ids (`chair`, `operative-1`, `inspector`, `envoy`, `user-1`).
    #[serde(default)]
    pub members: BTreeSet<String>,
    /// Collab temp ids (`c1`, …).
    #[serde(default)]
    pub collabs: BTreeSet<String>,
}

/// One thing wrong (an error) or worth noting (a warning) in an answer, in the error format of
/// spec `002`: where, what, what was expected, what was received, and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Violation {
    /// JSON pointer into the answer (`/treeOperations/0/parentId`); `""` for the whole answer.
    pub path: String,
    /// One sentence saying what is wrong.
    pub message: String,
    /// What the schema wants there.
    pub expected: String,
    /// What the answer had there, shortened.
    pub received: String,
    /// How to fix it.
    pub hint: String,
}

/// A valid answer and what was noticed on the way (recoveries, unknown extra fields).
#[derive(Debug, Clone, PartialEq)]
pub struct Validated {
    /// The typed answer, with the spec's defaults filled in.
    pub answer: StepAnswer,
    /// Non-fatal notes, shown in the transcript.
    pub warnings: Vec<Violation>,
}

/// Why an answer was refused: every violation found, not only the first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The step the answer was for.
    pub step: Step,
    /// What must be fixed (never empty in a returned report).
    pub errors: Vec<Violation>,
    /// Non-fatal notes.
    pub warnings: Vec<Violation>,
}
