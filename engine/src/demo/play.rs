//! Plays a session of any kind on its demo model, as the web runner would, for tests, benchmarks
//! and the ready-made demo sessions shipped with the app.
//!
//! The person's side is played too: a question is answered with its first option (or a default
//! line), an approval approved. An effect (code to run) is performed by the kind's own stand-in
//! ([`crate::engine::Protocol::demo_effect`]); a kind with none stops there. Time is a counter passed in and advanced by one per command, so a played session is as
//! deterministic as the model.

use serde::{Deserialize, Serialize};

use crate::engine::{
    DemoReply, DueCall, Engine, EngineError, KindState, Outcome, PersonReply, Status, Usage,
    Verdict,
};

/// What happened while playing, for assertions and the benchmark log.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayReport {
    /// Answers submitted.
    pub calls: usize,
    /// Answers the engine refused (each followed by a repair call).
    pub invalid: usize,
    /// `request_context` answers the engine served.
    pub context_served: usize,
    /// Questions the person answered.
    pub questions: usize,
    /// The highest round a call was made in.
    pub last_round: u32,
    /// Effects the kind's demo stand-in performed (code runs).
    #[serde(default)]
    pub effects: usize,
    /// Approvals the person gave.
    #[serde(default)]
    pub approvals: usize,
}

impl DemoReply {
    /// Usage in the event log's terms (the demo never stops for length).
    pub fn engine_usage(&self) -> Usage {
        Usage {
            schema_form: None,
            input_tokens: self.prompt_tokens,
            output_tokens: self.completion_tokens,
            stopped_for_length: false,
            cost: None,
        }
    }
}

/// Runs a session of any kind on its kind's own demo model (`Protocol::demo_answer`), playing
/// the person's side as [`play_with`] does: what a test means by "the demo, played through".
pub fn play_demo(
    session: &mut Engine,
    now: &mut u64,
    max_calls: usize,
) -> Result<PlayReport, EngineError> {
    play_with(
        session,
        |st, c| st.demo_answer(&c.call, &c.envelope),
        now,
        max_calls,
    )
}

/// Runs a session of any kind with `answer` as its model (the kind's own demo model:
/// `|state, call| state.demo_answer(call, &call.envelope)`), playing the person's side as [`play`] does.
pub fn play_with(
    session: &mut Engine,
    answer: impl Fn(&dyn KindState, &DueCall) -> DemoReply,
    now: &mut u64,
    max_calls: usize,
) -> Result<PlayReport, EngineError> {
    let mut report = PlayReport::default();
    while report.calls < max_calls {
        match session.status().clone() {
            Status::Draft => {
                session.start(tick(now))?;
            }
            Status::Running => {
                // Every answer is drawn before any is submitted, as the runner does: each call's
                // envelope is the state it was issued in.
                let calls = session.calls_due();
                if calls.is_empty() {
                    // An effect owed (code to run): the kind's stand-in performs it, if it has one.
                    let effects = session.next_effects();
                    let Some(effect) = effects.first() else {
                        break;
                    };
                    let Some(output) = session.state().demo_effect(effect) else {
                        break;
                    };
                    report.effects += 1;
                    session.effect_done(&effect.id, output, tick(now))?;
                    continue;
                }
                for call in calls {
                    let answer = answer(session.state(), &call);
                    report.calls += 1;
                    report.last_round = report.last_round.max(call.round);
                    match session.submit(
                        &call.id,
                        &answer.text,
                        Some(answer.engine_usage()),
                        tick(now),
                    )? {
                        Outcome::Invalid { .. } => report.invalid += 1,
                        Outcome::ContextServed => report.context_served += 1,
                        _ => {}
                    }
                }
            }
            Status::AwaitingPerson { halt, .. } if halt.is_approval() => {
                report.approvals += 1;
                session.reply(None, PersonReply::verdict(Verdict::Approve, ""), tick(now))?;
            }
            Status::AwaitingPerson { halt, .. } => {
                let answer = halt
                    .options()
                    .first()
                    .cloned()
                    .unwrap_or_else(|| "Go ahead as you think best.".to_string());
                report.questions += 1;
                session.answer_halt(&answer, tick(now))?;
            }
            Status::Done | Status::Paused { .. } => break,
        }
    }
    Ok(report)
}

fn tick(now: &mut u64) -> u64 {
    let t = *now;
    *now += 1;
    t
}
