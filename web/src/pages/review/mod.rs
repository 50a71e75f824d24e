//! The review loop's pages (spec `004`, thehood's runtime): its panels on the session page, its
//! new-session form and the home page's demo. The loop's rules — who holds which role, the gates,
//! what the runtime writes — are core's (`protocol::review`); these pages show them.

use leptos::prelude::*;
use roundtable_core::engine::ModelRef;
use roundtable_core::protocol::review::{demo, ReviewState};
use roundtable_core::session::Session;

use super::kinds::{Demo, HasPages, KindPages};

mod new;
mod panels;

impl HasPages for ReviewState {
    const PAGES: KindPages = KindPages {
        panels,
        new_form,
        form_kept: false,
        exports: None,
        demo: Some(Demo {
            name: "demo-review",
            label: "Try a demo of the review loop",
            create: demo,
        }),
        wrap_up: "Stop after the calls now out and have the orchestrator reconcile the run",
        done: " The run is reconciled; the board, the gates, the runtime's artifacts and runs are below.",
        draft: " to let the orchestrator plan, delegate and verify until the gates are met, or go one step at a time.",
        tagline: "a review loop whose runtime holds the gates",
    };
}

fn panels(_: Signal<Option<String>>, _: Callback<Option<String>>) -> AnyView {
    view! { <panels::ReviewPanels/> }.into_any()
}

fn new_form(shown: Signal<bool>) -> AnyView {
    (move || shown.get().then(|| view! { <new::NewReviewForm/> })).into_any()
}

/// The review loop on the demo model: the demo's goal and criteria, thehood's defaults, a fresh
/// run id.
fn demo(now: u64) -> Result<Session, String> {
    let model = ModelRef {
        provider: roundtable_core::demo::PROVIDER.into(),
        model: roundtable_core::demo::MODEL.into(),
    };
    let config = demo::config(model, &crate::util::new_id());
    Session::create::<ReviewState>(config, now).map_err(|e| e.to_string())
}
