//! The halt dialog: a member asked the person a question. Shows the message and the options,
//! takes one of them or a free answer, and lets the run go on.

use leptos::prelude::*;
use roundtable_core::engine::{PersonReply, Verdict};

use crate::app::app_state;
use crate::markdown::to_safe_html;
use crate::runner::Runner;

/// The dialog; shown while the session awaits the person (and they have not put it aside).
#[component]
pub fn HaltDialog() -> impl IntoView {
    let runner = expect_context::<Runner>();
    let state = app_state();
    let answer = RwSignal::new(String::new());
    let super::InboxLater(later) = expect_context::<super::InboxLater>();
    let busy = RwSignal::new(false);
    let error = RwSignal::new(None::<String>);
    let dialog_ref = NodeRef::<leptos::html::Div>::new();
    // Focus goes into the dialog when it opens: to the first option, or the answer box.
    Effect::new(move |_| {
        if let Some(el) = dialog_ref.get() {
            crate::pages::dialog::focus_first(&el, "button[data-option], textarea");
        }
    });
    // The live session's question (not a question of a point of history being shown), and not
    // over the history view: the person answers it back on live.
    let question = move || {
        runner.version.track();
        if runner.history_at.get().is_some() {
            return None;
        }
        runner.with_untracked(|s| {
            s.question()
                .map(|(asked_by, halt)| (asked_by, halt.clone()))
        })
    };
    // `verdict` is the button pressed on an approval; a question sends its answer without one.
    let send = move |verdict: Option<Verdict>| {
        let text = answer.get_untracked().trim().to_string();
        if text.chars().count() > 4000 {
            error.set(Some("Keep the answer under 4,000 characters.".into()));
            return;
        }
        let reply = match verdict {
            Some(v) => PersonReply::verdict(v, text),
            None => PersonReply::answer(text),
        };
        let asked = runner.with_untracked(|s| s.question().map(|(_, ask)| ask.clone()));
        if let Some(problem) = asked.as_ref().and_then(|ask| reply.problem(ask)) {
            error.set(Some(match problem {
                "the answer is empty" => "Type an answer or pick one of the options.".to_string(),
                other => format!("{}{}.", other[..1].to_uppercase(), &other[1..]),
            }));
            return;
        }
        error.set(None);
        busy.set(true);
        leptos::task::spawn_local(async move {
            match runner.answer_halt(reply).await {
                Ok(()) => answer.set(String::new()),
                Err(e) => state.error(e),
            }
            busy.set(false);
        });
    };
    view! {
        {move || question().filter(|_| !runner.read_only.get()).map(|(asked_by, halt)| {
            if later.get() {
                return view! {
                    <div class="banner info" data-answer-later="true" style="position: fixed; bottom: 1rem; left: 1rem; z-index: 30">
                        <strong>{asked_by.clone()}</strong>
                        {if halt.is_approval() { " is waiting for your approval." } else { " is waiting for your answer." }}
                        <button class="small" on:click=move |_| later.set(false)>"Answer now"</button>
                    </div>
                }.into_any();
            }
            let options = halt.options().to_vec();
            let approval = halt.is_approval();
            view! {
                <div class="overlay">
                    <div class="dialog small" role="dialog" aria-modal="true" aria-labelledby="halt-title" data-dialog="halt"
                        node_ref=dialog_ref
                        on:keydown=move |ev: web_sys::KeyboardEvent| {
                            // Escape puts the question aside ("Later"); Tab stays in the dialog.
                            if ev.key() == "Escape" {
                                later.set(true);
                            } else if let Some(el) = dialog_ref.get_untracked() {
                                crate::pages::dialog::trap_tab(&ev, &el);
                            }
                        }>
                        <header>
                            <h2 id="halt-title">{format!("{asked_by} asks you")}</h2>
                        </header>
                        <div class="body">
                            <div class="markdown" inner_html=to_safe_html(halt.message())></div>
                            {(!options.is_empty()).then(|| view! {
                                <div class="options" role="group" aria-label="Options">
                                    {options.into_iter().map(|o| {
                                        let o2 = o.clone();
                                        view! {
                                            <button class="ghost small" data-option=o.clone()
                                                aria-pressed=move || (answer.get() == o2).to_string()
                                                on:click={ let o = o.clone(); move |_| answer.set(o.clone()) }>{o.clone()}</button>
                                        }
                                    }).collect_view()}
                                </div>
                            })}
                            <label class="field">
                                <span>{if approval { "A note (needed to ask for a revision)" } else { "Your answer" }}</span>
                                <textarea name="halt-answer" rows="3" prop:value=move || answer.get()
                                    aria-invalid=move || error.get().is_some().to_string()
                                    on:input=move |ev| answer.set(event_target_value(&ev))
                                    on:keydown=move |ev: web_sys::KeyboardEvent| {
                                        if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) && !approval { send(None); }
                                    }></textarea>
                            </label>
                            <div class="field-error" role="alert">{move || error.get()}</div>
                            <div class="row end">
                                <button class="ghost" on:click=move |_| later.set(true)>"Later"</button>
                                {if approval {
                                    view! {
                                        <button class="ghost" name="reject" disabled=move || busy.get() on:click=move |_| send(Some(Verdict::Reject))>"Reject"</button>
                                        <button class="ghost" name="revise" disabled=move || busy.get() on:click=move |_| send(Some(Verdict::Revise))>"Ask for a revision"</button>
                                        <button name="approve" disabled=move || busy.get() on:click=move |_| send(Some(Verdict::Approve))>"Approve"</button>
                                    }.into_any()
                                } else {
                                    view! {
                                        <button name="send-answer" disabled=move || busy.get() on:click=move |_| send(None)>"Send answer"</button>
                                    }.into_any()
                                }}
                            </div>
                        </div>
                    </div>
                </div>
            }.into_any()
        })}
    }
}
