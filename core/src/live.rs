//! What each member and each call is doing right now, in one set of words for every page.
//!
//! The engine knows what was issued, answered, applied or refused, and why a session paused; only
//! the runner knows that a request is out, that an answer is streaming in, or that a retry waits
//! until some time. The runner hands those facts in as [`RunFacts`] (with the time: core reads no
//! clock) and gets back the words to show: [`MemberNow`] for the live list, a [`CallNow`] per
//! call for the timeline, and [`Notice`]s for the banners. Pages render these and never decide a
//! status themselves, so a failed call cannot read "waiting" in one place and "failed" in another.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::engine::{clause, CallRecord, CallResult, Core, Fix, KindState, PauseReason, Status};

/// What only the runner knows about the calls it has out, and the time now (ms).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunFacts {
    /// Milliseconds since the Unix epoch.
    pub now: u64,
    /// What the runner is doing with each call, by call id.
    pub calls: BTreeMap<String, CallActivity>,
}

/// One call in the runner's hands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallActivity {
    /// The request is out; `chars` of the answer have arrived so far.
    Streaming {
        /// Characters received (0 before the first chunk).
        chars: u64,
    },
    /// The answer is complete and being checked and stored.
    Validating,
    /// The provider failed and the call is asked again at `at`.
    Retrying {
        /// When the next attempt goes out (ms).
        at: u64,
        /// The next attempt's number.
        attempt: u32,
        /// How many attempts are made in all.
        of: u32,
        /// What the provider said.
        error: String,
    },
}

/// A call's state now: a word for styling and tests, and the words a person reads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CallNow {
    /// One of `queued`, `streaming`, `retrying`, `validating`, `failed`, `stopped`, or a result
    /// word ([`CallRecord::result_word`]: `applied`, `invalid`, `fell back`, …).
    pub state: &'static str,
    /// The state in words, with its detail ("retrying in 4 s", "streaming · 1.2k chars").
    pub label: String,
}

/// One member of the current step and what it is doing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MemberNow {
    /// Member id.
    pub member: String,
    /// Display name.
    pub name: String,
    /// `queued`, `streaming`, `retrying`, `validating`, `failed`, `stopped`, `halted`, `stuck`,
    /// `repaired`, `done`, `waiting`.
    pub state: &'static str,
    /// The state in words.
    pub label: String,
    /// Its outstanding call, if any (opens the transcript).
    pub call_id: Option<String>,
}

/// A line the session page shows above its panels, with where to act on it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Notice {
    /// `warn` or `bad`.
    pub tone: &'static str,
    /// What happened, in a sentence.
    pub text: String,
    /// Where it can be fixed; `None` when nothing is the person's to do (a retry will run).
    pub fix: Option<Fix>,
}

/// "1.2k" for 1234.
fn short(n: u64) -> String {
    if n >= 1000 {
        format!("{:.1}k", n as f64 / 1000.0)
    } else {
        n.to_string()
    }
}

/// Whole seconds until `at`, at least 1 while it is still ahead.
fn seconds_until(now: u64, at: u64) -> u64 {
    at.saturating_sub(now).div_ceil(1000)
}

/// The state of one call, from the engine's record, the runner's facts and the status.
pub fn call_now(core: &Core, rec: &CallRecord, facts: &RunFacts) -> CallNow {
    let id = rec.call.id.as_str();
    let word = |state: &'static str| CallNow {
        state,
        label: state.to_string(),
    };
    if rec.result.is_some() {
        return word(rec.result_word());
    }
    if let Some(activity) = facts.calls.get(id) {
        return match activity {
            CallActivity::Streaming { chars: 0 } => word("streaming"),
            CallActivity::Streaming { chars } => CallNow {
                state: "streaming",
                label: format!("streaming · {} chars", short(*chars)),
            },
            CallActivity::Validating => word("validating"),
            CallActivity::Retrying { at, .. } => CallNow {
                state: "retrying",
                label: format!("retrying in {} s", seconds_until(facts.now, *at)),
            },
        };
    }
    if rec.raw_answer.is_some() {
        return word(rec.result_word());
    }
    match &core.status {
        Status::Paused {
            reason: PauseReason::CallFailed { call_id, .. },
        } if call_id == id => word("failed"),
        Status::Running => word("queued"),
        // Stopped or paused before its answer came: asked again on resume.
        _ => CallNow {
            state: "stopped",
            label: "stopped · asked again on resume".into(),
        },
    }
}

/// Each member of the current step with what it is doing now.
pub fn members_now(
    core: &Core,
    names: &BTreeMap<String, String>,
    facts: &RunFacts,
) -> Vec<MemberNow> {
    core.slots
        .iter()
        .map(|slot| {
            let member = slot.member.clone();
            let name = names
                .get(&member)
                .cloned()
                .unwrap_or_else(|| member.clone());
            let repairing = slot.next_kind == crate::engine::CallKind::Repair;
            let halted = match &core.status {
                Status::AwaitingPerson { asked_by, halt } if *asked_by == member => Some(halt),
                _ => None,
            };
            let (state, label, call_id) = match slot.call_id.as_deref().and_then(|c| core.call(c)) {
                Some(rec) => {
                    let now = call_now(core, rec, facts);
                    let label = if repairing && now.state != "failed" {
                        format!("repairing · {}", now.label)
                    } else {
                        now.label
                    };
                    (now.state, label, Some(rec.call.id.clone()))
                }
                // An approval is called one, a question a question.
                None if halted.is_some() => (
                    "halted",
                    match halted {
                        Some(crate::engine::PersonAsk::Approval { .. }) => "asks for your approval",
                        _ => "asked you a question",
                    }
                    .into(),
                    None,
                ),
                None => {
                    let word = slot.live_state();
                    let repaired = word == "done"
                        && core.step.is_some_and(|step| {
                            core.thread(&member, core.round, step)
                                .iter()
                                .any(|c| matches!(c.result, Some(CallResult::Invalid { .. })))
                        });
                    let state = if repaired { "repaired" } else { word };
                    let label = match state {
                        "stuck" => "stuck · repairs used up".to_string(),
                        "repaired" => "done · repaired".to_string(),
                        w => w.to_string(),
                    };
                    (state, label, None)
                }
            };
            MemberNow {
                member,
                name,
                state,
                label,
                call_id,
            }
        })
        .collect()
}

/// The banners the runner's facts add to the session's own status: one per call waiting to be
/// retried, with the provider's error and the countdown. They go as soon as the retry is out.
pub fn notices(state: &dyn KindState, facts: &RunFacts) -> Vec<Notice> {
    let core = state.core();
    facts
        .calls
        .iter()
        .filter_map(|(id, activity)| match activity {
            CallActivity::Retrying {
                at,
                attempt,
                of,
                error,
            } => {
                // The call as the transcript titles it ("Ana's turn in Option generation").
                let call = core.call(id).map_or_else(
                    || "A call".to_string(),
                    |c| state.call_title(&c.call.member, c.call.step, c.call.round),
                );
                Some(Notice {
                    tone: "warn",
                    text: format!(
                        "{call} failed: {}. Trying again in {} s (attempt {attempt} of {of}).",
                        clause(error),
                        seconds_until(facts.now, *at)
                    ),
                    fix: None,
                })
            }
            _ => None,
        })
        .collect()
}
