//! Plays a whole team session on the team's demo model ([`roundtable_engine::demo::play_with`] with
//! [`DemoModel::answer_call`]), for tests, benchmarks and the ready-made demo session shipped with
//! the app.

use super::DemoModel;
use crate::TeamSession;
use roundtable_engine::demo::{play_with, PlayReport};
use roundtable_engine::engine::{DemoReply, EngineError, Usage};

/// The answer's usage as the engine records it.
impl super::DemoAnswer {
    /// Usage in the event log's terms (the demo never stops for length).
    pub fn engine_usage(&self) -> Usage {
        Usage {
            schema_form: None,
            input_tokens: self.usage.prompt_tokens,
            output_tokens: self.usage.completion_tokens,
            stopped_for_length: false,
            cost: None,
        }
    }
}

impl From<super::DemoAnswer> for DemoReply {
    fn from(answer: super::DemoAnswer) -> Self {
        DemoReply {
            text: answer.text,
            finish_reason: answer.finish_reason,
            prompt_tokens: answer.usage.prompt_tokens,
            completion_tokens: answer.usage.completion_tokens,
        }
    }
}

/// Runs a team session on `model` until it is done or paused, or `max_calls` answers were given.
/// `now` is the clock value of the next command; it is advanced by one per command.
pub fn play(
    session: &mut TeamSession,
    model: &DemoModel,
    now: &mut u64,
    max_calls: usize,
) -> Result<PlayReport, EngineError> {
    play_with(
        session,
        |_, call| model.answer_call(call).into(),
        now,
        max_calls,
    )
}
