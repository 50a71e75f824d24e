//! The dialectic's pages (spec `002`): its panels on the session page, the button that downloads
//! 002's document of the run, its new-session form and the home page's demo dialectic.

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
    view! { <KindDocumentButton label="Dialectic (Hegelion format)" title="Download the run as a Hegelion result file (JSON, the format of spec 002: the thesis, each critique and the synthesis)"/> }.into_any()
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
