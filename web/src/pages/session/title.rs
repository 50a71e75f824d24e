//! The session's title on its page: its name, renaming it in place, and a fork's line (where it
//! came from and what the person changed there, in core's words).
//!
//! Renaming is keyboard-first: Rename opens a field holding the title, Enter saves, Escape
//! cancels, and focus comes back to Rename. An empty title gives back the default (the request's
//! first line). The name is a person's edit in the session's log, so it survives a reload, an
//! export and import, and a shared link.

use leptos::prelude::*;
use roundtable_core::engine::title::TITLE_MAX;

use crate::app::app_state;
use crate::route::Route;
use crate::runner::Runner;
use crate::util::now_ms;

/// The title, its Rename control, and a fork's line.
#[component]
pub fn SessionTitle() -> impl IntoView {
    let runner = expect_context::<Runner>();
    let state = app_state();
    let editing = RwSignal::new(false);
    let draft = RwSignal::new(String::new());
    let field = NodeRef::<leptos::html::Input>::new();
    let rename_button = NodeRef::<leptos::html::Button>::new();
    let title = move || runner.record().title;
    let default_title = move || {
        runner.record();
        runner.with_untracked(|s| s.default_title())
    };
    let focus_rename = move || {
        request_animation_frame(move || {
            if let Some(b) = rename_button.get_untracked() {
                let _ = b.focus();
            }
        })
    };
    let open = move || {
        draft.set(title());
        editing.set(true);
        request_animation_frame(move || {
            if let Some(f) = field.get_untracked() {
                let _ = f.focus();
                f.select();
            }
        });
    };
    let cancel = move || {
        editing.set(false);
        focus_rename();
    };
    let save = move || {
        let text = draft.get_untracked();
        leptos::task::spawn_local(async move {
            match runner.command(|s| s.rename(&text, now_ms() as u64)).await {
                Ok(()) => {
                    editing.set(false);
                    focus_rename();
                }
                Err(e) => state.error(e),
            }
        });
    };
    let note = move || {
        runner.record();
        runner.with_untracked(|s| s.fork_note())
    };
    view! {
        <div class="session-title">
            <h1 title=title hidden=move || editing.get()>{title}</h1>
            <button class="ghost small" name="rename" node_ref=rename_button
                // A point of history is not the session to rename: Back to live first.
                hidden=move || editing.get() || runner.history_at.get().is_some()
                disabled=move || runner.read_only.get()
                title="Give this session a name of your own"
                on:click=move |_| open()>"Rename"</button>
            <span class="title-edit" hidden=move || !editing.get()>
                <input type="text" name="title" node_ref=field aria-label="Session title"
                    maxlength=TITLE_MAX placeholder=default_title
                    aria-describedby="title-help"
                    prop:value=move || draft.get()
                    on:input=move |ev| draft.set(event_target_value(&ev))
                    on:keydown=move |ev| match ev.key().as_str() {
                        "Enter" => { ev.prevent_default(); save(); }
                        "Escape" => { ev.prevent_default(); cancel(); }
                        _ => {}
                    }/>
                <button class="small" name="save-title" on:click=move |_| save()>"Save"</button>
                <button class="ghost small" name="cancel-title" on:click=move |_| cancel()>"Cancel"</button>
                <span id="title-help" class="muted small">
                    "Enter saves, Escape cancels; empty gives back “" {default_title} "”."
                </span>
            </span>
            {move || note().map(|n| {
            let href = Route::Session { id: n.from.session.clone(), product: None, at: Some(n.from.seq) }.href();
            view! {
                <p class="fork-line muted small" data-fork-note=n.from.session.clone()>
                    <span class="fork-note">{n.words()}</span> " · " <a href=href>"the original at that point"</a>
                </p>
            }
            })}
        </div>
    }
}
