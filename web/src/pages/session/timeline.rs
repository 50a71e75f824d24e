//! The timeline: rounds and steps with every call, each member's live state in the current step,
//! and a progress bar for the round. A call opens its transcript.

use leptos::prelude::*;
use roundtable_core::protocol::team::{CallResult, TeamState};
use roundtable_core::protocol::CallKind;
use roundtable_core::schema::Step;

use super::Inspect;
use crate::runner::Runner;

/// Steps of a working round, in order, for the progress bar.
const ROUND_STEPS: [Step; 5] = [
    Step::Reflect,
    Step::PlanAssign,
    Step::Write,
    Step::PeerReview,
    Step::Inspection,
];

/// The live state of one member in the current step, in the words the issue uses.
fn live_state(
    st: &TeamState,
    slot: &roundtable_core::protocol::team::Slot,
    inflight: &std::collections::BTreeSet<String>,
    validating: &std::collections::BTreeSet<String>,
) -> &'static str {
    let had_invalid = st.calls.iter().any(|c| {
        c.call.member == slot.member
            && c.call.round == st.round
            && Some(c.call.step) == st.step
            && matches!(c.result, Some(CallResult::Invalid { .. }))
    });
    if slot.exhausted {
        return "failed";
    }
    if let roundtable_core::session::Status::AwaitingPerson { asked_by, .. } = &st.status {
        if *asked_by == slot.member {
            return "halted";
        }
    }
    if slot.done {
        return if had_invalid { "repaired" } else { "done" };
    }
    match slot.call_id.as_deref() {
        Some(id) if validating.contains(id) => "validating",
        Some(id) if inflight.contains(id) => "streaming",
        _ => "queued",
    }
}

/// " · 1.2k chars" while a call's answer is arriving, nothing before its first chunk.
fn streamed_chars(runner: Runner, call_id: Option<&str>) -> Option<String> {
    let chars = runner
        .partial
        .with(|p| p.get(call_id?).map(|t| t.chars().count()))?;
    Some(format!(
        " · {} chars",
        crate::util::short_count(chars as u64)
    ))
}

/// Share of the current round done, 0.0–1.0.
fn round_progress(st: &TeamState) -> f64 {
    let slots_done = if st.slots.is_empty() {
        1.0
    } else {
        st.slots.iter().filter(|s| s.done).count() as f64 / st.slots.len() as f64
    };
    match st.step {
        None => 0.0,
        Some(Step::Bootstrap) => slots_done,
        Some(Step::Presentation) => slots_done,
        Some(step) => {
            let i = ROUND_STEPS.iter().position(|s| *s == step).unwrap_or(0) as f64;
            (i + slots_done) / ROUND_STEPS.len() as f64
        }
    }
}

fn result_word(r: &Option<CallResult>) -> (&'static str, &'static str) {
    match r {
        None => ("waiting", "queued"),
        Some(CallResult::Applied { warnings, .. }) if !warnings.is_empty() => {
            ("applied (warnings)", "ok")
        }
        Some(CallResult::Applied { .. }) => ("applied", "ok"),
        Some(CallResult::Invalid { .. }) => ("invalid", "invalid"),
        Some(CallResult::ContextServed { .. }) => ("asked for context", "running"),
        Some(CallResult::Halted { .. }) => ("halted", "warn"),
        Some(CallResult::Superseded) => ("superseded", ""),
    }
}

/// The timeline panel.
#[component]
pub fn Timeline() -> impl IntoView {
    let runner = expect_context::<Runner>();
    let Inspect(inspect) = expect_context::<Inspect>();
    view! {
        <section class="panel" aria-label="Timeline">
            <h2>"Timeline"</h2>
            <div class="panel-body">
                {move || {
                    let inflight = runner.inflight.get();
                    let validating = runner.validating.get();
                    runner.with(|s| {
                        let st = s.state();
                        let pct = (round_progress(st) * 100.0).round() as u32; // an integer: no float formatting code
                        let step_name = st.step.map(|x| x.title()).unwrap_or("not started");
                        let live: Vec<(String, String, &'static str, Option<String>)> = st.slots.iter().map(|slot| {
                            let name = st.member(&slot.member).map(|m| m.name.clone()).unwrap_or_else(|| slot.member.clone());
                            (slot.member.clone(), name, live_state(st, slot, &inflight, &validating), slot.call_id.clone())
                        }).collect();
                        view! {
                            <div class="small"><strong>{format!("Round {}", st.round)}</strong> {format!(" · {step_name}")}</div>
                            <div class="progress" role="progressbar" aria-label="Round progress"
                                aria-valuemin="0" aria-valuemax="100" aria-valuenow=pct>
                                <div style:width=format!("{pct}%")></div>
                            </div>
                            <div class="members-live" aria-label="Members now">
                                {live.into_iter().map(|(id, name, state, call_id)| view! {
                                    <div class="member-live" data-member=id.clone()>
                                        <span class="mname" title=id.clone()>{name}</span>
                                        <span class=format!("badge {state}") data-live-state=state>
                                            {state}
                                            // Only this text re-renders as the answer arrives.
                                            {(state == "streaming").then_some(move || streamed_chars(runner, call_id.as_deref()))}
                                        </span>
                                    </div>
                                }).collect_view()}
                            </div>
                        }
                    })
                }}
                <div class="timeline" aria-label="Rounds and steps">
                    {move || runner.with(|s| {
                        let st = s.state();
                        let mut rounds: Vec<u32> = st.timeline.iter().map(|t| t.round).collect();
                        rounds.dedup();
                        rounds.into_iter().rev().map(|round| {
                            let steps: Vec<_> = st.timeline.iter().filter(|t| t.round == round).cloned().collect();
                            view! {
                                <div class="round">
                                    <h3>{if round == 0 { "Start".to_string() } else { format!("Round {round}") }}</h3>
                                    {steps.into_iter().rev().map(|step| {
                                        let calls: Vec<_> = st.calls.iter()
                                            .filter(|c| c.call.round == step.round && c.call.step == step.step)
                                            .map(|c| (c.call.id.clone(), c.call.member.clone(), c.call.kind, result_word(&c.result), c.tokens))
                                            .collect();
                                        view! {
                                            <div class="step">
                                                <div class="step-name">{step.step.title()}</div>
                                                {calls.into_iter().map(|(id, member, kind, (word, class), tokens)| {
                                                    let id2 = id.clone();
                                                    let kind_word = match kind {
                                                        CallKind::Initial => "",
                                                        CallKind::AfterContext => " (with context)",
                                                        CallKind::Repair => " (repair)",
                                                    };
                                                    view! {
                                                        <div class="call-line" data-call-id=id.clone()>
                                                            <button class="link" on:click=move |_| inspect.set(Some(id2.clone()))
                                                                title="Open the transcript of this call">
                                                                {format!("{member}{kind_word}")}
                                                            </button>
                                                            <span class=format!("badge {class}")>{word}</span>
                                                            <span class="muted small">{crate::util::short_count(tokens)}</span>
                                                        </div>
                                                    }
                                                }).collect_view()}
                                            </div>
                                        }
                                    }).collect_view()}
                                </div>
                            }
                        }).collect_view()
                    })}
                </div>
            </div>
        </section>
    }
}
