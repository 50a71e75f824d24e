//! Remarks addressed to the person (and a remark to the chair), and the mission charter, which
//! the person may edit; each edit is recorded as the person's event. Core decides which remarks
//! are the person's and checks an edit (a complete charter, within the length limits the chair's
//! answers are held to); the form shows core's reason.

use leptos::prelude::*;
use roundtable_core::protocol::team::{Charter, PersonEdit};

use super::{edit_team, editable, with_team};
use crate::app::app_state;
use crate::runner::Runner;

/// Remarks to the person, newest first, and a box to write to the chair.
#[component]
pub fn Remarks() -> impl IntoView {
    let runner = expect_context::<Runner>();
    let state = app_state();
    let text = RwSignal::new(String::new());
    let editable = editable(runner);
    let send = move || {
        let content = text.get_untracked().trim().to_string();
        if content.is_empty() {
            state.error("Write the remark first.");
            return;
        }
        leptos::task::spawn_local(async move {
            let edit = PersonEdit::RemarkToChair { content };
            match runner.command(|s| edit_team(s, edit)).await {
                Ok(()) => {
                    text.set(String::new());
                    state.info("The chair will see your remark in its next prompt.");
                }
                Err(e) => state.error(e),
            }
        });
    };
    view! {
        <section class="panel" aria-label="Remarks">
            <h2>"Remarks to you"</h2>
            <div class="panel-body">
                {move || runner.with(|s| {
                    let list = with_team(s, |t| t.remarks()).unwrap_or_default();
                    if list.is_empty() {
                        view! { <p class="muted small">"No remarks addressed to you yet."</p> }.into_any()
                    } else {
                        list.into_iter().map(|r| view! {
                            <div class="remark">
                                <div class="small muted">{format!("{} · {} · round {}", r.from, r.remark_type, r.round)}</div>
                                <div>{r.content.clone()}</div>
                            </div>
                        }).collect_view().into_any()
                    }
                })}
                {move || editable().then(|| view! {
                <label class="field">
                    <span>"Remark to the chair"</span>
                    <textarea name="remark" rows="2" prop:value=move || text.get()
                        on:input=move |ev| text.set(event_target_value(&ev))></textarea>
                </label>
                <div class="row end">
                    <button class="ghost small" name="send-remark" on:click=move |_| send()>"Send remark"</button>
                </div>
                })}
            </div>
        </section>
    }
}

/// The charter, with an editor.
#[component]
pub fn CharterPanel() -> impl IntoView {
    let runner = expect_context::<Runner>();
    let state = app_state();
    let editing = RwSignal::new(false);
    let editable = editable(runner);
    let mission = RwSignal::new(String::new());
    let objectives = RwSignal::new(String::new());
    let constraints = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let begin = move || {
        let c = runner.with_untracked(|s| with_team(s, |t| t.charter_draft()).unwrap_or_default());
        mission.set(c.mission);
        objectives.set(c.objectives);
        constraints.set(c.constraints);
        error.set(None);
        editing.set(true);
    };
    let save = move || {
        let charter = Charter {
            mission: mission.get_untracked().trim().to_string(),
            objectives: objectives.get_untracked().trim().to_string(),
            constraints: constraints.get_untracked().trim().to_string(),
        };
        leptos::task::spawn_local(async move {
            match runner
                .command(|s| edit_team(s, PersonEdit::Charter { charter }))
                .await
            {
                Ok(()) => {
                    editing.set(false);
                    state.info("Charter saved; the team works from it from the next call on.");
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    view! {
        <section class="panel" aria-label="Charter">
            <h2>"Mission charter" <span class="spacer"></span>
                {move || (!editing.get() && editable()).then(|| view! {
                    <button class="ghost small" name="edit-charter" on:click=move |_| begin()>"Edit"</button>
                })}
            </h2>
            <div class="panel-body">
                {move || if editing.get() {
                    view! {
                        <label class="field"><span>"Mission"</span>
                            <textarea name="charter-mission" rows="3" prop:value=move || mission.get() on:input=move |ev| mission.set(event_target_value(&ev))></textarea></label>
                        <label class="field"><span>"Objectives"</span>
                            <textarea name="charter-objectives" rows="3" prop:value=move || objectives.get() on:input=move |ev| objectives.set(event_target_value(&ev))></textarea></label>
                        <label class="field"><span>"Constraints"</span>
                            <textarea name="charter-constraints" rows="3" prop:value=move || constraints.get() on:input=move |ev| constraints.set(event_target_value(&ev))></textarea></label>
                        <div class="field-error" role="alert">{move || error.get()}</div>
                        <div class="row end">
                            <button class="ghost small" on:click=move |_| editing.set(false)>"Cancel"</button>
                            <button class="small" name="save-charter" on:click=move |_| save()>"Save charter"</button>
                        </div>
                    }.into_any()
                } else {
                    runner.with(|s| match with_team(s, |t| t.charter()).flatten() {
                        None => view! { <p class="muted small">"The chair writes the charter at Bootstrap."</p> }.into_any(),
                        Some(c) => view! {
                            <dl class="charter">
                                <dt>"Mission"</dt><dd>{c.mission}</dd>
                                <dt>"Objectives"</dt><dd>{c.objectives}</dd>
                                <dt>"Constraints"</dt><dd>{c.constraints}</dd>
                            </dl>
                        }.into_any(),
                    })
                }}
            </div>
        </section>
    }
}
