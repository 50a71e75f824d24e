//! Effects: work the runner performs for a kind that is not a model call — running a player's
//! code in the sandbox, first of all. A kind asks for one as its next move ([`super::Move::Effect`]);
//! the engine records it (`effect_issued`), the runner performs it and hands the output back
//! ([`super::Engine::effect_done`], recorded as `effect_done`), and the kind's fold reads the
//! output. The output is in the log, so replay, export, fork and share never perform an effect
//! again.
//!
//! An effect's input and output are JSON values the kind reads and writes itself: the engine
//! names no kind, and the log's reader stays compiled once for every kind.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What a kind asks the runner to do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Effect {
    /// What to do, as the runner knows it (`run_code`).
    pub name: String,
    /// Its input, in the kind's shape (for `run_code`: the files and the time limit).
    pub input: Value,
}

/// One effect of the session: asked for, then done (or dropped when the person wrapped up first).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EffectRecord {
    /// `effect-1`, `effect-2`, … in issue order.
    pub id: String,
    /// What was asked.
    pub effect: Effect,
    /// What the runner handed back, once it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<Value>,
    /// The person wrapped up before it was done: its output is no longer taken.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dropped: bool,
}

impl EffectRecord {
    /// Whether the runner still owes this effect's output.
    pub fn pending(&self) -> bool {
        self.output.is_none() && !self.dropped
    }
}

/// An effect the runner should perform now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DueEffect {
    /// Its id, to hand back with the output.
    pub id: String,
    /// What to do.
    pub name: String,
    /// Its input.
    pub input: Value,
}
