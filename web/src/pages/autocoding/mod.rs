//! Autocoding's pages (spec `002`'s player/coach loop): its panels on the session page, the
//! button that downloads 002's saved state, its new-session form and the home page's demo.

use leptos::prelude::*;
use roundtable_core::engine::ModelRef;
use roundtable_core::protocol::autocoding::{
    demo::DEMO_REQUIREMENTS, Autocoding, AutocodingConfig,
};
use roundtable_core::session::Session;

use super::kinds::{Demo, HasPages, KindDocumentButton, KindPages};

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
        tagline: "autocoding that a coach checks by running its tests",
    };
}

fn panels(_: Signal<Option<String>>, _: Callback<Option<String>>) -> AnyView {
    view! { <panels::AutocodingPanels/> }.into_any()
}

fn new_form(shown: Signal<bool>) -> AnyView {
    (move || shown.get().then(|| view! { <new::NewAutocodingForm/> })).into_any()
}

fn exports() -> AnyView {
    view! { <KindDocumentButton label="Autocoding state" title="Download the loop's state as Hegelion saves it, to go on with in Hegelion or here"/> }.into_any()
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
