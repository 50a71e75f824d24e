//! The fork dialog: "Fork from here" on any call (or any point of history) opens it; the person
//! makes the what-ifs — a member's provider and model or persona, the charter, the chosen call's
//! answer — and core makes the fork ([`Session::fork`]): the log up to that point as it was
//! (recorded answers replayed, no call made), then live. An edited answer is judged like a
//! model's: an invalid one is refused with the same findings, shown here to fix. The fork is
//! stored as a new session and opened, paused, for the person to run.
//!
//! A modal dialog like the others: focus goes in on open and back on close, Tab stays inside,
//! Escape cancels.

use leptos::prelude::*;
use roundtable_core::engine::{ForkError, MemberChange, ModelRef};
use roundtable_core::fork::{ForkAt, ForkForm, WhatIf};
use roundtable_core::protocol::team::Charter;
use roundtable_core::session::Session;

use super::transcript::Violations;
use crate::pages::form::ProviderModelFields;
use crate::providers::ProviderId;
use crate::route::{navigate, Route};
use crate::runner::Runner;

/// Where the fork dialog forks from; open while it holds a point.
#[derive(Clone, Copy)]
pub struct ForkFrom(pub RwSignal<Option<ForkAt>>);

/// One member as the dialog edits it.
#[derive(Clone, Copy)]
struct MemberFields {
    provider: RwSignal<ProviderId>,
    model: RwSignal<String>,
    persona: RwSignal<String>,
}

/// The dialog; open while [`ForkFrom`] holds a point.
#[component]
pub fn ForkDialog() -> impl IntoView {
    let ForkFrom(fork_from) = expect_context::<ForkFrom>();
    let dialog_ref = NodeRef::<leptos::html::Div>::new();
    let opener = StoredValue::new_local(None::<web_sys::HtmlElement>);
    Effect::new(move |_| {
        if fork_from.get().is_some() {
            if opener.with_value(Option::is_none) {
                opener.set_value(crate::pages::dialog::active());
            }
            if let Some(el) = dialog_ref.get() {
                crate::pages::dialog::focus_first(&el, "select");
            }
        } else if let Some(el) = opener.try_update_value(Option::take).flatten() {
            let _ = el.focus();
        }
    });
    let close = move || fork_from.set(None);
    view! {
        {move || fork_from.get().map(|at| view! {
            <div class="overlay" on:click=move |ev| {
                if ev.target() == ev.current_target() { close(); }
            }>
                <div class="dialog fork-dialog" role="dialog" aria-modal="true" aria-labelledby="fork-title"
                    aria-describedby="fork-what" tabindex="-1" node_ref=dialog_ref
                    on:keydown=move |ev: web_sys::KeyboardEvent| {
                        if ev.key() == "Escape" {
                            close();
                        } else if let Some(el) = dialog_ref.get_untracked() {
                            crate::pages::dialog::trap_tab(&ev, &el);
                        }
                    }>
                    <ForkBody at=at/>
                </div>
            </div>
        })}
    }
}

#[component]
fn ForkBody(at: ForkAt) -> impl IntoView {
    let runner = expect_context::<Runner>();
    let ForkFrom(fork_from) = expect_context::<ForkFrom>();
    // The fork is made of the committed log (the same as any point of history shown).
    let form = runner.with_untracked(|s| s.fork_form(&at));
    // The point in words: the call as the transcript titles it, or the point of history.
    let title = match &at {
        ForkAt::Call(id) => runner.with_untracked(|s| s.call_title(id)).map_or_else(
            || "Fork from this call".to_string(),
            |call| format!("Fork from {call}"),
        ),
        ForkAt::Event(seq) => runner
            .with_untracked(|s| s.point_words(*seq as usize))
            .map_or_else(
                || "Fork from here".to_string(),
                |point| format!("Fork after “{point}”"),
            ),
    };
    let body = match form {
        Err(e) => view! {
            <p class="notice error" role="alert">{format!("This point cannot be forked: {e}.")}</p>
        }
        .into_any(),
        Ok(form) => view! { <ForkFields at=at form=form/> }.into_any(),
    };
    view! {
        <header>
            <h2 id="fork-title">{title}</h2>
            <button class="ghost" aria-label="Close" on:click=move |_| fork_from.set(None)>"Close"</button>
        </header>
        <div class="body">{body}</div>
    }
}

