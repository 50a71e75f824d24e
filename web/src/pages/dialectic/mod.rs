//! The dialectic's pages (spec `002`): its panels on the session page, the buttons that download
//! 002's documents of the run (its result file, and the dialectic as one prompt), its new-session
//! form and the home page's demo dialectic.

use leptos::prelude::*;
use roundtable_core::engine::ModelRef;
use roundtable_core::protocol::dialectic::{DialecticConfig, DialecticState};
use roundtable_core::session::Session;

use super::kinds::{Demo, HasPages, KindDocumentButton, KindPages};

mod new;
mod panels;

impl HasPages for DialecticState {
    const PAGES: KindPages = KindPages {
        panels,
        new_form,
        form_kept: false,
        exports: Some(exports),
        demo: Some(Demo {
            name: "demo-dialectic",
            label: "Try a demo dialectic",
            create: demo,
        }),
        wrap_up: "Skip the critiques still out and ask for the synthesis",
        done: " The synthesis is written; it is below, beside the thesis and the critiques.",
        draft: " to write the thesis, the critiques and the synthesis, or go one phase at a time.",
        tagline: "a dialectic that argues it out",
    };
}

fn panels(_: Signal<Option<String>>, _: Callback<Option<String>>) -> AnyView {
    view! { <panels::DialecticPanels/> }.into_any()
}

fn new_form(shown: Signal<bool>) -> AnyView {
    (move || shown.get().then(|| view! { <new::NewDialecticForm/> })).into_any()
}

fn exports() -> AnyView {
    view! {
        <KindDocumentButton label="Dialectic (Hegelion format)" title="Download the run as a Hegelion result file (JSON: the thesis, each critique and the synthesis)"/>
        <SinglePromptButton/>
    }
    .into_any()
}

/// Downloads the dialectic as spec 002's one prompt (`dialectical_workflow` with `format:
/// "single_prompt"`: the single shot's fields and `format`), to run it in any chat.
#[component]
fn SinglePromptButton() -> impl IntoView {
    let runner = expect_context::<crate::runner::Runner>();
    let state = crate::app::app_state();
    view! {
        <button name="export-single-prompt" class="ghost"
            title="Download the dialectic as one prompt in Hegelion's one-prompt format, to run in any chat"
            on:click=move |_| {
                let document = runner.with_untracked(|s| {
                    s.state_of::<DialecticState>().map(|d| {
                        let text = serde_json::to_string_pretty(&d.single_prompt_document()).unwrap_or_default();
                        (format!("{}.single_prompt.json", crate::util::file_stem(&s.title())), text)
                    })
                });
                match document {
                    Some((name, text)) => if let Err(e) = crate::util::download(&name, "application/json", &text) { state.error(e); },
                    None => state.error("This session is not a dialectic."),
                }
            }>"Dialectic as one prompt (Hegelion format)"</button>
    }
}

/// A dialectic on the demo model with the council of three critics, from core's demos: one
/// click from the home page to a dialectic.
fn demo(now: u64) -> Result<Session, String> {
    let model = ModelRef {
        provider: roundtable_core::demo::PROVIDER.into(),
        model: roundtable_core::demo::MODEL.into(),
    };
    let config = DialecticConfig::demos(model)
        .into_iter()
        .find(|c| c.use_council && c.critics.len() > 1)
        .ok_or("core has no demo dialectic with a council")?;
    Session::create::<DialecticState>(config, now).map_err(|e| e.to_string())
}
