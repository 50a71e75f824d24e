//! The timeline: rounds and steps with every call, each member's live state in the current step,
//! and a progress bar for the round. A call opens its transcript.
//!
//! Every word shown is core's: the stage and the progress ([`roundtable_core::session::SessionView`]),
//! each member's state ([`roundtable_core::session::Session::members_now`]) and each call's ([`roundtable_core::session::Session::timeline`]), from
//! the engine's state and the facts only the runner knows ([`Runner::facts`]: a request out, an
//! answer streaming, a retry waiting).

use leptos::prelude::*;

use super::fork::ForkFrom;
use super::{Inspect, ViewMemo};
use crate::runner::Runner;
use roundtable_core::fork::ForkAt;
use roundtable_core::session::Tone;

/// The badge class of a call's or a member's state word: core's tone of it.
fn state_class(word: &str) -> &'static str {
    Tone::of_state(word).class()
}

/// The timeline panel.
#[component]
pub fn Timeline() -> impl IntoView {
    let runner = expect_context::<Runner>();
    let ViewMemo(view) = expect_context::<ViewMemo>();
    let Inspect(inspect) = expect_context::<Inspect>();
    let ForkFrom(fork_from) = expect_context::<ForkFrom>();
    view! {
        <section class="panel" aria-label="Timeline">
            <h2>"Timeline"</h2>
            <div class="panel-body">
                {move || {
                    let v = view.get();
                    let pct = v.progress;
                    let stage = if v.stage.is_empty() { "Not started".to_string() } else { v.stage };
                    view! {
                        <div class="small"><strong>{stage}</strong></div>
                        <div class="progress" role="progressbar" aria-label="Round progress"
                            aria-valuemin="0" aria-valuemax="100" aria-valuenow=pct>
                            <div style:width=format!("{pct}%")></div>
                        </div>
                    }
                }}
                // Every word is core's (engine state + the runner's facts); the characters of a
                // streaming answer re-render this list only.
                <div class="members-live" role="group" aria-label="Members now">
                    {move || {
                        let facts = runner.facts(true);
                        runner.with(|s| s.members_now(&facts)).into_iter().map(|m| {
                            let call_id = m.call_id.clone();
                            view! {
                                <div class="member-live" data-member=m.member.clone()>
                                    <span class="mname" title=m.name.clone()>{m.name.clone()}</span>
                                    {match call_id {
                                        Some(id) => view! {
                                            <button class=format!("badge {} link-badge", state_class(m.state)) data-live-state=m.state
                                                title="Open the transcript of this call"
                                                on:click=move |_| inspect.set(Some(id.clone()))>{m.label}</button>
                                        }.into_any(),
                                        None => view! {
                                            <span class=format!("badge {}", state_class(m.state)) data-live-state=m.state>{m.label}</span>
                                        }.into_any(),
                                    }}
                                </div>
                            }
                        }).collect_view()
                    }}
                </div>
                <div class="timeline" role="group" aria-label="Rounds and steps">
                    {move || { let facts = runner.facts(false); runner.with(|s| s.timeline(&facts)) }.into_iter().map(|round| view! {
                        <div class="round">
                            <h3>{round.title}</h3>
                            {round.steps.into_iter().map(|step| view! {
                                <div class="step">
                                    <div class="step-name">{step.title}</div>
                                    {step.calls.into_iter().map(|call| {
                                        let id = call.id.clone();
                                        let note = call.kind.note().map(|n| format!(" ({n})")).unwrap_or_default();
                                        view! {
                                            <div class="call-line" data-call-id=call.id.clone() data-member=call.member.clone()>
                                                <button class="link" on:click=move |_| inspect.set(Some(id.clone()))
                                                    title=format!("Open the transcript of {}", call.title)>
                                                    {format!("{}{note}", call.member_name)}
                                                </button>
                                                <span class=format!("badge {}", state_class(call.now.state)) data-state=call.now.state>{call.now.label}</span>
                                                {(call.tokens > 0).then(|| view! {
                                                    <span class="muted small" title=call.tokens_estimated.then_some("estimated: the provider counted none")>
                                                        {format!("{}{} tokens{}", if call.tokens_estimated { "≈ " } else { "" }, crate::util::short_count(call.tokens), if call.tokens_estimated { " (est.)" } else { "" })}
                                                    </span>
                                                })}
                                                {call.cost.map(|c| view! { <span class="muted small" data-call-cost>{c}</span> })}
                                                <button class="ghost small fork-call" name="fork" aria-label=format!("Fork from {}", call.title)
                                                    title="Fork from here: a new session with everything before this call, then live with your changes"
                                                    on:click={
                                                        let id = call.id.clone();
                                                        move |_| fork_from.set(Some(ForkAt::Call(id.clone())))
                                                    }>"Fork"</button>
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