#[component]
fn ForkFields(at: ForkAt, form: ForkForm) -> impl IntoView {
    let runner = expect_context::<Runner>();
    let ForkFrom(fork_from) = expect_context::<ForkFrom>();
    let is_call = matches!(at, ForkAt::Call(_));
    let members: Vec<(String, String, MemberFields)> = form
        .members
        .iter()
        .map(|m| {
            (
                m.id.clone(),
                m.name.clone(),
                MemberFields {
                    provider: RwSignal::new(
                        ProviderId::parse(&m.model.provider).unwrap_or(ProviderId::Demo),
                    ),
                    model: RwSignal::new(m.model.model.clone()),
                    persona: RwSignal::new(m.persona.clone()),
                },
            )
        })
        .collect();
    let original = StoredValue::new(form.clone());
    let charter = form.charter.clone().unwrap_or_default();
    let mission = RwSignal::new(charter.mission.clone());
    let objectives = RwSignal::new(charter.objectives.clone());
    let constraints = RwSignal::new(charter.constraints.clone());
    let (call_member, recorded) = form.call.clone().unzip();
    let recorded = recorded.flatten();
    let own_answer = RwSignal::new(false);
    let answer = RwSignal::new(recorded.as_deref().unwrap_or_default().to_string());
    let problem = RwSignal::new(None::<String>);
    let findings = RwSignal::new(None::<roundtable_core::engine::Findings>);
    let busy = RwSignal::new(false);
    let fields = StoredValue::new(members.clone());
    let at_stored = StoredValue::new(at.clone());
    // Taken now: the dialog (and its owner) is gone by the time the fork is stored.
    let state = crate::app::app_state();

    // The what-ifs: only what the person changed.
    let what_if = move || -> WhatIf {
        let form = original.get_value();
        let members = fields
            .get_value()
            .into_iter()
            .zip(form.members.iter())
            .filter_map(|((id, _, f), was)| {
                let model = ModelRef {
                    provider: f.provider.get_untracked().as_str().to_string(),
                    model: f.model.get_untracked().trim().to_string(),
                };
                let persona = f.persona.get_untracked();
                let change = MemberChange {
                    member: id,
                    model: (model != was.model).then_some(model),
                    persona: (persona != was.persona).then_some(persona),
                };
                (change.model.is_some() || change.persona.is_some()).then_some(change)
            })
            .collect();
        let new_charter = Charter {
            mission: mission.get_untracked(),
            objectives: objectives.get_untracked(),
            constraints: constraints.get_untracked(),
        };
        let charter = (form.has_charter && new_charter != form.charter.clone().unwrap_or_default())
            .then_some(new_charter);
        WhatIf {
            members,
            charter,
            answer: own_answer.get_untracked().then(|| answer.get_untracked()),
        }
    };
    let make = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if busy.get_untracked() {
            return;
        }
        problem.set(None);
        findings.set(None);
        let original_id = runner.id();
        let at = at_stored.get_value();
        let made = runner.with_untracked(|s: &Session| {
            s.fork(&at, &original_id, what_if(), crate::util::now_ms() as u64)
        });
        match made {
            Err(ForkError::InvalidAnswer(f)) => findings.set(Some(f)),
            Err(e) => problem.set(Some(crate::pages::form::sentence(&e.to_string()))),
            Ok(fork) => {
                busy.set(true);
                leptos::task::spawn_local(async move {
                    match crate::sessions::store_new(fork).await {
                        Ok(id) => {
                            state.info_for_next_page(
                                "Forked: the new session is paused where it was forked. Run it when ready.",
                            );
                            navigate(&Route::session(id));
                            fork_from.set(None);
                        }
                        Err(e) => {
                            busy.set(false);
                            problem.set(Some(format!("The fork could not be stored: {e}")));
                        }
                    }
                });
            }
        }
    };
    let what = if is_call {
        "A new session with this session's history up to just before this call — recorded answers replayed, no call made again — that then runs live from this call with the changes below. This session stays as it is."
    } else {
        "A new session with this session's history up to this event — recorded answers replayed, no call made again — that then runs live with the changes below. This session stays as it is."
    };
    view! {
        <form class="stack fork-form" on:submit=make novalidate>
            <p id="fork-what" class="small">{what}</p>
            <fieldset class="stack">
                <legend>"Members"</legend>
                {members.into_iter().map(|(id, name, f)| view! {
                    <fieldset class="fork-member" data-member=id.clone()>
                        <legend>{name.clone()}</legend>
                        <div class="row wrap">
                            <ProviderModelFields name="fork" provider=f.provider model=f.model
                                default_model=Callback::new(|p: ProviderId| p.default_model().to_string())/>
                        </div>
                        <label class="field">
                            <span>"Persona"</span>
                            // A member with no persona (a meeting's attendees by default)
                            // speaks from its role: the box says so rather than stand empty.
                            <textarea name="fork-persona" rows="2" prop:value=move || f.persona.get()
                                placeholder=format!("None: {name} speaks from its role. Write one to change how {name} sees the work.")
                                on:input=move |ev| f.persona.set(event_target_value(&ev))></textarea>
                        </label>
                    </fieldset>
                }).collect_view()}
            </fieldset>
            {form.has_charter.then(|| view! {
                <fieldset class="stack">
                    <legend>"Charter"</legend>
                    <label class="field"><span>"Mission"</span>
                        <textarea name="fork-mission" rows="2" prop:value=move || mission.get()
                            on:input=move |ev| mission.set(event_target_value(&ev))></textarea></label>
                    <label class="field"><span>"Objectives"</span>
                        <textarea name="fork-objectives" rows="2" prop:value=move || objectives.get()
                            on:input=move |ev| objectives.set(event_target_value(&ev))></textarea></label>
                    <label class="field"><span>"Constraints"</span>
                        <textarea name="fork-constraints" rows="2" prop:value=move || constraints.get()
                            on:input=move |ev| constraints.set(event_target_value(&ev))></textarea></label>
                </fieldset>
            })}
            {call_member.map(|member| view! {
                <fieldset class="stack">
                    <legend>"This call's answer"</legend>
                    <label class="row center">
                        <input type="checkbox" name="fork-own-answer" prop:checked=move || own_answer.get()
                            on:change=move |ev| own_answer.set(event_target_checked(&ev))/>
                        <span>{format!("Give {member} this answer instead of asking its model again")}</span>
                    </label>
                    {move || own_answer.get().then(|| view! {
                        <label class="field">
                            <span>{if recorded.is_some() { "The answer (the recorded one, to edit)" } else { "The answer" }}</span>
                            <textarea name="fork-answer" rows="10" class="mono" spellcheck="false"
                                aria-invalid=move || findings.with(Option::is_some).then_some("true")
                                aria-describedby="fork-findings"
                                prop:value=move || answer.get()
                                on:input=move |ev| answer.set(event_target_value(&ev))></textarea>
                        </label>
                    })}
                </fieldset>
            })}
            <div id="fork-findings" role="alert">
                {move || findings.get().map(|f| view! {
                    <p class="notice error">{format!("The edited answer is invalid: {} problem(s), the same a model would be sent back. Fix it, or untick it to ask the model again.", f.errors.len())}</p>
                    <Violations list=f.errors warning=false/>
                })}
                {move || problem.get().map(|p| view! { <p class="notice error">{p}</p> })}
            </div>
            <div class="row end">
                <button type="button" class="ghost" on:click=move |_| fork_from.set(None)>"Cancel"</button>
                <button type="submit" name="make-fork" disabled=move || busy.get()>
                    {move || if busy.get() { "Making the fork…" } else { "Make the fork" }}
                </button>
            </div>
        </form>
    }
}
