//! Autocoding's pages (spec `002`'s player/coach loop): its panels on the session page, the
//! button that downloads 002's saved state, its new-session form and the home page's demo.

use leptos::prelude::*;
use roundtable_core::engine::ModelRef;
use roundtable_core::protocol::autocoding::{
    demo::DEMO_REQUIREMENTS, Autocoding, AutocodingConfig,
};
use roundtable_core::session::Session;

use super::kinds::{Demo, HasPages, KindPages};
use crate::app::app_state;
use crate::runner::Runner;

mod new;
mod panels;

impl HasPages for Autocoding {
    const PAGES: KindPages = KindPages {
        panels,
        new_form,
        form_kept: false,
        exports: Some(exports),
        demo: Some(Demo {
            name: "demo-autocoding",
            label: "Try a demo of autocoding",
            create: demo,
        }),
        wrap_up: "Stop after this turn's review is in and end the session",
        done: " The loop has ended; the turns, their test runs and the coach's scores are below.",
        draft: " to let the player write and the coach review until approval, or go one turn at a time.",
    };
}

fn panels(_: Signal<Option<String>>, _: Callback<Option<String>>) -> AnyView {
    view! { <panels::AutocodingPanels/> }.into_any()
}

fn new_form(shown: Signal<bool>) -> AnyView {
    (move || shown.get().then(|| view! { <new::NewAutocodingForm/> })).into_any()
}

fn exports() -> AnyView {
    view! { <StateButton/> }.into_any()
}

/// Downloads spec 002's `AutocodingState` as `autocoding_save` writes it (core's
/// [`Session::kind_document`]): the file `autocoding_load` reads back.
#[component]
fn StateButton() -> impl IntoView {
    let runner = expect_context::<Runner>();
    let state = app_state();
    view! {
        <button name="export-002" class="ghost" title="Download the loop's state as Hegelion saves it, to go on with in Hegelion or here" on:click=move |_| {
            let document = runner.with_untracked(|s| {
                s.kind_document().map(|(kind, text)| (format!("{}.{kind}.json", crate::util::file_stem(&s.title())), text))
            });
            match document {
                Some((name, text)) => if let Err(e) = crate::util::download(&name, "application/json", &text) { state.error(e); },
                None => state.error("This session is not autocoding."),
            }
        }>"Hegelion file"</button>
    }
}

/// Autocoding on the demo model: the demo's slugify requirements, 002's defaults.
fn demo(now: u64) -> Result<Session, String> {
    let model = ModelRef {
        provider: roundtable_core::demo::PROVIDER.into(),
        model: roundtable_core::demo::MODEL.into(),
    };
    let mut config = AutocodingConfig::standard(DEMO_REQUIREMENTS, model);
    config.session_id = crate::util::new_id();
    Session::create::<Autocoding>(config, now).map_err(|e| e.to_string())
}
