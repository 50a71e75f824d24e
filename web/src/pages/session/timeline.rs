//! The timeline: rounds and steps with every call, each member's live state in the current step,
//! and a progress bar for the round. A call opens its transcript.
//!
//! Everything shown is core's: the stage, the progress, the live words and the timeline with
//! each call's result ([`Session::timeline`], [`roundtable_core::session::SessionView`]). The
//! runner adds only what it alone knows: a call whose request is out is `streaming`, one whose
//! answer is being validated and stored is `validating`.

use leptos::prelude::*;
use roundtable_core::protocol::CallKind;
use roundtable_core::session::Session;

use super::{Inspect, ViewMemo};
use crate::runner::Runner;

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

/// The badge class of a call result word ([`roundtable_core::engine::CallRecord::result_word`]).
fn result_class(word: &str) -> &'static str {
    match word {
        "applied" => "ok",
        "invalid" => "invalid",
        "fell back" | "halted" => "warn",
        "asked for context" | "answered" => "running",
        "waiting" => "queued",
        _ => "",
    }
}

/// The timeline panel.
#[component]
pub fn Timeline() -> impl IntoView {
    let runner = expect_context::<Runner>();
    let ViewMemo(view) = expect_context::<ViewMemo>();
    let Inspect(inspect) = expect_context::<Inspect>();
    view! {
        <section class="panel" aria-label="Timeline">
            <h2>"Timeline"</h2>
            <div class="panel-body">
                {move || {
                    let inflight = runner.inflight.get();
                    let validating = runner.validating.get();
                    let v = view.get();
                    let pct = v.progress;
                    let stage = if v.stage.is_empty() { "Not started".to_string() } else { v.stage };
                    // The member's name and outstanding call: the team's panel knows them.
                    let live: Vec<(String, String, &'static str, Option<String>)> = runner.with_untracked(|s| {
                        v.live.into_iter().map(|(id, word)| {
                            let (name, call) = member_now(s, &id);
                            let word = match call.as_deref() {
                                Some(c) if validating.contains(c) => "validating",
                                Some(c) if inflight.contains(c) => "streaming",
                                _ => word,
                            };
                            (id, name, word, call)
                        }).collect()
                    });
                    view! {
                        <div class="small"><strong>{stage}</strong></div>
                        <div class="progress" role="progressbar" aria-label="Round progress"
                            aria-valuemin="0" aria-valuemax="100" aria-valuenow=pct>
                            <div style:width=format!("{pct}%")></div>
                        </div>
                        <div class="members-live" aria-label="Members now">
                            {live.into_iter().map(|(id, name, state, call_id)| view! {
                                <div class="member-live" data-member=id.clone()>
                                    <span class="mname" title=id.clone()>{name}</span>
                                    <span class=format!("badge {state}") data-live-state=state>
                                        {state.replace('_', " ")}
                                        // Only this text re-renders as the answer arrives.
                                        {(state == "streaming").then_some(move || streamed_chars(runner, call_id.as_deref()))}
                                    </span>
                                </div>
                            }).collect_view()}
                        </div>
                    }
                }}
                <div class="timeline" aria-label="Rounds and steps">
                    {move || runner.with(Session::timeline).into_iter().map(|round| view! {
                        <div class="round">
                            <h3>{round.title}</h3>
                            {round.steps.into_iter().map(|step| view! {
                                <div class="step">
                                    <div class="step-name">{step.title}</div>
                                    {step.calls.into_iter().map(|call| {
                                        let id = call.id.clone();
                                        let kind_word = match call.kind {
                                            CallKind::Initial => "",
                                            CallKind::AfterContext => " (with context)",
                                            CallKind::Repair => " (repair)",
                                        };
                                        view! {
                                            <div class="call-line" data-call-id=call.id.clone()>
                                                <button class="link" on:click=move |_| inspect.set(Some(id.clone()))
                                                    title="Open the transcript of this call">
                                                    {format!("{}{kind_word}", call.member)}
                                                </button>
                                                <span class=format!("badge {}", result_class(call.result))>{call.result}</span>
                                                <span class="muted small">{crate::util::short_count(call.tokens)}</span>
                                                {call.cost.map(|c| view! { <span class="muted small" data-call-cost>{c}</span> })}
                                            </div>
                                        }
                                    }).collect_view()}
                                </div>
                            }).collect_view()}
                        </div>
                    }).collect_view()}
                </div>
            </div>
        </section>
    }
}

/// A member's display name and its outstanding call, if any.
fn member_now(s: &Session, member: &str) -> (String, Option<String>) {
    let name = s
        .members()
        .into_iter()
        .find(|m| m.id == member)
        .map_or_else(|| member.to_string(), |m| m.name);
    let call = s
        .calls_out()
        .into_iter()
        .find(|(m, _)| m == member)
        .map(|(_, id)| id);
    (name, call)
}
