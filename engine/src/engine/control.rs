//! The person's run controls, each a contract the engine keeps for every kind of session.
//!
//! - **One step** ([`RunTarget::Step`]): the step under way is finished (or, between steps, the
//!   next one is run), then the session pauses before any other step or round begins
//!   ([`PauseReason::Reached`](super::PauseReason::Reached)).
//! - **One round** ([`RunTarget::Round`]): the round under way is finished (or, between rounds,
//!   the next one is run; from the opening step before round 1, round 1 is run too), then the
//!   session pauses before the next round begins.
//! - **Run to the end** ([`RunTarget::End`]): no boundary of its own; the session runs until it
//!   is done, a member asks a question, or a limit (rounds, tokens, repairs) pauses it.
//!
//! The boundary is fixed when the run begins (recorded on the `started` / `resumed` event as an
//! [`Until`]) and held by the engine, so nothing that happens on the way moves it: a question the
//! person answers, a repair, a request for context, a provider error retried by the runner, or a
//! budget pause lifted by raising the budget and resuming with the same control.
//!
//! - **Pause**: no new call is issued; answers to calls already out are still taken in and
//!   applied (a step they complete stays complete); the session waits for a run control.
//! - **Stop**: a pause whose calls in flight are cancelled by the runner; they stay outstanding
//!   (same ids) and are asked again when a run control resumes the session.
//! - **Wrap up** ([`Engine::finish`](super::Engine::finish)): calls out are superseded (a late
//!   answer is refused), the work ends and the closing step runs to the end of the session,
//!   whatever boundary the run had.
//! - **Take over** (a second tab): the tab that ran stops as with Stop and becomes read-only; the
//!   taking tab opens the stored session and, if it was running, pauses it. Nothing is lost: a
//!   call the first tab had out is asked again on the next run control.

use serde::{Deserialize, Serialize};

/// The person's id in events (`by` of a wrap-up, an action item's owner).
pub const PERSON: &str = "user-1";

/// How far a run the person starts goes (the One step / One round / Run to the end buttons).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunTarget {
    /// Finish the step under way (or run the next one), then pause.
    Step,
    /// Finish the round under way (or run the next one), then pause.
    Round,
    /// Run until done, a question or a limit.
    End,
}

/// The boundary a run stops at, fixed when it begins (absolute, so replay and every interruption
/// on the way keep it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Until {
    /// Pause before a step or round begins once the session has begun `steps` steps in all.
    Steps {
        /// Steps begun in the whole session (the timeline's length) at which to stop.
        steps: u32,
    },
    /// Pause before any round after `round` begins.
    Round {
        /// The last round to run.
        round: u32,
    },
}

impl Until {
    /// The stop in plain words, for the status bar; `round_word` is the kind's word for a
    /// round ("Round", "Turn").
    pub fn describe(&self, round_word: &str) -> String {
        let done = match self {
            Until::Steps { .. } => "One step done".to_string(),
            Until::Round { round } => format!("{round_word} {round} done"),
        };
        // The step button as the header names it: the kind's unit ("One turn", "One pass").
        let unit = round_word.to_lowercase();
        format!("{done}, as you asked: One step, One {unit} or Run to the end goes on")
    }
}
