//! Where a message can be acted on: every pause reason, failed call and question the session
//! page shows carries core's [`Fix`], and this renders it as one link or button beside the
//! message (Settings for a key or a model, the transcript of a bad answer, the Budget panel's field of
//! the limit that stopped it, the run controls…).

use leptos::prelude::*;
use roundtable_core::engine::{Fix, LimitKind};

use super::Inspect;

/// Moves focus to the first element matching `selector` (and scrolls it into view).
fn focus(selector: &str) {
    let el = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(selector).ok().flatten());
    if let Some(el) = el {
        el.scroll_into_view();
        if let Some(el) = wasm_bindgen::JsCast::dyn_ref::<web_sys::HtmlElement>(&el) {
            let _ = el.focus();
        }
    }
}

/// The link or button for one [`Fix`].
#[component]
pub fn FixLink(fix: Fix) -> impl IntoView {
    let Inspect(inspect) = expect_context::<Inspect>();
    match fix {
        Fix::Settings => view! { <a class="fix" data-fix="settings" href="#/settings">"Open Settings"</a> }.into_any(),
        Fix::Transcript { call_id } => view! {
            <button class="link fix" data-fix="transcript" on:click=move |_| inspect.set(Some(call_id.clone()))>
                "Open the transcript"
            </button>
        }.into_any(),
        Fix::Limits { limit } => {
            // The Budget panel's field of the limit that stopped the session.
            let (field, text) = match limit {
                Some(LimitKind::Rounds) => ("round-limit", "Raise the round limit"),
                Some(LimitKind::Money) => ("money-budget", "Raise the money budget"),
                Some(LimitKind::Tokens) | None => ("token-budget", "Raise the token budget"),
            };
            let text = if limit.is_none() { "Go to Budget" } else { text };
            view! {
                <button class="link fix" data-fix="limits" on:click=move |_| focus(&format!("input[name={field}]"))>{text}</button>
            }.into_any()
        }
        Fix::Question => view! {
            <button class="link fix" data-fix="question" on:click=move |_| focus("[data-dialog=halt] textarea, [data-answer-later] button")>"Answer the question"</button>
        }.into_any(),
        Fix::Resume => view! {
            <button class="link fix" data-fix="resume" on:click=move |_| focus("button[name=run]")>"Go to Run"</button>
        }.into_any(),
        Fix::Setup => view! {
            <button class="link fix" data-fix="setup" on:click=move |_| focus("button[name=edit-charter]")>"Edit the charter"</button>
        }.into_any(),
    }
}
