//! The meeting's pages (spec `001`): its panels on the session page, its new-session form and the
//! home page's demo meeting.

use leptos::prelude::*;
use roundtable_core::engine::ModelRef;
use roundtable_core::protocol::meeting::{MeetingConfig, MeetingState};
use roundtable_core::session::Session;

use super::kinds::{Demo, HasPages, KindPages};

mod new;
mod panels;

/// The agenda of the one-click demo meeting.
const DEMO_AGENDA: &str = "Choose where to hold the team offsite.\nBudget: £3,000 for 12 people. It must be reachable by train, and we need a decision by Friday.";

impl HasPages for MeetingState {
    const PAGES: KindPages = KindPages {
        panels,
        new_form,
        form_kept: false,
        exports: None,
        demo: Some(Demo {
            name: "demo-meeting",
            label: "Try a demo meeting",
            create: demo,
        }),
        wrap_up: "End the meeting and ask for the minutes",
        done: " The meeting is over; its minutes are below.",
        draft: " to hold the meeting, or go one step at a time.",
        tagline: "a meeting that decides",
    };
}

fn panels(_: Signal<Option<String>>, _: Callback<Option<String>>) -> AnyView {
    view! { <panels::MeetingPanels/> <super::session::budget::BudgetPanel/> }.into_any()
}

fn new_form(shown: Signal<bool>) -> AnyView {
    (move || shown.get().then(|| view! { <new::NewMeetingForm/> })).into_any()
}

/// A meeting on the demo model with a ready agenda: one click from the home page to a meeting.
fn demo(now: u64) -> Result<Session, String> {
    let model = ModelRef {
        provider: roundtable_core::demo::PROVIDER.into(),
        model: roundtable_core::demo::MODEL.into(),
    };
    let people = [
        ("ana", "Ana", "Engineer"),
        ("bo", "Bo", "Designer"),
        ("cy", "Cy", "Product manager"),
    ];
    let config = MeetingConfig::standard(DEMO_AGENDA, &people, model);
    Session::create::<MeetingState>(config, now).map_err(|e| e.to_string())
}
